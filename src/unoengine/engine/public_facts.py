"""The public facts of a moment in a game (what every player at the table sees) and the rules that
tie them together.

A state (:mod:`.consistency`) and a player's view (:mod:`.view_consistency`) are both checked
against these rules, so the two cannot disagree on what a position may look like. Every rule
returns ``(field, problem)`` pairs naming the field as a saved document does (``hands[2]``,
``match.scores``), and a problem starts with the ID of the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from .cards import (
    CARDS,
    COLOR_LETTERS,
    COLOR_OF,
    DRAW_FOUR_COUNT,
    DRAW_TWO,
    DRAW_TWO_COUNT,
    IS_WILD,
    SYMBOL_OF,
    WILD_DRAW_FOUR,
    Card,
)
from .moves import MAX_PLAYERS
from .profile import Profile
from .scoring import match_winner, round_points
from .state import Known, MatchInfo, Phase, Reveal

Problem = tuple[str, str]
"""``(field path, problem)``: what is wrong, and where a saved document holds it."""

SCORING_RULE: Final = {
    "winner-takes-others": "SCORE-2", "own-hand-lowest-wins": "SCORE-3", "one-point-per-round": "SCORE-4",
}
_MIN_PLAYERS: Final = 2
CARD_SET: Final = frozenset(CARDS)
"""Every card code (a set, to test many cards at once)."""
_COLORS_OR_NONE: Final = frozenset(range(-1, len(COLOR_LETTERS)))


class Paths(NamedTuple):
    """Where a state document and a view document keep the facts they share."""

    sizes: str
    challenge: str
    dealer: str
    scores: str
    round_number: str
    last_round: str
    winner: str
    reveal: str


STATE_PATHS: Final = Paths(
    "hands", "challenge", "match.dealer", "match.scores", "match.round_number", "match.last_round",
    "match.winner", "reveal",
)
VIEW_PATHS: Final = Paths(
    "hand_sizes", "challenge_attacker", "dealer", "scores", "round_number", "last_round", "match_winner", "revealed",
)


class PublicFacts(NamedTuple):
    """What everyone at the table sees, read from a state or from one player's view (a named
    tuple: it is built for every state checked)."""

    profile: Profile
    sizes: tuple[int, ...]
    """How many cards each player holds."""
    top: Card
    discard_size: int
    color: int
    """The colour in play (0..3), or -1 while a first wild awaits its colour."""
    direction: int
    current: int
    phase: Phase
    draw_pile_size: int
    attacker: int | None
    """Who played the Wild Draw Four awaiting a challenge decision, if any (WD4-3)."""
    pending_draw: int
    uno_exposed: int
    """The player who may be caught for a missed UNO call, or -1."""
    passes: int
    match: MatchInfo
    reveal: Reveal | None
    known: Known
    """``(viewer, owner, cards)`` entries: all of a state's, or a view's own (its player the viewer)."""
    paths: Paths

    @property
    def n(self) -> int:
        return len(self.sizes)

    @property
    def round_over(self) -> bool:
        return self.phase >= Phase.ROUND_OVER


def is_seat(value: object, n: int) -> bool:
    """A player's seat among ``n`` (an int, never a bool)."""
    return type(value) is int and 0 <= value < n


def is_count(value: object) -> bool:
    """A non-negative int (never a bool)."""
    return type(value) is int and value >= 0


def is_card(value: object) -> bool:
    return value in CARD_SET


