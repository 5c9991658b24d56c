"""The mutation score: every documented mutant of the engine (unoengine.testing.mutants) is caught
by the shipped conformance corpus, and each mutant leaves the engine as it found it.

A mutant is caught by a scenario that passes on the engine and fails, errors or raises under the
mutant. The quick loop runs each mutant over the scenarios that declare a rule it breaks (its own
rule family, a fraction of a second each); the deep run (``--deep``) runs each over the whole
corpus, which is what docs/conformance.md's table reports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from budget import DEEP
from helpers_rules import rule_ids

import unoengine as u
from unoengine.engine import dealer_draw, dealing, draft, legality, profile, scoring, transition
from unoengine.testing import mutants as mt
from unoengine.testing.mutants import base
from unoengine.tools.conformance import EngineAdapter, load_scenarios, shipped_corpus

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "conformance.md"

_CORPUS: list[dict[str, Any]] = []
_BASELINE: dict[str, str] = {}


def corpus() -> list[dict[str, Any]]:
    """The whole shipped corpus, loaded once per process (about a second: each scenario's profile
    is resolved as it is checked), for the deep run."""
    if not _CORPUS:
        _CORPUS.extend(load_scenarios(shipped_corpus()))
    return _CORPUS


@pytest.fixture(scope="session")
def witnesses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The witness scenarios by id, loaded through load_scenarios like the whole corpus (with the
    first corpus file's header) but without checking the other scenarios: the quick loop's share."""
    wanted = set(WITNESSES.values())
    header: dict[str, Any] = {}
    found = []
    for path in shipped_corpus():
        document = json.loads(path.read_text(encoding="utf-8"))
        header = header or {k: v for k, v in document.items() if k not in ("scenarios", "description")}
        header["version"] = max(header["version"], document["version"])  # the newest format read holds them all
        found += [s for s in document["scenarios"] if s["id"] in wanted]
    path = tmp_path_factory.mktemp("witnesses") / "witnesses.json"
    path.write_text(json.dumps({**header, "scenarios": found}), encoding="utf-8")
    return {s["id"]: s for s in load_scenarios([path])}


def baseline(scenarios: list[dict[str, Any]]) -> Mapping[str, str]:
    """Each scenario's status on the real engine, worked out once per scenario per process."""
    for s in scenarios:
        if s["id"] not in _BASELINE:
            _BASELINE[s["id"]] = mt.scenario_status(s, EngineAdapter())
    return _BASELINE


def engine_snapshot() -> dict[str, int]:
    """The identity of everything a mutant may patch: the engine modules' attributes, the tables
    they look entries up in, and the Draft and Profile classes' attributes."""
    out: dict[str, int] = {}
    for module in (dealer_draw, dealing, draft, legality, scoring, transition, profile):
        for name, value in vars(module).items():
            if module is legality and name == "_last_legal":
                continue  # the memo of the last legal-move list, which a mutant empties on purpose
            out[f"{module.__name__}.{name}"] = id(value)
            if isinstance(value, dict):
                out.update({f"{module.__name__}.{name}[{k!r}]": id(v) for k, v in value.items()})
    for cls in (draft.Draft, profile.Profile):
        out.update({f"{cls.__name__}.{name}": id(value) for name, value in vars(cls).items()})
    return out


@pytest.fixture
def real_engine() -> Iterator[None]:
    """The test fails if the engine is not exactly as it was afterwards."""
    before = engine_snapshot()
    yield
    after = engine_snapshot()
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"left patched: {changed}"


def test_the_mutants_are_many_distinct_and_documented() -> None:
    """At least 20 mutants (issue 15, item 4), each with a unique name, the rule IDs it breaks (main
    one first, cited in its description), the seam it patches, and a description of the wrong rule."""
    assert len(mt.MUTANTS) >= 20
    names = [m.name for m in mt.MUTANTS]
    assert len(set(names)) == len(names)
    known = rule_ids()
    for m in mt.MUTANTS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", m.name), m.name
        assert m.rules and all(re.fullmatch(r"[A-Z0-9]+-\d+", r) for r in m.rules), m
        assert set(m.rules) <= known, f"{m.name}: unknown rule IDs {set(m.rules) - known}"
        assert m.description.startswith(m.rules[0]) and " broken" in m.description, m.name
        assert m.seam and len(m.description) > 40, m.name
    assert mt.by_name(names[0]) is mt.MUTANTS[0]
    with pytest.raises(mt.MutantError, match="there is no mutant 'nope'"):
        mt.by_name("nope")


