"""The table as SVG (unoengine.render.svg): well-formed, small, true to the view, and hiding what
the view hides. Parsed as XML and read back: the cards drawn in the hand are the hand, the top
card has its colour, the ring the colour in play (PLAY-1), the badges appear when their rule is
in play (UNO-2 exposure, WD4-3 challenge, HOUSE-1 pending draw)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from budget import budget
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.render.svg import FILL, WILD_FILL, card_face, card_words, state_svg, view_svg
from unoengine.testing import states
from unoengine.testing.checks import resample_hidden

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, css: str) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if css in (g.get("class") or "").split()]


def check_picture(svg: str, v: u.PlayerView) -> ET.Element:
    root = parse(svg)
    title = root.find("s:title", NS)
    assert title is not None and title.text and card_words(v.top_card) in title.text
    hand = groups(root, "hand")
    assert [u.parse_card(g.get("data-card") or "?") for g in hand] == list(v.hand)
    (top,) = groups(root, "top")
    rect = top.find("s:rect", NS)
    assert rect is not None
    assert rect.get("fill") == (WILD_FILL if v.top_card.is_wild else FILL[v.top_card.color or 0])
    ring = next(c for c in root.iter("{http://www.w3.org/2000/svg}circle") if c.get("class") == "color-in-play")
    assert ring.get("stroke") == (FILL[v.color] if v.color is not None else "#888")
    seats = [int(g.get("data-seat") or -1) for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-seat")]
    assert sorted(seats) == [p for p in range(v.num_players) if p != v.player]
    assert bool(groups(root, "uno-exposed")) == (v.uno_exposed is not None)
    assert bool(groups(root, "challenge")) == (v.challenge_attacker is not None)
    assert bool(groups(root, "pending-draw")) == bool(v.pending_draw)
    return root


@settings(max_examples=budget(40, 300), deadline=None)
@given(state=states(max_moves=150), data=st.data())
def test_every_view_draws_as_the_view_says(state: u.GameState, data: st.DataObject) -> None:
    p = data.draw(st.integers(0, state.num_players - 1))
    v = u.view(state, p)
    check_picture(view_svg(v), v)


@pytest.mark.parametrize(("spec", "n"), [("classic-108", 2), ("gdj85+seven-zero+jump-in", 6), ("ffk04", 10)])
def test_the_picture_hides_what_the_view_hides(spec: str, n: int) -> None:
    """Drawn from the view alone: resampling the hidden cards changes nothing in the picture."""
    rng = random.Random(spec)
    state = u.new_game(spec, n, seed=3)
    for _ in range(40):
        if state.round_over:
            break
        state = u.apply(state, rng.choice(u.legal_moves(state)))
        for p in range(n):
            assert view_svg(u.view(resample_hidden(state, p, rng), p)) == view_svg(u.view(state, p))


def test_the_spectator_sees_and_says_so() -> None:
    state = u.new_game("classic-108", 4, seed=8)
    root = parse(state_svg(state, 0))
    assert any("spectator view" in (t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text"))
    shown = [u.parse_card(g.get("data-card") or "?") for g in groups(root, "hidden-shown")]
    assert sorted(shown) == sorted(c for p in (1, 2, 3) for c in state.hands[p])
    assert "Spectator" in (root.find("s:title", NS).text or "")  # type: ignore[union-attr]
    assert not groups(parse(view_svg(u.view(state, 0))), "hidden-shown")


def test_pictures_are_small_at_two_and_ten_players() -> None:
    two = u.new_game("classic-108", 2, seed=1)
    ten = u.new_game("classic-108", 10, seed=1)
    assert len(view_svg(u.view(two, 0))) < 6_000
    assert len(view_svg(u.view(ten, 0))) < 8_000
    assert len(state_svg(ten)) < 30_000


def test_badges_for_the_rules_in_play() -> None:
    start = u.from_position("classic-108", ["R5 R6", "G1 G2"], "R1", current=0)
    exposed = u.apply(start, u.Play(0, u.parse_card("R5")))
    check_picture(view_svg(u.view(exposed, 1)), u.view(exposed, 1))  # UNO-2: p0 may be caught
    assert groups(parse(view_svg(u.view(exposed, 1))), "uno-exposed")
    challenged = u.apply(u.from_position("classic-108", ["W+4 R6", "G1 G2"], "R1", current=0),
                         u.Play(0, u.parse_card("W+4"), color=u.Color.GREEN))
    assert groups(parse(view_svg(u.view(challenged, 1))), "challenge")  # WD4-3
    stacked = u.from_position("classic-108+stacking", ["R5 R6", "G+2 G2"], "R+2", current=1, pending_draw=2)
    assert groups(parse(view_svg(u.view(stacked, 1))), "pending-draw")  # HOUSE-1


def test_every_card_has_a_face() -> None:
    """Numbers, Skip, Reverse, Draw Two, and every wild of the 112-card sheets (DECK-1..5)."""
    faces = {repr(c): card_face(c) for c in u.CARDS}
    assert faces["R7"] == "7" and faces["GS"] == "\u2298" and faces["BR"] == "\u21c4" and faces["Y+2"] == "+2"
    assert (faces["W"], faces["W+4"], faces["WSH"], faces["WSW"], faces["WCU"], faces["BLK"]) == (
        "W", "+4", "SH", "SW", "C", "")
    assert card_words(u.parse_card("B+2")) == "blue Draw Two" and card_words(u.parse_card("WSW")) == "Wild Swap Hands"


def test_notebooks_show_views_and_states_as_pictures() -> None:
    state = u.new_game("gdj85", 3, seed=2)
    assert u.view(state, 1)._repr_svg_() == view_svg(u.view(state, 1))  # type: ignore[attr-defined]
    assert state._repr_svg_() == state_svg(state)  # type: ignore[attr-defined]


def test_bad_input_names_the_problem() -> None:
    with pytest.raises(u.UnoEngineError, match="view: expected a PlayerView"):
        view_svg("R5")  # type: ignore[arg-type]
    with pytest.raises(u.UnoEngineError, match="state: expected a GameState"):
        state_svg(None)  # type: ignore[arg-type]
    with pytest.raises(u.UnoEngineError):
        state_svg(u.new_game("classic-108", 2, seed=1), seat=5)
