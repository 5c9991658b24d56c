"""Example tests for ordinary turns (PLAY-1..8): matching, drawing, declining, empty piles, blocked rounds,
turn order. Each legality check looks at legal_moves and apply together and at the state after a refusal."""

from __future__ import annotations

from collections import Counter

import attrs
from helpers_play import (
    all_cards,
    assert_conserved,
    assert_illegal,
    assert_legal,
    hand,
    played_cards,
)

import unoengine as u

CLASSIC = u.load_profile("classic-108")
RED, YELLOW, GREEN, BLUE = u.Color.RED, u.Color.YELLOW, u.Color.GREEN, u.Color.BLUE


def c(name: str) -> u.Card:
    return u.parse_card(name)


# --- PLAY-1: match colour, number or symbol --------------------------------------------------
def test_match_by_colour_or_number_exact_moves() -> None:
    """PLAY-1: on R7, R2 (colour) and G7 (number) may be played; B5 and Y+2 may not."""
    state = u.from_position(CLASSIC, ["R2 G7 B5 Y+2 G+2", "B1 B2"], "R7", current=0)
    assert u.legal_moves(state, 0) == [u.Play(0, c("R2")), u.Play(0, c("G7")), u.Draw(0)]
    for bad in ("B5", "Y+2", "G+2"):
        assert_illegal(state, u.Play(0, c(bad)), "PLAY-1", "card-does-not-match")
    by_colour = assert_legal(state, u.Play(0, c("R2")))
    assert (by_colour.top_card, by_colour.color, by_colour.current) == (c("R2"), RED, 1)
    assert by_colour.hands[0] == hand("G7 B5 Y+2 G+2")
    assert_conserved(by_colour)
    by_number = assert_legal(state, u.Play(0, c("G7")))
    assert (by_number.top_card, by_number.color, by_number.current) == (c("G7"), GREEN, 1)
    assert by_number.discard_pile == (c("R7"), c("G7"))


def test_card_not_in_hand_is_refused() -> None:
    """PLAY-1: only a card in the hand can be played, even if it would match."""
    state = u.from_position(CLASSIC, ["R2 B5", "B1 B2"], "R7", current=0)
    assert_illegal(state, u.Play(0, c("R3")), "PLAY-1", "card-not-in-hand")
    assert_illegal(state, u.Play(0, c("W"), color=RED), "PLAY-1", "card-not-in-hand")


def test_coloured_card_names_no_colour() -> None:
    """PLAY-1: a coloured card takes its own colour; naming another is refused."""
    state = u.from_position(CLASSIC, ["R2 B5 G1", "B1 B2"], "R7", current=0)
    assert_illegal(state, u.Play(0, c("R2"), color=BLUE), "PLAY-1", "colour-not-allowed")


def test_after_wild_named_colour_is_matched() -> None:
    """PLAY-1: after a Wild naming green, green cards and wilds may be played; the card under the wild and
    the wild's own symbol give no match."""
    state = u.from_position(CLASSIC, ["G3 R3 B7 Y0 W", "B1 B2"], "R3 W", color=GREEN, current=0)
    assert played_cards(state) == {"G3", "W"}
    assert_illegal(state, u.Play(0, c("R3")), "PLAY-1", "card-does-not-match")
    assert_illegal(state, u.Play(0, c("B7")), "PLAY-1", "card-does-not-match")
    after = assert_legal(state, u.Play(0, c("G3")))
    assert (after.color, after.top_card) == (GREEN, c("G3"))


def test_after_wild_draw_four_named_colour_is_matched() -> None:
    """PLAY-1: after a Wild Draw Four naming blue only blue cards and wilds match."""
    state = u.from_position(CLASSIC, ["B4 R4 Y+2 W", "B1 B2"], "Y4 W+4", color=BLUE, current=0)
    assert played_cards(state) == {"B4", "W"}
    assert_illegal(state, u.Play(0, c("R4")), "PLAY-1", "card-does-not-match")
    assert_illegal(state, u.Play(0, c("Y+2")), "PLAY-1", "card-does-not-match")


