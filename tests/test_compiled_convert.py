"""The bridge of the differential tests: reference states to flat arrays and back, exactly; move codes
to moves and back; the layout's offsets as the kernels compute them; and what the compiled engine
refuses to run (issue 34)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import attrs
from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile, random_states

import unoengine as u
from unoengine.compiled import kernel_base as kb
from unoengine.compiled.codes import MoveCodeError, decode, encode
from unoengine.compiled.config import UnsupportedRuleError, config_of
from unoengine.compiled.convert import to_array, to_state
from unoengine.compiled.layout import offsets
from unoengine.engine.effects import register_effect


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_states_and_moves_round_trip(spec: str, changes: dict[str, object]) -> None:
    profile = compiled_profile(spec, **changes)
    config_of(profile)
    for state, _move in random_states(profile, budget(3, 10, 30), seed=7, biased=True,
                                         max_moves=budget(600, 3_000)):
        assert to_state(profile, to_array(state)) == state
        for move in u.legal_moves(state):
            assert decode(encode(move)) == move


def test_kernel_offsets_are_the_layouts() -> None:
    for n in range(2, 11):
        for d in (15, 108, 112, 500):
            o = offsets(n, d)
            assert (kb.o_scores(n), kb.o_last_hand_points(n), kb.o_last_points_won(n), kb.o_hand_size(n),
                    kb.o_hands(n), kb.o_known(n), kb.o_draw(n), kb.o_discard(n, d), kb.o_challenge_hand(n, d),
                    kb.o_reveal(n, d)) == o[:-1]


@pytest.mark.parametrize("code", [-1, 1 << 24, 15, (11 << 4), (59 << 8)])
def test_codes_that_name_no_move_are_refused(code: int) -> None:
    with pytest.raises(MoveCodeError):
        decode(code)


def test_the_legacy_shuffle_is_refused_naming_it() -> None:
    with pytest.raises(UnsupportedRuleError, match=r"setup\.shuffle = 'mt19937'"):
        config_of(attrs.evolve(u.load_profile("classic-108"), shuffle="mt19937"))


def test_a_programs_own_effect_is_refused_and_a_replaced_builtin_too() -> None:
    """ACT-8: only the shipped effects are compiled; a program's, even under a shipped name, is refused."""
    sheet = compiled_profile("ffk04")
    config_of(sheet)
    register_effect("test-compiled-own", lambda s, p, t: s)
    with pytest.raises(UnsupportedRuleError, match="ACT-8"):
        config_of(attrs.evolve(sheet, custom_effect="test-compiled-own"))
    # a deck without customizable or blank cards never runs the effect
    config_of(compiled_profile("classic-108", custom_effect="test-compiled-own"))
    from unoengine.engine import effects
    original = effects.BUILT_IN["others-draw-one"]
    try:
        register_effect("others-draw-one", lambda s, p, t: s)
        with pytest.raises(UnsupportedRuleError, match="ACT-8"):
            config_of(attrs.evolve(sheet, custom_effect="others-draw-one"))
    finally:
        effects._REGISTRY["others-draw-one"] = original
