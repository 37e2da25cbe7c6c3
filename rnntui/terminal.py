"""The interactive commands need a terminal, and end when it goes away.

Without a terminal on stdin and stdout, Textual spins at 100% CPU writing escape codes; with the
terminal gone (SIGHUP, or the other end of a pty closed) it does the same. Both end here instead.
"""
from __future__ import annotations

import asyncio
import codecs
import errno
import functools
import os
import select
import signal
import sys
import time
from contextlib import contextmanager

from rnntui.i18n import N_
from rnntui.state import BadValue, Marked


def require_terminal(what: str = "") -> None:
    """Raise BadValue (one line, exit 2) unless stdin and stdout are both a terminal, which sizes the app."""
    from rnntui.i18n import _

    if os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver"):
        return  # a browser tab of `rnntui serve`: textual-serve talks to the app over pipes
    if not (sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty()):
        raise BadValue(_("{what} needs a terminal on stdin and stdout (over ssh: ssh -t); "
                         "to render without one, use `rnntui shot` or `rnntui export`").format(what=what or _("the app")))
    term = os.environ.get("TERM", "")
    if term.strip().lower() in ("dumb", "unknown"):  # (Emacs' shell: no cursor to place; it got 24-bit colour, a trial)
        raise BadValue(_("{what} cannot draw in this terminal (TERM={term}): run it in a full terminal, e.g. "
                         "TERM=xterm-256color").format(what=what or _("the app"), term=term))
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if codecs.lookup(encoding).name != "utf-8":  # (Latin-1 drew "\u256d\u2500 Token track" escapes, a trial;
        # said in English where the reader's language does not encode: Chinese came out as \u7ec8…, a review)
        raise Marked(N_("the terminal takes {encoding} only; the app draws in UTF-8: set a UTF-8 locale "
                        "(LANG=C.UTF-8) or PYTHONIOENCODING=utf-8"), encoding=encoding)
    # sized by the terminal itself: Rich and Textual take COLUMNS and LINES first where they are exported, and
    # COLUMNS=40 drew 40x10 in a corner of 100x30 however the window was resized (a trial)
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)


class Gone:
    """The terminal file Textual's writer thread writes to, except that a write or flush failing
    because the terminal is gone (EIO) is dropped. Textual's writer thread dies on that error and the
    app, still drawing, then filled the dead thread's queue and blocked on it for ever, never reaching
    its hangup check: `tmux kill-session` in the app's first second left it running (issue 16's bench
    left 28 behind). With the thread alive, the hangup ends the app as it should."""

    GONE = (errno.EIO, errno.EPIPE, errno.ENXIO, errno.EBADF)  # (a full buffer, EAGAIN, still raises)

    def __init__(self, file) -> None:
        self._file = file

    def write(self, text: str) -> int:
        try:
            return self._file.write(text)
        except OSError as e:
            if e.errno not in self.GONE:
                raise
            return 0

    def flush(self) -> None:
        try:
            self._file.flush()
        except OSError as e:
            if e.errno not in self.GONE:
                raise

    def __getattr__(self, name: str):
        return getattr(self._file, name)


def few_colours(app) -> bool:
    """Does the app draw in 16 colours? TERM=xterm or screen without COLORTERM, as PuTTY, tmux and screen
    often set (Rich's reading of the environment). Not headless or in a browser: they draw in full."""
    return not (app.is_headless or app.is_web) and app.console.color_system in ("standard", "windows")


def colours_256(app) -> bool:
    """Does the app draw in 256 colours? TERM=xterm-256color without COLORTERM, as over SSH (which does not
    forward COLORTERM). Not headless or in a browser: they draw in full."""
    return not (app.is_headless or app.is_web) and app.console.color_system == "256"


def same_terminal(a, b) -> bool:
    """Whether two open files are one terminal (stderr sent elsewhere is not)."""
    try:
        return a.isatty() and os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno()))
    except (AttributeError, OSError, ValueError):  # (closed: None, or a file without a descriptor)
        return False


@functools.cache
def sturdy(driver_class):
    """The driver an app runs in (its `get_driver_class`): Textual's Linux driver writes through
    `Gone`, on stdout when stderr is not the terminal; any other driver (a browser's, Windows') is used
    as it is."""
    if driver_class.__name__ != "LinuxDriver":
        return driver_class

    class Driver(driver_class):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            if not same_terminal(self._file, sys.__stdout__):  # Textual draws on stderr: `rnntui 2>/dev/null`
                self._file = sys.__stdout__  # drew nowhere, `2>&-` hung, `2>/dev/pts/7` drew in another pane
            self._file = Gone(self._file)  # (require_terminal: stdout is the terminal)

    return Driver


