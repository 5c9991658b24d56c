"""``unoengine mcp``: UNO against the shipped bots as a Model Context Protocol server, on the
official ``mcp`` SDK (2.x, the ``mcp`` extra), over stdio.

The games live in tools/agent_games.py and the tools (names, schemas, answers) in
tools/agent_tools.py; this module only puts them on the wire. It uses the SDK's low-level
``Server``: the schemas are written by hand and every call's arguments are checked by our own
code, so a bad argument gets a tool error naming it in our words (``players: expected an integer
from 2 to 10, got 'x'``) rather than a validation report, and each answer carries the agent's
prompt as text and the same facts as ``structured_content``. No exception text reaches a client
(agent_tools.answer_call).

Importing this module needs the SDK: without it, :class:`McpMissingError` (an UnoEngineError)
says how to install the extra, and ``unoengine mcp`` prints that one line and exits 2. Nothing
else in the package imports it.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
from typing import Any, Final, cast

from ..engine.errors import UnoEngineError
from ..formats.install_hint import install_command
from .agent_games import GameDesk
from .agent_tools import TOOLS, answer_call


class McpMissingError(UnoEngineError, ImportError):
    """The ``mcp`` SDK (2.x) is not installed; the message gives the command that installs the
    extra, as it works where this copy of unoengine came from (formats/install_hint.py)."""


try:
    import anyio
    from mcp import types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    from .mcp_lines import INVALID_REQUEST, BoundedLines  # reads with anyio
except ImportError as exc:  # no SDK, or a 1.x one (mcp.types and mcp.server differ there)
    raise McpMissingError(f"the mcp SDK 2.x is not installed: {install_command('mcp')} ({exc})") from None

SERVER_NAME: Final = "unoengine"
INSTRUCTIONS: Final = (
    "Play UNO against bots. start_game gives a game id and your first view; read its prompt and call "
    "play_move with a label or a move in notation until the status is over, then get_result. The bots move "
    "by themselves between your decisions. You only ever see your own view: your hand, public facts, and "
    "your legal moves."
)


def _version() -> str:
    try:
        return importlib.metadata.version("unoengine")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def build_server(desk: GameDesk) -> Server[Any]:
    """A server whose tools play the games of ``desk`` (connect a client in-process with
    ``mcp.Client(build_server(desk))``, or serve it over stdio with :func:`serve_stdio`)."""
    tools = [
        types.Tool(
            name=spec.name, title=spec.title, description=spec.description,
            input_schema=spec.input_schema, output_schema=spec.output_schema,
            annotations=types.ToolAnnotations(
                title=spec.title, read_only_hint=spec.read_only, destructive_hint=spec.name == "end_game",
                idempotent_hint=spec.read_only, open_world_hint=False),
        )
        for spec in TOOLS
    ]

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        # Synchronous on purpose: calls run one at a time, so games need no lock.
        answer = answer_call(desk, params.name, params.arguments)
        return types.CallToolResult(content=[types.TextContent(type="text", text=answer.text)],
                                    structured_content=answer.data, is_error=answer.error)

    return Server(SERVER_NAME, version=_version(), title="UNO (unoengine)", instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def serve_stdio(desk: GameDesk) -> int:
    """Serve ``desk`` over stdin and stdout until the client closes them; 0. Ctrl-C (or SIGTERM,
    SIGHUP under ``unoengine mcp``: tools/shutdown.py) is a KeyboardInterrupt for the caller, which
    says so in one line and exits 128 + the signal's number.

    The client's lines come through :class:`~.mcp_lines.BoundedLines` (each bounded in length and
    nesting, a refused one answered with a JSON-RPC error), read from a copy of stdin while fd 0
    points at the null device, so nothing else in the process reads the client's bytes."""
    wire = os.dup(0)
    os.set_inheritable(wire, False)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    lines = BoundedLines(wire)

    async def main() -> None:
        server = build_server(desk)
        # The SDK only iterates the lines (``async for``), which BoundedLines gives as text.
        async with stdio_server(stdin=cast("anyio.AsyncFile[str]", lines)) as (read_stream, write_stream):
            async def answer(ident: int | str | None, message: str) -> None:
                error = types.JSONRPCError(jsonrpc="2.0", id=ident,
                                           error=types.ErrorData(code=INVALID_REQUEST, message=message))
                with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                    await write_stream.send(SessionMessage(error))

            lines.answer_with(answer)
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        os.dup2(wire, 0)
        os.close(wire)
    return 0

