"""What a run left untested: for each rule ID of the profiles an adapter claims, how many of the
scenarios citing it ran and why the others did not.

An engine that lacks a part of the rules declares fewer capabilities, and the scenarios that need
that part are not run: right for the engine, but silent unless someone adds them up. Here a
scenario *ran* when it was carried out to its last step (passed, failed, or partial with only
some expectation keys unchecked); otherwise it was *not run*, for a reason: capabilities not
declared (its set-up's or a step's), an ``unsupported`` answer of the adapter, or an error. A
rule ID no scenario of a claimed profile ran is *untested*; ``--strict`` fails the run then
(docs/conformance.md, "What a run left untested").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Final, Protocol

import attrs

from ...engine.errors import quoted

SHOWN: Final = 20
"""How many rule IDs the printed summary lists at most (``--json`` gives every one)."""
REASONS: Final = 3
"""How many reasons a printed line gives at most, the commonest first."""
_PLAIN: Final = re.compile(r"[A-Za-z0-9+._-]{1,60}")


class Outcome(Protocol):
    """What this module reads of a scenario's outcome (:class:`~.runner.Outcome`)."""

    @property
    def profile(self) -> str: ...
    @property
    def rules(self) -> tuple[str, ...]: ...
    @property
    def status(self) -> str: ...
    @property
    def steps(self) -> int: ...
    @property
    def steps_run(self) -> int: ...
    @property
    def lacking(self) -> tuple[str, ...]: ...


@attrs.frozen
class RuleRun:
    """One rule ID of one claimed profile: the scenarios citing it that ran, and those that did
    not, counted by reason (most first)."""

    profile: str
    rule: str
    run: int
    not_run: tuple[tuple[str, int], ...] = ()

    @property
    def untested(self) -> bool:
        """No scenario citing the rule ran."""
        return self.run == 0

    @property
    def scenarios_not_run(self) -> int:
        return sum(n for _, n in self.not_run)

    def line(self) -> str:
        """One line of the printed summary."""
        missed = self.scenarios_not_run
        head = f"{'none' if self.untested else self.run} of {self.run + missed} scenarios run"
        reasons = "; ".join(f"{reason}: {n} not run" for reason, n in self.not_run[:REASONS])
        if len(self.not_run) > REASONS:
            reasons += f"; {len(self.not_run) - REASONS} other reason(s)"
        return f"{printable(self.rule)} [{printable(self.profile)}]: {head}; {reasons}"

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "rule": self.rule, "run": self.run, "untested": self.untested,
                "not_run": dict(self.not_run)}


def printable(text: str) -> str:
    """A rule ID or profile name as printed: as it is when plain, else quoted and shortened (it
    comes from a scenario file, which anyone may write)."""
    return text if _PLAIN.fullmatch(text) else quoted(text, 40)


def scenario_profile_name(scenario: Mapping[str, Any]) -> str:
    """A scenario's profile as one name (a list of parts joined by '+'), the way claims name it."""
    profile = scenario.get("profile", "")
    if isinstance(profile, list):
        return "+".join(str(part) for part in profile)
    return str(profile)


def ran(outcome: Outcome) -> bool:
    """Whether the scenario was carried out to its last step (a failure counts: it was run)."""
    if outcome.status == "failed":
        return True
    return outcome.status in ("passed", "partial") and outcome.steps_run == outcome.steps


def not_run_reason(outcome: Outcome) -> str:
    """Why a scenario that did not run did not."""
    if outcome.status == "errored":
        return "errored"
    if outcome.lacking:
        return f"{', '.join(outcome.lacking)} not declared"
    return "unsupported answer"


def rule_runs(outcomes: Iterable[Outcome], profiles: Iterable[str]) -> tuple[RuleRun, ...]:
    """Every rule ID cited by a scenario of a claimed profile, by profile: untested ones first,
    then those with scenarios not run, then the rest, each by profile and rule ID."""
    claimed = frozenset(profiles)
    run: Counter[tuple[str, str]] = Counter()
    missed: dict[tuple[str, str], Counter[str]] = {}
    for o in outcomes:
        if o.profile not in claimed:
            continue
        for rule in dict.fromkeys(o.rules):
            key = (o.profile, rule)
            missed.setdefault(key, Counter())
            if ran(o):
                run[key] += 1
            else:
                missed[key][not_run_reason(o)] += 1
    out = [RuleRun(profile, rule, run[(profile, rule)],
                   tuple(sorted(reasons.items(), key=lambda item: (-item[1], item[0]))))
           for (profile, rule), reasons in missed.items()]
    return tuple(sorted(out, key=lambda r: (not r.untested, not r.not_run, r.profile, rule_key(r.rule))))


def rule_key(rule: str) -> tuple[str, int]:
    """Rule IDs in catalogue order within a prefix: WD4-2 before WD4-10."""
    prefix, _, number = rule.rpartition("-")
    return (prefix, int(number) if number.isdigit() else 0)


def summary_lines(runs: Iterable[RuleRun], profiles: Iterable[str], shown: int = SHOWN) -> list[str]:
    """The lines every run ends with: what the claimed profiles' rules left untested, at most
    ``shown`` rule IDs listed."""
    names = [printable(name) for name in sorted(profiles)]
    listed = [r for r in runs if r.not_run]
    untested = sum(1 for r in listed if r.untested)
    named = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    if not names:
        return ["untested: no profile claimed (the adapter declared none and started no scenario)"]
    if not listed:
        return [f"untested: nothing; every scenario of the claimed profile(s) {named} ran"]
    lines = [f"untested: {untested} rule ID(s) of the claimed profile(s) {named} had no scenario run, "
             f"{len(listed) - untested} more had some not run:"]
    lines += [f"  {r.line()}" for r in listed[:shown]]
    if len(listed) > shown:
        lines.append(f"  ... and {len(listed) - shown} more (--json lists every one)")
    return lines
