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
from ..engine.state import Phase
from ..engine.view import PlayerView
from .determinize import DealPlan, Determinizer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


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
        from ..compiled import codes, config, convert, kernel_apply, kernel_policy, kernel_search, layout
    except ImportError as exc:
        from ..formats.install_hint import install_command

        raise UnoEngineError(f'ISMCTSBot(backend="compiled") needs numba: {install_command("fast")} ({exc})') from None
    return codes, config, convert, kernel_apply, kernel_policy, kernel_search, layout


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

        codes, _config, convert, kernel_apply, kernel_policy, kernel_search, layout = _kernels()
        self._np = np
        self._apply = kernel_apply.apply_move
        self._best_play = kernel_policy.best_play
        self._playout = kernel_policy.playout
        self._deal = kernel_search.deal_sample
        self._decisions = kernel_search.decisions
        self._encode, self._decode = codes.encode, codes.decode
        self._phase, self._current = layout.S_PHASE, layout.S_CURRENT
        self._cfg = cfg
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
        self._shuffled = False
        self._fresh = plan.fresh
        self._players = np.array([q for q, _need in plan.order], dtype=np.int64)
        self._needs = np.array([need for _q, need in plan.order], dtype=np.int64)
        self._pile_size = plan.pile_size
        self._attacker = -1 if plan.attacker is None else plan.attacker
        self._colour = plan.challenge_color
        self._d = view.profile.deck_size
        self._round_over = int(Phase.ROUND_OVER)

    def _imagine(self, rng: random.Random) -> None:
        """A determinization into ``self._a``; facing a Wild Draw Four, the attacker is taken to be
        honest with probability ``honesty``, as bots/ismcts.py ``_imagine``."""
        bluff = self._deal_once(rng)
        if bluff and rng.random() < self.honesty:
            for _ in range(30):
                if not self._deal_once(rng):
                    break

    def _deal_once(self, rng: random.Random) -> bool:
        bluff = self._deal(self._template, self._a, self._fixed, self._arrangement, not self._shuffled, self._fresh,
                           self._players, self._needs, self._pile_size, self._attacker, self._colour, self._d,
                           rng.getrandbits(63))
        self._shuffled = True
        return bool(bluff)

    def run(self, decisions: list[Move], hint: Move | None, iterations: int, rng: random.Random,
            more: Any = None) -> Move:
        """Search ``iterations`` times (or while ``more()`` says so, at least once); the most
        visited root move."""
        root = _Node(mover=-1)
        hint_code = -1 if hint is None else self._encode(hint)
        if more is None:
            for _ in range(iterations):
                self._imagine(rng)
                self._iterate(root, rng, hint_code)
        else:
            self._imagine(rng)
            self._iterate(root, rng, hint_code)
            while more():
                self._imagine(rng)
                self._iterate(root, rng, hint_code)
        visits = {code: child.visits for code, child in root.children.items()}
        return max(decisions, key=lambda m: visits.get(self._encode(m), -1))

    def _iterate(self, root: _Node, rng: random.Random, hint: int) -> None:
        """bots/ismcts.py ``ISMCTSBot._iterate`` on the flat array."""
        a, cfg, buffer = self._a, self._cfg, self._buffer
        apply, phase, over = self._apply, self._phase, self._round_over
        node, path = root, [root]
        exploration, bias, log, sqrt = self.exploration, self.bias, math.log, math.sqrt
        while a[phase] < over:
            count = self._decisions(cfg, a, buffer)
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
                child = children[move] = _Node(int(a[self._current]), 1.0 if move == preferred else 0.0)
                child.avail = 1
                apply(cfg, a, move)
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
            apply(cfg, a, move)
            path.append(node)
        credit = self._credit
        self._playout(cfg, a, self.playout_moves, rng.getrandbits(63), buffer, credit)
        scores = credit.tolist()
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.wins += scores[n.mover]

