"""The documented limits (engine/limits.py, docs/api.md "Limits"): each is listed with its value,
each leaves every legitimate use comfortably inside it, and each is the exact boundary of what is
accepted."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers_work import at_most_lines

import unoengine as u
from unoengine.engine import limits
from unoengine.engine import moves as engine_moves
from unoengine.engine.errors import one_line, quoted
from unoengine.formats.nesting import json_too_deep, toml_too_deep
from unoengine.tools import conformance as c
from unoengine.tools import simulate as sim
from unoengine.tools.play.saves import saved_game

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = u.load_profile("classic-108")
LIMITS = {name: value for name, value in vars(limits).items() if name.startswith("MAX_")}


def test_every_limit_is_listed_in_the_api_with_its_value() -> None:
    """docs/api.md has one row per limit, and the row gives the value the code holds."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Limits"):]
    rows = dict(re.findall(r"^\| `(MAX_\w+)` \| ([^|]+) \|", section, re.M))
    assert set(rows) == set(LIMITS)
    for name, value in LIMITS.items():
        assert f"{value:,}" in rows[name] or str(value) == rows[name].strip(), (name, rows[name])
    assert all(limits.__doc__ and name in vars(limits) for name in LIMITS)


def test_max_players_lives_in_limits_and_moves_still_exports_it() -> None:
    assert engine_moves.MAX_PLAYERS is limits.MAX_PLAYERS == 10



@pytest.mark.parametrize("value, taken", [
    (1, True), (0.5, True), (limits.MAX_TIMEOUT_SECONDS, True), (limits.MAX_TIMEOUT_SECONDS + 0.001, False),
    (0, False), (-1, False), (float("nan"), False), (float("inf"), False), (True, False), ("10", False), (None, False),
])
def test_one_timeout_check_for_every_wait(value: object, taken: bool) -> None:
    """A program bot, a wire engine and --connect-timeout take the same waits (engine.limits.is_timeout)."""
    from unoengine.bots.program import ProgramBot
    from unoengine.tools.cli import cluster_executor
    from unoengine.tools.conformance.wire import WireAdapter

    assert limits.is_timeout(value) is taken
    if taken:
        return
    with pytest.raises(u.UnoEngineError, match="timeout: expected seconds in \\(0, 3600\\]"):
        ProgramBot(["true"], timeout=value)  # type: ignore[arg-type]
    with pytest.raises(u.UnoEngineError, match="timeout: expected seconds in \\(0, 3600\\]"):
        WireAdapter("true", timeout=value)  # type: ignore[arg-type]
    with pytest.raises(u.UnoEngineError, match="--connect-timeout: expected seconds"), cluster_executor(
            None, value):  # type: ignore[arg-type]
        pass

def test_quoting_keeps_a_prefix_and_the_length() -> None:
    assert quoted("R" * 10_000_000) == "'" + "R" * 40 + "...' (10,000,000 characters)"
    assert quoted("R7") == "'R7'"
    err = u.ProfileError.from_problems("x.toml", [("a", "one"), ("b", "two")])
    assert one_line(err) == "x.toml: 2 problems: a: one; b: two"
    many = u.SerializationError.from_problems("d.json", [(f"f{i}", "bad") for i in range(500)])
    assert len(str(many).splitlines()) == limits.MAX_LISTED_PROBLEMS + 2 and "and 450 more" in str(many)


