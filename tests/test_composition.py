"""Profile composition: a base, house-rule overlays on top, user files that extend (DECK-5, HOUSE-3..8, WD4-6,
UNO-2, SCORE-3, SCORE-4).

Every shipped overlay is laid on every shipped base and must change exactly its own options; contradictions
between overlays are named; user files may extend a base, a composition or another file; the resolved profile
writes out as one flat TOML document; the fingerprint tracks exactly the rules that change play.
"""

from __future__ import annotations

import itertools
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers_uno import BLUE, GREEN, SHIPPED, card, cards

import unoengine as u

PROFILES_DIR = Path(__file__).resolve().parents[1] / "profiles"
OVERLAYS_DIR = PROFILES_DIR / "overlays"

# What each shipped overlay sets, written out from RULES.md independently of the overlay files.
OVERLAY_FIELDS: dict[str, dict[str, Any]] = {
    "forced-play": {"decline_to_play": False},  # HOUSE-5
    "two-player-reverse-skip": {"two_player_reverse": "skip"},  # HOUSE-6
    "wd4-unrestricted": {"wild_draw_four": "unrestricted"},  # WD4-6 / HOUSE-8
    "wd4-enforced": {"wild_draw_four": "enforced"},  # WD4-6
    "wd4-first-card-applies": {"first_card_wild_draw_four": "apply"},  # HOUSE-7
    "uno-penalty-4": {"uno_penalty": 4},  # UNO-2 / HOUSE-8
    "lowest-score": {"scoring": "own-hand-lowest-wins"},  # SCORE-3
    "one-point-per-round": {"scoring": "one-point-per-round", "target_score": 10},  # SCORE-4
    "draw-to-match": {"draw_until_playable": True},  # HOUSE-4
    "seven-zero": {"seven_zero": True},  # HOUSE-3
    "stacking": {"stacking": "same-kind"},  # HOUSE-1
    "stacking-cross": {"stacking": "cross"},  # HOUSE-1
    "stacking-no-mercy": {"stacking": "equal-or-higher"},  # HOUSE-1
    "jump-in": {"jump_in": True},  # HOUSE-2
}
COSMETIC = ("name", "description", "sources", "version")
FIELD_NAMES = tuple(f.name for f in attrs.fields(u.Profile))
# Overlays that touch different options: any order of them composes to the same rules.
COMPATIBLE = ("forced-play", "uno-penalty-4", "wd4-enforced", "wd4-first-card-applies", "two-player-reverse-skip")
COMPOSITIONS = (
    "classic-108+forced-play",
    "gdj85+forced-play+uno-penalty-4",
    "ffk04+wd4-unrestricted+lowest-score+two-player-reverse-skip",
    "mattel-42003+wd4-first-card-applies+one-point-per-round+wd4-enforced",
    "gdj85+" + "+".join(COMPATIBLE),
)
PILE = "G1 G2 G3 G4 G5 G6"


def write(folder: Path, filename: str, text: str) -> Path:
    """Write a TOML file into ``folder`` and return its path."""
    path = folder / filename
    path.write_text(text, encoding="utf-8")
    return path


def rules(profile: u.Profile) -> dict[str, Any]:
    """Every play-relevant field of a profile (all but name, description, sources, version)."""
    return {name: getattr(profile, name) for name in FIELD_NAMES if name not in COSMETIC}


def round_trip(profile: u.Profile) -> u.Profile:
    """profile_to_toml, parsed back with tomllib and profile_from_dict."""
    return u.profile_from_dict(tomllib.loads(u.profile_to_toml(profile)))


# --- shipped overlays on shipped bases (HOUSE-5..8, WD4-6, UNO-2, SCORE-3/4) ---------------------


def test_shipped_lists_bases_and_overlays_apart() -> None:
    """HOUSE-8: shipped_profiles lists only the four complete bases; shipped_overlays every overlay file."""
    assert u.shipped_profiles() == sorted(SHIPPED)
    assert u.shipped_overlays() == sorted(OVERLAY_FIELDS)
    assert sorted(p.stem for p in OVERLAYS_DIR.glob("*.toml")) == sorted(OVERLAY_FIELDS)


@pytest.mark.parametrize("overlay", sorted(OVERLAY_FIELDS))
@pytest.mark.parametrize("base", SHIPPED)
def test_every_overlay_on_every_base_sets_exactly_its_options(base: str, overlay: str) -> None:
    """HOUSE-5..8/WD4-6/UNO-2/SCORE-3/SCORE-4: the composed profile differs from its base only in the
    overlay's options (and its name "base+overlay"); description, sources and version are the base's."""
    plain = u.load_profile(base)
    composed = u.load_profile(f"{base}+{overlay}")
    expected = OVERLAY_FIELDS[overlay]
    assert composed.name == f"{base}+{overlay}"
    for field in FIELD_NAMES:
        if field == "name":
            continue
        want = expected[field] if field in expected else getattr(plain, field)
        assert getattr(composed, field) == want, f"{base}+{overlay}: field {field}"
    assert composed == attrs.evolve(plain, name=f"{base}+{overlay}", **expected)


