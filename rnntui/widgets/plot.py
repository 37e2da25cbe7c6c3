"""One plot widget for every topic: lines, labelled reference lines, a cursor, optionally log axes.

The plot is drawn by this module on a character grid: series as braille dots (2×4 per cell),
reference lines (─ ╌, │ ╎), the cursor and the frame as box-drawing characters, labels as text. A
reference line runs through the cells its value's dot is in, under the curves, and data in those
cells keeps to its side of it (above a line's value: the cell's upper half, never a lower row), so
a line reads as a line, not as one more series, and never misplaces a point. A log axis is
log10(value) on a linear axis with decade tick labels (`1e-10`).

The y axis always holds every finite point (and the caller's ylim, which it may only widen). Its
ticks are round values an equal number of rows apart, each label on the row its value is drawn at
(on a log axis every 1st, 2nd, 5th, 10th … decade, as many as fit, and the highest decade reached over
1 where no tick is). A point drawn as a character (● ◆) takes its whole cell, so the rows are placed,
where they can be, to keep it out of the row of a curve at another value at its x. Each cell shows
one thing in one colour: a curve covers a line only in the cells it passes through, and where two
series coincide they take turns, so both stay visible. Braille lines differ without colour too:
solid, dotted and dashed in turn unless the series sets `dash`, and the legend shows each one's
sample (━━ ┈┈ ╍╍, or the marker it is drawn with).

Everything is rebuilt from the spec at the widget's current size on every render, so any number of
resizes is safe, and points that are 0 (on a log axis), inf or NaN are not plotted: the place where a
series first becomes one of them is marked (`▲inf`, `▲NaN`, `▼0`) instead. Drawing a figure takes
a millisecond or two, so a key press re-renders well inside a frame.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

from rich.style import Style
from rich.text import Text

from rnntui import lazy
from rnntui.i18n import N_, _, ngettext
from rnntui.widgets.axes import log_ticks, nice_ticks, xlim_at, y_axis
from rnntui.widgets.cells import MORE, cell_len, cut, fit, label_row
from rnntui.widgets.lines import EXTRA_ROWS, Lines, runs_text  # noqa: F401 (EXTRA_ROWS: extra_plot's least)
from rnntui.widgets.quiet import joined, same
from rnntui.widgets.tints import BLUE, GREY, RED, RGB

np = lazy.numpy(globals())  # imported when a plot first draws (the first frame has none)

DASH_H, DASH_V = "╌", "╎"
MIN_SIZE = (16, 5)  # below this (columns, rows) the plot is replaced by a one-line note
BARE = 4  # rows of an extra plot drawn bare, below its smallest: its top edge and three rows of curves (with two,
# y ticks fell outside the limits: "0┤" over "-2┤" for tanh's -1…1, a review)
TOO_SMALL = N_("(too small to plot)")
TOP_KEY_MARGIN = 16  # a legend in the frame's top edge has the width less this (y labels, corners, spaces)
WIDE = ""  # the second cell of a wide (CJK) character: drawn by the character before it
BRAILLE = 0x2800
DOT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # DOT[row in cell][column in cell]
DASHES = ("solid", "dotted", "dashed")  # every dot; every other dot; four dots on, four off
SWATCH = {"solid": "━━", "dotted": "┈┈", "dashed": "╍╍"}  # each line style's sample in a legend (┅┅ for dotted
# read as ╍╍ under NO_COLOR, where the dashes alone tell curves apart: a trial)
BLOB = "⠶"  # a braille scatter point is a 2×2 blob of dots; its legend sample


@dataclass(frozen=True)
class Series:
    x: tuple[float, ...]
    y: tuple[float, ...]
    label: str = ""
    color: RGB = BLUE
    marker: str = "braille"  # "braille" (fine dots) or one character, e.g. "●" or "█"
    scatter: bool = False  # points only, not joined
    dash: str | None = None  # "solid", "dotted" or "dashed"; None: taken in turn by the braille lines
    behind: bool = False  # shown only in cells no other series is in (a tangent: its curve stays whole, where
    # taking turns cut holes in tanh wherever the tangent lay along it, a lecturer's trial)


@dataclass(frozen=True)
class Line:
    """A horizontal (y) or vertical (x) reference line with a label drawn on it."""

    at: float
    label: str = ""
    color: RGB = GREY
    vertical: bool = False
    dashed: bool = False
    align: str = "left"  # where a horizontal line's label sits: "left" or "right" end
    aside: bool = False  # a horizontal line's label may go to the row beside it, with an arrow, where a series
    # fills its row at both ends (a threshold among its curves; not a level a series runs along, as chance)
    keyed: bool = False  # its label in the legend, not on it: a level a series runs along (memory/copy's
    # "chance 10%" hid the start of the accuracy curve, a trial)
    level: bool = False  # a level a series runs along: dots in its cells sit on it, no sides (see _Canvas.snap)


@dataclass(frozen=True)
class PlotSpec:
    series: tuple[Series, ...] = ()
    lines: tuple[Line, ...] = ()
    cursor: float | None = None  # an x position, drawn as a vertical line with its points marked
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None  # in data units (for a log axis: positive values)
    log_y: bool = False
    log_x: bool = False
    xlabel: str = ""
    title: str = ""
    marks: tuple[tuple[float, float, str], ...] = field(default=())  # (x, y, text) in data units
    legend: str = "below"  # "inside" (top left of the canvas), "below" (a line under the plot), "top" (in
    # the frame's top edge: for plots too short to give it a row) or "none"
    labels_from: int = 0  # in fewer rows than this, no title and no x label: the curves keep the rows (the plot
    # decides at its own size as it draws; a view that decided it was behind a layout, a keyboard audit)
    xcols: Callable[[int], tuple[float, float, float, float]] | None = None  # at a width, (x_a, column a, x_b,
    # column b), columns from the widget's left: xlim is set so that x_a and x_b fall there (a plot under a
    # track lines its ticks up with the track's cells: `track.CellColumns`); hashable, compared by value


# -- values on the axes (the ticks: rnntui.widgets.axes) ---------------------------------------

def _axis(values, log: bool) -> np.ndarray:
    """Values as drawn: log10 for a log axis; non-finite or non-positive become NaN."""
    v = np.asarray(values, dtype=float)
    if not log:
        return np.where(np.isfinite(v), v, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.isfinite(v) & (v > 0), np.log10(np.where(v > 0, v, 1.0)), np.nan)


def _at(value: float, log: bool) -> float:
    """One value as drawn (see `_axis`), without numpy's overhead."""
    v = float(value)
    if not math.isfinite(v) or (log and v <= 0):
        return math.nan
    return math.log10(v) if log else v


