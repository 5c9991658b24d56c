"""One game on the compiled engine, for rollouts and search: :class:`CompiledGame`.

A CompiledGame is *mutable*, as python-chess's ``Board`` is: :meth:`CompiledGame.push` changes it in
place and :meth:`CompiledGame.copy` is cheap (one array copy), because a rollout that built a new
immutable state per move would spend its time allocating. The reference engine's immutable
``GameState`` is always one call away (:meth:`CompiledGame.to_state`), and a game can start from any
reference state (:meth:`CompiledGame.from_state`), so a search can take its root from the reference
and hand its result back to it.

Every move is checked against the compiled legal list before it is applied; a move that is not on
it raises the reference engine's :class:`~unoengine.engine.errors.IllegalMoveError`, with the rule
and reason the reference gives for the same state (the compiled kernels decide legality; only the
words of a refusal come from the reference), and the game is unchanged.
"""

from __future__ import annotations

import operator
from typing import Final

import numpy as np
import numpy.typing as npt

from ..engine.cards import CARDS, Card
from ..engine.errors import IllegalMoveError, PositionError, quoted, shown
from ..engine.legality import check_move
from ..engine.limits import MAX_PLAYERS
from ..engine.moves import MOVE_TYPES, Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from .codes import MAX_LEGAL, MoveCodeError, decode, encode
from .config import C_DECK, UnsupportedRuleError, config_of
from .convert import to_array, to_state
from .kernel_deal import new_game as deal_new_game
from .kernel_deal import seed_bits
from .kernel_legal import legal_moves
from .kernel_playout import apply_if_legal
from .layout import (
    S_COLOR,
    S_CURRENT,
    S_DEALER,
    S_DIRECTION,
    S_DISCARD_LEN,
    S_DRAW_LEN,
    S_DRAW_POS,
    S_LAST_WINNER,
    S_MATCH_WINNER,
    S_N,
    S_PENDING_DRAW,
    S_PHASE,
    S_UNO_EXPOSED,
    offsets,
)
from .validate import checked_array, read_only

_PHASES: Final = tuple(Phase)


class EngineDisagreement(AssertionError):
    """The compiled engine and the reference disagree: a bug in the compiled engine, never bad input."""

_SEED_LIMIT: Final = 2**64


def _code_of(move: object) -> int:
    """The code of a move or of an integer move code (numpy integers too); -1 for anything else."""
    if isinstance(move, MOVE_TYPES):
        try:
            return encode(move)
        except (MoveCodeError, TypeError, ValueError):
            return -1
    if isinstance(move, bool):
        return -1
    try:
        return operator.index(move)  # type: ignore[arg-type]
    except TypeError:
        return -1


