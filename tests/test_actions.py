"""Action cards: ACT-1..9 and the two-player Reverse option HOUSE-6, on exact positions."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from helpers_actions import (
    B,
    G,
    R,
    Y,
    all_cards,
    assert_legal,
    assert_rejected,
    card,
    cards,
    pile,
    plays,
    profile,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u

CLASSIC = "classic-108"


# --- ACT-1 Skip ----------------------------------------------------------------------------
def _skip_position(n: int, current: int, direction: int) -> u.GameState:
    hands = ["R1 G2 B3", "Y1 Y2 Y3", "G4 G5 G6", "B4 B5 B6"][:n]
    hands[current] = "RS G2 B3"
    return u.from_position(CLASSIC, hands, "R5", draw_pile="Y7 Y8 Y9", direction=direction, current=current)


def test_skip_three_players_skips_next() -> None:
    """ACT-1: with 3 players, player 0's Skip makes player 1 lose the turn; player 2 plays."""
    state = _skip_position(3, 0, 1)
    after = assert_legal(state, u.Play(0, card("RS")))
    assert after.current == 2
    assert after.phase is u.Phase.PLAY
    assert after.direction == 1
    assert after.hands[1] == state.hands[1]
    assert after.hands[0] == cards("G2 B3")
    assert after.top_card == card("RS")
    assert after.color == R
    assert after.draw_pile_size == 3


def test_skip_four_players() -> None:
    """ACT-1: with 4 players, a Skip by player 2 passes the turn to player 0."""
    after = u.apply(_skip_position(4, 2, 1), u.Play(2, card("RS")))
    assert after.current == 0


def test_skip_counter_clockwise() -> None:
    """ACT-1, PLAY-8: with direction -1 the next player is the one to the right; they are skipped."""
    state = _skip_position(4, 1, -1)
    after = u.apply(state, u.Play(1, card("RS")))
    assert after.current == 3
    assert after.direction == -1
    assert after.hands[0] == state.hands[0]

    after3 = u.apply(_skip_position(3, 0, -1), u.Play(0, card("RS")))
    assert after3.current == 1


def test_skip_two_players_plays_again() -> None:
    """ACT-1: with 2 players the Skip brings the turn straight back to the player."""
    after = u.apply(_skip_position(2, 0, 1), u.Play(0, card("RS")))
    assert after.current == 0
    assert after.phase is u.Phase.PLAY


def test_skipped_player_cannot_play() -> None:
    """ACT-1: the skipped player has no move and a play by them is out of turn."""
    after = u.apply(_skip_position(3, 0, 1), u.Play(0, card("RS")))
    assert u.legal_moves(after, 1) == []
    assert_rejected(lambda: u.apply(_skip_position(3, 0, 1), u.Play(0, card("RS"))),
                    u.Play(1, card("Y1")), "PLAY-8", "not-your-turn")


# --- ACT-2 Reverse, HOUSE-6 ----------------------------------------------------------------
def _reverse_position(prof: u.Profile | str, n: int, current: int, direction: int) -> u.GameState:
    hands = ["R1 G2 B3", "Y1 Y2 Y3", "G4 G5 G6", "B4 B5 B6"][:n]
    hands[current] = "RR R2 B3"
    return u.from_position(prof, hands, "R5", draw_pile="Y7 Y8", direction=direction, current=current)


def test_reverse_flips_direction_four_players() -> None:
    """ACT-2: Reverse flips the direction; the next player in the new direction plays."""
    after = assert_legal(_reverse_position(CLASSIC, 4, 0, 1), u.Play(0, card("RR")))
    assert after.direction == -1
    assert after.current == 3
    assert after.phase is u.Phase.PLAY
    assert after.color == R


def test_reverse_from_counter_clockwise() -> None:
    """ACT-2: Reverse played with direction -1 turns play clockwise again."""
    after = u.apply(_reverse_position(CLASSIC, 3, 1, -1), u.Play(1, card("RR")))
    assert after.direction == 1
    assert after.current == 2


def test_reverse_three_players_classic_is_plain_reverse() -> None:
    """ACT-2, HOUSE-6: the two-player Skip option does not touch games of 3 players."""
    assert profile(CLASSIC).two_player_reverse == "skip"
    after = u.apply(_reverse_position(CLASSIC, 3, 0, 1), u.Play(0, card("RR")))
    assert after.direction == -1
    assert after.current == 2


