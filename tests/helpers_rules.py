"""The rule catalogue the tests check against: docs/rules-catalogue.md, the project's copy of the
team's RULES.md, so that a clone runs every test (``python docs/gen_rules_index.py --check``, run
by tests/test_docs.py, fails when the copy differs from ../shared/RULES.md beside a checkout)."""

from __future__ import annotations

import re
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[1] / "docs" / "rules-catalogue.md"
_RULE_ID = re.compile(r"^\s*- ([A-Z0-9]+-\d+)\b", re.MULTILINE)


def rule_ids() -> set[str]:
    """Every rule ID the catalogue defines (its ``- WD4-1 ...`` lines)."""
    return set(_RULE_ID.findall(CATALOGUE.read_text(encoding="utf-8")))
