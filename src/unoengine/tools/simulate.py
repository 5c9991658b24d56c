"""Many games between bots, in parallel, with statistics that mean something.

Each game gets its own seed derived from the run's seed and the game's index, and each bot its
own random stream derived from the game's seed and its seat, so a run gives identical results
whatever the number of worker processes. Results are collected in game order.
"""

from __future__ import annotations

import collections
import math
import multiprocessing
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from typing import Any, Final

import attrs

from ..bots import make_bot
from ..bots.base import is_bot_name, known_bots_text
from ..bots.program import isolated as isolated_bot
from ..bots.turns import BotError as BotError
from ..bots.turns import next_move as next_move
from ..engine.cards import DRAW_TWO, IS_WILD, SYMBOL_OF, WILD_DRAW_FOUR
from ..engine.dealing import new_game
from ..engine.errors import UnoEngineError, quoted, shown
from ..engine.events import CardsDrawn
from ..engine.limits import MAX_GAMES, MAX_PLAYERS, MAX_STREAMED_GAMES, MAX_WORKERS
from ..engine.moves import CallUno, Draw, Move, Pass, Play
from ..engine.profile import Profile
from ..engine.state import Phase
from ..engine.transition import apply, apply_with_events
from ..formats.composition import load_profile
from ..formats.profile_file import profile_from_dict, profile_to_dict
from ..formats.record import GameRecord

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
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not 2 <= len(bots) <= MAX_PLAYERS:
        raise RunError(f"bots must name one bot per seat, 2 to {MAX_PLAYERS} of them, got {shown(bots)}")
    if not all(isinstance(name, str) for name in bots):
        raise RunError(f"bots must be bot names, got {shown(bots)}")
    unknown = [name for name in bots if not is_bot_name(name)]
    if unknown:
        raise RunError(f"unknown bot {quoted(unknown[0])}; known bots: {known_bots_text()}")


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
              max_moves: int | None = None, moves_out: list[Move] | None = None) -> GameResult:
    """Play one game (one round, or a match with ``match``) between the named bots, seat by seat.

    With ``max_moves``, a game still going after that many moves raises BotError: bots that
    never finish (always declining to play, say) would otherwise keep a run going forever.
    ``moves_out``, when given, receives every move made (see :func:`record_game`)."""
    seats = [make_bot(name) for name in bots]
    rngs = [random.Random(f"{seed}/seat{i}") for i in range(len(seats))]
    state = new_game(profile, len(seats), seed=seed)
    moves = 0
    penalties: Counter[str] = Counter()
    # what bots.turns.tell_bots does, with each bot's observe method looked up once a game
    observers = [observe for bot in seats if (observe := getattr(bot, "observe", None)) is not None]
    try:
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
            for observe in observers:
                observe(move)
            moves += 1
            if moves_out is not None:
                moves_out.append(move)
    except BotError as exc:
        names = ", ".join(b if len(b) <= 60 else b[:57] + "..." for b in bots)
        raise BotError(f"game {index} (seed {seed}) of {names}: {exc}") from None
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
    return GameResult(index, seed, winner, moves, points, tuple(sorted(penalties.items())))


def record_game(profile: Profile | str, bots: Sequence[str], seed: int, index: int = 0, *, match: bool = False,
                max_moves: int | None = None) -> tuple[GameRecord, GameResult]:
    """Play game ``index`` of a run again, keeping its moves: the record (for a replay page,
    render/replay.py) and the result, the same as the run's when the bots are deterministic
    (every shipped bot is: its random stream comes from the game's seed and its seat)."""
    prof = profile if isinstance(profile, Profile) else load_profile(profile)
    moves: list[Move] = []
    result = play_game(prof, bots, seed, index, match=match, max_moves=max_moves, moves_out=moves)
    return GameRecord(prof, len(bots), seed, moves=tuple(moves)), result


# --- runs ---------------------------------------------------------------------------------------
@attrs.frozen
class RunSpec:
    """What a worker needs to play its share of games (plain data, so it crosses processes)."""

    profile: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    match: bool
    max_moves: int | None = None


