"""HOUSE-2 jump-in: a player holding a card identical to the top card plays it out of turn, and play
continues from them; alone and with stacking (HOUSE-1), seven-zero (HOUSE-3), two-player
Reverse (HOUSE-6), UNO calls (UNO-1/2/5) and going out (END-1, ACT-9)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import attrs
import pytest

import unoengine as u

RED, YELLOW, GREEN, BLUE = u.Color.RED, u.Color.YELLOW, u.Color.GREEN, u.Color.BLUE
JUMP = "classic-108+jump-in"
GDJ_JUMP = "gdj85+jump-in"
SEVEN_ZERO_JUMP = "classic-108+seven-zero+jump-in"
STACK_JUMP = "classic-108+stacking+jump-in"


@cache
def profile(name: str) -> u.Profile:
    """A shipped profile or overlay composition, loaded once."""
    return u.load_profile(name)


@cache
def two_red_zeros(name: str) -> u.Profile:
    """``name`` with a second Red 0 in the deck: the official decks hold one 0 per colour, so a 0
    can only be jumped on with an extra copy."""
    base = profile(name)
    counts = list(base.deck_counts)
    counts[u.parse_card("R0")] = 2
    return attrs.evolve(base, deck_counts=tuple(counts))


def c(name: str) -> u.Card:
    return u.parse_card(name)


def cards(text: str) -> tuple[u.Card, ...]:
    """A hand as the engine keeps it (sorted)."""
    return tuple(sorted(u.parse_cards(text)))


def pile(text: str) -> tuple[u.Card, ...]:
    """Cards in the given order (a pile)."""
    return tuple(u.parse_cards(text))


def hands(*texts: str) -> tuple[tuple[u.Card, ...], ...]:
    return tuple(cards(t) for t in texts)


def snapshot(state: u.GameState) -> tuple[object, ...]:
    """Every field of the state, to show that a refused move changed nothing."""
    return tuple(getattr(state, f.name) for f in attrs.fields(type(state)))


def refused(state: u.GameState, move: u.Move, rule: str, reason: str) -> None:
    """``move`` raises IllegalMoveError with exactly ``rule``/``reason``, naming the move and its
    player; it is not listed as legal; the state is left as it was."""
    before = snapshot(state)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)
    err = info.value
    assert (err.rule, err.reason) == (rule, reason), str(err)
    assert err.move == move
    assert err.player == move.player
    assert move not in u.legal_moves(state)
    assert snapshot(state) == before


def jump_plays(state: u.GameState) -> list[u.Move]:
    """The Play moves in legal_moves(state) made by players other than the one to act."""
    return [m for m in u.legal_moves(state) if isinstance(m, u.Play) and m.player != state.current]


def first_deal_deck(prof: u.Profile, placed: dict[int, str]) -> list[u.Card]:
    """A deck for new_game: the cards of ``placed`` at their indexes (top = 0), every other card of
    the profile in canonical order around them."""
    rest = [u.Card(code) for code in prof.deck_cards()]
    for name in placed.values():
        rest.remove(c(name))
    others = iter(rest)
    return [c(placed[i]) if i in placed else next(others) for i in range(len(rest) + len(placed))]


def five_players(jumper_hand: str, top: str, direction: int) -> u.GameState:
    """Five players, player 0 to act on ``top``; player 2 holds ``jumper_hand``."""
    return u.from_position(
        profile(JUMP),
        ["G1 G2 B3", "Y1 Y2 Y3", jumper_hand, "Y4 Y6 G6", "G7 G8 Y9"],
        top,
        draw_pile="B1 B2 B4",
        direction=direction,
        current=0,
    )


OTHER_HANDS = {0: cards("G1 G2 B3"), 1: cards("Y1 Y2 Y3"), 3: cards("Y4 Y6 G6"), 4: cards("G7 G8 Y9")}


# --- which card may jump in ----------------------------------------------------------------
@pytest.mark.parametrize(("direction", "after_jumper"), [(1, 3), (-1, 1)])
def test_identical_number_jumps_in_and_play_continues_after_the_jumper(direction: int, after_jumper: int) -> None:
    """HOUSE-2, PLAY-8: player 2 holds the identical Red 5 and plays it while player 0 is to act; the
    player after the jumper (in the direction of play) plays next, the players between are passed over."""
    state = five_players("R5 B7 B8", "R5", direction)
    after = u.apply(state, u.Play(2, c("R5")))
    assert after.hands[2] == cards("B7 B8")
    assert all(after.hands[p] == h for p, h in OTHER_HANDS.items())
    assert after.discard_pile == pile("R5 R5")
    assert (after.top_card, after.color, after.direction) == (c("R5"), RED, direction)
    assert (after.current, after.phase) == (after_jumper, u.Phase.PLAY)
    assert after.remaining_draw_pile == pile("B1 B2 B4")
    assert after.uno_exposed == -1
    # the player who was to act lost the turn: a move of theirs is now out of turn
    refused(after, u.Draw(0), "PLAY-8", "not-your-turn")


def test_same_number_of_another_colour_or_same_colour_of_another_number_is_refused() -> None:
    """HOUSE-2: only a card of the same colour AND the same number is identical; G5 or R6 on R5 are
    refused out of turn (though G5 would match in turn, PLAY-1), and a card not held is PLAY-1."""
    state = five_players("G5 R6 R9", "R5", 1)
    refused(state, u.Play(2, c("G5")), "HOUSE-2", "not-identical")
    refused(state, u.Play(2, c("R6")), "HOUSE-2", "not-identical")
    refused(state, u.Play(2, c("R9")), "HOUSE-2", "not-identical")
    refused(state, u.Play(2, c("R5")), "PLAY-1", "card-not-in-hand")
    assert u.legal_moves(state, 2) == []
    assert jump_plays(state) == []


def test_jump_in_with_wrong_flags_is_refused_as_in_turn() -> None:
    """HOUSE-2, PLAY-1, UNO-1: a coloured jump-in names no colour, takes no target, and cannot
    call UNO from three cards."""
    state = five_players("R5 B7 B8", "R5", 1)
    refused(state, u.Play(2, c("R5"), color=GREEN), "PLAY-1", "colour-not-allowed")
    refused(state, u.Play(2, c("R5"), target=3), "PLAY-1", "target-not-allowed")
    refused(state, u.Play(2, c("R5"), uno=True), "UNO-1", "uno-not-next-to-last")


def test_a_wild_never_jumps_in() -> None:
    """HOUSE-2: a wild is never identical, not even a Wild on a Wild (named colour red) or a Wild Draw
    Four on a Wild Draw Four."""
    on_wild = u.from_position(profile(JUMP), ["G1 G2 B3", "W W+4 G4", "Y1 Y2"], "R5 W", color=RED)
    refused(on_wild, u.Play(1, c("W"), color=RED), "HOUSE-2", "not-identical")
    refused(on_wild, u.Play(1, c("W+4"), color=RED), "HOUSE-2", "not-identical")
    assert u.legal_moves(on_wild, 1) == []
    on_wd4 = u.from_position(profile(JUMP), ["G1 G2 B3", "W+4 G4 G5", "Y1 Y2"], "R5 W+4", color=BLUE)
    refused(on_wd4, u.Play(1, c("W+4"), color=BLUE), "HOUSE-2", "not-identical")
    assert u.legal_moves(on_wd4, 1) == []


def test_without_the_overlay_an_identical_card_is_out_of_turn() -> None:
    """HOUSE-2 off (classic-108), PLAY-8: an identical card played out of turn is refused, and only the
    player to act has moves."""
    state = u.from_position(profile("classic-108"), ["G1 G2 B3", "Y1 Y2 Y3", "R5 B7 B8"], "R5")
    assert not profile("classic-108").jump_in
    assert profile(JUMP).jump_in
    refused(state, u.Play(2, c("R5")), "PLAY-8", "not-your-turn")
    assert u.legal_moves(state, 2) == []
    assert u.legal_moves(state) == [u.Draw(0)]


# --- who may jump in -----------------------------------------------------------------------
def test_the_player_who_played_the_top_card_may_jump_in_on_it() -> None:
    """HOUSE-2: the player who just played the top card may jump in with its twin; play again continues
    after them."""
    state = u.from_position(profile(JUMP), ["R5 R5 G1 G2", "Y1 Y2 Y3", "B7 B8 B9", "Y4 Y6"], "B5")
    first = u.apply(state, u.Play(0, c("R5")))
    assert (first.current, first.hands[0]) == (1, cards("R5 G1 G2"))
    assert u.legal_moves(first, 0) == [u.Play(0, c("R5"))]
    again = u.apply(first, u.Play(0, c("R5")))
    assert again.hands == hands("G1 G2", "Y1 Y2 Y3", "B7 B8 B9", "Y4 Y6")
    assert again.discard_pile == pile("B5 R5 R5")
    assert (again.current, again.phase, again.direction, again.color) == (1, u.Phase.PLAY, 1, RED)


def test_the_first_card_of_a_position_can_be_jumped_on() -> None:
    """HOUSE-2: the top card of a freshly built position (the only discard) can be jumped on."""
    state = u.from_position(profile(JUMP), ["G1 G2 B3", "R5 Y2 Y3", "B7 B8 B9"], "R5")
    after = u.apply(state, u.Play(1, c("R5")))
    assert after.hands == hands("G1 G2 B3", "Y2 Y3", "B7 B8 B9")
    assert after.discard_pile == pile("R5 R5")
    assert (after.current, after.phase, after.color) == (2, u.Phase.PLAY, RED)


def test_the_first_card_turned_at_the_deal_can_be_jumped_on() -> None:
    """HOUSE-2 with SETUP-4/5: the first card turned in new_game can be jumped on by a player other than
    the first player (seat dealer+1); play continues after the jumper."""
    prof = profile(JUMP)
    # dealer 0, three players: card i goes to seat (1 + i) % 3; card 21 is the first discard
    deck = first_deal_deck(prof, {1: "R5", 21: "R5"})
    state = u.new_game(prof, 3, dealer=0, deck=deck)
    assert (state.current, state.phase, state.top_card) == (1, u.Phase.PLAY, c("R5"))
    assert c("R5") in state.hands[2]
    assert jump_plays(state) == [u.Play(2, c("R5"))]
    after = u.apply(state, u.Play(2, c("R5")))
    assert len(after.hands[2]) == 6 and c("R5") not in after.hands[2]
    assert after.hands[0] == state.hands[0] and after.hands[1] == state.hands[1]
    assert after.discard_pile == pile("R5 R5")
    assert (after.current, after.phase, after.direction) == (0, u.Phase.PLAY, 1)


def test_legal_moves_list_jump_ins_after_the_moves_of_the_player_to_act() -> None:
    """HOUSE-2: legal_moves(state) ends with the jump-in play; legal_moves(state, q) and
    view(state, q).legal_moves give q's jump-in; players without an identical card have none."""
    state = u.from_position(profile(JUMP), ["R1 G2 B3", "G5 Y2 Y3", "R6 B7 B8", "R5 Y7 Y8"], "R5")
    assert u.legal_moves(state) == [u.Play(0, c("R1")), u.Draw(0), u.Play(3, c("R5"))]
    assert u.legal_moves(state, 0) == [u.Play(0, c("R1")), u.Draw(0)]
    assert u.legal_moves(state, 3) == [u.Play(3, c("R5"))]
    assert list(u.view(state, 3).legal_moves) == [u.Play(3, c("R5"))]
    for q in (1, 2):
        assert u.legal_moves(state, q) == []
        assert list(u.view(state, q).legal_moves) == []


