"""The random-game consistency check: a game played by your bots (or through your wrapper of
the engine), with every invariant of :mod:`unoengine.testing.checks` checked at every step."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..bots.turns import BotError, next_move
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
(allowed only when it is not the bot's turn)."""


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
    bots: Bot | Sequence[Bot],
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

    Seat ``i`` is played by ``bots[i]`` (or one bot for every seat), asked as
    :func:`unoengine.bots.turns.next_move` asks bots: the others first, for their out-of-turn moves,
    then the player to act. A bot
    returning a move that is not in its view's legal moves fails the check with AssertionError,
    as does any broken invariant (cards conserved, phase, the expected legal moves, views hiding
    hidden information, scores, termination). ``transition`` is the function that applies moves:
    :func:`unoengine.apply`, or your wrapper of it. Returns the last state.
    """
    seats = [bots] * players if callable(bots) else list(bots)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots for {players} players")
    state = new_game(resolve_profile(profile), players, seed)
    checker = GameChecker(state, max_moves=max_moves)
    rng = random.Random(seed)
    players_ = [_Seat(bot, i) for i, bot in enumerate(seats)]
    rngs = [rng] * players
    while not state.match_over and not (state.round_over and checker.rounds >= rounds):
        try:
            move = next_move(state, players_, rngs)
        except BotError as exc:
            raise AssertionError(str(exc)) from exc
        if rng.random() < expensive_rate:
            check_all_expensive(state, rng)
        new = transition(state, move)
        checker.step(state, move, new)
        state = new
    return state


class _Seat:
    """A callable bot seen through the bots protocol, so the one runner of simulate.py asks it."""

    def __init__(self, bot: Bot, seat: int) -> None:
        self.bot = bot
        self.name = f"the bot of p{seat}"

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        return self.bot(view)
