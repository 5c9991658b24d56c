"""What writing and reading a document must agree on: the kinds of document, the format
version, and the bounds of the numbers a document may hold.

Kept apart so that :mod:`.writing` and the readers share these values without importing each other.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from ...engine.limits import MAX_COUNT
from ...engine.moves import Move
from ...engine.profile import Profile
from ...engine.state import GameState
from ...engine.view import PlayerView
from ..record import GameRecord

Document: TypeAlias = "Profile | GameState | Move | PlayerView | GameRecord"

FORMAT_VERSION: Final = 1
MAX_INT: Final = MAX_COUNT
"""The largest count or score a document may hold: every JSON reader keeps it exact (the
engine's own limit on a position, :data:`~unoengine.engine.limits.MAX_COUNT`)."""
RNG_LIMIT: Final = 2**64
"""The seed is a 64-bit number, written as a decimal string because it can exceed :data:`MAX_INT`."""
RNG_DIGITS: Final = len(str(RNG_LIMIT - 1))
"""The most digits a seed can have; no longer integer is converted while parsing."""