def _play_chunk(spec: RunSpec, indices: Sequence[int]) -> list[GameResult]:
    profile = profile_from_dict(spec.profile)
    return [play_game(profile, spec.bots, game_seed(spec.seed, i), i, match=spec.match, max_moves=spec.max_moves)
            for i in indices]


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


def run(profile: Profile | str, bots: Sequence[str], games: int, seed: int = 0, *, workers: int = 1,
        match: bool = False, progress: Callable[[int, int], None] | None = None,
        max_moves: int | None = None, isolated: bool = False, executor: Executor | None = None,
        ) -> list[GameResult]:
    """Play ``games`` games between ``bots`` (one name per seat); results in game order.

    ``workers`` > 1 spreads the games over that many processes; ``executor`` (any
    ``concurrent.futures.Executor``: a process pool, a Dask cluster's ``client.get_executor()``)
    plays them wherever it runs its tasks, ``workers`` then sizing the chunks and how many are in
    flight. The results are identical for a given seed whatever runs them.
    ``progress(done, total)`` is called as games finish. ``max_moves`` caps each game (see
    :func:`play_game`). ``isolated`` runs every bot in a process of its own, seeing only its
    views over the bot wire protocol (docs/security.md), with the same results for a seed.
    """
    check_run(bots, games, seed, workers, max_moves)  # a list of at most MAX_GAMES results
    results: list[GameResult] = []
    for result in iter_results(profile, bots, games, seed, workers=workers, match=match, max_moves=max_moves,
                               isolated=isolated, executor=executor):
        results.append(result)
        if progress and (len(results) % _PROGRESS_EVERY == 0 or len(results) == games):
            progress(len(results), games)
    return results


_PROGRESS_EVERY: Final = 10


