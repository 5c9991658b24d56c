"""Scenario files of the rule-conformance corpus: finding, reading and checking them.

A scenario sets up an exact situation under a profile, applies moves written in the move
notation, and states what must follow each one (docs/conformance.md). Nothing in a scenario
file is executed: it is data, checked field by field before it runs (a regular file of at most
MAX_DOCUMENT_BYTES, strict JSON nesting at most MAX_JSON_DEPTH deep, each value of the type its
key takes), so a malformed file is reported, never run.
"""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from ...engine.cards import parse_cards
from ...engine.errors import NotationError, ProfileError, SerializationError, UnoEngineError, quoted
from ...engine.limits import (
    MAX_DOCUMENT_BYTES,
    MAX_LISTED_PROBLEMS,
    MAX_PATH_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TEXT_CHARS,
)
from ...engine.profile import Profile
from ...formats.composition import load_profile, path_within, spec_parts
from ...formats.files import UnreadableFileError, read_bounded
from ...formats.notation import parse_move
from ...formats.profile_file import is_path, option_fields
from ...formats.serialize.parsing import parse_json

FORMAT: Final = "scenarios"
VERSION: Final = 2
"""The version of the scenario file format (the ``"version"`` of every file). Version 2 added
the start fields of any phase and the SETUP-2 dealer draw (:data:`VERSION_2_KEYS`); a version 1
file is still read, without them."""
VERSIONS: Final = (1, 2)
CORPUS_VERSION: Final = "2026.12.4"
"""The version of the shipped corpus as a whole, written into an exported bundle's manifest;
it changes whenever a shipped scenario does."""

_SCENARIO_KEYS: Final = frozenset({
    "id", "rules", "sources", "description", "profile", "options", "start", "deal", "steps",
})
_STATE_KEYS: Final = frozenset({
    "phase", "drawn", "challenge_color", "attacker_hand", "uno_exposed", "passes", "known", "round_number",
    "last_round",
})
"""The start fields beyond an ordinary turn (format version 2; capability ``start-state``)."""
_START_KEYS: Final = frozenset({
    "hands", "discard", "draw_pile", "color", "direction", "current", "dealer", "scores", "seed", "pending_draw",
}) | _STATE_KEYS
_DEAL_KEYS: Final = frozenset({"players", "seed", "dealer", "deck", "dealer_draw"})
VERSION_2_KEYS: Final = {"start": _STATE_KEYS, "deal": frozenset({"dealer_draw"}), "expect": frozenset({"dealer"})}
"""The keys a version 1 file may not use, by the table that holds them."""
PHASES: Final = ("PLAY", "DRAWN", "CHALLENGE", "CHOOSE_COLOR", "PENALTY", "ROUND_OVER", "MATCH_OVER")
_STEP_KEYS: Final = frozenset({"move", "expect", "note"})
OBSERVED: Final = (
    "hand_sizes", "hands", "current", "phase", "color", "direction", "top", "pending_draw",
    "draw_pile_size", "discard_size", "uno_exposed", "scores", "round_over", "round_winner", "match_winner",
    "dealer",
)
"""The facts an adapter reports after each move (docs/conformance.md lists their meaning)."""
_EXPECT_KEYS: Final = frozenset({*OBSERVED, "rejected", "events", "legal", "legal_includes", "legal_excludes"})


class ScenarioFileError(UnoEngineError):
    """A scenario file that is not valid: names the file, the field path and the problem."""


class Scenario(dict[str, Any]):
    """One scenario as read from its file: the JSON object itself (what an adapter is sent), and
    ``folder``, the folder of its file, the one place where a profile it names by a path is read.
    A scenario given as a plain dict has no folder: its profile can only be shipped names."""

    def __init__(self, data: Mapping[str, Any], folder: Path | None) -> None:
        super().__init__(data)
        self.folder = folder


_PROFILES: dict[str, Profile] = {}
"""Profiles already resolved in this process, by their spec: a corpus names a few dozen, each
read from TOML once (profiles are immutable values)."""
_MAX_CACHED: Final = 256


