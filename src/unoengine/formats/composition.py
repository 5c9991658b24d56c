"""Composing profiles: a base, house-rule overlays on top, and user files that extend either.

``load_profile("gdj85+forced-play+uno-penalty-4")`` (or the same as a list) starts from a
complete base profile and lays each overlay over it in order. An overlay is a TOML file with
``overlay = true`` that sets only the options it changes. Two overlays that set the same option
to different values contradict each other: the error names both and the option. A user's own
TOML file may ``extends = "gdj85+stacking"`` (or a list) and set options of its own, which win
over what it extends. Nothing is executed; every document is checked key by key.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..engine.errors import ProfileError
from ..engine.profile import Profile
from .profile_file import check_keys, is_path, profile_from_dict, read_document

_META: Final = frozenset({"name", "description", "sources", "version"})
_LAYER_KEYS: Final = frozenset({"overlay", "extends"})

Spec = str | Path | Sequence[str | Path]
Leaf = tuple[str, ...]


def _parts(spec: Spec) -> list[str | Path]:
    """Split ``"base+overlay+..."`` (bare names) or take a list as it is."""
    if isinstance(spec, Path):
        return [spec]
    if isinstance(spec, str):
        # A '+' always separates parts; a path that contains one must be given in a list.
        pieces = [p.strip() for p in spec.split("+")]
        if not all(pieces):
            raise ProfileError(spec, "name", "an empty part in a '+' composition")
        return list(pieces)
    parts = list(spec)
    if not parts:
        raise ProfileError("[]", "name", "an empty list names no profile")
    return parts


def _leaves(table: Mapping[str, Any], prefix: Leaf = ()) -> Iterator[tuple[Leaf, Any]]:
    """Every option of a document as (path, value), tables walked down to their values."""
    for key, value in table.items():
        if not prefix and key in _META | _LAYER_KEYS:
            continue
        if isinstance(value, Mapping):
            yield from _leaves(value, (*prefix, key))
        else:
            yield (*prefix, key), value


def _set(table: dict[str, Any], path: Leaf, value: Any) -> None:
    for key in path[:-1]:
        nxt = table.setdefault(key, {})
        if not isinstance(nxt, dict):
            nxt = table[key] = {}
        table = nxt
    table[path[-1]] = value


class _Layer:
    """One parsed document of a composition."""

    def __init__(self, spec: str | Path) -> None:
        data, self.source = read_document(spec)
        self.data = data
        self.overlay = data.get("overlay", False)
        if not isinstance(self.overlay, bool):
            raise ProfileError(self.source, "overlay", f"must be true or false, got {self.overlay!r}")
        self.raw_name = data.get("name")
        self.name = self.raw_name if isinstance(self.raw_name, str) and self.raw_name else Path(self.source).stem
        if self.overlay or "extends" in data:
            # A document merged with others is checked on its own first, so that an error names
            # its file; a plain base profile is checked whole by profile_from_dict.
            check_keys(data, self.source, extra=_LAYER_KEYS)
            if "name" in data and not (isinstance(self.raw_name, str) and self.raw_name):
                raise ProfileError(self.source, "name", f"must be a non-empty string, got {self.raw_name!r}")


def _resolve(spec: Spec, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], Any, list[str]]:
    """The merged document of a composition, its name and the sources it came from."""
    parts = _parts(spec)
    base = _Layer(parts[0])
    if base.overlay:
        raise ProfileError(base.source, "overlay", "an overlay cannot come first: start with a base profile")
    identity = str(Path(base.source).resolve())
    if identity in seen:
        raise ProfileError(base.source, "extends", f"extends itself through {' -> '.join(seen)}")
    merged, name, sources = _base_document(base, (*seen, identity))
    overlay_names: list[str] = []
    set_by: dict[Leaf, tuple[str, Any]] = {}
    for part in parts[1:]:
        layer = _Layer(part)
        if not layer.overlay:
            problem = "is a complete profile, not an overlay (set overlay = true to lay it on a base)"
            raise ProfileError(layer.source, "overlay", problem)
        for path, value in _leaves(layer.data):
            earlier = set_by.get(path)
            if earlier is not None and earlier[1] != value:
                raise ProfileError(
                    f"{earlier[0]} + {layer.name}",
                    ".".join(path),
                    f"overlays contradict each other: {earlier[0]} sets {earlier[1]!r}, {layer.name} sets {value!r}",
                )
            set_by[path] = (layer.name, value)
            _set(merged, path, value)
        overlay_names.append(layer.name)
        sources.append(layer.source)
    if overlay_names:  # a composition is named after its parts
        name = "+".join([base.name, *overlay_names])
    return merged, name, sources


def _base_document(base: _Layer, seen: tuple[str, ...]) -> tuple[dict[str, Any], Any, list[str]]:
    """A complete profile document: the file itself, or what it extends with its own options on top."""
    extends = base.data.get("extends")
    if extends is None:
        merged = {k: copy.deepcopy(v) for k, v in base.data.items() if k not in _LAYER_KEYS}
        return merged, base.raw_name, [base.source]
    if not (isinstance(extends, str) or (isinstance(extends, list) and all(isinstance(e, str) for e in extends))):
        raise ProfileError(base.source, "extends", f"must be a profile name, a path or a list of them, got {extends!r}")
    # A relative path in ``extends`` is read from the folder of the file that names it.
    folder = Path(base.source).parent
    parts = [folder / part if is_path(part) and not Path(part).is_absolute() else part for part in _parts(extends)]
    merged, _, sources = _resolve(parts, seen)
    for path, value in _leaves(base.data):
        _set(merged, path, value)
    for key in ("description", "sources", "version"):
        if key in base.data:
            merged[key] = base.data[key]
    return merged, base.name, [*sources, base.source]


def load_profile(spec: Spec) -> Profile:
    """Load a profile: a shipped name, a TOML path, ``"base+overlay+..."`` or a list of those.

    The resolved profile is named after its parts (``"gdj85+forced-play"``) unless a user file
    names itself. Raises :class:`ProfileError` naming the file, the key and the problem.
    """
    merged, name, sources = _resolve(spec)
    merged["name"] = name
    source = sources[0] if len(sources) == 1 else " + ".join(sources)
    return profile_from_dict(merged, source)


def resolve_profile(profile: Profile | Spec) -> Profile:
    """``profile`` itself if it is a :class:`Profile`, else :func:`load_profile` of it: what lets
    the public ``new_game("classic-108", ...)`` take a name while the engine takes only values."""
    return profile if isinstance(profile, Profile) else load_profile(profile)
