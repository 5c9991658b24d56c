"""HOUSE-1 stacking: the three variants, accumulation, Accept, challenges on a stack, UNO windows, going out on a
stack, the first card, short piles, from_position(pending_draw=...) and refusals (docs/rulings.md)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, partial

import attrs
import pytest
from helpers_actions import all_cards, assert_legal, assert_rejected, card, cards, pile

import unoengine as u

R, Y, G, B = u.Color.RED, u.Color.YELLOW, u.Color.GREEN, u.Color.BLUE
COLOURS = (R, Y, G, B)

CLASSIC = "classic-108"
SAME = "classic-108+stacking"
CROSS = "classic-108+stacking-cross"
NO_MERCY = "classic-108+stacking-no-mercy"
VARIANTS = {"same-kind": SAME, "cross": CROSS, "equal-or-higher": NO_MERCY}

WD4 = card("W+4")
PILE = "Y1 Y2 Y3 Y4 G1 G2 G3 B1 B3 B4 B6 B7"
"""A known draw pile, top first: a draw of n takes its first n cards."""

# (answer, top) pairs each stacking variant allows (HOUSE-1).
ALLOWED = {
    "same-kind": {("D2", "D2"), ("WD4", "WD4")},
    "cross": {("D2", "D2"), ("WD4", "WD4"), ("D2", "WD4"), ("WD4", "D2")},
    "equal-or-higher": {("D2", "D2"), ("WD4", "D2"), ("WD4", "WD4")},
}
PAIRS = [("D2", "D2"), ("WD4", "WD4"), ("D2", "WD4"), ("WD4", "D2")]
COUNT = {"D2": 2, "WD4": 4}


@cache
def prof(spec: str) -> u.Profile:
    """A shipped profile or composition, loaded once."""
    return u.load_profile(spec)


def hand(*parts: Iterable[u.Card]) -> tuple[u.Card, ...]:
    """The cards of all ``parts`` together, sorted as a hand is stored."""
    return tuple(sorted(c for part in parts for c in part))


def drawn(n: int, text: str = PILE) -> tuple[u.Card, ...]:
    """The first ``n`` cards of a draw pile given top first."""
    return pile(text)[:n]


def in_turn(moves: Iterable[u.Move]) -> list[u.Move]:
    """The moves of a list that are not UNO calls or catches."""
    return [m for m in moves if not isinstance(m, u.CallUno | u.CatchUno)]


def wd4_plays(player: int, uno: bool = False) -> set[u.Move]:
    """A Wild Draw Four play naming each of the four colours."""
    return {u.Play(player, WD4, k, uno=uno) for k in COLOURS}


def assert_moves(state: u.GameState, player: int, expected: Iterable[object]) -> list[u.Move]:
    """``player``'s legal moves are exactly ``expected`` (each listed once), also in their view."""
    moves = u.legal_moves(state, player)
    assert len(moves) == len(set(moves)), moves
    assert set(moves) == set(expected)
    assert u.view(state, player).legal_moves == tuple(moves)
    return moves


def assert_refused(build: partial[u.GameState], move: u.Move) -> u.IllegalMoveError:
    """``move`` is refused (whatever rule it cites), is not generated, and changes nothing."""
    state = build()
    assert move not in u.legal_moves(state)
    assert move not in u.legal_moves(state, move.player)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)
    assert info.value.player == move.player
    assert info.value.move == move
    assert isinstance(info.value.rule, str) and info.value.rule
    assert state == build()
    return info.value


def penalty(spec: str, hands: list[str], discard: str, n: int, *, color: int | None = None, current: int = 0,
            draw_pile: str = PILE, direction: int = 1) -> u.GameState:
    """A PENALTY-phase position built with from_position(pending_draw=n)."""
    return u.from_position(prof(spec), hands, discard, draw_pile=draw_pile, color=color, current=current,
                           direction=direction, pending_draw=n)


# --- New API ------------------------------------------------------------------------------------------
def test_phase_order_includes_penalty() -> None:
    """HOUSE-1: the new PENALTY phase sits between CHOOSE_COLOR and ROUND_OVER."""
    assert [p.name for p in u.Phase] == [
        "PLAY", "DRAWN", "CHALLENGE", "CHOOSE_COLOR", "PENALTY", "ROUND_OVER", "MATCH_OVER",
    ]
    assert u.Phase.CHOOSE_COLOR < u.Phase.PENALTY < u.Phase.ROUND_OVER


def test_profile_stacking_field_and_overlays() -> None:
    """HOUSE-1: stacking is "off" by default; the three overlays set "same-kind", "cross", "equal-or-higher"."""
    for name in ("classic-108", "gdj85", "ffk04", "mattel-42003"):
        assert prof(name).stacking == "off"
        assert prof(name).jump_in is False
    for variant, spec in VARIANTS.items():
        p = prof(spec)
        assert p.stacking == variant
        assert p.jump_in is False
        assert p.deck_counts == prof(CLASSIC).deck_counts
        assert p.wild_draw_four == "challenge"
        assert p.decline_to_play is True
    assert attrs.evolve(prof(CLASSIC), stacking="cross").stacking == "cross"


@pytest.mark.parametrize(
    ("first", "second"),
    [("stacking", "stacking-cross"), ("stacking-cross", "stacking-no-mercy"), ("stacking-no-mercy", "stacking")],
)
def test_stacking_overlays_contradict_each_other(first: str, second: str) -> None:
    """HOUSE-1: two stacking overlays set play.stacking differently: the composition is refused naming both."""
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(f"{CLASSIC}+{first}+{second}")
    err = info.value
    assert err.key == "play.stacking"
    for name in (first, second):
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", err.source), (name, err.source)
        assert name in str(err)
    assert "contradict" in str(err)


def test_pending_draw_is_zero_outside_penalties() -> None:
    """HOUSE-1: pending_draw is 0 in an ordinary turn; 4 in CHALLENGE without stacking (ACT-5)."""
    state = u.from_position(prof(SAME), ["R3 G4", "Y5 Y6"], "R5", draw_pile=PILE)
    assert (state.phase, state.pending_draw) == (u.Phase.PLAY, 0)
    classic = u.from_position(prof(CLASSIC), ["R3 W+4 G4", "Y5 Y6", "B8"], "R5", draw_pile=PILE)
    challenged = assert_legal(classic, u.Play(0, WD4, B))
    assert (challenged.phase, challenged.current, challenged.pending_draw) == (u.Phase.CHALLENGE, 1, 4)
    accepted = assert_legal(challenged, u.Accept(1))
    assert accepted.hands[1] == hand(cards("Y5 Y6"), drawn(4))
    assert (accepted.phase, accepted.current, accepted.pending_draw) == (u.Phase.PLAY, 2, 0)


