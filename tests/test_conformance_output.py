"""What a conformance run prints of text it did not write (issue 33, item 9): an engine under test
answered with an 800 KB events list and it was quoted whole on one line; scenario ids and an
adapter's messages reached the terminal with their escape sequences. Every such text is now
escaped (no control character reaches the terminal) and shortened, in the outcomes the API
returns and in every line the command prints.

The engine under test is tests/hostile/adapter_loud.py, a real program speaking the wire protocol.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from unoengine import conformance as c
from unoengine.engine.errors import one_line, printable
from unoengine.engine.limits import MAX_PRINTED_CHARS, MAX_SHOWN_CHARS
from unoengine.tools import cli

LOUD = [sys.executable, str(Path(__file__).parent / "hostile" / "adapter_loud.py")]
CONTROL = ("\x1b", "\x07", "\u202e", "\x9b")
"""ESC (escape sequences), BEL (ends a window-title sequence), a bidirectional override, CSI."""


def scenario(sid: str, move: str, **expect: Any) -> dict[str, Any]:
    return {"id": sid, "rules": ["PLAY-1"], "profile": "classic-108",
            "start": {"hands": ["B9 G1 R5", "B1"], "discard": "G5", "draw_pile": "R1 R2 R3"},
            "steps": [{"move": move, "expect": expect}]}


SCENARIOS = [
    scenario("loud-events", "p0 R5", events=[{"type": "CardsDrawn", "player": 1, "count": 2}], current=1,
             hand_sizes=[2, 1], hands={"0": "B9 G1"}),
    scenario("loud-refusal", "p0 B9", rejected={"rule": "PLAY-1", "reason": "card-does-not-match"}, current=0),
    scenario("loud-error", "p0 G1", current=1),
    scenario("loud-legal", "p0 R5", legal={"1": ["p1 draw"]}, legal_includes=["p1 draw"]),
]


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "loud.json"
    path.write_text(json.dumps({"unoengine": "scenarios", "version": 1, "scenarios": SCENARIOS}), encoding="utf-8")
    return path


def clean(text: str, longest: int) -> None:
    """No control character, and no line longer than ``longest``."""
    assert not any(ch in text for ch in CONTROL), repr(text[:300])
    assert max(len(line) for line in text.splitlines() or [""]) <= longest


def test_the_outcomes_quote_an_adapter_briefly_and_escaped(scenario_file: Path) -> None:
    with c.WireAdapter(LOUD, timeout=20) as wire:
        report = c.run(c.load_scenarios([scenario_file]), wire)
    by = {o.scenario: o for o in report.outcomes}
    assert [by[s["id"]].status for s in SCENARIOS] == ["failed", "failed", "errored", "failed"]
    texts = [t for o in report.outcomes for t in (*o.failures, o.error, *o.traceback, *o.unsupported)]
    for text in texts:
        assert text.isprintable(), repr(text[:300])
        assert len(text) < 4 * MAX_SHOWN_CHARS + 200, (len(text), text[:300])  # a few values of MAX_SHOWN_CHARS
    events = next(f for f in by["loud-events"].failures if "expected event" in f)
    assert "among 700 event(s)" in events and "characters)" not in events[:100] and len(events) < 800
    refusal = " ".join(by["loud-refusal"].failures)
    assert "refused citing 'PLAY-1\\x1b[2J" in refusal and "(200,006 characters)" in refusal
    assert "play: RemoteError: the program reported: boom\\x1b[2J" in by["loud-error"].error
    assert len(by["loud-error"].traceback) <= 4 + 8  # its innermost frames here, then at most 8 lines it sent


@pytest.mark.parametrize("extra", [["--verbose"], ["--json"]])
def test_the_command_prints_an_adapter_briefly_and_escaped(scenario_file: Path, extra: list[str],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["conformance", "--timeout", "20", "--engine-cmd", shlex.join(LOUD), str(scenario_file),
                     *extra]) == 1
    out = capsys.readouterr()
    for text in (out.out, out.err):
        clean(text, MAX_PRINTED_CHARS + 100)
    assert len(out.out) < 20_000  # four scenarios' failures, not 800 KB
    if extra == ["--json"]:
        assert json.loads(out.out)["failed"] == 3
    else:
        assert "FAILED      loud-events  [PLAY-1]" in out.out and "ERRORED     loud-error" in out.out


@pytest.mark.parametrize(("field", "value"), [
    ("id", "fine\x1b[2Jid"),
    ("profile", "gone\x1b]0;title\x07.toml"),
    ("profile", "x\u202e.toml"),
])
def test_a_scenario_files_text_is_escaped_in_the_error_line(tmp_path: Path, field: str, value: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A file's id or profile path with escape sequences: one escaped line, exit 2."""
    doc = {"unoengine": "scenarios", "version": 1, "scenarios": [{**SCENARIOS[2], field: value}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert cli.main(["conformance", str(path)]) == 2
    err = capsys.readouterr().err
    clean(err, MAX_PRINTED_CHARS + 100)
    assert err.count("\n") == 1 and ("\\x1b" in err or "\\u202e" in err)


def test_a_scenario_file_in_a_folder_named_with_escapes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file name is text too: the line naming it is escaped."""
    folder = tmp_path / "evil\x1b[2J"
    folder.mkdir()
    (folder / "s.json").write_text("{not json", encoding="utf-8")
    assert cli.main(["conformance", str(folder)]) == 2
    err = capsys.readouterr().err
    clean(err, MAX_PRINTED_CHARS + 100)
    assert "evil\\x1b[2J" in err


def test_printable_escapes_and_cuts() -> None:
    assert printable("plain text, é and ✓") == "plain text, é and ✓"
    assert printable("a\x1b[31mb\nc\u202e") == "a\\x1b[31mb\\nc\\u202e"
    cut = printable("\x1b" * 1_000_000)
    assert cut.endswith("... (1,000,000 characters)") and len(cut) <= MAX_PRINTED_CHARS + 40 and cut.isprintable()
    line = one_line(ValueError("first\x1b[2J\n  second\x07\n" + "x" * 800_000))
    assert line.isprintable() and line.startswith("first\\x1b[2J second\\x07; xxx")
    assert len(line) < MAX_PRINTED_CHARS + 40


def test_an_adapter_claiming_thousands_of_seats_is_not_asked_for_each(scenario_file: Path) -> None:
    """An engine under test that reports 5,000 hand sizes, each seat with 5,000 legal moves, made
    the runner ask it for every seat and compare 25 million moves (minutes of work for four
    scenarios): the runner asks seat by seat only up to MAX_PLAYERS seats."""
    from unoengine.engine.limits import MAX_PLAYERS

    class ManySeats(c.EngineAdapter):
        asked = 0

        def observe(self, game: Any) -> dict[str, Any]:
            return {**super().observe(game), "hand_sizes": [1] * 5000}

        def legal(self, game: Any, player: int) -> list[str]:
            ManySeats.asked += 1
            return ["p1 draw"] * 5000

    report = c.run(c.load_scenarios([scenario_file]), ManySeats())
    assert ManySeats.asked <= 4 * MAX_PLAYERS
    assert {o.scenario: o.status for o in report.outcomes}["loud-legal"] == "failed"
