"""The hostile programs of tests/hostile/ against both program runners, ProgramBot (bot programs,
docs/protocol.md) and WireAdapter (engines under ``conformance --engine-cmd``, docs/conformance.md):
each failure is named for what happened, no write or read blocks past its timeout, the host's
memory stays bounded whatever a program writes, and 1,000 restarts of a program that leaves a
child behind leak no thread, no file descriptor and no process. Also ``--bot-timeout``.

Timeouts here are generous, to provoke a failure or to cut off a hang; nothing asserts how long
anything took."""

from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from budget import budget
from helpers_programs import all_ended, hostile, wait_for
from helpers_work import hang_guard

import unoengine as u
from unoengine.bots import ProgramBot
from unoengine.bots.turns import BotError
from unoengine.tools import cli
from unoengine.tools import conformance as c
from unoengine.tools import simulate as sim

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def noted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file where the hostile programs note their children's pids (and, with $HOSTILE_PIDS,
    their own: ``noted.with_suffix('.own')``)."""
    path = tmp_path / "children.txt"
    path.touch()
    monkeypatch.setenv("HOSTILE_CHILDREN", str(path))
    monkeypatch.setenv("HOSTILE_PIDS", str(path.with_suffix(".own")))
    return path


def pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def first_decision(bot: ProgramBot) -> str:
    """The BotError of the bot's first decision of a game (the program is then stopped)."""
    state = u.from_position("classic-108", ["B9 G1", "B1"], "G5", current=0)  # seat 0 to play
    with pytest.raises(BotError) as caught:
        bot.act(u.view(state, 0), random.Random(0))
    assert bot._program is None
    return str(caught.value)


def scenario(sid: str = "s", description: str = "") -> dict[str, Any]:
    return {"id": sid, "rules": ["PLAY-1"], "profile": "classic-108", "description": description,
            "start": {"hands": ["B9 G1", "B1"], "discard": "G5"}, "steps": [{"move": "p0 G1", "expect": {}}]}


NEEDS = c.ScenarioNeeds(frozenset({"start-position"}), (c.StepNeeds(),))
"""None beyond the set-up (the hostile programs are no engines: the reference is not asked)."""


def scenario_errors(wire: c.WireAdapter, *scenarios: dict[str, Any]) -> list[str]:
    report = c.run(list(scenarios), wire, needs=[NEEDS] * len(scenarios))
    assert all(o.status == "errored" for o in report.outcomes), report.outcomes
    return [o.error for o in report.outcomes]


# --- each failure named for what happened ------------------------------------------------------------
CASES = [
    # (program, timeout, what the bot's error says, what the engine's error says)
    (["crash.py"], 60, "exited (code 1) before answering decision 1", "exited (code 1) before answering start (id 1)"),
    (["spawner.py"], 600, "exited (code 7) before answering decision 1", "exited (code 7) before answering start"),
    (["closes_stdout.py"], 60, "closed its output before answering decision 1, but was still running; it was stopped",
     "closed its output before answering start (id 1), but was still running; it was stopped"),
    (["stdout_flood.py"], 60, "answered decision 1 with a line longer than 1,048,576 bytes",
     "answered start (id 1) with a line longer than 1,048,576 bytes"),
    (["stderr_flood.py", "forever"], 1, "sent no answer to decision 1 within 1 s",
     "sent no answer to start (id 1) within 1 s"),
]


@pytest.mark.parametrize(("program", "timeout", "as_bot", "as_engine"), CASES, ids=[c[0][0] for c in CASES])
def test_each_hostile_program_fails_with_what_happened(program: list[str], timeout: float, as_bot: str,
                                                       as_engine: str, noted: Path) -> None:
    """A program that exits is reported as exited at once (a child of it holding its stdout
    open changes nothing), with its code; its stderr's first and last lines are shown."""
    bot_error = first_decision(ProgramBot(hostile(*program), timeout=timeout))
    assert f"at seat 0: {as_bot}" in bot_error
    with c.WireAdapter(hostile(*program), timeout=timeout) as wire:
        (engine_error,) = scenario_errors(wire, scenario())
    assert as_engine in engine_error
    for error in (bot_error, engine_error):
        assert len(error) < 10_000 and all(ch.isprintable() for ch in error)
        if program[0] == "crash.py":
            assert "; its stderr: hostile crash: the configuration file is missing | " in error
            assert error.endswith("| RuntimeError: the configuration file is missing (said last)")
        if program[0] == "stderr_flood.py":
            assert "; its stderr: xxxx" in error and "bytes cut ...] | xxxx" in error
    assert all_ended(pids(noted), "spawner.py")


def test_a_bot_program_that_stops_reading_cannot_block_the_runner() -> None:
    """A program that asked for events and then stops reading: 5,000 moves to tell it before its
    decision make a write of about 200 KB, more than a pipe holds. It times out."""
    bot = ProgramBot(hostile("deaf.py", "events"), timeout=1.0)
    for _ in range(5_000):
        bot.observe(u.Draw(1))
    with hang_guard(120):
        error = first_decision(bot)
    assert "at seat 0: did not read decision 1 within 1 s (it stopped reading its input)" in error


