"""The games behind ``unoengine mcp`` (tools/agent_games.py) and its tools (tools/agent_tools.py),
without the MCP SDK: starting games against the shipped bots, the agent's turn and out-of-turn
decisions, the bounds, every refusal naming its argument, and answers that never carry an
exception's text. tests/test_mcp_server.py drives the same through the SDK."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers_work import at_most_lines

import unoengine as u
from unoengine.bots.base import is_bot_name
from unoengine.engine.limits import MAX_FINISHED_GAMES, MAX_OPEN_GAMES, MAX_TOOL_TEXT_CHARS
from unoengine.tools.agent_games import SHIPPED_BOTS, AgentGame, AgentGameError, GameDesk, MoveRefused, desk_for
from unoengine.tools.agent_tools import TOOLS, ToolAnswer, answer_call


def call(desk: GameDesk, tool: str, **arguments: Any) -> ToolAnswer:
    return answer_call(desk, tool, arguments)


def data(answer: ToolAnswer) -> dict[str, Any]:
    assert not answer.error and answer.data is not None, answer.text
    return answer.data


def finish(desk: GameDesk, game_id: str, rng: random.Random, limit: int = 3000) -> dict[str, Any]:
    """Play a game to its end with a scripted agent: the first move listed (a play before a draw),
    now and then another one, and sometimes waiting when it may."""
    doc = data(call(desk, "get_view", game_id=game_id))
    for _ in range(limit):
        if doc["status"] == "over":
            return doc
        labels = [m["label"] for m in doc["legal_moves"]]
        move = "wait" if doc["may_wait"] and rng.random() < 0.5 else labels[0] if rng.random() < 0.8 else rng.choice(
            labels)
        doc = data(call(desk, "play_move", game_id=game_id, move=move))
    raise AssertionError(f"no end in {limit} decisions")


# --- games ----------------------------------------------------------------------------------------
def test_a_game_runs_to_its_end_and_its_result_is_the_engines() -> None:
    desk = GameDesk(seed=3)
    start = data(call(desk, "start_game", players=3, opponents=["random", "heuristic"]))
    assert start["game_id"] == "g1" and start["status"] == "your_turn" and start["player"] == 0
    assert start["result"] is None and start["legal_moves"]
    end = finish(desk, "g1", random.Random(1))
    game = desk.game("g1")
    last = game.state.match.last_round
    assert last is not None and end["result"]["winner"] == last.winner
    assert end["result"]["scores"] == list(game.state.scores) and end["result"]["moves"] == len(game.moves)
    assert end["legal_moves"] == [] and end["may_wait"] is False
    result = data(call(desk, "get_result", game_id="g1"))
    assert result == end["result"] and result["seed"] == str(game.seed)
    # the moves made replay to the same end from the seed
    state = u.new_game(game.profile, 3, game.seed)
    for move in game.moves:
        state = u.apply(state, move)
    assert state == game.state
    refused = call(desk, "play_move", game_id="g1", move="1")
    assert refused.error and refused.text == "game_id: game g1 is over: get_result gives its result"


def test_each_answer_is_the_agents_prompt_and_its_view_document() -> None:
    desk = GameDesk(seed=11)
    doc = data(call(desk, "start_game", players=2))
    game = desk.game(doc["game_id"])
    v = u.view(game.state, 0)
    assert doc["view"] == u.to_json(v)
    assert [m["move"] for m in doc["legal_moves"]] == [u.format_move(m) for m in v.legal_moves]
    assert [m["json"] for m in doc["legal_moves"]] == [u.to_json(m) for m in v.legal_moves]
    assert [m["label"] for m in doc["legal_moves"]] == [str(k) for k in range(1, len(v.legal_moves) + 1)]
    assert doc["prompt"].startswith("You are p0 in a game of UNO (classic-108, 2 players)")
    assert doc["prompt"].endswith('(game_id "g1").') and "Answer with one move in brackets" not in doc["prompt"]
    listed = data(call(desk, "legal_moves", game_id="g1"))
    assert listed == {key: doc[key] for key in ("game_id", "status", "may_wait", "legal_moves")}


def test_the_same_seed_and_answers_give_the_same_game() -> None:
    texts = []
    for _ in range(2):
        desk = GameDesk()
        answers = [call(desk, "start_game", players=3, seed=77, opponents="random")]
        rng = random.Random(5)
        for _ in range(30):
            doc = data(answers[-1])
            if doc["status"] == "over":
                break
            answers.append(call(desk, "play_move", game_id="g1", move=rng.choice(doc["legal_moves"])["move"]))
        texts.append([a.text for a in answers])
    assert texts[0] == texts[1]


def test_a_drawn_seed_is_told_only_once_the_game_is_over_and_follows_the_desks_seed() -> None:
    first, second = GameDesk(seed=9), GameDesk(seed=9)
    a = data(call(first, "start_game"))
    b = data(call(second, "start_game"))
    assert a["view"] == b["view"]  # the same deal from the same desk seed
    assert data(call(first, "get_result", game_id="g1"))["seed"] is None
    end = finish(first, "g1", random.Random(2))
    assert end["result"]["seed"] == str(first.game("g1").seed)
    other = data(call(GameDesk(seed=10), "start_game"))
    assert other["view"] != a["view"]
    desk = GameDesk()
    call(desk, "start_game", seed=12)
    call(desk, "start_game", seed="18446744073709551615")  # 2**64 - 1, as digits
    assert data(call(desk, "get_result", game_id="g1"))["seed"] == "12"  # a seed given is the client's own
    assert data(call(desk, "get_result", game_id="g2"))["seed"] == str(2**64 - 1)


def test_a_match_goes_on_until_the_target_and_the_agent_deals_when_it_is_its_turn() -> None:
    desk = GameDesk()
    data(call(desk, "start_game", match=True, seed=4, opponents="random"))
    doc = data(call(desk, "get_view", game_id="g1"))
    dealt = False
    for _ in range(5_000):
        if doc["status"] == "over":
            break
        moves = [m["move"] for m in doc["legal_moves"]]
        if any(m.endswith("deal") for m in moves):
            dealt = True
        doc = data(call(desk, "play_move", game_id="g1", move=moves[0]))
    game = desk.game("g1")
    assert doc["status"] == "over" and game.state.match_over
    assert doc["result"]["winner"] == game.state.match.winner and doc["result"]["round"] > 1
    assert dealt, "the agent never dealt a round"


def test_out_of_turn_the_agent_may_act_or_wait_and_the_game_goes_on() -> None:
    """Random bots forget to call UNO: the agent is asked out of turn (UNO-2) with "wait" among its
    choices; waiting lets the seats after it go on, and on its own turn waiting is refused."""
    desk = GameDesk()
    seen_window = seen_turn_wait = False
    for seed in range(40):
        doc = data(call(desk, "start_game", players=3, opponents="random", seed=seed))
        gid = doc["game_id"]
        for _ in range(500):
            if doc["status"] == "over":
                break
            if doc["status"] == "out_of_turn":
                assert doc["may_wait"] and "you may act out of turn now" in doc["prompt"]
                seen_window = True
                doc = data(call(desk, "play_move", game_id=gid, move="wait"))
                assert doc["played"] is None
                continue
            refused = call(desk, "play_move", game_id=gid, move="wait")
            assert refused.error and "waiting is only for moments out of turn" in refused.text
            seen_turn_wait = True
            doc = data(call(desk, "play_move", game_id=gid, move="1"))
        if seen_window and seen_turn_wait:
            break
    assert seen_window and seen_turn_wait


def test_the_agent_catches_a_player_who_did_not_call_uno() -> None:
    desk = GameDesk()
    for seed in range(60):
        doc = data(call(desk, "start_game", players=2, opponents="random", seed=seed))
        gid = doc["game_id"]
        for _ in range(500):
            if doc["status"] == "over":
                break
            catches = [m for m in doc["legal_moves"] if "catch" in m["move"]]
            if catches:
                doc = data(call(desk, "play_move", game_id=gid, move=catches[0]["label"]))
                assert doc["events"][0].startswith("you catch p1 without UNO")
                return
            doc = data(call(desk, "play_move", game_id=gid, move="1"))
    raise AssertionError("no catch in 60 games")


# --- refusals -------------------------------------------------------------------------------------
@pytest.mark.parametrize("arguments, message", [
    ({"players": "x"}, "players: expected an integer from 2 to 10, got 'x'"),
    ({"players": True}, "players: expected an integer from 2 to 10, got True"),
    ({"players": 2.0}, "players: expected an integer from 2 to 10, got 2.0"),
    ({"players": 11}, "players: expected an integer from 2 to 10, got 11"),
    ({"players": 10**5000}, "players: expected an integer from 2 to 10, got a value too large to show (int)"),
    ({"seat": 2}, "seat: expected an integer from 0 to 1, got 2"),
    ({"profile": ""}, "profile: '' is not a profile this server offers; profiles: classic-108"),
    ({"profile": "profiles/classic-108.toml"}, "profile: 'profiles/classic-108.toml' is not a profile"),
    ({"profile": "/etc/passwd"}, "profile: '/etc/passwd' is not a profile"),
    ({"profile": "stacking"}, "profile: 'stacking' is not a profile"),
    ({"profile": "classic-108+classic-108"}, "profile: 'classic-108+classic-108' is not a profile"),
    ({"profile": 7}, "profile: expected a profile name, got 7"),
    ({"profile": "classic-108+stacking+stacking-no-mercy"},
     "profile: stacking + stacking-no-mercy: play.stacking: overlays contradict each other"),
    ({"opponents": "program:sh -c 'rm -rf /'"}, "opponents: \"program:sh -c 'rm -rf /'\" is not a shipped bot"),
    ({"opponents": "text:os:system"}, "opponents: 'text:os:system' is not a shipped bot; expected one of heuristic"),
    ({"opponents": ["random", "random"]}, "opponents: expected one bot for every other seat (1), or one for all"),
    ({"opponents": []}, "opponents: expected one bot for every other seat (1), or one for all, got 0"),
    ({"opponents": ["random"] * 10**6}, "opponents: expected a bot name or a list of at most 9, got"),
    ({"opponents": {"p1": "random"}}, "opponents: expected a bot name or a list of at most 9, got"),
    ({"seed": -1}, "seed: expected an integer from 0 to 2**64 - 1 (or its digits as a string), got -1"),
    ({"seed": 2**64}, "seed: expected an integer from 0 to 2**64 - 1"),
    ({"seed": "12a"}, "seed: expected an integer from 0 to 2**64 - 1 (or its digits as a string), got '12a'"),
    ({"seed": 1.5}, "seed: expected an integer"),
    ({"match": "yes"}, "match: expected true or false, got 'yes'"),
    ({"colour": "red"}, "'colour': not an argument of start_game (its arguments: profile, players, seat, "),
    ({"profile": "x" * 1_000_000}, "profile: a text of 1,000,000 characters is longer than the 65,536 taken"),
])
def test_start_game_refuses_a_bad_argument_naming_it(arguments: dict[str, Any], message: str) -> None:
    desk = GameDesk()
    with at_most_lines(300_000):  # a composition of shipped files is read (TOML) before it is refused
        answer = answer_call(desk, "start_game", arguments)
    assert answer.error and answer.data is None and answer.text.startswith(message), answer.text
    assert "\n" not in answer.text and len(answer.text) < 2_000
    assert desk.open_games() == []


def test_play_move_refuses_hostile_moves_and_leaves_the_game_as_it_was() -> None:
    desk = GameDesk(seed=1)
    before = data(call(desk, "start_game", players=3))
    state = desk.game("g1").state
    cases = {
        "": "move: the answer is empty",
        "   ": "move: the answer is empty",
        "x" * (MAX_TOOL_TEXT_CHARS + 1): "move: a text of 65,537 characters is longer than the 65,536 taken",
        "x" * 1_048_576: "move: a text of 1,048,576 characters is longer than the 65,536 taken",
        "\u202e\x1b[31m\u2603\ud800": "move: '\\u202e\\x1b[31m\u2603\\ud800' is not a label or a move",
        "p1 draw": "move: you are p0: 'p1 draw' is a move of p1",
        "p2 R7": "move: you are p0: 'p2 R7' is a move of p2",
        "99": "move: there is no move [99]: the labels run from [1] to",
        "{\"move\": 5}": 'move: a JSON answer is an object {"move": "<label or notation>"}',
    }
    for move, message in cases.items():
        with at_most_lines(50_000):
            answer = call(desk, "play_move", game_id="g1", move=move)
        assert answer.error and answer.text.startswith(message), (move[:20], answer.text)
        assert answer.text.endswith("the game is unchanged") or "longer than" in answer.text
        assert "\n" not in answer.text and "\x1b" not in answer.text and len(answer.text) < 2_000
    for bad, message in [(5, "move: expected a label, a move in notation or {\"move\": ...}, got 5"),
                         ({"move": 5}, 'move: a move object is {"move": "<label or notation>"}'),
                         ({"x": "1"}, 'move: a move object is {"move": "<label or notation>"}'),
                         (None, "move: expected a label")]:
        answer = call(desk, "play_move", game_id="g1", move=bad)
        assert answer.error and answer.text.startswith(message), answer.text
    assert call(desk, "play_move", game_id="g1").text == "move: missing; play_move needs game_id, move"
    assert desk.game("g1").state is state and data(call(desk, "get_view", game_id="g1")) == before


def test_a_move_is_taken_by_label_notation_free_text_and_move_document() -> None:
    for form in ("label", "notation", "short", "sentence", "document", "object"):
        desk = GameDesk(seed=2)
        doc = data(call(desk, "start_game"))
        first = doc["legal_moves"][0]
        move = {"label": first["label"], "notation": first["move"], "short": first["move"].split(" ", 1)[1],
                "sentence": f"Let me think... I play [{first['move']}].", "document": json.dumps(first["json"]),
                "object": first["json"]}[form]
        played = data(call(desk, "play_move", game_id="g1", move=move))
        assert played["played"] == first["move"] and played["events"][0].startswith("you "), form


@pytest.mark.parametrize("game_id, message", [
    ("g2", "game_id: no game 'g2'; start_game gives game ids such as 'g1'"),
    ("g0", "game_id: no game 'g0'"),
    ("G1", "game_id: no game 'G1'"),
    ("", "game_id: no game ''"),
    ("../g1", "game_id: no game '../g1'"),
    ("g1\x00", "game_id: no game 'g1\\x00'"),
    ("g" + "9" * 100_000, "game_id: a text of 100,001 characters is longer than the 65,536 taken"),
    (1, "game_id: expected a game id such as 'g1', got 1"),
    (None, "game_id: expected a game id such as 'g1', got None"),
])
def test_an_unknown_game_id_is_refused_naming_it(game_id: object, message: str) -> None:
    desk = GameDesk()
    call(desk, "start_game")
    for tool in ("get_view", "legal_moves", "get_result", "end_game"):
        answer = answer_call(desk, tool, {"game_id": game_id})
        assert answer.error and answer.text.startswith(message), answer.text


def test_at_most_max_open_games_are_open_and_an_ended_one_frees_its_place() -> None:
    desk = GameDesk(seed=0)
    assert desk.max_open == MAX_OPEN_GAMES and desk.max_finished == MAX_FINISHED_GAMES
    ids = [data(call(desk, "start_game"))["game_id"] for _ in range(MAX_OPEN_GAMES)]
    assert ids == [f"g{k}" for k in range(1, MAX_OPEN_GAMES + 1)]
    refused = call(desk, "start_game")
    assert refused.error and refused.text.startswith(f"{MAX_OPEN_GAMES} games are open, the most one server keeps")
    ended = data(call(desk, "end_game", game_id="g5"))
    assert ended["game_id"] == "g5" and ended["over"] is False and ended["seed"] is None
    assert call(desk, "get_view", game_id="g5").text.startswith("game_id: game g5 was ended, or finished and dropped")
    assert data(call(desk, "start_game"))["game_id"] == f"g{MAX_OPEN_GAMES + 1}"
    listed = data(call(desk, "list_games"))
    assert listed["open"] == MAX_OPEN_GAMES and listed["max_open"] == MAX_OPEN_GAMES
    assert len(listed["games"]) == MAX_OPEN_GAMES and "g5" not in [g["game_id"] for g in listed["games"]]


def test_finished_games_are_kept_up_to_a_bound_the_oldest_dropped_first() -> None:
    desk = GameDesk(seed=8, max_finished=2)
    rng = random.Random(0)
    for _ in range(3):
        gid = data(call(desk, "start_game", opponents="random"))["game_id"]
        finish(desk, gid, rng)
    assert [g.game_id for g in desk.finished_games()] == ["g2", "g3"] and desk.open_games() == []
    assert call(desk, "get_result", game_id="g1").text.startswith(
        "game_id: game g1 was ended, or finished and dropped (the last 2 finished games are kept)")
    assert data(call(desk, "get_result", game_id="g2"))["over"] is True


def test_a_game_past_its_move_bound_is_stopped_without_a_winner() -> None:
    desk = GameDesk(max_moves=6)
    doc = data(call(desk, "start_game", opponents="random", seed=5))
    while doc["status"] != "over":
        doc = data(call(desk, "play_move", game_id="g1", move="1"))
    result = doc["result"]
    assert result["stopped"] == "stopped after 6 moves, the most one game may take"
    assert result["winner"] is None and result["you_won"] is None and result["moves"] == 6
    assert "is over without a result: stopped after 6 moves" in call(desk, "get_result", game_id="g1").text


class _FailingBot:
    """A bot whose own code raises, its message holding something no client may read."""

    name = "failing"

    def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
        raise RuntimeError(f"secret: {view.hand!r}")


def test_a_bot_that_fails_stops_its_game_and_nothing_of_its_error_is_shown(caplog: pytest.LogCaptureFixture) -> None:
    desk = GameDesk(seed=3)
    call(desk, "start_game", players=2)
    desk.game("g1").bots[1] = _FailingBot()
    doc = data(call(desk, "play_move", game_id="g1", move="1"))
    assert doc["status"] == "over" and doc["result"]["stopped"] == "stopped: the heuristic bot at p1 failed"
    texts = [doc["prompt"], str(doc), call(desk, "get_result", game_id="g1").text]
    assert not any("secret" in text or "Traceback" in text for text in texts)
    assert "secret" in caplog.text  # the server's log has it, for its operator


class _BrokenDesk(GameDesk):
    def game(self, game_id: object) -> AgentGame:
        raise KeyError(f"internal detail {self._open!r}")


def test_an_unexpected_failure_answers_only_which_tool_failed(caplog: pytest.LogCaptureFixture) -> None:
    answer = answer_call(_BrokenDesk(), "get_view", {"game_id": "g1"})
    assert answer.error and answer.data is None
    assert answer.text == "get_view failed on the server (its log says why); the game may be left as it was"
    assert "KeyError" in caplog.text


@pytest.mark.parametrize("name, arguments, message", [
    ("nope", {}, "no tool 'nope'; the tools: start_game, get_view, legal_moves, play_move, get_result"),
    ("", {}, "no tool ''"),
    (None, {}, "no tool None"),
    ("list_games", [], "arguments: expected an object, got []"),
    ("list_games", {"x": 1}, "'x': not an argument of list_games (its arguments: none)"),
    ("get_view", {"game_id": "g1", "\u202e": 1}, "'\\u202e': not an argument of get_view"),
])
def test_a_bad_call_is_refused_in_one_line(name: object, arguments: object, message: str) -> None:
    answer = answer_call(GameDesk(), name, arguments)
    assert answer.error and answer.text.startswith(message), answer.text
    assert data(answer_call(GameDesk(), "list_games", None)) == {"games": [], "open": 0, "max_open": MAX_OPEN_GAMES}


def test_the_tools_schemas_name_every_argument_the_calls_read() -> None:
    names = [spec.name for spec in TOOLS]
    assert names == ["start_game", "get_view", "legal_moves", "play_move", "get_result", "end_game", "list_games"]
    start = next(spec for spec in TOOLS if spec.name == "start_game")
    assert set(start.input_schema["properties"]) == {"profile", "players", "seat", "opponents", "seed", "match"}
    assert start.input_schema["properties"]["opponents"]["anyOf"][0]["enum"] == list(SHIPPED_BOTS)
    assert all(spec.input_schema["additionalProperties"] is False for spec in TOOLS)
    assert all(is_bot_name(name) for name in SHIPPED_BOTS)


# --- the operator's profiles ------------------------------------------------------------------------
def test_the_operator_offers_profiles_by_name_and_clients_never_name_a_file(tmp_path: Path) -> None:
    mine = tmp_path / "house.toml"
    mine.write_text('extends = "classic-108"\nname = "house"\n[uno]\npenalty = 4\n', encoding="utf-8")
    desk = desk_for([str(mine), "gdj85+stacking"], seed=1)
    assert sorted(desk.profiles) == ["gdj85+stacking", "house"]
    doc = data(call(desk, "start_game", profile="house"))
    assert doc["view"]["profile"]["name"] == "house" and doc["view"]["profile"]["uno"]["penalty"] == 4
    refused = call(desk, "start_game", profile=str(mine))
    assert refused.error and refused.text.startswith("profile: '/")
    assert "is not a profile this server offers" in refused.text
    clash = tmp_path / "clash.toml"
    clash.write_text('extends = "classic-108"\nname = "classic-108"\n[uno]\npenalty = 4\n', encoding="utf-8")
    with pytest.raises(AgentGameError, match="its name 'classic-108' is already the name of another profile"):
        desk_for([str(clash)], seed=None)
    assert sorted(desk_for(["classic-108"], None).profiles) == ["classic-108"]  # the same rules: no clash


def test_a_refused_move_says_why_in_the_agents_words() -> None:
    desk = GameDesk(seed=4)
    call(desk, "start_game")
    game = desk.game("g1")
    missing = next(c for c in u.parse_cards("R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 G0 G1 G2") if c not in game.view().hand)
    with pytest.raises(MoveRefused, match=f"you do not hold {missing!r}; the game is unchanged"):
        game.play(f"p0 {missing!r}")
