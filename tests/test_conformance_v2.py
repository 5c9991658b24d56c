"""Conformance protocol v2: capabilities, per-step support, isolation, capability-aware legal
moves, --adapter, and the exported bundle with its schema (docs/conformance.md)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from budget import DEEP
from helpers_conformance import OneStep

import unoengine as u
from unoengine import conformance as c
from unoengine.engine.state import GameState
from unoengine.tools import cli, conformance_server

EXAMPLE: dict[str, Any] = {
    "id": "act-3-example",
    "rules": ["ACT-3"],
    "profile": "classic-108",
    "start": {"hands": ["R+2 G3 G4", "B1 B2", "Y1 R9"], "discard": "R5", "draw_pile": "G1 G2 G6"},
    "steps": [
        {"move": "p0 R+2", "expect": {"hand_sizes": [2, 4, 2], "current": 2, "phase": "PLAY",
                                      "events": [{"type": "CardsDrawn", "player": 1, "count": 2, "rule": "ACT-3"}]}},
        {"move": "p2 R9", "expect": {"current": 0, "top": "R9"}},
        {"move": "p0 G3", "expect": {"rejected": {"rule": "PLAY-1", "reason": "card-does-not-match"}}},
    ],
}


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return c.load_scenarios(c.shipped_corpus())


@pytest.fixture(scope="module")
def needs(corpus: list[dict[str, Any]]) -> list[c.ScenarioNeeds]:
    return [c.scenario_needs(s) for s in corpus]


class AsWritten(c.EngineAdapter):
    """The reference, keeping every move it is sent, by scenario."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[str, list[str]] = {}
        self.scenario = ""

    def start(self, scenario: Any) -> GameState:
        self.scenario = scenario["id"]
        self.sent[self.scenario] = []
        return super().start(scenario)

    def play(self, game: GameState, move: str) -> tuple[GameState, list[dict[str, Any]]]:
        self.sent[self.scenario].append(move)
        return super().play(game, move)


def test_capability_names_are_a_closed_set() -> None:
    """Unknown names are refused naming the name; "all" is every one; an adapter without the
    attribute is a v1 adapter and claims everything."""
    assert c.parse_capabilities(["all"]) == c.CAPABILITIES
    assert c.parse_capabilities(["uno-call", "event:CardsDrawn"]) == {"uno-call", "event:CardsDrawn"}
    for bad in (["uno-calls"], ["event:CardDrawn"], "uno-call", [3]):
        with pytest.raises(c.CapabilityError) as info:
            c.parse_capabilities(bad)
        assert isinstance(info.value, u.UnoEngineError)
    with pytest.raises(c.CapabilityError, match="unknown capability 'uno-calls'"):
        c.parse_capabilities(["uno-calls"])
    assert c.EngineAdapter().capabilities == c.CAPABILITIES
    v1 = c.EngineAdapter()
    v1.capabilities = None  # type: ignore[assignment]
    assert c.run([EXAMPLE], v1).capabilities == c.CAPABILITIES


def test_needs_follow_the_scenario(corpus: list[dict[str, Any]]) -> None:
    """Set-up, moves and keys need what they use; the moment-dependent needs come from the reference."""
    by_id = {s["id"]: s for s in corpus}
    need = c.scenario_needs(EXAMPLE)
    assert need.setup == {"start-position"}
    assert need.steps[0].keys["phase"] == {"phases"} and need.steps[0].move == set()
    drawn = [s for s in corpus if any(st["move"].endswith(" draw") for st in s["steps"])]
    implied = [n for s in drawn for n in c.scenario_needs(s).steps if n.implied == "draw-then-decide"]
    assert implied, "a draw then a pass: the pass is the implied decision"
    stacking = next(s for s in by_id.values() if "stacking" in str(s["profile"]))
    assert "stacking" in c.scenario_needs(stacking).setup


def test_unsupported_at_any_step_keeps_the_steps_before() -> None:
    """Unsupported raised from play at step 1: step 0 counts, the scenario is partial with 1 step run;
    a failure before it still fails the scenario."""
    class Stops(c.EngineAdapter):
        def play(self, game: GameState, move: str) -> tuple[GameState, list[dict[str, Any]]]:
            if move == "p2 R9":
                raise c.Unsupported("no nines here")
            return super().play(game, move)

    (o,) = c.run([EXAMPLE], Stops()).outcomes
    assert (o.status, o.steps_run, o.steps) == ("partial", 1, 3), o
    assert "no nines here" in o.unsupported[0] and "1 later step(s)" in o.unsupported[0]
    wrong = copy.deepcopy(EXAMPLE)
    wrong["steps"][0]["expect"]["current"] = 1
    (o,) = c.run([wrong], Stops()).outcomes
    assert o.status == "failed" and "current is 2" in o.failures[0]

    class Never(c.EngineAdapter):
        def observe(self, game: GameState) -> dict[str, Any]:
            raise c.Unsupported("no observing")

    (o,) = c.run([EXAMPLE], Never()).outcomes
    assert (o.status, o.steps_run) == ("unsupported", 0)


