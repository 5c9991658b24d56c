"""JSON documents for profiles, game states, moves, player views and game records: save a game,
send a view to a bot, keep a record.

Every document is a JSON object ``{"unoengine": KIND, "version": 1, ...}`` with KIND one of
``"profile"``, ``"state"``, ``"move"``, ``"view"`` and ``"record"``. Cards are written by name, a hand or a
pile as one string (``"R7 G5 W"``); colours by letter (``R``, ``Y``, ``G``, ``B``); phases by
name; moves in the notation of :mod:`unoengine.notation`; a profile as the nested tables of a
profile file, with its fingerprint beside it.

Loading is meant for untrusted input. Nothing in a document is executed or imported by name
(a custom effect is only looked up in the registry), every field is checked, and one
:class:`SerializationError` lists every problem by field path (``hands[2][3]``,
``match.scores[1]``, ``challenge.victim``; ``cards`` names the DECK-5 count of every pile
together; ``json`` and ``document`` what could not be read at all).

A state document holds only the cards still to draw, so ``from_json(to_json(s))`` equals ``s``
except that its draw pile starts at the next card (``draw_pos`` 0). The loaded state plays
exactly as ``s`` does, and ``to_json(from_json(to_json(s))) == to_json(s)``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any, Final, TypeAlias

import attrs

from ..engine.cards import (
    CARDS,
    COLOR_LETTERS,
    COLOR_OF,
    COLORS,
    DRAW_FOUR_COUNT,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    IS_WILD,
    SYMBOL_OF,
    WILD_DRAW_FOUR,
    Card,
    parse_card,
)
from ..engine.effects import registered_effects
from ..engine.errors import NotationError, PositionError, ProfileError, SerializationError
from ..engine.moves import MAX_PLAYERS, MOVE_TYPES, Move
from ..engine.profile import Profile
from ..engine.state import GameState, MatchInfo, PendingChallenge, Phase, Reveal, RoundResult, discard_from
from ..engine.view import PlayerView
from .notation import format_move, parse_move
from .profile_file import profile_from_dict, profile_to_dict
from .record import GameRecord

Document: TypeAlias = "Profile | GameState | Move | PlayerView | GameRecord"
Problems = list[tuple[str, str]]

FORMAT_VERSION: Final = 1
_MIN_PLAYERS: Final = 2
MAX_INT: Final = 2**53 - 1
"""The largest count or score a document may hold: every JSON reader keeps it exact."""
RNG_LIMIT: Final = 2**64
"""The seed is a 64-bit number, written as a decimal string because it can exceed :data:`MAX_INT`."""
_RNG_DIGITS: Final = len(str(RNG_LIMIT - 1))
_MAX_NESTING: Final = 16
"""The deepest nesting read inside a profile (a profile file needs three levels)."""
_MAX_MOVE_TEXT: Final = 64
_SHOWN_BAD_CARDS: Final = 5
_SHOWN_COUNTS: Final = 12
_MISSING: Final = object()
"""A key absent from its object: already reported as missing, so the readers stay silent."""
_COLOR_INDEX: Final = {letter: i for i, letter in enumerate(COLOR_LETTERS)}
_PLAY_PHASES: Final = (Phase.PLAY, Phase.DRAWN, Phase.CHALLENGE, Phase.CHOOSE_COLOR, Phase.PENALTY)

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


# --- writing ------------------------------------------------------------------------------
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
    raise TypeError(f"to_json writes a Profile, GameState, Move, PlayerView or GameRecord, not a {type(obj).__name__}")


def _record_document(record: GameRecord) -> dict[str, Any]:
    """A game record: the profile and its fingerprint, the start (seed, deck, dealer) and the moves in notation."""
    return _document(
        "record", profile=_profile_tables(record.profile), fingerprint=record.fingerprint,
        players=record.players, seed=str(record.seed),
        deck=_names(record.deck) if record.deck is not None else None, dealer=record.dealer,
        moves=[format_move(m) for m in record.moves],
    )


def dumps(obj: Document, *, indent: int | None = None) -> str:
    """The document of ``obj`` as strict JSON text (see :func:`to_json`)."""
    return json.dumps(to_json(obj), indent=indent, allow_nan=False)


def _document(kind: str, **fields: Any) -> dict[str, Any]:
    """A document begins with its kind and format version, so a reader knows what follows."""
    return {"unoengine": kind, "version": FORMAT_VERSION, **fields}


def _profile_tables(profile: Profile) -> dict[str, Any]:
    """The profile's tables; a profile that no profile file can express cannot be saved either."""
    try:
        return profile_to_dict(profile)
    except ProfileError as exc:
        raise SerializationError(f"profile {profile.name!r}", f"profile.{exc.key}", exc.problem) from None


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


# --- reading: JSON text ------------------------------------------------------------------
def loads(text: str | bytes, source: str = "<json>") -> Document:
    """Parse JSON text and load the document it holds (see :func:`from_json`)."""
    return from_json(_parse_json(text, source), source)


