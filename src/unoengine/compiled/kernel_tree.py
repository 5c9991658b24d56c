"""A whole ISMCTS search in compiled calls: the tree as arrays, and :func:`search`, which runs
iterations of bots/ismcts.py ``ISMCTSBot._iterate`` (determinize, walk the tree by UCB1 with
availability counts and progressive bias, expand, play out, credit) with no Python between them.

The tree is one ``int64`` array ``nodes[F_*, i]`` and one ``float64`` array ``values[V_*, i]``,
node 0 the root; a node's children are a linked list (``F_CHILD`` the first, ``F_SIBLING`` the
next), each holding the move code (codes.py) that leads to it. Random draws come from a SplitMix64
stream (kernel_base): the choice among untried moves (``below``), the tie draw of the playout
policy's preferred move and the honesty draw (``kernel_policy.uniform``).
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np

from .kernel_base import below, jit, next_output
from .kernel_policy import best_play, uniform
from .kernel_search import advance, deal_and_list, expand_and_playout
from .layout import S_CH_BLUFF

F_MOVE: Final = 0
F_MOVER: Final = 1
F_VISITS: Final = 2
F_AVAIL: Final = 3
F_CHILD: Final = 4
F_SIBLING: Final = 5
FIELDS: Final = 6
V_WINS: Final = 0
V_PRIOR: Final = 1
VALUES: Final = 2

P_EXPLORATION: Final = 0
P_BIAS: Final = 1
P_HONESTY: Final = 2
P_PLAYOUT_MOVES: Final = 3
P_HINT: Final = 4
P_CHALLENGED: Final = 5


def new_tree(capacity: int) -> tuple[Any, Any]:
    """Empty tree arrays for ``capacity`` nodes, the root made (an iteration adds one node at most)."""
    nodes = np.zeros((FIELDS, capacity), dtype=np.int64)
    nodes[F_MOVE, 0] = nodes[F_MOVER, 0] = nodes[F_CHILD, 0] = nodes[F_SIBLING, 0] = -1
    return nodes, np.zeros((VALUES, capacity), dtype=np.float64)


@jit
def _seed(x: Any) -> int:
    """A stream output as a seed for another stream (its 63 high bits, a non-negative int64)."""
    return np.int64(x >> np.uint64(1))  # type: ignore[return-value]


@jit
def _deal(cfg: Any, template: Any, a: Any, fixed: Any, arrangement: Any, plan: Any, out: Any, stream: Any,
          honesty: float, challenged: bool) -> tuple[Any, int]:
    """bots/ismcts.py ``_imagine``: a deal; facing a Wild Draw Four, the attacker is honest with
    probability ``honesty`` (up to 30 deals more). The stream and the number of decisions."""
    stream, x = next_output(stream)
    count = deal_and_list(cfg, template, a, fixed, arrangement, plan, out, _seed(x))
    if challenged and a[S_CH_BLUFF] != 0:
        stream, x = next_output(stream)
        if uniform(x) < honesty:
            for _ in range(30):
                stream, x = next_output(stream)
                count = deal_and_list(cfg, template, a, fixed, arrangement, plan, out, _seed(x))
                if a[S_CH_BLUFF] == 0:
                    break
    return stream, count


@jit
def search(cfg: Any, template: Any, a: Any, fixed: Any, arrangement: Any, plan: Any, out: Any, credit: Any,
           nodes: Any, values: Any, used: int, params: Any, iterations: int, seed: int) -> int:
    """Run ``iterations`` iterations on the tree (``used`` nodes so far, at least ``used +
    iterations`` of room); the nodes used after. ``params``: exploration, bias, honesty, playout
    moves, the root's preferred move code (-1: none) and whether a challenge is pending (1.0/0.0).
    The deal's arrays are :func:`kernel_search.deal_and_list`'s."""
    exploration, bias, honesty = params[P_EXPLORATION], params[P_BIAS], params[P_HONESTY]
    playout_moves, hint, challenged = int(params[P_PLAYOUT_MOVES]), int(params[P_HINT]), params[P_CHALLENGED] != 0
    stream = np.uint64(seed)
    path = np.empty(iterations + used + 1, dtype=np.int64)
    untried = np.empty(out.shape[0], dtype=np.int64)
    moves = np.empty(out.shape[0], dtype=np.int64)
    for _ in range(iterations):
        stream, count = _deal(cfg, template, a, fixed, arrangement, plan, out, stream, honesty, challenged)
        node, depth = 0, 1
        path[0] = 0
        last = -1
        while count > 0:  # 0 (no decision, which no phase before the round's end has): play out
            for i in range(count):
                moves[i] = out[i]
            n_untried = 0
            # availability: every child whose move is legal in this deal
            for i in range(count):
                m = moves[i]
                c = nodes[F_CHILD, node]
                while c >= 0 and nodes[F_MOVE, c] != m:
                    c = nodes[F_SIBLING, c]
                if c < 0:
                    untried[n_untried] = m
                    n_untried += 1
                else:
                    nodes[F_AVAIL, c] += 1
            if n_untried > 0:
                if node == 0:
                    preferred = hint
                else:
                    stream, x = next_output(stream)
                    b = best_play(cfg, a, out, count, uniform(x))
                    preferred = moves[b] if b >= 0 else -1
                move = -1
                for i in range(n_untried):
                    if untried[i] == preferred:
                        move = preferred
                if move < 0:
                    stream, pick = below(stream, n_untried)
                    move = untried[pick]
                child = used
                used += 1
                nodes[F_MOVE, child] = move
                nodes[F_MOVER, child] = move >> 4 & 15
                nodes[F_VISITS, child] = 0
                nodes[F_AVAIL, child] = 1
                nodes[F_CHILD, child] = -1
                nodes[F_SIBLING, child] = nodes[F_CHILD, node]
                nodes[F_CHILD, node] = child
                values[V_WINS, child] = 0.0
                values[V_PRIOR, child] = 1.0 if move == preferred else 0.0
                path[depth] = child
                depth += 1
                last = move
                break
            # UCB1 with availability counts and progressive bias; the first best in move order
            best_value = -math.inf
            chosen = -1
            chosen_move = moves[0]
            for i in range(count):
                m = moves[i]
                c = nodes[F_CHILD, node]
                while nodes[F_MOVE, c] != m:
                    c = nodes[F_SIBLING, c]
                visits = nodes[F_VISITS, c]
                if visits == 0:
                    value = math.inf
                else:
                    value = (values[V_WINS, c] / visits
                             + exploration * math.sqrt(math.log(max(nodes[F_AVAIL, c], 1)) / visits)
                             + bias * values[V_PRIOR, c] / (visits + 1))
                if value > best_value or chosen < 0:
                    best_value, chosen, chosen_move = value, c, m
            node = chosen
            path[depth] = node
            depth += 1
            count = advance(cfg, a, chosen_move, out)
        stream, x = next_output(stream)
        expand_and_playout(cfg, a, last, playout_moves, _seed(x), out, credit)
        for i in range(depth):
            c = path[i]
            nodes[F_VISITS, c] += 1
            mover = nodes[F_MOVER, c]
            if mover >= 0:
                values[V_WINS, c] += credit[mover]
    return used
