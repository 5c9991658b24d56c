"""The compact move notation of ``unoengine.notation``: ``format_move`` / ``parse_move``.

A move is written ``pSEAT ACTION``; a play is ``CARD[:COLOUR][>pSEAT][!]``, where ``:COLOUR`` is the colour named
for a wild (ACT-4, ACT-5), ``>pSEAT`` the chosen opponent of Swap Hands (ACT-7) or of a 7 under seven-zero
(HOUSE-3) and ``!`` the "UNO" call made with the next-to-last card (UNO-1). The other actions are words:
``draw`` / ``pass`` (PLAY-4, PLAY-7), ``challenge`` / ``accept`` (WD4-3, ACT-5), ``uno`` (late call, UNO-4),
``catch pN`` (UNO-2), ``color C`` (first-card wild, SETUP-8) and ``deal`` (next round, SETUP-11, SCORE-2).

Checked here: the module docstring's examples, exhaustive and property-based round trips of every well-formed
move, canonical normalisation of loose input, card-name round trips (DECK-1..5), errors quoting the bad input,
fuzzing ``parse_move`` with arbitrary text, and moves read from notation applying exactly like the objects in
scripted positions and in random games.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unoengine as u
import unoengine.notation as notation
from unoengine.engine.limits import MAX_MOVE_TEXT

C = u.Color
COLOR_LETTER = {C.RED: "R", C.YELLOW: "Y", C.GREEN: "G", C.BLUE: "B"}
SEATS = range(10)  # MAX_PLAYERS is 10: seats 0..9
COLOR_CHOICES: tuple[u.Color | None, ...] = (None, *C)
TARGET_CHOICES: tuple[int | None, ...] = (None, *SEATS)

# Names written out independently of the package (DECK-1..5): colour letter + symbol, then the wild kinds.
EXPECTED_CARD_NAMES = [
    letter + symbol
    for letter in "RYGB"
    for symbol in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
] + ["W", "W+4", "WSH", "WSW", "WCU", "BLK"]


def simple_moves(player: int) -> list[u.Move]:
    """Every move that is not a Play, for ``player`` (targets and colours in full)."""
    moves: list[u.Move] = [
        u.Draw(player),
        u.Pass(player),
        u.Challenge(player),
        u.Accept(player),
        u.CallUno(player),
        u.NextRound(player),
    ]
    moves += [u.CatchUno(player, target) for target in SEATS]
    moves += [u.ChooseColor(player, color) for color in C]
    return moves


def expected_text(move: u.Move) -> str:
    """The canonical text of ``move``, built by hand from the documented grammar."""
    head = f"p{move.player}"
    if isinstance(move, u.Play):
        text = f"{head} {EXPECTED_CARD_NAMES[move.card]}"
        if move.color is not None:
            text += ":" + COLOR_LETTER[move.color]
        if move.target is not None:
            text += f">p{move.target}"
        return text + ("!" if move.uno else "")
    if isinstance(move, u.CatchUno):
        return f"{head} catch p{move.target}"
    if isinstance(move, u.ChooseColor):
        return f"{head} color {COLOR_LETTER[move.color]}"
    words: dict[type, str] = {
        u.Draw: "draw",
        u.Pass: "pass",
        u.Challenge: "challenge",
        u.Accept: "accept",
        u.CallUno: "uno",
        u.NextRound: "deal",
    }
    return f"{head} {words[type(move)]}"


def assert_round_trip(move: u.Move) -> str:
    """``parse_move(format_move(move)) == move``, and the text is a canonical fixed point."""
    text = u.format_move(move)
    assert isinstance(text, str)
    back = u.parse_move(text)
    assert back == move, (move, text, back)
    assert type(back) is type(move)
    assert u.format_move(back) == text
    return text


# --- the module docstring -----------------------------------------------------------------------------------

DOC_EXAMPLES: list[tuple[str, u.Move]] = [
    ("p0 R7", u.Play(0, "R7")),  # PLAY-1
    ("p1 draw", u.Draw(1)),  # PLAY-4
    ("p0 R6!", u.Play(0, "R6", uno=True)),  # UNO-1
    ("p1 pass", u.Pass(1)),  # PLAY-4, PLAY-7
    ("p2 W:G", u.Play(2, "W", C.GREEN)),  # ACT-4
    ("p2 challenge", u.Challenge(2)),  # WD4-3
    ("p2 W+4:R!", u.Play(2, "W+4", C.RED, uno=True)),  # ACT-5, UNO-1
    ("p2 accept", u.Accept(2)),  # ACT-5
    ("p3 WSW:B>p1", u.Play(3, "WSW", C.BLUE, target=1)),  # ACT-7
    ("p3 uno", u.CallUno(3)),  # UNO-4
    ("p3 R7>p1", u.Play(3, "R7", target=1)),  # HOUSE-3
    ("p0 catch p3", u.CatchUno(0, 3)),  # UNO-2
    ("p1 color Y", u.ChooseColor(1, C.YELLOW)),  # SETUP-8
    ("p4 deal", u.NextRound(4)),  # SETUP-11
]


def docstring_examples() -> list[str]:
    """The example moves of the table in the module docstring, read left column then right, row by row."""
    doc = notation.__doc__
    assert doc is not None
    table = doc.split("::", 1)[1].strip().split("\n\n", 1)[0]
    return re.findall(r"\bp\d+ (?:catch p\d+|color [RYGB]|\S+)", table)


def test_docstring_table_is_the_one_tested_here() -> None:
    """UNO-1, ACT-4, ACT-7, HOUSE-3, UNO-2, UNO-4, SETUP-8, WD4-3: the docstring lists exactly these 14 examples."""
    assert docstring_examples() == [text for text, _ in DOC_EXAMPLES]


@pytest.mark.parametrize(("text", "move"), DOC_EXAMPLES, ids=[text for text, _ in DOC_EXAMPLES])
def test_docstring_example_parses_and_formats_back(text: str, move: u.Move) -> None:
    """Each documented example reads as the move stated and writes back to the same text (UNO-1 "!", ACT-4
    ":colour", ACT-7 / HOUSE-3 ">target", UNO-2 catch, UNO-4 late call, SETUP-8 colour, WD4-3 challenge)."""
    parsed = u.parse_move(text)
    assert parsed == move
    assert type(parsed) is type(move)
    assert u.format_move(move) == text
    assert u.format_move(parsed) == text
    assert expected_text(move) == text


def test_docstring_play_fields_are_exact() -> None:
    """ACT-5, UNO-1, ACT-7: the fields of a parsed play are the card, the Color member, the seat and the flag."""
    wd4 = u.parse_move("p2 W+4:R!")
    assert isinstance(wd4, u.Play)
    assert (wd4.player, wd4.card, wd4.color, wd4.target, wd4.uno) == (2, u.WILD_DRAW_FOUR, C.RED, None, True)
    assert wd4.card is u.CARDS[u.WILD_DRAW_FOUR] and wd4.color is C.RED
    swap = u.parse_move("p3 WSW:B>p1")
    assert isinstance(swap, u.Play)
    assert (swap.player, swap.card, swap.color, swap.target, swap.uno) == (3, u.WILD_SWAP_HANDS, C.BLUE, 1, False)


# --- round trips of every well-formed move ------------------------------------------------------------------


@pytest.mark.parametrize("player", SEATS)
def test_every_play_round_trips_exhaustively(player: int) -> None:
    """PLAY-1, ACT-4, ACT-7, HOUSE-3, UNO-1: every card code with colour None/R/Y/G/B, target None/0..9 and
    uno False/True formats to the documented text and parses back to the same Play."""
    count = 0
    for card in u.CARDS:
        for color in COLOR_CHOICES:
            for target in TARGET_CHOICES:
                for uno in (False, True):
                    move = u.Play(player, card, color, target, uno)
                    assert u.format_move(move) == expected_text(move)
                    assert_round_trip(move)
                    count += 1
    assert count == 58 * 5 * 11 * 2


@pytest.mark.parametrize("player", SEATS)
def test_every_other_move_kind_round_trips_exhaustively(player: int) -> None:
    """PLAY-4, PLAY-7, WD4-3, ACT-5, UNO-4, UNO-2, SETUP-8, SETUP-11: Draw, Pass, Challenge, Accept, CallUno,
    NextRound, CatchUno(p, 0..9) and ChooseColor(p, each colour) format as documented and parse back."""
    moves = simple_moves(player)
    assert len(moves) == 6 + 10 + 4
    for move in moves:
        assert u.format_move(move) == expected_text(move)
        assert_round_trip(move)


# Seats written with one or two digits are notation; whether the seat exists is for apply to say.
any_seat = st.integers(min_value=0, max_value=99)
colors = st.sampled_from(list(C))


@st.composite
def plays(draw: st.DrawFn) -> u.Play:
    return u.Play(
        draw(any_seat),
        draw(st.sampled_from(u.CARDS)),
        draw(st.none() | colors),
        draw(st.none() | any_seat),
        draw(st.booleans()),
    )


moves_strategy: st.SearchStrategy[u.Move] = st.one_of(
    plays(),
    st.builds(u.Draw, any_seat),
    st.builds(u.Pass, any_seat),
    st.builds(u.Challenge, any_seat),
    st.builds(u.Accept, any_seat),
    st.builds(u.CallUno, any_seat),
    st.builds(u.NextRound, any_seat),
    st.builds(u.CatchUno, any_seat, any_seat),
    st.builds(u.ChooseColor, any_seat, colors),
)


@settings(max_examples=400, deadline=None)
@given(moves_strategy)
def test_any_move_round_trips(move: u.Move) -> None:
    """UNO-1, ACT-4, ACT-7, HOUSE-3, UNO-2, UNO-4, SETUP-8, WD4-3: any move with one- or two-digit seats formats
    to the documented text and parses back to an equal move of the same kind."""
    assert u.format_move(move) == expected_text(move)
    assert_round_trip(move)


# --- canonical normalisation --------------------------------------------------------------------------------

NORMALISED = [
    ("0 r7", "p0 R7"),  # bare seat, lower-case card (PLAY-1)
    ("P0 R7", "p0 R7"),
    ("p9 y+2", "p9 Y+2"),
    ("p1 gs", "p1 GS"),
    ("p1 br", "p1 BR"),
    ("p2 blk", "p2 BLK"),
    ("  p0 \t r6!  ", "p0 R6!"),  # UNO-1
    ("p2 W:green", "p2 W:G"),  # ACT-4 colour name
    ("p2 w:GREEN", "p2 W:G"),
    ("2 w:g", "p2 W:G"),
    ("p2 w+4:Red!", "p2 W+4:R!"),  # ACT-5, UNO-1
    ("p0 wcu:y", "p0 WCU:Y"),
    ("p0 wsh:Yellow", "p0 WSH:Y"),
    ("P3 wsw:blue>P1", "p3 WSW:B>p1"),  # ACT-7
    ("3 wsw:b>1!", "p3 WSW:B>p1!"),  # ACT-7, bare target seat, UNO-1
    ("p3 r7>P1", "p3 R7>p1"),  # HOUSE-3
    ("p1 colour blue", "p1 color B"),  # SETUP-8
    ("p1 COLOR yellow", "p1 color Y"),
    ("1 Colour R", "p1 color R"),
    ("p1 color g", "p1 color G"),
    ("p0 CATCH 3", "p0 catch p3"),  # UNO-2
    ("p0\tcatch\nP3", "p0 catch p3"),
    ("P1 Draw", "p1 draw"),
    ("1   PASS", "p1 pass"),
    ("p2 Challenge", "p2 challenge"),  # WD4-3
    ("p2 ACCEPT", "p2 accept"),
    ("p3 UNO", "p3 uno"),  # UNO-4
    ("4 Deal", "p4 deal"),  # SETUP-11
    ("\n p5 draw \r\n", "p5 draw"),
]


@pytest.mark.parametrize(("text", "canonical"), NORMALISED, ids=[c for _, c in NORMALISED])
def test_loose_input_normalises_to_the_canonical_form(text: str, canonical: str) -> None:
    """Case, bare seats, colour names (ACT-4, SETUP-8) and extra whitespace are accepted; formatting gives the
    canonical text, which is its own normal form."""
    move = u.parse_move(text)
    assert u.format_move(move) == canonical
    assert u.parse_move(canonical) == move
    assert u.format_move(u.parse_move(canonical)) == canonical


def test_colour_words_and_letters_name_the_same_colour() -> None:
    """ACT-4, SETUP-8: each colour is read from its letter and its name in any case."""
    for color, letter in COLOR_LETTER.items():
        for name in (letter, letter.lower(), color.name, color.name.lower(), color.name.title()):
            assert u.parse_move(f"p0 W:{name}") == u.Play(0, "W", color)
            assert u.parse_move(f"p1 color {name}") == u.ChooseColor(1, color)
            assert u.parse_move(f"p1 colour {name}") == u.ChooseColor(1, color)
            assert u.parse_color(name) is color


# --- card names ---------------------------------------------------------------------------------------------


def test_card_names_are_the_documented_ones() -> None:
    """DECK-1..5: the 58 card codes are named R0..R9 RS RR R+2 (and Y, G, B), W W+4 WSH WSW WCU BLK."""
    assert len(u.CARDS) == 58
    assert [repr(card) for card in u.CARDS] == EXPECTED_CARD_NAMES
    assert [str(card) for card in u.CARDS] == EXPECTED_CARD_NAMES


@pytest.mark.parametrize("code", range(58), ids=EXPECTED_CARD_NAMES)
def test_card_name_round_trips(code: int) -> None:
    """DECK-1..5: parse_card(repr(card)) is the card, in any case and with surrounding whitespace."""
    card = u.CARDS[code]
    name = repr(card)
    assert u.parse_card(name) == card
    assert u.parse_card(name) is card
    assert u.parse_card(name.lower()) is card
    assert u.parse_card(f"  {name.lower()}\t") is card
    assert int(u.parse_card(name)) == code


def test_card_lists_parse_with_spaces_and_commas() -> None:
    """DECK-1..5: parse_cards reads a space- or comma-separated list, in order, duplicates kept."""
    everything = " ".join(repr(card) for card in u.CARDS)
    assert u.parse_cards(everything) == u.CARDS
    assert u.parse_cards(",".join(repr(card) for card in u.CARDS)) == u.CARDS
    assert u.parse_cards(", ".join(repr(card).lower() for card in u.CARDS)) == u.CARDS
    assert u.parse_cards("R7, g5  w+4 ,BLK\tR7") == (
        u.CARDS[7],
        u.CARDS[2 * 13 + 5],
        u.CARDS[u.WILD_DRAW_FOUR],
        u.CARDS[u.BLANK],
        u.CARDS[7],
    )
    assert u.parse_cards("") == ()
    assert u.parse_cards(" , ,") == ()


@pytest.mark.parametrize("bad", ["R10", "X7", "W+2", "", "R 7", "RED7"])
def test_unknown_card_names_are_refused_quoting_them(bad: str) -> None:
    """DECK-1..5: an unknown card name raises NotationError whose message quotes it."""
    with pytest.raises(u.NotationError) as info:
        u.parse_card(bad)
    assert repr(bad) in str(info.value)


def test_unknown_card_in_a_list_is_refused_quoting_it() -> None:
    """DECK-1..5: parse_cards names the bad entry of a list."""
    with pytest.raises(u.NotationError) as info:
        u.parse_cards("R7, R10, G5")
    assert repr("R10") in str(info.value)


# --- errors -------------------------------------------------------------------------------------------------

# (bad text, a token of it that the message must also quote, or None)
BAD_TEXT: list[tuple[str, str | None]] = [
    ("", None),
    ("   ", None),
    ("p0", None),  # only a seat
    ("  p0  ", None),
    ("R7", None),  # no seat
    ("p0 R10", "R10"),  # unknown card
    ("p0 Q7", "Q7"),
    ("x0 R7", "x0"),  # bad seat
    ("p123 draw", "p123"),
    ("p R7", "p"),
    ("p-1 R7", "p-1"),
    ("p\u00b2 R7", "p\u00b2"),  # superscript two: a digit to str.isdigit, not a seat
    ("p\u0663 R7", "p\u0663"),  # Arabic-Indic three
    ("p0 W:Q", "Q"),  # bad colour (ACT-4)
    ("p0 W:purple", "purple"),
    ("p0 W:", ""),
    ("p1 color", None),  # SETUP-8 without a colour
    ("p1 color Q", "Q"),
    ("p1 colour R G", None),
    ("p0 catch", None),  # UNO-2 without a seat
    ("p0 catch x3", "x3"),
    ("p0 catch p3 p4", None),
    ("p0 R7 G5", "G5"),  # trailing junk
    ("p1 draw now", "now"),
    ("p2 challenge p1", "p1"),
    ("p0 R7>", ""),  # ACT-7 / HOUSE-3 target missing
    ("p3 WSW:B>x1", "x1"),
    ("p3 WSW>p1:B", "p1:B"),  # target before colour
    ("p0 :G", ""),  # colour without a card
    ("p0 !", ""),
    ("p0 R7!!", "R7!"),
    ("p0 W:G:B", "G:B"),
    ("p0 drawing", "drawing"),
]


@pytest.mark.parametrize(("bad", "token"), BAD_TEXT, ids=[repr(bad) for bad, _ in BAD_TEXT])
def test_bad_text_raises_notation_error_quoting_it(bad: str, token: str | None) -> None:
    """Malformed moves raise NotationError quoting the whole input (and the bad part) with repr; never a
    move (UNO-1, ACT-4, ACT-7, HOUSE-3, UNO-2, SETUP-8 elements)."""
    with pytest.raises(u.NotationError) as info:
        u.parse_move(bad)
    message = str(info.value)
    assert repr(bad) in message
    if token is not None:
        assert repr(token) in message


NON_TEXT: list[object] = [None, 7, b"p0 R7", ["p0", "R7"], 3.5, u.Play(0, "R7")]


@pytest.mark.parametrize("bad", NON_TEXT, ids=[type(b).__name__ for b in NON_TEXT])
def test_non_text_raises_notation_error_quoting_it(bad: object) -> None:
    """A move is read only from str: anything else raises NotationError quoting it with repr."""
    with pytest.raises(u.NotationError) as info:
        u.parse_move(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


class NotAMove:
    """Has a seat but is no unoengine move."""

    player = 0

    def __repr__(self) -> str:
        return "NotAMove(p0)"


@pytest.mark.parametrize("bad", [NotAMove(), None, "p0 R7", 7], ids=["player-attr", "None", "str", "int"])
def test_formatting_a_non_move_raises_notation_error_quoting_it(bad: object) -> None:
    """format_move refuses anything that is not a move with NotationError quoting it (not AttributeError)."""
    with pytest.raises(u.NotationError) as info:
        u.format_move(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


def test_notation_error_is_a_value_error_and_an_engine_error() -> None:
    """NotationError belongs to the engine's error taxonomy: a ValueError and a UnoEngineError."""
    assert issubclass(u.NotationError, ValueError)
    assert issubclass(u.NotationError, u.UnoEngineError)
    assert not issubclass(u.NotationError, u.IllegalMoveError)
    with pytest.raises(ValueError, match="R10"):
        u.parse_move("p0 R10")
    with pytest.raises(u.UnoEngineError, match="x0"):
        u.parse_move("x0 R7")


