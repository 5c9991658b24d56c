"""The exceptions the engine raises. Each is a ValueError: the input was wrong, not the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


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
        self.player: int | None = getattr(move, "player", None)
        self.rule = rule
        self.reason = reason
        self.detail = detail
        who = f"player {self.player}" if self.player is not None else "unknown player"
        super().__init__(f"{who} cannot make move {move!r}: {detail} [{rule} {reason}]")


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
            lines = "\n".join(f"  {key}: {problem}" for key, problem in problems)
            err.args = (f"{source}: {len(problems)} problems:\n{lines}",)
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
            lines = "\n".join(f"  {field}: {problem}" for field, problem in problems)
            err.args = (f"{source}: {len(problems)} problems:\n{lines}",)
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
        super().__init__(f"move {index} ({move!r}) does not replay: {detail} [{rule} {reason}]")
