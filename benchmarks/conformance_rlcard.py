"""A conformance adapter for RLCard 1.2.0's UNO game, written against the public protocol only
(docs/conformance.md): the worked example of running the corpus against a third-party engine.

    pip install "unoengine[bench]"          # rlcard==1.2.0, never a runtime dependency
    PYTHONPATH=benchmarks unoengine conformance --adapter conformance_rlcard:RLCardAdapter

RLCard's UNO game has no refusals (its legal actions are the rule), no events, no UNO calls or
challenges, no dealer, no scores; a draw is one step (and a drawn card that matches is played
at once); a wild names its colour in the action (``r-wild``). The adapter claims what RLCard can
report, sets up the scenario's exact position in RLCard's own objects (hands, draw pile in
order, discard pile, colour, direction, seat to act), and refuses a move RLCard's legal actions
do not hold. It reads nothing of unoengine but the scenario it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CAPABILITIES = frozenset({
    "start-position", "legal-moves", "wild-colors-listed", "pile-sizes", "pending-draw", "phases",
})
"""What RLCard can report: its only phases are play and the end of the game (PLAY, ROUND_OVER),
and nothing is ever pending (a Draw card's victim draws at once)."""
_TRAITS = {"S": "skip", "R": "reverse", "+2": "draw_2"}
_NAMES = {v: k for k, v in _TRAITS.items()}
_DECK_NAMES = frozenset(c + s for c in "RYGB" for s in [*"0123456789", "S", "R", "+2"]) | {"W", "W+4"}
"""The cards of RLCard's deck (the classic 108-card deck), by name."""


def _rlcard() -> Any:
    try:
        from rlcard.games.uno.card import UnoCard
        from rlcard.games.uno.game import UnoGame
        from rlcard.games.uno.utils import init_deck
    except ImportError:
        raise ImportError('the RLCard adapter needs RLCard 1.2.0: pip install "unoengine[bench]"') from None
    return UnoCard, UnoGame, init_deck


def _card(name: str) -> Any:
    """An RLCard card from a card name of the scenario format (``R7``, ``GS``, ``W``, ``W+4``)."""
    card_class = _rlcard()[0]
    if name in ("W", "W+4"):
        return card_class("wild", "r", "wild" if name == "W" else "wild_draw_4")
    color, symbol = name[0].lower(), name[1:]
    if symbol.isdigit():
        return card_class("number", color, symbol)
    return card_class("action", color, _TRAITS[symbol])


def _name(card: Any) -> str:
    if card.type == "wild":
        return "W" if card.trait == "wild" else "W+4"
    return card.color.upper() + (card.trait if card.type == "number" else _NAMES[card.trait])


def _same(a: Any, b: Any) -> bool:
    return bool(_name(a) == _name(b))


class RLCardAdapter:
    """RLCard's ``UnoGame`` behind the conformance adapter protocol."""

    capabilities = CAPABILITIES

    def __init__(self) -> None:
        _rlcard()  # fail at once, naming the extra, when RLCard is missing

    def start(self, scenario: Mapping[str, Any]) -> Any:
        from unoengine.conformance import Unsupported

        if scenario["profile"] != "classic-108" or scenario.get("options"):
            raise Unsupported("RLCard plays one rule set: plain classic-108 (no options)")
        start = scenario["start"]
        _, game_class, init_deck = _rlcard()
        game = game_class(num_players=len(start["hands"]))
        game.np_random.seed(0)  # RLCard reshuffles with it: the same scenario, the same run
        game.init_game()
        names = [h.split() for h in start["hands"]]
        discard = start["discard"].split()
        for player, hand in zip(game.players, names, strict=True):
            player.hand = [_card(n) for n in hand]
        if "draw_pile" in start:
            pile = [_card(n) for n in start["draw_pile"].split()]
        else:  # every card not placed elsewhere, in any order
            pile = init_deck()
            for placed in [n for hand in names for n in hand] + discard:
                pile.pop(next(i for i, c in enumerate(pile) if _name(c) == placed))
        game.dealer.deck = list(reversed(pile))  # RLCard draws from the end of its list
        rnd = game.round
        rnd.played_cards = [_card(n) for n in discard]
        rnd.target = rnd.played_cards[-1]
        if rnd.target.type == "wild":
            if not start.get("color"):
                raise Unsupported("a wild on top waiting for its colour")
            rnd.target.color = start["color"].lower()
        elif start.get("color") and start["color"].lower() != rnd.target.color:
            raise Unsupported("a colour in play other than the top card's")
        rnd.current_player = start.get("current", 0)
        rnd.direction = start.get("direction", 1)
        rnd.is_over, rnd.winner = False, None
        return game

    def play(self, game: Any, move: str) -> tuple[Any, list[dict[str, Any]]]:
        from unoengine.conformance import Rejected, Unsupported

        seat_text, _, what = move.partition(" ")
        seat = int(seat_text[1:])
        if what in ("pass", "challenge", "accept", "uno", "deal") or what.startswith(("catch", "color")) or ">" in what:
            raise Unsupported(f"RLCard has no {what.split()[0]!r} move")
        action = "draw" if what == "draw" else self._action(what.rstrip("!"))
        if action is None or game.round.is_over or seat != game.round.current_player:
            raise Rejected()
        if action not in game.round.get_legal_actions(game.players, seat):
            raise Rejected()
        game.step(action)
        return game, []

    @staticmethod
    def _action(card_text: str) -> str | None:
        """The RLCard action of a play; None for one RLCard cannot express (a colour named for a
        coloured card, a wild without one), which no legal action matches."""
        card, _, color = card_text.partition(":")
        if card in ("W", "W+4"):
            return f"{color.lower()}-{'wild' if card == 'W' else 'wild_draw_4'}" if color else None
        if color or card not in _DECK_NAMES:
            return None
        rl = _card(card)
        return f"{rl.color}-{rl.trait}"

    def observe(self, game: Any) -> dict[str, Any]:
        rnd = game.round
        over = bool(rnd.is_over)
        return {
            "hand_sizes": [len(p.hand) for p in game.players],
            "hands": [" ".join(_name(c) for c in p.hand) for p in game.players],
            "current": rnd.current_player,
            "phase": "ROUND_OVER" if over else "PLAY",
            "color": rnd.target.color.upper(),
            "direction": rnd.direction,
            "top": _name(rnd.target),
            "pending_draw": 0,
            "draw_pile_size": len(game.dealer.deck),
            "discard_size": len(rnd.played_cards),
            "round_over": over,
            "round_winner": rnd.winner[0] if over and rnd.winner else None,
        }

    def legal(self, game: Any, player: int) -> list[str]:
        rnd = game.round
        if rnd.is_over or player != rnd.current_player:
            return []
        out = []
        for action in rnd.get_legal_actions(game.players, player):
            if action == "draw":
                out.append(f"p{player} draw")
                continue
            color, trait = action.split("-")
            if trait in ("wild", "wild_draw_4"):
                out.append(f"p{player} {'W' if trait == 'wild' else 'W+4'}:{color.upper()}")
            else:
                out.append(f"p{player} {color.upper()}{trait if trait.isdigit() else _NAMES[trait]}")
        return out
