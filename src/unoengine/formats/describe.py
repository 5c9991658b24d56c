"""The events of a move in words: one readable line, ``p2 plays G+2; p3 draws 2 and misses the turn``.

Kept apart from the terminal so it is plain text in, plain text out: the caller says how a player
("you" or ``p3``), a card and a colour are named, with or without ANSI colours. The terminal game
(``unoengine play``) and the replay page (render/replay.py) both use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeDecided,
    ChallengeOffered,
    ColorNamed,
    DirectionChanged,
    EffectApplied,
    Event,
    FirstCardReturned,
    HandShown,
    HandsRotated,
    HandsShuffled,
    HandsSwapped,
    MatchEnded,
    PenaltyPending,
    PileReshuffled,
    RoundDealt,
    RoundEnded,
    TurnPassed,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoNotCalled,
)

COLOR_NAMES: Final = ("red", "yellow", "green", "blue")
"""The colours in words, in the engine's colour order."""

_SECOND_PERSON: Final = {
    "is": "are", "has": "have", "may": "may", "does": "do", "catches": "catch", "misses": "miss", "passes": "pass",
}


def describe(events: Sequence[Event], who: Callable[[int], str], card: Callable[[int], str] = repr,
             color: Callable[[int], str] = lambda k: COLOR_NAMES[k]) -> str:
    """One readable line for the events of a move: ``p2 plays G+2; p3 draws 2 and misses the turn``."""
    clauses: list[tuple[int | None, str]] = []  # (subject, predicate with the verb first), or (None, sentence)
    played = -1  # where the clauses of the last card played end: a missed UNO call reads with its play

    def add(player: int | None, text: str) -> None:
        clauses.append((player, text))

    for e in events:
        if isinstance(e, CardPlayed):
            add(e.player, f"{'jumps in with' if e.rule == 'HOUSE-2' else 'plays'} {card(e.card)}")
            played = len(clauses)
        elif isinstance(e, ColorNamed):
            first = e.rule.startswith("SETUP") or e.rule == "HOUSE-7"
            add(e.player, f"names {color(e.color)}" + (" for the first card" if first else ""))
            played = len(clauses) if played == len(clauses) - 1 else played
        elif isinstance(e, CardsDrawn):
            shown = f" ({' '.join(card(c) for c in e.cards)})" if e.cards else ""
            count = "a card" if e.count == 1 else str(e.count)
            add(e.player, f"draws {count}{shown}" if e.count else "draws nothing (no cards left)")
        elif isinstance(e, TurnSkipped):
            add(e.player, "misses the turn")
        elif isinstance(e, DirectionChanged):
            add(None, f"play goes {'clockwise' if e.direction > 0 else 'counter-clockwise'} now")
        elif isinstance(e, TurnPassed):
            add(e.player, "keeps the card" if e.rule == "PLAY-4" else "passes (nothing to draw)")
        elif isinstance(e, PenaltyPending):
            add(e.player, f"faces {e.total} cards")
        elif isinstance(e, ChallengeOffered):
            add(e.victim, f"may challenge or accept {e.total} cards")
        elif isinstance(e, HandShown):
            shown = f": {' '.join(card(c) for c in e.cards)}" if e.cards else ""
            add(e.owner, f"shows the hand to {who(e.viewer)}{shown}")
        elif isinstance(e, ChallengeDecided):
            verdict = f"{who(e.attacker)} bluffed" if e.guilty else f"{who(e.attacker)} did not bluff"
            add(None, f"the challenge {'succeeds' if e.guilty else 'fails'}: {verdict}")
        elif isinstance(e, UnoCalled):
            add(e.player, "calls UNO" + (" late" if e.rule == "UNO-4" else ""))
        elif isinstance(e, UnoNotCalled):
            at = played if played >= 0 and clauses[played - 1][0] == e.player else len(clauses)
            clauses.insert(at, (e.player, "does not call UNO"))
        elif isinstance(e, UnoCaught):
            add(e.catcher, f"catches {who(e.player)} without UNO")
        elif isinstance(e, HandsSwapped):
            add(e.player, f"swaps hands with {who(e.target)}")
        elif isinstance(e, HandsRotated):
            add(None, "every hand passes to the next player")
        elif isinstance(e, HandsShuffled):
            add(None, "all hands are shuffled and dealt again")
        elif isinstance(e, EffectApplied):
            add(e.player, f"uses the {e.effect!r} effect")
        elif isinstance(e, RoundDealt):
            add(e.dealer, f"deals round {e.round_number}, the first card is {card(e.first_card)}")
        elif isinstance(e, FirstCardReturned):
            add(None, f"{card(e.card)} goes back into the deck")
        elif isinstance(e, PileReshuffled):
            add(None, f"the discard pile is shuffled into a new draw pile of {e.count}")
        elif isinstance(e, RoundEnded):
            add(e.winner, "wins the round" + (" (blocked round: lowest hand)" if e.blocked else ""))
        elif isinstance(e, MatchEnded):
            add(e.winner, "wins the match")
    return _join(clauses, who)


def _join(clauses: list[tuple[int | None, str]], who: Callable[[int], str]) -> str:
    """Runs of clauses about one player become one sentence: ``p3 draws 2 and misses the turn``."""
    sentences: list[str] = []
    i = 0
    while i < len(clauses):
        subject, text = clauses[i]
        if subject is None:
            sentences.append(text)
            i += 1
            continue
        run = [text]
        i += 1
        while i < len(clauses) and clauses[i][0] == subject:
            run.append(clauses[i][1])
            i += 1
        name = who(subject)
        if name == "you":
            run = [_you(t) for t in run]
        body = run[0] if len(run) == 1 else ", ".join(run[:-1]) + " and " + run[-1]
        sentences.append(f"{name} {body}")
    return "; ".join(sentences)


def _you(predicate: str) -> str:
    """The predicate in the second person: ``draws 2`` -> ``draw 2``."""
    verb, sep, rest = predicate.partition(" ")
    verb = _SECOND_PERSON.get(verb, verb[:-1] if verb.endswith("s") else verb)
    rest = rest.replace("the hand", "your hand").replace("the turn", "your turn")
    return verb + sep + rest
