"""Chinese (issue 17), from the shipped catalogue: every figure of every topic fits 80×24 with its
panel closed and its words translated (memory and serving at each slide step and each lab status
too), the telling numbers read the same in Chinese, the topic titles are the seed's headings, the
lab runner's words reach the screen in Chinese, and the plot places Chinese labels by terminal
cells (a CJK character takes two).

That every msgid has a Chinese msgstr keeping its placeholders is tests/test_i18n.py's
test_every_msgid_has_a_chinese_translation_that_keeps_its_placeholders."""
import asyncio
import io
import re

import pytest
from rich.cells import cell_len

from rnntui.i18n import _, set_language
from rnntui.topics import IDS, topic, topics
from rnntui.widgets.plot import BLUE, GREY, RED, Line, PlotSpec, Series, _Canvas, legend_lines, plot_rows, render_plot
from rnntui.widgets.tints import ORANGE


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


async def _frames(states, size=(80, 24)) -> list[str]:
    """Each (screen, figure, state) drawn as text by one headless app."""
    from rnntui.render import Session

    async with Session(size) as session:
        return [(await session.frame(screen, figure, state, ("txt",)))["txt"] for screen, figure, state in states]


def slide_and_lab_states():
    """Memory's and serving's every slide step, and the memory lab's every status."""
    from rnntui.figure import LabRun
    from rnntui.figures.memory import CopyState

    memory, serving = topic("memory"), topic("serving")
    for screen in (memory, serving):
        for f in screen.FIGURES:
            for step in f.slide_steps():
                yield screen, f, f.state_type().with_value(f.state_type.AXIS, step)
    copy = memory.figure_by_id("copy")
    partial = {"cell": "lstm-bf2", "T": 5, "step": 150, "steps": 6000, "curve": [[100, 0.5, 1.2]]}
    for run in (LabRun(status="confirm", message="x"), LabRun(status="running", number=1, partial=partial),
                LabRun(status="cancelled", number=1, partial=partial, message="cancelled"),
                LabRun(status="failed", number=1, message="ModuleNotFoundError: No module named 'torch'")):
        yield memory, copy, CopyState(cell="lstm-bf2", T="80" if run.status == "confirm" else "5", run=run)


@pytest.mark.heavy
def test_every_figure_renders_in_chinese_within_80_cells_with_its_panel_closed(zh):
    defaults = [(screen, f, f.state_type()) for screen in topics() for f in screen.FIGURES]
    states = defaults + list(slide_and_lab_states())
    frames = asyncio.run(_frames(states))
    assert {screen.TOPIC_ID for screen, _f, _s in defaults} == set(IDS) and len(defaults) >= 36
    assert len(frames) == len(states) > len(defaults)
    for (screen, f, state), text in zip(states, frames):
        where = (screen.TOPIC_ID, f.id, state)
        lines = text.splitlines()
        assert len(lines) == 24, where
        wide = [line for line in lines if cell_len(line) > 80]
        assert not wide, (where, wide)
        # the panel closed on both sides: from the row under the header to the one above the footer,
        # its top, its sides and its bottom; every side row exactly 80 cells wide
        panel = lines[2:-1]
        assert all(line.startswith(("╭", "│", "╰")) for line in panel), where
        assert all(line.endswith(("╮", "╯")) or line.rstrip().endswith("│") for line in panel[1:-1]), where
        inside = [line for line in lines if line.startswith("│")]
        assert inside and all(cell_len(line) == 80 and line.endswith("│") for line in inside), where
        # the topic title in the header, the figure title and the prose in Chinese, the English gone
        assert _(screen.TITLE) != screen.TITLE and _(screen.TITLE) in lines[0], where
        assert _(f.title) != f.title and _(f.title) in text, where
        prose = _(f.prose)
        assert prose != f.prose and prose[:12] in text.replace("│ ", ""), where
        english = (f.prose[:25], f.prose.split(".")[0][:30])
        if any(words in prose for words in english):  # a translation that starts with the same names
            assert screen.TOPIC_ID in ("seq2seq", "attention", "parallel"), where  # (attention's summary)
        else:
            assert not any(words in text for words in english), where
    drawn = {(screen.TOPIC_ID, f.id): text for (screen, f, _s), text in zip(defaults, frames)}
    # one kind of colon on a line (lstm/gru's legend read "GRU：写入 …  ● LSTM: (f, i)"); a lab's failure
    # quotes Python's English error after its Chinese words, so only the figures' own states here
    mixed = [(where, line) for where, text in drawn.items() for line in text.splitlines() if "：" in line and ": " in line]
    assert not mixed
    assert "对齐矩阵" in drawn[("seq2seq", "matrix")] and "自带模型，4000 条新序列" in drawn[("seq2seq", "matrix")]
    assert "有工作的步" in drawn[("parallel", "grid")]
    assert "那只" in drawn[("attention", "qkv")]  # the tokens stay Chinese, in both languages


