"""What a 10-player move would cost without the two largest costs it has over a 2-player one.

    python benchmarks/players_whatif.py --report [--games 40]     # needs valgrind, a few minutes
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/players_whatif.py VARIANT PLAYERS GAMES

Issue 17 item 2 asks for 10 players at 0.85x the 2-player moves/s of the bare loop (a cost
ratio of at most 1.18). This is a what-if, not the engine: each variant plays the bare loop
(``legal_moves``, a random pick, ``apply``; benchmarks/bench_vs_rlcard.py) with part of the
engine replaced, to see how far the ratio could come down if that part cost nothing:

- ``plain``: the engine as it is;
- ``cheap-reshuffle``: the PLAY-7 reshuffle shuffles with a 64-bit LCG written in Python
  instead of the profile's shuffle (the portable SplitMix64 by default; the figures of
  docs/performance.md were taken when it was a fresh ``random.Random`` seeded from the state's
  seed each time, MT19937's key schedule); games differ after the first reshuffle;
- ``no-knowledge``: what players know of other hands (ACT-7, HOUSE-3, WD4-3) is never updated,
  which breaks the rules (a lower bound that is no longer one); only the cost is of interest;
- ``both``: the two together.

``--report`` runs each variant at 2 and 10 players under callgrind, subtracts a run of no
games (start-up), and prints instructions per move and the 10-over-2 ratio.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys

import unoengine
from unoengine.engine import draft, transition
from unoengine.engine.cards import Card

VARIANTS = ("plain", "cheap-reshuffle", "no-knowledge", "both")
_MASK64 = (1 << 64) - 1


def _lcg_shuffle(self: draft.Draft, cards: list[Card]) -> None:
    """Fisher-Yates from a 64-bit LCG seeded by the state's seed (Knuth's MMIX constants)."""
    x = self.rng
    for i in range(len(cards) - 1, 0, -1):
        x = (x * 6364136223846793005 + 1442695040888963407) & _MASK64
        j = (x >> 33) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    self.rng = x


def use(variant: str) -> None:
    """Replace the parts of the engine that ``variant`` leaves out (for this process only)."""
    if variant in ("cheap-reshuffle", "both"):
        draft.Draft.shuffle = _lcg_shuffle  # type: ignore[method-assign]
    if variant in ("no-knowledge", "both"):
        transition.after_play = lambda known, owner, card: known  # type: ignore[assignment]
        transition.merge = lambda known, learned: known  # type: ignore[assignment]


def play(players: int, games: int) -> int:
    """The bare loop over ``games`` rounds of classic-108; the number of moves."""
    profile = unoengine.load_profile("classic-108")
    rng = random.Random(1000)
    moves = 0
    for g in range(games):
        state = unoengine.new_game(profile, players, 1000 + g)
        while not state.round_over:
            options = unoengine.legal_moves(state)
            state = unoengine.apply(state, options[rng.randrange(len(options))])
            moves += 1
    return moves


def _instructions(variant: str, players: int, games: int) -> tuple[int, int]:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
         variant, str(players), str(games)],
        capture_output=True, text=True, check=True,
    )
    moves = int(re.search(r"^moves (\d+)", out.stdout, re.M).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"Collected : (\d+)", out.stderr).group(1))  # type: ignore[union-attr]
    return moves, total


def report(games: int) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("players_whatif.py --report needs valgrind")
    _, start_up = _instructions("plain", 2, 0)
    print(f"{games} rounds of classic-108 per figure; instructions per move (callgrind, start-up left out)")
    print(f"{'variant':<16} {'2 players':>10} {'10 players':>11} {'10 over 2':>10}")
    for variant in VARIANTS:
        per_move = {}
        for n in (2, 10):
            moves, total = _instructions(variant, n, games)
            per_move[n] = (total - start_up) / moves
        print(f"{variant:<16} {per_move[2]:>10,.0f} {per_move[10]:>11,.0f} {per_move[10] / per_move[2]:>10.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", choices=VARIANTS)
    parser.add_argument("players", nargs="?", type=int, default=10)
    parser.add_argument("games", nargs="?", type=int, default=40)
    parser.add_argument("--report", action="store_true", help="every variant at 2 and 10 players under callgrind")
    parser.add_argument("--games", dest="report_games", type=int, default=40, help="rounds per figure with --report")
    args = parser.parse_args()
    if args.report:
        report(args.report_games)
        return
    if args.variant is None:
        parser.error("give a variant, or --report")
    use(args.variant)
    print(f"moves {play(args.players, args.games)}")


if __name__ == "__main__":
    main()