def test_each_mutant_changes_the_engine_and_restores_it(real_engine: None) -> None:
    """Inside ``active()`` something the engine uses is replaced (the seam exists and is patched);
    on leaving, normally or by an exception, everything is back (but the memo of the last list of
    legal moves, which a mutant empties so that no list made by one engine is trusted by the other)."""
    legality.legal_moves(u.new_game("classic-108", 3, seed=1))  # a memo left by an earlier test
    before = engine_snapshot()
    for m in mt.MUTANTS:
        with m.active():
            assert engine_snapshot() != before, f"{m.name} patched nothing"
        assert engine_snapshot() == before, m.name
        with pytest.raises(RuntimeError, match="inside"), m.active():
            raise RuntimeError("inside")
        assert engine_snapshot() == before, m.name


def test_a_moved_seam_is_reported_not_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the engine's internals move, a mutant says which seam is gone instead of testing
    nothing (and the engine is left alone)."""
    monkeypatch.delattr(transition, "CHALLENGE_EXTRA")
    with pytest.raises(mt.MutantSeamError, match="has no CHALLENGE_EXTRA"), \
            mt.by_name("innocent-challenger-draws-four").active():
        pass
    handlers = transition._HANDLERS
    monkeypatch.setattr(transition, "_HANDLERS", {k: v for k, v in handlers.items() if k.__name__ != "Draw"})
    with pytest.raises(mt.MutantSeamError, match="has no entry"), mt.by_name("uno-window-survives-draw").active():
        pass


def test_a_mutant_that_only_crashes_the_engine_counts_as_caught(
    real_engine: None, witnesses: dict[str, dict[str, Any]]
) -> None:
    """A mutant that makes the engine raise is caught even if the runner does not isolate the
    exception ("raised"); an unmutated scenario passes, so it is not listed as catching anything."""
    scenario = witnesses[WITNESSES["draw-two-victim-keeps-turn"]]

    def crash() -> Iterator[None]:
        def card_effect(*args: Any) -> None:
            raise ZeroDivisionError("broken")

        with base.replaced(transition, "_card_effect", card_effect):
            yield

    from contextlib import contextmanager

    crasher = mt.Mutant("crash", ("ACT-3",), "transition._card_effect", "ACT-3 broken: crashes.", contextmanager(crash))
    assert "ACT-3" in scenario["rules"]
    result = mt.catching_scenarios(crasher, [scenario], baseline([scenario]))
    assert result.caught_by == (scenario["id"],)
    assert mt.scenario_status(scenario, EngineAdapter()) == "passed"
    report = mt.MutationReport((result, mt.MutantResult(mt.MUTANTS[0], (), 1)))
    assert report.score == (1, 2)
    assert report.survivors() == [mt.MUTANTS[0].name]
    table = mt.markdown_table(report)
    assert result.declaring == (scenario["id"],)
    assert f"| `crash` | ACT-3 | crashes. | 1 (1): `{scenario['id']}` |" in table
    assert f"| `{mt.MUTANTS[0].name}` |" in table and "**nothing**" in table
    assert "Mutation score: 1 of 2 mutants caught." in table


def test_the_report_command_refuses_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert mt.main(["--bogus"]) == 2
    assert "unknown ['--bogus']" in capsys.readouterr().err


def test_conformance_doc_lists_every_mutant() -> None:
    """docs/conformance.md's mutation table names every mutant (regenerate it with the command it
    gives when a mutant is added)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Mutation score", 1)[1]
    missing = [m.name for m in mt.MUTANTS if f"| `{m.name}` |" not in section]
    assert not missing, f"docs/conformance.md's mutation table lacks {missing}"
    assert "python -m unoengine.testing.mutants" in section


