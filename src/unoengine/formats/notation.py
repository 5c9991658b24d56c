"""A compact text notation for moves, used by game records, scenario files and people.

One move is the player's seat and what they do, for example::

    p0 R7          play a red 7                      p1 draw        draw a card
    p0 R6!         play it and call UNO (UNO-1)      p1 pass        keep the drawn card / pass
    p2 W:G         a Wild naming green (ACT-4)       p2 challenge   challenge a Wild Draw Four
    p2 W+4:R!      Wild Draw Four naming red, UNO    p2 accept      take the pending draw
    p3 WSW:B>p1    Swap Hands with player 1 (ACT-7)  p3 uno         call UNO late (UNO-4)
    p3 R7>p1       a 7 under seven-zero (HOUSE-3)    p0 catch p3    catch player 3 (UNO-2)
    p1 color Y     name the first card's colour      p4 deal        deal the next round

Cards are named as everywhere in the package (``R7``, ``GS``, ``BR``, ``Y+2``, ``W``, ``W+4``,
``WSH``, ``WSW``, ``WCU``, ``BLK``); colours are ``R``, ``Y``, ``G``, ``B``. Parsing ignores case
and accepts a bare seat number (``0 R7``) and colour names (``W:green``); formatting always gives
the canonical form above, so ``format_move(parse_move(text))`` normalises and
``parse_move(format_move(move)) == move`` for every move. Whether a move is *legal* is for
:func:`unoengine.apply` to say; this module only reads and writes it.
"""

from __future__ import annotations

import re
from typing import Final

from ..engine.cards import COLOR_LETTERS, Card, Color, parse_card, parse_color
from ..engine.errors import NotationError, quoted, shown
from ..engine.limits import MAX_MOVE_TEXT
from ..engine.moves import (
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

_SIMPLE: Final[dict[str, type[Draw | Pass | Challenge | Accept | CallUno | NextRound]]] = {
    "draw": Draw,
    "pass": Pass,
    "challenge": Challenge,
    "accept": Accept,
    "uno": CallUno,
    "deal": NextRound,
}
_KEYWORD_OF: Final = {kind: word for word, kind in _SIMPLE.items()}
_FORMATTED: Final = frozenset({Play, CatchUno, ChooseColor, *_SIMPLE.values()})
_MAX_SEAT_DIGITS: Final = 2
_SEATS: Final = 10**_MAX_SEAT_DIGITS
"""The seats the notation can write (two digits), whether or not a table has them."""


def format_move(move: Move) -> str:
    """The canonical text of ``move``; :class:`NotationError` for an object that is not a move, or
    a move with a field the notation cannot write (checked by exact type, as ``apply`` does)."""
    kind = type(move)
    if kind not in _FORMATTED:
        raise NotationError(f"{shown(move)} is not a unoengine move")
    head = f"p{_seat_of(move, 'player', move.player)}"
    if kind is Play:
        assert isinstance(move, Play)
        if type(move.card) is not Card:
            raise _unwritable(move, "card", "a card", move.card)
        text = f"{head} {move.card!r}"
        if move.color is not None:
            text += f":{_color_of(move, move.color)}"
        if move.target is not None:
            text += f">p{_seat_of(move, 'target', move.target)}"
        if type(move.uno) is not bool:
            raise _unwritable(move, "uno", "True or False", move.uno)
        return text + ("!" if move.uno else "")
    if kind is CatchUno:
        assert isinstance(move, CatchUno)
        return f"{head} catch p{_seat_of(move, 'target', move.target)}"
    if kind is ChooseColor:
        assert isinstance(move, ChooseColor)
        return f"{head} color {_color_of(move, move.color)}"
    return f"{head} {_KEYWORD_OF[kind]}"  # type: ignore[index]


def _unwritable(move: Move, field: str, expected: str, value: object) -> NotationError:
    return NotationError(f"{shown(move)} cannot be written: {field} must be {expected}, got {shown(value)}")


def _seat_of(move: Move, field: str, value: object) -> int:
    if type(value) is not int or not 0 <= value < _SEATS:
        raise _unwritable(move, field, f"a seat from 0 to {_SEATS - 1}", value)
    return value


def _color_of(move: Move, value: object) -> str:
    if type(value) is not Color:  # a move turns the ints 0..3 into a Color: -1, 7 or 0.0 is none
        raise _unwritable(move, "color", "one of the four colours", value)
    return COLOR_LETTERS[value]


def parse_move(text: str) -> Move:
    """Read one move in the notation above; :class:`NotationError` quotes the bad input (briefly:
    a text longer than MAX_MOVE_TEXT is refused before it is read)."""
    if not isinstance(text, str):
        raise NotationError(f"a move is written as text such as 'p0 R7', got {type(text).__name__} {shown(text)}")
    if len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"{_bad(text)}: too long to be a move such as 'p0 R7' (at most {MAX_MOVE_TEXT} "
                            "characters)")
    tokens = text.split()
    if len(tokens) < 2:
        raise NotationError(f"{_bad(text)}: expected a seat and an action, such as 'p0 R7' or 'p1 draw'")
    player = _seat(tokens[0], text)
    action, rest = tokens[1], tokens[2:]
    word = action.lower()
    if word in _SIMPLE:
        _no_more(rest, text)
        return _SIMPLE[word](player)
    if word == "catch":
        if len(rest) != 1:
            raise NotationError(f"{_bad(text)}: 'catch' takes one seat, such as 'p0 catch p3'")
        return CatchUno(player, _seat(rest[0], text))
    if word in ("color", "colour"):
        if len(rest) != 1:
            raise NotationError(f"{_bad(text)}: '{action}' takes one colour, such as 'p1 color G'")
        return ChooseColor(player, _color(rest[0], text))
    _no_more(rest, text)
    return _play(player, action, text)


