"""Wild Draw Four: restriction, bluffing, challenges and the three modes (WD4-1..6, ACT-5)."""

from __future__ import annotations

import attrs
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
ENFORCED = profile(CLASSIC, wild_draw_four="enforced")
UNRESTRICTED = profile(CLASSIC, wild_draw_four="unrestricted")
WD4 = card("W+4")
PILE = "Y5 Y6 Y7 Y8 G1 G2 B9"


def _position(prof: u.Profile | str, hand: str, top: str = "R5", color: int | None = None,
              direction: int = 1) -> u.GameState:
    """Player 0 holds ``hand``; players 1 and 2 hold known cards; the draw pile is PILE."""
    return u.from_position(prof, [hand, "B7 Y2 Y3", "G9 G8"], top, draw_pile=PILE, color=color,
                           direction=direction)


def _wd4_plays(state: u.GameState, player: int = 0) -> list[u.Play]:
    return plays(u.legal_moves(state, player), "W+4")


# --- WD4-1 restriction ---------------------------------------------------------------------
def test_wd4_blocked_by_colour_in_play_enforced() -> None:
    """WD4-1: holding a card of the colour in play makes Wild Draw Four illegal (enforced mode)."""
    state = _position(ENFORCED, "R3 W+4 G7")
    assert _wd4_plays(state) == []
    assert u.Play(0, card("R3")) in u.legal_moves(state)
    for k in (R, Y, G, B):
        assert_rejected(lambda: _position(ENFORCED, "R3 W+4 G7"), u.Play(0, WD4, k),
                        "WD4-1", "wild-draw-four-restricted")


def test_wd4_blocked_by_action_card_of_colour() -> None:
    """WD4-1: a Skip of the colour in play is a card of that colour too."""
    assert _wd4_plays(_position(ENFORCED, "RS W+4 G7")) == []
    assert_rejected(lambda: _position(ENFORCED, "RS W+4 G7"), u.Play(0, WD4, G),
                    "WD4-1", "wild-draw-four-restricted")


def test_wd4_not_blocked_by_matching_number_of_other_colour() -> None:
    """WD4-1: only colour counts: a 5 of another colour on R5 does not block Wild Draw Four."""
    state = _position(ENFORCED, "G5 W+4 B1")
    assert u.Play(0, card("G5")) in u.legal_moves(state)
    assert sorted(m.color for m in _wd4_plays(state) if m.color is not None) == [R, Y, G, B]
    after = assert_legal(state, u.Play(0, WD4, B))
    assert after.hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8")
    assert after.current == 2


def test_wd4_not_blocked_by_matching_symbol_of_other_colour() -> None:
    """WD4-1: a Skip of another colour on a red Skip does not block Wild Draw Four."""
    state = _position(ENFORCED, "GS W+4 B1", top="RS")
    assert len(_wd4_plays(state)) == 4
    assert_legal(state, u.Play(0, WD4, Y))


def test_wd4_not_blocked_by_other_wild() -> None:
    """WD4-1: another wild in the hand does not block Wild Draw Four."""
    state = _position(ENFORCED, "W W+4 B1")
    assert len(_wd4_plays(state)) == 4
    assert len(plays(u.legal_moves(state, 0), "W")) == 4
    assert_legal(state, u.Play(0, WD4, R))


def test_wd4_colour_in_play_after_wild_is_named_colour() -> None:
    """WD4-1, PLAY-1: after a Wild the named colour is the one that blocks, not other colours."""
    ok = _position(ENFORCED, "R3 W+4 Y1", top="W", color=G)
    assert len(_wd4_plays(ok)) == 4
    assert_legal(ok, u.Play(0, WD4, R))
    assert _wd4_plays(_position(ENFORCED, "G3 W+4 Y1", top="W", color=G)) == []
    assert_rejected(lambda: _position(ENFORCED, "G3 W+4 Y1", top="W", color=G), u.Play(0, WD4, R),
                    "WD4-1", "wild-draw-four-restricted")


