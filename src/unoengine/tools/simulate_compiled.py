"""``simulate``/``tournament`` with ``backend="compiled"``: each game on the compiled engine
(:mod:`unoengine.compiled`), the bots asked exactly as :func:`unoengine.bots.turns.next_move` asks
them, so a run gives the SAME results as the reference backend for the same seed (docs/bots.md,
"Backends").

The kernels list the legal moves in the reference engine's order and make the moves. RandomBot
and HeuristicBot decide on the array by their compiled policies (bots/compiled_policies.py), which
draw from the bot's own random stream exactly as the Python bot does, so no reference state is
made for them; another bot that decides from its legal moves alone (``act_on_moves``) is given
the decoded moves; any other bot (ISMCTS, a program, a text bot) gets a reference view, made from
the compiled game when it must decide (one conversion per decision point: such a bot's own
thinking or its process round trip costs far more). The penalty counts of the summary need the rule of each
draw (PENALTY_RULES): for the few moves that may draw one (:func:`.simulate.may_draw_penalty`) and
did take cards from the draw pile, the reference engine makes the move once more on the converted
state before it to name them. The run's result
(winner, points, moves) is read from the reference state of the game's end.

Needs numba (the ``fast`` extra).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import repeat
from operator import is_
from typing import Final

import numpy as np

from ..bots.base import Bot
from ..bots.compiled_policies import Policy, compiled_policy
from ..bots.turns import BotError, bot_label, raised_by
from ..compiled.codes import MAX_LEGAL, PLAYER_SHIFT, decode, encode
from ..compiled.config import C_JUMP_IN, config_of
from ..compiled.convert import to_state
from ..compiled.game import CompiledGame
from ..compiled.kernel_apply import apply_move
from ..compiled.kernel_legal import legal_moves
from ..compiled.layout import S_CURRENT, S_DRAW_LEN, S_DRAW_POS, S_PHASE, S_UNO_EXPOSED
from ..engine.errors import shown
from ..engine.events import CardsDrawn
from ..engine.moves import Move
from ..engine.profile import Profile
from ..engine.state import GameState, Phase
from ..engine.transition import apply_with_events
from ..engine.view import view

_ROUND_OVER: Final = int(Phase.ROUND_OVER)
_MATCH_OVER: Final = int(Phase.MATCH_OVER)


class _Decoder:
    """Move codes to the engine's move objects and back, remembered for a run's games."""

    def __init__(self) -> None:
        self.moves: dict[int, Move] = {}
        self.codes: dict[int, int] = {}

    def move(self, code: int) -> Move:
        move = self.moves.get(code)
        if move is None:
            move = self.moves[code] = decode(code)
            self.codes[id(move)] = code
        return move

    def code(self, move: Move) -> int:
        code = self.codes.get(id(move))
        return encode(move) if code is None else code


_DECODER: Final = _Decoder()


class _Reference:
    """The reference state of one moment of a compiled game, made when first asked for."""

    __slots__ = ("_a", "_profile", "_state")

    def __init__(self, profile: Profile, a: np.ndarray) -> None:
        self._profile, self._a = profile, a
        self._state: GameState | None = None

    def state(self) -> GameState:
        if self._state is None:
            self._state = to_state(self._profile, self._a)
        return self._state


def play_compiled(profile: Profile, seats: Sequence[Bot], rngs: Sequence[random.Random], seed: int, match: bool,
                  max_moves: int | None, moves_out: list[Move] | None, penalty_rules: Sequence[str],
                  may_draw_penalty: Callable[[Move], bool]) -> tuple[GameState, int, Counter[str]]:
    """One game of :func:`.simulate._play` on the compiled engine: the final reference state, the
    number of moves and the penalty draws by rule. BotError as :func:`~unoengine.bots.turns.next_move`
    raises it."""
    cfg = config_of(profile)  # refuses, naming the rule, a profile the kernels cannot run
    n = len(seats)
    a = np.array(CompiledGame.new(profile, n, seed).array, dtype=np.int64)
    buffer = np.empty(MAX_LEGAL, dtype=np.int64)
    decoder = _DECODER
    observers = [(i, observe) for i, bot in enumerate(seats)
                 if (observe := getattr(bot, "observe", None)) is not None]
    deciders = [getattr(bot, "act_on_moves", None) for bot in seats]
    policies = [compiled_policy(bot) for bot in seats]
    scratch = np.empty(MAX_LEGAL, dtype=np.int64)
    end = _MATCH_OVER if match else _ROUND_OVER
    penalties: Counter[str] = Counter()
    moves = 0
    while a[S_PHASE] < end:
        if max_moves is not None and moves >= max_moves:
            raise BotError(f"did not end within {max_moves} moves")
        count = legal_moves(cfg, a, -1, buffer)
        codes = buffer[:count].tolist()
        reference = _Reference(profile, a)
        move = _next_move(cfg, a, codes, seats, deciders, policies, rngs, decoder, reference.state, scratch)
        if may_draw_penalty(move):
            before = a.copy()
            apply_move(cfg, a, decoder.code(move))
            if a[S_DRAW_POS] != before[S_DRAW_POS] or a[S_DRAW_LEN] != before[S_DRAW_LEN] \
                    or before[S_DRAW_POS] >= before[S_DRAW_LEN]:
                # Cards left the draw pile (or it was empty, where a draw of none is still an
                # event): the reference names each draw's rule. Otherwise nothing was drawn.
                _, events = apply_with_events(_Reference(profile, before).state(), move)
                for e in events:
                    if isinstance(e, CardsDrawn) and e.rule in penalty_rules:
                        penalties[e.rule] += e.count
        else:
            apply_move(cfg, a, decoder.code(move))
        for i, observe in observers:
            try:
                observe(move)
            except BotError as exc:
                exc.seat = i if exc.seat is None else exc.seat
                raise
            except Exception as exc:  # the bot's own code failed
                raise raised_by(bot_label(seats[i]), i, exc) from exc
        moves += 1
        if moves_out is not None:
            moves_out.append(move)
    return to_state(profile, a), moves, penalties


def _next_move(cfg: np.ndarray, a: np.ndarray, codes: list[int], seats: Sequence[Bot],
               deciders: Sequence[Callable[..., Move | None] | None], policies: Sequence[Policy | None],
               rngs: Sequence[random.Random], decoder: _Decoder, reference: Callable[[], GameState],
               buffer: np.ndarray) -> Move:
    """:func:`unoengine.bots.turns.next_move` on the compiled game (the same order, the same
    questions, the same errors). A bot with a compiled policy (bots/compiled_policies.py) decides
    on the array, drawing from its stream as it would; one with ``act_on_moves`` gets the decoded
    moves; any other a reference view."""
    current = int(a[S_CURRENT])
    round_over = bool(a[S_PHASE] >= _ROUND_OVER)
    # engine/legality.py only_current_may_act: no UNO exposed, the round on, no jump-in (HOUSE-2)
    alone = a[S_UNO_EXPOSED] < 0 and not round_over and cfg[C_JUMP_IN] == 0
    if alone:
        order: Sequence[int] = (current,)
        acting: set[int] | Sequence[int] = order
    else:
        n = len(seats)
        acting = {c >> PLAYER_SHIFT & 15 for c in codes}
        order = [(current + k) % n for k in range(1, n)] + [current]
    for q in order:
        if q not in acting:
            continue
        bot = seats[q]
        on_turn = q == current or round_over
        policy, act_on_moves = policies[q], deciders[q]
        mine: Sequence[Move] | None = None
        try:
            if policy is not None:
                code = policy(cfg, a, q, on_turn, rngs[q], buffer)
                move = None if code < 0 else decoder.move(code)  # a legal move of the kernels' list
            elif act_on_moves is not None:
                mine = tuple(decoder.move(c) for c in codes if alone or c >> PLAYER_SHIFT & 15 == q)
                move = act_on_moves(mine, on_turn, rngs[q])
            else:
                v = view(reference(), q)
                mine = v.legal_moves
                move = bot.act(v, rngs[q])
        except BotError as exc:
            if exc.seat is None:
                exc.seat = q
            raise
        except Exception as exc:  # the bot's own code failed
            raise raised_by(bot_label(bot), q, exc) from exc
        if move is None:
            if q == current and not round_over:
                raise BotError(f"bot {bot_label(bot)} at seat {q} made no move on its turn", seat=q)
            continue
        if mine is not None and not any(map(is_, mine, repeat(move))) and move not in mine:
            raise BotError(f"bot {bot_label(bot)} at seat {q} returned {shown(move, 120)}, which is not legal",
                           seat=q)
        return move
    asked = ", ".join(f"{seats[q].name!r} at seat {q}" for q in order if q in acting)
    raise BotError(f"no bot made a move in {reference()!r}; asked: {asked or 'nobody (no legal move)'}")
