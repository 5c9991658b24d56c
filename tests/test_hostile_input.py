"""Hostile input never crashes, hangs or balloons (issue 13): every attack reproduced on the code
before it, each refused now with an UnoEngineError naming the field, in bounded work (counted in
lines of Python) and memory (engine/limits.py, docs/api.md "Limits"); the command line prints one
line and exits 2."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import pytest
from budget import budget
from helpers_hostile import cli_refuses, refused, short
from helpers_work import at_most_lines

import unoengine as u
from unoengine.bots import register_bot
from unoengine.engine import limits
from unoengine.tools import conformance as c
from unoengine.tools import simulate as sim

CLASSIC = u.load_profile("classic-108")


def state_text(**changes: Any) -> str:
    doc = u.to_json(u.new_game(CLASSIC, 2, seed=1))
    doc.update(changes)
    return json.dumps(doc)


# --- JSON documents: fields beyond their limits are refused before they are read ------------------
def test_a_state_of_a_million_empty_hands_is_refused_at_once() -> None:
    """SETUP-1: 4 MB of hands (a million players) took 1.85 s and 530 MB, and an 84 MB message."""
    text = state_text(hands=[""] * 1_000_000)
    assert len(text) < limits.MAX_DOCUMENT_BYTES
    error = refused(u.SerializationError, lambda: u.loads(text), megabytes=100)
    assert error.field == "hands" and "1,000,000 players" in str(error)


def test_a_parsed_document_of_a_million_hands_is_refused_at_once() -> None:
    """SETUP-1: the same built in Python (from_json): the hands are counted, not read."""
    doc = json.loads(state_text())
    doc["hands"] = [""] * 1_000_000
    assert refused(u.SerializationError, lambda: u.from_json(doc), megabytes=5).field == "hands"


def test_ten_million_hands_are_refused_before_parsing() -> None:
    """A 40 MB document ended in MemoryError; it is refused by its size (MAX_DOCUMENT_BYTES) unread."""
    text = state_text(hands=[]).replace('"hands": []', '"hands": [' + '"", ' * 10_000_000 + '""]')
    error = refused(u.SerializationError, lambda: u.loads(text), megabytes=1)
    assert error.field == "json" and "larger than the limit" in str(error)
    data = text.encode()
    refused(u.SerializationError, lambda: u.loads(data), megabytes=1, match="larger than the limit")


@pytest.mark.parametrize("entries", [20_000, 1_000_000])
def test_a_flood_of_known_entries_is_refused_quickly(entries: int) -> None:
    """A million ``known`` entries took 21 s; at most one per (viewer, owner) pair is read, and the
    message stays short."""
    text = state_text(known=[{"viewer": 0, "owner": 1, "cards": "R1"}] * entries)
    error = refused(u.SerializationError, lambda: u.loads(text), megabytes=50)
    assert error.field in ("known", "json")


def test_a_document_nested_a_thousand_deep_is_refused_before_parsing() -> None:
    """Python's JSON parser recurses: nesting beyond MAX_JSON_DEPTH is found by a scan first."""
    for text in ("[" * 1000 + "]" * 1000, '{"a": ' * 1000 + "1" + "}" * 1000, "[" * 100_000):
        with at_most_lines(), pytest.raises(u.SerializationError) as info:
            u.loads(text)
        assert "nested deeper than 32" in short(info.value)
    deep_but_allowed = "[" * 32 + "]" * 32
    with pytest.raises(u.SerializationError, match="document"):
        u.loads(deep_but_allowed)


def test_every_problem_of_a_ruined_document_is_counted_not_listed() -> None:
    """Problems beyond MAX_LISTED_PROBLEMS are counted: the message stays short."""
    doc = json.loads(state_text())
    doc["hands"] = [" ".join(["X9"] * 20)] * 10
    doc["known"] = [{"viewer": "x", "owner": "y", "cards": "Q"}] * 90
    doc["match"]["scores"] = ["a"] * 2
    with at_most_lines(), pytest.raises(u.SerializationError) as info:
        u.from_json(doc)
    assert len(info.value.problems) == limits.MAX_LISTED_PROBLEMS + 1
    assert "more problems not listed" in info.value.problems[-1][1]
    short(info.value)


