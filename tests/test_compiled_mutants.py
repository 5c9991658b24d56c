"""The mutants of docs/conformance.md applied to the compiled engine are caught by the differential
test (issue 34, "proof, not hope"): each compiled mutant writes a reference mutant's wrong rule
into a copy of the kernel sources, and the lockstep of that copy against the reference engine must
find a difference, while the same lockstep on the unmutated copy finds none.

Quick loop: the catalogue's shape, the seams, the copy, the baseline and a handful of mutants, the
kernels run as Python (NUMBA_DISABLE_JIT=1, in a child process). Deep run: every compiled mutant
caught, docs/compiled.md's table as a run writes it today, and a few mutants compiled by numba.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

pytest.importorskip("numba")

from budget import DEEP

from unoengine.testing import compiled_mutants as cm
from unoengine.testing.mutants import MUTANTS, MutantError, MutantSeamError

ROOT = Path(__file__).resolve().parents[1]
BY_NAME = {m.name: m for m in cm.COMPILED_MUTANTS}


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for source in sorted(folder.glob("*.py")):
        h.update(source.name.encode() + b"\0" + source.read_bytes())
    return h.hexdigest()


def test_every_reference_mutant_has_a_counterpart_or_a_reason() -> None:
    """Each of the 66 reference mutants is here, in the reference table's order, or is listed
    with the reason it has no counterpart in the kernels."""
    from unoengine.testing.compiled_mutants.catalogue import NO_COUNTERPART

    reference = [m.name for m in MUTANTS]
    covered = [m.name for m in cm.COMPILED_MUTANTS]
    assert len(set(covered)) == len(covered)
    assert not set(covered) & NO_COUNTERPART.keys()
    assert [n for n in reference if n not in NO_COUNTERPART] == covered
    assert all(len(reason) > 40 for reason in NO_COUNTERPART.values())
    assert len(covered) >= 60


def test_every_patch_matches_once_and_changes_the_kernels() -> None:
    for m in cm.COMPILED_MUTANTS:
        patched = m.patched_sources()
        assert patched, m.name
        for name, text in patched.items():
            assert text != (cm.COMPILED_SOURCES / name).read_text(encoding="utf-8"), (m.name, name)
        assert m.rules == m.reference.rules and m.tables


def test_a_moved_seam_is_reported_not_ignored(tmp_path: Path) -> None:
    """A patch that no longer matches, or matches twice, raises MutantSeamError naming the mutant:
    never a run that tests nothing."""
    m = BY_NAME["skip-skips-two"]
    moved = cm.CompiledMutant(m.name, (cm.Patch("kernel_apply.py", "no such text in the kernels", "x"),), m.tables)
    with pytest.raises(MutantSeamError, match=r"skip-skips-two.*occurs 0 times"):
        moved.patched_sources()
    twice = cm.CompiledMutant(m.name, (cm.Patch("kernel_apply.py", "@jit\n", "@jit\n"),), m.tables)
    with pytest.raises(MutantSeamError, match=r"occurs [0-9]+ times, not once"):
        twice.patched_sources()
    gone = cm.CompiledMutant(m.name, (cm.Patch("kernel_gone.py", "x", "y"),), m.tables)
    with pytest.raises(MutantSeamError, match=r"kernel_gone\.py is gone"):
        cm.write_patched_package(gone, tmp_path / "copy")


def test_the_patched_copy_leaves_the_installed_kernels_alone(tmp_path: Path) -> None:
    before = _digest(cm.COMPILED_SOURCES)
    m = BY_NAME["anyone-may-challenge"]
    copy = cm.write_patched_package(m, tmp_path / "compiled")
    assert _digest(cm.COMPILED_SOURCES) == before
    assert sorted(p.name for p in copy.glob("*.py")) == sorted(p.name for p in cm.COMPILED_SOURCES.glob("*.py"))
    assert (copy / "kernel_legal.py").read_text(encoding="utf-8") == m.patched_sources()["kernel_legal.py"]
    with pytest.raises(MutantError, match="not empty"):
        cm.write_patched_package(m, copy)


def test_the_unmutated_kernels_pass_the_same_lockstep() -> None:
    """The baseline: the unmutated copy, run exactly as a mutant is, on every table the mutants
    are played on, shows no difference (else a caught mutant would prove nothing)."""
    tables = cm.all_tables()
    run = cm.run_mutant(None, 40 * len(tables), tables=tables)
    assert run.difference is None and run.moves == 40 * len(tables)


QUICK = ("dealt-in-blocks", "reshuffle-takes-the-top-card", "skip-skips-two", "anyone-may-challenge",
         "stack-total-off-by-one")
"""One mutant of each kernel file the catalogue patches most (deal, piles, apply, legal), and a
house rule's: each is caught within a hundred moves."""


@pytest.mark.parametrize("name", QUICK)
def test_a_compiled_mutant_is_caught(name: str) -> None:
    run = cm.run_mutant(BY_NAME[name], 2_000)
    assert run.difference is not None, f"{name} survived {run.moves} moves"
    assert run.moves == run.difference.moves < 2_000


def test_the_report_command_refuses_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cm.main(["--bogus"]) == 2
    assert "unknown ['--bogus']" in capsys.readouterr().err
    assert cm.main(["--moves"]) == 2


def test_the_report_command_runs_named_mutants(capsys: pytest.CaptureFixture[str]) -> None:
    assert cm.main(["--moves", "300", "skip-skips-two"]) == 0
    out = capsys.readouterr().out
    assert "| `skip-skips-two` | ACT-1 | `compiled/kernel_apply.py` | classic-108, 3/4/5 players | 25 (" in out
    assert "Caught: 1 of 1 compiled mutants" in out


@pytest.mark.skipif(not DEEP, reason="every compiled mutant, about 3 CPU-minutes: the deep run (pytest --deep)")
def test_every_compiled_mutant_is_caught_and_the_doc_table_is_current() -> None:
    """Every compiled mutant is caught after a baseline with no difference, and docs/compiled.md
    holds the table of this run (regenerate: python docs/gen_compiled_mutants.py --write). One
    test, so that the run is made once whatever the workers."""
    report = cm.compiled_mutation_report()
    assert report.baseline.difference is None
    assert report.survivors() == []
    assert report.score == (len(cm.COMPILED_MUTANTS), len(cm.COMPILED_MUTANTS))
    text = (ROOT / "docs" / "compiled.md").read_text(encoding="utf-8")
    start, end = "<!-- compiled mutants: start -->", "<!-- compiled mutants: end -->"
    assert text.split(start, 1)[1].split(end, 1)[0].strip() == cm.markdown_table(report)


COMPILED = ("skip-skips-two", "anyone-may-challenge", "first-card-from-the-bottom")
"""Compiled by numba (a minute each): the machine code of a mutated kernel set is caught too."""


@pytest.mark.skipif(not DEEP, reason="numba compiles each mutated kernel set (a minute each): the deep run")
def test_compiled_mutants_are_caught_as_machine_code() -> None:
    """The same mutants compiled, not run as Python: caught at the same move of the same lockstep,
    after a compiled baseline with no difference."""
    tables = cm.all_tables([BY_NAME[n] for n in COMPILED])
    baseline = cm.run_mutant(None, 2_000, jit=True, tables=tables)
    assert baseline.difference is None and baseline.compiled
    for name in COMPILED:
        run = cm.run_mutant(BY_NAME[name], 20_000, jit=True)
        assert run.difference is not None, f"{name} survived {run.moves} compiled moves"
        assert run.difference == cm.run_mutant(BY_NAME[name], 20_000).difference
