"""Mutants of the house rules: stacking, jump-in, seven-zero, draw to match, forced play and the
two-player Reverse (HOUSE rules).

Each mutant's docstring names the rule it breaks and how; see :mod:`.base` for the patching.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...engine import draft, legality, transition
from ...engine.cards import IS_WILD, REVERSE, SYMBOL_OF, WILD_DRAW_FOUR
from ...engine.moves import Accept, Move, Play
from ...engine.state import GameState, Phase
from .base import (
    evolve,
    first_card_rules,
    is_symbol,
    mutant,
    original,
    replaced,
    replaced_item,
    turn_rules,
    wrapped_handler,
)


@mutant("stack-total-off-by-one", "HOUSE-1", seam="transition._face_penalty")
def _stack_total_off_by_one() -> Iterator[None]:
    """HOUSE-1 broken: answering a Draw card with another adds one card fewer to the total (a Draw
    Two on a pending 2 makes 3, not 4)."""
    real: Callable[[draft.Draft, int, int], None] = original(transition, "_face_penalty")

    def face_penalty(d: draft.Draft, victim: int, total: int) -> None:
        real(d, victim, total - 1 if d.pending_draw else total)

    with replaced(transition, "_face_penalty", face_penalty):
        yield


@mutant("same-kind-stacking-crosses", "HOUSE-1", seam="legality.STACKS_ON")
def _same_kind_stacking_crosses() -> Iterator[None]:
    """HOUSE-1 broken: the same-kind variant lets a Wild Draw Four answer a Draw Two and a Draw Two
    answer a Wild Draw Four (it plays as cross-stacking)."""
    cross = original(legality, "STACKS_ON", "cross")
    with replaced_item(legality, "STACKS_ON", "same-kind", cross):
        yield


@mutant("equal-or-higher-lets-draw-two-answer-four", "HOUSE-1", seam="legality.STACKS_ON")
def _equal_or_higher_lets_draw_two_answer_four() -> Iterator[None]:
    """HOUSE-1 broken: under the equal-or-higher variant (Show 'em No Mercy) a Draw Two may answer
    a Wild Draw Four."""
    cross = original(legality, "STACKS_ON", "cross")
    with replaced_item(legality, "STACKS_ON", "equal-or-higher", cross):
        yield


@mutant("stack-victim-keeps-turn", "HOUSE-1", seam="transition._HANDLERS[Accept]")
def _stack_victim_keeps_turn() -> Iterator[None]:
    """HOUSE-1 broken: under stacking, the player who accepts the pending total draws it but is
    not skipped."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if before.phase is Phase.PENALTY and new.phase is Phase.PLAY:
            return evolve(new, current=move.player)
        return new

    yield from wrapped_handler(Accept, after)


@mutant("jump-in-on-same-number", "HOUSE-2", seam="legality._check_jump_in")
def _jump_in_on_same_number() -> Iterator[None]:
    """HOUSE-2 broken: a player may jump in with a card of the top card's number or symbol in any
    colour, not only with an identical card."""
    real: Callable[[GameState, Play], None] = original(legality, "_check_jump_in")

    def check_jump_in(state: GameState, move: Play) -> None:
        card, top = move.card, state.discard[0]
        if (state.phase in legality.JUMP_IN_PHASES and card in state.hands[move.player]
                and not IS_WILD[top] and is_symbol(card, SYMBOL_OF[top])):
            return
        real(state, move)

    with replaced(legality, "_check_jump_in", check_jump_in):
        yield


@mutant("jump-in-turn-goes-on-from-the-skipped", "HOUSE-2", seam="transition._HANDLERS[Play]")
def _jump_in_turn_goes_on_from_the_skipped() -> Iterator[None]:
    """HOUSE-2 broken: after a jump-in with a number card, play goes on from the player who was to
    act, not from the player who jumped in."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if (move.player != before.current and new.phase is Phase.PLAY
                and not IS_WILD[move.card] and SYMBOL_OF[move.card] <= 9):
            return evolve(new, current=(before.current + new.direction) % len(new.hands))
        return new

    yield from wrapped_handler(Play, after)


@mutant("jump-in-while-a-challenge-is-pending", "HOUSE-2", seam="legality.JUMP_IN_PHASES")
def _jump_in_while_a_challenge_is_pending() -> Iterator[None]:
    """HOUSE-2 broken: a player may jump in while a Wild Draw Four awaits its challenge decision
    (or a first wild its colour)."""
    phases = (*original(legality, "JUMP_IN_PHASES"), Phase.CHALLENGE, Phase.CHOOSE_COLOR)
    with replaced(legality, "JUMP_IN_PHASES", phases):
        yield


@mutant("seven-zero-passes-backwards", "HOUSE-3", seam="transition._seven_zero")
def _seven_zero_passes_backwards() -> Iterator[None]:
    """HOUSE-3 broken: a 0 passes every hand against the direction of play instead of with it."""
    real: Callable[[draft.Draft, int, int, int | None], None] = original(transition, "_seven_zero")

    def seven_zero(d: draft.Draft, p: int, symbol: int, target: int | None) -> None:
        if symbol != 0:
            real(d, p, symbol, target)
            return
        d.direction = -d.direction
        try:
            real(d, p, symbol, target)
        finally:
            d.direction = -d.direction

    with replaced(transition, "_seven_zero", seven_zero):
        yield


@mutant("draw-until-playable-draws-one", "HOUSE-4", seam="transition._draw_until_playable")
def _draw_until_playable_draws_one() -> Iterator[None]:
    """HOUSE-4 broken: under draw-to-match the player draws one card and stops, playable or not."""
    original(transition, "_draw_until_playable")

    def draw_until_playable(state: GameState, p: int, log: Any) -> GameState:
        d = draft.Draft(state, log)
        d.uno_exposed = -1
        d.passes = 0
        (card,) = d.draw(p, 1, "HOUSE-4")
        d.phase = Phase.DRAWN
        d.drawn = card
        return d.freeze()

    with replaced(transition, "_draw_until_playable", draw_until_playable):
        yield


@mutant("forced-play-allows-declining", "HOUSE-5", seam="legality.may_draw")
def _forced_play_allows_declining() -> Iterator[None]:
    """HOUSE-5 broken: under forced play a player who can play may still draw instead."""
    real: Callable[[GameState, bool], Any] = original(legality, "may_draw")

    def may_draw(state: GameState, playable: bool) -> Any:
        block = real(state, playable)
        return None if block == legality.MUST_PLAY_NOT_DRAW else block

    with replaced(legality, "may_draw", may_draw):
        yield


@mutant("two-player-reverse-not-skip", "HOUSE-6", "ACT-2", seam="transition.turn_after")
def _two_player_reverse_not_skip() -> Iterator[None]:
    """HOUSE-6 broken: with two players and the two-player rule on, a Reverse passes the turn to
    the other player instead of acting as a Skip."""
    yield from turn_rules(lambda profile, n, p, direction, symbol:
                           ((p - direction) % n, -direction) if symbol == REVERSE and n == 2 else None)


@mutant("first-wild-draw-four-colour-named-by-first-player", "HOUSE-7", seam="dealing._first_card")
def _first_wild_draw_four_colour_named_by_first_player() -> Iterator[None]:
    """HOUSE-7 broken (its RULING): when a first Wild Draw Four applies, the first player names the
    colour (and the player after them draws the 4), instead of the dealer naming it."""

    def after(state: GameState, dealer: int) -> GameState:
        if state.discard[0] == WILD_DRAW_FOUR and state.phase is Phase.CHOOSE_COLOR:
            return evolve(state, current=(dealer + 1) % len(state.hands))
        return state

    yield from first_card_rules(after)
