"""A program we do not trust, run as a child over pipes: every exchange bounded in size and time.

Both program runners use :class:`Child`: bot programs (bots/program.py) and engines under
``conformance --engine-cmd`` (tools/conformance/wire.py). What it promises (docs/security.md):

- **No threads, bounded memory.** The pipes are non-blocking and read only while the runner
  waits on the program (a write, an answer), with a selector. What the program writes while
  nobody waits stays in the operating system's pipe, which then stops the program
  (backpressure). Its stdout is read into at most one line of ``max_line`` bytes (a longer
  line is an error as soon as the limit is passed) and one read more; its stderr into a head
  and a tail (MAX_STDERR_HEAD_BYTES, MAX_STDERR_TAIL_BYTES), whatever it writes.
- **Bounded time.** Each write and each wait for an answer has a deadline; a program that stops
  reading its input cannot block the runner.
- **Its own process group.** The program starts a process group of its own (in the runner's
  session: a session of its own would, on Linux, also get a scheduling group of its own, which
  halves the speed of a run on a busy machine); when it ends, fails or is stopped, the whole
  group is killed (``os.killpg``), the program reaped and every pipe closed, so children it
  started do not outlive it and nothing leaks across restarts. Its exit is seen at once while
  waiting (a pidfd where there is one, else a check every few tens of ms), even when a child of
  it still holds its stdout open.

POSIX only (``process_group``, ``os.killpg``, selectors on pipes). A :class:`ChildError`
means the program is over: it has been ended and its stderr read. When the runner's process
exits, the process groups of the programs it still runs are killed (``atexit``; a pool worker
told to stop calls :func:`exit_now`; a runner stopped by a signal exits through its cleanup,
tools/shutdown.py). A runner killed outright takes its programs with it on Linux
(bots/lifeline.py).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Iterable, Sequence
from typing import Final, NoReturn

from ..engine.errors import UnoEngineError
from ..engine.limits import (
    MAX_IDLE_OUTPUT_BYTES,
    MAX_PROGRAM_LINE_BYTES,
    MAX_STDERR_HEAD_BYTES,
    MAX_STDERR_TAIL_BYTES,
)
from .lifeline import program_preexec

STOP_GRACE: Final = 1.0
"""Seconds a program told ``bye`` has to exit before its group is killed."""
_CHUNK: Final = 64 * 1024
_EXIT_POLL: Final = 0.02
"""Seconds between checks that the program is still running, where there is no pidfd."""
_END_DRAIN_BYTES: Final = 1 << 20
"""The most stderr read once the program is over (what was left in the pipe, 64 KiB usually;
a process that escaped the group could write on)."""
_SHOWN_HEAD_LINES: Final = 4
_SHOWN_TAIL_LINES: Final = 8
_SHOWN_LINE_CHARS: Final = 120


class ChildError(UnoEngineError):
    """The program failed an exchange (it exited, timed out, closed its output, sent a line too
    long); it has been stopped. ``problem`` says what happened, to be prefixed with its name."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


_LIVE: dict[int, Child] = {}
"""This process's programs that have not ended, by pid (and process group id)."""
_starting = 0
"""Programs being started now: :func:`exit_now` waits for them to be known."""
_exit_status: int | None = None


def kill_all() -> None:
    """Kill the process group of every program this process still runs, without waiting: for a
    process about to exit."""
    for pid in list(_LIVE):
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)


def exit_now(status: int) -> None:
    """End this process at once with ``status`` (``os._exit``), the process groups of its programs
    killed: a signal handler's way out (a pool worker told to stop). A program being started
    when it is called is killed too, as soon as it is known."""
    global _exit_status
    if _starting:
        _exit_status = status
        return
    kill_all()
    os._exit(status)


def _forget_inherited() -> None:
    """In a forked process: the programs are the parent's, and so is any start that was under way
    there (a count inherited from it would make :func:`exit_now` wait for a start that never ends
    here, and a pool worker told to stop would block for ever)."""
    global _starting, _exit_status
    _LIVE.clear()
    _starting = 0
    _exit_status = None


