"""Calling UNO, the catch window and its penalty (UNO-1..7, HOUSE-8)."""

from __future__ import annotations

import random
from typing import Literal

import attrs
import pytest
from helpers_uno import BLUE, CLASSIC, GREEN, RED, YELLOW, card, cards, catches, names, rejected
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u

PILE = "G1 G2 G3 G4 G5 G6"


def two_card_position(profile: u.Profile | str = CLASSIC, p0: str = "R5 G7", p1: str = "B5 B2 B3",
                      p2: str = "Y1 Y2 Y3", draw_pile: str = PILE, discard: str = "R3") -> u.GameState:
    """Player 0 to play from a two-card hand, three players, a known draw pile."""
    return u.from_position(profile, [p0, p1, p2], discard, draw_pile=draw_pile, current=0)


def missed_uno(profile: u.Profile | str = CLASSIC) -> u.GameState:
    """Player 0 has just played R5 from R5 G7 without calling UNO; player 1 is to act."""
    state = u.apply(two_card_position(profile), u.Play(0, card("R5")))
    assert state.uno_exposed == 0
    return state


# --- UNO-1: the call goes with the next-to-last card ---------------------------------------
def test_uno1_calling_with_the_next_to_last_card_opens_no_window() -> None:
    """UNO-1: Play(..., uno=True) from two cards: no catch window, nobody may catch."""
    state = u.apply(two_card_position(), u.Play(0, card("R5"), uno=True))
    assert state.uno_exposed == -1
    assert state.hands[0] == cards("G7")
    assert state.current == 1
    assert state.phase is u.Phase.PLAY
    assert catches(u.legal_moves(state)) == []
    assert u.view(state, 2).uno_exposed is None
    assert u.legal_moves(state, 2) == []


def test_uno1_plays_from_two_cards_are_listed_with_and_without_the_call() -> None:
    """UNO-1: from a two-card hand each play is offered both with and without the call."""
    state = two_card_position(p0="R5 R7")
    plays = [m for m in u.legal_moves(state, 0) if isinstance(m, u.Play)]
    assert plays == [u.Play(0, card("R5")), u.Play(0, card("R5"), uno=True),
                     u.Play(0, card("R7")), u.Play(0, card("R7"), uno=True)]


def test_uno1_no_call_offered_from_three_cards() -> None:
    """UNO-1: from a three-card hand no play carries the call."""
    state = two_card_position(p0="R5 R7 B9")
    plays = [m for m in u.legal_moves(state, 0) if isinstance(m, u.Play)]
    assert plays == [u.Play(0, card("R5")), u.Play(0, card("R7"))]


@pytest.mark.parametrize("hand", ["R5 G7 B9", "R5 G7 B9 Y4", "R5"])
def test_uno1_call_rejected_unless_playing_from_two_cards(hand: str) -> None:
    """UNO-1: Play with uno=True from a hand that is not two cards is rejected with rule UNO-1."""
    state = two_card_position(p0=hand)
    err = rejected(state, u.Play(0, card("R5"), uno=True))
    assert err.rule == "UNO-1"
    assert err.reason == "uno-not-next-to-last"
    assert err.player == 0
    assert err.move == u.Play(0, card("R5"), uno=True)


def test_uno1_wild_from_two_cards_with_call() -> None:
    """UNO-1: a wild played as next-to-last card with the call names its colour and opens no window."""
    state = u.apply(two_card_position(p0="W G7"), u.Play(0, card("W"), color=GREEN, uno=True))
    assert state.uno_exposed == -1
    assert state.color == GREEN
    assert state.hands[0] == cards("G7")


