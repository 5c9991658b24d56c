"""Starting games and rounds (SETUP-1..11), and building exact positions for tests.

:func:`new_game` chooses the dealer (SETUP-2), shuffles, deals and turns the first card
with its effect (SETUP-5..10). :func:`from_position` builds any situation a test suite needs
from hands, piles, colour, direction and turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from .cards import (
    CARDS,
    COLOR_OF,
    DRAW_FOUR_COUNT,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    IS_WILD,
    NUM_CARD_CODES,
    REVERSE,
    SKIP,
    SYMBOL_OF,
    WILD_DRAW_FOUR,
    Card,
    Color,
    parse_card,
    parse_cards,
)
from .consistency import state_problems
from .dealer_draw import draw_for_dealer, fixed_dealer_draw
from .draft import Draft
from .effects import get_effect
from .errors import PositionError, ProfileError, quoted, shown
from .events import DirectionChanged, Event, FirstCardReturned, RoundDealt, TurnSkipped
from .limits import MAX_COUNT, MAX_DECK_CARDS, MAX_PLAYERS
from .position_phase import (
    challenge_of,
    check_count,
    check_known,
    check_phase,
    check_seat,
    finished_round,
    is_count,
    previous_round,
)
from .profile import Profile
from .shuffling import shuffled
from .state import GameState, MatchInfo, PendingChallenge, Phase, RoundResult, discard_from

CardsLike = str | Iterable[Card | int | str]


def _check_profile(profile: Profile) -> Profile:
    # Names and files are read by the layers above (unoengine.new_game resolves them): the
    # engine does no file I/O.
    if not isinstance(profile, Profile):
        raise ProfileError(
            "profile", "value",
            f"expected a Profile, got {type(profile).__name__}; "
            "unoengine.new_game and unoengine.from_position also take a profile name or file",
        )
    return profile


def _check_players(profile: Profile, num_players: int) -> None:
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise PositionError(f"num_players must be an integer, got {shown(num_players)}")
    lo, hi = profile.min_players, min(profile.max_players, MAX_PLAYERS)
    if not lo <= num_players <= hi:
        raise PositionError(
            f"profile {quoted(profile.name)} is for {lo} to {hi} players (SETUP-1), got {shown(num_players)}"
        )
    try:
        get_effect(profile.custom_effect)
    except KeyError as exc:
        raise PositionError(f"profile {quoted(profile.name)}: play.custom_effect: {exc.args[0]}") from None


SEED_LIMIT = 2**64
"""Seeds are 64-bit, so that a saved game (serialize.py) can always hold them."""


def check_seed(seed: int) -> int:
    """A seed as the engine takes it (PositionError otherwise)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise PositionError(f"seed must be an integer from 0 to 2**64 - 1, got {shown(seed)}")
    return seed


def choose_dealer(profile: Profile, num_players: int, seed: int) -> tuple[int, int]:
    """SETUP-2: everyone draws a card, the highest deals; RULING: ties redraw among the tied.

    RULING: when no draw can ever break a tie (a DECK-5 deck whose cards all count the same),
    the dealer is drawn by lot from the seed instead. Returns the dealer and the next seed;
    :func:`~.dealer_draw.draw_for_dealer` returns the same draw card by card.
    """
    draw, rng = draw_for_dealer(profile, num_players, seed)
    return draw.dealer, rng


