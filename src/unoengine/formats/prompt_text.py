"""A player's view as a prompt for a text player (a language model, a script): the table in plain
sentences, the last moves in words, and the legal moves each with a short label and its notation.

The same facts as a JSON value (:func:`prompt_json`) serve tool-calling agents. Both are built
from the :class:`~unoengine.PlayerView` alone, so they hold nothing its player may not know; the
labels number ``view.legal_moves`` in its own order, which :mod:`.answer_parsing` reads back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..engine.cards import IS_WILD
from ..engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, NextRound, Pass, Play
from ..engine.state import Phase
from ..engine.view import PlayerView
from .describe import COLOR_NAMES
from .notation import format_move
from .serialize.writing import to_json

WAIT_LABEL: Final = "0"
"""The label of letting an out-of-turn moment pass (``[0]`` or ``[wait]``)."""

MAX_RECENT: Final = 8
"""The most recent moves a prompt recalls: enough to see the round's last lap at ten players."""


def may_wait(v: PlayerView) -> bool:
    """May the player let this moment pass (it acts out of turn, UNO-2 / UNO-4 / HOUSE-2)?"""
    return not v.my_turn


def labelled_moves(v: PlayerView) -> list[tuple[str, Move]]:
    """The legal moves with their labels ``1``, ``2``, ... in ``view.legal_moves`` order."""
    return [(str(k), m) for k, m in enumerate(v.legal_moves, 1)]


def move_words(move: Move, v: PlayerView | None = None) -> str:
    """What ``move`` does, in words, in the third person: ``plays W naming red and calls UNO``.
    With the view of the player making it, a Pass or a stacked Draw card reads as in that moment."""
    if isinstance(move, Play):
        jump = v is not None and v.phase < Phase.ROUND_OVER and v.current != move.player
        text = f"{'jumps in with' if jump else 'plays'} {move.card!r}"
        if IS_WILD[move.card] and move.color is not None:
            text += f" naming {COLOR_NAMES[move.color]}"
        if move.target is not None:
            text += f" and swaps hands with p{move.target}"
        return text + (" and calls UNO" if move.uno else "")
    if isinstance(move, Draw):
        return "draws a card"
    if isinstance(move, Pass):
        return "keeps the drawn card" if v is not None and v.phase is Phase.DRAWN else "passes"
    if isinstance(move, Challenge):
        return "challenges the Wild Draw Four"
    if isinstance(move, Accept):
        return f"accepts {v.pending_draw} cards" if v is not None else "accepts the cards"
    if isinstance(move, CallUno):
        return "calls UNO"
    if isinstance(move, CatchUno):
        return f"catches p{move.target} not calling UNO"
    if isinstance(move, ChooseColor):
        return f"names {COLOR_NAMES[move.color]}"
    if isinstance(move, NextRound):
        return "deals the next round"
    return format_move(move)


_IMPERATIVE: Final = {"plays": "play", "jumps": "jump", "draws": "draw", "keeps": "keep", "passes": "pass",
                      "challenges": "challenge", "accepts": "accept", "calls": "call", "catches": "catch",
                      "names": "name", "deals": "deal", "swaps": "swap"}


def _imperative(words: str) -> str:
    """``plays R7 and calls UNO`` -> ``play R7 and call UNO``."""
    return " ".join(_IMPERATIVE.get(w, w) for w in words.split(" "))


def recent_line(move: Move, v: PlayerView | None = None) -> str:
    """One line of the recent moves: ``p2 plays G+2`` (``v``: the mover's view, if known)."""
    return f"p{move.player} {move_words(move, v)}"


