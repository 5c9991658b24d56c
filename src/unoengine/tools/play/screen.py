"""What the person is shown of the game: the opening lines, the table before they decide, and a round's result.

Only printing, no input and no game logic: each function reads a state or the person's view and
writes lines through the :class:`~.terminal.Terminal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.errors import printable
from ...engine.scoring import hand_points
from ...engine.state import GameState, Phase
from ...engine.view import PlayerView
from ...formats.record import GameRecord
from .terminal import Terminal


def show_opening(term: Terminal, record: GameRecord, state: GameState, bots: Sequence[tuple[int, str]],
                 moves: int, resumed: bool) -> None:
    """Which game this is, who sits where (``bots``: seat and bot name) and how far it has gone."""
    verb = "resumed" if resumed else "new game"
    term.say(f"unoengine play ({verb}): {printable(record.profile.name)}, {state.num_players} players, "
             f"seed {record.seed}")  # a name read from a file: escaped
    seats = ", ".join(f"p{q} {printable(name)}" for q, name in bots)
    term.say(f"you are p{term.seat}; {seats}")
    if moves:
        term.say(f"{moves} moves made so far")
    else:
        term.say(f"round 1: p{state.dealer} deals; the first card is {term.card(state.discard_pile[0])}")
    term.say("type help for how to play")


def show_table(term: Terminal, v: PlayerView, my_turn: bool) -> None:
    """The table as the person sees it."""
    n = v.num_players
    title = "your turn" if my_turn else f"p{v.current}'s turn: you may act out of turn"
    term.say(f"\n--- round {v.round_number}, {title} ---")
    top = term.card(v.top_card)
    colour = term.color_name(v.color) if v.color is not None else "not named yet"
    way = "clockwise" if v.direction > 0 else "counter-clockwise"
    order = " -> ".join(f"p{(v.current + v.direction * k) % n}" for k in range(n))
    term.say(f"top card {top}, colour {colour}; {way}: {order}; draw pile {v.draw_pile_size}")
    for p, size in enumerate(v.hand_sizes):
        name = f"p{p}" + (" (you)" if p == term.seat else "")
        marks = []
        if p == v.current:
            marks.append("<- to act")
        if p == v.uno_exposed:
            marks.append("did not call UNO: may be caught")
        cards = f"{size} card" + ("" if size == 1 else "s")
        term.say(f"  {name:9} {cards:9} {'  '.join(marks)}".rstrip())
    if any(v.scores):
        term.say("scores: " + ", ".join(f"p{p} {s}" for p, s in enumerate(v.scores)))
    term.say("your hand: " + " ".join(term.card(c) for c in v.hand))
    for line in situation(term, v, my_turn):
        term.say(line)
    term.say("moves:")


def situation(term: Terminal, v: PlayerView, my_turn: bool) -> list[str]:
    """What the person must decide on their turn, beyond the move list."""
    out: list[str] = []
    if not my_turn:
        return out
    if v.phase is Phase.DRAWN and v.drawn_card is not None:
        out.append(f"you drew {term.card(v.drawn_card)}: play it or keep it")
    elif v.phase is Phase.CHALLENGE:
        out.append(f"p{v.challenge_attacker} played {term.card(v.top_card)} on you: challenge it or accept "
                   f"{v.pending_draw} cards")
    elif v.phase is Phase.PENALTY:
        out.append(f"you face {v.pending_draw} cards: stack a Draw card or accept them")
    elif v.phase is Phase.CHOOSE_COLOR:
        out.append("the first card is a wild: name its colour")
    return out


def show_round_result(term: Terminal, state: GameState) -> None:
    """A round just ended: who won, every hand with its points, the scores, and the match's end if it came."""
    result = state.match.last_round
    assert result is not None
    how = "a blocked round, lowest hand" if result.blocked else "went out"
    term.say(f"\n=== round {state.match.round_number} over: {term.who(result.winner)} won ({how}) ===")
    for p, hand in enumerate(state.hands):
        name = f"p{p}" + (" (you)" if p == term.seat else "")
        cards = " ".join(term.card(c) for c in hand)
        term.say(f"  {name:9} {hand_points(state.profile, hand):4d} points in hand  {cards}".rstrip())
    won = ", ".join(f"{term.who(p)} +{w}" for p, w in enumerate(result.points_won) if w) or "none"
    scores = ", ".join(f"p{p} {s}" for p, s in enumerate(state.scores))
    term.say(f"points won: {won}; scores: {scores} (target {state.profile.target_score})")
    if state.match_over:
        winner = state.match.winner
        assert winner is not None
        term.say(f"=== match over: {term.who(winner)} won the match ===")
