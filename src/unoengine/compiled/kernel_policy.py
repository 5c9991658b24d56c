"""The bots' rules, compiled: the heuristic bot's move, the ISMCTS playout policy and evaluation, and
a whole ISMCTS playout in one call (issue 34, "ISMCTS rollouts").

Each kernel reads a game's flat array ``a`` (layout.py) with its profile's ``cfg`` (config.py), as
the other kernels do, and returns a move code (codes.py). They are the reference functions written
over counts, proven move for move against them (tests/test_compiled_policy.py):

- :func:`heuristic_move` ``(cfg, a, player, u, buffer) -> code``: the move
  ``HeuristicBot().act(view(state, player), rng)`` makes (bots/heuristic.py), -1 where it makes
  none (not its turn and nothing out of turn to do);
- :func:`quick_move` ``(cfg, a, u, buffer) -> code``: the move of ``_quick_move(state, rng)``, the
  ISMCTS playout policy (bots/ismcts.py) for the player to act;
- :func:`win_chances` ``(a, out)``: ``win_chances(state)`` (bots/ismcts.py) into ``out[:n]``;
- :func:`playout` ``(cfg, a, max_moves, seed, buffer, credit) -> moves``: ``ISMCTSBot._playout``:
  up to ``max_moves`` moves of :func:`quick_move` on ``a`` in place, then each player's credit
  (1 to the round's winner, else the chances) into ``credit[:n]``.

``buffer`` is scratch for the legal moves, at least ``codes.MAX_LEGAL`` long. Ties between plays
of equal score are broken by ``u``, a uniform draw in [0, 1): the tied plays are taken in the
order of the legal moves and the one at ``int(u * ties)`` is chosen. That is exactly how
``_quick_choice`` uses its one ``rng.random()``; the heuristic bot breaks its ties by a random key
per play, which makes every tied play as likely, so each ``u`` gives a move it could make, and the
``u`` across [0, 1) give all of them. :func:`playout` draws its ``u`` from a SplitMix64 stream of
``seed`` (kernel_base.next_output), one output per tie and only on a tie, the
53 high bits over 2**53 (:func:`uniform`): a reference playout given the same stream as its
``rng.random`` makes the same moves.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np

from ..engine.cards import DRAW_TWO, REVERSE, SKIP, WILD_DRAW_FOUR
from .codes import (
    CARD_SHIFT,
    COLOR_SHIFT,
    K_ACCEPT,
    K_CALL_UNO,
    K_CATCH_UNO,
    K_CHALLENGE,
    K_CHOOSE_COLOR,
    K_DRAW,
    K_NEXT_ROUND,
    K_PASS,
    K_PLAY,
    PLAYER_SHIFT,
    TARGET_SHIFT,
    UNO_SHIFT,
)
from .config import C_DECK, C_PLAY_DECK, C_POINTS
from .kernel_apply import apply_move
from .kernel_base import (
    CHALLENGE,
    CHOOSE_COLOR,
    PENALTY,
    ROUND_OVER,
    hand_size,
    holds_color,
    jit,
    next_output,
    o_discard,
    o_hand_size,
    o_hands,
)
from .kernel_legal import legal_moves, pack
from .layout import (
    CODES,
    S_CH_ACTIVE,
    S_CH_ATTACKER,
    S_COLOR,
    S_CURRENT,
    S_DIRECTION,
    S_DISCARD_LEN,
    S_LAST_ACTIVE,
    S_LAST_WINNER,
    S_N,
    S_PENDING_DRAW,
    S_PHASE,
    S_UNO_EXPOSED,
)
from .tables import COLOR_OF_T, IS_WILD_T, SYMBOL_OF_T

MAX_SIZE: Final = 120
"""Hand sizes above this count as this in :func:`win_chances` (bots/ismcts.py _MAX_SIZE)."""
TURN_BONUS: Final = math.exp(0.2)
_WD4: Final = WILD_DRAW_FOUR
_TWO_POW_53: Final = float(2 ** 53)


# --- move codes ----------------------------------------------------------------------------------
@jit
def kind_of(code: int) -> int:
    return code & 15


@jit
def player_of(code: int) -> int:
    return code >> PLAYER_SHIFT & 15


@jit
def card_of(code: int) -> int:
    return (code >> CARD_SHIFT & 127) - 1


@jit
def _first_of_kind(moves: Any, count: int, kind: int) -> int:
    """The first move of ``kind`` among ``moves[:count]``, -1 if none."""
    for i in range(count):
        if moves[i] & 15 == kind:
            return moves[i]  # type: ignore[no-any-return]
    return -1


@jit
def uniform(x: Any) -> float:
    """A SplitMix64 output as a uniform float in [0, 1) (its 53 high bits)."""
    return float(x >> np.uint64(11)) / _TWO_POW_53


# --- the heuristic's score of a play (bots/heuristic.py play_score) ------------------------------
@jit
def colour_counts(a: Any, n: int, p: int, counts: Any) -> None:
    """The cards of each colour 0..3 in player ``p``'s hand into ``counts`` (wilds in none)."""
    base = o_hands(n) + p * CODES
    for k in range(4):
        counts[k] = 0
    for c in range(CODES):
        colour = COLOR_OF_T[c]
        if colour >= 0:
            counts[colour] += a[base + c]


