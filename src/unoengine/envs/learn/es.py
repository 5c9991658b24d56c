"""Evolution strategies against the heuristic bot, in the compiled engine (docs/learning.md).

Each generation draws ``pairs`` Gaussian directions ``e`` and plays the policy at ``theta + sigma*e``
and ``theta - sigma*e`` (antithetic pairs; ``sigma`` per coordinate: ``W``'s is smaller by
``weight_scale``, and zero with ``bias_only``) on the same deals (common random numbers): every
candidate plays the same ``deals`` deals twice, once in each seat (duplicate), against
``HeuristicBot``'s compiled twin, and its fitness is its win rate. The gradient estimate
``sum((F+ - F-) * e) / (2 * pairs * sigma)`` (per coordinate) steps ``theta`` by Adam, ``W``'s steps
``weight_scale`` times ``b``'s. Pairing and shared deals
cancel most of the luck of the deal, so a difference of a few games between two candidates
is signal, not noise. Everything is drawn from ``seed``: the same seed gives the same weights.

:func:`duplicate_wins` is the evaluation the trainer and the learning curve share: the policy
plays each deal in both seats; one round per game (classic-108 heads-up, or any profile the
compiled engine runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np

from ...engine.errors import shown
from ..actions import ActionError
from ..arguments import check_seed
from ..batch import SKIP, BatchEngine
from .policy import ResidualPolicy

if TYPE_CHECKING:
    import numpy.typing as npt

MAX_DECISIONS: Final = 1000
"""A game whose round the learner has not ended after this many of its decisions counts as lost
(a policy that only draws and passes could otherwise keep a round going for ever)."""
_SEED_BOUND: Final = 2**63


class Seats:
    """The same ``deals`` deals with the learner in each seat: one compiled batch per seat."""

    def __init__(self, policy: ResidualPolicy, deals: int, out_of_turn: str = "windows") -> None:
        self.engines = [BatchEngine(policy.profile, policy.players, deals, 0, learner=seat, opponents="heuristic",
                                    out_of_turn=out_of_turn)  # type: ignore[arg-type]
                        for seat in range(policy.players)]
        self.deals = deals

    def wins(self, policy: ResidualPolicy, seed: int) -> npt.NDArray[np.int64]:
        """Per deal, the games the policy won of its ``players`` seatings (0 .. players)."""
        total = np.zeros(self.deals, dtype=np.int64)
        rng = np.random.default_rng(seed)
        for seat, batch in enumerate(self.engines):
            total += _first_round_wins(policy, batch, seat, seed, rng)
        return total


def _first_round_wins(policy: ResidualPolicy, batch: BatchEngine, seat: int, seed: int,
                      rng: np.random.Generator) -> npt.NDArray[np.bool_]:
    """Deal the batch from ``seed`` and play each game's first round; which the learner won."""
    out = batch.reset(seed)
    size = batch.batch_size
    finished = np.zeros(size, dtype=np.bool_)
    won = np.zeros(size, dtype=np.bool_)
    actions = np.full(size, SKIP, dtype=np.int64)
    for _ in range(MAX_DECISIONS):
        live = np.flatnonzero(~finished)
        if live.size == 0:
            break
        prior = batch.heuristic_actions(rng)
        actions[:] = SKIP
        actions[live] = policy.act(out.observation[live], out.mask[live], prior[live])
        out = batch.step(actions)
        ended = out.done
        won |= ended & (out.rewards[:, seat] > 0)
        finished |= ended
    return won


def duplicate_wins(policy: ResidualPolicy, deals: int, seed: int) -> npt.NDArray[np.int64]:
    """Per deal, the games the policy won against the heuristic of its seatings of that deal."""
    return Seats(policy, deals).wins(policy, seed)