# --- fuzzing ------------------------------------------------------------------------------------------------


def check_arbitrary_text(text: str) -> None:
    """Either a move whose canonical text reads back as the same move, or NotationError quoting the
    input: whole up to MAX_MOVE_TEXT characters, a longer one by its start and its length."""
    try:
        move = u.parse_move(text)
    except u.NotationError as err:
        if len(text) <= MAX_MOVE_TEXT:
            assert repr(text) in str(err)
        else:
            assert "too long" in str(err) and f"({len(text):,} characters)" in str(err)
        return
    assert isinstance(move, u.Move)
    canonical = u.format_move(move)
    assert u.parse_move(canonical) == move
    assert u.format_move(u.parse_move(canonical)) == canonical


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_arbitrary_text_parses_or_raises_notation_error(text: str) -> None:
    """parse_move on any text returns a round-tripping move or raises NotationError, never another exception."""
    check_arbitrary_text(text)


notation_like = st.text(alphabet="pP0123456789 \t\nRYGBWrygbwSsHhUuCcKkLl+!:>drawpschlengetoucdkl", max_size=24)


@settings(max_examples=800, deadline=None)
@given(notation_like)
def test_notation_like_text_parses_or_raises_notation_error(text: str) -> None:
    """The same property on text drawn from the notation's own alphabet, where many inputs are moves."""
    check_arbitrary_text(text)


