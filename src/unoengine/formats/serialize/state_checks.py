"""The rules that tie a state document's fields together (conservation of the cards, the colour, the
drawn card, a challenge, a pending draw, a penalty, UNO exposure, passes, hands in play, the end of
a round, known cards), and the state built from fields that passed them.

Each field is read on its own by :mod:`.documents`; the checks here then test the rules that tie
fields together, and only a state that passes them all is built. They work on the fields as read,
so they name every problem even when other fields could not be read; the state built is then held
to the engine's own state rules (engine/consistency.py), which these only ever repeat with a
field-level message, never loosen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

import attrs

from ...engine.cards import (
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
from ...engine.dealing import count_text
from ...engine.profile import Profile
from ...engine.state import GameState, MatchInfo, PendingChallenge, Phase, Reveal, discard_from
from .reader import Reader

_PLAY_PHASES: Final = (Phase.PLAY, Phase.DRAWN, Phase.CHALLENGE, Phase.CHOOSE_COLOR, Phase.PENALTY)


@attrs.define
class StateParts:
    """A state document's fields as read; None where a field could not be read (or, for a
    nullable one, was null: :meth:`Reader.clean` tells which). Colour and seats use -1 for null,
    as the state does."""

    profile: Profile | None = None
    n: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    draw_pile: tuple[Card, ...] | None = None
    discard: tuple[Card, ...] | None = None
    color: int | None = None
    direction: int | None = None
    current: int | None = None
    phase: Phase | None = None
    drawn: Card | None = None
    challenge: PendingChallenge | None = None
    uno_exposed: int | None = None
    passes: int | None = None
    pending_draw: int | None = None
    rng: int | None = None
    match: MatchInfo | None = None
    reveal: Reveal | None = None
    known: tuple[tuple[int, int, tuple[Card, ...]], ...] | None = None

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None


def _hand_of(s: StateParts, seat: int | None) -> tuple[Card, ...] | None:
    """The hand at ``seat``; None when the hands or the seat could not be read (a seat is checked against
    the number of players only when that number is usable, so it may lie beyond the hands)."""
    if s.hands is None or seat is None or not 0 <= seat < len(s.hands):
        return None
    return s.hands[seat]


def _check_conservation(r: Reader, s: StateParts) -> None:
    """DECK-5: the hands and both piles hold exactly the profile's cards in play."""
    if s.profile is None or s.hands is None or s.draw_pile is None or s.discard is None:
        return
    have = Counter(c for hand in s.hands for c in hand)
    have.update(s.draw_pile)
    have.update(s.discard)
    want = Counter(CARDS[c] for c in s.profile.deck_cards())
    if have != want:
        r.add("cards", f"DECK-5: the hands, draw_pile and discard_pile must hold exactly the {s.profile.deck_size} "
              f"cards in play; missing {count_text(want - have)}, extra {count_text(have - want)}")


def _check_color(r: Reader, s: StateParts) -> None:
    """SETUP-8: no colour only while a wild first card awaits one; PLAY-1: a coloured top card fixes it."""
    top = s.top
    if top is None or s.phase is None or s.color is None or not r.clean("color"):
        return
    if s.phase is Phase.CHOOSE_COLOR:
        if s.color != -1:
            r.add("color", "must be null while the first card's colour is still to be named (SETUP-8)")
        if not IS_WILD[top]:
            r.add("discard_pile", f"SETUP-8: a colour is named only for a wild first card, not {top!r}")
        if len(s.discard or ()) != 1:
            r.add("discard_pile", "SETUP-8: a colour is named only for the first card, so the pile holds one card")
    elif s.color == -1:
        r.add("color", f"null only in phase CHOOSE_COLOR (SETUP-8), not {s.phase.name}")
    elif not IS_WILD[top] and s.color != COLOR_OF[top]:
        r.add("color", f"PLAY-1: the top card {top!r} fixes the colour in play, not {COLOR_LETTERS[s.color]}")


