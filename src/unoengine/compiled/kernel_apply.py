"""The transition, compiled: :func:`apply_move` changes a game's flat array in place for one legal
move code, exactly as engine/transition.py ``apply`` builds the next state (every field: hands,
piles and their order, the seed, knowledge, the reveal, the pending challenge, the match).

It trusts its caller: the code must be one kernel_legal.py lists for this very array (the Python
API checks it). Each handler below names the reference function it follows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.cards import (
    BLANK,
    DRAW_FOUR_COUNT,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    REVERSE,
    SKIP,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
)
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
from .config import (
    C_CUSTOM,
    C_DECK,
    C_DRAW_UNTIL,
    C_FIRST_WD4,
    C_POINTS,
    C_SCORING,
    C_SEVEN_ZERO,
    C_STACKING,
    C_TARGET,
    C_TWO_PLAYER_REVERSE,
    C_UNO_PENALTY,
    C_WILD_DRAW_FOUR,
)
from .kernel_base import (
    CHALLENGE,
    DRAWN,
    MATCH_OVER,
    PENALTY,
    ROUND_OVER,
    add_card,
    can_draw,
    hand_size,
    holds_color,
    jit,
    lean,
    o_challenge_hand,
    o_discard,
    o_hand_size,
    o_hands,
    o_known,
    o_last_hand_points,
    o_last_points_won,
    o_reveal,
    o_scores,
    remove_card,
    shuffle_block,
    top_card,
    wild_draw_four_forbidden,
)
from .kernel_deal import deal_round
from .kernel_piles import draw_cards, seat_after, start_turn
from .layout import (
    CODES,
    S_CH_ACTIVE,
    S_CH_ATTACKER,
    S_CH_BLUFF,
    S_CH_COLOR,
    S_CH_VICTIM,
    S_COLOR,
    S_CURRENT,
    S_DIRECTION,
    S_DISCARD_LEN,
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
    S_RV_ACTIVE,
    S_RV_OWNER,
    S_RV_VIEWER,
    S_UNO_EXPOSED,
)
from .tables import COLOR_OF_T, IS_WILD_T, MATCHES_T, SYMBOL_OF_T

CHALLENGE_MODE = 0
"""config C_WILD_DRAW_FOUR of "challenge" (WD4-2..5)."""
APPLY = 1
"""config C_FIRST_WD4 of "apply" (HOUSE-7)."""
REVERSE_AS_SKIP = 1
"""config C_TWO_PLAYER_REVERSE of "skip" (HOUSE-6)."""
CHALLENGE_EXTRA = 2
"""WD4-5: an innocent player's challenger draws the pending total plus 2."""
OWN_HAND_LOWEST_WINS = 1
WINNER_TAKES_OTHERS = 0
E_SWAP_HANDS = 1
E_SHUFFLE_HANDS = 2
E_OTHERS_DRAW_ONE = 3
"""config C_CUSTOM: index in config.BUILTIN_EFFECTS (0 is the plain "wild")."""


# --- knowledge (engine/knowledge.py) -------------------------------------------------------------
@lean
def _known_at(n: int, viewer: int, owner: int) -> int:
    return o_known(n) + (viewer * n + owner) * CODES


@jit
def _forget_all(a: Any, n: int) -> None:
    """A Shuffle Hands or a custom effect: nobody can follow the cards (ACT-6, ACT-8)."""
    ok = o_known(n)
    a[ok:ok + n * n * CODES] = 0


@lean
def _after_play(a: Any, n: int, owner: int, card: int) -> None:
    """knowledge.after_play: every viewer who knows a copy of ``card`` in the hand strikes one off."""
    for v in range(n):
        i = _known_at(n, v, owner) + card
        if a[i] > 0:
            a[i] -= 1


@lean
def _learn_hand(a: Any, n: int, viewer: int, owner: int, source: int) -> None:
    """knowledge.merge of one entry: ``viewer`` knows ``owner`` holds at least the cards counted at
    ``a[source:source + 58]`` (a lower bound: the larger count of each card)."""
    if viewer == owner:
        return
    base = _known_at(n, viewer, owner)
    for c in range(CODES):
        if a[source + c] > a[base + c]:
            a[base + c] = a[source + c]


