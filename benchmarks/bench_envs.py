"""Environment steps per second: unoengine's PettingZoo env against RLCard 1.2.0's UNO env, in one run.

    pip install -e '.[dev,bench]'     # the rl extras, and rlcard==1.2.0 (never a test dependency)
    python benchmarks/bench_envs.py [--steps 20000] [--repeats 5] [--players 2 4 10]

One step = what a learner's loop does: read the acting agent's observation and action mask, pick
a random legal action, step. Ours is ``unoengine.envs.pettingzoo.env`` (the wrapped AEC env a
user gets, full official rules, out-of-turn windows on) at each player count; RLCard's is
``rlcard.make("uno")`` (two players only, simplified rules) with uniformly random legal
actions. Each run of ours is paired with a run of RLCard's right beside it (the order swapped
every other repeat), so that both halves of a ratio see the machine in the same state: on a
shared host the speed drifts by a factor of two within seconds, and a ratio of runs taken
further apart measures the drift. Runs are timed on this thread's CPU time
(``time.thread_time``); each figure is the median with the minimum and maximum over the
repeats, and each ratio is taken per pair.

``--floor`` times, paired with RLCard's env in the same way, the least a step of any environment
over this engine and this observation can cost: ``legal_moves``, the player to act's mask, the
observation (``encode_own``), the learner's pick from the mask and ``apply``, with none of an
environment's bookkeeping (no ``Table``, no agent selection, rewards, terminations, infos or
wrapper). No PettingZoo env can be faster than this loop, so it bounds what trimming the
environment alone can give (docs/performance.md, "What the environment can reach").
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from unoengine.envs import pettingzoo as uno_pettingzoo


def ours(players: int, steps: int, seed: int, out_of_turn: str = "windows") -> float:
    """Steps per CPU second of the PettingZoo env with random masked actions."""
    env = uno_pettingzoo.env(num_players=players, out_of_turn=out_of_turn)
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    start = time.thread_time()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=rng.randrange(2**31))
            continue
        legal = obs["action_mask"].nonzero()[0]  # the legal actions (np.flatnonzero does the same, 3x slower)
        env.step(int(legal[rng.randrange(len(legal))]))
        done += 1
    return steps / (time.thread_time() - start)


def floor(players: int, steps: int, seed: int) -> float:
    """Steps per CPU second of the floor loop (module docstring): the engine, the observation
    and the mask, made with the very tables the environment uses, and nothing else."""
    import numpy as np

    import unoengine
    from unoengine.engine.legality import legal_moves
    from unoengine.engine.transition import apply_listed

    raw = uno_pettingzoo.raw_env(num_players=players)
    encode, action_of, rows, size = raw._encode, raw._action_of, raw._rows, raw._size
    frombuffer, int8 = np.frombuffer, np.int8
    rng = random.Random(seed)
    state = unoengine.new_game("classic-108", players, seed=seed)
    done = 0
    start = time.thread_time()
    while done < steps:
        if state.round_over:
            state = unoengine.new_game("classic-108", players, seed=rng.randrange(2**31))
            continue
        me = state.current
        mask = bytearray(size)
        for m in legal_moves(state):
            if m.player == me:  # the player to act's moves only (turn-only: no windows)
                mask[action_of[id(m)]] = 1
        seen: dict[str, Any] = {"observation": encode(state, me), "action_mask": frombuffer(mask[:], int8)}
        legal = seen["action_mask"].nonzero()[0]
        move = rows[me][int(legal[rng.randrange(len(legal))])]
        assert move is not None  # no WAIT: the player to act is never in a window
        state = apply_listed(state, move)
        done += 1
    return steps / (time.thread_time() - start)


def rlcard_loop(steps: int, seed: int) -> Callable[[], None]:
    """RLCard's UNO env (2 players), made and reset: the call plays ``steps`` steps of uniformly
    random legal actions (also benchmarks/env_layers.py's ``rlcard`` layer)."""
    import rlcard

    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    first, _ = env.reset()

    def play() -> None:
        state, done = first, 0
        while done < steps:
            if env.is_over():
                state, _ = env.reset()
                continue
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            done += 1

    return play


def theirs(steps: int, seed: int) -> float:
    """Steps per CPU second of RLCard's UNO env (2 players) with random legal actions."""
    play = rlcard_loop(steps, seed)
    start = time.thread_time()
    play()
    return steps / (time.thread_time() - start)


def breakdown(players: int, steps: int, seed: int) -> dict[str, float]:
    """Microseconds per step in each part of the loop (perf_counter around each call, so the
    figures include the timer's own cost), and the engine's share measured the same way."""
    from unoengine.engine import legality, transition

    clock = time.perf_counter_ns
    spent = {"last (observation, mask)": 0, "pick (nonzero, random)": 0, "step": 0,
             "  of which engine legal_moves": 0, "  of which engine apply": 0}
    real_legal, real_apply = legality.legal_moves, transition.apply_listed  # what the Table calls

    def timed_legal(*args: object) -> object:
        t = clock()
        out = real_legal(*args)  # type: ignore[arg-type]
        spent["  of which engine legal_moves"] += clock() - t
        return out

    def timed_apply(*args: object) -> object:
        t = clock()
        out = real_apply(*args)  # type: ignore[arg-type]
        spent["  of which engine apply"] += clock() - t
        return out

    from unoengine.envs import table as env_table

    env_table.legal_moves, env_table.apply_listed = timed_legal, timed_apply  # type: ignore[assignment]
    try:
        env = uno_pettingzoo.env(num_players=players)
        rng = random.Random(seed)
        env.reset(seed=seed)
        done = 0
        while done < steps:
            t0 = clock()
            obs, _, terminated, truncated, _ = env.last()
            t1 = clock()
            if terminated or truncated:
                env.reset(seed=rng.randrange(2**31))
                continue
            legal = obs["action_mask"].nonzero()[0]  # the legal actions (np.flatnonzero does the same, 3x slower)
            action = int(legal[rng.randrange(len(legal))])
            t2 = clock()
            env.step(action)
            t3 = clock()
            spent["last (observation, mask)"] += t1 - t0
            spent["pick (nonzero, random)"] += t2 - t1
            spent["step"] += t3 - t2
            done += 1
    finally:
        env_table.legal_moves, env_table.apply_listed = real_legal, real_apply  # type: ignore[assignment]
    return {name: ns / steps / 1000 for name, ns in spent.items()}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):>9,.0f}  ({min(values):,.0f} - {max(values):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed run (default 20,000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each (default 5)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 10], help="player counts (default 2 4 10)")
    parser.add_argument("--breakdown", action="store_true",
                        help="instead: microseconds per step in each part of the loop, per player count")
    parser.add_argument("--floor", action="store_true",
                        help="instead: the floor loop (no environment) against RLCard's env, per player count")
    args = parser.parse_args()
    if args.breakdown:
        for n in args.players:
            parts = [breakdown(n, args.steps, 1000 + r) for r in range(args.repeats)]
            print(f"{n} players, median over {args.repeats} runs of {args.steps:,} steps (us per step):")
            for name in parts[0]:
                print(f"  {name:<32} {statistics.median(p[name] for p in parts):6.2f}")
        return
    print(f"python {platform.python_version()} on {platform.machine()}, {args.steps:,} steps x {args.repeats} repeats, "
          "thread CPU time; median (min - max) steps/s")
    ours_now = floor if args.floor else ours
    label = "the floor (no env)" if args.floor else "PettingZoo"
    rl_name = "RLCard 1.2.0 uno env, 2 players"
    runs: dict[str, list[float]] = {}
    ratios: dict[int, list[float]] = {n: [] for n in args.players}
    for r in range(args.repeats):
        seed = 1000 + r
        for n in args.players:
            if r % 2 == 0:
                mine = ours_now(n, args.steps, seed)
                rl = theirs(args.steps, seed)
            else:
                rl = theirs(args.steps, seed)
                mine = ours_now(n, args.steps, seed)
            runs.setdefault(f"unoengine {label}, {n} players", []).append(mine)
            runs.setdefault(rl_name, []).append(rl)
            ratios[n].append(mine / rl)
            if not args.floor:
                runs.setdefault(f"unoengine PettingZoo, {n} players, turn-only", []).append(
                    ours(n, args.steps, seed, "turn-only"))
        print(f"  repeat {r + 1}/{args.repeats} done", file=sys.stderr)
    for name, values in runs.items():
        print(f"{name:<45} {spread(values)}")
    for n in args.players:
        each = ratios[n]
        print(f"ratio to RLCard at 2 players, per pair: unoengine {label}, {n} players "
              f"{statistics.median(each):.2f}x ({min(each):.2f}x - {max(each):.2f}x)")


if __name__ == "__main__":
    main()
