"""The report of a run as one self-contained HTML page: win rates with their 95% intervals as
SVG charts (and as numbers in tables), and the distribution of game lengths as a histogram.

The page draws numbers it is given (:class:`Rate` rows, a length distribution) and computes no
statistics: the command line passes the win rates and intervals that tools/simulate.py worked
out (Wilson intervals per seat, duplicate-format intervals for tournament standings). The charts
are hand-written SVG, standard library only, so the core install stays ``attrs`` alone and the
report looks the same wherever it is opened (docs/rendering.md says why not matplotlib).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Final

import attrs

from ..engine.errors import UnoEngineError, shown


class ReportError(UnoEngineError):
    """Numbers a report cannot draw (a rate outside 0..1, a negative count)."""


def _check_fraction(name: str, value: object) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
        raise ReportError(f"{name} must be a number from 0 to 1, got {shown(value)}")
    return float(value)


@attrs.frozen
class Rate:
    """One bar: a win rate, its 95% interval, and the rate luck alone would give (or None)."""

    label: str
    wins: int
    trials: int
    rate: float
    low: float
    high: float
    chance: float | None = None

    def __attrs_post_init__(self) -> None:
        for name in ("rate", "low", "high"):
            _check_fraction(f"{self.label}: {name}", getattr(self, name))
        if self.chance is not None:
            _check_fraction(f"{self.label}: chance", self.chance)
        if not self.low - 1e-9 <= self.rate <= self.high + 1e-9:  # rounding of the two ways of counting
            raise ReportError(f"{self.label}: the interval {self.low:.4f}..{self.high:.4f} does not hold "
                              f"the rate {self.rate:.4f}")


@attrs.frozen
class RateChart:
    """A chart of win rates under a heading, with a sentence saying what the intervals are."""

    heading: str
    rates: tuple[Rate, ...]
    note: str = ""


BAR: Final = "#379711"
WHISKER: Final = "#1b1b1b"
LUCK: Final = "#b00020"
LABEL_W: Final = 190
PLOT_W: Final = 460
ROW_H: Final = 30


def plural(unit: str) -> str:
    """``game`` -> ``games``, ``match`` -> ``matches``."""
    return unit + ("es" if unit.endswith(("ch", "s")) else "s")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def rates_svg(chart: RateChart) -> str:
    """Horizontal bars of the win rates, each with its 95% interval as a whisker and the rate by
    luck as a red tick; the numbers are written beside each bar too."""
    top, rows = 26, len(chart.rates)
    height = top + rows * ROW_H + 30
    width = LABEL_W + PLOT_W + 190
    x0 = LABEL_W

    def x(v: float) -> float:
        return x0 + PLOT_W * v

    parts = [f'<rect width="{width}" height="{height}" fill="#fff"/>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" y2="{top + rows * ROW_H}" '
                     f'stroke="#ccc"/><text x="{x(tick):.1f}" y="{top + rows * ROW_H + 16}" font-size="11" '
                     f'text-anchor="middle" fill="#555">{tick:.0%}</text>')
    for i, r in enumerate(chart.rates):
        y = top + i * ROW_H
        mid = y + ROW_H / 2
        parts.append(f'<g class="rate" data-label="{escape(r.label)}" data-rate="{r.rate:.6f}" '
                     f'data-low="{r.low:.6f}" data-high="{r.high:.6f}">'
                     f'<title>{escape(r.label)}: {_pct(r.rate)} won ({r.wins:,} of {r.trials:,}), 95% interval '
                     f'{_pct(r.low)} to {_pct(r.high)}</title>'
                     f'<text x="{x0 - 8}" y="{mid + 4:.1f}" font-size="13" text-anchor="end">{escape(r.label)}</text>'
                     f'<rect class="bar" x="{x0}" y="{y + 6}" width="{PLOT_W * r.rate:.1f}" height="{ROW_H - 12}" '
                     f'fill="{BAR}" opacity="0.75"/>'
                     f'<line class="interval" x1="{x(r.low):.1f}" y1="{mid:.1f}" x2="{x(r.high):.1f}" y2="{mid:.1f}" '
                     f'stroke="{WHISKER}" stroke-width="2"/>'
                     f'<line x1="{x(r.low):.1f}" y1="{mid - 6:.1f}" x2="{x(r.low):.1f}" y2="{mid + 6:.1f}" '
                     f'stroke="{WHISKER}" stroke-width="2"/>'
                     f'<line x1="{x(r.high):.1f}" y1="{mid - 6:.1f}" x2="{x(r.high):.1f}" y2="{mid + 6:.1f}" '
                     f'stroke="{WHISKER}" stroke-width="2"/>')
        if r.chance is not None:
            parts.append(f'<line class="luck" x1="{x(r.chance):.1f}" y1="{y + 2}" x2="{x(r.chance):.1f}" '
                         f'y2="{y + ROW_H - 2}" stroke="{LUCK}" stroke-width="2" stroke-dasharray="3 2"/>')
        parts.append(f'<text x="{x0 + PLOT_W + 10}" y="{mid + 4:.1f}" font-size="12">{_pct(r.rate)} '
                     f'({_pct(r.low)} \u2013 {_pct(r.high)})</text></g>')
    legend = (f'<text x="{x0}" y="16" font-size="11" fill="#555">bar: win rate; black whisker: 95% interval'
              + (f'; <tspan fill="{LUCK}">red dashes: the rate by luck alone</tspan>'
                 if any(r.chance is not None for r in chart.rates) else "") + "</text>")
    summary = "; ".join(f"{r.label} {_pct(r.rate)} ({_pct(r.low)} to {_pct(r.high)})" for r in chart.rates)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rates" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" font-family="sans-serif"><title>{escape(chart.heading)}: {escape(summary)}'
            f'</title>{"".join(parts)}{legend}</svg>')


def _bin_width(lo: int, hi: int, most: int = 40) -> int:
    """A round bin width (1, 2, 5, 10, 20, 50, ...) giving at most ``most`` bins over lo..hi."""
    span = hi - lo + 1
    width = 1
    while math.ceil(span / width) > most:
        for factor in (2, 2.5, 2):
            width = int(width * factor)
            if math.ceil(span / width) <= most:
                break
    return width


def _nice_step(rough: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... at least ``rough``: the axis ticks' spacing."""
    step = 1
    while step < rough:
        for factor in (2, 2.5, 2):
            step = int(step * factor)
            if step >= rough:
                break
    return step


