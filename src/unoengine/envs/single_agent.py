"""The PettingZoo env as a Gymnasium env for one learner seat, the other seats from a pool.

PettingZoo's tutorial for training on its AEC card games with sb3-contrib's ``MaskablePPO``
wraps the AEC env in a ``BaseWrapper`` that poses as a Gymnasium env, steps whichever agent is
selected and returns the next agent's observation. Under Gymnasium 1.x that pattern breaks
(the wrapper is no ``gymnasium.Env``, so Stable-Baselines3's checks and vector envs refuse it,
and one policy is asked to play every seat with rewards from the others' points of view).
:class:`SingleAgentEnv` is the same idea done as a real ``gymnasium.Env``: one agent learns, and
between its steps the other seats are played by opponents drawn from an
:class:`~unoengine.envs.policies.OpponentPool` (shipped bots, past snapshots of the learner), so
the learner sees only its own decisions and its own reward. ``action_masks()`` gives its legal
actions, as ``MaskablePPO`` asks. docs/rl.md, "Single-agent wrapper", shows the training loop.

Everything the AEC env does stays: its observations (``scaled`` too), its out-of-turn windows,
its rewards and its step cap (``max_steps`` counts every seat's steps, as in the AEC env; the
learner's episode is truncated when it is reached). An illegal action of the learner ends the
episode with reward -1 (``info["illegal_action"]``), PettingZoo's convention; an action outside
the space raises ``ActionError``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

from ..bots import Bot
from ..bots.turns import BotError
from ..engine.errors import shown
from ..engine.view import view
from .actions import ActionError, plain_int
from .arguments import check_choice, check_options, check_seed
from .extras import require
from .pettingzoo import raw_env
from .policies import Opponent, OpponentPool

if TYPE_CHECKING:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
else:
    gymnasium = require("gymnasium", "pettingzoo")
    np = require("numpy", "pettingzoo")

_SEED_BOUND: Final = 2**63
_DEALS: Final = 1000
RENDER_MODES: Final = ("ansi",)


class SingleAgentEnv(gymnasium.Env[Any, np.int64]):
    """One learner seat of the PettingZoo env (see the module docstring).

    ``opponents``: an :class:`~unoengine.envs.policies.OpponentPool`, or a bot name, factory or
    :class:`~unoengine.envs.policies.PolicyBot` (or a list of them) to make one; each reset
    draws every other seat's opponent from it. ``seat``: the learner's seat, or ``"random"``
    (default) to draw it at each reset. Every other keyword goes to
    :class:`~unoengine.envs.pettingzoo.raw_env` (``profile``, ``num_players``, ``out_of_turn``,
    ``reward``, ``match``, ``max_steps``, ``scaled``). ``reset(seed=s)`` draws the seat, the
    opponents, their random generators and the deal from ``s``."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012

    def __init__(self, opponents: OpponentPool | Opponent | Sequence[Opponent] = "random",
                 seat: int | Literal["random"] = "random", render_mode: str | None = None, **aec: Any) -> None:
        super().__init__()
        if "illegal_action" in aec or "render_mode" in aec:
            raise ActionError("arguments: illegal_action is 'terminate' in a SingleAgentEnv")
        self.aec = raw_env(illegal_action="terminate", **aec)
        """The PettingZoo env underneath (read its ``table`` or ``game_state``; play only through :meth:`step`)."""
        n = self.num_players = self.aec.num_players
        if seat != "random" and not (type(seat) is int and 0 <= seat < n):
            raise ActionError(f"seat: expected 0..{n - 1} or 'random', got {shown(seat)}")
        self._seat_option = seat
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        if isinstance(opponents, OpponentPool):
            self.pool = opponents
        elif isinstance(opponents, str) or callable(opponents):
            self.pool = OpponentPool([opponents])
        elif isinstance(opponents, Sequence):
            self.pool = OpponentPool(opponents)
        else:
            raise ActionError(f"opponents: expected an OpponentPool, a bot or a list of bots, got {shown(opponents)}")
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_spaces[agent]["observation"]
        self.action_space = gymnasium.spaces.Discrete(self.aec.actions.size)
        self.seat: int = 0 if seat == "random" else seat
        """The learner's seat in the current episode."""
        self.bots: list[Bot | None] = []
        """The opponents of the current episode by seat (None at the learner's)."""
        self._rngs: list[random.Random] = []
        self._over = True

    @property
    def agent(self) -> str:
        """The learner's agent name in the PettingZoo env."""
        return str(self.aec.possible_agents[self.seat])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        check_options(options, ())
        super().reset(seed=check_seed(seed))
        rng, n = self.np_random, self.num_players
        self.seat = seat = int(rng.integers(n)) if self._seat_option == "random" else int(self._seat_option)
        factories = self.pool.draw(rng, n - 1)
        for _ in range(_DEALS):
            self.bots = [None if p == seat else factories[(p - seat) % n - 1]() for p in range(n)]
            self._rngs = [random.Random(int(s)) for s in rng.integers(_SEED_BOUND, size=n)]
            self.aec.reset(seed=int(rng.integers(_SEED_BOUND)))
            self._over = False
            self._play_others()
            if not self._done():
                break  # else the round ended before the learner's first decision: deal again
        else:
            raise RuntimeError(f"{_DEALS} deals in a row ended before seat {seat}'s first decision")
        return self._observe(), self._info(False)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise gymnasium.error.ResetNeeded("step() after the episode ended: call reset() first")
        index = plain_int(action, self.aec.actions.size)
        aec, me = self.aec, self.agent
        illegal = not aec.observe(me)["action_mask"][index]
        aec.step(index)
        reward = aec.rewards.get(me, 0.0)
        if not illegal:
            reward += self._play_others()
        terminated, truncated = bool(aec.terminations[me]), bool(aec.truncations[me]) and not aec.terminations[me]
        self._over = terminated or truncated
        return self._observe(), float(reward), terminated, truncated, self._info(illegal)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (all False once the episode is over)."""
        if self._over:
            return np.zeros(self.aec.actions.size, dtype=np.bool_)
        return self.aec.observe(self.agent)["action_mask"].astype(np.bool_)

    def render(self) -> str | None:
        return self.aec.render_text() if self.render_mode == "ansi" else None

    def _done(self) -> bool:
        aec = self.aec
        return all(aec.terminations[a] or aec.truncations[a] for a in aec.agents)

    def _play_others(self) -> float:
        """Let the opponents decide until it is the learner's decision or the game is over; the
        learner's rewards on the way."""
        aec, me, actions = self.aec, self.agent, self.aec.actions
        gained = 0.0
        while not self._done() and aec.agent_selection != me:
            agent = aec.agent_selection
            p = aec._seat[agent]
            bot = self.bots[p]
            assert bot is not None
            move = bot.act(view(aec.game_state, p), self._rngs[p])
            try:
                index = actions.index(move)
            except ActionError:
                index = -1
            if index < 0 or not aec.observe(agent)["action_mask"][index]:
                raise BotError(f"bot {bot.name!r} at seat {p} returned {move!r}, which is not legal now", seat=p)
            aec.step(index)
            gained += aec.rewards.get(me, 0.0)
        return gained

    def _observe(self) -> Any:
        return self.aec.observe(self.agent)["observation"]

    def _info(self, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat, "illegal_action": illegal,
                "window": not self._over and bool(self.aec.infos[self.agent].get("out_of_turn", False))}