def _first_card(d: Draft, dealer: int) -> GameState:
    """Turn the first card and apply its effect at once (SETUP-3..10)."""
    n = len(d.hands)
    while True:
        (top,) = d.take_from_pile(1)
        redraw = top == WILD_DRAW_FOUR and d.profile.first_card_wild_draw_four == "redraw"
        if redraw and any(c != WILD_DRAW_FOUR for c in d.draw_pile[d.draw_pos:]):
            # SETUP-9: returned into the deck, another card turned. RULING: when only Wild
            # Draw Fours are left to turn, the card stays and acts as a plain Wild (SETUP-8).
            rest = [*d.draw_pile[d.draw_pos:], top]
            d.emit(FirstCardReturned, top)
            d.shuffle(rest)
            d.draw_pile, d.draw_pos = tuple(rest), 0
            continue
        break
    d.discard = (top, 1, None)
    d.direction = 1  # SETUP-4: play starts clockwise
    first = (dealer + 1) % n  # SETUP-4: the player to the dealer's left
    d.emit(RoundDealt, dealer, d.match.round_number, top)
    if IS_WILD[top]:
        d.color = -1
        d.phase = Phase.CHOOSE_COLOR
        # SETUP-8/SETUP-10: the first player names the colour; HOUSE-7 RULING: the dealer
        # names it for a Wild Draw Four that applies.
        applies = top == WILD_DRAW_FOUR and d.profile.first_card_wild_draw_four == "apply"
        d.current = dealer if applies else first
        return d.freeze()
    d.color = COLOR_OF[top]
    symbol = SYMBOL_OF[top]
    if symbol == SKIP:  # SETUP-5
        d.emit(TurnSkipped, first, "SETUP-5")
        d.start_turn((first + 1) % n)
    elif symbol == REVERSE:  # SETUP-6
        d.direction = -1
        d.emit(DirectionChanged, -1, "SETUP-6")
        d.start_turn(dealer)
    elif symbol == DRAW_TWO:  # SETUP-7
        d.draw(first, DRAW_TWO_COUNT, "SETUP-7")
        d.emit(TurnSkipped, first, "SETUP-7")
        d.start_turn((first + 1) % n)
    else:
        d.start_turn(first)
    return d.freeze()


def _deal(
    profile: Profile, num_players: int, dealer: int, cards: Sequence[Card], seed: int, match: MatchInfo,
    log: list[Event] | None = None,
) -> GameState:
    """SETUP-1: deal ``hand_size`` cards one at a time from the dealer's left; the rest is the
    draw pile (SETUP-3), then the first card is turned."""
    size = profile.hand_size
    hands: list[list[Card]] = [[] for _ in range(num_players)]
    for i in range(size * num_players):
        hands[(dealer + 1 + i) % num_players].append(cards[i])
    # The dealt state before the first card is turned: its discard node is a stand-in (size 0)
    # that _first_card replaces with the turned card.
    placeholder = GameState(
        profile, tuple(tuple(sorted(h)) for h in hands), tuple(cards), size * num_players,
        (CARDS[0], 0, None), 0, 1, (dealer + 1) % num_players, Phase.PLAY, None, None, -1, 0,
        seed, match,
    )
    return _first_card(Draft(placeholder, log), dealer)


def _shuffled_deck(profile: Profile, seed: int) -> tuple[list[Card], int]:
    cards = [CARDS[c] for c in profile.deck_cards()]
    return cards, shuffled(profile.shuffle, seed, cards)


def new_game(
    profile: Profile,
    num_players: int,
    seed: int = 0,
    *,
    dealer: int | None = None,
    deck: CardsLike | None = None,
    dealer_draw: CardsLike | None = None,
) -> GameState:
    """Start a match and deal its first round.

    ``seed`` makes everything reproducible. ``dealer`` skips SETUP-2's draw for the deal;
    ``dealer_draw`` fixes that draw instead (the cards drawn in order, one per seat from seat 0,
    then one per tied seat for each re-draw: :func:`~.dealer_draw.fixed_dealer_draw`).
    ``deck`` fixes the order of the cards for the first deal (top first: the first
    ``hand_size * num_players`` cards are dealt one at a time from the dealer's left, the
    next is turned as the first card); it must hold exactly the profile's cards in play.
    """
    prof = _check_profile(profile)
    _check_players(prof, num_players)
    rng = check_seed(seed)
    if dealer_draw is not None:
        if dealer is not None:
            raise PositionError("dealer_draw: give either the dealer or the dealer draw (SETUP-2), not both")
        dealer = fixed_dealer_draw(prof, num_players, _to_cards(dealer_draw, "dealer_draw")).dealer
    elif dealer is None:
        dealer, rng = choose_dealer(prof, num_players, rng)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < num_players:
        raise PositionError(f"dealer must be a player from 0 to {num_players - 1}, got {shown(dealer)}")
    if deck is None:
        cards, rng = _shuffled_deck(prof, rng)
    else:
        cards = list(_to_cards(deck, "deck"))
        expected = Counter(CARDS[c] for c in prof.deck_cards())
        if Counter(cards) != expected:
            missing = expected - Counter(cards)
            extra = Counter(cards) - expected
            raise PositionError(
                f"deck must hold exactly the {prof.deck_size} cards of profile {quoted(prof.name)}; "
                f"missing {count_text(missing)}, extra {count_text(extra)}"
            )
    match = MatchInfo(dealer, (0,) * num_players)
    return _deal(prof, num_players, dealer, cards, rng, match)


