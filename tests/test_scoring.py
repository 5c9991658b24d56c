"""End of round, card points, match scoring (END-1, ACT-9, SCORE-1..4, SETUP-11)."""

from __future__ import annotations

import random
from typing import Literal

import attrs
import pytest
from helpers_uno import BLUE, CLASSIC, SHIPPED, YELLOW, card, cards, rejected
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u

PILE = "G1 G2 G3 G4 G5 G6"


def going_out(profile: u.Profile | str = CLASSIC, p0: str = "R5", p1: str = "B1 B2", p2: str = "Y3 Y4",
              scores: list[int] | None = None, dealer: int | None = None) -> u.GameState:
    """Player 0 to play the last card ``p0`` onto R3; players 1 and 2 hold 3 and 7 points by default."""
    return u.from_position(profile, [p0, p1, p2], "R3", draw_pile=PILE, current=0, scores=scores, dealer=dealer)


def play_round_randomly(state: u.GameState, rng: random.Random) -> u.GameState:
    for _ in range(50_000):
        if state.round_over:
            return state
        state = u.apply(state, rng.choice(u.legal_moves(state)))
    raise AssertionError("round did not end")


def expected_points(code: int) -> int:
    """SCORE-1 written out independently of the engine."""
    if code < 52:
        symbol = code % 13
        return symbol if symbol <= 9 else 20
    return {52: 50, 53: 50, 54: 40, 55: 40, 56: 40, 57: 40}[code]


# --- END-1 ------------------------------------------------------------------------------
def test_end1_round_ends_when_a_hand_is_empty() -> None:
    """END-1/SCORE-2: the last card ends the round: phase ROUND_OVER, result recorded, winner scores."""
    state = u.apply(going_out(), u.Play(0, card("R5")))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.round_over
    assert not state.match_over
    assert state.hands[0] == ()
    result = state.match.last_round
    assert result == u.RoundResult(winner=0, blocked=False, hand_points=(0, 3, 7), points_won=(10, 0, 0))
    assert state.scores == (10, 0, 0)
    assert state.match.winner is None
    assert state.uno_exposed == -1
    # dealer was 2 (seat before the player to act); SETUP-11: the deal passes left, to 0
    assert u.legal_moves(state) == [u.NextRound(0)]
    for p in range(3):
        assert u.view(state, p).last_round == result
        assert u.view(state, p).phase is u.Phase.ROUND_OVER


def test_end1_last_card_by_a_player_not_seat_zero() -> None:
    """END-1: whoever empties the hand wins, here player 2."""
    state = u.from_position(CLASSIC, ["R5 R6 G8", "B9 G9", "R7"], "R3", draw_pile=PILE, current=2)
    state = u.apply(state, u.Play(2, card("R7")))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.match.last_round is not None
    assert state.match.last_round.winner == 2
    assert state.match.last_round.hand_points == (19, 18, 0)
    assert state.scores == (0, 0, 37)


def test_end1_pending_draw_two_is_drawn_first() -> None:
    """END-1/ACT-9: going out on a Draw Two: the next player draws 2 first, and they count in scoring."""
    state = u.apply(going_out(p0="R+2"), u.Play(0, card("R+2")))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.hands[1] == cards("B1 B2 G1 G2")
    assert state.hands[2] == cards("Y3 Y4")
    assert state.match.last_round == u.RoundResult(0, False, (0, 6, 7), (13, 0, 0))
    assert state.scores == (13, 0, 0)
    assert state.draw_pile_size == 4


def test_end1_draw_two_last_card_reverse_direction() -> None:
    """END-1/ACT-9/PLAY-8: with direction -1 the player on the right draws the 2."""
    state = u.from_position(CLASSIC, ["R+2", "B1 B2", "Y3 Y4"], "R3", draw_pile=PILE, current=0, direction=-1)
    state = u.apply(state, u.Play(0, card("R+2")))
    assert state.hands[2] == cards("Y3 Y4 G1 G2")
    assert state.hands[1] == cards("B1 B2")
    assert state.scores == (13, 0, 0)