def _enforced_drawn_wd4() -> u.GameState:
    """Enforced mode: player 0 holds red on R5 and has just drawn a Wild Draw Four."""
    state = u.from_position(ENFORCED, ["R3 B1 G2", "B7 Y2 Y3", "G9 G8"], "R5", draw_pile="W+4 Y9")
    return assert_legal(state, u.Draw(0))


def test_wd4_drawn_while_holding_colour_is_not_playable_enforced() -> None:
    """WD4-1, PLAY-4 RULING: a Wild Draw Four drawn while holding the colour cannot be played: it can only be
    kept with a Pass, which ends the turn."""
    drawn = _enforced_drawn_wd4()
    assert drawn.hands[0] == cards("R3 B1 G2 W+4")
    assert (drawn.current, drawn.phase, drawn.drawn) == (0, u.Phase.DRAWN, WD4)
    assert u.legal_moves(drawn, 0) == [u.Pass(0)]
    assert u.legal_moves(drawn) == [u.Pass(0)]
    for k in (R, Y, G, B):
        assert_rejected(_enforced_drawn_wd4, u.Play(0, WD4, k), "WD4-1", "wild-draw-four-restricted")
    assert_rejected(_enforced_drawn_wd4, u.Play(0, card("R3")), "PLAY-5", "only-drawn-card")
    after = assert_legal(drawn, u.Pass(0))
    assert after.hands[0] == cards("R3 B1 G2 W+4")
    assert after.hands[1] == cards("B7 Y2 Y3")
    assert (after.current, after.phase, after.drawn) == (1, u.Phase.PLAY, None)
    assert after.remaining_draw_pile == pile("Y9")


_COLOURED = st.integers(0, 51).map(lambda c: u.CARDS[c])


@st.composite
def _restriction_cases(draw: st.DrawFn) -> tuple[u.Card, list[u.Card], bool]:
    top = draw(_COLOURED)
    rest = draw(st.lists(_COLOURED.filter(lambda c: c != top), min_size=0, max_size=6, unique=True))
    with_wild = draw(st.booleans())
    return top, rest, with_wild


@settings(max_examples=150, deadline=None)
@given(_restriction_cases())
def test_wd4_restriction_property(case: tuple[u.Card, list[u.Card], bool]) -> None:
    """WD4-1, WD4-2: enforced: legal iff no card of the colour in play; challenge: always legal, bluff recorded."""
    top, rest, with_wild = case
    hand = [*rest, WD4] + ([card("W")] if with_wild else [])
    holds = any(c.color == top.color for c in rest)
    enforced = u.from_position(ENFORCED, [hand, "B7 Y2 Y3"], [top], draw_pile=PILE)
    move = u.Play(0, WD4, G)
    assert (move in u.legal_moves(enforced)) is (not holds)
    if holds:
        assert_rejected(lambda: u.from_position(ENFORCED, [hand, "B7 Y2 Y3"], [top], draw_pile=PILE), move,
                        "WD4-1", "wild-draw-four-restricted")
    else:
        assert u.apply(enforced, move).hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8")
    challenge = u.from_position(CLASSIC, [hand, "B7 Y2 Y3"], [top], draw_pile=PILE)
    after = assert_legal(challenge, move)
    played_from = tuple(sorted([*rest, *([card("W")] if with_wild else [])]))  # () when W+4 was the last card
    assert after.challenge == u.PendingChallenge(0, 1, holds, played_from, top.color)


# --- WD4-2 bluffing ------------------------------------------------------------------------
def test_wd4_bluff_is_legal_move_with_challenges() -> None:
    """WD4-2: in challenge mode a Wild Draw Four played while holding the colour is a legal move, a bluff."""
    state = _position(CLASSIC, "R3 W+4 G7")
    assert sorted(m.color for m in _wd4_plays(state) if m.color is not None) == [R, Y, G, B]
    after = assert_legal(state, u.Play(0, WD4, B))
    assert after.phase is u.Phase.CHALLENGE
    assert after.current == 1
    assert after.challenge == u.PendingChallenge(attacker=0, victim=1, bluff=True, hand=cards("R3 G7"), color=R)
    assert after.color == B
    assert after.hands[0] == cards("R3 G7")
    assert after.hands[1] == cards("B7 Y2 Y3")


