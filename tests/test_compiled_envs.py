"""The compiled observation and action mask (envs/compiled_encoding.py) against the envs' reference
encoders: on converted states of random and biased games of every shipped profile and overlay, each
player's vector equals ``ObservationEncoding.encode(view(state, p))`` bit for bit and each mask
``ActionEncoding.mask(view(state, p), wait=...)`` (issue 34)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile, random_states

import unoengine as u
from unoengine.compiled.convert import to_array
from unoengine.envs.actions import ActionError
from unoengine.envs.compiled_encoding import CompiledEncoding


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_observations_and_masks_equal_the_reference(spec: str, changes: dict[str, object]) -> None:
    profile = compiled_profile(spec, **changes)
    encodings: dict[int, CompiledEncoding] = {}
    checked = 0
    for state, _move in random_states(profile, budget(2, 3, 20), seed=5, biased=True,
                                         max_moves=budget(150, 500, 3000)):
        n = state.num_players
        enc = encodings.setdefault(n, CompiledEncoding(profile, n))
        a = to_array(state)
        for p in range(n):
            v = u.view(state, p)
            expected = enc.observations.encode(v)
            got = enc.observation(a, p)
            assert got.dtype == np.float32 and got.tobytes() == expected.tobytes(), (state, p)
            for wait in (False, True):
                assert enc.mask(a, p, wait=wait).tobytes() == bytes(enc.actions.mask(v, wait=wait)), (state, p)
            checked += 1
    assert checked > 100


def test_bad_arguments_are_refused() -> None:
    profile = compiled_profile("classic-108")
    enc = CompiledEncoding(profile, 3)
    a = to_array(u.new_game(profile, 3, seed=1))
    with pytest.raises(ActionError, match="player"):
        enc.observation(a, 3)
    with pytest.raises(ActionError, match="player"):
        enc.mask(a, True)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="game"):
        enc.observation(to_array(u.new_game(profile, 2, seed=1)), 0)
    with pytest.raises(ActionError, match="game"):
        enc.mask(a.astype(np.int32), 0)  # type: ignore[arg-type]
