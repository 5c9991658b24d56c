"""``unoengine play``: the terminal game, driven by scripted input (``run()`` with StringIO streams) and once
through a real pseudo-terminal. Situations the tests need (two cards in hand, a wild to play, a bot that
forgot UNO) are made by playing bots to that point and saving the game for ``--resume``."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import unoengine as u
from unoengine.bots import bot_names, make_bot
from unoengine.bots.base import SHIPPED_BOTS
from unoengine.simulate import next_move
from unoengine.tools import play as play_cli

PROMPT = "your move: "


# --- helpers --------------------------------------------------------------------------------
def parse(*options: str, color: bool = False) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_cli.add_arguments(parser)
    return parser.parse_args([*options] if color else [*options, "--no-color"])


def play(options: list[str], lines: list[str]) -> tuple[int, str]:
    """Run the game with these input lines; the exit code and everything printed."""
    out = io.StringIO()
    rc = play_cli.run(parse(*options), io.StringIO("".join(f"{line}\n" for line in lines)), out)
    return rc, out.getvalue()


Answer = Callable[[str], "str | None"]
"""Given the prompt line the game is waiting on, the reply (None: end of input)."""


class Person(io.StringIO):
    """A stdin that answers each prompt from what the game printed last, like a person at the keyboard."""

    def __init__(self, out: io.StringIO, answer: Answer, limit: int = 5000) -> None:
        super().__init__()
        self.out = out
        self.answer = answer
        self.limit = limit
        self.prompts: list[str] = []

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        prompt = text[text.rfind("\n") + 1:]
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            return ""
        reply = self.answer(prompt)
        return "" if reply is None else reply + "\n"


def play_with(options: list[str], answer: Answer) -> tuple[int, str, Person]:
    out = io.StringIO()
    person = Person(out, answer)
    rc = play_cli.run(parse(*options), person, out)
    return rc, out.getvalue(), person


def answer_ones(moves: int, save: Path | None = None, next_round: str = "y") -> Answer:
    """Answer "1" to the first ``moves`` move prompts (colour 1 = red, UNO yes), then save (if asked) and quit."""
    count = [0]

    def answer(prompt: str) -> str | None:
        if prompt.endswith("colour? r/y/g/b "):
            return "1"
        if prompt.endswith("call UNO? [Y/n] "):
            return "y"
        if prompt.endswith("next round? [Y/n] "):
            return next_round
        if prompt.endswith(PROMPT):
            count[0] += 1
            if count[0] <= moves:
                return "1"
            if save is not None and count[0] == moves + 1:
                return f"save {save}"
            return "quit"
        raise AssertionError(f"unexpected prompt {prompt!r}")

    return answer


def load(path: Path) -> tuple[u.GameRecord, int, list[str]]:
    doc = json.loads(path.read_text())
    assert doc["unoengine"] == "saved-game" and doc["version"] == 1
    record = u.from_json(doc["record"])
    assert isinstance(record, u.GameRecord)
    return record, doc["seat"], doc["bots"]


def write_save(path: Path, record: u.GameRecord, seat: int, bots: list[str]) -> Path:
    path.write_text(json.dumps(play_cli.saved_game(record, seat, bots)))
    return path


def bot_game(spec: str, players: int, bots: str, stop: Callable[[u.GameState], bool],
             seeds: range = range(60)) -> u.GameRecord:
    """Bots play every seat until ``stop(state)``: the record of the first seed that gets there."""
    profile = u.load_profile(spec)
    for seed in seeds:
        seats = [make_bot(bots) for _ in range(players)]
        rngs = [random.Random(f"{seed}/seat{i}") for i in range(players)]
        record = u.GameRecord(profile, players, seed)
        state = record.initial_state()
        moves: list[u.Move] = []
        while not state.round_over:
            if stop(state):
                return record.with_moves(moves)
            move = next_move(state, seats, rngs)
            state = u.apply(state, move)
            moves.append(move)
    raise AssertionError("no seed reached the situation")


def last_menu(out: str) -> list[str]:
    """The entries of the last move list printed."""
    block = out[out.rfind("moves:\n") + len("moves:\n"):]
    return [line.strip() for line in block.splitlines() if line.startswith("  ") and ") " in line]


def status_block(out: str, which: int) -> str:
    """The ``which``-th table shown to the person (from its title line to the move list)."""
    starts = [i for i in range(len(out)) if out.startswith("\n--- round", i)]
    start = starts[which]
    return out[start:out.index(PROMPT, start)]


def my_turn(seat: int) -> Callable[[u.GameState], bool]:
    return lambda s: s.current == seat and s.phase is u.Phase.PLAY


# --- a whole round, determinism ---------------------------------------------------------------
def test_a_whole_round_played_by_typing_numbers() -> None:
    """END-1, SCORE-2: answering 1 to every move (colour 1, UNO yes) plays a round to its result."""
    options = ["--seed", "5", "--players", "3"]
    rc, out, person = play_with(options, answer_ones(10_000, next_round="n"))
    assert rc == 0
    assert "=== round 1 over: " in out
    assert "points won: " in out
    assert out.rstrip().endswith("next round? [Y/n] goodbye")
    assert sum(p == PROMPT for p in person.prompts) > 3
    assert play_with(options, answer_ones(10_000, next_round="n"))[1] == out  # same seed, same input: same game


def test_the_round_result_matches_the_replayed_record(tmp_path: Path) -> None:
    """END-1, SCORE-2: the result shown is the one the saved record replays to."""
    save = tmp_path / "end.json"

    def answer(prompt: str) -> str | None:
        if prompt.endswith("next round? [Y/n] "):
            return f"save {save}" if not save.exists() else "n"
        return answer_ones(10_000)(prompt)

    rc, out, _ = play_with(["--seed", "11", "--players", "2"], answer)
    assert rc == 0
    record, seat, bots = load(save)
    assert (seat, bots) == (0, ["heuristic"])
    state = record.replay()
    result = state.match.last_round
    assert state.round_over and result is not None
    who = "you" if result.winner == 0 else f"p{result.winner}"
    assert f"=== round 1 over: {who} won" in out
    assert f"points won: {who} +{result.points_won[result.winner]}" in out


def test_several_rounds_and_the_next_dealer_deals(tmp_path: Path) -> None:
    """SETUP-11: after "y" at the next-round prompt the next dealer deals round 2."""
    def answer(prompt: str) -> str | None:  # the first choice every time until round 2 has begun, then quit
        if prompt.endswith(PROMPT) and "--- round 2, " in person_out.getvalue():
            return "quit"
        return answer_ones(10_000)(prompt)

    person_out = io.StringIO()
    rc = play_cli.run(parse("--seed", "2", "--players", "2"), Person(person_out, answer), person_out)
    out = person_out.getvalue()
    assert rc == 0
    assert "=== round 1 over" in out
    second = (u.new_game("classic-108", 2, seed=2).dealer + 1) % 2  # round 1's dealer's left deals (SETUP-11)
    assert ("you deal" if second == 0 else f"p{second} deals") + " round 2, the first card is " in out
    assert "--- round 2, " in out


# --- typed moves and mistakes ----------------------------------------------------------------
def first_prompt(tmp_path: Path, options: list[str]) -> tuple[u.GameState, int]:
    """The state at the person's first prompt (saved there, then quit)."""
    save = tmp_path / "first.json"
    rc, _ = play(options, [f"save {save}", "quit"])
    assert rc == 0
    record, seat, _ = load(save)
    return record.replay(), seat


