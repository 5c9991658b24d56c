"""Suite-wide settings: the ``--deep`` soak switch and the hypothesis profile (no deadline; print
how to reproduce a failure)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep", action="store_true",
        help="the long soak: 2,000 random rounds per profile and the large hypothesis budgets (tests/budget.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Before any test module is imported (here and in every xdist worker), so tests/budget.py
    # reads the switch at import.
    if config.getoption("deep"):
        os.environ["UNOENGINE_DEEP"] = "1"


def pytest_report_header(config: pytest.Config) -> str:
    from budget import DEEP, FUZZ_GAMES

    return f"unoengine: {'deep soak' if DEEP else 'quick loop'}, {FUZZ_GAMES} fuzz rounds per profile"


# A failing example is printed shrunk, with the blob that replays it (@reproduce_failure); and
# no deadline, since a deadline is wall-clock time: a slow or busy machine must fail no test
# (tests/test_no_wall_clock.py).
settings.register_profile("unoengine", print_blob=True, deadline=None)
settings.load_profile("unoengine")
