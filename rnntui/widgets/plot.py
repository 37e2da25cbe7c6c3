"""One plot widget for every topic: lines, reference lines, a cursor, optionally a log10 y axis.

plotext's own log scale re-applies log10 on every build (and so breaks on resize) and raises on
0 and inf. Here a log axis is drawn as log10(y) on a linear axis with our own tick labels, and the
whole figure is rebuilt from the spec on every render, so any number of resizes is safe. Points
that are 0, inf or NaN are not plotted; they are marked with a label instead.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from textual_plotext import PlotextPlot

RGB = tuple[int, int, int]
BLUE: RGB = (66, 135, 245)
ORANGE: RGB = (240, 140, 40)
GREEN: RGB = (60, 180, 90)
RED: RGB = (225, 60, 60)
PURPLE: RGB = (170, 100, 230)
GREY: RGB = (130, 130, 130)
PALETTE = (BLUE, ORANGE, GREEN, PURPLE, RED)


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
    """A horizontal (y) or vertical (x) reference line with a label."""

    at: float
    label: str = ""
    color: RGB = GREY
    vertical: bool = False


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


def decade_label(power: float) -> str:
    p = int(round(power))
    return "1" if p == 0 else f"1e{p}"


def log_ticks(lo: float, hi: float, most: int = 6) -> tuple[list[float], list[str]]:
    """Decade ticks between log10 bounds lo..hi, at most `most` of them, labelled like 1e-10."""
    first, last = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
    span = max(last - first, 0)
    step = max(1, math.ceil(span / max(most - 1, 1)))
    powers = list(range(first, last + 1, step)) or [first]
    return [float(p) for p in powers], [decade_label(p) for p in powers]


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
    """Where a series first becomes 0 (on a log axis), inf or NaN: (x, word)."""
    y = np.asarray(s.y, dtype=float)
    found = []
    for word, bad in (("NaN", np.isnan(y)), ("inf", np.isinf(y)), ("0", (y == 0) if log else np.zeros_like(y, bool))):
        if bad.any():
            found.append((float(s.x[int(np.argmax(bad))]), word))
    return found


def draw(plt, spec: PlotSpec) -> None:
    """Apply a spec to a fresh plotext figure (`plt` is plotext or textual-plotext's Plot)."""
    plt.clear_figure()
    plt.frame(True)
    xs_all, ys_all = [], []
    for s in spec.series:
        x, y = _axis(s.x, spec.log_x), _axis(s.y, spec.log_y)
        ok = np.isfinite(x) & np.isfinite(y)
        labelled = False
        for a, b in _runs(ok):
            kwargs = dict(color=s.color, marker=s.marker)
            if s.label and not labelled:
                kwargs["label"] = s.label
                labelled = True
            (plt.scatter if s.scatter else plt.plot)(x[a:b].tolist(), y[a:b].tolist(), **kwargs)
        xs_all += x[ok].tolist()
        ys_all += y[ok].tolist()

    xlim = _limits(spec.xlim, xs_all, spec.log_x)
    ylim = _limits(spec.ylim, ys_all, spec.log_y)
    for line in spec.lines:
        at = float(_axis([line.at], spec.log_x if line.vertical else spec.log_y)[0])
        if not math.isfinite(at):
            continue
        if line.vertical:
            plt.vline(at, line.color)
            if line.label:
                plt.text(line.label, at, ylim[1], color=line.color)
        else:
            plt.hline(at, line.color)
            if line.label and ylim[0] <= at <= ylim[1]:
                plt.text(line.label, xlim[0], at, color=line.color, alignment="left")
    if spec.cursor is not None:
        cx = float(_axis([spec.cursor], spec.log_x)[0])
        plt.vline(cx, (200, 200, 200))
        for s in spec.series:
            hit = [i for i, v in enumerate(s.x) if v == spec.cursor]
            if hit:
                cy = float(_axis([s.y[hit[0]]], spec.log_y)[0])
                if math.isfinite(cy):
                    plt.scatter([cx], [cy], color=s.color, marker="●")
    for s in spec.series:
        for x, word in non_finite_marks(s, spec.log_y):
            px = float(_axis([x], spec.log_x)[0])
            plt.text(f"▲{word}" if word != "0" else "▼0", px, ylim[1] if word != "0" else ylim[0], color=RED)
    for x, y, text in spec.marks:
        px, py = float(_axis([x], spec.log_x)[0]), float(_axis([y], spec.log_y)[0])
        if math.isfinite(px) and math.isfinite(py):
            plt.text(text, px, py)

    plt.xlim(*xlim)
    plt.ylim(*ylim)
    if spec.log_y:
        plt.yticks(*log_ticks(*ylim))
    if spec.log_x:
        plt.xticks(*log_ticks(*xlim))
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


class Plot(PlotextPlot):
    """A plot drawn from a PlotSpec; `show(spec)` replaces what it draws."""

    DEFAULT_CSS = "Plot { height: 1fr; min-height: 6; }"

    def __init__(self, spec: PlotSpec | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spec = spec or PlotSpec()

    def show(self, spec: PlotSpec) -> None:
        self.spec = spec
        self.refresh()

    def render(self):
        draw(self.plt, self.spec)
        return super().render()