# --- the three variants (HOUSE-1) ---------------------------------------------------------------
MATRIX_HANDS = ["R+2 W+4 R3 G4", "B+2 W+4 G5 Y6", "G8 G9 Y7"]
TOP_PLAYS = {"D2": u.Play(0, card("R+2")), "WD4": u.Play(0, WD4, B)}
ANSWERS = {"D2": u.Play(1, card("B+2")), "WD4": u.Play(1, WD4, G)}


def _matrix_start(variant: str) -> u.GameState:
    """Three players; player 0 is about to play a Draw card on R5 (unrestricted Wild Draw Four)."""
    spec = CLASSIC if variant == "off" else VARIANTS[variant]
    return u.from_position(prof(spec + "+wd4-unrestricted"), MATRIX_HANDS, "R5", draw_pile=PILE)


def _facing(variant: str, top: str) -> u.GameState:
    """Player 1 faces player 0's Draw Two (R+2) or Wild Draw Four (naming blue)."""
    return u.apply(_matrix_start(variant), TOP_PLAYS[top])


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("answer", "top"), PAIRS)
def test_stack_answer_allowed_or_refused(variant: str, answer: str, top: str) -> None:
    """HOUSE-1, ACT-3, ACT-5: a Draw card puts the next player in PENALTY facing it; the answer is legal
    exactly in the variants that allow the pair, adds its count, and passes the total on; otherwise it is refused
    with HOUSE-1 cannot-stack. The last victim's Accept draws the whole total."""
    state = _facing(variant, top)
    assert (state.phase, state.current, state.pending_draw) == (u.Phase.PENALTY, 1, COUNT[top])
    assert state.challenge is None
    assert state.hands[0] == (cards("W+4 R3 G4") if top == "D2" else cards("R+2 R3 G4"))
    assert state.hands[1] == cards("B+2 W+4 G5 Y6")
    assert state.hands[2] == cards("G8 G9 Y7")
    assert state.color == (R if top == "D2" else B)
    assert state.top_card == TOP_PLAYS[top].card
    assert state.remaining_draw_pile == pile(PILE)
    move = ANSWERS[answer]
    if (answer, top) not in ALLOWED[variant]:
        assert_rejected(partial(_facing, variant, top), move, "HOUSE-1", "cannot-stack")
        return
    after = assert_legal(state, move)
    total = COUNT[top] + COUNT[answer]
    assert (after.phase, after.current, after.pending_draw) == (u.Phase.PENALTY, 2, total)
    assert after.hands[0] == state.hands[0]
    assert after.hands[1] == (cards("W+4 G5 Y6") if answer == "D2" else cards("B+2 G5 Y6"))
    assert after.hands[2] == cards("G8 G9 Y7")
    assert after.top_card == move.card
    assert after.color == (B if answer == "D2" else G)
    assert after.direction == 1
    assert after.remaining_draw_pile == pile(PILE)
    taken = assert_legal(after, u.Accept(2))
    assert taken.hands[2] == hand(cards("G8 G9 Y7"), drawn(total))
    assert (taken.phase, taken.current, taken.pending_draw) == (u.Phase.PLAY, 0, 0)
    assert (taken.top_card, taken.color) == (after.top_card, after.color)
    assert taken.remaining_draw_pile == pile(PILE)[total:]
    assert all_cards(taken) == all_cards(state)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("top", ["D2", "WD4"])
def test_penalty_legal_moves_are_answers_and_accept(variant: str, top: str) -> None:
    """HOUSE-1: in PENALTY the victim's legal moves are exactly the allowed answers and Accept; nobody else
    has a move (no UNO window open)."""
    state = _facing(variant, top)
    expected: set[u.Move] = {u.Accept(1)}
    if ("D2", top) in ALLOWED[variant]:
        expected.add(u.Play(1, card("B+2")))
    if ("WD4", top) in ALLOWED[variant]:
        expected |= wd4_plays(1)
    moves = assert_moves(state, 1, expected)
    assert u.legal_moves(state) == moves
    assert u.legal_moves(state, 0) == []
    assert u.legal_moves(state, 2) == []


@pytest.mark.parametrize("top", ["D2", "WD4"])
def test_stacking_off_victim_draws_at_once(top: str) -> None:
    """HOUSE-1 off, ACT-3, ACT-5 (unrestricted): the victim draws at once and is skipped; no PENALTY phase, no
    Accept, and the would-be answer is an out-of-turn play (PLAY-8)."""
    state = _matrix_start("off")
    assert state.profile.stacking == "off"
    after = assert_legal(state, TOP_PLAYS[top])
    n = COUNT[top]
    assert after.hands[1] == hand(cards("B+2 W+4 G5 Y6"), drawn(n))
    assert (after.phase, after.current, after.pending_draw) == (u.Phase.PLAY, 2, 0)
    assert after.color == (R if top == "D2" else B)
    assert u.legal_moves(after, 1) == []
    assert u.Accept(1) not in u.legal_moves(after)
    assert u.Accept(2) not in u.legal_moves(after)

    def build() -> u.GameState:
        return u.apply(_matrix_start("off"), TOP_PLAYS[top])

    for answer in ANSWERS.values():
        assert_rejected(build, answer, "PLAY-8", "not-your-turn")


def test_stacking_off_enforced_wd4_draws_at_once() -> None:
    """HOUSE-1, WD4-6: without stacking and not in challenge mode a Wild Draw Four is drawn at once."""
    state = u.from_position(prof(CLASSIC + "+wd4-enforced"), ["W+4 B3 G4", "Y5 Y6", "G8"], "R5", draw_pile=PILE)
    after = assert_legal(state, u.Play(0, WD4, Y))
    assert after.hands[1] == hand(cards("Y5 Y6"), drawn(4))
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PLAY, 2, 0, Y)


@pytest.mark.parametrize("mode", ["enforced", "unrestricted"])
def test_wd4_with_stacking_outside_challenge_mode_gives_penalty(mode: str) -> None:
    """HOUSE-1, ACT-5: with stacking, an enforced/unrestricted Wild Draw Four puts the victim in PENALTY
    facing 4 (no challenge)."""
    state = u.from_position(prof(f"{SAME}+wd4-{mode}"), ["W+4 B3 G4", "Y5 W+4 Y6", "G8 G9"], "R5",
                            draw_pile=PILE)
    after = assert_legal(state, u.Play(0, WD4, Y))
    assert (after.phase, after.current, after.pending_draw) == (u.Phase.PENALTY, 1, 4)
    assert after.challenge is None
    assert after.hands[1] == cards("Y5 W+4 Y6")
    assert after.color == Y
    expected: set[u.Move] = {u.Accept(1)} | (wd4_plays(1) if mode == "unrestricted" else set())
    assert_moves(after, 1, expected)
    assert u.Challenge(1) not in u.legal_moves(after)


