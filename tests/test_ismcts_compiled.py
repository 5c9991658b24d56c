"""ISMCTS on the compiled engine (bots/ismcts_compiled.py, issue 34): each part it runs compiled is
held to the reference search's own (the deal to the Determinizer's view, the searched moves to
``_decisions``, the playout's credit to ``ISMCTSBot._playout`` given the same tie draws), and the
bot plays whole games of legal moves, the same from the same seed."""

from __future__ import annotations

import random

import attrs
import numpy as np
import pytest

pytest.importorskip("numba")

from budget import budget
from compiled_games import compiled_profile, random_states

import unoengine as u
from unoengine.bots.determinize import Determinizer
from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.ismcts import ISMCTSBot, _decisions
from unoengine.bots.ismcts_compiled import _PLAYER_SHIFT, CompiledSearch, _Profiles
from unoengine.compiled import codes
from unoengine.compiled.codes import MAX_LEGAL, decode
from unoengine.compiled.config import UnsupportedRuleError, config_of
from unoengine.compiled.convert import to_array, to_state
from unoengine.compiled.kernel_policy import playout
from unoengine.compiled.kernel_search import decisions
from unoengine.engine.cards import COLOR_OF
from unoengine.engine.shuffling import MT19937
from unoengine.engine.splitmix import SplitMix64

SPECS = ("classic-108", "classic-108+jump-in", "classic-108+stacking+seven-zero", "mattel-42003+draw-to-match",
         "ffk04+stacking-cross+draw-to-match+uno-penalty-4")


