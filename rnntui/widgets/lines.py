"""A widget that draws lines of Rich Text through Textual's line API (issue 16).

A Static hands its Text to Textual, which converts it to Content and then to strips at every
render: for a screen of matrices that conversion cost more than drawing the matrices. `Lines`
renders each line's segments once per (what it shows, size, style) and hands Textual the strips.
Lines are cropped or padded to the width, never wrapped; a subclass says what it draws in `lines`
and calls `changed()` when that changes. A line is a Rich Text unless the subclass turns its own
kind of line into a strip (`strip`: the plot's rows of styled runs).
"""
from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from rnntui.widgets.quiet import compact, content_key


class Lines(Widget):
    _strips: tuple | None = None

    def lines(self, width: int, height: int) -> list[Text]:
        raise NotImplementedError

    def changed(self) -> None:
        """What the widget draws changed: draw it again at the next refresh."""
        self._strips = None
        self.refresh()

    def render(self) -> Text:  # the same lines, for anything that asks for a renderable
        return Text("\n").join(self.lines(*self.size))

    def strip(self, line, width: int, base: Style) -> Strip:
        """One line as a strip of exactly `width` cells on the widget's own style."""
        return Strip(Segment.apply_style(compact(line).render(self.app.console), base)).adjust_cell_length(width, base)

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        base = self.rich_style
        if self._strips is None or self._strips[0] != (width, height, base):
            drawn, strips = {}, []
            for line in self.lines(width, height)[:height]:
                key = content_key(line) if isinstance(line, Text) else None
                if key is None:
                    strips.append(self.strip(line, width, base))
                    continue
                if key not in drawn:  # a line drawn twice (a bar's rows) is rendered once
                    drawn[key] = self.strip(line, width, base)
                strips.append(drawn[key])
            self._strips = ((width, height, base), strips)
        strips = self._strips[1]
        return strips[y] if 0 <= y < len(strips) else Strip.blank(width, base)
