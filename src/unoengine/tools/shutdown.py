"""How a runner stops on a signal: SIGTERM, SIGHUP and SIGINT alike (docs/security.md).

``timeout``, systemd, CI runners and ``kill`` stop a program with SIGTERM, and a closed terminal
sends SIGHUP. Left to their default, both end Python at once, without a ``finally`` or an
``atexit`` run: the bot programs, their children, a conformance adapter and the worker processes
of a run were left running. Only Ctrl-C (SIGINT, a KeyboardInterrupt) cleaned up.

:func:`install` gives all three one handler, in the runner's main thread. The first signal
raises :class:`Stopped`, a KeyboardInterrupt, so every path that cleans up after Ctrl-C runs for
each of them: program bots are stopped and their process groups killed (bots/child.py), a pool's
workers are ended with theirs (tools/simulate.py), an adapter is closed, and a ``simulate`` run
prints the summary of the games played so far. The command then prints one line, ``unoengine
COMMAND: interrupted by SIGTERM...``, and exits 128 + the signal's number (:attr:`Stopped.status`).
A second signal while that cleanup runs does not wait for it: the programs' process groups are
killed and the process exits at once, with the same line and status for that signal.

A run's worker processes (tools/simulate.py) call :func:`worker_started`: SIGTERM ends a worker
with the process groups of its programs, and the kernel sends it SIGTERM when its runner dies
(bots/lifeline.py), however that happens. Under a runner that handles the signals the workers leave
SIGINT and SIGHUP (which a terminal sends its whole foreground group) to it: the runner ends them
with :func:`end_workers` once it has the results they delivered.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from types import FrameType
from typing import Final

from ..bots.child import exit_now
from ..bots.lifeline import die_with_parent

STOP_SIGNALS: Final = ("SIGTERM", "SIGHUP", "SIGINT")
"""The signals a runner stops on, cleaning up (the names: SIGHUP is POSIX only)."""

_stopping: Stopped | None = None
_label = "unoengine"
_at_once = False


class Stopped(KeyboardInterrupt):
    """A stop signal arrived (raised by the handler :func:`install` sets)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        """The exit status: 128 + the signal's number, as a shell reports a process it ended."""
        return 128 + self.signum


def install(label: str, *, at_once: bool = False) -> None:
    """Handle the stop signals in this process (its main thread); ``label`` begins the line a second
    signal prints (``unoengine simulate``). With ``at_once``, for a runner with nothing to clean
    up or keep, the first signal prints the line and ends the process without unwinding it: the
    mcp server, whose SDK reads stdin in a thread that Python's exit would wait for until the
    client closes stdin, and runs its tasks in anyio task groups that would report the signal's
    exception as an error of theirs."""
    global _label, _stopping, _at_once
    _label, _stopping, _at_once = label, None, at_once
    for name in STOP_SIGNALS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _handle)


def installed() -> bool:
    """Does this process handle the stop signals (:func:`install`)?"""
    return signal.getsignal(signal.SIGINT) is _handle


def stopping() -> Stopped | None:
    """The stop under way, if a signal has come."""
    return _stopping


def stopped_by(interrupt: KeyboardInterrupt) -> Stopped:
    """What stopped the runner: the signal that raised ``interrupt``, or SIGINT for a plain
    KeyboardInterrupt (no handler installed: Python's own for Ctrl-C)."""
    return interrupt if isinstance(interrupt, Stopped) else Stopped(signal.SIGINT)


def line(label: str, interrupt: KeyboardInterrupt, said: str = "") -> str:
    """The one line a stopped runner prints: ``unoengine conformance: interrupted by SIGTERM``
    with ``said`` after it (what was kept)."""
    return f"{label}: interrupted by {stopped_by(interrupt).name}{said}"


def report(label: str, interrupt: KeyboardInterrupt, said: str = "") -> int:
    """Print the :func:`line` on stderr; the exit status (128 + the signal's number)."""
    print(line(label, interrupt, said), file=sys.stderr)
    return stopped_by(interrupt).status


def interrupt_in(error: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt (or :class:`Stopped`) that ``error`` is, or that an exception group
    holds (anyio's task groups wrap what their tasks raise, the signal's exception included)."""
    if isinstance(error, KeyboardInterrupt):
        return error
    if isinstance(error, BaseExceptionGroup):
        found = error.subgroup(lambda e: isinstance(e, KeyboardInterrupt))
        while isinstance(found, BaseExceptionGroup):
            found = found.exceptions[0]
        return found if isinstance(found, KeyboardInterrupt) else None
    return None


def _handle(signum: int, _frame: FrameType | None) -> None:
    global _stopping
    if _at_once or _stopping is not None:  # a second signal: the cleanup is taking too long for someone
        for stream in (sys.stdout, sys.stderr):  # what was written before it, first
            with contextlib.suppress(OSError, ValueError, RuntimeError):  # RuntimeError: a write under way
                stream.flush()
        said = line(_label, Stopped(signum), "" if _at_once else ", again: ended at once")
        with contextlib.suppress(OSError):
            os.write(2, f"{said}\n".encode())  # not print: the handler may have cut off a print
        exit_now(128 + signum)  # the programs' groups killed; one being started, as soon as it is known
        return
    _stopping = Stopped(signum)
    raise _stopping


def worker_started(runner: int, runner_handles: bool) -> None:
    """In a worker process of the runner ``runner`` (a pool's initializer): SIGTERM ends the worker
    and its programs; it comes too when the runner dies. With ``runner_handles`` (the runner
    :func:`installed` the handlers), SIGINT and SIGHUP are the runner's to act on."""
    if sys.platform == "win32":
        return
    signal.signal(signal.SIGTERM, _stop_worker)
    if runner_handles:
        signal.signal(signal.SIGINT, _left_to_runner)
        signal.signal(signal.SIGHUP, _left_to_runner)
    die_with_parent(signal.SIGTERM, runner)


def _stop_worker(signum: int, _frame: FrameType | None) -> None:
    exit_now(128 + signum)


def _left_to_runner(signum: int, _frame: FrameType | None) -> None:
    """A handler, not SIG_IGN: an ignored signal would stay ignored in the programs a worker starts."""


def end_workers(executor: ProcessPoolExecutor) -> None:
    """A stop signal came: end the executor's workers now (SIGTERM, see :func:`worker_started`)
    rather than wait for the games they are playing."""
    processes = getattr(executor, "_processes", None) or {}  # its workers, by pid
    for process in list(processes.values()):
        if process.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(process.pid, signal.SIGTERM)
