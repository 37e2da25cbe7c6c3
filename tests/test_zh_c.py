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


# -- the catalogue: every msgid of group c's files has a Chinese msgstr ------------------------------------
PARTS = ROOT / "rnntui" / "locale" / "zh" / "LC_MESSAGES" / "rnntui.po"  # the catalogue these topics were translated into
SOURCES = ["rnntui/figures/memory.py", "rnntui/figures/serving.py", "rnntui/screens/memory.py",
           "rnntui/screens/serving.py", "rnntui/widgets/cellsheet.py", "rnntui/widgets/wayback.py", "rnntui/labs.py",
           "rnntui/serve.py", "rnntui/widgets/plot.py"]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def parts():
    from babel.messages.pofile import read_po

    with open(PARTS, "rb") as f:
        return read_po(f, locale="zh")


def source_msgids():
    from babel.messages.extract import extract_from_file

    found = []
    for path in SOURCES:
        for _, message, _, _ in extract_from_file("python", str(ROOT / path), keywords=KEYWORDS):
            found.append(message[0] if isinstance(message, tuple) else message)
    return found


def test_the_parts_file_translates_every_msgid_of_memory_serving_labs_serve_and_plot():
    pytest.importorskip("babel")
    catalogue = parts()
    ids = source_msgids()
    assert len(ids) > 100
    missing = [m for m in ids if m not in catalogue or not catalogue[m].string
               or not all(catalogue[m].string if isinstance(catalogue[m].string, tuple) else [catalogue[m].string])]
    assert not missing, missing[:5]


def test_every_translation_keeps_the_placeholders_of_its_msgid():
    pytest.importorskip("babel")
    field = re.compile(r"\{[^{}]*\}")
    mine = set(source_msgids())
    for m in parts():
        if not m.id or m.id not in mine:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strs:
            assert sorted(set(field.findall(s))) == sorted(set(field.findall(ids[-1]))), (m.id, s)
            assert s.format(**{k[1:-1]: "x" for k in field.findall(ids[-1]) if k[1:-1]}) is not None


# -- rendering in Chinese: every figure of memory and serving at 80×24 ------------------------------------
@pytest.fixture
def chinese(tmp_path, monkeypatch):
    """Chinese from the shipped catalogue with this group's parts over it, compiled into a temporary .mo
    (so the test does not wait for the parts to be merged into the main .po)."""
    pytest.importorskip("babel")
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    from rnntui import i18n

    with open(i18n.po_path("zh"), "rb") as f:
        catalogue = read_po(f, locale="zh")
    for m in parts():
        if m.id:
            catalogue[m.id] = m
    target = tmp_path / "zh" / "LC_MESSAGES" / "rnntui.mo"
    target.parent.mkdir(parents=True)
    with open(target, "wb") as f:
        write_mo(f, catalogue)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.set_language("zh")
    yield
    i18n.set_language("en")


def states():
    """Each figure's slide steps, and the memory lab's every status."""
    from rnntui.figure import LabRun
    from rnntui.figures.memory import CopyState
    from rnntui.screens.memory import MemoryScreen
    from rnntui.screens.serving import ServingScreen

    for screen in (MemoryScreen, ServingScreen):
        for f in screen.FIGURES:
            for step in f.slide_steps():
                yield screen, f, f.state_type().with_value(f.state_type.AXIS, step)
    copy = MemoryScreen.figure_by_id("copy")
    partial = {"cell": "lstm-bf2", "T": 5, "step": 150, "steps": 6000, "curve": [[100, 0.5, 1.2]]}
    for run in (LabRun(status="confirm", message="x"), LabRun(status="running", number=1, partial=partial),
                LabRun(status="cancelled", number=1, partial=partial, message="cancelled"),
                LabRun(status="failed", number=1, message="ModuleNotFoundError: No module named 'torch'")):
        yield MemoryScreen, copy, CopyState(cell="lstm-bf2", T="80" if run.status == "confirm" else "5", run=run)


@pytest.mark.heavy
def test_every_figure_renders_in_chinese_within_80_cells_with_its_panel_closed(chinese):
    from rnntui.i18n import _
    from rnntui.render import render

    for screen, f, state in states():
        text = render(screen, f, state, "txt", (80, 24))
        lines = text.splitlines()
        assert len(lines) == 24
        for line in lines:
            assert cell_len(line) <= 80, line
        inside = [line for line in lines if line.startswith("│")]
        assert inside and all(cell_len(line) == 80 and line.endswith("│") for line in inside), f.id
        assert _(screen.TITLE) in text and _(screen.TITLE) != screen.TITLE
        assert _(f.title) in text and _(f.prose) != f.prose and f.prose[:25] not in text


def test_chinese_shows_the_same_key_numbers(chinese):
    from rnntui.figures.serving import KvState
    from rnntui.render import render
    from rnntui.screens.serving import ServingScreen

    text = render(ServingScreen, ServingScreen.figure_by_id("kvcache"), KvState(context=131_072), "txt", (80, 24))
    assert "64 GiB" in text and "256 KiB" in text and "262,144×" in text and "加速卡" in text
    assert "does not fit" not in text and "accelerator" not in text


def test_lab_runner_words_are_translated_when_made(chinese, monkeypatch):
    """The runner's own news (cancelled, ended without a result) reaches the screen in Chinese."""
    import textual.worker

    from rnntui import labs
    from rnntui.figure import LabRun

    class Screen:
        def __init__(self):
            self.got = []

        def post_message(self, message):
            self.got.append(message.run)

    class Dead:  # a child that ended, or one to be killed
        def is_alive(self):
            return False

    class Quiet:  # a pipe with nothing in it
        def poll(self, timeout=0):
            return False

        def close(self):
            pass

    for cancelled, want in ((True, "已取消"), (False, "实验进程结束了，却没有返回结果")):
        worker = type("W", (), {"is_cancelled": cancelled})()
        monkeypatch.setattr(textual.worker, "get_current_worker", lambda: worker)
        screen = Screen()
        labs.LabRunner(screen)._watch("copy", LabRun(status="running", number=1), Quiet(), Dead())
        assert [r.message for r in screen.got] == [want]
