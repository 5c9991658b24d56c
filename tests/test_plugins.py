"""Bots from installed packages (issue 36, item 6): the example package of docs/examples/plugin
is pip-installed into a folder of its own and found by name through the ``unoengine.bots``
entry-point group, by simulate, the bot server and worker processes; a broken plugin is one
line naming it; a plugin cannot shadow a shipped bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example plugin, installed (``pip install --target``) where only PYTHONPATH finds it."""
    target = tmp_path_factory.mktemp("plugin")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                           str(ROOT / "docs" / "examples" / "plugin")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return target


def _unoengine(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(SRC)])}
    return subprocess.run([sys.executable, "-m", "unoengine", *args], capture_output=True, text=True, timeout=300,
                          env=env, cwd=path)


def _fake_plugin(folder: Path, entry_points: str, kinds: str = "") -> Path:
    """A hand-made installed distribution with these entry points (no code of its own)."""
    info = folder / "fake_bots-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-bots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[unoengine.bots]\n{entry_points}\n[unoengine.bot_kinds]\n{kinds}\n")
    return folder


def test_an_installed_plugin_bot_plays_by_name(installed: Path) -> None:
    done = _unoengine(installed, "simulate", "--bots", "greedy,heuristic", "--games", "20", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "   0  greedy " in done.stdout and "20 games of classic-108" in done.stdout
    workers = _unoengine(installed, "simulate", "--bots", "greedy,heuristic", "--games", "20", "--quiet",
                         "--workers", "2", "--json")
    assert workers.returncode == 0 and '"bot": "greedy"' in workers.stdout, workers.stderr
    isolated = _unoengine(installed, "simulate", "--bots", "greedy,random", "--games", "2", "--quiet", "--isolated")
    assert isolated.returncode == 0, isolated.stderr  # the bot server finds it too
    assert "greedy" in _unoengine(installed, "simulate", "--bots", "nosuch,random").stderr  # listed as known


def test_a_broken_plugin_is_one_line_and_breaks_no_other_bot(tmp_path: Path) -> None:
    folder = _fake_plugin(tmp_path, "broken = no_such_module_here:Bot")
    done = _unoengine(folder, "simulate", "--bots", "broken,random", "--games", "2", "--quiet")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("unoengine simulate: bot plugin 'broken' (no_such_module_here:Bot in group "
                                  "unoengine.bots): cannot be loaded: ModuleNotFoundError: ")
    other = _unoengine(folder, "simulate", "--bots", "heuristic,random", "--games", "2", "--quiet")
    assert other.returncode == 0, other.stderr


def test_a_plugin_cannot_shadow_a_shipped_bot(tmp_path: Path) -> None:
    folder = _fake_plugin(tmp_path, "heuristic = no_such_module_here:Bot")
    done = _unoengine(folder, "simulate", "--bots", "heuristic,random", "--games", "2", "--quiet")
    assert done.returncode == 0 and "heuristic" in done.stdout, done.stderr


def test_a_saved_game_never_loads_a_plugin_it_names(tmp_path: Path) -> None:
    """Issue 41, item 4: ``play --resume`` looked up the saved bot names, which imported the module
    of any installed plugin a shared file named (its code ran). A saved game starts shipped bots
    only; a plugin plays when named with --bots."""
    import json

    import unoengine as u
    from unoengine.tools import play as play_cli

    folder = _fake_plugin(tmp_path / "site", "sneaky = sneaky_bot:Bot")
    marker = tmp_path / "imported"
    (folder / "sneaky_bot.py").write_text(f"open({str(marker)!r}, 'w').close()\n"
                                          "from unoengine.bots import RandomBot as Bot\n")
    record = u.GameRecord(u.load_profile("classic-108"), 2, 3)
    save = tmp_path / "shared.json"
    save.write_text(json.dumps(play_cli.saved_game(record, 0, ["sneaky"])))
    done = _unoengine(folder, "play", "--resume", str(save))
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert "seat 1: the saved bot 'sneaky' is not one unoengine ships" in done.stderr
    assert not marker.exists()
    named = _unoengine(folder, "play", "--resume", str(save), "--bots", "sneaky")  # then stdin ends: goodbye
    assert named.returncode == 0 and "p1 sneaky" in named.stdout and marker.exists(), named.stderr


HOSTILE_PLUGIN = """
import sys


class Nameless:
    def act(self, view, rng):
        raise ValueError("boom")


class Quitter:
    name = "quitter"

    def act(self, view, rng):
        sys.exit(0)


def nothing(argument):
    return None


def leaving(argument):
    sys.exit(0)
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Plugins that misbehave (issue 41, item 9): a nameless bot, a bot that calls sys.exit in
    act, a kind that makes None, a kind that calls sys.exit, a module that calls sys.exit."""
    folder = _fake_plugin(tmp_path_factory.mktemp("hostile"),
                          "nameless = hostile_plugin:Nameless\nquitter = hostile_plugin:Quitter\n"
                          "leaver = leaves_on_import:Bot",
                          "nothing = hostile_plugin:nothing\nleaving = hostile_plugin:leaving")
    (folder / "hostile_plugin.py").write_text(HOSTILE_PLUGIN)
    (folder / "leaves_on_import.py").write_text("import sys\nsys.exit(0)\n")
    return folder


@pytest.mark.parametrize(("bot", "problem"), [
    ("nothing:x", "bot kind 'nothing': made None, which has no act method"),
    ("leaving:x", "bot kind 'leaving': making the bot called sys.exit(0)"),
    ("nameless", "bot plugin 'nameless' (hostile_plugin:Nameless in group unoengine.bots): made a Nameless "
                 "whose name is None, not a non-empty string"),
    ("quitter", "bot 'quitter' at seat 0 raised SystemExit: 0"),
    ("leaver", "bot plugin 'leaver' (leaves_on_import:Bot in group unoengine.bots): cannot be loaded: SystemExit"),
])
def test_a_hostile_plugin_is_one_line_naming_it_and_exit_2(hostile: Path, bot: str, problem: str) -> None:
    """A kind that makes None is checked, a bot is never named None, and sys.exit in a plugin
    (at import, making the bot, or acting) is that bot's error rather than a silent end of the run."""
    done = _unoengine(hostile, "simulate", "--bots", f"{bot},random", "--games", "3", "--quiet")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, (done.returncode, done.stderr)
    assert problem in done.stderr and "None at seat" not in done.stderr, done.stderr
