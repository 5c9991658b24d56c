"""Reading the arrays of an ``.npz`` archive that anyone may have written, within bounds.

``numpy.load`` trusts the archive: it builds an array of whatever shape a member's header
declares and decompresses the member into it, so a few megabytes of zeros compressed can claim
gigabytes (a 3.5 MB file decompressed to 3.6 GB before its shape could be checked). Here each
member is read in three steps, and refused at the first that fails: its ``.npy`` header alone
(at most :data:`MAX_HEADER_BYTES`), which the caller checks against the dtype and shape it
expects; the size the zip directory declares against the size that header implies; then exactly
that many bytes, and one more to find the end where the header says it is (a zip header may lie).
Only the stored and deflated members numpy writes are read; Python objects (pickles) never are.
The archive's table of contents is bounded too (:data:`MAX_MEMBERS`), before zipfile parses it.
"""

from __future__ import annotations

import io
import math
import zipfile
import zlib
from collections.abc import Callable, Sequence
from typing import IO, Any, Final

import numpy as np

from ...engine.errors import UnoEngineError

MAX_MEMBERS: Final = 64
"""The most entries an archive's table of contents may hold (a weights file has six)."""
MAX_HEADER_BYTES: Final = 4096
"""The longest ``.npy`` header read (numpy writes about 128 bytes)."""
_CENTRAL_ENTRY: Final = b"PK\x01\x02"
"""Every entry of a zip's table of contents starts with this: zipfile makes at most as many entries."""
_MAGIC: Final = b"\x93NUMPY"
_READ_ERRORS: Final = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError,
                       RuntimeError)

Check = Callable[[np.dtype[Any], tuple[int, ...]], "str | None"]
"""Given a member's dtype and shape (from its header), the problem with them, or None to read it."""


class ArrayFileError(UnoEngineError):
    """An archive, or one of its members, that is not what the caller reads: ``field`` (the
    member's name without ``.npy``, or ``"file"``) and ``problem``; never the file's content."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class Arrays:
    """The members of an ``.npz`` archive held in ``data``: exactly ``fields`` (``NAME.npy`` each),
    read one by one with :meth:`read`."""

    def __init__(self, data: bytes, fields: Sequence[str]) -> None:
        if data.count(_CENTRAL_ENTRY) > MAX_MEMBERS:
            raise ArrayFileError("file", f"not an .npz archive of at most {MAX_MEMBERS} arrays")
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (*_READ_ERRORS, KeyError) as exc:
            raise ArrayFileError("file", f"not an .npz archive ({type(exc).__name__})") from None
        self._infos: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            name = info.filename.removesuffix(".npy")
            if name not in fields or not info.filename.endswith(".npy"):  # its name is not shown
                raise ArrayFileError("file", f"holds an array that is not one of {', '.join(fields)}")
            if name in self._infos:
                raise ArrayFileError(name, "stored twice in the archive")
            self._infos[name] = info
        missing = [f for f in fields if f not in self._infos]
        if missing:
            raise ArrayFileError(missing[0], "missing from the file")

    def read(self, field: str, check: Check) -> np.ndarray[Any, np.dtype[Any]]:
        """The array ``field``, read only if ``check`` finds nothing wrong with its header's dtype
        and shape; ArrayFileError naming the field otherwise."""
        info = self._infos[field]
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 1:
            raise ArrayFileError(field, "compressed or encrypted in a way numpy never writes")
        try:
            with self._zip.open(info) as stream:
                dtype, shape, fortran, header_size = _header(stream, field)
                if dtype.hasobject:
                    raise ArrayFileError(field, "holds Python objects (pickled), which are never loaded")
                problem = check(dtype, shape)
                if problem is not None:
                    raise ArrayFileError(field, problem)
                size = math.prod(shape) * dtype.itemsize
                if info.file_size != header_size + size:
                    raise ArrayFileError(field, "its size in the archive is not the size its header gives")
                payload = stream.read(size)
                if len(payload) != size or stream.read(1):  # the end checks the CRC too
                    raise ArrayFileError(field, "holds a different number of bytes than its header gives")
        except ArrayFileError:
            raise
        except _READ_ERRORS as exc:
            raise ArrayFileError(field, f"cannot be read: a damaged archive ({type(exc).__name__})") from None
        array = np.frombuffer(payload, dtype)
        return array.reshape(shape, order="F" if fortran else "C").copy()


def _header(stream: IO[bytes], field: str) -> tuple[np.dtype[Any], tuple[int, ...], bool, int]:
    """The dtype, shape and order a member's ``.npy`` header declares, and the header's length,
    read from at most MAX_HEADER_BYTES and parsed by numpy from that copy alone."""
    head = stream.read(len(_MAGIC) + 4)
    if len(head) < len(_MAGIC) + 4 or not head.startswith(_MAGIC) or head[6:8] not in (b"\x01\x00", b"\x02\x00"):
        raise ArrayFileError(field, "not an .npy array (version 1 or 2)")
    if head[6] == 2:
        head += stream.read(2)
        length = int.from_bytes(head[8:12], "little")
    else:
        length = int.from_bytes(head[8:10], "little")
    if length > MAX_HEADER_BYTES:
        raise ArrayFileError(field, f"its header is longer than {MAX_HEADER_BYTES:,} bytes")
    text = stream.read(length)
    if len(text) != length:
        raise ArrayFileError(field, "its header is cut short")
    copy = io.BytesIO(head + text)
    try:
        version = np.lib.format.read_magic(copy)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(copy)
        else:
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(copy)
    except Exception:  # numpy parsing a hostile header: whatever it raises, the header is bad
        raise ArrayFileError(field, "its header cannot be read") from None
    return dtype, tuple(int(n) for n in shape), bool(fortran), len(head) + length
