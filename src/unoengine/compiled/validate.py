"""The door check of a flat game array (layout.py) that comes from outside the engine (issue 41).

The kernels trust their arrays: numba checks no bounds, so a player count of 1,000, a pile length
past its block or a card code of 99 reads and writes outside the array and can crash the
interpreter. So every array a caller hands to a public constructor (``CompiledGame(...)``,
:meth:`~.game.CompiledGame.from_array`, ``CompiledEncoding.observation``/``mask``, a compiled
env table) passes :func:`checked_array` once, at the door; the kernels' own arrays (dealt, or
moved by the kernels) are never checked again, so the hot loops pay nothing.

:func:`checked_array` accepts exactly the arrays :meth:`~.game.CompiledGame.from_state` could have
made: it checks the shape, dtype and every slot that says where something is (player count, seats,
pile lengths and positions, card codes, counts within the cards in play), then reads the state
(convert.py ``to_state``) and holds it to the engine's state rules (engine/consistency.py, as
``from_position`` does: no card more often than the profile has it in play), and returns the array
that state converts to, so what the kernels see is the converter's own array (slots the state does
not read, such as stale pile entries past a pile's length, come back zero). Every refusal is a
:class:`~unoengine.engine.errors.PositionError` naming the slot and the problem.
"""

from __future__ import annotations

from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from ..engine.consistency import state_problems
from ..engine.errors import PositionError, quoted, shown
from ..engine.limits import MAX_COUNT, MAX_PLAYERS
from ..engine.profile import Profile
from ..engine.state import Phase
from .convert import to_array, to_state
from .layout import (
    CODES,
    HEADER,
    S_CH_ACTIVE,
    S_CH_ATTACKER,
    S_CH_BLUFF,
    S_CH_COLOR,
    S_CH_VICTIM,
    S_COLOR,
    S_CURRENT,
    S_DEALER,
    S_DIRECTION,
    S_DISCARD_LEN,
    S_DRAW_LEN,
    S_DRAW_POS,
    S_DRAWN,
    S_LAST_ACTIVE,
    S_LAST_BLOCKED,
    S_LAST_WINNER,
    S_MATCH_WINNER,
    S_N,
    S_PASSES,
    S_PENDING_DRAW,
    S_PHASE,
    S_ROUND,
    S_RV_ACTIVE,
    S_RV_OWNER,
    S_RV_VIEWER,
    S_UNO_EXPOSED,
    offsets,
)

_T = TypeVar("_T", bound=np.generic)
MIN_PLAYERS: Final = 2
_PHASES: Final = len(Phase)


def _refuse(field: str, problem: str) -> PositionError:
    return PositionError(f"array: {field}: {problem}", [(f"array.{field}", problem)])


def _in(v: list[int], slot: int, name: str, lo: int, hi: int) -> None:
    """Header slot ``slot`` holds an integer from ``lo`` to ``hi``."""
    if not lo <= v[slot] <= hi:
        raise _refuse(name, f"{v[slot]} is not from {lo} to {hi}")


def _codes(a: npt.NDArray[np.int64], start: int, length: int, name: str) -> None:
    """``a[start:start + length]`` are card codes."""
    block = a[start:start + length]
    bad = np.flatnonzero((block < 0) | (block >= CODES))
    if bad.size:
        raise _refuse(f"{name}[{int(bad[0])}]", f"{int(block[bad[0]])} is not a card code 0..{CODES - 1}")


def _counts(a: npt.NDArray[np.int64], start: int, rows: int, deck: npt.NDArray[np.int64], name: str) -> None:
    """``rows`` rows of 58 counts from ``start``, each from 0 to the copies of its card in play."""
    block = a[start:start + rows * CODES].reshape(rows, CODES)
    bad = np.argwhere((block < 0) | (block > deck))
    if bad.size:
        row, card = (int(x) for x in bad[0])
        raise _refuse(f"{name}[{row}][{card}]", f"{int(block[row, card])} copies; the profile has "
                      f"{int(deck[card])} in play")


