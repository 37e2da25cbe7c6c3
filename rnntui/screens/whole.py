"""Frames that reach the terminal whole after a layout.

Textual lays a screen out and draws the frame at once, while the widgets it just resized still have
their Resize event to handle. A view laid out for its own size (a figure's GateBars getting taller,
a SizedView turning `-wide`) then changed what it drew and a second frame came ~10–40 ms later: the
first visit to such a figure, or a slide, showed a wrong picture for a moment. `WholeFrames` holds
such a frame until those widgets have handled their Resize, and draws it whole then.
"""
from __future__ import annotations

import time

from textual import events
from textual.screen import Screen
from textual.widget import Widget

from rnntui.screens.chops import TrimmingCompositor

HOLD_MOST = 0.1  # seconds a frame waits for resize handlers at most: then it is drawn as it is


def forget_arrangements(widget) -> None:
    """What a widget's layout request does besides, as Textual's `_check_refresh` does it: its containers
    forget the arrangements they keep for other sizes. Back at such a size they would reuse one
    without measuring the widget again (a TokenTrack sets its boxes' padding as it is measured)."""
    for ancestor in widget.ancestors:
        if not isinstance(ancestor, Widget):
            break
        ancestor._clear_arrangement_cache()
        ancestor._layout_updates += 1
        if not ancestor.styles.auto_dimensions:
            break


def placed_whole(widget) -> bool:
    """Whether a layout that gave the widget its size placed all it draws: a widget with no children
    that does not scroll, or a container that cannot scroll (overflow hidden both ways)."""
    if not widget._nodes:
        return not widget.is_scrollable
    return widget.styles.overflow_x == "hidden" and widget.styles.overflow_y == "hidden"


