"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse 2012).

Each iteration imagines the hidden cards (:func:`unoengine.sample_state`), walks one shared tree of
moves whose statistics are kept for the player who made each move, choosing among the moves
available in that imagined deal by UCB1 with availability counts, plays on for a few moves with
the heuristic bot's rules, and credits each player its chance of winning from there
(:func:`win_chances`, or 1 to the winner if the round ended). The move played is the root child
visited most.

Short playouts ended by a fitted evaluation beat whole-round playouts at the same cost: each
iteration is cheaper and its result less noisy (docs/bots.md has the measurements).

Out-of-turn moves (catching a missed UNO, a late call, jumping in) are not searched: the bot
takes them as the heuristic bot does, and the playouts let every player catch at once.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

from ..engine.cards import IS_WILD
from ..engine.legality import legal_moves
from ..engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, Pass, Play
from ..engine.state import GameState, Phase
from ..engine.transition import apply
from ..engine.view import PlayerView
from .base import register_bot
from .determinize import sample_state
from .heuristic import HeuristicBot, best_color, is_bluff, play_score


class _Node:
    __slots__ = ("avail", "children", "mover", "prior", "visits", "wins")

    def __init__(self, mover: int, prior: float = 0.0) -> None:
        self.mover = mover
        self.prior = prior
        """1 for the move the heuristic policy would make here: progressive bias toward it."""
        self.visits = 0
        self.avail = 0
        self.wins = 0.0
        self.children: dict[Move, _Node] = {}


class ISMCTSBot:
    """Searches ``iterations`` imagined deals per decision; playouts stop after ``playout_moves``
    moves (by default five per player: 10 heads-up, 20 at four) and are scored by
    :func:`win_chances`. ``bias`` weighs the heuristic's own choice at
    the start (progressive bias); ``honesty`` is the belief that a Wild Draw Four faced is not
    a bluff. Decisions with one legal move, and out-of-turn moves, are made at once by the
    heuristic bot."""

    name = "ismcts"

    def __init__(self, iterations: int = 500, exploration: float = 0.7, playout_moves: int | None = None,
                 honesty: float = 0.9, bias: float = 1.0) -> None:
        self.iterations = iterations
        self.bias = bias
        self.honesty = honesty
        self.exploration = exploration
        self.playout_moves = playout_moves
        self._fallback = HeuristicBot()

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        own = [m for m in view.legal_moves if m.player == view.player]
        in_turn = view.current == view.player and not view.round_over
        if not in_turn or any(isinstance(m, (CatchUno, CallUno)) for m in own):
            return self._fallback.act(view, rng)
        decisions = _searched(own)
        if len(decisions) == 1:
            return decisions[0]
        root = _Node(mover=-1)
        hint = self._fallback.act(view, rng)  # the heuristic's move: searched first, preferred on a tie
        for _ in range(self.iterations):
            self._iterate(root, self._imagine(view, rng), view.player, rng, hint)
        return max(decisions, key=lambda m: root.children[m].visits if m in root.children else -1)

    def _imagine(self, view: PlayerView, rng: random.Random) -> GameState:
        """A determinization; facing a Wild Draw Four, the attacker is taken to be honest with
        probability ``honesty`` (most players do not bluff), else the hand decides as dealt."""
        state = sample_state(view, rng)
        if state.challenge is not None and state.challenge.bluff and rng.random() < self.honesty:
            for _ in range(30):
                state = sample_state(view, rng)
                if state.challenge is not None and not state.challenge.bluff:
                    break
        return state

    # --- one iteration --------------------------------------------------------------------
    def _iterate(self, root: _Node, state: GameState, me: int, rng: random.Random, hint: Move | None) -> None:
        node, path = root, [root]
        while not state.round_over:
            moves = _decisions(state)
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.avail += 1
            untried = [m for m in moves if m not in node.children]
            if untried:
                preferred = hint if node is root else _quick_choice(state, moves, rng)
                move = preferred if preferred in untried else rng.choice(untried)
                child = node.children[move] = _Node(state.current, 1.0 if move == preferred else 0.0)
                child.avail = 1
                state = apply(state, move)
                path.append(child)
                break
            parent = node
            move = max(moves, key=lambda m: self._ucb(parent.children[m]))
            node = node.children[move]
            state = apply(state, move)
            path.append(node)
        scores = self._playout(state, rng)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.wins += scores[n.mover]

    def _ucb(self, node: _Node) -> float:
        if node.visits == 0:
            return math.inf
        explore = self.exploration * math.sqrt(math.log(max(node.avail, 1)) / node.visits)
        return node.wins / node.visits + explore + self.bias * node.prior / (node.visits + 1)

    def _playout(self, state: GameState, rng: random.Random) -> list[float]:
        """Play on with the heuristic's rules; 1 to the winner, or when cut short, the chances."""
        limit = self.playout_moves if self.playout_moves is not None else 5 * len(state.hands)
        for _ in range(limit):
            if state.round_over:
                break
            state = apply(state, _quick_move(state, rng))
        last = state.match.last_round
        if state.round_over and last is not None:
            return [1.0 if q == last.winner else 0.0 for q in range(len(state.hands))]
        return win_chances(state)


