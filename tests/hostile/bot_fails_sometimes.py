"""A bot program (docs/protocol.md) that fails in some games, the same games for a run's seed.

On the first decision of a game it looks at the decision's seed (the runner derives it from the
game's seed and the seat): in about one game in four it writes a line on stderr and exits with
code 3 at its third decision of that game, mid-game. Otherwise it plays its first legal move that
is not a draw or a pass, and lets every out-of-turn moment pass. It never looks at anything that
depends on which games this process played before, so the same games fail whatever the number of
worker processes.
"""

from __future__ import annotations

import json
import sys


def answer(message: dict[str, object]) -> str | None:
    """The move for a ``decide`` message: None out of turn, else the first play (or the first move)."""
    legal = message["legal"]
    assert isinstance(legal, list)
    if message["out_of_turn"]:
        return None
    plays = [m for m in legal if not str(m).endswith((" draw", " pass"))]
    return str((plays or legal)[0])


def main() -> int:
    decisions = 0
    doomed = False
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "ready", "protocol": 1, "name": "fails-sometimes"}), flush=True)
        elif kind == "game":
            decisions, doomed = 0, False
        elif kind == "decide":
            decisions += 1
            if decisions == 1:
                doomed = message["seed"] % 4 == 0
            if doomed and decisions == 3:
                sys.stderr.write("fails-sometimes: giving up on this game\n")
                sys.stderr.flush()
                return 3
            print(json.dumps({"type": "move", "id": message["id"], "move": answer(message)}), flush=True)
        elif kind == "bye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
