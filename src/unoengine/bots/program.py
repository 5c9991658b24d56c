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

import collections
import queue
import random
import shlex
import subprocess
import threading
from collections.abc import Sequence
from typing import IO, Final

from ..engine.moves import Move
from ..engine.view import PlayerView
from ..formats import protocol
from .base import register_bot_kind
from .turns import BotError

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a program has for each decision (and for its handshake) unless told otherwise."""
_STDERR_LINES: Final = 5


class ProgramBot:
    """A bot run as a separate program (one process per bot, so per seat and game)."""

    def __init__(self, command: Sequence[str], *, name: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        if isinstance(command, str) or not command or not all(isinstance(a, str) and a for a in command):
            raise BotError(f"program bot: command: expected a non-empty list of arguments, got {command!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 3600:
            raise BotError(f"program bot: timeout: expected seconds in (0, 3600], got {timeout!r}")
        self.command = tuple(command)
        self.timeout = float(timeout)
        self.name = name or f"program:{shlex.join(self.command)}"
        self.program_name: str | None = None
        """The name the program gave in its ``ready`` line."""
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._stderr_pump: threading.Thread | None = None
        self._decisions = 0
        self._seeds: random.Random | None = None

    # --- the bot protocol -------------------------------------------------------------------
    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        seat = view.player
        state = None
        if self._process is None:
            self._start(view)
            # The runner's random stream for this seat, once: a Python bot program draws from
            # it exactly what it would in-process. The seeds for other programs come from a
            # copy, so the runner's stream itself is left alone (the bot's side uses it).
            state = rng.getstate()[1]
            self._seeds = random.Random()
            self._seeds.setstate(rng.getstate())
        assert self._seeds is not None
        self._decisions += 1
        ident = self._decisions
        line = protocol.decide(ident, view, self._seeds.getrandbits(53), int(self.timeout * 1000), state)
        self._send(line, seat)
        answer = self._receive(seat, f"decision {ident}")
        try:
            chosen = protocol.read_move(answer, ident, view)
        except protocol.ProtocolError as exc:
            raise self._error(seat, str(exc)) from None
        if chosen is None and view.my_turn:
            raise self._error(seat, f"answered no move on its own turn (decision {ident})")
        return chosen

    def close(self) -> None:
        """Say ``bye`` and stop the program (killed if it does not exit within a second)."""
        process, self._process = self._process, None
        if process is None:
            return
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

    def __del__(self) -> None:
        if getattr(self, "_process", None) is not None:
            self.close()

    # --- the process ---------------------------------------------------------------------------
    def _start(self, view: PlayerView) -> None:
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise self._error(view.player, f"could not be started: {exc.strerror or exc}") from None
        self._process = process
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=_pump_lines, args=(process.stdout, self._lines), daemon=True).start()
        self._stderr_pump = threading.Thread(target=_pump_stderr, args=(process.stderr, self._stderr), daemon=True)
        self._stderr_pump.start()
        self._send(protocol.hello(), view.player)
        try:
            self.program_name = protocol.read_ready(self._receive(view.player, "the handshake"))
        except protocol.ProtocolError as exc:
            raise self._error(view.player, str(exc)) from None
        self._send(protocol.game(view.player, view.num_players, view.profile), view.player)

    def _send(self, line: str, seat: int) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(line.encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._error(seat, "exited (its stdin is closed)") from None

    def _receive(self, seat: int, what: str) -> bytes:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._error(seat, f"sent no answer to {what} within {self.timeout:g} s") from None
        if line == b"":
            process = self._process
            code = process.poll() if process is not None else None
            if code is None and process is not None:
                try:
                    code = process.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    code = None
            raise self._error(seat, f"exited (code {code}) before answering {what}")
        return line

    def _error(self, seat: int, problem: str) -> BotError:
        """A BotError naming the bot and the seat (the runner adds the game); the program is stopped."""
        process, pump = self._process, self._stderr_pump
        if process is not None and pump is not None and process.poll() is not None:
            pump.join(timeout=1.0)  # what it wrote on stderr before it exited
        tail = "; its stderr ended: " + " | ".join(self._stderr) if self._stderr else ""
        self.close()
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


def _pump_stderr(stream: IO[bytes], tail: collections.deque[str]) -> None:
    """Keep the last few lines the program wrote on stderr, for error messages."""
    try:
        for raw in stream:
            text = raw.decode("utf-8", "replace").rstrip()
            if text:
                tail.append(text[:200])
    except (OSError, ValueError):
        return


def program_bot(command_line: str) -> ProgramBot:
    """The bot of ``program:<command line>``."""
    try:
        command = shlex.split(command_line)
    except ValueError as exc:
        raise BotError(f"program bot: command {command_line!r}: {exc}") from None
    return ProgramBot(command)


register_bot_kind("program", program_bot)
