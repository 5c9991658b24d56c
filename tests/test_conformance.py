"""The conformance corpus and its runner: every shipped scenario passes, every rule ID is covered,
the runner catches a wrong expectation, and malformed scenario files are refused field by field."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers_rules import rule_ids

import unoengine as u
from unoengine import conformance as c
from unoengine.tools.conformance.scenarios import scenario_profile

ROOT = Path(__file__).resolve().parent.parent

EXAMPLE: dict[str, Any] = {
    "id": "act-3-example",
    "rules": ["ACT-3"],
    "sources": ["OG"],
    "profile": "classic-108",
    "start": {"hands": ["R+2 G3 G4", "B1 B2", "Y1 Y2"], "discard": "R5", "draw_pile": "G1 G2 G6"},
    "steps": [{"move": "p0 R+2", "expect": {"hand_sizes": [2, 4, 2], "current": 2, "hands": {"1": "B1 B2 G1 G2"}}}],
}


def document(*scenarios: dict[str, Any]) -> dict[str, Any]:
    return {"unoengine": "scenarios", "version": 1, "scenarios": list(scenarios)}


def write(tmp_path: Path, doc: Any, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return c.load_scenarios(c.shipped_corpus())


def test_every_shipped_scenario_passes(corpus: list[dict[str, Any]]) -> None:
    """Every rule ID: the shipped corpus runs clean against the engine."""
    report = c.run(corpus)
    failed = [f"{o.scenario}: {list(o.failures)}" for o in report.outcomes if o.status != "passed"]
    assert not failed, "\n".join(failed)


def test_corpus_cites_every_rule_id(corpus: list[dict[str, Any]]) -> None:
    """The corpus declares every rule ID of the catalogue, and every scenario cites known IDs only."""
    known = rule_ids()
    declared = {r for s in corpus for r in s["rules"]}
    assert declared <= known, f"unknown rule IDs cited: {sorted(declared - known)}"
    assert known <= declared, f"rule IDs no scenario covers: {sorted(known - declared)}"


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    """The runner reports each mismatch: wrong hand size, wrong hand, wrong turn, missing event."""
    bad = copy.deepcopy(EXAMPLE)
    bad["steps"][0]["expect"] = {
        "hand_sizes": [2, 3, 2], "current": 1, "hands": {"1": "B1 B2 G1 G6"},
        "events": [{"type": "CardsDrawn", "player": 1, "count": 2, "rule": "ACT-5"}],
    }
    (outcome,) = c.run(c.load_scenarios([write(tmp_path, document(bad))])).outcomes
    assert outcome.status == "failed"
    text = "\n".join(outcome.failures)
    for fragment in ("hand_sizes is [2, 4, 2]", "current is 2", "hand of p1", "expected event"):
        assert fragment in text, text
    good = c.run(c.load_scenarios([write(tmp_path, document(EXAMPLE), "g.json")])).outcomes[0]
    assert good.status == "passed", good.failures


def test_rejections_must_cite_the_rule(tmp_path: Path) -> None:
    """PLAY-1: a refusal passes only with the rule the engine cites; an accepted move fails a
    rejection expectation, and a refused one fails an acceptance."""
    scenario = copy.deepcopy(EXAMPLE)
    scenario["steps"] = [{"move": "p0 G9", "expect": {"rejected": {"rule": "PLAY-1", "reason": "card-does-not-match"}}}]
    assert "'card-not-in-hand'" in c.run([scenario]).outcomes[0].failures[0]  # G9 is not even in the hand
    scenario["start"]["hands"][0] = "R+2 G3 B9"
    scenario["steps"] = [{"move": "p0 B9", "expect": {"rejected": {"rule": "PLAY-1", "reason": "card-does-not-match"}}}]
    assert c.run([scenario]).outcomes[0].status == "passed"
    scenario["steps"] = [{"move": "p0 B9", "expect": {"rejected": {"rule": "WD4-1"}}}]
    assert "refused citing PLAY-1, expected WD4-1" in c.run([scenario]).outcomes[0].failures[0]
    scenario["steps"] = [{"move": "p0 R+2", "expect": {"rejected": {"rule": "PLAY-1"}}}]
    assert "accepted" in c.run([scenario]).outcomes[0].failures[0]
    scenario["steps"] = [{"move": "p0 B9", "expect": {"current": 1}}]
    assert "refused" in c.run([scenario]).outcomes[0].failures[0]


def test_malformed_files_name_every_problem(tmp_path: Path) -> None:
    """Scenario files are data checked field by field; every problem is listed with its place."""
    broken = copy.deepcopy(EXAMPLE)
    broken.update({"rules": [], "colour": "red", "profile": "no-such-profile"})
    broken["steps"] = [{"move": "p0 R10", "expect": {"handsizes": [1]}}, {"expect": {}}]
    twin = copy.deepcopy(EXAMPLE)
    files = [
        write(tmp_path, document(broken, twin, twin), "a.json"),
        write(tmp_path, {"unoengine": "scenarios", "version": 3, "scenarios": []}, "b.json"),
        write(tmp_path, [1, 2], "c.json"),
    ]
    (tmp_path / "d.json").write_text("{not json", encoding="utf-8")
    files.append(tmp_path / "d.json")
    with pytest.raises(c.ScenarioFileError) as info:
        c.load_scenarios(files)
    text = str(info.value)
    for fragment in (
        "rules: a non-empty list", "unknown key 'colour'", "profile/options", "steps[0].move", "'R10'",
        "unknown key 'handsizes'", "steps[1].move: required", "already used", "\"version\": 1 or 2",
        "must be a JSON object", "cannot be read as JSON",
    ):
        assert fragment in text, f"{fragment!r} not in {text}"
    assert isinstance(info.value, u.UnoEngineError)


def test_options_set_profile_values(tmp_path: Path) -> None:
    """UNO-2 / HOUSE-8: ``options`` set rule options by their TOML key; unknown ones are refused."""
    scenario = {
        "id": "uno-2-penalty-option",
        "rules": ["UNO-2"],
        "profile": "classic-108",
        "options": {"uno.penalty": 4},
        "start": {"hands": ["R3 R4", "B1 B2", "Y1 Y2"], "discard": "R5", "draw_pile": "G1 G2 G3 G4 G6"},
        "steps": [
            {"move": "p0 R3", "expect": {"uno_exposed": 0}},
            {"move": "p1 catch p0", "expect": {"hand_sizes": [5, 2, 2], "hands": {"0": "R4 G1 G2 G3 G4"}}},
        ],
    }
    assert c.run(c.load_scenarios([write(tmp_path, document(scenario))])).ok
    scenario["options"] = {"uno.penalti": 4}
    with pytest.raises(c.ScenarioFileError, match="unknown options"):
        c.load_scenarios([write(tmp_path, document(scenario), "x.json")])


def test_command_line_summary_and_exit_codes(tmp_path: Path) -> None:
    """`unoengine conformance` through the real entry point: 0 when all pass, 1 on a failure,
    2 on a malformed file; --json gives a machine-readable summary."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "unoengine", "conformance", *args], capture_output=True, text=True)

    ok = run()
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert re.search(r"conformance: \d+ scenarios .* \d+ passed, 0 failed", ok.stdout)
    bad = copy.deepcopy(EXAMPLE)
    bad["steps"][0]["expect"]["current"] = 1
    failing = run(str(write(tmp_path, document(bad))))
    assert failing.returncode == 1
    assert "FAILED" in failing.stdout and "act-3-example" in failing.stdout
    as_json = json.loads(run("--json", str(tmp_path)).stdout)
    assert as_json["failed"] == 1 and "act-3-example" in as_json["failures"]
    write(tmp_path, {"unoengine": "nope"}, "broken.json")
    assert run(str(tmp_path)).returncode == 2


