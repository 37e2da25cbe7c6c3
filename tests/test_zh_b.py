"""The Chinese pass of group b (issue 17): seq2seq, attention, parallel.

(a) every figure of these topics draws in Chinese at 80×24, no line wider than 80 cells, with the
translations of rnntui/locale/zh/parts/b.po (compiled here into a temporary catalogue, so the test
does not wait for the main .po to be merged); (b) that parts file translates every msgid these
topics' files introduce."""
from __future__ import annotations

import asyncio
import gettext
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from rnntui import i18n
from rnntui.topics import topic

ROOT = Path(__file__).resolve().parent.parent
PARTS = ROOT / "rnntui" / "locale" / "zh" / "LC_MESSAGES" / "rnntui.po"  # the catalogue these topics were translated into
TOPICS = ("seq2seq", "attention", "parallel")
SOURCES = [ROOT / "rnntui" / p for p in (
    "screens/seq2seq.py", "screens/attention.py", "screens/attention_layer.py", "screens/parallel.py",
    "figures/seq2seq.py", "figures/attention.py", "figures/parallel.py",
    "widgets/wallclock.py", "widgets/sharebar.py", "widgets/alignment.py", "widgets/visibility.py",
    "widgets/timing.py", "engine/block.py")]


def parts_catalogue():
    from babel.messages.pofile import read_po

    with PARTS.open("rb") as f:
        return read_po(f, locale="zh")


def source_msgids() -> set[str]:
    from babel.messages.extract import extract_from_file

    ids = set()
    for path in SOURCES:
        for _line, message, _comments, _context in extract_from_file("python", str(path)):
            ids.add(message if isinstance(message, str) else message[0])
    return ids


@pytest.fixture
def zh(tmp_path):
    """Chinese from the parts file alone: compiled into a temporary .mo that `_()` reads."""
    pytest.importorskip("babel")
    from babel.messages.mofile import write_mo

    mo = tmp_path / "b.mo"
    with mo.open("wb") as f:
        write_mo(f, parts_catalogue())
    with mo.open("rb") as f:
        translation = gettext.GNUTranslations(f)
    i18n.set_language("zh")  # the main catalogue (for the shared words: footer, keys) …
    base = i18n._translation
    translation.add_fallback(base)  # … behind this group's own
    i18n._translation = translation
    yield translation
    i18n.set_language("en")


def test_parts_file_translates_every_msgid_of_these_topics():
    pytest.importorskip("babel")
    catalogue = {m.id: m.string for m in parts_catalogue() if m.id}
    wanted = source_msgids()
    missing = sorted(m for m in wanted if not catalogue.get(m))
    assert not missing, missing
    assert len(wanted) > 200  # the extraction found the files' strings (not an empty pass)
    for msgid in wanted:  # every placeholder survives translation
        msgstr = catalogue[msgid]
        assert set(re.findall(r"\{[^{}]*\}", msgid)) == set(re.findall(r"\{[^{}]*\}", msgstr)), msgid


async def _frames(states, size):
    from rnntui.render import Session

    out = {}
    async with Session(size) as session:
        for screen, figure, state in states:
            out[(screen.TOPIC_ID, figure.id)] = (await session.frame(screen, figure, state, ("txt",)))["txt"]
    return out


def test_every_figure_draws_in_chinese_within_80_columns(zh):
    states = [(topic(t), f, f.state_type()) for t in TOPICS for f in topic(t).FIGURES]
    frames = asyncio.run(_frames(states, (80, 24)))
    assert len(frames) == 15
    for (tid, fid), text in frames.items():
        lines = text.splitlines()
        assert len(lines) == 24, (tid, fid)
        wide = [line for line in lines if cell_len(line) > 80]
        assert not wide, (tid, fid, wide)
        figure = topic(tid).figure_by_id(fid)
        assert i18n._(figure.title) != figure.title and i18n._(figure.title) in text, (tid, fid)
        prose = i18n._(figure.prose)
        assert prose != figure.prose and prose[:12] in text.replace("│ ", ""), (tid, fid)  # the prose in Chinese
    assert "对齐矩阵" in frames[("seq2seq", "matrix")] and "随附模型" in frames[("seq2seq", "matrix")]
    assert "顺序步数" in frames[("parallel", "grid")]
    assert "那只" in frames[("attention", "qkv")]  # the tokens stay Chinese, in both languages


def test_chinese_says_the_same_numbers(zh):
    """The telling states read the same numbers in Chinese: the shift at k = 3 (x_12 read from h_13),
    the grid's tally at recurrent n = 8 after 8 steps, A[跑,猫] at the softmax stage."""
    from rnntui.figures.attention import A_STAGE, QkvState
    from rnntui.figures.parallel import GridState
    from rnntui.figures.seq2seq import MatrixState

    states = [(topic("seq2seq"), topic("seq2seq").figure_by_id("matrix"), MatrixState(step=3)),
              (topic("parallel"), topic("parallel").figure_by_id("grid"), GridState(mode="recurrent", n=8, step=8)),
              (topic("attention"), topic("attention").figure_by_id("qkv"), QkvState(stage=A_STAGE))]
    frames = asyncio.run(_frames(states, (80, 24)))
    matrix = frames[("seq2seq", "matrix")]
    r = MatrixState(step=3).readings()
    assert (r.copies, r.looks_at) == (12, 13)
    assert "抄 x_12" in matrix and "h_13" in matrix and "右移一列" in matrix
    assert "顺序步数 8/8" in frames[("parallel", "grid")] and "忙碌格 8/64" in frames[("parallel", "grid")]
    assert "A[跑,猫] 0.6488" in frames[("attention", "qkv")]
