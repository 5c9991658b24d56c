"""UNO as a PettingZoo ``AECEnv`` (the ``pettingzoo`` extra: ``pip install '.[pettingzoo]'`` from a clone).

>>> from unoengine.envs.pettingzoo import env
>>> table = env(num_players=4)
>>> table.reset(seed=1)
>>> for agent in table.agent_iter():
...     obs, reward, termination, truncation, info = table.last()
...     action = None if termination or truncation else table.action_space(agent).sample(obs["action_mask"])
...     table.step(action)

Importing this module registers the environment, so ``pettingzoo.make("aec", "unoengine/UNO-v0",
num_players=3)`` builds the same wrapped environment as :func:`env` (pettingzoo 1.27 and later).

**Agents** are ``player_0`` .. ``player_{n-1}``, in seat order (seat 0 is ``player_0``).

**Actions** are ``Discrete(A)``: the shared table of :class:`~unoengine.envs.actions.ActionEncoding`
for the profile and player count, with seats named relative to the acting player, so an index
means the same decision in every seat. Action 0 is ``WAIT``: let an out-of-turn moment pass.

**Observations** are dicts, as PettingZoo's classic card games have them:
``{"observation": Box(0, high, (size,), float32), "action_mask": Box(0, 1, (A,), int8)}``. The
observation is :class:`~unoengine.envs.observations.ObservationEncoding` of the agent's own
:class:`~unoengine.engine.view.PlayerView` (never another hand), through its fast path
``encode_state``, which the tests hold to the view's encoding byte for byte. The mask holds the agent's legal
actions only while it is ``agent_selection`` (``WAIT`` included when it decides out of turn); it
is all zeros for every other agent, and for everyone once the game is over or truncated. The
selected agent's ``infos`` entry has ``legal_actions`` (the same actions as a sorted list) and
``out_of_turn`` (whether ``WAIT`` is among them); the others' entries are empty.

**Out-of-turn decisions.** UNO lets players act out of turn: catch a player who did not call
UNO (UNO-2), call it late (UNO-4), jump in with an identical card (HOUSE-2). An AEC game asks one
agent at a time, so a :class:`~unoengine.envs.table.Table` decides whose decision it is:

- ``out_of_turn="windows"`` (the default): after every move, each other player who now has a
  legal move is selected in turn, in seat order after the player to act, with ``WAIT`` among
  its actions (a *window*); then the player to act is selected, without ``WAIT``. A move made in
  a window (a catch, a late call, a jump-in) changes the state, and the windows open again on the
  new state. Every move of the game is reachable.
- ``out_of_turn="turn-only"``: only the player to act is ever selected, with all of its own
  legal moves (a catch of the previous player included); nobody catches, calls late or jumps in
  out of turn, and ``WAIT`` is never legal.

**Rewards** come at the end of a round, to every agent at once, from
:func:`~unoengine.envs.table.round_rewards`; every other step rewards 0. They are zero-sum.
``reward="win"``: +1 for the round's winner, -1/(n-1) for each other player. ``reward="points"``:
the points the round scored for each player (SCORE-1..4) less the table's average, negated
under ``own-hand-lowest-wins`` scoring. ``_cumulative_rewards`` follow PettingZoo's rule: an
agent's entry is reset when it acts, and ``last()`` returns what it gained since.

**The end.** With ``match=False`` (the default) the game is one round: every agent is terminated
when the round ends. With ``match=True`` rounds follow each other until the match is over
(SCORE-2..4): each round's end pays its rewards, the next dealer is selected with the single
legal action ``NextRound`` (deal the next round), and every agent is terminated when the match
is over. ``max_steps`` truncates every agent after that many agent steps (``WAIT`` counts),
unless the same step ended the game; the truncating step rewards 0. ``"auto"`` (the default) is
:func:`~unoengine.envs.step_cap.auto_agent_steps`: 20,000 steps per player (of 20 rounds in a
match), far beyond the longest rounds of random play measured; None never truncates.

**Illegal actions.** An action outside ``Discrete(A)`` always raises ActionError (an
``UnoEngineError``) and changes nothing. An action inside the space but not in the agent's mask
is refused the same way by :class:`raw_env` (``illegal_action="raise"``, the default); :func:`env`
passes ``illegal_action="terminate"``, PettingZoo's convention for classic games (what its
``TerminateIllegalWrapper`` does): the game ends, every agent is terminated, the offender's reward
is -1 and the others' 0, and the offender's info is ``{"illegal_action": True}``. The env's
``table`` (its :class:`~unoengine.envs.table.Table`) is there to read; once something is played on
it directly, outside :meth:`raw_env.step`, every step raises ActionError and plays nothing until
:meth:`raw_env.reset` (the mask is of a decision that is gone, and a masked action is not
checked a second time).

**Parameters** (keywords; :func:`env` and :class:`raw_env` take the same):

- ``profile="classic-108"``: a :class:`~unoengine.engine.profile.Profile`, a shipped name, a
  composition such as ``"gdj85+jump-in+stacking"``, or a TOML path
  (:func:`~unoengine.formats.composition.resolve_profile`).
- ``num_players=2``: 2..10, within the profile's ``min_players .. max_players``.
- ``render_mode=None``: ``"ansi"`` (``render()`` returns the text) or ``"human"`` (``render()``
  prints it, and every step prints the table).
- ``out_of_turn="windows"`` or ``"turn-only"``; ``reward="win"`` or ``"points"``;
  ``match=False``; ``max_steps="auto"`` (None, or a positive int); ``scaled=False``
  (True: every observation entry divided by its bound, in [0, 1], :mod:`.scaling`, and the
  ``observation`` space ``Box(0, 1)``); ``backend="reference"`` (the pure engine) or
  ``"compiled"`` (the numba engine, the ``fast`` extra: the same observations, masks, rewards
  and infos for the same seed and actions; a profile its kernels cannot run is refused here,
  naming the rule; docs/rl.md, "Backends"); :class:`raw_env` only: ``illegal_action="raise"``
  or ``"terminate"`` (see above).

``reset(seed=s)`` deals ``new_game(profile, n, seed=s)``, so an episode can be replayed with the
engine alone; ``reset()`` without a seed draws the game's seed from a generator seeded by the
last seed given (from the operating system before any). ``reset(options={"state": state})``
starts from a given :class:`~unoengine.engine.state.GameState` of the same profile and player
count (one built with ``from_position``, say); other option keys are ignored (PettingZoo's API
test passes one of its own).

**Bad arguments** raise :class:`~unoengine.envs.actions.ActionError` (an ``UnoEngineError``)
naming the argument, before anything changes: a keyword the constructor does not take, a
constructor argument of the wrong type or out of range (:mod:`.arguments`), a seed that is not an
int 0 .. 2**64 - 1 (a negative, a float, a bool), ``options`` that are not a dict, and an agent
name that is not one of ``possible_agents`` in ``observe``, ``observation_space`` and
``action_space`` (:class:`UnknownAgentError`, a ``KeyError`` too).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from ..engine.cards import Card
from ..engine.errors import shown
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.view import view
from ..formats.composition import resolve_profile
from ..formats.notation import format_move
from .actions import WAIT, ActionEncoding, ActionError, not_an_action, plain_int
from .arguments import (
    check_choice,
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
from .scaling import ObservationScaler
from .step_cap import MaxSteps, auto_agent_steps
from .table import OUT_OF_TURN, REWARD_MODES, OutOfTurn, RewardMode, round_rewards

if TYPE_CHECKING:
    import numpy.typing as npt

_pettingzoo: Any = require("pettingzoo", "pettingzoo")
_wrappers: Any = require("pettingzoo.utils.wrappers", "pettingzoo")
_spaces: Any = require("gymnasium.spaces", "pettingzoo")
_logger: Any = require("gymnasium.logger", "pettingzoo")
_env_logger: Any = require("pettingzoo.utils.env_logger", "pettingzoo")
np: Any = require("numpy", "pettingzoo")

ENV_ID: Final = "unoengine/UNO-v0"
"""The id of this environment in PettingZoo's registry."""

RenderMode = Literal["human", "ansi"]
IllegalAction = Literal["raise", "terminate"]
ILLEGAL_ACTIONS: Final = ("raise", "terminate")
RENDER_MODES: Final = ("human", "ansi")
_PARAMETERS: Final = ("profile", "num_players", "render_mode", "out_of_turn", "reward", "match", "max_steps",
                      "scaled", "backend", "illegal_action")
ProfileLike = Profile | str | Path | Sequence[str | Path]

_PHASE_WORDS: Final = {
    Phase.PLAY: "to play",
    Phase.DRAWN: "to play the drawn card or pass",
    Phase.CHALLENGE: "to challenge or accept a Wild Draw Four",
    Phase.CHOOSE_COLOR: "to name the first card's colour",
    Phase.PENALTY: "to answer the Draw card or accept",
}

AECEnv: Any = _pettingzoo.AECEnv
_INT8: Any = np.dtype(np.int8)
_frombuffer: Any = np.frombuffer
_ROUND_OVER: Final = int(Phase.ROUND_OVER)
_DERIVED: Final = frozenset({"observations", "backend", "_encode", "_scaler", "_action_of", "_rows"})


class UnknownAgentError(ActionError, KeyError):
    """An agent name that is not one of the environment's: an ActionError, and a KeyError as a
    dict of agents would give."""

    __str__ = BaseException.__str__  # the message as written, not quoted as KeyError would


