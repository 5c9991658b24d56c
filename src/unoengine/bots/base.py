"""The bot protocol and the registry of bots by name.

A bot acts from its :class:`~unoengine.PlayerView` alone: the view holds the bot's hand, every
public fact and the bot's legal moves (in turn and out of turn). The runner asks the bot of the
player to act for a move, and offers every other bot that has a legal move the chance to act
out of turn (catch a missed UNO, call a late UNO, jump in). A bot returns one of
``view.legal_moves``, or None to let the moment pass (never on its own turn).

Randomness comes from the ``rng`` the runner passes, so a game is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..engine.moves import Move
from ..engine.view import PlayerView


class Bot(Protocol):
    """Anything with a ``name`` and an ``act`` method is a bot."""

    name: str

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        """One of ``view.legal_moves``, or None (allowed only when it is not this player's turn)."""
        ...

# A bot may also have ``observe(move)``: the runners tell it every move made (bots.turns.tell_bots).
# A bot that needs nothing but its legal moves may also have ``act_on_moves(moves, on_turn, rng)``,
# returning what ``act`` would: bots.turns.next_move then calls it instead and builds no view.


BotFactory = Callable[[], Bot]
"""Makes a fresh bot (one per seat and game, so a bot may keep state during a game)."""

_REGISTRY: dict[str, BotFactory] = {}
_KINDS: dict[str, Callable[[str], Bot]] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by name to ``unoengine simulate`` and :func:`make_bot`."""
    _REGISTRY[name] = factory


def register_bot_kind(prefix: str, maker: Callable[[str], Bot]) -> None:
    """Make ``prefix:ARGUMENT`` a bot name: :func:`make_bot` gives ``maker(ARGUMENT)``
    (``program:node bot.mjs`` is a bot run as another program, bots/program.py)."""
    _KINDS[prefix] = maker


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def is_bot_name(name: str) -> bool:
    """Does :func:`make_bot` know ``name``: a registered bot, or ``kind:ARGUMENT`` of a registered kind?"""
    if name in _REGISTRY:
        return True
    prefix, colon, argument = name.partition(":")
    return bool(colon) and prefix in _KINDS and bool(argument.strip())


def known_bots_text() -> str:
    """The bot names for an error message: the registered bots, then the kinds (``program:...``)."""
    return ", ".join([*bot_names(), *(f"{k}:..." for k in sorted(_KINDS))])


def make_bot(name: str) -> Bot:
    """A fresh bot of a registered kind; ValueError naming the known kinds otherwise."""
    factory = _REGISTRY.get(name)
    if factory is not None:
        return factory()
    prefix, colon, argument = name.partition(":")
    if colon and prefix in _KINDS:
        return _KINDS[prefix](argument)
    raise ValueError(f"unknown bot {name!r}; known bots: {known_bots_text()}")
