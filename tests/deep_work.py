"""The deep run's work, read from the test sources: which tests it runs, and how much each plays.

The deep run (``pytest --deep``) runs again only the test modules that import from
tests/budget.py. A test's *work* is the product of the deep numbers of the ``budget(...)`` calls it
reaches: in its decorators and body, in the module-level names it reads (``LOCKSTEP_MOVES``,
``FUZZ_GAMES``), and in the module's own helper functions it calls, followed a few calls deep.
Doubling a deep number doubles the work of every test that reaches it, so a ledger of measured CPU
seconds per test (tests/deep_ledger.json) scales to an estimate of the next deep run without
running it (tests/test_budget.py). A call whose deep number is not a literal counts as 1.
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HELPER_DEPTH = 3
"""How many calls deep a test's use of its module's helper functions is followed."""


def in_deep_run(source: str) -> bool:
    """Whether a test module runs in the deep run: it imports from tests/budget.py."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "budget":
            return True
        if isinstance(node, ast.Import) and any(alias.name == "budget" for alias in node.names):
            return True
    return False


def deep_modules(folder: Path = TESTS) -> list[Path]:
    """The test modules the deep run runs, sorted."""
    return sorted(p for p in folder.glob("test_*.py") if in_deep_run(p.read_text(encoding="utf-8")))


def budget_numbers() -> dict[str, int]:
    """The deep numbers of the module-level names tests/budget.py itself defines (``FUZZ_GAMES``)."""
    return _module_names(ast.parse((TESTS / "budget.py").read_text(encoding="utf-8")), {})


def _deep_number(call: ast.Call) -> int:
    """The deep argument of a ``budget(quick, deep[, soak])`` call, or 1 when it is not a literal."""
    deep: ast.expr | None = call.args[1] if len(call.args) > 1 else None
    for keyword in call.keywords:
        if keyword.arg == "deep":
            deep = keyword.value
    if isinstance(deep, ast.Constant) and isinstance(deep.value, int) and deep.value > 0:
        return deep.value
    return 1


def _budget_calls(node: ast.AST) -> Iterator[ast.Call]:
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "budget":
            yield child


def _names_read(node: ast.AST) -> set[str]:
    return {child.id for child in ast.walk(node) if isinstance(child, ast.Name)}


