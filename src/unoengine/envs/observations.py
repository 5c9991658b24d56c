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

from array import array
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..engine.cards import CARDS, DRAW_FOUR_COUNT, DRAW_TWO, DRAW_TWO_COUNT, IS_WILD, SYMBOL_OF, WILD_DRAW_FOUR
from ..engine.knowledge import known_by
from ..engine.moves import MAX_PLAYERS
from ..engine.profile import Profile
from ..engine.scoring import hand_points
from ..engine.state import DiscardNode, GameState, Known, Phase, discard_cards
from ..engine.view import PlayerView
from .actions import ActionError
from .extras import require

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_np: Any = require("numpy", "rl")

PHASES: Final = len(Phase)
_ROUND_OVER: Final = int(Phase.ROUND_OVER)
_F32: Any = _np.dtype(_np.float32)


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
        self._blank = array("f", bytes(4 * offset))
        # Where each entry goes, as plain ints for _write: each segment's offset after the hand,
        # in layout order, and each card code's entry in the hand segment.
        self._offsets = tuple(s.offset for s in segments[1:])
        self._in_hand: tuple[int, ...] = tuple(self._at["hand"] + j if j >= 0 else -1 for j in kinds_of)
        # The discard pile's counts of encode's last view, by its tuple of cards (encode_own
        # carries its own, by the state's linked-list node: _own_encoder).
        self._pile: tuple[tuple[int, ...], array[float]] = ((), array("f", bytes(4 * k)))
        # Seats relative to each viewer: rel[me][p] = (p - me) % n, and order[me] = me, me+1, ...
        self._rel = tuple(tuple((p - me) % n for p in range(n)) for me in range(n))
        self._order = tuple(tuple((me + j) % n for j in range(n)) for me in range(n))
        # Card counts as floats (an array('f') takes a float faster than an int): 0..deck size.
        self._floats: tuple[float, ...] = tuple(float(i) for i in range(profile.deck_size + 1))
        self.encode_own: Callable[[GameState, int], npt.NDArray[np.float32]] = _own_encoder(self)
        """:meth:`encode_state` without its checks, for an environment encoding its own game's
        state for one of its seats (``player`` a plain int, the state of this profile and size).
        A function made for this layout (see :func:`_own_encoder`)."""

    def __repr__(self) -> str:
        return f"ObservationEncoding({self.profile.name!r}, {self.num_players} players, {self.size} entries)"

    def segment(self, name: str) -> Segment:
        return next(s for s in self.layout if s.name == name)

    def encode(self, v: PlayerView) -> npt.NDArray[np.float32]:
        """The observation of the view's player (a new float32 vector of ``size`` entries)."""
        if v.num_players != self.num_players or (v.profile is not self.profile and v.profile != self.profile):
            raise ActionError(f"view: of another game than {self!r}")
        attacker, color = v.challenge_attacker, v.challenge_color
        pending = (attacker, int(color)) if attacker is not None and color is not None else None
        return self._write(
            v.player, v.hand, v.hand_sizes, self._pile_counts(v.discard_pile), v.discard_pile[-1],
            -1 if v.color is None else v.color, v.drawn_card, v.known, v.current, v.phase, v.direction,
            v.pending_draw, v.draw_pile_size, -1 if v.uno_exposed is None else v.uno_exposed, pending,
            v.passes, v.dealer, v.scores,
        )

    def encode_state(self, state: GameState, player: int) -> npt.NDArray[np.float32]:
        """``encode(view(state, player))``, without building the view: the environments' fast path.

        It reads exactly the fields :func:`~unoengine.engine.view.view` copies into a view (the
        player's own hand and drawn card, what the player knows, the public facts), and the
        property tests hold it to ``encode(view(...))`` byte for byte on random states of every
        shipped profile and overlay, so it can show nothing the view does not."""
        n = self.num_players
        if len(state.hands) != n or (state.profile is not self.profile and state.profile != self.profile):
            raise ActionError(f"state: of another game than {self!r}")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ActionError(f"player: expected a seat 0..{n - 1}, got {player!r}")
        return self.encode_own(state, player)

    def _known_segment(self, known: Known, player: int) -> array[float]:
        """The ``known`` segment of ``player``'s observation: copies of each kind known in each
        other hand, seats +1..+(n-1)."""
        k, kind_of, rel = self._k, self._kinds_of, self._rel[player]
        segment = array("f", bytes(4 * k * (self.num_players - 1)))
        for owner, cards in known_by(known, player):
            first = (rel[owner] - 1) * k
            for c in cards:
                segment[first + kind_of[c]] += 1.0
        return segment

    def _write(
        self, me: int, hand: Sequence[int], sizes: Sequence[int], pile: array[float], top: int, color: int,
        drawn: int | None, known: Sequence[tuple[int, Sequence[int]]], current: int, phase: int,
        direction: int, pending_draw: int, draw_pile: int, exposed: int, challenge: tuple[int, int] | None,
        passes: int, dealer: int, scores: Sequence[int],
    ) -> npt.NDArray[np.float32]:
        """The vector from the view's fields (seats absolute, -1 for none): written into a copy
        of a zero template, entry by entry where a view has a few dozen entries that are not 0,
        and the discard pile's counts copied in one slice. (Floats are written: an ``array('f')``
        takes a float several times faster than an int.)"""
        n, k = self.num_players, self._k
        (o_top, o_color, o_drawn, o_discard, o_known, o_sizes, o_current, o_phase, o_direction,
         o_pending, o_draw_pile, o_exposed, o_attacker, o_challenge_color, o_passes, o_dealer,
         o_scores) = self._offsets
        in_hand, kind_of = self._in_hand, self._kinds_of
        out = self._blank[:]
        for c in hand:
            out[in_hand[c]] += 1.0
        out[o_top + kind_of[top]] = 1.0
        if color >= 0:
            out[o_color + color] = 1.0
        if drawn is not None:
            out[o_drawn + kind_of[drawn]] = 1.0
        out[o_discard:o_discard + k] = pile
        for owner, cards in known:
            first = o_known + ((owner - me) % n - 1) * k
            for c in cards:
                out[first + kind_of[c]] += 1.0
        out[o_sizes:o_sizes + n] = array("f", [*sizes[me:], *sizes[:me]])
        if any(scores):
            out[o_scores:o_scores + n] = array("f", [*scores[me:], *scores[:me]])
        out[o_phase + phase] = 1.0
        out[o_dealer + (dealer - me) % n] = 1.0
        if phase < _ROUND_OVER:
            out[o_current + (current - me) % n] = 1.0
        if direction == 1:
            out[o_direction] = 1.0
        if exposed >= 0:
            out[o_exposed + (exposed - me) % n] = 1.0
        if challenge is not None:
            out[o_attacker + (challenge[0] - me) % n] = 1.0
            out[o_challenge_color + challenge[1]] = 1.0
        if pending_draw:
            out[o_pending] = float(pending_draw)
        out[o_draw_pile] = float(draw_pile)
        if passes:
            out[o_passes] = float(passes)
        return _np.frombuffer(out, _F32)  # type: ignore[no-any-return]

    def _pile_counts(self, pile: tuple[int, ...]) -> array[float]:
        """Copies of each kind on ``pile`` (bottom first), from the last pile if it grew by one card."""
        last, counts = self._pile
        if pile == last:
            return counts
        if len(pile) == len(last) + 1 and pile[:-1] == last:
            counts = counts[:]
            counts[self._kinds_of[pile[-1]]] += 1
        else:
            counts = self._count(pile)
        self._pile = (pile, counts)
        return counts

    def _count(self, cards: Sequence[int]) -> array[float]:
        counts = array("f", bytes(4 * self._k))
        for c in cards:
            counts[self._kinds_of[c]] += 1
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


