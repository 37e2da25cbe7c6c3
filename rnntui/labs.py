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
of the moment; a lab's failure line is the exception's own text.
"""
from __future__ import annotations

import importlib
import os
import sys

from dataclasses import dataclass, replace
from typing import Any

from textual.message import Message

from rnntui.figure import Lab, LabRun, failure_line
from rnntui.i18n import _

POLL_S = 0.05  # how often the worker looks for a cancel while the child is silent


def _child(target: str, state: Any, conn) -> None:
    """In the child process: run the lab, report over `conn`."""
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
        first = getattr(state, "first_partial", None)
        started = replace(run, status="running", number=run.number + 1, done=0, total=0,
                          label=_("starting torch"), partial=first() if first else None, message="")
        import multiprocessing  # here, not at startup: the first frame does not need it

        ctx = multiprocessing.get_context("spawn")
        _start_resource_tracker()
        here, there = ctx.Pipe(duplex=False)
        state = replace(state, run=LabRun()) if hasattr(state, "run") else state
        self.process = ctx.Process(target=_child, args=(lab.target, state, there), daemon=True,
                                   name=f"rnntui lab {figure_id}")
        self.process.start()
        there.close()
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
                    if not process.is_alive() and not conn.poll(0):
                        post(replace(run, status="failed", message=_("the lab process ended without a result")))
                        return
                    continue
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    continue
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


def _start_resource_tracker() -> None:
    """Spawning starts multiprocessing's resource tracker, handing it sys.stderr's descriptor; inside
    a running app sys.stderr is Textual's capture, whose fileno() is -1, and the start fails ("bad
    value(s) in fds_to_keep"). Start it with the real stderr (or none) instead."""
    from multiprocessing import resource_tracker

    captured = sys.stderr
    try:
        sys.stderr = sys.__stderr__
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured


def _kill(process) -> None:
    if process is not None and process.is_alive():
        process.kill()
        process.join(timeout=1)


def run_here(target: str, state: Any, report=None) -> Any:
    """Run a lab target in this process (the command line and tests)."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(state, report or (lambda *a, **k: None))




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