def test_chinese_says_the_same_numbers(zh):
    """The telling states read the same numbers in Chinese: the seed's comparisons (0.884 vs 0.899,
    hop 178 vs 161, step 9 vs hop 11), the shift at k = 3 (x_12 read from h_13), the grid's tally at
    recurrent n = 8 after 8 steps, A[跑,猫] at the softmax stage, the KV cache at 131,072 tokens."""
    from rnntui.figures.attention import A_STAGE, QkvState
    from rnntui.figures.gradients import FactorsState, ProductState
    from rnntui.figures.lstm import ForgetPathState
    from rnntui.figures.parallel import GridState
    from rnntui.figures.seq2seq import MatrixState
    from rnntui.figures.serving import KvState

    def at(address, state):
        tid, fid = address.split("/")
        return topic(tid), topic(tid).figure_by_id(fid), state

    factors, product, path, matrix, grid, qkv, kv = asyncio.run(_frames([
        at("gradients/factors", FactorsState()), at("gradients/product", ProductState()),
        at("lstm/path", ForgetPathState()), at("seq2seq/matrix", MatrixState(step=3)),
        at("parallel/grid", GridState(mode="recurrent", n=8, step=8)), at("attention/qkv", QkvState(stage=A_STAGE)),
        at("serving/kvcache", KvState(context=131_072))]))
    assert "原文 0.884 ≠ 本程序 0.899" in factors and "原文的链不可能以 T1 的 token 开头" in factors
    assert "第 178 跳（原文 161）" in product and "跌破" in product and "3.36e-43（原文 9.8e-48）" in product
    assert "11（原文：第 9 跳）" in path  # (hop 11: test_lstm redoes it by hand)
    r = MatrixState(step=3).readings()
    assert (r.copies, r.looks_at) == (12, 13)
    shift = "".join(line.split("│")[1][40:].strip() for line in matrix.splitlines() if line.count("│") >= 2)
    assert "抄 x_12" in matrix and "h_13" in matrix and "右移一列" in shift  # (read down the right column)
    assert "有工作的步 8/8" in grid and "忙碌格 8/64" in grid
    assert "A[跑,猫] 0.6488" in qkv
    assert "64 GiB" in kv and "256 KiB" in kv and "262,144×" in kv and "加速卡" in kv
    assert "does not fit" not in kv and "accelerator" not in kv


def test_the_topic_titles_are_the_seed_headings(zh):
    assert [_(topic(t).TITLE) for t in ("recurrence", "gradients", "lstm")] == \
        ["一次一个 token", "梯度为什么死在循环里", "让这个乘积活下来的门"]


def test_lab_runner_words_are_translated_when_made(zh, monkeypatch):
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

        def wait(self, timeout=None):
            return 0

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


def test_a_cut_matrix_says_how_many_columns_it_shows_in_chinese(zh):
    from rnntui.widgets.matrix import MatrixSpec, matrices_text

    spec = MatrixSpec(tuple(tuple(float(j) for j in range(64)) for _ in range(3)), "X", ("a", "b", "c"))
    first = matrices_text([spec], 60).plain.splitlines()[0]
    assert "共 64 列，显示" in first and "columns" not in first, first
    set_language("en")  # and after a live switch, not the drawing kept from the other language (a review)
    assert "of 64 columns" in matrices_text([spec], 60).plain.splitlines()[0]
    set_language("zh")
    assert "共 64 列，显示" in matrices_text([spec], 60).plain.splitlines()[0]


