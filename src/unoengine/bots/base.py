"""The bot protocol and the registry of bots by name.

A bot acts from its :class:`~unoengine.PlayerView` alone: the view holds the bot's hand, every
public fact and the bot's legal moves (in turn and out of turn). The runner asks the bot of the
player to act for a move, and offers every other bot that has a legal move the chance to act
out of turn (catch a missed UNO, call a late UNO, jump in). A bot returns one of
``view.legal_moves``, or None to let the moment pass (never on its own turn).

Randomness comes from the ``rng`` the runner passes, so a game is reproducible from its seed.
"""

from __future__ import annotations

import importlib.metadata
import random
from collections.abc import Callable
from typing import Final, Protocol

from ..engine.errors import UnoEngineError, one_line, quoted, shown
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

SHIPPED_BOTS: Final = ("heuristic", "ismcts", "random")
"""The bots unoengine ships and registers itself (bots/__init__.py imports them). Their names run
nothing else: the only bot names a file (a saved game) may start on its own (docs/security.md)."""

_REGISTRY: dict[str, BotFactory] = {}
_KINDS: dict[str, Callable[[str], Bot]] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by name to ``unoengine simulate`` and :func:`make_bot`."""
    _REGISTRY[name] = factory


def register_bot_kind(prefix: str, maker: Callable[[str], Bot]) -> None:
    """Make ``prefix:ARGUMENT`` a bot name: :func:`make_bot` gives ``maker(ARGUMENT)``
    (``program:node bot.mjs`` is a bot run as another program, bots/program.py)."""
    _KINDS[prefix] = maker


ENTRY_POINT_GROUP: Final = "unoengine.bots"
"""Installed packages offer bots under this entry-point group: the name is the bot's name, the
value ``module:factory`` (a Bot class, or anything that makes a bot when called)."""


KIND_ENTRY_POINT_GROUP: Final = "unoengine.bot_kinds"
"""Installed packages offer bot *kinds* under this entry-point group: the name is the prefix of
``PREFIX:ARGUMENT`` bot names, the value ``module:maker`` (called with ARGUMENT, it makes the bot).
unoengine itself declares ``policy`` here (envs/learn/bot.py), which needs numpy: loaded only when
a ``policy:...`` name is asked for."""


class PluginError(UnoEngineError, ValueError):
    """An installed bot plugin that cannot be loaded, or whose factory makes no bot: names the
    entry point and the problem. Only that bot fails; the others work."""


def _raised(exc: BaseException) -> str:
    """What a plugin's code raised, on one line; ``sys.exit`` in a plugin is its error too, not
    the end of the run (SystemExit is no Exception, so it would pass every handler silently)."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({shown(exc.code)})"
    return f"raised {type(exc).__name__}: {one_line(exc)}"


def checked_bot(bot: object, where: str) -> Bot:
    """``bot`` if it can play: an ``act`` method and a ``name`` that is a non-empty string (the
    name every error and table shows); :class:`PluginError` naming ``where`` otherwise."""
    if not callable(getattr(bot, "act", None)):
        raise PluginError(f"{where}: made {shown(bot, 60)}, which has no act method")
    name = getattr(bot, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise PluginError(f"{where}: made a {type(bot).__name__} whose name is {shown(name, 60)}, "
                          "not a non-empty string")
    return bot  # type: ignore[return-value]


def _plugin_names() -> list[str]:
    """The bot names installed packages offer (ENTRY_POINT_GROUP), unloaded."""
    return sorted({ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)})


def _load_plugin(name: str) -> BotFactory | None:
    """Register the installed plugin bot ``name`` and return its factory; None if none is installed.
    Called only for a name not already known, so a plugin never shadows a shipped or registered bot."""
    found = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name))
    if not found:
        return None
    point = found[0]
    where = f"bot plugin {quoted(name)} ({point.value} in group {ENTRY_POINT_GROUP})"
    try:
        factory = point.load()
    except (Exception, SystemExit) as exc:  # a broken plugin is that bot's error, not a traceback
        raise PluginError(f"{where}: cannot be loaded: {type(exc).__name__}: {one_line(exc)}") from None
    if not callable(factory):
        raise PluginError(f"{where}: is not a Bot class or a factory (got {type(factory).__name__})")

    def make() -> Bot:
        try:
            bot = factory()
        except (Exception, SystemExit) as exc:
            raise PluginError(f"{where}: making the bot {_raised(exc)}") from None
        return checked_bot(bot, where)

    _REGISTRY[name] = make
    return make


def _kind(prefix: str) -> Callable[[str], Bot] | None:
    """The maker of ``prefix:...`` bots: a registered kind, else one an installed package declares
    (KIND_ENTRY_POINT_GROUP), loaded and registered now; None if there is none."""
    maker = _KINDS.get(prefix)
    if maker is not None:
        return maker
    found = list(importlib.metadata.entry_points(group=KIND_ENTRY_POINT_GROUP, name=prefix))
    if not found:
        return None
    point = found[0]
    try:
        loaded = point.load()
    except (Exception, SystemExit) as exc:  # a kind whose module cannot load (an extra not installed): its error
        raise PluginError(f"bot kind {quoted(prefix)} ({point.value} in group {KIND_ENTRY_POINT_GROUP}): "
                          f"cannot be loaded: {type(exc).__name__}: {one_line(exc)}") from None
    if not callable(loaded):
        raise PluginError(f"bot kind {quoted(prefix)} ({point.value}): is not callable")
    _KINDS[prefix] = loaded
    return loaded  # type: ignore[no-any-return]


def _kind_names() -> list[str]:
    return sorted({*_KINDS, *(ep.name for ep in importlib.metadata.entry_points(group=KIND_ENTRY_POINT_GROUP))})


def bot_names() -> list[str]:
    """The registered bots and the ones installed packages offer (docs/bots.md, "Bots from other packages")."""
    return sorted({*_REGISTRY, *_plugin_names()})


def is_bot_name(name: str) -> bool:
    """Does :func:`make_bot` know ``name``: a registered bot, or ``kind:ARGUMENT`` of a registered kind?"""
    if name in _REGISTRY:
        return True
    prefix, colon, argument = name.partition(":")
    if colon:
        return bool(argument.strip()) and _kind(prefix) is not None
    return _load_plugin(name) is not None  # loaded now, so a broken plugin is told before any game


def known_bots_text() -> str:
    """The bot names for an error message: the registered bots, then the kinds (``program:...``)."""
    return ", ".join([*bot_names(), *(f"{k}:..." for k in _kind_names())])


def make_bot(name: str) -> Bot:
    """A fresh bot of a registered kind; ValueError naming the known kinds otherwise."""
    factory = _REGISTRY.get(name)
    if factory is not None:
        return factory()
    prefix, colon, argument = name.partition(":")
    maker = _kind(prefix) if colon else None
    if maker is not None:
        try:
            bot = maker(argument)
        except SystemExit as exc:
            raise PluginError(f"bot kind {quoted(prefix)}: making the bot {_raised(exc)}") from None
        return checked_bot(bot, f"bot kind {quoted(prefix)}")
    plugin = None if colon else _load_plugin(name)
    if plugin is not None:
        return plugin()
    raise ValueError(f"unknown bot {name!r}; known bots: {known_bots_text()}")
