"""What one player may know (the information set), and nothing more.

A view holds the player's own hand, public facts (hand sizes, discard pile, colour,
direction, whose turn, pile size, pending decisions, scores), what was shown to this player
alone (a challenged hand, WD4-3), and the player's legal moves, so a bot can act from its
view alone. It never holds another hand, the draw-pile order, a bluff flag or the seed.
"""

from __future__ import annotations

import attrs

from .cards import COLORS, Card, Color
from .errors import UnoEngineError, shown
from .knowledge import known_by
from .legality import legal_moves
from .moves import Move, NextRound
from .profile import Profile
from .state import GameState, Phase, Reveal, RoundResult, not_a_state
from .table_text import Table, table_text


@attrs.frozen
class PlayerView:
    """Everything ``player`` may know about a state."""

    profile: Profile
    player: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    discard_pile: tuple[Card, ...]
    """Bottom first; the last card is the top card. Every card on it was seen played."""
    color: Color | None
    direction: int
    current: int
    phase: Phase
    draw_pile_size: int
    drawn_card: Card | None
    """The card this player just drew (PLAY-5), when it is theirs to play or keep."""
    challenge_attacker: int | None
    """Who played the Wild Draw Four awaiting a challenge decision (WD4-3), if any."""
    challenge_color: Color | None
    """The colour that was in play when that Wild Draw Four was played (the bluff is judged on it)."""
    pending_draw: int
    """Cards the player to act draws if they accept the Draw card on top (HOUSE-1 stacks, WD4-3)."""
    uno_exposed: int | None
    """The player who may be caught for not calling UNO right now (UNO-2), if any."""
    passes: int
    """Consecutive passes with nothing to draw so far (PLAY-7: a full round of them blocks the round)."""
    scores: tuple[int, ...]
    dealer: int
    round_number: int
    last_round: RoundResult | None
    match_winner: int | None
    revealed: Reveal | None
    """The last hand shown to this player by a challenge (WD4-3)."""
    known: tuple[tuple[int, tuple[Card, ...]], ...]
    """``(owner, cards)``: cards this player knows to be in another hand (passed in a swap or
    rotation, ACT-7 / HOUSE-3, or shown by a challenge, WD4-3); see knowledge.py."""
    legal_moves: tuple[Move, ...]

    @property
    def num_players(self) -> int:
        return len(self.hand_sizes)

    @property
    def top_card(self) -> Card:
        return self.discard_pile[-1]

    @property
    def round_over(self) -> bool:
        """The round (or the match) is over: only the next dealer may act (NextRound)."""
        return self.phase >= Phase.ROUND_OVER

    @property
    def my_turn(self) -> bool:
        """Is the move this player's to make: its turn in a round, or after a round its deal (the
        next dealer's ``NextRound``, SETUP-11)? Out of turn, a bot may return None."""
        if self.phase < Phase.ROUND_OVER:
            return self.current == self.player
        return any(type(m) is NextRound for m in self.legal_moves)

    def __str__(self) -> str:
        """The table as this player sees it, in a few lines: its own hand, the others' sizes and
        the cards it knows in them (engine/table_text.py); ``repr`` is the full form."""
        last = self.last_round
        return table_text(Table(
            profile=self.profile.name, viewer=self.player, round_number=self.round_number, dealer=self.dealer,
            scores=self.scores, target=self.profile.target_score, phase=self.phase.name, current=self.current,
            direction=self.direction, top=self.top_card, color=-1 if self.color is None else int(self.color),
            draw_pile_size=self.draw_pile_size, discard_size=len(self.discard_pile),
            pending_draw=self.pending_draw, attacker=self.challenge_attacker, drawn=self.drawn_card,
            uno_exposed=self.uno_exposed, sizes=self.hand_sizes,
            hands=tuple(self.hand if p == self.player else None for p in range(self.num_players)),
            known=dict(self.known), round_winner=last.winner if last is not None else None,
            blocked=last is not None and last.blocked, match_winner=self.match_winner,
        ))


def view(state: GameState, player: int) -> PlayerView:
    """The view of ``player`` (0-based seat)."""
    if type(state) is not GameState:
        raise not_a_state(state)
    n = len(state.hands)
    if type(player) is not int or not 0 <= player < n:
        raise UnoEngineError(f"there is no player {shown(player)} among {n}")
    pending = state.challenge
    reveal = state.reveal if state.reveal is not None and state.reveal.viewer == player else None
    drawn = state.drawn if state.phase is Phase.DRAWN and state.current == player else None
    return PlayerView(
        profile=state.profile,
        player=player,
        hand=state.hands[player],
        hand_sizes=tuple(len(h) for h in state.hands),
        discard_pile=state.discard_pile,
        color=COLORS[state.color] if state.color >= 0 else None,
        direction=state.direction,
        current=state.current,
        phase=state.phase,
        draw_pile_size=state.draw_pile_size,
        drawn_card=drawn,
        challenge_attacker=pending.attacker if pending is not None else None,
        challenge_color=COLORS[pending.color] if pending is not None else None,
        pending_draw=state.pending_draw,
        uno_exposed=state.uno_exposed if state.uno_exposed >= 0 else None,
        passes=state.passes,
        scores=state.match.scores,
        dealer=state.match.dealer,
        round_number=state.match.round_number,
        last_round=state.match.last_round,
        match_winner=state.match.winner,
        revealed=reveal,
        known=known_by(state.known, player),
        legal_moves=tuple(legal_moves(state, player)),
    )
