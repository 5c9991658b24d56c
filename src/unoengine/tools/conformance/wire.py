"""The conformance wire protocol: an adapter that is a program in any language, over JSON lines.

:class:`WireAdapter` starts the program (no shell), shakes hands (``hello`` / ``ready``, which
names the program's capabilities), then turns each adapter call into one request line and
reads one answer line, each write and each answer within the timeout and every line of bounded
length (bots/child.py runs the program: its own process group, bounded reads, no threads). A
program that dies, times out or answers out of protocol fails the call with a :class:`WireError`
(that scenario is errored) and is started afresh for the next scenario. docs/conformance.md
gives every message.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

from ...bots.child import Child, ChildError
from ...engine.errors import SerializationError, UnoEngineError
from ...engine.limits import MAX_PROGRAM_LINE_BYTES, MAX_TIMEOUT_SECONDS, MIN_HANDSHAKE_SECONDS, is_timeout
from ...formats.protocol import quote
from ...formats.serialize.parsing import parse_json
from .adapter import PROTOCOL_VERSION, AdapterFailure, Rejected, Unsupported
from .capabilities import parse_capabilities, parse_profiles

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds the program has to take each request and to answer it (and the handshake)."""
MAX_LINE_BYTES: Final = MAX_PROGRAM_LINE_BYTES
"""The longest line either side may send (a scenario or a report is a few kilobytes)."""
HANDSHAKE_TIMEOUT: Final = MIN_HANDSHAKE_SECONDS
"""The least time a program has to start and answer ``hello`` (a program starting is slow)."""
ANSWERS: Final = {"start": "started", "play": "played", "observe": "observed", "legal": "legal_moves"}
"""The answer each request expects (besides ``rejected``, ``unsupported`` and ``error``)."""


class WireError(AdapterFailure):
    """The program broke the protocol: it could not be started, exited, timed out, sent a line
    that is too long or not a message, or an answer that does not fit the request."""