@pytest.mark.parametrize("overlay", sorted(OVERLAY_FIELDS))
def test_overlay_files_are_marked_and_set_only_their_options(overlay: str) -> None:
    """HOUSE-8: each shipped overlay file says overlay = true and sets no deck or other options."""
    data = tomllib.loads((OVERLAYS_DIR / f"{overlay}.toml").read_text(encoding="utf-8"))
    assert data["overlay"] is True
    assert data["name"] == overlay
    option_tables = {k for k in data if k not in ("overlay", *COSMETIC)}
    n_options = sum(len(data[k]) for k in option_tables)
    assert n_options == len(OVERLAY_FIELDS[overlay])
    assert "deck" not in data


@pytest.mark.parametrize(
    "spec",
    [*COMPOSITIONS, "classic-108+uno-penalty-4", "mattel-42003+lowest-score+forced-play"],
)
def test_name_and_list_forms_are_equal(spec: str) -> None:
    """HOUSE-8: "base+a+b" equals ["base", "a", "b"] and the list of the shipped files' paths."""
    parts = spec.split("+")
    by_name = u.load_profile(spec)
    assert by_name.name == spec
    assert u.load_profile(parts) == by_name
    paths: list[str | Path] = [PROFILES_DIR / f"{parts[0]}.toml", *(OVERLAYS_DIR / f"{p}.toml" for p in parts[1:])]
    assert u.load_profile(paths) == by_name
    assert u.load_profile(tuple(parts)) == by_name


def test_new_game_accepts_name_and_list_forms() -> None:
    """HOUSE-5: new_game takes a composition string or list; both deal the same game under the composed rules."""
    by_name = u.new_game("gdj85+forced-play", 4, seed=1)
    by_list = u.new_game(["gdj85", "forced-play"], 4, seed=1)
    by_profile = u.new_game(u.load_profile("gdj85+forced-play"), 4, seed=1)
    for state in (by_list, by_profile):
        assert state.profile == by_name.profile
        assert state.hands == by_name.hands
        assert state.draw_pile == by_name.draw_pile
        assert state.discard_pile == by_name.discard_pile
        assert (state.current, state.phase, state.dealer) == (by_name.current, by_name.phase, by_name.dealer)
    assert by_name.profile.name == "gdj85+forced-play"
    assert by_name.profile.decline_to_play is False
    assert by_name.profile.deck_size == 112


@pytest.mark.parametrize("base", SHIPPED)
def test_order_of_compatible_overlays_does_not_change_the_rules(base: str) -> None:
    """HOUSE-8: overlays touching different options compose to the same rules in any order."""
    fingerprints = set()
    first: u.Profile | None = None
    for order in itertools.permutations(COMPATIBLE[:4]):
        profile = u.load_profile([base, *order])
        assert profile.name == "+".join([base, *order])
        fingerprints.add(profile.fingerprint)
        if first is None:
            first = profile
        assert attrs.evolve(profile, name=first.name) == first
    assert len(fingerprints) == 1
    assert first is not None
    assert first.decline_to_play is False
    assert first.uno_penalty == 4
    assert first.wild_draw_four == "enforced"
    assert first.first_card_wild_draw_four == "apply"


# --- contradictions, repeats and misplaced parts ----------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "option"),
    [
        ("wd4-unrestricted", "wd4-enforced", "wild_draw_four.mode"),
        ("wd4-enforced", "wd4-unrestricted", "wild_draw_four.mode"),
        ("lowest-score", "one-point-per-round", "scoring.mode"),
        ("one-point-per-round", "lowest-score", "scoring.mode"),
    ],
)
@pytest.mark.parametrize("base", ["classic-108", "gdj85"])
def test_contradicting_overlays_are_named(base: str, first: str, second: str, option: str) -> None:
    """WD4-6/SCORE-3/SCORE-4: two overlays setting one option to different values: the error names both and
    the option."""
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(f"{base}+{first}+{second}")
    err = info.value
    assert err.key == option
    assert first in err.source
    assert second in err.source
    message = str(err)
    assert first in message
    assert second in message
    assert option in message
    assert "contradict" in message
    with pytest.raises(u.ProfileError) as listed:
        u.load_profile([base, first, second])
    assert str(listed.value) == message


