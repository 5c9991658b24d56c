"""The baseline: a uniformly random legal move."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.moves import Move
from ..engine.view import PlayerView
from .base import register_bot


class RandomBot:
    """Plays a uniformly random legal move on its turn; out of turn it acts (a random one of its
    out-of-turn moves) with probability ``out_of_turn``."""

    name = "random"

    def __init__(self, out_of_turn: float = 0.5) -> None:
        self.out_of_turn = out_of_turn

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        return self.act_on_moves(view.legal_moves, view.current == view.player or view.round_over, rng)

    def act_on_moves(self, moves: Sequence[Move], on_turn: bool, rng: random.Random) -> Move | None:
        """The same choice from the player's legal moves alone: this bot reads nothing else of a
        view, so :func:`unoengine.bots.turns.next_move` asks it this way and builds no view.
        ``on_turn``: the move is the player's to make (its turn, or the deal after a round)."""
        if not moves:
            return None
        if not on_turn and rng.random() >= self.out_of_turn:
            return None
        return rng.choice(moves)


register_bot("random", RandomBot)
