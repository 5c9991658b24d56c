"""Hostile weights files for ``policy:PATH`` (issue 41, items 7 and 8): a weights file may come
from anyone, so ``load_policy`` reads it within bounds whatever it holds. Each file here is
crafted byte by byte (a zip bomb, lying headers, a flood of entries, a FIFO, a profile that names
a path) and cheap to build; the work and memory of each refusal are bounded by counts
(helpers_hostile), never timed."""

from __future__ import annotations

import io
import os
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers_hostile import at_most, refused
from helpers_work import at_most_lines

from unoengine.envs.learn.npz import MAX_MEMBERS
from unoengine.envs.learn.policy import FORMAT, PolicyFileError, ResidualPolicy, load_policy
from unoengine.formats.profile_file import shipped_path

GOOD = ResidualPolicy("classic-108", 2)
BOMB_BYTES = 64 << 20
"""What the bomb's W decompresses to: enough that reading it breaks the 8 MB bound many times over."""


def npy(shape: tuple[int, ...], descr: str = "<f4") -> bytes:
    """An .npy header (version 1.0) declaring ``descr`` and ``shape``, padded as numpy pads it."""
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape!r}, }}"
    text += " " * (-(len(text) + 11) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode("latin1")


def fields(**changes: Any) -> dict[str, bytes]:
    """The members of a good weights file as .npy bytes, with ``changes`` (arrays, or raw bytes)."""
    arrays: dict[str, Any] = {"format": np.array(FORMAT), "profile": np.array("classic-108"),
                              "players": np.array(2), "prior": np.array(1.0), "W": GOOD.W, "b": GOOD.b, **changes}
    out = {}
    for name, value in arrays.items():
        if isinstance(value, bytes):
            out[name] = value
        else:
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, value, allow_pickle=True)
            out[name] = buffer.getvalue()
    return out


