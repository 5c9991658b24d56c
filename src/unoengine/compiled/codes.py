"""Moves as integers: what the kernels list and take (docs/compiled.md, "Moves").

A move code packs the move's kind and fields into one ``int64``::

    kind | player << 4 | (card + 1) << 8 | (color + 1) << 15 | (target + 1) << 18 | uno << 23

with -1 for a field the move has not (so 0 in the code). ``target`` is the named player of a Play
(ACT-7, ACT-8, HOUSE-3) and the caught player of a CatchUno; ``color`` the named colour of a wild
Play or a ChooseColor. :func:`encode` and :func:`decode` are exact inverses on every move, and
decode hands out the reference engine's interned move objects.
"""

from __future__ import annotations

from typing import Final

from ..engine.cards import CARDS, NUM_CARD_CODES
from ..engine.errors import UnoEngineError, shown
from ..engine.moves import (
    ACCEPT,
    CALL_UNO,
    CATCH_UNO,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    MAX_PLAYERS,
    NEXT_ROUND,
    PASS,
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
    untargeted_play,
)

K_PLAY: Final = 0
K_DRAW: Final = 1
K_PASS: Final = 2
K_CHOOSE_COLOR: Final = 3
K_CHALLENGE: Final = 4
K_ACCEPT: Final = 5
K_CALL_UNO: Final = 6
K_CATCH_UNO: Final = 7
K_NEXT_ROUND: Final = 8

PLAYER_SHIFT: Final = 4
CARD_SHIFT: Final = 8
COLOR_SHIFT: Final = 15
TARGET_SHIFT: Final = 18
UNO_SHIFT: Final = 23

MAX_LEGAL: Final = NUM_CARD_CODES * 4 * 2 * (MAX_PLAYERS - 1) + 4 * MAX_PLAYERS
"""More moves than any state can have: the buffer the kernels list legal moves into."""

_KIND_OF: Final[dict[type, int]] = {
    Play: K_PLAY, Draw: K_DRAW, Pass: K_PASS, ChooseColor: K_CHOOSE_COLOR, Challenge: K_CHALLENGE,
    Accept: K_ACCEPT, CallUno: K_CALL_UNO, CatchUno: K_CATCH_UNO, NextRound: K_NEXT_ROUND,
}


class MoveCodeError(UnoEngineError):
    """An integer that is no move code, or a value that is no move."""


def pack(kind: int, player: int, card: int = -1, color: int = -1, target: int = -1, uno: bool = False) -> int:
    """The code of a move from its fields (-1 for a field it has not)."""
    return (kind | player << PLAYER_SHIFT | (card + 1) << CARD_SHIFT | (color + 1) << COLOR_SHIFT
            | (target + 1) << TARGET_SHIFT | int(uno) << UNO_SHIFT)


def encode(move: Move) -> int:
    """The code of a reference move."""
    kind = _KIND_OF.get(type(move))
    if kind is None:
        raise MoveCodeError(f"move: {shown(move)} is not a unoengine move")
    if isinstance(move, Play):
        color = -1 if move.color is None else int(move.color)
        target = -1 if move.target is None else move.target
        return pack(K_PLAY, move.player, int(move.card), color, target, move.uno)
    if isinstance(move, ChooseColor):
        return pack(K_CHOOSE_COLOR, move.player, color=int(move.color))
    if isinstance(move, CatchUno):
        return pack(K_CATCH_UNO, move.player, target=move.target)
    return pack(kind, move.player)


_SIMPLE: Final[dict[int, tuple[Move, ...]]] = {
    K_DRAW: DRAW, K_PASS: PASS, K_CHALLENGE: CHALLENGE, K_ACCEPT: ACCEPT, K_CALL_UNO: CALL_UNO,
                  K_NEXT_ROUND: NEXT_ROUND}


def decode(code: int) -> Move:
    """The reference move of a code (the engine's interned object)."""
    if type(code) is not int:
        try:
            code = int(code.__index__())  # numpy integers
        except (AttributeError, TypeError):
            raise MoveCodeError(f"move code: expected an integer, got {shown(code)}") from None
    if code < 0 or code >> (UNO_SHIFT + 1):
        raise MoveCodeError(f"move code: {code} is out of range")
    kind = code & 15
    player = code >> PLAYER_SHIFT & 15
    card = (code >> CARD_SHIFT & 127) - 1
    color = (code >> COLOR_SHIFT & 7) - 1
    target = (code >> TARGET_SHIFT & 31) - 1
    uno = bool(code >> UNO_SHIFT & 1)
    if player >= MAX_PLAYERS or card >= NUM_CARD_CODES or color >= 4 or target >= MAX_PLAYERS:
        raise MoveCodeError(f"move code: {code} names no move")
    if kind in _SIMPLE:
        return _SIMPLE[kind][player]
    if kind == K_CHOOSE_COLOR and color >= 0:
        return CHOOSE_COLOR[player][color]
    if kind == K_CATCH_UNO and target >= 0:
        return CATCH_UNO[player][target]
    if kind == K_PLAY and card >= 0:
        if target >= 0:
            return targeted_play(player, CARDS[card], color, target, uno)
        return untargeted_play(player, CARDS[card], color, uno)
    raise MoveCodeError(f"move code: {code} names no move")