def shape_problems(f: PublicFacts) -> list[Problem]:
    """SETUP-1, PLAY-8: the player count the profile allows, and every seat, count and code in range.

    The rules of :data:`PUBLIC_RULES` read the facts against each other, so they run only on facts
    with no shape problem."""
    out: list[Problem] = []
    n = f.n
    lo, hi = max(_MIN_PLAYERS, f.profile.min_players), min(f.profile.max_players, MAX_PLAYERS)
    if not lo <= n <= hi:
        out.append((f.paths.sizes, f"SETUP-1: {n} players; the profile is for {lo} to {hi}"))
    if min(f.sizes, default=0) < 0:
        out.append((f.paths.sizes, "a hand holds a whole number of cards"))
    m = f.match
    if len(m.scores) != n or min(m.scores, default=0) < 0:
        out.append((f.paths.scores, f"one non-negative score per player ({n})"))
    for path, seat in (("current", f.current), (f.paths.dealer, m.dealer)):
        if not is_seat(seat, n):
            out.append((path, f"PLAY-8: {seat!r} is not a player's seat (0 to {n - 1})"))
    if f.direction not in (1, -1) or type(f.direction) is not int:
        out.append(("direction", f"PLAY-8: 1 (clockwise) or -1, not {f.direction!r}"))
    if not isinstance(f.phase, Phase):
        out.append(("phase", f"{f.phase!r} is not a phase"))
    if not is_card(f.top) or not (is_count(f.discard_size) and f.discard_size >= 1):
        out.append(("discard_pile", "SETUP-3: the discard pile holds at least its top card"))
    if f.color not in _COLORS_OR_NONE:
        out.append(("color", f"a colour 0..3 or -1, not {f.color!r}"))
    if f.attacker is not None and not is_seat(f.attacker, n):
        out.append((f.paths.challenge, f"WD4-3: the attacker {f.attacker!r} is not a player"))
    if f.uno_exposed != -1 and not is_seat(f.uno_exposed, n):
        out.append(("uno_exposed", f"UNO-2: {f.uno_exposed!r} is not a player"))
    for path, count in (("passes", f.passes), ("pending_draw", f.pending_draw), ("draw_pile_size", f.draw_pile_size)):
        if not is_count(count):
            out.append((path, f"a non-negative integer, not {count!r}"))
    if not (is_count(m.round_number) and m.round_number >= 1):
        out.append((f.paths.round_number, f"rounds are numbered from 1, not {m.round_number!r}"))
    if m.winner is not None and not is_seat(m.winner, n):
        out.append((f.paths.winner, f"{m.winner!r} is not a player"))
    _result_shape(f, out)
    _entries_shape(f, out)
    return out


def _result_shape(f: PublicFacts, out: list[Problem]) -> None:
    last = f.match.last_round
    if last is None:
        return
    n = f.n
    if not is_seat(last.winner, n):
        out.append((f"{f.paths.last_round}.winner", f"END-1: {last.winner!r} is not a player"))
    if not isinstance(last.blocked, bool):
        out.append((f"{f.paths.last_round}.blocked", f"PLAY-7: true or false, not {last.blocked!r}"))
    for name, values in (("hand_points", last.hand_points), ("points_won", last.points_won)):
        if len(values) != n or min(values, default=0) < 0:
            out.append((f"{f.paths.last_round}.{name}", f"one non-negative integer per player ({n})"))


def _entries_shape(f: PublicFacts, out: list[Problem]) -> None:
    """Known cards and a shown hand name players and cards that exist."""
    n, seats = f.n, range(f.n)
    for i, (viewer, owner, cards) in enumerate(f.known):
        if viewer not in seats or owner not in seats or not CARD_SET.issuperset(cards):
            out.append((f"known[{i}]", "names a player who is not at the table, or a card that does not exist"))
    r = f.reveal
    if r is not None and not (is_seat(r.viewer, n) and is_seat(r.owner, n) and CARD_SET.issuperset(r.cards)):
        out.append((f.paths.reveal, "names a player who is not at the table, or a card that does not exist"))


# --- the rules ------------------------------------------------------------------------------
def _color(f: PublicFacts, out: list[Problem]) -> None:
    """SETUP-8: no colour only while a first wild awaits one; PLAY-1: a coloured top card fixes it."""
    if f.phase is Phase.CHOOSE_COLOR:
        if f.color != -1:
            out.append(("color", "SETUP-8: no colour is in play while the first card's colour is still to be named"))
    elif f.color == -1:
        out.append(("color", f"SETUP-8: a colour is in play in phase {f.phase.name}; none only in CHOOSE_COLOR"))
    elif not IS_WILD[f.top] and f.color != COLOR_OF[f.top]:
        out.append(("color", f"PLAY-1: the top card {f.top!r} fixes the colour in play, not {COLOR_LETTERS[f.color]}"))