@st.composite
def mutated_canonical(draw: st.DrawFn) -> str:
    """A canonical move text with one character inserted, deleted or replaced."""
    text = u.format_move(draw(moves_strategy))
    index = draw(st.integers(min_value=0, max_value=len(text)))
    char = draw(st.characters() | st.sampled_from(" :>!+pP0123456789RYGBW"))
    how = draw(st.sampled_from(["insert", "delete", "replace"]))
    if how == "insert":
        return text[:index] + char + text[index:]
    if how == "delete":
        return text[:index] + text[index + 1 :]
    return text[:index] + char + text[index + 1 :]


@settings(max_examples=800, deadline=None)
@given(mutated_canonical())
def test_mutated_moves_parse_or_raise_notation_error(text: str) -> None:
    """Near-miss texts (one edit from a canonical move) parse to round-tripping moves or raise NotationError."""
    check_arbitrary_text(text)


# --- moves read from notation apply like the objects --------------------------------------------------------


def assert_applies_like(state: u.GameState, text: str, move: u.Move) -> u.GameState:
    """parse_move(text) is ``move``, and applying either gives equal states (or the same IllegalMoveError)."""
    parsed = u.parse_move(text)
    assert parsed == move
    assert u.format_move(move) == u.format_move(parsed)
    try:
        expected = u.apply(state, move)
    except u.IllegalMoveError as err:
        with pytest.raises(u.IllegalMoveError) as info:
            u.apply(state, parsed)
        assert (info.value.rule, info.value.reason, info.value.player) == (err.rule, err.reason, err.player)
        raise
    after = u.apply(state, parsed)
    assert after == expected
    return after


