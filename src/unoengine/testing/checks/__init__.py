"""Invariant checks for unoengine states and transitions, for our test suite and for yours.

Every check raises AssertionError with a message naming the state and what is wrong; the
rule IDs of RULES.md the check enforces are cited in its docstring. The engine's own
random-game fuzz and hypothesis state machine (tests/test_properties.py) use exactly these;
:func:`unoengine.testing.check_random_game` runs them over a game your bot or wrapper plays.
The expected legal moves are computed from the rules, independently of the engine's
move generator, so the two can be compared.

Cheap checks (run after every move): :func:`check_hands_sorted`, :func:`check_cards_conserved`,
:func:`check_phase_consistency`, :func:`check_transition`, :class:`GameChecker` (scores and the
move bound). Expensive checks (run on a sample of states): :func:`check_legal_moves_apply`,
:func:`check_illegal_moves_rejected`, :func:`check_apply_pure`, :func:`check_view_hides`.

Every name is importable from here; the parts, each importing only parts listed before it:

- :mod:`.common`: helpers the others share (:func:`describe`, :func:`snapshot`, :func:`fingerprint`).
- :mod:`.expected`: the rules' own model of the legal moves (:func:`expected_turn_moves`,
  :func:`expected_jump_ins`, :func:`next_dealer` ...), independent of the engine's move generator.
- :mod:`.invariants`: the cheap checks, :class:`GameChecker` and the move bounds.
- :mod:`.events`: :func:`check_events`, the events a move reports against the state it gives.
- :mod:`.probes`: the expensive checks and the candidate moves and resampled states they try.
"""

from __future__ import annotations

from .common import describe, fingerprint, snapshot
from .events import check_events
from .expected import (
    STACK_ANSWERS,
    draw_kind,
    expected_jump_ins,
    expected_turn_moves,
    matches,
    needs_target,
    next_dealer,
    playable_from,
)
from .invariants import (
    MAX_MOVES_PER_ROUND,
    MAX_MOVES_PER_ROUND_UNIFORM,
    GameChecker,
    check_cards_conserved,
    check_hands_sorted,
    check_phase_consistency,
    check_round_result,
    check_transition,
    check_turn_moves,
    deck_multiset,
)
from .probes import (
    all_other_candidates,
    all_play_candidates,
    candidate_moves,
    check_all_expensive,
    check_apply_pure,
    check_determinization,
    check_illegal_moves_rejected,
    check_legal_moves_apply,
    check_view_hides,
    resample_hidden,
)

# Every public name, part by part.
__all__ = ["describe", "fingerprint", "snapshot"]  # .common
__all__ += [  # .expected
    "STACK_ANSWERS",
    "draw_kind",
    "expected_jump_ins",
    "expected_turn_moves",
    "matches",
    "needs_target",
    "next_dealer",
    "playable_from",
]
__all__ += [  # .invariants
    "MAX_MOVES_PER_ROUND",
    "MAX_MOVES_PER_ROUND_UNIFORM",
    "GameChecker",
    "check_cards_conserved",
    "check_hands_sorted",
    "check_phase_consistency",
    "check_round_result",
    "check_transition",
    "check_turn_moves",
    "deck_multiset",
]
__all__ += ["check_events"]  # .events
__all__ += [  # .probes
    "all_other_candidates",
    "all_play_candidates",
    "candidate_moves",
    "check_all_expensive",
    "check_apply_pure",
    "check_determinization",
    "check_illegal_moves_rejected",
    "check_legal_moves_apply",
    "check_view_hides",
    "resample_hidden",
]
