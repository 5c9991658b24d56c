"""Many games between bots, in parallel, with statistics that mean something.

Each game gets its own seed derived from the run's seed and the game's index, and each bot its
own random stream derived from the game's seed and its seat, so a run gives identical results
whatever the number of worker processes. Results are collected in game order; a game a bot fails
in becomes a :class:`GameFailure`, which stops the run or, with ``keep_going``, is listed beside
the results (docs/bots.md, "When a bot fails").
"""

from __future__ import annotations

import collections
import contextlib
import math
import multiprocessing
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Final, Literal

import attrs

from ..bots import make_bot
from ..bots.base import Bot, is_bot_name, known_bots_text
from ..bots.program import ProgramBot, check_programs
from ..bots.program import isolated as isolated_bot
from ..bots.text_bot import TextStats
from ..bots.turns import BotError as BotError
from ..bots.turns import bot_label, raised_by
from ..bots.turns import next_move as next_move
from ..engine.cards import DRAW_TWO, IS_WILD, SYMBOL_OF, WILD_DRAW_FOUR
from ..engine.dealing import new_game
from ..engine.errors import UnoEngineError, one_line, quoted, shown
from ..engine.events import CardsDrawn
from ..engine.limits import MAX_GAMES, MAX_PLAYERS, MAX_STREAMED_GAMES, MAX_TIMEOUT_SECONDS, MAX_WORKERS, is_timeout
from ..engine.moves import CallUno, Draw, Move, Pass, Play
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.transition import apply, apply_with_events
from ..formats.composition import load_profile
from ..formats.install_hint import install_command
from ..formats.profile_file import profile_from_dict, profile_to_dict
from ..formats.record import GameRecord
from . import shutdown

PENALTY_RULES: Final = ("ACT-3", "ACT-5", "ACT-9", "HOUSE-1", "HOUSE-7", "SETUP-7", "UNO-2", "WD4-4", "WD4-5")
"""The rules whose draws count as penalties in the summary (Draw cards, stacks, challenges, catches)."""
Z95: Final = 1.959964


class RunError(UnoEngineError):
    """Arguments of a run that cannot be played: names the argument and its bounds (MAX_GAMES,
    MAX_WORKERS); raised before anything is allocated or played."""


