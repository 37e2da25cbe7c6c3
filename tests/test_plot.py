"""The plot widget: log axis by hand, labelled reference lines, a cursor, 0/inf/NaN drawn not raised,
and any number of resizes."""
import re
from dataclasses import replace

import numpy as np
import pytest
from textual.app import App

from rnntui.widgets.axes import decade_label, log_ticks, nice_ticks
from rnntui.widgets.plot import (GREY, RED, Line, Plot, PlotSpec, Series,
                                 non_finite_marks, plot_rows, render_plot)

F32_TINY, F32_MAX = 1.1754944e-38, 3.4028235e38

XS = tuple(range(20))
BAD = (1.0, 0.5, 0.25, 0.0, 0.0, 2.0, float("inf"), float("nan"), 1e-300, 4.0) + (1.0,) * 10
LINES = (Line(F32_TINY, "float32 min normal", RED), Line(F32_MAX, "float32 max", RED),
         Line(1.0, "×1", GREY, dashed=True, align="right"))
SHORT_OF_ROWS = re.compile(r"--size (\d+)x(\d+) shows a plot here")  # an export's line under a plot without its rows


def text_of(spec, size=(80, 20)):
    return render_plot(spec, *size).plain


def test_decade_ticks_are_labelled_like_1e_minus_10_and_include_1():
    ticks, labels = log_ticks(-45.0, 45.0, most=7)
    assert 0.0 in ticks and labels[ticks.index(0.0)] == "1"
    assert all(label == "1" or re.fullmatch(r"1e-?\d+", label) for label in labels)
    assert all(lo < hi for lo, hi in zip(ticks, ticks[1:])) and len(ticks) <= 7
    assert decade_label(-10) == "1e-10"
    assert log_ticks(1.0, 3.5)[1] == ["10", "100", "1000"]  # (read as "1e1 1e2 1e3", a lecturer's trial)
    assert log_ticks(-2.0, 0.0)[1] == ["0.01", "0.1", "1"] and log_ticks(-2.0, 4.0)[1][-1] == "1e4"


def test_nice_ticks_are_round_and_inside():
    ticks, labels = nice_ticks(0, 199, most=6)
    assert ticks == [0, 50, 100, 150] and labels == ["0", "50", "100", "150"]
    assert nice_ticks(-4, 4, most=5)[0] == [-4, -2, 0, 2, 4]


def test_an_axis_ending_on_a_tick_labels_its_end():
    """0.3 / 0.1 is 2.9999999999999996 in floating point: the tick at the axis's end is still drawn and
    labelled, under the frame's last column."""
    assert nice_ticks(0, 0.3)[1] == ["0", "0.1", "0.2", "0.3"]
    assert nice_ticks(0.07, 0.1)[1] == ["0.07", "0.08", "0.09", "0.1"]  # and its start: 0.07 / 0.01 is 7.000000000000001
    lines = text_of(PlotSpec(series=(Series((0, 0.1, 0.2, 0.3), (0.5, 0.2, 0.3, 0.5)),), xlim=(0, 0.3)), (40, 12))
    bottom = next(i for i, line in enumerate(lines.splitlines()) if "└" in line)
    frame, labels = lines.splitlines()[bottom], lines.splitlines()[bottom + 1]
    assert frame.rstrip().endswith("┬┘") and frame.lstrip().startswith("└┬")  # ticks at both ends
    assert labels.split() == ["0", "0.1", "0.2", "0.3"] and len(labels) <= 40
    assert labels.index("0.3") <= frame.index("┘") - 1 < labels.index("0.3") + 3  # under the last tick


def test_a_long_tick_label_at_the_right_edge_is_drawn_whole_inside_the_plot():
    """100000's tick is the frame's last column: centred on it, the label would run two cells past the
    plot (cut to "1000" by the terminal); it is moved in, whole, still touching its tick."""
    lines = text_of(PlotSpec(series=(Series((0, 50000, 100000), (0, 1, 0.5)),), xlim=(0, 100000)), (40, 10))
    lines = lines.splitlines()
    bottom = next(i for i, line in enumerate(lines) if "└" in line)
    tick, labels = lines[bottom].index("┘") - 1, lines[bottom + 1]
    assert lines[bottom][tick] == "┬" and labels.split()[-1] == "100000"
    assert len(labels) <= 40 and labels.index("100000") <= tick < labels.index("100000") + len("100000")


def test_an_x_tick_stands_in_the_column_its_value_is_drawn_in():
    """A step straight up at x = 2 (of 0…4) is drawn in one column; the tick ┬ and the label "2" are in
    that column at every width (ticks placed by truncating the dot put them a column left at odd widths)."""
    for width in range(30, 61):
        lines = text_of(PlotSpec(series=(Series((0, 2, 2, 4), (0, 0, 1, 1), "a", RED),), xlim=(0, 4)), (width, 12))
        lines = lines.splitlines()
        bottom = next(i for i, line in enumerate(lines) if "└" in line)
        tick = lines[bottom + 1].index("2")  # a one-character label, over its tick
        upright = {c for line in lines[4:6] for c, ch in enumerate(line) if "\u2800" < ch <= "\u28ff"}  # mid-step
        assert lines[bottom][tick] == "┬" and upright == {tick}, width


@pytest.mark.parametrize("outside,cut", [
    (((1, 2, 4, 5), (0.2, 0.4, 0.9, 0.1)), ((1, 2, 3), (0.2, 0.4, 0.65))),  # a slope wholly right of x = 3
    (((1, 2, 4, 4), (0.3, 0.3, 0.1, 0.9)), ((1, 2, 3), (0.3, 0.3, 0.2)))])  # an upright step right of it
def test_a_line_beyond_the_x_range_is_cut_at_the_frame_not_drawn_along_it(outside, cut):
    """With xlim (0, 3), the parts of a line past x = 3 are left out: the cells drawn are those of the
    same line ended by hand where it meets x = 3 (not a streak down the last column)."""
    def cells(x, y):
        text = text_of(PlotSpec(series=(Series(x, y, "a", RED),), xlim=(0, 3), ylim=(0, 1)), (40, 12))
        return [[ch != " " for ch in line] for line in text.splitlines()]

    assert cells(*outside) == cells(*cut)