def test_wild_played_sets_colour_for_next_player() -> None:
    """PLAY-1: p0 plays a Wild naming yellow on R7; p1 must now match yellow, R7 no longer matches."""
    state = u.from_position(CLASSIC, ["W R1 B1", "R7 Y2 G7 W+4", "B3 B4"], "R7", current=0)
    after = assert_legal(state, u.Play(0, c("W"), color=YELLOW))
    assert (after.current, after.color, after.top_card, after.color_in_play) == (1, YELLOW, c("W"), YELLOW)
    assert u.view(after, 2).color == YELLOW
    assert played_cards(after) == {"Y2", "W+4"}
    assert_illegal(after, u.Play(1, c("R7")), "PLAY-1", "card-does-not-match")
    assert_illegal(after, u.Play(1, c("G7")), "PLAY-1", "card-does-not-match")


# --- PLAY-2: action cards on colour or the same symbol ------------------------------------------
def test_skip_on_skip_of_any_colour() -> None:
    """PLAY-2: on a red Skip a green Skip (same symbol) or a red Draw Two (colour) may be played."""
    state = u.from_position(CLASSIC, ["GS R+2 G+2 Y5 BR", "B1 B2", "Y1 Y2"], "RS", current=0)
    assert played_cards(state) == {"GS", "R+2"}
    assert_illegal(state, u.Play(0, c("G+2")), "PLAY-1", "card-does-not-match")
    assert_illegal(state, u.Play(0, c("BR")), "PLAY-1", "card-does-not-match")
    after = assert_legal(state, u.Play(0, c("GS")))
    assert (after.color, after.current) == (GREEN, 2)  # the green Skip skips player 1 (ACT-1)


def test_draw_two_on_draw_two_of_any_colour() -> None:
    """PLAY-2: Y+2 on B+2 (same symbol); B1 (colour); YS does not match B+2."""
    state = u.from_position(CLASSIC, ["Y+2 YS B1", "R1 R2 R3", "G1 G2"], "B+2", current=0)
    assert played_cards(state) == {"Y+2", "B1"}
    assert_illegal(state, u.Play(0, c("YS")), "PLAY-1", "card-does-not-match")
    after = assert_legal(state, u.Play(0, c("Y+2")))
    assert after.color == YELLOW
    assert len(after.hands[1]) == 5 and after.current == 2  # ACT-3


def test_reverse_on_reverse_of_any_colour() -> None:
    """PLAY-2: YR on GR (same symbol); YS does not match a Reverse."""
    state = u.from_position(CLASSIC, ["YR YS B9", "R1 R2", "B1 B2"], "GR", current=0)
    assert played_cards(state) == {"YR"}
    assert_illegal(state, u.Play(0, c("YS")), "PLAY-1", "card-does-not-match")
    after = assert_legal(state, u.Play(0, c("YR")))
    assert (after.color, after.direction, after.current) == (YELLOW, -1, 2)


# --- PLAY-3: wild on anything --------------------------------------------------------------
def test_wild_on_anything_while_holding_playable_cards() -> None:
    """PLAY-3: a Wild may be played even when the player holds a matching card; it names any colour."""
    state = u.from_position(CLASSIC, ["R2 R9 W G5", "B1 B2"], "R7", current=0)
    moves = u.legal_moves(state, 0)
    assert [m for m in moves if isinstance(m, u.Play) and m.card == u.WILD] == [
        u.Play(0, c("W"), color=k) for k in u.Color
    ]
    assert played_cards(state) == {"R2", "R9", "W"}
    for k in u.Color:
        after = assert_legal(state, u.Play(0, c("W"), color=k))
        assert (after.top_card, after.color, after.current) == (c("W"), k, 1)
        assert after.hands[0] == hand("R2 R9 G5")


def test_wild_on_action_and_on_wild() -> None:
    """PLAY-3: a Wild goes on a Draw Two and on another wild."""
    on_action = u.from_position(CLASSIC, ["W B1 B2", "Y1 Y2"], "R5 G+2", current=0)
    assert_legal(on_action, u.Play(0, c("W"), color=RED))
    on_wild = u.from_position(CLASSIC, ["W B1 B2", "Y1 Y2"], "R5 W+4", color=GREEN, current=0)
    after = assert_legal(on_wild, u.Play(0, c("W"), color=BLUE))
    assert after.color == BLUE


