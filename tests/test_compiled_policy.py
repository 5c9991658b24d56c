"""Differential tests of the compiled bot rules (compiled/kernel_policy.py, issue 34): on the states
of random and biased games of every shipped profile and composition, the kernels make the moves
the reference bots make (bots/heuristic.py, the ISMCTS playout policy of bots/ismcts.py) and
evaluate positions as ``win_chances`` does.

Ties: the playout policy spends one ``rng.random()`` on a tie, which the kernel takes as ``u``, so
the two must agree exactly; the heuristic bot draws a random key per play, so the test asks for
the set of moves it can make (each tied play made to draw the highest key in turn) and checks that
the kernel's moves over a grid of ``u`` are exactly that set.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile, random_states
from helpers_uno import wild_draw_four_at_odds

import unoengine as u
from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.ismcts import _quick_move, win_chances
from unoengine.compiled.codes import MAX_LEGAL, decode
from unoengine.compiled.config import config_of
from unoengine.compiled.convert import to_array
from unoengine.compiled.kernel_policy import heuristic_move, quick_move
from unoengine.compiled.kernel_policy import win_chances as compiled_win_chances


class FixedDraw(random.Random):
    """An rng whose ``random()`` is always ``u``."""

    def __init__(self, u: float) -> None:
        super().__init__(0)
        self.u = u

    def random(self) -> float:
        return self.u


class Spike(random.Random):
    """An rng whose ``random()`` gives 0.0 but for its ``at``-th call (0-based), which gives 0.5."""

    def __init__(self, at: int) -> None:
        super().__init__(0)
        self.at, self.calls = at, 0

    def random(self) -> float:
        self.calls += 1
        return 0.5 if self.calls - 1 == self.at else 0.0


def _heuristic_choices(state: u.GameState, player: int) -> set[u.Move | None]:
    """Every move the heuristic bot can make as ``player`` here (its ties going every way)."""
    v = u.view(state, player)
    bot = HeuristicBot()
    return {bot.act(v, Spike(k)) for k in range(len(v.legal_moves) + 1)}


def _states(spec: str, changes: dict[str, object], biased: bool) -> list[u.GameState]:
    profile = compiled_profile(spec, **changes)
    return [s for s, _m in random_states(profile, budget(1, 6, 30), seed=29, biased=biased,
                                                max_moves=budget(600, 3_000))]


@pytest.mark.parametrize("unseen", [19, 20, 21])
def test_heuristic_kernel_challenges_as_the_bot_at_an_exact_tie(unseen: int) -> None:
    """WD4-3..5: at 20 unseen the odds tie the threshold exactly (helpers_uno.wild_draw_four_at_odds);
    the kernel compares the same exact integers as the bot, where a product of floats (0.79...98
    for 4/5) once challenged."""
    state = wild_draw_four_at_odds(unseen)
    made = heuristic_move(config_of(state.profile), to_array(state), 1, 0.5, np.empty(MAX_LEGAL, dtype=np.int64))
    assert decode(int(made)) == HeuristicBot().act(u.view(state, 1), random.Random(0))
    assert decode(int(made)) == (u.Challenge(1) if unseen < 20 else u.Accept(1))


@pytest.mark.parametrize("biased", [False, True], ids=["random", "biased"])
@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_heuristic_kernel_makes_the_heuristic_bots_moves(spec: str, changes: dict[str, object],
                                                         biased: bool) -> None:
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    buffer = np.empty(MAX_LEGAL, dtype=np.int64)
    checked = 0
    for i, state in enumerate(_states(spec, changes, biased)):
        if i % 4:
            continue  # a quarter of the states: the sets of choices cost a few bot calls each
        a = to_array(state)
        players = range(state.num_players) if i % 2 == 0 else (state.current,)
        for p in players:
            expected = _heuristic_choices(state, p)
            grid = max(len(expected), 1) * 2
            made = set()
            for j in range(grid):
                code = heuristic_move(cfg, a, p, (j + 0.5) / grid, buffer)
                made.add(None if code < 0 else decode(int(code)))
            assert made == expected, (state, p)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("biased", [False, True], ids=["random", "biased"])
@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_quick_move_kernel_makes_the_playout_policys_moves(spec: str, changes: dict[str, object],
                                                           biased: bool) -> None:
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    buffer = np.empty(MAX_LEGAL, dtype=np.int64)
    draws = random.Random(7)
    checked = 0
    for state in _states(spec, changes, biased):
        if state.phase >= u.Phase.ROUND_OVER:
            continue
        a = to_array(state)
        draw = draws.random()
        expected = _quick_move(state, FixedDraw(draw))
        assert decode(int(quick_move(cfg, a, draw, buffer))) == expected, state
        chances = np.zeros(state.num_players)
        compiled_win_chances(a, chances)
        assert chances.tolist() == pytest.approx(win_chances(state), rel=1e-12, abs=1e-15)
        checked += 1
    assert checked > 0
