"""One plot widget for every topic: lines, labelled reference lines, a cursor, optionally log axes.

The plot is drawn by this module on a character grid: series as braille dots (2×4 per cell),
reference lines, the cursor and the frame as box-drawing characters, labels as text. A log axis
is log10(value) on a linear axis with decade tick labels (`1e-10`). Everything is rebuilt from
the spec at the widget's current size on every render, so any number of resizes is safe, and
points that are 0 (on a log axis), inf or NaN are not plotted: the place where a series first
becomes one of them is marked (`▲inf`, `▲NaN`, `▼0`) instead. Drawing a figure takes about a
millisecond, so a key press re-renders well inside a frame.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from rnntui.widgets.tints import BLUE, GREEN, GREY, ORANGE, PURPLE, RED, RGB, SERIES as PALETTE  # noqa: F401

DASH_H, DASH_V = "╌", "╎"
MIN_SIZE = (16, 5)  # below this (columns, rows) the plot is replaced by a one-line note
TOO_SMALL = "(too small to plot)"
BRAILLE = 0x2800
DOT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # DOT[row in cell][column in cell]


@dataclass(frozen=True)
class Series:
    x: tuple[float, ...]
    y: tuple[float, ...]
    label: str = ""
    color: RGB = BLUE
    marker: str = "braille"  # "braille" (fine dots) or one character, e.g. "●" or "█"
    scatter: bool = False  # points only, not joined


@dataclass(frozen=True)
class Line:
    """A horizontal (y) or vertical (x) reference line with a label drawn on it."""

    at: float
    label: str = ""
    color: RGB = GREY
    vertical: bool = False
    dashed: bool = False
    align: str = "left"  # where a horizontal line's label sits: "left" or "right" end


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
    legend: str = "below"  # "inside" (top left of the canvas), "below" (a line under the plot) or "none"


# -- ticks and axes ------------------------------------------------------------------------------

def decade_label(power: float) -> str:
    p = int(round(power))
    return "1" if p == 0 else f"1e{p}"


def log_ticks(lo: float, hi: float, most: int = 6) -> tuple[list[float], list[str]]:
    """Decade ticks between log10 bounds lo..hi, at most `most` of them, labelled like 1e-10."""
    first, last = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
    span = max(last - first, 0)
    step = max(1, math.ceil(span / max(most - 1, 1)))
    start = math.ceil(first / step) * step  # multiples of the step, so 1 (1e0) is a tick when in range
    powers = list(range(start, last + 1, step)) or [first]
    return [float(p) for p in powers], [decade_label(p) for p in powers]


def nice_ticks(lo: float, hi: float, most: int = 6) -> tuple[list[float], list[str]]:
    """Round ticks (steps of 1, 2 or 5 times a power of ten) between lo and hi, at most `most`."""
    span = hi - lo
    if not (math.isfinite(span) and span > 0):
        return [lo], [f"{lo:g}"]
    most = max(most, 2)
    raw = span / (most - 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw - 1e-12)
    first = math.ceil(lo / step - 1e-9)
    ticks = [k * step for k in range(first, int(math.floor(hi / step + 1e-9)) + 1)]
    ticks = [0.0 if abs(t) < step * 1e-9 else t for t in ticks] or [lo]
    return ticks, [f"{t:.10g}" if abs(t) < 1e6 else f"{t:.0e}" for t in ticks]


def _axis(values, log: bool) -> np.ndarray:
    """Values as drawn: log10 for a log axis; non-finite or non-positive become NaN."""
    v = np.asarray(values, dtype=float)
    if not log:
        return np.where(np.isfinite(v), v, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.isfinite(v) & (v > 0), np.log10(np.where(v > 0, v, 1.0)), np.nan)


def non_finite_marks(s: Series, log: bool) -> list[tuple[float, str]]:
    """Where a series first becomes NaN, ±inf or (on a log axis) 0 or negative: (x, word)."""
    n = min(len(s.x), len(s.y))
    y = np.asarray(s.y[:n], dtype=float)
    found = []
    checks = [("NaN", np.isnan(y)), ("inf", np.isposinf(y)), ("-inf", np.isneginf(y))]
    if log:
        checks += [("0", y == 0), ("<0", np.isfinite(y) & (y < 0))]
    for word, bad in checks:
        if bad.any():
            found.append((float(s.x[int(np.argmax(bad))]), word))
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


def _clip_segment(x0, y0, x1, y1, w, h):
    """Liang–Barsky: the part of a segment inside [0, w]×[0, h], or None."""
    t0, t1, dx, dy = 0.0, 1.0, x1 - x0, y1 - y0
    for p, q in ((-dx, x0), (dx, w - x0), (-dy, y0), (dy, h - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return None
    return x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy


# -- the drawing ---------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _style(color: RGB | None, dim: bool = False) -> Style | None:
    if color is None:
        return Style(dim=True) if dim else None
    return Style(color=f"rgb({color[0]},{color[1]},{color[2]})", dim=dim)


class _Canvas:
    """cw×ch character cells; braille dots at 2×4 per cell; (0, 0) is the top-left cell."""

    def __init__(self, cw: int, ch: int, xlim, ylim) -> None:
        self.cw, self.ch, self.xlim, self.ylim = cw, ch, xlim, ylim
        self.chars = [[" "] * cw for _ in range(ch)]
        self.styles: list[list[Style | None]] = [[None] * cw for _ in range(ch)]
        self.bits = [[0] * cw for _ in range(ch)]

    # data → sub-cell (dot) coordinates, as floats; dots run 0..2cw−1 and 0..4ch−1
    def dx(self, x: float) -> float:
        x0, x1 = self.xlim
        return (x - x0) / (x1 - x0) * (2 * self.cw - 1)

    def dy(self, y: float) -> float:
        y0, y1 = self.ylim
        return (y1 - y) / (y1 - y0) * (4 * self.ch - 1)

    def col(self, x: float) -> int | None:
        c = int(round(self.dx(x))) // 2
        return c if 0 <= c < self.cw else None

    def row(self, y: float) -> int | None:
        r = int(round(self.dy(y))) // 4
        return r if 0 <= r < self.ch else None

    def put(self, r: int, c: int, char: str, style) -> None:
        if 0 <= r < self.ch and 0 <= c < self.cw:
            self.chars[r][c], self.styles[r][c], self.bits[r][c] = char, style, 0

    def dot(self, px: int, py: int, style) -> None:
        c, r = px >> 1, py >> 2
        if 0 <= r < self.ch and 0 <= c < self.cw:
            bits = self.bits[r][c] | DOT[py & 3][px & 1]
            self.bits[r][c] = bits
            self.chars[r][c], self.styles[r][c] = chr(BRAILLE + bits), style

    def text(self, r: int | None, c: int, words: str, style, align: str = "left") -> int | None:
        """Write words in row r, anchored at column c; returns the first column used."""
        if r is None:
            return None
        start = c if align == "left" else c - len(words) + 1 if align == "right" else c - len(words) // 2
        start = min(max(start, 0), max(self.cw - len(words), 0))
        for i, ch in enumerate(words):
            self.put(r, start + i, ch, style)
        return start

    def polyline(self, xs: np.ndarray, ys: np.ndarray, style, char: str | None = None) -> None:
        """Join consecutive points (dots, or cells of `char`); parts outside the canvas are cut."""
        w, h = 2 * self.cw - 1, 4 * self.ch - 1
        pts = list(zip((self.dx(float(x)) for x in xs), (self.dy(float(y)) for y in ys)))
        if len(pts) == 1:
            pts = pts * 2
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            seg = _clip_segment(x0, y0, x1, y1, w, h)
            if seg is None:
                continue
            x0, y0, x1, y1 = seg
            if char is None:
                n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
                for k in range(n + 1):
                    t = k / n
                    self.dot(int(round(x0 + t * (x1 - x0))), int(round(y0 + t * (y1 - y0))), style)
            else:
                n = int(max(abs(x1 - x0) / 2, abs(y1 - y0) / 4)) + 1
                for k in range(n + 1):
                    t = k / n
                    self.put(int(round(y0 + t * (y1 - y0))) // 4, int(round(x0 + t * (x1 - x0))) // 2, char, style)

    def points(self, xs: np.ndarray, ys: np.ndarray, style, char: str | None = None) -> None:
        for x, y in zip(xs, ys):
            px, py = int(round(self.dx(float(x)))), int(round(self.dy(float(y))))
            if 0 <= px <= 2 * self.cw - 1 and 0 <= py <= 4 * self.ch - 1:
                if char is None:
                    self.dot(px, py, style)
                else:
                    self.put(py // 4, px // 2, char, style)


def _align(x: float, xlim: tuple[float, float]) -> str:
    """Text near an edge grows inwards so it is not cut off."""
    span = xlim[1] - xlim[0]
    if x >= xlim[1] - 0.15 * span:
        return "right"
    if x <= xlim[0] + 0.15 * span:
        return "left"
    return "center"


def legend_runs(spec: PlotSpec, width: int = 10_000) -> list[tuple[str, Style | None]]:
    """One line naming the series by colour, cut at `width` cells."""
    runs, used = [], 0
    for s in spec.series:
        if not s.label:
            continue
        swatch = "━━" if s.marker == "braille" and not s.scatter else "●" if s.marker == "braille" else s.marker
        for words, style in ((("  " if runs else "") + swatch, _style(s.color)), (f" {s.label}", None)):
            words = words[: max(width - used, 0)]
            if words:
                runs.append((words, style))
                used += len(words)
    return runs


def plot_rows(spec: PlotSpec, width: int, height: int) -> list[list[tuple[str, Style | None]]]:
    """The whole plot (frame, ticks, labels, legend) as at most `height` rows of (text, style) runs,
    each at most `width` cells."""
    legend = legend_runs(spec, width) if spec.legend == "below" else []
    rows_below = 1 + (1 if spec.xlabel else 0) + (1 if legend else 0)  # tick labels, x label, legend
    ch = height - rows_below - 2 - (1 if spec.title else 0)
    if width < MIN_SIZE[0] or height < MIN_SIZE[1] or ch < 2:
        return [[(TOO_SMALL[:width], Style(dim=True))]]

    # what will be drawn, in axis units (log10 where the axis is logarithmic)
    drawn = []
    for s in spec.series:
        n = min(len(s.x), len(s.y))
        x, y = _axis(s.x[:n], spec.log_x), _axis(s.y[:n], spec.log_y)
        drawn.append((s, x, y, np.isfinite(x) & np.isfinite(y)))
    xs_ok = np.concatenate([x[ok] for _, x, _, ok in drawn]) if drawn else np.empty(0)
    ys_ok = np.concatenate([y[ok] for _, _, y, ok in drawn]) if drawn else np.empty(0)
    xlim = _limits(spec.xlim, xs_ok, spec.log_x)
    ylim = _limits(spec.ylim, ys_ok, spec.log_y)

    ticks = log_ticks if spec.log_y else nice_ticks
    yt, yl = ticks(*ylim, most=max(2, min(7, ch // 2 + 1)))
    yw = max(len(label) for label in yl)
    cw = width - yw - 2
    if cw < 4:
        return [[(TOO_SMALL[:width], Style(dim=True))]]
    xticks = log_ticks if spec.log_x else nice_ticks
    xt, xl = xticks(*xlim, most=max(2, min(9, cw // max(8, max(len(l) for l in xticks(*xlim)[1]) + 3))))
    cv = _Canvas(cw, ch, xlim, ylim)

    # reference lines under the data; their labels go on top of everything at the end
    labels, hline_rows, vline_cols = [], set(), set()
    for line in spec.lines:
        at = float(_axis([line.at], spec.log_x if line.vertical else spec.log_y)[0])
        if not math.isfinite(at):
            continue
        style = _style(line.color)
        if line.vertical:
            c = cv.col(at)
            if c is None:
                continue
            for r in range(ch):
                cv.put(r, c, DASH_V if line.dashed else "│", style)
            if not line.dashed:
                vline_cols.add(c)
            if line.label:
                labels.append((0, c, line.label, style, _align(at, xlim)))
        else:
            r = cv.row(at)
            if r is None:
                continue
            for c in range(cw):
                cv.put(r, c, DASH_H if line.dashed else "─", style)
            if not line.dashed:
                hline_rows.add(r)
            if line.label:
                labels.append((r, cw - 1 if line.align == "right" else 0, line.label, style, line.align))

    cursor_col = None
    if spec.cursor is not None:
        cx = float(_axis([spec.cursor], spec.log_x)[0])
        cursor_col = cv.col(cx) if math.isfinite(cx) else None
        if cursor_col is not None:
            for r in range(ch):
                crossing = cv.chars[r][cursor_col] in ("─", DASH_H)
                cv.put(r, cursor_col, "┼" if crossing else "│", _style(None, dim=True))

    for s, x, y, ok in drawn:
        style = _style(s.color)
        char = None if s.marker == "braille" else s.marker
        if s.scatter:
            cv.points(x[ok], y[ok], style, char)
            continue
        start = None
        for i, good in enumerate(np.append(ok, False)):  # each finite run is its own line
            if good and start is None:
                start = i
            elif not good and start is not None:
                cv.polyline(x[start:i], y[start:i], style, char)
                start = None

    if spec.legend == "inside":
        r = 0
        for s in spec.series:
            if s.label and r < ch:
                cv.text(r, 0, " " * (len(s.label) + 5), None)  # a clear box, so data does not run into it
                cv.text(r, 1, "━━", _style(s.color))
                cv.text(r, 4, s.label, None)
                r += 1
    taken = set()  # cells holding a line's label: a mark moves a row inwards rather than cover one
    for r, c, words, style, align in labels:
        start = cv.text(r, c, words, style, align)
        taken |= {(r, k) for k in range(start, start + len(words))}
    bad = {}  # row → [(column, word)], so marks side by side do not write over each other
    for s in spec.series:
        for x, word in non_finite_marks(s, spec.log_y):
            px = float(_axis([x], spec.log_x)[0])
            c = cv.col(px) if math.isfinite(px) else None
            if c is not None:
                up = word not in ("0", "<0", "-inf")
                bad.setdefault(0 if up else ch - 1, []).append((c, ("▲" if up else "▼") + word))
    marked = set()  # cells of those marks: not even the cursor's points cover them
    for edge, found in bad.items():
        free = 0
        for c, words in sorted(set(found)):
            start = min(max(c - (0 if c < cw * 0.15 else len(words) // 2 if c < cw * 0.85 else len(words) - 1), free),
                        max(cw - len(words), 0))
            inwards = [edge + k if edge == 0 else edge - k for k in range(min(3, ch))]
            r = next((r for r in inwards if not any((r, k) in taken for k in range(start, start + len(words)))), edge)
            cv.text(r, start, words, _style(RED))
            marked |= {(r, k) for k in range(start, start + len(words))}
            free = start + len(words) + 1
    for x, y, words in spec.marks:
        px, py = float(_axis([x], spec.log_x)[0]), float(_axis([y], spec.log_y)[0])
        if math.isfinite(px) and math.isfinite(py) and cv.col(px) is not None:
            cv.text(cv.row(py), cv.col(px), words, None, "center" if len(words) == 1 else _align(px, xlim))

    if cursor_col is not None:  # the cursor's points last: nothing may hide them
        for s, x, y, ok in drawn:
            hit = np.flatnonzero(np.asarray(s.x[: len(x)], dtype=float) == spec.cursor)
            r = cv.row(float(y[hit[0]])) if hit.size and ok[hit[0]] else None
            if r is not None and (r, cursor_col) not in marked:
                cv.put(r, cursor_col, "●", _style(s.color))

    # frame, ticks and labels around the canvas
    ytick = {}
    for t, label in zip(yt, yl):
        r = cv.row(t)
        if r is not None and r not in ytick:
            ytick[r] = label
    rows: list[list[tuple[str, Style | None]]] = []
    if spec.title:
        rows.append([(f"{spec.title[:width]:^{width}}", Style(bold=True))])
    top = ["─"] * cw
    for c in vline_cols | ({cursor_col} if cursor_col is not None else set()):
        top[c] = "┬"
    rows.append([(" " * yw + "┌" + "".join(top) + "┐", None)])
    for r in range(ch):
        left = f"{ytick.get(r, ''):>{yw}}" + ("┤" if r in ytick else "├" if r in hline_rows else "│")
        rows.append([(left, None), *_runs_of(cv.chars[r], cv.styles[r]), ("┤" if r in hline_rows else "│", None)])
    bottom = ["─"] * cw
    for t in xt:
        c = cv.col(t)
        if c is not None:
            bottom[c] = "┬"
    for c in vline_cols | ({cursor_col} if cursor_col is not None else set()):
        bottom[c] = "┼" if bottom[c] == "┬" else "┴"
    rows.append([(" " * yw + "└" + "".join(bottom) + "┘", None)])
    line = [" "] * width
    edge = -1
    for c, label in zip((cv.col(t) for t in xt), xl):
        if c is None:
            continue
        start = min(max(yw + 1 + c - (len(label) - 1) // 2, 0), width - len(label))
        if start > edge:
            line[start:start + len(label)] = label
            edge = start + len(label)
    rows.append([("".join(line).rstrip(), None)])
    if spec.xlabel:
        rows.append([(f"{spec.xlabel[:cw]:^{cw}}".rjust(yw + 1 + cw).rstrip(), None)])
    if legend:
        rows.append(legend)
    return rows


def render_plot(spec: PlotSpec, width: int, height: int) -> Text:
    """The whole plot (frame, ticks, labels, legend) as lines of at most `width` cells."""
    out = Text(no_wrap=True, overflow="crop")
    for i, row in enumerate(plot_rows(spec, width, height)):
        if i:
            out.append("\n")
        for words, style in row:
            out.append(words, style=style)
    return out


def _runs_of(chars: list[str], styles: list) -> list[tuple[str, Style | None]]:
    """Neighbouring cells with the same style, joined."""
    runs, start = [], 0
    for i in range(1, len(chars) + 1):
        if i == len(chars) or styles[i] is not styles[start]:
            runs.append(("".join(chars[start:i]), styles[start]))
            start = i
    return runs


class Plot(Widget):
    """A plot drawn from a PlotSpec; `show(spec)` replaces what it draws.

    Every render draws the figure afresh at the widget's current size, so resizing is always safe.
    """

    DEFAULT_CSS = "Plot { width: 1fr; height: 1fr; min-height: 6; }"

    def __init__(self, spec: PlotSpec | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spec = spec or PlotSpec()

    def show(self, spec: PlotSpec) -> None:
        self.spec = spec
        self._strips = None
        self.refresh()

    def render(self) -> Text:
        return render_plot(self.spec, self.size.width, self.size.height)

    # Line API: rows go to the screen as strips of segments, with no detour through markup
    _strips: tuple | None = None

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        base = self.rich_style
        key = (self.spec, width, height, base)
        if self._strips is None or self._strips[0] != key:
            strips = [Strip([Segment(words, base + style if style else base) for words, style in row])
                      .adjust_cell_length(width, base) for row in plot_rows(self.spec, width, height)]
            self._strips = (key, strips)
        strips = self._strips[1]
        return strips[y] if 0 <= y < len(strips) else Strip.blank(width, base)
