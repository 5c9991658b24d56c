"""Mutants of this engine: each one wrong rule a real buggy engine might have, for the mutation score.

A corpus that passes on a correct engine proves little unless it also fails on wrong ones. Each
:class:`Mutant` here breaks one rule of the catalogue (its ``rules``, main one first) by patching
one engine function, handler or table in ``unoengine.engine`` while it is active, and putting
it back afterwards; :func:`mutation_report` runs the conformance corpus under each one through
the shipped :class:`~unoengine.tools.conformance.EngineAdapter` and names the scenarios that
catch it (docs/conformance.md, "Mutation score").

The patches are process-wide (module attributes and tables), so use one mutant at a time and
never from several threads. Each names its ``seam`` (the module attribute it patches); when the
engine's internals move, a mutant whose seam is gone raises :class:`MutantSeamError` instead of
silently testing nothing, and its docstring says what it breaks, so it can be pointed at the new
place. Run ``python -m unoengine.testing.mutants`` for the table.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from types import ModuleType
from typing import Any, Final

import attrs

from ..engine import dealing, draft, legality, scoring, transition
from ..engine import profile as profile_module
from ..engine.cards import (
    COLOR_OF,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    IS_WILD,
    NUM_CARD_CODES,
    REVERSE,
    SKIP,
    SYMBOL_OF,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    Card,
)
from ..engine.errors import IllegalMoveError, UnoEngineError
from ..engine.moves import Accept, CallUno, CatchUno, Challenge, Draw, Move, Pass, Play
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..tools.conformance import Adapter, EngineAdapter, load_scenarios, run, shipped_corpus

Handler = Callable[[GameState, Move, Any], GameState]
"""A transition handler: state, move and the event log (or None)."""


class MutantError(UnoEngineError):
    """A mutant that cannot be had: a name no mutant has (or, as MutantSeamError, a seam that moved)."""


class MutantSeamError(MutantError):
    """A mutant's seam (the engine attribute it patches) is gone: the engine's internals moved."""


@attrs.frozen
class Mutant:
    """One deliberately wrong rule. ``active()`` is a context manager: inside it the engine is
    wrong in exactly this way; on leaving it the engine is restored, even after an exception."""

    name: str
    rules: tuple[str, ...]
    """The rule IDs it breaks, main one first."""
    seam: str
    """Where it patches the engine (``module.attribute``), to re-point it if that moves."""
    description: str
    make: Callable[[], AbstractContextManager[None]] = attrs.field(repr=False)

    def active(self) -> AbstractContextManager[None]:
        return self.make()


MUTANTS: list[Mutant] = []
"""Every mutant, in the order they are defined below."""


Body = Callable[[], Iterator[None]]
"""A mutant's body: a generator that patches the engine, yields once, and restores it."""


def _mutant(name: str, *rules: str, seam: str) -> Callable[[Body], Body]:
    """Register a generator as a mutant; its docstring is the mutant's description."""

    def register(body: Body) -> Body:
        MUTANTS.append(Mutant(name, rules, seam, inspect.cleandoc(body.__doc__ or ""), contextmanager(body)))
        return body

    return register


def by_name(name: str) -> Mutant:
    """The mutant called ``name`` (:class:`MutantError` lists the names when there is none)."""
    for m in MUTANTS:
        if m.name == name:
            return m
    raise MutantError(f"there is no mutant {name!r}; known: {', '.join(m.name for m in MUTANTS)}")


# --- patching ---------------------------------------------------------------------------------
def _original(module: ModuleType, name: str, key: Any = None) -> Any:
    """The engine's current ``module.name`` (or ``module.name[key]``), or MutantSeamError."""
    if not hasattr(module, name):
        raise MutantSeamError(f"{module.__name__} has no {name}: the engine moved; re-point the mutant")
    value = getattr(module, name)
    if key is None:
        return value
    if not isinstance(value, dict) or key not in value:
        raise MutantSeamError(f"{module.__name__}.{name} has no entry {key!r}: the engine moved; re-point the mutant")
    return value[key]


@contextmanager
def _replaced(owner: Any, name: str, value: Any) -> Iterator[None]:
    """``owner.name`` is ``value`` inside; the legality memo is emptied on the way in and out, so
    no list of legal moves made by one engine is trusted by the other."""
    if not hasattr(owner, name):
        raise MutantSeamError(f"{owner.__name__} has no {name}: the engine moved; re-point the mutant")
    old = getattr(owner, name)
    setattr(owner, name, value)
    legality.forget_legal_moves()
    try:
        yield
    finally:
        setattr(owner, name, old)
        legality.forget_legal_moves()


@contextmanager
def _replaced_item(module: ModuleType, name: str, key: Any, value: Any) -> Iterator[None]:
    """``module.name[key]`` (a dict the engine looks entries up in) is ``value`` inside."""
    table = _original(module, name)
    old = _original(module, name, key)
    table[key] = value
    legality.forget_legal_moves()
    try:
        yield
    finally:
        table[key] = old
        legality.forget_legal_moves()


def _evolve(state: GameState, **changes: Any) -> GameState:
    return attrs.evolve(state, **changes)


def _turn_rules(change: Callable[[Profile, int, int, int, int], tuple[int, int] | None]) -> Iterator[None]:
    """Patch ``transition.turn_after`` (who plays next after a card): ``change`` returns the wrong
    (current, direction), or None to keep the engine's answer."""
    real: Callable[[Profile, int, int, int, int], tuple[int, int]] = _original(transition, "turn_after")

    def turn_after(profile: Profile, n: int, p: int, direction: int, symbol: int) -> tuple[int, int]:
        wrong = change(profile, n, p, direction, symbol)
        return real(profile, n, p, direction, symbol) if wrong is None else wrong

    with _replaced(transition, "turn_after", turn_after):
        yield


After = Callable[[GameState, Move, GameState, Any], GameState]
"""``after(before, move, new, log)``: the wrong next state from the right one (``log`` as given)."""


def _wrapped_handler(move_type: type, after: After) -> Iterator[None]:
    """Patch the transition handler of ``move_type`` with ``after`` applied to its result."""
    real: Handler = _original(transition, "_HANDLERS", move_type)

    def handler(state: GameState, move: Move, log: Any) -> GameState:
        return after(state, move, real(state, move, log), log)

    with _replaced_item(transition, "_HANDLERS", move_type, handler):
        yield