@jit
def _forget_own(a: Any, n: int) -> None:
    """What a viewer knew of a hand that is now their own is dropped (knowledge._normalise)."""
    for v in range(n):
        base = _known_at(n, v, v)
        a[base:base + CODES] = 0


# --- hands moving between players (ACT-6, ACT-7, HOUSE-3) ----------------------------------------
@lean
def _swap_rows(a: Any, x: int, y: int, length: int) -> None:
    for i in range(length):
        t = a[x + i]
        a[x + i] = a[y + i]
        a[y + i] = t


@lean
def _swap_hands(a: Any, n: int, p: int, target: int) -> None:
    """effects.swap_hands: ``p`` and ``target`` exchange hands."""
    oh = o_hands(n)
    _swap_rows(a, oh + p * CODES, oh + target * CODES, CODES)
    _swap_rows(a, o_hand_size(n) + p, o_hand_size(n) + target, 1)


@jit
def _swap(a: Any, n: int, p: int, target: int) -> None:
    """ACT-7 / HOUSE-3 (transition._swap): the hands are exchanged, what anyone knew follows its
    hand, and each of the two now knows the hand they handed over."""
    _swap_hands(a, n, p, target)
    for v in range(n):
        _swap_rows(a, _known_at(n, v, p), _known_at(n, v, target), CODES)
    _forget_own(a, n)
    oh = o_hands(n)
    _learn_hand(a, n, p, target, oh + target * CODES)
    _learn_hand(a, n, target, p, oh + p * CODES)


@jit
def _rotate(a: Any, n: int) -> None:
    """HOUSE-3: a 0 passes every hand to the next player in the direction of play; knowledge follows
    the hands, and each player knows the hand they passed on (transition._seven_zero)."""
    step = a[S_DIRECTION]
    oh, os = o_hands(n), o_hand_size(n)
    scratch = np.empty(n * CODES, dtype=np.int64)
    sizes = np.empty(n, dtype=np.int64)
    scratch[:] = a[oh:oh + n * CODES]
    sizes[:] = a[os:os + n]
    for o in range(n):
        to = (o + step) % n
        a[oh + to * CODES:oh + (to + 1) * CODES] = scratch[o * CODES:(o + 1) * CODES]
        a[os + to] = sizes[o]
    for v in range(n):
        row = _known_at(n, v, 0)
        scratch[:] = a[row:row + n * CODES]
        for o in range(n):
            to = (o + step) % n
            a[row + to * CODES:row + (to + 1) * CODES] = scratch[o * CODES:(o + 1) * CODES]
    _forget_own(a, n)
    for v in range(n):
        to = (v + step) % n
        _learn_hand(a, n, v, to, oh + to * CODES)


@jit
def _shuffle_hands(a: Any, n: int, player: int) -> None:
    """ACT-6 (effects.shuffle_hands): every hand collected in seat order, shuffled from the hidden
    seed, and dealt one at a time from ``player``'s left (clockwise, whatever the direction)."""
    oh, os = o_hands(n), o_hand_size(n)
    total = 0
    for p in range(n):
        total += a[os + p]
    pool = np.empty(total, dtype=np.int64)
    k = 0
    for p in range(n):
        for c in range(CODES):
            for _ in range(a[oh + p * CODES + c]):
                pool[k] = c
                k += 1
    a[S_RNG] = shuffle_block(pool, 0, total, a[S_RNG])
    a[oh:oh + n * CODES] = 0
    a[os:os + n] = 0
    for i in range(total):
        add_card(a, n, (player + 1 + i) % n, pool[i])


