"""The Table that turns "everyone with a legal move may act" into one decision at a time.

Its decision (``Table.now``) is worked out once per change; these tests hold it to what the
engine says on random games with out-of-turn moves (UNO-2 catches, UNO-4 late calls, HOUSE-2
jump-ins), window by window.
"""

from __future__ import annotations

import random

import pytest

import unoengine as u
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