def non_finite_marks(s: Series, log: bool) -> list[tuple[float, str]]:
    """Where a series becomes NaN, ±inf or (on a log axis) 0 or negative: (x, word). The first such
    point; or, for a series that starts so, the last point of that opening run, the edge next to its
    drawn values (a truncated gradient is 0 from the cut back: its ▼0 sat at t = 0 whatever the cut)."""
    n = min(len(s.x), len(s.y))
    y = np.asarray(s.y[:n], dtype=float)
    found = []
    checks = [("NaN", np.isnan(y)), ("inf", np.isposinf(y)), ("-inf", np.isneginf(y))]
    if log:
        checks += [("0", y == 0), ("<0", np.isfinite(y) & (y < 0))]
    for word, bad in checks:
        if bad.any():
            at = int(np.argmax(bad))
            if at == 0 and not bad.all():
                at = int(np.argmin(bad)) - 1  # (the opening run's last point)
            found.append((float(s.x[at]), word))
    return found


def _limits(given, drawn: np.ndarray, log: bool) -> tuple[float, float]:
    if given is not None:
        lo, hi = (float(v) for v in _axis(given, log))
        if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
            return lo, hi
    if drawn.size == 0:
        return 0.0, 1.0
    lo, hi = float(drawn.min()), float(drawn.max())
    if hi - lo < 1e-12 * max(1.0, abs(hi)):
        lo, hi = lo - 1.0, hi + 1.0
    return lo, hi


# -- the drawing ---------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _style(color: RGB | None, dim: bool = False) -> Style | None:
    if color is None:
        return Style(dim=True) if dim else None
    return Style(color=f"rgb({color[0]},{color[1]},{color[2]})", dim=dim)


@lru_cache(maxsize=None)
def _dot_bits():
    """DOT as an array (made when first drawn: numpy is not imported at start-up)."""
    return np.array(DOT, dtype=np.uint8)


_SERIES = 1 << 20  # layer numbers from here on belong to series; below are lines and the cursor
_FRONT = _SERIES + (1 << 10)  # series that are not `behind`, over those that are


