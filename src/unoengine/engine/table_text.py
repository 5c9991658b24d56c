"""The short text of a state or a view: ``print(state)`` and ``print(view)`` show the table in a
few lines, in the package's card names (``R7``, ``Y+2``, ``W+4``), as a chess library prints a
board. ``repr`` keeps the full form.

The two forms differ only in which hands they show: a state shows every hand, a view its own
hand and the others' sizes (with the cards its player knows to be in them, ``known``), so the
text of a view holds nothing its player may not know. Both are built from a :class:`Table` of
plain values, so this module needs neither the state nor the view: it is only called on print,
never on the hot path.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import COLORS, Card


class Table(NamedTuple):
    """What the text shows, read from a state or from a view."""

    profile: str
    viewer: int | None
    """The player whose view this is, or None for a state (every hand shown)."""
    round_number: int
    dealer: int
    scores: tuple[int, ...]
    target: int
    phase: str
    """The :class:`~unoengine.engine.state.Phase` by name."""
    current: int
    direction: int
    top: Card
    color: int
    """The colour in play (0..3), or -1 while a first-card wild awaits its colour (SETUP-8)."""
    draw_pile_size: int
    discard_size: int
    pending_draw: int
    attacker: int | None
    """Who played the Wild Draw Four awaiting a challenge (WD4-3), if any."""
    drawn: Card | None
    """The card just drawn (PLAY-4), where the text may show it."""
    uno_exposed: int | None
    """Who may be caught for not calling UNO (UNO-2), if anyone."""
    sizes: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each hand, or None where it is hidden."""
    known: dict[int, tuple[Card, ...]]
    """Cards the viewer knows to be in another player's hand (ACT-7, HOUSE-3, WD4-3), by owner."""
    round_winner: int | None
    blocked: bool
    match_winner: int | None


def table_text(t: Table) -> str:
    """The lines of the table: the match, who acts and what is open, the piles, then each hand."""
    whose = f"p{t.viewer}'s view of " if t.viewer is not None else ""
    scores = " ".join(map(str, t.scores))
    lines = [
        f"{whose}{t.profile}, round {t.round_number}, dealer p{t.dealer}; scores {scores} (target {t.target})",
        _to_act(t),
        f"top {t.top!r}, colour {_colour(t.color)}; draw pile {t.draw_pile_size}, discard pile {t.discard_size}",
    ]
    in_round = t.phase not in ("ROUND_OVER", "MATCH_OVER")
    for p, size in enumerate(t.sizes):
        mark = "> " if in_round and p == t.current else "  "
        lines.append(f"{mark}p{p} {_hand(t, p, size)}{_uno(t, p, size)}".rstrip())
    return "\n".join(lines)


def _colour(color: int) -> str:
    return str(COLORS[color]) if color >= 0 else "not named yet"


def _to_act(t: Table) -> str:
    """Who acts and on what: the phase, with a challenge, a pending draw or a drawn card."""
    p = f"p{t.current}"
    if t.phase == "MATCH_OVER":
        return f"match over: p{t.match_winner} won the match"
    if t.phase == "ROUND_OVER":
        return f"round over: p{t.round_winner} won the round" + (" (blocked: lowest hand)" if t.blocked else "")
    if t.phase == "CHALLENGE":
        what = f"{p} to challenge p{t.attacker}'s Wild Draw Four or accept {t.pending_draw} cards"
    elif t.phase == "PENALTY":
        what = f"{p} to stack a Draw card or accept {t.pending_draw} cards"
    elif t.phase == "DRAWN":
        card = f"{t.drawn!r}" if t.drawn is not None else "a card"
        what = f"{p} drew {card}: play it or keep it"
    elif t.phase == "CHOOSE_COLOR":
        what = f"{p} to name the first card's colour"
    else:
        what = f"{p} to play"
    return what + (", clockwise" if t.direction > 0 else ", counter-clockwise")


def _hand(t: Table, p: int, size: int) -> str:
    hand = t.hands[p]
    count = f"{size:>2} card" + ("" if size == 1 else "s")
    if hand is None:
        known = t.known.get(p)
        return count + (f" (known: {' '.join(map(repr, known))})" if known else "")
    return f"{size:>2}  {' '.join(map(repr, hand))}" if hand else count


def _uno(t: Table, p: int, size: int) -> str:
    if p == t.uno_exposed:
        return "  UNO not called: may be caught"
    return "  UNO" if size == 1 else ""
