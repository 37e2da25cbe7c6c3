"""The palette's colours darkened where they are drawn on a light background (`tints.on_light`), and,
under NO_COLOR, lifted where their grey would be too dark on a dark one (`tints.on_dark_grey`); in 16
colours, each one of the 16 apart from the others (`tints.FEW_ON_DARK`, `FEW_ON_LIGHT`).

One filter over every line the app draws (Textual's line filters: what NO_COLOR's Monochrome is), so
views keep one palette and a theme switch needs no redraw of theirs. On a dark background, in colour,
it returns the line as it is."""
from __future__ import annotations

import colorsys
from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from rnntui.widgets.tints import FEW_ON_DARK, FEW_ON_LIGHT, PALETTE, contrast, on_dark_grey, on_light


class Ink(LineFilter):
    """On only in a light theme or under NO_COLOR: a filter that is on makes a new Strip of every line
    drawn, even one it leaves as it is (~0.5 ms a key on the dark theme's seq2seq/scoring)."""

    def __init__(self, app) -> None:
        self.app, self.no_color = app, app.no_color
        super().__init__()

    @property
    def enabled(self) -> bool:
        return self.no_color or self.app.has_class("-light-mode") or self.app.has_class("-few-colours")

    @enabled.setter
    def enabled(self, _value: bool) -> None:
        pass  # (LineFilter's __init__ sets it: this one follows the theme)

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        # (the terminal's own background, ansi-light's, has no brightness here: read as dark, its curves went out
        # at 2.4:1 on white, a lecturer's trial)
        light = background.brightness >= 0.5 if background.ansi != -1 else self.app.has_class("-light-mode")
        if self.app.has_class("-few-colours") and not self.no_color:
            inked = _few_on_light if light else _few_on_dark
        elif not light and not self.no_color:
            return segments
        elif light and self.app.has_class("-256-colours") and not self.no_color:
            inked = _on_light_256
        else:
            inked = _on_light if light else _grey_on_dark
        return [Segment(text, inked(style), control) if style is not None else Segment(text, style, control)
                for text, style, control in segments]


def _mapped(color: RichColor | None, change) -> RichColor | None:
    triplet = color.triplet if color is not None else None
    if triplet is None or tuple(triplet) not in PALETTE:
        return None
    new = change(tuple(triplet))
    return None if new == tuple(triplet) else RichColor.from_rgb(*new)


def _restyled(style: Style, change) -> Style:
    color, bgcolor = _mapped(style.color, change), _mapped(style.bgcolor, change)
    if color is None and bgcolor is None:
        return style
    return style + Style(color=color, bgcolor=bgcolor)


@lru_cache(1024)
def _on_light(style: Style) -> Style:
    return _restyled(style, on_light)


BACK_256 = (0xDA, 0xDA, 0xDA)  # xterm's 253: the light theme's background, as a 256-colour terminal draws it
LEVELS = (0, 95, 135, 175, 215, 255)  # xterm's 6×6×6 cube, what Rich rounds a colour to
CUBE = tuple((r, g, b) for r in LEVELS for g in LEVELS for b in LEVELS)
HUE_KEPT = 20  # degrees


def _hue_saturation(rgb) -> tuple[float, float]:
    h, s, _v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return 360 * h, s


@lru_cache(64)
def on_light_256(rgb) -> tuple:
    """`on_light` for a 256-colour terminal: the cube's colour nearest it of those at 4.5:1 on the background
    whose hue is within HUE_KEPT of its own. Rich's nearest was under it for purple (3.5:1), the bad red
    (3.9:1) and orange (4.1:1), a lecturer's trial; orange has none (the cube's darker ones are red or olive),
    and a grey is drawn as it is (both keep Rich's nearest)."""
    want = on_light(rgb)
    hue, saturation = _hue_saturation(want)
    if saturation < 0.1:
        return want
    fits = [c for c, (h, s) in zip(CUBE, map(_hue_saturation, CUBE))
            if s > 0.2 and abs((h - hue + 180) % 360 - 180) <= HUE_KEPT and contrast(c, BACK_256) >= 4.5]
    return min(fits, key=lambda c: sum((a - b) ** 2 for a, b in zip(c, want))) if fits else want


@lru_cache(1024)
def _on_light_256(style: Style) -> Style:
    return _restyled(style, on_light_256)


@lru_cache(1024)
def _grey_on_dark(style: Style) -> Style:
    return _restyled(style, on_dark_grey)


@lru_cache(1024)
def _few_on_dark(style: Style) -> Style:
    return _restyled(style, lambda rgb: FEW_ON_DARK.get(rgb, rgb))


@lru_cache(1024)
def _few_on_light(style: Style) -> Style:
    return _restyled(style, lambda rgb: FEW_ON_LIGHT.get(rgb, rgb))


def install(app) -> None:
    """Before NO_COLOR's filter, if any: its greys are then taken from the colours as changed here."""
    app._filters.insert(1, Ink(app))