# --- the end of a round (engine/scoring.py) ------------------------------------------------------
@lean
def _finish(cfg: Any, a: Any, winner: int, blocked: bool) -> None:
    """END-1 / PLAY-7: score the round (SCORE-1..4) and end it, or the match (scoring._finish)."""
    n = a[S_N]
    oh, ol, ow, sc = o_hands(n), o_last_hand_points(n), o_last_points_won(n), o_scores(n)
    total = 0
    for p in range(n):
        points = 0
        for c in range(CODES):
            points += a[oh + p * CODES + c] * cfg[C_POINTS + c]
        a[ol + p] = points
        total += points
    mode = cfg[C_SCORING]
    for p in range(n):
        if mode == WINNER_TAKES_OTHERS:  # SCORE-2
            won = total - a[ol + winner] if p == winner else 0
        elif mode == OWN_HAND_LOWEST_WINS:  # SCORE-3
            won = 0 if p == winner else a[ol + p]
        else:  # SCORE-4
            won = 1 if p == winner else 0
        a[ow + p] = won
        a[sc + p] += won
    best = a[sc]
    low = a[sc]
    best_at = 0
    for p in range(1, n):
        if a[sc + p] > best:
            best = a[sc + p]
            best_at = p
        low = min(low, a[sc + p])
    champion = -1
    if best >= cfg[C_TARGET]:
        if mode == OWN_HAND_LOWEST_WINS:  # SCORE-3 RULING: a tie for the lowest plays on
            lowest = 0
            for p in range(n):
                if a[sc + p] == low:
                    lowest += 1
                    champion = p
            if lowest != 1:
                champion = -1
        else:
            champion = best_at
    a[S_LAST_ACTIVE] = 1
    a[S_LAST_WINNER] = winner
    a[S_LAST_BLOCKED] = 1 if blocked else 0
    a[S_MATCH_WINNER] = champion
    a[S_PHASE] = ROUND_OVER if champion < 0 else MATCH_OVER
    a[S_CURRENT] = winner
    a[S_DRAWN] = -1
    a[S_CH_ACTIVE] = 0
    a[S_UNO_EXPOSED] = -1
    a[S_PENDING_DRAW] = 0


@lean
def _finish_blocked(cfg: Any, a: Any) -> None:
    """PLAY-7 RULING: the lowest hand in points wins; a tie goes to the first in turn order from the
    player who passed first (scoring.end_round_blocked)."""
    n = a[S_N]
    oh = o_hands(n)
    first = seat_after(a, a[S_CURRENT], 1)
    winner = -1
    least = 0
    for k in range(n):
        p = seat_after(a, first, k)
        points = 0
        for c in range(CODES):
            points += a[oh + p * CODES + c] * cfg[C_POINTS + c]
        if winner < 0 or points < least:
            winner = p
            least = points
    _finish(cfg, a, winner, True)


# --- playing a card (transition._play and the card effects) -------------------------------------
@lean
def _face_penalty(a: Any, victim: int, total: int) -> None:
    """HOUSE-1: ``victim`` must answer the Draw card on top or accept ``total`` cards."""
    a[S_CURRENT] = victim
    a[S_PHASE] = PENALTY
    a[S_PENDING_DRAW] = total


@jit
def _wild_draw_four(cfg: Any, a: Any, p: int, bluff: bool, color_before: int, last: bool) -> None:
    """ACT-5 / WD4-2: the next player draws 4 (with any stack under it, HOUSE-1) and is skipped, or
    may first challenge (the attacker's hand kept for it, WD4-3) or answer; ACT-9 on a last card."""
    n = a[S_N]
    victim = seat_after(a, p, 1)
    total = a[S_PENDING_DRAW] + DRAW_FOUR_COUNT
    if cfg[C_WILD_DRAW_FOUR] == CHALLENGE_MODE:
        a[S_CURRENT] = victim
        a[S_PHASE] = CHALLENGE
        a[S_CH_ACTIVE] = 1
        a[S_CH_ATTACKER] = p
        a[S_CH_VICTIM] = victim
        a[S_CH_BLUFF] = 1 if bluff else 0
        a[S_CH_COLOR] = color_before
        ch, oh = o_challenge_hand(n, cfg[C_DECK]), o_hands(n) + p * CODES
        a[ch:ch + CODES] = a[oh:oh + CODES]
        a[S_PENDING_DRAW] = total
    elif cfg[C_STACKING] != 0 and not last:
        _face_penalty(a, victim, total)
    elif last:
        draw_cards(cfg, a, victim, total)
    else:
        draw_cards(cfg, a, victim, total)
        start_turn(a, seat_after(a, p, 2))


