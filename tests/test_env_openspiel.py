"""The OpenSpiel game ``python_unoengine`` (unoengine.envs.openspiel), played by real OpenSpiel:
its own random simulation test (serialization included), its ISMCTS bot, the chance nodes that
choose the deal, resampling, serialization and the legal actions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import attrs
import pytest
from budget import budget
from helpers_envs import any_value
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel: Any = pytest.importorskip("pyspiel")
np: Any = pytest.importorskip("numpy")

from open_spiel.python import observation as os_observation  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from unoengine.engine import limits  # noqa: E402
from unoengine.engine.dealing import new_game  # noqa: E402
from unoengine.engine.errors import SerializationError, UnoEngineError  # noqa: E402
from unoengine.engine.legality import legal_moves  # noqa: E402
from unoengine.engine.state import Phase  # noqa: E402
from unoengine.engine.view import view  # noqa: E402
from unoengine.envs import openspiel as uo  # noqa: E402
from unoengine.envs.actions import WAIT, ActionEncoding, ActionError  # noqa: E402
from unoengine.envs.observations import ObservationEncoding  # noqa: E402
from unoengine.formats.composition import resolve_profile  # noqa: E402
from unoengine.formats.serialize import dumps  # noqa: E402

HOUSE = "gdj85+jump-in+stacking"


def load(**params: Any) -> Any:
    return pyspiel.load_game(uo.SHORT_NAME, params)


def deal(game: Any, seed: int = 0) -> Any:
    """A new state of ``game`` past its chance nodes: the deal of ``seed`` (its bytes, big-endian)."""
    state = game.new_initial_state()
    for byte in seed.to_bytes(uo.SEED_BYTES, "big"):
        state.apply_action(byte)
    return state


def play_randomly(state: Any, rng: random.Random, steps: int) -> list[int]:
    """Up to ``steps`` uniformly random actions; the actions taken."""
    taken = []
    while not state.is_terminal() and len(taken) < steps:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        taken.append(action)
    return taken


# --- OpenSpiel's own checks -----------------------------------------------------------------

@pytest.mark.parametrize("params", [
    {"players": 2},
    {"players": 4},
    {"players": 4, "profile": HOUSE},
    {"players": 3, "profile": HOUSE, "out_of_turn": "turn-only", "reward": "points"},
], ids=["2p", "4p", "4p-house", "3p-turn-only-points"])
def test_random_sim_test(params: dict[str, Any]) -> None:
    """pyspiel's random simulation test, serialization included: the chance nodes (outcomes legal,
    probabilities summing to one), clones, legal actions sorted and for the actor only, action
    strings unique, every observation and information state of every player, the game and state
    written and read back by pyspiel.serialize_game_and_state at the first ten moves and every power
    of two, returns zero-sum and in the utility bounds, the game length within max_game_length
    (capped here to keep the test short: capped rounds end as draws)."""
    game = load(**{"max_game_length": 250, **params})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_of_a_whole_round() -> None:
    """A round random_sim_test plays to its end by the rules (the test's own generator is fixed:
    this one ends in about 1,600 decisions, well inside the cap of 6,000, so that a change to the
    random stream does not turn it into a truncation), and one started from a given engine state."""
    game = load(players=2, profile=HOUSE, max_game_length=6000)
    ends: list[tuple[bool, bool]] = []
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False,
                            state_checker_fn=lambda s: ends.append((s.is_terminal(), s.truncated)))
    assert ends[-1] == (True, False)
    short = load(players=2, profile=HOUSE, max_game_length=150)
    start = short.new_initial_state(deal(short, 9).engine_state)
    pyspiel.random_sim_test(short, num_sims=1, serialize=True, verbose=False, specific_initial_state=start)


def test_pyspiel_serializes_the_game_and_state() -> None:
    """pyspiel.serialize_game_and_state reads back at every kind of state: at the chance nodes, dealt,
    in a window, from a given engine state (an empty history) and resampled (a history that does
    not lead to it): the text carries the engine state, so nothing is replayed."""
    game = load(players=3, profile=HOUSE)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    state = game.new_initial_state()
    states = [state.clone()]
    for byte in (9, 250):
        state.apply_action(byte)
    states.append(state.clone())
    for byte in (0, 77):
        state.apply_action(byte)
    states.append(state.clone())
    rng = random.Random(5)
    play_randomly(state, rng, 40)
    states += [state.clone(), game.new_initial_state(state.engine_state), state.resample_from_infostate(1, sampler)]
    while not state.in_window and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    states.append(state)
    for s in states:
        text = pyspiel.serialize_game_and_state(game, s)
        assert "GetRNGState" not in text
        game2, s2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(s2) == str(s)
        assert s2.history() == s.history() and s2.move_number() == s.move_number()
        assert s2.is_chance_node() == s.is_chance_node()
        if s.dealt:
            assert dumps(s2.engine_state) == dumps(s.engine_state)
            assert s2.information_state_string(0) == s.information_state_string(0)
            assert s2.legal_actions() == s.legal_actions()
    assert states[4].history() == [] and states[5].history() == states[3].history()


class _Ismcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS bot, which searches afresh every move, so it may start anywhere
    (evaluate_bots asks every bot to restart_at the first state; this bot does not define it)."""

    def restart_at(self, state: Any) -> None:
        self.reset()


