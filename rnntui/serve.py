"""`rnntui serve`: the app in students' browsers, one process per browser tab (textual-serve).

Safe by default: it listens on 127.0.0.1 unless --host says otherwise, at most --max-sessions apps
run at once (a further tab gets "503: full"), an app nobody typed into for --idle-minutes is closed,
and ctrl+c (SIGINT or SIGTERM) stops the server and every app it started: each is asked to quit,
then terminated, then killed. On Linux an app also dies with the server if the server is killed.
One session's crash never touches another: each is its own process. ctrl+s in a browser downloads
the screenshot (a self-contained SVG). The page gets its Chinese font from the server (serve_page.py).
Each tab's labs write a cache of its own, begun as a copy of the server user's (`tab_cache`): one student's
`t` does not change what the other tabs and the lecturer's deck show.
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import shlex
import shutil
import signal
import sys
import time
from pathlib import Path

from rnntui.files import SERVED_TAB
from rnntui.i18n import N_, _, ngettext
from rnntui.state import BadValue

NEEDS = N_("`serve` needs textual-serve: pip install 'textual-serve>=1.1,<1.2'")  # ("rnntui: rnntui serve …" before)
TEMPLATES = Path(__file__).resolve().parent / "templates"
QUIT_GRACE_S = 3.0
CHUNK_WAIT_S = 30.0  # the most a download waits for the app's next chunk (textual-serve's own: 4 s)
RETRY_S = 3  # a full server's page asks again after this
FONT_SIZES = (6, 96)  # the ?fontsize= a page takes, in pixels (textual-serve's default: 16)
TAB_PREFIX = "rnntui-tab-"  # a tab's cache folder: rnntui-tab-SERVERPID-…, in the temporary folder
EXIT_GRACE_S = 2.0  # an app gone for this long with its tab still open: the tab is told and closed


def check_installed() -> None:
    try:
        import textual_serve.server  # noqa: F401
    except ImportError:
        raise BadValue(_(NEEDS)) from None


def app_command(app_args: list[str]) -> str:
    """The shell line textual-serve runs per session: `exec` so the app is the shell's own process."""
    return "exec " + shlex.join([sys.executable, "-m", "rnntui", *app_args])


def network_address() -> str:
    """This machine's address on its network: the one a route out of it leaves from (a UDP socket's
    connect sends nothing); its host name where it has no route."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # (TEST-NET-1: documentation only, never reached)
            return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()


def listened(host: str) -> list[str]:
    """The addresses the server binds for --host: `::` is every interface of both families (asyncio binds an
    IPv6 socket IPv6 only, and the IPv4 address it printed for `::` refused students: a lecturer's trial), IPv4
    alone where IPv6 cannot be bound (it printed the invitation, then failed: a review)."""
    if host != "::":
        return [host]
    import socket

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::", 0))
    except OSError:
        return ["0.0.0.0"]
    return ["::", "0.0.0.0"]


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _die_with_parent() -> None:  # runs in the child between fork and exec
    os.setpgrp()  # its own process group: a ctrl+c in the server's terminal reaches the server only
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: SIGTERM when the server dies
        except (OSError, AttributeError):
            pass


def tab_cache() -> Path:
    """A folder for one tab's XDG_CACHE_HOME, its rnntui/ holding links to (else copies of) the files of the
    server user's cache: a lab in one tab wrote the shared cache, and slide 38 of a deck served beside it showed
    one student's timing run (a lecturer's trial). Writes replace a file, never change it in place
    (files.write_atomic), so a link's original is untouched."""
    import tempfile

    from rnntui.engine.records import cache_dir

    shared, base = cache_dir(), Path(tempfile.mkdtemp(prefix=f"{TAB_PREFIX}{os.getpid()}-"))
    own = base / "rnntui"
    own.mkdir()
    try:
        entries = [e for e in os.scandir(shared) if e.is_file()]
    except OSError:  # (none yet)
        entries = []
    for entry in entries:
        try:
            if entry.is_symlink():  # (a link to a link is written through: the shared target changed, a review)
                raise OSError
            os.link(entry.path, own / entry.name)
        except OSError:  # (another file system)
            try:
                shutil.copy2(entry.path, own / entry.name)  # (a link's content)
            except OSError:
                pass
    return base


def said_of_a_start(record) -> bool:
    """textual-serve's "Application failed to start", as it is: also a tab closed while its app started (six in a
    lecturer's trial of quick tabs, read as faults)."""
    if record.getMessage() == "Application failed to start":
        record.msg, record.args = _("an app ended before its first frame (its tab closed, or it failed)"), ()
    return True


