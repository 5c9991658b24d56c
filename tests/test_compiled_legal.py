"""Differential test of the compiled legal moves (issue 34): on every state of random and biased
games of every shipped profile and composition, the kernel lists exactly the reference
``legal_moves``, in the same order, for everyone and for each seat (engine/legality.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile, random_states

import unoengine as u
from unoengine.compiled.codes import MAX_LEGAL, decode
from unoengine.compiled.config import config_of
from unoengine.compiled.convert import to_array
from unoengine.compiled.kernel_legal import legal_moves


@pytest.mark.parametrize("biased", [False, True], ids=["random", "biased"])
@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_legal_moves_equal_the_reference(spec: str, changes: dict[str, object], biased: bool) -> None:
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    for state, _move in random_states(profile, budget(4, 10, 40), seed=11, biased=biased,
                                         max_moves=budget(600, 3_000)):
        a = to_array(state)
        k = legal_moves(cfg, a, -1, out)
        assert [decode(int(c)) for c in out[:k]] == u.legal_moves(state), state
        for seat in range(state.num_players + 1):
            k = legal_moves(cfg, a, seat, out)
            assert [decode(int(c)) for c in out[:k]] == u.legal_moves(state, seat)
