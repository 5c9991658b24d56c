"""ISMCTS with its determinizations, tree walks and playouts on the compiled engine (issue 34):
what ``ISMCTSBot(backend="compiled")`` runs for each searched decision.

The search is bots/ismcts.py's, step for step: the tree stays in Python (its nodes keyed by move
codes, compiled/codes.py, instead of move objects), while each iteration's state is a flat array
(compiled/layout.py). The view is converted once per decision (``to_array`` of one sample); each
iteration copies that array and deals the hidden cards into it (compiled/kernel_search.py, as
the Determinizer's ``DealPlan`` says), walks the tree with the compiled legal moves and
transition, and plays out with the compiled playout policy (compiled/kernel_policy.py), which
tests/test_compiled_policy.py proves makes the reference policy's moves.

Needs the ``fast`` extra (numba); the profile must be one the compiled engine runs
(compiled/config.py), else :class:`~unoengine.engine.errors.UnoEngineError` names the rule.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from ..engine.errors import UnoEngineError
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.view import PlayerView
from .determinize import DealPlan, Determinizer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


ROUND = 32
"""Iterations per compiled call when the search has a budget of CPU time (checked between calls)."""
_PLAYER_SHIFT = 4
"""compiled/codes.py PLAYER_SHIFT: a move code's player (tests/test_ismcts_compiled.py holds them equal)."""


class _Node:
    __slots__ = ("avail", "children", "mover", "prior", "visits", "wins")

    def __init__(self, mover: int, prior: float = 0.0) -> None:
        self.mover = mover
        self.prior = prior
        self.visits = 0
        self.avail = 0
        self.wins = 0.0
        self.children: dict[int, _Node] = {}


def _kernels() -> Any:
    """The compiled modules, imported on first use: numba is an optional extra."""
    try:
        from ..compiled import codes, config, convert, kernel_policy, kernel_search, kernel_tree, layout
    except ImportError as exc:
        from ..formats.install_hint import install_command

        raise UnoEngineError(f'ISMCTSBot(backend="compiled") needs numba: {install_command("fast")} ({exc})') from None
    return codes, config, convert, kernel_policy, kernel_search, kernel_tree, layout


def require_compiled() -> None:
    """Raise the install hint now if the compiled engine cannot be imported."""
    _kernels()


class _Profiles:
    """The kernels' config of each profile met, checked once (UnsupportedRuleError named)."""

    def __init__(self) -> None:
        self._seen: dict[Profile, Any] = {}

    def config(self, profile: Profile) -> Any:
        cfg = self._seen.get(profile)
        if cfg is None:
            config = _kernels()[1]
            try:
                cfg = config.config_of(profile)
            except config.UnsupportedRuleError as exc:
                raise config.UnsupportedRuleError(
                    f'ISMCTSBot(backend="compiled") cannot search this game: {exc}; use backend="reference"') from None
            self._seen[profile] = cfg
        return cfg