def test_several_jumpers_are_listed_by_player_and_the_first_applied_counts() -> None:
    """HOUSE-2: with three Red 5s in the deck, two players may jump in; both are listed, in
    player order, after the mover's moves; whichever is applied first counts."""
    base = profile(JUMP)
    counts = list(base.deck_counts)
    counts[c("R5")] = 3
    prof = attrs.evolve(base, deck_counts=tuple(counts))
    state = u.from_position(prof, ["R1 G2 B3", "R5 Y2 Y3", "R6 B7 B8", "R5 Y7 Y8"], "R5")
    assert u.legal_moves(state) == [u.Play(0, c("R1")), u.Draw(0), u.Play(1, c("R5")), u.Play(3, c("R5"))]
    after = u.apply(state, u.Play(3, c("R5")))
    assert after.hands == hands("R1 G2 B3", "R5 Y2 Y3", "R6 B7 B8", "Y7 Y8")
    assert (after.current, after.top_card) == (0, c("R5"))
    # the other holder may still jump in on the new (identical) top card
    assert jump_plays(after) == [u.Play(1, c("R5"))]


# --- whose turn follows --------------------------------------------------------------------
@pytest.mark.parametrize(("direction", "after_skip"), [(1, 4), (-1, 0)])
def test_jump_in_skip_skips_the_player_after_the_jumper(direction: int, after_skip: int) -> None:
    """HOUSE-2, ACT-1: a Skip jumped in skips the player after the jumper, not after the player who was
    to act."""
    state = five_players("RS B7 B8", "RS", direction)
    after = u.apply(state, u.Play(2, c("RS")))
    assert after.hands[2] == cards("B7 B8")
    assert all(after.hands[p] == h for p, h in OTHER_HANDS.items())
    assert (after.current, after.direction, after.phase) == (after_skip, direction, u.Phase.PLAY)
    assert (after.top_card, after.color) == (c("RS"), RED)