def deal_round(state: GameState, dealer: int, log: list[Event] | None = None) -> GameState:
    """Deal the next round of the match (SETUP-11): all cards gathered and shuffled."""
    prof = state.profile
    cards, rng = _shuffled_deck(prof, state.rng)
    m = state.match
    match = MatchInfo(dealer, m.scores, m.round_number + 1, m.last_round, None)
    return _deal(prof, len(state.hands), dealer, cards, rng, match, log)


def count_text(cards: Counter[Card], shown_kinds: int = 12) -> str:
    """Cards with their counts for a message: the first dozen kinds, then how many more."""
    if not cards:
        return "none"
    items = sorted(cards.items())
    text = ", ".join(f"{c!r} x{k}" if k > 1 else repr(c) for c, k in items[:shown_kinds])
    return text + (f" and {len(items) - shown_kinds} more kinds" if len(items) > shown_kinds else "")


# --- exact positions ---------------------------------------------------------------------
def _to_cards(value: CardsLike, what: str) -> tuple[Card, ...]:
    """Cards as a string of names or an iterable of cards, codes or names: at most a deck's worth
    (MAX_DECK_CARDS), so that an endless iterable is refused rather than followed."""
    if isinstance(value, str):
        try:
            return parse_cards(value)
        except ValueError as exc:
            raise PositionError(f"{what}: {exc}") from None
    try:
        items = list(islice(value, MAX_DECK_CARDS + 1))
    except TypeError:
        raise PositionError(f"{what}: must be card names or a list of cards, got {shown(value)}") from None
    if len(items) > MAX_DECK_CARDS:
        raise PositionError(f"{what}: more than {MAX_DECK_CARDS:,} cards, more than any deck holds")
    out = []
    for item in items:
        if isinstance(item, str):
            try:
                out.append(parse_card(item))
            except ValueError as exc:
                raise PositionError(f"{what}: {exc}") from None
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < NUM_CARD_CODES:
            out.append(CARDS[item])
        else:
            raise PositionError(f"{what}: {shown(item)} is not a card")
    return tuple(out)


