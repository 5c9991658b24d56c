"""Invariant checks for unoengine states and transitions, for our test suite and for yours.

Every check raises AssertionError with a message naming the state and what is wrong; the
rule IDs of RULES.md the check enforces are cited in its docstring. The engine's own
random-game fuzz and hypothesis state machine (tests/test_properties.py) use exactly these;
:func:`unoengine.testing.check_random_game` runs them over a game your bot or wrapper plays.
The expected legal moves are computed here from the rules, independently of the engine's
move generator, so the two can be compared.

Cheap checks (run after every move): :func:`check_hands_sorted`, :func:`check_cards_conserved`,
:func:`check_phase_consistency`, :func:`check_transition`, :class:`GameChecker` (scores and the
move bound). Expensive checks (run on a sample of states): :func:`check_legal_moves_apply`,
:func:`check_illegal_moves_rejected`, :func:`check_apply_pure`, :func:`check_view_hides`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache

import attrs

import unoengine as u

from ..engine.effects import get_effect

MAX_MOVES_PER_ROUND = 100_000
"""PLAY-7: every round must end; no round played by a card-preferring policy takes this many moves.
Random rounds with ten players, Shuffle Hands and an "everyone else draws" custom card can run to
a few tens of thousands of moves (every Shuffle Hands evens the hands out again), so the bound
is set well above that while still catching any loop."""
MAX_MOVES_PER_ROUND_UNIFORM = 200_000
"""The bound for uniformly random play. Its round lengths are heavy-tailed (measured with gdj85,
10 players, 200 seeds: mean ~4,100 moves, 95th percentile ~11,700, maximum ~23,000; one fuzz
round takes 33,485), so 20,000 would flag ordinary long games; 200,000 still catches any loop."""

_RULE_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
_COLOR_FREE = (u.WILD_SHUFFLE_HANDS, u.WILD_SWAP_HANDS, u.WILD_CUSTOMIZABLE, u.BLANK)
"""Cards whose effect may change the player's own hand beyond removing the card played."""


# --- helpers ----------------------------------------------------------------------------------
def describe(state: u.GameState) -> str:
    """A one-line description of a state for failure messages."""
    return f"{state!r} hands={[list(h) for h in state.hands]} top={state.top_card!r} colour={state.color}"


def snapshot(state: u.GameState) -> tuple[object, ...]:
    """Every field value of a state (all immutable), to detect any change to it."""
    return tuple(getattr(state, f.name) for f in attrs.fields(u.GameState))


def deck_multiset(profile: u.Profile) -> Counter[u.Card]:
    """The profile's play deck as a multiset of cards (DECK-1..5)."""
    return Counter(u.CARDS[c] for c in profile.deck_cards())


def matches(top: int, color: int, card: int) -> bool:
    """PLAY-1..3, written independently of the engine: may ``card`` go on ``top`` with ``color``?"""
    c = u.CARDS[card]
    t = u.CARDS[top]
    if c.is_wild:
        return True
    if c.color == color:
        return True
    return not t.is_wild and c.symbol == t.symbol


def playable_from(profile: u.Profile, top: int, color: int, hand: Sequence[int], card: int) -> bool:
    """PLAY-1..3 and WD4-1 (enforced mode): may ``card`` be played from ``hand``?"""
    if not matches(top, color, card):
        return False
    restricted = card == u.WILD_DRAW_FOUR and profile.wild_draw_four == "enforced"
    return not (restricted and any(u.CARDS[c].color == color for c in hand))


def needs_target(profile: u.Profile, card: int) -> bool:
    """ACT-7, ACT-8: Swap Hands names an opponent; so do customizable/blank cards whose effect says it
    needs one (as registered); HOUSE-3: so does a 7 under seven-zero."""
    return (
        card == u.WILD_SWAP_HANDS
        or (card in (u.WILD_CUSTOMIZABLE, u.BLANK) and get_effect(profile.custom_effect).needs_target)
        or (profile.seven_zero and not u.CARDS[card].is_wild and u.CARDS[card].symbol == 7)
    )


