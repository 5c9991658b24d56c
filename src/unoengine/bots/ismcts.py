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
import time
from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..engine.cards import (
    COLOR_OF,
    DRAW_TWO,
    IS_WILD,
    NUM_CARD_CODES,
    REVERSE,
    SKIP,
    SYMBOL_OF,
    SYMBOLS_PER_COLOR,
    WILD_DRAW_FOUR,
)
from ..engine.errors import UnoEngineError
from ..engine.legality import legal_moves
from ..engine.moves import ACCEPT, CHALLENGE, CHOOSE_COLOR, DRAW, Accept, CallUno, CatchUno, Draw, Move, Pass, Play
from ..engine.state import GameState, Phase
from ..engine.transition import apply
from ..engine.view import PlayerView
from .base import register_bot
from .determinize import Determinizer
from .heuristic import HeuristicBot, best_color

if TYPE_CHECKING:
    from .ismcts_compiled import CompiledSearch, _Profiles


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
    heuristic bot. ``seconds``, if given, replaces the count of iterations by a budget of CPU
    time per decision (``time.thread_time``, so other work on the machine does not eat into
    it): the search runs until the budget is spent, at least one iteration.

    ``backend="compiled"`` runs the determinizations, tree walks and playouts on the compiled
    engine (bots/ismcts_compiled.py; the ``fast`` extra): the same search, several times as many
    iterations a second. A profile the compiled engine cannot run is refused at the first
    decision, with the rule named."""

    name = "ismcts"

    def __init__(self, iterations: int = 500, exploration: float = 0.7, playout_moves: int | None = None,
                 honesty: float = 0.9, bias: float = 1.0, seconds: float | None = None,
                 backend: str = "reference") -> None:
        if backend not in BACKENDS:
            raise UnoEngineError(f"backend: one of {', '.join(map(repr, BACKENDS))}, got {backend!r}")
        self.backend = backend
        self._profiles: _Profiles | None = None
        if backend == "compiled":
            from .ismcts_compiled import _Profiles, require_compiled

            require_compiled()
            self._profiles = _Profiles()
        if seconds is not None and not (type(seconds) in (int, float) and 0 < seconds < math.inf):
            raise UnoEngineError(f"seconds: a budget of CPU time per decision is a positive number, got {seconds!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.bias = bias
        self.honesty = honesty
        self.exploration = exploration
        self.playout_moves = playout_moves
        self._fallback = HeuristicBot()

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        started = time.thread_time()
        own = [m for m in view.legal_moves if m.player == view.player]
        in_turn = view.current == view.player and not view.round_over
        if not in_turn or any(isinstance(m, (CatchUno, CallUno)) for m in own):
            return self._fallback.act(view, rng)
        decisions = _searched(own)
        if len(decisions) == 1:
            return decisions[0]
        root = _Node(mover=-1)
        hint = self._fallback.act(view, rng)  # the heuristic's move: searched first, preferred on a tie
        # The view is checked and its fixed part worked out once; each sample deals afresh the
        # hidden hands and, of the pile, ten cards more than a playout has moves (an iteration
        # drew at most 20 cards heads-up and 30 at four in benchmarks/bench_ismcts.py's positions).
        sampler = Determinizer(view, reach=max(self._playout_length(len(view.hand_sizes)), 0) + 10)
        if self._profiles is not None:
            compiled = self._compiled_search(view, sampler, rng)
            if compiled is not None:
                more = None if self.seconds is None else functools.partial(_before, started + self.seconds)
                return compiled.run(decisions, hint, self.iterations, rng, more)
        if self.seconds is None:
            for _ in range(self.iterations):
                self._iterate(root, self._imagine(sampler, rng), rng, hint)
        else:
            deadline = started + self.seconds
            self._iterate(root, self._imagine(sampler, rng), rng, hint)
            while time.thread_time() < deadline:
                self._iterate(root, self._imagine(sampler, rng), rng, hint)
        return max(decisions, key=lambda m: root.children[m].visits if m in root.children else -1)

    def _compiled_search(self, view: PlayerView, sampler: Determinizer, rng: random.Random) -> CompiledSearch | None:
        """The compiled search of this decision; None where the Determinizer deals otherwise than
        its plan says (never for a decision in turn)."""
        from .ismcts_compiled import CompiledSearch

        assert self._profiles is not None
        cfg = self._profiles.config(view.profile)
        plan = sampler.plan
        if not plan.exact:
            return None
        return CompiledSearch(view, cfg, sampler, plan, rng, self.exploration, self.bias, self.honesty,
                              max(self._playout_length(len(view.hand_sizes)), 0))

    def _imagine(self, sampler: Determinizer, rng: random.Random) -> GameState:
        """A determinization; facing a Wild Draw Four, the attacker is taken to be honest with
        probability ``honesty`` (most players do not bluff), else the hand decides as dealt."""
        state = sampler.sample(rng)
        if state.challenge is not None and state.challenge.bluff and rng.random() < self.honesty:
            for _ in range(30):
                state = sampler.sample(rng)
                if state.challenge is not None and not state.challenge.bluff:
                    break
        return state

    # --- one iteration --------------------------------------------------------------------
    def _iterate(self, root: _Node, state: GameState, rng: random.Random, hint: Move | None) -> None:
        node, path = root, [root]
        exploration, bias, log, sqrt = self.exploration, self.bias, math.log, math.sqrt
        while state.phase < _ROUND_OVER:
            moves = _decisions(state)
            children = node.children
            untried: list[Move] = []
            known: list[tuple[Move, _Node]] = []  # each move hashed once per step
            for m in moves:
                child = children.get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
                    known.append((m, child))
            if untried:
                preferred = hint if node is root else _quick_choice(state, moves, rng)
                move = preferred if preferred in untried else rng.choice(untried)
                child = children[move] = _Node(state.current, 1.0 if move == preferred else 0.0)
                child.avail = 1
                state = apply(state, move)
                path.append(child)
                break
            # UCB1 with availability counts, plus the progressive bias (the first best on a tie)
            move, best, chosen = moves[0], -math.inf, known[0][1]
            for m, child in known:
                visits = child.visits
                if visits == 0:
                    value = math.inf
                else:
                    value = (child.wins / visits + exploration * sqrt(log(max(child.avail, 1)) / visits)
                             + bias * child.prior / (visits + 1))
                if value > best:
                    move, best, chosen = m, value, child
            node = chosen
            state = apply(state, move)
            path.append(node)
        scores = self._playout(state, rng)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.wins += scores[n.mover]

    def _playout_length(self, players: int) -> int:
        return self.playout_moves if self.playout_moves is not None else 5 * players

    def _playout(self, state: GameState, rng: random.Random) -> list[float]:
        """Play on with the heuristic's rules; 1 to the winner, or when cut short, the chances."""
        for _ in range(self._playout_length(len(state.hands))):
            if state.phase >= _ROUND_OVER:
                break
            state = apply(state, _quick_move(state, rng))
        last = state.match.last_round
        if state.phase >= _ROUND_OVER and last is not None:
            return [1.0 if q == last.winner else 0.0 for q in range(len(state.hands))]
        return win_chances(state)


