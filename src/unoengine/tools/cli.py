"""Command line: ``unoengine simulate`` (the main job), ``tournament``, ``play``, ``replay``,
``profiles``, ``conformance``, ``mcp`` and ``demo``; ``unoengine COMMAND --help`` tells more.

Every bad input (an option, a profile, a file) is reported as one line on standard error,
``unoengine COMMAND: problem``, with exit code 2; never a traceback.

The ``demo`` bots are deliberately plain (play the first playable card, prefer keeping wilds,
call UNO, catch others, never challenge) so its output shows the rules at work; the bots of
``simulate`` and ``tournament`` live in unoengine.bots (docs/bots.md).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Final, NoReturn

from ..bots import bot_names
from ..bots.program import DEFAULT_TIMEOUT as DEFAULT_BOT_TIMEOUT
from ..engine.cards import IS_WILD
from ..engine.dealing import new_game
from ..engine.errors import UnoEngineError, one_line, printable, quoted
from ..engine.legality import legal_moves
from ..engine.limits import (
    MAX_PATH_CHARS,
    MAX_PLAYERS,
    MAX_SAVED_RECORDS,
    MAX_SCENARIO_FILES,
    MAX_STREAMED_GAMES,
    MAX_TAG_CHARS,
    MAX_TIMEOUT_SECONDS,
    is_timeout,
)
from ..engine.moves import Accept, CatchUno, Draw, Move, Pass, Play
from ..engine.profile import Profile
from ..engine.scoring import hand_points
from ..engine.state import GameState, Phase
from ..engine.transition import apply
from ..formats.composition import load_profile
from ..formats.install_hint import install_command
from ..formats.profile_file import profile_to_toml, shipped_overlays, shipped_profiles
from ..formats.record import GameRecord
from . import play as play_cli
from . import shutdown
from .options import SEED_RANGE, HelpFormatter, plural, seed
from .progress import Progress


def _pick(state: GameState, moves: list[Move]) -> Move:
    """A plain sensible choice: catch, then play (UNO called, wilds last), else draw/pass."""
    catches = [m for m in moves if isinstance(m, CatchUno)]
    if catches:
        return catches[0]
    own = [m for m in moves if m.player == state.current]
    plays = [m for m in own if isinstance(m, Play) and (m.uno or len(state.hands[m.player]) != 2)]
    if plays:
        hand = state.hands[state.current]
        # name the colour held most; play coloured cards before wilds
        counts = [sum(1 for c in hand if c < 52 and c // 13 == k) for k in range(4)]
        best = max(range(4), key=lambda k: counts[k])
        plays.sort(key=lambda m: (IS_WILD[m.card], m.color is not None and m.color != best))
        return plays[0]
    for kind in (Accept, Draw, Pass):
        for m in own:
            if isinstance(m, kind):
                return m
    return own[0] if own else moves[0]


def _describe(before: GameState, move: Move, after: GameState) -> str:
    text = f"{move!r:<28}"
    p = move.player
    if isinstance(move, Draw):
        text += f" draws, now holds {len(after.hands[p])}"
    elif isinstance(move, Play):
        text += f" -> top {after.top_card!r}, colour {'RYGB'[after.color]}"
    if after.uno_exposed >= 0:
        text += f"  [p{after.uno_exposed} forgot UNO]"
    return text


def demo(profile: str, players: int, seed: int, quiet: bool) -> int:
    state = new_game(load_profile(profile), players, seed)
    print(f"unoengine demo: profile {profile}, {players} players, seed {seed}")
    print(f"dealer p{state.dealer}; first card {state.top_card!r}; hands of "
          f"{state.profile.hand_size} dealt")
    steps = 0
    while not state.round_over:
        move = _pick(state, legal_moves(state))
        after = apply(state, move)
        if not quiet:
            print(f"{steps:4d} {_describe(state, move, after)}")
        state, steps = after, steps + 1
    result = state.match.last_round
    assert result is not None
    how = "blocked round, lowest hand" if result.blocked else "went out"
    print(f"round over after {plural(steps, 'move')}: p{result.winner} wins ({how})")
    for i, hand in enumerate(state.hands):
        print(f"  p{i}: {hand_points(state.profile, hand):4d} points left  {' '.join(map(repr, hand))}")
    print(f"scores: {list(state.scores)}" + ("  (match over)" if state.phase is Phase.MATCH_OVER else ""))
    return 0


def conformance(paths: Sequence[str], as_json: bool, verbose: bool, coverage: bool = False, *,
                engine_cmd: str | None = None, adapter_name: str | None = None, timeout: float = 10.0,
                export: str | None = None, strict: bool = False) -> int:
    """Run scenario files (or the shipped corpus) through an adapter and print a summary; 1 if
    any scenario fails or errors, or with ``strict`` if a rule ID of a claimed profile had no
    scenario run. With ``export``, write the files as a bundle instead."""
    from . import conformance as c

    if not is_timeout(timeout):  # refused even when no --engine-cmd would use it
        raise _ConformanceOptionsError(f"--timeout: expected seconds in (0, {MAX_TIMEOUT_SECONDS}], got {timeout!r}")
    files = _scenario_files(paths) if paths else c.shipped_corpus()
    if export is not None:
        manifest = c.export_bundle(files, Path(export))
        print(f"conformance: exported {manifest['scenarios']} scenarios ({manifest['steps']} steps) in "
              f"{len(files)} file(s) to {export}: corpus {manifest['corpus_version']}, protocol {manifest['protocol']}")
        return 0
    if engine_cmd is not None and adapter_name is not None:
        raise _ConformanceOptionsError("give --engine-cmd or --adapter, not both")
    scenarios = c.load_scenarios(files)
    adapter: Any
    if engine_cmd is not None:
        adapter = c.WireAdapter(engine_cmd, timeout=timeout)
    elif adapter_name is not None:
        adapter = c.load_adapter(adapter_name)
    else:
        adapter = c.EngineAdapter()
    try:
        report = c.run(scenarios, adapter)
    finally:
        if isinstance(adapter, c.WireAdapter):
            adapter.close()
    steps = sum(len(s["steps"]) for s in scenarios)
    if as_json:
        print(json.dumps({**_conformance_json(report, steps), **_untested_json(report), "stopped": report.stopped},
                         indent=2))
        return _conformance_exit(report, strict)
    for o in report.outcomes:  # every text from a scenario file or an adapter is printed escaped and cut
        if o.status in ("failed", "errored") or verbose:
            shown = f"{o.status.upper():11} {printable(o.scenario, MAX_TAG_CHARS)}  [{', '.join(o.rules)}]"
            if o.status in ("partial", "unsupported"):
                shown += f"  ({o.steps_run} of {o.steps} steps run)"
            print(printable(shown))
            error = [o.error, *o.traceback] if o.error else []
            for line in (*o.failures, *error, *(o.unsupported if verbose else ())):
                print(f"            {printable(line)}")
    if coverage:
        print("rule        scenarios  cited by events or refusals")
        for rule, (count, cited) in report.coverage().items():
            print(printable(f"{rule:11} {count:9d}  {'yes' if cited else '-'}"))  # a rule ID read from a file
    n = report.counts()
    run_steps = sum(o.steps_run for o in report.outcomes)
    print(
        f"conformance: {len(report.outcomes)} scenarios ({steps} steps, {run_steps} run) from {len(files)} file(s): "
        f"{n['passed']} passed, {n['failed']} failed, {n['partial']} partial, {n['unsupported']} unsupported, "
        f"{n['errored']} errored; "
        f"{len(report.rules_declared())} rule IDs cited, {len(report.rules_exercised())} cited by events or refusals"
    )
    _print_untested(report, strict)
    return _conformance_exit(report, strict)


def _print_untested(report: Any, strict: bool) -> None:
    """The end of every run: what the claimed profiles' rules left untested (docs/conformance.md)."""
    from .conformance.untested import summary_lines

    for line in summary_lines(report.rule_runs(), report.claimed_profiles()):
        print(line)
    untested = len(report.untested())
    if strict and untested:
        print(f"--strict: {untested} rule ID(s) of the claimed profile(s) had no scenario run: the run fails")


