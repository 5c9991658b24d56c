"""``unoengine play``: a person plays UNO against bots in the terminal.

The person's seat is asked for a decision whenever they have a legal move: on their turn, and
out of turn when they may catch a missed UNO, call UNO late or jump in (HOUSE-2). The other
seats are bots that act as in :func:`unoengine.simulate.next_move`: bots after the player to
act, in seat order, may act out of turn first, then the player to act. A bot's random stream
is seeded from the game seed, its seat and the number of moves made so far, so a game is
reproducible from its seed and the person's input, and a saved game goes on exactly as it
would have without the save.

A saved game is the JSON object ``{"unoengine": "saved-game", "version": 1, "record": RECORD,
"seat": N, "bots": [...]}`` where RECORD is the game record document of :mod:`unoengine.serialize`.

The modules, each with one job: :mod:`.start` (options, a new or resumed game, exit codes),
:mod:`.session` (the game loop), :mod:`.person` (reading the person's move), :mod:`.prompts`
(yes/no, colour and player questions, the help and save commands), :mod:`.screen` (the table and
a round's result), :mod:`.terminal` (lines in and out, ANSI colours) and :mod:`.saves` (the
saved-game file); a move's events in words come from :mod:`unoengine.formats.describe`, which
the replay page shares.
"""

from __future__ import annotations

from ...formats.describe import describe
from .person import menu
from .saves import SAVE_KIND, SAVE_VERSION, load_saved_game, saved_game
from .start import add_arguments, run

__all__ = ["SAVE_KIND", "SAVE_VERSION", "add_arguments", "describe", "load_saved_game", "menu", "run", "saved_game"]
