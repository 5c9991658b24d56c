"""The rule-conformance corpus: scenario files, the runner, and the adapter any engine can implement.

A scenario sets up an exact situation under a profile, applies moves written in the move
notation, and states what must follow each one: accepted or rejected (with the rule ID), and
any of the observable facts (hands, turn, colour, direction, pending draw, events, scores,
legal moves). The format is plain JSON, documented in docs/conformance.md, so another engine
can run the same corpus through a small adapter (:class:`Adapter`).

Nothing in a scenario file is executed: it is data, checked field by field before it runs (a
regular file of at most MAX_DOCUMENT_BYTES, strict JSON nesting at most MAX_JSON_DEPTH deep, each
value of the type its key takes), so a malformed file is reported, never run.
"""

from __future__ import annotations

import importlib.resources
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import attrs

from ..engine.cards import COLOR_LETTERS, parse_cards
from ..engine.dealing import from_position, new_game
from ..engine.errors import IllegalMoveError, NotationError, ProfileError, SerializationError, UnoEngineError, quoted
from ..engine.events import Event
from ..engine.legality import legal_moves
from ..engine.limits import MAX_DOCUMENT_BYTES, MAX_LISTED_PROBLEMS
from ..engine.profile import Profile
from ..engine.state import GameState
from ..engine.transition import apply_with_events
from ..formats.composition import load_profile
from ..formats.files import UnreadableFileError, read_bounded
from ..formats.notation import format_move, parse_move
from ..formats.profile_file import option_fields
from ..formats.serialize.parsing import parse_json

FORMAT: Final = "scenarios"
VERSION: Final = 1

_SCENARIO_KEYS: Final = frozenset({
    "id", "rules", "sources", "description", "profile", "options", "start", "deal", "steps",
})
_START_KEYS: Final = frozenset({
    "hands", "discard", "draw_pile", "color", "direction", "current", "dealer", "scores", "seed", "pending_draw",
})
_DEAL_KEYS: Final = frozenset({"players", "seed", "dealer", "deck"})
_STEP_KEYS: Final = frozenset({"move", "expect", "note"})
OBSERVED: Final = (
    "hand_sizes", "hands", "current", "phase", "color", "direction", "top", "pending_draw",
    "draw_pile_size", "discard_size", "uno_exposed", "scores", "round_over", "round_winner", "match_winner",
)
"""The facts an adapter reports after each move (docs/conformance.md lists their meaning)."""
_EXPECT_KEYS: Final = frozenset({*OBSERVED, "rejected", "events", "legal", "legal_includes", "legal_excludes"})


class ScenarioFileError(UnoEngineError):
    """A scenario file that is not valid: names the file, the field path and the problem."""


class Rejected(Exception):
    """Raised by an adapter when its engine refuses a move; ``rule`` is the RULES.md ID it cites."""

    def __init__(self, rule: str, reason: str = "") -> None:
        super().__init__(f"{rule} {reason}".strip())
        self.rule = rule
        self.reason = reason


class Unsupported(Exception):
    """Raised by an adapter for a scenario its engine cannot set up (a profile it lacks)."""


class Adapter(Protocol):
    """What the runner needs from an engine. ``Game`` handles are opaque to the runner.

    ``start`` builds the scenario's situation (its ``profile``, ``options`` and ``start`` or
    ``deal`` fields, see docs/conformance.md). ``play`` applies one move in notation and returns
    the new game and the events of the move as dicts (``{"type": "CardsDrawn", "player": 1,
    "count": 2, "rule": "ACT-3", ...}``), or raises :class:`Rejected`. ``observe`` reports the
    facts of :data:`OBSERVED`; ``legal`` the legal moves of one player, in notation.
    """

    def start(self, scenario: Mapping[str, Any]) -> Any: ...

    def play(self, game: Any, move: str) -> tuple[Any, list[dict[str, Any]]]: ...

    def observe(self, game: Any) -> dict[str, Any]: ...

    def legal(self, game: Any, player: int) -> list[str]: ...


