"""The envs' observation and action mask, compiled: the same vectors as :mod:`.observations` and
:mod:`.actions`, read straight from the compiled engine's flat game arrays (compiled/layout.py).

:class:`CompiledEncoding` builds, once per profile and player count, the arrays the kernels look
things up in: each card code's entry among the deck's kinds, each observation segment's offset, and
each seat's table from move code to action index (made from :class:`~.actions.ActionEncoding`'s own
rows, so the two encodings cannot drift apart). The kernels :func:`observe` and :func:`mask_into`
then write one player's observation and mask with no Python in the loop; tests/test_compiled_envs.py
holds them to ``ObservationEncoding.encode(view(state, p))`` and ``ActionEncoding.mask(view(...))``
bit for bit on converted reference states of every shipped profile and overlay.

This module needs numba (the ``fast`` extra); nothing imports it unless asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ..compiled.codes import CARD_SHIFT, COLOR_SHIFT, MAX_LEGAL, PLAYER_SHIFT, TARGET_SHIFT, UNO_SHIFT, encode
from ..compiled.config import C_DECK, C_JUMP_IN, config_of
from ..compiled.kernel_base import (
    DRAWN,
    PENALTY,
    PLAY,
    ROUND_OVER,
    jit,
    lean,
    o_discard,
    o_hand_size,
    o_hands,
    o_known,
    o_scores,
)
from ..compiled.kernel_legal import legal_moves_into
from ..compiled.layout import (
    CODES,
    S_CH_ACTIVE,
    S_CH_ATTACKER,
    S_CH_COLOR,
    S_COLOR,
    S_CURRENT,
    S_DEALER,
    S_DIRECTION,
    S_DISCARD_LEN,
    S_DRAW_LEN,
    S_DRAW_POS,
    S_DRAWN,
    S_N,
    S_PASSES,
    S_PENDING_DRAW,
    S_PHASE,
    S_UNO_EXPOSED,
)
from ..compiled.sealed import Sealed
from ..compiled.validate import checked_array, read_only
from ..engine.errors import shown
from ..engine.profile import Profile
from .actions import WAIT, ActionEncoding, ActionError
from .observations import ObservationEncoding

if TYPE_CHECKING:
    import numpy.typing as npt

KINDS: Final = 9
"""Move kinds of compiled/codes.py (K_PLAY .. K_NEXT_ROUND)."""
SEGMENTS: Final = ("hand", "top_card", "color", "drawn_card", "discard", "known", "hand_sizes", "current",
                   "phase", "direction", "pending_draw", "draw_pile", "uno_exposed", "challenge_attacker",
                   "challenge_color", "passes", "dealer", "scores")
"""The observation segments, in the order of the kernels' offset array (``offsets[i]`` is SEGMENTS[i]'s)."""
(G_HAND, G_TOP, G_COLOR, G_DRAWN, G_DISCARD, G_KNOWN, G_SIZES, G_CURRENT, G_PHASE, G_DIRECTION, G_PENDING,
 G_DRAW_PILE, G_EXPOSED, G_ATTACKER, G_CHALLENGE_COLOR, G_PASSES, G_DEALER, G_SCORES) = range(len(SEGMENTS))


class CompiledEncoding(Sealed):
    """The lookup arrays of one profile and player count, and the encodings they mirror. The
    arrays are shown read-only (``cfg``, ``kind_of``, ``offsets``, ``play_index``, ``other_index``)
    and the attributes are fixed once made (compiled/sealed.py): the kernels index by them unchecked."""

    def __init__(self, profile: Profile, num_players: int) -> None:
        self._cfg = config_of(profile)  # refuses, naming the rule, what the kernels cannot run
        self.actions = ActionEncoding(profile, num_players)
        self.observations = ObservationEncoding(profile, num_players)
        self.profile = profile
        self.num_players = n = num_players
        self._kind_of = np.full(CODES, -1, dtype=np.int64)
        for j, code in enumerate(self.observations.kinds):
            self._kind_of[code] = j
        self._offsets = np.array([self.observations.segment(s).offset for s in SEGMENTS], dtype=np.int64)
        # play_index[p, card, color + 1, target + 1, uno] and other_index[p, kind, color + 1, target + 1]:
        # the action of each move code of seat p, -1 where the table has none.
        self._play_index = np.full((n, CODES, 5, n + 1, 2), -1, dtype=np.int64)
        self._other_index = np.full((n, KINDS, 5, n + 1), -1, dtype=np.int64)
        for p in range(n):
            for i, move in enumerate(self.actions.row(p)):
                if move is None:
                    continue
                code = encode(move)
                kind, card, color, target, uno = fields(code)
                if kind == 0:
                    self._play_index[p, card, color + 1, target + 1, uno] = i
                else:
                    self._other_index[p, kind, color + 1, target + 1] = i
        self.obs_size = self.observations.size
        self.action_size = self.actions.size

    @property
    def cfg(self) -> npt.NDArray[np.int64]:
        """The profile's kernel config (compiled/config.py), read-only."""
        return read_only(self._cfg)

    @property
    def kind_of(self) -> npt.NDArray[np.int64]:
        """Each card code's entry among the deck's kinds (-1: not in the deck), read-only."""
        return read_only(self._kind_of)

    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        """Each observation segment's offset, in SEGMENTS order, read-only."""
        return read_only(self._offsets)

    @property
    def play_index(self) -> npt.NDArray[np.int64]:
        """The action of each play's move code, by seat (see ``__init__``), read-only."""
        return read_only(self._play_index)

    @property
    def other_index(self) -> npt.NDArray[np.int64]:
        """The action of each other move's code, by seat (see ``__init__``), read-only."""
        return read_only(self._other_index)

    def observation(self, a: npt.NDArray[np.int64], player: int) -> npt.NDArray[np.float32]:
        """Player ``player``'s observation of the game array ``a`` (a new vector); ``a`` is checked
        first (compiled/validate.py: PositionError naming the slot)."""
        game = self._check(a, player)
        out = np.empty(self.obs_size, dtype=np.float32)
        observe(self._cfg, game, player, self._kind_of, self._offsets, out)
        return out

    def mask(self, a: npt.NDArray[np.int64], player: int, *, wait: bool = False) -> npt.NDArray[np.uint8]:
        """Player ``player``'s legal actions in ``a``, 1 or 0 each (``WAIT`` set if ``wait``); ``a``
        is checked first, as in :meth:`observation`."""
        game = self._check(a, player)
        out = np.empty(self.action_size, dtype=np.uint8)
        buf = np.empty(MAX_LEGAL, dtype=np.int64)
        missing = mask_into(self._cfg, game, player, bool(wait), self._play_index, self._other_index, out, buf)
        if missing:
            raise ActionError(f"state: {missing} legal move(s) of player {player} have no action in {self.actions!r}")
        return out

    def _check(self, a: npt.NDArray[np.int64], player: int) -> npt.NDArray[np.int64]:
        """The engine's own copy of the game ``a`` (validate.py), for a seat of this encoding."""
        if not isinstance(a, np.ndarray) or a.dtype != np.int64 or a.ndim != 1 or a.size == 0 \
                or int(a[S_N]) != self.num_players:
            raise ActionError(f"game: expected the int64 array of a {self.num_players}-player game")
        if isinstance(player, bool) or not isinstance(player, int | np.integer) or not 0 <= player < self.num_players:
            raise ActionError(f"player: expected a seat 0..{self.num_players - 1}, got {shown(player)}")
        return checked_array(self.profile, a)


