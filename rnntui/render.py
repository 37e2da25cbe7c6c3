"""Headless rendering of one state: SVG, PNG, plain text or the figure's data as JSON."""
from __future__ import annotations

import asyncio
import json
import os
from contextlib import contextmanager, nullcontext

from rnntui.figure import Figure
from rnntui.state import FigureState, plain

FORMATS = ("svg", "png", "txt", "json")


def figure_json(screen, figure: Figure, state: FigureState) -> str:
    data = {"topic": screen.TOPIC_ID, "figure": figure.id, "title": figure.title, "refs": figure.refs,
            "axis": state.AXIS, **state.data()}
    return json.dumps(plain(data), indent=2) + "\n"


@contextmanager
def colour_kept():
    """NO_COLOR unset meanwhile (as it was after)."""
    said = os.environ.pop("NO_COLOR", None)
    try:
        yield
    finally:
        if said is not None:
            os.environ["NO_COLOR"] = said


SIZE = (100, 30)  # where no size is given (the command line's --size default says the same)


class Session:
    """One headless app that renders many frames: switching topic, figure and state inside a running
    app costs a fraction of starting one per frame (`rnntui export` renders whole lectures this way).

        async with Session((100, 30), "dark") as session:
            texts = await session.frame(screen, figure, state, ("svg", "txt"))
    """

    def __init__(self, size=SIZE, theme: str = "dark", scale: float = 2.0, deck=None, batch=False) -> None:
        """`batch`: the process draws these frames and nothing else (`rnntui export`): the collector is
        set for it while the session runs (collector.batch)."""
        self.size, self.theme, self.scale, self.deck, self.batch = size, theme, scale, deck, batch
        self._segments = None

    def new_app(self):
        """The app the frames are drawn in, in colour under NO_COLOR too: that is the terminal's, and a
        lecturer's slides came out grey without a word (Textual reads it as an app is made; a code review)."""
        with colour_kept():
            if self.deck is not None:  # frames as `rnntui present` shows them: no header, no footer
                from rnntui.present import PresentApp

                return PresentApp(self.deck, theme=self.theme)
            from rnntui.app import RnnApp

            return RnnApp(theme=self.theme)

    async def __aenter__(self) -> "Session":
        self.app = self.new_app()
        # A frame is taken whole once all is drawn (`_formats`): nothing is sent to a terminal while the
        # app draws (topic screens skip their partial renders, RnnApp its hold after a topic switch)
        self.app.offscreen = True
        self._running = self.app.run_test(size=self.size)
        self.pilot = await self._running.__aenter__()
        from rnntui.collector import batch

        self._collecting = batch() if self.batch else nullcontext()
        self._collecting.__enter__()
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            await self._running.__aexit__(*exc)
        finally:
            self._collecting.__exit__(None, None, None)

    async def frame(self, screen, figure, state, fmts=("svg",)) -> dict[str, str | bytes]:
        """The state drawn by its topic screen in each format: text for svg, txt and json, PNG bytes
        for png. In a deck's session (`deck=`), `slide(index)` draws a deck frame instead."""
        app = self.app
        await app.goto(screen.TOPIC_ID, figure.id)
        app.topic_screen().set_state(state)
        await self.settle()
        return self._formats(screen, figure, state, fmts, f"rnntui {screen.TOPIC_ID}/{figure.id}")

    async def slide(self, index: int, fmts=("svg",)) -> dict[str, str | bytes]:
        """The deck's frame `index` (from 0) as present mode shows it, in each format."""
        app = self.app
        app.index = index
        app.show()
        await self.settle()
        frame = self.deck.frames[index]
        return self._formats(frame.screen, frame.figure, frame.state, fmts, f"rnntui {frame.address}")

    async def settle(self) -> None:
        """Let the app handle what is queued and lay out and draw what changed, now: no idle wait
        (`pilot.pause()` sleeps ≥ 20 ms a frame to see the process idle)."""
        self._segments = None  # what the screen shows is about to change
        for _ in range(50):  # a layout can resize views whose on_resize draws again, a refresh can run
            await self._drain()  # callbacks that recompose (the footer)
            screen = self.app.screen
            if self.app._batch_count:  # updates held (a palette's App.delay_update): until they are let go
                await asyncio.sleep(0.005)
            elif (screen._layout_required or screen._scroll_required or screen._repaint_required
                  or screen._dirty_widgets or screen._recompose_required or screen._callbacks):
                screen._on_timer_update()  # lays out and draws; queues the callbacks waiting for a refresh
            else:
                return
        await self.pilot.pause()

    async def _drain(self) -> None:
        """Yield to the app until nothing is due to run: every widget on the screen waits for a message,
        none is queued and no callback is pending. Pilot's own wait posts a callback to every widget
        and waits for them all (~2 ms a round, several rounds a frame); it stays the fallback."""
        app = self.app
        try:
            ready = asyncio.get_running_loop()._ready  # the callbacks due to run now
            for _ in range(10_000):
                if not ready and all(_idle(p) for p in (app, *app.screen.walk_children(with_self=True))):
                    return
                await asyncio.sleep(0)
        except AttributeError:  # another event loop, or another Textual: no such internals
            pass
        await self.pilot._wait_for_screen()

    def segments(self) -> list:
        """The settled screen as Rich segments, rendered once a frame: svg, png and txt share them."""
        if self._segments is None:
            from rnntui.svg import screen_segments

            self._segments = screen_segments(self.app)
        return self._segments

    def grid(self, title: str = ""):
        """The screen's cells, for png.draw (cheap: the drawing can run in another thread)."""
        from rnntui.png import grid_from_segments

        return grid_from_segments(self.segments(), self.size[0], title)

    def _formats(self, screen, figure, state, fmts, title: str) -> dict[str, str | bytes]:
        out = {}
        for fmt in fmts:
            if fmt == "svg":
                from rnntui.svg import screen_svg

                out[fmt] = screen_svg(self.segments(), self.size[0], title)
            elif fmt == "png":
                from rnntui.png import draw

                out[fmt] = draw(self.grid(title), self.scale)
            elif fmt == "txt":
                text = "".join(segment.text for segment in self.segments() if not segment.control)
                out[fmt] = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
            elif fmt == "json":
                out[fmt] = figure_json(screen, figure, state)
        return out


def _idle(pump) -> bool:
    """Nothing queued for the pump and it waits for more (not in the middle of a message: Textual's
    message queue, whose `get` waits on `ready_event`)."""
    queue = pump._message_queue
    return not queue.values and bool(queue.ready_event._waiters) and not pump._next_callbacks


async def _one(screen, figure, state, fmt, size, theme, scale) -> str | bytes:
    async with Session(size, theme, scale) as session:
        return (await session.frame(screen, figure, state, (fmt,)))[fmt]


def render(screen, figure, state, fmt: str, size=SIZE, theme: str = "dark", scale: float = 2.0) -> str | bytes:
    """One state in the given format: text for svg, txt and json; bytes for png (`scale` × the SVG)."""
    if fmt == "json":
        return figure_json(screen, figure, state)
    if fmt == "png":
        from rnntui.png import check_route

        check_route()
    return asyncio.run(_one(screen, figure, state, fmt, size, theme, scale))
