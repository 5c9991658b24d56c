"""A hostile caller of the compiled engine's public doors (tests/test_compiled_doors.py, issue 41).

Reads one JSON case a line from standard input, hands its array, actions or attribute to one
public door, and writes one JSON line: ``{"outcome": "ok"}``, ``{"outcome": "refused", "error":
..., "message": ...}`` for an UnoEngineError, or ``{"outcome": "other", ...}`` for any other
exception. It runs in its own process so that a door left open, whose kernel reads or writes
outside its memory, kills this process (the test sees the signal) rather than the test run.
It imports only names the engine had before issue 41, so it runs against the old code too.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

import unoengine as u
from unoengine.compiled.config import config_of
from unoengine.compiled.game import CompiledGame
from unoengine.envs.batch import BatchEngine
from unoengine.envs.compiled_backend import CompiledBackend, CompiledTable
from unoengine.envs.compiled_encoding import CompiledEncoding

_made: dict[Any, Any] = {}


class ShownReadOnly(u.UnoEngineError):
    """numpy refused to make a view the engine showed writable: the door is shut."""


def _writable(view: Any) -> Any:
    try:
        view.flags.writeable = True
    except ValueError as exc:
        raise ShownReadOnly(str(exc)) from None
    return view


def _once(key: Any, make: Any) -> Any:
    if key not in _made:
        _made[key] = make()
    return _made[key]


def _array(case: dict[str, Any]) -> Any:
    a = np.array(case["array"], dtype=np.int64).astype(case.get("dtype", "int64"))
    if case.get("shape"):
        a = a.reshape(case["shape"])
    return a


def _play(game: Any) -> None:
    """What a caller does with a game it was given: its moves, one of them, its state."""
    codes = game.legal_codes()
    if len(codes):
        game.push(int(codes[0]))
    game.copy().legal_moves()
    game.to_state()
    repr(game)


def run(case: dict[str, Any]) -> None:
    profile = _once(case["profile"], lambda: u.load_profile(case["profile"]))
    n = case["players"]
    door = case["door"]
    if door == "game":
        _play(CompiledGame.from_array(profile, _array(case)) if hasattr(CompiledGame, "from_array")
              else CompiledGame(profile, config_of(profile), _array(case)))
    elif door == "constructor":
        _play(CompiledGame(profile, config_of(profile), _array(case)))
    elif door == "overwrite":  # the game's own array made writable and written
        game = CompiledGame.new(profile, n, 1)
        view = _writable(game.array)
        view[:] = _array(case)
        _play(game)
    elif door == "encoding":
        enc = _once(("enc", case["profile"], n), lambda: CompiledEncoding(profile, n))
        enc.observation(_array(case), case.get("seat", 0))
        enc.mask(_array(case), case.get("seat", 0), wait=True)
    elif door == "table":
        backend = _once(("backend", case["profile"], n), lambda: CompiledBackend(profile, n))
        table = CompiledTable(backend, _array(case))
        if table.now[1]:
            table.act(table.now[1][0])
        table.state  # noqa: B018  (made on first use: the conversion runs)
    elif door == "actions":
        batch = BatchEngine(profile, n, len(case["actions"]), 1)
        batch.reset()
        batch.step(np.array(case["actions"], dtype=np.int64).astype(case["dtype"]))
        batch.step(batch.random_actions())
    elif door == "batch":  # a public attribute of a batch replaced, or its shown arrays written
        batch = BatchEngine(profile, n, 4, 1, learner=0)
        out = batch.reset()
        target = case["attr"]
        garbage = _array(case)
        try:
            if target in ("actor", "mask"):
                view = _writable(getattr(out, target))
                view[...] = garbage.reshape(-1)[: view.size].reshape(view.shape) if garbage.size >= view.size else 10**9
            elif target == "games[]":
                view = _writable(batch.games)
                view[...] = garbage.reshape(-1)[0]
            else:
                setattr(batch, target, garbage if case.get("as_array", True) else int(garbage.reshape(-1)[0]))
        finally:
            batch.step(batch.random_actions())  # the batch still steps whatever was refused
    else:
        raise SystemExit(f"unknown door {door!r}")


def main() -> None:
    for line in sys.stdin:
        case = json.loads(line)
        try:
            run(case)
            answer: dict[str, Any] = {"outcome": "ok"}
        except u.UnoEngineError as exc:
            answer = {"outcome": "refused", "error": type(exc).__name__, "message": str(exc)}
        except Exception as exc:  # anything else is a door that does not say what is wrong
            answer = {"outcome": "other", "error": type(exc).__name__, "message": str(exc)[:2000]}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