# --- the limits leave every legitimate use comfortable ---------------------------------------------------
def test_shipped_profiles_are_far_inside_the_profile_limits() -> None:
    for path in sorted((ROOT / "profiles").rglob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert len(text.encode()) < limits.MAX_PROFILE_BYTES / 20, path
        assert not toml_too_deep(text, 3), path  # a profile needs 3 levels; 16 are allowed


def test_shipped_scenarios_are_far_inside_the_document_limits() -> None:
    files = c.shipped_corpus()
    assert len(files) < limits.MAX_SCENARIO_FILES / 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert len(text.encode()) < limits.MAX_DOCUMENT_BYTES / 20, path
        assert not json_too_deep(text, 9), path  # the deepest documents written; 32 are allowed


def test_a_whole_ten_player_match_is_far_inside_the_record_limits() -> None:
    """SCORE-2: a match to 500 points at a full table of random bots, saved as a record and a
    saved game, loads back; it holds a small part of what the limits allow."""
    results = sim.run(CLASSIC, ["random"] * 10, 1, seed=4, match=True)
    rng = [random.Random(f"{results[0].seed}/seat{i}") for i in range(10)]
    bots = [u.bots.make_bot("random") for _ in range(10)]
    state = u.new_game(CLASSIC, 10, seed=results[0].seed)
    moves = []
    while not state.match_over:
        move = sim.next_move(state, bots, rng)
        moves.append(move)
        state = u.apply(state, move)
    assert len(moves) == results[0].moves
    record = u.GameRecord(CLASSIC, 10, results[0].seed, moves=tuple(moves))
    text = u.dumps(record)
    save = json.dumps(saved_game(record, 0, ["random"] * 9), indent=1)
    assert len(moves) < limits.MAX_RECORD_MOVES / 20
    assert len(save) < limits.MAX_DOCUMENT_BYTES / 20
    loaded = u.loads(text)
    assert isinstance(loaded, u.GameRecord) and loaded.replay() == state


# --- each limit is the exact boundary --------------------------------------------------------------------
def test_the_largest_deck_deals_and_one_card_more_is_refused() -> None:
    counts = [limits.MAX_DECK_CARDS // 58] * 58
    counts[0] += limits.MAX_DECK_CARDS - sum(counts)
    largest = attrs.evolve(CLASSIC, deck_counts=tuple(counts), blank_cards="wild")
    assert largest.deck_size == limits.MAX_DECK_CARDS
    with at_most_lines():
        state = u.new_game(largest, 10, seed=1)
    assert len(u.dumps(state)) < limits.MAX_DOCUMENT_BYTES / 50
    counts[0] += 1
    with pytest.raises(u.ProfileError, match="at most 10,000"):
        attrs.evolve(CLASSIC, deck_counts=tuple(counts), blank_cards="wild")


def test_copies_hand_size_and_points_at_their_limits() -> None:
    counts = list(CLASSIC.deck_counts)
    counts[0] = limits.MAX_COPIES
    assert attrs.evolve(CLASSIC, deck_counts=tuple(counts)).deck_counts[0] == limits.MAX_COPIES
    counts[0] = limits.MAX_COPIES + 1
    with pytest.raises(u.ProfileError, match="deck_counts"):
        attrs.evolve(CLASSIC, deck_counts=tuple(counts))
    big_hand = attrs.evolve(CLASSIC, hand_size=limits.MAX_HAND_SIZE, max_players=2)
    assert all(len(hand) == limits.MAX_HAND_SIZE for hand in u.new_game(big_hand, 2).hands)
    with pytest.raises(u.ProfileError, match="hand_size"):
        attrs.evolve(big_hand, hand_size=limits.MAX_HAND_SIZE + 1)
    assert attrs.evolve(CLASSIC, points=(limits.MAX_CARD_POINTS,) * 58).points[0] == limits.MAX_CARD_POINTS
    with pytest.raises(u.ProfileError, match="points"):
        attrs.evolve(CLASSIC, points=(limits.MAX_CARD_POINTS + 1,) * 58)


def test_notation_at_its_limits() -> None:
    longest = "p0" + " " * (limits.MAX_MOVE_TEXT - 4) + "R7"
    assert len(longest) == limits.MAX_MOVE_TEXT and u.parse_move(longest) == u.Play(0, "R7")
    with pytest.raises(u.NotationError, match="too long"):
        u.parse_move(longest + " ")
    deck = " ".join(["W+4"] * (limits.MAX_CARDS_TEXT // 4))
    assert len(deck) < limits.MAX_CARDS_TEXT and len(u.parse_cards(deck)) == limits.MAX_CARDS_TEXT // 4
    with pytest.raises(u.NotationError, match="longer than"):
        u.parse_cards(" " * (limits.MAX_CARDS_TEXT + 1))


def test_documents_at_their_limits() -> None:
    """A text of exactly MAX_DOCUMENT_BYTES is parsed (and refused for what it holds); one byte more
    is refused unread. Nesting of MAX_JSON_DEPTH is parsed, one more level is not."""
    body = '{"unoengine": "move", "version": 1, "move": "p0 draw"}'
    exact = body + " " * (limits.MAX_DOCUMENT_BYTES - len(body))
    assert u.loads(exact) == u.Draw(0)
    with pytest.raises(u.SerializationError, match="larger than the limit"):
        u.loads(exact + " ")
    with pytest.raises(u.SerializationError, match="document"):
        u.loads("[" * limits.MAX_JSON_DEPTH + "]" * limits.MAX_JSON_DEPTH)
    with pytest.raises(u.SerializationError, match="nested deeper"):
        u.loads("[" * (limits.MAX_JSON_DEPTH + 1) + "]" * (limits.MAX_JSON_DEPTH + 1))


def test_counts_of_a_position_at_their_limit() -> None:
    """A score, round number or pass count of MAX_COUNT is taken by from_position (and written
    and read back by a document); one more is a PositionError naming the field, quickly, even far
    past the digits Python will turn into text (the deep fuzz found a 4,300-digit round number
    raising ValueError in a consistency message; SETUP-11, SCORE-2)."""
    most = limits.MAX_COUNT
    state = u.from_position(CLASSIC, ["R1 R2", "B1"], "R3", round_number=most,
                            last_round={"winner": 0, "points_won": [0, 0], "hand_points": [0, 0]})
    assert state.match.round_number == most
    assert u.loads(u.dumps(state)) == state
    with pytest.raises(u.PositionError, match=f"already won the match with {most} points"):
        u.from_position(CLASSIC, ["R1 R2", "B1"], "R3", scores=[most, 0])  # a count, but past the target
    huge = 10**5000
    for field, kwargs in [("round_number", {"round_number": most + 1}), ("round_number", {"round_number": huge}),
                          ("scores", {"scores": [0, most + 1]}), ("scores", {"scores": [huge, 0]}),
                          ("passes", {"passes": huge})]:
        with at_most_lines(), pytest.raises(u.PositionError, match=field):
            u.from_position(CLASSIC, ["R1 R2", "B1"], "R3", **kwargs)


def test_records_at_their_limit() -> None:
    """dumps writes at most MAX_RECORD_MOVES moves, as loads reads no more: refused before writing."""
    record = u.GameRecord(CLASSIC, 2, moves=(u.Draw(0),) * (limits.MAX_RECORD_MOVES + 1))
    with at_most_lines(), pytest.raises(u.SerializationError, match="200,001 moves"):
        u.dumps(record)
    doc = json.loads(u.dumps(u.GameRecord(CLASSIC, 2)))
    doc["moves"] = ["p0 draw"] * (limits.MAX_RECORD_MOVES + 1)
    with at_most_lines(), pytest.raises(u.SerializationError, match="200,001 moves"):
        u.from_json(doc)


def test_profile_nesting_and_extends_at_their_limits(tmp_path: Path) -> None:
    depth = limits.MAX_TOML_DEPTH
    path = tmp_path / "deep.toml"
    path.write_text('name = "x"\nsources = ' + "[" * (depth - 1) + "]" * (depth - 1) + "\n")
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(path)  # parsed: refused for what it holds, not for its nesting
    assert info.value.key != "toml"
    path.write_text('name = "x"\nsources = ' + "[" * depth + "]" * depth + "\n")
    with pytest.raises(u.ProfileError, match="nested deeper than 16"):
        u.load_profile(path)
    parts = ["classic-108"] + ["forced-play"] * (limits.MAX_COMPOSITION_PARTS - 1)
    assert u.load_profile(parts).decline_to_play is False
    with pytest.raises(u.ProfileError, match="at most 32 parts"):
        u.load_profile([*parts, "forced-play"])


def test_runs_at_their_limits() -> None:
    sim.check_run(["random"] * limits.MAX_PLAYERS, limits.MAX_GAMES, 2**64 - 1, limits.MAX_WORKERS, 1)
    for games, workers in ((limits.MAX_GAMES + 1, 1), (1, limits.MAX_WORKERS + 1)):
        with pytest.raises(sim.RunError):
            sim.check_run(["random", "random"], games, 0, workers, None)


# --- names and texts of profiles and scenarios (issue 33, item 3) ----------------------------------------
PROFILE_TEXTS = [("name", limits.MAX_NAME_CHARS), ("description", limits.MAX_TEXT_CHARS)]


@pytest.mark.parametrize(("key", "most"), PROFILE_TEXTS)
def test_profile_texts_at_their_limits(tmp_path: Path, key: str, most: int) -> None:
    """A profile with a 200 KB name went whole into every message to a program bot. A TOML file, a
    JSON document and a Profile built in code take ``most`` characters and refuse one more."""
    doc = json.loads(u.dumps(u.new_game(CLASSIC, 2)))
    for length, taken in ((most, True), (most + 1, False)):
        text = "n" * length
        toml = tmp_path / f"{key}-{length}.toml"
        toml.write_text(f'extends = "classic-108"\n{key} = "{text}"\n', encoding="utf-8")
        doc["profile"][key] = text
        loads: list[tuple[Any, Any]] = [(u.load_profile, toml), (u.loads, json.dumps(doc)),
                                        (lambda v: attrs.evolve(CLASSIC, **v), {key: text})]
        for load, given in loads:
            if taken:
                load(given)
                continue
            with pytest.raises(u.UnoEngineError, match=f"{key}: is {most + 1:,} characters long; at most"):
                load(given)


def test_profile_sources_and_effect_at_their_limits() -> None:
    tag = "s" * limits.MAX_TAG_CHARS
    assert attrs.evolve(CLASSIC, sources=(tag,) * limits.MAX_TAGS).sources[0] == tag
    for sources in ((tag,) * (limits.MAX_TAGS + 1), (tag + "s",)):
        with pytest.raises(u.ProfileError, match="sources: holds"):
            attrs.evolve(CLASSIC, sources=sources)
    with pytest.raises(u.ProfileError, match="custom_effect: is 1,001 characters"):
        attrs.evolve(CLASSIC, custom_effect="e" * (limits.MAX_NAME_CHARS + 1))
    doc = json.loads(u.dumps(u.new_game(CLASSIC, 2)))
    doc["profile"]["sources"] = ["x"] * (limits.MAX_TAGS + 1)
    with pytest.raises(u.UnoEngineError, match="sources: holds 101 entries"):
        u.loads(json.dumps(doc))


def test_shipped_texts_are_far_inside_their_limits() -> None:
    from unoengine.formats.profile_file import shipped_overlays, shipped_profiles

    assert len("+".join(["mattel-42003", *shipped_overlays()])) < limits.MAX_NAME_CHARS / 4
    for name in shipped_profiles():
        profile = u.load_profile(name)
        assert len(profile.description) < limits.MAX_TEXT_CHARS / 20 and len(profile.sources) < limits.MAX_TAGS / 10
    for path in c.shipped_corpus():
        for s in json.loads(path.read_text(encoding="utf-8"))["scenarios"]:
            assert len(s["id"]) < limits.MAX_TAG_CHARS / 2 and len(s["rules"]) < limits.MAX_TAGS / 10
            texts = [s.get("description", ""), *(step.get("note", "") for step in s["steps"])]
            assert max(map(len, texts)) < limits.MAX_TEXT_CHARS / 20


def one_scenario(**changes: Any) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "id": "act-3-example", "rules": ["ACT-3"], "sources": ["OG"], "profile": "classic-108",
        "description": "Draw Two.",
        "start": {"hands": ["R+2 G3", "B1 B2", "Y1 Y2"], "discard": "R5", "draw_pile": "G1 G2 G6"},
        "steps": [{"move": "p0 R+2", "note": "the next player draws", "expect": {
            "current": 2,
            "events": [{"type": "CardsDrawn", "player": 1, "count": 2, "cards": "G1 G2", "rule": "ACT-3"}]}}],
    }
    scenario.update(changes)
    return scenario


SCENARIO_TEXTS = [
    ("id", lambda s, text: s.update(id=text), limits.MAX_TAG_CHARS),
    ("rule", lambda s, text: s.update(rules=["ACT-3", text]), limits.MAX_TAG_CHARS),
    ("source", lambda s, text: s.update(sources=[text]), limits.MAX_TAG_CHARS),
    ("description", lambda s, text: s.update(description=text), limits.MAX_TEXT_CHARS),
    ("note", lambda s, text: s["steps"][0].update(note=text), limits.MAX_TEXT_CHARS),
    ("event", lambda s, text: s["steps"][0]["expect"]["events"][0].update(why=text), limits.MAX_TEXT_CHARS),
    ("file", None, limits.MAX_TEXT_CHARS),
]


@pytest.mark.parametrize(("what", "put", "most"), SCENARIO_TEXTS, ids=[t[0] for t in SCENARIO_TEXTS])
def test_scenario_texts_at_their_limits(tmp_path: Path, what: str, put: Any, most: int) -> None:
    """A scenario with a 500 KB description went whole to an adapter program (which hung on it).
    Each text of a scenario file is taken at its limit and refused one character over it."""
    for length in (most, most + 1):
        scenario = one_scenario()
        doc = {"unoengine": "scenarios", "version": 1, "scenarios": [scenario]}
        if put is None:
            doc["description"] = "d" * length
        else:
            put(scenario, "d" * length)
        file = tmp_path / f"{what}-{length}.json"
        file.write_text(json.dumps(doc), encoding="utf-8")
        if length == most:
            assert c.load_scenarios([file])[0]["id"] == scenario["id"]
        else:
            with pytest.raises(c.ScenarioFileError) as info:
                c.load_scenarios([file])
            assert f"{most:,}" in str(info.value) or f"{most}" in str(info.value)
            assert len(str(info.value)) < 1_000  # the text is not quoted whole
            assert c.validate(doc) or what in ("event",)  # the exported schema says so too
    many = one_scenario(rules=["ACT-3"] * (limits.MAX_TAGS + 1))
    assert c.validate({"unoengine": "scenarios", "version": 1, "scenarios": [many]})


@pytest.mark.parametrize("sid", ["act-3\x1b[31mred", "tab\there", "bidi\u202eevil", "nul\x00"])
def test_a_scenario_id_is_printable_text(tmp_path: Path, sid: str) -> None:
    """An id is printed on every line about its scenario: a control character in it is refused."""
    file = tmp_path / "s.json"
    file.write_text(json.dumps({"unoengine": "scenarios", "version": 1, "scenarios": [one_scenario(id=sid)]}))
    with pytest.raises(c.ScenarioFileError, match="is not an id: at most 200 printable characters") as info:
        c.load_scenarios([file])
    assert "\x1b" not in str(info.value) and "\u202e" not in str(info.value)