def test_openspiel_ismcts_plays_a_round_against_a_random_bot() -> None:
    game = load(players=2, max_game_length=1500)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1), max_length=10)
    bot = _Ismcts(game, evaluator, 2.0, 4, random_state=np.random.RandomState(2))
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    opponent = uniform_random.UniformRandomBot(1, np.random.RandomState(3))
    state = game.new_initial_state()  # evaluate_bots plays the chance nodes, from its own generator
    returns = evaluate_bots.evaluate_bots(state, [bot, opponent], np.random.RandomState(4))
    chance = int(pyspiel.PlayerId.CHANCE)
    players = [pa.player for pa in state.full_history()]
    assert players[:uo.SEED_BYTES] == [chance] * uo.SEED_BYTES and chance not in players[uo.SEED_BYTES:]
    assert state.is_terminal()
    assert abs(sum(returns)) < 1e-9
    # Every seed is fixed (the chance outcomes, both bots, the resampler): this round ends by the
    # rules, in about 440 decisions.
    assert not state.truncated and state.engine_state.phase >= Phase.ROUND_OVER
    assert sorted(returns) == [-1.0, 1.0]


# --- the game and its parameters ------------------------------------------------------------

def test_game_type_and_info() -> None:
    game = load(players=4, profile="gdj85+jump-in")
    gtype = game.get_type()
    assert gtype.short_name == "python_unoengine"
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert gtype.provides_information_state_string and gtype.provides_information_state_tensor
    assert gtype.provides_observation_string and gtype.provides_observation_tensor
    profile = resolve_profile("gdj85+jump-in")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == ActionEncoding(profile, 4).size
    size = ObservationEncoding(profile, 4).size
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size
    assert (game.min_utility(), game.max_utility()) == (-1.0 / 3, 1.0)
    assert game.max_game_length() == uo.MAX_GAME_LENGTH
    # Four chance nodes of 256 outcomes choose the deal; they are not decisions.
    assert game.max_chance_outcomes() == 256 and game.max_chance_nodes_in_history() == uo.SEED_BYTES == 4
    assert game.max_history_length() == game.max_move_number() == uo.MAX_GAME_LENGTH + 4
    assert "seed" not in uo.PARAMETERS
    points = load(players=4, reward="points")
    assert points.min_utility() < -100 and points.max_utility() > 100


@pytest.mark.parametrize("params", [
    {"players": 1}, {"players": 11}, {"out_of_turn": "always"}, {"reward": "money"},
    {"max_game_length": 0}, {"profile": "no-such-profile"}, {"seed": 1},
])
def test_bad_parameters_are_refused(params: dict[str, Any]) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError)):
        uo.UnoGame(params)


