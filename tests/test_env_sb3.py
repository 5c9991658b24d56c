"""Opt-in: sb3-contrib's MaskablePPO trains through SingleAgentEnv and the Gymnasium env.

This is the pattern of PettingZoo's SB3 action-mask tutorial, done so that it works under
Gymnasium 1.x (docs/rl.md, "Training with Stable-Baselines3"): a few hundred steps only, enough
to show the envs, their masks and a trained policy played back as a bot fit the library.
Runs when sb3-contrib is installed (``pip install '.[sb3]'``); skips otherwise, saying so. Only
a missing module skips: sb3-contrib installed but failing to import fails the test.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

if importlib.util.find_spec("sb3_contrib") is None:
    pytest.skip("sb3-contrib is not installed (pip install '.[sb3]' to run the MaskablePPO tests)",
                allow_module_level=True)

import torch
from sb3_contrib import MaskablePPO

from unoengine.envs.gymnasium import UnoEnv
from unoengine.envs.policies import OpponentPool, register_policy
from unoengine.envs.single_agent import SingleAgentEnv
from unoengine.tools import simulate

STEPS = 256


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)  # the suite's budget is per core


def train(env: Any) -> MaskablePPO:
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, verbose=0)
    model.learn(total_timesteps=STEPS)
    assert model.num_timesteps >= STEPS
    return model


def masked_policy(model: MaskablePPO) -> Any:
    def policy(observation: Any, action_mask: Any) -> Any:
        action, _ = model.predict(observation, action_masks=action_mask.astype(bool), deterministic=True)
        return action

    return policy


def play_out(env: Any, model: MaskablePPO, episodes: int) -> int:
    """Episodes of the greedy masked policy; each action it picks is legal (the env would end
    the episode with info["illegal_action"] otherwise)."""
    ended = 0
    for episode in range(episodes):
        obs, info = env.reset(seed=10_000 + episode)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, terminated, truncated, info = env.step(int(action))
            assert not info["illegal_action"]
            done = terminated or truncated
        ended += terminated
    return ended


@pytest.mark.parametrize("scaled", [False, True])
def test_maskable_ppo_through_single_agent_env(scaled: bool) -> None:
    pool = OpponentPool(["random", "heuristic"], scaled=scaled)
    env = SingleAgentEnv(opponents=pool, num_players=2, scaled=scaled, max_steps=2_000)
    model = train(env)
    pool.add(masked_policy(model))  # a snapshot of the learner joins the league
    assert play_out(env, model, 3) >= 1


def test_maskable_ppo_through_the_gymnasium_env() -> None:
    env = UnoEnv(num_players=2, opponents="random", seat="random", scaled=True, max_steps=1_000)
    model = train(env)
    assert play_out(env, model, 3) >= 1
    register_policy("sb3-test", masked_policy(model), scaled=True)
    results = simulate.run("classic-108", ["sb3-test", "heuristic"], games=2, seed=0, max_moves=5_000)
    assert len(results) == 2 and all(r.moves > 0 for r in results)
