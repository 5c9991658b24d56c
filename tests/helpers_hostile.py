"""What the hostile-input tests share: a bound on the work and the memory one input may cost, and
the command line's refusal (one line on standard error, exit status 2). Work is counted in lines
of Python (tests/helpers_work.py), never timed, so a slow machine fails none of them."""

from __future__ import annotations

import contextlib
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from helpers_work import LINES, at_most_lines, hang_guard

from unoengine.tools import cli

MAX_MESSAGE = 10_000
"""The longest error message any hostile input may produce: 50 problems listed at most, each with
its values quoted briefly (engine/limits.py)."""


@contextlib.contextmanager
def at_most(megabytes: float) -> Iterator[None]:
    """The block allocates at most ``megabytes`` at its peak, measured by tracemalloc (its work is
    bounded apart, by :func:`~helpers_work.at_most_lines`; a hang is cut off)."""
    tracemalloc.start()
    try:
        with hang_guard():
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


def refused(error: type[E], call: Callable[[], Any], *, lines: int = LINES, megabytes: float | None = None,
            match: str | None = None) -> E:
    """``call()`` raises ``error`` (matching ``match``) with a short message, after at most ``lines``
    lines of Python; with ``megabytes``, run once more under tracemalloc, allocating at most that much."""
    with at_most_lines(lines), pytest.raises(error, match=match) as info:
        call()
    if megabytes is not None:
        with at_most(megabytes), pytest.raises(error):
            call()
    short(info.value)
    return info.value


def _exit_status(args: list[str]) -> int | str | None:
    """What ``unoengine ARGS`` exits with: ``main``'s return value, or the status of the
    ``SystemExit`` that argparse raises for an option it refuses itself (``--seed`` out of range)."""
    try:
        return cli.main(args)
    except SystemExit as exc:
        return exc.code


def cli_refuses(args: list[str], capsys: pytest.CaptureFixture[str], *, lines: int = LINES,
                megabytes: float | None = None) -> str:
    """``unoengine ARGS`` exits 2 with one line on standard error (no traceback), after at most
    ``lines`` lines of Python (and, with ``megabytes``, allocating at most that much); that line."""
    if megabytes is not None:
        with at_most(megabytes):
            _exit_status(args)
        capsys.readouterr()
    with at_most_lines(lines):
        rc = _exit_status(args)
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert rc == 2, (rc, captured.err[:500])
    assert len(lines) == 1 and lines[0].startswith("unoengine "), captured.err[:2000]
    assert len(lines[0]) < MAX_MESSAGE
    return lines[0]
