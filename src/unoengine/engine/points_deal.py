"""Dealing unseen cards into hands that hold given points (SCORE-1), for a finished round.

Once a round is over, what each hand holds in points is public (the round's result counts them,
SCORE-1..4), while its cards stay hidden. A state the engine reaches keeps those hands, so its
result's points are the points of its hands (engine/consistency.py). Determinization, which deals
the hidden cards again, must then give each hidden hand a given number of cards holding a given
number of points: :func:`deal_by_points` finds such a deal.

How. The cards are grouped by their points. A :class:`_Table` says which (cards, points) the
groups from the j-th on can make, exactly, as one integer used as a bit set (a bit per pair).
It answers whether one hand can be made at all, and all the hands together as if one: when
either cannot, there is no deal (:func:`points_possible`). One hand is then dealt straight from
its table. Several hands share the cards, which makes the question a multi-way partition (hard
in general), so they are found by repair: each hand dealt in turn, from its table, when the cards
left can still make it (at random otherwise), then cards swapped between two hands, or a hand and
the rest, whenever the swap brings the hands closer to their points, until every hand holds its
points; a deal that gets stuck is dealt again. Every step is counted: after
:data:`~.limits.MAX_POINTS_DEAL_STEPS` the search stops with :class:`PointsDealTooLong`, so a
crafted view costs bounded time; the views of random games need a small part of it.

The deal found is random (with ``rng``; without, the same one each time), but not every deal
with the points equally likely, as the determinizer's other deals are. Nothing depends on it: the
round is over, and the next is dealt from a fresh shuffle of the whole deck (SETUP-11).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from .cards import Card
from .errors import UnoEngineError
from .limits import MAX_POINTS_DEAL_STEPS

_FIXED_SEED: Final = 0
"""The generator of a search given none: the same deal for the same cards, every time."""
_SIDEWAYS: Final = 8
"""Swaps in a row that only move a distance between hands, before a deal counts as stuck."""
_WORD: Final = 1024
"""Bits of a table one step pays for."""


class PointsDealTooLong(UnoEngineError):
    """No deal of hands holding their points was found within MAX_POINTS_DEAL_STEPS steps."""


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_POINTS_DEAL_STEPS

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise self.exhausted()

    @staticmethod
    def exhausted() -> PointsDealTooLong:
        return PointsDealTooLong(f"no deal of the hidden hands holding the points the round counted (SCORE-1) "
                                 f"was found within {MAX_POINTS_DEAL_STEPS:,} steps")


class _Table:
    """Which ``s`` cards holding ``p`` points (``s <= need``, ``p <= target``) the groups from the
    j-th on can make: bit ``s * width + p`` of ``rows[j]`` (``rows[len(groups)]`` is no card)."""

    def __init__(self, values: Sequence[int], left: Sequence[int], need: int, target: int, budget: _Budget) -> None:
        self.width = width = target + 1 + max(values, default=0)  # a card's points never reach the next row
        self.need, self.target = need, target
        size = (need + 1) * width
        budget.spend(_table_cost(left, need, target, max(values, default=0)))
        keep = ((1 << size) - 1) // ((1 << width) - 1) * ((1 << (target + 1)) - 1)  # every row's points <= target
        rows = [0] * (len(values) + 1)
        rows[-1] = 1
        for j in range(len(values) - 1, -1, -1):
            shift = width + values[j]  # one card more, its points more
            more = total = rows[j + 1]
            for _ in range(min(left[j], need)):
                more = (more << shift) & keep
                if not more:
                    break
                total |= more
            rows[j] = total
        self.rows = rows

    def has(self, j: int, s: int, p: int) -> bool:
        return 0 <= s <= self.need and 0 <= p <= self.target and bool(self.rows[j] >> (s * self.width + p) & 1)


def _table_cost(left: Sequence[int], need: int, target: int, top: int) -> int:
    """The steps a :class:`_Table` takes, known before it is made."""
    words = 1 + (need + 1) * (target + 1 + top) // _WORD
    return words * (1 + sum(min(k, need) for k in left)) + len(left)


def _groups(pool: Counter[Card], points: Sequence[int]) -> tuple[list[int], list[int]]:
    """The pool's point values, ascending, and how many cards hold each."""
    by_value: Counter[int] = Counter()
    for card, k in pool.items():
        by_value[points[card]] += k
    values = sorted(by_value)
    return values, [by_value[v] for v in values]