# --- notation: a bounded prefix is quoted --------------------------------------------------------
def test_a_ten_megabyte_move_is_quoted_by_its_start_and_length() -> None:
    """The notation error quoted the whole input (a 20 MB message for a 10 MB move)."""
    text = "p0 " + "R" * 10_000_000
    message = str(refused(u.NotationError, lambda: u.parse_move(text), megabytes=1))
    assert "'p0 RRRR" in message and "(10,000,003 characters)" in message and "too long" in message


@pytest.mark.parametrize("parse", [u.parse_card, u.parse_color, u.parse_cards])
def test_huge_card_and_colour_names_are_quoted_briefly(parse: Any) -> None:
    text = "Q" * 10_000_000
    assert "(10,000,000 characters)" in str(refused(u.NotationError, lambda: parse(text), megabytes=1))


def test_huge_cards_and_moves_in_documents_are_quoted_briefly() -> None:
    doc = json.loads(state_text())
    doc["hands"][0] = "Q" * 5_000_000
    with at_most_lines(), pytest.raises(u.SerializationError) as info:
        u.loads(json.dumps(doc))
    assert info.value.field == "hands[0]"
    short(info.value)
    record = u.to_json(u.GameRecord(CLASSIC, 2, 1))
    record["moves"] = ["p0 " + "R" * 5_000_000]
    with at_most_lines(), pytest.raises(u.SerializationError) as info:
        u.loads(json.dumps(record))
    assert info.value.field == "moves[0]" and "too long" in short(info.value)


# --- files: only regular files, never more than the limit ---------------------------------------
def test_dev_zero_is_never_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """load_profile("/dev/zero") read until MemoryError; so did extends, --resume and a scenario naming it."""
    error = refused(u.ProfileError, lambda: u.load_profile("/dev/zero"), megabytes=5)
    assert error.key == "file" and "not a regular file" in str(error)
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    refused(u.ProfileError, lambda: u.load_profile(tmp_path / "zero.toml"), megabytes=5, match="not a regular file")
    mine = tmp_path / "mine.toml"
    for extends in ("/dev/zero", "zero.toml"):
        mine.write_text(f'extends = "{extends}"\n')
        assert refused(u.ProfileError, lambda: u.load_profile(mine), megabytes=5).key == "extends"
    for args in (["play", "--resume", "/dev/zero"], ["conformance", "/dev/zero"], ["profiles", "/dev/zero"],
                 ["simulate", "--profile", "/dev/zero"], ["demo", "--profile", "/dev/zero"]):
        assert "not a regular file" in cli_refuses(args, capsys, megabytes=20)
    scenario = tmp_path / "s.json"
    for profile in ("/dev/zero", "zero.toml"):  # an absolute path, a link out of the scenario's folder
        scenario.write_text(json.dumps(scenario_document(profile=profile)))
        refused(c.ScenarioFileError, lambda: c.load_scenarios([scenario]), megabytes=5,
                match="is an absolute path|is outside this file's folder")
    (tmp_path / "devices").mkdir()
    os.mkfifo(tmp_path / "devices" / "pipe.toml")  # a FIFO inside it: never opened
    scenario.write_text(json.dumps(scenario_document(profile="devices/pipe.toml")))
    refused(c.ScenarioFileError, lambda: c.load_scenarios([scenario]), megabytes=5, match="not a regular file")


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    yield path


