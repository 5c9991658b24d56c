"""The documentation stays true: its code examples run, and the rule index is current."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_rules import CATALOGUE

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
DOCS_WITH_CODE = [
    "README.md", "docs/getting-started.md", "docs/api.md", "docs/profiles.md", "docs/house-rules.md", "docs/testing.md",
    "docs/bots.md", "docs/rl.md", "docs/rendering.md", "docs/learning.md",
]


def _blocks() -> list[tuple[str, int, str]]:
    out = []
    for name in DOCS_WITH_CODE:
        text = (ROOT / name).read_text(encoding="utf-8")
        for i, m in enumerate(BLOCK.finditer(text)):
            out.append((name, i, m.group(1)))
    return out


@pytest.mark.parametrize(("doc", "index", "code"), _blocks(), ids=lambda v: str(v)[:40])
def test_code_example_runs(doc: str, index: int, code: str) -> None:
    """Every ```python block of the guides runs without error (test functions in it run too)."""
    namespace: dict[str, object] = {"__name__": f"doc_{index}"}
    exec(compile(code, f"{doc}[{index}]", "exec"), namespace)
    for name, value in list(namespace.items()):
        if name.startswith("test_") and callable(value):
            value()
    for bot in _example_bots(namespace):
        _plays_a_match(bot)
        _calls_uno(bot)


def _example_bots(namespace: dict[str, object]) -> list[object]:
    """The bots a block defines: classes with ``act`` (made with no arguments), functions named
    ``*_bot`` that take a view."""
    here = namespace["__name__"]
    bots: list[object] = []
    for name, value in namespace.items():
        if getattr(value, "__module__", None) != here:
            continue
        if isinstance(value, type) and callable(getattr(value, "act", None)):
            bots.append(value())
        elif callable(value) and name.endswith("_bot") and not isinstance(value, type):
            bots.append(value)
    return bots


def _plays_a_match(bot: object) -> None:
    """Every example bot works in match play: three rounds against random bots, the example bot
    dealing whenever it is the next dealer (issue: a bot that returned None for NextRound)."""
    import random

    import unoengine.testing as ut

    others = [ut.random_bot(random.Random(k)) for k in (1, 2)]
    state = ut.check_random_game([bot, *others], "classic-108", 3, seed=11, rounds=3)  # type: ignore[list-item]
    assert state.match.round_number >= 3


def _calls_uno(bot: object) -> None:
    """Every example bot calls UNO with its next-to-last card (UNO-1): heads-up against the
    heuristic, which catches whenever it can (UNO-2), it is never caught (the JavaScript example
    once was, in most games: tests/test_protocol.py)."""
    import random

    import unoengine as u
    from unoengine.bots import make_bot
    from unoengine.bots.turns import next_move
    from unoengine.events import UnoCalled, UnoCaught, UnoNotCalled

    class Seat:  # a bot written as a function of the view, as the testing kit takes one
        def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
            return bot.act(view, rng) if hasattr(bot, "act") else bot(view)  # type: ignore[attr-defined,operator,no-any-return]

    counts = {UnoCalled: 0, UnoNotCalled: 0, UnoCaught: 0}
    for seed in range(8):
        seats = [Seat(), make_bot("heuristic")]
        rngs = [random.Random(f"{seed}/{k}") for k in (0, 1)]
        state = u.new_game("classic-108", 2, seed=seed)
        while not state.round_over:
            state, events = u.apply_with_events(state, next_move(state, seats, rngs))  # type: ignore[arg-type]
            for e in events:
                if type(e) in counts and e.player == 0:  # type: ignore[attr-defined]
                    counts[type(e)] += 1
    assert counts[UnoNotCalled] == 0 and counts[UnoCaught] == 0, f"the example bot did not call UNO: {counts}"
    assert counts[UnoCalled] >= 4, f"too few UNO calls to see a miss: {counts}"


def _expected_output(code: str) -> list[str]:
    """Documented output: the inline comment of a print() line, or comment lines right after one."""
    expected: list[str] = []
    after_print = False
    for line in code.splitlines():
        if line.startswith("# ") and after_print:
            expected.append(line[2:].strip())
            continue
        after_print = "print(" in line
        if after_print and "  # " in line:
            expected.append(line.split("  # ", 1)[1].strip())
            after_print = False
    return expected


def test_printed_outputs_in_getting_started_match() -> None:
    """Each output documented in getting-started.md is exactly what its print() prints, in order."""
    text = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    checked = 0
    for code in BLOCK.findall(text):
        expected = _expected_output(code)
        if not expected:
            continue
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        printed = [line.strip() for line in run.stdout.splitlines()]
        assert printed == expected, f"documented {expected}, printed {printed}"
        checked += 1
    assert checked >= 3


def test_rule_index_is_current() -> None:
    """docs/rules.md is generated from the catalogue (docs/rules-catalogue.md), the code and the
    tests: it must be regenerated (python docs/gen_rules_index.py) whenever a citation changes. Beside
    a team checkout the catalogue must also still be the team's ../shared/RULES.md."""
    run = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_rules_index.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_a_catalogue_that_drifted_from_the_teams_copy_is_reported(tmp_path: Path) -> None:
    """The check of the project's catalogue against the team's: the same text passes, and so does a
    clone without the team's file; one rule changed fails the check, naming the line and the fix."""
    spec = importlib.util.spec_from_file_location("gen_rules_index", ROOT / "docs" / "gen_rules_index.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    ours = CATALOGUE.read_text(encoding="utf-8")
    team = tmp_path / "RULES.md"
    assert gen.catalogue_drift(CATALOGUE, team) is None  # a clone: no team copy beside it
    team.write_text(ours, encoding="utf-8")
    assert gen.catalogue_drift(CATALOGUE, team) is None
    lines = ours.splitlines(keepends=True)
    changed = next(i for i, line in enumerate(lines) if line.startswith("- "))  # the first rule
    lines[changed] = lines[changed].rstrip("\n") + " A new sentence.\n"
    team.write_text("".join(lines), encoding="utf-8")
    drift = gen.catalogue_drift(CATALOGUE, team)
    assert drift is not None and f"from line {changed + 1}:" in drift and f"cp {team} {CATALOGUE}" in drift
    run = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_rules_index.py"), "--check", "--team-rules",
                          str(team)], capture_output=True, text=True)
    assert run.returncode == 1 and "differs from the team's catalogue" in run.stderr, run.stderr


TINY_ENGINE = ROOT / "docs" / "examples" / "conformance" / "tiny_engine.mjs"


def test_the_javascript_conformance_adapter_runs_with_node() -> None:
    """docs/examples/conformance/tiny_engine.mjs over the wire, run by node: it claims a few
    capabilities, so most scenarios are partial or unsupported (some by its own "unsupported"
    at a step), none errors, and what it claims it does right (the deep run: the whole corpus)."""
    import shutil

    from budget import DEEP

    from unoengine import conformance as c

    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, and CI runs the JavaScript example adapter")
        pytest.skip("node is not installed (the machines of CI have Node.js, and there this test fails without it)")
    scenarios = c.load_scenarios(c.shipped_corpus() if DEEP else [p for p in c.shipped_corpus() if p.name in
                                                                   ("play.json", "actions.json")])
    with c.WireAdapter([node, str(TINY_ENGINE)]) as tiny:
        assert tiny.name == "tiny-engine.js" and "uno-call" not in tiny.capabilities
        report = c.run(scenarios, tiny)
    counts = report.counts()
    assert counts["errored"] == 0 and counts["failed"] == 0, [o for o in report.outcomes if o.status != "passed"][:3]
    assert counts["passed"] > 0 and counts["partial"] > 0 and counts["unsupported"] > 0, counts
    notes = [n for o in report.outcomes for n in o.unsupported]
    assert any("unsupported by the adapter" in n for n in notes) and any("(needs " in n for n in notes)
    partial_after_steps = [o for o in report.outcomes if o.status == "partial" and 0 < o.steps_run < o.steps]
    assert partial_after_steps, "a scenario stopped part way, its first steps counted"
