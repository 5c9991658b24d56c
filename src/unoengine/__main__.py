"""Command line: ``unoengine demo`` plays one readable game between simple scripted bots.

The bots here are deliberately plain (play the first playable card, prefer keeping wilds,
call UNO, catch others, never challenge) so the output shows the rules at work; real bots
come with the ``simulate`` command of a later release.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .cards import IS_WILD
from .dealing import new_game
from .legality import legal_moves
from .moves import Accept, CatchUno, Draw, Move, Pass, Play
from .profile_file import shipped_profiles
from .scoring import hand_points
from .state import GameState, Phase
from .transition import apply


def _pick(state: GameState, moves: list[Move]) -> Move:
    """A plain sensible choice: catch, then play (UNO called, wilds last), else draw/pass."""
    catches = [m for m in moves if isinstance(m, CatchUno)]
    if catches:
        return catches[0]
    own = [m for m in moves if m.player == state.current]
    plays = [m for m in own if isinstance(m, Play) and (m.uno or len(state.hands[m.player]) != 2)]
    if plays:
        hand = state.hands[state.current]
        # name the colour held most; play coloured cards before wilds
        counts = [sum(1 for c in hand if c < 52 and c // 13 == k) for k in range(4)]
        best = max(range(4), key=lambda k: counts[k])
        plays.sort(key=lambda m: (IS_WILD[m.card], m.color is not None and m.color != best))
        return plays[0]
    for kind in (Accept, Draw, Pass):
        for m in own:
            if isinstance(m, kind):
                return m
    return own[0] if own else moves[0]


def _describe(before: GameState, move: Move, after: GameState) -> str:
    text = f"{move!r:<28}"
    p = move.player
    if isinstance(move, Draw):
        text += f" draws ({len(after.hands[p])} cards)"
    elif isinstance(move, Play):
        text += f" -> top {after.top_card!r}, colour {'RYGB'[after.color]}"
    if after.uno_exposed >= 0:
        text += f"  [p{after.uno_exposed} forgot UNO]"
    return text


def demo(profile: str, players: int, seed: int, quiet: bool) -> int:
    state = new_game(profile, players, seed)
    print(f"unoengine demo: profile {profile}, {players} players, seed {seed}")
    print(f"dealer p{state.dealer}; first card {state.top_card!r}; hands of "
          f"{state.profile.hand_size} dealt")
    steps = 0
    while not state.round_over:
        move = _pick(state, legal_moves(state))
        after = apply(state, move)
        if not quiet:
            print(f"{steps:4d} {_describe(state, move, after)}")
        state, steps = after, steps + 1
    result = state.match.last_round
    assert result is not None
    how = "blocked round, lowest hand" if result.blocked else "went out"
    print(f"round over after {steps} moves: p{result.winner} wins ({how})")
    for i, hand in enumerate(state.hands):
        print(f"  p{i}: {hand_points(state.profile, hand):4d} points left  {' '.join(map(repr, hand))}")
    print(f"scores: {list(state.scores)}" + ("  (match over)" if state.phase is Phase.MATCH_OVER else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="unoengine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="play one readable round between scripted bots")
    d.add_argument("--profile", default="classic-108", help=f"one of {shipped_profiles()} or a TOML path")
    d.add_argument("--players", type=int, default=4)
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--quiet", action="store_true", help="print only the result")
    sub.add_parser("profiles", help="list the shipped profiles")
    args = parser.parse_args(argv)
    if args.command == "profiles":
        for name in shipped_profiles():
            print(name)
        return 0
    return demo(args.profile, args.players, args.seed, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
