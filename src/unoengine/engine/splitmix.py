"""The portable shuffle ``"splitmix64-v1"``: SplitMix64, an unbiased bounded draw, Fisher-Yates.

A seed must mean the same deal in every engine and every language (issue 34), so the shuffle is
defined here in a few lines of 64-bit unsigned arithmetic that any language can repeat exactly;
docs/shuffle.md states each step and gives test vectors, and tests/test_splitmix.py holds this
code to them. It is also cheaper than seeding MT19937 afresh for every shuffle (no 624-word key
schedule). Every step, all arithmetic modulo 2**64:

- the stream: ``state = seed``; each output adds ``GAMMA`` to ``state`` and mixes it
  (:func:`mix`);
- a draw below ``n`` (Lemire's multiply-shift with rejection): ``m = x * n`` as a 128-bit
  product of the next output ``x``; its low 64 bits ``l``; while ``l < (2**64 - n) % n`` draw
  again; the result is ``m >> 64``;
- a shuffle (Fisher-Yates from the top): for ``i`` from ``len - 1`` down to ``1``, swap item
  ``i`` with item ``j``, ``j`` drawn below ``i + 1``;
- the next seed: the stream's next output after the shuffle.
"""

from __future__ import annotations

from typing import Final, TypeVar

T = TypeVar("T")

MASK: Final = (1 << 64) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
"""The golden-ratio increment of SplitMix64 (Steele, Lea and Flood, 2014)."""
MIX_1: Final = 0xBF58476D1CE4E5B9
MIX_2: Final = 0x94D049BB133111EB
NAME: Final = "splitmix64-v1"


def mix(z: int) -> int:
    """SplitMix64's output function of one stream state."""
    z = ((z ^ (z >> 30)) * MIX_1) & MASK
    z = ((z ^ (z >> 27)) * MIX_2) & MASK
    return z ^ (z >> 31)


class SplitMix64:
    """The stream of one shuffle seed: :meth:`next`, :meth:`below`, :meth:`shuffle`."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GAMMA) & MASK
        return mix(self.state)

    def below(self, bound: int) -> int:
        """A uniform integer from 0 to ``bound - 1`` (``1 <= bound < 2**64``), without bias."""
        product = self.next() * bound
        if product & MASK < bound:
            floor = ((1 << 64) - bound) % bound
            while product & MASK < floor:
                product = self.next() * bound
        return product >> 64

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates from the top, in place: the very steps of :meth:`below`, written out so
        that a card costs no Python call (a reshuffle happens every few turns at a big table)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            while True:
                state = (state + GAMMA) & MASK
                z = ((state ^ (state >> 30)) * MIX_1) & MASK
                z = ((z ^ (z >> 27)) * MIX_2) & MASK
                product = (z ^ (z >> 31)) * bound
                # The rejection test of below(): the low word is at least bound almost always.
                if product & MASK >= bound or product & MASK >= ((1 << 64) - bound) % bound:
                    break
            j = product >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state


def shuffled(seed: int, items: list[T]) -> int:
    """Shuffle ``items`` in place from ``seed``; returns the next seed (the stream's next output)."""
    stream = SplitMix64(seed)
    stream.shuffle(items)
    return stream.next()
