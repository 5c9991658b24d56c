"""A Griffe extension for the site's API reference: the reST in docstrings as Markdown.

The docstrings are written for ``help()`` and editors, in the reST that Python's own documentation
uses: roles such as :func:`unoengine.apply` or :class:`~unoengine.engine.profile.Profile`,
``>>>`` examples and ``::`` literal blocks. They stay that way in the source (they read well as
plain text, where an autorefs link ``[apply][unoengine.apply]`` would not), and this extension
rewrites a copy of each docstring as mkdocstrings loads it:

- a role becomes a cross-reference ``[`name`][full.path]`` when its target is an object the site
  renders (a public object of a ``unoengine`` module), found as Python would find the name from
  where the docstring is (the object's scope, then its module's, relative ``.module`` paths, and
  otherwise the one public object whose path ends so); any other target becomes ``name`` in code;
- ``>>>`` lines (with their ``...`` continuations) become a ``pycon`` code block;
- a paragraph ending in ``::`` followed by an indented block becomes the paragraph (ending in ``:``)
  and a code block.

Configured in docs/mkdocs/mkdocs.yml; tested in tests/test_docs_site.py.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(func|class|mod|data|attr|meth|exc|obj|const):`([^`]+)`")
PACKAGE = "unoengine"


def _public(path: str) -> bool:
    """Whether the site renders an object at this path: under the package, no part starting with
    ``_`` (the site's filter hides private and dunder names alike)."""
    parts = path.split(".")
    return parts[0] == PACKAGE and not any(p.startswith("_") for p in parts)


class Resolver:
    """Finds the object a role names, from the scope of the object whose docstring holds it."""

    def __init__(self, collection: Any) -> None:
        self.collection = collection
        self._paths: list[str] | None = None

    def lookup(self, path: str) -> str | None:
        """The canonical path of the object at ``path``, if it exists and the site renders it."""
        try:
            obj = self.collection[path]
        except (KeyError, ValueError):
            return None
        try:
            target = obj.final_target if obj.is_alias else obj
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            return None
        stands_for = target.members.get("_module") if target.is_module else None
        if stands_for is not None and stands_for.is_alias:
            # A facade short-name module (unoengine.events is unoengine.engine.events).
            return self.lookup(stands_for.target_path)
        canonical: str = target.path
        return canonical if _public(canonical) else None

    def _all_paths(self) -> list[str]:
        if self._paths is None:
            found: list[str] = []
            stack = [m for name, m in self.collection.members.items() if name == PACKAGE]
            while stack:
                obj = stack.pop()
                if obj.is_alias:
                    continue
                found.append(obj.path)
                stack.extend(obj.members.values())
            self._paths = found
        return self._paths

    def resolve(self, name: str, scope: Any) -> str | None:
        """The full path ``name`` stands for in ``scope``, or None."""
        name = name.removesuffix("()")
        if name.startswith("."):
            module = scope if scope.is_module else scope.module
            base = module if module.is_init_module else module.parent
            stripped = name.lstrip(".")
            for _ in range(len(name) - len(stripped) - 1):
                base = base.parent
            found = self.lookup(f"{base.path}.{stripped}") if base is not None else None
            return found or self._by_suffix(stripped)
        if name.startswith(PACKAGE + ".") or name == PACKAGE:
            return self.lookup(name)
        head, _, rest = name.partition(".")
        try:
            path = scope.resolve(head)
        except griffe.NameResolutionError:
            path = None
        if path is not None:
            found = self.lookup(f"{path}.{rest}" if rest else path)
            if found:
                return found
        return self._by_suffix(name)

    def _by_suffix(self, name: str) -> str | None:
        """The one public object whose path ends in ``.name`` (None if none or several)."""
        matches = {p for p in self._all_paths() if p.endswith("." + name) and _public(p)}
        return matches.pop() if len(matches) == 1 else None


def convert_roles(text: str, scope: Any, resolver: Resolver) -> str:
    """Every reST role in ``text`` as a cross-reference, or as code when its target is not on the site."""

    def one(match: re.Match[str]) -> str:
        target = match.group(2).strip()
        name = target.removeprefix("~")
        title = name.rsplit(".", 1)[-1] if target.startswith("~") else name.lstrip(".")
        path = resolver.resolve(name, scope)
        return f"[`{title}`][{path}]" if path else f"`{title}`"

    return ROLE.sub(one, text)


def convert_blocks(text: str) -> str:
    """``>>>`` examples and ``::`` literal blocks as fenced code blocks."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block: list[str] = []
            while i < len(lines) and lines[i].strip() and lines[i].lstrip()[:3] in (">>>", "..."):
                block.append(lines[i].removeprefix(indent))
                i += 1
            out += [indent + "```pycon", *(indent + b for b in block), indent + "```"]
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            base = len(line) - len(line.lstrip())
            if j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > base:
                stripped = line.rstrip()[:-2].rstrip()
                out.append(stripped + ":" if stripped.strip() else stripped)
                out.append("")
                block = []
                while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > base):
                    block.append(lines[j])
                    j += 1
                while block and not block[-1].strip():
                    block.pop()
                inner = min(len(b) - len(b.lstrip()) for b in block if b.strip())
                pad = " " * base
                out += [pad + "```text", *(pad + b[inner:] for b in block), pad + "```", ""]
                i = j
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


class ReSTDocstrings(griffe.Extension):
    """Rewrites each docstring of the loaded package once it is fully loaded (aliases resolvable)."""

    def on_package(self, *, pkg: Any, loader: Any, **kwargs: Any) -> None:
        if pkg.name != PACKAGE:
            return
        resolver = Resolver(loader.modules_collection)
        stack = [pkg]
        while stack:
            obj = stack.pop()
            if obj.is_alias:
                continue
            if obj.docstring is not None:
                obj.docstring.value = convert_roles(convert_blocks(obj.docstring.value), obj, resolver)
            stack.extend(obj.members.values())
