"""A private, mutable draft of the next state.

A transition copies the fields it needs into a :class:`Draft`, edits it step by step (a card
played, cards drawn, a turn advanced) and freezes it into a new :class:`GameState`. The
input state is never touched, so ``apply`` stays pure while each rule is written as plain
sequential code. The pile mechanics (PLAY-7) live here because every rule that draws uses
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec

from .cards import CARDS, Card
from .events import CardsDrawn, Event, PileReshuffled
from .shuffling import shuffled
from .state import DiscardNode, GameState, MatchInfo, PendingChallenge, Phase, Reveal, build_state

_P = ParamSpec("_P")


class Draft:
    """Mutable working copy of a GameState. Never escapes the engine."""

    __slots__ = (
        "challenge", "color", "current", "direction", "discard", "draw_pile", "draw_pos",
        "drawn", "hands", "known", "log", "match", "passes", "pending_draw", "phase", "profile", "reveal", "rng",
        "uno_exposed",
    )

    def __init__(self, s: GameState, log: list[Event] | None = None) -> None:
        self.log = log
        """Where the rules report what they do (events.py), or None when nobody asked."""
        self.profile = s.profile
        self.hands: list[tuple[Card, ...]] = list(s.hands)
        self.draw_pile = s.draw_pile
        self.draw_pos = s.draw_pos
        self.discard: DiscardNode = s.discard
        self.color = s.color
        self.direction = s.direction
        self.current = s.current
        self.phase = s.phase
        self.drawn: Card | None = s.drawn
        self.challenge: PendingChallenge | None = s.challenge
        self.uno_exposed = s.uno_exposed
        self.passes = s.passes
        self.rng = s.rng
        self.match: MatchInfo = s.match
        self.reveal: Reveal | None = s.reveal
        self.pending_draw = s.pending_draw
        self.known = s.known

    def emit(self, kind: Callable[_P, Event], *args: _P.args, **kwargs: _P.kwargs) -> None:
        """Report what a rule just did, if events were asked for: the event ``kind(*args)`` is
        built only then, so :func:`~unoengine.engine.transition.apply` builds none."""
        if self.log is not None:
            self.log.append(kind(*args, **kwargs))

    def freeze(self) -> GameState:
        return build_state(
            self.profile, tuple(self.hands), self.draw_pile, self.draw_pos, self.discard,
            self.color, self.direction, self.current, self.phase, self.drawn, self.challenge,
            self.uno_exposed, self.passes, self.rng, self.match, self.reveal, self.pending_draw, self.known,
        )

    # --- seats (PLAY-8) -----------------------------------------------------------------
    def seat_after(self, player: int, steps: int = 1) -> int:
        """The player ``steps`` places after ``player`` in the direction of play."""
        return (player + steps * self.direction) % len(self.hands)

    # --- randomness ---------------------------------------------------------------------
    def shuffle(self, cards: list[Card]) -> None:
        """Shuffle in place from the hidden seed, then move the seed on."""
        self.rng = shuffled(self.profile.shuffle, self.rng, cards)

    # --- piles (PLAY-7) -----------------------------------------------------------------
    def draw_pile_size(self) -> int:
        return len(self.draw_pile) - self.draw_pos

    def can_draw(self) -> bool:
        """Something to draw: the draw pile, or a discard pile that can be reshuffled (PLAY-7)."""
        return self.draw_pos < len(self.draw_pile) or self.discard[1] > 1

    def reshuffle(self) -> None:
        """PLAY-7: shuffle the discard pile except its top card into a new draw pile."""
        top, _size, below = self.discard
        cards: list[Card] = []
        node = below
        while node is not None:
            cards.append(node[0])
            node = node[2]
        self.shuffle(cards)
        self.draw_pile = self.draw_pile[self.draw_pos:] + tuple(cards)
        self.draw_pos = 0
        self.discard = (top, 1, None)
        self.emit(PileReshuffled, len(cards))

    def take_from_pile(self, count: int) -> list[Card]:
        """Take up to ``count`` cards off the draw pile, reshuffling when it runs out (PLAY-7).

        Fewer come back only when nothing at all is left to draw.
        """
        out: list[Card] = []
        while len(out) < count:
            if self.draw_pos >= len(self.draw_pile):
                if self.discard[1] <= 1:
                    break
                self.reshuffle()
            take = min(count - len(out), len(self.draw_pile) - self.draw_pos)
            out.extend(self.draw_pile[self.draw_pos:self.draw_pos + take])
            self.draw_pos += take
        return out

    def draw(self, player: int, count: int, rule: str, *, report: bool = True) -> list[Card]:
        """``player`` draws ``count`` cards into their hand, as ``rule`` says; returns the cards
        drawn. ``report=False`` leaves the event to the caller (a draw made of several steps)."""
        cards = self.take_from_pile(count)
        if cards:
            self.hands[player] = tuple(sorted(self.hands[player] + tuple(cards)))
        if report:
            self.emit(CardsDrawn, player, len(cards), tuple(cards), rule)
        return cards

    def put_on_discard(self, card: Card) -> None:
        top = self.discard
        self.discard = (CARDS[card], top[1] + 1, top)

    def remove_from_hand(self, player: int, card: Card) -> tuple[Card, ...]:
        """Remove one copy of ``card`` from the hand and return the new hand."""
        hand = self.hands[player]
        i = hand.index(card)
        new = hand[:i] + hand[i + 1:]
        self.hands[player] = new
        return new

    # --- turn ---------------------------------------------------------------------------
    def start_turn(self, player: int) -> None:
        """Give ``player`` an ordinary turn (PLAY phase)."""
        self.current = player
        self.phase = Phase.PLAY
        self.drawn = None
        self.pending_draw = 0
