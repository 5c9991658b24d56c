"""Games an agent plays against the shipped bots one call at a time: the bookkeeping behind
``unoengine mcp`` (tools/mcp_server.py), with nothing of MCP in it.

A game seats the agent at one seat and a shipped bot at each other. After each of the agent's
moves (and once at the start) the bots move, in the order every runner uses (bots/turns.py: the
seats after the player to act may act out of turn first, then the player to act), until the
agent has a decision or the game is over. The agent has a decision on its turn, and out of turn
whenever it has a legal move (a catch of a missed UNO, UNO-2; a late UNO call, UNO-4; a jump-in,
HOUSE-2), where it may also let the moment pass ("wait"): the seats after it then go on.

Only the agent's :class:`~unoengine.PlayerView` is ever shown: its prompt text and JSON
(formats/prompt_text.py) and the moves in words as the agent saw them (``events_for``). The deal
is fixed by the game's seed: a client that gives one knows the deal; without one the desk draws
it (hashed from the desk's own seed, or from the system's randomness) and tells it only once the
game is over. A bot's random stream is seeded from the game seed, its seat and the moves made.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
from collections import OrderedDict, deque
from collections.abc import Mapping, Sequence
from typing import Final, Literal

from ..bots import Bot, make_bot
from ..bots.turns import tell_bots
from ..engine.dealing import SEED_LIMIT, new_game
from ..engine.errors import ProfileError, UnoEngineError, one_line, quoted, shown
from ..engine.events import events_for
from ..engine.legality import legal_moves
from ..engine.limits import (
    MAX_COMPOSITION_PARTS,
    MAX_FINISHED_GAMES,
    MAX_OPEN_GAMES,
    MAX_PLAYERS,
    MAX_RECORD_MOVES,
)
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import GameState
from ..engine.transition import apply_with_events
from ..engine.view import PlayerView, view
from ..formats.answer_parsing import AnswerError, parse_answer
from ..formats.composition import load_profile, resolve_profile
from ..formats.describe import describe
from ..formats.profile_file import shipped_overlays, shipped_profiles
from ..formats.prompt_text import MAX_RECENT

SHIPPED_BOTS: Final = ("heuristic", "random", "ismcts")
"""The opponents a client may name: the bots that ship with the package (docs/bots.md). Never a
program (``program:...``), an import (``text:...``) or an installed plugin: a client of the server
must not make it run anything."""

DEFAULT_PROFILE: Final = "classic-108"
DEFAULT_PLAYERS: Final = 2
DEFAULT_OPPONENT: Final = "heuristic"

Status = Literal["your_turn", "out_of_turn", "over"]

_log = logging.getLogger("unoengine.mcp")


class AgentGameError(UnoEngineError):
    """A call the desk refuses: a bad argument (named), an unknown game, one game too many, a move
    that is not legal. Its message is written for the agent and safe to send back."""


class MoveRefused(AgentGameError):
    """A move that names none of the agent's legal moves; ``reason`` says why, and the game is
    unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"move: {reason}; the game is unchanged")
        self.reason = reason


