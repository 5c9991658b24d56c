"""Children that die with the process that started them, where the system allows it.

A runner that cleans up (tools/shutdown.py) stops its bot programs, adapters and worker processes
itself. One that cannot, because it was killed with SIGKILL or crashed, leaves them running: a
program blocked on its input waits for ever. On Linux the kernel can send a child a signal when
its parent dies (``prctl(PR_SET_PDEATHSIG)``); this module asks for it.

- :func:`program_preexec` is the ``preexec_fn`` that bots/child.py gives ``subprocess.Popen``: the
  program is sent SIGKILL when its runner dies. Its own children are not (the setting is not
  inherited across ``fork``): a program that starts processes of its own must end them.
- :func:`die_with_parent` is called by a pool worker (tools/simulate.py) as it starts: SIGTERM, which
  the worker turns into killing the process groups of its programs before it exits.

Caveats (docs/security.md): Linux only (elsewhere both do nothing); the signal comes when the
*thread* that started the child ends, so a child started from another thread than the main one
(a Dask worker's thread pool) is not given it; and ``preexec_fn`` makes ``subprocess`` fork rather
than spawn, which the Python documentation calls unsafe in a process with threads. The function
run in the child is kept to two system calls and a comparison, with nothing to import or lock.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>."""


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, looked up once in the parent (never in a child between fork and exec)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: not every process that imports the bots starts a program

    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # a libc without it, or no dynamic loading
        return None
    return prctl


def die_with_parent(signum: int, parent: int) -> bool:
    """Have the kernel send this process ``signum`` when its parent (pid ``parent``) dies; if the
    parent has died already (before the request could be made), send it now. False where this
    cannot be asked (not Linux)."""
    prctl = _prctl()
    if prctl is None:
        return False
    if prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # the parent died before the request was made
        os.kill(os.getpid(), signum)
    return True


def program_preexec() -> Callable[[], None] | None:
    """The ``preexec_fn`` that makes a program die (SIGKILL) with this process, or None where it
    cannot be asked (not Linux, or not the main thread: see the module's caveats)."""
    if _prctl() is None or threading.current_thread() is not threading.main_thread():
        return None
    return functools.partial(_die_with_runner, os.getpid())


def _die_with_runner(runner: int) -> None:
    die_with_parent(signal.SIGKILL, runner)
