"""What players know of each other's hands: the cards a swap, a rotation or a challenge put in
front of them (ACT-7, HOUSE-3, WD4-3).

Knowledge is kept as a lower bound, ``(viewer, owner, cards)``: ``owner`` holds at least those
cards. That is always safe to keep: a known card the owner plays is struck off (the copy played
might have been another one, so forgetting one copy never claims a card that is not there),
cards drawn later are simply unknown, and a Shuffle Hands or a custom effect, whose result no
one can follow, forgets everything. Determinization (determinize.py) deals hidden cards around
what the viewer knows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from .cards import Card
from .state import Known


def _normalise(entries: Iterable[tuple[int, int, tuple[Card, ...]]]) -> Known:
    return tuple(sorted((v, o, tuple(sorted(cards))) for v, o, cards in entries if cards and v != o))


def after_play(known: Known, owner: int, card: Card) -> Known:
    """``owner`` played ``card``: one known copy of it, if any, is struck off."""
    for _v, o, cards in known:
        if o == owner and card in cards:
            break
    else:
        return known  # nothing to strike off: share the tuple (the common case, on the hot path)
    out = []
    for v, o, cards in known:
        if o == owner and card in cards:
            i = cards.index(card)
            cards = cards[:i] + cards[i + 1:]
        out.append((v, o, cards))
    return _normalise(out)


def after_hands_move(known: Known, new_owner: Callable[[int], int], passed: Sequence[tuple[int, int, tuple[Card, ...]]]
                     ) -> Known:
    """Whole hands changed owners (``new_owner(old)``): what anyone knew follows the hand, and each
    ``(viewer, owner, cards)`` of ``passed`` is a hand its viewer just handed over, now fully known."""
    moved = [(v, new_owner(o), cards) for v, o, cards in known]
    return merge(_normalise(moved), passed)


def merge(known: Known, learned: Iterable[tuple[int, int, tuple[Card, ...]]]) -> Known:
    """Add what was learned: two lower bounds of one hand combine card by card (the larger count)."""
    table: dict[tuple[int, int], Counter[Card]] = {(v, o): Counter(cards) for v, o, cards in known}
    for v, o, cards in learned:
        table[(v, o)] = table.get((v, o), Counter()) | Counter(cards)
    return _normalise((v, o, tuple(c.elements())) for (v, o), c in table.items())


def known_by(known: Known, viewer: int) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """``(owner, cards)`` for every hand ``viewer`` knows something of."""
    return tuple((o, cards) for v, o, cards in known if v == viewer)
