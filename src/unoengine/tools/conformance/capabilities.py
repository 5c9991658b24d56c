"""The capabilities an adapter may claim (protocol v2): a closed, documented set of names.

The runner checks only what an adapter claims. Each name stands for one part of the rules or
of the protocol that a simple engine may lack (docs/conformance.md, "Capabilities", says what
each one requires); ``needs.py`` works out which ones each scenario, step and expectation key
needs. An unknown name is refused (:class:`CapabilityError`), so a typo never silently turns a
check off.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ...engine.errors import UnoEngineError, quoted
from ...formats.profile_file import shipped_overlays, shipped_profiles

EVENT_TYPES: Final = (
    "CardPlayed", "ColorNamed", "CardsDrawn", "PileReshuffled", "TurnSkipped", "DirectionChanged", "TurnPassed",
    "PenaltyPending", "ChallengeOffered", "HandShown", "ChallengeDecided", "UnoCalled", "UnoNotCalled", "UnoCaught",
    "HandsSwapped", "HandsRotated", "HandsShuffled", "EffectApplied", "FirstCardReturned", "RoundDealt",
    "RoundEnded", "MatchEnded",
)
"""Every event type of unoengine.events; ``event:<type>`` claims that the adapter reports it."""

FEATURES: Final[dict[str, str]] = {
    # set-up
    "start-position": "sets up an exact position (`start`: hands, discard pile, draw pile in order, colour, "
                      "direction, seat to act)",
    "dealing-order": "deals a given deck (`deal`): one card at a time from the dealer's left, then turns the "
                     "first card (SETUP-2..11)",
    "start-state": "sets up the rest of a state in `start` (format version 2): `phase` (with `drawn` for DRAWN, "
                   "`challenge_color` and `attacker_hand` for CHALLENGE), `uno_exposed`, `passes`, `known`, "
                   "`round_number`, `last_round`",
    "dealer-draw": "chooses the dealer by the SETUP-2 draw from the cards `deal.dealer_draw` gives, and `observe` "
                   "gives the `dealer`",
    "scoring": "card points and match scores: `start.scores`, `scores`, `match_winner`, the `points_won` and "
               "`scores` fields of events (SCORE-1..4)",
    "next-round": "the next round of a match: the `deal` move (SETUP-1, SCORE-4)",
    # house rules (from the scenario's resolved profile)
    "stacking": "HOUSE-1 stacking Draw cards: the PENALTY phase, `accept`, `pending_draw` in `start`",
    "jump-in": "HOUSE-2 jump-in: an identical card played out of turn",
    "seven-zero": "HOUSE-3 seven-zero: a 7 swaps hands with a named player, a 0 passes hands on",
    "draw-until-playable": "HOUSE-4 draw until a card can be played",
    # decisions
    "uno-call": "calling UNO: the `!` of a play is sent (without it, it is removed from the move), the late "
                "`uno` move, `!` variants in legal-move lists (UNO-1, UNO-5)",
    "uno-catch": "catching a player who did not call UNO: the `catch` move, `uno_exposed` (UNO-2..7)",
    "challenge": "challenging a Wild Draw Four: the CHALLENGE phase, `challenge` and `accept` (WD4-3..5)",
    "draw-then-decide": "drawing is two steps: `draw`, then the drawer plays the drawn card or keeps it with "
                        "`pass` (phase DRAWN, PLAY-4), even a card that cannot be played (this engine waits for "
                        "the explicit `pass`); claiming it claims `draw-auto-pass` too",
    "draw-auto-pass": "the printed PLAY-4: after `draw`, a drawn card that can be played waits for the drawer to "
                      "play it or keep it with `pass` (phase DRAWN); one that cannot be played is kept and the "
                      "turn passes at once, with no `pass`",
    "decline-to-play": "a player holding a playable card may `draw` instead (PLAY-5)",
    "first-card-color": "a first card that is a wild waits for the `color` move (phase CHOOSE_COLOR, SETUP-8)",
    # reports
    "phases": "`observe` names the phase (`PLAY`, `DRAWN`, `CHALLENGE`, `CHOOSE_COLOR`, `PENALTY`, "
              "`ROUND_OVER`, `MATCH_OVER`)",
    "pile-sizes": "`observe` gives `draw_pile_size` and `discard_size`",
    "pending-draw": "`observe` gives `pending_draw`",
    "legal-moves": "`legal` lists one seat's legal moves in notation",
    "wild-colors-listed": "legal-move lists give a wild play once per colour named (`p0 W:R` .. `p0 W:B`), "
                          "not once",
    "rule-citations": "refusals and events cite the RULES.md ID behind them",
    "reason-codes": "refusals give this engine's reason codes (`card-does-not-match`, ...)",
}
"""Every capability that is not an event type, with what claiming it means."""

CAPABILITIES: Final = frozenset(FEATURES) | frozenset(f"event:{t}" for t in EVENT_TYPES)
"""The closed set of capability names."""

ALL: Final = "all"
"""Shorthand an adapter (or ``--capabilities``) may give for every capability."""

IMPLIES: Final[dict[str, frozenset[str]]] = {"draw-then-decide": frozenset({"draw-auto-pass"})}
"""Capabilities that include others: an engine that waits for a decision after every draw
also waits for one after drawing a playable card (PLAY-4)."""


def with_implied(names: frozenset[str]) -> frozenset[str]:
    """The names and every capability they include (:data:`IMPLIES`)."""
    out = set(names)
    for name in names:
        out |= IMPLIES.get(name, frozenset())
    return frozenset(out)


class CapabilityError(UnoEngineError):
    """A capability list with a name that is not one of :data:`CAPABILITIES`, or of the wrong type."""


def parse_capabilities(names: object, where: str = "capabilities") -> frozenset[str]:
    """The capabilities named (``"all"`` for every one), with those they include (:data:`IMPLIES`);
    :class:`CapabilityError` names the first unknown one and where it came from."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise CapabilityError(f"{where}: expected a list of capability names, got {type(names).__name__}")
    out: set[str] = set()
    for name in names:
        if not isinstance(name, str):
            raise CapabilityError(f"{where}: a capability name must be a string, got {type(name).__name__}")
        if name == ALL:
            out |= CAPABILITIES
        elif name in CAPABILITIES:
            out.add(name)
        else:
            raise CapabilityError(f"{where}: unknown capability {quoted(name, 60)}; known: "
                                  f"{', '.join(sorted(FEATURES))}, event:<type> (docs/conformance.md)")
    return with_implied(frozenset(out))