def scenario_profile(scenario: Mapping[str, Any]) -> Profile:
    """The scenario's profile (a name, composition or list; a path only to a file in the
    scenario's folder, :class:`Scenario`) with its ``options`` (TOML key paths) set."""
    folder = getattr(scenario, "folder", None)
    try:
        key = json.dumps([str(folder), scenario["profile"], scenario.get("options", {})], sort_keys=True)
    except (TypeError, ValueError):
        return _resolve_profile(scenario, folder)
    if key not in _PROFILES:
        if len(_PROFILES) >= _MAX_CACHED:
            _PROFILES.clear()
        _PROFILES[key] = _resolve_profile(scenario, folder)
    return _PROFILES[key]


def _resolve_profile(scenario: Mapping[str, Any], folder: Path | None) -> Profile:
    parts = _profile_parts(scenario["profile"], folder)
    try:
        profile = load_profile(parts)
    except ProfileError as exc:
        files = [part for part in parts if isinstance(part, Path)]
        if not files or all(key == "file" for key, _ in exc.problems):  # a file that cannot be read: its path
            raise
        # The message would quote what the file holds: the scenario's author reads it with
        # 'unoengine profiles FILE'; a scenario file cannot make the runner show a file's content.
        problems = len(exc.problems)
        raise ProfileError("scenario", "profile", f"{', '.join(quoted(str(f), MAX_PATH_CHARS) for f in files)} does "
                                                  f"not load as a profile ({problems} problem{'s' * (problems > 1)}; "
                                                  "'unoengine profiles FILE' shows them)") from None
    options = scenario.get("options", {})
    if not isinstance(options, dict):
        raise ProfileError("scenario", "options", "must be an object of option key paths")
    fields = option_fields()
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ProfileError("scenario", "options", f"unknown options {', '.join(quoted(k) for k in unknown[:5])}; "
                                                  f"known: {sorted(fields)}")
    if not options:
        return profile
    try:
        return attrs.evolve(profile, **{fields[key]: value for key, value in options.items()})
    except ProfileError as exc:  # named by the option's key path, not by the profile's name
        keys = {field: key for key, field in fields.items()}
        raise ProfileError.from_problems("scenario", [(f"options.{keys.get(f, f)}", problem)
                                                      for f, problem in exc.problems]) from None


def _profile_parts(spec: Any, folder: Path | None) -> list[str | Path]:
    """The parts of a scenario's ``profile``: shipped names as they are, and each path checked to
    name a file in the scenario's folder or below it (as ``extends`` does, formats/composition.py):
    never an absolute path, never a way out with ``..`` or a symbolic link."""
    parts = spec_parts(spec)
    paths = [part for part in parts if is_path(part)]
    if paths and folder is None:
        raise ProfileError("scenario", "profile", f"{quoted(str(paths[0]))} is a path; a scenario that is not read "
                                                  "from a file names shipped profiles only")
    return [path_within("scenario", "profile", folder, part) if folder is not None and is_path(part) else part
            for part in parts]


# --- loading --------------------------------------------------------------------------------
def shipped_corpus() -> list[Path]:
    """The scenario files that ship with the package, sorted by name."""
    folder = importlib.resources.files("unoengine") / "corpus"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".json"))