WITNESSES: dict[str, str] = {
    "anyone-may-challenge": "wd4-3-only-the-victim-may-challenge",
    "innocent-challenger-draws-four": "wd4-5-innocent-challenger-draws-six-and-is-skipped",
    "guilty-attacker-draws-nothing": "wd4-4-guilty-attacker-draws-four-challenger-plays-on-named-colour",
    "guilty-verdict-skips-challenger": "wd4-4-guilty-attacker-draws-four-challenger-plays-on-named-colour",
    "innocent-challenger-keeps-turn": "wd4-5-innocent-challenger-draws-six-and-is-skipped",
    "wd4-refused-when-any-card-playable": "wd4-1-another-wild-does-not-block",
    "wd4-restriction-ignored": "wd4-1-enforced-drawn-wild-draw-four-can-only-be-kept",
    "named-colour-ignored": "play-1-colour-named-with-a-wild-binds-the-next-player",
    "action-symbol-does-not-match": "play-2-draw-two-on-draw-two-of-another-colour",
    "no-decline-to-play": "play-5-after-declining-only-the-drawn-card-may-be-played",
    "any-card-after-drawing": "play-5-after-declining-only-the-drawn-card-may-be-played",
    "drawn-card-auto-played": "play-4-draw-then-keep-a-playable-card",
    "reshuffle-takes-the-top-card": "play-7-reshuffle-keeps-the-top-card-on-the-discard-pile",
    "skip-skips-two": "act-1-skip-next-player-loses-turn",
    "reverse-does-not-reverse": "act-2-reverse-three-players",
    "two-player-reverse-not-skip": "house-6-classic-108-two-player-reverse-acts-as-skip",
    "draw-two-victim-keeps-turn": "act-3-draw-two-with-two-players-plays-again",
    "last-draw-two-not-drawn": "act-9-last-draw-two-is-still-drawn-and-counted",
    "seven-zero-passes-backwards": "house-3-zero-rotates-hands-counter-clockwise",
    "stack-total-off-by-one": "house-1-cross-draw-two-answers-wild-draw-four-in-named-colour",
    "same-kind-stacking-crosses": "house-1-same-kind-draw-two-cannot-answer-wild-draw-four",
    "jump-in-on-same-number": "house-2-jump-in-seven-swaps-with-jumper-target",
    "called-uno-still-exposed": "uno-1-call-with-a-wild-draw-four",
    "late-call-not-safe": "uno-4-late-self-call-makes-the-player-safe",
    "uno-penalty-always-two": "uno-2-mattel-42003-penalty-is-four",
    "uno-window-closes-on-penalty": "uno-7-two-players-exposed-players-own-move-closes-the-window",
    "uno-window-survives-draw": "uno-5-too-late-once-the-next-player-has-drawn",
    "first-draw-two-not-skipping": "setup-7-first-draw-two-first-player-draws-two-and-is-skipped",
    "first-reverse-right-of-dealer-plays": "setup-6-first-reverse-dealer-plays-first-counterclockwise",
    "deal-passes-right": "setup-11-deal-go-out-and-deal-again-hand-size-one",
    "action-cards-score-ten": "score-1-every-kind-in-one-hand",
    "lowest-score-rule-picks-highest": "score-3-lowest-total-wins-when-someone-reaches-500",
    "dealt-in-blocks": "setup-1-seven-cards-dealt-one-at-a-time-from-dealers-left",
    "dealer-plays-first": "setup-4-dealer-and-others-may-not-play-first",
    "first-skip-not-skipping": "setup-5-first-skip-skips-first-player",
    "first-wild-colour-named-by-dealer": "setup-8-first-wild-first-player-names-colour-then-plays",
    "first-wild-draw-four-applies": "setup-9-first-wd4-returned-another-card-turned-hands-untouched",
    "first-wild-draw-four-colour-named-by-first-player": "house-7-first-wild-draw-four-not-stackable-nor-challengeable",
    "wild-only-without-a-match": "play-3-wild-on-anything-while-holding-a-playable-card",
    "pass-without-drawing": "play-4-draw-then-play-the-drawn-card",
    "draw-again-after-drawing": "play-6-no-second-draw-after-a-playable-draw",
    "blocked-round-highest-hand-wins": "play-7-blocked-round-lowest-hand-wins",
    "wild-draw-four-victim-keeps-turn": "act-5-unrestricted-next-player-draws-four-and-is-skipped",
    "shuffle-hands-dealt-from-the-player": "act-6-shuffle-hands-deals-clockwise-whatever-the-direction",
    "swap-with-the-next-player": "act-7-swap-hands-with-the-chosen-opponent",
    "equal-or-higher-lets-draw-two-answer-four": "house-1-no-mercy-draw-two-never-answers-wild-draw-four",
    "jump-in-turn-goes-on-from-the-skipped": "house-2-jump-in-number-play-continues-from-jumper",
    "draw-until-playable-draws-one": "house-4-draw-until-playable",
    "forced-play-allows-declining": "house-5-forced-play-refuses-draw-while-able-to-play",
    "wild-in-hand-blocks-wild-draw-four": "wd4-1-another-wild-does-not-block",
    "match-needs-more-than-the-target": "score-2-reaching-500-wins-the-match",
    "one-point-rule-scores-card-points": "score-4-below-target-match-goes-on",
    "pass-ignores-the-direction": "play-8-keeping-the-drawn-card-passes-counter-clockwise",
    "catcher-draws-the-penalty": "uno-2-caught-player-draws-two",
    "uno-window-opens-a-card-early": "uno-3-playing-down-to-two-cards-opens-no-window",
    "stack-victim-keeps-turn": "house-1-accept-with-draw-to-match-draws-exactly-the-total",
    "jump-in-while-a-challenge-is-pending": "house-2-no-jump-in-during-challenge",
    "blanks-always-in-play": "deck-4-blank-cards-set-aside-on-mattel-42003",
    "first-card-from-the-bottom": "setup-3-rest-is-draw-pile-its-top-card-turned",
    "accepting-closes-the-uno-window": "uno-7-accepting-the-wild-draw-four-leaves-the-window-open",
    "blocked-round-winner-scores-own-hand": "score-2-blocked-round-lowest-hand-scores-the-others",
    "first-shuffle-hands-shuffles": "setup-10-shuffle-hands-turned-first-is-a-plain-wild",
    "custom-effect-ignored": "act-8-customizable-with-swap-hands-effect",
    "only-the-next-player-may-catch": "uno-2-caught-player-draws-two",
    "dealer-draw-counts-card-points": "setup-2-a-skip-counts-as-zero",
    "dealer-tie-redraws-everyone": "setup-2-a-player-below-the-tie-does-not-redraw",
}
"""For each mutant, one scenario declaring a rule it breaks that catches it: the quick loop's
check. The deep run finds every catching scenario in the whole corpus, and holds this table to it;
``python -m unoengine.testing.mutants --all`` lists them to pick a new one from."""


