"""Bot strength and worker scaling, measured (figures go to docs/bots.md).

    python benchmarks/bot_strength.py strength --games 300 --workers 2
    python benchmarks/bot_strength.py scaling --games 2000
    python benchmarks/bot_strength.py values --games 1500

``strength`` plays heads-up round-robins (both seat orders on the same deals) of heuristic against
random and of ismcts against heuristic, and prints each bot's win rate with its 95% interval from
the per-deal scores, beside the Wilson interval that treats the games as independent.
``scaling`` plays the same games with one worker and with two, side by side, checks that the
results are identical and prints games per second. ``values`` plays heuristic games at 2, 3, 4
and 6 players and fits each player's chance to win from the hand sizes, the evaluation the
ISMCTS bot ends its playouts with (unoengine.bots.ismcts.win_chances).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from unoengine import Phase, apply, load_profile, new_game, simulate
from unoengine.bots import HeuristicBot
from unoengine.bots.ismcts import win_chances


def strength(games: int, workers: int, seed: int, profile: str) -> None:
    for pair in (("heuristic", "random"), ("ismcts", "heuristic")):
        started = time.perf_counter()
        standings, _ = simulate.tournament(profile, list(pair), games, seed, workers=workers)
        took = time.perf_counter() - started
        print(f"{pair[0]} vs {pair[1]}, {profile}, {2 * games} games heads-up (both seat orders), {took:.0f} s")
        for s in standings:
            lo, hi = s.interval
            wlo, whi = simulate.wilson(s.wins, s.games)
            print(f"  {s.bot:10} {s.wins:5d}/{s.games}  {s.win_rate:6.1%}  95% interval {lo:6.1%} - {hi:6.1%}"
                  f"  (as if independent games: {wlo:6.1%} - {whi:6.1%})")


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


def values(games: int, seed: int, profile: str) -> None:
    """For 2, 3, 4 and 6 players: the exponent k and turn bonus b that make P(q wins) proportional
    to size_q ** -k (times e ** b for the player to act) most likely on heuristic self-play, by
    grid search, beside the log-likelihood of what win_chances uses."""
    prof = load_profile(profile)
    bot = HeuristicBot()
    for players in (2, 3, 4, 6):
        rows = []  # (player to act, hand sizes, winner), every third position of each game
        shipped = 0.0
        for g in range(games):
            rng = random.Random(f"{seed}/{players}/{g}")
            state = new_game(prof, players, seed=rng.getrandbits(64))
            seen, positions, k = [], [], 0
            while not state.round_over:
                if state.phase is Phase.PLAY and k % 3 == 0:
                    seen.append((state.current, tuple(len(h) for h in state.hands)))
                    positions.append(state)
                k += 1
                state = apply(state, simulate.next_move(state, [bot] * players, [rng] * players))
            winner = state.match.last_round.winner if state.match.last_round else -1
            rows.extend((current, sizes, winner) for current, sizes in seen)
            shipped += sum(math.log(win_chances(position)[winner]) for position in positions)
        best = max((_log_likelihood(rows, k / 20, b / 20), k / 20, b / 20) for k in range(8, 37) for b in range(11))
        print(f"{players} players, {len(rows)} positions of {games} games: best k {best[1]:.2f}, bonus {best[2]:.2f}"
              f" (log-likelihood {best[0]:.0f}); win_chances uses k {0.65 + 0.5 * math.log(players - 1):.2f},"
              f" bonus 0.20 ({shipped:.0f})")


def _log_likelihood(rows: list[tuple[int, tuple[int, ...], int]], k: float, bonus: float) -> float:
    total = 0.0
    for current, sizes, winner in rows:
        weights = [max(size, 1) ** -k for size in sizes]
        weights[current] *= math.exp(bonus)
        total += math.log(weights[winner] / sum(weights))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("strength", "scaling", "values"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", default="classic-108")
    parser.add_argument("--bots", default="heuristic,random,random,random")
    args = parser.parse_args()
    if args.what == "strength":
        strength(args.games, args.workers, args.seed, args.profile)
    elif args.what == "values":
        values(args.games, args.seed, args.profile)
    else:
        scaling(args.games, args.seed, args.profile, args.bots.split(","))


if __name__ == "__main__":
    main()
