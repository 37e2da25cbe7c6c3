"""Rows under a notification repainted whole once it is drawn.

A toast's left edge can fall on the right half of a wide (CJK) character beneath it. Textual sends
only the toast's own cells; writing the first of them makes the terminal blank the character's left
half as well, in the terminal's default colours, and Textual never sends that cell again: in its
picture it has not changed. So once the toasts are laid out, their rows are repainted from the
screen's left edge to its right, and every cell on the terminal is again one that Textual drew (the
whole screen, if they are not laid out after TRIES refreshes).
"""
from __future__ import annotations

from functools import partial
from time import monotonic

from textual.app import ScreenStackError
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.widgets._toast import Toast, ToastRack

TRIES = 20  # refreshes to wait for new toasts to be laid out (4 here), then the whole screen is repainted
BATCH_WAIT = 0.02  # seconds between looks while the app holds its drawing
LOOK_EVERY = 0.004  # seconds between looks for a screen's toasts while its first frame is held
COMPOSE_MOST = 1.0  # seconds such a hold waits for a new screen's toast rack at most
MOUNT_MOST = 0.25  # and then for its toasts: a few ms here, over Textual's 50 on a loaded machine (a CI run)


class WholeToastRows:
    def notify(self, message: str, *, markup: bool = True, **how) -> None:
        """As Textual's, never read as markup: a toast quotes what was typed, or a path ("[/]" typed in
        the palette ended the app, a review)."""
        super().notify(message, markup=False, **how)

    def _refresh_notifications(self) -> None:
        super()._refresh_notifications()
        self.call_after_refresh(self._repaint_toast_rows, TRIES)

    def _repaint_toast_rows(self, tries: int) -> None:
        if not self._notifications:
            return  # nothing shown (a toast that goes is repainted whole: its rack spans the screen)
        try:
            screen = self.screen
            rack = screen.get_child_by_type(ToastRack)
        except (ScreenStackError, NoMatches):
            return  # the app is closing, or this screen draws no toasts
        if self._batch_count:  # drawing is held (a topic's first opening): look again after it
            self.set_timer(BATCH_WAIT, partial(self._repaint_toast_rows, tries))
            return
        toasts = list(rack.query(Toast))
        laid_out = self._every_note_in(toast for toast in toasts if toast.region)
        if not laid_out and tries:
            self.call_after_refresh(self._repaint_toast_rows, tries - 1)
        elif not laid_out:
            screen.refresh()  # gave up waiting: the whole screen
        else:
            for toast in toasts:
                if toast.region:
                    screen.refresh(Region(0, toast.region.y, screen.size.width, toast.region.height))

    def hold_for_toasts(self, most: float) -> None:
        """Drawing held until the screen switched to has a toast for every notification (Textual mounts
        them after the switch: drawn at once, its first frame showed none, and the toast came back a
        frame later): at most `most` seconds once that screen is composed (a first visit composes it
        first: ~55 ms, more while its topic is imported), and at most COMPOSE_MOST for that. Textual's
        own hold (App.delay_update) is a fixed 50 ms: back to a topic under a toast took ~53 ms, against
        ~4 ms without one."""
        self._begin_batch()
        since, composed, held = monotonic(), None, True

        def look() -> None:
            nonlocal composed, held
            if not held:
                return  # (a tick already queued as the timer stopped)
            now, shown = monotonic(), self._toasts_mounted()
            if shown is None and now - since < COMPOSE_MOST:
                return
            if shown is False:
                composed = composed or now
                if now - composed < most:
                    return
            held = False
            timer.stop()
            self._end_batch()
            if not self._batch_count:
                self.screen.refresh()  # (as Textual's hold ends: what was dropped meanwhile is drawn)

        timer = self.set_interval(LOOK_EVERY, look)

    def _toasts_mounted(self) -> bool | None:
        """Whether the current screen has a mounted toast for every notification; None: it has no toast
        rack yet (still composing)."""
        if self._disable_notifications:
            return True  # (no screen draws toasts)
        try:
            rack = self.screen.get_child_by_type(ToastRack)
        except ScreenStackError:
            return True  # the app is closing
        except NoMatches:
            return None
        return self._every_note_in(toast for toast in rack.query(Toast) if toast.is_mounted)

    def _every_note_in(self, toasts) -> bool:
        """Whether every notification still showing has one of `toasts`."""
        have = {toast._notification.identity for toast in toasts}
        return all(note.identity in have for note in self._notifications if not note.has_expired)


def unsay(app, *messages: str) -> None:
    """The app's notices with these messages taken away; others stay."""
    for note in [note for note in app._notifications if note.message in messages]:
        app._unnotify(note)


def say_once(app, message: str, **how) -> None:
    """`message` as a notice, in place of one already showing it (not a second beside it)."""
    unsay(app, message)
    app.notify(message, **how)

