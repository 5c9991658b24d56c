"""How deeply a document nests, found without recursion and before parsing it.

Python's ``json`` and ``tomllib`` parsers recurse once per level of arrays and tables, so a small
file of brackets (``[[[[...``) could exhaust the stack. :func:`json_too_deep` and
:func:`toml_too_deep` look at the text first: strings (and TOML comments) are removed, then only
the brackets are kept, and the innermost pairs are struck off level by level, ``limit`` times, all
in C-speed string operations. :func:`value_too_deep` walks parsed values with a stack of its own
(TOML tables nest by their dotted names too, which the parser builds without recursing).
"""

from __future__ import annotations

import re
from typing import Any, Final

_TOML_SKIPPED: Final = re.compile(
    r'"""(?:[^\\]|\\.)*?"""+|\'\'\'.*?\'\'\'+|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\n]*\'|#[^\n]*',
    re.DOTALL,
)
_ONE_KIND: Final = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_BRACKETS_OR_QUOTES: Final = bytes(b for b in range(256) if b not in b'[]{}"')


def _brackets_too_deep(brackets: bytes, limit: int) -> bool:
    """Do the brackets (``[`` and ``]`` only: strings removed, ``{}`` turned into ``[]``) open more
    than ``limit`` deep?

    Each pass strikes off every innermost pair ``[]``; after ``limit`` passes a pair left means a
    deeper one. Unclosed brackets are never struck off: more than ``limit`` of them is too deep
    too (the parser would recurse into each before failing)."""
    for _ in range(limit):
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            break
        brackets = shorter
    return b"[]" in brackets or brackets.count(b"[") > limit


def json_too_deep(text: str, limit: int) -> bool:
    """Does the JSON text nest arrays and objects more than ``limit`` deep?

    Strings are removed without a regular expression (which would cost a match per string): the
    escapes that matter, ``\\\\`` and ``\\"``, are struck off first, then only quotes and brackets
    kept; what lies between the first and second quote, the third and fourth, ... is a string."""
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    kept = unescaped.encode("utf-8", "replace").translate(_ONE_KIND, _NOT_BRACKETS_OR_QUOTES)
    return _brackets_too_deep(b"".join(kept.split(b'"')[0::2]), limit)


def toml_too_deep(text: str, limit: int) -> bool:
    """Does the TOML text nest arrays and inline tables more than ``limit`` deep (a ``[table]``
    header counts one level, ``[[array]]`` two)?"""
    outside = _TOML_SKIPPED.sub("", text)
    return _brackets_too_deep(outside.encode("utf-8", "replace").translate(_ONE_KIND, _NOT_BRACKETS), limit)


def value_too_deep(value: Any, limit: int) -> bool:
    """Do parsed values (dicts and lists, the document itself counting one) nest more than ``limit`` deep?"""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list | tuple))
    return False
