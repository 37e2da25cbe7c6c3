"""ctrl+s, in the app and in present mode: the screen as it is at the key, made into an SVG and written
in a thread. Made in the key's handler, a session's first screenshot held every key for ~0.3–0.5 s (most
of it subsetting fonts, rnntui/svg.py, now only for characters beyond the shipped common subsets); the
app answers keys meanwhile and says where the file went once it is written. A quit waits for the file
(Python joins the worker's thread before it exits)."""
from __future__ import annotations

import os
import threading
from pathlib import Path

from textual.message import Message

from rnntui.i18n import _


ONE_AT_A_TIME = threading.Lock()  # quick ctrl+s in a row: one SVG at a time, the later ones reusing any font subset made


class ShotTaken(Message):
    """A screenshot is made: saved at `path`, or `svg` text for the browser to download (rnntui
    serve), or not made because of `error` (one line)."""

    def __init__(self, path: str = "", svg: str | None = None, name: str = "", error: str = "") -> None:
        super().__init__()
        self.path, self.svg, self.name, self.error = path, svg, name, error


def write_shot(svg: str, folder: Path, name: str) -> str:
    """The SVG written into folder as name, or as name-2, name-3, … when that file is there (two ctrl+s
    in one second, or on one slide, make two files); its path. BadValue (one line) when it cannot be."""
    from rnntui.files import make_folder, write_atomic, written_anew

    folder = folder.absolute()  # (a refusal named "rnntui-shots", not where that is: a trial)
    make_folder(folder)
    # (never over a file: another app saving into this folder in the same second, a review)
    return str(written_anew(folder / name, lambda path, replace: write_atomic(str(path), svg, replace), first=2))


DOWNLOAD = "rnntui-shot:"  # a download's name, then its file's: not Textual's "screenshot", whose toasts are English


class Shots:
    """Mixed into an App: `take_shot(name)` and the notification when it is done."""

    SHOT_TIMEOUT: float | None = None  # how long "Saved …" shows (None: Textual's default)

    def hush_notes(self) -> bool:
        """Take away the notes drawn in place (not toasts: a parameter's end in a panel's edge); whether
        there were any."""
        return False

    def take_shot(self, name: str) -> None:
        """The screen now (its segments: what it shows, whatever comes next), into an SVG in a thread;
        the app gets a ShotTaken. Notices are left out: a slide was saved with the keys' box over its
        numbers, a second shot with the first's "saved" (a lecturer's trial); so are notes drawn in place,
        taken away first (a review found "t 7 is the last" in a shot)."""
        if self.hush_notes():
            self.call_after_refresh(self._take_shot, name)
        else:
            self._take_shot(name)

    def _take_shot(self, name: str) -> None:
        from rnntui.svg import screen_segments  # (imported by the app's preload, off the event loop)

        segments, width, title = screen_segments(self, notices=False), self.size.width, self.title
        # (a quoted RNNTUI_SHOTS='~/shots' made a folder named ~ here: a review)
        folder, web = Path(os.path.expanduser(os.environ.get("RNNTUI_SHOTS") or "rnntui-shots")), self.is_web

        def write(svg: str) -> ShotTaken:
            from rnntui.state import BadValue

            try:
                return ShotTaken(path=write_shot(svg, folder, name))
            except BadValue as e:  # (a folder it cannot write: where to send them instead, an admin's trial)
                return ShotTaken(error=str(e) + ("" if os.environ.get("RNNTUI_SHOTS") else
                                                 _("; RNNTUI_SHOTS=FOLDER sends them elsewhere")))

        def make() -> None:
            from rnntui.state import BadValue
            from rnntui.svg import screen_svg

            with ONE_AT_A_TIME:
                try:
                    svg = screen_svg(segments, width, title)  # (refused: glyphs no font has; no folder helps)
                    done = ShotTaken(svg=svg, name=name) if web else write(svg)
                except BadValue as e:
                    done = ShotTaken(error=str(e))
                except Exception as e:  # noqa: BLE001 - said in the notification, not lost in the worker
                    done = ShotTaken(error=f"{type(e).__name__}: {e}")
            try:
                self.post_message(done)
            except RuntimeError:  # the app has ended meanwhile: the file is written all the same
                pass

        self.run_worker(make, thread=True, exit_on_error=False, name="screenshot")

    def on_shot_taken(self, message: ShotTaken) -> None:
        if message.error:
            self.notify(_("could not save a screenshot: {error}").format(error=message.error), severity="error")
        elif message.svg is not None:  # in a browser: it downloads the file
            import io

            self.deliver_text(io.StringIO(message.svg), save_filename=message.name, open_method="download",
                              mime_type="image/svg+xml", name=f"{DOWNLOAD}{message.name}")
            self.notify(_("Downloading the screenshot"), title=_("Screenshot"), timeout=2)
        else:
            # the name on a line of its own: "Saved rnntui-shots/parallel-grid-step6-055" / "938.svg" at 80x24
            path = Path(message.path)
            self.notify(_("{name}\nsaved in {folder}").format(name=path.name, folder=path.parent.absolute()),
                        title=_("Screenshot"), timeout=self.SHOT_TIMEOUT)

    def on_delivery_complete(self, event) -> None:
        if (event.name or "").startswith(DOWNLOAD):  # (in a browser: where it went is the browser's)
            self.notify(_("{name}\nsent to your browser (its downloads)").format(name=event.name[len(DOWNLOAD):]),
                        title=_("Screenshot"), timeout=self.SHOT_TIMEOUT)

    def on_delivery_failed(self, event) -> None:
        if (event.name or "").startswith(DOWNLOAD):
            self.notify(_("could not send the screenshot to the browser: {error}").format(error=event.exception),
                        title=_("Screenshot"), severity="error")

