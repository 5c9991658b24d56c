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
import multiprocessing.util
import os
import random
import shlex
import sys
from collections.abc import Iterable, Sequence
from typing import Final

from ..engine.limits import MAX_TIMEOUT_SECONDS, MIN_HANDSHAKE_SECONDS, is_timeout
from ..engine.moves import Move
from ..engine.view import PlayerView
from ..formats import protocol
from .base import register_bot_kind
from .child import Child, ChildError, stop_all
from .turns import BotError

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a program has for each write to it and each answer unless told otherwise
(``--bot-timeout``); its handshake has at least MIN_HANDSHAKE_SECONDS."""


class _Program:
    """One running bot program (bots/child.py, every exchange bounded), what its ``ready`` said,
    and its decision count."""

    def __init__(self, command: tuple[str, ...]) -> None:
        self.child = Child(command, max_line=protocol.MAX_LINE_BYTES)
        self.decisions = 0
        self.name: str | None = None
        self.events = False
        """Did it ask, in its ``ready``, to be told every move (``event`` messages)?"""
        self.settled = False
        """Is every exchange begun with it over? One cut short (Ctrl-C or another stop signal in
        the middle of it) leaves a line half written or an answer to come: not to be reused."""


_IDLE: dict[tuple[str, ...], list[_Program]] = {}
"""Programs between games, by command: the next ProgramBot of the same command takes one instead
of starting a process (a ``game`` message begins each game), so a run starts each program once
per seat and worker, not once per game. Nobody reads an idle program's output: what it writes
waits in its pipe, which stops it when full, and is looked at before it is given a game."""
_MAX_IDLE: Final = 16
_STOPPED_AT_EXIT_IN = 0
"""The process whose exit stops the idle programs (a worker process ends through multiprocessing,
which runs its finalizers but not atexit)."""


@atexit.register
def _stop_idle() -> None:
    programs = [p for idle in _IDLE.values() for p in idle]
    _IDLE.clear()
    stop_all([p.child for p in programs if p.child.owner == os.getpid()], bye=protocol.bye().encode())


def _forget_inherited() -> None:
    """In a forked process: the idle programs are the parent's; close this copy of their pipes."""
    for idle in _IDLE.values():
        for program in idle:
            program.child.forget()
    _IDLE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_inherited)


