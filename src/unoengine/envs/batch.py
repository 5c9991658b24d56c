"""N games of one profile and player count, stepped at once by the compiled engine (docs/rl.md,
"Batch API").

>>> from unoengine.envs.batch import BatchEngine
>>> batch = BatchEngine("classic-108", num_players=2, batch_size=1024, seed=7)
>>> out = batch.reset()
>>> out = batch.step(batch.random_actions())      # or a policy's actions, one per game

**Self-play, as pgx.** Every decision of every seat is a step: ``out.actor[i]`` is the seat that
decides next in game ``i``, ``out.observation[i]`` that seat's observation (:mod:`.observations`)
and ``out.mask[i]`` its legal actions (:mod:`.actions`, ``WAIT`` included in an out-of-turn window);
``step(actions)`` takes one action per game, each the actor's. ``out.rewards[i]`` holds every
seat's reward (:func:`~.table.round_rewards`), 0 except on the step that ends the round.

**An episode is one round**, as in the Gymnasium and PettingZoo envs: each game is a new match
dealt from its own seed, played until its first round ends.

**Auto-reset, "same-step"** (Gymnasium 1.x ``AutoresetMode.SAME_STEP``): on the step that ends a
game's round, ``out.done[i]`` is True, ``out.rewards[i]`` the round's rewards, and the observation,
mask and actor are already the new game's; the final observation (of the seat that made the last
move, or of the learner, see below) is ``out.final_observation[i]``, valid where ``done``.
``autoreset="next-step"`` (Gymnasium's default, what :mod:`.vector` uses) instead returns the final
observation itself in ``out.observation[i]`` (with the new game's actor and mask already), and the
game's next step ignores its action and returns the new game's first observation (reward 0, not
done); ``final_observation`` is then not written.

**Who decides** follows :class:`~.table.Table`: ``out_of_turn="turn-only"`` asks only the player
to act; ``"windows"`` gives each other player with a legal move (everyone, while a jump-in is
possible, HOUSE-2) one decision with ``WAIT``, in seat order after the player to act, first.

**A learner seat** (``learner=k``, what :mod:`.vector` uses): the other seats play inside the same
compiled call, so every step is the learner's decision; a round the others end before the
learner's first decision is dealt again, as in the Gymnasium env. ``opponents="random"`` (the
default) plays uniformly random legal actions (``WAIT`` included in a window);
``opponents="heuristic"`` plays the move ``HeuristicBot`` makes on the same view
(compiled/kernel_policy.py ``heuristic_move``; ``WAIT`` where it makes none), its ties broken by
the random seats' stream. :meth:`BatchEngine.heuristic_actions` gives the heuristic's action for
each game's actor too (a baseline, or a policy's prior).

**Seeding.** Game ``i`` deals from its own SplitMix64 stream (docs/shuffle.md): its state is the
``2i+1``-th output of SplitMix64 from the batch seed, and each new game's seed is that stream's next
output (``batch.game_seeds[i]``, so ``new_game(batch.profile, n, batch.game_seeds[i])`` is the same
deal in the reference engine). The random seats draw from a second stream, the ``2i+2``-th output.
The same seed and actions give the same games, however many threads step them.

**The profile.** What the kernels cannot run (the legacy ``"mt19937"`` shuffle, a program's own
custom effect) is refused with the rule named (compiled/config.py), never played otherwise.

The stepping loop over the batch is one compiled call (numba, ``nogil``); ``threads=k`` splits the
batch into k slices stepped by k threads at once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

import numpy as np

from ..compiled.codes import MAX_LEGAL, encode
from ..compiled.config import C_DECK, C_SCORING
from ..compiled.kernel_apply import apply_move
from ..compiled.kernel_base import (
    ROUND_OVER,
    below,
    jit,
    lean,
    next_output,
    o_discard,
    o_hands,
    o_last_points_won,
    prefetch,
)
from ..compiled.kernel_deal import new_game, seed_bits
from ..compiled.kernel_legal import legal_moves_into
from ..compiled.kernel_policy import heuristic_move, uniform
from ..compiled.layout import CODES, S_CURRENT, S_DISCARD_LEN, S_LAST_WINNER, S_N, S_PHASE, offsets
from ..compiled.sealed import Sealed
from ..compiled.validate import read_only
from ..engine.errors import shown
from ..engine.profile import Profile
from ..formats.composition import Spec, resolve_profile
from .actions import WAIT, ActionError
from .arguments import check_choice, check_players, check_seed
from .compiled_encoding import (
    CompiledEncoding,
    action_of,
    everyone_windowed,
    mask_with,
    observe,
    only_current_may_act,
)
from .table import OUT_OF_TURN, REWARD_MODES, OutOfTurn, RewardMode

AutoReset = Literal["same-step", "next-step"]
AUTORESET: Final = ("same-step", "next-step")

if TYPE_CHECKING:
    import numpy.typing as npt

SKIP: Final = -1
"""An action that leaves its game out of the step (what a next-step auto-reset needs)."""
MAX_BATCH: Final = 1 << 20
"""The most games one batch holds."""
_REDEALS: Final = 1000
_SEED_BOUND: Final = 2**63
OPPONENTS: Final = ("random", "heuristic")
"""What the seats other than a learner play inside the step (see the module doc)."""
OWN_HAND_LOWEST_WINS: Final = 1
"""config C_SCORING of "own-hand-lowest-wins": points are bad, so the points reward is negated."""


class BatchStep(NamedTuple):
    """What :meth:`BatchEngine.reset` and :meth:`BatchEngine.step` return (the engine's own arrays:
    copy what you keep past the next step; ``actor`` and ``mask`` are read-only views, since the
    next step reads them)."""

    actor: npt.NDArray[np.int64]
    """(N,): the seat that decides next in each game."""
    observation: npt.NDArray[np.float32]
    """(N, observation size): the actor's observation."""
    mask: npt.NDArray[np.uint8]
    """(N, action size): the actor's legal actions, 1 or 0."""
    rewards: npt.NDArray[np.float64]
    """(N, players): each seat's reward, 0 unless the round ended on this step."""
    done: npt.NDArray[np.bool_]
    """(N,): the round ended on this step (and the game was dealt anew)."""
    final_observation: npt.NDArray[np.float32]
    """(N, observation size): where ``done``, the observation of the finished round's last state."""