@pytest.mark.parametrize(("answer", "drawn"), [("accept", 4), ("challenge", 6)])
def test_end1_pending_wild_draw_four_decided_first(answer: str, drawn: int) -> None:
    """END-1/ACT-9/WD4-5: a last Wild Draw Four (challenge mode): the victim still decides; then the round ends."""
    state = u.apply(going_out(p0="W+4"), u.Play(0, card("W+4"), color=BLUE))
    assert state.phase is u.Phase.CHALLENGE
    assert state.current == 1
    assert u.legal_moves(state) == [u.Challenge(1), u.Accept(1)]
    move: u.Move = u.Accept(1) if answer == "accept" else u.Challenge(1)
    state = u.apply(state, move)
    assert state.phase is u.Phase.ROUND_OVER
    assert state.hands[1] == tuple(sorted(cards("B1 B2") + u.parse_cards(PILE)[:drawn]))
    left = 3 + sum(range(1, drawn + 1))
    assert state.match.last_round == u.RoundResult(0, False, (0, left, 7), (left + 7, 0, 0))


@pytest.mark.parametrize("mode", ["enforced", "unrestricted"])
def test_end1_last_wild_draw_four_automatic_modes(mode: Literal["enforced", "unrestricted"]) -> None:
    """END-1/ACT-9: with no challenge the next player draws 4, then the round ends."""
    state = going_out(attrs.evolve(CLASSIC, wild_draw_four=mode), p0="W+4")
    state = u.apply(state, u.Play(0, card("W+4"), color=BLUE))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.hands[1] == cards("B1 B2 G1 G2 G3 G4")
    assert state.scores == (20, 0, 0)


def test_end1_last_reverse_and_skip_not_carried_out() -> None:
    """END-1 ruling: a last Reverse does not change direction; the round is simply over."""
    state = u.apply(going_out(p0="RR"), u.Play(0, card("RR")))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.direction == 1
    assert state.scores == (10, 0, 0)
    state = u.apply(going_out(p0="RS"), u.Play(0, card("RS")))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.hands[1:] == (cards("B1 B2"), cards("Y3 Y4"))


def test_end1_last_swap_hands_not_carried_out() -> None:
    """END-1 ruling: a last Swap Hands does not swap; the swapper has won with an empty hand."""
    state = u.from_position("ffk04", ["WSW", "B1 B2", "Y3 Y4"], "R3", draw_pile=PILE, current=0)
    state = u.apply(state, u.Play(0, card("WSW"), color=YELLOW, target=1))
    assert state.phase is u.Phase.ROUND_OVER
    assert state.hands == ((), cards("B1 B2"), cards("Y3 Y4"))
    assert state.scores == (10, 0, 0)


def test_end1_no_in_turn_moves_after_round_end() -> None:
    """END-1: after the round only the next dealer's NextRound is legal; everything else is rejected."""
    state = u.apply(going_out(), u.Play(0, card("R5")))
    for p in range(3):
        assert u.legal_moves(state, p) == ([u.NextRound(0)] if p == 0 else [])
    err = rejected(state, u.Draw(1))
    assert err.rule == "END-1"
    assert err.reason == "round-over"


