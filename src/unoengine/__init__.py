"""unoengine: UNO rules as an immutable state machine with declarative rule profiles.

>>> import unoengine
>>> state = unoengine.new_game("classic-108", 4, seed=1)
>>> moves = unoengine.legal_moves(state)
>>> state = unoengine.apply(state, moves[0])

This module is the facade: the public API of the layers below it in one namespace. The layers
are packages, each importing only those before it (docs/architecture.md): ``engine`` (the pure
rules), ``formats`` (profiles, JSON, notation, records), ``bots``, then ``tools`` (the command
line, simulations, the conformance runner). The facade is also where a profile *name* becomes a
:class:`Profile`: the engine itself reads no files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# The documented facade modules, attributes of the package as they always were.
from . import determinize, effects, events, notation, serialize  # noqa: F401
from .bots.determinize import sample_state
from .engine import dealing as _dealing
from .engine.cards import (
    BLANK,
    CARDS,
    DRAW_TWO,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Card,
    Color,
    colored,
    parse_card,
    parse_cards,
    parse_color,
)
from .engine.dealer_draw import DealerDraw, draw_for_dealer, fixed_dealer_draw
from .engine.dealing import CardsLike, choose_dealer
from .engine.effects import CustomEffect, register_effect, registered_effects
from .engine.errors import (
    EffectError,
    IllegalMoveError,
    NotationError,
    PositionError,
    ProfileError,
    ReadOnlyError,
    RecordError,
    SerializationError,
    UnoEngineError,
)
from .engine.events import Event, events_for
from .engine.legality import legal_moves
from .engine.moves import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Move,
    NextRound,
    Pass,
    Play,
)
from .engine.profile import Profile
from .engine.scoring import hand_points
from .engine.state import GameState, MatchInfo, PendingChallenge, Phase, Reveal, RoundResult
from .engine.transition import apply, apply_with_events
from .engine.view import PlayerView, view
from .formats.composition import Spec, load_profile, resolve_profile
from .formats.notation import format_move, parse_move
from .formats.profile_file import profile_from_dict, profile_to_toml, shipped_overlays, shipped_profiles
from .formats.record import GameRecord
from .formats.serialize import dumps, from_json, loads, to_json

__version__ = "0.1.0"


def _view_svg(self: PlayerView) -> str:
    """A view as a picture in Jupyter and other rich displays (render/svg.py)."""
    from .render.svg import view_svg

    return view_svg(self)


def _state_svg(self: GameState) -> str:
    """A state as the spectator's picture, every hand face up and marked so (render/svg.py)."""
    from .render.svg import state_svg

    return state_svg(self)


# The engine draws nothing; the facade, above the render layer, gives its values their pictures.
PlayerView._repr_svg_ = _view_svg  # type: ignore[attr-defined]
GameState._repr_svg_ = _state_svg  # type: ignore[attr-defined]


def new_game(
    profile: Profile | Spec,
    num_players: int,
    seed: int = 0,
    *,
    dealer: int | None = None,
    deck: CardsLike | None = None,
    dealer_draw: CardsLike | None = None,
) -> GameState:
    """Start a match and deal its first round (:func:`unoengine.engine.dealing.new_game`).

    ``profile`` is a :class:`Profile`, or anything :func:`load_profile` takes: a shipped name
    (``"classic-108"``), a TOML path, ``"base+overlay+..."`` or a list of those. ``seed`` makes
    everything reproducible. ``dealer`` skips SETUP-2's draw for the deal; ``dealer_draw``
    fixes that draw (the cards drawn in order: one per seat from seat 0, then one per tied seat
    for each re-draw; :func:`draw_for_dealer` reports a draw card by card). ``deck`` fixes the
    order of the cards for the first deal (top first: the first ``hand_size * num_players``
    cards are dealt one at a time from the dealer's left, the next is turned as the first card);
    it must hold exactly the profile's cards in play.
    """
    return _dealing.new_game(resolve_profile(profile), num_players, seed, dealer=dealer, deck=deck,
                             dealer_draw=dealer_draw)


