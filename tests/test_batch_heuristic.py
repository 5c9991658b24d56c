"""The batch engine's heuristic opponents play HeuristicBot's moves (docs/rl.md, "Batch API").

In lockstep with reference tables: after each learner action, the reference game follows the
opponents' decisions, each one of the moves HeuristicBot can make on that view (every tie-break,
:func:`heuristic_choices`), and the compiled game must equal one such line of play, state for
state (the deal, the draw pile and the shuffle's generator included). ``heuristic_actions`` is
held to the same choices for the learner's own view.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from budget import budget

import unoengine as u
from unoengine.bots.heuristic import HeuristicBot
from unoengine.compiled.convert import to_state
from unoengine.engine.moves import Move
from unoengine.envs.actions import WAIT, ActionError
from unoengine.envs.batch import BatchEngine
from unoengine.envs.table import Table, round_rewards


class _Tie(random.Random):
    """``random()`` is 0.5 on call ``k`` and 0 otherwise, so HeuristicBot's ``k``-th play wins its ties."""

    def __init__(self, k: int) -> None:
        super().__init__(0)
        self.k = k
        self.calls = 0

    def random(self) -> float:
        self.calls += 1
        return 0.5 if self.calls - 1 == self.k else 0.0


def heuristic_choices(table: Table) -> set[Move | None]:
    """Every move HeuristicBot makes as the table's actor, over all tie-breaks (None: it waits)."""
    v = u.view(table.state, table.actor)
    return {HeuristicBot().act(v, _Tie(k)) for k in range(len(v.legal_moves) + 1)}


def _follow(table: Table, learner: int, target: u.GameState, seed: int, done: bool, profile: u.Profile,
            ended: list[tuple[float, ...]], depth: int = 0) -> Table | None:
    """A line of the opponents' heuristic moves from ``table`` to the learner's decision in
    ``target`` (a new deal from ``seed`` after a round's end, when ``done``); None if none."""
    state = table.state
    if state.phase >= u.Phase.ROUND_OVER:
        if not done:
            return None
        ended.append(round_rewards(state))
        table = Table(u.new_game(profile, len(state.hands), seed), table_mode(table))
        done = False
    if table.actor == learner:
        return table if table.state == target and not done else None
    assert depth < 200
    for move in heuristic_choices(table):
        twin = table.copy()
        twin.act(move)
        found = _follow(twin, learner, target, seed, done, profile, ended, depth + 1)
        if found is not None:
            return found
    return None


def table_mode(table: Table) -> str:
    return "windows" if table.windows else "turn-only"


@pytest.mark.parametrize(("spec", "players", "out_of_turn"), [
    ("classic-108", 2, "windows"), ("classic-108", 2, "turn-only"), ("classic-108+jump-in+stacking", 3, "windows"),
])
def test_heuristic_opponents_play_heuristic_bot_moves(spec: str, players: int, out_of_turn: str) -> None:
    profile = u.load_profile(spec)
    learner = 1
    batch = BatchEngine(profile, players, budget(6, 24), 5, out_of_turn=out_of_turn, learner=learner,  # type: ignore[arg-type]
                        opponents="heuristic")
    out = batch.reset()
    tables = []
    for i, seed in enumerate(batch.game_seeds.tolist()):
        ended: list[tuple[float, ...]] = []
        table = _follow(Table(u.new_game(profile, players, seed), out_of_turn), learner,  # type: ignore[arg-type]
                        to_state(profile, batch.games[i]), seed, False, profile, ended)
        assert table is not None, i
        tables.append(table)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(budget(60, 600)):
        for i, table in enumerate(tables):  # the learner's own heuristic action is one HeuristicBot takes
            v = u.view(table.state, learner)
            assert out.observation[i].tobytes() == batch.observations.encode(v).tobytes()
            assert out.mask[i].tobytes() == bytes(batch.actions.mask(v, wait=table.may_wait))
        prior = batch.heuristic_actions(rng)
        for i, table in enumerate(tables):
            assert int(prior[i]) in {batch.actions.index(m) for m in heuristic_choices(table)}
        actions = (rng.random(out.mask.shape) * out.mask).argmax(axis=1)
        moves = [batch.actions.move(int(x), learner) for x in actions]
        out = batch.step(actions)
        for i, table in enumerate(tables):
            table.act(moves[i])
            ended: list[tuple[float, ...]] = []
            found = _follow(table, learner, to_state(profile, batch.games[i]), int(batch.game_seeds[i]),
                            bool(out.done[i]), profile, ended)
            assert found is not None, (i, table.state)
            assert bool(out.done[i]) == bool(ended)
            if ended:
                assert tuple(out.rewards[i]) == ended[0]
                finished += 1
            tables[i] = found
    assert finished > 0


def test_heuristic_mirror_is_even_and_opponents_are_checked() -> None:
    """The heuristic against itself wins about half the games, in either seat; a bad name is refused."""
    wins = games = 0
    for seat in (0, 1):
        batch = BatchEngine("classic-108", 2, 64, 11, learner=seat, opponents="heuristic", out_of_turn="windows")
        batch.reset()
        rng = np.random.default_rng(seat)
        for _ in range(budget(300, 3000)):
            out = batch.step(batch.heuristic_actions(rng))
            wins += int((out.rewards[:, seat] > 0).sum())
            games += int(out.done.sum())
    assert games > 500
    assert 0.4 < wins / games < 0.6
    assert WAIT == 0
    with pytest.raises(ActionError, match="opponents"):
        BatchEngine("classic-108", 2, 4, opponents="ismcts")


def test_the_vector_env_takes_heuristic_opponents() -> None:
    """``UnoVectorEnv(opponents="heuristic")`` is the batch engine's heuristic seats behind Gymnasium's API."""
    from unoengine.envs.vector import UnoVectorEnv

    envs = UnoVectorEnv(8, opponents="heuristic", seat=1)
    assert envs.batch.opponents == "heuristic" and envs.batch.learner == 1
    envs.reset(seed=2)
    ended = 0
    for _ in range(budget(200, 2000)):
        _, rewards, terminated, _, _ = envs.step(envs.batch.heuristic_actions())
        ended += int(terminated.sum())
        assert set(rewards[terminated].tolist()) <= {-1.0, 1.0}
    assert ended > 0
    envs.close()
