"""The Gymnasium vector env over the compiled batch (envs/vector.py): the vector-env contract of
Gymnasium 1.x (batched spaces, reset and step types, shapes and dtypes, returned arrays not reused,
seeding, both auto-reset modes), creation by ``gymnasium.make_vec``, and the learner's observation
and mask equal to the reference encoders on the converted games (issue 34)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

import gymnasium
from budget import budget

import unoengine as u
from unoengine.compiled.convert import to_state
from unoengine.envs.actions import ActionError
from unoengine.envs.vector import UnoVectorEnv

AutoresetMode = gymnasium.vector.AutoresetMode


def _play(env: UnoVectorEnv, steps: int, seed: int) -> list[tuple[np.ndarray, ...]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [(obs, info["action_mask"])]
    for _ in range(steps):
        obs, rewards, terminated, truncated, info = env.step(env.random_actions(rng))
        out.append((obs, rewards, terminated, truncated, info["action_mask"]))
    return out


@pytest.mark.parametrize("mode", ["next-step", "same-step"])
def test_the_vector_env_contract(mode: str) -> None:
    env = UnoVectorEnv(8, "classic-108+jump-in", num_players=3, seat=1, out_of_turn="windows",
                       autoreset_mode=mode)
    expected = AutoresetMode.SAME_STEP if mode == "same-step" else AutoresetMode.NEXT_STEP
    assert env.metadata["autoreset_mode"] == expected
    assert env.observation_space.shape == (8, env.single_observation_space.shape[0])
    assert isinstance(env.action_space, gymnasium.spaces.MultiDiscrete)
    assert env.action_space.shape == (8,) and (env.action_space.nvec == env.single_action_space.n).all()
    obs, info = env.reset(seed=3)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    assert info["action_mask"].shape == (8, env.single_action_space.n) and info["action_mask"].dtype == np.bool_
    rng = np.random.default_rng(0)
    ended = 0
    pending = np.zeros(8, dtype=np.bool_)
    for _ in range(budget(600, 6000)):
        before = obs
        actions = env.random_actions(rng)
        assert env.action_space.contains(actions)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs is not before and not np.shares_memory(obs, before)
        assert env.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (8,)
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any() and not rewards[~terminated].any()
        assert set(rewards[terminated].tolist()) <= {1.0, -0.5}
        if mode == "same-step":
            assert ("final_obs" in info) == terminated.any()
            if terminated.any():
                assert (info["_final_obs"] == terminated).all()
                finals = [info["final_obs"][i] for i in np.flatnonzero(terminated)]
                assert all(env.single_observation_space.contains(f) for f in finals)
        else:
            assert "final_obs" not in info
            assert not (terminated & pending).any()  # the step after an episode's end is its reset
            pending = terminated
        for i in range(8):
            state = to_state(env.profile, env.batch.games[i])
            if terminated[i] and mode == "next-step":
                continue
            v = u.view(state, 1)
            assert obs[i].tobytes() == env.batch.observations.encode(v).tobytes()
            wait = bool(info["action_mask"][i][0])
            assert info["action_mask"][i].tobytes() == bytes(env.batch.actions.mask(v, wait=wait))
        ended += int(terminated.sum())
    assert ended > 0
    env.close()


def test_same_seed_same_episodes_and_make_vec() -> None:
    a = _play(UnoVectorEnv(4, num_players=2), 200, seed=5)
    b = _play(gymnasium.make_vec("unoengine.envs.vector:unoengine/UNO-batch-v0", num_envs=4), 200, seed=5)
    c = _play(UnoVectorEnv(4, num_players=2), 200, seed=6)
    for x, y in zip(a, b, strict=True):
        for p, q in zip(x, y, strict=True):
            assert np.array_equal(p, q)
    assert not np.array_equal(a[0][0], c[0][0])


def test_bad_arguments_and_actions_are_refused() -> None:
    with pytest.raises(ActionError, match="opponents"):
        UnoVectorEnv(2, opponents="ismcts")
    with pytest.raises(ActionError, match="autoreset_mode"):
        UnoVectorEnv(2, autoreset_mode="disabled")
    with pytest.raises(ActionError, match="colour"):
        UnoVectorEnv(2, colour=1)
    with pytest.raises(ActionError, match="seat"):
        UnoVectorEnv(2, seat=2)
    env = UnoVectorEnv(2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(np.zeros(2, dtype=np.int64))
    _obs, info = env.reset(seed=1)
    bad = env.random_actions()
    bad[0] = int(np.argmin(info["action_mask"][0]))
    with pytest.raises(ActionError, match=r"actions\[0\]"):
        env.step(bad)
    with pytest.raises(ActionError, match="seed"):
        env.reset(seed=-1)