def draw_kind(card: int) -> str | None:
    """"D2" for a Draw Two of any colour, "D4" for a Wild Draw Four, else None (ACT-3, ACT-5)."""
    c = u.CARDS[card]
    if card == u.WILD_DRAW_FOUR:
        return "D4"
    return "D2" if not c.is_wild and c.symbol == u.DRAW_TWO else None


STACK_ANSWERS: dict[str, set[tuple[str, str]]] = {
    "off": set(),
    "same-kind": {("D2", "D2"), ("D4", "D4")},
    "cross": {("D2", "D2"), ("D2", "D4"), ("D4", "D2"), ("D4", "D4")},
    "equal-or-higher": {("D2", "D2"), ("D2", "D4"), ("D4", "D4")},
}
"""HOUSE-1, written from RULES.md: the (card on top, answer) pairs each stacking variant allows."""


@cache
def _play(p: int, c: int, k: u.Color | None, t: int | None, uno: bool) -> u.Move:
    """A Play, built once (building moves is most of the cost of checking every step)."""
    return u.Play(p, u.CARDS[c], k, t, uno)


_ALL_COLOURS: tuple[u.Color | None, ...] = tuple(u.Color)


def _plays(state: u.GameState, p: int, cards: Iterable[int]) -> set[u.Move]:
    """Every Play of ``cards`` by ``p``: each colour of a wild, each target, with and without UNO-1 call."""
    prof = state.profile
    n = state.num_players
    calls = (False, True) if len(state.hands[p]) == 2 else (False,)
    out: set[u.Move] = set()
    for c in cards:
        targets = [t for t in range(n) if t != p] if needs_target(prof, c) else [None]
        colours = _ALL_COLOURS if u.CARDS[c].is_wild else (None,)
        out.update(_play(p, c, k, t, uno) for k in colours for t in targets for uno in calls)
    return out


def expected_turn_moves(state: u.GameState) -> set[u.Move]:
    """The in-turn moves of the player to act while a round runs, computed from the rules alone:
    PLAY-1..3 matching, WD4-1 (enforced mode), ACT-4 colour, ACT-7/8 target, UNO-1 call only from
    two cards, PLAY-4/5 (after a draw only the drawn card, or keep it), HOUSE-5 (no draw while able
    to play), PLAY-7 (pass only with nothing to play or draw); WD4-3 (Challenge or Accept) and
    HOUSE-1 (facing a Draw card under stacking: an answer the variant allows, or Accept; no answer
    to a last card)."""
    prof = state.profile
    cur = state.current
    hand = state.hands[cur]
    top, color = state.top_card, state.color
    if state.phase in (u.Phase.PENALTY, u.Phase.CHALLENGE):
        answers = STACK_ANSWERS[prof.stacking]
        attacker_out = state.challenge is not None and not state.hands[state.challenge.attacker]
        cards = set() if attacker_out else {
            c for c in hand
            if (draw_kind(top), draw_kind(c)) in answers and playable_from(prof, top, color, hand, c)
        }
        out = _plays(state, cur, cards)
        out.add(u.Accept(cur))
        if state.phase is u.Phase.CHALLENGE:
            out.add(u.Challenge(cur))
        return out
    drawn_phase = state.phase is u.Phase.DRAWN
    candidates = {state.drawn} if drawn_phase else set(hand)
    out = _plays(state, cur, {c for c in candidates if c is not None and playable_from(prof, top, color, hand, c)})
    if drawn_phase:
        out.add(u.Pass(cur))
        return out
    can_draw = state.draw_pile_size > 0 or state.discard[1] > 1
    if can_draw and (prof.decline_to_play or not out):
        out.add(u.Draw(cur))
    if not out:
        out.add(u.Pass(cur))
    return out