class SplitMixUniform(random.Random):
    """``random()`` from the SplitMix64 stream the playout kernel breaks its ties with."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.stream = SplitMix64(seed)

    def random(self) -> float:
        return (self.stream.next() >> 11) / 2.0**53


def test_the_player_shift_is_the_codes() -> None:
    assert _PLAYER_SHIFT == codes.PLAYER_SHIFT


@pytest.mark.parametrize("spec", SPECS)
def test_decisions_and_playout_credit_equal_the_reference(spec: str) -> None:
    profile = compiled_profile(spec)
    cfg = config_of(profile)
    buffer = np.empty(MAX_LEGAL, dtype=np.int64)
    bot = ISMCTSBot(playout_moves=12)
    checked = 0
    for i, (state, _move) in enumerate(random_states(profile, budget(1, 20), seed=5, biased=True)):
        if state.phase >= u.Phase.ROUND_OVER or i % 2:
            continue
        a = to_array(state)
        k = decisions(cfg, a, buffer)
        assert [decode(int(c)) for c in buffer[:k]] == _decisions(state)
        seed = 1000 + i
        credit = np.zeros(state.num_players)
        playout(cfg, a, 12, seed, buffer, credit)
        expected = bot._playout(state, SplitMixUniform(seed))
        assert credit.tolist() == pytest.approx(expected, rel=1e-12, abs=1e-15), state
        checked += 1
    assert checked > 20


def _hidden(state: u.GameState, me: int) -> list[u.Card]:
    """The cards ``me`` does not see: the other hands and what is left of the draw pile."""
    return sorted([c for q, h in enumerate(state.hands) if q != me for c in h] + list(state.draw_pile[state.draw_pos:]))


@pytest.mark.parametrize("spec", SPECS)
def test_each_deal_is_a_state_of_the_players_view(spec: str) -> None:
    """The compiled deal keeps all the player sees and deals exactly the unseen cards (as the
    Determinizer's samples do)."""
    profile = compiled_profile(spec)
    cfg = config_of(profile)
    rng = random.Random(3)
    checked = 0
    for i, (state, _move) in enumerate(random_states(profile, budget(1, 10), seed=8, biased=True)):
        if state.phase >= u.Phase.ROUND_OVER or i % 7:
            continue
        me = state.current
        v = u.view(state, me)
        sampler = Determinizer(v, reach=20)
        plan = sampler.plan
        assert plan.exact
        search = CompiledSearch(v, cfg, sampler, plan, rng, 0.7, 1.0, 0.9, 10)
        unseen = _hidden(state, me)
        for _ in range(3):
            search._deal_once(rng)
            dealt = to_state(profile, search._a)
            assert u.view(dealt, me) == v
            assert _hidden(dealt, me) == unseen
            if dealt.challenge is not None:
                hand = dealt.hands[dealt.challenge.attacker]
                assert dealt.challenge.bluff == any(COLOR_OF[c] == dealt.challenge.color for c in hand)
        checked += 1
    assert checked > 3


def _play(profile: u.Profile, bot: ISMCTSBot, seed: int, players: int = 3) -> list[u.Move]:
    """One round of the bot (seat 0) against heuristic bots; every move passes through the
    checking ``apply``. The moves made."""
    state = u.new_game(profile, players, seed=seed)
    rng = random.Random(seed)
    other = HeuristicBot()
    made: list[u.Move] = []
    for _ in range(2000):
        if state.round_over:
            break
        moves = u.legal_moves(state)
        catch = [m for m in moves if isinstance(m, u.CatchUno)]
        if catch:
            move: u.Move | None = catch[0]
        else:
            p = state.current
            move = (bot if p == 0 else other).act(u.view(state, p), rng)
        move = move if move is not None else moves[0]
        made.append(move)
        state = u.apply(state, move)
    assert state.round_over
    return made


@pytest.mark.parametrize("backend", ["reference", "compiled"])
@pytest.mark.parametrize("spec", SPECS)
def test_whole_rounds_of_legal_moves(spec: str, backend: str) -> None:
    _play(compiled_profile(spec), ISMCTSBot(iterations=6, backend=backend), seed=21)


def test_the_same_seed_makes_the_same_moves() -> None:
    profile = compiled_profile("classic-108+jump-in")
    first = _play(profile, ISMCTSBot(iterations=10, backend="compiled"), seed=4)
    again = _play(profile, ISMCTSBot(iterations=10, backend="compiled"), seed=4)
    assert first == again


def test_a_profile_the_kernels_refuse_is_named() -> None:
    profile = attrs.evolve(u.load_profile("classic-108"), shuffle=MT19937)
    state = u.new_game(profile, 2, seed=1)
    while True:
        v = u.view(state, state.current)
        if len([m for m in v.legal_moves if m.player == v.player]) > 1:
            break
        state = u.apply(state, v.legal_moves[0])
    bot = ISMCTSBot(iterations=5, backend="compiled")
    with pytest.raises(UnsupportedRuleError, match=r'backend="compiled".*setup\.shuffle'):
        bot.act(v, random.Random(0))
    with pytest.raises(UnsupportedRuleError, match=r"setup\.shuffle"):
        _Profiles().config(profile)


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(u.UnoEngineError, match="backend"):
        ISMCTSBot(backend="gpu")


def _searched_view(spec: str, seed: int, players: int = 2) -> u.PlayerView:
    state = u.new_game(compiled_profile(spec), players, seed=seed)
    rng = random.Random(seed)
    bot = HeuristicBot()
    while True:
        v = u.view(state, state.current)
        own = [m for m in v.legal_moves if m.player == v.player]
        if len(own) > 2 and not any(isinstance(m, (u.CatchUno, u.CallUno)) for m in own):
            return v
        move = bot.act(v, rng)
        state = u.apply(state, move if move is not None else u.legal_moves(state)[0])


@pytest.mark.parametrize("spec", SPECS[:3])
def test_the_compiled_tree_counts_every_iteration(spec: str) -> None:
    """compiled/kernel_tree.py: the root is visited once an iteration, each through one child;
    no node more often than it was available, nor credited more than once a visit."""
    v = _searched_view(spec, seed=12)
    cfg = config_of(v.profile)
    sampler = Determinizer(v, reach=20)
    search = CompiledSearch(v, cfg, sampler, sampler.plan, random.Random(2), 0.7, 1.0, 0.9, 10)
    from unoengine.compiled import kernel_tree as t

    nodes, values = t.new_tree(101)
    params = np.array([0.7, 1.0, 0.9, 10, -1, 0], dtype=np.float64)
    used = t.search(cfg, search._template, search._a, search._fixed, search._arrangement, search._plan,
                    search._buffer, search._credit, nodes, values, 1, params, 100, 99)
    assert 2 <= used <= 101
    assert nodes[t.F_VISITS, 0] == 100
    for i in range(used):
        children = []
        c = nodes[t.F_CHILD, i]
        while c >= 0:
            children.append(c)
            c = nodes[t.F_SIBLING, c]
        assert sum(nodes[t.F_VISITS, c] for c in children) <= nodes[t.F_VISITS, i]
        if i:
            assert 1 <= nodes[t.F_VISITS, i] <= nodes[t.F_AVAIL, i]
            assert 0.0 <= values[t.V_WINS, i] <= nodes[t.F_VISITS, i]
    assert sum(nodes[t.F_VISITS, c] for c in range(1, used) if _parent(nodes, c, t) == 0) == 100


def _parent(nodes: np.ndarray, child: int, t: object) -> int:
    for i in range(nodes.shape[1]):
        c = nodes[t.F_CHILD, i]  # type: ignore[attr-defined]
        while c >= 0:
            if c == child:
                return i
            c = nodes[t.F_SIBLING, c]  # type: ignore[attr-defined]
    return -1


def test_a_budgeted_search_grows_its_tree_round_by_round() -> None:
    """The search with a budget (``more``) runs rounds of compiled iterations until told to stop,
    growing the tree arrays as it goes."""
    v = _searched_view("classic-108", seed=3)
    sampler = Determinizer(v, reach=20)
    search = CompiledSearch(v, config_of(v.profile), sampler, sampler.plan, random.Random(5), 0.7, 1.0, 0.9, 10)
    asked = []

    def more() -> bool:
        asked.append(1)
        return len(asked) < 6

    own = [m for m in v.legal_moves if m.player == v.player]
    move = search.run(own, None, 0, random.Random(5), more)
    assert move in own
    assert len(asked) == 6  # six rounds of ROUND iterations, the tree grown past its first size


def test_without_numba_the_compiled_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(u, "compiled", sys.modules["unoengine.compiled"], raising=False)  # restored after
    for name in [m for m in sys.modules if m == "numba" or m.startswith(("numba.", "unoengine.compiled"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now raises ImportError
    with pytest.raises(u.UnoEngineError, match=r'backend="compiled".*pip install.*fast'):
        ISMCTSBot(backend="compiled")
    ISMCTSBot()  # the reference backend needs no extra
