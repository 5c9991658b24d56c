"""Differential tests of the compiled transition and deal (issue 34): on every state of random and
biased games of every shipped profile and composition, the kernel's ``apply_move`` gives exactly
the reference ``apply`` (every field, piles in order, the seed, knowledge, the reveal); the kernel's
``new_game`` deals exactly the reference ``new_game``; and whole games run on the kernel alone, its
own legal moves picked at random, stay equal to the reference at every step."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from itertools import pairwise

import attrs
import numpy as np
import pytest

pytest.importorskip("numba")

from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile, random_states

import unoengine as u
from unoengine.compiled.codes import MAX_LEGAL, decode, encode
from unoengine.compiled.config import config_of
from unoengine.compiled.convert import to_array, to_state
from unoengine.compiled.kernel_apply import apply_move
from unoengine.compiled.kernel_deal import new_game, seed_bits
from unoengine.compiled.kernel_legal import legal_moves
from unoengine.compiled.layout import offsets
from unoengine.engine.moves import MAX_PLAYERS, Move


def _differences(got: u.GameState, want: u.GameState) -> dict[str, object]:
    """The fields that differ, for a readable failure."""
    names = ("hands", "draw_pile", "draw_pos", "discard", "color", "direction", "current", "phase", "drawn",
             "challenge", "uno_exposed", "passes", "rng", "match", "reveal", "pending_draw", "known")
    return {name: (getattr(got, name), getattr(want, name)) for name in names
            if getattr(got, name) != getattr(want, name)}


def endgame_states(profile: u.Profile, positions: int, seed: int) -> Iterator[tuple[u.GameState, Move | None]]:
    """States of random play from random end-of-round positions (unoengine.from_position): hands of
    one to three cards, a short draw pile or none, passes already made, scores near the target. They
    reach what whole games reach rarely: blocked rounds (PLAY-7), a last Draw Two or Wild Draw Four
    drawn, challenged or accepted (ACT-9, WD4-5), the match won (SCORE-2..4)."""
    rng = random.Random(seed)
    lo, hi = profile.min_players, min(profile.max_players, 6)
    deck = profile.deck_cards()
    for _ in range(positions):
        n = rng.randint(lo, hi)
        sizes = [rng.choice((1, 1, 2, 3)) for _ in range(n)]
        pile_size, discard_size = rng.choice((0, 0, 1, 3)), rng.choice((1, 1, 2, 4))
        cards = rng.sample(deck, sum(sizes) + pile_size + discard_size)
        hands = [cards[sum(sizes[:p]):sum(sizes[:p + 1])] for p in range(n)]
        rest = cards[sum(sizes):]
        if rng.random() < 0.3:  # a last Wild Draw Four to play (ACT-9, WD4-3)
            hands[0] = [53] if profile.play_deck[53] else hands[0]
        discard, draw_pile = rest[:discard_size], rest[discard_size:]
        blocked = not draw_pile and len(discard) == 1
        target = profile.target_score
        state = u.from_position(
            profile, hands, discard, draw_pile=draw_pile, color=rng.randrange(4) if discard[-1] >= 52 else None,
            direction=rng.choice((1, -1)), current=0, passes=rng.randrange(n) if blocked else 0,
            scores=[rng.randrange(max(1, target - 40), target) if rng.random() < 0.5 else 0 for _ in range(n)],
            seed=rng.getrandbits(64))
        for _move_number in range(40):
            if state.match_over:
                break
            move = rng.choice(u.legal_moves(state))
            yield state, move
            state = u.apply(state, move)
        yield state, None


def _kernel_new_game(profile: u.Profile, cfg: np.ndarray, n: int, seed: int) -> np.ndarray:
    a = np.zeros(offsets(n, profile.deck_size).size, dtype=np.int64)
    new_game(cfg, n, seed_bits(seed), a)
    return a


@pytest.mark.parametrize("biased", [False, True], ids=["random", "biased"])
@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_apply_equals_the_reference(spec: str, changes: dict[str, object], biased: bool) -> None:
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    pairs = random_states(profile, budget(2, 8, 40), seed=23, biased=biased, max_moves=budget(600, 3_000))
    for (state, move), (after, _next) in pairwise(pairs):
        if move is None:
            continue
        a = to_array(state)
        apply_move(cfg, a, encode(move))
        got = to_state(profile, a)
        assert got == after, (state, move, _differences(got, after))


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_apply_equals_the_reference_near_the_end_of_a_round(spec: str, changes: dict[str, object]) -> None:
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    for (state, move), (after, _next) in pairwise(endgame_states(profile, budget(40, 500, 1000), seed=29)):
        if move is None:
            continue
        a = to_array(state)
        apply_move(cfg, a, encode(move))
        got = to_state(profile, a)
        assert got == after, (state, move, _differences(got, after))


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_new_game_equals_the_reference(spec: str, changes: dict[str, object]) -> None:
    """SETUP-1..10: the dealer draw, the shuffle, the deal and the first card, for every player count."""
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    rng = random.Random(5)
    for n in range(profile.min_players, min(profile.max_players, MAX_PLAYERS) + 1):
        for _ in range(budget(6, 200)):
            seed = rng.getrandbits(64)
            want = u.new_game(profile, n, seed=seed)
            got = to_state(profile, _kernel_new_game(profile, cfg, n, seed))
            assert got == want, (n, seed, _differences(got, want))


def test_new_game_covers_the_first_card_rules() -> None:
    """The seeds dealt reach every kind of first card, so SETUP-5..10 are exercised, not assumed:
    Skip, Reverse, Draw Two, a Wild, a Wild Draw Four returned and redrawn (SETUP-9: the draw pile
    is then rebuilt, shorter than the deck), and one that applies (HOUSE-7: the dealer names it)."""
    tops: set[int] = set()
    redrawn = applied = 0
    for spec in ("classic-108", "classic-108+wd4-first-card-applies"):
        profile = compiled_profile(spec)
        cfg = config_of(profile)
        for seed in range(300):
            state = to_state(profile, _kernel_new_game(profile, cfg, 4, seed))
            assert state == u.new_game(profile, 4, seed=seed)
            tops.add(state.top_card.symbol)  # a wild's symbol is its own code
            redrawn += len(state.draw_pile) < profile.deck_size
            applied += state.top_card == 53 and state.current == state.dealer
    assert {10, 11, 12, 52} <= tops
    assert redrawn and applied


def _lockstep(profile: u.Profile, moves: int, seed: object) -> int:
    """The kernel deals, lists its own moves and applies one picked at random; the reference,
    advanced by the same moves, must list the same moves and reach the same state at every step.
    Whole matches (every round dealt by the kernel) until ``moves`` moves were made; their number."""
    cfg = config_of(profile)
    rng = random.Random(seed)
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    lo, hi = profile.min_players, min(profile.max_players, MAX_PLAYERS)
    made = 0
    while made < moves:
        n, game_seed = rng.randint(lo, hi), rng.getrandbits(64)
        a = _kernel_new_game(profile, cfg, n, game_seed)
        state = u.new_game(profile, n, seed=game_seed)
        while made < moves:
            got = to_state(profile, a)
            assert got == state, (n, game_seed, _differences(got, state))
            k = legal_moves(cfg, a, -1, out)
            assert [decode(int(c)) for c in out[:k]] == u.legal_moves(state)
            if not k:
                break
            code = int(out[rng.randrange(k)])
            apply_move(cfg, a, code)
            state = u.apply(state, decode(code))
            made += 1
    return made


LOCKSTEP_MOVES = int(os.environ.get("UNOENGINE_LOCKSTEP_MOVES") or budget(2_000, 100_000, 1_000_000))
"""Moves per profile and composition compared at every step: 10^5 each in the deep run (about 4
CPU-minutes over every composition), a million in the soak (``pytest --soak``, about 35); more or
fewer with ``UNOENGINE_LOCKSTEP_MOVES``."""


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_games_run_on_the_kernel_alone_stay_equal(spec: str, changes: dict[str, object]) -> None:
    assert _lockstep(compiled_profile(spec, **changes), LOCKSTEP_MOVES, spec) == LOCKSTEP_MOVES


def _deck(text: str) -> tuple[int, ...]:
    """Deck counts from ``"RS:4 W+4:2"``."""
    counts = [0] * 58
    for item in text.split():
        name, copies = item.split(":")
        counts[u.parse_card(name)] = int(copies)
    return tuple(counts)


SMALL_DECKS = {
    # SETUP-2 RULING: every card counts zero, so no draw can break a tie: the dealer is drawn by lot.
    "by-lot": dict(deck_counts=_deck("RS:4 YR:4 B+2:4 W:4 W+4:4"), hand_size=2, max_players=6),
    # SETUP-2 RULING: ten players tie on fives over and over; a re-draw runs past the deck and reshuffles it.
    "dealer-redraws": dict(deck_counts=_deck("R5:3 Y5:3 G5:3 B5:3 R3:1 W:1"), hand_size=1, max_players=10,
                           min_players=10),
    # SETUP-9: Wild Draw Fours turned first are returned; RULING: when only they are left, one stays.
    "wild-draw-fours": dict(deck_counts=_deck("R1:1 R2:1 W+4:6"), hand_size=1, max_players=2),
    # A deck so short that the discard pile is reshuffled every few moves (PLAY-7).
    "short": dict(deck_counts=_deck("R1:2 Y1:2 RS:1 YR:1 R+2:2 W:1 W+4:2"), hand_size=2, max_players=4),
}


@pytest.mark.parametrize("name", sorted(SMALL_DECKS))
def test_small_decks_deal_and_play_like_the_reference(name: str) -> None:
    """The dealer draw's rulings and SETUP-9's, reached only with decks of a few kinds of card."""
    profile = attrs.evolve(compiled_profile("classic-108"), name=name, **SMALL_DECKS[name])
    cfg = config_of(profile)
    tops = set()
    for seed in range(budget(200, 3000)):
        n = profile.min_players + seed % (profile.max_players - profile.min_players + 1)
        want = u.new_game(profile, n, seed=seed)
        got = to_state(profile, _kernel_new_game(profile, cfg, n, seed))
        assert got == want, (n, seed, _differences(got, want))
        tops.add(int(want.top_card))
    if name == "wild-draw-fours":
        assert 53 in tops  # the RULING was reached (and matched)
    _lockstep(profile, budget(2_000, 40_000), name)
