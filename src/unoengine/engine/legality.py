"""Which moves are legal: one set of predicates serves both move generation and checking.

:func:`legal_moves` lists every move every player may make now, in turn or out of turn.
:func:`check_move` explains why a move is not legal, with the rule it breaks. Both are built
from the same predicates (:func:`playable_cards`, :func:`may_draw`, :func:`may_pass`), so they
cannot disagree; the property tests check that they agree on every state they reach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .cards import (
    BLANK,
    CARDS,
    COLOR_OF,
    DRAW_TWO,
    IS_WILD,
    NUM_CARD_CODES,
    SYMBOL_OF,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_SWAP_HANDS,
    Card,
    Color,
)
from .effects import get_effect
from .errors import IllegalMoveError, UnoEngineError, shown
from .moves import (
    ACCEPT,
    CALL_UNO,
    CATCH_UNO,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    NEXT_ROUND,
    PASS,
    PLAYS_OF,
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
    targeted_play,
)
from .profile import STACKING, Profile
from .state import GameState, Phase, not_a_state

# Phase members as module constants: an enum attribute lookup costs ~75 ns on the hot path.
_CHALLENGE: Final = Phase.CHALLENGE
_CHOOSE_COLOR: Final = Phase.CHOOSE_COLOR
_DRAWN: Final = Phase.DRAWN
_MATCH_OVER: Final = Phase.MATCH_OVER
_PENALTY: Final = Phase.PENALTY
_PLAY: Final = Phase.PLAY
_ROUND_OVER: Final = Phase.ROUND_OVER

SEVEN: Final = 7

Block = tuple[str, str]
"""(rule ID, reason code) of a refusal; the message is written only when one is raised."""

CARD_NOT_IN_HAND: Final = ("PLAY-1", "card-not-in-hand")
ONLY_DRAWN_CARD: Final = ("PLAY-5", "only-drawn-card")
NO_MATCH: Final = ("PLAY-1", "card-does-not-match")
WD4_RESTRICTED: Final = ("WD4-1", "wild-draw-four-restricted")
NOT_PLAYABLE: Final = ("PLAY-1", "not-playable")
NOTHING_TO_DRAW: Final = ("PLAY-7", "nothing-to-draw")
MUST_PLAY_NOT_DRAW: Final = ("HOUSE-5", "forced-play")
MUST_PLAY_NOT_PASS: Final = ("PLAY-7", "must-play")
MUST_DRAW: Final = ("PLAY-4", "must-draw")
CANNOT_STACK: Final = ("HOUSE-1", "cannot-stack")


def _build_match_table() -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """MATCHES[top][color][card]: may ``card`` go on ``top`` with ``color`` in play (PLAY-1..3)."""
    table = []
    for top in range(NUM_CARD_CODES):
        per_color = []
        for color in range(4):
            per_color.append(tuple(
                IS_WILD[c]  # PLAY-3: a wild goes on anything
                or COLOR_OF[c] == color  # PLAY-1: colour (the named one after a wild)
                # PLAY-1/PLAY-2: same number or symbol, never against a wild's symbol
                or (not IS_WILD[top] and SYMBOL_OF[c] == SYMBOL_OF[top])
                for c in range(NUM_CARD_CODES)
            ))
        table.append(tuple(per_color))
    return tuple(table)


MATCHES: Final = _build_match_table()


def _may_answer(stacking: str, top: int, card: int) -> bool:
    """HOUSE-1: may ``card`` answer a Draw card ``top`` under the ``stacking`` variant?"""
    card_draw_two = not IS_WILD[card] and SYMBOL_OF[card] == DRAW_TWO
    if stacking == "off" or not (card_draw_two or card == WILD_DRAW_FOUR):
        return False
    if not IS_WILD[top] and SYMBOL_OF[top] == DRAW_TWO:
        return card_draw_two or stacking != "same-kind"  # a Wild Draw Four is "higher"
    if top == WILD_DRAW_FOUR:
        return card == WILD_DRAW_FOUR or stacking == "cross"  # equal-or-higher: no Draw Two on it
    return False


STACKS_ON: Final = {
    mode: tuple(tuple(_may_answer(mode, top, c) for c in range(NUM_CARD_CODES)) for top in range(NUM_CARD_CODES))
    for mode in STACKING
}
"""``STACKS_ON[stacking][top][card]``: may ``card`` answer the Draw card ``top`` (HOUSE-1)?"""


_OF_COLOR: Final = tuple(tuple(COLOR_OF[c] == color for c in range(NUM_CARD_CODES)) for color in (0, 1, 2, 3, -1))
"""_OF_COLOR[color][card]: is ``card`` of ``color`` (-1: a wild, which has none)."""


def holds_color(hand: tuple[Card, ...], color: int) -> bool:
    """WD4-1: does the hand hold a card of ``color``? Numbers and symbols do not count.

    (A lookup per card, all inside ``any(map(...))``, with no Python-level loop.)"""
    return any(map(_OF_COLOR[color].__getitem__, hand))


def needs_target(state: GameState, card: int) -> bool:
    """Does playing ``card`` name another player in this state's game? (:func:`takes_target`)"""
    return takes_target(state.profile, card)