def iter_results(profile: Profile | str, bots: Sequence[str], games: int, seed: int = 0, *, workers: int = 1,
                 match: bool = False, max_moves: int | None = None, isolated: bool = False,
                 executor: Executor | None = None) -> Iterator[GameResult]:
    """:func:`run`'s results one by one, in game order, as they come: nothing is planned up front
    (chunks of games are handed out as earlier ones finish), so a caller can stop at any time
    (the command line's Ctrl-C prints what was played). Up to MAX_STREAMED_GAMES games: tally them
    with :class:`Tally` rather than keeping them."""
    check_run(bots, games, seed, workers, max_moves, MAX_STREAMED_GAMES)
    if isolated is not True and isolated is not False:
        raise RunError(f"isolated must be True or False, got {shown(isolated)}")
    if executor is not None and not isinstance(executor, Executor):
        raise RunError(f"executor must be a concurrent.futures.Executor, got {shown(executor)}")
    prof = profile if isinstance(profile, Profile) else load_profile(profile)
    names = tuple(isolated_bot(b) for b in bots) if isolated else tuple(bots)
    spec = RunSpec(profile_to_dict(prof), names, seed, match, max_moves)
    size = max(1, min(50, games // (workers * 8) or 1))
    jobs = ((spec, chunk) for chunk in _chunks(games, size))
    if executor is not None:
        parts: Iterator[list[GameResult]] = _in_order(executor, jobs, in_flight=max(4, 2 * workers))
    elif workers <= 1:
        parts = (_chunk_job(job) for job in jobs)
    else:
        parts = _pooled(jobs, workers)
    for part in parts:
        yield from part


def _pooled(jobs: Iterator[tuple[RunSpec, range]], workers: int) -> Iterator[list[GameResult]]:
    context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
    with context.Pool(workers) as pool:
        yield from pool.imap(_chunk_job, jobs)


def _in_order(executor: Executor, jobs: Iterator[tuple[RunSpec, range]], in_flight: int
              ) -> Iterator[list[GameResult]]:
    """The executor's results of ``jobs`` in order, with at most ``in_flight`` submitted and not
    yet taken: a run of any length starts at once and holds only a window of chunks."""
    pending: collections.deque[Future[list[GameResult]]] = collections.deque()
    try:
        for job in jobs:
            pending.append(executor.submit(_chunk_job, job))
            if len(pending) >= in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:  # stopped early (an error, Ctrl-C): nothing more is played
            future.cancel()


def _chunk_job(job: tuple[RunSpec, range]) -> list[GameResult]:
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
    """What a run shows: per seat and per bot, with 95% intervals; turns and penalties."""

    games: int
    seats: tuple[SeatSummary, ...]
    bots: tuple[tuple[str, int, int, float, tuple[float, float]], ...]
    """(bot, seats played, wins, win rate, interval), over every seat the bot held."""
    mean_moves: float
    penalties: tuple[tuple[str, int, float], ...]
    """(rule, cards drawn in all, per game)."""
    lengths: tuple[tuple[int, int], ...] = ()
    """(moves, games that took that many), shortest first: the distribution of game lengths."""


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

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.wins[result.winner] += 1
        for i, p in enumerate(result.points):
            self.points[i] += p
        self.moves += result.moves
        self.lengths[result.moves] += 1
        self.penalties.update(dict(result.penalties))

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
        return Summary(n, seats, tuple(per_bot), self.moves / n if n else 0.0, penalties,
                       tuple(sorted(self.lengths.items())))


def summarize(results: Sequence[GameResult], bots: Sequence[str]) -> Summary:
    tally = Tally(len(bots))
    for r in results:
        tally.add(r)
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
               executor: Executor | None = None) -> tuple[list[Standing], dict[tuple[str, ...], list[GameResult]]]:
    """Play ``games`` games per seating (see :func:`lineups`) and rank the bots by win rate with 95%
    intervals; also returns the results of each seating.

    Duplicate format: game ``i`` of every seating is dealt from the same seed, so each deal is
    played with the bots in every seat and the luck of the deal largely cancels. A bot's score on
    a deal is its share of wins over the seatings of one table (a pair, or the rotations), and the
    interval comes from the spread of those scores. Between close bots it is much narrower than
    treating the games as independent (1.6 times, for two near-equal heuristics over 4,000 deals),
    so fewer games settle which is stronger."""
    check_run(bots, games, seed, workers, max_moves)
    results: dict[tuple[str, ...], list[GameResult]] = {}
    seatings = lineups(bots, mode, players)
    total = games * len(seatings)
    for k, lineup in enumerate(seatings):
        # progress(done, total) over the whole tournament, seating after seating
        report = None if progress is None else (lambda done, _n, k=k: progress(k * games + done, total))
        results[lineup] = run(profile, lineup, games, seed, workers=workers, match=match, max_moves=max_moves,
                              isolated=isolated, progress=report, executor=executor)
    standings = [_standing(name, results) for name in dict.fromkeys(bots)]
    standings.sort(key=lambda s: -s.win_rate)
    return standings, results


def _standing(name: str, results: dict[tuple[str, ...], list[GameResult]]) -> Standing:
    """A bot's wins over every seating, and its interval from its per-deal scores."""
    blocks: dict[tuple[frozenset[str], int], list[int]] = {}  # (table, deal) -> [wins, seats]
    trials = wins = 0
    share = 0.0
    for lineup, played in results.items():
        seats = [i for i, b in enumerate(lineup) if b == name]
        if not seats:
            continue
        trials += len(seats) * len(played)
        share += len(seats) * len(played) / len(lineup)
        for k, r in enumerate(played):
            won = int(r.winner in seats)
            wins += won
            block = blocks.setdefault((frozenset(lineup), k), [0, 0])
            block[0] += won
            block[1] += len(seats)
    rate = wins / trials if trials else 0.0
    return Standing(name, trials, wins, rate, duplicate_interval([w / n for w, n in blocks.values()], wins, trials),
                    share / trials if trials else 0.0)


def duplicate_interval(scores: Sequence[float], wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of a mean win rate from per-deal scores (normal approximation); with fewer
    than 30 deals, the Wilson interval of ``wins`` out of ``trials`` instead."""
    n = len(scores)
    if n < 30:
        return wilson(wins, trials, z)
    mean = sum(scores) / n
    half = z * math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1) / n)
    return (max(0.0, mean - half), min(1.0, mean + half))
