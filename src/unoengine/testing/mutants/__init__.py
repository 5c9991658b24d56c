"""Mutants of this engine: each one wrong rule a real buggy engine might have, for the mutation score.

A corpus that passes on a correct engine proves little unless it also fails on wrong ones. Each
:class:`Mutant` here breaks one rule of the catalogue (its ``rules``, main one first) by patching
one engine function, handler or table in ``unoengine.engine`` while it is active, and putting
it back afterwards; :func:`mutation_report` runs the conformance corpus under each one through
the shipped :class:`~unoengine.tools.conformance.EngineAdapter` and names the scenarios that
catch it (docs/conformance.md, "Mutation score"). ``python -m unoengine.testing.mutants`` prints
the table.

The mutants live by rule family in :mod:`.rounds` (deal, first card, dealers, deck, scoring),
:mod:`.play` (playing a turn, action cards, Wild Draw Four), :mod:`.uno` and :mod:`.house`; the
patching they share is in :mod:`.base`, the running in :mod:`.report`.
"""

from __future__ import annotations

from . import house, play, rounds, uno
from .base import MUTANTS, Mutant, MutantError, MutantSeamError, by_name
from .report import (
    CAUGHT_STATUSES,
    MutantResult,
    MutationReport,
    catching_scenarios,
    main,
    markdown_table,
    mutation_report,
    scenario_status,
)

_FAMILIES = ("SETUP", "DECK", "PLAY", "ACT", "WD4", "UNO", "END", "SCORE", "HOUSE")


def _rule_order(m: Mutant) -> tuple[int, int]:
    family, _, number = m.rules[0].rpartition("-")
    return (_FAMILIES.index(family) if family in _FAMILIES else len(_FAMILIES), int(number))


MUTANTS.sort(key=_rule_order)  # one table order whatever the module a mutant is defined in
del house, play, rounds, uno

__all__ = [
    "CAUGHT_STATUSES",
    "MUTANTS",
    "Mutant",
    "MutantError",
    "MutantResult",
    "MutantSeamError",
    "MutationReport",
    "by_name",
    "catching_scenarios",
    "main",
    "markdown_table",
    "mutation_report",
    "scenario_status",
]