def _draw_counts(change: Mapping[str, Callable[[int], int]]) -> Iterator[None]:
    """Patch ``Draft.draw`` (every draw the rules make, named by the rule that makes it): a draw
    made under a rule of ``change`` takes the wrong number of cards."""
    real = _original(draft, "Draft").draw

    def draw(self: draft.Draft, player: int, count: int, rule: str, *, report: bool = True) -> list[Card]:
        wrong = change[rule](count) if rule in change else count
        result: list[Card] = real(self, player, wrong, rule, report=report)
        return result

    with _replaced(draft.Draft, "draw", draw):
        yield


def _first_card_rules(after: Callable[[GameState, int], GameState]) -> Iterator[None]:
    """Patch ``dealing._first_card`` (turning the first card, SETUP-3..10): ``after(state, dealer)``
    gives the wrong start of the round from the right one."""
    real: Callable[[draft.Draft, int], GameState] = _original(dealing, "_first_card")

    def first_card(d: draft.Draft, dealer: int) -> GameState:
        return after(real(d, dealer), dealer)

    with _replaced(dealing, "_first_card", first_card):
        yield


def _is_symbol(card: int, symbol: int) -> bool:
    return not IS_WILD[card] and SYMBOL_OF[card] == symbol


# --- Wild Draw Four and challenges -----------------------------------------------------------
@_mutant("anyone-may-challenge", "WD4-3", seam="legality._CHECKS[Challenge]")
def _anyone_may_challenge() -> Iterator[None]:
    """WD4-3 broken: any player, not only the one who must draw the 4, may challenge a Wild Draw
    Four (the engine never checks who the challenger is)."""
    real: Callable[[GameState, Move], None] = _original(legality, "_CHECKS", Challenge)

    def check(state: GameState, move: Move) -> None:
        if state.phase is not Phase.CHALLENGE:
            real(state, move)

    with _replaced_item(legality, "_CHECKS", Challenge, check):
        yield


@_mutant("innocent-challenger-draws-four", "WD4-5", seam="transition.CHALLENGE_EXTRA")
def _innocent_challenger_draws_four() -> Iterator[None]:
    """WD4-5 broken: the challenger of an innocent Wild Draw Four draws only the 4, not 4 + 2."""
    with _replaced(transition, "CHALLENGE_EXTRA", 0):
        yield


@_mutant("guilty-attacker-draws-nothing", "WD4-4", seam="draft.Draft.draw (rule WD4-4)")
def _guilty_attacker_draws_nothing() -> Iterator[None]:
    """WD4-4 broken: a challenge that finds the Wild Draw Four illegal costs its player nothing
    (the guilty player does not draw the 4)."""
    yield from _draw_counts({"WD4-4": lambda count: 0})


@_mutant("guilty-verdict-skips-challenger", "WD4-4", seam="transition._HANDLERS[Challenge]")
def _guilty_verdict_skips_challenger() -> Iterator[None]:
    """WD4-4 broken (its RULING): after a successful challenge the challenger loses the turn, as if
    they had drawn, instead of playing on in the named colour."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        pending = before.challenge
        if pending is None or not pending.bluff or new.phase is not Phase.PLAY:
            return new
        return _evolve(new, current=(pending.victim + new.direction) % len(new.hands))

    yield from _wrapped_handler(Challenge, after)


@_mutant("innocent-challenger-keeps-turn", "WD4-5", seam="transition._HANDLERS[Challenge]")
def _innocent_challenger_keeps_turn() -> Iterator[None]:
    """WD4-5 broken: the challenger of an innocent Wild Draw Four draws the 6 but is not skipped."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        pending = before.challenge
        if pending is None or pending.bluff or new.phase is not Phase.PLAY:
            return new
        return _evolve(new, current=pending.victim)

    yield from _wrapped_handler(Challenge, after)


@_mutant("wd4-refused-when-any-card-playable", "WD4-1", "WD4-2", seam="legality.playable_cards")
def _wd4_refused_when_any_card_playable() -> Iterator[None]:
    """WD4-1 broken: a Wild Draw Four may be played only when no other card can be (RLCard's
    rule), instead of whenever the player holds no card of the colour in play; under challenges
    this also takes away the bluff of WD4-2."""
    real: Callable[[GameState], list[int]] = _original(legality, "playable_cards")

    def playable_cards(state: GameState) -> list[int]:
        out = real(state)
        if WILD_DRAW_FOUR in out and any(c != WILD_DRAW_FOUR for c in out):
            out.remove(WILD_DRAW_FOUR)
        return out

    with _replaced(legality, "playable_cards", playable_cards):
        yield


@_mutant("wd4-restriction-ignored", "WD4-1", "WD4-6", seam="legality.wild_draw_four_forbidden")
def _wd4_restriction_ignored() -> Iterator[None]:
    """WD4-1/WD4-6 broken: with the restriction enforced (no bluffing), a Wild Draw Four may still
    be played while holding the colour in play."""

    def wild_draw_four_forbidden(profile: Profile, hand: tuple[Card, ...], color: int) -> bool:
        return False

    with _replaced(legality, "wild_draw_four_forbidden", wild_draw_four_forbidden):
        yield


# --- playing and drawing ---------------------------------------------------------------------
def _matches_table(wrong: Callable[[int, int, int, bool], bool]) -> Iterator[None]:
    """Patch ``legality.MATCHES[top][color][card]`` (what may go on what, PLAY-1..3)."""
    real: Sequence[Sequence[Sequence[bool]]] = _original(legality, "MATCHES")
    table = tuple(
        tuple(tuple(wrong(top, color, card, real[top][color][card]) for card in range(NUM_CARD_CODES))
              for color in range(4))
        for top in range(NUM_CARD_CODES)
    )
    with _replaced(legality, "MATCHES", table):
        yield


@_mutant("named-colour-ignored", "PLAY-1", "ACT-4", seam="legality.MATCHES")
def _named_colour_ignored() -> Iterator[None]:
    """PLAY-1/ACT-4 broken: after a wild any card may be played, as if the colour it named did not
    bind the next player."""
    yield from _matches_table(lambda top, color, card, right: right or IS_WILD[top])


@_mutant("action-symbol-does-not-match", "PLAY-2", seam="legality.MATCHES")
def _action_symbol_does_not_match() -> Iterator[None]:
    """PLAY-2 broken: a Skip, Reverse or Draw Two may not be played on the same symbol of another
    colour (only numbers match by face)."""

    def wrong(top: int, color: int, card: int, right: bool) -> bool:
        return right and not (not IS_WILD[card] and SYMBOL_OF[card] >= SKIP and COLOR_OF[card] != color)

    yield from _matches_table(wrong)


