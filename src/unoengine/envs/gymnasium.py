"""A Gymnasium environment: one learning seat at an UNO table of shipped bots (docs/rl.md).

>>> import gymnasium
>>> import unoengine.envs.gymnasium  # registers "unoengine/UNO-v0"
>>> env = gymnasium.make("unoengine/UNO-v0", num_players=3, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

``gymnasium.make("unoengine.envs.gymnasium:unoengine/UNO-v0")`` imports this module itself, so it
works in a fresh interpreter. (Gymnasium 1.x loads no plugin entry points, so the short id needs
this module imported first.)

**An episode is one round.** :meth:`UnoEnv.reset` deals a new match and plays the bots until the
learner must decide; each :meth:`UnoEnv.step` applies the learner's action and again plays the
bots until the learner's next decision or the end of the round. (A deal whose round the bots end
before the learner's first decision, such as a two-player run of Skips, is dealt again, so every
episode has at least one step.)

Parameters of :class:`UnoEnv` (all keywords of ``gymnasium.make`` too):

- ``profile``: a :class:`~unoengine.engine.profile.Profile` or what ``load_profile`` takes, a
  shipped name or a composition such as ``"gdj85+jump-in+stacking+seven-zero"`` (default
  ``"classic-108"``).
- ``num_players``: 2 to 10, within the profile's range (default 2).
- ``opponents``: the bots in the other seats: one bot name for all (``"random"``, ``"heuristic"``,
  ``"ismcts"``, any name given to ``register_bot``), or a sequence of n-1 of them, the k-th in
  the seat k places after the learner's. A bot factory (a class, a function making a bot) may
  stand in for a name. Every reset makes fresh bots. Or an
  :class:`~unoengine.envs.policies.OpponentPool` (shipped bots and snapshots of a policy): each
  reset draws every other seat's opponent from it with ``self.np_random``, so from the seed.
- ``seat``: the learner's seat 0..n-1, or ``"random"`` to draw it at each reset (default 0);
  ``reset(options={"seat": k})`` fixes it for one episode. ``env.seat`` is the seat now.
- ``reward``: ``"win"`` (+1 for the round's winner, -1/(n-1) for the others) or ``"points"``
  (the round's points against the table's average, SCORE-1..4); both come from
  :func:`unoengine.envs.table.round_rewards`. The reward is 0 on every step before the round ends.
- ``out_of_turn``: ``"windows"`` (default) or ``"turn-only"``, as in :class:`~unoengine.envs.table.Table`.
- ``illegal_action``: ``"penalty"`` (default) or ``"raise"``; ``illegal_penalty`` (default -1.0,
  a finite number).
- ``max_steps``: truncate the episode after this many learner steps (``truncated=True``, reward 0).
  ``"auto"`` (the default) is :func:`~unoengine.envs.step_cap.auto_learner_steps`: 10,000 learner
  steps per player, far beyond the longest rounds of random play measured (docs/rl.md); None
  never truncates.
- ``scaled``: False (default) for the encoding's counts as they are; True divides every entry by
  its bound (:mod:`.scaling`), so every feature is in [0, 1] and ``observation_space`` is ``Box(0, 1)``.
- ``backend``: ``"reference"`` (default, the pure engine) or ``"compiled"`` (the numba engine,
  the ``fast`` extra: the same observations, masks, rewards and infos for the same seed and
  actions, faster; a profile its kernels cannot run is refused at construction, naming the rule).
  See docs/rl.md, "Backends".
- ``render_mode``: None, ``"ansi"`` (``render()`` returns the learner's table as text) or
  ``"human"`` (the same text is printed after every reset and step).

**Bad arguments** raise :class:`~unoengine.envs.actions.ActionError` (an ``UnoEngineError``, so
a ``ValueError``) naming the argument, before anything changes: a keyword it does not take, a
parameter of the wrong type or out of range (:mod:`.arguments`; ``illegal_penalty`` NaN or
infinite too), an opponent that is not a known bot's name or a factory (the message lists the
known bots), a seed that is not an int 0 .. 2**64 - 1 (a negative, a float, a bool), ``options``
other than ``{"seat": ...}``.

**Illegal actions.** Under ``illegal_action="penalty"`` an action that is not legal for the
learner now (masked out, outside the action space, or not an integer) never raises: nothing is
played, the episode ends with ``terminated=True``, reward ``illegal_penalty`` and
``info["illegal_action"] = True``. Under ``"raise"`` it raises
:class:`~unoengine.envs.actions.ActionError` instead and changes nothing. A legal action never
ends the episode this way. The legal actions are ``action_masks()`` (a bool array, the form
sb3-contrib's ``MaskablePPO`` asks for; Gymnasium 1.x wrappers do not forward it, so after
``gymnasium.make`` call ``env.unwrapped.action_masks()`` or ``env.get_wrapper_attr("action_masks")()``)
and ``info["action_mask"]``; once the episode is over the mask is all False and ``step`` raises
``gymnasium.error.ResetNeeded``.

**Observations and actions** are the shared encodings of :mod:`.observations` and :mod:`.actions`,
seen from the learner's seat: ``observation_space`` is ``Box(0, high, (size,), float32)``
(``Box(0, 1)`` with ``scaled=True``),
``action_space`` is ``Discrete(A)``; ``env.encoding.describe(a)`` names an action.

**Out-of-turn windows.** With ``out_of_turn="windows"``, after every move each player other than
the one to act who has a legal move (catch a missed UNO, call UNO late, jump in) gets one
decision. When the learner has one, ``step`` is asked for it: ``info["window"]`` is True and the
mask holds ``WAIT`` (action 0, let the moment pass) beside the out-of-turn moves. On its own
turn the learner never has ``WAIT``. The observation shows a window too: the player to act in it is
another seat. With ``"turn-only"`` the learner decides only on its turn,
``WAIT`` is never legal, and nobody acts out of turn.

**The bots' moves between the learner's steps.** The :class:`~unoengine.envs.table.Table` says
whose decision it is; while it is a bot's, that bot is asked from its own view with its own
``random.Random`` (seeded from the episode's seed), and its move, or ``WAIT`` when it returns None
in a window, goes through the table. A bot's illegal move raises
:class:`~unoengine.bots.turns.BotError`. The moves made since the learner's previous decision
(its own first) are ``env.last_moves``, and the ``ansi`` rendering lists them.

``info`` holds ``action_mask``, ``illegal_action``, ``seat`` (the learner's), ``window`` (it decides
out of turn) and, once the round is over, ``winner``.

Determinism: ``reset(seed=s)`` draws the seat (when random), the deal's seed and one seed per bot
from ``self.np_random``, so the same seed and the same actions give the same episode.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

from ..bots import Bot, BotFactory, make_bot
from ..bots.base import is_bot_name, known_bots_text
from ..bots.turns import BotError
from ..engine.dealing import new_game
from ..engine.errors import UnoEngineError, quoted, shown
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import Phase
from ..engine.view import PlayerView, view
from ..formats.composition import Spec, resolve_profile
from ..formats.notation import format_move
from .actions import ActionEncoding, ActionError
from .arguments import (
    check_choice,
    check_finite,
    check_flag,
    check_keywords,
    check_max_steps,
    check_options,
    check_players,
    check_seed,
)
from .backend import Backend, EnvBackend, LiveTable, env_backend
from .extras import require
from .observations import ObservationEncoding
from .policies import OpponentPool
from .scaling import ObservationScaler
from .step_cap import MaxSteps, auto_learner_steps
from .table import OUT_OF_TURN, REWARD_MODES, OutOfTurn, RewardMode, round_rewards

if TYPE_CHECKING:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
else:
    gymnasium = require("gymnasium", "gymnasium")
    np = require("numpy", "gymnasium")
    npt = require("numpy.typing", "gymnasium")

ENV_ID: Final = "unoengine/UNO-v0"
ENTRY_POINT: Final = "unoengine.envs.gymnasium:UnoEnv"
ILLEGAL_MODES: Final = ("penalty", "raise")
RENDER_MODES: Final = ("ansi", "human")
_SEED_BOUND: Final = 2**63
_PARAMETERS: Final = ("profile", "num_players", "opponents", "seat", "reward", "out_of_turn", "illegal_action",
                      "illegal_penalty", "max_steps", "render_mode", "scaled", "backend")
_DEALS: Final = 1000

IllegalAction = Literal["penalty", "raise"]
Opponent: TypeAlias = str | BotFactory
Observation: TypeAlias = "npt.NDArray[np.float32]"
Mask: TypeAlias = "npt.NDArray[np.bool_]"


class UnoEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One learning seat against shipped bots; one episode is one round (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012
    action_space: gymnasium.spaces.Discrete

    def __init__(
        self,
        profile: Profile | Spec = "classic-108",
        num_players: int = 2,
        opponents: Opponent | Sequence[Opponent] | OpponentPool = "random",
        seat: int | Literal["random"] = 0,
        reward: RewardMode = "win",
        out_of_turn: OutOfTurn = "windows",
        illegal_action: IllegalAction = "penalty",
        illegal_penalty: float = -1.0,
        max_steps: MaxSteps = "auto",
        render_mode: str | None = None,
        scaled: bool = False,
        backend: Backend = "reference",
        **unknown: Any,
    ) -> None:
        check_keywords(unknown, _PARAMETERS)
        super().__init__()
        self.profile: Profile = resolve_profile(profile)
        check_players(self.profile, num_players)
        self.encoding = ActionEncoding(self.profile, num_players)
        self.num_players: int = num_players
        new_game(self.profile, num_players, 0)  # refuses a player count or effect the profile cannot deal
        self.observations = ObservationEncoding(self.profile, num_players)
        self.backend: EnvBackend = env_backend(backend, self.profile, num_players, self.observations, self.encoding)
        """The engine that runs the game (:mod:`.backend`)."""
        self._pool = opponents if isinstance(opponents, OpponentPool) else None
        self._opponents = [] if isinstance(opponents, OpponentPool) else _opponent_factories(opponents, num_players)
        if seat != "random" and not _is_seat(seat, num_players):
            raise ActionError(f"seat: expected 0..{num_players - 1} or 'random', got {shown(seat)}")
        self._seat_option: int | Literal["random"] = seat
        check_choice("reward", reward, REWARD_MODES)
        check_choice("out_of_turn", out_of_turn, OUT_OF_TURN)
        check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.reward_mode: RewardMode = reward
        self.out_of_turn: OutOfTurn = out_of_turn
        self.illegal_action: IllegalAction = illegal_action
        self.illegal_penalty = check_finite("illegal_penalty", illegal_penalty)
        self.max_steps = check_max_steps(max_steps, auto_learner_steps(num_players))
        """The cap on learner steps (None: none); ``"auto"`` is resolved to its number."""
        self.scaled = check_flag("scaled", scaled)
        self._scaler = ObservationScaler(self.observations) if scaled else None
        self.render_mode = render_mode
        high = self._scaler.high() if self._scaler is not None else self.observations.high()
        self.observation_space = gymnasium.spaces.Box(0.0, high, (self.observations.size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.encoding.size)

        self.seat: int = 0 if seat == "random" else seat
        """The learner's seat in the current episode."""
        self.table: LiveTable | None = None
        """The live game (None before the first reset); ``table.state`` is the full state."""
        self.last_moves: list[Move] = []
        """The moves made since the learner's previous decision, its own first."""
        self.bots: list[Bot | None] = []
        """The bots of the current episode by seat (None at the learner's)."""
        self._rngs: list[random.Random] = []
        self._mask = bytearray(self.encoding.size)
        self._steps = 0
        self._over = True
        self._illegal = False

    # --- the Gymnasium API ------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match from ``seed`` and play the bots up to the learner's first decision.
        ``options={"seat": k}`` seats the learner at ``k`` for this episode."""
        n = self.num_players
        seat_option = self._seat_option
        for key, value in check_options(options, ("seat",)).items():
            if value != "random" and not _is_seat(value, n):
                raise ActionError(f"reset options: {key}: expected 0..{n - 1} or 'random', got {shown(value)}")
            seat_option = value
        super().reset(seed=check_seed(seed))
        rng = self.np_random
        self.seat = seat = int(rng.integers(n)) if seat_option == "random" else int(seat_option)
        opponents = self._opponents if self._pool is None else self._pool.draw(rng, n - 1)
        for _ in range(_DEALS):
            game_seed = int(rng.integers(_SEED_BOUND))
            bot_seeds = rng.integers(_SEED_BOUND, size=n)
            self._rngs = [random.Random(int(s)) for s in bot_seeds]
            self.bots = [None if p == seat else opponents[(p - seat) % n - 1]() for p in range(n)]
            self.table = table = self.backend.deal(game_seed, self.out_of_turn)
            self.last_moves = []
            self._play_bots()
            if table.phase < Phase.ROUND_OVER:
                break  # else the bots ended the round before the learner's first decision: deal again
        else:
            raise RuntimeError(f"{_DEALS} deals in a row ended before seat {seat}'s first decision")
        self._steps = 0
        self._illegal = False
        self._over = False
        self._settle()
        if self.render_mode == "human":
            print(self._text())
        return self._observe(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the bots up to the learner's next decision."""
        table = self.table
        if table is None or self._over:
            raise gymnasium.error.ResetNeeded("step() after the episode ended: call reset() first")
        index = _action_index(action, self.encoding.size)
        if index is None or not self._mask[index]:
            if self.illegal_action == "raise":
                raise ActionError(f"action {action!r} is not a legal action of seat {self.seat} now")
            self._illegal = self._over = True
            self._mask = bytearray(self.encoding.size)
            return self._observe(), self.illegal_penalty, True, False, self._info()
        move = self.encoding.move(index, self.seat)
        table.act(move)
        self.last_moves = [] if move is None else [move]
        self._steps += 1
        self._play_bots()
        self._settle()
        terminated = table.phase >= Phase.ROUND_OVER
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        reward = round_rewards(table.state, self.reward_mode)[self.seat] if terminated else 0.0
        if truncated:
            self._over = True
        if self.render_mode == "human":
            print(self._text())
        return self._observe(), float(reward), terminated, truncated, self._info()

    def render(self) -> str | None:
        """``ansi``: the learner's table as text; ``human``: that text printed; else None."""
        if self.render_mode == "ansi":
            return self._text()
        if self.render_mode == "human":
            print(self._text())
        return None

    def action_masks(self) -> Mask:
        """The learner's legal actions now, as a bool array (all False once the episode is over)."""
        return np.frombuffer(bytes(self._mask), dtype=np.uint8).astype(np.bool_)

    # --- the table --------------------------------------------------------------------------
    @property
    def window(self) -> bool:
        """Is the learner deciding out of turn now (so ``WAIT`` is among its actions)?"""
        return not self._over and self.table is not None and self.table.may_wait

    def learner_view(self) -> PlayerView:
        """What the learner may know now (its observation is the encoding of this view)."""
        if self.table is None:
            raise gymnasium.error.ResetNeeded("no game before reset()")
        return view(self.table.state, self.seat)

    def _play_bots(self) -> None:
        """Let the bots decide until it is the learner's decision or the round is over."""
        table = self.table
        assert table is not None
        seat, bots, rngs, log = self.seat, self.bots, self._rngs, self.last_moves
        bot_move = self.backend.bot_move
        while table.phase < Phase.ROUND_OVER and table.actor != seat:
            p = table.actor
            bot = bots[p]
            assert bot is not None
            move = bot_move(bot, table, p, rngs[p])
            if move is None and not table.may_wait:
                raise BotError(f"bot {bot.name!r} at seat {p} made no move on its turn")
            try:
                table.act(move)
            except ActionError:
                raise BotError(f"bot {bot.name!r} at seat {p} returned {move!r}, which is not legal") from None
            if move is not None:
                log.append(move)

    def _settle(self) -> None:
        """After the bots: the learner's mask, or the end of the episode."""
        table = self.table
        assert table is not None
        if table.phase >= Phase.ROUND_OVER:
            self._over = True
            self._mask = bytearray(self.encoding.size)
            return
        self._mask = self.backend.mask(table, self.seat, table.may_wait)

    def _observe(self) -> Observation:
        table = self.table
        assert table is not None
        observation = self.backend.observe(table, self.seat)  # = encode(learner_view())
        return observation if self._scaler is None else self._scaler(observation)

    def _info(self) -> dict[str, Any]:
        table = self.table
        assert table is not None
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "illegal_action": self._illegal,
            "seat": self.seat,
            "window": self.window,
        }
        if table.phase >= Phase.ROUND_OVER:
            result = table.state.match.last_round
            if result is not None:
                info["winner"] = result.winner
        return info

    def _text(self) -> str:
        """The learner's table in a few lines of text (the ``ansi`` rendering)."""
        if self.table is None:
            return "no game: call reset()"
        v = self.learner_view()
        n, me = v.num_players, v.player
        color = str(v.color) if v.color is not None else "none"
        if v.round_over:
            last = v.last_round
            status = f"round over: p{last.winner} won" if last is not None else "round over"
        elif self._illegal:
            status = "episode over: illegal action"
        else:
            status = f"p{v.current} to act ({v.phase.name.lower()})"
            if self.window:
                status += f"; p{me} may act out of turn (WAIT passes)"
        sizes = "  ".join(f"p{(me + k) % n}{'*' if k == 0 else ''}:{v.hand_sizes[(me + k) % n]}" for k in range(n))
        lines = [
            f"UNO {self.profile.name}  round {v.round_number}  {status}",
            f"top {v.top_card!r}  colour {color}  direction {'clockwise' if v.direction == 1 else 'counter-clockwise'}"
            f"  draw pile {v.draw_pile_size}" + (f"  pending draw {v.pending_draw}" if v.pending_draw else ""),
            f"hands {sizes}",
            f"p{me} holds {' '.join(repr(c) for c in v.hand) or '(nothing)'}",
        ]
        if self.last_moves:
            lines.append("moves " + ", ".join(format_move(m) for m in self.last_moves))
        legal = [i for i, bit in enumerate(self._mask) if bit]
        if legal:
            lines.append("actions " + "  ".join(f"[{i}] {self.encoding.describe(i)}" for i in legal))
        return "\n".join(lines)