def test_two_player_reverse_profile_values() -> None:
    """HOUSE-6: a profile value; classic-108 has it on, the GDJ85 sheet not."""
    assert profile(CLASSIC).two_player_reverse == "skip"
    assert profile("gdj85").two_player_reverse == "reverse"
    assert profile("ffk04").two_player_reverse == "reverse"


def test_two_player_reverse_acts_as_skip_in_classic() -> None:
    """HOUSE-6, ACT-2: classic-108 with 2 players: after Reverse the same player plays again."""
    state = _reverse_position(CLASSIC, 2, 0, 1)
    after = assert_legal(state, u.Play(0, card("RR")))
    assert after.current == 0
    assert after.phase is u.Phase.PLAY
    assert after.hands[1] == state.hands[1]
    assert u.legal_moves(after, 1) == []
    again = assert_legal(after, u.Play(0, card("R2")))
    assert again.current == 1


def test_two_player_reverse_gdj85_other_player_plays() -> None:
    """HOUSE-6 off (gdj85 "reverse"), ACT-2: with 2 players the other player plays next."""
    after = u.apply(_reverse_position("gdj85", 2, 0, 1), u.Play(0, card("RR")))
    assert after.current == 1
    assert after.direction == -1
    after2 = u.apply(_reverse_position("gdj85", 2, 1, 1), u.Play(1, card("RR")))
    assert after2.current == 0


def test_two_player_reverse_overlay_on_gdj85() -> None:
    """HOUSE-6: switching the value on for gdj85 gives the Skip behaviour."""
    prof = profile("gdj85", two_player_reverse="skip")
    after = u.apply(_reverse_position(prof, 2, 1, 1), u.Play(1, card("RR")))
    assert after.current == 1


# --- ACT-3 Draw Two ------------------------------------------------------------------------
def _draw_two_position(direction: int = 1) -> u.GameState:
    return u.from_position(
        CLASSIC,
        ["R+2 G2 B3", "B+2 G+2 Y1", "Y+2 G6 R9", "B4 B5 B6"],
        "R5",
        draw_pile="W G9 Y0 B7",
        direction=direction,
    )


def test_draw_two_next_draws_top_two_and_is_skipped() -> None:
    """ACT-3: the next player draws exactly the top 2 cards of the draw pile and misses the turn."""
    state = _draw_two_position()
    after = assert_legal(state, u.Play(0, card("R+2")))
    assert after.hands[1] == cards("B+2 G+2 Y1 W G9")
    assert after.remaining_draw_pile == pile("Y0 B7")
    assert after.current == 2
    assert after.phase is u.Phase.PLAY
    assert after.hands[0] == cards("G2 B3")
    assert after.hands[2] == state.hands[2]
    assert after.hands[3] == state.hands[3]


def test_draw_two_counter_clockwise() -> None:
    """ACT-3, PLAY-8: with direction -1 the player to the right draws 2; the one after plays."""
    after = u.apply(_draw_two_position(-1), u.Play(0, card("R+2")))
    assert after.hands[3] == cards("B4 B5 B6 W G9")
    assert after.hands[1] == cards("B+2 G+2 Y1")
    assert after.current == 2


def test_draw_two_not_stackable_victim_never_answers() -> None:
    """ACT-3 (no HOUSE-1): the victim gets no chance to answer with their own Draw Two."""
    after = u.apply(_draw_two_position(), u.Play(0, card("R+2")))
    assert u.legal_moves(after, 1) == []
    assert_rejected(lambda: u.apply(_draw_two_position(), u.Play(0, card("R+2"))),
                    u.Play(1, card("B+2")), "PLAY-8", "not-your-turn")


def test_draw_two_does_not_accumulate() -> None:
    """ACT-3: a Draw Two answered later by the next player in turn costs its victim 2, not 4."""
    after = u.apply(_draw_two_position(), u.Play(0, card("R+2")))
    again = assert_legal(after, u.Play(2, card("Y+2")))
    assert again.hands[3] == cards("B4 B5 B6 Y0 B7")
    assert again.current == 0
    assert again.draw_pile_size == 0


# --- ACT-4 Wild ----------------------------------------------------------------------------
def _wild_position() -> u.GameState:
    return u.from_position(CLASSIC, ["W R3 B3", "G1 R7 R5", "Y4 Y5 Y6"], "R5", draw_pile="B9")


