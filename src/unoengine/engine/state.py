"""The immutable game state.

Representation is chosen for the hot path (see docs/performance.md):

* a hand is a sorted tuple of :class:`Card` ints;
* the draw pile is a tuple that is never copied while drawing: ``draw_pos`` marks the next
  card, so a draw shares the tuple with the state before it (structural sharing);
* the discard pile is a persistent linked list of ``(card, size, below)`` nodes, so a play
  adds one small node and shares everything under it.

Everything that changes only between rounds (dealer, scores, round number) lives in
:class:`MatchInfo`, shared by every state of a round.
"""

from __future__ import annotations

import enum
from typing import Any, TypeAlias

import attrs

from .cards import COLORS, Card, Color
from .errors import PositionError
from .profile import Profile
from .table_text import Table, table_text

DiscardNode: TypeAlias = "tuple[Card, int, DiscardNode | None]"
"""``(top card, number of cards in the pile, the node below or None)``."""

Known: TypeAlias = "tuple[tuple[int, int, tuple[Card, ...]], ...]"
"""``(viewer, owner, cards)`` entries, sorted: cards ``viewer`` knows to be in ``owner``'s hand,
because they passed there in a swap or rotation (ACT-7, HOUSE-3) or were shown by a challenge
(WD4-3). A lower bound: a known card the owner plays is struck off, drawn cards are unknown."""


class Phase(enum.IntEnum):
    """What the player to act (``current``) must decide."""

    PLAY = 0
    """Normal turn: play a card, or draw (PLAY-1..5), or pass when nothing can be drawn (PLAY-7)."""
    DRAWN = 1
    """The player drew a card: play it if it can be played, or keep it and pass (PLAY-4, PLAY-5)."""
    CHALLENGE = 2
    """A Wild Draw Four was played on the player: challenge or accept (WD4-3)."""
    CHOOSE_COLOR = 3
    """A wild was turned as the first card: name the colour (SETUP-8, SETUP-9)."""
    PENALTY = 4
    """A Draw card was played on the player under stacking: answer it or accept (HOUSE-1)."""
    ROUND_OVER = 5
    """The round is over (END-1); the next dealer may deal the next round."""
    MATCH_OVER = 6
    """A player reached the target score (SCORE-2..4)."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@attrs.frozen
class PendingChallenge:
    """A Wild Draw Four awaiting the victim's decision (WD4-2, WD4-3).

    ``bluff`` is hidden information: whether the attacker held a card of the colour in play.
    """

    attacker: int
    victim: int
    bluff: bool
    hand: tuple[Card, ...]
    """The attacker's hand right after playing the card: what a challenge shows (WD4-3)."""
    color: int
    """The colour in play when the card was played (public): the one the bluff is judged on (WD4-1)."""


@attrs.frozen
class Reveal:
    """A hand shown privately: ``owner`` showed ``cards`` to ``viewer`` (WD4-3)."""

    viewer: int
    owner: int
    cards: tuple[Card, ...]


@attrs.frozen
class RoundResult:
    """How a round ended (END-1, PLAY-7) and what it scored (SCORE-1..4)."""

    winner: int
    blocked: bool
    hand_points: tuple[int, ...]
    """Points left in each hand when the round ended."""
    points_won: tuple[int, ...]
    """What each player's match score gained from this round."""


@attrs.frozen
class MatchInfo:
    """The match around the current round."""

    dealer: int
    scores: tuple[int, ...]
    round_number: int = 1
    last_round: RoundResult | None = None
    winner: int | None = None
    """The match winner once the match is over."""


