"""A text player's answer read back as one of its legal moves.

An answer may be a label of the prompt (``3``), a move in notation with or without the seat
(``p0 R7``, ``R7``), ``wait`` (or ``0``) out of turn, any of these in brackets inside free text
(``... so I play [R7]``: the *last* bracketed part counts, so a player may weigh several before
choosing), or a JSON object ``{"move": "..."}``. Anything else is an :class:`AnswerError` whose
``reason`` says, in words meant for the player, what was wrong, so it can answer again.

Untrusted text is bounded: an answer longer than MAX_ANSWER_CHARS is refused unread, and what
is quoted back is shortened and escaped (no control character is echoed raw).
"""

from __future__ import annotations

import re
from typing import Final

from ..engine.cards import IS_WILD
from ..engine.errors import NotationError, SerializationError, UnoEngineError, quoted
from ..engine.limits import MAX_ANSWER_CHARS, MAX_MOVE_TEXT
from ..engine.moves import Move, Play
from ..engine.state import Phase
from ..engine.view import PlayerView
from .notation import complete_move_text, format_move, parse_move
from .prompt_text import WAIT_LABEL, labelled_moves, may_wait
from .serialize.parsing import parse_json


class AnswerError(UnoEngineError):
    """An answer that names none of the player's legal moves; ``reason`` is the why, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"answer: {reason}")
        self.reason = reason


_BRACKETED: Final = re.compile(rf"\[([^\[\]\n]{{1,{MAX_MOVE_TEXT}}})\]")
_WAIT_WORDS: Final = frozenset({WAIT_LABEL, "wait", "none", "pass the moment", "let it pass"})
_TRIM: Final = " \t\r\n.,;:?`'\"*"  # never '!': it calls UNO


def parse_answer(answer: object, v: PlayerView) -> Move | None:
    """The legal move ``answer`` names for ``v``'s player, or None for letting an out-of-turn
    moment pass; :class:`AnswerError` otherwise (its ``reason`` for the player)."""
    if not isinstance(answer, str):
        raise AnswerError(f"an answer is text, got {type(answer).__name__}")
    if len(answer) > MAX_ANSWER_CHARS:
        raise AnswerError(f"the answer has {len(answer):,} characters, more than the {MAX_ANSWER_CHARS:,} "
                          "read: answer briefly with one move in brackets such as [1]")
    text = answer.strip()
    if not text:
        raise AnswerError("the answer is empty: answer with one move in brackets such as [1]")
    if text.startswith("{"):
        return _resolve(_json_move(text), v)
    found = _BRACKETED.findall(text)
    if found:
        return _resolve(found[-1], v)
    if len(text) > MAX_MOVE_TEXT:
        raise AnswerError("no move found: put your move in brackets, such as [1] or [R7]")
    return _resolve(text, v)


def _json_move(text: str) -> str:
    try:
        value = parse_json(text, "answer")
    except SerializationError as exc:
        raise AnswerError(f"the JSON answer cannot be read ({exc.problem})") from None
    move = value.get("move") if isinstance(value, dict) else None
    if not isinstance(move, str):
        raise AnswerError('a JSON answer is an object {"move": "<label or notation>"}')
    return move


def _resolve(candidate: str, v: PlayerView) -> Move | None:
    """The move one candidate text names (a label, ``wait``, or notation)."""
    word = candidate.strip(_TRIM)
    low = word.lower()
    if low in _WAIT_WORDS:
        if may_wait(v):
            return None
        raise AnswerError("it is your move to make: waiting is only for moments out of turn")
    labels = labelled_moves(v)
    if word.isascii() and word.isdigit():
        k = int(word) if len(word) <= 6 else 0
        if 1 <= k <= len(labels):
            return labels[k - 1][1]
        last = f"[{len(labels)}]" if labels else "none"
        raise AnswerError(f"there is no move [{word[:8]}]: the labels run from [1] to {last}")
    word = complete_move_text(word, v.player, v.phase is Phase.CHOOSE_COLOR)
    try:
        move = parse_move(word)
    except NotationError as exc:
        raise AnswerError(f"{quoted(candidate)} is not a label or a move: {_after_quote(str(exc))}") from None
    if move.player != v.player:
        raise AnswerError(f"you are p{v.player}: {format_move(move)!r} is a move of p{move.player}")
    if move in v.legal_moves:
        return move
    raise AnswerError(_why_not(move, v))


def _after_quote(message: str) -> str:
    """A notation error without its opening quote of the move (already shown)."""
    _, sep, rest = message.partition("': ")
    return rest if sep else message


def _why_not(move: Move, v: PlayerView) -> str:
    """Why a well-formed move of this player is not one of its legal moves, as far as the view says."""
    text = format_move(move)
    if isinstance(move, Play):
        if move.card not in v.hand:
            return f"{text!r}: you do not hold {move.card!r}"
        same = [m for m in v.legal_moves if isinstance(m, Play) and m.card == move.card]
        if not same:
            return f"{text!r}: {move.card!r} cannot be played now"
        if IS_WILD[move.card] and move.color is None:
            return f"{text!r}: a wild needs its colour, such as [{format_move(same[0]).partition(' ')[2]}]"
        if move.target is None and same[0].target is not None:
            return f"{text!r}: name whom it targets, such as [{format_move(same[0]).partition(' ')[2]}]"
    return f"{text!r} is not one of your legal moves now"