def test_the_chinese_legend_below_is_cut_by_cells():
    for width in range(16, 45):
        rows = plot_rows(chinese_plot(), width, 14)
        legend = ["".join(words for words, _ in line) for line in legend_lines(chinese_plot(), width)]
        assert [["".join(words for words, _ in row) for row in rows[-len(legend):]]] == [legend]
        assert all(cell_len(line) <= width for line in legend) and legend[0].startswith("━━ 准")


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


def test_choice_words_in_chinese_sentences_and_headings_are_chinese(zh):
    """attention/scaling's rows read "▸unscaled / scaled", attention/qkv's X "noun verb det adv" and
    heads' titles "A（causal）" in Chinese slides (a newcomer's trial). The footer keeps a parameter's
    value as --set takes it."""
    from rnntui.render import render
    from rnntui.topics import build_state, find

    def body(address, step=None):
        screen, figure = find(address)
        text = render(screen, figure, build_state(figure, (), step), "txt", (100, 30))
        return "\n".join(line for line in text.splitlines() if "←→" not in line)  # (not the parameter line)

    scaling, qkv, heads = body("attention/scaling"), body("attention/qkv", 1), body("attention/heads")
    assert "▸不缩放" in scaling and "缩放" in scaling and "scaled" not in scaling
    assert "名词" in qkv and "noun" not in qkv
    assert "A（因果）" in heads and "causal" not in heads


def test_a_one_character_chinese_cell_is_text_under_its_heading(zh):
    """attention/summary's 否/是 were right-aligned as if numbers, far from 训练可并行 (a review): a cell of
    text is one that takes more than one cell, 是 too."""
    from rich.cells import cell_len as cells

    from rnntui.figures.attention import SummaryState
    from rnntui.widgets.matrix import MatrixSpec, matrices_text

    r = SummaryState().readings()
    spec = MatrixSpec(tuple(tuple(_(t) for t in row) for row in r.table), "", r.models,
                      tuple(_(h) for h in r.headers[1:]), shrink=True)
    lines = matrices_text([spec], 96, 20).plain.splitlines()
    head = next(l for l in lines if "训练可" in l)
    row = next(l for l in lines if "否" in l)
    assert cells(row[:row.index("否")]) == cells(head[:head.index("训练可")])


def test_a_full_width_bracket_after_a_value_has_no_space_before_it(zh):
    """"805M （占全部 10.0%）" and "0 （严格为 0）" read as a stray space (a review): a full-width bracket carries its own."""
    from rnntui.figures.attention import BlockState
    from rnntui.figures.lstm import GatesState

    states = [(topic(t), topic(t).figure_by_id(f), s) for t, f, s in
              (("attention", "block", BlockState()), ("lstm", "gates", GatesState(f=0.99, i=1.0)))]
    text = "\n".join(asyncio.run(_frames(states, (100, 30))))
    for note in ("（占全部", "（远在图的上方）"):  # (qkv's "0 （严格为 0）" reads "变化恰为 0" now)
        assert note in text and f" {note}" not in text, note


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_alpha_bars_stand_under_the_letters_they_weigh(lang, size):
    """seq2seq/matrix's α_k bars line up with the input x letters: in Chinese ("输入 x", 7 cells, where
    "input x" is 9) the tallest bar stood two letters right, under x₁₁ for h_9 (a student's trial)."""
    from rich.cells import cell_len

    from rnntui.figures.seq2seq import letters
    from rnntui.render import render
    from rnntui.topics import build_state, find

    set_language(lang)
    try:
        screen, figure = find("seq2seq/matrix")
        state = build_state(figure, (), 7)
        text = render(screen, figure, state, "txt", size)
    finally:
        set_language("en")
    r = state.readings()
    lines = text.splitlines()
    x_line = next(l for l in lines if ("输入 x" if lang == "zh" else "input x") in l)
    bar_line = next(l for l in lines if "α_k" in l)
    first = cell_len(x_line[:x_line.rindex(letters(r.x))])
    tallest = max(range(len(r.row)), key=lambda j: r.row[j])
    assert tallest == r.looks_at  # (the weight the sentence names, the bar drawn tallest)
    heights = {cell_len(bar_line[:i]): "▁▂▃▄▅▆▇█".index(ch) for i, ch in enumerate(bar_line) if ch in "▁▂▃▄▅▆▇█"}
    assert max(heights, key=heights.get) == first + tallest, (x_line, bar_line)


