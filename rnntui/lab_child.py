"""A lab's child process, started by labs.LabRunner as `python -c CHILD FD LABEL`.

It reads the app's sys.path and then the lab's (target, state) from stdin, pickled, and reports over
the pipe at descriptor FD (LABEL only names it in `ps`). It imports what the lab needs (torch, numpy,
the figure's state), not Textual, and it ends when the app does: the app holds its stdin open.
"""
from __future__ import annotations

import importlib
import os
import pickle
import sys
import threading
from typing import Any

# what the child runs: the app's sys.path first, so that it imports the app's own rnntui
CHILD = "import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); from rnntui.lab_child import main; main()"


def main() -> None:
    from multiprocessing.connection import Connection

    conn = Connection(int(sys.argv[1]), readable=False)
    try:
        target, state, lang = pickle.load(sys.stdin.buffer)
        from rnntui.i18n import set_language

        set_language(lang)  # the app's, as the lab starts
    except BaseException as e:  # (rnntui upgraded under a running app: its state may not read here)
        conn.send(("failed", failure(e)))
        conn.close()
        return
    threading.Thread(target=_end_with_app, daemon=True).start()
    run(target, state, conn)


def _end_with_app() -> None:
    """Ends this process once its stdin closes: the app is gone (killed, or crashed). A lab's steps
    report seconds apart, or never (timing's longest row), so its pipe would tell it too late."""
    while os.read(0, 4096):
        pass
    os._exit(1)


def run(target: str, state: Any, conn) -> None:
    """Run the lab, report over `conn` (its output goes nowhere: the app starts it with stdout and stderr
    on /dev/null, the terminal being the app's)."""
    latest = Latest(conn)

    def report(done: int, total: int, label: str = "", partial: Any = None) -> None:
        latest.put(("progress", (done, total, label, partial)))

    try:
        module, _, name = target.partition(":")
        result = getattr(importlib.import_module(module), name)(state, report)
        latest.close()
        conn.send(("done", result))
    except BaseException as e:  # one line back to the app, never a traceback on its screen
        latest.close()
        conn.send(("failed", failure(e)))
    finally:
        conn.close()


class Latest:
    """Progress sent from a thread of its own, the newest only: the lab never waits on the pipe. With the app
    suspended (ctrl+z) nothing reads it, and seq2seq's reports (its weights, ~50 KB) filled it within a
    second: the run stopped until `fg` (a student's trial). Each report is whole (the app keeps the last),
    pickled as it is made, in the lab's thread: what the lab changes next is not in it, and a report that
    cannot be pickled fails the lab in one line, as before."""

    def __init__(self, conn) -> None:
        from multiprocessing.reduction import ForkingPickler  # (here: the app imports this module for CHILD)

        self.dumps, self.conn, self.item, self.closed = ForkingPickler.dumps, conn, None, False
        self.ready = threading.Condition()
        self.thread = threading.Thread(target=self._send, daemon=True, name="rnntui-lab-progress")
        self.thread.start()

    def put(self, item) -> None:
        data = self.dumps(item)  # (what Connection.send does before it writes)
        with self.ready:
            self.item = data  # (one not yet sent is replaced)
            self.ready.notify()

    def close(self) -> None:
        """Once the report in hand is sent: the pipe is then free for the result."""
        with self.ready:
            self.closed = True
            self.ready.notify()
        self.thread.join()

    def _send(self) -> None:
        while True:
            with self.ready:
                while self.item is None and not self.closed:
                    self.ready.wait()
                if self.item is None:
                    return
                item, self.item = self.item, None
            try:
                self.conn.send_bytes(item)
            except OSError:  # (the app has gone: the result's send says so)
                return


def failure(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"
