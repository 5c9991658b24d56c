"""Small helpers shared by the UNO-call, scoring, profile and error tests."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import unoengine as u

CLASSIC = u.load_profile("classic-108")
SHIPPED = ("classic-108", "gdj85", "ffk04", "mattel-42003")

RED = u.Color.RED
YELLOW = u.Color.YELLOW
GREEN = u.Color.GREEN
BLUE = u.Color.BLUE


def card(name: str) -> u.Card:
    """One card by name, e.g. ``card("R7")``."""
    return u.parse_card(name)


def cards(text: str) -> tuple[u.Card, ...]:
    """Cards by name, sorted as the engine keeps a hand."""
    return tuple(sorted(u.parse_cards(text)))


def names(hand: Sequence[u.Card]) -> str:
    """A hand as a space-separated string of names in the engine's (sorted) order."""
    return " ".join(repr(c) for c in hand)


def rejected(state: u.GameState, move: object) -> u.IllegalMoveError:
    """Apply ``move``, expect IllegalMoveError, and check that the state is left as it was."""
    before = (state.hands, state.draw_pile, state.draw_pos, state.discard_pile, state.color,
              state.direction, state.current, state.phase, state.uno_exposed, state.match)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)  # type: ignore[arg-type]
    after = (state.hands, state.draw_pile, state.draw_pos, state.discard_pile, state.color,
             state.direction, state.current, state.phase, state.uno_exposed, state.match)
    assert after == before
    return info.value


def catches(moves: Sequence[u.Move]) -> list[u.Move]:
    """The CatchUno and CallUno moves of a list, in order."""
    return [m for m in moves if isinstance(m, u.CatchUno | u.CallUno)]


def wild_draw_four_at_odds(unseen: int) -> u.GameState:
    """WD4-3..5: seat 0 has just played a Wild Draw Four (naming green) on a red 7 and holds four
    cards; seat 1 has seen every card but ``unseen`` (at least 5): seat 0's four and a draw pile
    holding the one red card it has not seen. With ``unseen`` 20 the heuristic's odds tie its
    threshold exactly: P(clean) = C(19, 4) / C(20, 4) = 4/5 against 1 - 1/(4 + 1)."""
    attacker, challenger = ["W+4", "G1", "G2", "B1", "B2"], ["Y4", "Y5", "Y6"]
    rest = [repr(u.CARDS[c]) for c in CLASSIC.deck_cards()]
    for name in attacker + challenger + ["R0", "R7"]:
        rest.remove(name)
    greens = [n for n in rest if n.startswith("G")]
    pile = ["R0", *greens[:unseen - 5]]
    for name in pile[1:]:
        rest.remove(name)
    state = u.from_position("classic-108", [" ".join(attacker), " ".join(challenger)],
                            " ".join([*rest, "R7"]), draw_pile=" ".join(pile))
    return u.apply(state, u.Play(0, u.WILD_DRAW_FOUR, GREEN))