def test_a_move_typed_in_notation(tmp_path: Path) -> None:
    """PLAY-1: a card typed by name (seat left out, any case) is played; so is 'p0 CARD'."""
    options = ["--seed", "2", "--players", "2"]  # seed 2: the person plays first and holds Y1, Y7, Y9, YR on Y7
    state, seat = first_prompt(tmp_path, options)
    assert state.current == seat
    plain = [m.card for m in u.legal_moves(state, seat) if isinstance(m, u.Play) and not m.card.is_wild]
    assert plain, "the seed deals the person a plain card to play"
    card = plain[0]
    for typed in (repr(card).lower(), f"p{seat} {card!r}", f"{seat} {card!r}"):
        save = tmp_path / "typed.json"
        rc, out = play(options, [typed, f"save {save}", "quit"])
        assert rc == 0
        assert f"you play {card!r}" in out
        record, _, _ = load(save)
        assert record.moves[0] == u.Play(seat, card)


def test_draw_typed_in_notation(tmp_path: Path) -> None:
    """PLAY-4: 'draw' draws one card, shown to the person, and offers keeping it."""
    options = ["--seed", "3", "--players", "2"]
    state, seat = first_prompt(tmp_path, options)
    assert u.Draw(seat) in u.legal_moves(state, seat)
    drawn = state.remaining_draw_pile[0]
    rc, out = play(options, ["draw", "quit"])
    assert rc == 0
    assert f"you draw a card ({drawn!r})" in out
    assert f"you drew {drawn!r}: play it or keep it" in out
    assert "keep the drawn card (end your turn)" in last_menu(out)[-1]