SECRET = 'name = "classic-108"\n[secrets]\napi_token = "hunter2-token"\n'
"""A TOML file outside the scenario's folder whose keys and values no error may show."""


def with_profile(profile: Any, **more: Any) -> dict[str, Any]:
    return document({**EXAMPLE, "profile": profile, **more})


def test_a_scenario_profile_is_a_shipped_name_or_a_file_in_its_folder(tmp_path: Path) -> None:
    """Issue 33, item 6: ``"profile": "/etc/..."`` or ``"../x.toml"`` read any file, and the error
    quoted its keys and values. A path now names a file in the scenario's folder or below it (as
    ``extends`` does); anything else is refused, naming the path and not what the file holds."""
    outside = tmp_path / "secret.toml"
    outside.write_text(SECRET)
    folder = tmp_path / "suite"
    (folder / "profiles").mkdir(parents=True)
    (folder / "profiles" / "mine.toml").write_text('extends = "classic-108"\nname = "mine"\n[uno]\npenalty = 4\n')
    (folder / "link.toml").symlink_to(outside)
    for spec in (str(outside), "../secret.toml", "profiles/../../secret.toml", "link.toml",
                 ["classic-108", "../secret.toml"], "classic-108+../secret.toml"):
        with pytest.raises(c.ScenarioFileError) as info:
            c.load_scenarios([write(folder, with_profile(spec))])
        text = str(info.value)
        assert "outside this file's folder" in text or "is an absolute path" in text, text
        assert "hunter2" not in text and "api_token" not in text and "secrets" not in text
    scenario, = c.load_scenarios([write(folder, with_profile("profiles/mine.toml"))])
    assert scenario_profile(scenario).uno_penalty == 4  # read from the scenario's folder, not the current one
    assert c.run([scenario]).outcomes[0].status == "passed"
    plain = dict(scenario)  # a scenario built in code has no folder: shipped names only
    with pytest.raises(u.ProfileError, match="not read from a file names shipped profiles only"):
        scenario_profile(plain)


def test_a_bad_profile_file_of_a_scenario_is_named_not_quoted(tmp_path: Path) -> None:
    """A profile file in the scenario's folder that does not load is named with its count of
    problems; its keys and values are not shown (``unoengine profiles FILE`` shows them)."""
    (tmp_path / "bad.toml").write_text(SECRET)
    with pytest.raises(c.ScenarioFileError) as info:
        c.load_scenarios([write(tmp_path, with_profile("bad.toml"))])
    text = str(info.value)
    assert "'bad.toml'" in text or "bad.toml'" in text
    assert "does not load as a profile" in text and "unoengine profiles FILE" in text
    assert "hunter2" not in text and "api_token" not in text and "secrets" not in text
    with pytest.raises(c.ScenarioFileError, match=r"options\.uno\.penalty: must be an integer from 0 to 20"):
        c.load_scenarios([write(tmp_path, with_profile("classic-108", options={"uno.penalty": 99}), "o.json")])
