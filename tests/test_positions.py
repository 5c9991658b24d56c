"""from_position builds every phase directly, and the SETUP-2 dealer draw can be fixed and read.

Each new argument has an example citing its rule and the bad inputs it refuses, naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest

import unoengine as u
from unoengine.engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, NextRound, Pass, Play

CLASSIC = u.load_profile("classic-108")
C = u.parse_card


def position(**kw: Any) -> u.GameState:
    args: dict[str, Any] = {"hands": ["R5 G6", "B1 B2"], "discard": "R3", "draw_pile": "G1 G2"}
    args.update(kw)
    return u.from_position(CLASSIC, args.pop("hands"), args.pop("discard"), **args)


def refused(field: str, **kw: Any) -> str:
    with pytest.raises(u.PositionError) as err:
        position(**kw)
    assert field in str(err.value), str(err.value)
    return str(err.value)


# --- DRAWN (PLAY-4, PLAY-5) -----------------------------------------------------------------
def test_drawn_phase_offers_only_the_drawn_card_or_pass() -> None:
    """PLAY-4, PLAY-5: after a draw only the drawn card may be played, or kept with a pass."""
    s = position(phase="DRAWN", drawn="R5", hands=["R5 R6", "B1 B2"])
    assert s.phase is u.Phase.DRAWN and s.drawn == C("R5")
    assert set(u.legal_moves(s, 0)) == {Play(0, C("R5")), Play(0, C("R5"), uno=True), Pass(0)}
    kept = u.apply(s, Pass(0))
    assert kept.current == 1 and kept.hands[0] == (C("R5"), C("R6"))


def test_drawn_phase_bad_input() -> None:
    """PLAY-5: the drawn card is needed in DRAWN, must be in the hand of the player to act, and only in DRAWN."""
    refused("drawn", phase="DRAWN")
    refused("drawn", phase="DRAWN", drawn="B1")
    refused("drawn", phase="DRAWN", drawn="R5 G6")
    refused("drawn", drawn="R5")
    refused("uno_exposed", phase="DRAWN", drawn="R5", hands=["R5", "B1 B2"], uno_exposed=0)  # UNO-5


# --- CHALLENGE (WD4-2, WD4-3) ------------------------------------------------------------
def test_pending_challenge_judges_the_colour_given() -> None:
    """WD4-2, WD4-3, WD4-4: the attacker is the player before the victim; the bluff is judged on the colour
    in play when the card was played, and a guilty attacker draws 4."""
    s = position(hands=["R5 G6", "B1 B2", "Y1"], discard="R3 W+4", color=2, current=1, phase="CHALLENGE",
                 challenge_color=0, draw_pile="G1 G2 G3 G4 G5 G7")
    assert s.challenge is not None and s.challenge.attacker == 0 and s.challenge.bluff
    assert s.pending_draw == 4 and set(u.legal_moves(s, 1)) == {Challenge(1), Accept(1)}
    after = u.apply(s, Challenge(1))
    assert len(after.hands[0]) == 6 and after.current == 1  # WD4-4 ruling: the challenger plays on
    innocent = position(hands=["Y5 G6", "B1 B2"], discard="R3 W+4", color=2, current=1, phase="CHALLENGE",
                        challenge_color=0, draw_pile="G1 G2 G3 G4 G5 G7")
    assert innocent.challenge is not None and not innocent.challenge.bluff
    assert len(u.apply(innocent, Challenge(1)).hands[1]) == 8  # WD4-5


def test_pending_challenge_attacker_hand_and_direction() -> None:
    """WD4-3, PLAY-8, UNO-2: counter-clockwise the attacker is the next seat; the attacker's hand may have been
    larger only by a missed-UNO penalty on a last card."""
    s = position(hands=["B1 B2", "G1 G2", "Y1"], discard="R3 W+4", color=1, current=0, direction=-1,
                 phase="CHALLENGE", challenge_color=0)
    assert s.challenge is not None and s.challenge.attacker == 1 and not s.challenge.bluff
    refused("challenge.hand", hands=["B1 B2", "G1 G2", "Y1"], discard="R3 W+4", color=1, phase="CHALLENGE",
            challenge_color=0, attacker_hand="R7")


def test_pending_challenge_bad_input() -> None:
    """WD4-1, WD4-3, WD4-6: a challenge needs its colour, a Wild Draw Four on top and a profile with challenges."""
    refused("challenge_color", discard="R3 W+4", color=2, current=1, phase="CHALLENGE")
    refused("challenge_color", discard="R3 W+4", color=2, current=1, phase="CHALLENGE", challenge_color=7)
    refused("discard_pile", discard="R3 W", color=2, current=1, phase="CHALLENGE", challenge_color=0)
    refused("challenge_color", challenge_color=0)
    refused("attacker_hand", attacker_hand="R5")
    with pytest.raises(u.PositionError, match="WD4-6"):
        u.from_position("classic-108+wd4-unrestricted", ["R5", "B1 B2"], "R3 W+4", color=2, current=1,
                        phase="CHALLENGE", challenge_color=0)


# --- CHOOSE_COLOR (SETUP-8) ---------------------------------------------------------------
def test_first_wild_awaiting_its_colour() -> None:
    """SETUP-8: the player to the dealer's left names the first colour, before anything else happens."""
    hands = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7"]
    s = u.from_position(CLASSIC, hands, "W", current=1, dealer=0, phase="CHOOSE_COLOR")
    assert s.color == -1 and set(u.legal_moves(s)) == {ChooseColor(1, c) for c in range(4)}
    assert u.apply(s, ChooseColor(1, 3)).color == 3
    with pytest.raises(u.PositionError, match="color"):
        u.from_position(CLASSIC, hands, "W", current=1, color=2, phase="CHOOSE_COLOR")
    with pytest.raises(u.PositionError, match="SETUP-1"):
        u.from_position(CLASSIC, ["R1", "G1"], "W", current=1, phase="CHOOSE_COLOR")
    with pytest.raises(u.PositionError, match="current"):
        u.from_position(CLASSIC, hands, "W", current=1, dealer=1, phase="CHOOSE_COLOR")


