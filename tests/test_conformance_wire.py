"""The conformance wire protocol, end to end through real subprocesses: the corpus over the wire
gives the in-process result; a program that dies, hangs, sends a line too long or a message out
of protocol errors only its scenario and is restarted; a bad handshake is refused."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from budget import DEEP

import unoengine as u
from unoengine import conformance as c
from unoengine.tools import cli

SERVER = [sys.executable, "-m", "unoengine.tools.conformance_server"]


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    scenarios = c.load_scenarios(c.shipped_corpus())
    return scenarios if DEEP else scenarios[::12]  # the quick loop: every twelfth scenario (24)


def test_the_corpus_over_the_wire_gives_the_in_process_result(corpus: list[dict[str, Any]]) -> None:
    """The shipped server is this engine behind the wire: every outcome the same, all passing."""
    with c.WireAdapter(SERVER) as wire:
        assert wire.capabilities == c.CAPABILITIES and wire.name == "unoengine"
        over = c.run(corpus, wire)
    here = c.run(corpus)
    assert over.outcomes == here.outcomes
    assert over.count("passed") == len(corpus)


def test_the_command_line_runs_a_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`unoengine conformance --engine-cmd` with the shipped server: exit 0 and the summary."""
    scenario = _scenario("x", "p0 G1")
    scenario["steps"][0]["expect"]["current"] = 0  # this engine: a refused move leaves p0 to act
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"unoengine": "scenarios", "version": 1, "scenarios": [scenario]}), encoding="utf-8")
    assert cli.main(["conformance", "--json", "--engine-cmd", shlex.join(SERVER), str(path)]) == 0, capsys.readouterr()
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] == 1 and out["capabilities"] == sorted(c.CAPABILITIES)


@pytest.mark.skipif(not DEEP, reason="deep run only: a second server; the claims themselves are tested in process")
def test_fewer_claims_over_the_wire_give_the_in_process_result(corpus: list[dict[str, Any]]) -> None:
    """A server claiming few capabilities: the same outcomes as this engine claiming the same in process."""
    claims = ["start-position", "legal-moves", "phases", "event:CardsDrawn", "uno-call"]
    with c.WireAdapter([*SERVER, "--capabilities", ",".join(claims)]) as wire:
        assert wire.capabilities == set(claims)
        over = c.run(corpus, wire)
    here = c.run(corpus, c.EngineAdapter(claims))
    assert over.outcomes == here.outcomes
    assert over.count("partial") > 0 and over.count("unsupported") > 0


FLAKY = """
    # A stand-alone wire program (it starts fast: no engine) that misbehaves on chosen moves.
    import json, os, sys, time

    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()

    for line in sys.stdin:
        m = json.loads(line)
        kind, ident = m["type"], m.get("id")
        if kind == "hello":
            claims = ["start-position", "rule-citations"]
            send({"type": "ready", "protocol": 2, "name": "flaky", "capabilities": claims})
        elif kind == "start":
            send({"type": "started", "id": ident})
        elif kind == "observe":
            send({"type": "observed", "id": ident, "facts": {"current": 1, "hand_sizes": [1, 1]}})
        elif kind == "play":
            move = m["move"]
            if move == "p0 B9":
                send({"type": "rejected", "id": ident, "rule": "PLAY-1", "reason": ""})
            elif move == "p0 R1":  # dies
                os._exit(3)
            elif move == "p0 R2":  # too-long
                sys.stdout.write("x" * (1 << 20) + "y" * 10 + "\\n"); sys.stdout.flush()
            elif move == "p0 R3":  # hangs
                time.sleep(30)
            elif move == "p0 R4":  # wrong-id
                send({"type": "played", "id": 0, "events": []})
            elif move == "p0 R6":  # raises
                send({"type": "error", "id": ident, "message": "ZeroDivisionError: division by zero",
                      "traceback": ["engine.js:12 in play"]})
            elif move == "p0 R7":  # odd-answer
                send({"type": "observed", "id": ident, "facts": {}})
            else:
                send({"type": "played", "id": ident, "events": []})
        elif kind == "bye":
            break
"""
FAULT_MOVES = {"dies": "p0 R1", "too-long": "p0 R2", "hangs": "p0 R3", "wrong-id": "p0 R4", "raises": "p0 R6",
               "odd-answer": "p0 R7"}
FAULTS = {"dies": "exited (code 3)", "too-long": "longer than 1,048,576 bytes", "hangs": "no answer to play",
          "wrong-id": "with id 0", "raises": "the program reported: ZeroDivisionError",
          "odd-answer": "with 'observed', expected 'played'"}


