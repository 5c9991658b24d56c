"""Bot strength and worker scaling, measured (figures go to docs/bots.md).

    python benchmarks/bot_strength.py strength --games 300 --workers 2
    python benchmarks/bot_strength.py scaling --games 2000
    python benchmarks/bot_strength.py values --games 1500
    python benchmarks/bot_strength.py search --games 60 --iterations 100 --seconds 0.02 --seed 2027
    python benchmarks/bot_strength.py backends --games 1000 --iterations 100 --workers 1

``strength`` plays heads-up round-robins (both seat orders on the same deals) of heuristic against
random and of ismcts against heuristic, and prints each bot's win rate with its 95% interval from
the per-deal scores, beside the Wilson interval that treats the games as independent.
``scaling`` plays the same games with one worker and with two, side by side, checks that the
results are identical and prints games per second. ``values`` plays heuristic games at 2, 3, 4
and 6 players and fits each player's chance to win from the hand sizes, the evaluation the
ISMCTS bot ends its playouts with (unoengine.bots.ismcts.win_chances).
``search`` plays the ISMCTS bot of this tree and of an older one (``--old REF``, default the
commit this branch forked from main, each tree in its own process) against the heuristic bot
over the same deals in both seat orders, once with a fixed number of iterations per decision and
once with a fixed budget of CPU time per decision, and prints each win rate with its interval
and the iterations the time budget bought.
``backends`` plays the ISMCTS bot on the compiled engine against the same bot on the reference
engine (``backend="compiled"`` against ``"reference"``), the same iterations per decision, over
the same deals in both seat orders (a duplicate match): the same strength puts 50% inside the
compiled bot's 95% interval. It prints each bot's CPU time per searched decision too.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

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


UNDER_TEST = "ismcts-under-test"


def search_worker(budget: str, games: int, seed: int, profile: str) -> None:
    """In the tree on PYTHONPATH: the ISMCTS bot with ``budget`` ("iterations:N" or "seconds:S")
    against the heuristic, heads-up, both seat orders; one JSON line of figures."""
    import json

    from unoengine.bots import ISMCTSBot, register_bot

    kind, _, amount = budget.partition(":")
    searched = [0, 0]  # decisions searched, iterations run

    def factory() -> ISMCTSBot:
        bot = _timed_fork_point_bot(float(amount)) if kind == "seconds" and not _has_time_budget() else (
            ISMCTSBot(seconds=float(amount)) if kind == "seconds" else ISMCTSBot(iterations=int(amount)))
        iterate, act = bot._iterate, bot.act

        def counted_iterate(*args: object) -> None:
            searched[1] += 1
            iterate(*args)  # type: ignore[arg-type]

        def counted_act(view: object, rng: random.Random) -> object:
            before = searched[1]
            move = act(view, rng)  # type: ignore[arg-type]
            searched[0] += searched[1] > before
            return move

        bot._iterate, bot.act = counted_iterate, counted_act  # type: ignore[method-assign]
        return bot

    register_bot(UNDER_TEST, factory)
    started = time.perf_counter()
    standings, _ = simulate.tournament(profile, [UNDER_TEST, "heuristic"], games, seed, workers=1)
    mine = next(s for s in standings if s.bot == UNDER_TEST)
    print(json.dumps({"wins": mine.wins, "games": mine.games, "win_rate": mine.win_rate, "interval": mine.interval,
                      "iterations_per_search": searched[1] / max(searched[0], 1),
                      "seconds": time.perf_counter() - started}))


def _has_time_budget() -> bool:
    import inspect

    from unoengine.bots import ISMCTSBot
    return "seconds" in inspect.signature(ISMCTSBot).parameters


def _timed_fork_point_bot(seconds: float) -> Any:
    """The fork point's ISMCTSBot has no time budget: its own act, with the loop of iterations
    bound by CPU time instead of a count (its internals: _imagine(view, rng), _iterate(root,
    state, me, rng, hint))."""
    from unoengine.bots import ismcts as m

    class TimedForkPoint(m.ISMCTSBot):  # type: ignore[misc]
        def act(self, view: Any, rng: random.Random) -> Any:
            started = time.thread_time()
            own = [mv for mv in view.legal_moves if mv.player == view.player]
            in_turn = view.current == view.player and not view.round_over
            if not in_turn or any(isinstance(mv, (m.CatchUno, m.CallUno)) for mv in own):
                return self._fallback.act(view, rng)
            decisions = m._searched(own)
            if len(decisions) == 1:
                return decisions[0]
            root = m._Node(mover=-1)
            hint = self._fallback.act(view, rng)
            self._iterate(root, self._imagine(view, rng), view.player, rng, hint)
            while time.thread_time() < started + seconds:
                self._iterate(root, self._imagine(view, rng), view.player, rng, hint)
            return max(decisions, key=lambda mv: root.children[mv].visits if mv in root.children else -1)

    return TimedForkPoint()


def search(games: int, seed: int, profile: str, iterations: int, seconds: float, old: str | None) -> None:
    """Old and new ISMCTS against the heuristic, at a fixed count of iterations and a fixed CPU
    time; two tree processes at a time."""
    import json
    import os
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from bench_ismcts import ROOT, export, fork_point

    with tempfile.TemporaryDirectory() as tmp:
        ref = old or fork_point()
        trees = {"old": export(ref, Path(tmp)), "new": ROOT / "src"}
        print(f"ISMCTS against the heuristic, {profile}, heads-up, {games} deals x 2 seat orders, seed {seed}; "
              f"old tree {ref}")
        runs = [(budget, name) for budget in (f"iterations:{iterations}", f"seconds:{seconds}") for name in trees]
        running: dict[tuple[str, str], subprocess.Popen[str]] = {}
        results: dict[tuple[str, str], dict[str, Any]] = {}
        while runs or running:  # two tree processes at a time, the next starting as soon as one ends
            while runs and len(running) < 2:
                budget, name = runs.pop(0)
                cmd = [sys.executable, str(Path(__file__).resolve()), "search-worker", "--budget", budget,
                       "--games", str(games), "--seed", str(seed), "--profile", profile]
                running[(budget, name)] = subprocess.Popen(cmd, env=dict(os.environ, PYTHONPATH=str(trees[name])),
                                                           text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            time.sleep(0.5)
            for key, proc in list(running.items()):
                if proc.poll() is not None:
                    out, err = proc.communicate()
                    if proc.returncode:
                        raise SystemExit(f"{key} failed:\n{err}")
                    results[key] = json.loads(out.strip().splitlines()[-1])
                    del running[key]
        for (budget, name), got in sorted(results.items()):
            lo, hi = got["interval"]
            print(f"  {budget:18} {name}: {got['wins']:4d}/{got['games']}  {got['win_rate']:6.1%}  "
                  f"95% interval {lo:6.1%} - {hi:6.1%}  ({got['iterations_per_search']:.0f} iterations per "
                  f"searched decision, {got['seconds']:.0f} s)", flush=True)


def backends(games: int, seed: int, profile: str, iterations: int, workers: int) -> None:
    """ISMCTS with compiled playouts against ISMCTS on the reference engine, a duplicate match."""
    from unoengine.bots import ISMCTSBot, register_bot

    spent = {"compiled": [0.0, 0], "reference": [0.0, 0]}

    def timed(backend: str) -> Any:
        def factory() -> ISMCTSBot:
            bot = ISMCTSBot(iterations=iterations, backend=backend)
            act = bot.act

            def timed_act(view: Any, rng: random.Random) -> Any:
                started = time.thread_time()
                move = act(view, rng)
                spent[backend][0] += time.thread_time() - started
                spent[backend][1] += 1
                return move

            bot.act = timed_act  # type: ignore[method-assign]
            return bot
        return factory

    for backend in spent:
        register_bot(f"ismcts-{backend}", timed(backend))
    started = time.perf_counter()
    standings, _ = simulate.tournament(profile, ["ismcts-compiled", "ismcts-reference"], games, seed,
                                       workers=workers)
    took = time.perf_counter() - started
    print(f"ISMCTS compiled vs reference, {iterations} iterations per decision, {profile}, heads-up, "
          f"{games} deals x 2 seat orders, seed {seed}, {took:.0f} s")
    for s in standings:
        lo, hi = s.interval
        print(f"  {s.bot:17} {s.wins:5d}/{s.games}  {s.win_rate:6.1%}  95% interval {lo:6.1%} - {hi:6.1%}")
    if workers == 1:
        for backend, (seconds, calls) in spent.items():
            print(f"  {backend:9} CPU time per decision {1000 * seconds / max(calls, 1):.2f} ms ({calls} decisions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("strength", "scaling", "values", "search", "search-worker",
                                           "backends"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", default="classic-108")
    parser.add_argument("--bots", default="heuristic,random,random,random")
    parser.add_argument("--iterations", type=int, default=100, help="search: iterations per decision")
    parser.add_argument("--seconds", type=float, default=0.02, help="search: CPU seconds per decision")
    parser.add_argument("--old", default=None, help="search: git ref of the old tree (default: the fork point)")
    parser.add_argument("--budget", default="iterations:100", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.what == "search":
        search(args.games, args.seed, args.profile, args.iterations, args.seconds, args.old)
    elif args.what == "search-worker":
        search_worker(args.budget, args.games, args.seed, args.profile)
    elif args.what == "backends":
        backends(args.games, args.seed, args.profile, args.iterations, args.workers)
    elif args.what == "strength":
        strength(args.games, args.workers, args.seed, args.profile)
    elif args.what == "values":
        values(args.games, args.seed, args.profile)
    else:
        scaling(args.games, args.seed, args.profile, args.bots.split(","))


if __name__ == "__main__":
    main()
