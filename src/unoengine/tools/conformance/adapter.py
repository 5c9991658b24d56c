"""The adapter an engine implements to run the corpus (protocol v2), and this engine's own.

An adapter has four calls (``start``, ``play``, ``observe``, ``legal``) and a ``capabilities``
attribute; any call may raise :class:`Unsupported`, and ``play`` raises :class:`Rejected` for a
move its engine refuses. docs/conformance.md describes each call. ``load_adapter`` imports a
Python adapter named ``module:Class`` on the command line: the one place the runner executes
code, and only the code the user named.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any, Final, Protocol

import attrs

from ...engine.cards import COLOR_LETTERS, parse_cards
from ...engine.dealing import from_position, new_game
from ...engine.errors import IllegalMoveError, UnoEngineError, quoted
from ...engine.events import Event
from ...engine.legality import legal_moves
from ...engine.state import GameState
from ...engine.transition import apply_with_events
from ...formats.notation import format_move, parse_move
from .capabilities import CAPABILITIES
from .scenarios import scenario_profile

PROTOCOL_VERSION: Final = 2
"""The version of the adapter protocol and of the wire protocol (docs/conformance.md)."""


class Rejected(Exception):
    """Raised by an adapter when its engine refuses a move; ``rule`` is the RULES.md ID it cites
    ("" for an engine without rule citations), ``reason`` its reason code, if any."""

    def __init__(self, rule: str = "", reason: str = "") -> None:
        super().__init__(f"{rule} {reason}".strip() or "refused")
        self.rule = rule
        self.reason = reason


class Unsupported(Exception):
    """Raised by an adapter from any call, at any step, for what its engine cannot do: the steps
    before still count, and the scenario says how far it got."""


class AdapterFailure(UnoEngineError):
    """The adapter itself failed (as opposed to its engine refusing a set-up or a move): the
    scenario is errored, never failed."""


class Adapter(Protocol):
    """What the runner needs from an engine. ``Game`` handles are opaque to the runner.

    ``start`` builds the scenario's situation (its ``profile``, ``options`` and ``start`` or
    ``deal`` fields, see docs/conformance.md). ``play`` applies one move in notation and returns
    the new game and the events of the move as dicts (``{"type": "CardsDrawn", "player": 1,
    "count": 2, "rule": "ACT-3", ...}``), or raises :class:`Rejected`. ``observe`` reports the
    facts of :data:`~.scenarios.OBSERVED`; ``legal`` the legal moves of one player, in notation.
    An optional ``capabilities`` attribute lists what the engine can do (every capability when
    it is missing), an optional ``profiles`` the profiles it claims to play (for the summary of
    what a run left untested), and an optional ``finish(game)`` is called when a scenario is over.
    """

    def start(self, scenario: Mapping[str, Any]) -> Any: ...

    def play(self, game: Any, move: str) -> tuple[Any, list[dict[str, Any]]]: ...

    def observe(self, game: Any) -> dict[str, Any]: ...

    def legal(self, game: Any, player: int) -> list[str]: ...


class EngineAdapter:
    """The adapter of unoengine itself: the reference the corpus is checked against. It claims
    every capability; ``capabilities`` may name fewer (the runner then checks only those, which
    is how the capability rules are tested on a real engine)."""

    capabilities: frozenset[str] = CAPABILITIES

    def __init__(self, capabilities: Iterable[str] | None = None) -> None:
        if capabilities is not None:
            self.capabilities = frozenset(capabilities)

    def start(self, scenario: Mapping[str, Any]) -> GameState:
        profile = scenario_profile(scenario)
        if "deal" in scenario:
            deal = scenario["deal"]
            deck = parse_cards(deal["deck"]) if "deck" in deal else None
            return new_game(profile, deal["players"], deal.get("seed", 0), dealer=deal.get("dealer"), deck=deck,
                            dealer_draw=deal.get("dealer_draw"))
        start = scenario["start"]
        return from_position(
            profile, start["hands"], start["discard"],
            draw_pile=start.get("draw_pile"),
            color=_color_index(start.get("color")),
            direction=start.get("direction", 1), current=start.get("current", 0),
            dealer=start.get("dealer"), scores=start.get("scores"), seed=start.get("seed", 0),
            pending_draw=start.get("pending_draw", 0), phase=start.get("phase"), drawn=start.get("drawn"),
            challenge_color=_color_index(start.get("challenge_color")), attacker_hand=start.get("attacker_hand"),
            uno_exposed=start.get("uno_exposed"), passes=start.get("passes", 0),
            known=[(e["viewer"], e["owner"], e["cards"]) for e in start.get("known", ())],
            round_number=start.get("round_number", 1), last_round=start.get("last_round"),
        )

    def play(self, game: GameState, move: str) -> tuple[GameState, list[dict[str, Any]]]:
        try:
            new, events = apply_with_events(game, parse_move(move))
        except IllegalMoveError as exc:
            raise Rejected(exc.rule, exc.reason) from exc
        return new, [event_to_dict(e) for e in events]

    def observe(self, game: GameState) -> dict[str, Any]:
        last = game.match.last_round
        return {
            "hand_sizes": [len(h) for h in game.hands],
            "hands": [" ".join(map(repr, h)) for h in game.hands],
            "current": game.current,
            "phase": game.phase.name,
            "color": COLOR_LETTERS[game.color] if game.color >= 0 else None,
            "direction": game.direction,
            "top": repr(game.top_card),
            "pending_draw": game.pending_draw,
            "draw_pile_size": game.draw_pile_size,
            "discard_size": game.discard[1],
            "uno_exposed": game.uno_exposed if game.uno_exposed >= 0 else None,
            "scores": list(game.match.scores),
            "round_over": game.round_over,
            "round_winner": last.winner if game.round_over and last is not None else None,
            "match_winner": game.match.winner,
            "dealer": game.match.dealer,
        }

    def legal(self, game: GameState, player: int) -> list[str]:
        return [format_move(m) for m in legal_moves(game, player)]


def _color_index(letter: object) -> int | None:
    return COLOR_LETTERS.index(letter) if isinstance(letter, str) else None


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as plain data: its class name as ``type``, cards as names, colours as letters."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in attrs.fields(type(event)):
        value = getattr(event, field.name)
        if field.name == "color":
            value = COLOR_LETTERS[value]
        elif field.name in ("card", "first_card"):
            value = repr(value)
        elif field.name == "cards":
            value = " ".join(map(repr, value))
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


class AdapterLoadError(UnoEngineError):
    """``--adapter module:Class`` that names no importable module or no class in it."""


def load_adapter(spec: str) -> Any:
    """The adapter ``module:Class`` names, made with no arguments. This imports (and so runs)
    that module: only ever with a name the user gave (docs/security.md)."""
    module_name, colon, class_name = spec.partition(":")
    if not colon or not module_name or not class_name.isidentifier():
        raise AdapterLoadError(f"--adapter {quoted(spec, 80)}: expected module:Class, e.g. my_engine.adapter:Adapter")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterLoadError(f"--adapter {quoted(spec, 80)}: cannot import module {module_name!r}: {exc}") from None
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise AdapterLoadError(f"--adapter {quoted(spec, 80)}: module {module_name!r} has no class {class_name!r}")
    missing = [name for name in ("start", "play", "observe", "legal") if not callable(getattr(cls, name, None))]
    if missing:
        raise AdapterLoadError(f"--adapter {quoted(spec, 80)}: {class_name} lacks {', '.join(missing)} "
                               "(docs/conformance.md, the adapter)")
    try:
        return cls()
    except Exception as exc:  # the user's own code, reported in one line
        raise AdapterLoadError(f"--adapter {quoted(spec, 80)}: {class_name}() failed: {exc!r}") from None