# --- this engine's adapter ----------------------------------------------------------------
class EngineAdapter:
    """The adapter of unoengine itself: the reference the corpus is checked against."""

    def start(self, scenario: Mapping[str, Any]) -> GameState:
        profile = _scenario_profile(scenario)
        if "deal" in scenario:
            deal = scenario["deal"]
            deck = parse_cards(deal["deck"]) if "deck" in deal else None
            return new_game(profile, deal["players"], deal.get("seed", 0), dealer=deal.get("dealer"), deck=deck)
        start = scenario["start"]
        color = start.get("color")
        return from_position(
            profile, start["hands"], start["discard"],
            draw_pile=start.get("draw_pile"),
            color=COLOR_LETTERS.index(color) if isinstance(color, str) else None,
            direction=start.get("direction", 1), current=start.get("current", 0),
            dealer=start.get("dealer"), scores=start.get("scores"), seed=start.get("seed", 0),
            pending_draw=start.get("pending_draw", 0),
        )

    def play(self, game: GameState, move: str) -> tuple[GameState, list[dict[str, Any]]]:
        try:
            new, events = apply_with_events(game, parse_move(move))
        except IllegalMoveError as exc:
            raise Rejected(exc.rule, exc.reason) from exc
        return new, [event_to_dict(e) for e in events]

    def observe(self, game: GameState) -> dict[str, Any]:
        last = game.match.last_round
        return {
            "hand_sizes": [len(h) for h in game.hands],
            "hands": [" ".join(map(repr, h)) for h in game.hands],
            "current": game.current,
            "phase": game.phase.name,
            "color": COLOR_LETTERS[game.color] if game.color >= 0 else None,
            "direction": game.direction,
            "top": repr(game.top_card),
            "pending_draw": game.pending_draw,
            "draw_pile_size": game.draw_pile_size,
            "discard_size": game.discard[1],
            "uno_exposed": game.uno_exposed if game.uno_exposed >= 0 else None,
            "scores": list(game.match.scores),
            "round_over": game.round_over,
            "round_winner": last.winner if game.round_over and last is not None else None,
            "match_winner": game.match.winner,
        }

    def legal(self, game: GameState, player: int) -> list[str]:
        return [format_move(m) for m in legal_moves(game, player)]


def _scenario_profile(scenario: Mapping[str, Any]) -> Profile:
    """The scenario's profile (a name, composition or list) with its ``options`` (TOML key paths) set."""
    profile = load_profile(scenario["profile"])
    options = scenario.get("options", {})
    if not isinstance(options, dict):
        raise ProfileError("scenario", "options", "must be an object of option key paths")
    fields = option_fields()
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ProfileError("scenario", "options", f"unknown options {unknown}; known: {sorted(fields)}")
    return attrs.evolve(profile, **{fields[key]: value for key, value in options.items()}) if options else profile


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as plain data: its class name as ``type``, cards as names, colours as letters."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in attrs.fields(type(event)):
        value = getattr(event, field.name)
        if field.name == "color":
            value = COLOR_LETTERS[value]
        elif field.name in ("card", "first_card"):
            value = repr(value)
        elif field.name == "cards":
            value = " ".join(map(repr, value))
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


# --- loading --------------------------------------------------------------------------------
def shipped_corpus() -> list[Path]:
    """The scenario files that ship with the package, sorted by name."""
    folder = importlib.resources.files("unoengine") / "corpus"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".json"))


