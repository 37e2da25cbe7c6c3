"""Chinese for group c (issue 17): memory, serving, the lab runner's and `rnntui serve`'s messages,
and the plot widget's labels placed by terminal cells (a CJK character takes two)."""
import ast
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from rnntui.widgets.plot import BLUE, GREY, ORANGE, RED, Line, PlotSpec, Series, _Canvas, plot_rows, render_plot

ROOT = Path(__file__).resolve().parent.parent


# -- the plot: Chinese labels by cells -------------------------------------------------------------------
def chinese_plot(legend="below"):
    x = (0.0, 1.0, 2.0, 3.0, 4.0)
    return PlotSpec(
        series=(Series(x, (0.0, 0.2, 0.5, 0.7, 1.0), "准确率", BLUE),
                Series(x, (1.0, 0.8, 0.5, 0.3, 0.1), "损失 ÷ ln 10（1：瞎猜）", ORANGE)),
        lines=(Line(0.1, "随机猜测 10%", GREY, align="right"), Line(0.5, "中线", GREY),
               Line(2.0, "截断", RED, vertical=True, dashed=True)),
        cursor=2.0, title="lstm T=20：每 100 步的准确率", xlabel="训练步", legend=legend)


@pytest.mark.parametrize("legend", ["below", "inside"])
@pytest.mark.parametrize("width, height", [(40, 14), (61, 15), (80, 20), (23, 9)])
def test_a_plot_with_chinese_labels_draws_rows_of_exactly_width_cells(legend, width, height):
    rows = render_plot(chinese_plot(legend), width, height).plain.split("\n")
    frame = [r for r in rows if r.rstrip()[-1:] in ("┐", "│", "┤", "┘")]
    assert len(frame) >= 5
    for row in frame:  # the frame's rows: every one exactly `width` cells, the right edge in the last cell
        assert cell_len(row) == width, row
    assert all(cell_len(r) <= width for r in rows)
    top = next(i for i, r in enumerate(rows) if "┌" in r)
    left = rows[top].index("┌")
    for row in rows[top:top + len(frame)]:  # the left edge in one column on every row
        assert row[left] in "┌│┤├└"
    text = "\n".join(rows)
    if width >= 40:  # whole labels, not characters split from their second cell
        assert "随机猜测 10%" in text and "中线" in text and "截断" in text and "训练步" in text
        assert "准确率" in text


def test_the_chinese_legend_below_is_cut_by_cells():
    for width in range(16, 45):
        rows = plot_rows(chinese_plot(), width, 14)
        legend = "".join(words for words, _ in rows[-1])
        assert cell_len(legend) <= width and legend.startswith("━━ 准")


def test_half_of_a_wide_character_covered_leaves_a_space_not_a_broken_row():
    cv = _Canvas(10, 2, (0, 1), (0, 1))
    cv.text(0, 0, "中线", None)  # cells 0-1 and 2-3
    cv.put(0, 1, "●", None)  # over the second half of 中
    cv.put(0, 2, "x", None)  # over the first half of 线
    cv.put(1, 9, "截", None)  # would straddle the right edge: a space
    code, _, _ = cv.resolve()
    row0 = "".join(chr(c) for c in code[0] if c)
    assert row0 == " ●x" + " " * 7 and cell_len(row0) == 10
    assert "截" not in "".join(chr(c) for c in code[1] if c)
