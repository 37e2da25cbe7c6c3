"""The token track: a row of tokens with rows of cells above them, one column per position.

A cell holding None has not been computed yet and is drawn dashed and empty: it does not exist.
A position listed in a row's `faint` is drawn dashed and dim with its value inside: it exists but
does not count (e.g. a gradient cut to exactly 0).
"""
from __future__ import annotations

from dataclasses import dataclass

from rnntui.fmt import fixed, three
from rnntui.widgets.cells import cell_len, cut, fit as cell_fit
from rnntui.widgets.lines import Lines, rstrip_runs
from rnntui.widgets.quiet import joined, repaint, same
from rnntui.widgets.tints import NEGATIVE, POSITIVE

INNER = 6  # terminal cells inside a box: fits "-0.380", or three CJK characters


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[float | str | None, ...]
    link: str = " "  # drawn between neighbouring cells, e.g. "→" for a recurrence
    faint: tuple[int, ...] = ()  # positions drawn dashed and dim, value shown
    tiny: bool = False  # a value that reads 0.000 and is not 0 as 1.9e-5 (a vanishing gradient is not 0)


def upto(values, t: int, n: int | None = None) -> tuple:
    """One cell per position (n of them, or one per value): the value where it exists, None (a
    dashed cell) after t."""
    n = len(values) if n is None else n
    return tuple(values[i] if i <= t else None for i in range(n))


def cell_rows(c, h, tokens, t: int) -> tuple[Row, Row, Row]:
    """An LSTM on the track: its cell state c on a plain line, h on arrows, then the tokens; c and h
    up to step t."""
    return Row("c", upto(c, t), "─"), Row("h", upto(h, t), "→"), Row("x", tokens)


def _fmt(value, tiny: bool = False) -> str:
    """A cell's number in INNER cells: three decimals, fewer (rounded) for a large one, 128.00 (1234.56 read
    1234.5); `tiny`: one that reads 0.000 and is not 0 as 1.9e-5 (fmt.three)."""
    if isinstance(value, str):
        return cut(value, INNER)
    text = three(value) if tiny else fixed(value, 3)
    if "e" in text:  # (1.9e-05 → 1.9e-5; -1.9e-5 → -2e-5)
        for digits in (1, 0):
            mantissa, power = f"{value:.{digits}e}".split("e")
            if len(text := f"{mantissa}e{int(power)}") <= INNER:
                break
        return text
    for digits in (2, 1, 0):
        if len(text) <= INNER:
            break
        text = f"{value:.{digits}f}"
    return text[:INNER]


def _style(value, current: bool) -> str:
    base = "bold reverse" if current else ""
    if isinstance(value, (int, float)):
        tint = POSITIVE if value > 0.05 else NEGATIVE if value < -0.05 else ""
        return f"{base} {tint}".strip()
    return base


