"""The random-game consistency check: a game played by your bots (or through your wrapper of
the engine), with every invariant of :mod:`unoengine.testing.checks` checked at every step."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..dealing import new_game
from ..moves import Move
from ..profile import Profile
from ..state import GameState, Phase
from ..transition import apply
from ..view import PlayerView, view
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

    Seat ``i`` is played by ``bots[i]`` (or one bot for every seat). At each step the bot of the
    player to act is asked first; every other bot is then offered its out-of-turn moves. A bot
    returning a move that is not in its view's legal moves fails the check with AssertionError,
    as does any broken invariant (cards conserved, phase, the expected legal moves, views hiding
    hidden information, scores, termination). ``transition`` is the function that applies moves:
    :func:`unoengine.apply`, or your wrapper of it. Returns the last state.
    """
    seats = [bots] * players if callable(bots) else list(bots)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots for {players} players")
    state = new_game(profile, players, seed)
    checker = GameChecker(state, max_moves=max_moves)
    rng = random.Random(seed)
    while not state.match_over and not (state.round_over and checker.rounds >= rounds):
        move = _next_move(state, seats)
        if rng.random() < expensive_rate:
            check_all_expensive(state, rng)
        new = transition(state, move)
        checker.step(state, move, new)
        state = new
    return state


def _next_move(state: GameState, seats: Sequence[Bot]) -> Move:
    """The move of the player to act, unless another bot acts out of turn first."""
    order = [state.current] + [q for q in range(len(seats)) if q != state.current]
    if state.round_over:
        order = list(range(len(seats)))
    for q in order[1:] + order[:1]:
        v = view(state, q)
        if not v.legal_moves:
            continue
        move = seats[q](v)
        if move is None:
            assert q != state.current or state.round_over, f"the bot of p{q} did nothing on its turn"
            continue
        assert move in v.legal_moves, f"the bot of p{q} returned {move!r}, not a legal move of its view"
        return move
    raise AssertionError(f"no bot made a move: {state!r}")
