"""Running scenarios through an adapter, each one isolated, checking only what the adapter claims.

A scenario ends ``passed``, ``failed``, ``partial`` (nothing failed, but some steps or keys
were not checked: an unclaimed capability, or :class:`~.adapter.Unsupported` raised at a
step), ``unsupported`` (nothing could be checked) or ``errored`` (an adapter call raised
anything else: its message and a short traceback are kept, and the run goes on).
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from ...engine.errors import UnoEngineError, one_line, printable, shown
from ...engine.limits import MAX_PLAYERS, MAX_SHOWN_CHARS
from ...engine.moves import Play
from ...formats.notation import format_move, parse_move
from .adapter import Adapter, AdapterFailure, EngineAdapter, Rejected, Unsupported
from .capabilities import CAPABILITIES, claimed_by, claimed_profiles, with_implied
from .compare import Tally, check_events, check_legal, check_observed, check_rejection, said
from .needs import ScenarioNeeds, StepNeeds, scenario_needs
from .scenarios import ScenarioFileError
from .untested import RuleRun, rule_key, rule_runs, scenario_profile_name

STATUSES: Final = ("passed", "failed", "partial", "unsupported", "errored")
TRACEBACK_FRAMES: Final = 4
"""How many of the innermost frames an errored scenario keeps."""


@attrs.frozen
class Outcome:
    """The result of one scenario: ``status`` is one of :data:`STATUSES`."""

    scenario: str
    rules: tuple[str, ...]
    status: str
    failures: tuple[str, ...] = ()
    rules_seen: tuple[str, ...] = ()
    """Rule IDs cited by the events of the moves played and by the refusals (clause coverage)."""
    steps: int = 0
    steps_run: int = 0
    """How many steps were played (or, for an implied decision, checked) before the scenario ended."""
    unsupported: tuple[str, ...] = ()
    """What was not checked, each with the capability it needed or the adapter's reason."""
    error: str = ""
    traceback: tuple[str, ...] = ()
    """For an errored scenario: the innermost frames, ``file:line in function``."""
    profile: str = ""
    """The scenario's profile as one name (``classic-108+stacking``)."""
    lacking: tuple[str, ...] = ()
    """The capabilities not declared that kept the scenario from its last step (its set-up's or
    a step's move), or, when nothing could be checked, those its checks needed."""
    started: bool = False
    """Whether the adapter's ``start`` took the scenario (made a game, or refused the position)."""
    unchecked: tuple[str, ...] = ()
    """The capabilities not declared that the parts left unchecked needed (a partial's events,
    rule citations or reasons, say): what the adapter would declare to have them checked."""


def _summary_of(exc: BaseException) -> tuple[str, tuple[str, ...]]:
    """The error's one line and its innermost frames, then a program's own traceback lines, each
    escaped and cut (what a program sent is shown, never sent on to the terminal as it is)."""
    frames = traceback.extract_tb(exc.__traceback__)[-TRACEBACK_FRAMES:]
    remote = getattr(exc, "remote_traceback", ())
    remote_lines = [printable(line, MAX_SHOWN_CHARS) if isinstance(line, str) else shown(line)
                    for line in list(remote)[:TRACEBACK_FRAMES * 2]]
    return (f"{type(exc).__name__}: {one_line(exc)}",
            tuple(printable(f"{f.filename}:{f.lineno} in {f.name}", MAX_SHOWN_CHARS) for f in frames)
            + tuple(remote_lines))


class _Stop(Exception):
    """The scenario ends here (the reason is already recorded)."""


class _Errored(Exception):
    def __init__(self, where: str, exc: BaseException) -> None:
        super().__init__(where)
        self.where = where
        self.cause = exc


def _call(where: str, fn: Any, *args: Any) -> Any:
    """One adapter call: Rejected and Unsupported go through, anything else marks the scenario errored."""
    try:
        return fn(*args)
    except (Rejected, Unsupported):
        raise
    except Exception as exc:
        raise _Errored(where, exc) from exc


