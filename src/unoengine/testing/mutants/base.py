"""What every mutant is made of: the :class:`Mutant` value, the registry of mutants, and
patching one engine attribute (a function, a transition handler, a table) while a mutant is
active, putting it back afterwards even after an exception.

The patches are process-wide (module attributes and tables), so use one mutant at a time and
never from several threads. Each names its ``seam`` (the attribute it patches); when the engine's
internals move, a mutant whose seam is gone raises :class:`MutantSeamError` instead of silently
testing nothing, and its docstring says what it breaks, so it can be pointed at the new place.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from types import ModuleType
from typing import Any

import attrs

from ...engine import dealing, draft, legality, transition
from ...engine.cards import IS_WILD, SYMBOL_OF, Card
from ...engine.errors import UnoEngineError
from ...engine.moves import Move
from ...engine.profile import Profile
from ...engine.state import GameState

Handler = Callable[[GameState, Move, Any], GameState]
"""A transition handler: state, move and the event log (or None)."""


class MutantError(UnoEngineError):
    """A mutant that cannot be had: a name no mutant has (or, as MutantSeamError, a seam that moved)."""


class MutantSeamError(MutantError):
    """A mutant's seam (the engine attribute it patches) is gone: the engine's internals moved."""


@attrs.frozen
class Mutant:
    """One deliberately wrong rule. ``active()`` is a context manager: inside it the engine is
    wrong in exactly this way; on leaving it the engine is restored, even after an exception."""

    name: str
    rules: tuple[str, ...]
    """The rule IDs it breaks, main one first."""
    seam: str
    """Where it patches the engine (``module.attribute``), to re-point it if that moves."""
    description: str
    make: Callable[[], AbstractContextManager[None]] = attrs.field(repr=False)

    def active(self) -> AbstractContextManager[None]:
        return self.make()


MUTANTS: list[Mutant] = []
"""Every mutant, ordered by the rule it breaks (the package sorts them once all are defined)."""


Body = Callable[[], Iterator[None]]
"""A mutant's body: a generator that patches the engine, yields once, and restores it."""


def mutant(name: str, *rules: str, seam: str) -> Callable[[Body], Body]:
    """Register a generator as a mutant; its docstring is the mutant's description."""

    def register(body: Body) -> Body:
        MUTANTS.append(Mutant(name, rules, seam, inspect.cleandoc(body.__doc__ or ""), contextmanager(body)))
        return body

    return register


def by_name(name: str) -> Mutant:
    """The mutant called ``name`` (:class:`MutantError` lists the names when there is none)."""
    for m in MUTANTS:
        if m.name == name:
            return m
    raise MutantError(f"there is no mutant {name!r}; known: {', '.join(m.name for m in MUTANTS)}")


# --- patching ---------------------------------------------------------------------------------
def original(module: ModuleType, name: str, key: Any = None) -> Any:
    """The engine's current ``module.name`` (or ``module.name[key]``), or MutantSeamError."""
    if not hasattr(module, name):
        raise MutantSeamError(f"{module.__name__} has no {name}: the engine moved; re-point the mutant")
    value = getattr(module, name)
    if key is None:
        return value
    if not isinstance(value, dict) or key not in value:
        raise MutantSeamError(f"{module.__name__}.{name} has no entry {key!r}: the engine moved; re-point the mutant")
    return value[key]


@contextmanager
def replaced(owner: Any, name: str, value: Any) -> Iterator[None]:
    """``owner.name`` is ``value`` inside; the legality memo is emptied on the way in and out, so
    no list of legal moves made by one engine is trusted by the other."""
    if not hasattr(owner, name):
        raise MutantSeamError(f"{owner.__name__} has no {name}: the engine moved; re-point the mutant")
    old = getattr(owner, name)
    setattr(owner, name, value)
    legality.forget_legal_moves()
    try:
        yield
    finally:
        setattr(owner, name, old)
        legality.forget_legal_moves()


@contextmanager
def replaced_item(module: ModuleType, name: str, key: Any, value: Any) -> Iterator[None]:
    """``module.name[key]`` (a dict the engine looks entries up in) is ``value`` inside."""
    table = original(module, name)
    old = original(module, name, key)
    table[key] = value
    legality.forget_legal_moves()
    try:
        yield
    finally:
        table[key] = old
        legality.forget_legal_moves()


def evolve(state: GameState, **changes: Any) -> GameState:
    return attrs.evolve(state, **changes)


def turn_rules(change: Callable[[Profile, int, int, int, int], tuple[int, int] | None]) -> Iterator[None]:
    """Patch ``transition.turn_after`` (who plays next after a card): ``change`` returns the wrong
    (current, direction), or None to keep the engine's answer."""
    real: Callable[[Profile, int, int, int, int], tuple[int, int]] = original(transition, "turn_after")

    def turn_after(profile: Profile, n: int, p: int, direction: int, symbol: int) -> tuple[int, int]:
        wrong = change(profile, n, p, direction, symbol)
        return real(profile, n, p, direction, symbol) if wrong is None else wrong

    with replaced(transition, "turn_after", turn_after):
        yield


After = Callable[[GameState, Move, GameState, Any], GameState]
"""``after(before, move, new, log)``: the wrong next state from the right one (``log`` as given)."""


def wrapped_handler(move_type: type, after: After) -> Iterator[None]:
    """Patch the transition handler of ``move_type`` with ``after`` applied to its result."""
    real: Handler = original(transition, "_HANDLERS", move_type)

    def handler(state: GameState, move: Move, log: Any) -> GameState:
        return after(state, move, real(state, move, log), log)

    with replaced_item(transition, "_HANDLERS", move_type, handler):
        yield


def draw_counts(change: Mapping[str, Callable[[int], int]]) -> Iterator[None]:
    """Patch ``Draft.draw`` (every draw the rules make, named by the rule that makes it): a draw
    made under a rule of ``change`` takes the wrong number of cards."""
    real = original(draft, "Draft").draw

    def draw(self: draft.Draft, player: int, count: int, rule: str, *, report: bool = True) -> list[Card]:
        wrong = change[rule](count) if rule in change else count
        result: list[Card] = real(self, player, wrong, rule, report=report)
        return result

    with replaced(draft.Draft, "draw", draw):
        yield


def first_card_rules(after: Callable[[GameState, int], GameState]) -> Iterator[None]:
    """Patch ``dealing._first_card`` (turning the first card, SETUP-3..10): ``after(state, dealer)``
    gives the wrong start of the round from the right one."""
    real: Callable[[draft.Draft, int], GameState] = original(dealing, "_first_card")

    def first_card(d: draft.Draft, dealer: int) -> GameState:
        return after(real(d, dealer), dealer)

    with replaced(dealing, "_first_card", first_card):
        yield


def is_symbol(card: int, symbol: int) -> bool:
    return not IS_WILD[card] and SYMBOL_OF[card] == symbol
