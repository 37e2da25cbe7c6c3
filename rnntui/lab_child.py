"""A lab's child process, started by labs.LabRunner as `python -c CHILD FD`.

It reads the app's sys.path and then the lab's (target, state) from stdin, pickled, and reports over
the pipe at descriptor FD. It imports what the lab needs (torch, numpy, the figure's state), not
Textual. It is a plain process, not multiprocessing's: spawning one started multiprocessing's
resource tracker, a process of ~13 MB that stayed beside the app until it quit.
"""
from __future__ import annotations

import importlib
import os
import pickle
import sys
from typing import Any

# what the child runs: the app's sys.path first, so that it imports the app's own rnntui
CHILD = "import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); from rnntui.lab_child import main; main()"


def main() -> None:
    from multiprocessing.connection import Connection

    target, state = pickle.load(sys.stdin.buffer)
    run(target, state, Connection(int(sys.argv[1]), readable=False))


def run(target: str, state: Any, conn) -> None:
    """Run the lab, report over `conn`."""
    try:  # the child draws nothing: the terminal belongs to the app
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
    except OSError:
        pass

    def report(done: int, total: int, label: str = "", partial: Any = None) -> None:
        conn.send(("progress", (done, total, label, partial)))

    try:
        module, _, name = target.partition(":")
        result = getattr(importlib.import_module(module), name)(state, report)
        conn.send(("done", result))
    except BaseException as e:  # one line back to the app, never a traceback on its screen
        conn.send(("failed", f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"))
    finally:
        conn.close()
