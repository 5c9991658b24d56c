"""JSON documents for profiles, game states, moves, player views and game records: save a game,
send a view to a bot, keep a record.

Every document is a JSON object ``{"unoengine": KIND, "version": 1, ...}`` with KIND one of
``"profile"``, ``"state"``, ``"move"``, ``"view"`` and ``"record"``. Cards are written by name, a hand or a
pile as one string (``"R7 G5 W"``); colours by letter (``R``, ``Y``, ``G``, ``B``); phases by
name; moves in the notation of :mod:`unoengine.notation`; a profile as the nested tables of a
profile file, with its fingerprint beside it.

Loading is meant for untrusted input. Nothing in a document is executed or imported by name
(a custom effect is only looked up in the registry), every field is checked, and one
:class:`SerializationError` lists every problem by field path (``hands[2][3]``,
``match.scores[1]``, ``challenge.victim``; ``cards`` names the DECK-5 count of every pile
together; ``json`` and ``document`` what could not be read at all).

A state document holds only the cards still to draw, so ``from_json(to_json(s))`` equals ``s``
except that its draw pile starts at the next card (``draw_pos`` 0). The loaded state plays
exactly as ``s`` does, and ``to_json(from_json(to_json(s))) == to_json(s)``.
"""

from ...engine.errors import SerializationError
from .documents import from_json, loads
from .spec import FORMAT_VERSION as FORMAT_VERSION  # public too, though not in __all__
from .spec import MAX_INT, RNG_LIMIT
from .spec import Document as Document  # public too, though not in __all__
from .writing import dumps, to_json

__all__ = ["MAX_INT", "RNG_LIMIT", "SerializationError", "dumps", "from_json", "loads", "to_json"]