def box_size(n: int, width: int, height: int, rows: int, label_width: int = 4) -> tuple[int, int]:
    """(characters inside a cell, blank lines above and below its value) for n cells a row in a box
    `width` wide: cells widen with the room (from INNER up to 20) and grow taller when the box is
    tall enough that the track may take half of it (a blank line above and below the value)."""
    inner = min(max((width - label_width) // max(n, 1) - 3, INNER), 20)
    pad = min(max((height // 2 - 1 - 3 * rows) // (2 * max(rows, 1)), 0), 1)
    return inner, pad


@dataclass(frozen=True)
class CellColumns:
    """Where a track of n cells a row draws the middle of its first and last cell at a width (columns
    from its left, as `PlotSpec.xcols` takes them): a plot under the track puts t = 0 … n−1 under them.
    (Its ticks drifted up to 6 columns off the cells' ▼ at 200x60: the cells leave the width's rest.)"""

    n: int
    label_width: int = 4

    def __call__(self, width: int) -> tuple[float, float, float, float]:
        inner = box_size(self.n, width, 0, 1, self.label_width)[0]
        first = self.label_width + (inner + 1) // 2  # where the ▼ over cell 0 is
        return 0.0, first, float(self.n - 1), first + (inner + 3) * (self.n - 1)


class _Runs(list):
    """One line being built from (words, style) pieces; `joined` makes them runs."""

    def add(self, words: str, style: str = "") -> None:
        self.append((words, style))


def track_runs(rows: tuple[Row, ...], current: int | None, label_width: int = 4, inner: int = INNER,
               pad: int = 0, span: tuple | None = None) -> list[list[tuple[str, str]]]:
    """Boxes for every row, `inner` characters wide with `pad` blank lines above and below each
    value; the column `current` is marked (▼ above it, reversed cells). `span` (start, stop, label)
    draws a bracket under the columns start … stop − 1 (see `span_runs`). Each line is a list of
    (words, style) runs (built straight, not through Rich Text: a key redraws most of the track)."""
    n = max(len(r.cells) for r in rows)
    head = _Runs([(" " * label_width, "")])
    head.add("".join(f"{'▼' if t == current else ' ':^{inner + 2}} " for t in range(n)), "bold")
    out = [head]
    blank = " " * label_width
    for row in rows:
        top, bot, mid = _Runs([(blank, "")]), _Runs([(blank, "")]), _Runs([(cell_fit(row.label, label_width), "")])
        above = [_Runs([(blank, "")]) for _ in range(pad)]
        below = [_Runs([(blank, "")]) for _ in range(pad)]
        for t, value in enumerate(row.cells):
            gap = row.link if t + 1 < len(row.cells) else " "
            if value == "":  # no cell at this position at all
                for part in (top, mid, bot, *above, *below):
                    part.add(" " * (inner + 3))
                continue
            dashed = value is None or t in row.faint
            side, edge, style = ("╎", "╌", "dim") if dashed else ("│", "─", "")
            top.add("┌" + edge * inner + "┐ ", style)
            bot.add("└" + edge * inner + "┘ ", style)
            for part in (*above, *below):
                part.add(side + " " * inner + side + " ", style)
            if value is None:
                mid.add(side + " " * inner + side, "dim")
                mid.add(" ")
                continue
            if dashed:
                mid.add(side + cell_fit(_fmt(value, row.tiny), inner, "center") + side + " ", "dim")
                continue
            mid.add("│")
            mid.add(cell_fit(_fmt(value, row.tiny), inner, "center"), _style(value, t == current))
            mid.add("│")
            nxt = row.cells[t + 1] if t + 1 < len(row.cells) else None
            mid.add(gap if nxt is not None else " ")
        out += [top, *above, mid, *below, bot]
    if span is not None:
        out.append(span_runs(n, *span, label_width=label_width, inner=inner))
    out = [joined(line) for line in out]
    return out[:-1] + rstrip_runs(out[-1:])  # only the last line, as Rich rstrips a line


def span_runs(n: int, start: int, stop: int, label: str, label_width: int = 4, inner: int = INNER) -> _Runs:
    """A bracket under the columns start … stop − 1 of a track with n positions, `label` in it:
    `└──── label ────┘`; the columns before it get a dim `✂` at the cut."""
    out = _Runs([(" " * label_width, "")])
    cell = inner + 3
    if start > 0:
        out.add(" " * (start * cell - 2) + "✂ ", "dim")
    width = max((stop - start) * cell - 3, 0)
    words = cut(f" {label} ", width)
    left = (width - cell_len(words)) // 2
    out.add("└" + "─" * left + words + "─" * (width - left - cell_len(words)) + "┘", "bold")
    return out


class TokenTrack(Lines):
    """The track, its cells as wide and tall as the room allows (see `fit`)."""

    DEFAULT_CSS = "TokenTrack { height: auto; width: 1fr; }"

    rows: tuple = ()
    current: int | None = None
    span: tuple | None = None
    pad = 0

    def __init__(self, below: int = 0, **kwargs) -> None:
        """`below`: rows kept for what comes under the track (an extra plot) when it decides to grow taller."""
        super().__init__(**kwargs)
        self.below = below

    def show(self, rows: tuple[Row, ...], current: int | None, span: tuple | None = None) -> None:
        """`span`: (start, stop, label), a bracket under those columns (see `span_runs`). Lays the
        screen out again only when the track's height changes (most keys move the cursor or a value)."""
        if same((rows, current, span), (self.rows, self.current, self.span)):
            return

        def apply() -> None:
            self.rows, self.current, self.span = rows, current, span

        repaint(self, apply)

    def get_content_height(self, container, viewport, width: int) -> int:
        if not self.rows:
            return 1
        n = max(len(r.cells) for r in self.rows)
        room = container.height
        row = self.parent  # in a row of auto height (serving/cell's), the height of what holds the row: measured
        # against the row it had made tall itself, it shrank in it and left 6 rows blank
        if row is not None and row.parent is not None and row.styles.height is not None and row.styles.height.is_auto:
            room = row.parent.content_region.height or room
        self.pad = box_size(n, width, room - self.below, len(self.rows))[1]
        return 1 + len(self.rows) * (3 + 2 * self.pad) + (self.span is not None)

    def lines(self, width: int, height: int) -> list:
        if not self.rows:
            return []
        n = max(len(r.cells) for r in self.rows)
        inner = box_size(n, width, 0, len(self.rows))[0]
        return track_runs(self.rows, self.current, inner=inner, pad=self.pad, span=self.span)