def sweep_tab_caches() -> None:
    """The tab folders a killed server left (its apps died with it, their folders stayed: a lecturer's trial):
    this user's, not links, whose server's process is gone. Never a reason not to start (a huge number in a
    name raised OverflowError, a review); POSIX only (Windows' os.kill ends a process)."""
    import tempfile

    if os.name != "posix":
        return
    try:
        for folder in Path(tempfile.gettempdir()).glob(f"{TAB_PREFIX}*-*"):
            pid = folder.name[len(TAB_PREFIX):].split("-")[0]
            try:
                if not (pid.isdigit() and len(pid) <= 9) or folder.is_symlink() or folder.stat().st_uid != os.getuid():
                    continue
                os.kill(int(pid), 0)
            except ProcessLookupError:
                shutil.rmtree(folder, ignore_errors=True)
            except OSError:  # (another user's server; gone meanwhile)
                pass
    except OSError:  # (the temporary folder unreadable)
        pass


async def say_ended(ws, words: str) -> None:
    """Why a tab's session ends, for the page's dialog in place of "Session ended." (templates/app_index.html
    reads ["rnntui_ended", words]; textual.js passes it over)."""
    await ws.send_str(json.dumps(["rnntui_ended", words]))


def make_server(app_args: list[str], host: str = "127.0.0.1", port: int = 8000, max_sessions: int = 20,
                idle_minutes: float = 30.0, font: Path | None = None, title: str = "rnntui"):
    """A textual-serve Server running `rnntui APP_ARGS…` per browser tab, with the limits above; the page
    is called `title` and gets `font` (default: rnntui's own CJK cut) for its Chinese."""
    check_installed()
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve import download_manager
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    # a busy machine's app sent a screenshot's next chunk after textual-serve's 4 s, and the browser's download
    # was cancelled (1 in 3 with the CPU busy: a lecturer's trial, and CI)
    download_manager.DOWNLOAD_TIMEOUT = max(download_manager.DOWNLOAD_TIMEOUT, CHUNK_WAIT_S)

    class Session(AppService):
        """One browser tab's app: remembers when its user last typed, and can be stopped for sure."""

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.last_input = time.monotonic()
            self.cache: Path | None = None

        async def _open_app_process(self, width: int = 80, height: int = 24):
            env = self._build_environment(width=width, height=height)
            self.cache = tab_cache()
            env["XDG_CACHE_HOME"] = str(self.cache)
            env[SERVED_TAB] = "1"  # (its memory figure told a student to remove a server's temp file, a trial)
            self._process = process = await asyncio.create_subprocess_shell(
                self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env,
                preexec_fn=_die_with_parent if os.name == "posix" else None)
            self._stdin = process.stdin
            return process

        async def send_bytes(self, data: bytes) -> bool:
            self.last_input = time.monotonic()
            return await super().send_bytes(data)

        async def finish(self) -> None:
            """Ask the app to quit; terminate it, then kill it, if it does not within a few seconds."""
            process = self._process
            if process is None or process.returncode is not None:
                return
            try:
                await asyncio.wait_for(self.send_meta({"type": "quit"}), 1.0)
                await asyncio.wait_for(process.wait(), QUIT_GRACE_S)
                return
            except (asyncio.TimeoutError, OSError, RuntimeError):
                pass
            for stop in (process.terminate, process.kill):
                try:
                    stop()
                    await asyncio.wait_for(process.wait(), QUIT_GRACE_S)
                    return
                except ProcessLookupError:
                    return
                except asyncio.TimeoutError:
                    continue

        def forget_cache(self) -> None:
            if self.cache is not None:
                shutil.rmtree(self.cache, ignore_errors=True)

        async def told_if_gone(self, ws) -> None:
            """The app gone (killed, out of memory) with its tab open: the tab froze on its last frame, its slot
            held (a lecturer's trial). Told why, and closed; an app that quit closes its tab itself."""
            await self._process.wait()
            await asyncio.sleep(EXIT_GRACE_S)
            if not ws.closed:
                code = self._process.returncode  # (negative: a signal's; "exit status -9" read oddly, a review)
                await say_ended(ws, _("The app was stopped by signal {n}.").format(n=-code) if code < 0 else
                                _("The app stopped (exit status {code}).").format(code=code))
                await ws.close()

    from rnntui.serve_page import CJK_RANGE, cjk_font, page_words

    font = font or cjk_font()

    class RnnServer(Server):
        def __init__(self) -> None:
            super().__init__(app_command(app_args), host=host, port=port, title=title,
                             templates_path=TEMPLATES)
            self.host = listened(host)  # (for run_app, which takes a list; the page's address is the browser's)
            self.max_sessions, self.idle_s = max_sessions, idle_minutes * 60
            self.sessions: dict[Session, object] = {}  # session → its websocket
            self.quitting: set[Session] = set()  # sessions whose tab went, their apps still quitting
            self._watch: asyncio.Task | None = None

        def full(self) -> bool:
            return len(self.sessions) >= self.max_sessions

        async def _make_app(self):
            app = await super()._make_app()
            app.router.add_get(f"/fonts/{font.name}", self.handle_font, name="cjk_font")
            return app

        async def handle_font(self, request):
            return web.FileResponse(font, headers={"Content-Type": "font/ttf"})

        def initialize_logging(self) -> None:
            import logging

            logging.basicConfig(level="WARNING", format="rnntui serve: %(message)s")
            logging.getLogger("textual-serve").addFilter(said_of_a_start)

        async def on_startup(self, app) -> None:
            everywhere = host in ("0.0.0.0", "::")  # (printed as such: no browser elsewhere opens it, a trial)
            shown = ("localhost" if host in ("127.0.0.1", "localhost") else network_address() if everywhere
                     else f"[{host}]" if ":" in host else host)
            url = f"http://{shown}:{port}"  # (an IPv6 address in brackets: "http://::1:8767" opened nothing, an audit)
            if loopback(host):
                who = _("only this machine can open it (--host 0.0.0.0 lets others in)")
            elif everywhere:
                who = _("anyone who can reach this machine on port {port} can open it (every network "
                        "interface)").format(port=port)
            else:
                who = _("anyone who can reach this machine on port {port} can open it").format(port=port)
            sessions = ngettext("{n} session", "{n} sessions", max_sessions).format(n=max_sessions)
            print(_("rnntui serve: open {url} — {who}; at most {sessions}, an idle one closes after {minutes} "
                    "min; ctrl+c stops the server and every app").format(
                      url=url, who=who, sessions=sessions, minutes=f"{idle_minutes:g}"), flush=True)
            self._watch = asyncio.create_task(self._close_idle())
            sweep_tab_caches()

        async def on_shutdown(self, app) -> None:
            if self._watch is not None:
                self._watch.cancel()
            stopped = _("The server was stopped.")  # ("Session ended." alone, as for a q: a lecturer's trial)
            await asyncio.gather(*(say_ended(ws, stopped) for ws in self.sessions.values() if not ws.closed),
                                 return_exceptions=True)
            await asyncio.gather(*(s.finish() for s in {*self.sessions, *self.quitting}), return_exceptions=True)
            for session in {*self.sessions, *self.quitting}:
                session.forget_cache()
            await asyncio.gather(*(ws.close() for ws in list(self.sessions.values())), return_exceptions=True)

        async def _close_idle(self) -> None:
            every = max(0.5, min(30.0, self.idle_s / 4))
            while True:
                await asyncio.sleep(every)
                now = time.monotonic()
                for session, ws in list(self.sessions.items()):
                    if now - session.last_input > self.idle_s:
                        if not ws.closed:  # the page's dialog says why ("Session ended." alone, a lecturer's trial)
                            minutes = f"{self.idle_s / 60:g}"
                            said = _("Closed after {minutes} minutes without a key.").format(minutes=minutes)
                            await say_ended(ws, said)
                        await session.finish()
                        await ws.close()

        def say_count(self, what: str) -> None:
            print(_("rnntui serve: {what}: {n} of {most} sessions in use").format(
                what=what, n=len(self.sessions), most=self.max_sessions), flush=True)

        def full_line(self) -> str:
            """What a tab is told when no session is free (in a browser: no "rnntui serve:", no "all 1 sessions",
            a lecturer's trial)."""
            return ngettext("This server's one session is in use; try again in a while.",
                            "All {n} sessions of this server are in use; try again in a while.",
                            self.max_sessions).format(n=self.max_sessions)

        async def handle_index(self, request):
            if self.full():
                from rnntui.serve_page import full_page

                # (asked again by itself: a reloaded tab's old page closes only once the new one came, and a
                # reload on a full server got 503 every other time, a lecturer's trial)
                line = self.full_line() + " " + _("This page asks again every {s} s.").format(s=RETRY_S)
                return web.Response(status=503, content_type="text/html",
                                    text=full_page(line, str(request.app.router["cjk_font"].url_for()), RETRY_S))
            # the address the browser used, so the page's websocket works whatever --host is
            self.public_url = f"{request.scheme}://{request.host}"
            context = await Server.handle_index.__wrapped__(self, request)  # (without its template)
            # (?fontsize=0 left the page on its splash for good, a lecturer's trial: a size below the least is none,
            # as "abc" is, and textual-serve's 16 it is)
            size = context["font_size"]
            context["font_size"] = 16 if size < FONT_SIZES[0] else min(size, FONT_SIZES[1])
            context["cjk_font"] = {"url": str(request.app.router["cjk_font"].url_for()), "range": CJK_RANGE}
            context["page"] = page_words()
            return aiohttp_jinja2.render_template("app_index.html", request, context)

        async def handle_websocket(self, request):
            from textual_serve.server import to_int

            websocket = web.WebSocketResponse(heartbeat=15)
            if not websocket.can_prepare(request).ok:  # a plain request (a browser or curl opening /ws)
                if self.full():
                    return web.Response(status=503, text=self.full_line() + "\n")
                return web.Response(status=400, text=_("this address is the app's websocket: open {url}/ "
                                                       "instead").format(url=f"{request.scheme}://{request.host}") + "\n")
            if self.full():  # a tab whose page came just before the last slot went: told why, in the page's
                # dialog ("Session ended." alone met a class's late students, a lecturer's trial)
                await websocket.prepare(request)
                await say_ended(websocket, self.full_line())
                await websocket.close()
                return websocket
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            session = None
            try:
                await websocket.prepare(request)
                session = Session(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                  close=websocket.close, download_manager=self.download_manager)
                self.sessions[session] = websocket
                self.say_count(_("a tab opened"))  # (the server said nothing of its tabs, a lecturer's trial)
                await session.start(width, height)
                watch = asyncio.create_task(session.told_if_gone(websocket))
                try:
                    await self._process_messages(websocket, session)
                finally:
                    watch.cancel()
            except asyncio.CancelledError:
                await websocket.close()
            except ConnectionResetError:  # (its tab went while its app started: "a session failed" read as a fault)
                pass
            except Exception as error:  # one session's failure is that session's alone
                print(_("rnntui serve: a session failed: {error}").format(error=repr(error)), file=sys.stderr)
            finally:
                if session is not None:
                    # its slot is free as its tab goes: a reloaded tab on a full server got 503 every other
                    # time while its old app quit (a lecturer's trial)
                    self.sessions.pop(session, None)
                    self.say_count(_("a tab closed"))
                    self.quitting.add(session)  # (ctrl+c meanwhile stops it too: the review)
                    await session.finish()
                    session.forget_cache()
                    self.quitting.discard(session)
                    if session._task is not None:
                        session._task.cancel()
            return websocket

    return RnnServer()