def takes_target(profile: Profile, card: int) -> bool:
    """Does playing ``card`` name another player under ``profile``? Swap Hands always (ACT-7);
    custom cards per effect (ACT-8); a 7 under seven-zero (HOUSE-3)."""
    if card == WILD_SWAP_HANDS:
        return True
    if card in (WILD_CUSTOMIZABLE, BLANK):
        return get_effect(profile.custom_effect).needs_target
    return profile.seven_zero and SYMBOL_OF[card] == SEVEN


def _target_rule(card: int) -> str:
    if card == WILD_SWAP_HANDS:
        return "ACT-7"
    return "ACT-8" if IS_WILD[card] else "HOUSE-3"


def _check_target(state: GameState, move: Play) -> None:
    """A card that names another player needs a valid one; any other card takes none."""
    card, t = move.card, move.target
    if needs_target(state, card):
        rule = _target_rule(card)
        if t is None:
            raise _refuse(move, (rule, "target-required"), f"{CARDS[card]!r} needs another player as target")
        if type(t) is not int or not 0 <= t < len(state.hands) or t == move.player:
            raise _refuse(move, (rule, "invalid-target"), f"target {shown(t)} is not another player")
    elif t is not None:
        raise _refuse(move, ("PLAY-1", "target-not-allowed"), f"{CARDS[card]!r} takes no target")


def wild_draw_four_forbidden(profile: Profile, hand: tuple[Card, ...], color: int) -> bool:
    """WD4-1/WD4-6: in "enforced" mode a Wild Draw Four may not be played while holding the colour.

    In "challenge" mode the same play is a legal bluff (WD4-2); "unrestricted" has no limit.
    """
    return profile.wild_draw_four == "enforced" and holds_color(hand, color)


def card_playable(profile: Profile, top: int, color: int, hand: tuple[Card, ...], card: int) -> bool:
    """May ``card`` go on ``top`` with ``color`` in play, played from ``hand``? (PLAY-1..3, WD4-1)"""
    return MATCHES[top][color][card] and not (
        card == WILD_DRAW_FOUR and wild_draw_four_forbidden(profile, hand, color)
    )


