"""A first end-to-end check that every shipped profile plays whole rounds (SETUP-1, END-1)."""

import random

import pytest

import unoengine


@pytest.mark.parametrize("name", ["classic-108", "gdj85", "ffk04", "mattel-42003"])
def test_shipped_profile_plays_rounds_to_the_end(name: str) -> None:
    for seed in range(5):
        state = unoengine.new_game(name, 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(100_000):
            if state.round_over:
                break
            state = unoengine.apply(state, rng.choice(unoengine.legal_moves(state)))
        assert state.round_over
        assert state.match.last_round is not None
