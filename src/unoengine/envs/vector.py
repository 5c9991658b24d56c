"""A Gymnasium vector environment over the compiled batch engine (docs/rl.md, "Vector env").

>>> import gymnasium
>>> import unoengine.envs.vector  # registers "unoengine/UNO-batch-v0"
>>> envs = gymnasium.make_vec("unoengine/UNO-batch-v0", num_envs=1024, num_players=3)
>>> obs, info = envs.reset(seed=1)
>>> obs, rewards, terminated, truncated, info = envs.step(envs.random_actions())

**One learner seat against compiled opponents.** A Gymnasium vector env hands out one reward
per sub-environment, so (as EnvPool's single-agent envs, and as :class:`~.gymnasium.UnoEnv`) each
of the ``num_envs`` games has one learning seat (``seat``, default 0); the other seats play inside
the same compiled call, since the shipped Python bots cannot run there: ``opponents="random"``
(uniformly random legal actions, ``WAIT`` included in a window) or ``"heuristic"`` (the move
``HeuristicBot`` makes on the same view, from its compiled twin, compiled/kernel_policy.py).
Self-play, where every seat's decision is a step and every seat's reward comes back (the pgx
convention), is :class:`~.batch.BatchEngine` itself.

**Episodes, rewards, auto-reset.** An episode is one round (a new match, played to its first
round's end); the reward is 0 until then, then :func:`~.table.round_rewards` of the seat (``"win"``
or ``"points"``). Nothing truncates. Auto-reset follows Gymnasium 1.x's ``AutoresetMode``
(``metadata["autoreset_mode"]``), chosen with ``autoreset_mode``:

- ``"next-step"`` (the default, Gymnasium's, the one every vector wrapper takes): the step that
  ends an episode returns its last observation with ``terminated=True`` and the reward; the next
  step ignores that env's action and returns the new episode's first observation (reward 0).
- ``"same-step"``: the step that ends an episode returns ``terminated=True``, the reward and
  already the new episode's first observation; the last one is ``info["final_obs"][i]`` (where
  ``info["_final_obs"][i]``). No step is spent on resets, but Gymnasium's observation wrappers
  refuse this mode.

**Observations and actions** are :mod:`.observations` and :mod:`.actions` from the seat's place:
``single_observation_space`` ``Box(0, high, (size,), float32)``, ``single_action_space``
``Discrete(A)``. The legal actions are ``info["action_mask"]`` and ``action_masks()`` ((num_envs, A)
bool). An action that is not legal raises :class:`~.actions.ActionError` and changes nothing (a
masked policy never sends one).

**Seeding.** ``reset(seed=s)`` seeds the batch (see :mod:`.batch`): the same seed and actions give
the same episodes. ``reset()`` without a seed deals new games from the env's generator.

Keywords (of ``gymnasium.make_vec`` too): ``num_envs``, ``profile``, ``num_players``, ``seat``,
``reward``, ``out_of_turn`` (``"turn-only"``, the default, or ``"windows"``), ``opponents`` (``"random"`` or
``"heuristic"``), ``autoreset_mode`` (above), ``threads`` (slices of the batch stepped at once) and
``copy`` (False returns the engine's own observation array, overwritten by the next step, as
``SyncVectorEnv(copy=False)``).

Both auto-reset modes run inside the compiled step (:class:`~.batch.BatchEngine`'s ``autoreset``),
so a step costs the same in either, and Python adds only the copies a caller may keep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..engine.errors import shown
from ..engine.profile import Profile
from ..formats.composition import Spec
from .actions import ActionError
from .arguments import check_choice, check_flag, check_keywords, check_options, check_seed
from .batch import OPPONENTS, BatchEngine, BatchStep
from .extras import require
from .table import OutOfTurn, RewardMode

if TYPE_CHECKING:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
else:
    gymnasium = require("gymnasium", "gymnasium")
    np = require("numpy", "gymnasium")

ENV_ID: Final = "unoengine/UNO-batch-v0"
VECTOR_ENTRY_POINT: Final = "unoengine.envs.vector:UnoVectorEnv"
_PARAMETERS: Final = ("profile", "num_players", "seat", "reward", "out_of_turn", "opponents", "autoreset_mode",
                      "threads", "copy", "render_mode")
AUTORESET_MODES: Final = ("next-step", "same-step")
_SEED_BOUND: Final = 2**63


class UnoVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games, each with one learning seat against compiled opponents."""

    metadata: dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1024,
        profile: Profile | Spec = "classic-108",
        num_players: int = 2,
        seat: int = 0,
        reward: RewardMode = "win",
        out_of_turn: OutOfTurn = "turn-only",
        opponents: str = "random",
        autoreset_mode: str = "next-step",
        threads: int = 1,
        copy: bool = True,
        render_mode: None = None,
        **unknown: Any,
    ) -> None:
        check_keywords(unknown, _PARAMETERS)
        if opponents not in OPPONENTS:
            raise ActionError(f"opponents: the vector env's other seats play compiled moves; expected one of "
                              f"{', '.join(map(repr, OPPONENTS))}, got {shown(opponents)} (every shipped bot "
                              f"runs in UnoEnv)")
        if render_mode is not None:
            raise ActionError(f"render_mode: the vector env renders nothing; expected None, got {shown(render_mode)}")
        if type(seat) is not int or not (type(num_players) is not int or 0 <= seat < num_players):
            raise ActionError(f"seat: expected a seat 0..{num_players - 1}, got {shown(seat)}")
        check_choice("autoreset_mode", autoreset_mode, AUTORESET_MODES)
        self.same_step = autoreset_mode == "same-step"
        mode = gymnasium.vector.AutoresetMode.SAME_STEP if self.same_step else gymnasium.vector.AutoresetMode.NEXT_STEP
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.copy = check_flag("copy", copy)
        self.batch = BatchEngine(profile, num_players, num_envs, 0, out_of_turn=out_of_turn, reward=reward,
                                 learner=seat, threads=threads, autoreset=autoreset_mode,  # type: ignore[arg-type]
                                 opponents=opponents)
        self.num_envs = num_envs
        self.seat = seat
        self.profile = self.batch.profile
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, self.batch.observations.high(), (self.batch.observations.size,), np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self.batch.actions.size)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._rng: np.random.Generator | None = None
        self._out: BatchStep | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every game anew; ``seed`` (an int) makes the episodes reproducible."""
        check_options(options, ())
        value = check_seed(seed)
        if value is not None or self._rng is None:
            self._rng = np.random.default_rng(value)
        self._out = out = self.batch.reset(int(self._rng.integers(_SEED_BOUND)))
        return self._obs(out), {"action_mask": out.mask.astype(np.bool_), "_action_mask": self._all()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
               dict[str, Any]]:
        """Each game's learner plays its action, then the random seats up to its next decision."""
        if self._out is None:
            raise gymnasium.error.ResetNeeded("step() before reset()")
        self._out = out = self.batch.step(actions)  # next-step: a game whose episode ended is reset
        done = out.done.copy()
        info: dict[str, Any] = {"action_mask": out.mask.astype(np.bool_), "_action_mask": self._all()}
        rewards = out.rewards[:, self.seat].copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.same_step and done.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done).tolist():
                final[i] = out.final_observation[i].copy()
            info["final_obs"], info["_final_obs"] = final, done
            info["final_info"], info["_final_info"] = {}, done.copy()
        return self._obs(out), rewards, done, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in each game, (num_envs, A) bool."""
        if self._out is None:
            raise gymnasium.error.ResetNeeded("no games before reset()")
        return self._out.mask.astype(np.bool_)

    def random_actions(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in each game."""
        if self._out is None:
            raise gymnasium.error.ResetNeeded("no games before reset()")
        return self.batch.random_actions(rng if rng is not None else self._rng)

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()

    def _obs(self, out: BatchStep) -> npt.NDArray[np.float32]:
        return out.observation.copy() if self.copy else out.observation

    def _all(self) -> npt.NDArray[np.bool_]:
        return np.ones(self.num_envs, dtype=np.bool_)


def register_env() -> None:
    """Register ``"unoengine/UNO-batch-v0"`` (a vector entry point only): done on import."""
    if ENV_ID not in gymnasium.envs.registry:
        gymnasium.register(id=ENV_ID, vector_entry_point=VECTOR_ENTRY_POINT)


register_env()