def run_scenario(scenario: Mapping[str, Any], adapter: Adapter, claimed: frozenset[str] | None = None,
                 needs: ScenarioNeeds | None = None) -> Outcome:
    """Run one scenario step by step; every mismatch of every step is recorded, and every part
    the adapter cannot check is recorded as such."""
    claimed = claimed_by(adapter) if claimed is None else with_implied(claimed)
    if needs is None:
        needs = scenario_needs(scenario, reference=claimed != CAPABILITIES)
    sid, rules, steps = scenario["id"], tuple(scenario["rules"]), scenario["steps"]
    profile = scenario_profile_name(scenario)
    tally = Tally(claimed)
    seen: set[str] = set()
    stopped_by: set[str] = set()  # the capabilities a step not run needed
    started = False

    def outcome(status: str | None = None, error: BaseException | None = None, where: str = "",
                done: int = 0) -> Outcome:
        message, frames = "", tuple[str, ...]()
        if error is not None:
            message, frames = _summary_of(error)
            message = f"{where}: {message}" if where else message
        if status is None:
            status = ("failed" if tally.failures else "unsupported" if tally.checks == 0
                      else "partial" if tally.unsupported or done < len(steps) else "passed")
        lacking = stopped_by or (tally.lacked if status == "unsupported" and done == len(steps) else set())
        return Outcome(sid, rules, status, tuple(tally.failures), tuple(sorted(seen - {""})), len(steps), done,
                       tuple(tally.unsupported), message, frames, profile, tuple(sorted(lacking)), started,
                       tuple(sorted(tally.lacked)))

    missing = needs.setup - claimed
    if missing:
        tally.skip("set-up", "the scenario", missing)
        stopped_by.update(missing)
        return outcome("unsupported")
    try:
        game = _call("start", adapter.start, scenario)
    except Unsupported as exc:
        tally.unsupported.append(f"set-up: unsupported by the adapter: {one_line(exc) or 'no reason given'}")
        return outcome("unsupported")
    except Rejected as exc:
        return attrs.evolve(outcome_failed(sid, rules, len(steps), f"set-up refused: {said(str(exc))}"),
                            profile=profile, started=True)
    except _Errored as exc:
        if isinstance(exc.cause, UnoEngineError) and not isinstance(exc.cause, AdapterFailure):
            # a set-up no game can have: the file's fault
            return attrs.evolve(outcome_failed(sid, rules, len(steps), f"set-up refused: "
                                               f"{type(exc.cause).__name__}: {one_line(exc.cause)}"),
                                profile=profile)
        return outcome("errored", exc.cause, "start")
    started = True
    try:
        return _run_steps(scenario, adapter, game, tally, needs, seen, outcome, stopped_by)
    finally:
        finish = getattr(adapter, "finish", None)
        if callable(finish):
            with contextlib.suppress(Exception):  # the result stands; a broken program shows on the next one
                finish(game)


def _run_steps(scenario: Mapping[str, Any], adapter: Adapter, game: Any, tally: Tally, needs: ScenarioNeeds,
               seen: set[str], outcome: Callable[..., Outcome], stopped_by: set[str]) -> Outcome:
    steps = scenario["steps"]
    claimed = tally.claimed
    done = 0
    last_events: list[dict[str, Any]] = []
    for i, step in enumerate(steps):
        where = f"step {i} ({step['move']})"
        step_needs = needs.steps[i]
        try:
            if step_needs.implied and step_needs.implied not in claimed:
                _check_state(tally, adapter, game, step["expect"], last_events, step_needs, where)
            else:
                lacking = step_needs.move - claimed
                if lacking:
                    tally.unsupported.append(f"{where}: not run, nor the {len(steps) - i - 1} step(s) after it "
                                             f"(needs {', '.join(sorted(lacking))})")
                    stopped_by.update(lacking)
                    break
                game, last_events = _play_step(tally, adapter, game, step, step_needs, where, seen)
            done += 1
        except Unsupported as exc:
            tally.unsupported.append(f"{where}: unsupported by the adapter: {one_line(exc) or 'no reason given'}"
                                     f"; {len(steps) - i - 1} later step(s) not run")
            break
        except _Errored as exc:
            return outcome("errored", exc.cause, f"{where}, {exc.where}", done)
    return outcome(done=done)


def outcome_failed(sid: str, rules: tuple[str, ...], steps: int, failure: str) -> Outcome:
    return Outcome(sid, rules, "failed", (failure,), steps=steps)


def _move_to_send(move: str, claimed: frozenset[str]) -> str:
    """The move as the adapter gets it: without ``uno-call``, the UNO flag is left off."""
    parsed = parse_move(move)
    if "uno-call" in claimed or not isinstance(parsed, Play) or not parsed.uno:
        return move
    return format_move(attrs.evolve(parsed, uno=False))


def _play_step(tally: Tally, adapter: Adapter, game: Any, step: Mapping[str, Any], needs: StepNeeds, where: str,
               seen: set[str]) -> tuple[Any, list[dict[str, Any]]]:
    expect = step["expect"]
    before = _call("observe", adapter.observe, game)
    try:
        result = _call("play", adapter.play, game, _move_to_send(step["move"], tally.claimed))
    except Rejected as refusal:
        seen.add(refusal.rule)
        check_rejection(tally, expect, refusal, where)
        after = _call("observe", adapter.observe, game)
        tally.check(after == before, f"{where}: a refused move changed the game")
        check_observed(tally, expect, after, needs, where)
        return game, []
    if not (isinstance(result, tuple | list) and len(result) == 2 and isinstance(result[1], list)):
        raise _Errored("play", TypeError(f"play must return (game, events), got {type(result).__name__}"))
    game, events = result
    seen.update(e.get("rule", "") for e in events if isinstance(e, dict) and isinstance(e.get("rule", ""), str))
    if "rejected" in expect:
        tally.check(False, f"{where}: accepted, expected a refusal citing {expect['rejected']['rule']}")
        return game, events
    _check_state(tally, adapter, game, expect, events, needs, where)
    return game, events


