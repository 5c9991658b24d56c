"""Batch steps per second of the compiled engine (envs/batch.py, envs/vector.py), with the reference
Gymnasium env and RLCard's UNO env in the same run.

    pip install -e '.[fast,gymnasium,bench]'
    python benchmarks/bench_compiled_batch.py [--sizes 1024 4096] [--steps 200] [--repeats 5] [--players 2 4]
    python benchmarks/bench_compiled_batch.py --versus-rlcard --sizes 1024 --repeats 7

One batch step = every game of the batch takes one action (a uniformly random legal action,
picked by a compiled loop over the masks), and the engine returns each game's next actor,
observation, action mask, rewards and done flags (auto-reset included): ``steps x batch size``
game steps. Measured: :class:`BatchEngine` in self-play (turn-only and windows; ``--threads``
slices stepped at once) and :class:`UnoVectorEnv` (seat 0 against compiled random seats, which
play inside the step: one env step is one learner decision, several moves). The reference is
``UnoEnv`` (opponents "random", its defaults otherwise) and RLCard 1.2.0's ``rlcard.make("uno")``
env (2 players, simplified rules), both stepped with random legal actions.

``--versus-rlcard`` measures only the vector env (2 players, one thread, the first ``--sizes``)
against RLCard's env, the two interleaved in every repeat, and gives their ratio per repeat: the
issue's "vector env >= 20x RLCard's env" (one vector env step is one learner decision of each of
the batch's games; one RLCard env step is one decision of its one game).

Each figure is steps per second of CPU time (``time.process_time``, every thread of the process)
and of wall time (``time.perf_counter``), min / median / max over ``--repeats`` runs. The first
call's time (loading the numba cache, or compiling when there is none) is printed first.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

Timing = tuple[list[float], list[float]]


def timed(run: Callable[[], int], repeats: int) -> Timing:
    """Steps per CPU second and per wall second of ``repeats`` calls of ``run`` (which returns its steps)."""
    cpu, wall = [], []
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        steps = run()
        c1, w1 = time.process_time(), time.perf_counter()
        cpu.append(steps / max(c1 - c0, 1e-9))
        wall.append(steps / max(w1 - w0, 1e-9))
    return cpu, wall


def spread(values: Sequence[float]) -> str:
    return f"{min(values):>12,.0f} {statistics.median(values):>12,.0f} {max(values):>12,.0f}"


def report(label: str, timing: Timing) -> None:
    cpu, wall = timing
    print(f"{label:<58} cpu {spread(cpu)}   wall {spread(wall)}")


def batch_run(players: int, size: int, steps: int, out_of_turn: str, threads: int) -> Callable[[], int]:
    from unoengine.envs.batch import BatchEngine

    batch = BatchEngine("classic-108", players, size, 1, out_of_turn=out_of_turn, threads=threads)  # type: ignore[arg-type]
    batch.reset()
    rng = np.random.default_rng(1)

    def run() -> int:
        for _ in range(steps):
            batch.step(batch.random_actions(rng))
        return steps * size

    return run


def vector_run(players: int, size: int, steps: int, threads: int) -> Callable[[], int]:
    from unoengine.envs.vector import UnoVectorEnv

    env = UnoVectorEnv(size, "classic-108", players, threads=threads)
    env.reset(seed=1)
    rng = np.random.default_rng(1)

    def run() -> int:
        for _ in range(steps):
            env.step(env.random_actions(rng))
        return steps * size

    return run


def reference_run(players: int, steps: int) -> Callable[[], int]:
    from unoengine.envs.gymnasium import UnoEnv

    env = UnoEnv("classic-108", players, opponents="random")
    _obs, info = env.reset(seed=1)
    rng = random.Random(1)

    def run() -> int:
        nonlocal info
        for _ in range(steps):
            legal = np.flatnonzero(info["action_mask"])
            _obs, _r, terminated, truncated, info = env.step(int(legal[int(rng.random() * len(legal))]))
            if terminated or truncated:
                _obs, info = env.reset()
        return steps

    return run


def rlcard_run(steps: int, repeats: int) -> Callable[[], int] | None:
    """RLCard's env loop of benchmarks/bench_envs.py, one fresh env per repeat (its loop starts
    from the state of its first reset, so it runs once), made before the clock starts."""
    try:
        from bench_envs import rlcard_loop

        loops = [rlcard_loop(steps, 1 + k) for k in range(repeats)]
    except ImportError:
        return None

    def run() -> int:
        loops.pop(0)()
        return steps

    return run


def versus_rlcard(size: int, steps: int, reference_steps: int, repeats: int) -> int:
    """The vector env and RLCard's env interleaved in each repeat, CPU time; their ratio per repeat."""
    theirs = rlcard_run(reference_steps, repeats)
    if theirs is None:
        print("RLCard is not installed (pip install -e '.[bench]')", file=sys.stderr)
        return 1
    ours = vector_run(2, size, steps, 1)
    mine: list[float] = []
    other: list[float] = []
    for _ in range(repeats):
        mine.append(timed(ours, 1)[0][0])
        other.append(timed(theirs, 1)[0][0])
    print(f"{'CPU steps/s, interleaved':<58}     {'min':>12} {'median':>12} {'max':>12}")
    print(f"{f'UnoVectorEnv 2p batch {size} threads 1':<58} cpu {spread(mine)}")
    print(f"{'RLCard 1.2.0 uno env 2p':<58} cpu {spread(other)}")
    ratios = [m / o for m, o in zip(mine, other, strict=True)]
    print(f"{'UnoVectorEnv / RLCard (per repeat)':<58}     "
          f"{min(ratios):>11.1f}x {statistics.median(ratios):>11.1f}x {max(ratios):>11.1f}x")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--steps", type=int, default=200, help="batch steps per run")
    parser.add_argument("--reference-steps", type=int, default=3000,
                        help="steps per run of the reference and RLCard envs")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--only-reference", action="store_true", help="measure only the reference and RLCard envs")
    parser.add_argument("--versus-rlcard", action="store_true",
                        help="only the vector env against RLCard's env, interleaved, with their ratio")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, {platform.machine()}, numpy {np.__version__}")
    start = time.perf_counter()
    from unoengine.envs.batch import BatchEngine

    BatchEngine("classic-108", 2, 4, 1).reset()
    print(f"first call (import, numba cache or compile, one reset): {time.perf_counter() - start:.2f} s wall")
    if args.versus_rlcard:
        return versus_rlcard(args.sizes[0], args.steps, args.reference_steps, args.repeats)
    print(f"{'steps/s (game steps: batch steps x batch size)':<58}     {'min':>12} {'median':>12} {'max':>12}"
          f"        {'min':>12} {'median':>12} {'max':>12}")
    for players in args.players:
        for size in [] if args.only_reference else args.sizes:
            for threads in args.threads:
                for mode in ("turn-only", "windows"):
                    run = batch_run(players, size, args.steps, mode, threads)
                    report(f"BatchEngine {players}p batch {size} {mode} threads {threads}", timed(run, args.repeats))
                run = vector_run(players, size, args.steps, threads)
                report(f"UnoVectorEnv {players}p batch {size} threads {threads}", timed(run, args.repeats))
        run = reference_run(players, args.reference_steps)
        report(f"reference UnoEnv {players}p (random opponents, windows)", timed(run, args.repeats))
    theirs = rlcard_run(args.reference_steps, args.repeats)
    if theirs is None:
        print("RLCard is not installed (pip install -e '.[bench]'): its env is not measured", file=sys.stderr)
    else:
        report("RLCard 1.2.0 uno env 2p", timed(theirs, args.repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