class _DuplicateKey(Exception):
    """Two readers could disagree on which of two equal keys counts, so a document may not repeat one."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    table = dict(pairs)
    if len(table) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(_show(key))
            seen.add(key)
    return table


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    """Refuse an integer too long to mean anything here before converting it (huge ones are slow)."""
    if len(digits.lstrip("-")) > _RNG_DIGITS:
        raise ValueError(f"an integer of {len(digits)} digits is out of range")
    return int(digits)


def _parse_json(text: Any, source: str) -> Any:
    """Strict JSON: no NaN or Infinity, no repeated keys, no absurd integers; any failure is a problem."""
    if not isinstance(text, str | bytes | bytearray):
        raise SerializationError(source, "json", f"must be JSON text, got a {type(text).__name__}")
    try:
        return json.loads(
            text, object_pairs_hook=_unique_keys, parse_constant=_no_constant, parse_int=_bounded_int
        )
    except _DuplicateKey as exc:
        raise SerializationError(source, "json", f"duplicate key {exc.args[0]} in an object") from None
    except RecursionError:
        raise SerializationError(source, "json", "nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, the refusals above
        raise SerializationError(source, "json", f"not valid JSON: {_clip(str(exc))}") from None


# --- reading: checking values ------------------------------------------------------------
def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _show(value: Any) -> str:
    """A short description of an untrusted value for a message: never a huge or nested repr."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value)) if abs(value) <= MAX_INT else "a very large integer"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return "an object"
    kind = type(value).__name__
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def _at(path: str, key: Any) -> str:
    """The path of an object's member (``match.scores``)."""
    name = key if isinstance(key, str) and len(key) <= 40 else _show(key)
    return f"{path}.{name}" if path else name


def _within(found: str, path: str) -> bool:
    return found == path or found.startswith((path + ".", path + "["))


def _get(table: dict[str, Any] | None, key: str) -> Any:
    return _MISSING if table is None else table.get(key, _MISSING)


class _Reader:
    """Collects every problem of one document by field path, so one error can list them all.

    Each reader returns the value read, or None when it is missing (already reported) or wrong
    (reported now); ``nullable`` readers also return None for a JSON null, so a later cross-check
    asks :meth:`clean` whether a None is a real null.
    """

    def __init__(self) -> None:
        self.problems: Problems = []

    def add(self, path: str, problem: str) -> None:
        self.problems.append((path, problem))

    def clean(self, *paths: str) -> bool:
        """No problem was found at or inside any of ``paths``: their values may be cross-checked."""
        return not any(_within(found, path) for found, _ in self.problems for path in paths)

    def table(self, value: Any, path: str, keys: tuple[str, ...], *, nullable: bool = False) -> dict[str, Any] | None:
        """A JSON object with exactly ``keys``: every unknown and every missing key is a problem."""
        if value is _MISSING or (nullable and value is None):
            return None
        if not isinstance(value, dict):
            self.add(path or "document", f"must be a JSON object, got {_show(value)}")
            return None
        for key in value:
            if key not in keys:
                self.add(_at(path, key), "unknown key")
        for key in keys:
            if key not in value:
                self.add(_at(path, key), "missing")
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int, *, nullable: bool = False) -> int | None:
        """An integer from ``lo`` to ``hi``; never a bool."""
        if value is _MISSING or (nullable and value is None):
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.add(path, f"must be an integer from {lo} to {hi}{' or null' if nullable else ''}, got {_show(value)}")
            return None
        return int(value)

    def seat(self, value: Any, path: str, n: int | None, *, nullable: bool = False) -> int | None:
        """A player's seat, 0 to n - 1 (any seat a table can have while n is unknown)."""
        return self.integer(value, path, 0, (n or MAX_PLAYERS) - 1, nullable=nullable)

    def flag(self, value: Any, path: str) -> bool | None:
        if value is _MISSING:
            return None
        if not isinstance(value, bool):
            self.add(path, f"must be true or false, got {_show(value)}")
            return None
        return value

    def text(self, value: Any, path: str) -> str | None:
        if value is _MISSING:
            return None
        if not isinstance(value, str):
            self.add(path, f"must be a string, got {_show(value)}")
            return None
        return value

    def one_of(self, value: Any, path: str, options: tuple[int, ...]) -> int | None:
        if value is _MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in options:
            self.add(path, f"must be one of {', '.join(map(str, options))}, got {_show(value)}")
            return None
        return int(value)

    def cards(self, value: Any, path: str) -> tuple[Card, ...] | None:
        """Card names separated by spaces; each unknown name is a problem at its index."""
        if self.text(value, path) is None:
            return None
        out: list[Card] = []
        bad = 0
        for i, token in enumerate(value.split()):
            try:
                out.append(parse_card(token))
            except NotationError:
                bad += 1
                if bad <= _SHOWN_BAD_CARDS:
                    self.add(f"{path}[{i}]", f"unknown card {_show(token)}; expected e.g. R7, GS, BR, Y+2, W, W+4")
        if bad > _SHOWN_BAD_CARDS:
            self.add(path, f"{bad - _SHOWN_BAD_CARDS} more unknown cards")
        return None if bad else tuple(out)

    def card(self, value: Any, path: str, *, nullable: bool = False) -> Card | None:
        """One card name."""
        if value is _MISSING or (nullable and value is None):
            return None
        if isinstance(value, str):
            try:
                return parse_card(value)
            except NotationError:
                pass
        self.add(path, f"must be a card name such as R7 or W+4{' or null' if nullable else ''}, got {_show(value)}")
        return None

    def color(self, value: Any, path: str, *, nullable: bool = False) -> int | None:
        """A colour letter: R, Y, G or B."""
        if value is _MISSING or (nullable and value is None):
            return None
        if isinstance(value, str) and value in _COLOR_INDEX:
            return _COLOR_INDEX[value]
        self.add(path, f"must be one of R, Y, G, B{' or null' if nullable else ''}, got {_show(value)}")
        return None

    def phase(self, value: Any, path: str) -> Phase | None:
        if value is _MISSING:
            return None
        if isinstance(value, str) and value in Phase.__members__:
            return Phase[value]
        self.add(path, f"must be one of {', '.join(Phase.__members__)}, got {_show(value)}")
        return None

    def numbers(self, value: Any, path: str, n: int | None, lo: int, hi: int) -> tuple[int, ...] | None:
        """A list of integers, one per player when the number of players is known."""
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            self.add(path, f"must be a list of integers, got {_show(value)}")
            return None
        if n is not None and len(value) != n:
            self.add(path, f"must list one integer per player ({n}), got {len(value)}")
            return None
        out = [self.integer(item, f"{path}[{i}]", lo, hi) for i, item in enumerate(value)]
        return tuple(x for x in out if x is not None) if None not in out else None

    def move(self, value: Any, path: str) -> Move | None:
        """A move in the notation of :mod:`unoengine.notation`, such as ``"p0 W+4:R!"``."""
        if self.text(value, path) is None:
            return None
        if len(value) > _MAX_MOVE_TEXT:
            self.add(path, f"a move of {len(value)} characters is too long to be a move such as 'p0 R7'")
            return None
        try:
            return parse_move(value)
        except NotationError as exc:
            self.add(path, str(exc))
            return None

    def plain(self, value: Any, path: str) -> bool:
        """Only JSON values (string keys, no huge integers, bounded nesting) go on to the profile
        reader, whose messages quote what they refuse."""
        before = len(self.problems)
        stack: list[tuple[Any, str, int]] = [(value, path, 0)]
        while stack:
            item, where, depth = stack.pop()
            if isinstance(item, dict | list):
                if depth >= _MAX_NESTING:
                    self.add(where, "nested too deeply")
                    continue
                if isinstance(item, list):
                    stack.extend((x, f"{where}[{i}]", depth + 1) for i, x in enumerate(item))
                    continue
                for key, x in item.items():
                    if isinstance(key, str):
                        stack.append((x, _at(where, key), depth + 1))
                    else:
                        self.add(where, f"key {_show(key)} is not a string")
            elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_INT:
                self.add(where, "integer out of range")
            elif item is not None and not isinstance(item, str | int | float):
                self.add(where, f"{_show(item)} is not a JSON value")
        return len(self.problems) == before


