"""The cheap checks, run after every move: that one state's bookkeeping holds (hands sorted, cards
conserved, the phase consistent, the legal moves those of :mod:`.expected`, a finished round's
result), that one transition did what its move says, and :class:`GameChecker`, which runs them
over a game with the scores and the move bound."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import attrs

import unoengine as u

from ...engine.consistency import card_problems, hand_problems, phase_problems, result_problems
from .common import describe
from .expected import draw_kind, expected_jump_ins, expected_turn_moves, next_dealer

MAX_MOVES_PER_ROUND = 100_000
"""PLAY-7: every round must end; no round played by a card-preferring policy takes this many moves.
Random rounds with ten players, Shuffle Hands and an "everyone else draws" custom card can run to
a few tens of thousands of moves (every Shuffle Hands evens the hands out again), so the bound
is set well above that while still catching any loop."""
MAX_MOVES_PER_ROUND_UNIFORM = 200_000
"""The bound for uniformly random play. Its round lengths are heavy-tailed (measured with gdj85,
10 players, 200 seeds: mean ~4,100 moves, 95th percentile ~11,700, maximum ~23,000; one fuzz
round takes 33,485), so 20,000 would flag ordinary long games; 200,000 still catches any loop."""


def deck_multiset(profile: u.Profile) -> Counter[u.Card]:
    """The profile's play deck as a multiset of cards (DECK-1..5)."""
    return Counter(u.CARDS[c] for c in profile.deck_cards())


def _assert_none(problems: list[tuple[str, str]], what: str, state: u.GameState) -> None:
    """Fail with every problem the engine's state rules found, if any."""
    if problems:
        listed = "; ".join(f"{field}: {problem}" for field, problem in problems)
        raise AssertionError(f"{what}: {listed}: {describe(state)}")


def check_hands_sorted(state: u.GameState) -> None:
    """Hands are a tuple of sorted tuples of cards, one per player (SETUP-1)."""
    _assert_none(hand_problems(state), "hands", state)


def check_cards_conserved(state: u.GameState, deck: Sequence[int] | None = None) -> None:
    """DECK-5, PLAY-7: hands + remaining draw pile + discard pile are exactly the profile's play deck.

    ``deck`` may pass the sorted ``profile.deck_cards()`` to save recomputing it.
    """
    _assert_none(card_problems(state, deck), "cards not conserved", state)


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


def check_phase_consistency(state: u.GameState) -> None:
    """Phase bookkeeping agrees with the rest of the state, and the move generator with the rules.

    The state rules are the engine's own (``unoengine.engine.consistency``, which ``loads`` and
    ``from_position`` apply too): SETUP-1/4/8..10 and HOUSE-7 (CHOOSE_COLOR only on a first wild,
    named by the right player), PLAY-1 (the colour), PLAY-5 (the drawn card), WD4-2/3 (a pending
    challenge, its victim, hand and bluff), ACT-5/HOUSE-1 (pending draws), UNO-1/2/5 (an exposed
    player holds one card), PLAY-7 (passes), END-1/SCORE-1..4 (the round result, the match
    winner), and what players know. Then, from this kit's model: PLAY-1..7 (PLAY/DRAWN/CHALLENGE/
    PENALTY: the in-turn moves are exactly :func:`expected_turn_moves`), END-1 (ROUND_OVER: only
    NextRound; MATCH_OVER: nothing), PLAY-7 (the player to act always has a move while the round runs).
    """
    _assert_none(phase_problems(state), "inconsistent state", state)
    phase = state.phase
    if phase in (u.Phase.PLAY, u.Phase.DRAWN, u.Phase.CHALLENGE, u.Phase.PENALTY):
        check_turn_moves(state)
    if phase is u.Phase.ROUND_OVER:
        legal = u.legal_moves(state)
        assert legal == [u.NextRound(next_dealer(state))], (
            f"ROUND_OVER: legal moves {legal}, expected only NextRound(p{next_dealer(state)})"
        )
    elif phase is u.Phase.MATCH_OVER:
        legal = u.legal_moves(state)
        assert legal == [], f"MATCH_OVER: legal moves {legal}, expected none"
    else:
        assert u.legal_moves(state, state.current), (
            f"PLAY-7: p{state.current} to act has no legal move: {describe(state)}"
        )


def check_round_result(state: u.GameState) -> None:
    """END-1, PLAY-7, SCORE-1..4: the result of a finished round agrees with the hands and the mode
    (the engine's rules), and the engine's hand points with the profile's points table."""
    last = state.match.last_round
    assert last is not None and state.round_over, f"no finished round: {describe(state)}"
    _assert_none(result_problems(state), "round result", state)
    prof = state.profile
    pts = tuple(u.hand_points(prof, h) for h in state.hands)
    own = tuple(sum(prof.points[c] for c in h) for h in state.hands)
    assert pts == own, f"SCORE-1: hand_points {pts} disagree with the points table {own}"


_COLOR_FREE = (u.WILD_SHUFFLE_HANDS, u.WILD_SWAP_HANDS, u.WILD_CUSTOMIZABLE, u.BLANK)
"""Cards whose effect may change the player's own hand beyond removing the card played."""


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
    if isinstance(move, u.Accept):  # UNO-7 ruling: taking a penalty begins no turn; the window stays
        kept = prev.uno_exposed if new.phase < u.Phase.ROUND_OVER else -1
        assert new.uno_exposed == kept, f"UNO-7: Accept changed the window ({new.uno_exposed}): {where()}"
    else:  # an in-turn move begins the turn: any earlier UNO window is closed (UNO-5, UNO-7)
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