def _first_card(f: PublicFacts, out: list[Problem]) -> None:
    """SETUP-1, SETUP-4, SETUP-8..10, HOUSE-7: a first wild awaits its colour from the player to the
    dealer's left (RULING: from the dealer, for a Wild Draw Four that applies), before anything else
    has happened: every hand as dealt, play clockwise, nothing known or shown."""
    if f.phase is not Phase.CHOOSE_COLOR:
        return
    top = f.top
    if not IS_WILD[top]:
        out.append(("discard_pile", f"SETUP-8: a colour is named only for a wild first card, not {top!r}"))
    if f.discard_size != 1:
        out.append(("discard_pile", "SETUP-8: a colour is named only for the first card, so the pile holds one card"))
    dealer, n = f.match.dealer, f.n
    if top == WILD_DRAW_FOUR and f.profile.first_card_wild_draw_four == "apply":
        if f.current != dealer:
            out.append(("current", f"HOUSE-7: the dealer p{dealer} names the colour of a first Wild Draw Four "
                        f"that applies, not p{f.current}"))
    elif f.current != (dealer + 1) % n:
        out.append(("current", f"SETUP-8/SETUP-10: the player to the dealer's left, p{(dealer + 1) % n}, names the "
                    f"first colour, not p{f.current}"))
    for p, size in enumerate(f.sizes):
        if size != f.profile.hand_size:
            out.append((f"{f.paths.sizes}[{p}]", f"SETUP-1: holds {size} cards before the first colour is named, "
                        f"not the {f.profile.hand_size} dealt"))
    if f.direction != 1:
        out.append(("direction", "SETUP-4: play starts clockwise"))
    if f.known:
        out.append(("known", "SETUP-8: nothing is known of another hand before the first card is played"))
    if f.reveal is not None:
        out.append((f.paths.reveal, "SETUP-8: no hand has been shown before the first card is played"))


def _challenge(f: PublicFacts, out: list[Problem]) -> None:
    """WD4-3, WD4-6: a challenge is pending exactly in phase CHALLENGE, on a Wild Draw Four under a
    profile with challenges, and the player after its attacker decides."""
    if f.phase is not Phase.CHALLENGE:
        if f.attacker is not None:
            out.append((f.paths.challenge, f"WD4-3: pending only in phase CHALLENGE, not {f.phase.name}"))
        return
    if f.attacker is None:
        out.append((f.paths.challenge, "WD4-3: required in phase CHALLENGE: who played the Wild Draw Four"))
    elif f.current != (f.attacker + f.direction) % f.n:
        out.append(("current", f"WD4-3: the player after the attacker p{f.attacker} in the direction of play "
                    f"decides on the challenge, not p{f.current}"))
    if f.top != WILD_DRAW_FOUR:
        out.append(("discard_pile", f"WD4-3: only a Wild Draw Four on top can be challenged, not {f.top!r}"))
    if f.profile.wild_draw_four != "challenge":
        out.append((f.paths.challenge, f"WD4-6: the profile's wild_draw_four mode {f.profile.wild_draw_four!r} "
                    "has no challenges"))


def _pending_draw(f: PublicFacts, out: list[Problem]) -> None:
    """ACT-5, HOUSE-1: cards are pending only while a Draw card is answered (PENALTY, under stacking)
    or a Wild Draw Four awaits its challenge decision (CHALLENGE)."""
    total, phase = f.pending_draw, f.phase
    if phase is Phase.CHALLENGE:
        if total < DRAW_FOUR_COUNT or total % 2:
            out.append(("pending_draw", f"WD4-3: in phase CHALLENGE an even total of at least {DRAW_FOUR_COUNT}, "
                        f"not {total}"))
        elif f.profile.stacking == "off" and total != DRAW_FOUR_COUNT:
            out.append(("pending_draw", f"ACT-5: without stacking (HOUSE-1) a Wild Draw Four makes {DRAW_FOUR_COUNT}, "
                        f"not {total}"))
    elif phase is Phase.PENALTY:
        _penalty(f, out)
    elif total:
        out.append(("pending_draw", f"HOUSE-1: 0 outside phases PENALTY and CHALLENGE, not {total}"))


def _penalty(f: PublicFacts, out: list[Problem]) -> None:
    """HOUSE-1: a PENALTY needs stacking and a Draw card on top, and an even total it can have made."""
    if f.profile.stacking == "off":
        out.append(("phase", "HOUSE-1: phase PENALTY needs a profile with stacking"))
    top = f.top
    if top != WILD_DRAW_FOUR and (IS_WILD[top] or SYMBOL_OF[top] != DRAW_TWO):
        out.append(("discard_pile", f"HOUSE-1: phase PENALTY needs a Draw Two or Wild Draw Four on top, not {top!r}"))
        return
    least = DRAW_FOUR_COUNT if top == WILD_DRAW_FOUR else DRAW_TWO_COUNT
    if f.pending_draw < least or f.pending_draw % 2:
        out.append(("pending_draw", f"HOUSE-1: an even total of at least {least} is pending on {top!r}, "
                    f"not {f.pending_draw}"))
    if top == WILD_DRAW_FOUR and f.profile.wild_draw_four == "challenge":
        out.append(("phase", "WD4-3: a Wild Draw Four in challenge mode is answered in phase CHALLENGE, not PENALTY"))


