"""The tools of ``unoengine mcp``: their names, descriptions and JSON schemas, each call's
arguments checked, and each answer as text for a language model plus the same as JSON. Nothing
of MCP is in here (tools/mcp_server.py puts these on the wire), so all of it is testable alone.

Every answer is built from the agent's :class:`~unoengine.PlayerView` (tools/agent_games.py):
its prompt (formats/prompt_text.py), its view document (formats/serialize), its legal moves
with their labels, notation and move documents, and the moves in words as the agent saw them.

:func:`answer_call` never raises: a refused call (a bad argument, named; an unknown game; an
illegal move) is an error answer with a message written for the agent; anything unexpected is an
error answer naming only the tool, its traceback logged on the server's stderr, so no exception
text (which might show a state) ever reaches a client.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from ..engine.errors import one_line, shown
from ..engine.limits import MAX_OPEN_GAMES, MAX_PLAYERS, MAX_TOOL_TEXT_CHARS
from ..engine.moves import Move
from ..engine.view import PlayerView
from ..formats.notation import format_move
from ..formats.prompt_text import ANSWER_HINT, WAIT_LABEL, prompt_json, prompt_text
from ..formats.serialize import to_json
from .agent_games import (
    DEFAULT_OPPONENT,
    DEFAULT_PLAYERS,
    DEFAULT_PROFILE,
    SHIPPED_BOTS,
    AgentGame,
    AgentGameError,
    GameDesk,
)

_log = logging.getLogger("unoengine.mcp")

HOW_TO_MOVE: Final = ('play_move with this game_id and a move: a label such as "1", the notation such as '
                      '"R7" or "W:G!" (a colour after \':\' names it, \'!\' calls UNO), or "wait" to let an '
                      "out-of-turn moment pass")


@attrs.frozen
class ToolSpec:
    """One tool as a client lists it."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    read_only: bool
    """Does a call leave every game as it was (a client may call it freely)?"""


@attrs.frozen
class ToolAnswer:
    """A call's answer: ``text`` for the model to read, ``data`` the same as JSON (None for an error)."""

    text: str
    data: dict[str, Any] | None
    error: bool = False


# --- schemas --------------------------------------------------------------------------------------
_TEXT: Final[dict[str, Any]] = {"type": "string", "maxLength": MAX_TOOL_TEXT_CHARS}
_GAME_ID: Final[dict[str, Any]] = {**_TEXT, "description": "The id start_game gave, such as \"g1\"."}
_SEAT: Final[dict[str, Any]] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_SEATS: Final[dict[str, Any]] = {"type": "array", "items": {"type": "integer"}}
_NULLABLE_INT: Final[dict[str, Any]] = {"type": ["integer", "null"]}
_LAST_ROUND: Final[dict[str, Any]] = {
    "type": ["object", "null"],
    "description": "The last round's end: its winner, whether it was blocked (PLAY-7), the points each hand "
                   "held and each player won (SCORE-1..4).",
    "properties": {"winner": {"type": "integer"}, "blocked": {"type": "boolean"}, "hand_points": _SEATS,
                   "points_won": _SEATS},
}
_RESULT: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "game_id": {"type": "string"},
        "over": {"type": "boolean"},
        "status": {"enum": ["your_turn", "out_of_turn", "over"]},
        "seat": _SEAT,
        "profile": {"type": "string"},
        "players": {"type": "integer"},
        "opponents": {"type": "array", "items": {"type": "string"}},
        "match": {"type": "boolean"},
        "winner": {**_NULLABLE_INT, "description": "The round's winner (the match's, for a match); null until "
                                                  "it is over, and for a stopped game."},
        "you_won": {"type": ["boolean", "null"]},
        "scores": _SEATS,
        "round": {"type": "integer"},
        "last_round": _LAST_ROUND,
        "moves": {"type": "integer", "description": "Moves made in the game, by every player."},
        "stopped": {"type": ["string", "null"], "description": "Why the game ended without a result, if it did."},
        "seed": {"type": ["string", "null"], "description": "The deal's seed in decimal digits: the one given, "
                                                          "else told once the game is over."},
    },
    "required": ["game_id", "over", "status", "seat", "winner", "scores", "last_round", "moves", "seed"],
}
_MOVES: Final[dict[str, Any]] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "move": {"type": "string", "description": "The move in the project's notation (docs/api.md)."},
            "text": {"type": "string"},
            "json": {"type": "object", "description": "The move document (formats/serialize)."},
        },
        "required": ["label", "move", "text", "json"],
    },
}
_GAME: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "game_id": {"type": "string"},
        "status": {"enum": ["your_turn", "out_of_turn", "over"],
                   "description": "your_turn: you must move; out_of_turn: you may act now or wait; over."},
        "player": _SEAT,
        "prompt": {"type": "string", "description": "Your view as text, with your legal moves and their labels."},
        "view": {"type": "object", "description": "Your view document (unoengine.serialize, kind \"view\")."},
        "legal_moves": _MOVES,
        "may_wait": {"type": "boolean"},
        "recent": {"type": "array", "items": {"type": "string"}},
        "answer": {"type": "string"},
        "result": {"anyOf": [_RESULT, {"type": "null"}]},
    },
    "required": ["game_id", "status", "player", "prompt", "view", "legal_moves", "may_wait", "recent", "result"],
}
_PLAYED: Final[dict[str, Any]] = {
    **_GAME,
    "properties": {
        **_GAME["properties"],
        "played": {"type": ["string", "null"], "description": "Your move in notation; null if you waited."},
        "events": {"type": "array", "items": {"type": "string"},
                   "description": "Every move since yours (yours first), in words, as you saw them."},
    },
    "required": [*_GAME["required"], "played", "events"],
}


