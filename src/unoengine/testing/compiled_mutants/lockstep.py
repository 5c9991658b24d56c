"""The differential test a compiled mutant must fail: a lockstep of the compiled kernels (as loaded
in this process, mutated or not) against the reference engine, stopping at the first difference.

The kernels deal every round and list their own legal moves; a move is picked among them (at
random, or biased towards the rare decisions: challenges, catches, late calls, targets); the
reference, advanced by the same move, must list the same moves and reach the same state at every
step. Anything else is a difference: a state or a list that differs, a move the reference refuses,
or a kernel that raises. Work is bounded by a count of moves, never by time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

import unoengine as u

from ...engine.cards import IS_WILD
from ...engine.moves import MAX_PLAYERS, Accept, CallUno, CatchUno, Challenge, Draw, Move, Pass, Play
from ...engine.profile import Profile
from ...engine.state import GameState


@attrs.frozen
class Difference:
    """Where the kernels and the reference first parted: after ``moves`` moves of the lockstep,
    in a game of ``players`` dealt from ``seed`` (or started from the end-of-round position that
    ``seed`` draws); ``what`` says how."""

    moves: int
    players: int
    seed: int
    what: str


def _weight(move: Move) -> float:
    """Biased play: the rare decisions often, so every phase is reached within a few games."""
    if isinstance(move, CatchUno | Challenge | CallUno):
        return 6.0
    if isinstance(move, Play) and (move.uno or move.target is not None):
        return 3.0
    if isinstance(move, Draw | Accept | Pass):
        return 1.5
    return 1.0


def _fields(got: GameState, want: GameState) -> list[str]:
    names = ("hands", "draw_pile", "draw_pos", "discard", "color", "direction", "current", "phase", "drawn",
             "challenge", "uno_exposed", "passes", "rng", "match", "reveal", "pending_draw", "known")
    return [name for name in names if getattr(got, name) != getattr(want, name)] or ["the state"]


POSITION_MOVES = 60
"""Moves played from each end-of-round position before the next one."""


def end_of_round_position(profile: Profile, n: int, rng: random.Random) -> GameState:
    """A random position near the end of a round (``unoengine.from_position``): hands of one to
    three cards, a short draw pile or none, passes already made, scores near the target. It
    reaches in a few moves what dealt games reach rarely: blocked rounds (PLAY-7), a last Draw
    card (ACT-9), a next-to-last card played (UNO-1..7), the match won (SCORE-2..4)."""
    sizes = [rng.choice((1, 1, 2, 3)) for _ in range(n)]
    pile_size, discard_size = rng.choice((0, 0, 1, 3)), rng.choice((1, 1, 2, 4))
    cards = rng.sample(profile.deck_cards(), sum(sizes) + pile_size + discard_size)
    hands = [cards[sum(sizes[:p]):sum(sizes[:p + 1])] for p in range(n)]
    rest = cards[sum(sizes):]
    discard, draw_pile = rest[:discard_size], rest[discard_size:]
    blocked = not draw_pile and len(discard) == 1
    target = profile.target_score
    return u.from_position(
        profile, hands, discard, draw_pile=draw_pile, color=rng.randrange(4) if IS_WILD[discard[-1]] else None,
        direction=rng.choice((1, -1)), current=0, passes=rng.randrange(n) if blocked else 0,
        scores=[rng.randrange(max(1, target - 40), target) if rng.random() < 0.5 else 0 for _ in range(n)],
        seed=rng.getrandbits(64))


def _differ(made: int, n: int, seed: int, what: str) -> tuple[Difference, int]:
    return Difference(made, n, seed, what), made


def first_difference(tables: Sequence[tuple[Profile, tuple[int, ...], bool]], moves: int,
                     seed: int) -> tuple[Difference | None, int]:
    """Play lockstep games, each on the next of ``tables`` (a profile, the player counts to deal
    for it, and whether to start from end-of-round positions instead of a deal by the kernels),
    until the first difference or ``moves`` moves; the difference (None when there was none) and
    the number of moves made. Games alternate between biased play and uniformly random play (which
    lets a window stay open longer: a player drawing before anyone catches or calls)."""
    import numpy as np

    from ...compiled.codes import MAX_LEGAL, decode
    from ...compiled.config import config_of
    from ...compiled.convert import to_array, to_state
    from ...compiled.kernel_apply import apply_move
    from ...compiled.kernel_deal import new_game as kernel_new_game
    from ...compiled.kernel_deal import seed_bits
    from ...compiled.kernel_legal import legal_moves as kernel_legal_moves
    from ...compiled.layout import offsets

    rng = random.Random(seed)
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    made = 0
    game = 0
    while made < moves:
        profile, counts, positions = tables[game % len(tables)]
        biased = game // len(tables) % 2 == 0
        game += 1
        cfg = config_of(profile)
        n = rng.choice(counts) if counts else rng.randint(profile.min_players, min(profile.max_players, MAX_PLAYERS))
        game_seed = rng.getrandbits(64)

        if positions:
            state = end_of_round_position(profile, n, random.Random(game_seed))
            try:
                a = to_array(state)
            except Exception as error:
                return _differ(made, n, game_seed, f"the conversion raised {type(error).__name__}: {error}")
        else:
            try:
                a = np.zeros(offsets(n, profile.deck_size).size, dtype=np.int64)
                kernel_new_game(cfg, n, seed_bits(game_seed), a)
            except Exception as error:  # any crash of the kernels is a difference
                return _differ(made, n, game_seed, f"the kernel deal raised {type(error).__name__}: {error}")
            state = u.new_game(profile, n, seed=game_seed)
        stop = made + POSITION_MOVES if positions else moves
        while made < min(moves, stop):
            try:
                got = to_state(profile, a)
                k = kernel_legal_moves(cfg, a, -1, out)
                codes = [int(c) for c in out[:k]]
                kernel_list = [decode(c) for c in codes]
            except Exception as error:
                return _differ(made, n, game_seed, f"the kernels raised {type(error).__name__}: {error}")
            if got != state:
                return _differ(made, n, game_seed, "the state differs: " + ", ".join(_fields(got, state)))
            if kernel_list != u.legal_moves(state):
                return _differ(made, n, game_seed, "the legal moves differ")
            if not k:
                break
            index = (rng.choices(range(k), weights=[_weight(m) for m in kernel_list])[0] if biased
                     else rng.randrange(k))
            try:
                apply_move(cfg, a, codes[index])
            except Exception as error:
                return _differ(made, n, game_seed, f"the kernel move raised {type(error).__name__}: {error}")
            try:
                state = u.apply(state, kernel_list[index])
            except Exception as error:
                return _differ(made, n, game_seed, f"the reference refused {kernel_list[index]}: {error}")
            made += 1
    return None, made
