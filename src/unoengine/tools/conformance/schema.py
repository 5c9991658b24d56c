"""The JSON Schema (draft 2020-12) of a scenario file, and a small validator for the part of
JSON Schema it uses, so the exported bundle's schema is checked against every shipped file
without a dependency.

The schema states the shape: keys, types, card names and moves as patterns, exactly one of
``start`` and ``deal``. What it cannot state (a profile that exists, an ID used once across the
corpus, cards a deck can hold) is checked by the runner when it loads a file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from ...engine.errors import UnoEngineError
from ...engine.limits import MAX_TAG_CHARS, MAX_TAGS, MAX_TEXT_CHARS

CARD: Final = r"(?:[RYGB](?:[0-9SR]|\+2)|W|W\+4|WSH|WSW|WCU|BLK)"
CARDS: Final = rf"^(?:{CARD}(?: {CARD})*)?$"
SEAT: Final = r"p[0-9]{1,2}"
MOVE: Final = (rf"^{SEAT} (?:draw|pass|challenge|accept|uno|deal|catch {SEAT}|color [RYGB]"
               rf"|{CARD}(?::[RYGB])?(?:>{SEAT})?!?)$")
SCHEMA_ID: Final = "https://unoengine.invalid/conformance/scenario-file.schema.json"


def _object(properties: Mapping[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": dict(properties), "required": list(required),
            "additionalProperties": False, **more}


_INT: Final = {"type": "integer"}
_SEAT_OR_NULL: Final = {"type": ["integer", "null"], "minimum": 0}
_SEAT_KEYS: Final = {"pattern": "^[0-9]{1,2}$"}
_OBSERVED: Final = {
    "hand_sizes": {"type": "array", "items": _INT},
    "hands": {"type": "object", "propertyNames": _SEAT_KEYS, "additionalProperties": {"$ref": "#/$defs/cards"}},
    "current": _INT,
    "phase": {"$ref": "#/$defs/phase"},
    "color": {"enum": ["R", "Y", "G", "B", None]},
    "direction": {"enum": [1, -1]},
    "top": {"type": "string", "pattern": f"^{CARD}$"},
    "pending_draw": _INT, "draw_pile_size": _INT, "discard_size": _INT,
    "uno_exposed": _SEAT_OR_NULL,
    "scores": {"type": "array", "items": _INT},
    "round_over": {"type": "boolean"},
    "round_winner": _SEAT_OR_NULL, "match_winner": _SEAT_OR_NULL,
    "dealer": {"type": "integer", "minimum": 0},
}
_PHASE: Final = {"enum": ["PLAY", "DRAWN", "CHALLENGE", "CHOOSE_COLOR", "PENALTY", "ROUND_OVER", "MATCH_OVER"]}
_COLOR: Final = {"enum": ["R", "Y", "G", "B"]}
_TEXT: Final = {"type": "string", "maxLength": MAX_TEXT_CHARS}
_PRINTABLE: Final = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"
"""No control character (the runner holds an id to ``str.isprintable``, which refuses more)."""

SCENARIO_SCHEMA: Final[dict[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "unoengine conformance scenario file",
    "description": "A file of rule-conformance scenarios (docs/conformance.md).",
    **_object({
        "unoengine": {"const": "scenarios"},
        "version": {"enum": [1, 2]},
        "description": _TEXT,
        "scenarios": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/scenario"}},
    }, ("unoengine", "version", "scenarios")),
    "$defs": {
        "phase": _PHASE,
        "cards": {"type": "string", "pattern": CARDS},
        "move": {"type": "string", "pattern": MOVE},
        "scenario": _object({
            "id": {"type": "string", "minLength": 1, "maxLength": MAX_TAG_CHARS, "pattern": _PRINTABLE},
            "rules": {"type": "array", "minItems": 1, "maxItems": MAX_TAGS,
                      "items": {"type": "string", "pattern": "^[A-Z0-9]+-[0-9]+$", "maxLength": MAX_TAG_CHARS}},
            "sources": {"type": "array", "maxItems": MAX_TAGS, "items": {"type": "string", "maxLength": MAX_TAG_CHARS}},
            "description": _TEXT,
            "profile": {"oneOf": [{"type": "string", "minLength": 1},
                                  {"type": "array", "minItems": 1, "items": {"type": "string"}}]},
            "options": {"type": "object", "propertyNames": {"pattern": "^[a-z_]+\\.[a-z_]+$"}},
            "start": {"$ref": "#/$defs/start"},
            "deal": {"$ref": "#/$defs/deal"},
            "steps": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/step"}},
        }, ("id", "rules", "profile", "steps"),
            oneOf=[{"required": ["start"]}, {"required": ["deal"]}]),
        "start": _object({
            "hands": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/cards"}},
            "discard": {"$ref": "#/$defs/cards"},
            "draw_pile": {"$ref": "#/$defs/cards"},
            "color": {"enum": ["R", "Y", "G", "B", None]},
            "direction": {"enum": [1, -1]},
            "current": _INT, "dealer": _SEAT_OR_NULL,
            "scores": {"type": "array", "items": _INT},
            "seed": _INT, "pending_draw": _INT,
            "phase": {"$ref": "#/$defs/phase"},
            "drawn": {"type": "string", "pattern": f"^{CARD}$"},
            "challenge_color": _COLOR,
            "attacker_hand": {"$ref": "#/$defs/cards"},
            "uno_exposed": _SEAT_OR_NULL, "passes": {"type": "integer", "minimum": 0},
            "known": {"type": "array", "items": _object(
                {"viewer": _INT, "owner": _INT, "cards": {"$ref": "#/$defs/cards"}}, ("viewer", "owner", "cards"))},
            "round_number": {"type": "integer", "minimum": 1},
            "last_round": _object({"winner": _INT, "hand_points": {"type": "array", "items": _INT},
                                   "blocked": {"type": "boolean"}}, ("winner", "hand_points")),
        }, ("hands", "discard")),
        "deal": _object({"players": _INT, "seed": _INT, "dealer": _SEAT_OR_NULL, "deck": {"$ref": "#/$defs/cards"},
                         "dealer_draw": {"$ref": "#/$defs/cards"}}, ("players",)),
        "step": _object({
            "move": {"$ref": "#/$defs/move"},
            "note": _TEXT,
            "expect": {"$ref": "#/$defs/expect"},
        }, ("move", "expect")),
        "expect": _object({
            **_OBSERVED,
            "rejected": _object({"rule": {"type": "string"}, "reason": {"type": "string"}}, ("rule",)),
            "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
            "legal": {"type": "object", "propertyNames": _SEAT_KEYS,
                      "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/move"}}},
            "legal_includes": {"type": "array", "items": {"$ref": "#/$defs/move"}},
            "legal_excludes": {"type": "array", "items": {"$ref": "#/$defs/move"}},
        }),
        "event": {"type": "object", "required": ["type"],
                  "properties": {"type": {"type": "string"}, "cards": {"$ref": "#/$defs/cards"},
                                 "rule": {"type": "string"}}},
    },
}
"""The schema of a scenario file (the bundle's ``scenario-file.schema.json``)."""


class SchemaError(UnoEngineError):
    """A document that does not match the schema, or a schema using a keyword this validator lacks."""


KEYWORDS: Final = frozenset({
    "$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required",
    "additionalProperties", "propertyNames", "items", "minItems", "maxItems", "minLength", "maxLength", "minimum",
    "enum", "const", "pattern", "oneOf",
})
"""The JSON Schema keywords :func:`validate` understands (any other is refused, never ignored)."""
_TYPES: Final = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None, "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
}


