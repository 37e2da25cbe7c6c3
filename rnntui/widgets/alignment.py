"""An alignment matrix as text: rows are output steps, columns are input positions.

Each cell is one mark: `#` for a weight above 0.5, `+` above 0.2, `.` otherwise (a NaN is `?`).
The current row is highlighted. When the widget is shorter than the matrix, a window of rows
around the current one is drawn, with `┊` where rows are left out (⋮ is in no shipped font).
"""
from __future__ import annotations

import math
from typing import Sequence

from rich.text import Text
from rnntui.widgets.lines import Lines, parsed, rstrip_runs, runs_text, style_of, text_runs
from rnntui.widgets.quiet import joined, repaint, same

from rnntui.i18n import _
from rnntui.widgets.cells import cell_len, fit
from rnntui.widgets.tints import BAD

STRONG, WEAK = 0.5, 0.2
BLOCKS = " ▁▂▃▄▅▆▇█"
STYLES = {"#": "bold", "+": "", ".": "dim", "?": BAD}  # each mark's style: strong weights stand out


def legend() -> str:
    """What the marks mean, in the current language."""
    return _("# α > {strong}   + α > {weak}   . smaller").format(strong=STRONG, weak=WEAK)


def mark(weight: float) -> str:
    if not math.isfinite(weight):
        return "?"
    return "#" if weight > STRONG else "+" if weight > WEAK else "."


def row_window(n_rows: int, current: int | None, room: int) -> tuple[int, int]:
    """[start, stop) of the rows to draw in `room` lines, keeping `current` inside."""
    if room >= n_rows:
        return 0, n_rows
    room = max(room, 1)
    centre = 0 if current is None else current
    start = min(max(centre - room // 2, 0), n_rows - room)
    return start, start + room


def matrix_text(weights, current: int | None = None, col_labels: Sequence[str] = (),
                row_labels: Sequence[Text | str] = (), height: int | None = None, cell: int = 2,
                corner: str = "", spaced: bool = False) -> Text:
    """The grid as one Text (see `matrix_runs`)."""
    return runs_text(matrix_runs(weights, current, col_labels, row_labels, height, cell, corner, spaced))


def _label_runs(label: Text | str, width: int, current: bool) -> list:
    """A row label as (words, style) runs padded to `width` cells, reversed on the current row."""
    over = parsed("bold reverse") if current else None
    if isinstance(label, str):
        return [(label + " " * (width - cell_len(label)), over)]
    runs = text_runs(label, style_of)  # labels are built in order; else their plain words
    out = runs[0] if runs else [(label.plain, style_of(label.style) if label.style else None)]
    out.append((" " * (width - cell_len(label.plain)), style_of(label.style) if label.style else None))
    return [(words, style + over if style and over else over or style) for words, style in out if words]


def matrix_runs(weights, current: int | None = None, col_labels: Sequence[str] = (),
                row_labels: Sequence[Text | str] = (), height: int | None = None, cell: int = 2,
                corner: str = "", spaced: bool = False) -> list[list]:
    """The grid with a header of column labels; `row_labels` are drawn left of each row. Each line is
    a list of (words, style) runs (a key moves the current row: built straight, not through Text).

    `cell` characters per column; `spaced` leaves a blank line between rows (for tall terminals)."""
    rows = [list(map(float, r)) for r in weights]
    n_rows = len(rows)
    n_cols = max((len(r) for r in rows), default=0)
    label_w = max([cell_len(l.plain if isinstance(l, Text) else l) for l in row_labels] + [cell_len(corner)])
    out = [[(fit(corner, label_w) + " ", "dim"),
            ("".join(fit(col_labels[j] if j < len(col_labels) else "", cell) for j in range(n_cols)), "bold")]]
    room = n_rows if height is None else max(height - 1, 1)
    start, stop = row_window(n_rows, current, room)
    cut_top, cut_bottom = start > 0, stop < n_rows
    for k in range(start, stop):
        if spaced and k > start:
            out.append([])
        if (k == start and cut_top) or (k == stop - 1 and cut_bottom):
            out.append([(fit("┊", label_w) + " " + fit("┊", cell) * n_cols, "dim")])
            continue
        is_current = k == current
        line = _label_runs(row_labels[k] if k < len(row_labels) else "", label_w, is_current) + [(" ", "")]
        reverse = " reverse" if is_current else ""
        marks = [mark(rows[k][j] if j < len(rows[k]) else float("nan")) for j in range(n_cols)]
        out.append(line + joined((f"{m:<{cell}}", (STYLES[m] + reverse).strip()) for m in marks))
    return rstrip_runs(out)


def bars_text(weights: Sequence[float], lines: int = 2, cell: int = 1, label: str = "") -> Text:
    """A small vertical bar chart of one row of weights (0…1), `lines` characters tall, `label` on
    the bottom line (the lines above are indented as much)."""
    out = Text()
    levels = lines * 8
    heights = [0 if not math.isfinite(w) else round(min(max(w, 0.0), 1.0) * levels) for w in weights]
    for line in range(lines - 1, -1, -1):
        out.append(label if line == 0 else " " * cell_len(label), style="dim")
        for h in heights:
            fill = min(max(h - line * 8, 0), 8)
            out.append(BLOCKS[fill] + " " * (cell - 1), style="bold")
        if line:
            out.append("\n")
    return out


def cell_for(width: int) -> int:
    """Characters per column for a container this wide: 2 at 80 columns, up to 4 on wide terminals."""
    return 2 if width < 110 else 3 if width < 140 else 4


class AlignmentMatrix(Lines):
    """`show(weights, current, col_labels, row_labels)`; as wide as its cells, as many rows as fit.

    On a wide terminal the cells widen (up to 4 characters); when there is height to spare the rows
    are spaced out, so the grid stays roughly square."""

    DEFAULT_CSS = "AlignmentMatrix { height: 1fr; width: auto; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spec: tuple = ((), None, (), (), "")
        self.cell = 2

    def show(self, weights, current: int | None = None, col_labels: Sequence[str] = (),
             row_labels: Sequence = (), corner: str = "") -> None:
        spec = (weights, current, tuple(col_labels), tuple(row_labels), corner)
        if same(spec, self.spec):
            return

        def apply() -> None:
            self.spec = spec

        repaint(self, apply)

    def _label_width(self) -> int:
        _, _, _, rows, corner = self.spec
        return max([cell_len(l.plain if isinstance(l, Text) else l) for l in rows] + [cell_len(corner)])

    def get_content_width(self, container, viewport) -> int:
        weights = self.spec[0]
        n_cols = max((len(r) for r in weights), default=0)
        self.cell = cell_for(container.width)
        return self._label_width() + 1 + n_cols * self.cell

    def lines(self, width: int, height: int) -> list:
        weights, current, cols, rows, corner = self.spec
        spaced = height >= 2 * len(weights) + 1
        return matrix_runs(weights, current, cols, rows, height=height or None, corner=corner, cell=self.cell,
                           spaced=spaced)