def test_a_fifo_is_never_opened(fifo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Opening a FIFO blocks until someone writes to it: a named FIFO blocked forever."""
    with at_most_lines(), pytest.raises(u.ProfileError, match="not a regular file"):
        u.load_profile(fifo)
    mine = tmp_path / "mine.toml"
    mine.write_text(f'extends = "{fifo.name}"\n')
    with at_most_lines(), pytest.raises(u.ProfileError, match="not a regular file"):
        u.load_profile(mine)
    for args in (["play", "--resume", str(fifo)], ["conformance", str(fifo)], ["profiles", str(fifo)]):
        assert "not a regular file" in cli_refuses(args, capsys)


def test_files_larger_than_their_limit_are_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as out:
        out.truncate(limits.MAX_PROFILE_BYTES + 1)
    refused(u.ProfileError, lambda: u.load_profile(big), megabytes=1, match="larger than the limit")
    save = tmp_path / "big.json"
    with save.open("wb") as out:
        out.truncate(limits.MAX_DOCUMENT_BYTES + 1)
    assert "larger than the limit" in cli_refuses(["play", "--resume", str(save)], capsys, megabytes=5)
    assert "larger than the limit" in cli_refuses(["conformance", str(save)], capsys, megabytes=5)


# --- TOML: nesting and extends chains never recurse too deep ------------------------------------------
def nested_headers(depth: int) -> str:
    return "[" + ".".join(["a"] * depth) + "]\nx = 1\n"


@pytest.mark.parametrize(("name", "text"), [
    ("array", 'name = "x"\nsources = ' + "[" * 500 + "]" * 500 + "\n"),
    ("inline table", 'name = "x"\nsources = ' + "{a = " * 500 + "1" + "}" * 500 + "\n"),
    ("table", 'name = "x"\n' + nested_headers(500)),
    ("dotted key", 'name = "x"\n' + ".".join(["a"] * 500) + " = 1\n"),
    ("table in a file that extends", 'extends = "classic-108"\n' + nested_headers(500)),
    ("table in an overlay", "overlay = true\n[play" + ".a" * 500 + "]\nx = 1\n"),
])
def test_toml_nested_500_deep_is_refused(tmp_path: Path, name: str, text: str) -> None:
    """A 1 KB file of nested arrays or tables raised RecursionError (the parser, deepcopy or the walk)."""
    path = tmp_path / "deep.toml"
    path.write_text(text)
    spec: Any = ["classic-108", path] if "overlay" in name else path
    with at_most_lines(), pytest.raises(u.ProfileError) as info:
        u.load_profile(spec)
    assert info.value.key == "toml" and "nested deeper than 16" in short(info.value)


def test_profile_tables_nested_deeply_in_code_are_refused() -> None:
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]
    with at_most_lines(), pytest.raises(u.ProfileError, match="nested deeper"):
        u.profile_from_dict({"name": "x", "deck": deep})


def test_an_extends_chain_of_500_files_is_refused(tmp_path: Path) -> None:
    """HOUSE-8: a chain of 500 files extending each other raised RecursionError."""
    (tmp_path / "f0.toml").write_text('extends = "classic-108"\n')
    for i in range(1, 500):
        (tmp_path / f"f{i}.toml").write_text(f'extends = "f{i - 1}.toml"\n')
    with at_most_lines(), pytest.raises(u.ProfileError) as info:
        u.load_profile(tmp_path / "f499.toml")
    assert info.value.key == "extends" and "more than 16" in short(info.value)
    assert u.load_profile(tmp_path / "f15.toml").name == "f15"  # 16 files extending is within the limit
    with pytest.raises(u.ProfileError, match="more than 16"):
        u.load_profile(tmp_path / "f16.toml")


# --- names and paths that are not names or paths ---------------------------------------------------
@pytest.mark.parametrize("spec", [
    "x" * 300, "a" * 5000 + ".toml", "a\0b.toml", "a\0b", None, 5, b"classic-108", ["classic-108", None],
    [], ["classic-108"] * 100, "classic-108+" * 2000, "", "+", object(),
])
def test_a_bad_profile_specification_is_a_profile_error(spec: Any) -> None:
    """A 300-character name raised OSError, a NUL ValueError, None TypeError."""
    with at_most_lines(), pytest.raises(u.ProfileError) as info:
        u.load_profile(spec)
    short(info.value)


@pytest.mark.parametrize("args", [
    ["profiles", "x" * 300], ["profiles", "a\0b.toml"], ["simulate", "--profile", "x" * 300],
    ["play", "--profile", "a\0b.toml"], ["play", "--resume", "a\0b.json"], ["play", "--resume", "x" * 5000],
    ["demo", "--profile", "nope"], ["demo", "--players", "11"], ["tournament", "--profile", "x" * 300],
    ["conformance", "a\0b.json"],
])
def test_the_command_line_reports_a_bad_name_in_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Each ended in a traceback (OSError, ValueError) where docs promise one line and exit 2."""
    cli_refuses(args, capsys)


def test_deeply_nested_json_given_to_play_resume_is_one_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``play --resume`` of deeply nested JSON raised RecursionError."""
    path = tmp_path / "deep.json"
    for text in ("[" * 100_000 + "]" * 100_000, '{"unoengine": "saved-game", "record": ' + "[" * 5000):
        path.write_text(text)
        assert "nested" in cli_refuses(["play", "--resume", str(path)], capsys)


# --- conformance files: malformed is exit 2, never a traceback ----------------------------------------
def scenario_document(**changes: Any) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "id": "act-3-example", "rules": ["ACT-3"], "sources": ["OG"], "profile": "classic-108",
        "start": {"hands": ["R+2 G3 G4", "B1 B2", "Y1 Y2"], "discard": "R5", "draw_pile": "G1 G2 G6"},
        "steps": [{"move": "p0 R+2", "expect": {
            "hand_sizes": [2, 4, 2], "current": 2, "hands": {"1": "B1 B2 G1 G2"},
            "events": [{"type": "CardsDrawn", "player": 1, "count": 2, "cards": "G1 G2", "rule": "ACT-3"}],
            "legal": {"2": ["p2 draw"]}, "legal_includes": ["p2 draw"]}}],
    }
    scenario.update(changes)
    return {"unoengine": "scenarios", "version": 1, "scenarios": [scenario]}


ODD = [None, 5, -1, 1.5, True, "", "x", [], {}, [None], {"x": None}, "Q9 Z", 10**30, "9" * 5000]
"""Values of every type, put where a scenario's fields are."""

SCENARIO_PATHS = [
    ("start",), ("start", "hands"), ("start", "hands", 0), ("start", "discard"), ("start", "draw_pile"),
    ("start", "color"), ("start", "direction"), ("start", "current"), ("start", "dealer"), ("start", "scores"),
    ("start", "seed"), ("start", "pending_draw"), ("steps",), ("steps", 0), ("steps", 0, "move"),
    ("steps", 0, "note"), ("steps", 0, "expect"), ("steps", 0, "expect", "hands"), ("steps", 0, "expect", "hands", "1"),
    ("steps", 0, "expect", "events"), ("steps", 0, "expect", "events", 0), ("steps", 0, "expect", "events", 0, "cards"),
    ("steps", 0, "expect", "legal"), ("steps", 0, "expect", "legal", "2"), ("steps", 0, "expect", "legal", "2", 0),
    ("steps", 0, "expect", "legal_includes"), ("steps", 0, "expect", "legal_excludes"),
    ("steps", 0, "expect", "rejected"), ("steps", 0, "expect", "current"), ("steps", 0, "expect", "round_over"),
    ("id",), ("rules",), ("sources",), ("description",), ("profile",), ("options",), ("options", "uno.penalty"),
]


def set_path(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target: Any = doc["scenarios"][0]
    for key in path[:-1]:
        target = target.setdefault(key, {}) if isinstance(target, dict) else target[key]
    target[path[-1]] = value


def hostile_scenario_files(tmp_path: Path) -> Iterator[Path]:
    """Fields of a valid scenario given odd values (every pair in the deep run, a fixed sample of
    them in the quick one), the deal form, and broken texts."""
    pairs = [(i, j) for i in range(len(SCENARIO_PATHS)) for j in range(len(ODD))]
    for i, j in sorted(random.Random(13).sample(pairs, min(len(pairs), budget(60, len(pairs))))):
        doc = scenario_document()
        set_path(doc, SCENARIO_PATHS[i], ODD[j])
        file = tmp_path / f"s{i}-{j}.json"
        file.write_text(json.dumps(doc))
        yield file
    for j, value in enumerate(ODD):
        for key in ("players", "seed", "dealer", "deck"):
            doc = scenario_document()
            scenario = doc["scenarios"][0]
            del scenario["start"]
            scenario["deal"] = {"players": 3, key: value}
            file = tmp_path / f"d-{key}-{j}.json"
            file.write_text(json.dumps(doc))
            yield file
    for k, text in enumerate(["[" * 50_000, '{"unoengine": "scenarios", "version": 1, "scenarios": [' + "{" * 40,
                              '{"unoengine": "scenarios", "version": 1, "version": 1}', "\xff\xfe", "NaN"]):
        file = tmp_path / f"t{k}.json"
        file.write_text(text, encoding="latin-1")
        yield file


def test_hostile_scenario_files_never_end_in_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """17 of 47 hostile scenario files ended in a traceback (exit 1) where docs promise exit 2."""
    malformed = files = 0
    for path in hostile_scenario_files(tmp_path):
        files += 1
        with at_most_lines():
            rc = u.tools.cli.main(["conformance", str(path)])
        captured = capsys.readouterr()
        assert rc in (0, 1, 2), path
        assert "Traceback" not in captured.err
        if rc == 2:
            malformed += 1
            lines = captured.err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("unoengine conformance: "), (path, captured.err[:500])
    assert malformed > files * 0.7  # nearly every odd value is of the wrong type for its field


@pytest.mark.parametrize(("path", "value"), [
    (("start", "color"), "RY"), (("steps", 0, "expect", "hands"), {"one": "R1"}),
    (("steps", 0, "expect", "events", 0, "cards"), 5), (("steps", 0, "expect", "legal"), ["p2 draw"]),
    (("steps", 0, "expect", "legal_includes"), [5]), (("steps", 0, "expect", "rejected"), {"rule": "X", "why": 1}),
    (("start", "hands", 0), "R+2 Q7"),
])
def test_a_value_of_the_wrong_type_in_a_scenario_is_malformed(tmp_path: Path, path: tuple[Any, ...],
                                                              value: Any) -> None:
    doc = scenario_document()
    set_path(doc, path, value)
    file = tmp_path / "s.json"
    file.write_text(json.dumps(doc))
    with pytest.raises(c.ScenarioFileError, match="must be"):
        c.load_scenarios([file])


# --- simulate: counts are bounded before anything is allocated ----------------------------------------
@pytest.mark.parametrize("args", [
    ["--games", str(10**16)], ["--games", "-1"], ["--workers", "1000"], ["--workers", "0"],
    ["--max-moves", "0"], ["--bots", "random"], ["--bots", ",".join(["random"] * 11)], ["--bots", "nobody,random"],
    ["--seed", str(2**70)],
])
def test_simulate_refuses_its_counts_before_allocating(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --games 1000000000000`` allocated 3.9 GB before playing. Now a run is streamed
    and tallied (test_cluster.py starts that very run and stops it with Ctrl-C); counts beyond
    MAX_STREAMED_GAMES, and a tournament's beyond MAX_GAMES (it keeps its results), are refused."""
    cli_refuses(["simulate", *args], capsys, megabytes=20)
    cli_refuses(["tournament", *args], capsys, megabytes=20)


def test_a_tournament_refuses_more_games_than_it_can_keep(capsys: pytest.CaptureFixture[str]) -> None:
    cli_refuses(["tournament", "--games", str(10**12)], capsys, megabytes=20)


def test_run_refuses_its_counts_with_a_run_error() -> None:
    for kwargs in ({"games": 10**12}, {"games": 2.0}, {"workers": 10**6}, {"seed": 2**100}, {"max_moves": 0}):
        arguments: dict[str, Any] = {"games": 1, **kwargs}
        error = refused(sim.RunError, partial(sim.run, "classic-108", ["random", "random"], **arguments), megabytes=5)
        assert next(iter(kwargs)) in str(error)
    assert issubclass(sim.RunError, u.UnoEngineError)


# --- moves: fields are checked by exact type ------------------------------------------------------------
def exposed_state() -> u.GameState:
    """Player 0 has played the next-to-last card without calling UNO: player 1 may catch p0."""
    state = u.from_position(CLASSIC, ["R5 R6", "B1 B2", "Y1 Y2"], "R3", draw_pile="G1 G2 G3 G4")
    state = u.apply(state, u.Play(0, u.parse_card("R5")))
    assert state.uno_exposed == 0
    return state


@pytest.mark.parametrize("target", [0.0, False, "0", None, [0]])
def test_a_catch_of_a_seat_that_only_equals_one_is_refused(target: Any) -> None:
    """UNO-2: CatchUno(1, 0.0) equals CatchUno(1, 0), passed the check and crashed apply with TypeError."""
    state = exposed_state()
    move = u.CatchUno(1, target)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)
    assert (info.value.rule, info.value.reason) == ("MOVE", "bad-field") and "target" in info.value.detail
    with pytest.raises(u.IllegalMoveError):
        u.apply_with_events(state, move)


@pytest.mark.parametrize("uno", ["no", "", 1, 0, None, 1.0])
def test_a_uno_flag_must_be_a_bool(uno: Any) -> None:
    """UNO-1: Play(0, "R5", uno="no") was accepted, as calling UNO."""
    state = u.from_position(CLASSIC, ["R5 R6", "B1 B2"], "R3", draw_pile="G1 G2")
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, u.Play(0, "R5", uno=uno))
    assert (info.value.rule, info.value.reason) == ("MOVE", "bad-field") and "uno" in info.value.detail


@pytest.mark.parametrize(("move", "reason"), [
    (u.Play(0, "W", color=0.0), "colour-required"), (u.Play(0, "W", color=True), "colour-required"),
    (u.Play(0, "W", color=-1), "colour-required"), (u.Play(0, True), "unknown-card"),
    (u.Play(0, 5.0), "unknown-card"), (u.Play(0, "W", color=u.Color.RED), None),
])
def test_colours_and_cards_are_checked_by_exact_type(move: u.Play, reason: str | None) -> None:
    """ACT-4/PLAY-1: a float or bool that equals a colour or a card code is neither."""
    state = u.from_position(CLASSIC, ["W R6", "B1 B2"], "R3", draw_pile="G1 G2")
    if reason is None:
        u.apply(state, move)
        return
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)
    assert info.value.reason == reason