def playable_cards(state: GameState) -> list[int]:
    """The distinct cards the player to act may play now.

    This is the one test of which cards may be played: legal_moves lists exactly these and
    check_move accepts exactly these. After a draw only the drawn card counts (PLAY-5); facing
    a Draw card under stacking, only an answer to it (HOUSE-1).
    """
    hand = state.hands[state.current]
    row = MATCHES[state.discard[0]][state.color]
    out: list[int] = []
    phase = state.phase
    if phase is _DRAWN:
        drawn = state.drawn
        if drawn is not None and row[drawn]:
            out.append(drawn)
    elif phase is not _PLAY:
        if may_stack(state):
            answers = STACKS_ON[state.profile.stacking][state.discard[0]]
            out.extend(c for c in sorted(set(hand)) if answers[c] and row[c])
    else:
        previous = -1
        for c in hand:
            if c != previous and row[c]:
                out.append(c)
            previous = c
    if out and out[-1] >= WILD_DRAW_FOUR and WILD_DRAW_FOUR in out and wild_draw_four_forbidden(
        state.profile, hand, state.color
    ):
        out.remove(WILD_DRAW_FOUR)
    return out


def may_stack(state: GameState) -> bool:
    """HOUSE-1: may the player to act answer the pending Draw card (PENALTY or CHALLENGE phase)?

    Not when stacking is off, nor once the attacker has gone out on a last Wild Draw Four: the
    round is over but for the draw (ACT-9).
    """
    if state.profile.stacking == "off" or state.phase not in _ANSWERABLE:
        return False
    pending = state.challenge
    return pending is None or bool(state.hands[pending.attacker])


_ANSWERABLE: Final = (_PENALTY, _CHALLENGE)


def explain_unplayable(state: GameState, player: int, card: int) -> Block:
    """Which rule keeps ``card`` from being played: for error messages only."""
    hand = state.hands[player]
    if card not in hand:
        return CARD_NOT_IN_HAND
    if state.phase is _DRAWN and card != state.drawn:
        return ONLY_DRAWN_CARD
    if state.phase in _ANSWERABLE and not (
        may_stack(state) and STACKS_ON[state.profile.stacking][state.discard[0]][card]
    ):
        return CANNOT_STACK
    if not MATCHES[state.discard[0]][state.color][card]:
        return NO_MATCH
    if card == WILD_DRAW_FOUR and wild_draw_four_forbidden(state.profile, hand, state.color):
        return WD4_RESTRICTED
    return NOT_PLAYABLE


def _append_plays(state: GameState, p: int, cards: Sequence[int], out: list[Move]) -> None:
    """Append every Play of ``cards`` by ``p``: each colour of a wild, each target, with UNO."""
    with_uno = len(state.hands[p]) == 2  # UNO-1: the call goes with the next-to-last card
    plays_of = PLAYS_OF[p]
    may_target = state.profile.seven_zero
    for c in cards:
        if (c >= WILD_SWAP_HANDS or may_target) and needs_target(state, c):
            colors = range(4) if IS_WILD[c] else (-1,)  # a coloured 7 names no colour
            for target in range(len(state.hands)):
                if target != p:
                    for k in colors:
                        out.append(targeted_play(p, c, k, target, False))
                        if with_uno:
                            out.append(targeted_play(p, c, k, target, True))
        else:
            out.extend(plays_of[c][with_uno])


JUMP_IN_PHASES: Final = (_PLAY, _DRAWN, _PENALTY)
"""HOUSE-2: the phases in which a player may jump in."""


def may_jump_in(state: GameState, player: int) -> bool:
    """HOUSE-2: may ``player``, not the player to act, play the top card's twin out of turn now?

    Only a coloured card can be identical to the top card (a wild has no printed colour), and
    only while a turn is being played or a Draw card answered: not while a Wild Draw Four
    awaits its challenge decision or a first wild its colour.
    """
    top = state.discard[0]
    return (
        state.profile.jump_in
        and player != state.current
        and state.phase in JUMP_IN_PHASES
        and not IS_WILD[top]
        and top in state.hands[player]
    )


def _jump_in_plays(state: GameState, player: int | None, out: list[Move]) -> None:
    """Append the jump-in plays of every other player (or of ``player``), by seat (HOUSE-2)."""
    twin = [state.discard[0]]
    for q in range(len(state.hands)) if player is None else (player,):
        if may_jump_in(state, q):
            _append_plays(state, q, twin, out)


def has_play(state: GameState) -> bool:
    """Can the player to act play any card now?"""
    return bool(playable_cards(state))


