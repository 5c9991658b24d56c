"""A profile as the kernels read it: one ``int64`` array of rule options and card tables.

:func:`config_of` is also where the compiled engine refuses what it cannot run, at construction
and with the rule named (issue 34: "never run wrong"): a custom effect registered by a program
(ACT-8; only the built-in ones are compiled) and the legacy MT19937 shuffle (docs/shuffle.md).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..engine.cards import BLANK, NUM_CARD_CODES, WILD_CUSTOMIZABLE
from ..engine.effects import is_built_in
from ..engine.errors import UnoEngineError, quoted
from ..engine.profile import (
    FIRST_CARD_WILD_DRAW_FOUR,
    NEXT_DEALER,
    SCORING_MODES,
    STACKING,
    TWO_PLAYER_REVERSE,
    WILD_DRAW_FOUR_MODES,
    Profile,
)
from ..engine.shuffling import SPLITMIX64_V1

C_HAND_SIZE: Final = 0
C_WILD_DRAW_FOUR: Final = 1
"""Index in WILD_DRAW_FOUR_MODES: 0 challenge, 1 enforced, 2 unrestricted (WD4-1, WD4-6)."""
C_FIRST_WD4: Final = 2
"""0 redraw (SETUP-9), 1 apply (HOUSE-7)."""
C_NEXT_DEALER: Final = 3
"""0 left, 1 winner (SETUP-11)."""
C_DECLINE: Final = 4
"""1 when a player who can play may draw instead (HOUSE-5 off)."""
C_TWO_PLAYER_REVERSE: Final = 5
"""0 reverse, 1 skip (HOUSE-6)."""
C_SEVEN_ZERO: Final = 6
"""HOUSE-3."""
C_DRAW_UNTIL: Final = 7
"""HOUSE-4."""
C_STACKING: Final = 8
"""Index in STACKING: 0 off, 1 same-kind, 2 cross, 3 equal-or-higher (HOUSE-1)."""
C_JUMP_IN: Final = 9
"""HOUSE-2."""
C_UNO_PENALTY: Final = 10
"""UNO-2, HOUSE-8."""
C_SCORING: Final = 11
"""Index in SCORING_MODES: 0 winner-takes-others, 1 own-hand-lowest-wins, 2 one-point-per-round."""
C_TARGET: Final = 12
"""SCORE-2..4: the target score."""
C_CUSTOM: Final = 13
"""The custom effect (ACT-8): index in BUILTIN_EFFECTS."""
C_CUSTOM_TARGET: Final = 14
"""1 when the custom effect names another player."""
C_DECK: Final = 15
"""Cards in play (the deck after any set aside, DECK-4)."""
C_PLAY_DECK: Final = 32
"""58: copies of each card code in play."""
C_POINTS: Final = C_PLAY_DECK + NUM_CARD_CODES
"""58: points of each card code (SCORE-1)."""
CONFIG_SIZE: Final = C_POINTS + NUM_CARD_CODES

BUILTIN_EFFECTS: Final = ("wild", "swap-hands", "shuffle-hands", "others-draw-one")
"""The custom effects the kernels carry out (engine/effects.py BUILT_IN); index = C_CUSTOM."""
_EFFECT_TARGETS: Final = (0, 1, 0, 0)


class UnsupportedRuleError(UnoEngineError):
    """The compiled engine cannot run this profile (or state): it is refused, never run wrong."""


def config_of(profile: Profile) -> npt.NDArray[np.int64]:
    """The kernels' view of ``profile``; UnsupportedRuleError names what cannot be compiled."""
    if not isinstance(profile, Profile):
        raise UnsupportedRuleError(f"profile: expected a Profile, got a {type(profile).__name__}")
    if profile.shuffle != SPLITMIX64_V1:
        raise UnsupportedRuleError(
            f"profile {quoted(profile.name)}: setup.shuffle = {profile.shuffle!r} is not compiled; the compiled "
            f"engine shuffles with {SPLITMIX64_V1!r} only (SETUP-1, docs/shuffle.md)")
    deck = profile.play_deck
    custom = 0
    if profile.custom_effect in BUILTIN_EFFECTS and is_built_in(profile.custom_effect):
        custom = BUILTIN_EFFECTS.index(profile.custom_effect)
    elif deck[WILD_CUSTOMIZABLE] or deck[BLANK]:
        raise UnsupportedRuleError(
            f"profile {quoted(profile.name)}: play.custom_effect = {quoted(profile.custom_effect)} is a program's "
            f"own effect (ACT-8); the compiled engine runs only {', '.join(BUILTIN_EFFECTS)}")
    cfg = np.zeros(CONFIG_SIZE, dtype=np.int64)
    cfg[C_HAND_SIZE] = profile.hand_size
    cfg[C_WILD_DRAW_FOUR] = WILD_DRAW_FOUR_MODES.index(profile.wild_draw_four)
    cfg[C_FIRST_WD4] = FIRST_CARD_WILD_DRAW_FOUR.index(profile.first_card_wild_draw_four)
    cfg[C_NEXT_DEALER] = NEXT_DEALER.index(profile.next_dealer)
    cfg[C_DECLINE] = profile.decline_to_play
    cfg[C_TWO_PLAYER_REVERSE] = TWO_PLAYER_REVERSE.index(profile.two_player_reverse)
    cfg[C_SEVEN_ZERO] = profile.seven_zero
    cfg[C_DRAW_UNTIL] = profile.draw_until_playable
    cfg[C_STACKING] = STACKING.index(profile.stacking)
    cfg[C_JUMP_IN] = profile.jump_in
    cfg[C_UNO_PENALTY] = profile.uno_penalty
    cfg[C_SCORING] = SCORING_MODES.index(profile.scoring)
    cfg[C_TARGET] = profile.target_score
    cfg[C_CUSTOM] = custom
    cfg[C_CUSTOM_TARGET] = _EFFECT_TARGETS[custom]
    cfg[C_DECK] = profile.deck_size
    cfg[C_PLAY_DECK:C_PLAY_DECK + NUM_CARD_CODES] = deck
    cfg[C_POINTS:C_POINTS + NUM_CARD_CODES] = profile.points
    return cfg
