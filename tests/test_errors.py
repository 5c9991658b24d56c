"""Error handling: IllegalMoveError for moves, PositionError for impossible positions (PLAY-8, END-1, SCORE-2)."""

from __future__ import annotations

import attrs
import pytest
from helpers_uno import BLUE, CLASSIC, RED, card, rejected

import unoengine as u

PILE = "G1 G2 G3 G4 G5 G6"


def position() -> u.GameState:
    """Player 0 to play on R3; a fresh but identical state each call."""
    return u.from_position(CLASSIC, ["R5 G7 W", "B5 B2 B3", "Y1 Y2 Y3"], "R3", draw_pile=PILE, current=0)


def round_over() -> u.GameState:
    state = u.from_position(CLASSIC, ["R5", "B5 B2", "Y1 Y2"], "R3", draw_pile=PILE, current=0)
    state = u.apply(state, u.Play(0, card("R5")))
    assert state.phase is u.Phase.ROUND_OVER
    return state


def match_over() -> u.GameState:
    profile = attrs.evolve(CLASSIC, target_score=10)
    state = u.from_position(profile, ["R5", "B5 B2", "Y1 Y2"], "R3", draw_pile=PILE, current=0)
    state = u.apply(state, u.Play(0, card("R5")))
    assert state.phase is u.Phase.MATCH_OVER
    return state


# --- IllegalMoveError ------------------------------------------------------------------------
def test_illegal_move_error_is_a_value_error() -> None:
    """PLAY-8: IllegalMoveError is a ValueError (and an UnoEngineError); so are the other engine errors."""
    assert issubclass(u.IllegalMoveError, ValueError)
    assert issubclass(u.IllegalMoveError, u.UnoEngineError)
    assert issubclass(u.PositionError, ValueError)
    assert issubclass(u.ProfileError, ValueError)
    with pytest.raises(ValueError, match="not-your-turn"):
        u.apply(position(), u.Draw(1))


def test_illegal_move_error_attributes_and_message() -> None:
    """PLAY-8: the error carries rule, reason, player and move; the message names the player and the move."""
    move = u.Play(1, card("B5"))
    err = rejected(position(), move)
    assert err.rule == "PLAY-8"
    assert err.reason == "not-your-turn"
    assert err.player == 1
    assert err.move == move
    text = str(err)
    assert "player 1" in text
    assert repr(move) in text
    assert "PLAY-8" in text
    assert "not-your-turn" in text


@pytest.mark.parametrize(("move", "rule", "reason"), [
    (u.Play(0, card("B9")), "PLAY-1", "card-not-in-hand"),
    (u.Play(0, card("G7")), "PLAY-1", "card-does-not-match"),
    (u.Play(0, card("W")), "ACT-4", "colour-required"),
    (u.Play(0, card("R5"), color=BLUE), "PLAY-1", "colour-not-allowed"),
    (u.Play(0, card("W"), color=RED, target=1), "PLAY-1", "target-not-allowed"),
    (u.Play(0, card("R5"), uno=True), "UNO-1", "uno-not-next-to-last"),
    (u.Pass(0), "PLAY-7", "must-play"),
    (u.Challenge(0), "PLAY-1", "wrong-phase"),
    (u.ChooseColor(0, RED), "PLAY-1", "wrong-phase"),
    (u.NextRound(0), "END-1", "round-not-over"),
    (u.Draw(2), "PLAY-8", "not-your-turn"),
    (u.Challenge(1), "PLAY-8", "not-your-turn"),
    (u.CallUno(0), "UNO-4", "no-uno-owed"),
    (u.CatchUno(1, 0), "UNO-3", "not-catchable"),
    (u.CatchUno(2, 2), "UNO-6", "cannot-catch-self"),
])
def test_illegal_moves_carry_rule_and_reason(move: u.Move, rule: str, reason: str) -> None:
    """PLAY-1/PLAY-7/PLAY-8/ACT-4/UNO-1/UNO-3/UNO-4/UNO-6/END-1: each rejection names its rule and reason;
    state unchanged."""
    state = position()
    err = rejected(state, move)
    assert (err.rule, err.reason) == (rule, reason)
    assert err.player == move.player
    assert err.move == move
    assert f"player {move.player}" in str(err)
    assert repr(move) in str(err)
    assert state == position()


