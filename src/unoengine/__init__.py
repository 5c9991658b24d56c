"""unoengine: UNO rules as an immutable state machine with declarative rule profiles.

>>> import unoengine
>>> state = unoengine.new_game("classic-108", 4, seed=1)
>>> moves = unoengine.legal_moves(state)
>>> state = unoengine.apply(state, moves[0])

See README.md and docs/ for the guides and the rule reference.
"""

from __future__ import annotations

from .cards import (
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
from .composition import load_profile
from .dealing import choose_dealer, from_position, new_game
from .determinize import sample_state
from .effects import CustomEffect, register_effect, registered_effects
from .errors import (
    EffectError,
    IllegalMoveError,
    NotationError,
    PositionError,
    ProfileError,
    RecordError,
    SerializationError,
    UnoEngineError,
)
from .events import Event, events_for
from .legality import legal_moves
from .moves import (
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
from .notation import format_move, parse_move
from .profile import Profile
from .profile_file import profile_from_dict, profile_to_toml, shipped_overlays, shipped_profiles
from .record import GameRecord
from .scoring import hand_points
from .serialize import dumps, from_json, loads, to_json
from .state import GameState, MatchInfo, PendingChallenge, Phase, Reveal, RoundResult
from .transition import apply, apply_with_events
from .view import PlayerView, view

__version__ = "0.1.0"

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
    "RecordError",
    "Reveal",
    "RoundResult",
    "SerializationError",
    "UnoEngineError",
    "apply",
    "apply_with_events",
    "choose_dealer",
    "colored",
    "dumps",
    "events_for",
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
