"""The short text of states and views (issue 36): ``print(state)`` and ``print(view)`` show the table
in a few lines in the package's card names, the text of a view holds nothing its player may not
know (WD4-3's shown hand only as the cards it knows), and ``repr`` keeps the full form."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
import unoengine.testing as ut
from unoengine.testing.checks import resample_hidden

CARD_NAME = re.compile(r"(?<![\w+])(?:[RYGB](?:\d|S|R|\+2)|W\+4|WSH|WSW|WCU|BLK|W)(?![\w+])")
"""A card's name as a word of the text (``R7``, ``Y+2``, ``W+4``, ``W``)."""


def test_a_state_prints_the_table_with_every_hand() -> None:
    """Seed 1 turns a Draw Two first (SETUP-7): p1 has drawn two and been skipped, so p2 plays,
    and the draw pile holds 108 - 28 - 1 - 2 = 77 cards."""
    state = u.new_game("classic-108", 4, seed=1)
    assert str(state).splitlines() == [
        "classic-108, round 1, dealer p0; scores 0 0 0 0 (target 500)",
        "p2 to play, clockwise",
        "top R+2, colour red; draw pile 77, discard pile 1",
        "  p0  7  R9 Y3 G1 G7 W W+4 W+4",
        "  p1  9  R2 R6 Y3 G1 G6 G8 B3 W W+4",
        "> p2  7  R5 R6 G6 B0 B3 B7 BS",
        "  p3  7  R7 Y5 Y7 Y7 Y9 G0 GS",
    ]
    assert [" ".join(map(repr, h)) for h in state.hands] == [line[9:] for line in str(state).splitlines()[3:]]
    assert repr(state).startswith("<GameState classic-108 round 1 PLAY p2 to act, top R+2")


def test_a_view_prints_its_own_hand_and_the_others_sizes() -> None:
    """A view's text is a few hundred characters (its repr, the full form, starts with the whole
    profile): its own hand, the others' sizes and the cards it knows in them (WD4-3)."""
    state = u.from_position(
        "classic-108", ["G2", "B3 B4 Y5", "G7 R1"], "R9 W+4", color=u.Color.GREEN, current=1,
        phase="CHALLENGE", challenge_color=u.Color.RED, uno_exposed=0, known=[(1, 0, "G2")], scores=[10, 0, 35],
    )
    view = u.view(state, 1)
    assert str(view).splitlines() == [
        "p1's view of classic-108, round 1, dealer p0; scores 10 0 35 (target 500)",
        "p1 to challenge p0's Wild Draw Four or accept 4 cards, clockwise",
        "top W+4, colour green; draw pile 100, discard pile 2",
        "  p0  1 card (known: G2)  UNO not called: may be caught",
        "> p1  3  Y5 B3 B4",
        "  p2  2 cards",
    ]
    assert len(str(view)) < 400 < len(repr(view))
    assert repr(view).startswith("PlayerView(profile=Profile(")
    assert str(state).splitlines()[3:] == ["  p0  1  G2  UNO not called: may be caught", "> p1  3  Y5 B3 B4",
                                           "  p2  2  R1 G7"]


def test_the_text_names_what_is_open() -> None:
    """A pending draw under stacking (HOUSE-1), a drawn card (PLAY-4: shown to its player only), a
    first wild's colour (SETUP-8), a round won and a match won (END-1, SCORE-2)."""
    stacking = u.load_profile("classic-108+stacking")
    penalty = u.from_position(stacking, ["R1", "B3 B4"], "G+2", current=1, pending_draw=2)
    assert str(penalty).splitlines()[1] == "p1 to stack a Draw card or accept 2 cards, clockwise"
    drawn = u.from_position("classic-108", ["R1 G5", "B3"], "G2", phase="DRAWN", drawn="G5")
    assert str(drawn).splitlines()[1] == "p0 drew G5: play it or keep it, clockwise"
    assert str(u.view(drawn, 0)).splitlines()[1] == "p0 drew G5: play it or keep it, clockwise"
    assert str(u.view(drawn, 1)).splitlines()[1] == "p0 drew a card: play it or keep it, clockwise"
    first = u.from_position("classic-108", ["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], "W",
                            phase="CHOOSE_COLOR", current=1, dealer=0)
    assert str(first).splitlines()[1:3] == ["p1 to name the first card's colour, clockwise",
                                            "top W, colour not named yet; draw pile 93, discard pile 1"]
    over = u.from_position("classic-108", ["", "B3 B4"], "G2", phase="ROUND_OVER", scores=[7, 0])
    assert str(over).splitlines()[1] == "round over: p0 won the round"
    assert str(over).splitlines()[3:] == ["  p0  0 cards", "  p1  2  B3 B4"]
    won = u.from_position("classic-108", ["", "B3 B4"], "G2", phase="MATCH_OVER", scores=[500, 0])
    assert str(won).splitlines()[1] == "match over: p0 won the match"


@settings(max_examples=60)
@given(state=ut.states(max_moves=200), seed=st.integers(0, 2**32 - 1))
def test_a_views_text_shows_no_card_its_player_may_not_know(state: u.GameState, seed: int) -> None:
    """WD4-3 and the view contract: every card named in a view's text is in its player's hand, on
    the discard pile or known to it in another hand; the text stays the same when what its player
    cannot see changes (resample_hidden). A state's text names every hand, one line each."""
    rng = random.Random(seed)
    lines = str(state).splitlines()
    assert len(lines) == 3 + state.num_players
    for p, hand in enumerate(state.hands):
        shown = f"p{p} {len(hand):>2}  {' '.join(map(repr, hand))}" if hand else f"p{p}  0 cards"
        assert shown in lines[3 + p], (lines, p)
    for p in range(state.num_players):
        view = u.view(state, p)
        text = str(view)
        named = CARD_NAME.findall(text.replace(state.profile.name, ""))
        may_know = {repr(c) for c in (*view.hand, *view.discard_pile, *(c for _q, cs in view.known for c in cs))}
        if view.drawn_card is not None:
            may_know.add(repr(view.drawn_card))
        assert set(named) <= may_know, (text, set(named) - may_know)
        assert str(u.view(resample_hidden(state, p, rng), p)) == text