def load_scenarios(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every scenario of the files, checked; :class:`ScenarioFileError` lists every problem."""
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    if isinstance(paths, str | Path) or not isinstance(paths, Iterable):
        raise ScenarioFileError(f"load_scenarios takes a list of scenario file paths, got a {type(paths).__name__}")
    for path in paths:
        try:
            document = parse_json(read_bounded(path, MAX_DOCUMENT_BYTES), str(path))
        except UnreadableFileError as exc:
            problems.append(f"{path}: cannot be read: {exc.problem}")
            continue
        except SerializationError as exc:
            problems.append(f"{path}: cannot be read as JSON: {exc.problem}")
            continue
        for i, scenario in enumerate(_document_scenarios(document, str(path), problems)):
            where = f"{path}: scenarios[{i}]"
            found = _check_scenario(scenario, where)
            problems += found
            if not found:
                sid = scenario["id"]
                if sid in seen:
                    problems.append(f"{where}: id {sid!r} already used in {seen[sid]}")
                seen[sid] = str(path)
                out.append(scenario)
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
    if document.get("unoengine") != FORMAT or document.get("version") != VERSION:
        problems.append(f"{where}: expected \"unoengine\": {FORMAT!r} and \"version\": {VERSION}")
        return []
    extra = set(document) - {"unoengine", "version", "description", "scenarios"}
    if extra:
        problems.append(f"{where}: unknown keys {', '.join(quoted(k) for k in sorted(extra)[:5])}")
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
    if not isinstance(s.get("id"), str) or not s.get("id"):
        p.append(f"{where}.id: a non-empty string is required")
    else:
        where = f"{where} ({quoted(s['id'], 120)})"
    p += [f"{where}: unknown key {quoted(k)}" for k in sorted(set(s) - _SCENARIO_KEYS)]
    if not _str_list(s.get("rules")) or not s["rules"]:
        p.append(f"{where}.rules: a non-empty list of rule IDs is required")
    if not _str_list(s.get("sources", [])):
        p.append(f"{where}.sources: must be a list of source tags")
    if not isinstance(s.get("description", ""), str):
        p.append(f"{where}.description: must be a string")
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


def _check_profile(s: Mapping[str, Any], where: str) -> list[str]:
    spec = s.get("profile")
    if not (isinstance(spec, str) or _str_list(spec)):
        return [f"{where}.profile: a profile name, composition or list of them is required"]
    try:
        _scenario_profile(s)
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
}
_DEAL_TYPES: Final[dict[str, Check]] = {"players": _INT, "seed": _INT, "dealer": _SEAT_OR_NULL, "deck": _CARDS}
_EVENT: Final = ("events: a list of objects of event fields, their cards as card names",
                 _list_of(lambda e: isinstance(e, dict) and _is_cards(e.get("cards", ""))))
_MOVES: Final = ("a list of moves in notation", _list_of(_is_move))
_EXPECT_TYPES: Final[dict[str, Check]] = {
    "rejected": ("an object with a rule ID and optionally a reason", lambda v: isinstance(v, dict)
                 and isinstance(v.get("rule"), str) and isinstance(v.get("reason", ""), str)
                 and set(v) <= {"rule", "reason"}),
    "hand_sizes": ("a list of integers", _list_of(_is_int)),
    "hands": ('an object of seat ("0") = card names', _by_seat(_is_cards)),
    "current": _INT, "phase": ("a phase name", lambda v: isinstance(v, str)),
    "color": ("null or a colour letter", lambda v: v is None or isinstance(v, str)),
    "direction": _INT, "top": ("a card name", lambda v: isinstance(v, str)),
    "pending_draw": _INT, "draw_pile_size": _INT, "discard_size": _INT, "uno_exposed": _SEAT_OR_NULL,
    "scores": ("a list of integers", _list_of(_is_int)), "round_over": ("true or false", lambda v: type(v) is bool),
    "round_winner": _SEAT_OR_NULL, "match_winner": _SEAT_OR_NULL,
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
    if not isinstance(step.get("note", ""), str):
        p.append(f"{where}.note: must be a string")
    expect = step["expect"]
    if not isinstance(expect, dict):
        return [*p, f"{where}.expect: must be an object"]
    p += [f"{where}.expect: unknown key {quoted(k)}" for k in sorted(set(expect) - _EXPECT_KEYS)]
    p += _check_values(expect, _EXPECT_TYPES, f"{where}.expect")
    return p


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# --- running --------------------------------------------------------------------------------
@attrs.frozen
class Outcome:
    """The result of one scenario: ``status`` is "passed", "failed" or "unsupported"."""

    scenario: str
    rules: tuple[str, ...]
    status: str
    failures: tuple[str, ...] = ()
    rules_seen: tuple[str, ...] = ()
    """Rule IDs cited by the events of the moves played and by the refusals (clause coverage)."""


def run_scenario(scenario: Mapping[str, Any], adapter: Adapter) -> Outcome:
    """Run one scenario step by step; every mismatch of every step is recorded."""
    sid, rules = scenario["id"], tuple(scenario["rules"])
    try:
        game = adapter.start(scenario)
    except Unsupported as exc:
        return Outcome(sid, rules, "unsupported", (str(exc),))
    except (UnoEngineError, TypeError, ValueError, KeyError) as exc:  # a malformed start is the file's fault
        return Outcome(sid, rules, "failed", (f"set-up refused: {exc!r}",))
    failures: list[str] = []
    seen: set[str] = set()
    for i, step in enumerate(scenario["steps"]):
        where = f"step {i} ({step['move']})"
        expect = step["expect"]
        before = adapter.observe(game)
        try:
            game, events = adapter.play(game, step["move"])
        except Rejected as refusal:
            seen.add(refusal.rule)
            failures += _check_rejection(expect, refusal, where)
            after = adapter.observe(game)
            if after != before:
                failures.append(f"{where}: a refused move changed the game")
            failures += _check_observed(expect, after, where)
            continue
        seen.update(e.get("rule", "") for e in events)
        if "rejected" in expect:
            failures.append(f"{where}: accepted, expected a refusal citing {expect['rejected']['rule']}")
            continue
        failures += _check_observed(expect, adapter.observe(game), where)
        failures += _check_events(expect.get("events"), events, where)
        failures += _check_legal(expect, adapter, game, where)
    status = "failed" if failures else "passed"
    return Outcome(sid, rules, status, tuple(failures), tuple(sorted(seen - {""})))


def _check_rejection(expect: Mapping[str, Any], refusal: Rejected, where: str) -> list[str]:
    wanted = expect.get("rejected")
    if wanted is None:
        return [f"{where}: refused ({refusal}), expected it to be accepted"]
    out = []
    if refusal.rule != wanted["rule"]:
        out.append(f"{where}: refused citing {refusal.rule}, expected {wanted['rule']}")
    if "reason" in wanted and refusal.reason and refusal.reason != wanted["reason"]:
        out.append(f"{where}: refused for {refusal.reason!r}, expected {wanted['reason']!r}")
    return out


def _check_observed(expect: Mapping[str, Any], seen: Mapping[str, Any], where: str) -> list[str]:
    out = []
    for key in OBSERVED:
        if key not in expect:
            continue
        want, got = expect[key], seen[key]
        if key == "hands":
            for seat, cards in want.items():
                if int(seat) >= len(got):
                    out.append(f"{where}: there is no seat p{seat}")
                    continue
                have = got[int(seat)]
                if Counter(parse_cards(cards)) != Counter(parse_cards(have)):
                    out.append(f"{where}: hand of p{seat} is {have!r}, expected {cards!r}")
        elif want != got:
            out.append(f"{where}: {key} is {got!r}, expected {want!r}")
    return out


def _check_events(wanted: Any, events: list[dict[str, Any]], where: str) -> list[str]:
    """Each expected event must occur, in order, with the fields it gives (a subsequence)."""
    if wanted is None:
        return []
    i = 0
    for want in wanted:
        while i < len(events) and not _event_matches(want, events[i]):
            i += 1
        if i == len(events):
            return [f"{where}: expected event {want} (in order) among {events}"]
        i += 1
    return []


def _event_matches(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    for key, value in want.items():
        if key == "cards":
            if Counter(parse_cards(value)) != Counter(parse_cards(got.get(key, ""))):
                return False
        elif got.get(key) != value:
            return False
    return True


def _check_legal(expect: Mapping[str, Any], adapter: Adapter, game: Any, where: str) -> list[str]:
    out = []
    for seat, moves in expect.get("legal", {}).items():
        have = {_canonical(m) for m in adapter.legal(game, int(seat))}
        want = {_canonical(m) for m in moves}
        if have != want:
            out.append(f"{where}: legal moves of p{seat}: missing {sorted(want - have)}, extra {sorted(have - want)}")
    everyone = None
    for key, present in (("legal_includes", True), ("legal_excludes", False)):
        if key in expect:
            if everyone is None:
                players = len(adapter.observe(game)["hand_sizes"])
                everyone = {_canonical(m) for q in range(players) for m in adapter.legal(game, q)}
            for m in expect[key]:
                if (_canonical(m) in everyone) != present:
                    out.append(f"{where}: {m!r} {'missing from' if present else 'listed among'} the legal moves")
    return out


def _canonical(move: str) -> str:
    return format_move(parse_move(move))


@attrs.frozen
class Report:
    """The outcomes of a run, with the counts a summary needs."""

    outcomes: tuple[Outcome, ...]

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        return self.count("failed") == 0

    def rules_declared(self) -> set[str]:
        return {r for o in self.outcomes for r in o.rules}

    def rules_exercised(self) -> set[str]:
        """Rule IDs cited by the events and refusals of passing scenarios."""
        return {r for o in self.outcomes if o.status == "passed" for r in o.rules_seen}

    def coverage(self) -> dict[str, tuple[int, bool]]:
        """For each rule ID: how many passing scenarios declare it, and whether events or refusals cited it."""
        exercised = self.rules_exercised()
        declared: dict[str, int] = {}
        for o in self.outcomes:
            if o.status == "passed":
                for r in o.rules:
                    declared[r] = declared.get(r, 0) + 1
        return {r: (declared.get(r, 0), r in exercised) for r in sorted(set(declared) | exercised, key=_rule_key)}


def _rule_key(rule: str) -> tuple[str, int]:
    prefix, _, number = rule.rpartition("-")
    return (prefix, int(number) if number.isdigit() else 0)


def run(scenarios: Iterable[Mapping[str, Any]], adapter: Adapter | None = None) -> Report:
    """Run every scenario with ``adapter`` (this engine's by default)."""
    chosen = adapter if adapter is not None else EngineAdapter()
    return Report(tuple(run_scenario(s, chosen) for s in scenarios))
