"""Shuffling: the very permutation ``random.Random.shuffle`` makes, in fewer interpreter steps.

Every shuffle of a game (the deal, SETUP-1; the reshuffle of the discard pile, PLAY-7; Shuffle
Hands, ACT-6; the dealer draw, SETUP-2) must be the one ``random.Random(seed).shuffle`` makes:
records and serialized states replay from their seeds, and a state's next seed is read from the
generator after the shuffle. CPython's ``shuffle`` is a Fisher-Yates pass that calls the Python
method ``_randbelow`` once a card, and that method calls ``getrandbits(k)`` until it draws a
number below ``n`` (``k`` the bit length of ``n``). :func:`shuffle` makes the same calls of
``getrandbits`` in the same order, so it swaps the same cards and leaves the generator in the
same state, with the loop written out and its ``(i, n, k)`` worked out once per length: a
third fewer bytecodes a card, and no Python call a card (random play at ten players reshuffles
every ten moves or so; docs/performance.md, "The shuffle"). tests/test_shuffling.py holds it to
``random.Random.shuffle`` on many seeds and lengths, so a Python whose shuffle changes fails
there first.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")

_Steps = tuple[tuple[int, int, int], ...]


def _steps_of(length: int) -> _Steps:
    """Fisher-Yates' steps for a list of ``length``: swap position ``i`` with a draw below
    ``n = i + 1``, drawn with ``k = n.bit_length()`` bits, from the end down to position 1."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


_STEPS: dict[int, _Steps] = {}
"""The steps of each length shuffled so far, up to :data:`_KEPT` (an official deck is 108 or 112
cards; a longer custom deck works its steps out on every shuffle)."""
_KEPT = 256


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would (``rng`` a plain
    ``random.Random``; anything else, such as a subclass with its own ``random``, is asked to
    shuffle them itself)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    length = len(items)
    steps = _STEPS.get(length)
    if steps is None:
        steps = _steps_of(length)
        if length <= _KEPT:
            _STEPS[length] = steps
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