class _Canvas:
    """cw×ch character cells; braille dots at 2×4 per cell; (0, 0) is the top-left cell.

    Everything is drawn into layers: each reference line, the cursor and each series has its own
    (braille bits or characters per cell). A cell shows the one layer on top there, in that layer's
    colour: a curve covers a line only in the cells it passes through, and no cell mixes two series'
    dots in one colour. Where series meet in a cell, the cells are shared out in turns of three
    columns, so each stays visible, except that a `behind` series gives its cells up. Text (labels,
    marks) goes over all.
    """

    def __init__(self, cw: int, ch: int, xlim, ylim) -> None:
        self.cw, self.ch, self.xlim, self.ylim = cw, ch, xlim, ylim
        self.layers: dict[int, tuple[np.ndarray, bool, Style | None]] = {}  # number → (cells, braille?, style)
        self.over: dict[tuple[int, int], tuple[str, Style | None]] = {}
        self.hlines: list[tuple[int, float]] = []  # (text row, dot position) of each horizontal line
        self.vlines: list[tuple[int, float]] = []  # (text column, dot position) of each vertical line
        self.levels: set[tuple[int, float]] = set()  # the hlines a series runs along (Line.level): no sides
        self._runs: tuple | None = None  # see runs()

    def copy(self) -> "_Canvas":
        """A canvas to draw more on; the layers drawn so far are shared, not changed, by it."""
        out = _Canvas(self.cw, self.ch, self.xlim, self.ylim)
        out.layers, out.over = dict(self.layers), dict(self.over)
        out.hlines, out.vlines, out.levels = list(self.hlines), list(self.vlines), set(self.levels)
        return out

    # data → sub-cell (dot) coordinates, as floats; dots run 0..2cw−1 and 0..4ch−1
    def dx(self, x):
        x0, x1 = self.xlim
        return (x - x0) / (x1 - x0) * (2 * self.cw - 1)

    def dy(self, y):
        y0, y1 = self.ylim
        return (y1 - y) / (y1 - y0) * (4 * self.ch - 1)

    def col(self, x: float) -> int | None:
        c = int(round(self.dx(x))) // 2
        return c if 0 <= c < self.cw else None

    def row(self, y: float) -> int | None:
        r = int(round(self.dy(y))) // 4
        return r if 0 <= r < self.ch else None

    def layer(self, number: int, braille: bool, style) -> np.ndarray:
        if number not in self.layers:
            self.layers[number] = (np.zeros((self.ch, self.cw), np.uint8 if braille else np.int32), braille, style)
        return self.layers[number][0]

    def snap(self, px: np.ndarray, py: np.ndarray, fx: np.ndarray, fy: np.ndarray):
        """Dots in a reference line's cells moved to its side of the line. A line is a box character
        through the middle of its cells, so there a dot above (left of) the line's value goes in the
        cell's upper (left) half, one below (right of) it in the lower (right) half, and one on it in
        the middle two rows; fx, fy are the dots' unrounded positions. A level a series runs along (`level`)
        has every dot in its cells on it: noise of 0.01 about memory/copy's "chance 10%" went in turns above
        and below the line, jumps of 0.1 the run never made, and 9.6% drawn above the line read as better
        than chance (a lecturer's slides, a review)."""
        for r, at in self.hlines:
            sub = py - 4 * r
            here = (sub >= 0) & (sub < 4)
            if (r, at) in self.levels:
                py = np.where(here, np.clip(py, 4 * r + 1, 4 * r + 2), py)
            elif here.any():
                on = np.abs(fy - at) <= 1e-9 * max(1.0, abs(at))  # on the line: its middle two rows
                py = np.where(here & on, np.clip(py, 4 * r + 1, 4 * r + 2),
                              np.where(here & (fy < at), np.minimum(py, 4 * r + 1),
                                       np.where(here & (fy > at), np.maximum(py, 4 * r + 2), py)))
        for c, at in self.vlines:
            here = (px >> 1) == c
            if here.any():
                px = np.where(here & (fx < at), 2 * c, np.where(here & (fx > at), 2 * c + 1, px))
        return px, py

    def dots(self, number: int, px: np.ndarray, py: np.ndarray, style, fx=None, fy=None) -> None:
        """Braille dots at dot coordinates (integer arrays, already inside the canvas); given their
        unrounded positions fx, fy, those in a reference line's cells keep to their side of it."""
        if fx is not None and (self.hlines or self.vlines):
            px, py = self.snap(px, py, fx, fy)
        cells = self.layer(number, True, style)
        np.bitwise_or.at(cells, (py >> 2, px >> 1), _dot_bits()[py & 3, px & 1])

    def chars(self, number: int, r, c, char: str, style) -> None:
        self.layer(number, False, style)[r, c] = ord(char)

    def put(self, r: int, c: int, char: str, style) -> None:
        """A character over everything drawn. A wide (CJK) character takes cells c and c + 1 (the
        second marked WIDE, drawn by the first); one that would straddle the edge becomes a space. A
        character written over half of a wide one turns its other half into a space."""
        if not (0 <= r < self.ch and 0 <= c < self.cw):
            return
        wide = cell_len(char) == 2
        if wide and c + 1 >= self.cw:
            char, wide = " ", False
        for k in (c, c + 1) if wide else (c,):
            old = self.over.get((r, k))
            if old is None:
                continue
            if old[0] == WIDE and k - 1 != c and (r, k - 1) in self.over:  # the wide one's first half
                self.over[r, k - 1] = (" ", self.over[r, k - 1][1])
            elif old[0] != WIDE and cell_len(old[0]) == 2 and (r, k + 1) in self.over and not (wide and k == c):
                self.over[r, k + 1] = (" ", old[1])  # its second half
        self.over[r, c] = (char, style)
        if wide:
            self.over[r, c + 1] = (WIDE, style)

    def start(self, c: int, words: str, align: str = "left") -> int:
        """The first column of words anchored at column c, kept inside the canvas."""
        n = cell_len(words)
        start = c if align == "left" else c - n + 1 if align == "right" else c - n // 2
        return min(max(start, 0), max(self.cw - n, 0))

    def clear_of_lines(self, c: int, words: str, align: str) -> tuple[int, str]:
        """Words anchored at column c moved the least that leaves a free cell between them and every
        vertical line ("│attention n²·d" read as one, parallel/cost at d = 16); as they were where
        nothing fits."""
        n = cell_len(words)
        start = self.start(c, words, align)
        lines = [k for k, _at in self.vlines]
        if not any(start - 1 <= k <= start + n for k in lines):
            return c, align
        free = [b for b in range(0, self.cw - n + 1) if not any(b - 1 <= k <= b + n for k in lines)]
        return (min(free, key=lambda b: abs(b - start)), "left") if free else (c, align)

    def covered(self, r: int, cols: range) -> int:
        """How many of row r's cells in `cols` hold a series' dots or characters."""
        data = [cells[r, cols.start:cols.stop] != 0 for number, (cells, *_) in self.layers.items() if number >= _SERIES]
        return int(np.logical_or.reduce(data).sum()) if data else 0

    def clear_row(self, r: int, c: int, words: str, align: str = "left") -> int:
        """Row r, or the nearest row within two (below first) where words anchored at column c cover no
        series' dots and no text (a line's label, a mark); r when there is none."""
        start, n = self.start(c, words, align), cell_len(words)
        data = [cells[:, start:start + n] != 0 for number, (cells, *_) in self.layers.items() if number >= _SERIES]
        busy = np.logical_or.reduce(data).any(axis=1) if data else np.zeros(self.ch, bool)
        for row, col in self.over:
            if start <= col < start + n:
                busy[row] = True
        return next((k for k in (r, r + 1, r - 1, r + 2, r - 2) if 0 <= k < self.ch and not busy[k]), r)

    def text(self, r: int | None, c: int, words: str, style, align: str = "left") -> int | None:
        """Write words in row r, anchored at column c (widths in cells); returns the first column used."""
        if r is None:
            return None
        start = self.start(c, words, align)
        at = start
        for ch in words:
            self.put(r, at, ch, style)
            at += cell_len(ch)
        return start

    def path(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, ...]:
        """The dots along the line through consecutive points, cut to the canvas, each dot once in a row:
        their columns and rows, and the same unrounded."""
        w, h = 2 * self.cw - 1, 4 * self.ch - 1
        X, Y = self.dx(np.asarray(xs, float)), self.dy(np.asarray(ys, float))
        if X.size == 1:
            X, Y = np.repeat(X, 2), np.repeat(Y, 2)
        x0, y0, x1, y1 = X[:-1], Y[:-1], X[1:], Y[1:]
        dx, dy = x1 - x0, y1 - y0
        t0, t1 = np.zeros_like(x0), np.ones_like(x0)
        keep = np.ones(x0.shape, bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            for p, q in ((-dx, x0), (dx, w - x0), (-dy, y0), (dy, h - y0)):  # Liang–Barsky, all segments at once
                r = q / p
                keep &= ~((p == 0) & (q < 0))
                t0 = np.where(p < 0, np.maximum(t0, r), t0)
                t1 = np.where(p > 0, np.minimum(t1, r), t1)
        keep &= t0 <= t1
        if not keep.any():
            return np.empty(0, int), np.empty(0, int), np.empty(0), np.empty(0)
        x0, y0, dx, dy, t0, t1 = x0[keep], y0[keep], dx[keep], dy[keep], t0[keep], t1[keep]
        a, b = x0 + t0 * dx, y0 + t0 * dy
        da, db = (t1 - t0) * dx, (t1 - t0) * dy
        # one dot per whole step along each segment's longer axis, the other rounded halves up: sampled at even
        # steps from x.5 (26 dots over 26 steps), rounding half to even put every other dot onto its neighbour and
        # a solid line went dotted where it was nearly flat (a lecturer's trial); two steps a dot made corners,
        # and a dotted line read as solid (a review)
        along_x = np.abs(da) >= np.abs(db)
        start, run = np.where(along_x, a, b), np.where(along_x, da, db)  # the longer axis
        first, last = np.floor(start + 0.5), np.floor(start + run + 0.5)
        n = np.abs(last - first).astype(int) + 1  # dots per segment
        seg = np.repeat(np.arange(n.size), n)
        k = np.arange(seg.size) - np.repeat(np.cumsum(n) - n, n)
        m = first[seg] + np.sign(last - first)[seg] * k  # whole steps along the longer axis
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(run[seg] != 0, (m - start[seg]) / run[seg], 0.0).clip(0.0, 1.0)
        fx, fy = a[seg] + t * da[seg], b[seg] + t * db[seg]  # on the segment (its ends kept: a vertical line's
        # side is where the segment is, not the whole step nearest it)
        px = np.clip(np.floor(fx + 0.5).astype(int), 0, w)
        py = np.clip(np.floor(fy + 0.5).astype(int), 0, h)
        new = np.ones(px.size, bool)
        new[1:] = (px[1:] != px[:-1]) | (py[1:] != py[:-1])
        return px[new], py[new], fx[new], fy[new]

    def resolve(self) -> tuple[np.ndarray, np.ndarray, list]:
        """Each cell's character (code point) and style number, and the styles."""
        ch, cw = self.ch, self.cw
        code = np.full((ch, cw), 32, np.int32)
        which = np.zeros((ch, cw), np.int32)  # style number; 0 is no style
        ids: dict = {None: 0}
        numbers = sorted(self.layers)
        owner = np.full((ch, cw), -1, np.int32)
        for i, n in enumerate(numbers):
            owner[self.layers[n][0] != 0] = i
        curves = [i for i, n in enumerate(numbers) if n >= _FRONT and self.layers[n][1]]
        if len(curves) > 1:  # series that meet in a cell take turns, three columns each
            stack = np.stack([self.layers[numbers[i]][0] for i in curves])
            place = np.full(len(numbers) + 1, -1)
            place[curves] = np.arange(len(curves))
            on_top = place[owner] >= 0
            present = stack != 0
            count = present.sum(0)
            turns = on_top & (count > 1)
            if turns.any():
                pick = (np.arange(cw) // 3)[None, :] % np.maximum(count, 1)
                chosen = present & (np.cumsum(present, 0) == pick[None] + 1)
                owner = np.where(turns, np.asarray(curves)[chosen.argmax(0)], owner)
        for i, n in enumerate(numbers):
            cells, braille, style = self.layers[n]
            mine = owner == i
            if mine.any():
                code[mine] = cells[mine].astype(np.int32) + BRAILLE if braille else cells[mine]
                which[mine] = ids.setdefault(style, len(ids))
        for (r, c), (char, style) in self.over.items():
            code[r, c] = ord(char) if char else 0  # 0: a wide character's second cell
            which[r, c] = ids.setdefault(style, len(ids))
        return code, which, list(ids)

    def runs(self) -> tuple[list, np.ndarray, np.ndarray]:
        """Each row as runs (see `_grid_runs`), which cells a cursor line would show in (no series
        and no text over them) and which rows have no wide character; worked out once per canvas, so
        a key that only moves the cursor splices it into these rows instead of resolving again."""
        if self._runs is None:
            code, which, styles = self.resolve()
            covered = np.zeros((self.ch, self.cw), bool)
            for n, (cells, _braille, _style) in self.layers.items():
                if n >= _SERIES:
                    covered |= cells != 0
            for r, c in self.over:
                covered[r, c] = True
            self._runs = (_grid_runs(code, which, styles), ~covered, ~(code == 0).any(axis=1))
        return self._runs


def _splice(row: list, col: int, cell: tuple[str, Style | None]) -> list:
    """A row of runs (one character a cell) with the cell at `col` replaced; equal-style neighbours
    joined as `_grid_runs` joins them."""
    out, at = [], 0
    for words, style in row:
        k = col - at
        if 0 <= k < len(words):
            out += [(words[:k], style), cell, (words[k + 1:], style)]
        else:
            out.append((words, style))
        at += len(words)
    return joined(out)


def _align(x: float, xlim: tuple[float, float]) -> str:
    """Text near an edge grows inwards so it is not cut off."""
    span = xlim[1] - xlim[0]
    if x >= xlim[1] - 0.15 * span:
        return "right"
    if x <= xlim[0] + 0.15 * span:
        return "left"
    return "center"


def dashes(spec: PlotSpec) -> list[str | None]:
    """Each series' line style: its own `dash`, or solid, dotted, dashed in turn over the series drawn
    as braille lines (so they differ without colour too); None for markers and scatter points."""
    out, k = [], 0
    for s in spec.series:
        if s.scatter or s.marker != "braille":
            out.append(None)
        else:
            out.append(s.dash if s.dash in DASHES else DASHES[k % len(DASHES)])
            k += 1
    return out


def swatch(s: Series, dash: str | None) -> str:
    """The legend's sample of a series: what its points or its line look like on the plot."""
    if s.marker != "braille":
        return s.marker
    return BLOB if s.scatter else SWATCH[dash]


def line_swatch(line: Line) -> str:
    """The legend's sample of a reference line: as it is drawn across its row."""
    return (DASH_H if line.dashed else "─") * 2


def legend_runs(spec: PlotSpec, width: int = 10_000) -> list[tuple[str, Style | None]]:
    """One line naming the series by colour and by line style, then the keyed lines, cut at `width` cells."""
    runs, used = [], 0
    entries = [(swatch(s, dash), s.color, s.label) for s, dash in zip(spec.series, dashes(spec))]
    entries += [(line_swatch(line), line.color, line.label) for line in spec.lines if line.keyed]
    for sample, color, label in entries:
        if not label:
            continue
        for words, style in ((("  " if runs else "") + sample, _style(color)), (f" {label}", None)):
            words = cut(words, width - used)
            if words:
                runs.append((words, style))
                used += cell_len(words)
    return runs


def _beside_line(cv, r: int, here: tuple[int, str], there: tuple[int, str], words: str, taken: set):
    """A line's label that covers a series at both ends of its row goes to the row under the line or over
    it, at either end, where it covers nothing (memory/distractor's "f = 0.95" sat on the forget gate's
    curve, a trial), with an arrow to its line; (r, column, align, words) as they were where no such place is."""
    lines = {row for row, _y in cv.hlines}
    for row, arrow in ((r + 1, "↑"), (r - 1, "↓")):
        for c, align in (here, there):
            begin = cv.start(c, words + arrow, align)
            span = range(begin, begin + cell_len(words) + 1)
            if 0 <= row < cv.ch and row not in lines and not cv.covered(row, span) and \
                    not any((row, k) in taken for k in span):
                return row, c, align, (words + arrow if align == "right" else arrow + words)
    return (r, *here, words)


def legend_lines(spec: PlotSpec, width: int) -> list[list[tuple[str, Style | None]]]:
    """The legend's lines under a plot: one where it fits, else broken between entries (cut at `width`,
    "◆ time, so" lost the rest of its name at 44 columns, a review); an entry wider than a line is cut."""
    whole = legend_runs(spec)
    if sum(cell_len(words) for words, _ in whole) <= width:
        return [whole] if whole else []
    lines, line, used = [], [], 0
    for (sample, style), (label, _none) in zip(whole[::2], whole[1::2]):  # (each entry: its sample, its name)
        sample = sample.lstrip()
        need = cell_len(sample) + cell_len(label)
        if line and used + 2 + need > width:
            lines.append(line)
            line, used = [], 0
        if line:
            sample, need = "  " + sample, need + 2
        for words, st in ((sample, style), (label, None)):
            words = cut(words, width - used)
            if words:
                line.append((words, st))
                used += cell_len(words)
    return lines + [line] if line else lines


def _needed(spec: PlotSpec, drawn) -> tuple[float, float] | None:
    """The y span (axis units) the plot must hold: every finite point, the caller's ylim if given, else
    the horizontal reference lines too."""
    ys = [y[ok] for _, _, y, ok in drawn]
    if spec.ylim is not None:
        lim = _axis(spec.ylim, spec.log_y)
        if np.isfinite(lim).all() and lim[1] > lim[0]:
            ys.append(lim)
    else:
        ys.append(np.array([_at(l.at, spec.log_y) for l in spec.lines if not l.vertical]))
    ys = np.concatenate(ys) if ys else np.empty(0)
    ys = ys[np.isfinite(ys)]
    return (float(ys.min()), float(ys.max())) if ys.size else None


def _apart(drawn) -> tuple:
    """Each point drawn as a character (● ◆) with the values of the braille series at its x (axis units): in
    the row of a curve's point it reads as on the curve (not so over a █ bar's top: the bar reads shorter)."""
    out = set()
    for s, x, y, ok in drawn:
        if s.marker != "braille":
            for at, mine in set(zip(x[ok].tolist(), y[ok].tolist())):
                others = {v for s2, x2, y2, ok2 in drawn if s2.marker == "braille"
                          for v in y2[ok2 & (x2 == at)].tolist()}
                if others:
                    out.add((mine, tuple(sorted(others))))
    return tuple(sorted(out))


def too_small(width: int) -> list[list[tuple[str, Style | None]]]:
    """The one-line note drawn instead of a plot with no room, in the current language."""
    return [[(cut(_(TOO_SMALL), width), Style(dim=True))]]


@lru_cache(maxsize=16)
def _cached_scene(spec: PlotSpec, width: int, height: int):
    return _scene(spec, width, height)


def _scene(spec: PlotSpec, width: int, height: int):
    """Everything in a plot but its cursor: axes, reference lines, series, legend, labels, marks
    (None: no room to plot)."""
    legend = legend_lines(spec, width) if spec.legend == "below" else []
    rows_below = 1 + (1 if spec.xlabel else 0) + len(legend)  # tick labels, x label, legend
    ch = height - rows_below - 2 - (1 if spec.title else 0)
    if len(legend) > 1 and ch < 3:  # curves before names: the legend on one line, cut
        ch += len(legend) - 1
        legend = [legend_runs(spec, width)]
    if width < MIN_SIZE[0] or height < MIN_SIZE[1] or ch < 2:
        return None

    # what will be drawn, in axis units (log10 where the axis is logarithmic)
    drawn = []
    for s in spec.series:
        n = min(len(s.x), len(s.y))
        x, y = _axis(s.x[:n], spec.log_x), _axis(s.y[:n], spec.log_y)
        drawn.append((s, x, y, np.isfinite(x) & np.isfinite(y)))
    xs_ok = np.concatenate([x[ok] for _, x, _, ok in drawn]) if drawn else np.empty(0)
    xlim = _limits(spec.xlim, xs_ok, spec.log_x)
    y0, y1, yticks = y_axis(*(_needed(spec, drawn) or (0.0, 1.0)), ch, spec.log_y, _apart(drawn))
    ylim = (y0, y1)

    yw = max([len(label) for _, label, _value in yticks] + [1])
    cw = width - yw - 2
    if cw < 4:
        return None
    ticked = xlim  # where the x ticks go: the aligned points' range, when aligned (the room beside them
    if spec.xcols is not None and not spec.log_x:  # is the cells' edges: with it, 0 2 4 6 under 8 cells)
        cols = spec.xcols(width)
        if aligned := xlim_at(cols, yw, cw):
            xlim, ticked = aligned, (cols[0], cols[2])
    xticks = log_ticks if spec.log_x else nice_ticks
    xt, xl = xticks(*ticked, most=max(2, min(9, cw // max(8, max(len(l) for l in xticks(*ticked)[1]) + 3))))
    cv = _Canvas(cw, ch, xlim, ylim)

    # reference lines under the data, as box characters across the row (column) their value's dot is in;
    # data in those cells keeps to its side of the line (see _Canvas.snap); labels go on top at the end
    labels, hline_rows, vline_cols = [], set(), set()
    for number, line in enumerate(spec.lines):
        at = _at(line.at, spec.log_x if line.vertical else spec.log_y)
        if not math.isfinite(at):
            continue
        style = _style(line.color)
        if line.vertical:
            c = cv.col(at)
            if c is None:
                continue
            cv.chars(number, slice(None), c, DASH_V if line.dashed else "│", style)
            cv.vlines.append((c, float(cv.dx(at))))
            if not line.dashed:
                vline_cols.add(c)
            if line.label:  # beside its line, not across it: centred, "n = d = 256" covered its own line and
                # began at the cursor's (parallel/cost, a newcomer's trial); to the left where the right is short
                right = c + 1 + cell_len(line.label) <= cw
                labels.append((0, c + 1 if right else c - 1, line.label, style, "left" if right else "right", False))
        else:
            r = cv.row(at)
            if r is None:
                continue
            cv.chars(number, r, slice(None), DASH_H if line.dashed else "─", style)
            cv.hlines.append((r, float(cv.dy(at))))
            if line.level:
                cv.levels.add((r, float(cv.dy(at))))
            if not line.dashed:
                hline_rows.add(r)
            if line.label and not line.keyed:
                labels.append((r, cw - 1 if line.align == "right" else 0, line.label, style, line.align,
                               "aside" if line.aside else True))

    w, h = 2 * cw - 1, 4 * ch - 1
    for i, ((s, x, y, ok), dash) in enumerate(zip(drawn, dashes(spec))):
        style, number = _style(s.color), (_SERIES if s.behind else _FRONT) + i
        if s.scatter:
            fx, fy = cv.dx(x[ok]), cv.dy(y[ok])
            px, py = np.rint(fx).astype(int), np.rint(fy).astype(int)
            inside = (px >= 0) & (px <= w) & (py >= 0) & (py <= h)
            px, py, fx, fy = px[inside], py[inside], fx[inside], fy[inside]
            if s.marker != "braille":
                cv.chars(number, py >> 2, px >> 1, s.marker, style)
            elif px.size:  # a 2×2 blob of dots, so a point is as easy to see as its legend's ⠶
                px, py = cv.snap(px, py, fx, fy)
                other = np.where(py < h, py + 1, py - 1)
                if cv.hlines:  # the blob's second row stays on the point's side of a line
                    _, moved = cv.snap(px, other, fx, fy)
                    other = np.where(moved == py, np.where(other > py, py - 1, py + 1), moved)
                px = px & ~1
                cv.dots(number, np.concatenate([px, px + 1, px, px + 1]), np.concatenate([py, py, other, other]), style)
            continue
        paths = []
        edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(np.int8), [0]])))
        for start, stop in zip(edges[::2], edges[1::2]):  # each finite run is its own line
            paths.append(cv.path(x[start:stop], y[start:stop]))
        if not paths:
            continue
        px, py, fx, fy = (np.concatenate([p[k] for p in paths]) for k in range(4))
        if s.marker != "braille":
            cv.chars(number, py >> 2, px >> 1, s.marker, style)
            continue
        k = np.arange(px.size)
        keep = k % 2 == 0 if dash == "dotted" else (k // 4) % 2 == 0 if dash == "dashed" else slice(None)
        cv.dots(number, px[keep], py[keep], style, fx[keep], fy[keep])

    if spec.legend == "inside":
        r = 0
        for s, dash in zip(spec.series, dashes(spec)):
            if s.label and r < ch:
                sample = swatch(s, dash)
                cv.text(r, 0, " " * (cell_len(s.label) + cell_len(sample) + 3), None)  # a clear box, so data does not run into it
                cv.text(r, 1, sample, _style(s.color))
                cv.text(r, 2 + cell_len(sample), s.label, None)
                r += 1
    taken, placed = set(), []  # cells holding a line's label: a mark moves a row inwards rather than cover one
    for r, c, words, style, align, ends in labels:
        if ends:  # a line's label goes to the row's other end where that covers fewer of the series' cells:
            # "W_h 0.90" hid gradients/factors' last hops (a student's trial)
            there = (0, "left") if align == "right" else (cw - 1, "right")
            begins = (cv.start(c, words, align), cv.start(there[0], words, there[1]))
            spans = [range(b, b + cell_len(words)) for b in begins]
            if not any((r, k) in taken for k in spans[1]) and cv.covered(r, spans[1]) < cv.covered(r, spans[0]):
                c, align = there
            begin = cv.start(c, words, align)
            if ends == "aside" and cv.covered(r, range(begin, begin + cell_len(words))):
                other = (0, "left") if align == "right" else (cw - 1, "right")  # (the end it did not take: after a
                # switch, `there` was the same end twice, and a free row at the other was never tried, a review)
                r, c, align, words = _beside_line(cv, r, (c, align), other, words, taken)
        else:  # a vertical line's: on the highest row where it covers no series (serving/window's "cut"
            # wrote over the curve on the top row, a trial), else where it covers fewest
            begin = cv.start(c, words, align)
            span = range(begin, begin + cell_len(words))
            r = min(range(ch), key=lambda row: (cv.covered(row, span), any((row, k) in taken for k in span), row))
        start = cv.text(r, c, words, style, align)
        taken |= {(r, k) for k in range(start, start + cell_len(words))}
        placed.append((r, start, words, style))
    bad = {}  # row → [(column, word)], so marks side by side do not write over each other
    for s in spec.series:
        for x, word in non_finite_marks(s, spec.log_y):
            px = _at(x, spec.log_x)
            c = cv.col(px) if math.isfinite(px) else None
            if c is not None:
                up = word not in ("0", "<0", "-inf")
                bad.setdefault(0 if up else ch - 1, []).append((c, ("▲" if up else "▼") + word))
    marked = set()  # cells of those marks: not even the cursor's points cover them
    for edge, found in bad.items():
        free = 0
        for c, words in sorted(set(found)):
            start = min(max(c, free), max(cw - cell_len(words), 0))  # its arrow on the column, the word after
            # it (centred, serving/window's ▼0 stood a column left of its t, a trial); at the right edge, pushed in
            inwards = [edge + k if edge == 0 else edge - k for k in range(min(3, ch))]
            cells = range(start, start + cell_len(words))  # a row inwards from a label, or from a mark pushed in
            # over the one before it (two at the right edge wrote "▲▲NaN", a review)
            r = next((r for r in inwards if not any((r, k) in taken or (r, k) in marked for k in cells)), edge)
            cv.text(r, start, words, _style(RED))
            marked |= {(r, k) for k in range(start, start + cell_len(words))}
            free = start + cell_len(words) + 1
    for x, y, words in spec.marks:
        px, py = _at(x, spec.log_x), _at(y, spec.log_y)
        if math.isfinite(px) and math.isfinite(py) and cv.col(px) is not None:
            align, r = "center" if cell_len(words) == 1 else _align(px, xlim), cv.row(py)
            c = cv.col(px)
            if r is not None and cell_len(words) > 1:  # a curve's name moves off the curves, not over them
                c, align = cv.clear_of_lines(c, words, align)
                r = cv.clear_row(r, c, words, align)
            start = cv.text(r, c, words, None, align)
            if start is not None and cell_len(words) > 1:  # it steps aside from a cursor's point, as a line's
                placed.append((r, start, words, None))  # label does (memory/copy at its last step: "accurac●")

    # a tick on the row of a labelled line at another value goes: "1e50┤float32 max 3.40e+38" read as
    # float32's max at 1e50 (5 rows of 20 decades, a student's trial); the line's label says its value
    named = [(cv.row(at), cv.dy(at)) for line in spec.lines if line.label and not line.vertical
             and math.isfinite(at := _at(line.at, spec.log_y)) and cv.row(at) is not None]
    yticks = tuple((r, label, value) for r, label, value in yticks
                   if not any(r == row and abs(dot - cv.dy(value)) > 1.5 for row, dot in named))
    return legend, yw, cw, ch, xlim, yticks, xt, xl, cv, drawn, hline_rows, vline_cols, marked, placed


def _marks_every_point(s: Series, spec: PlotSpec) -> bool:
    """Is s a mark on every point of one of the plot's lines (not landmarks on it)?"""
    return s.marker != "braille" and any(o.marker == "braille" and not o.scatter and tuple(o.x) == tuple(s.x)
                                         and tuple(o.y) == tuple(s.y)
                                         for o in spec.series)


def top_key_fits(spec: PlotSpec, width: int) -> bool:
    """Does the whole legend fit in the frame's top edge of a plot `width` cells wide (or is there none)?"""
    return sum(cell_len(words) for words, _style in legend_runs(spec)) <= max(width - TOP_KEY_MARGIN, 0)


def _keys_whole(spec: PlotSpec, width: int) -> PlotSpec:
    """A keyed line's label back on its line where a legend in the frame's top edge would cut it ("── ch"
    at 60 columns; none at 44, a review)."""
    if spec.legend != "top" or not any(line.keyed for line in spec.lines) or top_key_fits(spec, width):
        return spec
    return replace(spec, lines=tuple(replace(line, keyed=False) for line in spec.lines))


def plot_rows(spec: PlotSpec, width: int, height: int) -> list[list[tuple[str, Style | None]]]:
    """The whole plot (frame, ticks, labels, legend) as at most `height` rows of (text, style) runs,
    each at most `width` cells."""
    if height < spec.labels_from and (spec.title or spec.xlabel):
        spec = replace(spec, title="", xlabel="")
    spec = _keys_whole(spec, width)
    bare = replace(spec, cursor=None)  # a key that only moves the cursor reuses everything else
    try:
        hash(bare)
    except TypeError:  # numpy arrays in a series: drawn afresh
        scene = _scene(bare, width, height)
    else:
        scene = _cached_scene(bare, width, height)
    if scene is None:  # its x label left out, then its legend moved to the top edge, before giving up (a
        # note over five blank rows hid attention/scaling's readouts at 60x20, a trial)
        smaller = (replace(spec, xlabel="") if spec.xlabel else
                   replace(spec, legend="top") if spec.legend == "below" and legend_runs(spec)
                   and top_key_fits(spec, width) else None)
        return plot_rows(smaller, width, height) if smaller is not None else too_small(width)
    (legend, yw, cw, ch, xlim, yticks, xt, xl, cv, drawn, hline_rows, vline_cols, marked, placed) = scene
    cursor_col, points = None, {}
    if spec.cursor is not None:
        cx = _at(spec.cursor, spec.log_x)
        cursor_col = cv.col(cx) if math.isfinite(cx) else None
    if cursor_col is not None:  # the cursor's points go over everything but the marks
        for s, x, y, ok in drawn:
            hit = np.flatnonzero(np.asarray(s.x[: len(x)], dtype=float) == spec.cursor)
            r = cv.row(float(y[hit[0]])) if hit.size and ok[hit[0]] else None
            if r is not None and (r, cursor_col) not in marked and not (r in points and _marks_every_point(s, spec)):
                # (a line's ● stays under marks drawn on its every point: gradients/factors' • hid it; a
                # landmark's own mark, lstm/bias's ◆, is still drawn over it)
                points[r] = ("●" if s.marker == "braille" else s.marker, _style(s.color))
    # a line's label under one of the cursor's points steps aside ("chance 10%" at the right edge, the
    # cursor at the last step) where it fits whole beside the point, clear of the marks
    moved = []
    for r, start, words, style in placed:
        n = cell_len(words)
        if r in points and start <= cursor_col < start + n:
            spot = cursor_col - n - 1 if cursor_col - n - 1 >= 0 else cursor_col + 2
            if spot + n <= cw and not any((r, k) in marked for k in range(spot, spot + n)):
                moved.append((r, start, words, style, spot))
    runs, shows, narrow = cv.runs()
    line = _style(None, dim=True)  # the cursor's line
    # at the first or last column only its points: its line beside the frame's edge doubled it ("││", "┬┐"),
    # at the last step of many a slide (a lecturer's trial)
    ruled = cursor_col is not None and 0 < cursor_col < cw - 1
    if cursor_col is None:
        canvas = runs
    elif all(cell_len(char) == 1 for char, _ in points.values()) and narrow.all() and not moved:
        # the cursor spliced into the scene's rows, which are shared (no wide character anywhere, so a
        # point written over a label or mark just replaces its cell, as `put` would)
        canvas = [_splice(row, cursor_col, points[r]) if r in points else
                  _splice(row, cursor_col, ("┼" if r in hline_rows else "│", line)) if ruled and shows[r, cursor_col] else row
                  for r, row in enumerate(runs)]
    else:  # a wide character or a label in the way: the cursor drawn into a copy of the canvas
        cv = cv.copy()
        for r, start, words, style, spot in moved:  # its cells that still hold it cleared (not a mark over it)
            cells = [c for ch in words for c in ((ch, WIDE) if cell_len(ch) == 2 else (ch,))]
            for k, char in enumerate(cells, start):
                if (r, k) in cv.over and cv.over[r, k][0] == char:
                    del cv.over[r, k]
            cv.text(r, spot, words, style)
        if ruled:
            cv.chars(_SERIES - 1, slice(None), cursor_col, "│", line)
            for r in hline_rows:
                cv.chars(_SERIES - 1, r, cursor_col, "┼", line)
        for r, (char, style) in points.items():
            cv.put(r, cursor_col, char, style)
        code, which, styles = cv.resolve()
        canvas = _grid_runs(code, which, styles)

    # frame, ticks and labels around the canvas
    ytick = {r: label for r, label, _value in yticks}
    rows: list[list[tuple[str, Style | None]]] = []
    if spec.title:
        rows.append([(fit(spec.title, width, "center"), Style(bold=True))])
    top = ["─"] * cw
    for c in vline_cols | ({cursor_col} if ruled else set()):
        top[c] = "┬"
    key = legend_runs(spec, cw - 4) if spec.legend == "top" else []
    if key:  # the legend written into the top edge, a space either side: no row of its own
        n = sum(cell_len(words) for words, _style in key)
        start = 2  # at the left, unless that hides a ┬ (the cursor's, a vertical line's) and the right does not
        if "┬" in top[1:n + 3] and "┬" not in top[cw - n - 3:cw - 1]:
            start = cw - n - 2
        rows.append([(" " * yw + "┌" + "".join(top[:start - 1]) + " ", None), *key,
                     (" " + "".join(top[start + n + 1:]) + "┐", None)])
    else:
        rows.append([(" " * yw + "┌" + "".join(top) + "┐", None)])
    for r in range(ch):
        left = f"{ytick.get(r, ''):>{yw}}" + ("┤" if r in ytick else "├" if r in hline_rows else "│")
        rows.append([(left, None), *canvas[r], ("┤" if r in hline_rows else "│", None)])
    bottom = ["─"] * cw
    for t in xt:
        c = cv.col(t)
        if c is not None:
            bottom[c] = "┬"
    for c in vline_cols | ({cursor_col} if ruled else set()):
        bottom[c] = "┼" if bottom[c] == "┬" else "┴"
    rows.append([(" " * yw + "└" + "".join(bottom) + "┘", None)])
    columns = ((cv.col(t), label) for t, label in zip(xt, xl))
    rows.append([(label_row(((yw + 1 + c - (len(label) - 1) // 2, label) for c, label in columns if c is not None),
                            width), None)])
    if spec.xlabel:
        rows.append([((" " * (yw + 1) + fit(spec.xlabel, cw, "center")).rstrip(), None)])
    rows += legend
    return rows


def render_plot(spec: PlotSpec, width: int, height: int) -> Text:
    """The whole plot (frame, ticks, labels, legend) as lines of at most `width` cells."""
    return runs_text(plot_rows(spec, width, height), no_wrap=True, overflow="crop")


def _grid_runs(code: np.ndarray, which: np.ndarray, styles: list) -> list[list[tuple[str, Style | None]]]:
    """Each row of the canvas as runs of neighbouring cells with the same style."""
    ch, cw = code.shape
    text = code.astype("<u4").tobytes().decode("utf-32-le")
    rows, cols = np.nonzero(np.diff(which, axis=1))
    cuts: list[list[int]] = [[0] for _ in range(ch)]
    for r, c in zip(rows.tolist(), (cols + 1).tolist()):
        cuts[r].append(c)
    out = []
    for r in range(ch):
        row, starts, kinds = text[r * cw:(r + 1) * cw], cuts[r] + [cw], which[r].tolist()
        out.append([(row[a:b].replace("\0", ""), styles[kinds[a]]) for a, b in zip(starts, starts[1:])])
    return out


class Plot(Lines):
    """A plot drawn from a PlotSpec; `show(spec)` replaces what it draws.

    Every render draws the figure afresh at the widget's current size, so resizing is always safe.
    Rows go to the screen as strips of segments (the line API of `Lines`), no detour through markup.
    """

    DEFAULT_CSS = "Plot { width: 1fr; height: 1fr; min-height: 6; }"

    def __init__(self, spec: PlotSpec | None = None, least: int = 0, tall: int = 0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.whole = spec or PlotSpec()  # what `show` was given
        self.least = least  # fewer rows than this: a line saying a taller terminal shows it (an extra plot)
        self.tall = tall  # fewer rows than this: no title, x label or marks, the legend in the top edge
        self._short: tuple = (None, None)  # (whole, whole without its tall-only parts)
        self.more: int | None = None  # the rows a taller terminal needs, where its view's other parts give up
        # rows for the plot (lstm/params' bars); None: `fewest()` less the rows it has

    @property
    def spec(self) -> PlotSpec:
        """What it draws at its height: `whole`, less its tall-only parts below `tall` rows. Decided here, as
        it is drawn: a view that chose them from the plot's height before its layout drew them on 8 rows
        after a state whose plot had 9, and its check once laid out was sometimes too early for an export
        (memory/copy in the lecture deck came out two ways, 3 exports in 10)."""
        whole = self.whole
        if not self.tall or (self.size.height or 0) >= self.tall:
            return whole
        if self._short[0] is not whole:  # (made once per spec: a render asks several times)
            self._short = (whole, replace(whole, title="", xlabel="", marks=(),
                                          legend="top" if whole.legend == "below" else whole.legend))
        return self._short[1]

    def show(self, spec: PlotSpec) -> None:
        if same(spec, self.whole):
            return
        self.whole = spec
        self.changed()

    def lacks(self, more: int | None) -> None:
        """Set `more`, the rows its view's other parts keep from it; redrawn only where that changed."""
        if more != self.more:
            self.more = more
            self.changed()

    def fewest(self, width: int | None = None) -> int:
        """The rows it is drawn in at this width (default: its own): `least`, or one fewer with the legend
        in the frame's top edge where it fits there whole (recurrence/track at 90x28 wrote "a terminal 1
        row taller" over 7 blank rows, a trial; cut there, serving/wayback lost "orthonormal keys", a review)."""
        if not self.least or self.spec.legend != "below":
            return self.least
        fits = top_key_fits(self.spec, self.size.width if width is None else width)  # (no key: no row either)
        return self.least - 1 if fits else self.least

    def smallest(self, width: int | None = None) -> int:
        """The fewest rows it is drawn in at all, below `fewest()`: without its x label and with a row of
        curves fewer (serving/cell said "a terminal 2 rows taller shows a plot here" over 5 blank rows, a
        trial). Views that share rows with the plot give it `fewest()`; this is only what it does with less."""
        least, spec = self.fewest(width), self.spec
        if not least:
            return least
        below = len(legend_lines(spec, self.size.width if width is None else width)) if (
            spec.legend == "below" and least == self.least) else 0  # (fewer: the legend is in the top edge)
        curves = least - 3 - bool(spec.xlabel) - below - bool(spec.title)  # frame, ticks, x label, legend, title
        return least - bool(spec.xlabel) - (curves >= 4)  # (3 rows of curves at least)

    def _drawn(self, width: int, height: int) -> PlotSpec | None:
        if height >= self.least:
            return self.spec
        fewest = self.fewest(width)
        top = replace(self.spec, legend="top") if fewest < self.least else self.spec
        if height >= fewest:
            return top
        return replace(top, xlabel="") if height >= self.smallest(width) else None

    def render(self) -> Text:
        width, height = self.size
        spec = self._drawn(width, height)
        if spec:
            return render_plot(spec, width, height)
        bare = self._axisless(width, height)
        return runs_text(bare, no_wrap=True, overflow="crop") if bare else Text(self.short(height), style="dim italic")

    def lines(self, width: int, height: int) -> list:
        spec = self._drawn(width, height)
        if spec:
            return plot_rows(spec, width, height)
        # (it left blank rows and no word of a plot, a trial)
        return self._axisless(width, height) or ([[(cut(self.short(height), width, MORE), "dim italic")]]
                                             if height and width else [])

    def drawn_from(self, width: int | None = None) -> int:
        """The fewest rows it is drawn in at all: BARE for an extra plot (without its x axis; a row more for
        its legend where that does not fit in its top edge), else smallest()."""
        if not (self.least and self.spec is not None and self.spec.series):
            return self.smallest(width)
        width = self.size.width if width is None else width
        return min(self.smallest(width), BARE + (0 if top_key_fits(self.spec, width) else
                                                  len(legend_lines(self.spec, width - 1))))

    def _axisless(self, width: int, height: int) -> list | None:
        """With fewer rows than `smallest()` but BARE at least: its top edge (the legend there, if it fits) and
        its curves against the y axis, no x axis below. "a terminal 2 rows taller shows a plot here" over blank
        rows read as a plot that failed (80x24: recurrence/track in Chinese, memory/copy after a run, trials)."""
        if not self.least or height < BARE or self.spec is None or not self.spec.series:
            return None
        key = legend_runs(self.spec)
        if not key or top_key_fits(self.spec, width):
            return _without_x_ticks(replace(self.spec, xlabel="", title="", legend="top" if key else "none"), width,
                                    height)
        below = legend_lines(self.spec, width - 1)  # (unnamed curves read as nothing: lstm/cell's c and h)
        if height < BARE + len(below):
            return None
        rows = _without_x_ticks(replace(self.spec, xlabel="", title="", legend="none"), width, height - len(below))
        return rows and rows + [[(" ", None), *line] for line in below]

    def short(self, height: int) -> str:
        """What a plot without its rows says, with the rows it lacks: blank rows under "a taller terminal"
        read as a plot that failed (a trial). In an export the remedy is --size (a review). On a slide nothing:
        the line was for the lecturer, not the room."""
        if any(node.has_class("-present") for node in self.ancestors):
            return ""  # a slide names no remedy: the room cannot size the lecturer's terminal (a lecturer's trial)
        more = max(self.drawn_from() - height, 1) if self.more is None else self.more
        try:
            app = self.app
            offscreen = getattr(app, "offscreen", False)  # (render.Session's: shot, export)
        except Exception:  # noqa: BLE001 - not in an app (drawn alone)
            offscreen = False
        more += self._prose_back(more)
        if offscreen:
            return _("--size {w}x{h} shows a plot here").format(w=app.size.width, h=app.size.height + more)
        return ngettext("a terminal {n} row taller shows a plot here",
                        "a terminal {n} rows taller shows a plot here", more).format(n=more)

    def _prose_back(self, more: int) -> int:
        """The rows the figure's prose takes back where `more` rows bring a short terminal to 24 (it is
        hidden below that: TopicScreen's -short)."""
        try:
            screen, height = self.screen, self.app.size.height
            if not screen.has_class("-short") or height + more < 24:
                return 0
            prose = screen.query_one("#prose")
            return len(prose.divide(prose.parent.content_size.width))
        except Exception:  # noqa: BLE001 - drawn alone, or on a screen without prose
            return 0


def _without_x_ticks(spec: PlotSpec, width: int, height: int) -> list | None:
    """`height` rows of the plot without its x ticks' numbers: closed by its bottom edge from BARE + 1 rows
    (open, a slide's plot read as cropped: a lecturer's trial), at BARE without it, a row more of curves."""
    cut_off = 2 if height == BARE else 1
    rows = plot_rows(spec, width, height + cut_off)
    return rows[:height] if len(rows) == height + cut_off else None


def extra_plot(least: int = EXTRA_ROWS, spec: PlotSpec | None = None) -> Plot:
    """A figure's extra plot, below its other parts: it takes the rows they leave (`.extra` has no
    min-height), a plot from `least` rows, fewer a line saying how many more show one."""
    return Plot(spec, least=least, classes="extra")
