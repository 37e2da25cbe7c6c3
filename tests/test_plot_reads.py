"""Plots that read right (issue 15): the y range holds every point, tick labels sit on the rows their
values map to at an even spacing, points at braille resolution and reference lines as box characters
that data keeps to its side of, one owner per cell, series
that stay apart without colour, and legends that show what is drawn."""
import math

import numpy as np

from rnntui.widgets.plot import BRAILLE, Line, PlotSpec, Series, plot_rows, render_plot
from rnntui.widgets.tints import BLUE, GREEN, GREY, ORANGE, RED

DIST = tuple(range(61))
# the three curves of gradients/bptt with ReLU at c=1.5: a decay to 5e-30, a slow decay, an explosion to 2731
BPTT = PlotSpec(
    series=(Series(DIST, tuple(float(v) for v in np.logspace(0, math.log10(5.1e-30), 61)), "c=0.5", GREEN),
            Series(DIST, tuple(float(v) for v in np.logspace(0, -8.8, 61)), "c=1.0", BLUE),
            Series(DIST, tuple(float(v) for v in np.logspace(0, math.log10(2731), 61)), "c=1.5", ORANGE)),
    lines=(Line(1.0, "×1", GREY, dashed=True, align="right"),), cursor=0, xlim=(0, 60), log_y=True,
    xlabel="distance T − t from the loss", legend="below")
STEPS = tuple(float(v) for v in range(25))
CELL = PlotSpec(series=(Series(STEPS, tuple(0.5 + 0.45 * math.sin(v / 3) for v in STEPS), "c_t", GREEN),),
                xlim=(0, 24), ylim=(0.0, 1.0))


def cells(spec, width, height):
    """The plot as rows of (char, style) per cell."""
    return [[(ch, style) for words, style in row for ch in words] for row in plot_rows(spec, width, height)]


def canvas(rows):
    """(index of the first canvas row, frame column, canvas width, canvas height) of rendered text rows."""
    top = next(i for i, r in enumerate(rows) if "┌" in r)
    bottom = next(i for i, r in enumerate(rows) if "└" in r)
    fc = rows[top].index("┌")
    return top + 1, fc, rows[top].index("┐") - fc - 1, bottom - top - 1


def ticks(rows, log):
    """(canvas row, value in axis units) of every y tick label."""
    first, fc, _, ch = canvas(rows)
    found = []
    for r in range(ch):
        row = rows[first + r]
        if row[fc] == "┤":
            v = float(row[:fc].strip())
            found.append((r, math.log10(v) if log else v))
    return found


def check_ticks(spec, width, height):
    rows = render_plot(spec, width, height).plain.splitlines()
    found = ticks(rows, spec.log_y)
    assert len(found) >= 2, rows
    ys = np.concatenate([np.asarray(s.y, float) for s in spec.series])
    ys = ys[np.isfinite(ys) & ((ys > 0) if spec.log_y else True)]
    ys = np.log10(ys) if spec.log_y else ys
    even = found  # but the highest decade reached, labelled over ticks of 1 or less (its size read off the axis)
    if spec.log_y and len(found) > 2 and found[1][1] <= 0 <= found[0][1] == math.floor(ys.max()):
        even = found[1:]
    gaps = {b[0] - a[0] for a, b in zip(even, even[1:])}
    steps = {round(a[1] - b[1], 9) for a, b in zip(even, even[1:])}
    assert len(gaps) == 1 and len(steps) == 1, (found, "\n".join(rows))  # evenly spaced, in rows and in value
    (r0, v0), (r1, v1) = even[0], even[-1]
    per_row = (v0 - v1) / (r1 - r0)

    def value(r: float) -> float:  # the axis as the labels tell it
        return v0 - (r - r0) * per_row

    # every finite point is inside the axis the labels describe (rows −0.5 … ch − 0.5)
    _, _, _, ch = canvas(rows)
    assert value(-0.5) >= ys.max() - 1e-9 and value(ch - 0.5) <= ys.min() + 1e-9, (found, "\n".join(rows))
    # each label on the row its value maps to: a point drawn at a label's value lands on that label's row
    x_mid = (spec.xlim[0] + spec.xlim[1]) / 2 + 1e-6  # where no series has a point: marks at another value
    # than a series' there would move the rows apart (y_axis), and the probe would change the axis it checks
    inside = [(r, v) for r, v in found if ys.min() <= v <= ys.max()]
    probe = Series(tuple(x_mid for _ in inside), tuple(10 ** v if spec.log_y else v for _, v in inside), "",
                   GREY, marker="◆", scatter=True)
    again = render_plot(PlotSpec(**{**spec.__dict__, "series": spec.series + (probe,)}), width, height).plain.splitlines()
    assert ticks(again, spec.log_y) == found  # the probe changed nothing about the axis
    first = canvas(again)[0]
    assert sorted(i - first for i, row in enumerate(again) if "◆" in row) == sorted(r for r, _ in inside)
    return found


