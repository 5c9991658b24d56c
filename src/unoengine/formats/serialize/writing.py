"""Values to JSON documents: :func:`to_json` and :func:`dumps`, for a profile, state, move, view or
game record.

Writing trusts its input (it comes from the engine), so it only refuses what no document can hold,
so that whatever it writes loads back: a profile no profile file can express, a seed beyond 64
bits, a record of more than MAX_RECORD_MOVES moves, a text beyond MAX_DOCUMENT_BYTES.
"""

from __future__ import annotations

import json
from typing import Any

from ...engine.cards import COLOR_LETTERS, Card
from ...engine.errors import ProfileError, SerializationError, quoted
from ...engine.limits import MAX_DOCUMENT_BYTES, MAX_RECORD_MOVES
from ...engine.moves import MOVE_TYPES
from ...engine.profile import Profile
from ...engine.state import GameState, MatchInfo, PendingChallenge, Reveal, RoundResult
from ...engine.view import PlayerView
from ..notation import format_move
from ..profile_file import profile_to_dict
from ..record import GameRecord
from .spec import FORMAT_VERSION, RNG_LIMIT, Document


def to_json(obj: Document) -> dict[str, Any]:
    """The JSON document of a profile, state, move or view, as plain dicts, lists, strings and ints."""
    if isinstance(obj, Profile):
        return _document("profile", fingerprint=obj.fingerprint, profile=_profile_tables(obj))
    if isinstance(obj, GameState):
        return _state_document(obj)
    if isinstance(obj, PlayerView):
        return _view_document(obj)
    if isinstance(obj, MOVE_TYPES):
        return _document("move", move=format_move(obj))
    if isinstance(obj, GameRecord):
        return _record_document(obj)
    raise SerializationError("<to_json>", "document", "to_json writes a Profile, GameState, Move, PlayerView or "
                             f"GameRecord, not a {type(obj).__name__}")


def _record_document(record: GameRecord) -> dict[str, Any]:
    """A game record: the profile and its fingerprint, the start (seed, deck, dealer) and the moves in notation."""
    if len(record.moves) > MAX_RECORD_MOVES:
        raise SerializationError("<to_json>", "moves", f"{len(record.moves):,} moves, more than the "
                                                       f"{MAX_RECORD_MOVES:,} a record document may hold")
    return _document(
        "record", profile=_profile_tables(record.profile), fingerprint=record.fingerprint,
        players=record.players, seed=str(record.seed),
        deck=_names(record.deck) if record.deck is not None else None, dealer=record.dealer,
        moves=[format_move(m) for m in record.moves],
    )


def dumps(obj: Document, *, indent: int | None = None) -> str:
    """The document of ``obj`` as strict JSON text (see :func:`to_json`), at most MAX_DOCUMENT_BYTES
    long, as :func:`loads` reads no more."""
    text = json.dumps(to_json(obj), indent=indent, allow_nan=False)
    if len(text) > MAX_DOCUMENT_BYTES:
        raise SerializationError("<dumps>", "document", f"{len(text):,} characters, more than the "
                                                        f"{MAX_DOCUMENT_BYTES:,} a document may hold")
    return text


def _document(kind: str, **fields: Any) -> dict[str, Any]:
    """A document begins with its kind and format version, so a reader knows what follows."""
    return {"unoengine": kind, "version": FORMAT_VERSION, **fields}


def _profile_tables(profile: Profile) -> dict[str, Any]:
    """The profile's tables; a profile that no profile file can express cannot be saved either."""
    try:
        return profile_to_dict(profile)
    except ProfileError as exc:
        raise SerializationError(f"profile {quoted(profile.name)}", f"profile.{exc.key}", exc.problem) from None


def _names(cards: tuple[Card, ...]) -> str:
    return " ".join(repr(c) for c in cards)


def _letter(color: int | None) -> str | None:
    return None if color is None or color < 0 else COLOR_LETTERS[color]


def _seat_or_null(seat: int) -> int | None:
    """The state keeps -1 for "nobody"; a document says null."""
    return None if seat < 0 else seat


def _result_json(result: RoundResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "winner": result.winner,
        "blocked": result.blocked,
        "hand_points": list(result.hand_points),
        "points_won": list(result.points_won),
    }


def _reveal_json(reveal: Reveal | None) -> dict[str, Any] | None:
    if reveal is None:
        return None
    return {"viewer": reveal.viewer, "owner": reveal.owner, "cards": _names(reveal.cards)}


def _challenge_json(challenge: PendingChallenge | None) -> dict[str, Any] | None:
    if challenge is None:
        return None
    return {
        "attacker": challenge.attacker,
        "victim": challenge.victim,
        "bluff": challenge.bluff,
        "hand": _names(challenge.hand),
        "color": _letter(challenge.color),
    }


def _match_json(match: MatchInfo) -> dict[str, Any]:
    return {
        "dealer": match.dealer,
        "scores": list(match.scores),
        "round_number": match.round_number,
        "last_round": _result_json(match.last_round),
        "winner": match.winner,
    }


def _state_document(state: GameState) -> dict[str, Any]:
    """Everything that decides how the game goes on, hidden parts included (a save, not a view)."""
    if not 0 <= state.rng < RNG_LIMIT:
        raise SerializationError(
            "<to_json>", "rng", "the state's seed is not a 64-bit number (a seed given to new_game or "
            "from_position is kept until the first shuffle); use a seed from 0 to 2**64 - 1"
        )
    return _document(
        "state",
        profile=_profile_tables(state.profile),
        fingerprint=state.profile.fingerprint,
        hands=[_names(h) for h in state.hands],
        draw_pile=_names(state.remaining_draw_pile),
        discard_pile=_names(state.discard_pile),
        color=_letter(state.color),
        direction=state.direction,
        current=state.current,
        phase=state.phase.name,
        drawn=None if state.drawn is None else repr(state.drawn),
        challenge=_challenge_json(state.challenge),
        uno_exposed=_seat_or_null(state.uno_exposed),
        passes=state.passes,
        pending_draw=state.pending_draw,
        rng=str(state.rng),
        match=_match_json(state.match),
        reveal=_reveal_json(state.reveal),
        known=[{"viewer": v, "owner": o, "cards": _names(cards)} for v, o, cards in state.known],
    )


def _view_document(v: PlayerView) -> dict[str, Any]:
    """What one player may know, ready to send to that player (or their bot)."""
    return _document(
        "view",
        profile=_profile_tables(v.profile),
        fingerprint=v.profile.fingerprint,
        player=v.player,
        hand=_names(v.hand),
        hand_sizes=list(v.hand_sizes),
        discard_pile=_names(v.discard_pile),
        color=_letter(v.color),
        direction=v.direction,
        current=v.current,
        phase=v.phase.name,
        draw_pile_size=v.draw_pile_size,
        drawn_card=None if v.drawn_card is None else repr(v.drawn_card),
        challenge_attacker=v.challenge_attacker,
        challenge_color=_letter(v.challenge_color),
        pending_draw=v.pending_draw,
        uno_exposed=v.uno_exposed,
        passes=v.passes,
        scores=list(v.scores),
        dealer=v.dealer,
        round_number=v.round_number,
        last_round=_result_json(v.last_round),
        match_winner=v.match_winner,
        revealed=_reveal_json(v.revealed),
        known=[{"owner": o, "cards": _names(cards)} for o, cards in v.known],
        legal_moves=[format_move(m) for m in v.legal_moves],
    )
