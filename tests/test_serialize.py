"""JSON documents (unoengine.serialize): round trips of profiles, states, moves and views reached by
random play, and hostile documents that must raise SerializationError naming every problem.

Rules checked on loading: SETUP-1 (players), DECK-5 (cards conserved), SETUP-8 (first-card colour),
PLAY-1 (colour in play), PLAY-5 (drawn card), PLAY-7 (passes), WD4-3/WD4-6 (pending challenge),
HOUSE-1 (pending draw), UNO-2 (exposed player), END-1 (empty hands), SCORE-2..4 (results, scores),
ACT-8 (custom effects only from the registry).
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

import attrs
import pytest
from budget import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.formats.profile_file import profile_to_dict

CLASSIC = "classic-108"
SPECS = (
    "classic-108",
    "gdj85",
    "ffk04",
    "mattel-42003",
    "classic-108+stacking+jump-in",
    "gdj85+seven-zero+stacking-cross",
    "ffk04+stacking-no-mercy+wd4-enforced",
    "mattel-42003+jump-in+draw-to-match+two-player-reverse-skip",
    "classic-108+wd4-first-card-applies+wd4-unrestricted+stacking",
    "classic-108+one-point-per-round+forced-play+uno-penalty-4",
)
SHORT_MATCH = "classic-108+one-point-per-round+forced-play+uno-penalty-4"
"""Played with a target of 2 points so that random play reaches MATCH_OVER."""
DELETE = object()
"""A change that removes the key instead of setting it."""

Doc = dict[str, Any]
Path = tuple[str | int, ...]


# --- building states -----------------------------------------------------------------------------
@cache
def profile(spec: str) -> u.Profile:
    loaded = u.load_profile(spec)
    return attrs.evolve(loaded, target_score=2) if spec == SHORT_MATCH else loaded


def play_out(spec: str, players: int, seed: int, steps: int) -> Iterator[u.GameState]:
    """A random game, preferring to play a card so that rounds end; yields every state reached."""
    rng = random.Random(seed)
    state = u.new_game(profile(spec), players, seed=seed)
    yield state
    for _ in range(steps):
        moves = u.legal_moves(state)
        if not moves:
            return
        plays = [m for m in moves if isinstance(m, u.Play)]
        state = u.apply(state, rng.choice(plays if plays and rng.random() < 0.7 else moves))
        yield state


def first_wild_state(spec: str) -> u.GameState | None:
    """A new game whose first card is a wild awaiting its colour (SETUP-8), if a seed below 300 gives one."""
    for seed in range(300):
        state = u.new_game(profile(spec), 3, seed=seed)
        if state.phase is u.Phase.CHOOSE_COLOR:
            return state
    return None


@cache
def sample_states(spec: str) -> tuple[u.GameState, ...]:
    """States of random games: every 6th one and every one that starts a new phase."""
    out: list[u.GameState] = []
    for seed in range(3):
        last: u.Phase | None = None
        for i, state in enumerate(play_out(spec, 2 + seed * 2, seed, 260)):
            if i % 6 == 0 or state.phase is not last:
                out.append(state)
            last = state.phase
    wild = first_wild_state(spec)
    if wild is not None:
        out.append(wild)
    return tuple(out)


def position(spec: str, hands: list[str], discard: str, **kwargs: Any) -> u.GameState:
    return u.from_position(profile(spec), hands, discard, seed=5, **kwargs)


@cache
def base_states() -> dict[str, u.GameState]:
    """One known state per phase (and one with an open UNO window), for corrupting their documents."""
    play = position(CLASSIC, ["R7 G5 W+4 B2", "Y1 Y2 R1", "G8 G9 B9"], "R3")
    challenge = u.apply(position(CLASSIC, ["W+4 R7 G5", "Y1 Y2", "G8 G9"], "R3"), u.Play(0, u.parse_card("W+4"), "G"))
    last_wd4 = u.apply(position(CLASSIC, ["W+4", "Y1 Y2", "G8 G9"], "R3"), u.Play(0, u.parse_card("W+4"), "G"))
    deck = [u.CARDS[c] for c in profile(CLASSIC).deck_cards()]
    deck.remove(u.CARDS[u.WILD])
    deck.insert(14, u.CARDS[u.WILD])
    finishing = position(CLASSIC, ["R7", "Y1 Y2", "G8 G9"], "R3")
    short = attrs.evolve(profile(CLASSIC), target_score=1)
    return {
        "play": play,
        "drawn": u.apply(play, u.Draw(0)),
        "challenge": challenge,
        "last_wd4": last_wd4,
        "penalty": position("classic-108+stacking", ["R7 G5 R+2", "Y1 Y2", "G8 G9"], "R3 Y+2", pending_draw=2),
        "penalty_wd4": position(
            "classic-108+stacking+wd4-enforced", ["R7 G5", "Y1 Y2", "G8 G9"], "R3 W+4", color=1, pending_draw=4
        ),
        "choose_color": u.new_game(profile(CLASSIC), 2, dealer=0, deck=deck),
        "exposed": u.apply(position(CLASSIC, ["R7 R8", "Y1 Y2", "G8 G9"], "R3"), u.Play(0, u.parse_card("R7"))),
        "round_over": u.apply(finishing, u.Play(0, u.parse_card("R7"))),
        "match_over": u.apply(attrs.evolve(finishing, profile=short), u.Play(0, u.parse_card("R7"))),
    }


def doc_of(name: str) -> Doc:
    """A fresh, mutable document of a base state."""
    return u.to_json(base_states()[name])


# --- changing documents ----------------------------------------------------------------------------
def parse_path(path: str) -> Path:
    """``"match.scores[1]"`` -> ``("match", "scores", 1)``."""
    return tuple(int(t[1:-1]) if t.startswith("[") else t for t in re.findall(r"\[\d+\]|[^.\[\]]+", path))


def set_at(doc: Any, path: Path, value: Any) -> None:
    """Set (or with :data:`DELETE` remove) the value at ``path``; a callable value is computed from the document."""
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value(doc) if callable(value) else value


def corrupt(doc: Doc, changes: dict[str, Any]) -> Doc:
    """Apply ``changes`` (path -> value); the fingerprint follows a changed profile unless it is changed itself,
    so that each test sees only the problem it makes."""
    for path, value in changes.items():
        set_at(doc, parse_path(path), value)
    if "fingerprint" not in changes and isinstance(doc.get("profile"), dict):
        with contextlib.suppress(ValueError, RecursionError):  # profile_from_dict on hostile values
            doc["fingerprint"] = u.profile_from_dict(doc["profile"]).fingerprint
    return doc


def refusal(doc: Any) -> u.SerializationError:
    with pytest.raises(u.SerializationError) as info:
        u.from_json(doc, "test-doc")
    return info.value


def fields(err: u.SerializationError) -> list[str]:
    return [f for f, _ in err.problems]


def assert_refused(doc: Any, field: str, *words: str) -> u.SerializationError:
    """Loading fails; one problem is at ``field`` and its text holds every one of ``words``; the message lists all."""
    err = refusal(doc)
    found = [problem for f, problem in err.problems if f == field]
    assert found, f"no problem at {field!r}: {err.problems}"
    assert any(all(w in problem for w in words) for problem in found), f"{field}: {found} lacks {words}"
    assert str(err).startswith("test-doc: ")
    for f, problem in err.problems:
        assert f"{f}: {problem}" in str(err)
    return err


def other_card(state: u.GameState, player: int) -> str:
    """A card name that ``player`` does not hold."""
    return next(repr(c) for c in u.CARDS if c not in state.hands[player])


# --- round trips -------------------------------------------------------------------------------------
def check_state_round_trip(state: u.GameState) -> None:
    """Through JSON text and back: the same document, the same state (draw pile from its next card), the
    same legal moves, the same successors, and every view equal."""
    doc = u.to_json(state)
    back = u.loads(u.dumps(state))
    assert isinstance(back, u.GameState)
    assert u.to_json(back) == doc
    assert back == attrs.evolve(state, draw_pile=state.remaining_draw_pile, draw_pos=0)
    moves = u.legal_moves(state)
    assert u.legal_moves(back) == moves
    for move in moves:
        assert u.to_json(u.apply(back, move)) == u.to_json(u.apply(state, move)), move
    for p in range(state.num_players):
        v = u.view(state, p)
        assert u.loads(u.dumps(v)) == v
        assert u.view(back, p) == v


@pytest.mark.parametrize("spec", SPECS)
def test_states_of_random_games_round_trip(spec: str) -> None:
    """DECK-5, WD4-3, HOUSE-1, HOUSE-2, UNO-2, END-1, SCORE-2..4: every sampled state survives JSON text and
    plays on identically (same legal moves, same state after each of them)."""
    for state in sample_states(spec):
        check_state_round_trip(state)


def test_every_phase_is_round_tripped() -> None:
    """SETUP-8 (CHOOSE_COLOR), PLAY-5 (DRAWN), WD4-3 (CHALLENGE), HOUSE-1 (PENALTY), END-1 (ROUND_OVER),
    SCORE-4 (MATCH_OVER): the random samples reach every phase."""
    reached = {s.phase for spec in SPECS for s in sample_states(spec)}
    assert reached == set(u.Phase)


@pytest.mark.parametrize("name", sorted(base_states()))
def test_known_states_round_trip(name: str) -> None:
    """WD4-3 (a last-card Wild Draw Four leaves its attacker's hand empty), UNO-2, SETUP-8, END-1: hand-built
    states of every phase round trip."""
    check_state_round_trip(base_states()[name])


def test_blocked_round_with_every_pass_counted_round_trips() -> None:
    """PLAY-7: a round blocked by n passes keeps passes == n in ROUND_OVER, and such a state loads."""
    prof = attrs.evolve(
        profile(CLASSIC), deck_counts=tuple(1 if c in (1, 15, 42) else 0 for c in range(58)),
        hand_size=1, max_players=2,
    )
    state = u.from_position(prof, ["R1", "Y2"], "B3", draw_pile="")
    state = u.apply(u.apply(state, u.Pass(0)), u.Pass(1))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.passes == 2
    assert state.match.last_round is not None and state.match.last_round.blocked
    check_state_round_trip(state)
    assert_refused(corrupt(u.to_json(state), {"passes": 3}), "passes", "PLAY-7")


def test_state_document_format() -> None:
    """The state document as specified: kind and version, cards by name, colour by letter, phase by name,
    nobody as null, the seed as a decimal string."""
    state = base_states()["challenge"]
    doc = u.to_json(state)
    assert list(doc) == [
        "unoengine", "version", "profile", "fingerprint", "hands", "draw_pile", "discard_pile", "color",
        "direction", "current", "phase", "drawn", "challenge", "uno_exposed", "passes", "pending_draw", "rng",
        "match", "reveal", "known",
    ]
    assert doc["unoengine"] == "state"
    assert doc["version"] == 1
    assert u.profile_from_dict(doc["profile"]) == profile(CLASSIC)
    assert doc["fingerprint"] == profile(CLASSIC).fingerprint
    assert doc["hands"] == ["R7 G5", "Y1 Y2", "G8 G9"]
    assert doc["discard_pile"] == "R3 W+4"
    assert doc["draw_pile"] == " ".join(repr(c) for c in state.remaining_draw_pile)
    assert (doc["color"], doc["direction"], doc["current"], doc["phase"]) == ("G", 1, 1, "CHALLENGE")
    assert doc["drawn"] is None
    assert doc["challenge"] == {"attacker": 0, "victim": 1, "bluff": True, "hand": "R7 G5", "color": "R"}
    assert (doc["uno_exposed"], doc["passes"], doc["pending_draw"]) == (None, 0, 4)
    assert doc["rng"] == str(state.rng)
    assert doc["match"] == {"dealer": 2, "scores": [0, 0, 0], "round_number": 1, "last_round": None, "winner": None}
    assert doc["reveal"] is None
    json.dumps(doc, allow_nan=False)


def test_round_over_document_format() -> None:
    """END-1, SCORE-2: the result of the round is written with the match."""
    doc = u.to_json(base_states()["round_over"])
    assert doc["phase"] == "ROUND_OVER"
    assert doc["hands"][0] == ""
    assert doc["match"]["last_round"] == {
        "winner": 0, "blocked": False, "hand_points": [0, 3, 17], "points_won": [20, 0, 0],
    }
    assert doc["match"]["scores"] == [20, 0, 0]


@pytest.mark.parametrize("spec", SPECS)
def test_profiles_round_trip(spec: str) -> None:
    """DECK-5, HOUSE-8: a profile document loads back to an equal profile with the same fingerprint, also as
    JSON text; its tables are those profile_from_dict reads."""
    prof = profile(spec)
    doc = u.to_json(prof)
    assert list(doc) == ["unoengine", "version", "fingerprint", "profile"]
    assert (doc["unoengine"], doc["version"], doc["fingerprint"]) == ("profile", 1, prof.fingerprint)
    assert u.from_json(doc) == prof
    assert u.loads(u.dumps(prof, indent=2)) == prof
    assert u.profile_from_dict(profile_to_dict(prof)) == prof
    assert profile_to_dict(prof) == doc["profile"]


def test_profile_with_uneven_deck_round_trips() -> None:
    """DECK-5: counts that differ by colour are written as a deck.cards table and read back."""
    counts = list(profile(CLASSIC).deck_counts)
    counts[u.parse_card("R7")] = 5
    counts[u.parse_card("B+2")] = 0
    prof = attrs.evolve(profile(CLASSIC), deck_counts=tuple(counts), name="odd 🎉 \"deck\"", description="a\nb")
    doc = u.to_json(prof)
    assert doc["profile"]["deck"]["per_color"]["7"] == 5
    assert doc["profile"]["deck"]["cards"] == {"Y7": 2, "G7": 2, "B7": 2, "B+2": 0}
    assert u.loads(u.dumps(prof)) == prof


def test_profile_with_points_by_colour_cannot_be_written() -> None:
    """SCORE-1: points that differ by colour have no place in a profile file, so no document is written."""
    points = list(profile(CLASSIC).points)
    points[u.parse_card("G7")] = 70
    with pytest.raises(u.SerializationError) as info:
        u.to_json(attrs.evolve(profile(CLASSIC), points=tuple(points)))
    assert info.value.field == "profile.points.7"


def test_registered_custom_effect_is_found_by_name() -> None:
    """ACT-8: a custom effect registered in this process is found through the registry by its name."""
    u.register_effect("serialize-test-effect", lambda state, player, target: state)
    prof = attrs.evolve(profile("gdj85"), custom_effect="serialize-test-effect")
    assert u.loads(u.dumps(prof)) == prof


def test_moves_round_trip_in_notation() -> None:
    """A move document holds the move's notation; every kind of move reads back equal."""
    r, g = u.Color.RED, u.Color.GREEN
    moves: list[u.Move] = [
        u.Play(0, u.parse_card("W+4"), r, uno=True), u.Play(3, u.parse_card("WSW"), g, 1),
        u.Play(2, u.parse_card("R7")), u.Play(1, u.parse_card("B7"), target=0), u.Draw(1), u.Pass(2),
        u.Challenge(1), u.Accept(4), u.CallUno(0), u.CatchUno(2, 0), u.ChooseColor(1, u.Color.YELLOW), u.NextRound(9),
    ]
    assert u.to_json(moves[0]) == {"unoengine": "move", "version": 1, "move": "p0 W+4:R!"}
    for move in moves:
        assert u.from_json(u.to_json(move)) == move
        assert u.loads(u.dumps(move)) == move


def test_view_document_holds_what_the_player_may_know() -> None:
    """WD4-3: after a challenge the view of the challenger holds the shown hand; moves are in notation."""
    state = u.apply(base_states()["challenge"], u.Challenge(1))
    v = u.view(state, 1)
    doc = u.to_json(v)
    assert doc["unoengine"] == "view"
    assert doc["revealed"] == {"viewer": 1, "owner": 0, "cards": "R7 G5"}
    assert doc["legal_moves"] == [u.format_move(m) for m in v.legal_moves]
    assert doc["hand"] == "Y1 Y2"
    assert "rng" not in doc and "draw_pile" not in doc and "hands" not in doc
    assert u.from_json(doc) == v


# --- hostile documents: each rule broken on purpose -----------------------------------------------------
CORRUPTIONS = [
    # (base state, changes, field with a problem, words of the problem)
    pytest.param("play", {"hands": ["R7 G5 W+4 B2"]}, "hands", ("SETUP-1",), id="SETUP-1-one-player"),
    pytest.param("play", {"hands": ["R1"] * 11}, "hands", ("SETUP-1",), id="SETUP-1-eleven-players"),
    pytest.param("play", {"profile.setup.max_players": 2}, "hands", ("SETUP-1", "2 to 2"), id="SETUP-1-profile-max"),
    pytest.param("play", {"hands": "R7"}, "hands", ("list",), id="hands-not-a-list"),
    pytest.param("play", {"hands[2]": "G8 XX G9 B9"}, "hands[2][1]", ("'XX'",), id="card-name"),
    pytest.param("play", {"hands[2]": ["G8"]}, "hands[2]", ("string",), id="hand-not-a-string"),
    pytest.param("play", {"draw_pile": lambda d: d["draw_pile"].split(" ", 1)[1]}, "cards", ("DECK-5", "missing"),
                 id="DECK-5-missing"),
    pytest.param("play", {"hands[1]": "Y1 Y2 R1 R1"}, "cards", ("DECK-5", "extra R1"), id="DECK-5-extra"),
    pytest.param("play", {"discard_pile": ""}, "discard_pile", ("top card",), id="discard-empty"),
    pytest.param("play", {"color": None}, "color", ("CHOOSE_COLOR",), id="SETUP-8-null-colour"),
    pytest.param("play", {"color": "G"}, "color", ("PLAY-1", "R3"), id="PLAY-1-colour-of-top"),
    pytest.param("play", {"color": "red"}, "color", ("R, Y, G, B",), id="colour-letter"),
    pytest.param("play", {"direction": 0}, "direction", ("1, -1",), id="direction-zero"),
    pytest.param("play", {"direction": True}, "direction", ("true",), id="direction-bool"),
    pytest.param("play", {"current": 3}, "current", ("0 to 2",), id="current-out-of-range"),
    pytest.param("play", {"current": "0"}, "current", ("'0'",), id="current-string"),
    pytest.param("play", {"current": 1.0}, "current", ("1.0",), id="current-float"),
    pytest.param("play", {"match.dealer": 7}, "match.dealer", ("0 to 2",), id="dealer-out-of-range"),
    pytest.param("play", {"phase": "THINKING"}, "phase", ("PLAY", "PENALTY"), id="phase-unknown"),
    pytest.param("play", {"drawn": "R7"}, "drawn", ("outside phase DRAWN",), id="PLAY-5-drawn-in-play"),
    pytest.param("drawn", {"drawn": None}, "drawn", ("PLAY-5",), id="PLAY-5-drawn-missing"),
    pytest.param("drawn", {"drawn": lambda d: other_card(base_states()["drawn"], 0)}, "drawn", ("PLAY-5", "p0"),
                 id="PLAY-5-drawn-not-in-hand"),
    pytest.param("drawn", {"hands": lambda d: d["hands"][:1], "current": 5}, "hands", ("SETUP-1",),
                 id="SETUP-1-seat-beyond-the-hands"),
    pytest.param("play", {"challenge": {"attacker": 2, "victim": 0, "bluff": False, "hand": "G8", "color": "R"}},
                 "challenge",
                 ("outside phase CHALLENGE",), id="WD4-3-challenge-outside"),
    pytest.param("challenge", {"challenge": None}, "challenge", ("WD4-3",), id="WD4-3-challenge-missing"),
    pytest.param("challenge", {"challenge.victim": 2}, "challenge.victim", ("WD4-3", "after the attacker"),
                 id="WD4-3-victim-after-attacker"),
    pytest.param("challenge", {"current": 2}, "challenge.victim", ("WD4-3", "to act"), id="WD4-3-victim-to-act"),
    pytest.param("challenge", {"challenge.attacker": 7}, "challenge.attacker", ("0 to 2",), id="attacker-seat"),
    pytest.param("challenge", {"challenge.bluff": 1}, "challenge.bluff", ("true or false",), id="bluff-not-bool"),
    pytest.param("challenge", {"challenge.hand": "R7 ZZ"}, "challenge.hand[1]", ("'ZZ'",), id="challenge-hand"),
    pytest.param("challenge", {"challenge.extra": 1}, "challenge.extra", ("unknown key",), id="challenge-key"),
    pytest.param("challenge", {"discard_pile": "W+4 R3"}, "discard_pile", ("WD4-3", "R3"), id="WD4-3-top-not-wd4"),
    pytest.param("challenge", {"profile.wild_draw_four.mode": "enforced"}, "challenge", ("WD4-6", "enforced"),
                 id="WD4-6-no-challenges"),
    pytest.param("challenge", {"pending_draw": 2}, "pending_draw", ("WD4-3", "at least 4"), id="WD4-3-pending-2"),
    pytest.param("challenge", {"pending_draw": 6}, "pending_draw", ("ACT-5", "without stacking"),
                 id="ACT-5-pending-6-without-stacking"),
    pytest.param("play", {"pending_draw": 2}, "pending_draw", ("HOUSE-1", "outside"), id="HOUSE-1-pending-in-play"),
    pytest.param("play", {"pending_draw": -2}, "pending_draw", ("integer",), id="pending-negative"),
    pytest.param("play", {"pending_draw": False}, "pending_draw", ("false",), id="pending-bool"),
    pytest.param("penalty", {"pending_draw": 3}, "pending_draw", ("HOUSE-1", "even"), id="HOUSE-1-odd"),
    pytest.param("penalty", {"pending_draw": 0}, "pending_draw", ("HOUSE-1", "at least 2"), id="HOUSE-1-zero"),
    pytest.param("penalty", {"profile.play.stacking": "off"}, "phase", ("HOUSE-1", "stacking"),
                 id="HOUSE-1-stacking-off"),
    pytest.param("penalty", {"discard_pile": "Y+2 R3"}, "discard_pile", ("HOUSE-1", "R3"), id="HOUSE-1-top-not-draw"),
    pytest.param("penalty_wd4", {"pending_draw": 2}, "pending_draw", ("HOUSE-1", "at least 4"),
                 id="HOUSE-1-wd4-needs-4"),
    pytest.param("penalty_wd4", {"profile.wild_draw_four.mode": "challenge"}, "phase", ("WD4-3",),
                 id="WD4-3-penalty-on-challengeable-wd4"),
    pytest.param("choose_color", {"color": "R"}, "color", ("SETUP-8",), id="SETUP-8-colour-named"),
    pytest.param("play", {"phase": "CHOOSE_COLOR", "color": None}, "discard_pile", ("SETUP-8", "wild"),
                 id="SETUP-8-top-not-wild"),
    pytest.param("choose_color", {"discard_pile": lambda d: f"{d['draw_pile'].split()[0]} W",
                                  "draw_pile": lambda d: d["draw_pile"].split(" ", 1)[1]},
                 "discard_pile", ("SETUP-8", "one card"), id="SETUP-8-first-card-only"),
    pytest.param("exposed", {"uno_exposed": 1}, "uno_exposed", ("UNO-2", "p1 holds 2"), id="UNO-2-two-cards"),
    pytest.param("play", {"uno_exposed": 9}, "uno_exposed", ("0 to 2",), id="UNO-2-seat"),
    pytest.param("round_over", {"uno_exposed": 1}, "uno_exposed", ("UNO-2", "over"), id="UNO-2-round-over"),
    pytest.param("play", {"passes": 3}, "passes", ("PLAY-7", "at most 2"), id="PLAY-7-passes"),
    pytest.param("play", {"passes": -1}, "passes", ("integer",), id="passes-negative"),
    pytest.param("play", {"hands[2]": "", "draw_pile": lambda d: "G8 G9 B9 " + d["draw_pile"]}, "hands[2]",
                 ("END-1",), id="END-1-empty-hand"),
    pytest.param("round_over", {"match.last_round": None}, "match.last_round", ("END-1",), id="END-1-no-result"),
    pytest.param("round_over", {"match.last_round.hand_points": [0, 3]}, "match.last_round.hand_points",
                 ("one integer per player",), id="result-size"),
    pytest.param("round_over", {"match.last_round.blocked": "no"}, "match.last_round.blocked", ("true or false",),
                 id="result-blocked"),
    pytest.param("match_over", {"match.winner": None}, "match.winner", ("MATCH_OVER",), id="SCORE-2-no-winner"),
    pytest.param("play", {"match.winner": 0}, "match.winner", ("null until",), id="SCORE-2-winner-too-soon"),
    pytest.param("play", {"match.scores[1]": -3}, "match.scores[1]", ("integer",), id="SCORE-2-negative-score"),
    pytest.param("play", {"match.scores": [0, 0]}, "match.scores", ("one integer per player (3)",), id="scores-size"),
    pytest.param("play", {"match.round_number": 0}, "match.round_number", ("1 to",), id="round-number"),
    pytest.param("play", {"match": [1]}, "match", ("object",), id="match-not-object"),
    pytest.param("play", {"reveal": {"viewer": 5, "owner": 0, "cards": "R7"}}, "reveal.viewer", ("0 to 2",),
                 id="reveal-viewer"),
    pytest.param("play", {"rng": "abc"}, "rng", ("decimal",), id="rng-text"),
    pytest.param("play", {"rng": "-1"}, "rng", ("decimal",), id="rng-negative"),
    pytest.param("play", {"rng": str(2**64)}, "rng", ("2**64 - 1",), id="rng-too-big"),
    pytest.param("play", {"rng": 12}, "rng", ("12",), id="rng-number"),
    pytest.param("play", {"fingerprint": "0123456789abcdef"}, "fingerprint", ("does not match",), id="fingerprint"),
    pytest.param("play", {"fingerprint": 7}, "fingerprint", ("string",), id="fingerprint-type"),
    pytest.param("play", {"profile.setup.hand_size": 0}, "profile.setup.hand_size", ("1 to 50",), id="profile-field"),
    pytest.param("play", {"profile.setup.colour": 1}, "profile.setup.colour", ("unknown key",), id="profile-key"),
    pytest.param("play", {"profile": "classic-108"}, "profile", ("object",), id="profile-by-name-not-loaded"),
    pytest.param("play", {"profile.play.custom_effect": "os.system"}, "profile.play.custom_effect",
                 ("ACT-8", "registered"), id="ACT-8-unknown-effect"),
    pytest.param("play", {"extra": 1}, "extra", ("unknown key",), id="unknown-key"),
    pytest.param("play", {"current": DELETE}, "current", ("missing",), id="missing-key"),
]


@pytest.mark.parametrize(("base", "changes", "field", "words"), CORRUPTIONS)
def test_corrupted_state_document_is_refused(base: str, changes: dict[str, Any], field: str, words: tuple[str]) -> None:
    """Each check of a state document (rules as named in the test id) refuses one corrupted field by name."""
    assert_refused(corrupt(doc_of(base), changes), field, *words)


def test_challenge_attacker_may_hold_no_card() -> None:
    """WD4-3, END-1: while a last-card Wild Draw Four awaits its challenge, the attacker's empty hand is fine;
    anyone else's is not."""
    doc = doc_of("last_wd4")
    assert doc["hands"][0] == ""
    assert isinstance(u.from_json(doc), u.GameState)
    doc["hands"][1], doc["draw_pile"] = "", "Y1 Y2 " + doc["draw_pile"]
    assert_refused(doc, "hands[1]", "END-1")


def test_several_problems_are_reported_together() -> None:
    """Every problem of a document is reported at once, in one error whose message lists them all."""
    doc = corrupt(doc_of("play"), {
        "hands[2]": "G8 XX G9 B9", "match.scores[1]": -3, "direction": 0, "rng": "x", "phase": "NAP",
        "challenge": {"attacker": 0, "victim": "1"}, "extra": None,
    })
    err = refusal(doc)
    expected = {"hands[2][1]", "match.scores[1]", "direction", "rng", "phase", "challenge.victim",
                "challenge.bluff", "challenge.hand", "extra"}
    assert expected <= set(fields(err))
    assert str(err).startswith(f"test-doc: {len(err.problems)} problems:\n")
    assert err.field == err.problems[0][0]


def test_short_draw_pile_of_from_position_cannot_be_loaded() -> None:
    """DECK-5: from_position with an explicit draw pile may leave cards out; such a state is written, but
    loading it reports the missing cards."""
    state = position(CLASSIC, ["R7 G5", "Y1 Y2"], "R3", draw_pile="B1 B2")
    err = assert_refused(u.to_json(state), "cards", "DECK-5", "missing")
    assert fields(err) == ["cards"]


def test_many_unknown_cards_are_summed_up() -> None:
    """A hand of thousands of bad names gives a few problems and a count, not thousands of lines."""
    err = refusal(corrupt(doc_of("play"), {"hands[1]": "QQ " * 5000}))
    bad = [f for f in fields(err) if f.startswith("hands[1]")]
    assert bad == ["hands[1][0]", "hands[1][1]", "hands[1][2]", "hands[1][3]", "hands[1][4]", "hands[1]"]
    assert ("hands[1]", "4995 more unknown cards") in err.problems


@pytest.mark.parametrize("seed", [-1, 2**64, True])
def test_seeds_are_64_bit_so_every_state_can_be_written(seed: int) -> None:
    """A seed outside 0..2**64-1 is refused when the game starts (PositionError), so every state's seed
    fits a document."""
    deck = [u.CARDS[c] for c in profile(CLASSIC).deck_cards()]
    with pytest.raises(u.PositionError, match="seed"):
        u.new_game(profile(CLASSIC), 2, seed=seed, dealer=0, deck=deck)
    assert u.to_json(u.new_game(profile(CLASSIC), 2, seed=2**64 - 1))["rng"].isdigit()


def test_to_json_of_something_else_is_a_serialization_error() -> None:
    """Bad input to a public function raises an UnoEngineError (issue 13), not a TypeError from below."""
    with pytest.raises(u.SerializationError, match="dict"):
        u.to_json({"unoengine": "state"})  # type: ignore[arg-type]


# --- hostile documents: headers, other kinds, JSON text -------------------------------------------------
@pytest.mark.parametrize(
    ("version", "words"),
    [(2, ("unsupported version 2",)), ("1", ("'1'",)), (True, ("true",)), (1.0, ("1.0",)), (DELETE, ("missing",))],
)
def test_version_other_than_1_is_refused(version: Any, words: tuple[str]) -> None:
    """Only version 1 is read; a bool or float that equals 1 is not version 1."""
    for base in (doc_of("play"), u.to_json(u.Draw(0)), u.to_json(profile(CLASSIC))):
        err = assert_refused(corrupt(base, {"version": version}), "version", *words)
        assert fields(err) == ["version"]


@pytest.mark.parametrize("kind", ["game", "", None, 3, ["state"], DELETE])
def test_unknown_kind_is_refused(kind: Any) -> None:
    """A document must name a kind this version reads."""
    assert_refused(corrupt(doc_of("play"), {"unoengine": kind}), "unoengine")


@pytest.mark.parametrize("kind", ["move", "view", "profile"])
def test_state_document_labelled_as_another_kind_is_refused(kind: str) -> None:
    """A document of one kind read as another: its keys are unknown and the other kind's are missing."""
    err = refusal(corrupt(doc_of("play"), {"unoengine": kind}))
    assert "hands" in fields(err)
    assert any(problem == "missing" for _, problem in err.problems) or kind == "profile"


@pytest.mark.parametrize("data", [None, [], "state", 3, 2.5, True, ("unoengine", "state")])
def test_document_that_is_not_an_object_is_refused(data: Any) -> None:
    assert_refused(data, "document", "JSON object")


@pytest.mark.parametrize(
    "text",
    ["", "nope", "{", '{"unoengine": "move",}', "[1, 2", "NaN", '{"a": Infinity}', b"\xff\xfe\x00", "[" * 100_000,
     '{"a": ' * 100_000, "1" * 10_000, '{"unoengine": "move", "unoengine": "move"}'],
    ids=lambda t: repr(t[:12]),
)
def test_text_that_is_not_strict_json_is_refused(text: str | bytes) -> None:
    """Bad syntax, NaN/Infinity, bad bytes, deep nesting, giant integers and repeated keys are all refused."""
    with pytest.raises(u.SerializationError) as info:
        u.loads(text, "bad.json")
    assert info.value.field == "json"
    assert str(info.value).startswith("bad.json: json: ")


def test_loads_needs_text() -> None:
    with pytest.raises(u.SerializationError) as info:
        u.loads(123)  # type: ignore[arg-type]
    assert info.value.field == "json"


def test_huge_integers_are_refused_without_printing_them() -> None:
    """A huge integer in JSON text or in a parsed document is refused (its digits are never converted)."""
    text = u.dumps(base_states()["play"]).replace('"current": 0', '"current": ' + "9" * 50_000)
    with pytest.raises(u.SerializationError):
        u.loads(text)
    huge = 10**6000
    doc = corrupt(doc_of("play"), {"current": huge, "match.scores[0]": -huge, "profile.uno.penalty": huge})
    err = refusal(doc)
    assert {"current", "match.scores[0]", "profile.uno.penalty"} <= set(fields(err))
    assert "very large integer" in str(err)


def test_deeply_nested_values_in_a_document_are_refused() -> None:
    """Nesting built in Python (not through JSON text) is refused without recursion, wherever it is."""
    deep: list[Any] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    err = refusal(corrupt(doc_of("play"), {"profile.description": deep, "hands[0]": deep, "match.scores": deep}))
    assert {"hands[0]", "match.scores"} <= set(fields(err))
    assert any(f.startswith("profile.description") and p == "nested too deeply" for f, p in err.problems)


def test_move_documents_are_checked() -> None:
    """A move document holds one notation string and nothing else."""
    base = u.to_json(u.Draw(0))
    assert_refused(corrupt(dict(base), {"move": "p0 fly"}), "move", "'fly'")
    assert_refused(corrupt(dict(base), {"move": 5}), "move", "string")
    assert_refused(corrupt(dict(base), {"move": "p0 " + "R7" * 500}), "move", "too long")
    assert_refused(corrupt(dict(base), {"player": 0}), "player", "unknown key")
    assert_refused(corrupt(dict(base), {"move": DELETE}), "move", "missing")


def test_profile_documents_are_checked() -> None:
    """A profile document is read as a profile file is (ProfileError problems under profile.) and must
    match its fingerprint (HOUSE-8)."""
    base = u.to_json(profile(CLASSIC))
    assert_refused(corrupt(copy.deepcopy(base), {"fingerprint": "0" * 16}), "fingerprint", "does not match")
    assert_refused(corrupt(copy.deepcopy(base), {"profile.scoring.points.wild": -1}), "profile.scoring.points.wild")
    assert_refused(corrupt(copy.deepcopy(base), {"profile.deck": {"wild": {"wild": 1}}}), "profile.deck", "cannot deal")
    assert_refused(corrupt(copy.deepcopy(base), {"profile.extends": "gdj85"}), "profile.extends", "unknown key")


def test_view_documents_are_checked() -> None:
    """A view document is checked for shapes and types, all problems at once; its legal moves must parse."""
    doc = u.to_json(u.view(base_states()["challenge"], 1))
    err = refusal(corrupt(doc, {
        "legal_moves[0]": "p1 sing", "color": "Z", "hand_sizes": [1], "phase": 3, "revealed": {"viewer": 0},
        "drawn_card": "R99", "secret": True,
    }))
    assert {"legal_moves[0]", "color", "hand_sizes", "phase", "revealed.owner", "revealed.cards", "drawn_card",
            "secret"} <= set(fields(err))


# --- hypothesis: any JSON value anywhere ------------------------------------------------------------------
SPECIAL_VALUES = st.sampled_from([
    2**64, -(2**63), 10**400, "R7", "W+4", "p0 R7", "PLAY", "CHALLENGE", "PENALTY", "CHOOSE_COLOR", "MATCH_OVER",
    "R", "", "0", "-1", "R7 R7 R7", [[[[]]]], {"attacker": 0, "victim": 1, "bluff": True, "hand": ""},
])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.floats() | st.text(max_size=6)
    | SPECIAL_VALUES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@cache
def fuzz_bases() -> tuple[Doc, ...]:
    states = base_states()
    return (
        *(u.to_json(s) for s in states.values()),
        u.to_json(u.view(u.apply(states["challenge"], u.Challenge(1)), 1)),
        u.to_json(u.view(states["drawn"], 0)),
        u.to_json(profile("classic-108+stacking")),
        u.to_json(u.Play(0, u.parse_card("W"), u.Color.RED)),
    )


def all_paths(doc: Any, prefix: Path = ()) -> list[Path]:
    out: list[Path] = [prefix] if prefix else []
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += all_paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += all_paths(value, (*prefix, i))
    return out


def check_loads_or_refuses(load: Callable[[], Any]) -> None:
    """Loading raises only SerializationError; a state it accepts can be played and viewed."""
    try:
        loaded = load()
    except u.SerializationError:
        return
    if isinstance(loaded, u.GameState):
        for move in u.legal_moves(loaded)[:8]:
            u.apply(loaded, move)
        for p in range(loaded.num_players):
            u.view(loaded, p)


@settings(max_examples=budget(300, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_values_anywhere_raise_only_serialization_error(data: st.DataObject) -> None:
    """Any JSON value put at any path of a valid document (or a key deleted) loads fine or raises
    SerializationError, from the parsed document and from its JSON text; nothing else is ever raised."""
    doc = copy.deepcopy(data.draw(st.sampled_from(fuzz_bases())))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(all_paths(doc)))
        delete = isinstance(path[-1], str) and data.draw(st.booleans())
        value = DELETE if delete else copy.deepcopy(data.draw(JSON_VALUES))  # drawn values are shared: copy
        set_at(doc, path, value)
    check_loads_or_refuses(lambda: u.from_json(doc))
    try:
        text = json.dumps(doc)
    except ValueError:  # an integer too long for str(): the parsed-document case above covers it
        return
    check_loads_or_refuses(lambda: u.loads(text))


@settings(max_examples=500, deadline=None)
@given(value=JSON_VALUES)
def test_random_documents_raise_only_serialization_error(value: Any) -> None:
    """Any JSON value at all, as a document or under a valid header, raises only SerializationError."""
    check_loads_or_refuses(lambda: u.from_json(value))
    for kind in ("state", "view", "move", "profile"):
        doc = {"unoengine": kind, "version": 1, **(value if isinstance(value, dict) else {"x": value})}
        check_loads_or_refuses(partial(u.from_json, doc))
