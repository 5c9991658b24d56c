"""What the environments' argument tests share: values of every kind an argument may wrongly be,
and the seeds a framework's generator would refuse with its own error."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

BAD_SEEDS: tuple[Any, ...] = (-1, -(2**70), 1.5, 2.0, math.nan, True, False, 2**64, 2**200, "1", b"1", [1], (1,),
                              {"seed": 1}, object())
"""Seeds that are no int 0 .. 2**64 - 1: a negative, a float, a bool, too large, not a number."""


def value_id(value: Any) -> str:
    """A test id for a value, the same in every process (no object addresses: xdist compares them)."""
    return type(value).__name__ if type(value) is object else repr(value)[:30]


def any_value() -> st.SearchStrategy[Any]:
    """Any value an argument could be given: numbers of every kind (NaN, infinities, huge ints,
    bools), text (long, with terminal escapes), bytes, None, containers of them, objects."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63), st.floats(),
        st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0]), st.text(max_size=20),
        st.sampled_from(["", "random", "windows", "win", "x" * 100_000, "\x1b[31mred", "classic-108"]),
        st.binary(max_size=8), st.complex_numbers(), st.just(object()),
    )
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5),
                                                                                            inner, max_size=2),
                        max_leaves=4)
