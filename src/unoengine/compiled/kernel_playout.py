"""Whole moves and whole games inside one compiled call: a checked move (``CompiledGame.push``), and
random playouts for benchmarks, the lockstep tests and rollouts, with no Python between moves.

A move is picked uniformly among *all* legal moves (every player's, out-of-turn ones included), as
benchmarks/bench_vs_rlcard.py does for the reference engine, with a draw below the number of moves
from a SplitMix64 stream of its own (kernel_base.below), so a playout is a function of its seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .codes import MAX_LEGAL
from .kernel_apply import apply_move
from .kernel_base import ROUND_OVER, below, jit
from .kernel_deal import new_game
from .kernel_legal import legal_moves
from .layout import S_PHASE


@jit
def apply_if_legal(cfg: Any, a: Any, code: int, buffer: Any) -> bool:
    """Make the move ``code`` if it is among the legal moves (listed into ``buffer``), in one
    compiled call: what ``CompiledGame.push`` costs is then one call, not two."""
    count = legal_moves(cfg, a, -1, buffer)
    for i in range(count):
        if buffer[i] == code:
            apply_move(cfg, a, code)
            return True
    return False


@jit
def random_moves(cfg: Any, a: Any, max_moves: int, seed: int, trace: Any) -> int:
    """Play random legal moves on ``a`` in place until the round is over or ``max_moves`` were made;
    the number made. ``trace`` (at least ``max_moves`` long, or empty) receives the codes played."""
    buffer = np.empty(MAX_LEGAL, dtype=np.int64)
    stream = np.uint64(seed)
    made = 0
    while made < max_moves and a[S_PHASE] < ROUND_OVER:
        count = legal_moves(cfg, a, -1, buffer)
        stream, pick = below(stream, count)
        code = buffer[pick]
        if trace.shape[0] > made:
            trace[made] = code
        apply_move(cfg, a, code)
        made += 1
    return made


@jit
def random_rounds(cfg: Any, n: int, first_seed: int, games: int, a: Any) -> int:
    """Deal ``games`` new matches (seeds ``first_seed``, ``first_seed + 1``, ...) into the scratch
    array ``a`` and play each first round to its end at random; the total number of moves."""
    empty = np.empty(0, dtype=np.int64)
    total = 0
    for g in range(games):
        a[:] = 0
        new_game(cfg, n, first_seed + g, a)
        total += random_moves(cfg, a, 1 << 40, (first_seed + g) ^ 0x5DEECE66D, empty)
    return total