# --- accumulation ------------------------------------------------------------------------------------
def test_accumulation_two_four_eight_then_accept() -> None:
    """HOUSE-1, ACT-3, ACT-5: cross stacking over four players: R+2 (2), Y+2 (4), W+4 (8); the fourth
    player cannot answer, Accepts, draws all 8 and misses the turn; player 0 then plays on the W+4 and green."""
    spec = CROSS + "+wd4-unrestricted"
    hands = ["R+2 R3 G4", "Y+2 B5 Y6", "W+4 G5 G6", "B8 B9 Y7"]
    start = u.from_position(prof(spec), hands, "R5", draw_pile=PILE)
    s1 = assert_legal(start, u.Play(0, card("R+2")))
    assert (s1.phase, s1.current, s1.pending_draw, s1.color) == (u.Phase.PENALTY, 1, 2, R)
    assert_moves(s1, 1, {u.Play(1, card("Y+2")), u.Accept(1)})
    s2 = assert_legal(s1, u.Play(1, card("Y+2")))
    assert (s2.phase, s2.current, s2.pending_draw, s2.color) == (u.Phase.PENALTY, 2, 4, Y)
    assert_moves(s2, 2, wd4_plays(2) | {u.Accept(2)})
    s3 = assert_legal(s2, u.Play(2, WD4, G))
    assert (s3.phase, s3.current, s3.pending_draw, s3.color) == (u.Phase.PENALTY, 3, 8, G)
    assert s3.hands == (cards("R3 G4"), cards("B5 Y6"), cards("G5 G6"), cards("B8 B9 Y7"))
    assert u.legal_moves(s3) == [u.Accept(3)]
    s4 = assert_legal(s3, u.Accept(3))
    assert s4.hands == (cards("R3 G4"), cards("B5 Y6"), cards("G5 G6"), hand(cards("B8 B9 Y7"), drawn(8)))
    assert (s4.phase, s4.current, s4.pending_draw) == (u.Phase.PLAY, 0, 0)
    assert (s4.top_card, s4.color, s4.direction) == (WD4, G, 1)
    assert s4.discard_pile == pile("R5 R+2 Y+2 W+4")
    assert s4.remaining_draw_pile == pile("B3 B4 B6 B7")
    assert u.Accept(0) not in u.legal_moves(s4)
    assert [m for m in u.legal_moves(s4, 0) if isinstance(m, u.Play)] == [
        u.Play(0, card("G4")), u.Play(0, card("G4"), uno=True),
    ]
    s5 = assert_legal(s4, u.Play(0, card("G4"), uno=True))
    assert (s5.phase, s5.current, s5.pending_draw, s5.color) == (u.Phase.PLAY, 1, 0, G)
    assert all_cards(s5) == all_cards(start)


def test_stacking_two_players_back_and_forth() -> None:
    """HOUSE-1: with two players a Draw Two answered comes back to the first player, who Accepts 4;
    the other player then plays an ordinary turn."""
    start = u.from_position(prof(SAME), ["R+2 R3 G4", "B+2 Y5 Y6"], "R5", draw_pile=PILE)
    s1 = assert_legal(start, u.Play(0, card("R+2")))
    assert (s1.phase, s1.current, s1.pending_draw) == (u.Phase.PENALTY, 1, 2)
    s2 = assert_legal(s1, u.Play(1, card("B+2")))
    assert (s2.phase, s2.current, s2.pending_draw, s2.color) == (u.Phase.PENALTY, 0, 4, B)
    assert u.legal_moves(s2) == [u.Accept(0)]
    s3 = assert_legal(s2, u.Accept(0))
    assert s3.hands == (hand(cards("R3 G4"), drawn(4)), cards("Y5 Y6"))
    assert (s3.phase, s3.current, s3.pending_draw, s3.color) == (u.Phase.PLAY, 1, 0, B)


def test_stacking_counter_clockwise() -> None:
    """HOUSE-1, PLAY-8: with direction -1 the victim is the previous seat; after Accept the seat before
    the victim plays."""
    start = u.from_position(prof(SAME), ["R+2 R3 G4", "Y5 Y6 Y7", "B+2 G8 G9"], "R5", draw_pile=PILE,
                            direction=-1)
    s1 = assert_legal(start, u.Play(0, card("R+2")))
    assert (s1.phase, s1.current, s1.pending_draw, s1.direction) == (u.Phase.PENALTY, 2, 2, -1)
    assert_moves(s1, 2, {u.Play(2, card("B+2")), u.Accept(2)})
    s2 = assert_legal(s1, u.Accept(2))
    assert s2.hands[2] == hand(cards("B+2 G8 G9"), drawn(2))
    assert s2.hands[1] == cards("Y5 Y6 Y7")
    assert (s2.phase, s2.current, s2.pending_draw, s2.direction) == (u.Phase.PLAY, 1, 0, -1)


# --- answers must be legal plays (PLAY-1, WD4-1) ------------------------------------------------------
def _green_wd4_on_top() -> u.GameState:
    return penalty(CROSS + "+wd4-unrestricted", ["R+2 G+2 B3", "Y5 Y6 Y7", "G8 G9"], "R5 W+4", 4, color=G)


def test_draw_two_on_wd4_must_match_named_colour() -> None:
    """HOUSE-1 (cross), PLAY-1: a Draw Two answers a Wild Draw Four only in the named colour."""
    state = _green_wd4_on_top()
    assert (state.phase, state.current, state.pending_draw, state.color) == (u.Phase.PENALTY, 0, 4, G)
    assert_moves(state, 0, {u.Play(0, card("G+2")), u.Accept(0)})
    wrong = u.Play(0, card("R+2"))
    assert wrong not in u.legal_moves(state)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, wrong)
    # The variant allows a Draw Two on a Wild Draw Four; what refuses this one is the colour (PLAY-1).
    assert (info.value.rule, info.value.reason) == ("PLAY-1", "card-does-not-match")
    assert state == _green_wd4_on_top()
    after = assert_legal(state, u.Play(0, card("G+2")))
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PENALTY, 1, 6, G)
    assert after.hands[0] == cards("R+2 B3")


def _red_d2_enforced(hand_text: str, mode: str = "enforced") -> u.GameState:
    return penalty(f"{CROSS}+wd4-{mode}", [hand_text, "Y5 Y6 Y7", "G8 G9"], "R5 R+2", 2)


