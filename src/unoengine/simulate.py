"""``unoengine.simulate`` is :mod:`unoengine.tools.simulate` under its documented name (a facade module).

Importing it gives that very module (the same object), so its docstring, its private names and
any patching of it behave as they do at the layer's own path.
"""

import sys

from .tools import simulate as _module
from .tools.simulate import *  # noqa: F403  (the names, for type checkers)

sys.modules[__name__] = _module