# --- reading: documents ------------------------------------------------------------------
def from_json(data: Any, source: str = "<json>") -> Document:
    """The profile, state, move or view that a parsed JSON document describes.

    Every problem found is reported at once in one :class:`SerializationError`; nothing else is
    raised, whatever ``data`` holds.
    """
    r = _Reader()
    kind = _read_header(r, data)
    loaded = _LOADERS[kind](r, data) if kind is not None else None
    if r.problems or loaded is None:
        raise SerializationError.from_problems(source, r.problems or [("document", "cannot be read")])
    return loaded


def _read_header(r: _Reader, data: Any) -> str | None:
    """The document's kind, when it is one this version reads; the rest depends on it, so stop here if not."""
    if not isinstance(data, dict):
        r.add("document", f"must be a JSON object {{\"unoengine\": kind, \"version\": 1, ...}}, got {_show(data)}")
        return None
    kind = data.get("unoengine", _MISSING)
    if kind is _MISSING:
        r.add("unoengine", f"missing: a document names its kind, one of {', '.join(_LOADERS)}")
    elif not isinstance(kind, str) or kind not in _LOADERS:
        r.add("unoengine", f"unknown kind {_show(kind)}; expected one of {', '.join(_LOADERS)}")
    version = data.get("version", _MISSING)
    if version is _MISSING:
        r.add("version", f"missing: this unoengine reads version {FORMAT_VERSION}")
    elif isinstance(version, bool) or not isinstance(version, int) or version != FORMAT_VERSION:
        r.add("version", f"unsupported version {_show(version)}; this unoengine reads version {FORMAT_VERSION}")
    return None if r.problems else str(kind)


def _load_move(r: _Reader, doc: dict[str, Any]) -> Move | None:
    body = r.table(doc, "", _MOVE_KEYS)
    return r.move(_get(body, "move"), "move")


def _load_profile(r: _Reader, doc: dict[str, Any]) -> Profile | None:
    return _read_profile(r, r.table(doc, "", _PROFILE_KEYS))


