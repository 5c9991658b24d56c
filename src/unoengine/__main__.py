"""Command line: ``unoengine demo`` plays one readable game between simple scripted bots;
``unoengine conformance`` runs the rule-conformance corpus (docs/conformance.md).

The bots here are deliberately plain (play the first playable card, prefer keeping wilds,
call UNO, catch others, never challenge) so the output shows the rules at work; real bots
come with the ``simulate`` command of a later release.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

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


def conformance(paths: Sequence[str], as_json: bool, verbose: bool, coverage: bool = False) -> int:
    """Run scenario files (or the shipped corpus) and print a summary; 1 if any scenario fails."""
    from . import conformance as c

    files = _scenario_files(paths) if paths else c.shipped_corpus()
    try:
        scenarios = c.load_scenarios(files)
    except c.ScenarioFileError as exc:
        print(exc, file=sys.stderr)
        return 2
    report = c.run(scenarios)
    if as_json:
        print(json.dumps({
            "scenarios": len(report.outcomes),
            "passed": report.count("passed"), "failed": report.count("failed"),
            "unsupported": report.count("unsupported"),
            "rules_declared": sorted(report.rules_declared()), "rules_exercised": sorted(report.rules_exercised()),
            "coverage": {rule: {"scenarios": n, "cited": cited} for rule, (n, cited) in report.coverage().items()},
            "failures": {o.scenario: list(o.failures) for o in report.outcomes if o.status == "failed"},
        }, indent=2))
        return 0 if report.ok else 1
    for o in report.outcomes:
        if o.status != "passed" or verbose:
            print(f"{o.status.upper():11} {o.scenario}  [{', '.join(o.rules)}]")
            for failure in o.failures:
                print(f"            {failure}")
    if coverage:
        print("rule        scenarios  cited by events or refusals")
        for rule, (count, cited) in report.coverage().items():
            print(f"{rule:11} {count:9d}  {'yes' if cited else '-'}")
    steps = sum(len(s["steps"]) for s in scenarios)
    print(
        f"conformance: {len(report.outcomes)} scenarios ({steps} steps) from {len(files)} file(s): "
        f"{report.count('passed')} passed, {report.count('failed')} failed, {report.count('unsupported')} unsupported; "
        f"{len(report.rules_declared())} rule IDs cited, {len(report.rules_exercised())} cited by events or refusals"
    )
    return 0 if report.ok else 1


def _scenario_files(paths: Sequence[str]) -> list[Path]:
    """The JSON files named, with a folder standing for every ``*.json`` file under it."""
    out: list[Path] = []
    for name in paths:
        path = Path(name)
        out.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="unoengine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="play one readable round between scripted bots")
    d.add_argument("--profile", default="classic-108", help=f"one of {shipped_profiles()} or a TOML path")
    d.add_argument("--players", type=int, default=4)
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--quiet", action="store_true", help="print only the result")
    sub.add_parser("profiles", help="list the shipped profiles")
    c = sub.add_parser("conformance", help="run rule-conformance scenario files (default: the shipped corpus)")
    c.add_argument("paths", nargs="*", help="scenario files or folders of them")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    c.add_argument("--verbose", action="store_true", help="list passing scenarios too")
    c.add_argument("--coverage", action="store_true", help="list each rule ID: scenarios declaring it, cited or not")
    args = parser.parse_args(argv)
    if args.command == "conformance":
        return conformance(args.paths, args.json, args.verbose, args.coverage)
    if args.command == "profiles":
        for name in shipped_profiles():
            print(name)
        return 0
    return demo(args.profile, args.players, args.seed, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
