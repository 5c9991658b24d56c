"""What a conformance run leaves untested (docs/conformance.md): per rule ID of the profiles an
adapter claims, the scenarios run and not run and why, printed at the end of every run, and
``--strict``, which fails a run when a claimed profile's rule had no scenario run."""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

import pytest
from helpers_conformance import NoChallenge, importable_by_the_server

from unoengine import conformance as c
from unoengine.engine.state import GameState
from unoengine.tools import cli
from unoengine.tools.conformance.untested import RuleRun, summary_lines

SERVER = [sys.executable, "-m", "unoengine.tools.conformance_server"]
EXAMPLE: dict[str, Any] = {
    "id": "act-3-example", "rules": ["ACT-3", "PLAY-8"], "profile": "classic-108",
    "start": {"hands": ["R+2 G3 G4", "B1 B2", "Y1 R9"], "discard": "R5", "draw_pile": "G1 G2 G6"},
    "steps": [{"move": "p0 R+2", "expect": {"hand_sizes": [2, 4, 2], "current": 2}},
              {"move": "p2 R9", "expect": {"current": 0, "top": "R9"}}],
}


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return c.load_scenarios(c.shipped_corpus())


@pytest.fixture(scope="module")
def no_challenge(corpus: list[dict[str, Any]]) -> c.Report:
    return c.run(corpus, NoChallenge())


def _variant(sid: str, profile: str = "classic-108", **changes: Any) -> dict[str, Any]:
    scenario = copy.deepcopy(EXAMPLE)
    scenario.update(id=sid, profile=profile, **changes)
    return scenario


def test_an_engine_without_challenges_leaves_the_wd4_rules_untested(corpus: list[dict[str, Any]],
                                                                    no_challenge: c.Report) -> None:
    """A Wild Draw Four at any time and no challenge passes classic-108 without a failure, and
    the report names what that left untested: WD4-4 and WD4-5 had no scenario run, WD4-3 only some."""
    assert no_challenge.ok and not no_challenge.strict_ok
    assert no_challenge.claimed_profiles() == {"classic-108"}
    by_rule = {r.rule: r for r in no_challenge.rule_runs()}
    assert {r.profile for r in no_challenge.rule_runs()} == {"classic-108"}
    untested = {r.rule for r in no_challenge.untested()}
    assert {"WD4-4", "WD4-5"} <= untested
    assert all(dict(by_rule[rule].not_run) == {"challenge not declared": by_rule[rule].scenarios_not_run}
               for rule in ("WD4-4", "WD4-5"))
    wd4_3 = by_rule["WD4-3"]
    assert wd4_3.run > 0 and dict(wd4_3.not_run)["challenge not declared"] > 0
    citing = [s for s in corpus if s["profile"] == "classic-108" and "WD4-3" in s["rules"]]
    assert wd4_3.run + wd4_3.scenarios_not_run == len(citing)
    assert not by_rule["ACT-1"].not_run  # a rule it plays in full


