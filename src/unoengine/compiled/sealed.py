"""Objects whose public attributes are set once (issue 41): :class:`Sealed`.

The compiled engine's objects hand their arrays and settings to kernels that check no bounds (a
batch's games, a table's buffer, an encoding's lookup arrays, the player count that sizes them);
a caller that put another array or number there could make a kernel read or write outside its
memory. So those attributes are fixed once set: setting or deleting one again raises
:class:`~unoengine.engine.errors.ReadOnlyError`, and an array shown to callers is a read-only
view (validate.py ``read_only``). Private attributes (``_name``) stay the object's own business.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..engine.errors import ReadOnlyError


class Sealed:
    """A public attribute can be set once, in the constructor; names in ``_open_names`` stay settable."""

    __slots__ = ()
    _open_names: ClassVar[frozenset[str]] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        if not name.startswith("_") and name not in self._open_names and hasattr(self, name):
            raise ReadOnlyError(f"{name}: {type(self).__name__}.{name} is fixed once made (its kernels trust it); "
                                "make a new one instead")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if not name.startswith("_"):
            raise ReadOnlyError(f"{name}: {type(self).__name__}.{name} cannot be deleted")
        object.__delattr__(self, name)