def test_wd4_honest_play_recorded_not_bluff() -> None:
    """WD4-2, WD4-1: a matching number of another colour and another wild are no bluff."""
    after = u.apply(_position(CLASSIC, "G5 W+4 W"), u.Play(0, WD4, G))
    assert after.challenge == u.PendingChallenge(0, 1, False, cards("G5 W"), R)


def test_wd4_bluff_judged_on_colour_before_naming() -> None:
    """WD4-2: the bluff is judged on the colour in play when it was played, not the colour named."""
    bluff = u.apply(_position(CLASSIC, "R3 W+4 G7"), u.Play(0, WD4, G))
    assert bluff.challenge is not None and bluff.challenge.bluff
    honest = u.apply(_position(CLASSIC, "B3 W+4 G7"), u.Play(0, WD4, B))
    assert honest.challenge is not None and not honest.challenge.bluff


def test_wd4_view_does_not_reveal_bluff() -> None:
    """WD4-2, WD4-3: no player's view tells a bluff from an honest Wild Draw Four."""
    assert not any("bluff" in f.name for f in attrs.fields(u.PlayerView))
    bluff = u.apply(_position(CLASSIC, "R3 W+4 G7"), u.Play(0, WD4, Y))
    honest = u.apply(_position(CLASSIC, "B3 W+4 G7"), u.Play(0, WD4, Y))
    assert bluff.challenge != honest.challenge
    for p in (1, 2):
        assert u.view(bluff, p) == u.view(honest, p)
        assert u.view(bluff, p).challenge_attacker == 0
        assert u.view(bluff, p).revealed is None


# --- WD4-3 who may challenge; the hand is shown to the challenger only ----------------------
def _pending(bluff: bool = True, direction: int = 1, players: int = 3) -> u.GameState:
    hand = "R3 G4 W+4" if bluff else "G3 G4 W+4"
    hands = [hand, "B7 Y2 Y3", "G9 G8", "Y0 Y1"][:players]
    state = u.from_position(CLASSIC, hands, "R5", draw_pile=PILE, direction=direction)
    return u.apply(state, u.Play(0, WD4, B))


def test_wd4_only_victim_may_answer_legal_moves() -> None:
    """WD4-3: only the player who must draw has Challenge/Accept; nobody else has an in-turn move."""
    state = _pending(players=4)
    assert u.legal_moves(state, 1) == [u.Challenge(1), u.Accept(1)]
    for p in (0, 2, 3):
        assert u.legal_moves(state, p) == []
    assert u.legal_moves(state) == [u.Challenge(1), u.Accept(1)]


def test_wd4_others_may_not_challenge() -> None:
    """WD4-3: a challenge or accept by anyone but the victim is refused (rule WD4-3)."""
    for p in (0, 2, 3):
        for move in (u.Challenge(p), u.Accept(p)):
            assert_rejected(lambda: _pending(players=4), move, "WD4-3", "not-challenged")


def test_wd4_victim_must_answer_first() -> None:
    """WD4-3: the victim cannot play or draw before deciding on the challenge."""
    assert_rejected(_pending, u.Play(1, card("B7")), "WD4-3", "must-answer-challenge")
    assert_rejected(_pending, u.Draw(1), "WD4-3", "must-answer-challenge")


def test_wd4_challenged_hand_shown_to_challenger_only() -> None:
    """WD4-3: the attacker's hand (as it was when challenged) is revealed to the challenger alone."""
    for bluff in (True, False):
        state = _pending(bluff=bluff, players=4)
        assert u.view(state, 1).revealed is None
        shown = state.hands[0]
        after = assert_legal(state, u.Challenge(1))
        assert after.reveal == u.Reveal(viewer=1, owner=0, cards=shown)
        assert u.view(after, 1).revealed == u.Reveal(1, 0, shown)
        for p in (0, 2, 3):
            assert u.view(after, p).revealed is None


