"""The bot wire protocol (docs/protocol.md): bots as programs, in Python and in JavaScript.

Real processes throughout: the shipped bot server (``python -m unoengine.tools.bot_server``), the
JavaScript example bot run by node, and small misbehaving programs. Checked: a bot over the
protocol plays exactly as the same bot in-process (same seeds, same results); a program that
times out, exits, or sends something malformed or illegal stops the game with a BotError naming
the bot, the seat, the game and what it sent; the program is stopped after every game.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pytest

import unoengine as u
from unoengine.bots import ProgramBot, make_bot
from unoengine.bots.turns import next_move
from unoengine.events import UnoCalled, UnoCaught, UnoNotCalled
from unoengine.formats import protocol
from unoengine.tools import simulate as sim

ROOT = Path(__file__).resolve().parents[1]
JS_BOT = ROOT / "docs" / "examples" / "protocol" / "first_legal_bot.mjs"
SERVER = [sys.executable, "-m", "unoengine.tools.bot_server"]


def served(bot: str) -> str:
    """The bot name that runs ``bot`` in the shipped server, as another process."""
    return "program:" + " ".join([*SERVER, bot])


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, and CI runs the JavaScript example bot")
        pytest.skip("node is not installed (the machines of CI have Node.js, and there this test fails without it)")
    return found


# --- determinism ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bots", [["random", "heuristic"], ["heuristic", "random", "random"]])
def test_a_bot_over_the_protocol_plays_as_it_does_in_process(bots: list[str]) -> None:
    """The same seed gives the same games, move for move: the runner sends its random stream's
    state, and the server's bot draws from it exactly what it would have drawn in-process."""
    over_the_wire = sim.run("classic-108", [served(b) for b in bots], 3, seed=7, workers=1)
    in_process = sim.run("classic-108", bots, 3, seed=7, workers=1)
    assert over_the_wire == in_process
    assert sum(r.moves for r in in_process) > 30


def test_a_match_over_the_protocol(tmp_path: Path) -> None:
    """Match play: after a round the next dealer's program is asked for NextRound ('deal'). One
    point per round, first to 2 (SCORE-4): at least two rounds, so a deal is asked for, without
    the dozen rounds a match to 500 takes."""
    short = tmp_path / "first-to-two.toml"
    short.write_text('overlay = true\nname = "first-to-two"\n[scoring]\nmode = "one-point-per-round"\n'
                     "target = 2\n", encoding="utf-8")
    profile = f"classic-108+{short}"
    over = sim.run(profile, [served("random"), served("random")], 1, seed=3, workers=1, match=True)
    here = sim.run(profile, ["random", "random"], 1, seed=3, workers=1, match=True)
    assert over == here and max(here[0].points) == 2


# --- a bot in another language ---------------------------------------------------------------------
def test_the_javascript_example_bot_plays_whole_games() -> None:
    results = sim.run("classic-108", [f"program:{node()} {JS_BOT}", "random"], 6, seed=1, workers=1)
    assert len(results) == 6 and all(r.moves > 0 for r in results)
    wins = sum(r.winner == 0 for r in results)
    assert wins >= 4, f"the example bot plays legal cards first and catches; it won {wins} of 6 against random"


def test_the_javascript_bot_under_house_rules_and_four_players() -> None:
    """Out-of-turn windows (catches), stacking answers and jump-ins reach the program too."""
    bots = [f"program:{node()} {JS_BOT}", "heuristic", "random", "random"]
    results = sim.run("gdj85+jump-in+stacking", bots, 2, seed=5, workers=1)
    assert len(results) == 2


def uno_calls(profile: str, bots: list[str], games: int, seed: int) -> Counter[str]:
    """Seat 0's UNO calls (UNO-1, UNO-4), next-to-last cards played without a call (UNO-1) and
    the times it was caught (UNO-2) over ``games`` seeded games: each game played again move by
    move from its record, with the events that cite the rules."""
    counts: Counter[str] = Counter()
    kinds = {UnoCalled: "called", UnoNotCalled: "forgot", UnoCaught: "caught"}
    for index in range(games):
        record, _ = sim.record_game(profile, bots, sim.game_seed(seed, index), index)
        state = u.new_game(record.profile, record.players, seed=record.seed)
        for made in record.moves:
            state, events = u.apply_with_events(state, made)
            counts.update(kinds[type(e)] for e in events if type(e) in kinds and e.player == 0)  # type: ignore[attr-defined]
    return counts


