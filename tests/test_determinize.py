"""Determinization: sample_state(view) is a full state consistent with everything the viewer knows (their
hand, counts, the public piles, cards passed in swaps and rotations or shown by challenges), sampled fairly."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from budget import budget
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.engine.points_deal import PointsDealTooLong
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


def _to_the_end(state: u.GameState, rng: random.Random, moves: int) -> u.GameState:
    """``state`` played on by random legal moves until the round is over (or ``moves`` are made)."""
    for _ in range(moves):
        if state.round_over:
            break
        state = u.apply(state, rng.choice(u.legal_moves(state)))
    return state


@settings(max_examples=budget(60, 600), deadline=None)
@given(state=states(max_moves=250), seed=st.integers(0, 2**32 - 1), to_the_end=st.booleans(), data=st.data())
def test_sampled_states_save_and_load_back(state: u.GameState, seed: int, to_the_end: bool,
                                          data: st.DataObject) -> None:
    """Issue 33, SCORE-1: a state sampled for a view at any point of a random game, the end of its
    round included, is one the engine could reach, so it saves and loads back (dumps, loads); the
    Determinizer's samples too. Once the round was over, the sample's hidden hands did not hold the
    points the round counted, so loads refused it."""
    rng = random.Random(seed)
    if to_the_end:
        state = _to_the_end(state, rng, 5000)
    player = data.draw(st.integers(0, state.num_players - 1))
    v = u.view(state, player)
    for sampled in (u.sample_state(v, rng), u.determinize.Determinizer(v).sample(rng)):
        text = u.dumps(sampled)
        again = u.loads(text)
        assert again == sampled and u.dumps(again) == text
        assert u.view(sampled, player) == v
        if sampled.round_over:
            points = tuple(u.hand_points(sampled.profile, h) for h in sampled.hands)
            assert sampled.match.last_round is not None and points == sampled.match.last_round.hand_points


def test_a_round_over_view_deals_hands_of_the_points_counted() -> None:
    """SCORE-1: at the end of a ten-player round every hidden hand holds the points the round counted,
    in samples that differ from one another and from the real hands."""
    state = _to_the_end(u.new_game("classic-108", 10, seed=8), random.Random(8), 10_000)
    assert state.round_over
    v = u.view(state, 1)
    samples = [u.sample_state(v, random.Random(i)) for i in range(5)]
    for s in samples:
        assert tuple(u.hand_points(s.profile, h) for h in s.hands) == state.match.last_round.hand_points
        assert tuple(map(len, s.hands)) == tuple(map(len, state.hands)) and s.hands[1] == state.hands[1]
        assert u.loads(u.dumps(s)) == s
    assert len({s.hands for s in samples}) == 5


def test_a_round_over_view_whose_points_cannot_be_dealt_is_refused() -> None:
    """A hand-built round-over view whose losers' points are moved from one to the other (the total,
    and so the winner's score, unchanged), leaving a hand of five or more cards with no points
    (classic-108 has four zeros): sample_state and the Determinizer raise UnoEngineError, and
    loads refuses the view's document, naming the hand points."""
    for seed in range(100):
        state = _to_the_end(u.new_game("classic-108", 3, seed=seed), random.Random(seed), 10_000)
        last = state.match.last_round
        assert last is not None
        losers = [q for q in range(3) if q != last.winner]
        if not last.blocked and all(len(state.hands[q]) >= 5 for q in losers):
            break
    v = u.view(state, last.winner)
    points = list(last.hand_points)
    points[losers[0]], points[losers[1]] = points[losers[0]] + points[losers[1]], 0
    bad = attrs.evolve(v, last_round=attrs.evolve(last, hand_points=tuple(points)))
    with pytest.raises(u.UnoEngineError, match="SCORE-1"):
        u.sample_state(bad, random.Random(0))
    with pytest.raises(u.UnoEngineError, match="SCORE-1"):
        u.determinize.Determinizer(bad)
    with pytest.raises(u.SerializationError, match=r"last_round\.hand_points: SCORE-1"):
        u.loads(u.dumps(bad))


def test_a_crafted_view_whose_hands_cannot_all_hold_their_points_stops_in_bounded_steps() -> None:
    """SCORE-1, bounded work: five players after a round won by p0; p1, p2 and p3 each hold one card
    of 50 points, and p4 three cards of 30. The view is edited to show one of the three wilds on the
    discard pile (a card fewer in the draw pile): each hand can still hold its points, and all of
    them together can (the union is checked), but no three hands of one card share two wilds. loads
    takes the view (no partition is searched there); sample_state and the Determinizer give up
    with PointsDealTooLong, an UnoEngineError, after MAX_POINTS_DEAL_STEPS steps."""
    deck = [u.CARDS[c] for c in u.load_profile("classic-108").deck_cards()]
    hands = [[], u.parse_cards("W"), u.parse_cards("W+4"), u.parse_cards("W"), u.parse_cards("R9 R1 RS")]
    rest = Counter(deck)
    for hand in hands:
        rest -= Counter(hand)
    wild = u.parse_cards("W")[0]
    wilds = [c for c in rest.elements() if u.load_profile("classic-108").points[c] == 50]
    others = [c for c in rest.elements() if u.load_profile("classic-108").points[c] != 50]
    state = u.from_position("classic-108", hands, wilds + others[:30], draw_pile=others[30:], phase="ROUND_OVER",
                            current=0, scores=[180, 0, 0, 0, 0])
    seen = u.view(state, 0)
    assert u.sample_state(seen, random.Random(0)).match.last_round == state.match.last_round
    crafted = attrs.evolve(seen, discard_pile=(wild, *seen.discard_pile), draw_pile_size=seen.draw_pile_size - 1)
    assert u.loads(u.dumps(crafted)) == crafted
    with pytest.raises(PointsDealTooLong, match="1,500,000 steps"):
        u.sample_state(crafted, random.Random(0))
    with pytest.raises(u.UnoEngineError, match="SCORE-1"):
        u.determinize.Determinizer(crafted)


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