def _uno_exposed(f: PublicFacts, out: list[Problem]) -> None:
    """UNO-1, UNO-2, UNO-5: only the player who just played a next-to-last card, holding one card,
    can be caught: not once the round is over, not after a draw began the turn, not before any play."""
    exposed = f.uno_exposed
    if exposed == -1:
        return
    if f.round_over:
        out.append(("uno_exposed", "UNO-2: nobody can be caught once the round is over"))
    elif f.phase is Phase.DRAWN:
        out.append(("uno_exposed", "UNO-5: drawing began the turn, so nobody can be caught in phase DRAWN"))
    elif f.phase is Phase.CHOOSE_COLOR:
        out.append(("uno_exposed", "UNO-3: nobody can be caught before the first card is played"))
    elif f.sizes[exposed] != 1:
        out.append(("uno_exposed", f"UNO-2: p{exposed} holds {f.sizes[exposed]} cards; only one card can be caught"))
    elif f.phase is Phase.CHALLENGE and exposed != f.attacker:
        out.append(("uno_exposed", f"UNO-1: only the attacker p{f.attacker}, who just played, can owe a call "
                    "while the challenge is pending"))


def _hands_in_play(f: PublicFacts, out: list[Problem]) -> None:
    """END-1: an empty hand ends the round, except the attacker's while a last Wild Draw Four is challenged."""
    if f.round_over:
        return
    for p, size in enumerate(f.sizes):
        if not size and not (f.phase is Phase.CHALLENGE and p == f.attacker):
            out.append((f"{f.paths.sizes}[{p}]", f"END-1: an empty hand has won, so the round cannot be in phase "
                        f"{f.phase.name}"))


def _passes(f: PublicFacts, out: list[Problem]) -> None:
    """PLAY-7: a player passes in an ordinary turn only when nothing can be drawn; n passes in a row
    end the round blocked, and a round won by going out ends on a card."""
    n, passes = f.n, f.passes
    if f.round_over:
        last = f.match.last_round
        if last is not None and passes != (n if last.blocked else 0):
            want = f"the {n} passes that blocked it" if last.blocked else "no passes (it ended on a card)"
            out.append(("passes", f"PLAY-7: the round is over with {want}, not {passes}"))
        return
    if passes >= n:
        out.append(("passes", f"PLAY-7: {n} passes in a row end the round, so at most {n - 1} while it runs"))
    elif passes and f.phase is not Phase.PLAY:
        out.append(("passes", f"PLAY-7: passes are counted between ordinary turns, not in phase {f.phase.name}"))
    elif passes and (f.draw_pile_size or f.discard_size > 1):
        out.append(("passes", "PLAY-7: a player passes only when nothing can be drawn, and the piles still hold "
                    "cards to draw"))


def _round_end(f: PublicFacts, out: list[Problem]) -> None:
    """END-1, SCORE-2..4: a finished round has a result, its winner to act (and, unless it was
    blocked, holding no cards); the match is over exactly when someone has won it."""
    m, p = f.match, f.paths
    if not f.round_over:
        return
    last = m.last_round
    if last is None:
        out.append((p.last_round, f"END-1: required in phase {f.phase.name}: how the round ended"))
        return
    w = last.winner
    if f.current != w:
        out.append(("current", f"END-1: once the round is over its winner p{w} is the player to act, not p{f.current}"))
    if not last.blocked and f.sizes[w]:
        out.append((f"{p.sizes}[{w}]", f"END-1: p{w} won the round by going out, so holds no cards, not {f.sizes[w]}"))
    rule = SCORING_RULE[f.profile.scoring]
    champion = match_winner(f.profile, m.scores)
    if f.phase is Phase.MATCH_OVER:
        if m.winner is None:
            out.append((p.winner, f"{rule}: required in phase MATCH_OVER"))
        elif champion is None:
            out.append((p.winner, f"{rule}: nobody has won the match with scores {list(m.scores)} "
                        f"(target {f.profile.target_score})"))
        elif m.winner != champion:
            out.append((p.winner, f"{rule}: p{champion} has won the match, not p{m.winner}"))
    elif m.winner is not None:
        out.append((p.winner, f"{rule}: null until the match is over, not in phase {f.phase.name}"))
    elif champion is not None:
        out.append((p.scores, f"{rule}: p{champion} has won the match (target {f.profile.target_score}), "
                    "so its phase is MATCH_OVER"))


