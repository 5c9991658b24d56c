"""What each scenario, step and expectation key needs of an adapter (the capabilities of protocol v2).

Most needs follow from the scenario's text: its profile (stacking, jump-in, ...), ``start`` or
``deal``, each move's kind, each expectation key. Three depend on the moment, so they are worked
out by playing the scenario on this engine (the reference; its state is never compared with the
adapter's, only used to read the phase):

- a ``draw`` by a player who held a playable card needs ``decline-to-play`` (PLAY-5);
- a move after which the reference waits for a decision an engine without the capability takes
  by itself (keeping the drawn card, phase DRAWN: a playable one without ``draw-auto-pass``,
  one that cannot be played without ``draw-then-decide``; taking the four cards of a Wild Draw
  Four, phase CHALLENGE, without ``challenge``) has that decision *implied*: the expectation
  keys the decision changes on the reference need the capability, and a next step that is
  exactly that decision is not sent (the engine made it already);
- any other move made while the reference waits so (playing the drawn card, a second draw, a
  catch or a jump-in during a challenge, a ``challenge``) needs that capability, and an
  ``accept`` in phase PENALTY needs ``stacking``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from ...engine.cards import DRAW_FOUR_COUNT
from ...engine.errors import UnoEngineError
from ...engine.legality import legal_moves
from ...engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, NextRound, Pass, Play
from ...engine.state import GameState, Phase
from ...engine.transition import apply
from ...formats.notation import parse_move
from .adapter import EngineAdapter
from .scenarios import OBSERVED, scenario_profile

KEY_NEEDS: Final[dict[str, frozenset[str]]] = {
    "phase": frozenset({"phases"}),
    "draw_pile_size": frozenset({"pile-sizes"}),
    "discard_size": frozenset({"pile-sizes"}),
    "pending_draw": frozenset({"pending-draw"}),
    "uno_exposed": frozenset({"uno-call", "uno-catch"}),
    "scores": frozenset({"scoring"}),
    "match_winner": frozenset({"scoring"}),
    "dealer": frozenset({"dealer-draw"}),
    "legal": frozenset({"legal-moves"}),
    "legal_includes": frozenset({"legal-moves"}),
    "legal_excludes": frozenset({"legal-moves"}),
}
"""The capabilities an expectation key needs whatever the moment (``events`` and ``rejected``
are checked part by part instead: docs/conformance.md)."""
EVENT_NEEDS: Final[dict[str, frozenset[str]]] = {
    "UnoCalled": frozenset({"uno-call"}),
    "UnoNotCalled": frozenset({"uno-call"}),
    "UnoCaught": frozenset({"uno-call", "uno-catch"}),
    "ChallengeOffered": frozenset({"challenge"}),
    "HandShown": frozenset({"challenge"}),
    "ChallengeDecided": frozenset({"challenge"}),
    "PenaltyPending": frozenset({"stacking"}),
    "RoundDealt": frozenset({"next-round"}),
    "MatchEnded": frozenset({"scoring"}),
}
"""What an expected event of each type needs besides ``event:<type>`` (the part of the rules it reports)."""
LEGAL_KEYS: Final = ("legal", "legal_includes", "legal_excludes")


def waiting_for(state: GameState) -> str | None:
    """The capability without which an engine makes by itself the decision the reference waits
    for here: ``challenge`` in phase CHALLENGE (but see :func:`held_as_penalty`); in phase DRAWN
    ``draw-auto-pass`` when the drawn card can be played (the printed PLAY-4 lets the drawer
    choose), else ``draw-then-decide`` (only this engine's ruling waits for the explicit pass)."""
    if state.phase is Phase.CHALLENGE:
        return None if held_as_penalty(state) else "challenge"
    if state.phase is Phase.DRAWN:
        playable = any(isinstance(m, Play) and m.player == state.current for m in legal_moves(state, state.current))
        return "draw-auto-pass" if playable else "draw-then-decide"
    return None


def held_as_penalty(state: GameState) -> bool:
    """A Wild Draw Four awaiting its challenge under stacking, from a player who still holds
    cards: an engine without challenges holds it as a pending penalty (HOUSE-1, phase PENALTY),
    so it waits too, for ``accept`` or an answer, and takes no decision by itself."""
    pending = state.challenge
    return (state.phase is Phase.CHALLENGE and state.profile.stacking != "off" and pending is not None
            and bool(state.hands[pending.attacker]))


@attrs.frozen
class StepNeeds:
    """What one step needs: for its move to be sent at all, and for each expectation key."""

    move: frozenset[str] = frozenset()
    keys: Mapping[str, frozenset[str]] = attrs.field(factory=dict)
    implies: str | None = None
    """The capability without which the engine makes the reference's next decision itself
    (after this move); the keys it changes are in ``keys``."""
    implied: str | None = None
    """This step's move is the decision the previous step implies without this capability: for
    such an engine it is not sent."""


@attrs.frozen
class ScenarioNeeds:
    """What a scenario needs: for its set-up, and step by step."""

    setup: frozenset[str]
    steps: tuple[StepNeeds, ...]

    def capabilities(self) -> frozenset[str]:
        """Every capability the scenario can use, for an adapter to be checked on all of it."""
        out = set(self.setup)
        for step in self.steps:
            out |= step.move
            for need in step.keys.values():
                out |= need
            out |= {c for c in (step.implies, step.implied) if c}
        return frozenset(out)

    def to_json(self) -> dict[str, Any]:
        """As plain data, for the exported bundle (``needs.json``)."""
        return {
            "setup": sorted(self.setup),
            "steps": [{
                "move": sorted(s.move),
                "keys": {k: sorted(v) for k, v in sorted(s.keys.items()) if v},
                **({"implies": s.implies} if s.implies else {}),
                **({"implied": s.implied} if s.implied else {}),
            } for s in self.steps],
        }


def setup_needs(scenario: Mapping[str, Any]) -> set[str]:
    """The capabilities a scenario's set-up needs: the position or the deal, and its house rules."""
    out = {"start-position"} if "start" in scenario else {"dealing-order"}
    start = scenario.get("start", {})
    if start.get("scores"):
        out.add("scoring")
    if start.get("pending_draw"):
        out.add("stacking")
    out |= _state_needs(start)
    if "dealer_draw" in scenario.get("deal", {}):
        out.add("dealer-draw")
    profile = scenario_profile(scenario)
    if profile.stacking != "off":
        out.add("stacking")
    if profile.jump_in:
        out.add("jump-in")
    if profile.seven_zero:
        out.add("seven-zero")
    if profile.draw_until_playable:
        out.add("draw-until-playable")
    return out


_PHASE_NEEDS: Final = {
    "DRAWN": "draw-then-decide", "CHALLENGE": "challenge", "CHOOSE_COLOR": "first-card-color",
    "PENALTY": "stacking", "ROUND_OVER": "scoring", "MATCH_OVER": "scoring",
}


def _state_needs(start: Mapping[str, Any]) -> set[str]:
    """The start fields of format version 2 need ``start-state``, and each the part of the rules it sets up."""
    given = {key for key in start if key in {"phase", "drawn", "challenge_color", "attacker_hand", "uno_exposed",
                                              "passes", "known", "round_number", "last_round"}}
    if not given:
        return set()
    out = {"start-state"}
    if start.get("phase") in _PHASE_NEEDS:
        out.add(_PHASE_NEEDS[start["phase"]])
    if start.get("uno_exposed") is not None:
        out |= {"uno-call", "uno-catch"}
    if start.get("round_number", 1) != 1 or "last_round" in start:
        out.add("scoring")
    return out


def _static_move_needs(move: Move, stacking: bool) -> set[str]:
    """What a move needs, from its kind alone."""
    if isinstance(move, CallUno):
        return {"uno-call"}
    if isinstance(move, CatchUno):
        return {"uno-call", "uno-catch"}  # a catch means nothing where nobody calls
    if isinstance(move, Challenge):
        return {"challenge"}
    if isinstance(move, ChooseColor):
        return {"first-card-color"}
    if isinstance(move, NextRound):
        return {"next-round"}
    if isinstance(move, Accept) and not stacking:
        return {"challenge"}
    return set()


def scenario_needs(scenario: Mapping[str, Any], *, reference: bool = True) -> ScenarioNeeds:
    """The needs of one (checked) scenario; with ``reference``, the moment-dependent ones are
    read from this engine playing it (a set-up or move it refuses is judged from the text)."""
    setup = setup_needs(scenario)
    stacking = "stacking" in setup
    moves = [parse_move(step["move"]) for step in scenario["steps"]]
    base = [_static_move_needs(m, stacking) for m in moves]
    for i, step in enumerate(scenario["steps"]):
        refusal = step["expect"].get("rejected", {}).get("rule", "")
        move = moves[i]
        if isinstance(move, Play) and move.uno and refusal.startswith("UNO-"):
            base[i].add("uno-call")  # UNO-1: a call refused is a call made
    keys = [{k: KEY_NEEDS.get(k, frozenset()) for k in step["expect"]} for step in scenario["steps"]]
    implies: list[str | None] = [None] * len(moves)
    implied: list[str | None] = [None] * len(moves)
    state: GameState | None = None
    if reference:
        try:
            state = EngineAdapter().start(scenario)
        except UnoEngineError:
            state = None
    if state is not None:
        if state.phase is Phase.CHOOSE_COLOR:
            setup.add("first-card-color")
        if state.phase is Phase.DRAWN:  # a drawn card that can be played: the printed rule waits too
            setup = (setup - {"draw-then-decide"}) | {waiting_for(state) or "draw-then-decide"}
        for i, move in enumerate(moves):
            base[i] |= _moment_needs(state, move, implied[i] is not None)
            try:
                after = apply(state, move)
            except UnoEngineError:
                _penalty_held_keys(keys[i], state, state, move)
                continue  # refused: the state is unchanged
            _penalty_held_keys(keys[i], state, after, move)
            waiting = waiting_for(after)
            decision = _implied_decision(after) if waiting else None
            if waiting and decision is not None:
                implies[i] = waiting
                changed = _changed_keys(after, decision)
                for key in keys[i]:
                    if key in changed or key in LEGAL_KEYS:
                        keys[i][key] = keys[i][key] | {waiting}
                if i + 1 < len(moves) and moves[i + 1] == decision:
                    implied[i + 1] = waiting
            state = after
    steps = tuple(StepNeeds(frozenset(base[i]), keys[i], implies[i], implied[i]) for i in range(len(moves)))
    return ScenarioNeeds(frozenset(setup), steps)


def _moment_needs(state: GameState, move: Move, is_implied: bool) -> set[str]:
    """What a move needs at this moment of the reference game."""
    if held_as_penalty(state):  # the victim's accept or answer is that of a pending penalty (HOUSE-1)
        if isinstance(move, Accept) or (isinstance(move, Play) and move.player == state.current):
            return {"stacking"}
        return set() if isinstance(move, CallUno | CatchUno | Challenge) else {"challenge"}
    waiting = waiting_for(state)
    if waiting and not is_implied:
        return {waiting}  # any move but the implied decision, made while the reference waits for it
    if isinstance(move, Draw) and state.phase is Phase.PLAY:
        if any(isinstance(m, Play) for m in legal_moves(state, move.player)):
            return {"decline-to-play"}  # PLAY-5
    elif state.phase is Phase.PENALTY and isinstance(move, Accept):
        return {"stacking"}
    return set()


def _penalty_held_keys(keys: dict[str, frozenset[str]], before: GameState, seen: GameState, move: Move) -> None:
    """The keys an engine without challenges reports otherwise while it holds a Wild Draw Four
    as a pending penalty (:func:`held_as_penalty`): the phase (PENALTY), and the rule its events
    cite for taking a single Wild Draw Four (HOUSE-1 where this engine cites ACT-5)."""
    if "phase" in keys and held_as_penalty(seen):
        keys["phase"] = keys["phase"] | {"challenge"}
    if ("events" in keys and isinstance(move, Accept) and held_as_penalty(before)
            and before.pending_draw == DRAW_FOUR_COUNT):
        keys["events"] = keys["events"] | {"challenge"}


def _implied_decision(state: GameState) -> Move | None:
    """The decision an engine without the phase makes itself: keep the drawn card, or take the four."""
    decision: Move = Pass(state.current) if state.phase is Phase.DRAWN else Accept(state.current)
    try:
        apply(state, decision)
    except UnoEngineError:
        return None
    return decision


def _changed_keys(state: GameState, decision: Move) -> set[str]:
    """The observed facts the implied decision changes on the reference."""
    adapter = EngineAdapter()
    before, after = adapter.observe(state), adapter.observe(apply(state, decision))
    return {key for key in OBSERVED if before[key] != after[key]}
