"""The PettingZoo environment (unoengine.envs.pettingzoo), checked with PettingZoo's own tests.

Besides ``api_test`` and ``seed_test``, random games check the environment against the engine at
every step: the selected agent's action mask is exactly its legal moves (with ``WAIT`` exactly
in an out-of-turn window), each legal move has one action, the rewards are zero-sum, and the
game the environment played is the game ``unoengine.apply`` replays from the same seed.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from budget import budget
from helpers_envs import BAD_SEEDS, any_value, value_id
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u

pettingzoo = pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from unoengine.envs.actions import WAIT, ActionError  # noqa: E402
from unoengine.envs.pettingzoo import ENV_ID, UnknownAgentError, env, raw_env  # noqa: E402
from unoengine.envs.table import round_rewards  # noqa: E402
from unoengine.formats.install_hint import install_command  # noqa: E402

HOUSE = "gdj85+jump-in+stacking+seven-zero"


def seeded(e: Any, seed: int = 0) -> Any:
    """``e`` with every agent's action space seeded, so that sampled actions repeat."""
    for i, agent in enumerate(e.possible_agents):
        e.action_space(agent).seed(seed + i)
    return e


@contextlib.contextmanager
def expected_warnings_only() -> Iterator[None]:
    """PettingZoo's checks warn that a dict observation is not an array (they exempt their own
    classic games by name); any other warning fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        yield


def play_out(e: Any, seed: int, rng: random.Random, limit: int = 100_000) -> list[u.Move | None]:
    """Play ``e`` (wrapped or raw) from ``reset(seed=seed)`` to its end with random masked actions;
    return the moves made (None for WAIT)."""
    e.reset(seed=seed)
    raw = e.unwrapped
    moves: list[u.Move | None] = []
    for _ in range(limit):
        agent = e.agent_selection
        obs, _reward, termination, truncation, _info = e.last()
        if termination or truncation:
            break
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        moves.append(raw.actions.move(action, raw.possible_agents.index(agent)))
        e.step(action)
    else:
        raise AssertionError("the game did not end")
    return moves


# --- PettingZoo's own checks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "players", "out_of_turn", "cycles", "max_steps"),
    [
        ("classic-108", 2, "windows", 2500, 4000),
        ("classic-108", 4, "windows", 1000, 3000),
        ("classic-108", 10, "windows", 300, 2500),
        (HOUSE, 4, "windows", 1000, 3000),
        ("classic-108", 3, "turn-only", 1000, 2500),
    ],
)
def test_api(profile: str, players: int, out_of_turn: str, cycles: int, max_steps: int) -> None:
    """``api_test``, its action spaces seeded so that the run repeats. Each of these runs plays
    its round to the real end (a few hundred to ~2,700 steps); ``max_steps`` is only a backstop,
    set below ``num_cycles`` times the players so that the run always sees the agents finish."""
    e = seeded(env(profile=profile, num_players=players, out_of_turn=out_of_turn, max_steps=max_steps))
    with expected_warnings_only():
        api_test(e, num_cycles=cycles)
    # The same table plays a round to its real end, zero-sum.
    e = seeded(env(profile=profile, num_players=players, out_of_turn=out_of_turn))
    play_out(e, seed=players, rng=random.Random(players))
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert sum(e.unwrapped._cumulative_rewards.values()) == pytest.approx(0.0, abs=1e-9)


def test_api_match_with_points() -> None:
    quick = attrs.evolve(u.load_profile("mattel-42003+forced-play+one-point-per-round"), target_score=3)
    e = seeded(env(profile=quick, num_players=3, match=True, reward="points", max_steps=3000))
    with expected_warnings_only():
        api_test(e, num_cycles=1000)


@pytest.mark.parametrize(("profile", "players"), [("classic-108", 3), (HOUSE, 4)])
def test_seed(profile: str, players: int) -> None:
    with expected_warnings_only():
        seed_test(lambda: env(profile=profile, num_players=players), num_cycles=150)


def test_reset_seed_is_the_engine_seed() -> None:
    e = env(num_players=4)
    e.reset(seed=7)
    assert e.unwrapped.game_state == u.new_game("classic-108", 4, seed=7)
    # Without a seed, the next games come from the last seed given: the same in every run.
    e.reset()
    other = env(num_players=4)
    other.reset(seed=7)
    other.reset()
    assert e.unwrapped.game_state == other.unwrapped.game_state
    assert e.unwrapped.game_state != u.new_game("classic-108", 4, seed=7)


# --- the environment against the engine ---------------------------------------------------------


GAMES = [
    ("classic-108", 2, "windows", "win"),
    ("classic-108", 5, "windows", "points"),
    ("gdj85+jump-in+stacking", 3, "windows", "win"),
    (HOUSE, 4, "windows", "win"),
    ("mattel-42003+seven-zero+jump-in", 6, "windows", "win"),
    ("ffk04+stacking-no-mercy+uno-penalty-4", 4, "windows", "points"),
    ("mattel-42003+forced-play+two-player-reverse-skip", 2, "windows", "win"),
    ("classic-108+wd4-enforced+lowest-score", 2, "windows", "points"),
    ("gdj85+jump-in+stacking-cross", 5, "turn-only", "win"),
]
"""(profile, players, out_of_turn, reward). Random play makes some house rules' rounds very long
(draw-to-match: tens of thousands of moves), so those are left to the engine's own suite."""


