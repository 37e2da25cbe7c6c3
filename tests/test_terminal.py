"""The interactive commands need a terminal, end when it goes away, and report a crash."""
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from contextlib import contextmanager

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "rnntui", *args], capture_output=True, text=True,
                          timeout=20, cwd=ROOT, **kw)


@pytest.mark.parametrize("args", [(), ("recurrence/track",), ("present", "lecture")])
def test_without_a_terminal_one_line_and_exit_2(args):
    r = run(*args, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs a terminal" in lines[0] and "ssh -t" in lines[0]
    assert "\x1b" not in r.stderr + r.stdout


def test_stdout_not_a_terminal_is_refused_too():
    master, slave = pty.openpty()
    try:
        r = run(stdin=slave)
    finally:
        os.close(master), os.close(slave)
    assert r.returncode == 2 and "needs a terminal" in r.stderr


@pytest.mark.parametrize("args", [(), ("present", "lecture"), ("--lang", "zh")])
def test_a_terminal_that_is_not_utf8_is_refused_in_one_line(args):
    """In a Latin-1 terminal the app drew "\\u256d\\u2500 Token track" escapes over a broken layout (a
    lecturer's trial with PYTHONIOENCODING=latin-1): it says in one line how to get UTF-8, exit 2; in
    English where the reader's Chinese cannot be written there (it came out as \\u7ec8…, a review)."""
    p, master = start_in_pty(f"from rnntui.cli import main; raise SystemExit(main({list(args)!r}))",
                             env={**os.environ, "PYTHONIOENCODING": "latin-1"})
    try:
        seen = read_until(master, b"UTF-8 locale", 10)
        assert wait_or_kill(p, 5) == 2
    finally:
        os.close(master)
    lines = seen.decode("latin-1").strip().splitlines()
    assert len(lines) == 1 and "PYTHONIOENCODING=utf-8" in lines[0] and "\x1b" not in seen.decode("latin-1")
    assert "\\u" not in lines[0] and lines[0].startswith("rnntui: the terminal takes iso8859-1 only")


@pytest.mark.parametrize("term", ["dumb", "unknown"])
def test_a_dumb_terminal_is_refused_in_one_line(term):
    """TERM=dumb (Emacs' shell) got a full-screen app in 24-bit colour (a lecturer's trial): it cannot place
    the cursor, so the app says in one line to use a full terminal, exit 2."""
    p, master = start_in_pty(env={**os.environ, "TERM": term})
    try:
        seen = read_until(master, b"full terminal", 10)
        assert wait_or_kill(p, 5) == 2
    finally:
        os.close(master)
    lines = seen.decode().strip().splitlines()
    assert len(lines) == 1 and f"TERM={term}" in lines[0] and "\x1b" not in seen.decode()


@pytest.mark.parametrize("topic", ["", "  "])
def test_an_empty_topic_is_a_bad_value(topic):
    r = run(topic, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        "rnntui: an empty topic: name one (see rnntui --list), or give none for the first"]


def test_headless_commands_need_no_terminal(tmp_path):
    r = run("shot", "recurrence/track", "-o", "-", stdin=subprocess.DEVNULL)
    assert r.returncode == 0 and "Token track" in r.stdout
    assert run("--list", stdin=subprocess.DEVNULL).returncode == 0


# -- in a pseudo-terminal -----------------------------------------------------------------------
def start_in_pty(code: str = "from rnntui.cli import main; raise SystemExit(main())", env=None):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    p = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                         start_new_session=True, env=env)
    os.close(slave)
    return p, master


@contextmanager
def app_in_pty(code: str = "from rnntui.cli import main; raise SystemExit(main())"):
    """start_in_pty's (process, master); after, the app killed if a failure left it running, the master closed."""
    p, master = start_in_pty(code)
    try:
        yield p, master
    finally:
        ended(p)
        os.close(master)


def ended(p) -> None:
    """The app killed if it still runs: a test that failed must not leave it behind."""
    if p.poll() is None:
        p.kill()
        p.wait()


def read_until(master: int, text: bytes, secs: float = 20) -> bytes:
    seen, end = b"", time.monotonic() + secs
    while text not in seen and time.monotonic() < end:
        if select.select([master], [], [], 0.2)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:  # the child closed its side
                break
    return seen