def test_uno1_drawn_card_is_the_next_to_last_card() -> None:
    """UNO-1/PLAY-4: a one-card hand draws a playable card; playing it without the call opens the window."""
    state = two_card_position(p0="G7", draw_pile="R9 G1 G2")
    state = u.apply(state, u.Draw(0))
    assert state.phase is u.Phase.DRAWN
    assert state.hands[0] == cards("R9 G7")
    moves = u.legal_moves(state, 0)
    assert u.Play(0, card("R9"), uno=True) in moves
    assert u.Play(0, card("R9")) in moves
    after = u.apply(state, u.Play(0, card("R9")))
    assert after.uno_exposed == 0
    assert after.hands[0] == cards("G7")
    called = u.apply(state, u.Play(0, card("R9"), uno=True))
    assert called.uno_exposed == -1


# --- UNO-2 / HOUSE-8: the window and the penalty ------------------------------------------
def test_uno2_missed_call_opens_window_for_every_other_player() -> None:
    """UNO-2/UNO-6: without the call, state.uno_exposed is set; every other player may catch, the player may call."""
    state = missed_uno()
    assert state.hands[0] == cards("G7")
    assert state.current == 1
    moves = u.legal_moves(state)
    assert catches(moves) == [u.CallUno(0), u.CatchUno(1, 0), u.CatchUno(2, 0)]
    assert u.CatchUno(0, 0) not in moves
    # in-turn moves first, then the call, then the catches
    turn = [m for m in moves if m.player == 1 and not isinstance(m, u.CatchUno)]
    assert moves == [*turn, u.CallUno(0), u.CatchUno(1, 0), u.CatchUno(2, 0)]
    assert turn == [u.Play(1, card("B5")), u.Draw(1)]


def test_uno6_out_of_turn_moves_listed_per_player() -> None:
    """UNO-6: legal_moves(state, player) and view().legal_moves list the out-of-turn call and catches."""
    state = missed_uno()
    assert u.legal_moves(state, 0) == [u.CallUno(0)]
    assert u.legal_moves(state, 1) == [u.Play(1, card("B5")), u.Draw(1), u.CatchUno(1, 0)]
    assert u.legal_moves(state, 2) == [u.CatchUno(2, 0)]
    assert u.view(state, 0).legal_moves == (u.CallUno(0),)
    assert u.view(state, 2).legal_moves == (u.CatchUno(2, 0),)
    for p in range(3):
        assert u.view(state, p).uno_exposed == 0


@pytest.mark.parametrize("catcher", [1, 2])
def test_uno2_catch_draws_classic_penalty_of_two(catcher: int) -> None:
    """UNO-2/HOUSE-8: in classic-108 the caught player draws exactly 2, from the top of the draw pile."""
    state = missed_uno()
    after = u.apply(state, u.CatchUno(catcher, 0))
    assert CLASSIC.uno_penalty == 2
    assert after.hands[0] == cards("G1 G2 G7")
    assert after.hands[1] == state.hands[1]
    assert after.hands[2] == state.hands[2]
    assert after.remaining_draw_pile == u.parse_cards("G3 G4 G5 G6")
    assert after.uno_exposed == -1
    assert after.current == 1
    assert after.phase is u.Phase.PLAY
    assert catches(u.legal_moves(after)) == []


def test_uno2_catch_draws_mattel_penalty_of_four() -> None:
    """UNO-2/HOUSE-8: in mattel-42003 the caught player draws exactly 4."""
    state = missed_uno("mattel-42003")
    assert state.profile.uno_penalty == 4
    after = u.apply(state, u.CatchUno(2, 0))
    assert after.hands[0] == cards("G1 G2 G3 G4 G7")
    assert after.remaining_draw_pile == u.parse_cards("G5 G6")
    assert after.uno_exposed == -1


@pytest.mark.parametrize("penalty", [1, 3, 4, 6])
def test_house8_penalty_is_the_profile_value(penalty: int) -> None:
    """HOUSE-8: the penalty is profile.uno_penalty, whatever it is."""
    state = missed_uno(attrs.evolve(CLASSIC, uno_penalty=penalty))
    after = u.apply(state, u.CatchUno(1, 0))
    assert len(after.hands[0]) == 1 + penalty
    assert after.hands[0] == tuple(sorted((card("G7"), *u.parse_cards(PILE)[:penalty])))
    assert after.draw_pile_size == 6 - penalty


