"""Reading profiles from TOML: shipped ones by name, user files by path.

Every key is checked against a schema; unknown keys, wrong types and out-of-range values
are all reported together in one :class:`ProfileError` naming the file and each key. The value
checks are the Profile's own (``profile.FIELD_CHECKS`` and the deal check of its construction),
so a file is refused exactly when the Profile it describes could not be built. A file is read
only if it is a regular file within MAX_PROFILE_BYTES, nesting within MAX_TOML_DEPTH.
Nothing in a profile is executed.
"""

from __future__ import annotations

import importlib.resources
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from ..engine import profile as p
from ..engine.cards import (
    CARDS,
    NUM_CARD_CODES,
    SYMBOL_KEYS,
    SYMBOLS_PER_COLOR,
    WILD_KEYS,
    parse_card,
)
from ..engine.errors import ProfileError, quoted, shown
from ..engine.limits import MAX_CARD_POINTS, MAX_COPIES, MAX_PROFILE_BYTES, MAX_TOML_DEPTH
from .files import UnreadableFileError, checked_path, read_bounded
from .nesting import toml_too_deep, value_too_deep

Problems = list[tuple[str, str]]

_TOP_KEYS: Final = {
    "name", "version", "description", "sources",
    "deck", "setup", "play", "wild_draw_four", "uno", "scoring",
}


# TOML section -> key -> Profile field; each value is checked by profile.FIELD_CHECKS.
_SECTIONS: Final[dict[str, dict[str, str]]] = {
    "setup": {
        "hand_size": "hand_size",
        "min_players": "min_players",
        "max_players": "max_players",
        "first_card_wild_draw_four": "first_card_wild_draw_four",
        "next_dealer": "next_dealer",
        "shuffle": "shuffle",
    },
    "play": {
        "decline_to_play": "decline_to_play",
        "two_player_reverse": "two_player_reverse",
        "blank_cards": "blank_cards",
        "custom_effect": "custom_effect",
        "seven_zero": "seven_zero",
        "draw_until_playable": "draw_until_playable",
        "stacking": "stacking",
        "jump_in": "jump_in",
    },
    "wild_draw_four": {"mode": "wild_draw_four"},
    "uno": {"penalty": "uno_penalty"},
    "scoring": {"mode": "scoring", "target": "target_score"},
}

def option_fields() -> dict[str, str]:
    """Every rule option by its TOML key path (``"uno.penalty"``) with the Profile field it sets."""
    return {f"{section}.{key}": field for section, keys in _SECTIONS.items() for key, field in keys.items()}


_count = p.int_range(0, MAX_COPIES)
_points = p.int_range(0, MAX_CARD_POINTS)
_KEY_OF_FIELD: Final = {
    "deck_counts": "deck",
    "points": "scoring.points",
    **{field: f"{section}.{key}" for section, keys in _SECTIONS.items() for key, field in keys.items()},
}
"""The TOML key of each Profile field whose name differs from its key."""


def _key(*parts: Any) -> str:
    """A key path for a message: each part as written when it is a short string, else shown briefly
    (a dictionary given in code may have any keys)."""
    return ".".join(part if isinstance(part, str) and len(part) <= 40 else shown(part) for part in parts)


def _read_card_counts(
    table: Mapping[str, Any], key: str, problems: Problems, *, per_color: bool
) -> list[tuple[int, int]]:
    """(code, count) pairs from a per_color or wild table."""
    out: list[tuple[int, int]] = []
    for name, count in table.items():
        bad = _count(count)
        if bad:
            problems.append((_key(key, name), bad))
            continue
        if per_color:
            if name not in SYMBOL_KEYS:
                problems.append((_key(key, name), f"unknown symbol; expected one of {SYMBOL_KEYS}"))
                continue
            symbol = SYMBOL_KEYS.index(name)
            out.extend((color * SYMBOLS_PER_COLOR + symbol, count) for color in range(4))
        else:
            if name not in WILD_KEYS:
                problems.append((_key(key, name), f"unknown wild kind; expected one of {tuple(WILD_KEYS)}"))
                continue
            out.append((WILD_KEYS[name], count))
    return out


