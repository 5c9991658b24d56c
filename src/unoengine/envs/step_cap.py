"""The environments' default episode cap, ``max_steps="auto"`` (docs/rl.md, "Step cap").

A round of UNO has no bound on its length: the discard pile is shuffled back into the draw pile
whenever the draw pile runs out (PLAY-4), so two policies that only ever draw, or never end the
round otherwise, can play for ever. A learner needs episodes that end, so the Gymnasium and
PettingZoo environments truncate an episode after a cap on its steps, by default one that grows
with the player count and that almost no real round reaches: ``benchmarks/learn_episode_lengths.py``
measures the rounds of ``RandomBot`` and ``HeuristicBot`` tables, and the caps lie well beyond
the longest round seen there (the figures are in docs/rl.md).
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

MaxSteps: TypeAlias = int | Literal["auto"] | None
"""What ``max_steps`` takes: a positive int, ``"auto"`` (the default cap) or None (no cap)."""

AGENT_STEPS_PER_PLAYER: Final = 20_000
"""PettingZoo: the default cap is this many agent steps (every seat's, ``WAIT`` included) per player."""

LEARNER_STEPS_PER_PLAYER: Final = 10_000
"""Gymnasium: the default cap is this many learner steps per player."""


MATCH_ROUNDS: Final = 20
"""PettingZoo with ``match=True``: the default cap is that of this many rounds (a match to 500
points takes a handful of rounds: a round scores a hundred points or more)."""


def auto_agent_steps(num_players: int, match: bool = False) -> int:
    """The default cap on a PettingZoo episode's agent steps at ``num_players`` seats (a round,
    or a whole match when ``match``)."""
    return AGENT_STEPS_PER_PLAYER * num_players * (MATCH_ROUNDS if match else 1)


def auto_learner_steps(num_players: int) -> int:
    """The default cap on a Gymnasium episode's learner steps at ``num_players`` seats."""
    return LEARNER_STEPS_PER_PLAYER * num_players
