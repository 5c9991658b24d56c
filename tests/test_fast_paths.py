"""The engine's hot-path shortcuts give exactly what the plain code gives.

Each shortcut of docs/performance.md is held here to a plain reference: ``build_state`` to the
attrs constructor, the knowledge functions (ACT-7, HOUSE-3, WD4-3) to a Counter-based version
of the same lower-bound rules, ``holds_color`` (WD4-1) to a loop over the hand.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import unoengine as u
from unoengine import testing as ut
from unoengine.engine.cards import CARDS, COLOR_OF, NUM_CARD_CODES
from unoengine.engine.knowledge import after_play, known_by, merge
from unoengine.engine.legality import holds_color, only_current_may_act
from unoengine.engine.state import GameState, build_state


def test_build_state_takes_every_field_in_order() -> None:
    params = list(inspect.signature(build_state).parameters)
    assert params == [a.name for a in attrs.fields(GameState)]


@pytest.mark.parametrize("players", [2, 4, 10])
def test_build_state_equals_the_constructor(players: int) -> None:
    state = u.new_game("classic-108", players, seed=players)
    for _ in range(200):
        values = {a.name: getattr(state, a.name) for a in attrs.fields(GameState)}
        fast = build_state(**values)
        slow = GameState(**values)
        assert type(fast) is GameState
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert attrs.evolve(fast, color=slow.color) == slow
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            fast.color = 0  # type: ignore[misc]
        if state.round_over:
            break
        moves = u.legal_moves(state)
        state = u.apply(state, moves[len(moves) // 2])


# --- knowledge: the plain version of the same rules -----------------------------------------
def _normalise(entries: list[tuple[int, int, tuple[int, ...]]]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    return tuple(sorted((v, o, tuple(sorted(c))) for v, o, c in entries if c and v != o))


def _plain_after_play(known, owner, card):  # type: ignore[no-untyped-def]
    out = []
    for v, o, cards in known:
        if o == owner and card in cards:
            cards = list(cards)
            cards.remove(card)
        out.append((v, o, tuple(cards)))
    return _normalise(out)


def _plain_merge(known, learned):  # type: ignore[no-untyped-def]
    table = {(v, o): Counter(c) for v, o, c in known}
    for v, o, cards in learned:
        table[(v, o)] = table.get((v, o), Counter()) | Counter(cards)
    return _normalise([(v, o, tuple(c.elements())) for (v, o), c in table.items()])


cards = st.lists(st.integers(0, 11), max_size=6).map(tuple)
entries = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), cards), max_size=12)
known_values = st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), cards, max_size=12).map(
    lambda table: _normalise([(v, o, c) for (v, o), c in table.items()]))
"""A valid ``GameState.known``: each (viewer, owner) once, sorted, no empty or own entries."""


@given(known_values, st.integers(0, 4), st.integers(0, 11))
def test_after_play_strikes_one_known_copy_as_the_plain_rule(known, owner, card) -> None:  # type: ignore[no-untyped-def]
    assert after_play(known, owner, card) == _plain_after_play(known, owner, card)


@given(known_values, entries)
def test_merge_keeps_the_larger_count_as_the_plain_rule(known, learned) -> None:  # type: ignore[no-untyped-def]
    assert merge(known, learned) == _plain_merge(known, learned)


@given(known_values, st.integers(0, 4))
def test_known_by_is_the_viewers_entries(known, viewer) -> None:  # type: ignore[no-untyped-def]
    assert known_by(known, viewer) == tuple((o, c) for v, o, c in known if v == viewer)


def test_holds_color_as_a_loop_over_the_hand() -> None:
    rng = random.Random(4)
    for _ in range(500):
        hand = tuple(sorted(CARDS[rng.randrange(NUM_CARD_CODES)] for _ in range(rng.randrange(8))))
        for color in (-1, 0, 1, 2, 3):
            assert holds_color(hand, color) == any(COLOR_OF[c] == color for c in hand)


# --- who may act: the runners' shortcut (bots/turns.py, envs/table.py) ----------------------
@given(ut.states())
def test_only_current_may_act_means_every_legal_move_is_the_current_players(state: GameState) -> None:
    """UNO-2, UNO-4, HOUSE-2, SETUP-11: out-of-turn moves come only from an exposed UNO, a
    jump-in or the next deal; when the shortcut says there are none, legal_moves agrees."""
    moves = u.legal_moves(state)
    if only_current_may_act(state):
        assert moves and all(m.player == state.current for m in moves)
    elif state.uno_exposed >= 0 and not state.round_over:
        assert any(m.player != state.current for m in moves)  # a catch, or the late call