@lean
def _turn_after(cfg: Any, a: Any, p: int, symbol: int) -> int:
    """transition.turn_after: ACT-1 Skip passes over the next player; ACT-2 Reverse turns the
    direction, and with two players HOUSE-6 "skip" makes it a Skip (the same player again)."""
    n = a[S_N]
    if symbol == SKIP:
        return seat_after(a, p, 2)
    if symbol == REVERSE:
        a[S_DIRECTION] = -a[S_DIRECTION]
        if n == 2 and cfg[C_TWO_PLAYER_REVERSE] == REVERSE_AS_SKIP:
            return p
    return seat_after(a, p, 1)


@jit
def _custom_effect(cfg: Any, a: Any, p: int, target: int) -> None:
    """ACT-8: the profile's built-in effect (effects.BUILT_IN); then nobody is assumed to follow
    the hands, whatever the effect did (transition._custom_effect)."""
    n = a[S_N]
    effect = cfg[C_CUSTOM]
    if effect == E_SWAP_HANDS:
        _swap_hands(a, n, p, target)
    elif effect == E_SHUFFLE_HANDS:
        _shuffle_hands(a, n, p)
    elif effect == E_OTHERS_DRAW_ONE:
        for k in range(1, n):  # from the next player on, in the direction of play
            draw_cards(cfg, a, seat_after(a, p, k), 1)
    _forget_all(a, n)


@jit
def _card_effect(cfg: Any, a: Any, p: int, card: int, target: int) -> None:
    """transition._card_effect: carry out the card's effect and pass the turn on (ACT-1..8)."""
    n = a[S_N]
    symbol = SYMBOL_OF_T[card]
    if symbol == DRAW_TWO:  # ACT-3
        victim = seat_after(a, p, 1)
        if cfg[C_STACKING] != 0:  # HOUSE-1: the victim may answer it
            _face_penalty(a, victim, a[S_PENDING_DRAW] + DRAW_TWO_COUNT)
        else:
            draw_cards(cfg, a, victim, DRAW_TWO_COUNT)
            start_turn(a, seat_after(a, p, 2))
        return
    if card == WILD_DRAW_FOUR:  # ACT-5: carried out after the UNO window opens
        return
    if card == WILD_SHUFFLE_HANDS:  # ACT-6
        _shuffle_hands(a, n, p)
        _forget_all(a, n)
    elif card == WILD_SWAP_HANDS:  # ACT-7
        _swap(a, n, p, target)
    elif card == WILD_CUSTOMIZABLE or card == BLANK:  # ACT-8, SETUP-10
        _custom_effect(cfg, a, p, target)
    elif cfg[C_SEVEN_ZERO] != 0 and not IS_WILD_T[card] and (symbol == 0 or symbol == 7):  # HOUSE-3
        if symbol == 7:
            _swap(a, n, p, target)
        else:
            _rotate(a, n)
    start_turn(a, _turn_after(cfg, a, p, symbol))