def _input(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


_GAME_ONLY: Final[dict[str, Any]] = _input({"game_id": _GAME_ID}, ("game_id",))

TOOLS: Final = (
    ToolSpec(
        "start_game", "Start a game of UNO",
        "Start a game of UNO against the shipped bots and get its id and your first view. You move with "
        "play_move; the bots move by themselves until you have a decision: your turn, or a moment out of turn "
        "when you may catch a player who did not call UNO, call UNO late, or jump in (you may also wait). "
        "Several games may be open at once, each with its own id.",
        _input({
            "profile": {**_TEXT, "default": DEFAULT_PROFILE,
                        "description": "The rules: a shipped profile (classic-108, gdj85, ...), optionally with "
                                       "shipped house-rule overlays joined by '+' (classic-108+stacking), or a "
                                       "profile this server was started with."},
            "players": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS, "default": DEFAULT_PLAYERS,
                        "description": "Players at the table, you included."},
            "seat": {**_SEAT, "default": 0, "description": "Your seat, 0-based (p0 is seat 0)."},
            "opponents": {"anyOf": [{"enum": list(SHIPPED_BOTS)},
                                    {"type": "array", "items": {"enum": list(SHIPPED_BOTS)},
                                     "maxItems": MAX_PLAYERS - 1}],
                          "default": DEFAULT_OPPONENT,
                          "description": "The bot at every other seat, or a list of one per other seat in seat "
                                         "order. heuristic plays well, random plays any legal move, ismcts "
                                         "searches (slower)."},
            "seed": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
                               {"type": "string", "pattern": "^[0-9]{1,20}$"}, {"type": "null"}],
                     "default": None,
                     "description": "Fixes the deal, so a game can be played again; whoever knows it knows the "
                                    "deal. Leave it out for a deal nobody knows (its seed is told once the game "
                                    "is over)."},
            "match": {"type": "boolean", "default": False,
                      "description": "Play rounds until someone reaches the target score (default: one round)."},
        }),
        _GAME, read_only=False,
    ),
    ToolSpec("get_view", "Your view of a game",
             "Your view of a game: your hand, the top card and colour, every hand's size, whose turn, open "
             "challenges or catches, the last moves, and your legal moves with their labels, as text and JSON.",
             _GAME_ONLY, _GAME, read_only=True),
    ToolSpec("legal_moves", "Your legal moves",
             "Your legal moves in a game, each with its label, its notation, what it does in words and its "
             "move document; may_wait says whether you may let this moment pass (\"wait\").",
             _GAME_ONLY,
             {"type": "object",
              "properties": {"game_id": {"type": "string"},
                             "status": {"enum": ["your_turn", "out_of_turn", "over"]},
                             "may_wait": {"type": "boolean"}, "legal_moves": _MOVES},
              "required": ["game_id", "status", "may_wait", "legal_moves"]},
             read_only=True),
    ToolSpec("play_move", "Play a move",
             "Make your move in a game: a label from your legal moves (\"1\"), the move's notation (\"R7\", "
             "\"W:G!\", \"p0 draw\"), \"wait\" to let an out-of-turn moment pass, a move in brackets inside free "
             "text (\"... so I play [R7]\"), or a move document {\"move\": \"p0 R7\"}. The bots then move until "
             "your next decision; you get every move since in words and your new view. An illegal move is "
             "refused with the reason and the game stays as it was.",
             _input({"game_id": _GAME_ID,
                     "move": {"anyOf": [_TEXT, {"type": "object", "properties": {"move": _TEXT},
                                                "required": ["move"]}],
                              "description": "Your move: a label, the notation, \"wait\", or {\"move\": ...}."}},
                    ("game_id", "move")),
             _PLAYED, read_only=False),
    ToolSpec("get_result", "A game's result",
             "A game's result: whether it is over, the winner, the scores and the last round's points, and "
             "the seed of its deal once it is over. A game not over yet gives the scores so far.",
             _GAME_ONLY, _RESULT, read_only=True),
    ToolSpec("end_game", "End a game",
             "End a game, over or not, and forget it (its result is given one last time). Frees its place: a "
             f"server keeps at most {MAX_OPEN_GAMES} games open.",
             _GAME_ONLY, _RESULT, read_only=False),
    ToolSpec("list_games", "Your games",
             "The games this server holds: each open game's id and status, and the finished games kept.",
             _input({}),
             {"type": "object",
              "properties": {"games": {"type": "array", "items": _RESULT}, "open": {"type": "integer"},
                             "max_open": {"type": "integer"}},
              "required": ["games", "open", "max_open"]},
             read_only=True),
)
TOOLS_BY_NAME: Final = {spec.name: spec for spec in TOOLS}


