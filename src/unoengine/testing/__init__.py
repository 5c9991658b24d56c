"""Tools for test suites built on unoengine: hypothesis strategies, the invariant checks the
engine's own property tests use, and the random-game consistency check for bots and wrappers.

Needs hypothesis: the ``testing`` extra (``pip install '.[testing]'`` from a clone). See docs/testing.md.
"""

from __future__ import annotations

from .checks import (
    GameChecker,
    candidate_moves,
    check_all_expensive,
    check_apply_pure,
    check_cards_conserved,
    check_determinization,
    check_events,
    check_illegal_moves_rejected,
    check_legal_moves_apply,
    check_phase_consistency,
    check_transition,
    check_view_hides,
    expected_jump_ins,
    expected_turn_moves,
)
from .random_game import Bot, check_random_game, random_bot
from .strategies import (
    OPTION_VALUES,
    games,
    illegal_moves_in,
    legal_moves_in,
    moves,
    option_changes,
    profiles,
    states,
)

__all__ = [
    "OPTION_VALUES",
    "Bot",
    "GameChecker",
    "candidate_moves",
    "check_all_expensive",
    "check_apply_pure",
    "check_cards_conserved",
    "check_determinization",
    "check_events",
    "check_illegal_moves_rejected",
    "check_legal_moves_apply",
    "check_phase_consistency",
    "check_random_game",
    "check_transition",
    "check_view_hides",
    "expected_jump_ins",
    "expected_turn_moves",
    "games",
    "illegal_moves_in",
    "legal_moves_in",
    "moves",
    "option_changes",
    "profiles",
    "random_bot",
    "states",
]
