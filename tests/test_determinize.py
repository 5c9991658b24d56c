"""Determinization: sample_state(view) is a full state consistent with everything the viewer knows (their
hand, counts, the public piles, cards passed in swaps and rotations or shown by challenges), sampled fairly."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.testing import check_determinization, states


@settings(max_examples=80, deadline=None)
@given(state=states(max_moves=250), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_sampled_state_has_the_same_view_and_conserves_cards(state: u.GameState, seed: int,
                                                               data: st.DataObject) -> None:
    """DECK-5 and the view contract: for any reachable state and player, the sampled state's view for that
    player equals the original view, every card is accounted for, and the state is valid (phase, knowledge
    lower bounds, bluff flag)."""
    player = data.draw(st.integers(0, state.num_players - 1))
    check_determinization(state, player, random.Random(seed))


def test_samples_differ_in_what_is_hidden() -> None:
    """Sampling is random: other hands and the draw pile change between samples; the viewer's hand does not."""
    state = u.new_game("classic-108", 4, seed=3)
    v = u.view(state, 1)
    samples = [u.sample_state(v, random.Random(i)) for i in range(10)]
    assert len({s.hands for s in samples}) == 10
    assert all(s.hands[1] == state.hands[1] for s in samples)


def test_each_unseen_card_lands_where_the_counts_say() -> None:
    """Fairness: over many samples each unseen card is in a given opponent's hand with probability
    hand size / unseen cards (here 7 / 93 for each of three opponents), within four standard errors."""
    state = u.new_game("classic-108", 4, seed=8)
    v = u.view(state, 0)
    trials = 3000
    counts: Counter[tuple[int, int]] = Counter()
    for i in range(trials):
        s = u.sample_state(v, random.Random(i))
        for q in (1, 2, 3):
            for c in set(s.hands[q]):
                counts[(q, c)] += s.hands[q].count(c)
    unseen = u.determinize.unseen_cards(v)
    total = sum(unseen.values())
    for (q, c), k in counts.items():
        expected = trials * unseen[c] * len(state.hands[q]) / total
        sigma = (expected * (1 - len(state.hands[q]) / total)) ** 0.5
        assert abs(k - expected) < 4 * sigma + 2, (q, c, k, expected)


def test_a_swapped_hand_is_known_and_kept() -> None:
    """ACT-7: after Swap Hands each of the two knows the other's new hand; a sample for either keeps it,
    and a known card the owner plays is struck off."""
    state = u.from_position("ffk04", ["WSW R3 G4", "B1 B2 B3", "Y1 Y2"], "R5")
    state = u.apply(state, u.Play(0, u.WILD_SWAP_HANDS, "B", target=1))
    assert state.hands[1] == (u.parse_card("R3"), u.parse_card("G4"))
    assert u.view(state, 0).known == ((1, state.hands[1]),)
    assert u.view(state, 1).known == ((0, state.hands[0]),)
    assert u.view(state, 2).known == ()
    for i in range(20):
        assert u.sample_state(u.view(state, 0), random.Random(i)).hands[1] == state.hands[1]


def test_a_zero_rotation_tells_each_player_the_hand_they_passed() -> None:
    """HOUSE-3: after a 0 every player knows the hand they passed on (now the next player's)."""
    state = u.from_position("classic-108+seven-zero", ["R0 G1 G2", "B1 B2 B3", "Y1 Y2"], "R5")
    after = u.apply(state, u.Play(0, "R0"))
    for v in range(3):
        assert dict(u.view(after, v).known) == {(v + 1) % 3: after.hands[(v + 1) % 3]}


def test_played_known_cards_are_struck_off_and_a_shuffle_forgets() -> None:
    """ACT-7, ACT-6: knowledge is a lower bound: a known card played leaves it; Shuffle Hands forgets all."""
    state = u.from_position("classic-108+seven-zero", ["R7 R1 G2", "B1 B2 R3", "Y1 Y2 Y3"], "R5")
    swapped = u.apply(state, u.Play(0, "R7", target=1))
    assert dict(u.view(swapped, 0).known) == {1: swapped.hands[1]}
    played = u.apply(swapped, u.Play(1, "R1"))
    assert dict(u.view(played, 0).known) == {1: (u.parse_card("G2"),)}
    gdj = u.from_position("gdj85", ["WSH R4 G1", "B1 B2 R3", "Y1 Y2 Y3"], "R5")
    shuffled = u.apply(gdj, u.Play(0, u.WILD_SHUFFLE_HANDS, "R"))
    assert shuffled.known == ()


def test_a_challenge_shows_the_hand_to_the_challenger() -> None:
    """WD4-3: the challenger learns the attacker's hand (a lower bound after the penalty draw), and a sample
    for the challenger keeps it; the bluff of a sampled pending challenge follows the sampled hand."""
    state = u.from_position("classic-108", ["W+4 R7 G5", "Y1 Y2 Y3", "B8 B9"], "R3")
    pending = u.apply(state, u.Play(0, u.WILD_DRAW_FOUR, "G"))
    for i in range(30):
        sampled = u.sample_state(u.view(pending, 2), random.Random(i))
        ch = sampled.challenge
        assert ch is not None and ch.color == u.Color.RED
        assert ch.bluff == any(c.color == u.Color.RED for c in sampled.hands[0])
    after = u.apply(pending, u.Challenge(1))
    known = dict(u.view(after, 1).known)
    assert Counter(known[0]) == Counter(u.parse_cards("R7 G5"))
    assert all(Counter(known[0]) <= Counter(u.sample_state(u.view(after, 1), random.Random(i)).hands[0])
               for i in range(20))


def test_an_impossible_view_is_refused() -> None:
    """A view whose hands cannot be dealt from the unseen cards is refused with a clear error."""
    v = u.view(u.new_game("classic-108", 3, seed=1), 0)
    bad = attrs.evolve(v, hand_sizes=(7, 200, 7))
    with pytest.raises(u.UnoEngineError, match="cannot be dealt"):
        u.sample_state(bad, random.Random(0))