def wait_or_kill(p, secs: float):
    try:
        return p.wait(timeout=secs)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return "still running"


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_sighup_or_sigterm_ends_the_app_within_a_second_and_gives_the_terminal_back(signum):
    """SIGTERM killed the app in its alternate screen, cursor hidden, mouse reported (a trial)."""
    with app_in_pty() as (p, master):
        assert b"recurrence" in read_until(master, b"recurrence")
        p.send_signal(signum)
        t0 = time.monotonic()
        assert wait_or_kill(p, 2) == 128 + signum  # ended by the app, not killed by the signal
        assert time.monotonic() - t0 < 1.5
        rest = read_until(master, b"\x1b[?25h", 1)
        assert b"\x1b[?1049l" in rest and b"\x1b[?25h" in rest  # the main screen back, the cursor shown,
        assert b"\x1b[?1000l" in rest  # and the mouse no longer reported


@pytest.mark.parametrize("command", ["", "help", "present"])
def test_ctrl_z_suspends_the_app_to_the_shell_and_it_comes_back(command):
    """ctrl+z did nothing in the app or in present: the terminal is raw, and nothing was bound (a trial); nor
    over help or the palette, which take no app key that is not a priority (a review). Started by a shell with
    job control (here: as if, a process group of its own)."""
    code = ("import os; os.getsid = lambda pid: -1; from rnntui.cli import main; "  # (our job's own group)
            f"raise SystemExit(main({['present', 'lecture'] if command == 'present' else []!r}))")
    with app_in_pty(code) as (p, master):
        assert read_until(master, b"recurrence" if command != "present" else b"1/")
        if command == "help":
            os.write(master, b"?")
            assert read_until(master, b"Keys", 5)
        os.write(master, b"\x1a")
        for _try in range(50):
            pid, status = os.waitpid(p.pid, os.WUNTRACED | os.WNOHANG)
            if pid:
                break
            time.sleep(0.1)
        assert pid and os.WIFSTOPPED(status)
        assert b"\x1b[?1049l" in read_until(master, b"\x1b[?1049l", 1)  # the shell's screen back meanwhile
        os.kill(p.pid, signal.SIGCONT)  # (what fg does)
        assert b"\x1b[?1049h" in read_until(master, b"\x1b[?1049h", 3)  # and the app's again
        os.write(master, b"\x1b" if command == "help" else b"")  # (help closes, then q quits)
        time.sleep(0.3)
        os.write(master, b"q")
        assert wait_or_kill(p, 5) == 0


def test_ctrl_z_without_job_control_says_why_and_keeps_the_app():
    """`ssh -t host rnntui` (or `bash -c`) runs the app with no shell to `fg` it: ctrl+z stopped it for good and
    froze the session (a tmux check). It says so in one line and the app goes on."""
    with app_in_pty() as (p, master):  # (its own session, as sshd starts one: no job control)
        assert read_until(master, b"recurrence")
        os.write(master, b"\x1a")
        assert b"no shell to go back to" in read_until(master, b"no shell to go back to", 5)
        assert os.waitpid(p.pid, os.WUNTRACED | os.WNOHANG) == (0, 0)  # still running
        os.write(master, b"q")
        assert wait_or_kill(p, 5) == 0


def test_terminal_closing_without_sighup_ends_the_app():
    p, master = start_in_pty()
    assert b"recurrence" in read_until(master, b"recurrence")
    os.close(master)  # no controlling terminal, so no SIGHUP: only the hangup on stdin tells
    assert wait_or_kill(p, 2) == 128 + signal.SIGHUP


CRASH = """
from rnntui.app import RnnApp
from rnntui.cli import main
def boom(self):
    raise RuntimeError("deliberate crash")
RnnApp.action_help = boom
raise SystemExit(main())
"""