class AgentGame:
    """One game: the state, the agent's seat, the bots, and the moves in words the agent saw."""

    def __init__(self, game_id: str, profile: Profile, seat: int, opponents: Sequence[str], seed: int,
                 *, seed_given: bool, match: bool, max_moves: int = MAX_RECORD_MOVES) -> None:
        self.game_id = game_id
        self.profile = profile
        self.seat = seat
        self.opponents = tuple(opponents)
        self.seed = seed
        self.seed_given = seed_given
        self.match = match
        self.max_moves = max_moves
        self.state: GameState = new_game(profile, len(opponents) + 1, seed)
        others = [q for q in range(self.players) if q != seat]
        self.bots: dict[int, Bot] = {q: make_bot(name) for q, name in zip(others, opponents, strict=True)}
        self.moves: list[Move] = []
        self.recent: deque[str] = deque(maxlen=MAX_RECENT)
        """The last moves in words, as the agent saw them (its prompt's "Last moves")."""
        self.stopped: str | None = None
        """Why the game ended before its end (a bot that failed, the move bound), if it did."""
        self._lines: list[str] = []
        self._advance()

    @property
    def players(self) -> int:
        return len(self.opponents) + 1

    @property
    def over(self) -> bool:
        """Is the game over: its round (or, with ``match``, its match) ended, or it was stopped?"""
        state = self.state
        return self.stopped is not None or (state.round_over and (not self.match or state.match_over))

    def view(self) -> PlayerView:
        """The agent's view: the only view of this game that is ever shown."""
        return view(self.state, self.seat)

    @property
    def status(self) -> Status:
        if self.over:
            return "over"
        return "your_turn" if self.view().my_turn else "out_of_turn"

    def play(self, answer: object) -> tuple[Move | None, list[str]]:
        """Make the agent's move named by ``answer`` (a label, the notation or ``wait``, as
        formats/answer_parsing.py reads them), then the bots' moves up to the agent's next
        decision. Returns the move (None: the agent waited) and every move since, in words.
        :class:`MoveRefused` for an answer naming no legal move: nothing changes."""
        if self.over:
            raise AgentGameError(f"game_id: game {self.game_id} is over: get_result gives its result")
        try:
            move = parse_answer(answer, self.view())
        except AnswerError as exc:
            raise MoveRefused(exc.reason) from None
        self._lines = []
        if move is None:
            self._advance(after_agent=True)
        else:
            self._make(move)
            self._advance()
        return move, self._lines

    def _make(self, move: Move) -> None:
        """Apply a legal move, tell the bots, and keep its events in words as the agent saw them."""
        self.state, events = apply_with_events(self.state, move)
        self.moves.append(move)
        tell_bots(list(self.bots.values()), move)
        line = describe(events_for(events, self.seat), self._who)
        if line:
            self.recent.append(line)
            self._lines.append(line)

    def _who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"p{seat}"

    def _advance(self, after_agent: bool = False) -> None:
        """The bots move until the agent has a decision or the game is over. ``after_agent``: the
        agent has just let this moment pass, so only the seats after it in the order are asked."""
        skip = after_agent
        while not self.over:
            if len(self.moves) >= self.max_moves:
                self.stopped = f"stopped after {len(self.moves):,} moves, the most one game may take"
                return
            state = self.state
            n = state.num_players
            acting = {m.player for m in legal_moves(state)}
            order = [(state.current + k) % n for k in range(1, n)] + [state.current]
            if skip:
                order = order[order.index(self.seat) + 1:]
                skip = False
            for q in order:
                if q not in acting:
                    continue
                if q == self.seat:
                    return  # the agent's decision
                move = self._bot_move(q, state)
                if self.stopped is not None:
                    return
                if move is not None:
                    self._make(move)
                    break
            else:  # nobody moved: only a broken bot can leave a state so (the player to act must move)
                self.stopped = "stopped: no player moved"
                return

    def _bot_move(self, q: int, state: GameState) -> Move | None:
        """The bot at seat ``q`` acts on its view; a bot that fails stops the game (logged, never shown)."""
        bot = self.bots[q]
        v = view(state, q)
        rng = random.Random(f"{self.seed}/seat{q}/move{len(self.moves)}")
        try:
            move = bot.act(v, rng)
            if move is not None and move not in v.legal_moves:
                raise UnoEngineError(f"returned {shown(move)}, which is not legal")
            if move is None and v.my_turn:
                raise UnoEngineError("made no move on its turn")
        except Exception:  # a bot's failure ends this game, not the server
            _log.exception("game %s: the bot at seat %d failed", self.game_id, q)
            self.stopped = f"stopped: the {self.opponents_by_seat[q]} bot at p{q} failed"
            return None
        return move

    @property
    def opponents_by_seat(self) -> dict[int, str]:
        others = [q for q in range(self.players) if q != self.seat]
        return dict(zip(others, self.opponents, strict=True))

    @property
    def shown_seed(self) -> int | None:
        """The seed, when the agent may know it: given by the client, or the game is over."""
        return self.seed if self.seed_given or self.over else None