class CompiledSearch:
    """One decision's search (see the module docstring); :meth:`run` returns the move."""

    def __init__(self, view: PlayerView, cfg: npt.NDArray[np.int64], sampler: Determinizer, plan: DealPlan,
                 rng: random.Random, exploration: float, bias: float, honesty: float, playout_moves: int) -> None:
        import numpy as np

        codes, _config, convert, kernel_policy, kernel_search, kernel_tree, layout = _kernels()
        self._np, self._tree = np, kernel_tree
        self._advance = kernel_search.advance
        self._best_play = kernel_policy.best_play
        self._playout = kernel_search.expand_and_playout
        self._deal = kernel_search.deal_and_list
        self._encode = codes.encode
        self._cfg = cfg
        self._bluff = layout.S_CH_BLUFF
        self.exploration, self.bias, self.honesty, self.playout_moves = exploration, bias, honesty, playout_moves
        n = len(view.hand_sizes)
        self._template = convert.to_array(sampler.sample(rng))
        self._a = self._template.copy()
        self._buffer = np.empty(codes.MAX_LEGAL, dtype=np.int64)
        self._credit = np.zeros(n, dtype=np.float64)
        fixed = np.zeros((n, layout.CODES), dtype=np.int64)
        for q, cards in enumerate(plan.fixed):
            for c in cards:
                fixed[q, int(c)] += 1
        self._fixed = fixed
        self._arrangement = np.array([int(c) for c in plan.arrangement], dtype=np.int64)
        self._plan = np.array([1, plan.fresh, plan.pile_size, -1 if plan.attacker is None else plan.attacker,
                               plan.challenge_color, view.profile.deck_size, *(q for q, _need in plan.order),
                               *(need for _q, need in plan.order)], dtype=np.int64)
        self._challenged = plan.attacker is not None

    def _imagine(self, rng: random.Random) -> int:
        """A determinization into the flat array, and the number of its decisions listed into the
        buffer (-1: the round is over). Facing a Wild Draw Four, the attacker is taken to be honest
        with probability ``honesty``, as bots/ismcts.py ``_imagine``."""
        count = self._deal_once(rng)
        if self._challenged and self._a[self._bluff] and rng.random() < self.honesty:
            for _ in range(30):
                count = self._deal_once(rng)
                if not self._a[self._bluff]:
                    break
        return count

    def _deal_once(self, rng: random.Random) -> int:
        return int(self._deal(self._cfg, self._template, self._a, self._fixed, self._arrangement, self._plan,
                              self._buffer, rng.getrandbits(63)))

    def run(self, decisions: list[Move], hint: Move | None, iterations: int, rng: random.Random,
            more: Any = None) -> Move:
        """Search ``iterations`` times (or while ``more()`` says so, at least once, in rounds of
        :data:`ROUND`); the most visited root move. The whole search is compiled
        (compiled/kernel_tree.py); :meth:`run_in_python` keeps the tree in Python instead."""
        np, tree = self._np, self._tree
        params = np.array([self.exploration, self.bias, self.honesty, self.playout_moves,
                           -1 if hint is None else self._encode(hint), self._challenged], dtype=np.float64)
        rounds = iterations if more is None else ROUND
        nodes, values = tree.new_tree(rounds + 1)
        used = 1
        while True:
            if nodes.shape[1] < used + rounds:
                grown_nodes, grown_values = tree.new_tree(2 * nodes.shape[1] + rounds)
                grown_nodes[:, :used], grown_values[:, :used] = nodes[:, :used], values[:, :used]
                nodes, values = grown_nodes, grown_values
            used = tree.search(self._cfg, self._template, self._a, self._fixed, self._arrangement, self._plan,
                               self._buffer, self._credit, nodes, values, used, params, rounds, rng.getrandbits(63))
            if more is None or not more():
                break
        visits: dict[int, int] = {}
        child = int(nodes[tree.F_CHILD, 0])
        while child >= 0:
            visits[int(nodes[tree.F_MOVE, child])] = int(nodes[tree.F_VISITS, child])
            child = int(nodes[tree.F_SIBLING, child])
        return max(decisions, key=lambda m: visits.get(self._encode(m), -1))

    def run_in_python(self, decisions: list[Move], hint: Move | None, iterations: int, rng: random.Random,
                      more: Any = None) -> Move:
        """:meth:`run` with the tree in Python: each step a compiled call (tests compare the two)."""
        root = _Node(mover=-1)
        hint_code = -1 if hint is None else self._encode(hint)
        if more is None:
            for _ in range(iterations):
                self._iterate(root, rng, hint_code, self._imagine(rng))
        else:
            self._iterate(root, rng, hint_code, self._imagine(rng))
            while more():
                self._iterate(root, rng, hint_code, self._imagine(rng))
        visits = {code: child.visits for code, child in root.children.items()}
        return max(decisions, key=lambda m: visits.get(self._encode(m), -1))

    def _iterate(self, root: _Node, rng: random.Random, hint: int, count: int) -> None:
        """bots/ismcts.py ``ISMCTSBot._iterate`` on the flat array, whose ``count`` decisions are
        listed in the buffer (-1: the round is over)."""
        a, cfg, buffer, advance = self._a, self._cfg, self._buffer, self._advance
        node, path = root, [root]
        last = -1  # the move that expands the tree, made with the playout
        exploration, bias, log, sqrt = self.exploration, self.bias, math.log, math.sqrt
        while count >= 0:
            moves = buffer[:count].tolist()
            children = node.children
            untried: list[int] = []
            known: list[tuple[int, _Node]] = []
            for m in moves:
                child = children.get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
                    known.append((m, child))
            if untried:
                if node is root:
                    preferred = hint
                else:
                    best = self._best_play(cfg, a, buffer, count, rng.random())
                    preferred = moves[best] if best >= 0 else -1
                move = preferred if preferred in untried else rng.choice(untried)
                child = children[move] = _Node(move >> _PLAYER_SHIFT & 15, 1.0 if move == preferred else 0.0)
                child.avail = 1
                last = move
                path.append(child)
                break
            move, value_best, chosen = moves[0], -math.inf, known[0][1]
            for m, child in known:
                visits = child.visits
                if visits == 0:
                    value = math.inf
                else:
                    value = (child.wins / visits + exploration * sqrt(log(max(child.avail, 1)) / visits)
                             + bias * child.prior / (visits + 1))
                if value > value_best:
                    move, value_best, chosen = m, value, child
            node = chosen
            count = advance(cfg, a, move, buffer)
            path.append(node)
        credit = self._credit
        self._playout(cfg, a, last, self.playout_moves, rng.getrandbits(63), buffer, credit)
        scores = credit.tolist()
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.wins += scores[n.mover]

