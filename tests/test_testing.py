"""unoengine.testing, the kit for downstream test suites: its strategies draw what they promise, and its
random-game check passes a sound bot and wrapper but catches an illegal bot move or a broken wrapper."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine import testing as ut


@settings(max_examples=40, deadline=None)
@given(profile=ut.profiles())
def test_profiles_compose_shipped_overlays(profile: u.Profile) -> None:
    """HOUSE-1..8: a drawn profile is valid and deals a game."""
    state = u.new_game(profile, profile.min_players, seed=1)
    ut.check_cards_conserved(state)


@settings(max_examples=30, deadline=None)
@given(state=ut.states(max_moves=120), data=st.data())
def test_states_are_reachable_and_moves_split_legal_and_illegal(state: u.GameState, data: st.DataObject) -> None:
    """DECK-5, PLAY-1..8: drawn states keep the invariants; legal_moves_in applies, illegal_moves_in is refused."""
    ut.check_cards_conserved(state)
    ut.check_phase_consistency(state)
    if state.match_over:
        return
    move = data.draw(ut.legal_moves_in(state))
    ut.check_transition(state, move, u.apply(state, move))
    bad = data.draw(ut.illegal_moves_in(state))
    assert ut.check_illegal_moves_rejected(state, [bad]) == 1


@pytest.mark.parametrize("spec", ["classic-108", "gdj85+stacking-cross+jump-in", "ffk04+seven-zero+draw-to-match"])
def test_random_game_check_passes_a_sound_bot(spec: str) -> None:
    """Every invariant over a match of random bots acting in turn and out of turn (catches, jump-ins)."""
    profile = attrs.evolve(u.load_profile(spec), target_score=100)
    state = ut.check_random_game(ut.random_bot(random.Random(3)), profile, 4, seed=3, rounds=3)
    assert state.round_over


def test_random_game_check_catches_an_illegal_bot_move() -> None:
    """PLAY-1: a bot that plays a card it may not play fails the check, naming the bot's seat and move."""
    rng = random.Random(1)
    honest = ut.random_bot(rng)

    def cheat(v: u.PlayerView) -> u.Move | None:
        if v.current == v.player and v.phase is u.Phase.PLAY:
            unplayable = [c for c in v.hand if u.Play(v.player, c) not in v.legal_moves and not c.is_wild]
            if unplayable:
                return u.Play(v.player, unplayable[0])
        return honest(v)

    with pytest.raises(AssertionError, match="which is not legal"):
        ut.check_random_game([honest, cheat, honest], "classic-108", 3, seed=5)


def test_random_game_check_catches_a_wrapper_that_loses_cards() -> None:
    """DECK-5: a transition wrapper that drops a card from the draw pile breaks card conservation."""

    def leaky(state: u.GameState, move: u.Move) -> u.GameState:
        new = u.apply(state, move)
        if isinstance(move, u.Draw) and new.draw_pile_size > 1:
            return attrs.evolve(new, draw_pile=new.draw_pile[:-1])
        return new

    with pytest.raises(AssertionError, match="cards not conserved"):
        ut.check_random_game(ut.random_bot(random.Random(2)), "classic-108", 3, seed=2, transition=leaky)


def test_bots_must_act_on_their_turn() -> None:
    """PLAY-8: a bot that does nothing on its own turn fails the check."""
    with pytest.raises(AssertionError, match="made no move on its turn"):
        ut.check_random_game(lambda v: None, "classic-108", 2, seed=1)


def test_the_kit_takes_the_bots_of_unoengine_bots() -> None:
    """The same bot objects as simulate: HeuristicBot() and RandomBot() play a checked match of
    three rounds, each seat with a random generator of its own (issue: a TypeError before)."""
    from unoengine.bots import HeuristicBot, RandomBot

    state = ut.check_random_game([HeuristicBot(), RandomBot(), RandomBot()], "classic-108", 3, seed=4, rounds=3)
    assert state.match.round_number >= 3
    again = ut.check_random_game([HeuristicBot(), RandomBot(), RandomBot()], "classic-108", 3, seed=4, rounds=3)
    assert again == state  # reproducible from the seed
    ut.check_random_game(HeuristicBot(), "gdj85+stacking", 4, seed=2)  # one bot for every seat


def test_my_turn_names_the_next_dealer_after_a_round() -> None:
    """SETUP-11: after a round the next dealer's move is NextRound, so the view says it is their move."""
    state = ut.check_random_game(ut.random_bot(random.Random(3)), "classic-108", 3, seed=3)
    assert state.phase is u.Phase.ROUND_OVER
    dealer = next(m.player for m in u.legal_moves(state) if isinstance(m, u.NextRound))
    assert [u.view(state, p).my_turn for p in range(3)] == [p == dealer for p in range(3)]
