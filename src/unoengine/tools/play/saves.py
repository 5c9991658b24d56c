"""Saved games: the JSON document a ``save`` writes and ``--resume`` reads back, checked.

A saved game is ``{"unoengine": "saved-game", "version": 1, "record": RECORD, "seat": N,
"bots": [...]}``: the game record (the seed and every move) is all it takes to go on exactly as
the game would have gone, so nothing else of the state is stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ...engine.errors import UnoEngineError, quoted, shown
from ...engine.limits import MAX_DOCUMENT_BYTES, MAX_NAME_CHARS
from ...formats.files import UnreadableFileError, read_bounded
from ...formats.record import GameRecord
from ...formats.serialize import from_json, to_json
from ...formats.serialize.parsing import parse_json

SAVE_KIND: Final = "saved-game"
SAVE_VERSION: Final = 1
_SAVE_KEYS: Final = ("unoengine", "version", "record", "seat", "bots")


class SetupError(Exception):
    """Options or a save file that cannot start a game (exit code 2)."""


def saved_game(record: GameRecord, seat: int, bots: Sequence[str]) -> dict[str, Any]:
    """The JSON object of a saved game."""
    return {"unoengine": SAVE_KIND, "version": SAVE_VERSION, "record": to_json(record), "seat": seat,
            "bots": list(bots)}


def load_saved_game(path: Path) -> tuple[GameRecord, int, list[str]]:
    """Read and check a saved game file: (record, the person's seat, the bot names); SetupError otherwise.

    Only a regular file of at most MAX_DOCUMENT_BYTES is read, as strict JSON (serialize's parser).
    The bot names are data, checked for their shape only: nothing here looks them up, since a
    name can load a plugin or run a program (``--resume`` starts shipped bots only, start.py)."""
    try:
        raw = read_bounded(path, MAX_DOCUMENT_BYTES)
    except UnreadableFileError as exc:
        raise SetupError(f"cannot read {exc.path}: {exc.problem}") from None
    bad = f"{path} is not a saved game"
    try:
        doc = parse_json(raw, str(path))
    except UnoEngineError as exc:
        raise SetupError(f"{bad}: {exc}") from None
    if not isinstance(doc, dict) or doc.get("unoengine") != SAVE_KIND:
        raise SetupError(f'{bad}: expected a JSON object {{"unoengine": "{SAVE_KIND}", "version": 1, ...}}')
    if doc.get("version") != SAVE_VERSION:
        raise SetupError(f"{bad}: version {shown(doc.get('version'))} is not {SAVE_VERSION}")
    keys = set(doc)
    if keys != set(_SAVE_KEYS):
        missing, extra = sorted(set(_SAVE_KEYS) - keys), sorted(keys - set(_SAVE_KEYS))
        problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(quoted(k) for k in extra[:5])}"] if extra else [])
        raise SetupError(f"{bad}: " + "; ".join(problems))
    try:
        record = from_json(doc["record"], f"{path}: record")
    except UnoEngineError as exc:
        raise SetupError(str(exc)) from None
    if not isinstance(record, GameRecord):
        raise SetupError(f"{bad}: record must be a game record document")
    seat, names = doc["seat"], doc["bots"]
    if type(seat) is not int or not 0 <= seat < record.players:
        raise SetupError(f"{bad}: seat must be a seat from 0 to {record.players - 1}, got {shown(seat)}")
    if not isinstance(names, list) or len(names) != record.players - 1 or not all(
            isinstance(n, str) and 0 < len(n) <= MAX_NAME_CHARS for n in names):
        raise SetupError(f"{bad}: bots must be a list of {record.players - 1} bot names")
    return record, seat, list(names)


def write_saved_game(path: Path, record: GameRecord, seat: int, bots: Sequence[str]) -> None:
    """Write the saved game to ``path``; OSError or UnoEngineError when it cannot be written."""
    path.write_text(json.dumps(saved_game(record, seat, bots), indent=1) + "\n", encoding="utf-8")
