"""Which moves are legal, compiled: :func:`legal_moves` lists the move codes (codes.py) of every
legal move in exactly the order of the reference ``legal_moves`` (engine/legality.py), so that the
differential tests compare the lists as they are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.cards import WILD_DRAW_FOUR, WILD_SWAP_HANDS
from .codes import (
    CARD_SHIFT,
    COLOR_SHIFT,
    K_ACCEPT,
    K_CALL_UNO,
    K_CATCH_UNO,
    K_CHALLENGE,
    K_CHOOSE_COLOR,
    K_DRAW,
    K_NEXT_ROUND,
    K_PASS,
    K_PLAY,
    PLAYER_SHIFT,
    TARGET_SHIFT,
    UNO_SHIFT,
)
from .config import C_DECLINE, C_JUMP_IN, C_SEVEN_ZERO, C_STACKING
from .kernel_base import (
    CHALLENGE,
    CHOOSE_COLOR,
    DRAWN,
    PENALTY,
    PLAY,
    ROUND_OVER,
    can_draw,
    hand_size,
    holds,
    jit,
    lean,
    may_stack,
    next_dealer,
    o_hands,
    takes_target,
    top_card,
    wild_draw_four_forbidden,
)
from .layout import CODES, S_COLOR, S_CURRENT, S_DRAWN, S_N, S_PHASE, S_UNO_EXPOSED
from .tables import IS_WILD_T, MATCHES_T, STACKS_ON_T


@lean
def pack(kind: int, player: int, card: int, color: int, target: int, uno: int) -> int:
    """codes.pack, compiled."""
    return (kind | player << PLAYER_SHIFT | (card + 1) << CARD_SHIFT | (color + 1) << COLOR_SHIFT
            | (target + 1) << TARGET_SHIFT | uno << UNO_SHIFT)


@lean
def playable_cards(cfg: Any, a: Any, out: Any) -> int:
    """The distinct cards the player to act may play now, ascending, into ``out`` (at least
    layout.CODES long); their number.

    After a draw only the drawn card (PLAY-5); facing a Draw card, only an answer (HOUSE-1); and
    never a Wild Draw Four that "enforced" forbids (WD4-1). The scans over the hand are written
    without branches (each card code is stored, the count moves on only for a playable one): a
    hand is random, so a branch per code would be mispredicted about every other card."""
    n = a[S_N]
    p = a[S_CURRENT]
    top = top_card(cfg, a)
    color = a[S_COLOR]
    phase = a[S_PHASE]
    k = 0
    if phase == DRAWN:
        drawn = a[S_DRAWN]
        if drawn >= 0 and MATCHES_T[top, color, drawn]:
            out[0] = drawn
            k = 1
    elif phase != PLAY:
        if may_stack(cfg, a):
            stacking = cfg[C_STACKING]
            base = o_hands(n) + p * CODES
            for c in range(CODES):
                out[k] = c
                k += (a[base + c] > 0) & STACKS_ON_T[stacking, top, c] & MATCHES_T[top, color, c]
    else:
        base = o_hands(n) + p * CODES
        for c in range(CODES):
            out[k] = c
            k += (a[base + c] > 0) & MATCHES_T[top, color, c]
    if k > 0 and out[k - 1] >= WILD_DRAW_FOUR:
        for i in range(k):
            if out[i] == WILD_DRAW_FOUR:
                if wild_draw_four_forbidden(cfg, a, n, p, color):
                    for j in range(i, k - 1):
                        out[j] = out[j + 1]
                    k -= 1
                break
    return k


@lean
def _append_card(cfg: Any, a: Any, p: int, c: int, uno: bool, out: Any, k: int) -> int:
    """Every Play of card ``c`` by ``p``: each colour of a wild, each target, with and without UNO
    (``uno``: it is the next-to-last card, UNO-1); as the reference's _append_plays for one card."""
    n = a[S_N]
    wild = IS_WILD_T[c]
    if (c >= WILD_SWAP_HANDS or cfg[C_SEVEN_ZERO] != 0) and takes_target(cfg, c):
        for target in range(n):
            if target == p:
                continue
            if wild:
                for color in range(4):
                    out[k] = pack(K_PLAY, p, c, color, target, 0)
                    k += 1
                    if uno:
                        out[k] = pack(K_PLAY, p, c, color, target, 1)
                        k += 1
            else:
                out[k] = pack(K_PLAY, p, c, -1, target, 0)
                k += 1
                if uno:
                    out[k] = pack(K_PLAY, p, c, -1, target, 1)
                    k += 1
    elif wild:
        for color in range(4):
            out[k] = pack(K_PLAY, p, c, color, -1, 0)
            k += 1
            if uno:
                out[k] = pack(K_PLAY, p, c, color, -1, 1)
                k += 1
    else:
        out[k] = pack(K_PLAY, p, c, -1, -1, 0)
        k += 1
        if uno:
            out[k] = pack(K_PLAY, p, c, -1, -1, 1)
            k += 1
    return k


