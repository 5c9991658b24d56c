"""A rule profile: every table-dependent choice as data (DECK-5, HOUSE-8).

Profiles are normally loaded from TOML with :func:`unoengine.load_profile`; the engine reads
only this resolved object, so a rule that differs between tables is one field here, never a
branch on a profile's name.
"""

from __future__ import annotations

from typing import Final, Literal

import attrs

from .cards import BLANK

WildDrawFourMode = Literal["challenge", "enforced", "unrestricted"]
FirstCardWildDrawFour = Literal["redraw", "apply"]
NextDealer = Literal["left", "winner"]
TwoPlayerReverse = Literal["reverse", "skip"]
BlankCards = Literal["set-aside", "wild"]
ScoringMode = Literal["winner-takes-others", "own-hand-lowest-wins", "one-point-per-round"]

WILD_DRAW_FOUR_MODES: Final = ("challenge", "enforced", "unrestricted")
FIRST_CARD_WILD_DRAW_FOUR: Final = ("redraw", "apply")
NEXT_DEALER: Final = ("left", "winner")
TWO_PLAYER_REVERSE: Final = ("reverse", "skip")
BLANK_CARDS: Final = ("set-aside", "wild")
SCORING_MODES: Final = ("winner-takes-others", "own-hand-lowest-wins", "one-point-per-round")


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
    wild_draw_four: WildDrawFourMode = "challenge"
    uno_penalty: int = 2
    scoring: ScoringMode = "winner-takes-others"
    target_score: int = 500

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