def validate(document: Any, schema: Mapping[str, Any] = SCENARIO_SCHEMA) -> list[str]:
    """Every place ``document`` breaks ``schema``, as ``path: problem`` (empty when it matches)."""
    problems: list[str] = []
    _check(document, schema, schema, "$", problems)
    return problems


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 and True are different values."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _check(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], path: str, out: list[str]) -> None:
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise SchemaError(f"schema at {path}: keywords this validator does not know: {sorted(unknown)}")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SchemaError(f"schema at {path}: only local #/$defs/ references are supported, got {ref!r}")
        _check(value, root["$defs"][ref.removeprefix("#/$defs/")], root, path, out)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            out.append(f"{path}: must be {' or '.join(types)}")
            return
    if "const" in schema and not _same(value, schema["const"]):
        out.append(f"{path}: must be {schema['const']!r}")
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        out.append(f"{path}: must be one of {schema['enum']!r}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            out.append(f"{path}: must have at least {schema['minLength']} character(s)")
        if len(value) > schema.get("maxLength", len(value)):
            out.append(f"{path}: must have at most {schema['maxLength']:,} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append(f"{path}: {value[:60]!r} does not match {schema['pattern']}")
    if isinstance(value, int | float) and not isinstance(value, bool) and value < schema.get("minimum", value):
        out.append(f"{path}: must be at least {schema['minimum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{path}: must have at least {schema['minItems']} item(s)")
        if len(value) > schema.get("maxItems", len(value)):
            out.append(f"{path}: must have at most {schema['maxItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                _check(item, schema["items"], root, f"{path}[{i}]", out)
    if isinstance(value, dict):
        _check_object(value, schema, root, path, out)
    if "oneOf" in schema:
        matching = sum(1 for option in schema["oneOf"] if not validate_part(value, option, root, path))
        if matching != 1:
            out.append(f"{path}: must match exactly one of {len(schema['oneOf'])} alternatives, matches {matching}")


def validate_part(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], path: str) -> list[str]:
    found: list[str] = []
    _check(value, schema, root, path, found)
    return found


def _check_object(value: dict[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any], path: str,
                  out: list[str]) -> None:
    properties = schema.get("properties", {})
    out += [f"{path}.{key}: required" for key in schema.get("required", []) if key not in value]
    for key, item in value.items():
        if "propertyNames" in schema:
            _check(key, schema["propertyNames"], root, f"{path} key {key!r}", out)
        if key in properties:
            _check(item, properties[key], root, f"{path}.{key}", out)
        elif schema.get("additionalProperties") is False:
            out.append(f"{path}: unknown key {key!r}")
        elif isinstance(schema.get("additionalProperties"), dict):
            _check(item, schema["additionalProperties"], root, f"{path}.{key}", out)
