"""The house is drawn true: layers import only those below them, and no modules import each other.

The graph is read from the source with :mod:`ast` (every ``import``, also those inside functions
and under ``TYPE_CHECKING``), so it is the code's own picture, not the documentation's. The layer
order is the one docs/architecture.md states; a test below checks the page lists every module.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "unoengine"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine",),
    ("compiled",),
    ("formats",),
    ("bots",),
    ("render",),
    ("tools", "envs"),
    ("facade",),
    ("testing",),
)
"""Lowest first. A module may import its own package and the layers before its own; packages that
share a layer (tools and envs, the integrations) may not import each other. ``render`` draws
pictures from engine values alone, so it sits below the integrations and the command line can
use it."""

RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> str:
    """``unoengine.engine.cards`` -> ``engine``; the package root and its top-level modules are
    the facade (the public namespace and the documented short module names)."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in RANK and (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return "facade"


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``module`` imports, resolved to the most specific known name."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "unoengine":
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "unoengine":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                add(sub if sub in known else target)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {m: imports_of(m, p, known) for m, p in mods.items()}


def test_every_package_folder_is_a_known_layer() -> None:
    """A new package must be given its place in the order (here and in docs/architecture.md)."""
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(RANK) - {"facade"}, f"packages with no layer: {sorted(folders - set(RANK))}"


def test_no_upward_or_sideways_imports() -> None:
    problems = []
    for module, targets in graph().items():
        here = layer_of(module)
        for target in sorted(targets):
            there = layer_of(target)
            if there != here and RANK[there] >= RANK[here]:
                problems.append(f"{module} ({here}) imports {target} ({there})")
    assert not problems, "imports against the layer order:\n" + "\n".join(problems)


def test_package_inits_import_only_down() -> None:
    """A package's ``__init__`` is imported with any of its modules, so a lower package's
    ``__init__`` importing a higher one would drag it in: covered by the layer rule, and the
    engine's and formats' ``__init__`` import nothing at all, so importing one engine module
    costs only what it needs."""
    g = graph()
    assert g["unoengine.engine"] == set()
    assert g["unoengine.formats"] == set()


def strongly_connected(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that reach each other (size > 1 means a cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            groups.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return groups


def test_no_import_cycles() -> None:
    """No module reaches itself through imports; a package's ``__init__`` re-exporting its own
    modules is not a cycle unless one of those modules imports the package back."""
    cycles = [group for group in strongly_connected(graph()) if len(group) > 1]
    assert not cycles, f"import cycles: {cycles}"


def test_the_checks_see_a_cycle_and_an_upward_import(tmp_path: Path) -> None:
    """The checks above can fail: a made-up graph with both faults is caught."""
    g = {"unoengine.engine.a": {"unoengine.engine.b"}, "unoengine.engine.b": {"unoengine.engine.a"}}
    assert strongly_connected(g) == [["unoengine.engine.a", "unoengine.engine.b"]]
    assert RANK[layer_of("unoengine.engine.cards")] < RANK[layer_of("unoengine.formats.composition")]
    assert layer_of("unoengine.events") == "facade"
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from ..formats.composition import load_profile\nimport unoengine.tools.cli\n")
    found = imports_of("unoengine.engine.probe", probe, set(modules()))
    assert found == {"unoengine.formats.composition", "unoengine.tools.cli"}


def test_the_engine_does_no_file_io() -> None:
    """The engine is pure: no file, path, process, clock or network modules, and no ``open``."""
    banned = {
        "pathlib", "os", "io", "importlib", "tomllib", "subprocess", "socket", "shutil", "sys", "multiprocessing",
        "time", "datetime",
    }
    problems = []
    for module, path in modules().items():
        if layer_of(module) != "engine":
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module.split(".")[0]]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                names = ["open"]
            problems += [f"{module}: {n}" for n in names if n in banned | {"open"}]
    assert not problems, problems


def test_importing_the_engine_loads_no_higher_layer() -> None:
    """At run time too: a fresh interpreter importing one engine module loads nothing of the
    formats, bots or tools (the package root is the facade and is loaded first, so this is run
    on the engine package alone, with the root's own imports switched off)."""
    code = (
        "import importlib.util, sys, types\n"
        f"root = types.ModuleType('unoengine'); root.__path__ = [{str(PACKAGE)!r}]\n"
        "sys.modules['unoengine'] = root\n"
        "import unoengine.engine.transition, unoengine.engine.view\n"
        "print(sorted(m for m in sys.modules if m.startswith('unoengine.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = ast.literal_eval(out.strip())
    assert loaded and all(m.startswith("unoengine.engine") for m in loaded), loaded


def test_architecture_page_names_every_module() -> None:
    """docs/architecture.md has a line for every module, and states the same layer order."""
    text = ARCHITECTURE.read_text()
    missing = []
    for path in modules().values():
        rel = path.relative_to(PACKAGE).as_posix()
        names = [f"`{rel}`"] + ([f"`{rel.removesuffix('__init__.py')}`"] if rel.endswith("/__init__.py") else [])
        if not any(name in text for name in names):
            missing.append(rel)
    assert not missing, f"docs/architecture.md does not mention: {missing}"
    order = re.search(r"^Layer order: (.+)$", text, re.MULTILINE)
    assert order, "docs/architecture.md needs a line 'Layer order: ...'"
    stated = [part.strip(" `.") for part in order.group(1).split("<")]
    assert stated == [" / ".join(names) for names in LAYERS]


SHORT_NAMES = ("events", "effects", "notation", "serialize", "determinize", "simulate", "conformance")


@pytest.mark.parametrize("name", SHORT_NAMES)
def test_documented_short_module_names_still_work(name: str) -> None:
    """The facade modules keep the documented ``unoengine.<name>`` paths: same objects as the
    layer's module."""
    import importlib

    short = importlib.import_module(f"unoengine.{name}")
    layer = next(
        layer for layer in ("engine", "formats", "bots", "tools")
        if (PACKAGE / layer / f"{name}.py").exists() or (PACKAGE / layer / name).is_dir()
    )
    real = importlib.import_module(f"unoengine.{layer}.{name}")
    public = getattr(real, "__all__", None) or [
        n for n in vars(real) if not n.startswith("_") and getattr(real, n).__class__.__name__ != "module"
    ]
    assert public
    for n in public:
        assert getattr(short, n) is getattr(real, n), f"unoengine.{name}.{n}"


def test_the_engine_takes_profiles_as_values_and_the_facade_resolves_names() -> None:
    """SETUP-1: the engine's ``new_game`` wants a Profile (it reads no files); a name given to it is
    refused naming the field, while ``unoengine.new_game`` resolves the same name."""
    import unoengine as u
    from unoengine.engine import dealing

    with pytest.raises(u.ProfileError, match="profile: value: expected a Profile, got str"):
        dealing.new_game("classic-108", 4)  # type: ignore[arg-type]
    with pytest.raises(u.ProfileError, match="profile: value: expected a Profile"):
        dealing.from_position("classic-108", [["R1"], ["R2"]], ["R3"])  # type: ignore[arg-type]
    profile = u.load_profile("classic-108")
    assert u.new_game("classic-108", 4, seed=3) == dealing.new_game(profile, 4, seed=3)
    assert u.from_position("classic-108", [["R1"], ["R2"]], ["R3"]) == dealing.from_position(
        profile, [["R1"], ["R2"]], ["R3"]
    )