def test_the_chance_nodes_choose_the_deal_seed() -> None:
    game = load(players=3, profile=HOUSE)
    state = game.new_initial_state()
    for byte in (1, 2, 3, 4):
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        assert not state.dealt and not state.in_window and not state.is_terminal()
        assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
        assert state.legal_actions() == list(range(256))
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, byte) == f"seed byte {byte}"
        assert state.legal_moves() == [] and state.returns() == [0.0] * 3
        with pytest.raises(ActionError):
            state.engine_state  # noqa: B018
        state.apply_action(byte)
    assert state.dealt and not state.is_chance_node() and state.chance_outcomes() == []
    assert state.history() == [1, 2, 3, 4] and state.move_number() == 4
    assert dumps(state.engine_state) == dumps(new_game(resolve_profile(HOUSE), 3, seed=0x01020304))
    # The same bytes deal the same round, other bytes another.
    assert dumps(deal(game, 0x01020304).engine_state) == dumps(state.engine_state)
    assert dumps(deal(game, 0x01020305).engine_state) != dumps(state.engine_state)
    # A chance outcome that is no byte is refused, and nothing changes.
    fresh = game.new_initial_state()
    with pytest.raises(ActionError):
        fresh.apply_action(256)
    assert fresh.history() == [] and fresh.is_chance_node()


def test_clone_is_independent() -> None:
    game = load(players=3)
    chance = game.new_initial_state()
    chance.apply_action(7)
    twin = chance.clone()
    assert str(twin) == str(chance) and twin.history() == [7]
    for byte in (1, 2, 3):
        twin.apply_action(byte)
    assert twin.dealt and not chance.dealt and chance.history() == [7]
    state = deal(game, 3)
    clone = state.clone()
    assert str(clone) == str(state)
    play_randomly(clone, random.Random(1), 10)
    assert str(clone) != str(state)
    assert state.move_number() == uo.SEED_BYTES


def test_a_given_engine_state_starts_the_game() -> None:
    game = load(players=3, profile=HOUSE)
    state = deal(game, 2)
    rng = random.Random(2)
    taken = play_randomly(state, rng, 30)
    # Windows let pass are no part of the engine state (docs/rl.md, "waits"): start just after a move.
    while taken[-1] == WAIT and not state.is_terminal():
        taken += play_randomly(state, rng, 1)
    again = game.new_initial_state(dumps(state.engine_state))
    assert dumps(again.engine_state) == dumps(state.engine_state)
    # It skips the chance nodes: play goes on from there, with an empty history.
    assert again.dealt and again.history() == [] and again.current_player() == state.current_player()
    assert again.legal_actions() == state.legal_actions()
    document = json.loads(dumps(state.engine_state))
    assert dumps(game.new_initial_state(document).engine_state) == dumps(state.engine_state)
    with pytest.raises(ActionError):
        load(players=2).new_initial_state(state.engine_state)


def test_the_length_cap_ends_the_round_as_a_draw() -> None:
    game = load(players=2, max_game_length=5)
    state = deal(game)
    play_randomly(state, random.Random(0), 100)
    # Five decisions; the four chance nodes before them are not counted.
    assert state.is_terminal() and state.truncated and state.move_number() == 5 + uo.SEED_BYTES
    assert state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert "length cap" in state.observation_string(0)


@pytest.mark.parametrize("reward", ["win", "points"])
def test_a_round_ends_by_its_rules_with_zero_sum_returns(reward: str) -> None:
    game = load(players=3, profile=HOUSE, reward=reward)
    rng = random.Random(11)
    ended = 0
    for k in range(3):
        state = deal(game, k)
        play_randomly(state, rng, 100_000)
        assert state.is_terminal()
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        if not state.truncated:
            ended += 1
            assert state.engine_state.phase >= Phase.ROUND_OVER
            winner = state.engine_state.match.last_round.winner
            if reward == "win":
                assert returns[winner] == 1.0
    assert ended