def test_wd4_answer_enforced_refused_while_holding_colour() -> None:
    """HOUSE-1, WD4-1: in "enforced" mode a Wild Draw Four cannot answer while the player holds the colour
    in play (red, from the Draw Two); only Accept is left."""
    state = _red_d2_enforced("W+4 R3 B4")
    assert u.legal_moves(state) == [u.Accept(0)]
    for k in COLOURS:
        assert_rejected(partial(_red_d2_enforced, "W+4 R3 B4"), u.Play(0, WD4, k), "WD4-1",
                        "wild-draw-four-restricted")
    assert_rejected(partial(_red_d2_enforced, "W+4 R3 B4"), u.Play(0, card("R3")), "HOUSE-1", "cannot-stack")


def test_wd4_answer_enforced_allowed_without_colour() -> None:
    """HOUSE-1, WD4-1: without a card of the colour in play the enforced Wild Draw Four answers."""
    state = _red_d2_enforced("W+4 B3 G4")
    assert_moves(state, 0, wd4_plays(0) | {u.Accept(0)})
    after = assert_legal(state, u.Play(0, WD4, Y))
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PENALTY, 1, 6, Y)
    assert after.challenge is None
    assert after.hands[0] == cards("B3 G4")


def test_wd4_answer_unrestricted_allowed_while_holding_colour() -> None:
    """HOUSE-1, WD4-6: in "unrestricted" mode the Wild Draw Four answers even while holding red."""
    state = _red_d2_enforced("W+4 R3 B4", mode="unrestricted")
    assert_moves(state, 0, wd4_plays(0) | {u.Accept(0)})
    after = assert_legal(state, u.Play(0, WD4, B))
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PENALTY, 1, 6, B)
    assert after.hands[0] == cards("R3 B4")


# --- challenge mode with stacking (HOUSE-1) --------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_challenge_phase_offers_challenge_accept_and_stacks(variant: str) -> None:
    """HOUSE-1, WD4-2, WD4-3: a Wild Draw Four in challenge mode gives CHALLENGE with pending_draw 4;
    the victim may Challenge, Accept, or stack (a Wild Draw Four bluff is legal; a Draw Two only in "cross")."""
    start = u.from_position(prof(VARIANTS[variant]), ["R3 W+4 G7", "B+2 W+4 G5", "G8 G9 Y7"], "R5", draw_pile=PILE)
    state = assert_legal(start, u.Play(0, WD4, B))
    assert (state.phase, state.current, state.pending_draw, state.color) == (u.Phase.CHALLENGE, 1, 4, B)
    assert state.challenge == u.PendingChallenge(0, 1, True, cards("R3 G7"), R)
    expected = {u.Challenge(1), u.Accept(1)} | wd4_plays(1)
    if variant == "cross":
        expected.add(u.Play(1, card("B+2")))
    moves = assert_moves(state, 1, expected)
    assert u.legal_moves(state) == moves
    assert u.legal_moves(state, 0) == [] and u.legal_moves(state, 2) == []


def _d2_then_wd4(p1: str) -> u.GameState:
    """Player 0 plays R+2 on player 1, who stacks a Wild Draw Four naming green: player 2 faces 6 in CHALLENGE."""
    start = u.from_position(prof(CROSS), ["R+2 R3 G4", p1, "G8 G9 Y7"], "R5", draw_pile=PILE)
    s1 = u.apply(start, u.Play(0, card("R+2")))
    assert (s1.phase, s1.current, s1.pending_draw) == (u.Phase.PENALTY, 1, 2)
    return assert_legal(s1, u.Play(1, WD4, G))


def test_guilty_stacked_bluffer_draws_whole_total() -> None:
    """HOUSE-1, WD4-4: the bluffer of a stacked Wild Draw Four draws the whole total (2 + 4); the challenger
    draws nothing, is not skipped and plays an ordinary turn on green."""
    state = _d2_then_wd4("W+4 R7 Y6")
    assert (state.phase, state.current, state.pending_draw, state.color) == (u.Phase.CHALLENGE, 2, 6, G)
    assert state.challenge == u.PendingChallenge(1, 2, True, cards("R7 Y6"), R)
    after = assert_legal(state, u.Challenge(2))
    assert after.hands[1] == hand(cards("R7 Y6"), drawn(6))
    assert after.hands[2] == cards("G8 G9 Y7")
    assert after.hands[0] == cards("R3 G4")
    assert (after.phase, after.current, after.pending_draw, after.challenge) == (u.Phase.PLAY, 2, 0, None)
    assert (after.top_card, after.color) == (WD4, G)
    assert after.reveal == u.Reveal(2, 1, cards("R7 Y6"))
    assert [m for m in u.legal_moves(after, 2) if isinstance(m, u.Play)] == [
        u.Play(2, card("G8")), u.Play(2, card("G9")),
    ]


def test_innocent_stacked_wd4_challenger_draws_total_plus_two() -> None:
    """HOUSE-1, WD4-5: an honest stacked Wild Draw Four: the challenger draws total + 2 = 8 and misses the
    turn; the player after the challenger plays."""
    state = _d2_then_wd4("W+4 B7 Y6")
    assert state.challenge == u.PendingChallenge(1, 2, False, cards("B7 Y6"), R)
    after = assert_legal(state, u.Challenge(2))
    assert after.hands[2] == hand(cards("G8 G9 Y7"), drawn(8))
    assert after.hands[1] == cards("B7 Y6")
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PLAY, 0, 0, G)
    assert after.remaining_draw_pile == pile(PILE)[8:]


def test_accept_in_challenge_phase_draws_whole_total() -> None:
    """HOUSE-1, ACT-5: Accept in CHALLENGE draws the whole total (6) and misses the turn."""
    after = assert_legal(_d2_then_wd4("W+4 R7 Y6"), u.Accept(2))
    assert after.hands[2] == hand(cards("G8 G9 Y7"), drawn(6))
    assert after.hands[1] == cards("R7 Y6")
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PLAY, 0, 0, G)
    assert after.reveal is None


def _wd4_on_blue_d2(p0: str, named: int) -> u.GameState:
    """Player 0 faces B+2 (pending 4, blue in play; yellow before it) and stacks a Wild Draw Four."""
    state = penalty(CROSS, [p0, "R6 R8 R9", "G8 G9"], "Y5 Y+2 B+2", 4)
    assert (state.phase, state.color) == (u.Phase.PENALTY, B)
    return assert_legal(state, u.Play(0, WD4, named))