@attrs.frozen(repr=False, weakref_slot=False)
class GameState:
    """One moment of a game. Never mutated: :func:`unoengine.apply` returns a new state.

    Build one with :func:`unoengine.new_game` or :func:`unoengine.from_position`; read what a
    player may know with :func:`unoengine.view`.
    """

    profile: Profile
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    """The draw pile, top first, including cards already drawn before ``draw_pos``."""
    draw_pos: int
    discard: DiscardNode
    color: int
    """Colour in play (0..3), or -1 while a first-card wild awaits its colour."""
    direction: int
    """+1 clockwise (to the left), -1 counter-clockwise (PLAY-8)."""
    current: int
    """The player to act in turn."""
    phase: Phase
    drawn: Card | None
    """The card just drawn, in :attr:`Phase.DRAWN` (PLAY-5: only it may be played)."""
    challenge: PendingChallenge | None
    uno_exposed: int
    """The player who may be caught for not calling UNO, or -1 (UNO-1..7)."""
    passes: int
    """Consecutive passes with nothing to draw (PLAY-7 blocked round)."""
    rng: int
    """Seed of the next shuffle. Hidden: never part of a view."""
    match: MatchInfo
    reveal: Reveal | None = None
    """The last hand shown by a challenge; only its viewer sees it."""
    pending_draw: int = 0
    """Cards the player to act draws on :class:`~unoengine.engine.moves.Accept`: the total of a
    Draw card stack in :attr:`Phase.PENALTY` (HOUSE-1), or of a Wild Draw Four (and any stack
    under it) in :attr:`Phase.CHALLENGE`; 0 in every other phase."""
    known: Known = ()
    """What each player knows of other hands (see :data:`Known`); hidden but from its viewer."""

    # --- derived, read-only -----------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def top_card(self) -> Card:
        return self.discard[0]

    @property
    def color_in_play(self) -> Color | None:
        return COLORS[self.color] if self.color >= 0 else None

    @property
    def draw_pile_size(self) -> int:
        return len(self.draw_pile) - self.draw_pos

    @property
    def remaining_draw_pile(self) -> tuple[Card, ...]:
        """Cards still to be drawn, top first."""
        return self.draw_pile[self.draw_pos:]

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (its last card is the top card)."""
        return discard_cards(self.discard)

    @property
    def round_over(self) -> bool:
        return self.phase >= Phase.ROUND_OVER

    @property
    def match_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return self.match.scores

    @property
    def dealer(self) -> int:
        return self.match.dealer

    def hand(self, player: int) -> tuple[Card, ...]:
        return self.hands[player]

    def __repr__(self) -> str:
        hands = " ".join(f"p{i}:{len(h)}" for i, h in enumerate(self.hands))
        color = "RYGB"[self.color] if self.color >= 0 else "?"
        return (
            f"<GameState {self.profile.name} round {self.match.round_number} {self.phase.name} "
            f"p{self.current} to act, top {self.top_card!r} colour {color}, "
            f"dir {'+' if self.direction > 0 else '-'}, draw {self.draw_pile_size}, "
            f"hands {hands}{f', pending {self.pending_draw}' if self.pending_draw else ''}>"
        )

    def __str__(self) -> str:
        """The table in a few lines, every hand shown (engine/table_text.py); ``repr`` is one line."""
        m, last, pending = self.match, self.match.last_round, self.challenge
        return table_text(Table(
            profile=self.profile.name, viewer=None, round_number=m.round_number, dealer=m.dealer, scores=m.scores,
            target=self.profile.target_score, phase=self.phase.name, current=self.current,
            direction=self.direction, top=self.top_card, color=self.color, draw_pile_size=self.draw_pile_size,
            discard_size=self.discard[1], pending_draw=self.pending_draw,
            attacker=pending.attacker if pending is not None else None,
            drawn=self.drawn if self.phase is Phase.DRAWN else None,
            uno_exposed=self.uno_exposed if self.uno_exposed >= 0 else None,
            sizes=tuple(len(h) for h in self.hands), hands=self.hands, known={},
            round_winner=last.winner if last is not None else None, blocked=last is not None and last.blocked,
            match_winner=m.winner,
        ))


class _Unfrozen:
    """The same slots as :class:`GameState` without its frozen ``__setattr__``: the engine
    fills one in and re-classes it as a GameState (:func:`build_state`). Never escapes."""

    __slots__ = GameState.__slots__  # type: ignore[attr-defined]  # attrs adds it


_new_unfrozen = object.__new__


def build_state(
    profile: Profile, hands: tuple[tuple[Card, ...], ...], draw_pile: tuple[Card, ...], draw_pos: int,
    discard: DiscardNode, color: int, direction: int, current: int, phase: Phase, drawn: Card | None,
    challenge: PendingChallenge | None, uno_exposed: int, passes: int, rng: int, match: MatchInfo,
    reveal: Reveal | None = None, pending_draw: int = 0, known: Known = (),
) -> GameState:
    """``GameState(...)`` with the same arguments, about three times cheaper: the hot path of
    every move (docs/performance.md).

    attrs builds a frozen instance with one ``object.__setattr__`` call per field; here the
    fields are stored directly into an unfrozen object of the same slot layout, which then
    becomes a GameState by ``__class__`` assignment (allowed since the layouts are identical:
    GameState has no ``__weakref__`` slot for that reason). The result is an ordinary, frozen
    GameState, equal to and hashed as the one the constructor builds."""
    s: Any = _new_unfrozen(_Unfrozen)
    s.profile = profile
    s.hands = hands
    s.draw_pile = draw_pile
    s.draw_pos = draw_pos
    s.discard = discard
    s.color = color
    s.direction = direction
    s.current = current
    s.phase = phase
    s.drawn = drawn
    s.challenge = challenge
    s.uno_exposed = uno_exposed
    s.passes = passes
    s.rng = rng
    s.match = match
    s.reveal = reveal
    s.pending_draw = pending_draw
    s.known = known
    s.__class__ = GameState
    return s  # type: ignore[no-any-return]


def discard_cards(node: DiscardNode | None) -> tuple[Card, ...]:
    """Flatten a discard linked list into a tuple, bottom first."""
    out: list[Card] = []
    while node is not None:
        out.append(node[0])
        node = node[2]
    out.reverse()
    return tuple(out)


def discard_from(cards: tuple[Card, ...] | list[Card]) -> DiscardNode:
    """Build a discard linked list from cards listed bottom first (at least one card)."""
    node: DiscardNode | None = None
    for i, c in enumerate(cards):
        node = (c, i + 1, node)
    assert node is not None, "a discard pile needs at least one card"
    return node


def not_a_state(value: object) -> PositionError:
    """The error for a value given where a GameState belongs (a view, a document, None...)."""
    return PositionError(f"expected a GameState (from new_game, from_position or loads), got a {type(value).__name__}")