def _module_names(tree: ast.Module, imported: dict[str, int]) -> dict[str, int]:
    """Module-level names assigned from ``budget(...)`` (or from such names): their deep numbers."""
    numbers: dict[str, int] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        work = math.prod(_deep_number(call) for call in _budget_calls(node.value))
        work *= math.prod(known.get(name, 1) for name in _names_read(node.value)
                          for known in (numbers, imported))
        reads_budget = any(True for _ in _budget_calls(node.value)) or any(
            name in numbers or name in imported for name in _names_read(node.value))
        if reads_budget:
            for target in targets:
                if isinstance(target, ast.Name):
                    numbers[target.id] = work
    return numbers


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Every function of the module by its qualified name (``test_x``, ``TestThing.test_x``)."""
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[f"{node.name}.{item.name}"] = item
    return found


def module_work(path: Path) -> dict[str, int]:
    """Each test function of a deep module (``file::name``, a class's as ``file::Class::name``) and
    its work: the product of the deep numbers it reaches (1 for a test that reaches none)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {name: number for name, number in budget_numbers().items()
                if any(isinstance(n, ast.ImportFrom) and n.module == "budget"
                       and any(a.name == name for a in n.names) for n in tree.body)}
    constants = {**imported, **_module_names(tree, imported)}
    functions = _functions(tree)
    helpers = {name: node for name, node in functions.items() if "." not in name and not name.startswith("test_")}

    def reach(node: ast.FunctionDef, depth: int, seen: frozenset[str]) -> int:
        work = math.prod(_deep_number(call) for part in (*node.decorator_list, node.args, *node.body)
                         for call in _budget_calls(part))
        read = set().union(*(_names_read(part) for part in (*node.decorator_list, *node.body)))
        work *= math.prod(constants[name] for name in read if name in constants)
        if depth < HELPER_DEPTH:
            for name in sorted(read & helpers.keys() - seen):
                work *= reach(helpers[name], depth + 1, seen | {name})
        return work

    return {f"{path.name}::{name.replace('.', '::')}": reach(node, 0, frozenset({name}))
            for name, node in functions.items() if name.rsplit(".", 1)[-1].startswith("test_")}


def deep_work(folder: Path = TESTS) -> dict[str, int]:
    """Every test the deep run runs, by test function, with its work."""
    work: dict[str, int] = {}
    for path in deep_modules(folder):
        work.update(module_work(path))
    return work


def function_id(nodeid: str) -> str:
    """A collected test's function, as :func:`deep_work` names it: the file's name, the class and
    the function, without the folder or the parameters."""
    path, _, rest = nodeid.partition("::")
    return f"{Path(path).name}::{rest.split('[', 1)[0]}"


LEDGER = TESTS / "deep_ledger.json"
CI_MINUTES = 40.0
"""What the whole of .ci/run may take from a fresh clone on CI's 2-core machine (CI itself allows 90)."""


def write_ledger(path: Path, cpu_by_nodeid: dict[str, float], minutes: float, workers: object) -> None:
    """Write the ledger of a deep run: each test function's CPU seconds, cases and work, and the
    run's length. The rest of .ci/run's minutes (``ci_other_minutes``: the installs, the quick
    loop, lint, types, the docs site, the wheel) are measured from a fresh clone and kept as they
    were."""
    work = deep_work()
    tests: dict[str, dict[str, float]] = {}
    for nodeid, cpu in cpu_by_nodeid.items():
        entry = tests.setdefault(function_id(nodeid), {"cpu": 0.0, "cases": 0, "work": 0})
        entry["cpu"] = round(entry["cpu"] + cpu, 3)
        entry["cases"] += 1
        entry["work"] = work.get(function_id(nodeid), 1)
    old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    ledger = {
        "about": "CPU seconds of each test function in the last measured deep run (tests/deep_work.py)",
        "deep_minutes": round(minutes, 2),
        "workers": str(workers),
        "cpu_seconds": round(sum(cpu_by_nodeid.values()), 1),
        "ci_other_minutes": old.get("ci_other_minutes", 0.0),
        "tests": dict(sorted(tests.items())),
    }
    path.write_text(json.dumps(ledger, indent=1) + "\n", encoding="utf-8")


def estimate(ledger: dict[str, object], work: dict[str, int], cases: dict[str, int]) -> tuple[float, list[str]]:
    """The next deep run's minutes, scaled from the ledger by each test's work and cases, and a line
    per test that grew (most first) or is not in the ledger."""
    measured: dict[str, dict[str, float]] = ledger["tests"]  # type: ignore[assignment]
    per_case = sum(e["cpu"] for e in measured.values()) / max(1, sum(e["cases"] for e in measured.values()))
    total = 0.0
    grew: list[tuple[float, str]] = []
    for test, now in sorted(work.items()):
        count = cases.get(test)
        entry = measured.get(test)
        if entry is None:
            module = [e for t, e in measured.items() if t.split("::")[0] == test.split("::")[0]]
            mean = (sum(e["cpu"] for e in module) / max(1, sum(e["cases"] for e in module))) if module else per_case
            cpu = mean * (count or 1)
            grew.append((cpu, f"{test}: not in the ledger, about {cpu:.0f} CPU s by its module's mean"))
        else:
            cpu = entry["cpu"] * now / max(1, entry["work"]) * (count or entry["cases"]) / max(1, entry["cases"])
            if cpu > entry["cpu"] * 1.05:
                grew.append((cpu - entry["cpu"], f"{test}: {entry['cpu']:.0f} -> {cpu:.0f} CPU s "
                                                 f"(work {entry['work']:g} -> {now:g}, cases {entry['cases']:g} -> "
                                                 f"{count or entry['cases']:g})"))
        total += cpu
    return total * wall_per_cpu(ledger) / 60, [line for _, line in sorted(grew, reverse=True)]


def wall_per_cpu(ledger: dict[str, object]) -> float:
    """Wall seconds of the measured deep run per CPU second of its tests: about 1 / workers when
    the workers are kept busy, more when tests wait on programs and servers or the run's tail has
    one test left."""
    return float(ledger["deep_minutes"]) * 60 / max(float(ledger["cpu_seconds"]), 1.0)  # type: ignore[arg-type]
