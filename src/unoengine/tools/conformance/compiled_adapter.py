"""The compiled engine as a conformance adapter (issue 34): the corpus run on ``unoengine.compiled``.

``unoengine conformance --adapter unoengine.tools.conformance.compiled_adapter:CompiledAdapter``
checks the compiled kernels scenario by scenario: every legal-move list, every refusal and every
observed field comes from the compiled game, never from the reference. It claims every capability
but those it does not have: events (the kernels report none), rule citations and reason codes (the
kernels decide legality; they do not explain a refusal). Positions (``start``) and deals with a
fixed dealer, deck or dealer draw are set up by the reference engine and handed over as a state
(:meth:`CompiledGame.from_state`); a deal from a seed alone is dealt by the compiled kernel.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...compiled.config import UnsupportedRuleError
from ...compiled.game import CompiledGame
from ...engine.cards import COLOR_LETTERS
from ...engine.errors import IllegalMoveError
from ...formats.notation import format_move, parse_move
from .adapter import EngineAdapter, Rejected, Unsupported
from .capabilities import FEATURES
from .scenarios import scenario_profile

NOT_CLAIMED: Final = frozenset({"rule-citations", "reason-codes"})
"""What the compiled engine does not do: explain a refusal (and it reports no events)."""


class CompiledAdapter:
    """The conformance adapter of the compiled engine (see the module's docstring)."""

    capabilities: frozenset[str] = frozenset(FEATURES) - NOT_CLAIMED

    def __init__(self) -> None:
        self._reference = EngineAdapter()

    def start(self, scenario: Mapping[str, Any]) -> CompiledGame:
        deal = scenario.get("deal")
        try:
            if deal is not None and set(deal) <= {"players", "seed"}:
                return CompiledGame.new(scenario_profile(scenario), deal["players"], deal.get("seed", 0))
            return CompiledGame.from_state(self._reference.start(scenario))
        except UnsupportedRuleError as exc:
            raise Unsupported(str(exc)) from exc

    def play(self, game: CompiledGame, move: str) -> tuple[CompiledGame, list[dict[str, Any]]]:
        after = game.copy()
        try:
            after.push(parse_move(move))
        except IllegalMoveError as exc:
            raise Rejected() from exc
        return after, []

    def observe(self, game: CompiledGame) -> dict[str, Any]:
        n = game.num_players
        return {
            "hand_sizes": list(game.hand_sizes),
            "hands": [" ".join(map(repr, game.hand(p))) for p in range(n)],
            "current": game.current,
            "phase": game.phase.name,
            "color": COLOR_LETTERS[game.color] if game.color >= 0 else None,
            "direction": game.direction,
            "top": repr(game.top_card),
            "pending_draw": game.pending_draw,
            "draw_pile_size": game.draw_pile_size,
            "discard_size": game.discard_size,
            "uno_exposed": game.uno_exposed if game.uno_exposed >= 0 else None,
            "scores": list(game.scores),
            "round_over": game.round_over,
            "round_winner": game.round_winner,
            "match_winner": game.match_winner,
            "dealer": game.dealer,
        }

    def legal(self, game: CompiledGame, player: int) -> list[str]:
        return [format_move(m) for m in game.legal_moves(player)]
