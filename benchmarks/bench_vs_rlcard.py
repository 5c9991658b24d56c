"""Side-by-side random playouts: unoengine vs RLCard 1.2.0's UNO game core, in one run.

    pip install -e '.[bench]'          # adds rlcard==1.2.0 (never a runtime or test dependency)
    python benchmarks/bench_vs_rlcard.py [--games 200] [--rounds 5] [--players 2 4]

Each move = generate the legal moves, pick one uniformly at random, apply it. Both engines
play the same number of games; the work is interleaved in rounds (ours, theirs, ours, ...)
so that a noisy machine slows both alike, and the best round of each is reported. Also
reported for unoengine: the median cost of one ``legal_moves`` and one ``apply`` call, moves/s
over the first and the last tenth of each game (the cost of a move must not grow with the
game), and the bytes retained per state when every state of a 4-player game is kept.

RLCard plays a simplified game (no UNO call, no challenge, drawn cards auto-played), so its
games are much shorter: compare moves/s, not games/s.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from collections.abc import Sequence

from bench_engine import bytes_per_state, call_costs

import unoengine


def ours(profile: unoengine.Profile, players: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) for ``games`` random rounds of unoengine."""
    rng = random.Random(seed)
    legal_moves, apply = unoengine.legal_moves, unoengine.apply
    moves = 0
    gc.collect()
    start = time.perf_counter()
    for g in range(games):
        state = unoengine.new_game(profile, players, seed + g)
        while not state.round_over:
            options = legal_moves(state)
            state = apply(state, options[rng.randrange(len(options))])
            moves += 1
    return moves, time.perf_counter() - start


def theirs(players: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) for ``games`` random games of RLCard's UnoGame (its game core)."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rng = random.Random(seed)
    moves = 0
    gc.collect()
    start = time.perf_counter()
    for g in range(games):
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed + g)
        game.init_game()
        while not game.is_over():
            options = game.get_legal_actions()
            game.step(options[rng.randrange(len(options))])
            moves += 1
    return moves, time.perf_counter() - start


def first_and_last_tenth(profile: unoengine.Profile, players: int, games: int, seed: int) -> tuple[float, float]:
    """Moves/s over the first and the last tenth of the moves of each game."""
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    first_ns = last_ns = 0
    first_n = last_n = 0
    for g in range(games):
        state = unoengine.new_game(profile, players, seed + g)
        costs: list[int] = []
        while not state.round_over:
            t0 = clock()
            options = unoengine.legal_moves(state)
            state = unoengine.apply(state, options[rng.randrange(len(options))])
            costs.append(clock() - t0)
        tenth = max(1, len(costs) // 10)
        first_ns += sum(costs[:tenth])
        last_ns += sum(costs[-tenth:])
        first_n += tenth
        last_n += tenth
    return first_n / (first_ns / 1e9), last_n / (last_ns / 1e9)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best is kept")
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--profile", default="classic-108")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    profile = unoengine.load_profile(args.profile)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; "
          f"unoengine {unoengine.__version__} ({args.profile}) vs RLCard 1.2.0 UnoGame")
    print(f"{args.games} games per engine per round, {args.rounds} interleaved rounds, best round shown")
    head = (f"{'players':>7} {'engine':<10}{'moves/s':>10}{'games/s':>10}{'moves/game':>12}"
            f"{'ratio':>8}")
    print(head)
    print("-" * len(head))
    for n in args.players:
        best_ours = (0, float("inf"))
        best_theirs = (0, float("inf"))
        for r in range(args.rounds):
            seed = args.seed + 100_000 * r
            m, t = ours(profile, n, args.games, seed)
            if m / t > best_ours[0] / best_ours[1]:
                best_ours = (m, t)
            m, t = theirs(n, args.games, seed)
            if m / t > best_theirs[0] / best_theirs[1]:
                best_theirs = (m, t)
        ratio = (best_ours[0] / best_ours[1]) / (best_theirs[0] / best_theirs[1])
        for name, (m, t), extra in (("unoengine", best_ours, f"{ratio:>7.2f}x"), ("RLCard", best_theirs, "")):
            print(f"{n:>7} {name:<10}{m / t:>10,.0f}{args.games / t:>10,.1f}{m / args.games:>12.1f}{extra:>8}")
    print()
    for n in args.players:
        gen, app = call_costs(profile, n, 20_000, args.seed)
        first, last = first_and_last_tenth(profile, n, max(20, args.games // 10), args.seed)
        print(f"unoengine, {n} players: median legal_moves {gen * 1e6:.2f} us, apply {app * 1e6:.2f} us; "
              f"moves/s first tenth of each game {first:,.0f}, last tenth {last:,.0f}")
    per_state, kept = bytes_per_state(profile, 4, args.seed)
    print(f"memory: {per_state:,.0f} bytes retained per state, all {kept} states of a 4-player game kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
