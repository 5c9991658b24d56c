"""A bot that is another program, spoken to over the bot wire protocol (docs/protocol.md).

:class:`ProgramBot` starts the program on its first decision, shakes hands, and then sends each
decision (the player's view and legal moves, a seed, the time budget) as one JSON line and reads
one line back. The program sees only what the view document holds: this process boundary is the
way to run bots you do not trust. A program that does not answer in time, exits, or answers
something that is not one of its legal moves stops the game with a :class:`~.turns.BotError`
naming the bot, the seat and what it sent.

By name, wherever a bot name is taken (``unoengine simulate --bots``, :func:`~.base.make_bot`):
``program:<command line>``, e.g. ``program:node bot.mjs``; the command is split like a shell
would (``shlex``) and run without a shell.
"""

from __future__ import annotations

import atexit
import collections
import queue
import random
import shlex
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO, Final

from ..engine.limits import MAX_TIMEOUT_SECONDS, is_timeout
from ..engine.moves import Move
from ..engine.view import PlayerView
from ..formats import protocol
from .base import register_bot_kind
from .turns import BotError

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a program has for each decision (and for its handshake) unless told otherwise."""
_STDERR_LINES: Final = 5


class _Program:
    """One running bot program: its pipes, its answers as lines (read by a thread, so a wait can
    time out), the last lines of its stderr, and its decision count."""

    def __init__(self, command: tuple[str, ...]) -> None:
        self.command = command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self.decisions = 0
        self.name: str | None = None
        self.events = False
        """Did it ask, in its ``ready``, to be told every move (``event`` messages)?"""
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=_pump_lines, args=(self.process.stdout, self.lines), daemon=True).start()
        self.stderr_pump = threading.Thread(
            target=keep_stderr_tail, args=(self.process.stderr, self.stderr), daemon=True)
        self.stderr_pump.start()

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """Say ``bye`` and wait a second for the program to exit, then kill it."""
        process = self.process
        try:
            assert process.stdin is not None
            process.stdin.write(protocol.bye().encode())
            process.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


_IDLE: dict[tuple[str, ...], list[_Program]] = {}
"""Programs between games, by command: the next ProgramBot of the same command takes one instead
of starting a process (a ``game`` message begins each game), so a run starts each program once
per seat and worker, not once per game."""
_MAX_IDLE: Final = 16


@atexit.register
def _stop_idle() -> None:
    for programs in _IDLE.values():
        for program in programs:
            program.stop()
    _IDLE.clear()


class ProgramBot:
    """A bot run as a separate program. Each game gets a program of its own; between games the
    program waits for the next one (``game_over``, then ``game``), and it is stopped with ``bye``
    when the process running the games exits."""

    def __init__(self, command: Sequence[str], *, name: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        if isinstance(command, str) or not command or not all(isinstance(a, str) and a for a in command):
            raise BotError(f"program bot: command: expected a non-empty list of arguments, got {command!r}")
        if not is_timeout(timeout):
            raise BotError(f"program bot: timeout: expected seconds in (0, {MAX_TIMEOUT_SECONDS}], got {timeout!r}")
        self.command = tuple(command)
        self.timeout = float(timeout)
        self.name = name or f"program:{shlex.join(self.command)}"
        self.program_name: str | None = None
        """The name the program gave in its ``ready`` line."""
        self._program: _Program | None = None
        self._seeds: random.Random | None = None
        self._told: list[str] = []
        """``event`` lines not sent yet: they go just before the next decision (or the game's end)."""

    # --- the bot protocol -------------------------------------------------------------------
    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        seat = view.player
        state = None
        if self._program is None:
            self._start(view)
            # The runner's random stream for this seat, once: a Python bot program draws from
            # it exactly what it would in-process. The seeds for other programs come from a
            # copy, so the runner's stream itself is left alone (the bot's side uses it).
            state = rng.getstate()[1]
            self._seeds = random.Random()
            self._seeds.setstate(rng.getstate())
        program = self._program
        assert program is not None and self._seeds is not None
        program.decisions += 1
        ident = program.decisions
        line = protocol.decide(ident, view, self._seeds.getrandbits(53), int(self.timeout * 1000), state)
        told = "".join(self._told) if program.events else ""
        self._told = []
        self._send(told + line, seat)
        answer = self._receive(seat, f"decision {ident}")
        try:
            chosen = protocol.read_move(answer, ident, view)
        except protocol.ProtocolError as exc:
            raise self._error(seat, str(exc)) from None
        if chosen is None and view.my_turn:
            raise self._error(seat, f"answered no move on its own turn (decision {ident})")
        return chosen

    def observe(self, move: Move) -> None:
        """A move was made at the table: kept for the program if it asked for events (before its
        first decision of the game, when that is not known yet, kept in any case)."""
        if self._program is None or self._program.events:
            self._told.append(protocol.event(move))

    def close(self) -> None:
        """The game is over: the program waits for the next game (``game_over``), or is stopped."""
        program, self._program = self._program, None
        if program is None:
            return
        idle = _IDLE.setdefault(self.command, [])
        if program.alive() and len(idle) < _MAX_IDLE:
            try:
                assert program.process.stdin is not None
                program.process.stdin.write(("".join(self._told) + protocol.game_over()).encode())
                self._told = []
                program.process.stdin.flush()
                idle.append(program)
                return
            except (BrokenPipeError, OSError):
                pass
        program.stop()

    def __del__(self) -> None:
        if getattr(self, "_program", None) is not None:
            self.close()

    # --- the process ---------------------------------------------------------------------------
    def _start(self, view: PlayerView) -> None:
        idle = _IDLE.get(self.command, [])
        while idle:
            program = idle.pop()
            if program.alive():
                self._program = program
                break
            program.stop()
        else:
            try:
                self._program = _Program(self.command)
            except OSError as exc:
                raise self._error(view.player, f"could not be started: {exc.strerror or exc}") from None
            self._send(protocol.hello(), view.player)
            try:
                ready = self._receive(view.player, "the handshake")
                self._program.name, self._program.events = protocol.read_ready_message(ready)
            except protocol.ProtocolError as exc:
                raise self._error(view.player, str(exc)) from None
        self.program_name = self._program.name
        self._send(protocol.game(view.player, view.num_players, view.profile), view.player)

    def _send(self, line: str, seat: int) -> None:
        program = self._program
        assert program is not None and program.process.stdin is not None
        try:
            program.process.stdin.write(line.encode())
            program.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._error(seat, "exited (its stdin is closed)") from None

    def _receive(self, seat: int, what: str) -> bytes:
        program = self._program
        assert program is not None
        try:
            line = program.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._error(seat, f"sent no answer to {what} within {self.timeout:g} s") from None
        if line == b"":
            try:
                code: int | None = program.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
            raise self._error(seat, f"exited (code {code}) before answering {what}")
        return line

    def _error(self, seat: int, problem: str) -> BotError:
        """A BotError naming the bot and the seat (the runner adds the game); the program is stopped."""
        program, self._program = self._program, None
        tail = ""
        if program is not None:
            if not program.alive():
                program.stderr_pump.join(timeout=1.0)  # what it wrote on stderr before it exited
            if program.stderr:
                tail = "; its stderr ended: " + " | ".join(program.stderr)
            program.stop()
        name = self.name if len(self.name) <= 80 else self.name[:77] + "..."
        return BotError(f"bot {name!r} at seat {seat}: {problem}{tail}")


def _pump_lines(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Move the program's stdout lines into ``lines`` (b"" at the end), so reads can time out."""
    limit = protocol.MAX_LINE_BYTES + 1
    try:
        while True:
            line = stream.readline(limit)
            lines.put(line)
            if not line:
                return
            if len(line) >= limit:
                while line and not line.endswith(b"\n"):  # drop the rest of an over-long line
                    line = stream.readline(limit)
    except (OSError, ValueError):
        lines.put(b"")


def keep_stderr_tail(stream: IO[bytes], tail: collections.deque[str]) -> None:
    """Keep the last few lines the program wrote on stderr, for error messages."""
    try:
        for raw in stream:
            text = raw.decode("utf-8", "replace").rstrip()
            if text:
                tail.append(text[:200])
    except (OSError, ValueError):
        return


SERVER_MODULE: Final = "unoengine.tools.bot_server"


def isolated(name: str) -> str:
    """The bot name that runs bot ``name`` in a process of its own through the shipped server
    (``python -m unoengine.tools.bot_server NAME``): the isolated mode of ``simulate`` and
    ``tournament``. A ``program:`` name is already isolated. The bot must be one the server
    knows: a shipped bot, or one registered when ``unoengine.bots`` is imported."""
    if name.startswith("program:"):
        return name
    return "program:" + shlex.join([sys.executable, "-m", SERVER_MODULE, name])


def program_bot(command_line: str) -> ProgramBot:
    """The bot of ``program:<command line>``."""
    try:
        command = shlex.split(command_line)
    except ValueError as exc:
        raise BotError(f"program bot: command {command_line!r}: {exc}") from None
    return ProgramBot(command)


register_bot_kind("program", program_bot)