def from_position(
    profile: Profile | Spec,
    hands: Sequence[CardsLike],
    discard: CardsLike,
    *,
    draw_pile: CardsLike | None = None,
    color: int | None = None,
    direction: int = 1,
    current: int = 0,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    seed: int = 0,
    pending_draw: int = 0,
    phase: Phase | str | None = None,
    drawn: Card | int | str | None = None,
    challenge_color: int | None = None,
    attacker_hand: CardsLike | None = None,
    uno_exposed: int | None = None,
    passes: int = 0,
    known: Iterable[tuple[int, int, CardsLike]] = (),
    round_number: int = 1,
    last_round: RoundResult | Mapping[str, Any] | None = None,
) -> GameState:
    """Build an exact situation in any phase (:func:`unoengine.engine.dealing.from_position`);
    ``profile`` as for :func:`new_game`.

    A player ``current`` is to play an ordinary turn, or, with ``pending_draw``, to answer the
    Draw card on top under stacking (HOUSE-1). ``phase`` names another phase: ``"DRAWN"`` with
    ``drawn`` (PLAY-4/5), ``"CHALLENGE"`` with ``challenge_color`` and optionally
    ``attacker_hand`` (WD4-2/3), ``"CHOOSE_COLOR"`` (SETUP-8), ``"ROUND_OVER"`` or
    ``"MATCH_OVER"`` (END-1, won by ``current``). ``uno_exposed``, ``passes``, ``known``,
    ``round_number`` and ``last_round`` set the rest of the state (docs/api.md). ``hands`` gives
    each player's cards; ``discard`` the discard pile, bottom first (its last card is the top).
    ``draw_pile`` lists the draw pile top first; when omitted, every card of the profile's deck
    not placed elsewhere forms it,
    shuffled from ``seed`` (so cards are conserved). ``color`` is required when the top card is
    a wild, and otherwise must be the top card's colour. Cards may be Card objects, codes, or
    names such as ``"R7"`` (a string of names also works for a whole pile).
    """
    return _dealing.from_position(
        resolve_profile(profile), hands, discard, draw_pile=draw_pile, color=color, direction=direction,
        current=current, dealer=dealer, scores=scores, seed=seed, pending_draw=pending_draw, phase=phase,
        drawn=drawn, challenge_color=challenge_color, attacker_hand=attacker_hand, uno_exposed=uno_exposed,
        passes=passes, known=known, round_number=round_number, last_round=last_round,
    )

__all__ = [
    "BLANK",
    "CARDS",
    "DRAW_TWO",
    "REVERSE",
    "SKIP",
    "WILD",
    "WILD_CUSTOMIZABLE",
    "WILD_DRAW_FOUR",
    "WILD_SHUFFLE_HANDS",
    "WILD_SWAP_HANDS",
    "Accept",
    "CallUno",
    "Card",
    "CatchUno",
    "Challenge",
    "ChooseColor",
    "Color",
    "CustomEffect",
    "DealerDraw",
    "Draw",
    "EffectError",
    "Event",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "MatchInfo",
    "Move",
    "NextRound",
    "NotationError",
    "Pass",
    "PendingChallenge",
    "Phase",
    "Play",
    "PlayerView",
    "PositionError",
    "Profile",
    "ProfileError",
    "ReadOnlyError",
    "RecordError",
    "Reveal",
    "RoundResult",
    "SerializationError",
    "UnoEngineError",
    "apply",
    "apply_with_events",
    "choose_dealer",
    "colored",
    "draw_for_dealer",
    "dumps",
    "events_for",
    "fixed_dealer_draw",
    "format_move",
    "from_json",
    "from_position",
    "hand_points",
    "legal_moves",
    "load_profile",
    "loads",
    "new_game",
    "parse_card",
    "parse_cards",
    "parse_color",
    "parse_move",
    "profile_from_dict",
    "profile_to_toml",
    "register_effect",
    "registered_effects",
    "sample_state",
    "shipped_overlays",
    "shipped_profiles",
    "to_json",
    "view",
]
