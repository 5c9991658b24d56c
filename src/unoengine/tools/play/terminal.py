"""The terminal: lines out and lines in, and players, cards and colours named as the person sees them.

Everything the game prints or reads goes through one :class:`Terminal`, so the ANSI colours are
switched on or off in one place, and the end of the input or a typed ``quit`` stops the game the
same way whatever question was asked.
"""

from __future__ import annotations

from typing import Final, TextIO

from ...engine.cards import CARDS, COLOR_OF, IS_WILD
from ...formats.describe import COLOR_NAMES

_ANSI: Final = ("\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[34m")
_BOLD: Final = "\x1b[1m"
_RESET: Final = "\x1b[0m"
_QUIT: Final = ("quit", "exit", "q")


class Quit(Exception):
    """The player quit, or the input ended."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Terminal:
    """The person's streams, whether to colour, and their seat (named "you")."""

    def __init__(self, stdin: TextIO, stdout: TextIO, color: bool, seat: int) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.color = color
        self.seat = seat

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input, stripped; Quit at the end of the input or on quit."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise Quit("\nend of input: goodbye")
        text = line.strip()
        if text.lower() in _QUIT:
            raise Quit("goodbye")
        return text

    def card(self, card: int) -> str:
        name = repr(CARDS[card])
        if not self.color:
            return name
        return f"{_BOLD if IS_WILD[card] else _ANSI[COLOR_OF[card]]}{name}{_RESET}"

    def color_name(self, color: int) -> str:
        name = COLOR_NAMES[color]
        return f"{_ANSI[color]}{name}{_RESET}" if self.color else name

    def who(self, player: int) -> str:
        return "you" if player == self.seat else f"p{player}"
