"""Random-playout benchmark of the engine's hot path, per profile and player count.

Each move = generate every legal move, pick one uniformly at random, apply it. Reports
moves/s, games/s (one game = one round from the deal to END-1), mean moves per game, the
median cost of one ``legal_moves`` and one ``apply`` call, and the bytes retained per state
when every state of a game is kept (as a search tree keeps them).

    python benchmarks/bench_engine.py                   # all shipped profiles, 2 and 4 players
    python benchmarks/bench_engine.py --games 300 --players 2 4 10 --profiles classic-108 --repeats 5

This is a measuring script, not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence

import unoengine
from unoengine import GameState, Profile


def playout(profile: Profile, players: int, seed: int, rng: random.Random) -> int:
    """Play one round with uniformly random legal moves; return the number of moves."""
    state = unoengine.new_game(profile, players, seed)
    moves = 0
    legal_moves, apply = unoengine.legal_moves, unoengine.apply
    while not state.round_over:
        options = legal_moves(state)
        state = apply(state, options[rng.randrange(len(options))])
        moves += 1
    return moves


def throughput(profile: Profile, players: int, games: int, seed: int) -> tuple[float, float, float]:
    """(moves/s, games/s, mean moves per game) over ``games`` random rounds."""
    rng = random.Random(seed)
    total = 0
    gc.collect()
    start = time.perf_counter()
    for g in range(games):
        total += playout(profile, players, seed + g, rng)
    elapsed = time.perf_counter() - start
    return total / elapsed, games / elapsed, total / games


def call_costs(profile: Profile, players: int, samples: int, seed: int) -> tuple[float, float]:
    """Median seconds of one legal_moves and one apply call, over states met in random play."""
    rng = random.Random(seed)
    gen: list[float] = []
    app: list[float] = []
    clock = time.perf_counter_ns
    g = 0
    while len(gen) < samples:
        state = unoengine.new_game(profile, players, seed + g)
        g += 1
        while not state.round_over and len(gen) < samples:
            t0 = clock()
            options = unoengine.legal_moves(state)
            t1 = clock()
            move = options[rng.randrange(len(options))]
            t2 = clock()
            state = unoengine.apply(state, move)
            t3 = clock()
            gen.append(t1 - t0)
            app.append(t3 - t2)
    return statistics.median(gen) / 1e9, statistics.median(app) / 1e9


def bytes_per_state(profile: Profile, players: int, seed: int) -> tuple[float, int]:
    """Average bytes retained per state when every state of one game is kept."""
    rng = random.Random(seed)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    state = unoengine.new_game(profile, players, seed)
    kept: list[GameState] = [state]
    while not state.round_over:
        options = unoengine.legal_moves(state)
        state = unoengine.apply(state, options[rng.randrange(len(options))])
        kept.append(state)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(kept), len(kept)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", nargs="*", default=unoengine.shipped_profiles())
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--games", type=int, default=200, help="random rounds per configuration")
    parser.add_argument("--samples", type=int, default=20_000, help="calls timed for the medians")
    parser.add_argument("--repeats", type=int, default=3, help="runs per configuration; the best is kept")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"unoengine {unoengine.__version__}, Python {platform.python_version()} "
          f"({platform.python_implementation()}), {platform.machine()}, one core")
    print(f"command: python benchmarks/bench_engine.py {' '.join(sys.argv[1:])}".rstrip())
    header = (f"{'profile':<14}{'players':>8}{'moves/s':>11}{'games/s':>9}{'moves/game':>12}"
              f"{'legal_moves':>13}{'apply':>9}{'B/state':>9}")
    print(header)
    print("-" * len(header))
    for name in args.profiles:
        profile = unoengine.load_profile(name)
        for n in args.players:
            # The machine is shared and noisy: keep the best of a few identical runs.
            mps, gps, mean = max(throughput(profile, n, args.games, args.seed) for _ in range(args.repeats))
            gen, app = call_costs(profile, n, args.samples, args.seed)
            per_state, _ = bytes_per_state(profile, n, args.seed)
            print(f"{name:<14}{n:>8}{mps:>11,.0f}{gps:>9.1f}{mean:>12.0f}"
                  f"{gen * 1e6:>11.2f}us{app * 1e6:>7.2f}us{per_state:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