def expected_jump_ins(state: u.GameState) -> set[u.Move]:
    """HOUSE-2, from the rules alone: while a turn is played or a Draw card answered, every player
    but the one to act may play a card identical to the top card (never a wild)."""
    prof = state.profile
    top = state.top_card
    if not prof.jump_in or top.is_wild or state.phase not in (u.Phase.PLAY, u.Phase.DRAWN, u.Phase.PENALTY):
        return set()
    out: set[u.Move] = set()
    for q in range(state.num_players):
        if q != state.current and top in state.hands[q]:
            out |= _plays(state, q, {top})
    return out


_DECISIONS = (u.Play, u.Draw, u.Pass, u.Challenge, u.Accept)


def check_turn_moves(state: u.GameState) -> None:
    """legal_moves lists exactly :func:`expected_turn_moves` for the player to act and
    :func:`expected_jump_ins` for the others (plus UNO moves)."""
    cur = state.current
    legal = u.legal_moves(state)
    got = [m for m in legal if m.player == cur and type(m) in _DECISIONS]
    want = expected_turn_moves(state)
    if set(got) != want or len(got) != len(want):
        raise AssertionError(
            f"in-turn moves of p{cur} in {state.phase.name}: missing {sorted(want - set(got), key=repr)}, "
            f"extra {sorted(set(got) - want, key=repr)}: {describe(state)}"
        )
    jumps = [m for m in legal if m.player != cur and type(m) is u.Play]
    want = expected_jump_ins(state)
    if set(jumps) != want or len(jumps) != len(want):
        raise AssertionError(
            f"HOUSE-2 jump-ins: missing {sorted(want - set(jumps), key=repr)}, "
            f"extra {sorted(set(jumps) - want, key=repr)}: {describe(state)}"
        )
    assert all(type(m) in (u.CallUno, u.CatchUno) for m in legal if m.player != cur and type(m) is not u.Play), (
        f"out-of-turn moves other than jump-ins and UNO moves: {legal}: {describe(state)}"
    )


def next_dealer(state: u.GameState) -> int:
    """SETUP-11: the dealer of the next round, computed independently of the engine."""
    last = state.match.last_round
    if state.profile.next_dealer == "winner" and last is not None:
        return last.winner
    return (state.match.dealer + 1) % state.num_players


def fingerprint(move: u.Move, state: u.GameState) -> str:
    """A text of a move and the state after it built from plain ints (no reprs), for digests."""
    fields = tuple(None if v is None else int(v) for v in attrs.astuple(move, recurse=False))
    return str((
        type(move).__name__, fields, [[int(c) for c in h] for h in state.hands],
        [int(c) for c in state.remaining_draw_pile], [int(c) for c in state.discard_pile],
        state.current, state.color, state.direction, int(state.phase), state.rng,
    ))


# --- cheap state invariants -------------------------------------------------------------------
def check_hands_sorted(state: u.GameState) -> None:
    """Hands are a tuple of sorted tuples of cards, one per player (SETUP-1)."""
    hands = state.hands
    assert type(hands) is tuple, f"hands is a {type(hands).__name__}, not a tuple: {describe(state)}"
    assert len(hands) == len(state.match.scores), f"{len(hands)} hands but {len(state.match.scores)} scores"
    for p, hand in enumerate(hands):
        assert type(hand) is tuple, f"hand of p{p} is a {type(hand).__name__}, not a tuple: {describe(state)}"
        assert list(hand) == sorted(hand), f"hand of p{p} is not sorted: {list(hand)}"


def check_cards_conserved(state: u.GameState, deck: Sequence[int] | None = None) -> None:
    """DECK-5, PLAY-7: hands + remaining draw pile + discard pile are exactly the profile's play deck.

    ``deck`` may pass the sorted ``profile.deck_cards()`` to save recomputing it.
    """
    expected = deck if deck is not None else state.profile.deck_cards()
    cards: list[int] = []
    for hand in state.hands:
        cards.extend(hand)
    cards.extend(state.remaining_draw_pile)
    cards.extend(state.discard_pile)
    cards.sort()
    if cards != list(expected):
        have = Counter(u.CARDS[c] for c in cards)
        want = deck_multiset(state.profile)
        raise AssertionError(
            f"cards not conserved: missing {sorted((want - have).elements())}, "
            f"extra {sorted((have - want).elements())}: {describe(state)}"
        )
    assert 0 <= state.draw_pos <= len(state.draw_pile), f"draw_pos {state.draw_pos} out of range"
    assert state.discard[1] == len(state.discard_pile), "discard node size disagrees with the pile"