def test_choose_colour_takes_a_colour_not_a_number_that_equals_one() -> None:
    """SETUP-8: ChooseColor(p, 1.0) is refused, ChooseColor(p, 1) becomes Color.YELLOW."""
    front = [*u.parse_cards("R1 Y1 R2 Y2 R3 Y3 R4 Y4 R6 Y6 R7 Y7 R8 Y8"), u.WILD]  # 2 players: 14 dealt, W turned
    rest = Counter(u.CARDS[code] for code in CLASSIC.deck_cards()) - Counter(front)
    state = u.new_game(CLASSIC, 2, dealer=1, deck=front + sorted(rest.elements()))
    assert (state.phase, state.current) == (u.Phase.CHOOSE_COLOR, 0)
    for color in (1.0, True, 7, -1, "purple"):
        with pytest.raises((u.IllegalMoveError, u.NotationError), match="colour"):
            u.apply(state, u.ChooseColor(0, color))
    assert u.apply(state, u.ChooseColor(0, 1)).color == u.Color.YELLOW


class FloatCatcher:
    """A bot that catches with a float seat: CatchUno(p, 0.0) is "in" its legal moves (it equals one)."""

    name = "float-catcher"

    def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
        for move in view.legal_moves:
            if isinstance(move, u.CatchUno):
                return u.CatchUno(move.player, float(move.target))
        mine = [m for m in view.legal_moves if m.player == view.player]
        return mine[0] if view.player == view.current and mine else None


