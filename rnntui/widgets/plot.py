"""One plot widget for every topic: lines, labelled reference lines, a cursor, optionally log axes.

plotext's own log scale re-applies log10 on every build (and so breaks on resize) and raises on
0 and inf. Here a log axis is drawn as log10(y) on a linear axis with our own decade tick labels
(`1e-10`), and the whole figure is rebuilt from the spec on every render, so any number of
resizes is safe. Points that are 0 (on a log axis), inf or NaN are not plotted; the place where a
series first becomes one of them is marked (`▲inf`, `▲NaN`, `▼0`) instead.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from rich.text import Text
from textual_plotext import PlotextPlot

RGB = tuple[int, int, int]
BLUE: RGB = (66, 135, 245)
ORANGE: RGB = (240, 140, 40)
GREEN: RGB = (60, 180, 90)
RED: RGB = (225, 60, 60)
PURPLE: RGB = (170, 100, 230)
GREY: RGB = (130, 130, 130)
CURSOR: RGB = (200, 200, 200)
PALETTE = (BLUE, ORANGE, GREEN, PURPLE, RED)

DASH_H, DASH_V = "╌", "╎"
MIN_SIZE = (16, 5)  # below this (columns, rows) the plot is replaced by a one-line note


@dataclass(frozen=True)
class Series:
    x: tuple[float, ...]
    y: tuple[float, ...]
    label: str = ""
    color: RGB = BLUE
    marker: str = "braille"
    scatter: bool = False


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
    legend: str = "inside"  # "inside" (plotext's box), "below" (one line under the plot) or "none"
    nice_ticks: bool = False  # linear axes get round 1-2-5 ticks with short labels


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
    return ticks, [f"{t:.10g}" for t in ticks]


def _axis(values, log: bool) -> np.ndarray:
    """Values as drawn: log10 for a log axis; non-finite or non-positive become NaN."""
    v = np.asarray(values, dtype=float)
    if not log:
        return np.where(np.isfinite(v), v, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.isfinite(v) & (v > 0), np.log10(np.where(v > 0, v, 1.0)), np.nan)


def _runs(mask: np.ndarray):
    """(start, stop) of each run of True in mask."""
    start = None
    for i, ok in enumerate(mask):
        if ok and start is None:
            start = i
        elif not ok and start is not None:
            yield start, i
            start = None
    if start is not None:
        yield start, len(mask)


def non_finite_marks(s: Series, log: bool) -> list[tuple[float, str]]:
    """Where a series first becomes NaN, ±inf or (on a log axis) 0 or negative: (x, word)."""
    y = np.asarray(s.y, dtype=float)
    n = min(len(y), len(s.x))
    y = y[:n]
    found = []
    checks = [("NaN", np.isnan(y)), ("inf", np.isposinf(y)), ("-inf", np.isneginf(y))]
    if log:
        checks += [("0", y == 0), ("<0", np.isfinite(y) & (y < 0))]
    for word, bad in checks:
        if bad.any():
            found.append((float(s.x[int(np.argmax(bad))]), word))
    return found


def _align(x: float, xlim: tuple[float, float]) -> str:
    """Text near an edge grows inwards so it is not cut off."""
    span = xlim[1] - xlim[0]
    if x >= xlim[1] - 0.15 * span:
        return "right"
    if x <= xlim[0] + 0.15 * span:
        return "left"
    return "center"


def draw(plt, spec: PlotSpec, size: tuple[int, int] | None = None, theme: str | None = None) -> None:
    """Apply a spec to a fresh plotext figure (`plt` is plotext or textual-plotext's Plot).

    With `size` and `theme` given they are set first, so text backgrounds match the canvas and
    the number of ticks fits the width.
    """
    plt.clear_figure()
    if size is not None:
        plt.plotsize(*size)
    if theme is not None:
        plt.theme(theme)
    plt.frame(True)
    width = size[0] if size else 80

    xs_all, ys_all, drawn = [], [], []
    for s in spec.series:
        x, y = _axis(s.x, spec.log_x), _axis(s.y, spec.log_y)
        n = min(len(x), len(y))
        x, y = x[:n], y[:n]
        ok = np.isfinite(x) & np.isfinite(y)
        drawn.append((s, x, y, ok))
        xs_all += x[ok].tolist()
        ys_all += y[ok].tolist()
    xlim = _limits(spec.xlim, xs_all, spec.log_x)
    ylim = _limits(spec.ylim, ys_all, spec.log_y)

    # reference lines first, so the data is drawn over them; their labels last, over everything
    labels = []
    for line in spec.lines:
        at = float(_axis([line.at], spec.log_x if line.vertical else spec.log_y)[0])
        lim = xlim if line.vertical else ylim
        if not (math.isfinite(at) and lim[0] <= at <= lim[1]):
            continue
        if line.vertical:
            if line.dashed:
                ys = np.linspace(ylim[0], ylim[1], 200).tolist()
                plt.scatter([at] * len(ys), ys, marker=DASH_V, color=line.color)
            else:
                plt.vline(at, line.color)
            if line.label:
                labels.append((line.label, at, ylim[1], line.color, _align(at, xlim)))
        else:
            if line.dashed:
                xs = np.linspace(xlim[0], xlim[1], 2 * max(width, 100)).tolist()
                plt.scatter(xs, [at] * len(xs), marker=DASH_H, color=line.color)
            else:
                plt.hline(at, line.color)
            if line.label:
                right = line.align == "right"
                labels.append((line.label, xlim[1] if right else xlim[0], at, line.color, "right" if right else "left"))

    if spec.cursor is not None:
        cx = float(_axis([spec.cursor], spec.log_x)[0])
        if math.isfinite(cx) and xlim[0] <= cx <= xlim[1]:
            plt.vline(cx, CURSOR)

    for s, x, y, ok in drawn:
        labelled = spec.legend != "inside"
        for a, b in _runs(ok):
            kwargs = dict(color=s.color, marker=s.marker)
            if s.label and not labelled:
                kwargs["label"] = s.label
                labelled = True
            (plt.scatter if s.scatter else plt.plot)(x[a:b].tolist(), y[a:b].tolist(), **kwargs)

    if spec.cursor is not None:
        cx = float(_axis([spec.cursor], spec.log_x)[0])
        for s in spec.series:
            hit = [i for i, v in enumerate(s.x[: len(s.y)]) if v == spec.cursor]
            if hit and math.isfinite(cx):
                cy = float(_axis([s.y[hit[0]]], spec.log_y)[0])
                if math.isfinite(cy):
                    plt.scatter([cx], [cy], color=s.color, marker="●")

    for label, x, y, color, align in labels:
        plt.text(label, x, y, color=color, alignment=align)
    for s in spec.series:
        for x, word in non_finite_marks(s, spec.log_y):
            px = float(_axis([x], spec.log_x)[0])
            if not math.isfinite(px):
                continue
            up = word not in ("0", "<0", "-inf")
            plt.text(("▲" if up else "▼") + word, px, ylim[1] if up else ylim[0], color=RED, alignment=_align(px, xlim))
    for x, y, text in spec.marks:
        px, py = float(_axis([x], spec.log_x)[0]), float(_axis([y], spec.log_y)[0])
        if math.isfinite(px) and math.isfinite(py):
            plt.text(text, px, py, alignment=_align(px, xlim) if len(text) > 1 else None)

    plt.xlim(*xlim)
    plt.ylim(*ylim)
    rows = size[1] if size else 20
    if spec.log_y:
        plt.yticks(*log_ticks(*ylim, most=max(2, min(6, rows // 2))))
    elif spec.nice_ticks:
        plt.yticks(*nice_ticks(*ylim, most=max(2, min(6, rows // 2))))
    if spec.log_x:
        plt.xticks(*log_ticks(*xlim, most=max(2, min(8, width // 10))))
    elif spec.nice_ticks:
        plt.xticks(*nice_ticks(*xlim, most=max(2, min(8, width // 10))))
    if spec.xlabel:
        plt.xlabel(spec.xlabel)
    if spec.title:
        plt.title(spec.title)


def _limits(given, drawn, log: bool) -> tuple[float, float]:
    if given is not None:
        lo, hi = (float(v) for v in _axis(given, log))
        if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
            return lo, hi
    if not drawn:
        return 0.0, 1.0
    lo, hi = min(drawn), max(drawn)
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    return lo, hi


def legend_text(spec: PlotSpec) -> Text:
    """One line naming the series (and the labelled reference lines' colours are on the plot)."""
    out = Text()
    for s in spec.series:
        if s.label:
            if out:
                out.append("  ")
            out.append("●" if s.scatter else "━━", style=f"rgb({s.color[0]},{s.color[1]},{s.color[2]})")
            out.append(f" {s.label}")
    return out


class Plot(PlotextPlot):
    """A plot drawn from a PlotSpec; `show(spec)` replaces what it draws.

    Every render rebuilds the figure at the widget's current size, so resizing is always safe.
    """

    DEFAULT_CSS = "Plot { height: 1fr; min-height: 6; }"

    def __init__(self, spec: PlotSpec | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spec = spec or PlotSpec()

    def show(self, spec: PlotSpec) -> None:
        self.spec = spec
        self.refresh()

    def render(self):
        width, height = self.size.width, self.size.height
        legend = legend_text(self.spec) if self.spec.legend == "below" else Text()
        plot_height = height - 1 if legend else height
        if width < MIN_SIZE[0] or plot_height < MIN_SIZE[1]:
            return Text("(too small to plot)", style="dim")
        plt = self.plt
        draw(plt, self.spec, size=(width, plot_height), theme=self._get_plotext_theme_name(self.app.theme))
        plt._set_size(width, plot_height)  # see textual-plotext's own render
        out = Text.from_ansi(plt.build().rstrip("\n"))
        if legend:
            out.append("\n")
            legend.truncate(width)
            out.append_text(legend)
        return out
