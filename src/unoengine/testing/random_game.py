"""The random-game consistency check: a game played by your bots (or through your wrapper of
the engine), with every invariant of :mod:`unoengine.testing.checks` checked at every step."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..bots.base import Bot as BotObject
from ..bots.turns import BotError, next_move, tell_bots
from ..engine.dealing import new_game
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.transition import apply
from ..engine.view import PlayerView
from ..formats.composition import resolve_profile
from .checks import MAX_MOVES_PER_ROUND, GameChecker, check_all_expensive

Bot = Callable[[PlayerView], "Move | None"]
"""A bot acts from its view alone: it returns one of ``view.legal_moves``, or None to do nothing
(allowed only when it is not the bot's turn). :func:`check_random_game` also takes the bots of
:mod:`unoengine.bots` (objects with ``name`` and ``act(view, rng)``), as ``simulate`` does."""
AnyBot = Bot | BotObject


def random_bot(rng: random.Random) -> Bot:
    """A bot that makes a uniformly random legal move when it must act, and otherwise, now and
    then, an out-of-turn one (a catch, a late UNO call, a jump-in)."""

    def act(v: PlayerView) -> Move | None:
        if not v.legal_moves:
            return None
        if v.current != v.player and v.phase < Phase.ROUND_OVER and rng.random() < 0.7:
            return None
        return rng.choice(v.legal_moves)

    return act


def check_random_game(
    bots: AnyBot | Sequence[AnyBot],
    profile: Profile | str,
    players: int,
    seed: int = 0,
    *,
    rounds: int = 1,
    transition: Callable[[GameState, Move], GameState] = apply,
    expensive_rate: float = 0.05,
    max_moves: int = MAX_MOVES_PER_ROUND,
) -> GameState:
    """Play ``rounds`` rounds (or to the end of the match) and check everything on the way.

    Seat ``i`` is played by ``bots[i]`` (or one bot for every seat): a function of the view, or
    a bot object of :mod:`unoengine.bots` (``HeuristicBot()``, your own), which gets a random
    generator of its own seeded from ``seed`` and its seat, as in ``simulate``. Bots are asked as
    :func:`unoengine.bots.turns.next_move` asks bots: the others first, for their out-of-turn moves,
    then the player to act. A bot
    returning a move that is not in its view's legal moves fails the check with AssertionError,
    as does any broken invariant (cards conserved, phase, the expected legal moves, views hiding
    hidden information, scores, termination). ``transition`` is the function that applies moves:
    :func:`unoengine.apply`, or your wrapper of it. Returns the last state.
    """
    one = callable(bots) or hasattr(bots, "act")
    seats: list[AnyBot] = [bots] * players if one else list(bots)  # type: ignore[list-item, arg-type]
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots for {players} players")
    state = new_game(resolve_profile(profile), players, seed)
    checker = GameChecker(state, max_moves=max_moves)
    rng = random.Random(seed)
    players_ = [_Seat(bot, i) for i, bot in enumerate(seats)]
    rngs = [rng if callable(bot) and not hasattr(bot, "act") else random.Random(f"{seed}/seat{i}")
            for i, bot in enumerate(seats)]
    while not state.match_over and not (state.round_over and checker.rounds >= rounds):
        try:
            move = next_move(state, players_, rngs)
        except BotError as exc:
            raise AssertionError(str(exc)) from exc
        if rng.random() < expensive_rate:
            check_all_expensive(state, rng)
        new = transition(state, move)
        tell_bots([seat.bot for seat in players_], move)  # type: ignore[misc]
        checker.step(state, move, new)
        state = new
    return state


class _Seat:
    """A bot seen through the bots protocol, so the one runner of simulate.py asks it."""

    def __init__(self, bot: AnyBot, seat: int) -> None:
        self.bot = bot
        name = getattr(bot, "name", None)
        self.name = f"{name} (p{seat})" if isinstance(name, str) else f"the bot of p{seat}"

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        act = getattr(self.bot, "act", None)
        if act is not None:
            return act(view, rng)  # type: ignore[no-any-return]
        return self.bot(view)  # type: ignore[operator]
