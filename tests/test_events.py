"""Events of apply_with_events: for each situation, the exact events (classes, fields, rule IDs, order),
what events_for hides from each player, refusals, and agreement with apply over random games."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Callable
from functools import cache

import attrs
import pytest

import unoengine as u
from unoengine.events import (
    EVENT_TYPES,
    CardPlayed,
    CardsDrawn,
    ChallengeDecided,
    ChallengeOffered,
    ColorNamed,
    DirectionChanged,
    EffectApplied,
    FirstCardReturned,
    HandShown,
    HandsRotated,
    HandsShuffled,
    HandsSwapped,
    MatchEnded,
    PenaltyPending,
    PileReshuffled,
    RoundDealt,
    RoundEnded,
    TurnPassed,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoNotCalled,
)

R, Y, G, B = u.Color.RED, u.Color.YELLOW, u.Color.GREEN, u.Color.BLUE

CLASSIC = "classic-108"
PILE = "B1 B2 B3 B4 B5 B6 B7 B8"
"""A known draw pile, top first: a draw of n takes its first n cards."""

Events = tuple[u.Event, ...]


@cache
def prof(spec: str) -> u.Profile:
    """A shipped profile or composition, loaded once."""
    return u.load_profile(spec)


def card(text: str) -> u.Card:
    return u.parse_card(text)


def cards(text: str) -> tuple[u.Card, ...]:
    """Cards in the order given (a pile, or cards as drawn)."""
    return u.parse_cards(text)


def hand(text: str) -> tuple[u.Card, ...]:
    """A hand as the engine stores it: sorted by card code."""
    return tuple(sorted(u.parse_cards(text)))


def position(
    spec: str | u.Profile, hands: list[str], discard: str = "R5", *, draw_pile: str = PILE,
    color: int | None = None, direction: int = 1, current: int = 0, scores: list[int] | None = None,
    pending_draw: int = 0,
) -> u.GameState:
    profile = prof(spec) if isinstance(spec, str) else spec
    return u.from_position(profile, hands, discard, draw_pile=draw_pile, color=color, direction=direction,
                           current=current, scores=scores, pending_draw=pending_draw)


def run(state: u.GameState, move: u.Move) -> tuple[u.GameState, Events]:
    """apply_with_events, checking that its state is the one apply gives."""
    new, events = u.apply_with_events(state, move)
    assert new == u.apply(state, move)
    assert isinstance(events, tuple)
    return new, events


def events_of(state: u.GameState, move: u.Move) -> Events:
    return run(state, move)[1]


def deck_for(spec: str, dealt: str, first: str, after: str) -> list[u.Card]:
    """A whole deck, top first: the ``dealt`` cards (in dealing order), the ``first`` card turned,
    the ``after`` cards on top of the draw pile, then every other card of the profile in play."""
    front = [*cards(dealt), card(first), *cards(after)]
    rest = Counter(u.CARDS[c] for c in prof(spec).deck_cards()) - Counter(front)
    return front + sorted(rest.elements())


# --- plays (PLAY-1, ACT-4) ------------------------------------------------------------------------
def test_plain_number_play() -> None:
    """PLAY-1: a number card is reported as played, and nothing else happens."""
    state = position(CLASSIC, ["R7 G5 B2", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, card("R7")))
    assert events == (CardPlayed(0, card("R7"), "PLAY-1"),)
    assert new.current == 1


def test_wild_names_a_colour() -> None:
    """ACT-4, PLAY-3: a Wild is played, then its colour is named."""
    state = position(CLASSIC, ["W R7 G5", "Y1 R1", "G3 G4"])
    assert events_of(state, u.Play(0, u.WILD, B)) == (
        CardPlayed(0, card("W"), "PLAY-3"),
        ColorNamed(0, B, "ACT-4"),
    )


def test_drawn_card_played() -> None:
    """PLAY-4, PLAY-1: the card just drawn, played at once, is reported like any play."""
    state = position(CLASSIC, ["G7 G6", "Y1 R1", "G3 G4"], draw_pile="R1 B2")
    drawn, _ = run(state, u.Draw(0))
    assert events_of(drawn, u.Play(0, card("R1"))) == (CardPlayed(0, card("R1"), "PLAY-1"),)


# --- UNO (UNO-1..4) -------------------------------------------------------------------------------
def test_uno_called_with_next_to_last_card() -> None:
    """UNO-1: the call made with the next-to-last card follows the play."""
    state = position(CLASSIC, ["R7 G5", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, card("R7"), uno=True))
    assert events == (CardPlayed(0, card("R7"), "PLAY-1"), UnoCalled(0, "UNO-1"))
    assert new.uno_exposed == -1


def test_uno_not_called() -> None:
    """UNO-1, UNO-3: playing the next-to-last card without calling is reported: the player may be caught."""
    state = position(CLASSIC, ["R7 G5", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, card("R7")))
    assert events == (CardPlayed(0, card("R7"), "PLAY-1"), UnoNotCalled(0, "UNO-1"))
    assert new.uno_exposed == 0


def test_wild_uno_not_called() -> None:
    """UNO-1, ACT-4: the missed call is reported after the colour is named."""
    state = position(CLASSIC, ["W G5", "Y1 R1", "G3 G4"])
    assert events_of(state, u.Play(0, u.WILD, Y)) == (
        CardPlayed(0, card("W"), "PLAY-3"),
        ColorNamed(0, Y, "ACT-4"),
        UnoNotCalled(0, "UNO-1"),
    )


def test_wild_draw_four_uno_not_called_after_the_challenge_offer() -> None:
    """UNO-1, UNO-3, WD4-3: the missed call is reported once the card has done what it does (here, offer the
    challenge), as for every card: whether the player is left with one card is known only then."""
    state = position(CLASSIC, ["W+4 G5", "Y1 R1", "G3 G4"])
    assert events_of(state, u.Play(0, u.WILD_DRAW_FOUR, G)) == (
        CardPlayed(0, card("W+4"), "PLAY-3"),
        ColorNamed(0, G, "ACT-5"),
        ChallengeOffered(0, 1, 4, "WD4-3"),
        UnoNotCalled(0, "UNO-1"),
    )


def test_draw_two_uno_not_called_is_reported_after_its_effect() -> None:
    """UNO-1, UNO-3, ACT-3: the missed call comes after the card's effect (the next player's draw and skip), as
    for a Wild Draw Four; the window stays open through them (UNO-7)."""
    state = position(CLASSIC, ["R+2 G5", "Y1 R1", "G3 G4"])
    assert events_of(state, u.Play(0, card("R+2"))) == (
        CardPlayed(0, card("R+2"), "PLAY-1"),
        CardsDrawn(1, 2, cards("B1 B2"), "ACT-3"),
        TurnSkipped(1, "ACT-3"),
        UnoNotCalled(0, "UNO-1"),
    )


def test_late_uno_call() -> None:
    """UNO-4: a late call before anyone catches the player is reported as such."""
    state = position(CLASSIC, ["R7 G5", "Y1 R1", "G3 G4"])
    exposed, _ = run(state, u.Play(0, card("R7")))
    new, events = run(exposed, u.CallUno(0))
    assert events == (UnoCalled(0, "UNO-4"),)
    assert new.uno_exposed == -1


@pytest.mark.parametrize(("spec", "penalty"), [(CLASSIC, "B1 B2"), (CLASSIC + "+uno-penalty-4", "B1 B2 B3 B4")])
def test_uno_caught(spec: str, penalty: str) -> None:
    """UNO-2, HOUSE-8: the catch is reported, then the caught player draws the exact penalty cards."""
    state = position(spec, ["R7 G5", "Y1 R1", "G3 G4"])
    exposed, _ = run(state, u.Play(0, card("R7")))
    new, events = run(exposed, u.CatchUno(2, 0))
    assert events == (
        UnoCaught(2, 0, "UNO-2"),
        CardsDrawn(0, len(cards(penalty)), cards(penalty), "UNO-2"),
    )
    assert new.hands[0] == hand("G5 " + penalty)


# --- action cards (ACT-1..3, HOUSE-6) ------------------------------------------------------------
def test_skip() -> None:
    """ACT-1: the next player is skipped."""
    state = position(CLASSIC, ["RS R7 G5", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, card("RS")))
    assert events == (CardPlayed(0, card("RS"), "PLAY-1"), TurnSkipped(1, "ACT-1"))
    assert new.current == 2


@pytest.mark.parametrize("direction", [1, -1])
def test_reverse(direction: int) -> None:
    """ACT-2: the direction changes to the opposite of what it was."""
    state = position(CLASSIC, ["RR R7 G5", "Y1 R1", "G3 G4"], direction=direction)
    new, events = run(state, u.Play(0, card("RR")))
    assert events == (CardPlayed(0, card("RR"), "PLAY-1"), DirectionChanged(-direction, "ACT-2"))
    assert new.current == (-direction) % 3


def test_two_player_reverse_as_skip() -> None:
    """ACT-2, HOUSE-6: with two players (classic-108: Reverse = Skip) the other player is skipped too."""
    state = position(CLASSIC, ["RR R7 G5", "Y1 R1"])
    assert prof(CLASSIC).two_player_reverse == "skip"
    new, events = run(state, u.Play(0, card("RR")))
    assert events == (
        CardPlayed(0, card("RR"), "PLAY-1"),
        DirectionChanged(-1, "ACT-2"),
        TurnSkipped(1, "HOUSE-6"),
    )
    assert new.current == 0


def test_two_player_reverse_without_house_rule() -> None:
    """ACT-2: without HOUSE-6 (gdj85) a two-player Reverse only turns the direction; nobody is skipped."""
    state = position("gdj85", ["RR R7 G5", "Y1 R1"])
    new, events = run(state, u.Play(0, card("RR")))
    assert events == (CardPlayed(0, card("RR"), "PLAY-1"), DirectionChanged(-1, "ACT-2"))
    assert new.current == 1


def test_draw_two() -> None:
    """ACT-3: the next player draws the exact two cards on top of the pile and is skipped."""
    state = position(CLASSIC, ["R+2 R7 G5", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, card("R+2")))
    assert events == (
        CardPlayed(0, card("R+2"), "PLAY-1"),
        CardsDrawn(1, 2, cards("B1 B2"), "ACT-3"),
        TurnSkipped(1, "ACT-3"),
    )
    assert new.current == 2


# --- Wild Draw Four (ACT-5, WD4-1..6) ------------------------------------------------------------
def _wd4_offered(attacker_hand: str) -> u.GameState:
    """Player 0 plays a Wild Draw Four naming green on R5 (challenge mode); player 1 must decide."""
    state = position(CLASSIC, [attacker_hand, "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, u.WILD_DRAW_FOUR, G))
    assert events == (
        CardPlayed(0, card("W+4"), "PLAY-3"),
        ColorNamed(0, G, "ACT-5"),
        ChallengeOffered(0, 1, 4, "WD4-3"),
    )
    assert (new.phase, new.current) == (u.Phase.CHALLENGE, 1)
    return new


def test_wild_draw_four_offers_a_challenge() -> None:
    """WD4-3, WD4-6: in challenge mode the victim is offered a challenge on a total of 4."""
    _wd4_offered("W+4 R3 G5")


def test_wild_draw_four_accepted() -> None:
    """ACT-5: Accept draws the exact four cards and misses the turn."""
    new, events = run(_wd4_offered("W+4 R3 G5"), u.Accept(1))
    assert events == (CardsDrawn(1, 4, cards("B1 B2 B3 B4"), "ACT-5"), TurnSkipped(1, "ACT-5"))
    assert new.current == 2


def test_wild_draw_four_challenge_guilty() -> None:
    """WD4-3, WD4-4: the hand is shown to the challenger, the bluffer is guilty and draws 4; nobody is skipped."""
    new, events = run(_wd4_offered("W+4 R3 G5"), u.Challenge(1))
    assert events == (
        HandShown(0, 1, hand("R3 G5"), "WD4-3"),
        ChallengeDecided(1, 0, True, "WD4-4"),
        CardsDrawn(0, 4, cards("B1 B2 B3 B4"), "WD4-4"),
    )
    assert (new.current, new.phase) == (1, u.Phase.PLAY)


def test_wild_draw_four_challenge_innocent() -> None:
    """WD4-3, WD4-5: an innocent player's challenger draws 6 and is skipped."""
    new, events = run(_wd4_offered("W+4 G3 G5"), u.Challenge(1))
    assert events == (
        HandShown(0, 1, hand("G3 G5"), "WD4-3"),
        ChallengeDecided(1, 0, False, "WD4-5"),
        CardsDrawn(1, 6, cards("B1 B2 B3 B4 B5 B6"), "WD4-5"),
        TurnSkipped(1, "WD4-5"),
    )
    assert new.current == 2


