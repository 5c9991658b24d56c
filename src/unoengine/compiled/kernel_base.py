"""What every kernel shares: the layout's offsets, the shuffle, hands and piles, and the predicates of
legality that the transition needs too (engine/legality.py is their reference).

Every function here is compiled by numba (``cache=True``: the machine code is kept on disk, so a
second process loads it instead of compiling). They work in place on a game's flat array ``a``
(layout.py) with the profile's ``cfg`` (config.py); none allocates on the hot path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..engine.cards import BLANK, WILD_CUSTOMIZABLE, WILD_DRAW_FOUR, WILD_SWAP_HANDS
from ..engine.splitmix import GAMMA, MIX_1, MIX_2
from ..engine.state import Phase
from .config import C_CUSTOM_TARGET, C_DECK, C_NEXT_DEALER, C_SEVEN_ZERO, C_STACKING, C_WILD_DRAW_FOUR
from .layout import (
    CODES,
    HEADER,
    S_CH_ACTIVE,
    S_CH_ATTACKER,
    S_DEALER,
    S_DISCARD_LEN,
    S_DRAW_LEN,
    S_DRAW_POS,
    S_LAST_ACTIVE,
    S_LAST_WINNER,
    S_N,
    S_PHASE,
)
from .tables import COLOR_OF_T, SYMBOL_OF_T

F = TypeVar("F", bound=Callable[..., Any])


KERNELS_ELSEWHERE: Final = ("envs/compiled_encoding.py", "envs/batch.py")
"""Sources outside this folder that hold kernels built on these (paths from the package root): their
machine code lands in this cache too, so their edits must change the stamp."""


def _drop_stale_cache() -> None:
    """Forget machine code compiled from other kernel sources than these.

    numba's on-disk cache checks only the source file of the function it compiled: a kernel whose
    helper in another file changed would load its old machine code. So the cache kept next to
    the sources (``compiled/__pycache__``) is stamped with a hash of every kernel source, these and
    :data:`KERNELS_ELSEWHERE`, and dropped when the stamp differs (an edit in a working tree; an
    upgrade rewrites every file, which numba notices by itself), with the machine code of the
    kernels elsewhere (kept in their own ``__pycache__``). Where a folder cannot be written, numba
    keeps no cache there and there is nothing to drop."""
    here = Path(__file__).resolve().parent
    elsewhere = [here.parent / name for name in KERNELS_ELSEWHERE]
    digest = hashlib.sha256()
    for source in (*sorted(here.glob("*.py")), *elsewhere):
        try:
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
        except OSError:  # an install without the envs: their kernels are never compiled
            digest.update(source.name.encode() + b"\0")
    cache = here / "__pycache__"
    stamp = cache / "kernels.sha256"
    try:
        if stamp.read_text(encoding="ascii") == digest.hexdigest():
            return
    except OSError:
        pass
    stale = [*cache.glob("*.nbi"), *cache.glob("*.nbc")]
    for source in elsewhere:
        stale += [*source.parent.glob(f"__pycache__/{source.stem}.*.nbi"),
                  *source.parent.glob(f"__pycache__/{source.stem}.*.nbc")]
    try:
        cache.mkdir(exist_ok=True)
        for old in stale:
            old.unlink()
        stamp.write_text(digest.hexdigest(), encoding="ascii")
    except OSError:  # a read-only install: numba caches elsewhere, keyed by its own rules
        pass

_drop_stale_cache()
_njit = numba.njit(cache=True, nogil=True)
_LEAN: Final[dict[str, Any]] = {"cache": True, "nogil": True, "_nrt": False}
"""numba's options of a :func:`lean` kernel (``_nrt`` is numba's own switch of its runtime)."""
_njit_lean = numba.njit(**_LEAN)


def jit(function: F) -> F:
    """The one way a kernel function is compiled here: numba's ``njit`` with its machine code cached
    on disk (typed as the function it wraps, which it can also be called as from Python)."""
    return cast(F, _njit(function))

def lean(function: F) -> F:
    """A kernel compiled without numba's reference counting (``_nrt=False``).

    With counting on, each call of a kernel that is not inlined takes a reference to every array
    it is given and gives it back on return: two atomic instructions an array, about a quarter of
    a batch step in all. A lean kernel does neither; it may not allocate, copy one slice into
    another or keep an array past its call (numba refuses to compile what needs the runtime), and
    what it calls is compiled lean too. A counting kernel may call lean ones; the allocating ones
    (the batch loop, the hand rotation and the hand shuffle) stay counting."""
    return cast(F, _njit_lean(function))


def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """Ask the processor to fetch ``array[index]``'s cache line (LLVM's ``llvm.prefetch``, for reading,
    kept in every cache level); nothing else happens and nothing is checked. A batch's games do not
    fit in the caches, so the batch loop asks for the next game's lines while it steps this one."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        kind = signature.args[0]
        view = context.make_array(kind)(context, builder, args[0])
        at = cgutils.get_item_pointer(context, builder, kind, view, [args[1]], wraparound=False)  # type: ignore[no-untyped-call]
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        fetch = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [byte, word, word, word]), "llvm.prefetch.p0")
        builder.call(fetch, [builder.bitcast(at, byte), word(0), word(3), word(1)])  # read, keep, data
        return context.get_dummy_value()

    return types.void(array, index), codegen


