"""The palette's colours darkened where they are drawn on a light background (`tints.on_light`).

One filter over every line the app draws (Textual's line filters: what NO_COLOR's Monochrome is), so
views keep one palette and a theme switch needs no redraw of theirs. On a dark background it returns
the line as it is."""
from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from rnntui.widgets.tints import PALETTE, on_light


class LightInk(LineFilter):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if background.brightness < 0.5:
            return segments
        return [Segment(text, _inked(style), control) if style is not None else Segment(text, style, control)
                for text, style, control in segments]


def _dark(color: RichColor | None) -> RichColor | None:
    triplet = color.triplet if color is not None else None
    if triplet is None or tuple(triplet) not in PALETTE:
        return None
    return RichColor.from_rgb(*on_light(tuple(triplet)))


@lru_cache(1024)
def _inked(style: Style) -> Style:
    color, bgcolor = _dark(style.color), _dark(style.bgcolor)
    if color is None and bgcolor is None:
        return style
    return style + Style(color=color, bgcolor=bgcolor)


def install(app) -> None:
    """Before NO_COLOR's filter, if any: its greys are then taken from the darker colours."""
    app._filters.insert(1, LightInk())