def test_wild_draw_four_is_listed_with_playable_colour_cards_in_challenge_mode() -> None:
    """PLAY-3 with WD4-2: in the challenge mode a Wild Draw Four is a legal move even holding the colour."""
    state = u.from_position(CLASSIC, ["R2 W+4 G5", "B1 B2"], "R7", current=0)
    assert "W+4" in played_cards(state)


def test_wild_needs_a_colour() -> None:
    """PLAY-3 / ACT-4: a wild played without naming a colour is refused."""
    state = u.from_position(CLASSIC, ["R2 W G5", "B1 B2"], "R7", current=0)
    assert_illegal(state, u.Play(0, c("W")), "ACT-4", "colour-required")


# --- PLAY-4: no playable card: draw one ---------------------------------------------------------
def no_play_state(draw_pile: str) -> u.GameState:
    return u.from_position(CLASSIC, ["B1 B2 Y3", "G5 G6", "Y8 Y9"], "R7", draw_pile=draw_pile, current=0)


def keep_unplayable(drawn: u.GameState, player: int, card: str, next_player: int) -> u.GameState:
    """PLAY-4 RULING: after drawing the unplayable ``card`` the drawer is still to act (phase DRAWN) and may
    only Pass, keeping it; the Pass ends the turn. Returns the state after the Pass."""
    assert (drawn.phase, drawn.current, drawn.drawn) == (u.Phase.DRAWN, player, c(card))
    assert c(card) in drawn.hands[player]
    assert u.view(drawn, player).drawn_card == c(card)
    assert u.legal_moves(drawn, player) == [u.Pass(player)]
    kept = assert_legal(drawn, u.Pass(player))
    assert (kept.phase, kept.current, kept.drawn) == (u.Phase.PLAY, next_player, None)
    assert kept.hands == drawn.hands
    assert (kept.discard_pile, kept.color, kept.remaining_draw_pile) == (
        drawn.discard_pile, drawn.color, drawn.remaining_draw_pile)
    return kept


def test_no_playable_card_only_draw() -> None:
    """PLAY-4: with no playable card the only move is Draw; passing without drawing is refused."""
    state = no_play_state("R5 G1")
    assert u.legal_moves(state, 0) == [u.Draw(0)]
    assert_illegal(state, u.Pass(0), "PLAY-4", "must-draw")
    assert_illegal(state, u.Play(0, c("B1")), "PLAY-1", "card-does-not-match")


def test_drawn_playable_card_may_be_played_at_once() -> None:
    """PLAY-4: the drawn R5 can be played: the player may play it at once."""
    state = no_play_state("R5 G1")
    drawn = assert_legal(state, u.Draw(0))
    assert (drawn.phase, drawn.current, drawn.drawn) == (u.Phase.DRAWN, 0, c("R5"))
    assert drawn.hands[0] == hand("B1 B2 Y3 R5")
    assert drawn.remaining_draw_pile == (c("G1"),)
    assert u.view(drawn, 0).drawn_card == c("R5")
    assert u.view(drawn, 1).drawn_card is None
    assert u.legal_moves(drawn, 0) == [u.Play(0, c("R5")), u.Pass(0)]
    played = assert_legal(drawn, u.Play(0, c("R5")))
    assert (played.top_card, played.current, played.phase) == (c("R5"), 1, u.Phase.PLAY)
    assert played.hands[0] == hand("B1 B2 Y3")


def test_drawn_playable_card_may_be_kept() -> None:
    """PLAY-4: the player may keep the playable drawn card (Pass): the turn ends, the card stays in hand."""
    drawn = u.apply(no_play_state("R5 G1"), u.Draw(0))
    kept = assert_legal(drawn, u.Pass(0))
    assert (kept.current, kept.phase, kept.top_card, kept.drawn) == (1, u.Phase.PLAY, c("R7"), None)
    assert kept.hands[0] == hand("B1 B2 Y3 R5")
    assert kept.passes == 0  # keeping a card is not a PLAY-7 pass
    assert_illegal(kept, u.Play(0, c("R5")), "PLAY-8", "not-your-turn")


