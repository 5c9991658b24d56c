"""The problem collector and the typed field readers that every document reader uses.

A :class:`Reader` checks one value at a time against what a field must hold (an object with exactly
its keys, a bounded integer, a seat, cards, a colour, a phase, a move...) and records each problem
by field path, so that one error can list every problem of a document.
"""

from __future__ import annotations

from typing import Any, Final

from ...engine.cards import COLOR_LETTERS, Card, parse_card
from ...engine.errors import NotationError
from ...engine.limits import MAX_CARDS_TEXT, MAX_LISTED_PROBLEMS, MAX_PLAYERS, MAX_TOML_DEPTH
from ...engine.moves import Move
from ...engine.state import Phase
from ..notation import parse_move
from .parsing import show
from .spec import MAX_INT

Problems = list[tuple[str, str]]
_SHOWN_BAD_CARDS: Final = 5
MISSING: Final = object()
"""A key absent from its object: already reported as missing, so the readers stay silent."""
_COLOR_INDEX: Final = {letter: i for i, letter in enumerate(COLOR_LETTERS)}


def at(path: str, key: Any) -> str:
    """The path of an object's member (``match.scores``)."""
    name = key if isinstance(key, str) and len(key) <= 40 else show(key)
    return f"{path}.{name}" if path else name


def _within(found: str, path: str) -> bool:
    return found == path or found.startswith((path + ".", path + "["))


def get(table: dict[str, Any] | None, key: str) -> Any:
    return MISSING if table is None else table.get(key, MISSING)