@pytest.mark.parametrize("elsewhere", ["/dev/null", "closed", "another terminal"])
def test_the_app_draws_on_the_terminal_with_stderr_sent_elsewhere(elsewhere):
    """Textual draws on stderr: `rnntui 2>/dev/null` showed a blank screen, `2>&-` hung, and `2>/dev/pts/7`
    drew in another pane (a review). It draws on stdout's terminal, and nothing goes to the other one."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    other_master, other = pty.openpty()
    stderr = {"/dev/null": subprocess.DEVNULL, "closed": None, "another terminal": other}[elsewhere]
    code = "import os, sys; from rnntui.cli import main; " + ("os.close(2); sys.stderr = sys.__stderr__ = None; "
                                                             if elsewhere == "closed" else "") + "raise SystemExit(main())"
    p = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=stderr or slave, cwd=ROOT,
                         start_new_session=True)
    os.close(slave)
    os.close(other)
    try:
        assert b"recurrence" in read_until(master, b"recurrence")
        os.write(master, b"q")
        assert wait_or_kill(p, 5) == 0
        assert b"recurrence" not in read_until(other_master, b"recurrence", 0.5)
    finally:
        ended(p)  # (a failure left the app running: it hung blank before the fix)
        os.close(master)
        os.close(other_master)


def test_a_crash_exits_non_zero_with_the_traceback():
    p, master = start_in_pty(CRASH)
    try:
        read_until(master, b"recurrence")
        os.write(master, b"?")
        shown = read_until(master, b"never printed", 10)
        assert wait_or_kill(p, 5) == 1
        assert b"deliberate crash" in shown
    finally:
        os.close(master)


# -- a terminal gone while the app still draws -------------------------------------------------------
class DeadTerminal:
    """A terminal whose other end is closed: every write fails as a pty's does then (EIO)."""

    def write(self, text):
        raise OSError(5, "Input/output error")

    def flush(self):
        raise OSError(5, "Input/output error")


def test_drawing_into_a_closed_terminal_never_blocks():
    """Textual's writer thread died on the first failed write; the app's next 30 writes filled its
    queue and the 31st blocked for ever (the app never exited after `tmux kill-session`)."""
    import threading

    from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread

    from rnntui.terminal import Gone

    writer = WriterThread(Gone(DeadTerminal()))
    writer.start()

    def draw():
        for i in range(MAX_QUEUED_WRITES * 3):
            writer.write(f"frame {i}")
        writer.stop()  # what the app's shutdown does last

    drawing = threading.Thread(target=draw, daemon=True)
    drawing.start()
    drawing.join(5)
    assert not drawing.is_alive(), "a write into the closed terminal blocked"
    assert not writer.is_alive()  # ended by stop(), not by the error


async def test_the_apps_run_in_the_sturdy_driver(monkeypatch):
    from textual.drivers.linux_driver import LinuxDriver

    from rnntui.app import RnnApp
    from rnntui.deck import load
    from rnntui.present import PresentApp
    from rnntui.terminal import Gone, sturdy

    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    app = RnnApp()
    assert app.driver_class is sturdy(LinuxDriver) and issubclass(app.driver_class, LinuxDriver)
    assert PresentApp(load("lecture"), "dark", 0).driver_class is sturdy(LinuxDriver)
    before = {s: signal.getsignal(s) for s in (signal.SIGTSTP, signal.SIGCONT)}  # the driver sets these
    try:
        driver = app.driver_class(app)
        assert isinstance(driver._file, Gone)  # (which terminal: the pseudo-terminal tests above)
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def test_only_a_gone_terminal_is_ignored():
    """A terminal that is merely busy (EAGAIN) is not gone: that error still reaches Textual."""
    from rnntui.terminal import Gone

    class Busy:
        def write(self, text):
            raise BlockingIOError(11, "Resource temporarily unavailable")

    assert Gone(DeadTerminal()).write("x") == 0
    with pytest.raises(BlockingIOError):
        Gone(Busy()).write("x")


def test_the_app_takes_its_size_from_the_terminal_not_from_columns_and_lines():
    """COLUMNS=40 LINES=10 exported in a 100x30 terminal drew a 40x10 app in its corner, however the window
    was resized: Textual sizes by shutil, which reads them first (a trial). Here an 80x24 terminal with
    COLUMNS=40 LINES=10 draws the app 80 wide: its title whole (at 40, "rnntui · 1 recurrence …")."""
    p, master = start_in_pty(env={**os.environ, "COLUMNS": "40", "LINES": "10"})
    try:
        seen = read_until(master, b"palette", 20)
        os.write(master, b"q")
        assert wait_or_kill(p, 10) == 0
    finally:
        os.close(master)
    assert b"One token at a time" in seen
