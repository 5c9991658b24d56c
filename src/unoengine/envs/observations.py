"""One observation encoding for every framework: a player's view as a flat vector.

Built from a :class:`~unoengine.engine.view.PlayerView` alone, so it cannot hold anything the
player may not know. Seats are relative to the viewer (the viewer first, then the next seat
clockwise), card kinds are the kinds in the profile's deck in card-code order. The layout
(docs/rl.md has the table) is fixed for a profile and player count: :attr:`ObservationEncoding.layout`
lists each segment's name, offset, length and meaning.

The vector is numpy ``float32`` (numpy comes with the framework extras); its entries are counts,
one-hot flags and small integers, all at least 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs

from ..engine.cards import CARDS, DRAW_FOUR_COUNT, DRAW_TWO, DRAW_TWO_COUNT, IS_WILD, SYMBOL_OF, WILD_DRAW_FOUR
from ..engine.moves import MAX_PLAYERS
from ..engine.profile import Profile
from ..engine.scoring import hand_points
from ..engine.state import Phase
from ..engine.view import PlayerView
from .actions import ActionError
from .extras import require

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_np: Any = require("numpy", "rl")

PHASES: Final = len(Phase)


@attrs.frozen
class Segment:
    """One part of the observation vector."""

    name: str
    offset: int
    length: int
    meaning: str


class ObservationEncoding:
    """The observation layout of one profile and player count (``size`` entries)."""

    def __init__(self, profile: Profile, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
            raise ActionError(f"num_players: expected 2..{MAX_PLAYERS}, got {num_players!r}")
        self.profile = profile
        self.num_players = n = num_players
        self.kinds: tuple[int, ...] = tuple(code for code, k in enumerate(profile.play_deck) if k)
        k = len(self.kinds)
        parts = [
            ("hand", k, "own hand: copies of each card kind"),
            ("top_card", k, "the top card of the discard pile (one-hot)"),
            ("color", 4, "the colour in play, red/yellow/green/blue (one-hot; none before a first wild's colour)"),
            ("drawn_card", k, "the card just drawn, which only it may now be played (PLAY-5; one-hot)"),
            ("discard", k, "cards on the discard pile, every one seen played: copies of each kind"),
            ("known", (n - 1) * k, "cards known to be in each other hand, seats +1..+(n-1): copies of each kind"),
            ("hand_sizes", n, "cards in each hand, own first, then seats +1..+(n-1)"),
            ("current", n, "the player to act, by relative seat (one-hot)"),
            ("phase", PHASES, "the phase: play, drawn, challenge, choose-color, penalty, round-over, match-over"),
            ("direction", 1, "1 while play goes clockwise (to seat +1), 0 counter-clockwise"),
            ("pending_draw", 1, "cards the player to act draws on Accept (a Wild Draw Four, a stack)"),
            ("draw_pile", 1, "cards left in the draw pile"),
            ("uno_exposed", n, "the player who may be caught for not calling UNO, by relative seat (one-hot)"),
            ("challenge_attacker", n, "who played the Wild Draw Four awaiting a challenge, by relative seat"),
            ("challenge_color", 4, "the colour in play when that Wild Draw Four was played (one-hot)"),
            ("passes", 1, "consecutive passes with nothing to draw (a full round blocks it, PLAY-7)"),
            ("dealer", n, "the dealer of the round, by relative seat (one-hot)"),
            ("scores", n, "match scores, own first"),
        ]
        segments, offset = [], 0
        for name, length, meaning in parts:
            segments.append(Segment(name, offset, length, meaning))
            offset += length
        self.layout: tuple[Segment, ...] = tuple(segments)
        self.size = offset
        self._at = {s.name: s.offset for s in segments}
        kinds_of = [-1] * (max(self.kinds) + 1)
        for j, code in enumerate(self.kinds):
            kinds_of[code] = j
        self._kinds_of: tuple[int, ...] = tuple(kinds_of)
        self._k = k
        self._last_discard: tuple[tuple[int, ...], Any] = ((), _np.zeros(k, dtype=_np.float32))

    def __repr__(self) -> str:
        return f"ObservationEncoding({self.profile.name!r}, {self.num_players} players, {self.size} entries)"

    def segment(self, name: str) -> Segment:
        return next(s for s in self.layout if s.name == name)

    def encode(self, v: PlayerView) -> npt.NDArray[np.float32]:
        """The observation of the view's player (a new float32 vector of ``size`` entries).

        Only the entries that are not 0 are written, one by one (a view has a few dozen); the
        discard pile's counts are carried over from the previous call when the pile only grew by
        a card, as it does from one step to the next, so no step loops over the whole pile."""
        n, at, kind_of = self.num_players, self._at, self._kinds_of
        if v.num_players != n or (v.profile is not self.profile and v.profile != self.profile):
            raise ActionError(f"view: of another game than {self!r}")
        me = v.player
        out = _np.zeros(self.size, dtype=_np.float32)

        def counts(offset: int, cards: tuple[int, ...]) -> None:
            seen: dict[int, int] = {}
            for c in cards:
                j = offset + kind_of[c]
                seen[j] = seen.get(j, 0) + 1
            for j, copies in seen.items():
                out[j] = copies

        counts(at["hand"], v.hand)
        pile = v.discard_pile
        out[at["top_card"] + kind_of[pile[-1]]] = 1
        if v.color is not None:
            out[at["color"] + v.color] = 1
        if v.drawn_card is not None:
            out[at["drawn_card"] + kind_of[v.drawn_card]] = 1
        discard = at["discard"]
        out[discard:discard + self._k] = self._discard_counts(pile)
        for owner, cards in v.known:
            counts(at["known"] + ((owner - me) % n - 1) * self._k, cards)
        sizes, scores, first, score = v.hand_sizes, v.scores, at["hand_sizes"], at["scores"]
        for r in range(n):
            seat = (me + r) % n
            if sizes[seat]:
                out[first + r] = sizes[seat]
            if scores[seat]:
                out[score + r] = scores[seat]
        out[at["phase"] + v.phase] = 1
        out[at["dealer"] + (v.dealer - me) % n] = 1
        if v.phase < Phase.ROUND_OVER:
            out[at["current"] + (v.current - me) % n] = 1
        if v.direction == 1:
            out[at["direction"]] = 1
        if v.uno_exposed is not None:
            out[at["uno_exposed"] + (v.uno_exposed - me) % n] = 1
        if v.challenge_attacker is not None:
            out[at["challenge_attacker"] + (v.challenge_attacker - me) % n] = 1
        if v.challenge_color is not None:
            out[at["challenge_color"] + v.challenge_color] = 1
        if v.pending_draw:
            out[at["pending_draw"]] = v.pending_draw
        out[at["draw_pile"]] = v.draw_pile_size
        if v.passes:
            out[at["passes"]] = v.passes
        return out  # type: ignore[no-any-return]

    def _discard_counts(self, pile: tuple[int, ...]) -> Any:
        """Copies of each kind on ``pile`` (a float32 array), from the last pile if it grew by one."""
        last, known = self._last_discard
        if pile == last:
            return known
        if len(pile) == len(last) + 1 and pile[:-1] == last:
            counts = known.copy()
            counts[self._kinds_of[pile[-1]]] += 1
        else:
            counts = _np.zeros(self._k, dtype=_np.float32)
            for c in pile:
                counts[self._kinds_of[c]] += 1
        self._last_discard = (pile, counts)
        return counts

    def high(self) -> npt.NDArray[np.float32]:
        """Upper bounds of every entry (for a ``Box`` space): the deck's copies of a kind, the
        deck size, 1 for flags; for the pending draw, every Draw card of the deck stacked
        (HOUSE-1); for scores, the target plus the most one round can score (SCORE-2..4: a
        match ends at the first round that reaches the target)."""
        np_ = _np
        profile = self.profile
        deck = profile.deck_size
        copies = np_.array([profile.play_deck[c] for c in self.kinds], dtype=np_.float32)
        cards = profile.deck_cards()
        stack = sum(profile.play_deck[c] * (DRAW_FOUR_COUNT if c == WILD_DRAW_FOUR else DRAW_TWO_COUNT)
                    for c in set(cards) if c == WILD_DRAW_FOUR or (not IS_WILD[c] and SYMBOL_OF[c] == DRAW_TWO))
        most = profile.target_score + hand_points(profile, tuple(CARDS[c] for c in cards))
        bounds = {"hand": copies, "discard": copies, "known": np_.tile(copies, self.num_players - 1),
                  "hand_sizes": deck, "draw_pile": deck, "passes": self.num_players,
                  "pending_draw": max(stack, DRAW_FOUR_COUNT + 2), "scores": most}
        out = np_.ones(self.size, dtype=np_.float32)
        for s in self.layout:
            if s.name in bounds:
                out[s.offset:s.offset + s.length] = bounds[s.name]
        return out  # type: ignore[no-any-return]