# --- calls ----------------------------------------------------------------------------------------
def answer_call(desk: GameDesk, name: object, arguments: object) -> ToolAnswer:
    """The answer to one call; never raises (see the module docstring)."""
    try:
        return call_tool(desk, name, arguments)
    except AgentGameError as exc:
        return ToolAnswer(one_line(exc), None, error=True)
    except Exception:  # a bug or a failure inside: the client learns only which tool failed
        tool = name if isinstance(name, str) and name in TOOLS_BY_NAME else "the tool"
        _log.exception("%s failed", tool)
        return ToolAnswer(f"{tool} failed on the server (its log says why); the game may be left as it was",
                          None, error=True)


def call_tool(desk: GameDesk, name: object, arguments: object) -> ToolAnswer:
    """One call: AgentGameError (safe to show) for a refused one."""
    spec = TOOLS_BY_NAME.get(name) if isinstance(name, str) else None
    if spec is None:
        raise AgentGameError(f"no tool {shown(name)}; the tools: {', '.join(TOOLS_BY_NAME)}")
    args = checked_arguments(spec, arguments)
    return _HANDLERS[spec.name](desk, args)


def checked_arguments(spec: ToolSpec, arguments: object) -> dict[str, object]:
    """The arguments as an object of the tool's argument names, each text within
    MAX_TOOL_TEXT_CHARS, the required ones there; AgentGameError naming the argument otherwise.
    The values themselves are checked where they are used (tools/agent_games.py)."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise AgentGameError(f"arguments: expected an object, got {shown(arguments)}")
    known = spec.input_schema["properties"]
    for key, value in arguments.items():
        if key not in known:
            names = ", ".join(known) or "none"
            raise AgentGameError(f"{shown(key)}: not an argument of {spec.name} (its arguments: {names})")
        _check_text(value, key)
        if isinstance(value, list):
            for item in value[:MAX_PLAYERS + 1]:
                _check_text(item, key)
        elif isinstance(value, dict):
            for item in value.values():
                _check_text(item, key)
    for key in spec.input_schema["required"]:
        if key not in arguments:
            raise AgentGameError(f"{key}: missing; {spec.name} needs {', '.join(spec.input_schema['required'])}")
    return arguments


def _check_text(value: object, field: str) -> None:
    if isinstance(value, str) and len(value) > MAX_TOOL_TEXT_CHARS:
        raise AgentGameError(f"{field}: a text of {len(value):,} characters is longer than the "
                             f"{MAX_TOOL_TEXT_CHARS:,} taken")


def _start_game(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    game = desk.start(args.get("profile", DEFAULT_PROFILE), args.get("players", DEFAULT_PLAYERS),
                      args.get("seat", 0), args.get("opponents", DEFAULT_OPPONENT), args.get("seed"),
                      args.get("match", False))
    seats = ", ".join(f"p{q} {name}" for q, name in game.opponents_by_seat.items())
    head = (f"Game {game.game_id} started: {game.profile.name}, {game.players} players, "
            f"{'a match to ' + str(game.profile.target_score) + ' points' if game.match else 'one round'}; "
            f"you are p{game.seat}, against {seats}.")
    doc = game_document(game)
    return ToolAnswer(head + "\n" + _game_text(game, doc), doc)


def _get_view(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    game = desk.game(args["game_id"])
    doc = game_document(game)
    return ToolAnswer(_game_text(game, doc), doc)


def _legal_moves(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    game = desk.game(args["game_id"])
    doc = game_document(game)
    data = {key: doc[key] for key in ("game_id", "status", "may_wait", "legal_moves")}
    lines = [f"[{m['label']}] {m['move']:<16} {m['text']}" for m in doc["legal_moves"]]
    if doc["may_wait"]:
        lines.append(f"[{WAIT_LABEL}] {'wait':<16} let the moment pass")
    head = f"Game {game.game_id}: " + ("it is over; no moves." if game.over else f"{_status_words(game)}. Your moves:")
    return ToolAnswer("\n".join([head, *lines]), data)


def _play_move(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    answer = args["move"]
    if isinstance(answer, dict):
        extra = [key for key in answer if key not in ("move", "unoengine", "version")]
        if extra or not isinstance(answer.get("move"), str):
            raise AgentGameError('move: a move object is {"move": "<label or notation>"}, such as a move document')
        answer = answer["move"]
    elif not isinstance(answer, str):
        raise AgentGameError(f"move: expected a label, a move in notation or {{\"move\": ...}}, got {shown(answer)}")
    game, move, lines = desk.play(args["game_id"], answer)
    doc = game_document(game)
    doc["played"] = None if move is None else format_move(move)
    doc["events"] = lines
    said = "\n".join(lines) if lines else "(nothing happened)"
    return ToolAnswer(f"{said}\n\n{_game_text(game, doc)}", doc)


def _get_result(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    game = desk.game(args["game_id"])
    doc = result_document(game)
    return ToolAnswer(_result_text(game, doc), doc)


def _end_game(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    game = desk.end(args["game_id"])
    doc = result_document(game)
    return ToolAnswer(f"Game {game.game_id} ended and forgotten. " + _result_text(game, doc), doc)


def _list_games(desk: GameDesk, args: Mapping[str, object]) -> ToolAnswer:
    games = [*desk.open_games(), *desk.finished_games()]
    docs = [result_document(game) for game in games]
    lines = [f"{g.game_id}: {g.profile.name}, {g.players} players, you are p{g.seat}: {_status_words(g)}"
             for g in games]
    open_count = len(desk.open_games())
    head = f"{open_count} open game(s) of at most {desk.max_open}; {len(desk.finished_games())} finished kept."
    return ToolAnswer("\n".join([head, *lines]), {"games": docs, "open": open_count, "max_open": desk.max_open})


_HANDLERS: Final[dict[str, Callable[[GameDesk, Mapping[str, object]], ToolAnswer]]] = {
    "start_game": _start_game, "get_view": _get_view, "legal_moves": _legal_moves, "play_move": _play_move,
    "get_result": _get_result, "end_game": _end_game, "list_games": _list_games,
}


# --- documents and texts: from the agent's view alone -----------------------------------------------
def game_document(game: AgentGame) -> dict[str, Any]:
    """A game as its agent sees it: the prompt (text), the view document, the labelled legal moves
    with their move documents, whether it may wait, the last moves, and the result once over."""
    v = game.view()
    doc = prompt_json(v, game.recent)
    for entry, move in zip(doc["legal_moves"], v.legal_moves, strict=True):
        entry["json"] = move_document(move)
    if game.over:  # no decision is left: nothing to play, nothing to wait for
        doc["legal_moves"], doc["may_wait"] = [], False
    doc["answer"] = HOW_TO_MOVE
    return {"game_id": game.game_id, "status": game.status, **doc, "prompt": game_prompt(game, v),
            "result": result_document(game) if game.over else None}


def game_prompt(game: AgentGame, v: PlayerView) -> str:
    """The agent's prompt (formats/prompt_text.py), its last line telling how to answer with a tool."""
    text = prompt_text(v, game.recent).removesuffix(ANSWER_HINT).rstrip("\n")
    return f"{text}\nTo move: {HOW_TO_MOVE} (game_id \"{game.game_id}\")."