def test_wd4_challenge_after_missed_uno_penalty_shows_the_hand_played_from() -> None:
    """WD4-3 RULING, UNO-2, UNO-7: the attacker plays W+4 from two cards without calling UNO and is caught
    before the challenge. The challenger is shown the one card the W+4 was played from, not the penalty
    cards, and the verdict agrees with that hand: guilty when it held red, innocent when it did not, even
    though the penalty then brought red cards into the attacker's hand."""
    for bluff in (True, False):
        attacker = "R3 W+4" if bluff else "G3 W+4"
        draw_pile = "Y5 Y6 Y7 Y8 G1 G2 B9" if bluff else "R1 R2 Y5 Y6 Y7 Y8 G1 G2"
        state = u.from_position(CLASSIC, [attacker, "B7 Y2 Y3", "G9 G8"], "R5", draw_pile=draw_pile)
        played_from = cards("R3") if bluff else cards("G3")
        pending = assert_legal(state, u.Play(0, WD4, B))
        assert (pending.phase, pending.current, pending.uno_exposed) == (u.Phase.CHALLENGE, 1, 0)
        assert pending.challenge == u.PendingChallenge(0, 1, bluff, played_from, R)
        caught = assert_legal(pending, u.CatchUno(2, 0))
        penalty = cards("Y5 Y6") if bluff else cards("R1 R2")
        assert caught.hands[0] == tuple(sorted(played_from + penalty))
        assert (caught.phase, caught.current, caught.uno_exposed) == (u.Phase.CHALLENGE, 1, -1)
        assert caught.challenge == pending.challenge
        assert u.legal_moves(caught, 1) == [u.Challenge(1), u.Accept(1)]
        after = assert_legal(caught, u.Challenge(1))
        assert after.reveal == u.Reveal(viewer=1, owner=0, cards=played_from)
        assert u.view(after, 1).revealed == u.Reveal(1, 0, played_from)
        assert u.view(after, 0).revealed is None and u.view(after, 2).revealed is None
        assert after.challenge is None
        assert (after.phase, after.color, after.top_card) == (u.Phase.PLAY, B, WD4)
        if bluff:  # WD4-4: the shown R3 is red: guilty, the attacker draws 4 more, the challenger plays on
            assert after.hands[0] == cards("R3 Y5 Y6 Y7 Y8 G1 G2")
            assert after.hands[1] == cards("B7 Y2 Y3")
            assert after.current == 1
            assert after.remaining_draw_pile == pile("B9")
        else:  # WD4-5: the shown G3 is not red: innocent, the challenger draws 6 and is skipped
            assert after.hands[0] == cards("G3 R1 R2")
            assert after.hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8 G1 G2")
            assert after.current == 2
            assert after.remaining_draw_pile == ()
        assert all_cards(after) == all_cards(state)


def test_wd4_accept_reveals_nothing() -> None:
    """WD4-3: a hand is shown only when challenged; accepting shows nothing."""
    after = u.apply(_pending(), u.Accept(1))
    assert after.reveal is None
    for p in range(3):
        assert u.view(after, p).revealed is None


# --- WD4-4 guilty --------------------------------------------------------------------------
def test_wd4_guilty_attacker_draws_four() -> None:
    """WD4-4: guilty: attacker draws the top 4; challenger draws nothing, is not skipped, plays on blue."""
    state = _pending(bluff=True)
    after = assert_legal(state, u.Challenge(1))
    assert after.hands[0] == cards("R3 G4 Y5 Y6 Y7 Y8")
    assert after.hands[1] == cards("B7 Y2 Y3")
    assert after.hands[2] == cards("G9 G8")
    assert after.remaining_draw_pile == pile("G1 G2 B9")
    assert after.current == 1
    assert after.phase is u.Phase.PLAY
    assert after.challenge is None
    assert after.color == B
    assert after.top_card == WD4
    assert plays(u.legal_moves(after, 1)) == [u.Play(1, card("B7"))]
    nxt = assert_legal(after, u.Play(1, card("B7")))
    assert nxt.current == 2
    assert all_cards(after) == all_cards(state)