@pytest.mark.parametrize("width", [60, 80, 110, 150])
def test_a_solid_line_lights_every_dot_column_it_crosses(width):
    """recurrence/track at W_h 1.4, 110 wide: a segment 26 dots long in 26 steps from x.5 was rounded half to
    even, every other dot onto its neighbour, and the solid h_t line went dotted where it was nearly flat
    (a lecturer's trial: students ask what the dashes mean). Each dot column from the first point's to the
    last's has a dot of the line."""
    from rnntui.figures.recurrence import TrackState
    from rnntui.screens.recurrence import TrackView

    spec = replace(TrackView._spec(TrackState(w_h=1.4, step=7)), lines=(), cursor=None)
    left, right = (0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80)  # each braille column's dot bits
    lit = set()
    for line in text_of(spec, (width, 10)).splitlines():
        for c, ch in enumerate(line):
            bits = ord(ch) - 0x2800
            if 0 < bits < 0x100:
                lit |= {2 * c + k for k, side in enumerate((left, right)) if any(bits & b for b in side)}
    assert lit and sorted(lit) == list(range(min(lit), max(lit) + 1)), sorted(set(range(min(lit), max(lit))) - lit)


@pytest.mark.parametrize("size", [(60, 20), (30, 40), (40, 40)])
@pytest.mark.parametrize("slope", [0.1, 0.5, 0.8, 3.0, 10.0])
def test_a_dotted_line_lights_half_the_steps_a_solid_one_does(slope, size):
    """Two steps a dot made corners on steep lines, and every other dot of such a staircase was an unbroken
    diagonal: recurrence/tanh's dotted tangent read as solid (a review). A line has one dot a step along its
    longer axis, and the dotted one every other: half the steps lit."""
    bits = {0x01: (0, 0), 0x02: (0, 1), 0x04: (0, 2), 0x40: (0, 3), 0x08: (1, 0), 0x10: (1, 1), 0x20: (1, 2),
            0x80: (1, 3)}

    def steps(dash):
        spec = PlotSpec(series=(Series((0.0, 10.0), (0.0, 10.0 * slope), "a", RED, dash=dash),),
                        xlim=(0, 10), ylim=(0, 10 * slope))
        lit = {(2 * c + dx, 4 * r + dy) for r, line in enumerate(text_of(spec, size).splitlines())
               for c, ch in enumerate(line) if 0x2800 < ord(ch) < 0x2900
               for bit, (dx, dy) in bits.items() if (ord(ch) - 0x2800) & bit}  # (each dot, in dots)
        return len({x for x, _y in lit}), len({y for _x, y in lit})

    (solid_x, solid_y), (dotted_x, dotted_y) = steps("solid"), steps("dotted")
    solid, dotted = (solid_x, dotted_x) if solid_x >= solid_y else (solid_y, dotted_y)  # along the longer axis
    assert solid > 30 and abs(dotted - solid / 2) <= 1, (solid, dotted)


def test_non_finite_points_are_found_where_they_first_occur():
    marks = dict((w, x) for x, w in non_finite_marks(Series(XS, BAD), log=True))
    assert marks == {"0": 3, "inf": 6, "NaN": 7}
    assert "0" not in dict((w, x) for x, w in non_finite_marks(Series(XS, BAD), log=False))
    # a series that starts bad is marked at the end of that run, next to its drawn values: a truncated
    # gradient, 0 from the cut back (serving/window's ▼0 stayed at t = 0 whatever the window, a trial)
    window = Series((0, 1, 2, 3, 4, 5, 6, 7), (0, 0, 0, 0, 0, 0.72, 0.8, 1.0))
    assert non_finite_marks(window, log=True) == [(4.0, "0")]
    assert non_finite_marks(Series((0, 1), (0, 0)), log=True) == [(0.0, "0")]  # all bad: its first point


def test_log_plot_of_a_series_with_0_inf_nan_draws_marks_and_labelled_lines():
    spec = PlotSpec(series=(Series(XS, BAD, "g"),), lines=LINES, cursor=5, log_y=True, ylim=(1e-45, 1e45))
    out = text_of(spec)
    for word in ("▼0", "▲inf", "▲NaN", "float32 min normal", "float32 max", "×1"):
        assert word in out
    # tick labels are decades of the real values, not log10 numbers; the axis reaches down to the 1e-300
    # point even though ylim stops at 1e-45 (the y range holds every finite point)
    assert re.search(r" 1┤", out) and re.search(r"1e-300┤", out)


def test_reference_line_sits_at_its_value_on_the_log_axis():
    """The ×1 line on a log axis from 1e-4 to 1e4 is the middle row of the canvas."""
    spec = PlotSpec(series=(Series((0, 1), (1e-4, 1e4)),), lines=(Line(1.0, "×1", GREY),), log_y=True, ylim=(1e-4, 1e4))
    rows = text_of(spec, size=(40, 11)).splitlines()
    canvas = [i for i, r in enumerate(rows) if "┤" in r or "│" in r[:8]][: 9]
    line_row = next(i for i, r in enumerate(rows) if "×1" in r)
    assert abs(line_row - (canvas[0] + canvas[-1]) / 2) <= 1


def test_cursor_marks_the_point_of_each_series_at_that_x():
    spec = PlotSpec(series=(Series(XS, tuple(float(x) for x in XS)),), cursor=10)
    rows = text_of(spec, size=(60, 15)).splitlines()
    dot = [(i, r.index("●")) for i, r in enumerate(rows) if "●" in r]
    assert len(dot) == 1
    bottom = next(r for r in rows if "└" in r)
    assert bottom[dot[0][1]] in "┴┼"  # the cursor's vertical line meets the x axis under the point
    assert rows[dot[0][0]].lstrip().startswith("10┤")  # at the height of the y tick 10 (the line y = x)


