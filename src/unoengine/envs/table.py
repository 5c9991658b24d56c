"""Who decides next in a framework's turn-based loop, out-of-turn moves included.

Frameworks ask one player at a time; UNO lets players act out of turn (catch a missed UNO,
call it late, jump in). A :class:`Table` turns the engine's "everyone with a legal move may act"
into a sequence of single decisions, in the order the shipped bot runner uses
(:func:`unoengine.bots.turns.next_move`):

- **windows** (the default): after every move, each player other than the one to act who now
  has a legal move gets one decision, in seat order after the player to act, with ``WAIT``
  (let the moment pass) among its actions; then the player to act decides, without ``WAIT``.
  A move made in a window changes the state, and the windows open again on the new state.
- **turn-only**: only the player to act is ever asked (with all of its own legal moves, a catch
  of the previous player included); nobody else catches, calls late or jumps in.

The whole game stays reachable with windows on. Who gets a window must not give away a hidden
hand: every other player may catch a missed UNO, and only the exposed player may call it late,
so those windows say nothing private; but only a player holding the top card's twin may jump in
(HOUSE-2). So while a jump-in is possible under the profile, *every* other player gets a window,
those with no move only ``WAIT``, and being asked reveals nothing. At the end of a round the next
dealer is asked for ``NextRound`` (in a match).
"""

from __future__ import annotations

from typing import Final, Literal

from ..engine.legality import JUMP_IN_PHASES, legal_moves, only_current_may_act
from ..engine.moves import Move
from ..engine.state import GameState, Phase
from ..engine.transition import apply_listed
from .actions import ActionError
from .arguments import check_choice

OutOfTurn = Literal["windows", "turn-only"]
OUT_OF_TURN: Final = ("windows", "turn-only")


class Table:
    """A live game for a framework: the state, and whose decision it is."""

    now: tuple[int, tuple[Move, ...], bool]
    """:meth:`decision`, worked out once per change: ``(actor, moves(), may_wait)``."""

    def __init__(self, state: GameState, out_of_turn: OutOfTurn = "windows") -> None:
        check_choice("out_of_turn", out_of_turn, OUT_OF_TURN)
        self.windows = out_of_turn == "windows"
        self.state = state
        self._queue: list[int] = []
        self._legal: dict[int, tuple[Move, ...]] = {}
        self._open()

    @property
    def phase(self) -> Phase:
        """The state's phase (what an env asks every step, asked the same of every backend)."""
        return self.state.phase

    @property
    def actor(self) -> int:
        """The player whose decision it is."""
        return self.now[0]

    @property
    def may_wait(self) -> bool:
        """Is the actor deciding out of turn (so ``WAIT`` is among its actions)?"""
        return self.now[2]

    def moves(self, player: int | None = None) -> tuple[Move, ...]:
        """The legal moves of ``player`` (the actor by default) in the current state."""
        return self.now[1] if player is None else self._legal.get(player, ())

    def decision(self) -> tuple[int, tuple[Move, ...], bool]:
        """``(actor, moves(), may_wait)`` in one call, for an environment's every step."""
        return self.now

    def _decide(self) -> None:
        """Work out :meth:`decision` from the queue of windows (after it changed)."""
        queue = self._queue
        actor = queue[0] if queue else self._owner
        self.now = (actor, self._legal.get(actor, ()), bool(queue))

    def act(self, move: Move | None) -> GameState:
        """The actor makes ``move``, or lets its window pass with None; returns the new state.
        A move outside the actor's legal moves raises ActionError and changes nothing."""
        if move is None:
            if not self._queue:
                raise ActionError(f"player {self.actor} must move: it is their turn, not a window to let pass")
            self._queue.pop(0)
            self._decide()
            return self.state
        actor, mine, _ = self.now
        if move.player != actor or move not in mine:
            raise ActionError(f"move: {move!r} is not a legal move of player {actor} now")
        return self.act_legal(move)

    def act_legal(self, move: Move) -> GameState:
        """:meth:`act` for a move its caller already found among :meth:`moves` (an environment
        that checked the action against its mask): the same, without a second check, here or in
        the engine (:func:`~unoengine.engine.transition.apply_listed`). Anything else goes
        through :meth:`act`."""
        self.state = apply_listed(self.state, move)
        self._open()
        return self.state

    def _open(self) -> None:
        """Work out who may act in the new state and open the windows."""
        state = self.state
        moves = legal_moves(state)
        if only_current_may_act(state):  # every move is the player to act's: nobody has a window
            self._owner = owner = state.current
            mine = tuple(moves)
            self._legal = {owner: mine}
            self._queue = []
            self.now = (owner, mine, False)
            return
        grouped: dict[int, list[Move]] = {}
        for m in moves:
            grouped.setdefault(m.player, []).append(m)
        self._legal = legal = {p: tuple(ms) for p, ms in grouped.items()}
        n = len(state.hands)
        if state.phase >= Phase.ROUND_OVER:
            # Only the next dealer may act (NextRound), unless the match is over.
            self._owner = next(iter(legal), state.current)
            self._queue = []
        elif not self.windows:
            self._owner = state.current
            self._queue = []
        else:
            self._owner = state.current
            order = [(state.current + k) % n for k in range(1, n)]
            if state.profile.jump_in and state.phase in JUMP_IN_PHASES:
                self._queue = order  # HOUSE-2: everyone is asked, so a window does not reveal a twin
            else:
                self._queue = [q for q in order if q in legal]
        self._decide()

    def copy(self) -> Table:
        """An independent table at the same decision (the state is immutable and shared)."""
        twin = Table.__new__(Table)
        twin.windows = self.windows
        twin.state = self.state
        twin._queue = list(self._queue)
        twin._legal = self._legal
        twin._owner = self._owner
        twin.now = self.now
        return twin


RewardMode = Literal["win", "points"]
REWARD_MODES: Final = ("win", "points")


def round_rewards(state: GameState, mode: RewardMode = "win") -> tuple[float, ...]:
    """Each player's reward for the round that just ended in ``state`` (zero-sum).

    ``win``: +1 for the winner, -1/(n-1) for each other player. ``points``: the round's points
    (SCORE-1..4) as gained against the table's average, negated under ``own-hand-lowest-wins``
    scoring, where points are bad."""
    result = state.match.last_round
    if result is None or state.phase < Phase.ROUND_OVER:
        raise ActionError("rewards: the round is not over")
    n = len(state.hands)
    if mode == "win":
        return tuple(1.0 if p == result.winner else -1.0 / (n - 1) for p in range(n))
    check_choice("reward", mode, REWARD_MODES)
    won = result.points_won
    mean = sum(won) / n
    sign = -1.0 if state.profile.scoring == "own-hand-lowest-wins" else 1.0
    return tuple(sign * (w - mean) for w in won)