BACKENDS: Final = ("reference", "compiled")
"""Where the search runs: the pure engine, or the compiled one (bots/ismcts_compiled.py)."""


def _before(deadline: float) -> bool:
    return time.thread_time() < deadline


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


_ROUND_OVER: Final = Phase.ROUND_OVER
_CHOOSE_COLOR: Final = Phase.CHOOSE_COLOR


def _decisions(state: GameState) -> list[Move]:
    """The searched moves: those of the player to act (out-of-turn ones are left to the playouts),
    always calling UNO with the next-to-last card (UNO-1).

    Asks for every player's moves, not the player's own: the engine remembers that list, so
    applying one of its moves skips the rule-by-rule check."""
    moves = legal_moves(state)
    cur = state.current
    if state.uno_exposed >= 0 or state.profile.jump_in:  # else every move is the player's own
        moves = [m for m in moves if m.player == cur and not isinstance(m, (CatchUno, CallUno))]
    if len(state.hands[cur]) == 2:  # UNO-1: only then do plays calling UNO exist
        return _uno_calls_only(moves)
    return moves


def _searched(moves: Sequence[Move]) -> list[Move]:
    out: list[Move] = [m for m in moves if not isinstance(m, (CatchUno, CallUno))]
    return _uno_calls_only(out)


def _uno_calls_only(moves: list[Move]) -> list[Move]:
    """UNO-1: where a play may call UNO, only the plays that do (and the moves that are not plays)."""
    if any(type(m) is Play and m.uno for m in moves):
        return [m for m in moves if not (type(m) is Play and not m.uno)]
    return moves