@pytest.mark.parametrize(("direction", "before_jumper"), [(1, 1), (-1, 3)])
def test_jump_in_reverse_turns_and_the_player_before_the_jumper_plays(direction: int, before_jumper: int) -> None:
    """HOUSE-2, ACT-2: a Reverse jumped in turns the direction; the player before the jumper (in the
    old direction) plays next."""
    state = five_players("RR B7 B8", "RR", direction)
    after = u.apply(state, u.Play(2, c("RR")))
    assert after.hands[2] == cards("B7 B8")
    assert all(after.hands[p] == h for p, h in OTHER_HANDS.items())
    assert (after.current, after.direction, after.phase) == (before_jumper, -direction, u.Phase.PLAY)
    assert (after.top_card, after.color) == (c("RR"), RED)


def test_two_player_jump_in_reverse_as_skip_plays_again() -> None:
    """HOUSE-2, HOUSE-6, ACT-2: two players, two_player_reverse = "skip" (classic-108): the jumper plays
    again."""
    assert profile(JUMP).two_player_reverse == "skip"
    state = u.from_position(profile(JUMP), ["G1 G2 B3", "RR Y2 Y3"], "RR")
    after = u.apply(state, u.Play(1, c("RR")))
    assert after.hands == hands("G1 G2 B3", "Y2 Y3")
    assert (after.current, after.direction, after.phase, after.color) == (1, -1, u.Phase.PLAY, RED)
    assert u.legal_moves(after, 0) == []


