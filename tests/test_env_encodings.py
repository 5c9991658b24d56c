"""The shared action and observation encodings of unoengine.envs, against the engine.

Action table: for random states under every shipped profile and every overlay, each player's
legal actions are exactly the engine's legal moves for that player, every legal move has exactly
one index, and ``index``/``move`` are inverse over the whole table (seats relative to the actor:
UNO-2 catches, ACT-7 / HOUSE-3 / ACT-8 targets, ACT-4 colours, UNO-1 calls, HOUSE-1 stacking
answers, HOUSE-2 jump-ins). Observations: built from the view alone, so two states that differ only
in what the player cannot see give byte-identical vectors.
"""

from __future__ import annotations

import functools
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest
from budget import budget
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine.envs.actions import WAIT, ActionEncoding, ActionError
from unoengine.envs.observations import ObservationEncoding
from unoengine.testing import states
from unoengine.testing.checks import resample_hidden

SPECS = [*u.shipped_profiles(), *(f"classic-108+{o}" for o in u.shipped_overlays()),
         "gdj85+seven-zero+jump-in+stacking-cross", "ffk04+stacking-no-mercy+draw-to-match"]


@functools.cache
def actions(spec: str, n: int) -> ActionEncoding:
    return ActionEncoding(u.load_profile(spec), n)


@functools.cache
def observations(spec: str, n: int) -> ObservationEncoding:
    return ObservationEncoding(u.load_profile(spec), n)


def random_states(spec: str, n: int, seed: int, every: int = 7) -> list[u.GameState]:
    """States along one random round (play-biased so rounds end), every ``every`` moves."""
    rng = random.Random(f"{spec}/{n}/{seed}")
    state = u.new_game(spec, n, seed=seed)
    out = [state]
    moves = 0
    while not state.round_over and moves < 2500:
        legal = u.legal_moves(state)
        plays = [m for m in legal if type(m) is u.Play]
        state = u.apply(state, rng.choice(plays if plays and rng.random() < 0.75 else legal))
        moves += 1
        if moves % every == 0 or state.uno_exposed >= 0:
            out.append(state)
    return [*out, state]


def check_mask_is_legal_moves(enc: ActionEncoding, state: u.GameState) -> None:
    for p in range(state.num_players):
        v = u.view(state, p)
        legal = enc.legal_actions(v.legal_moves)
        assert len(legal) == len(set(legal)) == len(v.legal_moves), f"two moves share an index: {v.legal_moves}"
        assert {enc.move(i, p) for i in legal} == set(v.legal_moves)
        mask = enc.mask(v)
        assert [i for i, bit in enumerate(mask) if bit] == legal
        assert WAIT not in legal
        waiting = enc.mask(v, wait=True)
        assert waiting[WAIT] == 1 and sum(waiting) == len(legal) + 1


@pytest.mark.parametrize("spec", SPECS)
def test_mask_equals_the_engines_legal_moves(spec: str) -> None:
    """UNO-1..6, ACT-4, ACT-7, ACT-8, HOUSE-1..3, WD4-3, SETUP-8: every legal move of every player has
    exactly one action, and the mask is exactly those actions, along random rounds."""
    seen = 0
    for n in (2, 3, 4, 7, 10):
        enc = actions(spec, n)
        for seed in range(budget(2, 12)):
            for state in random_states(spec, n, seed):
                check_mask_is_legal_moves(enc, state)
                seen += 1
    assert seen > 100


@settings(max_examples=budget(60, 400), deadline=None)
@given(state=states(max_moves=200))
def test_mask_on_hypothesis_states(state: u.GameState) -> None:
    """The same on states hypothesis draws from random profile compositions (and shrinks)."""
    check_mask_is_legal_moves(ActionEncoding(state.profile, state.num_players), state)


@pytest.mark.parametrize(("spec", "n"), [("classic-108", 2), ("gdj85+seven-zero", 4), ("ffk04", 10)])
def test_index_and_move_are_inverse_over_the_table(spec: str, n: int) -> None:
    """Every action of every seat is a distinct move, whose index is the action (WAIT is None)."""
    enc = actions(spec, n)
    for p in range(n):
        made = [enc.move(i, p) for i in range(enc.size)]
        assert made[WAIT] is None
        assert all(m is not None and m.player == p for m in made[1:])
        assert len(set(made[1:])) == enc.size - 1
        assert [enc.index(m) for m in made] == list(range(enc.size))


