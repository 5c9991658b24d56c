"""Running the compiled mutants: each in a child process on a patched copy of the kernels, until
the lockstep with the reference finds its first difference; the table and the command.

By default the kernels run as Python (``NUMBA_DISABLE_JIT=1``): the same source, without the
minute of compiling each mutated set would cost, so every mutant can be run in every deep run.
``jit=True`` compiles the mutated kernels (numba's cache in the run's own temporary directory),
which proves the same for the machine code. The baseline (the kernels unmutated, run the same
way) must show no difference, or a caught mutant would prove nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

import unoengine

from ..mutants import MutantError
from .base import CompiledMutant, Table, write_patched_package
from .catalogue import COMPILED_MUTANTS
from .lockstep import Difference

MOVES = 20_000
"""The default move budget of one mutant's lockstep: every mutant here is caught well within it."""
SEED = 34
HANG_SECONDS = 1800
"""Only to cut off a child that stopped answering (a hang is reported as an error, never as a catch)."""


class MutantRunError(MutantError):
    """A mutant's child process failed in a way that is no difference at all (it hung, or crashed
    before the lockstep): nothing is proven, so nothing is counted."""


@attrs.frozen
class MutantRun:
    """One lockstep run: the mutant (None for the baseline), the first difference (None if there
    was none within the budget) and the moves made."""

    mutant: CompiledMutant | None
    difference: Difference | None
    moves: int
    compiled: bool

    @property
    def caught(self) -> bool:
        return self.difference is not None


def run_mutant(mutant: CompiledMutant | None, moves: int = MOVES, *, seed: int = SEED, jit: bool = False,
               tables: Sequence[Table] | None = None) -> MutantRun:
    """Play ``mutant``'s lockstep (its tables, or ``tables``) in a child process on a patched copy
    of the kernels until the first difference or ``moves`` moves; ``mutant`` None runs the kernels
    unmutated (the baseline, which needs ``tables``)."""
    chosen = tuple(tables if tables is not None else () if mutant is None else mutant.tables)
    if not chosen:
        raise MutantError("tables: the baseline needs tables to play")
    if moves < 1:
        raise MutantError(f"moves: must be at least 1, got {moves}")
    package_root = Path(unoengine.__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="unoengine-mutant-") as tmp:
        copy = write_patched_package(mutant, Path(tmp) / "compiled")
        path = [str(package_root), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        if jit:
            env.pop("NUMBA_DISABLE_JIT", None)
            env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba-cache")
        else:
            env["NUMBA_DISABLE_JIT"] = "1"
        request = {"tables": [attrs.astuple(t) for t in chosen], "moves": moves, "seed": seed}
        try:
            done = subprocess.run(
                [sys.executable, "-m", "unoengine.testing.compiled_mutants.child", str(copy)],
                input=json.dumps(request), capture_output=True, text=True, env=env, timeout=HANG_SECONDS, check=False)
        except subprocess.TimeoutExpired as error:
            raise MutantRunError(f"{_name(mutant)}: the child hung (cut off after {HANG_SECONDS} s)") from error
        lines = done.stdout.strip().splitlines()
        try:
            answer = json.loads(lines[-1]) if lines else {}
        except json.JSONDecodeError:
            answer = {}
        if done.returncode != 0 or "moves" not in answer:
            raise MutantRunError(f"{_name(mutant)}: the child failed (exit {done.returncode}): "
                                 f"{answer.get('error') or done.stderr.strip()[-2000:]}")
        if not str(answer["kernels"]).startswith(str(copy.resolve())):
            raise MutantRunError(f"{_name(mutant)}: the child ran {answer['kernels']}, not the patched copy")
    found = answer["difference"]
    return MutantRun(mutant, None if found is None else Difference(**found), int(answer["moves"]), jit)


def _name(mutant: CompiledMutant | None) -> str:
    return "the baseline" if mutant is None else mutant.name


@attrs.frozen
class CompiledMutationReport:
    """Every compiled mutant's run, with the baseline's on all their tables."""

    baseline: MutantRun
    runs: tuple[MutantRun, ...]

    @property
    def score(self) -> tuple[int, int]:
        """(mutants caught, mutants run)."""
        return sum(1 for r in self.runs if r.caught), len(self.runs)

    def survivors(self) -> list[str]:
        return [_name(r.mutant) for r in self.runs if not r.caught]


def all_tables(mutants: Iterable[CompiledMutant] = COMPILED_MUTANTS) -> tuple[Table, ...]:
    """Every table the mutants are played on, once each."""
    return tuple(dict.fromkeys(t for m in mutants for t in m.tables))


def compiled_mutation_report(mutants: Iterable[CompiledMutant] | None = None, moves: int = MOVES, *,
                             jit: bool = False, baseline_moves: int | None = None) -> CompiledMutationReport:
    """The baseline (the unmutated kernels on every table the mutants are played on, for
    ``baseline_moves`` moves, by default ``moves`` and at least 2,000 a table: it must show no
    difference), then each mutant until caught or ``moves`` moves."""
    chosen = tuple(COMPILED_MUTANTS if mutants is None else mutants)
    tables = all_tables(chosen)
    baseline = run_mutant(None, baseline_moves or max(moves, 2_000 * len(tables)), jit=jit, tables=tables)
    if baseline.caught:
        raise MutantRunError(f"the unmutated kernels differ from the reference: {baseline.difference}")
    return CompiledMutationReport(baseline, tuple(run_mutant(m, moves, jit=jit) for m in chosen))


def markdown_table(report: CompiledMutationReport) -> str:
    """The report as a Markdown table: mutant, rules, where the kernels were patched, the tables
    it was played on, and the moves of the lockstep made before the first difference (0: the deal
    already differs), with what differed."""
    rows = ["| mutant | breaks | kernel seam | played on | moves until caught |", "| --- | --- | --- | --- | --- |"]
    for r in report.runs:
        m = r.mutant
        assert m is not None
        tables = "; ".join(t.label() for t in m.tables)
        d = r.difference
        caught = f"{d.moves:,} ({d.what.split(':')[0]})" if d is not None else f"**not caught in {r.moves:,}**"
        rows.append(f"| `{m.name}` | {', '.join(m.rules)} | `{m.seam}` | {tables} | {caught} |")
    caught_count, total = report.score
    how = "compiled" if report.baseline.compiled else "run as Python (`NUMBA_DISABLE_JIT=1`)"
    rows += ["", f"Caught: {caught_count} of {total} compiled mutants (kernels {how}); the unmutated kernels "
             f"played {report.baseline.moves:,} moves on the same tables with no difference."]
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unoengine.testing.compiled_mutants [--jit] [--moves N] [NAME ...]``: the table
    (every mutant, or those named); exit 1 when a mutant survives."""
    args = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: python -m unoengine.testing.compiled_mutants [--jit] [--moves N] [NAME ...]"
    jit = "--jit" in args
    args = [a for a in args if a != "--jit"]
    moves = MOVES
    if "--moves" in args:
        i = args.index("--moves")
        try:
            moves = int(args[i + 1])
        except (IndexError, ValueError):
            print(f"{usage}; --moves needs a number", file=sys.stderr)
            return 2
        del args[i:i + 2]
    by_name = {m.name: m for m in COMPILED_MUTANTS}
    unknown = [a for a in args if a not in by_name]
    if unknown:
        print(f"{usage}; unknown {unknown}", file=sys.stderr)
        return 2
    report = compiled_mutation_report([by_name[a] for a in args] or None, moves, jit=jit)
    print(markdown_table(report))
    return 0 if not report.survivors() else 1
