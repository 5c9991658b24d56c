"""The HTML report of ``simulate --report`` and ``tournament --report`` (render/report.py,
tools/report.py): every chart parses as XML, its bars and whiskers are the very numbers the run
printed as JSON (the Wilson and duplicate-format intervals of tools/simulate.py, not computed
again), the numbers are there as text too, and the histogram counts every game once."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from unoengine.render.report import Rate, RateChart, ReportError, _bin_width, lengths_svg, rates_svg, report_html
from unoengine.tools import cli

SVG = "{http://www.w3.org/2000/svg}"


def charts(html: str) -> list[ET.Element]:
    return [ET.fromstring(svg) for svg in re.findall(r"<svg .*?</svg>", html, re.S)]


def rates_of(root: ET.Element) -> list[tuple[str, float, float, float]]:
    return [(g.get("data-label") or "", float(g.get("data-rate") or -1), float(g.get("data-low") or -1),
             float(g.get("data-high") or -1)) for g in root.iter(f"{SVG}g") if g.get("class") == "rate"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert cli.main(list(args)) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_simulate_report_draws_the_runs_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.html"
    data = run(capsys, "simulate", "--games", "16", "--bots", "heuristic,random,random", "--json",
               "--report", str(path))
    html = path.read_text()
    seats_chart, bots_chart, lengths = charts(html)
    drawn = rates_of(seats_chart)
    seats = data["seats"]
    assert isinstance(seats, list) and len(drawn) == len(seats) == 3
    for (label, rate, low, high), seat in zip(drawn, seats, strict=True):
        assert label == f"seat {seat['seat']}: {seat['bot']}"
        assert (round(rate, 4), round(low, 4), round(high, 4)) == (
            seat["win_rate"], seat["interval"]["low"], seat["interval"]["high"])
        assert f"{100 * seat['win_rate']:.1f}%" in html  # the number as text too
    bots = data["bots"]
    assert isinstance(bots, list)
    assert [(label, round(rate, 4)) for label, rate, _, _ in rates_of(bots_chart)] == [
        (b["bot"], b["win_rate"]) for b in bots]
    bins = [int(r.get("data-count") or 0) for r in lengths.iter(f"{SVG}rect") if r.get("class") == "bin"]
    assert sum(bins) == data["games"] == 16
    assert "Wilson" in html and "<table>" in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")


def test_tournament_report_draws_the_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.html"
    data = run(capsys, "tournament", "--games", "12", "--bots", "heuristic,random", "--json", "--report", str(path))
    html = path.read_text()
    standings, seats, lengths = charts(html)
    ranks = data["standings"]
    assert isinstance(ranks, list)
    assert [(label, round(rate, 4), round(low, 4), round(high, 4)) for label, rate, low, high in rates_of(standings)] \
        == [(f"{s['rank']}. {s['bot']}", s["win_rate"], s["interval"]["low"], s["interval"]["high"]) for s in ranks]
    assert [label for label, *_ in rates_of(seats)] == ["seat 0", "seat 1"]
    assert sum(rate for _, rate, _, _ in rates_of(seats)) == pytest.approx(1.0)  # heads-up: one seat wins each game
    bins = [int(r.get("data-count") or 0) for r in lengths.iter(f"{SVG}rect") if r.get("class") == "bin"]
    assert sum(bins) == 2 * 12  # two seatings of 12 games
    assert "duplicate format" in html


def test_report_refuses_numbers_it_cannot_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ReportError, match=r"a: rate must be a number from 0 to 1, got 1\.5"):
        Rate("a", 3, 2, 1.5, 0.1, 0.9)
    with pytest.raises(ReportError, match="does not hold the rate"):
        Rate("a", 1, 2, 0.5, 0.6, 0.9)
    with pytest.raises(ReportError, match="lengths must be"):
        lengths_svg([(3, -1)])
    with pytest.raises(ReportError, match="no games"):
        lengths_svg([])
    assert cli.main(["simulate", "--games", "2", "--report", str(tmp_path / "no" / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--report" in err and "not a file in an existing folder" in err


def test_charts_read_as_pictures_and_text() -> None:
    chart = RateChart("Win rate", (Rate("x", 5, 10, 0.5, 0.2, 0.8, 0.25),))
    root = ET.fromstring(rates_svg(chart))
    assert "x 50.0% (20.0% to 80.0%)" in (root.find(f"{SVG}title").text or "")  # type: ignore[union-attr]
    assert [line.get("class") for line in root.iter(f"{SVG}line") if line.get("class")] == ["interval", "luck"]
    assert _bin_width(1, 30) == 1 and _bin_width(19, 369) == 10
    assert _bin_width(0, 1999) == 50 and _bin_width(0, 2000) == 100
    html = report_html("t", [("k", "v")], [chart], [(10, 3), (12, 1)])
    assert "median" in html and all(ET.fromstring(svg) is not None for svg in re.findall(r"<svg .*?</svg>", html, re.S))
    assert "No games were played" in report_html("t", [], [chart], [])