def test_stacked_wd4_bluff_judged_on_draw_two_colour() -> None:
    """HOUSE-1, WD4-1, WD4-2: a Wild Draw Four stacked on a blue Draw Two is judged against blue: holding
    yellow (the named colour and the colour before) is no bluff; holding blue is."""
    honest = _wd4_on_blue_d2("W+4 Y3 G7", Y)
    assert (honest.phase, honest.current, honest.pending_draw) == (u.Phase.CHALLENGE, 1, 8)
    assert honest.challenge == u.PendingChallenge(0, 1, False, cards("Y3 G7"), B)
    innocent = assert_legal(honest, u.Challenge(1))
    assert innocent.hands[1] == hand(cards("R6 R8 R9"), drawn(10))
    assert innocent.hands[0] == cards("Y3 G7")
    assert (innocent.phase, innocent.current, innocent.color) == (u.Phase.PLAY, 2, Y)

    bluff = _wd4_on_blue_d2("W+4 B3 G7", G)
    assert bluff.challenge == u.PendingChallenge(0, 1, True, cards("B3 G7"), B)
    guilty = assert_legal(bluff, u.Challenge(1))
    assert guilty.hands[0] == hand(cards("B3 G7"), drawn(8))
    assert guilty.hands[1] == cards("R6 R8 R9")
    assert (guilty.phase, guilty.current, guilty.pending_draw, guilty.color) == (u.Phase.PLAY, 1, 0, G)


def _buried_by_wd4() -> u.GameState:
    """Player 0 bluffs a Wild Draw Four (holds red, names blue); player 1, holding no blue, stacks an honest one."""
    start = u.from_position(prof(CROSS), ["R3 W+4 G7", "W+4 G5 Y6", "G8 G9 Y7"], "R5", draw_pile=PILE)
    s1 = u.apply(start, u.Play(0, WD4, B))
    assert s1.challenge == u.PendingChallenge(0, 1, True, cards("R3 G7"), R)
    return u.apply(s1, u.Play(1, WD4, R))


def test_buried_wd4_cannot_be_challenged() -> None:
    """HOUSE-1, WD4-3: stacking buries player 0's bluff: player 2's challenge judges player 1's honest
    card only (innocent: draws 8 + 2); players 0 and 1 may not challenge."""
    state = _buried_by_wd4()
    assert (state.phase, state.current, state.pending_draw, state.color) == (u.Phase.CHALLENGE, 2, 8, R)
    assert state.challenge == u.PendingChallenge(1, 2, False, cards("G5 Y6"), B)
    for p in (0, 1):
        assert_rejected(_buried_by_wd4, u.Challenge(p), "WD4-3", "not-challenged")
    after = assert_legal(state, u.Challenge(2))
    assert after.hands[2] == hand(cards("G8 G9 Y7"), drawn(10))
    assert after.hands[0] == cards("R3 G7")
    assert after.hands[1] == cards("G5 Y6")
    assert after.reveal == u.Reveal(2, 1, cards("G5 Y6"))
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PLAY, 0, 0, R)


def _buried_by_d2() -> u.GameState:
    start = u.from_position(prof(CROSS), ["R3 W+4 G7", "B+2 G5 Y6", "G8 G9 Y7"], "R5", draw_pile=PILE)
    return u.apply(u.apply(start, u.Play(0, WD4, B)), u.Play(1, card("B+2")))


def test_wd4_buried_by_draw_two_leaves_nothing_to_challenge() -> None:
    """HOUSE-1, WD4-3: a Draw Two on a bluffed Wild Draw Four buries it: the next victim is in PENALTY
    with 6 and a Challenge is refused (WD4-3 nothing-to-challenge)."""
    state = _buried_by_d2()
    assert (state.phase, state.current, state.pending_draw, state.color) == (u.Phase.PENALTY, 2, 6, B)
    assert state.challenge is None
    assert u.legal_moves(state) == [u.Accept(2)]
    assert_rejected(_buried_by_d2, u.Challenge(2), "WD4-3", "nothing-to-challenge")
    after = assert_legal(state, u.Accept(2))
    assert after.hands[2] == hand(cards("G8 G9 Y7"), drawn(6))
    assert after.hands[0] == cards("R3 G7")
    assert (after.phase, after.current, after.pending_draw) == (u.Phase.PLAY, 0, 0)


# --- forced play (HOUSE-1, HOUSE-5) ----------------------------------------------------------
def test_forced_play_does_not_force_a_stack() -> None:
    """HOUSE-1, HOUSE-5: with forced play the victim may still Accept although a Draw Two could answer."""
    spec = SAME + "+forced-play"
    assert prof(spec).decline_to_play is False
    state = penalty(spec, ["B+2 R3 G4", "Y5 Y6 Y7", "G8 G9"], "R5 R+2", 2)
    assert_moves(state, 0, {u.Play(0, card("B+2")), u.Accept(0)})
    after = assert_legal(state, u.Accept(0))
    assert after.hands[0] == hand(cards("B+2 R3 G4"), drawn(2))
    assert (after.phase, after.current, after.pending_draw) == (u.Phase.PLAY, 1, 0)


def test_forced_play_challenge_phase_keeps_accept() -> None:
    """HOUSE-1, HOUSE-5: in CHALLENGE with forced play, Accept and Challenge stay legal beside the
    stacking answers."""
    spec = CROSS + "+forced-play"
    start = u.from_position(prof(spec), ["G3 W+4 G7", "R+2 W+4 G5", "G8 G9 Y7"], "R5", draw_pile=PILE)
    state = assert_legal(start, u.Play(0, WD4, R))
    assert_moves(state, 1, {u.Challenge(1), u.Accept(1), u.Play(1, card("R+2"))} | wd4_plays(1))
    after = assert_legal(state, u.Accept(1))
    assert after.hands[1] == hand(cards("R+2 W+4 G5"), drawn(4))
    assert (after.phase, after.current) == (u.Phase.PLAY, 2)


# --- UNO (HOUSE-1) ---------------------------------------------------------------------------
def _two_card_victim() -> u.GameState:
    return penalty(CROSS, ["B+2 G4", "Y+2 Y5 Y6", "G8 G9 Y7"], "R5 R+2", 2)


def _exposed_stacker() -> u.GameState:
    """Player 0 stacked B+2 from two cards without calling UNO: player 1 faces 4, player 0 is exposed."""
    return u.apply(_two_card_victim(), u.Play(0, card("B+2")))


def test_stacker_from_two_cards_offered_with_and_without_call() -> None:
    """HOUSE-1, UNO-1: the answer from a two-card hand is listed with and without the UNO call; with the
    call nobody can be caught."""
    state = _two_card_victim()
    assert_moves(state, 0, {u.Play(0, card("B+2")), u.Play(0, card("B+2"), uno=True), u.Accept(0)})
    called = assert_legal(state, u.Play(0, card("B+2"), uno=True))
    assert called.uno_exposed == -1
    assert (called.phase, called.current, called.pending_draw) == (u.Phase.PENALTY, 1, 4)
    assert not any(isinstance(m, u.CatchUno | u.CallUno) for m in u.legal_moves(called))