def test_wild_from_notation_applies_like_the_object() -> None:
    """ACT-4: "p0 W:G" is Play(0, "W", "G"): the same state, green in play; every legal move agrees too."""
    state = u.from_position("classic-108", ["R7 W G5", "B1 B2"], "R5")
    after = assert_applies_like(state, "p0 W:G", u.Play(0, "W", "G"))
    assert after.color_in_play is C.GREEN and after.top_card == u.parse_card("W") and after.current == 1
    assert u.apply(state, u.parse_move("p0 W:G")) == u.apply(state, u.Play(0, "W", "G"))
    legal = u.legal_moves(state)
    assert [u.format_move(m) for m in legal] == ["p0 R7", "p0 G5", "p0 W:R", "p0 W:Y", "p0 W:G", "p0 W:B", "p0 draw"]
    for move in legal:
        assert_applies_like(state, u.format_move(move), move)


def test_uno_call_catch_and_late_call_from_notation() -> None:
    """UNO-1 "!", UNO-2 "catch", UNO-4 "uno": the notation moves apply exactly like the objects."""
    state = u.from_position("classic-108", ["R7 G5", "B1 B2 B3"], "R5")
    called = assert_applies_like(state, "p0 R7!", u.Play(0, "R7", uno=True))
    assert called.uno_exposed == -1
    silent = assert_applies_like(state, "p0 R7", u.Play(0, "R7"))
    assert silent.uno_exposed == 0
    caught = assert_applies_like(silent, "p1 catch p0", u.CatchUno(1, 0))
    assert len(caught.hand(0)) == 1 + caught.profile.uno_penalty and caught.uno_exposed == -1
    late = assert_applies_like(silent, "p0 uno", u.CallUno(0))
    assert len(late.hand(0)) == 1 and late.uno_exposed == -1