def test_two_player_jump_in_reverse_without_house_6_gives_the_other_player_the_turn() -> None:
    """HOUSE-2, ACT-2 (gdj85, two_player_reverse = "reverse"): the other player plays after the jumper."""
    assert profile(GDJ_JUMP).two_player_reverse == "reverse"
    assert profile(GDJ_JUMP).jump_in
    state = u.from_position(profile(GDJ_JUMP), ["G1 G2 B3", "RR Y2 Y3"], "RR")
    after = u.apply(state, u.Play(1, c("RR")))
    assert after.hands == hands("G1 G2 B3", "Y2 Y3")
    assert (after.current, after.direction, after.phase, after.color) == (0, -1, u.Phase.PLAY, RED)


@pytest.mark.parametrize(("direction", "victim", "next_player"), [(1, 3, 4), (-1, 1, 0)])
def test_jump_in_draw_two_hits_the_player_after_the_jumper(direction: int, victim: int, next_player: int) -> None:
    """HOUSE-2, ACT-3: a Draw Two jumped in without stacking: the player after the jumper draws 2 at once
    and is skipped."""
    state = five_players("R+2 B7 B8", "R+2", direction)
    after = u.apply(state, u.Play(2, c("R+2")))
    assert after.hands[2] == cards("B7 B8")
    assert after.hands[victim] == tuple(sorted((*OTHER_HANDS[victim], c("B1"), c("B2"))))
    assert all(after.hands[p] == h for p, h in OTHER_HANDS.items() if p != victim)
    assert after.remaining_draw_pile == pile("B4")
    assert (after.current, after.direction, after.phase) == (next_player, direction, u.Phase.PLAY)
    assert (after.top_card, after.color) == (c("R+2"), RED)


