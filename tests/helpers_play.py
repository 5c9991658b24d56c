"""Shared helpers for the DECK, SETUP and PLAY example tests (imported by them; not a conftest).

Rules cited by the helpers themselves: card conservation (DECK-5), the deal from the dealer's
left (SETUP-1), the first-card effects (SETUP-4..10) and the legality contract of ``apply``.
"""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

import unoengine as u

PROFILES_DIR = Path(__file__).resolve().parents[1] / "profiles"
SHIPPED = ("classic-108", "gdj85", "ffk04", "mattel-42003")


# --- cards -----------------------------------------------------------------------------------
def cards(text: str | Iterable[int]) -> list[u.Card]:
    """Cards from a string of names ("R7 G5 W") or an iterable of codes."""
    if isinstance(text, str):
        return list(u.parse_cards(text))
    return [u.CARDS[c] for c in text]


def hand(text: str) -> tuple[u.Card, ...]:
    """A hand as the engine stores it: a sorted tuple of cards."""
    return tuple(sorted(u.parse_cards(text)))


def all_cards(state: u.GameState) -> Counter[int]:
    """Every card of the round: hands, the rest of the draw pile, the discard pile."""
    total: Counter[int] = Counter()
    for hand in state.hands:
        total.update(hand)
    total.update(state.remaining_draw_pile)
    total.update(state.discard_pile)
    return total


def assert_conserved(state: u.GameState) -> None:
    """DECK-5: the cards of the round are exactly the profile's cards in play."""
    assert all_cards(state) == Counter(state.profile.deck_cards())


# --- legality contract ---------------------------------------------------------------------
def assert_illegal(state: u.GameState, move: u.Move, rule: str, reason: str) -> u.IllegalMoveError:
    """The move is not listed, apply refuses it with exactly ``rule``/``reason``, and the state is unchanged."""
    before = copy.deepcopy(state)
    assert move not in u.legal_moves(state)
    assert move not in u.legal_moves(state, move.player)
    with pytest.raises(u.IllegalMoveError) as info:
        u.apply(state, move)
    err = info.value
    assert (err.rule, err.reason) == (rule, reason), str(err)
    assert err.player == move.player
    assert err.move == move
    assert repr(move) in str(err)
    assert state == before
    return err


def assert_legal(state: u.GameState, move: u.Move) -> u.GameState:
    """The move is listed (for everyone and for its player) and apply accepts it without touching the input."""
    assert move in u.legal_moves(state), (move, u.legal_moves(state))
    assert move in u.legal_moves(state, move.player)
    before = copy.deepcopy(state)
    after = u.apply(state, move)
    assert state == before
    assert after != before
    return after


def played_cards(state: u.GameState, player: int | None = None) -> set[str]:
    """Names of the cards ``player`` (default: the player to act) may play now, ignoring colour/target/UNO."""
    who = state.current if player is None else player
    return {repr(m.card) for m in u.legal_moves(state, who) if isinstance(m, u.Play)}


# --- profiles --------------------------------------------------------------------------------
def shipped_dict(name: str = "classic-108") -> dict[str, Any]:
    """The parsed TOML table of a shipped profile, to derive custom profiles from."""
    return tomllib.loads((PROFILES_DIR / f"{name}.toml").read_text(encoding="utf-8"))


def custom_profile(name: str, deck: dict[str, Any], **setup: Any) -> u.Profile:
    """A profile with classic rules and points but the given [deck] table and [setup] overrides (DECK-5)."""
    data = shipped_dict()
    data["name"] = name
    data["deck"] = deck
    data["setup"] = {**data["setup"], **setup}
    return u.profile_from_dict(data, f"<test {name}>")


# --- decks in a chosen order -------------------------------------------------------------------
def stacked_deck(
    profile: u.Profile,
    num_players: int,
    dealer: int,
    turned: str,
    *,
    hands: dict[int, str] | None = None,
    after: str = "",
) -> list[u.Card]:
    """A full deck order for ``new_game(deck=...)``.

    Player p is dealt ``hands[p]`` (completed with filler cards in canonical order), dealt one at a
    time from the dealer's left (SETUP-1); ``turned`` is the first card turned (SETUP-3), ``after``
    the next cards of the draw pile; the rest of the deck follows in canonical order.
    """
    size = profile.hand_size
    pool = Counter(u.CARDS[c] for c in profile.deck_cards())
    wanted: dict[int, list[u.Card]] = {p: cards(h) for p, h in (hands or {}).items()}
    reserved = [c for h in wanted.values() for c in h] + cards(turned) + cards(after)
    short = Counter(reserved) - pool
    assert not short, f"the profile has not enough of {short}"
    pool -= Counter(reserved)
    filler = sorted(pool.elements())
    full: list[list[u.Card]] = []
    for p in range(num_players):
        hand = list(wanted.get(p, []))
        assert len(hand) <= size
        while len(hand) < size:
            hand.append(filler.pop(0))
        full.append(hand)
    front = [full[(dealer + 1 + i) % num_players][i // num_players] for i in range(size * num_players)]
    return [*front, *cards(turned), *cards(after), *filler]


def expected_hands(deck: Sequence[int], num_players: int, dealer: int, hand_size: int) -> list[tuple[u.Card, ...]]:
    """SETUP-1: the hands a one-card-at-a-time deal from the dealer's left gives, sorted like the engine's."""
    hands: list[list[u.Card]] = [[] for _ in range(num_players)]
    for i in range(hand_size * num_players):
        hands[(dealer + 1 + i) % num_players].append(u.CARDS[deck[i]])
    return [tuple(sorted(h)) for h in hands]


def check_first_card(state: u.GameState) -> None:
    """SETUP-4..10 for any freshly dealt round with the default (redraw) Wild Draw Four rule."""
    n = state.num_players
    dealer = state.dealer
    first = (dealer + 1) % n
    size = state.profile.hand_size
    top = state.top_card
    assert state.discard_pile == (top,)  # SETUP-3: one card turned
    assert top != u.WILD_DRAW_FOUR  # SETUP-9: never starts on a Wild Draw Four
    sizes = [size] * n
    if top.is_wild:  # SETUP-8, SETUP-10
        assert (state.phase, state.current, state.color, state.direction) == (u.Phase.CHOOSE_COLOR, first, -1, 1)
        assert u.legal_moves(state) == [u.ChooseColor(first, k) for k in u.Color]
    else:
        assert state.phase is u.Phase.PLAY
        assert state.color == top.color
        if top.symbol == u.SKIP:  # SETUP-5
            assert (state.current, state.direction) == ((first + 1) % n, 1)
        elif top.symbol == u.REVERSE:  # SETUP-6
            assert (state.current, state.direction) == (dealer, -1)
        elif top.symbol == u.DRAW_TWO:  # SETUP-7
            assert (state.current, state.direction) == ((first + 1) % n, 1)
            sizes[first] += 2
        else:  # SETUP-4
            assert (state.current, state.direction) == (first, 1)
    assert [len(h) for h in state.hands] == sizes
    assert state.draw_pile_size == state.profile.deck_size - sum(sizes) - 1
    assert_conserved(state)