def _read_profile(r: _Reader, body: dict[str, Any] | None) -> Profile | None:
    """The ``profile`` tables of a document, checked as a profile file is, against its ``fingerprint``."""
    fingerprint = r.text(_get(body, "fingerprint"), "fingerprint")
    tables = _get(body, "profile")
    if tables is _MISSING or not r.plain(tables, "profile"):
        return None
    if not isinstance(tables, dict):
        r.add("profile", f"must be a JSON object with the tables of a profile file, got {_show(tables)}")
        return None
    try:
        profile = profile_from_dict(tables, "profile")
    except ProfileError as exc:
        for key, problem in exc.problems:
            r.add(_at("profile", key), problem)
        return None
    if profile.custom_effect not in registered_effects():
        r.add("profile.play.custom_effect", f"no custom effect named {_show(profile.custom_effect)} is registered "
              f"(ACT-8); registered: {', '.join(registered_effects())}")
    if fingerprint is not None and fingerprint != profile.fingerprint:
        r.add("fingerprint", "does not match the profile's rules")
    return profile


def _read_discard(r: _Reader, value: Any, path: str) -> tuple[Card, ...] | None:
    pile = r.cards(value, path)
    if pile is not None and not pile:
        r.add(path, "needs at least its top card")
        return None
    return pile


def _read_result(r: _Reader, value: Any, path: str, n: int | None) -> RoundResult | None:
    """How the last round ended (END-1, SCORE-1..4); null before any round has ended."""
    body = r.table(value, path, _RESULT_KEYS, nullable=True)
    if body is None:
        return None
    winner = r.seat(_get(body, "winner"), f"{path}.winner", n)
    blocked = r.flag(_get(body, "blocked"), f"{path}.blocked")
    hand_points = r.numbers(_get(body, "hand_points"), f"{path}.hand_points", n, 0, MAX_INT)
    points_won = r.numbers(_get(body, "points_won"), f"{path}.points_won", n, 0, MAX_INT)
    if winner is None or blocked is None or hand_points is None or points_won is None:
        return None
    return RoundResult(winner, blocked, hand_points, points_won)


def _read_reveal(r: _Reader, value: Any, path: str, n: int | None) -> Reveal | None:
    """A hand shown by a challenge (WD4-3); null when none was."""
    body = r.table(value, path, _REVEAL_KEYS, nullable=True)
    if body is None:
        return None
    viewer = r.seat(_get(body, "viewer"), f"{path}.viewer", n)
    owner = r.seat(_get(body, "owner"), f"{path}.owner", n)
    cards = r.cards(_get(body, "cards"), f"{path}.cards")
    if viewer is None or owner is None or cards is None:
        return None
    return Reveal(viewer, owner, tuple(sorted(cards)))


def _read_moves(r: _Reader, value: Any, path: str) -> tuple[Move, ...] | None:
    if value is _MISSING:
        return None
    if not isinstance(value, list):
        r.add(path, f"must be a list of moves such as 'p0 R7', got {_show(value)}")
        return None
    moves = [r.move(item, f"{path}[{i}]") for i, item in enumerate(value)]
    return tuple(m for m in moves if m is not None) if None not in moves else None


def _player_count(r: _Reader, count: int, path: str, profile: Profile | None) -> int | None:
    """SETUP-1: 2 to 10 players, and as many as the profile allows; None when that is not so."""
    lo, hi = _MIN_PLAYERS, MAX_PLAYERS
    if profile is not None:
        lo, hi = max(lo, profile.min_players), min(hi, profile.max_players)
    if not lo <= count <= hi:
        r.add(path, f"SETUP-1: {count} players; the profile is for {lo} to {hi}")
        return None if not _MIN_PLAYERS <= count <= MAX_PLAYERS else count
    return count


