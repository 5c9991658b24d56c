"""House rules implemented by the engine: seven-zero (HOUSE-3) and draw until playable (HOUSE-4),
alone and with other rules."""

from __future__ import annotations

import pytest

import unoengine as u

SEVEN_ZERO = u.load_profile("classic-108+seven-zero")
DRAW_TO_MATCH = u.load_profile("classic-108+draw-to-match")
c = u.parse_card


def cards(text: str) -> tuple[u.Card, ...]:
    return tuple(sorted(u.parse_cards(text)))


def test_seven_swaps_hands_with_the_chosen_player() -> None:
    """HOUSE-3: a 7 names another player; the two exchange hands and the turn passes on."""
    state = u.from_position(SEVEN_ZERO, ["R7 G1 G2", "B1 B2 B3 B4", "Y1 Y2"], "R5", draw_pile="")
    moves = u.legal_moves(state, 0)
    sevens = [m for m in moves if m.card == c("R7")]
    assert sevens == [u.Play(0, "R7", target=1), u.Play(0, "R7", target=2)]
    after = u.apply(state, u.Play(0, "R7", target=2))
    assert after.hands == (cards("Y1 Y2"), cards("B1 B2 B3 B4"), cards("G1 G2"))
    assert (after.current, after.top_card, after.color) == (1, c("R7"), u.Color.RED)


def test_seven_without_a_target_is_refused() -> None:
    """HOUSE-3: a 7 needs another player; naming none or oneself is refused and nothing changes."""
    state = u.from_position(SEVEN_ZERO, ["R7 G1 G2", "B1 B2 B3 B4"], "R5")
    for move, reason in ((u.Play(0, "R7"), "target-required"), (u.Play(0, "R7", target=0), "invalid-target")):
        with pytest.raises(u.IllegalMoveError) as info:
            u.apply(state, move)
        assert (info.value.rule, info.value.reason) == ("HOUSE-3", reason)
    assert state == u.from_position(SEVEN_ZERO, ["R7 G1 G2", "B1 B2 B3 B4"], "R5")


def test_without_the_overlay_a_seven_is_a_number() -> None:
    """HOUSE-3 is off in the official profiles: a 7 takes no target (PLAY-1)."""
    state = u.from_position("classic-108", ["R7 G1 G2", "B1 B2 B3 B4"], "R5")
    assert u.Play(0, "R7") in u.legal_moves(state)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, u.Play(0, "R7", target=1))
    assert info.value.reason == "target-not-allowed"


ROTATIONS = [(1, ("Y1 Y2", "G1 G2", "B1 B2 B3")), (-1, ("B1 B2 B3", "Y1 Y2", "G1 G2"))]


@pytest.mark.parametrize(("direction", "expected"), ROTATIONS)
def test_zero_passes_every_hand_in_the_direction_of_play(direction: int, expected: tuple[str, ...]) -> None:
    """HOUSE-3: a 0 passes every hand to the next player in the direction of play."""
    state = u.from_position(
        SEVEN_ZERO, ["R0 G1 G2", "B1 B2 B3", "Y1 Y2"], "R5", direction=direction, draw_pile=""
    )
    after = u.apply(state, u.Play(0, "R0"))
    # p0 holds "G1 G2" after playing; with direction +1 it goes to p1, p1's to p2, p2's to p0.
    assert after.hands == tuple(cards(h) for h in expected)
    assert after.current == (0 + direction) % 3


def test_zero_with_two_players_exchanges_the_hands() -> None:
    """HOUSE-3 with two players: passing every hand on is an exchange."""
    state = u.from_position(SEVEN_ZERO, ["R0 G1 G2", "B1 B2 B3"], "R5", draw_pile="")
    after = u.apply(state, u.Play(0, "R0"))
    assert after.hands == (cards("B1 B2 B3"), cards("G1 G2"))
    assert after.current == 1


def test_reaching_one_card_by_a_swap_owes_no_uno_call() -> None:
    """HOUSE-3 with UNO-1: the player who receives a one-card hand by a 7 owes no call (ruling); the
    player who played the 7 from two cards without calling holds the other hand and cannot be caught."""
    state = u.from_position(SEVEN_ZERO, ["R7 G1", "B1 B2 B3", "Y1 Y2"], "R5", draw_pile="")
    after = u.apply(state, u.Play(0, "R7", target=1))
    assert after.hands[1] == cards("G1") and after.hands[0] == cards("B1 B2 B3")
    assert after.uno_exposed == -1
    assert not [m for m in u.legal_moves(after) if isinstance(m, u.CatchUno)]