def _untested_json(report: Any) -> dict[str, Any]:
    runs = report.rule_runs()
    return {"claimed_profiles": sorted(report.claimed_profiles()), "untested": sum(1 for r in runs if r.untested),
            "rules_not_run": [r.to_json() for r in runs if r.not_run], "strict_ok": report.strict_ok}


def _conformance_exit(report: Any, strict: bool) -> int:
    if report.stopped:  # the scenarios so far are printed; why the rest did not run, in one line
        print(f"unoengine conformance: {report.stopped}", file=sys.stderr)
        return 2
    return 0 if (report.strict_ok if strict else report.ok) else 1


class _ConformanceOptionsError(UnoEngineError):
    """Options of ``unoengine conformance`` that do not go together."""


def _conformance_json(report: Any, steps: int) -> dict[str, Any]:
    """``conformance --json``: the counts by status, then each scenario that did not pass, by id."""
    by = {status: [o for o in report.outcomes if o.status == status] for status in report.counts()}
    return {
        "scenarios": len(report.outcomes), **report.counts(),
        "steps": steps, "steps_run": sum(o.steps_run for o in report.outcomes),
        "capabilities": sorted(report.capabilities),
        "rules_declared": sorted(report.rules_declared()), "rules_exercised": sorted(report.rules_exercised()),
        "coverage": {rule: {"scenarios": n, "cited": cited} for rule, (n, cited) in report.coverage().items()},
        "failures": {o.scenario: list(o.failures) for o in by["failed"]},
        "errors": {o.scenario: {"message": o.error, "traceback": list(o.traceback), "steps_run": o.steps_run}
                   for o in by["errored"]},
        "not_checked": {o.scenario: {"status": o.status, "steps_run": o.steps_run, "steps": o.steps,
                                     "unsupported": list(o.unsupported), "unchecked": list(o.unchecked)}
                        for o in (*by["partial"], *by["unsupported"])},
    }


CONNECT_TIMEOUT: Final = 10.0
"""Seconds ``--scheduler`` waits for the scheduler by default (``--connect-timeout``)."""


