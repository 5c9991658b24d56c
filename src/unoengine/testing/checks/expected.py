"""The rules' own model of which moves are legal, written from RULES.md independently of the
engine's move generator (nothing here calls ``legal_moves``), so that the checks can compare the
two: which card may go on which, what a turn, an answer to a Draw card or a jump-in may be, and
who deals next."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

import unoengine as u

from ...engine.effects import get_effect


def matches(top: int, color: int, card: int) -> bool:
    """PLAY-1..3, written independently of the engine: may ``card`` go on ``top`` with ``color``?"""
    c = u.CARDS[card]
    t = u.CARDS[top]
    if c.is_wild:
        return True
    if c.color == color:
        return True
    return not t.is_wild and c.symbol == t.symbol


def playable_from(profile: u.Profile, top: int, color: int, hand: Sequence[int], card: int) -> bool:
    """PLAY-1..3 and WD4-1 (enforced mode): may ``card`` be played from ``hand``?"""
    if not matches(top, color, card):
        return False
    restricted = card == u.WILD_DRAW_FOUR and profile.wild_draw_four == "enforced"
    return not (restricted and any(u.CARDS[c].color == color for c in hand))


def needs_target(profile: u.Profile, card: int) -> bool:
    """ACT-7, ACT-8: Swap Hands names an opponent; so do customizable/blank cards whose effect says it
    needs one (as registered); HOUSE-3: so does a 7 under seven-zero."""
    return (
        card == u.WILD_SWAP_HANDS
        or (card in (u.WILD_CUSTOMIZABLE, u.BLANK) and get_effect(profile.custom_effect).needs_target)
        or (profile.seven_zero and not u.CARDS[card].is_wild and u.CARDS[card].symbol == 7)
    )


def draw_kind(card: int) -> str | None:
    """"D2" for a Draw Two of any colour, "D4" for a Wild Draw Four, else None (ACT-3, ACT-5)."""
    c = u.CARDS[card]
    if card == u.WILD_DRAW_FOUR:
        return "D4"
    return "D2" if not c.is_wild and c.symbol == u.DRAW_TWO else None


STACK_ANSWERS: dict[str, set[tuple[str, str]]] = {
    "off": set(),
    "same-kind": {("D2", "D2"), ("D4", "D4")},
    "cross": {("D2", "D2"), ("D2", "D4"), ("D4", "D2"), ("D4", "D4")},
    "equal-or-higher": {("D2", "D2"), ("D2", "D4"), ("D4", "D4")},
}
"""HOUSE-1, written from RULES.md: the (card on top, answer) pairs each stacking variant allows."""


@cache
def _play(p: int, c: int, k: u.Color | None, t: int | None, uno: bool) -> u.Move:
    """A Play, built once (building moves is most of the cost of checking every step)."""
    return u.Play(p, u.CARDS[c], k, t, uno)


_ALL_COLOURS: tuple[u.Color | None, ...] = tuple(u.Color)


def _plays(state: u.GameState, p: int, cards: Iterable[int]) -> set[u.Move]:
    """Every Play of ``cards`` by ``p``: each colour of a wild, each target, with and without UNO-1 call."""
    prof = state.profile
    n = state.num_players
    calls = (False, True) if len(state.hands[p]) == 2 else (False,)
    out: set[u.Move] = set()
    for c in cards:
        targets = [t for t in range(n) if t != p] if needs_target(prof, c) else [None]
        colours = _ALL_COLOURS if u.CARDS[c].is_wild else (None,)
        out.update(_play(p, c, k, t, uno) for k in colours for t in targets for uno in calls)
    return out


def expected_turn_moves(state: u.GameState) -> set[u.Move]:
    """The in-turn moves of the player to act while a round runs, computed from the rules alone:
    PLAY-1..3 matching, WD4-1 (enforced mode), ACT-4 colour, ACT-7/8 target, UNO-1 call only from
    two cards, PLAY-4/5 (after a draw only the drawn card, or keep it), HOUSE-5 (no draw while able
    to play), PLAY-7 (pass only with nothing to play or draw); WD4-3 (Challenge or Accept) and
    HOUSE-1 (facing a Draw card under stacking: an answer the variant allows, or Accept; no answer
    to a last card)."""
    prof = state.profile
    cur = state.current
    hand = state.hands[cur]
    top, color = state.top_card, state.color
    if state.phase in (u.Phase.PENALTY, u.Phase.CHALLENGE):
        answers = STACK_ANSWERS[prof.stacking]
        attacker_out = state.challenge is not None and not state.hands[state.challenge.attacker]
        cards = set() if attacker_out else {
            c for c in hand
            if (draw_kind(top), draw_kind(c)) in answers and playable_from(prof, top, color, hand, c)
        }
        out = _plays(state, cur, cards)
        out.add(u.Accept(cur))
        if state.phase is u.Phase.CHALLENGE:
            out.add(u.Challenge(cur))
        return out
    drawn_phase = state.phase is u.Phase.DRAWN
    candidates = {state.drawn} if drawn_phase else set(hand)
    out = _plays(state, cur, {c for c in candidates if c is not None and playable_from(prof, top, color, hand, c)})
    if drawn_phase:
        out.add(u.Pass(cur))
        return out
    can_draw = state.draw_pile_size > 0 or state.discard[1] > 1
    if can_draw and (prof.decline_to_play or not out):
        out.add(u.Draw(cur))
    if not out:
        out.add(u.Pass(cur))
    return out


def expected_jump_ins(state: u.GameState) -> set[u.Move]:
    """HOUSE-2, from the rules alone: while a turn is played or a Draw card answered, every player
    but the one to act may play a card identical to the top card (never a wild)."""
    prof = state.profile
    top = state.top_card
    if not prof.jump_in or top.is_wild or state.phase not in (u.Phase.PLAY, u.Phase.DRAWN, u.Phase.PENALTY):
        return set()
    out: set[u.Move] = set()
    for q in range(state.num_players):
        if q != state.current and top in state.hands[q]:
            out |= _plays(state, q, {top})
    return out


def next_dealer(state: u.GameState) -> int:
    """SETUP-11: the dealer of the next round, computed independently of the engine."""
    last = state.match.last_round
    if state.profile.next_dealer == "winner" and last is not None:
        return last.winner
    return (state.match.dealer + 1) % state.num_players
