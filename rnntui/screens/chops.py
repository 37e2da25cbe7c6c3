"""Frames that send only the cells that changed (issue 16).

Textual repaints a changed span of a row by sending the row's piece ("chop", between two widgets'
edges) from its start to the span's end: a plot's cursor moving near the right of the plot resent
the row's whole left part, ~6 KB a key over SSH. `TrimmedChops` starts at the span instead, where
that falls between whole letters (cutting a wide letter, or an accent from its letter, would leave
half of it on the terminal: then it starts at the piece, as Textual does). `TrimmingCompositor`
makes them.
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor
from textual.strip import Strip

from rnntui.widgets.lines import narrow


def cut_between_letters(strip: Strip, cells: int) -> bool:
    """Whether the strip's first `cells` cells end between two whole letters, no zero-width mark
    right after (cutting a wide letter would leave half of it on the terminal)."""
    at = 0
    for segment in strip._segments:
        width = segment.cell_length
        if at + width <= cells:
            at += width
            continue
        return letters(segment.text, cells - at) is not None
    return True


def letters(text: str, cells: int) -> int | None:
    """How many letters of `text` fill its first `cells` cells; None where that cut falls inside a
    wide letter, before a zero-width mark, or in an emoji sequence (not measured letter by letter)."""
    if narrow(text):
        return cells
    if "\u200d" in text or "\ufe0f" in text:
        return None
    used = 0
    for n, letter in enumerate(text):
        width = cell_len(letter)
        if used == cells:
            return n if width else None
        used += width
        if used > cells:
            return None
    return len(text) if used == cells else None


class TrimmedChops(ChopsUpdate):
    def render_segments(self, console) -> str:
        """As Textual's, but a piece that begins before its span is sent from the span's start."""
        sequences: list[str] = []
        append = sequences.append
        move_to = Control.move_to
        chops, chop_ends, last_y = self.chops, self.chop_ends, self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    if x < x1 and cut_between_letters(strip, x1 - x):
                        strip, x = strip.crop(x1 - x, min(end, x2) - x), x1
                    else:
                        strip = strip.crop(0, min(end, x2) - x)
                append(move_to(x, y).segment.text)
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


class TrimmingCompositor(Compositor):
    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        return None if update is None else TrimmedChops(update.chops, update.spans, update.chop_ends)
