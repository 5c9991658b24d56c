"""Effects of the Wild Customizable and of blank cards in play (ACT-8, DECK-4).

A profile names its effect with ``play.custom_effect``; the default ``"wild"`` makes the
card a plain wild. A program adds its own with :func:`register_effect`. An effect is a pure
function ``(state, player, target) -> state`` called after the card is on the discard pile
and its colour named, before the turn passes on; it must keep every card where it can be
counted (hands, draw pile, discard pile) and must not change whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

import attrs

from .cards import Card
from .draft import Draft
from .errors import EffectError
from .events import Event
from .shuffling import DEFAULT_SHUFFLE, shuffled
from .state import GameState

EffectFn = Callable[[GameState, int, "int | None"], GameState]


@attrs.frozen
class CustomEffect:
    """A named effect for customizable and blank cards."""

    name: str
    apply: EffectFn
    needs_target: bool = False
    """True when playing the card names an opponent (the move's ``target``)."""
    description: str = ""


_REGISTRY: dict[str, CustomEffect] = {}


def register_effect(
    name: str, apply: EffectFn, *, needs_target: bool = False, description: str = ""
) -> CustomEffect:
    """Register (or replace) the effect selectable as ``play.custom_effect = name``."""
    if not name or not isinstance(name, str):
        raise ValueError("an effect needs a non-empty name")
    effect = CustomEffect(name, apply, needs_target, description)
    _REGISTRY[name] = effect
    return effect


def get_effect(name: str) -> CustomEffect:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(
            f"no custom effect named {name!r}; registered: {sorted(_REGISTRY)}"
        ) from None


def registered_effects() -> list[str]:
    return sorted(_REGISTRY)


# --- hand exchanges shared by ACT-6, ACT-7 and the built-in effects ------------------------
def swap_hands(
    hands: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]], a: int, b: int
) -> list[tuple[Card, ...]]:
    """ACT-7: ``a`` and ``b`` exchange hands."""
    out = list(hands)
    out[a], out[b] = out[b], out[a]
    return out


def shuffle_hands(
    hands: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]], player: int, seed: int,
    algorithm: str = DEFAULT_SHUFFLE,
) -> tuple[list[tuple[Card, ...]], int]:
    """ACT-6: collect every hand, shuffle, deal one at a time from ``player``'s left.

    RULING (docs/rulings.md): "left" is the seat after the player clockwise whatever the
    direction of play, and dealing goes on round the table until the cards run out, so hand
    sizes end up equal or one apart. ``algorithm`` is the profile's shuffle (``Profile.shuffle``).
    Returns the new hands and the next seed.
    """
    pool = [c for hand in hands for c in hand]
    seed = shuffled(algorithm, seed, pool)
    n = len(hands)
    dealt: list[list[Card]] = [[] for _ in range(n)]
    for i, c in enumerate(pool):
        dealt[(player + 1 + i) % n].append(c)
    return [tuple(sorted(h)) for h in dealt], seed


def _card_total(state: GameState) -> int:
    return sum(len(h) for h in state.hands) + state.draw_pile_size + state.discard[1]


def check_effect_result(name: str, before: GameState, after: GameState) -> None:
    """Hold a custom effect to its contract (ACT-8): a GameState back, cards conserved, every
    player still holding cards, the same player, phase and profile."""
    problem = None
    if not isinstance(after, GameState):
        problem = f"returned {type(after).__name__}, not a GameState"
    elif after.profile != before.profile or len(after.hands) != len(before.hands):
        problem = "changed the profile or the number of players"
    elif after.current != before.current or after.phase is not before.phase:
        problem = "changed whose turn it is or the phase"
    elif _card_total(after) != _card_total(before):
        problem = f"changed the number of cards from {_card_total(before)} to {_card_total(after)}"
    elif not all(after.hands):
        problem = "left a player with no cards (only playing a last card ends a round)"
    if problem:
        raise EffectError(f"custom effect {name!r} broke its contract: {problem}")


_EFFECT_LOG: ContextVar[list[Event] | None] = ContextVar("unoengine_effect_log", default=None)
"""The event log of the move whose effect is running, so the building blocks below report to it."""


def run_effect(effect: CustomEffect, state: GameState, player: int, target: int | None,
               log: list[Event] | None) -> GameState:
    """Run ``effect``; what its building blocks do is reported to ``log`` (apply_with_events)."""
    token = _EFFECT_LOG.set(log)
    try:
        return effect.apply(state, player, target)
    finally:
        _EFFECT_LOG.reset(token)


def draw_cards(state: GameState, player: int, count: int) -> GameState:
    """``player`` draws ``count`` cards, reshuffling the discards when the pile runs out (PLAY-7).

    A building block for effects: it keeps every card counted, changes nothing else, and is
    reported as an event (CardsDrawn, ACT-8) when the move's events were asked for.
    """
    d = Draft(state, _EFFECT_LOG.get())
    d.draw(player, count, "ACT-8")
    return d.freeze()


def _plain_wild(state: GameState, player: int, target: int | None) -> GameState:
    return state


def _others_draw_one(state: GameState, player: int, target: int | None) -> GameState:
    n = len(state.hands)
    for k in range(1, n):  # from the next player on, in the direction of play
        state = draw_cards(state, (player + k * state.direction) % n, 1)
    return state


def _swap_effect(state: GameState, player: int, target: int | None) -> GameState:
    assert target is not None
    return attrs.evolve(state, hands=tuple(swap_hands(state.hands, player, target)))


def _shuffle_effect(state: GameState, player: int, target: int | None) -> GameState:
    hands, seed = shuffle_hands(state.hands, player, state.rng, state.profile.shuffle)
    return attrs.evolve(state, hands=tuple(hands), rng=seed)


BUILT_IN: dict[str, CustomEffect] = {
    "wild": register_effect("wild", _plain_wild, description="A plain wild: name the colour, nothing else."),
    "swap-hands": register_effect(
        "swap-hands", _swap_effect, needs_target=True,
        description="As Wild Swap Hands (ACT-7): exchange hands with a chosen opponent.",
    ),
    "shuffle-hands": register_effect(
        "shuffle-hands", _shuffle_effect,
        description="As Wild Shuffle Hands (ACT-6): collect, shuffle and redeal every hand.",
    ),
    "others-draw-one": register_effect(
        "others-draw-one", _others_draw_one,
        description="Every other player draws one card, starting with the next player.",
    ),
}
"""The effects the project ships, as registered at import: another engine (the compiled one) can
run an effect only while the name still means one of these (a program may register its own under
the same name)."""


def is_built_in(name: str) -> bool:
    """Is ``name`` registered as the shipped effect of that name (not a program's replacement)?"""
    effect = BUILT_IN.get(name)
    return effect is not None and _REGISTRY.get(name) is effect
