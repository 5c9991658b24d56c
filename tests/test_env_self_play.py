"""Self-play (envs/policies.py, self_play.py, single_agent.py), the default step cap
(envs/step_cap.py) and scaled observations (envs/scaling.py): the frameworks' own checks in both
observation modes, policies played as bots, the opponent pool, the PettingZoo self-play loop and
the single-agent wrapper (PettingZoo's action-mask pattern under Gymnasium 1.x). Counts are
small: each game is capped with ``max_steps`` where random play could run long."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from budget import budget
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import unoengine as u  # noqa: E402
from unoengine.bots.turns import BotError  # noqa: E402
from unoengine.engine.limits import MAX_OPPONENTS  # noqa: E402
from unoengine.envs.actions import ActionError  # noqa: E402
from unoengine.envs.gymnasium import UnoEnv  # noqa: E402
from unoengine.envs.pettingzoo import env as pz_env  # noqa: E402
from unoengine.envs.pettingzoo import raw_env  # noqa: E402
from unoengine.envs.policies import OpponentPool, PolicyBot, register_policy  # noqa: E402
from unoengine.envs.self_play import random_policy, self_play  # noqa: E402
from unoengine.envs.single_agent import SingleAgentEnv  # noqa: E402
from unoengine.envs.step_cap import auto_agent_steps, auto_learner_steps  # noqa: E402
from unoengine.envs.table import round_rewards  # noqa: E402
from unoengine.tools import simulate  # noqa: E402


def first_legal(observation: Any, action_mask: Any) -> int:
    """A deterministic policy: the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])


def last_legal(observation: Any, action_mask: Any) -> int:
    return int(np.flatnonzero(action_mask)[-1])


def quiet_check_env(env: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's own notes (an unbounded Box when unscaled)
        check_env(env, skip_render_check=True)


# --- the step cap ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 5, 10])
def test_auto_cap_follows_the_player_count(n: int) -> None:
    """"auto" (the default) is the documented cap of that player count; None is no cap."""
    assert UnoEnv(num_players=n).max_steps == auto_learner_steps(n) == 10_000 * n
    assert raw_env(num_players=n).max_steps == auto_agent_steps(n) == 20_000 * n
    assert raw_env(num_players=n, match=True).max_steps == auto_agent_steps(n, match=True) == 20 * 20_000 * n
    assert UnoEnv(num_players=n, max_steps=None).max_steps is None
    assert raw_env(num_players=n, max_steps=None).max_steps is None
    assert UnoEnv(max_steps=7).max_steps == raw_env(max_steps=7).max_steps == 7


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "Auto", "none", [10]])
def test_bad_max_steps_names_the_field(bad: object) -> None:
    for make in (UnoEnv, raw_env, pz_env, SingleAgentEnv):
        with pytest.raises(ActionError, match="max_steps: expected 'auto', None or a positive int"):
            make(max_steps=bad)


@pytest.mark.parametrize("bad", [1, 0, "yes", None])
def test_bad_scaled_names_the_field(bad: object) -> None:
    for make in (UnoEnv, raw_env, pz_env, SingleAgentEnv):
        with pytest.raises(ActionError, match="scaled: expected True or False"):
            make(scaled=bad)


def test_auto_cap_truncates_a_round_that_never_ends() -> None:
    """Two policies that always take their lowest legal action (draw, then keep the card) never
    end a round: the discard pile is reshuffled into the draw pile for ever (PLAY-4). The default
    cap truncates it at exactly auto_agent_steps(2) = 40,000 steps, every agent truncated and
    rewarded 0."""
    e = raw_env(num_players=2)
    ep = self_play(e, first_legal, episodes=1, seed=0)[0]
    assert ep.truncated and ep.steps == auto_agent_steps(2) == 40_000
    assert all(t.truncated and not t.terminated for t in ep.trajectories.values())
    assert ep.returns == dict.fromkeys(e.possible_agents, 0.0)
    assert e.game_state.phase < u.Phase.ROUND_OVER


# --- scaled observations --------------------------------------------------------------------------
@pytest.mark.parametrize("scaled", [False, True])
def test_gymnasium_check_env(scaled: bool) -> None:
    env = UnoEnv(num_players=3, opponents="heuristic", scaled=scaled, max_steps=200)
    quiet_check_env(env)
    assert float(env.observation_space.high.max()) == (1.0 if scaled else 1740.0)


@pytest.mark.parametrize("scaled", [False, True])
def test_pettingzoo_api_test(scaled: bool) -> None:
    api_test(pz_env(num_players=3, scaled=scaled, max_steps=300), num_cycles=300)


def test_pettingzoo_seed_test_scaled() -> None:
    seed_test(lambda: pz_env(num_players=3, scaled=True, max_steps=300), num_cycles=100)