@_mutant("no-decline-to-play", "PLAY-5", seam="legality.may_draw")
def _no_decline_to_play() -> Iterator[None]:
    """PLAY-5 broken: a player who holds a playable card may not draw instead, whatever the profile
    says (every table plays forced play, HOUSE-5)."""
    real: Callable[[GameState, bool], Any] = _original(legality, "may_draw")

    def may_draw(state: GameState, playable: bool) -> Any:
        block = real(state, playable)
        if block is None and playable:
            return legality.MUST_PLAY_NOT_DRAW
        return block

    with _replaced(legality, "may_draw", may_draw):
        yield


@_mutant("any-card-after-drawing", "PLAY-5", "PLAY-4", seam="legality.playable_cards")
def _any_card_after_drawing() -> Iterator[None]:
    """PLAY-5 broken: after drawing, the player may play any playable card of the hand, not only
    the card just drawn."""
    real: Callable[[GameState], list[int]] = _original(legality, "playable_cards")

    def playable_cards(state: GameState) -> list[int]:
        if state.phase is Phase.DRAWN:
            return real(_evolve(state, phase=Phase.PLAY, drawn=None))
        return real(state)

    with _replaced(legality, "playable_cards", playable_cards):
        yield


@_mutant("drawn-card-auto-played", "PLAY-4", "PLAY-5", seam="transition._HANDLERS[Draw]")
def _drawn_card_auto_played() -> Iterator[None]:
    """PLAY-4 broken: a drawn card that can be played is played at once (a wild naming red), so the
    player never gets to keep it (RLCard's rule)."""
    play: Handler = _original(transition, "_HANDLERS", Play)

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        card = new.drawn
        if new.phase is not Phase.DRAWN or card is None or card not in legality.playable_cards(new):
            return new
        if legality.needs_target(new, card):
            return new
        return play(new, Play(move.player, card, 0 if IS_WILD[card] else None), log)

    yield from _wrapped_handler(Draw, after)


@_mutant("reshuffle-takes-the-top-card", "PLAY-7", seam="draft.Draft.reshuffle")
def _reshuffle_takes_the_top_card() -> Iterator[None]:
    """PLAY-7 broken: the new draw pile is the whole discard pile, top card included (which also
    stays on the discard pile: a duplicated card, as in RLCard)."""

    def reshuffle(self: draft.Draft) -> None:
        top, _size, below = self.discard
        cards: list[Card] = [top]
        node = below
        while node is not None:
            cards.append(node[0])
            node = node[2]
        self.shuffle(cards)
        self.draw_pile = self.draw_pile[self.draw_pos:] + tuple(cards)
        self.draw_pos = 0
        self.discard = (top, 1, None)

    with _replaced(draft.Draft, "reshuffle", reshuffle):
        yield


# --- action cards and turn order -------------------------------------------------------------
@_mutant("skip-skips-two", "ACT-1", seam="transition.turn_after")
def _skip_skips_two() -> Iterator[None]:
    """ACT-1 broken: a Skip passes over the next two players, not one."""
    yield from _turn_rules(lambda profile, n, p, direction, symbol:
                           ((p + 3 * direction) % n, direction) if symbol == SKIP else None)


@_mutant("reverse-does-not-reverse", "ACT-2", seam="transition.turn_after")
def _reverse_does_not_reverse() -> Iterator[None]:
    """ACT-2 broken: with three or more players a Reverse acts as a number card: the direction of
    play stays as it was."""
    yield from _turn_rules(lambda profile, n, p, direction, symbol:
                           ((p + direction) % n, direction) if symbol == REVERSE and n > 2 else None)


@_mutant("two-player-reverse-not-skip", "HOUSE-6", "ACT-2", seam="transition.turn_after")
def _two_player_reverse_not_skip() -> Iterator[None]:
    """HOUSE-6 broken: with two players and the two-player rule on, a Reverse passes the turn to
    the other player instead of acting as a Skip."""
    yield from _turn_rules(lambda profile, n, p, direction, symbol:
                           ((p - direction) % n, -direction) if symbol == REVERSE and n == 2 else None)


@_mutant("draw-two-victim-keeps-turn", "ACT-3", seam="transition._card_effect")
def _draw_two_victim_keeps_turn() -> Iterator[None]:
    """ACT-3 broken: the player hit by a Draw Two draws 2 but is not skipped."""
    real: Callable[[draft.Draft, int, int, int | None], None] = _original(transition, "_card_effect")

    def card_effect(d: draft.Draft, p: int, card: int, target: int | None) -> None:
        if not _is_symbol(card, DRAW_TWO) or d.profile.stacking != "off":
            real(d, p, card, target)
            return
        victim = d.seat_after(p)
        d.draw(victim, DRAW_TWO_COUNT, "ACT-3")
        d.start_turn(victim)

    with _replaced(transition, "_card_effect", card_effect):
        yield


@_mutant("last-draw-two-not-drawn", "ACT-9", "END-1", seam="transition._go_out")
def _last_draw_two_not_drawn() -> Iterator[None]:
    """ACT-9 broken: a player who goes out on a Draw Two wins the round without the next player
    drawing the 2 (which also changes the points scored)."""
    real: Callable[[draft.Draft, int, int, int], GameState] = _original(transition, "_go_out")
    end_round: Callable[[draft.Draft, int], GameState] = _original(transition, "end_round")

    def go_out(d: draft.Draft, p: int, card: int, color_before: int) -> GameState:
        if _is_symbol(card, DRAW_TWO):
            return end_round(d, p)
        return real(d, p, card, color_before)

    with _replaced(transition, "_go_out", go_out):
        yield


@_mutant("seven-zero-passes-backwards", "HOUSE-3", seam="transition._seven_zero")
def _seven_zero_passes_backwards() -> Iterator[None]:
    """HOUSE-3 broken: a 0 passes every hand against the direction of play instead of with it."""
    real: Callable[[draft.Draft, int, int, int | None], None] = _original(transition, "_seven_zero")

    def seven_zero(d: draft.Draft, p: int, symbol: int, target: int | None) -> None:
        if symbol != 0:
            real(d, p, symbol, target)
            return
        d.direction = -d.direction
        try:
            real(d, p, symbol, target)
        finally:
            d.direction = -d.direction

    with _replaced(transition, "_seven_zero", seven_zero):
        yield


