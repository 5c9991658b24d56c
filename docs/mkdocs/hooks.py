"""MkDocs hooks of the documentation site (docs/mkdocs/mkdocs.yml): the pages the build makes.

- The API reference (``reference/*.md``): one page per layer, one ``:::`` block per module found
  under ``src/unoengine``, so that a new module appears on the site without editing a page.
- The home page (``index.md``): the README, its relative links into ``docs/`` made links between
  the site's pages, and those to other files of the repository (LICENSE) links to the repository.
- A guide's relative links to files outside ``docs/`` (``../benchmarks/...``) likewise.
- The rule pages' source tags (``[GD][UR]``, ``[OG]``): Markdown would read ``[GD][UR]`` as a
  reference link, so they are escaped to stay text.

Each step is a plain function of text, tested in tests/test_docs_site.py; the ``on_*`` functions
at the end are what MkDocs calls.
"""

from __future__ import annotations

import ast
import posixpath
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = "unoengine"

# The layers, in the order of docs/architecture.md, with the page each gets and what it holds.
LAYER_PAGES: dict[str, tuple[str, str]] = {
    "engine": ("Engine", "The rules: pure functions over immutable values, no file I/O."),
    "compiled": ("Compiled engine", "The same rules over flat arrays, compiled with numba; the engine is its oracle."),
    "formats": ("Formats", "Everything written down: TOML profiles and composition, JSON, notation, game records."),
    "bots": ("Bots", "The bot protocol, the shipped bots, determinization."),
    "tools": ("Tools", "Programs: the command line, simulations, conformance, terminal play."),
    "envs": ("Environments", "Environments for PettingZoo, Gymnasium and OpenSpiel."),
    "render": ("Render", "Pictures of the table, drawn with the standard library."),
    "testing": ("Testing kit", "Hypothesis strategies and invariant checks, for test suites."),
}

# A source tag is two or three capitals in brackets, as RULES.md cites its sources: [GD], [UR].
_TAGS = re.compile(r"(?<![\\\]\w])((?:\[[A-Z]{2,3}\])+)(?![(\[])")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:")
_FENCE = re.compile(r"^(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")


def module_name(path: Path, src: Path = SRC) -> str:
    """``src/unoengine/engine/cards.py`` -> ``unoengine.engine.cards`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_of(package_dir: Path, src: Path = SRC) -> list[str]:
    """Every module of a package, the package first, then its modules and subpackages by path."""
    paths = sorted(package_dir.rglob("*.py"), key=lambda p: (p.parent != package_dir, p.parent.as_posix(), p.name))
    names = [module_name(p, src) for p in paths if "__pycache__" not in p.parts]
    package = module_name(package_dir / "__init__.py", src)
    return [package] + [n for n in names if n != package]


def short_name_target(path: Path) -> str | None:
    """The layer module a facade short-name module stands for (``unoengine.events`` is
    ``unoengine.engine.events``), or None for an ordinary module.

    Such a module puts the layer's module in ``sys.modules`` under its own name; it is found by
    reading its source (``from .engine import events as _module``), never by importing it.
    """
    text = path.read_text(encoding="utf-8")
    if "sys.modules[__name__]" not in text:
        return None
    for node in ast.parse(text).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                if alias.asname == "_module":
                    return f"{PACKAGE}.{node.module}.{alias.name}"
    return None


def _block(module: str) -> str:
    return f"::: {module}\n"


def reference_pages(src: Path = SRC) -> dict[str, str]:
    """The API reference: ``reference/<page>.md`` -> its Markdown, from the modules in ``src``."""
    root = src / PACKAGE
    pages: dict[str, str] = {}
    facade = [
        "# Facade: `unoengine`\n",
        "The public API in one namespace (`import unoengine`), and `python -m unoengine`. "
        "The [API guide](../api.md) walks through it with examples.\n",
        _block(PACKAGE),
    ]
    short: list[str] = []
    for path in sorted(root.glob("*.py")):
        if path.name == "__init__.py":
            continue
        target = short_name_target(path)
        name = module_name(path, src)
        if target:
            short.append(f"- `{name}` is [`{target}`][{target}]")
        else:
            facade.append(_block(name))
    if short:
        facade.append(
            "## Short module names\n\nEach of these modules is the layer's module itself under a "
            "shorter, documented name (`import unoengine.events` gives the same object as "
            "`import unoengine.engine.events`):\n\n" + "\n".join(short) + "\n"
        )
    pages["reference/facade.md"] = "\n".join(facade)
    index = [
        "# API reference\n",
        "Generated from the docstrings of every module under `src/unoengine`, one page per layer "
        "([architecture](../architecture.md) explains the layers). Each layer imports only those "
        "above it in this list.\n",
        "- [Facade (`unoengine`)](facade.md): the public API in one namespace.",
    ]
    for layer, (title, job) in LAYER_PAGES.items():
        package_dir = root / layer
        if not (package_dir / "__init__.py").exists():
            continue
        body = [f"# {title}: `{PACKAGE}.{layer}`\n", job + "\n"]
        body += [_block(m) for m in modules_of(package_dir, src)]
        pages[f"reference/{layer}.md"] = "\n".join(body)
        index.insert(-1, f"- [{title}]({layer}.md): {job}")
    pages["reference/index.md"] = "\n".join(index) + "\n"
    return pages


def project_urls(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, str]:
    """``[project.urls]`` of pyproject.toml: the one place the repository's and the site's URLs are set."""
    urls: dict[str, str] = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["urls"]
    return urls


_RELATIVE_LINK = re.compile(r"\]\((?![a-zA-Z][a-zA-Z0-9+.-]*:|#|/)([^)\s#]+)(#[^)\s]*)?\)")


def is_site_file(path: str, root: Path = ROOT) -> bool:
    """Is the repository file ``path`` (``docs/rl.md``) a file of the site? Those under docs/,
    but the build's own folder and the scripts (``exclude_docs`` of mkdocs.yml)."""
    return (path.startswith("docs/") and not path.startswith("docs/mkdocs/") and not path.endswith(".py")
            and (root / path).is_file())


