"""The SETUP-2 dealer draw, drawn from a seed or fixed card by card, and reported in full.

SETUP-2: every player draws a card; the highest number deals; action and wild cards count as
zero. RULING: a tie for the highest re-draws among the tied only. The draw goes in seat order
(seat 0 first, then each tied seat in seat order for a re-draw), so a list of cards fixes it
exactly; :class:`DealerDraw` says who drew what in each draw and who became dealer, so the
dealer rules can be tested card by card (docs/api.md, docs/conformance.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from .cards import CARDS, IS_WILD, SYMBOL_OF, Card
from .errors import PositionError
from .profile import Profile
from .shuffling import Stream

Draw = tuple[tuple[int, Card], ...]
"""One draw: ``(seat, card)`` for each player drawing, in seat order."""


@attrs.frozen
class DealerDraw:
    """How the dealer was chosen (SETUP-2): every draw in order, and the dealer it gave."""

    draws: tuple[Draw, ...]
    """The first draw (every seat), then each re-draw among those tied for the highest."""
    dealer: int
    by_lot: bool = False
    """RULING: no draw can break a tie (a DECK-5 deck whose cards all count the same), so the
    dealer was drawn by lot from the seed and ``draws`` is empty."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card drawn, in order: what ``new_game(..., dealer_draw=...)`` takes to repeat it."""
        return tuple(card for draw in self.draws for _seat, card in draw)


def dealer_value(card: int) -> int:
    """SETUP-2: numbers count their face value, action and wild cards zero."""
    return SYMBOL_OF[card] if not IS_WILD[card] and SYMBOL_OF[card] <= 9 else 0


def _highest(draw: Draw) -> list[int]:
    """The seats of a draw that tie for the highest value (SETUP-2)."""
    best = max(dealer_value(card) for _seat, card in draw)
    return [seat for seat, card in draw if dealer_value(card) == best]


def draw_for_dealer(profile: Profile, num_players: int, seed: int) -> tuple[DealerDraw, int]:
    """SETUP-2 from a seed: draw from a shuffled deck until one player is highest (a re-draw that
    runs past the deck reshuffles it). Returns the draw and the next seed."""
    r = Stream(profile.shuffle, seed)
    cards = profile.deck_cards()
    contenders = list(range(num_players))
    if len({dealer_value(c) for c in cards}) < 2:
        return DealerDraw((), r.choice(contenders), by_lot=True), r.next_seed()
    r.shuffle(cards)
    pos = 0
    draws: list[Draw] = []
    while True:
        if pos + len(contenders) > len(cards):
            r.shuffle(cards)
            pos = 0
        draw = tuple((p, CARDS[cards[pos + i]]) for i, p in enumerate(contenders))
        pos += len(contenders)
        draws.append(draw)
        contenders = _highest(draw)
        if len(contenders) == 1:
            return DealerDraw(tuple(draws), contenders[0]), r.next_seed()


def fixed_dealer_draw(profile: Profile, num_players: int, cards: Sequence[Card]) -> DealerDraw:
    """SETUP-2 from the cards given, in drawing order: one per seat, then one per tied seat for
    each re-draw, ending exactly when one player is highest. The cards are drawn from the deck
    (no more copies of a card than the profile's deck holds); PositionError names ``dealer_draw``."""
    have, deck = Counter(cards), Counter(CARDS[c] for c in profile.deck_cards())
    extra = have - deck
    if extra:
        text = ", ".join(f"{c!r} x{k}" for c, k in sorted(extra.items()))
        raise PositionError(f"dealer_draw: more copies than the deck of profile {profile.name!r} holds: {text}")
    contenders = list(range(num_players))
    draws: list[Draw] = []
    pos = 0
    while len(contenders) > 1:
        if pos + len(contenders) > len(cards):
            seats = ", ".join(f"p{p}" for p in contenders)
            what = "the first draw" if not draws else f"re-draw {len(draws)}"
            raise PositionError(
                f"dealer_draw: {len(cards)} cards do not choose a dealer: {what} needs a card each for "
                f"{seats} (SETUP-2: ties among the highest re-draw)"
            )
        draw = tuple((p, cards[pos + i]) for i, p in enumerate(contenders))
        pos += len(contenders)
        draws.append(draw)
        contenders = _highest(draw)
    if pos < len(cards):
        raise PositionError(
            f"dealer_draw: p{contenders[0]} deals after {pos} cards (SETUP-2), but {len(cards)} were given"
        )
    return DealerDraw(tuple(draws), contenders[0])
