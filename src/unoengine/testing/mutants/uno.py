"""Mutants of calling UNO: the call, the catch window, who may catch and the penalty (UNO rules).

Each mutant's docstring names the rule it breaks and how; see :mod:`.base` for the patching.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...engine import draft, legality, transition
from ...engine.cards import DRAW_TWO
from ...engine.errors import IllegalMoveError
from ...engine.moves import Accept, CallUno, CatchUno, Draw, Move, Play
from ...engine.state import GameState, Phase
from .base import draw_counts, evolve, is_symbol, mutant, original, replaced_item, wrapped_handler


@mutant("called-uno-still-exposed", "UNO-1", "UNO-2", seam="transition._HANDLERS[Play]")
def _called_uno_still_exposed() -> Iterator[None]:
    """UNO-1 broken: a player who called UNO with the next-to-last card may still be caught."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if move.uno and new.phase < Phase.ROUND_OVER and len(new.hands[move.player]) == 1:
            return evolve(new, uno_exposed=move.player)
        return new

    yield from wrapped_handler(Play, after)


@mutant("uno-penalty-always-two", "UNO-2", "HOUSE-8", seam="draft.Draft.draw (rule UNO-2)")
def _uno_penalty_always_two() -> Iterator[None]:
    """UNO-2/HOUSE-8 broken: a player caught without calling UNO draws 2 whatever the profile's
    penalty (4 under uno-penalty-4 and mattel-42003)."""
    yield from draw_counts({"UNO-2": lambda count: 2})


@mutant("catcher-draws-the-penalty", "UNO-2", seam="transition._HANDLERS[CatchUno]")
def _catcher_draws_the_penalty() -> Iterator[None]:
    """UNO-2 broken: the player who catches a missed UNO call draws the penalty, not the player
    caught."""
    original(transition, "_HANDLERS", CatchUno)

    def catch_uno(state: GameState, move: Move, log: Any) -> GameState:
        d = draft.Draft(state, log)
        d.uno_exposed = -1
        d.draw(move.player, d.profile.uno_penalty, "UNO-2")
        return d.freeze()

    with replaced_item(transition, "_HANDLERS", CatchUno, catch_uno):
        yield


@mutant("uno-window-opens-a-card-early", "UNO-3", seam="transition._HANDLERS[Play]")
def _uno_window_opens_a_card_early() -> Iterator[None]:
    """UNO-3 broken: a player who plays down to two cards may already be caught, before the
    next-to-last card is on the discard pile."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if new.phase < Phase.ROUND_OVER and len(new.hands[move.player]) == 2 and new.uno_exposed < 0:
            return evolve(new, uno_exposed=move.player)
        return new

    yield from wrapped_handler(Play, after)


@mutant("late-call-not-safe", "UNO-4", seam="transition._HANDLERS[CallUno]")
def _late_call_not_safe() -> Iterator[None]:
    """UNO-4 broken: calling UNO late, before anyone catches you, does not make you safe."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        return evolve(new, uno_exposed=before.uno_exposed)

    yield from wrapped_handler(CallUno, after)


@mutant("uno-window-survives-draw", "UNO-5", seam="transition._HANDLERS[Draw]")
def _uno_window_survives_draw() -> Iterator[None]:
    """UNO-5 broken: drawing does not count as beginning the turn, so the player who missed the
    call may still be caught after the next player drew."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        return evolve(new, uno_exposed=before.uno_exposed)

    yield from wrapped_handler(Draw, after)


@mutant("only-the-next-player-may-catch", "UNO-6", seam="legality._CHECKS[CatchUno]")
def _only_the_next_player_may_catch() -> Iterator[None]:
    """UNO-6 broken: only the player after the one who missed the call may catch them, not any
    other player."""
    real: Callable[[GameState, Move], None] = original(legality, "_CHECKS", CatchUno)

    def check(state: GameState, move: Move) -> None:
        real(state, move)
        exposed = state.uno_exposed
        if move.player != (exposed + state.direction) % len(state.hands):
            raise IllegalMoveError(move, "UNO-6", "not-next-player", "only the next player may catch")

    with replaced_item(legality, "_CHECKS", CatchUno, check):
        yield


@mutant("uno-window-closes-on-penalty", "UNO-7", seam="transition._HANDLERS[Play]")
def _uno_window_closes_on_penalty() -> Iterator[None]:
    """UNO-7 broken: when a Draw Two's victim draws and is skipped, the catch window closes at once
    instead of staying open until the next player begins their turn."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if is_symbol(move.card, DRAW_TWO) and new.uno_exposed == move.player and new.phase is Phase.PLAY:
            return evolve(new, uno_exposed=-1)
        return new

    yield from wrapped_handler(Play, after)


@mutant("accepting-closes-the-uno-window", "UNO-7", "UNO-5", seam="transition._HANDLERS[Accept]")
def _accepting_closes_the_uno_window() -> Iterator[None]:
    """UNO-7 broken: accepting a Wild Draw Four (or a stack) counts as beginning a turn, so the
    player who missed the call can no longer be caught, although a victim who draws at once
    (no challenge, no stacking) leaves the window open."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if new.uno_exposed >= 0:
            return evolve(new, uno_exposed=-1)
        return new

    yield from wrapped_handler(Accept, after)