# --- legal actions --------------------------------------------------------------------------

@pytest.mark.parametrize("out_of_turn", ["windows", "turn-only"])
def test_legal_actions_are_the_engine_moves_of_the_actor(out_of_turn: str) -> None:
    game = load(players=4, profile=HOUSE, out_of_turn=out_of_turn, max_game_length=400)
    encoding = ActionEncoding(resolve_profile(HOUSE), 4)
    rng = random.Random(3)
    windows = 0
    for k in range(2):
        state = deal(game, k)
        while not state.is_terminal():
            s, actor = state.engine_state, state.current_player()
            moves = legal_moves(s, actor)
            out = actor != s.current
            assert state.in_window == out
            if out_of_turn == "turn-only":
                assert not out
            windows += out
            assert state.legal_actions() == encoding.legal_actions(moves, wait=out)
            assert state.legal_moves() == [None] * out + sorted(moves, key=encoding.index)
            for a in state.legal_actions():
                assert state.action_to_string(actor, a) == encoding.describe(a)
            state.apply_action(rng.choice(state.legal_actions()))
    if out_of_turn == "windows":
        assert windows


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = deal(load(players=2))
    before = str(state)
    illegal = next(a for a in range(state.get_game().num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ActionError):
        state.apply_action(illegal)
    assert WAIT not in state.legal_actions()
    with pytest.raises(ActionError):
        state.apply_action(WAIT)
    assert str(state) == before and state.history() == [0] * uo.SEED_BYTES


# --- observations ---------------------------------------------------------------------------

def test_observations_are_the_shared_encoding_of_the_view() -> None:
    game = load(players=3, profile=HOUSE)
    encoding = ObservationEncoding(resolve_profile(HOUSE), 3)
    state = deal(game, 4)
    play_randomly(state, random.Random(4), 25)
    for p in range(3):
        expected = encoding.encode(view(state.engine_state, p))
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), expected)
        assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), expected)
        text = state.observation_string(p)
        assert text == state.information_state_string(p)
        assert text.startswith(f"p{p} | hand ")
    # OpenSpiel's Python observation API, by segment; a public-only observer has no hands.
    obs = os_observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    obs.set_from(state, 1)
    assert list(obs.dict) == [s.name for s in encoding.layout]
    public = os_observation.make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 1)
    assert "hand" not in public.dict and "discard" in public.dict
    assert public.string_from(state, 1) == public.string_from(state, 2).replace("p2 |", "p1 |", 1)
    assert " hand " not in public.string_from(state, 1)


def test_players_do_not_see_the_chance_outcomes() -> None:
    """The seed bytes are in no player's observation or information state: before the deal every
    player sees the same all-zero tensor and fixed string whatever bytes were chosen; after it, what
    a player sees is the encoding of its view, the same as in the round started from the engine
    state with no chance nodes at all."""
    game = load(players=3, profile=HOUSE)
    size = game.information_state_tensor_size()
    a, b = game.new_initial_state(), game.new_initial_state()
    for x, y in [(7, 200), (0, 255), (19, 19), (19, 1)]:
        for p in range(3):
            for s in (a, b):
                assert s.is_chance_node()
                assert s.observation_string(p) == s.information_state_string(p) == f"p{p} | dealing"
                assert s.information_state_tensor(p) == s.observation_tensor(p) == [0.0] * size
        a.apply_action(x)
        b.apply_action(y)
    seed = int.from_bytes(bytes(a.history()), "big")
    assert a.history() == [7, 0, 19, 19] and a.dealt
    encoding = ObservationEncoding(resolve_profile(HOUSE), 3)
    direct = game.new_initial_state(a.engine_state)
    assert a.history() != direct.history() == []
    rng = random.Random(3)
    for step in range(25):
        for p in range(3):
            expected = encoding.encode(view(a.engine_state, p))
            assert np.array_equal(np.asarray(a.information_state_tensor(p), np.float32), expected)
            assert a.information_state_tensor(p) == direct.information_state_tensor(p)
            text = a.information_state_string(p)
            assert text == direct.information_state_string(p) == a.observation_string(p)
            if step == 0:
                assert "seed" not in text and str(seed) not in text and str(a.engine_state.rng) not in text
        if a.is_terminal():
            break
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        direct.apply_action(action)
    assert b.dealt and dumps(b.engine_state) != dumps(a.engine_state)