def check_listen(host: str, port: int) -> None:
    """BadValue (one line, naming host and port) unless the server can listen there: checked before it
    prints its "open http://…" line. Each address the host resolves to is tried as asyncio binds it
    (IPv6 only on an IPv6 socket; one the machine lacks is skipped); `::`, both families (`listened`)."""
    import errno
    import socket

    if not host.strip():  # (it listened on every network)
        raise BadValue(_("--host {host!r}: an empty address; give one such as 127.0.0.1 or 0.0.0.0").format(host=host))
    found = []
    for one in listened(host):
        try:
            found += socket.getaddrinfo(one, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        except (socket.gaierror, UnicodeError) as e:
            raise BadValue(_("--host {host}: no such address ({error})").format(
                host=host, error=getattr(e, "strerror", None) or e)) from None
    bound = 0
    for family, kind, proto, _name, address in dict.fromkeys(found):
        try:
            probe = socket.socket(family, kind, proto)
        except OSError:  # (a family this machine does not have)
            continue
        with probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as e:
                if e.errno == errno.EADDRNOTAVAIL:
                    continue
                from rnntui.files import reason

                why = _("another program is listening there") if e.errno == errno.EADDRINUSE else reason(e)
                raise BadValue(_("cannot listen on {host} port {port}: {reason}").format(
                    host=address[0], port=port, reason=why)) from None
            bound += 1
    if not bound:
        raise BadValue(_("cannot listen on {host} port {port}: {reason}").format(
            host=host, port=port, reason=_("that address is not this machine's")))


def serve(app_args: list[str], host: str, port: int, max_sessions: int, idle_minutes: float,
          font: Path | None = None, title: str = "rnntui") -> None:
    check_listen(host, port)
    make_server(app_args, host, port, max_sessions, idle_minutes, font, title).serve()