@pytest.mark.parametrize(("profile", "opponents", "least_calls"), [
    ("classic-108", ["heuristic"], 6),
    ("gdj85+jump-in+stacking", ["heuristic", "random", "random"], 8),
])
def test_the_javascript_bot_calls_uno_and_is_never_caught(profile: str, opponents: list[str], least_calls: int) -> None:
    """The example bot calls UNO with its next-to-last card (UNO-1), so the heuristic, which
    catches whenever it can (UNO-2), never catches it. It once read the hand, one string of card
    names, as an array (``hand.length`` counted characters) and was caught in most games."""
    counts = uno_calls(profile, [f"program:{node()} {JS_BOT}", *opponents], 12, seed=3)
    assert counts["forgot"] == 0 and counts["caught"] == 0, f"the example bot did not call UNO: {dict(counts)}"
    assert counts["called"] >= least_calls, f"too few UNO calls to see a miss: {dict(counts)}"


# --- misbehaving programs ----------------------------------------------------------------------------
def handshake(version: int = 1) -> str:
    """The start of a Python bot program: read hello, answer ready with ``version``."""
    ready = {"type": "ready", "protocol": version, "name": "x"}
    return f"import sys,json\nsys.stdin.readline()\nprint(json.dumps({ready!r}),flush=True)\n"


def program(body: str, version: int = 1) -> str:
    """The bot name of a Python program with ``body`` after the handshake."""
    return "program:" + shlex.join([sys.executable, "-c", handshake(version) + body])


ANSWER_FIRST_DECISION = "for line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'decide':\n"


@pytest.mark.parametrize(("body", "problem"), [
    (ANSWER_FIRST_DECISION + "        sys.exit(3)\n", "exited (code 3) before answering decision 1"),
    (ANSWER_FIRST_DECISION + "        print('R5 please', flush=True)\n", "move: not a JSON line: 'R5 please'"),
    (ANSWER_FIRST_DECISION + "        print(json.dumps({'type':'move','id':m['id'],'move':'p0 W+4:Q'}), flush=True)\n",
     "move: "),
    (ANSWER_FIRST_DECISION + "        print(json.dumps({'type':'move','id':99,'move':None}), flush=True)\n",
     "move: id: expected 1, got 99"),
    (ANSWER_FIRST_DECISION + "        print(json.dumps({'type':'move','id':m['id'],'move':None}), flush=True)\n",
     "answered no move on its own turn"),
    (ANSWER_FIRST_DECISION + "        sys.stderr.write('something broke\\n'); sys.stderr.flush(); sys.exit(1)\n",
     "its stderr: something broke"),
])
def test_a_misbehaving_program_stops_the_game_with_a_clear_error(body: str, problem: str) -> None:
    bot = program(body)
    start = u.new_game("classic-108", 2, seed=11)
    seat = start.current
    seats = [bot, "random"] if seat == 0 else ["random", bot]
    made = [make_bot(b) for b in seats]
    with pytest.raises(sim.BotError) as caught:
        next_move(start, made, [random.Random(0), random.Random(1)])
    text = str(caught.value)
    assert problem in text and f"at seat {seat}" in text and "program:" in text
    for b in made:
        if isinstance(b, ProgramBot):
            assert b._program is None  # stopped


def test_a_program_that_stops_answering_is_cut_off_after_its_timeout() -> None:
    """A program that answers its first decision and then never answers again stops the game once
    its timeout (here 1 s) has passed, and is stopped. Its start and first answer are given the
    default time, so only the hang is timed: a slow machine fails nothing."""
    body = ANSWER_FIRST_DECISION + (
        "        if m['id'] > 1: import time; time.sleep(3600)\n"
        "        print(json.dumps({'type': 'move', 'id': m['id'], 'move': m['legal'][0]}), flush=True)\n")
    bot = make_bot(program(body))
    assert isinstance(bot, ProgramBot)
    state = u.new_game("classic-108", 2, seed=11)
    mine = u.view(state, state.current)
    assert bot.act(mine, random.Random(0)) == mine.legal_moves[0]
    bot.timeout = 1.0
    with pytest.raises(sim.BotError, match=f"at seat {state.current}: sent no answer to decision 2 within 1 s"):
        bot.act(mine, random.Random(0))
    assert bot._program is None  # stopped