def test_uno2_penalty_with_short_pile_draws_what_there_is() -> None:
    """UNO-2/PLAY-7: a penalty of 4 with one card in the pile reshuffles the discard pile, then takes what there is."""
    state = u.apply(two_card_position("mattel-42003", draw_pile="G1"), u.Play(0, card("R5")))
    after = u.apply(state, u.CatchUno(1, 0))
    assert after.hands[0] == cards("G1 R3 G7")
    assert after.draw_pile_size == 0
    assert after.discard_pile == (card("R5"),)


def test_uno2_only_one_catch_per_window() -> None:
    """UNO-2/UNO-3: after one catch the window is closed; a second catch is rejected (the caught player
    now holds three cards: there is no next-to-last card to catch, UNO-3)."""
    state = u.apply(missed_uno(), u.CatchUno(1, 0))
    err = rejected(state, u.CatchUno(2, 0))
    assert err.rule == "UNO-3"
    assert err.reason == "not-catchable"


# --- UNO-3: not before the card is played -------------------------------------------------
def test_uno3_no_catch_before_next_to_last_card_is_played() -> None:
    """UNO-3: a player holding two cards (about to play) cannot be caught."""
    state = two_card_position()
    assert catches(u.legal_moves(state)) == []
    for p in range(3):
        assert not any(isinstance(m, u.CatchUno) for m in u.legal_moves(state, p))
    err = rejected(state, u.CatchUno(1, 0))
    assert err.reason == "not-catchable"
    assert err.player == 1


def test_uno3_one_card_hand_never_exposed_cannot_be_caught() -> None:
    """UNO-3/UNO-6: a one-card hand that was never played down to (built position) opens no window."""
    state = u.from_position(CLASSIC, ["G7", "B5 B2", "Y1 Y2"], "R3", draw_pile=PILE, current=1)
    assert state.uno_exposed == -1
    assert catches(u.legal_moves(state)) == []
    assert rejected(state, u.CatchUno(2, 0)).reason == "not-catchable"


# --- UNO-4: self-catch --------------------------------------------------------------------
def test_uno4_late_call_closes_window_without_penalty() -> None:
    """UNO-4: CallUno by the exposed player closes the window; no card drawn; turn unchanged."""
    state = missed_uno()
    after = u.apply(state, u.CallUno(0))
    assert after.uno_exposed == -1
    assert after.hands == state.hands
    assert after.draw_pile_size == state.draw_pile_size
    assert after.current == 1
    assert after.phase is u.Phase.PLAY
    assert catches(u.legal_moves(after)) == []
    err = rejected(after, u.CatchUno(2, 0))
    assert err.rule == "UNO-5"


def test_uno4_call_by_a_player_who_owes_none_rejected() -> None:
    """UNO-4: CallUno from a player with no open window is rejected."""
    state = missed_uno()
    err = rejected(state, u.CallUno(1))
    assert err.rule == "UNO-4"
    assert err.reason == "no-uno-owed"
    err = rejected(two_card_position(), u.CallUno(0))
    assert err.rule == "UNO-4"


def test_uno4_call_after_being_caught_rejected() -> None:
    """UNO-4: once caught, calling is too late."""
    state = u.apply(missed_uno(), u.CatchUno(2, 0))
    assert rejected(state, u.CallUno(0)).rule == "UNO-4"


# --- UNO-5: beginning the next turn closes the window --------------------------------------
def test_uno5_next_player_playing_closes_window() -> None:
    """UNO-5: once the next player plays, catching is rejected with rule UNO-5."""
    state = u.apply(missed_uno(), u.Play(1, card("B5")))
    assert state.uno_exposed == -1
    assert state.hands[0] == cards("G7")
    assert catches(u.legal_moves(state)) == []
    for catcher in (1, 2):
        err = rejected(state, u.CatchUno(catcher, 0))
        assert err.rule == "UNO-5"
        assert err.reason == "not-catchable"
    assert rejected(state, u.CallUno(0)).rule == "UNO-4"


