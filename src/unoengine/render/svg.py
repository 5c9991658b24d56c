"""A UNO table as an SVG picture, standard library only.

:func:`view_svg` draws what one player may know: the top card and the colour in play, the
player's own hand face up, the other players around the table with their hand sizes, the
direction of play, whose move it is, and badges for a pending draw, a Wild Draw Four awaiting
its challenge, a player who may be caught for not calling UNO, and the scores.
:func:`state_svg` is the spectator's picture of a whole state: every hand face up, under a
banner saying that it shows hidden cards.

The pictures are small (a few kB: one ``<g>`` per card), scale with the player count (2 to 10
seats around an oval), and carry their meaning as text: a ``<title>`` describing the table for
screen readers, and readable labels. Colours are the four card colours; a wild is black.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from ..engine.cards import (
    BLANK,
    CARDS,
    COLOR_OF,
    DRAW_TWO,
    IS_WILD,
    REVERSE,
    SKIP,
    SYMBOL_OF,
    WILD,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
)
from ..engine.errors import UnoEngineError
from ..engine.state import GameState, Phase
from ..engine.view import PlayerView, view

FILL = ("#d72600", "#e8c400", "#379711", "#0956bf")
"""Red, yellow, green, blue: the card colours (DECK-1)."""
COLOR_NAMES = ("red", "yellow", "green", "blue")
WILD_FILL = "#1b1b1b"
FELT = "#0f5132"

WIDTH = 760
HAND_TOP = 430
CARD_W, CARD_H = 40, 60
SMALL_W, SMALL_H = 22, 33
CARDS_PER_ROW = 16
SHOWN_PER_SEAT = 14
"""Cards drawn face up beside another seat in the spectator's picture (the rest are counted)."""

_FACES = {WILD: "W", WILD_DRAW_FOUR: "+4", WILD_SHUFFLE_HANDS: "SH", WILD_SWAP_HANDS: "SW",
          WILD_CUSTOMIZABLE: "C", BLANK: ""}
_WORDS = {WILD: "Wild", WILD_DRAW_FOUR: "Wild Draw Four", WILD_SHUFFLE_HANDS: "Wild Shuffle Hands",
          WILD_SWAP_HANDS: "Wild Swap Hands", WILD_CUSTOMIZABLE: "Wild Customizable", BLANK: "Blank"}
_PHASE_WORDS = {
    Phase.PLAY: "to play", Phase.DRAWN: "to play the drawn card or pass",
    Phase.CHALLENGE: "to challenge or accept the Wild Draw Four", Phase.CHOOSE_COLOR: "to name the first colour",
    Phase.PENALTY: "to answer the Draw card or accept it",
}


def card_face(card: int) -> str:
    """What is printed on a card: its number, a Skip, Reverse or Draw Two sign, or a wild's mark."""
    if IS_WILD[card]:
        return _FACES[card]
    return {SKIP: "\u2298", REVERSE: "\u21c4", DRAW_TWO: "+2"}.get(SYMBOL_OF[card], str(SYMBOL_OF[card]))


def card_words(card: int) -> str:
    """A card in words, for titles: "red 7", "blue Skip", "Wild Draw Four"."""
    if IS_WILD[card]:
        return _WORDS[card]
    symbol = SYMBOL_OF[card]
    name = {SKIP: "Skip", REVERSE: "Reverse", DRAW_TWO: "Draw Two"}.get(symbol, str(symbol))
    return f"{COLOR_NAMES[COLOR_OF[card]]} {name}"


def _card(x: float, y: float, card: int, *, small: bool = False, css: str = "card", corner: bool = False) -> str:
    """One card face up; ``corner`` prints the face at the top-left corner, where it still shows
    when the next card of a crowded row covers the rest."""
    w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    fill = WILD_FILL if IS_WILD[card] else FILL[COLOR_OF[card]]
    ink = "#1b1b1b" if not IS_WILD[card] and COLOR_OF[card] == 1 else "#fff"
    size = 9 if small else 16
    face = escape(card_face(card))
    where = (f'x="{x + 2:.0f}" y="{y + size + 1:.0f}" text-anchor="start"' if corner else
             f'x="{x + w / 2:.0f}" y="{y + h / 2 + size / 3:.0f}" text-anchor="middle"')
    return (f'<g class="{css}" data-card="{escape(repr(CARDS[card]))}"><title>{escape(card_words(card))}</title>'
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{w}" height="{h}" rx="4" fill="{fill}" stroke="#fff" '
            f'stroke-width="1.5"/><text {where} font-size="{size}" fill="{ink}" font-weight="bold">{face}</text></g>')