@pytest.mark.parametrize("overlay", ["wd4-enforced", "wd4-unrestricted"])
def test_wild_draw_four_without_challenge(overlay: str) -> None:
    """ACT-5, WD4-6: without challenges the next player draws 4 at once and is skipped."""
    state = position(f"{CLASSIC}+{overlay}", ["W+4 G7 G5", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Play(0, u.WILD_DRAW_FOUR, G))
    assert events == (
        CardPlayed(0, card("W+4"), "PLAY-3"),
        ColorNamed(0, G, "ACT-5"),
        CardsDrawn(1, 4, cards("B1 B2 B3 B4"), "ACT-5"),
        TurnSkipped(1, "ACT-5"),
    )
    assert new.current == 2


def test_unrestricted_wild_draw_four_held_colour() -> None:
    """WD4-6: unrestricted, a Wild Draw Four played while holding the colour draws 4 at once (ACT-5)."""
    state = position(f"{CLASSIC}+wd4-unrestricted", ["W+4 R7 G5", "Y1 R1", "G3 G4"])
    assert events_of(state, u.Play(0, u.WILD_DRAW_FOUR, B))[2:] == (
        CardsDrawn(1, 4, cards("B1 B2 B3 B4"), "ACT-5"),
        TurnSkipped(1, "ACT-5"),
    )


# --- drawing and passing (PLAY-4..7, HOUSE-4) ---------------------------------------------------
def test_draw_with_nothing_playable() -> None:
    """PLAY-4: a player with nothing playable draws one card (the exact top card)."""
    state = position(CLASSIC, ["G7 G6", "Y1 R1", "G3 G4"])
    new, events = run(state, u.Draw(0))
    assert events == (CardsDrawn(0, 1, cards("B1"), "PLAY-4"),)
    assert (new.phase, new.drawn) == (u.Phase.DRAWN, card("B1"))


def test_draw_while_holding_a_playable_card() -> None:
    """PLAY-5: a player who could have played (R7 on R5) draws instead."""
    state = position(CLASSIC, ["R7 G6", "Y1 R1", "G3 G4"])
    assert events_of(state, u.Draw(0)) == (CardsDrawn(0, 1, cards("B1"), "PLAY-5"),)


def test_draw_until_playable() -> None:
    """HOUSE-4: one event reports every card drawn, the playable one last."""
    state = position(CLASSIC + "+draw-to-match", ["G7 G6", "Y1 R1", "G3 G4"], draw_pile="B1 B2 R3 B4")
    new, events = run(state, u.Draw(0))
    assert events == (CardsDrawn(0, 3, cards("B1 B2 R3"), "HOUSE-4"),)
    assert new.drawn == card("R3")


def test_draw_until_playable_first_card_playable() -> None:
    """HOUSE-4: a playable first card stops the drawing at one."""
    state = position(CLASSIC + "+draw-to-match", ["G7 G6", "Y1 R1", "G3 G4"], draw_pile="R1 B2")
    assert events_of(state, u.Draw(0)) == (CardsDrawn(0, 1, cards("R1"), "HOUSE-4"),)


def test_draw_until_playable_with_reshuffle() -> None:
    """HOUSE-4, PLAY-7: the pile runs out and is reshuffled on the way (one card under the top, Y9); the
    drawing stops when nothing is left and the one CardsDrawn lists both cards."""
    state = position(CLASSIC + "+draw-to-match", ["G7 G6", "Y1 R1", "G3 G4"], "Y9 R5", draw_pile="B1")
    assert events_of(state, u.Draw(0)) == (
        PileReshuffled(1, "PLAY-7"),
        CardsDrawn(0, 2, cards("B1 Y9"), "HOUSE-4"),
    )


def test_pass_keeping_the_drawn_card() -> None:
    """PLAY-4: after a draw, Pass keeps the card and ends the turn."""
    state = position(CLASSIC, ["G7 G6", "Y1 R1", "G3 G4"])
    drawn, _ = run(state, u.Draw(0))
    new, events = run(drawn, u.Pass(0))
    assert events == (TurnPassed(0, "PLAY-4"),)
    assert new.current == 1


def test_pass_with_nothing_to_draw() -> None:
    """PLAY-7: nothing to play and nothing to draw (no discards to reshuffle): the player passes."""
    state = position(CLASSIC, ["G7 G6", "Y1 Y2", "G3 G4"], draw_pile="")
    new, events = run(state, u.Pass(0))
    assert events == (TurnPassed(0, "PLAY-7"),)
    assert (new.current, new.passes) == (1, 1)


def test_blocked_round() -> None:
    """PLAY-7 RULING: when every player has passed with nothing to draw the round ends blocked; the lowest hand
    (player 1: Y1 Y2 = 3) wins the points of the others (G7 G6 = 13, G3 G4 = 7)."""
    state = position(CLASSIC, ["G7 G6", "Y1 Y2", "G3 G4"], draw_pile="")
    state, _ = run(state, u.Pass(0))
    state, _ = run(state, u.Pass(1))
    new, events = run(state, u.Pass(2))
    assert events == (TurnPassed(2, "PLAY-7"), RoundEnded(1, True, (0, 20, 0), "PLAY-7"))
    assert new.phase is u.Phase.ROUND_OVER


def test_reshuffle_before_draw() -> None:
    """PLAY-7: the empty draw pile is refilled from the discard pile (B8 under the top R5) before the draw."""
    state = position(CLASSIC, ["G7 G6", "Y1 R1", "G3 G4"], "B8 R5", draw_pile="")
    assert events_of(state, u.Draw(0)) == (
        PileReshuffled(1, "PLAY-7"),
        CardsDrawn(0, 1, cards("B8"), "PLAY-4"),
    )


def test_reshuffle_during_a_draw_two() -> None:
    """PLAY-7, ACT-3: one card left (B1), then the discards under the new top (R5) are reshuffled; the one
    CardsDrawn lists both cards after the reshuffle."""
    state = position(CLASSIC, ["R+2 G6 G7", "Y1 R1", "G3 G4"], "R5", draw_pile="B1")
    assert events_of(state, u.Play(0, card("R+2"))) == (
        CardPlayed(0, card("R+2"), "PLAY-1"),
        PileReshuffled(1, "PLAY-7"),
        CardsDrawn(1, 2, cards("B1 R5"), "ACT-3"),
        TurnSkipped(1, "ACT-3"),
    )


# --- going out, scoring (END-1, ACT-9, SCORE-1..4) ------------------------------------------------
GOING_OUT_HANDS = ["R3", "Y1 Y2", "G3 W"]
"""Player 0 goes out with R3; the others hold 3 and 53 points (SCORE-1)."""


def test_going_out() -> None:
    """END-1, SCORE-2: the round ends; the winner gains the points left in the other hands."""
    state = position(CLASSIC, GOING_OUT_HANDS)
    new, events = run(state, u.Play(0, card("R3")))
    assert events == (CardPlayed(0, card("R3"), "PLAY-1"), RoundEnded(0, False, (56, 0, 0), "END-1"))
    assert new.phase is u.Phase.ROUND_OVER


def test_going_out_reaches_the_target() -> None:
    """SCORE-2: reaching 500 ends the match after the round."""
    state = position(CLASSIC, GOING_OUT_HANDS, scores=[480, 0, 0])
    new, events = run(state, u.Play(0, card("R3")))
    assert events == (
        CardPlayed(0, card("R3"), "PLAY-1"),
        RoundEnded(0, False, (56, 0, 0), "END-1"),
        MatchEnded(0, (536, 0, 0), "SCORE-2"),
    )
    assert new.phase is u.Phase.MATCH_OVER


def test_lowest_score_match_end() -> None:
    """SCORE-3: each player adds their own hand; player 1 reaches 500 and the lowest total (player 0) wins."""
    assert prof(CLASSIC + "+lowest-score").target_score == 500
    state = position(CLASSIC + "+lowest-score", GOING_OUT_HANDS, scores=[10, 497, 20])
    assert events_of(state, u.Play(0, card("R3"))) == (
        CardPlayed(0, card("R3"), "PLAY-1"),
        RoundEnded(0, False, (0, 3, 53), "END-1"),
        MatchEnded(0, (10, 500, 73), "SCORE-3"),
    )


def test_one_point_per_round_match_end() -> None:
    """SCORE-4: one point per round won; the winner reaches the target."""
    target = prof(CLASSIC + "+one-point-per-round").target_score
    state = position(CLASSIC + "+one-point-per-round", GOING_OUT_HANDS, scores=[target - 1, 0, 0])
    assert events_of(state, u.Play(0, card("R3"))) == (
        CardPlayed(0, card("R3"), "PLAY-1"),
        RoundEnded(0, False, (1, 0, 0), "END-1"),
        MatchEnded(0, (target, 0, 0), "SCORE-4"),
    )


def test_going_out_on_a_draw_two() -> None:
    """ACT-9, END-1: the next player draws the two cards first (they count: 3 + 1 + 2 + 53 points)."""
    state = position(CLASSIC, ["R+2", "Y1 Y2", "G3 W"])
    assert events_of(state, u.Play(0, card("R+2"))) == (
        CardPlayed(0, card("R+2"), "PLAY-1"),
        CardsDrawn(1, 2, cards("B1 B2"), "ACT-9"),
        RoundEnded(0, False, (59, 0, 0), "END-1"),
    )


def test_going_out_on_a_wild_draw_four_enforced() -> None:
    """ACT-9, END-1: without challenges the next player draws 4 at once, then the round ends."""
    state = position(CLASSIC + "+wd4-enforced", ["W+4", "Y1 Y2", "G3 W"])
    assert events_of(state, u.Play(0, u.WILD_DRAW_FOUR, G)) == (
        CardPlayed(0, card("W+4"), "PLAY-3"),
        ColorNamed(0, G, "ACT-5"),
        CardsDrawn(1, 4, cards("B1 B2 B3 B4"), "ACT-9"),
        RoundEnded(0, False, (66, 0, 0), "END-1"),
    )


def _last_wd4_offered() -> u.GameState:
    state = position(CLASSIC, ["W+4", "Y1 Y2", "G3 W"])
    new, events = run(state, u.Play(0, u.WILD_DRAW_FOUR, G))
    assert events == (
        CardPlayed(0, card("W+4"), "PLAY-3"),
        ColorNamed(0, G, "ACT-5"),
        ChallengeOffered(0, 1, 4, "WD4-3"),
    )
    return new


def test_going_out_on_a_wild_draw_four_accepted() -> None:
    """ACT-9, END-1: accepting a last Wild Draw Four is the going-out draw (as with enforced mode and a last
    Draw Two); the round then ends, nobody is skipped."""
    assert events_of(_last_wd4_offered(), u.Accept(1)) == (
        CardsDrawn(1, 4, cards("B1 B2 B3 B4"), "ACT-9"),
        RoundEnded(0, False, (66, 0, 0), "END-1"),
    )


def test_going_out_on_a_wild_draw_four_challenged() -> None:
    """WD4-5, END-1: a last Wild Draw Four is never a bluff: the challenger sees an empty hand and draws 6."""
    assert events_of(_last_wd4_offered(), u.Challenge(1)) == (
        HandShown(0, 1, (), "WD4-3"),
        ChallengeDecided(1, 0, False, "WD4-5"),
        CardsDrawn(1, 6, cards("B1 B2 B3 B4 B5 B6"), "WD4-5"),
        RoundEnded(0, False, (77, 0, 0), "END-1"),
    )


# --- hands moving (ACT-6..8, HOUSE-3) ------------------------------------------------------------
def test_shuffle_hands() -> None:
    """ACT-6: the colour is named, then every hand is shuffled and dealt again from the player's left."""
    state = position("gdj85", ["WSH R7 G5", "Y1 R1", "G3 G4 G6"])
    new, events = run(state, u.Play(0, u.WILD_SHUFFLE_HANDS, G))
    assert events == (
        CardPlayed(0, card("WSH"), "PLAY-3"),
        ColorNamed(0, G, "ACT-6"),
        HandsShuffled(0, "ACT-6"),
    )
    assert sorted(len(h) for h in new.hands) == [2, 2, 3]


def test_swap_hands() -> None:
    """ACT-7: the colour is named, then the player and the target exchange hands."""
    state = position("ffk04", ["WSW R7 G5", "Y1 R1", "G3 G4 G6"])
    new, events = run(state, u.Play(0, u.WILD_SWAP_HANDS, G, target=2))
    assert events == (
        CardPlayed(0, card("WSW"), "PLAY-3"),
        ColorNamed(0, G, "ACT-7"),
        HandsSwapped(0, 2, "ACT-7"),
    )
    assert (new.hands[0], new.hands[2]) == (hand("G3 G4 G6"), hand("R7 G5"))


@pytest.mark.parametrize("effect", ["wild", "swap-hands"])
def test_custom_effect(effect: str) -> None:
    """ACT-8: the profile's effect is reported by name after the colour is named."""
    profile = attrs.evolve(prof("gdj85"), custom_effect=effect)
    target = 2 if effect == "swap-hands" else None
    state = position(profile, ["WCU R7 G5", "Y1 R1", "G3 G4 G6"])
    assert events_of(state, u.Play(0, u.WILD_CUSTOMIZABLE, G, target=target)) == (
        CardPlayed(0, card("WCU"), "PLAY-3"),
        ColorNamed(0, G, "ACT-8"),
        EffectApplied(0, effect, "ACT-8"),
    )


def test_custom_effect_draws_are_reported() -> None:
    """ACT-8: cards drawn by a custom effect (the built-in "others-draw-one": players 1 then 2 draw one each)
    are reported like any draw, with their cards, so a client can follow the hand sizes."""
    profile = attrs.evolve(prof("gdj85"), custom_effect="others-draw-one")
    state = position(profile, ["WCU R7 G5", "Y1 R1", "G3 G4 G6"])
    new, events = run(state, u.Play(0, u.WILD_CUSTOMIZABLE, G))
    assert new.hands[1] == hand("Y1 R1 B1")
    assert events[:2] == (CardPlayed(0, card("WCU"), "PLAY-3"), ColorNamed(0, G, "ACT-8"))
    assert EffectApplied(0, "others-draw-one", "ACT-8") in events
    assert [e for e in events if isinstance(e, CardsDrawn)] == [
        CardsDrawn(1, 1, cards("B1"), "ACT-8"),
        CardsDrawn(2, 1, cards("B2"), "ACT-8"),
    ]


def test_seven_zero_seven_swaps() -> None:
    """HOUSE-3: a 7 swaps hands with the chosen player."""
    state = position(CLASSIC + "+seven-zero", ["R7 R0 G5", "Y1 R1", "G3 G4 G6"])
    new, events = run(state, u.Play(0, card("R7"), target=2))
    assert events == (CardPlayed(0, card("R7"), "PLAY-1"), HandsSwapped(0, 2, "HOUSE-3"))
    assert new.hands[0] == hand("G3 G4 G6")


@pytest.mark.parametrize("direction", [1, -1])
def test_seven_zero_zero_rotates(direction: int) -> None:
    """HOUSE-3: a 0 passes every hand on in the direction of play."""
    state = position(CLASSIC + "+seven-zero", ["R7 R0 G5", "Y1 R1", "G3 G4 G6"], direction=direction)
    new, events = run(state, u.Play(0, card("R0")))
    assert events == (CardPlayed(0, card("R0"), "PLAY-1"), HandsRotated(direction, "HOUSE-3"))
    assert new.hands[direction % 3] == hand("R7 G5")


# --- stacking and jump-in (HOUSE-1, HOUSE-2) -----------------------------------------------------
STACKING = CLASSIC + "+stacking"


def test_stacking_draw_two_leaves_a_penalty_pending() -> None:
    """HOUSE-1: under stacking a Draw Two makes the next player face 2 instead of drawing."""
    state = position(STACKING, ["R+2 R7 G5", "Y+2 R1 G9", "G3 G4 G6"])
    new, events = run(state, u.Play(0, card("R+2")))
    assert events == (CardPlayed(0, card("R+2"), "PLAY-1"), PenaltyPending(1, 2, "HOUSE-1"))
    assert (new.phase, new.current) == (u.Phase.PENALTY, 1)


def test_stacking_answer_and_accept() -> None:
    """HOUSE-1: the answer is a play under HOUSE-1 passing on 4; Accept draws all 4 and misses the turn."""
    state = position(STACKING, ["R+2 R7 G5", "Y+2 R1 G9", "G3 G4 G6"])
    facing, _ = run(state, u.Play(0, card("R+2")))
    answered, events = run(facing, u.Play(1, card("Y+2")))
    assert events == (CardPlayed(1, card("Y+2"), "HOUSE-1"), PenaltyPending(2, 4, "HOUSE-1"))
    new, events = run(answered, u.Accept(2))
    assert events == (CardsDrawn(2, 4, cards("B1 B2 B3 B4"), "HOUSE-1"), TurnSkipped(2, "HOUSE-1"))
    assert new.current == 0


def test_stacking_accept_from_position() -> None:
    """HOUSE-1: Accept of a pending 2 built with from_position(pending_draw=2)."""
    state = position(STACKING, ["R7 G5", "Y+2 R1", "G3 G4 G6"], "R+2", pending_draw=2)
    assert events_of(state, u.Accept(0)) == (
        CardsDrawn(0, 2, cards("B1 B2"), "HOUSE-1"),
        TurnSkipped(0, "HOUSE-1"),
    )


def test_stacked_wild_draw_four_challenge_total() -> None:
    """HOUSE-1, WD4-3: a Wild Draw Four answering a Draw Two (cross) offers a challenge on 6; Accept draws 6."""
    state = position(CLASSIC + "+stacking-cross", ["R+2 R7 G5", "W+4 G1 G9", "G3 G4 G6"])
    facing, _ = run(state, u.Play(0, card("R+2")))
    offered, events = run(facing, u.Play(1, u.WILD_DRAW_FOUR, B))
    assert events == (
        CardPlayed(1, card("W+4"), "HOUSE-1"),
        ColorNamed(1, B, "ACT-5"),
        ChallengeOffered(1, 2, 6, "WD4-3"),
    )
    assert events_of(offered, u.Accept(2)) == (
        CardsDrawn(2, 6, cards("B1 B2 B3 B4 B5 B6"), "HOUSE-1"),
        TurnSkipped(2, "HOUSE-1"),
    )


def test_jump_in() -> None:
    """HOUSE-2: a card identical to the top card played out of turn is reported as a jump-in."""
    state = position(CLASSIC + "+jump-in", ["R7 G5", "Y1 R1", "G3 G4 R5"])
    new, events = run(state, u.Play(2, card("R5")))
    assert events == (CardPlayed(2, card("R5"), "HOUSE-2"),)
    assert new.current == 0


def test_jump_in_with_a_skip() -> None:
    """HOUSE-2, ACT-1: a Skip jumped in skips the player after the jumper."""
    state = position(CLASSIC + "+jump-in", ["R7 G5", "Y1 R1", "G3 G4 RS"], "RS")
    assert events_of(state, u.Play(2, card("RS"))) == (
        CardPlayed(2, card("RS"), "HOUSE-2"),
        TurnSkipped(0, "ACT-1"),
    )


# --- first card and next round (SETUP-5..11, HOUSE-7) ---------------------------------------------
# Three players, dealer 2: the deal goes 0, 1, 2, 0, ... so player 0 gets cards 1, 4, 7, ...
DEALT = "R1 Y1 G1 R2 Y2 G2 R3 Y3 G3 R4 Y4 G4 R6 Y6 G6 R7 Y7 G7 R8 Y8 G8"


@pytest.mark.parametrize(("first", "spec"), [("W", CLASSIC), ("WSH", "gdj85"), ("WCU", "gdj85")])
def test_first_card_wild_colour(first: str, spec: str) -> None:
    """SETUP-8, SETUP-10: the first player names the colour of a wild turned first and plays; no effect runs.
    The colour is named under SETUP-8 for a Wild, SETUP-10 for the other wilds that act as one."""
    state = u.new_game(spec, 3, dealer=2, deck=deck_for(spec, DEALT, first, "B1 B2 B3 B4"))
    assert (state.phase, state.current) == (u.Phase.CHOOSE_COLOR, 0)
    new, events = run(state, u.ChooseColor(0, Y))
    assert events == (ColorNamed(0, Y, "SETUP-8" if first == "W" else "SETUP-10"),)
    assert (new.phase, new.current, new.hands) == (u.Phase.PLAY, 0, state.hands)


def test_first_card_wild_draw_four_applies() -> None:
    """HOUSE-7: the dealer names the colour, then the first player draws the next four cards and is skipped."""
    spec = CLASSIC + "+wd4-first-card-applies"
    state = u.new_game(spec, 3, dealer=2, deck=deck_for(spec, DEALT, "W+4", "B1 B2 B3 B4"))
    assert (state.phase, state.current) == (u.Phase.CHOOSE_COLOR, 2)
    new, events = run(state, u.ChooseColor(2, R))
    assert events == (
        ColorNamed(2, R, "HOUSE-7"),
        CardsDrawn(0, 4, cards("B1 B2 B3 B4"), "HOUSE-7"),
        TurnSkipped(0, "HOUSE-7"),
    )
    assert new.current == 1


def _next_round(spec: str, wanted: Callable[[u.Card], bool]) -> tuple[u.GameState, Events]:
    """Round 1 (dealer 2) won at once by player 0; NextRound by player 0 (SETUP-11: the deal passes left).
    Tries seeds until the second round's first card turned is ``wanted`` (the very first: no Wild
    Draw Four turned and returned before it, SETUP-9); returns the new round and its events."""
    for seed in range(2000):
        state = u.from_position(prof(spec), GOING_OUT_HANDS, "R5", draw_pile=PILE, seed=seed)
        over, _ = run(state, u.Play(0, card("R3")))
        assert over.phase is u.Phase.ROUND_OVER
        new, events = run(over, u.NextRound(0))
        if wanted(new.top_card) and not any(isinstance(e, FirstCardReturned) for e in events):
            return new, events
    raise AssertionError("no seed turns the wanted first card")


FIRST = 3 * 7
"""Index in the round's draw pile of the card turned first (3 players x 7 cards dealt, SETUP-1, SETUP-3)."""


def _symbol(symbol: int) -> Callable[[u.Card], bool]:
    return lambda c: not c.is_wild and c.symbol == symbol


def test_next_round_plain_first_card() -> None:
    """SETUP-11, SETUP-4: round 2 is dealt by player 0; a number turned first just starts play at player 1."""
    new, events = _next_round(CLASSIC, lambda c: not c.is_wild and c.symbol <= 9)
    assert events == (RoundDealt(0, 2, new.top_card, "SETUP-11"),)
    assert new.discard_pile == (new.draw_pile[FIRST],)
    assert (new.current, new.direction, new.phase) == (1, 1, u.Phase.PLAY)


def test_next_round_first_card_skip() -> None:
    """SETUP-5: a Skip turned first skips the first player."""
    new, events = _next_round(CLASSIC, _symbol(u.SKIP))
    assert events == (RoundDealt(0, 2, new.top_card, "SETUP-11"), TurnSkipped(1, "SETUP-5"))
    assert new.current == 2


def test_next_round_first_card_reverse() -> None:
    """SETUP-6: a Reverse turned first turns the direction; the dealer plays first."""
    new, events = _next_round(CLASSIC, _symbol(u.REVERSE))
    assert events == (RoundDealt(0, 2, new.top_card, "SETUP-11"), DirectionChanged(-1, "SETUP-6"))
    assert (new.current, new.direction) == (0, -1)


def test_next_round_first_card_draw_two() -> None:
    """SETUP-7: the first player draws the next two cards of the pile and is skipped."""
    new, events = _next_round(CLASSIC, _symbol(u.DRAW_TWO))
    assert events == (
        RoundDealt(0, 2, new.top_card, "SETUP-11"),
        CardsDrawn(1, 2, new.draw_pile[FIRST + 1:FIRST + 3], "SETUP-7"),
        TurnSkipped(1, "SETUP-7"),
    )
    assert new.current == 2


def test_next_round_first_card_wild() -> None:
    """SETUP-8: a Wild turned first waits for the first player's colour."""
    new, events = _next_round(CLASSIC, lambda c: c == u.WILD)
    assert events == (RoundDealt(0, 2, card("W"), "SETUP-11"),)
    assert (new.phase, new.current) == (u.Phase.CHOOSE_COLOR, 1)
    assert events_of(new, u.ChooseColor(1, G)) == (ColorNamed(1, G, "SETUP-8"),)


def test_next_round_first_card_wild_draw_four_applies() -> None:
    """HOUSE-7: round 2's dealer (player 0) names the colour; the first player draws 4 and is skipped."""
    new, events = _next_round(CLASSIC + "+wd4-first-card-applies", lambda c: c == u.WILD_DRAW_FOUR)
    assert events == (RoundDealt(0, 2, card("W+4"), "SETUP-11"),)
    assert (new.phase, new.current) == (u.Phase.CHOOSE_COLOR, 0)
    assert events_of(new, u.ChooseColor(0, B)) == (
        ColorNamed(0, B, "HOUSE-7"),
        CardsDrawn(1, 4, new.draw_pile[FIRST + 1:FIRST + 5], "HOUSE-7"),
        TurnSkipped(1, "HOUSE-7"),
    )


# --- events_for (WD4-3, hidden information) -------------------------------------------------------
def test_events_for_hides_other_players_draws() -> None:
    """PLAY-4: the drawer sees the card; the others see that one card was drawn."""
    state = position(CLASSIC, ["G7 G6", "Y1 R1", "G3 G4"])
    events = events_of(state, u.Draw(0))
    assert u.events_for(events, 0) == (CardsDrawn(0, 1, cards("B1"), "PLAY-4"),)
    for other in (1, 2):
        assert u.events_for(events, other) == (CardsDrawn(0, 1, (), "PLAY-4"),)


def test_events_for_challenge() -> None:
    """WD4-3, WD4-4: the hand shown is seen by the challenger (viewer) and the owner only; the guilty player's
    four cards only by that player."""
    events = events_of(_wd4_offered("W+4 R3 G5"), u.Challenge(1))
    shown = hand("R3 G5")
    drawn = cards("B1 B2 B3 B4")
    assert u.events_for(events, 0) == events
    assert u.events_for(events, 1) == (
        HandShown(0, 1, shown, "WD4-3"),
        ChallengeDecided(1, 0, True, "WD4-4"),
        CardsDrawn(0, 4, (), "WD4-4"),
    )
    assert u.events_for(iter(events), 2) == (
        HandShown(0, 1, (), "WD4-3"),
        ChallengeDecided(1, 0, True, "WD4-4"),
        CardsDrawn(0, 4, (), "WD4-4"),
    )
    assert events[2] == CardsDrawn(0, 4, drawn, "WD4-4")  # the full account is untouched


def test_events_for_keeps_public_events() -> None:
    """ACT-3, UNO-2: plays, skips and catches are public; only the drawn cards are hidden from the others."""
    state = position(CLASSIC, ["R+2 R7 G5", "Y1 R1", "G3 G4"])
    events = events_of(state, u.Play(0, card("R+2")))
    assert u.events_for(events, 1) == events
    assert u.events_for(events, 2) == (
        CardPlayed(0, card("R+2"), "PLAY-1"),
        CardsDrawn(1, 2, (), "ACT-3"),
        TurnSkipped(1, "ACT-3"),
    )


# --- refusals -----------------------------------------------------------------------------------
REFUSED = [
    (CLASSIC, ["R7 G5", "Y1 R1", "G3 G4"], u.Play(0, card("B9")), "PLAY-1", "card-not-in-hand"),
    (CLASSIC, ["R7 G6", "Y1 R1", "G3 G4"], u.Play(0, card("G6")), "PLAY-1", "card-does-not-match"),
    (CLASSIC, ["R7 G5", "Y1 R1", "G3 G4"], u.Draw(1), "PLAY-8", "not-your-turn"),
    (CLASSIC, ["G7 G6", "Y1 R1", "G3 G4"], u.Pass(0), "PLAY-4", "must-draw"),
    (CLASSIC, ["R7 G5", "Y1 R1", "G3 G4"], u.CatchUno(1, 0), "UNO-3", "not-catchable"),
    (CLASSIC + "+wd4-enforced", ["W+4 R7 G5", "Y1 R1", "G3 G4"], u.Play(0, u.WILD_DRAW_FOUR, B), "WD4-1",
     "wild-draw-four-restricted"),
]


@pytest.mark.parametrize(("spec", "hands", "move", "rule", "reason"), REFUSED)
def test_illegal_move_refused_like_apply(spec: str, hands: list[str], move: u.Move, rule: str, reason: str) -> None:
    """PLAY-1, PLAY-4, PLAY-8, UNO-5, WD4-1: apply_with_events refuses exactly what apply refuses, with the same
    error, and changes nothing."""
    state = position(spec, hands)
    before = copy.deepcopy(state)
    with pytest.raises(u.IllegalMoveError) as plain:
        u.apply(state, move)
    with pytest.raises(u.IllegalMoveError) as evented:
        u.apply_with_events(state, move)
    err = evented.value
    assert (err.rule, err.reason, err.player, err.move) == (rule, reason, move.player, move)
    assert (plain.value.rule, plain.value.reason, str(plain.value)) == (err.rule, err.reason, str(err))
    assert state == before


# --- agreement with apply over random games ---------------------------------------------------------
RULE_ID = re.compile(r"[A-Z]+[0-9]*-[0-9]+")


def _random_profiles() -> list[u.Profile]:
    gdj85 = prof("gdj85")
    return [
        prof(CLASSIC),
        gdj85,
        prof("ffk04"),
        attrs.evolve(prof("mattel-42003"), blank_cards="wild", custom_effect="swap-hands"),
        attrs.evolve(gdj85, custom_effect="others-draw-one", target_score=100),
        prof(CLASSIC + "+stacking+jump-in+seven-zero"),
        prof(CLASSIC + "+stacking-cross+draw-to-match+wd4-first-card-applies"),
        prof("gdj85+stacking-no-mercy+wd4-enforced+forced-play"),
        prof("ffk04+wd4-unrestricted+jump-in+lowest-score"),
        prof(CLASSIC + "+one-point-per-round+uno-penalty-4"),
    ]


@pytest.mark.parametrize("index", range(10))
def test_apply_with_events_agrees_with_apply(index: int) -> None:
    """Every rule: over random games (several rounds, random legal moves including catches and late calls),
    apply_with_events gives the state apply gives; every event is an event class citing a rule ID; a play is
    reported first; events_for hides every drawn card but one's own."""
    profile = _random_profiles()[index]
    rng = random.Random(index)
    for game in range(3):
        players = rng.randint(2, 5)
        state = u.new_game(profile, players, seed=1000 * index + game)
        for _ in range(1500):
            moves = u.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            new, events = u.apply_with_events(state, move)
            assert new == u.apply(state, move), move
            for e in events:
                assert isinstance(e, EVENT_TYPES) and RULE_ID.fullmatch(e.rule), e
            if isinstance(move, u.Play):
                assert events[0] == CardPlayed(move.player, move.card, events[0].rule)
            for p in range(players):
                for e in u.events_for(events, p):
                    if isinstance(e, CardsDrawn) and e.player != p:
                        assert e.cards == ()
            state = new
