"""Shared builders and assertions for the action-card (ACT) and Wild Draw Four (WD4) tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache

import attrs
import pytest

import unoengine as u

R, Y, G, B = u.Color.RED, u.Color.YELLOW, u.Color.GREEN, u.Color.BLUE

Builder = Callable[[], u.GameState]


@cache
def profile(name: str, **changes: str) -> u.Profile:
    """A shipped profile, optionally with some options changed (e.g. wild_draw_four="enforced")."""
    base = u.load_profile(name)
    return attrs.evolve(base, **changes) if changes else base


def cards(text: str) -> tuple[u.Card, ...]:
    """The cards named in ``text``, sorted as a hand is stored."""
    return tuple(sorted(u.parse_cards(text)))


def pile(text: str) -> tuple[u.Card, ...]:
    """The cards named in ``text`` in the given order (a draw pile top first)."""
    return u.parse_cards(text)


def card(text: str) -> u.Card:
    return u.parse_card(text)


def plays(moves: Iterable[u.Move], card_name: str | None = None) -> list[u.Play]:
    """The Play moves among ``moves`` (of one card only when ``card_name`` is given)."""
    out = [m for m in moves if isinstance(m, u.Play)]
    if card_name is not None:
        c = u.parse_card(card_name)
        out = [m for m in out if m.card == c]
    return out


def all_cards(state: u.GameState) -> Counter[int]:
    """Every card of the state, wherever it is (hands, remaining draw pile, discard pile)."""
    total: Counter[int] = Counter()
    for hand in state.hands:
        total.update(int(c) for c in hand)
    total.update(int(c) for c in state.remaining_draw_pile)
    total.update(int(c) for c in state.discard_pile)
    return total


def assert_rejected(build: Builder, move: u.Move, rule: str, reason: str) -> u.IllegalMoveError:
    """``move`` is refused with exactly ``rule``/``reason``, is not generated, and changes nothing.

    ``build`` makes the state afresh so the state the move was tried on can be compared with
    an untouched copy afterwards.
    """
    state = build()
    assert move not in u.legal_moves(state)
    assert move not in u.legal_moves(state, move.player)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)
    err = info.value
    assert (err.rule, err.reason) == (rule, reason)
    assert err.player == move.player
    assert err.move == move
    assert state == build()
    return err


def assert_legal(state: u.GameState, move: u.Move) -> u.GameState:
    """``move`` is generated for its player and can be applied; returns the new state."""
    assert move in u.legal_moves(state)
    assert move in u.legal_moves(state, move.player)
    return u.apply(state, move)
