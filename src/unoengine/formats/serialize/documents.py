"""JSON documents to values: :func:`from_json` and :func:`loads`, and the reading of each kind of
document (profile, move, view, state, record) and of their parts (the profile, hands, a round's
result, a reveal, a challenge, known cards, the seed).

Every problem found is collected by one :class:`~.reader.Reader` and raised together as one
:class:`SerializationError`; a state is handed to :mod:`.state_checks` before it is built, and the
state built (or view read) to the engine's consistency rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ...engine.cards import COLORS, Card
from ...engine.consistency import state_problems
from ...engine.effects import registered_effects
from ...engine.errors import PositionError, ProfileError, SerializationError
from ...engine.limits import MAX_PLAYERS, MAX_RECORD_MOVES
from ...engine.moves import Move
from ...engine.profile import Profile
from ...engine.shuffling import LEGACY_SHUFFLE
from ...engine.state import GameState, MatchInfo, PendingChallenge, Reveal, RoundResult
from ...engine.view import PlayerView
from ...engine.view_consistency import view_problems
from ..profile_file import profile_from_dict
from ..record import GameRecord
from .parsing import parse_json, show
from .reader import MISSING, Reader, at, get
from .spec import FORMAT_VERSION, MAX_INT, RNG_DIGITS, RNG_LIMIT, Document
from .state_checks import STATE_CHECKS, StateParts, build_state

_MIN_PLAYERS: Final = 2
_PROFILE_KEYS: Final = ("unoengine", "version", "fingerprint", "profile")
_MOVE_KEYS: Final = ("unoengine", "version", "move")
_STATE_KEYS: Final = (
    "unoengine", "version", "profile", "fingerprint", "hands", "draw_pile", "discard_pile", "color",
    "direction", "current", "phase", "drawn", "challenge", "uno_exposed", "passes", "pending_draw", "rng",
    "match", "reveal", "known",
)
_VIEW_KEYS: Final = (
    "unoengine", "version", "profile", "fingerprint", "player", "hand", "hand_sizes", "discard_pile", "color",
    "direction", "current", "phase", "draw_pile_size", "drawn_card", "challenge_attacker", "challenge_color",
    "pending_draw",
    "uno_exposed", "passes", "scores", "dealer", "round_number", "last_round", "match_winner", "revealed",
    "known", "legal_moves",
)
_RECORD_KEYS: Final = (
    "unoengine", "version", "profile", "fingerprint", "players", "seed", "deck", "dealer", "moves",
)
_CHALLENGE_KEYS: Final = ("attacker", "victim", "bluff", "hand", "color")
_KNOWN_KEYS: Final = ("viewer", "owner", "cards")
_VIEW_KNOWN_KEYS: Final = ("owner", "cards")
_MATCH_KEYS: Final = ("dealer", "scores", "round_number", "last_round", "winner")
_RESULT_KEYS: Final = ("winner", "blocked", "hand_points", "points_won")
_REVEAL_KEYS: Final = ("viewer", "owner", "cards")


def loads(text: str | bytes, source: str = "<json>") -> Document:
    """Parse JSON text and load the document it holds (see :func:`from_json`)."""
    return from_json(parse_json(text, source), source)


def from_json(data: Any, source: str = "<json>") -> Document:
    """The profile, state, move or view that a parsed JSON document describes.

    Every problem found is reported at once in one :class:`SerializationError`; nothing else is
    raised, whatever ``data`` holds.
    """
    r = Reader()
    kind = _read_header(r, data)
    loaded = _LOADERS[kind](r, data) if kind is not None else None
    if r.problems or loaded is None:
        raise SerializationError.from_problems(source, r.all_problems() or [("document", "cannot be read")])
    return loaded


def _read_header(r: Reader, data: Any) -> str | None:
    """The document's kind, when it is one this version reads; the rest depends on it, so stop here if not."""
    if not isinstance(data, dict):
        r.add("document", f"must be a JSON object {{\"unoengine\": kind, \"version\": 1, ...}}, got {show(data)}")
        return None
    kind = data.get("unoengine", MISSING)
    if kind is MISSING:
        r.add("unoengine", f"missing: a document names its kind, one of {', '.join(_LOADERS)}")
    elif not isinstance(kind, str) or kind not in _LOADERS:
        r.add("unoengine", f"unknown kind {show(kind)}; expected one of {', '.join(_LOADERS)}")
    version = data.get("version", MISSING)
    if version is MISSING:
        r.add("version", f"missing: this unoengine reads version {FORMAT_VERSION}")
    elif isinstance(version, bool) or not isinstance(version, int) or version != FORMAT_VERSION:
        r.add("version", f"unsupported version {show(version)}; this unoengine reads version {FORMAT_VERSION}")
    return None if r.problems else str(kind)


