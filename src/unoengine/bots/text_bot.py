"""``TextBot``: any ``callable(prompt) -> str`` (a language model, a script, a person at a prompt)
as a bot, so it plays in ``simulate``, ``tournament`` and over the wire protocol.

Each decision is one prompt (formats/prompt_text.py) and one answer, read back by
formats/answer_parsing.py. An answer that names no legal move is sent back with the reason for
``retries`` more tries (one by default); then the fallback decides: ``random`` (a random legal
move, drawn from the runner's ``rng``, so games stay reproducible from their seed) or
``forfeit`` (the bot gives up: :class:`Forfeit`, a BotError naming its seat). Out of turn, a
fallback only lets the moment pass. Every retry and fallback is counted in :attr:`TextBot.stats`.

By name, ``text:MODULE:CALLABLE`` (or ``text-forfeit:MODULE:CALLABLE``) imports the callable, so
``unoengine simulate --bots text:mypkg.llm:ask,heuristic`` and
``python -m unoengine.tools.bot_server text:mypkg.llm:ask`` work in any process.
"""

from __future__ import annotations

import importlib
import random
from collections import deque
from collections.abc import Callable
from typing import Final, Literal

import attrs

from ..engine.errors import UnoEngineError, one_line, quoted
from ..engine.moves import Move
from ..engine.view import PlayerView
from ..formats.answer_parsing import AnswerError, parse_answer
from ..formats.prompt_text import MAX_RECENT, prompt_text, recent_line
from .base import PluginError, register_bot_kind
from .turns import BotError

Fallback = Literal["random", "forfeit"]
FALLBACKS: Final = ("random", "forfeit")
Ask = Callable[[str], str]


class TextBotError(UnoEngineError):
    """A TextBot made with a bad argument (``ask``, ``fallback``, ``retries``): names it."""


class Forfeit(BotError):
    """A text player that gave no legal move after its retries, under ``fallback="forfeit"``."""


@attrs.define
class TextStats:
    """What a text player's answers cost: prompts asked, answers refused (retried), fallbacks."""

    prompts: int = 0
    refused: int = 0
    fallbacks: int = 0
    forfeits: int = 0
    last_reason: str | None = None
    """The reason the last refused answer was given (for the report)."""

    def line(self) -> str:
        """One line for a report: ``40 prompts, 3 answers refused, 1 fallback``."""
        text = f"{self.prompts} prompts, {self.refused} answers refused, {self.fallbacks} fallbacks"
        return text + (f", {self.forfeits} forfeits" if self.forfeits else "")


class TextBot:
    """A bot that asks ``ask(prompt)`` for each decision (see the module docstring)."""

    def __init__(self, ask: Ask, *, fallback: Fallback = "random", retries: int = 1, name: str = "text") -> None:
        if not callable(ask):
            raise TextBotError(f"ask must be a callable(prompt) -> str, got {type(ask).__name__}")
        if fallback not in FALLBACKS:
            raise TextBotError(f"fallback must be one of {', '.join(FALLBACKS)}, got {quoted(str(fallback))}")
        if type(retries) is not int or not 0 <= retries <= 10:
            raise TextBotError(f"retries must be an int from 0 to 10, got {retries!r}")
        self.ask = ask
        self.fallback = fallback
        self.retries = retries
        self.name = name
        self.stats = TextStats()
        self.recent: deque[str] = deque(maxlen=MAX_RECENT)

    def observe(self, move: Move) -> None:
        """Remember the move in words for the next prompt's "Last moves" (moves are public)."""
        self.recent.append(recent_line(move))

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        prompt = prompt_text(view, self.recent)
        for attempt in range(self.retries + 1):
            self.stats.prompts += 1
            answer = self.ask(prompt)
            try:
                return parse_answer(answer, view)
            except AnswerError as exc:
                self.stats.refused += 1
                self.stats.last_reason = exc.reason
                if attempt == 0:
                    prompt += "\n"
                prompt += f"\nYour answer was not accepted: {exc.reason}. Answer again with one move in brackets."
        return self._fall_back(view, rng)

    def _fall_back(self, view: PlayerView, rng: random.Random) -> Move | None:
        self.stats.fallbacks += 1
        if not view.my_turn:
            return None
        if self.fallback == "random":
            return rng.choice(view.legal_moves)
        self.stats.forfeits += 1
        raise Forfeit(f"text bot {quoted(self.name, 80)} at seat {view.player} forfeits: no legal move after "
                      f"{self.retries + 1} answers (last: {self.stats.last_reason})", seat=view.player)


def load_ask(target: str) -> Ask:
    """The callable ``MODULE:NAME`` names; PluginError naming the problem otherwise."""
    module, colon, attribute = target.strip().partition(":")
    where = f"text bot {quoted(target, 80)}"
    if not colon or not module or not attribute:
        raise PluginError(f"{where}: expected MODULE:CALLABLE, such as text:mypkg.llm:ask")
    try:
        found = getattr(importlib.import_module(module), attribute)
    except Exception as exc:  # an import that fails is this bot's error, not a traceback
        raise PluginError(f"{where}: cannot be loaded: {type(exc).__name__}: {one_line(exc)}") from None
    if not callable(found):
        raise PluginError(f"{where}: {attribute} is not callable (a {type(found).__name__})")
    return found  # type: ignore[no-any-return]


def text_bot(target: str) -> TextBot:
    """``text:MODULE:CALLABLE`` as a bot: a random legal move after a second bad answer."""
    return TextBot(load_ask(target), name=f"text:{target}")


def forfeiting_text_bot(target: str) -> TextBot:
    """``text-forfeit:MODULE:CALLABLE``: the same bot, forfeiting instead."""
    return TextBot(load_ask(target), fallback="forfeit", name=f"text-forfeit:{target}")


register_bot_kind("text", text_bot)
register_bot_kind("text-forfeit", forfeiting_text_bot)
