"""The compiled engine's public doors refuse a bad array, action or attribute with the engine's
own error, and never let a kernel read or write outside its memory (issue 41, item 5).

The kernels check no bounds, so a door left open crashes the interpreter (SIGSEGV) instead of
raising. Every case is therefore handed to a hostile caller in its own process
(tests/hostile/compiled_peer.py): a crash is seen here as a failing test, with the case that caused
it, and the peer is started again for the next case. The fuzz mutates one slot of valid game
arrays at a time (random values, extremes, off by one, the block edges), their length, shape and
dtype, as tests/test_hostile_fuzz.py mutates JSON documents; each door must work or refuse."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import pytest
from budget import budget
from helpers_hostile import MAX_MESSAGE
from helpers_work import hang_guard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

import unoengine as u
from unoengine.compiled.game import CompiledGame
from unoengine.compiled.layout import HEADER, S_DISCARD_LEN, S_DRAW_LEN, offsets

PEER = Path(__file__).resolve().parent / "hostile" / "compiled_peer.py"
STARTUP = 900.0
"""Cut-off of the peer's first answer (it may compile the kernels when no cache is on disk): a hang guard only."""
PROFILES = ("classic-108", "classic-108+jump-in+stacking")
DOORS = ("game", "constructor", "encoding", "table")
FUZZ = settings(max_examples=budget(40, 400), deadline=None, suppress_health_check=list(HealthCheck))
INT64 = (-(2**63), 2**63 - 1)