@pytest.mark.parametrize("align,cursor", [("right", 19), ("left", 0), ("right", 14)])
def test_a_line_label_under_the_cursors_point_steps_aside_whole(align, cursor):
    """memory/copy at its last step: the accuracy ends on the chance line, whose label sits at the
    right edge, and the cursor's point covered its "%". The label moves beside the point, whole; one
    the point does not touch (cursor 14) stays where it was."""
    spec = PlotSpec(series=(Series(XS, (0.1,) * 20),), lines=(Line(0.1, "chance 10%", align=align),),
                    ylim=(0, 1), cursor=cursor)
    rows = text_of(spec, size=(60, 12)).splitlines()
    row = next(r for r in rows if "●" in r)
    dot = row.index("●")
    assert "chance 10%" in row
    at = row.index("chance 10%")
    assert not at <= dot < at + len("chance 10%")
    assert "┤" in row  # the chance line's row
    still = text_of(PlotSpec(series=spec.series, lines=spec.lines, ylim=(0, 1)), size=(60, 12)).splitlines()
    moved = at != next(r for r in still if "chance" in r).index("chance 10%")
    assert moved == (cursor != 14)


def test_a_label_with_no_room_beside_the_cursor_stays_and_a_wide_one_moves_whole():
    """A label too long for either side of the cursor stays where it was, the point over one of its cells
    as before (it was pushed back under the point with a CJK glyph cut); a short CJK label moves whole."""
    def rows(label, cursor):
        spec = PlotSpec(series=(Series(XS, (0.1,) * 20),), lines=(Line(0.1, label, align="right"),), ylim=(0, 1),
                        cursor=cursor)
        return next(r for r in text_of(spec, size=(60, 12)).splitlines() if label[:2] in r or "●" in r)

    long = "机会" * 10  # 40 cells of a 56-cell canvas: no room before the cursor (col 29) or after it
    with_cursor, without = rows(long, 10), rows(long, None)
    assert "●" in with_cursor and with_cursor.index("机") == without.index("机")  # where it was
    assert with_cursor.split("●")[1].rstrip("┤") in without  # after the point, the label as it was
    short = rows("随机 10%", 19)
    assert "随机 10%" in short and short.index("●") > short.index("随机 10%") + len("随机 10%")


@pytest.mark.parametrize("spec", [
    PlotSpec(),
    PlotSpec(series=(Series(XS, (float("nan"),) * 20),), log_y=True),
    PlotSpec(series=(Series(XS, (0.0,) * 20),), log_y=True, lines=LINES, cursor=3),
    PlotSpec(series=(Series((1.0,), (5.0,)),), log_x=True, log_y=True),
    PlotSpec(series=(Series(XS, BAD),), ylim=(0, -1), xlim=(3, 3), cursor=1e9),
    PlotSpec(series=(Series(XS, tuple(-v for v in BAD)),), log_y=True, legend="below"),
    PlotSpec(series=(Series(XS, (1e300, 1e-300) * 10),), log_y=True, lines=(Line(float("inf"), "x"),)),
])
@pytest.mark.parametrize("size", [(16, 5), (30, 8), (80, 20), (200, 60)])
def test_awkward_specs_draw_at_any_size(spec, size):
    from rich.cells import cell_len

    rows = text_of(spec, size).split("\n")
    if size[1] >= 8:  # room for a frame: a drawn plot, not the too-small note
        assert "too small" not in rows[0] and len(rows) == size[1]
        assert any(ch in "│┤├└┘┌┐─" for ch in "".join(rows))  # the axes frame is drawn
    assert all(cell_len(r) <= size[0] for r in rows)


class PlotApp(App):
    def compose(self):
        yield Plot(PlotSpec(series=(Series(XS, BAD, "g"), Series(XS, tuple(np.linspace(1, 2, 20)), "h")), lines=LINES,
                            cursor=7, log_y=True, ylim=(1e-45, 1e45), legend="below"))


async def test_widget_survives_20_resizes_and_keeps_drawing():
    app = PlotApp()
    async with app.run_test(size=(80, 24)) as pilot:
        plot = app.query_one(Plot)
        for i in range(20):
            w, h = 30 + (i * 37) % 150, 8 + (i * 11) % 40
            await pilot.resize_terminal(w, h)
            await pilot.pause()
            assert plot.size.width == w
            lines = [str(plot.render_line(y).text) for y in range(plot.size.height)]
            drawn = "\n".join(lines)
            assert "▲inf" in drawn and "━━ g" in drawn
        await pilot.resize_terminal(10, 4)  # narrower than a plot can be: a note, no exception
        await pilot.pause()
        assert str(plot.render()).startswith("(too")
    assert render_plot(PlotSpec(), 40, 4).plain == "(too small to plot)"


def test_a_mark_moves_inwards_instead_of_covering_a_line_label():
    zeros = Series(XS, (1.0,) + (0.0,) * 19)
    spec = PlotSpec(series=(zeros,), lines=(Line(1e-10, "float32 min normal", RED),), log_y=True,
                    xlim=(0, 19), ylim=(1e-10, 10))
    out = text_of(spec, size=(60, 11))
    assert "float32 min normal" in out and "▼0" in out
    rows = out.splitlines()
    assert "└" in rows[next(i for i, r in enumerate(rows) if "float32 min" in r) + 1]  # the line is on the edge row
    assert next(i for i, r in enumerate(rows) if "▼0" in r) < next(i for i, r in enumerate(rows) if "float32 min" in r)