def simulate(profile: str, bots: list[str], games: int, seed: int, workers: int, match: bool,
             as_json: bool, progress: bool | Progress, max_moves: int | None = None, isolated: bool = False,
             scheduler: str | None = None, report: str | None = None, records: str | None = None,
             record_count: int = 10, connect_timeout: float = CONNECT_TIMEOUT, keep_going: bool = False,
             bot_timeout: float | None = None, backend: str = "reference") -> int:
    """Play games between bots and print the summary table (or JSON); on Ctrl-C, the summary of
    the games played so far (exit 130). ``report`` writes the HTML report there; ``records``
    saves the first ``record_count`` games' records into that folder (for ``unoengine replay``).

    A game a bot fails in stops the run: the summary of the games before it is printed (and the
    report and records written), then the failure as one line, exit 2. With ``keep_going``
    every game is played, the failed ones listed and left out of the summary, exit 1.
    ``bot_timeout``: seconds each program bot has for each exchange (``--bot-timeout``).
    ``backend``: the engine that plays the games (``--backend``); the records of ``records`` are
    played again on the reference engine, which checks a compiled run's games move for move."""
    from . import simulate as sim

    _check_bot_timeout(bot_timeout)
    # the run's own arguments first: a refused run (--games 0) leaves no --records folder behind
    sim.check_run(bots, games, seed, workers, max_moves, MAX_STREAMED_GAMES)
    outputs = [_Output(report, "--report")] if report else []
    if records is not None:
        _check_record_count(record_count)
        folder = _records_folder(records)
    started = time.perf_counter()
    reporter = _reporter(progress, "simulate")
    kept: list[sim.GameResult] = []  # the results of the games whose records are saved
    tally = sim.Tally(len(bots))  # counted as the games come: a run of any length keeps no results
    interrupted: KeyboardInterrupt | None = None  # Ctrl-C, SIGTERM or SIGHUP (tools/shutdown.py)
    stopped = False  # at a failed game, without keep_going
    try:
        with cluster_executor(scheduler, connect_timeout) as executor:
            for outcome in sim.iter_outcomes(profile, bots, games, seed, workers=workers, match=match,
                                             max_moves=max_moves, isolated=isolated, executor=executor,
                                             keep_going=keep_going, bot_timeout=bot_timeout,
                                             backend=backend):  # type: ignore[arg-type]  # checked there
                if isinstance(outcome, sim.GameFailure):
                    tally.fail(outcome)
                    stopped = not keep_going
                else:
                    tally.add(outcome)
                    if records is not None and outcome.index < record_count:
                        kept.append(outcome)
                done = tally.games + tally.failed
                if reporter is not None:
                    reporter(done, games)
    except KeyboardInterrupt as exc:
        interrupted = exc
    except (ValueError, sim.BotError) as exc:
        print(f"unoengine simulate: {one_line(exc)}", file=sys.stderr)
        return 2
    if reporter is not None:
        reporter.end()
    elapsed = time.perf_counter() - started
    summary = tally.summary(bots)
    if interrupted is not None:
        print(shutdown.line("unoengine simulate", interrupted,
                            f": the summary of the {tally.games:,} of {games:,} games played"), file=sys.stderr)
    if report:
        from .report import simulate_report

        outputs[0].write(simulate_report(summary, profile, seed, match, elapsed, interrupted is not None, stopped))
    if records is not None:
        _save_records(folder, load_profile(profile), bots, kept, match, max_moves, bot_timeout)
    if as_json:
        print(json.dumps(_simulate_json(summary, profile, seed, workers, match, elapsed), indent=2))
    else:
        _simulate_table(summary, bots, profile, seed, workers, match, elapsed)
    status = _failure_status("simulate", summary.failed, summary.failures, stopped)
    return status if interrupted is None else shutdown.stopped_by(interrupted).status


def _simulate_table(summary: Any, bots: Sequence[str], profile: str, seed: int, workers: int, match: bool,
                    elapsed: float) -> None:
    unit = "matches" if match else "games"
    failed = f", {summary.failed:,} more failed (not counted)" if summary.failed else ""
    print(f"{summary.games} {unit} of {profile}, seed {seed}, {workers} worker(s), {elapsed:.1f} s "
          f"({_rate(summary.games, elapsed)} {unit}/s){failed}")
    print(f"{'seat':>4}  {'bot':12} {'wins':>6} {'win rate':>9}  {'95% interval':15} {'mean points':>11}")
    for s in summary.seats:
        lo, hi = s.interval
        print(f"{s.seat:>4}  {s.bot:12} {s.wins:>6} {s.win_rate:>9.1%}  {lo:6.1%} - {hi:6.1%}  {s.mean_points:>11.1f}")
    if len(set(bots)) < len(bots):
        print("per bot (over every seat it held):")
        for name, trials, wins, rate, (lo, hi) in summary.bots:
            print(f"      {name:12} {wins:>6} {rate:>9.1%}  {lo:6.1%} - {hi:6.1%}  of {trials} seat-games")
    print(f"mean moves per {unit[:-1] if unit == 'games' else 'match'}: {summary.mean_moves:.1f}")
    if summary.penalties:
        print("penalty cards by rule: " + ", ".join(f"{_rule(r)} {t} ({g:.2f}/game)" for r, t, g in summary.penalties))
    for seat, bot, prompts, refused, fallbacks in summary.answers:
        print(f"text answers, seat {seat} ({bot}): {prompts:,} prompts, {refused:,} refused ({refused / prompts:.1%}), "
              f"{fallbacks:,} fallbacks ({fallbacks / prompts:.1%})")


SOME_FAILED: Final = 1
"""The exit status of a ``--keep-going`` run in which some games failed (after the table)."""


