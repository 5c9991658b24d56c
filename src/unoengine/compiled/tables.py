"""The card tables of the kernels, as numpy arrays made once from the reference engine's own tables.

numba freezes a module-level array into the compiled code as a constant, so a lookup costs what it
costs in C. Each table is built from engine/cards.py and engine/legality.py, never written out by
hand: the rules of matching (PLAY-1..3) and of stacking (HOUSE-1) stay in one place.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..engine.cards import COLOR_OF, IS_WILD, NUM_CARD_CODES, SYMBOL_OF
from ..engine.legality import MATCHES, STACKS_ON
from ..engine.profile import STACKING

COLOR_OF_T: Final = np.array(COLOR_OF, dtype=np.int64)
"""Printed colour of each card code, -1 for a wild (DECK-1..4)."""
SYMBOL_OF_T: Final = np.array(SYMBOL_OF, dtype=np.int64)
"""0..9, SKIP, REVERSE, DRAW_TWO; the code itself for a wild."""
IS_WILD_T: Final = np.array(IS_WILD, dtype=np.bool_)
MATCHES_T: Final = np.array(MATCHES, dtype=np.bool_)
"""``MATCHES_T[top, color, card]``: may ``card`` go on ``top`` with ``color`` in play (PLAY-1..3)."""
STACKS_ON_T: Final = np.array([STACKS_ON[mode] for mode in STACKING], dtype=np.bool_)
"""``STACKS_ON_T[stacking, top, card]``: may ``card`` answer the Draw card ``top`` (HOUSE-1)."""
DEALER_VALUE_T: Final = np.array(
    [SYMBOL_OF[c] if not IS_WILD[c] and SYMBOL_OF[c] <= 9 else 0 for c in range(NUM_CARD_CODES)], dtype=np.int64)
"""SETUP-2: what each card counts in the dealer draw (numbers their face, the rest zero)."""