def _check_drawn(r: Reader, s: StateParts) -> None:
    """PLAY-5: in DRAWN phase the drawn card is known and in the drawer's hand; no drawn card otherwise."""
    if s.phase is None or not r.clean("drawn"):
        return
    if s.phase is not Phase.DRAWN:
        if s.drawn is not None:
            r.add("drawn", "must be null outside phase DRAWN")
    elif s.drawn is None:
        r.add("drawn", "required in phase DRAWN: the card just drawn (PLAY-5)")
    elif (hand := _hand_of(s, s.current)) is not None and s.drawn not in hand:
        r.add("drawn", f"PLAY-5: {s.drawn!r} is not in the hand of the player to act (p{s.current})")


def _check_challenge(r: Reader, s: StateParts) -> None:
    """WD4-3: a pending challenge exactly in CHALLENGE phase, against the player after its attacker,
    who is to act, on a Wild Draw Four, under a profile with challenges."""
    if s.phase is None or not r.clean("challenge"):
        return
    ch = s.challenge
    if s.phase is not Phase.CHALLENGE:
        if ch is not None:
            r.add("challenge", "must be null outside phase CHALLENGE")
        return
    if ch is None:
        r.add("challenge", "required in phase CHALLENGE: who played the Wild Draw Four on whom (WD4-3)")
        return
    if s.n is not None and s.direction is not None and ch.victim != (ch.attacker + s.direction) % s.n:
        r.add("challenge.victim", "WD4-3: the victim is the player after the attacker in the direction of play")
    if s.current is not None and ch.victim != s.current:
        r.add("challenge.victim", f"WD4-3: the victim is the player to act (p{s.current})")
    if s.top is not None and s.top != WILD_DRAW_FOUR:
        r.add("discard_pile", f"WD4-3: only a Wild Draw Four on top can be challenged, not {s.top!r}")
    if s.profile is not None and s.profile.wild_draw_four != "challenge":
        r.add("challenge", f"WD4-6: the profile's wild_draw_four mode {s.profile.wild_draw_four!r} has no challenges")
    if ch.bluff != any(COLOR_OF[c] == ch.color for c in ch.hand):
        r.add("challenge.bluff", "WD4-2: a bluff is exactly a hand holding the colour that was in play")


def _check_pending_draw(r: Reader, s: StateParts) -> None:
    """HOUSE-1, ACT-5: cards are pending only in PENALTY (a stack under stacking) and CHALLENGE phases."""
    total, phase = s.pending_draw, s.phase
    if total is None or phase is None:
        return
    if phase is Phase.CHALLENGE:
        if total < DRAW_FOUR_COUNT or total % 2:
            r.add("pending_draw", f"WD4-3: in phase CHALLENGE an even total of at least {DRAW_FOUR_COUNT}, got {total}")
        elif s.profile is not None and s.profile.stacking == "off" and total != DRAW_FOUR_COUNT:
            r.add("pending_draw", f"ACT-5: without stacking (HOUSE-1) a Wild Draw Four makes {DRAW_FOUR_COUNT}")
    elif phase is Phase.PENALTY:
        _check_penalty(r, s, total)
    elif total:
        r.add("pending_draw", f"HOUSE-1: must be 0 outside phases PENALTY and CHALLENGE, got {total}")


def _check_penalty(r: Reader, s: StateParts, total: int) -> None:
    """HOUSE-1: a PENALTY needs stacking and a Draw card on top, and an even total it can have made."""
    if s.profile is not None and s.profile.stacking == "off":
        r.add("phase", "HOUSE-1: phase PENALTY needs a profile with stacking")
    top = s.top
    if top is None:
        return
    if top != WILD_DRAW_FOUR and (IS_WILD[top] or SYMBOL_OF[top] != DRAW_TWO):
        r.add("discard_pile", f"HOUSE-1: phase PENALTY needs a Draw Two or Wild Draw Four on top, not {top!r}")
        return
    least = DRAW_FOUR_COUNT if top == WILD_DRAW_FOUR else DRAW_TWO_COUNT
    if total < least or total % 2:
        r.add("pending_draw", f"HOUSE-1: an even total of at least {least} is pending on {top!r}, got {total}")
    if top == WILD_DRAW_FOUR and s.profile is not None and s.profile.wild_draw_four == "challenge":
        r.add("phase", "WD4-3: a Wild Draw Four in challenge mode is answered in phase CHALLENGE, not PENALTY")