def check_phase_consistency(state: u.GameState) -> None:
    """Phase bookkeeping agrees with the rest of the state.

    PLAY-1..7 (PLAY/DRAWN: the in-turn moves are exactly :func:`expected_turn_moves`), WD4-3 (CHALLENGE:
    pending challenge, the victim is the player after the attacker and is to act), SETUP-8/9
    (CHOOSE_COLOR only on a first wild), END-1/SCORE-2..4 (ROUND_OVER/MATCH_OVER: a result,
    only NextRound legal), UNO-2 (an exposed player holds exactly one card), PLAY-7 (someone
    always has a move while the round runs).
    """
    n = state.num_players
    phase = state.phase
    cur = state.current
    top = state.top_card
    assert 0 <= cur < n, f"current {cur} is not a player: {describe(state)}"
    assert state.direction in (1, -1), f"direction {state.direction}: {describe(state)}"
    assert 0 <= state.match.dealer < n, f"dealer {state.match.dealer}: {describe(state)}"
    assert state.match.round_number >= 1, f"round number {state.match.round_number}: {describe(state)}"
    if phase is u.Phase.CHOOSE_COLOR:
        assert state.color == -1, f"CHOOSE_COLOR with colour {state.color} already named: {describe(state)}"
    else:
        assert 0 <= state.color <= 3, f"colour {state.color} in phase {phase.name}: {describe(state)}"
    if not top.is_wild and state.color >= 0:
        assert state.color == top.color, f"colour {state.color} differs from the top card {top!r}: {describe(state)}"
    if phase is not u.Phase.DRAWN:
        assert state.drawn is None, f"drawn card {state.drawn!r} outside DRAWN phase: {describe(state)}"
    if phase is not u.Phase.CHALLENGE:
        assert state.challenge is None, f"pending challenge {state.challenge} in phase {phase.name}: {describe(state)}"
    if phase in (u.Phase.CHALLENGE, u.Phase.PENALTY):
        pending = state.pending_draw
        assert pending >= (4 if phase is u.Phase.CHALLENGE else 2) and pending % 2 == 0, (
            f"{phase.name} with pending_draw {pending}: {describe(state)}"
        )
        if state.profile.stacking == "off":
            assert pending == 4, f"ACT-5: {pending} pending without stacking: {describe(state)}"
    else:
        assert state.pending_draw == 0, f"pending_draw {state.pending_draw} in phase {phase.name}: {describe(state)}"

    if phase is u.Phase.DRAWN:
        drawn = state.drawn
        assert drawn is not None, f"DRAWN phase without a drawn card: {describe(state)}"
        assert drawn in state.hands[cur], f"drawn card {drawn!r} not in p{cur}'s hand: {describe(state)}"
        check_turn_moves(state)
    elif phase is u.Phase.PLAY:
        check_turn_moves(state)
    elif phase is u.Phase.CHALLENGE:
        ch = state.challenge
        assert ch is not None, f"CHALLENGE phase without a pending challenge: {describe(state)}"
        assert cur == ch.victim, f"CHALLENGE: p{cur} to act but the victim is p{ch.victim}: {describe(state)}"
        assert ch.victim == (ch.attacker + state.direction) % n, (
            f"CHALLENGE: victim p{ch.victim} is not the player after attacker p{ch.attacker}: {describe(state)}"
        )
        assert top == u.WILD_DRAW_FOUR, f"CHALLENGE with top card {top!r}: {describe(state)}"
        assert state.profile.wild_draw_four == "challenge", (
            f"CHALLENGE phase in wild_draw_four mode {state.profile.wild_draw_four!r}: {describe(state)}"
        )
        check_turn_moves(state)
    elif phase is u.Phase.PENALTY:
        assert state.profile.stacking != "off", f"HOUSE-1: PENALTY phase without stacking: {describe(state)}"
        assert draw_kind(top) is not None, f"HOUSE-1: PENALTY with top card {top!r}: {describe(state)}"
        assert top != u.WILD_DRAW_FOUR or state.profile.wild_draw_four != "challenge", (
            f"WD4-3: an unchallengeable Wild Draw Four in challenge mode: {describe(state)}"
        )
        check_turn_moves(state)
    elif phase is u.Phase.CHOOSE_COLOR:
        assert top.is_wild, f"CHOOSE_COLOR on a non-wild first card {top!r}: {describe(state)}"
        assert state.discard[1] == 1, f"CHOOSE_COLOR after the first card: {describe(state)}"
        applies = top == u.WILD_DRAW_FOUR and state.profile.first_card_wild_draw_four == "apply"
        chooser = state.match.dealer if applies else (state.match.dealer + 1) % n
        assert cur == chooser, f"SETUP-8/9: p{cur} names the first colour, expected p{chooser}: {describe(state)}"
        if top == u.WILD_DRAW_FOUR and not applies:  # SETUP-9 RULING: kept only when nothing else is left to turn
            assert all(c == u.WILD_DRAW_FOUR for c in state.remaining_draw_pile), (
                f"SETUP-9: a first Wild Draw Four kept while other cards could be turned: {describe(state)}"
            )

    if state.round_over:
        last = state.match.last_round
        assert last is not None, f"{phase.name} without a round result: {describe(state)}"
        assert state.uno_exposed == -1, f"{phase.name} with an open UNO window: {describe(state)}"
        legal = u.legal_moves(state)
        if phase is u.Phase.ROUND_OVER:
            assert state.match.winner is None, f"ROUND_OVER with a match winner: {describe(state)}"
            assert legal == [u.NextRound(next_dealer(state))], (
                f"ROUND_OVER: legal moves {legal}, expected only NextRound(p{next_dealer(state)})"
            )
        else:
            assert state.match.winner is not None, f"MATCH_OVER without a match winner: {describe(state)}"
            assert legal == [], f"MATCH_OVER: legal moves {legal}, expected none"
        if not last.blocked:
            assert not state.hands[last.winner], f"END-1: winner p{last.winner} still holds cards: {describe(state)}"
    else:
        for p, hand in enumerate(state.hands):
            attacker = state.challenge.attacker if state.challenge is not None else -1
            assert hand or p == attacker, f"END-1: p{p} has no cards but the round goes on: {describe(state)}"
        assert 0 <= state.passes < n, f"PLAY-7: {state.passes} consecutive passes among {n} players: {describe(state)}"
        assert u.legal_moves(state, cur), f"PLAY-7: p{cur} to act has no legal move: {describe(state)}"
    for viewer, owner, cards in state.known:  # knowledge.py: a lower bound of another player's hand
        assert viewer != owner and 0 <= viewer < n and 0 <= owner < n, f"bad knowledge entry {viewer, owner}"
        held = state.hands[owner]
        assert all(cards.count(c) <= held.count(c) for c in set(cards)), (
            f"p{viewer} 'knows' {list(cards)} in p{owner}'s hand, which does not hold them: {describe(state)}"
        )
    ch = state.challenge
    if ch is not None:
        assert ch.bluff == any(u.CARDS[c].color == ch.color for c in ch.hand), (
            f"WD4-2: bluff flag {ch.bluff} disagrees with the hand {list(ch.hand)} and colour {ch.color}"
        )
    exposed = state.uno_exposed
    if exposed != -1:
        assert 0 <= exposed < n, f"uno_exposed {exposed} is not a player: {describe(state)}"
        assert len(state.hands[exposed]) == 1, (
            f"UNO-2: exposed p{exposed} holds {len(state.hands[exposed])} cards, not 1: {describe(state)}"
        )


