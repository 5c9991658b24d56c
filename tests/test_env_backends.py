"""``backend="compiled"`` of the Gymnasium and PettingZoo envs (envs/compiled_backend.py, issue 34):
the framework checks on the compiled backend, and the two backends in lockstep (the same seed
and actions give identical observations, masks, rewards, terminations and infos) over random
episodes of every profile and overlay of tests/compiled_games.py, with the shipped bots as
opponents; what it refuses, by name."""

from __future__ import annotations

import copy
import random
import sys

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import attrs  # noqa: E402
from budget import budget  # noqa: E402
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import unoengine as u  # noqa: E402
from unoengine.compiled.config import UnsupportedRuleError  # noqa: E402
from unoengine.envs.actions import ActionError  # noqa: E402
from unoengine.envs.extras import MissingExtraError  # noqa: E402
from unoengine.envs.gymnasium import UnoEnv  # noqa: E402
from unoengine.envs.pettingzoo import env as aec_env  # noqa: E402
from unoengine.envs.pettingzoo import raw_env  # noqa: E402


def _same(x: object, y: object) -> bool:
    """Equal values, arrays compared element by element (and by dtype)."""
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and x.dtype == y.dtype and x.tobytes() == y.tobytes()
    if isinstance(x, dict):
        return isinstance(y, dict) and x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    return type(x) is type(y) and x == y


# --- the frameworks' own checks ------------------------------------------------------------------
def test_gymnasium_check_env_on_the_compiled_backend() -> None:
    env = UnoEnv("classic-108+jump-in", 3, opponents="random", backend="compiled")
    check_env(env, skip_render_check=True)
    assert env.backend.name == "compiled"


@pytest.mark.parametrize(("spec", "players", "out_of_turn"), [("classic-108", 2, "windows"),
                                                             ("classic-108+jump-in+stacking", 4, "windows"),
                                                             ("mattel-42003+seven-zero", 3, "turn-only")])
def test_pettingzoo_api_test_on_the_compiled_backend(spec: str, players: int, out_of_turn: str) -> None:
    e = aec_env(profile=spec, num_players=players, out_of_turn=out_of_turn, max_steps=3000, backend="compiled")
    e.reset(seed=1)
    for agent in e.possible_agents:
        e.action_space(agent).seed(7)
    api_test(e, num_cycles=budget(300, 2000))


# --- lockstep: the two backends, step for step -----------------------------------------------------
def _gym_lockstep(profile: u.Profile, players: int, opponents: str, out_of_turn: str, episodes: int,
                  seed: int) -> int:
    """Both backends of the Gymnasium env, the same seeds and random legal actions; the steps compared."""
    seat: object = "random"
    kw = {"opponents": opponents, "out_of_turn": out_of_turn, "seat": seat, "reward": "points", "max_steps": 150}
    ref = UnoEnv(profile, players, **kw)  # (long rounds, draw-to-match ones, are truncated: compared too)
    fast = UnoEnv(profile, players, backend="compiled", **kw)
    rng = random.Random(seed)
    steps = 0
    for episode in range(episodes):
        obs_a, info_a = ref.reset(seed=seed * 1000 + episode)
        obs_b, info_b = fast.reset(seed=seed * 1000 + episode)
        while True:
            assert _same(obs_a, obs_b) and _same(info_a, info_b), (episode, steps, info_a, info_b)
            assert ref.action_masks().tobytes() == fast.action_masks().tobytes()
            assert ref.last_moves == fast.last_moves
            action = rng.choice(np.flatnonzero(info_a["action_mask"]).tolist())
            a, b = ref.step(action), fast.step(action)
            steps += 1
            obs_a, info_a, obs_b, info_b = a[0], a[4], b[0], b[4]
            assert a[1:4] == b[1:4], (episode, steps)
            if a[2] or a[3]:
                assert _same(obs_a, obs_b) and _same(info_a, info_b)
                break
    return steps


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_gymnasium_backends_in_lockstep(spec: str, changes: dict[str, object]) -> None:
    profile = compiled_profile(spec, **changes)
    players = min(profile.max_players, 3)
    steps = _gym_lockstep(profile, players, "random", "windows", budget(3, 40), seed=11)
    assert steps > 10