@jit
def _is_attack(card: int) -> bool:
    """Skip, Reverse and Draw Two: the cards that hit the next player."""
    if IS_WILD_T[card]:
        return False
    symbol = SYMBOL_OF_T[card]
    return symbol == SKIP or symbol == REVERSE or symbol == DRAW_TWO  # type: ignore[no-any-return]


@jit
def play_score(cfg: Any, a: Any, code: int, counts: Any) -> int:
    """``play_score`` of the Play ``code`` for its player, whose colour counts are ``counts``; the
    colour in play is ``a[S_COLOR]`` (-1: not known). Every term is a whole number of points."""
    n = a[S_N]
    p = player_of(code)
    card = card_of(code)
    named = (code >> COLOR_SHIFT & 7) - 1
    target = (code >> TARGET_SHIFT & 31) - 1
    direction = a[S_DIRECTION]
    sizes = o_hand_size(n)
    next_size = a[sizes + (p + direction) % n]
    threat = False
    for q in range(n):
        if q != p and a[sizes + q] <= 2:
            threat = True
    score = cfg[C_POINTS + card]  # SCORE-1: shed high-point cards first
    if IS_WILD_T[card]:
        score += -60 if a[sizes + p] > 2 else 10  # keep wilds for the end
        if card == _WD4:
            if next_size <= 2:
                score += 120
            colour = a[S_COLOR]
            if colour >= 0 and counts[colour] > 0:
                score -= 200  # WD4-1: the bot does not bluff
        if named >= 0:
            score += 5 * counts[named]
    else:
        attack = _is_attack(card)
        if attack and next_size <= 2:
            score += 100
        score += 3 * (counts[COLOR_OF_T[card]] - a[o_hands(n) + p * CODES + card])
        if attack and threat:
            score += 10
    if target >= 0:
        score += 30 - 5 * a[sizes + target]
    if code >> UNO_SHIFT & 1:
        score += 1000  # UNO-1: always call
    return score  # type: ignore[no-any-return]


@jit
def best_play(cfg: Any, a: Any, moves: Any, count: int, u: float) -> int:
    """The index in ``moves[:count]`` of the Play with the best :func:`play_score` (all of one
    player's), ties broken by ``u`` (see the module docstring); -1 if there is no Play."""
    n = a[S_N]
    counts = np.zeros(4, dtype=np.int64)
    best, best_score, ties = -1, -(1 << 30), 0
    for i in range(count):
        code = moves[i]
        if code & 15 != K_PLAY:
            continue
        if best < 0:
            colour_counts(a, n, player_of(code), counts)
        score = play_score(cfg, a, code, counts)
        if score > best_score:
            best, best_score, ties = i, score, 1
        elif score == best_score:
            ties += 1
    if ties <= 1:
        return best
    pick = int(u * ties)
    for i in range(count):
        code = moves[i]
        if code & 15 == K_PLAY and play_score(cfg, a, code, counts) == best_score:
            if pick == 0:
                return i
            pick -= 1
    return best


@jit
def _play_ties(cfg: Any, a: Any, moves: Any, count: int) -> int:
    """How many Plays among ``moves[:count]`` share the best score (0 if there is no Play)."""
    n = a[S_N]
    counts = np.zeros(4, dtype=np.int64)
    best_score, ties, seen = -(1 << 30), 0, False
    for i in range(count):
        code = moves[i]
        if code & 15 != K_PLAY:
            continue
        if not seen:
            colour_counts(a, n, player_of(code), counts)
            seen = True
        score = play_score(cfg, a, code, counts)
        if score > best_score:
            best_score, ties = score, 1
        elif score == best_score:
            ties += 1
    return ties


@jit
def best_color(a: Any, n: int, p: int) -> int:
    """The colour player ``p`` holds most, the lowest on a tie (bots/heuristic.py best_color)."""
    counts = np.zeros(4, dtype=np.int64)
    colour_counts(a, n, p, counts)
    best = 0
    for k in range(1, 4):
        if counts[k] > counts[best]:
            best = k
    return best


