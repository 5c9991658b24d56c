"""bots/child.py, the channel both program runners use, against the hostile programs of
tests/hostile/: every write and every read bounded in size and time, the program in its own
process group, ended whole. The same programs through ProgramBot and WireAdapter, the memory of
the host and the leaks over restarts are in tests/test_hostile_programs.py."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers_programs import all_ended, hostile, running, wait_for

from unoengine.bots.child import Child, ChildError, StderrKeeper, printable
from unoengine.engine.limits import MAX_PROGRAM_LINE_BYTES, MAX_STDERR_HEAD_BYTES, MAX_STDERR_TAIL_BYTES


@pytest.fixture
def noted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file where the hostile programs started in this test note their children's pids."""
    path = tmp_path / "children.txt"
    path.touch()
    monkeypatch.setenv("HOSTILE_CHILDREN", str(path))
    return path


@pytest.fixture
def started() -> Iterator[list[Child]]:
    """The programs a test starts, stopped after it whatever happened."""
    children: list[Child] = []
    yield children
    for child in children:
        child.stop(graceful=False)


def shake_hands(child: Child, protocol: int = 2) -> dict[str, object]:
    child.send((json.dumps({"type": "hello", "protocol": protocol}) + "\n").encode(), "hello", 60)
    answer: dict[str, object] = json.loads(child.receive("the handshake", 60))
    return answer


def request(child: Child, seconds: float) -> bytes:
    child.send(b'{"type": "start", "id": 1, "game": 1, "scenario": {}}\n', "start (id 1)", 60)
    return child.receive("start (id 1)", seconds)


# --- writes ------------------------------------------------------------------------------------------
def test_a_write_to_a_program_that_stopped_reading_times_out(started: list[Child]) -> None:
    """1 MiB to a program that no longer reads: far more than a pipe holds (64 KiB), so the
    write would block for ever; it fails after its timeout and the program is stopped."""
    child = Child(hostile("deaf.py"))
    started.append(child)
    shake_hands(child)
    with pytest.raises(ChildError, match=r"did not read the big message within 1 s \(it stopped reading its input\)"):
        child.send(b"x" * MAX_PROGRAM_LINE_BYTES, "the big message", 1.0)
    assert not child.alive() and child.code == -9


# --- reads -------------------------------------------------------------------------------------------
def test_a_line_over_the_limit_is_an_error_before_its_newline(started: list[Child]) -> None:
    """An endless line: refused as soon as the limit is passed; the runner holds at most the
    limit and one read more."""
    child = Child(hostile("stdout_flood.py"), max_line=100_000)
    started.append(child)
    shake_hands(child)
    with pytest.raises(ChildError, match=r"answered start \(id 1\) with a line longer than 100,000 bytes"):
        request(child, 60)
    assert len(child._buffer) < 100_000 + 64 * 1024


def test_an_answer_after_much_stderr_is_read_and_the_stderr_kept_bounded(started: list[Child]) -> None:
    """20 MB of stderr without a newline, then the answer: the answer arrives; of the stderr the
    head and tail are kept and the rest counted."""
    child = Child(hostile("stderr_flood.py", str(20_000_000)))
    started.append(child)
    shake_hands(child)
    assert json.loads(request(child, 120)) == {"type": "started", "id": 1}
    child.stop()
    assert child.code == 0  # it exited when told bye
    keeper = child.stderr
    assert keeper.total == 20_000_000
    assert (len(keeper.head), len(keeper.tail)) == (MAX_STDERR_HEAD_BYTES, MAX_STDERR_TAIL_BYTES)
    said = child.stderr_excerpt()
    assert "[... 19,993,856 bytes cut ...]" in said and len(said) < 1_000


def test_a_program_that_closes_its_output_but_runs_on_is_said_so_and_stopped(started: list[Child]) -> None:
    child = Child(hostile("closes_stdout.py"))
    started.append(child)
    shake_hands(child)
    with pytest.raises(ChildError) as caught:
        request(child, 60)
    assert caught.value.problem == ("closed its output before answering start (id 1), but was still running; "
                                    "it was stopped")
    assert "None" not in str(caught.value) and not running(child.pid, "closes_stdout.py")


# --- the end of a program ------------------------------------------------------------------------------
def test_an_exit_is_seen_at_once_though_a_child_holds_the_pipes(started: list[Child], noted: Path) -> None:
    """The program starts a child that keeps its stdout open, and exits: reported as an exit with
    its code (the pipe never closes, so waiting for it would wait the whole timeout), and the
    child, in the program's process group, is killed."""
    child = Child(hostile("spawner.py"))
    started.append(child)
    shake_hands(child)
    with pytest.raises(ChildError, match=r"^exited \(code 7\) before answering start \(id 1\)$"):
        request(child, 600)
    (grandchild,) = [int(p) for p in noted.read_text().split()]
    assert all_ended([grandchild], "spawner.py")


