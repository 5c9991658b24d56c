"""``unoengine play``: a person plays UNO against bots in the terminal.

The person's seat is asked for a decision whenever they have a legal move: on their turn, and
out of turn when they may catch a missed UNO, call UNO late or jump in (HOUSE-2). The other
seats are bots that act as in :func:`unoengine.simulate.next_move`: bots after the player to
act, in seat order, may act out of turn first, then the player to act. A bot's random stream
is seeded from the game seed, its seat and the number of moves made so far, so a game is
reproducible from its seed and the person's input, and a saved game goes on exactly as it
would have without the save.

A saved game is the JSON object ``{"unoengine": "saved-game", "version": 1, "record": RECORD,
"seat": N, "bots": [...]}`` where RECORD is the game record document of :mod:`unoengine.serialize`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from ..bots import Bot, make_bot
from ..engine.cards import (
    CARDS,
    COLOR_LETTERS,
    COLOR_OF,
    IS_WILD,
    SYMBOL_OF,
    WILD_DRAW_FOUR,
    WILD_SWAP_HANDS,
    parse_card,
)
from ..engine.errors import IllegalMoveError, NotationError, UnoEngineError
from ..engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeDecided,
    ChallengeOffered,
    ColorNamed,
    DirectionChanged,
    EffectApplied,
    Event,
    FirstCardReturned,
    HandShown,
    HandsRotated,
    HandsShuffled,
    HandsSwapped,
    MatchEnded,
    PenaltyPending,
    PileReshuffled,
    RoundDealt,
    RoundEnded,
    TurnPassed,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoNotCalled,
    events_for,
)
from ..engine.legality import legal_moves, next_dealer
from ..engine.moves import Accept, CallUno, CatchUno, Challenge, ChooseColor, Draw, Move, NextRound, Pass, Play
from ..engine.scoring import hand_points
from ..engine.state import GameState, Phase
from ..engine.transition import apply, apply_with_events
from ..engine.view import PlayerView, view
from ..formats.composition import load_profile
from ..formats.notation import format_move, parse_move
from ..formats.record import GameRecord
from ..formats.serialize import from_json, to_json

SAVE_KIND: Final = "saved-game"
SAVE_VERSION: Final = 1
_SAVE_KEYS: Final = ("unoengine", "version", "record", "seat", "bots")
_DEFAULTS: Final[dict[str, Any]] = {"profile": "classic-108", "players": 4, "seat": 0, "bots": "heuristic"}
_SEED_LIMIT: Final = 2**63
_SEAT_TOKEN: Final = re.compile(r"[pP]?\d{1,2}")
_COLOR_NAMES: Final = ("red", "yellow", "green", "blue")
_ANSI: Final = ("\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[34m")
_BOLD: Final = "\x1b[1m"
_RESET: Final = "\x1b[0m"
_YES: Final = ("", "y", "yes")
_NO: Final = ("n", "no")
_QUIT: Final = ("quit", "exit", "q")
_KEYWORDS: Final = ("draw", "pass", "challenge", "accept", "uno", "deal", "catch", "color", "colour")
_HELP: Final = """\
Type the number of a move, or the move itself in notation (your seat may be left out):
  R7        play a red 7                 W:G       a Wild naming green
  R6!       play it and call UNO         W+4:R!    Wild Draw Four naming red, calling UNO
  WSW:B>p1  Swap Hands with p1           draw / pass / challenge / accept / uno / catch p2 / color G
Cards: R0-R9, RS (skip), RR (reverse), R+2 (likewise Y, G, B), W, W+4, WSH, WSW, WCU, BLK.
Commands: save [FILE] (write the game to resume with --resume FILE), help, quit.
When you may only act out of turn, Enter (or 0) lets the moment pass."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``unoengine play``."""
    parser.add_argument("--profile", default=None,
                        help="a shipped profile, a composition (classic-108+stacking) or a TOML path "
                             "(default classic-108)")
    parser.add_argument("--players", type=int, default=None, help="number of players, you included (default 4)")
    parser.add_argument("--seat", type=int, default=None, help="your seat, 0-based (default 0)")
    parser.add_argument("--bots", default=None,
                        help="bots for the other seats in seat order, comma-separated, or one name for all "
                             "(known: heuristic, ismcts, random; default heuristic)")
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: a random one, printed)")
    parser.add_argument("--resume", metavar="FILE", default=None, help="go on with a saved game")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where the save command writes when given no file (default: the --resume file)")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours (also off when not on a terminal)")