@jit
def _card_below_top(cfg: Any, a: Any) -> int:
    """The card under the top of the discard pile (what a Wild Draw Four went on), -1 if none."""
    length = a[S_DISCARD_LEN]
    if length < 2:
        return -1
    return a[o_discard(a[S_N], cfg[C_DECK]) + length - 2]  # type: ignore[no-any-return]


# --- the heuristic bot (bots/heuristic.py HeuristicBot.act) --------------------------------------
@jit
def worth_challenging(cfg: Any, a: Any, p: int) -> bool:
    """WD4-3..5: the heuristic's odds that the attacker held the colour in play, against the cost
    (bots/heuristic.py _worth_challenging), from what player ``p`` sees: its hand and the pile."""
    if a[S_CH_ACTIVE] == 0:
        return False
    below = _card_below_top(cfg, a)
    if below < 0 or IS_WILD_T[below]:
        return False
    colour = COLOR_OF_T[below]
    n, d = a[S_N], cfg[C_DECK]
    unseen = np.empty(CODES, dtype=np.int64)
    hand = o_hands(n) + p * CODES
    for c in range(CODES):
        unseen[c] = cfg[C_PLAY_DECK + c] - a[hand + c]
    start = o_discard(n, d)
    for i in range(a[S_DISCARD_LEN]):
        unseen[a[start + i]] -= 1
    total = 0
    of_colour = 0
    for c in range(CODES):
        if unseen[c] > 0:
            total += unseen[c]
            if COLOR_OF_T[c] == colour:
                of_colour += unseen[c]
    held = hand_size(a, n, a[S_CH_ATTACKER])
    if held <= 0 or total <= 0 or held > total:
        return False
    # T * C(total, held) > (T + 1) * C(total - of colour, held), the held! cancelled: exact, as the
    # Python bot compares its integers (a float product rounds either way at an exact tie)
    pending = max(a[S_PENDING_DRAW], 4)
    size = (_bit_length(total) * held + 63) // _LIMB_BITS + 1
    guilty = np.empty(size, dtype=np.int64)
    clean = np.empty(size, dtype=np.int64)
    _falling_product(pending, total, held, guilty)
    _falling_product(pending + 1, total - of_colour, held, clean)
    return _compare_limbs(guilty, clean) > 0


_LIMB_BITS: Final = 32
_LIMB_MASK: Final = (1 << _LIMB_BITS) - 1


@jit
def _bit_length(x: int) -> int:
    bits = 0
    while x > 0:
        bits += 1
        x >>= 1
    return bits


@jit
def _falling_product(k: int, top: int, count: int, limbs: Any) -> None:
    """``limbs`` := k * top * (top - 1) * ... * (top - count + 1), in base 2**32, the low limb first;
    ``k`` and ``top`` below 2**31, ``limbs`` long enough for the product."""
    limbs[:] = 0
    limbs[0] = k
    for i in range(count):
        carry = 0
        for j in range(limbs.size):
            x = limbs[j] * (top - i) + carry
            limbs[j] = x & _LIMB_MASK
            carry = x >> _LIMB_BITS


@jit
def _compare_limbs(x: Any, y: Any) -> int:
    """-1, 0 or 1 as the number in limbs ``x`` is below, equal to or above the one in ``y``."""
    for j in range(x.size - 1, -1, -1):
        if x[j] != y[j]:
            return 1 if x[j] > y[j] else -1
    return 0


@jit
def heuristic_move(cfg: Any, a: Any, player: int, u: float, buffer: Any) -> int:
    """The move the heuristic bot makes as ``player`` (-1: none), ties broken by ``u``."""
    count = legal_moves(cfg, a, player, buffer)
    if count == 0:
        return -1
    found = _first_of_kind(buffer, count, K_CATCH_UNO)  # UNO-2, UNO-4: never miss a catch or a late call
    if found >= 0:
        return found
    found = _first_of_kind(buffer, count, K_CALL_UNO)
    if found >= 0:
        return found
    phase = a[S_PHASE]
    if phase >= ROUND_OVER:
        return _first_of_kind(buffer, count, K_NEXT_ROUND)
    if a[S_CURRENT] != player:  # HOUSE-2: jumping in sheds a card
        i = best_play(cfg, a, buffer, count, u)
        return -1 if i < 0 else buffer[i]
    n = a[S_N]
    if phase == CHOOSE_COLOR:
        return pack(K_CHOOSE_COLOR, player, -1, best_color(a, n, player), -1, 0)
    i = best_play(cfg, a, buffer, count, u)
    if phase == CHALLENGE:
        if i >= 0:  # HOUSE-1: pass the total on rather than draw it
            return buffer[i]  # type: ignore[no-any-return]
        kind = K_CHALLENGE if worth_challenging(cfg, a, player) else K_ACCEPT
        return pack(kind, player, -1, -1, -1, 0)
    if phase == PENALTY:
        return buffer[i] if i >= 0 else pack(K_ACCEPT, player, -1, -1, -1, 0)
    draw = _first_of_kind(buffer, count, K_DRAW)
    if i >= 0:
        best = buffer[i]
        colour = a[S_COLOR]
        if card_of(best) == _WD4 and colour >= 0 and holds_color(a, n, player, colour) and draw >= 0:
            return draw  # WD4-2: rather draw than bluff
        return best  # type: ignore[no-any-return]
    if draw >= 0:
        return draw
    found = _first_of_kind(buffer, count, K_PASS)
    return found if found >= 0 else buffer[0]


