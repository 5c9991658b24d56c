"""``unoengine mcp`` through the official MCP SDK: the real server (tools/mcp_server.py) driven by
the SDK's own client, in-process (``mcp.Client(server)``, both the direct path and the JSON-RPC
one) and as a subprocess over stdio; games played to their end by scripted agents, hostile
arguments, and the view-leak checks on every answer: nothing of another hand, the draw pile's
order or the seed leaves through any tool."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from budget import budget
from helpers_work import hang_guard

import unoengine as u
from unoengine.engine.limits import MAX_OPEN_GAMES
from unoengine.testing.checks import resample_hidden
from unoengine.tools.agent_games import AgentGame, GameDesk
from unoengine.tools.agent_tools import HOW_TO_MOVE, TOOLS

mcp = pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")
jsonschema = pytest.importorskip("jsonschema")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.types import CallToolResult  # noqa: E402

from unoengine.tools.mcp_server import build_server  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src"
MODES = ("auto", "legacy")
"""The in-process client's two paths: the direct one (no framing), and JSON-RPC over memory streams."""


def run(body: Callable[[], Awaitable[None]]) -> None:
    with hang_guard(300):  # only a hang is cut off; no bound on the speed
        anyio.run(body)


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return str(result.content[0].text)


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def refused(result: CallToolResult) -> str:
    """A tool error: one line for the agent, no data, no traceback."""
    text = text_of(result)
    assert result.is_error and result.structured_content is None, text
    assert "\n" not in text and "Traceback" not in text and len(text) < 2_000, text
    return text


def next_move(doc: dict[str, Any], rng: random.Random) -> str:
    """The scripted agent: mostly the first move listed, sometimes any, sometimes waiting when it may."""
    if doc["may_wait"] and rng.random() < 0.4:
        return "wait"
    moves = doc["legal_moves"]
    pick = moves[0] if rng.random() < 0.8 else rng.choice(moves)
    return str(rng.choice([pick["label"], pick["move"], pick["move"].split(" ", 1)[1]]))


# --- the tools as a client sees them -----------------------------------------------------------------
def test_the_tools_are_listed_with_valid_schemas() -> None:
    async def body() -> None:
        async with Client(build_server(GameDesk())) as client:
            listed = (await client.list_tools()).tools
        assert [tool.name for tool in listed] == [spec.name for spec in TOOLS]
        for tool, spec in zip(listed, TOOLS, strict=True):
            assert tool.input_schema == spec.input_schema and tool.output_schema == spec.output_schema
            jsonschema.Draft202012Validator.check_schema(tool.input_schema)
            jsonschema.Draft202012Validator.check_schema(tool.output_schema)
            assert tool.annotations is not None and tool.annotations.read_only_hint is spec.read_only
            assert tool.description and tool.title

    run(body)


@pytest.mark.parametrize("mode", MODES)
def test_a_scripted_agent_plays_games_to_their_end(mode: str) -> None:
    """Three games at once, in turn, each to its end; every answer's JSON is checked by the SDK's
    client against the tool's output schema, and the results are the engine's."""
    desk = GameDesk(seed=21)

    async def body() -> None:
        async with Client(build_server(desk), mode=mode) as client:
            docs = {}
            for players, profile in ((2, "classic-108"), (3, "gdj85+stacking"), (4, "classic-108+jump-in")):
                doc = ok(await client.call_tool("start_game", {"players": players, "profile": profile,
                                                               "opponents": "random", "seat": players - 1}))
                docs[doc["game_id"]] = doc
            rng = random.Random(4)
            for _ in range(6000):
                live = [gid for gid, doc in docs.items() if doc["status"] != "over"]
                if not live:
                    break
                gid = rng.choice(live)
                docs[gid] = ok(await client.call_tool("play_move", {"game_id": gid, "move": next_move(docs[gid], rng)}))
            for gid, doc in docs.items():
                assert doc["status"] == "over", gid
                result = ok(await client.call_tool("get_result", {"game_id": gid}))
                game = desk.game(gid)
                last = game.state.match.last_round
                assert last is not None and result["winner"] == last.winner == doc["result"]["winner"]
                assert result["scores"] == list(game.state.scores) and result["seed"] == str(game.seed)
            listed = ok(await client.call_tool("list_games", {}))
            assert listed["open"] == 0 and sorted(g["game_id"] for g in listed["games"]) == ["g1", "g2", "g3"]

    run(body)