@pytest.mark.parametrize(("profile", "players", "out_of_turn", "reward"), GAMES)
def test_masks_are_the_engine_legal_moves(profile: str, players: int, out_of_turn: str, reward: str) -> None:
    windows = out_of_turn == "windows"
    e = env(profile=profile, num_players=players, out_of_turn=out_of_turn, reward=reward)
    raw = e.unwrapped
    enc = raw.actions
    rng = random.Random(f"{profile}/{players}")
    seen_window = 0
    for _ in range(budget(2, 20)):
        seed = rng.randrange(2**32)
        e.reset(seed=seed)
        moves: list[u.Move | None] = []
        while True:
            agent = e.agent_selection
            p = raw.possible_agents.index(agent)
            obs, _reward, termination, truncation, info = e.last()
            if termination or truncation:
                break
            state = raw.game_state
            legal = u.legal_moves(state, p)
            window = windows and p != state.current and state.phase < u.Phase.ROUND_OVER
            # Exactly the engine's legal moves of this player, each at one index, WAIT iff a window.
            indices = [enc.index(m) for m in legal]
            assert len(set(indices)) == len(indices) == len(legal)
            assert all(enc.move(i, p) == m for i, m in zip(indices, legal, strict=True))
            expected = sorted(indices + ([WAIT] if window else []))
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (enc.size,)
            assert np.flatnonzero(mask).tolist() == expected == info["legal_actions"]
            assert info["out_of_turn"] is window
            # Nobody else has a mask now.
            other = raw.possible_agents[(p + 1 + len(moves) % (players - 1)) % players]
            assert not raw.observe(other)["action_mask"].any()
            if not windows:
                assert p == state.current
            elif window:
                seen_window += 1
            action = rng.choice(expected)
            moves.append(enc.move(action, p))
            e.step(action)
        # The end: a real round end, rewards as round_rewards gives them, zero-sum.
        final = raw.game_state
        assert final.phase >= u.Phase.ROUND_OVER
        assert all(e.terminations.values()) and not any(e.truncations.values())
        paid = [e.unwrapped._cumulative_rewards[a] for a in raw.possible_agents]
        assert paid == pytest.approx(list(round_rewards(final, reward)))
        assert sum(paid) == pytest.approx(0.0, abs=1e-9)
        # The same moves through the engine alone give the same game.
        state = u.new_game(profile, players, seed=seed)
        for m in moves:
            if m is not None:
                state = u.apply(state, m)
        assert state == final
        # Every agent is removed after its last step.
        for _agent in e.agent_iter():
            assert e.last()[2]
            e.step(None)
        assert e.agents == []
    if windows:
        assert seen_window > 0


def test_match_plays_rounds_until_the_match_is_over() -> None:
    quick = attrs.evolve(u.load_profile("classic-108+one-point-per-round"), target_score=2)
    e = env(profile=quick, num_players=2, match=True)
    raw = e.unwrapped
    rng = random.Random(3)
    e.reset(seed=11)
    paid = deals = 0
    while True:
        obs, _reward, termination, _truncation, _info = e.last()
        if termination:
            break
        if raw.game_state.phase is u.Phase.ROUND_OVER:
            # The next dealer deals: NextRound is their only action, and nobody is done.
            assert not any(e.terminations.values())
            only = np.flatnonzero(obs["action_mask"]).tolist()
            assert [raw.actions.describe(i) for i in only] == ["next-round"]
            deals += 1
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if any(raw.rewards.values()):  # a round ended: everyone is paid at once, zero-sum
            paid += 1
            state = raw.game_state
            assert state.phase >= u.Phase.ROUND_OVER
            assert list(raw.rewards.values()) == pytest.approx(list(round_rewards(state, "win")))
            assert sum(raw.rewards.values()) == pytest.approx(0.0, abs=1e-9)
    final = raw.game_state
    assert final.phase is u.Phase.MATCH_OVER and final.match.winner is not None
    assert paid == final.match.round_number == deals + 1 >= 2
    assert all(e.terminations.values())


