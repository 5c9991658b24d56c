"""OpenSpiel: one UNO round as the pyspiel game ``python_unoengine`` (docs/rl.md).

Importing this module registers the game, so that ``pyspiel.load_game("python_unoengine",
{"players": 4, "profile": "gdj85+jump-in"})`` works from Python and from OpenSpiel's C++ tools.

Parameters (:data:`PARAMETERS` has the defaults):

- ``players``: 2..10 (and within the profile's own range);
- ``profile``: a profile name, TOML path or composition (``"gdj85+jump-in+stacking"``);
- ``out_of_turn``: ``"windows"`` (catches, late calls and jump-ins are single decisions with
  ``WAIT``, :mod:`.table`) or ``"turn-only"``;
- ``reward``: ``"win"`` or ``"points"`` (:func:`.table.round_rewards`, both zero-sum);
- ``max_game_length``: the cap on decisions in a round (see below).

The choices, and why:

- **Explicit chance: the deal's seed.** A new state starts with :data:`SEED_BYTES` (four) chance
  nodes, each choosing one byte of the round's deal seed from :data:`SEED_OUTCOMES` (256) equally
  likely outcomes (``chance_outcomes()``; ``max_chance_outcomes`` is 256). After the last one the
  state deals ``new_game(profile, players, seed)``, the seed being the bytes read big-endian
  (32 bits: about four billion deals), and play starts. Every later shuffle (a reshuffled discard
  pile) comes from the engine state's own seeded generator, so no other chance node follows
  (``max_chance_nodes_in_history`` is 4) and the history fixes the round. Why not sampled chance,
  the engine drawing the seed itself: pyspiel writes a sampled-stochastic game together with its
  generator's state (``GetRNGState``), which pyspiel 2.0 lets no Python game give, so
  ``pyspiel.serialize_game_and_state``, and ``random_sim_test`` with ``serialize=True``, could not
  work. With the seed chosen by chance nodes the game has no generator of its own and both work.
  Four bytes keep histories short while deals rarely repeat.
- **A new initial state is cheap**: it deals nothing until its chance nodes are played, which
  matters because pyspiel builds one to clone or deserialize a state, and to size the tensors.
- **Imperfect information, zero-sum, terminal rewards.** A game is one round; the returns are
  :func:`.table.round_rewards` at its end. ``win``: +1 for the winner, -1/(n-1) for the others
  (the utility bounds). ``points``: bounded by the deck's points D, as ±D·(n-1)/n.
- **Actions** are the shared :class:`.actions.ActionEncoding` (``WAIT`` is 0); the current player is
  the :class:`.table.Table`'s actor, so in a window it is the seat asked, not the turn's owner.
  Chance actions are the seed bytes 0..255 (``"seed byte 17"``).
- **The length cap.** A round is finite only with probability one: reshuffling the discard pile
  lets play go round forever, and uniform random play runs long (a mean of about a thousand
  decisions at four players with windows, the 99th percentile near ten thousand, ten times that
  with draw-until-playable at two players). OpenSpiel needs a finite ``max_game_length``, and its
  tests check it, so a round reaching ``max_game_length`` decisions (default
  :data:`MAX_GAME_LENGTH`, every decision counted, ``WAIT`` too) ends there as a draw: terminal,
  every return 0. As in OpenSpiel's ``MaxGameLength``, the chance nodes are not decisions and do
  not count: the longest history is ``max_game_length + 4`` moves (``MaxHistoryLength``). Sensible
  play is far from the cap: the shipped HeuristicBot ends rounds in about 50 decisions on average,
  250 at most in our runs, so the cap only ends degenerate play.
- **Observation and information state.** The observation tensor is the shared
  :class:`.observations.ObservationEncoding` of the player's view, named by its segments; the
  strings render the same view in words. The information state is the observation: UNO's view
  already holds the public history that matters (the whole discard pile, the cards each player
  knows of other hands, scores), so it is not perfect recall (past hand sizes are forgotten) but
  it fixes the player's legal actions, which is what ISMCTS and policies key on. Observers for
  public information only (``private_info=NONE``) or private only (``public_info=False``) take the
  matching segments; all players' private information is refused. No player sees the chance
  outcomes: a view (:func:`unoengine.engine.view.view`) holds neither the seed nor the engine's
  generator, so the seed reaches a player only through the cards dealt to it. At the chance nodes,
  before the deal, every player's tensor is all zeros and its string ``"p<player> | dealing"``,
  whatever bytes were chosen so far.
- :meth:`UnoState.resample_from_infostate` deals the hidden cards again with
  :func:`~unoengine.bots.determinize.sample_state`, keeping where the round stands in its windows;
  the sample is a dealt state with no chance node ahead (at a chance node, the bytes chosen so far
  are drawn again instead).
- **Serialization: JSON data, never pickle.** pyspiel writes a Python state as its history, its
  move number and its attributes *pickled*, and reads that back with ``pickle.loads``, so a crafted
  text runs code. :meth:`UnoState.serialize` writes one line of JSON instead
  (:mod:`.openspiel_format`: the game's parameters, the history, the seed bytes chosen so far or,
  once dealt, the engine state document, the windows let pass, the decision count and the
  truncation), and :meth:`UnoGame.deserialize_state` reads only that, checking every field first
  (SerializationError naming it). The round is written whole, so a state whose history does not
  lead to it reads back exactly too: one from ``new_initial_state(state)`` (an empty history), or a
  resampled one (the history pyspiel copied from the state it was drawn from, another deal). The
  history is given back by applying each entry once more with the round left alone
  (:meth:`UnoState._replay_history`), pyspiel having no other way. Importing this module makes
  ``pyspiel.serialize_game_and_state`` and ``pyspiel.deserialize_game_and_state`` use this
  format for this game (other games go through pyspiel as before). pyspiel's C++ code still
  pickles the attributes of the states it copies itself (``random_sim_test`` with serialization):
  the state's one attribute pickles as a call of :func:`restore_round` on the same JSON text.
"""

from __future__ import annotations

import functools
import math
import numbers
import random
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from ..bots.determinize import sample_state
from ..engine.cards import CARDS, Card
from ..engine.dealing import new_game
from ..engine.errors import SerializationError, UnoEngineError, shown
from ..engine.limits import MAX_ROUND_DECISIONS
from ..engine.moves import MAX_PLAYERS, Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.view import PlayerView, view
from ..formats.composition import resolve_profile
from ..formats.serialize import from_json, loads, to_json
from .actions import WAIT, ActionEncoding, ActionError
from .arguments import check_players
from .extras import require
from .observations import ObservationEncoding
from .openspiel_format import (
    SOURCE,
    StateFields,
    check_game,
    check_history,
    join_game_and_state,
    read_state_text,
    split_game_and_state,
    write_state_text,
)
from .table import OUT_OF_TURN, REWARD_MODES, Table, round_rewards

pyspiel: Any = require("pyspiel", "openspiel")
np: Any = require("numpy", "openspiel")

SHORT_NAME: Final = "python_unoengine"
MAX_GAME_LENGTH: Final = 10_000
"""The default cap on the decisions of a round (the ``max_game_length`` parameter)."""
SEED_BYTES: Final = 4
"""The chance nodes that start a round: each chooses one byte of the deal's seed."""
SEED_OUTCOMES: Final = 256
"""The outcomes of each chance node (the byte's values, equally likely)."""
PARAMETERS: Final[Mapping[str, int | str]] = {
    "players": 2,
    "profile": "classic-108",
    "out_of_turn": "windows",
    "reward": "win",
    "max_game_length": MAX_GAME_LENGTH,
}
"""The game's parameters and their defaults."""

PRIVATE_SEGMENTS: Final = frozenset({"hand", "drawn_card", "known"})
"""The observation segments only the viewing player sees; the others are public."""

_RESAMPLE_TRIES: Final = 100
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_SEED_PROBABILITY: Final = 1.0 / SEED_OUTCOMES

GAME_TYPE: Final[Any] = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="UNO round (unoengine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETERS),
)


class Rules:
    """What every state of one game shares: the parameters, the profile and the encodings."""

    def __init__(self, players: int, profile: str, out_of_turn: str, reward: str, max_game_length: int) -> None:
        check_parameters({"players": players, "profile": profile, "out_of_turn": out_of_turn, "reward": reward,
                          "max_game_length": max_game_length})
        self.profile: Profile = resolve_profile(profile)
        check_players(self.profile, players, "players")
        self.parameters = {"players": players, "profile": profile, "out_of_turn": out_of_turn, "reward": reward,
                           "max_game_length": max_game_length}
        self.num_players = players
        self.out_of_turn: Any = out_of_turn
        self.reward: Any = reward
        self.max_game_length = max_game_length
        self.actions = ActionEncoding(self.profile, players)
        self.observations = ObservationEncoding(self.profile, players)
        if reward == "win":
            self.min_utility, self.max_utility = -1.0 / (players - 1), 1.0
        else:
            deck_points = sum(k * self.profile.points[c] for c, k in enumerate(self.profile.play_deck))
            bound = max(deck_points, 1) * (players - 1) / players
            self.min_utility, self.max_utility = -bound, bound

    def info(self) -> Any:
        """The pyspiel GameInfo of these rules."""
        return pyspiel.GameInfo(
            num_distinct_actions=self.actions.size, max_chance_outcomes=SEED_OUTCOMES, num_players=self.num_players,
            min_utility=self.min_utility, max_utility=self.max_utility, utility_sum=0.0,
            max_game_length=self.max_game_length,
        )

    def own(self, state: GameState) -> GameState:
        """``state`` on these rules' own Profile object (ActionError if it is of another game)."""
        if not isinstance(state, GameState):
            raise ActionError(f"state: expected a unoengine state, got {type(state).__name__}")
        if state.profile is self.profile and state.num_players == self.num_players:
            return state
        if state.num_players != self.num_players or state.profile.fingerprint != self.profile.fingerprint:
            raise ActionError(f"state: a {state.num_players}-player {state.profile.name!r} state is not of this game "
                              f"({self.num_players} players, {self.profile.name!r}){self._shuffle_note(state)}")
        return attrs.evolve(state, profile=self.profile)

    def _shuffle_note(self, state: GameState) -> str:
        """Why a state whose rules differ from these in their shuffle alone is refused: one saved
        before shuffles were named shuffles as ``"mt19937"`` (docs/shuffle.md), these rules maybe not."""
        theirs, ours = state.profile.shuffle, self.profile.shuffle
        if theirs == ours or attrs.evolve(state.profile, shuffle=ours).fingerprint != self.profile.fingerprint:
            return ""
        return (f": it shuffles with {theirs!r}, this game with {ours!r} (a state saved before shuffles were named "
                "shuffles with 'mt19937'; docs/shuffle.md)")


def check_parameters(params: Mapping[str, Any]) -> None:
    """ActionError naming the first parameter of :data:`PARAMETERS` that is unknown, of the wrong
    type or out of range (the profile is checked when it is resolved)."""
    unknown = sorted((k for k in params if k not in PARAMETERS), key=repr)
    if unknown:
        raise ActionError(f"parameters: unknown {', '.join(shown(k, 30) for k in unknown[:5])}; "
                          f"expected {', '.join(PARAMETERS)}")
    players = params.get("players", PARAMETERS["players"])
    if type(players) is not int or not 2 <= players <= MAX_PLAYERS:
        raise ActionError(f"players: expected an int 2..{MAX_PLAYERS}, got {shown(players)}")
    profile = params.get("profile", PARAMETERS["profile"])
    if type(profile) is not str:
        raise ActionError(f"profile: expected a profile name, path or composition (a str), got {shown(profile)}")
    for name, choices in (("out_of_turn", OUT_OF_TURN), ("reward", REWARD_MODES)):
        value = params.get(name, PARAMETERS[name])
        if type(value) is not str or value not in choices:
            raise ActionError(f"{name}: expected one of {', '.join(choices)}, got {shown(value)}")
    length = params.get("max_game_length", PARAMETERS["max_game_length"])
    if type(length) is not int or not 1 <= length <= MAX_ROUND_DECISIONS:
        raise ActionError(f"max_game_length: expected an int 1..{MAX_ROUND_DECISIONS:,} (decisions in a round), got "
                          f"{shown(length)}")


@functools.lru_cache(maxsize=64)
def rules_for(players: int, profile: str, out_of_turn: str, reward: str, max_game_length: int) -> Rules:
    """The shared Rules of these parameters (cached: resolving a profile reads files)."""
    return Rules(players, profile, out_of_turn, reward, max_game_length)


class Round:
    """What one OpenSpiel state holds: before the deal, the seed bytes chosen so far; then the
    engine state, the windows let pass since the last move, the decision count and whether the
    cap ended the round.

    It is the state's only Python attribute, because pyspiel clones a Python state by deep-copying
    its attributes onto a new initial state, and serializes it by pickling them: so a deep copy
    shares the immutable engine state and copies the Table (:meth:`.table.Table.copy`), and
    pickling writes a call of :func:`restore_round` on the JSON of :meth:`to_text`.
    """

    __slots__ = ("_state", "_table", "_tensors", "_views", "decisions", "rules", "seed_bytes", "truncated", "waits")

    def __init__(self, rules: Rules, state: GameState | None, *, seed_bytes: tuple[int, ...] = (), waits: int = 0,
                 decisions: int = 0, truncated: bool = False) -> None:
        self.rules = rules
        self._state = state
        self.seed_bytes = seed_bytes
        self.waits = waits
        self.decisions = decisions
        self.truncated = truncated
        self._table: Table | None = None
        self._views: dict[int, PlayerView] = {}
        self._tensors: dict[int, Any] = {}

    @property
    def dealing(self) -> bool:
        """Is the round still at its chance nodes, its seed not chosen yet?"""
        return self._state is None

    @property
    def state(self) -> GameState:
        """The engine state (ActionError before the deal)."""
        if self._state is None:
            raise ActionError(f"state: the round is not dealt yet ({len(self.seed_bytes)} of {SEED_BYTES} "
                              "seed bytes chosen)")
        return self._state

    @property
    def table(self) -> Table:
        """The live Table: the state with its windows let pass."""
        if self._table is None:
            table = Table(self.state, self.rules.out_of_turn)
            for _ in range(self.waits):
                if not table.may_wait:
                    raise ActionError(f"waits: {self.waits} windows let pass, but this state opens fewer")
                table.act(None)
            self._table = table
        return self._table

    @property
    def terminal(self) -> bool:
        return self._state is not None and (self.truncated or self._state.phase >= Phase.ROUND_OVER)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (cached until the state changes)."""
        v = self._views.get(player)
        if v is None:
            v = self._views[player] = view(self.state, player)
        return v

    def tensor(self, player: int) -> Any:
        """The observation vector of ``player`` (cached until the state changes; never handed out)."""
        t = self._tensors.get(player)
        if t is None:
            t = self._tensors[player] = self.rules.observations.encode(self.view(player))
        return t

    def legal_actions(self) -> list[int]:
        """The actor's legal actions; at a chance node, the seed bytes."""
        if self.dealing:
            return list(range(SEED_OUTCOMES))
        if self.terminal:
            return []
        table = self.table
        return self.rules.actions.legal_actions(table.moves(), wait=table.may_wait)

    def act(self, action: int) -> None:
        """The actor takes ``action`` (at a chance node: chance chooses the next seed byte);
        ActionError, and nothing changes, if it is not legal now."""
        if self.dealing:
            self._choose(action)
            return
        if self.terminal:
            raise ActionError("action: the round is over")
        table = self.table
        move: Move | None = self.rules.actions.move(action, table.actor)
        table.act(move)
        if move is None:
            self.waits += 1
        else:
            self.waits = 0
            self._state = table.state
            self._views.clear()
            self._tensors.clear()
        self.decisions += 1
        if self.decisions >= self.rules.max_game_length and table.state.phase < Phase.ROUND_OVER:
            self.truncated = True

    def _choose(self, byte: int) -> None:
        """Chance chooses the next seed byte; after the last, the round is dealt."""
        if isinstance(byte, bool) or not isinstance(byte, int) or not 0 <= byte < SEED_OUTCOMES:
            raise ActionError(f"chance outcome: expected a seed byte 0..{SEED_OUTCOMES - 1}, got {byte!r}")
        chosen = (*self.seed_bytes, byte)
        if len(chosen) < SEED_BYTES:
            self.seed_bytes = chosen
            return
        seed = int.from_bytes(bytes(chosen), "big")
        self._state = self.rules.own(new_game(self.rules.profile, self.rules.num_players, seed))
        self.seed_bytes = ()

    def returns(self) -> list[float]:
        if self.truncated or not self.terminal:
            return [0.0] * self.rules.num_players
        return list(round_rewards(self.state, self.rules.reward))

    def resampled(self, state: GameState) -> Round:
        """A round in ``state`` (another deal of the hidden cards) at the same point of its windows:
        the seats asked before the actor in this round have let them pass there too; who is asked
        after the actor is whom the Table of ``state`` asks."""
        out = Round(self.rules, state, decisions=self.decisions)
        table, n = Table(state, self.rules.out_of_turn), self.rules.num_players
        here = self.table
        if here.may_wait:
            reached = (here.actor - state.current) % n
            while table.may_wait and (table.actor - state.current) % n < reached:
                table.act(None)
                out.waits += 1
        else:
            while table.may_wait:
                table.act(None)
                out.waits += 1
        out._table = table
        return out

    def copy(self) -> Round:
        out = Round(self.rules, self._state, seed_bytes=self.seed_bytes, waits=self.waits, decisions=self.decisions,
                    truncated=self.truncated)
        if self._table is not None:
            out._table = self._table.copy()
        out._views = dict(self._views)
        out._tensors = dict(self._tensors)
        return out

    def __copy__(self) -> Round:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        return self.copy()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Only pyspiel's own C++ code pickles a state's attributes (random_sim_test's serialization;
        # a clone deep-copies them instead): what it writes is a call of restore_round on the JSON
        # text, data only.
        return restore_round, (self.to_text(),)

    def to_text(self, history: Iterable[tuple[int, int]] = ()) -> str:
        """The round as the JSON text of :mod:`.openspiel_format`, with ``history``: the game's
        parameters, the seed bytes chosen so far (before the deal) or the engine state document
        (``null`` before the deal), the windows let pass, the decision count and the truncation."""
        return write_state_text(self.rules.parameters, list(history), self.seed_bytes,
                                None if self._state is None else to_json(self._state), self.waits, self.decisions,
                                self.truncated)


def read_round(rules: Rules, fields: StateFields) -> Round:
    """The Round of checked ``fields`` (:func:`.openspiel_format.read_state_text`) in a game of
    ``rules``: SerializationError naming the field that is not one of its rounds."""
    seed_bytes, waits, decisions, truncated = fields.seed_bytes, fields.waits, fields.decisions, fields.truncated
    cap = rules.max_game_length
    if fields.state is None:
        if waits or decisions or truncated:
            raise SerializationError(SOURCE, "state", "null only before the deal, with no decision made yet")
        return Round(rules, None, seed_bytes=seed_bytes)
    if seed_bytes:
        raise SerializationError(SOURCE, "seed_bytes", "a dealt round has no seed bytes pending")
    state = from_json(fields.state, f"{SOURCE}: state")
    if not isinstance(state, GameState):
        raise SerializationError(SOURCE, "state", "the document is not a unoengine state")
    try:
        owned = rules.own(state)
    except UnoEngineError as exc:
        raise SerializationError(SOURCE, "state", str(exc)) from None
    if decisions > cap:
        raise SerializationError(SOURCE, "decisions", f"{decisions:,} is more than this game's max_game_length {cap:,}")
    if truncated != (decisions == cap and owned.phase < Phase.ROUND_OVER):
        raise SerializationError(SOURCE, "truncated", f"true exactly when the round reached max_game_length ({cap:,} "
                                 "decisions) before its end")
    out = Round(rules, owned, waits=waits, decisions=decisions, truncated=truncated)
    if not truncated:
        try:
            out.table  # noqa: B018 - check the windows let pass now, not at the first move
        except UnoEngineError as exc:
            raise SerializationError(SOURCE, "waits", str(exc).removeprefix("waits: ")) from None
    return out


def _fields(text: object) -> StateFields:
    return read_state_text(text, num_seed_bytes=SEED_BYTES, seed_outcomes=SEED_OUTCOMES)


def restore_round(text: str) -> Round:
    """The Round whose :meth:`Round.to_text` is ``text``: what pyspiel's C++ code calls when it reads
    back a state it pickled itself (see :meth:`Round.__reduce__`)."""
    fields = _fields(text)
    try:
        check_parameters(fields.game)
        rules = rules_for(**{**PARAMETERS, **fields.game})
    except UnoEngineError as exc:
        raise SerializationError(SOURCE, "game", str(exc)) from None
    return read_round(rules, fields)


class UnoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one UNO round; load it as ``pyspiel.load_game("python_unoengine", {...})``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise ActionError(f"parameters: expected a mapping of {', '.join(PARAMETERS)}, got {shown(params)}")
        merged = {**PARAMETERS, **(params or {})}
        check_parameters(merged)  # before the cache, which needs hashable values
        rules = rules_for(merged["players"], merged["profile"], merged["out_of_turn"], merged["reward"],
                          merged["max_game_length"])
        super().__init__(GAME_TYPE, rules.info(), merged)
        self.rules = rules

    def new_initial_state(self, state: Any = None) -> UnoState:
        """A new round at its first chance node (its deal seed not chosen yet); or the round from
        ``state``, skipping the chance nodes: a unoengine GameState, its JSON text
        (``unoengine.formats.serialize.dumps``) or parsed document. Such a state's history is empty."""
        if state is None:
            return UnoState(self, Round(self.rules, None))
        if isinstance(state, str):
            state = loads(state)
        elif isinstance(state, dict):
            state = from_json(state)
        return UnoState(self, Round(self.rules, self.rules.own(state)))

    def deserialize_state(self, text: str) -> UnoState:
        """The state that :meth:`UnoState.serialize` wrote as ``text`` (the JSON of
        :mod:`.openspiel_format`), its history included. pyspiel's own format, which pickles, is
        refused, as is anything else that is not a state of this very game: SerializationError
        naming the field and the problem. Nothing in the text is executed."""
        rules = self.rules
        fields = _fields(text)
        check_game(fields.game, rules.parameters)
        check_history(fields.history, num_players=rules.num_players, num_actions=rules.actions.size,
                      seed_outcomes=SEED_OUTCOMES, longest=rules.max_game_length + SEED_BYTES)
        out = UnoState(self, read_round(rules, fields))
        out._replay_history(fields.history)
        return out

    def max_chance_nodes_in_history(self) -> int:
        """The chance nodes of a round: the :data:`SEED_BYTES` that choose its deal."""
        return SEED_BYTES

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer of ``iig_obs_type`` (the observation by default), as OpenSpiel asks for it."""
        if isinstance(iig_obs_type, dict):  # pyspiel's make_observer(params) passes only the params
            iig_obs_type, params = None, iig_obs_type
        return Observer(self.rules, iig_obs_type, params)


class UnoState(pyspiel.State):  # type: ignore[misc]
    """One moment of a round: a chance node choosing a byte of the deal's seed, or whose decision
    it is (the Table's actor) and what it may do."""

    _replay: list[int] = []  # noqa: RUF012 - never changed: an instance replaying has its own (_replay_history)
    """The players of the history entries still to replay, last first (empty but while reading a state)."""

    def __init__(self, game: UnoGame, round_: Round) -> None:
        super().__init__(game)
        self._round = round_

    # --- for users and tests --------------------------------------------------------------
    @property
    def engine_state(self) -> GameState:
        """The unoengine state of the round now (ActionError at the chance nodes, before the deal)."""
        return self._round.state

    @property
    def dealt(self) -> bool:
        """Are the chance nodes past, the round dealt?"""
        return not self._round.dealing

    @property
    def in_window(self) -> bool:
        """Is the current player deciding out of turn (so ``WAIT`` is among its actions)?"""
        r = self._round
        return not r.dealing and not r.terminal and r.table.may_wait

    @property
    def truncated(self) -> bool:
        """Did the round end at the cap on its length (a draw) rather than by its rules?"""
        return self._round.truncated

    def legal_moves(self) -> list[Move | None]:
        """The engine moves of :meth:`legal_actions` (None for ``WAIT``; none at a chance node)."""
        r = self._round
        if r.dealing:
            return []
        return [r.rules.actions.move(a, r.table.actor) for a in r.legal_actions()]

    def serialize(self) -> str:
        """This state as one line of JSON data (:mod:`.openspiel_format`): the history, the game's
        parameters and the round. :meth:`UnoGame.deserialize_state` reads it back exactly; no
        pickle is written (pyspiel's own serialization of a Python state would pickle)."""
        return self._round.to_text((int(h.player), int(h.action)) for h in self.full_history())

    def to_json(self) -> str:
        """The same text as :meth:`serialize`."""
        return self.serialize()

    def _replay_history(self, history: list[tuple[int, int]]) -> None:
        """Give this state ``history`` as its pyspiel history and move number, leaving the round
        alone: pyspiel records an action only as it is applied, so each entry is applied once more
        with :meth:`current_player` answering its player and the action doing nothing. pyspiel
        offers no other way but its pickled format."""
        self._replay = [player for player, _ in reversed(history)]
        try:
            for _, action in history:
                self.apply_action(action)
        finally:
            del self._replay

    # --- the pyspiel State API ------------------------------------------------------------
    def current_player(self) -> Any:
        if self._replay:
            return self._replay[-1]
        r = self._round
        if r.dealing:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if r.terminal else r.table.actor

    def _legal_actions(self, player: int) -> list[int]:
        r = self._round
        return r.legal_actions() if not r.dealing and not r.terminal and player == r.table.actor else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, the seed bytes, equally likely; nothing elsewhere."""
        if not self._round.dealing:
            return []
        return [(b, _SEED_PROBABILITY) for b in range(SEED_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        if self._replay:
            self._replay.pop()
            return
        self._round.act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if not 0 <= action < SEED_OUTCOMES:
                raise ActionError(f"chance outcome: expected a seed byte 0..{SEED_OUTCOMES - 1}, got {action!r}")
            return f"seed byte {action}"
        return self._round.rules.actions.describe(action)

    def is_terminal(self) -> bool:
        return self._round.terminal

    def returns(self) -> list[float]:
        return self._round.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> UnoState:
        """A state that ``player_id`` cannot tell from this one: the cards it has not seen dealt
        again (:func:`~unoengine.bots.determinize.sample_state`), seeded by ``probability_sampler``
        (a callable giving floats in [0, 1), such as ``pyspiel.UniformProbabilitySampler``).

        The sample is a dealt state, with no chance node ahead: its engine state is the new deal
        (serialization carries it), while its ``history()`` is this state's, which pyspiel copies
        and which does not lead to it. At a chance node the seed bytes chosen so far are drawn
        again instead.

        The round stays at the same point of its windows (the same current player, with ``WAIT`` or
        not). Who is asked follows from public information, since the Table asks every other seat
        while a jump-in is possible (HOUSE-2), so a sample asks the same player; should a sampled deal
        ever not (the player asked is not ``player_id`` and the sampled hands would not ask it), the
        deal is drawn again, up to 100 times, and then this state itself is the sample: it is one the
        player cannot tell from itself."""
        r = self._round
        out: UnoState = self.clone()
        if r.terminal:
            return out
        drawn = probability_sampler() if callable(probability_sampler) else None
        value = float(drawn) if isinstance(drawn, numbers.Real) and not isinstance(drawn, bool) else math.nan
        if not 0.0 <= value <= 1.0:
            raise ActionError(f"probability_sampler: expected a callable giving floats in [0, 1], got "
                              f"{shown(probability_sampler)} giving {shown(drawn)}")
        rng = random.Random(int(value * 2.0**53))
        if r.dealing:
            out._round = Round(r.rules, None, seed_bytes=tuple(rng.randrange(SEED_OUTCOMES) for _ in r.seed_bytes))
            return out
        seen = r.view(player_id)
        here = r.table
        for _ in range(_RESAMPLE_TRIES):
            candidate = r.resampled(r.rules.own(sample_state(seen, rng)))
            table = candidate.table
            if table.actor == here.actor and table.may_wait == here.may_wait:
                out._round = candidate
                break
        return out

    def __str__(self) -> str:
        return _state_text(self._round)


class Observer:
    """The PyObserver OpenSpiel asks for (observation.py): the shared observation vector of a
    player's view, in ``tensor`` and by segment in ``dict``, and the view in words. At the chance
    nodes, before the deal, the tensor is all zeros and the string ``"p<player> | dealing"``."""

    def __init__(self, rules: Rules, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ActionError(f"observation parameters: none are supported, got {dict(params)!r}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        public = True if iig_obs_type is None else bool(iig_obs_type.public_info)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ActionError("observation: every player's private information (perfect information) is not offered")
        self.rules = rules
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = public
        layout = rules.observations.layout
        chosen = [s for s in layout if (self.private if s.name in PRIVATE_SEGMENTS else self.public) and s.length]
        self._whole = len(chosen) == len(layout)
        size = sum(s.length for s in chosen)
        tensor: Any = np.zeros(size, np.float32)
        self.tensor: Any = tensor if size else None
        self.dict: dict[str, Any] = {}
        self._parts: list[tuple[int, int, int]] = []
        at = 0
        for s in chosen:
            self.dict[s.name] = tensor[at:at + s.length]
            self._parts.append((s.offset, at, s.length))
            at += s.length

    def set_from(self, state: UnoState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        if self.tensor is None:
            return
        if state._round.dealing:
            self.tensor.fill(0.0)
            return
        full = state._round.tensor(player)
        if self._whole:
            self.tensor[:] = full
        else:
            for src, dst, length in self._parts:
                self.tensor[dst:dst + length] = full[src:src + length]

    def string_from(self, state: UnoState, player: int) -> str:
        """``player``'s observation of ``state`` in words."""
        r = state._round
        if r.dealing:
            return f"p{player} | dealing"
        return _view_text(r.view(player), self.public, self.private, r.truncated)


# --- text ---------------------------------------------------------------------------------

_NAMES: Final = tuple(repr(c) for c in CARDS)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(_NAMES.__getitem__, cards)) or "-"


def _view_text(v: PlayerView, public: bool, private: bool, truncated: bool) -> str:
    """A view in words: the player, then what only it sees, then what everyone sees."""
    parts = [f"p{v.player}"]
    if private:
        parts.append(f"hand {_cards(v.hand)}")
        if v.drawn_card is not None:
            parts.append(f"drawn {v.drawn_card!r}")
        parts += [f"knows p{owner} has {_cards(cards)}" for owner, cards in v.known]
        if v.revealed is not None:
            parts.append(f"was shown p{v.revealed.owner}'s hand {_cards(v.revealed.cards)}")
    if public:
        parts.append(_public_text(v, truncated))
    return " | ".join(parts)


def _public_text(v: PlayerView, truncated: bool) -> str:
    way = "clockwise" if v.direction == 1 else "counter-clockwise"
    parts = [
        f"round {v.round_number}, dealer p{v.dealer}",
        f"top {v.top_card!r}, colour {v.color if v.color is not None else 'none'}",
        f"{v.phase.name.lower()}, p{v.current} in turn, {way}",
        f"hands {' '.join(map(str, v.hand_sizes))}, draw pile {v.draw_pile_size}",
    ]
    if v.pending_draw:
        parts.append(f"pending draw {v.pending_draw}")
    if v.challenge_attacker is not None:
        parts.append(f"p{v.challenge_attacker}'s W+4 on {v.challenge_color} may be challenged")
    if v.uno_exposed is not None:
        parts.append(f"p{v.uno_exposed} may be caught without UNO")
    if v.passes:
        parts.append(f"passes {v.passes}")
    parts.append(f"scores {' '.join(map(str, v.scores))}")
    if v.last_round is not None and v.phase >= Phase.ROUND_OVER:
        how = "blocked, lowest hand" if v.last_round.blocked else "out"
        parts.append(f"p{v.last_round.winner} won ({how}), points {' '.join(map(str, v.last_round.points_won))}")
    if truncated:
        parts.append("ended at the length cap (a draw)")
    parts.append(f"discard {_cards(v.discard_pile)}")
    return " | ".join(parts)


def _state_text(r: Round) -> str:
    """The whole state in words, hidden cards and the seed included (OpenSpiel's ``ToString``)."""
    if r.dealing:
        chosen = " ".join(map(str, r.seed_bytes)) or "none yet"
        return f"dealing: seed bytes chosen {len(r.seed_bytes)} of {SEED_BYTES}: {chosen}"
    s = r.state
    lines = [repr(s)]
    if r.terminal:
        lines.append(f"over after {r.decisions} decisions" + (" (at the length cap: a draw)" if r.truncated else ""))
    else:
        table = r.table
        lines.append(f"decision {r.decisions}: p{table.actor} "
                     + (f"in a window ({r.waits} let pass before)" if table.may_wait else "in turn"))
    lines += [f"p{p}: {_cards(hand)}" for p, hand in enumerate(s.hands)]
    lines.append(f"draw pile: {_cards(s.remaining_draw_pile)}")
    lines.append(f"discard: {_cards(s.discard_pile)}")
    extra = [f"colour {s.color}", f"direction {s.direction}", f"passes {s.passes}", f"uno exposed {s.uno_exposed}",
             f"pending {s.pending_draw}", f"drawn {s.drawn!r}", f"seed {s.rng}"]
    if s.challenge is not None:
        c = s.challenge
        extra.append(f"challenge p{c.attacker}->p{c.victim} bluff {c.bluff} colour {c.color} hand {_cards(c.hand)}")
    if s.reveal is not None:
        extra.append(f"reveal p{s.reveal.owner}->p{s.reveal.viewer} {_cards(s.reveal.cards)}")
    extra += [f"p{viewer} knows p{owner} has {_cards(cards)}" for viewer, owner, cards in s.known]
    m = s.match
    extra.append(f"match: dealer {m.dealer} scores {m.scores} round {m.round_number} winner {m.winner}")
    lines.append(", ".join(extra))
    return "\n".join(lines)


# --- pyspiel's serialize_game_and_state and deserialize_game_and_state ------------------------

def serialize_game_and_state(game: Any, state: Any) -> str:
    """``pyspiel.serialize_game_and_state``, writing a state of this game as :meth:`UnoState.serialize`
    does (JSON, no pickle); any other game's state as pyspiel does."""
    if isinstance(state, UnoState):
        return join_game_and_state(game.serialize(), state.serialize())
    text: str = _PYSPIEL_SERIALIZE(game, state)
    return text


def deserialize_game_and_state(text: str) -> tuple[Any, Any]:
    """``pyspiel.deserialize_game_and_state``: the game of the text's ``[Game]`` section and the
    state of its ``[State]`` section. A state of this game is read by
    :meth:`UnoGame.deserialize_state` (JSON only: pyspiel's pickled format is refused with a
    SerializationError, and nothing in the text is executed); any other game's as pyspiel reads it."""
    game_text, state_text = split_game_and_state(text)
    game = pyspiel.deserialize_game(game_text)  # loads the game (C++): nothing here is unpickled
    if isinstance(game, UnoGame):
        return game, game.deserialize_state(state_text)
    return game, pyspiel.Game.deserialize_state(game, state_text)


def _install() -> None:
    """Register the game, and make pyspiel's module functions :func:`serialize_game_and_state` and
    :func:`deserialize_game_and_state`: pyspiel's own read a Python game's state by unpickling
    text, and a Python game cannot change that from inside (pyspiel 2.0)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, UnoGame)
    ours: tuple[tuple[Any, Any], ...] = ((serialize_game_and_state, _PYSPIEL_SERIALIZE),
                                         (deserialize_game_and_state, _PYSPIEL_DESERIALIZE))
    for function, original in ours:
        function._pyspiel = original  # kept should this module be imported again
        setattr(pyspiel, function.__name__, function)


# pyspiel's own functions, also when this module is imported a second time (importlib.reload).
_PYSPIEL_SERIALIZE: Final[Any] = getattr(pyspiel.serialize_game_and_state, "_pyspiel",
                                         pyspiel.serialize_game_and_state)
_PYSPIEL_DESERIALIZE: Final[Any] = getattr(pyspiel.deserialize_game_and_state, "_pyspiel",
                                           pyspiel.deserialize_game_and_state)
_install()

__all__ = ["GAME_TYPE", "MAX_GAME_LENGTH", "PARAMETERS", "SEED_BYTES", "SEED_OUTCOMES", "SHORT_NAME", "WAIT",
           "Observer", "Round", "Rules", "UnoGame", "UnoState", "check_parameters", "deserialize_game_and_state",
           "restore_round", "rules_for", "serialize_game_and_state"]
