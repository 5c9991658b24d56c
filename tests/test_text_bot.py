"""TextBot (issue 35): any ``callable(prompt) -> str`` as a bot, with one retry after a refused
answer and a counted fallback; by name in simulate and over the wire protocol."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers_text import first_label, turn_view

import unoengine as u
from unoengine.bots import make_bot
from unoengine.bots.base import PluginError
from unoengine.bots.text_bot import Forfeit, TextBot, TextBotError
from unoengine.bots.turns import next_move, tell_bots
from unoengine.tools import simulate as sim

TESTS = Path(__file__).resolve().parent
HOSTILE: list[object] = ["", "x" * (1 << 20), "\x1b[2J\x00\u202e🂡", "[p9 R7]", None, 7]


def script(*answers: object) -> Callable[[str], object]:
    """Answers in turn, recording the prompts it was given."""
    queue = list(answers)
    prompts: list[str] = []

    def ask(prompt: str) -> object:
        prompts.append(prompt)
        return queue.pop(0)

    ask.prompts = prompts  # type: ignore[attr-defined]
    return ask


def test_a_refused_answer_gets_the_reason_and_one_retry() -> None:
    ask = script("[R7]", "[5]")
    bot = TextBot(ask)  # type: ignore[arg-type]
    assert bot.act(turn_view(), random.Random(0)) == u.Draw(2)
    second = ask.prompts[1]  # type: ignore[attr-defined]
    assert second.startswith(ask.prompts[0])  # type: ignore[attr-defined]
    assert "Your answer was not accepted: 'p2 R7': you do not hold R7." in second
    assert (bot.stats.prompts, bot.stats.refused, bot.stats.fallbacks) == (2, 1, 0)


@pytest.mark.parametrize("bad", HOSTILE, ids=["empty", "1MB", "junk", "other-player", "None", "int"])
def test_hostile_answers_fall_back_to_a_random_move_from_the_seed(bad: object) -> None:
    """Two bad answers: a random legal move drawn from the runner's rng (the same for the same seed), counted."""
    picks = []
    for _ in range(2):
        bot = TextBot(script(bad, bad))  # type: ignore[arg-type]
        picks.append(bot.act(turn_view(), random.Random(11)))
        assert (bot.stats.refused, bot.stats.fallbacks) == (2, 1)
    assert picks[0] == picks[1] == random.Random(11).choice(turn_view().legal_moves)
    assert "\x1b" not in (bot.stats.last_reason or "")


def test_forfeit_names_the_seat_and_out_of_turn_a_fallback_lets_it_pass() -> None:
    bot = TextBot(script("no", "no"), fallback="forfeit")  # type: ignore[arg-type]
    with pytest.raises(Forfeit, match="at seat 2 forfeits") as info:
        bot.act(turn_view(), random.Random(0))
    assert info.value.seat == 2 and bot.stats.forfeits == 1
    state = u.from_position("classic-108", ["G2", "B3 B4 Y5", "G7 R1"], "R9", current=1, uno_exposed=0)
    bot = TextBot(script("no", "no"), fallback="forfeit")  # type: ignore[arg-type]
    assert bot.act(u.view(state, 2), random.Random(0)) is None and bot.stats.fallbacks == 1


def test_bad_arguments_are_refused_by_name() -> None:
    with pytest.raises(TextBotError, match="ask must be"):
        TextBot("gpt")  # type: ignore[arg-type]
    with pytest.raises(TextBotError, match="fallback must be"):
        TextBot(first_label, fallback="quit")  # type: ignore[arg-type]
    with pytest.raises(TextBotError, match="retries"):
        TextBot(first_label, retries=-1)
    with pytest.raises(PluginError, match="expected MODULE:CALLABLE"):
        make_bot("text:nothing")
    with pytest.raises(PluginError, match="cannot be loaded: ModuleNotFoundError"):
        make_bot("text:no_such_module_here:ask")


