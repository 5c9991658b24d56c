"""Policies as bots, and the pool of opponents a learner meets (docs/rl.md, "Self-play").

A *policy* is any ``callable(observation, action_mask) -> action``: the observation is the shared
encoding of :mod:`.observations` (scaled or not), the mask an ``int8`` array over the actions of
:mod:`.actions` (as PettingZoo's ``action_mask``), the action an index. :class:`PolicyBot` plays
one as a unoengine bot, so a trained network sits at any table the shipped bots do (``simulate``
and ``tournament`` after :func:`register_policy`, the Gymnasium env's ``opponents``, the wire
protocol through ``unoengine serve``'s bots), seeing exactly what the environments show it.

:class:`OpponentPool` is the self-play league: the shipped bots and past snapshots of the
learner, one drawn per seat for every episode from the environment's seeded generator, at most
:data:`~unoengine.engine.limits.MAX_OPPONENTS` of them (the oldest snapshot leaves first).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

from ..bots import BotFactory, make_bot, register_bot
from ..bots.base import is_bot_name, known_bots_text
from ..bots.turns import BotError
from ..engine.errors import UnoEngineError, quoted, shown
from ..engine.limits import MAX_OPPONENTS
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.view import PlayerView
from .actions import ActionEncoding, ActionError
from .extras import require
from .observations import ObservationEncoding
from .scaling import ObservationScaler

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_np: Any = require("numpy", "rl")

Policy: TypeAlias = "Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]"
"""``policy(observation, action_mask) -> action``: an int (a numpy integer too) that the mask allows."""


class _Encodings:
    """The action and observation encodings of one profile and player count, made once per table."""

    def __init__(self, profile: Profile, num_players: int, scaled: bool) -> None:
        self.actions = ActionEncoding(profile, num_players)
        self.observations = ObservationEncoding(profile, num_players)
        self.scale: Callable[[Any], Any] | None = ObservationScaler(self.observations) if scaled else None


class PolicyBot:
    """A policy played as a bot: each decision encodes the bot's view as the environments do
    (the observation of :mod:`.observations`, scaled when ``scaled``; the mask of its legal
    moves, with ``WAIT`` when it decides out of turn), asks the policy, and plays the move of the
    action it returns (None for ``WAIT``). An action the mask does not allow raises
    :class:`~unoengine.bots.turns.BotError` naming the bot and the action."""

    def __init__(self, policy: Policy, *, name: str = "policy", scaled: bool = False) -> None:
        if not callable(policy):
            raise ActionError(f"policy: expected a callable(observation, action_mask), got {shown(policy)}")
        if type(name) is not str or not name:
            raise ActionError(f"name: expected a non-empty str, got {shown(name)}")
        if not isinstance(scaled, bool):
            raise ActionError(f"scaled: expected True or False, got {shown(scaled)}")
        self.policy = policy
        self.name = name
        self.scaled = scaled
        self._encodings: dict[tuple[Profile, int], _Encodings] = {}

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r}, scaled={self.scaled})"

    def encodings(self, profile: Profile, num_players: int) -> _Encodings:
        key = (profile, num_players)
        found = self._encodings.get(key)
        if found is None:
            found = self._encodings[key] = _Encodings(profile, num_players, self.scaled)
        return found

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        enc = self.encodings(view.profile, view.num_players)
        out_of_turn = not view.round_over and view.current != view.player  # a window: WAIT is legal
        observation = enc.observations.encode(view)
        if enc.scale is not None:
            observation = enc.scale(observation)
        mask = _np.frombuffer(bytes(enc.actions.mask(view, wait=out_of_turn)), dtype=_np.int8)
        answer = self.policy(observation, mask)
        index = _index_or_none(answer)
        if index is None or not 0 <= index < enc.actions.size or not mask[index]:
            raise BotError(f"bot {self.name!r} (seat {view.player}): its policy chose {shown(answer)}, "
                           "which the action mask does not allow", seat=view.player)
        return enc.actions.move(index, view.player)


def _index_or_none(value: object) -> int | None:
    if isinstance(value, bool | _np.bool_):
        return None
    if isinstance(value, _np.ndarray) and value.shape in ((), (1,)):
        value = value.reshape(())[()]  # what model.predict returns for one observation
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def register_policy(name: str, policy: Policy, *, scaled: bool = False) -> None:
    """Make ``name`` a bot name that plays ``policy`` (a fresh :class:`PolicyBot` per seat and
    game), for ``simulate``, ``tournament`` and ``make_bot`` in this process. With ``workers``
    above 1 the worker processes must know the name too: register it where they are started
    (a fork start copies it)."""
    if type(name) is not str or not name:
        raise ActionError(f"name: expected a non-empty str, got {shown(name)}")
    PolicyBot(policy, name=name, scaled=scaled)  # checks the policy now
    register_bot(name, lambda: PolicyBot(policy, name=name, scaled=scaled))


Opponent: TypeAlias = "str | BotFactory | PolicyBot"


class OpponentPool:
    """The opponents of a self-play league: shipped or registered bots by name, bot factories,
    and snapshots of a policy (:meth:`add`), at most ``max_size`` (and
    :data:`~unoengine.engine.limits.MAX_OPPONENTS`) in all.

    :meth:`draw` picks one per seat, uniformly and independently, from a numpy ``Generator``
    (the Gymnasium env passes its own, seeded by ``reset(seed=...)``, so an episode's opponents
    follow from its seed). Adding a snapshot beyond ``max_size`` removes the oldest snapshot; the
    bots given at construction stay. A snapshot must not change afterwards: pass a copy of the
    network (or its weights), not the one being trained."""

    def __init__(self, bots: Iterable[Opponent] = ("random", "heuristic"), *, max_size: int = MAX_OPPONENTS,
                 scaled: bool = False) -> None:
        if type(max_size) is not int or not 1 <= max_size <= MAX_OPPONENTS:
            raise ActionError(f"max_size: expected an int 1..{MAX_OPPONENTS}, got {shown(max_size)}")
        if not isinstance(scaled, bool):
            raise ActionError(f"scaled: expected True or False, got {shown(scaled)}")
        if isinstance(bots, str) or not isinstance(bots, Iterable):
            raise ActionError(f"bots: expected a list of bot names or factories, got {shown(bots)}")
        self.max_size = max_size
        self.scaled = scaled
        """Whether the snapshots' policies see scaled observations."""
        self._fixed: list[tuple[str, BotFactory]] = []
        self._snapshots: list[tuple[str, BotFactory]] = []
        self._added = 0
        for k, bot in enumerate(bots):
            if k >= max_size:
                raise ActionError(f"bots: more than max_size {max_size}")
            self._fixed.append(_factory(f"bots[{k}]", bot))

    def __len__(self) -> int:
        return len(self._fixed) + len(self._snapshots)

    def __repr__(self) -> str:
        return f"OpponentPool({', '.join(self.names)})"

    @property
    def names(self) -> list[str]:
        """The opponents' names, the fixed bots first, then the snapshots oldest first."""
        return [name for name, _ in (*self._fixed, *self._snapshots)]

    def add(self, policy: Policy, name: str | None = None) -> str:
        """Add a snapshot of a policy (played by a :class:`PolicyBot`); returns its name
        (``snapshot-k``, counting every snapshot added, unless ``name`` is given). The oldest
        snapshot leaves when the pool is full; a pool whose fixed bots fill it refuses."""
        if len(self._fixed) >= self.max_size:
            raise ActionError(f"policy: the pool's {len(self._fixed)} fixed bots fill its max_size {self.max_size}")
        self._added += 1
        label = f"snapshot-{self._added}" if name is None else name
        scaled = self.scaled
        PolicyBot(policy, name=label, scaled=scaled)  # checks the policy and the name now
        self._snapshots.append((label, lambda: PolicyBot(policy, name=label, scaled=scaled)))
        if len(self) > self.max_size:
            self._snapshots.pop(0)
        return label

    def draw(self, rng: Any, count: int) -> list[BotFactory]:
        """``count`` opponents' factories, each drawn uniformly from the pool with ``rng`` (a
        numpy ``Generator``: ``count`` calls of ``rng.integers``)."""
        entries = [*self._fixed, *self._snapshots]
        if not entries:
            raise ActionError("opponents: the pool is empty")
        return [entries[int(rng.integers(len(entries)))][1] for _ in range(count)]


def _factory(field: str, bot: object) -> tuple[str, BotFactory]:
    """(name, factory) of a pool entry: a bot name checked now, a :class:`PolicyBot`, or a factory."""
    if isinstance(bot, str):
        if not is_bot_name(bot):
            raise ActionError(f"{field}: unknown bot {quoted(bot)}; known bots: {known_bots_text()}")
        try:
            make_bot(bot)
        except UnoEngineError as exc:
            raise ActionError(f"{field}: {exc}") from None
        return bot, lambda: make_bot(bot)
    if isinstance(bot, PolicyBot):
        policy, label, scaled = bot.policy, bot.name, bot.scaled
        return label, lambda: PolicyBot(policy, name=label, scaled=scaled)
    if callable(bot):
        return getattr(bot, "__name__", "factory"), bot
    raise ActionError(f"{field}: expected a bot name, a PolicyBot or a bot factory, got {shown(bot)}")