# --- resampling -----------------------------------------------------------------------------

def test_resample_keeps_the_information_state_and_plays_on() -> None:
    game = load(players=4, profile=HOUSE, max_game_length=600)
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    checked = changed = windows = 0
    for k in range(2):
        state = deal(game, k)
        while not state.is_terminal():
            if rng.random() < 0.1:
                actor = state.current_player()
                for p in range(4):
                    other = state.resample_from_infostate(p, sampler)
                    assert other.information_state_string(p) == state.information_state_string(p)
                    assert other.information_state_tensor(p) == state.information_state_tensor(p)
                    assert other.current_player() == actor
                    assert other.in_window == state.in_window
                    if p == actor:
                        assert other.legal_actions() == state.legal_actions()
                    changed += other.engine_state.hands != state.engine_state.hands
                    checked += 1
                windows += state.in_window
                # The resampled round plays on legally, to its end.
                other = state.resample_from_infostate(actor, sampler)
                for _ in range(30):
                    if other.is_terminal():
                        break
                    s, who = other.engine_state, other.current_player()
                    moves = legal_moves(s, who)
                    assert other.legal_actions() == game.rules.actions.legal_actions(moves, wait=who != s.current)
                    other.apply_action(rng.choice(other.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20 and changed > checked // 2 and windows


def test_resample_at_a_chance_node_draws_the_bytes_again() -> None:
    game = load(players=3)
    sampler = pyspiel.UniformProbabilitySampler(4, 0.0, 1.0)
    state = game.new_initial_state()
    state.apply_action(5)
    state.apply_action(6)
    other = state.resample_from_infostate(0, sampler)
    assert other.is_chance_node() and other.information_state_string(0) == state.information_state_string(0)
    assert json.loads(other.to_json())["seed_bytes"] != [5, 6]
    other.apply_action(1)
    other.apply_action(2)
    assert other.dealt and not state.dealt


# --- serialization --------------------------------------------------------------------------

@pytest.mark.parametrize("out_of_turn", ["windows", "turn-only"])
def test_serialization_round_trip_plays_on_identically(out_of_turn: str) -> None:
    game = load(players=4, profile=HOUSE, out_of_turn=out_of_turn, max_game_length=500)
    rng = random.Random(6)
    state = deal(game, 6)
    round_trips = 0
    while not state.is_terminal():
        if rng.random() < 0.05 or state.in_window:
            copy = game.deserialize_state(state.serialize())
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert dumps(copy.engine_state) == dumps(state.engine_state)
            # Both play the same actions the same way, windows let pass included.
            for _ in range(15):
                if state.is_terminal():
                    break
                assert copy.legal_actions() == state.legal_actions()
                assert copy.current_player() == state.current_player()
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                copy.apply_action(action)
                assert str(copy) == str(state)
            assert copy.returns() == state.returns()
            round_trips += 1
            continue
        state.apply_action(rng.choice(state.legal_actions()))
    assert round_trips
    # The serialized text holds JSON: the engine state, the windows let pass, the decision count.
    assert '"waits"' in state.to_json() and '"decisions"' in state.to_json()
    # Before the deal, the seed bytes chosen so far.
    chance = game.new_initial_state()
    chance.apply_action(3)
    copy = game.deserialize_state(chance.serialize())
    assert json.loads(copy.to_json())["seed_bytes"] == [3] and copy.history() == [3] and str(copy) == str(chance)


def _states_of_every_kind(game: Any) -> list[Any]:
    """States at a chance node, dealt, in a window, from an engine state, resampled, truncated, over."""
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    state = game.new_initial_state()
    out = [state.clone()]
    state.apply_action(200)
    out.append(state.clone())
    for byte in (1, 2, 3):
        state.apply_action(byte)
    rng = random.Random(8)
    play_randomly(state, rng, 30)
    out += [state.clone(), game.new_initial_state(state.engine_state), state.resample_from_infostate(0, sampler)]
    while not state.in_window and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state.clone())
    play_randomly(state, rng, 100_000)
    out.append(state)
    return out


def test_serialization_writes_json_data_and_reads_it_back_exactly() -> None:
    """No pickle: state.serialize() and pyspiel.serialize_game_and_state write one line of JSON
    (the game's parameters, the history, the round), and reading it back gives a state that
    writes the very same text."""
    game = load(players=3, profile=HOUSE, max_game_length=300)
    for state in _states_of_every_kind(game):
        text = state.serialize()
        data = json.loads(text)
        assert "\n" not in text and "__dict__" not in text
        assert data["unoengine"] == "openspiel-state" and data["version"] == 1
        assert data["history"] == [[h.player, h.action] for h in state.full_history()]
        copy = game.deserialize_state(text)
        assert copy.serialize() == text and str(copy) == str(state)
        assert copy.history() == state.history() and copy.move_number() == state.move_number()
        assert copy.is_terminal() == state.is_terminal() and copy.legal_actions() == state.legal_actions()
        both = pyspiel.serialize_game_and_state(game, state)
        assert "__dict__" not in both and both.split("[State]\n")[1] == text + "\n"
        game2, copy2 = pyspiel.deserialize_game_and_state(both)
        assert str(game2) == str(game) and copy2.serialize() == text


def test_a_state_saved_before_shuffles_were_named_is_refused_naming_the_shuffle() -> None:
    """A serialized state whose engine state names no shuffle (written before shuffles were
    named) shuffles as "mt19937" (docs/shuffle.md); classic-108 now shuffles otherwise, so the
    state is not of this game, and the refusal says that the shuffle is what differs."""
    game = load(players=2)
    state = deal(game, 7)
    data = json.loads(state.serialize())
    del data["state"]["profile"]["setup"]["shuffle"]
    legacy = attrs.evolve(resolve_profile("classic-108"), shuffle="mt19937")
    data["state"]["fingerprint"] = legacy.fingerprint
    with pytest.raises(SerializationError, match=r"it shuffles with 'mt19937', this game with 'splitmix64-v1'"):
        game.deserialize_state(json.dumps(data))
    data["state"]["profile"]["uno"]["penalty"] = 4  # other rules besides: no word of the shuffle
    data["state"]["fingerprint"] = attrs.evolve(legacy, uno_penalty=4).fingerprint
    with pytest.raises(SerializationError, match=r"is not of this game \(2 players, 'classic-108'\)$"):
        game.deserialize_state(json.dumps(data))


def _pickle_payload(marker: Any) -> str:
    """pyspiel's own state text for a Python game, whose pickled attributes call os.system to
    create ``marker`` when they are unpickled."""
    import base64
    import os
    import pickle
    import shlex

    class Hostile:
        def __reduce__(self) -> tuple[Any, tuple[str]]:
            return os.system, (f"touch {shlex.quote(str(marker))}",)

    attributes = base64.b64encode(pickle.dumps({"_round": Hostile()})).decode()
    return f"history=-1:1,-1:2\nmove_number=2\n__dict__={attributes}"


@pytest.mark.parametrize("entry", ["game.deserialize_state", "pyspiel.deserialize_game_and_state"])
def test_a_pickle_payload_is_refused_and_runs_nothing(entry: str, tmp_path: Any) -> None:
    """Issue 33: pyspiel's format for a Python state pickles its attributes, so reading it ran the
    text's code. A state of this game is read from JSON only: the pickled text is refused with a
    SerializationError that says why, and the code in it never runs."""
    marker = tmp_path / "ran"
    payload = _pickle_payload(marker)
    game = load(players=2)
    with pytest.raises(SerializationError, match="pickle") as caught:
        if entry == "game.deserialize_state":
            game.deserialize_state(payload)
        else:
            header = pyspiel.serialize_game_and_state(game, game.new_initial_state()).split("[State]")[0]
            pyspiel.deserialize_game_and_state(f"{header}[State]\n{payload}\n")
    assert isinstance(caught.value, UnoEngineError) and caught.value.field == "text"
    assert not marker.exists()


def _state_text(game: Any) -> dict[str, Any]:
    state = deal(game, 5)
    play_randomly(state, random.Random(5), 12)
    return dict(json.loads(state.serialize()))


def _with(**changes: Any) -> Any:
    return lambda d: {**d, **changes}


def _without(key: str) -> Any:
    return lambda d: {k: v for k, v in d.items() if k != key}


@pytest.mark.parametrize(("change", "field"), [
    (_with(unoengine="state"), "unoengine"),
    (_with(version=2), "version"),
    (_with(version=True), "version"),
    (_with(extra=1), "extra"),
    (_without("history"), "history"),
    (_with(game={"players": 3}), "game"),
    (_with(game="python_unoengine"), "game"),
    (lambda d: {**d, "game": {**d["game"], "players": 2.0}}, "game"),
    (lambda d: {**d, "game": {**d["game"], "max_game_length": 9999}}, "game"),
    (_with(history="0:1"), "history"),
    (lambda d: {**d, "history": [*d["history"], [0, True]]}, "history[16]"),
    (lambda d: {**d, "history": [*d["history"], [0, 1, 2]]}, "history[16]"),
    (lambda d: {**d, "history": [[5, 1], *d["history"]]}, "history[0]"),
    (lambda d: {**d, "history": [[-1, 256], *d["history"]]}, "history[0]"),
    (lambda d: {**d, "history": [[0, 10**6], *d["history"]]}, "history[0]"),
    (lambda d: {**d, "history": [[-1, 0]] * 205}, "history"),
    (_with(seed_bytes=[1]), "seed_bytes"),
    (_with(seed_bytes=[1, 2, 3, 4], state=None, waits=0, decisions=0), "seed_bytes"),
    (_with(seed_bytes=[300], state=None, waits=0, decisions=0), "seed_bytes"),
    (_with(state=None), "state"),
    (_with(state=[]), "state"),
    (lambda d: {**d, "state": {**d["state"], "hands": ["R1"]}}, "hands"),
    (_with(decisions=201), "decisions"),
    (_with(decisions=-1), "decisions"),
    (_with(truncated=True), "truncated"),
    (_with(truncated=1), "truncated"),
    (_with(waits=50), "waits"),
])
def test_a_malformed_state_text_is_refused_naming_the_field(change: Any, field: str) -> None:
    """Every field of the text is checked against the game before anything is built; a problem is a
    SerializationError (an UnoEngineError) naming the field."""
    game = load(players=2, max_game_length=200)
    text = json.dumps(change(_state_text(game)))
    with pytest.raises(SerializationError) as caught:
        game.deserialize_state(text)
    assert field in [f for f, _ in caught.value.problems] or f"{field}:" in str(caught.value), str(caught.value)


@pytest.mark.parametrize("text", [
    b"{}", None, "", "not json", "[1, 2]", "{" * 100 + "}" * 100, '{"a": NaN}', '{"a": 1, "a": 2}',
    "{" + " " * (8 * 1024 * 1024) + "}", "history=\nmove_number=0\n__dict__=gAR9lC4=",
])
def test_text_that_is_no_state_at_all_is_refused(text: Any) -> None:
    """Not text, not JSON, nested or repeated keys, over MAX_DOCUMENT_BYTES, pyspiel's pickled format
    (here of an empty dict): each a SerializationError at once."""
    with pytest.raises(SerializationError):
        load(players=2).deserialize_state(text)


@pytest.mark.parametrize("text", [
    "", "[Game]\npython_unoengine()\n[State]\n{}", "[Meta]\n[State]\n{}\n[Game]\npython_unoengine()",
    "stray line\n[Meta]\n[Game]\npython_unoengine()\n[State]\n{}", "[Meta]\n[Game]\npython_unoengine()\n",
])
def test_a_malformed_game_and_state_text_is_refused(text: str) -> None:
    with pytest.raises(SerializationError):
        pyspiel.deserialize_game_and_state(text)


def test_other_games_still_go_through_pyspiel() -> None:
    """The module functions stand in for pyspiel's only for this game's states."""
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state) and state2.history() == [4]


