"""Write the example exchange of docs/agents.md ("A Model Context Protocol server") from a real
session, so it is never typed by hand (needs the mcp extra).

    python docs/gen_mcp_exchange.py           # print the section
    python docs/gen_mcp_exchange.py --write   # put it into docs/agents.md
    python docs/gen_mcp_exchange.py --check   # exit 1 if the page is out of date

The server of ``unoengine mcp`` (tools/mcp_server.py) is driven in-process by the SDK's own
client: a seeded two-player game against the heuristic bot, a scripted agent that plays the
first move listed (and once a card it does not hold, to show a refusal), the first calls shown
in full, the rest counted, then the result as text and as JSON.
tests/test_mcp_server.py checks that the page holds what this script writes today.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "agents.md"
START = "<!-- mcp exchange: start -->"
END = "<!-- mcp exchange: end -->"
SEED = 12

sys.path.insert(0, str(ROOT / "src"))  # the source beside this file, installed or not

import anyio  # noqa: E402
from mcp import Client  # noqa: E402

from unoengine.tools.agent_games import GameDesk  # noqa: E402
from unoengine.tools.mcp_server import build_server  # noqa: E402


def _call(out: list[str], name: str, arguments: dict[str, Any], result: Any) -> None:
    out.append(f"--> {name} {json.dumps(arguments)}")
    out.append(f"<-- {'error' if result.is_error else 'text'}:")
    out.extend(f"    {line}" if line else "" for line in result.content[0].text.splitlines())
    out.append("")


async def _exchange() -> str:
    out = ["```text"]
    async with Client(build_server(GameDesk())) as client:
        tools = (await client.list_tools()).tools
        out += [f"--> tools/list: {', '.join(tool.name for tool in tools)}", ""]
        arguments: dict[str, Any] = {"players": 2, "opponents": "heuristic", "seed": SEED}
        result = await client.call_tool("start_game", arguments)
        _call(out, "start_game", arguments, result)
        doc = result.structured_content
        out += [f"    structured_content keys: {', '.join(doc)}", ""]
        hand = doc["view"]["hand"].split()
        missing = next(c for c in ("R7", "G7", "B7", "Y7", "R1") if c not in hand)
        arguments = {"game_id": "g1", "move": f"I play [{missing}]"}
        _call(out, "play_move", arguments, await client.call_tool("play_move", arguments))
        calls = 0
        while doc["status"] != "over":
            arguments = {"game_id": "g1", "move": doc["legal_moves"][0]["label"]}
            result = await client.call_tool("play_move", arguments)
            doc = result.structured_content
            calls += 1
            if calls <= 2:
                _call(out, "play_move", arguments, result)
        out += [f"... {calls - 2} more play_move calls ...", ""]
        arguments = {"game_id": "g1"}
        result = await client.call_tool("get_result", arguments)
        _call(out, "get_result", arguments, result)
        out += ["    structured_content:"]
        fields = [f'      "{key}": {json.dumps(value)}' for key, value in result.structured_content.items()]
        out += ["    {", ",\n".join(fields), "    }"]
    out.append("```")
    return "\n".join(out)


def exchange() -> str:
    """The section: the calls and their answers."""
    found: list[str] = []

    async def main() -> None:
        found.append(await _exchange())

    anyio.run(main)
    return found[0]


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
    section = exchange()
    if args.check:
        if page_with(section) != PAGE.read_text(encoding="utf-8"):
            print("docs/agents.md is out of date: run python docs/gen_mcp_exchange.py --write")
            return 1
        return 0
    if args.write:
        PAGE.write_text(page_with(section), encoding="utf-8")
        return 0
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