def test_a_cursor_spliced_into_the_kept_scene_draws_what_drawing_it_into_the_canvas_draws(monkeypatch):
    """A key that moves the cursor splices it into the scene's rows; drawn the other way (into a copy
    of the canvas, resolved again: the path kept for wide characters) every cell must come out the
    same, over lines, labels, marks (a point on a mark too), coinciding series, scatter points and gaps."""
    import random

    from rnntui.widgets import plot

    rng = random.Random(3)
    specs = []
    for _ in range(300):
        n = rng.randint(2, 30)
        xs = tuple(float(k) for k in range(n))
        ys = [tuple(rng.choice([rng.uniform(-1, 2), rng.uniform(-1, 2), float("nan"), 0.0]) for _k in range(n))
              for _s in range(rng.randint(1, 3))]
        if rng.random() < 0.3:
            ys.append(ys[0])  # coinciding series take turns
        series = tuple(Series(xs, y, f"s{i}", marker=rng.choice(["braille", "braille", "●"]),
                              scatter=rng.random() < 0.2) for i, y in enumerate(ys))
        lines = tuple(Line(rng.uniform(-1, n), rng.choice(["", "cut", "level"]), RED, vertical=rng.random() < 0.5,
                           dashed=rng.random() < 0.3) for _k in range(rng.randint(0, 2)))
        marks = ((float(rng.randint(0, n - 1)), rng.uniform(-1, 2), "×"),) if rng.random() < 0.3 else ()
        cursor = rng.randint(0, n - 1)
        if rng.random() < 0.3:  # a mark on the cursor's point (attention/scaling's ● on its curve)
            marks += ((float(cursor), ys[0][cursor], rng.choice(["●", "here"])),)
        specs.append((PlotSpec(series, lines, float(cursor), log_y=rng.random() < 0.2, marks=marks,
                               legend=rng.choice(["below", "inside", "top"])), rng.randint(20, 100), rng.randint(8, 30)))

    def cells(rows):
        return [[(ch, style) for words, style in row for ch in words] for row in rows]

    spliced = [cells(plot.plot_rows(spec, w, h)) for spec, w, h in specs]
    runs = plot._Canvas.runs
    monkeypatch.setattr(plot._Canvas, "runs", lambda self: (*runs(self)[:2], np.zeros(self.ch, bool)))  # "wide"
    plot._cached_scene.cache_clear()
    assert [cells(plot.plot_rows(spec, w, h)) for spec, w, h in specs] == spliced
    assert sum("●" in "".join(ch for ch, _ in row) for rows in spliced for row in rows) > 300  # points were drawn


def _braille_cells(spec, size):
    """How many braille cells each series' colour shows."""
    from rnntui.widgets import plot

    counts = {}
    for row in plot.plot_rows(spec, *size):
        for words, style in row:
            n = sum(0x2800 <= ord(ch) <= 0x28FF for ch in words)
            if n and style is not None:
                counts[style.color.name] = counts.get(style.color.name, 0) + n
    return counts


def test_a_curves_name_covers_none_of_the_curves():
    """parallel/cost at 80x24 wrote "recurrent n·d²" on its own curve's row and hid ~14 columns of
    it: a name moves a row or two off the curves (here, off the flat one and clear of the slope)."""
    from dataclasses import replace

    from rnntui.widgets.tints import BLUE, ORANGE

    xs = tuple(float(x) for x in range(40))
    bare = PlotSpec(series=(Series(xs, (1.0,) * 40, "", BLUE), Series(xs, tuple(x / 39 for x in xs), "", ORANGE)),
                    ylim=(0.0, 1.0))
    named = replace(bare, marks=((8.0, 1.0, "the flat one"),))  # anchored on the flat curve
    assert "the flat one" in text_of(named, (60, 14))
    assert _braille_cells(named, (60, 14)) == _braille_cells(bare, (60, 14))


def test_a_curves_name_steps_aside_from_the_cursors_point():
    """memory/copy at its last step, at 80x24: the accuracy curve's name ended at the cursor's point, which
    wrote over its last letter ("accurac●┤", a lecturer's trial). The name steps aside, as a line's label does."""
    from rnntui.widgets.tints import BLUE, ORANGE

    xs = tuple(float(x) for x in range(40))
    spec = PlotSpec(series=(Series(xs, (1.0,) * 40, "", ORANGE), Series(xs, (0.1,) * 40, "", BLUE)),
                    ylim=(0.0, 1.0), cursor=39.0, marks=((39.0, 1.0, "loss ÷ ln 10"), (39.0, 0.1, "accuracy")))
    for size in ((60, 5), (40, 5)):  # three rows: the loss's name takes the free one, accuracy's stays on its curve
        rows = text_of(spec, size).splitlines()
        row = next(r for r in rows if "accura" in r)
        assert "●" in row and row.index("●") > row.index("accuracy") + len("accuracy"), rows
        assert "loss ÷ ln 10" in text_of(spec, size)


def test_curves_that_share_a_row_of_cells_take_turns_there():
    """Two curves a few dots apart in one row of cells: a cell shows one colour, and the curve drawn
    last had every cell, so the other vanished along the whole stretch (parallel/cost at 80x24 lost
    its recurrent curve between n = 6e3 and 1.2e4). They take turns, three columns each."""
    from rnntui.widgets.tints import BLUE, ORANGE

    xs = tuple(float(x) for x in range(60))
    spec = PlotSpec(series=(Series(xs, (0.50,) * 60, "", BLUE), Series(xs, (0.55,) * 60, "", ORANGE)),
                    ylim=(0.0, 1.0))
    rows = [r for r in text_of(spec, (60, 10)).splitlines() if re.search("[\u2801-\u28ff]", r)]
    assert len(rows) == 1  # one row of cells holds both
    shown = _braille_cells(spec, (60, 10))
    assert len(shown) == 2 and min(shown.values()) >= 0.4 * sum(shown.values()), shown


def test_a_series_behind_gives_its_shared_cells_up_and_shows_where_it_is_alone():
    """recurrence/tanh's tangent took turns with the curve along the stretch where it lies on it, and the
    curve had holes there (a lecturer's trial): the tangent is `behind`, the curve keeps every cell."""
    from rnntui.widgets import plot
    from rnntui.widgets.tints import BLUE, ORANGE

    xs = tuple(float(x) for x in range(60))
    curve = Series(xs, (0.50,) * 60, "", BLUE)
    tangent = tuple(0.55 if x < 40 else 0.55 + (x - 40) * 0.02 for x in xs)  # on the curve, then off it
    behind = PlotSpec(series=(curve, Series(xs, tangent, "", ORANGE, behind=True)), ylim=(0.0, 1.0))
    alone = _braille_cells(PlotSpec(series=(curve,), ylim=(0.0, 1.0)), (60, 10))
    shown = _braille_cells(behind, (60, 10))
    blue, orange = (plot._style(c).color.name for c in (BLUE, ORANGE))
    assert shown[blue] == alone[blue]  # the curve whole
    assert 0 < shown[orange] < alone[blue] / 2  # the tangent where it leaves the curve's row
    turns = _braille_cells(PlotSpec(series=(curve, Series(xs, tangent, "", ORANGE)), ylim=(0.0, 1.0)), (60, 10))
    assert turns[blue] < alone[blue]  # (taking turns, as before: holes in the curve)