def run(args: argparse.Namespace, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Play in the terminal; 0 when the game ends or the player quits, 2 on bad options or a bad save file."""
    color = not args.no_color and _isatty(stdout)
    try:
        session = _resume(args, stdin, stdout, color) if args.resume else _start(args, stdin, stdout, color)
    except _SetupError as exc:
        print(f"unoengine play: {exc}", file=sys.stderr)
        return 2
    try:
        return session.play()
    except _Quit as stop:
        session.say(stop.message)
        return 0
    except KeyboardInterrupt:
        session.say("\ninterrupted: the game is not saved")
        return 130


# --- setting up ---------------------------------------------------------------------------
class _SetupError(Exception):
    """Options or a save file that cannot start a game (exit code 2)."""


class _Quit(Exception):
    """The player quit, or the input ended."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _option(args: argparse.Namespace, name: str) -> Any:
    value = getattr(args, name, None)
    return _DEFAULTS[name] if value is None else value


def _start(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, color: bool) -> _Session:
    """A new game from the options."""
    try:
        profile = load_profile(_option(args, "profile"))
    except (UnoEngineError, OSError) as exc:
        raise _SetupError(f"bad --profile: {exc}") from None
    players: int = _option(args, "players")
    if not profile.min_players <= players <= profile.max_players:
        raise _SetupError(f"--players must be from {profile.min_players} to {profile.max_players} "
                          f"for {profile.name}, got {players}")
    seat: int = _option(args, "seat")
    if not 0 <= seat < players:
        raise _SetupError(f"--seat must be from 0 to {players - 1}, got {seat}")
    names = [n.strip() for n in str(_option(args, "bots")).split(",")]
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise _SetupError(f"--bots needs one name, or {players - 1} (one per other seat), got {len(names)}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(_SEED_LIMIT)
    try:
        record = GameRecord(profile, players, seed)
        state = record.initial_state()
    except UnoEngineError as exc:
        raise _SetupError(str(exc)) from None
    return _Session(record, state, seat, _bots(names), stdin, stdout, color, args.save)


def _bots(names: Sequence[str]) -> list[tuple[str, Bot]]:
    out = []
    for name in names:
        try:
            out.append((name, make_bot(name)))
        except ValueError as exc:
            raise _SetupError(str(exc)) from None
    return out


def _resume(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, color: bool) -> _Session:
    """A saved game, checked and replayed."""
    path = Path(args.resume)
    record, seat, names = load_saved_game(path)
    try:
        state = record.replay()
    except UnoEngineError as exc:
        raise _SetupError(f"{path} is not a usable saved game: {exc}") from None
    ignored = [f"--{n}" for n in ("profile", "players", "seat", "bots", "seed") if getattr(args, n, None) is not None]
    session = _Session(record, state, seat, _bots(names), stdin, stdout, color, args.save or args.resume)
    if ignored:
        session.say(f"note: {', '.join(ignored)} ignored: the saved game sets them")
    session.resumed = True
    return session


def saved_game(record: GameRecord, seat: int, bots: Sequence[str]) -> dict[str, Any]:
    """The JSON object of a saved game."""
    return {"unoengine": SAVE_KIND, "version": SAVE_VERSION, "record": to_json(record), "seat": seat,
            "bots": list(bots)}


def load_saved_game(path: Path) -> tuple[GameRecord, int, list[str]]:
    """Read and check a saved game file: (record, the person's seat, the bot names); _SetupError otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _SetupError(f"cannot read {path}: {exc}") from None
    bad = f"{path} is not a saved game"
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise _SetupError(f"{bad}: not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("unoengine") != SAVE_KIND:
        raise _SetupError(f'{bad}: expected a JSON object {{"unoengine": "{SAVE_KIND}", "version": 1, ...}}')
    if doc.get("version") != SAVE_VERSION:
        raise _SetupError(f"{bad}: version {doc.get('version')!r} is not {SAVE_VERSION}")
    keys = set(doc)
    if keys != set(_SAVE_KEYS):
        missing, extra = sorted(set(_SAVE_KEYS) - keys), sorted(keys - set(_SAVE_KEYS))
        problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else [])
        raise _SetupError(f"{bad}: " + "; ".join(problems))
    try:
        record = from_json(doc["record"], f"{path}: record")
    except UnoEngineError as exc:
        raise _SetupError(str(exc)) from None
    if not isinstance(record, GameRecord):
        raise _SetupError(f"{bad}: record must be a game record document")
    seat, names = doc["seat"], doc["bots"]
    if type(seat) is not int or not 0 <= seat < record.players:
        raise _SetupError(f"{bad}: seat must be a seat from 0 to {record.players - 1}, got {seat!r}")
    if not isinstance(names, list) or len(names) != record.players - 1 or not all(isinstance(n, str) for n in names):
        raise _SetupError(f"{bad}: bots must be a list of {record.players - 1} bot names")
    return record, seat, list(names)


# --- the game -----------------------------------------------------------------------------
class _Session:
    """One game in progress: the record so far, the state, the seats and the terminal."""

    def __init__(self, record: GameRecord, state: GameState, seat: int, bots: list[tuple[str, Bot]],
                 stdin: TextIO, stdout: TextIO, color: bool, save_path: str | None) -> None:
        self.record = record
        self.moves: list[Move] = list(record.moves)
        self.state = state
        self.seat = seat
        self.bot_names = [name for name, _ in bots]
        others = [q for q in range(record.players) if q != seat]
        self.bots: dict[int, Bot] = {q: bot for q, (_, bot) in zip(others, bots, strict=True)}
        self.stdin = stdin
        self.stdout = stdout
        self.color = color
        self.save_path = save_path
        self.resumed = False

    # output and input
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input, stripped; _Quit at the end of the input or on quit."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise _Quit("\nend of input: goodbye (the game is not saved)")
        text = line.strip()
        if text.lower() in _QUIT:
            raise _Quit("goodbye (the game is not saved)")
        return text

    def card(self, card: int) -> str:
        name = repr(CARDS[card])
        if not self.color:
            return name
        return f"{_BOLD if IS_WILD[card] else _ANSI[COLOR_OF[card]]}{name}{_RESET}"

    def color_name(self, color: int) -> str:
        name = _COLOR_NAMES[color]
        return f"{_ANSI[color]}{name}{_RESET}" if self.color else name

    def who(self, player: int) -> str:
        return "you" if player == self.seat else f"p{player}"

    # the loop
    def play(self) -> int:
        s = self.state
        verb = "resumed" if self.resumed else "new game"
        self.say(f"unoengine play ({verb}): {self.record.profile.name}, {s.num_players} players, "
                 f"seed {self.record.seed}")
        bots = ", ".join(f"p{q} {name}" for q, name in zip(sorted(self.bots), self.bot_names, strict=True))
        self.say(f"you are p{self.seat}; {bots}")
        if self.moves:
            self.say(f"{len(self.moves)} moves made so far")
        else:
            self.say(f"round 1: p{s.dealer} deals; the first card is {self.card(s.discard_pile[0])}")
        self.say("type help for how to play")
        while True:
            if self.state.round_over:
                if not self.round_over():
                    return 0
                continue
            move = self.next_move()
            self.make(move)

    def make(self, move: Move) -> None:
        """Apply a move, keep it, and tell what happened in one line."""
        self.state, events = apply_with_events(self.state, move)
        self.moves.append(move)
        self.say(describe(events_for(events, self.seat), self.who, self.card, self.color_name))

    def next_move(self) -> Move:
        """The next move, asked of bots and the person as in simulate.next_move."""
        state = self.state
        n = state.num_players
        current = state.current
        acting = {m.player for m in legal_moves(state)}
        for q in [(current + k) % n for k in range(1, n)] + [current]:
            if q not in acting:
                continue
            move = self.human(q == current) if q == self.seat else self.bot(q)
            if move is not None:
                return move
        raise RuntimeError(f"nobody moved in {state!r}")  # every state but the round's end has a player to act

    def bot(self, q: int) -> Move | None:
        v = view(self.state, q)
        rng = random.Random(f"{self.record.seed}/seat{q}/move{len(self.moves)}")
        move = self.bots[q].act(v, rng)
        if move is not None and move not in v.legal_moves:
            raise RuntimeError(f"bot {self.bots[q].name!r} at seat {q} returned {move!r}, which is not legal")
        if move is None and q == self.state.current:
            raise RuntimeError(f"bot {self.bots[q].name!r} at seat {q} made no move on its turn")
        return move

    def round_over(self) -> bool:
        """Show the round's result; deal the next round if the person wants it. False to stop."""
        state = self.state
        result = state.match.last_round
        assert result is not None
        how = "a blocked round, lowest hand" if result.blocked else "went out"
        self.say(f"\n=== round {state.match.round_number} over: {self.who(result.winner)} won ({how}) ===")
        for p, hand in enumerate(state.hands):
            name = f"p{p}" + (" (you)" if p == self.seat else "")
            cards = " ".join(self.card(c) for c in hand)
            self.say(f"  {name:9} {hand_points(state.profile, hand):4d} points in hand  {cards}".rstrip())
        won = ", ".join(f"{self.who(p)} +{w}" for p, w in enumerate(result.points_won) if w) or "none"
        scores = ", ".join(f"p{p} {s}" for p, s in enumerate(state.scores))
        self.say(f"points won: {won}; scores: {scores} (target {state.profile.target_score})")
        if state.match_over:
            winner = state.match.winner
            assert winner is not None
            self.say(f"=== match over: {self.who(winner)} won the match ===")
            return False
        while True:
            answer = self.ask("next round? [Y/n] ")
            if answer.lower() in _YES:
                self.make(NextRound(next_dealer(state)))
                return True
            if answer.lower() in _NO:
                self.say("goodbye")
                return False
            if not self.command(answer):
                self.say(f"{answer!r}: answer y or n (or save, help, quit)")

    # the person
    def command(self, text: str) -> bool:
        """Run ``save [FILE]`` or ``help``; False when ``text`` is neither."""
        word, _, rest = text.partition(" ")
        if word.lower() == "help":
            self.say(_HELP)
            return True
        if word.lower() == "save":
            self.save(rest.strip() or self.save_path)
            return True
        return False

    def save(self, path: str | None) -> None:
        if not path:
            self.say("save where? type save FILE (or start with --save FILE)")
            return
        record = GameRecord(self.record.profile, self.record.players, self.record.seed, self.record.deck,
                            self.record.dealer, tuple(self.moves))
        try:
            Path(path).write_text(json.dumps(saved_game(record, self.seat, self.bot_names), indent=1) + "\n",
                                  encoding="utf-8")
        except (OSError, UnoEngineError) as exc:
            self.say(f"could not save to {path}: {exc}")
            return
        self.save_path = path
        self.say(f"saved to {path} ({len(self.moves)} moves); go on later with --resume {path}")

    def human(self, my_turn: bool) -> Move | None:
        """Show the situation and the person's moves; their choice, or None to let the moment pass."""
        v = view(self.state, self.seat)
        entries = menu(v)
        self.show(v, my_turn)
        for i, (text, _) in enumerate(entries, 1):
            self.say(f"  {i}) {text}")
        if not my_turn:
            self.say("  0) let it pass (Enter)")
        low = 1 if my_turn else 0
        while True:
            text = self.ask("your move: ")
            if not text:
                if not my_turn:
                    return None
                self.say(f"type a move number 1-{len(entries)}, a move such as {_example(v)}, or help")
                continue
            if self.command(text):
                continue
            if text.isascii() and text.isdigit():
                k = int(text)
                if k == 0 and not my_turn:
                    return None
                if not 1 <= k <= len(entries):
                    self.say(f"{k} is not one of the moves {low}-{len(entries)}")
                    continue
                move = entries[k - 1][1]
                return self.complete(v, move) if isinstance(move, Play) else move
            typed = self.typed(v, text)
            if typed is not None:
                return typed

    def show(self, v: PlayerView, my_turn: bool) -> None:
        """The table as the person sees it."""
        n = v.num_players
        title = "your turn" if my_turn else f"p{v.current}'s turn: you may act out of turn"
        self.say(f"\n--- round {v.round_number}, {title} ---")
        top = self.card(v.top_card)
        colour = self.color_name(v.color) if v.color is not None else "not named yet"
        way = "clockwise" if v.direction > 0 else "counter-clockwise"
        order = " -> ".join(f"p{(v.current + v.direction * k) % n}" for k in range(n))
        self.say(f"top card {top}, colour {colour}; {way}: {order}; draw pile {v.draw_pile_size}")
        for p, size in enumerate(v.hand_sizes):
            name = f"p{p}" + (" (you)" if p == self.seat else "")
            marks = []
            if p == v.current:
                marks.append("<- to act")
            if p == v.uno_exposed:
                marks.append("did not call UNO: may be caught")
            cards = f"{size} card" + ("" if size == 1 else "s")
            self.say(f"  {name:9} {cards:9} {'  '.join(marks)}".rstrip())
        if any(v.scores):
            self.say("scores: " + ", ".join(f"p{p} {s}" for p, s in enumerate(v.scores)))
        self.say("your hand: " + " ".join(self.card(c) for c in v.hand))
        for line in self.situation(v, my_turn):
            self.say(line)
        self.say("moves:")

    def situation(self, v: PlayerView, my_turn: bool) -> list[str]:
        """What the person must decide on their turn, beyond the move list."""
        out: list[str] = []
        if not my_turn:
            return out
        if v.phase is Phase.DRAWN and v.drawn_card is not None:
            out.append(f"you drew {self.card(v.drawn_card)}: play it or keep it")
        elif v.phase is Phase.CHALLENGE:
            out.append(f"p{v.challenge_attacker} played {self.card(v.top_card)} on you: challenge it or accept "
                       f"{v.pending_draw} cards")
        elif v.phase is Phase.PENALTY:
            out.append(f"you face {v.pending_draw} cards: stack a Draw card or accept them")
        elif v.phase is Phase.CHOOSE_COLOR:
            out.append("the first card is a wild: name its colour")
        return out

    def complete(self, v: PlayerView, move: Play) -> Play:
        """Ask for what a play leaves open: the target, the colour of a wild, the UNO call."""
        options = [m for m in v.legal_moves if isinstance(m, Play) and m.card == move.card]
        if not options:
            return move
        target = move.target
        targets = sorted({m.target for m in options if m.target is not None})
        if target is None and targets:
            target = targets[0] if len(targets) == 1 else self.ask_target(targets)
        color: int | None = move.color
        if color is None and IS_WILD[move.card]:
            color = self.ask_color()
        uno = move.uno or (any(m.uno for m in options) and self.ask_uno())
        return Play(move.player, move.card, color, target, uno)

    def ask_color(self) -> int:
        while True:
            answer = self.ask("colour? r/y/g/b ")
            for k in range(4):
                if answer.lower() in (COLOR_LETTERS[k].lower(), _COLOR_NAMES[k], str(k + 1)):
                    return k
            if not self.command(answer):
                self.say(f"{answer!r} is not a colour: answer r, y, g or b")

    def ask_uno(self) -> bool:
        while True:
            answer = self.ask("call UNO? [Y/n] ")
            if answer.lower() in _YES:
                return True
            if answer.lower() in _NO:
                return False
            if not self.command(answer):
                self.say(f"{answer!r}: answer y or n")

    def ask_target(self, targets: list[int]) -> int:
        names = "/".join(f"p{t}" for t in targets)
        while True:
            answer = self.ask(f"which player? {names} ")
            digits = answer.lower().removeprefix("p")
            if digits.isascii() and digits.isdigit() and int(digits) in targets:
                return int(digits)
            if not self.command(answer):
                self.say(f"{answer!r} is not one of {names}")

    def typed(self, v: PlayerView, text: str) -> Move | None:
        """A move typed in notation, completed and checked; None (with a message) if it cannot be made."""
        tokens = text.split()
        if v.phase is Phase.CHOOSE_COLOR and len(tokens) == 1 and tokens[0].lower() in (
            *COLOR_LETTERS.lower(), *_COLOR_NAMES
        ):
            text = f"color {text}"
        if not (len(tokens) >= 2 and _SEAT_TOKEN.fullmatch(tokens[0])):
            text = f"p{self.seat} {text}"
        try:
            move = parse_move(text)
        except NotationError as exc:
            self.say(_notation_problem(text, exc))
            return None
        if move.player != self.seat:
            self.say(f"you are p{self.seat}: {format_move(move)!r} is a move of p{move.player}")
            return None
        if isinstance(move, Play):
            move = self.complete(v, move)
        if move in v.legal_moves:
            return move
        what = f"{move.card!r} cannot be played now" if isinstance(move, Play) else \
            f"{format_move(move).partition(' ')[2]!r} cannot be made now"
        try:
            apply(self.state, move)
        except IllegalMoveError as exc:
            self.say(f"{what}: {exc.detail} [{exc.rule} {exc.reason}]")
            return None
        except UnoEngineError as exc:
            self.say(f"{what}: {exc}")
            return None
        return move


def _example(v: PlayerView) -> str:
    plays = [m for m in v.legal_moves if isinstance(m, Play)]
    return repr(plays[0].card) if plays else "draw"


def _notation_problem(text: str, exc: NotationError) -> str:
    """One line saying what is wrong with a typed move."""
    tokens = text.split()
    if len(tokens) == 2 and tokens[1].lower() not in _KEYWORDS:
        body = tokens[1].removesuffix("!").partition(">")[0].partition(":")[0]
        try:
            parse_card(body)
        except NotationError:
            return (f"{body!r} is not a card: cards are named like R7, GS (skip), BR (reverse), Y+2, W, W+4; "
                    "or type a move number, draw, pass, help")
    message = str(exc)
    _, sep, rest = message.partition("': ")
    return rest if sep else message


# --- describing -----------------------------------------------------------------------------
def menu(v: PlayerView) -> list[tuple[str, Move]]:
    """The person's legal moves as numbered choices in plain words: a wild's colours, a play's UNO
    call and a Swap Hands' targets are one choice each (asked for when it is chosen)."""
    out: list[tuple[str, Move]] = []
    seen: set[int] = set()
    my_turn = v.current == v.player
    answering = v.phase in (Phase.PENALTY, Phase.CHALLENGE)
    for m in v.legal_moves:
        if isinstance(m, Play):
            if m.card in seen:
                continue
            seen.add(m.card)
            name = repr(m.card)
            if not my_turn:
                text = f"jump in with {name}"
            elif answering:
                extra = 4 if m.card == WILD_DRAW_FOUR else 2
                text = f"stack {name} (the next player faces {v.pending_draw + extra})"
            else:
                text = f"play {name}"
            if IS_WILD[m.card]:
                text += ", naming a colour"
            if m.target is not None:
                verb = "swapping hands with" if m.card == WILD_SWAP_HANDS or SYMBOL_OF[m.card] == 7 else "aimed at"
                text += f", {verb} a player"
            if m.card == WILD_DRAW_FOUR and v.profile.wild_draw_four == "challenge" and v.color is not None and any(
                COLOR_OF[c] == v.color for c in v.hand
            ):
                text += f" (a bluff: you hold {_COLOR_NAMES[v.color]})"
            out.append((text, Play(m.player, m.card)))
        elif isinstance(m, Draw):
            out.append(("draw a card", m))
        elif isinstance(m, Pass):
            out.append(("keep the drawn card (end your turn)" if v.phase is Phase.DRAWN
                        else "pass (nothing to play or draw)", m))
        elif isinstance(m, Challenge):
            out.append((f"challenge the Wild Draw Four (bluff: p{v.challenge_attacker} draws {v.pending_draw}; "
                        f"if not, you draw {v.pending_draw + 2})", m))
        elif isinstance(m, Accept):
            out.append((f"accept {v.pending_draw} cards", m))
        elif isinstance(m, ChooseColor):
            out.append((f"name {_COLOR_NAMES[m.color]}", m))
        elif isinstance(m, CallUno):
            out.append(("call UNO (late, before anyone catches you)", m))
        elif isinstance(m, CatchUno):
            out.append((f"catch p{m.target} (did not call UNO)", m))
        elif isinstance(m, NextRound):
            out.append(("deal the next round", m))
    return out


_SECOND_PERSON: Final = {
    "is": "are", "has": "have", "may": "may", "does": "do", "catches": "catch", "misses": "miss", "passes": "pass",
}


def describe(events: Sequence[Event], who: Callable[[int], str], card: Callable[[int], str] = repr,
             color: Callable[[int], str] = lambda k: _COLOR_NAMES[k]) -> str:
    """One readable line for the events of a move: ``p2 plays G+2; p3 draws 2 and misses the turn``."""
    clauses: list[tuple[int | None, str]] = []  # (subject, predicate with the verb first), or (None, sentence)
    played = -1  # where the clauses of the last card played end: a missed UNO call reads with its play

    def add(player: int | None, text: str) -> None:
        clauses.append((player, text))

    for e in events:
        if isinstance(e, CardPlayed):
            add(e.player, f"{'jumps in with' if e.rule == 'HOUSE-2' else 'plays'} {card(e.card)}")
            played = len(clauses)
        elif isinstance(e, ColorNamed):
            first = e.rule.startswith("SETUP") or e.rule == "HOUSE-7"
            add(e.player, f"names {color(e.color)}" + (" for the first card" if first else ""))
            played = len(clauses) if played == len(clauses) - 1 else played
        elif isinstance(e, CardsDrawn):
            shown = f" ({' '.join(card(c) for c in e.cards)})" if e.cards else ""
            count = "a card" if e.count == 1 else str(e.count)
            add(e.player, f"draws {count}{shown}" if e.count else "draws nothing (no cards left)")
        elif isinstance(e, TurnSkipped):
            add(e.player, "misses the turn")
        elif isinstance(e, DirectionChanged):
            add(None, f"play goes {'clockwise' if e.direction > 0 else 'counter-clockwise'} now")
        elif isinstance(e, TurnPassed):
            add(e.player, "keeps the card" if e.rule == "PLAY-4" else "passes (nothing to draw)")
        elif isinstance(e, PenaltyPending):
            add(e.player, f"faces {e.total} cards")
        elif isinstance(e, ChallengeOffered):
            add(e.victim, f"may challenge or accept {e.total} cards")
        elif isinstance(e, HandShown):
            shown = f": {' '.join(card(c) for c in e.cards)}" if e.cards else ""
            add(e.owner, f"shows the hand to {who(e.viewer)}{shown}")
        elif isinstance(e, ChallengeDecided):
            verdict = f"{who(e.attacker)} bluffed" if e.guilty else f"{who(e.attacker)} did not bluff"
            add(None, f"the challenge {'succeeds' if e.guilty else 'fails'}: {verdict}")
        elif isinstance(e, UnoCalled):
            add(e.player, "calls UNO" + (" late" if e.rule == "UNO-4" else ""))
        elif isinstance(e, UnoNotCalled):
            at = played if played >= 0 and clauses[played - 1][0] == e.player else len(clauses)
            clauses.insert(at, (e.player, "does not call UNO"))
        elif isinstance(e, UnoCaught):
            add(e.catcher, f"catches {who(e.player)} without UNO")
        elif isinstance(e, HandsSwapped):
            add(e.player, f"swaps hands with {who(e.target)}")
        elif isinstance(e, HandsRotated):
            add(None, "every hand passes to the next player")
        elif isinstance(e, HandsShuffled):
            add(None, "all hands are shuffled and dealt again")
        elif isinstance(e, EffectApplied):
            add(e.player, f"uses the {e.effect!r} effect")
        elif isinstance(e, RoundDealt):
            add(e.dealer, f"deals round {e.round_number}, the first card is {card(e.first_card)}")
        elif isinstance(e, FirstCardReturned):
            add(None, f"{card(e.card)} goes back into the deck")
        elif isinstance(e, PileReshuffled):
            add(None, f"the discard pile is shuffled into a new draw pile of {e.count}")
        elif isinstance(e, RoundEnded):
            add(e.winner, "wins the round" + (" (blocked round: lowest hand)" if e.blocked else ""))
        elif isinstance(e, MatchEnded):
            add(e.winner, "wins the match")
    return _join(clauses, who)


def _join(clauses: list[tuple[int | None, str]], who: Callable[[int], str]) -> str:
    """Runs of clauses about one player become one sentence: ``p3 draws 2 and misses the turn``."""
    sentences: list[str] = []
    i = 0
    while i < len(clauses):
        subject, text = clauses[i]
        if subject is None:
            sentences.append(text)
            i += 1
            continue
        run = [text]
        i += 1
        while i < len(clauses) and clauses[i][0] == subject:
            run.append(clauses[i][1])
            i += 1
        name = who(subject)
        if name == "you":
            run = [_you(t) for t in run]
        body = run[0] if len(run) == 1 else ", ".join(run[:-1]) + " and " + run[-1]
        sentences.append(f"{name} {body}")
    return "; ".join(sentences)


def _you(predicate: str) -> str:
    """The predicate in the second person: ``draws 2`` -> ``draw 2``."""
    verb, sep, rest = predicate.partition(" ")
    verb = _SECOND_PERSON.get(verb, verb[:-1] if verb.endswith("s") else verb)
    rest = rest.replace("the hand", "your hand").replace("the turn", "your turn")
    return verb + sep + rest
