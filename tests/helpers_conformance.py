"""Real engines of other kinds, made from this one, for the conformance tests (docs/conformance.md).

Each is this engine deciding by itself what its claims leave out, the way an engine of that
kind does, so that the runner must find no fault in it:

- without ``challenge`` it plays challenge-mode profiles in this engine's own ``unrestricted``
  mode (WD4-6): a Wild Draw Four may be played at any time, the victim draws at once, and under
  stacking it is held as a pending penalty (HOUSE-1); nothing is accepted on the victim's behalf;
- without ``draw-then-decide`` it passes after a draw whose card cannot be played (the printed
  PLAY-4), and with neither that nor ``draw-auto-pass`` after every draw (draw and keep).

They are importable by name (``--adapter helpers_conformance:PrintedDraw`` with ``tests`` on
``PYTHONPATH``), so the wire server can serve them too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from unoengine import conformance as c
from unoengine.engine.legality import legal_moves
from unoengine.engine.moves import Pass, Play
from unoengine.engine.state import GameState, Phase
from unoengine.engine.transition import apply_with_events
from unoengine.tools.conformance.scenarios import scenario_profile

SERVER_PATH = str(Path(__file__).resolve().parent)
"""Put on PYTHONPATH, for the wire server to import these adapters by name."""


def importable_by_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a ``conformance_server --adapter helpers_conformance:...`` subprocess import this module."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (SERVER_PATH, os.environ.get("PYTHONPATH")) if p))


class OneStep(c.EngineAdapter):
    """This engine, making by itself the decisions its claims leave out (see the module)."""

    def __init__(self, capabilities: Iterable[str] | None = None) -> None:
        super().__init__(capabilities)
        self.claims = c.parse_capabilities(self.capabilities)  # with what the names include
        self.kept_after_draws = 0
        """How many times it passed by itself after a draw (so a test can tell it did)."""

    def start(self, scenario: Mapping[str, Any]) -> GameState:
        if "challenge" not in self.claims and scenario_profile(scenario).wild_draw_four == "challenge":
            options = {**scenario.get("options", {}), "wild_draw_four.mode": "unrestricted"}
            scenario = {**scenario, "options": options}
        return super().start(scenario)

    def play(self, game: GameState, move: str) -> tuple[GameState, list[dict[str, Any]]]:
        game, events = super().play(game, move)
        if game.phase is Phase.DRAWN and not self._waits_after_draw(game):
            game, more = apply_with_events(game, Pass(game.current))
            events += [c.event_to_dict(e) for e in more]
            self.kept_after_draws += 1
        return game, events

    def _waits_after_draw(self, game: GameState) -> bool:
        if "draw-then-decide" in self.claims:
            return True
        playable = any(isinstance(m, Play) for m in legal_moves(game, game.current))
        return playable and "draw-auto-pass" in self.claims


class PrintedDraw(OneStep):
    """An engine of the printed draw rule (PLAY-4): play the drawn card if you can, otherwise
    play passes, with no ``pass`` move. It claims ``draw-auto-pass`` and everything else but
    ``draw-then-decide``."""

    def __init__(self) -> None:
        super().__init__(c.CAPABILITIES - {"draw-then-decide"})


class NoChallenge(OneStep):
    """An engine that lets a Wild Draw Four be played at any time and has no challenge (WD4-6
    unrestricted): it claims everything but ``challenge``, and only the classic-108 profile."""

    profiles = ("classic-108",)

    def __init__(self) -> None:
        super().__init__(c.CAPABILITIES - {"challenge"})