def test_parameters_are_checked_before_anything_is_built() -> None:
    """Each bad parameter is an ActionError naming it (also values the rules cache could not hash,
    and a max_game_length beyond MAX_ROUND_DECISIONS, which pyspiel could not hold)."""
    for params, name in [
        ({"players": [2]}, "players"), ({"players": True}, "players"), ({"players": 2.0}, "players"),
        ({"profile": ["classic-108"]}, "profile"), ({"profile": 3}, "profile"), ({"out_of_turn": {}}, "out_of_turn"),
        ({"reward": None}, "reward"), ({"max_game_length": 2**70}, "max_game_length"),
        ({"max_game_length": limits.MAX_ROUND_DECISIONS + 1}, "max_game_length"),
        ({"max_game_length": 1.5}, "max_game_length"), ({"bogus": 1, "x" * 10_000: 2}, "unknown"),
    ]:
        with pytest.raises(ActionError, match=name) as caught:
            uo.UnoGame(params)
        assert len(str(caught.value)) < 300
    with pytest.raises(ActionError, match="parameters"):
        uo.UnoGame(["players"])  # type: ignore[arg-type]
    assert load(max_game_length=limits.MAX_ROUND_DECISIONS).max_game_length() == limits.MAX_ROUND_DECISIONS


@settings(max_examples=budget(100, 1000), deadline=None)
@given(name=st.sampled_from(sorted(uo.PARAMETERS)), value=any_value())
def test_any_value_of_a_parameter_builds_or_is_refused_naming_it(name: str, value: Any) -> None:
    """UnoGame(params), as pyspiel.load_game calls it: built, or an UnoEngineError naming the
    parameter (pyspiel.load_game checks the types it knows itself first, with its own SpielError)."""
    try:
        uo.UnoGame({name: value})
    except UnoEngineError as exc:
        assert name in str(exc) or name == "profile", str(exc)
        assert len(str(exc)) < 600