def _load_view(r: _Reader, doc: dict[str, Any]) -> PlayerView | None:
    """A view is checked for shapes and types only: it is what one player was told, not a game to go on with."""
    body = r.table(doc, "", _VIEW_KEYS)
    profile = _read_profile(r, body)
    sizes = r.numbers(_get(body, "hand_sizes"), "hand_sizes", None, 0, MAX_INT)
    n = None if sizes is None else _player_count(r, len(sizes), "hand_sizes", profile)
    fields: dict[str, Any] = {
        "profile": profile,
        "player": r.seat(_get(body, "player"), "player", n),
        "hand": r.cards(_get(body, "hand"), "hand"),
        "hand_sizes": sizes,
        "discard_pile": _read_discard(r, _get(body, "discard_pile"), "discard_pile"),
        "color": r.color(_get(body, "color"), "color", nullable=True),
        "direction": r.one_of(_get(body, "direction"), "direction", (1, -1)),
        "current": r.seat(_get(body, "current"), "current", n),
        "phase": r.phase(_get(body, "phase"), "phase"),
        "draw_pile_size": r.integer(_get(body, "draw_pile_size"), "draw_pile_size", 0, MAX_INT),
        "drawn_card": r.card(_get(body, "drawn_card"), "drawn_card", nullable=True),
        "challenge_attacker": r.seat(_get(body, "challenge_attacker"), "challenge_attacker", n, nullable=True),
        "challenge_color": r.color(_get(body, "challenge_color"), "challenge_color", nullable=True),
        "pending_draw": r.integer(_get(body, "pending_draw"), "pending_draw", 0, MAX_INT),
        "uno_exposed": r.seat(_get(body, "uno_exposed"), "uno_exposed", n, nullable=True),
        "passes": r.integer(_get(body, "passes"), "passes", 0, MAX_PLAYERS),
        "scores": r.numbers(_get(body, "scores"), "scores", n, 0, MAX_INT),
        "dealer": r.seat(_get(body, "dealer"), "dealer", n),
        "round_number": r.integer(_get(body, "round_number"), "round_number", 1, MAX_INT),
        "last_round": _read_result(r, _get(body, "last_round"), "last_round", n),
        "match_winner": r.seat(_get(body, "match_winner"), "match_winner", n, nullable=True),
        "revealed": _read_reveal(r, _get(body, "revealed"), "revealed", n),
        "known": _read_known(r, _get(body, "known"), n, _VIEW_KNOWN_KEYS),
        "legal_moves": _read_moves(r, _get(body, "legal_moves"), "legal_moves"),
    }
    if r.problems:
        return None
    fields["hand"] = tuple(sorted(fields["hand"]))
    fields["color"] = None if fields["color"] is None else COLORS[fields["color"]]
    fields["challenge_color"] = None if fields["challenge_color"] is None else COLORS[fields["challenge_color"]]
    fields["known"] = tuple((entry[1], entry[2]) for entry in fields["known"])
    return PlayerView(**fields)


# --- reading: a state --------------------------------------------------------------------
@attrs.define
class _StateParts:
    """A state document's fields as read; None where a field could not be read (or, for a
    nullable one, was null: :meth:`_Reader.clean` tells which). Colour and seats use -1 for null,
    as the state does."""

    profile: Profile | None = None
    n: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    draw_pile: tuple[Card, ...] | None = None
    discard: tuple[Card, ...] | None = None
    color: int | None = None
    direction: int | None = None
    current: int | None = None
    phase: Phase | None = None
    drawn: Card | None = None
    challenge: PendingChallenge | None = None
    uno_exposed: int | None = None
    passes: int | None = None
    pending_draw: int | None = None
    rng: int | None = None
    match: MatchInfo | None = None
    reveal: Reveal | None = None
    known: tuple[tuple[int, int, tuple[Card, ...]], ...] | None = None

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None


def _load_state(r: _Reader, doc: dict[str, Any]) -> GameState | None:
    """A saved game: every field read, then every rule that ties fields together checked."""
    parts = _read_state_parts(r, r.table(doc, "", _STATE_KEYS))
    for check in _STATE_CHECKS:
        check(r, parts)
    return None if r.problems else _build_state(parts)


def _read_state_parts(r: _Reader, body: dict[str, Any] | None) -> _StateParts:
    s = _StateParts(profile=_read_profile(r, body))
    s.n, s.hands = _read_hands(r, _get(body, "hands"), s.profile)
    s.draw_pile = r.cards(_get(body, "draw_pile"), "draw_pile")
    s.discard = _read_discard(r, _get(body, "discard_pile"), "discard_pile")
    color = r.color(_get(body, "color"), "color", nullable=True)
    s.color = -1 if color is None else color
    s.direction = r.one_of(_get(body, "direction"), "direction", (1, -1))
    s.current = r.seat(_get(body, "current"), "current", s.n)
    s.phase = r.phase(_get(body, "phase"), "phase")
    s.drawn = r.card(_get(body, "drawn"), "drawn", nullable=True)
    s.challenge = _read_challenge(r, _get(body, "challenge"), s.n)
    exposed = r.seat(_get(body, "uno_exposed"), "uno_exposed", s.n, nullable=True)
    s.uno_exposed = -1 if exposed is None else exposed
    s.passes = r.integer(_get(body, "passes"), "passes", 0, MAX_PLAYERS)
    s.pending_draw = r.integer(_get(body, "pending_draw"), "pending_draw", 0, MAX_INT)
    s.rng = _read_rng(r, _get(body, "rng"))
    s.match = _read_match(r, _get(body, "match"), s.n)
    s.reveal = _read_reveal(r, _get(body, "reveal"), "reveal", s.n)
    s.known = _read_known(r, _get(body, "known"), s.n, _KNOWN_KEYS)
    return s


def _read_hands(
    r: _Reader, value: Any, profile: Profile | None
) -> tuple[int | None, tuple[tuple[Card, ...], ...] | None]:
    """The number of players (None when unusable) and the hands, sorted as the engine keeps them."""
    if value is _MISSING:
        return None, None
    if not isinstance(value, list):
        r.add("hands", f"must be a list with one string of card names per player, got {_show(value)}")
        return None, None
    n = _player_count(r, len(value), "hands", profile)
    hands = [r.cards(h, f"hands[{i}]") for i, h in enumerate(value)]
    if None in hands:
        return n, None
    return n, tuple(tuple(sorted(h)) for h in hands if h is not None)