def check_round_result(state: u.GameState) -> None:
    """END-1, PLAY-7, SCORE-1..4: the result of a finished round agrees with the hands and the mode."""
    last = state.match.last_round
    assert last is not None and state.round_over
    prof = state.profile
    n = state.num_players
    pts = tuple(u.hand_points(prof, h) for h in state.hands)
    own = tuple(sum(prof.points[c] for c in h) for h in state.hands)
    assert pts == own, f"SCORE-1: hand_points {pts} disagree with the points table {own}"
    assert last.hand_points == pts, f"SCORE-1: RoundResult.hand_points {last.hand_points}, hands hold {pts}"
    w = last.winner
    if last.blocked:
        assert pts[w] == min(pts), f"PLAY-7: blocked round won by p{w} with {pts[w]} points, lowest is {min(pts)}"
    if prof.scoring == "winner-takes-others":
        expected = tuple(sum(pts) - pts[w] if i == w else 0 for i in range(n))
    elif prof.scoring == "own-hand-lowest-wins":
        expected = tuple(0 if i == w else pts[i] for i in range(n))
    else:
        expected = tuple(1 if i == w else 0 for i in range(n))
    assert last.points_won == expected, (
        f"{prof.scoring}: points_won {last.points_won}, expected {expected} (hand points {pts}, winner p{w})"
    )
    scores = state.match.scores
    if max(scores) < prof.target_score:
        assert state.match.winner is None, f"match winner {state.match.winner} below target {prof.target_score}"
    elif prof.scoring == "own-hand-lowest-wins":
        low = min(scores)
        lowest = [i for i, s in enumerate(scores) if s == low]
        want = lowest[0] if len(lowest) == 1 else None
        assert state.match.winner == want, f"SCORE-3: match winner {state.match.winner}, expected {want} ({scores})"
    else:
        assert state.match.winner == w, (
            f"SCORE-2/4: p{w} won the round and reached {scores[w]} >= {prof.target_score}, "
            f"but the match winner is {state.match.winner} ({scores})"
        )
    assert (state.phase is u.Phase.MATCH_OVER) == (state.match.winner is not None)


