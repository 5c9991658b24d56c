"""Every limit on what the package accepts, in one place (docs/api.md, "Limits").

Untrusted input (a saved game, a profile file, a scenario, a move typed or sent by a bot) can
only cost bounded time and memory: each value is checked against its limit *before* the work it
would cause is done, and refused with an :class:`~unoengine.engine.errors.UnoEngineError` naming
the field and the limit. Each value leaves every legitimate use far inside it; the docstring of
each says what it bounds and why it is large enough.
"""

from __future__ import annotations

from typing import Final

# --- the table and the deck (a Profile refuses values beyond these on construction) ---------------
MAX_PLAYERS: Final = 10
"""SETUP-1: the most players at one table (the printed rules play 2 to 10)."""

MAX_HAND_SIZE: Final = 50
"""SETUP-1: the most cards dealt to each player; the official hand is 7. The deck must also hold
``hand_size * max_players + 1`` cards, so that every hand and a first card can be dealt."""

MAX_COPIES: Final = 1_000
"""DECK-5: the most copies of one card in a deck (the official decks hold at most 4)."""

MAX_DECK_CARDS: Final = 10_000
"""DECK-5: the most cards in a deck, ninety official decks: shuffling and dealing stay well under
a millisecond per round, and a state document of a full deck stays near 50 KB."""

MAX_CARD_POINTS: Final = 10_000
"""SCORE-1: the most points one card may count (the official most is 50)."""

MAX_COUNT: Final = 2**53 - 1
"""The largest score, round number, pass count or pending draw a position may hold
(``from_position``; a document's counts, formats/serialize/spec.py): every JSON reader keeps it
exact, so any position can be saved, and it is short enough to show in a message. A match of
10,000-point cards would need billions of rounds to come near it."""

# --- documents and files ---------------------------------------------------------------------------
MAX_DOCUMENT_BYTES: Final = 8 * 1024 * 1024
"""The largest JSON document read (states, views, records, saved games, scenario files): 8 MiB.
A record of :data:`MAX_RECORD_MOVES` moves is about 3 MB; a state of the largest deck about 50 KB.
Text given as ``str`` counts characters."""

MAX_JSON_DEPTH: Final = 32
"""The deepest nesting of arrays and objects in a JSON document; the deepest ones written, the
scenario files of the shipped corpus (an event's list of points), have 9. Checked before parsing,
as Python's parser recurses."""

MAX_PROFILE_BYTES: Final = 256 * 1024
"""The largest profile TOML file read: 256 KiB, a hundred times a shipped profile (about 2 KB)."""

MAX_TOML_DEPTH: Final = 16
"""The deepest nesting of tables and arrays in a profile (TOML file, or the ``profile`` of a JSON
document); a profile needs 3 (``[deck.per_color]`` and its values). Checked before parsing."""

MAX_EXTENDS_DEPTH: Final = 16
"""The longest chain of profile files each ``extends``-ing the next (HOUSE-8); a table needs one
or two."""

MAX_COMPOSITION_PARTS: Final = 32
"""The most parts of one composition (``"base+overlay+..."`` or a list): a base and every overlay
shipped (14) fit twice over."""

MAX_PATH_CHARS: Final = 4096
"""The longest file path or profile specification taken (the usual limit of an operating system's
path); no path holds a NUL character."""

MAX_SCENARIO_FILES: Final = 1_000
"""The most scenario files one conformance run reads (the shipped corpus has 10)."""

MAX_POINTS_DEAL_STEPS: Final = 1_500_000
"""SCORE-1: the most steps spent dealing the hidden hands of a finished round so that each holds
the points the round counted (engine/points_deal.py), when such a view is determinized: about a
second. The round-over views of random games at ten players need a median of 12,000 steps and
200,000 at most in our runs (ffk04); only a crafted view, whose hands can each hold their points
but not all together, runs out."""


# --- names and free text ---------------------------------------------------------------------------
MAX_NAME_CHARS: Final = 1_000
"""The longest profile ``name`` (a composition's name, its parts joined by ``+``, included: the
shipped base and all 14 overlays make 223 characters) and ``custom_effect`` name. A profile's name
goes into every message to a program bot, onto report pages and into messages."""

