"""Loading rule profiles: shipped values, paths, and errors naming file, key and problem (DECK-1..5, HOUSE-8)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from helpers_uno import SHIPPED

import unoengine as u

PROFILES_DIR = Path(__file__).resolve().parents[1] / "profiles"

POINTS = """
[scoring.points]
"0" = 0
"1" = 1
"2" = 2
"3" = 3
"4" = 4
"5" = 5
"6" = 6
"7" = 7
"8" = 8
"9" = 9
skip = 20
reverse = 20
draw_two = 20
wild = 50
wild_draw_four = 50
wild_shuffle_hands = 40
wild_swap_hands = 40
wild_customizable = 40
blank = 40
"""

VALID = """
name = "tiny"
version = 2
description = "a small test profile"

[deck.per_color]
"0" = 1
"1" = 2
"2" = 2
"3" = 2
"4" = 2
"5" = 2
"6" = 2
"7" = 2
"8" = 2
"9" = 2
skip = 2
reverse = 2
draw_two = 2

[deck.wild]
wild = 4
wild_draw_four = 4

[setup]
hand_size = 7
min_players = 2
max_players = 10

[play]
decline_to_play = true
two_player_reverse = "reverse"

[wild_draw_four]
mode = "challenge"

[uno]
penalty = 2

[scoring]
mode = "winner-takes-others"
target = 500
""" + POINTS


def write(tmp_path: Path, text: str, name: str = "custom.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def edited(old: str, new: str) -> str:
    """VALID with one exact line replaced (the line must be there)."""
    assert VALID.count(old) == 1, old
    return VALID.replace(old, new)


def load_error(tmp_path: Path, text: str) -> tuple[u.ProfileError, Path]:
    path = write(tmp_path, text)
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(path)
    assert str(path) in str(info.value)
    assert info.value.source == str(path)
    return info.value, path


# --- shipped profiles -----------------------------------------------------------------------
def test_shipped_profile_names() -> None:
    """HOUSE-8: the four shipped profiles are listed by name."""
    assert u.shipped_profiles() == sorted(SHIPPED)


def test_profile_classic_108_options() -> None:
    """DECK-1/UNO-2/WD4-6/PLAY-5/HOUSE-6/SCORE-2: classic-108 has the documented option values."""
    p = u.load_profile("classic-108")
    assert p.name == "classic-108"
    assert p.deck_size == 108
    assert p.uno_penalty == 2
    assert p.wild_draw_four == "challenge"
    assert p.decline_to_play is True
    assert p.two_player_reverse == "skip"
    assert p.hand_size == 7
    assert (p.min_players, p.max_players) == (2, 10)
    assert p.first_card_wild_draw_four == "redraw"
    assert p.next_dealer == "left"
    assert p.scoring == "winner-takes-others"
    assert p.target_score == 500
    assert p.custom_effect == "wild"
    counts = p.deck_counts
    for color in "RYGB":
        assert counts[u.parse_card(color + "0")] == 1
        for sym in ("1", "5", "9", "S", "R", "+2"):
            assert counts[u.parse_card(color + sym)] == 2
    assert counts[u.WILD] == 4
    assert counts[u.WILD_DRAW_FOUR] == 4
    for code in (u.WILD_SHUFFLE_HANDS, u.WILD_SWAP_HANDS, u.WILD_CUSTOMIZABLE, u.BLANK):
        assert counts[code] == 0


@pytest.mark.parametrize(("name", "extra"), [
    ("gdj85", {u.WILD_SHUFFLE_HANDS: 1, u.WILD_CUSTOMIZABLE: 3}),
    ("ffk04", {u.WILD_SWAP_HANDS: 1, u.WILD_CUSTOMIZABLE: 3}),
])
def test_profile_gdj85_ffk04_options(name: str, extra: dict[int, int]) -> None:
    """DECK-2/DECK-3/HOUSE-6: 112 cards, penalty 2, challenge, decline on, two-player Reverse reverses."""
    p = u.load_profile(name)
    assert p.name == name
    assert p.deck_size == 112
    assert p.uno_penalty == 2
    assert p.wild_draw_four == "challenge"
    assert p.decline_to_play is True
    assert p.two_player_reverse == "reverse"
    assert p.scoring == "winner-takes-others"
    assert p.target_score == 500
    for code in (u.WILD_SHUFFLE_HANDS, u.WILD_SWAP_HANDS, u.WILD_CUSTOMIZABLE, u.BLANK):
        assert p.deck_counts[code] == extra.get(code, 0)
    classic = u.load_profile("classic-108")
    assert p.deck_counts[:u.WILD_SHUFFLE_HANDS] == classic.deck_counts[:u.WILD_SHUFFLE_HANDS]


def test_profile_mattel_42003_options() -> None:
    """DECK-4/UNO-2/HOUSE-8: 112 cards with 4 blanks set aside (108 in play), UNO penalty 4."""
    p = u.load_profile("mattel-42003")
    assert p.name == "mattel-42003"
    assert p.uno_penalty == 4
    assert p.blank_cards == "set-aside"
    assert p.deck_counts[u.BLANK] == 4
    assert sum(p.deck_counts) == 112
    assert p.play_deck[u.BLANK] == 0
    assert p.deck_size == 108
    assert u.BLANK not in p.deck_cards()
    assert len(p.deck_cards()) == 108
    assert p.wild_draw_four == "challenge"
    assert p.two_player_reverse == "reverse"


def test_deck5_blanks_in_play_when_profile_says_wild(tmp_path: Path) -> None:
    """DECK-4/DECK-5: a profile may keep blanks in play as wilds; the deck size follows the data."""
    text = edited("wild_draw_four = 4\n", "wild_draw_four = 4\nblank = 4\n").replace(
        'two_player_reverse = "reverse"', 'two_player_reverse = "reverse"\nblank_cards = "wild"')
    p = u.load_profile(write(tmp_path, text))
    assert p.deck_size == 112
    assert p.deck_cards().count(u.BLANK) == 4


@pytest.mark.parametrize("name", SHIPPED)
def test_profile_load_by_path_equals_load_by_name(name: str, tmp_path: Path) -> None:
    """HOUSE-8: a profile loads by str path, Path, a copy without the .toml suffix, and from a dict."""
    path = PROFILES_DIR / f"{name}.toml"
    by_name = u.load_profile(name)
    assert u.load_profile(path) == by_name
    assert u.load_profile(str(path)) == by_name
    copy = write(tmp_path, path.read_text(encoding="utf-8"), name="my-profile")
    assert u.load_profile(copy) == by_name
    assert u.profile_from_dict(tomllib.loads(path.read_text(encoding="utf-8")), str(path)) == by_name


def test_custom_profile_file_values(tmp_path: Path) -> None:
    """HOUSE-8/SCORE-4/DECK-5: every option of a user file reaches the Profile; a game runs on it."""
    text = (edited("penalty = 2", "penalty = 4")
            .replace('mode = "challenge"', 'mode = "unrestricted"')
            .replace('mode = "winner-takes-others"', 'mode = "one-point-per-round"')
            .replace("target = 500", "target = 3"))
    p = u.load_profile(write(tmp_path, text))
    assert (p.name, p.version, p.description) == ("tiny", 2, "a small test profile")
    assert p.uno_penalty == 4
    assert p.wild_draw_four == "unrestricted"
    assert p.scoring == "one-point-per-round"
    assert p.target_score == 3
    assert p.deck_size == 108
    state = u.new_game(p, 3, seed=1)
    assert state.profile == p


# --- errors ---------------------------------------------------------------------------------
def test_profile_error_unknown_top_level_key(tmp_path: Path) -> None:
    """DECK-5: an unknown top-level key is reported with the file and the key."""
    err, _ = load_error(tmp_path, 'colour = "red"\n' + VALID)
    assert isinstance(err, ValueError)
    assert err.key == "colour"
    assert "unknown key" in err.problem
    assert "colour" in str(err)
    assert err.problems == [(err.key, err.problem)]


def test_profile_error_unknown_key_in_section(tmp_path: Path) -> None:
    """UNO-2: an unknown key inside a section is reported as section.key."""
    err, _ = load_error(tmp_path, edited("penalty = 2", "penalty = 2\ncall_window = 3"))
    assert err.key == "uno.call_window"
    assert "unknown key" in err.problem
    assert "'penalty'" in err.problem
    assert "uno.call_window" in str(err)


@pytest.mark.parametrize(("old", "new", "key", "words"), [
    ("hand_size = 7", 'hand_size = "7"', "setup.hand_size", "integer"),
    ("decline_to_play = true", 'decline_to_play = "yes"', "play.decline_to_play", "true or false"),
    ("penalty = 2", "penalty = 2.5", "uno.penalty", "integer"),
    ("penalty = 2", "penalty = true", "uno.penalty", "integer"),
    ('mode = "challenge"', "mode = 1", "wild_draw_four.mode", "must be one of"),
    ('name = "tiny"', "name = 5", "name", "string"),
    ('description = "a small test profile"', "description = [1]", "description", "string"),
    ("version = 2", 'version = "2"', "version", "integer"),
    ('"5" = 2\n', '"5" = "2"\n', "deck.per_color.5", "integer"),
])
def test_profile_error_wrong_type(tmp_path: Path, old: str, new: str, key: str, words: str) -> None:
    """HOUSE-8: a value of the wrong type names the key and the expected type."""
    err, _ = load_error(tmp_path, edited(old, new))
    assert err.key == key
    assert words in err.problem
    assert f"{key}: " in str(err)


@pytest.mark.parametrize(("old", "new", "key", "value"), [
    ("penalty = 2", "penalty = 21", "uno.penalty", "21"),
    ("penalty = 2", "penalty = -1", "uno.penalty", "-1"),
    ("hand_size = 7", "hand_size = 0", "setup.hand_size", "0"),
    ("max_players = 10", "max_players = 11", "setup.max_players", "11"),
    ("min_players = 2", "min_players = 1", "setup.min_players", "1"),
    ("target = 500", "target = 0", "scoring.target", "0"),
    ('"9" = 9', '"9" = -9', "scoring.points.9", "-9"),
    ("wild = 4\n", "wild = -4\n", "deck.wild.wild", "-4"),
])
def test_profile_error_out_of_range(tmp_path: Path, old: str, new: str, key: str, value: str) -> None:
    """UNO-2/SETUP-1/SCORE-1: an out-of-range value names the key, the allowed range and the value."""
    err, _ = load_error(tmp_path, edited(old, new))
    assert err.key == key
    assert "from" in err.problem
    assert value in err.problem


def test_profile_error_section_not_a_table(tmp_path: Path) -> None:
    """UNO-2: a section given as a plain value is reported by its name."""
    err, _ = load_error(tmp_path, "uno = 2\n" + edited("[uno]\npenalty = 2\n", ""))
    assert err.key == "uno"
    assert "table" in err.problem


def test_profile_error_min_players_above_max(tmp_path: Path) -> None:
    """SETUP-1: min_players greater than max_players is reported."""
    err, _ = load_error(tmp_path, edited("min_players = 2", "min_players = 5").replace(
        "max_players = 10", "max_players = 4"))
    assert err.key == "setup.min_players"
    assert "max_players" in err.problem


@pytest.mark.parametrize(("old", "new", "key"), [
    ('mode = "challenge"', 'mode = "sometimes"', "wild_draw_four.mode"),
    ('two_player_reverse = "reverse"', 'two_player_reverse = "Skip"', "play.two_player_reverse"),
    ('mode = "winner-takes-others"', 'mode = "highest-wins"', "scoring.mode"),
    ("max_players = 10", 'max_players = 10\nnext_dealer = "right"', "setup.next_dealer"),
    ("max_players = 10", 'max_players = 10\nfirst_card_wild_draw_four = "ignore"',
     "setup.first_card_wild_draw_four"),
])
def test_profile_error_bad_choice(tmp_path: Path, old: str, new: str, key: str) -> None:
    """WD4-6/HOUSE-6/SCORE-3: a bad choice string names the key, the bad value and the allowed values."""
    err, _ = load_error(tmp_path, edited(old, new))
    assert err.key == key
    bad = new.split("=")[-1].strip()
    assert bad.replace('"', "'") in err.problem
    assert "must be one of" in err.problem


def test_profile_error_invalid_toml(tmp_path: Path) -> None:
    """HOUSE-8: text that is not TOML is reported as such, naming the file."""
    err, path = load_error(tmp_path, edited("penalty = 2", "penalty = = 2"))
    assert err.key == "toml"
    assert "not valid TOML" in err.problem
    assert str(err).startswith(str(path))


def test_profile_error_not_utf8(tmp_path: Path) -> None:
    """HOUSE-8: bytes that are not UTF-8 are reported, not raised as UnicodeDecodeError."""
    path = tmp_path / "bad.toml"
    path.write_bytes(b'name = "\xff\xfe"\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(path)
    assert info.value.key == "toml"


@pytest.mark.parametrize("kind", ["blank", "wild_draw_four", "7", "draw_two"])
def test_profile_error_missing_points_entry(tmp_path: Path, kind: str) -> None:
    """SCORE-1: every card kind needs a point value; a missing one is named."""
    line = f'"{kind}" = ' if kind.isdigit() else f"\n{kind} = "
    start = VALID.index(line, VALID.index("[scoring.points]"))
    end = VALID.index("\n", start + 1)
    err, _ = load_error(tmp_path, VALID[:start] + VALID[end:])
    assert err.key == f"scoring.points.{kind}"
    assert "missing" in err.problem
    assert err.problems == [(f"scoring.points.{kind}", err.problem)]


def test_profile_error_missing_points_table(tmp_path: Path) -> None:
    """SCORE-1: no points table at all is reported."""
    err, _ = load_error(tmp_path, VALID.replace(POINTS, ""))
    assert err.key == "scoring.points"
    assert "missing" in err.problem


def test_profile_error_unknown_points_kind(tmp_path: Path) -> None:
    """SCORE-1: an unknown kind in the points table is named."""
    err, _ = load_error(tmp_path, VALID + "wild_joker = 40\n")
    assert err.key == "scoring.points.wild_joker"


@pytest.mark.parametrize(("entry", "key"), [
    ('"Q7" = 1', "deck.cards.Q7"),
    ('"R10" = 1', "deck.cards.R10"),
    ('"wild" = 1', "deck.cards.wild"),
])
def test_profile_error_unknown_card_name_in_deck_cards(tmp_path: Path, entry: str, key: str) -> None:
    """DECK-5: [deck.cards] takes card names; an unknown one is reported with its key."""
    err, _ = load_error(tmp_path, edited("[setup]", f"[deck.cards]\n{entry}\n\n[setup]"))
    assert err.key == key
    assert "unknown card" in err.problem


def test_deck5_exact_card_counts_in_deck_cards(tmp_path: Path) -> None:
    """DECK-5: [deck.cards] sets the count of one exact card."""
    p = u.load_profile(write(tmp_path, edited("[setup]", '[deck.cards]\n"R7" = 5\n"WSW" = 2\n\n[setup]')))
    assert p.deck_counts[u.parse_card("R7")] == 5
    assert p.deck_counts[u.parse_card("Y7")] == 2
    assert p.deck_counts[u.WILD_SWAP_HANDS] == 2
    assert p.deck_size == 108 + 3 + 2


def test_profile_error_unknown_deck_symbol(tmp_path: Path) -> None:
    """DECK-5: an unknown symbol in [deck.per_color] is named."""
    err, _ = load_error(tmp_path, edited("draw_two = 2\n", "draw_two = 2\ndraw_four = 2\n"))
    assert err.key == "deck.per_color.draw_four"


def test_profile_error_unknown_deck_key(tmp_path: Path) -> None:
    """DECK-5: [deck] takes only per_color, wild and cards."""
    err, _ = load_error(tmp_path, edited("[setup]", "[deck.jokers]\nred = 1\n\n[setup]"))
    assert err.key == "deck.jokers"
    assert "unknown key" in err.problem


def small_deck(extra_wilds: int, max_players: int = 10) -> str:
    """1..8 twice per colour (64 cards) plus some wilds; 7 cards each."""
    per_color = "\n".join(f'"{n}" = 2' for n in range(1, 9))
    return (f'name = "small"\n[deck.per_color]\n{per_color}\n[deck.wild]\nwild = {extra_wilds}\n'
            f"[setup]\nhand_size = 7\nmax_players = {max_players}\n" + POINTS)


def test_profile_error_deck_too_small_to_deal(tmp_path: Path) -> None:
    """SETUP-1/DECK-5: 70 cards cannot deal 7 to 10 players and turn a first card (71 needed)."""
    err, _ = load_error(tmp_path, small_deck(6))
    assert err.key == "deck"
    assert "70" in err.problem
    assert "71" in err.problem
    assert "deck" in str(err)


def test_profile_deck_just_large_enough(tmp_path: Path) -> None:
    """SETUP-1/DECK-5: 71 cards deal 7 to 10 players with one to turn; 29 suffice for 4 players."""
    assert u.load_profile(write(tmp_path, small_deck(7))).deck_size == 71
    four = u.load_profile(write(tmp_path, small_deck(0, max_players=4), name="four.toml"))
    assert four.deck_size == 64
    u.new_game(four, 4, seed=0)


def test_profile_error_empty_deck(tmp_path: Path) -> None:
    """DECK-5: a profile with no deck is reported."""
    start = VALID.index("[deck.per_color]")
    end = VALID.index("[setup]")
    err, _ = load_error(tmp_path, VALID[:start] + VALID[end:])
    assert err.key == "deck"


def test_profile_error_several_problems_reported_together(tmp_path: Path) -> None:
    """HOUSE-8: every problem of a file is reported in one error, each with its key."""
    text = ('colour = "red"\n' + edited("penalty = 2", "penalty = 99")
            .replace('mode = "challenge"', 'mode = "maybe"')
            .replace("hand_size = 7", 'hand_size = "seven"'))
    err, path = load_error(tmp_path, text)
    keys = [k for k, _ in err.problems]
    assert sorted(keys) == sorted(["colour", "uno.penalty", "wild_draw_four.mode", "setup.hand_size"])
    assert len(err.problems) == 4
    message = str(err)
    assert "4 problems" in message
    for key, problem in err.problems:
        assert f"{key}: {problem}" in message
    assert message.startswith(str(path))


def test_profile_error_from_dict_names_source() -> None:
    """HOUSE-8: profile_from_dict reports problems against the given source name."""
    data = tomllib.loads(edited("penalty = 2", "penalty = 50"))
    with pytest.raises(u.ProfileError) as info:
        u.profile_from_dict(data, "my-table")
    assert info.value.key == "uno.penalty"
    assert str(info.value).startswith("my-table: uno.penalty: ")


def test_profile_error_unknown_shipped_name() -> None:
    """HOUSE-8: an unknown shipped name is a ProfileError listing the shipped names."""
    with pytest.raises(u.ProfileError) as info:
        u.load_profile("classic-109")
    err = info.value
    assert err.key == "name"
    assert "classic-109" in str(err)
    for name in SHIPPED:
        assert name in str(err)


def test_profile_error_missing_file(tmp_path: Path) -> None:
    """HOUSE-8: a path to a file that does not exist is a ProfileError naming it."""
    path = tmp_path / "absent.toml"
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(path)
    assert str(path) in str(info.value)


def test_new_game_with_bad_profile_name_raises_profile_error() -> None:
    """HOUSE-8: new_game with an unknown profile name raises ProfileError (a ValueError)."""
    with pytest.raises(u.ProfileError):
        u.new_game("no-such-profile", 4)


def test_a_profile_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """Issue 33, item 9: a UTF-8 file starting with a byte order mark (what editors on Windows
    write) was refused with a bare TOML message; the mark is not part of the text, so it loads.
    Only a leading mark: one later in the file is still a TOML error, naming the file."""
    text = 'extends = "classic-108"\nname = "mine"\n[uno]\npenalty = 4\n'
    path = tmp_path / "windows.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    profile = u.load_profile(path)
    assert (profile.name, profile.uno_penalty) == ("mine", 4)
    path.write_bytes(text.encode("utf-8") + b"\xef\xbb\xbf")
    with pytest.raises(u.ProfileError, match=r"windows\.toml: toml: not valid TOML"):
        u.load_profile(path)


def test_profiles_prints_no_control_character_a_file_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``unoengine profiles FILE`` writes the profile as TOML: a name or description holding an
    escape sequence, a C1 control or a bidirectional override is written escaped, and reads back."""
    from unoengine.tools import cli

    name = "mine\x1b]0;title\x07 \x9b2J \u202eevil"
    path = tmp_path / "odd.toml"
    written = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04X}" for ch in name)  # TOML escapes
    path.write_text(f'extends = "classic-108"\nname = "{written}"\ndescription = "a\\u0085b"\n', encoding="utf-8")
    assert u.load_profile(path).name == name
    assert cli.main(["profiles", str(path)]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\x1b\x07\x9b\u202e\x85"), repr(out[:200])
    shown = tmp_path / "shown.toml"
    shown.write_text(out, encoding="utf-8")
    assert u.load_profile(shown).name == name and u.load_profile(shown).description == "a\x85b"
