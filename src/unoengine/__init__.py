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
from .effects import CustomEffect, register_effect, registered_effects
from .errors import (
    EffectError,
    IllegalMoveError,
    NotationError,
    PositionError,
    ProfileError,
    UnoEngineError,
)
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
from .profile import Profile
from .profile_file import profile_from_dict, profile_to_toml, shipped_overlays, shipped_profiles
from .scoring import hand_points
from .state import GameState, MatchInfo, PendingChallenge, Phase, Reveal, RoundResult
from .transition import apply
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
    "Reveal",
    "RoundResult",
    "UnoEngineError",
    "apply",
    "choose_dealer",
    "colored",
    "from_position",
    "hand_points",
    "legal_moves",
    "load_profile",
    "new_game",
    "parse_card",
    "parse_cards",
    "parse_color",
    "profile_from_dict",
    "profile_to_toml",
    "register_effect",
    "registered_effects",
    "shipped_overlays",
    "shipped_profiles",
    "view",
]
