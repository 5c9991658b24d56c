"""Reference states to flat arrays and back, exactly (layout.py).

``to_state(profile, to_array(state))`` equals ``state`` for every state the reference engine can
reach or :func:`unoengine.from_position` can build; the differential tests compare the two engines
through these two functions, so they are the bridge the proof stands on (tests/test_compiled_convert.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..engine.cards import CARDS, Card
from ..engine.errors import PositionError
from ..engine.profile import Profile
from ..engine.state import (
    GameState,
    Known,
    MatchInfo,
    PendingChallenge,
    Phase,
    Reveal,
    RoundResult,
    discard_from,
    not_a_state,
)
from .layout import (
    CODES,
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
    S_RNG,
    S_ROUND,
    S_RV_ACTIVE,
    S_RV_OWNER,
    S_RV_VIEWER,
    S_UNO_EXPOSED,
    offsets,
)

_MASK = (1 << 64) - 1
_PHASES = tuple(Phase)


def _counts(cards: Sequence[int]) -> npt.NDArray[np.int64]:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=CODES).astype(np.int64) if len(cards) \
        else np.zeros(CODES, dtype=np.int64)


def _rows(a: npt.NDArray[np.int64], start: int, rows: int) -> list[tuple[Card, ...]]:
    """The sorted hand tuples of ``rows`` rows of counts from ``a[start]``: one numpy call finds
    the cards of them all, since most rows (what a player knows of another hand) are empty."""
    block = a[start:start + rows * CODES]
    found = np.flatnonzero(block)
    cards: list[list[Card]] = [[] for _ in range(rows)]
    for i, count in zip(found.tolist(), block[found].tolist(), strict=True):
        cards[i // CODES] += [CARDS[i % CODES]] * count
    return [tuple(row) for row in cards]


def to_array(state: GameState) -> npt.NDArray[np.int64]:
    """The flat array of a reference state (its profile's cards in play fix the pile blocks)."""
    if type(state) is not GameState:
        raise not_a_state(state)
    n, d = state.num_players, state.profile.deck_size
    if len(state.draw_pile) > d or state.discard[1] > d:
        raise PositionError(f"state: piles of {len(state.draw_pile)} and {state.discard[1]} cards do not fit "
                            f"the {d} cards in play")
    o = offsets(n, d)
    a = np.zeros(o.size, dtype=np.int64)
    a[S_N] = n
    a[S_COLOR] = state.color
    a[S_DIRECTION] = state.direction
    a[S_CURRENT] = state.current
    a[S_PHASE] = int(state.phase)
    a[S_DRAWN] = -1 if state.drawn is None else int(state.drawn)
    a[S_UNO_EXPOSED] = state.uno_exposed
    a[S_PASSES] = state.passes
    a[S_RNG] = np.uint64(state.rng & _MASK).view(np.int64)
    a[S_PENDING_DRAW] = state.pending_draw
    a[S_DRAW_LEN] = len(state.draw_pile)
    a[S_DRAW_POS] = state.draw_pos
    a[o.draw:o.draw + len(state.draw_pile)] = state.draw_pile
    pile = state.discard_pile
    a[S_DISCARD_LEN] = len(pile)
    a[o.discard:o.discard + len(pile)] = pile
    for p, hand in enumerate(state.hands):
        a[o.hands + p * CODES:o.hands + (p + 1) * CODES] = _counts(hand)
        a[o.hand_size + p] = len(hand)
    for v, owner, cards in state.known:
        start = o.known + (v * n + owner) * CODES
        a[start:start + CODES] = _counts(cards)
    ch = state.challenge
    if ch is not None:
        a[S_CH_ACTIVE] = 1
        a[S_CH_ATTACKER], a[S_CH_VICTIM], a[S_CH_BLUFF], a[S_CH_COLOR] = ch.attacker, ch.victim, ch.bluff, ch.color
        a[o.challenge_hand:o.challenge_hand + CODES] = _counts(ch.hand)
    rv = state.reveal
    if rv is not None:
        a[S_RV_ACTIVE], a[S_RV_VIEWER], a[S_RV_OWNER] = 1, rv.viewer, rv.owner
        a[o.reveal:o.reveal + CODES] = _counts(rv.cards)
    m = state.match
    a[S_DEALER], a[S_ROUND] = m.dealer, m.round_number
    a[S_MATCH_WINNER] = -1 if m.winner is None else m.winner
    a[o.scores:o.scores + n] = m.scores
    last = m.last_round
    if last is not None:
        a[S_LAST_ACTIVE], a[S_LAST_WINNER], a[S_LAST_BLOCKED] = 1, last.winner, last.blocked
        a[o.last_hand_points:o.last_hand_points + n] = last.hand_points
        a[o.last_points_won:o.last_points_won + n] = last.points_won
    return a


def to_state(profile: Profile, a: npt.NDArray[np.int64]) -> GameState:
    """The reference state of a flat array made for ``profile`` (the inverse of :func:`to_array`)."""
    v = a.tolist()
    n, d = v[S_N], profile.deck_size
    o = offsets(n, d)
    hands = tuple(_rows(a, o.hands, n))
    known: Known = tuple(
        (k // n, k % n, cards) for k, cards in enumerate(_rows(a, o.known, n * n)) if cards and k // n != k % n
    )
    challenge = None
    if v[S_CH_ACTIVE]:
        challenge = PendingChallenge(v[S_CH_ATTACKER], v[S_CH_VICTIM], bool(v[S_CH_BLUFF]),
                                     _rows(a, o.challenge_hand, 1)[0], v[S_CH_COLOR])
    reveal = None
    if v[S_RV_ACTIVE]:
        reveal = Reveal(v[S_RV_VIEWER], v[S_RV_OWNER], _rows(a, o.reveal, 1)[0])
    last = None
    if v[S_LAST_ACTIVE]:
        last = RoundResult(v[S_LAST_WINNER], bool(v[S_LAST_BLOCKED]),
                           tuple(v[o.last_hand_points:o.last_hand_points + n]),
                           tuple(v[o.last_points_won:o.last_points_won + n]))
    match = MatchInfo(v[S_DEALER], tuple(v[o.scores:o.scores + n]), v[S_ROUND], last,
                      None if v[S_MATCH_WINNER] < 0 else v[S_MATCH_WINNER])
    draw_pile = tuple(CARDS[c] for c in v[o.draw:o.draw + v[S_DRAW_LEN]])
    discard = discard_from([CARDS[c] for c in v[o.discard:o.discard + v[S_DISCARD_LEN]]])
    return GameState(
        profile, hands, draw_pile, v[S_DRAW_POS], discard, v[S_COLOR], v[S_DIRECTION], v[S_CURRENT],
        _PHASES[v[S_PHASE]], None if v[S_DRAWN] < 0 else CARDS[v[S_DRAWN]], challenge, v[S_UNO_EXPOSED],
        v[S_PASSES], v[S_RNG] & _MASK, match, reveal, v[S_PENDING_DRAW], known,
    )
