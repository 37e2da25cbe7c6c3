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


class StyledProse(TextLines):
    """Prose's breaks, its styles kept: a talk's Chinese title (bold, then its topic dim) broke at its
    one space, leaving "一次一个" alone on a line 70 cells short (a power user's trial)."""

    def divide(self, width: int) -> list:
        text = self._text
        plain = text.plain
        if plain.isascii():
            return super().divide(width)
        offsets, at = [], 0
        try:
            for line in wrap(plain, width):
                start = plain.index(line, at)  # (wrap drops the spaces it breaks at)
                if start:
                    offsets.append(start)
                at = start + len(line)
        except ValueError:
            return super().divide(width)
        pieces = text.divide(offsets)
        for piece in pieces:
            piece.rstrip()
        return [piece[len(piece.plain) - len(piece.plain.lstrip(" ")):] for piece in pieces]  # (a double space: a
        # line began with one, a review)