def test_every_mutant_has_an_on_topic_witness(witnesses: dict[str, dict[str, Any]]) -> None:
    """Each mutant's witness exists and declares a rule the mutant breaks: it catches the mutant
    for the right reason, not through some other rule the change disturbs."""
    by_id = witnesses
    assert set(WITNESSES) == {m.name for m in mt.MUTANTS}, "name one witness per mutant in WITNESSES"
    for m in mt.MUTANTS:
        witness = by_id.get(WITNESSES[m.name])
        assert witness is not None, f"{m.name}: the witness {WITNESSES[m.name]!r} is not in the corpus"
        assert set(witness["rules"]) & set(m.rules), f"{m.name}: {witness['id']} declares none of {m.rules}"


@pytest.mark.parametrize("mutant", mt.MUTANTS, ids=lambda m: m.name)
def test_the_corpus_catches_the_mutant(
    mutant: mt.Mutant, real_engine: None, witnesses: dict[str, dict[str, Any]]
) -> None:
    """Every rule each mutant breaks: some scenario that passes on the engine fails under it. The
    quick loop runs the mutant's witness; the deep run the whole corpus, which must catch it and
    count the witness among its catchers."""
    witness = WITNESSES.get(mutant.name)
    if DEEP:
        scenarios = corpus()
    else:
        assert witness in witnesses, f"{mutant.name}: no witness scenario {witness!r} in the corpus"
        scenarios = [witnesses[witness]]
    result = mt.catching_scenarios(mutant, scenarios, baseline(scenarios))
    assert result.caught, (
        f"{mutant.name} ({', '.join(mutant.rules)}) survives {len(scenarios)} scenarios: "
        f"a hole in the corpus. {mutant.description}"
    )
    assert witness in result.caught_by, f"{mutant.name}: caught by {result.caught_by}, not by its witness {witness!r}"
