"""The exceptions the engine raises. Each is a ValueError: the input was wrong, not the engine.

Every message quotes untrusted values through :func:`quoted` and :func:`shown`, so a message stays
short whatever it was given (MAX_QUOTED_CHARS), and lists at most MAX_LISTED_PROBLEMS problems.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .limits import MAX_LISTED_PROBLEMS, MAX_PRINTED_CHARS, MAX_QUOTED_CHARS


def quoted(text: str, limit: int = MAX_QUOTED_CHARS) -> str:
    """``repr(text)``, or for a longer text a prefix and the total length: ``'RRRR...' (10,000,000 characters)``."""
    if len(text) <= limit:
        return repr(text)
    head = repr(text[:limit])
    return f"{head[:-1]}...{head[-1]} ({len(text):,} characters)"


def shown(value: Any, limit: int = 60) -> str:
    """A short repr of any value for a message: a text through :func:`quoted`, anything else cut to
    ``limit`` characters; never fails, whatever the value (a huge int, deep nesting, a hostile repr
    is also escaped, :func:`printable`)."""
    if isinstance(value, str):
        return quoted(value, min(limit, MAX_QUOTED_CHARS))
    try:
        text = repr(value)
    except Exception:  # a repr that raises (a huge int, deep nesting, a hostile class) is not shown
        return f"a value too large to show ({type(value).__name__})"
    text = text if text.isprintable() else printable(text, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def printable(text: str, limit: int = MAX_PRINTED_CHARS) -> str:
    """``text`` safe to print on a terminal: every character that is not printable (a control
    character such as the ESC of an escape sequence, a bidirectional override) written as its
    Python escape (``\\x1b``), and the whole cut to ``limit`` characters, saying the length it had:
    ``...' (800,000 characters)``. Newlines are escaped too: the text stays one line."""
    if len(text) <= limit and text.isprintable():
        return text
    head = text[:limit]
    escaped = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in head)
    if len(escaped) <= limit and len(head) == len(text):
        return escaped
    return f"{escaped[:limit]}... ({len(text):,} characters)"


def one_line(error: BaseException) -> str:
    """An error's message on one line, for a command's standard error: the problems of a
    several-problem message follow its first line, separated by semicolons; escaped and cut to
    MAX_PRINTED_CHARS (:func:`printable`), whatever text the message quotes."""
    try:
        message = str(error)
    except Exception:  # an exception whose message cannot be made (a hostile adapter's)
        message = ""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    return printable(lines[0] + (" " + "; ".join(lines[1:]) if len(lines) > 1 else ""))


def _listed(source: str, problems: list[tuple[str, str]]) -> str:
    """The message of several problems: a count, then one ``field: problem`` line each, at most
    MAX_LISTED_PROBLEMS of them."""
    lines = "\n".join(f"  {field}: {problem}" for field, problem in problems[:MAX_LISTED_PROBLEMS])
    more = len(problems) - MAX_LISTED_PROBLEMS
    tail = f"\n  ... and {more:,} more" if more > 0 else ""
    return f"{source}: {len(problems):,} problems:\n{lines}{tail}"


class UnoEngineError(ValueError):
    """Base class of every error raised for bad input."""


class IllegalMoveError(UnoEngineError):
    """A well-formed move that the rules forbid in this state.

    ``rule`` is the RULES.md ID the move breaks (e.g. ``"WD4-1"``), ``reason`` a stable
    machine-readable code (e.g. ``"card-does-not-match"``), ``player`` and ``move`` what
    was tried. The state it was tried on is never changed.
    """

    def __init__(self, move: Any, rule: str, reason: str, detail: str) -> None:
        self.move = move
        try:
            player = getattr(move, "player", None)
        except Exception:  # a hostile object's attribute lookup
            player = None
        self.player: int | None = player
        self.rule = rule
        self.reason = reason
        self.detail = detail
        who = f"player {shown(self.player, 20)}" if self.player is not None else "unknown player"
        super().__init__(f"{who} cannot make move {shown(move, 120)}: {detail} [{rule} {reason}]")


class ProfileError(UnoEngineError):
    """A profile file or table that is malformed: names the source, the key and the problem."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        self.problems: list[tuple[str, str]] = [(key, problem)]
        super().__init__(f"{source}: {key}: {problem}")

    @classmethod
    def from_problems(cls, source: str, problems: list[tuple[str, str]]) -> ProfileError:
        """One error listing every problem found; ``key``/``problem`` are the first."""
        err = cls(source, *problems[0])
        err.problems = list(problems)
        if len(problems) > 1:
            err.args = (_listed(source, problems),)
        return err


class EffectError(UnoEngineError):
    """A registered custom effect returned a state that breaks its contract (ACT-8)."""


class NotationError(UnoEngineError):
    """A card or colour name that cannot be parsed; the message quotes it."""


class PositionError(UnoEngineError):
    """A position built by hand (new_game / from_position arguments) that cannot exist.

    ``problems`` lists ``(field, problem)`` pairs when the position was refused by the state
    consistency rules (engine/consistency.py); it is empty for a bad argument.
    """

    def __init__(self, message: str, problems: Sequence[tuple[str, str]] = ()) -> None:
        self.problems: list[tuple[str, str]] = list(problems)
        super().__init__(message)

    @classmethod
    def from_problems(cls, problems: Sequence[tuple[str, str]]) -> PositionError:
        """One error listing every problem of a position (at least one)."""
        lines = [f"{field}: {problem}" for field, problem in problems]
        text = lines[0] if len(lines) == 1 else f"{len(lines)} problems:\n  " + "\n  ".join(lines)
        return cls(f"the position cannot be reached: {text}", problems)


class SerializationError(UnoEngineError):
    """A JSON document that cannot be loaded: names the source and, by field path, every problem found."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        self.problems: list[tuple[str, str]] = [(field, problem)]
        super().__init__(f"{source}: {field}: {problem}")

    @classmethod
    def from_problems(cls, source: str, problems: list[tuple[str, str]]) -> SerializationError:
        """One error listing every problem found; ``field``/``problem`` are the first."""
        err = cls(source, *problems[0])
        err.problems = list(problems)
        if len(problems) > 1:
            err.args = (_listed(source, problems),)
        return err


class RecordError(UnoEngineError):
    """A game record whose moves do not replay: ``index`` of the first bad move, the ``move``,
    and the ``rule``/``reason`` of the refusal (as in :class:`IllegalMoveError`)."""

    def __init__(self, index: int, move: Any, rule: str, reason: str, detail: str) -> None:
        self.index = index
        self.move = move
        self.rule = rule
        self.reason = reason
        self.detail = detail
        super().__init__(f"move {index} ({shown(move, 120)}) does not replay: {detail} [{rule} {reason}]")


class ReadOnlyError(UnoEngineError, AttributeError):
    """An attribute the engine keeps fixed was set or deleted (a compiled engine's games, settings
    and lookup arrays, which its kernels read without checking them again: compiled/sealed.py).
    It is an AttributeError too, as Python's own read-only attributes raise."""