def _load_move(r: Reader, doc: dict[str, Any]) -> Move | None:
    body = r.table(doc, "", _MOVE_KEYS)
    return r.move(get(body, "move"), "move")


def with_legacy_shuffle(tables: dict[str, Any]) -> dict[str, Any]:
    """A document's profile tables, naming the legacy shuffle when they name none: such a document
    was written before shuffles were named, when every shuffle was MT19937's (docs/shuffle.md),
    and it must replay as it was played."""
    setup = tables.get("setup", {})
    if not isinstance(setup, dict) or "shuffle" in setup:
        return tables
    return {**tables, "setup": {**setup, "shuffle": LEGACY_SHUFFLE}}


def _load_profile(r: Reader, doc: dict[str, Any]) -> Profile | None:
    return _read_profile(r, r.table(doc, "", _PROFILE_KEYS))


def _read_profile(r: Reader, body: dict[str, Any] | None) -> Profile | None:
    """The ``profile`` tables of a document, checked as a profile file is, against its ``fingerprint``."""
    fingerprint = r.text(get(body, "fingerprint"), "fingerprint")
    tables = get(body, "profile")
    if tables is MISSING or not r.plain(tables, "profile"):
        return None
    if not isinstance(tables, dict):
        r.add("profile", f"must be a JSON object with the tables of a profile file, got {show(tables)}")
        return None
    try:
        profile = profile_from_dict(with_legacy_shuffle(tables), "profile")
    except ProfileError as exc:
        for key, problem in exc.problems:
            r.add(at("profile", key), problem)
        return None
    if profile.custom_effect not in registered_effects():
        r.add("profile.play.custom_effect", f"no custom effect named {show(profile.custom_effect)} is registered "
              f"(ACT-8); registered: {', '.join(registered_effects())}")
    if fingerprint is not None and fingerprint != profile.fingerprint:
        r.add("fingerprint", "does not match the profile's rules")
    return profile


def _read_discard(r: Reader, value: Any, path: str) -> tuple[Card, ...] | None:
    pile = r.cards(value, path)
    if pile is not None and not pile:
        r.add(path, "needs at least its top card")
        return None
    return pile


def _read_result(r: Reader, value: Any, path: str, n: int | None) -> RoundResult | None:
    """How the last round ended (END-1, SCORE-1..4); null before any round has ended."""
    body = r.table(value, path, _RESULT_KEYS, nullable=True)
    if body is None:
        return None
    winner = r.seat(get(body, "winner"), f"{path}.winner", n)
    blocked = r.flag(get(body, "blocked"), f"{path}.blocked")
    hand_points = r.numbers(get(body, "hand_points"), f"{path}.hand_points", n, 0, MAX_INT)
    points_won = r.numbers(get(body, "points_won"), f"{path}.points_won", n, 0, MAX_INT)
    if winner is None or blocked is None or hand_points is None or points_won is None:
        return None
    return RoundResult(winner, blocked, hand_points, points_won)


def _read_reveal(r: Reader, value: Any, path: str, n: int | None) -> Reveal | None:
    """A hand shown by a challenge (WD4-3); null when none was."""
    body = r.table(value, path, _REVEAL_KEYS, nullable=True)
    if body is None:
        return None
    viewer = r.seat(get(body, "viewer"), f"{path}.viewer", n)
    owner = r.seat(get(body, "owner"), f"{path}.owner", n)
    cards = r.cards(get(body, "cards"), f"{path}.cards")
    if viewer is None or owner is None or cards is None:
        return None
    return Reveal(viewer, owner, tuple(sorted(cards)))


