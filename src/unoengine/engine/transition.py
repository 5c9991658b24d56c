"""The transition function: ``apply(state, move) -> new state``.

Each kind of move has one handler; each card's effect (ACT-1..9) has one function below.
``apply`` first checks the move with :func:`~unoengine.engine.legality.check_move` and only then
builds the new state: directly for the common moves (a draw, a pass, a plain play), through a
:class:`Draft` for the rest. The input state is never changed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import Final

from .cards import (
    BLANK,
    CARDS,
    COLOR_OF,
    DRAW_FOUR_COUNT,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    IS_WILD,
    NUM_CARD_CODES,
    REVERSE,
    SKIP,
    SYMBOL_OF,
    WILD,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Card,
)
from .dealing import deal_round
from .draft import Draft
from .effects import check_effect_result, get_effect, run_effect, shuffle_hands, swap_hands
from .events import (
    CardPlayed,
    CardsDrawn,
    ChallengeDecided,
    ChallengeOffered,
    ColorNamed,
    DirectionChanged,
    EffectApplied,
    Event,
    HandShown,
    HandsRotated,
    HandsShuffled,
    HandsSwapped,
    PenaltyPending,
    TurnPassed,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoNotCalled,
)
from .knowledge import after_hands_move, after_play, merge
from .legality import card_playable, check_move, has_play, holds_color
from .moves import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Move,
    NextRound,
    Pass,
    Play,
)
from .profile import Profile
from .scoring import end_round, end_round_blocked
from .state import GameState, PendingChallenge, Phase, Reveal, build_state

# Phase members as module constants: an enum attribute lookup costs ~75 ns on the hot path.
_CHALLENGE: Final = Phase.CHALLENGE
_DRAWN: Final = Phase.DRAWN
_PENALTY: Final = Phase.PENALTY
_PLAY: Final = Phase.PLAY

Log = list[Event] | None
"""Where a move's events go (apply_with_events), or None (apply)."""

CHALLENGE_EXTRA = 2  # WD4-5: an innocent player's challenger draws 4 + 2
SEVEN_ZERO = tuple(not IS_WILD[code] and SYMBOL_OF[code] in (0, 7) for code in range(NUM_CARD_CODES))
"""The cards with an effect of their own under HOUSE-3."""

# Cards whose only effect is on turn order: numbers, Skip, Reverse, plain Wild (but see SEVEN_ZERO).
ONLY_TURN_ORDER = tuple(
    code == WILD or (not IS_WILD[code] and SYMBOL_OF[code] != DRAW_TWO) for code in range(NUM_CARD_CODES)
)


def apply(state: GameState, move: Move) -> GameState:
    """Return the state after ``move``. Raises IllegalMoveError (state untouched) if illegal."""
    check_move(state, move)
    return _HANDLERS[type(move)](state, move, None)


def apply_listed(state: GameState, move: Move) -> GameState:
    """:func:`apply` for a move its caller found in ``legal_moves(state)`` for this very state
    (equal to one of them): the same new state, without checking the move a second time.

    Not part of the API: for a runner that picks from the legal moves it was given
    (envs/table.py, which saves the second look through the list on every step of an
    environment). A move from anywhere else must go through :func:`apply`, which refuses what
    is not legal and changes nothing."""
    return _HANDLERS[type(move)](state, move, None)


