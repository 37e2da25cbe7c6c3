"""Text measured and wrapped in terminal cells (a Chinese character takes two)."""
from hypothesis import given, strategies as st
from rich.cells import cell_len

from rnntui.widgets.cells import wrap


def test_chinese_fills_its_lines_and_english_breaks_at_spaces():
    zh = "把 200 跳的因子乘起来，就是真正到达第一个 token 的梯度。对数轴上，恒定的因子是一条直线。"
    lines = wrap(zh, 40)
    assert all(cell_len(line) <= 40 for line in lines)
    assert all(cell_len(line) >= 38 for line in lines[:-1])  # no early break before a space-less run
    assert "".join(lines).replace(" ", "") == zh.replace(" ", "")
    assert not any(line.startswith(("，", "。")) for line in lines)  # punctuation stays with its word
    en = "The factors multiplied over 200 hops: what reaches the first token."
    assert wrap(en, 30) == ["The factors multiplied over", "200 hops: what reaches the", "first token."]


def test_an_arrow_may_end_a_line():
    """decoder→encoder, in a column of attention/summary, breaks after its arrow rather than inside a word."""
    assert wrap("O(1) decoder→encoder", 9) == ["O(1)", "decoder→", "encoder"]
    assert wrap("RNN → LSTM → GRU", 9) == ["RNN →", "LSTM →", "GRU"]


def test_a_short_formula_in_chinese_text_stays_on_one_line():
    """gradients/bptt's line in Chinese broke inside its formula, "x_(t" / "mod 8)" (a zh trial): a short
    (…) keeps its spaces at every width; English text and longer brackets break as before."""
    zh = "本程序把这 8 个重复下去（x_t = x_(t mod 8)）"
    for width in range(12, 50):
        lines = wrap(zh, width)
        assert any("x_(t mod 8)" in line for line in lines), (width, lines)
        assert all(cell_len(line) <= width for line in lines)
        if width >= 21:  # the whole （…） on a line where it fits: brackets nest ("x_t =" / "x_(t mod 8)）", a trial)
            assert any("（x_t = x_(t mod 8)）" in line for line in lines), (width, lines)
    assert wrap("因子 (a b c d e f g h i j k l m n o p q r s)", 20) == [  # its (…) is 38 long: it breaks
        "因子 (a b c d e f g", "h i j k l m n o p q", "r s)"]
    assert wrap("x_(t mod 8) and more", 6) == ["x_(t", "mod 8)", "and", "more"]  # plain English: unchanged
    assert wrap("重复 x_(t mod 8)", 6) == ["重复", "x_(t", "mod 8)"]  # wider than the line: no word cut (a review)


