"""Frames that send only the cells that changed (issue 16).

Textual repaints a changed span of a row by sending the row's piece ("chop", between two widgets'
edges) from its start to the span's end: a plot's cursor moving near the right of the plot resent
the row's whole left part, ~6 KB a key over SSH. `TrimmedChops` starts at the span instead, where
that falls between whole letters (cutting a wide letter, or an accent from its letter, would leave
half of it on the terminal: then it starts at the piece, as Textual does). `TrimmingCompositor`
makes them, drawing for them only the widgets' rows that cross the changed rows.
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.color import ColorSystem
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
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


def cells_text(strip: Strip, start: int, stop: int, color_system) -> str | None:
    """The cells [start, stop) of a strip as the terminal text `strip.crop(start, stop).render` gives,
    without making the cropped strip (a Strip made is seven caches set up, and the crop measured each
    run again: two thirds of sending a frame, ~0.7 ms a key on lstm/cell). Only cuts between runs or
    inside runs of one-cell letters are made here; None for any other (inside a wide letter's run, or
    before a zero-width mark): then `clean_cut` and a crop decide, as before."""
    out, at, render = [], 0, Strip.render_style
    to_end = stop >= strip.cell_length
    for text, style, _ in strip._segments:
        if not text:  # sent (as bytes with no letter) where the crop keeps it, to send what it sends
            if out and style is not None and (at < stop or to_end):
                out.append(render(style, text, color_system))
            continue
        if at == start and start and is_mark(text[0]):  # the start's cut would part this mark (a run of
            return None  # its own too) from its letter
        if at >= stop and not to_end:  # (to the end: the runs of no width after it are sent, as a crop's)
            if at == stop and is_mark(text[0]):  # the end's cut, likewise
                return None
            break
        one_cell = narrow(text)
        end = at + (len(text) if one_cell else cell_len(text))
        if end > start:
            if at < start or end > stop:
                if not one_cell:
                    return None
                text = text[max(start - at, 0):min(stop, end) - at]
            out.append(text if style is None else render(style, text, color_system))
        at = end
    return "".join(out)


class TrimmedChops(ChopsUpdate):
    """(Only `render_segments` is ours: what the app sends. Printed through Rich, `__rich_console__`,
    an update still goes from each piece's start, as Textual's.)"""

    def render_segments(self, console) -> str:
        """As Textual's, but a piece that begins before its span is sent from the span's start, and one
        that ends past it is cut at the span's end only where that cut is clean (else sent to its
        end: a wide letter of a tooltip over the row would lose its other half)."""
        sequences: list[str] = []
        append = sequences.append
        color_system = console._color_system or ColorSystem.TRUECOLOR  # as Strip.render
        chops, chop_ends, last_y = self.chops, self.chop_ends, self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
                if strip is None or x > x2 or end <= x1:
                    continue
                if x2 > x >= x1 and end <= x2:
                    text = strip.render(console)
                elif (text := cells_text(strip, max(x1 - x, 0), min(x2, end) - x, color_system)) is not None:
                    x = max(x, x1)
                else:
                    stop = x2 if x2 < end and clean_cut(strip, x2 - x) else end
                    if x < x1 and clean_cut(strip, x1 - x):
                        strip, x = strip.crop(x1 - x, stop - x), x1
                    elif stop < end:
                        strip = strip.crop(0, stop - x)
                    text = strip.render(console)
                append(f"\x1b[{y + 1};{x + 1}H")  # Control.move_to(x, y)
                append(text)
            if y != last_y:
                append("\n")
        return "".join(sequences)


class TrimmingCompositor(Compositor):
    def _get_renders(self, crop: Region | None = None):
        """As Textual's, but each widget draws only its rows that cross the crop: Textual draws every
        widget whose clip meets the crop, whole (at each key, the header and the footer, which have the
        screen for their clip, and all the screen's and the panel's rows). Rows are drawn whole, as
        Textual draws them: a piece of a row runs from one widget's edge to the next."""
        if crop is None:
            yield from super()._get_renders(crop)
            return
        band = Region(0, crop.y, self.size.width, crop.height)
        for widget, (region, clip) in self.visible_widgets.items():
            if not crop.overlaps(clip):
                continue
            shown = region.intersection(clip).intersection(band)
            if shown.width and shown.height:
                yield shown, shown, widget.render_lines(
                    Region(shown.x - region.x, shown.y - region.y, shown.width, shown.height))

    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        return None if update is None else TrimmedChops(update.chops, update.spans, update.chop_ends)
