"""The interactive commands need a terminal, and end when it goes away.

Without a terminal on stdin and stdout, Textual spins at 100% CPU writing escape codes; with the
terminal gone (SIGHUP, or the other end of a pty closed) it does the same. Both end here instead.
"""
from __future__ import annotations

import asyncio
import os
import select
import signal
import sys

from rnntui.state import BadValue

HANGUP_STATUS = 128 + signal.SIGHUP  # what a shell reports for a job ended by SIGHUP


def require_terminal(what: str = "") -> None:
    """Raise BadValue (one line, exit 2) unless stdin and stdout are both a terminal."""
    from rnntui.i18n import _

    if os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver"):
        return  # a browser tab of `rnntui serve`: textual-serve talks to the app over pipes
    if not (sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty()):
        raise BadValue(_("{what} needs a terminal on stdin and stdout (over ssh: ssh -t); "
                         "to render without one, use `rnntui shot` or `rnntui export`").format(what=what or _("the app")))


def run(app) -> int:
    """Run an app; its return code (1 after an unhandled exception) becomes the exit status."""
    app.run()
    return app.return_code or 0


def hung_up(fd: int = 0) -> bool:
    """True once the terminal on `fd` is gone (poll reports a hangup or an error)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(event & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, event in poller.poll(0))


def end_on_hangup(app) -> None:
    """Call from the app's on_mount: SIGHUP, or the terminal closing under us, ends the app."""
    def hang_up() -> None:
        app.exit(return_code=HANGUP_STATUS)

    try:
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, hang_up)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
        pass
    if sys.__stdin__ is not None and sys.__stdin__.isatty():
        fd = sys.__stdin__.fileno()
        app.set_interval(0.5, lambda: hung_up(fd) and hang_up())
