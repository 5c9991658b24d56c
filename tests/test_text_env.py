"""TextEnv (issue 35): a round for text players in TextArena's conventions (reset, get_observation,
step with text actions, rewards at the end from close), with one retry and a counted fallback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers_text import first_label, last_notation

import unoengine as u
from unoengine.envs.actions import ActionError
from unoengine.envs.text import TextEnv

Agent = Callable[[str], str]


Log = list[tuple[int, str, str]]


def play(env: TextEnv, agents: dict[int, Agent], limit: int = 5000) -> tuple[Log, dict[str, object]]:
    """The loop of TextArena's README, bounded by a count: the (player, observation, action) log."""
    log: Log = []
    done, info = False, {}
    for _ in range(limit):
        player, observation = env.get_observation()
        action = agents[player](observation)
        log.append((player, observation, action))
        done, info = env.step(action)
        if done:
            return log, info
    raise AssertionError(f"no end in {limit} steps")


def test_scripted_players_finish_a_round_and_get_zero_sum_rewards() -> None:
    env = TextEnv("classic-108")
    env.reset(num_players=3, seed=7)
    log, info = play(env, {0: first_label, 1: last_notation, 2: first_label})
    rewards = env.close()
    assert sorted(rewards) == [0, 1, 2] and abs(sum(rewards.values())) < 1e-9
    assert rewards[env.state.match.last_round.winner] == 1.0  # type: ignore[union-attr]
    assert info["invalid"] == [0, 0, 0] and info["fallbacks"] == [0, 0, 0]
    assert any("Last moves: " in obs for _, obs, _ in log[3:])
    with pytest.raises(ActionError, match="round is over"):
        env.step("[1]")


def test_the_same_seed_gives_the_same_transcript() -> None:
    logs = []
    for _ in range(2):
        env = TextEnv()
        env.reset(num_players=2, seed=21)
        logs.append(play(env, {0: first_label, 1: last_notation})[0])
    assert logs[0] == logs[1]


@pytest.mark.parametrize("bad", ["", "x" * (1 << 20), "\x1b[2J\u202e🂡", "[p9 R7]", "[99]"],
                         ids=["empty", "1MB", "junk", "other-player", "no-label"])
def test_a_bad_answer_gets_its_reason_and_one_retry_then_a_random_move(bad: str) -> None:
    env = TextEnv()
    env.reset(num_players=2, seed=3)
    player, first = env.get_observation()
    done, info = env.step(bad)
    assert not done and info["invalid"][player] == 1 and info["fallbacks"] == [0, 0]
    again, retry = env.get_observation()
    assert again == player and retry.startswith(first) and "Your answer was not accepted: " in retry
    assert "\x1b" not in retry and "\u202e" not in retry
    done, info = env.step(bad)
    assert info["fallback"] is True and info["fallbacks"][player] == 1
    assert env.get_observation()[0] != player or "not accepted" not in env.get_observation()[1]


def test_the_fallback_is_deterministic_from_the_seed() -> None:
    states = []
    for _ in range(2):
        env = TextEnv(error_allowance=0)
        env.reset(num_players=2, seed=9)
        env.step("nonsense")
        states.append(env.state)
    assert states[0] == states[1]


def test_forfeit_ends_the_round_and_the_forfeiter_loses() -> None:
    env = TextEnv(fallback="forfeit")
    env.reset(num_players=3, seed=3)
    player, _ = env.get_observation()
    assert env.step("no")[0] is False
    done, info = env.step("still no")
    assert done and info["forfeit"] == player
    rewards = env.close()
    assert rewards[player] == -1.0 and sum(rewards.values()) == pytest.approx(0.0)


def test_json_observations_for_tool_calling_agents() -> None:
    env = TextEnv(observation="json")
    env.reset(num_players=2, seed=5)
    player, text = env.get_observation()
    doc = json.loads(text)
    assert doc["player"] == player and u.serialize.from_json(doc["view"]) == u.view(env.state, player)
    done, _ = env.step(json.dumps({"move": doc["legal_moves"][0]["move"]}))
    assert not done and env.get_observation() != (player, text)


def test_bad_arguments_name_the_field() -> None:
    with pytest.raises(ActionError, match="fallback"):
        TextEnv(fallback="resign")  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="error_allowance"):
        TextEnv(error_allowance=-1)
    with pytest.raises(ActionError, match="num_players"):
        TextEnv().reset(num_players=1)
    with pytest.raises(ActionError, match="seed"):
        TextEnv().reset(num_players=2, seed=-1)
    with pytest.raises(ActionError, match="reset"):
        TextEnv().get_observation()


def test_the_transcript_of_docs_agents_is_what_the_script_writes_today() -> None:
    """docs/agents.md's transcript comes from a seeded game (docs/gen_agents_transcript.py), never by hand."""
    script = Path(__file__).resolve().parents[1] / "docs" / "gen_agents_transcript.py"
    run = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
