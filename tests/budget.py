"""How much the suite plays, at three levels: the quick loop, the deep run, and the soak.

- The quick loop (the README's ``pytest -n auto``) plays enough of everything to catch a wrong rule
  in minutes.
- The deep run (``pytest --deep``, or ``UNOENGINE_DEEP=1``), which CI runs after the quick loop,
  runs again only the test modules whose work changes with the level (those that import from this
  module), with larger budgets: 1,000 random rounds per shipped profile, a lockstep of 10^5 moves
  per compiled profile and composition, the whole mutant tables, hypothesis's large budgets, the
  browser. What the quick loop already ran unchanged is not run twice.
- The soak (``pytest --soak``, or ``UNOENGINE_SOAK=1``) is the deep run's selection at the old
  long budgets: a million lockstep moves per composition, 2,000 rounds per profile, the big
  tournaments. It runs outside CI (hours of CPU); docs/testing.md records its last figures.

Every call names its three numbers in place, so the deep run's cost can be read from the source
without running it: tests/test_budget.py adds up what the deep run will do against the ledger of
its last measured run (tests/deep_ledger.json) and fails, naming the tests that grew, when it no
longer fits in CI's budget.
"""

from __future__ import annotations

import os

SOAK = os.environ.get("UNOENGINE_SOAK", "") not in ("", "0")
DEEP = SOAK or os.environ.get("UNOENGINE_DEEP", "") not in ("", "0")
LEVEL = "soak" if SOAK else "deep" if DEEP else "quick"


def budget(quick: int, deep: int, soak: int | None = None) -> int:
    """``quick`` in the quick loop, ``deep`` in the deep run, ``soak`` (else ``deep``) in the soak."""
    if SOAK and soak is not None:
        return soak
    return deep if DEEP else quick


FUZZ_GAMES = int(os.environ.get("UNOENGINE_FUZZ_GAMES") or budget(200, 1000, 2000))
"""Random rounds per shipped profile in the fuzz (``UNOENGINE_FUZZ_GAMES`` sets it directly)."""