def test_max_steps_truncates() -> None:
    e = env(num_players=3, max_steps=5)
    rng = random.Random(0)
    e.reset(seed=1)
    for _ in range(5):
        obs, *_ = e.last()
        assert not any(e.truncations.values())
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(r == 0 for r in e.rewards.values())
    obs, _reward, _termination, truncation, info = e.last()
    assert truncation and info == {} and not obs["action_mask"].any()


# --- out of turn: windows and a caught UNO ------------------------------------------------------


def uno_missed(out_of_turn: str = "windows") -> Any:
    """player_0 plays R5 from R5 R6 without calling UNO."""
    start = u.from_position("classic-108", ["R5 R6", "G1 G2 G3", "B1 B2 B3"], "R1", current=0)
    e = env(num_players=3, out_of_turn=out_of_turn)
    e.reset(options={"state": start})
    assert e.agent_selection == "player_0"
    e.step(e.unwrapped.actions.index(u.Play(0, u.parse_card("R5"))))
    return e


def test_catch_uno_in_a_window() -> None:
    e = uno_missed()
    raw = e.unwrapped
    assert raw.game_state.uno_exposed == 0 and raw.game_state.current == 1
    # player_2 is asked first (seat order after player_1, whose turn it is), and may catch.
    assert e.agent_selection == "player_2"
    obs, *_, info = e.last()
    assert info == {"legal_actions": [WAIT, raw.actions.index(u.CatchUno(2, 0))], "out_of_turn": True}
    assert raw.actions.describe(info["legal_actions"][1]) == "catch-uno +1"
    assert np.flatnonzero(obs["action_mask"]).tolist() == info["legal_actions"]
    e.step(raw.actions.index(u.CatchUno(2, 0)))
    state = raw.game_state
    assert len(state.hands[0]) == 1 + state.profile.uno_penalty and state.uno_exposed < 0
    assert e.agent_selection == "player_1" and e.infos["player_1"]["out_of_turn"] is False
    assert "p2 catch p0" in raw.render_text()


def test_waiting_passes_the_window_on() -> None:
    e = uno_missed()
    raw = e.unwrapped
    e.step(WAIT)  # player_2 lets it pass; player_0 may still call UNO late
    assert e.agent_selection == "player_0"
    assert e.infos["player_0"]["legal_actions"] == [WAIT, raw.actions.index(u.CallUno(0))]
    e.step(WAIT)
    # The turn: player_1 may play or catch, and cannot WAIT.
    assert e.agent_selection == "player_1"
    legal = e.infos["player_1"]["legal_actions"]
    assert WAIT not in legal and raw.actions.index(u.CatchUno(1, 0)) in legal
    strict = raw_env(num_players=3)  # the raw env refuses an illegal action (illegal_action="raise")
    strict.reset(seed=3)
    assert not strict.infos[strict.agent_selection]["out_of_turn"]
    with pytest.raises(ActionError, match="wait"):
        strict.step(WAIT)


def test_turn_only_asks_the_player_to_act_alone() -> None:
    e = uno_missed("turn-only")
    raw = e.unwrapped
    assert e.agent_selection == "player_1"
    legal = e.infos["player_1"]["legal_actions"]
    assert WAIT not in legal and raw.actions.index(u.CatchUno(1, 0)) in legal