def test_a_short_aside_in_full_width_brackets_stays_on_one_line():
    """seq2seq/matrix in Chinese at 80x24 broke "（右移" / "一列）" (a zh trial): a short （…） stays whole
    where its line allows, like a (…); the text around it still fills its lines."""
    zh = "抄 x_7，读的是其后一步的 h_8（右移一列），它仍记着 x_14"
    for width in range(14, 40):
        lines = wrap(zh, width)
        assert any("（右移一列）" in line for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == zh.replace(" ", "") and all(cell_len(l) <= width for l in lines)
    long = "前面的字（这是一个相当长的旁白，大约二十四个字符那么长吧）后面"  # 24 characters are 48 cells: not short
    assert cell_len(wrap(long, 50)[0]) >= 48  # it fills its line (it left "前面的字" alone, a review)


async def test_a_readout_a_line_wraps_under_its_value():
    """serving/wayback's family table at 80 columns: "RetNet  Linear attention … parallel to" went on
    at the left edge ("train, a d×d state to serve."). A pair a line now goes on under its value;
    a label wider than half the line wraps as before, and so do readouts side by side."""
    from textual.app import App

    from rnntui.widgets.readouts import Readouts

    value = "Linear attention with a fixed decay per head: parallel to train, a small state to serve."
    wide = "a label that is longer than half of the line"

    class One(App):
        CSS = "Readouts { width: 40; }"

        def compose(self):
            yield Readouts(id="hung")
            yield Readouts(id="long")
            yield Readouts(id="across")

    app = One()
    async with app.run_test(size=(60, 20)) as pilot:
        app.query_one("#hung", Readouts).show([("RetNet  ", value), ("RWKV    ", "An RNN.")], sep="\n")
        app.query_one("#long", Readouts).show([(wide, value)], sep="\n")
        app.query_one("#across", Readouts).show([("RetNet", value)])
        await pilot.pause()

        def shown(name):
            widget = app.query_one(name, Readouts)
            return [line.plain if hasattr(line, "plain") else "".join(w for w, _s in line)
                    for line in widget.wrapped(widget.size.width)]

        hung = shown("#hung")
        assert hung[0].startswith("RetNet   Linear") and hung[-1] == "RWKV     An RNN."
        assert all(line.startswith(" " * 9) and line[9] != " " for line in hung[1:-1]) and len(hung) > 3
        assert " ".join(" ".join(line.split()) for line in hung[:-1]) == "RetNet " + value
        assert all(cell_len(line.rstrip()) <= 40 for line in hung)
        assert not shown("#long")[1].startswith(" ") and not shown("#across")[1].startswith(" ")


def _wrap_by_measuring(text: str, width: int) -> list[str]:
    """wrap as it was: the line measured whole after each character (slow; the reference)."""
    from rich.cells import cell_len

    from rnntui.widgets.cells import _breakable

    lines = []
    for paragraph in text.split("\n"):
        line, last_break = "", -1
        kept = set()  # a short (…) or （…） in Chinese text stays whole: no break inside one of ≤ 24 cells;
        opened = []  # brackets nest (hypothesis found "a（，（））": the regex this had kept only the inner pair)
        for i, ch in enumerate("" if paragraph.isascii() else paragraph):
            if ch in "(（":
                opened.append(i)
            elif ch in ")）" and opened and cell_len(paragraph[opened[-1]:i + 1]) <= min(24, max(width, 1)):
                kept.update(range(opened.pop() + 1, i + 1))
            elif ch in ")）" and opened:
                opened.pop()
        for i, ch in enumerate(paragraph):
            if line and _breakable(line[-1], ch) and i not in kept:
                last_break = len(line)
            line += ch
            if cell_len(line) > max(width, 1):
                cut_at = last_break if last_break > 0 else len(line) - 1
                lines.append(line[:cut_at].rstrip())
                line, last_break = line[cut_at:].lstrip(), -1
        lines.append(line.rstrip())
    return lines


@given(st.text(alphabet="abc de→fg你好，。：（）\n", max_size=60), st.integers(1, 40))
def test_wrap_counts_cells_as_it_goes_and_breaks_where_measuring_whole_lines_did(text, width):
    """wrap keeps a running count of cells (a plain-ASCII paragraph one a character): measuring the
    line after every character made attention/summary's first draw 16 ms (now 6)."""
    from rnntui.widgets.cells import _lines

    assert [line for paragraph in text.split("\n") for line in _lines(paragraph, max(width, 1), paragraph.isascii())] \
        == _wrap_by_measuring(text, width)


@given(st.text(alphabet="abc de→fg你好因子，。：（）", max_size=60), st.integers(4, 40))
def test_a_chinese_paragraph_does_not_end_in_one_character_alone(text, width):
    """attention/summary's "梯度沿链条消失或爆" / "炸", "仍是链条：O(n) 路" / "径" (a newcomer's trial, zh): the
    character before comes down too, where the break before it is allowed; nothing else changes."""
    from rnntui.widgets.cells import _breakable, _lines

    raw, lines = _lines(text, width, text.isascii()), wrap(text, width)
    assert len(lines) == len(raw) and "".join(lines).replace(" ", "") == text.replace(" ", "").rstrip()
    assert max(map(cell_len, lines)) <= max(width, *map(cell_len, raw))  # (a run that cannot break may be wider)
    if lines != raw:
        assert lines[:-2] == raw[:-2] and cell_len(raw[-1].rstrip("，。：）")) == 2
    elif len(raw) > 1 and len(raw[-1].rstrip("，。：）")) == 1 and cell_len(raw[-1][0]) == 2:
        before = raw[-2]
        assert len(before) < 3 or cell_len(before[-1]) != 2 or not _breakable(before[-2], before[-1]) \
            or cell_len(before[-1] + raw[-1]) > width
    assert wrap("梯度沿链条消失或爆炸", 18) == ["梯度沿链条消失或", "爆炸"]


def test_chinese_quotes_stay_with_what_they_quote():
    """Help in Chinese began a line with ”： (“原文” / ”：这些图所依据的…) and ended one with “ (a Chinese
    student's trial, 40 of ~50 help screens at 160x48): at every width, no line starts with closing
    punctuation or ends with opening punctuation, and nothing is lost."""
    from rnntui.widgets.cells import CLOSING, OPENING

    text = "数字旁的“原文”：这些图所依据的课程讲义（中文）；本次：验证集整句“准确率”。你的模型“cached”"
    for width in range(12, 60):  # (below, "（中文）；" alone is wider than a line)
        lines = wrap(text, width)
        assert "".join(lines) == text and max(map(cell_len, lines)) <= width, width
        assert not any(line[0] in CLOSING for line in lines[1:]), (width, lines)
        assert not any(line[-1] in OPENING for line in lines[:-1]), (width, lines)


def test_a_chinese_line_never_ends_in_an_equals_sign_nor_parts_a_number_from_its_word():
    """"…所以 b_f =" / "2；…" and "none 到第 625" / "步仍未达到" (a Chinese student's trial): the break goes
    before "=", and a number stays with the Chinese words beside it (第 625 步); elsewhere Chinese breaks as
    before, and English is untouched."""
    for text, width in (("所以 b_f = 2；真正的 b_f = 1 在 T=40 失败", 14), ("none 到第 625 步仍未达到", 12),
                        ("只剩 σ(0)^20 = 9.5e-07。", 16)):
        lines = wrap(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "") and max(map(cell_len, lines)) <= width
        assert not any(line.endswith("=") for line in lines), lines
        for before, after in zip(lines, lines[1:]):
            assert not (before[-1].isdigit() and cell_len(after[0]) == 2), lines  # "625" / "步"
            assert not (cell_len(before[-1]) == 2 and after[0].isdigit()), lines  # "第" / "625"
    assert wrap("none 到第 625 步仍未达到", 12) == ["none 到", "第 625 步仍", "未达到"]
    assert wrap("so b_f = 2 and a true b_f = 1 fails", 14) == ["so b_f = 2 and", "a true b_f = 1", "fails"]
