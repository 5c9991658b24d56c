"""The baseline: a uniformly random legal move."""

from __future__ import annotations

import random

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
        moves = view.legal_moves
        if not moves:
            return None
        if view.current != view.player and not view.round_over and rng.random() >= self.out_of_turn:
            return None
        return rng.choice(moves)


register_bot("random", RandomBot)
