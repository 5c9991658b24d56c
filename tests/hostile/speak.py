"""What the hostile programs of this folder share: speaking either protocol politely.

Each program in tests/hostile/ is a small Python script, run with ``sys.executable`` by the tests
(tests/test_child.py, tests/test_hostile_programs.py), that misbehaves in one way against the
program runners (bots/child.py, bots/program.py, tools/conformance/wire.py). Until it
misbehaves it answers as a correct program would, to the bot protocol (docs/protocol.md,
version 1) or the conformance wire protocol (docs/conformance.md, version 2): ``hello`` says which.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def read() -> dict[str, Any] | None:
    """The next message, or None at the end of the input."""
    line = sys.stdin.buffer.readline()
    return json.loads(line) if line else None


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write((json.dumps(message) + "\n").encode())
    sys.stdout.buffer.flush()


def ready(hello: dict[str, Any], *, events: bool = False) -> dict[str, Any]:
    """The answer to ``hello`` in its protocol."""
    if hello.get("protocol") == 2:
        return {"type": "ready", "protocol": 2, "name": "hostile", "capabilities": ["start-position"]}
    return {"type": "ready", "protocol": 1, "name": "hostile", "events": events}


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """A correct answer to a request (the first legal move, a game started), or None for a
    message that has none."""
    kind, ident = message["type"], message.get("id")
    if kind == "decide":
        return {"type": "move", "id": ident, "move": None if message["out_of_turn"] else message["legal"][0]}
    replies = {"start": {"type": "started"}, "play": {"type": "played", "events": []},
               "observe": {"type": "observed", "facts": {}}, "legal": {"type": "legal_moves", "moves": []}}
    return {**replies[kind], "id": ident} if kind in replies else None


def wants_answer(message: dict[str, Any]) -> bool:
    return answer(message) is not None


def start(*, events: bool = False) -> None:
    """Note this process's pid (in the file named by $HOSTILE_PIDS, if set) and shake hands."""
    pids = os.environ.get("HOSTILE_PIDS")
    if pids:
        with open(pids, "a", encoding="ascii") as out:
            out.write(f"{os.getpid()}\n")
    hello = read()
    assert hello is not None and hello["type"] == "hello"
    send(ready(hello, events=events))


def serve() -> None:
    """Answer correctly until ``bye`` or the end of the input."""
    while (message := read()) is not None and message["type"] != "bye":
        reply = answer(message)
        if reply is not None:
            send(reply)
