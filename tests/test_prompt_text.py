"""The text interface for language-model players (issue 35): a view as a prompt (and as JSON), and
an answer read back as a legal move, with a reason for the player when it names none."""

from __future__ import annotations

import json
import random
import re

import pytest
from helpers_text import turn_view
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
import unoengine.testing as ut
from unoengine.engine.limits import MAX_ANSWER_CHARS
from unoengine.formats.answer_parsing import AnswerError, parse_answer
from unoengine.formats.prompt_text import ANSWER_HINT, labelled_moves, prompt_json, prompt_text
from unoengine.testing.checks import resample_hidden

CARD_NAME = re.compile(r"(?<![\w+])(?:[RYGB](?:\d|S|R|\+2)|W\+4|WSH|WSW|WCU|BLK|W)(?![\w+])")
"""A card's name as a word of the text (``R7``, ``Y+2``, ``W+4``, ``W``)."""


def reason(answer: object, v: u.PlayerView) -> str:
    with pytest.raises(AnswerError) as info:
        parse_answer(answer, v)
    return info.value.reason


def test_the_prompt_shows_the_table_the_recent_moves_and_labelled_moves() -> None:
    v = turn_view()
    lines = prompt_text(v, ["p1 plays R7"]).splitlines()
    assert lines[:5] == [
        "You are p2 in a game of UNO (classic-108, 3 players), round 1; dealer p1; scores p0 0 p1 0 p2 0 "
        "(target 500).",
        "It is your turn.",
        "Top card R4, colour red. Play goes clockwise: p2 -> p0 -> p1. Draw pile 86 cards.",
        "Cards in hand: p0 7, p1 7, p2 (you) 7.",
        "Your hand: Y3 Y9 Y+2 G1 G8 B5 W.",
    ]
    assert "Last moves: p1 plays R7." in lines
    assert "  [1] p2 W:R           play W naming red" in lines
    assert "  [5] p2 draw          draw a card" in lines
    assert not any("[0] wait" in line for line in lines)


def test_the_prompt_names_open_windows_a_catch_and_a_challenge() -> None:
    """WD4-3: the victim sees the open challenge; UNO-2: the others see the open catch, and may wait."""
    state = u.from_position("classic-108", ["G2", "B3 B4 Y5", "G7 R1"], "R9 W+4", color=u.Color.GREEN, current=1,
                            phase="CHALLENGE", challenge_color=u.Color.RED, uno_exposed=0)
    victim = prompt_text(u.view(state, 1))
    assert "p0 played W+4 on you: a challenge is open (accept 4 cards, or challenge it as a bluff)." in victim
    assert "A catch is open: p0 did not call UNO." in victim
    assert "p0 1 (did not call UNO: may be caught)" in victim
    other = prompt_text(u.view(state, 2))
    assert "It is p1's turn; you may act out of turn now, or wait." in other
    assert "[0] wait" in other and "catch p0" in other


def test_the_json_form_has_the_view_document_and_the_labelled_moves() -> None:
    v = turn_view()
    doc = prompt_json(v, ["p1 plays R7"])
    json.dumps(doc)
    assert u.serialize.from_json(doc["view"]) == v
    assert doc["legal_moves"][4] == {"label": "5", "move": "p2 draw", "text": "draw a card"}
    assert doc["may_wait"] is False and doc["recent"] == ["p1 plays R7"]


@pytest.mark.parametrize(("answer", "move"), [
    ("1", "p2 W:R"), ("[2]", "p2 W:Y"), ("so I play [W:G]. ok", "p2 W:G"), ("p2 draw", "p2 draw"),
    ("draw.", "p2 draw"), ("  `W:b`  ", "p2 W:B"), ('{"move": "5"}', "p2 draw"), ('{"move": "W:G"}', "p2 W:G"),
    ("[W:G]? no, better: [draw]", "p2 draw"),
])
def test_an_answer_is_a_label_the_notation_or_a_bracketed_move(answer: str, move: str) -> None:
    assert parse_answer(answer, turn_view()) == u.notation.parse_move(move)


@pytest.mark.parametrize(("answer", "expected"), [
    ("", "the answer is empty"),
    ("W", "a wild needs its colour, such as [W:R]"),
    ("p0 draw", "you are p2: 'p0 draw' is a move of p0"),
    ("R7", "you do not hold R7"),
    ("Y3", "Y3 cannot be played now"),
    ("99", "there is no move [99]: the labels run from [1] to [5]"),
    ("wait", "waiting is only for moments out of turn"),
    ('{"mv": 1}', 'a JSON answer is an object {"move"'),
    ('{"move": ', "the JSON answer cannot be read"),
    ("I think red is nice " * 10, "no move found: put your move in brackets"),
])
def test_an_answer_naming_no_legal_move_gets_the_reason(answer: str, expected: str) -> None:
    assert expected in reason(answer, turn_view())


def test_hostile_answers_are_refused_quickly_and_never_echoed_raw() -> None:
    """A 1 MB answer is refused by its length (not searched); control characters and unicode junk are
    quoted escaped and shortened; a non-text answer is refused by its type."""
    v = turn_view()
    big = "[" * (1 << 20)
    assert f"more than the {MAX_ANSWER_CHARS:,} read" in reason(big, v)
    assert "more than" in reason("x" * (MAX_ANSWER_CHARS + 1), v)
    assert "more than" not in reason("x" * MAX_ANSWER_CHARS, v)
    for junk in ("\x1b[31mR7\x07", "\u202e\u0000W:G", "\ud800", "🂡" * 50, "p2 R7\r\nrm -rf /"):
        text = reason(junk, v)
        assert not any(ord(c) < 32 or 0xD800 <= ord(c) < 0xE000 or c == "\u202e" for c in text), text
        assert len(text) < 300
    assert "an answer is text, got bytes" in reason(b"1", v)
    assert "got NoneType" in reason(None, v)


def test_out_of_turn_wait_lets_the_moment_pass() -> None:
    state = u.from_position("classic-108", ["G2", "B3 B4 Y5", "G7 R1"], "R9", current=1, uno_exposed=0)
    v = u.view(state, 2)
    assert parse_answer("[0]", v) is None and parse_answer("wait", v) is None
    assert parse_answer("[catch p0]", v) == u.CatchUno(2, 0)


@settings(max_examples=60)
@given(state=ut.states(max_moves=200), seed=st.integers(0, 2**32 - 1))
def test_a_prompt_holds_nothing_its_player_may_not_know(state: u.GameState, seed: int) -> None:
    """WD4-3 and the view contract: the prompt and its JSON are the same when what the player cannot
    see changes (resample_hidden), and every card the prompt names is one the player may know; every
    labelled move is read back as itself, by label and by notation."""
    rng = random.Random(seed)
    for p in range(state.num_players):
        v = u.view(state, p)
        other = u.view(resample_hidden(state, p, rng), p)
        text = prompt_text(v)
        assert text == prompt_text(other)
        assert prompt_json(v) == prompt_json(other)
        allowed = {repr(c) for c in (*v.hand, *v.discard_pile)} | {repr(c) for _, cards in v.known for c in cards}
        assert set(CARD_NAME.findall(text.replace(ANSWER_HINT, ""))) <= allowed, text
        for label, move in labelled_moves(v):
            assert parse_answer(f"[{label}]", v) == move
            assert parse_answer(u.notation.format_move(move), v) == move
