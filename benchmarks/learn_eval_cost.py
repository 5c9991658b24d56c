"""What evaluating a MaskablePPO policy through the Gymnasium env costs, one game at a time or batched.

    pip install -e '.[sb3]'
    python benchmarks/learn_eval_cost.py [--games 20] [--batch 20] [--repeats 3] [--threads 1]

``benchmarks/learn_gymnasium.py`` evaluates its policy on rounds against RandomBot. Asked one
game and one step at a time, ``model.predict`` costs more than the game's own step; batched, one
call serves every live game. This plays the same ``--games`` rounds (the same seeds, an untrained
policy, so the same moves and wins) both ways, interleaved, ``--repeats`` times, and prints the
process CPU seconds of each way: median (min - max). Process CPU time counts every torch thread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO

sys.path.insert(0, str(Path(__file__).resolve().parent))
import learn_gymnasium as lg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model = MaskablePPO("MlpPolicy", lg.make_env(0), seed=0, verbose=0)
    times: dict[int, list[float]] = {1: [], args.batch: []}
    wins: dict[int, set[int]] = {1: set(), args.batch: set()}
    for _ in range(args.repeats):
        for batch in times:
            start = time.process_time()
            wins[batch].add(lg.evaluate(model, args.games, lg.EVAL_SEED, batch))
            times[batch].append(time.process_time() - start)
    print(f"{args.games} untrained evaluation rounds, torch threads {args.threads}, {args.repeats} repeats")
    for batch, values in times.items():
        print(f"batch {batch:>3}: {statistics.median(values):6.2f} CPU s ({min(values):.2f} - {max(values):.2f}), "
              f"wins {sorted(wins[batch])}")


if __name__ == "__main__":
    main()