def _read_moves(r: Reader, value: Any, path: str) -> tuple[Move, ...] | None:
    if value is MISSING:
        return None
    if not isinstance(value, list):
        r.add(path, f"must be a list of moves such as 'p0 R7', got {show(value)}")
        return None
    if len(value) > MAX_RECORD_MOVES:
        r.add(path, f"{len(value):,} moves, more than the {MAX_RECORD_MOVES:,} a document may hold")
        return None
    moves = [r.move(item, f"{path}[{i}]") for i, item in enumerate(value)]
    return tuple(m for m in moves if m is not None) if None not in moves else None


def _player_count(r: Reader, count: int, path: str, profile: Profile | None) -> int | None:
    """SETUP-1: 2 to 10 players, and as many as the profile allows; None when that is not so."""
    lo, hi = _MIN_PLAYERS, MAX_PLAYERS
    if profile is not None:
        lo, hi = max(lo, profile.min_players), min(hi, profile.max_players)
    if not lo <= count <= hi:
        r.add(path, f"SETUP-1: {count:,} players; the profile is for {lo} to {hi}")
        return None if not _MIN_PLAYERS <= count <= MAX_PLAYERS else count
    return count


def _load_view(r: Reader, doc: dict[str, Any]) -> PlayerView | None:
    """A view: every field read, then held to the rules a view the engine could have shown obeys
    (engine/view_consistency.py), so that it can always be determinized; its legal moves are as written."""
    body = r.table(doc, "", _VIEW_KEYS)
    profile = _read_profile(r, body)
    sizes = r.numbers(get(body, "hand_sizes"), "hand_sizes", None, 0, MAX_INT)
    n = None if sizes is None else _player_count(r, len(sizes), "hand_sizes", profile)
    fields: dict[str, Any] = {
        "profile": profile,
        "player": r.seat(get(body, "player"), "player", n),
        "hand": r.cards(get(body, "hand"), "hand"),
        "hand_sizes": sizes,
        "discard_pile": _read_discard(r, get(body, "discard_pile"), "discard_pile"),
        "color": r.color(get(body, "color"), "color", nullable=True),
        "direction": r.one_of(get(body, "direction"), "direction", (1, -1)),
        "current": r.seat(get(body, "current"), "current", n),
        "phase": r.phase(get(body, "phase"), "phase"),
        "draw_pile_size": r.integer(get(body, "draw_pile_size"), "draw_pile_size", 0, MAX_INT),
        "drawn_card": r.card(get(body, "drawn_card"), "drawn_card", nullable=True),
        "challenge_attacker": r.seat(get(body, "challenge_attacker"), "challenge_attacker", n, nullable=True),
        "challenge_color": r.color(get(body, "challenge_color"), "challenge_color", nullable=True),
        "pending_draw": r.integer(get(body, "pending_draw"), "pending_draw", 0, MAX_INT),
        "uno_exposed": r.seat(get(body, "uno_exposed"), "uno_exposed", n, nullable=True),
        "passes": r.integer(get(body, "passes"), "passes", 0, MAX_PLAYERS),
        "scores": r.numbers(get(body, "scores"), "scores", n, 0, MAX_INT),
        "dealer": r.seat(get(body, "dealer"), "dealer", n),
        "round_number": r.integer(get(body, "round_number"), "round_number", 1, MAX_INT),
        "last_round": _read_result(r, get(body, "last_round"), "last_round", n),
        "match_winner": r.seat(get(body, "match_winner"), "match_winner", n, nullable=True),
        "revealed": _read_reveal(r, get(body, "revealed"), "revealed", n),
        "known": _read_known(r, get(body, "known"), n, _VIEW_KNOWN_KEYS),
        "legal_moves": _read_moves(r, get(body, "legal_moves"), "legal_moves"),
    }
    if r.problems:
        return None
    fields["hand"] = tuple(sorted(fields["hand"]))
    fields["color"] = None if fields["color"] is None else COLORS[fields["color"]]
    fields["challenge_color"] = None if fields["challenge_color"] is None else COLORS[fields["challenge_color"]]
    fields["known"] = tuple((entry[1], entry[2]) for entry in fields["known"])
    view = PlayerView(**fields)
    for field, problem in view_problems(view):
        r.add(field, problem)
    return None if r.problems else view


