"""Which engine runs an environment's game: ``backend="reference"`` (the pure engine, the default)
or ``"compiled"`` (the numba kernels of :mod:`unoengine.compiled`, the ``fast`` extra).

The Gymnasium and PettingZoo envs ask a backend for a live table (:class:`LiveTable`: the
decision sequence of :class:`~.table.Table`), the observation of a seat and a bot's move; the
reference backend answers from :class:`~.table.Table` and the encoders, the compiled one from
:mod:`.compiled_backend`. Both give the same observations, masks, rewards and infos for the same
seed and actions (tests/test_env_backends.py plays them in lockstep).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from ..bots.base import Bot
from ..engine.dealing import new_game
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.view import view
from .actions import ActionEncoding
from .arguments import check_choice
from .extras import require
from .observations import ObservationEncoding
from .table import OutOfTurn, Table

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Backend = Literal["reference", "compiled"]
BACKENDS: Final = ("reference", "compiled")


class LiveTable(Protocol):
    """What an environment reads of its game: :class:`~.table.Table`'s interface."""

    @property
    def state(self) -> GameState: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def now(self) -> tuple[int, tuple[Move, ...], bool]: ...
    @property
    def actor(self) -> int: ...
    @property
    def may_wait(self) -> bool: ...
    def moves(self, player: int | None = None) -> tuple[Move, ...]: ...
    def decision(self) -> tuple[int, tuple[Move, ...], bool]: ...
    def act(self, move: Move | None) -> Any: ...
    def act_legal(self, move: Move) -> Any: ...


class EnvBackend(Protocol):
    """One engine behind an environment (see the module docstring)."""

    @property
    def name(self) -> Backend:
        """``"reference"`` or ``"compiled"``."""
        ...

    def deal(self, seed: int, out_of_turn: OutOfTurn) -> LiveTable:
        """A table at ``new_game(profile, n, seed)``."""
        ...

    def start(self, state: GameState, out_of_turn: OutOfTurn) -> LiveTable:
        """A table at a given reference state."""
        ...

    def observe(self, table: Any, seat: int) -> npt.NDArray[np.float32]:
        """``ObservationEncoding.encode(view(table.state, seat))``."""
        ...

    def mask(self, table: Any, seat: int, wait: bool) -> bytearray:
        """``seat``'s legal actions now, 1 or 0 each (``WAIT`` too if ``wait``)."""
        ...

    def bot_move(self, bot: Bot, table: Any, seat: int, rng: random.Random) -> Move | None:
        """What ``bot`` at ``seat`` does now (``bot.act`` on its view, or the same by a faster path)."""
        ...


class ReferenceBackend:
    """The pure engine: a :class:`~.table.Table` of reference states."""

    name: Final = "reference"

    def __init__(self, profile: Profile, num_players: int, observations: ObservationEncoding,
                 actions: ActionEncoding) -> None:
        self.profile = profile
        self.num_players = num_players
        self.observations = observations
        self.actions = actions

    def deal(self, seed: int, out_of_turn: OutOfTurn) -> Table:
        return Table(new_game(self.profile, self.num_players, seed), out_of_turn)

    def start(self, state: GameState, out_of_turn: OutOfTurn) -> Table:
        return Table(state, out_of_turn)

    def observe(self, table: Any, seat: int) -> npt.NDArray[np.float32]:
        return self.observations.encode_own(table.state, seat)

    def mask(self, table: Any, seat: int, wait: bool) -> bytearray:
        mask = bytearray(self.actions.size)
        for i in self.actions.legal_actions(table.moves(seat), wait=wait):
            mask[i] = 1
        return mask

    def bot_move(self, bot: Bot, table: Any, seat: int, rng: random.Random) -> Move | None:
        return bot.act(view(table.state, seat), rng)


def env_backend(name: object, profile: Profile, num_players: int, observations: ObservationEncoding,
                actions: ActionEncoding) -> EnvBackend:
    """The backend ``name`` for one profile and player count. ``"compiled"`` needs numba (the
    install hint otherwise, MissingExtraError) and refuses, naming the rule, a profile the
    kernels cannot run (UnsupportedRuleError, an UnoEngineError)."""
    check_choice("backend", name, BACKENDS)
    if name == "reference":
        return ReferenceBackend(profile, num_players, observations, actions)
    require("numpy", "fast")
    require("numba", "fast")
    from .compiled_backend import CompiledBackend

    return CompiledBackend(profile, num_players)