def can_draw(state: GameState) -> bool:
    """PLAY-7: a card can be drawn, after reshuffling the discard pile if need be."""
    return state.draw_pos < len(state.draw_pile) or state.discard[1] > 1


def may_draw(state: GameState, playable: bool) -> Block | None:
    """Why the player to act may not draw now (PLAY phase), or None.

    HOUSE-5: with ``play.decline_to_play = false`` (forced play) a player who can play may not draw.
    """
    if not can_draw(state):
        return NOTHING_TO_DRAW
    if playable and not state.profile.decline_to_play:
        return MUST_PLAY_NOT_DRAW
    return None


def may_pass(state: GameState, playable: bool) -> Block | None:
    """Why the player to act may not pass now, or None (PLAY-4 keep, PLAY-7 pass)."""
    if state.phase is _DRAWN:
        return None
    if playable:
        return MUST_PLAY_NOT_PASS
    if can_draw(state):
        return MUST_DRAW
    return None


def next_dealer(state: GameState) -> int:
    """SETUP-11: who deals the next round."""
    last = state.match.last_round
    if state.profile.next_dealer == "winner" and last is not None:
        return last.winner
    return (state.match.dealer + 1) % len(state.hands)


def only_current_may_act(state: GameState) -> bool:
    """Are all of :func:`legal_moves` the player to act's? Moves out of turn come only from an
    exposed UNO (UNO-2, UNO-4: the late call and the catches), from jump-ins (HOUSE-2) and, once
    the round is over, from the next dealer (SETUP-11); without those, nobody else may act.

    The runners (bots/turns.py, envs/table.py) ask this first, so that the common turn costs them
    no look at who each legal move belongs to."""
    return state.uno_exposed < 0 and state.phase < _ROUND_OVER and not state.profile.jump_in


def legal_moves(state: GameState, player: int | None = None) -> list[Move]:
    """Every legal move now, in a fixed order: the in-turn moves, then jump-ins (HOUSE-2) by
    seat, then UNO calls and catches.

    With ``player`` given, only that player's moves (none for a seat the table does not have; a
    player that is not an ``int`` is refused).
    """
    if player is not None and type(player) is not int:
        raise UnoEngineError(f"there is no player {shown(player)}: a player is a seat, an int")
    try:
        out: list[Move] = []
        if player is not None and not 0 <= player < len(state.hands):
            return out
        phase = state.phase
        p = state.current
        if player is None or player == p:
            if phase is _PLAY:
                _append_plays(state, p, playable_cards(state), out)
                playable = bool(out)
                if may_draw(state, playable) is None:
                    out.append(DRAW[p])
                if may_pass(state, playable) is None:
                    out.append(PASS[p])
            elif phase is _DRAWN:
                _append_plays(state, p, playable_cards(state), out)
                out.append(PASS[p])
            elif phase is _CHALLENGE:
                _append_plays(state, p, playable_cards(state), out)  # HOUSE-1: answer it instead
                out.append(CHALLENGE[p])
                out.append(ACCEPT[p])
            elif phase is _PENALTY:
                _append_plays(state, p, playable_cards(state), out)
                out.append(ACCEPT[p])
            elif phase is _CHOOSE_COLOR:
                out.extend(CHOOSE_COLOR[p])
        if state.profile.jump_in:
            _jump_in_plays(state, player, out)
        if phase is _ROUND_OVER:
            dealer = next_dealer(state)
            if player is None or player == dealer:
                out.append(NEXT_ROUND[dealer])
        exposed = state.uno_exposed
        if exposed >= 0:
            if player is None or player == exposed:
                out.append(CALL_UNO[exposed])
            for q in range(len(state.hands)):
                if q != exposed and (player is None or player == q):
                    out.append(CATCH_UNO[q][exposed])
        if player is None:
            _remember_moves(state, tuple(out))
        return out
    except (AttributeError, TypeError):  # no cost on the hot path: only when something is wrong
        if type(state) is not GameState:
            raise not_a_state(state) from None
        raise


