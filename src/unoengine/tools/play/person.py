"""The person's move: the numbered menu of their legal moves, a choice by number or typed in
notation, completed by asking what it leaves open (a wild's colour, a target, the UNO call).

This is where what the person types becomes a legal move; a move that cannot be made is
answered with a line saying why (the rule the engine cites), and the person is asked again.
"""

from __future__ import annotations

from typing import Final

from ...engine.cards import COLOR_OF, IS_WILD, SYMBOL_OF, WILD_DRAW_FOUR, WILD_SWAP_HANDS, parse_card
from ...engine.errors import IllegalMoveError, NotationError, UnoEngineError
from ...engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, NextRound, Pass, Play
from ...engine.state import GameState, Phase
from ...engine.transition import apply
from ...engine.view import PlayerView, view
from ...formats.describe import COLOR_NAMES
from ...formats.notation import complete_move_text, format_move, parse_move
from .prompts import Prompter
from .screen import show_table
from .terminal import Terminal

_KEYWORDS: Final = ("draw", "pass", "challenge", "accept", "uno", "deal", "catch", "color", "colour")


class Person:
    """The person at ``seat``: shows them the table and their moves, and reads their choice."""

    def __init__(self, seat: int, term: Terminal, prompts: Prompter) -> None:
        self.seat = seat
        self.term = term
        self.prompts = prompts

    def choose(self, state: GameState, my_turn: bool) -> Move | None:
        """Show the situation and the person's moves; their choice, or None to let the moment pass."""
        v = view(state, self.seat)
        entries = menu(v)
        show_table(self.term, v, my_turn)
        for i, (text, _) in enumerate(entries, 1):
            self.term.say(f"  {i}) {text}")
        if not my_turn:
            self.term.say("  0) let it pass (Enter)")
        low = 1 if my_turn else 0
        while True:
            text = self.term.ask("your move: ")
            if not text:
                if not my_turn:
                    return None
                self.term.say(f"type a move number 1-{len(entries)}, a move such as {_example(v)}, or help")
                continue
            if self.prompts.command(text):
                continue
            if text.isascii() and text.isdigit():
                k = int(text)
                if k == 0 and not my_turn:
                    return None
                if not 1 <= k <= len(entries):
                    self.term.say(f"{k} is not one of the moves {low}-{len(entries)}")
                    continue
                move = entries[k - 1][1]
                return self.complete(v, move) if isinstance(move, Play) else move
            typed = self.typed(state, v, text)
            if typed is not None:
                return typed

    def complete(self, v: PlayerView, move: Play) -> Play:
        """Ask for what a play leaves open: the target, the colour of a wild, the UNO call."""
        options = [m for m in v.legal_moves if isinstance(m, Play) and m.card == move.card]
        if not options:
            return move
        target = move.target
        targets = sorted({m.target for m in options if m.target is not None})
        if target is None and targets:
            target = targets[0] if len(targets) == 1 else self.prompts.ask_target(targets)
        color: int | None = move.color
        if color is None and IS_WILD[move.card]:
            color = self.prompts.ask_color()
        uno = move.uno or (any(m.uno for m in options) and self.prompts.ask_uno())
        return Play(move.player, move.card, color, target, uno)

    def typed(self, state: GameState, v: PlayerView, text: str) -> Move | None:
        """A move typed in notation, completed and checked; None (with a message) if it cannot be made."""
        text = complete_move_text(text, self.seat, v.phase is Phase.CHOOSE_COLOR)
        try:
            move = parse_move(text)
        except NotationError as exc:
            self.term.say(_notation_problem(text, exc))
            return None
        if move.player != self.seat:
            self.term.say(f"you are p{self.seat}: {format_move(move)!r} is a move of p{move.player}")
            return None
        if isinstance(move, Play):
            move = self.complete(v, move)
        if move in v.legal_moves:
            return move
        what = f"{move.card!r} cannot be played now" if isinstance(move, Play) else \
            f"{format_move(move).partition(' ')[2]!r} cannot be made now"
        try:
            apply(state, move)
        except IllegalMoveError as exc:
            self.term.say(f"{what}: {exc.detail} [{exc.rule} {exc.reason}]")
            return None
        except UnoEngineError as exc:
            self.term.say(f"{what}: {exc}")
            return None
        return move


def _example(v: PlayerView) -> str:
    plays = [m for m in v.legal_moves if isinstance(m, Play)]
    return repr(plays[0].card) if plays else "draw"


def _notation_problem(text: str, exc: NotationError) -> str:
    """One line saying what is wrong with a typed move."""
    tokens = text.split()
    if len(tokens) == 2 and tokens[1].lower() not in _KEYWORDS:
        body = tokens[1].removesuffix("!").partition(">")[0].partition(":")[0]
        try:
            parse_card(body)
        except NotationError:
            return (f"{body!r} is not a card: cards are named like R7, GS (skip), BR (reverse), Y+2, W, W+4; "
                    "or type a move number, draw, pass, help")
    message = str(exc)
    _, sep, rest = message.partition("': ")
    return rest if sep else message


def menu(v: PlayerView) -> list[tuple[str, Move]]:
    """The person's legal moves as numbered choices in plain words: a wild's colours, a play's UNO
    call and a Swap Hands' targets are one choice each (asked for when it is chosen)."""
    out: list[tuple[str, Move]] = []
    seen: set[int] = set()
    my_turn = v.current == v.player
    answering = v.phase in (Phase.PENALTY, Phase.CHALLENGE)
    for m in v.legal_moves:
        if isinstance(m, Play):
            if m.card in seen:
                continue
            seen.add(m.card)
            name = repr(m.card)
            if not my_turn:
                text = f"jump in with {name}"
            elif answering:
                extra = 4 if m.card == WILD_DRAW_FOUR else 2
                text = f"stack {name} (the next player faces {v.pending_draw + extra})"
            else:
                text = f"play {name}"
            if IS_WILD[m.card]:
                text += ", naming a colour"
            if m.target is not None:
                verb = "swapping hands with" if m.card == WILD_SWAP_HANDS or SYMBOL_OF[m.card] == 7 else "aimed at"
                text += f", {verb} a player"
            if m.card == WILD_DRAW_FOUR and v.profile.wild_draw_four == "challenge" and v.color is not None and any(
                COLOR_OF[c] == v.color for c in v.hand
            ):
                text += f" (a bluff: you hold {COLOR_NAMES[v.color]})"
            out.append((text, Play(m.player, m.card)))
        elif isinstance(m, Draw):
            out.append(("draw a card", m))
        elif isinstance(m, Pass):
            out.append(("keep the drawn card (end your turn)" if v.phase is Phase.DRAWN
                        else "pass (nothing to play or draw)", m))
        elif isinstance(m, Challenge):
            out.append((f"challenge the Wild Draw Four (bluff: p{v.challenge_attacker} draws {v.pending_draw}; "
                        f"if not, you draw {v.pending_draw + 2})", m))
        elif isinstance(m, Accept):
            out.append((f"accept {v.pending_draw} cards", m))
        elif isinstance(m, ChooseColor):
            out.append((f"name {COLOR_NAMES[m.color]}", m))
        elif isinstance(m, CallUno):
            out.append(("call UNO (late, before anyone catches you)", m))
        elif isinstance(m, CatchUno):
            out.append((f"catch p{m.target} (did not call UNO)", m))
        elif isinstance(m, NextRound):
            out.append(("deal the next round", m))
    return out