MAX_TAG_CHARS: Final = 200
"""The longest short label of a document: a scenario's ``id`` (the shipped ones have at most 84
characters; an id is also printable text, no control character), each rule ID or source tag of
a scenario, each entry of a profile's ``sources``."""

MAX_TAGS: Final = 100
"""The most entries of a profile's ``sources``, and of a scenario's ``rules`` or ``sources`` (the
shipped ones have at most 6)."""

MAX_TEXT_CHARS: Final = 10_000
"""The longest free text of a profile or a scenario file: a profile's ``description``, a file's
or a scenario's ``description``, a step's ``note``, and every other string of a scenario (the
longest shipped text has about 350 characters). A scenario is sent whole to an adapter program,
so its texts bound that message too."""

# --- notation and records ------------------------------------------------------------------------
MAX_MOVE_TEXT: Final = 64
"""The longest text read as one move; the longest canonical move (``p9 WSW:B>p8!``) has 12
characters."""

MAX_ANSWER_CHARS: Final = 65_536
"""The longest answer of a text player (a language model, formats/answer_parsing.py) that is read
for a move; a longer one is refused without being searched. An answer that reasons at length
before naming its move in brackets stays far inside it (a page of text is about 3,000
characters)."""

MAX_CARD_TEXT: Final = 16
"""The longest text read as one card or colour name (``yellow`` has 6 characters)."""

MAX_CARDS_TEXT: Final = 8 * MAX_DECK_CARDS
"""The longest text read as a list of card names: every card of the largest deck, each name with
room to spare (4 characters a card at most, with its separator)."""

MAX_RECORD_MOVES: Final = 200_000
"""The most moves in one game record (and in a view's list of legal moves). A whole match to 500
points between random bots at a 2-player table, the longest kind, takes about 25,000 moves."""

MAX_REPLAY_MOVES: Final = 30_000
"""The most moves one replay page shows (render/replay.py): a 500-point match of two random bots,
the longest kind of game, fits; the page of 2,000 moves at ten players is about 600 kB."""

MAX_ROUND_DECISIONS: Final = 200_000
"""The largest ``max_game_length`` of the OpenSpiel game (envs/openspiel.py): the decisions of one
round, ``WAIT`` included. Uniform random play needs about 1,000 at four players, ten times more at
its 99th percentile with draw-until-playable; a serialized state of this many decisions, its
history included, is about 2 MB, within :data:`MAX_DOCUMENT_BYTES`, so every state written can
be read back."""

MAX_OPPONENTS: Final = 256
"""The most opponents in one self-play pool (envs/policies.py, ``OpponentPool``): the shipped bots
and past snapshots of a learner. A league keeps a few dozen snapshots; each holds a policy, a
network of a few MB, so the pool's memory stays bounded however long training runs (the oldest
snapshot leaves first)."""

MAX_SAVED_RECORDS: Final = 1_000
"""The most game records one ``simulate --records`` run saves (each game is played once more)."""

# --- games played through tool calls (``unoengine mcp``, tools/agent_games.py) ---------------------
MAX_OPEN_GAMES: Final = 64
"""The most games one ``unoengine mcp`` server keeps open at once (started and not over): an agent
evaluated on many games in parallel needs a few dozen; each open game holds a state of a few KB
and its bots. Starting one more is refused until one is over or ended."""

MAX_FINISHED_GAMES: Final = 256
"""The most finished games a server keeps so that their results can still be read; the oldest
finished game is dropped first when one more ends."""

MAX_MCP_LINE_BYTES: Final = 4 * 1024 * 1024
"""The longest line (one JSON-RPC message) an ``unoengine mcp`` server reads from its client:
4 MiB. The longest argument a tool takes (MAX_TOOL_TEXT_CHARS characters) is under 400 KB even
with every character escaped as ``\\uXXXX``, and the other messages are a few KB; an argument
of a few MB still reaches the tool, whose error names it. A longer line is answered with a
JSON-RPC error, and skipped without being kept (tools/mcp_lines.py)."""

