"""The shipped bots' moves on a compiled game array, drawing from the bot's own random stream
exactly as the Python bot does: the same move for the same game and stream (docs/bots.md,
"Backends"), with no reference state made.

- :class:`~.random_bot.RandomBot`: out of turn one ``rng.random()`` against ``out_of_turn``,
  then ``rng.choice`` over the player's legal moves, which the kernels list in the reference order.
- :class:`~.heuristic.HeuristicBot`: ``compiled/kernel_policy.py``'s ``heuristic_move`` breaks a
  tie between equally scored plays with one number ``u``; the Python bot draws one
  ``rng.random()`` per play and takes the best (score, draw). Here the same draws are made, the
  play the Python bot would take is found among the tied ones, and ``u`` names it, so the
  stream is consumed and the move chosen as in the Python bot. Whether to challenge a Wild Draw
  Four (WD4-3) draws nothing; ``kernel_policy.worth_challenging`` compares the same exact integers
  as the bot (a float product once rounded apart from it at exact ties such as
  1 - C(19,4)/C(20,4) against 1/5).

A policy is ``(cfg, a, player, on_turn, rng, buffer) -> code`` (-1: no move, the Python bot's
None).
:func:`compiled_policy` gives one for a bot of exactly these classes (a subclass may change
anything), None for every other bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from ..compiled.kernel_legal import legal_moves
from ..compiled.kernel_policy import heuristic_move
from ..compiled.kernel_scores import heuristic_plays
from .heuristic import HeuristicBot
from .random_bot import RandomBot

Policy = Callable[[Any, Any, int, bool, random.Random, Any], int]


_SCORES: Final = np.empty(4096, dtype=np.int64)
"""Scratch for :func:`heuristic_plays` (more plays than any hand can have: 58 cards x 4 colours x
the UNO flag x the targets of ten players is far less)."""


def heuristic_code(cfg: Any, a: Any, player: int, on_turn: bool, rng: random.Random, buffer: Any) -> int:
    """HeuristicBot's move code for ``player`` (-1: none), its stream used as the Python bot uses it."""
    plays = heuristic_plays(cfg, a, player, buffer, _SCORES)
    u = 0.0
    if plays:
        scores = _SCORES[:plays].tolist()
        keys = [rng.random() for _ in range(plays)]
        chosen = max(range(plays), key=lambda i: (scores[i], keys[i]))
        top = scores[chosen]
        tied = [i for i in range(plays) if scores[i] == top]
        u = (tied.index(chosen) + 0.5) / len(tied)  # kernel_policy.best_play takes tied[int(u * ties)]
    return int(heuristic_move(cfg, a, player, u, buffer))


def random_policy(out_of_turn: float) -> Policy:
    """RandomBot(out_of_turn)'s move code, its stream used as :meth:`RandomBot.act_on_moves` uses it."""

    def random_code(cfg: Any, a: Any, player: int, on_turn: bool, rng: random.Random, buffer: Any) -> int:
        count = legal_moves(cfg, a, player, buffer)
        if count == 0:
            return -1
        if not on_turn and rng.random() >= out_of_turn:
            return -1
        return int(buffer[rng.choice(range(count))])  # choice draws as over a list of the moves

    return random_code


def compiled_policy(bot: object) -> Policy | None:
    """The compiled policy of a shipped bot (exactly RandomBot or HeuristicBot), else None."""
    if type(bot) is HeuristicBot:
        return heuristic_code
    if type(bot) is RandomBot:
        return random_policy(bot.out_of_turn)
    return None
