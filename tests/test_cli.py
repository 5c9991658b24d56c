"""The command line as a new user meets it: --version, help with every option explained and its
default shown, --players, names with spaces, rule names in summaries, one JSON shape, the
progress bar, NO_COLOR, and the demo's wording. Real processes, as a user types them."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import unoengine as u
from unoengine.tools import cli, conformance, options, simulate
from unoengine.tools import conformance as cli_conformance
from unoengine.tools.play.start import use_color
from unoengine.tools.progress import Progress
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


# Issue 36, item 8: each message says what is wrong, in one line, exit 2.

@pytest.mark.parametrize("argv, says", [
    (["simulate", "--bots", "foo", "--games", "2"], "unoengine simulate: unknown bot 'foo'; known bots: "),
    (["tournament", "--bots", "foo", "--games", "2"], "unoengine tournament: unknown bot 'foo'; known bots: "),
    (["simulate", "--players", "11", "--games", "2"], "unoengine simulate: --players must be from 2 to 10, got 11"),
    (["simulate", "--seed", "-1", "--games", "2"],
     "unoengine simulate: argument --seed: must be an integer from 0 to 2**64 - 1, got '-1'"),
    (["tournament", "--seed", "-1", "--games", "2"],
     "unoengine tournament: argument --seed: must be an integer from 0 to 2**64 - 1, got '-1'"),
    (["demo", "--seed", str(2**64)], "unoengine demo: argument --seed: must be an integer from 0 to 2**64 - 1, got "),
    (["play", "--seed", "-1"], "unoengine play: argument --seed: must be an integer from 0 to 2**64 - 1, got '-1'"),
])
def test_a_misleading_message_now_names_the_problem(argv: list[str], says: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = cli.main(argv)
    except SystemExit as stopped:  # argparse's own errors
        code = int(str(stopped.code))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith(says), err
    assert "bots must name one bot per seat" not in err


def test_every_command_takes_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    """One rule for --seed: 0 to 2**64 - 1, the seeds of the engine and of records, in every command."""
    top = str(2**64 - 1)
    assert cli.main(["demo", "--seed", top, "--quiet"]) == 0
    assert cli.main(["simulate", "--seed", top, "--games", "2", "--bots", "random,random"]) == 0
    assert cli.main(["tournament", "--seed", top, "--games", "1", "--bots", "random,random"]) == 0
    capsys.readouterr()


def test_an_existing_file_not_ending_in_toml_is_not_taken_for_a_profile_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.txt").write_text(cli.profile_to_toml(u.load_profile("classic-108")))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["profiles", "mine.txt"]) == 2
    err = capsys.readouterr().err
    assert err == ("unoengine profiles: 'mine.txt': name: no shipped profile or overlay of that name; a file of "
                   "that name exists: give it as './mine.txt' (a path holds a '/' or ends in .toml)\n")
    assert cli.main(["profiles", "./mine.txt"]) == 0
    assert "classic-108" in capsys.readouterr().out


def test_conformance_reads_its_own_exported_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = sorted(str(p) for p in cli_conformance.shipped_corpus())[:1]
    assert cli.main(["conformance", *shipped, "--export", str(tmp_path / "bundle")]) == 0
    assert cli.main(["conformance", str(tmp_path / "bundle")]) == 0
    out = capsys.readouterr().out
    assert "from 1 file(s)" in out and " 0 failed" in out


def _help_texts() -> dict[str, str]:
    """Every subcommand's help, as argparse prints it (narrow, so long lines wrap as on a terminal)."""
    texts = {}
    for command in ("demo", "profiles", "tournament", "simulate", "play", "replay", "conformance"):
        done = run(command, "--help", env={"COLUMNS": "80"})
        assert done.returncode == 0
        texts[command] = done.stdout
    return texts


def test_help_shows_no_doubled_percent_no_default_twice_and_agrees_in_number() -> None:
    for command, text in _help_texts().items():
        assert "%%" not in text, command
        flat = " ".join(text.split())
        for option in flat.split(" --")[1:]:
            assert option.count("default") <= 1, f"{command} --{option}"
            assert "(default: None)" not in option and "(default: False)" not in option, option
        assert "1 seatings" not in flat and "1 moves" not in flat, command


