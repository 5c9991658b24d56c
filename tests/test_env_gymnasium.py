"""The Gymnasium adapter (``unoengine.envs.gymnasium``) against real Gymnasium: its own API checker,
registration, the learner's masks against the engine's legal moves, illegal actions, truncation,
determinism, and a heuristic learner that wins through the environment."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from budget import budget
from helpers_envs import BAD_SEEDS, any_value, value_id
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import unoengine as u  # noqa: E402
from unoengine.bots import HeuristicBot, ISMCTSBot  # noqa: E402
from unoengine.bots.base import known_bots_text  # noqa: E402
from unoengine.envs.actions import WAIT, ActionError  # noqa: E402
from unoengine.envs.gymnasium import ENTRY_POINT, ENV_ID, UnoEnv, register_env  # noqa: E402
from unoengine.envs.table import round_rewards  # noqa: E402

INFINITE_BOX = ".*observation space maximum value is infinity"
"""The one warning ``check_env`` gives: the shared encoding leaves scores and the pending draw unbounded."""


def checked(env: Any, *, skip_render_check: bool = False) -> None:
    """``check_env`` with every warning an error but the unbounded Box."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=INFINITE_BOX)
        check_env(env, skip_render_check=skip_render_check)


def legal_set(env: UnoEnv) -> set[int]:
    """The learner's legal actions worked out from the engine alone: its view's legal moves, with
    WAIT when it decides out of turn (it is not the player to act)."""
    assert env.table is not None
    v = u.view(env.table.state, env.seat)
    out = {env.encoding.index(m) for m in v.legal_moves}
    if v.current != env.seat:
        out.add(WAIT)
    return out


def mask_set(mask: Any) -> set[int]:
    return {int(i) for i in np.flatnonzero(mask)}


# --- Gymnasium's checker ------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [
    {},
    {"num_players": 4},
    {"profile": "gdj85+jump-in+stacking+seven-zero", "num_players": 3},
    {"opponents": "heuristic", "num_players": 3},
    {"out_of_turn": "turn-only", "num_players": 4, "opponents": "heuristic"},
    {"profile": "classic-108+jump-in", "seat": "random", "reward": "points", "num_players": 3, "max_steps": 50},
], ids=["2p", "4p", "house-rules", "heuristic", "turn-only", "random-seat-points"])
def test_check_env(kwargs: dict[str, Any]) -> None:
    """Made through the registry, so the checker also makes one environment per render mode."""
    checked(gymnasium.make(ENV_ID, **kwargs).unwrapped)


def test_check_env_without_the_registry() -> None:
    """Without a spec the checker cannot make the other render modes, so it checks no rendering."""
    checked(UnoEnv(num_players=3, opponents=["heuristic", "random"], out_of_turn="turn-only"), skip_render_check=True)


# --- registration -------------------------------------------------------------------------------
def test_registration_is_idempotent() -> None:
    spec = gymnasium.spec(ENV_ID)
    assert spec.entry_point == ENTRY_POINT and spec.namespace == "unoengine"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Overriding environment" warning
        register_env()
        register_env()
    assert gymnasium.spec(ENV_ID) is spec


def test_module_prefixed_id() -> None:
    env = gymnasium.make("unoengine.envs.gymnasium:unoengine/UNO-v0", num_players=4)
    obs, _ = env.reset(seed=2)
    assert env.unwrapped.num_players == 4 and obs.shape == env.observation_space.shape


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_module_prefixed_id_in_a_fresh_interpreter() -> None:
    """Gymnasium 1.x loads no plugin entry points: the module-prefixed id imports the module."""
    out = run(
        "import gymnasium\n"
        "env = gymnasium.make('unoengine.envs.gymnasium:unoengine/UNO-v0', num_players=3, opponents='heuristic')\n"
        "obs, info = env.reset(seed=0)\n"
        "print(env.unwrapped.num_players, type(env.unwrapped).__name__)\n"
    )
    assert out == "3 UnoEnv"


def test_import_envs_without_gymnasium() -> None:
    out = run("import sys, unoengine.envs\nprint([m for m in ('gymnasium', 'numpy') if m in sys.modules])")
    assert out == "[]"


# --- episodes through gymnasium.make --------------------------------------------------------------
def play(env: Any, seed: int, rng: random.Random, actions: list[int] | None = None) -> list[tuple[Any, ...]]:
    """One episode with random legal actions (or the given ones): every step's data."""
    obs, info = env.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs, info["action_mask"])]
    k = 0
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"]))) if actions is None else actions[k]
        k += 1
        obs, reward, terminated, truncated, info = env.step(a)
        out.append((a, obs, reward, terminated, truncated, info["action_mask"]))
        if terminated or truncated:
            return out