def test_a_bot_returning_a_float_seat_is_refused_by_the_engine() -> None:
    """simulate.play_game crashed with TypeError on such a catch; now the engine refuses it."""
    register_bot("float-catcher", FloatCatcher)
    profile = attrs.evolve(CLASSIC, uno_penalty=2)
    refused = 0
    for seed in range(40):
        try:
            sim.play_game(profile, ["float-catcher", "random", "random"], seed)
        except u.IllegalMoveError as exc:
            assert exc.reason == "bad-field"
            refused += 1
    assert refused  # random bots forget UNO, and the catcher then tries its float seat


@pytest.mark.parametrize("move", [
    u.Play(0, "W", color=7), u.Play(0, "W", color=-1), u.Play(0, "R5", uno="yes"), u.Play(-1, "R5"),
    u.Play("p0", "R5"), u.Play(100, "R5"), u.Play(0, "R7", target=1.0), u.Play(0, True), u.CatchUno(0, 1.0),
    u.ChooseColor(0, 4), u.Draw(True), u.Draw(10**400), u.Play(0, 10**400),
])
def test_format_move_refuses_what_the_notation_cannot_write(move: Any) -> None:
    """format_move(Play(0, "W", color=7)) raised IndexError; colour -1 was written as blue."""
    with pytest.raises(u.NotationError) as info:
        u.format_move(move)
    short(info.value)
    with pytest.raises(u.UnoEngineError):
        u.dumps(move)