def _read_deck(deck: Any, problems: Problems) -> tuple[int, ...]:
    """DECK-5: any composition, as counts per symbol and colour, per wild kind, or per card.

    The shipped profiles describe DECK-1 (classic 108), DECK-2 (GDJ85), DECK-3 (FFK04) and
    DECK-4 (42003) this way; nothing in the engine assumes a deck size.
    """
    counts = [0] * NUM_CARD_CODES
    if not isinstance(deck, Mapping):
        problems.append(("deck", "missing or not a table"))
        return tuple(counts)
    for key in deck:
        if key not in ("per_color", "wild", "cards"):
            problems.append((_key("deck", key), "unknown key; expected per_color, wild or cards"))
    for section, per_color in (("per_color", True), ("wild", False)):
        table = deck.get(section, {})
        if not isinstance(table, Mapping):
            problems.append((f"deck.{section}", "must be a table"))
            continue
        for code, n in _read_card_counts(table, f"deck.{section}", problems, per_color=per_color):
            counts[code] = n
    exact = deck.get("cards", {})
    if not isinstance(exact, Mapping):
        problems.append(("deck.cards", "must be a table of card name = count"))
    else:
        for name, n in exact.items():
            try:
                code = parse_card(name)
            except ValueError as exc:
                problems.append((_key("deck.cards", name), str(exc)))
                continue
            bad = _count(n)
            if bad:
                problems.append((_key("deck.cards", name), bad))
            else:
                counts[code] = n
    return tuple(counts)


def _read_points(scoring: Mapping[str, Any], problems: Problems) -> tuple[int, ...]:
    points = [0] * NUM_CARD_CODES
    table = scoring.get("points")
    if not isinstance(table, Mapping):
        problems.append(("scoring.points", "missing or not a table of symbol/wild kind = points"))
        return tuple(points)
    seen = set()
    for name, value in table.items():
        bad = _points(value)
        if bad:
            problems.append((_key("scoring.points", name), bad))
            continue
        if name in SYMBOL_KEYS:
            symbol = SYMBOL_KEYS.index(name)
            for color in range(4):
                points[color * SYMBOLS_PER_COLOR + symbol] = value
        elif name in WILD_KEYS:
            points[WILD_KEYS[name]] = value
        else:
            problems.append((_key("scoring.points", name), "unknown symbol or wild kind"))
            continue
        seen.add(name)
    for name in (*SYMBOL_KEYS, *WILD_KEYS):
        if name not in seen and not any(k == f"scoring.points.{name}" for k, _ in problems):
            problems.append((f"scoring.points.{name}", "missing: every card kind needs a point value"))
    return tuple(points)


def profile_from_dict(data: Mapping[str, Any], source: str = "<profile>") -> p.Profile:
    """Build and validate a Profile from a parsed TOML document."""
    if not isinstance(data, Mapping):
        raise ProfileError(source, "document", f"must be a table of profile keys, got {shown(data)}")
    if value_too_deep(data, MAX_TOML_DEPTH):
        raise ProfileError(source, "document", f"nested deeper than {MAX_TOML_DEPTH} levels")
    problems: Problems = []
    for key in data:
        if key not in _TOP_KEYS:
            problems.append((_key(key), f"unknown key; expected one of {sorted(_TOP_KEYS)}"))
    fields: dict[str, Any] = {}
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append(("name", "missing or not a non-empty string"))
    elif bad := p.FIELD_CHECKS["name"](name):  # MAX_NAME_CHARS
        problems.append(("name", bad))
    fields["name"] = name if isinstance(name, str) else ""
    for key in ("version", "description"):  # the description within MAX_TEXT_CHARS
        if key in data:
            bad = p.FIELD_CHECKS[key](data[key])
            if bad:
                problems.append((key, bad))
            else:
                fields[key] = data[key]
    if "sources" in data:
        sources = data["sources"]
        if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
            problems.append(("sources", "must be a list of strings"))
        elif bad := p.FIELD_CHECKS["sources"](tuple(sources)):  # MAX_TAGS of MAX_TAG_CHARS
            problems.append(("sources", bad))
        else:
            fields["sources"] = tuple(sources)
    fields["deck_counts"] = _read_deck(data.get("deck"), problems)
    for section, keys in _SECTIONS.items():
        table = data.get(section, {})
        if not isinstance(table, Mapping):
            problems.append((section, "must be a table"))
            continue
        for key, value in table.items():
            if section == "scoring" and key == "points":
                continue
            if key not in keys:
                problems.append((_key(section, key), f"unknown key; expected one of {sorted(keys)}"))
                continue
            field = keys[key]
            bad = p.FIELD_CHECKS[field](value)
            if bad:
                problems.append((_key(section, key), bad))
            else:
                fields[field] = value
    scoring = data.get("scoring", {})
    fields["points"] = _read_points(scoring if isinstance(scoring, Mapping) else {}, problems)
    if problems:
        raise ProfileError.from_problems(source, problems)
    try:
        return p.Profile(**fields)
    except ProfileError as exc:  # the checks across fields (SETUP-1, the deal), named by TOML key
        raise ProfileError.from_problems(source, [(_KEY_OF_FIELD.get(f, f), pr) for f, pr in exc.problems]) from None


