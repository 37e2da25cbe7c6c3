"""The small text table (widgets/table.py) as a reader meets it: each column where its heading is,
numbers right-aligned under theirs, the chosen row bold, a narrow screen's columns dropped from the
right only when they do not fit. Expected cells are worked out here from the entries' widths."""
from __future__ import annotations

from rich.text import Text

from rnntui.widgets.cells import cell_len
from rnntui.widgets.table import table_text

GAP = 2  # cells between two columns


def styled(table: Text) -> list[tuple[str, str]]:
    """Each line and the style its words are drawn in (the table styles whole lines)."""
    out = []
    for line in table.split("\n"):
        styles = {str(span.style) for span in line.spans if line.plain[span.start:span.end].strip()}
        out.append((line.plain, " ".join(sorted(styles))))
    return out


def start(line: str, word: str) -> int:
    """The cell `word` starts at in `line`."""
    return cell_len(line[:line.index(word)])


def end(line: str, word: str) -> int:
    return start(line, word) + cell_len(word)


def test_names_start_under_their_heading_and_numbers_end_under_theirs():
    header, rows = ("name", "mid", "far"), [("c=1 ◂", "1.5", "12.25"), ("c=10", "100", "3")]
    widths = [max(cell_len(r[i]) for r in (header, *rows)) for i in range(3)]  # 5, 3, 5 cells
    lines = table_text("", header, rows, right=(1, 2)).plain.splitlines()
    assert len(lines) == 3  # no title: no title line
    for line, row in zip(lines, (header, *rows)):
        assert start(line, row[0]) == 0  # names left-aligned
        assert end(line, row[1]) == widths[0] + GAP + widths[1]  # numbers right-aligned, two cells apart
        assert end(line, row[2]) == widths[0] + GAP + widths[1] + GAP + widths[2]


def test_the_chosen_row_is_bold_under_a_dim_heading_and_a_bold_title():
    rows = [("c=0.5", "1e-3"), ("c=1 ◂", "0.5"), ("c=2", "40")]
    lines = styled(table_text("norms", ("c", "at 20"), rows, bold=("c=1 ◂",), right=(1,)))
    assert [style for _line, style in lines] == ["bold", "dim", "", "bold", ""]
    assert lines[0][0] == "norms" and lines[3][0].startswith("c=1 ◂")


def test_chinese_names_stay_whole_and_the_next_column_starts_past_their_cells():
    lines = table_text("模型", ("名字", "参数"), [("RNN", "1"), ("长短期记忆", "4")]).plain.splitlines()
    assert "长短期记忆" in lines[3]  # whole: ten cells, not five characters' worth
    assert [start(line, d) for line, d in zip(lines[2:], "14")] == [cell_len("长短期记忆") + GAP] * 2


def test_a_narrow_table_drops_a_column_only_when_the_table_does_not_fit():
    header = ("layer", "note", "value")
    rows = [("recurrent", "O(n) steps", "12.5"), ("attention", "O(1)", "3")]
    widths = [max(cell_len(r[i]) for r in (header, *rows)) for i in range(3)]  # 9, 10, 5
    whole = sum(widths) + GAP * 2

    def table(width: int) -> list[str]:
        return table_text("", header, rows, right=(2,), width=width, keep=(2,)).plain.splitlines()

    assert table(whole)[0].split() == ["layer", "note", "value"]  # exactly wide enough: all of it
    narrow = table(whole - 1)  # a cell short: the note goes, the kept value stays right-aligned
    assert narrow[0].split() == ["layer", "value"]
    for line, row in zip(narrow, (header, *rows)):
        assert end(line, row[2]) == widths[0] + GAP + widths[2]
    assert [line.split() for line in table(1)] == [["layer", "value"], ["recurrent", "12.5"], ["attention", "3"]]


def test_an_inline_heading_stands_over_its_columns():
    """On a narrow screen the title and the headings share a line: the names' column is as wide as the
    title, so each heading starts where its column's entries do."""
    title, header = "Table 1 (2017)", ("", "per layer", "seq. ops")
    rows = [("self-attn", "O(n²·d)", "O(1)"), ("recurrent", "O(n·d²)", "O(n)")]
    text = table_text(title, header, rows, bold=("self-attn",), inline=True)
    first = text.split("\n")[0]
    assert [str(span.style) for span in first.spans if "per layer" in first.plain[span.start:span.end]] == ["dim"]
    assert [str(span.style) for span in first.spans if title in first.plain[span.start:span.end]] == ["bold"]
    table = styled(text)
    assert len(table) == 3
    head = table[0][0]
    assert start(head, title) == 0
    second = cell_len(title) + GAP
    third = second + max(cell_len(r[1]) for r in (header, *rows)) + GAP
    assert (start(head, "per layer"), start(head, "seq. ops")) == (second, third)
    for (line, _style), row in zip(table[1:], rows):
        assert (start(line, row[0]), start(line, row[1]), start(line, row[2])) == (0, second, third)
    assert [style for _line, style in table[1:]] == ["bold", ""]