# --- hostile arguments --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_hostile_arguments_get_tool_errors_naming_them_and_change_nothing(mode: str) -> None:
    desk = GameDesk(seed=2)

    async def body() -> None:
        async with Client(build_server(desk), mode=mode) as client:
            start = ok(await client.call_tool("start_game", {"players": 3}))
            before = ok(await client.call_tool("get_view", {"game_id": "g1"}))
            assert before == {**start}
            moves = {
                "": "move: the answer is empty",
                "x" * 1_048_576: "move: a text of 1,048,576 characters is longer than the 65,536 taken",
                "\u202e\x1b]0;pwned\x07\u2603\u0000": "move: '\\u202e\\x1b]0;pwned\\x07\u2603\\x00' is not a label",
                "p1 draw": "move: you are p0: 'p1 draw' is a move of p1",
                "[p2 R7] please": "move: you are p0: 'p2 R7' is a move of p2",
            }
            for move, message in moves.items():
                text = refused(await client.call_tool("play_move", {"game_id": "g1", "move": move}))
                assert text.startswith(message), text
            calls: list[tuple[dict[str, Any], str]] = [
                ({"game_id": "g9", "move": "1"}, "game_id: no game 'g9'"),
                ({"game_id": "", "move": "1"}, "game_id: no game ''"),
                ({"game_id": "g1\u202e", "move": "1"}, "game_id: no game 'g1\\u202e'"),
                ({"game_id": 1, "move": "1"}, "game_id: expected a game id such as 'g1', got 1"),
                ({"game_id": "g1", "move": 7}, "move: expected a label"),
                ({"game_id": "g1", "move": ["1"]}, "move: expected a label"),
                ({"game_id": "g1"}, "move: missing"),
                ({"game_id": "g1", "move": "1", "seat": 1}, "'seat': not an argument of play_move"),
            ]
            for arguments, message in calls:
                text = refused(await client.call_tool("play_move", arguments))
                assert text.startswith(message), text
            starts: list[tuple[dict[str, Any], str]] = [
                ({"players": "three"}, "players: expected an integer from 2 to 10, got 'three'"),
                ({"profile": "../../etc/passwd"}, "profile: '../../etc/passwd' is not a profile this server offers"),
                ({"opponents": "program:evil"}, "opponents: 'program:evil' is not a shipped bot"),
                ({"seed": -5}, "seed: expected an integer from 0 to 2**64 - 1"),
            ]
            for arguments, message in starts:
                assert refused(await client.call_tool("start_game", arguments)).startswith(message)
            assert refused(await client.call_tool("no_such_tool", {})).startswith("no tool 'no_such_tool'")
            assert ok(await client.call_tool("get_view", {"game_id": "g1"})) == before
            # too many games: the last one refused, naming the bound; ending one frees a place
            for _ in range(MAX_OPEN_GAMES - 1):
                ok(await client.call_tool("start_game", {}))
            text = refused(await client.call_tool("start_game", {}))
            assert text.startswith(f"{MAX_OPEN_GAMES} games are open, the most one server keeps")
            ok(await client.call_tool("end_game", {"game_id": "g2"}))
            assert ok(await client.call_tool("start_game", {}))["game_id"] == f"g{MAX_OPEN_GAMES + 1}"

    run(body)


