"""A greedy UNO bot: play the card worth the most points, call UNO, catch others; else draw."""

from __future__ import annotations

import random

from unoengine import CatchUno, Move, Play, PlayerView


class GreedyBot:
    name = "greedy"

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        moves = view.legal_moves
        catches = [m for m in moves if isinstance(m, CatchUno)]
        if catches:
            return catches[0]
        own = [m for m in moves if m.player == view.player]
        if not own:
            return None
        plays = [m for m in own if isinstance(m, Play) and (m.uno or len(view.hand) != 2)]
        if plays:
            return max(plays, key=lambda m: (m.card >= 52, m.card % 13))
        return own[0]