def archive(members: dict[str, bytes], path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(f"{name}.npy", data)
    return path


def field_of(path: Path, *, megabytes: float = 8, match: str | None = None) -> str:
    """load_policy refuses the file in bounded work and memory, in one line naming the file; the field."""
    with at_most(megabytes), pytest.raises(PolicyFileError):  # the memory first: what the old code broke
        load_policy(path)
    error = refused(PolicyFileError, lambda: load_policy(path), match=match)
    assert str(error).startswith(f"weights file {str(path)!r}: {error.field}: ") and "\n" not in str(error)
    return error.field


# --- item 8: the arrays' headers are checked before their data is read ---------------------------
def test_a_zip_bomb_is_refused_from_its_header(tmp_path: Path) -> None:
    """W claims 16 million floats and its stream really holds 64 MB of zeros, compressed to ~64 KB:
    numpy.load decompressed it all before its shape could be checked."""
    path = tmp_path / "bomb.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in fields().items():
            if name != "W":
                z.writestr(f"{name}.npy", data)
        with z.open("W.npy", "w", force_zip64=True) as member:
            member.write(npy((BOMB_BYTES // 4,)))
            zeros = bytes(1 << 20)
            for _ in range(BOMB_BYTES >> 20):
                member.write(zeros)
    assert path.stat().st_size < BOMB_BYTES // 500
    assert field_of(path, match="expected float32 of shape") == "W"


def lying(path: Path, name: str, declared: int, payload: bytes) -> Path:
    """A stored member whose zip headers (local and central) declare ``declared`` bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for other, data in fields().items():
            if other != name:
                z.writestr(f"{other}.npy", data)
        z.writestr(f"{name}.npy", payload)
    data = bytearray(path.read_bytes())
    real = struct.pack("<I", len(payload))
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.rfind(signature)  # the member written last
        assert data[at + offset:at + offset + 4] == real
        data[at + offset:at + offset + 4] = struct.pack("<I", declared)
    path.write_bytes(bytes(data))
    return path


def test_a_header_claiming_a_huge_array_allocates_nothing(tmp_path: Path) -> None:
    """W's .npy header claims 16 million floats, the zip says a few bytes: numpy.load allocated the
    array the header claims (64 MB here; gigabytes as easily) before finding the data short."""
    header = npy((BOMB_BYTES // 4,))
    path = lying(tmp_path / "claims.npz", "W", len(header) + 16, header + bytes(16))
    assert field_of(path, match="expected float32 of shape") == "W"


def test_a_zip_header_that_lies_about_the_size_is_refused(tmp_path: Path) -> None:
    """The header is W's own, the zip declares 64 MB more than that: refused before reading, and a
    declared size that is too small finds the data short (never more read than the shape takes)."""
    member = fields()["W"]
    too_big = lying(tmp_path / "big.npz", "W", len(member) + BOMB_BYTES, member)
    assert field_of(too_big, match="size in the archive") == "W"
    too_small = lying(tmp_path / "small.npz", "W", len(member) - 4, member)
    assert field_of(too_small, match="size in the archive") == "W"


def test_a_flood_of_zip_entries_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """A table of contents of 100,000 entries (5 MB): zipfile made an object of each (~50 MB)."""
    entries = 100_000
    directory = b"".join(struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
                         + b"x" for _ in range(entries))
    start = b"PK\x03\x04" + bytes(26)  # where a zip starts: numpy.load took it for an archive
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(directory), len(start), 0)
    path = tmp_path / "flood.npz"
    path.write_bytes(start + directory + end)
    assert len(zipfile.ZipFile(path).infolist()) == entries  # what zipfile would make of it
    assert field_of(path, match=f"at most {MAX_MEMBERS} arrays") == "file"


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    """Opening a FIFO blocks until someone writes to it: load_policy hung there."""
    fifo = tmp_path / "pipe.npz"
    os.mkfifo(fifo)
    with at_most_lines(), pytest.raises(PolicyFileError, match="not a regular file") as info:
        load_policy(fifo)
    assert info.value.field == "file"


@pytest.mark.parametrize(("change", "field", "match"), [
    ({"W": GOOD.W.astype(np.float64)}, "W", "expected float32"),
    ({"W": GOOD.W.astype(">f4")}, "W", "expected float32"),
    ({"b": np.array([object()] * GOOD.b.size, dtype=object)}, "b", "pickled"),
    ({"players": np.array(2.0)}, "players", "expected an integer"),
    ({"prior": np.array(1, np.int64)}, "prior", "expected a number"),
    ({"format": np.zeros(3)}, "format", "expected one text"),
    ({"W": b"\x93NUMPY\x01\x00" + struct.pack("<H", 8) + b"((((((((" + bytes(16)}, "W", "header cannot be read"),
    ({"W": b"\x93NUMPY\x02\x00" + struct.pack("<I", 1 << 31) + bytes(64)}, "W", "header is longer"),
    ({"W": b"not an array"}, "W", "not an .npy"),
    ({"W": b"\x93NUMPY\x01\x05" + fields()["W"][8:]}, "W", "not an .npy"),
])
def test_arrays_of_the_wrong_kind_are_refused_by_their_header(tmp_path: Path, change: dict[str, Any], field: str,
                                                              match: str) -> None:
    path = archive(fields(**change), tmp_path / "wrong.npz")
    assert field_of(path, match=match) == field


def test_extra_missing_and_doubled_arrays(tmp_path: Path) -> None:
    members = fields()
    assert field_of(archive({**members, "extra": members["b"]}, tmp_path / "extra.npz"), match="not one of") == "file"
    assert field_of(archive({k: v for k, v in members.items() if k != "b"}, tmp_path / "missing.npz"),
                    match="missing") == "b"
    doubled = archive(members, tmp_path / "doubled.npz")
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(doubled, "a") as z:
        z.writestr("W.npy", members["W"])
    assert field_of(doubled, match="stored twice") == "W"
    escape = archive({**members, "\x1b[2J": members["b"]}, tmp_path / "escape.npz")
    with pytest.raises(PolicyFileError) as info:
        load_policy(escape)
    assert "\x1b" not in str(info.value) and "[2J" not in str(info.value)


def test_a_fortran_ordered_w_reads_as_numpy_wrote_it(tmp_path: Path) -> None:
    weights = np.arange(GOOD.W.size, dtype=np.float32).reshape(GOOD.W.shape) / GOOD.W.size
    path = archive(fields(W=np.asfortranarray(weights)), tmp_path / "fortran.npz")
    with at_most(8):
        loaded = load_policy(path)
    assert np.array_equal(loaded.W, weights) and loaded.W.flags.writeable


# --- item 7: the profile is a shipped name, never a path, never quoted --------------------------
def test_a_profile_naming_a_path_is_never_opened_nor_echoed(tmp_path: Path) -> None:
    """``profile`` went to load_profile unchecked: it opened any TOML path (a good profile file
    loaded; /etc/passwd was opened and parsed) and the error quoted the file's keys and values."""
    copy = tmp_path / "mine.toml"
    copy.write_bytes(shipped_path("classic-108").read_bytes())  # a profile that loads
    secret = tmp_path / "secret.toml"
    secret.write_text('password = "hunter2-TOPSECRET"\n')
    for profile in (str(copy), str(secret), "/etc/passwd", "classic-108+../../etc/passwd", "\x1b[2Jclassic-108"):
        path = archive(fields(profile=np.array(profile)), tmp_path / "profile.npz")
        error = refused(PolicyFileError, lambda p=path: load_policy(p), megabytes=8)
        assert error.field == "profile", profile
        for leaked in ("hunter2", "TOPSECRET", "password", "passwd", "\x1b", "mine.toml"):
            assert leaked not in str(error), (profile, str(error))


def test_shipped_compositions_are_taken(tmp_path: Path) -> None:
    policy = ResidualPolicy("classic-108+stacking", 3)
    policy.save(tmp_path / "composed.npz")
    loaded = load_policy(tmp_path / "composed.npz")
    assert (loaded.profile, loaded.players, loaded.W.shape) == ("classic-108+stacking", 3, policy.W.shape)
    path = archive(fields(profile=np.array("stacking+classic-108")), tmp_path / "backwards.npz")
    assert field_of(path) == "profile"