def test_uno5_next_player_drawing_closes_window() -> None:
    """UNO-5: drawing begins the turn; the window closes at the Draw, though the drawn G1 is unplayable and
    the drawer must still Pass (PLAY-4 RULING), and stays closed after the Pass."""
    state = u.apply(missed_uno(), u.Draw(1))
    assert state.hands[1] == cards("B2 B3 B5 G1")
    assert (state.current, state.phase, state.drawn) == (1, u.Phase.DRAWN, card("G1"))
    assert state.uno_exposed == -1
    assert u.legal_moves(state, 1) == [u.Pass(1)]
    assert u.legal_moves(state) == [u.Pass(1)]
    err = rejected(state, u.CatchUno(2, 0))
    assert err.rule == "UNO-5"
    assert rejected(state, u.CallUno(0)).rule == "UNO-4"
    state = u.apply(state, u.Pass(1))
    assert (state.current, state.phase, state.drawn) == (2, u.Phase.PLAY, None)
    assert state.hands[1] == cards("B2 B3 B5 G1")
    assert state.hands[0] == cards("G7")
    assert state.uno_exposed == -1
    assert catches(u.legal_moves(state)) == []
    assert rejected(state, u.CatchUno(2, 0)).rule == "UNO-5"


def test_uno5_drawing_a_playable_card_closes_window() -> None:
    """UNO-5: a draw that leaves the drawer in the DRAWN phase also closes the window."""
    state = u.apply(two_card_position(draw_pile="R1 G2 G3"), u.Play(0, card("R5")))
    state = u.apply(state, u.Draw(1))
    assert state.phase is u.Phase.DRAWN
    assert state.uno_exposed == -1
    assert rejected(state, u.CatchUno(2, 0)).rule == "UNO-5"


def test_uno5_window_open_while_exposed_players_next_player_has_not_acted() -> None:
    """UNO-5: out-of-turn moves by others (a late call attempt, a failed catch) do not close the window."""
    state = missed_uno()
    rejected(state, u.CallUno(2))
    rejected(state, u.CatchUno(0, 0))
    assert state.uno_exposed == 0
    assert u.apply(state, u.CatchUno(2, 0)).hands[0] == cards("G1 G2 G7")


# --- UNO-6: nobody notices; no self-catch --------------------------------------------------
def test_uno6_no_catch_means_no_penalty_ever() -> None:
    """UNO-6: nobody catches; the window closes and the player keeps one card, then goes out normally."""
    state = missed_uno()
    state = u.apply(state, u.Play(1, card("B5")))
    state = u.apply(state, u.Draw(2))  # G1 does not match B5: player 2 can only keep it
    assert (state.current, state.phase, state.drawn) == (2, u.Phase.DRAWN, card("G1"))
    assert u.legal_moves(state) == [u.Pass(2)]
    state = u.apply(state, u.Pass(2))
    assert (state.current, state.phase) == (0, u.Phase.PLAY)
    assert state.hands[0] == cards("G7")
    assert state.hands[2] == cards("Y1 Y2 Y3 G1")
    assert catches(u.legal_moves(state)) == []
    assert u.legal_moves(state, 1) == []
    state = u.apply(state, u.Draw(0))  # G2 does not match B5 either
    assert state.hands[0] == cards("G2 G7")
    assert (state.current, state.phase, state.drawn) == (0, u.Phase.DRAWN, card("G2"))
    assert u.legal_moves(state) == [u.Pass(0)]
    assert state.uno_exposed == -1
    state = u.apply(state, u.Pass(0))
    assert (state.current, state.phase) == (1, u.Phase.PLAY)
    assert state.hands[0] == cards("G2 G7")
    assert state.uno_exposed == -1


def test_uno6_cannot_catch_yourself() -> None:
    """UNO-6: CatchUno(p, p) is rejected with rule UNO-6 and never listed."""
    state = missed_uno()
    assert u.CatchUno(0, 0) not in u.legal_moves(state)
    assert u.CatchUno(0, 0) not in u.legal_moves(state, 0)
    err = rejected(state, u.CatchUno(0, 0))
    assert err.rule == "UNO-6"
    assert err.reason == "cannot-catch-self"
    assert err.player == 0


