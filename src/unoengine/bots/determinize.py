"""Determinization: a full game state consistent with what one player knows.

Search bots (ISMCTS and the like) cannot see the other hands, so they imagine them:
:func:`sample_state` deals the cards the player has not seen at random among the other hands
and the draw pile, keeping every card the player knows to be in a hand there (cards passed in a
swap or a rotation, or shown by a challenge: knowledge.py), and every public fact as it is.
Among the deals consistent with the view, each is equally likely. Once the round is over, its
result has counted the points of every hand (SCORE-1), so each hidden hand is dealt cards holding
exactly its points (:mod:`unoengine.engine.points_deal`): a random such deal, not each equally
likely, which no search can tell, as the round is over and the next one is shuffled afresh.

:class:`Determinizer` samples many states for one view, as a search does: it checks the view
and works out everything that does not vary (the unseen cards, the known hands, the shared
discard pile and match data) once, so that each sample only deals the unseen cards, as
uniformly as :meth:`random.Random.shuffle` and several times cheaper (``reach``: only as deep
into the draw pile as a search looks). Its samples follow the same distribution as
:func:`sample_state`'s (not the same stream of them).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from ..engine.cards import CARDS, COLOR_OF, WILD_DRAW_FOUR, Card
from ..engine.errors import UnoEngineError
from ..engine.points_deal import deal_by_points
from ..engine.shuffling import fisher_yates_steps, run_steps, shuffle
from ..engine.state import GameState, MatchInfo, PendingChallenge, Phase, discard_from
from ..engine.view import PlayerView


def unseen_cards(view: PlayerView) -> Counter[Card]:
    """Cards of the deck in play that this player cannot see: the other hands and the draw pile."""
    pool = Counter({CARDS[c]: k for c, k in enumerate(view.profile.play_deck) if k})
    pool.subtract(Counter(view.hand))
    pool.subtract(Counter(view.discard_pile))
    return +pool


def _fixed_cards(view: PlayerView) -> tuple[list[tuple[Card, ...]], Counter[Card]]:
    """What every sample keeps of ``view``: each player's cards that are certain (the viewer's
    hand, the known cards of the others), and the unseen cards left to deal. Raises
    UnoEngineError when the known cards cannot come from a game (an owner listed twice, or
    cards that are not among the unseen)."""
    me, n = view.player, len(view.hand_sizes)
    pool = unseen_cards(view)
    fixed: list[tuple[Card, ...]] = [() for _ in range(n)]
    fixed[me] = tuple(view.hand)
    for owner, cards in view.known:
        if not 0 <= owner < n or owner == me or fixed[owner]:
            raise UnoEngineError(f"the view's known cards of player {owner} are not one entry of another player")
        fixed[owner] = tuple(cards)
        pool.subtract(Counter(cards))
        if -pool:
            raise UnoEngineError(f"the view's known cards of player {owner} are not among the unseen cards")
    return fixed, pool


def sample_state(view: PlayerView, rng: random.Random) -> GameState:
    """A state whose view for ``view.player`` equals ``view``, hidden cards dealt at random.

    The other hands get their known cards plus random unseen ones up to their sizes (once the
    round is over, ones holding the points its result counted, SCORE-1); the draw pile gets the
    rest in random order. A pending challenge's bluff follows the sampled hand. Raises
    UnoEngineError when the view cannot come from a game of its profile (too few unseen cards for
    the hands and the pile, known cards of a player listed twice, a drawer holding no card, hand
    points the unseen cards cannot make); a view that ``unoengine.serialize`` loaded passes
    (engine/view_consistency.py), but for a crafted round-over view whose hands can each hold their
    points but not all together: no deal is found within MAX_POINTS_DEAL_STEPS steps, and
    ``PointsDealTooLong`` (an UnoEngineError) says so.
    """
    me, n = view.player, len(view.hand_sizes)
    fixed, pool = _fixed_cards(view)
    hands: list[list[Card]] = [list(cards) for cards in fixed]
    pile = _kept_first_wild_draw_fours(view, pool)
    if view.round_over and view.last_round is not None:
        rest = _deal_counted_hands(view, hands, pool, rng)
    else:
        rest = list(pool.elements())
        shuffle(rng, rest)
    for q in range(n):
        if q != me:
            need = view.hand_sizes[q] - len(hands[q])
            if need < 0 or need > len(rest):
                raise UnoEngineError(f"player {q}'s hand of {view.hand_sizes[q]} cannot be dealt from the unseen cards")
            hands[q] += rest[:need]
            rest = rest[need:]
    if not pile and len(rest) < view.draw_pile_size:
        raise UnoEngineError(f"{len(rest)} unseen cards left for a draw pile of {view.draw_pile_size}")
    draw_pile = pile or tuple(rest[:view.draw_pile_size])  # any surplus was out of play (from_position)
    sorted_hands = tuple(tuple(sorted(h)) for h in hands)
    return GameState(
        view.profile, sorted_hands, draw_pile, 0, discard_from(view.discard_pile),
        -1 if view.color is None else int(view.color), view.direction, view.current, view.phase,
        _drawn(view, sorted_hands, rng), _challenge(view, sorted_hands),
        -1 if view.uno_exposed is None else view.uno_exposed, view.passes, rng.getrandbits(64),
        MatchInfo(view.dealer, view.scores, view.round_number, view.last_round, view.match_winner),
        view.revealed, view.pending_draw, tuple((me, owner, cards) for owner, cards in view.known),
    )


def _deal_counted_hands(view: PlayerView, hands: list[list[Card]], pool: Counter[Card],
                        rng: random.Random | None) -> list[Card]:
    """SCORE-1: once the round is over, its result counts the points of every hand, so each hidden
    hand is dealt cards holding exactly its points (:func:`~unoengine.engine.points_deal.deal_by_points`;
    a random such deal with ``rng``). Fills ``hands`` and returns the cards left, shuffled with
    ``rng``, for the draw pile. UnoEngineError when no deal gives every hand its points."""
    last = view.last_round
    assert last is not None
    points = view.profile.points
    others = [q for q in range(len(hands)) if q != view.player]
    wants = [(view.hand_sizes[q] - len(hands[q]), last.hand_points[q] - sum(points[c] for c in hands[q]))
             for q in others]
    dealt = deal_by_points(pool, wants, points, rng)
    if dealt is None:
        raise UnoEngineError("the unseen cards cannot be dealt into hands holding the points the round counted "
                             f"(SCORE-1): {list(last.hand_points)}")
    left = Counter(pool)
    for q, cards in zip(others, dealt, strict=True):
        hands[q] += cards
        left.subtract(cards)
    rest = list(left.elements())
    if rng is not None:
        shuffle(rng, rest)
    return rest


def _kept_first_wild_draw_fours(view: PlayerView, pool: Counter[Card]) -> tuple[Card, ...]:
    """SETUP-9 RULING: a Wild Draw Four turned first stays only when every card left to turn is one,
    so the draw pile is made of them (taken out of ``pool``); () in every other view."""
    if not (view.phase is Phase.CHOOSE_COLOR and view.top_card == WILD_DRAW_FOUR
            and view.profile.first_card_wild_draw_four == "redraw" and view.draw_pile_size):
        return ()
    wild_draw_four = CARDS[WILD_DRAW_FOUR]
    if pool[wild_draw_four] < view.draw_pile_size:
        raise UnoEngineError("a first Wild Draw Four is kept only when the draw pile holds nothing else (SETUP-9), "
                             "and too few of them are unseen")
    pool[wild_draw_four] -= view.draw_pile_size
    return (wild_draw_four,) * view.draw_pile_size


def _drawn(view: PlayerView, hands: tuple[tuple[Card, ...], ...], rng: random.Random) -> Card | None:
    """The card just drawn: this player's own, or one of the drawer's cards taken at random."""
    if view.phase is not Phase.DRAWN:
        return None
    if view.current == view.player:
        return view.drawn_card
    if not hands[view.current]:
        raise UnoEngineError(f"player {view.current} just drew a card but holds none (PLAY-5)")
    return rng.choice(hands[view.current])


def _challenge(view: PlayerView, hands: tuple[tuple[Card, ...], ...]) -> PendingChallenge | None:
    """WD4-2: the pending challenge, its bluff judged on the sampled hand of the attacker."""
    if view.phase is not Phase.CHALLENGE or view.challenge_attacker is None or view.challenge_color is None:
        return None
    attacker, color = view.challenge_attacker, int(view.challenge_color)
    hand = hands[attacker]
    return PendingChallenge(attacker, view.current, any(COLOR_OF[c] == color for c in hand), hand, color)


class DealPlan(NamedTuple):
    """How a :class:`Determinizer` deals, for another engine to deal alike (the compiled ISMCTS
    playouts, bots/ismcts_compiled.py): each sample takes ``fresh`` steps of a Fisher-Yates shuffle
    from the top of the kept arrangement (the whole shuffle the first time), reads the shuffled
    cards from the top, gives ``need`` of them to each ``(player, need)`` of ``order`` after its
    ``fixed`` cards, then ``pile_size`` to the draw pile, top first (or the pile is ``kept_pile``).
    A pending challenge (``attacker`` not None) is a bluff when the attacker's hand holds
    ``challenge_color`` (WD4-1). ``exact`` is False where samples are dealt otherwise (a round
    over, or an opponent's just-drawn card picked from its hand): the plan does not describe them."""

    fixed: tuple[tuple[Card, ...], ...]
    arrangement: tuple[Card, ...]
    order: tuple[tuple[int, int], ...]
    fresh: int
    pile_size: int
    kept_pile: tuple[Card, ...]
    attacker: int | None
    challenge_color: int
    exact: bool


class Determinizer:
    """Samples states for one view (see the module docstring); each ``sample(rng)`` has the very
    distribution of ``sample_state(view, rng)``. Raises what :func:`sample_state` raises, once, on
    creation.

    ``reach``: how many cards of the draw pile, from the top, each sample deals afresh (None: all
    of it). The cards are kept in one arrangement, uniformly shuffled by the first sample; each
    later sample deals the hidden hands and the top ``reach`` cards by a partial Fisher-Yates
    shuffle of that arrangement, a random permutation independent of it, so every sample is
    again uniformly shuffled, exactly. What successive samples share is the order of the cards
    below ``reach`` in the pile: a search that draws no deeper never sees it, and one that does
    sees each sample still exactly distributed, only not independent of the one before.
    """

    __slots__ = ("_arrangement", "_attacker", "_challenge_color", "_counted", "_fixed", "_fresh", "_fresh_count",
                 "_kept_pile",
                 "_opponent_drew", "_pile_size", "_player_order", "_profile", "_shared", "_shuffled")

    def __init__(self, view: PlayerView, reach: int | None = None) -> None:
        if reach is not None and (type(reach) is not int or reach < 0):
            raise UnoEngineError(f"reach must be None or a count of cards (an int >= 0), got {reach!r}")
        me, n = view.player, len(view.hand_sizes)
        fixed, pool = _fixed_cards(view)
        self._counted: PlayerView | None = None
        if view.round_over and view.last_round is not None:
            # SCORE-1: each sample is sample_state's, its hands holding the points counted; a view
            # with no such deal is refused now.
            _deal_counted_hands(view, [list(cards) for cards in fixed], pool, None)
            self._counted = view
        self._kept_pile = _kept_first_wild_draw_fours(view, pool)
        self._arrangement = list(pool.elements())
        left = len(self._arrangement)
        order: list[tuple[int, int]] = []  # (player, cards dealt to it from the arrangement), seat by seat
        for q in range(n):
            if q != me:
                need = view.hand_sizes[q] - len(fixed[q])
                if need < 0 or need > left:
                    raise UnoEngineError(
                        f"player {q}'s hand of {view.hand_sizes[q]} cannot be dealt from the unseen cards")
                if need:
                    order.append((q, need))
                left -= need
        if not self._kept_pile and left < view.draw_pile_size:
            raise UnoEngineError(f"{left} unseen cards left for a draw pile of {view.draw_pile_size}")
        self._fixed, self._player_order = [tuple(sorted(h)) for h in fixed], order
        self._pile_size = 0 if self._kept_pile else view.draw_pile_size
        dealt = len(self._arrangement) - left
        total = len(self._arrangement)
        fresh = total if reach is None else min(total, dealt + reach)
        self._fresh = fisher_yates_steps(total, fresh)
        self._fresh_count = fresh
        self._shuffled = fresh == total  # a full deal needs no first shuffle
        self._opponent_drew = view.phase is Phase.DRAWN and view.current != me
        if self._opponent_drew and view.hand_sizes[view.current] <= 0:
            raise UnoEngineError(f"player {view.current} just drew a card but holds none (PLAY-5)")
        challenged = view.phase is Phase.CHALLENGE and view.challenge_attacker is not None
        self._attacker = view.challenge_attacker if challenged and view.challenge_color is not None else None
        self._challenge_color = -1 if view.challenge_color is None else int(view.challenge_color)
        self._profile = view.profile
        # The fields every sample shares, in GameState's order after draw_pos, but for the challenge.
        self._shared = (
            discard_from(view.discard_pile), -1 if view.color is None else int(view.color), view.direction,
            view.current, view.phase, view.drawn_card if view.phase is Phase.DRAWN else None,
            -1 if view.uno_exposed is None else view.uno_exposed, view.passes,
            MatchInfo(view.dealer, view.scores, view.round_number, view.last_round, view.match_winner),
            view.revealed, view.pending_draw, tuple((me, owner, cards) for owner, cards in view.known),
        )

    @property
    def plan(self) -> DealPlan:
        """How each sample is dealt (:class:`DealPlan`), from the arrangement as first made."""
        return DealPlan(tuple(self._fixed), tuple(self._arrangement), tuple(self._player_order), self._fresh_count,
                        self._pile_size, self._kept_pile, self._attacker, self._challenge_color,
                        self._counted is None and not self._opponent_drew)

    def sample(self, rng: random.Random) -> GameState:
        """One state consistent with the view; every consistent deal equally likely (once the
        round is over, :func:`sample_state`'s deal of hands holding their points)."""
        if self._counted is not None:
            return sample_state(self._counted, rng)
        arrangement = self._arrangement
        if not self._shuffled:
            run_steps(rng, arrangement, fisher_yates_steps(len(arrangement)))
            self._shuffled = True
        run_steps(rng, arrangement, self._fresh)
        cards = arrangement[::-1]  # the cards just dealt first
        fixed = self._fixed
        hands = fixed[:]
        at = 0
        for q, need in self._player_order:
            hands[q] = tuple(sorted((*fixed[q], *cards[at:at + need])))
            at += need
        hands_t = tuple(hands)
        pile = self._kept_pile or tuple(cards[at:at + self._pile_size])
        (discard, color, direction, current, phase, drawn, exposed, passes, match, revealed, pending,
         known) = self._shared
        if self._opponent_drew:
            drawn = rng.choice(hands_t[current])
        challenge = None
        if self._attacker is not None:
            hand, wanted = hands_t[self._attacker], self._challenge_color
            challenge = PendingChallenge(self._attacker, current, any(COLOR_OF[c] == wanted for c in hand), hand,
                                         wanted)
        return GameState(self._profile, hands_t, pile, 0, discard, color, direction, current, phase, drawn,
                         challenge, exposed, passes, rng.getrandbits(64), match, revealed, pending, known)