def test_isolated_help_says_it_is_slower() -> None:
    for text in (run("simulate", "--help").stdout, run("tournament", "--help").stdout):
        assert "much slower" in " ".join(text.split())


def test_counts_agree_in_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "--bots", "random,random", "--games", "1"]) == 0
    assert "1 seating x 1 game\n" in capsys.readouterr().out
    assert options.plural(1, "move") == "1 move" and options.plural(2, "move") == "2 moves"


# Issue 36, item 7: progress where stderr is no terminal (a pipe, a log, CI).

def _lines_of(interval: float, games: int, capsys: pytest.CaptureFixture[str]) -> list[str]:
    stream = io.StringIO()
    reporter = Progress(terminal=False, label="simulate", interval=interval, stream=stream)
    assert cli.simulate("classic-108", ["random", "random"], games, 0, 1, False, True, reporter) == 0
    capsys.readouterr()
    return stream.getvalue().splitlines()


def test_progress_off_a_terminal_is_plain_lines_with_the_time_left(capsys: pytest.CaptureFixture[str]) -> None:
    every = _lines_of(0, 6, capsys)  # interval 0: a line for every game done
    assert [line.split(",")[0] for line in every] == [f"unoengine simulate: {n}/6 games" for n in range(1, 7)]
    assert all("\r" not in line and " so far" in line for line in every)
    assert all(", about " in line and line.endswith(" left") for line in every[:-1])


def test_progress_estimates_early_then_waits_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines_of(10**9, 40, capsys)  # no interval passes: the early estimate and the end only
    assert [line.split(",")[0] for line in lines] == [
        "unoengine simulate: 3/40 games", "unoengine simulate: 40/40 games"]
    assert lines[0].endswith(" left")


def test_progress_by_default_off_a_terminal_and_quiet_silences_it() -> None:
    shown = run("simulate", "--bots", "random,random", "--games", "5")  # stderr is a pipe here
    assert shown.returncode == 0 and shown.stderr.startswith("unoengine simulate: 3/5 games, ")
    assert "\r" not in shown.stderr and shown.stderr.count("\n") == 2
    quiet = run("tournament", "--bots", "random,random", "--games", "5", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""


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


def test_a_refused_run_leaves_no_records_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --games 0 --records DIR`` was refused only after DIR was made: the run's own
    arguments are checked before any output is prepared."""
    folder = tmp_path / "records"
    assert cli.main(["simulate", "--games", "0", "--records", str(folder), "--report", str(tmp_path / "r.html")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not folder.exists() and not (tmp_path / "r.html").exists()


def test_records_are_never_written_through_a_link_planted_in_the_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--records DIR`` opened ``DIR/game-000000.json`` for writing, following a symbolic link
    someone planted there to a file of the user's (issue 41, item 9): the link is refused in one
    line, exit 2, and a hard link is replaced rather than written through; the outside files keep
    their contents."""
    folder, outside = tmp_path / "records", tmp_path / "precious.txt"
    folder.mkdir()
    outside.write_text("keep me\n")
    (folder / "game-000000.json").symlink_to(outside)
    assert cli.main(["simulate", "--games", "2", "--records", str(folder), "--record-count", "2",
                     "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game-000000.json: is a symbolic link; not written through" in err, err
    assert outside.read_text() == "keep me\n" and (folder / "game-000000.json").is_symlink()

    (folder / "game-000000.json").unlink()
    os.link(outside, folder / "game-000001.json")
    assert cli.main(["simulate", "--games", "2", "--records", str(folder), "--record-count", "2",
                     "--no-progress"]) == 0
    assert outside.read_text() == "keep me\n"
    assert json.loads((folder / "game-000001.json").read_text())["moves"]
    assert sorted(p.name for p in folder.iterdir()) == ["game-000000.json", "game-000001.json"]