def _action_index(action: object, size: int) -> int | None:
    """The action as a plain index, or None when it is not an integer 0..size-1."""
    if isinstance(action, bool | np.bool_):
        return None
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
    return index if 0 <= index < size else None


def _is_seat(value: object, n: int) -> bool:
    return type(value) is int and 0 <= value < n


def _opponent_factories(opponents: Opponent | Sequence[Opponent], n: int) -> list[BotFactory]:
    """One bot factory per other seat, the k-th for the seat k+1 places after the learner's:
    ActionError naming the field (``opponents``, or ``opponents[k]``) for anything that is not a
    known bot's name or a factory, an unknown name listing the known bots."""
    if isinstance(opponents, str) or callable(opponents):
        listed: list[Opponent] = [opponents] * (n - 1)
        fields = ["opponents"] * (n - 1)
    elif isinstance(opponents, Sequence) and not isinstance(opponents, bytes | bytearray):
        if len(opponents) != n - 1:
            raise ActionError(f"opponents: expected one bot or {n - 1} of them for {n} players, got {len(opponents)}")
        listed = list(opponents)
        fields = [f"opponents[{k}]" for k in range(n - 1)]
    else:
        raise ActionError(f"opponents: expected a bot name, a bot factory or a list of {n - 1} of them, got "
                          f"{shown(opponents)}")
    out: list[BotFactory] = []
    for field, o in zip(fields, listed, strict=True):
        if isinstance(o, str):
            if not is_bot_name(o):
                raise ActionError(f"{field}: unknown bot {quoted(o)}; known bots: {known_bots_text()}")
            try:
                make_bot(o)  # a kind's argument (program:...) is checked now, not at the first reset
            except UnoEngineError as exc:
                raise ActionError(f"{field}: {exc}") from None
            out.append(_named(o))
        elif callable(o):
            out.append(o)
        else:
            raise ActionError(f"{field}: expected a bot name or a bot factory, got {shown(o)}")
    return out


def _named(name: str) -> BotFactory:
    def factory() -> Bot:
        return make_bot(name)

    return factory


def register_env() -> None:
    """Register ``"unoengine/UNO-v0"`` with Gymnasium (done on import; calling again does nothing)."""
    if ENV_ID not in gymnasium.envs.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT)


register_env()