@pytest.mark.parametrize("thing", ["Draw(p0)", None, 0, (0,), u.Card(5), u.Color.RED, object()])
def test_non_move_objects_rejected(thing: object) -> None:
    """PLAY-8: apply() rejects anything that is not a move with IllegalMoveError, state unchanged."""
    state = position()
    err = rejected(state, thing)
    assert err.reason == "not-a-move"
    assert err.move is thing
    assert state == position()


@pytest.mark.parametrize("move", [
    u.Draw(3), u.Draw(-1), u.Pass(9), u.Play(5, card("R5")), u.CallUno(3), u.CatchUno(4, 0),
    u.NextRound(3), u.Draw(True),
])
def test_out_of_range_players_rejected(move: u.Move) -> None:
    """SETUP-1: a move by a seat that does not exist (3 players: 0..2) is rejected."""
    state = position()
    err = rejected(state, move)
    assert err.reason == "no-such-player"
    assert err.move == move
    assert state == position()


def test_catch_of_out_of_range_target_rejected() -> None:
    """UNO-6: catching a seat that does not exist is rejected."""
    err = rejected(position(), u.CatchUno(1, 7))
    assert err.reason == "not-catchable"


@pytest.mark.parametrize("move", [
    u.Play(1, card("B5")), u.Draw(1), u.Pass(1), u.Draw(0), u.Accept(1), u.ChooseColor(1, RED),
])
def test_moves_in_round_over_rejected(move: u.Move) -> None:
    """END-1: once the round is over only NextRound by the next dealer is accepted."""
    state = round_over()
    err = rejected(state, move)
    assert err.rule == "END-1"
    assert err.reason == "round-over"
    assert state == round_over()


def test_uno_moves_in_round_over_rejected() -> None:
    """END-1/UNO-5: no UNO window survives the end of the round."""
    state = round_over()
    assert state.uno_exposed == -1
    for move in (u.CatchUno(1, 0), u.CallUno(0), u.CatchUno(2, 1)):
        err = rejected(state, move)
        assert (err.rule, err.reason) == ("END-1", "round-over")


@pytest.mark.parametrize("move", [
    u.NextRound(1), u.NextRound(0), u.Play(1, card("B5")), u.Draw(1), u.Pass(2), u.CallUno(0),
    u.CatchUno(1, 0), u.Challenge(1),
])
def test_moves_in_match_over_rejected(move: u.Move) -> None:
    """SCORE-2: after the match is over every move is rejected."""
    state = match_over()
    assert u.legal_moves(state) == []
    for p in range(3):
        assert u.legal_moves(state, p) == []
    err = rejected(state, move)
    assert err.rule == "SCORE-2"
    assert err.reason == "match-over"
    assert state == match_over()


def test_state_unchanged_after_each_rejection_and_still_playable() -> None:
    """PLAY-8: after any number of rejected moves the state equals a fresh copy and legal moves still apply."""
    state = position()
    for move in (u.Draw(1), u.Play(0, card("G7")), u.Play(0, card("W")), u.CatchUno(1, 0), u.NextRound(0),
                 "junk", u.Draw(7)):
        rejected(state, move)
    fresh = position()
    assert state == fresh
    assert u.legal_moves(state) == u.legal_moves(fresh)
    assert u.apply(state, u.Play(0, card("R5"))) == u.apply(fresh, u.Play(0, card("R5")))


def test_legal_moves_are_accepted_and_every_listed_move_applies() -> None:
    """PLAY-8: apply accepts every move legal_moves lists (same rules for both)."""
    state = position()
    for move in u.legal_moves(state):
        u.apply(state, move)