def _quantile(lengths: Sequence[tuple[int, int]], q: float) -> int:
    total = sum(n for _, n in lengths)
    seen = 0
    for moves, n in lengths:
        seen += n
        if seen >= q * total:
            return moves
    return lengths[-1][0]


def length_facts(lengths: Sequence[tuple[int, int]]) -> list[tuple[str, str]]:
    """The distribution in words: games, shortest, 10th percentile, median, 90th, longest."""
    games = sum(n for _, n in lengths)
    return [("games", f"{games:,}"), ("shortest", str(lengths[0][0])), ("10th percentile", str(_quantile(lengths, .1))),
            ("median", str(_quantile(lengths, .5))), ("90th percentile", str(_quantile(lengths, .9))),
            ("longest", str(lengths[-1][0]))]


def lengths_svg(lengths: Sequence[tuple[int, int]], unit: str = "game") -> str:
    """A histogram of game lengths from (moves, games) pairs, shortest first."""
    checked = _check_lengths(lengths)
    lo, hi = checked[0][0], checked[-1][0]
    width = _bin_width(lo, hi)
    start = lo - lo % width
    bins = [0] * ((hi - start) // width + 1)
    for moves, n in checked:
        bins[(moves - start) // width] += n
    step = _nice_step(max(bins) / 4)
    peak = step * math.ceil(max(bins) / step)
    plot_w, plot_h, left, top = 620, 200, 56, 14
    bar_w = plot_w / len(bins)
    parts = [f'<rect width="{left + plot_w + 20}" height="{top + plot_h + 48}" fill="#fff"/>']
    for k in range(round(peak / step) + 1):
        value = step * k
        y = top + plot_h - plot_h * value / peak
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#eee"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" fill="#555">'
                     f'{value:,.0f}</text>')
    label_every = max(1, math.ceil(len(bins) / 10))
    for i, count in enumerate(bins):
        a = start + i * width
        h = plot_h * count / peak
        x = left + i * bar_w
        span = f"{a}" if width == 1 else f"{a}\u2013{a + width - 1}"
        parts.append(f'<rect class="bin" data-from="{a}" data-count="{count}" x="{x + 0.5:.1f}" '
                     f'y="{top + plot_h - h:.1f}" width="{max(bar_w - 1, 0.5):.1f}" height="{h:.1f}" fill="#0956bf">'
                     f'<title>{span} moves: {count:,} {plural(unit)}</title></rect>')
        if i % label_every == 0:
            parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 14}" font-size="11" fill="#555">{a}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 34}" font-size="12" text-anchor="middle">'
                 f'moves per {unit} (bins of {width})</text>')
    facts = ", ".join(f"{k} {v}" for k, v in length_facts(checked))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="lengths" viewBox="0 0 {left + plot_w + 20} '
            f'{top + plot_h + 48}" width="{left + plot_w + 20}" height="{top + plot_h + 48}" role="img" '
            f'font-family="sans-serif"><title>Moves per {unit}: {escape(facts)}</title>{"".join(parts)}</svg>')


