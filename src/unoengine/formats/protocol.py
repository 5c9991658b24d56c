"""The bot wire protocol (docs/protocol.md): JSON lines between a game runner and a bot program.

A bot can be any program that reads one JSON object per line on stdin and answers one per line
on stdout. This module builds the runner's messages and reads both sides' messages; it does no
I/O (:mod:`unoengine.bots.program` runs a program, :mod:`unoengine.tools.bot_server` serves a
registered bot). Views go as the view documents of :mod:`.serialize`, moves in move notation
(:mod:`.notation`).

Runner to bot: ``hello`` (once), ``game`` (a game begins: seat, players, profile), ``decide``
(the view, the legal moves, a seed, the time budget), ``game_over``, ``bye`` (the last line).
Bot to runner: ``ready`` (the answer to ``hello``: protocol version, bot name), then one ``move``
per ``decide``, with the same ``id``: a move in notation, or null to let an out-of-turn moment pass.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import attrs

from ..engine.errors import NotationError, SerializationError, UnoEngineError
from ..engine.limits import MAX_PROGRAM_LINE_BYTES
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.view import PlayerView
from .notation import format_move, parse_move
from .serialize import from_json, to_json

PROTOCOL_VERSION: Final = 1
MAX_LINE_BYTES: Final = MAX_PROGRAM_LINE_BYTES
"""The longest line either side may send (a 10-player view document is about 3 KB)."""
QUOTE_CHARS: Final = 120
"""How much of a bad line an error quotes."""


class ProtocolError(UnoEngineError):
    """A line that is not a message of this protocol: names the message and the problem."""


def quote(text: str | bytes) -> str:
    """A bounded quote of what the other side sent, for error messages."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text.rstrip("\n")
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text):,} characters)"


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n"


# --- runner to bot -------------------------------------------------------------------------
def hello() -> str:
    return _line({"type": "hello", "protocol": PROTOCOL_VERSION})


def game(seat: int, players: int, profile: Profile) -> str:
    return _line({"type": "game", "seat": seat, "players": players, "profile": to_json(profile)})


def decide(ident: int, view: PlayerView, seed: int, time_ms: int, rng_state: Sequence[int] | None = None) -> str:
    """One decision: the player's view (its legal moves included), a seed for the bot's randomness,
    and the time it has. ``rng_state``, for a Python bot only: the state of the runner's
    ``random.Random`` for this seat, sent once per game so that the bot draws exactly what it would
    in-process (docs/protocol.md, determinism)."""
    message: dict[str, Any] = {
        "type": "decide", "id": ident, "view": to_json(view),
        "legal": [format_move(m) for m in view.legal_moves],
        "out_of_turn": not view.my_turn,  # then null (no move) is an answer
        "seed": seed, "time_ms": time_ms,
    }
    if rng_state is not None:
        message["rng_state"] = list(rng_state)
    return _line(message)


def event(made: Move) -> str:
    """A move just made at the table (any seat's), for a bot that asked for events in ``ready``."""
    return _line({"type": "event", "move": format_move(made)})


def read_event(message: dict[str, Any]) -> Move:
    """The move of an ``event`` message (already read with :func:`read_any`)."""
    text = message.get("move")
    if not isinstance(text, str):
        raise ProtocolError(f"event: move: expected a move in notation, got {message.get('move')!r}")
    try:
        return parse_move(text)
    except NotationError as exc:
        raise ProtocolError(f"event: {exc}") from None


def game_over() -> str:
    return _line({"type": "game_over"})


def bye() -> str:
    return _line({"type": "bye"})


# --- bot to runner -------------------------------------------------------------------------
def ready(name: str, events: bool = False) -> str:
    message: dict[str, Any] = {"type": "ready", "protocol": PROTOCOL_VERSION, "name": name}
    if events:
        message["events"] = True
    return _line(message)


