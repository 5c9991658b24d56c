"""The envs' ``backend="compiled"``: a :class:`~.table.Table` over the compiled engine's flat game
array, and the observations of :mod:`.compiled_encoding` (docs/rl.md, "Backends").

:class:`CompiledTable` makes the same decision sequence as :class:`~.table.Table` (windows in seat
order after the player to act, everyone windowed while a jump-in is possible, HOUSE-2; the next
dealer after a round), with the legal moves listed by the kernels in the reference engine's order
and decoded to the engine's own move objects, so a framework loop sees the same moves and the
same masks. The reference :class:`~unoengine.engine.state.GameState` is made only when something
asks for ``table.state`` (a bot that reads a view, the rewards at a round's end, rendering), and
kept until the next move.

RandomBot and HeuristicBot decide on the array by their compiled policies
(bots/compiled_policies.py), drawing from their own streams exactly as the Python bots do; another
bot that decides from its legal moves alone (``act_on_moves``) is given the decoded moves, as
:func:`unoengine.bots.turns.next_move` gives them. Any other bot (ISMCTS, a program) acts on a
reference view (one conversion per decision: docs/performance.md, "Backends").

Needs numba (the ``fast`` extra); :func:`.backend.env_backend` imports this module only when asked.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bots.base import Bot
from ..bots.compiled_policies import compiled_policy
from ..compiled.codes import MAX_LEGAL, PLAYER_SHIFT, decode, encode
from ..compiled.convert import to_state
from ..compiled.game import CompiledGame
from ..compiled.kernel_apply import apply_move
from ..compiled.kernel_legal import legal_moves
from ..compiled.layout import S_CURRENT, S_PHASE
from ..compiled.sealed import Sealed
from ..compiled.validate import checked_array, read_only
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.view import view
from .actions import ActionError
from .arguments import check_choice
from .compiled_encoding import CompiledEncoding, everyone_windowed, mask_into, observe, only_current_may_act
from .table import OUT_OF_TURN, OutOfTurn

_PHASES = tuple(Phase)


class CompiledBackend(Sealed):
    """The compiled engine behind an env: one :class:`CompiledEncoding` per profile and player count
    (made at construction, so a profile the kernels refuse is refused there, naming the rule). Its
    attributes are fixed once made (compiled/sealed.py)."""

    name: Final = "compiled"

    def __init__(self, profile: Profile, num_players: int) -> None:
        self.profile = profile
        self.num_players = num_players
        self.encoding = CompiledEncoding(profile, num_players)
        self.moves: dict[int, Move] = {}
        """The engine's move object of each code met (decoding is most of a table's Python work)."""
        self.codes: dict[int, int] = {}
        """The code of each of those move objects, by id (they live as long as ``moves`` keeps them)."""

    def decode(self, code: int) -> Move:
        """``codes.decode``, remembered."""
        move = self.moves.get(code)
        if move is None:
            move = self.moves[code] = decode(code)
            self.codes[id(move)] = code
        return move

    def __reduce__(self) -> tuple[Any, ...]:
        # The encoding holds the numpy module (ObservationEncoding), which does not pickle: made again.
        return CompiledBackend, (self.profile, self.num_players)

    def deal(self, seed: int, out_of_turn: OutOfTurn) -> CompiledTable:
        return CompiledTable.made(self, CompiledGame.new(self.profile, self.num_players, seed).array, out_of_turn)

    def start(self, state: GameState, out_of_turn: OutOfTurn) -> CompiledTable:
        return CompiledTable.made(self, CompiledGame.from_state(state).array, out_of_turn)

    def observe(self, table: Any, seat: int) -> npt.NDArray[np.float32]:
        out = np.empty(self.encoding.obs_size, dtype=np.float32)
        enc = self.encoding
        observe(enc._cfg, table._array, seat, enc._kind_of, enc._offsets, out)
        return out

    def mask(self, table: Any, seat: int, wait: bool) -> bytearray:
        """``ActionEncoding.mask`` of ``seat``'s legal actions now (``WAIT`` if ``wait``), by the kernel."""
        enc = self.encoding
        out = np.empty(enc.action_size, dtype=np.uint8)
        missing = mask_into(enc._cfg, table._array, seat, wait, enc._play_index, enc._other_index, out, table._buffer)
        if missing:
            raise ActionError(f"state: {missing} legal move(s) of player {seat} have no action in {enc.actions!r}")
        return bytearray(out.tobytes())

    def bot_move(self, bot: Bot, table: Any, seat: int, rng: random.Random) -> Move | None:
        policy = compiled_policy(bot)
        if policy is not None:  # bots/compiled_policies.py: the Python bot's move, from its own stream
            on_turn = seat == table.current or table.phase >= Phase.ROUND_OVER
            code = policy(self.encoding._cfg, table._array, seat, on_turn, rng, table._buffer)
            return None if code < 0 else self.decode(code)
        act_on_moves = getattr(bot, "act_on_moves", None)
        if act_on_moves is not None:  # bots/base.py: the same choice as act(view), from the moves alone
            on_turn = seat == table.current or table.phase >= Phase.ROUND_OVER
            move: Move | None = act_on_moves(table.moves(seat), on_turn, rng)
            return move
        return bot.act(view(table.state, seat), rng)


