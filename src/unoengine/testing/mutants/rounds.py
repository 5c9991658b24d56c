"""Mutants of a round's frame: the deal, the first card, dealers, the deck in play and scoring
(SETUP, DECK, SCORE rules).

Each mutant's docstring names the rule it breaks and how; see :mod:`.base` for the patching.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from ...engine import dealer_draw, dealing, draft, legality, scoring, transition
from ...engine import profile as profile_module
from ...engine.cards import DRAW_TWO, IS_WILD, REVERSE, SKIP, SYMBOL_OF, WILD_DRAW_FOUR, WILD_SHUFFLE_HANDS, Card
from ...engine.profile import Profile
from ...engine.state import GameState, Phase
from .base import evolve, first_card_rules, is_symbol, mutant, original, replaced


@mutant("dealt-in-blocks", "SETUP-1", seam="dealing._deal")
def _dealt_in_blocks() -> Iterator[None]:
    """SETUP-1 broken: each player is dealt their whole hand at once, from the dealer's left,
    instead of one card at a time."""
    real: Callable[..., GameState] = original(dealing, "_deal")

    def deal(profile: Profile, n: int, dealer: int, cards: Sequence[Card], seed: int, match: Any,
             log: Any = None) -> GameState:
        size = profile.hand_size
        # the real deal gives card j to seat dealer + 1 + j % n: order the cards so that seat
        # dealer + 1 + m receives the m-th block of ``size`` cards
        blocks = [cards[(j % n) * size + j // n] for j in range(size * n)]
        return real(profile, n, dealer, [*blocks, *cards[size * n:]], seed, match, log)

    with replaced(dealing, "_deal", deal):
        yield


@mutant("dealer-draw-counts-card-points", "SETUP-2", seam="dealer_draw.dealer_value")
def _dealer_draw_counts_card_points() -> Iterator[None]:
    """SETUP-2 broken: in the dealer draw action and wild cards count their points (SCORE-1: 20,
    40 or 50) instead of zero, so a Skip beats a 9."""
    real: Callable[[int], int] = original(dealer_draw, "dealer_value")

    def value(card: int) -> int:
        return real(card) if not IS_WILD[card] and SYMBOL_OF[card] <= 9 else 50 if IS_WILD[card] else 20

    with replaced(dealer_draw, "dealer_value", value):
        yield


@mutant("dealer-tie-redraws-everyone", "SETUP-2", seam="dealer_draw._highest")
def _dealer_tie_redraws_everyone() -> Iterator[None]:
    """SETUP-2 RULING broken: a tie for the highest card makes every player draw again, not only
    the players tied."""
    real: Callable[..., list[int]] = original(dealer_draw, "_highest")

    def highest(draw: Any) -> list[int]:
        best = real(draw)
        return best if len(best) == 1 else [seat for seat, _card in draw]

    with replaced(dealer_draw, "_highest", highest):
        yield


@mutant("first-card-from-the-bottom", "SETUP-3", seam="dealing._deal")
def _first_card_from_the_bottom() -> Iterator[None]:
    """SETUP-3 broken: the first card is turned from the bottom of the draw pile, not its top."""
    real: Callable[..., GameState] = original(dealing, "_deal")

    def deal(profile: Profile, n: int, dealer: int, cards: Sequence[Card], seed: int, match: Any,
             log: Any = None) -> GameState:
        dealt = profile.hand_size * n
        # the real deal turns the card after the hands: put the bottom card there
        return real(profile, n, dealer, [*cards[:dealt], cards[-1], *cards[dealt:-1]], seed, match, log)

    with replaced(dealing, "_deal", deal):
        yield


@mutant("dealer-plays-first", "SETUP-4", seam="dealing._first_card")
def _dealer_plays_first() -> Iterator[None]:
    """SETUP-4 broken: the dealer plays first, not the player to the dealer's left (first cards
    with an effect of their own keep it)."""

    def after(state: GameState, dealer: int) -> GameState:
        if not IS_WILD[state.discard[0]] and SYMBOL_OF[state.discard[0]] <= 9:
            return evolve(state, current=dealer)
        return state

    yield from first_card_rules(after)


@mutant("first-skip-not-skipping", "SETUP-5", seam="dealing._first_card")
def _first_skip_not_skipping() -> Iterator[None]:
    """SETUP-5 broken: a Skip turned as the first card skips nobody: the first player plays."""

    def after(state: GameState, dealer: int) -> GameState:
        if is_symbol(state.discard[0], SKIP):
            return evolve(state, current=(dealer + 1) % len(state.hands))
        return state

    yield from first_card_rules(after)


@mutant("first-reverse-right-of-dealer-plays", "SETUP-6", seam="dealing._first_card")
def _first_reverse_right_of_dealer_plays() -> Iterator[None]:
    """SETUP-6 broken: when the first card turned is a Reverse, the player to the dealer's right
    plays first (the next seat in the new direction) instead of the dealer."""

    def after(state: GameState, dealer: int) -> GameState:
        if is_symbol(state.discard[0], REVERSE):
            return evolve(state, current=(dealer - 1) % len(state.hands))
        return state

    yield from first_card_rules(after)


@mutant("first-draw-two-not-skipping", "SETUP-7", seam="dealing._first_card")
def _first_draw_two_not_skipping() -> Iterator[None]:
    """SETUP-7 broken: when the first card turned is a Draw Two, the first player draws 2 but then
    plays, instead of being skipped."""

    def after(state: GameState, dealer: int) -> GameState:
        if is_symbol(state.discard[0], DRAW_TWO):
            return evolve(state, current=(dealer + 1) % len(state.hands))
        return state

    yield from first_card_rules(after)


@mutant("first-wild-colour-named-by-dealer", "SETUP-8", seam="dealing._first_card")
def _first_wild_colour_named_by_dealer() -> Iterator[None]:
    """SETUP-8 broken: when the first card is a Wild, the dealer names the colour and plays,
    instead of the first player."""

    def after(state: GameState, dealer: int) -> GameState:
        if state.discard[0] != WILD_DRAW_FOUR and state.phase is Phase.CHOOSE_COLOR:
            return evolve(state, current=dealer)
        return state

    yield from first_card_rules(after)


@mutant("first-wild-draw-four-applies", "SETUP-9", seam="dealing._first_card")
def _first_wild_draw_four_applies() -> Iterator[None]:
    """SETUP-9 broken: a Wild Draw Four turned as the first card is not returned to the deck: it
    applies (HOUSE-7's option), even where the profile says it is redrawn."""
    real: Callable[[draft.Draft, int], GameState] = original(dealing, "_first_card")

    def first_card(d: draft.Draft, dealer: int) -> GameState:
        profile = d.profile
        if profile.first_card_wild_draw_four != "redraw":
            return real(d, dealer)
        d.profile = attrs.evolve(profile, first_card_wild_draw_four="apply")
        return evolve(real(d, dealer), profile=profile)

    with replaced(dealing, "_first_card", first_card):
        yield


@mutant("first-shuffle-hands-shuffles", "SETUP-10", seam="dealing._first_card")
def _first_shuffle_hands_shuffles() -> Iterator[None]:
    """SETUP-10 broken: a Wild Shuffle Hands turned as the first card carries out its effect (every
    hand gathered and dealt again from the dealer's left) instead of acting as a plain Wild."""
    shuffle_hands: Callable[..., Any] = original(transition, "shuffle_hands")

    def after(state: GameState, dealer: int) -> GameState:
        if state.discard[0] != WILD_SHUFFLE_HANDS:
            return state
        hands, rng = shuffle_hands(state.hands, dealer, state.rng, state.profile.shuffle)
        return evolve(state, hands=tuple(hands), rng=rng)

    yield from first_card_rules(after)


@mutant("deal-passes-right", "SETUP-11", seam="legality.next_dealer")
def _deal_passes_right() -> Iterator[None]:
    """SETUP-11 broken: after a round the deal passes to the dealer's right, not to the left."""
    real: Callable[[GameState], int] = original(legality, "next_dealer")

    def next_dealer(state: GameState) -> int:
        if state.profile.next_dealer == "winner":
            return real(state)
        return (state.match.dealer - 1) % len(state.hands)

    with replaced(legality, "next_dealer", next_dealer):
        yield


@mutant("blanks-always-in-play", "DECK-4", seam="profile.Profile.play_deck")
def _blanks_always_in_play() -> Iterator[None]:
    """DECK-4 broken: the blank cards of the 42003 box are shuffled in even where the profile sets
    them aside."""
    original(profile_module, "Profile").play_deck  # noqa: B018 (the seam must exist)

    def play_deck(self: Profile) -> tuple[int, ...]:
        return self.deck_counts

    with replaced(profile_module.Profile, "play_deck", property(play_deck)):
        yield


@mutant("action-cards-score-ten", "SCORE-1", seam="scoring.hand_points")
def _action_cards_score_ten() -> Iterator[None]:
    """SCORE-1 broken: Skip, Reverse and Draw Two count 10 points in a hand at the end of a round,
    not 20."""
    real: Callable[[Profile, Sequence[Card]], int] = original(scoring, "hand_points")

    def hand_points(profile: Profile, hand: Sequence[Card]) -> int:
        actions = [c for c in hand if not IS_WILD[c] and SYMBOL_OF[c] >= SKIP]
        return real(profile, [c for c in hand if c not in actions]) + 10 * len(actions)

    with replaced(scoring, "hand_points", hand_points):
        yield


@mutant("match-needs-more-than-the-target", "SCORE-2", seam="scoring.match_winner")
def _match_needs_more_than_the_target() -> Iterator[None]:
    """SCORE-2 broken: a player who reaches the target score exactly has not won the match yet
    (the engine wants more than the target, not at least it)."""
    real: Callable[[Profile, Sequence[int]], int | None] = original(scoring, "match_winner")

    def match_winner(profile: Profile, scores: Sequence[int]) -> int | None:
        if max(scores) <= profile.target_score:
            return None
        return real(profile, scores)

    with replaced(scoring, "match_winner", match_winner):
        yield


@mutant("blocked-round-winner-scores-own-hand", "SCORE-2", "PLAY-7", seam="scoring.round_points")
def _blocked_round_winner_scores_own_hand() -> Iterator[None]:
    """SCORE-2 broken: the winner of a round scores the points of every hand, their own included
    (which only shows when a blocked round is won with cards left, PLAY-7)."""
    real: Callable[[Profile, int, Sequence[int]], tuple[int, ...]] = original(scoring, "round_points")

    def round_points(profile: Profile, winner: int, left: Sequence[int]) -> tuple[int, ...]:
        if profile.scoring != "winner-takes-others":
            return real(profile, winner, left)
        return tuple(sum(left) if i == winner else 0 for i in range(len(left)))

    with replaced(scoring, "round_points", round_points):
        yield


@mutant("lowest-score-rule-picks-highest", "SCORE-3", seam="scoring.match_winner")
def _lowest_score_rule_picks_highest() -> Iterator[None]:
    """SCORE-3 broken: under the own-hand scoring, when someone reaches the target the highest
    total wins the match instead of the lowest."""
    real: Callable[[Profile, Sequence[int]], int | None] = original(scoring, "match_winner")

    def match_winner(profile: Profile, scores: Sequence[int]) -> int | None:
        if profile.scoring != "own-hand-lowest-wins" or max(scores) < profile.target_score:
            return real(profile, scores)
        return max(range(len(scores)), key=lambda i: scores[i])

    with replaced(scoring, "match_winner", match_winner):
        yield


@mutant("one-point-rule-scores-card-points", "SCORE-4", seam="scoring.round_points")
def _one_point_rule_scores_card_points() -> Iterator[None]:
    """SCORE-4 broken: under one point per round the winner scores the card points left in the
    other hands (SCORE-2's count) instead of one point."""
    real: Callable[[Profile, int, Sequence[int]], tuple[int, ...]] = original(scoring, "round_points")

    def round_points(profile: Profile, winner: int, left: Sequence[int]) -> tuple[int, ...]:
        if profile.scoring != "one-point-per-round":
            return real(profile, winner, left)
        return tuple(sum(left) - left[winner] if i == winner else 0 for i in range(len(left)))

    with replaced(scoring, "round_points", round_points):
        yield
