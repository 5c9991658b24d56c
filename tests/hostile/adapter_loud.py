"""A conformance wire program that answers every request, in protocol, with text meant to flood or
take over a terminal (issue 33, item 9): events lists of about 800 KB on one line, facts, refusal
rules, error messages and traceback lines full of ANSI escape sequences, a bidirectional override
and newlines. Used by tests/test_conformance_output.py; it needs nothing but Python.

What it answers depends on the move: ``p0 B9`` is refused citing a huge escaped rule, ``p0 G1``
reports an error with an escaped message and traceback, any other move is played with the huge
events list. ``observe`` and ``legal`` answer with escaped values.
"""

import json
import sys

ESC = "\x1b[2J\x1b[31m\x1b]0;pwned\x07\u202e"
"""Clear the screen, turn red, retitle the window, reverse the text direction."""

EVENTS = [{"type": "CardsDrawn" + ESC, "player": 1, "count": 2, "junk": ESC + "A" * 1000 + "\n"}] * 700
"""About 800 KB as one line of JSON, under the protocol's 1 MiB."""


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind, ident = message["type"], message.get("id")
        if kind == "hello":
            send({"type": "ready", "protocol": 2, "name": "loud" + ESC,
                  "capabilities": ["start-position", "rule-citations", "reason-codes", "legal-moves",
                                   "event:CardsDrawn"]})
        elif kind == "start":
            send({"type": "started", "id": ident})
        elif kind == "observe":
            send({"type": "observed", "id": ident, "facts": {
                "current": ESC * 5000, "hand_sizes": [ESC] * 5000, "hands": [ESC * 100, "B1"]}})
        elif kind == "legal":
            send({"type": "legal_moves", "id": ident, "moves": [ESC + "p1 draw"] * 5000})
        elif kind == "play" and message["move"] == "p0 B9":
            send({"type": "rejected", "id": ident, "rule": "PLAY-1" + ESC * 10000, "reason": ESC * 1000})
        elif kind == "play" and message["move"] == "p0 G1":
            send({"type": "error", "id": ident, "message": "boom" + ESC * 10000,
                  "traceback": [ESC * 40 + "engine.js:12"] * 50})
        elif kind == "play":
            send({"type": "played", "id": ident, "events": EVENTS})
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
