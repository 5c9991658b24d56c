"""Write the transcript of docs/agents.md from a seeded game, so it is never typed by hand.

    python docs/gen_agents_transcript.py           # print the section
    python docs/gen_agents_transcript.py --write   # put it into docs/agents.md
    python docs/gen_agents_transcript.py --check   # exit 1 if the page is out of date

Two scripted players play one round of ``TextEnv`` (seed 12): ``chatty`` answers in sentences
with the move in brackets (and once with a card it does not hold, to show the retry), ``terse``
answers in bare notation. The first decisions are shown in full, the rest counted.
tests/test_text_env.py checks that the page holds what this script writes today.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "agents.md"
START = "<!-- transcript: start -->"
END = "<!-- transcript: end -->"
SEED = 12
SHOWN = 5

sys.path.insert(0, str(ROOT / "src"))  # the source beside this file, installed or not

from unoengine.envs.text import TextEnv  # noqa: E402

_MOVE = re.compile(r"^  \[(\d+)\] (p\d+(?: \S+)*?) {2,}", re.M)
"""A labelled move: its label and its whole notation (``p1 catch p0`` is three words)."""


def chatty(prompt: str, turn: list[int]) -> str:
    """The first move listed, in a sentence; its second answer is a card it does not hold."""
    turn[0] += 1
    if turn[0] == 2:
        return "Red is strong here, so I play [R7]."
    moves = _MOVE.findall(prompt)
    return f"Let me think. The first option looks fine: [{moves[0][0]}]" if moves else "I will [wait]."


def terse(prompt: str) -> str:
    """The last move listed, in bare notation, its seat left out (``draw``, ``catch p0``)."""
    moves = _MOVE.findall(prompt)
    return moves[-1][1].split(" ", 1)[1] if moves else "wait"


def transcript() -> str:
    """The section: the first SHOWN exchanges in full, then the round's end and the rewards."""
    env = TextEnv("classic-108")
    env.reset(num_players=2, seed=SEED)
    turn = [0]
    out = ["```text"]
    steps = 0
    done = False
    info: dict[str, object] = {}
    while not done and steps < 5000:
        player, observation = env.get_observation()
        action = chatty(observation, turn) if player == 0 else terse(observation)
        done, info = env.step(action)
        steps += 1
        if steps <= SHOWN:
            out += [f"=== observation for p{player} ===", observation, f"=== p{player} answers ===", action,
                    f"=== info: {info} ===", ""]
    out += [f"... {steps - SHOWN} more steps ...", f"=== last info: {info} ===", f"=== rewards: {env.close()} ===",
            "```"]
    return "\n".join(out)


def page_with(section: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{section}\n{END}{tail}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    section = transcript()
    if args.check:
        if page_with(section) != PAGE.read_text(encoding="utf-8"):
            print("docs/agents.md is out of date: run python docs/gen_agents_transcript.py --write")
            return 1
        return 0
    if args.write:
        PAGE.write_text(page_with(section), encoding="utf-8")
        return 0
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
