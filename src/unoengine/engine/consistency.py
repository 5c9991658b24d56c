"""Whether a state is one the engine could have reached: the one copy of the state consistency
rules.

Each function returns ``(field, problem)`` pairs, the field named as a saved document names it
(``hands[2]``, ``challenge.hand``, ``known[1]``), each problem starting with the ID of the rule it
breaks; an empty list means the state is consistent. ``unoengine.serialize.loads`` refuses a state
with any problem (SerializationError), :func:`~.dealing.from_position` refuses the position
(PositionError), and the property suite's checks (``unoengine.testing.checks``) assert there are
none. ``new_game`` and ``apply`` never run them: they only build states that pass.

The public rules, those a player's view is held to as well, live in :mod:`.public_facts`; the
rules here add what only the whole state shows: every card, the drawn card, the attacker's hand
and bluff, what each player knows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final, TypeVar

from .cards import CARDS, COLOR_OF, WILD_DRAW_FOUR
from .profile import Profile
from .public_facts import (
    CARD_SET,
    PUBLIC_RULES,
    ROUND_RULES,
    STATE_PATHS,
    Problem,
    PublicFacts,
    is_card,
    shape_problems,
)
from .scoring import hand_points
from .state import GameState, Phase

_SHOWN_KINDS: Final = 12
_C = TypeVar("_C", bound=int)


def state_problems(state: GameState, *, whole_deck: bool = True) -> list[Problem]:
    """Every rule ``state`` breaks: its hands, its cards, its phase and what it knows.

    ``whole_deck=False`` lets cards be out of play (:func:`~.dealing.from_position` with a short
    draw pile), so long as no card has more copies than the profile has in play.
    """
    out = hand_problems(state)
    if out:
        return out
    return [*card_problems(state, whole_deck=whole_deck), *_phase_problems(state)]


def hand_problems(state: GameState) -> list[Problem]:
    """SETUP-1: one hand per player, as the engine keeps them: a tuple of sorted tuples of cards."""
    hands = state.hands
    if type(hands) is not tuple:
        return [("hands", f"a tuple of hands, not a {type(hands).__name__}")]
    out: list[Problem] = []
    if len(hands) != len(state.match.scores):
        out.append(("hands", f"{len(hands)} hands for {len(state.match.scores)} scores: one per player"))
    for p, hand in enumerate(hands):
        if type(hand) is not tuple:
            out.append((f"hands[{p}]", f"a tuple of cards, not a {type(hand).__name__}"))
        elif not CARD_SET.issuperset(hand):
            out.append((f"hands[{p}]", "holds something that is not a card"))
        elif list(hand) != sorted(hand):
            out.append((f"hands[{p}]", "a hand is kept sorted"))
    return out


def card_problems(state: GameState, deck: Sequence[int] | None = None, *, whole_deck: bool = True) -> list[Problem]:
    """DECK-5, PLAY-7: the hands, the cards still to draw and the discard pile are exactly the
    profile's cards in play (with ``whole_deck=False``: no more than them); the piles' bookkeeping
    holds. ``deck`` may pass ``profile.deck_cards()`` to save recomputing it."""
    out: list[Problem] = []
    if not 0 <= state.draw_pos <= len(state.draw_pile):
        out.append(("draw_pile", f"the next card to draw, {state.draw_pos}, is outside the pile"))
        return out
    pile = state.discard_pile
    if state.discard[1] != len(pile) or not pile:
        out.append(("discard_pile", f"the pile's count {state.discard[1]} disagrees with its {len(pile)} cards"))
    cards: list[int] = [c for hand in state.hands for c in hand]
    cards += state.remaining_draw_pile
    cards += pile
    cards.sort()
    expected = deck if deck is not None else _deck_of(state.profile)
    if cards == list(expected):  # the common case, without counting
        return out
    have, want = Counter(cards), Counter[int](expected)
    extra, missing = have - want, want - have
    if extra or (whole_deck and missing):
        size = len(expected)
        what = f"exactly the {size}" if whole_deck else f"no more than the {size}"
        out.append(("cards", f"DECK-5: the hands, draw_pile and discard_pile hold {what} cards in play; "
                    f"missing {count_text(missing) if whole_deck else 'none'}, extra {count_text(extra)}"))
    return out


@lru_cache(maxsize=32)
def _deck_of(profile: Profile) -> tuple[int, ...]:
    return tuple(profile.deck_cards())


def count_text(cards: Counter[_C]) -> str:
    """A multiset of cards in a few words: ``R1 x2, W+4`` (and how many more kinds)."""
    if not cards:
        return "none"
    items = sorted(cards.items())
    shown = ", ".join(f"{CARDS[c]!r} x{k}" if k > 1 else repr(CARDS[c]) for c, k in items[:_SHOWN_KINDS])
    more = len(items) - _SHOWN_KINDS
    return shown + (f" and {more} more kinds" if more > 0 else "")


def phase_problems(state: GameState) -> list[Problem]:
    """Every rule of the phase and its bookkeeping that ``state`` breaks (the public rules of
    :mod:`.public_facts`, then the drawn card, the pending challenge, a kept first Wild Draw Four,
    known cards and the round's hand points); its hands and cards are :func:`hand_problems` and
    :func:`card_problems`."""
    return hand_problems(state) or _phase_problems(state)


def _phase_problems(state: GameState) -> list[Problem]:
    """:func:`phase_problems` of a state whose hands are sound."""
    facts = facts_of(state)
    out = shape_problems(facts) + _hidden_shape(state)
    if out:
        return out
    for rule in PUBLIC_RULES:
        rule(facts, out)
    _drawn(state, out)
    _challenge(state, out)
    _kept_first_wild_draw_four(state, out)
    _known_cards(state, out)
    _hand_points(state, out)
    return out


def result_problems(state: GameState) -> list[Problem]:
    """END-1, PLAY-7, SCORE-1..4: how a finished round ended and what it scored agree with the hands,
    the scoring mode and the match scores (nothing to say while a round runs)."""
    if not state.round_over:
        return []
    shape = hand_problems(state)
    if shape:
        return shape
    facts = facts_of(state)
    out = shape_problems(facts)
    if out:
        return out
    for rule in ROUND_RULES:
        rule(facts, out)
    _hand_points(state, out)
    return out


def facts_of(state: GameState) -> PublicFacts:
    """What everyone at the table sees of ``state``."""
    ch = state.challenge
    return PublicFacts(
        state.profile, tuple(map(len, state.hands)), state.discard[0], state.discard[1], state.color,
        state.direction, state.current, state.phase, state.draw_pile_size, ch.attacker if ch is not None else None,
        state.pending_draw, state.uno_exposed, state.passes, state.match, state.reveal, state.known, STATE_PATHS,
    )


def _hidden_shape(state: GameState) -> list[Problem]:
    out: list[Problem] = []
    if state.drawn is not None and not is_card(state.drawn):
        out.append(("drawn", f"{state.drawn!r} is not a card"))
    ch = state.challenge
    if ch is not None and not (
        is_card_list(ch.hand) and isinstance(ch.color, int) and 0 <= ch.color < 4 and isinstance(ch.bluff, bool)
    ):
        out.append(("challenge", "WD4-3: a hand of cards, a colour 0..3 and a bluff flag"))
    return out


def is_card_list(cards: Iterable[object]) -> bool:
    return CARD_SET.issuperset(cards)


def _drawn(state: GameState, out: list[Problem]) -> None:
    """PLAY-5: in phase DRAWN the card just drawn is in the hand of the player to act; no drawn card otherwise."""
    if state.phase is not Phase.DRAWN:
        if state.drawn is not None:
            out.append(("drawn", f"null outside phase DRAWN, not {state.drawn!r}"))
    elif state.drawn is None:
        out.append(("drawn", "PLAY-5: required in phase DRAWN: the card just drawn"))
    elif state.drawn not in state.hands[state.current]:
        out.append(("drawn", f"PLAY-5: {state.drawn!r} is not in the hand of the player to act (p{state.current})"))


def _challenge(state: GameState, out: list[Problem]) -> None:
    """WD4-2, WD4-3, UNO-2: the victim is the player to act; the hand a challenge shows is the one
    the card was played from (the attacker's hand, or a one-card hand the attacker has drawn a
    missed-UNO penalty onto since), and the bluff flag is whether it held the colour then in play."""
    ch = state.challenge
    if ch is None:
        return
    if ch.victim != state.current:
        out.append(("challenge.victim", f"WD4-3: the victim is the player to act (p{state.current}), not p{ch.victim}"))
    if ch.bluff != any(COLOR_OF[c] == ch.color for c in ch.hand):
        out.append(("challenge.bluff", "WD4-2: a bluff is exactly a hand holding the colour that was in play"))
    shown, held = Counter(ch.hand), Counter(state.hands[ch.attacker])
    extra = held - shown
    if shown - held:
        out.append(("challenge.hand", f"WD4-3: the hand the Wild Draw Four was played from is the attacker "
                    f"p{ch.attacker}'s, which does not hold {count_text(shown - held)}"))
    elif extra and not _caught_since(state, ch.hand, extra.total()):
        out.append(("challenge.hand", f"WD4-3, UNO-2: the attacker p{ch.attacker} holds {count_text(extra)} beyond "
                    "the hand the card was played from; only a missed-UNO penalty on a last card adds cards"))


def _caught_since(state: GameState, shown: tuple[int, ...], drawn: int) -> bool:
    """UNO-2, PLAY-7: the attacker, left with one card and no UNO call, was caught and drew the
    penalty (all of it, unless nothing was left to draw) while the challenge waited."""
    penalty = state.profile.uno_penalty
    can_draw = state.draw_pile_size > 0 or state.discard[1] > 1
    return len(shown) == 1 and state.uno_exposed == -1 and (drawn == penalty or (drawn < penalty and not can_draw))


def _kept_first_wild_draw_four(state: GameState, out: list[Problem]) -> None:
    """SETUP-9 RULING: a Wild Draw Four turned first is returned and another card turned, so it stays
    (as a plain wild) only when every card left to turn is one too."""
    if (state.phase is Phase.CHOOSE_COLOR and state.top_card == WILD_DRAW_FOUR
            and state.profile.first_card_wild_draw_four == "redraw"
            and any(c != WILD_DRAW_FOUR for c in state.remaining_draw_pile)):
        out.append(("discard_pile", "SETUP-9: a first Wild Draw Four is returned and another card turned while "
                    "the draw pile holds other cards"))


def _known_cards(state: GameState, out: list[Problem]) -> None:
    """knowledge.py: what a player knows of another hand is a lower bound, so it is in that hand."""
    hands = state.hands
    for i, (_viewer, owner, cards) in enumerate(state.known):
        held = iter(hands[owner])
        if not all(c in held for c in sorted(cards)):  # a sorted sub-multiset is a subsequence
            missing = Counter(cards) - Counter(hands[owner])
            out.append((f"known[{i}].cards", f"not all in the hand of p{owner}: it lacks {count_text(missing)}"))


def _hand_points(state: GameState, out: list[Problem]) -> None:
    """SCORE-1: a finished round's hand points are the points of the hands as they are."""
    last = state.match.last_round
    if not state.round_over or last is None:
        return
    points = tuple(hand_points(state.profile, h) for h in state.hands)
    if last.hand_points != points:
        out.append(("match.last_round.hand_points", f"SCORE-1: the hands hold {list(points)} points"))