def check_transition(prev: u.GameState, move: u.Move, new: u.GameState) -> None:
    """Local facts of one legal transition (UNO-1..7, PLAY-1, SETUP-11)."""

    def where() -> str:
        return f"{move!r} on {describe(prev)} -> {describe(new)}"

    assert new.profile is prev.profile or new.profile == prev.profile, f"profile changed: {where()}"
    assert new.num_players == prev.num_players, f"number of players changed: {where()}"
    if isinstance(move, u.CallUno):  # UNO-4: only the window closes
        assert new == attrs.evolve(prev, uno_exposed=-1), f"UNO-4: CallUno changed more than the window: {where()}"
        return
    if isinstance(move, u.CatchUno):  # UNO-2: the caught player draws the penalty, nothing else moves
        t = move.target
        can = prev.draw_pile_size + prev.discard[1] - 1
        grown = len(new.hands[t]) - len(prev.hands[t])
        assert grown == min(prev.profile.uno_penalty, can), f"UNO-2: caught p{t} drew {grown} cards: {where()}"
        assert new.uno_exposed == -1, f"UNO-2: window still open after a catch: {where()}"
        assert (new.current, new.phase, new.color, new.direction) == (
            prev.current, prev.phase, prev.color, prev.direction
        ), f"UNO-6: a catch changed the turn: {where()}"
        for q in range(prev.num_players):
            if q != t:
                assert new.hands[q] == prev.hands[q], f"UNO-2: catch changed p{q}'s hand: {where()}"
        return
    if isinstance(move, u.NextRound):  # SETUP-11
        assert new.match.round_number == prev.match.round_number + 1, f"round number not advanced: {where()}"
        assert new.match.scores == prev.match.scores, f"scores changed by dealing: {where()}"
        assert new.match.dealer == move.player == next_dealer(prev), f"SETUP-11: wrong dealer: {where()}"
        return
    # An in-turn move begins the turn: any earlier UNO window is closed (UNO-5, UNO-7).
    assert new.uno_exposed in (-1, move.player), (
        f"UNO-5: p{prev.uno_exposed}'s window survived an in-turn move ({new.uno_exposed}): {where()}"
    )
    n = prev.num_players
    avail = prev.draw_pile_size + prev.discard[1] - 1  # PLAY-7: all that can be drawn
    if isinstance(move, (u.Accept, u.Challenge)):
        _check_penalty_drawn(prev, move, new, avail, where)
    if isinstance(move, u.Play):
        p = move.player
        if p != prev.current:  # HOUSE-2: only the top card's twin, only while a turn or answer runs
            assert prev.profile.jump_in, f"PLAY-8: out-of-turn play without jump-in: {where()}"
            assert move.card == prev.top_card and not prev.top_card.is_wild, f"HOUSE-2: not identical: {where()}"
            assert prev.phase in (u.Phase.PLAY, u.Phase.DRAWN, u.Phase.PENALTY), f"HOUSE-2: jump-in now: {where()}"
        kind = draw_kind(move.card)
        if kind is not None and new.hands[p]:
            # ACT-3/ACT-5, HOUSE-1: the total grows and the player after the card's player faces it.
            count = 2 if kind == "D2" else 4
            answerable = prev.profile.stacking != "off" or (
                kind == "D4" and prev.profile.wild_draw_four == "challenge"
            )
            if answerable:
                assert new.current == (p + new.direction) % n, f"HOUSE-1: wrong victim: {where()}"
                assert new.pending_draw == prev.pending_draw + count, f"HOUSE-1: wrong total: {where()}"
                assert new.phase in (u.Phase.PENALTY, u.Phase.CHALLENGE), f"HOUSE-1: no answer phase: {where()}"
            else:
                victim = (p + new.direction) % n
                grown = len(new.hands[victim]) - len(prev.hands[victim])
                # the card played covers the old top card, which can now be reshuffled too (PLAY-7)
                assert grown == min(count, avail + 1), f"ACT-3/ACT-5: victim drew {grown}: {where()}"
                assert new.current == (p + 2 * new.direction) % n, f"ACT-3/ACT-5: victim not skipped: {where()}"
        if move.uno:
            assert new.uno_exposed == -1, f"UNO-1: called UNO yet exposed: {where()}"
        if new.uno_exposed == p:
            assert len(prev.hands[p]) == 2 and len(new.hands[p]) == 1, f"UNO-1: exposed wrongly: {where()}"
        hands_move = prev.profile.seven_zero and u.CARDS[move.card].symbol in (0, 7)  # HOUSE-3
        if move.card not in _COLOR_FREE and not (hands_move and new.hands[p]):
            rest = list(prev.hands[p])
            rest.remove(move.card)
            assert new.hands[p] == tuple(rest), f"PLAY-1: hand after playing {move.card!r} is wrong: {where()}"
        assert new.top_card == move.card, f"PLAY-1: the played card is not on top: {where()}"