def test_drawn_unplayable_card_ends_the_turn() -> None:
    """PLAY-4 RULING: the drawn G1 cannot be played: the drawer stays in phase DRAWN with Pass as the only
    move (keeping G1); the Pass ends the turn."""
    state = no_play_state("G1 R5")
    drawn = assert_legal(state, u.Draw(0))
    assert (drawn.current, drawn.phase, drawn.drawn, drawn.top_card) == (0, u.Phase.DRAWN, c("G1"), c("R7"))
    assert drawn.hands[0] == hand("B1 B2 Y3 G1")
    assert drawn.remaining_draw_pile == (c("R5"),)
    assert u.view(drawn, 1).drawn_card is None
    assert u.legal_moves(drawn) == [u.Pass(0)]
    assert u.legal_moves(drawn, 1) == [] and u.legal_moves(drawn, 2) == []
    assert_illegal(drawn, u.Play(0, c("G1")), "PLAY-1", "card-does-not-match")
    assert_illegal(drawn, u.Play(0, c("B1")), "PLAY-5", "only-drawn-card")
    assert_illegal(drawn, u.Draw(0), "PLAY-6", "already-drew")
    assert_illegal(drawn, u.Play(1, c("G5")), "PLAY-8", "not-your-turn")
    after = keep_unplayable(drawn, 0, "G1", 1)
    assert (after.top_card, after.passes) == (c("R7"), 0)
    assert after.hands[0] == hand("B1 B2 Y3 G1")
    assert_illegal(after, u.Play(0, c("G1")), "PLAY-8", "not-your-turn")
    assert_illegal(after, u.Draw(0), "PLAY-8", "not-your-turn")


def test_other_players_cannot_tell_whether_the_drawn_card_was_playable() -> None:
    """PLAY-4 RULING: two positions differing only in the top card of the draw pile (playable or not) look
    the same to every other player after the Draw and after the drawer's Pass."""
    hands = ["B1 B2 Y3", "G5 G6", "Y8 Y9", "B4 G2"]
    pairs = [("R5", "G1"), ("G7", "BS"), ("W", "Y+2")]
    for playable, unplayable in pairs:
        states = {
            top: u.from_position(CLASSIC, hands, "R7", draw_pile=f"{top} G9 B6", current=0)
            for top in (playable, unplayable)
        }
        drawn = {top: assert_legal(s, u.Draw(0)) for top, s in states.items()}
        assert any(isinstance(m, u.Play) for m in u.legal_moves(drawn[playable], 0))
        assert u.legal_moves(drawn[unplayable], 0) == [u.Pass(0)]
        assert u.view(drawn[playable], 0) != u.view(drawn[unplayable], 0)
        kept = {top: assert_legal(s, u.Pass(0)) for top, s in drawn.items()}
        for other in (1, 2, 3):
            for after in (drawn, kept):
                seen = u.view(after[playable], other)
                assert seen == u.view(after[unplayable], other)
                assert seen.drawn_card is None
            assert u.view(drawn[playable], other).phase is u.Phase.DRAWN
            assert u.view(drawn[playable], other).current == 0
            assert u.view(kept[playable], other).current == 1


def test_drawn_wild_may_be_played_naming_any_colour() -> None:
    """PLAY-4 with PLAY-3: a drawn Wild is playable, naming any of the four colours, or kept."""
    drawn = u.apply(no_play_state("W G1"), u.Draw(0))
    assert drawn.phase is u.Phase.DRAWN
    assert u.legal_moves(drawn, 0) == [*(u.Play(0, c("W"), color=k) for k in u.Color), u.Pass(0)]
    after = assert_legal(drawn, u.Play(0, c("W"), color=GREEN))
    assert (after.color, after.current) == (GREEN, 1)


# --- PLAY-5: declining to play ------------------------------------------------------------------
def decline_state(profile: u.Profile, draw_pile: str) -> u.GameState:
    return u.from_position(profile, ["R2 B1 B2", "G5 G6", "Y8 Y9"], "R7", draw_pile=draw_pile, current=0)


def test_may_draw_while_holding_a_playable_card() -> None:
    """PLAY-5: holding R2 (playable) the player may still draw."""
    state = decline_state(CLASSIC, "R9 G1")
    assert u.legal_moves(state, 0) == [u.Play(0, c("R2")), u.Draw(0)]
    after = assert_legal(state, u.Draw(0))
    assert after.hands[0] == hand("R2 B1 B2 R9")


