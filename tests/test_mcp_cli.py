"""``unoengine mcp`` on the command line, without the MCP SDK: the command says in one line how to
install the ``mcp`` extra and exits 2, and neither ``import unoengine`` nor any ``--help`` loads
the SDK (tests/test_mcp_server.py runs the command with it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from unoengine.formats.install_hint import install_command

SRC = Path(__file__).resolve().parents[1] / "src"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})


def test_unoengine_mcp_without_the_sdk_prints_one_line_with_the_install_command() -> None:
    done = _python("import sys\nsys.modules['mcp'] = None\nfrom unoengine.tools.cli import main\n"
                   "raise SystemExit(main(['mcp']))\n")
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and done.stdout == "" and len(lines) == 1, done.stderr
    assert lines[0].startswith("unoengine mcp: the mcp SDK 2.x is not installed: ")
    assert install_command("mcp") in lines[0]


def test_neither_import_nor_help_loads_the_sdk() -> None:
    done = _python("import contextlib, io, sys\nimport unoengine, unoengine.tools.cli as cli\n"
                   "for argv in (['--help'], ['mcp', '--help']):\n"
                   "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
                   "        cli.main(argv)\n"
                   "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', 'anyio')))\n")
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr
