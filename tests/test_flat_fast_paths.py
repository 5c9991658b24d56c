"""The shortcuts of "Flat across players" and "Simulations" (docs/performance.md) give exactly
what the plain code gives.

* the per-owner index of knowledge (ACT-7, HOUSE-3, WD4-3) against the entries it indexes, on
  random games;
* ``simulate.play_game`` (no events unless a penalty may be drawn, no view for a bot that needs
  none, the legal-move list reused) against the plain loop it replaces: a view for every bot,
  ``apply_with_events`` for every move.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from budget import budget

import unoengine as u
from unoengine.bots import make_bot
from unoengine.bots.turns import BotError, tell_bots
from unoengine.engine.events import CardsDrawn
from unoengine.engine.knowledge import IndexedKnown
from unoengine.tools.simulate import PENALTY_RULES, GameResult, may_draw_penalty, play_game


@pytest.mark.parametrize("spec,players", [
    ("classic-108", 10), ("classic-108+seven-zero", 6), ("mattel-42003", 8), ("gdj85+jump-in", 4),
])
def test_knowledge_index_is_the_entries_it_indexes(spec: str, players: int) -> None:
    profile = u.resolve_profile(spec)
    rng = random.Random(players)
    checked = 0
    for game in range(budget(3, 40)):
        state = u.new_game(profile, players, seed=game)
        while not state.round_over:
            moves = u.legal_moves(state)
            state = u.apply(state, moves[rng.randrange(len(moves))])
            known = state.known
            if type(known) is IndexedKnown:
                for owner, cards in known.owned.items():
                    assert cards == frozenset(c for _v, o, cs in known for c in cs if o == owner)
                    checked += 1
    assert checked > 0


def _plain_play_game(profile: u.Profile, bots: list[str], seed: int) -> tuple[GameResult, list[u.Move]]:
    """simulate.play_game as it was: every bot asked through a view, events for every move."""
    seats = [make_bot(name) for name in bots]
    rngs = [random.Random(f"{seed}/seat{i}") for i in range(len(seats))]
    state = u.new_game(profile, len(seats), seed=seed)
    moves: list[u.Move] = []
    penalties: Counter[str] = Counter()
    n = len(seats)
    while not state.round_over:
        legal = u.legal_moves(state)
        acting = {m.player for m in legal}
        current = state.current
        move = None
        for q in [(current + k) % n for k in range(1, n)] + [current]:
            if q in acting:
                v = u.view(state, q)
                move = seats[q].act(v, rngs[q])
                if move is not None:
                    assert move in v.legal_moves
                    break
        if move is None:
            raise BotError("no move")
        state, events = u.apply_with_events(state, move)
        tell_bots(seats, move)
        moves.append(move)
        for e in events:
            if isinstance(e, CardsDrawn) and e.rule in PENALTY_RULES:
                penalties[e.rule] += e.count
    last = state.match.last_round
    assert last is not None
    return GameResult(0, seed, last.winner, len(moves), last.points_won, tuple(sorted(penalties.items()))), moves


@pytest.mark.parametrize("spec,bots", [
    ("classic-108", ["random", "random"]),
    ("classic-108", ["random"] * 10),
    ("classic-108+stacking", ["random", "heuristic", "random", "random"]),
    ("mattel-42003+jump-in", ["random"] * 5),
    ("gdj85+seven-zero", ["heuristic", "random", "random"]),
])
def test_play_game_gives_what_the_plain_loop_gives(spec: str, bots: list[str]) -> None:
    profile = u.resolve_profile(spec)
    for seed in range(budget(3, 20)):
        moves: list[u.Move] = []
        fast = play_game(profile, bots, seed, moves_out=moves)
        plain, plain_moves = _plain_play_game(profile, bots, seed)
        assert fast == plain
        assert moves == plain_moves


@pytest.mark.parametrize("spec", ["classic-108", "classic-108+stacking-cross", "mattel-42003+jump-in",
                                  "ffk04+wd4-first-card-applies", "gdj85+seven-zero"])
def test_moves_said_to_draw_no_penalty_draw_none(spec: str) -> None:
    profile = u.resolve_profile(spec)
    rng = random.Random(3)
    quiet = 0
    for game in range(budget(5, 60)):
        state = u.new_game(profile, rng.randrange(2, 7), seed=game)
        while not state.match_over:
            moves = u.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
            state, events = u.apply_with_events(state, move)
            if not may_draw_penalty(move):
                quiet += 1
                assert not [e for e in events if isinstance(e, CardsDrawn) and e.rule in PENALTY_RULES], move
            if state.round_over and rng.random() < 0.7:
                break
    assert quiet > 0


def test_shipped_profiles_are_read_once_and_files_every_time(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from unoengine.formats.composition import resolve_profile

    first = resolve_profile("gdj85+jump-in")
    assert resolve_profile("gdj85+jump-in") is first
    assert first == u.load_profile("gdj85+jump-in")
    for _ in range(2):  # a bad name is refused every time, never kept
        with pytest.raises(u.ProfileError):
            resolve_profile("no-such-profile")
    path = tmp_path / "mine.toml"
    path.write_text('extends = "classic-108"\nname = "mine"\n[setup]\nhand_size = 5\n')
    assert resolve_profile(str(path)).hand_size == 5
    path.write_text('extends = "classic-108"\nname = "mine"\n[setup]\nhand_size = 6\n')
    assert resolve_profile(str(path)).hand_size == 6
