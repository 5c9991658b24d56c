"""Where a PettingZoo env step goes: the same loop with one layer more each time, for callgrind.

    OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/env_layers.py LAYER STEPS [PLAYERS]

Run each layer twice (with STEPS and with 0) and divide the difference in instructions by
STEPS: that is the layer's cost a step, start-up left out. ``OPENBLAS_NUM_THREADS=1`` keeps
numpy's idle threads out of the count. The layers, each the one before with something added:

- ``engine``: ``legal_moves`` and ``apply`` with a random legal move (classic-108);
- ``table``: the same through :class:`unoengine.envs.table.Table` (out-of-turn windows);
- ``raw``: the raw AEC env, ``last(observe=False)``, a random action from the info's list;
- ``wrapped``: the env a user gets (``env()``, PettingZoo's order-enforcing wrapper);
- ``observed``: the same with the observation built (``last()``);
- ``masked``: the learner's loop of benchmarks/bench_envs.py: the action picked from the mask.

Instructions, not time: on a busy machine they are what stays the same from run to run.
"""

from __future__ import annotations

import random
import sys

import unoengine
from unoengine.engine.legality import legal_moves
from unoengine.engine.transition import apply
from unoengine.envs import pettingzoo as uno_pettingzoo
from unoengine.envs.table import Table

LAYERS = ("engine", "table", "raw", "wrapped", "observed", "masked")


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


def main() -> int:
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in LAYERS:
        print(f"usage: env_layers.py {{{','.join(LAYERS)}}} STEPS [PLAYERS]", file=sys.stderr)
        return 2
    run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) == 4 else 2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