class CompiledTable(Sealed):
    """:class:`~.table.Table` over a compiled game array (see the module docstring). The array it
    is given is checked (compiled/validate.py) and copied; its attributes are fixed once made
    (compiled/sealed.py) but for ``now``, and :attr:`array` is shown read-only."""

    _open_names = frozenset({"now"})
    now: tuple[int, tuple[Move, ...], bool]

    def __init__(self, backend: CompiledBackend, array: npt.NDArray[np.int64], out_of_turn: OutOfTurn = "windows"
                 ) -> None:
        if not isinstance(backend, CompiledBackend):
            raise ActionError(f"backend: expected a CompiledBackend, got a {type(backend).__name__}")
        self._setup(backend, checked_array(backend.profile, array), out_of_turn)

    @classmethod
    def made(cls, backend: CompiledBackend, array: npt.NDArray[np.int64], out_of_turn: OutOfTurn) -> CompiledTable:
        """A table of an array the engine made (dealt or converted): copied, not checked again."""
        table = cls.__new__(cls)
        table._setup(backend, np.array(array, dtype=np.int64), out_of_turn)
        return table

    def _setup(self, backend: CompiledBackend, array: npt.NDArray[np.int64], out_of_turn: OutOfTurn) -> None:
        check_choice("out_of_turn", out_of_turn, OUT_OF_TURN)
        self.backend = backend
        self.windows = out_of_turn == "windows"
        self._array = array  # our own, writable copy
        self._buffer = np.empty(MAX_LEGAL, dtype=np.int64)
        self._cfg = backend.encoding._cfg
        self._state: GameState | None = None
        self._queue: list[int] = []
        self._legal: dict[int, tuple[Move, ...]] = {}
        self._owner = 0
        self._open()

    @property
    def array(self) -> npt.NDArray[np.int64]:
        """The game's flat array (compiled/layout.py), read-only."""
        return read_only(self._array)

    @property
    def buffer(self) -> npt.NDArray[np.int64]:
        """The kernels' scratch list of legal move codes, read-only."""
        return read_only(self._buffer)

    @property
    def state(self) -> GameState:
        """The reference state now (made on first use after a move)."""
        if self._state is None:
            self._state = to_state(self.backend.profile, self._array)
        return self._state

    @property
    def phase(self) -> Phase:
        return _PHASES[int(self._array[S_PHASE])]

    @property
    def current(self) -> int:
        """The player to act (engine ``state.current``)."""
        return int(self._array[S_CURRENT])

    @property
    def actor(self) -> int:
        return self.now[0]

    @property
    def may_wait(self) -> bool:
        return self.now[2]

    def moves(self, player: int | None = None) -> tuple[Move, ...]:
        return self.now[1] if player is None else self._legal.get(player, ())

    def decision(self) -> tuple[int, tuple[Move, ...], bool]:
        return self.now

    def act(self, move: Move | None) -> CompiledTable:
        """As :meth:`.table.Table.act`: the actor moves, or lets its window pass with None."""
        if move is None:
            if not self._queue:
                raise ActionError(f"player {self.actor} must move: it is their turn, not a window to let pass")
            self._queue.pop(0)
            self._decide()
            return self
        actor, mine, _ = self.now
        if move.player != actor or move not in mine:
            raise ActionError(f"move: {move!r} is not a legal move of player {actor} now")
        return self.act_legal(move)

    def act_legal(self, move: Move) -> CompiledTable:
        """A move already found among :meth:`moves`, made without a second check."""
        code = self.backend.codes.get(id(move))
        apply_move(self._cfg, self._array, encode(move) if code is None else code)
        self._state = None
        self._open()
        return self

    def copy(self) -> CompiledTable:
        twin = CompiledTable.__new__(CompiledTable)
        twin.__dict__.update(self.__dict__)
        twin._array = self._array.copy()
        twin._buffer = np.empty(MAX_LEGAL, dtype=np.int64)
        twin._queue = list(self._queue)
        return twin

    def _decide(self) -> None:
        queue = self._queue
        actor = queue[0] if queue else self._owner
        self.now = (actor, self._legal.get(actor, ()), bool(queue))

    def _open(self) -> None:
        """envs/table.py ``Table._open`` on the compiled game."""
        a, cfg = self._array, self._cfg
        count = legal_moves(cfg, a, -1, self._buffer)
        codes = self._buffer[:count].tolist()
        known, decode_new = self.backend.moves, self.backend.decode
        moves = [known.get(c) or decode_new(c) for c in codes]
        current = self.current
        if only_current_may_act(cfg, a):
            self._owner = current
            mine = tuple(moves)
            self._legal = {current: mine}
            self._queue = []
            self.now = (current, mine, False)
            return
        grouped: dict[int, list[Move]] = {}
        for code, m in zip(codes, moves, strict=True):
            grouped.setdefault(code >> PLAYER_SHIFT & 15, []).append(m)
        self._legal = legal = {p: tuple(ms) for p, ms in grouped.items()}
        n = self.backend.num_players
        if self.phase >= Phase.ROUND_OVER:
            self._owner = next(iter(legal), current)  # the next dealer (NextRound), in a match
            self._queue = []
        elif not self.windows:
            self._owner = current
            self._queue = []
        else:
            self._owner = current
            order = [(current + k) % n for k in range(1, n)]
            self._queue = order if everyone_windowed(cfg, a) else [q for q in order if q in legal]
        self._decide()
