"""The command line as a new user meets it: --version, help with every option explained and its
default shown, --players, names with spaces, rule names in summaries, one JSON shape, the
progress bar, NO_COLOR, and the demo's wording. Real processes, as a user types them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import unoengine as u
from unoengine.tools import cli, conformance, simulate
from unoengine.tools.play.start import use_color
from unoengine.tools.simulate import PENALTY_RULES

CLI = [sys.executable, "-m", "unoengine"]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"unoengine {u.__version__}"


@pytest.mark.parametrize("command", ["simulate", "tournament", "demo", "conformance", "play", "profiles"])
def test_every_option_has_help_and_shows_its_default(command: str) -> None:
    text = run(command, "--help").stdout
    assert "-h, --help" in text
    for line in text.split("\n  --")[1:]:
        name = line.split()[0]
        assert len(line.split()) > 1, f"{command} --{name} has no help text"


def test_the_description_is_whole() -> None:
    text = run("--help").stdout
    assert "docs/api.md has the whole reference." in text and "simulate" in text


def test_players_and_names_with_spaces() -> None:
    done = run("simulate", "--bots", "heuristic, random", "--players", "4", "--games", "4", "--json")
    data = json.loads(done.stdout)
    assert [s["bot"] for s in data["seats"]] == ["heuristic", "random", "random", "random"]
    bad = run("simulate", "--bots", "heuristic,random,random", "--players", "2")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--players 2" in bad.stderr


@pytest.mark.parametrize("argv, says", [
    (["simulate", "--games", "x"], "argument --games: invalid int value: 'x'"),
    (["tournament", "--connect-timeout", "soon"], "argument --connect-timeout: invalid float value"),
    (["simulate", "--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["bogus"], "invalid choice: 'bogus'"),
    ([], "the following arguments are required: COMMAND"),
])
def test_a_usage_error_is_one_line_and_exit_2(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's own errors too (it would print the whole usage first): one line, exit 2."""
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.count("\n") == 1 and says in err and "--help" in err, err


def test_one_json_shape_with_rounded_figures() -> None:
    data = json.loads(run("simulate", "--bots", "heuristic,random", "--games", "12", "--json").stdout)
    assert data["command"] == "simulate" and data["games"] == 12
    for seat in data["seats"]:
        assert set(seat) == {"seat", "bot", "wins", "win_rate", "interval", "mean_points"}
        assert set(seat["interval"]) == {"low", "high"}
        assert seat["win_rate"] == round(seat["win_rate"], 4)
    for p in data["penalties"]:
        assert set(p) == {"rule", "name", "cards", "per_game"} and p["name"]
    table = json.loads(run("tournament", "--bots", "heuristic,random", "--games", "6", "--json").stdout)
    assert [s["rank"] for s in table["standings"]] == [1, 2]
    assert all(set(s) == {"bots", "winners"} and len(s["winners"]) == 6 for s in table["seatings"])


def test_rule_names_beside_rule_ids() -> None:
    text = run("simulate", "--bots", "heuristic,random", "--games", "20").stdout
    assert "ACT-3 (Draw Two)" in text
    assert set(cli.RULE_NAMES) >= set(PENALTY_RULES)


def test_tournament_shows_progress_and_time_left() -> None:
    done = run("tournament", "--bots", "heuristic,random", "--games", "30", "--progress")
    assert done.returncode == 0 and "60/60" in done.stderr and "left" in done.stderr


def test_slow_runs_show_their_rate() -> None:
    assert cli._rate(3, 10.0) == "0.3" and cli._rate(1234, 1.0) == "1,234"


def test_the_demo_says_what_a_draw_leaves() -> None:
    text = run("demo", "--seed", "3").stdout
    assert "draws, now holds" in text and "draws (" not in text


class Terminal:
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_no_color_turns_colours_off() -> None:
    term = Terminal()
    assert use_color(False, term, {})  # type: ignore[arg-type]
    assert not use_color(False, term, {"NO_COLOR": "1"})  # type: ignore[arg-type]
    assert use_color(False, term, {"NO_COLOR": ""})  # type: ignore[arg-type]  # no-color.org: set and not empty
    assert not use_color(True, term, {})  # type: ignore[arg-type]


@pytest.mark.parametrize("argv, says", [
    (["simulate", "--games", "0"], "games must be an integer from 1 to"),
    (["tournament", "--games", "0"], "games must be an integer from 1 to"),
    (["conformance", "--timeout", "-1"], "--timeout: expected seconds in (0, 3600], got -1.0"),
    (["conformance", "--timeout", "nan", "--engine-cmd", "true"], "--timeout: expected seconds in (0, 3600], got nan"),
    (["conformance", "--timeout", "0", "--json"], "--timeout: expected seconds in (0, 3600], got 0.0"),
])
def test_a_run_of_nothing_is_refused(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33, item 8: no games, or a timeout no wait can meet, is one line and exit 2, not an
    empty table with exit 0 (a wrong option in CI would pass)."""
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and says in captured.err, captured.err


def test_conformance_on_an_empty_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33, item 8: "0 passed, 0 failed" and exit 0 on a folder with no scenario file let a
    wrong path pass in CI; the folder is named, exit 2. The API refuses an empty list too."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("not a scenario")
    for folder in ("empty", "other"):
        assert cli.main(["conformance", str(tmp_path / folder)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{folder}' is a folder with no scenario files" in err, err
    assert cli.main(["conformance", str(tmp_path / "empty"), "--export", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists()
    with pytest.raises(u.UnoEngineError, match="no scenario files given"):
        conformance.load_scenarios([])
    with pytest.raises(u.UnoEngineError, match="no scenarios to run"):
        conformance.run([])


def test_simulate_api_refuses_no_games() -> None:
    with pytest.raises(u.UnoEngineError, match="games must be an integer from 1"):
        simulate.run("classic-108", ["random", "random"], 0)
    with pytest.raises(u.UnoEngineError, match="games must be an integer from 1"):
        list(simulate.iter_results("classic-108", ["random", "random"], 0))
    with pytest.raises(u.UnoEngineError, match="games must be an integer from 1"):
        simulate.tournament("classic-108", ["random", "heuristic"], 0)
