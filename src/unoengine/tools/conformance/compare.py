"""Comparing one step's expectations with what an adapter reports, as far as it claims to go.

A :class:`Tally` collects, for one scenario, the mismatches, the parts not checked (each with
the capability it needed) and how many checks were made. Legal-move lists are compared after
both sides are put in the same form for the adapter's capabilities (:func:`normal_move`,
docs/conformance.md "Legal moves").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs

from ...engine.cards import IS_WILD, parse_cards
from ...engine.errors import NotationError, shown
from ...engine.limits import MAX_QUOTED_CHARS, MAX_SHOWN_CHARS
from ...engine.moves import CallUno, CatchUno, Challenge, Draw, Move, Play
from ...formats.notation import format_move, parse_move
from .adapter import Rejected
from .needs import EVENT_NEEDS, StepNeeds
from .scenarios import OBSERVED

SCORING_FIELDS: Final = frozenset({"points_won", "scores"})
"""Event fields that need ``scoring``."""


@attrs.define
class Tally:
    """What one scenario's checks found so far."""

    claimed: frozenset[str]
    failures: list[str] = attrs.field(factory=list)
    unsupported: list[str] = attrs.field(factory=list)
    checks: int = 0
    lacked: set[str] = attrs.field(factory=set)
    """Every capability that a part not checked needed."""

    def lacking(self, needs: Iterable[str]) -> frozenset[str]:
        return frozenset(needs) - self.claimed

    def skip(self, where: str, what: str, needs: Iterable[str]) -> None:
        needs = sorted(needs)
        self.lacked.update(needs)
        self.unsupported.append(f"{where}: {what} not checked (needs {', '.join(needs)})")

    def check(self, ok: bool, failure: str) -> None:
        self.checks += 1
        if not ok:
            self.failures.append(failure)

    def usable(self, key: str, step: StepNeeds, where: str) -> bool:
        """Whether expectation ``key`` of the step is checked (else it is recorded as not)."""
        missing = self.lacking(step.keys.get(key, ()))
        if missing:
            self.skip(where, key, missing)
        return not missing


def said(value: Any) -> str:
    """What an adapter reported (or a scenario expects), for a failure: a short printable text as
    it is, anything else shown briefly and escaped (MAX_SHOWN_CHARS), however long or odd it is."""
    if isinstance(value, str) and len(value) <= MAX_QUOTED_CHARS and value.isprintable():
        return value
    return shown(value, MAX_SHOWN_CHARS)


def _value(value: Any) -> str:
    """A value in a failure, as its repr when that is short (``[2, 4, 2]``, ``'R7'``), else cut."""
    return shown(value, MAX_SHOWN_CHARS)


def check_rejection(tally: Tally, expect: Mapping[str, Any], refusal: Rejected, where: str) -> None:
    wanted = expect.get("rejected")
    if wanted is None:
        tally.check(False, f"{where}: refused ({said(str(refusal))}), expected it to be accepted")
        return
    tally.checks += 1  # refused, as it must be
    if "rule-citations" in tally.claimed:
        tally.check(refusal.rule == wanted["rule"],
                    f"{where}: refused citing {said(refusal.rule) if refusal.rule else 'no rule'}, "
                    f"expected {said(wanted['rule'])}")
    else:
        tally.skip(where, f"the rule cited ({said(wanted['rule'])})", ["rule-citations"])
    if "reason" in wanted:
        if "reason-codes" in tally.claimed:
            tally.check(refusal.reason == wanted["reason"],
                        f"{where}: refused for {_value(refusal.reason)}, expected {_value(wanted['reason'])}")
        else:
            tally.skip(where, f"the reason ({said(wanted['reason'])})", ["reason-codes"])


def check_observed(tally: Tally, expect: Mapping[str, Any], seen: Mapping[str, Any], step: StepNeeds,
                   where: str) -> None:
    for key in OBSERVED:
        if key not in expect or not tally.usable(key, step, where):
            continue
        want = expect[key]
        if key not in seen:
            tally.check(False, f"{where}: observe gave no {key!r}")
            continue
        got = seen[key]
        if key == "hands":
            for seat, cards in want.items():
                have = got[int(seat)] if isinstance(got, list) and int(seat) < len(got) else None
                tally.check(have is not None and _same_cards(cards, have),
                            (
                                f"{where}: there is no seat p{seat}" if have is None
                                else f"{where}: hand of p{seat} is {_value(have)}, expected {_value(cards)}"))
        else:
            tally.check(want == got, f"{where}: {key} is {_value(got)}, expected {_value(want)}")


def _same_cards(want: str, have: Any) -> bool:
    try:
        return isinstance(have, str) and Counter(parse_cards(want)) == Counter(parse_cards(have))
    except NotationError:
        return False