def test_wild_names_colour() -> None:
    """ACT-4: the Wild names the colour; the next player must follow that colour."""
    state = _wild_position()
    wilds = plays(u.legal_moves(state, 0), "W")
    assert sorted(m.color for m in wilds if m.color is not None) == [R, Y, G, B]
    assert all(m.color is not None and m.target is None for m in wilds)
    after = assert_legal(state, u.Play(0, card("W"), G))
    assert after.color == G
    assert after.color_in_play is u.Color.GREEN
    assert after.top_card == card("W")
    assert after.current == 1
    assert after.hands[0] == cards("R3 B3")
    assert plays(u.legal_moves(after, 1)) == [u.Play(1, card("G1"))]


def test_wild_without_colour_rejected() -> None:
    """ACT-4: a Wild played without naming a colour is refused (rule ACT-4)."""
    assert_rejected(_wild_position, u.Play(0, card("W")), "ACT-4", "colour-required")


def test_wild_with_no_such_colour_rejected() -> None:
    """ACT-4: the colour named must be one of the four."""
    assert_rejected(_wild_position, u.Play(0, card("W"), 4), "ACT-4", "colour-required")  # type: ignore[arg-type]


def test_non_wild_naming_colour_rejected() -> None:
    """ACT-4: only a wild names a colour; a numbered card with a colour is refused."""
    state = _wild_position()
    err = assert_rejected(_wild_position, u.Play(0, card("R3"), B), "PLAY-1", "colour-not-allowed")
    assert "R3" in str(err)
    assert u.Play(0, card("R3")) in u.legal_moves(state)


# --- ACT-5 Wild Draw Four (see test_wild_draw_four.py for WD4-*) ----------------------------
def _wd4_position(prof: u.Profile | str, direction: int = 1) -> u.GameState:
    return u.from_position(
        prof, ["W+4 G3 B3", "Y1 Y2 Y3", "G4 G5 G6"], "R5", draw_pile="B7 B8 B9 G9 Y9", direction=direction
    )


def test_wild_draw_four_enforced_draws_four_automatically() -> None:
    """ACT-5: enforced mode: colour named, next player draws the top 4 and misses the turn."""
    state = _wd4_position(profile(CLASSIC, wild_draw_four="enforced"))
    after = assert_legal(state, u.Play(0, card("W+4"), Y))
    assert after.color == Y
    assert after.hands[1] == cards("Y1 Y2 Y3 B7 B8 B9 G9")
    assert after.remaining_draw_pile == pile("Y9")
    assert after.current == 2
    assert after.phase is u.Phase.PLAY
    assert after.challenge is None


def test_wild_draw_four_unrestricted_counter_clockwise() -> None:
    """ACT-5, PLAY-8: unrestricted mode with direction -1: player 2 draws 4, player 1 plays."""
    after = u.apply(_wd4_position(profile(CLASSIC, wild_draw_four="unrestricted"), -1), u.Play(0, card("W+4"), B))
    assert after.hands[2] == cards("G4 G5 G6 B7 B8 B9 G9")
    assert after.hands[1] == cards("Y1 Y2 Y3")
    assert after.current == 1
    assert after.color == B


def test_wild_draw_four_challenge_mode_accept() -> None:
    """ACT-5: challenge mode: the victim decides first; Accept draws the top 4 and skips them."""
    state = _wd4_position(CLASSIC)
    after = assert_legal(state, u.Play(0, card("W+4"), G))
    assert after.phase is u.Phase.CHALLENGE
    assert after.current == 1
    assert after.hands[1] == cards("Y1 Y2 Y3")
    accepted = assert_legal(after, u.Accept(1))
    assert accepted.hands[1] == cards("Y1 Y2 Y3 B7 B8 B9 G9")
    assert accepted.current == 2
    assert accepted.phase is u.Phase.PLAY
    assert accepted.color == G
    assert accepted.hands[0] == cards("G3 B3")


# --- ACT-6 Wild Shuffle Hands --------------------------------------------------------------
def _shuffle_position(direction: int = 1, seed: int = 0) -> u.GameState:
    return u.from_position(
        "gdj85", ["WSH R1 R2 R3", "G1 G2", "B1 B2"], "R5", direction=direction, seed=seed
    )


