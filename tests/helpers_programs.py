"""What the tests of untrusted programs share (tests/test_child.py, tests/test_hostile_programs.py):
the hostile programs of tests/hostile/ and a look at the processes they leave."""

from __future__ import annotations

import sys
import time
from pathlib import Path

HOSTILE = Path(__file__).resolve().parent / "hostile"


def hostile(script: str, *args: str) -> list[str]:
    """The command that runs a hostile program of tests/hostile/."""
    return [sys.executable, str(HOSTILE / script), *args]


def running(pid: int, marker: str) -> bool:
    """Is ``pid`` a live process (not a zombie) whose command line holds ``marker``? (The marker
    tells it from another process given the same pid later.)"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z" and marker in command


def all_ended(pids: list[int], marker: str) -> bool:
    """Have all these processes ended? A killed process takes a moment to go: asked again for up to
    30 s (a bound that only a process left running reaches)."""
    for _ in range(300):
        if not any(running(pid, marker) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def wait_for(path: Path) -> bool:
    """Wait for a hostile program to create ``path`` (up to 60 s, reached only if it never does)."""
    for _ in range(600):
        if path.exists():
            return True
        time.sleep(0.1)
    return False