def _load_state(r: Reader, doc: dict[str, Any]) -> GameState | None:
    """A saved game: every field read, the rules that tie fields together checked field by field,
    then the state built and held to the engine's own state rules, so that a loaded state is one
    the engine could have reached."""
    parts = _read_state_parts(r, r.table(doc, "", _STATE_KEYS))
    for check in STATE_CHECKS:
        check(r, parts)
    if r.problems:
        return None
    state = build_state(parts)
    for field, problem in state_problems(state):
        r.add(field, problem)
    return None if r.problems else state


def _read_state_parts(r: Reader, body: dict[str, Any] | None) -> StateParts:
    s = StateParts(profile=_read_profile(r, body))
    s.n, s.hands = _read_hands(r, get(body, "hands"), s.profile)
    s.draw_pile = r.cards(get(body, "draw_pile"), "draw_pile")
    s.discard = _read_discard(r, get(body, "discard_pile"), "discard_pile")
    color = r.color(get(body, "color"), "color", nullable=True)
    s.color = -1 if color is None else color
    s.direction = r.one_of(get(body, "direction"), "direction", (1, -1))
    s.current = r.seat(get(body, "current"), "current", s.n)
    s.phase = r.phase(get(body, "phase"), "phase")
    s.drawn = r.card(get(body, "drawn"), "drawn", nullable=True)
    s.challenge = _read_challenge(r, get(body, "challenge"), s.n)
    exposed = r.seat(get(body, "uno_exposed"), "uno_exposed", s.n, nullable=True)
    s.uno_exposed = -1 if exposed is None else exposed
    s.passes = r.integer(get(body, "passes"), "passes", 0, MAX_PLAYERS)
    s.pending_draw = r.integer(get(body, "pending_draw"), "pending_draw", 0, MAX_INT)
    s.rng = _read_rng(r, get(body, "rng"))
    s.match = _read_match(r, get(body, "match"), s.n)
    s.reveal = _read_reveal(r, get(body, "reveal"), "reveal", s.n)
    s.known = _read_known(r, get(body, "known"), s.n, _KNOWN_KEYS)
    return s


def _read_hands(
    r: Reader, value: Any, profile: Profile | None
) -> tuple[int | None, tuple[tuple[Card, ...], ...] | None]:
    """The number of players (None when unusable) and the hands, sorted as the engine keeps them."""
    if value is MISSING:
        return None, None
    if not isinstance(value, list):
        r.add("hands", f"must be a list with one string of card names per player, got {show(value)}")
        return None, None
    n = _player_count(r, len(value), "hands", profile)
    if len(value) > MAX_PLAYERS:  # refused above: the hands of a table that cannot exist are not read
        return None, None
    hands = [r.cards(h, f"hands[{i}]") for i, h in enumerate(value)]
    if None in hands:
        return n, None
    return n, tuple(tuple(sorted(h)) for h in hands if h is not None)


def _read_challenge(r: Reader, value: Any, n: int | None) -> PendingChallenge | None:
    """A Wild Draw Four awaiting the victim's decision (WD4-3); null otherwise."""
    body = r.table(value, "challenge", _CHALLENGE_KEYS, nullable=True)
    if body is None:
        return None
    attacker = r.seat(get(body, "attacker"), "challenge.attacker", n)
    victim = r.seat(get(body, "victim"), "challenge.victim", n)
    bluff = r.flag(get(body, "bluff"), "challenge.bluff")
    hand = r.cards(get(body, "hand"), "challenge.hand")
    color = r.color(get(body, "color"), "challenge.color")
    if attacker is None or victim is None or bluff is None or hand is None or color is None:
        return None
    return PendingChallenge(attacker, victim, bluff, tuple(sorted(hand)), color)