@lean
def _append_plays(cfg: Any, a: Any, p: int, cards: Any, count: int, out: Any, k: int) -> int:
    """Every Play of ``cards[:count]`` by ``p`` (:func:`_append_card` for each, in order)."""
    uno = hand_size(a, a[S_N], p) == 2
    for i in range(count):
        k = _append_card(cfg, a, p, cards[i], uno, out, k)
    return k


@lean
def may_jump_in(cfg: Any, a: Any, player: int) -> bool:
    """HOUSE-2: may ``player`` play the top card's twin out of turn now?"""
    phase = a[S_PHASE]
    top = top_card(cfg, a)
    return (cfg[C_JUMP_IN] != 0 and player != a[S_CURRENT]
            and (phase == PLAY or phase == DRAWN or phase == PENALTY)
            and not IS_WILD_T[top] and holds(a, a[S_N], player, top))


@lean
def legal_moves_into(cfg: Any, a: Any, player: int, out: Any, cards: Any) -> int:
    """:func:`legal_moves` with the caller's scratch ``cards`` (at least layout.CODES long), so that a
    loop over many games allocates nothing."""
    n = a[S_N]
    if player >= n:
        return 0
    phase = a[S_PHASE]
    p = a[S_CURRENT]
    k = 0
    if player < 0 or player == p:
        if phase == PLAY:
            count = playable_cards(cfg, a, cards)
            k = _append_plays(cfg, a, p, cards, count, out, k)
            playable = k > 0
            drawable = can_draw(a)
            if drawable and not (playable and cfg[C_DECLINE] == 0):  # HOUSE-5
                out[k] = pack(K_DRAW, p, -1, -1, -1, 0)
                k += 1
            if not playable and not drawable:  # PLAY-7
                out[k] = pack(K_PASS, p, -1, -1, -1, 0)
                k += 1
        elif phase == DRAWN:
            count = playable_cards(cfg, a, cards)
            k = _append_plays(cfg, a, p, cards, count, out, k)
            out[k] = pack(K_PASS, p, -1, -1, -1, 0)
            k += 1
        elif phase == CHALLENGE:
            count = playable_cards(cfg, a, cards)
            k = _append_plays(cfg, a, p, cards, count, out, k)
            out[k] = pack(K_CHALLENGE, p, -1, -1, -1, 0)
            out[k + 1] = pack(K_ACCEPT, p, -1, -1, -1, 0)
            k += 2
        elif phase == PENALTY:
            count = playable_cards(cfg, a, cards)
            k = _append_plays(cfg, a, p, cards, count, out, k)
            out[k] = pack(K_ACCEPT, p, -1, -1, -1, 0)
            k += 1
        elif phase == CHOOSE_COLOR:
            for color in range(4):
                out[k] = pack(K_CHOOSE_COLOR, p, -1, color, -1, 0)
                k += 1
    if cfg[C_JUMP_IN] != 0:
        twin = top_card(cfg, a)
        for q in range(n):
            if (player < 0 or player == q) and may_jump_in(cfg, a, q):
                k = _append_card(cfg, a, q, twin, hand_size(a, n, q) == 2, out, k)
    if phase == ROUND_OVER:
        dealer = next_dealer(cfg, a)
        if player < 0 or player == dealer:
            out[k] = pack(K_NEXT_ROUND, dealer, -1, -1, -1, 0)
            k += 1
    exposed = a[S_UNO_EXPOSED]
    if exposed >= 0:
        if player < 0 or player == exposed:
            out[k] = pack(K_CALL_UNO, exposed, -1, -1, -1, 0)
            k += 1
        for q in range(n):
            if q != exposed and (player < 0 or player == q):
                out[k] = pack(K_CATCH_UNO, q, -1, -1, exposed, 0)
                k += 1
    return k


@jit
def legal_moves(cfg: Any, a: Any, player: int, out: Any) -> int:
    """The codes of every legal move now (``player`` -1), or of one player's, into ``out`` (at least
    codes.MAX_LEGAL long); their number. The order is the reference's: in-turn moves, jump-ins by
    seat, the next round's deal, then the late UNO call and the catches."""
    return legal_moves_into(cfg, a, player, out, np.empty(CODES, dtype=np.int64))
