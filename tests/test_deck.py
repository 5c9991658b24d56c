"""Example tests for the decks (DECK-1..5): exact composition of every shipped profile, and decks as data."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from helpers_play import SHIPPED, all_cards, assert_conserved, custom_profile, hand, stacked_deck

import unoengine as u

COLORS = (u.Color.RED, u.Color.YELLOW, u.Color.GREEN, u.Color.BLUE)
EXTRA_WILDS = (u.WILD_SHUFFLE_HANDS, u.WILD_SWAP_HANDS, u.WILD_CUSTOMIZABLE, u.BLANK)


def classic_counts() -> list[int]:
    """DECK-1 written out card by card, independently of any profile file."""
    counts = [0] * 58
    for color in COLORS:
        counts[u.colored(color, 0)] = 1
        for symbol in (1, 2, 3, 4, 5, 6, 7, 8, 9, u.SKIP, u.REVERSE, u.DRAW_TWO):
            counts[u.colored(color, symbol)] = 2
    counts[u.WILD] = 4
    counts[u.WILD_DRAW_FOUR] = 4
    return counts


def play_random_round(state: u.GameState, seed: int, max_moves: int = 20_000) -> u.GameState:
    """Random legal moves until the round ends, checking card conservation after every move (DECK-5)."""
    rng = random.Random(seed)
    for _ in range(max_moves):
        if state.round_over:
            return state
        state = u.apply(state, rng.choice(u.legal_moves(state)))
        assert_conserved(state)
    raise AssertionError("round did not end")


# --- DECK-1..4: shipped compositions --------------------------------------------------------
def test_shipped_profiles_are_the_four_sheets() -> None:
    """DECK-1..4: the four decks ship as profiles."""
    assert set(SHIPPED) <= set(u.shipped_profiles())


def test_classic_108_composition() -> None:
    """DECK-1: per colour one 0, two each of 1-9, Skip, Reverse, Draw Two; 4 Wild, 4 Wild Draw Four; 108 cards."""
    p = u.load_profile("classic-108")
    assert list(p.deck_counts) == classic_counts()
    assert list(p.play_deck) == classic_counts()
    assert sum(p.deck_counts) == 108
    assert p.deck_size == 108
    assert len(p.deck_cards()) == 108
    assert Counter(p.deck_cards()) == Counter({c: k for c, k in enumerate(classic_counts()) if k})


@pytest.mark.parametrize("color", COLORS)
def test_classic_108_per_colour_counts(color: u.Color) -> None:
    """DECK-1: 25 cards per colour: one 0, two of every other number and action symbol."""
    p = u.load_profile("classic-108")
    assert p.deck_counts[u.colored(color, 0)] == 1
    for number in range(1, 10):
        assert p.deck_counts[u.colored(color, number)] == 2
    for symbol in (u.SKIP, u.REVERSE, u.DRAW_TWO):
        assert p.deck_counts[u.colored(color, symbol)] == 2
    assert sum(p.deck_counts[color * 13 + s] for s in range(13)) == 25


def test_classic_108_has_no_extra_wilds() -> None:
    """DECK-1: exactly 4 Wild and 4 Wild Draw Four, no Shuffle/Swap/Customizable/blank cards."""
    p = u.load_profile("classic-108")
    assert (p.deck_counts[u.WILD], p.deck_counts[u.WILD_DRAW_FOUR]) == (4, 4)
    assert [p.deck_counts[c] for c in EXTRA_WILDS] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("name", "extras"),
    [
        ("gdj85", {u.WILD_SHUFFLE_HANDS: 1, u.WILD_CUSTOMIZABLE: 3}),  # DECK-2
        ("ffk04", {u.WILD_SWAP_HANDS: 1, u.WILD_CUSTOMIZABLE: 3}),  # DECK-3
        ("mattel-42003", {u.BLANK: 4}),  # DECK-4
    ],
)
def test_112_card_boxes_are_classic_plus_extras(name: str, extras: dict[int, int]) -> None:
    """DECK-2/DECK-3/DECK-4: the box holds DECK-1 plus the sheet's four extra cards, 112 in all."""
    p = u.load_profile(name)
    expected = classic_counts()
    for code, k in extras.items():
        expected[code] = k
    assert list(p.deck_counts) == expected
    assert sum(p.deck_counts) == 112