def _one_hand(values: Sequence[int], left: Sequence[int], need: int, target: int, table: _Table,
              rng: random.Random) -> list[int]:
    """How many cards of each group a hand of ``need`` cards and ``target`` points takes, walking
    ``table`` (which says it can): at each group, a count that still leads to the points, the
    ones a random deal would give (the group's share) the likelier."""
    counts = []
    s, p = need, target
    for j, value in enumerate(values):
        options = [h for h in range(min(left[j], s) + 1) if table.has(j + 1, s - h, p - h * value)]
        share = left[j] * s / max(1, sum(left[j:]))
        h = min(options, key=lambda h: abs(h - share) + 2 * rng.random())
        counts.append(h)
        s, p = s - h, p - h * value
    return counts


def _possible(values: list[int], left: list[int], wants: Sequence[tuple[int, int]],
              budget: _Budget) -> list[_Table] | None:
    """The table of each hand, when each alone, and all of them together, can hold their points;
    else None. PointsDealTooLong, before any work, when the tables would take more than the budget."""
    if any(need < 0 or target < 0 for need, target in wants) or sum(n for n, _ in wants) > sum(left):
        return None
    together = [(sum(n for n, _ in wants), sum(t for _, t in wants))] if len(wants) > 1 else []
    top = max(values, default=0)
    if sum(_table_cost(left, need, target, top) for need, target in [*wants, *together]) > budget.left:
        raise budget.exhausted()
    tables = []
    for need, target in [*wants, *together]:
        table = _Table(values, left, need, target, budget)
        if not table.has(0, need, target):
            return None
        tables.append(table)
    return tables[:len(wants)]


def points_possible(pool: Counter[Card], wants: Sequence[tuple[int, int]], points: Sequence[int]) -> bool | None:
    """Can the cards of ``pool`` make each hand of ``wants`` (cards, points) alone, and all of them
    together (as one hand)? Exact for each question; together they are necessary, not sufficient,
    for a deal of them all (:func:`deal_by_points` finds one). None when the pool and hands are too
    large to tell within MAX_POINTS_DEAL_STEPS (nothing is worked out then)."""
    values, left = _groups(pool, points)
    try:
        return _possible(values, left, wants, _Budget()) is not None
    except PointsDealTooLong:
        return None


def deal_by_points(pool: Counter[Card], wants: Sequence[tuple[int, int]], points: Sequence[int],
                   rng: random.Random | None = None) -> list[list[Card]] | None:
    """Hands from the cards of ``pool``, the k-th with ``wants[k] = (cards, points)`` (a card's
    points from the profile's ``points`` table), or None when :func:`points_possible` says no.
    With ``rng`` a random such deal, without it the same deal each time (see the module
    docstring). Raises :class:`PointsDealTooLong` when no deal is found within
    MAX_POINTS_DEAL_STEPS steps (crafted hands possible one by one but not together)."""
    budget = _Budget()
    values, left = _groups(pool, points)
    tables = _possible(values, left, wants, budget)
    if tables is None:
        return None
    rng = rng if rng is not None else random.Random(_FIXED_SEED)
    cards = sorted(pool.elements())
    filled = [i for i, (need, _) in enumerate(wants) if need]
    if len(filled) <= 1:  # one hand to fill: straight from its table
        rng.shuffle(cards)
        out: list[list[Card]] = [[] for _ in wants]
        for i in filled:
            counts = dict(zip(values, _one_hand(values, left, *wants[i], tables[i], rng), strict=True))
            for card in cards:
                if counts[points[card]]:
                    counts[points[card]] -= 1
                    out[i].append(card)
        return out
    targets = [target for _, target in wants]
    while True:
        bins, rest = _first_deal(cards, wants, points, values, rng, budget)
        if _repair(bins, rest, targets, points, rng, budget):
            return bins