def _read_challenge(r: _Reader, value: Any, n: int | None) -> PendingChallenge | None:
    """A Wild Draw Four awaiting the victim's decision (WD4-3); null otherwise."""
    body = r.table(value, "challenge", _CHALLENGE_KEYS, nullable=True)
    if body is None:
        return None
    attacker = r.seat(_get(body, "attacker"), "challenge.attacker", n)
    victim = r.seat(_get(body, "victim"), "challenge.victim", n)
    bluff = r.flag(_get(body, "bluff"), "challenge.bluff")
    hand = r.cards(_get(body, "hand"), "challenge.hand")
    color = r.color(_get(body, "color"), "challenge.color")
    if attacker is None or victim is None or bluff is None or hand is None or color is None:
        return None
    return PendingChallenge(attacker, victim, bluff, tuple(sorted(hand)), color)


def _read_known(r: _Reader, value: Any, n: int | None, keys: tuple[str, ...]
                ) -> tuple[tuple[int, int, tuple[Card, ...]], ...] | None:
    """Knowledge entries (knowledge.py): who knows which cards of whose hand; a view's have no viewer."""
    if value is _MISSING:
        return None
    if not isinstance(value, list):
        r.add("known", f"must be a list of known cards, got {_show(value)}")
        return None
    out = []
    for i, item in enumerate(value):
        body = r.table(item, f"known[{i}]", keys)
        viewer = r.seat(_get(body, "viewer"), f"known[{i}].viewer", n) if "viewer" in keys else -1
        owner = r.seat(_get(body, "owner"), f"known[{i}].owner", n)
        cards = r.cards(_get(body, "cards"), f"known[{i}].cards")
        if viewer is not None and owner is not None and cards is not None:
            out.append((viewer, owner, tuple(sorted(cards))))
    return tuple(sorted(out)) if len(out) == len(value) else None


def _read_rng(r: _Reader, value: Any, path: str = "rng") -> int | None:
    """The hidden seed of the next shuffle: a decimal string, as JSON numbers lose precision past 2**53."""
    if value is _MISSING:
        return None
    if (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= _RNG_DIGITS
            and int(value) < RNG_LIMIT):
        return int(value)
    r.add(path, f"must be a decimal string of an integer from 0 to 2**64 - 1, got {_show(value)}")
    return None


def _load_record(r: _Reader, doc: dict[str, Any]) -> GameRecord | None:
    """A game record's fields, and that its start can be dealt; whether its moves replay is for
    :meth:`GameRecord.replay` to say, at the first that does not (RecordError)."""
    body = r.table(doc, "", _RECORD_KEYS)
    profile = _read_profile(r, body)
    count = r.integer(_get(body, "players"), "players", _MIN_PLAYERS, MAX_PLAYERS)
    n = _player_count(r, count, "players", profile) if count is not None else None
    seed = _read_rng(r, _get(body, "seed"), "seed")
    deck_text = _get(body, "deck")
    deck = None if deck_text is None or deck_text is _MISSING else r.cards(deck_text, "deck")
    dealer = r.seat(_get(body, "dealer"), "dealer", n, nullable=True)
    moves = _read_moves(r, _get(body, "moves"), "moves")
    if r.problems or profile is None or n is None or seed is None or moves is None:
        return None
    record = GameRecord(profile, n, seed, deck, dealer, moves)
    try:
        record.initial_state()
    except PositionError as exc:
        r.add("deck", str(exc))
        return None
    return record


def _read_match(r: _Reader, value: Any, n: int | None) -> MatchInfo | None:
    """The match around the round: dealer, scores (SCORE-2..4), round number, last result, winner."""
    body = r.table(value, "match", _MATCH_KEYS)
    if body is None:
        return None
    dealer = r.seat(_get(body, "dealer"), "match.dealer", n)
    scores = r.numbers(_get(body, "scores"), "match.scores", n, 0, MAX_INT)
    round_number = r.integer(_get(body, "round_number"), "match.round_number", 1, MAX_INT)
    last_round = _read_result(r, _get(body, "last_round"), "match.last_round", n)
    winner = r.seat(_get(body, "winner"), "match.winner", n, nullable=True)
    if dealer is None or scores is None or round_number is None or not r.clean("match"):
        return None
    return MatchInfo(dealer, scores, round_number, last_round, winner)


def _hand_of(s: _StateParts, seat: int | None) -> tuple[Card, ...] | None:
    """The hand at ``seat``; None when the hands or the seat could not be read (a seat is checked against
    the number of players only when that number is usable, so it may lie beyond the hands)."""
    if s.hands is None or seat is None or not 0 <= seat < len(s.hands):
        return None
    return s.hands[seat]


def _check_conservation(r: _Reader, s: _StateParts) -> None:
    """DECK-5: the hands and both piles hold exactly the profile's cards in play."""
    if s.profile is None or s.hands is None or s.draw_pile is None or s.discard is None:
        return
    have = Counter(c for hand in s.hands for c in hand)
    have.update(s.draw_pile)
    have.update(s.discard)
    want = Counter(CARDS[c] for c in s.profile.deck_cards())
    if have != want:
        r.add("cards", f"DECK-5: the hands, draw_pile and discard_pile must hold exactly the {s.profile.deck_size} "
              f"cards in play; missing {_count_text(want - have)}, extra {_count_text(have - want)}")