# --- house rules: stacking and jump-in -------------------------------------------------------
@_mutant("stack-total-off-by-one", "HOUSE-1", seam="transition._face_penalty")
def _stack_total_off_by_one() -> Iterator[None]:
    """HOUSE-1 broken: answering a Draw card with another adds one card fewer to the total (a Draw
    Two on a pending 2 makes 3, not 4)."""
    real: Callable[[draft.Draft, int, int], None] = _original(transition, "_face_penalty")

    def face_penalty(d: draft.Draft, victim: int, total: int) -> None:
        real(d, victim, total - 1 if d.pending_draw else total)

    with _replaced(transition, "_face_penalty", face_penalty):
        yield


@_mutant("same-kind-stacking-crosses", "HOUSE-1", seam="legality.STACKS_ON")
def _same_kind_stacking_crosses() -> Iterator[None]:
    """HOUSE-1 broken: the same-kind variant lets a Wild Draw Four answer a Draw Two and a Draw Two
    answer a Wild Draw Four (it plays as cross-stacking)."""
    cross = _original(legality, "STACKS_ON", "cross")
    with _replaced_item(legality, "STACKS_ON", "same-kind", cross):
        yield


@_mutant("jump-in-on-same-number", "HOUSE-2", seam="legality._check_jump_in")
def _jump_in_on_same_number() -> Iterator[None]:
    """HOUSE-2 broken: a player may jump in with a card of the top card's number or symbol in any
    colour, not only with an identical card."""
    real: Callable[[GameState, Play], None] = _original(legality, "_check_jump_in")

    def check_jump_in(state: GameState, move: Play) -> None:
        card, top = move.card, state.discard[0]
        if (state.phase in legality.JUMP_IN_PHASES and card in state.hands[move.player]
                and not IS_WILD[top] and _is_symbol(card, SYMBOL_OF[top])):
            return
        real(state, move)

    with _replaced(legality, "_check_jump_in", check_jump_in):
        yield


# --- calling UNO -----------------------------------------------------------------------------
@_mutant("called-uno-still-exposed", "UNO-1", "UNO-2", seam="transition._HANDLERS[Play]")
def _called_uno_still_exposed() -> Iterator[None]:
    """UNO-1 broken: a player who called UNO with the next-to-last card may still be caught."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if move.uno and new.phase < Phase.ROUND_OVER and len(new.hands[move.player]) == 1:
            return _evolve(new, uno_exposed=move.player)
        return new

    yield from _wrapped_handler(Play, after)


@_mutant("late-call-not-safe", "UNO-4", seam="transition._HANDLERS[CallUno]")
def _late_call_not_safe() -> Iterator[None]:
    """UNO-4 broken: calling UNO late, before anyone catches you, does not make you safe."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        return _evolve(new, uno_exposed=before.uno_exposed)

    yield from _wrapped_handler(CallUno, after)


@_mutant("uno-penalty-always-two", "UNO-2", "HOUSE-8", seam="draft.Draft.draw (rule UNO-2)")
def _uno_penalty_always_two() -> Iterator[None]:
    """UNO-2/HOUSE-8 broken: a player caught without calling UNO draws 2 whatever the profile's
    penalty (4 under uno-penalty-4 and mattel-42003)."""
    yield from _draw_counts({"UNO-2": lambda count: 2})


@_mutant("uno-window-closes-on-penalty", "UNO-7", seam="transition._HANDLERS[Play]")
def _uno_window_closes_on_penalty() -> Iterator[None]:
    """UNO-7 broken: when a Draw Two's victim draws and is skipped, the catch window closes at once
    instead of staying open until the next player begins their turn."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if _is_symbol(move.card, DRAW_TWO) and new.uno_exposed == move.player and new.phase is Phase.PLAY:
            return _evolve(new, uno_exposed=-1)
        return new

    yield from _wrapped_handler(Play, after)


@_mutant("uno-window-survives-draw", "UNO-5", seam="transition._HANDLERS[Draw]")
def _uno_window_survives_draw() -> Iterator[None]:
    """UNO-5 broken: drawing does not count as beginning the turn, so the player who missed the
    call may still be caught after the next player drew."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        return _evolve(new, uno_exposed=before.uno_exposed)

    yield from _wrapped_handler(Draw, after)


# --- set-up, dealers and scoring -------------------------------------------------------------
@_mutant("first-draw-two-not-skipping", "SETUP-7", seam="dealing._first_card")
def _first_draw_two_not_skipping() -> Iterator[None]:
    """SETUP-7 broken: when the first card turned is a Draw Two, the first player draws 2 but then
    plays, instead of being skipped."""

    def after(state: GameState, dealer: int) -> GameState:
        if _is_symbol(state.discard[0], DRAW_TWO):
            return _evolve(state, current=(dealer + 1) % len(state.hands))
        return state

    yield from _first_card_rules(after)


@_mutant("first-reverse-right-of-dealer-plays", "SETUP-6", seam="dealing._first_card")
def _first_reverse_right_of_dealer_plays() -> Iterator[None]:
    """SETUP-6 broken: when the first card turned is a Reverse, the player to the dealer's right
    plays first (the next seat in the new direction) instead of the dealer."""

    def after(state: GameState, dealer: int) -> GameState:
        if _is_symbol(state.discard[0], REVERSE):
            return _evolve(state, current=(dealer - 1) % len(state.hands))
        return state

    yield from _first_card_rules(after)


@_mutant("deal-passes-right", "SETUP-11", seam="legality.next_dealer")
def _deal_passes_right() -> Iterator[None]:
    """SETUP-11 broken: after a round the deal passes to the dealer's right, not to the left."""
    real: Callable[[GameState], int] = _original(legality, "next_dealer")

    def next_dealer(state: GameState) -> int:
        if state.profile.next_dealer == "winner":
            return real(state)
        return (state.match.dealer - 1) % len(state.hands)

    with _replaced(legality, "next_dealer", next_dealer):
        yield


@_mutant("action-cards-score-ten", "SCORE-1", seam="scoring.hand_points")
def _action_cards_score_ten() -> Iterator[None]:
    """SCORE-1 broken: Skip, Reverse and Draw Two count 10 points in a hand at the end of a round,
    not 20."""
    real: Callable[[Profile, Sequence[Card]], int] = _original(scoring, "hand_points")

    def hand_points(profile: Profile, hand: Sequence[Card]) -> int:
        actions = [c for c in hand if not IS_WILD[c] and SYMBOL_OF[c] >= SKIP]
        return real(profile, [c for c in hand if c not in actions]) + 10 * len(actions)

    with _replaced(scoring, "hand_points", hand_points):
        yield


