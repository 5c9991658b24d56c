"""Writing a file into a folder that someone else may also write to, never through a link.

``simulate --records DIR`` writes ``game-000000.json`` and so on into DIR. Opening such a name
for writing follows a symbolic link planted there (and writes through a hard link), so whoever
could write to DIR could make a run overwrite any file the user can. :func:`write_new` refuses a
name that is a symbolic link, writes the text into a new file of its own (``O_EXCL``, a random
name in the same folder), and then gives it the name with ``os.replace``, which replaces the
directory entry and never follows it: a link put there in between is replaced, its target left
as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from ..engine.errors import UnoEngineError


class UnwritableFileError(UnoEngineError):
    """A file that cannot be written: ``path`` and ``problem``, a short phrase."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = path, problem


def write_new(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) as the file ``path``, replacing a regular file of that name; a
    symbolic link of that name is refused (:class:`UnwritableFileError`), and nothing is ever
    written through one. The file gets the permissions the umask gives a new file."""
    if path.is_symlink():
        raise UnwritableFileError(path, "is a symbolic link; not written through (remove it, or use another folder)")
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UnwritableFileError(path, f"cannot write: {exc.strerror or exc}") from None
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise UnwritableFileError(path, f"cannot write: {exc.strerror or exc}") from None