# --- SCORE-1 --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SHIPPED)
def test_score1_points_per_card_kind(name: str) -> None:
    """SCORE-1: numbers face value; Skip/Reverse/Draw Two 20; Wild/W+4 50; Shuffle/Swap/Custom 40; blank 40."""
    profile = u.load_profile(name)
    for color in "RYGB":
        for n in range(10):
            assert u.hand_points(profile, [card(f"{color}{n}")]) == n
        for sym in ("S", "R", "+2"):
            assert u.hand_points(profile, [card(color + sym)]) == 20
    assert u.hand_points(profile, [card("W")]) == 50
    assert u.hand_points(profile, [card("W+4")]) == 50
    assert u.hand_points(profile, [card("WSH")]) == 40
    assert u.hand_points(profile, [card("WSW")]) == 40
    assert u.hand_points(profile, [card("WCU")]) == 40
    assert u.hand_points(profile, [card("BLK")]) == 40
    assert u.hand_points(profile, []) == 0
    assert u.hand_points(profile, u.parse_cards("R7 G+2 W B0 Y9 W+4 BS")) == 7 + 20 + 50 + 0 + 9 + 50 + 20
    assert list(profile.points) == [expected_points(c) for c in range(58)]


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(st.integers(0, 57), max_size=30), name=st.sampled_from(SHIPPED))
def test_score1_hand_points_is_the_sum_of_card_values(hand: list[int], name: str) -> None:
    """SCORE-1: a hand's points are the sum of its cards' values."""
    profile = u.load_profile(name)
    assert u.hand_points(profile, [u.CARDS[c] for c in hand]) == sum(expected_points(c) for c in hand)


# --- SCORE-2 --------------------------------------------------------------------------------
def test_score2_winner_scores_points_left_in_other_hands() -> None:
    """SCORE-2: winner gains the other hands' points (action and wild cards included); others gain nothing."""
    state = going_out(p1="BS BR B+2 W", p2="W+4 Y9 G0", scores=[5, 7, 9])
    state = u.apply(state, u.Play(0, card("R5")))
    assert state.match.last_round == u.RoundResult(0, False, (0, 110, 59), (169, 0, 0))
    assert state.scores == (174, 7, 9)
    assert state.phase is u.Phase.ROUND_OVER
    assert state.match.winner is None


def test_score2_match_ends_at_target() -> None:
    """SCORE-2: reaching the target ends the match: MATCH_OVER, match.winner, no more moves."""
    profile = attrs.evolve(CLASSIC, target_score=50)
    state = u.apply(going_out(profile, scores=[45, 30, 49]), u.Play(0, card("R5")))
    assert state.phase is u.Phase.MATCH_OVER
    assert state.match_over
    assert state.round_over
    assert state.match.winner == 0
    assert state.scores == (55, 30, 49)
    assert state.match.last_round == u.RoundResult(0, False, (0, 3, 7), (10, 0, 0))
    assert u.legal_moves(state) == []
    assert u.view(state, 2).match_winner == 0
    err = rejected(state, u.NextRound(1))
    assert err.reason == "match-over"


@pytest.mark.parametrize(("before", "over"), [(490, True), (489, False), (495, True)])
def test_score2_default_target_500_reached_exactly(before: int, over: bool) -> None:
    """SCORE-2: first to 500: exactly 500 ends the match, 499 does not."""
    state = u.apply(going_out(scores=[before, 0, 499]), u.Play(0, card("R5")))
    assert state.scores == (before + 10, 0, 499)
    assert state.phase is (u.Phase.MATCH_OVER if over else u.Phase.ROUND_OVER)
    assert state.match.winner == (0 if over else None)


def test_score2_other_players_high_score_does_not_end_match() -> None:
    """SCORE-2: only the round winner gains; a player below target stays below."""
    profile = attrs.evolve(CLASSIC, target_score=20)
    state = u.apply(going_out(profile, scores=[0, 19, 19]), u.Play(0, card("R5")))
    assert state.scores == (10, 19, 19)
    assert state.phase is u.Phase.ROUND_OVER


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_score2_random_match_ends_with_single_winner_over_target(seed: int, players: int) -> None:
    """SCORE-2: a whole match to 150 points: each round the winner gains the others' hand points."""
    profile = attrs.evolve(CLASSIC, target_score=150)
    rng = random.Random(seed)
    state = u.new_game(profile, players, seed=seed)
    for rnd in range(1, 60):
        before = state.scores
        assert state.match.round_number == rnd
        state = play_round_randomly(state, rng)
        result = state.match.last_round
        assert result is not None
        assert result.hand_points == tuple(u.hand_points(profile, h) for h in state.hands)
        gained = sum(result.hand_points) - result.hand_points[result.winner]
        assert result.points_won == tuple(gained if i == result.winner else 0 for i in range(players))
        assert state.scores == tuple(b + w for b, w in zip(before, result.points_won, strict=True))
        if state.match_over:
            assert state.match.winner == result.winner
            assert state.scores[result.winner] >= 150
            assert all(s < 150 for i, s in enumerate(state.scores) if i != result.winner)
            return
        assert max(state.scores) < 150
        (move,) = u.legal_moves(state)
        state = u.apply(state, move)
    raise AssertionError("match did not end")