def _failure_status(command: str, failed: int, shown: Sequence[Any], stopped: bool) -> int:
    """Tell the failed games on stderr, after the table; the exit status. Stopped at the first
    failure (no ``--keep-going``): that game in one line, 2. With ``--keep-going``: one line per
    failure, at most simulate.FAILURES_KEPT, then how many there were, 1 (SOME_FAILED)."""
    sys.stdout.flush()  # the table first, even when both go to one pipe (2>&1 | less)
    if stopped:
        print(f"unoengine {command}: {shown[-1].line()} (stopped there: the games before it are counted above; "
              "--keep-going plays on)", file=sys.stderr)
        return 2
    if not failed:
        return 0
    for failure in shown:
        print(f"unoengine {command}: failed: {failure.line()}", file=sys.stderr)
    more = f" (the first {len(shown)} listed)" if failed > len(shown) else ""
    print(f"unoengine {command}: {failed:,} game(s) failed{more}; they are counted in no result above",
          file=sys.stderr)
    return SOME_FAILED


class _BotTimeoutError(UnoEngineError):
    """A ``--bot-timeout`` that is not a wait in seconds within (0, MAX_TIMEOUT_SECONDS]."""


def _check_bot_timeout(bot_timeout: float | None) -> None:
    if bot_timeout is not None and not is_timeout(bot_timeout):
        raise _BotTimeoutError(f"--bot-timeout: expected seconds in (0, {MAX_TIMEOUT_SECONDS}], got {bot_timeout!r}")


class ClusterError(UnoEngineError):
    """``--scheduler`` without the cluster extra, or a scheduler that cannot be reached."""


@contextlib.contextmanager
def cluster_executor(scheduler: str | None, connect_timeout: float = CONNECT_TIMEOUT) -> Iterator[Executor | None]:
    """None without ``--scheduler``; else a Dask cluster's ``concurrent.futures`` executor (the
    cluster extra), closed afterwards. Without Dask, or when the scheduler does not answer within
    ``connect_timeout`` seconds, a ClusterError (the first says how to install the extra here)."""
    if not is_timeout(connect_timeout):
        raise ClusterError(
            f"--connect-timeout: expected seconds in (0, {MAX_TIMEOUT_SECONDS}], got {connect_timeout!r}")
    if scheduler is None:
        yield None
        return
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask: {install_command('cluster')}") from None
    try:
        client = distributed.Client(scheduler, timeout=connect_timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"--scheduler {scheduler}: cannot reach it: {one_line(exc)}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()


def _r(x: float, places: int = 4) -> float:
    return round(x, places)


def _interval(pair: tuple[float, float]) -> dict[str, float]:
    return {"low": _r(pair[0]), "high": _r(pair[1])}


def _simulate_json(summary: Any, profile: str, seed: int, workers: int, match: bool, elapsed: float) -> dict[str, Any]:
    """One shape for ``simulate --json``: objects with named fields, figures rounded (docs/api.md)."""
    return {
        "command": "simulate", "profile": profile, "seed": seed, "workers": workers, "match": match,
        "games": summary.games, "seconds": _r(elapsed, 3),
        "seats": [{"seat": s.seat, "bot": s.bot, "wins": s.wins, "win_rate": _r(s.win_rate),
                   "interval": _interval(s.interval), "mean_points": _r(s.mean_points, 2)} for s in summary.seats],
        "bots": [{"bot": name, "seat_games": trials, "wins": wins, "win_rate": _r(rate), "interval": _interval(ci)}
                 for name, trials, wins, rate, ci in summary.bots],
        "mean_moves": _r(summary.mean_moves, 2),
        "penalties": [{"rule": rule, "name": RULE_NAMES.get(rule, ""), "cards": cards, "per_game": _r(per_game)}
                      for rule, cards, per_game in summary.penalties],
        "answers": [{"seat": seat, "bot": bot, "prompts": prompts, "refused": refused, "fallbacks": fallbacks}
                    for seat, bot, prompts, refused, fallbacks in summary.answers],
        "failed": summary.failed, "failures": [_failure_json(f) for f in summary.failures],
    }


def _failure_json(failure: Any) -> dict[str, Any]:
    """A failed game in ``--json``: its seed as a decimal string, like every 64-bit seed of a document."""
    return {"game": failure.index, "seed": str(failure.seed), "bots": list(failure.bots), "seat": failure.seat,
            "bot": failure.bot, "error": failure.error}


def profiles(name: str | None) -> int:
    """List the shipped profiles and overlays, or print one resolved as a flat TOML document."""
    if name is None:
        print("profiles: " + ", ".join(shipped_profiles()))
        print("overlays: " + ", ".join(shipped_overlays()))
        print("compose with '+': unoengine profiles classic-108+stacking+jump-in")
        return 0
    profile = load_profile(name)
    print(f"# fingerprint {profile.fingerprint}")
    print(profile_to_toml(profile), end="")
    return 0


def tournament(profile: str, bots: list[str], mode: str, games: int, seed: int, workers: int, match: bool,
               as_json: bool, max_moves: int | None = None, isolated: bool = False, progress: bool | Progress = False,
               scheduler: str | None = None, report_path: str | None = None,
               connect_timeout: float = CONNECT_TIMEOUT, keep_going: bool = False,
               bot_timeout: float | None = None, backend: str = "reference") -> int:
    """Rank bots over every seating of the mode; the table shows each bot's win rate and interval
    (and ``report_path`` gets the HTML report). A failed game stops it, or with ``keep_going`` is
    listed, as in :func:`simulate`; either way the standings leave out every deal with a failed
    game (simulate.standings)."""
    from . import simulate as sim

    _check_bot_timeout(bot_timeout)
    output = _Output(report_path, "--report") if report_path else None

    players = 2 if mode == "round-robin" else len(bots)
    report = _reporter(progress, "tournament")
    stopped = False
    try:
        with cluster_executor(scheduler, connect_timeout) as executor:
            standings, results = sim.tournament(profile, bots, games, seed, mode=mode, players=players,
                                                workers=workers, match=match, max_moves=max_moves,
                                                isolated=isolated, progress=report, executor=executor,
                                                keep_going=keep_going, bot_timeout=bot_timeout,
                                                backend=backend)  # type: ignore[arg-type]  # checked there
    except sim.GameFailedError as exc:  # the games before it are ranked all the same
        standings, results, stopped = exc.standings, exc.results, True
    except (ValueError, sim.BotError) as exc:
        print(f"unoengine tournament: {one_line(exc)}", file=sys.stderr)
        return 2
    if report is not None:
        report.end()
    failures = sim.failures_of(results)
    left_out = sim.left_out_deals(results)
    if output is not None:
        from .report import tournament_report

        output.write(tournament_report(standings, results, profile, mode, games, seed, match, stopped))
    if as_json:
        print(json.dumps({
            "command": "tournament", "mode": mode, "profile": profile, "games_per_seating": games, "seed": seed,
            "standings": [{"rank": rank, "bot": s.bot, "games": s.games, "wins": s.wins, "win_rate": _r(s.win_rate),
                           "interval": _interval(s.interval), "by_luck": _r(s.expected), "left_out": s.left_out}
                          for rank, s in enumerate(standings, 1)],
            "seatings": [{"bots": list(k), "winners": _winners(v)} for k, v in results.items()],
            "failed": len(failures), "left_out_deals": len(left_out),
            "failures": [_failure_json(f) for f in failures[:sim.FAILURES_KEPT]],
        }, indent=2))
    else:
        print(f"{mode} of {', '.join(bots)} on {profile}: {plural(len(results), 'seating')} x {plural(games, 'game')}")
        print(f"rank  {'bot':12} {'wins':>6} {'of':>6} {'win rate':>9}  {'95% interval':15} {'by luck':>7}")
        for rank, s in enumerate(standings, 1):
            lo, hi = s.interval
            print(f"{rank:>4}  {s.bot:12} {s.wins:>6} {s.games:>6} {s.win_rate:>9.1%}  {lo:6.1%} - {hi:6.1%}  "
                  f"{s.expected:>7.1%}")
        if left_out:
            print(f"{len(failures):,} game(s) failed: their {len(left_out):,} deal(s) are left out of every seating "
                  "(duplicate format: each bot is ranked on the same deals)")
    return _failure_status("tournament", len(failures), failures[:sim.FAILURES_KEPT], stopped)


def _winners(played: Any) -> list[int | None]:
    """A seating's winner of each game in game order, None (null) for a game that failed."""
    indices = [r.index for r in played] + [f.index for f in played.failures]
    winners: list[int | None] = [None] * (max(indices) + 1 if indices else 0)
    for r in played:
        winners[r.index] = r.winner
    return winners


class OutputError(UnoEngineError):
    """A file the command was asked to write that cannot be written."""


class _Output:
    """A file named by an option, checked before the work starts (its folder exists, it is not a
    folder) and written at the end."""

    def __init__(self, path: str, option: str) -> None:
        self.path, self.option = Path(path), option
        if "\0" in path or self.path.is_dir() or not self.path.parent.is_dir():
            raise OutputError(f"{option} {path}: not a file in an existing folder")

    def write(self, text: str) -> None:
        try:
            self.path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"{self.option} {self.path}: cannot write: {exc.strerror or exc}") from None