def _check_count(name: str, value: object, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise RunError(f"{name} must be an integer from {lo:,} to {hi:,}, got {shown(value)}")
    return value


def check_run(bots: Sequence[str], games: int, seed: int, workers: int, max_moves: int | None,
              max_games: int = MAX_GAMES) -> None:
    """Refuse a run's arguments before anything is allocated: games (1 to MAX_GAMES, or
    MAX_STREAMED_GAMES for a streamed run), a 64-bit seed, workers (MAX_WORKERS), max_moves, and
    one bot name per seat (SETUP-1: 2 to MAX_PLAYERS)."""
    _check_count("games", games, 1, max_games)  # a run of no games would print an empty table and pass
    _check_count("seed", seed, -(2**63), 2**64 - 1)
    _check_count("workers", workers, 1, MAX_WORKERS)
    if max_moves is not None and (type(max_moves) is not int or max_moves < 1):
        raise RunError(f"max_moves must be an integer of at least 1, got {shown(max_moves)}")
    if isinstance(bots, Sequence) and not isinstance(bots, str):
        _check_names(bots[:MAX_PLAYERS + 1])  # a name that is wrong is told before a count that is
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not 2 <= len(bots) <= MAX_PLAYERS:
        raise RunError(f"bots must name one bot per seat, 2 to {MAX_PLAYERS} of them, got {shown(bots)}")


def _check_names(names: Sequence[object]) -> None:
    """Each of ``names`` a bot name :func:`make_bot` knows (RunError naming the first that is not)."""
    if not all(isinstance(name, str) for name in names):
        raise RunError(f"bots must be bot names, got {shown(names)}")
    unknown = [name for name in names if not is_bot_name(str(name))]
    if unknown:
        raise RunError(f"unknown bot {quoted(str(unknown[0]))}; known bots: {known_bots_text()}")


Backend = Literal["reference", "compiled"]
BACKENDS: Final = ("reference", "compiled")


def check_backend(backend: object, profile: Profile | None = None) -> None:
    """``"reference"`` (the pure engine) or ``"compiled"`` (the numba engine: RunError with the
    install hint without numba; UnsupportedRuleError, naming the rule, for a ``profile`` the kernels
    cannot run). Either gives the same games for a seed (tools/simulate_compiled.py)."""
    if type(backend) is not str or backend not in BACKENDS:
        raise RunError(f"backend must be one of {', '.join(BACKENDS)}, got {shown(backend)}")
    if backend == "compiled":
        try:
            import numba  # noqa: F401
        except ImportError:
            raise RunError(f"backend 'compiled' needs numba, which is not installed: {install_command('fast')}"
                           ) from None
        if profile is not None:
            from ..compiled.config import config_of

            config_of(profile)


def check_bot_timeout(bot_timeout: object) -> None:
    """None (each program bot keeps its own, 10 s by default), or seconds in (0, MAX_TIMEOUT_SECONDS]."""
    if bot_timeout is not None and not is_timeout(bot_timeout):
        raise RunError(f"bot_timeout must be seconds in (0, {MAX_TIMEOUT_SECONDS}], got {shown(bot_timeout)}")


@attrs.frozen
class GameResult:
    """One game (a round, or a whole match) as the statistics need it."""

    index: int
    seed: int
    winner: int
    moves: int
    points: tuple[int, ...]
    """Points won in the round (games), or final scores (matches)."""
    penalties: tuple[tuple[str, int], ...]
    """Cards drawn as penalties in the game, by rule."""
    answers: tuple[tuple[int, int, int], ...] = ()
    """For a game a text player (bots/text_bot.py) played in: each seat's (prompts, answers
    refused, fallbacks), zeros for the other bots; empty when no seat answered in text."""


_QUIET_MOVES: Final = (Draw, Pass, CallUno)


def may_draw_penalty(move: Move) -> bool:
    """Can ``move`` make someone draw under one of PENALTY_RULES? Only a Draw Two or a Wild Draw
    Four played (ACT-3, ACT-5, ACT-9, HOUSE-1), or a move that is not a draw, a pass, a late UNO
    call or the play of another card (an Accept, a Challenge, a catch, a colour named for the
    first card, a deal). :func:`play_game` asks for events only for those (docs/performance.md,
    "Simulations"); tests/test_fast_paths.py checks that no other move ever draws a penalty."""
    if type(move) is Play:
        card = move.card
        return card == WILD_DRAW_FOUR or (not IS_WILD[card] and SYMBOL_OF[card] == DRAW_TWO)
    return type(move) not in _QUIET_MOVES


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: independent of how games are split among workers."""
    return random.Random(f"unoengine/{run_seed}/{index}").getrandbits(64)


def play_game(profile: Profile, bots: Sequence[str], seed: int, index: int = 0, *, match: bool = False,
              max_moves: int | None = None, moves_out: list[Move] | None = None,
              bot_timeout: float | None = None, backend: Backend = "reference") -> GameResult:
    """Play one game (one round, or a match with ``match``) between the named bots, seat by seat.

    A bot that fails (returns a move that is not legal, raises, or as a program times out or
    exits) raises BotError naming the game, its seed, the seating and the bot; its ``seat`` is
    the failing seat. With ``max_moves``, a game still going after that many moves raises
    BotError too: bots that never finish (always declining to play, say) would otherwise keep a
    run going forever. ``moves_out``, when given, receives every move made (see :func:`record_game`).
    ``bot_timeout`` is the seconds each bot run as a program has for each exchange. ``backend``
    ``"compiled"`` plays it on the compiled engine, with the same result (:func:`check_backend`)."""
    check_bot_timeout(bot_timeout)
    check_backend(backend, profile)
    try:
        return _play(profile, bots, seed, index, match, max_moves, moves_out, bot_timeout, backend)
    except BotError as exc:
        raise BotError(failure_line(index, seed, bots, error_text(exc)), seat=exc.seat) from exc


def _play(profile: Profile, bots: Sequence[str], seed: int, index: int, match: bool, max_moves: int | None,
          moves_out: list[Move] | None = None, bot_timeout: float | None = None,
          backend: Backend = "reference") -> GameResult:
    """:func:`play_game` without naming the game in its BotError (a run adds it to the failure)."""
    seats: list[Bot] = []
    try:
        for i, name in enumerate(bots):
            try:
                seats.append(make_bot(name))
            except BotError as exc:
                exc.seat = i if exc.seat is None else exc.seat
                raise
            except Exception as exc:  # the bot's own factory failed
                raise raised_by(quoted(name, 80), i, exc) from exc
            if bot_timeout is not None and isinstance(seats[-1], ProgramBot):
                seats[-1].timeout = float(bot_timeout)
        rngs = [random.Random(f"{seed}/seat{i}") for i in range(len(seats))]
        if backend == "compiled":
            from .simulate_compiled import play_compiled

            state, moves, penalties = play_compiled(profile, seats, rngs, seed, match, max_moves, moves_out,
                                                    PENALTY_RULES, may_draw_penalty)
        else:
            state, moves, penalties = _play_reference(profile, seats, rngs, seed, match, max_moves, moves_out)
    finally:
        for bot in seats:  # a bot run as a program (bots/program.py) stops its process
            close = getattr(bot, "close", None)
            if callable(close):
                close()
    last = state.match.last_round
    assert last is not None
    if match:
        winner = state.match.winner
        assert winner is not None
        points = state.match.scores
    else:
        winner, points = last.winner, last.points_won
    return GameResult(index, seed, winner, moves, points, tuple(sorted(penalties.items())), _answers(seats))


def _answers(seats: Sequence[Bot]) -> tuple[tuple[int, int, int], ...]:
    """Each seat's (prompts, refused, fallbacks) when a text player sat at the table, else ``()``
    (a bot made for the game counts only that game's answers)."""
    stats = [getattr(bot, "stats", None) for bot in seats]
    if not any(isinstance(s, TextStats) for s in stats):
        return ()
    return tuple((s.prompts, s.refused, s.fallbacks) if isinstance(s, TextStats) else (0, 0, 0) for s in stats)


def _play_reference(profile: Profile, seats: Sequence[Bot], rngs: Sequence[random.Random], seed: int, match: bool,
                    max_moves: int | None, moves_out: list[Move] | None) -> tuple[GameState, int, Counter[str]]:
    """One game on the reference engine: the final state, the number of moves, the penalty draws."""
    state = new_game(profile, len(seats), seed=seed)
    moves = 0
    penalties: Counter[str] = Counter()
    # what bots.turns.tell_bots does, with each bot's observe method looked up once a game
    observers = [(i, observe) for i, bot in enumerate(seats)
                 if (observe := getattr(bot, "observe", None)) is not None]
    end = Phase.MATCH_OVER if match else Phase.ROUND_OVER
    while state.phase < end:
        if max_moves is not None and moves >= max_moves:
            raise BotError(f"did not end within {max_moves} moves")
        move = next_move(state, seats, rngs)
        if may_draw_penalty(move):
            state, events = apply_with_events(state, move)
            for e in events:
                if isinstance(e, CardsDrawn) and e.rule in PENALTY_RULES:
                    penalties[e.rule] += e.count
        else:  # no penalty to count: the cheaper path, without events
            state = apply(state, move)
        for i, observe in observers:
            try:
                observe(move)
            except BotError as exc:
                exc.seat = i if exc.seat is None else exc.seat
                raise
            except (Exception, SystemExit) as exc:  # the bot's own code failed (sys.exit too)
                raise raised_by(bot_label(seats[i]), i, exc) from exc
        moves += 1
        if moves_out is not None:
            moves_out.append(move)
    return state, moves, penalties


ERROR_CHARS: Final = 500
"""How much of a bot's error a failure keeps (a program's message quotes its stderr)."""


def error_text(exc: BaseException) -> str:
    """An error's message on one line, at most ERROR_CHARS characters, with control characters
    (a program's terminal escape codes) escaped: a failure quotes what a bot said."""
    text = one_line(exc)
    if len(text) > ERROR_CHARS:
        text = text[:ERROR_CHARS - 3] + "..."
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def failure_line(index: int, seed: int, bots: Sequence[str], error: str) -> str:
    """``game 3 (seed 123) of heuristic, random: ...``: a failed game, as messages name it."""
    names = ", ".join(b if len(b) <= 60 else b[:57] + "..." for b in bots)
    return f"game {index} (seed {seed}) of {names}: {error}"


@attrs.frozen
class GameFailure:
    """A game that did not finish: a bot failed in it (see :func:`play_game`), or it ran past
    ``max_moves``. It is counted in no win rate; a run lists it beside its results."""

    index: int
    """The game's index in the run: its deal, in a tournament."""
    seed: int
    bots: tuple[str, ...]
    """The seating: the bot of each seat, as the run named them."""
    seat: int | None
    """The seat whose bot failed; None when no one bot is to blame (``max_moves``)."""
    error: str = attrs.field(eq=False)
    """What went wrong, on one line (:func:`error_text`). Not compared: two failures are equal
    when the same game failed at the same seat, whatever its words (a program's message may
    count its decisions since it started, which depends on the games it played before)."""

    @property
    def bot(self) -> str | None:
        """The bot that failed, by name (None with :attr:`seat`)."""
        return None if self.seat is None else self.bots[self.seat]

    def line(self) -> str:
        """The failure as one line: ``game 3 (seed 123) of program:..., random: bot ... at seat 0: exited``."""
        return failure_line(self.index, self.seed, self.bots, self.error)


class Results(list[GameResult]):
    """A run's finished games in game order (a list of :class:`GameResult`, as ever) and, beside
    them, ``failures``: the games that failed, in game order (with ``keep_going``; else at most
    the one that stopped the run). Two Results are equal when their games and their failures
    are; a Results and a plain list, when their games are."""

    def __init__(self, results: Iterable[GameResult] = (), failures: Iterable[GameFailure] = ()) -> None:
        super().__init__(results)
        self.failures: tuple[GameFailure, ...] = tuple(failures)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Results) and self.failures != other.failures:
            return False
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return f"Results({super().__repr__()}, failures={self.failures!r})"


class GameFailedError(BotError):
    """A run without ``keep_going`` stopped at a game that failed (the first in game order, the
    same whatever plays the games). ``failure`` is that game; ``results`` the games finished
    before it, by seating (``run`` has one: ``results[tuple(bots)]``; :func:`iter_results` none,
    it gave them already); ``standings`` a tournament's ranking over those games."""

    def __init__(self, failure: GameFailure, results: dict[tuple[str, ...], Results] | None = None,
                 standings: Sequence[Standing] = ()) -> None:
        super().__init__(failure.line(), seat=failure.seat)
        self.failure = failure
        self.results: dict[tuple[str, ...], Results] = dict(results or {})
        self.standings: list[Standing] = list(standings)

    def __reduce__(self) -> tuple[Any, ...]:
        return (GameFailedError, (self.failure, self.results, self.standings))


def record_game(profile: Profile | str, bots: Sequence[str], seed: int, index: int = 0, *, match: bool = False,
                max_moves: int | None = None, bot_timeout: float | None = None,
                backend: Backend = "reference") -> tuple[GameRecord, GameResult]:
    """Play game ``index`` of a run again, keeping its moves: the record (for a replay page,
    render/replay.py) and the result, the same as the run's when the bots are deterministic
    (every shipped bot is: its random stream comes from the game's seed and its seat)."""
    prof = profile if isinstance(profile, Profile) else load_profile(profile)
    moves: list[Move] = []
    result = play_game(prof, bots, seed, index, match=match, max_moves=max_moves, moves_out=moves,
                       bot_timeout=bot_timeout, backend=backend)
    return GameRecord(prof, len(bots), seed, moves=tuple(moves)), result


# --- runs ---------------------------------------------------------------------------------------
@attrs.frozen
class RunSpec:
    """What a worker needs to play its share of games (plain data, so it crosses processes): each
    deal of its share in every seating, deal after deal (a run has one seating)."""

    profile: dict[str, Any]
    seatings: tuple[tuple[str, ...], ...]
    """The bots of each seating as the games make them (an isolated run's ``program:`` names)."""
    named: tuple[tuple[str, ...], ...]
    """The same seatings as the caller named them, for the failures."""
    seed: int
    match: bool
    max_moves: int | None = None
    keep_going: bool = False
    bot_timeout: float | None = None
    backend: Backend = "reference"


def _play_chunk(spec: RunSpec, deals: Sequence[int]) -> list[GameResult | GameFailure]:
    """The games of ``deals``, deal after deal, each in every seating; without ``keep_going`` only
    up to the first that fails (its failure last), so the worker stops playing at once."""
    profile = profile_from_dict(spec.profile)
    out: list[GameResult | GameFailure] = []
    for i in deals:
        seed = game_seed(spec.seed, i)
        for bots, named in zip(spec.seatings, spec.named, strict=True):
            try:
                out.append(_play(profile, bots, seed, i, spec.match, spec.max_moves, bot_timeout=spec.bot_timeout,
                                 backend=spec.backend))
            except BotError as exc:
                out.append(GameFailure(i, seed, named, exc.seat, error_text(exc)))
                if not spec.keep_going:
                    return out
    return out


_Parts = Generator[list[GameResult | GameFailure], None, None]
"""The played chunks of a run, in order: each the games of whole deals, or up to a failure."""


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


def _check_options(isolated: object, keep_going: object, executor: object, bot_timeout: object = None) -> None:
    for name, flag in (("isolated", isolated), ("keep_going", keep_going)):
        if flag is not True and flag is not False:
            raise RunError(f"{name} must be True or False, got {shown(flag)}")
    if executor is not None and not isinstance(executor, Executor):
        raise RunError(f"executor must be a concurrent.futures.Executor, got {shown(executor)}")
    check_bot_timeout(bot_timeout)


def run(profile: Profile | str, bots: Sequence[str], games: int, seed: int = 0, *, workers: int = 1,
        match: bool = False, progress: Callable[[int, int], None] | None = None,
        max_moves: int | None = None, isolated: bool = False, executor: Executor | None = None,
        keep_going: bool = False, bot_timeout: float | None = None, backend: Backend = "reference") -> Results:
    """Play ``games`` games between ``bots`` (one name per seat); results in game order.

    ``workers`` > 1 spreads the games over that many processes; ``executor`` (any
    ``concurrent.futures.Executor``: a process pool, a Dask cluster's ``client.get_executor()``)
    plays them wherever it runs its tasks, ``workers`` then sizing the chunks and how many are in
    flight. The results are identical for a given seed whatever runs them.
    ``progress(done, total)`` is called as games finish. ``max_moves`` caps each game (see
    :func:`play_game`). ``isolated`` runs every bot in a process of its own, seeing only its
    views over the bot wire protocol (docs/security.md), with the same results for a seed.
    ``bot_timeout`` sets the seconds every bot run as a program (``program:...``, and every bot
    of an isolated run) has for each write to it and each answer (10 by default).

    A game a bot fails in (see :func:`play_game`) stops the run with :class:`GameFailedError`,
    which holds the games finished before it. With ``keep_going`` every game is played: the
    failed ones are listed in the returned :class:`Results`' ``failures`` and the others counted.
    ``backend="compiled"`` plays every game on the compiled engine, with the same results
    (:func:`check_backend`, docs/bots.md "Backends").
    """
    check_run(bots, games, seed, workers, max_moves)  # a list of at most MAX_GAMES results
    _check_options(isolated, keep_going, executor, bot_timeout)
    check_backend(backend)
    results: list[GameResult] = []
    failures: list[GameFailure] = []
    outcomes = _outcomes(profile, (tuple(bots),), games, seed, workers=workers, match=match, max_moves=max_moves,
                         isolated=isolated, executor=executor, keep_going=keep_going, bot_timeout=bot_timeout,
                         backend=backend)
    with contextlib.closing(outcomes):  # a run stopped early stops its workers now, not when collected
        for done, (_, outcome) in enumerate(outcomes, 1):
            if isinstance(outcome, GameFailure):
                failures.append(outcome)
                if not keep_going:
                    raise GameFailedError(outcome, {tuple(bots): Results(results, failures)})
            else:
                results.append(outcome)
            if progress and (done % _PROGRESS_EVERY == 0 or done == games):
                progress(done, games)
    return Results(results, failures)


_PROGRESS_EVERY: Final = 10


def iter_outcomes(profile: Profile | str, bots: Sequence[str], games: int, seed: int = 0, *, workers: int = 1,
                  match: bool = False, max_moves: int | None = None, isolated: bool = False,
                  executor: Executor | None = None, keep_going: bool = False,
                  bot_timeout: float | None = None,
                  backend: Backend = "reference") -> Generator[GameResult | GameFailure, None, None]:
    """Every game of a run, in game order, as they come: a :class:`GameResult`, or a
    :class:`GameFailure` for a game a bot failed in. Without ``keep_going`` the first failure is
    the last item (the games after it are not played, or not waited for); with it, every game
    is played. Streamed as :func:`iter_results` is."""
    check_run(bots, games, seed, workers, max_moves, MAX_STREAMED_GAMES)
    _check_options(isolated, keep_going, executor, bot_timeout)
    check_backend(backend)
    outcomes = _outcomes(profile, (tuple(bots),), games, seed, workers=workers, match=match,
                         max_moves=max_moves, isolated=isolated, executor=executor, keep_going=keep_going,
                         bot_timeout=bot_timeout, backend=backend)
    with contextlib.closing(outcomes):  # closed with this generator, stopping the workers
        for _, outcome in outcomes:
            yield outcome


def iter_results(profile: Profile | str, bots: Sequence[str], games: int, seed: int = 0, *, workers: int = 1,
                 match: bool = False, max_moves: int | None = None, isolated: bool = False,
                 executor: Executor | None = None, bot_timeout: float | None = None,
                 backend: Backend = "reference") -> Iterator[GameResult]:
    """:func:`run`'s results one by one, in game order, as they come: nothing is planned up front
    (chunks of games are handed out as earlier ones finish), so a caller can stop at any time
    (the command line's Ctrl-C prints what was played). Up to MAX_STREAMED_GAMES games: tally them
    with :class:`Tally` rather than keeping them. A game a bot fails in raises
    :class:`GameFailedError`, after every game before it was given."""
    outcomes = iter_outcomes(profile, bots, games, seed, workers=workers, match=match, max_moves=max_moves,
                             isolated=isolated, executor=executor, bot_timeout=bot_timeout, backend=backend)
    with contextlib.closing(outcomes):
        for outcome in outcomes:
            if isinstance(outcome, GameFailure):
                raise GameFailedError(outcome)
            yield outcome


def _outcomes(profile: Profile | str, seatings: Sequence[tuple[str, ...]], games: int, seed: int, *, workers: int,
              match: bool, max_moves: int | None, isolated: bool, executor: Executor | None, keep_going: bool,
              bot_timeout: float | None = None, backend: Backend = "reference",
              ) -> Generator[tuple[int, GameResult | GameFailure], None, None]:
    """(seating, outcome) of every game, deal after deal and each deal in every seating: the one
    order whatever plays the games, so the first failure (where a run without ``keep_going``
    stops) is the same game with any number of workers. The callers check the arguments."""
    prof = profile if isinstance(profile, Profile) else load_profile(profile)
    check_backend(backend, prof)  # a profile the kernels refuse: before any game
    named = tuple(tuple(s) for s in seatings)
    if executor is None:  # each program bot starts and shakes hands before any game (on a cluster: its own)
        check_programs(named, bot_timeout, keep=workers <= 1)
    made = tuple(tuple(isolated_bot(b) for b in s) for s in named) if isolated else named
    spec = RunSpec(profile_to_dict(prof), made, named, seed, match, max_moves, keep_going, bot_timeout, backend)
    per_deal = len(named)
    size = max(1, min(50, games * per_deal // (workers * 8)) // per_deal)  # deals a chunk
    jobs = ((spec, chunk) for chunk in _chunks(games, size))
    if executor is not None:
        parts: _Parts = _in_order(executor, jobs, in_flight=max(4, 2 * workers))
    elif workers <= 1:
        parts = (_chunk_job(job) for job in jobs)
    else:
        parts = _pooled(jobs, workers)
    try:
        for part in parts:
            for k, outcome in enumerate(part):  # a part is whole deals, or ends at its failure
                yield k % per_deal, outcome
                if not keep_going and isinstance(outcome, GameFailure):
                    return
    finally:
        parts.close()  # stopped early (a failure, an error, Ctrl-C): the workers stop


def _pooled(jobs: Iterator[tuple[RunSpec, range]], workers: int) -> _Parts:
    """The chunks played by ``workers`` processes, in order, with only a small window of chunks
    handed out at a time. Leaving early (a failure, an error, Ctrl-C) cancels what has not
    started and lets the running chunks finish, so every worker ends on its own and stops the bot
    programs it kept between games (bots/program.py). A terminated ``multiprocessing.Pool`` could
    hang here: a worker killed while waiting for a task holds the task pipe's lock. Under a
    runner stopped by a signal (tools/shutdown.py) the workers are ended at once instead, each
    killing the process groups of its programs; they die with the runner too."""
    context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=shutdown.worker_started,
                             initargs=(os.getpid(), shutdown.installed())) as executor:
        try:
            yield from _in_order(executor, jobs, in_flight=2 * workers)
        finally:
            if shutdown.stopping() is not None:
                shutdown.end_workers(executor)


def _in_order(executor: Executor, jobs: Iterator[tuple[RunSpec, range]], in_flight: int
              ) -> _Parts:
    """The executor's results of ``jobs`` in order, with at most ``in_flight`` submitted and not
    yet taken: a run of any length starts at once and holds only a window of chunks."""
    pending: collections.deque[Future[list[GameResult | GameFailure]]] = collections.deque()
    try:
        for job in jobs:
            pending.append(executor.submit(_chunk_job, job))
            if len(pending) >= in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        # Stopped early (an error, Ctrl-C): nothing more is played. But not a pool's under a stop
        # signal: its workers are ended then (_pooled), and Python 3.11's executor, finding its
        # pool broken, fails on a future cancelled meanwhile (InvalidStateError, a traceback).
        if shutdown.stopping() is None or not isinstance(executor, ProcessPoolExecutor):
            for future in pending:
                future.cancel()


def _chunk_job(job: tuple[RunSpec, range]) -> list[GameResult | GameFailure]:
    return _play_chunk(*job)


# --- statistics ---------------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): sound near 0 and 1 and for small n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class SeatSummary:
    seat: int
    bot: str
    wins: int
    win_rate: float
    interval: tuple[float, float]
    mean_points: float


@attrs.frozen
class Summary:
    """What a run shows: per seat and per bot, with 95% intervals; turns and penalties. Counted
    over the games that finished: ``failed`` says how many did not (their first few in
    ``failures``, at most FAILURES_KEPT)."""

    games: int
    seats: tuple[SeatSummary, ...]
    bots: tuple[tuple[str, int, int, float, tuple[float, float]], ...]
    """(bot, seats played, wins, win rate, interval), over every seat the bot held."""
    mean_moves: float
    penalties: tuple[tuple[str, int, float], ...]
    """(rule, cards drawn in all, per game)."""
    lengths: tuple[tuple[int, int], ...] = ()
    """(moves, games that took that many), shortest first: the distribution of game lengths."""
    failed: int = 0
    """Games that failed (a bot failed in them), counted in nothing above."""
    failures: tuple[GameFailure, ...] = ()
    """The first of them, in game order (at most FAILURES_KEPT)."""
    answers: tuple[tuple[int, str, int, int, int], ...] = ()
    """(seat, bot, prompts, answers refused, fallbacks) of each seat a text player held: how
    often its answers named no legal move (issue 35: counted and reported)."""


FAILURES_KEPT: Final = 10
"""How many failures a summary keeps to show (it counts them all): the command line lists these
and a count of the rest, so a bot that fails every game of a long run costs no memory."""


class Tally:
    """What a summary needs of a run, counted game by game, so a run of any length keeps a few
    numbers and no results."""

    def __init__(self, seats: int) -> None:
        self.games = 0
        self.wins = [0] * seats
        self.points = [0] * seats
        self.moves = 0
        self.penalties: Counter[str] = Counter()
        self.lengths: Counter[int] = Counter()  # at most one entry per distinct length
        self.failed = 0
        self.failures: list[GameFailure] = []  # the first FAILURES_KEPT
        self.answers = [[0, 0, 0] for _ in range(seats)]

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.wins[result.winner] += 1
        for i, p in enumerate(result.points):
            self.points[i] += p
        self.moves += result.moves
        self.lengths[result.moves] += 1
        self.penalties.update(dict(result.penalties))
        for total, seat in zip(self.answers, result.answers, strict=False):
            for k, count in enumerate(seat):
                total[k] += count

    def fail(self, failure: GameFailure) -> None:
        """A game that failed: counted apart, in no win rate."""
        self.failed += 1
        if len(self.failures) < FAILURES_KEPT:
            self.failures.append(failure)

    def summary(self, bots: Sequence[str]) -> Summary:
        n = self.games
        seats = tuple(SeatSummary(i, name, self.wins[i], self.wins[i] / n if n else 0.0, wilson(self.wins[i], n),
                                  self.points[i] / n if n else 0.0) for i, name in enumerate(bots))
        per_bot = []
        for name in sorted(set(bots)):
            held = [i for i, b in enumerate(bots) if b == name]
            trials = n * len(held)
            wins = sum(self.wins[i] for i in held)
            per_bot.append((name, trials, wins, wins / trials if trials else 0.0, wilson(wins, trials)))
        penalties = tuple((rule, self.penalties[rule], self.penalties[rule] / n) for rule in sorted(self.penalties))
        answers = tuple((i, name, prompts, refused, fallbacks) for (i, name), (prompts, refused, fallbacks)
                        in zip(enumerate(bots), self.answers, strict=False) if prompts)
        return Summary(n, seats, tuple(per_bot), self.moves / n if n else 0.0, penalties,
                       tuple(sorted(self.lengths.items())), self.failed, tuple(self.failures), answers)


def summarize(results: Sequence[GameResult], bots: Sequence[str]) -> Summary:
    """The summary of ``results``; the failures of a :class:`Results` are counted apart."""
    tally = Tally(len(bots))
    for r in results:
        tally.add(r)
    for f in getattr(results, "failures", ()):
        tally.fail(f)
    return tally.summary(bots)


# --- tournaments ----------------------------------------------------------------------------
@attrs.frozen
class Standing:
    """One bot's line in a tournament ranking."""

    bot: str
    games: int
    wins: int
    win_rate: float
    interval: tuple[float, float]
    """95% interval of the win rate: from the spread of the bot's score over the deals (each deal
    is played in every seating: duplicate format), or Wilson's with fewer than 30 deals."""
    expected: float
    """The win rate a bot would have by luck alone (1 / players at its tables)."""
    left_out: int = 0
    """Games of the bot (seat-games, as ``games``) played but not counted: a game of their deal
    failed, in some seating (see :func:`standings`)."""


def lineups(bots: Sequence[str], mode: str, players: int) -> list[tuple[str, ...]]:
    """The seatings of a tournament.

    ``round-robin``: every pair of bots heads-up, in both seat orders (``players`` must be 2).
    ``rotations``: all the bots at one table, in every rotation of the seats.
    """
    if mode == "round-robin":
        if players != 2:
            raise RunError("a round-robin is played heads-up: --players 2")
        return [(a, b) for i, a in enumerate(bots) for j, b in enumerate(bots) if i != j]
    if mode == "rotations":
        n = len(bots)
        return [tuple(bots[(k + s) % n] for s in range(n)) for k in range(n)]
    raise RunError(f"unknown tournament mode {shown(mode)}; use round-robin or rotations")


def tournament(profile: Profile | str, bots: Sequence[str], games: int, seed: int = 0, *, mode: str = "round-robin",
               players: int = 2, workers: int = 1, match: bool = False, max_moves: int | None = None,
               isolated: bool = False, progress: Callable[[int, int], None] | None = None,
               executor: Executor | None = None, keep_going: bool = False, bot_timeout: float | None = None,
               backend: Backend = "reference") -> tuple[list[Standing], dict[tuple[str, ...], Results]]:
    """Play ``games`` games per seating (see :func:`lineups`) and rank the bots by win rate with 95%
    intervals; also returns the results of each seating.

    Duplicate format: game ``i`` of every seating is dealt from the same seed, so each deal is
    played with the bots in every seat and the luck of the deal largely cancels. A bot's score on
    a deal is its share of wins over the seatings of one table (a pair, or the rotations), and the
    interval comes from the spread of those scores. Between close bots it is much narrower than
    treating the games as independent (1.6 times, for two near-equal heuristics over 4,000 deals),
    so fewer games settle which is stronger.

    The games are played deal after deal, each deal in every seating. A game a bot fails in stops
    the tournament with :class:`GameFailedError` (holding the games before it and their
    standings); with ``keep_going`` every game is played, each seating's failures are in its
    :class:`Results`, and the standings leave out every deal that has a failed game (see
    :func:`standings`)."""
    check_run(bots, games, seed, workers, max_moves)
    _check_options(isolated, keep_going, executor, bot_timeout)
    check_backend(backend)
    seatings = list(dict.fromkeys(lineups(bots, mode, players)))
    played: list[list[GameResult]] = [[] for _ in seatings]
    failed: list[list[GameFailure]] = [[] for _ in seatings]
    total = games * len(seatings)
    outcomes = _outcomes(profile, seatings, games, seed, workers=workers, match=match, max_moves=max_moves,
                         isolated=isolated, executor=executor, keep_going=keep_going, bot_timeout=bot_timeout,
                         backend=backend)
    with contextlib.closing(outcomes):  # a tournament stopped early stops its workers now
        for done, (k, outcome) in enumerate(outcomes, 1):
            if isinstance(outcome, GameFailure):
                failed[k].append(outcome)
                if not keep_going:
                    so_far = {s: Results(p, f) for s, p, f in zip(seatings, played, failed, strict=True)}
                    raise GameFailedError(outcome, so_far, standings(bots, so_far))
            else:
                played[k].append(outcome)
            if progress:  # every game: the caller decides how often to show it (tools/progress.py)
                progress(done, total)
    results = {s: Results(p, f) for s, p, f in zip(seatings, played, failed, strict=True)}
    return standings(bots, results), results


def failures_of(results: dict[tuple[str, ...], Results]) -> list[GameFailure]:
    """Every failed game of a tournament's results, deal after deal, in seating order."""
    order = {s: k for k, s in enumerate(results)}
    return sorted((f for played in results.values() for f in played.failures),
                  key=lambda f: (f.index, order.get(f.bots, 0)))


def left_out_deals(results: dict[tuple[str, ...], Results]) -> set[int]:
    """The deals a tournament's standings leave out: those with a failed game in some seating."""
    return {f.index for played in results.values() for f in played.failures}


def standings(bots: Sequence[str], results: dict[tuple[str, ...], Results]) -> list[Standing]:
    """The ranking of ``bots`` over a tournament's results, best win rate first.

    A deal with a failed game in any seating is left out of every seating (the bots' finished
    games on it too), so every bot's score still compares the same deals played in the same
    seatings; each Standing says how many of its games were left out."""
    dropped = left_out_deals(results)
    ranked = [_standing(name, results, dropped) for name in dict.fromkeys(bots)]
    ranked.sort(key=lambda s: -s.win_rate)
    return ranked


def _standing(name: str, results: dict[tuple[str, ...], Results], dropped: set[int]) -> Standing:
    """A bot's wins over every seating, and its interval from its per-deal scores."""
    blocks: dict[tuple[frozenset[str], int], list[int]] = {}  # (table, deal) -> [wins, seats]
    trials = wins = left_out = 0
    share = 0.0
    for lineup, played in results.items():
        seats = [i for i, b in enumerate(lineup) if b == name]
        if not seats:
            continue
        left_out += len(seats) * len(played.failures)
        for r in played:
            if r.index in dropped:
                left_out += len(seats)
                continue
            trials += len(seats)
            share += len(seats) / len(lineup)
            won = int(r.winner in seats)
            wins += won
            block = blocks.setdefault((frozenset(lineup), r.index), [0, 0])
            block[0] += won
            block[1] += len(seats)
    rate = wins / trials if trials else 0.0
    return Standing(name, trials, wins, rate, duplicate_interval([w / n for w, n in blocks.values()], wins, trials),
                    share / trials if trials else 0.0, left_out)


def duplicate_interval(scores: Sequence[float], wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of a mean win rate from per-deal scores (normal approximation); with fewer
    than 30 deals, the Wilson interval of ``wins`` out of ``trials`` instead."""
    n = len(scores)
    if n < 30:
        return wilson(wins, trials, z)
    mean = sum(scores) / n
    half = z * math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1) / n)
    return (max(0.0, mean - half), min(1.0, mean + half))
