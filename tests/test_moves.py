"""Moves accept card and colour names, compare by value, and read well (PLAY-1, ACT-4, SETUP-8)."""

from __future__ import annotations

import pytest

import unoengine as u


def test_play_accepts_card_names_and_codes() -> None:
    """PLAY-1: a card may be given as a Card, a code or a name; all build the same move."""
    r7 = u.parse_card("R7")
    assert u.Play(0, "R7") == u.Play(0, "r7") == u.Play(0, 7) == u.Play(0, r7)
    assert u.Play(0, "R7").card is u.CARDS[7]
    assert repr(u.Play(2, "Y+2", uno=True)) == "Play(p2 Y+2 UNO)"


def test_wild_colour_accepts_names_and_numbers() -> None:
    """ACT-4, SETUP-8: the colour named may be a Color, 0..3, a letter or a word."""
    assert u.Play(0, "W", "blue") == u.Play(0, "W", "B") == u.Play(0, "W", 3) == u.Play(0, "W", u.Color.BLUE)
    assert u.ChooseColor(1, "green").color is u.Color.GREEN
    assert repr(u.Play(0, "W+4", "red")) == "Play(p0 W+4:R)"


def test_bad_names_are_refused_at_once_quoting_them() -> None:
    """PLAY-1: an unknown card or colour name raises NotationError naming it."""
    with pytest.raises(u.NotationError, match="R10"):
        u.Play(0, "R10")
    with pytest.raises(u.NotationError, match="purple"):
        u.Play(0, "W", "purple")


def test_moves_built_from_names_are_applied() -> None:
    """PLAY-1, ACT-4: a move written with names is legal exactly as the listed one."""
    state = u.from_position("classic-108", ["R7 W B1", "G1 G2 G3"], "R5")
    after = u.apply(state, u.Play(0, "W", "green"))
    assert after.color_in_play is u.Color.GREEN and after.top_card == u.parse_card("W")
    assert u.Play(0, "R7") in u.legal_moves(state)