# --- SCORE-3 --------------------------------------------------------------------------------
LOWEST = attrs.evolve(CLASSIC, scoring="own-hand-lowest-wins", target_score=100)


def lowest_position(scores: list[int]) -> u.GameState:
    """Player 1 to go out with B1 on B3; player 0 holds 5 points, player 2 holds 7."""
    return u.from_position(LOWEST, ["R5", "B1", "Y3 Y4"], "B3", draw_pile=PILE, current=1, scores=scores)


def test_score3_each_player_adds_own_hand_points() -> None:
    """SCORE-3: every player adds the points left in their own hand; the winner adds 0."""
    state = u.apply(lowest_position([0, 0, 0]), u.Play(1, card("B1")))
    assert state.match.last_round == u.RoundResult(1, False, (5, 0, 7), (5, 0, 7))
    assert state.scores == (5, 0, 7)
    assert state.phase is u.Phase.ROUND_OVER
    assert state.match.winner is None


def test_score3_lowest_total_wins_when_someone_reaches_target() -> None:
    """SCORE-3: player 2 reaches 100; the lowest total (player 0), not the round winner, wins the match."""
    state = u.apply(lowest_position([40, 60, 95]), u.Play(1, card("B1")))
    assert state.scores == (45, 60, 102)
    assert state.phase is u.Phase.MATCH_OVER
    assert state.match.winner == 0
    assert state.match.last_round is not None
    assert state.match.last_round.winner == 1
    assert u.legal_moves(state) == []


def test_score3_no_one_at_target_match_goes_on() -> None:
    """SCORE-3: 99 is below the target: another round."""
    state = u.apply(lowest_position([0, 50, 92]), u.Play(1, card("B1")))
    assert state.scores == (5, 50, 99)
    assert state.phase is u.Phase.ROUND_OVER
    assert state.match.winner is None


def test_score3_tie_for_lowest_plays_another_round() -> None:
    """SCORE-3 ruling: target reached but two players share the lowest total: another round, scores kept."""
    state = u.apply(lowest_position([55, 60, 95]), u.Play(1, card("B1")))
    assert state.scores == (60, 60, 102)
    assert state.phase is u.Phase.ROUND_OVER
    assert state.match.winner is None
    (move,) = u.legal_moves(state)
    assert move == u.NextRound(1)  # dealer was 0 (seat before player 1); the deal passes left
    nxt = u.apply(state, move)
    assert nxt.match.round_number == 2
    assert nxt.scores == (60, 60, 102)
    assert nxt.dealer == 1
    assert not nxt.round_over


# --- SCORE-4 --------------------------------------------------------------------------------
ONE_POINT = attrs.evolve(CLASSIC, scoring="one-point-per-round", target_score=3)


def test_score4_one_point_per_round_won() -> None:
    """SCORE-4: the round winner gains exactly one point, whatever is left in other hands."""
    state = u.apply(going_out(ONE_POINT, p1="W W+4"), u.Play(0, card("R5")))
    assert state.match.last_round == u.RoundResult(0, False, (0, 100, 7), (1, 0, 0))
    assert state.scores == (1, 0, 0)
    assert state.phase is u.Phase.ROUND_OVER


