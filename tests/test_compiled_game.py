"""The single-game API of the compiled engine (issue 34): CompiledGame deals, lists, checks and plays
as the reference engine does, refuses bad input with the reference's words and changes nothing,
and its whole-game kernel (kernel_playout) plays games the reference replays move for move."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

import attrs
from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile

import unoengine as u
from unoengine.compiled.codes import decode, encode
from unoengine.compiled.config import UnsupportedRuleError, config_of
from unoengine.compiled.convert import to_array
from unoengine.compiled.game import CompiledGame
from unoengine.compiled.kernel_playout import random_moves
from unoengine.engine.errors import IllegalMoveError, PositionError, UnoEngineError
from unoengine.engine.moves import Draw, Play


def _table(game: CompiledGame) -> dict[str, object]:
    n = game.num_players
    return {"current": game.current, "phase": game.phase, "color": game.color, "direction": game.direction,
            "top": game.top_card, "sizes": game.hand_sizes, "hands": tuple(game.hand(p) for p in range(n)),
            "scores": game.scores, "pending": game.pending_draw, "draw": game.draw_pile_size,
            "discard": game.discard_size, "exposed": game.uno_exposed, "dealer": game.dealer,
            "round_winner": game.round_winner, "match_winner": game.match_winner,
            "round_over": game.round_over, "match_over": game.match_over}


def _reference_table(state: u.GameState) -> dict[str, object]:
    last = state.match.last_round
    return {"current": state.current, "phase": state.phase, "color": state.color, "direction": state.direction,
            "top": state.top_card, "sizes": tuple(map(len, state.hands)), "hands": state.hands,
            "scores": state.scores, "pending": state.pending_draw, "draw": state.draw_pile_size,
            "discard": state.discard[1], "exposed": state.uno_exposed, "dealer": state.dealer,
            "round_winner": last.winner if state.round_over and last is not None else None,
            "match_winner": state.match.winner, "round_over": state.round_over, "match_over": state.match_over}


@pytest.mark.parametrize("players", [2, 4, 7, 10])
def test_a_match_through_the_api_equals_the_reference(players: int) -> None:
    """A whole match, move by move: the same deal, the same legal moves, the same table."""
    profile = compiled_profile("classic-108", target_score=200)
    rng = random.Random(players)
    for seed in range(budget(2, 10)):
        game, state = CompiledGame.new(profile, players, seed), u.new_game(profile, players, seed)
        for _ in range(20_000):
            assert game.to_state() == state
            assert _table(game) == _reference_table(state)
            if state.match_over:
                break
            moves = game.legal_moves()
            assert moves == u.legal_moves(state)
            move = rng.choice(moves)
            game.push(move if rng.random() < 0.5 else encode(move))
            state = u.apply(state, move)
        assert state.match_over


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_kernel_playouts_replay_on_the_reference(spec: str, changes: dict[str, object]) -> None:
    """Lockstep from the kernel's side: whole rounds chosen and played inside one compiled call, then
    replayed move by move on the reference, which must accept every move and end in the same state."""
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    rng = random.Random(5)
    for _ in range(budget(3, 30)):
        players = rng.randint(profile.min_players, min(profile.max_players, 8))
        state = u.new_game(profile, players, rng.getrandbits(64))
        while not state.match_over:
            a = to_array(state)
            trace = np.zeros(5000, dtype=np.int64)
            made = random_moves(cfg, a, 5000, rng.getrandbits(63), trace)
            for code in trace[:made]:
                move = decode(int(code))
                assert move in u.legal_moves(state)
                state = u.apply(state, move)
            assert CompiledGame(profile, cfg, a).to_state() == state
            if state.round_over and not state.match_over:
                state = u.apply(state, u.legal_moves(state)[0])  # deal the next round
            elif not state.round_over:
                break


def test_an_illegal_move_is_refused_with_the_references_words_and_changes_nothing() -> None:
    profile = compiled_profile("classic-108")
    game = CompiledGame.new(profile, 3, 11)
    before = game.to_state()
    other = (game.current + 1) % 3
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Draw(other))
    assert caught.value.rule == "PLAY-8"
    not_held = next(c for c in range(52) if c not in game.hand(game.current))
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Play(game.current, not_held, None))
    assert caught.value.rule == "PLAY-1"
    for junk in ("p0 draw", None, 3.5, True, -1, 1 << 40):
        with pytest.raises(IllegalMoveError):
            game.push(junk)  # type: ignore[arg-type]
    assert game.to_state() == before


def test_copies_are_independent() -> None:
    game = CompiledGame.new(compiled_profile("classic-108"), 2, 3)
    twin = game.copy()
    game.push(game.legal_codes()[0])
    assert twin.to_state() == CompiledGame.new(compiled_profile("classic-108"), 2, 3).to_state()
    assert twin.to_state() != game.to_state()
    with pytest.raises(ValueError):
        game.array[0] = 5  # read-only


def test_from_state_takes_any_reference_state() -> None:
    profile = compiled_profile("classic-108+stacking")
    state = u.from_position(profile, ["R+2 G5", "Y+2 B3", "G1 G2"], "R7", pending_draw=0)
    game = CompiledGame.from_state(state)
    assert game.to_state() == state
    game.push(Play(0, u.parse_card("R+2")))
    assert game.to_state() == u.apply(state, Play(0, u.parse_card("R+2")))


def test_bad_arguments_are_refused() -> None:
    profile = compiled_profile("classic-108")
    for players in (1, 11, True, "4", 2.0):
        with pytest.raises(PositionError, match="num_players"):
            CompiledGame.new(profile, players, 0)  # type: ignore[arg-type]
    for seed in (-1, 2**64, "7", None):
        with pytest.raises(PositionError, match="seed"):
            CompiledGame.new(profile, 2, seed)  # type: ignore[arg-type]
    with pytest.raises(UnsupportedRuleError):
        CompiledGame.new(attrs.evolve(profile, shuffle="mt19937"), 2, 0)
    with pytest.raises(UnoEngineError):
        CompiledGame.from_state("not a state")  # type: ignore[arg-type]
    game = CompiledGame.new(profile, 2, 0)
    assert game.legal_moves(5) == []
    with pytest.raises(PositionError):
        game.legal_moves("0")  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        game.hand(2)
