"""How long UNO rounds run, to choose the environments' default step cap (docs/rl.md, "Step cap").

    python benchmarks/learn_episode_lengths.py [--games 2000] [--players 2 3 4 6 10]
                                               [--profiles classic-108 gdj85+jump-in+stacking]

Plays ``--games`` rounds per profile, player count and bot (every seat ``RandomBot``, then every
seat ``HeuristicBot``) through a :class:`~unoengine.envs.table.Table` with out-of-turn windows,
as the environments ask for decisions, and counts per round:

- *table decisions*: every seat's decisions, ``WAIT`` in a window included (a PettingZoo step);
- *seat-0 decisions*: the decisions of one seat (a Gymnasium learner's steps).

It prints the median, the 99th, 99.9th and 99.99th percentiles and the longest round of each,
beside the default caps of :mod:`unoengine.envs.step_cap`, and the fraction of rounds that
reached a cap. (A count, not a time: the figures are the same on every machine.)
"""

from __future__ import annotations

import argparse
import random

from unoengine.bots import make_bot
from unoengine.engine.dealing import new_game
from unoengine.engine.state import Phase
from unoengine.engine.view import view
from unoengine.envs.step_cap import auto_agent_steps, auto_learner_steps
from unoengine.envs.table import Table
from unoengine.formats.composition import resolve_profile


def round_length(profile: str, players: int, bot_name: str, seed: int) -> tuple[int, int]:
    """(table decisions, seat 0's decisions) of one round with ``bot_name`` in every seat."""
    table = Table(new_game(resolve_profile(profile), players, seed), "windows")
    bots = [make_bot(bot_name) for _ in range(players)]
    rngs = [random.Random(seed * 16 + p) for p in range(players)]
    total = mine = 0
    while table.state.phase < Phase.ROUND_OVER:
        p = table.actor
        move = bots[p].act(view(table.state, p), rngs[p])
        table.act(move)
        total += 1
        mine += p == 0
    return total, mine


def percentile(sorted_values: list[int], q: float) -> int:
    """The nearest-rank percentile ``q`` (0..100) of ``sorted_values``."""
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(rank) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 6, 10])
    parser.add_argument("--profiles", nargs="+", default=["classic-108", "gdj85+jump-in+stacking"])
    parser.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    args = parser.parse_args()
    print("profile  players  bot  count  median  p99  p99.9  p99.99  max  cap  over-cap")
    for profile in args.profiles:
        for n in args.players:
            for bot in args.bots:
                lengths = [round_length(profile, n, bot, seed) for seed in range(args.games)]
                for label, values, cap in (("table", [t for t, _ in lengths], auto_agent_steps(n)),
                                           ("seat-0", [m for _, m in lengths], auto_learner_steps(n))):
                    values.sort()
                    over = sum(v >= cap for v in values)
                    print(f"{profile}  {n}  {bot}  {label}  {percentile(values, 50)}  {percentile(values, 99)}  "
                          f"{percentile(values, 99.9)}  {percentile(values, 99.99)}  {values[-1]}  {cap}  "
                          f"{over}/{len(values)}", flush=True)


if __name__ == "__main__":
    main()