def test_every_run_ends_with_the_untested_rules_and_strict_fails(capsys: pytest.CaptureFixture[str]) -> None:
    """`unoengine conformance`: the summary ends the output, a bounded list naming the WD4 rules
    and the capability not declared; --strict makes it exit 1, without it the run passes."""
    assert cli.main(["conformance", "--adapter", "helpers_conformance:NoChallenge"]) == 0
    out = capsys.readouterr().out.splitlines()
    summary = out[next(i for i, line in enumerate(out) if line.startswith("conformance: 464 scenarios")) + 1:]
    assert summary[0].startswith("untested: ") and "claimed profile(s) classic-108 had no scenario run" in summary[0]
    assert any(line.startswith("  WD4-4 [classic-108]: none of ") and "challenge not declared" in line
               for line in summary), summary
    assert any(line.startswith("  WD4-3 [classic-108]: ") for line in summary), summary
    assert len(summary) <= 1 + 20 + 1
    assert cli.main(["conformance", "--strict", "--adapter", "helpers_conformance:NoChallenge"]) == 1
    assert "--strict: " in capsys.readouterr().out
    assert cli.main(["conformance", "--strict", "--json", "--adapter", "helpers_conformance:NoChallenge"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["claimed_profiles"] == ["classic-108"] and data["strict_ok"] is False and data["untested"] >= 2
    wd4_4 = next(r for r in data["rules_not_run"] if r["rule"] == "WD4-4")
    assert wd4_4["untested"] and wd4_4["run"] == 0 and set(wd4_4["not_run"]) == {"challenge not declared"}


def test_the_reference_passes_strict(capsys: pytest.CaptureFixture[str]) -> None:
    """This engine runs every scenario of every profile it plays: --strict passes."""
    assert cli.main(["conformance", "--strict"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("untested: nothing; every scenario of the claimed profile(s) classic-108")
    report = c.run(c.load_scenarios(c.shipped_corpus()))
    assert report.strict_ok and report.untested() == ()
    assert len(report.claimed_profiles()) > 40


def test_why_a_scenario_did_not_run() -> None:
    """Capabilities not declared (the set-up's, or a step's), an unsupported answer, an error;
    a scenario run to its last step counts as run even with keys unchecked, and a failure too."""
    scenarios = [
        _variant("ran-partly-checked"),
        _variant("failed", steps=[{"move": "p0 R+2", "expect": {"current": 1}}]),
        _variant("stopped-at-a-step", steps=[*EXAMPLE["steps"], {"move": "p2 uno", "expect": {}}]),
        _variant("not-set-up", profile="classic-108+stacking"),
        _variant("refused-by-the-adapter", rules=["ACT-1"]),
        _variant("errored", rules=["ACT-2"]),
    ]

    class Picky(c.EngineAdapter):
        def start(self, scenario: Any) -> GameState:
            if scenario["id"] == "refused-by-the-adapter":
                raise c.Unsupported("not this one")
            if scenario["id"] == "errored":
                raise RuntimeError("boom")
            return super().start(scenario)

    adapter = Picky(c.CAPABILITIES - {"phases", "stacking", "uno-call"})
    report = c.run(scenarios, adapter)
    by_id = {o.scenario: o for o in report.outcomes}
    assert by_id["stopped-at-a-step"].lacking == ("uno-call",)
    assert by_id["not-set-up"].lacking == ("stacking",) and not by_id["not-set-up"].started
    assert by_id["refused-by-the-adapter"].lacking == () and not by_id["refused-by-the-adapter"].started
    assert report.claimed_profiles() == {"classic-108"}  # the stacking scenario was never started
    runs = {r.rule: r for r in report.rule_runs()}
    assert runs["ACT-3"] == RuleRun("classic-108", "ACT-3", 2, (("uno-call not declared", 1),))
    assert runs["ACT-1"] == RuleRun("classic-108", "ACT-1", 0, (("unsupported answer", 1),))
    assert runs["ACT-2"] == RuleRun("classic-108", "ACT-2", 0, (("errored", 1),))
    assert [r.rule for r in report.untested()] == ["ACT-1", "ACT-2"]
    assert not report.ok and not report.strict_ok


def test_declared_profiles_are_the_claim() -> None:
    """An adapter's `profiles` names what it claims, even a profile it never started; names are
    checked, and a path is never taken for one."""
    class Stacker(c.EngineAdapter):
        profiles = ("classic-108+stacking", "classic-108")

    report = c.run([_variant("plain")], Stacker(c.CAPABILITIES - {"stacking"}))
    assert report.claimed_profiles() == {"classic-108", "classic-108+stacking"}
    assert c.run([_variant("plain")]).claimed_profiles() == {"classic-108"}
    assert c.parse_profiles(["gdj85+jump-in+stacking"]) == {"gdj85+jump-in+stacking"}
    for bad, fragment in (("classic-108", "expected a list"), (["clasic-108"], "unknown profile 'clasic-108'"),
                          (["profiles/classic-108.toml"], "unknown profile"), ([7], "must be a string")):
        with pytest.raises(c.CapabilityError, match=fragment):
            c.parse_profiles(bad)

    class Typo(c.EngineAdapter):
        profiles = ("classic-108+stackin",)

    with pytest.raises(c.CapabilityError, match=r"Typo\.profiles: unknown profile"):
        c.run([_variant("plain")], Typo())


def test_declared_profiles_travel_over_the_wire(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server passes its adapter's `profiles` on in `ready`; the runner takes them as the claim."""
    importable_by_the_server(monkeypatch)
    with c.WireAdapter([*SERVER, "--adapter", "helpers_conformance:NoChallenge"]) as wire:
        assert wire.profiles == {"classic-108"}
        report = c.run([_variant("plain")], wire)
    assert report.claimed_profiles() == {"classic-108"} and report.strict_ok
    with c.WireAdapter(SERVER) as wire:
        assert wire.profiles is None


def test_the_printed_list_is_bounded() -> None:
    runs = [RuleRun("classic-108", f"PLAY-{i}", 0, (("challenge not declared", 1),)) for i in range(1, 9)]
    lines = summary_lines(runs, ["classic-108"], shown=3)
    assert len(lines) == 5 and lines[-1] == "  ... and 5 more (--json lists every one)"
    many = RuleRun("classic-108", "WD4-3", 1, tuple((f"reason {i}", 1) for i in range(5)))
    assert many.line().endswith("reason 2: 1 not run; 2 other reason(s)")
    assert summary_lines([], []) == ["untested: no profile claimed (the adapter declared none and started "
                                     "no scenario)"]


def test_untrusted_rule_ids_are_quoted_in_the_summary() -> None:
    """Rule IDs come from scenario files: one that is not a plain token is printed quoted and shortened."""
    odd = RuleRun("classic-108", "WD4-3\nINJECTED " + "x" * 500, 0, (("challenge not declared", 1),))
    (line,) = [line for line in summary_lines([odd], ["classic-108"]) if line.startswith("  ")]
    assert "\n" not in line and "INJECTED" in line and "characters)" in line and len(line) < 200


def test_a_partial_scenario_names_the_capabilities_it_left_unchecked(capsys: pytest.CaptureFixture[str]) -> None:
    """Outcome.unchecked: the capabilities not declared that the parts left unchecked needed, sorted,
    and the same per scenario in ``--json``'s not_checked; a scenario checked in full has none."""
    events = frozenset(cap for cap in c.CAPABILITIES if cap.startswith("event:"))
    files = [p for p in c.shipped_corpus() if p.name == "play.json"]
    report = c.run(c.load_scenarios(files), c.EngineAdapter(c.CAPABILITIES - events - {"reason-codes"}))
    partial = [o for o in report.outcomes if o.status == "partial"]
    assert partial and all(o.unchecked and set(o.unchecked) <= events | {"reason-codes"} for o in partial)
    assert all(list(o.unchecked) == sorted(o.unchecked) for o in partial)
    assert any("reason-codes" in o.unchecked for o in partial)
    assert all(o.unchecked == () for o in report.outcomes if o.status == "passed")
    full = c.run(c.load_scenarios(files))
    assert all(o.unchecked == () for o in full.outcomes)
    assert cli.main(["conformance", "--json", "--adapter", "helpers_conformance:NoChallenge"]) == 0
    not_checked = json.loads(capsys.readouterr().out)["not_checked"]
    assert not_checked and all(entry["unchecked"] == sorted(entry["unchecked"]) for entry in not_checked.values())
    assert any("challenge" in entry["unchecked"] for entry in not_checked.values())