def _round_running(f: PublicFacts, out: list[Problem]) -> None:
    """SETUP-11, SCORE-2..4: while a round runs nobody has won the match yet, and the result kept
    is the previous round's (none in the first round)."""
    if f.round_over:
        return
    m, p = f.match, f.paths
    rule = SCORING_RULE[f.profile.scoring]
    if m.winner is not None:
        out.append((p.winner, f"{rule}: null until the match is over, not in phase {f.phase.name}"))
    champion = match_winner(f.profile, m.scores)
    if champion is not None:
        out.append((p.scores, f"{rule}: p{champion} has already won the match with {m.scores[champion]} points "
                    f"(target {f.profile.target_score}), so no round is played"))
    if m.round_number == 1 and m.last_round is not None:
        out.append((p.last_round, "SETUP-11: the first round of a match follows no other round"))
    elif m.round_number > 1 and m.last_round is None:
        out.append((p.last_round, f"SETUP-11: round {m.round_number} follows a finished round, whose result is kept"))


def _result_record(f: PublicFacts, out: list[Problem]) -> None:
    """SCORE-1..4, PLAY-7: a round result agrees with itself: the points won follow from the hands'
    points under the scoring mode, the match scores hold them, a blocked round went to the lowest
    hand and one won by going out left the winner no points; the scores before it had no winner."""
    m, p = f.match, f.paths
    last = m.last_round
    if last is None:
        return
    w = last.winner
    rule = SCORING_RULE[f.profile.scoring]
    if last.blocked and last.hand_points[w] != min(last.hand_points):
        out.append((f"{p.last_round}.winner", f"PLAY-7: the lowest hand in points wins a blocked round, "
                    f"not p{w} with {last.hand_points[w]}"))
    if not last.blocked and last.hand_points[w]:
        out.append((f"{p.last_round}.hand_points", f"END-1: p{w} went out, so holds no points"))
    expected = round_points(f.profile, w, last.hand_points)
    if last.points_won != expected:
        out.append((f"{p.last_round}.points_won", f"{rule}: the round's hand points give {list(expected)}"))
        return
    if any(s < won for s, won in zip(m.scores, last.points_won, strict=True)):
        out.append((p.scores, f"{rule}: the match scores include the points the last round won"))
    elif f.round_over:
        before = tuple(s - won for s, won in zip(m.scores, last.points_won, strict=True))
        if match_winner(f.profile, before) is not None:
            out.append((p.scores, f"{rule}: the match was won before this round ({list(before)})"))


def _known(f: PublicFacts, out: list[Problem]) -> None:
    """ACT-7, HOUSE-3, WD4-3 (knowledge.py): one entry per viewer and owner, in order, each holding
    at least one card of another player, sorted, no more than that player holds."""
    sizes = f.sizes
    previous = (-1, -1)
    for i, (viewer, owner, cards) in enumerate(f.known):
        pair = (viewer, owner)
        if pair <= previous or viewer == owner or not cards or len(cards) > sizes[owner] or (
                list(cards) != sorted(cards)):
            _known_entry(f, i, pair <= previous, out)
        previous = max(previous, pair)


def _known_entry(f: PublicFacts, i: int, out_of_order: bool, out: list[Problem]) -> None:
    """What is wrong with the known entry ``i``."""
    viewer, owner, cards = f.known[i]
    path = f"known[{i}]"
    if viewer == owner:
        out.append((path, "a player's knowledge of their own hand is not kept"))
    if out_of_order and (viewer, owner) in {(v, o) for v, o, _ in f.known[:i]}:
        out.append((path, f"p{viewer}'s knowledge of p{owner}'s hand is one entry, not several"))
    elif out_of_order:
        out.append((path, "entries are kept in order of viewer, then owner"))
    if not cards:
        out.append((f"{path}.cards", "an entry knows at least one card"))
    elif list(cards) != sorted(cards):
        out.append((f"{path}.cards", "known cards are kept sorted"))
    if len(cards) > f.sizes[owner]:
        out.append((f"{path}.cards", f"{len(cards)} cards known in the hand of p{owner}, who holds {f.sizes[owner]}"))


def _reveal(f: PublicFacts, out: list[Problem]) -> None:
    """WD4-3: a challenge shows the attacker's hand to the challenger, another player."""
    r = f.reveal
    if r is not None and r.viewer == r.owner:
        out.append((f.paths.reveal, "WD4-3: a hand is shown to another player"))


PUBLIC_RULES: Final[tuple[Callable[[PublicFacts, list[Problem]], None], ...]] = (
    _color, _first_card, _challenge, _pending_draw, _uno_exposed, _hands_in_play, _passes,
    _round_end, _round_running, _result_record, _known, _reveal,
)
ROUND_RULES: Final[tuple[Callable[[PublicFacts, list[Problem]], None], ...]] = (_passes, _round_end, _result_record)
"""The rules of how a round ended and what it scored."""