# --- profiles validate themselves on every construction, with the deal check -----------------------
@pytest.mark.parametrize("changes", [
    {"hand_size": 50}, {"deck_counts": (1,) + (0,) * 57}, {"deck_counts": (100_000,) * 58},
    {"deck_counts": (1000,) * 58}, {"points": (10**9,) * 58}, {"name": ""}, {"name": None},
    {"hand_size": 11}, {"max_players": 11}, {"min_players": 5, "max_players": 4}, {"deck_counts": (True,) * 58},
])
def test_a_profile_no_game_can_use_does_not_construct(changes: dict[str, Any]) -> None:
    """SETUP-1/DECK-5: evolve(classic, hand_size=50) constructed and new_game raised IndexError; 10**5
    copies of every card took 4.4 s and 500 MB."""
    refused(u.ProfileError, lambda: attrs.evolve(CLASSIC, **changes), megabytes=5)


def test_a_deck_one_card_short_of_the_deal_is_refused_and_one_that_suffices_deals() -> None:
    """SETUP-1/SETUP-3: the deck must deal hand_size to max_players and turn a first card."""
    for players in range(2, 11):
        need = 7 * players + 1
        for extra, deals in ((-1, False), (0, True)):
            counts = [0] * 58
            counts[u.parse_card("R+2")] = need + extra  # every first card is a Draw Two with nothing to draw
            if not deals:
                with pytest.raises(u.ProfileError, match="cannot deal"):
                    attrs.evolve(CLASSIC, deck_counts=tuple(counts), max_players=players)
                continue
            profile = attrs.evolve(CLASSIC, deck_counts=tuple(counts), max_players=players)
            for n in range(2, players + 1):
                state = u.new_game(profile, n, seed=n)
                assert state.phase is u.Phase.PLAY