def win_chances(state: GameState) -> list[float]:
    """Each player's chance to win the round from here, judged by hand sizes alone: proportional
    to ``size ** -k``, times ``e ** 0.2`` for the player to act, where ``k = 0.65 + 0.5 ln(players - 1)``
    (0.65 heads-up, 1.2 at four). Fitted by maximum likelihood to heuristic self-play of
    classic-108 with 2, 3, 4 and 6 players (``python benchmarks/bot_strength.py values``)."""
    weights = _size_weights(len(state.hands))
    shares = [weights[min(len(h), _MAX_SIZE)] for h in state.hands]
    shares[state.current] *= _TURN_BONUS
    total = sum(shares)
    return [w / total for w in shares]


@functools.cache
def _size_weights(players: int) -> tuple[float, ...]:
    k = 0.65 + 0.5 * math.log(max(players - 1, 1))
    return (1.0, *(size ** -k for size in range(1, _MAX_SIZE + 1)))


_MAX_SIZE = 120
_TURN_BONUS = math.exp(0.2)


def _decisions(state: GameState) -> list[Move]:
    """The searched moves: those of the player to act (out-of-turn ones are left to the playouts),
    always calling UNO with the next-to-last card (UNO-1)."""
    return _searched(legal_moves(state, state.current))


def _searched(moves: Sequence[Move]) -> list[Move]:
    out: list[Move] = [m for m in moves if not isinstance(m, (CatchUno, CallUno))]
    if any(isinstance(m, Play) and m.uno for m in out):
        out = [m for m in out if not (isinstance(m, Play) and not m.uno)]
    return out


def _quick_move(state: GameState, rng: random.Random) -> Move:
    """The playout policy: the heuristic bot's rules, read off the full state. Catch a missed
    call at once; play the card :func:`play_score` likes best, drawing rather than bluffing;
    challenge a Wild Draw Four whenever the colour before it is known (the heuristic's odds
    nearly always favour it); else draw; else whatever is left (pass, accept, a colour)."""
    moves = legal_moves(state)
    for m in moves:
        if isinstance(m, CatchUno):
            return m
    cur = state.current
    own = [m for m in moves if m.player == cur]
    best = _quick_choice(state, own, rng)
    if best is not None and not (is_bluff(best, state.hands[cur], _color_in_play(state)) and Draw(cur) in own):
        return best
    if state.challenge is not None:
        below = state.discard[2]  # the card the Wild Draw Four was played on
        return Accept(cur) if below is None or IS_WILD[below[0]] else Challenge(cur)
    for kind in (Draw, Accept, Pass):
        for m in own:
            if isinstance(m, kind):
                return m
    if state.phase is Phase.CHOOSE_COLOR:
        return ChooseColor(cur, best_color(state.hands[cur]))
    return own[0] if own else moves[0]


def _quick_choice(state: GameState, moves: Sequence[Move], rng: random.Random) -> Play | None:
    """The play the heuristic would prefer among ``moves`` (ties broken at random), if any."""
    cur = state.current
    hand, sizes = state.hands[cur], [len(h) for h in state.hands]
    color = _color_in_play(state)
    points = state.profile.points
    best: Play | None = None
    best_key = (-math.inf, 0.0)
    for m in moves:
        if isinstance(m, Play):
            key = (play_score(m, hand, sizes, state.direction, color, points), rng.random())
            if key > best_key:
                best, best_key = m, key
    return best


def _color_in_play(state: GameState) -> int | None:
    return None if state.color < 0 else state.color


register_bot("ismcts", ISMCTSBot)
