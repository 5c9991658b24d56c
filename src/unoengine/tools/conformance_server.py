"""``python -m unoengine.tools.conformance_server``: this engine as a conformance adapter program.

It speaks the conformance wire protocol (docs/conformance.md) on stdin and stdout, serving the
shipped :class:`~.conformance.EngineAdapter` (or the Python adapter ``--adapter module:Class``
names), so the corpus can be run over the wire against a real program, and the program's
answers compared with the in-process run. ``--capabilities a,b`` claims fewer than all.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from typing import IO, Any

from ..engine.errors import UnoEngineError, one_line
from . import shutdown
from .conformance.adapter import PROTOCOL_VERSION, EngineAdapter, Rejected, Unsupported, load_adapter
from .conformance.capabilities import claimed_by, claimed_profiles, parse_capabilities
from .conformance.wire import MAX_LINE_BYTES, WireError, decode, encode


class Server:
    """The games being played, by the number the runner gave them, and the requests on them."""

    def __init__(self, adapter: Any, capabilities: frozenset[str], profiles: frozenset[str] | None = None) -> None:
        self.adapter = adapter
        self.capabilities = capabilities
        self.profiles = profiles
        """The profiles the adapter declares, passed on in ``ready`` (docs/conformance.md)."""
        self.games: dict[int, Any] = {}

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to one request (None for ``end``, which needs none)."""
        kind, ident = message["type"], message.get("id")
        if kind == "hello":
            return {"type": "ready", "protocol": PROTOCOL_VERSION, "name": "unoengine",
                    "capabilities": sorted(self.capabilities),
                    **({"profiles": sorted(self.profiles)} if self.profiles is not None else {})}
        if kind == "end":
            self.games.pop(message.get("game"), None)  # type: ignore[arg-type]
            return None
        try:
            return {"id": ident, **self._call(kind, message)}
        except Rejected as refusal:
            return {"type": "rejected", "id": ident, "rule": refusal.rule, "reason": refusal.reason}
        except Unsupported as exc:
            return {"type": "unsupported", "id": ident, "reason": str(exc)}
        except Exception as exc:  # reported to the runner, which marks the scenario errored
            frames = traceback.extract_tb(exc.__traceback__)[-4:]
            return {"type": "error", "id": ident, "message": f"{type(exc).__name__}: {one_line(exc)}",
                    "traceback": [f"{f.filename}:{f.lineno} in {f.name}" for f in frames]}

    def _call(self, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        game = message.get("game")
        if kind == "start":
            self.games[game] = self.adapter.start(message["scenario"])  # type: ignore[index]
            return {"type": "started"}
        if game not in self.games:
            raise KeyError(f"no game {game!r} is being played")
        state = self.games[game]
        if kind == "play":
            self.games[game], events = self.adapter.play(state, message["move"])
            return {"type": "played", "events": events}
        if kind == "observe":
            return {"type": "observed", "facts": self.adapter.observe(state)}
        if kind == "legal":
            return {"type": "legal_moves", "moves": self.adapter.legal(state, message["player"])}
        raise ValueError(f"unknown request type {kind!r}")


def serve(server: Server, lines_in: IO[bytes], out: IO[bytes]) -> int:
    """Answer requests until ``bye`` or the end of input."""
    while True:
        line = lines_in.readline(MAX_LINE_BYTES + 1)
        if not line:
            return 0
        try:
            message = decode(line)
        except WireError as exc:
            sys.stderr.write(f"conformance_server: {exc}\n")
            return 2
        if message["type"] == "bye":
            return 0
        answer = server.answer(message)
        if answer is not None:
            out.write(encode(answer))
            out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unoengine.tools.conformance_server",
                                     description="This engine as a conformance adapter program (docs/conformance.md).")
    parser.add_argument("--capabilities", default=None,
                        help="comma-separated capabilities to claim (default: the adapter's, all for this engine)")
    parser.add_argument("--adapter", default=None, metavar="MODULE:CLASS",
                        help="serve this Python adapter instead of this engine's")
    args = parser.parse_args(argv)
    try:
        adapter = load_adapter(args.adapter) if args.adapter else EngineAdapter()
        claimed = claimed_by(adapter) if args.capabilities is None else parse_capabilities(
            [c.strip() for c in args.capabilities.split(",") if c.strip()], "--capabilities")
        if isinstance(adapter, EngineAdapter):
            adapter.capabilities = claimed
        profiles = claimed_profiles(adapter)
    except UnoEngineError as exc:
        print(f"conformance_server: {one_line(exc)}", file=sys.stderr)
        return 2
    if argv is None:  # the program itself: SIGTERM, SIGHUP and SIGINT end it in one line
        shutdown.install("conformance_server")
    try:
        return serve(Server(adapter, claimed, profiles), sys.stdin.buffer, sys.stdout.buffer)
    except KeyboardInterrupt as exc:
        return shutdown.report("conformance_server", exc)


if __name__ == "__main__":
    sys.exit(main())
