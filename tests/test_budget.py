"""The deep run fits in CI's budget, and fails here first when it no longer does.

CI runs .ci/run (the quick loop, the deep run, lint, types, the docs site, the wheel) in at most
40 minutes on its 2-core machine (it allows 90). The deep run is most of that, so its work is
counted from the sources (tests/deep_work.py) and scaled from the ledger of its last measured run
(tests/deep_ledger.json): a test whose deep budget or number of cases grows grows the estimate, and
past 40 minutes this test fails naming the tests that grew. Re-measure the ledger after a change
of the deep run's shape: ``pytest -n auto --deep --deep-ledger tests/deep_ledger.json``.
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from conftest import _collected
from deep_work import CI_MINUTES, LEDGER, budget_numbers, deep_modules, deep_work, estimate, function_id, module_work


def _cases(config: pytest.Config) -> dict[str, int]:
    """The deep tests' cases as collected in this run (the quick loop collects every module; a run of
    a few files counts only theirs, and the ledger's counts stand for the rest)."""
    deep = {p.name for p in deep_modules()}
    collected = config.stash.get(_collected, [])
    return dict(Counter(function_id(n) for n in collected if Path(n.split("::")[0]).name in deep))


def test_the_deep_run_and_the_rest_of_ci_fit_in_forty_minutes(request: pytest.FixtureRequest) -> None:
    ledger = json.loads(LEDGER.read_text(encoding="utf-8"))
    minutes, grew = estimate(ledger, deep_work(), _cases(request.config))
    whole = minutes + float(ledger["ci_other_minutes"])
    assert whole <= CI_MINUTES, (
        f"the deep run would take about {minutes:.1f} minutes and .ci/run about {whole:.1f}, over the "
        f"{CI_MINUTES:.0f} it may: trim these or move them to the soak (budget(quick, deep, soak)):\n"
        + "\n".join(grew[:15]))


def test_the_ledger_knows_nearly_every_deep_test() -> None:
    """A ledger that no longer describes the deep run would estimate it from means: re-measure it
    when more than a tenth of the deep tests are new to it."""
    ledger = json.loads(LEDGER.read_text(encoding="utf-8"))
    unknown = sorted(set(deep_work()) - set(ledger["tests"]))
    assert len(unknown) <= len(ledger["tests"]) // 10, unknown


SAMPLE = '''
    import os
    from budget import budget, FUZZ_GAMES

    MOVES = int(os.environ.get("X") or budget(20, 1_000, 100_000))
    ROUNDS = budget(2, 30)

    def _helper(n):
        return [budget(1, 4) for _ in range(n)]

    @settings(max_examples=budget(10, 50))
    def test_decorated(x): ...

    def test_constant():
        run(MOVES)

    def test_helper_and_fuzz():
        _helper(FUZZ_GAMES)

    def test_nothing(): ...

    class TestGroup:
        def test_rounds(self):
            for _ in range(ROUNDS * budget(3, 7)): ...
'''


def test_work_is_the_product_of_the_deep_numbers_a_test_reaches(tmp_path: Path) -> None:
    path = tmp_path / "test_sample.py"
    path.write_text(textwrap.dedent(SAMPLE), encoding="utf-8")
    fuzz_deep = budget_numbers()["FUZZ_GAMES"]  # its deep number in tests/budget.py
    assert module_work(path) == {
        "test_sample.py::test_decorated": 50,
        "test_sample.py::test_constant": 1_000,
        "test_sample.py::test_helper_and_fuzz": 4 * fuzz_deep,
        "test_sample.py::test_nothing": 1,
        "test_sample.py::TestGroup::test_rounds": 30 * 7,
    }


def test_a_test_that_grows_past_the_budget_is_named() -> None:
    ledger = {"deep_minutes": 20.0, "cpu_seconds": 2_400.0, "ci_other_minutes": 10.0, "tests": {
        "test_a.py::test_lockstep": {"cpu": 1_500.0, "cases": 30, "work": 100_000},
        "test_a.py::test_small": {"cpu": 500.0, "cases": 5, "work": 10},
    }}
    same, grew = estimate(ledger, {"test_a.py::test_lockstep": 100_000, "test_a.py::test_small": 10}, {})
    assert same == pytest.approx(20.0 * 2_000 / 2_400) and grew == []
    more, grew = estimate(ledger, {"test_a.py::test_lockstep": 1_000_000, "test_a.py::test_small": 10},
                          {"test_a.py::test_small": 10})
    assert more == pytest.approx(20.0 * (15_000 + 1_000) / 2_400)
    assert grew[0].startswith("test_a.py::test_lockstep: 1500 -> 15000") and grew[1].startswith("test_a.py::test_small")
    new, grew = estimate(ledger, {"test_a.py::test_lockstep": 100_000, "test_a.py::test_small": 10,
                                  "test_a.py::test_new": 1}, {"test_a.py::test_new": 2})
    assert new > same and "test_a.py::test_new: not in the ledger" in grew[0]