def _check_lengths(lengths: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for pair in lengths:
        if (not isinstance(pair, tuple) or len(pair) != 2 or not all(type(v) is int and v >= 0 for v in pair)):
            raise ReportError(f"lengths must be (moves, games) pairs of counts, got {shown(pair)}")
        out.append(pair)
    if not out or not any(n for _, n in out):
        raise ReportError("lengths: no games to draw")
    return sorted(out)


def _rate_table(chart: RateChart) -> str:
    rows = "".join(
        f"<tr><th scope=\"row\">{escape(r.label)}</th><td>{r.wins:,}</td><td>{r.trials:,}</td><td>{_pct(r.rate)}</td>"
        f"<td>{_pct(r.low)} \u2013 {_pct(r.high)}</td><td>{'' if r.chance is None else _pct(r.chance)}</td></tr>"
        for r in chart.rates)
    return ("<table><thead><tr><th></th><th>wins</th><th>of</th><th>win rate</th><th>95% interval</th>"
            f"<th>by luck</th></tr></thead><tbody>{rows}</tbody></table>")


def report_html(title: str, facts: Sequence[tuple[str, str]], charts: Sequence[RateChart],
                lengths: Sequence[tuple[int, int]], unit: str = "game",
                notes: Sequence[str] = ()) -> str:
    """The whole report: the run's facts, each chart with its table, and the length histogram."""
    sections = []
    for chart in charts:
        note = f"<p>{escape(chart.note)}</p>" if chart.note else ""
        sections.append(f"<section><h2>{escape(chart.heading)}</h2>{note}<figure>{rates_svg(chart)}</figure>"
                        f"{_rate_table(chart)}</section>")
    if any(n for _, n in lengths):
        length_rows = "".join(f"<tr><th scope=\"row\">{escape(k)}</th><td>{escape(v)}</td></tr>"
                              for k, v in length_facts(_check_lengths(lengths)))
        sections.append(f"<section><h2>Moves per {escape(unit)}</h2><figure>{lengths_svg(lengths, unit)}</figure>"
                        f"<table><tbody>{length_rows}</tbody></table></section>")
    else:
        sections.append(f"<section><h2>Moves per {escape(unit)}</h2>"
                        f"<p>No {escape(plural(unit))} were played.</p></section>")
    fact_list = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts)
    note_list = "".join(f"<p>{escape(n)}</p>" for n in notes)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
            f"<header><h1>{escape(title)}</h1><dl>{fact_list}</dl></header><main>{note_list}"
            f'{"".join(sections)}</main></body></html>\n')


_STYLE: Final = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#1b1b1b}
header{padding:10px 18px;background:#0f5132;color:#fff}h1{font-size:20px;margin:0 0 6px}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13px}
dt{font-weight:bold}dd{margin:0}main{padding:4px 18px 24px;max-width:900px}
h2{font-size:16px;margin:18px 0 6px}figure{margin:0}svg{max-width:100%;height:auto}
table{border-collapse:collapse;font-size:13px;margin:6px 0;background:#fff}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th[scope=row]{text-align:left}
"""
