"""Group a's Chinese pass (issue 17): recurrence, gradients and lstm speak Chinese from the group's
partial catalogue (rnntui/locale/zh/parts/a.po), and every figure fits 80×24 in it."""
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from rnntui import i18n
from rnntui.i18n import _, set_language
from rnntui.render import render
from rnntui.screens.gradients import GradientsScreen
from rnntui.screens.lstm import LstmScreen
from rnntui.screens.recurrence import RecurrenceScreen

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_file  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(i18n.__file__).parent
PARTS = ROOT / "locale" / "zh" / "LC_MESSAGES" / "rnntui.po"  # the catalogue these topics were translated into
TOPICS = ("recurrence", "gradients", "lstm")
SOURCES = [ROOT / kind / f"{t}.py" for kind in ("figures", "screens") for t in TOPICS] + [
    ROOT / "screens" / "gradients_training.py", ROOT / "fmt.py"]  # at_hop's words are in fmt.py
SCREENS = (RecurrenceScreen, GradientsScreen, LstmScreen)
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[a-z]|%[sr]")


def _parts():
    with open(PARTS, "rb") as f:
        return read_po(f)


def _msgids() -> set[str]:
    return {m for path in SOURCES for _l, m, _c, _x in extract_from_file("python", str(path),
                                                                           keywords={"_": None, "N_": None})}


@pytest.fixture
def zh(tmp_path, monkeypatch):
    """Chinese from the parts file alone: compiled into a temporary .mo that i18n reads."""
    mo = tmp_path / "zh" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
    mo.parent.mkdir(parents=True)
    with open(mo, "wb") as f:
        write_mo(f, _parts())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    set_language("zh")
    yield
    set_language("en")


def test_the_parts_file_translates_every_msgid_of_the_three_topics():
    parts = _parts()
    ids = _msgids()
    assert len(ids) > 100
    missing = sorted(m for m in ids if not (parts.get(m) and parts.get(m).string.strip()))
    assert not missing, missing[:5]
    for m in ids:
        got = parts.get(m).string
        assert sorted(PLACEHOLDER.findall(got)) == sorted(PLACEHOLDER.findall(m)), (m, got)
        assert any(cell_len(ch) == 2 for ch in got) or not re.search(r"[a-z]{3} [a-z]{3}", m), (m, got)


@pytest.mark.parametrize("screen,figure", [(s, f) for s in SCREENS for f in s.FIGURES],
                         ids=lambda x: getattr(x, "id", getattr(x, "TOPIC_ID", "")))
def test_every_figure_renders_in_chinese_within_80_columns(zh, screen, figure):
    text = render(screen, figure, figure.state_type(), "txt", (80, 24))
    lines = text.splitlines()
    assert len(lines) <= 24
    assert all(cell_len(line) <= 80 for line in lines), [line for line in lines if cell_len(line) > 80]
    panel = [line for line in lines[2:-1]]
    assert all(line.startswith(("╭", "│", "╰")) for line in panel)
    assert all(line.endswith(("╮", "╯")) or line.rstrip().endswith("│") for line in panel[1:-1])
    assert _(figure.title) in text and _(figure.title) != figure.title  # the title is Chinese
    assert figure.prose.split(".")[0][:30] not in text  # and the English prose is gone
    assert _(screen.TITLE) in lines[0]


def test_the_seed_comparisons_read_in_chinese(zh):
    from rnntui.figures.gradients import FactorsState, ProductState
    from rnntui.figures.lstm import ForgetPathState

    text = render(GradientsScreen, GradientsScreen.figure_by_id("factors"), FactorsState(), "txt", (80, 24))
    assert "原文 0.884 ≠ 本程序 0.899" in text and "未公开" in text
    text = render(GradientsScreen, GradientsScreen.figure_by_id("product"), ProductState(), "txt", (80, 24))
    assert "第 178 跳 (原文 161)" in text and "跌破" in text and "(原文 9.8e-48)" in text
    text = render(LstmScreen, LstmScreen.figure_by_id("path"), ForgetPathState(), "txt", (80, 24))
    assert "10 (原文：第 9 步)" in text


def test_the_topic_titles_are_the_seed_headings(zh):
    assert [_(s.TITLE) for s in SCREENS] == ["一次一个 token", "梯度为什么死在循环里", "让这个乘积活下来的门"]
