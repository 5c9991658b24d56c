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

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence

from .cards import Card
from .state import Known


def _normalise(entries: Iterable[tuple[int, int, tuple[Card, ...]]]) -> Known:
    return tuple(sorted((v, o, tuple(sorted(cards))) for v, o, cards in entries if cards and v != o))


class IndexedKnown(tuple[tuple[int, int, tuple[Card, ...]], ...]):
    """:data:`Known` entries, equal to (and hashed as) the plain tuple of them, that also keep,
    per owner, the cards anyone knows in that owner's hand (filled in on first use).

    A play then costs one set lookup however many players know something
    (:func:`after_play`), not a scan of every entry (docs/performance.md, "Flat across
    players"); an owner's set is worked out once per change of what is known of that hand.
    Built only here; the entries never change, and the sets are derived from them."""

    owned: dict[int, frozenset[Card]]


def indexed(known: Known) -> IndexedKnown:
    """``known`` with its per-owner index (the same object if it already has one)."""
    if type(known) is IndexedKnown:
        return known
    out = IndexedKnown(known)
    out.owned = {}
    return out


def _owned(index: IndexedKnown, owner: int) -> frozenset[Card]:
    cards = index.owned.get(owner)
    if cards is None:
        cards = index.owned[owner] = frozenset(c for _v, o, cs in index if o == owner for c in cs)
    return cards


def after_play(known: Known, owner: int, card: Card) -> Known:
    """``owner`` played ``card``: one known copy of it, if any, is struck off (by each viewer).

    On the hot path of every play that some knowledge is kept for: the owner's set in
    :class:`IndexedKnown` answers "does anyone know this card in this hand?" in one lookup, and
    the entries are rebuilt only when the answer is yes. They keep their order and their cards
    stay sorted, so the result needs no sorting; an entry left empty goes."""
    index = indexed(known)
    if card not in _owned(index, owner):
        return index  # nothing to strike off: share the tuple (the common case)
    out = []
    still_known = False  # another viewer knows a second copy
    for entry in index:
        v, o, cards = entry
        if o == owner and card in cards:
            i = cards.index(card)
            if len(cards) > 1:
                rest = cards[:i] + cards[i + 1:]
                out.append((v, o, rest))
                still_known = still_known or card in rest
        else:
            out.append(entry)
    result = IndexedKnown(out)
    result.owned = dict(index.owned)  # other hands' sets are unchanged
    if not still_known:
        result.owned[owner] = index.owned[owner] - {card}
    return result


def after_hands_move(known: Known, new_owner: Callable[[int], int], passed: Sequence[tuple[int, int, tuple[Card, ...]]]
                     ) -> Known:
    """Whole hands changed owners (``new_owner(old)``): what anyone knew follows the hand, and each
    ``(viewer, owner, cards)`` of ``passed`` is a hand its viewer just handed over, now fully known."""
    moved = [(v, new_owner(o), cards) for v, o, cards in known]
    return merge(_normalise(moved), passed)


def merge(known: Known, learned: Iterable[tuple[int, int, tuple[Card, ...]]]) -> Known:
    """Add what was learned: two lower bounds of one hand combine card by card (the larger count).

    Each learned entry goes to its place in the sorted ``known`` (found by bisection), so a
    challenge (WD4-3) costs the entries it touches, not a rebuild of everything known."""
    out = list(known)
    touched = set()
    for v, o, cards in learned:
        if v == o or not cards:
            continue
        touched.add(o)
        cards = tuple(sorted(cards))
        i = bisect_left(out, (v, o))  # (v, o) sorts just before any (v, o, cards)
        if i < len(out) and out[i][0] == v and out[i][1] == o:
            out[i] = (v, o, _union(out[i][2], cards))
        else:
            out.insert(i, (v, o, cards))
    result = IndexedKnown(out)
    # the hands nothing was learned of keep their sets
    result.owned = {o: cards for o, cards in indexed(known).owned.items() if o not in touched}
    return result


def _union(a: tuple[Card, ...], b: tuple[Card, ...]) -> tuple[Card, ...]:
    """The multiset union of two sorted tuples: each card as often as the larger count."""
    out: list[Card] = []
    i = j = 0
    while i < len(a) and j < len(b):
        x, y = a[i], b[j]
        if x == y:
            out.append(x)
            i += 1
            j += 1
        elif x < y:
            out.append(x)
            i += 1
        else:
            out.append(y)
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return tuple(out)


def known_by(known: Known, viewer: int) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """``(owner, cards)`` for every hand ``viewer`` knows something of (``known`` is sorted by
    viewer, so the viewer's entries are one slice)."""
    lo = bisect_left(known, (viewer,))
    hi = bisect_left(known, (viewer + 1,), lo)
    return tuple((o, cards) for _v, o, cards in known[lo:hi])