def same(a: Sequence[Any], b: Sequence[Any]) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True)
    )


def test_make_plays_rounds_to_the_end_deterministically() -> None:
    env = gymnasium.make(ENV_ID, num_players=3, opponents="heuristic")
    rng = random.Random(5)
    for seed in range(4):
        first = play(env, seed, rng)
        *_, (_, _, reward, terminated, truncated, mask) = first
        assert terminated and not truncated and not mask.any()
        assert reward in (1.0, -0.5)
        again = play(env, seed, rng, [row[0] for row in first[1:]])
        assert same(first, again)
    assert not np.array_equal(env.reset(seed=0)[0], env.reset(seed=1)[0])


# --- illegal actions ------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["masked", "too-big", -1, 1.5, True, "array"])
def test_an_illegal_action_ends_the_episode_with_the_penalty(bad: object) -> None:
    env = UnoEnv(num_players=3, illegal_penalty=-3.0)
    obs, info = env.reset(seed=9)
    assert env.table is not None
    state = env.table.state
    action: object = {
        "masked": int(np.flatnonzero(~info["action_mask"])[0]),
        "too-big": env.action_space.n,
        "array": np.array([1]),
    }.get(bad, bad)  # type: ignore[call-overload]
    obs2, reward, terminated, truncated, info2 = env.step(action)  # type: ignore[arg-type]
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-3.0, True, False, True)
    assert env.table.state is state and np.array_equal(obs, obs2)  # nothing was played
    assert not env.action_masks().any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(1)


def test_illegal_action_raise_mode_changes_nothing() -> None:
    env = UnoEnv(illegal_action="raise")
    _, info = env.reset(seed=4)
    assert env.table is not None
    state = env.table.state
    with pytest.raises(ActionError):
        env.step(int(np.flatnonzero(~info["action_mask"])[0]))
    assert env.table.state is state
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not info["illegal_action"]


# --- a random masked agent: masks, windows, observations and rewards against the engine ---------
AGENT_CASES = [
    ("classic-108+forced-play", 2, "windows", "win", "random", 0, 60),
    ("classic-108", 2, "turn-only", "points", "heuristic", "random", 30),
    ("gdj85+jump-in+stacking+seven-zero", 3, "windows", "points", "random", "random", 8),
    ("classic-108+wd4-enforced+uno-penalty-4", 3, "windows", "win", "heuristic", 1, 30),
    ("classic-108+jump-in+stacking", 4, "windows", "win", "heuristic", "random", 30),
    ("mattel-42003", 4, "turn-only", "win", "random", 2, 12),
    ("ffk04+jump-in", 3, "windows", "win", ["heuristic", "random"], 1, 20),
]


@pytest.mark.parametrize(("profile", "n", "out_of_turn", "reward", "opponents", "seat", "episodes"), AGENT_CASES,
                         ids=[f"{c[0]}-{c[1]}p-{c[2]}" for c in AGENT_CASES])
def test_random_masked_agent(
    profile: str, n: int, out_of_turn: Any, reward: Any, opponents: Any, seat: Any, episodes: int
) -> None:
    env = UnoEnv(profile, n, opponents=opponents, seat=seat, reward=reward, out_of_turn=out_of_turn)
    rng = random.Random(n)
    windows = waits = 0
    for episode in range(episodes):
        obs, info = env.reset(seed=1000 + episode)
        while True:
            assert env.table is not None and env.table.actor == env.seat
            mask = info["action_mask"]
            assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
            assert mask_set(mask) == legal_set(env) == mask_set(env.action_masks())
            v = env.learner_view()
            assert info["window"] == (v.current != env.seat) == bool(mask[WAIT])
            assert out_of_turn == "windows" or not info["window"]
            assert np.array_equal(obs, env.observations.encode(v)) and obs in env.observation_space
            windows += info["window"]
            action = int(rng.choice(np.flatnonzero(mask)))
            waits += action == WAIT
            obs, r, terminated, truncated, info = env.step(action)
            assert not info["illegal_action"] and not truncated
            if terminated:
                break
            assert r == 0.0
        state = env.table.state
        assert state.round_over and not info["action_mask"].any()
        assert r == round_rewards(state, reward)[env.seat]
        assert info["winner"] == state.match.last_round.winner  # type: ignore[union-attr]
        if reward == "win":
            assert r == (1.0 if info["winner"] == env.seat else -1.0 / (n - 1))
    if "jump-in" in profile:
        assert windows and waits  # out-of-turn decisions came up, and WAIT was played in some


