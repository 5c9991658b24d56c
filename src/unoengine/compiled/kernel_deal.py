"""Starting a game and dealing a round, compiled: the seed path of engine/dealing.py ``new_game``
and ``deal_round`` (SETUP-1..11) with the SETUP-2 dealer draw of engine/dealer_draw.py.

Every shuffle is "splitmix64-v1" (engine/splitmix.py, docs/shuffle.md) from the same seeds as the
reference, so a seed deals the same game in both engines (tests/test_compiled_apply.py). Seeds are
kept as the int64 bit pattern of the reference's uint64 (layout.py ``S_RNG``): :func:`seed_bits`
turns a reference seed into one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.cards import DRAW_TWO, DRAW_TWO_COUNT, REVERSE, SKIP, WILD_DRAW_FOUR
from .config import C_DECK, C_FIRST_WD4, C_HAND_SIZE, C_PLAY_DECK
from .kernel_base import (
    CHOOSE_COLOR,
    PLAY,
    add_card,
    below,
    jit,
    next_output,
    o_discard,
    o_draw,
    o_hand_size,
    o_hands,
    o_known,
    o_scores,
    shuffle_block,
)
from .kernel_piles import draw_cards, start_turn, take_card
from .layout import (
    CODES,
    S_CH_ACTIVE,
    S_COLOR,
    S_CURRENT,
    S_DEALER,
    S_DIRECTION,
    S_DISCARD_LEN,
    S_DRAW_LEN,
    S_DRAW_POS,
    S_DRAWN,
    S_LAST_ACTIVE,
    S_MATCH_WINNER,
    S_N,
    S_PASSES,
    S_PENDING_DRAW,
    S_PHASE,
    S_RNG,
    S_ROUND,
    S_RV_ACTIVE,
    S_UNO_EXPOSED,
)
from .tables import COLOR_OF_T, DEALER_VALUE_T, IS_WILD_T, SYMBOL_OF_T

REDRAW = 0
"""config C_FIRST_WD4 of "redraw" (SETUP-9); 1 is "apply" (HOUSE-7)."""


def seed_bits(seed: int) -> int:
    """A reference seed (0 .. 2**64 - 1) as the int64 bit pattern the kernels keep."""
    return int(np.uint64(seed).view(np.int64))


@jit
def _stream_shuffle(a: Any, start: int, length: int, state: Any) -> Any:
    """Fisher-Yates from the top of ``a[start:start + length]`` continuing the stream ``state``
    (a uint64), with no next seed drawn after it: ``shuffling.Stream.shuffle``."""
    for i in range(length - 1, 0, -1):
        state, j = below(state, i + 1)
        t = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = t
    return state


@jit
def _fill_deck(cfg: Any, a: Any, start: int) -> None:
    """The cards in play in canonical (sorted) order at ``a[start:]`` (``Profile.deck_cards``)."""
    k = start
    for c in range(CODES):
        for _ in range(cfg[C_PLAY_DECK + c]):
            a[k] = c
            k += 1


@jit
def choose_dealer(cfg: Any, a: Any, n: int, seed: int) -> tuple[int, int]:
    """SETUP-2 from a seed: everyone draws, the highest deals; RULING: ties re-draw among the tied,
    reshuffling the deck when a re-draw runs past it; by lot when no draw can break a tie. The
    dealer and the next seed (``dealer_draw.draw_for_dealer``). The draw pile block is the scratch."""
    state = np.uint64(seed)
    first = -1
    varied = False
    for c in range(CODES):
        if cfg[C_PLAY_DECK + c] > 0:
            if first < 0:
                first = DEALER_VALUE_T[c]
            elif DEALER_VALUE_T[c] != first:
                varied = True
    if not varied:
        state, lot = below(state, n)
        state, out = next_output(state)
        return int(np.int64(lot)), int(np.int64(out))
    d = cfg[C_DECK]
    od = o_draw(n)
    _fill_deck(cfg, a, od)
    state = _stream_shuffle(a, od, d, state)
    seats = np.empty(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    for i in range(n):
        seats[i] = i
    m = n
    pos = 0
    while True:
        if pos + m > d:
            state = _stream_shuffle(a, od, d, state)
            pos = 0
        best = -1
        for i in range(m):
            values[i] = DEALER_VALUE_T[a[od + pos + i]]
            best = max(best, values[i])
        pos += m
        k = 0
        for i in range(m):
            if values[i] == best:
                seats[k] = seats[i]
                k += 1
        m = k
        if m == 1:
            state, out = next_output(state)
            return int(seats[0]), int(np.int64(out))


@jit
def _first_card(cfg: Any, a: Any, dealer: int) -> None:
    """Turn the first card and apply its effect at once (SETUP-3..10), as dealing._first_card."""
    n = a[S_N]
    od = o_draw(n)
    while True:
        top = take_card(cfg, a)
        if top == WILD_DRAW_FOUR and cfg[C_FIRST_WD4] == REDRAW:
            pos, length = a[S_DRAW_POS], a[S_DRAW_LEN]
            other = False
            for i in range(pos, length):
                if a[od + i] != WILD_DRAW_FOUR:
                    other = True
                    break
            if other:
                # SETUP-9: returned into the deck (under the rest), shuffled, another card turned.
                # RULING: when only Wild Draw Fours are left it stays and acts as a plain Wild.
                rest = length - pos
                for i in range(rest):
                    a[od + i] = a[od + pos + i]
                a[od + rest] = top
                a[S_RNG] = shuffle_block(a, od, rest + 1, a[S_RNG])
                a[S_DRAW_LEN] = rest + 1
                a[S_DRAW_POS] = 0
                continue
        break
    a[o_discard(n, cfg[C_DECK])] = top
    a[S_DISCARD_LEN] = 1
    a[S_DIRECTION] = 1  # SETUP-4: play starts clockwise
    first = (dealer + 1) % n  # SETUP-4: the player to the dealer's left
    if IS_WILD_T[top]:
        # SETUP-8/SETUP-10: the first player names the colour; HOUSE-7 RULING: the dealer names it
        # for a Wild Draw Four that applies.
        a[S_COLOR] = -1
        a[S_PHASE] = CHOOSE_COLOR
        a[S_CURRENT] = dealer if top == WILD_DRAW_FOUR and cfg[C_FIRST_WD4] != REDRAW else first
        return
    a[S_COLOR] = COLOR_OF_T[top]
    symbol = SYMBOL_OF_T[top]
    if symbol == SKIP:  # SETUP-5
        start_turn(a, (first + 1) % n)
    elif symbol == REVERSE:  # SETUP-6
        a[S_DIRECTION] = -1
        start_turn(a, dealer)
    elif symbol == DRAW_TWO:  # SETUP-7
        draw_cards(cfg, a, first, DRAW_TWO_COUNT)
        start_turn(a, (first + 1) % n)
    else:
        start_turn(a, first)


@jit
def deal(cfg: Any, a: Any, dealer: int, seed: int) -> None:
    """SETUP-1/SETUP-3: shuffle the cards in play from ``seed``, deal ``hand_size`` one at a time
    from the dealer's left, keep the rest as the draw pile and turn the first card. Clears what a
    round keeps (hands, knowledge, reveal, challenge); the match fields are the caller's."""
    n = a[S_N]
    d = cfg[C_DECK]
    od = o_draw(n)
    _fill_deck(cfg, a, od)
    a[S_RNG] = shuffle_block(a, od, d, seed)
    oh, ok, os = o_hands(n), o_known(n), o_hand_size(n)
    a[oh:oh + n * CODES] = 0
    a[ok:ok + n * n * CODES] = 0
    a[os:os + n] = 0
    dealt = cfg[C_HAND_SIZE] * n
    for i in range(dealt):
        add_card(a, n, (dealer + 1 + i) % n, a[od + i])
    a[S_DRAW_LEN] = d
    a[S_DRAW_POS] = dealt
    a[S_DISCARD_LEN] = 0
    a[S_COLOR] = 0
    a[S_DIRECTION] = 1
    a[S_CURRENT] = (dealer + 1) % n
    a[S_PHASE] = PLAY
    a[S_DRAWN] = -1
    a[S_CH_ACTIVE] = 0
    a[S_UNO_EXPOSED] = -1
    a[S_PASSES] = 0
    a[S_PENDING_DRAW] = 0
    a[S_RV_ACTIVE] = 0
    a[S_DEALER] = dealer
    a[S_MATCH_WINNER] = -1
    _first_card(cfg, a, dealer)


@jit
def new_game(cfg: Any, n: int, seed: int, a: Any) -> None:
    """A new match of ``n`` players from ``seed`` (int64 bits, :func:`seed_bits`) into the zeroed
    array ``a`` of ``layout.offsets(n, d).size``: the reference ``new_game(profile, n, seed)``.
    The player count is the caller's to check against the profile (SETUP-1)."""
    a[S_N] = n
    dealer, rng = choose_dealer(cfg, a, n, seed)
    sc = o_scores(n)
    a[sc:sc + 4 * n] = 0  # scores and the last round's points
    a[S_ROUND] = 1
    a[S_LAST_ACTIVE] = 0
    deal(cfg, a, dealer, rng)


@jit
def deal_round(cfg: Any, a: Any, dealer: int) -> None:
    """SETUP-11: the next round of the match, dealt by ``dealer`` from the game's hidden seed
    (dealing.deal_round); the scores and the last round stay."""
    a[S_ROUND] += 1
    deal(cfg, a, dealer, a[S_RNG])