def test_an_illegal_action() -> None:
    e = uno_missed()
    strict = raw_env(num_players=3)  # illegal_action="raise", the raw env's default
    strict.reset(options={"state": e.unwrapped.game_state})
    before = strict.game_state
    play = strict.actions.index(u.Play(2, u.parse_card("B1")))
    assert strict.agent_selection == "player_2"
    with pytest.raises(ActionError, match="not a legal action of player_2"):
        strict.step(play)  # refused, and nothing changes
    assert strict.game_state is before and strict.agent_selection == "player_2"
    assert strict.infos["player_2"]["legal_actions"] == [WAIT, strict.actions.index(u.CatchUno(2, 0))]
    # Outside the space: refused by both, and nothing changes.
    for bad in (strict.actions.size, np.int64(strict.actions.size), 10**30, -1, 1.5, True, "3"):
        with pytest.raises(ActionError, match="action: expected an index"):
            strict.step(bad)
        with pytest.raises(ActionError, match="action: expected an index"):
            e.step(bad)
    assert e.unwrapped.game_state is before and not any(e.terminations.values())
    # env(): the illegal action ends the game, -1 for its agent and 0 for the others.
    e.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(play)
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.unwrapped.game_state is before
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    obs, reward, terminated, truncated, info = e.last()
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert not obs["action_mask"].any()
    for _ in e.agent_iter():
        e.step(None)  # each agent steps out of the ended game
    assert e.agents == []



def test_a_table_played_on_directly_is_never_followed_blindly() -> None:
    """The env applies a masked action without the engine checking it again (Table.act_legal), so
    once someone plays on ``env.table`` directly the mask is of a decision that is gone: every
    step is then refused and plays nothing, however legal the action was (PLAY-5: after a
    draw, only the drawn card may be played)."""
    e = raw_env(num_players=2)
    e.reset(seed=0)  # player_0 to act, with cards to play
    assert e.agent_selection == "player_0"
    legal = e.infos[e.agent_selection]["legal_actions"]
    play = next(a for a in legal if e.actions.describe(a).startswith("play"))
    assert e.table is not None
    draw = next(m for m in e.table.now[1] if isinstance(m, u.Draw))
    drawn = e.table.act(draw)  # outside step(): only the drawn card may be played now
    assert e.actions.move(play, 0) not in u.legal_moves(drawn)
    for action in (play, legal[0]):
        with pytest.raises(ActionError, match=r"env\.table was played on outside step"):
            e.step(action)
        assert e.game_state is drawn
    e.reset(seed=0)  # a new game is followed again
    e.step(legal[0])
    assert e.steps == 1
    # A window let pass on the table directly: the actor changed, the state did not.
    w = uno_missed()
    raw = w.unwrapped
    before = raw.game_state
    assert w.agent_selection == "player_2"
    raw.table.act(None)
    with pytest.raises(ActionError, match=r"env\.table was played on outside step"):
        w.step(raw.actions.index(u.CatchUno(2, 0)))
    assert raw.game_state is before

# --- registry, rendering, parameters, imports --------------------------------------------------


def test_make() -> None:
    e = pettingzoo.make("aec", ENV_ID, num_players=3)
    assert isinstance(e.unwrapped, raw_env) and e.unwrapped.num_players == 3
    e.reset(seed=2)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert str(e) == "unoengine_v0"
    play_out(seeded(e), seed=2, rng=random.Random(2))
    assert all(e.terminations.values())


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(num_players=3, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert isinstance(text, str)
    current = e.unwrapped.game_state.current
    for part in ("top card", "colour", f"*p{current}:7", "last move: none yet", f"player_{current} decides", "actions"):
        assert part in text
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "last move: p" in e.render()

    human = env(num_players=3, render_mode="human")
    human.reset(seed=4)
    capsys.readouterr()
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text.strip()
    obs, *_ = human.last()
    human.step(int(np.flatnonzero(obs["action_mask"])[0]))  # every step prints the table
    assert "last move: p" in capsys.readouterr().out


def test_spaces() -> None:
    e = env(profile=HOUSE, num_players=4)
    raw = e.unwrapped
    space = e.observation_space("player_1")
    assert space is e.observation_space("player_1") and space is not e.observation_space("player_2")
    assert space["observation"].shape == (raw.observations.size,)
    assert space["observation"].dtype == np.float32 and space["action_mask"].dtype == np.int8
    assert e.action_space("player_3").n == raw.actions.size
    assert raw.metadata == {"render_modes": ["human", "ansi"], "name": "unoengine_v0", "is_parallelizable": False}


def test_copies_play_on_alike() -> None:
    """deepcopy and pickle (as vectorised environments use them) give an environment that plays on
    exactly as the original does."""
    e = env(profile=HOUSE, num_players=4)
    e.reset(seed=6)
    for twin in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        for table in (e, twin):
            rng = random.Random(6)
            for _ in range(50):
                obs, _reward, termination, truncation, _info = table.last()
                if termination or truncation:
                    break
                table.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert twin.unwrapped.game_state == e.unwrapped.game_state
        assert twin.unwrapped.steps == e.unwrapped.steps > 0
        e.reset(seed=6)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 1}, {"num_players": 11}, {"num_players": True}, {"render_mode": "rgb_array"},
        {"out_of_turn": "always"}, {"reward": "score"}, {"match": 1}, {"max_steps": 0},
    ],
)
def test_bad_parameters(kwargs: dict[str, Any]) -> None:
    with pytest.raises(u.UnoEngineError):
        raw_env(**kwargs)