class RemoteError(AdapterFailure):
    """The program reported an error of its own (an ``error`` answer); its traceback lines, if
    it sent any, are in ``remote_traceback``."""

    def __init__(self, message: str, remote_traceback: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.remote_traceback = tuple(remote_traceback)


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as a line."""
    return (json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n").encode()


def decode(line: bytes, limit: int = MAX_LINE_BYTES) -> dict[str, Any]:
    """One line as a message: a JSON object with a string ``type``; :class:`WireError` otherwise."""
    if len(line) > limit or (len(line) == limit and not line.endswith(b"\n")):
        raise WireError(f"a line longer than {limit:,} bytes")
    try:
        message = parse_json(line.decode("utf-8"), "wire message")
    except (UnicodeDecodeError, SerializationError) as exc:
        raise WireError(f"a line that is not a JSON message: {quote(line)} ({exc})") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise WireError(f"a line that is not a JSON object with a string \"type\": {quote(line)}")
    return message


class WireAdapter:
    """An adapter that is a program: ``WireAdapter("node my_adapter.mjs")`` (split like a shell
    would, run without one). The handshake happens here, so a program that cannot start or
    claims an unknown capability is refused at once (:class:`WireError`, :class:`~.capabilities.CapabilityError`)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT,
                 max_line: int = MAX_LINE_BYTES) -> None:
        if isinstance(command, str):
            try:
                command = shlex.split(command)
            except ValueError as exc:
                raise WireError(f"--engine-cmd {command[:80]!r}: {exc}") from None
        if not command or not all(isinstance(a, str) and a for a in command):
            raise WireError(f"--engine-cmd: expected a command line, got {command!r}")
        if not is_timeout(timeout):
            raise WireError(f"timeout: expected seconds in (0, {MAX_TIMEOUT_SECONDS}], got {timeout!r}")
        self.command = tuple(command)
        self.timeout = float(timeout)
        self.max_line = max_line
        self._program: Child | None = None
        self._ids = 0
        self._games = 0
        self.name = ""
        self.profiles: frozenset[str] | None = None
        """The profiles the program's ``ready`` declares (None when it declares none)."""
        self.capabilities = self._connect()
        self.restarts = 0
        """How many times the program was started again after it failed."""
        self.stop_reason = ""
        """Why no more scenarios may run with this program: set when, started again, it claimed
        other capabilities than at first (each later scenario would restart it again, and a run
        checked against two sets of claims means nothing). The runner stops there (runner.run)."""

    def _connect(self) -> frozenset[str]:
        """Start the program and shake hands; what its ``ready`` claims."""
        try:
            self._program = Child(self.command, max_line=self.max_line)
        except (OSError, ChildError) as exc:
            problem = exc.problem if isinstance(exc, ChildError) else exc.strerror or exc
            raise WireError(f"the program {shlex.join(self.command)!r} could not be started: {problem}") from None
        wait = max(self.timeout, HANDSHAKE_TIMEOUT)
        self._send(encode({"type": "hello", "protocol": PROTOCOL_VERSION}), "hello", wait)
        ready = self._receive("the handshake (hello)", wait)
        if ready.get("type") != "ready" or ready.get("protocol") != PROTOCOL_VERSION:
            self._fail(f"expected {{\"type\": \"ready\", \"protocol\": {PROTOCOL_VERSION}, ...}} "
                       f"in answer to hello, got {quote(json.dumps(ready))}")
        name = ready.get("name", "")
        self.name = name if isinstance(name, str) else ""
        try:
            if "profiles" in ready:
                self.profiles = parse_profiles(ready["profiles"], "ready.profiles")
            return parse_capabilities(ready.get("capabilities"), "ready.capabilities")
        except UnoEngineError:
            self.close()
            raise

    def _fail(self, problem: str) -> NoReturn:
        """Stop the program (the next scenario starts it again) and raise the problem, with what
        the program wrote on stderr."""
        program, self._program = self._program, None
        said = ""
        if program is not None:
            program.stop(graceful=False)  # it broke the protocol: no second chance
            said = program.stderr_excerpt()
        raise WireError(f"program {shlex.join(self.command)[:80]!r}: {problem}{said}")

    def _send(self, line: bytes, what: str, timeout: float | None = None) -> None:
        program = self._program
        assert program is not None
        try:
            program.send(line, what, self.timeout if timeout is None else timeout)
        except ChildError as exc:
            self._fail(exc.problem)

    def _receive(self, what: str, timeout: float | None = None) -> dict[str, Any]:
        program = self._program
        assert program is not None
        try:
            line = program.receive(what, self.timeout if timeout is None else timeout)
        except ChildError as exc:
            self._fail(exc.problem)
        try:
            return decode(line, self.max_line)
        except WireError as exc:
            self._fail(f"answered {what} with {exc}")

    def _request(self, kind: str, **fields: Any) -> dict[str, Any]:
        if self.stop_reason:
            raise WireError(self.stop_reason)
        if self._program is None or not self._program.alive():
            if kind != "start":
                raise WireError(f"program {shlex.join(self.command)[:80]!r} is not running")
            if self._program is not None:
                self._program.stop(bye=encode({"type": "bye"}))
            self.restarts += 1
            claimed = self._connect()
            if claimed != self.capabilities:
                self.stop_reason = (f"program {shlex.join(self.command)[:80]!r} claimed other capabilities after it "
                                    f"was started again ({_changed(self.capabilities, claimed)})")
                self._fail("claimed other capabilities after it was started again")
        assert self._program is not None
        self._ids += 1
        ident = self._ids
        line = encode({"type": kind, "id": ident, **fields})
        if len(line) > self.max_line:
            raise WireError(f"the {kind} request (id {ident}) would be a line of {len(line):,} bytes, longer than "
                            f"{self.max_line:,}")
        what = f"{kind} (id {ident})"
        self._send(line, what)
        answer = self._receive(what)
        if answer.get("id") != ident:
            self._fail(f"answered {what} with id {answer.get('id')!r}")
        reply = answer["type"]
        if reply == "unsupported":
            raise Unsupported(_text(answer.get("reason")))
        if reply == "error":
            trace = answer.get("traceback", [])
            raise RemoteError(f"the program reported: {_text(answer.get('message')) or 'an error'}",
                              [_text(t) for t in trace][:8] if isinstance(trace, list) else [])
        if reply == "rejected" and kind in ("start", "play"):
            rule, reason = answer.get("rule", ""), answer.get("reason", "")
            if not isinstance(rule, str) or not isinstance(reason, str):
                self._fail(f"answered {what} with a rejected whose rule or reason is not a string")
            raise Rejected(rule, reason)
        if reply != ANSWERS[kind]:
            self._fail(f"answered {what} with {reply!r}, expected {ANSWERS[kind]!r}")
        return answer

    # --- the adapter calls -------------------------------------------------------------------
    def start(self, scenario: Mapping[str, Any]) -> int:
        self._games += 1
        game = self._games
        self._request("start", game=game, scenario=scenario)
        return game

    def play(self, game: int, move: str) -> tuple[int, list[dict[str, Any]]]:
        events = self._request("play", game=game, move=move).get("events")
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            self._fail(f"answered play of {move!r} with events that are not a list of objects")
        assert isinstance(events, list)
        return game, events

    def observe(self, game: int) -> dict[str, Any]:
        facts = self._request("observe", game=game).get("facts")
        if not isinstance(facts, dict):
            self._fail("answered observe with facts that are not an object")
        assert isinstance(facts, dict)
        return facts

    def legal(self, game: int, player: int) -> list[str]:
        moves = self._request("legal", game=game, player=player).get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            self._fail("answered legal with moves that are not a list of strings")
        assert isinstance(moves, list)
        return moves

    def finish(self, game: int) -> None:
        """The scenario is over: the program may forget the game (``end``, no answer)."""
        program = self._program
        if program is not None and program.alive():
            try:
                program.send(encode({"type": "end", "game": game}), "end", self.timeout)
            except ChildError:  # it is stopped; the next scenario starts it again
                self._program = None

    def close(self) -> None:
        """Say ``bye`` and stop the program (and its process group)."""
        program, self._program = self._program, None
        if program is not None:
            program.stop(bye=encode({"type": "bye"}))

    def __enter__(self) -> WireAdapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _changed(before: frozenset[str], after: frozenset[str]) -> str:
    """What a second claim adds and drops, shortened."""
    parts = [f"{label} {', '.join(sorted(names)[:4])}{', ...' if len(names) > 4 else ''}"
             for label, names in (("now also", after - before), ("no longer", before - after)) if names]
    return "; ".join(parts)


def _text(value: Any) -> str:
    return value[:500] if isinstance(value, str) else ""