@_mutant("lowest-score-rule-picks-highest", "SCORE-3", seam="scoring.match_winner")
def _lowest_score_rule_picks_highest() -> Iterator[None]:
    """SCORE-3 broken: under the own-hand scoring, when someone reaches the target the highest
    total wins the match instead of the lowest."""
    real: Callable[[Profile, Sequence[int]], int | None] = _original(scoring, "match_winner")

    def match_winner(profile: Profile, scores: Sequence[int]) -> int | None:
        if profile.scoring != "own-hand-lowest-wins" or max(scores) < profile.target_score:
            return real(profile, scores)
        return max(range(len(scores)), key=lambda i: scores[i])

    with _replaced(scoring, "match_winner", match_winner):
        yield


@_mutant("dealt-in-blocks", "SETUP-1", seam="dealing._deal")
def _dealt_in_blocks() -> Iterator[None]:
    """SETUP-1 broken: each player is dealt their whole hand at once, from the dealer's left,
    instead of one card at a time."""
    real: Callable[..., GameState] = _original(dealing, "_deal")

    def deal(profile: Profile, n: int, dealer: int, cards: Sequence[Card], seed: int, match: Any,
             log: Any = None) -> GameState:
        size = profile.hand_size
        # the real deal gives card j to seat dealer + 1 + j % n: order the cards so that seat
        # dealer + 1 + m receives the m-th block of ``size`` cards
        blocks = [cards[(j % n) * size + j // n] for j in range(size * n)]
        return real(profile, n, dealer, [*blocks, *cards[size * n:]], seed, match, log)

    with _replaced(dealing, "_deal", deal):
        yield


@_mutant("dealer-plays-first", "SETUP-4", seam="dealing._first_card")
def _dealer_plays_first() -> Iterator[None]:
    """SETUP-4 broken: the dealer plays first, not the player to the dealer's left (first cards
    with an effect of their own keep it)."""

    def after(state: GameState, dealer: int) -> GameState:
        if not IS_WILD[state.discard[0]] and SYMBOL_OF[state.discard[0]] <= 9:
            return _evolve(state, current=dealer)
        return state

    yield from _first_card_rules(after)


@_mutant("first-skip-not-skipping", "SETUP-5", seam="dealing._first_card")
def _first_skip_not_skipping() -> Iterator[None]:
    """SETUP-5 broken: a Skip turned as the first card skips nobody: the first player plays."""

    def after(state: GameState, dealer: int) -> GameState:
        if _is_symbol(state.discard[0], SKIP):
            return _evolve(state, current=(dealer + 1) % len(state.hands))
        return state

    yield from _first_card_rules(after)


@_mutant("first-wild-colour-named-by-dealer", "SETUP-8", seam="dealing._first_card")
def _first_wild_colour_named_by_dealer() -> Iterator[None]:
    """SETUP-8 broken: when the first card is a Wild, the dealer names the colour and plays,
    instead of the first player."""

    def after(state: GameState, dealer: int) -> GameState:
        if state.discard[0] != WILD_DRAW_FOUR and state.phase is Phase.CHOOSE_COLOR:
            return _evolve(state, current=dealer)
        return state

    yield from _first_card_rules(after)


@_mutant("first-wild-draw-four-applies", "SETUP-9", seam="dealing._first_card")
def _first_wild_draw_four_applies() -> Iterator[None]:
    """SETUP-9 broken: a Wild Draw Four turned as the first card is not returned to the deck: it
    applies (HOUSE-7's option), even where the profile says it is redrawn."""
    real: Callable[[draft.Draft, int], GameState] = _original(dealing, "_first_card")

    def first_card(d: draft.Draft, dealer: int) -> GameState:
        profile = d.profile
        if profile.first_card_wild_draw_four != "redraw":
            return real(d, dealer)
        d.profile = attrs.evolve(profile, first_card_wild_draw_four="apply")
        return _evolve(real(d, dealer), profile=profile)

    with _replaced(dealing, "_first_card", first_card):
        yield


@_mutant("first-wild-draw-four-colour-named-by-first-player", "HOUSE-7", seam="dealing._first_card")
def _first_wild_draw_four_colour_named_by_first_player() -> Iterator[None]:
    """HOUSE-7 broken (its RULING): when a first Wild Draw Four applies, the first player names the
    colour (and the player after them draws the 4), instead of the dealer naming it."""

    def after(state: GameState, dealer: int) -> GameState:
        if state.discard[0] == WILD_DRAW_FOUR and state.phase is Phase.CHOOSE_COLOR:
            return _evolve(state, current=(dealer + 1) % len(state.hands))
        return state

    yield from _first_card_rules(after)


@_mutant("wild-only-without-a-match", "PLAY-3", seam="legality.playable_cards")
def _wild_only_without_a_match() -> Iterator[None]:
    """PLAY-3 broken: a Wild may be played only by a player who holds no other playable card."""
    real: Callable[[GameState], list[int]] = _original(legality, "playable_cards")

    def playable_cards(state: GameState) -> list[int]:
        out = real(state)
        if any(not IS_WILD[c] for c in out):
            out = [c for c in out if not IS_WILD[c] or c == WILD_DRAW_FOUR]
        return out

    with _replaced(legality, "playable_cards", playable_cards):
        yield


@_mutant("pass-without-drawing", "PLAY-4", seam="legality.may_pass")
def _pass_without_drawing() -> Iterator[None]:
    """PLAY-4 broken: a player who cannot play may pass without drawing a card."""
    real: Callable[[GameState, bool], Any] = _original(legality, "may_pass")

    def may_pass(state: GameState, playable: bool) -> Any:
        block = real(state, playable)
        return None if block == legality.MUST_DRAW else block

    with _replaced(legality, "may_pass", may_pass):
        yield


@_mutant("draw-again-after-drawing", "PLAY-6", seam="legality._CHECKS[Draw]")
def _draw_again_after_drawing() -> Iterator[None]:
    """PLAY-6 broken: a player who has drawn may draw again instead of playing or keeping the card
    (draw until playable without the house rule)."""
    real: Callable[[GameState, Move], None] = _original(legality, "_CHECKS", Draw)

    def check(state: GameState, move: Move) -> None:
        if state.phase is Phase.DRAWN and move.player == state.current and legality.can_draw(state):
            return
        real(state, move)

    with _replaced_item(legality, "_CHECKS", Draw, check):
        yield


@_mutant("blocked-round-highest-hand-wins", "PLAY-7", seam="transition.end_round_blocked")
def _blocked_round_highest_hand_wins() -> Iterator[None]:
    """PLAY-7 broken (its RULING): when every player passes with nothing to draw, the highest hand
    in points wins the blocked round instead of the lowest."""
    finish: Callable[[draft.Draft, int, bool], GameState] = _original(scoring, "_finish")
    _original(transition, "end_round_blocked")

    def end_round_blocked(d: draft.Draft) -> GameState:
        order = [d.seat_after(d.current, k + 1) for k in range(len(d.hands))]
        winner = max(order, key=lambda i: scoring.hand_points(d.profile, d.hands[i]))
        return finish(d, winner, True)

    with _replaced(transition, "end_round_blocked", end_round_blocked):
        yield


@_mutant("wild-draw-four-victim-keeps-turn", "ACT-5", seam="transition._HANDLERS[Play]")
def _wild_draw_four_victim_keeps_turn() -> Iterator[None]:
    """ACT-5 broken: without challenges, the player hit by a Wild Draw Four draws 4 but is not
    skipped."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if move.card == WILD_DRAW_FOUR and move.player == before.current and new.phase is Phase.PLAY:
            return _evolve(new, current=(move.player + new.direction) % len(new.hands))
        return new

    yield from _wrapped_handler(Play, after)


@_mutant("shuffle-hands-dealt-from-the-player", "ACT-6", seam="transition.shuffle_hands")
def _shuffle_hands_dealt_from_the_player() -> Iterator[None]:
    """ACT-6 broken: after Wild Shuffle Hands the cards are dealt starting with the player who
    played it, not from that player's left (so the odd cards land on the wrong seats)."""
    real: Callable[..., Any] = _original(transition, "shuffle_hands")

    def shuffle_hands(hands: Any, player: int, seed: int) -> Any:
        return real(hands, (player - 1) % len(hands), seed)

    with _replaced(transition, "shuffle_hands", shuffle_hands):
        yield


@_mutant("swap-with-the-next-player", "ACT-7", "HOUSE-3", seam="transition._swap")
def _swap_with_the_next_player() -> Iterator[None]:
    """ACT-7/HOUSE-3 broken: Wild Swap Hands (and a 7 under seven-zero) swaps hands with the next
    player in turn, whoever was chosen."""
    real: Callable[[draft.Draft, int, int], None] = _original(transition, "_swap")

    def swap(d: draft.Draft, p: int, target: int) -> None:
        real(d, p, d.seat_after(p))

    with _replaced(transition, "_swap", swap):
        yield


@_mutant("equal-or-higher-lets-draw-two-answer-four", "HOUSE-1", seam="legality.STACKS_ON")
def _equal_or_higher_lets_draw_two_answer_four() -> Iterator[None]:
    """HOUSE-1 broken: under the equal-or-higher variant (Show 'em No Mercy) a Draw Two may answer
    a Wild Draw Four."""
    cross = _original(legality, "STACKS_ON", "cross")
    with _replaced_item(legality, "STACKS_ON", "equal-or-higher", cross):
        yield


@_mutant("jump-in-turn-goes-on-from-the-skipped", "HOUSE-2", seam="transition._HANDLERS[Play]")
def _jump_in_turn_goes_on_from_the_skipped() -> Iterator[None]:
    """HOUSE-2 broken: after a jump-in with a number card, play goes on from the player who was to
    act, not from the player who jumped in."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if (move.player != before.current and new.phase is Phase.PLAY
                and not IS_WILD[move.card] and SYMBOL_OF[move.card] <= 9):
            return _evolve(new, current=(before.current + new.direction) % len(new.hands))
        return new

    yield from _wrapped_handler(Play, after)


@_mutant("draw-until-playable-draws-one", "HOUSE-4", seam="transition._draw_until_playable")
def _draw_until_playable_draws_one() -> Iterator[None]:
    """HOUSE-4 broken: under draw-to-match the player draws one card and stops, playable or not."""
    _original(transition, "_draw_until_playable")

    def draw_until_playable(state: GameState, p: int, log: Any) -> GameState:
        d = draft.Draft(state, log)
        d.uno_exposed = -1
        d.passes = 0
        (card,) = d.draw(p, 1, "HOUSE-4")
        d.phase = Phase.DRAWN
        d.drawn = card
        return d.freeze()

    with _replaced(transition, "_draw_until_playable", draw_until_playable):
        yield


@_mutant("forced-play-allows-declining", "HOUSE-5", seam="legality.may_draw")
def _forced_play_allows_declining() -> Iterator[None]:
    """HOUSE-5 broken: under forced play a player who can play may still draw instead."""
    real: Callable[[GameState, bool], Any] = _original(legality, "may_draw")

    def may_draw(state: GameState, playable: bool) -> Any:
        block = real(state, playable)
        return None if block == legality.MUST_PLAY_NOT_DRAW else block

    with _replaced(legality, "may_draw", may_draw):
        yield


@_mutant("wild-in-hand-blocks-wild-draw-four", "WD4-1", "WD4-2", seam="legality.holds_color, transition.holds_color")
def _wild_in_hand_blocks_wild_draw_four() -> Iterator[None]:
    """WD4-1 broken: a Wild in the hand counts as holding the colour in play, so it makes a Wild
    Draw Four restricted (refused when enforced, a guilty bluff under challenges)."""

    def holds_color(hand: tuple[Card, ...], color: int) -> bool:
        return any(COLOR_OF[c] == color or (IS_WILD[c] and c != WILD_DRAW_FOUR) for c in hand)

    with _replaced(legality, "holds_color", holds_color), _replaced(transition, "holds_color", holds_color):
        yield


@_mutant("match-needs-more-than-the-target", "SCORE-2", seam="scoring.match_winner")
def _match_needs_more_than_the_target() -> Iterator[None]:
    """SCORE-2 broken: a player who reaches the target score exactly has not won the match yet
    (the engine wants more than the target, not at least it)."""
    real: Callable[[Profile, Sequence[int]], int | None] = _original(scoring, "match_winner")

    def match_winner(profile: Profile, scores: Sequence[int]) -> int | None:
        if max(scores) <= profile.target_score:
            return None
        return real(profile, scores)

    with _replaced(scoring, "match_winner", match_winner):
        yield


@_mutant("one-point-rule-scores-card-points", "SCORE-4", seam="scoring.round_points")
def _one_point_rule_scores_card_points() -> Iterator[None]:
    """SCORE-4 broken: under one point per round the winner scores the card points left in the
    other hands (SCORE-2's count) instead of one point."""
    real: Callable[[Profile, int, Sequence[int]], tuple[int, ...]] = _original(scoring, "round_points")

    def round_points(profile: Profile, winner: int, left: Sequence[int]) -> tuple[int, ...]:
        if profile.scoring != "one-point-per-round":
            return real(profile, winner, left)
        return tuple(sum(left) - left[winner] if i == winner else 0 for i in range(len(left)))

    with _replaced(scoring, "round_points", round_points):
        yield


@_mutant("pass-ignores-the-direction", "PLAY-8", seam="transition._HANDLERS[Pass]")
def _pass_ignores_the_direction() -> Iterator[None]:
    """PLAY-8 broken: after a pass the turn always goes clockwise, whatever the direction of play."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if new.phase is Phase.PLAY:
            return _evolve(new, current=(move.player + 1) % len(new.hands))
        return new

    yield from _wrapped_handler(Pass, after)


@_mutant("catcher-draws-the-penalty", "UNO-2", seam="transition._HANDLERS[CatchUno]")
def _catcher_draws_the_penalty() -> Iterator[None]:
    """UNO-2 broken: the player who catches a missed UNO call draws the penalty, not the player
    caught."""
    _original(transition, "_HANDLERS", CatchUno)

    def catch_uno(state: GameState, move: Move, log: Any) -> GameState:
        d = draft.Draft(state, log)
        d.uno_exposed = -1
        d.draw(move.player, d.profile.uno_penalty, "UNO-2")
        return d.freeze()

    with _replaced_item(transition, "_HANDLERS", CatchUno, catch_uno):
        yield


@_mutant("uno-window-opens-a-card-early", "UNO-3", seam="transition._HANDLERS[Play]")
def _uno_window_opens_a_card_early() -> Iterator[None]:
    """UNO-3 broken: a player who plays down to two cards may already be caught, before the
    next-to-last card is on the discard pile."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if new.phase < Phase.ROUND_OVER and len(new.hands[move.player]) == 2 and new.uno_exposed < 0:
            return _evolve(new, uno_exposed=move.player)
        return new

    yield from _wrapped_handler(Play, after)


@_mutant("stack-victim-keeps-turn", "HOUSE-1", seam="transition._HANDLERS[Accept]")
def _stack_victim_keeps_turn() -> Iterator[None]:
    """HOUSE-1 broken: under stacking, the player who accepts the pending total draws it but is
    not skipped."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if before.phase is Phase.PENALTY and new.phase is Phase.PLAY:
            return _evolve(new, current=move.player)
        return new

    yield from _wrapped_handler(Accept, after)


@_mutant("jump-in-while-a-challenge-is-pending", "HOUSE-2", seam="legality.JUMP_IN_PHASES")
def _jump_in_while_a_challenge_is_pending() -> Iterator[None]:
    """HOUSE-2 broken: a player may jump in while a Wild Draw Four awaits its challenge decision
    (or a first wild its colour)."""
    phases = (*_original(legality, "JUMP_IN_PHASES"), Phase.CHALLENGE, Phase.CHOOSE_COLOR)
    with _replaced(legality, "JUMP_IN_PHASES", phases):
        yield


@_mutant("blanks-always-in-play", "DECK-4", seam="profile.Profile.play_deck")
def _blanks_always_in_play() -> Iterator[None]:
    """DECK-4 broken: the blank cards of the 42003 box are shuffled in even where the profile sets
    them aside."""
    _original(profile_module, "Profile").play_deck  # noqa: B018 (the seam must exist)

    def play_deck(self: Profile) -> tuple[int, ...]:
        return self.deck_counts

    with _replaced(profile_module.Profile, "play_deck", property(play_deck)):
        yield


@_mutant("first-card-from-the-bottom", "SETUP-3", seam="dealing._deal")
def _first_card_from_the_bottom() -> Iterator[None]:
    """SETUP-3 broken: the first card is turned from the bottom of the draw pile, not its top."""
    real: Callable[..., GameState] = _original(dealing, "_deal")

    def deal(profile: Profile, n: int, dealer: int, cards: Sequence[Card], seed: int, match: Any,
             log: Any = None) -> GameState:
        dealt = profile.hand_size * n
        # the real deal turns the card after the hands: put the bottom card there
        return real(profile, n, dealer, [*cards[:dealt], cards[-1], *cards[dealt:-1]], seed, match, log)

    with _replaced(dealing, "_deal", deal):
        yield


@_mutant("accepting-leaves-the-uno-window-open", "UNO-7", "UNO-5", seam="transition._HANDLERS[Accept]")
def _accepting_leaves_the_uno_window_open() -> Iterator[None]:
    """UNO-7 broken: accepting a Wild Draw Four (or a stack) does not count as beginning a turn, so
    the player who missed the call may still be caught afterwards."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if new.phase < Phase.ROUND_OVER and before.uno_exposed >= 0:
            return _evolve(new, uno_exposed=before.uno_exposed)
        return new

    yield from _wrapped_handler(Accept, after)


@_mutant("blocked-round-winner-scores-own-hand", "SCORE-2", "PLAY-7", seam="scoring.round_points")
def _blocked_round_winner_scores_own_hand() -> Iterator[None]:
    """SCORE-2 broken: the winner of a round scores the points of every hand, their own included
    (which only shows when a blocked round is won with cards left, PLAY-7)."""
    real: Callable[[Profile, int, Sequence[int]], tuple[int, ...]] = _original(scoring, "round_points")

    def round_points(profile: Profile, winner: int, left: Sequence[int]) -> tuple[int, ...]:
        if profile.scoring != "winner-takes-others":
            return real(profile, winner, left)
        return tuple(sum(left) if i == winner else 0 for i in range(len(left)))

    with _replaced(scoring, "round_points", round_points):
        yield


@_mutant("first-shuffle-hands-shuffles", "SETUP-10", seam="dealing._first_card")
def _first_shuffle_hands_shuffles() -> Iterator[None]:
    """SETUP-10 broken: a Wild Shuffle Hands turned as the first card carries out its effect (every
    hand gathered and dealt again from the dealer's left) instead of acting as a plain Wild."""
    shuffle_hands: Callable[..., Any] = _original(transition, "shuffle_hands")

    def after(state: GameState, dealer: int) -> GameState:
        if state.discard[0] != WILD_SHUFFLE_HANDS:
            return state
        hands, rng = shuffle_hands(state.hands, dealer, state.rng)
        return _evolve(state, hands=tuple(hands), rng=rng)

    yield from _first_card_rules(after)


@_mutant("custom-effect-ignored", "ACT-8", seam="transition._custom_effect")
def _custom_effect_ignored() -> Iterator[None]:
    """ACT-8 broken: a Wild Customizable (or a blank in play) always acts as a plain Wild: the
    effect the profile gives it never runs."""
    _original(transition, "_custom_effect")

    def custom_effect(d: draft.Draft, p: int, target: int | None) -> None:
        return None

    with _replaced(transition, "_custom_effect", custom_effect):
        yield


@_mutant("only-the-next-player-may-catch", "UNO-6", seam="legality._CHECKS[CatchUno]")
def _only_the_next_player_may_catch() -> Iterator[None]:
    """UNO-6 broken: only the player after the one who missed the call may catch them, not any
    other player."""
    real: Callable[[GameState, Move], None] = _original(legality, "_CHECKS", CatchUno)

    def check(state: GameState, move: Move) -> None:
        real(state, move)
        exposed = state.uno_exposed
        if move.player != (exposed + state.direction) % len(state.hands):
            raise IllegalMoveError(move, "UNO-6", "not-next-player", "only the next player may catch")

    with _replaced_item(legality, "_CHECKS", CatchUno, check):
        yield


# --- running the corpus under the mutants ----------------------------------------------------
PASSED: Final = "passed"
CAUGHT_STATUSES: Final = ("failed", "errored", "raised")
"""A scenario catches a mutant when it passes on the engine and, under the mutant, fails, is an
error (the runner's isolation) or raises out of the runner ("raised")."""


def scenario_status(scenario: Mapping[str, Any], adapter: Adapter) -> str:
    """The status of one scenario run alone: the runner's, or "raised" when the run itself raised
    (a mutant may crash the engine in a way today's runner does not isolate)."""
    try:
        (outcome,) = run([scenario], adapter).outcomes
    except Exception:  # any crash under a mutant is a detection, whatever its type
        return "raised"
    return str(outcome.status)


@attrs.frozen
class MutantResult:
    """One mutant's run: the scenarios that catch it (passing on the engine, not under the mutant),
    in corpus order, and which of them declare a rule the mutant breaks (caught for its reason)."""

    mutant: Mutant
    caught_by: tuple[str, ...]
    scenarios_run: int
    """How many scenarios (passing on the engine) were run under the mutant."""
    declaring: tuple[str, ...] = ()
    """The catching scenarios whose ``rules`` name one of the mutant's rules."""

    @property
    def caught(self) -> bool:
        return bool(self.caught_by)


@attrs.frozen
class MutationReport:
    """The mutation score of a corpus: each mutant with the scenarios that catch it."""

    results: tuple[MutantResult, ...]

    @property
    def score(self) -> tuple[int, int]:
        """(mutants caught, mutants run)."""
        return sum(1 for r in self.results if r.caught), len(self.results)

    def survivors(self) -> list[str]:
        return [r.mutant.name for r in self.results if not r.caught]


def catching_scenarios(
    mutant: Mutant, scenarios: Sequence[Mapping[str, Any]], baseline: Mapping[str, str],
    adapter: Callable[[], Adapter] = EngineAdapter, *, first_only: bool = False,
) -> MutantResult:
    """Run ``scenarios`` under ``mutant``; ``baseline`` maps each scenario id to its status on the
    real engine (only scenarios that pass there can catch anything). ``first_only`` stops at the
    first catch (enough to know the mutant is caught)."""
    caught: list[str] = []
    declaring: list[str] = []
    run_count = 0
    with mutant.active():
        for s in scenarios:
            if baseline.get(s["id"]) != PASSED:
                continue
            run_count += 1
            if scenario_status(s, adapter()) in CAUGHT_STATUSES:
                caught.append(s["id"])
                if set(s["rules"]) & set(mutant.rules):
                    declaring.append(s["id"])
                if first_only:
                    break
    return MutantResult(mutant, tuple(caught), run_count, tuple(declaring))


def mutation_report(
    scenarios: Sequence[Mapping[str, Any]] | None = None, mutants: Iterable[Mutant] | None = None,
    adapter: Callable[[], Adapter] = EngineAdapter,
) -> MutationReport:
    """Every mutant (:data:`MUTANTS` by default) run over every scenario (the shipped corpus by
    default) through a fresh ``adapter()`` for each scenario."""
    chosen = load_scenarios(shipped_corpus()) if scenarios is None else scenarios
    baseline = {s["id"]: scenario_status(s, adapter()) for s in chosen}
    return MutationReport(tuple(
        catching_scenarios(m, chosen, baseline, adapter) for m in (MUTANTS if mutants is None else mutants)
    ))


def markdown_table(report: MutationReport, shown: int = 4) -> str:
    """The report as a Markdown table: mutant, rules broken, what it does, and the catching
    scenarios: how many, how many of them declare one of the mutant's rules, and the first
    ``shown`` ids, those declaring its rules first (0 shows them all)."""
    rows = ["| mutant | breaks | what is wrong | caught by (declaring its rules) |", "| --- | --- | --- | --- |"]
    for r in report.results:
        m = r.mutant
        what = re.sub(r"^.*? broken[^:]*: ", "", " ".join(m.description.split()), count=1)
        ids = [*r.declaring, *(i for i in r.caught_by if i not in r.declaring)]
        listed = ids if not shown else ids[:shown]
        more = f" and {len(ids) - len(listed)} more" if len(ids) > len(listed) else ""
        caught = (f"{len(ids)} ({len(r.declaring)}): " + ", ".join(f"`{i}`" for i in listed) + more
                  if ids else "**nothing**")
        rows.append(f"| `{m.name}` | {', '.join(m.rules)} | {what} | {caught} |")
    caught_count, total = report.score
    rows.append("")
    rows.append(f"Mutation score: {caught_count} of {total} mutants caught.")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unoengine.testing.mutants [--all]``: the table for the shipped corpus (``--all``
    lists every catching scenario); exit 1 when a mutant survives."""
    args = list(sys.argv[1:] if argv is None else argv)
    unknown = [a for a in args if a != "--all"]
    if unknown:
        print(f"usage: python -m unoengine.testing.mutants [--all]; unknown {unknown}", file=sys.stderr)
        return 2
    report = mutation_report()
    print(markdown_table(report, shown=0 if "--all" in args else 4))
    return 0 if not report.survivors() else 1


if __name__ == "__main__":
    sys.exit(main())