def test_after_declining_only_the_drawn_card_may_be_played() -> None:
    """PLAY-5: after drawing the playable R9, R2 may no longer be played; R9 may, or it is kept."""
    drawn = u.apply(decline_state(CLASSIC, "R9 G1"), u.Draw(0))
    assert (drawn.phase, drawn.drawn) == (u.Phase.DRAWN, c("R9"))
    assert u.legal_moves(drawn, 0) == [u.Play(0, c("R9")), u.Pass(0)]
    assert_illegal(drawn, u.Play(0, c("R2")), "PLAY-5", "only-drawn-card")
    assert_illegal(drawn, u.Play(0, c("B1")), "PLAY-5", "only-drawn-card")
    played = assert_legal(drawn, u.Play(0, c("R9")))
    assert played.hands[0] == hand("R2 B1 B2")
    assert (played.top_card, played.current) == (c("R9"), 1)
    kept = assert_legal(drawn, u.Pass(0))
    assert kept.hands[0] == hand("R2 B1 B2 R9")
    assert kept.current == 1


def test_after_declining_unplayable_draw_ends_turn() -> None:
    """PLAY-5 with PLAY-4 RULING: declining and drawing the unplayable G1 leaves only Pass; R2 cannot be
    played any more; the Pass ends the turn."""
    drawn = u.apply(decline_state(CLASSIC, "G1 R9"), u.Draw(0))
    assert (drawn.current, drawn.phase, drawn.drawn) == (0, u.Phase.DRAWN, c("G1"))
    assert drawn.hands[0] == hand("R2 B1 B2 G1")
    assert u.legal_moves(drawn, 0) == [u.Pass(0)]
    assert_illegal(drawn, u.Play(0, c("R2")), "PLAY-5", "only-drawn-card")
    assert_illegal(drawn, u.Play(0, c("G1")), "PLAY-1", "card-does-not-match")
    after = keep_unplayable(drawn, 0, "G1", 1)
    assert after.hands[0] == hand("R2 B1 B2 G1")
    assert_illegal(after, u.Play(0, c("R2")), "PLAY-8", "not-your-turn")


def test_forced_play_profile_forbids_drawing_with_a_playable_card() -> None:
    """PLAY-5 option off (HOUSE-5): a player holding a playable card may not draw."""
    forced = attrs.evolve(CLASSIC, decline_to_play=False)
    state = decline_state(forced, "R9 G1")
    assert u.legal_moves(state, 0) == [u.Play(0, c("R2"))]
    assert_illegal(state, u.Draw(0), "HOUSE-5", "forced-play")
    assert_illegal(state, u.Pass(0), "PLAY-7", "must-play")


def test_forced_play_profile_still_draws_without_a_playable_card() -> None:
    """PLAY-4 under HOUSE-5: with nothing playable the player draws as usual."""
    forced = attrs.evolve(CLASSIC, decline_to_play=False)
    state = u.from_position(forced, ["B1 B2 Y3", "G5 G6"], "R7", draw_pile="G1 R5", current=0)
    assert u.legal_moves(state, 0) == [u.Draw(0)]
    drawn = assert_legal(state, u.Draw(0))
    assert (drawn.current, drawn.phase, drawn.drawn, drawn.hands[0]) == (0, u.Phase.DRAWN, c("G1"), hand("B1 B2 Y3 G1"))
    assert u.legal_moves(drawn, 0) == [u.Pass(0)]
    after = keep_unplayable(drawn, 0, "G1", 1)
    assert after.hands[0] == hand("B1 B2 Y3 G1")
    assert after.remaining_draw_pile == (c("R5"),)


def test_pass_with_a_playable_card_and_something_to_draw_is_refused() -> None:
    """PLAY-5/PLAY-7: declining is done by drawing; a plain Pass while able to play is refused."""
    state = decline_state(CLASSIC, "R9 G1")
    assert_illegal(state, u.Pass(0), "PLAY-7", "must-play")