def test_seats_are_relative_to_the_actor() -> None:
    """UNO-2: the same action catches the next seat whoever acts; ACT-7 targets likewise."""
    enc = actions("ffk04", 4)
    catch_next = enc.index(u.CatchUno(0, 1))
    assert [enc.move(catch_next, p) for p in range(4)] == [u.CatchUno(p, (p + 1) % 4) for p in range(4)]
    assert enc.describe(catch_next) == "catch-uno +1"
    swap = enc.index(u.Play(2, u.WILD_SWAP_HANDS, u.Color.RED, target=1))
    assert enc.describe(swap) == "play WSW:R >+3"
    assert enc.move(swap, 0) == u.Play(0, u.WILD_SWAP_HANDS, u.Color.RED, target=3)


def test_table_size_follows_the_profile_and_players() -> None:
    """DECK-1..5: one play per card kind in the deck; targets per other seat; ACT-4 four colours."""
    assert actions("classic-108", 2).size == 11 + 1 + 52 * 2 + 2 * 4 * 2
    assert actions("classic-108", 4).size == actions("classic-108", 2).size + 2  # two more catch seats
    seven_zero = actions("classic-108+seven-zero", 4)
    assert seven_zero.size == actions("classic-108", 4).size + 4 * 2 * (3 - 1)  # each 7 names one of 3 seats


def test_bad_indices_and_moves_name_the_problem() -> None:
    enc = actions("classic-108", 3)
    for bad in (-1, enc.size, 2.0, "3", True, None):
        with pytest.raises(ActionError, match="action: expected an index"):
            enc.move(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match=r"player: expected a seat 0\.\.2"):
        enc.move(1, 3)
    with pytest.raises(ActionError, match="has no action"):
        enc.index(u.CatchUno(0, 0))
    with pytest.raises(ActionError, match="num_players"):
        ActionEncoding(u.load_profile("classic-108"), 11)
    assert isinstance(ActionError("x"), u.UnoEngineError)
    assert enc.move(np.int64(1), 0) == u.Draw(0)
    with pytest.raises(ActionError, match="action: expected an index"):
        enc.move(np.array([1, 2]), 0)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="has no action"):
        enc.legal_actions([u.Draw(0), u.CatchUno(1, 1)])


def test_observation_layout_is_contiguous_and_bounded() -> None:
    for spec, n in [("classic-108", 2), ("gdj85+jump-in", 6), ("mattel-42003", 10)]:
        enc = observations(spec, n)
        offset = 0
        for segment in enc.layout:
            assert segment.offset == offset and segment.length > 0
            offset += segment.length
        assert offset == enc.size
        high = enc.high()
        for state in random_states(spec, n, 1, every=3):
            for p in range(n):
                v = u.view(state, p)
                obs = enc.encode(v)
                assert obs.shape == (enc.size,) and obs.dtype == np.float32
                assert (obs >= 0).all() and (obs <= high).all()
                hand = enc.segment("hand")
                assert obs[hand.offset:hand.offset + hand.length].sum() == len(v.hand)
                sizes = enc.segment("hand_sizes")
                assert obs[sizes.offset] == len(v.hand)
                assert obs[enc.segment("phase").offset + v.phase] == 1


@pytest.mark.parametrize("spec", ["classic-108", "gdj85+seven-zero+jump-in", "ffk04+stacking", "mattel-42003"])
def test_observations_hide_what_the_player_cannot_see(spec: str) -> None:
    """Two states that differ only in hidden cards (other hands, the draw pile, what others know)
    give byte-identical observations; a visible difference (one's own hand) does not."""
    rng = random.Random(spec)
    checked = 0
    for n in (2, 4, 6):
        enc = observations(spec, n)
        for state in random_states(spec, n, 5, every=5):
            if state.round_over:
                continue
            for p in range(n):
                twin = resample_hidden(state, p, rng)
                assert enc.encode(u.view(twin, p)).tobytes() == enc.encode(u.view(state, p)).tobytes()
                checked += 1
    assert checked > 50


def test_observation_changes_with_the_own_hand() -> None:
    """The vector does show what the player may see: another own hand gives another vector."""
    enc = observations("classic-108", 2)
    a = u.from_position("classic-108", [["R1", "G2"], ["B3"]], ["R5"])
    b = u.from_position("classic-108", [["R1", "G3"], ["B3"]], ["R5"])
    assert enc.encode(u.view(a, 0)).tobytes() != enc.encode(u.view(b, 0)).tobytes()
    assert enc.encode(u.view(a, 1)).tobytes() == enc.encode(u.view(b, 1)).tobytes()


