"""The one lab runner: a figure's torch lab runs in a child process, watched by a Textual worker.

    runner = LabRunner(screen)         # one per topic screen
    runner.start(figure_id, lab, state)  # `t`
    runner.cancel()                    # `t` again, leaving the screen, `q`

The child imports torch (the app never does), so its memory leaves with it and thread settings
cannot leak from one lab into the next. It sends (kind, payload) tuples over a pipe: "progress"
with (done, total, label, partial), then "done" with the result or "failed" with one line. The
worker thread turns each into a `LabMessage` posted to the screen; killing the child is instant,
even in the middle of `import torch`.

The runner's own words ("starting torch", "cancelled", …) are translated when made, in the language
of the moment; a lab's failure line is the exception's own text. The child speaks the app's language as
the lab starts (a refused save's "cannot write …: why" was English in Chinese, a review).
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, replace
from typing import Any

from textual.message import Message

from rnntui.figure import Lab, LabRun, failure_line
from rnntui.i18n import _, language
from rnntui.lab_child import CHILD, failure

POLL_S = 0.05  # how often the worker looks for a cancel while the child is silent


@dataclass
class LabMessage(Message):
    """A lab's news for the figure `figure_id`: a new LabRun to put into its state."""

    figure_id: str
    run: LabRun


class LabRunner:
    """Starts, watches and stops one lab at a time for a screen."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.process = None
        self.worker = None

    @property
    def busy(self) -> bool:
        return self.worker is not None and self.worker.is_running

    def start(self, figure_id: str, lab: Lab, state: Any, run: LabRun) -> LabRun:
        """Start the lab on `state`; returns the LabRun to show while it starts, its partial what the
        state's `first_partial()` says of the run before the lab's first report (if it has one)."""
        self.cancel()
        first, note = getattr(state, "first_partial", None), getattr(state, "lab_note", None)
        started = replace(run, status="running", number=run.number + 1, done=0, total=0,
                          label=_("starting torch"), partial=first() if first else None,
                          message=note() if note else "")  # (kept to its end: why it will not be saved)
        state = replace(state, run=LabRun()) if hasattr(state, "run") else state
        try:
            self.process, here = _spawn(lab.target, state, figure_id)
        except OSError as e:  # (no Python at sys.executable, no process to spare)
            return replace(started, status="failed", label="", message=failure_line(failure(e)))
        self.worker = self.screen.run_worker(lambda: self._watch(figure_id, started, here, self.process),
                                             thread=True, group="lab", exit_on_error=False,
                                             name=f"lab {figure_id}")
        return started

    def _watch(self, figure_id: str, run: LabRun, conn, process) -> None:
        """In a worker thread: relay the child's reports until it ends or the worker is cancelled."""
        from textual.worker import get_current_worker

        worker = get_current_worker()
        post = lambda r: self.screen.post_message(LabMessage(figure_id, r))
        try:
            while True:
                if worker.is_cancelled:
                    _kill(process)
                    post(replace(run, status="cancelled", message=_("cancelled")))
                    return
                if not conn.poll(POLL_S):
                    if not process.is_alive() and not conn.poll(0) and not worker.is_cancelled:
                        post(replace(run, status="failed", message=_ended(process)))
                        return
                    continue
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):  # it ended without a word (killed, crashed): nothing more comes
                    if worker.is_cancelled:  # (killed by `cancel`, which cancels this worker first)
                        continue
                    post(replace(run, status="failed", message=_ended(process)))
                    return
                if kind == "progress":
                    done, total, label, partial = payload
                    run = replace(run, done=done, total=total, label=label, partial=partial)
                    post(run)
                elif kind == "done":
                    post(replace(run, status="done", result=payload, done=run.total or run.done))
                    return
                else:  # (no torch: "ModuleNotFoundError: No module named 'torch'" on the screen, an admin's trial)
                    post(replace(run, status="failed", message=failure_line(str(payload))))
                    return
        finally:
            conn.close()
            _kill(process)

    def cancel(self) -> None:
        """Stop the running lab now: the child is killed, the worker reports "cancelled"."""
        if self.worker is not None and self.worker.is_running:
            self.worker.cancel()
        if self.process is not None:
            _kill(self.process)
        self.process = None


class Child(subprocess.Popen):
    """A lab's process, asked what multiprocessing's Process was asked."""

    def is_alive(self) -> bool:
        return self.poll() is None


def _spawn(target: str, state: Any, label: str) -> tuple[Child, Any]:
    """A new child running lab_child on (target, state), and the end of its pipe to read reports from
    (POSIX: the pipe is passed by its descriptor)."""
    import pickle  # here, not at startup: the first frame does not need them
    from multiprocessing.connection import Connection

    read, write = os.pipe()
    try:
        # the interpreter's own flags (-B, -X …) as multiprocessing passed them
        flags = subprocess._args_from_interpreter_flags()
        child = Child([sys.executable, *flags, "-c", CHILD, str(write), f"rnntui-lab:{label}"],
                      stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      pass_fds=(write,))
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)
    try:  # (a few hundred bytes: within a pipe's buffer, so this never waits for the child)
        child.stdin.write(pickle.dumps(sys.path) + pickle.dumps((target, state, language())))
        child.stdin.flush()  # and kept open until the lab ends (`_kill`): the child ends when it closes
    except OSError:  # it ended at once: the watcher says so
        pass
    return child, Connection(read, writable=False)


def _ended(process) -> str:
    """What the screen says of a child that ended without a result: how it ended, where known."""
    try:
        code = process.wait(timeout=1)  # (its pipe closed: it is ending)
    except subprocess.TimeoutExpired:
        code = None
    if code is not None and code < 0:
        return _("the lab process ended without a result (killed by signal {n})").format(n=-code)
    if code:
        return _("the lab process ended without a result (exit status {n})").format(n=code)
    return _("the lab process ended without a result")


def _kill(process) -> None:
    if process is None:
        return
    if process.is_alive():
        process.kill()
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:  # (not reaped yet: stuck in the kernel; a later poll reaps it)
            pass
    if getattr(process, "stdin", None) is not None:
        try:
            process.stdin.close()
        except OSError:
            pass


def demo_lab(state: Any, report) -> dict:
    """A lab without torch, for tests of the runner: 200 reports 50 ms apart (about 10 s)."""
    return _demo(report, 200)


def demo_lab_quick(state: Any, report) -> dict:
    """The same, three reports 20 ms apart."""
    return _demo(report, 3, 0.02)


def _demo(report, steps: int, pause: float = 0.05) -> dict:
    import time

    for i in range(steps):
        report(i, steps, f"demo {i}", {"demo": i})
        time.sleep(pause)
    return {"demo": steps, "pid": os.getpid()}
