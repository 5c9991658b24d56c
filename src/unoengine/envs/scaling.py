"""Scaled observations (``scaled=True``): every feature of the shared encoding in [0, 1].

The unscaled vector holds counts (cards in a hand, in the draw pile), a pending draw and match
scores, which reach 108 and over 1,000 where the flags are 0 or 1; a network learns more easily
from features of one range. The scaled vector divides each entry by its upper bound,
:meth:`~unoengine.envs.observations.ObservationEncoding.high` (docs/rl.md has the table of
scales), so a flag stays a flag and a count becomes a fraction of its most. A value above its
bound, which no dealt game reaches (a position built by hand with ``from_position`` may), is
clipped to 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .extras import require
from .observations import ObservationEncoding

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_np: Any = require("numpy", "rl")

SCALE_MEANINGS: Final = {
    "hand": "copies of that card kind in the deck",
    "discard": "copies of that card kind in the deck",
    "known": "copies of that card kind in the deck",
    "hand_sizes": "the deck's size (cards)",
    "draw_pile": "the deck's size (cards)",
    "pending_draw": "every Draw card of the deck stacked (HOUSE-1), at least 6",
    "passes": "the number of players (a full round of passes blocks the round, PLAY-7)",
    "scores": "the target score plus the most one round can score (SCORE-2..4)",
}
"""What each segment that is not a flag is divided by; every other segment is one-hot or a flag (1)."""


class ObservationScaler:
    """Divides an encoding's observations by their bounds: :meth:`__call__` scales one vector."""

    def __init__(self, encoding: ObservationEncoding) -> None:
        self.encoding = encoding
        self.scales: npt.NDArray[np.float32] = encoding.high()
        """The divisor of every entry (the unscaled ``Box`` space's upper bounds)."""
        self._inverse = (1.0 / self.scales).astype(_np.float32)

    def __call__(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``observation / scales``, clipped to 1, as a new float32 vector."""
        out = observation * self._inverse
        _np.minimum(out, 1.0, out=out)
        return out  # type: ignore[no-any-return]

    def high(self) -> npt.NDArray[np.float32]:
        """The scaled space's upper bounds: 1 everywhere."""
        return _np.ones(self.encoding.size, dtype=_np.float32)  # type: ignore[no-any-return]

    def table(self) -> list[tuple[str, str, str]]:
        """(segment, scale, meaning) for each segment, the scale as its distinct values."""
        rows = []
        for s in self.encoding.layout:
            values = sorted({float(v) for v in self.scales[s.offset:s.offset + s.length]})
            text = ", ".join(f"{v:g}" for v in values)
            rows.append((s.name, text, SCALE_MEANINGS.get(s.name, "1 (one-hot or a flag)")))
        return rows