_last_legal: tuple[object, tuple[Move, ...]] = (None, ())


def forget_legal_moves() -> None:
    """Drop the remembered list (and the state it is of): a runner calls this before handing
    control to a bot, so that no module-level value holds the state while the bot runs
    (docs/security.md). The next check of a move then goes rule by rule."""
    global _last_legal
    _last_legal = (None, ())


def remember_legal_moves(state: GameState, moves: Sequence[Move]) -> None:
    """Remember ``moves``, the full list :func:`legal_moves` gave for ``state``, again: a runner
    that forgot it while a bot ran (:func:`forget_legal_moves`) calls this once the bot is done,
    so that applying the bot's move (one of those objects) needs no second check."""
    _remember_moves(state, tuple(moves))


def _remember_moves(state: GameState, moves: tuple[Move, ...]) -> None:
    """Keep the full list of the last state asked: applying one of those very move objects to
    that state needs no second check (the list is a private copy, so callers cannot alter it)."""
    global _last_legal
    _last_legal = (state, moves)


# --- checking ----------------------------------------------------------------------------
def _is_color(value: object) -> bool:
    """A colour is a Color (the move classes turn the ints 0..3 and colour names into one): never a
    bool, a float or another int subclass that merely equals one."""
    return type(value) is Color


def _bad_field(move: object, field: str, expected: str, value: object) -> IllegalMoveError:
    """A move whose field holds a value of the wrong type: refused before any rule is asked."""
    return IllegalMoveError(move, "MOVE", "bad-field", f"{field} must be {expected}, got {shown(value)}")


def _refuse(move: object, block: Block, detail: str) -> IllegalMoveError:
    return IllegalMoveError(move, block[0], block[1], detail)


def _block_text(state: GameState, block: Block, card: int = -1) -> str:
    """The human sentence for a refusal found by the shared predicates."""
    top, color = CARDS[state.discard[0]], "RYGB"[state.color] if state.color >= 0 else "?"
    texts = {
        CARD_NOT_IN_HAND: f"{CARDS[card]!r} is not in the hand" if card >= 0 else "",
        ONLY_DRAWN_CARD: f"after drawing, only the drawn card {state.drawn!r} may be played",
        NO_MATCH: f"{CARDS[card]!r} matches neither colour {color} nor the top card {top!r}" if card >= 0 else "",
        WD4_RESTRICTED: f"Wild Draw Four is not allowed while holding a card of colour {color}",
        NOT_PLAYABLE: "that card cannot be played now",
        NOTHING_TO_DRAW: "the draw pile and the discard pile below its top card are empty",
        MUST_PLAY_NOT_DRAW: "this profile forbids declining to play (play.decline_to_play = false)",
        MUST_PLAY_NOT_PASS: "a player who can play may not pass",
        MUST_DRAW: "a player who cannot play must draw",
        CANNOT_STACK: f"{CARDS[card]!r} cannot answer {top!r} under stacking = {state.profile.stacking!r}"
        if card >= 0 else "",
    }
    return texts.get(block, block[1])


def _check_card(move: Play) -> int:
    card = move.card
    if type(card) is not Card:  # Play turns codes and names into a Card; a bool or float is none
        raise _refuse(move, ("PLAY-1", "unknown-card"), f"{shown(card)} is not a card")
    return card


def _check_play(state: GameState, move: Play) -> None:
    card = _check_card(move)
    if card not in playable_cards(state):
        block = explain_unplayable(state, move.player, card)
        raise _refuse(move, block, _block_text(state, block, card))
    _check_play_details(state, move, card)