def test_a_curves_name_moves_off_a_lines_label_too():
    """A name moved to a row clear of the curves wrote over the label of a line there (parallel/cost
    with n = d = 128 at 40x8: "attention n²·d128"; a review): it moves only to a row clear of text too."""
    from rnntui.figures.parallel import CostState
    from rnntui.widgets.tints import BLUE, ORANGE

    r = CostState(n=256, d=256).read()
    spec = PlotSpec(series=(Series(r.n_values, r.recurrent_cost, "", BLUE), Series(r.n_values, r.attention_cost, "", ORANGE)),
                    lines=(Line(r.crossover_n, f"n = d = {r.crossover_n:g}", GREY, vertical=True),), cursor=256.0,
                    log_x=True, log_y=True, ylim=r.ylim, marks=tuple((x, y, name) for x, y, name in r.names))
    for size in ((40, 7), (45, 7), (51, 7)):
        out = text_of(spec, size)
        assert "n = d = 256" in out and "attention n²·d" in out and "recurrent n·d²" in out, out


def test_a_vertical_lines_label_starts_beside_it_not_across_it():
    """Centred on its line, parallel/cost's "n = d = 256" covered the line and began at the cursor's,
    one line to the left, so it named the wrong one (a newcomer's trial). It starts right of its line,
    or ends left of it at the right edge."""
    series = (Series((1.0, 100.0), (1.0, 100.0), "", RED),)
    for at in (40.0, 97.0):
        spec = PlotSpec(series=series, lines=(Line(at, "n = d", GREY, vertical=True),), xlim=(1, 100))
        rows = render_plot(spec, 60, 12).plain.splitlines()
        label = rows[1].index("n = d")  # the canvas's first row, under the frame
        inner = [c for c, ch in enumerate(rows[4]) if ch == "│"][1:-1]  # (the frame's two sides left out)
        assert len(inner) == 1, rows[4]
        assert inner[0] == (label - 1 if at == 40.0 else label + len("n = d")), (at, rows[1], rows[4])


@pytest.mark.parametrize("x", [4.0, 5.0, 6.0, 9.0, 12.0])
def test_a_curves_name_keeps_a_cell_from_a_vertical_line(x):
    """parallel/cost at d = 16 wrote "│attention n²·d", the name against the n = d line, as if one word
    (a trial). Wherever the name is anchored, a free cell stands between it and the line, and it moves
    no further than that takes."""
    series = (Series((1.0, 100.0), (1.0, 1.0), "", RED),)
    spec = PlotSpec(series=series, lines=(Line(5.0, "", GREY, vertical=True),), xlim=(1, 100), ylim=(0, 100),
                    marks=((x, 50.0, "attention"),))
    rows = render_plot(spec, 60, 12).plain.splitlines()
    row = next(r for r in rows if "attention" in r)
    line = [c for c, ch in enumerate(rows[1]) if ch == "│"][1]  # the line's column (after the frame's side)
    start = row.index("attention")
    assert start - 1 > line or start + len("attention") < line, row
    bare = render_plot(replace(spec, lines=()), 60, 12).plain.splitlines()
    was = next(r for r in bare if "attention" in r).index("attention")
    if was - 1 > line or was + len("attention") < line:
        assert start == was, (row, bare)
    else:  # the least move: just past the line, on whichever side is nearer
        assert min(abs(start - (line + 2)), abs(start + len("attention") - (line - 1))) == 0
        assert abs(start - was) <= len("attention") + 2


def test_the_cursor_marks_a_lines_point_with_a_dot_under_its_scatter_marks():
    """gradients/factors draws its line and a • on each of its points: the cursor's ● on the line was
    replaced by the •, and the current hop had no mark of its own (a newcomer's trial)."""
    x, y = (1.0, 2.0, 3.0, 4.0), (0.2, 0.8, 0.4, 0.6)
    spec = PlotSpec(series=(Series(x, y, "f", RED), Series(x, y, "", RED, marker="•", scatter=True)), cursor=2.0)
    text = render_plot(spec, 40, 12).plain
    assert text.count("●") == 1


def test_a_plot_without_the_rows_it_needs_says_a_taller_terminal_shows_it():
    """The timing lab's plot left blank rows at 80x24 and no word of a plot (a trial)."""
    from rnntui.widgets.plot import EXTRA_ROWS, Plot

    plot = Plot(PlotSpec(series=(Series((1.0, 2.0), (1.0, 2.0)),)), least=EXTRA_ROWS)
    # (no legend: no row for it; then a row of curves fewer, down to 3: serving/cell said "2 rows taller"
    # over 5 blank rows, a trial)
    assert plot.fewest(60) == EXTRA_ROWS - 1 and plot.smallest(60) == EXTRA_ROWS - 2
    said = ["".join(w for w, _ in line) for h in (3, 1) for line in plot.lines(60, h)]
    assert said == ["a terminal 1 row taller shows a plot here", "a terminal 3 rows taller shows a plot here"]
    assert len(plot.lines(60, EXTRA_ROWS)) == EXTRA_ROWS and plot.lines(60, 0) == []
    small = ["".join(w for w, _ in line) for line in plot.lines(60, EXTRA_ROWS - 2)]
    assert len(small) == EXTRA_ROWS - 2 and sum(row.startswith(("│", "┤"), 1) for row in small) == 4  # curves
    # below that, from 4 rows: its top edge and 3 rows of curves or more, no x axis (a line over blank rows read
    # as a plot that failed: recurrence/track in Chinese at 80x24, memory/copy after a run, trials); from 5 its
    # bottom edge closes it (open, a slide's plot read as cropped: a lecturer's trial)
    for h in range(4, EXTRA_ROWS - 2):
        bare = ["".join(w for w, _ in line) for line in plot.lines(60, h)]
        closed = h > 4
        assert len(bare) == h and bare[0].lstrip().startswith("┌") and bare[-1].lstrip().startswith("└") == closed
        assert sum("└" in row for row in bare) == closed and "⠒" in "".join(bare)
        assert sum(row.lstrip(" 0123456789.")[:1] in ("│", "┤") for row in bare) == h - 1 - closed