def test_swap_hands_target_from_notation() -> None:
    """ACT-7: "p0 WSW:B>p1" swaps hands with player 1, exactly like the Play object."""
    state = u.from_position("ffk04", ["WSW G5 B7", "B1 B2"], "R5")
    after = assert_applies_like(state, "p0 WSW:B>p1", u.Play(0, "WSW", "B", target=1))
    assert after.hand(0) == tuple(sorted(u.parse_cards("B1 B2")))
    assert after.hand(1) == tuple(sorted(u.parse_cards("G5 B7")))
    assert after.color_in_play is C.BLUE


def test_seven_zero_target_from_notation() -> None:
    """HOUSE-3: "p0 R7>p2" under seven-zero swaps with player 2, like the object; a 7 without it is refused."""
    state = u.from_position("classic-108+seven-zero", ["R7 G1 G2", "B1 B2 B3 B4", "Y1 Y2"], "R5")
    after = assert_applies_like(state, "p0 R7>p2", u.Play(0, "R7", target=2))
    assert after.hand(0) == tuple(sorted(u.parse_cards("Y1 Y2")))
    assert after.hand(2) == tuple(sorted(u.parse_cards("G1 G2")))
    with pytest.raises(u.IllegalMoveError) as info:
        assert_applies_like(state, "p0 R7", u.Play(0, "R7"))
    assert (info.value.rule, info.value.reason) == ("HOUSE-3", "target-required")


