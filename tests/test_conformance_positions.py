"""Scenario format version 2: the start fields of any phase and the SETUP-2 dealer draw, the
capabilities they need, and old adapters that never see them (docs/conformance.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from unoengine import conformance as c
from unoengine.tools.conformance.capabilities import CAPABILITIES

POSITIONS = next(p for p in c.shipped_corpus() if p.name == "positions.json")
DRAWN: dict[str, Any] = {
    "id": "play-4-drawn", "rules": ["PLAY-4"], "profile": "classic-108",
    "start": {"hands": ["G6 R5", "B1 B2"], "discard": "R3", "draw_pile": "Y1", "phase": "DRAWN", "drawn": "R5"},
    "steps": [{"move": "p0 pass", "expect": {"current": 1, "dealer": 1}}],
}


def write(tmp_path: Path, version: int, *scenarios: dict[str, Any]) -> Path:
    path = tmp_path / f"v{version}.json"
    path.write_text(json.dumps({"unoengine": "scenarios", "version": version, "scenarios": list(scenarios)}),
                    encoding="utf-8")
    return path


def test_version_1_files_may_not_use_the_version_2_keys(tmp_path: Path) -> None:
    """A version 1 file is still read, but the keys version 2 added are refused in it, by field."""
    dealt = {"id": "setup-2-d", "rules": ["SETUP-2"], "profile": "classic-108",
             "deal": {"players": 2, "dealer_draw": "R5 G6"}, "steps": [{"move": "p0 catch p0", "expect": {}}]}
    with pytest.raises(c.ScenarioFileError) as info:
        c.load_scenarios([write(tmp_path, 1, DRAWN, dealt)])
    text = str(info.value)
    for field in ("start.phase", "start.drawn", "steps[0].expect.dealer", "deal.dealer_draw"):
        assert f"{field}: a key of scenario format version 2" in text, text
    assert [s["id"] for s in c.load_scenarios([write(tmp_path, 2, DRAWN, dealt)])] == ["play-4-drawn", "setup-2-d"]


@pytest.mark.parametrize(("key", "value"), [
    ("phase", "LATER"), ("drawn", "R5 G6"), ("drawn", "R10"), ("challenge_color", "red"), ("passes", "2"),
    ("known", [{"viewer": 0, "owner": 1}]), ("known", [{"viewer": 0, "owner": 1, "cards": "X"}]),
    ("last_round", {"winner": "p0", "hand_points": [0, 1]}), ("last_round", {"winner": 0}),
    ("uno_exposed", True), ("round_number", 1.5), ("attacker_hand", 7),
])
def test_version_2_start_values_of_the_wrong_type(tmp_path: Path, key: str, value: Any) -> None:
    """Each new start field takes one type; another is refused naming the field, by the loader and the schema."""
    bad = copy.deepcopy(DRAWN)
    bad["start"][key] = value
    with pytest.raises(c.ScenarioFileError, match=rf"start\.{key}"):
        c.load_scenarios([write(tmp_path, 2, bad)])
    problems = c.validate({"unoengine": "scenarios", "version": 2, "scenarios": [bad]})
    assert any(f"start.{key}" in p for p in problems), problems


def _setup(start: dict[str, Any] | None = None, deal: dict[str, Any] | None = None) -> frozenset[str]:
    s: dict[str, Any] = {"id": "x", "rules": ["PLAY-1"], "profile": "classic-108",
                         "steps": [{"move": "p0 draw", "expect": {}}]}
    if deal is not None:
        s["deal"] = deal
    else:
        s["start"] = {"hands": ["R1", "B2"], "discard": "R3", **(start or {})}
    return c.scenario_needs(s, reference=False).setup


def test_what_the_new_set_ups_need() -> None:
    """Any version 2 start field needs start-state, and each the part of the rules it sets up."""
    assert _setup() == {"start-position"}
    assert _setup({"phase": "DRAWN", "drawn": "R1"}) == {"start-position", "start-state", "draw-then-decide"}
    assert "challenge" in _setup({"phase": "CHALLENGE", "challenge_color": "R"})
    assert "first-card-color" in _setup({"phase": "CHOOSE_COLOR"})
    assert {"uno-call", "uno-catch", "start-state"} <= _setup({"uno_exposed": 0})
    assert _setup({"passes": 1}) == {"start-position", "start-state"}
    assert _setup({"known": []}) == {"start-position", "start-state"}
    assert "scoring" in _setup({"round_number": 2, "last_round": {"winner": 0, "hand_points": [0, 1]}})
    assert "scoring" in _setup({"phase": "ROUND_OVER"})
    assert _setup(deal={"players": 2, "dealer_draw": "R5 G6"}) == {"dealing-order", "dealer-draw"}
    keys = c.scenario_needs(DRAWN, reference=False).steps[0].keys
    assert keys["dealer"] == {"dealer-draw"}


class _Counting(c.EngineAdapter):
    starts = 0

    def start(self, scenario: Any) -> Any:
        type(self).starts += 1
        return super().start(scenario)


def test_adapters_without_the_new_capabilities_never_see_them() -> None:
    """An adapter claiming neither start-state nor dealer-draw (any adapter written before them)
    gets none of positions.json: every scenario is unsupported and its start is never called."""
    scenarios = c.load_scenarios([POSITIONS])
    adapter = _Counting(CAPABILITIES - {"start-state", "dealer-draw"})
    report = c.run(scenarios, adapter)
    assert report.counts()["unsupported"] == len(scenarios) and _Counting.starts == 0
    assert all("start-state" in " ".join(o.unsupported) or "dealer-draw" in " ".join(o.unsupported)
               for o in report.outcomes)


def test_positions_run_on_this_engine_with_each_capability_they_need() -> None:
    """positions.json passes on this engine; with one phase capability withdrawn, exactly the
    scenarios starting in that phase become unsupported, and none fails."""
    scenarios = c.load_scenarios([POSITIONS])
    assert c.run(scenarios, c.EngineAdapter()).counts()["passed"] == len(scenarios)
    report = c.run(scenarios, c.EngineAdapter(CAPABILITIES - {"challenge"}))
    challenged = {s["id"] for s in scenarios if s.get("start", {}).get("phase") == "CHALLENGE"}
    assert challenged and {o.scenario for o in report.outcomes if o.status == "unsupported"} >= challenged
    assert report.ok


def test_an_impossible_position_fails_as_a_refused_set_up(tmp_path: Path) -> None:
    """A set-up of the right types that no game can have (a drawn card not in the hand) fails its scenario."""
    bad = copy.deepcopy(DRAWN)
    bad["start"]["drawn"] = "B1"
    (outcome,) = c.run(c.load_scenarios([write(tmp_path, 2, bad)]), c.EngineAdapter()).outcomes
    assert outcome.status == "failed" and "drawn" in " ".join(outcome.failures)


def test_positions_file_states_every_phase_and_the_dealer_draw() -> None:
    """The shipped positions.json: format version 2, at least 45 scenarios, starting in each phase
    but MATCH_OVER and PENALTY (stated elsewhere), with exposed players, passes, later rounds and
    fixed dealer draws."""
    document = json.loads(POSITIONS.read_text(encoding="utf-8"))
    scenarios = document["scenarios"]
    assert document["version"] == 2 and len(scenarios) >= 45
    starts = [s.get("start", {}) for s in scenarios]
    assert {s.get("phase") for s in starts} >= {"DRAWN", "CHALLENGE", "CHOOSE_COLOR", "ROUND_OVER"}
    for key in ("uno_exposed", "passes", "round_number", "last_round", "attacker_hand"):
        assert any(key in s for s in starts), key
    draws = [s for s in scenarios if "dealer_draw" in s.get("deal", {})]
    assert len(draws) >= 10 and all("SETUP-2" in s["rules"] for s in draws)
