"""Frames that send only the cells that changed (issue 16).

Textual repaints a changed span of a row by sending the row's piece ("chop", between two widgets'
edges) from its start to the span's end: a plot's cursor moving near the right of the plot resent
the row's whole left part, ~6 KB a key over SSH. `TrimmedChops` starts at the span instead, where
that falls between whole letters (cutting a wide letter, or an accent from its letter, would leave
half of it on the terminal: then it starts at the piece, as Textual does). `TrimmingCompositor`
makes them, drawing for them only the changed rows of the front widget at each changed cell.
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
                if strip is None or x >= x2 or end <= x1:  # (no cell of it in the span)
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
    def render_partial_update(self) -> ChopsUpdate | None:
        """As Textual's, but each widget draws only the rows of the changed spans that no widget in front
        of it has filled: Textual draws, whole, every widget whose clip meets the box around all the
        changed rows (at each key the header and the footer, which have the screen for their clip, and
        every row of the screen, the panel and the view under the figure), then keeps of each row's
        pieces the front one. Here a row of a span is left to the widgets behind only where no widget
        in front covers it, so a figure's changed rows are drawn by the figure alone."""
        regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not regions:
            return None
        height = self.size.height
        spans = [span for span in self._regions_to_spans(regions) if 0 <= span[0] < height]
        if not spans:
            return None
        left: dict[int, list[tuple[int, int]]] = {}  # each row's cells not yet filled, as [x1, x2) runs
        for y, x1, x2 in spans:
            left.setdefault(y, []).append((x1, x2))
        cuts = self.cuts
        chops = self._front_first(left)
        return TrimmedChops(chops, spans, [cut_set[1:] for cut_set in cuts])

    def _render_chops(self, crop: Region, is_rendered_line) -> list[dict]:
        """Every row's pieces for a whole frame (a layout's, a screenshot's), drawn front first as above:
        Textual draws every widget whole, the screen, the panel and the view under a figure too (about
        half of a topic's rows drawn at 120x40 are hidden behind the widgets in front)."""
        return self._front_first({y: [(crop.x, crop.right)] for y in crop.line_range if is_rendered_line(y)})

    def _front_first(self, left: dict[int, list[tuple[int, int]]]) -> list[dict]:
        """Each row's pieces, filled from the front widget back; a widget draws only its rows that still
        have a cell of the `left` runs ([x1, x2) per row, used up as they are filled) in its columns."""
        cuts = self.cuts
        chops = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        for widget, (region, clip) in self.visible_widgets.items():
            if not left:
                break
            shown = region.intersection(clip)
            x, right = shown.x, shown.right
            rows = [y for y in shown.line_range if y in left and any(x1 < right and x2 > x for x1, x2 in left[y])]
            for y0, n in runs_of(rows):
                strips = widget.render_lines(Region(x - region.x, y0 - region.y, shown.width, n))
                for y, strip in zip(range(y0, y0 + n), strips):
                    fill(chops[y], cuts[y], x, right, strip)
                    if strip.cell_length < right - x:  # short (a widget going, at 0x0): its row is left
                        continue  # to the widgets behind for what it did not fill, as in Textual's
                    if rest := cut_out(left[y], x, right):
                        left[y] = rest
                    else:
                        del left[y]
        return chops


def fill(chops: dict, cuts: list[int], x: int, right: int, strip: Strip) -> None:
    """A widget's row (drawn from x to right) into the row's pieces not filled yet, as Textual's
    `_render_chops` does it: the front widget's piece wins."""
    inside = [cut for cut in cuts if right >= cut >= x]
    for cut, piece in zip(inside, strip.divide([cut - x for cut in inside[1:]])):
        if chops.get(cut) is None:
            chops[cut] = piece


def cut_out(runs: list[tuple[int, int]], x: int, right: int) -> list[tuple[int, int]]:
    """The [x1, x2) runs less the cells [x, right)."""
    out = []
    for x1, x2 in runs:
        if x2 <= x or x1 >= right:
            out.append((x1, x2))
            continue
        if x1 < x:
            out.append((x1, x))
        if x2 > right:
            out.append((right, x2))
    return out


def runs_of(rows: list[int]) -> list[tuple[int, int]]:
    """Ascending row numbers as (first, count) runs of neighbours."""
    out: list[tuple[int, int]] = []
    for y in rows:
        if out and out[-1][0] + out[-1][1] == y:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((y, 1))
    return out
