"""The envs' and simulate's ``backend="compiled"`` against ``"reference"``, in the same run (issue 34).

    pip install -e '.[fast,gymnasium]'
    python benchmarks/bench_simulate_backends.py [--steps 20000] [--games 200] [--repeats 5] [--players 2 4]

Measured, each as CPU time (``time.process_time``), min / median / max over ``--repeats`` runs:

- the Gymnasium env (``UnoEnv``, classic-108, windows) stepped with uniformly random legal
  actions, opponents ``random`` and ``heuristic``: learner steps per second, resets included;
- ``simulate.run`` (classic-108, one round a game) with random bots and with heuristic bots:
  moves per second (the games are the same on both backends, so the moves are too);
- what one conversion of a compiled game to a reference state costs (``to_state``), which a bot
  with no compiled policy pays at each decision.

The first call of each compiled path (loading the numba cache) is made before the timing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np


def spread(values: Sequence[float]) -> str:
    return f"{min(values):>11,.0f} {statistics.median(values):>11,.0f} {max(values):>11,.0f}"


def timed(run: Callable[[], int], repeats: int) -> list[float]:
    """Units per CPU second of ``repeats`` calls of ``run`` (which returns its units)."""
    out = []
    for _ in range(repeats):
        start = time.process_time()
        units = run()
        out.append(units / max(time.process_time() - start, 1e-9))
    return out


def env_run(players: int, opponents: str, backend: str, steps: int) -> Callable[[], int]:
    from unoengine.envs.gymnasium import UnoEnv

    env = UnoEnv("classic-108", players, opponents=opponents, backend=backend)

    def run() -> int:
        rng = np.random.default_rng(0)
        _, info = env.reset(seed=0)
        for _ in range(steps):
            mask = info["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask)))
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
        return steps

    return run


def simulate_run(players: int, bot: str, backend: str, games: int) -> Callable[[], int]:
    from unoengine.tools import simulate as sim

    def run() -> int:
        return sum(r.moves for r in sim.run("classic-108", [bot] * players, games, seed=1, backend=backend))

    return run


def conversion_cost(repeats: int) -> list[float]:
    """Conversions (compiled array to reference state) per CPU second, on mid-round states."""
    import unoengine as u
    from unoengine.compiled.game import CompiledGame

    game = CompiledGame.new(u.load_profile("classic-108"), 4, seed=3)
    for _ in range(40):
        game.push(int(game.legal_codes()[0]))

    def run() -> int:
        for _ in range(2000):
            game.to_state()
        return 2000

    return timed(run, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20000, help="env steps a run")
    parser.add_argument("--games", type=int, default=200, help="simulated games a run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}; CPU time, min / median / max of "
          f"{args.repeats} runs")
    print(f"{'':<52} {'min':>11} {'median':>11} {'max':>11}")
    for players in args.players:
        for opponents in ("random", "heuristic"):
            rates = {}
            for backend in ("reference", "compiled"):
                env_run(players, opponents, backend, 50)()  # warm: the numba cache, the encoders
                rates[backend] = timed(env_run(players, opponents, backend, args.steps), args.repeats)
                print(f"{f'env steps/s {players}p vs {opponents}, {backend}':<52} {spread(rates[backend])}")
            ratio = statistics.median(rates["compiled"]) / statistics.median(rates["reference"])
            print(f"{'  compiled / reference (medians)':<52} {ratio:>11.2f}x")
        for bot in ("random", "heuristic"):
            rates = {}
            for backend in ("reference", "compiled"):
                simulate_run(players, bot, backend, 2)()
                rates[backend] = timed(simulate_run(players, bot, backend, args.games), args.repeats)
                print(f"{f'simulate moves/s {players}x {bot}, {backend}':<52} {spread(rates[backend])}")
            ratio = statistics.median(rates["compiled"]) / statistics.median(rates["reference"])
            print(f"{'  compiled / reference (medians)':<52} {ratio:>11.2f}x")
    print(f"{'to_state conversions/s (4 players, mid-round)':<52} {spread(conversion_cost(args.repeats))}")


if __name__ == "__main__":
    main()
