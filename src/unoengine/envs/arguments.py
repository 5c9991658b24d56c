"""The checks on the environments' arguments: each bad one is an ActionError naming it.

The environments take their arguments from a learner's code and from framework factories
(``gymnasium.make``, ``pettingzoo.make``, ``pyspiel.load_game``) that pass them through as given,
so each is checked for its type and range before anything is built: a seed a numpy generator
would refuse with its own error, a float where a count belongs, NaN where a reward belongs. A
value is shown in a message briefly (:func:`~unoengine.engine.errors.shown`), whatever its size.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Mapping
from typing import Any, Final

from ..engine.errors import shown
from ..engine.moves import MAX_PLAYERS
from ..engine.profile import Profile
from .actions import ActionError

SEED_LIMIT: Final = 2**64
"""Seeds are 0 .. 2**64 - 1, as ``new_game`` takes them."""


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    """ActionError naming ``name`` unless ``value`` is one of ``choices`` (the adapters' options)."""
    if type(value) is not str or value not in choices:
        raise ActionError(f"{name}: expected one of {', '.join(choices)}, got {shown(value)}")


def check_players(profile: Profile, num_players: object, name: str = "num_players") -> int:
    """``num_players`` if the profile deals to that many (SETUP-1), else ActionError naming ``name``."""
    if type(num_players) is not int:
        raise ActionError(f"{name}: expected an int, got {shown(num_players)}")
    lo, hi = max(2, profile.min_players), min(profile.max_players, MAX_PLAYERS)
    if not lo <= num_players <= hi:
        raise ActionError(f"{name}: profile {profile.name!r} is for {lo} to {hi} players, got {num_players}")
    return num_players


def check_seed(seed: object, name: str = "seed") -> int | None:
    """None, or ``seed`` as an int 0 .. 2**64 - 1 (a numpy integer too); ActionError naming ``name``
    for anything else: a negative, a float, a bool, a larger int."""
    if seed is None:
        return None
    if isinstance(seed, bool):
        value = None
    else:
        try:
            value = operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            value = None
    if value is None or not 0 <= value < SEED_LIMIT:
        raise ActionError(f"{name}: expected None or an int from 0 to 2**64 - 1, got {shown(seed)}")
    return value


def check_count(name: str, value: object, *, optional: bool = False) -> int | None:
    """A positive int (None too when ``optional``); ActionError naming ``name`` otherwise."""
    if value is None and optional:
        return None
    if type(value) is not int or value < 1:
        raise ActionError(f"{name}: expected {'None or ' if optional else ''}a positive int, got {shown(value)}")
    return value


def check_max_steps(value: object, auto: int, name: str = "max_steps") -> int | None:
    """The episode cap ``max_steps`` asks for: ``auto`` (the environment's default cap,
    :mod:`.step_cap`) for ``"auto"``, None (no cap) for None, or the positive int itself;
    ActionError naming ``name`` for anything else (0, a float, a bool, another string)."""
    if value is None:
        return None
    if type(value) is str and value == "auto":
        return auto
    if type(value) is not int or value < 1:
        raise ActionError(f"{name}: expected 'auto', None or a positive int, got {shown(value)}")
    return value


def check_finite(name: str, value: object) -> float:
    """``value`` as a float, when it is a real number that is neither NaN nor infinite (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ActionError(f"{name}: expected a finite number, got {shown(value)}")
    return float(value)


def check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ActionError(f"{name}: expected True or False, got {shown(value)}")
    return value


def check_options(options: object, known: tuple[str, ...] | None, name: str = "reset options") -> Mapping[str, Any]:
    """``options`` of a ``reset``: None (no options) or a mapping, whose keys are all ``known``
    unless that is None (PettingZoo's API test passes a key of its own and expects it ignored)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ActionError(f"{name}: expected None or a dict, got {shown(options)}")
    if known is not None:
        for key in options:
            if key not in known:
                raise ActionError(f"{name}: unknown option {shown(key)} (known: {', '.join(known)})")
    return options


def check_keywords(unknown: Mapping[str, Any], known: tuple[str, ...]) -> None:
    """ActionError naming the keyword arguments a constructor does not take (a factory such as
    ``gymnasium.make`` passes them through), and the ones it does."""
    if unknown:
        names = ", ".join(shown(k, 30) for k in list(unknown)[:5])
        raise ActionError(f"arguments: unknown {names}; expected {', '.join(known)}")
