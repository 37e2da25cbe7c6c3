"""Frames that send only the cells that changed (issue 16).

Textual repaints a changed span of a row by sending the row's piece ("chop", between two widgets'
edges) from its start to the span's end: a plot's cursor moving near the right of the plot resent
the row's whole left part, ~6 KB a key over SSH. `TrimmedChops` starts at the span instead, where
that falls between whole characters (cutting a wide or accented character would leave half of it
on the terminal: then it starts at the piece, as Textual does). `TrimmingCompositor` makes them.
"""
from __future__ import annotations

from rich.cells import _is_single_cell_widths, cell_len
from rich.control import Control
from rich.segment import Segment
from textual._compositor import ChopsUpdate, Compositor
from textual.strip import Strip


def without_first(strip: Strip, cells: int) -> Strip | None:
    """The strip less its first `cells` cells, or None where that cut would fall inside a character
    wider than one cell (a zero-width mark after the cut goes with the letter before it)."""
    at, segments = 0, strip._segments
    for i, segment in enumerate(segments):
        text = segment.text
        width = segment.cell_length
        if at + width <= cells:
            at += width
            continue
        cut = letters(text, cells - at)
        if cut is None:
            return None
        rest = segments[i:] if not cut else [Segment(text[cut:], segment.style, segment.control), *segments[i + 1:]]
        return Strip(rest, strip.cell_length - cells)
    return Strip([], 0)


def letters(text: str, cells: int) -> int | None:
    """How many letters of `text` fill its first `cells` cells, with the zero-width marks that follow
    the last; None where the cut would fall inside a wide letter (or an emoji sequence, not measured
    letter by letter)."""
    if _is_single_cell_widths(text):
        return cells
    if "\u200d" in text or "\ufe0f" in text:
        return None
    used = 0
    for n, letter in enumerate(text):
        width = cell_len(letter)
        if used == cells and width:
            return n
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
                    strip = strip.crop(0, min(end, x2) - x)
                    if x < x1 and (rest := without_first(strip, x1 - x)) is not None:
                        strip, x = rest, x1
                append(move_to(x, y).segment.text)
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


class TrimmingCompositor(Compositor):
    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        return None if update is None else TrimmedChops(update.chops, update.spans, update.chop_ends)