class GameDesk:
    """The games of one server: started, looked up by id, finished games kept for a while."""

    def __init__(self, profiles: Mapping[str, Profile] | None = None, seed: int | None = None, *,
                 max_open: int = MAX_OPEN_GAMES, max_finished: int = MAX_FINISHED_GAMES,
                 max_moves: int = MAX_RECORD_MOVES) -> None:
        """``profiles``: the profiles this server offers besides the shipped ones, by name (the
        operator's, loaded at start; a client never names a file). ``seed``: where the seeds of
        games started without one come from (None: the system's randomness)."""
        self.profiles: dict[str, Profile] = dict(profiles or {})
        self._seed = None if seed is None else check_seed(seed, "seed")
        self._system = random.SystemRandom()
        self.max_open = max_open
        self.max_finished = max_finished
        self.max_moves = max_moves
        self._open: dict[str, AgentGame] = {}
        self._finished: OrderedDict[str, AgentGame] = OrderedDict()
        self._started = 0

    # --- starting a game ----------------------------------------------------------------------
    def start(self, profile: object = DEFAULT_PROFILE, players: object = DEFAULT_PLAYERS, seat: object = 0,
              opponents: object = DEFAULT_OPPONENT, seed: object = None, match: object = False) -> AgentGame:
        """A new game (every argument checked, named in the error); the bots move up to the
        agent's first decision. AgentGameError when MAX_OPEN_GAMES games are open already."""
        chosen = self.profile(profile)
        n = _integer(players, "players", chosen.min_players, chosen.max_players,
                     f"for {chosen.name}" if (chosen.min_players, chosen.max_players) != (2, MAX_PLAYERS) else "")
        where = _integer(seat, "seat", 0, n - 1)
        names = _opponents(opponents, n)
        if type(match) is not bool:
            raise AgentGameError(f"match: expected true or false, got {shown(match)}")
        given = check_seed(seed, "seed") if seed is not None else None
        if len(self._open) >= self.max_open:
            raise AgentGameError(f"{len(self._open)} games are open, the most one server keeps: finish one, "
                                 "or end one with end_game, before starting another")
        self._started += 1
        game_id = f"g{self._started}"
        game = AgentGame(game_id, chosen, where, names, given if given is not None else self._draw_seed(),
                         seed_given=given is not None, match=match, max_moves=self.max_moves)
        self._open[game_id] = game
        self.settle(game)
        return game

    def offer(self, profile: Profile, source: str) -> str:
        """Offer ``profile`` (the operator's, read from ``source``) to clients by its name. Refused
        when the name is taken: by another offered profile, or by a shipped profile (or
        composition) with other rules, which it would hide."""
        name = profile.name
        taken = self.profiles.get(name)
        if taken is None:
            try:
                taken = self.profile(name)
            except AgentGameError:
                taken = None
        if taken is not None and taken.fingerprint != profile.fingerprint:
            raise AgentGameError(f"{source}: its name {quoted(name)} is already the name of another profile; "
                                 "give it a name of its own (name = ... in its file)")
        self.profiles[name] = profile
        return name

    def profile(self, name: object) -> Profile:
        """The profile a client names: one this server was started with, or a shipped base profile
        with shipped overlays (``classic-108+stacking``). Never a file: no name is looked up
        anywhere but among these."""
        if not isinstance(name, str):
            raise AgentGameError(f"profile: expected a profile name, got {shown(name)}")
        if name in self.profiles:
            return self.profiles[name]
        parts = [part.strip() for part in name.split("+")]
        bases, overlays = shipped_profiles(), shipped_overlays()
        if len(parts) > MAX_COMPOSITION_PARTS or not parts[0] or parts[0] not in bases or any(
                part not in overlays for part in parts[1:]):
            offered = ", ".join([*sorted(self.profiles), *bases])
            raise AgentGameError(f"profile: {quoted(name)} is not a profile this server offers; profiles: "
                                 f"{offered}; overlays to add with '+': {', '.join(overlays)}")
        try:
            return resolve_profile("+".join(parts))
        except ProfileError as exc:  # overlays that contradict each other: named, no file in it
            raise AgentGameError(f"profile: {one_line(exc)}") from None

    def _draw_seed(self) -> int:
        """A seed nobody can foresee: hashed from the desk's seed and the game's number (so a
        seed told after its game says nothing of the next), or the system's randomness."""
        if self._seed is None:
            return self._system.randrange(SEED_LIMIT)
        digest = hashlib.blake2b(f"unoengine-mcp/{self._seed}/{self._started}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    # --- finding and playing games ------------------------------------------------------------
    def game(self, game_id: object) -> AgentGame:
        """The game with this id, open or finished and kept; AgentGameError naming ``game_id``."""
        if not isinstance(game_id, str):
            raise AgentGameError(f"game_id: expected a game id such as 'g1', got {shown(game_id)}")
        found = self._open.get(game_id) or self._finished.get(game_id)
        if found is not None:
            return found
        number = re.fullmatch(r"g([1-9][0-9]{0,17})", game_id)
        if number is not None and int(number.group(1)) <= self._started:
            raise AgentGameError(f"game_id: game {game_id} was ended, or finished and dropped (the last "
                                 f"{self.max_finished} finished games are kept)")
        raise AgentGameError(f"game_id: no game {quoted(game_id)}; start_game gives game ids such as 'g1'")

    def play(self, game_id: object, answer: object) -> tuple[AgentGame, Move | None, list[str]]:
        """The agent's move in one game (AgentGame.play), then the game filed as finished if it is."""
        game = self.game(game_id)
        move, lines = game.play(answer)
        self.settle(game)
        return game, move, lines

    def end(self, game_id: object) -> AgentGame:
        """Forget a game, over or not (its result is not kept)."""
        game = self.game(game_id)
        self._open.pop(game.game_id, None)
        self._finished.pop(game.game_id, None)
        return game

    def settle(self, game: AgentGame) -> None:
        """File a game that is over among the finished ones, dropping the oldest beyond max_finished."""
        if game.over and self._open.pop(game.game_id, None) is not None:
            self._finished[game.game_id] = game
            while len(self._finished) > self.max_finished:
                self._finished.popitem(last=False)

    def open_games(self) -> list[AgentGame]:
        return list(self._open.values())

    def finished_games(self) -> list[AgentGame]:
        return list(self._finished.values())


def check_seed(seed: object, field: str) -> int:
    """A seed from 0 to 2**64 - 1, as an integer or its decimal digits (JSON readers in some
    languages lose large integers); AgentGameError naming ``field`` otherwise."""
    value: int | None = None
    if type(seed) is int:
        value = seed
    elif isinstance(seed, str) and 0 < len(seed) <= 20 and seed.isascii() and seed.isdigit():
        value = int(seed)
    if value is None or not 0 <= value < SEED_LIMIT:
        raise AgentGameError(f"{field}: expected an integer from 0 to 2**64 - 1 (or its digits as a string), "
                             f"got {shown(seed)}")
    return value


def _integer(value: object, field: str, low: int, high: int, why: str = "") -> int:
    if type(value) is not int or not low <= value <= high:
        raise AgentGameError(f"{field}: expected an integer from {low} to {high}{' ' + why if why else ''}, "
                             f"got {shown(value)}")
    return value


def _opponents(value: object, players: int) -> list[str]:
    """One shipped bot per other seat: a name for all of them, or a list (one name, or one per seat)."""
    if isinstance(value, str):
        names: list[object] = [value]
    elif isinstance(value, list | tuple) and len(value) <= MAX_PLAYERS:
        names = list(value)
    else:
        raise AgentGameError(f"opponents: expected a bot name or a list of at most {MAX_PLAYERS - 1}, "
                             f"got {shown(value)}")
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise AgentGameError(f"opponents: expected one bot for every other seat ({players - 1}), or one for all, "
                             f"got {len(names)}")
    for name in names:
        if not isinstance(name, str) or name not in SHIPPED_BOTS:
            raise AgentGameError(f"opponents: {shown(name)} is not a shipped bot; expected one of "
                                 f"{', '.join(SHIPPED_BOTS)}")
    return [str(name) for name in names]



def desk_for(profiles: Sequence[str], seed: int | None) -> GameDesk:
    """The desk ``unoengine mcp --profile SPEC ... --seed N`` serves: the operator's profiles (shipped
    names, compositions or files, read now) offered by their names besides the shipped ones."""
    desk = GameDesk(seed=seed)
    for spec in profiles:
        desk.offer(load_profile(spec), f"--profile {spec}")
    return desk
