"""Where a PettingZoo env step goes: the same loop with one layer more each time, under valgrind.

    python benchmarks/env_layers.py --report [--steps 3000] [--players 2]   # needs valgrind
    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/env_layers.py LAYER STEPS [PLAYERS]

Each layer runs twice (with STEPS and with 0) and the difference in each count, divided by
STEPS, is the layer's cost a step, start-up left out. ``OPENBLAS_NUM_THREADS=1`` keeps numpy's
idle threads out of the count. The layers, each the one before with something added:

- ``engine``: ``legal_moves`` and ``apply`` with a random legal move (classic-108);
- ``table``: the same through :class:`unoengine.envs.table.Table` (out-of-turn windows);
- ``raw``: the raw AEC env, ``last(observe=False)``, a random action from the info's list;
- ``wrapped``: the env a user gets (``env()``, PettingZoo's order-enforcing wrapper);
- ``observed``: the same with the observation built (``last()``);
- ``masked``: the learner's loop of benchmarks/bench_envs.py: the action picked from the mask;
- ``floor``: not a layer but the least of them: ``bench_envs.py --floor``'s loop (the engine,
  the mask, the observation and the pick, no environment), the bound on what trimming the
  environment can give;
- ``rlcard``: RLCard 1.2.0's UNO env in the loop of bench_envs.py, for comparison.

``--report`` runs every layer under ``valgrind --tool=cachegrind --cache-sim=yes
--branch-sim=yes`` and prints, a step, the instructions, the first-level instruction and data
cache misses and the mispredicted branches: counts, not time, so they are the same from run to
run on a busy machine. Time follows the misses and mispredictions more than the instructions
(docs/performance.md, "Environments now").
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import unoengine
from unoengine.engine.legality import legal_moves
from unoengine.engine.transition import apply
from unoengine.envs import pettingzoo as uno_pettingzoo
from unoengine.envs.table import Table

LAYERS = ("engine", "table", "raw", "wrapped", "observed", "masked", "floor", "rlcard")


def run(layer: str, steps: int, players: int) -> None:
    rng = random.Random(5)
    done = 0
    if layer == "engine":
        state = unoengine.new_game("classic-108", players, seed=7)
        while done < steps:
            if state.round_over:
                state = unoengine.new_game("classic-108", players, seed=rng.randrange(1 << 30))
                continue
            moves = legal_moves(state)
            state = apply(state, moves[rng.randrange(len(moves))])
            done += 1
    elif layer == "table":
        table = Table(unoengine.new_game("classic-108", players, seed=7))
        while done < steps:
            if table.state.round_over:
                table = Table(unoengine.new_game("classic-108", players, seed=rng.randrange(1 << 30)))
                continue
            _, moves, wait = table.now
            if wait and rng.randrange(len(moves) + 1) == 0:
                table.act(None)
            else:
                table.act_legal(moves[rng.randrange(len(moves))])
            done += 1
    elif layer == "floor":
        from bench_envs import floor

        floor(players, steps, 7)
    elif layer == "rlcard":  # the bench extra (rlcard==1.2.0); two players only
        from bench_envs import rlcard_loop

        rlcard_loop(steps, 7)()
    else:
        env = uno_pettingzoo.env(num_players=players)
        if layer == "raw":
            env = env.unwrapped
        env.reset(seed=7)
        observe = layer in ("observed", "masked")
        while done < steps:
            obs, _, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                env.reset(seed=rng.randrange(1 << 30))
                continue
            if layer == "masked":
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
            else:
                actions = info["legal_actions"]
                env.step(actions[rng.randrange(len(actions))])
            done += 1


COUNTS = (("instructions", r"I\s+refs:"), ("I1 misses", r"I1\s+misses:"), ("D1 misses", r"D1\s+misses:"),
          ("mispredicted branches", r"Mispredicts:"))


def counted(layer: str, steps: int, players: int) -> list[int]:
    """The cachegrind totals of one run of ``layer`` (the whole process)."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
               "--cachegrind-out-file=/dev/null", sys.executable, __file__, layer, str(steps), str(players)]
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=True)
    totals = []
    for _, pattern in COUNTS:
        found = re.search(pattern + r"\s+([\d,]+)", done.stderr)
        if found is None:
            raise SystemExit(f"valgrind printed no {pattern!r} line:\n{done.stderr[-2000:]}")
        totals.append(int(found.group(1).replace(",", "")))
    return totals


def report(steps: int, players: int) -> None:
    """Each layer's counts a step: runs of ``steps`` and of 0 steps, two at a time."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--report needs valgrind on the PATH")
    layers = [layer for layer in LAYERS if layer != "rlcard" or players == 2]
    runs = [(layer, n) for layer in layers for n in (steps, 0)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        totals = dict(zip(runs, pool.map(lambda run: counted(run[0], run[1], players), runs), strict=True))
    print(f"{players} players, a step ({steps:,} steps less a run of 0; cachegrind's simulated caches)")
    print(f"{'layer':<10}" + "".join(f"{name:>24}" for name, _ in COUNTS))
    for layer in layers:
        per_step = [(a - b) / steps for a, b in zip(totals[(layer, steps)], totals[(layer, 0)], strict=True)]
        print(f"{layer:<10}" + "".join(f"{value:>24,.0f}" for value in per_step))


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--report":
        parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        parser.add_argument("--report", action="store_true")
        parser.add_argument("--steps", type=int, default=3000, help="steps a run (default 3,000)")
        parser.add_argument("--players", type=int, default=2, help="players (default 2; rlcard only at 2)")
        args = parser.parse_args()
        report(args.steps, args.players)
        return 0
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in LAYERS:
        print(f"usage: env_layers.py {{{','.join(LAYERS)}}} STEPS [PLAYERS] | --report [--steps N] [--players N]",
              file=sys.stderr)
        return 2
    run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) == 4 else 2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