def test_challenge_and_accept_from_notation() -> None:
    """WD4-3, WD4-5, ACT-5: "challenge" / "accept" apply like the objects; only the victim may challenge."""
    state = u.from_position("classic-108", ["W+4 G5 B7", "B1 B2", "Y1 Y2"], "R5")
    pending = assert_applies_like(state, "p0 W+4:G", u.Play(0, "W+4", "G"))
    assert pending.phase == u.Phase.CHALLENGE and pending.current == 1
    challenged = assert_applies_like(pending, "p1 challenge", u.Challenge(1))
    # p0 held no red card (the colour in play), so the play was innocent: the challenger draws 6 (WD4-5).
    assert len(challenged.hand(0)) == 2 and len(challenged.hand(1)) == 2 + 6 and challenged.current == 2
    accepted = assert_applies_like(pending, "p1 accept", u.Accept(1))
    assert len(accepted.hand(1)) == 2 + 4 and accepted.current == 2
    with pytest.raises(u.IllegalMoveError) as info:
        assert_applies_like(pending, "p2 challenge", u.Challenge(2))
    assert info.value.rule == "WD4-3"


def test_first_card_colour_from_notation() -> None:
    """SETUP-8: a Wild turned first is named with "p1 color G", exactly like ChooseColor(1, GREEN)."""
    profile = u.load_profile("classic-108")
    deck = list(profile.deck_cards())
    wild = deck.index(u.CARDS[u.WILD])
    turned = profile.hand_size * 2
    deck[wild], deck[turned] = deck[turned], deck[wild]
    state = u.new_game(profile, 2, seed=3, dealer=0, deck=deck)
    assert state.phase == u.Phase.CHOOSE_COLOR and state.current == 1
    assert [u.format_move(m) for m in u.legal_moves(state, 1)] == [f"p1 color {x}" for x in "RYGB"]
    after = assert_applies_like(state, "p1 color G", u.ChooseColor(1, C.GREEN))
    assert after.color_in_play is C.GREEN and after.phase == u.Phase.PLAY and after.current == 1


