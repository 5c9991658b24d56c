"""The conformance corpus on the compiled engine, through the adapter protocol (issue 34): nothing
fails or errors, and every scenario runs to its end but for what the compiled engine does not claim
(events, rule citations, reason codes) or cannot run (a profile it refuses, with its reason)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from unoengine import conformance as c
from unoengine.tools.conformance.compiled_adapter import NOT_CLAIMED, CompiledAdapter


def test_the_corpus_passes_on_the_compiled_engine() -> None:
    """No scenario fails, errs or is refused; each runs every one of its steps; what a partial one
    left unchecked is only what the compiled engine does not claim: the events of a move, the rule
    and reason of a refusal."""
    report = c.run(c.load_scenarios(c.shipped_corpus()), CompiledAdapter())
    counts = report.counts()
    assert counts["failed"] == counts["errored"] == counts["unsupported"] == 0, [
        f"{o.scenario}: {o.status} {list(o.failures)} {o.error}" for o in report.outcomes
        if o.status in ("failed", "errored", "unsupported")]
    for o in report.outcomes:
        assert o.steps_run == o.steps, o  # so every note of o.unsupported is a part left unchecked
        assert bool(o.unsupported) == bool(o.unchecked), o
        assert all(need in NOT_CLAIMED or need.startswith("event:") for need in o.unchecked), o.unchecked
    assert counts["passed"] >= 100  # the scenarios that check neither events nor refusal words


def test_the_adapter_claims_what_it_does() -> None:
    assert not CompiledAdapter.capabilities & NOT_CLAIMED
    assert not any(cap.startswith("event:") for cap in CompiledAdapter.capabilities)
    assert "legal-moves" in CompiledAdapter.capabilities and "challenge" in CompiledAdapter.capabilities
