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
from .errors import ProfileError, shown
from .limits import (
    MAX_CARD_POINTS,
    MAX_COPIES,
    MAX_DECK_CARDS,
    MAX_HAND_SIZE,
    MAX_NAME_CHARS,
    MAX_PLAYERS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TEXT_CHARS,
)
from .shuffling import DEFAULT_SHUFFLE, LEGACY_SHUFFLE, SHUFFLES

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


def text(most: int, *, empty: bool = True) -> Check:
    """A check that the value is a string of at most ``most`` characters (and not empty, unless
    ``empty``): the names and texts of a profile, bounded by engine/limits.py."""

    def check(value: Any) -> str | None:
        if not isinstance(value, str) or not (empty or value):
            return f"must be a {'' if empty else 'non-empty '}string, got {shown(value)}"
        if len(value) > most:
            return f"is {len(value):,} characters long; at most {most:,} are taken"
        return None

    return check


def counts(most: int) -> Check:
    """A check of a table by card code: a tuple of NUM_CARD_CODES integers from 0 to ``most``."""

    def check(value: Any) -> str | None:
        if (not isinstance(value, tuple) or len(value) != NUM_CARD_CODES
                or any(type(v) is not int or not 0 <= v <= most for v in value)):
            return f"must be a tuple of {NUM_CARD_CODES} integers from 0 to {most:,} (one per card code)"
        return None

    return check


def _deck(value: Any) -> str | None:
    """DECK-5: any composition, up to MAX_COPIES of a card and MAX_DECK_CARDS in all."""
    problem = counts(MAX_COPIES)(value)
    if problem is None and sum(value) > MAX_DECK_CARDS:
        return f"holds {sum(value):,} cards; a deck holds at most {MAX_DECK_CARDS:,}"
    return problem


def _names(value: Any) -> str | None:
    if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
        return "must be a tuple of strings"
    if len(value) > MAX_TAGS:
        return f"holds {len(value):,} entries; at most {MAX_TAGS} are taken"
    long = next((v for v in value if len(v) > MAX_TAG_CHARS), None)
    if long is not None:
        return f"holds {shown(long)}; an entry has at most {MAX_TAG_CHARS} characters"
    return None


FIELD_CHECKS: Final[dict[str, Check]] = {
    "name": text(MAX_NAME_CHARS, empty=False),
    "deck_counts": _deck,
    "points": counts(MAX_CARD_POINTS),
    "version": int_range(1, 1_000_000),
    "description": text(MAX_TEXT_CHARS),
    "sources": _names,
    "hand_size": int_range(1, MAX_HAND_SIZE),
    "min_players": int_range(2, MAX_PLAYERS),
    "max_players": int_range(2, MAX_PLAYERS),
    "first_card_wild_draw_four": choice(FIRST_CARD_WILD_DRAW_FOUR),
    "next_dealer": choice(NEXT_DEALER),
    "decline_to_play": boolean,
    "two_player_reverse": choice(TWO_PLAYER_REVERSE),
    "blank_cards": choice(BLANK_CARDS),
    "custom_effect": text(MAX_NAME_CHARS),
    "seven_zero": boolean,
    "draw_until_playable": boolean,
    "stacking": choice(STACKING),
    "jump_in": boolean,
    "wild_draw_four": choice(WILD_DRAW_FOUR_MODES),
    "uno_penalty": int_range(0, 20),
    "scoring": choice(SCORING_MODES),
    "target_score": int_range(1, 1_000_000),
    "shuffle": choice(SHUFFLES),
}
"""The value check of every Profile field: used when loading TOML and on every construction
(the limits are those of engine/limits.py)."""

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
    shuffle: str = DEFAULT_SHUFFLE
    """SETUP-1: the algorithm of every shuffle of the game (engine/shuffling.py, docs/shuffle.md)."""

    def __attrs_post_init__(self) -> None:
        """Refuse a profile with any bad field, however it was built (TOML, code, attrs.evolve),
        and one whose deck cannot deal every hand: no game could be started from it."""
        problems = [
            (field, problem)
            for field, check in FIELD_CHECKS.items()
            if (problem := check(getattr(self, field))) is not None
        ]
        if not problems:
            problems = self._table_problems()
        if problems:
            raise ProfileError.from_problems(f"profile {shown(self.name)}", problems)

    def _table_problems(self) -> list[tuple[str, str]]:
        """SETUP-1: the players the profile is for, and a deck that deals each a hand and turns a
        first card (SETUP-3) at the largest table; checked once every field is itself valid."""
        if self.min_players > self.max_players:
            return [("min_players", "is greater than max_players")]
        need = self.hand_size * self.max_players + 1
        if self.deck_size < need:
            return [("deck_counts", f"{self.deck_size} cards in play cannot deal {self.hand_size} to "
                                    f"{self.max_players} players and turn a first card (needs {need})")]
        return []

    @property
    def fingerprint(self) -> str:
        """A stable hash of every field that changes play (not name, description, sources or
        version): two profiles with the same fingerprint play identical games. A saved game
        records it. ``shuffle`` counts unless it is the legacy ``"mt19937"``: a profile saved
        before shuffles were named (and read as ``"mt19937"``) keeps the fingerprint it was saved
        with, and any other shuffle, the default included, gives another fingerprint, as it
        deals other cards. Left out for the legacy one, not the default, so that a fingerprint
        never changes meaning when the default does."""
        rules = {f.name: getattr(self, f.name) for f in attrs.fields(Profile) if f.name not in _COSMETIC}
        if self.shuffle == LEGACY_SHUFFLE:
            del rules["shuffle"]
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