@jit
def _play(cfg: Any, a: Any, p: int, card: int, color: int, target: int, uno: int) -> None:
    """PLAY-1: a card in turn, as an answer to a Draw card (HOUSE-1) or out of turn (HOUSE-2); play
    goes on from its player in every case."""
    n = a[S_N]
    size_before = hand_size(a, n, p)
    color_before = a[S_COLOR]
    # WD4-2: whether this Wild Draw Four is a bluff is judged on the hand it was played from.
    bluff = card == WILD_DRAW_FOUR and holds_color(a, n, p, color_before)
    remove_card(a, n, p, card)
    _after_play(a, n, p, card)
    oc = o_discard(n, cfg[C_DECK])
    a[oc + a[S_DISCARD_LEN]] = card
    a[S_DISCARD_LEN] += 1
    a[S_COLOR] = color if color >= 0 else COLOR_OF_T[card]
    a[S_UNO_EXPOSED] = -1  # UNO-5: playing begins the turn; any earlier window is closed
    a[S_PASSES] = 0
    a[S_DRAWN] = -1
    a[S_CH_ACTIVE] = 0  # HOUSE-1: a Wild Draw Four answered by another is buried, not challenged
    if size_before == 1:  # END-1 / ACT-9: the last card's draw, with the whole stack under it
        if SYMBOL_OF_T[card] == DRAW_TWO:
            draw_cards(cfg, a, seat_after(a, p, 1), a[S_PENDING_DRAW] + DRAW_TWO_COUNT)
        elif card == WILD_DRAW_FOUR:
            # WD4-3: with challenges the victim may still challenge; a last card is never a bluff.
            _wild_draw_four(cfg, a, p, False, color_before, True)
            if a[S_PHASE] == CHALLENGE:
                return
        _finish(cfg, a, p, False)
        return
    _card_effect(cfg, a, p, card, target)
    if card == WILD_DRAW_FOUR:
        _wild_draw_four(cfg, a, p, bluff, color_before, False)
    # UNO-1/UNO-2: playing the next-to-last card without calling opens the catch window (UNO-3).
    if size_before == 2 and uno == 0 and hand_size(a, n, p) == 1:
        a[S_UNO_EXPOSED] = p


# --- the other moves ---------------------------------------------------------------------------
@lean
def _playable(cfg: Any, a: Any, n: int, p: int, top: int, color: int, card: int) -> bool:
    """legality.card_playable: may ``card`` go on ``top`` now (PLAY-1..3), played from ``p``'s hand
    (WD4-1: "enforced" forbids a Wild Draw Four while holding the colour in play)?"""
    if not MATCHES_T[top, color, card]:
        return False
    return not (card == WILD_DRAW_FOUR and wild_draw_four_forbidden(cfg, a, n, p, color))


@lean
def _draw(cfg: Any, a: Any, p: int) -> None:
    """PLAY-4/5/6 (transition._draw): one card, or under HOUSE-4 one at a time until one can be
    played or nothing is left to draw (PLAY-7 reshuffles on the way); then play it or keep it."""
    n = a[S_N]
    a[S_UNO_EXPOSED] = -1  # UNO-5: drawing begins the turn
    a[S_PASSES] = 0
    card = draw_cards(cfg, a, p, 1)
    if cfg[C_DRAW_UNTIL] != 0:
        top, color = top_card(cfg, a), a[S_COLOR]
        while not _playable(cfg, a, n, p, top, color, card) and can_draw(a):
            card = draw_cards(cfg, a, p, 1)
    a[S_PHASE] = DRAWN
    a[S_DRAWN] = card


@lean
def _pass(cfg: Any, a: Any, p: int) -> None:
    """PLAY-4 keep the drawn card, or PLAY-7 pass with nothing to draw (blocked after a full round)."""
    if a[S_PHASE] == DRAWN:
        a[S_PASSES] = 0
    else:
        a[S_PASSES] += 1
        if a[S_PASSES] >= a[S_N]:
            a[S_UNO_EXPOSED] = -1
            _finish_blocked(cfg, a)
            return
    a[S_UNO_EXPOSED] = -1  # UNO-5/UNO-7: any in-turn move closes the catch window
    a[S_CH_ACTIVE] = 0
    start_turn(a, seat_after(a, p, 1))


@lean
def _choose_color(cfg: Any, a: Any, p: int, color: int) -> None:
    """SETUP-8/SETUP-10: the first player names the colour and plays; HOUSE-7 (SETUP-9 "apply"): the
    dealer names it and the first player draws 4 and is skipped."""
    a[S_COLOR] = color
    if top_card(cfg, a) == WILD_DRAW_FOUR and cfg[C_FIRST_WD4] == APPLY:
        first = seat_after(a, p, 1)
        draw_cards(cfg, a, first, DRAW_FOUR_COUNT)
        start_turn(a, seat_after(a, first, 1))
    else:
        start_turn(a, p)


