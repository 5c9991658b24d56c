"""What the hostile-input tests share: a bound on the time and memory one input may cost, and the
command line's refusal (one line on standard error, exit status 2)."""

from __future__ import annotations

import contextlib
import signal
import time
import tracemalloc
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

import pytest

from unoengine.tools import cli

MAX_MESSAGE = 10_000
"""The longest error message any hostile input may produce: 50 problems listed at most, each with
its values quoted briefly (engine/limits.py)."""


class Hang(Exception):
    """A block that ran on far past its time bound: cut off so the test fails instead of blocking."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Cut the block off after ``seconds`` (a FIFO opened by mistake blocks forever), so the test
    fails rather than never ends."""

    def stop(_signum: int, _frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def within(seconds: float) -> Iterator[None]:
    """The block ends within ``seconds`` (a hang is cut off 5 s later)."""
    started = time.perf_counter()
    with _alarm(seconds + 5):
        yield
    elapsed = time.perf_counter() - started
    assert elapsed < seconds, f"took {elapsed:.2f} s, more than {seconds} s"


@contextlib.contextmanager
def at_most(megabytes: float) -> Iterator[None]:
    """The block allocates at most ``megabytes`` at its peak, measured by tracemalloc (which slows
    it, so time is bounded apart, by :func:`within`; a hang is cut off after 60 s)."""
    tracemalloc.start()
    try:
        with _alarm(60):
            yield
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < megabytes * 2**20, f"allocated {peak / 2**20:.0f} MB at its peak, more than {megabytes} MB"


def short(error: BaseException) -> str:
    """The error's message, checked to be short whatever the input was."""
    text = str(error)
    assert len(text) < MAX_MESSAGE, f"a message of {len(text):,} characters"
    return text


E = TypeVar("E", bound=BaseException)


def refused(error: type[E], call: Callable[[], Any], *, seconds: float = 1.0, megabytes: float | None = None,
            match: str | None = None) -> E:
    """``call()`` raises ``error`` (matching ``match``) with a short message, within ``seconds``; with
    ``megabytes``, run once more under tracemalloc, allocating at most that much."""
    with within(seconds), pytest.raises(error, match=match) as info:
        call()
    if megabytes is not None:
        with at_most(megabytes), pytest.raises(error):
            call()
    short(info.value)
    return info.value


def cli_refuses(args: list[str], capsys: pytest.CaptureFixture[str], *, seconds: float = 2.0,
                megabytes: float | None = None) -> str:
    """``unoengine ARGS`` exits 2 with one line on standard error (no traceback), within ``seconds``
    (and, with ``megabytes``, allocating at most that much); that line."""
    if megabytes is not None:
        with at_most(megabytes):
            cli.main(args)
        capsys.readouterr()
    with within(seconds):
        rc = cli.main(args)
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert rc == 2, (rc, captured.err[:500])
    assert len(lines) == 1 and lines[0].startswith("unoengine "), captured.err[:2000]
    assert len(lines[0]) < MAX_MESSAGE
    return lines[0]
