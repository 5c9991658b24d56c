"""Composing profiles: a base, house-rule overlays on top, and user files that extend either.

``load_profile("gdj85+forced-play+uno-penalty-4")`` (or the same as a list) starts from a
complete base profile and lays each overlay over it in order. An overlay is a TOML file with
``overlay = true`` that sets only the options it changes. Two overlays that set the same option
to different values contradict each other: the error names both and the option. A user's own
TOML file may ``extends = "gdj85+stacking"`` (or a list) and set options of its own, which win
over what it extends. Nothing is executed; every document is checked key by key.

What ``extends`` may reach (docs/profiles.md): shipped names, and files in the extending file's
own folder or below it, named by a relative path that stays there once every symbolic link is
resolved; never an absolute path, never a way up with ``..``. What a file extends is checked on
its own before the file's options are laid on it, so an error names the file that holds the
problem. Chains are at most MAX_EXTENDS_DEPTH files long, compositions MAX_COMPOSITION_PARTS parts.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..engine.errors import ProfileError, quoted, shown
from ..engine.limits import MAX_COMPOSITION_PARTS, MAX_EXTENDS_DEPTH, MAX_NAME_CHARS, MAX_PATH_CHARS
from ..engine.profile import Profile
from .files import UnreadableFileError, checked_path
from .profile_file import check_keys, is_path, profile_from_dict, read_document

_META: Final = frozenset({"name", "description", "sources", "version"})
_LAYER_KEYS: Final = frozenset({"overlay", "extends"})

Spec = str | Path | Sequence[str | Path]
Leaf = tuple[str, ...]


def spec_parts(spec: Spec) -> list[str | Path]:
    """Split ``"base+overlay+..."`` (bare names) or take a list as it is; refuse anything else, and
    more than MAX_COMPOSITION_PARTS parts, before any file is looked at."""
    if isinstance(spec, Path):
        return [spec]
    if isinstance(spec, str):
        if len(spec) > MAX_PATH_CHARS:
            raise ProfileError(quoted(spec), "name", f"a profile of {len(spec):,} characters is longer than "
                                                     f"{MAX_PATH_CHARS:,}")
        # A '+' always separates parts; a path that contains one must be given in a list.
        parts: list[str | Path] = [p.strip() for p in spec.split("+")]
        if not all(parts):
            raise ProfileError(quoted(spec), "name", "an empty part in a '+' composition")
    elif isinstance(spec, list | tuple):
        parts = list(spec[: MAX_COMPOSITION_PARTS + 1])
        if not parts:
            raise ProfileError("[]", "name", "an empty list names no profile")
        bad = next((part for part in parts if not isinstance(part, str | Path)), None)
        if bad is not None:
            raise ProfileError("profile", "name", f"each part must be a profile name or a path, got {shown(bad)}")
    else:
        raise ProfileError("profile", "name", f"must be a profile name, a path or a list of them, got {shown(spec)}")
    if len(parts) > MAX_COMPOSITION_PARTS:
        raise ProfileError("profile", "name", f"a composition has at most {MAX_COMPOSITION_PARTS} parts")
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
            raise ProfileError(self.source, "overlay", f"must be true or false, got {shown(self.overlay)}")
        self.raw_name = data.get("name")
        if isinstance(self.raw_name, str) and len(self.raw_name) > MAX_NAME_CHARS:  # before it names anything
            raise ProfileError(self.source, "name", f"is {len(self.raw_name):,} characters long; at most "
                                                    f"{MAX_NAME_CHARS:,} are taken")
        self.name = self.raw_name if isinstance(self.raw_name, str) and self.raw_name else Path(self.source).stem
        if self.overlay or "extends" in data:
            # A document merged with others is checked on its own first, so that an error names
            # its file; a plain base profile is checked whole by profile_from_dict.
            check_keys(data, self.source, extra=_LAYER_KEYS)
            if "name" in data and not (isinstance(self.raw_name, str) and self.raw_name):
                raise ProfileError(self.source, "name", f"must be a non-empty string, got {shown(self.raw_name)}")


def _resolve(spec: Spec, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], Any, list[str]]:
    """The merged document of a composition, its name and the sources it came from."""
    parts = spec_parts(spec)
    base = _Layer(parts[0])
    if base.overlay:
        raise ProfileError(base.source, "overlay", "an overlay cannot come first: start with a base profile")
    identity = str(Path(base.source).resolve())
    if identity in seen:
        raise ProfileError(base.source, "extends", f"extends itself through {' -> '.join(seen)}")
    if len(seen) > MAX_EXTENDS_DEPTH:
        raise ProfileError(base.source, "extends", f"a chain of more than {MAX_EXTENDS_DEPTH} files extending "
                                                   "each other")
    merged, name, sources = _base_document(base, (*seen, identity))
    overlay_names: list[str] = []
    set_by: dict[Leaf, tuple[str, Any]] = {}
    for part in parts[1:]:
        layer = _Layer(part)
        if not layer.overlay:
            problem = "is a complete profile, not an overlay (set overlay = true to lay it on a base)"
            raise ProfileError(layer.source, "overlay", problem)
        if "extends" in layer.data:
            problem = "an overlay cannot extend anything: it is laid on the base before it in the composition"
            raise ProfileError(layer.source, "extends", problem)
        for path, value in _leaves(layer.data):
            earlier = set_by.get(path)
            if earlier is not None and earlier[1] != value:
                raise ProfileError(
                    f"{earlier[0]} + {layer.name}",
                    ".".join(path),
                    f"overlays contradict each other: {earlier[0]} sets {shown(earlier[1])}, "
                    f"{layer.name} sets {shown(value)}",
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
        raise ProfileError(base.source, "extends", f"must be a profile name, a path or a list of them, "
                                                   f"got {shown(extends)}")
    folder = Path(base.source).parent
    parts = [path_within(base.source, "extends", folder, part) if is_path(part) else part
             for part in spec_parts(extends)]
    merged, _, sources = _resolve(parts, seen)
    # What is extended must be a profile on its own: its problems are named by its own files.
    profile_from_dict({**merged, "name": "extended"}, sources[0] if len(sources) == 1 else " + ".join(sources))
    for path, value in _leaves(base.data):
        _set(merged, path, value)
    for key in ("description", "sources", "version"):
        if key in base.data:
            merged[key] = base.data[key]
    return merged, base.name, [*sources, base.source]


def path_within(source: str, key: str, folder: Path, part: str | Path) -> Path:
    """The file a relative path of ``key`` (``extends``, a scenario's ``profile``) names, read from
    the folder of the file that holds it: it must stay in that folder or below it once symbolic
    links are resolved (HOUSE-8, docs/profiles.md). ProfileError (``source``, ``key``) otherwise."""
    try:
        relative = Path(checked_path(part))
    except UnreadableFileError as exc:
        raise ProfileError(source, key, exc.problem) from None
    named = quoted(str(part), MAX_PATH_CHARS)
    if relative.is_absolute() or relative.drive or str(part).startswith(("/", "\\")):
        raise ProfileError(source, key, f"{named} is an absolute path; {key} takes a shipped name or a "
                                        "path relative to this file's folder")
    path = folder / relative
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError, RuntimeError):  # a path the system cannot resolve (a loop of links...)
        inside = False
    if not inside:
        raise ProfileError(source, key, f"{named} is outside this file's folder; {key} reads only files in "
                                        "the folder of the file that names them, or below it")
    return path


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
    the public ``new_game("classic-108", ...)`` take a name while the engine takes only values.

    A composition of shipped names only (``"classic-108"``, ``"gdj85+jump-in"``: no path) is
    read once per process and the immutable Profile reused, so that a loop of
    ``new_game("classic-108", ...)`` does not parse TOML for every game (docs/performance.md,
    "Flat across players"). Paths are read every time: a user's file may change."""
    if isinstance(profile, Profile):
        return profile
    if isinstance(profile, str) and len(profile) <= MAX_PATH_CHARS and not any(
            is_path(part) for part in profile.split("+")):
        cached = _SHIPPED_CACHE.get(profile)
        if cached is None:
            cached = load_profile(profile)  # a bad name raises here, and nothing is kept
            if len(_SHIPPED_CACHE) >= _SHIPPED_CACHE_SIZE:
                _SHIPPED_CACHE.clear()
            _SHIPPED_CACHE[profile] = cached
        return cached
    return load_profile(profile)


_SHIPPED_CACHE: dict[str, Profile] = {}
_SHIPPED_CACHE_SIZE: Final = 64