def test_a_mistyped_card_gets_a_message_and_the_prompt_again(tmp_path: Path) -> None:
    """'R10' is not a card: one line, no traceback, the same prompt again."""
    rc, out = play(["--seed", "3", "--players", "2"], ["R10", "quit"])
    assert rc == 0
    line = out.split(PROMPT)[1].splitlines()  # the text after the first prompt
    assert line[0].startswith("'R10' is not a card: ")
    assert out.count(PROMPT) == 2
    assert "Traceback" not in out
    assert out.rstrip().endswith("goodbye (the game is not saved)")


def test_a_number_out_of_range(tmp_path: Path) -> None:
    """A number beyond the list names the range."""
    options = ["--seed", "3", "--players", "2"]
    state, seat = first_prompt(tmp_path, options)
    k = len(play_cli.menu(u.view(state, seat)))
    rc, out = play(options, [str(k + 1), "0", "quit"])
    assert rc == 0
    assert f"\n{PROMPT}{k + 1} is not one of the moves 1-{k}\n" in out
    assert f"\n{PROMPT}0 is not one of the moves 1-{k}\n" in out  # 0 lets nothing pass on one's own turn
    assert out.count(PROMPT) == 3


def test_an_illegal_card_gets_the_engine_reason(tmp_path: Path) -> None:
    """PLAY-1: a card that does not match, or is not held, is refused with the IllegalMoveError's reason and rule."""
    options = ["--seed", "3", "--players", "2"]
    state, seat = first_prompt(tmp_path, options)
    playable = {m.card for m in u.legal_moves(state, seat) if isinstance(m, u.Play)}
    held = next(c for c in state.hand(seat) if c not in playable and not c.is_wild)
    absent = next(c for c in u.CARDS[:52] if c not in state.hand(seat))
    lines = []
    for card in (held, absent):
        with pytest.raises(u.IllegalMoveError) as caught:
            u.apply(state, u.Play(seat, card))
        exc = caught.value
        lines.append(f"{card!r} cannot be played now: {exc.detail} [{exc.rule} {exc.reason}]")
    rc, out = play(options, [repr(held), repr(absent), f"p{1 - seat} R7", "quit"])
    assert rc == 0
    for line in lines:
        assert f"\n{PROMPT}{line}\n" in out
    assert f"you are p{seat}: 'p{1 - seat} R7' is a move of p{1 - seat}" in out
    assert out.count(PROMPT) == 4


def test_enter_on_ones_own_turn_explains_what_to_type() -> None:
    """An empty line on the person's turn is not a move; help lists the commands."""
    rc, out = play(["--seed", "3", "--players", "2"], ["", "help", "quit"])
    assert rc == 0
    assert "type a move number 1-" in out
    assert "Commands: save [FILE]" in out


# --- wilds, UNO, catching --------------------------------------------------------------------
def test_a_wild_chosen_by_number_asks_for_the_colour(tmp_path: Path) -> None:
    """ACT-4: choosing a Wild by number prompts for the colour; a bad colour is asked again."""
    seat = 0
    record = bot_game("classic-108", 3, "heuristic",
                      lambda s: my_turn(seat)(s) and u.Play(seat, u.CARDS[u.WILD], u.Color.GREEN)
                      in u.legal_moves(s, seat))
    path = write_save(tmp_path / "wild.json", record, seat, ["heuristic", "heuristic"])
    state = record.replay()
    entries = play_cli.menu(u.view(state, seat))
    k = next(i for i, (_, m) in enumerate(entries, 1) if isinstance(m, u.Play) and m.card == u.WILD)
    assert entries[k - 1][0] == "play W, naming a colour"
    after = tmp_path / "after.json"
    rc, out = play(["--resume", str(path)], [str(k), "x", "g", f"save {after}", "quit"])
    assert rc == 0
    assert "colour? r/y/g/b 'x' is not a colour: answer r, y, g or b" in out
    assert "you play W and name green" in out
    assert load(after)[0].moves[len(record.moves)] == u.Play(seat, u.CARDS[u.WILD], u.Color.GREEN)
    rc, out = play(["--resume", str(path)], ["W:B", f"save {after}", "quit"])  # typed with its colour: no prompt
    assert rc == 0 and "colour?" not in out
    assert load(after)[0].moves[len(record.moves)] == u.Play(seat, u.CARDS[u.WILD], u.Color.BLUE)