atexit.register(kill_all)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_inherited)


def _read_now(fd: int) -> bytes | None:
    """One read of a non-blocking pipe: what it holds (up to a chunk), b"" once it is closed (or
    broken), None when nothing is there yet."""
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


class Child:
    """One running program, its pipes and what is kept of its stderr."""

    def __init__(self, command: Sequence[str], *, max_line: int = MAX_PROGRAM_LINE_BYTES) -> None:
        """Start ``command`` (no shell) in a process group of its own; OSError if it cannot be started."""
        global _starting
        if os.name != "posix":
            raise ChildError("programs are run only on POSIX systems (Linux, macOS, BSD)")
        _starting += 1
        try:
            self.process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, bufsize=0, process_group=0,
                                            preexec_fn=program_preexec())
            _LIVE[self.process.pid] = self
        finally:
            _starting -= 1
            if _exit_status is not None:
                exit_now(_exit_status)
        try:
            self._set_up(max_line)
        except BaseException:  # out of file descriptors, say: the program is not left running
            self._ended = True
            _LIVE.pop(self.process.pid, None)
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
            raise

    def _set_up(self, max_line: int) -> None:
        self.max_line = max_line
        self.owner = os.getpid()
        """The process that started it: a forked copy of this object is not its runner."""
        self.stderr = StderrKeeper()
        self.code: int | None = None
        """The exit status, once the program is over (negative: the signal that ended it)."""
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        self._err = self.process.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):  # Linux 5.3 and later
            self._pidfd = os.pidfd_open(self.process.pid)
        self._selector = selectors.DefaultSelector()
        self._watched: dict[int, int] = {}
        if self._pidfd is not None:
            self._selector.register(self._pidfd, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._scanned = 0
        """How much of the buffer is known to hold no newline."""
        self._out_closed = False
        self._err_closed = False
        self._ended = False

    @property
    def pid(self) -> int:
        return self.process.pid

    # --- exchanges ------------------------------------------------------------------------------
    def send(self, data: bytes, what: str, timeout: float) -> None:
        """Write ``data`` (``what`` names it in errors) within ``timeout`` seconds."""
        self._running(f"before it was sent {what}")
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view):]
                continue
            except BlockingIOError:
                pass
            except OSError:  # its input is closed
                self._input_closed(what)
            if self._exited():
                self._exit_error(f"before it read {what}")
            if self._too_long():
                self._fail(f"sent a line longer than {self.max_line:,} bytes while it was sent {what}")
            if not self._wait(deadline, writing=True):
                self._fail(f"did not read {what} within {timeout:g} s (it stopped reading its input)")

    def receive(self, what: str, timeout: float) -> bytes:
        """The program's next line, newline included, within ``timeout`` seconds (``what`` names
        the request in errors)."""
        self._running(f"before answering {what}")
        deadline = time.monotonic() + timeout
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._too_long():
                self._fail(f"answered {what} with a line longer than {self.max_line:,} bytes")
            if self._exited():
                self._read_all_stdout()  # its last words may be its answer
                line = self._take_line()
                if line is not None:
                    return line
                self._exit_error(f"before answering {what}")
            if self._out_closed:
                self._output_closed(what)
            if not self._wait(deadline, writing=False):
                self._fail(f"sent no answer to {what} within {timeout:g} s")

    def reusable(self) -> bool:
        """Before a program that waited between games gets the next one: is it still running,
        with nothing written on its stdout meanwhile and at most MAX_IDLE_OUTPUT_BYTES on its
        stderr (read and kept as any)? A program that is not has been stopped."""
        if self._ended or self._exited() or self._buffer or self._out_closed:
            self.stop(graceful=False)
            return False
        try:
            wrote = os.read(self._out, 1)
        except BlockingIOError:
            wrote = None
        if wrote is not None or self._read_stderr(MAX_IDLE_OUTPUT_BYTES + 1) > MAX_IDLE_OUTPUT_BYTES:
            self.stop(graceful=False)
            return False
        return True

    # --- the end ----------------------------------------------------------------------------
    def alive(self) -> bool:
        return not self._ended and not self._exited()

    def stop(self, *, graceful: bool = True, bye: bytes = b"") -> None:
        """End the program: with ``graceful``, write ``bye`` (if the pipe takes it at once),
        close its input and give it STOP_GRACE seconds to exit; then kill its process group,
        reap it and close every pipe. Idempotent."""
        stop_all([self], graceful=graceful, bye=bye)

    def forget(self) -> None:
        """In a forked copy of the runner: close this process's copies of the pipes, leaving the
        program to the process that started it."""
        if not self._ended:
            self._ended = True
            _LIVE.pop(self.process.pid, None)
            self._close()

    def stderr_excerpt(self) -> str:
        """What the program wrote on stderr, for a message: ``'; its stderr: first | lines | [...]
        | last'``, escaped and shortened; empty if it wrote nothing."""
        shown = self.stderr.lines()
        return "; its stderr: " + " | ".join(shown) if shown else ""

    def _fail(self, problem: str) -> NoReturn:
        self._end()
        raise ChildError(problem)

    def _exit_error(self, when: str) -> NoReturn:
        self._end()
        raise ChildError(f"exited ({describe_status(self.code)}) {when}")

    def _running(self, when: str) -> None:
        if self._ended:
            raise ChildError(f"was not running {when}")

    def _input_closed(self, what: str) -> NoReturn:
        """A write found its input closed: say whether it exited, after STOP_GRACE at most."""
        if self._wait_exit(STOP_GRACE):
            self._exit_error(f"before it read {what}")
        self._fail(f"closed its input before it read {what}, but was still running; it was stopped")

    def _output_closed(self, what: str) -> NoReturn:
        if self._wait_exit(STOP_GRACE):
            self._exit_error(f"before answering {what}")
        self._fail(f"closed its output before answering {what}, but was still running; it was stopped")

    def _end(self) -> None:
        """Kill the process group, reap the program, keep what is left of its stderr, close all."""
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.process.kill()
        self.code = self.process.wait()
        _LIVE.pop(self.process.pid, None)
        self._read_stderr(_END_DRAIN_BYTES)
        self._close()

    def _close(self) -> None:
        self._selector.close()
        if self._pidfd is not None:
            os.close(self._pidfd)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    # --- waiting and reading ----------------------------------------------------------------------
    def _exited(self) -> bool:
        """Has the program exited? Seen without reaping it, so that its process group id cannot
        be taken by another process before the group is killed."""
        if self._ended:
            return True
        if hasattr(os, "waitid"):
            try:
                return os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
            except ChildProcessError:
                return True
        return self.process.poll() is not None

    def _wait_exit(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the program to exit (reading its output meanwhile)."""
        deadline = time.monotonic() + seconds
        while not self._exited():
            if not self._wait(deadline, writing=False, keep_output=False):
                return False
        return True

    def _wait(self, deadline: float, *, writing: bool, keep_output: bool = True) -> bool:
        """Wait once, until the program can take more input (``writing``), writes something,
        exits, or the deadline passes; read what it wrote. False if the deadline has passed."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        self._watch(self._in, selectors.EVENT_WRITE if writing else 0)
        reading = not self._out_closed and (not keep_output or (not self._has_line() and not self._too_long()))
        self._watch(self._out, selectors.EVENT_READ if reading else 0)
        self._watch(self._err, 0 if self._err_closed else selectors.EVENT_READ)
        wait = remaining if self._pidfd is not None else min(remaining, _EXIT_POLL)
        for key, _events in self._selector.select(wait):
            if key.fd == self._out:
                self._read_stdout(keep_output)
            elif key.fd == self._err:
                self._read_stderr(_CHUNK)
        return True

    def _watch(self, fd: int, events: int) -> None:
        if self._watched.get(fd, 0) == events:
            return
        if events == 0:
            self._selector.unregister(fd)
            del self._watched[fd]
        elif fd in self._watched:
            self._selector.modify(fd, events)
            self._watched[fd] = events
        else:
            self._selector.register(fd, events)
            self._watched[fd] = events

    def _read_stdout(self, keep: bool = True) -> None:
        data = _read_now(self._out)
        if data is None:
            return
        if not data:
            self._out_closed = True
        elif keep:
            self._buffer += data

    def _read_all_stdout(self) -> None:
        """What is in the pipe now, up to a line and a read over the limit."""
        while not self._out_closed and not self._has_line() and not self._too_long():
            before = len(self._buffer)
            self._read_stdout()
            if len(self._buffer) == before:
                return

    def _read_stderr(self, most: int) -> int:
        """Read what is in the stderr pipe now, up to about ``most`` bytes; how much was read."""
        read = 0
        while not self._err_closed and read < most:
            data = _read_now(self._err)
            if data is None:
                break
            if not data:
                self._err_closed = True
                break
            read += len(data)
            self.stderr.add(data)
        return read

    def _has_line(self) -> bool:
        found = self._buffer.find(b"\n", self._scanned, self.max_line)
        if found < 0:
            self._scanned = min(len(self._buffer), self.max_line)
            return False
        return True

    def _too_long(self) -> bool:
        return len(self._buffer) >= self.max_line and not self._has_line()

    def _take_line(self) -> bytes | None:
        if not self._has_line():
            return None
        end = self._buffer.index(b"\n") + 1
        line = bytes(self._buffer[:end])
        del self._buffer[:end]
        self._scanned = 0
        return line


def stop_all(children: Iterable[Child], *, graceful: bool = True, bye: bytes = b"") -> None:
    """Stop several programs, sharing one grace period (see :meth:`Child.stop`)."""
    running = [c for c in children if not c._ended]
    if graceful:
        for child in running:
            if bye:
                with contextlib.suppress(OSError):
                    os.write(child._in, bye)
            with contextlib.suppress(OSError):
                assert child.process.stdin is not None
                child._watch(child._in, 0)
                child.process.stdin.close()
        deadline = time.monotonic() + STOP_GRACE
        for child in running:
            child._wait_exit(deadline - time.monotonic())
    for child in running:
        child._end()


def describe_status(code: int | None) -> str:
    """``code 3``, or ``signal 9`` for a program a signal ended."""
    if code is not None and code < 0:
        return f"signal {-code}"
    return f"code {code}"


class StderrKeeper:
    """The head and the tail of what a program wrote on stderr, in bytes, and how much there was."""

    def __init__(self, head: int = MAX_STDERR_HEAD_BYTES, tail: int = MAX_STDERR_TAIL_BYTES) -> None:
        self.head_limit, self.tail_limit = head, tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data[-self.tail_limit:]
            if len(self.tail) > self.tail_limit:
                del self.tail[:-self.tail_limit]

    def lines(self) -> list[str]:
        """Its first lines, a marker of what was cut, its last lines: each escaped and shortened."""
        cut = self.total - len(self.head) - len(self.tail)
        if cut == 0:
            every = _lines(bytes(self.head + self.tail))
            first, last = every[:_SHOWN_HEAD_LINES], every[_SHOWN_HEAD_LINES:][-_SHOWN_TAIL_LINES:]
            hidden = len(every) - len(first) - len(last)
        else:
            head, tail = _lines(bytes(self.head)), _lines(bytes(self.tail))
            first, last = head[:_SHOWN_HEAD_LINES], tail[-_SHOWN_TAIL_LINES:]
            hidden = len(head) - len(first) + len(tail) - len(last)
        parts = [f"{hidden:,} lines"] if hidden else []
        if cut:
            parts.append(f"{cut:,} bytes")
        marker = [f"[... {' and '.join(parts)} cut ...]"] if parts else []
        return [*first, *marker, *last]


def _lines(data: bytes) -> list[str]:
    return [printable(line) for line in data.decode("utf-8", "replace").splitlines() if line.strip()]


def printable(text: str, limit: int = _SHOWN_LINE_CHARS) -> str:
    """``text`` safe to print: at most ``limit`` characters (and its length if longer), every
    control character, terminal escape or invisible formatting character written as an escape."""
    more = f"... ({len(text):,} characters)" if len(text) > limit else ""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit]) + more
