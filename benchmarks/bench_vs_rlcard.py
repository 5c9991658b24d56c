"""Side-by-side random playouts: unoengine vs RLCard 1.2.0's UNO game core, in one run.

    pip install -e '.[bench]'          # adds rlcard==1.2.0 (never a runtime or test dependency)
    python benchmarks/bench_vs_rlcard.py [--games 200] [--rounds 5] [--players 2 4]

Each move = generate the legal moves, pick one uniformly at random, apply it. Both engines
play the same number of games; the work is interleaved in rounds (ours, theirs; then theirs,
ours; the order swapped every round) so that a noisy machine slows both alike, and timed on this thread's CPU time
(``time.thread_time``), so that time the process spends waiting for a core is not counted.
Each figure is the median over the rounds with the minimum and maximum beside it; the ratio is
worked out per round (ours against theirs in the same round) and shown the same way. Also
reported for unoengine: the median cost of one ``legal_moves`` and one ``apply`` call, moves/s
over the first and the last tenth of each game (the cost of a move must not grow with the
game), and the bytes retained per state when every state of a 4-player game is kept.

RLCard plays a simplified game (no UNO call, no challenge, drawn cards auto-played), so its
games are much shorter: compare moves/s, not games/s.

The pick is the same for both engines: ``options[int(rng.random() * len(options))]`` (one C call;
uniform but for a bias of the order of ``len(options) / 2**53``). Until 2026-12-03 it was
``rng.randrange(len(options))``, whose pure-Python path (``randrange``, ``_randbelow``) costs
about 50 bytecodes a move, 7% of a unoengine move: the harness then diluted the ratio it
measures. ``--pick randrange`` plays the old pick, for comparison with earlier figures
(docs/performance.md).
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence

from bench_engine import bytes_per_state, call_costs

import unoengine

PICKS = ("random", "randrange")


def ours(profile: unoengine.Profile, players: int, games: int, seed: int, pick: str = "random") -> tuple[int, float]:
    """(moves, seconds) for ``games`` random rounds of unoengine."""
    rng = random.Random(seed)
    uniform, randrange, old_pick = rng.random, rng.randrange, pick == "randrange"
    legal_moves, apply = unoengine.legal_moves, unoengine.apply
    moves = 0
    gc.collect()
    start = time.thread_time()
    for g in range(games):
        state = unoengine.new_game(profile, players, seed + g)
        while not state.round_over:
            options = legal_moves(state)
            i = randrange(len(options)) if old_pick else int(uniform() * len(options))
            state = apply(state, options[i])
            moves += 1
    return moves, time.thread_time() - start


def theirs(players: int, games: int, seed: int, pick: str = "random") -> tuple[int, float]:
    """(moves, seconds) for ``games`` random games of RLCard's UnoGame (its game core)."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rng = random.Random(seed)
    uniform, randrange, old_pick = rng.random, rng.randrange, pick == "randrange"
    moves = 0
    gc.collect()
    start = time.thread_time()
    for g in range(games):
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed + g)
        game.init_game()
        while not game.is_over():
            options = game.get_legal_actions()
            i = randrange(len(options)) if old_pick else int(uniform() * len(options))
            game.step(options[i])
            moves += 1
    return moves, time.thread_time() - start


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


def spread(values: Sequence[float], form: str) -> str:
    """``median (min - max)`` of ``values``, each written with ``form``."""
    return f"{form.format(statistics.median(values))} ({form.format(min(values))} - {form.format(max(values))})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds: medians and spread over them")
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--profile", default="classic-108")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pick", choices=PICKS, default="random",
                        help="how both loops pick a move: one rng.random() call (the default), "
                             "or rng.randrange (before 2026-12-03)")
    args = parser.parse_args(argv)
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    profile = unoengine.load_profile(args.profile)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; "
          f"unoengine {unoengine.__version__} ({args.profile}) vs RLCard 1.2.0 UnoGame")
    print(f"{args.games} games per engine per round, {args.rounds} interleaved rounds, thread CPU time, "
          f"pick: {args.pick}; median (min - max) over the rounds")
    head = f"{'players':>7} {'engine':<10}{'moves/s':>30}{'moves/game':>12}{'ratio (per round)':>26}"
    print(head)
    print("-" * len(head))
    for n in args.players:
        rates: dict[str, list[float]] = {"unoengine": [], "RLCard": []}
        lengths: dict[str, list[float]] = {"unoengine": [], "RLCard": []}
        for r in range(args.rounds):
            seed = args.seed + 100_000 * r
            pair = [("unoengine", lambda s, n=n: ours(profile, n, args.games, s, args.pick)),
                    ("RLCard", lambda s, n=n: theirs(n, args.games, s, args.pick))]
            for name, play in pair if r % 2 == 0 else pair[::-1]:  # the order swaps every round
                m, t = play(seed)
                rates[name].append(m / t)
                lengths[name].append(m / args.games)
        ratios = [a / b for a, b in zip(rates["unoengine"], rates["RLCard"], strict=True)]
        for name in ("unoengine", "RLCard"):
            ratio = spread(ratios, "{:.2f}x") if name == "unoengine" else ""
            print(f"{n:>7} {name:<10}{spread(rates[name], '{:,.0f}'):>30}"
                  f"{statistics.median(lengths[name]):>12.1f}{ratio:>26}")
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