def two_cards_record() -> u.GameRecord:
    return bot_game("classic-108", 3, "heuristic", lambda s: my_turn(0)(s) and len(s.hand(0)) == 2 and any(
        isinstance(m, u.Play) and not m.card.is_wild for m in u.legal_moves(s, 0)))


def test_playing_from_two_cards_asks_for_the_uno_call(tmp_path: Path) -> None:
    """UNO-1: from two cards the play asks "call UNO?"; Enter calls it."""
    record = two_cards_record()
    path = write_save(tmp_path / "two.json", record, 0, ["heuristic", "heuristic"])
    state = record.replay()
    entries = play_cli.menu(u.view(state, 0))
    k, card = next((i, m.card) for i, (_, m) in enumerate(entries, 1) if isinstance(m, u.Play) and not m.card.is_wild)
    after = tmp_path / "after.json"
    rc, out = play(["--resume", str(path)], [str(k), "", f"save {after}", "quit"])
    assert rc == 0
    assert "call UNO? [Y/n] " in out
    assert f"you play {card!r} and call UNO" in out
    assert load(after)[0].moves[len(record.moves)] == u.Play(0, card, uno=True)


def test_declining_the_uno_call_gets_caught(tmp_path: Path) -> None:
    """UNO-1, UNO-2: answering n plays without the call, and a bot catches the person at once."""
    record = two_cards_record()
    path = write_save(tmp_path / "two.json", record, 0, ["heuristic", "heuristic"])
    state = record.replay()
    card = next(m.card for m in u.legal_moves(state, 0) if isinstance(m, u.Play) and not m.card.is_wild)
    after = tmp_path / "after.json"
    # Enter lets the late call pass if the person is asked before a bot can catch (UNO-4)
    rc, out = play(["--resume", str(path)], [repr(card), "n", "", f"save {after}", "quit"])
    assert rc == 0
    assert f"you play {card!r} and do not call UNO" in out
    assert "catches you without UNO; you draw 2 (" in out
    moves = load(after)[0].moves[len(record.moves):]
    assert moves[0] == u.Play(0, card)
    assert isinstance(moves[1], u.CatchUno) and moves[1].target == 0


def test_a_late_uno_call_is_offered_out_of_turn(tmp_path: Path) -> None:
    """UNO-4: after playing without the call, the person (asked before the bots that follow in seat order)
    may still call UNO late."""
    record = two_cards_record()
    path = write_save(tmp_path / "two.json", record, 0, ["heuristic", "heuristic"])
    state = record.replay()
    card = next(m.card for m in u.legal_moves(state, 0) if isinstance(m, u.Play) and not m.card.is_wild)
    after_play = u.apply(state, u.Play(0, card))
    assert after_play.uno_exposed == 0 and after_play.current == 2  # p0 comes first in seat order after p2
    after = tmp_path / "after.json"
    rc, out = play(["--resume", str(path)], [repr(card), "n", "1", f"save {after}", "quit"])
    assert rc == 0
    assert "  1) call UNO (late, before anyone catches you)\n  0) let it pass (Enter)" in out
    assert "you call UNO late" in out
    assert load(after)[0].moves[len(record.moves):][:2] == (u.Play(0, card), u.CallUno(0))


