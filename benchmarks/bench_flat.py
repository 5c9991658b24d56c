"""Per-move CPU cost across player counts, and of a simulation against the bare loop, in one run.

    python benchmarks/bench_flat.py [--games 40] [--repeats 5] [--players 2 4 6 8 10]

The bare loop is what issue 17 measures the engine by: ``legal_moves``, a uniformly random
pick, ``apply``, for whole rounds of ``classic-108``. ``simulate.play_game`` with random bots
plays rounds of the same seeds through the runner (bots asked in turn order, penalties counted).
Each figure is CPU time on this thread (``time.thread_time``) per move, the median over the
repeats with the minimum and maximum beside it, so that a busy machine shows as spread rather
than as a different figure. The ratios are worked out per repeat (the same repeat's figures)
and shown the same way: per-move cost at N players over that at 2 (issue 17 item 2 asks for at
most 1.18, i.e. at least 0.85x the 2-player moves/s), and play_game over the bare loop (item 3
asks for at most 1.5).
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from collections.abc import Sequence

# legal_moves + a random pick + apply, on CPU time. The pick is rng.randrange, the same pure-Python
# path as the random bot's rng.choice, so that play_game and the bare loop pick alike.
from bench_vs_rlcard import ours as bare_loop

import unoengine
from unoengine.tools.simulate import play_game


def simulated(profile: unoengine.Profile, players: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, CPU seconds) of ``games`` rounds of ``simulate.play_game`` between random bots."""
    bots = ["random"] * players
    moves = 0
    gc.collect()
    start = time.thread_time()
    for g in range(games):
        moves += play_game(profile, bots, seed + g).moves
    return moves, time.thread_time() - start


def spread(values: Sequence[float], scale: float = 1.0, digits: int = 2) -> str:
    """``median (min-max)`` of ``values`` times ``scale``."""
    v = [x * scale for x in values]
    return f"{statistics.median(v):.{digits}f} ({min(v):.{digits}f}-{max(v):.{digits}f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="rounds per figure and repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6, 8, 10])
    parser.add_argument("--sim-players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    profile = unoengine.load_profile("classic-108")
    print(f"python {platform.python_version()} on {platform.machine()}, {args.games} rounds x "
          f"{args.repeats} repeats, CPU time per move in microseconds: median (min-max)")
    bare: dict[int, list[float]] = {p: [] for p in args.players}
    sim: dict[int, list[float]] = {p: [] for p in args.sim_players}
    sim_bare: dict[int, list[float]] = {p: [] for p in args.sim_players}
    for _ in range(args.repeats):  # interleaved, so that a slow spell of the machine hits all alike
        for p in args.players:
            moves, seconds = bare_loop(profile, p, args.games, args.seed, "randrange")
            bare[p].append(seconds / moves)
        for p in args.sim_players:
            moves, seconds = simulated(profile, p, args.games, args.seed)
            sim[p].append(seconds / moves)
            moves, seconds = bare_loop(profile, p, args.games, args.seed, "randrange")
            sim_bare[p].append(seconds / moves)
    base = args.players[0]
    print(f"\nbare loop (legal_moves + random pick + apply); ratio = per-move cost / that at {base} players")
    print(f"{'players':>7}  {'us/move':>22}  {'moves/s':>10}  {'ratio':>18}")
    for p in args.players:
        ratios = [a / b for a, b in zip(bare[p], bare[base], strict=True)]
        rate = 1 / statistics.median(bare[p])
        print(f"{p:>7}  {spread(bare[p], 1e6):>22}  {rate:>10,.0f}  {spread(ratios):>18}")
    print("\nsimulate.play_game, random bots; ratio = per-move cost / the bare loop's in the same repeat")
    print(f"{'players':>7}  {'play_game us/move':>22}  {'bare us/move':>22}  {'ratio':>18}")
    for p in args.sim_players:
        ratios = [a / b for a, b in zip(sim[p], sim_bare[p], strict=True)]
        print(f"{p:>7}  {spread(sim[p], 1e6):>22}  {spread(sim_bare[p], 1e6):>22}  {spread(ratios):>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