def _scenario(sid: str, move: str) -> dict[str, Any]:
    return {
        "id": sid, "rules": ["PLAY-1"], "profile": "classic-108",
        "start": {"hands": ["B9 G1", "B1"], "discard": "G5"},
        "steps": [{"move": "p0 B9", "expect": {"rejected": {"rule": "PLAY-1"}, "current": 1}},
                  {"move": move, "expect": {"current": 1}}],
    }


def test_a_misbehaving_program_errors_only_its_scenario(tmp_path: Path) -> None:
    """Each fault errors its scenario, names the problem, and the program is started again for
    the next one, which passes; an error the program reports keeps its traceback lines."""
    script = tmp_path / "flaky.py"
    script.write_text(textwrap.dedent(FLAKY), encoding="utf-8")
    scenarios = []
    for name in FAULTS:
        scenarios += [_scenario(name, FAULT_MOVES[name]), _scenario(f"after-{name}", "p0 G1")]
    with c.WireAdapter([sys.executable, str(script)], timeout=1.0) as wire:
        report = c.run(scenarios, wire, needs=[_static_needs(s) for s in scenarios])
        restarts = wire.restarts
    by = {o.scenario: o for o in report.outcomes}
    for name, fragment in FAULTS.items():
        o = by[name]
        assert o.status == "errored" and fragment in o.error, (name, o)
        assert o.steps_run == 1, o  # the refusal of step 0 was checked before the fault
        assert by[f"after-{name}"].status == "passed", by[f"after-{name}"]
    assert "engine.js:12 in play" in by["raises"].traceback
    assert restarts == 5  # every fault but the reported error stops the program
    with c.WireAdapter([sys.executable, str(script)], max_line=300) as small:  # a request too long is not sent
        (o,) = c.run([{**_scenario("x", "p0 G1"), "description": "long " * 100}], small,
                     needs=[_static_needs(_scenario("x", "p0 G1"))]).outcomes
    assert o.status == "errored" and "longer than 300" in o.error


def _static_needs(scenario: dict[str, Any]) -> c.ScenarioNeeds:
    """None beyond the set-up (the program is no engine: the reference need not be asked)."""
    return c.ScenarioNeeds(frozenset({"start-position"}), tuple(c.StepNeeds() for _ in scenario["steps"]))


