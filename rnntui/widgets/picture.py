"""A picture: lines of text drawn as they are, cropped at the edge, never wrapped (issue 16).

Tables, grids and cheat sheets change a few rows at a key. As a Static, Textual converts the whole
Text to Content and redraws every line; a Picture draws through `Lines`, so only the rows that
differ are drawn and repainted. It is as tall as its lines and, when its width is `auto`, as wide as
the widest.
"""
from __future__ import annotations

from rnntui.widgets.lines import TextLines, cut_runs


class Picture(TextLines):
    DEFAULT_CSS = "Picture { height: auto; }"

    def divide(self, width: int) -> list:
        runs = cut_runs(self._text, self.app.console)
        return runs if runs is not None else list(self._text.split("\n", allow_blank=True))  # cut at the edge