def test_stacker_without_uno_call_is_exposed_during_penalty() -> None:
    """HOUSE-1, UNO-2: a stacker playing from two cards without the call is exposed; until the victim
    decides, every other player (the victim too) may catch, and the exposed player may call late."""
    state = _exposed_stacker()
    assert (state.phase, state.current, state.pending_draw, state.uno_exposed) == (u.Phase.PENALTY, 1, 4, 0)
    assert state.hands[0] == cards("G4")
    moves = u.legal_moves(state)
    turn = in_turn(moves)
    assert set(turn) == {u.Play(1, card("Y+2")), u.Accept(1)} and len(turn) == 2
    assert moves[len(turn):] == [u.CallUno(0), u.CatchUno(1, 0), u.CatchUno(2, 0)]
    assert_moves(state, 1, {u.Play(1, card("Y+2")), u.Accept(1), u.CatchUno(1, 0)})
    assert u.legal_moves(state, 0) == [u.CallUno(0)]
    assert u.legal_moves(state, 2) == [u.CatchUno(2, 0)]
    for catcher in (1, 2):
        caught = assert_legal(state, u.CatchUno(catcher, 0))
        assert caught.hands[0] == hand(cards("G4"), drawn(2))
        assert caught.uno_exposed == -1
        assert (caught.phase, caught.current, caught.pending_draw) == (u.Phase.PENALTY, 1, 4)
        assert caught.hands[1] == cards("Y+2 Y5 Y6")
        assert_moves(caught, 1, {u.Play(1, card("Y+2")), u.Accept(1)})


def test_victim_answer_closes_catch_window() -> None:
    """HOUSE-1, UNO-5, UNO-7: the victim's stacking answer is a play, which begins their turn and closes the window."""
    answer = u.Play(1, u.parse_card("Y+2"))
    after = assert_legal(_exposed_stacker(), answer)
    assert after.uno_exposed == -1
    assert after.hands[0] == cards("G4")

    def build() -> u.GameState:
        return u.apply(_exposed_stacker(), answer)

    assert_rejected(build, u.CatchUno(2, 0), "UNO-5", "not-catchable")
    assert_rejected(build, u.CallUno(0), "UNO-4", "no-uno-owed")


def test_victim_accept_keeps_catch_window_open() -> None:
    """HOUSE-1, UNO-7 ruling: Accept only takes the penalty, as the victim of a Draw Two does without
    stacking; it begins no turn (UNO-5), so the window stays open until player 2 acts."""
    after = assert_legal(_exposed_stacker(), u.Accept(1))
    assert (after.phase, after.current, after.uno_exposed) == (u.Phase.PLAY, 2, 0)
    assert after.hands[1] == hand(cards("Y+2 Y5 Y6"), drawn(4))
    assert u.legal_moves(after, 1) == [u.CatchUno(1, 0)]
    caught = assert_legal(after, u.CatchUno(2, 0))
    assert (caught.uno_exposed, caught.current, len(caught.hands[0])) == (-1, 2, 3)
    late = assert_legal(after, u.CallUno(0))
    assert late.uno_exposed == -1
    played = assert_legal(after, next(m for m in u.legal_moves(after, 2) if isinstance(m, u.Play | u.Draw)))
    assert played.uno_exposed == -1


def _exposed_wd4_stacker() -> u.GameState:
    """Challenge mode: player 0 stacks W+4 (naming blue) from two cards on R+2 without calling UNO."""
    return u.apply(penalty(CROSS, ["W+4 G4", "Y5 Y6 Y7", "G8 G9 R7"], "R5 R+2", 2), u.Play(0, WD4, B))


def test_victim_challenge_closes_catch_window() -> None:
    """HOUSE-1, UNO-7, WD4-5: the stacked W+4 leaves player 0 exposed in CHALLENGE; the victim's
    Challenge (innocent: draws 6 + 2) closes the window."""
    state = _exposed_wd4_stacker()
    assert (state.phase, state.current, state.pending_draw, state.uno_exposed) == (u.Phase.CHALLENGE, 1, 6, 0)
    assert_moves(state, 1, {u.Challenge(1), u.Accept(1), u.CatchUno(1, 0)})
    assert u.legal_moves(state, 2) == [u.CatchUno(2, 0)]
    after = assert_legal(state, u.Challenge(1))
    assert after.hands[1] == hand(cards("Y5 Y6 Y7"), drawn(8))
    assert after.hands[0] == cards("G4")
    assert (after.phase, after.current, after.uno_exposed, after.pending_draw) == (u.Phase.PLAY, 2, -1, 0)

    def build() -> u.GameState:
        return u.apply(_exposed_wd4_stacker(), u.Challenge(1))

    assert_rejected(build, u.CatchUno(2, 0), "UNO-5", "not-catchable")


# --- going out on a stack (HOUSE-1, END-1, ACT-9) -------------------------------------------
def test_going_out_with_draw_two_on_stack() -> None:
    """HOUSE-1, END-1, ACT-9, SCORE-2: the last card answers a Draw Two: the round ends at once, the next
    player draws the whole total 4 and those cards score for the winner."""
    state = penalty(CROSS, ["B+2", "Y5 Y6 G+2", "G8 G9"], "R5 R+2", 2)
    assert_moves(state, 0, {u.Play(0, card("B+2")), u.Accept(0)})
    after = assert_legal(state, u.Play(0, card("B+2")))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == ((), hand(cards("Y5 Y6 G+2"), drawn(4)), cards("G8 G9"))
    assert after.pending_draw == 0
    assert after.match.last_round == u.RoundResult(0, False, (0, 41, 17), (58, 0, 0))
    assert after.scores == (58, 0, 0)
    assert u.legal_moves(after) == [u.NextRound(0)]


def test_going_out_with_wd4_on_stack_outside_challenge_mode() -> None:
    """HOUSE-1, END-1, ACT-9: a last unrestricted Wild Draw Four on a pending 2: the next player draws 6
    at once and the round is over; no answer is possible."""
    state = penalty(CROSS + "+wd4-unrestricted", ["W+4", "Y5 Y6 G+2", "G8 G9"], "R5 R+2", 2)
    after = assert_legal(state, u.Play(0, WD4, G))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == ((), hand(cards("Y5 Y6 G+2"), drawn(6)), cards("G8 G9"))
    assert after.pending_draw == 0
    assert after.match.last_round == u.RoundResult(0, False, (0, 44, 17), (61, 0, 0))
    assert u.Accept(1) not in u.legal_moves(after)