def move(ident: int, chosen: Move | None) -> str:
    return _line({"type": "move", "id": ident, "move": None if chosen is None else format_move(chosen)})


def read_any(line: str | bytes, expected: str = "message") -> dict[str, Any]:
    """The message on ``line``, of any type; ProtocolError if it is not one JSON object."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(f"{expected}: a line of {len(line):,} bytes, over the limit of {MAX_LINE_BYTES:,}")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError(f"{expected}: not a JSON line: {quote(line)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"{expected}: expected a JSON object, got {quote(line)}")
    return message


def read(line: str | bytes, expected: str) -> dict[str, Any]:
    """The message on ``line``, which must be of type ``expected``; ProtocolError otherwise."""
    message = read_any(line, expected)
    kind = message.get("type")
    if kind != expected:
        raise ProtocolError(f"{expected}: expected a message of type {expected!r}, got type {kind!r}: {quote(line)}")
    return message


def read_ready(line: str | bytes) -> str:
    """The bot's name from its ``ready`` line (the protocol version must be ours)."""
    return read_ready_message(line)[0]


def read_ready_message(line: str | bytes) -> tuple[str, bool]:
    """The bot's name from its ``ready`` line, and whether it asked for ``event`` messages."""
    message = read(line, "ready")
    if message.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolError(f"ready: protocol {message.get('protocol')!r} is not {PROTOCOL_VERSION}: {quote(line)}")
    name = message.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise ProtocolError(f"ready: name: expected a short non-empty string, got {quote(repr(name))}")
    events = message.get("events", False)
    if events is not True and events is not False:
        raise ProtocolError(f"ready: events: expected true or false, got {events!r}")
    return name.strip(), events


def read_move(line: str | bytes, ident: int, view: PlayerView) -> Move | None:
    """The move answering decision ``ident``: one of the view's legal moves, or None (no move).

    ProtocolError for a line that is not such an answer; the caller decides whether None is
    allowed (only out of turn)."""
    message = read(line, "move")
    if message.get("id") != ident or type(message.get("id")) is not int:
        raise ProtocolError(f"move: id: expected {ident}, got {message.get('id')!r}: {quote(line)}")
    text = message.get("move")
    if text is None:
        return None
    if not isinstance(text, str):
        raise ProtocolError(f"move: move: expected a move in notation or null, got {quote(line)}")
    try:
        chosen = parse_move(text)
    except NotationError as exc:
        raise ProtocolError(f"move: {exc}") from None
    if chosen not in view.legal_moves:
        raise ProtocolError(f"move: {quote(text)} is not one of the legal moves")
    return chosen


# --- the bot's side ------------------------------------------------------------------------
@attrs.frozen
class Decision:
    """A ``decide`` message as the bot reads it."""

    ident: int
    view: PlayerView
    seed: int
    time_ms: int
    rng_state: tuple[int, ...] | None


def read_decide(message: dict[str, Any]) -> Decision:
    """A ``decide`` message (already read with :func:`read`) as a :class:`Decision`."""
    ident, seed, time_ms = message.get("id"), message.get("seed"), message.get("time_ms")
    for name, value in (("id", ident), ("seed", seed), ("time_ms", time_ms)):
        if type(value) is not int or value < 0:
            raise ProtocolError(f"decide: {name}: expected a non-negative int, got {value!r}")
    try:
        view = from_json(message.get("view"), "decide.view")
    except SerializationError as exc:
        raise ProtocolError(f"decide: view: {exc}") from None
    if not isinstance(view, PlayerView):
        raise ProtocolError(f"decide: view: expected a view document, got a {type(view).__name__}")
    state = message.get("rng_state")
    if state is not None and not (isinstance(state, list) and all(type(x) is int for x in state)):
        raise ProtocolError("decide: rng_state: expected a list of ints")
    assert type(ident) is int and type(seed) is int and type(time_ms) is int
    return Decision(ident, view, seed, time_ms, None if state is None else tuple(state))