def test_stopping_a_program_ends_its_whole_process_group(started: list[Child], noted: Path) -> None:
    """A program that started a child and goes on answering: ``stop`` says bye, the program exits,
    and the child it left is killed with the group."""
    child = Child(hostile("spawner.py", "stay"))
    started.append(child)
    shake_hands(child)
    assert json.loads(request(child, 60))["type"] == "started"
    (grandchild,) = [int(p) for p in noted.read_text().split()]
    assert running(grandchild, "spawner.py")
    child.stop(bye=b'{"type": "bye"}\n')
    assert child.code == 0 and all_ended([grandchild], "spawner.py")


def test_a_crash_shows_the_first_and_the_last_lines_of_stderr(started: list[Child]) -> None:
    """The first line says what went wrong, the last the exception: both are shown, with what was
    cut between (a deep traceback: more lines than are shown)."""
    child = Child(hostile("crash.py"))
    started.append(child)
    shake_hands(child)
    with pytest.raises(ChildError, match=r"^exited \(code 1\) before answering start \(id 1\)$"):
        request(child, 60)
    said = child.stderr_excerpt()
    assert said.startswith("; its stderr: hostile crash: the configuration file is missing | Traceback")
    assert said.endswith("| RuntimeError: the configuration file is missing (said last)")
    assert "lines cut ...]" in said


def test_a_program_that_wrote_while_idle_is_not_reused(started: list[Child], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody reads a program between games; before it is reused, anything on its stdout (it
    answers what was not asked) makes it unfit, and it is stopped."""
    flag = tmp_path / "flooding"
    monkeypatch.setenv("HOSTILE_FLOODING", str(flag))
    quiet, noisy = Child(hostile("polite.py")), Child(hostile("idle_flood.py", "stdout"))
    started += [quiet, noisy]
    for child in (quiet, noisy):
        shake_hands(child, protocol=1)
        child.send(b'{"type": "game_over"}\n', "game_over", 60)
    assert wait_for(flag)
    assert quiet.reusable()
    assert not noisy.reusable() and not noisy.alive()


def test_a_program_that_cannot_be_started_raises_oserror() -> None:
    with pytest.raises(OSError):
        Child(["/no/such/program"])


# --- what a message shows of stderr ---------------------------------------------------------------------
def test_the_stderr_keeper_keeps_a_head_and_a_tail_in_bytes() -> None:
    keeper = StderrKeeper(head=10, tail=10)
    keeper.add(b"first\nsec")
    assert keeper.lines() == ["first", "sec"]
    keeper.add(b"ond\n" + b"m" * 1000 + b"\nthe end\n")
    assert bytes(keeper.head) == b"first\nseco" and bytes(keeper.tail) == b"m\nthe end\n"
    assert keeper.total == 1022
    assert keeper.lines() == ["first", "seco", "[... 1,002 bytes cut ...]", "m", "the end"]
    many = StderrKeeper()
    many.add("".join(f"line {i}\n" for i in range(30)).encode())
    assert many.lines() == [*(f"line {i}" for i in range(4)), "[... 18 lines cut ...]",
                            *(f"line {i}" for i in range(22, 30))]


def test_stderr_is_shown_escaped_and_shortened() -> None:
    """No terminal escape, control or invisible formatting character reaches a message raw."""
    keeper = StderrKeeper()
    keeper.add("\x1b[2J\x1b]0;pwned\x07 red\r\ttab \u202eevil\n".encode() + b"\xff\n" + b"y" * 500 + b"\n")
    shown = keeper.lines()
    assert shown[0] == "\\x1b[2J\\x1b]0;pwned\\x07 red"
    assert shown[1] == "\\ttab \\u202eevil"
    assert shown[2] == "\ufffd"
    assert shown[3] == "y" * 120 + "... (500 characters)"
    assert all(c.isprintable() for line in shown for c in line)
    assert printable("a\x00b") == "a\\x00b"


def test_a_forked_process_inherits_no_start_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool worker forked while its parent had a program start under way (or a count left by an
    exception) must still end on the pool's SIGTERM: exit_now waits only for its own starts. With
    the count inherited, a worker of a run stopped early blocked for ever, and so did the run."""
    from unoengine.bots import child as child_module

    monkeypatch.setattr(child_module, "_starting", 1)
    monkeypatch.setattr(child_module, "_exit_status", 143)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the forked process: report what it inherited, then leave at once
        os.write(write, f"{child_module._starting} {child_module._exit_status}".encode())
        os._exit(0)
    os.close(write)
    try:
        seen = os.read(read, 100).decode()
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    assert seen == "0 None"