def apply_with_events(state: GameState, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`apply`, and also what happened, as events citing their rules (events.py).

    The new state is the one :func:`apply` returns; the common moves take the general path
    here instead of the shortcuts, and the property tests check that both agree.
    """
    check_move(state, move)
    log: list[Event] = []
    new = _HANDLERS[type(move)](state, move, log)
    return new, tuple(log)


# --- in-turn moves -------------------------------------------------------------------------
def _play(state: GameState, move: Move, log: Log) -> GameState:
    """PLAY-1: a card in turn, as an answer to a Draw card (HOUSE-1) or out of turn (HOUSE-2).

    Play goes on from the player of the card in every case: a jump-in passes over everyone
    between the player to act and the jumper.
    """
    assert isinstance(move, Play)
    p = move.player
    card = CARDS[move.card]
    hand_before = state.hands[p]
    if (log is None and ONLY_TURN_ORDER[card] and len(hand_before) > 1
            and not (state.profile.seven_zero and SEVEN_ZERO[card])):
        return _play_plain(state, move, card, hand_before)
    d = Draft(state, log)
    if log is not None:  # events are built only when asked for (apply_with_events)
        log.append(CardPlayed(p, card, _play_rule(state, p, card)))
        if move.color is not None:
            log.append(ColorNamed(p, move.color, WILD_RULE[card]))
        if move.uno:
            log.append(UnoCalled(p, "UNO-1"))
    # WD4-2: whether this Wild Draw Four is a bluff is judged on the hand it was played from.
    color_before = d.color
    bluff = card == WILD_DRAW_FOUR and holds_color(hand_before, color_before)
    # UNO-3: the catch window can only open here, once the next-to-last card is on the pile.
    hand = d.remove_from_hand(p, card)
    if d.known:
        d.known = after_play(d.known, p, card)
    d.put_on_discard(card)
    d.color = int(move.color) if move.color is not None else COLOR_OF[card]
    d.uno_exposed = -1  # UNO-5: playing begins the turn; any earlier window is closed
    d.passes = 0
    d.drawn = None
    d.challenge = None  # HOUSE-1: a Wild Draw Four answered by another is buried, not challenged
    if not hand:
        return _go_out(d, p, card, color_before)
    _card_effect(d, p, card, move.target)
    if card == WILD_DRAW_FOUR:
        _wild_draw_four(d, p, bluff, color_before)
    # UNO-1/UNO-2: playing the next-to-last card without calling opens the catch window.
    if len(hand_before) == 2 and not move.uno and len(d.hands[p]) == 1:
        d.uno_exposed = p
        d.emit(UnoNotCalled, p)
    return d.freeze()


def _play_plain(state: GameState, move: Play, card: Card, hand_before: tuple[Card, ...]) -> GameState:
    """The hot path: a number, Skip, Reverse or plain Wild that does not empty the hand.

    The same rules as the general path, built as one new state: the card leaves the hand and
    tops the discard pile (PLAY-1), the turn moves on (ACT-1, ACT-2, PLAY-8), and a missed
    UNO call opens the catch window (UNO-1, UNO-2, UNO-5).
    """
    p = move.player
    i = hand_before.index(card)
    hands = list(state.hands)
    hands[p] = hand_before[:i] + hand_before[i + 1:]
    current, direction = turn_after(state.profile, len(hands), p, state.direction, SYMBOL_OF[card])
    top = state.discard
    return build_state(
        state.profile, tuple(hands), state.draw_pile, state.draw_pos, (card, top[1] + 1, top),
        int(move.color) if move.color is not None else COLOR_OF[card], direction, current,
        _PLAY, None, None, p if len(hand_before) == 2 and not move.uno else -1, 0,
        state.rng, state.match, state.reveal, 0, after_play(state.known, p, card) if state.known else (),
    )


WILD_RULE = {
    WILD: "ACT-4", WILD_DRAW_FOUR: "ACT-5", WILD_SHUFFLE_HANDS: "ACT-6", WILD_SWAP_HANDS: "ACT-7",
    WILD_CUSTOMIZABLE: "ACT-8", BLANK: "ACT-8",
}
"""The rule under which each wild names a colour."""
FIRST_WILD_RULE = {
    WILD: "SETUP-8", WILD_DRAW_FOUR: "SETUP-9", WILD_SHUFFLE_HANDS: "SETUP-10", WILD_SWAP_HANDS: "SETUP-10",
    WILD_CUSTOMIZABLE: "SETUP-10", BLANK: "SETUP-10",
}
"""The rule under which the colour of each kind of first wild is named (SETUP-9: only Wild Draw Fours left)."""


def _play_rule(state: GameState, p: int, card: int) -> str:
    """The rule a play is made under: out of turn (HOUSE-2), answering a Draw card (HOUSE-1), a
    wild (PLAY-3), an action card on its symbol in another colour (PLAY-2), or a match (PLAY-1)."""
    if p != state.current:
        return "HOUSE-2"
    if state.phase is _PENALTY or state.phase is _CHALLENGE:
        return "HOUSE-1"
    if IS_WILD[card]:
        return "PLAY-3"
    if SYMBOL_OF[card] >= SKIP and COLOR_OF[card] != state.color:
        return "PLAY-2"
    return "PLAY-1"


def turn_after(profile: Profile, n: int, p: int, direction: int, symbol: int) -> tuple[int, int]:
    """Who plays after ``p`` plays a card of ``symbol``, and the direction then (PLAY-8).

    ACT-1 Skip passes over the next player; ACT-2 Reverse turns the direction, and with two
    players HOUSE-6 (``two_player_reverse = "skip"``) makes it a Skip: the same player again.
    """
    if symbol == SKIP:
        return (p + 2 * direction) % n, direction
    if symbol == REVERSE:
        direction = -direction
        if n == 2 and profile.two_player_reverse == "skip":
            return p, direction
    return (p + direction) % n, direction


def _card_effect(d: Draft, p: int, card: int, target: int | None) -> None:
    """Carry out the card's effect and pass the turn on (ACT-1..8)."""
    symbol = SYMBOL_OF[card]
    if symbol == DRAW_TWO:  # ACT-3
        victim = d.seat_after(p)
        if d.profile.stacking != "off":  # HOUSE-1: the victim may answer it
            _face_penalty(d, victim, d.pending_draw + DRAW_TWO_COUNT)
        else:
            d.draw(victim, DRAW_TWO_COUNT, "ACT-3")
            d.emit(TurnSkipped, victim, "ACT-3")
            d.start_turn(d.seat_after(p, 2))
        return
    if card == WILD_DRAW_FOUR:  # ACT-5: handled after the UNO window opens
        return
    if card == WILD_SHUFFLE_HANDS:  # ACT-6
        d.hands, d.rng = shuffle_hands(d.hands, p, d.rng, d.profile.shuffle)
        d.known = ()  # nobody can follow the cards
        d.emit(HandsShuffled, p)
    elif card == WILD_SWAP_HANDS:  # ACT-7
        assert target is not None
        _swap(d, p, target)
        d.emit(HandsSwapped, p, target, "ACT-7")
    elif card in (WILD_CUSTOMIZABLE, BLANK):  # ACT-8, SETUP-10
        _custom_effect(d, p, target)
    elif d.profile.seven_zero and SEVEN_ZERO[card]:
        _seven_zero(d, p, symbol, target)
    # numbers, Skip (ACT-1), Reverse (ACT-2), plain Wild (ACT-4) and the wilds above
    current, d.direction = turn_after(d.profile, len(d.hands), p, d.direction, symbol)
    if d.log is not None:
        _report_turn_order(d, p, symbol, current)
    d.start_turn(current)


def _report_turn_order(d: Draft, p: int, symbol: int, current: int) -> None:
    """The events of what :func:`turn_after` decided: a skip or a change of direction."""
    if symbol == SKIP:
        d.emit(TurnSkipped, d.seat_after(p), "ACT-1")
    elif symbol == REVERSE:
        d.emit(DirectionChanged, d.direction, "ACT-2")
        if current == p:  # HOUSE-6: with two players the Reverse skipped the other player
            d.emit(TurnSkipped, d.seat_after(p), "HOUSE-6")


def _seven_zero(d: Draft, p: int, symbol: int, target: int | None) -> None:
    """HOUSE-3: a 7 swaps hands with the chosen player; a 0 passes every hand to the next
    player in the direction of play. RULING: a player who reaches one card this way owes no
    UNO call (UNO-1 speaks of playing the next-to-last card)."""
    if symbol == 7:
        assert target is not None
        _swap(d, p, target)
        d.emit(HandsSwapped, p, target, "HOUSE-3")
    else:
        n, step = len(d.hands), d.direction
        before = list(d.hands)
        d.hands = [before[(i - step) % n] for i in range(n)]
        # each player knows the hand they passed on
        d.known = after_hands_move(d.known, lambda o: (o + step) % n,
                                   [(v, (v + step) % n, before[v]) for v in range(n)])
        d.emit(HandsRotated, d.direction)


def _swap(d: Draft, p: int, target: int) -> None:
    """ACT-7 / HOUSE-3: ``p`` and ``target`` exchange hands, and each now knows the other's."""
    before = list(d.hands)
    d.hands = swap_hands(d.hands, p, target)
    d.known = after_hands_move(d.known, lambda o: target if o == p else p if o == target else o,
                               [(p, target, before[p]), (target, p, before[target])])


def _custom_effect(d: Draft, p: int, target: int | None) -> None:
    """ACT-8: run the profile's registered effect on the frozen state, then continue from it."""
    effect = get_effect(d.profile.custom_effect)
    before = d.freeze()
    d.emit(EffectApplied, p, effect.name)
    after = run_effect(effect, before, p, target, d.log)
    check_effect_result(effect.name, before, after)
    fresh = Draft(after)
    for name in Draft.__slots__:
        if name != "log":
            setattr(d, name, getattr(fresh, name))
    d.known = ()  # whatever the effect did to the hands, nobody is assumed to follow it


def _face_penalty(d: Draft, victim: int, total: int) -> None:
    """HOUSE-1: ``victim`` must answer the Draw card on top or accept ``total`` cards."""
    d.current = victim
    d.phase = _PENALTY
    d.pending_draw = total
    d.emit(PenaltyPending, victim, total)


def _wild_draw_four(d: Draft, p: int, bluff: bool, color_before: int, last: bool = False) -> None:
    """ACT-5 / WD4-2: the next player draws 4 (with any stack under it, HOUSE-1) and is
    skipped, or may first challenge or answer."""
    victim = d.seat_after(p)
    total = d.pending_draw + DRAW_FOUR_COUNT
    if d.profile.wild_draw_four == "challenge":
        d.current = victim
        d.phase = _CHALLENGE
        d.challenge = PendingChallenge(p, victim, bluff, d.hands[p], color_before)
        d.pending_draw = total
        d.emit(ChallengeOffered, p, victim, total)
    elif d.profile.stacking != "off" and not last:
        _face_penalty(d, victim, total)
    elif last:
        d.draw(victim, total, "ACT-9")
    else:
        d.draw(victim, total, "ACT-5")
        d.emit(TurnSkipped, victim, "ACT-5")
        d.start_turn(d.seat_after(p, 2))


def _go_out(d: Draft, p: int, card: int, color_before: int) -> GameState:
    """END-1 / ACT-9: the player has no cards; a Draw Two or Wild Draw Four is still drawn,
    with the whole stack under it (HOUSE-1: nobody may answer a card that ended the round).

    RULING (docs/rulings.md): other effects of a last card (Skip, Reverse, Shuffle Hands,
    Swap Hands, custom effects) are not carried out: the round is over.
    """
    if SYMBOL_OF[card] == DRAW_TWO:
        d.draw(d.seat_after(p), d.pending_draw + DRAW_TWO_COUNT, "ACT-9")
    elif card == WILD_DRAW_FOUR:
        # WD4-3: with challenges the victim may still challenge; a last card is never a bluff.
        _wild_draw_four(d, p, bluff=False, color_before=color_before, last=True)
        if d.phase is _CHALLENGE:
            return d.freeze()
    return end_round(d, p)


def _draw(state: GameState, move: Move, log: Log) -> GameState:
    """PLAY-4/5/6: draw one card; the player then plays it, if it can be played, or keeps it.

    RULING: the turn ends with an explicit Pass even when the drawn card cannot be played,
    so the other players never learn from the flow of play whether a kept card was playable.
    """
    p = move.player
    pos = state.draw_pos
    if state.profile.draw_until_playable:
        return _draw_until_playable(state, p, log)
    if log is not None or pos >= len(state.draw_pile):  # PLAY-7: reshuffle first
        d = Draft(state, log)
        d.uno_exposed = -1
        d.passes = 0
        (card,) = d.draw(p, 1, "PLAY-5" if log is not None and has_play(state) else "PLAY-4")
        d.phase = _DRAWN
        d.drawn = card
        return d.freeze()
    # The common case, built directly: the pile tuple is shared, only its position moves.
    card = state.draw_pile[pos]
    hand = state.hands[p]
    i = bisect_right(hand, card)
    hands = list(state.hands)
    hands[p] = (*hand[:i], card, *hand[i:])
    return build_state(
        state.profile, tuple(hands), state.draw_pile, pos + 1, state.discard, state.color,
        state.direction, p, _DRAWN, card, None,
        -1,  # UNO-5: drawing begins the turn
        0, state.rng, state.match, state.reveal, 0, state.known,
    )


def _draw_until_playable(state: GameState, p: int, log: Log) -> GameState:
    """HOUSE-4: draw one card at a time until one can be played or nothing is left to draw
    (PLAY-7 reshuffles on the way). The last card drawn is then played or kept as after any
    draw (PLAY-4, PLAY-5)."""
    d = Draft(state, log)
    d.uno_exposed = -1
    d.passes = 0
    drawn = d.draw(p, 1, "HOUSE-4", report=False)
    while not card_playable(d.profile, d.discard[0], d.color, d.hands[p], drawn[-1]) and d.can_draw():
        drawn += d.draw(p, 1, "HOUSE-4", report=False)
    d.emit(CardsDrawn, p, len(drawn), tuple(drawn), "HOUSE-4")
    card = drawn[-1]
    d.phase = _DRAWN
    d.drawn = card
    return d.freeze()


def _pass(state: GameState, move: Move, log: Log) -> GameState:
    """PLAY-4 keep the drawn card, or PLAY-7 pass with nothing to draw (blocked after a full round)."""
    p = move.player
    if log is not None:
        log.append(TurnPassed(p, "PLAY-4" if state.phase is _DRAWN else "PLAY-7"))
    if state.phase is _DRAWN:
        passes = 0
    else:
        passes = state.passes + 1
        if passes >= len(state.hands):
            d = Draft(state, log)
            d.uno_exposed = -1
            d.passes = passes
            return end_round_blocked(d)
    return build_state(
        state.profile, state.hands, state.draw_pile, state.draw_pos, state.discard, state.color,
        state.direction, (p + state.direction) % len(state.hands), _PLAY, None, None,
        -1,  # UNO-5/UNO-7: any in-turn move closes the catch window
        passes, state.rng, state.match, state.reveal, 0, state.known,
    )


def _choose_color(state: GameState, move: Move, log: Log) -> GameState:
    """SETUP-8/SETUP-10: the first player names the colour and plays; SETUP-9 apply option:
    the dealer names it and the first player draws 4 and is skipped."""
    assert isinstance(move, ChooseColor)
    d = Draft(state, log)
    d.color = int(move.color)
    applies = d.discard[0] == WILD_DRAW_FOUR and d.profile.first_card_wild_draw_four == "apply"
    d.emit(ColorNamed, move.player, move.color, "HOUSE-7" if applies else FIRST_WILD_RULE[d.discard[0]])
    if applies:  # HOUSE-7
        first = d.seat_after(move.player)
        d.draw(first, DRAW_FOUR_COUNT, "HOUSE-7")
        d.emit(TurnSkipped, first, "HOUSE-7")
        d.start_turn(d.seat_after(first))
    else:
        d.start_turn(move.player)
    return d.freeze()


def _challenge(state: GameState, move: Move, log: Log) -> GameState:
    """WD4-3..5: the attacker shows the hand to the challenger alone.

    RULING (HOUSE-1): under stacking the pending total replaces the 4: a guilty attacker draws
    all of it, an innocent one's challenger draws it plus 2.
    """
    d = Draft(state, log)
    pending = state.challenge
    assert pending is not None
    attacker, victim = pending.attacker, pending.victim
    total = state.pending_draw
    d.uno_exposed = -1  # UNO-7: a challenge decision begins the turn
    d.challenge = None
    d.pending_draw = 0
    # RULING: the challenger sees the hand the card was played from, the one the verdict is
    # judged on, even if the attacker has drawn since (a missed-UNO penalty).
    d.reveal = Reveal(victim, attacker, pending.hand)
    d.known = merge(d.known, [(victim, attacker, pending.hand)])  # WD4-3: the challenger saw the hand
    d.emit(HandShown, attacker, victim, pending.hand)
    if pending.bluff:  # WD4-4 guilty: attacker draws 4; challenger plays on
        d.emit(ChallengeDecided, victim, attacker, True, "WD4-4")
        d.draw(attacker, total, "WD4-4")
        d.start_turn(victim)
        return d.freeze()
    # WD4-5 innocent: challenger draws 6 and misses the turn
    d.emit(ChallengeDecided, victim, attacker, False, "WD4-5")
    d.draw(victim, total + CHALLENGE_EXTRA, "WD4-5")
    if not d.hands[attacker]:
        return end_round(d, attacker)
    d.emit(TurnSkipped, victim, "WD4-5")
    d.start_turn(d.seat_after(victim))
    return d.freeze()


def _accept(state: GameState, move: Move, log: Log) -> GameState:
    """ACT-3/ACT-5: draw what is pending (4, or a whole stack under HOUSE-1) and miss the turn.

    RULING (UNO-7, docs/rulings.md): accepting is taking the penalty, not beginning a turn (UNO-5),
    so a catch window stays open, as when the victim draws at once without a challenge (WD4-6).
    """
    d = Draft(state, log)
    victim = state.current
    d.challenge = None
    d.pending_draw = 0
    pending = state.challenge
    attacker_out = pending is not None and not d.hands[pending.attacker]
    if attacker_out:
        rule = "ACT-9"  # the last card's draw (a Wild Draw Four that went out)
    else:
        rule = "HOUSE-1" if state.phase is _PENALTY or state.pending_draw > DRAW_FOUR_COUNT else "ACT-5"
    d.draw(victim, state.pending_draw, rule)
    if attacker_out:
        assert pending is not None
        return end_round(d, pending.attacker)
    d.emit(TurnSkipped, victim, rule)
    d.start_turn(d.seat_after(victim))
    return d.freeze()


# --- out-of-turn moves ---------------------------------------------------------------------
def _call_uno(state: GameState, move: Move, log: Log) -> GameState:
    """UNO-4: a late call before anyone catches you makes you safe."""
    d = Draft(state, log)
    d.uno_exposed = -1
    d.emit(UnoCalled, move.player, "UNO-4")
    return d.freeze()


def _catch_uno(state: GameState, move: Move, log: Log) -> GameState:
    """UNO-2: the caught player draws the profile's penalty (2 or 4, HOUSE-8)."""
    assert isinstance(move, CatchUno)
    d = Draft(state, log)
    d.uno_exposed = -1
    d.emit(UnoCaught, move.player, move.target)
    d.draw(move.target, d.profile.uno_penalty, "UNO-2")
    return d.freeze()


def _next_round(state: GameState, move: Move, log: Log) -> GameState:
    return deal_round(state, move.player, log)


_HANDLERS: dict[type, Callable[[GameState, Move, Log], GameState]] = {
    Play: _play,
    Draw: _draw,
    Pass: _pass,
    ChooseColor: _choose_color,
    Challenge: _challenge,
    Accept: _accept,
    CallUno: _call_uno,
    CatchUno: _catch_uno,
    NextRound: _next_round,
}
