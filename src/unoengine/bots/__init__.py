"""Bots: the protocol a bot implements, and the bots that ship with the package (docs/bots.md)."""

from __future__ import annotations

from .base import Bot, BotFactory, bot_names, make_bot, register_bot, register_bot_kind
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .program import ProgramBot
from .random_bot import RandomBot
from .text_bot import TextBot

__all__ = [
    "Bot", "BotFactory", "HeuristicBot", "ISMCTSBot", "ProgramBot", "RandomBot", "TextBot", "bot_names", "make_bot",
    "register_bot", "register_bot_kind",
]
