"""The heuristic bot's scored plays, for a compiled policy that draws from the bot's own stream
(bots/compiled_policies.py): here, among the kernels, so that the stale-cache check of
kernel_base (a hash of compiled/*.py) covers it with the kernel_policy functions it compiles in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .codes import K_CALL_UNO, K_CATCH_UNO, K_PLAY
from .kernel_base import CHOOSE_COLOR, ROUND_OVER, jit
from .kernel_legal import legal_moves
from .kernel_policy import colour_counts, play_score
from .layout import S_CURRENT, S_N, S_PHASE


@jit
def heuristic_plays(cfg: Any, a: Any, player: int, buffer: Any, scores: Any) -> int:
    """How many plays HeuristicBot scores now (one ``rng.random()`` each), their scores into
    ``scores`` in the legal order; 0 when it decides without ``_best_play`` (a catch or a late
    call first, UNO-2 and UNO-4; the round over; a colour to name; no play, as when it decides
    whether to challenge, WD4-3)."""
    count = legal_moves(cfg, a, player, buffer)
    plays = 0
    for i in range(count):
        kind = buffer[i] & 15
        if kind == K_CATCH_UNO or kind == K_CALL_UNO:
            return 0
        if kind == K_PLAY:
            plays += 1
    phase = a[S_PHASE]
    if plays == 0 or phase >= ROUND_OVER or (a[S_CURRENT] == player and phase == CHOOSE_COLOR):
        return 0
    counts = np.zeros(4, dtype=np.int64)
    colour_counts(a, a[S_N], player, counts)
    k = 0
    for i in range(count):
        if buffer[i] & 15 == K_PLAY:
            scores[k] = play_score(cfg, a, buffer[i], counts)
            k += 1
    return plays
