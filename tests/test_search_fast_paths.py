"""The ISMCTS bot's fast paths agree with the reference ones: the Determinizer's samples are states the
viewer cannot tell from the real one, distributed as sample_state's (every deal equally likely, also deep
in the draw pile and across successive samples), and the playout policy's scoring picks exactly the plays
that play_score likes best, ties broken uniformly."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from budget import budget
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.bots.determinize import Determinizer, unseen_cards
from unoengine.bots.heuristic import play_score
from unoengine.bots.ismcts import _quick_choice
from unoengine.engine.consistency import state_problems
from unoengine.testing import check_cards_conserved, check_phase_consistency, states
from unoengine.testing.checks import check_hands_sorted


def _check_sample(state: u.GameState, player: int, sampled: u.GameState) -> None:
    """What check_determinization asks of sample_state, asked of one Determinizer sample."""
    assert u.view(sampled, player) == u.view(state, player)
    whole = sorted([*state.remaining_draw_pile, *state.discard_pile, *(c for h in state.hands for c in h)])
    if whole == sorted(state.profile.deck_cards()):
        check_cards_conserved(sampled)
        # once a round is over the hidden hands are dealt at random: only their points may differ (SCORE-1)
        problems = state_problems(sampled)
        assert [(f, p) for f, p in problems if not (sampled.round_over and f == "match.last_round.hand_points")] == []
    check_hands_sorted(sampled)
    if not sampled.round_over:
        check_phase_consistency(sampled)


@settings(max_examples=budget(25, 300), deadline=None)
@given(state=states(max_moves=250), seed=st.integers(0, 2**32 - 1), reach=st.sampled_from([None, 0, 3, 20]),
       data=st.data())
def test_every_sample_is_consistent_with_the_view(state: u.GameState, seed: int, reach: int | None,
                                                 data: st.DataObject) -> None:
    """DECK-5 and the view contract, for successive samples of one Determinizer (any reach): each has the
    viewer's very view, keeps every card of the deck and breaks no consistency rule (engine/consistency.py)."""
    player = data.draw(st.integers(0, state.num_players - 1))
    sampler = Determinizer(u.view(state, player), reach=reach)
    rng = random.Random(seed)
    for _ in range(3):
        _check_sample(state, player, sampler.sample(rng))


def _positions(sampled: u.GameState, deep: int) -> list[tuple[str, int]]:
    """(where, card) for the cards a test follows: each opponent's hand, the top card of the pile, one
    card below the reach and the bottom card."""
    out = [(f"hand{q}", c) for q in (1, 2, 3) for c in sampled.hands[q]]
    pile = sampled.remaining_draw_pile
    return [*out, ("top", pile[0]), ("deep", pile[deep]), ("bottom", pile[-1])]


@pytest.mark.parametrize("reach", [None, 2])
def test_later_samples_deal_every_card_where_the_counts_say(reach: int | None) -> None:
    """Fairness, as for sample_state, of the samples after the first: in the third sample of each of many
    Determinizers each unseen card lands in an opponent's hand with probability hand size / unseen cards,
    and at the top, below the reach and at the bottom of the draw pile with probability 1 / unseen cards
    (within five standard errors, over 324 counts). (The samples of one Determinizer share the order below the reach, so
    they are counted one per Determinizer.)"""
    state = u.new_game("classic-108", 4, seed=8)
    v = u.view(state, 0)
    rng = random.Random(5)
    trials = budget(1200, 20000)
    counts: Counter[tuple[str, int]] = Counter()
    for _ in range(trials):
        sampler = Determinizer(v, reach=reach)
        sampler.sample(rng)
        sampler.sample(rng)
        counts.update(_positions(sampler.sample(rng), deep=30))
    unseen = unseen_cards(v)
    total = sum(unseen.values())
    for where in ("hand1", "hand2", "hand3", "top", "deep", "bottom"):
        share = (len(state.hands[int(where[-1])]) if where.startswith("hand") else 1) / total
        for card, k in unseen.items():
            expected = trials * k * share
            sigma = (expected * (1 - share)) ** 0.5
            got = counts[(where, card)]
            assert abs(got - expected) < 5 * sigma + 2, (where, card, got, expected)


