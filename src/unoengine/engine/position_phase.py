"""The parts of an exact position beyond an ordinary turn, for :func:`~.dealing.from_position`.

Every phase of :class:`~.state.Phase` can be built directly: a drawn card to play or keep
(DRAWN, PLAY-4/5), a Wild Draw Four awaiting its challenge (CHALLENGE, WD4-2..3), a first wild
awaiting its colour (CHOOSE_COLOR, SETUP-8), a Draw card stack (PENALTY, HOUSE-1), a finished
round or match (ROUND_OVER, MATCH_OVER, END-1, SCORE-1..4); so can a player exposed to a UNO
catch (UNO-1..7), what players know of other hands (knowledge.py), the passes of a blocked
round (PLAY-7) and a later round of a match (SETUP-11). Each argument is checked here for its
type (PositionError naming it); how they fit together is the one set of state rules
(consistency.state_problems), which from_position runs on the whole state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any, TypeGuard

import attrs

from .cards import COLOR_OF, Card
from .errors import PositionError, shown
from .knowledge import merge
from .limits import MAX_COUNT, MAX_DECK_CARDS
from .profile import Profile
from .scoring import hand_points, match_winner, round_points
from .state import Known, MatchInfo, PendingChallenge, Phase, RoundResult

PHASE_NAMES = {p.name: p for p in Phase}


def check_phase(phase: Phase | str | None, pending_draw: int) -> Phase:
    """The phase asked for: a Phase or its name; by default PLAY, or PENALTY with ``pending_draw``."""
    if phase is None:
        return Phase.PENALTY if pending_draw else Phase.PLAY
    if isinstance(phase, Phase):
        return phase
    if isinstance(phase, str) and phase in PHASE_NAMES:
        return PHASE_NAMES[phase]
    raise PositionError(f"phase must be one of {', '.join(PHASE_NAMES)}, got {shown(phase)}")


def check_seat(value: object, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise PositionError(f"{what} must be a player from 0 to {n - 1}, got {shown(value)}")
    return value


def is_count(value: object, least: int = 0) -> TypeGuard[int]:
    """Is ``value`` an int (not a bool) from ``least`` to MAX_COUNT?"""
    return not isinstance(value, bool) and isinstance(value, int) and least <= value <= MAX_COUNT


def check_count(value: object, what: str, least: int = 0) -> int:
    """``value`` if it is a count from ``least`` (:func:`is_count`), else PositionError naming ``what``."""
    if not is_count(value, least):
        raise PositionError(f"{what} must be an integer from {least} to {MAX_COUNT:,}, got {shown(value)}")
    return value


def check_known(entries: object, n: int, to_cards: Any) -> Known:
    """``(viewer, owner, cards)`` entries: ``viewer`` knows ``owner`` holds at least ``cards``
    (ACT-7, HOUSE-3, WD4-3); entries for one pair combine, as the engine keeps them."""
    if isinstance(entries, str | bytes | Mapping) or not isinstance(entries, Iterable):
        raise PositionError(f"known must be a list of (viewer, owner, cards), got {shown(entries)}")
    learned: list[tuple[int, int, tuple[Card, ...]]] = []
    listed = list(islice(entries, MAX_DECK_CARDS + 1))  # bounded: an endless iterable is refused, not followed
    if len(listed) > MAX_DECK_CARDS:
        raise PositionError(f"known: more than {MAX_DECK_CARDS:,} entries, more than a deck could show")
    for i, entry in enumerate(listed):
        if isinstance(entry, str) or not isinstance(entry, tuple | list) or len(entry) != 3:
            raise PositionError(f"known[{i}] must be (viewer, owner, cards), got {shown(entry)}")
        viewer = check_seat(entry[0], n, f"known[{i}] viewer")
        owner = check_seat(entry[1], n, f"known[{i}] owner")
        if viewer == owner:
            raise PositionError(f"known[{i}]: p{viewer} knows their own hand; only other hands are kept")
        cards = to_cards(entry[2], f"known[{i}] cards")
        if not cards:
            raise PositionError(f"known[{i}]: an entry knows at least one card")
        learned.append((viewer, owner, cards))
    return merge((), learned)


def challenge_of(hands: tuple[tuple[Card, ...], ...], current: int, direction: int, color: object,
                 hand: tuple[Card, ...] | None) -> PendingChallenge:
    """WD4-2, WD4-3: the Wild Draw Four on top was played by the player before ``current`` (in
    the direction of play) while ``color`` was in play, from ``hand`` (by default the attacker's
    hand as it is now); ``current`` may challenge. The bluff is whether that hand held the colour."""
    if isinstance(color, bool) or not isinstance(color, int) or not 0 <= color < 4:
        raise PositionError(f"challenge_color: the colour in play when the Wild Draw Four was played, 0..3; "
                            f"got {shown(color)}")
    attacker = (current - direction) % len(hands)
    shown_hand = hands[attacker] if hand is None else tuple(sorted(hand))
    bluff = any(COLOR_OF[c] == color for c in shown_hand)
    return PendingChallenge(attacker, current, bluff, shown_hand, int(color))


def previous_round(value: RoundResult | Mapping[str, Any] | None, profile: Profile, n: int) -> RoundResult | None:
    """SETUP-11: the result of the round before a later one: a RoundResult, or a mapping with
    ``winner``, ``hand_points`` (one per player), optionally ``blocked`` and ``points_won`` (by
    default what the profile's scoring gives, SCORE-2..4)."""
    if value is None or isinstance(value, RoundResult):
        return value
    if not isinstance(value, Mapping):
        raise PositionError(f"last_round must be a RoundResult or a mapping, got {shown(value)}")
    unknown = sorted(set(value) - {"winner", "hand_points", "blocked", "points_won"})
    if unknown:
        raise PositionError(f"last_round: unknown keys {unknown}; it takes winner, hand_points, blocked, points_won")
    winner = check_seat(value.get("winner"), n, "last_round.winner")
    points = _counts(value.get("hand_points"), n, "last_round.hand_points")
    blocked = value.get("blocked", False)
    if not isinstance(blocked, bool):
        raise PositionError(f"last_round.blocked must be true or false, got {shown(blocked)}")
    won = (round_points(profile, winner, points) if value.get("points_won") is None
           else _counts(value["points_won"], n, "last_round.points_won"))
    return RoundResult(winner, blocked, points, won)


def _counts(value: object, n: int, what: str) -> tuple[int, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise PositionError(f"{what} must be {n} non-negative integers, got {shown(value)}")
    out = tuple(islice(value, n + 1))
    if len(out) != n or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in out):
        raise PositionError(f"{what} must be {n} non-negative integers, got {shown(value)}")
    return out


def finished_round(profile: Profile, hands: tuple[tuple[Card, ...], ...], winner: int, passes: int,
                   match: MatchInfo, phase: Phase) -> MatchInfo:
    """END-1, PLAY-7, SCORE-1..4: the match info of a round just over, won by ``winner`` (the
    player to act): by going out, or, with every player's pass, blocked (lowest hand). The
    scores given are those after the round, so they include what it won."""
    points = tuple(hand_points(profile, h) for h in hands)
    result = RoundResult(winner, passes == len(hands), points, round_points(profile, winner, points))
    champion = match_winner(profile, match.scores) if phase is Phase.MATCH_OVER else None
    return attrs.evolve(match, last_round=result, winner=champion)
