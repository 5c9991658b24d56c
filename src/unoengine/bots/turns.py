"""Whose move it is, and asking their bot: the one turn order every runner uses.

The simulation runner, the terminal game and the testing kit all ask bots through
:func:`next_move`, so an out-of-turn move (a catch, a late UNO call, a jump-in) reaches the game
the same way everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Sequence
from itertools import repeat
from operator import is_

from ..engine.errors import UnoEngineError, quoted, shown
from ..engine.legality import forget_legal_moves, legal_moves, only_current_may_act, remember_legal_moves
from ..engine.moves import Move
from ..engine.state import GameState
from ..engine.view import view
from .base import Bot


class BotError(UnoEngineError):
    """A bot that returned something that is not one of its legal moves, raised, or (a program
    bot) did not answer in time, exited, or spoke something else than the protocol: names the bot
    and seat. ``seat`` is that seat when one bot is to blame (None for a game that ran too long,
    or that no bot moved in), so a run can report which seat failed (tools/simulate.py)."""

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


def bot_label(bot: object) -> str:
    """A bot's name for a message, quoted and shortened, whatever its ``name`` holds."""
    name = getattr(bot, "name", None)
    return quoted(name, 80) if isinstance(name, str) else shown(name)


def raised_by(label: str, seat: int, exc: BaseException) -> BotError:
    """The BotError of a bot's own code raising ``exc`` (in act, observe or its factory): the bot
    (``label``, from :func:`bot_label`) and its seat, then the exception's type and its message
    on one line, shortened."""
    try:
        text = " ".join(str(exc).split())
    except Exception:  # an exception whose message cannot be made
        text = "(no message)"
    return BotError(f"bot {label} at seat {seat} raised {type(exc).__name__}: "
                    f"{text if len(text) <= 200 else text[:197] + '...'}", seat=seat)


def tell_bots(seats: Sequence[Bot], move: Move) -> None:
    """After a move is made: every bot with an ``observe(move)`` method is told it (moves are public:
    a Draw names no card), so a bot may keep its own history; runners call this after each move."""
    for bot in seats:
        observe = getattr(bot, "observe", None)
        if observe is not None:
            observe(move)


def next_move(state: GameState, seats: Sequence[Bot], rngs: Sequence[random.Random]) -> Move:
    """The next move: every other bot with an out-of-turn move may act first, in seat order after
    the player to act; then the player to act (or, after a round, the next dealer)."""
    legal = legal_moves(state)
    forget_legal_moves()  # the bots below must not find the state in legality's memo
    current = state.current
    alone = only_current_may_act(state)  # the common case: one bot to ask, holding every legal move
    if alone:
        order: Sequence[int] = (current,)
        acting: Container[int] = order
    else:
        n = len(seats)
        acting = {m.player for m in legal}
        order = [(current + k) % n for k in range(1, n)] + [current]
    for q in order:
        if q not in acting:
            continue
        bot = seats[q]
        act_on_moves: Callable[[tuple[Move, ...], bool, random.Random], Move | None] | None = getattr(
            bot, "act_on_moves", None)
        if act_on_moves is not None:  # the bot needs no view (bots/base.py): give it its moves
            # legal_moves(state, q), in its order
            mine = tuple(legal) if alone else tuple(m for m in legal if m.player == q)
            on_turn = q == current or state.round_over
        else:
            v = view(state, q)
            mine = v.legal_moves
        try:
            move = act_on_moves(mine, on_turn, rngs[q]) if act_on_moves is not None else bot.act(v, rngs[q])
        except BotError as exc:  # a program bot (bots/program.py): its message names the seat
            if exc.seat is None:
                exc.seat = q
            raise
        except (Exception, SystemExit) as exc:  # the bot's own code failed (sys.exit too): blame the seat
            raise raised_by(bot_label(bot), q, exc) from exc
        if move is None:
            if q == current and not state.round_over:
                raise BotError(f"bot {bot_label(bot)} at seat {q} made no move on its turn", seat=q)
            continue
        # most bots return one of the very objects they were given: look for it by identity
        # first (no Python-level comparison), then by value
        if not any(map(is_, mine, repeat(move))) and move not in mine:
            raise BotError(f"bot {bot_label(bot)} at seat {q} returned {shown(move, 120)}, which is not legal",
                           seat=q)
        remember_legal_moves(state, legal)  # the bots are done: apply need not check the move again
        return move
    asked = ", ".join(f"{seats[q].name!r} at seat {q}" for q in order if q in acting)
    raise BotError(f"no bot made a move in {state!r}; asked: {asked or 'nobody (no legal move)'}")
