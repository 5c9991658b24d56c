"""Option values and help shared by every command of the command line, so that one rule holds
for all of them (``--seed`` is read the same by ``simulate``, ``tournament``, ``play`` and ``demo``)."""

from __future__ import annotations

import argparse
from typing import Final

from ..engine.dealing import SEED_LIMIT

SEED_RANGE: Final = "an integer from 0 to 2**64 - 1"
"""What every ``--seed`` takes: the seeds of the engine and of game records (engine/dealing.py)."""


def seed(text: str) -> int:
    """An argparse ``type``: a seed in SEED_RANGE, else the one-line usage error (exit 2)."""
    digits = text.strip()
    value = int(digits) if len(digits) <= 40 and digits.isdecimal() and digits.isascii() else -1
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"must be {SEED_RANGE}, got {text[:40]!r}")
    return value


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 seating``, ``2 seatings`` (``words`` when the plural is not ``word`` + s)."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows an option's default once: ``(default: X)`` is added only when the help does
    not already say what the default is, and never for an option that is off or unset by default."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        unset = action.default is None or action.default is False or action.default == argparse.SUPPRESS
        if "default" in text or unset or not action.option_strings or action.nargs == 0:
            return text
        return text + " (default: %(default)s)"
