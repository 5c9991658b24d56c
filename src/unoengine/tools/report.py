"""The HTML report of ``simulate --report`` and ``tournament --report``: simulate.py's numbers
(win rates, their intervals, the game lengths its Tally counted) handed to render/report.py.

Nothing is computed twice: a seat's interval is the Wilson interval of :class:`simulate.Summary`,
a tournament standing's the duplicate-format interval of :class:`simulate.Standing`, and a
tournament's per-seat rates are :func:`simulate.summarize` over every seating's games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..render.report import Rate, RateChart, plural, report_html
from .simulate import FAILURES_KEPT, GameFailure, GameResult, Standing, Summary, summarize

WILSON = "The 95% intervals are Wilson score intervals of wins out of games."
DUPLICATE = ("Each deal is played in every seating (duplicate format); a bot's 95% interval comes from the "
             "spread of its per-deal scores (Wilson's with fewer than 30 deals), so luck of the deal mostly cancels.")


def seat_chart(summary: Summary, heading: str = "Win rate by seat") -> RateChart:
    chance = 1 / len(summary.seats)
    return RateChart(heading, tuple(
        Rate(f"seat {s.seat}: {s.bot}", s.wins, summary.games, s.win_rate, *s.interval, chance)
        for s in summary.seats), WILSON)


def bot_chart(summary: Summary) -> RateChart:
    chance = 1 / len(summary.seats)
    return RateChart("Win rate by bot, over every seat it held", tuple(
        Rate(name, wins, trials, rate, *ci, chance) for name, trials, wins, rate, ci in summary.bots), WILSON)


def simulate_report(summary: Summary, profile: str, seed: int, match: bool, seconds: float,
                    interrupted: bool = False, stopped: bool = False) -> str:
    """The report of a ``simulate`` run; ``stopped`` when a failed game stopped it."""
    unit = "match" if match else "game"
    charts = [seat_chart(summary)]
    if len(summary.bots) < len(summary.seats):
        charts.append(bot_chart(summary))
    facts = [("command", "unoengine simulate"), ("profile", profile), ("seed", str(seed)),
             (plural(unit), f"{summary.games:,}"),
             ("bots", ", ".join(s.bot for s in summary.seats)), ("seconds", f"{seconds:.1f}"),
             (f"mean moves per {unit}", f"{summary.mean_moves:.1f}")]
    notes = [f"Interrupted: the report of the {summary.games:,} {plural(unit)} played."] if interrupted else []
    if summary.failed:
        facts.append((f"failed {plural(unit)}", f"{summary.failed:,}"))
        notes += failure_notes(summary.failed, summary.failures, unit, stopped)
    return report_html(f"unoengine simulate: {profile}, {summary.games:,} {plural(unit)}", facts, charts,
                       summary.lengths, unit, notes)


def failure_notes(failed: int, failures: Sequence[GameFailure], unit: str, stopped: bool,
                  left_out: int | None = None) -> list[str]:
    """What a report says of failed games: that they are not counted (or that the first stopped
    the run), then one note each, at most the first few the run kept."""
    if stopped:
        head = (f"Stopped at a failed {unit}: only the {plural(unit)} before it are counted "
                "(--keep-going plays every one).")
    else:
        head = f"{failed:,} {plural(unit) if failed != 1 else unit} failed and are counted in no win rate."
    if left_out:
        head += (f" The standings leave out the {left_out:,} deal(s) they were dealt from, in every seating, "
                 "so each bot is ranked on the same deals.")
    more = [f"... and {failed - len(failures):,} more."] if failed > len(failures) else []
    return [head, *(f"Failed: {f.line()}" for f in failures), *more]


def tournament_report(standings: Sequence[Standing], results: Mapping[tuple[str, ...], Sequence[GameResult]],
                      profile: str, mode: str, games: int, seed: int, match: bool, stopped: bool = False) -> str:
    """The report of a ``tournament``: the standings, the seats over every seating, the lengths,
    and the failed games (``stopped`` when the first stopped it)."""
    unit = "match" if match else "game"
    ranked = RateChart("Standings: win rate by bot", tuple(
        Rate(f"{rank}. {s.bot}", s.wins, s.games, s.win_rate, *s.interval, s.expected)
        for rank, s in enumerate(standings, 1)), DUPLICATE)
    played = [r for seating in results.values() for r in seating]
    players = len(next(iter(results)))
    seats = summarize(played, [f"seat {i}" for i in range(players)])
    seat_rates = RateChart("Win rate by seat, over every seating", tuple(
        Rate(s.bot, s.wins, seats.games, s.win_rate, *s.interval, 1 / players) for s in seats.seats), WILSON)
    facts = [("command", "unoengine tournament"), ("mode", mode), ("profile", profile), ("seed", str(seed)),
             ("seatings", f"{len(results)} ({', '.join(' v '.join(k) for k in results)})"),
             (f"{plural(unit)} per seating", f"{games:,}"), (f"{plural(unit)} in all", f"{len(played):,}"),
             (f"mean moves per {unit}", f"{seats.mean_moves:.1f}")]
    failures = sorted((f for seating in results.values() for f in getattr(seating, "failures", ())),
                      key=lambda f: f.index)
    notes = []
    if failures:
        left_out = len({f.index for f in failures})
        facts.append((f"failed {plural(unit)}", f"{len(failures):,}"))
        notes = failure_notes(len(failures), failures[:FAILURES_KEPT], unit, stopped, left_out)
    return report_html(f"unoengine tournament: {', '.join(s.bot for s in standings)} on {profile}", facts,
                       [ranked, seat_rates], seats.lengths, unit, notes)