def _check_jump_in(state: GameState, move: Play) -> None:
    """HOUSE-2: an out-of-turn play must be the top card's twin, at a moment that allows it."""
    card = _check_card(move)
    if state.phase not in JUMP_IN_PHASES:
        detail = f"no jump-in while the phase is {state.phase.name}"
        raise _refuse(move, ("HOUSE-2", "no-jump-in-now"), detail)
    if card not in state.hands[move.player]:
        raise _refuse(move, CARD_NOT_IN_HAND, _block_text(state, CARD_NOT_IN_HAND, card))
    if not may_jump_in(state, move.player) or card != state.discard[0]:
        detail = f"out of turn only a card identical to the top card {CARDS[state.discard[0]]!r} may be played"
        raise _refuse(move, ("HOUSE-2", "not-identical"), detail)
    _check_play_details(state, move, card)


def _check_play_details(state: GameState, move: Play, card: int) -> None:
    """The colour, target and UNO call of a play whose card may be played."""
    p = move.player
    if IS_WILD[card]:
        if not _is_color(move.color):
            raise _refuse(move, ("ACT-4", "colour-required"), "a wild must name one of the four colours")
    elif move.color is not None:
        raise _refuse(move, ("PLAY-1", "colour-not-allowed"), "only a wild names a colour")
    _check_target(state, move)
    if type(move.uno) is not bool:
        raise _bad_field(move, "uno", "True or False", move.uno)
    if move.uno and len(state.hands[p]) != 2:
        raise _refuse(move, ("UNO-1", "uno-not-next-to-last"), "UNO is called when playing the next-to-last card")


def _in_turn(state: GameState, move: Move, phases: tuple[Phase, ...]) -> None:
    """Refuse a move out of turn, or in a phase that does not take it."""
    phase = state.phase
    if move.player != state.current:
        if phase is _CHALLENGE and type(move) in (Challenge, Accept):
            detail = f"only player {state.current}, who must draw, may answer it"
            raise _refuse(move, ("WD4-3", "not-challenged"), detail)
        if phase is _PENALTY and type(move) is Accept:
            detail = f"only player {state.current}, who faces the draw, may accept it"
            raise _refuse(move, ("HOUSE-1", "not-your-penalty"), detail)
        raise _refuse(move, ("PLAY-8", "not-your-turn"), f"it is player {state.current}'s turn")
    if phase not in phases:
        if phase is _CHALLENGE:
            raise _refuse(move, ("WD4-3", "must-answer-challenge"), "answer the Wild Draw Four: Challenge or Accept")
        if phase is _PENALTY:
            detail = f"answer the {CARDS[state.discard[0]]!r} with a Draw card, or Accept {state.pending_draw} cards"
            raise _refuse(move, ("HOUSE-1", "must-answer-penalty"), detail)
        if phase is _CHOOSE_COLOR:
            raise _refuse(move, ("SETUP-8", "must-choose-colour"), "name the colour of the first card first")
        raise _refuse(move, ("PLAY-1", "wrong-phase"), f"{type(move).__name__} is not a move of an ordinary turn")


_MATCH_RULE: Final = {
    "winner-takes-others": "SCORE-2", "own-hand-lowest-wins": "SCORE-3", "one-point-per-round": "SCORE-4",
}
"""The rule that ends a match under each scoring mode."""
_TURN: Final = (_PLAY, _DRAWN)
_TURN_OR_ANSWER: Final = (_PLAY, _DRAWN, _PENALTY, _CHALLENGE)


def _check_play_move(state: GameState, move: Move) -> None:
    assert isinstance(move, Play)
    if move.player != state.current and state.profile.jump_in:
        _check_jump_in(state, move)
        return
    _in_turn(state, move, _TURN if state.profile.stacking == "off" else _TURN_OR_ANSWER)
    _check_play(state, move)


def _check_draw(state: GameState, move: Move) -> None:
    _in_turn(state, move, _TURN)
    if state.phase is _DRAWN:
        raise _refuse(move, ("PLAY-6", "already-drew"), "one card is drawn per turn: play it or keep it")
    block = may_draw(state, has_play(state))
    if block is not None:
        raise _refuse(move, block, _block_text(state, block))


