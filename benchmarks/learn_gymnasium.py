"""It learns: MaskablePPO trained through the Gymnasium env beats RandomBot heads-up.

    pip install torch==2.13.0 -e '.[sb3]'   # a demonstration, never a test dependency
    python benchmarks/learn_gymnasium.py [--steps 200000] [--eval-every 20000] [--curve-games 200]
                                         [--final-games 1000] [--seed 0]

The learner plays seat 0 or 1 (drawn each episode) of classic-108 against ``RandomBot``, with
the full official rules and out-of-turn windows on; reward +1 for winning the round, -1 for
losing. The env's ``action_masks()`` feeds sb3-contrib's MaskablePPO, so it only ever chooses
legal actions. Every ``--eval-every`` training steps the current policy (greedy, masked) plays
``--curve-games`` evaluation rounds on seeds never used for training; at the end it plays
``--final-games`` more, and the win rate is printed with its 95% Wilson interval.

Evaluation is cheap: the games are played side by side, ``--eval-batch`` at once, with one
batched ``model.predict`` per step for all of them (a call per game and step cost more than the
game itself: about 0.4 ms of the 0.42 ms a step took), and torch runs on one thread (its
intra-op threads gain nothing on a 2-layer MLP of one observation and, spinning, were counted as
CPU time). An untrained policy plays long rounds (it keeps drawing: about 1,500 learner steps a
round against RandomBot), so the first evaluation is the dearest.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import unoengine.envs.gymnasium  # noqa: F401  (registers unoengine/UNO-v0)

EVAL_SEED = 10**9
"""Evaluation episodes use seeds from here on; training episodes come from --seed."""


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def make_env(seed: int) -> Any:
    env = gymnasium.make("unoengine/UNO-v0", num_players=2, opponents="random", seat="random")
    env.reset(seed=seed)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def evaluate(model: MaskablePPO, games: int, first_seed: int, batch: int = 100) -> int:
    """Rounds won by the greedy masked policy out of ``games`` (game g dealt from seed
    ``first_seed + g``), ``batch`` games side by side with one ``predict`` per step for all."""
    wins = 0
    for start in range(0, games, batch):
        envs = [gymnasium.make("unoengine/UNO-v0", num_players=2, opponents="random", seat="random").unwrapped
                for _ in range(min(batch, games - start))]
        obs = [env.reset(seed=first_seed + start + k)[0] for k, env in enumerate(envs)]
        live = list(range(len(envs)))
        while live:
            actions, _ = model.predict(np.stack([obs[k] for k in live]), deterministic=True,
                                       action_masks=np.stack([envs[k].action_masks() for k in live]))
            still = []
            for k, action in zip(live, actions, strict=True):
                obs[k], reward, terminated, truncated, _ = envs[k].step(int(action))
                if terminated or truncated:
                    wins += reward > 0
                else:
                    still.append(k)
            live = still
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--curve-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-batch", type=int, default=100, help="evaluation games played side by side")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: see the docstring)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model = MaskablePPO("MlpPolicy", make_env(args.seed), seed=args.seed, verbose=0)
    start = time.process_time()
    wins = evaluate(model, args.curve_games, EVAL_SEED, args.eval_batch)
    print("steps  win rate vs RandomBot (95% interval)  CPU s")
    lo, hi = wilson(wins, args.curve_games)
    print(f"{0:>7,}  {wins / args.curve_games:6.1%} ({lo:.1%} - {hi:.1%})  {time.process_time() - start:7.0f}")
    done = 0
    while done < args.steps:
        chunk = min(args.eval_every, args.steps - done)
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        done += chunk
        wins = evaluate(model, args.curve_games, EVAL_SEED, args.eval_batch)
        lo, hi = wilson(wins, args.curve_games)
        print(f"{done:>7,}  {wins / args.curve_games:6.1%} ({lo:.1%} - {hi:.1%})  {time.process_time() - start:7.0f}",
              flush=True)
    wins = evaluate(model, args.final_games, EVAL_SEED + 10**6, args.eval_batch)
    lo, hi = wilson(wins, args.final_games)
    print(f"final: {wins}/{args.final_games} = {wins / args.final_games:.1%}, 95% interval {lo:.1%} - {hi:.1%}; "
          f"{time.process_time() - start:.0f} CPU s in all")


if __name__ == "__main__":
    main()
