"""Serve a registered bot over the bot wire protocol (docs/protocol.md), on stdin and stdout.

    python -m unoengine.tools.bot_server heuristic

makes any bot of :func:`unoengine.bots.make_bot` (``random``, ``heuristic``, ``ismcts``, or one
registered by your own code) a program that any runner speaking the protocol can use, from any
language. A fresh bot is made for each ``game``; when the runner sent the state of its random
stream (``rng_state``, as :class:`unoengine.bots.program.ProgramBot` does) the bot draws from a
copy of it, so it plays exactly as it would in the runner's process; otherwise from ``seed``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import IO

from ..bots import make_bot
from ..bots.base import Bot
from ..engine.errors import UnoEngineError
from ..formats import protocol
from . import shutdown

_MT_VERSION = 3
"""The version ``random.Random.getstate`` gives for its Mersenne Twister state."""


def serve(bot_name: str, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer the runner on ``stdin`` / ``stdout`` until ``bye`` or the end of input; the exit status."""
    listens = callable(getattr(make_bot(bot_name), "observe", None))  # an unknown name fails here, first
    protocol.read(stdin.readline(protocol.MAX_LINE_BYTES + 1), "hello")
    stdout.write(protocol.ready(bot_name, events=listens).encode())
    stdout.flush()
    bot: Bot | None = None
    rng: random.Random | None = None
    while True:
        line = stdin.readline(protocol.MAX_LINE_BYTES + 1)
        if not line:
            return 0
        message = protocol.read_any(line)
        kind = message.get("type")
        if kind == "bye":
            return 0
        if kind == "game":
            bot, rng = make_bot(bot_name), None
        elif kind == "game_over":
            bot, rng = None, None
        elif kind == "event":
            made = protocol.read_event(message)
            observe = getattr(bot, "observe", None)
            if observe is not None:
                observe(made)
        elif kind == "decide":
            if bot is None:
                raise protocol.ProtocolError("decide: no game has begun (a 'game' message comes first)")
            decision = protocol.read_decide(message)
            if decision.rng_state is not None:
                rng = random.Random()
                rng.setstate((_MT_VERSION, decision.rng_state, None))
            elif rng is None:
                rng = random.Random(decision.seed)
            chosen = bot.act(decision.view, rng)
            stdout.write(protocol.move(decision.ident, chosen).encode())
            stdout.flush()
        else:
            raise protocol.ProtocolError(f"message: unknown type {kind!r}: {protocol.quote(line)}")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m unoengine.tools.bot_server BOT   (serve a registered bot over the "
              "bot wire protocol, docs/protocol.md)", file=sys.stderr)
        return 2
    if argv is None:  # the program itself: SIGTERM, SIGHUP and SIGINT end it in one line
        shutdown.install("unoengine bot server")
    try:
        return serve(args[0].strip(), sys.stdin.buffer, sys.stdout.buffer)
    except KeyboardInterrupt as exc:
        return shutdown.report("unoengine bot server", exc)
    except (UnoEngineError, ValueError) as exc:
        print(f"unoengine bot server: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