# --- UNO exposure (UNO-1..7) ----------------------------------------------------------------
def test_player_exposed_to_a_catch() -> None:
    """UNO-2, UNO-4, UNO-6: a player left with one card without calling may be caught by another, or call late."""
    s = position(hands=["R5", "B1 B2"], current=1, uno_exposed=0)
    assert CatchUno(1, 0) in u.legal_moves(s) and CallUno(0) in u.legal_moves(s)
    caught = u.apply(s, CatchUno(1, 0))
    assert len(caught.hands[0]) == 3 and caught.uno_exposed == -1


def test_exposure_bad_input() -> None:
    """UNO-2, UNO-3: only a player holding one card may be exposed; a seat must exist."""
    refused("uno_exposed", current=1, uno_exposed=0)
    refused("uno_exposed", current=1, uno_exposed=5)
    refused("uno_exposed", current=1, uno_exposed="p0")


# --- known cards (ACT-7, HOUSE-3, WD4-3) ----------------------------------------------------
def test_known_cards_reach_the_viewers_view() -> None:
    """WD4-3, ACT-7: what a player knows of another hand is in their view only, combined per pair."""
    s = position(hands=["R5 G6", "B1 B2 Y3"], known=[(0, 1, "B1"), (0, 1, "B2"), (1, 0, ["G6"])])
    assert s.known == ((0, 1, (C("B1"), C("B2"))), (1, 0, (C("G6"),)))
    assert dict(u.view(s, 0).known) == {1: (C("B1"), C("B2"))}
    assert dict(u.view(s, 1).known) == {0: (C("G6"),)}


def test_known_cards_bad_input() -> None:
    """WD4-3: known cards are in the owner's hand, of another player, in (viewer, owner, cards) entries."""
    refused("known[0]", known=[(0, 1, "G1")])
    refused("known[0]", known=[(0, 0, "R5")])
    refused("known[0]", known=[(0, 3, "R5")])
    refused("known[0]", known=[(0, 1)])
    refused("known[0]", known=[(0, 1, "")])
    refused("known", known="B1")


# --- passes (PLAY-7) ------------------------------------------------------------------------
def test_passes_count_towards_a_blocked_round() -> None:
    """PLAY-7: with nothing to draw, the passes in a row are kept; the last pass blocks the round."""
    s = position(hands=["R5 G6", "B1 B2", "Y1"], discard="R3", draw_pile="", current=2, passes=2)
    assert s.passes == 2 and u.legal_moves(s, 2) == [Pass(2)]
    over = u.apply(s, Pass(2))
    assert over.round_over and over.match.last_round is not None and over.match.last_round.blocked


def test_passes_bad_input() -> None:
    """PLAY-7: passes only with nothing to draw, fewer than the players, a count."""
    refused("passes", passes=1)
    refused("passes", draw_pile="", passes=2)
    refused("passes", draw_pile="", passes=-1)


# --- a later round, and the end of a round (SETUP-11, END-1, SCORE-1..4) -------------------
def test_later_round_with_scores() -> None:
    """SETUP-11, SCORE-2: round 3 with the scores so far and the previous round's result."""
    s = position(round_number=3, scores=[120, 40], dealer=1,
                 last_round={"winner": 0, "hand_points": [0, 40]})
    assert s.match.round_number == 3 and s.scores == (120, 40) and s.dealer == 1
    assert s.match.last_round == u.RoundResult(0, False, (0, 40), (40, 0))
    refused("last_round", round_number=2)
    refused("last_round", round_number=2, last_round={"winner": 0, "hand_points": [1, 40]})  # END-1
    refused("last_round", round_number=2, last_round={"winner": 0, "hand_points": [0]})
    refused("last_round", round_number=2, last_round={"winner": 0, "hand_points": [0, 4], "who": 1})
    refused("round_number", round_number=0)