prefetch: Final = cast(Callable[[Any, int], None], intrinsic(_prefetch))
"""``prefetch(array, index)`` in a kernel (see ``_prefetch``)."""

PLAY: Final = int(Phase.PLAY)
DRAWN: Final = int(Phase.DRAWN)
CHALLENGE: Final = int(Phase.CHALLENGE)
CHOOSE_COLOR: Final = int(Phase.CHOOSE_COLOR)
PENALTY: Final = int(Phase.PENALTY)
ROUND_OVER: Final = int(Phase.ROUND_OVER)
MATCH_OVER: Final = int(Phase.MATCH_OVER)

ENFORCED: Final = 1
"""config C_WILD_DRAW_FOUR of "enforced" (WD4-1, WD4-6)."""
SEVEN: Final = 7

_GAMMA: Final = np.uint64(GAMMA)
_MIX_1: Final = np.uint64(MIX_1)
_MIX_2: Final = np.uint64(MIX_2)
_LOW32: Final = np.uint64(0xFFFFFFFF)


# --- offsets (layout.offsets, written out) -----------------------------------------------------
@lean
def o_scores(n: int) -> int:
    return HEADER


@lean
def o_last_hand_points(n: int) -> int:
    return HEADER + n


@lean
def o_last_points_won(n: int) -> int:
    return HEADER + 2 * n


@lean
def o_hand_size(n: int) -> int:
    return HEADER + 3 * n


@lean
def o_hands(n: int) -> int:
    return HEADER + 4 * n


@lean
def o_known(n: int) -> int:
    return HEADER + 4 * n + n * CODES


@lean
def o_draw(n: int) -> int:
    return HEADER + 4 * n + n * CODES + n * n * CODES


@lean
def o_discard(n: int, d: int) -> int:
    return o_draw(n) + d


@lean
def o_challenge_hand(n: int, d: int) -> int:
    return o_draw(n) + 2 * d


@lean
def o_reveal(n: int, d: int) -> int:
    return o_draw(n) + 2 * d + CODES


# --- the shuffle "splitmix64-v1" (engine/splitmix.py, docs/shuffle.md) -------------------------
@lean
def _mix(z: Any) -> Any:
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@lean
def _mul_128(x: Any, y: Any) -> tuple[Any, Any]:
    """The high and low words of the 128-bit product of two uint64 (numba has no 128-bit int)."""
    x_lo, x_hi = x & _LOW32, x >> np.uint64(32)
    y_lo, y_hi = y & _LOW32, y >> np.uint64(32)
    lo_lo = x_lo * y_lo
    hi_lo = x_hi * y_lo
    lo_hi = x_lo * y_hi
    hi_hi = x_hi * y_hi
    cross = (lo_lo >> np.uint64(32)) + (hi_lo & _LOW32) + lo_hi
    high = hi_hi + (hi_lo >> np.uint64(32)) + (cross >> np.uint64(32))
    low = (cross << np.uint64(32)) | (lo_lo & _LOW32)
    return high, low


@lean
def next_output(state: Any) -> tuple[Any, Any]:
    """SplitMix64: the stream's next state and output."""
    state = state + _GAMMA
    return state, _mix(state)


