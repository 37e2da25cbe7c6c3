"""The topic seen through help, the palette and its prompt, tinted (issue 16).

A see-through screen draws the screen under it tinted by its own background. Textual's way
(`BackgroundScreen`) renders that screen through Rich, splits it into lines again and blends both
colours of every run anew. `Tinted` takes the screen's lines as they are and tints each style once
(`tint`), as Textual tints it: the palette's own drawing at 120x40 went from ~15 to ~12 ms an opening
(the lines of the screen under it are most of the rest).
"""
from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.geometry import Size
from textual.renderables.background_screen import BackgroundScreen
from textual.strip import Strip
from textual.visual import Visual

NO_STYLE = Style()


@lru_cache(maxsize=4096)
def tint(style: Style | None, color: Color, base: Style) -> Style:
    """A run's style seen through `color`, as Textual draws it (`BackgroundScreen.process_segments`, then
    the see-through screen's own style under it): no links or meta (a click there is not on the topic),
    both colours blended with the tint."""
    style = NO_STYLE if style is None else style.clear_meta_and_links()
    fg = (Color.from_rich_color(style.color) + color).rich_color if style.color is not None else None
    bg = (Color.from_rich_color(style.bgcolor) + color).rich_color if style.bgcolor is not None else None
    return base + (style + Style.from_color(fg, bg))


def tinted(strip: Strip, color: Color, base: Style) -> Strip:
    return Strip([Segment(text, tint(style, color, base)) for text, style, _ in strip], strip.cell_length)


class Tinted(Visual):
    """The screen under a see-through screen, tinted, at the width and height asked."""

    def __init__(self, screen, color: Color) -> None:
        self.screen, self.color = screen, color

    def render_strips(self, width, height, style, options) -> list[Strip]:
        compositor = self.screen._compositor
        size = compositor.size
        lines = compositor.render_strips(Size(size.width, min(size.height, height or size.height)))
        base = style.rich_style
        out = [tinted(line, self.color, base).crop_extend(0, width, None) for line in lines]
        blank = Strip.blank(width, base)
        return out + [blank] * max(0, (height or 0) - len(out))

    def get_optimal_width(self, rules, container_width: int) -> int:
        return container_width

    def get_height(self, rules, width: int) -> int:
        return self.screen._compositor.size.height


class SeeThrough:
    """A screen whose see-through background shows the screen under it as `Tinted` draws it."""

    def render(self):
        picture = super().render()
        if type(picture) is BackgroundScreen:
            return Tinted(picture.screen, picture.color)
        return picture