def checked_array(profile: Profile, array: object) -> npt.NDArray[np.int64]:
    """The engine's own array of the game ``array`` describes, for ``profile``; PositionError
    naming the slot when ``array`` is not one :meth:`CompiledGame.from_state` could have made
    (see the module's docstring). ``array`` itself is never changed nor kept."""
    if not isinstance(array, np.ndarray):
        raise _refuse("type", f"expected a numpy array, got a {type(array).__name__}")
    if array.dtype != np.int64 or array.ndim != 1:
        raise _refuse("dtype", f"expected a 1-D int64 array (layout.py), got {array.ndim}-D {shown(str(array.dtype))}")
    if array.size < HEADER:
        raise _refuse("size", f"{array.size} slots, fewer than the {HEADER} of the header")
    v = [int(x) for x in array[:HEADER]]
    lo, hi = max(MIN_PLAYERS, profile.min_players), min(profile.max_players, MAX_PLAYERS)
    _in(v, S_N, "S_N (players)", lo, hi)
    n, d = v[S_N], profile.deck_size
    o = offsets(n, d)
    if array.size != o.size:
        raise _refuse("size", f"{array.size} slots; a {n}-player game of {quoted(profile.name)} has {o.size}")
    a = np.ascontiguousarray(array)
    seat = n - 1
    for slot, name in ((S_CURRENT, "S_CURRENT"), (S_DEALER, "S_DEALER")):
        _in(v, slot, name, 0, seat)
    for slot, name in ((S_UNO_EXPOSED, "S_UNO_EXPOSED"), (S_MATCH_WINNER, "S_MATCH_WINNER")):
        _in(v, slot, name, -1, seat)
    _in(v, S_PHASE, "S_PHASE", 0, _PHASES - 1)
    _in(v, S_COLOR, "S_COLOR", -1, 3)
    if v[S_DIRECTION] not in (1, -1):
        raise _refuse("S_DIRECTION", f"{v[S_DIRECTION]} is not 1 or -1")
    _in(v, S_DRAWN, "S_DRAWN", -1, CODES - 1)
    for slot, name in ((S_PASSES, "S_PASSES"), (S_PENDING_DRAW, "S_PENDING_DRAW")):
        _in(v, slot, name, 0, MAX_COUNT)
    _in(v, S_ROUND, "S_ROUND", 1, MAX_COUNT)
    _in(v, S_DRAW_LEN, "S_DRAW_LEN", 0, d)
    _in(v, S_DRAW_POS, "S_DRAW_POS", 0, v[S_DRAW_LEN])
    _in(v, S_DISCARD_LEN, "S_DISCARD_LEN", 1, d)
    for slot, name in ((S_CH_ACTIVE, "S_CH_ACTIVE"), (S_RV_ACTIVE, "S_RV_ACTIVE"), (S_LAST_ACTIVE, "S_LAST_ACTIVE")):
        _in(v, slot, name, 0, 1)
    if v[S_CH_ACTIVE]:
        for slot, name in ((S_CH_ATTACKER, "S_CH_ATTACKER"), (S_CH_VICTIM, "S_CH_VICTIM")):
            _in(v, slot, name, 0, seat)
        _in(v, S_CH_BLUFF, "S_CH_BLUFF", 0, 1)
        _in(v, S_CH_COLOR, "S_CH_COLOR", 0, 3)
    if v[S_RV_ACTIVE]:
        for slot, name in ((S_RV_VIEWER, "S_RV_VIEWER"), (S_RV_OWNER, "S_RV_OWNER")):
            _in(v, slot, name, 0, seat)
    if v[S_LAST_ACTIVE]:
        _in(v, S_LAST_WINNER, "S_LAST_WINNER", 0, seat)
        _in(v, S_LAST_BLOCKED, "S_LAST_BLOCKED", 0, 1)
    for start, name in ((o.scores, "scores"), (o.last_hand_points, "last_hand_points"),
                        (o.last_points_won, "last_points_won")):
        block = a[start:start + n]
        if block.size and (int(block.min()) < -MAX_COUNT or int(block.max()) > MAX_COUNT):
            raise _refuse(name, f"a value beyond +-{MAX_COUNT:,}")
    _codes(a, o.draw, v[S_DRAW_LEN], "draw")
    _codes(a, o.discard, v[S_DISCARD_LEN], "discard")
    deck = np.asarray(profile.play_deck, dtype=np.int64)
    _counts(a, o.hands, n, deck, "hands")
    _counts(a, o.known, n * n, deck, "known")
    if v[S_CH_ACTIVE]:
        _counts(a, o.challenge_hand, 1, deck, "challenge_hand")
    if v[S_RV_ACTIVE]:
        _counts(a, o.reveal, 1, deck, "reveal")
    state = to_state(profile, a)
    problems = state_problems(state, whole_deck=False)
    if problems:
        raise PositionError.from_problems(problems)
    return to_array(state)


def read_only(a: npt.NDArray[_T]) -> npt.NDArray[_T]:
    """A view of ``a`` that cannot be written, nor made writable again (``flags.writeable = True``
    is refused, since the memory it sees is a read-only buffer): how the engine shows its own arrays."""
    return np.frombuffer(a.data.toreadonly(), dtype=a.dtype).reshape(a.shape)
