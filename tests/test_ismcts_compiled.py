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
    for i, (state, _move) in enumerate(random_states(profile, budget(2, 20), seed=5, biased=True)):
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