@pytest.mark.parametrize("sampler", [lambda: float("nan"), lambda: 1.5, lambda: "0.5", lambda: True, 0.5],
                         ids=["nan", "above-one", "text", "bool", "not-callable"])
def test_a_bad_probability_sampler_is_refused(sampler: Any) -> None:
    state = deal(load(players=2), 1)
    with pytest.raises(ActionError, match="probability_sampler"):
        state.resample_from_infostate(0, sampler)


@settings(max_examples=budget(15, 150), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400), chance=st.integers(0, 4),
       out_of_turn=st.sampled_from(["windows", "turn-only"]))
def test_every_state_reads_back_as_it_was_written(seed: int, steps: int, chance: int, out_of_turn: str) -> None:
    """The round trip is exact at any point of a round: the text read back writes the same text."""
    game = load(players=3, profile=HOUSE, out_of_turn=out_of_turn, max_game_length=300)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(chance):
        state.apply_action(rng.randrange(256))
    if state.dealt:
        play_randomly(state, rng, steps)
    text = state.serialize()
    copy = game.deserialize_state(text)
    assert copy.serialize() == text and str(copy) == str(state) and copy.history() == state.history()


# --- layering -------------------------------------------------------------------------------

def test_importing_the_envs_package_does_not_import_pyspiel() -> None:
    code = ("import sys, unoengine.envs, unoengine.envs.actions, unoengine.envs.table, unoengine.envs.observations; "
            "assert 'pyspiel' not in sys.modules and 'open_spiel' not in sys.modules, 'pyspiel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
