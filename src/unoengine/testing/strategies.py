"""Hypothesis strategies for unoengine: profiles, games, reachable states and moves.

They draw what the engine's own property tests draw: any shipped base with random overlays
and option changes, any player count the profile allows, states reached by legal random play,
and moves that are legal, illegal, or merely well formed.
"""

from __future__ import annotations

import random
from typing import Any, Final

import attrs
from hypothesis import strategies as st

from ..engine.cards import CARDS, Color
from ..engine.dealing import new_game
from ..engine.errors import ProfileError
from ..engine.legality import legal_moves
from ..engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, NextRound, Pass, Play
from ..engine.profile import Profile
from ..engine.state import GameState
from ..engine.transition import apply
from ..formats.composition import load_profile
from ..formats.profile_file import shipped_overlays, shipped_profiles

OPTION_VALUES: Final[dict[str, tuple[Any, ...]]] = {
    "wild_draw_four": ("challenge", "enforced", "unrestricted"),
    "decline_to_play": (True, False),
    "first_card_wild_draw_four": ("redraw", "apply"),
    "scoring": ("winner-takes-others", "own-hand-lowest-wins", "one-point-per-round"),
    "blank_cards": ("set-aside", "wild"),
    "next_dealer": ("left", "winner"),
    "two_player_reverse": ("reverse", "skip"),
    "custom_effect": ("wild", "swap-hands", "shuffle-hands", "others-draw-one"),
    "uno_penalty": (2, 4, 0, 1),
    "hand_size": (7, 1, 2, 3, 10),
    "seven_zero": (False, True),
    "draw_until_playable": (False, True),
    "stacking": ("off", "same-kind", "cross", "equal-or-higher"),
    "jump_in": (False, True),
}
"""Every rule option of a Profile with the values worth drawing (HOUSE-1..8, WD4-6, SETUP-9/11,
SCORE-2..4, DECK-4, ACT-8); the first value of each is the common one."""


def option_changes() -> st.SearchStrategy[dict[str, Any]]:
    """Any combination of rule options changed; an option left out keeps the profile's value."""
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPTION_VALUES.items()})


@st.composite
def profiles(draw: st.DrawFn, *, bases: tuple[str, ...] | None = None, max_overlays: int = 3,
             options: bool = True) -> Profile:
    """A shipped base with up to ``max_overlays`` shipped overlays (a contradicting draw keeps the
    base alone) and, with ``options``, random option changes on top."""
    base = draw(st.sampled_from(bases or tuple(shipped_profiles())))
    chosen = draw(st.lists(st.sampled_from(shipped_overlays()), max_size=max_overlays, unique=True))
    try:
        profile = load_profile([base, *chosen])
    except ProfileError:
        profile = load_profile(base)
    if options:
        profile = attrs.evolve(profile, **draw(option_changes()))
    return profile


@st.composite
def games(draw: st.DrawFn, profile: st.SearchStrategy[Profile] | None = None,
          players: st.SearchStrategy[int] | None = None) -> GameState:
    """A freshly dealt game: a profile, a player count it allows, a seed."""
    prof = draw(profile if profile is not None else profiles())
    n = draw(players if players is not None else st.integers(prof.min_players, prof.max_players))
    return new_game(prof, n, seed=draw(st.integers(0, 2**64 - 1)))


@st.composite
def states(draw: st.DrawFn, game: st.SearchStrategy[GameState] | None = None, max_moves: int = 300) -> GameState:
    """A state reached from a fresh game by up to ``max_moves`` random legal moves."""
    state = draw(game if game is not None else games())
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, max_moves))):
        moves = legal_moves(state)
        if not moves:
            break
        state = apply(state, rng.choice(moves))
    return state


def moves(num_players: int) -> st.SearchStrategy[Move]:
    """Any well-formed move of ``num_players`` seats, legal or not."""
    seats = st.integers(0, num_players - 1)
    colours = st.sampled_from(list(Color))
    return st.one_of(
        st.builds(Play, seats, st.sampled_from(CARDS), st.none() | colours, st.none() | seats, st.booleans()),
        st.builds(Draw, seats), st.builds(Pass, seats), st.builds(Challenge, seats), st.builds(Accept, seats),
        st.builds(CallUno, seats), st.builds(CatchUno, seats, seats), st.builds(ChooseColor, seats, colours),
        st.builds(NextRound, seats),
    )


def legal_moves_in(state: GameState) -> st.SearchStrategy[Move]:
    """One of the legal moves of ``state`` (nothing once the match is over)."""
    legal = legal_moves(state)
    return st.sampled_from(legal) if legal else st.nothing()


def illegal_moves_in(state: GameState) -> st.SearchStrategy[Move]:
    """A well-formed move that is not legal in ``state``."""
    legal = set(legal_moves(state))
    return moves(state.num_players).filter(lambda m: m not in legal)
