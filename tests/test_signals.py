"""Runners stopped by a signal leave nothing running (issue 41, item 6; docs/security.md).

Real runner processes (``python -m unoengine ...``, the bot server, the conformance server) are
started with a marker in their environment, which every process they start inherits. Each test
waits until the runner is where it should be, counted (bot programs of tests/hostile/hangs.py that
hung, each with a child of its own; a handshake answered), sends a real signal, and checks: the
exit status is 128 + the signal, standard error is one line, what was played is still printed,
and no process with the marker is left (asked again for a bounded count of times).

SIGTERM is sent to the runner alone (as ``kill`` and ``timeout`` do); SIGINT and SIGHUP to its
whole process group, as a terminal sends them on Ctrl-C and on hang-up. The quick loop runs one
signal or two per runner; the deep run (pytest --deep) every signal against every runner."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from budget import DEEP
from helpers_programs import all_ended, hostile

import unoengine as u
from unoengine.bots import ProgramBot

ROOT = Path(__file__).resolve().parents[1]
MARK = "UNOENGINE_SIGNAL_TEST"
pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds processes in /proc (Linux)")


def deep(*values: str, quick: tuple[str, ...]) -> list[str]:
    """The signals a test is run with: ``quick`` in the quick loop, all of ``values`` in the deep run."""
    return list(values) if DEEP else [v for v in values if v in quick]


ALL = ("SIGTERM", "SIGHUP", "SIGINT")


class Run:
    """A runner process with a marker of its own, and the files its hostile programs note pids in."""

    def __init__(self, folder: Path, argv: list[str], *, stdin: int = subprocess.DEVNULL) -> None:
        self.token = uuid.uuid4().hex
        folder.mkdir()
        self.hung = folder / "hung.txt"
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), MARK: self.token,
               "HOSTILE_HUNG": str(self.hung), "HOSTILE_CHILDREN": str(folder / "children.txt")}
        self.process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env, process_group=0)

    def wait_hung(self, count: int, *, stopping: bool = False) -> None:
        """Until ``count`` programs have hung (or lines noted: ``eof`` too; up to 120 s, a bound
        reached only if they never do). ``stopping``: the runner may end meanwhile."""
        for _ in range(2400):
            if self.hung.exists() and len(self.hung.read_text().split()) >= count:
                return
            if self.process.poll() is not None:  # it ended: say how, unless it was told to
                assert stopping, self.process.communicate()
                return
            time.sleep(0.05)
        pytest.fail(f"{count} programs did not hang")

    def stop(self, name: str) -> tuple[int, str, str]:
        """Send the signal (SIGTERM to the runner, the others to its process group); its exit
        status, stdout and stderr."""
        signum = getattr(signal, name)
        if signum == signal.SIGTERM or signum == signal.SIGKILL:
            self.process.send_signal(signum)
        else:
            os.killpg(self.process.pid, signum)
        self.process.wait(timeout=120)  # its input still open: a server must not wait for it to close
        try:
            out, err = self.process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"processes it left hold its output open: {list(marked(self.token))}")
        return self.process.returncode, out.decode(), err.decode()

    def kill_left(self) -> None:
        """After the test: kill what it left (its own processes, by pid), so a failure costs no more."""
        for found in marked(self.token):  # the runner too, if it runs on
            with contextlib.suppress(OSError):
                os.kill(int(found.split(":")[0]), signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def left(self) -> list[str]:
        """The processes with this run's marker still running, after waiting for them to go (up to
        30 s, a bound reached only by processes left running)."""
        for _ in range(300):
            found = list(marked(self.token))
            if not found:
                return []
            time.sleep(0.1)
        return found


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Run]]:
    """Start runs (``start(argv, stdin=...)``); whatever they leave is killed afterwards."""
    runs: list[Run] = []

    def started(argv: list[str], **options: Any) -> Run:
        runs.append(Run(tmp_path / str(len(runs)), argv, **options))
        return runs[-1]

    yield started
    for run in runs:
        run.kill_left()


def marked(token: str) -> Iterator[str]:
    """The command lines of the live processes (not zombies) whose environment has ``token``."""
    needle = f"{MARK}={token}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile, or not ours
            continue
        if state != "Z":
            yield f"{entry.name}: {command}"


def one_line(err: str, starts: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(starts), err[-3000:]
    return lines[0]


def hangs(*args: str) -> str:
    return "program:" + shlex.join(hostile("hangs.py", *args))


UNOENGINE = [sys.executable, "-m", "unoengine"]


# --- the runners of games -------------------------------------------------------------------------
@pytest.mark.parametrize("name", deep(*ALL, quick=("SIGTERM", "SIGHUP")))
def test_a_stopped_simulate_prints_the_games_played_and_leaves_nothing(name: str, start: Callable[..., Run]) -> None:
    """The bot program answers 600 decisions, then starts a child and hangs: the games of the
    chunks finished by then are in the summary, as after Ctrl-C before; the program and its child
    are gone."""
    run = start([*UNOENGINE, "simulate", "--bots", f"{hangs('600')},random", "--games", "40",
                         "--bot-timeout", "600", "--quiet", "--json"])
    run.wait_hung(1)
    code, out, err = run.stop(name)
    assert code == 128 + getattr(signal, name), err[-3000:]
    played = json.loads(out)["games"]
    assert 0 < played < 40
    line = one_line(err, f"unoengine simulate: interrupted by {name}: ")
    assert line.endswith(f"the summary of the {played} of 40 games played")
    assert run.left() == []


def test_a_second_signal_during_the_cleanup_leaves_nothing_either(start: Callable[..., Run]) -> None:
    """The hung program does not exit when its input closes, so the cleanup of the first SIGTERM
    waits a second for it; a second SIGTERM then ends the runner at once, its programs' groups
    killed. (Should the cleanup be over before the second comes, on a slow machine, the runner
    exits as after one signal.)"""
    run = start([*UNOENGINE, "simulate", "--bots", f"{hangs('600')},random", "--games", "40",
                 "--bot-timeout", "600", "--quiet"])
    run.wait_hung(1)
    run.process.send_signal(signal.SIGTERM)
    run.wait_hung(2, stopping=True)  # "eof": the cleanup has closed the program's input and gives it a second
    code, _out, err = run.stop("SIGTERM")
    assert code == 128 + signal.SIGTERM
    assert one_line(err, "unoengine simulate: interrupted by SIGTERM").endswith(
        (", again: ended at once", "games played"))
    assert run.left() == []


@pytest.mark.parametrize("name", deep(*ALL, quick=("SIGTERM", "SIGINT")))
def test_a_stopped_tournament_ends_its_workers_and_their_programs(name: str, start: Callable[..., Run]) -> None:
    """Two worker processes, each with a bot program that hung with a child of its own."""
    run = start([*UNOENGINE, "tournament", "--bots", f"{hangs('40')},random", "--games", "500",
                         "--workers", "2", "--bot-timeout", "600", "--quiet"])
    run.wait_hung(2)
    code, _out, err = run.stop(name)
    assert code == 128 + getattr(signal, name)
    one_line(err, f"unoengine tournament: interrupted by {name}")
    assert run.left() == []


@pytest.mark.parametrize("name", deep(*ALL, quick=("SIGINT",)))
def test_a_stopped_conformance_run_closes_its_adapter_in_one_line(name: str, start: Callable[..., Run]) -> None:
    """The adapter program answers 3 requests, then starts a child and hangs. Ctrl-C printed a
    traceback of 50 lines; any of the three signals now prints one."""
    run = start([*UNOENGINE, "conformance", "--engine-cmd", shlex.join(hostile("hangs.py", "3")),
                         "--timeout", "600"])
    run.wait_hung(1)
    code, _out, err = run.stop(name)
    assert code == 128 + getattr(signal, name)
    assert one_line(err, "unoengine conformance: ") == f"unoengine conformance: interrupted by {name}"
    assert run.left() == []


# --- the servers ----------------------------------------------------------------------------------
SERVERS = {
    "bot server": ([sys.executable, "-m", "unoengine.tools.bot_server", "random"],
                   {"type": "hello", "protocol": 1}, "unoengine bot server"),
    "conformance server": ([sys.executable, "-m", "unoengine.tools.conformance_server"],
                           {"type": "hello", "protocol": 2}, "conformance_server"),
    "mcp": ([*UNOENGINE, "mcp"],
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "t", "version": "1"}}},
            "unoengine mcp"),
}
SERVED = [(server, name) for server in SERVERS for name in ALL
          if DEEP or (server, name) in {("bot server", "SIGTERM"), ("conformance server", "SIGHUP"), ("mcp", "SIGINT")}]


@pytest.mark.parametrize(("server", "name"), SERVED)
def test_a_stopped_server_says_so_in_one_line(server: str, name: str, start: Callable[..., Run]) -> None:
    """Each server answers its handshake, then waits on its input: the signal ends it."""
    if server == "mcp":
        pytest.importorskip("mcp")
    argv, hello, label = SERVERS[server]
    run = start(argv, stdin=subprocess.PIPE)
    assert run.process.stdin is not None and run.process.stdout is not None
    run.process.stdin.write((json.dumps(hello) + "\n").encode())
    run.process.stdin.flush()
    assert run.process.stdout.readline()  # its answer: it is up
    code, _out, err = run.stop(name)
    assert code == 128 + getattr(signal, name)
    assert one_line(err, label) == f"{label}: interrupted by {name}"
    assert run.left() == []


# --- a runner that cannot clean up ------------------------------------------------------------------
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_runner_takes_its_workers_and_their_programs_with_it(start: Callable[..., Run]) -> None:
    """SIGKILL leaves the runner no cleanup: the kernel sends its workers SIGTERM as it dies, and
    each kills its programs' process groups, the programs' own children included."""
    run = start([*UNOENGINE, "tournament", "--bots", f"{hangs('40')},random", "--games", "500",
                         "--workers", "2", "--bot-timeout", "600", "--quiet"])
    run.wait_hung(2)
    code, _out, err = run.stop("SIGKILL")
    assert code == -signal.SIGKILL and err == ""
    assert run.left() == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_runner_takes_its_bot_programs_with_it(start: Callable[..., Run]) -> None:
    """Without workers the programs are the runner's own children: the kernel kills them as it
    dies. (A child a program started itself is that program's to end: ``alone`` starts none.)"""
    run = start([*UNOENGINE, "simulate", "--bots", f"{hangs('40', 'alone')},random", "--games", "40",
                         "--bot-timeout", "600", "--quiet"])
    run.wait_hung(1)
    code, _out, _err = run.stop("SIGKILL")
    assert code == -signal.SIGKILL
    assert run.left() == []


# --- a program cut off in the middle of an exchange -------------------------------------------------
def test_a_bot_program_cut_off_mid_decision_is_stopped_not_kept_for_the_next_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (a real SIGINT to this process) while the bot waits for the program's answer: the
    answer may still come, so the program is out of step and must not be given another game; it
    was kept between games before."""
    hung = tmp_path / "hung.txt"
    monkeypatch.setenv("HOSTILE_HUNG", str(hung))
    bot = ProgramBot(hostile("hangs.py", "0", "alone"), timeout=600)
    state = u.from_position("classic-108", ["B9 G1", "B1"], "G5", current=0)

    def press_ctrl_c() -> None:
        for _ in range(1200):  # until the program hangs (up to 60 s, reached only if it never does)
            if hung.exists() and hung.read_text().strip():
                break
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    with pytest.raises(KeyboardInterrupt):
        bot.act(u.view(state, 0), random.Random(0))
    presser.join()
    bot.close()
    assert all_ended([int(hung.read_text().split()[0])], "hangs.py")
