"""The questions put to the person that have a fixed set of answers (yes or no, a colour, a player),
and the commands every question also takes: ``help`` and ``save [FILE]``.

One place for them so each question accepts the commands the same way and says the same when
the answer is not one it expects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ...engine.cards import COLOR_LETTERS
from ...formats.describe import COLOR_NAMES
from .terminal import Terminal

_YES: Final = ("", "y", "yes")
_NO: Final = ("n", "no")
HELP: Final = """\
Type the number of a move, or the move itself in notation (your seat may be left out):
  R7        play a red 7                 W:G       a Wild naming green
  R6!       play it and call UNO         W+4:R!    Wild Draw Four naming red, calling UNO
  WSW:B>p1  Swap Hands with p1           draw / pass / challenge / accept / uno / catch p2 / color G
Cards: R0-R9, RS (skip), RR (reverse), R+2 (likewise Y, G, B), W, W+4, WSH, WSW, WCU, BLK.
Commands: save [FILE] (write the game to resume with --resume FILE), help, quit.
When you may only act out of turn, Enter (or 0) lets the moment pass."""


class Prompter:
    """Asks through ``term``; ``save`` writes the game (to the file given, or None: the default one)."""

    def __init__(self, term: Terminal, save: Callable[[str | None], None]) -> None:
        self.term = term
        self.save = save

    def command(self, text: str) -> bool:
        """Run ``save [FILE]`` or ``help``; False when ``text`` is neither."""
        word, _, rest = text.partition(" ")
        if word.lower() == "help":
            self.term.say(HELP)
            return True
        if word.lower() == "save":
            self.save(rest.strip() or None)
            return True
        return False

    def yes_no(self, prompt: str, hint: str) -> bool:
        """True for yes (or Enter), False for no; ``hint`` follows the answer that is neither."""
        while True:
            answer = self.term.ask(prompt)
            if answer.lower() in _YES:
                return True
            if answer.lower() in _NO:
                return False
            if not self.command(answer):
                self.term.say(f"{answer!r}: {hint}")

    def ask_color(self) -> int:
        while True:
            answer = self.term.ask("colour? r/y/g/b ")
            for k in range(4):
                if answer.lower() in (COLOR_LETTERS[k].lower(), COLOR_NAMES[k], str(k + 1)):
                    return k
            if not self.command(answer):
                self.term.say(f"{answer!r} is not a colour: answer r, y, g or b")

    def ask_uno(self) -> bool:
        return self.yes_no("call UNO? [Y/n] ", "answer y or n")

    def ask_target(self, targets: list[int]) -> int:
        names = "/".join(f"p{t}" for t in targets)
        while True:
            answer = self.term.ask(f"which player? {names} ")
            digits = answer.lower().removeprefix("p")
            if digits.isascii() and digits.isdigit() and int(digits) in targets:
                return int(digits)
            if not self.command(answer):
                self.term.say(f"{answer!r} is not one of {names}")
