"""JSON text to plain Python values, strictly: loading is meant for untrusted input, so NaN and
Infinity, repeated keys and absurdly long integers are refused, a text longer than
MAX_DOCUMENT_BYTES or nesting deeper than MAX_JSON_DEPTH is refused before it is parsed, and an
untrusted value is only ever quoted briefly in a message (:func:`show`).
"""

from __future__ import annotations

import json
from typing import Any

from ...engine.errors import SerializationError, quoted
from ...engine.limits import MAX_DOCUMENT_BYTES, MAX_JSON_DEPTH
from ..nesting import json_too_deep
from .spec import MAX_INT, RNG_DIGITS


class _DuplicateKey(Exception):
    """Two readers could disagree on which of two equal keys counts, so a document may not repeat one."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    table = dict(pairs)
    if len(table) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(show(key))
            seen.add(key)
    return table


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    """Refuse an integer too long to mean anything here before converting it (huge ones are slow)."""
    if len(digits.lstrip("-")) > RNG_DIGITS:
        raise ValueError(f"an integer of {len(digits)} digits is out of range")
    return int(digits)


def parse_json(text: Any, source: str) -> Any:
    """Strict JSON: no NaN or Infinity, no repeated keys, no absurd integers, at most
    MAX_DOCUMENT_BYTES (characters, for a ``str``) nesting at most MAX_JSON_DEPTH deep; any failure
    is a problem."""
    if not isinstance(text, str | bytes | bytearray):
        raise SerializationError(source, "json", f"must be JSON text, got a {type(text).__name__}")
    if len(text) > MAX_DOCUMENT_BYTES:
        unit = "characters" if isinstance(text, str) else "bytes"
        raise SerializationError(source, "json", f"a document of {len(text):,} {unit} is larger than the limit "
                                                 f"of {MAX_DOCUMENT_BYTES:,}")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode(json.detect_encoding(text))
        except (UnicodeDecodeError, LookupError) as exc:
            raise SerializationError(source, "json", f"not valid JSON: not readable text ({_clip(str(exc))})") from None
    if json_too_deep(text, MAX_JSON_DEPTH):
        raise SerializationError(source, "json", f"nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(
            text, object_pairs_hook=_unique_keys, parse_constant=_no_constant, parse_int=_bounded_int
        )
    except _DuplicateKey as exc:
        raise SerializationError(source, "json", f"duplicate key {exc.args[0]} in an object") from None
    except RecursionError:
        raise SerializationError(source, "json", "nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, the refusals above
        raise SerializationError(source, "json", f"not valid JSON: {_clip(str(exc))}") from None


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def show(value: Any) -> str:
    """A short description of an untrusted value for a message: never a huge or nested repr."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value)) if abs(value) <= MAX_INT else "a very large integer"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return "an object"
    kind = type(value).__name__
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"