def test_shuffle_hands_redeals_from_players_left() -> None:
    """ACT-6: 7 cards after playing among 3 players: the player's left gets 3, the others 2."""
    state = _shuffle_position()
    after = assert_legal(state, u.Play(0, card("WSH"), Y))
    assert [len(h) for h in after.hands] == [2, 3, 2]
    pooled = Counter(c for h in after.hands for c in h)
    assert pooled == Counter(cards("R1 R2 R3 G1 G2 B1 B2"))
    assert all_cards(after) == all_cards(state)
    assert after.color == Y
    assert after.top_card == card("WSH")
    assert after.current == 1
    assert after.phase is u.Phase.PLAY
    assert after.draw_pile_size == state.draw_pile_size


def test_shuffle_hands_counter_clockwise() -> None:
    """ACT-6, PLAY-8: dealing starts from the player's left; the turn passes in the direction of play."""
    after = u.apply(_shuffle_position(direction=-1), u.Play(0, card("WSH"), B))
    assert [len(h) for h in after.hands] == [2, 3, 2]
    assert after.current == 2
    assert after.direction == -1


def test_shuffle_hands_four_players_sizes() -> None:
    """ACT-6: 4 players, player 1 plays, 9 cards: player 2 (left) gets 3, everyone else 2."""
    state = u.from_position("gdj85", ["R1", "WSH R2 R3 R4", "G1 G2 G3 G4", "B1"], "R5", current=1)
    after = u.apply(state, u.Play(1, card("WSH"), R))
    assert [len(h) for h in after.hands] == [2, 2, 3, 2]
    assert all_cards(after) == all_cards(state)
    assert after.current == 2


def test_shuffle_hands_really_shuffles() -> None:
    """ACT-6: the redeal is random: different seeds give different hands."""
    outcomes = {u.apply(_shuffle_position(seed=s), u.Play(0, card("WSH"), Y)).hands for s in range(20)}
    assert len(outcomes) > 1


def test_shuffle_hands_needs_colour() -> None:
    """ACT-6, ACT-4: Shuffle Hands names the colour."""
    assert_rejected(_shuffle_position, u.Play(0, card("WSH")), "ACT-4", "colour-required")


@st.composite
def _shuffle_cases(draw: st.DrawFn) -> tuple[int, int, list[int], int]:
    n = draw(st.integers(2, 6))
    player = draw(st.integers(0, n - 1))
    sizes = [draw(st.integers(1, 6)) for _ in range(n)]
    sizes[player] = max(sizes[player], 2)  # the player keeps a card after playing Shuffle Hands
    seed = draw(st.integers(0, 2**32))
    return n, player, sizes, seed