def test_the_prompts_recall_the_last_moves() -> None:
    seen: list[str] = []

    def ask(prompt: str) -> str:
        seen.append(prompt)
        return first_label(prompt)

    state = u.new_game("classic-108", 2, seed=5)
    seats = [TextBot(ask), make_bot("random")]
    rngs = [random.Random(1), random.Random(2)]
    for _ in range(6):
        move = next_move(state, seats, rngs)
        tell_bots(seats, move)
        state = u.apply(state, move)
    assert any("Last moves: p" in p for p in seen[1:])


def test_scripted_text_players_play_whole_games_through_simulate() -> None:
    """By name (text:MODULE:CALLABLE) against the shipped bots, with no failures; answers given by
    label in free text and in bare notation both reach the game."""
    results = sim.run("classic-108", ["text:helpers_text:first_label", "text:helpers_text:last_notation",
                                      "heuristic"], games=6, seed=1)
    assert not results.failures and len(results) == 6
    again = sim.run("classic-108", ["text:helpers_text:first_label", "text:helpers_text:last_notation",
                                    "heuristic"], games=6, seed=1)
    assert again == results


def test_a_text_player_that_never_answers_a_move_forfeits_by_seat_in_simulate() -> None:
    results = sim.run("classic-108", ["random", "text-forfeit:helpers_text:nonsense"], games=1, seed=1,
                      keep_going=True)
    assert len(results.failures) == 1 and "forfeits" in results.failures[0].error


def test_refused_answers_and_fallbacks_are_counted_per_seat_in_the_summary() -> None:
    """Issue 35: every refused answer and every fallback is counted and reported. The player's own
    log, kept apart from the bot, gives the counts the summary must show."""
    import helpers_text

    helpers_text.FICKLE_LOG.clear()
    results = sim.run("classic-108", ["heuristic", "text:helpers_text:fickle"], games=5, seed=3)
    log = list(helpers_text.FICKLE_LOG)
    refused = log.count("nonsense") + log.count("nonsense-again")
    assert refused and log.count("nonsense-again"), log  # the script exercises both paths
    summary = sim.summarize(results, ["heuristic", "text:helpers_text:fickle"])
    assert summary.answers == ((1, "text:helpers_text:fickle", len(log), refused, log.count("nonsense-again")),)
    assert all(r.answers[0] == (0, 0, 0) for r in results)  # the heuristic seat answers no prompts
    plain = sim.summarize(sim.run("classic-108", ["heuristic", "random"], games=2, seed=3), ["heuristic", "random"])
    assert plain.answers == ()


def test_the_command_line_reports_the_text_players_answers(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from unoengine.tools import cli

    bots = "heuristic,text:helpers_text:fickle"
    assert cli.main(["simulate", "--bots", bots, "--games", "3", "--seed", "3"]) == 0
    line, = [t for t in capsys.readouterr().out.splitlines() if t.startswith("text answers")]
    assert line.startswith("text answers, seat 1 (text:helpers_text:fickle): ") and "refused" in line
    assert cli.main(["simulate", "--bots", bots, "--games", "3", "--seed", "3", "--json"]) == 0
    answers, = json.loads(capsys.readouterr().out)["answers"]
    assert answers["seat"] == 1 and answers["prompts"] > answers["refused"] > 0


def test_a_scripted_text_player_plays_over_the_wire_protocol() -> None:
    """The bot server serves text:helpers_text:first_label as a program bot, through whole games."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    command = f"{sys.executable} -m unoengine.tools.bot_server text:helpers_text:first_label"
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = env["PYTHONPATH"]
    try:
        results = sim.run("classic-108", [f"program:{command}", "random"], games=2, seed=4)
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    assert not results.failures and len(results) == 2
    direct = sim.run("classic-108", ["text:helpers_text:first_label", "random"], games=2, seed=4)
    assert [r.winner for r in results] == [r.winner for r in direct]