def _check_record_count(count: int) -> None:
    if type(count) is not int or not 1 <= count <= MAX_SAVED_RECORDS:
        raise OutputError(f"--record-count must be from 1 to {MAX_SAVED_RECORDS:,}, got {count}")


def _records_folder(path: str) -> Path:
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--records {path}: cannot make the folder: {exc.strerror or exc}") from None
    if not folder.is_dir():
        raise OutputError(f"--records {path}: not a folder")
    return folder


def _save_records(folder: Path, profile: Profile, bots: Sequence[str], kept: Sequence[Any], match: bool,
                  max_moves: int | None, bot_timeout: float | None = None) -> None:
    """Play each kept game again with its moves recorded, check it ends as counted, and save it."""
    from ..formats.serialize import dumps
    from ..formats.writing import UnwritableFileError, write_new
    from . import simulate as sim

    for counted in kept:
        record, again = sim.record_game(profile, bots, counted.seed, counted.index, match=match, max_moves=max_moves,
                                        bot_timeout=bot_timeout)
        if again != counted:
            raise OutputError(f"--records: game {counted.index} did not play the same again (a bot that is not "
                              "deterministic?); its record is not saved")
        try:  # never through a link planted in the folder (formats/writing.py)
            write_new(folder / f"game-{counted.index:06d}.json", dumps(record) + "\n")
        except UnwritableFileError as exc:
            raise OutputError(f"--records {exc}") from None
    print(f"saved {len(kept)} record(s) in {folder} (unoengine replay FILE --html OUT.html)", file=sys.stderr)


class _NotARecord(UnoEngineError):
    """A replay's input that is not a game record (or a saved game holding one)."""


def read_record(path: str) -> GameRecord:
    """The game record in a JSON file: a record document, or a saved game of ``unoengine play``."""
    from ..engine.limits import MAX_DOCUMENT_BYTES
    from ..formats.files import read_bounded
    from ..formats.serialize import from_json
    from ..formats.serialize.parsing import parse_json

    doc = parse_json(read_bounded(path, MAX_DOCUMENT_BYTES), path)
    if isinstance(doc, dict) and doc.get("unoengine") == play_cli.SAVE_KIND:
        doc = doc.get("record")
    loaded = from_json(doc, path)
    if not isinstance(loaded, GameRecord):
        raise _NotARecord(f"{path} is a {type(loaded).__name__} document, not a game record")
    return loaded


