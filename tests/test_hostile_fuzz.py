"""Fuzzing that keeps hostile input harmless (issue 13): mutated TOML profiles, JSON documents (states,
views, records, saved games, scenario files), notation strings, move objects with fields of odd types,
and odd arguments to the public functions. Each input either works or raises an UnoEngineError with
a short message, in bounded work (lines of Python, counted); a command refuses with one line and
exit status 2.
Budgets: tests/budget.py (the deep run, ``pytest --deep``, tries ten times more)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from budget import budget
from helpers_hostile import cli_refuses, short
from helpers_work import at_most_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.engine.limits import MAX_MOVE_TEXT
from unoengine.formats.profile_file import profile_to_toml
from unoengine.tools import conformance as c
from unoengine.tools.play.saves import SetupError, load_saved_game, saved_game

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = u.load_profile("classic-108")
FUZZ = settings(max_examples=budget(60, 600), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def harmless(call: Callable[[], Any], *errors: type[BaseException]) -> Any:
    """``call()`` returns, or raises one of ``errors`` (an UnoEngineError by default) with a short
    message; after at most helpers_work.LINES lines of Python. Its result, or None when it raised."""
    caught = errors or (u.UnoEngineError,)
    with at_most_lines():
        try:
            return call()
        except caught as exc:
            short(exc)
            return None


# --- text mutations ----------------------------------------------------------------------------------
SNIPPETS = [
    "[", "]", "{", "}", "[[", "]]", "[" * 40, "{a = " * 30, '"', "'", '"""', "'''", "\\", "\\u0000", "=", "\n", "#",
    ".", ",", ":", "a.b.c", "[a.b]\n", "null", "true", "1e400", "9" * 400, "-0", "inf", "nan", "\x00", "é🎉",
    '"p0 R7"', "R7 W+4 ", "extends = \"../x.toml\"\n", "overlay = true\n", "extends = [\"gdj85\"]\n", " " * 3,
]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> bytes:
    """``text`` with up to four edits: snippets inserted, slices deleted, repeated or replaced, and now
    and then a raw byte that is not UTF-8."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        end = min(len(text), at + draw(st.integers(0, 40)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "replace"]))
        snippet = draw(st.sampled_from(SNIPPETS) | st.text(max_size=8))
        if kind == "insert":
            text = text[:at] + snippet + text[at:]
        elif kind == "delete":
            text = text[:at] + text[end:]
        elif kind == "repeat":
            text = text[:end] + text[at:end] * draw(st.integers(2, 50)) + text[end:]
        else:
            text = text[:at] + snippet + text[end:]
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()) and draw(st.booleans()):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[at:]
    return data


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile")
    (path / "base.toml").write_text(profile_to_toml(CLASSIC), encoding="utf-8")
    return path


# --- TOML profiles -----------------------------------------------------------------------------------
TOML_BASES = [
    (ROOT / "profiles" / "classic-108.toml").read_text(encoding="utf-8"),
    (ROOT / "profiles" / "mattel-42003.toml").read_text(encoding="utf-8"),
    (ROOT / "profiles" / "overlays" / "stacking.toml").read_text(encoding="utf-8"),
    'name = "mine"\nextends = "base.toml"\n[uno]\npenalty = 3\n[deck.cards]\nR7 = 5\n',
]


@FUZZ
@given(data=st.data())
def test_mutated_profile_files_load_or_raise_profile_error(folder: Path, data: st.DataObject) -> None:
    """HOUSE-8, DECK-5: a profile file edited at random loads, or is refused with a ProfileError naming
    the file; in bounded time, whatever the nesting, bytes or extends it ends up with."""
    base = data.draw(st.sampled_from(TOML_BASES))
    path = folder / "fuzzed.toml"
    path.write_bytes(data.draw(mutated(base)))
    spec: Any = ["classic-108", path] if "overlay = true" in base else path
    profile = harmless(lambda: u.load_profile(spec), u.ProfileError)
    if profile is not None:
        harmless(lambda: u.new_game(profile, profile.max_players, seed=1))


# --- JSON documents ------------------------------------------------------------------------------------
def _documents() -> dict[str, str]:
    state = u.new_game("classic-108+stacking+jump-in", 4, seed=3)
    rng = random.Random(3)
    moves = []
    for _ in range(40):
        move = rng.choice(u.legal_moves(state))
        moves.append(move)
        state = u.apply(state, move)
    record = u.GameRecord(state.profile, 4, 3, moves=tuple(moves))
    return {
        "state": u.dumps(state), "view": u.dumps(u.view(state, 1)), "record": u.dumps(record),
        "move": u.dumps(moves[0]), "profile": u.dumps(CLASSIC),
        "save": json.dumps(saved_game(record, 0, ["random"] * 3)),
        "scenario": (ROOT / "src" / "unoengine" / "corpus" / "act-draw-two.json").read_text(encoding="utf-8"),
    }


DOCUMENTS = _documents()


def _use(loaded: Any) -> None:
    """A state that loaded can be played and viewed."""
    if isinstance(loaded, u.GameState):
        for move in u.legal_moves(loaded)[:6]:
            u.apply(loaded, move)
        for seat in range(loaded.num_players):
            u.view(loaded, seat)


@FUZZ
@given(data=st.data())
def test_mutated_documents_load_or_raise_serialization_error(data: st.DataObject) -> None:
    """Any edit of a state, view, record, move or profile document: loads, or SerializationError."""
    kind = data.draw(st.sampled_from(["state", "view", "record", "move", "profile"]))
    text = data.draw(mutated(DOCUMENTS[kind]))
    loaded = harmless(lambda: u.loads(text), u.SerializationError)
    harmless(lambda: _use(loaded))
    if isinstance(loaded, u.GameRecord):
        harmless(loaded.replay, u.RecordError)


@FUZZ
@given(data=st.data())
def test_mutated_saved_games_load_or_exit_2(folder: Path, data: st.DataObject,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``play --resume`` of an edited save: a usable game, or one line and exit 2."""
    path = folder / "save.json"
    path.write_bytes(data.draw(mutated(DOCUMENTS["save"])))
    loaded = harmless(lambda: load_saved_game(path), SetupError)
    if loaded is None:
        cli_refuses(["play", "--resume", str(path)], capsys)
    else:
        harmless(loaded[0].replay, u.RecordError)