def _check_pass(state: GameState, move: Move) -> None:
    _in_turn(state, move, _TURN)
    block = may_pass(state, has_play(state))
    if block is not None:
        raise _refuse(move, block, _block_text(state, block))


def _check_challenge(state: GameState, move: Move) -> None:
    if state.phase is _PENALTY and move.player == state.current:
        detail = f"only a Wild Draw Four can be challenged, and {CARDS[state.discard[0]]!r} is on top"
        raise _refuse(move, ("WD4-3", "nothing-to-challenge"), detail)
    _in_turn(state, move, (_CHALLENGE,))


def _check_accept(state: GameState, move: Move) -> None:
    _in_turn(state, move, _ANSWERABLE)


def _check_choose_color(state: GameState, move: Move) -> None:
    assert isinstance(move, ChooseColor)
    _in_turn(state, move, (_CHOOSE_COLOR,))
    if not _is_color(move.color):
        raise _refuse(move, ("SETUP-8", "colour-required"), "name one of the four colours")


def _check_call_uno(state: GameState, move: Move) -> None:
    if state.uno_exposed != move.player:
        raise _refuse(move, ("UNO-4", "no-uno-owed"), "only the player who just missed the call may call late")


def _check_catch_uno(state: GameState, move: Move) -> None:
    assert isinstance(move, CatchUno)
    t = move.target
    if type(t) is not int:
        raise _bad_field(move, "target", "a seat (an int)", t)
    if t == move.player:
        raise _refuse(move, ("UNO-6", "cannot-catch-self"), "call UNO instead of catching yourself")
    if state.uno_exposed < 0 or t != state.uno_exposed:
        if type(t) is int and 0 <= t < len(state.hands) and len(state.hands[t]) >= 2:
            detail = f"player {t} holds {len(state.hands[t])} cards: there is no last card to catch"
            raise _refuse(move, ("UNO-3", "not-catchable"), detail)
        detail = f"player {shown(t)} cannot be caught now (no missed call, or too late)"
        raise _refuse(move, ("UNO-5", "not-catchable"), detail)


def _check_next_round(state: GameState, move: Move) -> None:
    raise _refuse(move, ("END-1", "round-not-over"), "the round is still being played")


_CHECKS: Final[dict[type, Callable[[GameState, Move], None]]] = {
    Play: _check_play_move,
    Draw: _check_draw,
    Pass: _check_pass,
    Challenge: _check_challenge,
    Accept: _check_accept,
    ChooseColor: _check_choose_color,
    CallUno: _check_call_uno,
    CatchUno: _check_catch_uno,
    NextRound: _check_next_round,
}


def check_move(state: GameState, move: Move) -> None:
    """Raise :class:`IllegalMoveError` if ``move`` is not legal in ``state``.

    A move that is one of the objects :func:`legal_moves` just listed for this same state is
    legal by construction; any other move is checked rule by rule.
    """
    listed_for, listed = _last_legal
    if listed_for is state:
        for m in listed:
            if m is move:
                return
    if type(state) is not GameState:
        raise not_a_state(state)
    check = _CHECKS.get(type(move))
    if check is None:
        raise IllegalMoveError(move, "MOVE", "not-a-move", f"{shown(move)} is not a unoengine move")
    player = move.player
    if type(player) is not int or not 0 <= player < len(state.hands):
        detail = f"there is no player {shown(player)} among {len(state.hands)}"
        raise IllegalMoveError(move, "SETUP-1", "no-such-player", detail)
    if state.phase >= _ROUND_OVER:
        if state.phase is _MATCH_OVER:
            rule = _MATCH_RULE[state.profile.scoring]
            raise _refuse(move, (rule, "match-over"), f"the match is over ({rule})")
        if type(move) is not NextRound:
            raise _refuse(move, ("END-1", "round-over"), "the round is over")
        dealer = next_dealer(state)
        if player != dealer:
            raise _refuse(move, ("SETUP-11", "not-dealer"), f"player {dealer} deals the next round")
        return
    check(state, move)
