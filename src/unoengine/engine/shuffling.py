"""Shuffling: the named, versioned shuffle algorithms, and MT19937's in fewer interpreter steps.

A profile names the algorithm of every shuffle of its games (``Profile.shuffle``, docs/shuffle.md):
``"splitmix64-v1"``, the portable one (engine/splitmix.py) and the default, so that a seed deals
the same cards in any engine and any language; ``"mt19937"``, the legacy one, for every JSON
document written before the choice existed, so that its records replay as they were played.
:func:`shuffled` and :class:`Stream` run either from a 64-bit seed.

Under ``"mt19937"`` every shuffle of a game (the deal, SETUP-1; the reshuffle of the discard pile, PLAY-7; Shuffle
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
from collections.abc import Sequence
from typing import Final, TypeAlias, TypeVar

from . import splitmix

T = TypeVar("T")

MT19937: Final = "mt19937"
"""The legacy shuffle: ``random.Random(seed).shuffle``, then ``getrandbits(64)`` as the next seed."""
SPLITMIX64_V1: Final = splitmix.NAME
SHUFFLES: Final = (SPLITMIX64_V1, MT19937)
"""Every shuffle algorithm by name; a name, once released, always means the same permutations."""
DEFAULT_SHUFFLE: Final = SPLITMIX64_V1
"""The shuffle of a profile that does not name one: a Profile built in code, and a profile file
(TOML, the shipped ones included) without ``setup.shuffle``. Never that of a JSON document, which
names its shuffle when written and is read as :data:`LEGACY_SHUFFLE` when it names none."""
LEGACY_SHUFFLE: Final = MT19937
"""The shuffle of a JSON document (profile, state, record) that names none: it was written before
shuffles were named, by an engine that shuffled with MT19937."""

Steps: TypeAlias = "tuple[tuple[int, int, int], ...]"
"""Fisher-Yates steps ``(bound, bits, position)``: put at ``position`` (``bound - 1``) the item
drawn below ``bound`` among the first ``bound``, drawn as ``getrandbits(bits)`` until below it."""


def fisher_yates_steps(total: int, count: int | None = None) -> Steps:
    """The first ``count`` steps (all by default) of a Fisher-Yates shuffle of ``total`` items,
    from the last position down; a step with one item left to choose from is no step."""
    last = 1 if count is None else max(1, total - count)
    return tuple((m, m.bit_length(), m - 1) for m in range(total, last, -1))


def run_steps(rng: random.Random, items: list[T], steps: Steps) -> None:
    """Take ``steps`` on ``items`` in place: each draws its position below the bound as
    ``random.Random`` does (``getrandbits`` of the bound's bit length, drawn again while not
    below it), with no Python call a card. All the steps of :func:`fisher_yates_steps` are a
    whole shuffle; its first ones fill the last positions with a uniform ordered choice
    (determinization deals only as deep as a search reaches)."""
    draw = rng.getrandbits
    for bound, bits, position in steps:
        j = draw(bits)
        while j >= bound:
            j = draw(bits)
        items[position], items[j] = items[j], items[position]


_STEPS: dict[int, Steps] = {}
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
        steps = fisher_yates_steps(length)
        if length <= _KEPT:
            _STEPS[length] = steps
    run_steps(rng, items, steps)


class Stream:
    """Several draws from one seed under a named algorithm: the SETUP-2 dealer draw shuffles, may
    reshuffle and may draw lots before it hands on the next seed."""

    __slots__ = ("_mt", "_sm")

    def __init__(self, algorithm: str, seed: int) -> None:
        self._mt: random.Random | None = None
        self._sm: splitmix.SplitMix64 | None = None
        if algorithm == MT19937:
            self._mt = random.Random(seed)
        else:
            self._sm = splitmix.SplitMix64(seed)

    def shuffle(self, items: list[T]) -> None:
        if self._mt is not None:
            shuffle(self._mt, items)
        else:
            assert self._sm is not None
            self._sm.shuffle(items)

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (``random.Random.choice`` under MT19937, a draw below their number
        otherwise)."""
        if self._mt is not None:
            return self._mt.choice(options)
        assert self._sm is not None
        return options[self._sm.below(len(options))]

    def next_seed(self) -> int:
        """The seed of the next shuffle of the game."""
        if self._mt is not None:
            return self._mt.getrandbits(64)
        assert self._sm is not None
        return self._sm.next()


def shuffled(algorithm: str, seed: int, items: list[T]) -> int:
    """Shuffle ``items`` in place from ``seed`` under ``algorithm``; returns the next seed."""
    if algorithm == MT19937:
        r = random.Random(seed)
        shuffle(r, items)
        return r.getrandbits(64)
    return splitmix.shuffled(seed, items)
