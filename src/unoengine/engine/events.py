"""What happened in one move, as typed events that each cite the rule behind them.

:func:`unoengine.apply_with_events` returns the new state and the events of the move, in the
order they happened. Every event names its ``rule`` (an ID of RULES.md). The events are written
by the rule code itself as it runs (see ``Draft.emit``), so an event and the rule it reports
live in one place.

Events carry everything, hidden cards included (what was drawn, the hand a challenge showed):
they are for the owner of the state, such as a game server. :func:`events_for` gives the
account one player may see.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import attrs

from .cards import Card, Color
from .errors import UnoEngineError, shown


@attrs.frozen
class CardPlayed:
    """``player`` put ``card`` on the discard pile: in turn (PLAY-1), as an answer to a Draw
    card (HOUSE-1) or out of turn (HOUSE-2)."""

    player: int
    card: Card
    rule: str


@attrs.frozen
class ColorNamed:
    """``player`` named the colour to play on: with a wild (ACT-4..8) or for a first wild
    (SETUP-8..10, HOUSE-7)."""

    player: int
    color: Color
    rule: str


@attrs.frozen
class CardsDrawn:
    """``player`` took ``count`` cards from the draw pile; ``cards`` are hidden from the others."""

    player: int
    count: int
    cards: tuple[Card, ...]
    rule: str


@attrs.frozen
class PileReshuffled:
    """The discard pile but its top card became the new draw pile of ``count`` cards (PLAY-7)."""

    count: int
    rule: str = "PLAY-7"


@attrs.frozen
class TurnSkipped:
    """``player`` misses a turn (ACT-1, ACT-3, ACT-5, HOUSE-6, WD4-5, SETUP-5, SETUP-7, HOUSE-1, HOUSE-7)."""

    player: int
    rule: str


@attrs.frozen
class DirectionChanged:
    """Play now goes in ``direction`` (+1 clockwise, -1 counter-clockwise) (ACT-2, SETUP-6)."""

    direction: int
    rule: str


@attrs.frozen
class TurnPassed:
    """``player`` ended the turn without playing (PLAY-4 keep the drawn card, PLAY-7 nothing to draw)."""

    player: int
    rule: str


@attrs.frozen
class PenaltyPending:
    """``player`` faces ``total`` cards: answer with a Draw card or accept them (HOUSE-1)."""

    player: int
    total: int
    rule: str = "HOUSE-1"


@attrs.frozen
class ChallengeOffered:
    """``victim`` may challenge the Wild Draw Four ``attacker`` played, or accept ``total`` cards (WD4-3)."""

    attacker: int
    victim: int
    total: int
    rule: str = "WD4-3"


@attrs.frozen
class HandShown:
    """``owner`` showed ``cards`` to ``viewer`` alone (WD4-3)."""

    owner: int
    viewer: int
    cards: tuple[Card, ...]
    rule: str = "WD4-3"


@attrs.frozen
class ChallengeDecided:
    """The challenge of ``challenger`` against ``attacker``: ``guilty`` (WD4-4) or not (WD4-5)."""

    challenger: int
    attacker: int
    guilty: bool
    rule: str


@attrs.frozen
class UnoCalled:
    """``player`` called UNO: with the next-to-last card (UNO-1) or late, before being caught (UNO-4)."""

    player: int
    rule: str


@attrs.frozen
class UnoNotCalled:
    """``player`` played the next-to-last card without calling: they may be caught (UNO-1, UNO-2)."""

    player: int
    rule: str = "UNO-1"


@attrs.frozen
class UnoCaught:
    """``catcher`` caught ``player`` not calling UNO; the penalty draw follows (UNO-2)."""

    catcher: int
    player: int
    rule: str = "UNO-2"


@attrs.frozen
class HandsSwapped:
    """``player`` and ``target`` exchanged hands (ACT-7, HOUSE-3)."""

    player: int
    target: int
    rule: str


@attrs.frozen
class HandsRotated:
    """Every hand passed to the next player in ``direction`` (HOUSE-3)."""

    direction: int
    rule: str = "HOUSE-3"


@attrs.frozen
class HandsShuffled:
    """Every hand was gathered, shuffled and dealt again from ``player``'s left (ACT-6)."""

    player: int
    rule: str = "ACT-6"


@attrs.frozen
class EffectApplied:
    """The profile's custom effect ``effect`` ran for ``player`` (ACT-8); what it did follows."""

    player: int
    effect: str
    rule: str = "ACT-8"


@attrs.frozen
class RoundDealt:
    """Round ``round_number`` was dealt by ``dealer`` and ``first_card`` turned (SETUP-1..11)."""

    dealer: int
    round_number: int
    first_card: Card
    rule: str = "SETUP-11"


@attrs.frozen
class FirstCardReturned:
    """A Wild Draw Four turned as the first card went back into the deck for another (SETUP-9)."""

    card: Card
    rule: str = "SETUP-9"


@attrs.frozen
class RoundEnded:
    """``winner`` won the round: out of cards (END-1) or lowest hand in a blocked round (PLAY-7);
    ``points_won`` is what each score gained (SCORE-1..4)."""

    winner: int
    blocked: bool
    points_won: tuple[int, ...]
    rule: str


@attrs.frozen
class MatchEnded:
    """``winner`` won the match with these final ``scores`` (SCORE-2, SCORE-3, SCORE-4)."""

    winner: int
    scores: tuple[int, ...]
    rule: str


Event: TypeAlias = (
    CardPlayed | ColorNamed | CardsDrawn | PileReshuffled | TurnSkipped | DirectionChanged | TurnPassed
    | PenaltyPending | ChallengeOffered | HandShown | ChallengeDecided | UnoCalled | UnoNotCalled | UnoCaught
    | HandsSwapped | HandsRotated | HandsShuffled | EffectApplied | RoundDealt | FirstCardReturned | RoundEnded
    | MatchEnded
)
EVENT_TYPES = (
    CardPlayed, ColorNamed, CardsDrawn, PileReshuffled, TurnSkipped, DirectionChanged, TurnPassed,
    PenaltyPending, ChallengeOffered, HandShown, ChallengeDecided, UnoCalled, UnoNotCalled, UnoCaught,
    HandsSwapped, HandsRotated, HandsShuffled, EffectApplied, RoundDealt, FirstCardReturned, RoundEnded,
    MatchEnded,
)


def events_for(events: Iterable[Event], player: int) -> tuple[Event, ...]:
    """The events as ``player`` sees them: other players' drawn cards and hands shown to
    someone else are left out (the counts and who showed what stay)."""
    out: list[Event] = []
    if isinstance(events, str) or not isinstance(events, Iterable):
        raise UnoEngineError(f"events_for takes the events of a move, got {shown(events)}")
    for e in events:
        if not isinstance(e, EVENT_TYPES):
            raise UnoEngineError(f"events_for takes events, got {shown(e)}")
        if isinstance(e, CardsDrawn) and e.player != player and e.cards:
            e = CardsDrawn(e.player, e.count, (), e.rule)
        elif isinstance(e, HandShown) and player not in (e.viewer, e.owner) and e.cards:
            e = HandShown(e.owner, e.viewer, (), e.rule)
        out.append(e)
    return tuple(out)
