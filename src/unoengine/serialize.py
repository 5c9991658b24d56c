"""``unoengine.serialize`` is :mod:`unoengine.formats.serialize` under its documented name (a facade module).

Importing it gives that very module (the same object), so its docstring, its private names and
any patching of it behave as they do at the layer's own path.
"""

import sys

from .formats import serialize as _module
from .formats.serialize import *  # noqa: F403  (the names, for type checkers)

sys.modules[__name__] = _module