def _quick_move(state: GameState, rng: random.Random) -> Move:
    """The playout policy: the heuristic bot's rules, read off the full state. Catch a missed
    call at once; play the card :func:`play_score` likes best, drawing rather than bluffing;
    challenge a Wild Draw Four whenever the colour before it is known (the heuristic's odds
    nearly always favour it); else draw; else whatever is left (pass, accept, a colour).
    The moves returned are the engine's own objects, so that ``apply`` knows them at once."""
    moves = legal_moves(state)
    cur = state.current
    if state.uno_exposed >= 0:
        for m in moves:
            if type(m) is CatchUno:
                return m
        own = [m for m in moves if m.player == cur]
    elif state.profile.jump_in:
        own = [m for m in moves if m.player == cur]
    else:
        own = moves
    if len(own) == 1:  # forced (a draw with nothing to play, a pass after an unplayable draw...)
        return own[0]
    best = _quick_choice(state, own, rng)
    if best is not None and not (best.card == WILD_DRAW_FOUR and state.color >= 0
                                 and _holds(state.hands[cur], state.color) and DRAW[cur] in own):
        return best
    if state.challenge is not None:
        below = state.discard[2]  # the card the Wild Draw Four was played on
        return ACCEPT[cur] if below is None or IS_WILD[below[0]] else CHALLENGE[cur]
    for kind in (Draw, Accept, Pass):
        for m in own:
            if type(m) is kind:
                return m
    if state.phase is _CHOOSE_COLOR:
        return CHOOSE_COLOR[cur][best_color(state.hands[cur])]
    return own[0] if own else moves[0]


def _quick_choice(state: GameState, moves: Sequence[Move], rng: random.Random) -> Play | None:
    """The play the heuristic would prefer among ``moves`` (ties broken uniformly at random), if
    any: the score of :func:`~unoengine.bots.heuristic.play_score`, with what is the same for
    every play of the turn (the colour counts of the hand, the threat, the next hand's size)
    worked out once, and no scoring at all when there is one play. ``moves`` are the player to
    act's."""
    first: Play | None = None
    plays: list[Play] | None = None
    for m in moves:
        if type(m) is Play:
            if first is None:
                first = m
            elif plays is None:
                plays = [first, m]
            else:
                plays.append(m)
    if plays is None:
        return first
    cur, hands = state.current, state.hands
    hand = hands[cur]
    # colour counts of the sorted hand: codes run colour by colour, the wilds last
    b1 = bisect_left(hand, _YELLOW)
    b2 = bisect_left(hand, _GREEN, b1)
    b3 = bisect_left(hand, _BLUE, b2)
    b4 = bisect_left(hand, _WILDS, b3)
    counts = (b1, b2 - b1, b3 - b2, b4 - b3)
    next_near = threat = False
    if min(map(len, hands)) <= 2:  # someone is about to win: the heuristic's attacks come in
        n = len(hands)
        next_near = len(hands[(cur + state.direction) % n]) <= 2
        threat = any(len(hands[q]) <= 2 for q in range(n) if q != cur)
    points = state.profile.points
    wild_base = -60 if len(hand) > 2 else 10
    attack_bonus = (100 if next_near else 0) + (10 if threat else 0)
    best = plays[0]
    tied: list[Play] | None = None
    best_score = -(1 << 30)
    for m in plays:
        card = m.card
        if IS_WILD[card]:
            score = points[card] + wild_base
            if card == WILD_DRAW_FOUR:
                score += (120 if next_near else 0) - (200 if state.color >= 0 and counts[state.color] else 0)
            if m.color is not None:
                score += 5 * counts[m.color]
        else:
            score = points[card] + 3 * (counts[COLOR_OF[card]] - hand.count(card))
            if _ATTACK[card]:
                score += attack_bonus
        if m.target is not None:
            score += 30 - 5 * len(hands[m.target])
        if m.uno:
            score += 1000
        if score > best_score:
            best, best_score, tied = m, score, None
        elif score == best_score:
            if tied is None:
                tied = [best]
            tied.append(m)
    if tied is not None:  # uniform, as the heuristic's random tie-break keys make it
        return tied[int(rng.random() * len(tied))]
    return best


_ATTACK: Final = tuple(not IS_WILD[c] and SYMBOL_OF[c] in (SKIP, REVERSE, DRAW_TWO) for c in range(NUM_CARD_CODES))
"""The cards that hit the next player (Skip, Reverse, Draw Two): the heuristic turns them on a
player about to win."""

_YELLOW, _GREEN, _BLUE, _WILDS = (k * SYMBOLS_PER_COLOR for k in range(1, 5))


def _holds(hand: tuple[int, ...], color: int) -> bool:
    """WD4-1: the hand holds a card of ``color``."""
    return bisect_left(hand, (color + 1) * SYMBOLS_PER_COLOR) > bisect_left(hand, color * SYMBOLS_PER_COLOR)


register_bot("ismcts", ISMCTSBot)