def _check_uno_exposed(r: Reader, s: StateParts) -> None:
    """UNO-2: only a player holding exactly one card can be caught, and only while the round runs."""
    exposed = s.uno_exposed
    if exposed is None or exposed < 0:
        return
    if s.phase is not None and s.phase not in _PLAY_PHASES:
        r.add("uno_exposed", "UNO-2: must be null once the round is over")
    elif (hand := _hand_of(s, exposed)) is not None and len(hand) != 1:
        r.add("uno_exposed", f"UNO-2: p{exposed} holds {len(hand)} cards; only one card can be caught")


def _check_passes(r: Reader, s: StateParts) -> None:
    """PLAY-7: n consecutive passes end the round blocked, so fewer are counted while it runs."""
    if s.passes is None or s.n is None or s.phase is None:
        return
    limit = s.n - 1 if s.phase in _PLAY_PHASES else s.n
    if s.passes > limit:
        r.add("passes", f"PLAY-7: at most {limit} consecutive passes among {s.n} players in phase {s.phase.name}")


def _check_hands_in_play(r: Reader, s: StateParts) -> None:
    """END-1: an empty hand ends the round, except the attacker's while a last Wild Draw Four is challenged."""
    if s.hands is None or s.phase is None or s.phase not in _PLAY_PHASES:
        return
    attacker = s.challenge.attacker if s.challenge is not None else -1
    for p, hand in enumerate(s.hands):
        if not hand and p != attacker:
            r.add(f"hands[{p}]", f"END-1: an empty hand has won, so the round cannot be in phase {s.phase.name}")


def _check_round_end(r: Reader, s: StateParts) -> None:
    """END-1, SCORE-2..4: a finished round has a result; a match winner exactly once the match is over."""
    m, phase = s.match, s.phase
    if m is None or phase is None:
        return
    if phase not in _PLAY_PHASES and m.last_round is None:
        r.add("match.last_round", f"required in phase {phase.name}: how the round ended (END-1)")
    if phase is Phase.MATCH_OVER and m.winner is None:
        r.add("match.winner", "required in phase MATCH_OVER (SCORE-2..4)")
    elif phase is not Phase.MATCH_OVER and m.winner is not None:
        r.add("match.winner", f"must be null until the match is over, not in phase {phase.name}")


def _check_known(r: Reader, s: StateParts) -> None:
    """What a player knows of a hand must be in it (knowledge.py keeps a lower bound), of another player."""
    if not s.known or s.hands is None:
        return
    for i, (viewer, owner, cards) in enumerate(s.known):
        if viewer == owner:
            r.add(f"known[{i}]", "a player's knowledge of their own hand is not kept")
        elif owner < len(s.hands) and Counter(cards) - Counter(s.hands[owner]):
            r.add(f"known[{i}].cards", f"not all in the hand of player {owner}")


STATE_CHECKS: Final[tuple[Callable[[Reader, StateParts], None], ...]] = (
    _check_known,
    _check_conservation,
    _check_color,
    _check_drawn,
    _check_challenge,
    _check_pending_draw,
    _check_uno_exposed,
    _check_passes,
    _check_hands_in_play,
    _check_round_end,
)


def build_state(s: StateParts) -> GameState:
    """The state of a document that passed every check: the draw pile starts at its next card."""
    assert s.profile is not None and s.hands is not None and s.draw_pile is not None and s.discard is not None
    assert s.color is not None and s.direction is not None and s.current is not None and s.phase is not None
    assert s.uno_exposed is not None and s.passes is not None and s.rng is not None and s.match is not None
    assert s.pending_draw is not None
    return GameState(
        s.profile, s.hands, s.draw_pile, 0, discard_from(s.discard), s.color, s.direction, s.current, s.phase,
        s.drawn, s.challenge, s.uno_exposed, s.passes, s.rng, s.match, s.reveal, s.pending_draw, s.known or (),
    )
