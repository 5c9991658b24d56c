"""A self-play loop for the PettingZoo env: every seat a policy, episodes collected per agent.

Self-play trains one policy against copies of itself (or of its past): every agent of the AEC
env (:mod:`.pettingzoo`) is driven by a policy, ``callable(observation, action_mask) -> action``
as in :mod:`.policies`, and each agent's decisions are collected as a :class:`Trajectory` that a
learner can train on. The loop follows PettingZoo's reward rule: ``last()`` gives an agent the
reward gained since its previous action, so each action's reward is what the agent is given at
its next decision or at the episode's end (a round pays only at its end, docs/rl.md).

>>> from unoengine.envs.pettingzoo import env
>>> from unoengine.envs.self_play import random_policy, self_play
>>> episodes = self_play(env(num_players=3), random_policy(0), episodes=2, seed=1)
>>> round(sum(episodes[0].returns.values()), 9)  # zero-sum
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..engine.errors import shown
from .actions import ActionError
from .arguments import check_count, check_seed
from .extras import require
from .policies import Policy

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_np: Any = require("numpy", "pettingzoo")


@attrs.define
class Trajectory:
    """One agent's decisions in one episode: ``rewards[i]`` is what followed ``actions[i]``
    (the round's reward on its last action)."""

    agent: str
    observations: list[npt.NDArray[np.float32]] = attrs.field(factory=list)
    masks: list[npt.NDArray[np.int8]] = attrs.field(factory=list)
    actions: list[int] = attrs.field(factory=list)
    rewards: list[float] = attrs.field(factory=list)
    terminated: bool = False
    truncated: bool = False

    def __len__(self) -> int:
        return len(self.actions)


@attrs.define
class Episode:
    """One episode of self-play: its seed, each agent's trajectory and return, its length."""

    seed: int
    trajectories: dict[str, Trajectory]
    returns: dict[str, float]
    steps: int
    truncated: bool


def random_policy(seed: int) -> Policy:
    """A policy choosing uniformly among the legal actions, from its own seeded generator (a
    baseline, and the first opponent of a self-play league)."""
    rng = _np.random.default_rng(check_seed(seed))

    def policy(observation: Any, action_mask: Any) -> int:
        return int(rng.choice(_np.flatnonzero(action_mask)))

    return policy


def _policies(env: Any, policies: Policy | Mapping[str, Policy] | Sequence[Policy]) -> dict[str, Policy]:
    """One policy per agent of ``env``: the same for all, a mapping by agent, or a list by seat."""
    agents = list(env.possible_agents)
    if callable(policies):
        return dict.fromkeys(agents, policies)
    if isinstance(policies, Mapping):
        if set(policies) != set(agents):
            raise ActionError(f"policies: expected one for each of {', '.join(agents)}, got {shown(list(policies))}")
        chosen = dict(policies)
    elif isinstance(policies, Sequence) and not isinstance(policies, str | bytes):
        if len(policies) != len(agents):
            raise ActionError(f"policies: expected {len(agents)} (one per seat), got {len(policies)}")
        chosen = dict(zip(agents, policies, strict=True))
    else:
        raise ActionError(f"policies: expected a policy, a dict by agent or a list by seat, got {shown(policies)}")
    for agent, p in chosen.items():
        if not callable(p):
            raise ActionError(f"policies[{agent!r}]: expected a callable(observation, action_mask), got {shown(p)}")
    return chosen


def play_episode(env: Any, policies: Mapping[str, Policy], seed: int,
                 keep: Callable[[str], bool] | None = None) -> Episode:
    """Reset ``env`` with ``seed`` and play it to the end with ``policies`` (one per agent),
    collecting the trajectories of the agents ``keep`` accepts (all when None)."""
    env.reset(seed=seed)
    trajectories = {a: Trajectory(a) for a in env.possible_agents if keep is None or keep(a)}
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    truncated = False
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        trajectory = trajectories.get(agent)
        if trajectory is not None and trajectory.rewards:
            trajectory.rewards[-1] += reward
        if termination or truncation:
            if trajectory is not None:
                trajectory.terminated, trajectory.truncated = bool(termination), bool(truncation)
            truncated = truncated or bool(truncation)
            env.step(None)
            continue
        mask = observation["action_mask"]
        action = policies[agent](observation["observation"], mask)
        if trajectory is not None:
            trajectory.observations.append(observation["observation"])
            trajectory.masks.append(mask)
            trajectory.actions.append(int(action))
            trajectory.rewards.append(0.0)
        env.step(action)
        steps += 1
    return Episode(seed, trajectories, returns, steps, truncated)


def self_play(env: Any, policies: Policy | Mapping[str, Policy] | Sequence[Policy], episodes: int, seed: int = 0,
              *, agents: Sequence[str] | None = None) -> list[Episode]:
    """Play ``episodes`` episodes of the PettingZoo env ``env`` (from :func:`.pettingzoo.env`),
    every agent driven by its policy (one for all, a dict by agent, or a list by seat), and
    collect the trajectories of ``agents`` (all by default). Episode ``i`` is dealt with the
    ``i``-th seed drawn from ``numpy.random.default_rng(seed)``, so a run replays from its seed
    (given policies that are themselves seeded). A truncated episode (``max_steps``, on by
    default) ends with every agent's ``truncated`` set and no reward."""
    count = check_count("episodes", episodes)
    base = check_seed(seed)
    chosen = _policies(env, policies)
    if agents is not None:
        unknown = [a for a in agents if a not in chosen]
        if isinstance(agents, str) or unknown:
            raise ActionError(f"agents: expected names from {', '.join(chosen)}, got {shown(agents)}")
    wanted = None if agents is None else set(agents)
    seeds = _np.random.default_rng(base).integers(0, 2**63, size=count)
    return [play_episode(env, chosen, int(s), None if wanted is None else wanted.__contains__) for s in seeds]
