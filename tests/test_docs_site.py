"""The documentation site (docs/mkdocs/): its build steps, the README's links, and a strict build.

The steps that make the site's pages (docs/mkdocs/hooks.py) and turn the docstrings' reST into
Markdown (docs/mkdocs/rest_docstrings.py) are tested here as functions, fast; the strict build
itself (about half a minute) runs in the deep run, and CI also runs it directly (.ci/run).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from budget import DEEP

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "docs" / "mkdocs"
HAS_MKDOCS = all(importlib.util.find_spec(m) is not None for m in ("mkdocs", "mkdocstrings", "griffe", "material"))
needs_mkdocs = pytest.mark.skipif(not HAS_MKDOCS, reason="the docs extra is not installed (pip install -e '.[docs]')")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"docs_site_{name}", SITE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _load("hooks")
URLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


# --- the README's links and the Project-URLs ------------------------------------------------------

def test_project_urls_are_set_once_and_consistent() -> None:
    """Homepage, Documentation, Source and Issues; the docs site and the issues belong to the source."""
    assert set(URLS) >= {"Homepage", "Documentation", "Source", "Issues"}
    source = URLS["Source"]
    assert source == "https://github.com/unoengine/unoengine"
    assert URLS["Issues"] == source + "/issues"
    owner, repo = source.removeprefix("https://github.com/").split("/")
    assert URLS["Documentation"] == f"https://{owner}.github.io/{repo}/"
    config = (SITE / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"repo_url: {source}\n" in config and f"site_url: {URLS['Documentation']}\n" in config


def test_readme_links_are_relative() -> None:
    """The README's links work in a clone and on any host: each into the repository is relative;
    the others go to other hosts or to the published site's generated pages (the API reference,
    which the README says how to serve offline)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = MARKDOWN_LINK.findall(readme)
    relative = [link for link in links if not re.match(r"[a-z][a-z0-9+.-]*:", link)]
    assert len(relative) >= 20
    pages = set(hooks.reference_pages())
    for link in (link for link in links if link not in relative):
        assert not link.startswith(URLS["Source"]), f"README.md links the repository by address: {link}"
        if link.startswith(URLS["Documentation"]):
            path = link.removeprefix(URLS["Documentation"]).partition("#")[0]
            assert path.endswith("/") and path + "index.md" in pages, f"{link} is no generated page of the site"


