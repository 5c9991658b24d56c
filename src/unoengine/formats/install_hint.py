"""The pip command that adds an optional extra to this copy of unoengine, as it must be typed
where this copy came from.

``pip install "unoengine[rl]"`` works only where pip can find unoengine: installed already (from
a package index, a wheel or a source archive), or once it is published. Someone who runs it from a
clone (imported from its ``src/``, with ``pip install -e .`` or ``PYTHONPATH=src``) installs the
extra from the clone instead: ``pip install -e '.[rl]'``. The package's folder tells the first
case, and pip's record of where it installed from (``direct_url.json``, PEP 610) a package
installed from a local folder. The envs' MissingExtraError and the command line's ``--scheduler``
say the command given here.
"""

from __future__ import annotations

import json
import shlex
import tomllib
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

DISTRIBUTION = "unoengine"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The folder of the ``unoengine`` package this module belongs to."""
MAX_DIRECT_URL_CHARS = 64 * 1024
"""A direct_url.json larger than this is not pip's record (pip writes a few hundred bytes)."""


def source_tree(package_dir: Path) -> Path | None:
    """The project folder, when the package is imported from a checkout's ``src/`` folder
    (the project's pyproject.toml names unoengine); None for an installed package."""
    root = package_dir.parent.parent
    if package_dir.parent.name != "src":
        return None
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    name = project.get("project", {}).get("name") if isinstance(project.get("project"), dict) else None
    return root if name == DISTRIBUTION else None


def installed_from(distribution: metadata.Distribution | None) -> tuple[Path, bool] | None:
    """The local folder pip installed ``distribution`` from, and whether in editable mode, as its
    ``direct_url.json`` says; None when installed from an index, a wheel or an archive (or when
    the record is missing or not pip's)."""
    if distribution is None:
        return None
    try:
        text = distribution.read_text("direct_url.json")
    except OSError:
        return None
    if text is None or len(text) > MAX_DIRECT_URL_CHARS:
        return None
    try:
        record = json.loads(text)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("dir_info"), dict):
        return None
    url = record.get("url")
    if not isinstance(url, str) or not url.startswith("file://"):
        return None
    return Path(unquote(urlparse(url).path)), record["dir_info"].get("editable") is True


def _installed() -> metadata.Distribution | None:
    try:
        return metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


def install_command(extra: str) -> str:
    """``pip install`` of ``extra`` for this copy of unoengine (see :func:`command_for`)."""
    try:
        here: Path | None = Path.cwd()
    except OSError:  # the working folder was removed
        here = None
    return command_for(extra, PACKAGE_DIR, _installed(), here)


def command_for(extra: str, package_dir: Path, distribution: metadata.Distribution | None, cwd: Path | None) -> str:
    """``pip install`` of ``extra`` for the package in ``package_dir``: from its clone (editable)
    or from the local folder ``distribution`` was installed from, written ``.`` when that is
    ``cwd``; by name when it came from an index, a wheel or an archive (pip then finds it
    installed and adds the extra's packages)."""
    root, editable = source_tree(package_dir), True
    if root is None:
        found = installed_from(distribution)
        if found is not None and found[0].is_dir():
            root, editable = found
    if root is None:
        return f'pip install "{DISTRIBUTION}[{extra}]"'
    where = "." if cwd is not None and _same(cwd, root) else str(root)
    return "pip install " + ("-e " if editable else "") + shlex.quote(f"{where}[{extra}]")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