@dataclass(frozen=True)
class Settings:
    """The trainer's knobs (docs/learning.md gives the recipe's values)."""

    pairs: int = 16
    """Antithetic pairs per generation (2 * pairs candidates)."""
    deals: int = 128
    """Deals each candidate plays, in every seat."""
    sigma: float = 0.4
    """The perturbation's standard deviation."""
    learning_rate: float = 0.1
    """Adam's step size."""
    prior: float = 1.0
    """The heuristic's choice's bonus in the policy's score."""
    bias_only: bool = True
    """Learn only ``b`` (one number per action group); ``W`` stays zero."""
    weight_scale: float = 0.1
    """``W``'s perturbation is ``sigma * weight_scale`` (a feature row adds dozens of them to a score)."""

    def check(self) -> None:
        for name in ("pairs", "deals"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= 1 << 16:
                raise ActionError(f"{name}: expected an int 1..65536, got {shown(value)}")
        for name in ("sigma", "learning_rate", "prior", "weight_scale"):
            value = getattr(self, name)
            if not isinstance(value, float | int) or not 0 < value < 1e6:
                raise ActionError(f"{name}: expected a number in (0, 1e6), got {shown(value)}")


class Trainer:
    """Evolution strategies from ``seed`` (see the module doc); :meth:`generation` is one step."""

    def __init__(self, profile: str = "classic-108", players: int = 2, seed: int = 0,
                 settings: Settings | None = None) -> None:
        self.settings = s = settings or Settings()
        s.check()
        self.policy = ResidualPolicy(profile, players, s.prior)
        self.theta = self.policy.flat().astype(np.float64)
        self.seats = Seats(self.policy, s.deals)
        self.seed = check_seed(seed) or 0
        self.generations = 0
        self._m = np.zeros_like(self.theta)
        self._v = np.zeros_like(self.theta)
        self.last_fitness = 0.0
        """The mean fitness of the last generation's candidates (win rate, both seats)."""

    def generation(self) -> None:
        """Play one generation and step ``theta``."""
        s = self.settings
        rng = np.random.default_rng([self.seed, self.generations])
        deal_seed = int(rng.integers(_SEED_BOUND))
        eps = rng.standard_normal((s.pairs, self.theta.size))
        sigma = np.full(self.theta.size, s.sigma)  # per coordinate: theta +- sigma * e
        sigma[: self.policy.W.size] *= 0.0 if s.bias_only else s.weight_scale
        diffs = np.zeros(s.pairs)
        scores = []
        games = s.deals * self.policy.players
        for k in range(s.pairs):
            plus = self.seats.wins(self.policy.with_flat(self.theta + sigma * eps[k]), deal_seed).sum() / games
            minus = self.seats.wins(self.policy.with_flat(self.theta - sigma * eps[k]), deal_seed).sum() / games
            diffs[k] = plus - minus
            scores += [plus, minus]
        self.last_fitness = float(np.mean(scores))
        grad = np.where(sigma > 0, diffs @ eps / (2 * s.pairs * np.maximum(sigma, 1e-12)), 0.0)
        self._adam(grad, sigma / s.sigma)
        self.generations += 1

    def _adam(self, grad: npt.NDArray[np.float64], scale: npt.NDArray[np.float64], beta1: float = 0.9,
              beta2: float = 0.999) -> None:
        """One Adam step up the gradient, each coordinate's step ``scale`` times the learning rate
        (as its perturbation is: Adam's step ignores the gradient's size, so ``W`` would otherwise
        move as far as ``b`` each generation, in thousands of noisy directions)."""
        t = self.generations + 1
        self._m = beta1 * self._m + (1 - beta1) * grad
        self._v = beta2 * self._v + (1 - beta2) * grad * grad
        m = self._m / (1 - beta1**t)
        v = self._v / (1 - beta2**t)
        self.theta = self.theta + self.settings.learning_rate * scale * m / (np.sqrt(v) + 1e-8)

    def current(self) -> ResidualPolicy:
        """The policy at ``theta``."""
        return self.policy.with_flat(self.theta)