# --- hidden information -------------------------------------------------------------------------------
NAMES = frozenset(repr(c) for c in u.CARDS)
TOKEN = re.compile(r"[A-Za-z0-9+]+")
READ_ONLY = ("get_view", "legal_moves", "get_result", "list_games")
LEAK_TABLES = (
    (3, "classic-108+seven-zero+jump-in"), (2, "ffk04+stacking"), (4, "gdj85+seven-zero"),
    (2, "classic-108+stacking-no-mercy"), (5, "mattel-42003+jump-in"), (3, "ffk04+wd4-unrestricted"),
)
"""The tables of the leak test: house rules that pass hands on (seven-zero, ACT-7's swaps), show
them (challenges), and let players act out of turn (jump-ins); the quick loop plays the first two."""


def strings(value: Any, path: str = "") -> Iterator[str]:
    """Every string of an answer's JSON, but the rules (``view.profile``) and the how-to-move hint."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            if f"{path}.{key}" not in (".view.profile", ".answer"):
                yield from strings(item, f"{path}.{key}")


def cards_named(answer: CallToolResult) -> set[str]:
    texts = [text_of(answer), *strings(answer.structured_content)]
    return {t for text in texts for t in TOKEN.findall(text.replace(HOW_TO_MOVE, "")) if t in NAMES}


class CardsSeen:
    """Every card the agent may know of so far: in its views after every move made (its hand, the
    discard pile, the cards it knows in other hands or was shown, the card it drew), and in the
    events it was told (a first card sent back into the deck). Brought up to date by :meth:`now`."""

    def __init__(self, game: AgentGame) -> None:
        self.game = game
        self.state = u.new_game(game.profile, game.players, game.seed)
        self.done = 0
        self.cards: set[str] = set()
        self._look()

    def _add(self, *values: Any) -> None:
        for value in values:
            if isinstance(value, u.Card):
                self.cards.add(repr(value))
            elif isinstance(value, tuple | list):
                self._add(*value)

    def _look(self) -> None:
        v = u.view(self.state, self.game.seat)
        self._add(v.hand, v.discard_pile, v.drawn_card, [cards for _, cards in v.known])
        if v.revealed is not None:
            self._add(v.revealed.cards)

    def now(self) -> set[str]:
        for move in self.game.moves[self.done:]:
            self.state, events = u.apply_with_events(self.state, move)
            for event in u.events_for(events, self.game.seat):
                self._add(*(getattr(event, f.name) for f in attrs.fields(type(event))))
            self._look()
        self.done = len(self.game.moves)
        return self.cards


def check_no_leak(seen: CardsSeen, answer: CallToolResult, hidden: list[str]) -> None:
    """Every card the answer names is one the agent may know by now, and no hidden number (the
    state's seeds, a seed drawn for the game) appears in it."""
    named, known = cards_named(answer), seen.now()
    assert named <= known, f"an answer names {sorted(named - known)}, which p{seen.game.seat} never saw: " \
                           f"{text_of(answer)}"
    dump = text_of(answer) + json.dumps(answer.structured_content)
    for number in hidden:
        assert number not in dump, f"an answer holds the hidden number {number}"


@pytest.mark.parametrize("mode", MODES)
def test_hidden_information_never_leaves_through_any_tool(mode: str) -> None:
    """Games through the tools, with the house rules that move and show cards (seven-zero swaps and
    rotations, jump-ins, stacking, challenges). At every decision, each read-only tool answers the
    same when everything the agent cannot see is changed under it (resample_hidden: other hands
    redealt, the draw pile reordered, the seed, the bluff flag); and every answer, the moves' too,
    names only cards the agent may know and holds no seed."""
    desk = GameDesk(seed=99)
    rng = random.Random(7)
    met: Counter[str] = Counter()

    async def read_all(client: Client, gid: str) -> list[CallToolResult]:
        return [await client.call_tool(tool, {} if tool == "list_games" else {"game_id": gid}) for tool in READ_ONLY]

    async def body() -> None:
        async with Client(build_server(desk), mode=mode) as client:
            for players, profile in LEAK_TABLES[:budget(2, len(LEAK_TABLES))]:
                answer = await client.call_tool("start_game", {"players": players, "profile": profile,
                                                                "opponents": "random", "seat": 1})
                doc = ok(answer)
                game = desk.game(doc["game_id"])
                seen = CardsSeen(game)
                hidden = [str(game.seed)]
                check_no_leak(seen, answer, hidden)
                for _ in range(3000):
                    hidden.append(str(game.state.rng))
                    mine = await read_all(client, game.game_id)
                    real = game.state
                    game.state = resample_hidden(real, game.seat, rng)
                    hidden.append(str(game.state.rng))
                    try:
                        twins = await read_all(client, game.game_id)
                    finally:
                        game.state = real
                    for answer, twin in zip(mine, twins, strict=True):
                        assert (text_of(answer), answer.structured_content) == (text_of(twin), twin.structured_content)
                        check_no_leak(seen, answer, hidden[1:] if game.over else hidden)  # once over, the seed is told
                    if doc["status"] == "over":
                        break
                    answer = await client.call_tool("play_move", {"game_id": game.game_id, "move": next_move(doc, rng)})
                    doc = ok(answer)
                    check_no_leak(seen, answer, hidden[1:] if game.over else hidden)
                    met.update(key for key in ("known", "revealed") if doc["view"][key])
                    met.update(["window"] if doc["status"] == "out_of_turn" else [])
                assert doc["status"] == "over"
            assert met.keys() >= {"known", "window"}, met  # cards passed on, and moments out of turn

    run(body)


def test_the_leak_check_sees_a_leak() -> None:
    """The checks above can fail: an answer naming a card of another hand, or holding the seed."""
    from unoengine.tools.agent_tools import answer_call

    desk = GameDesk(seed=5)
    answer = answer_call(desk, "start_game", {"players": 2})
    game = desk.game("g1")
    seen = CardsSeen(game)

    def said(text: str) -> CallToolResult:
        return CallToolResult(content=[mcp.types.TextContent(type="text", text=text)], structured_content=answer.data)

    check_no_leak(seen, said(answer.text), [str(game.seed)])
    theirs = next(c for c in game.state.hands[1] if repr(c) not in seen.now())
    with pytest.raises(AssertionError, match="which p0 never saw"):
        check_no_leak(seen, said(f"{answer.text} p1 holds {theirs!r}"), [])
    with pytest.raises(AssertionError, match="hidden number"):
        check_no_leak(seen, said(f"{answer.text} (seed {game.seed})"), [str(game.seed)])


# --- over stdio, as a client runs it ----------------------------------------------------------------------
def test_unoengine_mcp_serves_a_full_game_over_stdio() -> None:
    """``python -m unoengine mcp`` as a subprocess, through the SDK's stdio client: the tools listed,
    a game played to its end by a scripted agent, its result read, and a hostile call refused."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "unoengine", "mcp", "--seed", "6"],
                                   env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})

    async def body() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            assert client.server_info is not None and client.server_info.name == "unoengine"
            names = [tool.name for tool in (await client.list_tools()).tools]
            assert names == [spec.name for spec in TOOLS]
            doc = ok(await client.call_tool("start_game", {"players": 3, "opponents": ["heuristic", "random"]}))
            assert text_of(await client.call_tool("get_view", {"game_id": "g1"})).startswith("You are p0")
            rng = random.Random(1)
            for _ in range(3000):
                if doc["status"] == "over":
                    break
                doc = ok(await client.call_tool("play_move", {"game_id": "g1", "move": next_move(doc, rng)}))
            result = ok(await client.call_tool("get_result", {"game_id": "g1"}))
            assert doc["status"] == "over" and result["over"] and result["winner"] in (0, 1, 2)
            assert sum(result["last_round"]["points_won"]) > 0 and result["seed"] is not None
            text = refused(await client.call_tool("play_move", {"game_id": "g1", "move": "x" * 1_048_576}))
            assert text == "move: a text of 1,048,576 characters is longer than the 65,536 taken"

    run(body)


def test_the_exchange_of_docs_agents_is_what_the_server_answers_today() -> None:
    """docs/agents.md's MCP exchange comes from a session with the server (docs/gen_mcp_exchange.py),
    never by hand."""
    script = SRC.parent / "docs" / "gen_mcp_exchange.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