def from_position(
    profile: Profile,
    hands: Sequence[CardsLike],
    discard: CardsLike,
    *,
    draw_pile: CardsLike | None = None,
    color: int | None = None,
    direction: int = 1,
    current: int = 0,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    seed: int = 0,
    pending_draw: int = 0,
    phase: Phase | str | None = None,
    drawn: Card | int | str | None = None,
    challenge_color: int | None = None,
    attacker_hand: CardsLike | None = None,
    uno_exposed: int | None = None,
    passes: int = 0,
    known: Iterable[tuple[int, int, CardsLike]] = (),
    round_number: int = 1,
    last_round: RoundResult | Mapping[str, Any] | None = None,
) -> GameState:
    """Build an exact situation in any phase (docs/api.md lists every argument).

    By default player ``current`` plays an ordinary turn (phase PLAY), or, with
    ``pending_draw``, answers the Draw card on top under stacking (PENALTY, HOUSE-1). ``phase``
    names another phase: ``DRAWN`` with ``drawn``, the card just drawn (PLAY-4/5);
    ``CHALLENGE`` with ``challenge_color``, the colour in play when the Wild Draw Four on top
    was played by the player before ``current``, and optionally ``attacker_hand`` (WD4-2/3);
    ``CHOOSE_COLOR``, a first wild awaiting its colour (SETUP-8, ``color`` left out);
    ``ROUND_OVER``/``MATCH_OVER``, the round won by ``current`` (END-1; blocked when ``passes``
    is the player count, PLAY-7), ``scores`` then being those after it. ``uno_exposed`` is a
    player who may be caught (UNO-2), ``passes`` the passes in a row (PLAY-7), ``known`` what
    players know of other hands as ``(viewer, owner, cards)``, ``round_number`` and
    ``last_round`` a later round (SETUP-11).

    ``hands`` gives each player's cards; ``discard`` the discard pile, bottom first (its last
    card is the top). ``draw_pile`` lists the draw pile top first; when omitted, every card of
    the profile's deck not placed elsewhere forms it, shuffled from ``seed`` (so cards are
    conserved). ``color`` is required when the top card is a wild (but in CHOOSE_COLOR), and
    otherwise must be the top card's colour. Cards may be Card objects, codes, or names such as
    ``"R7"`` (a string of names also works for a whole pile).
    """
    prof = _check_profile(profile)
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise PositionError(f"hands must be a list with one hand per player, got {shown(hands)}")
    n = len(hands)
    _check_players(prof, n)
    hand_cards = [tuple(sorted(_to_cards(h, f"hands[{i}]"))) for i, h in enumerate(hands)]
    pile = _to_cards(discard, "discard")
    if not pile:
        raise PositionError("discard: the discard pile needs at least its top card")
    placed = Counter(c for h in hand_cards for c in h) + Counter(pile)
    available = Counter({CARDS[c]: k for c, k in enumerate(prof.play_deck) if k})
    rng = check_seed(seed)
    if draw_pile is None:
        rest = list((available - placed).elements())
        rng = shuffled(prof.shuffle, rng, rest)
        stock = tuple(rest)
    else:
        stock = _to_cards(draw_pile, "draw_pile")
        placed += Counter(stock)
    too_many = placed - available
    if too_many:
        raise PositionError(
            "more copies than profile "
            f"{prof.name!r} has in play: {', '.join(f'{c!r} x{k}' for c, k in sorted(too_many.items()))}"
        )
    state_phase = check_phase(phase, pending_draw)
    top = pile[-1]
    if state_phase is Phase.CHOOSE_COLOR:
        if color is not None:
            raise PositionError(f"color: no colour is in play while the first card's colour is to be named "
                                f"(SETUP-8); got {shown(color)}")
        color = -1
    elif IS_WILD[top]:
        if color is None or isinstance(color, bool) or not isinstance(color, int) or not 0 <= color < 4:
            raise PositionError(f"color: the top card {top!r} is wild, so a colour 0..3 must be given")
    else:
        if color is not None and (type(color) not in (int, Color) or color != COLOR_OF[top]):
            raise PositionError(f"color: the top card {top!r} fixes the colour in play; got {shown(color)}")
        color = COLOR_OF[top]
    if type(direction) is not int or direction not in (1, -1):
        raise PositionError(f"direction must be 1 or -1, got {shown(direction)}")
    current = check_seat(current, n, "current")
    if state_phase in (Phase.PLAY, Phase.PENALTY, Phase.DRAWN) and any(not h for h in hand_cards):
        raise PositionError("hands: every player needs at least one card (an empty hand has won)")
    dealer = (current - 1) % n if dealer is None else check_seat(dealer, n, "dealer")
    score_tuple = _scores(scores, n)
    hands_t = tuple(hand_cards)
    drawn_card, challenge, pending = _phase_parts(
        prof, state_phase, hands_t, current, direction, top, pending_draw, drawn, challenge_color, attacker_hand)
    exposed = -1 if uno_exposed is None else check_seat(uno_exposed, n, "uno_exposed")
    count = check_count(passes, "passes")
    match = MatchInfo(dealer, score_tuple, check_count(round_number, "round_number", 1),
                      previous_round(last_round, prof, n))
    if state_phase.value >= Phase.ROUND_OVER.value:
        if last_round is not None:
            raise PositionError("last_round: in phase ROUND_OVER or MATCH_OVER the last round is the one just "
                                "over, made from the hands and current (its winner)")
        match = finished_round(prof, hands_t, current, count, match, state_phase)
    state = GameState(
        prof, hands_t, stock, 0, discard_from(pile), int(color), direction, current, state_phase, drawn_card,
        challenge, exposed, count, rng, match, None, pending, check_known(known, n, _to_cards),
    )
    # The arguments above are each fine; what ties them together is the one set of state rules
    # (SCORE-2..4: scores that have already won the match, say). Cards may be out of play.
    problems = state_problems(state, whole_deck=False)
    if problems:
        raise PositionError.from_problems(problems)
    return state