@FUZZ
@given(data=st.data())
def test_mutated_scenario_files_run_or_exit_2(folder: Path, data: st.DataObject,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``unoengine conformance`` of an edited scenario file: it runs (passing or failing), or it is
    refused as malformed with one line and exit 2; never a traceback."""
    path = folder / "scenarios.json"
    path.write_bytes(data.draw(mutated(DOCUMENTS["scenario"])))
    scenarios = harmless(lambda: c.load_scenarios([path]), c.ScenarioFileError)
    if scenarios is None:
        cli_refuses(["conformance", str(path)], capsys)
    else:
        harmless(lambda: c.run(scenarios))


# --- notation ------------------------------------------------------------------------------------------
NOTATION_CHARS = "pP0123456789 \t\nRYGBWrygbw+!:>SsHhUuCcKkLldrawpschlengetoucdk,é🎉\x00"


@settings(max_examples=budget(200, 2000), deadline=None)
@given(head=st.text(alphabet=NOTATION_CHARS, max_size=30), repeat=st.text(max_size=4),
       times=st.sampled_from([0, 1, 10, 60, 10_000, 1_000_000]))
def test_any_text_is_a_move_or_a_short_notation_error(head: str, repeat: str, times: int) -> None:
    """Text of any length: a move whose canonical text reads back, or NotationError quoting at most
    MAX_MOVE_TEXT characters of it; card and colour names likewise."""
    text = head + repeat * times
    move = harmless(lambda: u.parse_move(text), u.NotationError)
    if move is not None:
        assert len(text) <= MAX_MOVE_TEXT
        assert u.parse_move(u.format_move(move)) == move
    for parse in (u.parse_card, u.parse_color, u.parse_cards):
        harmless(lambda: parse(text), u.NotationError)  # noqa: B023 (called at once)


# --- moves with fields of odd types ----------------------------------------------------------------------
ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(), st.floats(allow_nan=True),
    st.sampled_from([0.0, 1.0, 2.0, -0.0]), st.text(max_size=6), st.sampled_from(list(u.Color)),
    st.sampled_from(u.CARDS), st.sampled_from(["R7", "W", "W+4", "red", "G"]), st.just(object()),
    st.lists(st.integers(0, 3), max_size=2), st.just(10**5000),
)


def _states() -> list[u.GameState]:
    rng = random.Random(7)
    out = []
    for spec in ("classic-108", "classic-108+jump-in+seven-zero+stacking", "ffk04", "gdj85+wd4-enforced"):
        for players in (2, 4):
            state = u.new_game(spec, players, seed=rng.getrandbits(32))
            for _ in range(rng.randrange(60)):
                if state.round_over:
                    break
                state = u.apply(state, rng.choice(u.legal_moves(state)))
            out.append(state)
    return out


STATES = _states()
KINDS: list[tuple[type, int]] = [
    (u.Play, 5), (u.Draw, 1), (u.Pass, 1), (u.ChooseColor, 2), (u.Challenge, 1), (u.Accept, 1), (u.CallUno, 1),
    (u.CatchUno, 2), (u.NextRound, 1),
]


def _exact(move: u.Move) -> bool:
    """Every field holds a value of its exact type: the only moves apply may accept."""
    ok = type(move.player) is int
    if isinstance(move, u.Play):
        ok = ok and type(move.card) is u.Card and type(move.uno) is bool
        ok = ok and (move.color is None or type(move.color) is u.Color)
        ok = ok and (move.target is None or type(move.target) is int)
    if isinstance(move, u.ChooseColor):
        ok = ok and type(move.color) is u.Color
    if isinstance(move, u.CatchUno):
        ok = ok and type(move.target) is int
    return ok


@settings(max_examples=budget(300, 3000), deadline=None)
@given(data=st.data())
def test_moves_with_odd_fields_apply_or_raise_illegal_move_error(data: st.DataObject) -> None:
    """PLAY-1, UNO-2, ACT-4: a move whose fields hold anything is applied only when it is legal with
    every field of its exact type (a float seat that equals a legal one is refused); otherwise
    IllegalMoveError. format_move writes it so that it reads back, or raises NotationError."""
    state = data.draw(st.sampled_from(STATES))
    kind, arity = data.draw(st.sampled_from(KINDS))
    legal = u.legal_moves(state)
    fields = [data.draw(ODD_VALUES | st.integers(0, state.num_players - 1)) for _ in range(arity)]
    move = harmless(lambda: kind(*fields), u.NotationError)  # a converter refuses a bad card or colour name
    if move is None:
        return
    after = harmless(lambda: u.apply(state, move), u.IllegalMoveError)
    if after is not None:
        assert _exact(move) and move in legal
        assert after == u.apply(state, legal[legal.index(move)])
    harmless(lambda: u.apply_with_events(state, move), u.IllegalMoveError)
    text = harmless(lambda: u.format_move(move), u.NotationError)
    if text is not None:
        assert _exact(move) and u.parse_move(text) == move
    harmless(lambda: u.dumps(move), u.UnoEngineError)


# --- public functions given odd arguments -----------------------------------------------------------------
ODD_ARGS = ODD_VALUES | st.sampled_from([[], ["R1", "R2"], "R1 R2", [["R1"]], (1, 2), {"a": 1}, range(3)])


@settings(max_examples=budget(200, 2000), deadline=None)
@given(data=st.data())
def test_public_functions_given_odd_arguments_raise_only_engine_errors(data: st.DataObject) -> None:
    """new_game, from_position, view, legal_moves, hand_points, events_for: an UnoEngineError for
    every argument that is wrong, never another exception."""
    state = data.draw(st.sampled_from(STATES))
    odd = [data.draw(ODD_ARGS) for _ in range(4)]
    calls: list[Callable[[], Any]] = [
        lambda: u.new_game(CLASSIC, odd[0], odd[1]),
        lambda: u.new_game(CLASSIC, 3, 0, dealer=odd[0], deck=odd[1]),
        lambda: u.from_position(CLASSIC, odd[0], odd[1]),
        lambda: u.from_position(CLASSIC, ["R1 R2", "B1"], "R3", draw_pile=odd[0], color=odd[1], direction=odd[2]),
        lambda: u.from_position(CLASSIC, ["R1 R2", "B1"], "W", color=odd[0], current=odd[1], scores=odd[2],
                                dealer=odd[3]),
        lambda: u.from_position(CLASSIC, ["R1 R2", "B1"], "R3 W+4", color=1, current=1, phase=odd[0], drawn=odd[1],
                                challenge_color=odd[2], attacker_hand=odd[3]),
        lambda: u.from_position(CLASSIC, ["R1", "B1"], "R3", uno_exposed=odd[0], passes=odd[1], known=odd[2],
                                round_number=odd[3]),
        lambda: u.from_position(CLASSIC, ["R1", "B1"], "R3", round_number=2, last_round=odd[0], phase=odd[1]),
        lambda: u.new_game(CLASSIC, 3, 0, dealer_draw=odd[0]),
        lambda: u.view(state, odd[0]), lambda: u.legal_moves(state, odd[0]), lambda: u.legal_moves(odd[0]),
        lambda: u.hand_points(CLASSIC, odd[0]), lambda: u.events_for(odd[0], 0), lambda: u.to_json(odd[0]),
        lambda: u.from_json(odd[0]), lambda: u.loads(odd[0]), lambda: u.load_profile(odd[0]),
        lambda: u.profile_from_dict(odd[0]), lambda: u.colored(odd[0], odd[1]),
        lambda: u.GameRecord(CLASSIC, odd[0], 0, moves=(u.Draw(0),)).replay(),
    ]
    for call in calls:
        harmless(call)


@settings(max_examples=budget(200, 2000), deadline=None)
@given(data=st.data())
def test_a_profile_constructs_only_when_games_can_be_dealt_and_saved(data: st.DataObject) -> None:
    """SETUP-1, DECK-5: a Profile built with odd field values either is refused (ProfileError) or deals
    every table it allows, and what dumps writes of it loads back equal."""
    field = data.draw(st.sampled_from([f.name for f in attrs.fields(u.Profile)]))
    value = data.draw(ODD_VALUES | st.integers(0, 2000) | st.tuples(*[st.integers(0, 30)] * 58))
    profile = harmless(lambda: attrs.evolve(CLASSIC, **{field: value}), u.ProfileError)
    if profile is None:
        return
    for players in range(profile.min_players, profile.max_players + 1):
        harmless(lambda: u.new_game(profile, players, seed=players), u.PositionError)  # noqa: B023
    text = harmless(lambda: u.dumps(profile), u.SerializationError)  # points that differ by colour
    if text is not None and profile.custom_effect in u.registered_effects():
        assert u.loads(text) == profile
