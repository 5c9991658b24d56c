"""Cards as small integers with lookup tables (DECK-1..5).

A card is a :class:`Card`, an ``int`` subclass whose value is a code from 0 to 57, so
hands are plain tuples of ints, matching is a table lookup and identical cards compare
equal. Coloured cards are ``colour * 13 + symbol``; the wild kinds follow at 52..57.
Every card has a short name used in reprs and by :func:`parse_card`: ``R7``, ``GS``
(skip), ``BR`` (reverse), ``Y+2``, ``W``, ``W+4``, ``WSH`` (shuffle hands), ``WSW``
(swap hands), ``WCU`` (customizable), ``BLK`` (blank).
"""

from __future__ import annotations

import enum
from typing import Final

from .errors import NotationError, quoted, shown
from .limits import MAX_CARD_TEXT, MAX_CARDS_TEXT


class Color(enum.IntEnum):
    """The four colours, in the order RULES.md lists them (DECK-1)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


COLORS: Final = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
COLOR_LETTERS: Final = "RYGB"

# Symbols of coloured cards: 0..9 are numbers.
SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
SYMBOLS_PER_COLOR: Final = 13

# Codes of the wild kinds.
WILD: Final = 52
WILD_DRAW_FOUR: Final = 53
WILD_SHUFFLE_HANDS: Final = 54
WILD_SWAP_HANDS: Final = 55
WILD_CUSTOMIZABLE: Final = 56
BLANK: Final = 57
NUM_CARD_CODES: Final = 58

DRAW_TWO_COUNT: Final = 2
"""ACT-3: the cards a Draw Two makes the next player draw."""
DRAW_FOUR_COUNT: Final = 4
"""ACT-5, WD4-4: the cards a Wild Draw Four makes the next player (or a guilty bluffer) draw."""

SYMBOL_NAMES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
WILD_NAMES: Final = {
    WILD: "W",
    WILD_DRAW_FOUR: "W+4",
    WILD_SHUFFLE_HANDS: "WSH",
    WILD_SWAP_HANDS: "WSW",
    WILD_CUSTOMIZABLE: "WCU",
    BLANK: "BLK",
}

# Profile keys for symbols and wild kinds (used in the deck and scoring tables).
SYMBOL_KEYS: Final = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw_two",
)
WILD_KEYS: Final = {
    "wild": WILD,
    "wild_draw_four": WILD_DRAW_FOUR,
    "wild_shuffle_hands": WILD_SHUFFLE_HANDS,
    "wild_swap_hands": WILD_SWAP_HANDS,
    "wild_customizable": WILD_CUSTOMIZABLE,
    "blank": BLANK,
}


def _name(code: int) -> str:
    if code >= WILD:
        return WILD_NAMES[code]
    color, symbol = divmod(code, SYMBOLS_PER_COLOR)
    return COLOR_LETTERS[color] + SYMBOL_NAMES[symbol]


class Card(int):
    """One card face. Compares, hashes and indexes as its integer code."""

    __slots__ = ()

    def __repr__(self) -> str:
        return _name(self)

    __str__ = __repr__

    @property
    def color(self) -> Color | None:
        """The printed colour, or None for a wild or blank."""
        c = COLOR_OF[self]
        return None if c < 0 else COLORS[c]

    @property
    def symbol(self) -> int:
        """0..9 for numbers, SKIP, REVERSE or DRAW_TWO; the card's own code for wilds."""
        return SYMBOL_OF[self]

    @property
    def is_wild(self) -> bool:
        return IS_WILD[self]


CARDS: Final[tuple[Card, ...]] = tuple(Card(code) for code in range(NUM_CARD_CODES))
"""The interned Card object of every code; use ``CARDS[code]``."""

COLOR_OF: Final[tuple[int, ...]] = tuple(
    code // SYMBOLS_PER_COLOR if code < WILD else -1 for code in range(NUM_CARD_CODES)
)
SYMBOL_OF: Final[tuple[int, ...]] = tuple(
    code % SYMBOLS_PER_COLOR if code < WILD else code for code in range(NUM_CARD_CODES)
)
IS_WILD: Final[tuple[bool, ...]] = tuple(code >= WILD for code in range(NUM_CARD_CODES))

_BY_NAME: Final = {_name(code): CARDS[code] for code in range(NUM_CARD_CODES)}


def _is_int(value: object) -> bool:
    return type(value) is int or type(value) is Card or type(value) is Color


def card(code: int) -> Card:
    """The card with this code (0..57)."""
    if not _is_int(code) or not 0 <= code < NUM_CARD_CODES:
        raise NotationError(f"card code {shown(code)} is not an integer from 0 to {NUM_CARD_CODES - 1}")
    return CARDS[code]


def colored(color: int, symbol: int) -> Card:
    """The coloured card of this colour and symbol (0..9, SKIP, REVERSE, DRAW_TWO)."""
    if not (_is_int(color) and _is_int(symbol) and 0 <= color < 4 and 0 <= symbol < SYMBOLS_PER_COLOR):
        raise NotationError(f"no coloured card with colour {shown(color)} and symbol {shown(symbol)}")
    return CARDS[color * SYMBOLS_PER_COLOR + symbol]


def _short_text(text: object) -> str:
    """The text of a card or colour name, upper-cased; "" for anything that cannot be one (a name
    has a few ASCII characters: a longer text is not even looked at, MAX_CARD_TEXT)."""
    if not isinstance(text, str) or len(text) > MAX_CARD_TEXT or not text.isascii():
        return ""
    return text.strip().upper()


def parse_card(text: str) -> Card:
    """Parse a card name such as ``R7``, ``GS``, ``Y+2``, ``W+4`` (case-insensitive)."""
    found = _BY_NAME.get(_short_text(text))
    if found is None:
        raise NotationError(f"unknown card {shown(text)}; expected e.g. R7, GS, BR, Y+2, W, W+4, WSH")
    return found


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a whitespace- or comma-separated list of card names (at most MAX_CARDS_TEXT characters)."""
    if not isinstance(text, str):
        raise NotationError(f"a list of cards is written as text such as 'R7 G5 W', got {shown(text)}")
    if len(text) > MAX_CARDS_TEXT:
        raise NotationError(f"a list of cards of {len(text):,} characters is longer than the "
                            f"{MAX_CARDS_TEXT:,} any deck needs: {quoted(text)}")
    return tuple(parse_card(t) for t in text.replace(",", " ").split())


def parse_color(text: str) -> Color:
    """Parse ``R``/``red`` (any case) into a Color."""
    t = _short_text(text)
    for c in COLORS:
        if t in (c.name, COLOR_LETTERS[c]):
            return c
    raise NotationError(f"unknown colour {shown(text)}; expected red, yellow, green, blue or R/Y/G/B")