class BatchEngine(Sealed):
    """N games of one profile and player count, stepped by one compiled call (see the module doc).

    Its settings are fixed once made and its games shown read-only (compiled/sealed.py, issue 41):
    the kernels index by them without checking them again. Make a new batch for other settings;
    ``CompiledGame.from_array(batch.profile, batch.games[i])`` plays one game on by itself."""

    def __init__(
        self,
        profile: Profile | Spec = "classic-108",
        num_players: int = 2,
        batch_size: int = 1024,
        seed: int = 0,
        *,
        out_of_turn: OutOfTurn = "turn-only",
        reward: RewardMode = "win",
        learner: int | None = None,
        threads: int = 1,
        autoreset: AutoReset = "same-step",
        opponents: str = "random",
    ) -> None:
        resolved = resolve_profile(profile)
        self.profile: Profile = resolved
        self.num_players: int = check_players(resolved, num_players)
        if type(batch_size) is not int or not 1 <= batch_size <= MAX_BATCH:
            raise ActionError(f"batch_size: expected an int 1..{MAX_BATCH}, got {shown(batch_size)}")
        check_choice("out_of_turn", out_of_turn, OUT_OF_TURN)
        check_choice("reward", reward, REWARD_MODES)
        check_choice("autoreset", autoreset, AUTORESET)
        if learner is not None and (type(learner) is not int or not 0 <= learner < num_players):
            raise ActionError(f"learner: expected None or a seat 0..{num_players - 1}, got {shown(learner)}")
        if type(threads) is not int or not 1 <= threads <= 64:
            raise ActionError(f"threads: expected an int 1..64, got {shown(threads)}")
        check_choice("opponents", opponents, OPPONENTS)
        self.opponents = opponents
        self.encoding = enc = CompiledEncoding(resolved, num_players)
        self.actions = enc.actions
        self.observations = enc.observations
        self.batch_size = size = batch_size
        self.out_of_turn: OutOfTurn = out_of_turn
        self.reward_mode: RewardMode = reward
        self.learner = learner
        self.threads = threads
        self.autoreset: AutoReset = autoreset
        n = num_players
        self._code_of = np.full((n, enc.action_size), -1, dtype=np.int64)
        for p in range(n):
            for i, move in enumerate(self.actions.row(p)):
                if move is not None:
                    self._code_of[p, i] = encode(move)
        self._games = np.zeros((size, offsets(n, resolved.deck_size).size), dtype=np.int64)
        self._game_seeds = np.zeros(size, dtype=np.uint64)
        self._cfg, self._play_index, self._other_index = enc._cfg, enc._play_index, enc._other_index
        self._kind_of, self._offsets = enc._kind_of, enc._offsets
        self._streams = np.zeros((size, 2), dtype=np.int64)
        self._queue = np.zeros(size, dtype=np.int64)
        self._waiting = np.zeros(size, dtype=np.bool_)
        self._actor = np.zeros(size, dtype=np.int64)
        self._obs = np.zeros((size, enc.obs_size), dtype=np.float32)
        self._final = np.zeros((size, enc.obs_size), dtype=np.float32)
        self._mask = np.zeros((size, enc.action_size), dtype=np.uint8)
        self._rewards = np.zeros((size, n), dtype=np.float64)
        self._done = np.zeros(size, dtype=np.bool_)
        self._pending = np.zeros(size, dtype=np.bool_)
        """"next-step": the games whose round ended on the last step (their next step is the reset)."""
        self._seed = check_seed(seed, "seed") or 0
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None
        self._ready = False

    def __repr__(self) -> str:
        return (f"BatchEngine({self.profile.name!r}, {self.num_players} players, {self.batch_size} games, "
                f"{self.out_of_turn})")

    @property
    def games(self) -> npt.NDArray[np.int64]:
        """The games' flat arrays (compiled/layout.py), one per row, read-only: ``compiled.convert.to_state``."""
        return read_only(self._games)

    @property
    def game_seeds(self) -> npt.NDArray[np.uint64]:
        """The seed each game was dealt from (reference ``new_game(profile, n, seed)``), read-only."""
        return read_only(self._game_seeds)

    @property
    def waiting(self) -> npt.NDArray[np.bool_]:
        """(N,): the actor decides out of turn (``WAIT`` is among its actions), read-only."""
        return read_only(self._waiting)

    def reset(self, seed: int | None = None) -> BatchStep:
        """Deal every game anew (from ``seed``, else from the batch's seed) and return the first decisions."""
        if seed is not None:
            self._seed = check_seed(seed, "seed") or 0
        seed_streams(seed_bits(self._seed), self._streams)
        self._pending[:] = False
        self._run(None)
        self._ready = True
        return self._out()

    def step(self, actions: npt.ArrayLike) -> BatchStep:
        """Each game's actor takes its action; ActionError (nothing changed) for an action that is
        not legal for the actor of its game now. :data:`SKIP` (-1) leaves a game as it is for this
        step (its decision, observation and mask stay; reward 0, not done). Under "next-step" the
        action of a game whose round ended on the last step is not looked at."""
        if not self._ready:
            raise ActionError("step() before reset()")
        x = checked_actions(actions, self.batch_size, self.encoding.action_size)
        i = first_illegal(x, self._mask, self._pending)
        if i >= 0:
            raise ActionError(f"actions[{i}]: {int(x[i])} is not a legal action of seat {int(self._actor[i])} "
                              f"in game {i} now")
        self._run(x)
        return self._out()

    def random_actions(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of each game's actor (one seed drawn from ``rng``, then a
        compiled pick: for tests, benchmarks and baselines)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        out = np.empty(self.batch_size, dtype=np.int64)
        random_legal(self._mask, int(rng.integers(_SEED_BOUND)), out)
        return out

    def heuristic_actions(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """The action ``HeuristicBot`` takes as each game's actor now (``WAIT`` where it lets a window
        pass), ties broken by one seed drawn from ``rng``: a baseline, or the prior of a policy that
        learns corrections to it (envs/learn)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        out = np.empty(self.batch_size, dtype=np.int64)
        heuristic_actions(self._cfg, self._games, self._actor, int(rng.integers(_SEED_BOUND)), self._play_index,
                          self._other_index, out)
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _out(self) -> BatchStep:
        # The actor and mask are read again by the next step's kernels (the action's seat and its
        # legality), so they are shown read-only; the rest the kernels only write.
        return BatchStep(read_only(self._actor), self._obs, read_only(self._mask), self._rewards, self._done,
                         self._final)

    def _run(self, actions: npt.NDArray[np.int64] | None) -> None:
        acting = actions is not None
        x = actions if actions is not None else np.zeros(self.batch_size, dtype=np.int64)
        learner = -1 if self.learner is None else self.learner
        windows = self.out_of_turn == "windows"
        mode = REWARD_MODES.index(self.reward_mode)
        next_step = self.autoreset == "next-step"
        heuristic = self.opponents == "heuristic"
        seeds = self._game_seeds.view(np.int64)

        def part(lo: int, hi: int) -> int:
            return step_games(self._cfg, self._games, x, acting, learner, windows, mode, heuristic, self._code_of,
                              self._play_index, self._other_index, self._kind_of, self._offsets, self._actor,
                              self._waiting, self._queue, self._streams, seeds, self._mask, self._obs, self._rewards,
                              self._done, self._final, lo, hi, next_step, self._pending)

        if self._pool is None:
            failed = part(0, self.batch_size)
        else:
            k = self.threads
            cuts = [self.batch_size * j // k for j in range(k + 1)]
            futures = [self._pool.submit(part, cuts[j], cuts[j + 1]) for j in range(k)]
            failed = max(f.result() for f in futures)
        if failed >= 0:
            raise RuntimeError(f"game {failed}: {_REDEALS} deals in a row ended before the learner's first decision")


def checked_actions(actions: npt.ArrayLike, size: int, action_size: int) -> npt.NDArray[np.int64]:
    """``actions`` as ``size`` int64 actions, each :data:`SKIP` or 0 .. ``action_size`` - 1 (whether
    legal is the step's to say); ActionError naming the first game whose action is out of range.
    Unsigned actions are compared before the conversion, so 2**64 - 1 is refused rather than read
    as -1 (SKIP); an array that is not of integers is refused whole."""
    try:
        x = np.asarray(actions)
    except (TypeError, ValueError, OverflowError) as exc:  # ragged lists, ints past any dtype
        raise ActionError(f"actions: expected {size} integers: {shown(str(exc))}") from None
    if x.shape != (size,) or x.dtype.kind not in "iu":
        raise ActionError(f"actions: expected {size} integers, got an array of shape {shown(x.shape)} and dtype "
                          f"{shown(str(x.dtype))}")
    bad = np.flatnonzero(x >= action_size) if x.dtype.kind == "u" else np.flatnonzero((x < SKIP) | (x >= action_size))
    if bad.size:
        i = int(bad[0])
        raise ActionError(f"actions[{i}]: {int(x[i])} is not an action of game {i} (0 to {action_size - 1}, or "
                          f"{SKIP} to skip the game)")
    y = x.astype(np.int64, copy=False)
    return y if y.flags.c_contiguous and y.flags.writeable else y.copy()  # the kernels' one compiled signature


# --- kernels ---------------------------------------------------------------------------------------
@jit
def seed_streams(seed: int, streams: Any) -> None:
    """Each game's two streams: the (2i+1)-th and (2i+2)-th outputs of SplitMix64 from ``seed``."""
    state = np.uint64(seed)
    for i in range(streams.shape[0]):
        state, out = next_output(state)
        streams[i, 0] = np.int64(out)
        state, out = next_output(state)
        streams[i, 1] = np.int64(out)


@jit
def _deal(cfg: Any, a: Any, n: int, streams: Any, i: int, seeds: Any) -> None:
    """Deal game ``i`` anew from its stream's next output."""
    state, out = next_output(np.uint64(streams[i, 0]))
    streams[i, 0] = np.int64(state)
    seeds[i] = np.int64(out)
    a[:] = 0
    new_game(cfg, n, int(np.int64(out)), a)


@lean
def _open(cfg: Any, a: Any, windows: bool) -> int:
    """envs/table.py ``_open``: the first window offset after a move (``n``: no windows)."""
    n = a[S_N]
    if windows and a[S_PHASE] < ROUND_OVER and not only_current_may_act(cfg, a):
        return 1
    return n  # type: ignore[no-any-return]


@lean
def _decide(cfg: Any, a: Any, queue: int, buf: Any, cards: Any) -> tuple[int, int, bool]:
    """envs/table.py ``_decide``: ``(actor, queue, may_wait)``. The windows are the seats
    ``current + queue .. current + n - 1`` that have a legal move (every one while a jump-in is
    possible, HOUSE-2); they are looked at lazily, which is the same as the table's list made at
    the move because a WAIT changes nothing."""
    n = a[S_N]
    current = a[S_CURRENT]
    everyone = everyone_windowed(cfg, a)
    while queue < n:
        q = (current + queue) % n
        if everyone or legal_moves_into(cfg, a, q, buf, cards) > 0:
            return q, queue, True
        queue += 1
    return current, queue, False


@lean
def _round_rewards(cfg: Any, a: Any, mode: int, out: Any) -> None:
    """envs/table.py ``round_rewards``: ``win`` (mode 0) or ``points`` (mode 1)."""
    n = a[S_N]
    if mode == 0:
        winner = a[S_LAST_WINNER]
        for p in range(n):
            out[p] = 1.0 if p == winner else -1.0 / (n - 1)
        return
    won = o_last_points_won(n)
    total = 0
    for p in range(n):
        total += a[won + p]
    mean = total / n
    sign = -1.0 if cfg[C_SCORING] == OWN_HAND_LOWEST_WINS else 1.0
    for p in range(n):
        out[p] = sign * (a[won + p] - mean)


@lean
def _pick(mask: Any, streams: Any, i: int) -> int:
    """A uniformly random legal action of ``mask`` from game ``i``'s second stream."""
    count = 0
    for j in range(mask.shape[0]):
        count += mask[j]
    state, r = below(np.uint64(streams[i, 1]), count)
    streams[i, 1] = np.int64(state)
    for j in range(mask.shape[0]):
        if mask[j]:
            if r == 0:
                return j
            r -= 1
    return -1


@jit
def random_legal(masks: Any, seed: int, out: Any) -> None:
    """A uniformly random legal action of each row of ``masks`` into ``out`` (SplitMix64 from ``seed``)."""
    streams = np.empty((1, 2), dtype=np.int64)
    streams[0, 1] = seed
    for i in range(masks.shape[0]):
        out[i] = _pick(masks[i], streams, 0)


@lean
def _pick_legal(cfg: Any, a: Any, who: int, wait: bool, play_index: Any, other_index: Any, buf: Any, cards: Any,
                streams: Any, i: int) -> int:
    """``_pick`` of the mask :func:`mask_with` would write, without writing it: the actions of the
    legal moves (``WAIT`` too if ``wait``), sorted and without repeats, are the mask's set entries
    in order, so the same draw picks the same action. A random seat's move costs its few legal
    actions, not two passes over the whole mask."""
    k = legal_moves_into(cfg, a, who, buf, cards)
    count = 0
    for t in range(k):  # insertion sort of the actions into buf[:count] (count <= t), repeats dropped
        j = action_of(buf[t], play_index, other_index)
        if j < 0:
            continue
        at = count
        while at > 0 and buf[at - 1] > j:
            at -= 1
        if at > 0 and buf[at - 1] == j:
            continue
        for u in range(count, at, -1):
            buf[u] = buf[u - 1]
        buf[at] = j
        count += 1
    first = 1 if wait and not (count > 0 and buf[0] == WAIT) else 0  # WAIT is action 0, the lowest
    state, r = below(np.uint64(streams[i, 1]), count + first)
    streams[i, 1] = np.int64(state)
    if count + first == 0:
        return -1
    return WAIT if r < first else buf[r - first]


@lean
def first_illegal(actions: Any, masks: Any, pending: Any) -> int:
    """The first game whose action is neither :data:`SKIP` nor legal in its mask (a game in
    ``pending`` passes whatever it is given), or -1."""
    size = masks.shape[1]
    for i in range(actions.shape[0]):
        x = actions[i]
        if not (pending[i] or x == SKIP or (0 <= x < size and masks[i, x] != 0)):
            return i
    return -1


@jit
def _heuristic_code(cfg: Any, a: Any, who: int, streams: Any, i: int, buf: Any) -> int:
    """The heuristic bot's move code for ``who`` (-1: it lets the window pass), its ties broken by a
    uniform draw from game ``i``'s second stream."""
    state, x = next_output(np.uint64(streams[i, 1]))
    streams[i, 1] = np.int64(state)
    return heuristic_move(cfg, a, who, uniform(x), buf)


@jit
def heuristic_actions(cfg: Any, games: Any, actor: Any, seed: int, play_index: Any, other_index: Any,
                      out: Any) -> None:
    """Each game's actor's heuristic action into ``out`` (``WAIT`` for none), ties from ``seed``."""
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    streams = np.empty((1, 2), dtype=np.int64)
    streams[0, 1] = seed
    for i in range(games.shape[0]):
        code = _heuristic_code(cfg, games[i], actor[i], streams, 0, buf)
        out[i] = WAIT if code < 0 else action_of(code, play_index, other_index)


@jit
def step_games(cfg: Any, games: Any, actions: Any, acting: bool, learner: int, windows: bool, reward_mode: int,
               heuristic: bool, code_of: Any, play_index: Any, other_index: Any, kind_of: Any, offsets: Any, actor: Any,
               waiting: Any, queue: Any, streams: Any, seeds: Any, masks: Any, obs: Any, rewards: Any, done: Any,
               final: Any, lo: int, hi: int, next_step: bool, pending: Any) -> int:
    """Step games ``lo .. hi - 1``: the actor's action (or, ``acting`` False, a new deal), the other
    seats (random, or ``heuristic``) up to the learner's decision (``learner`` >= 0), the round's
    end and the new deal, and the next actor's observation and mask. With ``next_step`` the round's
    last observation goes to ``obs`` and the game waits in ``pending`` for its next step, which
    only observes the new deal. Returns -1, or a game whose deals all ended too soon."""
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    cards = np.empty(CODES, dtype=np.int64)
    n = code_of.shape[0]
    players = rewards.shape[1]
    header = o_hands(n)
    top = o_discard(n, cfg[C_DECK]) - 1
    for i in range(lo, hi):
        a = games[i]
        if i + 2 < hi:  # the game after next: its first slots, which say where the rest is
            for at in range(0, header, 8):
                prefetch(games[i + 2], at)
        if i + 1 < hi:  # the next game: the hand to act and the top of the discard pile
            hand = header + games[i + 1, S_CURRENT] * CODES
            for at in range(hand, hand + CODES, 8):
                prefetch(games[i + 1], at)
            prefetch(games[i + 1], top + games[i + 1, S_DISCARD_LEN])
        done[i] = False
        for p in range(players):
            rewards[i, p] = 0.0
        if acting and pending[i]:  # "next-step": this step is the reset, dealt on the last one
            pending[i] = False
            observe(cfg, a, actor[i], kind_of, offsets, obs[i])
            continue
        if acting and actions[i] < 0:
            continue  # this game sits the step out: its decision stays as it is
        report = acting
        if acting:
            p = actor[i]
            x = actions[i]
            if x == WAIT:
                q = queue[i] + 1
            else:
                apply_move(cfg, a, code_of[p, x])
                q = _open(cfg, a, windows)
            observer = learner if learner >= 0 else p
        else:
            _deal(cfg, a, n, streams, i, seeds)
            q = _open(cfg, a, windows)
            observer = 0
        deals = 0
        while True:
            if a[S_PHASE] >= ROUND_OVER:
                if report:
                    _round_rewards(cfg, a, reward_mode, rewards[i])
                    observe(cfg, a, observer, kind_of, offsets, obs[i] if next_step else final[i])
                    done[i] = True
                    report = False
                deals += 1
                if deals > _REDEALS:
                    return i
                _deal(cfg, a, n, streams, i, seeds)
                q = _open(cfg, a, windows)
            who, q, wait = _decide(cfg, a, q, buf, cards)
            if learner < 0 or who == learner:
                break
            if heuristic:
                code = _heuristic_code(cfg, a, who, streams, i, buf)
            else:
                x = _pick_legal(cfg, a, who, wait, play_index, other_index, buf, cards, streams, i)
                code = -1 if x == WAIT else code_of[who, x]
            if code < 0:
                q += 1
            else:
                apply_move(cfg, a, code)
                q = _open(cfg, a, windows)
        actor[i] = who
        waiting[i] = wait
        queue[i] = q
        mask_with(cfg, a, who, wait, play_index, other_index, masks[i], buf, cards)
        if next_step and done[i]:
            pending[i] = True  # obs[i] keeps the round's last observation until the next step
        else:
            observe(cfg, a, who, kind_of, offsets, obs[i])
    return -1
