"""A plot's axes: round ticks, decade labels, and the y limits that put each tick's label on the row its
value is drawn at (on a log axis every 1st, 2nd, 5th, 10th … decade, as many as fit). Pure arithmetic on
text rows and braille dots (4 a row, 2 a column); `rnntui.widgets.plot` draws with them."""
from __future__ import annotations

import math
from functools import lru_cache


def decade_label(power: float) -> str:
    p = int(round(power))
    return "1" if p == 0 else f"1e{p}"


def log_ticks(lo: float, hi: float, most: int = 6) -> tuple[list[float], list[str]]:
    """Decade ticks between log10 bounds lo..hi, at most `most` of them, labelled like 1e-10, or as plain
    numbers where all lie from 0.01 to 1000 (an axis read "1e1 1e2 1e3" for 10, 100, 1000, a lecturer's trial)."""
    first, last = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
    span = max(last - first, 0)
    step = max(1, math.ceil(span / max(most - 1, 1)))
    start = math.ceil(first / step) * step  # multiples of the step, so 1 (1e0) is a tick when in range
    powers = list(range(start, last + 1, step)) or [first]
    return [float(p) for p in powers], decade_labels(powers)


def decade_labels(powers) -> list[str]:
    """1e-10 … 1e3, or plain numbers where all lie from 0.01 to 1000 (one style a whole axis)."""
    if all(-2 <= p <= 3 for p in powers):
        return [f"{10.0 ** round(p):g}" for p in powers]
    return [decade_label(p) for p in powers]


def number_label(t: float) -> str:
    """A linear axis's tick label: plain from 1e-4 to below 1e6 (1200, 0.0005), else as few significant digits
    in e-notation as give the value back (1e+06, 1.2e+06: 1.2e6 and 1.5e6 read "1e+06" and "2e+06", an audit)."""
    if t == 0 or 1e-4 <= abs(t) < 1e6:
        return f"{t:.10g}"
    for digits in range(10):
        if math.isclose(float(word := f"{t:.{digits}e}"), t, rel_tol=1e-9):
            return word
    return f"{t:.10e}"


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
    return ticks, [number_label(t) for t in ticks]