@pytest.mark.parametrize(("spec", "opponents", "out_of_turn", "players"), [
    ("classic-108", "heuristic", "windows", 4),
    ("classic-108+jump-in+stacking+seven-zero", "heuristic", "windows", 3),
    ("mattel-42003+draw-to-match", "random", "turn-only", 2),
    ("gdj85+jump-in+forced-play+wd4-unrestricted", "heuristic", "turn-only", 5),
])
def test_gymnasium_backends_in_lockstep_with_heuristic_bots(spec: str, opponents: str, out_of_turn: str,
                                                            players: int) -> None:
    steps = _gym_lockstep(compiled_profile(spec), players, opponents, out_of_turn, budget(3, 40), seed=3)
    assert steps > 10


def _aec_lockstep(profile: u.Profile, players: int, out_of_turn: str, match: bool, episodes: int, seed: int) -> int:
    kw = {"profile": profile, "num_players": players, "out_of_turn": out_of_turn, "match": match,
          "reward": "points", "max_steps": 600}
    ref = raw_env(**kw)
    fast = raw_env(backend="compiled", **kw)
    rng = random.Random(seed)
    steps = 0
    for episode in range(episodes):
        ref.reset(seed=seed * 1000 + episode)
        fast.reset(seed=seed * 1000 + episode)
        while True:
            assert ref.agent_selection == fast.agent_selection
            for agent in ref.possible_agents:
                assert _same(ref.observe(agent), fast.observe(agent)), (episode, steps, agent)
            a, b = ref.last(), fast.last()
            assert _same(a[0], b[0]) and a[1:] == b[1:], (episode, steps)
            assert ref.rewards == fast.rewards and ref.infos == fast.infos
            assert ref.terminations == fast.terminations and ref.truncations == fast.truncations
            if a[2] or a[3]:
                break
            action = rng.choice(a[4]["legal_actions"])
            ref.step(action)
            fast.step(action)
            steps += 1
        assert ref.game_state == fast.game_state
    return steps


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_pettingzoo_backends_in_lockstep(spec: str, changes: dict[str, object]) -> None:
    profile = compiled_profile(spec, **changes)
    steps = _aec_lockstep(profile, min(profile.max_players, 4), "windows", False, budget(2, 30), seed=5)
    assert steps > 10


def test_pettingzoo_backends_in_lockstep_through_a_match() -> None:
    quick = attrs.evolve(compiled_profile("mattel-42003+jump-in+one-point-per-round"), target_score=3)
    steps = _aec_lockstep(quick, 3, "windows", True, budget(2, 10), seed=9)
    assert steps > 100
    steps = _aec_lockstep(compiled_profile("ffk04+stacking-cross"), 3, "turn-only", False, budget(2, 10), seed=4)
    assert steps > 10


def test_pettingzoo_compiled_env_copies_and_starts_from_a_state() -> None:
    fast = raw_env(num_players=3, backend="compiled")
    fast.reset(seed=3)
    twin = copy.deepcopy(fast)
    assert twin.backend.name == "compiled" and twin.game_state == fast.game_state
    action = fast.last()[4]["legal_actions"][0]
    twin.step(action)
    fast.step(action)
    assert twin.game_state == fast.game_state
    start = fast.game_state
    ref = raw_env(num_players=3)
    ref.reset(options={"state": start})
    fast.reset(options={"state": start})
    assert _same(ref.last()[0], fast.last()[0]) and ref.last()[4] == fast.last()[4]


# --- what it refuses -------------------------------------------------------------------------------
def test_an_unknown_backend_is_refused_by_name() -> None:
    with pytest.raises(ActionError, match="backend: expected one of reference, compiled, got 'gpu'"):
        UnoEnv(backend="gpu")
    with pytest.raises(ActionError, match="backend"):
        raw_env(backend=1)


def test_a_profile_the_kernels_refuse_is_refused_at_construction_naming_the_rule() -> None:
    legacy = attrs.evolve(u.load_profile("classic-108"), shuffle="mt19937")
    for make in (lambda: UnoEnv(legacy, backend="compiled"), lambda: raw_env(profile=legacy, backend="compiled")):
        with pytest.raises(UnsupportedRuleError, match=r"setup\.shuffle = 'mt19937' is not compiled"):
            make()
    UnoEnv(legacy)  # the reference backend plays it


def test_the_compiled_backend_without_numba_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now raises ImportError
    with pytest.raises(MissingExtraError, match=r"numba is not installed: .*fast"):
        UnoEnv(backend="compiled")
    UnoEnv()  # the reference backend needs no numba
