"""ISMCTS iterations per second, this tree against an older one, interleaved, on thread CPU time.

    python benchmarks/bench_ismcts.py [--old REF | --old-src DIR] [--players 2 4] [--repeats 5]
    python benchmarks/bench_ismcts.py --only-new --positions 40 --iterations 200   # this tree alone
    python benchmarks/bench_ismcts.py --callgrind --positions 6 --iterations 100   # instruction counts
    python benchmarks/bench_ismcts.py --backends reference compiled --players 2 4 --positions 30 \
        --iterations 200 --repeats 5                                    # this tree, both engines

The positions are the in-turn decisions that the ISMCTS bot really searches (more than one move
to choose from, no UNO call or catch pending) met in heuristic self-play of classic-108 from fixed
seeds, so every tree searches the very same views with the same random streams. Each tree runs in
its own subprocess (``PYTHONPATH=<tree>/src``, importing only the public API), timed by
``time.thread_time`` around ``ISMCTSBot.act`` alone. The old tree is ``git archive REF src profiles``
(default: the commit this branch forked from main), or a directory holding ``src/unoengine``.
The trees alternate in every repeat, the order flipped each time, so that a busy machine slows
both alike; the report gives the median and the best of the repeats, with the spread.

``--backends reference compiled`` measures this tree alone, once per ``ISMCTSBot(backend=...)``
(the compiled engine's kernels loaded from numba's cache and warmed by one search before the
clock starts, which the reference gets too), alternating as the trees do, and prints each
repeat's ratio to the first backend named.

``--callgrind`` counts the instructions of the searches instead (``valgrind --tool=callgrind``,
instrumentation switched on around the searches alone by ``callgrind_control``): one run per
tree, the same count on a busy machine as on an idle one, about sixty times slower to run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def positions(players: int, count: int, seed: int) -> list[object]:
    """``count`` views searched by the ISMCTS bot, from heuristic self-play (public API only)."""
    import random

    import unoengine as u
    from unoengine.bots import HeuristicBot

    bot = HeuristicBot()
    out: list[object] = []
    game = 0
    while len(out) < count:
        rng = random.Random(f"bench-ismcts/{seed}/{players}/{game}")
        state = u.new_game("classic-108", players, seed=rng.getrandbits(64))
        k = 0
        while not state.round_over and len(out) < count:
            v = u.view(state, state.current)
            own = [m for m in v.legal_moves if m.player == v.player]
            searched = [m for m in own if not isinstance(m, (u.CatchUno, u.CallUno))]
            if k % 2 == 0 and len(searched) > 1 and len(searched) == len(own):
                out.append(v)
            k += 1
            moves = u.legal_moves(state)
            catch = [m for m in moves if isinstance(m, (u.CatchUno, u.CallUno))]
            move = catch[0] if catch else bot.act(u.view(state, state.current), rng)
            state = u.apply(state, move if move is not None else moves[0])
        game += 1
    return out


def worker(players: int, count: int, iterations: int, seed: int, backend: str | None = None) -> dict[str, float]:
    """Search every position once; the CPU time of the searches alone."""
    import gc
    import random

    from unoengine.bots import ISMCTSBot

    views = positions(players, count, seed)
    if backend is None:
        bot = ISMCTSBot(iterations=iterations)
    else:
        bot = ISMCTSBot(iterations=iterations, backend=backend)  # type: ignore[call-arg]
        bot.act(views[0], random.Random("warm-up"))  # type: ignore[arg-type]  # load the kernels first
    gc.collect()
    counting = bool(os.environ.get("BENCH_ISMCTS_CALLGRIND"))
    if counting:  # count instructions of the searches alone (valgrind --instr-atstart=no)
        _callgrind("on")
    spent = 0.0
    for i, v in enumerate(views):
        rng = random.Random(f"bench-ismcts/search/{seed}/{i}")
        start = time.thread_time()
        bot.act(v, rng)  # type: ignore[arg-type]
        spent += time.thread_time() - start
    if counting:
        _callgrind("off")
    return {"iterations": float(len(views) * iterations), "seconds": spent}


def _callgrind(switch: str) -> None:
    subprocess.run(["callgrind_control", "-i", switch, str(os.getpid())], check=True, capture_output=True)


def count_tree(src: Path, players: int, count: int, iterations: int, seed: int) -> float:
    """Instructions per iteration of the tree at ``src``, counted by callgrind (no noise)."""
    env = dict(os.environ, PYTHONPATH=str(src), BENCH_ISMCTS_CALLGRIND="1", PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
           sys.executable, str(Path(__file__).resolve()), "--worker", "--players", str(players),
           "--positions", str(count), "--iterations", str(iterations), "--seed", str(seed)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the tree at {src} failed under callgrind:\n{done.stderr}")
    collected = [line for line in done.stderr.splitlines() if "Collected :" in line]
    return int(collected[-1].split(":")[-1]) / (count * iterations)


def run_tree(src: Path, players: int, count: int, iterations: int, seed: int, backend: str | None = None) -> float:
    """Iterations per CPU second of the tree at ``src`` (its own interpreter process), with the
    ISMCTS ``backend`` if given."""
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--players", str(players),
           "--positions", str(count), "--iterations", str(iterations), "--seed", str(seed)]
    if backend is not None:
        cmd += ["--backend", backend]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the tree at {src} failed:\n{done.stderr}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return float(figures["iterations"] / figures["seconds"])


def export(ref: str, into: Path) -> Path:
    """``git archive ref src profiles`` unpacked into ``into``; returns its ``src``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src", "profiles"],
                             check=True, capture_output=True).stdout
    tar_path = into / "old.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def fork_point() -> str:
    """The commit this branch forked from main (main itself if that cannot be told)."""
    done = subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], capture_output=True, text=True)
    return done.stdout.strip() or "main"