def fields(code: int) -> tuple[int, int, int, int, int]:
    """``(kind, card, color, target, uno)`` of a move code (-1 for a field the move has not)."""
    return (code & 15, (code >> CARD_SHIFT & 127) - 1, (code >> COLOR_SHIFT & 7) - 1,
            (code >> TARGET_SHIFT & 31) - 1, code >> UNO_SHIFT & 1)


@lean
def action_of(code: int, play_index: Any, other_index: Any) -> int:
    """The action index of a legal move code, -1 if the table has none."""
    kind = code & 15
    p = code >> PLAYER_SHIFT & 15
    color = code >> COLOR_SHIFT & 7
    target = code >> TARGET_SHIFT & 31
    if kind == 0:
        card = (code >> CARD_SHIFT & 127) - 1
        return play_index[p, card, color, target, code >> UNO_SHIFT & 1]  # type: ignore[no-any-return]
    return other_index[p, kind, color, target]  # type: ignore[no-any-return]


@jit
def mask_into(cfg: Any, a: Any, player: int, wait: bool, play_index: Any, other_index: Any, out: Any,
              buf: Any) -> int:
    """``ActionEncoding.mask(view(state, player), wait=wait)`` into ``out``; ``buf`` holds the legal
    move codes (codes.MAX_LEGAL long). Returns how many legal moves had no action (0 unless a bug)."""
    return mask_with(cfg, a, player, wait, play_index, other_index, out, buf, np.empty(CODES, dtype=np.int64))


