"""Clause coverage: which rule IDs the random suite and the conformance corpus exercise, from the rule IDs
cited by events and refusals. CI fails if a rule of the catalogue (docs/rules-catalogue.md) is exercised by neither.

Some rules are structure rather than moments of play, so no event or refusal cites them: the deck
compositions (DECK-1..5), the deal and the dealer (SETUP-2..4), card points (SCORE-1), a catch window
left open through a penalty (UNO-7), whether a Wild Draw Four was a bluff (WD4-2: hidden information)
and the profile values themselves (WD4-6, HOUSE-8). The property tests check them as invariants, and
the corpus must declare passing scenarios for each.
"""

from __future__ import annotations

import random

import attrs
import pytest
from budget import budget
from helpers_rules import rule_ids

import unoengine as u
from unoengine import conformance as c
from unoengine.testing import candidate_moves

STRUCTURAL = frozenset({
    "DECK-1", "DECK-2", "DECK-3", "DECK-4", "DECK-5", "SETUP-2", "SETUP-3", "SETUP-4", "SCORE-1", "UNO-7",
    "WD4-2", "WD4-6", "HOUSE-8",
})


def random_suite_rules(games_per_profile: int = budget(6, 12)) -> set[str]:
    """Rule IDs cited while playing random matches under every base and every overlay (on two
    bases), with events, and while trying candidate illegal moves on a sample of states. (Four
    games per profile already cite every rule; the quick loop plays six, the deep run twelve.)"""
    seen: set[str] = set()
    specs = [*u.shipped_profiles()] + [f"{b}+{o}" for b in ("classic-108", "gdj85") for o in u.shipped_overlays()]
    for spec in specs:
        profile = attrs.evolve(u.load_profile(spec), target_score=min(u.load_profile(spec).target_score, 150))
        for g in range(games_per_profile):
            state = u.new_game(profile, 2 + g % 5, seed=g)
            rng = random.Random(f"{spec}/{g}")
            for _ in range(3000):
                if state.match_over:
                    break
                legal = u.legal_moves(state)
                if rng.random() < 0.05:
                    for m in candidate_moves(state, rng, 10):
                        if m not in legal:
                            with pytest.raises(u.IllegalMoveError) as info:
                                u.apply(state, m)
                            seen.add(info.value.rule)
                plays = [m for m in legal if type(m) is u.Play]
                move = rng.choice(plays if plays and rng.random() < 0.8 else legal)
                state, events = u.apply_with_events(state, move)
                seen.update(e.rule for e in events)
    return seen


def test_every_rule_is_exercised_by_the_random_suite_or_the_corpus() -> None:
    """Every rule ID: cited by an event or refusal of the random suite, or (for the structural rules) by a
    passing corpus scenario; the structural list holds nothing the random suite does cite."""
    rules = rule_ids()
    random_seen = random_suite_rules()
    report = c.run(c.load_scenarios(c.shipped_corpus()))
    corpus_declared = {r for o in report.outcomes if o.status == "passed" for r in o.rules}
    corpus_cited = report.rules_exercised()
    missing = sorted(rules - STRUCTURAL - random_seen - corpus_cited)
    assert not missing, f"rules no event or refusal cites, in the random suite or the corpus: {missing}"
    assert not (STRUCTURAL & random_seen), f"listed as structural yet cited: {sorted(STRUCTURAL & random_seen)}"
    undeclared = sorted(STRUCTURAL - corpus_declared)
    assert not undeclared, f"structural rules no passing corpus scenario declares: {undeclared}"
    assert random_seen <= rules | {"MOVE"}, f"events or refusals cite unknown rule IDs: {sorted(random_seen - rules)}"