def _last_wd4_in_challenge_mode() -> u.GameState:
    return u.apply(penalty(CROSS, ["W+4", "B+2 W+4 Y6", "G8 G9"], "R5 R+2", 2), u.Play(0, WD4, B))


def test_last_wd4_in_challenge_mode_offers_no_stack() -> None:
    """HOUSE-1, ACT-9, WD4-3: a last Wild Draw Four in challenge mode: the victim may only Challenge or
    Accept; stacking answers are not offered and are refused."""
    state = _last_wd4_in_challenge_mode()
    assert (state.phase, state.current, state.pending_draw) == (u.Phase.CHALLENGE, 1, 6)
    assert state.hands[0] == ()
    moves = assert_moves(state, 1, {u.Challenge(1), u.Accept(1)})
    assert u.legal_moves(state) == moves
    assert_refused(partial(_last_wd4_in_challenge_mode), u.Play(1, card("B+2")))
    assert_refused(partial(_last_wd4_in_challenge_mode), u.Play(1, WD4, R))


def test_last_wd4_in_challenge_mode_challenge_draws_total_plus_two() -> None:
    """HOUSE-1, WD4-5, END-1: a last card is never a bluff: the challenger draws 6 + 2; the round ends."""
    after = assert_legal(_last_wd4_in_challenge_mode(), u.Challenge(1))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == ((), hand(cards("B+2 W+4 Y6"), drawn(8)), cards("G8 G9"))
    assert after.match.last_round == u.RoundResult(0, False, (0, 93, 17), (110, 0, 0))


def test_last_wd4_in_challenge_mode_accept_draws_total() -> None:
    """HOUSE-1, ACT-9, END-1: Accept draws the total 6; the round ends and the cards score."""
    after = assert_legal(_last_wd4_in_challenge_mode(), u.Accept(1))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == ((), hand(cards("B+2 W+4 Y6"), drawn(6)), cards("G8 G9"))
    assert after.match.last_round == u.RoundResult(0, False, (0, 89, 17), (106, 0, 0))
    assert after.pending_draw == 0


# --- the first card (HOUSE-1, SETUP-7, HOUSE-7) ----------------------------------------------
def _deck(first_card: str, profile: u.Profile) -> list[u.Card]:
    """A deck whose first dealt card (to seat 1, dealer 0) is B+2 and whose 22nd card (the first discard of a
    three-player deal) is ``first_card``."""
    rest = [u.CARDS[c] for c in profile.deck_cards()]
    rest.remove(card("B+2"))
    rest.remove(card(first_card))
    return [card("B+2"), *rest[:20], card(first_card), *rest[20:]]


@pytest.mark.parametrize("spec", [SAME, CROSS, NO_MERCY])
def test_first_card_draw_two_is_not_stackable(spec: str) -> None:
    """HOUSE-1, SETUP-7: a first Draw Two is drawn at once by the first player (even holding B+2), who is
    skipped: phase PLAY, no pending draw."""
    deck = _deck("R+2", prof(spec))
    state = u.new_game(prof(spec), 3, dealer=0, deck=deck)
    assert state.hands[1] == hand(deck[0:21:3], deck[22:24])
    assert card("B+2") in state.hands[1]
    assert state.hands[2] == hand(deck[1:21:3])
    assert state.hands[0] == hand(deck[2:21:3])
    assert (state.phase, state.current, state.pending_draw) == (u.Phase.PLAY, 2, 0)
    assert (state.top_card, state.color, state.direction) == (card("R+2"), R, 1)
    assert state.remaining_draw_pile == tuple(deck[24:])
    assert u.legal_moves(state, 1) == []
    assert u.Accept(1) not in u.legal_moves(state)


def test_first_card_wd4_applies_is_not_stackable() -> None:
    """HOUSE-1, HOUSE-7: a first Wild Draw Four that applies: the dealer names the colour, the first player
    draws 4 and is skipped, with no PENALTY phase."""
    spec = CROSS + "+wd4-first-card-applies"
    deck = _deck("W+4", prof(spec))
    state = u.new_game(prof(spec), 3, dealer=0, deck=deck)
    assert (state.phase, state.current, state.pending_draw) == (u.Phase.CHOOSE_COLOR, 0, 0)
    after = assert_legal(state, u.ChooseColor(0, G))
    assert after.hands[1] == hand(deck[0:21:3], deck[22:26])
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PLAY, 2, 0, G)
    assert u.legal_moves(after, 1) == []


# --- too few cards (HOUSE-1, PLAY-7) -------------------------------------------------------
@pytest.mark.parametrize(
    ("draw_pile", "discard", "n", "gets"),
    [
        ("", "G1 Y3 B9 R+2", 6, "G1 Y3 B9"),
        ("Y7", "G1 Y3 B9 R+2", 4, "Y7 G1 Y3 B9"),
        ("Y7", "G1 Y3 B9 R+2", 8, "Y7 G1 Y3 B9"),
        ("", "R+2", 2, ""),
    ],
)
def test_too_few_cards_total_drawn_as_far_as_cards_exist(draw_pile: str, discard: str, n: int, gets: str) -> None:
    """HOUSE-1, PLAY-7: Accept draws the total, reshuffling the discard pile below its top on the way;
    fewer only when nothing is left."""
    state = penalty(CROSS, ["R3 G4 B5", "Y5 Y6", "G8 G9"], discard, n, draw_pile=draw_pile)
    after = assert_legal(state, u.Accept(0))
    assert after.hands[0] == hand(cards("R3 G4 B5"), cards(gets))
    assert after.hands[1:] == (cards("Y5 Y6"), cards("G8 G9"))
    assert after.discard_pile == (card("R+2"),)
    assert after.draw_pile_size == 0
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PLAY, 1, 0, R)
    assert all_cards(after) == all_cards(state)


# --- from_position(pending_draw=N) ------------------------------------------------------------------
def test_from_position_pending_draw_builds_penalty() -> None:
    """HOUSE-1 New API: from_position(pending_draw=N) builds a PENALTY state where ``current`` faces N."""
    state = penalty(SAME, ["R3 G4", "Y+2 Y5 Y6", "G8 G9"], "R5 R+2", 6, current=1)
    assert (state.phase, state.current, state.pending_draw, state.color) == (u.Phase.PENALTY, 1, 6, R)
    assert (state.challenge, state.uno_exposed, state.drawn) == (None, -1, None)
    assert state.hands[1] == cards("Y+2 Y5 Y6")
    assert_moves(state, 1, {u.Play(1, card("Y+2")), u.Accept(1)})
    for mode in ("enforced", "unrestricted"):
        wd4 = penalty(f"{NO_MERCY}+wd4-{mode}", ["R3 G4", "Y5 Y6"], "R5 W+4", 8, color=Y)
        assert (wd4.phase, wd4.current, wd4.pending_draw, wd4.color) == (u.Phase.PENALTY, 0, 8, Y)
        assert wd4.challenge is None


