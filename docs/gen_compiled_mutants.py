"""Write the compiled mutants' table of docs/compiled.md from a run, so it is never typed by hand.

    python docs/gen_compiled_mutants.py           # print the table
    python docs/gen_compiled_mutants.py --write   # put it into docs/compiled.md
    python docs/gen_compiled_mutants.py --check   # exit 1 if the page is out of date

Every compiled mutant (unoengine.testing.compiled_mutants) is run with the kernels as Python
(NUMBA_DISABLE_JIT=1, a child process each) after the unmutated baseline; the runs are seeded, so
the moves at which each mutant is caught are the same on every machine. About three CPU-minutes.
tests/test_compiled_mutants.py (deep run) checks that the page holds what this script writes today.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "compiled.md"
START = "<!-- compiled mutants: start -->"
END = "<!-- compiled mutants: end -->"

sys.path.insert(0, str(ROOT / "src"))  # the source beside this file, installed or not

from unoengine.testing.compiled_mutants import compiled_mutation_report, markdown_table  # noqa: E402


def section() -> str:
    return markdown_table(compiled_mutation_report())


def page_with(table: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{table}\n{END}{tail}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    table = section()
    if args.write:
        PAGE.write_text(page_with(table), encoding="utf-8")
    elif args.check:
        if PAGE.read_text(encoding="utf-8") != page_with(table):
            print("docs/compiled.md: the compiled mutants' table is out of date; run with --write", file=sys.stderr)
            return 1
    else:
        print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