def test_scaled_is_unscaled_over_its_bound() -> None:
    plain, scaled = raw_env(num_players=4), raw_env(num_players=4, scaled=True)
    plain.reset(seed=5)
    scaled.reset(seed=5)
    high = plain.observations.high()
    for agent in plain.possible_agents:
        a, b = plain.observe(agent)["observation"], scaled.observe(agent)["observation"]
        assert np.allclose(b, np.minimum(a / high, 1.0))
        assert a.max() > 1.0  # the hand size (7) and draw pile: something was scaled


@settings(max_examples=budget(8, 60), deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6),
       profile=st.sampled_from(["classic-108", "gdj85+jump-in+stacking", "ffk04+seven-zero"]),
       match=st.booleans())
def test_scaled_features_stay_in_unit_interval(seed: int, n: int, profile: str, match: bool) -> None:
    """Every scaled feature of every agent stays in [0, 1] through random games (rounds or a
    match's first rounds), and in the space; and a count never needs clipping (the bounds hold)."""
    e = raw_env(profile=profile, num_players=n, scaled=True, match=match, max_steps=400)
    plain = raw_env(profile=profile, num_players=n, match=match, max_steps=400)
    high = plain.observations.high()
    space = e.observation_space("player_0")["observation"]
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    plain.reset(seed=seed)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        for other in e.possible_agents:
            x = e.observe(other)["observation"]
            assert x.min() >= 0.0 and x.max() <= 1.0 and space.contains(x)
            assert (plain.observe(other)["observation"] <= high).all()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        plain.step(action)


def test_gymnasium_scaled_over_random_games() -> None:
    env = UnoEnv(profile="classic-108+stacking", num_players=3, scaled=True, max_steps=300)
    rng = np.random.default_rng(1)
    for episode in range(budget(4, 40)):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = terminated or truncated


# --- policies as bots -----------------------------------------------------------------------------
def test_policy_bot_sees_what_the_env_shows() -> None:
    """A PolicyBot opponent is given the observation and the mask the environment would give
    that seat: the encoding of its view, and its legal moves (WAIT out of turn)."""
    seen = []

    def policy(observation: Any, action_mask: Any) -> int:
        table = env.table  # the env below, playing this policy at seat +1
        assert table is not None
        p = table.actor
        assert np.array_equal(observation, env.observations.encode_state(table.state, p))
        legal = env.encoding.legal_actions(table.moves(p), wait=table.may_wait)
        assert sorted(np.flatnonzero(action_mask).tolist()) == legal
        seen.append(p)
        return last_legal(observation, action_mask)

    env = UnoEnv(profile="classic-108+jump-in", num_players=3, opponents=[lambda: PolicyBot(policy), "heuristic"],
                 max_steps=100)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            done = terminated or truncated
    assert seen and set(seen) <= {(env.seat + 1) % 3}


def test_policy_bot_plays_in_simulate() -> None:
    """register_policy makes a policy a bot name for simulate and tournament: a policy that
    plays its lowest legal action gives the same games every run, each move legal."""
    register_policy("test-first-legal", first_legal)
    a = simulate.run("classic-108", ["test-first-legal", "heuristic"], games=4, seed=2, max_moves=2000)
    b = simulate.run("classic-108", ["test-first-legal", "heuristic"], games=4, seed=2, max_moves=2000)
    assert [(r.winner, r.moves) for r in a] == [(r.winner, r.moves) for r in b]
    standings, _ = simulate.tournament("classic-108", ["test-first-legal", "heuristic"], games=2, seed=1,
                                       max_moves=2000)
    assert {s.bot for s in standings} == {"test-first-legal", "heuristic"}


def test_policy_bot_refuses_an_illegal_action() -> None:
    state = u.new_game("classic-108", 2, seed=1)
    v = u.view(state, state.current)
    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]), name="bad")
    with pytest.raises(BotError, match=r"'bad'.*does not allow"):
        bot.act(v, random.Random(0))
    with pytest.raises(BotError, match="does not allow"):
        PolicyBot(lambda obs, mask: "draw").act(v, random.Random(0))
    move = PolicyBot(lambda obs, mask: np.array([np.flatnonzero(mask)[0]])).act(v, random.Random(0))
    assert move in v.legal_moves  # a one-element array, as model.predict gives


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"policy": 3}, "policy"), ({"policy": first_legal, "name": ""}, "name"),
    ({"policy": first_legal, "scaled": 1}, "scaled"),
])
def test_policy_bot_bad_arguments(kwargs: dict[str, Any], field: str) -> None:
    policy = kwargs.pop("policy")
    with pytest.raises(ActionError, match=f"^{field}: "):
        PolicyBot(policy, **kwargs)