_SEAT_TOKEN: Final = re.compile(r"[pP]?\d{1,2}")
_COLOR_WORDS: Final = frozenset({*COLOR_LETTERS.lower(), "red", "yellow", "green", "blue"})


def complete_move_text(text: str, player: int, choosing_color: bool) -> str:
    """A move typed for ``player`` in full notation: a person or a language model may leave out
    the seat (``R7`` for ``p0 R7``), and name a colour alone while choosing one (``red`` for
    ``p0 color red``). Text that starts with a seat is left as it is."""
    tokens = text.split()
    if choosing_color and len(tokens) == 1 and tokens[0].lower() in _COLOR_WORDS:
        text = f"color {text}"
    if not (len(tokens) >= 2 and _SEAT_TOKEN.fullmatch(tokens[0])):
        text = f"p{player} {text}"
    return text


def _bad(text: str) -> str:
    """The start of a message about ``text``: quoted whole (it is at most MAX_MOVE_TEXT long), or
    its start and length."""
    return f"bad move {quoted(text, MAX_MOVE_TEXT)}"


def _play(player: int, action: str, text: str) -> Play:
    """``CARD[:COLOUR][>pSEAT][!]``."""
    body = action
    uno = body.endswith("!")
    if uno:
        body = body[:-1]
    target = None
    if ">" in body:
        body, _, seat = body.partition(">")
        target = _seat(seat, text)
    color = None
    if ":" in body:
        body, _, name = body.partition(":")
        color = _color(name, text)
    card = _card(body, text)
    return Play(player, card, color, target, uno)


def _seat(token: str, text: str) -> int:
    digits = token[1:] if token[:1] in ("p", "P") else token
    if not digits.isascii() or not digits.isdigit() or len(digits) > _MAX_SEAT_DIGITS:
        raise NotationError(f"{_bad(text)}: {quoted(token)} is not a seat such as p0 or p3")
    return int(digits)


def _card(token: str, text: str) -> Card:
    try:
        return parse_card(token)
    except NotationError:
        raise NotationError(
            f"{_bad(text)}: {quoted(token)} is not a card or an action "
            "(cards: R7, GS, BR, Y+2, W, W+4, WSH, WSW, WCU, BLK; actions: draw, pass, challenge, accept, "
            "uno, catch, color, deal)"
        ) from None


def _color(token: str, text: str) -> int:
    try:
        return parse_color(token)
    except NotationError:
        raise NotationError(f"{_bad(text)}: {quoted(token)} is not a colour (R, Y, G, B)") from None


def _no_more(rest: list[str], text: str) -> None:
    if rest:
        raise NotationError(f"{_bad(text)}: unexpected {quoted(' '.join(rest))} at the end")