def test_an_engine_that_stops_reading_cannot_block_the_runner() -> None:
    """A scenario with a 500 KB description, to a program that no longer reads: that scenario is
    errored when the write times out."""
    with hang_guard(120), c.WireAdapter(hostile("deaf.py"), timeout=1.0) as wire:
        (error,) = scenario_errors(wire, scenario(description="d" * 500_000))
    assert "did not read start (id 1) within 1 s (it stopped reading its input)" in error


def test_a_bot_program_flooding_stdout_between_games_is_replaced(noted: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Between games nobody reads a program; one that wrote on its stdout meanwhile is not given
    the next game: a fresh program plays it."""
    flag = tmp_path / "flooding"
    monkeypatch.setenv("HOSTILE_FLOODING", str(flag))
    bot = "program:" + shlex.join(hostile("idle_flood.py", "stdout"))
    profile = u.load_profile("classic-108")
    sim.play_game(profile, [bot, "random"], seed=1)
    assert wait_for(flag)
    sim.play_game(profile, [bot, "random"], seed=2)
    assert len(pids(noted.with_suffix(".own"))) == 2


# --- memory ---------------------------------------------------------------------------------------
HOST = r"""
import json, random, resource, sys, time
sys.path.insert(0, sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # the old code, tried here, stops at 3 GB
import unoengine as u
from unoengine.bots import ProgramBot
from unoengine.tools import conformance as c
from unoengine.tools import simulate as sim
from helpers_programs import hostile

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)

def decide(program, timeout):
    state = u.new_game("classic-108", 2, seed=11)
    bot = ProgramBot(hostile(*program), timeout=timeout)
    try:
        bot.act(u.view(state, state.current), random.Random(0))
        bot.close()
        return "answered"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:300]

def start(program, timeout):
    scenario = {"id": "s", "rules": [], "profile": "classic-108", "start": {"hands": ["B9 G1", "B1"], "discard": "G5"},
                "steps": []}
    try:
        with c.WireAdapter(hostile(*program), timeout=timeout) as wire:
            wire.start(scenario)
        return "answered"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:300]

def idle(stream):
    bot = "program:" + " ".join(hostile("idle_flood.py", stream))
    profile = u.load_profile("classic-108")
    try:
        for seed in range(3):
            if seed:
                time.sleep(1)  # the program floods; nobody reads it
            sim.play_game(profile, [bot, "random"], seed=seed)
        return "played"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:300]