def test_the_action_table_needs_no_numpy() -> None:
    """The index <-> move mapping is plain Python: importing it loads no numpy or framework."""
    code = (
        "import sys, unoengine, unoengine.envs.actions, unoengine.envs.table\n"
        "bad = [m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_unpickled_action_table_finds_this_process_moves() -> None:
    """An action table pickled in one process and loaded in another (a vectorised environment's
    worker) is made anew there: its lookup by object id holds that process's own move objects,
    not ids left over from the process that wrote it, which could name any object there."""
    enc = actions("gdj85+seven-zero+jump-in+stacking-cross", 4)
    code = (
        "import pickle, sys, unoengine as u\n"
        "enc = pickle.loads(sys.stdin.buffer.read())\n"
        "state = u.new_game(enc.profile, 4, seed=3)\n"
        "hits = wrong = 0\n"
        "for _ in range(200):\n"
        "    if state.round_over:\n"
        "        break\n"
        "    moves = u.legal_moves(state)\n"
        "    hits += sum(id(m) in enc._by_id for m in moves) == len(moves)\n"
        "    wrong += sum(enc._by_id.get(id(m)) != enc.index(m) for m in moves)\n"
        "    state = u.apply(state, moves[len(moves) // 2])\n"
        "print(hits, wrong)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(enc), capture_output=True, check=True)
    hits, wrong = map(int, out.stdout.split())
    assert hits > 100 and wrong == 0


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=budget(10, 60), deadline=None)
def test_observation_depends_only_on_the_view(seed: int) -> None:
    """Same view, same bytes: the encoding reads nothing but the view."""
    state = u.new_game("gdj85+stacking", 3, seed=seed)
    enc = observations("gdj85+stacking", 3)
    v = u.view(state, 1)
    assert enc.encode(v).tobytes() == enc.encode(u.view(state, 1)).tobytes()


@pytest.mark.parametrize("spec", SPECS)
def test_the_state_fast_path_equals_the_views_encoding(spec: str) -> None:
    """``encode_state(state, p)`` (what the environments call every step) is ``encode(view(state, p))``
    byte for byte, for every player of random states under every shipped profile and overlay, in
    the order a game visits them (so the discard pile's carried counts are exercised) and shuffled
    (so they are rebuilt)."""
    profile = u.load_profile(spec)
    checked = 0
    for n in sorted({max(2, profile.min_players), min(profile.max_players, 4)}):
        fast, slow = ObservationEncoding(profile, n), ObservationEncoding(profile, n)
        visited = random_states(spec, n, 11, every=1)[: budget(120, 2000)]
        shuffled = random.Random(spec).sample(visited, len(visited))
        for state in [*visited, *shuffled]:
            for p in range(n):
                assert fast.encode_state(state, p).tobytes() == slow.encode(u.view(state, p)).tobytes()
                checked += 1
    assert checked > 200


@settings(max_examples=budget(60, 400), deadline=None)
@given(state=states(max_moves=200), data=st.data())
def test_the_state_fast_path_on_hypothesis_states(state: u.GameState, data: st.DataObject) -> None:
    n = len(state.hands)
    enc = ObservationEncoding(state.profile, n)
    p = data.draw(st.integers(0, n - 1))
    assert enc.encode_state(state, p).tobytes() == enc.encode(u.view(state, p)).tobytes()


def test_the_state_fast_path_in_a_match_shows_the_scores() -> None:
    """Later rounds of a match (SCORE-2): scores are not all 0, and the fast path still equals the
    view's encoding; the vector is float32 and the caller's to change."""
    rng = random.Random(5)
    enc, slow = observations("classic-108", 3), observations("classic-108", 3)
    state, scored = u.new_game("classic-108", 3, seed=5), 0
    for _ in range(3000):
        legal = u.legal_moves(state)
        plays = [m for m in legal if type(m) is u.Play]
        state = u.apply(state, rng.choice(plays if plays and rng.random() < 0.75 else legal))
        if any(state.match.scores):
            scored += 1
            for p in range(3):
                fast = enc.encode_state(state, p)
                assert fast.tobytes() == slow.encode(u.view(state, p)).tobytes()
                assert fast.dtype == np.float32 and fast.flags.writeable
        if state.match.winner is not None:
            break
    assert scored > 100


def test_the_state_fast_path_hides_what_the_player_cannot_see() -> None:
    rng = random.Random(3)
    for spec in ("classic-108", "gdj85+seven-zero+jump-in"):
        enc = observations(spec, 4)
        for state in random_states(spec, 4, 5, every=5):
            if state.round_over:
                continue
            for p in range(4):
                twin = resample_hidden(state, p, rng)
                assert enc.encode_state(twin, p).tobytes() == enc.encode_state(state, p).tobytes()


def test_the_state_fast_path_refuses_another_game() -> None:
    enc = observations("classic-108", 2)
    with pytest.raises(ActionError, match="state: of another game"):
        enc.encode_state(u.new_game("classic-108", 3, seed=1), 0)
    with pytest.raises(ActionError, match=r"player: expected a seat 0\.\.1"):
        enc.encode_state(u.new_game("classic-108", 2, seed=1), 2)