def move_document(move: Move) -> dict[str, Any]:
    return to_json(move)


def result_document(game: AgentGame) -> dict[str, Any]:
    """A game's result (or its scores so far), from the agent's view and the desk's own records."""
    v = game.view()
    last = v.last_round
    winner: int | None = None
    if game.over and game.stopped is None:
        winner = v.match_winner if game.match else (last.winner if last is not None else None)
    seed = game.shown_seed
    return {
        "game_id": game.game_id, "over": game.over, "status": game.status, "seat": game.seat,
        "profile": game.profile.name, "players": game.players, "opponents": list(game.opponents),
        "match": game.match, "winner": winner, "you_won": None if winner is None else winner == game.seat,
        "scores": list(v.scores), "round": v.round_number,
        "last_round": None if last is None else {"winner": last.winner, "blocked": last.blocked,
                                                 "hand_points": list(last.hand_points),
                                                 "points_won": list(last.points_won)},
        "moves": len(game.moves), "stopped": game.stopped, "seed": None if seed is None else str(seed),
    }


def _status_words(game: AgentGame) -> str:
    if game.over:
        return "over"
    return "your turn" if game.status == "your_turn" else "you may act out of turn now, or wait"


def _game_text(game: AgentGame, doc: Mapping[str, Any]) -> str:
    if game.over:
        return _result_text(game, doc["result"])
    return str(doc["prompt"])


def _result_text(game: AgentGame, doc: Mapping[str, Any]) -> str:
    scores = ", ".join(f"p{p} {s}" for p, s in enumerate(doc["scores"]))
    if not game.over:
        return f"Game {game.game_id} is not over ({_status_words(game)}). Scores so far: {scores}."
    if game.stopped is not None:
        return f"Game {game.game_id} is over without a result: {game.stopped}."
    what = "match" if game.match else "round"
    outcome = "you won" if doc["you_won"] else "you lost"
    text = f"Game {game.game_id} is over: p{doc['winner']} won the {what} (you are p{game.seat}: {outcome})."
    last = doc["last_round"]
    if last is not None:
        text += " Last round's points won: " + ", ".join(f"p{p} {s}" for p, s in enumerate(last["points_won"]))
        text += " (blocked round: the lowest hand won)." if last["blocked"] else "."
    text += f" Scores: {scores}."
    if doc["seed"] is not None:
        text += f" Seed {doc['seed']} (the deal can be played again from it)."
    return text

