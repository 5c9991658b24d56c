"""Games for the differential tests of the compiled engine: every shipped profile and overlay, with the
portable shuffle the kernels run, and the reference states of random and biased-random play.

Biased play leans towards what random play rarely reaches: challenges, catches and late calls,
stacked Draw cards, jump-ins, long draws that empty the pile (PLAY-7 reshuffles) and blocked
rounds; the reference engine makes every state, so each one is a state the rules can reach.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import attrs

import unoengine as u
from unoengine.engine.moves import Accept, CallUno, CatchUno, Challenge, Draw, Move, Pass, Play
from unoengine.engine.shuffling import SPLITMIX64_V1

PROFILES_DIR = Path(__file__).resolve().parents[1] / "profiles"
BASES = tuple(sorted(p.stem for p in PROFILES_DIR.glob("*.toml")))
OVERLAYS = tuple(sorted(p.stem for p in (PROFILES_DIR / "overlays").glob("*.toml")))
COMPOSITIONS = (
    *BASES,
    *(f"classic-108+{o}" for o in OVERLAYS),
    "mattel-42003+stacking+jump-in+seven-zero",
    "ffk04+stacking-cross+draw-to-match+uno-penalty-4",
    "gdj85+jump-in+forced-play+wd4-unrestricted",
    "classic-108+stacking-no-mercy+seven-zero+jump-in+two-player-reverse-skip",
    "classic-108+wd4-first-card-applies+lowest-score",
    "mattel-42003+one-point-per-round+draw-to-match",
)
"""Every shipped base, each overlay on the classic deck, and mixes of several overlays."""

VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    *((spec, {}) for spec in COMPOSITIONS),
    ("ffk04", {"custom_effect": "swap-hands"}),
    ("ffk04+seven-zero", {"custom_effect": "shuffle-hands"}),
    ("gdj85+stacking", {"custom_effect": "others-draw-one"}),
    ("mattel-42003", {"blank_cards": "wild"}),
    ("mattel-42003+jump-in", {"blank_cards": "wild", "custom_effect": "swap-hands"}),
    ("mattel-42003+draw-to-match", {"blank_cards": "wild", "custom_effect": "others-draw-one"}),
    ("classic-108", {"hand_size": 15, "max_players": 6}),
)
"""Every composition, and the built-in custom effects (ACT-8) and blanks played as wilds (DECK-4)."""
VARIANT_IDS = tuple(spec + "".join(f"[{k}={v}]" for k, v in changes.items()) for spec, changes in VARIANTS)


def compiled_profile(spec: str, **changes: object) -> u.Profile:
    """The profile ``spec`` with the shuffle the compiled engine runs (and any other changes)."""
    return attrs.evolve(u.load_profile(spec), shuffle=SPLITMIX64_V1, **changes)


def _weight(move: Move) -> float:
    """Biased play: the rare decisions often, so every phase is reached many times."""
    if isinstance(move, CatchUno | Challenge | CallUno):
        return 6.0
    if isinstance(move, Play) and (move.uno or move.target is not None):
        return 3.0
    if isinstance(move, Draw | Accept | Pass):
        return 1.5
    return 1.0


def pick(rng: random.Random, moves: list[Move], biased: bool) -> Move:
    if not biased:
        return rng.choice(moves)
    return rng.choices(moves, weights=[_weight(m) for m in moves])[0]


def random_states(profile: u.Profile, games: int, seed: int, *, biased: bool = False,
                  max_moves: int = 3000) -> Iterator[tuple[u.GameState, Move | None]]:
    """Each state of ``games`` matches (2 to 6 players, or the profile's range) and the move made
    from it (None for the last state of a match)."""
    rng = random.Random(seed)
    lo, hi = profile.min_players, min(profile.max_players, 6)
    for _ in range(games):
        state = u.new_game(profile, rng.randint(lo, hi), seed=rng.getrandbits(64))
        for _move_number in range(max_moves):
            if state.match_over:
                break
            move = pick(rng, u.legal_moves(state), biased)
            yield state, move
            state = u.apply(state, move)
        yield state, None
