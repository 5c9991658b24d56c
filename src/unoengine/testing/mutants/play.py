"""Mutants of playing a turn: matching, drawing and keeping, the reshuffle, the action cards, and
the Wild Draw Four with its challenge (PLAY, ACT, WD4 rules).

Each mutant's docstring names the rule it breaks and how; see :mod:`.base` for the patching.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ...engine import draft, legality, scoring, transition
from ...engine.cards import (
    COLOR_OF,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    IS_WILD,
    NUM_CARD_CODES,
    REVERSE,
    SKIP,
    SYMBOL_OF,
    WILD_DRAW_FOUR,
    Card,
)
from ...engine.moves import Challenge, Draw, Move, Pass, Play
from ...engine.profile import Profile
from ...engine.state import GameState, Phase
from .base import (
    Handler,
    draw_counts,
    evolve,
    is_symbol,
    mutant,
    original,
    replaced,
    replaced_item,
    turn_rules,
    wrapped_handler,
)


def _matches_table(wrong: Callable[[int, int, int, bool], bool]) -> Iterator[None]:
    """Patch ``legality.MATCHES[top][color][card]`` (what may go on what, PLAY-1..3)."""
    real: Sequence[Sequence[Sequence[bool]]] = original(legality, "MATCHES")
    table = tuple(
        tuple(tuple(wrong(top, color, card, real[top][color][card]) for card in range(NUM_CARD_CODES))
              for color in range(4))
        for top in range(NUM_CARD_CODES)
    )
    with replaced(legality, "MATCHES", table):
        yield


@mutant("named-colour-ignored", "PLAY-1", "ACT-4", seam="legality.MATCHES")
def _named_colour_ignored() -> Iterator[None]:
    """PLAY-1/ACT-4 broken: after a wild any card may be played, as if the colour it named did not
    bind the next player."""
    yield from _matches_table(lambda top, color, card, right: right or IS_WILD[top])


@mutant("action-symbol-does-not-match", "PLAY-2", seam="legality.MATCHES")
def _action_symbol_does_not_match() -> Iterator[None]:
    """PLAY-2 broken: a Skip, Reverse or Draw Two may not be played on the same symbol of another
    colour (only numbers match by face)."""

    def wrong(top: int, color: int, card: int, right: bool) -> bool:
        return right and not (not IS_WILD[card] and SYMBOL_OF[card] >= SKIP and COLOR_OF[card] != color)

    yield from _matches_table(wrong)


@mutant("wild-only-without-a-match", "PLAY-3", seam="legality.playable_cards")
def _wild_only_without_a_match() -> Iterator[None]:
    """PLAY-3 broken: a Wild may be played only by a player who holds no other playable card."""
    real: Callable[[GameState], list[int]] = original(legality, "playable_cards")

    def playable_cards(state: GameState) -> list[int]:
        out = real(state)
        if any(not IS_WILD[c] for c in out):
            out = [c for c in out if not IS_WILD[c] or c == WILD_DRAW_FOUR]
        return out

    with replaced(legality, "playable_cards", playable_cards):
        yield


@mutant("drawn-card-auto-played", "PLAY-4", "PLAY-5", seam="transition._HANDLERS[Draw]")
def _drawn_card_auto_played() -> Iterator[None]:
    """PLAY-4 broken: a drawn card that can be played is played at once (a wild naming red), so the
    player never gets to keep it (RLCard's rule)."""
    play: Handler = original(transition, "_HANDLERS", Play)

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        card = new.drawn
        if new.phase is not Phase.DRAWN or card is None or card not in legality.playable_cards(new):
            return new
        if legality.needs_target(new, card):
            return new
        return play(new, Play(move.player, card, 0 if IS_WILD[card] else None), log)

    yield from wrapped_handler(Draw, after)


@mutant("pass-without-drawing", "PLAY-4", seam="legality.may_pass")
def _pass_without_drawing() -> Iterator[None]:
    """PLAY-4 broken: a player who cannot play may pass without drawing a card."""
    real: Callable[[GameState, bool], Any] = original(legality, "may_pass")

    def may_pass(state: GameState, playable: bool) -> Any:
        block = real(state, playable)
        return None if block == legality.MUST_DRAW else block

    with replaced(legality, "may_pass", may_pass):
        yield


@mutant("no-decline-to-play", "PLAY-5", seam="legality.may_draw")
def _no_decline_to_play() -> Iterator[None]:
    """PLAY-5 broken: a player who holds a playable card may not draw instead, whatever the profile
    says (every table plays forced play, HOUSE-5)."""
    real: Callable[[GameState, bool], Any] = original(legality, "may_draw")

    def may_draw(state: GameState, playable: bool) -> Any:
        block = real(state, playable)
        if block is None and playable:
            return legality.MUST_PLAY_NOT_DRAW
        return block

    with replaced(legality, "may_draw", may_draw):
        yield


@mutant("any-card-after-drawing", "PLAY-5", "PLAY-4", seam="legality.playable_cards")
def _any_card_after_drawing() -> Iterator[None]:
    """PLAY-5 broken: after drawing, the player may play any playable card of the hand, not only
    the card just drawn."""
    real: Callable[[GameState], list[int]] = original(legality, "playable_cards")

    def playable_cards(state: GameState) -> list[int]:
        if state.phase is Phase.DRAWN:
            return real(evolve(state, phase=Phase.PLAY, drawn=None))
        return real(state)

    with replaced(legality, "playable_cards", playable_cards):
        yield


@mutant("draw-again-after-drawing", "PLAY-6", seam="legality._CHECKS[Draw]")
def _draw_again_after_drawing() -> Iterator[None]:
    """PLAY-6 broken: a player who has drawn may draw again instead of playing or keeping the card
    (draw until playable without the house rule)."""
    real: Callable[[GameState, Move], None] = original(legality, "_CHECKS", Draw)

    def check(state: GameState, move: Move) -> None:
        if state.phase is Phase.DRAWN and move.player == state.current and legality.can_draw(state):
            return
        real(state, move)

    with replaced_item(legality, "_CHECKS", Draw, check):
        yield


@mutant("reshuffle-takes-the-top-card", "PLAY-7", seam="draft.Draft.reshuffle")
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

    with replaced(draft.Draft, "reshuffle", reshuffle):
        yield


@mutant("blocked-round-highest-hand-wins", "PLAY-7", seam="transition.end_round_blocked")
def _blocked_round_highest_hand_wins() -> Iterator[None]:
    """PLAY-7 broken (its RULING): when every player passes with nothing to draw, the highest hand
    in points wins the blocked round instead of the lowest."""
    finish: Callable[[draft.Draft, int, bool], GameState] = original(scoring, "_finish")
    original(transition, "end_round_blocked")

    def end_round_blocked(d: draft.Draft) -> GameState:
        order = [d.seat_after(d.current, k + 1) for k in range(len(d.hands))]
        winner = max(order, key=lambda i: scoring.hand_points(d.profile, d.hands[i]))
        return finish(d, winner, True)

    with replaced(transition, "end_round_blocked", end_round_blocked):
        yield


@mutant("pass-ignores-the-direction", "PLAY-8", seam="transition._HANDLERS[Pass]")
def _pass_ignores_the_direction() -> Iterator[None]:
    """PLAY-8 broken: after a pass the turn always goes clockwise, whatever the direction of play."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        if new.phase is Phase.PLAY:
            return evolve(new, current=(move.player + 1) % len(new.hands))
        return new

    yield from wrapped_handler(Pass, after)


@mutant("skip-skips-two", "ACT-1", seam="transition.turn_after")
def _skip_skips_two() -> Iterator[None]:
    """ACT-1 broken: a Skip passes over the next two players, not one."""
    yield from turn_rules(lambda profile, n, p, direction, symbol:
                           ((p + 3 * direction) % n, direction) if symbol == SKIP else None)


@mutant("reverse-does-not-reverse", "ACT-2", seam="transition.turn_after")
def _reverse_does_not_reverse() -> Iterator[None]:
    """ACT-2 broken: with three or more players a Reverse acts as a number card: the direction of
    play stays as it was."""
    yield from turn_rules(lambda profile, n, p, direction, symbol:
                           ((p + direction) % n, direction) if symbol == REVERSE and n > 2 else None)


@mutant("draw-two-victim-keeps-turn", "ACT-3", seam="transition._card_effect")
def _draw_two_victim_keeps_turn() -> Iterator[None]:
    """ACT-3 broken: the player hit by a Draw Two draws 2 but is not skipped."""
    real: Callable[[draft.Draft, int, int, int | None], None] = original(transition, "_card_effect")

    def card_effect(d: draft.Draft, p: int, card: int, target: int | None) -> None:
        if not is_symbol(card, DRAW_TWO) or d.profile.stacking != "off":
            real(d, p, card, target)
            return
        victim = d.seat_after(p)
        d.draw(victim, DRAW_TWO_COUNT, "ACT-3")
        d.start_turn(victim)

    with replaced(transition, "_card_effect", card_effect):
        yield


@mutant("wild-draw-four-victim-keeps-turn", "ACT-5", seam="transition._HANDLERS[Play]")
def _wild_draw_four_victim_keeps_turn() -> Iterator[None]:
    """ACT-5 broken: without challenges, the player hit by a Wild Draw Four draws 4 but is not
    skipped."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        assert isinstance(move, Play)
        if move.card == WILD_DRAW_FOUR and move.player == before.current and new.phase is Phase.PLAY:
            return evolve(new, current=(move.player + new.direction) % len(new.hands))
        return new

    yield from wrapped_handler(Play, after)


@mutant("shuffle-hands-dealt-from-the-player", "ACT-6", seam="transition.shuffle_hands")
def _shuffle_hands_dealt_from_the_player() -> Iterator[None]:
    """ACT-6 broken: after Wild Shuffle Hands the cards are dealt starting with the player who
    played it, not from that player's left (so the odd cards land on the wrong seats)."""
    real: Callable[..., Any] = original(transition, "shuffle_hands")

    def shuffle_hands(hands: Any, player: int, seed: int, algorithm: str) -> Any:
        return real(hands, (player - 1) % len(hands), seed, algorithm)

    with replaced(transition, "shuffle_hands", shuffle_hands):
        yield


@mutant("swap-with-the-next-player", "ACT-7", "HOUSE-3", seam="transition._swap")
def _swap_with_the_next_player() -> Iterator[None]:
    """ACT-7/HOUSE-3 broken: Wild Swap Hands (and a 7 under seven-zero) swaps hands with the next
    player in turn, whoever was chosen."""
    real: Callable[[draft.Draft, int, int], None] = original(transition, "_swap")

    def swap(d: draft.Draft, p: int, target: int) -> None:
        real(d, p, d.seat_after(p))

    with replaced(transition, "_swap", swap):
        yield


@mutant("custom-effect-ignored", "ACT-8", seam="transition._custom_effect")
def _custom_effect_ignored() -> Iterator[None]:
    """ACT-8 broken: a Wild Customizable (or a blank in play) always acts as a plain Wild: the
    effect the profile gives it never runs."""
    original(transition, "_custom_effect")

    def custom_effect(d: draft.Draft, p: int, target: int | None) -> None:
        return None

    with replaced(transition, "_custom_effect", custom_effect):
        yield


@mutant("last-draw-two-not-drawn", "ACT-9", "END-1", seam="transition._go_out")
def _last_draw_two_not_drawn() -> Iterator[None]:
    """ACT-9 broken: a player who goes out on a Draw Two wins the round without the next player
    drawing the 2 (which also changes the points scored)."""
    real: Callable[[draft.Draft, int, int, int], GameState] = original(transition, "_go_out")
    end_round: Callable[[draft.Draft, int], GameState] = original(transition, "end_round")

    def go_out(d: draft.Draft, p: int, card: int, color_before: int) -> GameState:
        if is_symbol(card, DRAW_TWO):
            return end_round(d, p)
        return real(d, p, card, color_before)

    with replaced(transition, "_go_out", go_out):
        yield


@mutant("wd4-refused-when-any-card-playable", "WD4-1", "WD4-2", seam="legality.playable_cards")
def _wd4_refused_when_any_card_playable() -> Iterator[None]:
    """WD4-1 broken: a Wild Draw Four may be played only when no other card can be (RLCard's
    rule), instead of whenever the player holds no card of the colour in play; under challenges
    this also takes away the bluff of WD4-2."""
    real: Callable[[GameState], list[int]] = original(legality, "playable_cards")

    def playable_cards(state: GameState) -> list[int]:
        out = real(state)
        if WILD_DRAW_FOUR in out and any(c != WILD_DRAW_FOUR for c in out):
            out.remove(WILD_DRAW_FOUR)
        return out

    with replaced(legality, "playable_cards", playable_cards):
        yield


@mutant("wd4-restriction-ignored", "WD4-1", "WD4-6", seam="legality.wild_draw_four_forbidden")
def _wd4_restriction_ignored() -> Iterator[None]:
    """WD4-1/WD4-6 broken: with the restriction enforced (no bluffing), a Wild Draw Four may still
    be played while holding the colour in play."""

    def wild_draw_four_forbidden(profile: Profile, hand: tuple[Card, ...], color: int) -> bool:
        return False

    with replaced(legality, "wild_draw_four_forbidden", wild_draw_four_forbidden):
        yield


@mutant("wild-in-hand-blocks-wild-draw-four", "WD4-1", "WD4-2", seam="legality.holds_color, transition.holds_color")
def _wild_in_hand_blocks_wild_draw_four() -> Iterator[None]:
    """WD4-1 broken: a Wild in the hand counts as holding the colour in play, so it makes a Wild
    Draw Four restricted (refused when enforced, a guilty bluff under challenges)."""

    def holds_color(hand: tuple[Card, ...], color: int) -> bool:
        return any(COLOR_OF[c] == color or (IS_WILD[c] and c != WILD_DRAW_FOUR) for c in hand)

    with replaced(legality, "holds_color", holds_color), replaced(transition, "holds_color", holds_color):
        yield


@mutant("anyone-may-challenge", "WD4-3", seam="legality._CHECKS[Challenge]")
def _anyone_may_challenge() -> Iterator[None]:
    """WD4-3 broken: any player, not only the one who must draw the 4, may challenge a Wild Draw
    Four (the engine never checks who the challenger is)."""
    real: Callable[[GameState, Move], None] = original(legality, "_CHECKS", Challenge)

    def check(state: GameState, move: Move) -> None:
        if state.phase is not Phase.CHALLENGE:
            real(state, move)

    with replaced_item(legality, "_CHECKS", Challenge, check):
        yield


@mutant("guilty-attacker-draws-nothing", "WD4-4", seam="draft.Draft.draw (rule WD4-4)")
def _guilty_attacker_draws_nothing() -> Iterator[None]:
    """WD4-4 broken: a challenge that finds the Wild Draw Four illegal costs its player nothing
    (the guilty player does not draw the 4)."""
    yield from draw_counts({"WD4-4": lambda count: 0})


@mutant("guilty-verdict-skips-challenger", "WD4-4", seam="transition._HANDLERS[Challenge]")
def _guilty_verdict_skips_challenger() -> Iterator[None]:
    """WD4-4 broken (its RULING): after a successful challenge the challenger loses the turn, as if
    they had drawn, instead of playing on in the named colour."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        pending = before.challenge
        if pending is None or not pending.bluff or new.phase is not Phase.PLAY:
            return new
        return evolve(new, current=(pending.victim + new.direction) % len(new.hands))

    yield from wrapped_handler(Challenge, after)


@mutant("innocent-challenger-draws-four", "WD4-5", seam="transition.CHALLENGE_EXTRA")
def _innocent_challenger_draws_four() -> Iterator[None]:
    """WD4-5 broken: the challenger of an innocent Wild Draw Four draws only the 4, not 4 + 2."""
    with replaced(transition, "CHALLENGE_EXTRA", 0):
        yield


@mutant("innocent-challenger-keeps-turn", "WD4-5", seam="transition._HANDLERS[Challenge]")
def _innocent_challenger_keeps_turn() -> Iterator[None]:
    """WD4-5 broken: the challenger of an innocent Wild Draw Four draws the 6 but is not skipped."""

    def after(before: GameState, move: Move, new: GameState, log: Any) -> GameState:
        pending = before.challenge
        if pending is None or pending.bluff or new.phase is not Phase.PLAY:
            return new
        return evolve(new, current=pending.victim)

    yield from wrapped_handler(Challenge, after)