def replay(path: str, html: str, player: int | None, spectator: bool) -> int:
    """Write the replay page of the record in ``path`` (render/replay.py)."""
    from ..render.replay import replay_html

    output = _Output(html, "--html")
    record = read_record(path)
    seat = None if spectator else (0 if player is None else player)
    if seat is not None and not 0 <= seat < record.players:
        raise _NotARecord(f"--player must be a seat from 0 to {record.players - 1} of this record, got {seat}")
    page = replay_html(record, seat)
    output.write(page)
    who = "the spectator (every hand shown)" if seat is None else f"p{seat}"
    print(f"wrote {html}: {plural(len(record.moves), 'move')} seen by {who}, {len(page.encode()):,} bytes")
    return 0


def _reporter(progress: bool | Progress, label: str) -> Progress | None:
    """The progress callback of a run: the one given, a bar (True), or none (False)."""
    if isinstance(progress, Progress):
        return progress
    return Progress(terminal=True, label=label) if progress else None


def _progress_option(args: argparse.Namespace, label: str) -> bool | Progress:
    """``--progress`` a bar; ``--no-progress`` or ``--quiet`` nothing; by default a bar on a
    terminal and otherwise a line every few seconds, the first with an estimate (tools/progress.py)."""
    if args.quiet or args.progress is False:
        return False
    return Progress(terminal=bool(args.progress) or sys.stderr.isatty(), label=label)


def _rate(count: int, seconds: float) -> str:
    """Games per second with two significant figures at least (an ISMCTS run is under 1 a second)."""
    rate = count / seconds if seconds > 0 else 0.0
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.2g}"


RULE_NAMES = {
    "ACT-3": "Draw Two", "ACT-5": "Wild Draw Four", "ACT-9": "a Draw card played last",
    "HOUSE-1": "a stack of Draw cards", "HOUSE-7": "a first Wild Draw Four", "SETUP-7": "a first Draw Two",
    "UNO-2": "caught without UNO", "WD4-4": "a Wild Draw Four bluff caught", "WD4-5": "a challenge lost",
}
"""The penalty rules of a summary (simulate.PENALTY_RULES) in words, from RULES.md."""


def _rule(rule: str) -> str:
    return f"{rule} ({RULE_NAMES[rule]})" if rule in RULE_NAMES else rule


class _TooManyFiles(UnoEngineError):
    """More scenario files than one run reads (MAX_SCENARIO_FILES)."""


class _NoScenarioFiles(UnoEngineError):
    """A folder named on the command line that holds no scenario file."""


def _scenario_files(paths: Sequence[str]) -> list[Path]:
    """The JSON files named, with a folder standing for every ``*.json`` file under it (at least
    one); at most MAX_SCENARIO_FILES of them (a folder is listed no further)."""
    out: list[Path] = []
    for name in paths:
        path = _bundle_scenarios(Path(name)) if "\0" not in name else Path(name)
        if "\0" not in name and path.is_dir():
            found: list[Path] = []
            for file in path.rglob("*.json"):
                found.append(file)
                if len(out) + len(found) > MAX_SCENARIO_FILES:
                    break
            if not found:  # a wrong folder in CI must not pass as "0 passed, 0 failed"
                raise _NoScenarioFiles(f"{quoted(name, MAX_PATH_CHARS)} is a folder with no scenario files "
                                       "(*.json) in it")
            out.extend(sorted(found))
        else:
            out.append(path)
        if len(out) > MAX_SCENARIO_FILES:
            raise _TooManyFiles(f"more than {MAX_SCENARIO_FILES:,} scenario files; run them in parts")
    return out


def _bundle_scenarios(path: Path) -> Path:
    """A folder written by ``conformance --export`` stands for its ``scenarios/`` folder (the
    manifest, schema and needs files beside it are no scenario files); any other path for itself."""
    scenarios = path / "scenarios"
    return scenarios if (path / "manifest.json").is_file() and scenarios.is_dir() else path


DESCRIPTION = """A UNO rules engine on the command line: play many games between bots and show the
statistics (simulate, the main job), rank bots (tournament), play against bots (play), replay
a game in a browser (replay), list and show rule profiles (profiles), run rule-conformance
scenarios (conformance), serve games to language-model agents (mcp), or watch one readable round
(demo). Every bad input is one line on stderr and exit status 2. 'unoengine COMMAND --help' tells
more; docs/api.md has the whole reference."""


