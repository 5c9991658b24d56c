"""A rule profile: every table-dependent choice as data (DECK-5, HOUSE-8).

Profiles are normally loaded from TOML with :func:`unoengine.load_profile`; the engine reads
only this resolved object, so a rule that differs between tables is one field here, never a
branch on a profile's name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Final, Literal

import attrs

from .cards import BLANK, NUM_CARD_CODES
from .errors import ProfileError

WildDrawFourMode = Literal["challenge", "enforced", "unrestricted"]
FirstCardWildDrawFour = Literal["redraw", "apply"]
NextDealer = Literal["left", "winner"]
TwoPlayerReverse = Literal["reverse", "skip"]
BlankCards = Literal["set-aside", "wild"]
ScoringMode = Literal["winner-takes-others", "own-hand-lowest-wins", "one-point-per-round"]
Stacking = Literal["off", "same-kind", "cross", "equal-or-higher"]

WILD_DRAW_FOUR_MODES: Final = ("challenge", "enforced", "unrestricted")
FIRST_CARD_WILD_DRAW_FOUR: Final = ("redraw", "apply")
NEXT_DEALER: Final = ("left", "winner")
TWO_PLAYER_REVERSE: Final = ("reverse", "skip")
BLANK_CARDS: Final = ("set-aside", "wild")
SCORING_MODES: Final = ("winner-takes-others", "own-hand-lowest-wins", "one-point-per-round")
STACKING: Final = ("off", "same-kind", "cross", "equal-or-higher")

Check = Callable[[Any], "str | None"]


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, safe for hostile values (a huge int, deep nesting)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a value too large to show ({type(value).__name__})"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def choice(options: tuple[str, ...]) -> Check:
    """A check that the value is one of ``options``."""

    def check(value: Any) -> str | None:
        if not isinstance(value, str) or value not in options:
            return f"must be one of {', '.join(repr(o) for o in options)}, got {shown(value)}"
        return None

    return check


def int_range(lo: int, hi: int) -> Check:
    """A check that the value is an integer (not a bool) from ``lo`` to ``hi``."""

    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            return f"must be an integer from {lo} to {hi}, got {shown(value)}"
        return None

    return check


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be true or false, got {shown(value)}"


def text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"must be a string, got {shown(value)}"


def _counts(value: Any) -> str | None:
    if (not isinstance(value, tuple) or len(value) != NUM_CARD_CODES
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
        return f"must be a tuple of {NUM_CARD_CODES} non-negative integers (one per card code)"
    return None


def _names(value: Any) -> str | None:
    if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
        return "must be a tuple of strings"
    return None


FIELD_CHECKS: Final[dict[str, Check]] = {
    "name": text,
    "deck_counts": _counts,
    "points": _counts,
    "version": int_range(1, 1_000_000),
    "description": text,
    "sources": _names,
    "hand_size": int_range(1, 50),
    "min_players": int_range(2, 10),
    "max_players": int_range(2, 10),
    "first_card_wild_draw_four": choice(FIRST_CARD_WILD_DRAW_FOUR),
    "next_dealer": choice(NEXT_DEALER),
    "decline_to_play": boolean,
    "two_player_reverse": choice(TWO_PLAYER_REVERSE),
    "blank_cards": choice(BLANK_CARDS),
    "custom_effect": text,
    "seven_zero": boolean,
    "draw_until_playable": boolean,
    "stacking": choice(STACKING),
    "jump_in": boolean,
    "wild_draw_four": choice(WILD_DRAW_FOUR_MODES),
    "uno_penalty": int_range(0, 20),
    "scoring": choice(SCORING_MODES),
    "target_score": int_range(1, 1_000_000),
}
"""The value check of every Profile field: used when loading TOML and on every construction."""

_COSMETIC: Final = frozenset({"name", "description", "sources", "version"})


@attrs.frozen
class Profile:
    """A fully resolved rule profile. See docs/profiles.md for every option."""

    name: str
    deck_counts: tuple[int, ...]
    """How many copies of each card code (index = code) the box holds (DECK-1..5)."""
    points: tuple[int, ...]
    """Points of each card code left in a hand (SCORE-1)."""
    version: int = 1
    description: str = ""
    sources: tuple[str, ...] = ()
    hand_size: int = 7
    min_players: int = 2
    max_players: int = 10
    first_card_wild_draw_four: FirstCardWildDrawFour = "redraw"
    next_dealer: NextDealer = "left"
    decline_to_play: bool = True
    two_player_reverse: TwoPlayerReverse = "reverse"
    blank_cards: BlankCards = "set-aside"
    custom_effect: str = "wild"
    seven_zero: bool = False
    """HOUSE-3: a 7 swaps hands with a chosen player, a 0 passes every hand on."""
    draw_until_playable: bool = False
    """HOUSE-4: a player who draws keeps drawing until a card can be played."""
    stacking: Stacking = "off"
    """HOUSE-1: which Draw card may answer which, passing on the accumulated total."""
    jump_in: bool = False
    """HOUSE-2: a card identical to the top card may be played out of turn."""
    wild_draw_four: WildDrawFourMode = "challenge"
    uno_penalty: int = 2
    scoring: ScoringMode = "winner-takes-others"
    target_score: int = 500

    def __attrs_post_init__(self) -> None:
        """Refuse a profile with any bad field, however it was built (TOML, code, attrs.evolve)."""
        problems = [
            (field, problem)
            for field, check in FIELD_CHECKS.items()
            if (problem := check(getattr(self, field))) is not None
        ]
        if not problems and self.min_players > self.max_players:
            problems.append(("min_players", "is greater than max_players"))
        if not problems and sum(self.play_deck) == 0:
            problems.append(("deck_counts", "the deck has no cards in play"))
        if problems:
            raise ProfileError.from_problems(f"profile {self.name!r}", problems)

    @property
    def fingerprint(self) -> str:
        """A stable hash of every field that changes play (not name, description, sources or
        version): two profiles with the same fingerprint play identical games. A saved game
        records it."""
        rules = {f.name: getattr(self, f.name) for f in attrs.fields(Profile) if f.name not in _COSMETIC}
        text = json.dumps(rules, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @property
    def play_deck(self) -> tuple[int, ...]:
        """Card counts actually shuffled and dealt: blanks set aside when the profile says so (DECK-4)."""
        if self.blank_cards == "set-aside" and self.deck_counts[BLANK]:
            counts = list(self.deck_counts)
            counts[BLANK] = 0
            return tuple(counts)
        return self.deck_counts

    @property
    def deck_size(self) -> int:
        """Number of cards in play (after any set aside)."""
        return sum(self.play_deck)

    def deck_cards(self) -> list[int]:
        """The cards in play as a list of codes in canonical (sorted) order."""
        out: list[int] = []
        for code, n in enumerate(self.play_deck):
            out.extend([code] * n)
        return out

