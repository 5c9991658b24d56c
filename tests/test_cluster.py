"""Simulations on any executor and on a Dask cluster: identical results for a seed, whatever
plays the games. Real clusters: a Dask LocalCluster of worker processes, and a scheduler and a
worker started as separate commands (``dask scheduler``, ``dask worker``), as docs/bots.md tells."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from unoengine.tools import simulate as sim

try:
    import distributed
except ImportError:
    if os.environ.get("CI"):
        raise  # CI installs the cluster extra with dev: these tests must run there
    pytest.skip("the cluster extra is not installed (pip install -e '.[dev]' brings it)", allow_module_level=True)

BOTS = ["heuristic", "random", "random"]


def one_worker(games: int = 24, seed: int = 9) -> list[sim.GameResult]:
    return sim.run("classic-108", BOTS, games, seed, workers=1)


def test_any_executor_gives_the_same_games() -> None:
    with ProcessPoolExecutor(2) as pool:
        assert sim.run("classic-108", BOTS, 24, 9, workers=2, executor=pool) == one_worker()
    with ThreadPoolExecutor(3) as pool:
        assert sim.run("classic-108", BOTS, 24, 9, workers=3, executor=pool) == one_worker()


def test_a_local_dask_cluster_gives_the_same_games() -> None:
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        results = sim.run("classic-108", BOTS, 24, 9, workers=2, executor=client.get_executor())
        standings, _ = sim.tournament("classic-108", ["heuristic", "random"], 6, 3, workers=2,
                                     executor=client.get_executor())
    assert results == one_worker()
    assert standings == sim.tournament("classic-108", ["heuristic", "random"], 6, 3)[0]


FAILS = "program:" + shlex.join([sys.executable, str(Path(__file__).resolve().parent / "hostile" /
                                                    "bot_fails_sometimes.py")])
"""A bot program that exits mid-game in about one game in four, the same games for a seed."""


def test_a_local_dask_cluster_fails_the_same_games() -> None:
    """keep_going: the same games fail and the same games are counted as on one worker; without
    it, the run stops at the same first failure with the same games before it."""
    bots = [FAILS, "random"]
    here = sim.run("classic-108", bots, 12, 2, keep_going=True)
    assert here.failures and len(here) + len(here.failures) == 12
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        there = sim.run("classic-108", bots, 12, 2, workers=2, executor=client.get_executor(), keep_going=True)
        with pytest.raises(sim.GameFailedError) as caught:
            sim.run("classic-108", bots, 12, 2, workers=2, executor=client.get_executor())
    assert there == here
    assert caught.value.failure == here.failures[0]
    assert list(caught.value.results[tuple(bots)]) == [r for r in here if r.index < here.failures[0].index]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_cli_on_a_scheduler_and_a_worker_started_as_commands(tmp_path: Path) -> None:
    """The two-command recipe of docs/bots.md, then ``unoengine simulate --scheduler``."""
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    assert dask, "the dask command comes with the cluster extra"
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    logs = [open(tmp_path / name, "w") for name in ("scheduler.log", "worker.log")]  # noqa: SIM115
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", port,
                                  "--dashboard-address", ":0"], stdout=logs[0], stderr=subprocess.STDOUT)
    worker = subprocess.Popen([dask, "worker", address, "--nworkers", "2", "--nthreads", "1",
                               "--dashboard-address", ":0"], stdout=logs[1], stderr=subprocess.STDOUT)
    try:
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        args = ["simulate", "--bots", ",".join(BOTS), "--games", "24", "--seed", "9", "--json"]
        on_cluster = subprocess.run([sys.executable, "-m", "unoengine", *args, "--scheduler", address, "--workers",
                                     "2"], capture_output=True, text=True, timeout=300)
        assert on_cluster.returncode == 0, on_cluster.stderr
        here = subprocess.run([sys.executable, "-m", "unoengine", *args], capture_output=True, text=True,
                              timeout=300, check=True)
        strip = ("seconds", "workers")
        assert ({k: v for k, v in json.loads(on_cluster.stdout).items() if k not in strip}
                == {k: v for k, v in json.loads(here.stdout).items() if k not in strip})
    finally:
        for process in (worker, scheduler):
            process.send_signal(signal.SIGINT)
        for process in (worker, scheduler):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        for log in logs:
            log.close()


def test_an_unreachable_scheduler_is_one_line() -> None:
    """One line, exit 2, after the 1 s asked for (Dask's own message says how long it waited),
    not the default 10 s."""
    done = subprocess.run([sys.executable, "-m", "unoengine", "simulate", "--games", "2", "--scheduler",
                           f"tcp://127.0.0.1:{free_port()}", "--connect-timeout", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "cannot reach it" in done.stderr
    assert "after 1 s" in done.stderr, done.stderr


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf", "3601", "soon"])
def test_a_bad_connect_timeout_is_one_line(seconds: str) -> None:
    done = subprocess.run([sys.executable, "-m", "unoengine", "tournament", "--bots", "random,heuristic",
                           "--games", "1", "--connect-timeout", seconds], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--connect-timeout" in done.stderr, done.stderr


CTRL_C_IN_GAME_101 = '''
import os, signal, sys
from unoengine.bots import register_bot
from unoengine.tools import cli

class CtrlC:
    """Plays at random, and presses Ctrl-C (SIGINT to its own process) at its first decision in
    game 101 (a fresh bot is made for each game): after 100 games, whatever the speed of the
    machine. (The games come in chunks, so the summary may count fewer.)"""
    name = "ctrl-c"
    games = 0

    def __init__(self):
        CtrlC.games += 1
        self.pressed = CtrlC.games != 101

    def act(self, view, rng):
        if not self.pressed:
            self.pressed = True
            os.kill(os.getpid(), signal.SIGINT)
        return rng.choice(view.legal_moves) if view.my_turn else None

register_bot("ctrl-c", CtrlC)
sys.exit(cli.main(["simulate", "--games", str(10**12), "--json", "--no-progress", "--bots", "ctrl-c,random"]))
'''


def test_a_long_run_starts_at_once_and_stops_cleanly_on_ctrl_c() -> None:
    """Nothing is planned up front: the largest run allowed starts playing at once, and Ctrl-C
    (pressed by a bot in game 101) prints the summary of the games played (exit 130)."""
    done = subprocess.run([sys.executable, "-c", CTRL_C_IN_GAME_101], capture_output=True, text=True, timeout=300)
    assert done.returncode == 130, done.stderr
    data = json.loads(done.stdout)
    assert 0 < data["games"] <= 100 and "interrupted" in done.stderr, done.stderr


def test_iter_results_streams() -> None:
    stream = sim.iter_results("classic-108", BOTS, 1_000_000, 5)
    first = [next(stream) for _ in range(3)]
    stream.close()
    assert first == sim.run("classic-108", BOTS, 3, 5)