def _read_known(r: Reader, value: Any, n: int | None, keys: tuple[str, ...]
                ) -> tuple[tuple[int, int, tuple[Card, ...]], ...] | None:
    """Knowledge entries (knowledge.py): who knows which cards of whose hand; a view's have no viewer."""
    if value is MISSING:
        return None
    if not isinstance(value, list):
        r.add("known", f"must be a list of known cards, got {show(value)}")
        return None
    most = MAX_PLAYERS * (MAX_PLAYERS - 1) if n is None else n * (n - 1)
    if len(value) > most:
        r.add("known", f"{len(value):,} entries; at most one per player and other player ({most})")
        return None
    out = []
    for i, item in enumerate(value):
        body = r.table(item, f"known[{i}]", keys)
        viewer = r.seat(get(body, "viewer"), f"known[{i}].viewer", n) if "viewer" in keys else -1
        owner = r.seat(get(body, "owner"), f"known[{i}].owner", n)
        cards = r.cards(get(body, "cards"), f"known[{i}].cards")
        if viewer is not None and owner is not None and cards is not None:
            out.append((viewer, owner, tuple(sorted(cards))))
    return tuple(sorted(out)) if len(out) == len(value) else None


def _read_rng(r: Reader, value: Any, path: str = "rng") -> int | None:
    """The hidden seed of the next shuffle: a decimal string, as JSON numbers lose precision past 2**53."""
    if value is MISSING:
        return None
    if (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= RNG_DIGITS
            and int(value) < RNG_LIMIT):
        return int(value)
    r.add(path, f"must be a decimal string of an integer from 0 to 2**64 - 1, got {show(value)}")
    return None


def _load_record(r: Reader, doc: dict[str, Any]) -> GameRecord | None:
    """A game record's fields, and that its start can be dealt; whether its moves replay is for
    :meth:`GameRecord.replay` to say, at the first that does not (RecordError)."""
    body = r.table(doc, "", _RECORD_KEYS)
    profile = _read_profile(r, body)
    count = r.integer(get(body, "players"), "players", _MIN_PLAYERS, MAX_PLAYERS)
    n = _player_count(r, count, "players", profile) if count is not None else None
    seed = _read_rng(r, get(body, "seed"), "seed")
    deck_text = get(body, "deck")
    deck = None if deck_text is None or deck_text is MISSING else r.cards(deck_text, "deck")
    dealer = r.seat(get(body, "dealer"), "dealer", n, nullable=True)
    moves = _read_moves(r, get(body, "moves"), "moves")
    if r.problems or profile is None or n is None or seed is None or moves is None:
        return None
    record = GameRecord(profile, n, seed, deck, dealer, moves)
    try:
        record.initial_state()
    except PositionError as exc:
        r.add("deck", str(exc))
        return None
    return record


def _read_match(r: Reader, value: Any, n: int | None) -> MatchInfo | None:
    """The match around the round: dealer, scores (SCORE-2..4), round number, last result, winner."""
    body = r.table(value, "match", _MATCH_KEYS)
    if body is None:
        return None
    dealer = r.seat(get(body, "dealer"), "match.dealer", n)
    scores = r.numbers(get(body, "scores"), "match.scores", n, 0, MAX_INT)
    round_number = r.integer(get(body, "round_number"), "match.round_number", 1, MAX_INT)
    last_round = _read_result(r, get(body, "last_round"), "match.last_round", n)
    winner = r.seat(get(body, "winner"), "match.winner", n, nullable=True)
    if dealer is None or scores is None or round_number is None or not r.clean("match"):
        return None
    return MatchInfo(dealer, scores, round_number, last_round, winner)


_LOADERS: Final[dict[str, Callable[[Reader, dict[str, Any]], Document | None]]] = {
    "profile": _load_profile,
    "state": _load_state,
    "move": _load_move,
    "record": _load_record,
    "view": _load_view,
}
