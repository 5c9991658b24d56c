"""Moves: small immutable values, one class per kind of decision.

Every move names the ``player`` who makes it, so a move made out of turn (calling UNO late,
catching someone) is as explicit as a move made in turn. Moves compare by value; the
engine hands out interned instances (:func:`untargeted_play`, :func:`targeted_play` and
tables such as ``PLAYS_OF``) so that move generation allocates nothing on the hot path.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from .cards import CARDS, COLORS, IS_WILD, NUM_CARD_CODES, Card, Color, parse_card, parse_color
from .limits import MAX_PLAYERS as MAX_PLAYERS  # re-exported: its home is limits.py


def _as_card(value: Any) -> Any:
    """Accept a card name ("R7", "W+4") or code; anything else is left for apply to refuse."""
    if isinstance(value, str):
        return parse_card(value)
    if type(value) is int and 0 <= value < NUM_CARD_CODES:
        return CARDS[value]
    return value


def _as_color(value: Any) -> Any:
    """Accept a colour name ("red", "R") or number 0..3; anything else is left for apply to refuse."""
    if isinstance(value, str):
        return parse_color(value)
    if type(value) is int and 0 <= value < 4:
        return COLORS[value]
    return value


@attrs.frozen(repr=False)
class Play:
    """Play ``card`` from the hand (PLAY-1..3).

    ``color`` is the colour named for a wild (ACT-4), None otherwise. ``target`` is the
    opponent chosen for Wild Swap Hands (ACT-7) or a custom effect that needs one (ACT-8).
    ``uno`` is True when the player calls "UNO" with this play (UNO-1): only meaningful, and
    only allowed, when it is the next-to-last card.
    """

    player: int
    card: Card = attrs.field(converter=_as_card)
    color: Color | None = attrs.field(default=None, converter=_as_color)
    target: int | None = None
    uno: bool = False

    def __repr__(self) -> str:
        text = f"Play(p{self.player} {self.card!r}"
        if self.color is not None:
            text += f":{'RYGB'[self.color]}" if self.color in range(4) else f":{self.color!r}"
        if self.target is not None:
            text += f" ->p{self.target}"
        return text + (" UNO)" if self.uno else ")")


@attrs.frozen(repr=False)
class Draw:
    """Draw one card from the draw pile instead of playing (PLAY-4, PLAY-5, PLAY-6)."""

    player: int

    def __repr__(self) -> str:
        return f"Draw(p{self.player})"


@attrs.frozen(repr=False)
class Pass:
    """End the turn without playing: keep the drawn card (PLAY-4), or pass when nothing
    can be drawn and nothing played (PLAY-7)."""

    player: int

    def __repr__(self) -> str:
        return f"Pass(p{self.player})"


@attrs.frozen(repr=False)
class ChooseColor:
    """Name the colour for a wild turned as the first card (SETUP-8, SETUP-9, SETUP-10)."""

    player: int
    color: Color = attrs.field(converter=_as_color)

    def __repr__(self) -> str:
        return f"ChooseColor(p{self.player} {self.color})"


@attrs.frozen(repr=False)
class Challenge:
    """Challenge the Wild Draw Four just played on you (WD4-3)."""

    player: int

    def __repr__(self) -> str:
        return f"Challenge(p{self.player})"


@attrs.frozen(repr=False)
class Accept:
    """Do not challenge: draw the four cards and miss the turn (ACT-5)."""

    player: int

    def __repr__(self) -> str:
        return f"Accept(p{self.player})"


@attrs.frozen(repr=False)
class CallUno:
    """Call "UNO" late, after playing the next-to-last card without calling (UNO-4)."""

    player: int

    def __repr__(self) -> str:
        return f"CallUno(p{self.player})"


@attrs.frozen(repr=False)
class CatchUno:
    """Catch ``target``, who played the next-to-last card without calling (UNO-2, UNO-6)."""

    player: int
    target: int

    def __repr__(self) -> str:
        return f"CatchUno(p{self.player} catches p{self.target})"


@attrs.frozen(repr=False)
class NextRound:
    """Deal the next round of a match (SCORE-2, SETUP-11); made by the next dealer."""

    player: int

    def __repr__(self) -> str:
        return f"NextRound(p{self.player})"


Move = Play | Draw | Pass | ChooseColor | Challenge | Accept | CallUno | CatchUno | NextRound
MOVE_TYPES: Final = (Play, Draw, Pass, ChooseColor, Challenge, Accept, CallUno, CatchUno, NextRound)

# --- interned instances -----------------------------------------------------------------
_PLAYERS = range(MAX_PLAYERS)
# _PLAIN[player][code][uno]: a play with no colour and no target.
_PLAIN: Final = tuple(
    tuple((Play(p, CARDS[c]), Play(p, CARDS[c], uno=True)) for c in range(NUM_CARD_CODES))
    for p in _PLAYERS
)
# _COLORED[player][code][color][uno]: a wild play naming a colour, no target.
_COLORED: Final = tuple(
    tuple(
        tuple((Play(p, CARDS[c], k), Play(p, CARDS[c], k, uno=True)) for k in COLORS)
        if IS_WILD[c]
        else ()
        for c in range(NUM_CARD_CODES)
    )
    for p in _PLAYERS
)
_TARGETED: dict[tuple[int, int, int, int, bool], Play] = {}

DRAW: Final = tuple(Draw(p) for p in _PLAYERS)
PASS: Final = tuple(Pass(p) for p in _PLAYERS)
CHALLENGE: Final = tuple(Challenge(p) for p in _PLAYERS)
ACCEPT: Final = tuple(Accept(p) for p in _PLAYERS)
CALL_UNO: Final = tuple(CallUno(p) for p in _PLAYERS)
NEXT_ROUND: Final = tuple(NextRound(p) for p in _PLAYERS)
CATCH_UNO: Final = tuple(tuple(CatchUno(p, t) for t in _PLAYERS) for p in _PLAYERS)
CHOOSE_COLOR: Final = tuple(tuple(ChooseColor(p, k) for k in COLORS) for p in _PLAYERS)


# PLAYS_OF[player][code][with_uno]: every untargeted Play of a card, in listing order: the
# coloured card, or the wild naming each colour; each followed by its UNO-calling twin when
# ``with_uno`` (the card is the next-to-last, UNO-1).
PLAYS_OF: Final = tuple(
    tuple(
        (
            tuple(_COLORED[p][c][k][0] for k in range(4)) if IS_WILD[c] else (_PLAIN[p][c][0],),
            tuple(m for k in range(4) for m in _COLORED[p][c][k]) if IS_WILD[c] else _PLAIN[p][c],
        )
        for c in range(NUM_CARD_CODES)
    )
    for p in _PLAYERS
)


def untargeted_play(player: int, code: int, color: int, uno: bool) -> Play:
    """The interned Play of a card that names no player; ``color`` -1 for a coloured card."""
    return _COLORED[player][code][color][uno] if color >= 0 else _PLAIN[player][code][uno]


def targeted_play(player: int, code: int, color: int, target: int, uno: bool) -> Play:
    """The interned Play of a card aimed at ``target`` (Swap Hands, custom effects, a 7 under
    seven-zero); ``color`` -1 for a coloured card, which names none."""
    key = (player, code, color, target, uno)
    move = _TARGETED.get(key)
    if move is None:
        move = _TARGETED[key] = Play(player, CARDS[code], COLORS[color] if color >= 0 else None, target, uno)
    return move
