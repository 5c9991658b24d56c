"""A bot that plays as a sensible person does: it calls UNO, catches others, challenges when the
odds favour it, sheds high-point cards, keeps a wild for the end, and turns Draw cards and Skips
on a player about to win."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from ..engine.cards import COLOR_OF, DRAW_TWO, IS_WILD, REVERSE, SKIP, SYMBOL_OF, WILD_DRAW_FOUR, Card
from ..engine.legality import holds_color
from ..engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, NextRound, Pass, Play
from ..engine.state import Phase
from ..engine.view import PlayerView
from .base import register_bot
from .determinize import unseen_cards

_ATTACKS = (SKIP, REVERSE, DRAW_TWO)


class HeuristicBot:
    """Rule-of-thumb play; see the module docstring. Deterministic but for ties, broken by ``rng``."""

    name = "heuristic"

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        moves = view.legal_moves
        if not moves:
            return None
        for kind in (CatchUno, CallUno):  # UNO-2, UNO-4: never miss a catch or a late call
            found = [m for m in moves if isinstance(m, kind)]
            if found:
                return found[0]
        if view.round_over:
            return next(m for m in moves if isinstance(m, NextRound))
        if view.current != view.player:
            jumps = [m for m in moves if isinstance(m, Play)]
            return self._best_play(view, jumps, rng) if jumps else None  # HOUSE-2: jumping in sheds a card
        if view.phase is Phase.CHOOSE_COLOR:
            return ChooseColor(view.player, best_color(view.hand))
        plays = [m for m in moves if isinstance(m, Play)]
        if view.phase is Phase.CHALLENGE:
            if plays:  # HOUSE-1: pass the total on rather than draw it
                return self._best_play(view, plays, rng)
            return Challenge(view.player) if _worth_challenging(view) else Accept(view.player)
        if view.phase is Phase.PENALTY:
            return self._best_play(view, plays, rng) if plays else Accept(view.player)
        if plays:
            best = self._best_play(view, plays, rng)
            if is_bluff(best, view.hand, view.color) and Draw(view.player) in moves:
                return Draw(view.player)  # WD4-2: rather draw than bluff
            return best
        for fallback in (Draw, Pass):
            for m in moves:
                if isinstance(m, fallback):
                    return m
        return moves[0]

    def _best_play(self, view: PlayerView, plays: list[Play], rng: random.Random) -> Play:
        """The play with the best score; ties broken at random."""
        scored = [(self._score(view, m), rng.random(), m) for m in plays]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def _score(self, view: PlayerView, move: Play) -> float:
        return play_score(move, view.hand, view.hand_sizes, view.direction, view.color, view.profile.points)


def play_score(move: Play, hand: tuple[Card, ...], sizes: Sequence[int], direction: int, color: int | None,
               points: Sequence[int]) -> float:
    """How much the heuristic likes a play, from what its player can see (the ISMCTS bot's
    playouts score plays with it too). ``color`` is the colour in play, None if not known."""
    card = move.card
    n = len(sizes)
    score = float(points[card])  # shed high-point cards first (SCORE-1)
    threat = min(sizes[(move.player + direction * k) % n] for k in range(1, n)) <= 2
    next_size = sizes[(move.player + direction) % n]
    if IS_WILD[card]:
        # keep wilds for the end, unless they are all that is left or someone is about to win
        score -= 60 if len(hand) > 2 else -10
        if card == WILD_DRAW_FOUR and next_size <= 2:
            score += 120
        if is_bluff(move, hand, color):
            score -= 200  # the bot does not bluff
        if move.color is not None:
            score += 5 * sum(1 for c in hand if COLOR_OF[c] == move.color and c != card)
    else:
        symbol = SYMBOL_OF[card]
        if symbol in _ATTACKS and next_size <= 2:
            score += 100  # turn the attack on the player about to win
        # stay in the colour held most, so the next turn has a play too
        score += 3 * sum(1 for c in hand if COLOR_OF[c] == COLOR_OF[card] and c != card)
    if move.target is not None:  # Swap Hands, a 7 under seven-zero: take the smallest hand
        score += 30 - 5 * sizes[move.target]
    if move.uno:
        score += 1000  # UNO-1: always call
    if threat and not IS_WILD[card] and SYMBOL_OF[card] in _ATTACKS:
        score += 10
    return score


def is_bluff(move: Play, hand: tuple[Card, ...], color: int | None) -> bool:
    """WD4-1: a Wild Draw Four played while holding the colour in play (None: no colour yet)."""
    return move.card == WILD_DRAW_FOUR and color is not None and holds_color(hand, color)


def best_color(hand: Sequence[Card]) -> int:
    """The colour held most (red on a tie or an all-wild hand)."""
    counts = Counter(COLOR_OF[c] for c in hand if not IS_WILD[c])
    return max(range(4), key=lambda k: (counts.get(k, 0), -k))


def _worth_challenging(view: PlayerView) -> bool:
    """WD4-3..5: challenge when the chance that the attacker held the colour in play beats the cost.

    Guilty: the attacker draws the total T instead of us (a swing of 2T); innocent: we draw 2 more.
    So challenge when P(guilty) > 1 / (T + 1). The chance is hypergeometric: the attacker's cards
    (those left plus none other known) drawn from every card this player has not seen. With
    P(clean) = C(total - of colour, held) / C(total, held), that is T * C(total, held) >
    (T + 1) * C(total - of colour, held), compared in exact integers: at an exact tie the bot
    accepts, and the compiled kernel (kernel_policy.worth_challenging) decides alike.
    """
    attacker = view.challenge_attacker
    pile = view.discard_pile
    if attacker is None or len(pile) < 2 or IS_WILD[pile[-2]]:
        return False  # the colour in play before the card is not known from the pile
    color = COLOR_OF[pile[-2]]
    unseen = unseen_cards(view)
    total = sum(unseen.values())
    of_color = sum(k for c, k in unseen.items() if COLOR_OF[c] == color)
    held = view.hand_sizes[attacker]
    if held <= 0 or total <= 0 or held > total:
        return False
    pending = max(view.pending_draw, 4)
    return pending * math.comb(total, held) > (pending + 1) * math.comb(total - of_color, held)


register_bot("heuristic", HeuristicBot)
