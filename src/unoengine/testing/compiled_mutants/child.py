"""The child process of a compiled mutant's run: load the compiled package from a patched copy,
play the lockstep, print the outcome as one line of JSON.

``python -m unoengine.testing.compiled_mutants.child DIR`` reads ``{"tables", "moves", "seed"}``
as JSON on stdin. ``unoengine.compiled`` is pointed at ``DIR`` before any kernel is imported, so
this process runs the copy (mutated or not) and the reference engine of the installed package;
the parent process and the installed package are never changed. Run by :mod:`.report`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

_WORD = 1 << 64


def numba_disabled() -> bool:
    import numba

    return bool(numba.config.DISABLE_JIT)  # type: ignore[attr-defined]


class _WrappingNumpy:
    """numpy, but ``uint64`` of a Python int wraps to 64 bits as numba's typed integers do (the
    kernels keep seeds as int64 bit patterns and read them back with ``np.uint64``)."""

    def __init__(self, numpy: Any) -> None:
        self._numpy = numpy

    def __getattr__(self, name: str) -> Any:
        return getattr(self._numpy, name)

    def uint64(self, value: Any) -> Any:
        if isinstance(value, int | self._numpy.integer):
            return self._numpy.uint64(int(value) % _WORD)
        return self._numpy.uint64(value)


def wrap_uint64() -> None:
    """Run as Python (``NUMBA_DISABLE_JIT``), the kernels see Python ints where numba sees int64:
    give the kernel modules of this child process a numpy whose ``uint64`` wraps as numba's does."""
    import importlib

    import numpy

    shim = _WrappingNumpy(numpy)
    for name in ("kernel_base", "kernel_piles", "kernel_deal", "kernel_legal", "kernel_apply", "kernel_playout"):
        module = importlib.import_module(f"unoengine.compiled.{name}")
        if getattr(module, "np", None) is numpy:
            module.np = shim  # type: ignore[attr-defined]


def main(argv: Sequence[str]) -> int:
    import unoengine.compiled as compiled

    loaded = [name for name in sys.modules if name.startswith("unoengine.compiled.")]
    if len(argv) != 1 or loaded:
        print(json.dumps({"error": f"usage: child DIR (before any kernel is imported); got {list(argv)}, {loaded}"}))
        return 2
    compiled.__path__[:] = [str(Path(argv[0]).resolve())]

    from .base import Table
    from .lockstep import first_difference

    if numba_disabled():
        wrap_uint64()

    request = json.load(sys.stdin)
    tables = [Table(spec, tuple(players), deck, tuple((k, v) for k, v in changes), positions)
              for spec, players, deck, changes, positions in request["tables"]]
    difference, made = first_difference([(t.profile(), t.players, t.positions) for t in tables], request["moves"],
                                        request["seed"])
    kernels = sys.modules["unoengine.compiled.kernel_apply"].__file__
    print(json.dumps({"difference": None if difference is None else attrs.asdict(difference), "moves": made,
                      "kernels": kernels}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
