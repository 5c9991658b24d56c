"""Reading a file that someone else may have named: only a regular file, and only up to a size.

A profile, a saved game or a scenario file is named by the user, or by another file (``extends``).
Such a name may be a device that never ends (``/dev/zero``), a FIFO whose opening blocks until
someone writes to it, a folder, or no file at all. :func:`read_bounded` looks at the name with
``os.stat`` before opening anything, opens only a regular file (without blocking, in case it was
swapped for a FIFO in between), and reads at most the limit plus one byte, so nothing it is
given can make it hang or fill the memory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from ..engine.errors import UnoEngineError, quoted
from ..engine.limits import MAX_PATH_CHARS

_CHUNK = 64 * 1024
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


class UnreadableFileError(UnoEngineError):
    """A file that cannot be read as a document: ``path`` (as given) and ``problem``, a short
    phrase such as ``"is not a regular file"``. Each reader turns it into its own error type."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


def checked_path(path: object) -> str:
    """A path as text, refused when it cannot name a file: not a string or ``Path``, empty, longer
    than MAX_PATH_CHARS, or holding a NUL character."""
    if not isinstance(path, str | Path):
        raise UnreadableFileError("<path>", f"must be a file path, got a {type(path).__name__}")
    text = str(path)
    if not text:
        raise UnreadableFileError("<path>", "an empty path names no file")
    if len(text) > MAX_PATH_CHARS:
        raise UnreadableFileError(quoted(text), f"a path of {len(text):,} characters is longer than "
                                                f"{MAX_PATH_CHARS:,}")
    if "\0" in text:
        raise UnreadableFileError(quoted(text), "a path cannot hold a NUL character")
    return text


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; :class:`UnreadableFileError`
    for anything else (no such file, a folder, a device, a FIFO, a file too large, an OS error)."""
    text = checked_path(path)
    try:
        info = os.stat(text)
    except OSError as exc:
        raise UnreadableFileError(text, f"cannot read: {exc.strerror or exc}") from None
    _check_regular(text, info, limit)
    try:
        fd = os.open(text, _OPEN_FLAGS)
    except OSError as exc:
        raise UnreadableFileError(text, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        _check_regular(text, info, limit)  # the name may have been swapped since the stat
        with os.fdopen(fd, "rb") as stream:
            fd = -1
            data = _read_up_to(stream, info.st_size, limit)
    except OSError as exc:
        raise UnreadableFileError(text, f"cannot read: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise UnreadableFileError(text, f"is larger than the limit of {limit:,} bytes")
    return data


def _read_up_to(stream: BinaryIO, size: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes: the ``size`` the file had, then in small chunks should it have
    grown (a buffer of the whole limit is never allocated for a small file)."""
    chunks = [stream.read(min(size, limit) + 1)]
    total = len(chunks[0])
    while total <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _check_regular(text: str, info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableFileError(text, "is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFileError(text, "is not a regular file (a device, a FIFO or a socket is never read)")
    if info.st_size > limit:
        raise UnreadableFileError(text, f"is {info.st_size:,} bytes, larger than the limit of {limit:,} bytes")