# --- the ISMCTS playout (bots/ismcts.py _quick_move, win_chances, ISMCTSBot._playout) ------------
@jit
def _catcher(a: Any) -> int:
    """UNO-2: the first catch of the full legal list: the lowest seat but the exposed player's."""
    exposed = a[S_UNO_EXPOSED]
    q = 0 if exposed != 0 else 1
    return pack(K_CATCH_UNO, q, -1, -1, exposed, 0)


@jit
def _quick_after_ties(cfg: Any, a: Any, moves: Any, count: int, best: int) -> int:
    """_quick_move once the best play (an index in ``moves``, -1 if none) is known."""
    n = a[S_N]
    cur = a[S_CURRENT]
    draw = _first_of_kind(moves, count, K_DRAW)
    if best >= 0:
        code = moves[best]
        colour = a[S_COLOR]
        if not (card_of(code) == _WD4 and colour >= 0 and holds_color(a, n, cur, colour) and draw >= 0):
            return code  # type: ignore[no-any-return]
    if a[S_CH_ACTIVE] != 0:
        below = _card_below_top(cfg, a)
        kind = K_ACCEPT if below < 0 or IS_WILD_T[below] else K_CHALLENGE
        return pack(kind, cur, -1, -1, -1, 0)
    if draw >= 0:
        return draw
    found = _first_of_kind(moves, count, K_ACCEPT)
    if found >= 0:
        return found
    found = _first_of_kind(moves, count, K_PASS)
    if found >= 0:
        return found
    if a[S_PHASE] == CHOOSE_COLOR:
        return pack(K_CHOOSE_COLOR, cur, -1, best_color(a, n, cur), -1, 0)
    return moves[0] if count > 0 else -1


@jit
def quick_move(cfg: Any, a: Any, u: float, buffer: Any) -> int:
    """The ISMCTS playout policy's move for the player to act, ties broken by ``u``."""
    if a[S_UNO_EXPOSED] >= 0:
        return _catcher(a)
    count = legal_moves(cfg, a, a[S_CURRENT], buffer)
    if count == 1:  # forced
        return buffer[0]  # type: ignore[no-any-return]
    return _quick_after_ties(cfg, a, buffer, count, best_play(cfg, a, buffer, count, u))


@jit
def win_chances(a: Any, out: Any) -> None:
    """Each player's chance to win from here, by hand sizes (bots/ismcts.py win_chances)."""
    n = a[S_N]
    k = 0.65 + 0.5 * math.log(max(n - 1, 1))
    sizes = o_hand_size(n)
    total = 0.0
    for q in range(n):
        size = min(a[sizes + q], MAX_SIZE)
        share = 1.0 if size == 0 else float(size) ** -k
        if q == a[S_CURRENT]:
            share *= TURN_BONUS
        out[q] = share
        total += share
    for q in range(n):
        out[q] /= total


@jit
def playout(cfg: Any, a: Any, max_moves: int, seed: int, buffer: Any, credit: Any) -> int:
    """Play up to ``max_moves`` moves of :func:`quick_move` on ``a`` in place (ties broken by the
    SplitMix64 stream of ``seed``), then each player's credit into ``credit``; the moves made."""
    stream = np.uint64(seed)
    made = 0
    while made < max_moves and a[S_PHASE] < ROUND_OVER:
        if a[S_UNO_EXPOSED] >= 0:
            code = _catcher(a)
        else:
            count = legal_moves(cfg, a, a[S_CURRENT], buffer)
            if count == 1:
                code = buffer[0]
            else:
                u = 0.0
                if _play_ties(cfg, a, buffer, count) > 1:
                    stream, x = next_output(stream)
                    u = uniform(x)
                code = _quick_after_ties(cfg, a, buffer, count, best_play(cfg, a, buffer, count, u))
        apply_move(cfg, a, code)
        made += 1
    n = a[S_N]
    if a[S_PHASE] >= ROUND_OVER and a[S_LAST_ACTIVE] != 0:
        for q in range(n):
            credit[q] = 0.0
        credit[a[S_LAST_WINNER]] = 1.0
    else:
        win_chances(a, credit)
    return made