class CompiledGame:
    """A game of one profile on the compiled engine (see the module's docstring)."""

    __slots__ = ("_a", "_at", "_buffer", "_cfg", "profile")

    def __init__(self, profile: Profile, cfg: npt.NDArray[np.int64], array: npt.NDArray[np.int64]) -> None:
        """The game of ``array`` (layout.py) under ``profile``, whose kernel config ``cfg`` is
        (``config_of(profile)``); both are checked (compiled/validate.py: PositionError naming the
        slot) and copied, as :meth:`from_array` does. :meth:`new` and :meth:`from_state` are the
        usual ways to make one."""
        own = config_of(profile)
        if not isinstance(cfg, np.ndarray) or cfg.shape != own.shape or not np.array_equal(cfg, own):
            raise PositionError(f"cfg: not the config of profile {quoted(profile.name)} (compiled/config.py config_of)",
                                [("cfg", "not the profile's config")])
        self._setup(profile, own, checked_array(profile, array))

    def _setup(self, profile: Profile, cfg: npt.NDArray[np.int64], array: npt.NDArray[np.int64]) -> None:
        self.profile = profile
        self._cfg = cfg
        self._a = array
        self._at = offsets(int(array[S_N]), int(cfg[C_DECK]))
        """Where each block of this game's array starts: fixed for the game's life."""
        self._buffer = np.empty(MAX_LEGAL, dtype=np.int64)

    @classmethod
    def _made(cls, profile: Profile, cfg: npt.NDArray[np.int64], array: npt.NDArray[np.int64]) -> CompiledGame:
        """A game of the engine's own arrays (dealt, converted or copied): not checked again."""
        game = cls.__new__(cls)
        game._setup(profile, cfg, array)
        return game

    # --- making one --------------------------------------------------------------------------
    @classmethod
    def new(cls, profile: Profile, num_players: int, seed: int = 0) -> CompiledGame:
        """Start a match, as ``unoengine.new_game(profile, num_players, seed)`` (the same deal)."""
        cfg = config_of(profile)
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
                profile.min_players <= num_players <= min(profile.max_players, MAX_PLAYERS)):
            raise PositionError(f"num_players: profile {profile.name!r} is for {profile.min_players} to "
                                f"{min(profile.max_players, MAX_PLAYERS)} players (SETUP-1), got {shown(num_players)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _SEED_LIMIT:
            raise PositionError(f"seed must be an integer from 0 to 2**64 - 1, got {shown(seed)}")
        array = np.zeros(offsets(num_players, profile.deck_size).size, dtype=np.int64)
        deal_new_game(cfg, num_players, seed_bits(seed), array)
        return cls._made(profile, cfg, array)

    @classmethod
    def from_state(cls, state: GameState) -> CompiledGame:
        """The game at a reference state (one from play, ``from_position`` or ``loads``)."""
        array = to_array(state)
        return cls._made(state.profile, config_of(state.profile), array)

    @classmethod
    def from_array(cls, profile: Profile, array: npt.NDArray[np.int64]) -> CompiledGame:
        """The game of a flat array (one from :attr:`array` or ``BatchEngine.games``): checked at
        this door (compiled/validate.py) and copied; PositionError naming the slot for an array that
        :meth:`from_state` could not have made (a bad player count, a pile position outside its
        block, a card the profile has not in play...)."""
        return cls(profile, config_of(profile), array)

    def to_state(self) -> GameState:
        """The reference state of this moment (equal to the one the reference engine reaches)."""
        return to_state(self.profile, self._a)

    def copy(self) -> CompiledGame:
        """An independent copy (one array copy; the profile and its tables are shared)."""
        return CompiledGame._made(self.profile, self._cfg, self._a.copy())

    # --- moves -------------------------------------------------------------------------------
    def legal_codes(self, player: int | None = None) -> npt.NDArray[np.int64]:
        """The move codes (codes.py) of the legal moves, in the reference engine's order; with
        ``player``, only that player's."""
        count = legal_moves(self._cfg, self._a, self._seat_or_all(player), self._buffer)
        return self._buffer[:count].copy()

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """The legal moves as the reference engine's move objects, in its order."""
        return [decode(int(c)) for c in self.legal_codes(player)]

    def push(self, move: Move | int) -> None:
        """Make ``move`` (a move or its code) in place; IllegalMoveError, and no change, if it is
        not legal now."""
        code = _code_of(move)
        if code < 0 or not apply_if_legal(self._cfg, self._a, code, self._buffer):
            raise self._refusal(move, code)

    def _refusal(self, move: Move | int, code: int) -> IllegalMoveError:
        """The reference engine's words for a move the compiled list does not hold."""
        candidate: object = move
        if not isinstance(move, MOVE_TYPES) and code >= 0:
            try:
                candidate = decode(code)
            except MoveCodeError:
                return IllegalMoveError(move, "MOVE", "not-a-move", f"{shown(move)} is not a move code")
        try:
            check_move(self.to_state(), candidate)  # type: ignore[arg-type]  # anything: it refuses non-moves
        except IllegalMoveError as exc:
            return exc
        raise EngineDisagreement(f"the compiled engine refuses {candidate!r}, which the reference engine "
                                 f"accepts in {self.to_state()!r}: please report this")

    def _seat_or_all(self, player: int | None) -> int:
        if player is None:
            return -1
        if isinstance(player, bool) or not isinstance(player, int):
            raise PositionError(f"player: a seat is an int, got {shown(player)}")
        return player if 0 <= player < self.num_players else MAX_PLAYERS  # a seat the table lacks: none

    # --- what anyone at the table sees -----------------------------------------------------
    @property
    def array(self) -> npt.NDArray[np.int64]:
        """The game's flat array (layout.py), read-only: a view that refuses to be made writable
        (the kernels trust the game's own array; :meth:`from_array` makes a game of an edited copy)."""
        return read_only(self._a)

    @property
    def num_players(self) -> int:
        return int(self._a[S_N])

    @property
    def current(self) -> int:
        return int(self._a[S_CURRENT])

    @property
    def phase(self) -> Phase:
        return _PHASES[int(self._a[S_PHASE])]

    @property
    def round_over(self) -> bool:
        return self.phase >= Phase.ROUND_OVER

    @property
    def match_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    @property
    def color(self) -> int:
        """The colour in play 0..3, or -1 while a first wild awaits its colour."""
        return int(self._a[S_COLOR])

    @property
    def direction(self) -> int:
        return int(self._a[S_DIRECTION])

    @property
    def top_card(self) -> Card:
        return CARDS[int(self._a[self._at.discard + int(self._a[S_DISCARD_LEN]) - 1])]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        start = self._at.hand_size
        return tuple(int(x) for x in self._a[start:start + self.num_players])

    def hand(self, player: int) -> tuple[Card, ...]:
        """A player's cards, sorted (as the reference's hand tuples)."""
        n = self.num_players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise PositionError(f"player: expected a seat 0..{n - 1}, got {shown(player)}")
        start = self._at.hands + player * 58
        counts = self._a[start:start + 58]
        return tuple(CARDS[c] for c in np.repeat(np.arange(58), counts).tolist())

    @property
    def scores(self) -> tuple[int, ...]:
        start = self._at.scores
        return tuple(int(x) for x in self._a[start:start + self.num_players])

    @property
    def pending_draw(self) -> int:
        return int(self._a[S_PENDING_DRAW])

    @property
    def draw_pile_size(self) -> int:
        return int(self._a[S_DRAW_LEN] - self._a[S_DRAW_POS])

    @property
    def discard_size(self) -> int:
        return int(self._a[S_DISCARD_LEN])

    @property
    def uno_exposed(self) -> int:
        """The player who may be caught for not calling UNO (UNO-2), or -1."""
        return int(self._a[S_UNO_EXPOSED])

    @property
    def dealer(self) -> int:
        return int(self._a[S_DEALER])

    @property
    def round_winner(self) -> int | None:
        """The winner of the round just over (END-1), None while it is played."""
        return int(self._a[S_LAST_WINNER]) if self.round_over else None

    @property
    def match_winner(self) -> int | None:
        winner = int(self._a[S_MATCH_WINNER])
        return None if winner < 0 else winner

    def __repr__(self) -> str:
        return (f"<CompiledGame {self.profile.name} {self.phase.name} p{self.current} to act, top "
                f"{self.top_card!r}, hands {' '.join(map(str, self.hand_sizes))}>")


__all__ = ["CompiledGame", "EngineDisagreement", "UnsupportedRuleError"]
