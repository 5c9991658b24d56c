"""Scripted text players (``callable(prompt) -> str``) for the text-interface tests: importable by
name (``text:helpers_text:first_label``) in simulate workers and in the bot server's process."""

from __future__ import annotations

import re

import unoengine as u

_LABEL = re.compile(r"^  \[(\d+)\] (p\d+(?: \S+)*?) {2,}", re.M)
"""A labelled move of a prompt: its notation is its words up to the gap before what it does
(``  [1] p1 catch p2      catch p2 ...``); the ``[0] wait`` line is no move."""


def moves_of(prompt: str) -> list[tuple[str, str]]:
    """The labelled moves a prompt lists: (label, notation)."""
    return _LABEL.findall(prompt)


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


TURN_HANDS = ("R6 G4 G7 G7 GR B+2 W", "R3 Y1 Y3 G2 B2 B4 BR", "Y3 Y9 Y+2 G1 G8 B5 W")
"""The hands of :func:`turn_view`'s table."""


def turn_view() -> u.PlayerView:
    """p2 on turn, dealer p1: hand Y3 Y9 Y+2 G1 G8 B5 W on R4 (moves: W in four colours, draw),
    a draw pile of 86. Set out card by card (once a seeded deal), so no change of shuffle moves it."""
    state = u.from_position("classic-108", list(TURN_HANDS), "R4", current=2, dealer=1, seed=4)
    return u.view(state, 2)


FICKLE_LOG: list[str] = []
"""What :func:`fickle` answered, in order: ``"move"``, ``"nonsense"`` or ``"nonsense-again"``."""


def fickle(prompt: str) -> str:
    """Nonsense to every prompt whose length is a multiple of 3 and to every other retry (so some
    retries are answered and some fall back), else the first move listed; logs what it did in
    FICKLE_LOG so a test can count it independently of the bot."""
    retry = "not accepted" in prompt
    if (retry and FICKLE_LOG.count("nonsense") % 2) or (not retry and len(prompt) % 3 == 0):
        FICKLE_LOG.append("nonsense-again" if retry else "nonsense")
        return "I like turtles"
    FICKLE_LOG.append("move")
    return first_label(prompt)