def run(app) -> int:
    """Run an app; its return code (1 after an unhandled exception) becomes the exit status."""
    app.run()
    return app.return_code or 0


def job_control() -> bool:
    """Whether a shell with job control started us (our job has a process group of its own): ctrl+z then
    stops us and `fg` brings us back. Started without one (`ssh -t host rnntui`, `bash -c`), nothing would:
    the app stayed stopped, the session frozen (a tmux check)."""
    try:
        return os.getpgrp() != os.getsid(0)
    except (AttributeError, OSError):  # (no process groups: Windows)
        return False


def suspend(app) -> None:
    """ctrl+z: to the shell where one can bring the app back, else one line saying why not."""
    from rnntui.i18n import _

    if job_control():
        app.action_suspend_process()
    else:
        app.notify(_("ctrl+z: no shell to go back to (started without job control, as ssh -t host rnntui is); "
                     "q quits"), timeout=4)


def hung_up(fd: int = 0) -> bool:
    """True once the terminal on `fd` is gone (poll reports a hangup or an error)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(event & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, event in poller.poll(0))


def end_on_hangup(app) -> None:
    """Call from the app's on_mount: SIGHUP, or the terminal closing under us, ends the app, as SIGTERM does
    (it killed the app and left the terminal in its alternate screen, cursor hidden, mouse on: a trial), each
    with the shell's status for it. Not headless (shot, export): there the command's own handler stops it
    between frames (`stop_between_frames`)."""
    if app.is_headless:
        return

    def hang_up(signum: int = signal.SIGHUP) -> None:
        app.exit(return_code=128 + signum)

    try:
        for signum in (signal.SIGHUP, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(signum, hang_up, signum)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
        pass
    if sys.__stdin__ is not None and sys.__stdin__.isatty():
        fd = sys.__stdin__.fileno()
        app.set_interval(0.5, lambda: hung_up(fd) and hang_up())


class Stopped(KeyboardInterrupt):
    """A batch command (export) stopped by ctrl+c, SIGTERM or SIGHUP: 128 + `signum` is its status."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__()
        self.signum = signum


PATIENCE_S = 1.0  # a command asked to stop acts on it well within this (a frame, or 0.1 s drawing PNGs)


@contextmanager
def handling(signums: tuple, handler):
    """While it lasts, `handler` for each of `signums` not ignored (nohup: a hangup stays ignored, a review);
    the handlers before it put back after. Not the main thread: signals stay as they were."""
    kept = {}
    try:
        for signum in signums:
            if signal.getsignal(signum) != signal.SIG_IGN:
                kept[signum] = signal.signal(signum, handler)
    except ValueError:
        pass
    try:
        yield
    finally:
        for signum, old in kept.items():
            signal.signal(signum, old)


@contextmanager
def stop_between_frames():
    """While it lasts, ctrl+c, SIGTERM and SIGHUP (a closed SSH session) only ask to stop: the list it
    gives holds the signal, for the command to raise Stopped where it can stop cleanly (a ctrl+c in the
    middle of a frame ended in a traceback from the app's tasks; SIGTERM left its temporary files; SIGHUP
    ended the app under the export, which went on at 0.5 frames/s). A second ctrl+c a second or more after
    the first, not yet acted on, stops at once; one sooner, only asks again (an impatient second press landed
    in the app's tasks or the clean-up: a traceback, or ~100 temporary files left, a trial)."""
    asked: list[int] = []
    first = [0.0]

    def ask(signum, _frame) -> None:
        if asked and signum == signal.SIGINT and time.monotonic() - first[0] >= PATIENCE_S:
            raise Stopped(signum)
        if not asked:
            first[0] = time.monotonic()
        asked.append(signum)

    with handling((signal.SIGINT, signal.SIGTERM, signal.SIGHUP), ask):
        yield asked


@contextmanager
def stopped_by_signals():
    """While it lasts, SIGTERM and SIGHUP raise Stopped where the command is, as ctrl+c raises
    KeyboardInterrupt, so that its clean-up runs: they killed `shot` and `train` outright, leaving a temporary
    file, or a cached model set aside under its .previous name (a trial)."""
    def stop(signum, _frame) -> None:
        raise Stopped(signum)

    with handling((signal.SIGTERM, signal.SIGHUP), stop):
        yield
