"""How far a run of ``simulate`` or ``tournament`` has got, on standard error.

On a terminal a bar is redrawn in place. Anywhere else (a pipe, a log file, a CI job) a bar
would show nothing until the end, so plain lines are written instead: one as soon as the first
few games are done, with an estimate of the time left, then one every ``interval`` seconds.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Final, TextIO

INTERVAL: Final = 5.0
"""Seconds between two progress lines on a non-terminal (``Progress(interval=...)``)."""

FIRST_ESTIMATE: Final = 3
"""Games done when the first line, with the first estimate of the time left, is written."""

_BAR_EVERY: Final = 10
"""Games between two redraws of the bar."""


class Progress:
    """A ``progress(done, total)`` callback: a bar on a terminal, else a line every ``interval``
    seconds (and at ``first`` games done, and at the end). ``clock`` gives seconds."""

    def __init__(self, *, terminal: bool, label: str = "run", interval: float = INTERVAL,
                 first: int = FIRST_ESTIMATE, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.terminal, self.label, self.interval, self.first = terminal, label, interval, first
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = self.last = clock()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if self.terminal:
            if done % _BAR_EVERY == 0 or done == total:
                self._bar(done, total)
            return
        now = self.clock()
        if done == min(self.first, total) or done == total or now - self.last >= self.interval:
            self.last = now
            self.stream.write(f"unoengine {self.label}: {self.line(done, total, now - self.started)}\n")
            self.stream.flush()

    @staticmethod
    def line(done: int, total: int, elapsed: float) -> str:
        """``12/200 games, 40 s so far, about 10 min left``: the estimate from the rate so far."""
        text = f"{done:,}/{total:,} games, {duration(elapsed)} so far"
        if 0 < done < total:
            text += f", about {duration(elapsed * (total - done) / done)} left"
        return text

    def _bar(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        line = f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        if 0 < done < total:
            elapsed = self.clock() - self.started
            line += f", about {duration(elapsed * (total - done) / done)} left"
        self.stream.write(line + " " * 8)
        self.stream.flush()
        self.drawn = True

    def end(self) -> None:
        """Close the bar's line (nothing to do for plain lines)."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def duration(seconds: float) -> str:
    """A time span for people: ``40 s``, ``13 min``, ``2.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