@lean
def below(state: Any, bound: int) -> tuple[Any, int]:
    """A uniform draw below ``bound`` (Lemire's multiply-shift with rejection); the new stream state."""
    b = np.uint64(bound)
    state, x = next_output(state)
    high, low = _mul_128(x, b)
    if low < b:
        floor = (np.uint64(0) - b) % b
        while low < floor:
            state, x = next_output(state)
            high, low = _mul_128(x, b)
    return state, int(high)


@lean
def shuffle_block(a: Any, start: int, length: int, seed: int) -> int:
    """Fisher-Yates from the top of ``a[start:start + length]`` in place, from ``seed``; returns the
    next seed (the stream's next output), as engine/splitmix.py ``shuffled`` does. Seeds are int64
    bit patterns of the uint64 the reference keeps."""
    state = np.uint64(seed)
    for i in range(length - 1, 0, -1):
        state, j = below(state, i + 1)
        t = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = t
    state, out = next_output(state)
    return int(np.int64(out))


# --- hands and piles -----------------------------------------------------------------------------
@lean
def add_card(a: Any, n: int, player: int, card: int) -> None:
    a[o_hands(n) + player * CODES + card] += 1
    a[o_hand_size(n) + player] += 1


@lean
def remove_card(a: Any, n: int, player: int, card: int) -> None:
    a[o_hands(n) + player * CODES + card] -= 1
    a[o_hand_size(n) + player] -= 1


@lean
def holds(a: Any, n: int, player: int, card: int) -> bool:
    return a[o_hands(n) + player * CODES + card] > 0  # type: ignore[no-any-return]


@lean
def hand_size(a: Any, n: int, player: int) -> int:
    return a[o_hand_size(n) + player]  # type: ignore[no-any-return]


@lean
def top_card(cfg: Any, a: Any) -> int:
    n = a[S_N]
    return a[o_discard(n, cfg[C_DECK]) + a[S_DISCARD_LEN] - 1]  # type: ignore[no-any-return]


@lean
def can_draw(a: Any) -> bool:
    """PLAY-7: a card can be drawn, after reshuffling the discard pile if need be."""
    return a[S_DRAW_POS] < a[S_DRAW_LEN] or a[S_DISCARD_LEN] > 1  # type: ignore[no-any-return]


@lean
def holds_color(a: Any, n: int, player: int, color: int) -> bool:
    """WD4-1: does the hand hold a card of ``color`` (-1: a wild)? Numbers and symbols do not count."""
    base = o_hands(n) + player * CODES
    for c in range(CODES):
        if a[base + c] > 0 and COLOR_OF_T[c] == color:
            return True
    return False


@lean
def wild_draw_four_forbidden(cfg: Any, a: Any, n: int, player: int, color: int) -> bool:
    """WD4-1/WD4-6: "enforced" forbids a Wild Draw Four while holding the colour in play."""
    return cfg[C_WILD_DRAW_FOUR] == ENFORCED and holds_color(a, n, player, color)


@lean
def takes_target(cfg: Any, card: int) -> bool:
    """Does playing ``card`` name another player? ACT-7 Swap Hands; ACT-8 per effect; HOUSE-3's 7."""
    if card == WILD_SWAP_HANDS:
        return True
    if card == WILD_CUSTOMIZABLE or card == BLANK:
        return cfg[C_CUSTOM_TARGET] != 0  # type: ignore[no-any-return]
    return cfg[C_SEVEN_ZERO] != 0 and SYMBOL_OF_T[card] == SEVEN  # type: ignore[no-any-return]


@lean
def may_stack(cfg: Any, a: Any) -> bool:
    """HOUSE-1: may the player to act answer the pending Draw card? Not once the attacker went out
    on a last Wild Draw Four (ACT-9)."""
    phase = a[S_PHASE]
    if cfg[C_STACKING] == 0 or (phase != PENALTY and phase != CHALLENGE):
        return False
    if a[S_CH_ACTIVE] == 0:
        return True
    return hand_size(a, a[S_N], a[S_CH_ATTACKER]) > 0


@lean
def next_dealer(cfg: Any, a: Any) -> int:
    """SETUP-11: who deals the next round."""
    if cfg[C_NEXT_DEALER] == 1 and a[S_LAST_ACTIVE] != 0:
        return a[S_LAST_WINNER]  # type: ignore[no-any-return]
    return (a[S_DEALER] + 1) % a[S_N]  # type: ignore[no-any-return]


WILD_DRAW_FOUR_CODE: Final = WILD_DRAW_FOUR