def test_going_out_on_a_seven_does_not_swap() -> None:
    """HOUSE-3 with END-1: a 7 as the last card ends the round; no hands are exchanged."""
    state = u.from_position(SEVEN_ZERO, ["R7", "B1 B2 B3"], "R5")
    after = u.apply(state, u.Play(0, "R7", target=1))
    assert after.round_over and after.match.last_round is not None
    assert after.match.last_round.winner == 0
    assert after.hands == ((), cards("B1 B2 B3"))


def test_draw_until_a_playable_card() -> None:
    """HOUSE-4: the player keeps drawing until a card can be played, then may play it or keep it."""
    state = u.from_position(DRAW_TO_MATCH, ["G1 G2", "B1 B2"], "R5", draw_pile="Y1 B7 R9 G3")
    after = u.apply(state, u.Draw(0))
    assert after.hands[0] == cards("G1 G2 Y1 B7 R9")
    assert (after.phase, after.drawn) == (u.Phase.DRAWN, c("R9"))
    assert u.legal_moves(after, 0) == [u.Play(0, "R9"), u.Pass(0)]
    assert after.remaining_draw_pile == (c("G3"),)


def test_draw_until_playable_with_an_empty_draw_pile() -> None:
    """HOUSE-4 with PLAY-7: the draw pile and the reshuffled discards run out before a playable card:
    the player keeps everything drawn and passes."""
    state = u.from_position(DRAW_TO_MATCH, ["G1 G2", "B1 B2"], "Y3 R5", draw_pile="Y1")
    after = u.apply(state, u.Draw(0))
    assert after.hands[0] == cards("G1 G2 Y1 Y3")  # Y1, then the reshuffled Y3
    assert after.draw_pile_size == 0 and after.discard_pile == (c("R5"),)
    assert u.legal_moves(after, 0) == [u.Pass(0)]


def test_forced_play_with_draw_to_match() -> None:
    """HOUSE-4 with HOUSE-5: a player who can play may not draw; one who cannot draws until playable
    and may still keep the card (PLAY-4 ruling)."""
    profile = u.load_profile("classic-108+draw-to-match+forced-play")
    state = u.from_position(profile, ["R1 G2", "B1 B2"], "R5", draw_pile="G7 R8")
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, u.Draw(0))
    assert (info.value.rule, info.value.reason) == ("HOUSE-5", "forced-play")
    stuck = u.from_position(profile, ["G1 G2", "B1 B2"], "R5", draw_pile="G7 R8")
    after = u.apply(stuck, u.Draw(0))
    assert after.drawn == c("R8") and u.Pass(0) in u.legal_moves(after, 0)


def test_seven_zero_and_draw_to_match_compose() -> None:
    """HOUSE-3 and HOUSE-4 compose with each other and with the official sheets (DECK-2/3)."""
    for base in ("gdj85", "ffk04"):
        profile = u.load_profile(f"{base}+seven-zero+draw-to-match")
        assert profile.seven_zero and profile.draw_until_playable
        assert profile.fingerprint != u.load_profile(base).fingerprint


def test_others_draw_one_custom_effect() -> None:
    """ACT-8: the shipped effect "others-draw-one" makes every other player draw one card, from the
    next player on, and the turn then passes on as after a plain wild."""
    import attrs

    profile = attrs.evolve(u.load_profile("gdj85"), custom_effect="others-draw-one")
    state = u.from_position(profile, ["WCU G1 G2", "B1 B2", "Y1 Y2"], "R5", draw_pile="R1 R2 R3")
    after = u.apply(state, u.Play(0, "WCU", "green"))
    assert after.hands == (cards("G1 G2"), cards("B1 B2 R1"), cards("Y1 Y2 R2"))
    assert (after.current, after.color, after.remaining_draw_pile) == (1, u.Color.GREEN, (c("R3"),))
    assert "others-draw-one" in u.registered_effects()
