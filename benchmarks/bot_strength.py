"""Bot strength and worker scaling, measured (figures go to docs/bots.md).

    python benchmarks/bot_strength.py strength --games 300 --workers 2
    python benchmarks/bot_strength.py scaling --games 2000
    python benchmarks/bot_strength.py values --games 30000

``strength`` plays heads-up round-robins (both seat orders on the same deals) of heuristic against
random and of ismcts against heuristic, and prints each bot's win rate with its 95% interval from
the per-deal scores, beside the Wilson interval that treats the games as independent.
``scaling`` plays the same games with one worker and with two, side by side, checks that the
results are identical and prints games per second. ``values`` plays heuristic games heads-up and
fits the chance that the player to act wins from the two hand sizes, the evaluation the ISMCTS
bot ends its playouts with (unoengine.bots.ismcts.win_chances).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict

from unoengine import Phase, apply, from_position, load_profile, new_game, simulate
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
    """Fit logit P(the player to act wins) = c0 + c1 ln(own cards) + c2 ln(other's cards) by weighted
    least squares on the rates seen in heuristic self-play, and print it beside win_chances."""
    prof = load_profile(profile)
    bot = HeuristicBot()
    seen: defaultdict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for g in range(games):
        rng = random.Random(f"{seed}/{g}")
        state = new_game(prof, 2, seed=rng.getrandbits(64))
        visited = set()
        while not state.round_over:
            if state.phase is Phase.PLAY:
                visited.add((state.current, len(state.hands[state.current]), len(state.hands[1 - state.current])))
            state = apply(state, simulate.next_move(state, [bot, bot], [rng, rng]))
        winner = state.match.last_round.winner if state.match.last_round else None
        for current, own, other in visited:
            seen[(own, other)][0] += current == winner
            seen[(own, other)][1] += 1
    rows = [(own, other, w / n, n) for (own, other), (w, n) in seen.items() if n >= 50 and 0 < w < n]
    coef = _least_squares([[1.0, math.log(a), math.log(b)] for a, b, _, _ in rows],
                          [math.log(p / (1 - p)) for _, _, p, _ in rows], [n for *_, n in rows])
    print(f"{games} heuristic games of {profile}: "
          f"logit P = {coef[0]:.3f} {coef[1]:+.3f} ln(own) {coef[2]:+.3f} ln(other)")
    print("own other  measured  win_chances")
    for own, other in ((7, 7), (1, 1), (2, 6), (6, 2), (1, 5), (5, 1), (3, 10)):
        w, n = seen[(own, other)]
        hands = [" ".join(["R1"] * own), " ".join(["B1"] * other)]
        model = win_chances(from_position(prof, hands, "G7"))[0]
        print(f"{own:3} {other:5}  {w / max(n, 1):8.2f}  {model:11.2f}")


def _least_squares(xs: list[list[float]], ys: list[float], weights: list[int]) -> list[float]:
    """Solve the weighted normal equations (3 unknowns) by Gaussian elimination."""
    k = len(xs[0])
    a = [[sum(w * x[i] * x[j] for x, w in zip(xs, weights, strict=True)) for j in range(k)] for i in range(k)]
    b = [sum(w * x[i] * y for x, y, w in zip(xs, ys, weights, strict=True)) for i in range(k)]
    for i in range(k):
        for r in range(i + 1, k):
            f = a[r][i] / a[i][i]
            a[r] = [v - f * u for v, u in zip(a[r], a[i], strict=True)]
            b[r] -= f * b[i]
    out = [0.0] * k
    for i in reversed(range(k)):
        out[i] = (b[i] - sum(a[i][j] * out[j] for j in range(i + 1, k))) / a[i][i]
    return out


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
