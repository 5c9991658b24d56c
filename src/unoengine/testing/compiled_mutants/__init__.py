"""The mutants of docs/conformance.md applied to the compiled engine, and the differential test
that must catch each of them (issue 34, "proof, not hope").

Each :class:`CompiledMutant` is the counterpart of a reference mutant
(:mod:`unoengine.testing.mutants`): the same wrong rule, written into the kernel sources
(``unoengine/compiled/*.py``) as exact text replacements that must each match once
(:class:`~unoengine.testing.mutants.MutantSeamError` when the kernels moved). A run writes a
patched copy of the compiled package into a temporary directory and plays, in a child process on
that copy, the lockstep of the kernels against the reference engine until their first difference
(:func:`run_mutant`). ``python -m unoengine.testing.compiled_mutants`` prints the table
(docs/compiled.md, "The proof"); it needs the ``fast`` extra.
"""

from __future__ import annotations

from .base import COMPILED_SOURCES, CompiledMutant, Patch, Table, write_patched_package
from .catalogue import COMPILED_MUTANTS
from .lockstep import Difference, first_difference
from .report import (
    MOVES,
    CompiledMutationReport,
    MutantRun,
    MutantRunError,
    all_tables,
    compiled_mutation_report,
    main,
    markdown_table,
    run_mutant,
)

__all__ = [
    "COMPILED_MUTANTS",
    "COMPILED_SOURCES",
    "MOVES",
    "CompiledMutant",
    "CompiledMutationReport",
    "Difference",
    "MutantRun",
    "MutantRunError",
    "Patch",
    "Table",
    "all_tables",
    "compiled_mutation_report",
    "first_difference",
    "main",
    "markdown_table",
    "run_mutant",
    "write_patched_package",
]
