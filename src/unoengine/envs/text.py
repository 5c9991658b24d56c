"""``TextEnv``: one round of UNO for text players, in the conventions of TextArena's ``Env``
(without depending on it)::

    env = TextEnv("classic-108")
    env.reset(num_players=3, seed=7)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(agents[player_id](observation))
    rewards = env.close()            # {0: 1.0, 1: -0.5, 2: -0.5}

The observation is the prompt of formats/prompt_text.py (or its JSON, ``observation="json"``),
with the last events of the round in words as that player saw them (events_for). An action is
any answer formats/answer_parsing.py reads. An answer naming no legal move comes back with its
reason in ``info["reason"]`` and the same player is asked again, ``error_allowance`` times (one
by default); then the fallback: ``random`` (a random legal move from the env's seeded stream) or
``forfeit`` (the round ends, the player loses). Out-of-turn moments (a catch, a late UNO, a
jump-in) are decisions of their own, as envs/table.py orders them; a fallback there lets the
moment pass. Rewards come at the end only: ``win`` rewards (envs/table.py), or -1 for a
forfeit and its share to the others. ``info["invalid"]`` and ``info["fallbacks"]`` count per player.
"""

from __future__ import annotations

import json
import random
from collections import deque
from typing import Any, Final, Literal

from ..engine.dealing import new_game
from ..engine.events import events_for
from ..engine.profile import Profile
from ..engine.state import GameState
from ..engine.transition import apply_with_events
from ..engine.view import PlayerView, view
from ..formats.answer_parsing import AnswerError, parse_answer
from ..formats.composition import Spec, resolve_profile
from ..formats.describe import describe
from ..formats.prompt_text import MAX_RECENT, prompt_json, prompt_text
from .actions import ActionError
from .arguments import check_choice, check_players, check_seed
from .table import OUT_OF_TURN, OutOfTurn, Table, round_rewards

Fallback = Literal["random", "forfeit"]
FALLBACKS: Final = ("random", "forfeit")
OBSERVATIONS: Final = ("text", "json")


class TextEnv:
    """A round of UNO between text players (see the module docstring)."""

    def __init__(self, profile: Profile | Spec = "classic-108", *, error_allowance: int = 1,
                 fallback: Fallback = "random", observation: Literal["text", "json"] = "text",
                 out_of_turn: OutOfTurn = "windows") -> None:
        self.profile: Profile = resolve_profile(profile)
        if type(error_allowance) is not int or not 0 <= error_allowance <= 10:
            raise ActionError(f"error_allowance: expected an int from 0 to 10, got {error_allowance!r}")
        check_choice("fallback", fallback, FALLBACKS)
        check_choice("observation", observation, OBSERVATIONS)
        check_choice("out_of_turn", out_of_turn, OUT_OF_TURN)
        self.error_allowance = error_allowance
        self.fallback = fallback
        self.observation = observation
        self.out_of_turn = out_of_turn
        self._table: Table | None = None

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a new round: ``seed`` fixes the deal and every fallback (None: seed 0)."""
        n = check_players(self.profile, num_players)
        game_seed = check_seed(seed) or 0
        self._table = Table(new_game(self.profile, n, game_seed), self.out_of_turn)
        self._rng = random.Random(game_seed)
        self._recent: list[deque[str]] = [deque(maxlen=MAX_RECENT) for _ in range(n)]
        self._refused: str | None = None
        self._strikes = 0
        self.invalid = [0] * n
        self.fallbacks = [0] * n
        self._forfeit: int | None = None

    @property
    def state(self) -> GameState:
        """The full state (for a referee, never for a player)."""
        return self._live().state

    def _live(self) -> Table:
        if self._table is None:
            raise ActionError("call reset(num_players, seed) first")
        return self._table

    @property
    def done(self) -> bool:
        return self._forfeit is not None or self.state.round_over

    def get_observation(self) -> tuple[int, str]:
        """``(player_id, observation)``: whose decision it is, and their prompt."""
        table = self._live()
        p = table.actor
        v = view(table.state, p)
        if self.observation == "json":
            doc = prompt_json(v, self._recent[p])
            if self._refused is not None:
                doc["refused"] = self._refused
            return p, json.dumps(doc)
        text = prompt_text(v, self._recent[p])
        if self._refused is not None:
            text += f"\n\nYour answer was not accepted: {self._refused}. Answer again with one move in brackets."
        return p, text

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The actor's answer: ``(done, info)``; ``info["reason"]`` when it was refused."""
        table = self._live()
        if self.done:
            raise ActionError("step: the round is over; call close() for the rewards, or reset()")
        p = table.actor
        v = view(table.state, p)
        info: dict[str, Any] = {"player": p}
        try:
            move = parse_answer(action, v)
        except AnswerError as exc:
            self.invalid[p] += 1
            self._strikes += 1
            info["reason"] = exc.reason
            if self._strikes <= self.error_allowance:
                self._refused = exc.reason
                return False, self._info(info)
            move = self._fall_back(p, v, info)
            if self._forfeit is not None:
                return True, self._info(info)
        self._refused = None
        self._strikes = 0
        self._make(move, v)
        return self.done, self._info(info)

    def _fall_back(self, p: int, v: PlayerView, info: dict[str, Any]) -> Any:
        self.fallbacks[p] += 1
        info["fallback"] = True
        if not v.my_turn:
            return None
        if self.fallback == "forfeit":
            self._forfeit = p
            info["forfeit"] = p
            return None
        return self._rng.choice(v.legal_moves)

    def _make(self, move: Any, v: PlayerView) -> None:
        """Make the move (None: let the window pass) and tell each player its events in words."""
        table = self._live()
        if move is None:
            table.act(None)
            return
        _, events = apply_with_events(table.state, move)
        table.act_legal(move)
        for q, recent in enumerate(self._recent):
            line = describe(events_for(events, q), lambda s, q=q: "you" if s == q else f"p{s}")  # type: ignore[misc]
            if line:
                recent.append(line)

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        info["invalid"] = list(self.invalid)
        info["fallbacks"] = list(self.fallbacks)
        return info

    def close(self) -> dict[int, float]:
        """The rewards by player (empty before the round is over)."""
        table = self._live()
        n = len(self.invalid)
        if self._forfeit is not None:
            return {q: -1.0 if q == self._forfeit else 1.0 / (n - 1) for q in range(n)}
        if not table.state.round_over:
            return {}
        return dict(enumerate(round_rewards(table.state, "win")))