def slug(heading: str) -> str:
    """The anchor of a heading as the site's Markdown (its toc extension) and GitHub make it."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^(```|~~~).*?^\1", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)  # not in code
    return {slug(h) for h in re.findall(r"^#{1,6} (.+?)\s*$", text, re.M)}


DOCS_WITH_LINKS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", DOCS_WITH_LINKS, ids=lambda p: p.name)
def test_relative_links_point_at_files_and_headings(doc: Path) -> None:
    """Every relative link of the README and the guides names a file of the repository, and its
    #anchor a heading of that page (or of the page itself)."""
    text = re.sub(r"^(```|~~~).*?^\1", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    for link in MARKDOWN_LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (doc.parent / path).resolve() if path else doc
        assert target.is_file() and ROOT in target.parents, f"{doc.name} links to {link}: no such file"
        if anchor and target.suffix == ".md":
            assert anchor in anchors(target), f"{doc.name} links to {link}: no such heading in {target.name}"


def test_a_broken_link_is_seen(tmp_path: Path) -> None:
    """The link check can fail: a heading's anchor is made as the site makes it."""
    assert slug("`sample_state`") == "sample_state"
    assert slug("Stacking and the Wild Draw Four challenge") == "stacking-and-the-wild-draw-four-challenge"
    assert slug("Cards, colours and moves") == "cards-colours-and-moves"
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n## The view\n\n```\n# not a heading\n```\n", encoding="utf-8")
    assert anchors(page) == {"a-page", "the-view"}


def test_readme_says_how_to_build_and_serve_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "mkdocs build --strict -f docs/mkdocs/mkdocs.yml" in readme
    assert "mkdocs serve -f docs/mkdocs/mkdocs.yml" in readme
    assert "pip install -e '.[docs]'" in readme
    config = (SITE / "mkdocs.yml").read_text(encoding="utf-8")
    path = re.search(r"^site_url: https?://[^/]+(/.*)$", config, re.M)
    assert path and f"http://127.0.0.1:8000{path.group(1)}reference/" in readme, "where the served reference is"


def test_home_page_links_to_the_sites_own_pages() -> None:
    """The home page is the README: its links into docs/ become links between the site's pages,
    those to other files of the repository addresses in the repository."""
    blob, site = URLS["Source"] + "/blob/main/", URLS["Documentation"]
    readme = (f"[a](docs/rl.md) [b](docs/api.md#pictures) [c](LICENSE) [d]({site}reference/) <{site}> "
              "[e](#install) [f](docs/examples/protocol/first_legal_bot.mjs) [g](docs/gen_rules_index.py)")
    page = hooks.home_page(readme, URLS["Source"], site)
    assert page == (f"[a](rl.md) [b](api.md#pictures) [c]({blob}LICENSE) [d](reference/index.md) <{site}> "
                    f"[e](#install) [f](examples/protocol/first_legal_bot.mjs) [g]({blob}docs/gen_rules_index.py)")


def test_guide_links_outside_docs_go_to_the_repository() -> None:
    """A guide links a file outside docs/ relatively (it works in a clone); on the site, where that
    file is not, the link goes to the repository."""
    blob = URLS["Source"] + "/blob/main/"
    guide = "[x](../benchmarks/conformance_rlcard.py) [y](rules.md#uno-1) [z](https://rlcard.org) [w](#json)"
    assert hooks.repository_links(guide, "docs", URLS["Source"]) == (
        f"[x]({blob}benchmarks/conformance_rlcard.py) [y](rules.md#uno-1) [z](https://rlcard.org) [w](#json)")


def test_the_package_description_links_into_the_repository() -> None:
    """On a package index page a relative link breaks: the build (hatch-fancy-pypi-readme, in
    pyproject.toml) makes each of the README's relative links an address at Source. The same
    substitution, applied here, leaves no relative link and names only files that exist."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    readme_hook = pyproject["tool"]["hatch"]["metadata"]["hooks"]["fancy-pypi-readme"]
    assert readme_hook["fragments"] == [{"path": "README.md"}] and "readme" in pyproject["project"]["dynamic"]
    (substitution,) = readme_hook["substitutions"]
    blob = URLS["Source"] + "/blob/main/"
    assert substitution["replacement"] == f"]({blob}\\1)"
    description = re.sub(substitution["pattern"], substitution["replacement"], (ROOT / "README.md").read_text("utf-8"))
    links = MARKDOWN_LINK.findall(description)
    assert not [link for link in links if not re.match(r"https?://|#", link)]
    for link in links:
        if link.startswith(blob):
            assert (ROOT / link.removeprefix(blob).partition("#")[0]).is_file(), link


# --- the pages the build makes ------------------------------------------------------------------------

def test_reference_covers_every_module() -> None:
    """Every module under src/unoengine has a ::: block on a reference page (or, for a facade
    short name, a link to the module it is), and every layer package has a page in the nav."""
    pages = hooks.reference_pages()
    blocks = {m for text in pages.values() for m in re.findall(r"^::: (\S+)$", text, re.M)}
    package = ROOT / "src" / "unoengine"
    facade = pages["reference/facade.md"]
    for path in package.rglob("*.py"):
        name = hooks.module_name(path, ROOT / "src")
        target = hooks.short_name_target(path)
        if target:
            assert f"`{name}` is [`{target}`][{target}]" in facade
            assert target in blocks
        else:
            assert name in blocks, f"{name} is on no reference page"
    config = (SITE / "mkdocs.yml").read_text(encoding="utf-8")
    for uri in pages:
        assert f" {uri}\n" in config, f"{uri} is not in the nav of mkdocs.yml"
    layers = {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    assert layers == set(hooks.LAYER_PAGES), "a new layer package needs its reference page (hooks.LAYER_PAGES)"


def test_short_names_are_found_from_the_source() -> None:
    assert hooks.short_name_target(ROOT / "src/unoengine/events.py") == "unoengine.engine.events"
    assert hooks.short_name_target(ROOT / "src/unoengine/simulate.py") == "unoengine.tools.simulate"
    assert hooks.short_name_target(ROOT / "src/unoengine/__main__.py") is None


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("DECK-1 Classic 108 [CL][GD]: per colour", "DECK-1 Classic 108 \\[CL\\]\\[GD\\]: per colour"),
        ("| `wd4-enforced` | x | [GD][CL][UR] |", "| `wd4-enforced` | x | \\[GD\\]\\[CL\\]\\[UR\\] |"),
        ("blanks are set aside [UR]; a table", "blanks are set aside \\[UR\\]; a table"),
        ("a [link](rules.md) and [GD](x.md)", "a [link](rules.md) and [GD](x.md)"),
        ("a reference [text][GD] stays", "a reference [text][GD] stays"),
        ("[GD]: https://example.org", "[GD]: https://example.org"),
        ("code `[GD][UR]` stays", "code `[GD][UR]` stays"),
        ("```\n[GD][UR]\n```\n[OG]", "```\n[GD][UR]\n```\n\\[OG\\]"),
        ("    [GD] indented code", "    [GD] indented code"),
        ("not a tag: [Wild] [R7] [ABCD]", "not a tag: [Wild] [R7] [ABCD]"),
    ],
)
def test_source_tags_are_escaped_and_nothing_else(markdown: str, expected: str) -> None:
    assert hooks.escape_source_tags(markdown) == expected


# --- the docstrings' reST as Markdown ------------------------------------------------------------

@needs_mkdocs
def test_doctest_and_literal_blocks_become_code_blocks() -> None:
    rest = _load("rest_docstrings")
    text = (
        "Intro.\n\n>>> x = 1\n>>> for i in ():\n...     pass\n\n"
        "After, for example::\n\n    p0 R7\n      p1 draw\n\nEnd."
    )
    assert rest.convert_blocks(text) == (
        "Intro.\n\n```pycon\n>>> x = 1\n>>> for i in ():\n...     pass\n```\n\n"
        "After, for example:\n\n```text\np0 R7\n  p1 draw\n```\n\nEnd."
    )
    assert rest.convert_blocks("No blocks here: ``x``.") == "No blocks here: ``x``."


@needs_mkdocs
def test_roles_become_cross_references_where_the_target_is_on_the_site(tmp_path: Path) -> None:
    """Each way the sources write a role resolves as Python would find the name; a target the
    site does not render (private, missing, outside the package) becomes plain code."""
    import griffe

    rest = _load("rest_docstrings")
    pkg = tmp_path / "unoengine"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        '"""Facade."""\nfrom .engine.cards import Card, make\n\n__all__ = ["Card", "make"]\n'
    )
    (pkg / "short.py").write_text(
        '"""Short name."""\nimport sys\nfrom .engine import cards as _module\nsys.modules[__name__] = _module\n'
    )
    (pkg / "engine" / "__init__.py").write_text('"""The engine: see :mod:`.cards` and :mod:`.absent`."""\n')
    (pkg / "engine" / "cards.py").write_text(textwrap.dedent('''\
        """Cards: :class:`Card`, :func:`make`, :func:`~unoengine.engine.cards.make`, :func:`_hidden`,
        :mod:`unoengine.short`, :func:`unoengine.make`, :data:`LIMIT`, :func:`print`."""

        LIMIT = 3
        """The limit."""


        class Card:
            """A card; see :meth:`code` and :meth:`Card.code`."""

            def code(self) -> int:
                """Its code, from :func:`make`."""
                return 1


        def make() -> Card:
            """A card, as :class:`.Card` or :class:`~.cards.Card` says."""
            return Card()


        def _hidden() -> None:
            """Private."""
        '''))
    loader = griffe.GriffeLoader(search_paths=[str(tmp_path)], extensions=griffe.load_extensions(rest.ReSTDocstrings()))
    package = loader.load("unoengine")
    loader.resolve_aliases()
    cards = package["engine.cards"]
    assert cards.docstring.value == (
        "Cards: [`Card`][unoengine.engine.cards.Card], [`make`][unoengine.engine.cards.make], "
        "[`make`][unoengine.engine.cards.make], `_hidden`,\n"
        "[`unoengine.short`][unoengine.engine.cards], [`unoengine.make`][unoengine.engine.cards.make], "
        "[`LIMIT`][unoengine.engine.cards.LIMIT], `print`."
    )
    assert cards["Card"].docstring.value == (
        "A card; see [`code`][unoengine.engine.cards.Card.code] and [`Card.code`][unoengine.engine.cards.Card.code]."
    )
    assert cards["Card.code"].docstring.value == "Its code, from [`make`][unoengine.engine.cards.make]."
    assert cards["make"].docstring.value == (
        "A card, as [`Card`][unoengine.engine.cards.Card] or [`Card`][unoengine.engine.cards.Card] says."
    )
    assert package["engine"].docstring.value == "The engine: see [`cards`][unoengine.engine.cards] and `absent`."


# --- the strict build ------------------------------------------------------------------------------

@needs_mkdocs
@pytest.mark.skipif(not DEEP, reason="the strict build takes about half a minute: the deep run (and .ci/run) builds it")
def test_strict_build_makes_the_pages(tmp_path: Path) -> None:
    """mkdocs build --strict passes (no warning at all), and the pages say what they should: an
    API page shows a function's docstring with its reST role as a link, the rule index shows the
    source tags as text, the home page links to the guides on the site."""
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or "mkdocs"
    site = tmp_path / "site"
    run = subprocess.run(
        [mkdocs, "build", "--strict", "-f", str(SITE / "mkdocs.yml"), "-d", str(site)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stderr.replace("NO_MKDOCS_2_WARNING", ""), run.stderr

    def page(uri: str) -> str:
        return (site / uri / "index.html").read_text(encoding="utf-8")

    engine = page("reference/engine")
    assert 'id="unoengine.engine.transition.apply"' in engine
    assert "Return the state after" in engine  # the docstring of engine.transition.apply
    facade = page("reference/facade")
    assert 'id="unoengine.apply_with_events"' in facade
    # "Like :func:`apply`, ..." in the facade's apply_with_events, as a link to the engine's apply.
    assert re.search(r'href="\.\./engine/#unoengine\.engine\.transition\.apply"', facade)
    assert ":func:`" not in facade and ":class:`" not in engine
    rules = page("rules")
    assert "[GD][UR]" in rules and "[OG]" in rules
    assert not re.search(r"<a [^>]*>(GD|UR|OG|CL|BC)</a>", rules)
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="architecture/"' in home
    for guide in ("getting-started", "api", "rulings", "house-rules", "reference/tools", "reference/render"):
        assert (site / guide / "index.html").is_file(), guide
