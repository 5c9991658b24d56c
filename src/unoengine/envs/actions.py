"""One action encoding for every framework: each move a player can make as a fixed integer.

An :class:`ActionEncoding` is made for a profile and a player count and numbers every move the
engine can list under that profile, from the actor's seat: targets and catches name players
*relative* to the actor (+1 is the next seat clockwise), so the same index means the same
decision in every seat. Index 0 is ``WAIT``: let an out-of-turn moment pass (the move None). The
table is plain Python (no numpy): ``index(move)`` and ``move(index, player)`` are exact inverses
on every legal move, and ``mask(view)`` marks the legal actions of the viewing player.

Layout (docs/rl.md has the table): ``WAIT``, ``Draw``, ``Pass``, ``Challenge``, ``Accept``,
``CallUno``, ``NextRound``, ``ChooseColor`` red/yellow/green/blue, ``CatchUno`` of seats +1..+(n-1),
then one ``Play`` per card kind in the deck (by card code), per target (seats +1..+(n-1) for a
card that names a player: Swap Hands ACT-7, seven-zero's 7 HOUSE-3, a targeted custom effect
ACT-8), per colour for a wild (ACT-4), without and with the UNO call (UNO-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from ..engine.cards import CARDS, COLOR_LETTERS, IS_WILD, NUM_CARD_CODES
from ..engine.errors import UnoEngineError
from ..engine.legality import takes_target
from ..engine.moves import (
    ACCEPT,
    CALL_UNO,
    CATCH_UNO,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    MAX_PLAYERS,
    NEXT_ROUND,
    PASS,
    Move,
    targeted_play,
    untargeted_play,
)
from ..engine.profile import Profile
from ..engine.view import PlayerView

WAIT: Final = 0
"""The action that lets an out-of-turn moment pass: ``move(WAIT, p)`` is None."""


class ActionError(UnoEngineError):
    """An action index or a move that the encoding of this table does not have."""


@attrs.frozen
class Action:
    """One row of the table: what the index means, with seats relative to the actor."""

    kind: str
    """``wait``, ``draw``, ``pass``, ``challenge``, ``accept``, ``call-uno``, ``next-round``,
    ``choose-color``, ``catch-uno`` or ``play``."""
    card: int | None = None
    color: int | None = None
    seat: int | None = None
    """For ``catch-uno`` and a targeted ``play``: the other player, 1..n-1 seats after the actor."""
    uno: bool = False

    def __str__(self) -> str:
        if self.kind == "choose-color":
            return f"choose-color {COLOR_LETTERS[self.color or 0]}"
        if self.kind == "catch-uno":
            return f"catch-uno +{self.seat}"
        if self.kind != "play":
            return self.kind
        text = f"play {CARDS[self.card or 0]!r}"
        if self.color is not None:
            text += f":{COLOR_LETTERS[self.color]}"
        if self.seat is not None:
            text += f" >+{self.seat}"
        return text + ("!" if self.uno else "")


_FIXED: Final = (
    Action("wait"), Action("draw"), Action("pass"), Action("challenge"), Action("accept"),
    Action("call-uno"), Action("next-round"),
    *(Action("choose-color", color=k) for k in range(4)),
)


def _plays(profile: Profile, num_players: int) -> list[Action]:
    out = []
    for code in range(NUM_CARD_CODES):
        if not profile.play_deck[code]:
            continue
        seats: Sequence[int | None] = range(1, num_players) if takes_target(profile, code) else (None,)
        colors: Sequence[int | None] = range(4) if IS_WILD[code] else (None,)
        out += [Action("play", code, k, s, uno) for s in seats for k in colors for uno in (False, True)]
    return out


class ActionEncoding:
    """The fixed action table of one profile and player count (``size`` actions)."""

    def __init__(self, profile: Profile, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
            raise ActionError(f"num_players: expected 2..{MAX_PLAYERS}, got {num_players!r}")
        self.profile = profile
        self.num_players = num_players
        n = num_players
        catches = [Action("catch-uno", seat=s) for s in range(1, n)]
        self.actions: tuple[Action, ...] = (*_FIXED, *catches, *_plays(profile, n))
        self.size = len(self.actions)
        # moves[player][index]: the absolute move of each action for each seat (None for WAIT).
        self._moves: tuple[tuple[Move | None, ...], ...] = tuple(
            tuple(_absolute(a, p, n) for a in self.actions) for p in range(n)
        )
        self._index: dict[Move, int] = {
            m: i for row in self._moves for i, m in enumerate(row) if m is not None
        }
        # The same by object identity: legal_moves hands out the engine's interned moves, which
        # this table holds too (so their ids stay unique), and an id is cheaper to hash than a move.
        self._by_id: dict[int, int] = {id(m): i for m, i in self._index.items()}

    def __repr__(self) -> str:
        return f"ActionEncoding({self.profile.name!r}, {self.num_players} players, {self.size} actions)"

    def __reduce__(self) -> tuple[type[ActionEncoding], tuple[Profile, int]]:
        # Made anew where it is unpickled (or copied): ``_by_id`` holds the ids of this process's
        # move objects, which mean nothing in another process, and its copies of the moves would
        # not be the engine's own objects there.
        return ActionEncoding, (self.profile, self.num_players)

    def move(self, index: int, player: int) -> Move | None:
        """The move ``player`` makes with action ``index`` (None for ``WAIT``)."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise ActionError(f"player: expected a seat 0..{self.num_players - 1}, got {player!r}")
        if type(index) is not int or not 0 <= index < self.size:
            index = plain_int(index, self.size)
        return self._moves[player][index]

    def index(self, move: Move | None) -> int:
        """The action of ``move`` (``WAIT`` for None); ActionError for a move outside the table."""
        if move is None:
            return WAIT
        try:
            return self._index[move]
        except (KeyError, TypeError):
            raise ActionError(f"move: {move!r} has no action in {self!r}") from None

    def row(self, player: int) -> tuple[Move | None, ...]:
        """The move of every action for ``player``: ``row(p)[i] == move(i, p)``."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise ActionError(f"player: expected a seat 0..{self.num_players - 1}, got {player!r}")
        return self._moves[player]

    def legal_actions(self, moves: Iterable[Move], *, wait: bool = False) -> list[int]:
        """The sorted actions of ``moves`` (a view's legal moves), with ``WAIT`` first if ``wait``."""
        if type(moves) is not tuple:
            moves = tuple(moves)
        by_id = self._by_id
        try:  # the engine's own moves, found by id
            found = [by_id[id(m)] for m in moves]  # (fewer steps than a chain of maps)
            found.sort()
        except KeyError:  # a move built elsewhere: by value
            index = self._index
            try:
                found = sorted(index[m] for m in moves)
            except (KeyError, TypeError):
                bad = next(m for m in moves if m not in index)
                raise ActionError(f"move: {bad!r} has no action in {self!r}") from None
        if wait:
            found.insert(0, WAIT)  # WAIT is action 0
        return found

    def mask(self, view: PlayerView, *, wait: bool = False) -> bytearray:
        """1 for each legal action of the viewing player, 0 elsewhere (``WAIT`` set if ``wait``)."""
        out = bytearray(self.size)
        index = self._index
        for m in view.legal_moves:
            out[index[m]] = 1
        if wait:
            out[WAIT] = 1
        return out

    def describe(self, index: int) -> str:
        """A short text of the action (``play W:R!``, ``catch-uno +2``)."""
        return str(self.actions[plain_int(index, self.size)])


def plain_int(value: object, size: int) -> int:
    """An action index ``0 <= i < size`` from ``value``: accept numpy integers and the like
    (anything with ``__index__``), refuse the rest."""
    try:
        if isinstance(value, bool):
            raise TypeError
        i = value.__index__()  # type: ignore[attr-defined]
    except (AttributeError, TypeError):
        raise not_an_action(value, size) from None
    if not 0 <= i < size:
        raise not_an_action(value, size)
    return int(i)


def not_an_action(value: object, size: int) -> ActionError:
    """The error for ``value`` given as an action of a space of ``size``."""
    return ActionError(f"action: expected an index 0..{size - 1}, got {value!r}")


def _absolute(a: Action, p: int, n: int) -> Move | None:
    """The move of action ``a`` made by seat ``p`` of ``n``."""
    kind = a.kind
    if kind == "play":
        assert a.card is not None
        target = (p + a.seat) % n if a.seat is not None else None
        color = a.color if a.color is not None else -1
        if target is None:
            return untargeted_play(p, a.card, color, a.uno)
        return targeted_play(p, a.card, color, target, a.uno)
    simple: dict[str, tuple[Move, ...] | None] = {
        "wait": None, "draw": DRAW, "pass": PASS, "challenge": CHALLENGE, "accept": ACCEPT,
        "call-uno": CALL_UNO, "next-round": NEXT_ROUND,
    }
    if kind in simple:
        row = simple[kind]
        return None if row is None else row[p]
    if kind == "choose-color":
        return CHOOSE_COLOR[p][a.color or 0]
    assert kind == "catch-uno" and a.seat is not None
    return CATCH_UNO[p][(p + a.seat) % n]

