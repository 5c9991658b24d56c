"""Importing an optional framework, and saying which extra brings it when it is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..engine.errors import UnoEngineError


class MissingExtraError(UnoEngineError, ImportError):
    """An adapter's framework is not installed; the message names the extra that installs it."""


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise MissingExtraError saying ``pip install "unoengine[extra]"``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{module} is not installed: pip install \"unoengine[{extra}]\" ({exc})"
        ) from None