def test_the_sampler_and_sample_state_agree_on_a_pending_challenge() -> None:
    """WD4-2: facing a Wild Draw Four, how often the sampled attacker held the colour in play (the bluff
    flag) and how many red cards the attacker holds are the same for the Determinizer's successive samples
    as for independent sample_state calls (two-sample test, four standard errors)."""
    state = u.from_position("classic-108", ["W+4 R7 G5 B3 Y2 G9", "Y1 Y2 Y3", "B8 B9 G1 G2"], "R3",
                            draw_pile="R1 R2 R4 R5 G7 G8 B1 B2 B4 B5 Y4 Y5 Y6 Y7 W R6 G6 B6 B7 Y8 Y9")
    pending = u.apply(state, u.Play(0, u.WILD_DRAW_FOUR, "G"))
    v = u.view(pending, 1)
    trials = budget(800, 10000)
    sampler, rng = Determinizer(v, reach=1), random.Random(3)
    fast = [sampler.sample(rng) for _ in range(trials)]
    slow = [u.sample_state(v, random.Random(i)) for i in range(trials)]
    for measure in (lambda s: s.challenge.bluff, lambda s: sum(c.color == u.Color.RED for c in s.hands[0])):
        a = [float(measure(s)) for s in fast]
        b = [float(measure(s)) for s in slow]
        mean_a, mean_b = sum(a) / trials, sum(b) / trials
        var = (sum((x - mean_a) ** 2 for x in a) + sum((x - mean_b) ** 2 for x in b)) / (2 * trials - 2)
        assert abs(mean_a - mean_b) < 4 * (2 * var / trials) ** 0.5 + 1e-9, (mean_a, mean_b)


def test_the_sampler_refuses_what_sample_state_refuses() -> None:
    """The same errors, once, when the sampler is made; a reach that is not a count is refused too."""
    import attrs

    v = u.view(u.new_game("classic-108", 3, seed=1), 0)
    bad = attrs.evolve(v, hand_sizes=(7, 200, 7))
    with pytest.raises(u.UnoEngineError, match="cannot be dealt"):
        Determinizer(bad)
    with pytest.raises(u.UnoEngineError, match="reach"):
        Determinizer(v, reach=-1)


@settings(max_examples=budget(25, 400), deadline=None)
@given(state=states(max_moves=200), seed=st.integers(0, 2**32 - 1))
def test_the_playout_scoring_picks_what_play_score_likes_best(state: u.GameState, seed: int) -> None:
    """The playout policy's choice among the plays of the player to act is one that play_score ranks
    first (its per-turn shortcuts change nothing), and with a tie every tied play comes up."""
    if state.round_over:
        return
    cur = state.current
    own = [m for m in u.legal_moves(state) if m.player == cur]
    plays = [m for m in own if isinstance(m, u.Play)]
    color = None if state.color < 0 else state.color
    sizes = [len(h) for h in state.hands]
    scores = {m: play_score(m, state.hands[cur], sizes, state.direction, color, state.profile.points) for m in plays}
    best = max(scores.values(), default=None)
    wanted = {m for m, score in scores.items() if score == best}
    rng = random.Random(seed)
    got = {_quick_choice(state, own, rng) for _ in range(40 * len(wanted) if wanted else 1)}
    assert got == (wanted or {None})


def test_a_time_budget_searches_until_it_is_spent() -> None:
    """ISMCTSBot(seconds=...) searches for that much CPU time (at least one iteration) and plays a legal
    move; a budget that is not a positive number is refused, naming the field."""
    import time

    from unoengine.bots import ISMCTSBot

    state = u.new_game("classic-108", 2, seed=11)
    while len([m for m in u.legal_moves(state) if m.player == state.current]) < 2:
        state = u.apply(state, u.legal_moves(state)[0])
    v = u.view(state, state.current)
    started = time.thread_time()
    move = ISMCTSBot(seconds=0.05).act(v, random.Random(1))
    assert time.thread_time() - started >= 0.05
    assert move in v.legal_moves
    for bad in (0, -1.0, float("nan"), "1", True):
        with pytest.raises(u.UnoEngineError, match="seconds"):
            ISMCTSBot(seconds=bad)  # type: ignore[arg-type]