# --- the real game comes through: a heuristic learner wins ----------------------------------------
def test_a_heuristic_learner_beats_random_bots_through_the_env() -> None:
    n, episodes = 4, 200
    env = UnoEnv(num_players=n, opponents="random", seat="random")
    bot, rng = HeuristicBot(), random.Random(0)
    wins = 0
    for episode in range(episodes):
        _, info = env.reset(seed=episode)
        terminated = False
        while not terminated:
            action = env.encoding.index(bot.act(env.learner_view(), rng))
            assert info["action_mask"][action]
            _, _, terminated, _, info = env.step(action)
        wins += info["winner"] == env.seat
    assert wins / episodes > 2 / n, wins  # chance is 1/n; it wins about 95%


# --- the other parameters -------------------------------------------------------------------------
def test_max_steps_truncates() -> None:
    env = UnoEnv(max_steps=3)
    _, info = env.reset(seed=0)
    results = []
    for _ in range(3):
        action = 1 if info["action_mask"][1] else int(np.flatnonzero(info["action_mask"])[0])  # draw, if it may
        _, r, terminated, truncated, info = env.step(action)
        results.append((r, terminated, truncated))
    assert results == [(0.0, False, False), (0.0, False, False), (0.0, False, True)]
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(1)


def test_seats_and_opponents() -> None:
    env = UnoEnv(num_players=4, opponents=["heuristic", "random", "random"], seat="random")
    seats = set()
    for seed in range(30):
        env.reset(seed=seed)
        seats.add(env.seat)
        names = [b.name if b is not None else None for b in env.bots]
        assert names[env.seat] is None
        assert [names[(env.seat + k) % 4] for k in (1, 2, 3)] == ["heuristic", "random", "random"]
    assert seats == {0, 1, 2, 3}
    _, info = env.reset(seed=1, options={"seat": 2})
    assert env.seat == info["seat"] == 2
    fixed = UnoEnv(num_players=3, opponents=HeuristicBot, seat=1)
    fixed.reset(seed=0)
    assert fixed.seat == 1 and [type(b) for b in fixed.bots] == [HeuristicBot, type(None), HeuristicBot]


def test_a_searching_opponent_from_a_factory() -> None:
    """A bot factory stands in for a name: here a small ISMCTS search, against a heuristic learner."""
    env = UnoEnv(num_players=2, opponents=lambda: ISMCTSBot(iterations=8))
    bot, rng = HeuristicBot(), random.Random(1)
    _, info = env.reset(seed=6)
    assert isinstance(env.bots[1], ISMCTSBot)
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = env.step(env.encoding.index(bot.act(env.learner_view(), rng)))
    assert reward == (1.0 if info["winner"] == 0 else -1.0)