class Reader:
    """Collects every problem of one document by field path, so one error can list them all.

    Each reader returns the value read, or None when it is missing (already reported) or wrong
    (reported now); ``nullable`` readers also return None for a JSON null, so a later cross-check
    asks :meth:`clean` whether a None is a real null.
    """

    def __init__(self) -> None:
        self.problems: Problems = []
        self.more = 0
        """Problems found beyond the MAX_LISTED_PROBLEMS kept: counted, not kept."""

    def add(self, path: str, problem: str) -> None:
        if len(self.problems) < MAX_LISTED_PROBLEMS:
            self.problems.append((path, problem))
        else:
            self.more += 1

    def all_problems(self) -> Problems:
        """The problems kept, and a last one counting those that were not."""
        return self.problems + ([("document", f"{self.more:,} more problems not listed")] if self.more else [])

    def clean(self, *paths: str) -> bool:
        """No problem was found at or inside any of ``paths``: their values may be cross-checked
        (never once problems were dropped, as a dropped one might have been there)."""
        if self.more:
            return False
        return not any(_within(found, path) for found, _ in self.problems for path in paths)

    def table(self, value: Any, path: str, keys: tuple[str, ...], *, nullable: bool = False) -> dict[str, Any] | None:
        """A JSON object with exactly ``keys``: every unknown and every missing key is a problem."""
        if value is MISSING or (nullable and value is None):
            return None
        if not isinstance(value, dict):
            self.add(path or "document", f"must be a JSON object, got {show(value)}")
            return None
        for key in value:
            if key not in keys:
                self.add(at(path, key), "unknown key")
        for key in keys:
            if key not in value:
                self.add(at(path, key), "missing")
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int, *, nullable: bool = False) -> int | None:
        """An integer from ``lo`` to ``hi``; never a bool."""
        if value is MISSING or (nullable and value is None):
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.add(path, f"must be an integer from {lo} to {hi}{' or null' if nullable else ''}, got {show(value)}")
            return None
        return int(value)

    def seat(self, value: Any, path: str, n: int | None, *, nullable: bool = False) -> int | None:
        """A player's seat, 0 to n - 1 (any seat a table can have while n is unknown)."""
        return self.integer(value, path, 0, (n or MAX_PLAYERS) - 1, nullable=nullable)

    def flag(self, value: Any, path: str) -> bool | None:
        if value is MISSING:
            return None
        if not isinstance(value, bool):
            self.add(path, f"must be true or false, got {show(value)}")
            return None
        return value

    def text(self, value: Any, path: str) -> str | None:
        if value is MISSING:
            return None
        if not isinstance(value, str):
            self.add(path, f"must be a string, got {show(value)}")
            return None
        return value

    def one_of(self, value: Any, path: str, options: tuple[int, ...]) -> int | None:
        if value is MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in options:
            self.add(path, f"must be one of {', '.join(map(str, options))}, got {show(value)}")
            return None
        return int(value)

    def cards(self, value: Any, path: str) -> tuple[Card, ...] | None:
        """Card names separated by spaces; each unknown name is a problem at its index."""
        if self.text(value, path) is None:
            return None
        if len(value) > MAX_CARDS_TEXT:
            self.add(path, f"{len(value):,} characters of card names, more than any deck needs "
                           f"(at most {MAX_CARDS_TEXT:,})")
            return None
        out: list[Card] = []
        bad = 0
        for i, token in enumerate(value.split()):
            try:
                out.append(parse_card(token))
            except NotationError:
                bad += 1
                if bad <= _SHOWN_BAD_CARDS:
                    self.add(f"{path}[{i}]", f"unknown card {show(token)}; expected e.g. R7, GS, BR, Y+2, W, W+4")
        if bad > _SHOWN_BAD_CARDS:
            self.add(path, f"{bad - _SHOWN_BAD_CARDS} more unknown cards")
        return None if bad else tuple(out)

    def card(self, value: Any, path: str, *, nullable: bool = False) -> Card | None:
        """One card name."""
        if value is MISSING or (nullable and value is None):
            return None
        if isinstance(value, str):
            try:
                return parse_card(value)
            except NotationError:
                pass
        self.add(path, f"must be a card name such as R7 or W+4{' or null' if nullable else ''}, got {show(value)}")
        return None

    def color(self, value: Any, path: str, *, nullable: bool = False) -> int | None:
        """A colour letter: R, Y, G or B."""
        if value is MISSING or (nullable and value is None):
            return None
        if isinstance(value, str) and value in _COLOR_INDEX:
            return _COLOR_INDEX[value]
        self.add(path, f"must be one of R, Y, G, B{' or null' if nullable else ''}, got {show(value)}")
        return None

    def phase(self, value: Any, path: str) -> Phase | None:
        if value is MISSING:
            return None
        if isinstance(value, str) and value in Phase.__members__:
            return Phase[value]
        self.add(path, f"must be one of {', '.join(Phase.__members__)}, got {show(value)}")
        return None

    def numbers(self, value: Any, path: str, n: int | None, lo: int, hi: int) -> tuple[int, ...] | None:
        """A list of integers, one per player (of n when it is known, of at most MAX_PLAYERS)."""
        if value is MISSING:
            return None
        if not isinstance(value, list):
            self.add(path, f"must be a list of integers, got {show(value)}")
            return None
        if n is not None and len(value) != n:
            self.add(path, f"must list one integer per player ({n}), got {len(value):,}")
            return None
        if len(value) > MAX_PLAYERS:
            self.add(path, f"must list one integer per player, at most {MAX_PLAYERS}, got {len(value):,}")
            return None
        out = [self.integer(item, f"{path}[{i}]", lo, hi) for i, item in enumerate(value)]
        return tuple(x for x in out if x is not None) if None not in out else None

    def move(self, value: Any, path: str) -> Move | None:
        """A move in the notation of :mod:`unoengine.notation`, such as ``"p0 W+4:R!"``."""
        if self.text(value, path) is None:
            return None
        try:
            return parse_move(value)
        except NotationError as exc:
            self.add(path, str(exc))
            return None

    def plain(self, value: Any, path: str) -> bool:
        """Only JSON values (string keys, no huge integers, bounded nesting) go on to the profile
        reader, whose messages quote what they refuse."""
        before = len(self.problems) + self.more
        stack: list[tuple[Any, str, int]] = [(value, path, 0)]
        while stack:
            item, where, depth = stack.pop()
            if isinstance(item, dict | list):
                if depth >= MAX_TOML_DEPTH:
                    self.add(where, "nested too deeply")
                    continue
                if isinstance(item, list):
                    stack.extend((x, f"{where}[{i}]", depth + 1) for i, x in enumerate(item))
                    continue
                for key, x in item.items():
                    if isinstance(key, str):
                        stack.append((x, at(where, key), depth + 1))
                    else:
                        self.add(where, f"key {show(key)} is not a string")
            elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_INT:
                self.add(where, "integer out of range")
            elif item is not None and not isinstance(item, str | int | float):
                self.add(where, f"{show(item)} is not a JSON value")
        return len(self.problems) + self.more == before