def _phase_parts(
    profile: Profile, phase: Phase, hands: tuple[tuple[Card, ...], ...], current: int, direction: int, top: Card,
    pending_draw: int, drawn: Card | int | str | None, challenge_color: int | None, attacker_hand: CardsLike | None,
) -> tuple[Card | None, PendingChallenge | None, int]:
    """The drawn card (DRAWN), the pending challenge (CHALLENGE) and the pending draw of a phase;
    an argument of another phase is refused by name."""
    if phase is Phase.DRAWN:
        if drawn is None:
            raise PositionError("drawn: phase DRAWN needs the card just drawn (PLAY-4, PLAY-5)")
        (card,) = _to_cards([drawn], "drawn")
        drawn_card: Card | None = card
    elif drawn is not None:
        raise PositionError(f"drawn: a drawn card is given only in phase DRAWN, not {phase.name}")
    else:
        drawn_card = None
    if phase is Phase.CHALLENGE:
        if challenge_color is None:
            raise PositionError("challenge_color: phase CHALLENGE needs the colour in play when the Wild Draw "
                                "Four was played (WD4-1, WD4-2)")
        hand = None if attacker_hand is None else _to_cards(attacker_hand, "attacker_hand")
        challenge: PendingChallenge | None = challenge_of(hands, current, direction, challenge_color, hand)
        check_count(pending_draw, "pending_draw")
        return drawn_card, challenge, pending_draw or DRAW_FOUR_COUNT
    for name, value in (("challenge_color", challenge_color), ("attacker_hand", attacker_hand)):
        if value is not None:
            raise PositionError(f"{name}: given only in phase CHALLENGE, not {phase.name}")
    _check_pending_draw(profile, top, pending_draw)
    return drawn_card, None, pending_draw


def _scores(scores: Sequence[int] | None, n: int) -> tuple[int, ...]:
    """SCORE-2..4: one non-negative score per player (at most n + 1 items are ever read)."""
    if scores is None:
        return (0,) * n
    try:
        out = tuple(islice(scores, n + 1))
    except TypeError:
        out = ()
    if len(out) != n or not all(map(is_count, out)):
        raise PositionError(f"scores must be {n} integers from 0 to {MAX_COUNT:,}, got {shown(scores)}")
    return out


def _check_pending_draw(profile: Profile, top: Card, pending_draw: int) -> None:
    """HOUSE-1: a pending draw needs stacking and a Draw card on top; a Wild Draw Four open to a
    challenge needs its attacker's hand, so that situation is built by playing the card."""
    if isinstance(pending_draw, bool) or not isinstance(pending_draw, int) or pending_draw < 0:
        raise PositionError(f"pending_draw must be a non-negative integer, got {shown(pending_draw)}")
    if not pending_draw:
        return
    if profile.stacking == "off":
        raise PositionError("pending_draw: only a profile with stacking (HOUSE-1) leaves a draw pending")
    if top != WILD_DRAW_FOUR and (IS_WILD[top] or SYMBOL_OF[top] != DRAW_TWO):
        raise PositionError(f"pending_draw: the top card {top!r} is not a Draw Two or Wild Draw Four")
    least = DRAW_FOUR_COUNT if top == WILD_DRAW_FOUR else DRAW_TWO_COUNT
    if pending_draw < least or pending_draw % 2:
        raise PositionError(
            f"pending_draw: {pending_draw} cannot be pending on {top!r}: an even total of at least {least}"
        )
    if top == WILD_DRAW_FOUR and profile.wild_draw_four == "challenge":
        raise PositionError(
            "pending_draw: a Wild Draw Four on top may be challenged (WD4-3); play it from a position instead"
        )