decide(["polite.py"], 60), start(["polite.py"], 60)
base = peak()
seen = {
    "bot, 300 MB of stderr": decide(["stderr_flood.py", "300000000"], 600),
    "bot, endless stderr": decide(["stderr_flood.py", "forever"], 2),
    "bot, endless stdout": decide(["stdout_flood.py"], 60),
    "bot, stderr between games": idle("stderr"),
    "bot, stdout between games": idle("stdout"),
    "engine, 300 MB of stderr": start(["stderr_flood.py", "300000000"], 600),
    "engine, endless stderr": start(["stderr_flood.py", "forever"], 2),
}
print(json.dumps({"grew": peak() - base, "seen": seen}))
"""


def test_the_host_memory_stays_bounded_whatever_a_program_writes() -> None:
    """The runner's side in a process of its own, whose peak memory is measured: programs write
    hundreds of megabytes on stderr (then answer, or never), an endless stdout line, and floods
    between games. The peak stays within 100 MB of what the process held before."""
    run = subprocess.run([sys.executable, "-c", HOST, "", str(ROOT / "tests")], capture_output=True, text=True,
                         timeout=1200, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout)
    seen = result["seen"]
    assert seen["bot, 300 MB of stderr"] == "answered"
    assert seen["engine, 300 MB of stderr"] == "answered"
    assert "sent no answer to decision 1 within 2 s; its stderr: xxx" in seen["bot, endless stderr"]
    assert "sent no answer to start (id 1) within 2 s; its stderr: xxx" in seen["engine, endless stderr"]
    assert "a line longer than 1,048,576 bytes" in seen["bot, endless stdout"]
    assert seen["bot, stderr between games"] == seen["bot, stdout between games"] == "played"
    assert result["grew"] < 100 * 2**20, f"the host grew by {result['grew'] / 2**20:.0f} MB"


# --- leaks over restarts -------------------------------------------------------------------------------
RESTARTS = budget(200, 500, 1_000)
"""Restarts of a program that leaves a child behind: 200 in the quick loop (each leaked two threads
and three file descriptors before, so a leak shows hundreds over), 500 in the deep run, 1,000 in
the soak."""


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files in /proc (Linux)")
def test_restarting_an_engine_that_leaves_a_child_leaks_nothing(noted: Path) -> None:
    """The conformance runner restarts the program for each scenario; each start, it answers the
    handshake, starts a child holding its pipes and exits. Every scenario errors as an exit, and
    afterwards no thread, file descriptor or child of it is left."""
    threads, fds = threading.active_count(), open_fds()
    with c.WireAdapter(hostile("spawner.py"), timeout=600) as wire:
        errors = scenario_errors(wire, *(scenario(f"s{i}") for i in range(RESTARTS)))
        restarts = wire.restarts
    assert restarts == RESTARTS - 1
    assert all("exited (code 7) before answering start" in e for e in errors), {e for e in errors if "code 7" not in e}
    assert (threading.active_count(), open_fds()) == (threads, fds)
    children = pids(noted)
    assert len(children) == RESTARTS and all_ended(children, "spawner.py")


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files in /proc (Linux)")
def test_restarting_a_bot_program_that_leaves_a_child_leaks_nothing(noted: Path) -> None:
    threads, fds = threading.active_count(), open_fds()
    for _ in range(RESTARTS):
        assert "exited (code 7) before answering decision 1" in first_decision(ProgramBot(hostile("spawner.py"),
                                                                                          timeout=600))
    assert (threading.active_count(), open_fds()) == (threads, fds)
    children = pids(noted)
    assert len(children) == RESTARTS and all_ended(children, "spawner.py")


def test_the_programs_of_worker_processes_are_stopped_after_the_run(noted: Path) -> None:
    """Each worker keeps its programs between games; when the run is over the workers end, and
    each stops its programs, even ones that ignore bye and the end of their input (their process
    group is killed)."""
    bot = "program:" + shlex.join(hostile("stubborn.py"))
    results = sim.run("classic-108", [bot, "random"], 8, seed=3, workers=2)
    assert len(results) == 8
    started = pids(noted.with_suffix(".own"))  # one per worker, and the one whose handshake is checked first
    assert 2 <= len(started) <= 3 and all_ended(started, "stubborn.py")


def test_the_programs_of_worker_processes_are_stopped_after_a_failed_run(noted: Path) -> None:
    """A run stopped by an error ends its workers early; each still stops its programs."""
    bot = "program:" + shlex.join(hostile("stubborn.py"))
    with pytest.raises(BotError, match="did not end within 6 moves"):
        sim.run("classic-108", [bot, bot], 4, seed=3, workers=2, max_moves=6)
    started = pids(noted.with_suffix(".own"))
    assert len(started) >= 2 and all_ended(started, "stubborn.py")


# --- --bot-timeout ------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["simulate", "tournament"])
@pytest.mark.parametrize("value", ["0", "-1", "3601", "nan", "inf"])
def test_bot_timeout_out_of_range_is_refused_in_one_line(command: str, value: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([command, "--bots", "random,random", "--games", "1", "--bot-timeout", value]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"unoengine {command}: --bot-timeout: expected seconds in (0, 3600], got {float(value)!r}"]


def test_bot_timeout_that_is_no_number_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["simulate", "--bot-timeout", "soon"])
    assert done.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--bot-timeout: invalid float value: 'soon'" in err[0]


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_bot_timeout_is_the_time_a_program_bot_has(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A program that never answers: the run stops after --bot-timeout, not the default 10 s."""
    bot = "program:" + shlex.join(hostile("deaf.py"))
    assert cli.main([command, "--bots", f"{bot},random", "--games", "1", "--bot-timeout", "0.5", "--quiet"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "sent no answer to decision 1 within 0.5 s" in err[0], err


def test_bot_timeout_reaches_worker_processes_and_is_checked() -> None:
    bot = "program:" + shlex.join(hostile("deaf.py"))
    # The 0.5 s reached the worker either way: on a loaded machine the program may not even have
    # shaken hands by then (its interpreter still starting), which the same limit ends.
    with pytest.raises(BotError, match=r"sent no answer to (decision 1|the handshake) within 0\.5 s"):
        sim.run("classic-108", [bot, "random"], 2, workers=2, bot_timeout=0.5)
    for bad in (0, -1.0, 3601, float("nan"), True, "5"):
        with pytest.raises(sim.RunError, match=r"bot_timeout must be seconds in \(0, 3600\]"):
            sim.run("classic-108", ["random", "random"], 1, bot_timeout=bad)  # type: ignore[arg-type]
        with pytest.raises(sim.RunError, match=r"bot_timeout must be seconds in \(0, 3600\]"):
            sim.tournament("classic-108", ["random", "heuristic"], 1, bot_timeout=bad)  # type: ignore[arg-type]


def test_a_program_slow_to_start_has_the_handshake_minimum_not_the_move_timeout() -> None:
    """A --bot-timeout of 1 s is for answers: a program that takes two seconds to shake hands
    (MIN_HANDSHAKE_SECONDS, 10 s) plays its games, and so does an engine under test. (Its answers
    come at once: 1 s leaves room for a loaded machine, where 0.3 s did not always.)"""
    bot = "program:" + shlex.join(hostile("slow_start.py"))
    results = sim.run("classic-108", [bot, "random"], 1, bot_timeout=1.0)
    assert len(results) == 1 and not results.failures
    with hang_guard(120), c.WireAdapter(hostile("slow_start.py"), timeout=1.0) as wire:
        assert wire.capabilities
