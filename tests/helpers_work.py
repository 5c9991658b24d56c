"""Bounds on the work a block of code does, counted rather than timed, so that no test fails
because the machine is slow (issue 36): the lines of Python the block runs, as ``sys.settrace``
reports them, are the same on any machine. Timings belong to the benchmarks (benchmarks/).

A block that hangs in C, where no line runs (a FIFO opened by mistake blocks in ``open``), is cut
off by a generous alarm instead, so that the test fails rather than never ends."""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any, Final

LINES: Final = 1_000_000
"""The default bound. The refusals of the hostile-input tests run at most about 150,000 lines (a
flood of 20,000 ``known`` entries; a deal from the largest deck allowed); the attacks they were
written against ran for seconds, tens of millions of lines."""

HANG_SECONDS: Final = 60.0
"""How long a block may run before it is taken for a hang: minutes of slack for work that takes
milliseconds, so only a block that never ends reaches it."""


class TooMuchWork(BaseException):
    """The block ran more lines than its bound. Not an ``Exception``, so that the code under test
    cannot take it for an error of its own and carry on."""


class Hang(BaseException):
    """The block was still running after :data:`HANG_SECONDS`: cut off so the test fails."""


class LineCount:
    """The lines of Python a block ran so far."""

    def __init__(self) -> None:
        self.lines = 0


@contextlib.contextmanager
def hang_guard(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Cut the block off after ``seconds`` with :class:`Hang` (never reached unless it hangs)."""

    def stop(_signum: int, _frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:.0f} s: it hangs (this is no bound on its speed)")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def at_most_lines(limit: int = LINES, what: str = "the block") -> Iterator[LineCount]:
    """The block runs at most ``limit`` lines of Python in the calls it makes; it is stopped with
    :class:`TooMuchWork` (its message starts with ``what``) as soon as it passes the bound, so a
    loop that never ends fails here, and a hang in C is cut off by :func:`hang_guard`. Yields the
    count, to be read afterwards."""
    count = LineCount()
    message = f"{what} ran more than {limit:,} lines of Python"

    def trace(_frame: FrameType, event: str, _arg: Any) -> Any:
        if event == "line":
            count.lines += 1
            if count.lines > limit:
                raise TooMuchWork(message)
        return trace

    previous = sys.gettrace()
    with hang_guard():
        sys.settrace(trace)
        try:
            yield count
        finally:
            sys.settrace(previous)
    if count.lines > limit:  # the code under test caught TooMuchWork after all
        raise TooMuchWork(message)