# --- the opponent pool ----------------------------------------------------------------------------
def test_pool_is_bounded_and_drops_the_oldest_snapshot() -> None:
    pool = OpponentPool(["random"], max_size=3)
    names = [pool.add(first_legal) for _ in range(4)]
    assert names == ["snapshot-1", "snapshot-2", "snapshot-3", "snapshot-4"]
    assert pool.names == ["random", "snapshot-3", "snapshot-4"] and len(pool) == 3
    with pytest.raises(ActionError, match=r"max_size: expected an int 1\.\.256"):
        OpponentPool(max_size=MAX_OPPONENTS + 1)
    with pytest.raises(ActionError, match="bots: more than max_size 1"):
        OpponentPool(["random", "heuristic"], max_size=1)
    with pytest.raises(ActionError, match=r"bots\[1\]: unknown bot 'nobody'; known bots"):
        OpponentPool(["random", "nobody"])
    with pytest.raises(ActionError, match="fill its max_size"):
        OpponentPool(["random"], max_size=1).add(first_legal)
    with pytest.raises(ActionError, match=r"^policy: "):
        pool.add("not a policy")  # type: ignore[arg-type]
    assert MAX_OPPONENTS == 256


def test_gymnasium_env_draws_opponents_from_the_pool_by_seed() -> None:
    pool = OpponentPool(["random", "heuristic"])
    pool.add(first_legal, name="snap")
    env = UnoEnv(num_players=4, opponents=pool, max_steps=50)
    drawn = []
    for seed in range(12):
        env.reset(seed=seed)
        names = [b.name for b in env.bots if b is not None]
        env.reset(seed=seed)
        assert [b.name for b in env.bots if b is not None] == names  # from the seed
        drawn.extend(names)
    assert set(drawn) == {"random", "heuristic", "snap"}


# --- the self-play loop ---------------------------------------------------------------------------
def test_self_play_collects_every_agent() -> None:
    e = pz_env(profile="classic-108+jump-in", num_players=3, max_steps=600)
    policies = [random_policy(1), random_policy(2), first_legal]
    episodes = self_play(e, policies, episodes=3, seed=4)
    again = self_play(e, [random_policy(1), random_policy(2), first_legal], episodes=3, seed=4)
    assert [ep.returns for ep in episodes] == [ep.returns for ep in again]
    for ep in episodes:
        assert sum(len(t) for t in ep.trajectories.values()) == ep.steps
        assert abs(sum(ep.returns.values())) < 1e-9  # zero-sum, or 0 everywhere when truncated
        for agent, t in ep.trajectories.items():
            assert abs(sum(t.rewards) - ep.returns[agent]) < 1e-9
            assert len(t.observations) == len(t.masks) == len(t.rewards) == len(t)
            assert all(m[a] == 1 for m, a in zip(t.masks, t.actions, strict=True))
            assert t.terminated != t.truncated
    only = self_play(e, first_legal, episodes=1, seed=4, agents=["player_1"])
    assert list(only[0].trajectories) == ["player_1"]
    with pytest.raises(ActionError, match=r"^episodes: "):
        self_play(e, first_legal, episodes=0)
    with pytest.raises(ActionError, match=r"^policies: "):
        self_play(e, {"player_0": first_legal}, episodes=1)
    with pytest.raises(ActionError, match=r"^agents: "):
        self_play(e, first_legal, episodes=1, agents=["player_7"])


# --- the single-agent wrapper ---------------------------------------------------------------------
@pytest.mark.parametrize("scaled", [False, True])
def test_single_agent_env_passes_check_env(scaled: bool) -> None:
    env = SingleAgentEnv(opponents=["random", "heuristic"], num_players=3, scaled=scaled, max_steps=300)
    quiet_check_env(env)


def test_single_agent_env_plays_rounds_to_their_reward() -> None:
    pool = OpponentPool(["heuristic"])
    pool.add(random_policy(3))
    env = SingleAgentEnv(opponents=pool, num_players=3, profile="gdj85+jump-in")
    rng = np.random.default_rng(0)
    ended = 0
    for episode in range(budget(6, 60)):
        _, info = env.reset(seed=episode)
        first = (env.seat, [b.name for b in env.bots if b is not None])
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, info["action_mask"])
            _obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
        assert not env.action_masks().any()
        state = env.aec.game_state
        assert terminated and reward == round_rewards(state, "win")[env.seat]
        ended += 1
        env.reset(seed=episode)
        assert (env.seat, [b.name for b in env.bots if b is not None]) == first
    assert ended == budget(6, 60)
    with pytest.raises(gymnasium.error.ResetNeeded):
        SingleAgentEnv().step(0)


def test_single_agent_env_illegal_action_ends_with_minus_one() -> None:
    env = SingleAgentEnv(num_players=2, seat=1)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ActionError):
        env.reset(seed=2)
        env.step(10_000)
    with pytest.raises(ActionError, match=r"^seat: "):
        SingleAgentEnv(seat=5)
    with pytest.raises(ActionError, match=r"^opponents: "):
        SingleAgentEnv(opponents=3)  # type: ignore[arg-type]