def prompt_text(v: PlayerView, recent: Sequence[str] = ()) -> str:
    """The prompt of ``v``'s player: the table, ``recent`` (the last moves in words, oldest
    first; only the last MAX_RECENT are shown), and the legal moves with their labels."""
    me = v.player
    lines = [f"You are p{me} in a game of UNO ({v.profile.name}, {v.num_players} players), round "
             f"{v.round_number}; dealer p{v.dealer}; scores {_scores(v)} (target {v.profile.target_score})."]
    lines.append(_whose(v))
    if not v.round_over:
        colour = COLOR_NAMES[v.color] if v.color is not None else "not named yet"
        way = "clockwise" if v.direction > 0 else "counter-clockwise"
        order = " -> ".join(f"p{(v.current + v.direction * k) % v.num_players}" for k in range(v.num_players))
        lines.append(f"Top card {v.top_card!r}, colour {colour}. Play goes {way}: {order}. "
                     f"Draw pile {v.draw_pile_size} cards.")
    lines.append("Cards in hand: " + ", ".join(_seat(v, p, size) for p, size in enumerate(v.hand_sizes)) + ".")
    for owner, cards in v.known:
        if owner != me and cards:
            lines.append(f"You know p{owner} holds {' '.join(map(repr, cards))}.")
    lines.append(f"Your hand: {' '.join(map(repr, v.hand)) or '(empty)'}.")
    lines.extend(_open(v))
    shown = list(recent)[-MAX_RECENT:]
    if shown:
        lines.append("Last moves: " + "; ".join(shown) + ".")
    lines.append("Your moves:")
    for label, move in labelled_moves(v):
        lines.append(f"  [{label}] {format_move(move):<16} {_imperative(move_words(move, v))}")
    if may_wait(v):
        lines.append(f"  [{WAIT_LABEL}] wait             let the moment pass")
    lines.append(ANSWER_HINT)
    return "\n".join(lines)


ANSWER_HINT: Final = ("Answer with one move in brackets: its label such as [1], or its notation such as "
                      "[R7] or [W:G!] (a colour after ':' names it, '!' calls UNO).")


def _scores(v: PlayerView) -> str:
    return " ".join(f"p{p} {s}" for p, s in enumerate(v.scores))


def _whose(v: PlayerView) -> str:
    if v.match_winner is not None:
        return f"The match is over: p{v.match_winner} won it."
    last = v.last_round
    if v.round_over and last is not None:
        return f"The round is over: p{last.winner} won it. " + (
            "You deal the next round." if v.my_turn else "Another player deals the next round.")
    if v.my_turn:
        return "It is your turn."
    return f"It is p{v.current}'s turn; you may act out of turn now, or wait."


def _seat(v: PlayerView, p: int, size: int) -> str:
    name = f"p{p} (you)" if p == v.player else f"p{p}"
    text = f"{name} {size}"
    if p == v.uno_exposed:
        text += " (did not call UNO: may be caught)"
    return text


def _open(v: PlayerView) -> list[str]:
    """The open windows and decisions beyond the move list (PLAY-4, WD4-3, ACT-3, UNO-2)."""
    out: list[str] = []
    mine = v.my_turn and not v.round_over
    if v.phase is Phase.DRAWN and mine and v.drawn_card is not None:
        out.append(f"You drew {v.drawn_card!r}: play it or keep it.")
    elif v.phase is Phase.CHALLENGE:
        who = "you" if mine else f"p{v.current}"
        out.append(f"p{v.challenge_attacker} played {v.top_card!r} on {who}: a challenge is open "
                   f"(accept {v.pending_draw} cards, or challenge it as a bluff).")
    elif v.phase is Phase.PENALTY:
        who = "You face" if mine else f"p{v.current} faces"
        out.append(f"{who} {v.pending_draw} cards: stack a Draw card or accept them.")
    elif v.phase is Phase.CHOOSE_COLOR and mine:
        out.append("The first card is a wild: name its colour.")
    if v.uno_exposed is not None and not v.round_over:
        if v.uno_exposed == v.player:
            out.append("You did not call UNO: call it now before someone catches you.")
        else:
            out.append(f"A catch is open: p{v.uno_exposed} did not call UNO.")
    return out


def prompt_json(v: PlayerView, recent: Sequence[str] = ()) -> dict[str, Any]:
    """The prompt as a JSON value for tool-calling agents: the view document (formats/serialize),
    the labelled legal moves with their notation and words, the recent moves, and whether the
    player may wait. The answer is ``{"move": "<label or notation>"}`` (or a text answer)."""
    moves = [{"label": label, "move": format_move(m), "text": _imperative(move_words(m, v))}
             for label, m in labelled_moves(v)]
    return {"player": v.player, "view": to_json(v), "legal_moves": moves, "may_wait": may_wait(v),
            "recent": list(recent)[-MAX_RECENT:], "answer": ANSWER_HINT}