@pytest.mark.parametrize(
    ("spec", "discard", "color"),
    [
        (CLASSIC, "R5 R+2", None),  # stacking off
        (CLASSIC + "+wd4-unrestricted", "R5 W+4", B),  # stacking off
        (SAME, "R5", None),  # top card is not a Draw card
        (CROSS, "R+2 W", B),  # a plain Wild is not a Draw card
        (CROSS, "R5 W+4", B),  # Wild Draw Four on top in challenge mode
        (SAME, "R5 W+4", G),  # Wild Draw Four on top in challenge mode
    ],
)
def test_from_position_pending_draw_refuses_bad_input(spec: str, discard: str, color: int | None) -> None:
    """HOUSE-1 New API: pending_draw needs stacking on and a Draw card on top, and no Wild Draw Four on top in
    challenge mode (PositionError)."""
    with pytest.raises(u.PositionError, match="pending_draw"):
        u.from_position(prof(spec), ["R3 G4", "Y5 Y6"], discard, draw_pile=PILE, color=color, pending_draw=4)


# --- refusals in PENALTY (HOUSE-1) --------------------------------------------------------
def _refusal_state() -> u.GameState:
    return penalty(CROSS, ["B+2 R3 G4", "Y5 Y6 Y7", "G8 G9"], "R5 R+2", 2)


@pytest.mark.parametrize(
    ("move", "rule", "reason"),
    [
        (u.Draw(0), "HOUSE-1", "must-answer-penalty"),
        (u.Pass(0), "HOUSE-1", "must-answer-penalty"),
        (u.Play(0, u.parse_card("R3")), "HOUSE-1", "cannot-stack"),
        (u.Play(0, u.parse_card("G4")), "HOUSE-1", "cannot-stack"),
        (u.Play(0, u.parse_card("Y+2")), "PLAY-1", "card-not-in-hand"),
        (u.Play(0, u.parse_card("W+4"), u.Color.RED), "PLAY-1", "card-not-in-hand"),
        (u.Challenge(0), "WD4-3", "nothing-to-challenge"),
        (u.Play(1, u.parse_card("Y5")), "PLAY-8", "not-your-turn"),
    ],
)
def test_penalty_refusals(move: u.Move, rule: str, reason: str) -> None:
    """HOUSE-1, WD4-3, PLAY-1, PLAY-8: in PENALTY no Draw or Pass, no card that cannot answer, nothing to
    challenge; the state is unchanged."""
    assert_rejected(_refusal_state, move, rule, reason)


@pytest.mark.parametrize("player", [1, 2])
def test_accept_by_non_victim_refused(player: int) -> None:
    """HOUSE-1: only the victim may Accept the pending draw."""
    assert_refused(partial(_refusal_state), u.Accept(player))


def test_penalty_refusals_with_empty_draw_pile() -> None:
    """HOUSE-1, PLAY-7: even with nothing to draw, Draw and Pass are refused in PENALTY; Accept is legal."""
    build = partial(penalty, CROSS, ["R3 G4", "Y5 Y6"], "R+2", 2, draw_pile="")
    assert u.legal_moves(build()) == [u.Accept(0)]
    assert_rejected(build, u.Draw(0), "HOUSE-1", "must-answer-penalty")
    assert_rejected(build, u.Pass(0), "HOUSE-1", "must-answer-penalty")


# --- jump-in while a penalty is pending (HOUSE-1, HOUSE-2) ---------------------------------
def _jump_penalty() -> u.GameState:
    hands = ["R3 G4 B5", "Y5 Y6 B+2", "R+2 G8 G9", "B8 B9 G7"]
    return penalty(SAME + "+jump-in", hands, "R5 R+2", 2)


def test_jump_in_on_penalty_adds_two_and_victim_escapes() -> None:
    """HOUSE-1, HOUSE-2: a player holding the identical R+2 jumps in during PENALTY: total 4, the player
    after the jumper faces it, the original victim escapes."""
    state = _jump_penalty()
    assert u.legal_moves(state) == [u.Accept(0), u.Play(2, card("R+2"))]
    assert u.legal_moves(state, 2) == [u.Play(2, card("R+2"))]
    assert u.legal_moves(state, 1) == []
    assert_rejected(_jump_penalty, u.Play(1, card("B+2")), "HOUSE-2", "not-identical")
    after = assert_legal(state, u.Play(2, card("R+2")))
    assert (after.phase, after.current, after.pending_draw, after.color) == (u.Phase.PENALTY, 3, 4, R)
    assert after.hands[0] == cards("R3 G4 B5")
    assert after.hands[2] == cards("G8 G9")
    taken = assert_legal(after, u.Accept(3))
    assert taken.hands[3] == hand(cards("B8 B9 G7"), drawn(4))
    assert (taken.phase, taken.current, taken.pending_draw) == (u.Phase.PLAY, 0, 0)


def _jump_challenge() -> u.GameState:
    start = u.from_position(prof(CROSS + "+jump-in"), ["R3 W+4 G7", "Y5 Y6 Y7", "W+4 G8 G9"], "R5",
                            draw_pile=PILE)
    return u.apply(start, u.Play(0, WD4, B))


def test_no_jump_in_during_challenge_phase() -> None:
    """HOUSE-1, HOUSE-2: a Wild Draw Four is never identical: no jump-in while a challenge is pending."""
    state = _jump_challenge()
    assert (state.phase, state.current, state.pending_draw) == (u.Phase.CHALLENGE, 1, 4)
    assert u.legal_moves(state, 2) == []
    assert_rejected(_jump_challenge, u.Play(2, WD4, R), "HOUSE-2", "no-jump-in-now")


# --- view (HOUSE-1 New API) ------------------------------------------------------------------------
def test_view_pending_draw_is_public() -> None:
    """HOUSE-1 New API: view(state, p).pending_draw equals state.pending_draw for every player."""
    classic = u.from_position(prof(CLASSIC), ["R3 W+4 G4", "Y5 Y6", "B8"], "R5", draw_pile=PILE)
    states = {
        2: _refusal_state(),
        6: _d2_then_wd4("W+4 R7 Y6"),
        4: u.apply(classic, u.Play(0, WD4, B)),
        0: classic,
        8: _buried_by_wd4(),
    }
    for expected, state in states.items():
        assert state.pending_draw == expected
        for p in range(state.num_players):
            assert u.view(state, p).pending_draw == expected
