"""Determinization: a full game state consistent with what one player knows.

Search bots (ISMCTS and the like) cannot see the other hands, so they imagine them:
:func:`sample_state` deals the cards the player has not seen at random among the other hands
and the draw pile, keeping every card the player knows to be in a hand there (cards passed in a
swap or a rotation, or shown by a challenge: knowledge.py), and every public fact as it is.
Among the deals consistent with the view, each is equally likely.
"""

from __future__ import annotations

import random
from collections import Counter

from ..engine.cards import CARDS, COLOR_OF, WILD_DRAW_FOUR, Card
from ..engine.errors import UnoEngineError
from ..engine.state import GameState, MatchInfo, PendingChallenge, Phase, discard_from
from ..engine.view import PlayerView


def unseen_cards(view: PlayerView) -> Counter[Card]:
    """Cards of the deck in play that this player cannot see: the other hands and the draw pile."""
    pool = Counter({CARDS[c]: k for c, k in enumerate(view.profile.play_deck) if k})
    pool.subtract(Counter(view.hand))
    pool.subtract(Counter(view.discard_pile))
    return +pool


def sample_state(view: PlayerView, rng: random.Random) -> GameState:
    """A state whose view for ``view.player`` equals ``view``, hidden cards dealt at random.

    The other hands get their known cards plus random unseen ones up to their sizes; the draw
    pile gets the rest in random order. A pending challenge's bluff follows the sampled hand.
    Raises UnoEngineError when the view cannot come from a game of its profile (too few unseen
    cards for the hands and the pile, known cards of a player listed twice, a drawer holding no
    card); a view that ``unoengine.serialize`` loaded always passes (engine/view_consistency.py).
    """
    me, n = view.player, len(view.hand_sizes)
    pool = unseen_cards(view)
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    for owner, cards in view.known:
        if not 0 <= owner < n or owner == me or hands[owner]:
            raise UnoEngineError(f"the view's known cards of player {owner} are not one entry of another player")
        hands[owner] = list(cards)
        pool.subtract(Counter(cards))
        if -pool:
            raise UnoEngineError(f"the view's known cards of player {owner} are not among the unseen cards")
    pile = _kept_first_wild_draw_fours(view, pool)
    rest = list(pool.elements())
    rng.shuffle(rest)
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