@pytest.mark.parametrize(("changes", "constructs"), [
    ({"hand_size": 50}, False), ({"points": (20_000,) * 58}, False), ({"deck_counts": (2000,) + (1,) * 57}, False),
    ({"name": ""}, False), ({"hand_size": 10}, True), ({"points": (10_000,) * 58}, True),
    ({"name": "x" * 1000}, True), ({"deck_counts": (4,) * 58, "hand_size": 22}, True),
])
def test_dumps_writes_only_what_loads_reads_back(changes: dict[str, Any], constructs: bool) -> None:
    """``dumps`` wrote profiles that ``loads`` refused: one set of checks now serves both, so a
    profile that loading would refuse does not construct."""
    if not constructs:
        with pytest.raises(u.ProfileError):
            attrs.evolve(CLASSIC, **changes)
        return
    profile = attrs.evolve(CLASSIC, **changes)
    assert u.loads(u.dumps(profile)) == profile
    assert u.profile_from_dict(json.loads(u.dumps(profile))["profile"]) == profile


# --- profile files reveal nothing they do not own ------------------------------------------------------
@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A folder of profiles beside a file of secrets."""
    (tmp_path / "secrets.toml").write_text('password = "hunter2"\n[uno]\npenalty = "hunter2"\n')
    folder = tmp_path / "profiles"
    folder.mkdir()
    (folder / "tables").mkdir()
    (folder / "tables" / "family.toml").write_text('name = "family"\nextends = "classic-108"\n[uno]\npenalty = 3\n')
    return folder


@pytest.mark.parametrize("extends", ["../secrets.toml", "tables/../../secrets.toml", "SECRETS_ABSOLUTE", "link.toml"])
def test_extends_cannot_reach_outside_the_files_folder(table: Path, extends: str) -> None:
    """``extends = "../secrets.toml"`` echoed that file's keys and values in the error."""
    (table / "link.toml").symlink_to(table.parent / "secrets.toml")
    extends = extends.replace("SECRETS_ABSOLUTE", str(table.parent / "secrets.toml"))
    mine = table / "mine.toml"
    mine.write_text(f"extends = {extends!r}\n")
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(mine)
    assert info.value.key == "extends" and info.value.source == str(mine)
    assert "hunter2" not in str(info.value) and "password" not in str(info.value)