def test_wd4_guilty_counter_clockwise() -> None:
    """WD4-4, PLAY-8: with direction -1 the victim is player 2; guilty: they play next themselves."""
    state = _pending(bluff=True, direction=-1)
    assert state.current == 2
    after = assert_legal(state, u.Challenge(2))
    assert after.hands[0] == cards("R3 G4 Y5 Y6 Y7 Y8")
    assert after.hands[2] == cards("G9 G8")
    assert after.current == 2
    assert after.phase is u.Phase.PLAY


# --- WD4-5 innocent ------------------------------------------------------------------------
def test_wd4_innocent_challenger_draws_six_and_is_skipped() -> None:
    """WD4-5: innocent: the challenger draws the top 6 and misses the turn; attacker unchanged."""
    state = _pending(bluff=False)
    after = assert_legal(state, u.Challenge(1))
    assert after.hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8 G1 G2")
    assert after.hands[0] == cards("G3 G4")
    assert after.remaining_draw_pile == pile("B9")
    assert after.current == 2
    assert after.phase is u.Phase.PLAY
    assert after.color == B
    assert after.challenge is None


def test_wd4_innocent_counter_clockwise() -> None:
    """WD4-5, PLAY-8: with direction -1, player 2 challenges, draws 6, and player 1 plays next."""
    after = u.apply(_pending(bluff=False, direction=-1), u.Challenge(2))
    assert after.hands[2] == cards("G9 G8 Y5 Y6 Y7 Y8 G1 G2")
    assert after.hands[1] == cards("B7 Y2 Y3")
    assert after.current == 1


# --- WD4-6 the three modes -----------------------------------------------------------------
def test_wd4_mode_profile_values() -> None:
    """WD4-6: the mode is a profile value; the official profiles use challenges."""
    for name in ("classic-108", "gdj85", "ffk04", "mattel-42003"):
        assert profile(name).wild_draw_four == "challenge"
    assert ENFORCED.wild_draw_four == "enforced"
    assert UNRESTRICTED.wild_draw_four == "unrestricted"


def test_wd4_mode_challenge() -> None:
    """WD4-6 "challenge": bluff allowed, the victim must Challenge or Accept; Accept draws 4 and skips."""
    state = _position(CLASSIC, "R3 W+4 G7")
    after = assert_legal(state, u.Play(0, WD4, Y))
    assert after.phase is u.Phase.CHALLENGE
    accepted = assert_legal(after, u.Accept(1))
    assert accepted.hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8")
    assert accepted.hands[0] == cards("R3 G7")
    assert accepted.current == 2
    assert accepted.phase is u.Phase.PLAY
    assert accepted.color == Y


def test_wd4_mode_enforced() -> None:
    """WD4-6 "enforced": no bluffing possible; a legal one is drawn at once, no challenge."""
    assert _wd4_plays(_position(ENFORCED, "R3 W+4 G7")) == []
    after = assert_legal(_position(ENFORCED, "B3 W+4 G7"), u.Play(0, WD4, Y))
    assert after.phase is u.Phase.PLAY
    assert after.challenge is None
    assert after.hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8")
    assert after.current == 2
    assert u.Challenge(1) not in u.legal_moves(after)


def test_wd4_mode_unrestricted() -> None:
    """WD4-6 "unrestricted": legal even holding the colour, drawn at once, nobody may challenge."""
    state = _position(UNRESTRICTED, "R3 W+4 G7")
    assert len(_wd4_plays(state)) == 4
    after = assert_legal(state, u.Play(0, WD4, G))
    assert after.phase is u.Phase.PLAY
    assert after.challenge is None
    assert after.hands[1] == cards("B7 Y2 Y3 Y5 Y6 Y7 Y8")
    assert after.hands[0] == cards("R3 G7")
    assert after.current == 2
    assert after.color == G
    assert u.Challenge(1) not in u.legal_moves(after)
    assert u.Accept(1) not in u.legal_moves(after)
