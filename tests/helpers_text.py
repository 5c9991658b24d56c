"""Scripted text players (``callable(prompt) -> str``) for the text-interface tests: importable by
name (``text:helpers_text:first_label``) in simulate workers and in the bot server's process."""

from __future__ import annotations

import re

_LABEL = re.compile(r"^  \[(\d+)\] (\S+) (\S+)", re.M)


def moves_of(prompt: str) -> list[tuple[str, str]]:
    """The labelled moves a prompt lists: (label, notation)."""
    return [(label, f"{seat} {action}") for label, seat, action in _LABEL.findall(prompt)]


def first_label(prompt: str) -> str:
    """Always the first listed move, by label in brackets inside a sentence."""
    moves = moves_of(prompt)
    return f"I will take [{moves[0][0]}] now." if moves else "[wait]"


def last_notation(prompt: str) -> str:
    """The last listed move in notation, without brackets."""
    moves = moves_of(prompt)
    return moves[-1][1] if moves else "wait"


def nonsense(prompt: str) -> str:
    """Never a move."""
    return "I like turtles"
