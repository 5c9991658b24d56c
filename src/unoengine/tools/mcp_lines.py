"""The lines ``unoengine mcp`` reads from its client, bounded before the MCP SDK sees them.

The SDK's stdio transport reads a whole line before any check, so a client writing one endless
line grew the server without limit (a 1.5 GB line without a newline took it past 2 GB), and a
request nested 200,000 deep was dropped with no answer (the SDK's parser refuses it and the
transport only logs that). :class:`BoundedLines` reads the client's stdin in chunks of
:data:`CHUNK_BYTES` and keeps at most :data:`~unoengine.engine.limits.MAX_MCP_LINE_BYTES` of a
line: a longer line is answered at once with a JSON-RPC error (``Invalid Request``) and the rest
of it is skipped as it comes, never kept; a line nested deeper than
:data:`~unoengine.engine.limits.MAX_JSON_DEPTH` (formats/nesting.py, before any parser) is
answered the same way. Either answer carries the request's ``id`` when one is found at the top
level of the line (of its first :data:`CHUNK_BYTES` for a line too long: clients write the id
before the params), else ``null`` as JSON-RPC 2.0 says. Every other
line goes to the SDK unchanged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final

import anyio
import anyio.to_thread

from ..engine.limits import MAX_JSON_DEPTH, MAX_MCP_LINE_BYTES
from ..formats.nesting import json_too_deep

CHUNK_BYTES: Final = 64 * 1024
"""How much of stdin one read takes (a pipe's usual size)."""

INVALID_REQUEST: Final = -32600
"""JSON-RPC 2.0's code for a message that is not a valid request."""

_ID: Final = re.compile(r'"id"\s*:\s*(-?\d{1,18}(?![\d.eE])|"[^"\\]{0,200}")')
_ID_CANDIDATES: Final = 16
"""The most ``"id":`` keys looked at (each costs a pass over the text before it)."""

Answer = Callable[[int | str | None, str], Awaitable[None]]
"""Sends a JSON-RPC error answer: the request's id (None when not found) and the message."""


def request_id(text: str) -> int | str | None:
    """The ``id`` of the JSON-RPC message ``text`` (or the start of one), if it is a number or a
    plain string given at the top level; None otherwise. The text is not parsed: escaped quotes
    and backslashes are blanked out (same length, so positions hold), then an ``"id":`` key counts
    only if an even number of quotes comes before it (it is not inside a string) and its brackets
    outside strings leave it one level deep."""
    blanked = text.replace("\\\\", "__").replace('\\"', "__")
    for n, match in enumerate(_ID.finditer(blanked)):
        if n == _ID_CANDIDATES:
            break
        if match.end() == len(blanked):  # perhaps cut off at the end of what was kept
            continue
        before = blanked[:match.start()]
        if before.count('"') % 2:
            continue
        outside = "".join(before.split('"')[0::2])
        depth = outside.count("{") + outside.count("[") - outside.count("}") - outside.count("]")
        if depth == 1:
            value = json.loads(text[match.start(1):match.end(1)])
            return value if isinstance(value, int | str) else None
    return None


class BoundedLines:
    """The client's lines as text, each at most ``limit`` bytes, read from the descriptor ``fd``;
    an async iterator, as the SDK's ``stdio_server(stdin=...)`` takes one. Over-long and too deep
    lines are answered through :meth:`answer_with`'s function and not passed on."""

    def __init__(self, fd: int, limit: int = MAX_MCP_LINE_BYTES, depth: int = MAX_JSON_DEPTH) -> None:
        self.fd, self.limit, self.depth = fd, limit, depth
        self._answer: Answer | None = None
        self._ready = anyio.Event()

    def answer_with(self, answer: Answer) -> None:
        """How to answer a refused line (set once the SDK's write stream exists)."""
        self._answer = answer
        self._ready.set()

    async def _refuse(self, kept: bytes, problem: str) -> None:
        await self._ready.wait()
        assert self._answer is not None
        await self._answer(request_id(kept.decode("utf-8", "replace")), f"Invalid Request: {problem}")

    async def _checked(self, line: bytes) -> str | None:
        """The line for the SDK, or None once it is answered as too deep."""
        text = line.decode("utf-8", "replace")
        if json_too_deep(text, self.depth):
            await self._refuse(line, f"nested deeper than {self.depth} levels")
            return None
        return text

    async def __aiter__(self) -> AsyncIterator[str]:
        kept = bytearray()
        skipping = False  # the rest of an over-long line, already answered
        while True:
            chunk = await anyio.to_thread.run_sync(os.read, self.fd, CHUNK_BYTES)
            if not chunk:
                break
            start = 0
            while start < len(chunk):
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                if not skipping and len(kept) + len(piece) > self.limit:
                    head = bytes(kept[:CHUNK_BYTES]) + piece[:max(0, CHUNK_BYTES - len(kept))]
                    await self._refuse(head, f"a line longer than {self.limit:,} bytes (the rest is skipped)")
                    kept.clear()
                    skipping = True
                elif not skipping:
                    kept += piece
                if end < 0:
                    break
                if not skipping:
                    text = await self._checked(bytes(kept))
                    if text is not None:
                        yield text
                kept.clear()
                skipping = False
                start = end + 1
        if kept and not skipping:  # a last line without its newline
            text = await self._checked(bytes(kept))
            if text is not None:
                yield text
