"""Whether a player's view is one the engine could have shown: the public rules a state is held to
(:mod:`.public_facts`), and what the view adds of its own player (the hand, the card just drawn,
the cards known in other hands, a hand shown to them).

A view that passes is one that determinization (``unoengine.bots.determinize.sample_state``) can
turn into a full state: the cards it has not seen fill the other hands and the draw pile
exactly, and once the round is over each other hand's points can be made, alone and all together
(SCORE-1). (Whether they can all be made at once is a partition question that only the deal
answers: a crafted view can pass whose hands cannot, and determinizing it raises
``PointsDealTooLong``.) ``unoengine.serialize.loads`` refuses a view with any problem. A view's legal moves are
taken as written: they are what its player was told.
"""

from __future__ import annotations

from collections import Counter

from .cards import CARDS, WILD_DRAW_FOUR, Card
from .consistency import count_text, is_card_list
from .points_deal import points_possible
from .public_facts import PUBLIC_RULES, VIEW_PATHS, Problem, PublicFacts, is_card, is_seat, shape_problems
from .scoring import hand_points
from .state import MatchInfo, Phase
from .view import PlayerView


def view_problems(view: PlayerView) -> list[Problem]:
    """Every rule ``view`` breaks, as ``(field, problem)`` pairs naming the fields of a view document."""
    facts = facts_of_view(view)
    out = shape_problems(facts) + _own_shape(view)
    if out:
        return out
    for rule in PUBLIC_RULES:
        rule(facts, out)
    _own_hand(view, out)
    _drawn_card(view, out)
    _challenge_color(view, out)
    _revealed(view, out)
    _own_points(view, out)
    _unseen(view, out)
    if not out:
        _counted_points(view, out)
    return out


def facts_of_view(view: PlayerView) -> PublicFacts:
    """What everyone at the table sees, as ``view`` tells it."""
    pile = view.discard_pile
    return PublicFacts(
        view.profile, view.hand_sizes, pile[-1] if pile else CARDS[0], len(pile),
        -1 if view.color is None else int(view.color), view.direction, view.current, view.phase,
        view.draw_pile_size, view.challenge_attacker, view.pending_draw,
        -1 if view.uno_exposed is None else view.uno_exposed, view.passes,
        MatchInfo(view.dealer, view.scores, view.round_number, view.last_round, view.match_winner),
        view.revealed, tuple((view.player, owner, cards) for owner, cards in view.known), VIEW_PATHS,
    )


def _own_shape(view: PlayerView) -> list[Problem]:
    out: list[Problem] = []
    if not is_seat(view.player, len(view.hand_sizes)):
        out.append(("player", f"{view.player!r} is not a player's seat"))
    if not is_card_list(view.hand) or list(view.hand) != sorted(view.hand):
        out.append(("hand", "a sorted hand of cards"))
    if not is_card_list(view.discard_pile):
        out.append(("discard_pile", "holds something that is not a card"))
    if view.drawn_card is not None and not is_card(view.drawn_card):
        out.append(("drawn_card", f"{view.drawn_card!r} is not a card"))
    if view.challenge_color is not None and not 0 <= view.challenge_color < 4:
        out.append(("challenge_color", f"{view.challenge_color!r} is not a colour"))
    return out


def _own_hand(view: PlayerView, out: list[Problem]) -> None:
    """SETUP-1: the player's own hand is as large as the table sees it."""
    size = view.hand_sizes[view.player]
    if size != len(view.hand):
        out.append((f"hand_sizes[{view.player}]", f"the player's own hand holds {len(view.hand)} cards, not {size}"))


