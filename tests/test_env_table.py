"""The Table that turns "everyone with a legal move may act" into one decision at a time.

Its decision (``Table.now``) is worked out once per change; these tests hold it to what the
engine says on random games with out-of-turn moves (UNO-2 catches, UNO-4 late calls, HOUSE-2
jump-ins), window by window.
"""

from __future__ import annotations

import random

import pytest

import unoengine as u
from unoengine.engine.transition import apply_listed
from unoengine.envs.table import Table


def check_decision(table: Table) -> None:
    """``now`` is the actor, its legal moves (from legal_moves, in the engine's order) and
    whether it decides in a window; the actor is the player to act unless it may wait."""
    actor, moves, wait = table.now
    assert table.decision() == table.now
    assert (actor, moves, wait) == (table.actor, table.moves(), table.may_wait)
    mine = tuple(m for m in u.legal_moves(table.state) if m.player == actor)
    assert moves == mine
    if not wait and not table.state.round_over:
        assert actor == table.state.current


@pytest.mark.parametrize("spec", ["classic-108", "classic-108+jump-in", "gdj85+seven-zero+jump-in"])
@pytest.mark.parametrize("windows", ["windows", "turn-only"])
def test_the_decision_follows_the_engine_window_by_window(spec: str, windows: str) -> None:
    rng = random.Random(spec + windows)
    waited = decided = 0
    for seed in range(3):
        table = Table(u.new_game(spec, 4, seed=seed), windows)  # type: ignore[arg-type]
        for _ in range(600):
            if table.state.round_over:
                break
            check_decision(table)
            actor, moves, wait = table.now
            if wait and (not moves or rng.random() < 0.7):
                twin = table.copy()
                table.act(None)
                assert twin.now == (actor, moves, wait)  # a copy keeps its own decision
                waited += 1
            else:
                table.act(rng.choice(moves))
                decided += 1
        check_decision(table)
    assert decided > 300
    if windows == "windows":
        assert waited > 0
    else:
        assert waited == 0


@pytest.mark.parametrize("spec", ["classic-108", "gdj85+seven-zero+jump-in+stacking", "ffk04+draw-to-match"])
def test_a_listed_move_lands_where_apply_takes_it(spec: str) -> None:
    """``Table.act_legal`` skips the engine's second look at the move
    (``transition.apply_listed``): for every legal move along random rounds, the new state is
    the one ``apply`` gives, and the table's decision is worked out from it."""
    rng = random.Random(spec)
    compared = 0
    for seed in range(2):
        table = Table(u.new_game(spec, 3, seed=seed))
        for _ in range(250):
            state = table.state
            if state.round_over:
                break
            for m in u.legal_moves(state):
                assert apply_listed(state, m) == u.apply(state, m)
                compared += 1
            if not table.moves():  # a jump-in window with nothing to jump in with (HOUSE-2)
                table.act(None)
                continue
            move = rng.choice(table.moves())
            assert table.act_legal(move) == u.apply(state, move) == table.state
            check_decision(table)
    assert compared > 500