# --- PLAY-6: draw one, not until playable ------------------------------------------------------
def test_draw_exactly_one_card_even_if_unplayable() -> None:
    """PLAY-6: the player draws one card (G1); the playable R5 under it stays on the draw pile."""
    state = no_play_state("G1 R5 R6")
    drawn = u.apply(state, u.Draw(0))
    assert drawn.hands[0] == hand("B1 B2 Y3 G1")
    assert drawn.draw_pile_size == state.draw_pile_size - 1
    assert drawn.remaining_draw_pile == (c("R5"), c("R6"))
    assert (drawn.phase, drawn.current, drawn.drawn) == (u.Phase.DRAWN, 0, c("G1"))
    assert u.legal_moves(drawn, 0) == [u.Pass(0)]
    assert_illegal(drawn, u.Draw(0), "PLAY-6", "already-drew")
    after = keep_unplayable(drawn, 0, "G1", 1)
    assert after.hands[0] == hand("B1 B2 Y3 G1")
    assert after.remaining_draw_pile == (c("R5"), c("R6"))


def test_no_second_draw_in_the_same_turn() -> None:
    """PLAY-6: after drawing a playable card, drawing again is refused and not listed."""
    drawn = u.apply(no_play_state("R5 G1"), u.Draw(0))
    assert u.Draw(0) not in u.legal_moves(drawn)
    assert_illegal(drawn, u.Draw(0), "PLAY-6", "already-drew")


# --- PLAY-7: empty draw pile, passing, blocked round ---------------------------------------------
def test_empty_draw_pile_reshuffles_discards_under_the_top() -> None:
    """PLAY-7: with an empty draw pile, the discard pile except its top is turned into the draw pile."""
    state = u.from_position(CLASSIC, ["B1 B2", "G1 G2"], "Y5 R7", draw_pile="", current=0)
    before = all_cards(state)
    assert u.legal_moves(state, 0) == [u.Draw(0)]
    drawn = assert_legal(state, u.Draw(0))
    assert drawn.discard_pile == (c("R7"),)
    assert drawn.hands[0] == hand("B1 B2 Y5")
    assert drawn.draw_pile_size == 0
    assert (drawn.phase, drawn.current, drawn.drawn, drawn.color) == (u.Phase.DRAWN, 0, c("Y5"), RED)
    assert u.legal_moves(drawn, 0) == [u.Pass(0)]
    after = keep_unplayable(drawn, 0, "Y5", 1)
    assert after.discard_pile == (c("R7"),)
    assert after.hands[0] == hand("B1 B2 Y5")
    assert after.draw_pile_size == 0
    assert (after.current, after.color) == (1, RED)
    assert all_cards(after) == before


def test_reshuffle_keeps_top_card_and_all_others_become_the_draw_pile() -> None:
    """PLAY-7: with five discards the top R7 stays; the other four form the new pile, one of them drawn."""
    state = u.from_position(CLASSIC, ["B1 B2", "G1 G2"], "Y5 Y6 G9 B4 R7", draw_pile="", current=0)
    after = u.apply(state, u.Draw(0))
    assert after.discard_pile == (c("R7"),)
    drawn = Counter(after.hands[0]) - Counter(hand("B1 B2"))
    assert sum(drawn.values()) == 1
    assert Counter(after.remaining_draw_pile) + drawn == Counter(u.parse_cards("Y5 Y6 G9 B4"))
    assert after.draw_pile_size == 3
    assert all_cards(after) == all_cards(state)


def test_no_reshuffle_while_the_draw_pile_has_cards() -> None:
    """PLAY-7: the discard pile is only reshuffled when the draw pile is empty."""
    state = u.from_position(CLASSIC, ["B1 B2", "G1 G2"], "Y5 R7", draw_pile="G3", current=0)
    after = u.apply(state, u.Draw(0))
    assert after.hands[0] == hand("B1 B2 G3")
    assert after.discard_pile == (c("Y5"), c("R7"))


def test_penalty_with_too_few_cards_draws_what_there_is() -> None:
    """PLAY-7 RULING: a Draw Two with one card left to draw (after reshuffling) draws just that card."""
    state = u.from_position(CLASSIC, ["R+2 G1 G2", "B1 B2", "Y1 Y2"], "R5", draw_pile="", current=0)
    after = assert_legal(state, u.Play(0, c("R+2")))
    assert after.hands[1] == hand("B1 B2 R5")
    assert after.discard_pile == (c("R+2"),)
    assert (after.draw_pile_size, after.current) == (0, 2)