def _count_text(cards: Counter[Card]) -> str:
    if not cards:
        return "none"
    items = sorted(cards.items())
    shown = ", ".join(f"{c!r} x{k}" if k > 1 else repr(c) for c, k in items[:_SHOWN_COUNTS])
    return shown + (f" and {len(items) - _SHOWN_COUNTS} more kinds" if len(items) > _SHOWN_COUNTS else "")


def _check_color(r: _Reader, s: _StateParts) -> None:
    """SETUP-8: no colour only while a wild first card awaits one; PLAY-1: a coloured top card fixes it."""
    top = s.top
    if top is None or s.phase is None or s.color is None or not r.clean("color"):
        return
    if s.phase is Phase.CHOOSE_COLOR:
        if s.color != -1:
            r.add("color", "must be null while the first card's colour is still to be named (SETUP-8)")
        if not IS_WILD[top]:
            r.add("discard_pile", f"SETUP-8: a colour is named only for a wild first card, not {top!r}")
        if len(s.discard or ()) != 1:
            r.add("discard_pile", "SETUP-8: a colour is named only for the first card, so the pile holds one card")
    elif s.color == -1:
        r.add("color", f"null only in phase CHOOSE_COLOR (SETUP-8), not {s.phase.name}")
    elif not IS_WILD[top] and s.color != COLOR_OF[top]:
        r.add("color", f"PLAY-1: the top card {top!r} fixes the colour in play, not {COLOR_LETTERS[s.color]}")


def _check_drawn(r: _Reader, s: _StateParts) -> None:
    """PLAY-5: in DRAWN phase the drawn card is known and in the drawer's hand; no drawn card otherwise."""
    if s.phase is None or not r.clean("drawn"):
        return
    if s.phase is not Phase.DRAWN:
        if s.drawn is not None:
            r.add("drawn", "must be null outside phase DRAWN")
    elif s.drawn is None:
        r.add("drawn", "required in phase DRAWN: the card just drawn (PLAY-5)")
    elif (hand := _hand_of(s, s.current)) is not None and s.drawn not in hand:
        r.add("drawn", f"PLAY-5: {s.drawn!r} is not in the hand of the player to act (p{s.current})")


def _check_challenge(r: _Reader, s: _StateParts) -> None:
    """WD4-3: a pending challenge exactly in CHALLENGE phase, against the player after its attacker,
    who is to act, on a Wild Draw Four, under a profile with challenges."""
    if s.phase is None or not r.clean("challenge"):
        return
    ch = s.challenge
    if s.phase is not Phase.CHALLENGE:
        if ch is not None:
            r.add("challenge", "must be null outside phase CHALLENGE")
        return
    if ch is None:
        r.add("challenge", "required in phase CHALLENGE: who played the Wild Draw Four on whom (WD4-3)")
        return
    if s.n is not None and s.direction is not None and ch.victim != (ch.attacker + s.direction) % s.n:
        r.add("challenge.victim", "WD4-3: the victim is the player after the attacker in the direction of play")
    if s.current is not None and ch.victim != s.current:
        r.add("challenge.victim", f"WD4-3: the victim is the player to act (p{s.current})")
    if s.top is not None and s.top != WILD_DRAW_FOUR:
        r.add("discard_pile", f"WD4-3: only a Wild Draw Four on top can be challenged, not {s.top!r}")
    if s.profile is not None and s.profile.wild_draw_four != "challenge":
        r.add("challenge", f"WD4-6: the profile's wild_draw_four mode {s.profile.wild_draw_four!r} has no challenges")
    if ch.bluff != any(COLOR_OF[c] == ch.color for c in ch.hand):
        r.add("challenge.bluff", "WD4-2: a bluff is exactly a hand holding the colour that was in play")


def _check_pending_draw(r: _Reader, s: _StateParts) -> None:
    """HOUSE-1, ACT-5: cards are pending only in PENALTY (a stack under stacking) and CHALLENGE phases."""
    total, phase = s.pending_draw, s.phase
    if total is None or phase is None:
        return
    if phase is Phase.CHALLENGE:
        if total < DRAW_FOUR_COUNT or total % 2:
            r.add("pending_draw", f"WD4-3: in phase CHALLENGE an even total of at least {DRAW_FOUR_COUNT}, got {total}")
        elif s.profile is not None and s.profile.stacking == "off" and total != DRAW_FOUR_COUNT:
            r.add("pending_draw", f"ACT-5: without stacking (HOUSE-1) a Wild Draw Four makes {DRAW_FOUR_COUNT}")
    elif phase is Phase.PENALTY:
        _check_penalty(r, s, total)
    elif total:
        r.add("pending_draw", f"HOUSE-1: must be 0 outside phases PENALTY and CHALLENGE, got {total}")


