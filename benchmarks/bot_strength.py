"""Bot strength and worker scaling, measured (figures go to docs/bots.md).

    python benchmarks/bot_strength.py strength --games 300 --workers 2
    python benchmarks/bot_strength.py scaling --games 2000

``strength`` plays heads-up round-robins (both seat orders) of heuristic against random and of
ismcts against heuristic, and prints each bot's win rate with its 95% Wilson interval.
``scaling`` plays the same games with one worker and with two, side by side, checks that the
results are identical and prints games per second.
"""

from __future__ import annotations

import argparse
import time

from unoengine import simulate


def strength(games: int, workers: int, seed: int, profile: str) -> None:
    for pair in (("heuristic", "random"), ("ismcts", "heuristic")):
        started = time.perf_counter()
        standings, _ = simulate.tournament(profile, list(pair), games, seed, workers=workers)
        took = time.perf_counter() - started
        print(f"{pair[0]} vs {pair[1]}, {profile}, {2 * games} games heads-up (both seat orders), {took:.0f} s")
        for s in standings:
            lo, hi = s.interval
            print(f"  {s.bot:10} {s.wins:5d}/{s.games}  {s.win_rate:6.1%}  95% interval {lo:6.1%} - {hi:6.1%}")


def scaling(games: int, seed: int, profile: str, bots: list[str]) -> None:
    timings = {}
    results = {}
    for workers in (1, 2, 1, 2):
        started = time.perf_counter()
        results[workers] = simulate.run(profile, bots, games, seed, workers=workers)
        rate = games / (time.perf_counter() - started)
        timings[workers] = max(timings.get(workers, 0.0), rate)
    assert results[1] == results[2], "results differ between one and two workers"
    print(f"{games} games of {profile}, bots {','.join(bots)}: identical results with 1 and 2 workers")
    for workers, rate in sorted(timings.items()):
        print(f"  {workers} worker(s): {rate:,.0f} games/s (best of 2)")
    print(f"  speed-up: {timings[2] / timings[1]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("strength", "scaling"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", default="classic-108")
    parser.add_argument("--bots", default="heuristic,random,random,random")
    args = parser.parse_args()
    if args.what == "strength":
        strength(args.games, args.workers, args.seed, args.profile)
    else:
        scaling(args.games, args.seed, args.profile, args.bots.split(","))


if __name__ == "__main__":
    main()