def _shipped_dir() -> Path | None:
    """The profiles folder: inside the installed package, or the source tree's top level."""
    packaged = importlib.resources.files("unoengine") / "profiles"
    if packaged.is_dir():
        return Path(str(packaged))
    source_tree = Path(__file__).resolve().parents[3] / "profiles"
    return source_tree if source_tree.is_dir() else None


def shipped_profiles() -> list[str]:
    """Names of the complete profiles that ship with the package (the bases), sorted."""
    folder = _shipped_dir()
    return sorted(f.stem for f in folder.glob("*.toml")) if folder else []


def shipped_overlays() -> list[str]:
    """Names of the house-rule overlays that ship with the package, sorted."""
    folder = _shipped_dir()
    return sorted(f.stem for f in (folder / "overlays").glob("*.toml")) if folder else []


def is_path(spec: str | Path) -> bool:
    """A bare name means a shipped profile or overlay; a folder or ``.toml`` means a file."""
    text = str(spec)
    return isinstance(spec, Path) or text.endswith(".toml") or "/" in text or "\\" in text


def shipped_path(name: str) -> Path:
    """The file of a shipped base profile or overlay: a name is only ever looked up among them,
    never turned into a path of its own."""
    folder = _shipped_dir()
    if folder is not None:
        if name in shipped_profiles():
            return folder / f"{name}.toml"
        if name in shipped_overlays():
            return folder / "overlays" / f"{name}.toml"
    if _is_file(name):  # say how to read it, rather than list the shipped names as if it were a typo
        raise ProfileError(quoted(name), "name", "no shipped profile or overlay of that name; a file of that "
                           f"name exists: give it as {quoted('./' + name)} (a path holds a '/' or ends in .toml)")
    raise ProfileError(
        quoted(name), "name",
        f"no shipped profile or overlay of that name; profiles: {shipped_profiles()}, "
        f"overlays: {shipped_overlays()}",
    )


def _is_file(name: str) -> bool:
    """Is ``name`` a file in the current folder (a name too long or odd for a path is none)?"""
    try:
        return len(name) <= 255 and "\0" not in name and Path(name).is_file()
    except (OSError, ValueError):
        return False