def test_score4_match_ends_at_target_rounds() -> None:
    """SCORE-4: the third round won reaches target 3: MATCH_OVER with that player as winner."""
    state = u.apply(going_out(ONE_POINT, scores=[2, 2, 1]), u.Play(0, card("R5")))
    assert state.scores == (3, 2, 1)
    assert state.phase is u.Phase.MATCH_OVER
    assert state.match.winner == 0


# --- persistence across rounds (SCORE-2, SETUP-11) --------------------------------------------
def test_score2_scores_persist_across_next_round() -> None:
    """SCORE-2/SETUP-11: NextRound deals a fresh round: scores kept, round_number + 1, dealer passes left."""
    state = u.apply(going_out(scores=[100, 20, 30]), u.Play(0, card("R5")))
    assert state.scores == (110, 20, 30)
    nxt = u.apply(state, u.NextRound(0))
    assert nxt.match.round_number == 2
    assert nxt.scores == (110, 20, 30)
    assert nxt.dealer == 0
    assert nxt.match.winner is None
    assert not nxt.round_over
    assert nxt.uno_exposed == -1
    in_play = sum(len(h) for h in nxt.hands) + nxt.draw_pile_size + len(nxt.discard_pile)
    assert in_play == 108
    assert all(len(h) >= 7 for h in nxt.hands)
    # and play the second round out: scores add up
    rng = random.Random(3)
    done = play_round_randomly(nxt, rng)
    result = done.match.last_round
    assert result is not None
    assert done.match.round_number == 2
    assert done.scores == tuple(a + b for a, b in zip((110, 20, 30), result.points_won, strict=True))
    if not done.match_over:
        third = u.apply(done, u.legal_moves(done)[0])
        assert third.match.round_number == 3
        assert third.scores == done.scores


def test_setup11_round_winner_deals_when_profile_says_so() -> None:
    """SETUP-11 option: next_dealer = "winner": the round winner deals; the left neighbour may not."""
    profile = attrs.evolve(CLASSIC, next_dealer="winner")
    state = u.from_position(profile, ["R5 R6", "B1 B2", "R7"], "R3", draw_pile=PILE, current=2, dealer=0)
    state = u.apply(state, u.Play(2, card("R7")))
    assert u.legal_moves(state) == [u.NextRound(2)]
    err = rejected(state, u.NextRound(1))
    assert err.rule == "SETUP-11"
    assert err.reason == "not-dealer"
    assert u.apply(state, u.NextRound(2)).dealer == 2


def test_setup11_deal_passes_left_by_default() -> None:
    """SETUP-11: default next_dealer = "left": dealer + 1 deals, not the winner."""
    state = u.from_position(CLASSIC, ["R5 R6", "B1 B2", "R7"], "R3", draw_pile=PILE, current=2, dealer=0)
    state = u.apply(state, u.Play(2, card("R7")))
    assert u.legal_moves(state) == [u.NextRound(1)]
    assert rejected(state, u.NextRound(2)).reason == "not-dealer"
    nxt = u.apply(state, u.NextRound(1))
    assert nxt.dealer == 1
    assert nxt.scores == (0, 0, 14)


@pytest.mark.parametrize(("mode", "rule"), [
    ("winner-takes-others", "SCORE-2"), ("own-hand-lowest-wins", "SCORE-3"), ("one-point-per-round", "SCORE-4"),
])
def test_moves_after_the_match_cite_the_scoring_rule_that_ended_it(mode: str, rule: str) -> None:
    """SCORE-2/SCORE-3/SCORE-4: once the match is over, every move is refused citing the rule of the
    profile's scoring mode, the one that ended the match."""
    profile = attrs.evolve(CLASSIC, scoring=mode, target_score=1)
    state = u.apply(going_out(profile, scores=[0, 0, 0]), u.Play(0, card("R5")))
    assert state.phase is u.Phase.MATCH_OVER
    err = rejected(state, u.NextRound(1))
    assert (err.rule, err.reason) == (rule, "match-over")