class raw_env(AECEnv):  # type: ignore[misc]
    """UNO for PettingZoo's AEC API, without the wrappers (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "unoengine_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        profile: ProfileLike = "classic-108",
        num_players: int = 2,
        render_mode: RenderMode | None = None,
        out_of_turn: OutOfTurn = "windows",
        reward: RewardMode = "win",
        match: bool = False,
        max_steps: MaxSteps = "auto",
        scaled: bool = False,
        illegal_action: IllegalAction = "raise",
        backend: Backend = "reference",
        **unknown: Any,
    ) -> None:
        check_keywords(unknown, _PARAMETERS)
        super().__init__()
        resolved = resolve_profile(profile)
        check_players(resolved, num_players)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        check_choice("out_of_turn", out_of_turn, OUT_OF_TURN)
        check_choice("reward", reward, REWARD_MODES)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        check_flag("match", match)
        check_flag("scaled", scaled)
        steps_cap = check_max_steps(max_steps, auto_agent_steps(num_players, match))
        self.profile: Profile = resolved
        self.num_players = num_players
        self.render_mode = render_mode
        self.out_of_turn: OutOfTurn = out_of_turn
        self.reward_mode: RewardMode = reward
        self.match = match
        self.max_steps = steps_cap
        """The cap on agent steps (None: none); ``"auto"`` is resolved to its number."""
        self.scaled = scaled
        self.illegal_action: IllegalAction = illegal_action
        self.actions = ActionEncoding(resolved, num_players)
        self.observations = ObservationEncoding(resolved, num_players)
        self.backend: EnvBackend = env_backend(backend, resolved, num_players, self.observations, self.actions)
        self._backend_name: Backend = backend
        """The engine that runs the game (:mod:`.backend`)."""
        self._derive()

        self.possible_agents: list[str] = [f"player_{p}" for p in range(num_players)]
        self.agents: list[str] = []
        self._seat: dict[str, int] = {a: p for p, a in enumerate(self.possible_agents)}
        high = self._scaler.high() if self._scaler is not None else self.observations.high()
        size, actions = self.observations.size, self.actions.size
        # One space object per agent, so that seeding one agent's space leaves the others alone.
        self.observation_spaces: dict[str, Any] = {
            a: _spaces.Dict({
                "observation": _spaces.Box(low=0.0, high=high, shape=(size,), dtype=np.float32),
                "action_mask": _spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, Any] = {a: _spaces.Discrete(actions) for a in self.possible_agents}

        self.table: LiveTable | None = None
        self.steps = 0
        self.last_move: tuple[int, Move | None] | None = None
        """The seat and move of the last step (None for ``WAIT``), for :meth:`render`."""
        self._rng: Any = None
        self.agent_selection: str = self.possible_agents[0]
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        # The selected agent's decision, worked out once in _select: its actions' mask (bytes
        # that observe copies) and whether the step rewards must be cleared.
        self._size: int = self.actions.size
        self._mask = bytearray(self._size)
        self._informed: str | None = None
        self._paid = False
        # The table's decision the mask was made for: a step on any other refuses (see step).
        self._now: object = None

    def _derive(self) -> None:
        """What the step loop reads from the encodings, kept as attributes of its own: the
        observation function, the action of each of the engine's own move objects (by id, as
        :meth:`ActionEncoding.legal_actions` finds them), each seat's move of every action.
        Made again on unpickling (see :meth:`__getstate__`)."""
        observe = self.backend.observe
        scaler = self._scaler = ObservationScaler(self.observations) if self.scaled else None
        self._encode = observe if scaler is None else lambda table, seat: scaler(observe(table, seat))
        self._action_of = self.actions._by_id
        self._rows = tuple(self.actions.row(p) for p in range(self.num_players))

    # --- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise self._unknown(agent) from None

    def action_space(self, agent: str) -> Any:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise self._unknown(agent) from None

    def _unknown(self, agent: object) -> UnknownAgentError:
        return UnknownAgentError(f"agent: expected one of {', '.join(self.possible_agents)}, got {shown(agent)}")

    # --- the game -------------------------------------------------------------------------
    @property
    def game_state(self) -> GameState:
        """The engine's state of the game now (after :meth:`reset`)."""
        return self._table().state

    def _table(self) -> LiveTable:
        if self.table is None:
            raise ActionError("the environment has not been reset")
        return self.table

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        start = check_options(options, None).get("state")  # other keys are ignored, as PettingZoo asks
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = int(self._rng.integers(0, 2**64, dtype=np.uint64))
        if start is None:
            self.table = self.backend.deal(game_seed, self.out_of_turn)
        elif not isinstance(start, GameState):
            raise ActionError(f"options['state']: expected a GameState, got {type(start).__name__}")
        elif len(start.hands) != self.num_players or start.profile != self.profile:
            raise ActionError(f"options['state']: a game of another profile or player count than {self!r}")
        elif start.phase >= (Phase.MATCH_OVER if self.match else Phase.ROUND_OVER):
            raise ActionError("options['state']: the game is already over")
        else:
            self.table = self.backend.start(start, self.out_of_turn)
        self.steps = 0
        self.last_move = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._informed = None
        self._paid = False
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self, done: bool = False) -> None:
        """Select the table's actor and work out its decision once: the mask, and the info with
        its legal actions (the others' infos, and all once the game is ``done``, are empty)."""
        actor, moves, wait = self._now = (self.table or self._table()).now
        agent = self.possible_agents[actor]
        self.agent_selection = agent
        infos, informed = self.infos, self._informed
        if informed is not None:  # the last selected agent's info empties (refilled if selected again)
            infos[informed] = {}
        mask = self._mask = bytearray(self._size)
        if done:
            self._informed = None
            return
        legal = []
        try:  # ActionEncoding.legal_actions, filling in the mask on the way
            for m in moves:
                i = self._action_of[id(m)]
                mask[i] = 1
                legal.append(i)
            legal.sort()
            if wait:
                legal.insert(0, WAIT)
                mask[WAIT] = 1
        except KeyError:  # a move that is not the engine's own object: by value
            legal = self.actions.legal_actions(moves, wait=wait)
            for i in legal:
                mask[i] = 1
        infos[agent] = {"legal_actions": legal, "out_of_turn": wait}
        self._informed = agent

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ActionError(f"action: {agent} is still playing, so None is no action (WAIT is 0)")
        table = self.table or self._table()
        if table.now is not self._now:
            # Someone acted on env.table directly: the mask is of a decision that is gone, and
            # act_legal does not check again, so nothing is played on it.
            raise ActionError("action: env.table was played on outside step(), so the environment no longer "
                              "follows its game; call reset()")
        if type(action) is not int or action < 0:
            action = plain_int(action, self._size)
        try:
            allowed = self._mask[action]
        except IndexError:  # past the end of the space
            raise not_an_action(action, self._size) from None
        if not allowed:
            self._illegal(agent, action)
            return
        seat = self._seat[agent]
        move = self._rows[seat][action]
        before = table.phase
        if move is None:
            table.act(None)
        else:
            table.act_legal(move)
        phase = table.phase
        self.steps += 1
        self.last_move = (seat, move)
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self._clear_rewards()
            self._paid = False
        done = False
        if phase >= _ROUND_OVER and before < _ROUND_OVER:
            payoff = round_rewards(table.state, self.reward_mode)
            self.rewards = {a: payoff[p] for p, a in enumerate(self.possible_agents)}
            self._accumulate_rewards()
            self._paid = True
            if phase is Phase.MATCH_OVER or not self.match:
                self.terminations = dict.fromkeys(self.agents, True)
                done = True
        if not done and self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            done = True
        self._select(done)
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, action: int) -> None:
        """An action outside the agent's mask: refused (``illegal_action="raise"``), or the end of
        the game with -1 for that agent and 0 for the others (``"terminate"``, as PettingZoo's
        ``TerminateIllegalWrapper`` does for its classic games)."""
        seat = self._seat[agent]
        text = f"action {action} ({self.actions.describe(action)}) is not a legal action of {agent} now"
        if self.illegal_action == "raise":
            raise ActionError(f"action: {text}")
        _env_logger.EnvLogger.warn_on_illegal_move()
        self.steps += 1
        self.last_move = (seat, None)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._paid = True
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_action": True}
        self._informed = None
        self._mask = bytearray(self._size)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        table = self.table or self._table()
        try:
            seat = self._seat[agent]
        except (KeyError, TypeError):
            raise self._unknown(agent) from None
        selected = agent == self.agent_selection
        mask = _frombuffer(self._mask[:], _INT8) if selected else np.zeros(self._size, _INT8)
        return {"observation": self._encode(table, seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``AECEnv.last``, the same, in one call less (it is called every step):
        the selected agent's observation is :meth:`observe`'s, written out here."""
        agent = self.agent_selection
        if observe:
            seen = {"observation": self._encode(self.table or self._table(), self._seat[agent]),
                    "action_mask": _frombuffer(self._mask[:], _INT8)}
        else:
            seen = None
        return (seen, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    # --- rendering ------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            _logger.warn("render() called without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = self.render_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def render_text(self) -> str:
        """The table as the selected agent sees it, with the public facts."""
        table = self._table()
        state = table.state
        actor = table.actor
        v = view(state, actor)
        n = self.num_players
        head = f"UNO {self.profile.name}, {n} players, round {v.round_number}"
        if self.match:
            head += ", scores " + " ".join(f"p{p}:{s}" for p, s in enumerate(v.scores))
        color = str(v.color) if v.color is not None else "none yet"
        facts = (f"top card {_card(v.top_card)}, colour {color}, "
                 f"{'clockwise' if v.direction == 1 else 'counter-clockwise'}, draw pile {v.draw_pile_size}")
        if v.pending_draw:
            facts += f", pending draw {v.pending_draw}"
        hands = []
        for p, size in enumerate(v.hand_sizes):
            mark = "*" if p == v.current and not v.round_over else ""
            note = " (not called UNO)" if p == v.uno_exposed else ""
            hands.append(f"{mark}p{p}:{size}{note}")
        lines = [head, facts, "hands " + " ".join(hands)]
        if v.round_over and v.last_round is not None:
            result = v.last_round
            lines.append(f"round over: p{result.winner} wins{' (blocked round)' if result.blocked else ''}, "
                         f"points {' '.join(f'p{p}:{w}' for p, w in enumerate(result.points_won))}")
            if v.match_winner is not None:
                lines.append(f"match over: p{v.match_winner} wins the match")
        else:
            lines.append(f"p{v.current} {_PHASE_WORDS.get(v.phase, v.phase.name.lower())}")
        lines.append("last move: " + self._last_text())
        done = bool(self.agents) and all(self.terminations[a] or self.truncations[a] for a in self.agents)
        if not done and self.agents:
            when = " out of turn" if table.may_wait else ""
            lines.append(f"player_{actor} decides{when}, holding {' '.join(_card(c) for c in v.hand) or 'nothing'}")
            legal = self.actions.legal_actions(table.moves(), wait=table.may_wait)
            lines.append("actions " + ", ".join(f"{i} {self.actions.describe(i)}" for i in legal))
        elif self.agents:
            lines.append("the game is over" if any(self.terminations.values()) else "the game was truncated")
        return "\n".join(lines)

    def _last_text(self) -> str:
        if self.last_move is None:
            return "none yet"
        seat, move = self.last_move
        return f"p{seat} let the moment pass" if move is None else format_move(move)

    def close(self) -> None:
        pass

    # --- pickling (deepcopy, vectorised environments) ---------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        # ObservationEncoding holds the numpy module, which does not pickle, and what _derive
        # makes holds ids of this process's objects: both are made again instead.
        return {k: v for k, v in self.__dict__.items() if k not in _DERIVED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.observations = ObservationEncoding(self.profile, self.num_players)
        self.backend = env_backend(self._backend_name, self.profile, self.num_players, self.observations,
                                   self.actions)
        self._derive()

    def __repr__(self) -> str:
        return f"<unoengine_v0 {self.profile.name}, {self.num_players} players, {self.out_of_turn}>"


def _card(card: Card) -> str:
    return repr(card)


def env(
    *,
    profile: ProfileLike = "classic-108",
    num_players: int = 2,
    render_mode: RenderMode | None = None,
    out_of_turn: OutOfTurn = "windows",
    reward: RewardMode = "win",
    match: bool = False,
    max_steps: MaxSteps = "auto",
    scaled: bool = False,
    backend: Backend = "reference",
    **unknown: Any,
) -> Any:
    """:class:`raw_env` as a user of PettingZoo's classic card games gets it: an illegal action
    ends the game with -1 for its agent (``illegal_action="terminate"``), an action outside the
    space raises ActionError, and the call order is enforced (PettingZoo's ``OrderEnforcingWrapper``)."""
    check_keywords(unknown, _PARAMETERS[:-1])
    inner = raw_env(
        profile=profile, num_players=num_players, render_mode=render_mode, out_of_turn=out_of_turn,
        reward=reward, match=match, max_steps=max_steps, scaled=scaled, illegal_action="terminate",
        backend=backend,
    )
    return _OrderEnforcing(inner)


class _OrderEnforcing(_wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, reaching the environment
    directly in the calls a learner makes every step (``last``, ``step``, ``observe``), where
    the base class goes through ``__getattr__`` for every attribute."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # Once reset, last() has nothing left to check: calls go straight to the environment's
        # own (an instance attribute, found before the method above; the wrapper's attribute
        # lookups are slow, as it has a __getattr__).
        self.__dict__["last"] = self.env.last

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            _wrappers.OrderEnforcingWrapper.step(self, action)  # PettingZoo's own error
            return
        self._has_updated = True
        inner = self.env
        if inner.agents:
            inner.step(action)
        else:
            _env_logger.EnvLogger.warn_step_after_terminated_truncated()

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return _wrappers.OrderEnforcingWrapper.observe(self, agent)
        return self.env.observe(agent)

    def __str__(self) -> str:
        return str(self.env)


def _register() -> None:
    """Make ``pettingzoo.make("aec", "unoengine/UNO-v0", ...)`` build :func:`env` (pettingzoo >= 1.27)."""
    register = getattr(_pettingzoo, "register", None)
    registry = getattr(_pettingzoo, "aec_registry", None)
    if register is None or registry is None or ENV_ID in registry:
        return
    register("aec", ENV_ID, entry_point=env)


_register()

__all__ = ["ENV_ID", "UnknownAgentError", "env", "raw_env"]