@pytest.mark.parametrize("call", ["start", "play", "observe", "legal"])
def test_an_adapter_exception_errors_that_scenario_only(call: str) -> None:
    """Any exception from any adapter call: that scenario is errored with its message and a
    traceback summary, and the next scenario runs."""
    breaks = copy.deepcopy(EXAMPLE)
    breaks["id"] = "breaks"
    breaks["steps"][1]["expect"]["legal"] = {"0": ["p0 draw"]}
    fine = copy.deepcopy(EXAMPLE)
    fine["id"] = "fine"

    class Broken(c.EngineAdapter):
        scenario = ""

        def start(self, scenario: Any) -> GameState:
            self.scenario = scenario["id"]
            return super().start(scenario)

    def boom(self: Broken, *args: Any) -> Any:
        if call == "start":
            self.scenario = args[0]["id"]
        if self.scenario == "breaks":
            raise RuntimeError(f"boom in {call}")
        return getattr(c.EngineAdapter, call)(self, *args)

    setattr(Broken, call, boom)
    report = c.run([breaks, fine], Broken())
    first, second = report.outcomes
    assert first.status == "errored", first
    assert f"boom in {call}" in first.error and call in first.error
    assert any("in boom" in frame for frame in first.traceback), first.traceback
    assert second.status == "passed", second
    assert not report.ok and report.count("errored") == 1


def test_a_refused_set_up_fails_and_a_broken_one_errors() -> None:
    """An impossible position (PositionError, or Rejected from start) fails the scenario, as in v1."""
    bad = copy.deepcopy(EXAMPLE)
    bad["start"]["hands"][0] = "R+2 R+2 R+2"
    (o,) = c.run([bad]).outcomes
    assert o.status == "failed" and "set-up refused" in o.failures[0]


def test_legal_moves_compared_for_the_capabilities() -> None:
    """UNO flags ignored without uno-call, wild colours collapsed without wild-colors-listed,
    catches and challenges left out without their capability, a declined draw left out without
    decline-to-play (PLAY-5)."""
    none: frozenset[str] = frozenset({"legal-moves"})
    assert c.normal_move("p0 W+4:G!", none) == "p0 W+4"
    assert c.normal_move("p0 R7!", none) == "p0 R7"
    assert c.normal_move("p0 R7!", frozenset({"uno-call"})) == "p0 R7!"
    assert c.normal_move("p0 W:B", frozenset({"wild-colors-listed"})) == "p0 W:B"
    assert c.normal_move("p1 catch p0", frozenset({"uno-catch"})) is None  # a catch needs calls too
    assert c.normal_move("p1 catch p0", frozenset({"uno-catch", "uno-call"})) == "p1 catch p0"
    assert c.normal_move("p1 challenge", none) is None
    start = {"hands": ["W R1", "B1 B2", "Y1 R2"], "discard": "R5", "draw_pile": "G1 G2 G6", "current": 2}
    reference = c.EngineAdapter()
    exact = reference.legal(reference.play(reference.start({**EXAMPLE, "start": start}), "p2 R2")[0], 0)
    assert {"p0 W:G", "p0 W:G!", "p0 R1!", "p0 draw"} <= set(exact)
    scenario = {**EXAMPLE, "start": start, "steps": [{"move": "p2 R2", "expect": {"legal": {"0": exact}}}]}

    class Plain(c.EngineAdapter):
        """Lists each card once: no UNO flag, no colour, and no draw beside a play."""

        def legal(self, game: GameState, player: int) -> list[str]:
            return sorted({m.split(":")[0].rstrip("!") for m in super().legal(game, player) if not m.endswith("draw")})

    (claims_all,) = c.run([scenario], Plain()).outcomes
    assert claims_all.status == "failed" and "missing" in claims_all.failures[0]
    (plain,) = c.run([scenario], Plain(c.CAPABILITIES - {"uno-call", "wild-colors-listed", "decline-to-play"})).outcomes
    assert plain.status == "passed", plain
    (no_decline,) = c.run([scenario], Plain(c.CAPABILITIES - {"uno-call", "wild-colors-listed"})).outcomes
    assert no_decline.status == "failed" and "p0 draw" in no_decline.failures[0]


