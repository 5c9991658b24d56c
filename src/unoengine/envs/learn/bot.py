"""A trained policy as a bot of the reference engine, so ``simulate`` and ``tournament`` play it.

:class:`ResidualPolicyBot` encodes the bot's view (:mod:`..observations`), its legal actions
(:mod:`..actions`; ``WAIT`` when it is asked out of turn) and the heuristic bot's choice on the
same view, and plays the policy's action. Importing this module registers the bot kind
``policy:PATH`` (:func:`~unoengine.bots.base.register_bot_kind`): ``make_bot("policy:w.npz")``
loads the weights file at PATH, once per path; the kind is also declared as an entry point
(group ``unoengine.bot_kinds`` in pyproject.toml), so ``unoengine simulate --bots policy:PATH``
finds it without this import. It is not :class:`unoengine.envs.policies.PolicyBot` (any
observation-to-action callable): this policy also needs the heuristic's choice on the view.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np

from ...bots.base import register_bot_kind
from ...bots.heuristic import HeuristicBot
from ...engine.moves import Move
from ...engine.view import PlayerView
from ..actions import WAIT
from .policy import ResidualPolicy, load_policy


class ResidualPolicyBot:
    """Plays a :class:`~.policy.ResidualPolicy` from its view alone."""

    def __init__(self, policy: ResidualPolicy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self._heuristic = HeuristicBot()

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        policy = self.policy
        out_of_turn = view.current != view.player and not view.round_over
        mask = policy.actions.mask(view, wait=out_of_turn)
        if not any(mask):
            return None
        prior = self._heuristic.act(view, rng)
        prior_action = WAIT if prior is None else policy.actions.index(prior)
        observation = policy.observations.encode(view)
        action = policy.act_one(observation, np.frombuffer(bytes(mask), np.uint8), prior_action)
        return None if action == WAIT else policy.actions.move(action, view.player)


@cache
def _loaded(path: str) -> ResidualPolicy:
    return load_policy(path)


def policy_bot(path: str) -> ResidualPolicyBot:
    """The bot of kind ``policy:PATH``: the weights file at ``path``."""
    return ResidualPolicyBot(_loaded(path.strip()), f"policy:{path.strip()}")


register_bot_kind("policy", policy_bot)