class Peer:
    """The hostile caller, started again after each crash."""

    def __init__(self, stderr: IO[bytes]) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.stderr = stderr  # a file, not a pipe: a chatty peer cannot block on it

    def ask(self, case: dict[str, Any]) -> dict[str, Any]:
        if self.proc is None:
            self.stderr.seek(0)
            self.stderr.truncate()
            self.proc = subprocess.Popen([sys.executable, str(PEER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.stderr, text=True)
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(case) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        with hang_guard(STARTUP):
            line = proc.stdout.readline()
        if line:
            answer: dict[str, Any] = json.loads(line)
            return answer
        self.proc = None
        with hang_guard(STARTUP):
            rc = proc.wait()
        self.stderr.seek(0)
        stderr = self.stderr.read()[-2000:].decode(errors="replace")
        return {"outcome": "crashed", "rc": rc, "stderr": stderr}

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            with hang_guard(STARTUP):
                self.proc.wait()
            self.proc = None


@pytest.fixture(scope="module")
def peer() -> Iterator[Peer]:
    with tempfile.TemporaryFile() as stderr:
        caller = Peer(stderr)
        yield caller
        caller.close()


def harmless(answer: dict[str, Any], case: dict[str, Any]) -> None:
    """The door worked, or refused with an UnoEngineError and a short message; never crashed."""
    what = {k: v for k, v in case.items() if k != "array"}
    assert answer["outcome"] != "crashed", f"the interpreter died (status {answer['rc']}) on {what}: {answer}"
    assert answer["outcome"] in ("ok", "refused"), f"not the engine's error on {what}: {answer}"
    assert len(answer.get("message", "")) < MAX_MESSAGE


def refused(answer: dict[str, Any], case: dict[str, Any], error: str | None = None) -> None:
    harmless(answer, case)
    assert answer["outcome"] == "refused", f"accepted {({k: v for k, v in case.items() if k != 'array'})}"
    if error is not None:
        assert answer["error"] == error, answer


# --- valid games to mutate -------------------------------------------------------------------------
def _played(profile: str, n: int, seed: int, moves: int) -> list[int]:
    game = CompiledGame.new(u.load_profile(profile), n, seed)
    for _ in range(moves):
        codes = game.legal_codes()
        if game.match_over or not len(codes):
            break
        game.push(int(codes[seed % len(codes)]))
    return [int(x) for x in game.array]


BASES = [(p, n, _played(p, n, seed, moves)) for p in PROFILES for n, seed, moves in
         ((2, 1, 0), (2, 2, 9), (3, 3, 25), (4, 4, 60))]


def _edges(profile: str, n: int, a: list[int]) -> list[int]:
    """The slots where something starts or ends: the header, each block's edges, the piles' ends."""
    o = offsets(n, u.load_profile(profile).deck_size)
    starts = [o.scores, o.last_hand_points, o.last_points_won, o.hand_size, o.hands, o.known, o.draw, o.discard,
              o.challenge_hand, o.reveal]
    ends = [o.draw + a[S_DRAW_LEN] - 1, o.draw + a[S_DRAW_LEN], o.discard + a[S_DISCARD_LEN] - 1,
            o.discard + a[S_DISCARD_LEN]]
    return sorted({*range(HEADER), *starts, *(s - 1 for s in starts), *ends, o.size - 1} & set(range(o.size)))


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """A case: a valid game's array with one slot, or its length, shape or dtype, changed."""
    profile, n, base = draw(st.sampled_from(BASES))
    a = list(base)
    door = draw(st.sampled_from(DOORS))
    case: dict[str, Any] = {"door": door, "profile": profile, "players": n, "seat": draw(st.integers(0, n - 1))}
    kind = draw(st.sampled_from(["slot", "slot", "slot", "slot", "length", "dtype", "shape"]))
    if kind == "slot":
        at = draw(st.sampled_from(_edges(profile, n, a)) | st.integers(0, len(a) - 1))
        old = a[at]
        a[at] = draw(st.sampled_from([old - 1, old + 1, -1, 0, 1, n - 1, n, 57, 58, 108, 109, 1000, *INT64])
                     | st.integers(*INT64))
        case["what"] = f"a[{at}]: {old} -> {a[at]}"
    elif kind == "length":
        k = draw(st.sampled_from([0, 1, HEADER - 1, HEADER, len(a) - 1, len(a) + 1]))
        a = a[:k] if k <= len(a) else a + [0] * (k - len(a))
        case["what"] = f"{k} slots"
    elif kind == "dtype":
        case["dtype"] = draw(st.sampled_from(["float64", "int32", "uint64", "int16", "bool", "float32"]))
        case["what"] = case["dtype"]
    else:
        case["shape"] = [2, len(a) // 2] if len(a) % 2 == 0 else [1, len(a)]
        case["what"] = f"shape {case['shape']}"
    case["array"] = a
    return case


@FUZZ
@given(mutated())
def test_mutated_arrays_work_or_are_refused_at_every_door(peer: Peer, case: dict[str, Any]) -> None:
    harmless(peer.ask(case), case)


@FUZZ
@given(st.data())
def test_batch_actions_in_any_integer_dtype_work_or_are_refused(peer: Peer, data: st.DataObject) -> None:
    """Every action either is one of the game's 132 (or -1, skip) or is refused naming the game:
    2**64 - 1 as uint64 is not read as -1 (skip)."""
    dtype = data.draw(st.sampled_from(["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]))
    value = st.sampled_from([-1, 0, 1, 131, 132, 255, 2**63 - 1, -(2**63)]) | st.integers(-2, 140)
    actions = data.draw(st.lists(value, min_size=3, max_size=3))
    given_as = [int(v) for v in np.array(actions, dtype=np.int64).astype(dtype)]  # what the peer passes
    case = {"door": "actions", "profile": "classic-108", "players": 2, "actions": actions, "dtype": dtype}
    answer = peer.ask(case)
    harmless(answer, case)
    bad = [i for i, v in enumerate(given_as) if v < -1 or v >= 132]
    if bad:
        refused(answer, case, "ActionError")
        assert answer["message"].startswith(f"actions[{bad[0]}]: {given_as[bad[0]]} ")


# --- the cases of the issue, each its own regression test --------------------------------------------
def _base(n: int = 2) -> list[int]:
    return next(a for p, k, a in BASES if p == "classic-108" and k == n)


def test_a_garbage_batch_games_array_is_refused_and_the_batch_still_steps(peer: Peer) -> None:
    case = {"door": "batch", "profile": "classic-108", "players": 2, "attr": "games", "array": [10**9] * 64}
    refused(peer.ask(case), case, "ReadOnlyError")


@pytest.mark.parametrize("attr", ["game_seeds", "batch_size", "num_players", "learner", "encoding", "threads"])
def test_a_batch_setting_cannot_be_replaced(peer: Peer, attr: str) -> None:
    case = {"door": "batch", "profile": "classic-108", "players": 2, "attr": attr, "array": [10**6] * 3,
            "as_array": attr in ("game_seeds", "encoding")}
    refused(peer.ask(case), case, "ReadOnlyError")


@pytest.mark.parametrize("attr", ["games[]", "actor", "mask"])
def test_the_arrays_a_batch_shows_cannot_be_made_writable(peer: Peer, attr: str) -> None:
    case = {"door": "batch", "profile": "classic-108", "players": 2, "attr": attr, "array": [10**6] * 3}
    refused(peer.ask(case), case)


def test_a_short_array_is_refused_by_the_constructor(peer: Peer) -> None:
    for k in (3, HEADER, len(_base()) - 1):
        case = {"door": "constructor", "profile": "classic-108", "players": 2, "array": _base()[:k]}
        refused(peer.ask(case), case, "PositionError")


def test_a_thousand_players_are_refused_by_the_constructor(peer: Peer) -> None:
    case = {"door": "constructor", "profile": "classic-108", "players": 2, "array": [1000, *_base()[1:]]}
    answer = peer.ask(case)
    refused(answer, case, "PositionError")
    assert "S_N" in answer["message"]


def test_the_array_a_game_shows_cannot_be_made_writable_and_overwritten(peer: Peer) -> None:
    case = {"door": "overwrite", "profile": "classic-108", "players": 2, "array": [10**9] * len(_base())}
    refused(peer.ask(case), case)


def test_an_action_of_2_64_minus_1_is_refused_not_skipped(peer: Peer) -> None:
    # The peer reads int64 from JSON and casts: -1 as uint64 is 2**64 - 1.
    case = {"door": "actions", "profile": "classic-108", "players": 2, "actions": [0, -1, 0], "dtype": "uint64"}
    answer = peer.ask(case)
    refused(answer, case, "ActionError")
    assert "actions[1]: 18446744073709551615" in answer["message"]


def test_a_float_array_is_refused_before_any_kernel_sees_it(peer: Peer) -> None:
    """numba would raise its own TypingError (or compile a new signature) for another dtype."""
    for door in DOORS:
        case = {"door": door, "profile": "classic-108", "players": 2, "array": _base(), "dtype": "float64"}
        refused(peer.ask(case), case, "ActionError" if door == "encoding" else "PositionError")


def test_a_valid_array_passes_every_door(peer: Peer) -> None:
    """The doors are not shut to what they should let in: a game from play, at each of them."""
    for profile, n, a in BASES:
        for door in DOORS:
            case = {"door": door, "profile": profile, "players": n, "array": a}
            answer = peer.ask(case)
            assert answer["outcome"] == "ok", (profile, n, door, answer)
