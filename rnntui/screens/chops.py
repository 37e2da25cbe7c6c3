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

from rnntui.widgets.lines import JOINERS, is_mark, narrow


def clean_cut(strip: Strip, cells: int) -> bool:
    """Whether a cut after the strip's first `cells` cells falls between two whole letters, with no
    zero-width mark (an accent) right after it: a crop there leaves no half letter on the terminal
    and parts no accent from its letter."""
    at = 0
    for segment in strip._segments:
        text = segment.text
        if not text:
            continue
        if at == cells:  # the cut falls before this run
            return not is_mark(text[0])
        width = cell_len(text)
        if at + width <= cells:
            at += width
            continue
        return clean_cut_in(text, cells - at)
    return True


def clean_cut_in(text: str, cells: int) -> bool:
    """`clean_cut` inside one run; an emoji sequence (joined letters) is never cut."""
    if narrow(text):
        return True
    if JOINERS & set(text):
        return False
    used = 0
    for letter in text:
        width = cell_len(letter)
        if used == cells:
            return width != 0
        used += width
        if used > cells:
            return False
    return True


class TrimmedChops(ChopsUpdate):
    """(Only `render_segments` is ours: what the app sends. Printed through Rich, `__rich_console__`,
    an update still goes from each piece's start, as Textual's.)"""

    def render_segments(self, console) -> str:
        """As Textual's, but a piece that begins before its span is sent from the span's start, and one
        that ends past it is cut at the span's end only where that cut is clean (else sent to its
        end: a wide letter of a tooltip over the row would lose its other half)."""
        sequences: list[str] = []
        append = sequences.append
        move_to = Control.move_to
        chops, chop_ends, last_y = self.chops, self.chop_ends, self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    stop = x2 if x2 < end and clean_cut(strip, x2 - x) else end
                    if x < x1 and clean_cut(strip, x1 - x):
                        strip, x = strip.crop(x1 - x, stop - x), x1
                    elif stop < end:
                        strip = strip.crop(0, stop - x)
                append(move_to(x, y).segment.text)
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


class TrimmingCompositor(Compositor):
    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        return None if update is None else TrimmedChops(update.chops, update.spans, update.chop_ends)
