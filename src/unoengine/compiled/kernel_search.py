"""What an ISMCTS iteration needs of the compiled engine besides its playout (kernel_policy.py): a
determinization dealt straight into a game's flat array, and the moves the search chooses among.

:func:`deal_sample` deals as bots/determinize.py ``Determinizer`` does (its ``DealPlan``), with a
SplitMix64 stream for the shuffle instead of ``random.Random``: the same distribution over deals,
with no reference ``GameState`` made per iteration. :func:`decisions` lists the moves of
bots/ismcts.py ``_decisions``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .codes import K_CALL_UNO, K_CATCH_UNO, K_PLAY, UNO_SHIFT
from .kernel_apply import apply_move
from .kernel_base import ROUND_OVER, below, hand_size, holds_color, jit, next_output, o_challenge_hand, o_draw, o_hands
from .kernel_legal import legal_moves
from .kernel_policy import playout
from .layout import CODES, S_CH_BLUFF, S_CURRENT, S_DRAW_LEN, S_DRAW_POS, S_N, S_PHASE, S_RNG


@jit
def deal_sample(template: Any, a: Any, fixed: Any, arrangement: Any, shuffle_all: bool, fresh: int,
                players: Any, needs: Any, pile_size: int, attacker: int, colour: int, d: int, seed: int) -> bool:
    """Copy ``template`` (a determinization of the view, as ``to_array`` made it) into ``a`` and deal
    its hidden cards afresh: ``fresh`` Fisher-Yates steps from the top of ``arrangement`` (after a
    whole shuffle first if ``shuffle_all``), the shuffled cards read from the top into the hands of
    ``players`` (``needs[i]`` each, on top of their ``fixed`` rows of counts) and then ``pile_size``
    into the draw pile (0: the template's pile stands, SETUP-9's kept Wild Draw Fours); a new seed
    for the state's own shuffles; the pending challenge's bluff judged on the dealt hand (WD4-1,
    ``attacker`` -1: none). Returns that bluff. ``d``: cards in play."""
    a[:] = template
    n = a[S_N]
    total = arrangement.shape[0]
    stream = np.uint64(seed)
    if shuffle_all:
        for m in range(total, 1, -1):
            stream, j = below(stream, m)
            t = arrangement[m - 1]
            arrangement[m - 1] = arrangement[j]
            arrangement[j] = t
    for m in range(total, max(1, total - fresh), -1):
        stream, j = below(stream, m)
        t = arrangement[m - 1]
        arrangement[m - 1] = arrangement[j]
        arrangement[j] = t
    at = total - 1
    hands = o_hands(n)
    for i in range(players.shape[0]):
        row = hands + players[i] * CODES
        for c in range(CODES):
            a[row + c] = fixed[players[i], c]
        for _ in range(needs[i]):
            a[row + arrangement[at]] += 1
            at -= 1
    if pile_size > 0:
        start = o_draw(n)
        for i in range(pile_size):
            a[start + i] = arrangement[at]
            at -= 1
        a[S_DRAW_LEN] = pile_size
        a[S_DRAW_POS] = 0
    stream, out = next_output(stream)
    a[S_RNG] = np.int64(out)
    if attacker < 0:
        return False
    bluff = holds_color(a, n, attacker, colour)
    a[S_CH_BLUFF] = 1 if bluff else 0
    shown = o_challenge_hand(n, d)
    row = hands + attacker * CODES
    for c in range(CODES):
        a[shown + c] = a[row + c]
    return bluff


@jit
def decisions(cfg: Any, a: Any, out: Any) -> int:
    """The moves the search chooses among (bots/ismcts.py ``_decisions``) into ``out``: the player
    to act's, but UNO calls and catches (left to the playouts), and where a play may call UNO,
    only the plays that do (UNO-1)."""
    p = a[S_CURRENT]
    count = legal_moves(cfg, a, p, out)
    k = 0
    calling = False
    for i in range(count):
        kind = out[i] & 15
        if kind != K_CALL_UNO and kind != K_CATCH_UNO:
            out[k] = out[i]
            k += 1
            if kind == K_PLAY and out[i] >> UNO_SHIFT & 1:
                calling = True
    if not calling or hand_size(a, a[S_N], p) != 2:
        return k
    kept = 0
    for i in range(k):
        if not (out[i] & 15 == K_PLAY and (out[i] >> UNO_SHIFT & 1) == 0):
            out[kept] = out[i]
            kept += 1
    return kept


@jit
def advance(cfg: Any, a: Any, code: int, out: Any) -> int:
    """Make the move ``code``, then list the next :func:`decisions` into ``out``: their number, or
    -1 once the round is over (a tree walk's step in one compiled call)."""
    apply_move(cfg, a, code)
    if a[S_PHASE] >= ROUND_OVER:
        return -1
    return decisions(cfg, a, out)


@jit
def deal_and_list(cfg: Any, template: Any, a: Any, fixed: Any, arrangement: Any, plan: Any, out: Any,
                  seed: int) -> int:
    """:func:`deal_sample` with its settings in ``plan`` (``[shuffle_all, fresh, pile_size, attacker,
    colour, d, players...]``, then as many needs; ``shuffle_all`` is cleared), then the
    :func:`decisions` of the deal into ``out``: their number, or -1 if the round is over. The
    bluff, if a challenge is pending, is ``a[S_CH_BLUFF]``."""
    k = (plan.shape[0] - 6) // 2
    deal_sample(template, a, fixed, arrangement, plan[0] != 0, plan[1], plan[6:6 + k], plan[6 + k:],
                plan[2], plan[3], plan[4], plan[5], seed)
    plan[0] = 0
    if a[S_PHASE] >= ROUND_OVER:
        return -1
    return decisions(cfg, a, out)


@jit
def expand_and_playout(cfg: Any, a: Any, code: int, max_moves: int, seed: int, out: Any, credit: Any) -> int:
    """Make the move ``code`` (-1: none), then kernel_policy.playout: a tree walk's last step and
    its playout in one compiled call; the playout's moves."""
    if code >= 0:
        apply_move(cfg, a, code)
    return playout(cfg, a, max_moves, seed, out, credit)
