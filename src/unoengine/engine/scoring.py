"""End of a round and of a match (END-1, SCORE-1..4, PLAY-7 blocked rounds)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .draft import Draft
from .errors import PositionError, shown
from .events import MatchEnded, RoundEnded
from .profile import Profile
from .state import GameState, MatchInfo, Phase, RoundResult

_SCORING_RULE = {
    "winner-takes-others": "SCORE-2",
    "own-hand-lowest-wins": "SCORE-3",
    "one-point-per-round": "SCORE-4",
}


def hand_points(profile: Profile, hand: Sequence[Card]) -> int:
    """SCORE-1: the points of the cards in a hand, from the profile's table."""
    try:
        points = profile.points
        return sum(points[c] for c in hand)
    except (AttributeError, TypeError, IndexError):  # no cost unless the arguments are wrong
        raise PositionError(f"hand_points takes a Profile and cards, got a {type(profile).__name__} and "
                            f"{shown(hand)}") from None


def round_points(profile: Profile, winner: int, left: Sequence[int]) -> tuple[int, ...]:
    """What each player's score gains from a round won by ``winner`` (SCORE-2..4)."""
    n = len(left)
    if profile.scoring == "winner-takes-others":  # SCORE-2
        return tuple(sum(left) - left[winner] if i == winner else 0 for i in range(n))
    if profile.scoring == "own-hand-lowest-wins":  # SCORE-3
        return tuple(0 if i == winner else left[i] for i in range(n))
    # SCORE-4: one point per round won
    return tuple(1 if i == winner else 0 for i in range(n))


def match_winner(profile: Profile, scores: Sequence[int]) -> int | None:
    """The match winner once someone reaches the target, else None.

    SCORE-2/4: the player who reached the target (only the round winner gains points).
    SCORE-3: when anyone reaches the target, the lowest total wins; RULING: a tie for the
    lowest total means another round is played.
    """
    if max(scores) < profile.target_score:
        return None
    if profile.scoring == "own-hand-lowest-wins":
        low = min(scores)
        lowest = [i for i, s in enumerate(scores) if s == low]
        return lowest[0] if len(lowest) == 1 else None
    return max(range(len(scores)), key=lambda i: scores[i])


def _finish(d: Draft, winner: int, blocked: bool) -> GameState:
    profile = d.profile
    left = tuple(hand_points(profile, h) for h in d.hands)
    won = round_points(profile, winner, left)
    scores = tuple(s + w for s, w in zip(d.match.scores, won, strict=True))
    champion = match_winner(profile, scores)
    d.match = MatchInfo(
        d.match.dealer, scores, d.match.round_number, RoundResult(winner, blocked, left, won), champion
    )
    d.phase = Phase.ROUND_OVER if champion is None else Phase.MATCH_OVER
    d.emit(RoundEnded, winner, blocked, won, "PLAY-7" if blocked else "END-1")
    if champion is not None:
        d.emit(MatchEnded, champion, scores, _SCORING_RULE[profile.scoring])
    d.current = winner
    d.drawn = None
    d.challenge = None
    d.uno_exposed = -1
    d.pending_draw = 0
    return d.freeze()


def end_round(d: Draft, winner: int) -> GameState:
    """END-1: ``winner`` has no cards left; pending draws were already made (ACT-9)."""
    return _finish(d, winner, blocked=False)


def end_round_blocked(d: Draft) -> GameState:
    """PLAY-7 RULING: every player passed in turn with nothing to draw.

    The lowest hand in points wins the round and scores as if they had gone out; a tie goes
    to the first of the tied players in turn order from the player who passed first.
    """
    n = len(d.hands)
    first = d.seat_after(d.current)  # after n passes, the next seat passed first
    order = [d.seat_after(first, k) for k in range(n)]
    winner = min(order, key=lambda i: hand_points(d.profile, d.hands[i]))
    return _finish(d, winner, blocked=True)