def claimed_by(adapter: object) -> frozenset[str]:
    """What an adapter claims: its ``capabilities`` attribute, or every capability when it has
    none (a protocol v1 adapter, which was checked on everything)."""
    names = getattr(adapter, "capabilities", None)
    if names is None:
        return CAPABILITIES
    return parse_capabilities(names, f"{type(adapter).__name__}.capabilities")


def parse_profiles(names: object, where: str = "profiles") -> frozenset[str]:
    """The profiles an adapter claims to play, each written as a scenario's ``profile`` is: a
    shipped profile, or one with overlays (``"classic-108+stacking"``). Names only, never a file
    path, since a program may send them; :class:`CapabilityError` names the first that is not."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise CapabilityError(f"{where}: expected a list of profile names, got {type(names).__name__}")
    known = frozenset(shipped_profiles()) | frozenset(shipped_overlays())
    out: set[str] = set()
    for name in names:
        if not isinstance(name, str):
            raise CapabilityError(f"{where}: a profile name must be a string, got {type(name).__name__}")
        if not all(part in known for part in name.split("+")):
            raise CapabilityError(f"{where}: unknown profile {quoted(name, 60)}: expected shipped profiles and "
                                  "overlays joined by '+', e.g. classic-108+stacking (docs/profiles.md)")
        out.add(name)
    return frozenset(out)


def claimed_profiles(adapter: object) -> frozenset[str] | None:
    """The profiles an adapter declares (its ``profiles`` attribute), or None when it declares
    none: the run then takes those it started a scenario of (docs/conformance.md)."""
    names = getattr(adapter, "profiles", None)
    return None if names is None else parse_profiles(names, f"{type(adapter).__name__}.profiles")