def _check_penalty_drawn(
    prev: u.GameState, move: u.Move, new: u.GameState, avail: int, where: Callable[[], str]
) -> None:
    """ACT-3, ACT-5, WD4-4/5, HOUSE-1: Accept draws the whole pending total and skips the victim;
    a challenge makes the guilty attacker draw it, or the innocent one's challenger draw it plus 2."""
    n = prev.num_players
    victim = prev.current
    total = prev.pending_draw
    assert new.pending_draw == 0, f"pending draw left after {move!r}: {where()}"
    ch = prev.challenge
    if isinstance(move, u.Challenge) and ch is not None and ch.bluff:
        drawer, count, after = ch.attacker, total, victim
    elif isinstance(move, u.Challenge):
        drawer, count, after = victim, total + 2, (victim + prev.direction) % n
    else:
        drawer, count, after = victim, total, (victim + prev.direction) % n
    grown = len(new.hands[drawer]) - len(prev.hands[drawer])
    assert grown == min(count, avail), f"p{drawer} drew {grown}, expected {min(count, avail)}: {where()}"
    if not new.round_over:
        assert (new.current, new.phase) == (after, u.Phase.PLAY), f"wrong turn after {move!r}: {where()}"


class GameChecker:
    """Follows one game: cheap invariants after every move, scores over rounds, the move bound.

    SCORE-2..4: the match scores always equal the sum of ``points_won`` over the finished rounds.
    PLAY-7: no round reaches ``max_moves`` moves (:data:`MAX_MOVES_PER_ROUND` by default).
    """

    def __init__(self, state: u.GameState, max_moves: int = MAX_MOVES_PER_ROUND) -> None:
        self.max_moves = max_moves
        self.deck = state.profile.deck_cards()
        self.totals = [0] * state.num_players
        self.rounds = 0
        self.moves_this_round = 0
        self.check_state(state)

    def check_state(self, state: u.GameState) -> None:
        check_hands_sorted(state)
        check_cards_conserved(state, self.deck)
        check_phase_consistency(state)
        assert state.match.scores == tuple(self.totals), (
            f"scores {state.match.scores} differ from the sum of points won {tuple(self.totals)}"
        )

    def step(self, prev: u.GameState, move: u.Move, new: u.GameState) -> None:
        check_transition(prev, move, new)
        if isinstance(move, u.NextRound):
            self.moves_this_round = 0
        else:
            self.moves_this_round += 1
            assert self.moves_this_round < self.max_moves, f"PLAY-7: round not over after {self.max_moves} moves"
        if new.round_over and not prev.round_over:
            self.rounds += 1
            last = new.match.last_round
            assert last is not None
            for i, w in enumerate(last.points_won):
                self.totals[i] += w
            check_round_result(new)
        self.check_state(new)