def _back(x: float, y: float, count: int) -> str:
    return (f'<g class="back"><rect x="{x:.0f}" y="{y:.0f}" width="{SMALL_W}" height="{SMALL_H}" rx="3" '
            f'fill="#222" stroke="#d72600" stroke-width="2"/><text x="{x + SMALL_W / 2:.0f}" '
            f'y="{y + SMALL_H / 2 + 4:.0f}" font-size="11" fill="#fff" text-anchor="middle">{count}</text></g>')


def _badge(x: float, y: float, text: str, fill: str, css: str) -> str:
    width = 8 + 6.5 * len(text)
    return (f'<g class="badge {css}"><rect x="{x - width / 2:.0f}" y="{y:.0f}" width="{width:.0f}" height="16" '
            f'rx="8" fill="{fill}"/><text x="{x:.0f}" y="{y + 12:.0f}" font-size="11" fill="#fff" '
            f'text-anchor="middle">{escape(text)}</text></g>')


def _seat_position(relative: int, n: int) -> tuple[float, float]:
    """Where seat ``relative`` (0 = the viewer, at the bottom) sits around the oval, clockwise."""
    angle = math.pi / 2 + 2 * math.pi * relative / n  # y grows downwards: bottom, left, top, right
    return WIDTH / 2 + 300 * math.cos(angle), 225 + 140 * math.sin(angle)


def _hand_rows(cards: Sequence[int], top: float, css: str) -> tuple[list[str], float]:
    """The viewer's hand, face up, in rows of CARDS_PER_ROW; returns the parts and the bottom."""
    parts = []
    rows = max(1, math.ceil(len(cards) / CARDS_PER_ROW))
    for i, c in enumerate(cards):
        row, col = divmod(i, CARDS_PER_ROW)
        in_row = min(CARDS_PER_ROW, len(cards) - row * CARDS_PER_ROW)
        x = WIDTH / 2 - in_row * (CARD_W + 4) / 2 + col * (CARD_W + 4)
        parts.append(_card(x, top + row * (CARD_H + 6), c, css=css))
    return parts, top + rows * (CARD_H + 6)