@settings(max_examples=60, deadline=None)
@given(_shuffle_cases())
def test_shuffle_hands_property(case: tuple[int, int, list[int], int]) -> None:
    """ACT-6: cards conserved, sizes equal or one apart, the extra cards go from the player's left on."""
    n, player, sizes, seed = case
    prof = profile("gdj85")
    rng = random.Random(seed)
    deck = [u.CARDS[c] for c in prof.deck_cards() if c != u.WILD_SHUFFLE_HANDS]
    rng.shuffle(deck)
    top = next(c for c in deck if not c.is_wild)
    deck.remove(top)
    hands: list[list[u.Card]] = []
    for k in sizes:
        hands.append(deck[:k])
        del deck[:k]
    hands[player][0] = u.CARDS[u.WILD_SHUFFLE_HANDS]
    state = u.from_position(prof, hands, [top], current=player, seed=seed)
    after = u.apply(state, u.Play(player, u.CARDS[u.WILD_SHUFFLE_HANDS], G))
    pooled_before = Counter(c for h in state.hands for c in h) - Counter([u.WILD_SHUFFLE_HANDS])
    assert Counter(c for h in after.hands for c in h) == pooled_before
    assert all_cards(after) == all_cards(state)
    total = sum(sizes) - 1
    expected = [total // n + (1 if (s - player - 1) % n < total % n else 0) for s in range(n)]
    assert [len(h) for h in after.hands] == expected
    assert after.current == (player + 1) % n
    assert after.color == G


# --- ACT-7 Wild Swap Hands -----------------------------------------------------------------
def _swap_position() -> u.GameState:
    return u.from_position("ffk04", ["WSW R3 G4", "Y1 Y2", "B1 B2 B3 Y5"], "R5", draw_pile="G9")


def test_swap_hands_exchanges_exactly() -> None:
    """ACT-7: the player and the chosen opponent exchange hands; colour named; next player plays."""
    state = _swap_position()
    after = assert_legal(state, u.Play(0, card("WSW"), G, 2))
    assert after.hands[0] == cards("B1 B2 B3 Y5")
    assert after.hands[2] == cards("R3 G4")
    assert after.hands[1] == cards("Y1 Y2")
    assert after.color == G
    assert after.top_card == card("WSW")
    assert after.current == 1
    assert after.phase is u.Phase.PLAY
    assert all_cards(after) == all_cards(state)


def test_swap_hands_legal_moves_name_an_opponent() -> None:
    """ACT-7: every generated Swap Hands play names a colour and an opponent, never the player."""
    swaps = plays(u.legal_moves(_swap_position(), 0), "WSW")
    assert {(m.color, m.target) for m in swaps} == {(k, t) for k in (R, Y, G, B) for t in (1, 2)}
    assert len(swaps) == 8


def test_swap_hands_target_required() -> None:
    """ACT-7: without a target the play is refused (rule ACT-7)."""
    assert_rejected(_swap_position, u.Play(0, card("WSW"), G), "ACT-7", "target-required")


def test_swap_hands_cannot_target_self() -> None:
    """ACT-7: the target must be an opponent, not the player, nor a seat that does not exist."""
    assert_rejected(_swap_position, u.Play(0, card("WSW"), G, 0), "ACT-7", "invalid-target")
    assert_rejected(_swap_position, u.Play(0, card("WSW"), G, 3), "ACT-7", "invalid-target")


def test_swap_hands_needs_colour() -> None:
    """ACT-7, ACT-4: Swap Hands names the colour."""
    assert_rejected(_swap_position, u.Play(0, card("WSW"), None, 2), "ACT-4", "colour-required")


# --- ACT-8 Wild Customizable ---------------------------------------------------------------
CALLS: list[tuple[int, int | None, int, int]] = []


def _opponents_draw_one(state: u.GameState, player: int, target: int | None) -> u.GameState:
    """Test effect: every opponent, in seat order, draws the next card of the draw pile."""
    CALLS.append((player, target, int(state.top_card), state.color))
    hands = list(state.hands)
    pos = state.draw_pos
    for q in range(len(hands)):
        if q != player:
            hands[q] = tuple(sorted((*hands[q], state.draw_pile[pos])))
            pos += 1
    return attrs.evolve(state, hands=tuple(hands), draw_pos=pos)


def _target_draws_two(state: u.GameState, player: int, target: int | None) -> u.GameState:
    """Test effect: the chosen opponent draws the next two cards of the draw pile."""
    assert target is not None
    CALLS.append((player, target, int(state.top_card), state.color))
    hands = list(state.hands)
    pos = state.draw_pos
    hands[target] = tuple(sorted((*hands[target], *state.draw_pile[pos:pos + 2])))
    return attrs.evolve(state, hands=tuple(hands), draw_pos=pos + 2)


EFFECT_ALL = "test-act8-opponents-draw-one"
EFFECT_TARGET = "test-act8-target-draws-two"
u.register_effect(EFFECT_ALL, _opponents_draw_one)
u.register_effect(EFFECT_TARGET, _target_draws_two, needs_target=True)


def _custom_position(prof: u.Profile | str = "gdj85") -> u.GameState:
    return u.from_position(prof, ["WCU R3 G4", "Y1 Y2", "B1 B2 B3"], "R5", draw_pile="G7 G8 G9")


def test_customizable_default_is_plain_wild() -> None:
    """ACT-8: by default (custom_effect "wild") the card only names the colour."""
    assert profile("gdj85").custom_effect == "wild"
    state = _custom_position()
    customs = plays(u.legal_moves(state, 0), "WCU")
    assert {(m.color, m.target) for m in customs} == {(k, None) for k in (R, Y, G, B)}
    after = assert_legal(state, u.Play(0, card("WCU"), B))
    assert after.hands == (cards("R3 G4"), cards("Y1 Y2"), cards("B1 B2 B3"))
    assert after.remaining_draw_pile == pile("G7 G8 G9")
    assert after.color == B
    assert after.current == 1
    assert after.phase is u.Phase.PLAY


def test_customizable_needs_colour() -> None:
    """ACT-8, ACT-4: the Customizable names the colour."""
    assert_rejected(_custom_position, u.Play(0, card("WCU")), "ACT-4", "colour-required")


def test_customizable_plain_takes_no_target() -> None:
    """ACT-8: a plain-wild Customizable names no opponent."""
    state = _custom_position()
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, u.Play(0, card("WCU"), B, 1))
    assert info.value.reason == "target-not-allowed"
    assert state == _custom_position()