def test_uno6_catching_the_wrong_player_rejected() -> None:
    """UNO-6/UNO-3: only the exposed player can be caught; player 1 holds several cards (UNO-3)."""
    state = missed_uno()
    err = rejected(state, u.CatchUno(2, 1))
    assert err.reason == "not-catchable"
    assert err.rule == "UNO-3"


# --- UNO-7: turns consumed by penalties -----------------------------------------------------
@pytest.mark.parametrize("action", ["R+2", "RS"])
def test_uno7_window_stays_open_after_a_consumed_turn(action: str) -> None:
    """UNO-7: after a Draw Two or Skip consumes player 1's turn, player 0 can still be caught until player 2 acts."""
    start = two_card_position(p0=f"{action} G7", p2="R4 Y2 Y3")
    state = u.apply(start, u.Play(0, card(action)))
    assert state.current == 2
    assert state.uno_exposed == 0
    drawn = 2 if action == "R+2" else 0
    assert len(state.hands[1]) == 3 + drawn
    assert catches(u.legal_moves(state)) == [u.CallUno(0), u.CatchUno(1, 0), u.CatchUno(2, 0)]
    assert u.legal_moves(state, 1) == [u.CatchUno(1, 0)]
    caught = u.apply(state, u.CatchUno(1, 0))
    assert caught.hands[0] == tuple(sorted((card("G7"), *u.parse_cards(PILE)[drawn:drawn + 2])))
    assert caught.current == 2
    # the following player acting closes it
    moved = u.apply(state, u.Play(2, card("R4")))
    assert moved.uno_exposed == -1
    assert rejected(moved, u.CatchUno(1, 0)).rule == "UNO-5"


def test_uno7_two_players_draw_two_window_open_on_exposed_players_own_turn() -> None:
    """UNO-7: with two players a Draw Two brings the turn back to the exposed player; the window is still open."""
    state = u.from_position(CLASSIC, ["R+2 G7", "B5 B2"], "R3", draw_pile=PILE, current=0)
    state = u.apply(state, u.Play(0, card("R+2")))
    assert state.current == 0
    assert state.hands[1] == cards("B2 B5 G1 G2")
    assert state.uno_exposed == 0
    assert u.legal_moves(state, 1) == [u.CatchUno(1, 0)]
    caught = u.apply(state, u.CatchUno(1, 0))
    assert caught.hands[0] == cards("G3 G4 G7")
    assert caught.current == 0


def test_uno7_wild_draw_four_window_open_during_challenge_decision() -> None:
    """UNO-7: after a Wild Draw Four (challenge mode) the window is open while the victim decides."""
    state = u.apply(two_card_position(p0="W+4 G7"), u.Play(0, card("W+4"), color=BLUE))
    assert state.phase is u.Phase.CHALLENGE
    assert state.current == 1
    assert state.uno_exposed == 0
    assert u.legal_moves(state) == [u.Challenge(1), u.Accept(1), u.CallUno(0), u.CatchUno(1, 0),
                                    u.CatchUno(2, 0)]
    assert u.legal_moves(state, 1) == [u.Challenge(1), u.Accept(1), u.CatchUno(1, 0)]
    assert u.legal_moves(state, 2) == [u.CatchUno(2, 0)]
    assert u.legal_moves(state, 0) == [u.CallUno(0)]
    caught = u.apply(state, u.CatchUno(2, 0))
    assert caught.hands[0] == cards("G1 G2 G7")
    assert caught.phase is u.Phase.CHALLENGE
    assert caught.current == 1


def test_uno7_challenge_closes_the_window() -> None:
    """UNO-7: the victim's Challenge closes the window (innocent attacker: challenger draws 6)."""
    state = u.apply(two_card_position(p0="W+4 G7"), u.Play(0, card("W+4"), color=BLUE))
    after = u.apply(state, u.Challenge(1))
    assert after.uno_exposed == -1
    assert after.hands[1] == cards("B2 B3 B5 G1 G2 G3 G4 G5 G6")
    assert after.hands[0] == cards("G7")
    assert after.current == 2
    err = rejected(after, u.CatchUno(1, 0))
    assert err.rule == "UNO-5"


