"""The command that installs an extra, as it works where unoengine came from (formats/install_hint.py).

unoengine is not on a package index yet: from a clone, ``pip install "unoengine[rl]"`` fails, and
``pip install -e '.[rl]'`` works. The hint tells the two apart: the package imported from a
checkout's ``src/`` (these tests), a package pip installed from a local folder (its
``direct_url.json`` says so, PEP 610), or one from an index, a wheel or an archive (no such
record). Installed distributions are made here as pip lays them out, a ``.dist-info`` folder,
and read with ``importlib.metadata`` itself.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from unoengine.formats.install_hint import PACKAGE_DIR, command_for, install_command, installed_from, source_tree

ROOT = Path(__file__).resolve().parents[1]


def installed(tmp_path: Path, direct_url: object | None) -> tuple[Path, metadata.Distribution]:
    """A site-packages folder holding unoengine as pip installs it, with ``direct_url`` as its
    direct_url.json (a dict as JSON, a str as it is, None for none: an index or a wheel)."""
    site = tmp_path / "site-packages"
    (site / "unoengine").mkdir(parents=True)
    info = site / "unoengine-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: unoengine\nVersion: 0.1.0\n", encoding="utf-8")
    if direct_url is not None:
        text = direct_url if isinstance(direct_url, str) else json.dumps(direct_url)
        (info / "direct_url.json").write_text(text, encoding="utf-8")
    return site / "unoengine", metadata.Distribution.at(info)


# --- from a clone --------------------------------------------------------------------------------

def test_from_this_checkout_the_hint_installs_the_checkout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The tests import unoengine from this checkout's src/: the extra comes from the checkout,
    as ``.`` from its top folder and by its path from anywhere else."""
    assert PACKAGE_DIR == ROOT / "src" / "unoengine" and source_tree(PACKAGE_DIR) == ROOT
    monkeypatch.chdir(ROOT)
    assert install_command("rl") == "pip install -e '.[rl]'"
    monkeypatch.chdir(tmp_path)
    assert install_command("cluster") == f"pip install -e '{ROOT}[cluster]'"


def test_a_src_folder_of_another_project_is_not_a_checkout(tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / "src" / "unoengine").mkdir(parents=True)
    (other / "pyproject.toml").write_text('[project]\nname = "something-else"\n', encoding="utf-8")
    assert source_tree(other / "src" / "unoengine") is None
    (other / "pyproject.toml").write_text("not toml [", encoding="utf-8")
    assert source_tree(other / "src" / "unoengine") is None
    assert command_for("rl", other / "src" / "unoengine", None, tmp_path) == 'pip install "unoengine[rl]"'


# --- installed -----------------------------------------------------------------------------------

def test_installed_from_an_index_or_a_wheel_the_hint_names_the_package(tmp_path: Path) -> None:
    """No direct_url.json (an index), or one naming an archive (a wheel or sdist file): pip finds
    unoengine installed and adds the extra's packages, so the name works."""
    package, from_index = installed(tmp_path / "a", None)
    assert installed_from(from_index) is None
    assert command_for("rl", package, from_index, tmp_path) == 'pip install "unoengine[rl]"'
    wheel = {"url": (tmp_path / "unoengine-0.1.0-py3-none-any.whl").as_uri(), "archive_info": {"hash": "sha256=00"}}
    package, from_wheel = installed(tmp_path / "b", wheel)
    assert installed_from(from_wheel) is None
    assert command_for("gymnasium", package, from_wheel, tmp_path) == 'pip install "unoengine[gymnasium]"'
    assert command_for("rl", package, None, tmp_path) == 'pip install "unoengine[rl]"'


@pytest.mark.parametrize("editable", [True, False])
def test_installed_from_a_folder_the_hint_installs_from_it_again(tmp_path: Path, editable: bool) -> None:
    """``pip install -e .`` or ``pip install .`` from a clone: the extra comes from the same folder,
    the same way (a folder name with a space is quoted for the shell)."""
    clone = tmp_path / "my clone"
    clone.mkdir()
    record = {"url": clone.as_uri(), "dir_info": {"editable": True} if editable else {}}
    package, distribution = installed(tmp_path, record)
    assert installed_from(distribution) == (clone, editable)
    flag = "-e " if editable else ""
    assert command_for("rl", package, distribution, tmp_path) == f"pip install {flag}'{clone}[rl]'"
    assert command_for("rl", package, distribution, clone) == f"pip install {flag}'.[rl]'"


@pytest.mark.parametrize("record", [
    "not json", "[1, 2]", {"url": "https://example.org/unoengine", "dir_info": {}},
    {"url": "file:///no/such/folder/anywhere", "dir_info": {"editable": True}}, {"dir_info": {}},
    {"url": "file:///tmp", "dir_info": "editable"},
])
def test_a_record_that_names_no_folder_here_falls_back_to_the_name(tmp_path: Path, record: object) -> None:
    """A malformed direct_url.json, a remote URL, or a folder that is gone: the name, as from an index."""
    package, distribution = installed(tmp_path, record)
    assert command_for("rl", package, distribution, tmp_path) == 'pip install "unoengine[rl]"'


# --- where the hint is given ------------------------------------------------------------------

def test_the_cluster_option_without_dask_gives_the_command_for_here() -> None:
    """``--scheduler`` without the cluster extra: one line on stderr, exit 2, and the command that
    installs the extra where this unoengine came from (here, this checkout)."""
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from unoengine.tools.cli import main\n"
            "sys.exit(main(['simulate', '--games', '1', '--scheduler', 'tcp://127.0.0.1:1']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "--scheduler needs Dask: pip install -e '.[cluster]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# --- the install lines of the documentation -------------------------------------------------------

PIP_INSTALL = re.compile(r"pip install ([^`\n#]*)")
LOCAL = re.compile(r"\.(\[([a-z0-9,-]+)\])?")  # an extra may hold digits: sb3


def install_lines() -> list[tuple[str, int, str, str]]:
    """Every ``pip install`` command of README.md and docs/*.md: (file, line number, the line,
    its arguments), the arguments up to the end of the code span, a comment or ``&&``."""
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for m in PIP_INSTALL.finditer(line):
                found.append((doc.relative_to(ROOT).as_posix(), number, line, m.group(1).split("&&")[0]))
    return found


def test_every_install_line_works_from_a_clone() -> None:
    """unoengine is not on PyPI: each install of it in the docs installs this folder (``.``, with
    extras that pyproject.toml defines); installing it by name is shown only as what to type once
    it is on PyPI (so said on the same line or the one before)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    lines = install_lines()
    assert len(lines) >= 15
    by_file = {name: (ROOT / name).read_text(encoding="utf-8").splitlines() for name, *_ in lines}
    for name, number, line, args in lines:
        for arg in shlex.split(args.replace("...", "")):
            if arg.startswith("-"):
                continue
            local = LOCAL.fullmatch(arg)
            if local:
                unknown = set((local.group(2) or "").split(",")) - extras - {""}
                assert not unknown, f"{name}:{number}: no extra {unknown} in pyproject.toml: {line}"
            elif re.match(r"unoengine\b", arg):
                before = by_file[name][number - 2] if number > 1 else ""
                assert "PyPI" in line or "PyPI" in before, f"{name}:{number}: fails from a clone: {line}"
            elif (ROOT / arg / "pyproject.toml").is_file():  # an example package of the repository
                continue
            else:
                assert re.fullmatch(r"[A-Za-z0-9_.-]+(==[\w.]+)?", arg), f"{name}:{number}: {arg!r} in {line}"
    assert any(args.strip() == "." for *_, args in lines), "the README installs the clone: pip install ."