def test_the_bang_in_notation_calls_uno_without_asking(tmp_path: Path) -> None:
    """UNO-1: 'CARD!' calls UNO with the play; no question."""
    record = two_cards_record()
    path = write_save(tmp_path / "two.json", record, 0, ["heuristic", "heuristic"])
    card = next(m.card for m in u.legal_moves(record.replay(), 0) if isinstance(m, u.Play) and not m.card.is_wild)
    rc, out = play(["--resume", str(path)], [f"{card!r}!", "quit"])
    assert rc == 0
    assert "call UNO?" not in out
    assert f"you play {card!r} and call UNO" in out


def exposed_bot_record() -> u.GameRecord:
    """A bot has just played its next-to-last card without calling, and the person (p0) is first to react."""
    return bot_game("classic-108", 3, "random", lambda s: s.uno_exposed > 0 and s.current != 0
                    and (s.current + 1) % 3 == 0 and s.phase < u.Phase.ROUND_OVER)


def test_catching_is_offered_out_of_turn(tmp_path: Path) -> None:
    """UNO-2: out of turn the person is offered the catch, with 0 to let it pass; catching makes the bot draw."""
    record = exposed_bot_record()
    state = record.replay()
    exposed = state.uno_exposed
    path = write_save(tmp_path / "catch.json", record, 0, ["heuristic", "heuristic"])
    after = tmp_path / "after.json"
    rc, out = play(["--resume", str(path)], ["1", f"save {after}", "quit"])
    assert rc == 0
    first = status_block(out, 0)
    assert f"p{state.current}'s turn: you may act out of turn" in first
    assert f"  p{exposed}        1 card    did not call UNO: may be caught" in first
    assert f"  1) catch p{exposed} (did not call UNO)\n  0) let it pass (Enter)" in out
    assert f"you catch p{exposed} without UNO; p{exposed} draws 2" in out
    assert load(after)[0].moves[len(record.moves)] == u.CatchUno(0, exposed)


def test_letting_the_catch_pass(tmp_path: Path) -> None:
    """UNO-2: Enter lets the moment pass; the bots go on and the person caught nobody."""
    record = exposed_bot_record()
    path = write_save(tmp_path / "catch.json", record, 0, ["heuristic", "heuristic"])
    after = tmp_path / "after.json"
    rc, out = play(["--resume", str(path)], ["", f"save {after}", "quit"])
    assert rc == 0
    assert "you catch" not in out
    made = load(after)[0].moves[len(record.moves)]
    assert made.player != 0


def test_the_challenge_menu_names_the_stakes() -> None:
    """WD4-3: facing a Wild Draw Four the menu offers the challenge and accepting 4 cards, in plain words."""
    state = u.from_position("classic-108", ["R3 W+4 G5", "B1 B2 B3", "Y1 Y2 Y3"], "R7")
    state = u.apply(state, u.Play(0, "W+4", u.Color.GREEN))
    texts = [text for text, _ in play_cli.menu(u.view(state, 1))]
    assert texts == ["challenge the Wild Draw Four (bluff: p0 draws 4; if not, you draw 6)", "accept 4 cards"]


def test_a_bot_move_is_one_readable_line() -> None:
    """ACT-3: a Draw Two reads 'p2 plays G+2; p3 draws 2 and misses the turn'; the person reads their own cards."""
    state = u.from_position("classic-108", ["R1 R2", "B1 B2", "G+2 G4 G5", "Y1 Y2"], "G7", current=2,
                            draw_pile="R5 B9 Y7 G1")
    _, events = u.apply_with_events(state, u.Play(2, "G+2"))
    as_p0 = play_cli.describe(u.events_for(events, 0), lambda p: "you" if p == 0 else f"p{p}")
    assert as_p0 == "p2 plays G+2; p3 draws 2 and misses the turn"
    as_p3 = play_cli.describe(u.events_for(events, 3), lambda p: "you" if p == 3 else f"p{p}")
    assert as_p3 == "p2 plays G+2; you draw 2 (R5 B9) and miss your turn"


def test_a_missed_uno_call_reads_with_the_play() -> None:
    """UNO-1: a play from two cards without the call reads 'plays G+2 and does not call UNO' before its effect."""
    state = u.from_position("classic-108", ["R1 R2", "B1 B2", "G+2 G4", "Y1 Y2"], "G7", current=2,
                            draw_pile="R5 B9 Y7 G1")
    _, events = u.apply_with_events(state, u.Play(2, "G+2"))
    line = play_cli.describe(u.events_for(events, 0), lambda p: f"p{p}")
    assert line == "p2 plays G+2 and does not call UNO; p3 draws 2 and misses the turn"


