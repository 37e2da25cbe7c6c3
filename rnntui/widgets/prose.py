"""A paragraph that wraps by terminal cells, between any two Chinese characters and at English
spaces (Rich wraps only at spaces, which leaves a Chinese paragraph with ragged, early breaks).
Drawn through `Lines` (a TextLines wrapped its own way): a tab to another figure redraws it
(~0.1 ms; through Textual's Content, as a Static, ~1.3 ms)."""
from __future__ import annotations

from rnntui.widgets.cells import wrap
from rnntui.widgets.lines import TextLines


class Prose(TextLines):
    def divide(self, width: int) -> list:
        return [[(line, None)] for line in wrap(self._text.plain, width)]