def _own_encoder(enc: ObservationEncoding) -> Callable[[GameState, int], npt.NDArray[np.float32]]:
    """``encode_own`` for ``enc``'s layout: the step loop's observation, written as one function
    with no calls on the common path and every offset and table a closure constant (one bytecode
    to read, where an attribute of the encoding takes two and the offsets' unpacking twenty).

    The discard pile's counts are carried from the last call (the same pile, or one card more),
    and each seat's known segment is kept while what it knows is the same tuple. The property
    tests hold its output to ``encode(view(...))`` byte for byte."""
    k, kind_of, floats = enc._k, enc._kinds_of, enc._floats
    (o_top, o_color, o_drawn, o_discard, o_known, o_sizes_at, o_current, o_phase, o_direction,
     o_pending, o_draw_pile, o_exposed, o_attacker, o_challenge_color, o_passes, o_dealer,
     o_scores_at) = enc._offsets
    blank, in_hand, rels, orders = enc._blank, enc._in_hand, enc._rel, enc._order
    count, known_segment = enc._count, enc._known_segment
    drawn_phase, frombuffer = Phase.DRAWN, _np.frombuffer
    last_node: DiscardNode | None = None
    node_pile = array("f", bytes(4 * k))  # changed in place: no one else holds it
    # What each seat knew at its last call, with its segment.
    known_of: list[tuple[Known, array[float]]] = [((), array("f"))] * enc.num_players

    def encode_own(state: GameState, player: int) -> npt.NDArray[np.float32]:
        nonlocal last_node, node_pile
        hands = state.hands
        out = blank[:]
        previous = -1
        for c in hands[player]:  # sorted: a second copy follows the first
            if c == previous:
                out[in_hand[c]] += 1.0
            else:
                out[in_hand[c]] = 1.0
                previous = c
        node = state.discard
        if node is not last_node:
            if last_node is not None and node[2] is last_node:
                node_pile[kind_of[node[0]]] += 1.0  # one card more on the pile
            else:
                node_pile = count(discard_cards(node))
            last_node = node
        out[o_discard:o_discard + k] = node_pile
        out[o_top + kind_of[node[0]]] = 1.0
        color = state.color
        if color >= 0:
            out[o_color + color] = 1.0
        phase, current = state.phase, state.current
        if phase is drawn_phase and current == player and state.drawn is not None:
            out[o_drawn + kind_of[state.drawn]] = 1.0
        known = state.known
        if known:
            seen, segment = known_of[player]
            if known is not seen:
                segment = known_segment(known, player)
                known_of[player] = (known, segment)
            out[o_known:o_sizes_at] = segment
        rel, order = rels[player], orders[player]
        at = o_sizes_at
        for q in order:
            out[at] = floats[len(hands[q])]
            at += 1
        match = state.match
        scores = match.scores
        if any(scores):
            at = o_scores_at
            for q in order:
                out[at] = float(scores[q])
                at += 1
        out[o_phase + phase] = 1.0
        out[o_dealer + rel[match.dealer]] = 1.0
        if phase < _ROUND_OVER:
            out[o_current + rel[current]] = 1.0
        if state.direction == 1:
            out[o_direction] = 1.0
        exposed = state.uno_exposed
        if exposed >= 0:
            out[o_exposed + rel[exposed]] = 1.0
        challenge = state.challenge
        if challenge is not None:
            out[o_attacker + rel[challenge.attacker]] = 1.0
            out[o_challenge_color + challenge.color] = 1.0
        if state.pending_draw:
            out[o_pending] = float(state.pending_draw)
        out[o_draw_pile] = floats[len(state.draw_pile) - state.draw_pos]
        if state.passes:
            out[o_passes] = float(state.passes)
        return frombuffer(out, _F32)  # type: ignore[no-any-return]

    return encode_own