# --- DRAWN phase ---------------------------------------------------------------------------
def test_jump_in_after_the_player_to_act_drew() -> None:
    """HOUSE-2, PLAY-5: player 0 drew a playable card (DRAWN phase); player 2 jumps in; player 0
    keeps the drawn card and loses the turn; the player after the jumper plays."""
    state = u.from_position(
        profile(JUMP), ["G1 G2 B3", "Y1 Y2 Y3", "R5 B8 B9", "Y4 Y6"], "R5", draw_pile="R8 Y7 G7"
    )
    drawn = u.apply(state, u.Draw(0))
    assert (drawn.phase, drawn.drawn) == (u.Phase.DRAWN, c("R8"))
    assert u.legal_moves(drawn) == [u.Play(0, c("R8")), u.Pass(0), u.Play(2, c("R5"))]
    assert u.legal_moves(drawn, 2) == [u.Play(2, c("R5"))]
    after = u.apply(drawn, u.Play(2, c("R5")))
    assert after.hands == hands("G1 G2 B3 R8", "Y1 Y2 Y3", "B8 B9", "Y4 Y6")
    assert (after.current, after.phase, after.direction) == (3, u.Phase.PLAY, 1)
    assert (after.top_card, after.color) == (c("R5"), RED)
    assert after.remaining_draw_pile == pile("Y7 G7")
    assert u.view(after, 0).drawn_card is None
    assert u.legal_moves(after, 0) == []
    # out of turn now: R8 is not identical to the top card (jump-in on), Pass is not their move
    refused(after, u.Play(0, c("R8")), "HOUSE-2", "not-identical")
    refused(after, u.Pass(0), "PLAY-8", "not-your-turn")


# --- seven-zero ----------------------------------------------------------------------------
def test_jump_in_seven_swaps_with_the_jumpers_target() -> None:
    """HOUSE-2 with HOUSE-3: a 7 jumped in needs a target (another player than the jumper) and swaps the
    jumper's hand with it; play continues after the jumper."""
    state = u.from_position(
        profile(SEVEN_ZERO_JUMP), ["G1 G2 B3", "Y1 Y2 Y3", "R7 B7 B8", "Y4 Y6"], "R7", draw_pile="G8"
    )
    expected_moves = {u.Play(2, c("R7"), target=t) for t in (0, 1, 3)}
    listed = u.legal_moves(state, 2)
    assert set(listed) == expected_moves and len(listed) == 3
    assert set(jump_plays(state)) == expected_moves
    refused(state, u.Play(2, c("R7")), "HOUSE-3", "target-required")
    refused(state, u.Play(2, c("R7"), target=2), "HOUSE-3", "invalid-target")
    after = u.apply(state, u.Play(2, c("R7"), target=0))
    assert after.hands == hands("B7 B8", "Y1 Y2 Y3", "G1 G2 B3", "Y4 Y6")
    assert (after.current, after.phase, after.direction) == (3, u.Phase.PLAY, 1)
    assert (after.top_card, after.color) == (c("R7"), RED)


@pytest.mark.parametrize(
    ("direction", "expected", "next_player"),
    [
        (1, ("Y5", "G1 G2", "Y1 Y2 Y3", "B7 B8 B9 G9"), 3),
        (-1, ("Y1 Y2 Y3", "B7 B8 B9 G9", "Y5", "G1 G2"), 1),
    ],
)
def test_jump_in_zero_rotates_every_hand(direction: int, expected: tuple[str, ...], next_player: int) -> None:
    """HOUSE-2 with HOUSE-3: a 0 jumped in passes every hand (the jumper's after playing) to the next
    player in the direction of play; play continues after the jumper."""
    prof = two_red_zeros(SEVEN_ZERO_JUMP)
    state = u.from_position(
        prof, ["G1 G2", "Y1 Y2 Y3", "R0 B7 B8 B9 G9", "Y5"], "R0", draw_pile="G8", direction=direction
    )
    assert u.legal_moves(state, 2) == [u.Play(2, c("R0"))]
    after = u.apply(state, u.Play(2, c("R0")))
    assert after.hands == hands(*expected)
    assert (after.current, after.phase, after.direction) == (next_player, u.Phase.PLAY, direction)
    assert (after.top_card, after.color) == (c("R0"), RED)
    assert after.uno_exposed == -1


