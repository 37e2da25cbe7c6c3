"""Text measured and wrapped in terminal cells (a Chinese character takes two)."""
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