def check_events(tally: Tally, wanted: list[dict[str, Any]], events: list[dict[str, Any]], where: str) -> None:
    """Each expected event the adapter claims must occur, in order, with the fields it gives and
    the adapter claims (a subsequence); the others are recorded as not checked."""
    looked_for = []
    for want in wanted:
        kind = str(want.get("type"))
        missing = tally.lacking({f"event:{kind}", *EVENT_NEEDS.get(kind, ())})
        if missing:
            tally.skip(where, f"event {kind}", missing)
            continue
        fields = dict(want)
        if "rule-citations" not in tally.claimed:
            fields.pop("rule", None)
        if "scoring" not in tally.claimed:
            for name in SCORING_FIELDS & set(fields):
                tally.skip(where, f"{want['type']}.{name}", ["scoring"])
                del fields[name]
        looked_for.append(fields)
    if not looked_for:
        return
    i = 0
    for want in looked_for:
        while i < len(events) and not _event_matches(want, events[i]):
            i += 1
        if i == len(events):
            tally.check(False, f"{where}: expected event {_value(want)} (in order) among {len(events)} "
                               f"event(s): {_value(events)}")
            return
        i += 1
    tally.checks += 1


def _event_matches(want: Mapping[str, Any], got: Any) -> bool:
    if not isinstance(got, dict):
        return False
    for key, value in want.items():
        if key == "cards":
            if not _same_cards(value, got.get(key, "")):
                return False
        elif got.get(key) != value:
            return False
    return True


# --- legal moves -----------------------------------------------------------------------------
def normal_move(text: str, claimed: frozenset[str]) -> str | None:
    """A move in the form both lists are compared in, for these capabilities; None for a move
    that is left out of the comparison (a kind of move the adapter does not claim)."""
    move = parse_move(text)
    return _normal(move, claimed)


def _normal(move: Move, claimed: frozenset[str]) -> str | None:
    if isinstance(move, CallUno) and "uno-call" not in claimed:
        return None
    if isinstance(move, CatchUno) and not {"uno-call", "uno-catch"} <= claimed:
        return None
    if isinstance(move, Challenge) and "challenge" not in claimed:
        return None
    if isinstance(move, Play):
        if move.uno and "uno-call" not in claimed:
            move = attrs.evolve(move, uno=False)
        if move.color is not None and IS_WILD[move.card] and "wild-colors-listed" not in claimed:
            move = attrs.evolve(move, color=None)
    return format_move(move)


def _normal_set(moves: Iterable[Any], claimed: frozenset[str]) -> tuple[set[str], list[Any]]:
    """The normal forms of a list of moves, and the entries that are not moves in notation."""
    out: set[str] = set()
    bad: list[Any] = []
    for m in moves:
        try:
            normal = normal_move(m, claimed) if isinstance(m, str) else None
        except NotationError:
            normal = None
        if normal is None and not (isinstance(m, str) and _is_move(m)):
            bad.append(m)
        elif normal is not None:
            out.add(normal)
    return out, bad


def _is_move(text: str) -> bool:
    try:
        parse_move(text)
    except NotationError:
        return False
    return True


def _without_declined_draw(moves: set[str], claimed: frozenset[str]) -> set[str]:
    """Without ``decline-to-play``: a seat's ``draw`` is left out when it also has a play (PLAY-5)."""
    if "decline-to-play" in claimed:
        return moves
    players_with_plays = {parse_move(m).player for m in moves if isinstance(parse_move(m), Play)}
    return {m for m in moves if not (isinstance(parse_move(m), Draw) and parse_move(m).player in players_with_plays)}


def check_legal(tally: Tally, expect: Mapping[str, Any], legal: Callable[[int], list[str]], players: int,
                step: StepNeeds, where: str) -> None:
    claimed = tally.claimed
    if "legal" in expect and tally.usable("legal", step, where):
        for seat, moves in expect["legal"].items():
            reported = legal(int(seat))
            have, bad = _normal_set(reported if isinstance(reported, list) else [reported], claimed)
            want, _ = _normal_set(moves, claimed)
            have, want = _without_declined_draw(have, claimed), _without_declined_draw(want, claimed)
            tally.check(have == want and not bad, (
                f"{where}: legal moves of p{seat}: missing {_value(sorted(want - have))}, "
                f"extra {_value(sorted(have - want))}"
                + (f", not moves in notation: {_value(bad)}" if bad else "")))
    listed = [k for k in ("legal_includes", "legal_excludes") if k in expect and tally.usable(k, step, where)]
    if not listed:
        return
    everyone: set[str] = set()
    for q in range(players):
        everyone |= _normal_set(legal(q), claimed)[0]
    for key in listed:
        present = key == "legal_includes"
        for m in expect[key]:
            normal = normal_move(m, claimed)
            if normal is None:
                tally.skip(where, f"{key} {m!r}", _needs_of(m))
            elif isinstance(parse_move(m), Draw) and "decline-to-play" not in claimed:
                tally.skip(where, f"{key} {m!r}", ["decline-to-play"])
            else:
                tally.check((normal in everyone) == present, (
                    f"{where}: {m!r} {'missing from' if present else 'listed among'} the legal moves"))


def _needs_of(move: str) -> list[str]:
    kind = type(parse_move(move))
    return {CallUno: ["uno-call"], CatchUno: ["uno-call", "uno-catch"], Challenge: ["challenge"]}.get(kind, [])
