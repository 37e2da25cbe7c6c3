"""`rnntui serve --deck DECK`: each browser tab presents a lecturer's deck (`rnntui serve my.toml` said
"unknown topic", a lecturer's trial)."""
import asyncio
import os
import shlex
import sys

import pytest

from rnntui.cli import main
from test_serve import Served, open_session

DECK = """title = "My deck"
title_zh = "丁老师的课"

[[frame]]
figure = "attention/qkv"
title = "Queries and keys"
"""


@pytest.fixture
def ran(monkeypatch):
    """The `rnntui …` line each session would run, and the font the page would get, without serving."""
    pytest.importorskip("textual_serve")
    from rnntui import serve

    seen = {}

    def fake(app_args, host, port, max_sessions, idle_minutes, font=None, title="rnntui"):
        seen.update(line=shlex.split(serve.app_command(app_args)), font=font, title=title)

    monkeypatch.setattr(serve, "serve", fake)
    return seen


def test_each_session_presents_the_deck_found_from_any_folder(ran, tmp_path, monkeypatch):
    from rnntui.glyphs import CJK_OWN, CJK_SHIPPED

    (tmp_path / "my.toml").write_text(DECK, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--deck", "my.toml", "--theme", "light", "--lang", "zh"]) == 0
    assert ran["line"] == ["exec", sys.executable, "-m", "rnntui", "present", str(tmp_path / "my.toml"),
                           "--theme", "light", "--lang", "zh"]
    assert ran["font"] == CJK_SHIPPED  # (丁 is not in rnntui's own Chinese)
    assert ran["title"] == "rnntui · 丁老师的课"  # (the page's title: the deck's, in the server's language)
    assert main(["serve", "--deck", "my.toml", "--lang", "en"]) == 0  # its Chinese not shown: rnntui's own cut
    assert ran["font"] == CJK_OWN  # (1.2 MB for words never shown, a review)


def test_a_decks_english_only_frames_are_said_once_as_the_server_starts(ran, tmp_path, capsys):
    """Served, a deck's English-only frames are the lecturer's to know, once: said as the server starts (each
    student's first slide said it, and the lecturer's terminal again as each tab's app ended)."""
    (tmp_path / "my.toml").write_text(DECK + '[[frame]]\nfigure = "attention/masks"\ncaption = "only English"\n',
                                      encoding="utf-8")
    assert main(["serve", "--deck", str(tmp_path / "my.toml"), "--lang", "zh"]) == 0
    assert capsys.readouterr().err.strip() == "rnntui: 以下帧在幻灯片文件里只有英文：1 (title_zh); 2 (caption_zh)"


def test_a_decks_characters_no_shipped_font_has_are_named_as_the_server_starts(ran, tmp_path, capsys):
    """A deck with Traditional 語 and Korean 한 drew boxes in a browser without a font for them, and the
    server said nothing (a lecturer's trial): it names them, once, as it starts; the rest of it serves."""
    from fontTools.ttLib import TTFont

    from rnntui.glyphs import CJK_SHIPPED

    have = TTFont(CJK_SHIPPED).getBestCmap()
    assert ord("語") not in have and ord("한") not in have and ord("丁") in have  # (the font itself, read here)
    (tmp_path / "my.toml").write_text(DECK.replace("丁老师的课", "丁老師的課 語 한"), encoding="utf-8")
    assert main(["serve", "--deck", str(tmp_path / "my.toml"), "--lang", "zh"]) == 0
    said = capsys.readouterr().err.strip().splitlines()  # (after the English-only frames' line)
    assert said[1:] == ["rnntui: " + "讲稿里的 {chars} 不在 rnntui 的中文字体里：浏览器若没有含这些字的字体，会画成方框"
                    .format(chars=" ".join(ch for ch in sorted(set("老師課語한")) if ord(ch) not in have))]
    assert main(["serve", "--deck", str(tmp_path / "my.toml"), "--lang", "en"]) == 0  # (its Chinese not shown)
    assert "rnntui's Chinese font" not in capsys.readouterr().err


def test_a_shipped_deck_by_name(ran, tmp_path, monkeypatch):
    from rnntui.deck import SHIPPED

    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--deck", "lecture"]) == 0
    assert ran["line"][4:] == ["present", os.path.abspath(SHIPPED / "lecture.toml"), "--theme", "dark", "--lang", "en"]


@pytest.mark.parametrize("argv,says", [
    (["attention", "--deck", "lecture"], "attention and --deck lecture: each tab opens a topic or presents a deck, not both"),
    (["my.toml"], "my.toml is a deck, not a topic: rnntui serve --deck my.toml"),
    (["lecture"], "lecture is a deck, not a topic: rnntui serve --deck lecture"),  # (unknown topic, a review)
])
def test_refusals_are_one_line(argv, says, ran, capsys):
    assert main(["serve", *argv]) == 2
    assert capsys.readouterr().err == f"rnntui: {says}\n" and not ran


@pytest.mark.parametrize("deck", ["nosuch.toml", "bad.toml", "lecture.toml"])
def test_a_bad_deck_is_the_line_present_says(deck, ran, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text("title = 3\n", encoding="utf-8")
    (tmp_path / "lecture.toml").write_text("[[frame]]\nfigure = \"nosuch/figure\"\n", encoding="utf-8")
    assert main(["present", deck]) == 2
    present = capsys.readouterr().err
    assert main(["serve", "--deck", deck]) == 2
    assert capsys.readouterr().err == present and present.count("\n") == 1 and not ran


def test_a_browser_tab_gets_the_deck():
    served = Served("--deck", "lecture")
    try:
        async def scenario():
            client, ws = await open_session(served.url, b"1/52")  # the lecture's first of 52 frames
            (app,) = served.apps()
            await client.close()
            return app.cmdline()

        line = asyncio.run(asyncio.wait_for(scenario(), 120))
        assert line[-6] == "present" and line[-5].endswith("lecture.toml")
    finally:
        assert served.stop() == 0