def read_document(spec: str | Path) -> tuple[dict[str, Any], str]:
    """Parse one TOML document (a shipped name or a path); returns it with its source name.

    Only a regular file of at most MAX_PROFILE_BYTES is read, and its nesting is checked (within
    MAX_TOML_DEPTH) before it is parsed."""
    if not isinstance(spec, str | Path):
        raise ProfileError("profile", "name", f"must be a profile name or a path, got {shown(spec)}")
    if is_path(spec):
        try:
            path = Path(checked_path(spec))
        except UnreadableFileError as exc:
            raise ProfileError(exc.path, "file", exc.problem) from None
    else:
        path = shipped_path(str(spec))
    source = str(path)
    try:  # a leading byte order mark (what editors on Windows write) is not part of the text
        text = read_bounded(path, MAX_PROFILE_BYTES).decode("utf-8").removeprefix("\ufeff")
    except UnreadableFileError as exc:
        raise ProfileError(exc.path, "file", exc.problem) from None
    except UnicodeDecodeError as exc:
        raise ProfileError(source, "toml", f"not valid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    if toml_too_deep(text, MAX_TOML_DEPTH):
        raise ProfileError(source, "toml", f"nested deeper than {MAX_TOML_DEPTH} levels")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(source, "toml", f"not valid TOML: {exc}") from None
    except RecursionError:  # a nesting the scan above did not see: refused all the same
        raise ProfileError(source, "toml", f"nested deeper than {MAX_TOML_DEPTH} levels") from None
    if value_too_deep(data, MAX_TOML_DEPTH):  # tables nested by their dotted names
        raise ProfileError(source, "toml", f"nested deeper than {MAX_TOML_DEPTH} levels")
    return data, source


def check_keys(data: Mapping[str, Any], source: str, *, extra: frozenset[str] = frozenset()) -> None:
    """Refuse unknown keys in a document before it is merged with others, naming its file."""
    problems: Problems = []
    for key, value in data.items():
        if key in extra:
            continue
        if key not in _TOP_KEYS:
            problems.append((_key(key), f"unknown key; expected one of {sorted(_TOP_KEYS | extra)}"))
        elif key in _SECTIONS:
            if not isinstance(value, Mapping):
                problems.append((key, "must be a table"))
                continue
            for sub in value:
                if sub not in _SECTIONS[key] and not (key == "scoring" and sub == "points"):
                    problems.append((_key(key, sub), f"unknown key; expected one of {sorted(_SECTIONS[key])}"))
    if problems:
        raise ProfileError.from_problems(source, problems)


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").isalpha() else _toml_string(key)


def _toml_string(text: str) -> str:
    """A TOML basic string: backslash, quote and every character that is not printable (control
    characters, C1 controls, bidirectional overrides) escaped, the rest as is; so ``unoengine
    profiles`` prints no escape sequence a file holds, and the text reads back the same."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif not ch.isprintable():
            out.append(f"\\u{ord(ch):04X}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


def _deck_tables(counts: tuple[int, ...]) -> dict[str, dict[str, int]]:
    """DECK-5 counts as per_color and wild tables, with a cards table only for colours that differ."""
    per_color: dict[str, int] = {}
    exact: dict[str, int] = {}
    for symbol, key in enumerate(SYMBOL_KEYS):
        row = [counts[color * SYMBOLS_PER_COLOR + symbol] for color in range(4)]
        per_color[key] = row[0]
        exact.update((repr(CARDS[color * SYMBOLS_PER_COLOR + symbol]), n) for color, n in enumerate(row) if n != row[0])
    deck = {"per_color": per_color, "wild": {key: counts[code] for key, code in WILD_KEYS.items()}}
    if exact:
        deck["cards"] = exact
    return deck


def _points_table(profile: p.Profile) -> dict[str, int]:
    """SCORE-1 points per symbol and wild kind; a profile file has no way to vary them by colour."""
    table: dict[str, int] = {}
    for symbol, key in enumerate(SYMBOL_KEYS):
        values = {profile.points[color * SYMBOLS_PER_COLOR + symbol] for color in range(4)}
        if len(values) != 1:
            raise ProfileError(profile.name, f"points.{key}", "differs by colour, which profile files cannot express")
        table[key] = values.pop()
    table.update((key, profile.points[code]) for key, code in WILD_KEYS.items())
    return table


def profile_to_dict(profile: p.Profile) -> dict[str, Any]:
    """The resolved profile as the nested tables of a profile file: ``profile_from_dict`` of it
    gives an equal profile, so it can be written as TOML or JSON and read back."""
    data: dict[str, Any] = {
        "name": profile.name,
        "version": profile.version,
        "description": profile.description,
        "sources": list(profile.sources),
        "deck": _deck_tables(profile.deck_counts),
    }
    for section, keys in _SECTIONS.items():
        data[section] = {key: getattr(profile, field) for key, field in keys.items()}
    data["scoring"]["points"] = _points_table(profile)
    return data


def _toml_table(table: Mapping[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    """A table's plain values under its ``[header]`` (none at the top, none for a table of tables),
    then each of its sub-tables."""
    plain = [(key, value) for key, value in table.items() if not isinstance(value, Mapping)]
    if path and plain:
        lines += ["", f"[{'.'.join(_toml_key(k) for k in path)}]"]
    lines += [f"{_toml_key(key)} = {_toml_value(value)}" for key, value in plain]
    for key, value in table.items():
        if isinstance(value, Mapping):
            _toml_table(value, (*path, key), lines)


def profile_to_toml(profile: p.Profile) -> str:
    """The resolved profile as one flat TOML document that loads back to an equal profile."""
    lines: list[str] = []
    _toml_table(profile_to_dict(profile), (), lines)
    return "\n".join(lines) + "\n"


__all__ = [
    "profile_from_dict", "profile_to_dict", "profile_to_toml", "read_document", "shipped_overlays", "shipped_profiles",
]