def test_help_fills_its_chinese_lines(zh):
    """Help broke Chinese at spaces only, as Rich does: "图下方的“W_h W_x" ended its line with half the
    box empty, "b：本主题…" on the next (a student's trial). Its prose wraps as the figures' text does:
    every line but a paragraph's last is nearly full."""
    from types import SimpleNamespace

    from rich.cells import cell_len
    from rich.console import Console

    from rnntui.help import help_renderable
    from rnntui.screens.recurrence import RecurrenceScreen

    figure = RecurrenceScreen.FIGURES[0]
    screen = SimpleNamespace(TOPIC_ID="recurrence", figure=figure, state=figure.state_type(),
                             FIGURES=RecurrenceScreen.FIGURES, SHARED=RecurrenceScreen.SHARED)
    console = Console(width=96, record=True, file=io.StringIO())
    console.print(help_renderable(screen))
    lines = console.export_text().splitlines()
    prose = lines[1:lines.index("")]  # the title's line, then the prose up to the blank line
    paragraph_ends = [i for i, line in enumerate(prose) if line.rstrip().endswith(("。", "）", "变。"))]
    assert len(prose) >= 4 and any("图下方的“W_h、W_x、b：" in line for line in prose)
    for i, line in enumerate(prose[:-1]):
        if i not in paragraph_ends:
            assert cell_len(line.rstrip()) >= 96 - 4, line


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_helps_allowed_values_keep_their_latin_words_whole(size):
    """The allowed values' column broke as Rich breaks, inside a word: "stric" / "t：只有它之前的键" (a
    Chinese student's trial at 120x40). It wraps as the figures' text does: every choice's name whole."""
    from rich.console import Console

    from rnntui.app import RnnApp

    app = RnnApp("attention", "qkv", lang="zh")
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        console = Console(record=True, width=size[0], height=size[1], file=io.StringIO())
        console.print(app.screen._compositor.render_update(full=True))
    words = [w for line in console.export_text().splitlines() for w in re.findall(r"[a-z]+", line)]
    assert "strict" in words and not {"stric", "stri", "tric", "ict"} & set(words), words


def test_helps_key_table_keeps_latin_words_whole_and_starts_no_line_with_a_comma(zh):
    """The keys' column broke as Rich breaks: "（attentio" / "n/summary 中按 Enter…" and a line began with
    "、截图、语言" (a Chinese student's trial at 80x24). It wraps as the figures' text does."""
    from types import SimpleNamespace

    from rich.console import Console

    from rnntui.help import help_renderable
    from rnntui.screens.recurrence import RecurrenceScreen

    figure = RecurrenceScreen.FIGURES[0]
    screen = SimpleNamespace(TOPIC_ID="recurrence", figure=figure, state=figure.state_type(),
                             FIGURES=RecurrenceScreen.FIGURES, SHARED=RecurrenceScreen.SHARED)
    console = Console(width=68, record=True, file=io.StringIO())  # help's box at 80x24
    console.print(help_renderable(screen))
    lines = console.export_text().splitlines()
    assert any("attention/summary" in line for line in lines), lines
    assert not [line for line in lines if line.strip().startswith(("、", "，", "。", "）"))], lines