def test_an_illegal_but_well_formed_move_is_named() -> None:
    answer = "{'type':'move','id':m['id'],'move':'p0 draw'}"
    body = ANSWER_FIRST_DECISION + f"        print(json.dumps({answer}), flush=True)\n"
    state = u.from_position("classic-108", ["R5 R6", "G1 G2"], "R1", current=1)
    bot = make_bot(program(body))
    with pytest.raises(sim.BotError, match=r"'p0 draw' is not one of the legal moves"):
        bot.act(u.view(state, 1), random.Random(0))


def test_the_runner_names_the_game_and_seed() -> None:
    body = ANSWER_FIRST_DECISION + "        sys.exit(4)\n"
    with pytest.raises(sim.BotError, match=r"(?s)game 0 \(seed \d+\) of program:.*exited \(code 4\)"):
        sim.run("classic-108", [program(body), program(body)], 1, seed=2, workers=1)


def test_a_program_that_cannot_start() -> None:
    with pytest.raises(sim.BotError, match="could not be started"):
        make_bot("program:/nonexistent/bot --x").act(u.view(u.new_game("classic-108", 2, seed=1), 0),
                                                     random.Random(0))


def test_a_wrong_handshake_is_refused() -> None:
    bot = make_bot(program("", version=9))
    state = u.new_game("classic-108", 2, seed=1)
    with pytest.raises(sim.BotError, match="ready: protocol 9 is not 1"):
        bot.act(u.view(state, state.current), random.Random(0))


def test_program_bot_arguments_are_checked() -> None:
    for bad in ("", [], ["python", ""], "python bot.py"):
        with pytest.raises(sim.BotError, match="command"):
            ProgramBot(bad)  # type: ignore[arg-type]
    for timeout in (0, -1, True, "5", 10_000):
        with pytest.raises(sim.BotError, match="timeout"):
            ProgramBot(["python"], timeout=timeout)  # type: ignore[arg-type]
    with pytest.raises(sim.BotError, match="command 'x \"y'"):
        make_bot('program:x "y')


# --- the server ---------------------------------------------------------------------------------------
def test_the_server_speaks_the_protocol_by_hand() -> None:
    """The messages of docs/protocol.md, typed by hand into the shipped server."""
    state = u.new_game("classic-108", 2, seed=4)
    v = u.view(state, state.current)
    lines = [protocol.hello(), protocol.game(v.player, 2, v.profile), protocol.decide(1, v, 12345, 1000),
             protocol.game_over(), protocol.bye()]
    out = subprocess.run([*SERVER, "heuristic"], input="".join(lines), capture_output=True, text=True,
                         timeout=60, check=True).stdout.splitlines()
    assert json.loads(out[0]) == {"type": "ready", "protocol": 1, "name": "heuristic"}
    answer = json.loads(out[1])
    assert answer["type"] == "move" and answer["id"] == 1
    assert u.notation.parse_move(answer["move"]) in v.legal_moves
    assert len(out) == 2