def repository_links(markdown: str, page_dir: str, source_url: str, root: Path = ROOT) -> str:
    """The relative links of a page that lives in the repository's ``page_dir`` ("" for the
    README, "docs" for a guide), made links of the site: one to a file of the site becomes
    relative to the site's root (``docs/rl.md`` -> ``rl.md``); one to any other file of the
    repository (LICENSE, src/, benchmarks/) an address of that file at ``source_url``. The links
    stay relative in the repository, so they work in a clone and on any host."""
    blob = source_url.rstrip("/") + "/blob/main/"

    def link(m: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(page_dir, m.group(1)))
        anchor = m.group(2) or ""
        if is_site_file(target, root):
            return f"]({posixpath.relpath(target, 'docs')}{anchor})"
        return f"]({blob}{target}{anchor})"

    return _RELATIVE_LINK.sub(link, markdown)


def home_page(readme: str, source_url: str, docs_url: str, root: Path = ROOT) -> str:
    """The README as the site's home page: its relative links made links of the site
    (:func:`repository_links`), and links to ``<docs>/X/`` (a generated page, the API
    reference) made ``X/index.md``, which the build checks; every other link stays as it is."""
    readme = repository_links(readme, "", source_url, root)
    site = re.escape(docs_url.rstrip("/") + "/")
    return re.sub(rf"\]\({site}([^)\s#]+/)(#[^)\s]*)?\)", r"](\1index.md\2)", readme)


def escape_source_tags(markdown: str) -> str:
    """``[GD][UR]`` -> ``\\[GD\\]\\[UR\\]`` outside code, so that Markdown shows the tags as text
    instead of reading them as a reference link (which autorefs would report as missing)."""
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
        if fenced or line.startswith("    ") or "[" not in line or _LINK_DEFINITION.match(line):
            out.append(line)
            continue
        pieces: list[str] = []
        last = 0
        for code in _CODE_SPAN.finditer(line):
            pieces.append(_escape_tags(line[last:code.start()]))
            pieces.append(code.group(0))
            last = code.end()
        pieces.append(_escape_tags(line[last:]))
        out.append("".join(pieces))
    return "\n".join(out)


def _escape_tags(text: str) -> str:
    return _TAGS.sub(lambda m: m.group(1).replace("[", "\\[").replace("]", "\\]"), text)


# --- what MkDocs calls --------------------------------------------------------------------------

def on_files(files: Any, config: Any) -> Any:
    """Add the generated pages: the reference and the home page."""
    from mkdocs.structure.files import File

    for uri, content in reference_pages().items():
        files.append(File.generated(config, uri, content=content))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    urls = project_urls()
    files.append(File.generated(config, "index.md", content=home_page(readme, urls["Source"], urls["Documentation"])))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Source tags stay text on every page, and a guide's links to files outside docs/ go to the repository."""
    if (ROOT / "docs" / page.file.src_uri).is_file():  # a guide of docs/, not a page made in on_files
        markdown = repository_links(markdown, "docs", project_urls()["Source"])
    return escape_source_tags(markdown)
