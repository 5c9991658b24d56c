"""Starting ``unoengine play``: its options, a new game from them or a saved one resumed, and the exit code.

Everything that can go wrong before the first move (a bad option, an unreadable save) is found
here and reported as exit code 2, before the person is asked anything.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from ...bots import Bot, make_bot
from ...bots.base import SHIPPED_BOTS, is_bot_name, known_bots_text
from ...engine.errors import UnoEngineError, one_line, quoted
from ...formats.composition import load_profile
from ...formats.record import GameRecord
from ...formats.serialize import dumps
from ..options import SEED_RANGE, seed
from ..shutdown import stopped_by
from .saves import SetupError, load_saved_game
from .session import Session
from .terminal import Quit, isatty

_DEFAULTS: Final[dict[str, Any]] = {"profile": "classic-108", "players": 4, "seat": 0, "bots": "heuristic"}
_SEED_LIMIT: Final = 2**63


def use_color(no_color: bool, stdout: TextIO, environ: Mapping[str, str]) -> bool:
    """ANSI colours only on a terminal, and not with --no-color or NO_COLOR set (no-color.org)."""
    return not no_color and not environ.get("NO_COLOR") and isatty(stdout)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``unoengine play``."""
    parser.add_argument("--profile", default=None,
                        help="a shipped profile, a composition (classic-108+stacking) or a TOML path "
                             "(default classic-108)")
    parser.add_argument("--players", type=int, default=None, help="number of players, you included (default 4)")
    parser.add_argument("--seat", type=int, default=None, help="your seat, 0-based (default 0)")
    parser.add_argument("--bots", default=None,
                        help="bots for the other seats in seat order, comma-separated, or one name for all "
                             "(known: heuristic, ismcts, random; default heuristic); with --resume, they "
                             "replace the saved game's bots")
    parser.add_argument("--seed", type=seed, default=None,
                        help=f"game seed, {SEED_RANGE} (default: a random one, printed)")
    parser.add_argument("--resume", metavar="FILE", default=None,
                        help="go on with a saved game (it may name shipped bots only: name any other with --bots)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where the save command writes when given no file (default: the --resume file)")
    parser.add_argument("--save-record", metavar="FILE", default=None,
                        help="when the game ends (or you quit), write its record there, for 'unoengine replay'")
    parser.add_argument("--no-color", action="store_true",
                        help="no ANSI colours (also off when not on a terminal, or when NO_COLOR is set)")


def run(args: argparse.Namespace, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Play in the terminal; 0 when the game ends or the player quits, 2 on bad options or a bad save file."""
    color = use_color(args.no_color, stdout, os.environ)
    try:
        session = _resume(args, stdin, stdout, color) if args.resume else _start(args, stdin, stdout, color)
    except (SetupError, UnoEngineError) as exc:
        print(f"unoengine play: {one_line(exc)}", file=sys.stderr)
        return 2
    record_path = getattr(args, "save_record", None)
    if record_path is not None and (Path(record_path).is_dir() or not Path(record_path).parent.is_dir()):
        print(f"unoengine play: --save-record {record_path}: not a file in an existing folder", file=sys.stderr)
        return 2
    try:
        status = session.play()
    except Quit as stop:
        session.term.say(f"{stop.message} ({session.save_note()})")
        status = 0
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM or SIGHUP under the command (tools/shutdown.py)
        session.term.say(f"\ninterrupted: {session.save_note()}")
        return stopped_by(exc).status
    return status if record_path is None else _save_record(session, Path(record_path), status)


def _save_record(session: Session, path: Path, status: int) -> int:
    """Write the game's record (the seed and every move made) for ``unoengine replay``."""
    record = session.record.with_moves(session.moves[len(session.record.moves):])
    try:
        path.write_text(dumps(record) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"unoengine play: --save-record {path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    session.term.say(f"record of {len(record.moves)} moves written to {path}; "
                     f"see it with: unoengine replay {path} --html replay.html")
    return status


def _option(args: argparse.Namespace, name: str) -> Any:
    value = getattr(args, name, None)
    return _DEFAULTS[name] if value is None else value


def _start(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, color: bool) -> Session:
    """A new game from the options."""
    try:
        profile = load_profile(_option(args, "profile"))
    except UnoEngineError as exc:
        raise SetupError(f"bad --profile: {exc}") from None
    players: int = _option(args, "players")
    if not profile.min_players <= players <= profile.max_players:
        raise SetupError(f"--players must be from {profile.min_players} to {profile.max_players} "
                         f"for {profile.name}, got {players}")
    seat: int = _option(args, "seat")
    if not 0 <= seat < players:
        raise SetupError(f"--seat must be from 0 to {players - 1}, got {seat}")
    names = _bot_names(str(_option(args, "bots")), players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(_SEED_LIMIT)
    try:
        record = GameRecord(profile, players, seed)
        state = record.initial_state()
    except UnoEngineError as exc:
        raise SetupError(str(exc)) from None
    return Session(record, state, seat, _bots(names), stdin, stdout, color, args.save)


def _bot_names(option: str, players: int) -> list[str]:
    """``--bots``: one name for every other seat, or one name per other seat."""
    names = [n.strip() for n in option.split(",")]
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise SetupError(f"--bots needs one name, or {players - 1} (one per other seat), got {len(names)}")
    return names


def _saved_bots(path: Path, names: Sequence[str], seats: Sequence[int]) -> list[str]:
    """The saved game's bots, each a shipped one. A saved game may come from anyone, and a bot name
    can run a command (``program:...``) or import a module (``text:MODULE:FUNC``, a plugin): such
    a bot plays only when the person names it on the command line (``--bots``)."""
    for seat, name in zip(seats, names, strict=True):
        if name not in SHIPPED_BOTS:
            raise SetupError(f"{path}: seat {seat}: the saved bot {quoted(name)} is not one unoengine ships "
                             f"({', '.join(SHIPPED_BOTS)}), and a saved game starts no other; to play it, "
                             "name it yourself with --bots (one name, or one per other seat)")
    return list(names)


def _bots(names: Sequence[str]) -> list[tuple[str, Bot]]:
    unknown = [name for name in names if not is_bot_name(name)]
    if unknown:
        raise SetupError(f"unknown bot {quoted(unknown[0])}; known bots: {known_bots_text()}")
    return [(name, make_bot(name)) for name in names]


def _resume(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, color: bool) -> Session:
    """A saved game, checked and replayed, its other seats played by ``--bots`` when given, else by
    the bots the file names, which must be shipped ones (:func:`_saved_bots`)."""
    path = Path(args.resume)
    record, seat, saved = load_saved_game(path)
    if args.bots is not None:
        names = _bot_names(args.bots, record.players)
    else:
        names = _saved_bots(path, saved, [q for q in range(record.players) if q != seat])
    try:
        state = record.replay()
    except UnoEngineError as exc:
        raise SetupError(f"{path} is not a usable saved game: {exc}") from None
    ignored = [f"--{n}" for n in ("profile", "players", "seat", "seed") if getattr(args, n, None) is not None]
    session = Session(record, state, seat, _bots(names), stdin, stdout, color, args.save or args.resume)
    if ignored:
        session.term.say(f"note: {', '.join(ignored)} ignored: the saved game sets them")
    session.resumed = True
    return session