PZ_PARAMETERS = ("profile", "num_players", "render_mode", "out_of_turn", "reward", "match", "max_steps",
                 "illegal_action")


@settings(max_examples=budget(120, 1200), deadline=None)
@given(name=st.sampled_from(PZ_PARAMETERS), value=any_value(), wrapped=st.booleans())
def test_any_value_of_a_parameter_builds_or_is_refused_naming_it(name: str, value: Any, wrapped: bool) -> None:
    """Issue 33: whatever a parameter is given, raw_env (and env, but for illegal_action) is built
    or an UnoEngineError names the parameter, briefly."""
    if wrapped and name == "illegal_action":
        name = "bogus"  # env() sets illegal_action itself; an unknown keyword instead
    try:
        (env if wrapped else raw_env)(**{name: value})
    except u.UnoEngineError as exc:
        assert name in str(exc) or name == "profile", str(exc)
        assert len(str(exc)) < 600


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=value_id)
def test_a_bad_seed_is_refused_naming_it(seed: Any) -> None:
    """Issue 33: reset(seed=-1) and reset(seed=1.5) gave numpy's own errors. Each bad seed is an
    ActionError naming ``seed`` now, and the game is left as it was; numpy integers are seeds."""
    e = raw_env()
    e.reset(seed=3)
    before = e.game_state
    with pytest.raises(ActionError, match="seed: expected None or an int from 0 to 2\\*\\*64 - 1"):
        e.reset(seed=seed)
    assert e.game_state == before
    e.reset(seed=np.uint64(2**64 - 1))
    assert e.game_state == u.new_game("classic-108", 2, seed=2**64 - 1)


@pytest.mark.parametrize("agent", ["player_2", "bogus", None, 0, ["player_0"], b"player_0"], ids=value_id)
@pytest.mark.parametrize("method", ["observe", "observation_space", "action_space"])
def test_an_unknown_agent_is_refused_naming_the_agents(agent: Any, method: str) -> None:
    """Issue 33: raw_env's agent lookups gave bare KeyErrors (TypeErrors for a list). The error is
    an ActionError listing the agents now, and still a KeyError."""
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(UnknownAgentError, match="agent: expected one of player_0, player_1") as caught:
        getattr(e, method)(agent)
    assert isinstance(caught.value, ActionError) and isinstance(caught.value, KeyError)
    assert str(caught.value).startswith("agent:")  # not quoted, as a KeyError's message would be


@pytest.mark.parametrize("options", [["state"], "state", 3], ids=value_id)
def test_reset_options_that_are_not_a_dict_are_refused(options: Any) -> None:
    with pytest.raises(ActionError, match="reset options"):
        raw_env().reset(seed=1, options=options)


def test_an_unknown_keyword_is_refused_naming_it() -> None:
    for make in (raw_env, env, lambda **kw: pettingzoo.make("aec", ENV_ID, **kw)):
        with pytest.raises(ActionError, match="bogus"):
            make(bogus=1)


def test_reset_from_a_state_of_another_game() -> None:
    e = raw_env(num_players=3)
    with pytest.raises(ActionError):
        e.reset(options={"state": u.new_game("classic-108", 4)})
    with pytest.raises(ActionError):
        e.reset(options={"state": "not a state"})


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_import_envs_needs_no_framework() -> None:
    done = run(
        "import sys, unoengine, unoengine.envs, unoengine.envs.actions, unoengine.envs.table\n"
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'numpy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    assert done.returncode == 0, done.stderr


def test_missing_pettingzoo_names_the_extra() -> None:
    done = run(
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "try:\n"
        "    import unoengine.envs.pettingzoo\n"
        "except ImportError as exc:\n"
        "    from unoengine.envs.extras import MissingExtraError\n"
        "    assert isinstance(exc, MissingExtraError), type(exc)\n"
        "    print(exc)\n"
        "else:\n"
        "    raise SystemExit('imported without pettingzoo')\n"
    )
    assert done.returncode == 0, done.stderr
    assert install_command("pettingzoo") in done.stdout  # from this checkout: pip install -e '.[pettingzoo]'