def test_view_of_missing_player_rejected() -> None:
    """SETUP-1: view() of a seat that does not exist raises ValueError."""
    with pytest.raises(ValueError, match="no player"):
        u.view(position(), 3)


# --- PositionError: from_position ------------------------------------------------------------
def test_position_error_too_many_copies() -> None:
    """DECK-1: classic-108 has one R0 per colour; two in the position is impossible."""
    with pytest.raises(u.PositionError, match="R0"):
        u.from_position(CLASSIC, ["R0 R0", "B1"], "R3")


def test_position_error_too_many_copies_across_piles() -> None:
    """DECK-1: five Wild Draw Fours spread over hands, discard and draw pile are too many."""
    with pytest.raises(u.PositionError, match=r"W\+4"):
        u.from_position(CLASSIC, ["W+4 W+4", "W+4"], "R3 W+4", draw_pile="W+4", color=RED)


def test_position_error_card_not_in_profile_deck() -> None:
    """DECK-4: blanks set aside in mattel-42003 and Shuffle Hands absent from classic cannot be in a position."""
    with pytest.raises(u.PositionError, match="BLK"):
        u.from_position("mattel-42003", ["BLK R1", "B1"], "R3")
    with pytest.raises(u.PositionError, match="WSH"):
        u.from_position(CLASSIC, ["WSH R1", "B1"], "R3")


def test_position_error_bad_card_names() -> None:
    """DECK-5: an unknown card name in a position is a PositionError."""
    with pytest.raises(u.PositionError):
        u.from_position(CLASSIC, ["R1 Q9", "B1"], "R3")
    with pytest.raises(u.PositionError):
        u.from_position(CLASSIC, [[1, 99], "B1"], "R3")


@pytest.mark.parametrize("top", ["W", "W+4", "R3 W"])
def test_position_error_wild_top_needs_colour(top: str) -> None:
    """PLAY-1/ACT-4: with a wild on top the colour in play must be given."""
    with pytest.raises(u.PositionError, match="colour"):
        u.from_position(CLASSIC, ["R1", "B1"], top)
    with pytest.raises(u.PositionError):
        u.from_position(CLASSIC, ["R1", "B1"], top, color=4)
    state = u.from_position(CLASSIC, ["R1", "B1"], top, color=BLUE)
    assert state.color == BLUE


def test_position_error_colour_contradicts_coloured_top() -> None:
    """PLAY-1: a coloured top card fixes the colour; naming another is a PositionError."""
    with pytest.raises(u.PositionError, match="colour"):
        u.from_position(CLASSIC, ["R1", "B1"], "R3", color=BLUE)
    assert u.from_position(CLASSIC, ["R1", "B1"], "R3", color=RED).color == RED


@pytest.mark.parametrize("direction", [0, 2, -2])
def test_position_error_bad_direction(direction: int) -> None:
    """PLAY-8: direction is +1 or -1."""
    with pytest.raises(u.PositionError, match="direction"):
        u.from_position(CLASSIC, ["R1", "B1"], "R3", direction=direction)


@pytest.mark.parametrize("current", [-1, 2, 3, True])
def test_position_error_bad_current(current: int) -> None:
    """PLAY-8: current must be a seat of the game (2 players: 0 or 1)."""
    with pytest.raises(u.PositionError, match="current"):
        u.from_position(CLASSIC, ["R1", "B1"], "R3", current=current)


def test_position_error_other_impossible_inputs() -> None:
    """SETUP-1/END-1/SCORE-2: bad player count, empty hand, empty discard, bad dealer, bad scores."""
    with pytest.raises(u.PositionError):
        u.from_position(CLASSIC, ["R1"], "R3")
    with pytest.raises(u.PositionError):
        u.from_position(CLASSIC, ["R1"] * 11, "R3")
    with pytest.raises(u.PositionError, match="hand"):
        u.from_position(CLASSIC, ["R1", ""], "R3")
    with pytest.raises(u.PositionError, match="discard"):
        u.from_position(CLASSIC, ["R1", "B1"], "")
    with pytest.raises(u.PositionError, match="dealer"):
        u.from_position(CLASSIC, ["R1", "B1"], "R3", dealer=2)
    with pytest.raises(u.PositionError, match="scores"):
        u.from_position(CLASSIC, ["R1", "B1"], "R3", scores=[1, 2, 3])
    with pytest.raises(u.PositionError, match="scores"):
        u.from_position(CLASSIC, ["R1", "B1"], "R3", scores=[1, -2])