def _first_deal(cards: list[Card], wants: Sequence[tuple[int, int]], points: Sequence[int], values: Sequence[int],
                rng: random.Random, budget: _Budget) -> tuple[list[list[Card]], list[Card]]:
    """A deal to repair: the hands one by one, in a random order, each holding its points when the
    cards left can make them (from the table of what is left), else random cards; the rest left."""
    pile = cards[:]
    rng.shuffle(pile)
    bins: list[list[Card]] = [[] for _ in wants]
    order = list(range(len(wants)))
    rng.shuffle(order)
    for i in order:
        need, target = wants[i]
        budget.spend(len(pile) + 4 * len(values))
        by_value = Counter(points[c] for c in pile)
        left = [by_value[v] for v in values]
        table = _Table(values, left, need, target, budget)
        if table.has(0, need, target):
            counts = dict(zip(values, _one_hand(values, left, need, target, table, rng), strict=True))
            keep = []
            for card in pile:
                if counts[points[card]]:
                    counts[points[card]] -= 1
                    bins[i].append(card)
                else:
                    keep.append(card)
            pile = keep
        else:
            bins[i], pile = pile[:need], pile[need:]
    return bins, pile


def _repair(bins: list[list[Card]], rest: list[Card], targets: Sequence[int], points: Sequence[int],
            rng: random.Random, budget: _Budget) -> bool:
    """Swap cards between two hands, or a hand and ``rest``: the swap that brings the hands closest
    to their ``targets`` (the sum of the distances falls), else, a few times in a row, one that
    moves a distance from a hand to another (it stays the same); True once every hand holds its
    points, False when neither helps."""
    held = [Counter(points[c] for c in b) for b in bins]
    spare = Counter(points[c] for c in rest)
    off = [sum(points[c] for c in b) - t for b, t in zip(bins, targets, strict=True)]
    budget.spend(len(rest) + sum(map(len, bins)))
    sideways = 0
    while True:
        wrong = [i for i, d in enumerate(off) if d]
        if not wrong:
            return True
        q = rng.choice(wrong)
        best: tuple[int, int, int] | None = None  # partner (-1: the rest), the value given, the value taken
        best_key = (-1, 0.0)  # the gain (the fall in the sum of the distances), a random tie-break
        for r in range(-1, len(bins)):
            if r == q:
                continue
            theirs = spare if r < 0 else held[r]
            budget.spend(1 + len(held[q]) * len(theirs))
            for given in held[q]:
                for taken in theirs:
                    delta = taken - given
                    if not delta:
                        continue
                    gain = abs(off[q]) - abs(off[q] + delta)
                    if r >= 0:
                        gain += abs(off[r]) - abs(off[r] - delta)
                    if gain >= best_key[0] and (key := (gain, rng.random())) > best_key:
                        best, best_key = (r, given, taken), key
        if best is None or best_key[0] < 0:
            return False
        sideways = sideways + 1 if best_key[0] == 0 else 0
        if sideways > _SIDEWAYS:
            return False
        r, given, taken = best
        theirs_list = rest if r < 0 else bins[r]
        budget.spend(len(bins[q]) + len(theirs_list))
        a = rng.choice([i for i, c in enumerate(bins[q]) if points[c] == given])
        b = rng.choice([i for i, c in enumerate(theirs_list) if points[c] == taken])
        bins[q][a], theirs_list[b] = theirs_list[b], bins[q][a]
        held[q][given] -= 1
        held[q][taken] += 1
        held[q] = +held[q]
        counter = spare if r < 0 else held[r]
        counter[taken] -= 1
        counter[given] += 1
        if r < 0:
            spare = +counter
        else:
            held[r] = +counter
            off[r] -= taken - given
        off[q] += taken - given
