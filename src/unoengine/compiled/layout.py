"""Where each part of a game lives in its flat state array (docs/compiled.md, "Layout").

A game is one 1-D ``int64`` array; a batch of games of one profile and player count is a 2-D array
with one game per row. The first :data:`HEADER` slots hold the scalars (named ``S_*`` below); the
per-player and per-card blocks follow, at offsets that depend only on the player count ``n`` and the
number of cards in play ``d`` (:func:`offsets`). Cards are codes 0..57 (engine/cards.py); a hand is
a row of 58 counts, so the reference engine's sorted hand tuples convert exactly.

This module is plain Python: the kernels compute the same offsets with the arithmetic of
:func:`offsets` written out (kernel_base.py), and tests/test_compiled_layout.py holds the two equal.
"""

from __future__ import annotations

from typing import Final, NamedTuple

CODES: Final = 58
"""Card codes (engine/cards.py NUM_CARD_CODES)."""

# --- scalars ---------------------------------------------------------------------------------
S_N: Final = 0
"""Number of players."""
S_COLOR: Final = 1
"""Colour in play 0..3, or -1 while a first wild awaits its colour (SETUP-8)."""
S_DIRECTION: Final = 2
"""+1 clockwise, -1 counter-clockwise (PLAY-8)."""
S_CURRENT: Final = 3
S_PHASE: Final = 4
"""engine/state.py Phase values."""
S_DRAWN: Final = 5
"""The card just drawn in phase DRAWN (PLAY-5), else -1."""
S_UNO_EXPOSED: Final = 6
"""The player who may be caught (UNO-2), else -1."""
S_PASSES: Final = 7
"""Consecutive passes with nothing to draw (PLAY-7)."""
S_RNG: Final = 8
"""The seed of the next shuffle, a uint64 stored as its int64 bit pattern."""
S_PENDING_DRAW: Final = 9
"""Cards the player to act draws on Accept (HOUSE-1, ACT-5)."""
S_DRAW_LEN: Final = 10
"""Length of the draw pile block in use (cards already drawn included, as the reference keeps them)."""
S_DRAW_POS: Final = 11
"""Index of the next card to draw in the draw pile block (top first)."""
S_DISCARD_LEN: Final = 12
"""Cards in the discard pile (block bottom first: its last card is the top card)."""
S_CH_ACTIVE: Final = 13
"""1 while a Wild Draw Four awaits the victim's decision (WD4-2, WD4-3)."""
S_CH_ATTACKER: Final = 14
S_CH_VICTIM: Final = 15
S_CH_BLUFF: Final = 16
S_CH_COLOR: Final = 17
"""The colour in play when the Wild Draw Four was played (WD4-1)."""
S_RV_ACTIVE: Final = 18
"""1 when a hand was shown by a challenge (WD4-3): ``S_RV_VIEWER`` saw ``S_RV_OWNER``'s cards."""
S_RV_VIEWER: Final = 19
S_RV_OWNER: Final = 20
S_DEALER: Final = 21
S_ROUND: Final = 22
"""Round number, from 1."""
S_LAST_ACTIVE: Final = 23
"""1 once a round of the match has ended (the match's last_round)."""
S_LAST_WINNER: Final = 24
S_LAST_BLOCKED: Final = 25
S_MATCH_WINNER: Final = 26
"""The match winner once the match is over (SCORE-2..4), else -1."""
HEADER: Final = 32
"""Scalar slots (a few spare)."""


class Offsets(NamedTuple):
    """Start of each block for ``n`` players and ``d`` cards in play."""

    scores: int
    """n: match scores."""
    last_hand_points: int
    """n: points left in each hand when the last round ended."""
    last_points_won: int
    """n: what each score gained from the last round."""
    hand_size: int
    """n: cards in each hand (kept equal to the row sums of ``hands``)."""
    hands: int
    """n * 58: ``hands + p * 58 + card`` counts player p's copies of card."""
    known: int
    """n * n * 58: ``known + (v * n + o) * 58 + card``: copies of card that v knows o holds."""
    draw: int
    """d: the draw pile, top first, cards already drawn before S_DRAW_POS kept."""
    discard: int
    """d: the discard pile, bottom first."""
    challenge_hand: int
    """58: the attacker's hand right after the Wild Draw Four (what a challenge shows, WD4-3)."""
    reveal: int
    """58: the hand last shown by a challenge."""
    size: int
    """Length of the whole array."""


def offsets(n: int, d: int) -> Offsets:
    """The block offsets of a game of ``n`` players with ``d`` cards in play."""
    scores = HEADER
    hands = scores + 4 * n
    known = hands + n * CODES
    draw = known + n * n * CODES
    discard = draw + d
    challenge_hand = discard + d
    reveal = challenge_hand + CODES
    return Offsets(scores, scores + n, scores + 2 * n, scores + 3 * n, hands, known, draw, discard,
                   challenge_hand, reveal, reveal + CODES)