# --- save and resume ------------------------------------------------------------------------
def test_save_then_resume_gives_the_same_game(tmp_path: Path) -> None:
    """A saved game resumes at the same state and shows the same table; going on after a resume plays
    exactly as going on without the save."""
    options = ["--seed", "8", "--players", "4", "--bots", "random,heuristic,random"]
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    rc, out_a, _ = play_with(options, answer_ones(4, first))
    assert rc == 0 and f"saved to {first}" in out_a
    record, seat, bots = load(first)
    assert (seat, bots, record.seed, record.players) == (0, ["random", "heuristic", "random"], 8, 4)
    rc, out_b, _ = play_with(["--resume", str(first)], answer_ones(0, again))
    assert rc == 0
    assert load(again)[0] == record
    assert load(again)[0].replay() == record.replay()
    assert status_block(out_b, 0) == status_block(out_a, -1)
    straight, resumed = tmp_path / "straight.json", tmp_path / "resumed.json"
    assert play_with(options, answer_ones(9, straight))[0] == 0
    assert play_with(["--resume", str(first)], answer_ones(5, resumed))[0] == 0
    assert load(resumed)[0] == load(straight)[0]


def test_save_uses_the_save_option_by_default(tmp_path: Path) -> None:
    """The save command with no file writes to --save FILE."""
    path = tmp_path / "default.json"
    rc, out = play(["--seed", "3", "--players", "2", "--save", str(path)], ["save", "quit"])
    assert rc == 0
    assert f"saved to {path} (" in out
    assert load(path)[1:] == (0, ["heuristic"])
    rc, out = play(["--seed", "3", "--players", "2"], ["save", "quit"])
    assert "save where? type save FILE" in out


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not valid JSON"),
    ('{"unoengine": "record", "version": 1}', 'expected a JSON object {"unoengine": "saved-game"'),
    ('{"unoengine": "saved-game", "version": 2, "record": {}, "seat": 0, "bots": []}', "version 2 is not 1"),
    ('{"unoengine": "saved-game", "version": 1, "record": {}, "seat": 0}', "missing bots"),
    ('{"unoengine": "saved-game", "version": 1, "record": {"unoengine": "move"}, "seat": 0, "bots": []}', "record"),
])
def test_a_corrupted_save_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                          message: str) -> None:
    """A bad save file: a clear one-line error naming the file, exit code 2, nothing played."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    rc, out = play(["--resume", str(path)], ["quit"])
    err = capsys.readouterr().err
    assert rc == 2
    assert out == ""
    assert err.startswith("unoengine play: ") and str(path) in err and message in err
    assert "Traceback" not in err


def test_a_save_whose_moves_do_not_replay_or_whose_seats_are_wrong(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A record with an illegal move (PLAY-8) or a seat/bot list that does not fit is refused with exit code 2."""
    good = tmp_path / "good.json"
    assert play(["--seed", "3", "--players", "2"], ["1", f"save {good}", "quit"])[0] == 0
    doc = json.loads(good.read_text())
    assert doc["record"]["moves"][0].startswith("p0 ")
    cases: dict[str, Callable[[dict[str, Any]], object]] = {
        "moves": lambda d: d["record"]["moves"].__setitem__(0, "p1 draw"),  # p0 plays first with seed 3
        "seat": lambda d: d.__setitem__("seat", 5),
        "bots": lambda d: d.__setitem__("bots", ["heuristic", "random"]),
        "unknown bot": lambda d: d.__setitem__("bots", ["nobody"]),
    }
    expected = {
        "moves": "does not replay: it is player 0's turn [PLAY-8 not-your-turn]",
        "seat": "seat must be a seat from 0 to 1", "bots": "list of 1 bot names",
        "unknown bot": "seat 1: the saved bot 'nobody' is not one unoengine ships",
    }
    for name, change in cases.items():
        broken = json.loads(json.dumps(doc))
        change(broken)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(broken))
        rc, _ = play(["--resume", str(path)], ["quit"])
        err = capsys.readouterr().err
        assert rc == 2, name
        assert expected[name] in err, (name, err)
    rc, _ = play(["--resume", str(tmp_path / "missing.json")], [])
    assert rc == 2 and "cannot read" in capsys.readouterr().err