@pytest.mark.parametrize(("program", "error", "fragment"), [
    ("import sys; sys.stdin.readline(); print('not json')", c.WireError, "not a JSON message"),
    ("import sys; sys.stdin.readline(); print('{\"type\": \"ready\", \"protocol\": 1, \"capabilities\": []}')",
     c.WireError, "protocol\": 2"),
    ("import sys, json; sys.stdin.readline(); print(json.dumps({'type': 'ready', 'protocol': 2, "
     "'capabilities': ['start-position', 'teleport']}))", c.CapabilityError, "unknown capability 'teleport'"),
    ("import sys; sys.stdin.readline()", c.WireError, "exited"),
])
def test_a_bad_handshake_is_refused(program: str, error: type[Exception], fragment: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(error, match=fragment) as info:
        c.WireAdapter([sys.executable, "-c", program])
    assert isinstance(info.value, u.UnoEngineError)
    small = tmp_path / "one.json"
    small.write_text(json.dumps({"unoengine": "scenarios", "version": 1, "scenarios": [_scenario("x", "p0 G1")]}),
                     encoding="utf-8")
    assert cli.main(["conformance", "--engine-cmd", shlex.join([sys.executable, "-c", program]), str(small)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and fragment in err, err


def test_a_program_that_cannot_start_is_named() -> None:
    with pytest.raises(c.WireError, match="could not be started"):
        c.WireAdapter("/no/such/program --flag")
    with pytest.raises(c.WireError, match="expected a command line"):
        c.WireAdapter("")
    with pytest.raises(c.WireError, match="No closing quotation"):
        c.WireAdapter("node 'unclosed")


def test_decode_refuses_what_is_not_a_message() -> None:
    for line, fragment in ((b"[1]\n", "JSON object"), (b'{"type": 3}\n', "string \"type\""),
                           (b"\xff\n", "not a JSON message"), (b'{"type": "a", "type": "b"}\n', "not a JSON message"),
                           (b"x" * 20, "longer than 10 bytes")):
        with pytest.raises(c.WireError, match=fragment):
            c.wire.decode(line, limit=10 if len(line) == 20 else c.wire.MAX_LINE_BYTES)
    assert c.wire.decode(b'{"type": "ready"}\n') == {"type": "ready"}


def test_the_documented_exchange_is_what_the_server_says() -> None:
    """docs/conformance.md's full exchange, replayed against the shipped server: every answer
    written out in full is the server's answer (the elided ones are only sent)."""
    import subprocess

    text = (Path(__file__).resolve().parents[1] / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = text.split("A full exchange (`>` runner to program", 1)[1].split("```", 2)[1]
    lines = [line for line in block.splitlines() if line[:2] in ("> ", "< ")]
    example = json.loads(text.split("## A scenario file\n\n```json\n", 1)[1].split("```", 1)[0])["scenarios"][0]
    ready = json.loads(lines[1][2:])
    process = subprocess.Popen([*SERVER, "--capabilities", ",".join(ready["capabilities"])], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    try:
        compared = 0
        for line in lines:
            body = line[2:].replace('"steps":[...]', json.dumps(example["steps"])[1:-1].join(['"steps":[', ']']))
            if line.startswith("> "):
                process.stdin.write(json.dumps(json.loads(body)) + "\n")
                process.stdin.flush()
                if json.loads(body)["type"] not in ("end", "bye"):
                    answer = json.loads(process.stdout.readline())
            elif "..." not in body:
                assert answer == json.loads(body), (body, answer)
                compared += 1
        assert compared >= 7
    finally:
        process.stdin.close()
        process.wait(timeout=10)


CHANGES_CLAIMS = """
    # Claims "start-position" when first started, and "rule-citations" too on every later start;
    # exits on the move p0 R1, so that it is started again.
    import json, os, sys

    marker = sys.argv[1]
    again = os.path.exists(marker)
    open(marker, "a").close()
    for line in sys.stdin:
        m = json.loads(line)
        kind, ident = m["type"], m.get("id")
        if kind == "hello":
            claims = ["start-position", "rule-citations"] if again else ["start-position"]
            print(json.dumps({"type": "ready", "protocol": 2, "name": "fickle", "capabilities": claims}), flush=True)
        elif kind == "start":
            print(json.dumps({"type": "started", "id": ident}), flush=True)
        elif kind == "observe":
            print(json.dumps({"type": "observed", "id": ident, "facts": {"current": 1, "hand_sizes": [1, 1]}}),
                  flush=True)
        elif kind == "play":
            if m["move"] == "p0 R1":
                os._exit(3)
            if m["move"] == "p0 B9":
                print(json.dumps({"type": "rejected", "id": ident, "rule": "PLAY-1", "reason": ""}), flush=True)
            else:
                print(json.dumps({"type": "played", "id": ident, "events": []}), flush=True)
        elif kind == "bye":
            break
"""


def test_a_program_that_claims_other_capabilities_when_restarted_stops_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A program that claimed other capabilities after a restart errored its scenario and was
    restarted for every one after it (issue 41, item 9): the run stops there, keeping the
    scenarios so far, and the command line says why in one line, exit 2."""
    script = tmp_path / "fickle.py"
    script.write_text(textwrap.dedent(CHANGES_CLAIMS), encoding="utf-8")
    scenarios = [_scenario("dies", "p0 R1"), *(_scenario(f"after-{k}", "p0 G1") for k in range(4))]
    needs = [_static_needs(s) for s in scenarios]
    with c.WireAdapter([sys.executable, str(script), str(tmp_path / "first")], timeout=5.0) as wire:
        report = c.run(scenarios, wire, needs=needs)
        restarts = wire.restarts
    assert [o.status for o in report.outcomes] == ["errored", "errored"], report.outcomes
    assert "claimed other capabilities after it was started again" in report.outcomes[1].error
    assert restarts == 1 and not report.ok
    assert report.stopped.endswith("claimed other capabilities after it was started again (now also "
                                   "rule-citations): the run stopped after 2 of 5 scenarios"), report.stopped

    path = tmp_path / "five.json"
    path.write_text(json.dumps({"unoengine": "scenarios", "version": 1, "scenarios": scenarios}), encoding="utf-8")
    command = shlex.join([sys.executable, str(script), str(tmp_path / "second")])
    assert cli.main(["conformance", "--engine-cmd", command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert "conformance: 2 scenarios" in out and err.count("\n") == 1, (out, err)
    assert err.startswith("unoengine conformance: program ") and "the run stopped after 2 of 5" in err, err
