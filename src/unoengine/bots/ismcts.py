"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse 2012).

Each iteration imagines the hidden cards (:func:`unoengine.sample_state`), walks one shared tree of
moves whose statistics are kept for the player who made each move, choosing among the moves
available in that imagined deal by UCB1 with availability counts, plays the round out with a
quick policy, and credits the winner. The move played is the root child visited most.

Out-of-turn moves (catching a missed UNO, a late call, jumping in) are not searched: the bot
takes them as the heuristic bot does, and the playouts let every player catch at once.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..cards import COLOR_OF, IS_WILD, SKIP, SYMBOL_OF, WILD_DRAW_FOUR
from ..determinize import sample_state
from ..legality import legal_moves
from ..moves import Accept, CallUno, CatchUno, Challenge, Draw, Move, Play
from ..state import GameState
from ..transition import apply
from ..view import PlayerView
from .base import register_bot
from .heuristic import HeuristicBot


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
    moves (scored by hand sizes then). Decisions with one legal move, and out-of-turn moves, are
    made at once by the heuristic bot."""

    name = "ismcts"

    def __init__(self, iterations: int = 200, exploration: float = 0.7, playout_moves: int = 200,
                 honesty: float = 0.9, bias: float = 3.0) -> None:
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
        """Play on with a quick policy; 1 to the winner, or when cut short, shares by fewest cards."""
        for _ in range(self.playout_moves):
            if state.round_over:
                break
            state = apply(state, _quick_move(state, rng))
        n = len(state.hands)
        last = state.match.last_round
        if state.round_over and last is not None:
            return [1.0 if q == last.winner else 0.0 for q in range(n)]
        sizes = [len(h) for h in state.hands]
        low = min(sizes)
        leaders = [q for q in range(n) if sizes[q] == low]
        return [1.0 / len(leaders) if q in leaders else 0.0 for q in range(n)]


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
    """The playout policy, a cheap version of the heuristic bot: catch a missed call at once; play
    (calling UNO) the card that scores best by :func:`_quick_score`; challenge a Wild Draw Four
    unless its player is down to one card; else draw; else whatever is left (pass, accept, colour)."""
    moves = legal_moves(state)
    for m in moves:
        if isinstance(m, CatchUno):
            return m
    cur = state.current
    own = [m for m in moves if m.player == cur]
    plays = [m for m in own if isinstance(m, Play) and (m.uno or len(state.hands[cur]) != 2)]
    if plays:
        return max(plays, key=lambda m: _quick_score(state, m) + rng.random())
    pending = state.challenge
    if pending is not None:  # as most players do: challenge unless the attacker is down to a card
        return Challenge(cur) if len(state.hands[pending.attacker]) >= 2 else Accept(cur)
    for kind in (Draw, Accept):
        for m in own:
            if isinstance(m, kind):
                return m
    return own[0] if own else moves[0]


def _quick_choice(state: GameState, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """The move the playout policy would make among ``moves`` (the player to act's)."""
    plays = [m for m in moves if isinstance(m, Play)]
    if plays:
        return max(plays, key=lambda m: _quick_score(state, m) + rng.random())
    return None


def _quick_score(state: GameState, move: Play) -> float:
    """Shed points, keep wilds, attack a player about to win, stay in the colour held most."""
    card, hand = move.card, state.hands[move.player]
    n = len(state.hands)
    next_size = len(state.hands[(move.player + state.direction) % n])
    score = float(state.profile.points[card]) / 10
    if IS_WILD[card]:
        score -= 6 if len(hand) > 2 else 0
        if move.color is not None:
            score += sum(1 for c in hand if COLOR_OF[c] == move.color)
        if card == WILD_DRAW_FOUR and next_size <= 2:
            score += 10
    else:
        if SYMBOL_OF[card] >= SKIP and next_size <= 2:
            score += 10
        score += 0.5 * sum(1 for c in hand if COLOR_OF[c] == COLOR_OF[card])
    return score


register_bot("ismcts", ISMCTSBot)