class AtTerminalSize:
    """A screen laid out at the terminal's size now, not at the size a Resize carries: every screen of
    the app's (topics, help, the palette and its prompt). A screen laid out at a new size posts itself
    a Resize of that size; with an older Resize still queued (the terminal resized as a topic or help
    opens) the two took turns, each laying the screen out again and posting itself anew. Textual's
    callbacks queued between them (drawing is held for 50 ms after a topic switch) kept them from
    being merged, and the app hung at 100% CPU, never reaching the timer that ends the hold."""

    def _screen_resized(self, size) -> None:
        size = self.app.size
        if size == self._compositor.size and not self._layout_required:  # laid out at this size already
            return
        super()._screen_resized(size)

    def _on_resize(self, event) -> None:  # (before Textual's handler)
        """The terminal resized and back to the size this screen is laid out at, with no whole frame
        drawn since (RnnApp.whole_due): nothing is laid out, but a terminal may have dropped what it
        showed beyond its smaller size (blank columns at the right edge, as Textual sent nothing)."""
        if (getattr(event, "from_terminal", False) and getattr(self.app, "whole_due", False)
                and self is self.app.screen and self.app.size == self._compositor.size
                and not self._layout_required):
            self.refresh()
        if self is self.app.screen:  # the screens behind first, so that this one's frame shows them laid
            for below in self.app._background_screens:  # out at the new size (Textual: after it)
                below._screen_resized(event.size)

    def _compositor_refresh(self) -> None:
        """A repaint of the whole screen asked for before a frame is drawn is in that frame, drawn whole:
        not drawn again after it. (A screen's first layout asks for one as it sizes the screen, and
        help's first frame, drawn whole, was sent a second time ~20 ms later, ~14 KB at 120x40; a
        topic back under a toast sent the toast's rows over the topic it left, then the whole frame.)"""
        app = self.app
        if self is not app.screen and self in app._background_screens and not app.is_inline:
            self._pass_up()
            return
        region, dirty = self._compositor.size.region, self._compositor._dirty_regions
        drawn = self is app.screen and not app._batch_count  # (a frame this screen sends now)
        if app._batch_count and self is app.screen:
            app.drawn_held = True  # (Textual drops the frame: Palette.hold_for_matches draws whole after)
        if drawn and not getattr(app, "offscreen", False):
            self._drop_drawn_asks()
        if drawn and region in self._repaint_regions and not getattr(app, "_switching", False):
            dirty.add(region)  # a whole repaint is due (drawn just after a layout's frame): this frame is it
        whole = drawn and region in dirty  # (a topic coming up, _switching, is drawn whole as it resumes)
        if whole:
            self._repaint_required = False
            self._exchange_repaint_regions()  # (its Update, if posted, then finds nothing to draw)
        super()._compositor_refresh()
        if whole:
            self._whole_shown = True
            app.whole_due = False

    def _pass_up(self) -> None:
        """Under a see-through screen (help, the palette), what changed is repainted by that screen, as
        Textual does it, except that Textual also asked this screen to repaint itself whole at its next
        change, which the screen over it then drew whole again: a resize under help sent the same whole
        frame three times (~14 KB each at 120x40). When this screen comes back on top it is drawn whole
        anyway (its resume)."""
        app, dirty = self.app, self._compositor._dirty_regions
        if dirty:
            self._set_dirty(*dirty)
            app.screen.refresh(*dirty)
            dirty.clear()
            self._dirty_widgets.clear()
        app._update_mouse_over(self)

    def _drop_drawn_asks(self) -> None:
        """A widget's repaint asked for before this frame is drawn by it when the frame repaints the
        whole widget (a layout's frame repaints a widget it resized). A view that redrew in its Resize
        handler, handled before the held frame (WholeFrames._resized), had its rows sent again in a
        second frame (~5 KB on a first visit to memory/distractor or serving/kvcache); so did the
        palette's list, asked to repaint as its matches changed, after the layout that resized it."""
        dirty = self._compositor._dirty_regions
        if not dirty:
            return
        for widget, (region, clip) in self._compositor.visible_widgets.items():
            if widget is not self and (widget._repaint_required or widget._repaint_regions):
                shown = region.intersection(clip)
                if any(area.contains_region(shown) for area in dirty):
                    widget._repaint_required = False
                    widget._exchange_repaint_regions()

    # Whether a whole frame of this screen has been drawn since it last became the current screen, in
    # its look now. Textual's handler of its coming back (ScreenResume) restyles it, lays it out if its
    # size changed (a whole frame) and ends by asking for a whole repaint, which sent that picture a
    # second time: the palette as it opens (~9 KB at 120x40), a topic back after a resize, laid out by
    # its Resize just before (~10 KB). That one repaint is left out (`refresh`); a restyle that changes
    # the screen's look keeps it.
    _whole_shown = False
    _resuming = False

    def _on_screen_suspend(self) -> None:
        self._whole_shown = False

    def notify_style_update(self) -> None:
        self._whole_shown = False  # the screen's own look changed (its repaint, next, stands)
        super().notify_style_update()

    def _on_screen_resume(self) -> None:
        self._resuming = True  # (this runs before Textual's handler; the callback after it)
        self.call_next(setattr, self, "_resuming", False)

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):
        whole = repaint and not (regions or layout or recompose)
        if whole and self._resuming and self._whole_shown:
            return self  # Textual's resume handler's repaint, of a screen drawn whole since it came back
        if whole and self._is_mounted and getattr(self.app, "_covering", False) and self is self.app.screen:
            return self  # covered by a screen of ours, whose first frame draws it whole (RnnApp.push_screen)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class WholeFrames(AtTerminalSize, Screen):
    # widgets whose Resize the held frame waits for; empty once they are done (the frame is due, drawn at
    # this screen's next idle); None: no frame held
    _resizing: set | None = None
    _held_since = 0.0
    _hold_timer = None
    _laid_out = False  # a layout ran since the last frame: only a layout sends Resize events

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = TrimmingCompositor()  # a changed span is sent from its start (chops.py)

    def _refresh_layout(self, *args, **kwargs) -> None:
        """Textual gives each widget its new size and virtual size as it lays the screen out, and a
        changed virtual size asks for a layout: the screen was laid out again (~2 ms on a tab whose
        footer keys change width) and in present mode 10 slide changes sent their rows twice, the same
        picture ~20 ms apart. For a widget with no children that does not scroll, the virtual size is
        its size, which this layout has just placed and whose region it draws whole; a container that
        cannot scroll (overflow hidden both ways: no scrollbar to show) had its children placed by this
        very layout, at its new size (a tab to a figure whose prose has another height laid the screen
        out twice, 6-12 ms of CPU): nothing to lay out again (`forget_arrangements` does the rest of the
        request). A view that draws for its size asks for itself, in its Resize handler."""
        self._laid_out = True
        asked = {widget for widget in self.walk_children() if widget._layout_required or widget._repaint_required}
        super()._refresh_layout(*args, **kwargs)
        for widget in self._compositor.widgets:
            if widget._layout_required and widget not in asked and placed_whole(widget):
                widget._layout_required = widget._repaint_required = False
                widget._exchange_repaint_regions()
                forget_arrangements(widget)

    def _compositor_refresh(self) -> None:
        looked, self._laid_out = self._laid_out or self._resizing is not None, False
        waiting = self._resize_queued() if looked else []
        if waiting and (self._resizing is None or time.monotonic() - self._held_since < HOLD_MOST):
            if self._resizing is None:
                self._held_since = time.monotonic()
                self._hold_timer = self.set_timer(HOLD_MOST, self._release)  # (a widget gone before its Resize)
                self._resizing = set()
            for widget in waiting:
                if widget not in self._resizing:  # one callback each: Textual merges only adjacent Resizes
                    self._resizing.add(widget)
                    widget.call_later(self._resized, widget)  # runs after the Resize in the widget's queue
            return
        if self._resizing is not None:
            self._resizing = None
            self._hold_timer.stop()
        super()._compositor_refresh()

    def _resize_queued(self) -> list:
        """The widgets on screen that handle Resize (Textual's Widget does not) with one still queued."""
        return [widget for widget in self._compositor.widgets
                if widget._message_queue.values and (hasattr(widget, "on_resize") or hasattr(widget, "_on_resize"))
                and any(isinstance(m, events.Resize) for m in widget._message_queue.values)]

    def _resized(self, widget) -> None:
        if self._resizing is not None:
            self._resizing.discard(widget)
            if not self._resizing:
                self._release()

    def _release(self) -> None:
        if self._resizing is not None:
            self._resizing = set()  # the frame is due
            self.check_idle()  # drawn when this screen has taken in what the handlers changed

    def _due(self) -> bool:
        """A held frame whose widgets are done, to draw now (Textual draws nothing in a batch: it waits)."""
        return self._resizing == set() and self.is_current and not self.app._batch_count

    _deferred = False  # a frame the update timer put off while changes were still on their way

    def _on_idle(self, event) -> None:
        """A held frame now due, or one put off below: drawn now, not at the update timer's next tick."""
        if self._due() or (self._deferred and self.is_current and not self.app._batch_count and (
                self._layout_required or self._repaint_required or self._dirty_widgets)):
            self._on_timer_update()

    _unposted_since = None  # when a tick first found a change not posted yet; None: the last found none

    def _unposted(self) -> bool:
        """A widget on this screen that has changed (the panel's title, the parameter line) but not yet
        told the screen: it does so when next idle, in its own task, so the update timer's tick could
        come first and that row a frame later (a tab's first frame lacked a row in one test run).
        False once HOLD_MOST has passed since the first such tick: then the frame is drawn as it is."""
        if not any(widget._repaint_required or widget._layout_required for widget in self.walk_children()
                   if widget.is_running and not widget._closing):
            self._unposted_since = None
            return False
        now = time.monotonic()
        if self._unposted_since is None:
            self._unposted_since = now
        return now - self._unposted_since < HOLD_MOST

    def _on_timer_update(self) -> None:
        """Textual's update timer ticks in its own task, so it can draw while widgets' changes wait in
        this screen's queue: on a figure's first visit the view came in one frame and the panel's
        title, prose and keys ~40 ms later; in present mode a slide's view came before its foot line.
        A tick with changes still queued draws nothing; the frame is drawn, whole, once they are in
        (`_on_idle`). So with a change a widget has not posted yet (`_unposted`)."""
        if self.message_queue_size:
            self._update_timer.pause()
            self._deferred = True
            return
        if self._unposted():
            self._deferred = True  # (the timer ticks on: if the post never comes, a tick draws)
            return
        self._deferred, self._unposted_since = False, None
        super()._on_timer_update()
        if self._due():  # nothing else drew it
            self._compositor_refresh()