MAX_TOOL_TEXT_CHARS: Final = MAX_ANSWER_CHARS
"""The longest text any tool argument may hold (a move, a game id, a profile or bot name),
checked before the argument is read; as long as the longest answer a text player may give, so
a move reasoned at length still reaches the answer parser."""

# --- error messages --------------------------------------------------------------------------------
MAX_QUOTED_CHARS: Final = 40
"""The most characters of an untrusted text quoted in an error message; a longer one is quoted
as a prefix with its total length, ``'RRRR...' (10,000,000 characters)``."""

MAX_LISTED_PROBLEMS: Final = 50
"""The most problems one error lists (and a document reader keeps); the rest are counted."""

MAX_SHOWN_CHARS: Final = 200
"""The most characters of a value an engine under test reported (an events list, a hand, a
refusal's rule, a line of its traceback) quoted in a conformance outcome, escaped; a longer one is
cut and its length given."""

MAX_PRINTED_CHARS: Final = 10_000
"""The longest line a command prints of text it did not write itself (an error message on one
line, a line of a conformance report): a longer one is cut, saying its whole length. Every such
line also has its control characters written as escapes (``\\x1b``), so no file or program can
send the terminal an escape sequence. An error listing 50 problems stays within it."""

# --- runs ----------------------------------------------------------------------------------------
MAX_GAMES: Final = 10**6
"""The most games (or matches) one simulation, or one tournament seating, plays: hours of one core
at about 100 games a second. Each result is kept (about 500 bytes), so a run of the most games
ends holding about 500 MB; ten times more would not fit many machines."""

MAX_STREAMED_GAMES: Final = 10**15
"""The most games one streamed run plays (``simulate.iter_results``, the ``simulate`` command),
whose results are tallied as they come and not kept: the bound is only on the count itself (at
a million games a second it is thirty years)."""

MAX_WORKERS: Final = 64
"""The most worker processes of one simulation."""

# --- programs (bot programs, engines under ``conformance --engine-cmd``; bots/child.py) -------------
MAX_PROGRAM_LINE_BYTES: Final = 1 << 20
"""The longest line, newline included, a program may send (and the conformance runner sends it):
1 MiB. A 10-player view document is about 3 KB, a scenario a few. A longer line is an error as
soon as its first 1 MiB has come without a newline."""

MAX_STDERR_HEAD_BYTES: Final = 2 * 1024
"""What is kept of the start of a program's stderr, for its error messages: the first 2 KiB
(where a crashed program usually says what went wrong)."""

MAX_STDERR_TAIL_BYTES: Final = 4 * 1024
"""What is kept of the end of a program's stderr: the last 4 KiB (a traceback's last frames and
its exception). What came between the head and the tail is counted, not kept."""

MAX_IDLE_OUTPUT_BYTES: Final = 1 << 20
"""The most a program waiting between games may leave on its stderr (it is read and dropped
before the program is given the next game): 1 MiB. A program that left more, or wrote anything
on its stdout, is stopped and a fresh one started."""

MAX_TIMEOUT_SECONDS: Final = 3600
"""The longest wait a caller may set: for each exchange with a program bot (``--bot-timeout``) or
an engine under ``conformance --engine-cmd`` (``--timeout``), each write to it and each answer,
and for a Dask scheduler to answer (``--connect-timeout``). An hour; the defaults are 10 seconds."""
MIN_HANDSHAKE_SECONDS: Final = 10.0
"""The least time a program (a bot or an engine under test) has to start and answer the handshake,
whatever shorter wait was set for its answers: an interpreter starting on a busy machine is slow,
and a short ``--bot-timeout`` is meant for its moves."""


def is_timeout(value: object) -> bool:
    """Is ``value`` a wait in seconds within (0, :data:`MAX_TIMEOUT_SECONDS`]? (An int or a float,
    never a bool; NaN and infinity are not.) Each caller raises its own error, naming its field."""
    return (not isinstance(value, bool) and isinstance(value, int | float)
            and 0 < value <= MAX_TIMEOUT_SECONDS)