# --- penalty pending (HOUSE-1) ------------------------------------------------------
def _penalty_on_player_1(jumper_hand: str) -> tuple[u.GameState, u.GameState]:
    """classic-108+stacking+jump-in, four players: player 0 plays a Red Draw Two on Red 5; player 1
    faces 2 cards (PENALTY). Returns (position, state after the Draw Two)."""
    state = u.from_position(
        profile(STACK_JUMP),
        ["R+2 G1 G2", "B1 B2 B3", jumper_hand, "Y7 Y8 Y9"],
        "R5",
        draw_pile="Y1 Y2 Y3 Y4 Y6",
    )
    return state, u.apply(state, u.Play(0, c("R+2")))


def test_jump_in_on_a_pending_draw_two_passes_the_growing_total_on() -> None:
    """HOUSE-1, HOUSE-2, ACT-3: player 2 jumps in with the identical Red Draw Two on player 1's
    penalty: the total grows to 4, player 3 (after the jumper) faces it, player 1 escapes."""
    _, penalty = _penalty_on_player_1("R+2 G3 G4")
    assert (penalty.current, penalty.phase, penalty.pending_draw) == (1, u.Phase.PENALTY, 2)
    assert u.legal_moves(penalty) == [u.Accept(1), u.Play(2, c("R+2"))]
    assert u.legal_moves(penalty, 2) == [u.Play(2, c("R+2"))]
    assert list(u.view(penalty, 2).legal_moves) == [u.Play(2, c("R+2"))]
    jumped = u.apply(penalty, u.Play(2, c("R+2")))
    assert jumped.hands == hands("G1 G2", "B1 B2 B3", "G3 G4", "Y7 Y8 Y9")
    assert (jumped.current, jumped.phase, jumped.pending_draw) == (3, u.Phase.PENALTY, 4)
    assert u.view(jumped, 0).pending_draw == 4
    assert (jumped.top_card, jumped.color, jumped.direction) == (c("R+2"), RED, 1)
    assert jumped.discard_pile == pile("R5 R+2 R+2")
    assert jumped.remaining_draw_pile == pile("Y1 Y2 Y3 Y4 Y6")
    assert u.legal_moves(jumped, 1) == []
    # the new victim takes the whole total and misses the turn
    accepted = u.apply(jumped, u.Accept(3))
    assert accepted.hands[3] == cards("Y7 Y8 Y9 Y1 Y2 Y3 Y4")
    assert (accepted.current, accepted.phase, accepted.pending_draw) == (0, u.Phase.PLAY, 0)
    assert accepted.hands[1] == cards("B1 B2 B3")


def test_only_an_identical_draw_two_jumps_in_on_a_penalty() -> None:
    """HOUSE-1, HOUSE-2: in PENALTY a Draw Two of another colour, or a number of the same
    colour, is not identical and is refused out of turn."""
    _, penalty = _penalty_on_player_1("G+2 R9 G4")
    refused(penalty, u.Play(2, c("G+2")), "HOUSE-2", "not-identical")
    refused(penalty, u.Play(2, c("R9")), "HOUSE-2", "not-identical")
    assert u.legal_moves(penalty, 2) == []


def test_no_jump_in_with_a_wild_draw_four_on_a_penalty() -> None:
    """HOUSE-1, HOUSE-2: a Wild Draw Four in PENALTY (stacking, unrestricted mode) cannot be
    jumped on: wilds are never identical."""
    prof = profile("classic-108+stacking+jump-in+wd4-unrestricted")
    state = u.from_position(prof, ["W+4 G1 G2", "B1 B2 B3", "W+4 G3 G4", "Y7 Y8 Y9"], "R5", draw_pile="Y1 Y2")
    penalty = u.apply(state, u.Play(0, c("W+4"), color=BLUE))
    assert (penalty.current, penalty.phase, penalty.pending_draw) == (1, u.Phase.PENALTY, 4)
    refused(penalty, u.Play(2, c("W+4"), color=BLUE), "HOUSE-2", "not-identical")
    assert u.legal_moves(penalty, 2) == []


