"""Seats, turns and the piles, compiled: what both the transition (kernel_apply.py) and the deal
(kernel_deal.py) do to a game's flat array. engine/draft.py is their reference: the reshuffle
collects the discard pile below its top card from the top down, as ``Draft.reshuffle`` walks its
linked list, so the new draw pile is the very tuple the reference builds (PLAY-7).
"""

from __future__ import annotations

from typing import Any

from .config import C_DECK
from .kernel_base import PLAY, add_card, lean, o_discard, o_draw, shuffle_block
from .layout import (
    S_CURRENT,
    S_DIRECTION,
    S_DISCARD_LEN,
    S_DRAW_LEN,
    S_DRAW_POS,
    S_DRAWN,
    S_N,
    S_PENDING_DRAW,
    S_PHASE,
    S_RNG,
)


@lean
def seat_after(a: Any, player: int, steps: int) -> int:
    """The player ``steps`` places after ``player`` in the direction of play (PLAY-8)."""
    n = a[S_N]
    return (player + steps * a[S_DIRECTION]) % n  # type: ignore[no-any-return]


@lean
def start_turn(a: Any, player: int) -> None:
    """Give ``player`` an ordinary turn (phase PLAY), as ``Draft.start_turn``."""
    a[S_CURRENT] = player
    a[S_PHASE] = PLAY
    a[S_DRAWN] = -1
    a[S_PENDING_DRAW] = 0


@lean
def reshuffle(cfg: Any, a: Any) -> None:
    """PLAY-7: the discard pile but its top card, taken from the top down, shuffled from the hidden
    seed and put under what is left of the draw pile; drawing starts again at the top."""
    n = a[S_N]
    od = o_draw(n)
    oc = o_discard(n, cfg[C_DECK])
    pos = a[S_DRAW_POS]
    rest = a[S_DRAW_LEN] - pos
    for i in range(rest):
        a[od + i] = a[od + pos + i]
    below = a[S_DISCARD_LEN] - 1
    for i in range(below):
        a[od + rest + i] = a[oc + below - 1 - i]
    a[S_RNG] = shuffle_block(a, od + rest, below, a[S_RNG])
    a[S_DRAW_LEN] = rest + below
    a[S_DRAW_POS] = 0
    a[oc] = a[oc + below]
    a[S_DISCARD_LEN] = 1


@lean
def take_card(cfg: Any, a: Any) -> int:
    """The top card of the draw pile, reshuffling first when it is empty (PLAY-7); -1 when nothing
    at all is left to draw (``Draft.take_from_pile`` one card at a time)."""
    if a[S_DRAW_POS] >= a[S_DRAW_LEN]:
        if a[S_DISCARD_LEN] <= 1:
            return -1
        reshuffle(cfg, a)
    pos = a[S_DRAW_POS]
    a[S_DRAW_POS] = pos + 1
    return a[o_draw(a[S_N]) + pos]  # type: ignore[no-any-return]


@lean
def draw_cards(cfg: Any, a: Any, player: int, count: int) -> int:
    """``player`` draws up to ``count`` cards (``Draft.draw``); the last card drawn, or -1 if none."""
    n = a[S_N]
    card = -1
    for _ in range(count):
        c = take_card(cfg, a)
        if c < 0:
            break
        add_card(a, n, player, c)
        card = c
    return card