def _check_state(tally: Tally, adapter: Adapter, game: Any, expect: Mapping[str, Any], events: list[dict[str, Any]],
                 needs: StepNeeds, where: str) -> None:
    if "rejected" in expect:  # an implied decision the scenario expects refused: not one this engine made
        tally.skip(where, "rejected", [needs.implied or "challenge"])
    seen = _call("observe", adapter.observe, game)
    if not isinstance(seen, dict):
        raise _Errored("observe", TypeError(f"observe must return a dict, got {type(seen).__name__}"))
    check_observed(tally, expect, seen, needs, where)
    if "events" in expect and tally.usable("events", needs, where):
        check_events(tally, expect["events"], events, where)
    if any(k in expect for k in ("legal", "legal_includes", "legal_excludes")):
        sizes = seen.get("hand_sizes")
        # Asked seat by seat: an adapter claiming more seats than a game can have (5,000 hand
        # sizes, each seat listing 5,000 moves) would make this quadratic, so it is asked of none.
        players = len(sizes) if isinstance(sizes, list) and len(sizes) <= MAX_PLAYERS else 0
        check_legal(tally, expect, lambda seat: _call("legal", adapter.legal, game, seat), players, needs, where)


@attrs.frozen
class Report:
    """The outcomes of a run, with the counts a summary needs."""

    outcomes: tuple[Outcome, ...]
    capabilities: frozenset[str] = CAPABILITIES
    """What the adapter claimed (with the capabilities those include)."""
    profiles: frozenset[str] | None = None
    """The profiles the adapter declared (its ``profiles``); None when it declared none."""
    stopped: str = ""
    """Why the run stopped before its last scenario (an adapter program that claimed other
    capabilities when started again), with how many scenarios ran; empty for a whole run."""

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        """Nothing failed, nothing errored and the run was not stopped (partial and unsupported
        scenarios do not fail a run)."""
        return self.count("failed") == 0 and self.count("errored") == 0 and not self.stopped

    def counts(self) -> dict[str, int]:
        return {status: self.count(status) for status in STATUSES}

    def claimed_profiles(self) -> frozenset[str]:
        """The profiles the adapter declared, or else those it started a scenario of."""
        if self.profiles is not None:
            return self.profiles
        return frozenset(o.profile for o in self.outcomes if o.started)

    def rule_runs(self) -> tuple[RuleRun, ...]:
        """For each rule ID of each claimed profile, the scenarios run and not run, and why
        (:mod:`.untested`); the untested ones first."""
        return rule_runs(self.outcomes, self.claimed_profiles())

    def untested(self) -> tuple[RuleRun, ...]:
        """The rule IDs of the claimed profiles that no scenario ran."""
        return tuple(r for r in self.rule_runs() if r.untested)

    @property
    def strict_ok(self) -> bool:
        """``ok``, and every rule ID of every claimed profile had a scenario run (``--strict``)."""
        return self.ok and not self.untested()

    def rules_declared(self) -> set[str]:
        return {r for o in self.outcomes for r in o.rules}

    def rules_exercised(self) -> set[str]:
        """Rule IDs cited by the events and refusals of passing scenarios."""
        return {r for o in self.outcomes if o.status == "passed" for r in o.rules_seen}

    def coverage(self) -> dict[str, tuple[int, bool]]:
        """For each rule ID: how many passing scenarios declare it, and whether events or refusals cited it."""
        exercised = self.rules_exercised()
        declared: dict[str, int] = {}
        for o in self.outcomes:
            if o.status == "passed":
                for r in o.rules:
                    declared[r] = declared.get(r, 0) + 1
        return {r: (declared.get(r, 0), r in exercised) for r in sorted(set(declared) | exercised, key=rule_key)}


def run(scenarios: Iterable[Mapping[str, Any]], adapter: Adapter | None = None, *,
        needs: Sequence[ScenarioNeeds] | None = None) -> Report:
    """Run every scenario with ``adapter`` (this engine's by default), each one on its own: an
    exception from the adapter makes that scenario errored and the run goes on, unless the
    adapter says no more may run (a program that claimed other capabilities when started again:
    the report keeps the scenarios so far and says why in ``stopped``). ``needs``, one
    per scenario (:func:`~.needs.scenario_needs`), saves working them out again on a second run.
    An empty list of scenarios is refused (:class:`~.scenarios.ScenarioFileError`)."""
    chosen = adapter if adapter is not None else EngineAdapter()
    claimed = claimed_by(chosen)
    listed = list(scenarios)
    if not listed:
        raise ScenarioFileError("run: no scenarios to run; a run of none would pass having checked nothing")
    if needs is not None and len(needs) != len(listed):
        raise ValueError(f"run: needs: {len(needs)} given for {len(listed)} scenarios")
    outcomes: list[Outcome] = []
    stopped = ""
    for i, s in enumerate(listed):
        outcomes.append(run_scenario(s, chosen, claimed, needs[i] if needs is not None else None))
        reason = getattr(chosen, "stop_reason", "")  # a WireAdapter whose program changed its claims
        if isinstance(reason, str) and reason:
            stopped = f"{reason}: the run stopped after {i + 1} of {len(listed)} scenarios"
            break
    return Report(tuple(outcomes), claimed, claimed_profiles(chosen), stopped)