def test_draw_pass_and_deal_from_notation() -> None:
    """PLAY-4 "draw" / "pass", END-1 then SETUP-11 "deal": each applies like the object."""
    state = u.from_position("classic-108", ["G5 B7", "B1 B2"], "R5")
    drawn = assert_applies_like(state, "p0 draw", u.Draw(0))
    assert drawn.phase == u.Phase.DRAWN
    passed = assert_applies_like(drawn, "p0 pass", u.Pass(0))
    assert passed.current == 1
    ending = u.from_position("classic-108", ["R7", "B1 B2"], "R5", dealer=1)
    over = assert_applies_like(ending, "p0 R7", u.Play(0, "R7"))
    assert over.phase == u.Phase.ROUND_OVER
    (deal,) = u.legal_moves(over)
    assert deal == u.NextRound(0)  # dealer 1 -> next dealer on the left is seat 0 (SETUP-11)
    dealt = assert_applies_like(over, "p0 deal", deal)
    assert dealt.match.round_number == over.match.round_number + 1


def test_out_of_turn_notation_move_is_refused_like_the_object() -> None:
    """PLAY-1: a well-formed but illegal notation move raises the same IllegalMoveError as the object."""
    state = u.from_position("classic-108", ["R7 W G5", "B1 B2"], "R5")
    for text, move in (("p1 B1", u.Play(1, "B1")), ("p0 R7:G", u.Play(0, "R7", "G")), ("p0 W", u.Play(0, "W"))):
        with pytest.raises(u.IllegalMoveError):
            assert_applies_like(state, text, move)