def test_extends_reaches_shipped_names_and_files_below_its_folder(table: Path) -> None:
    mine = table / "mine.toml"
    mine.write_text('extends = "tables/family.toml"\n[play]\ndecline_to_play = false\n')
    assert u.load_profile(mine) == attrs.evolve(CLASSIC, name="mine", uno_penalty=3, decline_to_play=False)


def test_a_problem_in_what_is_extended_names_that_file_alone(table: Path) -> None:
    (table / "bad.toml").write_text('name = "bad"\nextends = "classic-108"\n[uno]\npenalty = 99\n')
    mine = table / "mine.toml"
    mine.write_text('extends = "bad.toml"\n[uno]\npenalty = 3\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(mine)
    assert info.value.key == "uno.penalty" and str(mine) not in info.value.source
    assert str(table / "bad.toml") in info.value.source


def test_an_overlays_own_extends_is_refused(tmp_path: Path) -> None:
    """HOUSE-8: an overlay's ``extends`` was silently ignored."""
    overlay = tmp_path / "over.toml"
    overlay.write_text('overlay = true\nextends = "gdj85"\n[uno]\npenalty = 4\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(["classic-108", overlay])
    assert info.value.key == "extends" and info.value.source == str(overlay)


# --- other public functions given the wrong kind of value -------------------------------------------
@pytest.mark.parametrize("thing", [None, 5, "state", u.view(u.new_game(CLASSIC, 2), 0), object()])
def test_a_state_that_is_not_a_state_is_an_engine_error(thing: Any) -> None:
    with pytest.raises(u.PositionError, match="expected a GameState"):
        u.legal_moves(thing)
    with pytest.raises(u.PositionError, match="expected a GameState"):
        u.apply(thing, u.Draw(0))
    with pytest.raises(u.PositionError, match="expected a GameState"):
        u.view(thing, 0)


@pytest.mark.parametrize(("call", "error"), [
    (lambda: u.hand_points(CLASSIC, None), u.PositionError), (lambda: u.hand_points(None, ()), u.PositionError),
    (lambda: u.events_for(None, 0), u.UnoEngineError), (lambda: u.events_for([1], 0), u.UnoEngineError),
    (lambda: u.from_position(CLASSIC, "R1 R2", "R3"), u.PositionError),
    (lambda: u.from_position(CLASSIC, [iter(lambda: "R1", None), "R2"], "R3"), u.PositionError),
    (lambda: u.new_game(CLASSIC, 2, deck=iter(lambda: 1, None)), u.PositionError),
    (lambda: u.from_position(CLASSIC, ["R1", "R2"], "R3", scores=iter(lambda: 0, None)), u.PositionError),
    (lambda: u.from_position(CLASSIC, ["R1", "R2"], "R3", color=0.0), u.PositionError),
    (lambda: u.from_position(CLASSIC, ["R1", "R2"], "R3", direction=1.0), u.PositionError),
    (lambda: u.to_json(object()), u.SerializationError), (lambda: u.profile_from_dict(None), u.ProfileError),
    (lambda: u.profile_from_dict({10**5000: 1}), u.ProfileError), (lambda: u.colored(0.5, 1), u.NotationError),
])
def test_other_public_functions_refuse_the_wrong_kind_of_value(call: Any, error: type[Exception]) -> None:
    """Endless iterables are refused, not followed; no AttributeError or TypeError from below."""
    refused(error, call, megabytes=5)
