"""No test depends on wall-clock time (issue 36): under CPU load the suite failed tests on time
limits, blaming the engine when the machine was only slow. Work is bounded by counts instead
(tests/helpers_work.py counts lines of Python); timings belong to the benchmarks."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from helpers_work import TooMuchWork, at_most_lines
from hypothesis import settings

import unoengine as u

TESTS = Path(__file__).resolve().parent
CLOCK = re.compile(r"\b(?:time\.(?:time|monotonic|perf_counter|process_time|thread_time)(?:_ns)?|datetime\.now)\(")

READS_THE_CLOCK = {
    "conftest.py": "--deep-ledger records how long the measured deep run took; no test reads it",
    "chromium.py": "deadlines that cut off a browser that stopped answering (a hang), with a message",
    "test_play_cli.py": "a deadline that cuts off a terminal game that stopped answering (a hang), with a message",
    "test_search_fast_paths.py": "ISMCTSBot(seconds=) is a budget of the thread's CPU time, which load cannot shorten",
}
"""The files that may read a clock, and why none of them can fail because the machine is slow."""


def test_no_test_reads_the_clock_but_to_cut_off_a_hang() -> None:
    """Only the files listed read a clock (each for a reason that a slow machine cannot fail),
    and each listed file still does."""
    reading = {path.name for path in TESTS.glob("*.py") if CLOCK.search(path.read_text(encoding="utf-8"))}
    assert reading - READS_THE_CLOCK.keys() == set(), "tests that time their work: bound it by a count instead"
    assert READS_THE_CLOCK.keys() - reading == set(), "listed, but reads no clock any more: take it off the list"


def test_hypothesis_has_no_deadline() -> None:
    """A hypothesis deadline is wall-clock time per example: the suite's profile has none, and no
    test sets one."""
    assert settings.default.deadline is None
    for path in TESTS.glob("*.py"):
        for value in re.findall(r"\bdeadline=([^,)\s]+)", path.read_text(encoding="utf-8")):
            assert value == "None", f"{path.name}: a hypothesis deadline of {value}"


def test_a_bound_on_lines_stops_a_loop_that_never_ends() -> None:
    """at_most_lines stops a block as soon as it passes its bound, even when the code under test
    catches everything, and counts the same lines for the same work on any run."""

    def spin() -> None:
        while True:
            pass

    def swallow() -> None:
        with contextlib.suppress(BaseException):  # code under test may catch anything
            spin()

    with pytest.raises(TooMuchWork, match="spinning ran more than 1,000 lines"), at_most_lines(1000, "spinning"):
        spin()
    with pytest.raises(TooMuchWork), at_most_lines(1000):
        swallow()
    counts = []
    for _ in range(3):
        with at_most_lines() as work:
            u.new_game("classic-108", 4, seed=1)
        counts.append(work.lines)
    assert 0 < counts[1] == counts[2] <= counts[0]  # the first deal also fills caches
