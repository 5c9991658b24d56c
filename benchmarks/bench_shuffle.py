"""One shuffle from a seed, seed to next seed, under each named algorithm (docs/shuffle.md, "Speed").

    python benchmarks/bench_shuffle.py [--repeats 15] [--shuffles 2000]

Prints, for a 108-card deal and a 30-card reshuffle, the CPU time of one shuffle (min, median,
max of the repeats, in microseconds) for ``"mt19937"`` and ``"splitmix64-v1"``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from unoengine.engine.shuffling import SHUFFLES, shuffled


def per_shuffle(algorithm: str, length: int, shuffles: int) -> float:
    """Microseconds of CPU time a shuffle, each from the seed the previous one handed on."""
    items = list(range(length))
    seed = 12345
    start = time.process_time()
    for _ in range(shuffles):
        seed = shuffled(algorithm, seed, items)
    return (time.process_time() - start) / shuffles * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--shuffles", type=int, default=2000)
    args = parser.parse_args()
    print("| shuffle | 108 cards | 30 cards |")
    print("| --- | --- | --- |")
    for algorithm in SHUFFLES:
        cells = []
        for length in (108, 30):
            runs = sorted(per_shuffle(algorithm, length, args.shuffles) for _ in range(args.repeats))
            cells.append(f"{statistics.median(runs):.1f} us ({runs[0]:.1f} - {runs[-1]:.1f})")
        print(f"| `{algorithm}` | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