def test_keys_an_adapter_cannot_check_are_recorded_not_dropped() -> None:
    adapter = c.EngineAdapter(c.CAPABILITIES - {"phases", "rule-citations", "reason-codes", "event:CardsDrawn"})
    (o,) = c.run([EXAMPLE], adapter).outcomes
    assert o.status == "partial" and o.steps_run == 3 and not o.failures
    text = "\n".join(o.unsupported)
    for fragment in ("phase not checked (needs phases)", "event CardsDrawn not checked (needs event:CardsDrawn)",
                     "the rule cited (PLAY-1) not checked (needs rule-citations)", "needs reason-codes"):
        assert fragment in text, text


def test_the_reference_runs_each_scenario_exactly_as_written(corpus: list[dict[str, Any]]) -> None:
    """Every scenario's moves reach the reference adapter exactly as written, in order, none
    decided on its behalf or left out, and every one passes."""
    adapter = AsWritten()
    report = c.run(corpus, adapter)
    assert report.counts() == {**dict.fromkeys(c.STATUSES, 0), "passed": len(corpus)}
    for scenario in corpus:
        assert adapter.sent[scenario["id"]] == [step["move"] for step in scenario["steps"]], scenario["id"]


def _one_step_runs(corpus: list[dict[str, Any]], needs: list[c.ScenarioNeeds], claims: list[frozenset[str]]) -> None:
    for claimed in claims:
        report = c.run(corpus, OneStep(claimed), needs=needs)
        bad = [(o.scenario, o.failures, o.error) for o in report.outcomes if o.status in ("failed", "errored")]
        assert not bad, (sorted(c.CAPABILITIES - claimed), bad[:5])
        assert report.count("passed") + report.count("partial") + report.count("unsupported") == len(corpus)


def test_an_engine_lacking_capabilities_is_not_blamed_for_them(corpus: list[dict[str, Any]],
                                                                needs: list[c.ScenarioNeeds]) -> None:
    """This engine made one of another kind where it claims no challenge (its own unrestricted
    mode: the Wild Draw Four drawn at once, or held as a penalty under stacking) or no
    draw-then-decide (passing by itself after a draw), passes or is partial on every scenario
    for claims from the least to all but one (the deep run: each capability left out in turn)."""
    claims = [frozenset({"start-position", "legal-moves"}),
              c.CAPABILITIES - {"draw-then-decide", "challenge", "uno-call", "decline-to-play", "wild-colors-listed"},
              c.CAPABILITIES - {"challenge"}, c.CAPABILITIES - {"draw-then-decide"}]
    if DEEP:
        claims += [c.CAPABILITIES - {name} for name in sorted(c.FEATURES)]
    _one_step_runs(corpus, needs, claims)


def test_a_victim_who_takes_the_four_is_judged_alike_in_every_mode(corpus: list[dict[str, Any]]) -> None:
    """UNO-7 ruling: an engine without challenges (the victim draws at once) and the reference
    (the victim accepts) agree on the accepted Wild Draw Four scenarios: every step runs, the
    catch after the four cards included, and nothing fails (only the phase goes unchecked)."""
    ids = {"uno-7-accepting-the-wild-draw-four-leaves-the-window-open",
           "house-1-victim-accept-leaves-the-uno-window-open", "uno-7-window-open-after-an-enforced-wild-draw-four"}
    chosen = [s for s in corpus if s["id"] in ids]
    assert len(chosen) == len(ids)
    assert c.run(chosen).count("passed") == len(ids)
    for o in c.run(chosen, OneStep(c.CAPABILITIES - {"challenge"})).outcomes:
        assert o.status in ("passed", "partial") and o.steps_run == o.steps, o
        assert all("phase not checked (needs challenge)" in part for part in o.unsupported), o


