"""The game loop: whose move it is, asking the bots or the person, applying the move, and the round's end.

The order is that of :func:`unoengine.simulate.next_move`: the seats after the player to act, in
seat order, may act out of turn first, then the player to act. A bot's random stream is seeded
from the game seed, its seat and the number of moves made so far, so the game depends only on
its seed and what the person types, and a resumed game goes on as it would have without the save.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TextIO

from ...bots import Bot
from ...engine.errors import UnoEngineError
from ...engine.events import events_for
from ...engine.legality import legal_moves, next_dealer
from ...engine.moves import Move, NextRound
from ...engine.state import GameState
from ...engine.transition import apply_with_events
from ...engine.view import view
from ...formats.describe import describe
from ...formats.record import GameRecord
from .person import Person
from .prompts import Prompter
from .saves import write_saved_game
from .screen import show_opening, show_round_result
from .terminal import Terminal


class Session:
    """One game in progress: the record so far, the state, the seats and the terminal."""

    def __init__(self, record: GameRecord, state: GameState, seat: int, bots: list[tuple[str, Bot]],
                 stdin: TextIO, stdout: TextIO, color: bool, save_path: str | None) -> None:
        self.record = record
        self.moves: list[Move] = list(record.moves)
        self.state = state
        self.seat = seat
        self.bot_names = [name for name, _ in bots]
        others = [q for q in range(record.players) if q != seat]
        self.bots: dict[int, Bot] = {q: bot for q, (_, bot) in zip(others, bots, strict=True)}
        self.term = Terminal(stdin, stdout, color, seat)
        self.prompts = Prompter(self.term, self.save)
        self.person = Person(seat, self.term, self.prompts)
        self.save_path = save_path
        self.saved_moves: int | None = None
        """How many moves the last save of this session held (None: not saved)."""
        self.resumed = False

    def play(self) -> int:
        seats = list(zip(sorted(self.bots), self.bot_names, strict=True))
        show_opening(self.term, self.record, self.state, seats, len(self.moves), self.resumed)
        while True:
            if self.state.round_over:
                if not self.round_over():
                    return 0
                continue
            move = self.next_move()
            self.make(move)

    def make(self, move: Move) -> None:
        """Apply a move, keep it, and tell what happened in one line."""
        self.state, events = apply_with_events(self.state, move)
        self.moves.append(move)
        self.term.say(describe(events_for(events, self.seat), self.term.who, self.term.card, self.term.color_name))

    def next_move(self) -> Move:
        """The next move, asked of bots and the person as in simulate.next_move."""
        state = self.state
        n = state.num_players
        current = state.current
        acting = {m.player for m in legal_moves(state)}
        for q in [(current + k) % n for k in range(1, n)] + [current]:
            if q not in acting:
                continue
            move = self.person.choose(state, q == current) if q == self.seat else self.bot(q)
            if move is not None:
                return move
        raise RuntimeError(f"nobody moved in {state!r}")  # every state but the round's end has a player to act

    def bot(self, q: int) -> Move | None:
        v = view(self.state, q)
        rng = random.Random(f"{self.record.seed}/seat{q}/move{len(self.moves)}")
        move = self.bots[q].act(v, rng)
        if move is not None and move not in v.legal_moves:
            raise RuntimeError(f"bot {self.bots[q].name!r} at seat {q} returned {move!r}, which is not legal")
        if move is None and q == self.state.current:
            raise RuntimeError(f"bot {self.bots[q].name!r} at seat {q} made no move on its turn")
        return move

    def round_over(self) -> bool:
        """Show the round's result; deal the next round if the person wants it. False to stop."""
        state = self.state
        show_round_result(self.term, state)
        if state.match_over:
            return False
        if not self.prompts.yes_no("next round? [Y/n] ", "answer y or n (or save, help, quit)"):
            self.term.say("goodbye")
            return False
        self.make(NextRound(next_dealer(state)))
        return True

    def save_note(self) -> str:
        """Said on leaving: whether the game as it stands is saved, so a save just made is not denied."""
        if self.saved_moves is None:
            return "the game is not saved"
        if self.saved_moves == len(self.moves):
            return f"saved to {self.save_path}"
        return f"the moves since the save to {self.save_path} are not saved"

    def save(self, path: str | None) -> None:
        """The save command: write the game so far to ``path``, or by default where the last save went."""
        path = path or self.save_path
        if not path:
            self.term.say("save where? type save FILE (or start with --save FILE)")
            return
        record = GameRecord(self.record.profile, self.record.players, self.record.seed, self.record.deck,
                            self.record.dealer, tuple(self.moves))
        try:
            write_saved_game(Path(path), record, self.seat, self.bot_names)
        except (OSError, UnoEngineError) as exc:
            self.term.say(f"could not save to {path}: {exc}")
            return
        self.save_path, self.saved_moves = path, len(self.moves)
        self.term.say(f"saved to {path} ({len(self.moves)} moves); go on later with --resume {path}")