def test_bptt_explosion_is_inside_the_labelled_axis_and_ticks_are_even():
    found = check_ticks(BPTT, 76, 13)  # the plot's share of gradients/bptt at 80×24
    assert any(v == 0 for _, v in found)  # 1 is a tick
    assert found[0][1] > 0 or found[0][0] > 0  # the explosion has room above the label "1"


def test_ticks_are_even_and_on_their_rows_at_many_sizes():
    for spec in (BPTT, CELL):
        for width, height in ((40, 9), (60, 12), (76, 13), (80, 17), (100, 24), (116, 28), (120, 40)):
            check_ticks(spec, width, height)


def test_a_thin_log_axis_labels_every_few_decades():
    found = check_ticks(BPTT, 60, 9)
    assert len(found) <= 4 and abs(found[0][1] - found[1][1]) in (10, 20, 50)


def test_a_point_above_a_line_is_never_drawn_below_it():
    """seq2seq/scoring: additive 78.2% must not read as under the seed's 76% line."""
    xs = tuple(float(v) for v in range(0, 601, 25))
    spec = PlotSpec(series=(Series(xs, tuple(0.782 if x <= 300 else float("nan") for x in xs), "additive", BLUE),
                            Series((450.0,), (0.782,), "a mark", ORANGE, marker="◆", scatter=True)),
                    lines=(Line(0.76, "seed", GREY),), cursor=300.0, ylim=(0.0, 1.0), xlim=(0, 600))
    for height in range(10, 30):
        rows = cells(spec, 80, height)
        text = ["".join(ch for ch, _ in r) for r in rows]
        first, fc, cw, ch = canvas(text)

        def dots(r, c, color):  # heights (in dots, from the top) of the braille dots of one colour in a cell
            char, style = rows[first + r][fc + 1 + c]
            if not BRAILLE < ord(char) < BRAILLE + 256 or style is None or style.color.triplet != color:
                return []
            bits = ord(char) - BRAILLE
            masks = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
            return [4 * r + k for k, pair in enumerate(masks) if bits & (pair[0] | pair[1])]

        def grey_at(r, c):  # the line's height in dots: braille dots, or the middle of a box character
            char, style = rows[first + r][fc + 1 + c]
            if char in "─╌":
                return [4 * r + 1.5]
            return dots(r, c, GREY)

        line = [h for r in range(ch) for h in grey_at(r, cw * 5 // 8)]  # right of the curve (it stops at x = 300),
        # left of the mark at 450 and of the line's label (at the right end, clear of the curve)
        assert line, "\n".join(text)
        curve = [h for r in range(ch) for c in range(cw) for h in dots(r, c, BLUE)]
        assert curve and max(curve) <= min(line), (height, "\n".join(text))  # not a dot lower than the line
        line_row = int(min(line) // 4)
        for marker in "◆●":
            row = next(r for r in range(ch) if marker in text[first + r])
            assert row <= line_row, (marker, "\n".join(text))


def test_coinciding_series_both_stay_visible():
    """gradients/product: float32 equals float64 until it stops; the float64 curve must not vanish."""
    hops = tuple(range(200))
    p = tuple(float(v) for v in 0.9 ** np.arange(200))
    spec = PlotSpec(series=(Series(hops, p, "float64", BLUE), Series(hops, p, "float32", RED)), log_y=True,
                    xlim=(0, 199), ylim=(1e-45, 1e45))
    rows = cells(spec, 100, 20)
    colours = [style.color.triplet for r in rows for ch, style in r
               if BRAILLE < ord(ch) < BRAILLE + 256 and style is not None and style.color is not None]
    blue, red = sum(c == BLUE for c in colours), sum(c == RED for c in colours)
    assert blue >= 0.25 * len(colours) and red >= 0.25 * len(colours), (blue, red)


def test_a_cell_shared_by_two_series_shows_one_series_dots_in_its_colour():
    """recurrence/tanh: where the tangent meets the curve, no cell mixes the curve's dots into the tangent's colour."""
    z = tuple(float(v) for v in np.linspace(-4, 4, 400))
    tanh = Series(z, tuple(float(v) for v in np.tanh(z)), "tanh(z)", BLUE)
    tangent = Series((-1.2, 1.2), (-1.2, 1.2), "tangent", ORANGE)  # at z = 0, drawn over z ± 1.2
    base = dict(lines=(Line(0.0, "", GREY),), xlim=(-4, 4), ylim=(-1.2, 1.2), xlabel="z")
    both = cells(PlotSpec(series=(tanh, tangent), **base), 80, 16)
    alone = {BLUE: cells(PlotSpec(series=(tanh, Series((), (), "tangent", ORANGE)), **base), 80, 16),
             ORANGE: cells(PlotSpec(series=(Series((), (), "tanh(z)", BLUE), tangent), **base), 80, 16)}
    shared = 0
    for r, row in enumerate(both):
        for c, (ch, style) in enumerate(row):
            if BRAILLE < ord(ch) < BRAILLE + 256 and style is not None and style.color.triplet in alone:
                own = alone[style.color.triplet][r][c][0]
                other = alone[BLUE if style.color.triplet == ORANGE else ORANGE][r][c][0]
                shared += BRAILLE < ord(other) < BRAILLE + 256
                assert ch == own, (r, c, ch, own)
    assert shared  # the test did look at cells both series pass through


def test_a_curve_crossing_a_line_leaves_the_line_beside_it():
    spec = PlotSpec(series=(Series((0.0, 1.0), (0.0, 1.0), "rise", BLUE),), lines=(Line(0.5, "", GREY),
                    Line(0.25, "", GREY, dashed=True)), xlim=(0, 1), ylim=(0, 1))
    rows = cells(spec, 60, 20)
    text = ["".join(ch for ch, _ in r) for r in rows]
    first, fc, cw, ch = canvas(text)
    for solid in (True, False):
        r = next(r for r in range(ch) if (rows[first + r][fc][0] in "├┤") == solid
                 and any(s is not None and s.color and s.color.triplet == GREY for _, s in rows[first + r]))
        colour = [s.color.triplet if s is not None and s.color else None for _, s in rows[first + r][fc + 1: fc + 1 + cw]]
        grey = {c for c, k in enumerate(colour) if k == GREY}
        blue = [c for c, k in enumerate(colour) if k == BLUE]
        assert blue and len(grey) > cw // 2
        assert {min(blue) - 1, min(blue) - 2} & grey  # the line runs up to the curve …
        assert {max(blue) + 1, max(blue) + 2} & grey  # … and on after it


def test_reference_lines_are_box_characters_and_data_in_their_cells_keeps_its_side():
    """gradients/product and clipping: a line is ─ or ╌ (│ or ╎), not braille like a series; where a
    series shares a line's cells its dots sit above the ─ if its value is above, below if below, on it if equal."""
    masks = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
    for height in range(8, 30):
        for at, dashed in ((0.5, False), (0.3, True), (0.71, False)):
            for offset, rows_ok in ((0.004, {0, 1}), (-0.004, {2, 3}), (0.0, {1, 2})):
                spec = PlotSpec(series=(Series((0.0, 6.0), (at + offset,) * 2, "s", BLUE, dash="solid"),
                                        Series((5.0,), (at + offset,), "p", ORANGE, scatter=True),
                                        Series((1.5, 2.49), (0.95, 0.95), "to", GREEN, dash="solid"),
                                        Series((2.51, 3.5), (0.05, 0.05), "from", GREEN, dash="solid")),
                                lines=(Line(at, "", GREY, dashed=dashed), Line(2.5, "", GREY, vertical=True)),
                                xlim=(0, 10), ylim=(0, 1))
                rows = cells(spec, 60, height)
                text = ["".join(ch for ch, _ in r) for r in rows]
                first, fc, cw, ch = canvas(text)
                line_row = next(r for r in range(ch) if text[first + r][fc + 1 + cw - 3] in "─╌")  # beyond x = 6
                v_col = text[first - 1].index("┬") - fc - 1  # the vertical line's column, marked on the frame
                for r in range(ch):  # the line is one row of box characters, the series braille
                    grey = {c for c, s in rows[first + r][fc + 1: fc + 1 + cw] if s is not None and s.color
                            and s.color.triplet == GREY}
                    assert grey <= ({"╌" if dashed else "─", "│"} if r == line_row else {"│"}), (r, "\n".join(text))
                for c in range(cw):
                    char, style = rows[first + line_row][fc + 1 + c]
                    if BRAILLE < ord(char) < BRAILLE + 256:
                        bits = ord(char) - BRAILLE
                        dots = {k for k, pair in enumerate(masks) if bits & (pair[0] | pair[1])}
                        assert dots <= rows_ok, (height, at, offset, c, "\n".join(text))
                # in the vertical line's column (x = 2.5) a curve ending left of it keeps to the cell's left half,
                # one starting right of it to the right half
                sides = [ord(char) - BRAILLE for r in range(ch) for char, style in [rows[first + r][fc + 1 + v_col]]
                         if BRAILLE < ord(char) < BRAILLE + 256 and style is not None and style.color.triplet == GREEN]
                assert len(sides) == 2 and not sides[0] & 0xB8 and not sides[1] & 0x47, (sides, "\n".join(text))


def test_a_level_a_series_runs_along_has_its_dots_on_it():
    """A level (memory/copy's "chance 10%") is a line a series runs along: noise of ±0.004 about it went in
    turns above and below the line, jumps the run never made, and 9.6% drawn above it read as better than
    chance (a lecturer's slides, a review). In its row every dot sits on it (the middle two dot rows); the
    series' other rows are as without the line."""
    middle = 0x02 | 0x10 | 0x04 | 0x20  # a braille cell's second and third dot rows

    def dots(line, at, noise):
        far = Line(0.97, "far", GREY, keyed=True)  # (a key below the plot for each: the same rows)
        spec = PlotSpec(series=(Series(tuple(np.linspace(0, 10, 40)), tuple(at + noise * (-1) ** k for k in range(40)),
                                       "acc", BLUE),), lines=(far, line), xlim=(0, 10), ylim=(0, 1))
        rows = cells(spec, 60, 12)
        text = ["".join(c for c, _ in row) for row in rows]
        first, fc, cw, ch = canvas(text)
        (r1, v1), (r0, v0) = ticks(text, False)[0], ticks(text, False)[-1]
        row = round(r0 + (r1 - r0) * (at - v0) / (v1 - v0))  # the line's row, from the tick labels
        return row, [[ord(c) - BRAILLE if BRAILLE < ord(c) < BRAILLE + 256 and style.color.triplet == BLUE else 0
                      for c, style in row_[fc + 1: fc + 1 + cw]] for row_ in rows[first: first + ch]]

    for at in (0.1, 0.5, 0.7):
        for noise in (0.004, 0.02):
            _row, bare = dots(Line(0.9, "", GREY, keyed=True), at, noise)  # a level far from the data
            row, level = dots(Line(at, "chance", GREY, keyed=True, level=True), at, noise)
            assert all(not bits & ~middle for bits in level[row]) and any(level[row]), (at, noise)
            assert [cells_ for r, cells_ in enumerate(level) if r != row] == \
                [cells_ for r, cells_ in enumerate(bare) if r != row], (at, noise)


def flat(spec_series, width=80, height=20):
    return cells(PlotSpec(series=spec_series, xlim=(0, 10), ylim=(0, 4), legend="below"), width, height)


def test_a_legend_in_the_top_edge_takes_no_row():
    series = tuple(Series((0.0, 10.0), (y, y), f"s{i}", col) for i, (y, col) in enumerate(((3, BLUE), (1, GREEN))))
    below, top, none = (cells(PlotSpec(series=series, xlim=(0, 10), ylim=(0, 4), legend=where, cursor=5.0), 60, 12)
                        for where in ("below", "top", "none"))
    text = ["".join(ch for ch, _ in r) for r in top]
    assert len(top) == len(none) == len(below) == 12
    assert top[1:] == none[1:]  # the same canvas, ticks and labels: a row taller than with a legend below
    assert canvas(text)[3] == canvas(["".join(ch for ch, _ in r) for r in below])[3] + 1
    key = "".join(ch for ch, _ in below[-1]).strip()  # the legend a row of its own shows: "━━ s0  ┈┈ s1"
    edge = "".join(ch for ch, _ in none[0])
    assert text[0].startswith(f" ┌─ {key} ─") and text[0].endswith("┐") and len(text[0]) == len(edge)
    assert text[0].index("┬") == edge.index("┬")  # the cursor's mark on the edge stays where it was
    assert [s for ch, s in top[0] if ch == "━"][0].color.triplet == BLUE  # each sample in its series' colour
    for cursor in (0.5, 9.5):  # a cursor under the legend's place moves it to the other end, its ┬ kept
        edges = ["".join(ch for ch, _ in cells(PlotSpec(series=series, xlim=(0, 10), ylim=(0, 4), legend=where,
                                                         cursor=cursor), 60, 12)[0]) for where in ("top", "none")]
        assert edges[0].index("┬") == edges[1].index("┬") and key in edges[0] and len(edges[0]) == len(edges[1])
        assert edges[0].index(key) < len(edges[0]) // 2 if cursor > 5 else edges[0].index(key) > len(edges[0]) // 2


def test_three_series_differ_without_colour_and_the_legend_shows_each_pattern():
    xs = (0.0, 10.0)
    rows = flat(tuple(Series(xs, (y, y), f"s{i}", col) for i, (y, col) in enumerate(((3, BLUE), (2, ORANGE), (1, GREEN)))))
    text = ["".join(ch for ch, _ in r) for r in rows]
    legend = text[-1]
    samples = [legend[legend.index(f" s{i}") - 2: legend.index(f" s{i}")] for i in range(3)]
    assert len(set(samples)) == 3, legend
    first, fc, cw, ch = canvas(text)
    patterns = []
    for colour in (BLUE, ORANGE, GREEN):
        r = next(r for r in range(ch) if any(s is not None and s.color and s.color.triplet == colour
                                             for _, s in rows[first + r]))
        counts = [bin(ord(c) - BRAILLE).count("1") if BRAILLE <= ord(c) < BRAILLE + 256 else 0
                  for c, s in rows[first + r][fc + 1: fc + 1 + cw]]
        patterns.append(counts)
    solid, dotted, dashed = patterns
    assert all(n == 2 for n in solid)  # every dot
    assert all(n == 1 for n in dotted)  # every other dot
    runs = "".join("x" if n else "." for n in dashed)
    assert "xx..xx..xx" in runs and all(n in (0, 2) for n in dashed)  # 4 dots on, 4 off
    # a caller's choice wins over the automatic one
    rows = flat((Series(xs, (2, 2), "d", BLUE, dash="dashed"),))
    text = ["".join(ch for ch, _ in r) for r in rows]
    assert text[-1].startswith(samples[2])


def test_legend_symbols_are_what_is_drawn():
    """lstm/bias: the ◆ landmarks at the cursor stay ◆; an inside legend shows markers too."""
    spec = PlotSpec(series=(Series((-2.0, 0.0, 1.0, 2.0), (0.1, 0.5, 0.7, 0.9), "σ(b_f)", GREEN),
                            Series((0.0, 1.0), (0.5, 0.7), "b_f = 0 and b_f = 1", GREY, marker="◆", scatter=True)),
                    cursor=1.0, legend="below")
    text = render_plot(spec, 60, 14).plain.splitlines()
    first, fc, cw, ch = canvas(text)
    drawn = "".join(r[fc + 1: fc + 1 + cw] for r in text[first: first + ch])
    assert drawn.count("◆") == 2 and "◆ b_f = 0" in text[-1]
    inside = render_plot(PlotSpec(**{**spec.__dict__, "legend": "inside"}), 60, 14).plain
    assert "◆ b_f = 0" in inside and "━━ σ(b_f)" in inside
    # braille points are drawn as 2×2 blobs of dots, and the legend shows one
    dots = PlotSpec(series=(Series((0.0, 1.0), (0.0, 1.0), "points", GREEN, scatter=True),), ylim=(0, 1))
    text = render_plot(dots, 40, 12).plain
    assert text.splitlines()[-1].startswith("⠶ points")
    drawn = "".join(text.splitlines()[:-1])
    assert sum(bin(ord(c) - BRAILLE).count("1") for c in drawn if BRAILLE < ord(c) < BRAILLE + 256) == 8


# parallel/timing at T=4096: RNN ÷ attention in FLOPs and in time here, and a laptop's time as a ◆ (log–log)
TS = (64.0, 256.0, 1024.0, 4096.0)
TIMING = PlotSpec(series=(Series(TS, (4.0, 1.0, 0.25, 0.0625), "FLOPs (d/T)", BLUE),
                          Series(TS, (2.64, 6.25, 1.70, 1.72), "time here", ORANGE),
                          Series((4096.0,), (1 / 3.6,), "time, source's laptop", GREEN, marker="◆", scatter=True)),
                  lines=(Line(1.0, "", GREY),), log_x=True, log_y=True, ylim=(0.0625 / 2, 6.25 * 2))


def test_a_marker_is_not_drawn_in_the_row_of_a_curve_at_another_value():
    """parallel/timing at 100x30 has 4 rows, a decade each: the ◆ at 0.28 sat in the row of the FLOPs curve's end
    at 1/16, as if time had followed FLOPs (a trial). The rows move so that at T = 4096 the ◆ reads below time here
    (1.72) and above FLOPs, each in a row of its own."""
    for width, height in ((96, 9), (96, 10), (116, 13)):  # the plot's share at 100x30, and taller
        grid = cells(TIMING, width, height)
        text = ["".join(ch for ch, _ in row) for row in grid]
        first, fc, cw, ch = canvas(text)
        ends = {colour: {r for r in range(ch) for char, style in grid[first + r][fc + cw - 1:fc + cw + 1]
                         if BRAILLE < ord(char) < BRAILLE + 256 and style.color.triplet == colour}
                for colour in (BLUE, ORANGE)}  # the rows of each curve's last two cells
        diamond = [r for r in range(ch) if "◆" in text[first + r]]
        assert len(diamond) == 1 and ends[BLUE] and ends[ORANGE], "\n".join(text)
        assert max(ends[ORANGE]) < diamond[0] < min(ends[BLUE]), "\n".join(text)


def test_an_explosion_over_1_has_a_label_above_1():
    """gradients/bptt, ReLU at c=1.5: ticks 5 or 10 decades apart left the rise to 2731 over "1┤" with no label
    (a trial); the highest decade reached, 1e3, is labelled on its row."""
    for width, height in ((96, 18), (116, 28)):  # the plot's share at 100x30 and at 120x40
        found = check_ticks(BPTT, width, height)
        assert [v for _, v in found[:2]] == [3, 0], found