def test_nothing_to_draw_and_no_play_means_pass() -> None:
    """PLAY-7 RULING: nothing to draw and nothing playable: the only move is Pass; Draw is refused."""
    state = u.from_position(CLASSIC, ["B1 B2", "G1 G2", "Y1 Y2"], "R7", draw_pile="", current=0)
    assert u.legal_moves(state, 0) == [u.Pass(0)]
    assert_illegal(state, u.Draw(0), "PLAY-7", "nothing-to-draw")
    after = assert_legal(state, u.Pass(0))
    assert (after.current, after.phase, after.passes) == (1, u.Phase.PLAY, 1)
    assert after.hands == state.hands


def test_nothing_to_draw_but_playable_must_play() -> None:
    """PLAY-7: with nothing to draw, a player who can play may neither pass nor draw."""
    state = u.from_position(CLASSIC, ["R1 B2", "G1 G2"], "R7", draw_pile="", current=0)
    assert u.legal_moves(state, 0) == [u.Play(0, c("R1")), u.Play(0, c("R1"), uno=True)]
    assert_illegal(state, u.Pass(0), "PLAY-7", "must-play")
    assert_illegal(state, u.Draw(0), "PLAY-7", "nothing-to-draw")


def test_blocked_round_two_players_lowest_hand_wins() -> None:
    """PLAY-7 RULING: both players pass in turn with nothing to draw: the round ends blocked; the lowest
    hand (p1, 3 points) wins and scores the other hand's 17 points."""
    state = u.from_position(CLASSIC, ["R8 R9", "G1 G2"], "B7", draw_pile="", current=0, dealer=1)
    once = assert_legal(state, u.Pass(0))
    assert not once.round_over
    done = assert_legal(once, u.Pass(1))
    assert done.phase is u.Phase.ROUND_OVER
    assert done.match.last_round == u.RoundResult(1, True, (17, 3), (0, 17))
    assert done.scores == (0, 17)
    assert u.legal_moves(done) == [u.NextRound(0)]


def test_blocked_round_scores_action_card_points() -> None:
    """PLAY-7 RULING with SCORE-1/2: GS G+2 (40 points) lose against R9 R8 Y9 (26); the winner scores 40."""
    state = u.from_position(CLASSIC, ["GS G+2", "R9 R8 Y9"], "B7", draw_pile="", current=0)
    done = u.apply(u.apply(state, u.Pass(0)), u.Pass(1))
    assert done.match.last_round == u.RoundResult(1, True, (40, 26), (0, 40))


def test_blocked_round_needs_every_player_to_pass() -> None:
    """PLAY-7 RULING: with three players two passes do not end the round; the third does."""
    state = u.from_position(CLASSIC, ["B1 B2", "G1 G2", "Y1 Y9"], "R7", draw_pile="", current=0)
    two = u.apply(u.apply(state, u.Pass(0)), u.Pass(1))
    assert (two.phase, two.current, two.passes) == (u.Phase.PLAY, 2, 2)
    done = assert_legal(two, u.Pass(2))
    assert done.match.last_round == u.RoundResult(0, True, (3, 3, 10), (13, 0, 0))


def test_blocked_round_tie_goes_to_first_in_turn_order_from_first_passer() -> None:
    """PLAY-7 RULING: counter-clockwise, p2 passes first, then p1, then p0; p0 and p1 tie on 5 points,
    and p1 comes first in turn order from p2, so p1 wins."""
    state = u.from_position(CLASSIC, ["B1 B4", "G2 G3", "Y4 Y5"], "R7", draw_pile="", current=2, direction=-1)
    s = u.apply(state, u.Pass(2))
    assert s.current == 1
    s = u.apply(s, u.Pass(1))
    assert s.current == 0
    done = u.apply(s, u.Pass(0))
    assert done.match.last_round == u.RoundResult(1, True, (5, 5, 9), (0, 14, 0))


