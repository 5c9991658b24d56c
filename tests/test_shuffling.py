"""engine/shuffling.py: the engine's shuffle is ``random.Random.shuffle``, card for card.

Every shuffle of a game goes through it (the deal, SETUP-1; the reshuffle, PLAY-7; Shuffle
Hands, ACT-6; the dealer draw, SETUP-2; determinization), and records replay from seeds, so it
must swap the same cards and leave the generator where ``random.Random.shuffle`` leaves it.
"""

from __future__ import annotations

import random

import attrs
from hypothesis import given
from hypothesis import strategies as st

import unoengine as u
from unoengine.engine import shuffling
from unoengine.engine.shuffling import shuffle


@given(st.integers(0, 2**64 - 1), st.integers(0, 300))
def test_the_same_permutation_and_generator_state_as_random_shuffle(seed: int, length: int) -> None:
    ours, theirs = list(range(length)), list(range(length))
    mine, python = random.Random(seed), random.Random(seed)
    shuffle(mine, ours)
    python.shuffle(theirs)
    assert ours == theirs
    assert mine.getstate() == python.getstate()


def test_every_length_of_a_deck_and_beyond_the_kept_steps() -> None:
    for length in (*range(0, 120), shuffling._KEPT, shuffling._KEPT + 1, 1000):
        for seed in (0, 1, 2**63 + 5):
            ours, theirs = list(range(length)), list(range(length))
            mine, python = random.Random(seed), random.Random(seed)
            shuffle(mine, ours)
            python.shuffle(theirs)
            assert ours == theirs, (length, seed)
            assert mine.getrandbits(64) == python.getrandbits(64)
    assert max(shuffling._STEPS) <= shuffling._KEPT  # a long custom deck's steps are not kept


class _Biased(random.Random):
    """A generator of another kind: its own ``random``, so its ``shuffle`` draws differently."""

    def random(self) -> float:
        return 0.0

    def getrandbits(self, k: int) -> int:
        return 0


def test_a_generator_of_another_kind_shuffles_itself() -> None:
    ours, theirs = list(range(20)), list(range(20))
    shuffle(_Biased(3), ours)
    _Biased(3).shuffle(theirs)
    assert ours == theirs


def test_games_replay_as_recorded_play_7() -> None:
    """Under the legacy shuffle, a reshuffle (PLAY-7) draws the pile into the same order as before
    this module existed: the pile after the first reshuffle of a seeded random game, against the
    cards ``random.Random(seed).shuffle`` puts there."""
    rng = random.Random(4)
    legacy = attrs.evolve(u.load_profile("classic-108"), shuffle=shuffling.MT19937)
    state = u.new_game(legacy, 10, seed=12)
    while True:
        before = state
        moves = u.legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        state = u.apply(state, move)
        assert not state.round_over, "the round ended before a draw reshuffled the pile"
        reshuffled = state.draw_pos < before.draw_pos or len(state.draw_pile) != len(before.draw_pile)
        if reshuffled and isinstance(move, u.Draw):  # a plain draw: the pile below the top card
            break
    cards = []
    node = before.discard[2]
    while node is not None:
        cards.append(node[0])
        node = node[2]
    r = random.Random(before.rng)
    r.shuffle(cards)
    old_rest = before.draw_pile[before.draw_pos:]
    assert state.draw_pile == old_rest + tuple(cards)
    assert state.rng == r.getrandbits(64)


def test_the_first_steps_are_the_start_of_the_whole_shuffle() -> None:
    """Determinization deals only as deep as a search reaches: the first ``count`` steps of a
    shuffle, which must be the whole shuffle's first steps, and all of them with no count."""
    whole = shuffling.fisher_yates_steps(30)
    assert whole == shuffling.fisher_yates_steps(30, 30) == shuffling.fisher_yates_steps(30, 99)
    for count in range(0, 31):
        assert shuffling.fisher_yates_steps(30, count) == whole[:min(count, 29)]
    assert shuffling.fisher_yates_steps(1) == shuffling.fisher_yates_steps(0) == ()