def hostile_save(tmp_path: Path, bot: str) -> Path:
    """A saved game of two seats before the first move, the person at seat 1, so that the bot at
    seat 0 acts first (with seed 3, p0 plays first): the bot ``bot`` would be made and asked at once."""
    record = u.GameRecord(u.load_profile("classic-108"), 2, 3)
    assert record.initial_state().current == 0
    return write_save(tmp_path / "shared.json", record, 1, [bot])


def refused_resume(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    """``--resume`` exits 2 before anything is shown, with one line on stderr: that line."""
    rc, out = play(["--resume", str(path), *options], ["quit"])
    err = capsys.readouterr().err
    assert rc == 2 and out == "", (rc, out[:500], err[:500])
    assert err.count("\n") == 1 and err.startswith("unoengine play: ") and "Traceback" not in err, err
    return err


def test_a_shared_save_cannot_run_a_command_or_call_a_function(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41, item 4: ``--resume`` started whatever bots the file named: ``program:sh -c ...``
    ran the command, ``text:os:system`` called os.system with each prompt. A saved game may come
    from anyone: only shipped bots are started from it, the rest refused naming the seat and --bots."""
    monkeypatch.chdir(tmp_path)  # where os.system would have run the prompt's lines, had it been called
    marker = tmp_path / "MARKER"
    for bot in (f"program:sh -c 'touch {marker}'", "text:os:system", "text-forfeit:os:system",
                f"policy:{tmp_path / 'w.npz'}", "program:" + "x" * 900):
        err = refused_resume(hostile_save(tmp_path, bot), capsys)
        assert f"seat 0: the saved bot {bot[:20]!r}"[:-1] in err, err
        assert "is not one unoengine ships (heuristic, ismcts, random)" in err and "--bots" in err
    assert not marker.exists()
    assert set(SHIPPED_BOTS) <= set(bot_names())  # the names it takes are registered bots


def test_a_saved_bot_name_reaches_the_terminal_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Escape sequences in a saved name (retitle the window, clear the screen) are written as escapes:
    the table's opening line printed the seats' names as the file gave them."""
    for name in ("\x1b]0;pwned\x07\x1b[2J\x1b[1;31mheuristic\u202e", "program:\x1b]0;pwned\x07\x1b[2J true"):
        err = refused_resume(hostile_save(tmp_path, name), capsys)
        assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
        assert "\\x1b]0;pwned\\x07\\x1b[2J" in err
    rc, out = play(["--seed", "3", "--players", "2", "--bots", "program:\x1b[2J true"], ["quit"])  # named by hand
    assert rc == 0 and "p1 program:\\x1b[2J true" in out and "\x1b" not in out, out


def test_bots_named_on_the_command_line_replace_the_saved_ones(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``--bots`` on resume plays the seats with the person's own choice; what the file named is not started."""
    marker = tmp_path / "MARKER"
    path = hostile_save(tmp_path, f"program:sh -c 'touch {marker}'")
    again = tmp_path / "again.json"
    rc, out = play(["--resume", str(path), "--bots", "random"], [f"save {again}", "quit"])
    assert rc == 0 and "p0 random" in out and "ignored" not in out, out
    assert not marker.exists() and load(again)[1:] == (1, ["random"])
    assert "--bots needs one name, or 1" in refused_resume(path, capsys, "--bots", "random,random")
    assert "unknown bot 'nobody'" in refused_resume(path, capsys, "--bots", "nobody")


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """SETUP-1: impossible options are refused before play: exit code 2 and one line."""
    for options, message in [
        (["--players", "11"], "--players must be from 2 to 10"),
        (["--players", "3", "--seat", "3"], "--seat must be from 0 to 2"),
        (["--players", "4", "--bots", "heuristic,random"], "--bots needs one name, or 3"),
        (["--bots", "chess"], "unknown bot 'chess'"),
        (["--profile", "no-such-profile"], "bad --profile"),
    ]:
        rc, out = play(options, ["quit"])
        err = capsys.readouterr().err
        assert rc == 2 and out == "" and message in err, (options, err)


# --- the end of input, colours, a real terminal ------------------------------------------------------
def test_end_of_input_quits_cleanly() -> None:
    """EOF at any prompt: exit 0 with a message, no traceback."""
    rc, out = play(["--seed", "3", "--players", "2"], [])
    assert rc == 0
    assert out.rstrip().endswith("end of input: goodbye (the game is not saved)")
    assert out.count(PROMPT) == 1


def test_end_of_input_at_the_colour_prompt(tmp_path: Path) -> None:
    """EOF while the colour is asked also quits cleanly."""
    record = bot_game("classic-108", 3, "heuristic", lambda s: my_turn(0)(s) and any(
        isinstance(m, u.Play) and m.card == u.WILD for m in u.legal_moves(s, 0)))
    path = write_save(tmp_path / "wild.json", record, 0, ["heuristic", "heuristic"])
    rc, out = play(["--resume", str(path)], ["W"])
    assert rc == 0
    assert out.rstrip().endswith("colour? r/y/g/b \nend of input: goodbye (the game is not saved)")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colours_on_a_terminal_only() -> None:
    """Cards are coloured with ANSI codes on a terminal (wilds bold), never with --no-color or off a terminal."""
    game = u.new_game("classic-108", 2, seed=2)
    assert repr(game.top_card) == "Y7" and u.WILD_DRAW_FOUR in game.hands[0]  # what seed 2 deals
    out = Terminal()
    assert play_cli.run(parse("--seed", "2", "--players", "2", color=True), io.StringIO("quit\n"), out) == 0
    text = out.getvalue()
    assert "\x1b[33mY7\x1b[0m" in text  # the yellow 7 turned first
    assert "\x1b[1mW+4\x1b[0m" in text  # the person's Wild Draw Four
    out = Terminal()
    assert play_cli.run(parse("--seed", "2", "--players", "2"), io.StringIO("quit\n"), out) == 0
    assert "\x1b[" not in out.getvalue()
    out2 = io.StringIO()
    assert play_cli.run(parse("--seed", "2", "--players", "2", color=True), io.StringIO("quit\n"), out2) == 0
    assert "\x1b[" not in out2.getvalue()


HANG_SECONDS = 120
"""When the game on the terminal is taken for hung (it answers in a fraction of a second): only
a guard against a test that never ends, no bound on the program's speed."""


def read_until(fd: int, marker: bytes | None, deadline: float) -> bytes:
    """Read the terminal until ``marker`` (or until the other side closes, for None); fail with
    what was read if ``deadline`` passes first (the program hangs)."""
    data = b""
    while True:
        if time.monotonic() > deadline:
            awaited = "end of output" if marker is None else repr(marker)
            pytest.fail(f"no {awaited} from the program after {HANG_SECONDS} s (it hangs): {data[-500:]!r}")
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        data += chunk
        if marker is not None and marker in data:
            break
    return data


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_through_a_pseudo_terminal() -> None:
    """The game on a real terminal, through the real entry point: the table and the prompt are shown; quit
    exits 0."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "unoengine", "play", "--seed", "3", "--players", "2", "--no-color"],
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    try:
        deadline = time.monotonic() + HANG_SECONDS
        shown = read_until(master, PROMPT.encode(), deadline)
        os.write(master, b"quit\n")
        rest = read_until(master, None, deadline)
        rc = proc.wait(timeout=HANG_SECONDS)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = shown.decode()
    assert rc == 0
    assert "unoengine play (new game): classic-108, 2 players, seed 3" in text
    assert "your hand: " in text
    assert text.endswith(PROMPT)
    assert "goodbye (the game is not saved)" in rest.decode()
    assert "\x1b[" not in text


def test_quitting_right_after_a_save_says_it_is_saved(tmp_path: Path) -> None:
    """Issue 36: 'the game is not saved' was said right after a save."""
    save = tmp_path / "g.json"
    rc, out = play(["--seed", "3", "--players", "2"], [f"save {save}", "quit"])
    assert rc == 0 and save.exists()
    assert out.rstrip().endswith(f"goodbye (saved to {save})")
    rc, out = play(["--seed", "3", "--players", "2"], [f"save {save}", "draw"])
    assert rc == 0
    assert out.rstrip().endswith(f"end of input: goodbye (the moves since the save to {save} are not saved)")