@jit
def _challenge(cfg: Any, a: Any) -> None:
    """WD4-3..5: the attacker shows the hand the card was played from to the challenger alone; a
    guilty attacker draws the pending total, an innocent one's challenger draws it plus 2."""
    n, d = a[S_N], cfg[C_DECK]
    attacker, victim = a[S_CH_ATTACKER], a[S_CH_VICTIM]
    total = a[S_PENDING_DRAW]
    a[S_UNO_EXPOSED] = -1  # UNO-7: a challenge decision begins the turn
    a[S_CH_ACTIVE] = 0
    a[S_PENDING_DRAW] = 0
    ch, rv = o_challenge_hand(n, d), o_reveal(n, d)
    a[S_RV_ACTIVE] = 1
    a[S_RV_VIEWER] = victim
    a[S_RV_OWNER] = attacker
    a[rv:rv + CODES] = a[ch:ch + CODES]
    _learn_hand(a, n, victim, attacker, ch)  # WD4-3: the challenger saw the hand
    if a[S_CH_BLUFF] != 0:  # WD4-4 guilty
        draw_cards(cfg, a, attacker, total)
        start_turn(a, victim)
        return
    draw_cards(cfg, a, victim, total + CHALLENGE_EXTRA)  # WD4-5 innocent
    if hand_size(a, n, attacker) == 0:
        _finish(cfg, a, attacker, False)
        return
    start_turn(a, seat_after(a, victim, 1))


@lean
def _accept(cfg: Any, a: Any) -> None:
    """ACT-3/ACT-5/HOUSE-1: draw what is pending and miss the turn; the catch window stays open
    (UNO-7 RULING). ACT-9: a Wild Draw Four that went out ends the round once drawn."""
    n = a[S_N]
    victim = a[S_CURRENT]
    attacker_out = a[S_CH_ACTIVE] != 0 and hand_size(a, n, a[S_CH_ATTACKER]) == 0
    attacker = a[S_CH_ATTACKER]
    total = a[S_PENDING_DRAW]
    a[S_CH_ACTIVE] = 0
    a[S_PENDING_DRAW] = 0
    draw_cards(cfg, a, victim, total)
    if attacker_out:
        _finish(cfg, a, attacker, False)
        return
    start_turn(a, seat_after(a, victim, 1))


@jit
def apply_move(cfg: Any, a: Any, code: int) -> None:
    """Apply the legal move ``code`` (codes.py) to the game ``a`` in place (transition.apply)."""
    kind = code & 15
    player = code >> PLAYER_SHIFT & 15
    if kind == K_PLAY:
        _play(cfg, a, player, (code >> CARD_SHIFT & 127) - 1, (code >> COLOR_SHIFT & 7) - 1,
              (code >> TARGET_SHIFT & 31) - 1, code >> UNO_SHIFT & 1)
    elif kind == K_DRAW:
        _draw(cfg, a, player)
    elif kind == K_PASS:
        _pass(cfg, a, player)
    elif kind == K_CHOOSE_COLOR:
        _choose_color(cfg, a, player, (code >> COLOR_SHIFT & 7) - 1)
    elif kind == K_CHALLENGE:
        _challenge(cfg, a)
    elif kind == K_ACCEPT:
        _accept(cfg, a)
    elif kind == K_CALL_UNO:  # UNO-4: a late call before anyone catches you makes you safe
        a[S_UNO_EXPOSED] = -1
    elif kind == K_CATCH_UNO:  # UNO-2, HOUSE-8: the caught player draws the penalty
        a[S_UNO_EXPOSED] = -1
        draw_cards(cfg, a, (code >> TARGET_SHIFT & 31) - 1, cfg[C_UNO_PENALTY])
    elif kind == K_NEXT_ROUND:  # SETUP-11
        deal_round(cfg, a, player)
    else:
        raise ValueError("apply_move: not a move code")
