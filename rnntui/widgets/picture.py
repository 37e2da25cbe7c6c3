"""A picture: lines of text drawn as they are, cropped at the edge, never wrapped (issue 16).

Tables, grids and cheat sheets change a few rows at a key. As a Static, Textual converts the whole
Text to Content and redraws every line; a Picture draws through `Lines`, so only the rows that
differ are drawn and repainted. It is as tall as its lines and, when its width is `auto`, as wide as
the widest.
"""
from __future__ import annotations

from rich.text import Text

from rnntui.widgets.lines import Lines
from rnntui.widgets.quiet import content_key, repaint


class Picture(Lines):
    DEFAULT_CSS = "Picture { height: auto; }"

    _rows: tuple[Text, ...] = ()
    _shown: tuple | None = None

    def update(self, content: Text | str = "") -> None:
        text = content if isinstance(content, Text) else Text(content)
        key = content_key(text)
        if key == self._shown:
            return
        self._shown = key

        def apply() -> None:
            self._rows = tuple(text.split("\n", allow_blank=True)) if text.plain else ()

        repaint(self, apply)

    def lines(self, width: int, height: int) -> list[Text]:
        return list(self._rows)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._rows)

    def get_content_width(self, container, viewport) -> int:
        return max((row.cell_len for row in self._rows), default=0)