SCHEDULER_HELP = "play on a Dask cluster, e.g. tcp://HOST:8786 (needs the cluster extra; docs/bots.md)"


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options simulate and tournament share: where and how the games run."""
    parser.add_argument("--isolated", action="store_true",
                        help="run each bot in a process of its own that sees only its views (docs/security.md); "
                             "much slower (about 100 times for the shipped bots): for bots you do not trust")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar with the time left (default: a bar when stderr is a "
                             "terminal, else a line every few seconds with the time left)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr (as --no-progress)")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None, help=SCHEDULER_HELP)
    parser.add_argument("--connect-timeout", metavar="SECONDS", type=float, default=CONNECT_TIMEOUT,
                        help=f"how long --scheduler waits for the scheduler to answer (default {CONNECT_TIMEOUT:g})")
    parser.add_argument("--report", metavar="OUT.html", default=None,
                        help="also write an HTML report: win rates with 95%% intervals as charts, game lengths")
    parser.add_argument("--keep-going", action="store_true",
                        help="when a bot fails in a game (raises, breaks the protocol, times out, exits), list that "
                             "game with its seed and seat, count the others, play on, and exit 1; without it the "
                             "first failed game stops the run after the results so far are shown, exit 2")
    parser.add_argument("--backend", choices=("reference", "compiled"), default="reference",
                        help="the engine that plays the games: the pure reference (default) or the compiled one "
                             "(needs the fast extra); the same games and results for a seed (docs/bots.md)")
    parser.add_argument("--bot-timeout", metavar="SECONDS", type=float, default=None,
                        help=f"seconds each bot run as a program (program:..., --isolated) has to take each "
                             f"message and to answer, up to {MAX_TIMEOUT_SECONDS} (default {DEFAULT_BOT_TIMEOUT:g})")


def _bot_list(text: str) -> list[str]:
    """``--bots``: comma-separated names, spaces around them ignored."""
    return [name.strip() for name in text.split(",")]


class _SeatsError(UnoEngineError):
    """``--players`` and ``--bots`` that do not make a table."""


def _seats(bots: list[str], players: int | None) -> list[str]:
    """One bot per seat: with ``--players N`` the last bot named fills the seats left."""
    if players is None:
        return bots
    if not 2 <= players <= MAX_PLAYERS:
        raise _SeatsError(f"--players must be from 2 to {MAX_PLAYERS}, got {players}")
    if players < len(bots):
        raise _SeatsError(f"--players {players} is fewer seats than the {len(bots)} bots named in --bots")
    return bots + [bots[-1]] * (players - len(bots))


def _version() -> str:
    try:
        return importlib.metadata.version("unoengine")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line and exit status 2, like every other bad input
    (argparse itself prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} ('{self.prog} --help' lists the options)\n")


def main(argv: Sequence[str] | None = None) -> int:
    formatter = HelpFormatter
    parser = _Parser(prog="unoengine", description=DESCRIPTION, formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"unoengine {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bots_known = "known: " + ", ".join(bot_names()) + ", program:COMMAND (docs/protocol.md)"
    d = sub.add_parser("demo", help="play one readable round between scripted bots", formatter_class=formatter,
                       description="Play one round between plain scripted bots and print every move.")
    d.add_argument("--profile", default="classic-108", help=f"one of {', '.join(shipped_profiles())}, a "
                   "composition (gdj85+stacking) or a TOML path")
    d.add_argument("--players", type=int, default=4, help="players at the table (2 to 10)")
    d.add_argument("--seed", type=seed, default=7, help=f"the game's seed, {SEED_RANGE}")
    d.add_argument("--quiet", action="store_true", help="print only the result")
    pr = sub.add_parser("profiles", help="list the shipped profiles and overlays, or show one resolved in full",
                        formatter_class=formatter, description="List the profiles, or show one as flat TOML.")
    pr.add_argument("name", nargs="?", help="a profile, a composition (gdj85+stacking) or a path to show")
    t = sub.add_parser("tournament", help="rank several bots with 95%% intervals", formatter_class=formatter,
                       description="Rank bots over every seating of the mode, each deal played in every seating.")
    t.add_argument("--profile", default="classic-108", help="a profile, a composition or a TOML path")
    t.add_argument("--bots", default="heuristic,random", help=f"the bots, comma-separated ({bots_known})")
    t.add_argument("--mode", choices=("round-robin", "rotations"), default="round-robin",
                   help="round-robin: every pair heads-up, both seat orders; rotations: all at one table, "
                        "every rotation of the seats; either way each deal is played in every seating")
    t.add_argument("--games", type=int, default=200, help="games per seating")
    t.add_argument("--seed", type=seed, default=0,
                   help=f"the run's seed, {SEED_RANGE} (game i is dealt from it and i)")
    t.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    t.add_argument("--match", action="store_true", help="play whole matches to the target score, not single rounds")
    t.add_argument("--json", action="store_true", help="print the standings as JSON (docs/api.md)")
    t.add_argument("--max-moves", type=int, default=None, help="stop with an error if a game runs longer")
    _add_run_options(t)
    m = sub.add_parser("simulate", help="play many games between bots and show the statistics",
                       formatter_class=formatter,
                       description="Play many games between bots, one per seat, and show wins with 95% intervals.")
    m.add_argument("--profile", default="classic-108", help="a profile, a composition (gdj85+stacking) or a path")
    m.add_argument("--bots", default="heuristic,random,random,random",
                   help=f"one bot per seat, comma-separated ({bots_known})")
    m.add_argument("--players", type=int, default=None,
                   help="seats at the table; the last bot named fills the seats --bots leaves (default: one per bot)")
    m.add_argument("--games", type=int, default=1000, help="games to play")
    m.add_argument("--seed", type=seed, default=0,
                   help=f"the run's seed, {SEED_RANGE} (game i is dealt from it and i)")
    m.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    m.add_argument("--match", action="store_true", help="play whole matches to the target score, not single rounds")
    m.add_argument("--json", action="store_true", help="print the summary as JSON (docs/api.md)")
    m.add_argument("--max-moves", type=int, default=None,
                   help="stop with an error if a game runs longer (bots that never finish)")
    _add_run_options(m)
    m.add_argument("--records", metavar="DIR", default=None,
                   help="save the first games' records in DIR, for 'unoengine replay' (game-000000.json, ...)")
    m.add_argument("--record-count", type=int, default=10,
                   help=f"how many games --records saves (at most {MAX_SAVED_RECORDS:,})")
    pl = sub.add_parser("play", help="play against bots in the terminal (save and resume with 'save' / --resume)",
                        formatter_class=formatter, description="Play against bots in the terminal.")
    play_cli.add_arguments(pl)
    r = sub.add_parser("replay", help="write a recorded game as an HTML page that steps through it",
                       formatter_class=formatter,
                       description="Write one self-contained HTML page that steps through a recorded game move "
                                   "by move: the table, the move in notation, its events with their rule IDs.")
    r.add_argument("record", help="a game record JSON file (play --save-record, simulate --records) or a saved game")
    r.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")
    seen = r.add_mutually_exclusive_group()
    seen.add_argument("--player", type=int, default=None, help="seen by this seat, others' cards hidden (default 0)")
    seen.add_argument("--spectator", action="store_true", help="show every hand (the page says so)")
    c = sub.add_parser("conformance", help="run rule-conformance scenario files (default: the shipped corpus)",
                       formatter_class=formatter, description="Run rule-conformance scenario files.")
    c.add_argument("paths", nargs="*", help="scenario files or folders of them (default: the shipped corpus)")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    c.add_argument("--verbose", action="store_true", help="list passing scenarios too")
    c.add_argument("--coverage", action="store_true", help="list each rule ID: scenarios declaring it, cited or not")
    c.add_argument("--engine-cmd", metavar="COMMAND", default=None,
                   help="run the scenarios against a program speaking the conformance wire protocol, in any "
                        "language (split like a shell would, run without one; docs/conformance.md)")
    c.add_argument("--adapter", metavar="MODULE:CLASS", default=None,
                   help="run them against a Python adapter class, imported by that name (docs/security.md)")
    c.add_argument("--timeout", type=float, default=10.0, help="seconds an --engine-cmd program has for each answer")
    c.add_argument("--export", metavar="DIR", default=None,
                   help="write the scenario files as a standalone bundle (schema, manifest, README) into DIR")
    c.add_argument("--strict", action="store_true",
                   help="exit 1 also when a rule ID of a profile the adapter claims had no scenario run "
                        "(docs/conformance.md)")
    mc = sub.add_parser("mcp", help="serve games against the bots to an agent as a Model Context Protocol server",
                        formatter_class=formatter,
                        description="Serve UNO against the shipped bots as a Model Context Protocol server on "
                                    "stdin and stdout, for language-model agents (tools: start_game, get_view, "
                                    "legal_moves, play_move, get_result, end_game, list_games; docs/agents.md). "
                                    "Needs the mcp extra.")
    mc.add_argument("--profile", action="append", default=None, metavar="SPEC",
                    help="also offer this profile to clients, by its name: a composition or a TOML path, read "
                         "now (repeatable; clients name only shipped profiles and these, never a file)")
    mc.add_argument("--seed", type=seed, default=None,
                    help=f"where the deals of games started without a seed come from, {SEED_RANGE} "
                         "(default: the system's randomness)")
    args = parser.parse_args(argv)
    if argv is None:  # the command itself, not a call from Python code: it owns the signals
        shutdown.install(f"unoengine {args.command}", at_once=args.command == "mcp")
    try:
        return _run(args)
    except KeyboardInterrupt as exc:  # the commands that keep nothing of an interrupted run
        return shutdown.report(f"unoengine {args.command}", exc)
    except UnoEngineError as exc:  # bad input, wherever it was found: one line, exit 2
        print(f"unoengine {args.command}: {one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the output was piped into something that stopped reading (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.command == "mcp":
        from .agent_games import desk_for
        from .mcp_server import serve_stdio  # the mcp extra: McpMissingError (one line, exit 2) without it

        try:
            return serve_stdio(desk_for(args.profile or [], args.seed))
        except BaseException as exc:  # Ctrl-C, or an exception group holding it (the command itself
            # ends at once on a signal: tools/shutdown.py)
            interrupt = shutdown.interrupt_in(exc)
            if interrupt is None:
                raise
            return shutdown.report("unoengine mcp", interrupt)
    if args.command == "play":
        return play_cli.run(args)
    if args.command == "simulate":
        progress = _progress_option(args, "simulate")
        seats = _seats(_bot_list(args.bots), args.players)
        return simulate(args.profile, seats, args.games, args.seed, args.workers, args.match,
                        args.json, progress, args.max_moves, args.isolated, args.scheduler, args.report,
                        args.records, args.record_count, args.connect_timeout, args.keep_going,
                        args.bot_timeout, args.backend)
    if args.command == "replay":
        return replay(args.record, args.html, args.player, args.spectator)
    if args.command == "conformance":
        return conformance(args.paths, args.json, args.verbose, args.coverage, engine_cmd=args.engine_cmd,
                           adapter_name=args.adapter, timeout=args.timeout, export=args.export,
                           strict=args.strict)
    if args.command == "profiles":
        return profiles(args.name)
    if args.command == "tournament":
        progress = _progress_option(args, "tournament")
        return tournament(args.profile, _bot_list(args.bots), args.mode, args.games, args.seed, args.workers,
                          args.match, args.json, args.max_moves, args.isolated, progress, args.scheduler,
                          args.report, args.connect_timeout, args.keep_going, args.bot_timeout, args.backend)
    return demo(args.profile, args.players, args.seed, args.quiet)