# --- expensive invariants -----------------------------------------------------------------------
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


_HAND_MOVERS = ("HandsSwapped", "HandsRotated", "HandsShuffled", "EffectApplied")


def check_events(state: u.GameState, move: u.Move, after: u.GameState) -> None:
    """apply_with_events gives the state apply gives, through the general (non-shortcut) path, and
    its events account for the move: a play is reported first, every event cites a rule ID, and
    (unless hands moved between players) each hand changed by the cards reported drawn minus the
    card played."""
    new, events = u.apply_with_events(state, move)
    assert new == after, f"apply_with_events({move!r}) differs from apply: {describe(state)}"
    for e in events:
        assert e.rule and set(e.rule) <= _RULE_ID_CHARS, f"event {e!r} cites no rule ID"
    if isinstance(move, u.Play):
        first = events[0]
        assert isinstance(first, u.events.CardPlayed), f"{move!r}: first event {first!r}"
        assert (first.player, first.card) == (move.player, move.card), f"{move!r} reported as {first!r}"
    if isinstance(move, u.NextRound) or any(type(e).__name__ in _HAND_MOVERS for e in events):
        return
    change = [0] * state.num_players
    for e in events:
        if isinstance(e, u.events.CardsDrawn):
            assert e.count == len(e.cards), f"{e!r}: count and cards disagree"
            change[e.player] += e.count
        elif isinstance(e, u.events.CardPlayed):
            change[e.player] -= 1
    actual = [len(after.hands[q]) - len(state.hands[q]) for q in range(state.num_players)]
    assert change == actual, f"{move!r}: events {events} account for {change}, hands changed {actual}"


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
    if not sampled.round_over:
        check_phase_consistency(sampled)
    return sampled


def check_all_expensive(state: u.GameState, rng: random.Random, plays: int = 40) -> None:
    """All expensive checks on one state, with one random viewer."""
    after = check_legal_moves_apply(state)
    check_illegal_moves_rejected(state, candidate_moves(state, rng, plays))
    check_apply_pure(state, after)
    viewer = rng.randrange(state.num_players)
    check_view_hides(state, viewer, rng)
    check_determinization(state, viewer, rng)