def test_load_adapter_names_the_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--adapter module:Class: imported by that name only; every mistake is an UnoEngineError."""
    (tmp_path / "my_adapter.py").write_text(
        "from unoengine.conformance import EngineAdapter\n"
        "class Mine(EngineAdapter):\n    capabilities = frozenset({'start-position', 'legal-moves'})\n"
        "class Half:\n    def start(self, s): pass\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert c.load_adapter("my_adapter:Mine").capabilities == {"start-position", "legal-moves"}
    for spec, fragment in (("nope_module_x:A", "cannot import"), ("my_adapter:Other", "has no class"),
                           ("my_adapter", "expected module:Class"), ("my_adapter:Half", "lacks play")):
        with pytest.raises(c.AdapterLoadError, match=fragment):
            c.load_adapter(spec)


def test_cli_adapter_and_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """`unoengine conformance --adapter module:Class --json`: the adapter's claims are used and
    reported; a class that is not there is one line on stderr and exit 2."""
    (tmp_path / "few_adapter.py").write_text(
        "from unoengine.conformance import EngineAdapter\n"
        "class Few(EngineAdapter):\n    capabilities = frozenset({'start-position', 'legal-moves', 'phases'})\n"
        "class Typo(EngineAdapter):\n    capabilities = ['start-positions']\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"unoengine": "scenarios", "version": 1, "scenarios": [EXAMPLE]}), encoding="utf-8")
    assert cli.main(["conformance", "--json", "--adapter", "few_adapter:Few", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["capabilities"] == ["legal-moves", "phases", "start-position"]
    assert out["partial"] == 1 and out["errored"] == 0 and out["not_checked"]["act-3-example"]["steps_run"] == 3
    assert cli.main(["conformance", "--adapter", "few_adapter:Nope", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "has no class" in err
    assert cli.main(["conformance", "--adapter", "few_adapter:Few", "--engine-cmd", "x", str(path)]) == 2
    assert "not both" in capsys.readouterr().err
    assert cli.main(["conformance", "--adapter", "few_adapter:Typo", str(path)]) == 2
    assert "unknown capability 'start-positions'" in capsys.readouterr().err
    assert conformance_server.main(["--capabilities", "start-position,teleport"]) == 2
    assert "unknown capability 'teleport'" in capsys.readouterr().err


# --- the bundle and its schema ---------------------------------------------------------------
def test_every_shipped_file_matches_the_schema() -> None:
    files = c.shipped_corpus()
    assert files
    for path in files:
        assert c.validate(json.loads(path.read_text(encoding="utf-8"))) == [], path.name


def test_the_schema_refuses_what_the_loader_refuses() -> None:
    """The validator can fail: each broken document is refused at its place."""
    good = {"unoengine": "scenarios", "version": 1, "scenarios": [EXAMPLE]}
    assert c.validate(good) == []
    cases = [
        (lambda d: d["scenarios"][0].update(colour="red"), "unknown key 'colour'"),
        (lambda d: d["scenarios"][0]["start"].update(discard="R10"), "discard"),
        (lambda d: d["scenarios"][0]["steps"][0].update(move="p0 R10"), "move"),
        (lambda d: d["scenarios"][0].update(deal={"players": 3}), "exactly one"),
        (lambda d: d["scenarios"][0].pop("steps"), "steps: required"),
        (lambda d: d.update(version=True), "version: must be one of [1, 2]"),
        (lambda d: d["scenarios"][0]["steps"][0]["expect"].update(phase="DRAWING"), "phase"),
        (lambda d: d["scenarios"][0]["steps"][0]["expect"].update(hands={"x": "R1"}), "key 'x'"),
    ]
    for edit, fragment in cases:
        doc = copy.deepcopy(good)
        edit(doc)
        problems = c.validate(doc)
        assert any(fragment in p for p in problems), (fragment, problems)
    with pytest.raises(c.SchemaError):
        c.validate({}, {"type": "object", "if": {}})


def test_export_writes_a_versioned_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--export DIR: the files byte for byte with their hashes, the schema, the needs, the
    manifest's versions and counts; a folder that is not empty is refused (exit 2)."""
    out = tmp_path / "bundle"
    shipped = c.shipped_corpus() if DEEP else c.shipped_corpus()[:2]  # the quick loop: two files
    assert cli.main(["conformance", "--export", str(out), *map(str, shipped)]) == 0
    assert f"exported {len(c.load_scenarios(shipped))} scenarios" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["protocol"] == c.PROTOCOL_VERSION and manifest["corpus_version"] == c.CORPUS_VERSION
    assert len(manifest["files"]) == len(shipped)
    total = 0
    for entry, path in zip(manifest["files"], shipped, strict=True):
        data = (out / entry["file"]).read_bytes()
        assert data == path.read_bytes() and hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert c.validate(json.loads(data)) == []
        total += entry["scenarios"]
    assert total == manifest["scenarios"] == len(c.load_scenarios(shipped))
    schema = json.loads((out / "scenario-file.schema.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema == json.loads(json.dumps(c.SCENARIO_SCHEMA))
    needs = json.loads((out / "needs.json").read_text(encoding="utf-8"))
    assert len(needs["scenarios"]) == manifest["scenarios"] and set(needs["capabilities"]) == set(c.FEATURES)
    assert c.CORPUS_VERSION in (out / "README.md").read_text(encoding="utf-8")
    assert cli.main(["conformance", "--export", str(out)]) == 2
    assert "new or empty folder" in capsys.readouterr().err
    with pytest.raises(c.ExportError):
        c.export_bundle(shipped, out / "manifest.json")
