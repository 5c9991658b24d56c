"""The batch API (envs/batch.py) in lockstep with the reference (issue 34): a batch of games stepped
with random legal actions from its own masks, and beside each game a reference
:class:`~unoengine.envs.table.Table` advanced by the same moves. At every step the converted game
equals the reference state, the actor and its ``WAIT`` equal the table's decision, and the
observation, mask, rewards and final observation equal the reference encoders'."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

pytest.importorskip("numba")

from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile

import unoengine as u
from unoengine.compiled.config import UnsupportedRuleError
from unoengine.compiled.convert import to_state
from unoengine.envs.actions import ActionError
from unoengine.envs.batch import BatchEngine
from unoengine.envs.table import Table, round_rewards


def _check_decision(batch: BatchEngine, out: object, i: int, table: Table) -> None:
    actor, _moves, may_wait = table.decision()
    state = table.state
    assert to_state(batch.profile, batch.games[i]) == state
    assert int(batch.waiting[i]) == may_wait and int(batch._actor[i]) == actor, (i, state)
    v = u.view(state, actor)
    assert batch._obs[i].tobytes() == batch.observations.encode(v).tobytes(), (i, state)
    assert batch._mask[i].tobytes() == bytes(batch.actions.mask(v, wait=may_wait)), (i, state)


def _weights(batch: BatchEngine) -> np.ndarray:
    """Biased play, so that rounds end within the budget and the rare decisions come often: plays,
    challenges, catches and late calls weigh more than draws, passes and WAIT."""
    kinds = {"play": 8.0, "challenge": 6.0, "catch-uno": 6.0, "call-uno": 6.0}
    return np.array([kinds.get(a.kind, 1.0) for a in batch.actions.actions])


def lockstep(spec: str, changes: dict[str, object], out_of_turn: str, reward: str, steps: int, size: int,
             seed: int) -> int:
    """Step a batch and its reference tables together; the number of rounds finished."""
    profile = compiled_profile(spec, **changes)
    n = min(profile.max_players, 2 + seed % 4)
    n = max(n, profile.min_players)
    batch = BatchEngine(profile, n, size, seed, out_of_turn=out_of_turn, reward=reward)  # type: ignore[arg-type]
    batch.reset()
    tables = [Table(u.new_game(profile, n, int(s)), out_of_turn) for s in batch.game_seeds]  # type: ignore[arg-type]
    for i, table in enumerate(tables):
        _check_decision(batch, None, i, table)
    rng = np.random.default_rng(seed)
    weights = _weights(batch)
    finished = 0
    for _ in range(steps):
        actions = (rng.random(batch._mask.shape) * weights * batch._mask).argmax(axis=1)
        moves = [batch.actions.move(int(x), table.actor) for x, table in zip(actions, tables, strict=True)]
        out = batch.step(actions)
        for i, (table, move) in enumerate(zip(tables, moves, strict=True)):
            actor = table.actor
            table.act(move)
            if table.state.phase >= u.Phase.ROUND_OVER:
                assert out.done[i]
                assert tuple(out.rewards[i]) == round_rewards(table.state, reward)  # type: ignore[arg-type]
                final = batch.observations.encode(u.view(table.state, actor))
                assert out.final_observation[i].tobytes() == final.tobytes()
                tables[i] = table = Table(u.new_game(profile, n, int(batch.game_seeds[i])), out_of_turn)  # type: ignore[arg-type]
                finished += 1
            else:
                assert not out.done[i] and not out.rewards[i].any()
            _check_decision(batch, out, i, table)
    return finished


@pytest.mark.parametrize("out_of_turn", ["turn-only", "windows"])
@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_batch_steps_in_lockstep_with_the_reference(spec: str, changes: dict[str, object], out_of_turn: str) -> None:
    reward = "points" if len(spec) % 2 else "win"
    steps = budget(200, 600, 5000) * (3 if out_of_turn == "windows" else 1)  # windows: several decisions a move
    finished = lockstep(spec, changes, out_of_turn, reward, steps, budget(4, 16), seed=len(spec))
    assert finished > 0


def test_same_seed_same_games_with_any_number_of_threads() -> None:
    one = BatchEngine("classic-108+jump-in", 3, 32, seed=9, out_of_turn="windows")
    two = BatchEngine("classic-108+jump-in", 3, 32, seed=9, out_of_turn="windows", threads=2)
    other = BatchEngine("classic-108+jump-in", 3, 32, seed=10, out_of_turn="windows")
    one.reset(), two.reset(), other.reset()
    assert not np.array_equal(one.games, other.games)
    rng = np.random.default_rng(0)
    for _ in range(300):
        actions = one.random_actions(rng)
        a, b = one.step(actions), two.step(actions)
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
        assert np.array_equal(one.games, two.games)
    two.close()
    again = BatchEngine("classic-108+jump-in", 3, 32, seed=5, out_of_turn="windows")
    again.reset(seed=9)
    assert np.array_equal(again.game_seeds, BatchEngine("classic-108+jump-in", 3, 32, seed=9).reset() and
                          one.reset() and one.game_seeds)


def test_learner_seat_decides_every_step() -> None:
    """With a learner seat the others play random legal actions inside the step: every decision
    returned is the learner's, and its observation and mask are the reference's on the converted
    game (the others' moves are the kernel's own legal moves, held to the reference above)."""
    for out_of_turn in ("turn-only", "windows"):
        profile = compiled_profile("classic-108+jump-in+stacking")
        batch = BatchEngine(profile, 4, 8, 3, out_of_turn=out_of_turn, learner=2)  # type: ignore[arg-type]
        out = batch.reset()
        rng = np.random.default_rng(1)
        weights = _weights(batch)
        finished = 0
        for _ in range(budget(150, 2000)):
            assert (out.actor == 2).all()
            for i in range(batch.batch_size):
                state = to_state(profile, batch.games[i])
                assert state.phase < u.Phase.ROUND_OVER
                v = u.view(state, 2)
                assert out.observation[i].tobytes() == batch.observations.encode(v).tobytes()
                assert out.mask[i].tobytes() == bytes(batch.actions.mask(v, wait=bool(out.mask[i][0])))
                if out_of_turn == "turn-only":
                    assert state.current == 2 and not batch.waiting[i]
            out = batch.step((rng.random(out.mask.shape) * weights * out.mask).argmax(axis=1))
            finished += int(out.done.sum())
            assert np.allclose(out.rewards.sum(axis=1), 0.0)
        assert finished > 0


def test_bad_arguments_and_illegal_actions_are_refused() -> None:
    legacy = attrs.evolve(u.load_profile("classic-108"), shuffle="mt19937")
    with pytest.raises(UnsupportedRuleError, match="mt19937"):  # refused, never dealt otherwise
        BatchEngine(legacy, 2, 4)
    with pytest.raises(ActionError, match="num_players"):
        BatchEngine("classic-108", 11)
    with pytest.raises(ActionError, match="batch_size"):
        BatchEngine("classic-108", 2, 0)
    with pytest.raises(ActionError, match="out_of_turn"):
        BatchEngine("classic-108", 2, 4, out_of_turn="never")  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="learner"):
        BatchEngine("classic-108", 2, 4, learner=2)
    with pytest.raises(ActionError, match="seed"):
        BatchEngine("classic-108", 2, 4, seed=-1)
    batch = BatchEngine("classic-108", 2, 4, seed=1)
    with pytest.raises(ActionError, match="reset"):
        batch.step(np.zeros(4, dtype=np.int64))
    out = batch.reset()
    before = batch.games.copy()
    bad = batch.random_actions()
    bad[2] = int(np.argmin(out.mask[2]))  # a masked-out action
    with pytest.raises(ActionError, match=r"actions\[2\]"):
        batch.step(bad)
    with pytest.raises(ActionError, match="actions"):
        batch.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ActionError, match="actions"):
        batch.step(np.zeros(4))
    assert np.array_equal(batch.games, before)