def test_a_plot_short_of_rows_with_its_legend_below_is_closed_too():
    """lstm/cell at 80x27 stayed open, its legend under the curves (a review): the legend that does not fit in
    the top edge goes below a frame closed from 5 rows, as a plot with its legend on top is."""
    from rnntui.widgets.plot import EXTRA_ROWS, Plot, top_key_fits

    names = ("c_t (cell state)", "h_t = o·tanh(c_t)", "forget gate f_t")
    spec = PlotSpec(series=tuple(Series((0.0, 1.0), (0.0, k / 3), name) for k, name in enumerate(names)))
    plot = Plot(spec, least=EXTRA_ROWS)
    assert not top_key_fits(spec, 70)
    for h in (5, 6, 7):
        rows = ["".join(w for w, _ in line) for line in plot.lines(70, h)]
        assert len(rows) == h and "━━ c_t" in rows[-1] and rows[0].lstrip().startswith("┌"), rows
        assert rows[-2].lstrip().startswith("└") == (h - 1 > 4), rows  # 4 rows above the legend: open


def test_a_plot_a_row_short_puts_its_legend_in_its_top_edge():
    """recurrence/track at 90x28 said "a terminal 1 row taller shows a plot here" over 7 blank rows (a
    trial): one row short of its least, a plot is drawn with its legend in the frame's top edge, with as
    many rows of curves as at its least with the legend below."""
    from rnntui.widgets.plot import EXTRA_ROWS, Plot

    spec = PlotSpec(series=(Series((1.0, 2.0), (1.0, 2.0), "h_t"),), xlabel="t")
    plot = Plot(spec, least=EXTRA_ROWS)
    full, short = ([["".join(w for w, _ in row) for row in plot.lines(60, h)] for h in (EXTRA_ROWS, EXTRA_ROWS - 1)])
    assert full[-1].strip() == "━━ h_t" and "━━ h_t" in short[0] and "━━ h_t" not in "".join(short[1:])
    curves = [sum(1 for row in rows if row.lstrip().startswith(("│", "┤")) or "┤" in row[:8]) for rows in (full, short)]
    assert curves[0] == curves[1] >= 4 and len(short) == EXTRA_ROWS - 1


def test_an_export_short_of_a_plots_rows_names_size_not_the_terminal(tmp_path):
    """`rnntui export` at 100x30 said "a taller terminal shows a plot here" under serving/window, where
    the remedy is --size (a review); the app in a terminal says the terminal."""
    from rnntui.cli import main

    out = tmp_path / "w.txt"
    assert main(["shot", "serving/window", "--size", "80x24", "-o", str(out)]) == 0
    assert SHORT_OF_ROWS.search(out.read_text()) and "taller" not in out.read_text()


@pytest.mark.parametrize("size", [(78, 9), (78, 10), (78, 11), (78, 16), (150, 36)])
def test_a_labelled_line_is_never_beside_a_tick_of_another_value(size):
    """gradients/product at 80x24: "1e50┤float32 max 3.40e+38" read as float32's max at 1e50 (5 rows of
    20 decades, a student's trial). A row a labelled line is drawn on keeps its tick only where the tick's
    value is within a dot or two of the line's; the "1" tick beside the ×1 line stays."""
    import math

    ys = tuple(10.0 ** (-50 + 100 * i / 19) for i in range(20))  # the product's span, 1e-50 … 1e50
    spec = PlotSpec(series=(Series(XS, ys, "product"),), lines=LINES, log_y=True)
    rows = text_of(spec, size).splitlines()
    ticks = [(i, math.log10(float(m.group(1)))) for i, row in enumerate(rows) if (m := re.match(r"\s*(1|1e-?\d+)┤", row))]
    assert any(rows[i].lstrip().startswith("1┤") and "×1" in rows[i] for i, _ in ticks)
    for i, decade in ticks:
        for value, label in ((F32_MAX, "float32 max"), (F32_TINY, "float32 min normal")):
            if label in rows[i]:
                assert len(ticks) >= 2, rows[i]
                per_dot = (ticks[0][1] - ticks[-1][1]) / (ticks[-1][0] - ticks[0][0]) / 4  # decades a braille dot
                assert abs(decade - math.log10(value)) <= 1.5 * per_dot, rows[i]
    assert sum("float32" in row for row in rows) == 2


def test_a_lines_label_goes_to_the_end_of_its_row_that_hides_less_of_the_curves():
    """gradients/factors' "W_h 0.90" and attention/scaling's "one-hot" sat over the curve's last points
    at the right end of their rows, the left end clear (a student's trial): a label moves to the end
    that covers fewer of the series' cells, and stays where both are clear."""
    xs = tuple(range(20))
    late = Series(xs, tuple(1.0 if x >= 12 else 0.0 for x in xs), "late", GREY)
    early = Series(xs, tuple(1.0 if x <= 7 else 0.0 for x in xs), "early", GREY)
    for series, at_left in ((late, True), (early, False)):
        spec = PlotSpec(series=(series,), lines=(Line(1.0, "one-hot", RED, align="right"),), ylim=(-0.1, 1.1))
        row = next(line for line in text_of(spec, (60, 12)).splitlines() if "one-hot" in line)
        inside = row[row.index("┤") + 1:row.rindex("┤") if row.count("┤") > 1 else None]
        assert inside.startswith("one-hot") == at_left, row
    clear = PlotSpec(series=(Series(xs, (0.0,) * 20, "flat", GREY),), lines=(Line(1.0, "one-hot", RED, align="right"),),
                     ylim=(-0.1, 1.1))
    row = next(line for line in text_of(clear, (60, 12)).splitlines() if "one-hot" in line)
    assert row.rstrip("│ ┤").endswith("one-hot"), row  # both ends clear: where it was asked to be


@pytest.mark.parametrize("rows", range(3, 13))
def test_ticks_stay_within_half_a_step_of_the_range_asked_for(rows):
    """recurrence/track's h_t plot asks for -1 … 1; at 4 rows its axis read "0┤ … -2┤" (a review). No
    tick is labelled half a step or more beyond the range; -1, 0 and 1 are among those drawn."""
    from rnntui.widgets.axes import y_axis

    _y0, _y1, ticks = y_axis(-1.0, 1.0, rows, False)
    values = [value for _row, _label, value in ticks]
    step = min(b - a for a, b in zip(sorted(values), sorted(values)[1:]))
    assert all(-1.0 - step / 2 <= v <= 1.0 + step / 2 for v in values) and 0.0 in values, ticks