def _keep_idle(command: tuple[str, ...], program: _Program) -> None:
    global _STOPPED_AT_EXIT_IN
    if os.getpid() != _STOPPED_AT_EXIT_IN:
        _STOPPED_AT_EXIT_IN = os.getpid()
        multiprocessing.util.Finalize(None, _stop_idle, exitpriority=0)
    _IDLE.setdefault(command, []).append(program)


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
        """Seconds for each write to the program and each answer (``decide``'s ``time_ms``)."""
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
        program.settled = False
        program.decisions += 1
        ident = program.decisions
        line = protocol.decide(ident, view, self._seeds.getrandbits(53), int(self.timeout * 1000), state)
        told = "".join(self._told) if program.events else ""
        self._told = []
        self._send(told + line, seat, f"decision {ident}")
        answer = self._receive(seat, f"decision {ident}")
        try:
            chosen = protocol.read_move(answer, ident, view)
        except protocol.ProtocolError as exc:
            raise self._error(seat, str(exc)) from None
        if chosen is None and view.my_turn:
            raise self._error(seat, f"answered no move on its own turn (decision {ident})")
        program.settled = True
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
        told, self._told = "".join(self._told), []
        if program.settled and program.child.alive() and len(_IDLE.get(self.command, ())) < _MAX_IDLE:
            try:
                program.child.send((told + protocol.game_over()).encode(), "game_over", self.timeout)
            except ChildError:
                return  # it is stopped
            _keep_idle(self.command, program)
            return
        program.child.stop(bye=protocol.bye().encode())

    def __del__(self) -> None:
        if getattr(self, "_program", None) is not None:
            self.close()

    # --- the process ---------------------------------------------------------------------------
    def _start(self, view: PlayerView) -> None:
        idle = _IDLE.get(self.command, [])
        while idle:
            program = idle.pop()
            if program.child.reusable():  # a program that is not is stopped
                self._program = program
                program.settled = False
                break
        else:
            self._launch(view.player)
        assert self._program is not None
        self.program_name = self._program.name
        self._send(protocol.game(view.player, view.num_players, view.profile), view.player, "the game message")
        self._program.settled = True

    def _launch(self, seat: int) -> None:
        """Start a new program and shake hands (``hello``, then its ``ready``)."""
        try:
            self._program = _Program(self.command)
        except OSError as exc:
            raise self._error(seat, f"could not be started: {exc.strerror or exc}") from None
        except ChildError as exc:  # not a POSIX system
            raise self._error(seat, f"could not be started: {exc.problem}") from None
        wait = max(self.timeout, MIN_HANDSHAKE_SECONDS)  # starting is slow; --bot-timeout is for moves
        self._send(protocol.hello(), seat, "hello", wait)
        try:
            ready = self._receive(seat, "the handshake", wait)
            self._program.name, self._program.events = protocol.read_ready_message(ready)
        except protocol.ProtocolError as exc:
            raise self._error(seat, str(exc)) from None

    def check_start(self, seat: int, *, keep: bool = True) -> None:
        """Start the program and read its handshake now: a program that cannot start or shake
        hands is a BotError naming the bot and ``seat`` before any game (rather than a failed
        first game, or every game of a ``--keep-going`` run). With ``keep`` the program waits
        for this process's first game of this command (and nothing is started when one already
        waits); else it is stopped at once (the games are played in other processes)."""
        if keep and _IDLE.get(self.command):
            return
        self._launch(seat)
        program, self._program = self._program, None
        assert program is not None
        if keep:
            _keep_idle(self.command, program)
        else:
            program.child.stop(bye=protocol.bye().encode())

    def _send(self, line: str, seat: int, what: str, timeout: float | None = None) -> None:
        program = self._program
        assert program is not None
        try:
            program.child.send(line.encode(), what, self.timeout if timeout is None else timeout)
        except ChildError as exc:
            raise self._error(seat, exc.problem) from None

    def _receive(self, seat: int, what: str, timeout: float | None = None) -> bytes:
        program = self._program
        assert program is not None
        try:
            return program.child.receive(what, self.timeout if timeout is None else timeout)
        except ChildError as exc:
            raise self._error(seat, exc.problem) from None

    def _error(self, seat: int, problem: str) -> BotError:
        """A BotError naming the bot and the seat (the runner adds the game), with the program's
        stderr; the program is stopped."""
        program, self._program = self._program, None
        said = ""
        if program is not None:
            program.child.stop(graceful=False)
            said = program.child.stderr_excerpt()
        name = self.name if len(self.name) <= 80 else self.name[:77] + "..."
        return BotError(f"bot {name!r} at seat {seat}: {problem}{said}")


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


def check_programs(seatings: Iterable[Sequence[str]], timeout: float | None = None, *, keep: bool = True) -> None:
    """Start every ``program:`` bot of ``seatings`` once (the first seat of each name) and read its
    handshake, before a run plays its first game; ``timeout`` is the run's ``bot_timeout``.
    With ``keep`` (the games are played in this process) the programs wait for the first games,
    else they are stopped at once (ProgramBot.check_start)."""
    seen: set[str] = set()
    for seating in seatings:
        for seat, name in enumerate(seating):
            if name.startswith("program:") and name not in seen:
                seen.add(name)
                bot = program_bot(name.partition(":")[2])
                if timeout is not None:
                    bot.timeout = float(timeout)
                bot.check_start(seat, keep=keep)


register_bot_kind("program", program_bot)