def _unseen(view: PlayerView, out: list[Problem]) -> None:
    """DECK-5: what the player cannot see (the cards in play less their hand and the discard pile)
    is exactly the other hands and the draw pile; the cards known in other hands are among it, and a
    first Wild Draw Four is kept only when the cards left to turn can all be Wild Draw Fours too."""
    deck = Counter({CARDS[c]: k for c, k in enumerate(view.profile.play_deck) if k})
    seen = Counter(view.hand) + Counter(view.discard_pile)
    if seen - deck:
        out.append(("cards", f"DECK-5: the hand and the discard pile hold more than the cards in play: "
                    f"{count_text(seen - deck)}"))
        return
    unseen = deck - seen
    hidden = sum(s for p, s in enumerate(view.hand_sizes) if p != view.player) + view.draw_pile_size
    if hidden != unseen.total():
        out.append(("cards", f"DECK-5: the other hands and the draw pile hold {hidden} cards, but "
                    f"{unseen.total()} cards in play are unseen"))
        return
    for i, (_owner, cards) in enumerate(view.known):
        unseen.subtract(Counter(cards))
        if -unseen:
            out.append((f"known[{i}].cards", "not all among the cards this player cannot see"))
            return
    kept = view.phase is Phase.CHOOSE_COLOR and view.top_card == WILD_DRAW_FOUR
    if kept and view.profile.first_card_wild_draw_four == "redraw" and (
            unseen[CARDS[WILD_DRAW_FOUR]] < view.draw_pile_size):
        out.append(("draw_pile_size", "SETUP-9: a first Wild Draw Four is returned and another card turned unless "
                    "every card left to turn is one, and too few of them are unseen"))


def _drawn_card(view: PlayerView, out: list[Problem]) -> None:
    """PLAY-5: only the player who just drew sees the card drawn, and it is in their hand."""
    mine = view.phase is Phase.DRAWN and view.current == view.player
    if not mine:
        if view.drawn_card is not None:
            out.append(("drawn_card", "null unless this player just drew (phase DRAWN, their turn)"))
    elif view.drawn_card is None:
        out.append(("drawn_card", "PLAY-5: required in phase DRAWN on this player's turn: the card just drawn"))
    elif view.drawn_card not in view.hand:
        out.append(("drawn_card", f"PLAY-5: {view.drawn_card!r} is not in this player's hand"))


def _challenge_color(view: PlayerView, out: list[Problem]) -> None:
    """WD4-1, WD4-3: the colour a pending Wild Draw Four is judged on is public exactly while it is pending."""
    if (view.challenge_attacker is None) != (view.challenge_color is None):
        out.append(("challenge_color", "WD4-3: given exactly when a challenge is pending (with challenge_attacker)"))


def _revealed(view: PlayerView, out: list[Problem]) -> None:
    """WD4-3: a view holds only the hand shown to its own player."""
    r = view.revealed
    if r is not None and r.viewer != view.player:
        out.append(("revealed.viewer", f"WD4-3: a view shows only what was shown to its player p{view.player}"))


def _own_points(view: PlayerView, out: list[Problem]) -> None:
    """SCORE-1: once the round is over, the player's own hand points are those of their hand."""
    last = view.last_round
    if view.round_over and last is not None:
        points = hand_points(view.profile, view.hand)
        if last.hand_points[view.player] != points:
            out.append((f"last_round.hand_points[{view.player}]", f"SCORE-1: this player's hand holds {points} points"))


def _counted_points(view: PlayerView, out: list[Problem]) -> None:
    """SCORE-1: once the round is over, its result counts every hand's points, so the cards this
    player cannot see must make hands of those points (each other hand holding its known cards),
    each alone and all together (engine/points_deal.py: exact for these two questions, which a
    deal of them all needs; too large a pool and hands to tell is let pass)."""
    last = view.last_round
    if not view.round_over or last is None:
        return
    points = view.profile.points
    deck = Counter({CARDS[c]: k for c, k in enumerate(view.profile.play_deck) if k})
    pool = deck - Counter(view.hand) - Counter(view.discard_pile)
    held: dict[int, list[Card]] = {owner: list(cards) for owner, cards in view.known}
    for cards in held.values():
        pool.subtract(Counter(cards))
    others = [q for q in range(len(view.hand_sizes)) if q != view.player]
    wants = [(view.hand_sizes[q] - len(held.get(q, ())), last.hand_points[q] - sum(points[c] for c in held.get(q, ())))
             for q in others]
    if points_possible(+pool, wants, points) is False:
        out.append(("last_round.hand_points", "SCORE-1: the cards this player cannot see cannot make the other hands "
                    f"of these points: {list(last.hand_points)}"))