RANGES = [(0, 1400), (0, 1.4e6), (1e-4, 1e-3), (-1400, -200), (-3e6, 3e6), (0, 3e-5), (-0.5, 0.25)]


@pytest.mark.parametrize("lo, hi", RANGES)
def test_each_tick_label_reads_back_as_its_tick(lo, hi):
    """memory/copy's x axis read "1e+03 1e+03 1e+03" for 1000, 1200, 1400: every label, x axis or y axis,
    names its own value, so no two ticks read alike, and from 1e-4 to below 1e6 it is written plainly."""
    from rnntui.widgets.axes import y_axis

    ticks, labels = nice_ticks(lo, hi, most=8)
    pairs = list(zip(ticks, labels)) + [(t, label) for _row, label, t in y_axis(lo, hi, 20, False)[2]]
    assert len(pairs) > len(ticks) + 2
    for tick, label in pairs:
        assert float(label) == pytest.approx(tick, rel=1e-9, abs=1e-15), (tick, label)  # 1, 2, 5 × 10^k: exact
        assert ("e" in label) == (tick != 0 and not 1e-4 <= abs(tick) < 1e6), (tick, label)
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize("at", [0.0, 19.0])
def test_a_cursor_at_either_end_draws_its_points_and_no_line_beside_the_frame(at):
    """At the last step of many a slide the cursor's line stood against the frame's edge, doubling it
    ("││" down the plot, "┬┐" on top; a lecturer's trial): there it draws only its ●; inside, its line."""
    xs = tuple(float(x) for x in range(20))
    spec = PlotSpec(series=(Series(xs, tuple(x / 19 for x in xs), "rising"),), cursor=at, ylim=(0.0, 1.0))
    rows = text_of(spec, (60, 12)).splitlines()
    assert "●" in "".join(rows)
    assert not any("││" in row or "│┤" in row or "├│" in row or "┤│" in row for row in rows), "\n".join(rows)
    assert not any(pair in rows[0] for pair in ("┌┬", "┬┐"))
    inside = text_of(PlotSpec(series=spec.series, cursor=9.0, ylim=(0.0, 1.0)), (60, 12)).splitlines()
    assert "┬" in inside[0] and sum("│" in row[8:-2] for row in inside) >= 5  # (its line, within the frame)


@pytest.mark.parametrize("size", [(80, 20), (80, 24), (100, 30)])
def test_a_plot_without_its_rows_names_the_size_that_shows_it(size):
    """A plot-less line over blank rows read as a plot that failed (a newcomer's trial): the line names
    the size at which the plot is drawn, and it is exact: there the plot, a row shorter still the line.
    It counts the prose that a short terminal hides (below 24 rows) and parts that give rows back
    (lstm/params' bars, parallel/timing's blank lines)."""
    import one_app
    from rnntui.topics import topics

    named = []
    for screen in topics():
        for f in screen.FIGURES:
            m = SHORT_OF_ROWS.search(one_app.txt(screen, f, f.state_type(), size))
            if not m:
                continue
            w, h = map(int, m.groups())
            named.append(f.id)
            assert w == size[0] and h > size[1]
            assert "shows a plot here" not in one_app.txt(screen, f, f.state_type(), (w, h)), (f.id, h)
            assert SHORT_OF_ROWS.search(one_app.txt(screen, f, f.state_type(), (w, h - 1))), (f.id, h)
    # (recurrence/track, 3 rows or more short of its axes at 80x20 and 80x24, is drawn without its x axis)
    assert set(named) >= {"80x20": set(), "80x24": {"params", "timing"}, "100x30": set()}[
        "{}x{}".format(*size)]
    if size == (100, 30):  # (wayback, cell and params said it over 3–5 blank rows: they draw it smaller)
        assert named == []


async def test_in_the_app_a_plot_short_of_rows_is_drawn_without_its_x_axis():
    """At 80x24 recurrence/track said "a terminal 2 rows taller shows a plot here" over blank rows: there and
    at 80x25 the curve is drawn in them against its y axis, with its legend in its top edge (at 80x25 its
    bottom edge closes it, without the x ticks' numbers); at 80x26 with its x axis too."""
    from rnntui.app import RnnApp
    from rnntui.screens.recurrence import TrackState

    said = {}
    for h in (24, 25, 26):
        app = RnnApp("recurrence", "track", state=TrackState(step=3))
        async with app.run_test(size=(80, h)) as pilot:
            await pilot.pause()
            plot = app.topic_screen().query_one("#track").query_one(Plot)
            said[h] = ["".join(text for text, _style in row) for row in plot.lines(*plot.size)]
    for h in (24, 25, 26):
        drawn = "".join(said[h])
        assert "shows a plot" not in drawn and "h_t, computed so far" in said[h][0] and "●" in drawn
    assert [("└" in rows[-1], any(c.isdigit() for c in rows[-1])) for rows in said.values()] == [
        (False, True), (True, False), (False, True)]  # 24: a curve row (its y tick 1); 25: the edge; 26: x ticks


def test_a_legend_too_wide_for_its_line_breaks_between_entries():
    """"◆ time, so" lost the rest of its name at 44 columns (a review): a legend too wide for the plot
    goes on over lines, broken between entries, never inside one, each line within the width."""
    spec = PlotSpec(series=(Series((1.0, 2.0), (1.0, 2.0), "FLOPs (d/T)"), Series((1.0, 2.0), (2.0, 1.0), "time here"),
                            Series((1.0,), (1.0,), "time, source's laptop", marker="◆", scatter=True)))
    wide = render_plot(spec, 80, 12).plain.splitlines()
    assert wide[-1].strip() == "━━ FLOPs (d/T)  ┈┈ time here  ◆ time, source's laptop"
    narrow = render_plot(spec, 40, 12).plain.splitlines()
    assert [line.strip() for line in narrow[-2:]] == ["━━ FLOPs (d/T)  ┈┈ time here", "◆ time, source's laptop"]
    assert len(narrow) == 12 and all(len(line) <= 40 for line in narrow)


