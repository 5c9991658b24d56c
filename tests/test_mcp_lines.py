"""A hostile client of ``unoengine mcp`` over stdio (issue 41, item 9): one line of 50 MB with no
newline, and a request nested 200,000 deep. The server's memory stays bounded while it reads the
long line (its peak resident size, from /proc), each is answered with a JSON-RPC error carrying
the request's id, and the server goes on answering (tools/mcp_lines.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest
from helpers_work import hang_guard

from unoengine.engine.limits import MAX_MCP_LINE_BYTES

pytest.importorskip("mcp")

from unoengine.tools.mcp_lines import request_id

SRC = Path(__file__).resolve().parents[1] / "src"
LONG_LINE_BYTES = 50 * 1024 * 1024
DEEP = 200_000


def _send(pipe: IO[bytes], message: dict[str, Any]) -> None:
    pipe.write(json.dumps(message).encode() + b"\n")
    pipe.flush()


def _answer(pipe: IO[bytes]) -> dict[str, Any]:
    line = pipe.readline()
    assert line, "the server closed its output without answering"
    answer = json.loads(line)
    assert isinstance(answer, dict)
    return answer


def _peak_kb(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
def test_a_hostile_client_gets_errors_for_an_endless_line_and_a_deep_request_and_memory_stays_bounded() -> None:
    server = subprocess.Popen([sys.executable, "-m", "unoengine", "mcp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env={**os.environ, "PYTHONPATH": str(SRC)})
    assert server.stdin is not None and server.stdout is not None
    try:
        with hang_guard(300):  # an unanswered request would wait for ever: only a hang is cut off
            _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"}}})
            assert _answer(server.stdout)["id"] == 1
            _send(server.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            before = _peak_kb(server.pid)

            # 50 MB of one line, no newline: every write returns once the server has read it
            server.stdin.write(b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"x": "')
            block = b"A" * (1024 * 1024)
            for _ in range(LONG_LINE_BYTES // len(block)):
                server.stdin.write(block)
            server.stdin.flush()
            grown = _peak_kb(server.pid) - before
            assert grown < 4 * MAX_MCP_LINE_BYTES // 1024, f"the server grew {grown:,} KB reading one line"
            refused = _answer(server.stdout)
            assert refused["id"] == 7 and refused["error"]["code"] == -32600, refused
            assert f"longer than {MAX_MCP_LINE_BYTES:,} bytes" in refused["error"]["message"]

            server.stdin.write(b'"}}\n')  # the long line ends; the next one is read as usual
            _send(server.stdin, {"jsonrpc": "2.0", "id": 8, "method": "tools/list"})
            listed = _answer(server.stdout)
            assert listed["id"] == 8 and listed["result"]["tools"], listed

            deep = "[" * DEEP + "]" * DEEP
            server.stdin.write(('{"jsonrpc": "2.0", "id": "deep-1", "method": "tools/call", "params": '
                                f'{{"name": "start_game", "arguments": {{"players": {deep}}}}}}}\n').encode())
            server.stdin.flush()
            too_deep = _answer(server.stdout)
            assert too_deep["id"] == "deep-1" and too_deep["error"]["code"] == -32600, too_deep
            assert "nested deeper than 32 levels" in too_deep["error"]["message"]

            _send(server.stdin, {"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
            assert _answer(server.stdout)["id"] == 9
            server.stdin.close()
            assert server.wait() == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@pytest.mark.parametrize(("text", "expected"), [
    ('{"jsonrpc": "2.0", "id": 12, "method": "x"}', 12),
    ('{"method": "x", "params": {"id": 5, "a": ["\\"id\\": 6"]}, "id": "abc"}', "abc"),
    ('{"params": {"id": 5}, "note": "x\\\\", "id": -3}', -3),
    ('{"params": {"id": 5}}', None),
    ('{"params": "\\"id\\": 4, ", "x": 1}', None),
    ('{"jsonrpc": "2.0", "id": 12', None),  # cut off: perhaps 123...
    ('{"id": 1.5}', None),
    ('{"id": null}', None),
])
def test_the_id_of_a_refused_line_is_taken_only_from_its_top_level(text: str, expected: object) -> None:
    assert request_id(text) == expected