def _shared(v: float, m: int, u: float, apart: tuple, margin: float) -> tuple[int, float]:
    """With the top limit at v·u and tick 0 in row m: how many of `apart`'s points share a row with another
    value at their x half a row or more from theirs (rows within `margin` dots counted too), and the farthest
    of them from what its row stands for (its tick's place in it, 4·row + v − 4m), in dots."""
    def rows(y):
        return {round(v - y / u - margin) // 4, round(v - y / u + margin) // 4}

    clash = sum(any(abs(y - mine) >= 2 * u and rows(mine) & rows(y) for y in others) for mine, others in apart)
    off = (abs(4 * m - mine / u - 4 * (round(v - mine / u) // 4)) for mine, _others in apart)
    return clash, round(max(off, default=0), 6)


@lru_cache(maxsize=256)
def y_axis(lo: float, hi: float, ch: int, log: bool,
           apart: tuple = ()) -> tuple[float, float, tuple[tuple[int, str], ...]]:
    """Limits (y0, y1) for ch text rows holding lo..hi, and the ticks as (row, label, value on the axis).

    Ticks are round values (1, 2 or 5 × 10^k; on a log axis every 1st, 2nd, 5th, 10th, … decade)
    spaced an equal whole number of rows apart, and the limits are chosen so that each tick's value
    maps to the middle of its row (or within a dot of it): the label is on the row its value is drawn at. Among the choices
    that hold lo..hi and show two labels or more, the one whose data fills most of the height wins,
    with 3 to ch/2 + 1 labels preferred. A log axis with no tick above 1 labels the highest decade reached
    (1 or more) too, where that is in a row above the top tick's.

    A point drawn as a character (● ◆) fills its cell's four rows of dots, so where one shares its row with
    another value at its x half a row or more away (`apart`: each such point's value and the others'), the
    rows may move further, a tick up to 1.5 dots from its row's middle, if that tells them apart (a ◆ at
    0.28 in the row of the FLOPs curve's end at 1/16 read as time following FLOPs: parallel/timing at 100x30,
    a trial).
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        lo, hi = 0.0, 1.0
    if hi - lo < 1e-12 * max(1.0, abs(hi)):
        lo, hi = lo - 1.0, hi + 1.0
    span, dots = hi - lo, 4 * ch - 1
    if log:
        steps = [m * 10 ** e for e in range(0, max(0, math.ceil(math.log10(span))) + 3) for m in (1, 2, 5)]
    else:
        e0 = math.floor(math.log10(span))
        steps = [m * 10.0 ** e for e in range(e0 - 2, e0 + 2) for m in (1, 2, 5)]
    k_min = 2 if ch >= 5 else 1
    k_max = max(k_min, 3, ch // 3)
    t_min, t_max = (3 if ch >= 6 else 2), max(2, min(8, ch // 2 + 1))
    best = None
    for s in steps:
        for k in range(k_min, k_max + 1):
            u = s / (4 * k)  # axis units per dot: one step is k rows
            if span > dots * u:
                break
            # the top limit y1 is v·u with v = 4m + o: each multiple of s then sits o dots into its row
            # (rows m − k·j); o = 1.5 is the row's middle, 0.5 … 2.5 still well inside it
            low, high, ideal = hi / u, lo / u + dots, (hi / u + lo / u + dots) / 2  # v must be in low … high

            def place(wide):
                """(cost, m, v) of the best v, or None. `wide`: a tick up to 1.5 dots from its row's middle, and a
                point a quarter dot from another row counted in that row too (a margin for rounding)."""
                found, (first, last) = None, ((0, 3) if wide else (0.5, 2.5))  # the tick's place in its row
                for m in range(math.floor((low - 3) / 4), math.ceil(high / 4) + 1):
                    a, b = max(low, 4 * m + first), min(high, 4 * m + last)
                    if a > b:
                        continue
                    for v in [min(max(4 * m + 1.5, a), b)] + [a + (b - a) * i / 24 for i in range(25 if wide else 0)]:
                        clash, off = _shared(v, m, u, apart, 0.25 if wide else 0)
                        # then, wide, each point nearest what its row stands for; the tick nearest its row's middle
                        cost = (clash, off if wide else 0, round(abs(v - 4 * m - 1.5), 9), abs(v - ideal))
                        if found is None or cost < found[0]:
                            found = (cost, m, v)
                return found

            found = place(False)
            if found is None:
                continue
            if found[0][0] and (wide := place(True))[0][0] < found[0][0]:
                found = wide
            _, m, v = found
            js = [j for j in range(math.ceil((m - ch + 1) / k), math.floor(m / k) + 1)  # ticks j·s on rows m − k·j,
                  if lo - s / 2 <= j * s <= hi + s / 2]  # none half a step beyond lo…hi: "-2┤" under ylim (-1, 1)
            fill = span / (dots * u)
            score = (len(js) >= 2, fill * (1.0 if t_min <= len(js) <= t_max else 0.75),
                     -abs(len(js) - (t_min + t_max) / 2))
            if best is None or score > best[0]:
                best = (score, s, k, m, js, u, v)
    if best is None:  # not reached for any finite span; kept so an odd input still draws
        return lo, hi, ()
    _, s, k, m, js, u, v = best
    y1 = v * u
    ticks = []
    for j in js:
        t = j * s
        label = decade_label(t) if log else number_label(t)
        ticks.append((m - k * j, label, t))
    top = math.floor(hi + 1e-9)  # the highest decade reached, 1 or more, labelled where no tick is above 1 and it
    # has a row over the top tick's: with ticks 5 decades apart, gradients/bptt's ReLU explosion to 2.73e+03 rose
    # over "1┤" unlabelled, its size not to be read off the axis (a trial)
    if log and ticks and ticks[-1][2] <= 0 <= top and ticks[-1][2] < top:
        if 0 <= (r := round(v - top / u) // 4) < ticks[-1][0]:
            ticks.append((r, decade_label(top), float(top)))
    if log:  # ("1e1 1 1e-2" on one axis: 10, 1, 0.01)
        ticks = [(r, label, t) for (r, _old, t), label in zip(ticks, decade_labels([t for _r, _l, t in ticks]))]
    return y1 - dots * u, y1, tuple(ticks)  # shared by every draw at these limits (lru_cache)


def xlim_at(cols: tuple[float, float, float, float], yw: int, cw: int) -> tuple[float, float] | None:
    """The x limits that put x_a in column a and x_b in column b (counted from the widget's left: the
    y labels, then ┤, then the canvas), each in the middle of its cell; None when they cannot."""
    xa, ca, xb, cb = cols
    da, db = 2 * (ca - yw - 1) + 0.5, 2 * (cb - yw - 1) + 0.5  # their dots
    if xb == xa or db <= da or da < 0 or db > 2 * cw - 1:  # (a track cut at the right: its last cells' t
        return None  # would be off the canvas, the cursor with them; wide y labels: its first)
    span = (2 * cw - 1) * (xb - xa) / (db - da)
    x0 = xa - da * span / (2 * cw - 1)
    return x0, x0 + span
