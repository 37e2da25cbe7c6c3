"""Headless rendering of one state: SVG, plain text or the figure's data as JSON."""
from __future__ import annotations

import asyncio
import io
import json

from rich.console import Console

from rnntui.figure import Figure
from rnntui.state import FigureState, plain

FORMATS = ("svg", "png", "txt", "json")


def figure_json(screen, figure: Figure, state: FigureState) -> str:
    data = {"topic": screen.TOPIC_ID, "figure": figure.id, "title": figure.title, "refs": figure.refs,
            "axis": state.AXIS, **state.data()}
    return json.dumps(plain(data), indent=2) + "\n"


class Session:
    """One headless app that renders many frames: switching topic, figure and state inside a running
    app costs a fraction of starting one per frame (`rnntui export` renders whole lectures this way).

        async with Session((100, 30), "dark") as session:
            texts = await session.frame(screen, figure, state, ("svg", "txt"))
    """

    def __init__(self, size=(100, 30), theme: str = "dark") -> None:
        self.size, self.theme = size, theme

    async def __aenter__(self) -> "Session":
        from rnntui.app import RnnApp

        self.app = RnnApp(theme=self.theme)
        self._running = self.app.run_test(size=self.size)
        self.pilot = await self._running.__aenter__()
        return self

    async def __aexit__(self, *exc) -> None:
        await self._running.__aexit__(*exc)

    async def frame(self, screen, figure, state, fmts=("svg",)) -> dict[str, str]:
        """The state drawn by its topic screen, as text in each format (svg, txt, json)."""
        app = self.app
        await app.goto(screen.TOPIC_ID, figure.id)
        app.topic_screen().set_state(state)
        await self.pilot.pause()
        out = {}
        for fmt in fmts:
            if fmt == "svg":
                out[fmt] = app.export_screenshot(title=f"rnntui {screen.TOPIC_ID}/{figure.id}")
            elif fmt == "txt":
                width, height = self.size
                console = Console(record=True, width=width, height=height, file=io.StringIO(),
                                  force_terminal=True, color_system="truecolor", legacy_windows=False)
                console.print(app.screen._compositor.render_update(full=True))
                text = console.export_text(styles=False)
                out[fmt] = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
            elif fmt == "json":
                out[fmt] = figure_json(screen, figure, state)
        return out


async def _one(screen, figure, state, fmt, size, theme) -> str:
    async with Session(size, theme) as session:
        return (await session.frame(screen, figure, state, (fmt,)))[fmt]


def render(screen, figure, state, fmt: str, size=(100, 30), theme: str = "dark", scale: float = 2.0) -> str | bytes:
    """One state in the given format: text for svg, txt and json; bytes for png (`scale` × the SVG)."""
    if fmt == "json":
        return figure_json(screen, figure, state)
    if fmt == "png":
        from rnntui.png import check_route, to_png

        check_route()
        return to_png(asyncio.run(_one(screen, figure, state, "svg", size, theme)), scale)
    return asyncio.run(_one(screen, figure, state, fmt, size, theme))