@pytest.mark.parametrize("mode", ["challenge", "enforced", "unrestricted"])
def test_uno7_victim_taking_the_four_keeps_window_open_in_every_mode(
        mode: Literal["challenge", "enforced", "unrestricted"]) -> None:
    """UNO-7 ruling: the victim who takes the four, by Accept in challenge mode or at once in the
    other modes, has not begun a turn (UNO-5): the same window stays open until player 2 acts."""
    profile = attrs.evolve(CLASSIC, wild_draw_four=mode)
    state = u.apply(two_card_position(profile, p0="W+4 G7", p2="B1 Y2 Y3"), u.Play(0, card("W+4"), color=BLUE))
    if mode == "challenge":
        state = u.apply(state, u.Accept(1))
    assert state.phase is u.Phase.PLAY
    assert state.current == 2
    assert state.hands[1] == cards("B2 B3 B5 G1 G2 G3 G4")
    assert state.uno_exposed == 0
    assert u.legal_moves(state, 1) == [u.CatchUno(1, 0)]
    caught = u.apply(state, u.CatchUno(1, 0))
    assert caught.hands[0] == cards("G5 G6 G7")
    moved = u.apply(state, u.Play(2, card("B1")))
    assert moved.uno_exposed == -1
    assert rejected(moved, u.CatchUno(1, 0)).rule == "UNO-5"


def test_uno_swap_to_one_card_owes_no_call() -> None:
    """UNO-1 ruling: reaching one card through Swap Hands (from three cards) opens no window."""
    state = u.from_position("ffk04", ["WSW R5 R6", "B1", "Y1 Y2"], "R3", draw_pile=PILE, current=0)
    after = u.apply(state, u.Play(0, card("WSW"), color=YELLOW, target=1))
    assert after.hands[0] == cards("B1")
    assert after.hands[1] == cards("R5 R6")
    assert after.uno_exposed == -1
    assert catches(u.legal_moves(after)) == []


def test_uno_colour_of_wild_unchanged_by_catch() -> None:
    """UNO-2: a catch changes only the caught hand and the draw pile, not colour, direction or turn."""
    state = u.apply(two_card_position(p0="W G7"), u.Play(0, card("W"), color=RED))
    after = u.apply(state, u.CatchUno(1, 0))
    assert after.color == RED
    assert after.direction == state.direction
    assert after.current == state.current == 1
    assert after.discard_pile == state.discard_pile
    assert names(after.hands[0]) == "G1 G2 G7"


# --- random play: the window is consistent with the rules ------------------------------------
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       name=st.sampled_from(["classic-108", "gdj85", "ffk04", "mattel-42003"]))
def test_uno_window_invariants_in_random_play(seed: int, players: int, name: str) -> None:
    """UNO-2/UNO-4/UNO-6: in random play an exposed player holds one card, every other player may catch,
    and a catch draws exactly the penalty (or what there is)."""
    rng = random.Random(seed)
    state = u.new_game(name, players, seed=seed)
    for _ in range(3000):
        if state.round_over:
            break
        moves = u.legal_moves(state)
        e = state.uno_exposed
        if e >= 0:
            assert len(state.hands[e]) == 1
            expected = [u.CallUno(e), *(u.CatchUno(q, e) for q in range(players) if q != e)]
            assert catches(moves) == expected
            catcher = (e + 1) % players
            caught = u.apply(state, u.CatchUno(catcher, e))
            available = state.draw_pile_size + len(state.discard_pile) - 1
            assert len(caught.hands[e]) == 1 + min(state.profile.uno_penalty, available)
            assert caught.uno_exposed == -1
        else:
            assert catches(moves) == []
        state = u.apply(state, rng.choice(moves))