# --- PositionError: new_game -----------------------------------------------------------------
def test_new_game_bad_deck_permutation() -> None:
    """SETUP-3/DECK-5: the deck must be exactly the profile's cards in play."""
    full = [u.CARDS[c] for c in CLASSIC.deck_cards()]
    assert u.new_game(CLASSIC, 4, deck=full, dealer=0).num_players == 4
    with pytest.raises(u.PositionError, match="deck"):
        u.new_game(CLASSIC, 4, deck=full[1:], dealer=0)
    with pytest.raises(u.PositionError, match="deck"):
        u.new_game(CLASSIC, 4, deck=[*full, card("R1")], dealer=0)
    swapped = [card("R1") if c == card("R0") else c for c in full]
    with pytest.raises(u.PositionError, match="R0"):
        u.new_game(CLASSIC, 4, deck=swapped, dealer=0)
    gdj = [u.CARDS[c] for c in u.load_profile("gdj85").deck_cards()]
    with pytest.raises(u.PositionError, match="WSH"):
        u.new_game(CLASSIC, 4, deck=gdj, dealer=0)
    mattel = u.load_profile("mattel-42003")
    with pytest.raises(u.PositionError, match="BLK"):
        u.new_game(mattel, 4, deck=[*full[:-4], *[u.CARDS[u.BLANK]] * 4], dealer=0)
    with pytest.raises(u.PositionError):
        u.new_game(CLASSIC, 4, deck="R1 ZZ", dealer=0)


@pytest.mark.parametrize("dealer", [-1, 4, 10, True, "1", 1.0])
def test_new_game_bad_dealer(dealer: object) -> None:
    """SETUP-2: dealer must be a seat 0..n-1."""
    with pytest.raises(u.PositionError, match="dealer"):
        u.new_game(CLASSIC, 4, dealer=dealer)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [0, 1, 11, -3, True, 4.0, "4"])
def test_new_game_bad_player_count(players: object) -> None:
    """SETUP-1: 2 to 10 players."""
    with pytest.raises(u.PositionError):
        u.new_game(CLASSIC, players)  # type: ignore[arg-type]


def test_new_game_player_count_limited_by_profile() -> None:
    """SETUP-1: a profile's own player range is enforced."""
    small = attrs.evolve(CLASSIC, max_players=4)
    assert u.new_game(small, 4).num_players == 4
    with pytest.raises(u.PositionError, match="players"):
        u.new_game(small, 5)


def test_new_game_bad_seed() -> None:
    """SETUP-2: the seed must be an integer."""
    with pytest.raises(u.PositionError, match="seed"):
        u.new_game(CLASSIC, 4, seed="x")  # type: ignore[arg-type]


def test_altering_the_returned_move_list_cannot_smuggle_a_move_in() -> None:
    """PLAY-1: legal_moves returns the caller's own list; adding an illegal move to it, or applying
    a listed move to another state, is still refused by apply's full check."""
    state = u.from_position("classic-108", ["R7 G5 B7", "R1 B2 B3"], "R5")
    moves = u.legal_moves(state)
    illegal = u.Play(0, u.parse_card("B7"))
    moves.append(illegal)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, illegal)
    assert (info.value.rule, info.value.reason) == ("PLAY-1", "card-does-not-match")
    listed = next(m for m in moves if m == u.Play(0, u.parse_card("R7")))
    other = u.from_position("classic-108", ["R7 G5 B7", "R1 B2 B3"], "G1")
    u.legal_moves(other)
    with pytest.raises(u.IllegalMoveError):
        u.apply(other, listed)