def test_a_round_the_bots_end_first_is_dealt_again() -> None:
    """With one card each, the bot often wins before the learner moves: the env deals again."""
    profile = attrs.evolve(u.load_profile("classic-108"), hand_size=1)
    env = UnoEnv(profile, 2, opponents="heuristic")
    for seed in range(60):
        _, info = env.reset(seed=seed)
        assert env.table is not None and not env.table.state.round_over
        assert env.table.actor == env.seat and info["action_mask"].any()


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = UnoEnv(num_players=3, render_mode="ansi")
    _, info = env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "p0 holds" in text
    for a in np.flatnonzero(info["action_mask"]):
        assert f"[{a}] {env.encoding.describe(int(a))}" in text
    human = UnoEnv(num_players=3, render_mode="human")
    human.reset(seed=3)
    assert human.render() is None
    assert capsys.readouterr().out.count("p0 holds") == 2  # printed at reset, and by render()
    assert UnoEnv().render() is None


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"num_players": 1}, ActionError),
    ({"num_players": 11}, ActionError),
    ({"profile": attrs.evolve(u.load_profile("classic-108"), max_players=4), "num_players": 5}, ActionError),
    ({"seat": 2}, ActionError),
    ({"seat": True}, ActionError),
    ({"reward": "score"}, ActionError),
    ({"out_of_turn": "always"}, ActionError),
    ({"illegal_action": "ignore"}, ActionError),
    ({"render_mode": "rgb_array"}, ActionError),
    ({"max_steps": 0}, ActionError),
    ({"num_players": 3, "opponents": ["random"]}, ActionError),
    ({"opponents": "no-such-bot"}, ActionError),
    ({"profile": "no-such-profile"}, u.ProfileError),
])
def test_bad_parameters_are_refused(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        UnoEnv(**kwargs)


GYM_PARAMETERS = ("profile", "num_players", "opponents", "seat", "reward", "out_of_turn", "illegal_action",
                  "illegal_penalty", "max_steps", "render_mode")


@settings(max_examples=budget(120, 1200), deadline=None)
@given(name=st.sampled_from(GYM_PARAMETERS), value=any_value())
def test_any_value_of_a_parameter_builds_or_is_refused_naming_it(name: str, value: Any) -> None:
    """Issue 33: whatever a parameter is given (NaN, a float for a count, a huge int, a list, an
    object...), the env is built or an UnoEngineError names the parameter, briefly; never a
    TypeError, a numpy error or a bare ValueError."""
    try:
        UnoEnv(**{name: value})
    except u.UnoEngineError as exc:
        assert name in str(exc) or name == "profile", str(exc)
        assert len(str(exc)) < 600


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"illegal_penalty": float("nan")}, "illegal_penalty"),
    ({"illegal_penalty": float("inf")}, "illegal_penalty"),
    ({"illegal_penalty": -float("inf")}, "illegal_penalty"),
    ({"illegal_penalty": "-1"}, "illegal_penalty"),
    ({"illegal_penalty": True}, "illegal_penalty"),
    ({"opponents": 3}, "opponents"),
    ({"opponents": None}, "opponents"),
    ({"opponents": {"random": 1}}, "opponents"),
    ({"num_players": 3, "opponents": ["random", 7]}, r"opponents\[1\]"),
    ({"num_players": 2.0}, "num_players"),
    ({"max_steps": 1.5}, "max_steps"),
    ({"seat": 1.0}, "seat"),
    ({"render_mode": ["ansi"]}, "render_mode"),
    ({"bogus": 1}, "bogus"),
])
def test_a_bad_parameter_is_an_action_error_naming_it(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ActionError, match=field):
        UnoEnv(**kwargs)


@pytest.mark.parametrize("opponents", ["no-such-bot", ["random", "no-such-bot"]])
def test_an_unknown_opponent_names_the_field_and_the_known_bots(opponents: Any) -> None:
    """Issue 33: an unknown bot name was a bare ValueError."""
    with pytest.raises(ActionError, match="opponents") as caught:
        UnoEnv(num_players=3, opponents=opponents)
    assert "unknown bot 'no-such-bot'" in str(caught.value)
    assert f"known bots: {known_bots_text()}" in str(caught.value)  # other tests may have registered more
    assert all(name in known_bots_text() for name in ("heuristic", "ismcts", "random"))


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=value_id)
def test_a_bad_seed_is_refused_naming_it(seed: Any) -> None:
    """Issue 33: reset(seed=-1) and reset(seed=1.5) gave Gymnasium's and numpy's own errors; a
    bool or a seed past 2**64 - 1 was taken. Each is an ActionError naming ``seed`` now, and the
    env is left as it was."""
    env = UnoEnv()
    obs, _ = env.reset(seed=4)
    with pytest.raises(ActionError, match="seed: expected None or an int from 0 to 2\\*\\*64 - 1"):
        env.reset(seed=seed)
    assert np.array_equal(env._observe(), obs)
    again, _ = env.reset(seed=2**64 - 1)
    assert np.array_equal(UnoEnv().reset(seed=np.uint64(2**64 - 1))[0], again)  # a numpy integer is a seed too


def test_gymnasium_make_refuses_what_the_env_refuses() -> None:
    with pytest.raises(ActionError, match="bogus"):
        gymnasium.make(ENV_ID, bogus=1)
    with pytest.raises(ActionError, match="illegal_penalty"):
        gymnasium.make(ENV_ID, illegal_penalty=float("nan"))


def test_bad_reset_options_are_refused() -> None:
    env = UnoEnv()
    with pytest.raises(ActionError):
        env.reset(seed=0, options={"dealer": 1})
    with pytest.raises(ActionError):
        env.reset(seed=0, options={"seat": 5})
    with pytest.raises(ActionError, match="reset options"):
        env.reset(seed=0, options=["seat"])  # type: ignore[arg-type]
    with pytest.raises(gymnasium.error.ResetNeeded):
        UnoEnv().step(0)