def test_the_readme_has_a_chinese_quick_start_naming_every_topic_as_the_app_does(zh):
    """The README's Chinese section was English about Chinese (a student's trial): a quick start in
    Chinese gives the command and the keys, and names each topic by its key and its title in the app."""
    from pathlib import Path

    from rnntui.i18n import _
    from rnntui.topics import topics

    readme = Path(__file__).parent.parent / "README.md"
    start = readme.read_text().split("### 中文快速上手")[1].split("\n### ")[0]
    assert "rnntui --lang zh" in start and "`?`" in start and "`tab`" in start
    for n, screen in enumerate(topics(), 1):
        assert f"`{n}` {_(screen.TITLE)}" in start.replace("\n  ", " "), screen.TOPIC_ID


def test_tokens_in_a_chinese_sentence_are_quoted(zh):
    """"查询 跑 读 那只…跑" and "若按 x 重抽 开始 跑" read 开始 and 跑 as verbs of the sentence (a Chinese
    student's trial): the toy's tokens are quoted, as the slides' captions quote them."""
    from rnntui.figures.attention import QkvState

    screen, figure = topic("attention"), topic("attention").figure_by_id("qkv")
    [text] = asyncio.run(_frames([(screen, figure, QkvState(stage=3))], (100, 30)))
    assert "查询“跑”读“那只…跑”：" in text and "按 x 重抽“开始 跑”：" in text


def test_the_parameter_line_names_its_words_in_chinese(zh):
    """"cell lstm-bf1 T 40 step 6000" and "←→ window k 4" stood among Chinese (a lecturer's trial): a label
    that is a word is said in Chinese, in the parameter line, the footer and help; a symbol stays (T, W_h);
    a value stays as --set takes it (lstm); and the Chinese word is a key --set takes."""
    from rnntui.figures.memory import CopyState
    from rnntui.render import render
    from rnntui.topics import build_state, find

    screen, figure = find("memory/copy")
    lines = render(screen, figure, CopyState(), "txt", (80, 24)).splitlines()
    line = next(l for l in lines if "←→" in l)
    assert "←→ 步 1500" in line and "[c] 模型 lstm" in line and "T 20" in line and "step" not in line
    assert "c 模型" in lines[-1]  # the footer's letter key
    assert build_state(figure, ("步=300",)).step == 300 == build_state(figure, ("step=300",)).step
    grid = render(*find("parallel/grid"), build_state(find("parallel/grid")[1], ()), "txt", (80, 24)).splitlines()
    head = next(l for l in grid if "墙钟 →" in l)  # the lanes' column: 位置, its numbers under it ("pos", a trial)
    assert head.strip("│ ").startswith("位置  1   2") and any(l.startswith("│    0 ") for l in grid)
    line = next(l for l in render(*find("gradients/hop"), build_state(find("gradients/hop")[1], ()), "txt",
                                  (80, 24)).splitlines() if "共用" in l)
    assert "W_h、激活：全主题共用" in line  # ("W_h 激活" read as W_h's activation)


def test_the_shared_parameters_note_fits_80_columns_in_chinese(zh):
    """At 80x24 "W_h、W_x、b：本主题所有图共用" did not fit and was left out, on four figures, while help spoke
    of it (a Chinese student's trial); English kept its "W_h W_x b: whole topic"."""
    from rnntui.render import render
    from rnntui.topics import build_state, find

    for address, shared, step in (("recurrence/track", "W_h、W_x、b", None), ("gradients/clipping", "W_h、激活", None),
                                  ("parallel/grid", "模式", None), ("parallel/path", "模式", 11)):
        screen, figure = find(address)
        shown = render(screen, figure, build_state(figure, (), step), "txt", (80, 24))
        assert f"{shared}：全主题共用" in next(l for l in shown.splitlines() if "←→" in l), address
    screen, figure = find("memory/copy")  # and a label's colon full-width ("σ(b_f)^T: 无：", a student's trial)
    assert "σ(b_f)^T：无。RNN 没有细胞状态" in render(screen, figure, build_state(figure, ("cell=rnn",)), "txt",
                                                      (100, 30))


