"""Headless rendering of one state: SVG, plain text or the figure's data as JSON."""
from __future__ import annotations

import asyncio
import io
import json
import math

from rich.console import Console

from rnntui.screens.base import Figure, TopicScreen
from rnntui.state import FigureState

FORMATS = ("svg", "txt", "json")


def plain(value):
    """JSON-safe: numpy numbers to floats, non-finite floats to "inf", "-inf" or "nan"."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def figure_json(screen: type[TopicScreen], figure: Figure, state: FigureState) -> str:
    data = {"topic": screen.TOPIC_ID, "figure": figure.id, "title": figure.title, "refs": figure.refs,
            "axis": state.AXIS, **state.data()}
    return json.dumps(plain(data), indent=2) + "\n"


async def _screen(screen, figure, state, size, theme, fmt) -> str:
    from rnntui.app import RnnApp

    app = RnnApp(screen.TOPIC_ID, figure.id, state, theme)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if fmt == "svg":
            return app.export_screenshot(title=f"rnntui {screen.TOPIC_ID}/{figure.id}")
        console = Console(record=True, width=size[0], height=size[1], file=io.StringIO(),
                          force_terminal=True, color_system="truecolor", legacy_windows=False)
        console.print(app.screen._compositor.render_update(full=True))
        return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines()) + "\n"


def render(screen, figure, state, fmt: str, size=(100, 30), theme: str = "dark") -> str:
    """One state as text in the given format."""
    if fmt == "json":
        return figure_json(screen, figure, state)
    return asyncio.run(_screen(screen, figure, state, size, theme, fmt))