def spread(rates: list[float]) -> str:
    return (f"median {statistics.median(rates):8,.0f}  best {max(rates):8,.0f}  "
            f"range {min(rates):,.0f} - {max(rates):,.0f}")


def compare_backends(backends: list[str], players_counts: list[int], count: int, iterations: int, repeats: int,
                     seed: int) -> None:
    """This tree's ISMCTS with each backend, interleaved; the ratio of each to the first named."""
    src = ROOT / "src"
    print(f"{count} searched positions x {iterations} iterations per player count, {repeats} repeats, "
          f"thread CPU time, Python {sys.version.split()[0]}, tree {src}")
    for players in players_counts:
        rates: dict[str, list[float]] = {name: [] for name in backends}
        for r in range(repeats):
            order = list(backends) if r % 2 == 0 else list(reversed(backends))
            for name in order:
                rates[name].append(run_tree(src, players, count, iterations, seed, name))
        for name, got in rates.items():
            print(f"  {players} players {name:9} iterations/s: {spread(got)}")
        first = backends[0]
        for name in backends[1:]:
            ratios = [n / o for n, o in zip(rates[name], rates[first], strict=True)]
            print(f"  {players} players {name}/{first}: median {statistics.median(ratios):.2f}x  "
                  f"(per repeat {min(ratios):.2f}x - {max(ratios):.2f}x; best/best "
                  f"{max(rates[name]) / max(rates[first]):.2f}x)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--positions", type=int, default=30, help="searched views per player count")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per search")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--old", default=None, help="git ref of the old tree (default: the fork point from main)")
    parser.add_argument("--old-src", default=None, help="a directory holding the old tree's unoengine package")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions per iteration under valgrind instead of timing (one run each)")
    parser.add_argument("--only-new", action="store_true", help="measure this tree alone")
    parser.add_argument("--backends", nargs="+", default=None, choices=("reference", "compiled"),
                        help="measure this tree's ISMCTSBot with each backend instead of two trees")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--backend", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.players[0], args.positions, args.iterations, args.seed, args.backend)))
        return
    if args.backends:
        compare_backends(args.backends, args.players, args.positions, args.iterations, args.repeats, args.seed)
        return
    new_src = ROOT / "src"
    with tempfile.TemporaryDirectory() as tmp:
        trees: dict[str, Path] = {"new": new_src}
        if not args.only_new:
            if args.old_src:
                trees["old"] = Path(args.old_src).resolve()
                label = str(trees["old"])
            else:
                ref = args.old or fork_point()
                trees["old"] = export(ref, Path(tmp))
                label = ref
            print(f"old tree: {label}; new tree: {new_src}")
        print(f"{args.positions} searched positions x {args.iterations} iterations per player count, "
              f"{args.repeats} repeats, thread CPU time, Python {sys.version.split()[0]}")
        if args.callgrind:
            print(f"instructions per iteration (callgrind, {args.positions} positions x {args.iterations} iterations)")
            for players in args.players:
                counts = {name: count_tree(src, players, args.positions, args.iterations, args.seed)
                          for name, src in trees.items()}
                line = "  ".join(f"{name} {value:12,.0f}" for name, value in counts.items())
                ratio = f"  old/new {counts['old'] / counts['new']:.2f}x" if "old" in counts else ""
                print(f"  {players} players: {line}{ratio}")
            return
        for players in args.players:
            rates: dict[str, list[float]] = {name: [] for name in trees}
            for r in range(args.repeats):
                order = list(trees) if r % 2 == 0 else list(reversed(trees))
                for name in order:
                    rates[name].append(run_tree(trees[name], players, args.positions, args.iterations, args.seed))
            for name, got in rates.items():
                print(f"  {players} players {name:4} iterations/s: {spread(got)}")
            if "old" in rates:
                ratios = [n / o for n, o in zip(rates["new"], rates["old"], strict=True)]
                print(f"  {players} players new/old: median {statistics.median(ratios):.2f}x  "
                      f"(per repeat {min(ratios):.2f}x - {max(ratios):.2f}x)")


if __name__ == "__main__":
    main()