def test_customizable_registered_effect_applied() -> None:
    """ACT-8: a program's registered effect runs after the card is down and its colour named."""
    prof = profile("gdj85", custom_effect=EFFECT_ALL)
    state = _custom_position(prof)
    CALLS.clear()
    after = assert_legal(state, u.Play(0, card("WCU"), Y))
    assert CALLS == [(0, None, u.WILD_CUSTOMIZABLE, Y)]
    assert after.hands == (cards("R3 G4"), cards("Y1 Y2 G7"), cards("B1 B2 B3 G8"))
    assert after.remaining_draw_pile == pile("G9")
    assert after.color == Y
    assert after.current == 1
    assert after.phase is u.Phase.PLAY
    assert all_cards(after) == all_cards(state)


def test_customizable_effect_with_target() -> None:
    """ACT-8: an effect registered with needs_target=True makes the play name an opponent."""
    prof = profile("gdj85", custom_effect=EFFECT_TARGET)
    state = _custom_position(prof)
    customs = plays(u.legal_moves(state, 0), "WCU")
    assert {(m.color, m.target) for m in customs} == {(k, t) for k in (R, Y, G, B) for t in (1, 2)}
    CALLS.clear()
    after = assert_legal(state, u.Play(0, card("WCU"), R, 2))
    assert CALLS == [(0, 2, u.WILD_CUSTOMIZABLE, R)]
    assert after.hands == (cards("R3 G4"), cards("Y1 Y2"), cards("B1 B2 B3 G7 G8"))
    assert after.remaining_draw_pile == pile("G9")
    assert after.color == R
    assert after.current == 1


def test_customizable_effect_with_target_requires_one() -> None:
    """ACT-8 (target as in ACT-7): no target, or the player as target, is refused."""
    prof = profile("gdj85", custom_effect=EFFECT_TARGET)
    state = _custom_position(prof)
    for move, reason in ((u.Play(0, card("WCU"), R), "target-required"),
                         (u.Play(0, card("WCU"), R, 0), "invalid-target")):
        assert move not in u.legal_moves(state)
        with pytest.raises(u.IllegalMoveError) as info:
            u.apply(state, move)
        assert info.value.rule == "ACT-8"
        assert info.value.reason == reason
        assert state == _custom_position(prof)


def test_customizable_builtin_swap_effect() -> None:
    """ACT-8: a profile may pick a built-in effect, e.g. "swap-hands" (as ACT-7)."""
    prof = profile("ffk04", custom_effect="swap-hands")
    after = u.apply(_custom_position(prof), u.Play(0, card("WCU"), G, 1))
    assert after.hands == (cards("Y1 Y2"), cards("R3 G4"), cards("B1 B2 B3"))
    assert after.current == 1


# --- ACT-9 Going out on an action card -----------------------------------------------------
def test_going_out_on_draw_two_still_draws_and_scores() -> None:
    """ACT-9, END-1: the next player draws 2 first; those cards count in the winner's score."""
    state = u.from_position(CLASSIC, ["R+2", "G3 B4", "Y9"], "R5", draw_pile="W B+2 R1")
    after = assert_legal(state, u.Play(0, card("R+2")))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands[1] == cards("G3 B4 W B+2")
    assert after.hands[2] == cards("Y9")
    assert after.remaining_draw_pile == pile("R1")
    result = after.match.last_round
    assert result is not None
    assert result.winner == 0
    assert not result.blocked
    assert result.hand_points == (0, 77, 9)
    assert result.points_won == (86, 0, 0)
    assert after.scores == (86, 0, 0)


def _last_wd4(prof: u.Profile | str) -> u.GameState:
    return u.from_position(prof, ["W+4", "G3", "Y9"], "R5", draw_pile="B1 B2 B3 B4 G1 G2 R1")


