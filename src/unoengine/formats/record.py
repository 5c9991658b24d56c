"""Game records: what it takes to replay a game exactly, and the replay itself.

A record holds the profile (whose fingerprint it carries), the number of players, the seed and
optionally the exact deck order and dealer of the first deal, and the moves. Because the engine
is deterministic, replaying the moves from the same start reproduces every state exactly. A
record whose moves do not replay is refused at the first bad move, with its index and the rule
that refuses it (:class:`RecordError`).

Records are written to and read from JSON as ``{"unoengine": "record", "version": 1, ...}``
documents by :mod:`unoengine.serialize`; moves are kept in the text notation of
:mod:`unoengine.notation`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence

import attrs

from ..engine.cards import Card
from ..engine.dealing import check_seed as _check_seed
from ..engine.dealing import new_game
from ..engine.errors import IllegalMoveError, RecordError, shown
from ..engine.events import Event
from ..engine.moves import MOVE_TYPES, Move
from ..engine.profile import Profile
from ..engine.state import GameState
from ..engine.transition import apply, apply_with_events


@attrs.frozen
class GameRecord:
    """A game as its start and its moves; see :meth:`states` and :meth:`replay`."""

    profile: Profile
    players: int
    seed: int = attrs.field(default=0, validator=lambda _r, _a, v: _check_seed(v))
    """The seed given to :func:`unoengine.new_game`: every shuffle of the game follows from it."""
    deck: tuple[Card, ...] | None = None
    """The exact card order of the first deal (top first), when it was fixed."""
    dealer: int | None = None
    """The first dealer, when SETUP-2's draw for the deal was skipped."""
    moves: tuple[Move, ...] = ()

    @property
    def fingerprint(self) -> str:
        """The profile's fingerprint: the rules the moves were played under."""
        return self.profile.fingerprint

    def initial_state(self) -> GameState:
        """The state the first move is made on."""
        return new_game(self.profile, self.players, self.seed, dealer=self.dealer, deck=self.deck)

    def states(self) -> Iterator[GameState]:
        """Every state of the game, the initial one first, then one after each move.

        Raises :class:`RecordError` at the first move that is not legal where it was made.
        """
        state = self.initial_state()
        yield state
        for index, move in enumerate(self.moves):
            self._check_type(index, move)
            try:
                state = apply(state, move)
            except IllegalMoveError as exc:
                raise RecordError(index, move, exc.rule, exc.reason, exc.detail) from exc
            yield state

    def steps(self) -> Iterator[tuple[Move, tuple[Event, ...], GameState]]:
        """Each move with its events and the state after it, in order (what a replay page shows);
        :meth:`initial_state` is the state before the first. Raises :class:`RecordError` as
        :meth:`states` does."""
        state = self.initial_state()
        for index, move in enumerate(self.moves):
            self._check_type(index, move)
            try:
                state, events = apply_with_events(state, move)
            except IllegalMoveError as exc:
                raise RecordError(index, move, exc.rule, exc.reason, exc.detail) from exc
            yield move, events, state

    @staticmethod
    def _check_type(index: int, move: object) -> None:
        if type(move) not in MOVE_TYPES:
            raise RecordError(index, move, "MOVE", "not-a-move", f"{shown(move)} is not a unoengine move")

    def replay(self) -> GameState:
        """The state after the last move (every move checked on the way)."""
        (last,) = deque(self.states(), maxlen=1)
        return last

    def with_moves(self, moves: Sequence[Move]) -> GameRecord:
        """The same game with ``moves`` made after the recorded ones (not checked until replayed)."""
        return attrs.evolve(self, moves=(*self.moves, *moves))