def test_the_server_refuses_an_unknown_bot_in_one_line() -> None:
    run = subprocess.run([*SERVER, "nosuch"], input=protocol.hello(), capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "unknown bot 'nosuch'" in run.stderr


def test_the_server_refuses_a_bad_message() -> None:
    run = subprocess.run([*SERVER, "random"], input=protocol.hello() + "{not json\n", capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "not a JSON line" in run.stderr


def test_messages_round_trip() -> None:
    state = u.new_game("gdj85+stacking", 3, seed=9)
    v = u.view(state, state.current)
    decision = protocol.read_decide(protocol.read(protocol.decide(5, v, 77, 250, tuple(range(625))), "decide"))
    assert (decision.ident, decision.view, decision.seed, decision.time_ms) == (5, v, 77, 250)
    assert decision.rng_state == tuple(range(625))
    chosen = v.legal_moves[0]
    assert protocol.read_move(protocol.move(5, chosen), 5, v) == chosen
    assert protocol.read_move(protocol.move(5, None), 5, v) is None
    assert protocol.read_ready(protocol.ready("me")) == "me"
    with pytest.raises(protocol.ProtocolError, match="over the limit"):
        protocol.read("x" * (protocol.MAX_LINE_BYTES + 1), "move")
    with pytest.raises(protocol.ProtocolError, match=r"\.\.\. \(1,000 characters\)"):
        protocol.read("y" * 1000, "move")


# --- isolation (docs/security.md) ---------------------------------------------------------------------
def test_isolated_runs_play_as_in_process_and_reuse_their_programs() -> None:
    """simulate's isolated mode runs each bot behind the shipped server: same results for a seed;
    one program per seat for the whole run (a 'game' message starts each game)."""
    from unoengine.bots import program as program_module

    program_module._stop_idle()
    isolated = sim.run("classic-108", ["heuristic", "random"], 4, seed=12, workers=1, isolated=True)
    assert isolated == sim.run("classic-108", ["heuristic", "random"], 4, seed=12, workers=1)
    idle = {command[-1]: len(programs) for command, programs in program_module._IDLE.items()}
    assert idle == {"heuristic": 1, "random": 1}
    program_module._stop_idle()
    with pytest.raises(u.UnoEngineError, match="isolated must be True or False"):
        sim.run("classic-108", ["random", "random"], 1, isolated="yes")  # type: ignore[arg-type]


def test_the_cli_runs_isolated_bots() -> None:
    args = ["--bots", "heuristic,random", "--games", "3", "--seed", "5", "--json"]
    cli = [sys.executable, "-m", "unoengine", "simulate"]
    isolated = subprocess.run([*cli, *args, "--isolated"], capture_output=True, text=True, timeout=300, check=True)
    plain = subprocess.run([*cli, *args], capture_output=True, text=True, timeout=300, check=True)
    drop = ("seconds",)
    a = {k: v for k, v in json.loads(isolated.stdout).items() if k not in drop}
    b = {k: v for k, v in json.loads(plain.stdout).items() if k not in drop}
    assert a == b


class Spy:
    """An in-process bot that looks for the game state where a runner might have left it."""

    name = "spy"
    found: ClassVar[list[str]] = []

    def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
        from unoengine.engine import legality

        if isinstance(legality._last_legal[0], u.GameState):
            Spy.found.append("legality's memo")
        mine = [m for m in view.legal_moves if m.player == view.player]
        return mine[0] if view.my_turn and mine else None


def test_no_module_level_memo_holds_the_state_while_a_bot_acts() -> None:
    """The runner empties legality's memo before asking bots (its frame is another matter:
    in-process bots are trusted code, and the isolated mode is the boundary)."""
    Spy.found = []
    state = u.new_game("classic-108", 3, seed=1)
    seats = [Spy(), Spy(), Spy()]
    rngs = [random.Random(k) for k in range(3)]
    for _ in range(60):
        if state.round_over:
            break
        state = u.apply(state, next_move(state, seats, rngs))
    assert Spy.found == []


# --- events ------------------------------------------------------------------------------------------
class Counting:
    """Plays by how many moves it has been told of: legal move number (count mod the number of them)."""

    name = "counting"

    def __init__(self) -> None:
        self.told = 0

    def observe(self, move: u.Move) -> None:
        self.told += 1

    def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
        if not view.my_turn:
            return None
        return view.legal_moves[self.told % len(view.legal_moves)]


COUNTING_PROGRAM = '''import sys, json
told = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "protocol": 1, "name": "counting", "events": True}), flush=True)
    elif m["type"] == "event":
        told += 1
    elif m["type"] == "game":
        told = 0
    elif m["type"] == "decide":
        legal = m["legal"]
        move = None if m["out_of_turn"] else legal[told % len(legal)]
        print(json.dumps({"type": "move", "id": m["id"], "move": move}), flush=True)
    elif m["type"] == "bye":
        break
'''


def test_a_program_that_asks_for_events_is_told_every_move() -> None:
    """ready {"events": true}: the runner sends each move made, as the in-process observe(move) gets it,
    so the program plays exactly as its in-process twin."""
    from unoengine.bots import register_bot

    register_bot("counting", Counting)
    program_bot = "program:" + shlex.join([sys.executable, "-c", COUNTING_PROGRAM])
    over = sim.run("classic-108", [program_bot, "random"], 3, seed=4, workers=1)
    here = sim.run("classic-108", ["counting", "random"], 3, seed=4, workers=1)
    assert over == here and sum(r.moves for r in here) > 20


def test_event_messages_round_trip() -> None:
    move = u.Play(1, u.parse_card("W"), color=u.Color.GREEN, uno=True)
    assert protocol.read_event(protocol.read_any(protocol.event(move))) == move
    assert protocol.read_ready_message(protocol.ready("x", events=True)) == ("x", True)
    assert protocol.read_ready_message(protocol.ready("x")) == ("x", False)
    with pytest.raises(protocol.ProtocolError, match="events: expected true or false"):
        protocol.read_ready_message('{"type":"ready","protocol":1,"name":"x","events":"yes"}')