def test_going_out_on_wd4_enforced() -> None:
    """ACT-9: enforced mode: the next player draws 4, then the round ends and they score."""
    after = assert_legal(_last_wd4(profile(CLASSIC, wild_draw_four="enforced")), u.Play(0, card("W+4"), B))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands[1] == cards("G3 B1 B2 B3 B4")
    result = after.match.last_round
    assert result is not None
    assert (result.winner, result.hand_points, result.points_won) == (0, (0, 13, 9), (22, 0, 0))
    assert after.scores == (22, 0, 0)


def test_going_out_on_wd4_challenge_then_accept() -> None:
    """ACT-9, ACT-5: challenge mode: the victim still decides; Accept draws 4 and the round ends."""
    state = assert_legal(_last_wd4(CLASSIC), u.Play(0, card("W+4"), B))
    assert state.phase is u.Phase.CHALLENGE
    assert state.current == 1
    assert u.legal_moves(state, 1) == [u.Challenge(1), u.Accept(1)]
    after = assert_legal(state, u.Accept(1))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands[1] == cards("G3 B1 B2 B3 B4")
    result = after.match.last_round
    assert result is not None
    assert (result.winner, result.hand_points, result.points_won) == (0, (0, 13, 9), (22, 0, 0))


def test_going_out_on_wd4_challenge_is_innocent() -> None:
    """ACT-9, WD4-5: a challenge of a last Wild Draw Four always fails: the victim draws 6."""
    state = u.apply(_last_wd4(CLASSIC), u.Play(0, card("W+4"), B))
    after = assert_legal(state, u.Challenge(1))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands[1] == cards("G3 B1 B2 B3 B4 G1 G2")
    assert after.hands[0] == ()
    assert u.view(after, 1).revealed == u.Reveal(1, 0, ())
    result = after.match.last_round
    assert result is not None
    assert (result.winner, result.hand_points, result.points_won) == (0, (0, 16, 9), (25, 0, 0))
    assert after.scores == (25, 0, 0)


def test_going_out_on_skip_or_swap_ends_round_without_effect() -> None:
    """ACT-9, END-1: other effects of a last card are not carried out (a swap would refill the hand)."""
    skip = u.apply(u.from_position(CLASSIC, ["RS", "G3", "Y9"], "R5"), u.Play(0, card("RS")))
    assert skip.phase is u.Phase.ROUND_OVER
    assert skip.hands == ((), cards("G3"), cards("Y9"))
    swap = u.apply(u.from_position("ffk04", ["WSW", "G3", "Y9"], "R5"), u.Play(0, card("WSW"), R, 2))
    assert swap.phase is u.Phase.ROUND_OVER
    assert swap.hands == ((), cards("G3"), cards("Y9"))
    result = swap.match.last_round
    assert result is not None
    assert result.winner == 0


def test_going_out_on_shuffle_or_custom_ends_round_without_effect() -> None:
    """ACT-9, ACT-6, ACT-8: a last Shuffle Hands redeals nothing; a last Customizable runs no effect."""
    shuffle = u.apply(u.from_position("gdj85", ["WSH", "G3 G4", "Y9"], "R5"), u.Play(0, card("WSH"), Y))
    assert shuffle.phase is u.Phase.ROUND_OVER
    assert shuffle.hands == ((), cards("G3 G4"), cards("Y9"))
    prof = profile("gdj85", custom_effect=EFFECT_ALL)
    CALLS.clear()
    custom = u.apply(u.from_position(prof, ["WCU", "G3", "Y9"], "R5", draw_pile="G7 G8"), u.Play(0, card("WCU"), Y))
    assert CALLS == []
    assert custom.phase is u.Phase.ROUND_OVER
    assert custom.hands == ((), cards("G3"), cards("Y9"))
    assert custom.remaining_draw_pile == pile("G7 G8")


def test_going_out_on_wd4_unrestricted() -> None:
    """ACT-9, WD4-6: unrestricted mode: the next player draws 4, then the round ends."""
    after = u.apply(_last_wd4(profile(CLASSIC, wild_draw_four="unrestricted")), u.Play(0, card("W+4"), G))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands[1] == cards("G3 B1 B2 B3 B4")
    assert after.scores == (22, 0, 0)
