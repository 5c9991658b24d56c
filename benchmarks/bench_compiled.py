"""The compiled engine side by side with the reference engine and RLCard 1.2.0's UNO core, in one run.

    pip install -e '.[fast,bench]'
    python benchmarks/bench_compiled.py [--games 2000] [--rounds 5] [--players 2 4 10]
    python benchmarks/bench_compiled.py --startup      # compile time, and a second process's start

Each move = list the legal moves, pick one uniformly at random, make it; one round per game, as
benchmarks/bench_vs_rlcard.py plays. Four loops play classic-108 (the compiled ones with the
portable shuffle they run):

- ``compiled``: whole games inside one compiled call (compiled/kernel_playout.py ``random_rounds``),
  what a rollout or a batch uses;
- ``compiled-api``: the same engine driven move by move from Python (``CompiledGame.legal_codes``
  and ``push``), to show what a Python call per move costs;
- ``reference``: the pure engine (``unoengine.legal_moves`` and ``apply``);
- ``RLCard``: RLCard's ``UnoGame`` (a simplified game: no UNO call, no challenge, drawn cards
  auto-played), so compare moves/s, not games/s.

The loops are interleaved in rounds (their order rotates every round), timed on this thread's CPU
time (``time.thread_time``); each figure is the median over the rounds with the minimum and the
maximum beside it, and each ratio to RLCard is worked out per round. The reference and RLCard
play ``--games / 20`` games a round (they are slower), so that a round stays short.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

import attrs
from bench_vs_rlcard import spread
from bench_vs_rlcard import theirs as rlcard_loop

import unoengine

Loop = Callable[[int, int, int], tuple[int, float]]


def compiled_loop(profile: unoengine.Profile) -> Loop:
    import numpy as np

    from unoengine.compiled.config import config_of
    from unoengine.compiled.kernel_playout import random_rounds
    from unoengine.compiled.layout import offsets

    cfg = config_of(profile)

    def play(players: int, games: int, seed: int) -> tuple[int, float]:
        scratch = np.zeros(offsets(players, profile.deck_size).size, dtype=np.int64)
        random_rounds(cfg, players, seed, 1, scratch)  # compiled (or loaded from the cache) before timing
        gc.collect()
        start = time.thread_time()
        moves = random_rounds(cfg, players, seed, games, scratch)
        return int(moves), time.thread_time() - start

    return play


def compiled_api_loop(profile: unoengine.Profile) -> Loop:
    from unoengine.compiled.game import CompiledGame

    def play(players: int, games: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        uniform = rng.random
        warm = CompiledGame.new(profile, players, seed)  # compiled (or loaded) before timing
        warm.push(int(warm.legal_codes()[0]))
        moves = 0
        gc.collect()
        start = time.thread_time()
        for g in range(games):
            game = CompiledGame.new(profile, players, seed + g)
            while not game.round_over:
                options = game.legal_codes()
                game.push(int(options[int(uniform() * len(options))]))
                moves += 1
        return moves, time.thread_time() - start

    return play


def reference_loop(profile: unoengine.Profile) -> Loop:
    def play(players: int, games: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        uniform = rng.random
        legal_moves, apply = unoengine.legal_moves, unoengine.apply
        moves = 0
        gc.collect()
        start = time.thread_time()
        for g in range(games):
            state = unoengine.new_game(profile, players, seed + g)
            while not state.round_over:
                options = legal_moves(state)
                state = apply(state, options[int(uniform() * len(options))])
                moves += 1
        return moves, time.thread_time() - start

    return play


def startup() -> int:
    """Compile time with an empty numba cache, then a second process with the cache filled."""
    code = ("import time; t = time.perf_counter(); import unoengine as u; from unoengine.compiled.game import "
            "CompiledGame; g = CompiledGame.new(u.load_profile('classic-108'), 4, 1); g.push(g.legal_codes()[0]); "
            "print(f'{time.perf_counter() - t:.2f}')")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("first process (empty cache: compiles)", "second process (cache filled)",
                      "third process (cache filled)"):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            print(f"{label}: {out.stdout.strip()} s from import to the first move made (wall clock)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per round for the compiled loop")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4, 10])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--startup", action="store_true", help="measure compile and start-up time instead")
    args = parser.parse_args(argv)
    if args.startup:
        return startup()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    profile = unoengine.load_profile("classic-108")
    if profile.shuffle != "splitmix64-v1":
        profile = attrs.evolve(profile, shuffle="splitmix64-v1")
    few = max(1, args.games // 20)
    loops: list[tuple[str, Loop, int]] = [
        ("compiled", compiled_loop(profile), args.games),
        ("compiled-api", compiled_api_loop(profile), few),
        ("reference", reference_loop(profile), few),
        ("RLCard", rlcard_loop, few),
    ]
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, thread CPU time; classic-108; "
          f"{args.rounds} interleaved rounds; median (min - max) over the rounds")
    head = f"{'players':>7} {'engine':<13}{'games/round':>12}{'moves/s':>34}{'moves/game':>12}{'x RLCard':>28}"
    print(head)
    print("-" * len(head))
    per_move: dict[int, float] = {}
    for n in args.players:
        rates: dict[str, list[float]] = {name: [] for name, _, _ in loops}
        lengths: dict[str, list[float]] = {name: [] for name, _, _ in loops}
        for r in range(args.rounds):
            seed = args.seed + 1_000_003 * r
            order = loops[r % len(loops):] + loops[:r % len(loops)]
            for name, loop, games in order:
                if name == "RLCard" and n > 10:
                    continue
                moves, seconds = loop(n, games, seed)
                rates[name].append(moves / seconds)
                lengths[name].append(moves / games)
        for name, _, games in loops:
            ratio = ""
            if name != "RLCard" and rates["RLCard"]:
                ratio = spread([a / b for a, b in zip(rates[name], rates["RLCard"], strict=True)], "{:.1f}x")
            print(f"{n:>7} {name:<13}{games:>12}{spread(rates[name], '{:,.0f}'):>34}"
                  f"{statistics.median(lengths[name]):>12.1f}{ratio:>28}")
        per_move[n] = statistics.median(rates["compiled"])
    if 2 in per_move:
        for n, rate in per_move.items():
            print(f"compiled, {n} players: {rate / per_move[2]:.2f}x the moves/s of 2 players")
    return 0


if __name__ == "__main__":
    sys.exit(main())