@pytest.mark.parametrize("size, step", [((80, 24), None), ((120, 40), 10), ((160, 48), 10)])
def test_a_threshold_label_over_its_curves_goes_beside_its_line_with_an_arrow(size, step):
    """memory/distractor's "f = 0.95" sat on the forget gate's curve at 80x24 (a trial): a label allowed
    aside goes, where a series fills its line's row at both ends, to the free row next to it with an arrow
    to the line, and the curve's cells there are drawn whole; a plain one (chance, which a series runs
    along) stays on its line."""
    import one_app
    from rnntui.topics import find

    screen, figure = find("memory/distractor")
    state = figure.state_type() if step is None else figure.state_type().with_value(figure.state_type().AXIS, step)
    rows = one_app.txt(screen, figure, state, size).splitlines()  # (at 120x40, step 10, it stayed on the curve
    # at the left end: a review)
    at = next(i for i, row in enumerate(rows) if "f = 0.95" in row)
    start = rows[at].index("f = 0.95")
    arrow = rows[at][start + 8]
    line = at - 1 if arrow == "↑" else at + 1
    assert arrow in "↑↓" and rows[line][start:start + 9].strip() and all(
        0x2800 <= ord(ch) <= 0x28FF or ch == "●" for ch in rows[line][start:start + 9])  # the curve's dots, whole
    # (a plain label staying on its line: test_a_line_label_under_the_cursors_point_steps_aside_whole)


def test_two_marks_at_the_right_edge_do_not_write_over_each_other():
    """Two ▲ marks near the right edge were both pushed in to the same cells ("▲▲NaN", the inf lost, a
    review): the second goes a row inwards, both words whole."""
    ys = (1.0,) * 18 + (float("inf"), float("nan"))
    text = text_of(PlotSpec(series=(Series(XS, ys),), log_y=True, xlim=(0, 19)), size=(30, 12))
    assert "▲inf" in text and "▲NaN" in text


def test_a_legend_goes_into_the_top_edge_only_whole():
    """One row short, serving/wayback at 60 columns moved its legend into the frame's top edge, where
    "orthonormal keys" was cut away (a review): a legend that does not fit there whole keeps its rows
    below, and the plot needs its least rows; every entry is on screen."""
    import one_app
    from rnntui.figures.serving import WaybackState
    from rnntui.topics import find

    for h in range(40, 46):
        text = one_app.txt(*find("serving/wayback"), WaybackState(step=11), (60, h))
        if "┌" in text.split("recall error, ")[-1]:  # the plot is drawn
            assert all(words in text for words in ("━━ random unit keys (measured)", "┈┈ √((n−1)/d)",
                                                   "╍╍ orthonormal keys")), h


def test_a_plot_short_of_rows_leaves_out_its_x_label_then_puts_its_legend_on_top_before_giving_up():
    """attention/scaling at 60x20 wrote "(too small to plot)" over five blank rows (a trial): a plot with an
    x label and a legend below leaves out the label, then moves its legend into the top edge, keeping its
    curves' names and two rows of curves; with 4 rows it gives up."""
    spec = PlotSpec(series=(Series(XS, tuple(x / 19 for x in XS), "up"), Series(XS, tuple(1 - x / 19 for x in XS), "down")),
                    xlabel="the x label", legend="below")
    rows = text_of(spec, (60, 7)).splitlines()
    assert "the x label" in rows[-2] and "━━ up  ┈┈ down" in rows[-1]  # room for all of it
    rows = text_of(spec, (60, 6)).splitlines()
    assert len(rows) == 6 and "the x label" not in "".join(rows) and "━━ up  ┈┈ down" in rows[-1]
    rows = text_of(spec, (60, 5)).splitlines()
    assert len(rows) == 5 and rows[0].lstrip().startswith("┌─ ━━ up  ┈┈ down")  # the legend in the top edge
    assert [r.lstrip()[:2] for r in rows[1:3]] == ["1┤", "0┤"] and rows[3].lstrip().startswith("└")
    assert text_of(spec, (60, 4)) == "(too small to plot)"


class TallApp(App):
    def compose(self):
        yield Plot(PlotSpec(series=(Series(XS, tuple(np.linspace(0, 1, 20)), "acc"),), title="the title",
                            xlabel="the x label", legend="below", marks=((XS[-1], 1.0, "acc end"),)), tall=9)


async def test_a_plot_leaves_out_its_tall_only_parts_below_tall_rows_as_it_is_drawn():
    """memory/copy chose its plot's title, x label and marks from the plot's height before its layout: on 8
    rows after a state whose plot had 9, and its check once laid out came too late for some exports (the
    lecture deck's memory/copy frame came out two ways, 3 exports in 10). The plot decides at its height."""
    app = TallApp()
    async with app.run_test(size=(60, 9)) as pilot:
        plot = app.query_one(Plot)
        drawn = {}
        for h in (9, 8, 9):
            await pilot.resize_terminal(60, h)
            await pilot.pause()
            assert plot.size.height == h
            drawn.setdefault(h, []).append("\n".join("".join(t for t, _s in row) for row in plot.lines(*plot.size)))
    tall, short = drawn[9][0], drawn[8][0]
    assert all(part in tall for part in ("the title", "the x label", "acc end", "━━ acc"))
    assert not any(part in short for part in ("the title", "the x label", "acc end"))
    assert short.splitlines()[0].lstrip().startswith("┌─ ━━ acc") and drawn[9][1] == tall  # (legend: top edge)


def test_a_plot_leaves_its_title_and_x_label_out_below_labels_from():
    """A view chose them for the rows its plot had as it drew: after a switch of language the plot's rows
    changed with its neighbours' words, and the choice was the other language's (a keyboard audit). The plot
    makes it at its own height as it draws."""
    spec = PlotSpec(series=(Series((0.0, 1.0, 2.0), (0.0, 1.0, 0.5), "y"),), title="the title", xlabel="the x label",
                    labels_from=10)
    for height, shown in ((9, False), (10, True), (14, True)):
        text = "\n".join("".join(t for t, _s in row) for row in plot_rows(spec, 60, height))
        assert ("the title" in text, "the x label" in text) == (shown, shown), height
