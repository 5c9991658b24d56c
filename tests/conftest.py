"""Suite-wide settings: the level switches (``--deep``, ``--soak``; tests/budget.py), the deep run's
selection, the ledger of the deep run's CPU (``--deep-ledger``), and the hypothesis profile (no
deadline; print how to reproduce a failure)."""

from __future__ import annotations

import os
import time
from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import settings

CPU_KEY = "cpu_seconds"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep", action="store_true",
        help="the deep run CI makes after the quick loop: the modules whose work grows with the level, "
             "at their deep budgets (tests/budget.py)",
    )
    parser.addoption(
        "--soak", action="store_true",
        help="the soak outside CI: the deep run's modules at the long budgets (a million lockstep moves "
             "per composition, 2,000 rounds per profile); hours of CPU",
    )
    parser.addoption(
        "--deep-ledger", metavar="PATH", default=None,
        help="write each test's CPU seconds to PATH (JSON), the ledger tests/test_budget.py scales: "
             "pytest -n auto --deep --deep-ledger tests/deep_ledger.json",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Before any test module is imported (here and in every xdist worker, which inherit the
    # environment), so tests/budget.py reads the switch at import.
    if config.getoption("soak"):
        os.environ["UNOENGINE_SOAK"] = "1"
    if config.getoption("deep") or config.getoption("soak"):
        os.environ["UNOENGINE_DEEP"] = "1"
    config.stash[_started] = time.monotonic()  # the ledger's record of the run's length, not a test


def pytest_report_header(config: pytest.Config) -> str:
    from budget import FUZZ_GAMES, LEVEL

    names = {"quick": "quick loop", "deep": "deep run", "soak": "soak"}
    return f"unoengine: {names[LEVEL]}, {FUZZ_GAMES} fuzz rounds per profile"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The deep run and the soak run only the modules that import from tests/budget.py: the rest do
    the same work at every level, and the quick loop before them has run it."""
    from budget import DEEP
    from deep_work import in_deep_run

    config.stash[_collected] = [item.nodeid for item in items]
    if not DEEP:
        return
    verdicts: dict[Path, bool] = {}
    keep: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        path = Path(item.path)
        if path not in verdicts:
            verdicts[path] = in_deep_run(path.read_text(encoding="utf-8"))
        (keep if verdicts[path] else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = keep


_collected = pytest.StashKey[list[str]]()
_started = pytest.StashKey[float]()
_phase_cpu = pytest.StashKey[float]()
_ledger: dict[str, float] = {}


def _cpu() -> float:
    """This process's CPU seconds and those of the children it has waited for (program bots, servers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None],
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if item.config.getoption("deep_ledger"):
        report.user_properties.append((CPU_KEY, _cpu() - item.stash.get(_phase_cpu, _cpu())))
        item.stash[_phase_cpu] = _cpu()
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[_phase_cpu] = _cpu()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """In the process that writes the ledger (xdist's controller, or the only one): add up each test's
    CPU over its phases, as the workers measured it."""
    for key, value in report.user_properties:
        if key == CPU_KEY:
            _ledger[report.nodeid] = _ledger.get(report.nodeid, 0.0) + float(value)  # type: ignore[arg-type]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = session.config.getoption("deep_ledger")
    if not path or hasattr(session.config, "workerinput") or not _ledger:
        return
    from deep_work import write_ledger

    minutes = (time.monotonic() - session.config.stash[_started]) / 60
    write_ledger(Path(path), _ledger, minutes, session.config.getoption("numprocesses", None))


# A failing example is printed shrunk, with the blob that replays it (@reproduce_failure); and
# no deadline, since a deadline is wall-clock time: a slow or busy machine must fail no test
# (tests/test_no_wall_clock.py).
settings.register_profile("unoengine", print_blob=True, deadline=None)
settings.load_profile("unoengine")