def test_round_over_and_the_next_deal() -> None:
    """END-1, SCORE-2, SETUP-11: a round won by the player to act; the deal then passes to the dealer's left."""
    s = position(hands=["", "B1 B2 R+2"], current=0, dealer=1, phase="ROUND_OVER", scores=[23, 0])
    assert s.match.last_round == u.RoundResult(0, False, (0, 23), (23, 0))
    assert u.legal_moves(s) == [NextRound(0)]
    assert u.apply(s, NextRound(0)).dealer == 0
    refused("scores", hands=["", "B1 B2 R+2"], phase="ROUND_OVER", scores=[0, 0])  # SCORE-2
    refused("hands[1]", hands=["", "B1 B2 R+2"], current=1, phase="ROUND_OVER", scores=[23, 0])  # END-1
    refused("hands", hands=["", "B1 B2 R+2"])


def test_match_over() -> None:
    """SCORE-2: a round that takes a player to 500 ends the match; MATCH_OVER needs such scores."""
    s = position(hands=["", "B1 B2 R+2"], phase="MATCH_OVER", scores=[510, 0])
    assert s.match_over and s.match.winner == 0 and u.legal_moves(s) == []
    refused("match", hands=["", "B1 B2 R+2"], phase="MATCH_OVER", scores=[23, 0])
    refused("phase", phase="OVER")


# --- the SETUP-2 dealer draw ------------------------------------------------------------------
def test_dealer_draw_fixed_highest_deals() -> None:
    """SETUP-2: the highest number deals; action and wild cards count zero."""
    draw = u.fixed_dealer_draw(CLASSIC, 3, [C("R5"), C("G9"), C("W+4")])
    assert draw.dealer == 1 and draw.draws == (((0, C("R5")), (1, C("G9")), (2, C("W+4"))),)
    state = u.new_game(CLASSIC, 3, seed=4, dealer_draw="R5 G9 W+4")
    assert state.dealer == 1


def test_dealer_draw_ties_redraw_among_the_tied() -> None:
    """SETUP-2 RULING: ties among the highest re-draw among the tied, in seat order; zeros tie too."""
    draw = u.fixed_dealer_draw(CLASSIC, 4, u.parse_cards("R7 GS B7 W  Y2 R2  B0 G1"))
    assert draw.dealer == 2 and [len(d) for d in draw.draws] == [4, 2, 2]
    assert draw.draws[1] == ((0, C("Y2")), (2, C("R2")))
    assert draw.cards == u.parse_cards("R7 GS B7 W Y2 R2 B0 G1")
    zeros = u.fixed_dealer_draw(CLASSIC, 2, u.parse_cards("RS W G0 B+2 R1 Y0"))
    assert zeros.dealer == 0 and len(zeros.draws) == 3


def test_dealer_draw_from_a_seed_is_what_new_game_uses() -> None:
    """SETUP-2: the seeded draw, reported card by card, chooses new_game's dealer; fixed again, it gives the same."""
    for seed in range(30):
        draw, _ = u.draw_for_dealer(CLASSIC, 4, seed)
        assert u.new_game(CLASSIC, 4, seed=seed).dealer == draw.dealer == u.choose_dealer(CLASSIC, 4, seed)[0]
        assert u.fixed_dealer_draw(CLASSIC, 4, draw.cards) == draw


def test_dealer_draw_bad_input() -> None:
    """SETUP-2: the draw must choose exactly one dealer, from cards the deck holds, and not with a named dealer."""
    for cards, words in (("R5 G5", "re-draw 1"), ("R5", "first draw"), ("R5 G6 B1", "after 2 cards"),
                         ("WSH R1", "more copies"), ("R0 R0", "more copies"), ("R5 X", "dealer_draw")):
        with pytest.raises(u.PositionError, match=words):
            u.new_game(CLASSIC, 2, dealer_draw=cards)
    with pytest.raises(u.PositionError, match="dealer_draw"):
        u.new_game(CLASSIC, 2, dealer=0, dealer_draw="R5 G6")


def test_every_phase_built_saves_and_loads_back() -> None:
    """Every phase from_position builds (with the whole deck in play) is a state loads accepts, equal after the
    round trip: the positions obey the same consistency rules as saved games (PLAY-5, WD4-3, SETUP-8, UNO-2,
    PLAY-7, SETUP-11, END-1)."""
    seven = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7"]
    states = [
        u.from_position(CLASSIC, ["R5 G6", "B1 B2"], "R3", phase="DRAWN", drawn="R5"),
        u.from_position(CLASSIC, ["R5 G6", "B1 B2"], "R3 W+4", color=2, current=1, phase="CHALLENGE",
                        challenge_color=0, known=[(1, 0, "G6")]),
        u.from_position(CLASSIC, seven, "W", current=1, dealer=0, phase="CHOOSE_COLOR"),
        u.from_position(CLASSIC, ["R5", "B1 B2"], "R3", current=1, uno_exposed=0, round_number=2, scores=[0, 30],
                        last_round={"winner": 1, "hand_points": [30, 0]}),
        u.from_position(CLASSIC, ["", "B1 B2 R+2"], "R3", phase="ROUND_OVER", scores=[23, 0]),
        u.from_position(CLASSIC, ["", "B1 B2 R+2"], "R3", phase="MATCH_OVER", scores=[510, 0]),
    ]
    for state in states:
        assert u.loads(u.dumps(state)) == state, state