def test_a_long_chinese_label_does_not_push_its_value_far_right(zh):
    """parallel/timing's source line went on 35 columns in, under its label (a Chinese student's trial): a
    label wider than a third of the line lets its value's next lines start at the left."""
    from rnntui.render import render
    from rnntui.topics import build_state, find

    lines = render(*find("parallel/timing"), build_state(find("parallel/timing")[1], ()), "txt", (80, 24)).splitlines()
    k = next(i for i, l in enumerate(lines) if "原文所用笔记本电脑" in l)
    assert not lines[k + 1].strip("│").startswith(" " * 10), lines[k + 1]


def test_factors_keeps_largest_and_its_hop_on_one_line_at_80x24(zh):
    """At 80x24 the line broke between "最大 0.899" and "在第 34 跳 < W_h 0.90", one phrase in two (a
    Chinese student's trial): the largest factor and where it is are one piece."""
    from rnntui.figures.gradients import FactorsState
    from rnntui.render import render
    from rnntui.screens.gradients import GradientsScreen

    r = FactorsState().readings()
    text = render(GradientsScreen, GradientsScreen.figure_by_id("factors"), FactorsState(), "txt", (80, 24))
    line = next(line for line in text.splitlines() if "最大" in line)
    assert f"最大 {r.largest['factor']:.3f}" in line and f"第 {r.largest['hop']} 跳 < W_h 0.90" in line, line


@pytest.mark.parametrize("argv, listed", [
    (["shot", "gradients", "--set", "act=sigmoid", "-o", "x.txt"], "tanh、relu"),
    (["shot", "nope", "-o", "x.txt"], "recurrence、gradients、lstm、"),
    (["shot", "lstm/bias", "--set", "zz=1", "-o", "x.txt"], "b_f、k (steps)"),
    (["shot", "recurrence", "-o", "x.pdf"], ".svg、.png、.txt、.json"),
    # (and where the list was joined by hand: a figure, a lab, a deck's keys, a Chinese student's trial)
    (["shot", "memory/gate", "-o", "x.txt"], "copy、distractor"),
    (["train", "foo"], "seq2seq、memory")])
def test_a_chinese_refusal_lists_its_choices_with_the_chinese_comma(argv, listed, tmp_path, monkeypatch, capsys):
    """"应为 tanh, relu 之一": English commas in a Chinese line (a Chinese student's trial); 、 as the
    whole-topic note already had. In English the same lists keep ", "."""
    from rnntui.cli import main

    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--lang", "zh"]) == 2
    said = capsys.readouterr().err
    assert listed in said and ", " not in said, said
    assert main(argv) == 2
    assert listed.replace("、", ", ") in capsys.readouterr().err


def test_a_refused_language_is_refused_in_the_locales(monkeypatch, capsys):
    """LANG=zh_CN.UTF-8 rnntui --lang fr said "choose en or zh" in English (a Chinese student's trial): the
    refusal is in the locale's language, the one the app would have spoken."""
    from rnntui.cli import main

    monkeypatch.delenv("RNNTUI_LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    for lang, said in (("zh_CN.UTF-8", "--lang 'fr'：请选择 en 或 zh"), ("en_GB.UTF-8", "--lang 'fr': choose en or zh")):
        monkeypatch.setenv("LANG", lang)
        assert main(["--lang", "fr"]) == 2
        assert capsys.readouterr().err.strip() == f"rnntui: {said}"
    set_language("en")


def test_the_cells_help_in_chinese_lists_its_gates_with_chinese_separators():
    """"f (0.50, 0.50, b_f = 1.00), i (…)" and "… = 0.777; i = σ(…" among Chinese words (a review): 、 between
    the gates' weights and ； between the gates worked out; English as before."""
    from rnntui.figures.lstm import CellState
    from rnntui.screens.lstm import CellView

    try:
        set_language("zh")
        said = CellView.explained(CellState())
    finally:
        set_language("en")
    assert "b_f = 1.00)、i (1.00, 0.50, 0.00)、ĉ" in said and "= 0.777；i = σ(" in said and "; " not in said
    english = CellView.explained(CellState())
    assert "b_f = 1.00), i (1.00, 0.50, 0.00), ĉ" in english and "= 0.777; i = σ(" in english
