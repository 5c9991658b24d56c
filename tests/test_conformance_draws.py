"""The draw capabilities of the conformance protocol (docs/conformance.md): ``draw-then-decide``
(this engine: every draw waits for a decision, an explicit ``pass`` even for a card that cannot
be played) and ``draw-auto-pass`` (the printed PLAY-4: play the drawn card if you can, otherwise
play passes), checked on a real engine of the printed kind, in process and over the wire."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from helpers_conformance import OneStep, PrintedDraw, importable_by_the_server

from unoengine import conformance as c

SERVER = [sys.executable, "-m", "unoengine.tools.conformance_server"]
PLAYABLE = {  # p1 draws R9, which can be played on R5
    "id": "draw-playable", "rules": ["PLAY-4"], "profile": "classic-108",
    "start": {"hands": ["B1 B2", "Y1 Y2", "G1 G2"], "discard": "R5", "draw_pile": "R9 G3 G4", "current": 1},
    "steps": [{"move": "p1 draw", "expect": {"phase": "DRAWN", "current": 1}},
              {"move": "p1 R9", "expect": {"current": 2, "top": "R9"}}],
}
UNPLAYABLE = {  # p1 draws G3, which cannot: the printed rule passes at once
    "id": "draw-unplayable", "rules": ["PLAY-4"], "profile": "classic-108",
    "start": {"hands": ["B1 B2", "Y1 Y2", "G1 G2"], "discard": "R5", "draw_pile": "G3 G4", "current": 1},
    "steps": [{"move": "p1 draw", "expect": {"phase": "DRAWN", "current": 1, "hands": {"1": "Y1 Y2 G3"}}},
              {"move": "p1 pass", "expect": {"current": 2, "phase": "PLAY",
                                             "events": [{"type": "TurnPassed", "player": 1}]}}],
}


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return c.load_scenarios(c.shipped_corpus())


def test_draw_then_decide_includes_draw_auto_pass() -> None:
    """An engine that waits after every draw waits after a playable one too (PLAY-4)."""
    assert "draw-auto-pass" in c.FEATURES and "draw-auto-pass" in c.CAPABILITIES
    assert c.parse_capabilities(["draw-then-decide"]) == {"draw-then-decide", "draw-auto-pass"}
    assert c.parse_capabilities(["draw-auto-pass"]) == {"draw-auto-pass"}
    assert "draw-auto-pass" in c.run([PLAYABLE], c.EngineAdapter(["start-position", "draw-then-decide"])).capabilities


def test_a_draw_needs_the_capability_of_what_follows_it() -> None:
    """After drawing a playable card the printed rule waits too (draw-auto-pass); after drawing
    one that cannot be played only this engine's explicit pass does (draw-then-decide)."""
    playable, unplayable = c.scenario_needs(PLAYABLE), c.scenario_needs(UNPLAYABLE)
    assert playable.steps[0].implies == "draw-auto-pass"
    assert playable.steps[0].keys["phase"] == {"phases", "draw-auto-pass"}
    assert playable.steps[1].move == {"draw-auto-pass"}  # playing the drawn card
    assert unplayable.steps[0].implies == "draw-then-decide"
    assert unplayable.steps[1].implied == "draw-then-decide"  # the pass: not sent to the printed kind
    drawn = {**UNPLAYABLE, "start": {**UNPLAYABLE["start"], "phase": "DRAWN", "drawn": "G3",
                                     "hands": ["B1 B2", "Y1 Y2 G3", "G1 G2"], "draw_pile": "G4"}, "steps": []}
    assert "draw-then-decide" in c.scenario_needs(drawn).setup
    drawn_playable = {**drawn, "start": {**drawn["start"], "drawn": "R9", "hands": ["B1 B2", "Y1 Y2 R9", "G1 G2"]}}
    setup = c.scenario_needs(drawn_playable).setup
    assert "draw-auto-pass" in setup and "draw-then-decide" not in setup


def test_the_printed_rule_runs_its_draws() -> None:
    """The printed kind plays a playable drawn card; it passes by itself after drawing one that
    cannot be played, and the runner checks the pass's expectations on what it did."""
    printed = PrintedDraw()
    (played,) = c.run([PLAYABLE], printed).outcomes
    assert played.status == "passed", played
    (kept,) = c.run([UNPLAYABLE], printed).outcomes
    assert (kept.status, kept.steps_run) == ("partial", 2), kept
    assert set(kept.unsupported) == {"step 0 (p1 draw): phase not checked (needs draw-then-decide)",
                                     "step 0 (p1 draw): current not checked (needs draw-then-decide)"}, kept.unsupported
    assert printed.kept_after_draws == 1


def test_the_printed_rule_passes_the_corpus(corpus: list[dict[str, Any]]) -> None:
    """An engine of the printed draw rule claiming draw-auto-pass: no scenario fails or errors,
    and what it cannot run says it needs draw-then-decide. Claiming draw-then-decide instead, the
    same engine fails scenarios over the explicit pass it does not wait for."""
    printed = PrintedDraw()
    report = c.run(corpus, printed)
    bad = [(o.scenario, o.failures[:2], o.error) for o in report.outcomes if o.status in ("failed", "errored")]
    assert not bad, bad[:5]
    assert printed.kept_after_draws > 0
    reasons = [part for o in report.outcomes for part in o.unsupported]
    assert reasons and all("needs draw-then-decide" in part for part in reasons), reasons[:5]
    assert report.count("passed") > report.count("partial") > 0
    by_id = {o.scenario: o for o in report.outcomes}
    assert by_id["play-4-draw-then-play-the-drawn-card"].status == "passed"
    overclaiming = OneStep(c.CAPABILITIES - {"draw-then-decide"})
    overclaiming.capabilities = c.CAPABILITIES
    wrong = c.run(corpus, overclaiming)
    assert wrong.count("failed") > 0 and wrong.count("errored") == 0


def test_the_printed_rule_over_the_wire(corpus: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same engine served as a real program (conformance_server --adapter): the outcomes of
    the scenarios that draw are those of the in-process run."""
    importable_by_the_server(monkeypatch)
    drawing = [s for s in corpus if any(step["move"].endswith(" draw") for step in s["steps"])][:30]
    with c.WireAdapter([*SERVER, "--adapter", "helpers_conformance:PrintedDraw"]) as wire:
        assert wire.capabilities == c.CAPABILITIES - {"draw-then-decide"}
        over = c.run(drawing, wire)
    assert over.outcomes == c.run(drawing, PrintedDraw()).outcomes
    assert over.count("failed") == over.count("errored") == 0 and over.count("partial") > 0
