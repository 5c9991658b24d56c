"""How much the suite plays: the quick loop (the README's ``pytest -n auto``) or the deep soak.

The deep run (``pytest --deep``, or ``UNOENGINE_DEEP=1``) plays 2,000 random rounds per shipped
profile and gives hypothesis its large budgets; the quick loop plays a tenth of that and small
budgets, so it finishes in minutes while still playing thousands of moves per profile. Every
test runs in both: only the number of games and examples changes.
"""

from __future__ import annotations

import os

DEEP = os.environ.get("UNOENGINE_DEEP", "") not in ("", "0")


def budget(quick: int, deep: int) -> int:
    """``deep`` in the deep run, ``quick`` otherwise."""
    return deep if DEEP else quick


FUZZ_GAMES = int(os.environ.get("UNOENGINE_FUZZ_GAMES") or budget(200, 2000))
"""Random rounds per shipped profile in the fuzz (``UNOENGINE_FUZZ_GAMES`` sets it directly)."""
