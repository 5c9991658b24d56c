"""The expensive checks, run on a sample of states because each tries many moves or views: every
listed move applies, every unlisted candidate is refused with the state unchanged, apply is pure,
a view hides what its player may not know and a determinization is a state that player cannot
tell apart; with the candidate moves and the resampled states they try."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

import attrs

import unoengine as u

from .common import _RULE_ID_CHARS, describe, snapshot
from .events import check_events
from .invariants import check_cards_conserved, check_hands_sorted, check_phase_consistency


def check_legal_moves_apply(state: u.GameState) -> dict[u.Move, u.GameState]:
    """The legal-move list is duplicate-free, split per player consistently, and every move applies.

    Returns the state after each legal move.
    """
    legal = u.legal_moves(state)
    assert len(set(legal)) == len(legal), f"duplicate legal moves {legal}: {describe(state)}"
    for p in range(state.num_players):
        mine = [m for m in legal if m.player == p]
        assert u.legal_moves(state, p) == mine, f"legal_moves(state, {p}) disagrees with legal_moves(state)"
    out: dict[u.Move, u.GameState] = {}
    for m in legal:
        try:
            out[m] = u.apply(state, m)
        except u.IllegalMoveError as exc:  # pragma: no cover - a failure path
            raise AssertionError(f"legal move {m!r} refused ({exc}): {describe(state)}") from exc
        # An equal move built afresh is not one of the listed objects, so apply checks it rule
        # by rule: that check must agree with the list and give the same state.
        fresh = attrs.evolve(m)
        assert fresh is not m
        try:
            again = u.apply(state, fresh)
        except u.IllegalMoveError as exc:  # pragma: no cover - a failure path
            raise AssertionError(f"listed move {m!r}, rebuilt, refused ({exc}): {describe(state)}") from exc
        assert again == out[m], f"rebuilt {m!r} gave another state: {describe(state)}"
        check_events(state, m, out[m])
    return out


@lru_cache(maxsize=16)
def all_play_candidates(num_players: int) -> tuple[u.Play, ...]:
    """Every Play of every card code by every player, colour None/0..3, target None/any, uno off/on."""
    colours: tuple[u.Color | None, ...] = (None, *u.Color)
    targets: tuple[int | None, ...] = (None, *range(num_players))
    return tuple(
        u.Play(p, u.CARDS[c], k, t, uno)
        for p in range(num_players)
        for c in range(58)
        for k in colours
        for t in targets
        for uno in (False, True)
    )


@lru_cache(maxsize=16)
def all_other_candidates(num_players: int) -> tuple[u.Move, ...]:
    """Every non-Play move of every player (and of one seat that does not exist)."""
    out: list[u.Move] = []
    for p in range(num_players + 1):
        out += [u.Draw(p), u.Pass(p), u.Challenge(p), u.Accept(p), u.CallUno(p), u.NextRound(p)]
        out += [u.ChooseColor(p, k) for k in u.Color]
        out += [u.CatchUno(p, t) for t in range(num_players + 1)]
    return tuple(out)


def candidate_moves(state: u.GameState, rng: random.Random, plays: int = 40) -> list[u.Move]:
    """Candidate moves, legal or not: every non-Play move of the player to act and of an exposed
    player, ``plays`` other non-Play moves and ``plays`` Plays drawn at random from every possible
    one, near misses (the player to act's own cards with a wrong colour/target/UNO flag), and
    out-of-turn plays by every other player (the top card and one of their own, HOUSE-2)."""
    n = state.num_players
    p = state.current
    others = all_other_candidates(n)
    out: list[u.Move] = [m for m in others if m.player in (p, state.uno_exposed)]
    out += rng.sample(others, plays)
    out += rng.sample(all_play_candidates(n), plays)
    for c in sorted(set(state.hands[p])):
        k = rng.choice((None, *u.Color))
        t = rng.choice((None, *range(n)))
        out.append(u.Play(p, c, k, t, rng.random() < 0.5))
        out.append(u.Play(p, c, rng.choice(list(u.Color)), None, False))
        out.append(u.Play(p, c, None, None, len(state.hands[p]) != 2))
    for q in range(n):  # HOUSE-2: out-of-turn plays, the top card's twin among them
        if q != p and state.hands[q]:
            for c in {state.top_card, rng.choice(state.hands[q])}:
                k, t = rng.choice((None, *u.Color)), rng.choice((None, *range(n)))
                out.append(u.Play(q, c, k, t, rng.random() < 0.5))
                out.append(u.Play(q, c, None, None, len(state.hands[q]) == 2))
    return out


def check_illegal_moves_rejected(state: u.GameState, candidates: Iterable[u.Move]) -> int:
    """Every candidate not in legal_moves raises IllegalMoveError and leaves the state unchanged.

    The error carries the move, its player and a rule ID, and its message names the move.
    Returns how many candidates were illegal.
    """
    legal = set(u.legal_moves(state))
    before = snapshot(state)
    count = 0
    for m in candidates:
        if m in legal:
            continue
        count += 1
        try:
            after = u.apply(state, m)
        except u.IllegalMoveError as exc:
            assert exc.move == m, f"error names move {exc.move!r}, not {m!r}"
            assert exc.player == m.player, f"error names player {exc.player}, not {m.player}"
            assert exc.rule and set(exc.rule) <= _RULE_ID_CHARS, f"error rule {exc.rule!r} is not a rule ID"
            assert repr(m) in str(exc), f"message {str(exc)!r} does not name the move {m!r}"
        except Exception as exc:  # any other exception is the failure
            raise AssertionError(f"{m!r} raised {type(exc).__name__}: {exc} on {describe(state)}") from exc
        else:
            raise AssertionError(f"move {m!r} is not in legal_moves but applied -> {after!r}: {describe(state)}")
    assert snapshot(state) == before, f"refusing illegal moves changed the state: {describe(state)}"
    return count


def check_apply_pure(state: u.GameState, moves: Iterable[u.Move]) -> None:
    """apply is a pure function: the same move twice gives equal states; the input is unchanged."""
    before = snapshot(state)
    for m in moves:
        a = u.apply(state, m)
        b = u.apply(state, m)
        assert a == b, f"apply({m!r}) is not deterministic: {a!r} != {b!r}"
        assert snapshot(state) == before, f"apply({m!r}) changed its input state: {describe(state)}"


def resample_hidden(state: u.GameState, player: int, rng: random.Random) -> u.GameState:
    """A state that ``player`` cannot tell from ``state``: other hands redealt (same sizes, keeping
    the cards ``player`` knows there) from the cards ``player`` cannot see, the draw pile reordered,
    the seed, the bluff flag, another player's drawn card and what others know changed."""
    n = state.num_players
    others = [q for q in range(n) if q != player]
    mine = {o: Counter(cards) for v, o, cards in state.known if v == player}
    pool: list[u.Card] = [c for q in others for c in (Counter(state.hands[q]) - mine.get(q, Counter())).elements()]
    pool += state.remaining_draw_pile
    rng.shuffle(pool)
    hands = list(state.hands)
    pos = 0
    for q in others:
        k = len(state.hands[q]) - sum(mine.get(q, Counter()).values())
        hands[q] = tuple(sorted([*mine.get(q, Counter()).elements(), *pool[pos:pos + k]]))
        pos += k
    drawn = state.drawn
    if drawn is not None and state.current != player:  # PLAY-5: only the drawer knows the drawn card
        drawn = rng.choice(hands[state.current])
    ch = state.challenge
    if ch is not None:
        # the bluff flag and, unless the viewer is the attacker, the attacker's hand kept for a challenge
        shown = ch.hand if player == ch.attacker else hands[ch.attacker]
        ch = attrs.evolve(ch, bluff=not ch.bluff, hand=shown)
    known = tuple(e for e in state.known if e[0] == player)  # what others know is hidden from this player
    return attrs.evolve(
        state,
        hands=tuple(hands),
        drawn=drawn,
        draw_pile=tuple(pool[pos:]),
        draw_pos=0,
        rng=state.rng ^ (rng.getrandbits(64) | 1),
        challenge=ch,
        known=known,
    )


def check_view_hides(state: u.GameState, player: int, rng: random.Random) -> None:
    """WD4-3 and the view contract: a view depends only on what its player may know.

    Other hands, the draw-pile order, the seed and the bluff flag are hidden: changing them
    must not change ``view(state, player)``.
    """
    other = resample_hidden(state, player, rng)
    v1 = u.view(state, player)
    v2 = u.view(other, player)
    if v1 != v2:
        diff = [f.name for f in attrs.fields(u.PlayerView) if getattr(v1, f.name) != getattr(v2, f.name)]
        raise AssertionError(f"view of p{player} leaks hidden information through {diff}: {describe(state)}")
    assert v1.hand == state.hands[player], f"view of p{player} shows the wrong hand"
    assert v1.hand_sizes == tuple(len(h) for h in state.hands), "view shows wrong hand sizes"
    assert list(v1.legal_moves) == u.legal_moves(state, player), "view's legal moves differ from legal_moves"


def check_determinization(state: u.GameState, player: int, rng: random.Random) -> u.GameState:
    """sample_state(view) gives a valid state that ``player`` cannot tell from ``state``: the same
    view, every card of the deck in play accounted for, knowledge and bluff consistent."""
    v = u.view(state, player)
    sampled = u.sample_state(v, rng)
    assert u.view(sampled, player) == v, f"sample_state changed p{player}'s view: {describe(state)}"
    if sorted([*state.remaining_draw_pile, *state.discard_pile, *(c for h in state.hands for c in h)]) == sorted(
        state.profile.deck_cards()
    ):
        check_cards_conserved(sampled)
    check_hands_sorted(sampled)
    check_phase_consistency(sampled)  # once the round is over too: its hands hold the points counted (SCORE-1)
    return sampled


def check_all_expensive(state: u.GameState, rng: random.Random, plays: int = 40) -> None:
    """All expensive checks on one state, with one random viewer."""
    after = check_legal_moves_apply(state)
    check_illegal_moves_rejected(state, candidate_moves(state, rng, plays))
    check_apply_pure(state, after)
    viewer = rng.randrange(state.num_players)
    check_view_hides(state, viewer, rng)
    check_determinization(state, viewer, rng)
