"""The conformance corpus on the compiled engine, through the adapter protocol (issue 34): nothing
fails or errors, and every scenario runs to its end but for what the compiled engine does not claim
(events, rule citations, reason codes) or cannot run (a profile it refuses, with its reason)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from unoengine import conformance as c
from unoengine.tools.conformance.compiled_adapter import NOT_CLAIMED, CompiledAdapter


def test_the_corpus_passes_on_the_compiled_engine() -> None:
    adapter = CompiledAdapter()
    report = c.run(c.load_scenarios(c.shipped_corpus()), adapter)
    bad = [f"{o.scenario}: {o.status} {list(o.failures)} {o.error}" for o in report.outcomes
           if o.status in ("failed", "errored")]
    assert not bad, "\n".join(bad)
    assert report.count("passed") > 0.8 * len(report.outcomes)
    for o in report.outcomes:
        if o.status in ("partial", "unsupported"):
            # only what the adapter does not claim kept a step or a check from running
            assert set(o.lacking) <= NOT_CLAIMED | {x for x in o.lacking if x.startswith("event:")}, o
            assert o.steps_run == o.steps or o.lacking, o


def test_the_adapter_claims_what_it_does() -> None:
    assert not CompiledAdapter.capabilities & NOT_CLAIMED
    assert not any(cap.startswith("event:") for cap in CompiledAdapter.capabilities)
    assert "legal-moves" in CompiledAdapter.capabilities and "challenge" in CompiledAdapter.capabilities