# --- phases without jump-in ----------------------------------------------------------------
@pytest.mark.parametrize("name", [JUMP, STACK_JUMP])
def test_no_jump_in_while_a_wild_draw_four_awaits_its_challenge(name: str) -> None:
    """HOUSE-2/7, HOUSE-1, WD4-3: in CHALLENGE phase nobody may jump in; an out-of-turn
    play of a card the player holds is refused with no-jump-in-now."""
    state = u.from_position(
        profile(name), ["W+4 G1 G2", "B1 B2 B3", "G3 G4 B5", "Y7 Y8 Y9"], "R5", draw_pile="Y1 Y2 Y3 Y4"
    )
    challenge = u.apply(state, u.Play(0, c("W+4"), color=GREEN))
    assert (challenge.current, challenge.phase) == (1, u.Phase.CHALLENGE)
    refused(challenge, u.Play(2, c("G3")), "HOUSE-2", "no-jump-in-now")
    refused(challenge, u.Play(3, c("Y7")), "HOUSE-2", "no-jump-in-now")
    for q in (0, 2, 3):
        assert u.legal_moves(challenge, q) == []


def test_no_jump_in_while_the_first_player_chooses_a_colour() -> None:
    """HOUSE-2/7, SETUP-8: a Wild turned as the first card puts the first player in CHOOSE_COLOR;
    another player's out-of-turn play is refused with no-jump-in-now."""
    prof = profile(JUMP)
    deck = first_deal_deck(prof, {1: "G3", 21: "W"})
    state = u.new_game(prof, 3, dealer=0, deck=deck)
    assert (state.current, state.phase, state.top_card) == (1, u.Phase.CHOOSE_COLOR, c("W"))
    assert c("G3") in state.hands[2]
    refused(state, u.Play(2, c("G3")), "HOUSE-2", "no-jump-in-now")
    assert u.legal_moves(state, 2) == []
    assert u.legal_moves(state, 0) == []


# --- UNO -----------------------------------------------------------------------------------
def test_jump_in_from_two_cards_without_calling_exposes_the_jumper() -> None:
    """HOUSE-2, UNO-1, UNO-2: a jump-in from two cards without uno=True opens the catch window on
    the jumper; another player may catch them."""
    state = u.from_position(
        profile(JUMP), ["G1 G2 B3", "Y1 Y2 Y3", "R5 B7", "Y4 Y6 G6"], "R5", draw_pile="B1 B2 B4"
    )
    listed = u.legal_moves(state, 2)
    assert set(listed) == {u.Play(2, c("R5")), u.Play(2, c("R5"), uno=True)} and len(listed) == 2
    after = u.apply(state, u.Play(2, c("R5")))
    assert after.hands[2] == cards("B7")
    assert (after.uno_exposed, after.current) == (2, 3)
    assert u.CatchUno(0, 2) in u.legal_moves(after, 0)
    assert u.CallUno(2) in u.legal_moves(after, 2)
    caught = u.apply(after, u.CatchUno(0, 2))
    assert caught.hands[2] == cards("B7 B1 B2")
    assert (caught.uno_exposed, caught.current) == (-1, 3)


def test_jump_in_from_two_cards_with_uno_is_safe() -> None:
    """HOUSE-2, UNO-1: a jump-in from two cards with uno=True opens no catch window."""
    state = u.from_position(
        profile(JUMP), ["G1 G2 B3", "Y1 Y2 Y3", "R5 B7", "Y4 Y6 G6"], "R5", draw_pile="B1 B2 B4"
    )
    after = u.apply(state, u.Play(2, c("R5"), uno=True))
    assert after.hands[2] == cards("B7")
    assert (after.uno_exposed, after.current) == (-1, 3)
    assert not [m for m in u.legal_moves(after) if isinstance(m, u.CatchUno | u.CallUno)]
    refused(after, u.CatchUno(0, 2), "UNO-5", "not-catchable")


def test_a_jump_in_closes_an_open_catch_window() -> None:
    """HOUSE-2, UNO-5: player 0 plays the next-to-last card without calling; before anyone
    catches them, player 3 jumps in: the window is closed and player 0 can no longer be caught."""
    state = u.from_position(
        profile(JUMP), ["R5 G1", "Y1 Y2 Y3", "B7 B8 B9", "R5 Y7 Y8"], "B5", draw_pile="B1 B2 B4"
    )
    exposed = u.apply(state, u.Play(0, c("R5")))
    assert (exposed.uno_exposed, exposed.current) == (0, 1)
    assert u.CatchUno(1, 0) in u.legal_moves(exposed, 1)
    after = u.apply(exposed, u.Play(3, c("R5")))
    assert after.hands == hands("G1", "Y1 Y2 Y3", "B7 B8 B9", "Y7 Y8")
    assert (after.uno_exposed, after.current, after.phase) == (-1, 0, u.Phase.PLAY)
    refused(after, u.CatchUno(1, 0), "UNO-5", "not-catchable")
    refused(after, u.CallUno(0), "UNO-4", "no-uno-owed")
    assert not [m for m in u.legal_moves(after) if isinstance(m, u.CatchUno | u.CallUno)]