# --- random games: every legal move round-trips -------------------------------------------------------------

GAMES = [
    ("classic-108", 2, 1),
    ("classic-108", 4, 2),
    ("ffk04", 3, 3),  # Swap Hands targets (ACT-7)
    ("gdj85", 5, 4),  # Shuffle Hands
    ("mattel-42003", 3, 5),
    ("classic-108+seven-zero", 3, 6),  # 7 targets (HOUSE-3)
    ("classic-108+seven-zero", 6, 7),
    ("ffk04", 10, 8),
]
MOVES_PER_GAME = 3000
OPENING_PROFILES = ("classic-108", "ffk04", "gdj85", "mattel-42003")
OPENING_SEEDS = 40


def random_game(profile: str, players: int, seed: int) -> Iterator[tuple[u.GameState, list[u.Move], u.Move]]:
    """Play random legal moves (several rounds, with NextRound) and yield (state, legal moves, chosen move)."""
    rng = random.Random(seed)
    state = u.new_game(profile, players, seed=seed)
    for _ in range(MOVES_PER_GAME):
        if state.match_over:
            return
        legal = u.legal_moves(state)
        assert legal
        move = rng.choice(legal)
        yield state, legal, move
        state = u.apply(state, move)


def move_features(move: u.Move) -> set[str]:
    kind = type(move).__name__
    features = {kind}
    if isinstance(move, u.Play):
        if move.color is not None:
            features.add("Play:colour")
        if move.target is not None:
            features.add("Play:target")
        if move.uno:
            features.add("Play:uno")
    return features


def test_every_legal_move_of_random_games_round_trips() -> None:
    """UNO-1, ACT-4, ACT-7, HOUSE-3, UNO-2, UNO-4, SETUP-8, WD4-3: in random games of several profiles every
    legal move offered round-trips through the notation, its text is canonical, and the chosen move read back
    from its text applies to the same state; so do the moves of many opening positions. Every move kind (and
    plays with a colour, a target and the UNO call) must have been met."""
    seen: Counter[str] = Counter()
    for profile, players, seed in GAMES:
        for state, legal, chosen in random_game(profile, players, seed):
            texts = [assert_round_trip(move) for move in legal]
            assert len(set(texts)) == len(legal)  # distinct moves have distinct texts
            for move in legal:
                seen.update(move_features(move))
            parsed = u.parse_move(u.format_move(chosen))
            assert u.apply(state, parsed) == u.apply(state, chosen)
    # Opening positions: a wild turned first asks for a colour (SETUP-8), which few long games happen to meet.
    for profile in OPENING_PROFILES:
        for seed in range(OPENING_SEEDS):
            state = u.new_game(profile, 2 + seed % 5, seed=seed)
            for move in u.legal_moves(state):
                assert_round_trip(move)
                seen.update(move_features(move))
    kinds = {"Play", "Draw", "Pass", "Challenge", "Accept", "CallUno", "CatchUno", "ChooseColor", "NextRound"}
    assert kinds | {"Play:colour", "Play:target", "Play:uno"} <= set(seen), seen
