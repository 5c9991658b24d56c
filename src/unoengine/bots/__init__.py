"""Bots: the protocol a bot implements, and the bots that ship with the package (docs/bots.md)."""

from __future__ import annotations

from .base import Bot, BotFactory, bot_names, make_bot, register_bot
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

__all__ = ["Bot", "BotFactory", "HeuristicBot", "ISMCTSBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