def _table(v: PlayerView, hands: Sequence[Sequence[int]] | None) -> str:
    """The picture of ``v``; with ``hands``, every hand is drawn face up (the spectator)."""
    n, me = v.num_players, v.player
    parts: list[str] = [f'<rect x="20" y="40" width="{WIDTH - 40}" height="350" rx="175" fill="{FELT}"/>']
    top = v.discard_pile[-1]
    color = None if v.color is None else int(v.color)
    ring = FILL[color] if color is not None else "#888"
    parts.append(f'<circle class="color-in-play" cx="{WIDTH / 2 - 30:.0f}" cy="215" r="48" fill="none" '
                 f'stroke="{ring}" stroke-width="8"><title>colour in play: '
                 f'{COLOR_NAMES[color] if color is not None else "not named yet"}</title></circle>')
    parts.append(_card(WIDTH / 2 - 50, 185, top, css="card top"))
    parts.append(f'<g class="draw-pile"><rect x="{WIDTH / 2 + 20:.0f}" y="185" width="{CARD_W}" height="{CARD_H}" '
                 f'rx="4" fill="#222" stroke="#fff"/><text x="{WIDTH / 2 + 40:.0f}" y="221" font-size="14" '
                 f'fill="#fff" text-anchor="middle">{v.draw_pile_size}</text><title>draw pile: '
                 f'{v.draw_pile_size} cards</title></g>')
    arrow = "\u21bb clockwise" if v.direction == 1 else "\u21ba counter-clockwise"
    parts.append(f'<text class="direction" x="{WIDTH / 2:.0f}" y="170" font-size="13" fill="#fff" '
                 f'text-anchor="middle">{arrow}</text>')
    if v.pending_draw:
        parts.append(_badge(WIDTH / 2, 262, f"+{v.pending_draw} pending", "#b00020", "pending-draw"))
    if v.challenge_attacker is not None:
        parts.append(_badge(WIDTH / 2, 282, f"p{v.challenge_attacker}'s Wild Draw Four: challenge?", "#6a1b9a",
                            "challenge"))
    to_move = v.current if v.phase < Phase.ROUND_OVER else None
    for r in range(n):
        seat = (me + r) % n
        if r == 0:
            continue
        x, y = _seat_position(r, n)
        mark = "#ffd54f" if seat == to_move else "#fff"
        label = _seat_label(seat, v.dealer, to_move)
        parts.append(f'<g class="seat" data-seat="{seat}"><text x="{x:.0f}" y="{y - 24:.0f}" font-size="13" '
                     f'fill="{mark}" text-anchor="middle" font-weight="bold">{label}</text>')
        if hands is None:
            parts.append(_back(x - SMALL_W / 2, y - 18, v.hand_sizes[seat]))
        else:
            shown = hands[seat][:SHOWN_PER_SEAT]
            step = min(SMALL_W + 2, 170 / max(1, len(shown)))
            row = step * (len(shown) - 1) + SMALL_W
            more = len(hands[seat]) - SHOWN_PER_SEAT
            # the side seats' rows stay inside the picture (with room for the count of the rest)
            left = min(max(x - row / 2, 6), WIDTH - 6 - row - (26 if more > 0 else 0))
            for i, c in enumerate(shown):
                parts.append(_card(left + i * step, y - 18, c, small=True, css="card hidden-shown",
                                   corner=step < SMALL_W))
            if more > 0:
                parts.append(f'<text x="{left + row + 3:.0f}" y="{y:.0f}" font-size="11" fill="#fff">'
                             f'+{more}</text>')
        if v.scores[seat]:
            parts.append(f'<text x="{x:.0f}" y="{y + 30:.0f}" font-size="11" fill="#ddd" '
                         f'text-anchor="middle">{v.scores[seat]} points</text>')
        if seat == v.uno_exposed:
            parts.append(_badge(x, y + 18, "no UNO call!", "#b00020", "uno-exposed"))
        parts.append("</g>")
    who = _seat_label(me, v.dealer, to_move)
    title_fill = "#b8860b" if me == to_move else "#222"
    parts.append(f'<text class="you" x="{WIDTH / 2:.0f}" y="{HAND_TOP - 10}" font-size="14" fill="{title_fill}" '
                 f'text-anchor="middle" font-weight="bold">{escape(who)}: {len(v.hand)} cards'
                 f'{f", {v.scores[me]} points" if v.scores[me] else ""}</text>')
    if v.uno_exposed == me:
        parts.append(_badge(WIDTH / 2 + 150, HAND_TOP - 24, "no UNO call!", "#b00020", "uno-exposed"))
    hand, bottom = _hand_rows(v.hand, HAND_TOP, "card hand")
    parts += hand
    height = bottom + 16
    head = _headline(v)
    banner = ""
    if hands is not None:
        banner = (f'<rect x="0" y="0" width="{WIDTH}" height="30" fill="#b00020"/><text x="{WIDTH / 2:.0f}" y="20" '
                  'font-size="14" fill="#fff" text-anchor="middle" class="spectator">spectator view: '
                  'shows every hidden hand</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="{WIDTH}" '
            f'height="{height:.0f}" role="img" aria-labelledby="uno-title" font-family="sans-serif">'
            f'<title id="uno-title">{escape(_description(v, hands is not None))}</title>'
            f'<rect width="100%" height="100%" fill="#f4f1ea"/>{banner}'
            f'{"".join(parts)}<text class="headline" x="{WIDTH / 2:.0f}" y="330" font-size="14" fill="#fff" '
            f'text-anchor="middle">{escape(head)}</text></svg>')


def _seat_label(seat: int, dealer: int, to_move: int | None) -> str:
    return f"p{seat}" + (", dealer" if seat == dealer else "") + (", to move" if seat == to_move else "")


def _headline(v: PlayerView) -> str:
    if v.phase >= Phase.ROUND_OVER and v.last_round is not None:
        text = f"round {v.round_number} over: p{v.last_round.winner} wins"
        if v.match_winner is not None:
            text += f"; p{v.match_winner} wins the match"
        return text
    return f"round {v.round_number}: p{v.current} {_PHASE_WORDS.get(v.phase, '')}"


def _description(v: PlayerView, spectator: bool) -> str:
    color = COLOR_NAMES[int(v.color)] if v.color is not None else "not named yet"
    others = ", ".join(f"p{s} holds {v.hand_sizes[s]}" for s in range(v.num_players) if s != v.player)
    who = "Spectator's view of a UNO table" if spectator else f"UNO table seen by p{v.player}"
    return (f"{who}, {v.num_players} players: top card {card_words(v.discard_pile[-1])}, colour {color}, "
            f"{_headline(v)}; p{v.player} holds {len(v.hand)} cards; {others}")


def view_svg(v: PlayerView) -> str:
    """One player's view as an SVG document (text)."""
    if not isinstance(v, PlayerView):
        raise UnoEngineError(f"view: expected a PlayerView, got a {type(v).__name__}")
    return _table(v, None)


def state_svg(state: GameState, seat: int | None = None) -> str:
    """The spectator's picture of ``state``: every hand face up (marked as showing hidden cards),
    from ``seat``'s place at the table (the player to act by default)."""
    if not isinstance(state, GameState):
        raise UnoEngineError(f"state: expected a GameState, got a {type(state).__name__}")
    where = state.current if seat is None else seat  # view() refuses a seat that is not a player
    return _table(view(state, where), state.hands)