def test_contradiction_found_with_an_overlay_in_between() -> None:
    """WD4-6: the contradiction is found even when other overlays separate the two."""
    with pytest.raises(u.ProfileError) as info:
        u.load_profile("classic-108+wd4-unrestricted+forced-play+uno-penalty-4+wd4-enforced")
    assert info.value.key == "wild_draw_four.mode"
    assert "wd4-unrestricted" in str(info.value)
    assert "wd4-enforced" in str(info.value)


def test_same_value_twice_is_accepted(tmp_path: Path) -> None:
    """UNO-2/HOUSE-8: two overlays that set the same option to the same value do not contradict each other."""
    a = write(tmp_path, "penalty-six-a.toml", "overlay = true\n[uno]\npenalty = 6\n")
    b = write(tmp_path, "penalty-six-b.toml", "overlay = true\n[uno]\npenalty = 6\n[play]\ndecline_to_play = false\n")
    profile = u.load_profile(["classic-108", a, b])
    assert profile.name == "classic-108+penalty-six-a+penalty-six-b"
    assert profile == attrs.evolve(u.load_profile("classic-108"), name=profile.name, uno_penalty=6,
                                   decline_to_play=False)
    again = u.load_profile("gdj85+uno-penalty-4+uno-penalty-4")
    assert again.name == "gdj85+uno-penalty-4+uno-penalty-4"
    assert again.uno_penalty == 4
    assert again.fingerprint == u.load_profile("gdj85+uno-penalty-4").fingerprint


def test_same_value_as_the_base_is_not_a_contradiction(tmp_path: Path) -> None:
    """UNO-2: only overlays are compared with each other; an overlay may restate or change a base value."""
    four = write(tmp_path, "four.toml", "overlay = true\n[uno]\npenalty = 4\n")
    three = write(tmp_path, "three.toml", "overlay = true\n[uno]\npenalty = 3\n")
    assert u.load_profile(["mattel-42003", four]).uno_penalty == 4
    assert u.load_profile(["mattel-42003", three]).uno_penalty == 3
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(["mattel-42003", four, three])
    assert info.value.key == "uno.penalty"
    assert "four" in str(info.value)
    assert "three" in str(info.value)


def test_contradiction_in_a_nested_table_names_the_full_option(tmp_path: Path) -> None:
    """SCORE-1/HOUSE-8: overlays disagreeing on scoring.points.wild are named with that full path."""
    a = write(tmp_path, "wild-60.toml", "overlay = true\n[scoring.points]\nwild = 60\n")
    b = write(tmp_path, "wild-70.toml", "overlay = true\n[scoring.points]\nwild = 70\n")
    base = u.load_profile("classic-108")
    alone = u.load_profile(["classic-108", a])
    assert alone.points[u.WILD] == 60
    assert alone.points[u.WILD_DRAW_FOUR] == 50
    assert [p for i, p in enumerate(alone.points) if i != u.WILD] == [p for i, p in enumerate(base.points)
                                                                       if i != u.WILD]
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(["classic-108", a, b])
    assert info.value.key == "scoring.points.wild"
    assert "wild-60" in str(info.value)
    assert "wild-70" in str(info.value)


def test_overlay_may_change_the_deck(tmp_path: Path) -> None:
    """DECK-5: a deck is data, so an overlay may change counts; the composed deck has exactly that change."""
    more = write(tmp_path, "more-wilds.toml", "overlay = true\n[deck.wild]\nwild = 8\n[deck.cards]\nR7 = 5\n")
    base = u.load_profile("classic-108")
    profile = u.load_profile(["classic-108", more])
    expected = list(base.deck_counts)
    expected[u.WILD] = 8
    expected[u.parse_card("R7")] = 5
    assert profile.deck_counts == tuple(expected)
    assert profile.deck_size == 108 + 4 + 3
    assert profile.fingerprint != base.fingerprint
    state = u.new_game(profile, 3, seed=4)
    assert sum(len(h) for h in state.hands) + state.draw_pile_size + len(state.discard_pile) == 115


@pytest.mark.parametrize("overlay", sorted(OVERLAY_FIELDS))
def test_overlay_first_is_refused(overlay: str) -> None:
    """HOUSE-8: a composition must start with a complete profile; an overlay first -> ProfileError key overlay."""
    for spec in (overlay, f"{overlay}+classic-108", [overlay, "forced-play"]):
        with pytest.raises(u.ProfileError) as info:
            u.load_profile(spec)
        assert info.value.key == "overlay"
        assert overlay in info.value.source
    with pytest.raises(u.ProfileError) as game:
        u.new_game(overlay, 2, seed=0)
    assert game.value.key == "overlay"


@pytest.mark.parametrize("other", SHIPPED)
def test_base_in_overlay_position_is_refused(other: str) -> None:
    """HOUSE-8: a complete profile after the first part is not an overlay: ProfileError key overlay naming it."""
    for spec in (f"classic-108+{other}", f"gdj85+forced-play+{other}", ["ffk04", other]):
        with pytest.raises(u.ProfileError) as info:
            u.load_profile(spec)
        assert info.value.key == "overlay"
        assert info.value.source.endswith(f"{other}.toml")
        assert "overlay" in str(info.value)