@pytest.mark.parametrize("name", ["gdj85", "ffk04"])
def test_gdj85_and_ffk04_play_all_112(name: str) -> None:
    """DECK-2/DECK-3: all 112 cards are in play (nothing set aside)."""
    p = u.load_profile(name)
    assert p.play_deck == p.deck_counts
    assert p.deck_size == 112
    state = u.new_game(p, 4, seed=5)
    assert sum(all_cards(state).values()) == 112
    assert_conserved(state)


def test_gdj85_shuffle_hands_and_ffk04_swap_hands_are_distinct() -> None:
    """DECK-2/DECK-3: Shuffle Hands only in GDJ85, Swap Hands only in FFK04; both have 3 Customizable."""
    g, f = u.load_profile("gdj85"), u.load_profile("ffk04")
    assert (g.deck_counts[u.WILD_SHUFFLE_HANDS], g.deck_counts[u.WILD_SWAP_HANDS]) == (1, 0)
    assert (f.deck_counts[u.WILD_SHUFFLE_HANDS], f.deck_counts[u.WILD_SWAP_HANDS]) == (0, 1)
    assert g.deck_counts[u.WILD_CUSTOMIZABLE] == f.deck_counts[u.WILD_CUSTOMIZABLE] == 3
    assert g.deck_counts[u.BLANK] == f.deck_counts[u.BLANK] == 0


def test_mattel_42003_sets_the_blanks_aside() -> None:
    """DECK-4: 112 in the box, the 4 blanks set aside, so 108 cards in play and no blank in the deal."""
    p = u.load_profile("mattel-42003")
    assert p.blank_cards == "set-aside"
    assert p.deck_counts[u.BLANK] == 4
    assert p.play_deck[u.BLANK] == 0
    assert list(p.play_deck) == classic_counts()
    assert p.deck_size == 108
    assert u.BLANK not in p.deck_cards()
    for seed in range(10):
        state = u.new_game(p, 5, seed=seed)
        assert u.BLANK not in all_cards(state)
        assert sum(all_cards(state).values()) == 108
        assert_conserved(state)


def test_mattel_42003_deck_order_with_a_blank_is_rejected() -> None:
    """DECK-4: a chosen deck order must not contain the set-aside blanks."""
    p = u.load_profile("mattel-42003")
    deck = [u.CARDS[c] for c in p.deck_cards()]
    deck[-1] = u.CARDS[u.BLANK]
    with pytest.raises(u.PositionError):
        u.new_game(p, 4, dealer=0, deck=deck)
    with pytest.raises(u.PositionError):
        u.from_position(p, ["R1 BLK", "R2"], "R5")


def test_mattel_42003_blanks_as_wilds_put_112_in_play() -> None:
    """DECK-4: a table may put its blanks in play (blank_cards = "wild"): then 112 cards are dealt from."""
    p = attrs.evolve(u.load_profile("mattel-42003"), blank_cards="wild")
    assert p.deck_size == 112
    assert p.play_deck[u.BLANK] == 4
    state = u.new_game(p, 3, seed=2)
    assert sum(all_cards(state).values()) == 112
    assert_conserved(state)


@pytest.mark.parametrize("name", SHIPPED)
def test_new_game_deals_from_exactly_the_cards_in_play(name: str) -> None:
    """DECK-1..4: every card of a fresh game comes from the profile, each as often as the deck holds it."""
    p = u.load_profile(name)
    for seed in range(5):
        assert_conserved(u.new_game(p, 6, seed=seed))


# --- DECK-5: a deck is data ----------------------------------------------------------------
def tiny_profile() -> u.Profile:
    """34 cards: red and blue 1-5 three times each, two red Skips, two Wilds; up to 3 players of 4 cards."""
    names = {f"{c}{k}": 3 for c in "RB" for k in range(1, 6)}
    names.update({"RS": 2, "W": 2})
    return custom_profile("tiny", {"cards": names}, hand_size=4, max_players=3)


def test_custom_composition_counts_exactly() -> None:
    """DECK-5: [deck.cards] gives exact counts; the deck size is their sum, not 108 or 112."""
    p = tiny_profile()
    assert p.deck_size == 34
    assert sum(p.deck_counts) == 34
    counts = Counter(p.deck_cards())
    assert counts[u.parse_card("R3")] == 3
    assert counts[u.parse_card("B5")] == 3
    assert counts[u.parse_card("RS")] == 2
    assert counts[u.WILD] == 2
    assert counts[u.parse_card("G1")] == 0
    assert counts[u.WILD_DRAW_FOUR] == 0
    assert len(counts) == 12