def load_scenarios(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every scenario of the files, checked; :class:`ScenarioFileError` lists every problem (and
    refuses an empty list of files: checking nothing is not a pass)."""
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    if isinstance(paths, str | Path) or not isinstance(paths, Iterable):
        raise ScenarioFileError(f"load_scenarios takes a list of scenario file paths, got a {type(paths).__name__}")
    files = 0
    for path in paths:
        files += 1
        try:
            document = parse_json(read_bounded(path, MAX_DOCUMENT_BYTES), str(path))
        except UnreadableFileError as exc:
            problems.append(f"{path}: cannot be read: {exc.problem}")
            continue
        except SerializationError as exc:
            problems.append(f"{path}: cannot be read as JSON: {exc.problem}")
            continue
        for i, raw in enumerate(_document_scenarios(document, str(path), problems)):
            scenario = Scenario(raw, Path(path).parent) if isinstance(raw, dict) else raw
            where = f"{path}: scenarios[{i}]"
            found = _check_scenario(scenario, where)
            if not found and document["version"] == 1:
                found = _version_1_problems(scenario, where)
            problems += found
            if not found:
                sid = scenario["id"]
                if sid in seen:
                    problems.append(f"{where}: id {sid!r} already used in {seen[sid]}")
                seen[sid] = str(path)
                out.append(scenario)
    if not files:  # a run of nothing would pass, so a wrong path in CI would go unnoticed
        raise ScenarioFileError("no scenario files given: a run needs at least one")
    if problems:
        listed = problems[:MAX_LISTED_PROBLEMS]
        if len(problems) > len(listed):
            listed.append(f"... and {len(problems) - len(listed):,} more")
        raise ScenarioFileError(f"{len(problems)} problem(s) in the scenario files:\n  " + "\n  ".join(listed))
    return out


def _document_scenarios(document: Any, where: str, problems: list[str]) -> list[Any]:
    if not isinstance(document, dict):
        problems.append(f"{where}: the document must be a JSON object")
        return []
    version = document.get("version")
    if document.get("unoengine") != FORMAT or type(version) is not int or version not in VERSIONS:
        problems.append(f"{where}: expected \"unoengine\": {FORMAT!r} and \"version\": 1 or {VERSION}")
        return []
    extra = set(document) - {"unoengine", "version", "description", "scenarios"}
    if extra:
        problems.append(f"{where}: unknown keys {', '.join(quoted(k) for k in sorted(extra)[:5])}")
    problems += _text_problems(document.get("description", ""), f"{where}: description")
    scenarios = document.get("scenarios")
    if not isinstance(scenarios, list) or not scenarios:
        problems.append(f"{where}: scenarios must be a non-empty list")
        return []
    return scenarios


def _check_scenario(s: Any, where: str) -> list[str]:
    """Every problem of one scenario's shape (types, keys, notation, profile)."""
    if not isinstance(s, dict):
        return [f"{where}: a scenario must be a JSON object"]
    p: list[str] = []
    sid = s.get("id")
    if not isinstance(sid, str) or not sid:
        p.append(f"{where}.id: a non-empty string is required")
    elif len(sid) > MAX_TAG_CHARS or not sid.isprintable():
        p.append(f"{where}.id: {quoted(sid)} is not an id: at most {MAX_TAG_CHARS} printable characters "
                 "(no control characters)")
    else:
        where = f"{where} ({quoted(sid, 120)})"
    p += [f"{where}: unknown key {quoted(k)}" for k in sorted(set(s) - _SCENARIO_KEYS)]
    if not _str_list(s.get("rules")) or not s["rules"]:
        p.append(f"{where}.rules: a non-empty list of rule IDs is required")
    if not _str_list(s.get("sources", [])):
        p.append(f"{where}.sources: must be a list of source tags")
    p += _tags_problems(s.get("rules"), f"{where}.rules") + _tags_problems(s.get("sources"), f"{where}.sources")
    p += _text_problems(s.get("description", ""), f"{where}.description")
    p += _check_profile(s, where)
    if ("start" in s) == ("deal" in s):
        p.append(f"{where}: exactly one of start and deal is required")
    elif "start" in s:
        p += _check_keys(s["start"], _START_KEYS, f"{where}.start", required=("hands", "discard"))
        p += _check_values(s["start"], _START_TYPES, f"{where}.start")
    else:
        p += _check_keys(s["deal"], _DEAL_KEYS, f"{where}.deal", required=("players",))
        p += _check_values(s["deal"], _DEAL_TYPES, f"{where}.deal")
    steps = s.get("steps")
    if not isinstance(steps, list) or not steps:
        p.append(f"{where}.steps: a non-empty list is required")
        return p
    for i, step in enumerate(steps):
        p += _check_step(step, f"{where}.steps[{i}]")
    return p


def _version_1_problems(s: Mapping[str, Any], where: str) -> list[str]:
    """Keys of format version 2 in a version 1 file (the file must say version 2 to use them)."""
    tables: list[tuple[str, str, Any]] = [("start", "start", s.get("start", {})), ("deal", "deal", s.get("deal", {}))]
    tables += [(f"steps[{i}].expect", "expect", step["expect"]) for i, step in enumerate(s["steps"])]
    return [f"{where}.{path}.{key}: a key of scenario format version 2; the file says version 1"
            for path, kind, table in tables for key in sorted(set(table) & VERSION_2_KEYS[kind])]


def _check_profile(s: Mapping[str, Any], where: str) -> list[str]:
    spec = s.get("profile")
    if not (isinstance(spec, str) or _str_list(spec)):
        return [f"{where}.profile: a profile name, composition or list of them is required"]
    try:
        scenario_profile(s)
    except UnoEngineError as exc:
        return [f"{where}.profile/options: {exc}"]
    return []


def _check_keys(table: Any, allowed: frozenset[str], where: str, required: Sequence[str]) -> list[str]:
    if not isinstance(table, dict):
        return [f"{where}: must be an object"]
    p = [f"{where}: unknown key {quoted(k)}" for k in sorted(set(table) - allowed)]
    p += [f"{where}.{k}: required" for k in required if k not in table]
    return p


# --- the type of each value (a value of the right type but wrong for the game fails the scenario) ---
Check = tuple[str, Any]
"""What a value must be, in words, and the test of it."""


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_cards(value: Any) -> bool:
    try:
        parse_cards(value)
    except NotationError:
        return False
    return True


def _is_move(value: Any) -> bool:
    try:
        parse_move(value)
    except NotationError:
        return False
    return True


def _is_seat_key(value: Any) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2


def _is_tag(value: Any) -> bool:
    """A short token of an expectation (a rule ID, a reason code, a phase, a card or colour name)."""
    return isinstance(value, str) and len(value) <= MAX_TAG_CHARS


def _list_of(test: Any) -> Any:
    return lambda value: isinstance(value, list) and all(test(v) for v in value)


def _or_null(test: Any) -> Any:
    return lambda value: value is None or test(value)


def _by_seat(test: Any) -> Any:
    return lambda value: isinstance(value, dict) and all(_is_seat_key(k) and test(v) for k, v in value.items())


_INT: Final[Check] = ("an integer", _is_int)
_SEAT_OR_NULL: Final[Check] = ("a seat or null", _or_null(_is_int))
_CARDS: Final[Check] = ("a string of card names such as 'R7 G5 W'", _is_cards)
_START_TYPES: Final[dict[str, Check]] = {
    "hands": ("a list of strings of card names, one per seat", _list_of(_is_cards)),
    "discard": _CARDS, "draw_pile": _CARDS,
    "color": ("null or a colour letter R, Y, G or B", lambda v: v is None or v in ("R", "Y", "G", "B")),
    "direction": _INT, "current": _INT, "dealer": _SEAT_OR_NULL,
    "scores": ("a list of integers", _list_of(_is_int)), "seed": _INT, "pending_draw": _INT,
    "phase": (f"a phase name ({', '.join(PHASES)})", lambda v: v in PHASES),
    "drawn": ("one card name", lambda v: isinstance(v, str) and _is_cards(v) and len(v.split()) == 1),
    "challenge_color": ("a colour letter R, Y, G or B", lambda v: v in ("R", "Y", "G", "B")),
    "attacker_hand": _CARDS, "uno_exposed": _SEAT_OR_NULL, "passes": _INT, "round_number": _INT,
    "known": ('a list of {"viewer": seat, "owner": seat, "cards": card names}', _list_of(
        lambda e: isinstance(e, dict) and set(e) == {"viewer", "owner", "cards"} and _is_int(e["viewer"])
        and _is_int(e["owner"]) and _is_cards(e["cards"]))),
    "last_round": ('{"winner": seat, "hand_points": [integers], optionally "blocked": true/false}',
                   lambda v: isinstance(v, dict) and set(v) <= {"winner", "hand_points", "blocked"}
                   and _is_int(v.get("winner")) and _list_of(_is_int)(v.get("hand_points"))
                   and type(v.get("blocked", False)) is bool),
}
_DEAL_TYPES: Final[dict[str, Check]] = {"players": _INT, "seed": _INT, "dealer": _SEAT_OR_NULL, "deck": _CARDS,
                                        "dealer_draw": _CARDS}
_EVENT: Final = ("events: a list of objects of event fields, their cards as card names",
                 _list_of(lambda e: isinstance(e, dict) and _is_cards(e.get("cards", ""))))
_MOVES: Final = ("a list of moves in notation", _list_of(_is_move))
_EXPECT_TYPES: Final[dict[str, Check]] = {
    "rejected": ("an object with a rule ID and optionally a reason", lambda v: isinstance(v, dict)
                 and _is_tag(v.get("rule")) and _is_tag(v.get("reason", "")) and set(v) <= {"rule", "reason"}),
    "hand_sizes": ("a list of integers", _list_of(_is_int)),
    "hands": ('an object of seat ("0") = card names', _by_seat(_is_cards)),
    "current": _INT, "phase": ("a phase name", lambda v: _is_tag(v)),
    "color": ("null or a colour letter", lambda v: v is None or _is_tag(v)),
    "direction": _INT, "top": ("a card name", lambda v: _is_tag(v)),
    "pending_draw": _INT, "draw_pile_size": _INT, "discard_size": _INT, "uno_exposed": _SEAT_OR_NULL,
    "scores": ("a list of integers", _list_of(_is_int)), "round_over": ("true or false", lambda v: type(v) is bool),
    "round_winner": _SEAT_OR_NULL, "match_winner": _SEAT_OR_NULL, "dealer": _INT,
    "events": _EVENT,
    "legal": ('an object of seat ("0") = a list of moves', _by_seat(_MOVES[1])),
    "legal_includes": _MOVES, "legal_excludes": _MOVES,
}


def _check_values(table: Any, types: Mapping[str, Check], where: str) -> list[str]:
    """Each value of ``table`` whose key has a type must be of that type."""
    if not isinstance(table, dict):
        return []
    return [f"{where}.{key}: must be {types[key][0]}" for key, value in table.items()
            if key in types and not types[key][1](value)]


def _check_step(step: Any, where: str) -> list[str]:
    p = _check_keys(step, _STEP_KEYS, where, required=("move", "expect"))
    if p:
        return p
    try:
        parse_move(step["move"])
    except NotationError as exc:
        p.append(f"{where}.move: {exc}")
    p += _text_problems(step.get("note", ""), f"{where}.note")
    expect = step["expect"]
    if not isinstance(expect, dict):
        return [*p, f"{where}.expect: must be an object"]
    p += [f"{where}.expect: unknown key {quoted(k)}" for k in sorted(set(expect) - _EXPECT_KEYS)]
    p += _check_values(expect, _EXPECT_TYPES, f"{where}.expect")
    p += [f"{where}.expect.events{path}: a text of {n:,} characters; at most {MAX_TEXT_CHARS:,} are taken"
          for path, n in _long_texts(expect.get("events", []))]
    return p


def _text_problems(value: Any, where: str) -> list[str]:
    """A free text of a scenario file (a description, a note): a string of at most MAX_TEXT_CHARS."""
    if not isinstance(value, str):
        return [f"{where}: must be a string"]
    if len(value) > MAX_TEXT_CHARS:
        return [f"{where}: a text of {len(value):,} characters; at most {MAX_TEXT_CHARS:,} are taken"]
    return []


def _tags_problems(value: Any, where: str) -> list[str]:
    """Rule IDs or source tags: at most MAX_TAGS of them, each of at most MAX_TAG_CHARS characters."""
    if not _str_list(value):
        return []  # its type is reported apart
    if len(value) > MAX_TAGS:
        return [f"{where}: {len(value):,} entries; at most {MAX_TAGS} are taken"]
    return [f"{where}[{i}]: {quoted(tag)} is longer than {MAX_TAG_CHARS} characters"
            for i, tag in enumerate(value) if len(tag) > MAX_TAG_CHARS][:1]


def _long_texts(value: Any, path: str = "") -> list[tuple[str, int]]:
    """Where a JSON value holds a key or a string longer than MAX_TEXT_CHARS (cards apart: they
    are card names, bounded by their own limit), with its length; at most one is reported."""
    if isinstance(value, str):
        return [(path, len(value))] if len(value) > MAX_TEXT_CHARS else []
    items: list[tuple[Any, Any]] = (list(value.items()) if isinstance(value, dict)
                                    else list(enumerate(value)) if isinstance(value, list) else [])
    for key, item in items:
        where = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{quoted(key)}"
        if isinstance(key, str) and len(key) > MAX_TEXT_CHARS:
            return [(where, len(key))]
        if key != "cards":
            found = _long_texts(item, where)
            if found:
                return found
    return []


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


