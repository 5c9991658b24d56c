"""Importing an optional framework, and saying which extra brings it when it is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..engine.errors import UnoEngineError
from ..formats.install_hint import install_command


class MissingExtraError(UnoEngineError, ImportError):
    """An adapter's framework is not installed; the message gives the command that installs its
    extra, as it works where this copy of unoengine came from (formats/install_hint.py)."""


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise MissingExtraError saying how to install ``extra``: from a
    clone ``pip install -e '.[extra]'``, else ``pip install "unoengine[extra]"``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(f"{module} is not installed: {install_command(extra)} ({exc})") from None