def test_custom_composition_deals_with_its_hand_size() -> None:
    """DECK-5, SETUP-1, SETUP-3: a 34-card deck deals 4 each to 3 players; 21 cards remain to draw."""
    p = tiny_profile()
    state = u.new_game(p, 3, seed=1)
    assert [len(h) for h in state.hands] == [4, 4, 4]  # no Draw Two in this deck
    assert_conserved(state)
    sizes = sum(len(h) for h in state.hands)
    assert sizes + state.draw_pile_size + 1 == 34
    with pytest.raises(u.PositionError):
        u.new_game(p, 4, seed=1)  # the profile says at most 3 players


def test_custom_composition_exact_deal_from_chosen_order() -> None:
    """DECK-5: new_game(deck=...) accepts exactly the custom deck's cards and deals them as told."""
    p = tiny_profile()
    deck = stacked_deck(p, 2, 0, "R4", hands={1: "R1 R1 R1 W", 0: "B2 B2 B2 RS"}, after="B5")
    state = u.new_game(p, 2, dealer=0, deck=deck)
    assert state.hands[1] == hand("R1 R1 R1 W")
    assert state.hands[0] == hand("B2 B2 B2 RS")
    assert state.top_card == u.parse_card("R4")
    assert state.remaining_draw_pile[0] == u.parse_card("B5")
    assert state.draw_pile_size == 34 - 9
    assert (state.current, state.phase) == (1, u.Phase.PLAY)
    # A classic deck order is not this profile's deck.
    with pytest.raises(u.PositionError):
        u.new_game(p, 2, dealer=0, deck=[u.CARDS[c] for c in u.load_profile("classic-108").deck_cards()])


def test_custom_composition_more_copies_than_classic_in_a_position() -> None:
    """DECK-5: a card the custom deck holds three times may appear three times; classic-108 refuses that."""
    p = tiny_profile()
    state = u.from_position(p, ["R5 R5", "B1"], "R5", current=0)
    assert_conserved(state)
    assert state.draw_pile_size == 34 - 4
    with pytest.raises(u.PositionError):
        u.from_position("classic-108", ["R5 R5", "B1"], "R5", current=0)


def test_custom_composition_plays_whole_rounds() -> None:
    """DECK-5: the small deck is played to the end of rounds (with reshuffles, PLAY-7) conserving its cards."""
    p = tiny_profile()
    for seed in range(8):
        state = play_random_round(u.new_game(p, 3, seed=seed), seed)
        assert state.match.last_round is not None
        assert sum(all_cards(state).values()) == 34
        assert not set(all_cards(state)) - set(p.deck_cards())


def test_numbers_only_deck_never_asks_for_a_colour() -> None:
    """DECK-5: a deck with no wild and no action cards: every first card is a number, play goes clockwise."""
    p = custom_profile("numbers", {"per_color": {str(k): 1 for k in range(10)}}, max_players=4)
    assert p.deck_size == 40
    for seed in range(10):
        state = u.new_game(p, 4, seed=seed)
        assert state.top_card.symbol <= 9
        assert (state.phase, state.current, state.direction) == (u.Phase.PLAY, (state.dealer + 1) % 4, 1)
        state = play_random_round(state, seed)
        assert sum(all_cards(state).values()) == 40


def test_triple_deck_for_ten_players() -> None:
    """DECK-5: three copies of the classic composition (324 cards) deal 7 each to 10 players."""
    base = u.load_profile("classic-108")
    p = attrs.evolve(base, name="triple", deck_counts=tuple(3 * k for k in base.deck_counts))
    assert p.deck_size == 324
    state = u.new_game(p, 10, seed=4)
    assert_conserved(state)
    assert sum(len(h) for h in state.hands) + state.draw_pile_size + len(state.discard_pile) == 324
    assert all(len(h) >= 7 for h in state.hands)
    play_random_round(state, 4)


def test_per_color_table_with_more_copies_via_profile_from_dict() -> None:
    """DECK-5: a [deck.per_color]/[deck.wild] table with other counts gives that deck exactly."""
    deck = {
        "per_color": {**{str(k): 3 for k in range(10)}, "skip": 1, "reverse": 1, "draw_two": 1},
        "wild": {"wild": 2, "wild_draw_four": 6},
    }
    p = custom_profile("fat", deck)
    assert p.deck_size == 4 * (30 + 3) + 8
    assert p.deck_counts[u.parse_card("Y0")] == 3
    assert p.deck_counts[u.parse_card("GS")] == 1
    assert p.deck_counts[u.WILD_DRAW_FOUR] == 6
    for seed in range(3):
        state = u.new_game(p, 5, seed=seed)
        assert_conserved(state)
        play_random_round(state, seed)