# --- going out -----------------------------------------------------------------------------
def test_jumping_in_with_the_last_card_wins_the_round() -> None:
    """HOUSE-2, END-1: a jump-in with the last card ends the round; the jumper wins."""
    state = u.from_position(profile(JUMP), ["G1 G2 B3", "Y1 Y2 Y3", "R5", "Y4 Y6"], "R5", draw_pile="B1 B2")
    assert u.legal_moves(state, 2) == [u.Play(2, c("R5"))]
    after = u.apply(state, u.Play(2, c("R5")))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == hands("G1 G2 B3", "Y1 Y2 Y3", "", "Y4 Y6")
    result = after.match.last_round
    assert result is not None
    assert (result.winner, result.blocked) == (2, False)
    assert result.hand_points == (6, 6, 0, 10)
    assert result.points_won == (0, 0, 22, 0)
    assert not [m for m in u.legal_moves(after) if isinstance(m, u.Play)]


def test_jumping_in_with_a_last_draw_two_still_makes_the_next_player_draw() -> None:
    """HOUSE-2, ACT-9, END-1: a last Draw Two jumped in ends the round after the player after the
    jumper draws 2; those cards count in scoring."""
    state = u.from_position(profile(JUMP), ["G1 G2 B3", "Y1 Y2 Y3", "R+2", "B1 B2"], "R+2", draw_pile="Y4 Y6 B4")
    after = u.apply(state, u.Play(2, c("R+2")))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == hands("G1 G2 B3", "Y1 Y2 Y3", "", "B1 B2 Y4 Y6")
    assert after.remaining_draw_pile == pile("B4")
    result = after.match.last_round
    assert result is not None
    assert result.winner == 2
    assert result.hand_points == (6, 6, 0, 13)
    assert result.points_won == (0, 0, 25, 0)


def test_jumping_in_on_a_penalty_with_the_last_draw_two_makes_the_next_player_draw_the_total() -> None:
    """HOUSE-1, HOUSE-2, ACT-9: the jumper goes out with an identical Draw Two on a
    pending 2: the round ends and the player after the jumper draws the whole 4; the first victim
    draws nothing."""
    _, penalty = _penalty_on_player_1("R+2")
    after = u.apply(penalty, u.Play(2, c("R+2")))
    assert after.phase is u.Phase.ROUND_OVER
    assert after.hands == hands("G1 G2", "B1 B2 B3", "", "Y7 Y8 Y9 Y1 Y2 Y3 Y4")
    assert after.remaining_draw_pile == pile("Y6")
    result = after.match.last_round
    assert result is not None and result.winner == 2


# --- determinism ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "hands_text", "top", "move", "next_player"),
    [
        (JUMP, ["G1 G2 B3", "Y1 Y2 Y3", "R+2 B7 B8", "Y4 Y6"], "R+2", u.Play(2, u.parse_card("R+2")), 0),
        (JUMP, ["G1 G2 B3", "Y1 Y2 Y3", "R5 B7", "Y4 Y6"], "R5", u.Play(2, u.parse_card("R5")), 3),
        (SEVEN_ZERO_JUMP, ["G1 G2 B3", "Y1 Y2 Y3", "R7 B7 B8", "Y4 Y6"], "R7",
         u.Play(2, u.parse_card("R7"), target=1), 3),
    ],
)
def test_applying_the_same_jump_in_twice_gives_equal_states(
    name: str, hands_text: Sequence[str], top: str, move: u.Play, next_player: int
) -> None:
    """HOUSE-2: apply is pure and deterministic for a jump-in (shuffled draw pile from a seed)."""
    state = u.from_position(profile(name), hands_text, top, seed=7)
    before = snapshot(state)
    first = u.apply(state, move)
    second = u.apply(state, move)
    assert first == second
    assert snapshot(state) == before
    rebuilt = u.apply(u.from_position(profile(name), hands_text, top, seed=7), move)
    assert rebuilt == first
    assert first.current == next_player
    assert first.hands[2] != state.hands[2]
