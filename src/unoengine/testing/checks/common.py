"""Small helpers the other parts share, kept here so that none of them imports another just for
these: a state described in one line for failure messages, a snapshot of its fields to detect any
change, a plain-int text of a move and its result for digests, and what a rule ID is made of."""

from __future__ import annotations

import attrs

import unoengine as u

_RULE_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def describe(state: u.GameState) -> str:
    """A one-line description of a state for failure messages."""
    return f"{state!r} hands={[list(h) for h in state.hands]} top={state.top_card!r} colour={state.color}"


def snapshot(state: u.GameState) -> tuple[object, ...]:
    """Every field value of a state (all immutable), to detect any change to it."""
    return tuple(getattr(state, f.name) for f in attrs.fields(u.GameState))


def fingerprint(move: u.Move, state: u.GameState) -> str:
    """A text of a move and the state after it built from plain ints (no reprs), for digests."""
    fields = tuple(None if v is None else int(v) for v in attrs.astuple(move, recurse=False))
    return str((
        type(move).__name__, fields, [[int(c) for c in h] for h in state.hands],
        [int(c) for c in state.remaining_draw_pile], [int(c) for c in state.discard_pile],
        state.current, state.color, state.direction, int(state.phase), state.rng,
    ))