def test_a_play_between_passes_restarts_the_count() -> None:
    """PLAY-7 RULING: passes must be consecutive; a play (and a draw) in between restarts the count."""
    state = u.from_position(CLASSIC, ["G1 G2", "W G3", "Y3 Y4"], "R5", draw_pile="", current=0)
    s = assert_legal(state, u.Pass(0))
    assert s.passes == 1
    assert u.Pass(1) not in u.legal_moves(s)
    s = assert_legal(s, u.Play(1, c("W"), color=BLUE, uno=True))
    assert s.passes == 0
    s = assert_legal(s, u.Draw(2))  # reshuffles R5: not playable on blue, kept with a Pass
    assert (s.hands[2], s.current, s.phase, s.discard_pile) == (hand("Y3 Y4 R5"), 2, u.Phase.DRAWN, (c("W"),))
    assert s.passes == 0
    s = keep_unplayable(s, 2, "R5", 0)
    assert s.passes == 0  # keeping a drawn card is not a PLAY-7 pass
    s = assert_legal(s, u.Pass(0))
    assert s.passes == 1
    s = assert_legal(s, u.Pass(1))
    assert not s.round_over  # only two consecutive passes so far
    done = assert_legal(s, u.Pass(2))
    assert done.match.last_round == u.RoundResult(0, True, (3, 3, 12), (15, 0, 0))


# --- PLAY-8: turn order follows the direction ------------------------------------------------------
def test_turn_passes_clockwise_and_counter_clockwise() -> None:
    """PLAY-8: with direction +1 the next seat plays next; with -1 the previous seat, wrapping round."""
    hands = ["R1 R2 R3", "R4 R5 R6", "G1 G2 G3", "B1 B2 B3"]
    cw = u.from_position(CLASSIC, hands, "R9", current=1)
    assert assert_legal(cw, u.Play(1, c("R4"))).current == 2
    ccw = u.from_position(CLASSIC, hands, "R9", current=1, direction=-1)
    after = assert_legal(ccw, u.Play(1, c("R4")))
    assert (after.current, after.direction) == (0, -1)
    assert assert_legal(after, u.Play(0, c("R1"))).current == 3


def test_skip_and_draw_two_hit_next_player_in_direction() -> None:
    """PLAY-8: counter-clockwise, p1's Skip skips p0 (p3 plays); p0's Draw Two makes p3 draw (p2 plays)."""
    hands = ["R+2 R2 R3", "RS R5 R6", "G1 G2 G3", "B1 B2 B3"]
    skip = u.from_position(CLASSIC, hands, "R9", current=1, direction=-1)
    after = assert_legal(skip, u.Play(1, c("RS")))
    assert after.current == 3
    assert [len(h) for h in after.hands] == [3, 2, 3, 3]
    draw2 = u.from_position(CLASSIC, hands, "R9", current=0, direction=-1)
    after = assert_legal(draw2, u.Play(0, c("R+2")))
    assert after.current == 2
    assert [len(h) for h in after.hands] == [2, 3, 3, 5]


def test_reverse_turns_play_the_other_way() -> None:
    """PLAY-8 with ACT-2: after a Reverse from p0 (4 players) p3 plays next, then p2."""
    hands = ["RR R2 R3", "R4 R5 R6", "R7 G2 G3", "R8 B2 B3"]
    state = u.from_position(CLASSIC, hands, "R9", current=0)
    after = assert_legal(state, u.Play(0, c("RR")))
    assert (after.direction, after.current) == (-1, 3)
    assert assert_legal(after, u.Play(3, c("R8"))).current == 2


def test_out_of_turn_moves_are_refused() -> None:
    """PLAY-8: only the player to act has in-turn moves; others are refused with not-your-turn."""
    state = u.from_position(CLASSIC, ["R1 R2 R3", "R4 R5 R6", "G1 G2 G3"], "R9", current=1)
    assert u.legal_moves(state, 0) == [] and u.legal_moves(state, 2) == []
    assert_illegal(state, u.Play(0, c("R1")), "PLAY-8", "not-your-turn")
    assert_illegal(state, u.Draw(2), "PLAY-8", "not-your-turn")
    assert_illegal(state, u.Pass(2), "PLAY-8", "not-your-turn")