def _check_penalty(r: _Reader, s: _StateParts, total: int) -> None:
    """HOUSE-1: a PENALTY needs stacking and a Draw card on top, and an even total it can have made."""
    if s.profile is not None and s.profile.stacking == "off":
        r.add("phase", "HOUSE-1: phase PENALTY needs a profile with stacking")
    top = s.top
    if top is None:
        return
    if top != WILD_DRAW_FOUR and (IS_WILD[top] or SYMBOL_OF[top] != DRAW_TWO):
        r.add("discard_pile", f"HOUSE-1: phase PENALTY needs a Draw Two or Wild Draw Four on top, not {top!r}")
        return
    least = DRAW_FOUR_COUNT if top == WILD_DRAW_FOUR else DRAW_TWO_COUNT
    if total < least or total % 2:
        r.add("pending_draw", f"HOUSE-1: an even total of at least {least} is pending on {top!r}, got {total}")
    if top == WILD_DRAW_FOUR and s.profile is not None and s.profile.wild_draw_four == "challenge":
        r.add("phase", "WD4-3: a Wild Draw Four in challenge mode is answered in phase CHALLENGE, not PENALTY")


def _check_uno_exposed(r: _Reader, s: _StateParts) -> None:
    """UNO-2: only a player holding exactly one card can be caught, and only while the round runs."""
    exposed = s.uno_exposed
    if exposed is None or exposed < 0:
        return
    if s.phase is not None and s.phase not in _PLAY_PHASES:
        r.add("uno_exposed", "UNO-2: must be null once the round is over")
    elif (hand := _hand_of(s, exposed)) is not None and len(hand) != 1:
        r.add("uno_exposed", f"UNO-2: p{exposed} holds {len(hand)} cards; only one card can be caught")


def _check_passes(r: _Reader, s: _StateParts) -> None:
    """PLAY-7: n consecutive passes end the round blocked, so fewer are counted while it runs."""
    if s.passes is None or s.n is None or s.phase is None:
        return
    limit = s.n - 1 if s.phase in _PLAY_PHASES else s.n
    if s.passes > limit:
        r.add("passes", f"PLAY-7: at most {limit} consecutive passes among {s.n} players in phase {s.phase.name}")


def _check_hands_in_play(r: _Reader, s: _StateParts) -> None:
    """END-1: an empty hand ends the round, except the attacker's while a last Wild Draw Four is challenged."""
    if s.hands is None or s.phase is None or s.phase not in _PLAY_PHASES:
        return
    attacker = s.challenge.attacker if s.challenge is not None else -1
    for p, hand in enumerate(s.hands):
        if not hand and p != attacker:
            r.add(f"hands[{p}]", f"END-1: an empty hand has won, so the round cannot be in phase {s.phase.name}")


def _check_round_end(r: _Reader, s: _StateParts) -> None:
    """END-1, SCORE-2..4: a finished round has a result; a match winner exactly once the match is over."""
    m, phase = s.match, s.phase
    if m is None or phase is None:
        return
    if phase not in _PLAY_PHASES and m.last_round is None:
        r.add("match.last_round", f"required in phase {phase.name}: how the round ended (END-1)")
    if phase is Phase.MATCH_OVER and m.winner is None:
        r.add("match.winner", "required in phase MATCH_OVER (SCORE-2..4)")
    elif phase is not Phase.MATCH_OVER and m.winner is not None:
        r.add("match.winner", f"must be null until the match is over, not in phase {phase.name}")


def _check_known(r: _Reader, s: _StateParts) -> None:
    """What a player knows of a hand must be in it (knowledge.py keeps a lower bound), of another player."""
    if not s.known or s.hands is None:
        return
    for i, (viewer, owner, cards) in enumerate(s.known):
        if viewer == owner:
            r.add(f"known[{i}]", "a player's knowledge of their own hand is not kept")
        elif owner < len(s.hands) and Counter(cards) - Counter(s.hands[owner]):
            r.add(f"known[{i}].cards", f"not all in the hand of player {owner}")


_STATE_CHECKS: Final[tuple[Callable[[_Reader, _StateParts], None], ...]] = (
    _check_known,
    _check_conservation,
    _check_color,
    _check_drawn,
    _check_challenge,
    _check_pending_draw,
    _check_uno_exposed,
    _check_passes,
    _check_hands_in_play,
    _check_round_end,
)


def _build_state(s: _StateParts) -> GameState:
    """The state of a document that passed every check: the draw pile starts at its next card."""
    assert s.profile is not None and s.hands is not None and s.draw_pile is not None and s.discard is not None
    assert s.color is not None and s.direction is not None and s.current is not None and s.phase is not None
    assert s.uno_exposed is not None and s.passes is not None and s.rng is not None and s.match is not None
    assert s.pending_draw is not None
    return GameState(
        s.profile, s.hands, s.draw_pile, 0, discard_from(s.discard), s.color, s.direction, s.current, s.phase,
        s.drawn, s.challenge, s.uno_exposed, s.passes, s.rng, s.match, s.reveal, s.pending_draw, s.known or (),
    )


_LOADERS: Final[dict[str, Callable[[_Reader, dict[str, Any]], Document | None]]] = {
    "profile": _load_profile,
    "state": _load_state,
    "move": _load_move,
    "record": _load_record,
    "view": _load_view,
}

__all__ = ["MAX_INT", "RNG_LIMIT", "SerializationError", "dumps", "from_json", "loads", "to_json"]