def test_user_base_file_in_overlay_position_is_refused(tmp_path: Path) -> None:
    """HOUSE-8: a user file that extends (a complete profile) cannot be laid on another base."""
    user = write(tmp_path, "mine.toml", 'extends = "gdj85"\n[uno]\npenalty = 3\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(["classic-108", user])
    assert info.value.key == "overlay"
    assert info.value.source == str(user)


def test_empty_parts_and_unknown_names_are_refused() -> None:
    """HOUSE-8: an empty part, an empty list or an unknown overlay name is a ProfileError, not a crash."""
    specs: list[str | list[str]] = ["classic-108+", "+forced-play", "classic-108++forced-play", []]
    for spec in specs:
        with pytest.raises(u.ProfileError):
            u.load_profile(spec)
    with pytest.raises(u.ProfileError) as info:
        u.load_profile("classic-108+no-such-overlay")
    assert "no-such-overlay" in str(info.value)


# --- user files that extend -----------------------------------------------------------------------


def test_user_file_extends_a_base_and_overrides(tmp_path: Path) -> None:
    """UNO-2/HOUSE-5: a user file's own options win over the base it extends; it is named by its own name."""
    path = write(tmp_path, "family.toml",
                 'name = "family"\nextends = "gdj85"\n[uno]\npenalty = 3\n[play]\ndecline_to_play = false\n')
    profile = u.load_profile(path)
    gdj = u.load_profile("gdj85")
    assert profile == attrs.evolve(gdj, name="family", uno_penalty=3, decline_to_play=False)
    assert u.load_profile(str(path)) == profile


def test_user_file_without_a_name_is_named_by_its_stem(tmp_path: Path) -> None:
    """HOUSE-8: an extending file with no name key takes its file stem as name; description may be its own."""
    path = write(tmp_path, "kitchen-table.toml",
                 'extends = "classic-108"\ndescription = "ours"\n[scoring]\ntarget = 250\n')
    profile = u.load_profile(path)
    assert profile.name == "kitchen-table"
    assert profile.description == "ours"
    assert profile == attrs.evolve(u.load_profile("classic-108"), name="kitchen-table", description="ours",
                                   target_score=250)


def test_user_file_overrides_an_extended_composition_without_conflict(tmp_path: Path) -> None:
    """UNO-2/HOUSE-8: extending "gdj85+uno-penalty-4" and setting penalty 6 is an override, not a contradiction."""
    path = write(tmp_path, "harsh.toml", 'name = "harsh"\nextends = "gdj85+uno-penalty-4+forced-play"\n'
                                         "[uno]\npenalty = 6\n")
    profile = u.load_profile(path)
    assert profile.name == "harsh"
    assert profile == attrs.evolve(u.load_profile("gdj85"), name="harsh", uno_penalty=6, decline_to_play=False)


def test_user_file_extends_a_composition_string_or_list(tmp_path: Path) -> None:
    """HOUSE-5/WD4-6: extends = "base+overlay" and extends = [base, overlay] resolve to the same rules."""
    as_text = write(tmp_path, "text.toml", 'name = "house"\nextends = "ffk04+forced-play+wd4-unrestricted"\n')
    as_list = write(tmp_path, "list.toml", 'name = "house"\nextends = ["ffk04", "forced-play", "wd4-unrestricted"]\n')
    expected = attrs.evolve(u.load_profile("ffk04"), name="house", decline_to_play=False,
                            wild_draw_four="unrestricted")
    assert u.load_profile(as_text) == expected
    assert u.load_profile(as_list) == expected


def test_user_file_contradiction_inside_its_extends_is_still_refused(tmp_path: Path) -> None:
    """WD4-6: the composition a file extends is checked: contradicting overlays there are named."""
    path = write(tmp_path, "bad.toml", 'extends = "classic-108+wd4-unrestricted+wd4-enforced"\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(path)
    assert info.value.key == "wild_draw_four.mode"
    assert "wd4-unrestricted" in str(info.value)
    assert "wd4-enforced" in str(info.value)


def test_user_file_extends_another_user_file_by_path(tmp_path: Path) -> None:
    """UNO-2/SCORE-4: a chain user -> user -> composition; each layer's options win over what it extends."""
    first = write(tmp_path, "first.toml", 'name = "first"\nextends = "classic-108+one-point-per-round"\n'
                                          "[uno]\npenalty = 3\n[scoring]\ntarget = 5\n")
    second = write(tmp_path, "second.toml", f'name = "second"\nextends = {first.name!r}\n[uno]\npenalty = 5\n')
    profile = u.load_profile(second)
    assert profile == attrs.evolve(u.load_profile("classic-108"), name="second", uno_penalty=5,
                                   scoring="one-point-per-round", target_score=5)
    # and the extending file can itself be the base of a composition
    composed = u.load_profile([second, "forced-play"])
    assert composed.name == "second+forced-play"
    assert composed == attrs.evolve(profile, name="second+forced-play", decline_to_play=False)


def test_user_file_extends_a_relative_path_next_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOUSE-8: a relative extends path is read next to the extending file, whatever the working directory."""
    folder = tmp_path / "profiles"
    folder.mkdir()
    write(folder, "parent.toml", 'extends = "classic-108"\n[uno]\npenalty = 3\n')
    child = write(folder, "child.toml", 'extends = "parent.toml"\n[play]\ndecline_to_play = false\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    profile = u.load_profile(child)
    assert profile == attrs.evolve(u.load_profile("classic-108"), name="child", uno_penalty=3,
                                   decline_to_play=False)


def test_extends_cycle_is_refused(tmp_path: Path) -> None:
    """HOUSE-8: a -> b -> a is refused with a ProfileError on key extends (no recursion error)."""
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    write(tmp_path, "a.toml", f"extends = {b.name!r}\n")
    write(tmp_path, "b.toml", f"extends = {a.name!r}\n")
    for start in (a, b):
        with pytest.raises(u.ProfileError) as info:
            u.load_profile(start)
        assert info.value.key == "extends"
        assert str(start) in str(info.value)


def test_extends_itself_is_refused(tmp_path: Path) -> None:
    """HOUSE-8: a file that extends itself is a cycle."""
    path = tmp_path / "self.toml"
    write(tmp_path, "self.toml", f"extends = [{path.name!r}, \"forced-play\"]\n")
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(path)
    assert info.value.key == "extends"


def test_unknown_key_in_an_overlay_names_that_file(tmp_path: Path) -> None:
    """HOUSE-5: a misspelt option in an overlay is refused with the overlay's file and the key."""
    bad = write(tmp_path, "typo.toml", "overlay = true\n[play]\nforced_play = true\n")
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(["gdj85", "uno-penalty-4", bad])
    assert info.value.source == str(bad)
    assert info.value.key == "play.forced_play"
    assert str(bad) in str(info.value)
    top = write(tmp_path, "top.toml", "overlay = true\nstacking = true\n")
    with pytest.raises(u.ProfileError) as top_info:
        u.load_profile(["gdj85", top])
    assert top_info.value.source == str(top)
    assert top_info.value.key == "stacking"


def test_unknown_key_in_an_extending_file_names_that_file(tmp_path: Path) -> None:
    """UNO-2: a misspelt option in a file that extends is refused with that file and the key."""
    bad = write(tmp_path, "mine.toml", 'extends = "classic-108"\n[uno]\npenaltty = 4\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(bad)
    assert info.value.source == str(bad)
    assert info.value.key == "uno.penaltty"


def test_bad_value_in_an_overlay_is_refused(tmp_path: Path) -> None:
    """WD4-6: an overlay value outside the option's choices is refused with the option's key."""
    bad = write(tmp_path, "odd.toml", 'overlay = true\n[wild_draw_four]\nmode = "sometimes"\n')
    with pytest.raises(u.ProfileError) as info:
        u.load_profile(["classic-108", bad])
    assert info.value.key == "wild_draw_four.mode"
    assert "sometimes" in str(info.value)


# --- profile_to_toml ------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", [*SHIPPED, *COMPOSITIONS])
def test_profile_to_toml_round_trip(spec: str) -> None:
    """DECK-5/HOUSE-8: the resolved profile written as flat TOML loads back equal; no overlay/extends in it."""
    profile = u.load_profile(spec)
    text = u.profile_to_toml(profile)
    data = tomllib.loads(text)
    assert "overlay" not in data
    assert "extends" not in data
    assert "overlay" not in text
    assert "extends" not in text
    assert data["name"] == spec
    back = u.profile_from_dict(data)
    assert back == profile
    assert back.fingerprint == profile.fingerprint


def test_profile_to_toml_round_trip_of_user_files(tmp_path: Path) -> None:
    """DECK-5: a user file with an uneven deck (per-card counts) and changed points writes out and loads back."""
    path = write(tmp_path, "odd-deck.toml",
                 'name = "odd deck"\nextends = "mattel-42003+forced-play"\n'
                 '[play]\nblank_cards = "wild"\n[deck.cards]\nR7 = 5\n"B+2" = 0\n'
                 "[scoring.points]\nwild = 75\n")
    profile = u.load_profile(path)
    assert profile.deck_counts[u.parse_card("R7")] == 5
    assert profile.deck_counts[u.parse_card("B+2")] == 0
    assert profile.deck_counts[u.parse_card("G7")] == 2
    assert profile.points[u.WILD] == 75
    assert profile.deck_size == 112 + 3 - 2
    text = u.profile_to_toml(profile)
    assert "extends" not in text
    assert round_trip(profile) == profile


def test_profile_to_toml_round_trip_with_any_text(tmp_path: Path) -> None:
    """HOUSE-8: names and descriptions with accents, quotes, newlines and emoji survive the round trip."""
    path = write(tmp_path, "party.toml",
                 'name = "Famille 🎉 été"\nextends = "classic-108"\n'
                 'description = "Quotes \\" and \\\\ back\\nslash, tab\\t, ✓ and 🃏"\n')
    profile = u.load_profile(path)
    assert profile.name == "Famille 🎉 été"
    assert round_trip(profile) == profile


# --- fingerprint ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", [*SHIPPED, *COMPOSITIONS])
def test_fingerprint_is_16_hex_chars(spec: str) -> None:
    """HOUSE-8: a 16-hex-char fingerprint, unchanged by name, description, sources and version."""
    profile = u.load_profile(spec)
    assert re.fullmatch(r"[0-9a-f]{16}", profile.fingerprint)
    cosmetic = attrs.evolve(profile, name="x", description="y", sources=("Z",), version=7)
    assert cosmetic.fingerprint == profile.fingerprint


def test_fingerprint_classic_with_reverse_skip_is_classic() -> None:
    """HOUSE-6: classic-108 already plays Reverse as Skip with two players, so the overlay changes nothing."""
    classic = u.load_profile("classic-108")
    same = u.load_profile("classic-108+two-player-reverse-skip")
    assert same.fingerprint == classic.fingerprint
    assert rules(same) == rules(classic)
    assert u.load_profile("classic-108+uno-penalty-4").fingerprint != classic.fingerprint  # UNO-2
    assert u.load_profile("gdj85+two-player-reverse-skip").fingerprint != u.load_profile("gdj85").fingerprint


@pytest.mark.parametrize("overlay", sorted(OVERLAY_FIELDS))
@pytest.mark.parametrize("base", SHIPPED)
def test_fingerprint_changes_exactly_when_the_rules_change(base: str, overlay: str) -> None:
    """HOUSE-8/UNO-2: equal fingerprints iff the overlay's options already hold in the base
    (mattel-42003 already has penalty 4, classic-108 already plays Reverse as Skip)."""
    plain = u.load_profile(base)
    composed = u.load_profile(f"{base}+{overlay}")
    unchanged = all(getattr(plain, k) == v for k, v in OVERLAY_FIELDS[overlay].items())
    assert (composed.fingerprint == plain.fingerprint) is unchanged
    assert (rules(composed) == rules(plain)) is unchanged


def test_fingerprints_of_shipped_bases_all_differ() -> None:
    """DECK-2..4/UNO-2/HOUSE-6: the four bases differ in rules, so their fingerprints differ."""
    prints = {u.load_profile(name).fingerprint for name in SHIPPED}
    assert len(prints) == len(SHIPPED)


# --- a no-op overlay plays identical games (HOUSE-6) ------------------------------------------------


def snapshot(state: u.GameState) -> tuple[object, ...]:
    """Everything about a state that play can change."""
    return (state.hands, state.draw_pile, state.draw_pos, state.discard_pile, state.color, state.direction,
            state.current, state.phase, state.scores, state.uno_exposed, state.match, state.drawn,
            state.challenge, state.reveal)


def test_noop_overlay_plays_identical_games() -> None:
    """HOUSE-6: classic-108 and classic-108+two-player-reverse-skip (same rules) play identical seeded games:
    every step's hands, piles, phase, current, scores and listed moves are equal."""
    classic = u.load_profile("classic-108")
    composed = u.load_profile("classic-108+two-player-reverse-skip")
    two_player_reverses = 0
    for seed in range(30):
        players = 2 + seed % 3
        a = u.new_game(classic, players, seed=seed)
        b = u.new_game(composed, players, seed=seed)
        rng_a = random.Random(seed)
        rng_b = random.Random(seed)
        rounds = 0
        for _ in range(1500):
            assert snapshot(a) == snapshot(b), f"seed {seed}"
            moves_a = u.legal_moves(a)
            assert moves_a == u.legal_moves(b), f"seed {seed}"
            if not moves_a:
                break
            if a.round_over:
                rounds += 1
                if rounds == 2:
                    break
            move_a = rng_a.choice(moves_a)
            move_b = rng_b.choice(moves_a)
            assert move_a == move_b
            if players == 2 and isinstance(move_a, u.Play) and move_a.card.symbol == u.REVERSE:
                two_player_reverses += 1
            a, b = u.apply(a, move_a), u.apply(b, move_b)
        assert a.profile.name == "classic-108"
        assert b.profile.name == "classic-108+two-player-reverse-skip"
    assert two_player_reverses > 0  # the option the overlay restates was really exercised


# --- each composed option really changes play -------------------------------------------------------


def test_forced_play_overlay_refuses_draw_with_a_playable_card() -> None:
    """HOUSE-5: under gdj85+forced-play Draw is refused (rule HOUSE-5, forced-play) while holding a playable
    card; under gdj85 (PLAY-5) it is legal; with nothing playable Draw stays legal."""
    hands = ["R5 G7", "B5 B2 B3", "Y1 Y2 Y3"]
    forced = u.from_position("gdj85+forced-play", hands, "R3", draw_pile=PILE, current=0)
    plain = u.from_position("gdj85", hands, "R3", draw_pile=PILE, current=0)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(forced, u.Draw(0))
    assert (info.value.rule, info.value.reason, info.value.player) == ("HOUSE-5", "forced-play", 0)
    assert u.Draw(0) not in u.legal_moves(forced, 0)
    assert u.Draw(0) in u.legal_moves(plain, 0)
    drawn = u.apply(plain, u.Draw(0))  # PLAY-5: declining is allowed; G1 cannot be played, so only Pass
    assert drawn.hands[0] == cards("R5 G7 G1")
    assert drawn.phase is u.Phase.DRAWN
    assert u.legal_moves(drawn, 0) == [u.Pass(0)]
    stuck = u.from_position("gdj85+forced-play", ["G7 B9", "B5 B2 B3", "Y1 Y2 Y3"], "R3", draw_pile=PILE,
                            current=0)
    assert u.legal_moves(stuck, 0) == [u.Draw(0)]


def test_two_player_reverse_skip_overlay_gives_another_turn() -> None:
    """HOUSE-6: with two players, gdj85+two-player-reverse-skip makes Reverse a Skip (player 0 plays again);
    plain gdj85 (ACT-2) passes the turn to player 1."""
    hands = ["RR R5 G7", "B5 B2 B3"]
    skip = u.apply(u.from_position("gdj85+two-player-reverse-skip", hands, "R3", draw_pile=PILE, current=0),
                   u.Play(0, card("RR")))
    plain = u.apply(u.from_position("gdj85", hands, "R3", draw_pile=PILE, current=0), u.Play(0, card("RR")))
    assert skip.current == 0
    assert skip.phase is u.Phase.PLAY
    assert skip.hands == (cards("R5 G7"), cards("B5 B2 B3"))
    assert plain.current == 1
    assert plain.direction == -1


def test_wd4_unrestricted_overlay_draws_four_at_once() -> None:
    """WD4-6: under classic-108+wd4-unrestricted a Wild Draw Four held with the colour in play is legal and
    the next player draws 4 at once and is skipped; under classic-108 it opens the challenge."""
    hands = ["W+4 R5 G7", "B5 B2 B3", "Y1 Y2 Y3"]
    move = u.Play(0, card("W+4"), color=BLUE)
    free = u.apply(u.from_position("classic-108+wd4-unrestricted", hands, "R3", draw_pile=PILE, current=0), move)
    assert free.phase is u.Phase.PLAY
    assert free.current == 2
    assert free.color == BLUE
    assert free.hands[1] == cards("B5 B2 B3 G1 G2 G3 G4")
    assert free.challenge is None
    classic = u.apply(u.from_position("classic-108", hands, "R3", draw_pile=PILE, current=0), move)
    assert classic.phase is u.Phase.CHALLENGE
    assert classic.current == 1
    assert classic.hands[1] == cards("B5 B2 B3")


def test_wd4_enforced_overlay_refuses_a_bluff() -> None:
    """WD4-6/WD4-1: under ffk04+wd4-enforced a Wild Draw Four while holding the colour in play is refused;
    without that colour it is legal and the next player draws 4 with no challenge."""
    move = u.Play(0, card("W+4"), color=GREEN)
    bluff = u.from_position("ffk04+wd4-enforced", ["W+4 R5 G7", "B5 B2 B3", "Y1 Y2 Y3"], "R3", draw_pile=PILE,
                            current=0)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(bluff, move)
    assert info.value.rule == "WD4-1"
    assert move not in u.legal_moves(bluff, 0)
    honest = u.from_position("ffk04+wd4-enforced", ["W+4 B6 G7", "B5 B2 B3", "Y1 Y2 Y3"], "R3", draw_pile=PILE,
                             current=0)
    after = u.apply(honest, move)
    assert after.phase is u.Phase.PLAY
    assert after.current == 2
    assert after.hands[1] == cards("B5 B2 B3 G1 G2 G3 G4")
    plain = u.from_position("ffk04", ["W+4 R5 G7", "B5 B2 B3", "Y1 Y2 Y3"], "R3", draw_pile=PILE, current=0)
    assert move in u.legal_moves(plain, 0)


def wd4_first_deck(profile: u.Profile, players: int) -> list[u.Card]:
    """A deck whose card turned first (after dealing 7 each) is a Wild Draw Four, no other W+4 dealt."""
    rest = [u.CARDS[c] for c in profile.deck_cards()]
    rest.remove(u.CARDS[u.WILD_DRAW_FOUR])
    plain = [c for c in rest if c != u.WILD_DRAW_FOUR]
    fours = [c for c in rest if c == u.WILD_DRAW_FOUR]
    dealt = plain[: 7 * players]
    return [*dealt, u.CARDS[u.WILD_DRAW_FOUR], *plain[7 * players:], *fours]


def test_wd4_first_card_applies_overlay() -> None:
    """HOUSE-7/SETUP-9: under classic-108+wd4-first-card-applies a first Wild Draw Four stays: the dealer names
    the colour, the first player draws 4 and is skipped; under classic-108 it is returned and another turned."""
    composed = u.load_profile("classic-108+wd4-first-card-applies")
    deck = wd4_first_deck(composed, 3)
    state = u.new_game(composed, 3, seed=5, dealer=0, deck=deck)
    assert state.phase is u.Phase.CHOOSE_COLOR
    assert state.current == 0
    assert state.top_card == u.WILD_DRAW_FOUR
    after = u.apply(state, u.ChooseColor(0, GREEN))
    assert after.color == GREEN
    assert after.current == 2
    assert after.phase is u.Phase.PLAY
    assert after.hands[1] == tuple(sorted([*deck[0:21:3], *deck[22:26]]))
    assert [len(h) for h in after.hands] == [7, 11, 7]
    plain = u.new_game("classic-108", 3, seed=5, dealer=0, deck=deck)
    assert plain.top_card != u.WILD_DRAW_FOUR
    assert [len(h) for h in plain.hands] == [7, 7, 7]


def test_uno_penalty_4_overlay_catch_draws_four() -> None:
    """UNO-2/HOUSE-8: under classic-108+uno-penalty-4 a caught player draws 4; under classic-108, 2."""
    hands = ["R5 G7", "B5 B2 B3", "Y1 Y2 Y3"]
    for spec, drawn in (("classic-108+uno-penalty-4", "G1 G2 G3 G4"), ("classic-108", "G1 G2")):
        state = u.apply(u.from_position(spec, hands, "R3", draw_pile=PILE, current=0), u.Play(0, card("R5")))
        assert state.uno_exposed == 0
        caught = u.apply(state, u.CatchUno(2, 0))
        assert caught.hands[0] == cards("G7 " + drawn), spec
        assert caught.uno_exposed == -1
        assert caught.current == 1


def going_out(spec: str, scores: list[int] | None = None) -> u.GameState:
    """Player 0 plays the last card R5; players 1 and 2 hold 3 and 7 points."""
    state = u.from_position(spec, ["R5", "B1 B2", "Y3 Y4"], "R3", draw_pile=PILE, current=0, scores=scores)
    return u.apply(state, u.Play(0, card("R5")))


def test_lowest_score_overlay_each_adds_own_hand() -> None:
    """SCORE-3: under gdj85+lowest-score each player adds their own hand (0, 3, 7); under gdj85 (SCORE-2) the
    winner takes 10."""
    state = going_out("gdj85+lowest-score")
    assert state.match.last_round == u.RoundResult(0, False, (0, 3, 7), (0, 3, 7))
    assert state.scores == (0, 3, 7)
    assert state.phase is u.Phase.ROUND_OVER
    assert going_out("gdj85").scores == (10, 0, 0)
    ended = going_out("gdj85+lowest-score", scores=[10, 400, 495])
    assert ended.scores == (10, 403, 502)
    assert ended.phase is u.Phase.MATCH_OVER
    assert ended.match.winner == 0


def test_one_point_per_round_overlay_target_ten() -> None:
    """SCORE-4: under classic-108+one-point-per-round the winner gains 1 point; 10 wins the match."""
    state = going_out("classic-108+one-point-per-round")
    assert state.match.last_round == u.RoundResult(0, False, (0, 3, 7), (1, 0, 0))
    assert state.scores == (1, 0, 0)
    assert state.phase is u.Phase.ROUND_OVER
    nine = going_out("classic-108+one-point-per-round", scores=[8, 9, 0])
    assert nine.scores == (9, 9, 0)
    assert nine.phase is u.Phase.ROUND_OVER
    ten = going_out("classic-108+one-point-per-round", scores=[9, 9, 0])
    assert ten.scores == (10, 9, 0)
    assert ten.phase is u.Phase.MATCH_OVER
    assert ten.match.winner == 0