@lean
def mask_with(cfg: Any, a: Any, player: int, wait: bool, play_index: Any, other_index: Any, out: Any,
              buf: Any, cards: Any) -> int:
    """:func:`mask_into` with the caller's scratch ``cards`` (layout.CODES long): nothing allocated."""
    for i in range(out.shape[0]):
        out[i] = 0
    k = legal_moves_into(cfg, a, player, buf, cards)
    missing = 0
    for i in range(k):
        j = action_of(buf[i], play_index, other_index)
        if j < 0:
            missing += 1
        else:
            out[j] = 1
    if wait:
        out[WAIT] = 1
    return missing


@jit
def has_moves(cfg: Any, a: Any, player: int, buf: Any) -> bool:
    """Has ``player`` a legal move now?"""
    return legal_moves_into(cfg, a, player, buf, np.empty(CODES, dtype=np.int64)) > 0


@lean
def observe(cfg: Any, a: Any, me: int, kind_of: Any, offsets: Any, out: Any) -> None:
    """``ObservationEncoding.encode(view(state, me))`` into the float32 row ``out``: only what the
    view holds (the own hand, the drawn card when it is this player's, what this player knows).

    The hand and the known hands are written kind by kind, counts of 0 included, with no test of
    the count: a hand is random, so a branch on each card's count would be mispredicted about
    every other card (``kind_of`` of a code not in play is -1 for every game alike, a branch the
    processor learns)."""
    n = a[S_N]
    d = cfg[C_DECK]
    k = offsets[G_TOP] - offsets[G_HAND]
    for i in range(out.shape[0]):
        out[i] = 0.0
    base = o_hands(n) + me * CODES
    at = offsets[G_HAND]
    for c in range(CODES):
        j = kind_of[c]
        if j >= 0:
            out[at + j] = a[base + c]
    start = o_discard(n, d)
    length = a[S_DISCARD_LEN]
    at = offsets[G_DISCARD]
    for i in range(length):
        out[at + kind_of[a[start + i]]] += 1.0
    out[offsets[G_TOP] + kind_of[a[start + length - 1]]] = 1.0
    color = a[S_COLOR]
    if color >= 0:
        out[offsets[G_COLOR] + color] = 1.0
    phase = a[S_PHASE]
    current = a[S_CURRENT]
    if phase == DRAWN and current == me and a[S_DRAWN] >= 0:
        out[offsets[G_DRAWN] + kind_of[a[S_DRAWN]]] = 1.0
    known = o_known(n)
    sizes = o_hand_size(n)
    scores = o_scores(n)
    owner = me
    for j in range(n):
        out[offsets[G_SIZES] + j] = a[sizes + owner]
        out[offsets[G_SCORES] + j] = a[scores + owner]
        if j > 0:
            row = known + (me * n + owner) * CODES
            at = offsets[G_KNOWN] + (j - 1) * k
            for c in range(CODES):
                kind = kind_of[c]
                if kind >= 0:
                    out[at + kind] = a[row + c]
        owner += 1
        if owner == n:
            owner = 0
    out[offsets[G_PHASE] + phase] = 1.0
    out[offsets[G_DEALER] + (a[S_DEALER] - me) % n] = 1.0
    if phase < ROUND_OVER:
        out[offsets[G_CURRENT] + (current - me) % n] = 1.0
    if a[S_DIRECTION] == 1:
        out[offsets[G_DIRECTION]] = 1.0
    exposed = a[S_UNO_EXPOSED]
    if exposed >= 0:
        out[offsets[G_EXPOSED] + (exposed - me) % n] = 1.0
    if a[S_CH_ACTIVE] != 0:
        out[offsets[G_ATTACKER] + (a[S_CH_ATTACKER] - me) % n] = 1.0
        out[offsets[G_CHALLENGE_COLOR] + a[S_CH_COLOR]] = 1.0
    out[offsets[G_PENDING]] = a[S_PENDING_DRAW]
    out[offsets[G_DRAW_PILE]] = a[S_DRAW_LEN] - a[S_DRAW_POS]
    out[offsets[G_PASSES]] = a[S_PASSES]


@lean
def only_current_may_act(cfg: Any, a: Any) -> bool:
    """engine/legality.py ``only_current_may_act``: no UNO exposed, no jump-in, round not over."""
    return a[S_UNO_EXPOSED] < 0 and a[S_PHASE] < ROUND_OVER and cfg[C_JUMP_IN] == 0  # type: ignore[no-any-return]


@lean
def everyone_windowed(cfg: Any, a: Any) -> bool:
    """envs/table.py: while a jump-in is possible under the profile, every other player gets a
    window, so being asked does not reveal a twin (HOUSE-2)."""
    phase = a[S_PHASE]
    return cfg[C_JUMP_IN] != 0 and (phase == PLAY or phase == DRAWN or phase == PENALTY)  # type: ignore[no-any-return]  # noqa: SIM109

