"""Running a corpus under the mutants: which scenarios catch each one, the table, the command.

A scenario catches a mutant when it passes on the engine and, under the mutant, fails, is an
error (the runner's isolation) or raises out of the runner. Only the runner's public surface is
used (``run``, ``load_scenarios``, ``shipped_corpus``, ``EngineAdapter`` and each outcome's
status), so any adapter can be measured the same way.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from ...tools.conformance import Adapter, EngineAdapter, load_scenarios, run, shipped_corpus
from .base import MUTANTS, Mutant

PASSED: Final = "passed"
CAUGHT_STATUSES: Final = ("failed", "errored", "raised")
"""A scenario catches a mutant when it passes on the engine and, under the mutant, fails, is an
error (the runner's isolation) or raises out of the runner ("raised")."""


def scenario_status(scenario: Mapping[str, Any], adapter: Adapter) -> str:
    """The status of one scenario run alone: the runner's, or "raised" when the run itself raised
    (a mutant may crash the engine in a way today's runner does not isolate)."""
    try:
        (outcome,) = run([scenario], adapter).outcomes
    except Exception:  # any crash under a mutant is a detection, whatever its type
        return "raised"
    return str(outcome.status)


@attrs.frozen
class MutantResult:
    """One mutant's run: the scenarios that catch it (passing on the engine, not under the mutant),
    in corpus order, and which of them declare a rule the mutant breaks (caught for its reason)."""

    mutant: Mutant
    caught_by: tuple[str, ...]
    scenarios_run: int
    """How many scenarios (passing on the engine) were run under the mutant."""
    declaring: tuple[str, ...] = ()
    """The catching scenarios whose ``rules`` name one of the mutant's rules."""

    @property
    def caught(self) -> bool:
        return bool(self.caught_by)


@attrs.frozen
class MutationReport:
    """The mutation score of a corpus: each mutant with the scenarios that catch it."""

    results: tuple[MutantResult, ...]

    @property
    def score(self) -> tuple[int, int]:
        """(mutants caught, mutants run)."""
        return sum(1 for r in self.results if r.caught), len(self.results)

    def survivors(self) -> list[str]:
        return [r.mutant.name for r in self.results if not r.caught]


def catching_scenarios(
    mutant: Mutant, scenarios: Sequence[Mapping[str, Any]], baseline: Mapping[str, str],
    adapter: Callable[[], Adapter] = EngineAdapter, *, first_only: bool = False,
) -> MutantResult:
    """Run ``scenarios`` under ``mutant``; ``baseline`` maps each scenario id to its status on the
    real engine (only scenarios that pass there can catch anything). ``first_only`` stops at the
    first catch (enough to know the mutant is caught)."""
    caught: list[str] = []
    declaring: list[str] = []
    run_count = 0
    with mutant.active():
        for s in scenarios:
            if baseline.get(s["id"]) != PASSED:
                continue
            run_count += 1
            if scenario_status(s, adapter()) in CAUGHT_STATUSES:
                caught.append(s["id"])
                if set(s["rules"]) & set(mutant.rules):
                    declaring.append(s["id"])
                if first_only:
                    break
    return MutantResult(mutant, tuple(caught), run_count, tuple(declaring))


def mutation_report(
    scenarios: Sequence[Mapping[str, Any]] | None = None, mutants: Iterable[Mutant] | None = None,
    adapter: Callable[[], Adapter] = EngineAdapter,
) -> MutationReport:
    """Every mutant (:data:`MUTANTS` by default) run over every scenario (the shipped corpus by
    default) through a fresh ``adapter()`` for each scenario."""
    chosen = load_scenarios(shipped_corpus()) if scenarios is None else scenarios
    baseline = {s["id"]: scenario_status(s, adapter()) for s in chosen}
    return MutationReport(tuple(
        catching_scenarios(m, chosen, baseline, adapter) for m in (MUTANTS if mutants is None else mutants)
    ))


def markdown_table(report: MutationReport, shown: int = 4) -> str:
    """The report as a Markdown table: mutant, rules broken, what it does, and the catching
    scenarios: how many, how many of them declare one of the mutant's rules, and the first
    ``shown`` ids, those declaring its rules first (0 shows them all)."""
    rows = ["| mutant | breaks | what is wrong | caught by (declaring its rules) |", "| --- | --- | --- | --- |"]
    for r in report.results:
        m = r.mutant
        what = re.sub(r"^.*? broken[^:]*: ", "", " ".join(m.description.split()), count=1)
        ids = [*r.declaring, *(i for i in r.caught_by if i not in r.declaring)]
        listed = ids if not shown else ids[:shown]
        more = f" and {len(ids) - len(listed)} more" if len(ids) > len(listed) else ""
        caught = (f"{len(ids)} ({len(r.declaring)}): " + ", ".join(f"`{i}`" for i in listed) + more
                  if ids else "**nothing**")
        rows.append(f"| `{m.name}` | {', '.join(m.rules)} | {what} | {caught} |")
    caught_count, total = report.score
    rows.append("")
    rows.append(f"Mutation score: {caught_count} of {total} mutants caught.")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unoengine.testing.mutants [--all]``: the table for the shipped corpus (``--all``
    lists every catching scenario); exit 1 when a mutant survives."""
    args = list(sys.argv[1:] if argv is None else argv)
    unknown = [a for a in args if a != "--all"]
    if unknown:
        print(f"usage: python -m unoengine.testing.mutants [--all]; unknown {unknown}", file=sys.stderr)
        return 2
    report = mutation_report()
    print(markdown_table(report, shown=0 if "--all" in args else 4))
    return 0 if not report.survivors() else 1


if __name__ == "__main__":
    sys.exit(main())
