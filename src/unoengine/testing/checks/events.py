"""The check of the events a move reports: ``apply_with_events`` takes the engine's general path,
not the shortcut ``apply`` takes, so its state and its events are checked against ``apply``'s."""

from __future__ import annotations

import unoengine as u

from .common import _RULE_ID_CHARS, describe

_HAND_MOVERS = ("HandsSwapped", "HandsRotated", "HandsShuffled", "EffectApplied")


def check_events(state: u.GameState, move: u.Move, after: u.GameState) -> None:
    """apply_with_events gives the state apply gives, through the general (non-shortcut) path, and
    its events account for the move: a play is reported first, every event cites a rule ID, and
    (unless hands moved between players) each hand changed by the cards reported drawn minus the
    card played."""
    new, events = u.apply_with_events(state, move)
    assert new == after, f"apply_with_events({move!r}) differs from apply: {describe(state)}"
    for e in events:
        assert e.rule and set(e.rule) <= _RULE_ID_CHARS, f"event {e!r} cites no rule ID"
    if isinstance(move, u.Play):
        first = events[0]
        assert isinstance(first, u.events.CardPlayed), f"{move!r}: first event {first!r}"
        assert (first.player, first.card) == (move.player, move.card), f"{move!r} reported as {first!r}"
    if isinstance(move, u.NextRound) or any(type(e).__name__ in _HAND_MOVERS for e in events):
        return
    change = [0] * state.num_players
    for e in events:
        if isinstance(e, u.events.CardsDrawn):
            assert e.count == len(e.cards), f"{e!r}: count and cards disagree"
            change[e.player] += e.count
        elif isinstance(e, u.events.CardPlayed):
            change[e.player] -= 1
    actual = [len(after.hands[q]) - len(state.hands[q]) for q in range(state.num_players)]
    assert change == actual, f"{move!r}: events {events} account for {change}, hands changed {actual}"
