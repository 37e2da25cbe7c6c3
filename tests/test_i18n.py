"""Languages (issue 17): choosing one, the catalogue, live switching, and Chinese that fits its cells."""
import gettext
import html
import io
import re
import string
from pathlib import Path

import numpy as np
import pytest
from rich.cells import cell_len
from rich.console import Console

from rnntui import i18n
from rnntui.cli import main
from rnntui.i18n import _, default_language, language, set_language, take_lang
from rnntui.state import BadValue

LOCALE = Path(i18n.__file__).parent / "locale"
PO = LOCALE / "zh" / "LC_MESSAGES" / "rnntui.po"
MO = LOCALE / "zh" / "LC_MESSAGES" / "rnntui.mo"


# -- choosing the language --------------------------------------------------------------------
@pytest.mark.parametrize("env, want", [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_TW.UTF-8"}, "zh"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),  # LC_ALL wins
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),  # LC_MESSAGES before LANG
    ({"RNNTUI_LANG": "zh", "LC_ALL": "en_US.UTF-8"}, "zh"),  # ours before the locale
    ({"RNNTUI_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),
])
def test_default_language_from_the_environment(env, want):
    assert default_language(env) == want


def test_lang_is_taken_out_of_any_command_line():
    assert take_lang(["shot", "x/y", "--lang", "zh", "-o", "a.txt"]) == (["shot", "x/y", "-o", "a.txt"], "zh")
    assert take_lang(["--lang=en", "present", "lecture"]) == (["present", "lecture"], "en")
    assert take_lang(["train", "seq2seq"]) == (["train", "seq2seq"], None)
    # argparse took --la as --lang, and nothing read it: the app stayed English; a second --lang won silently (a review)
    assert take_lang(["shot", "--la", "zh"]) == (["shot"], "zh") and take_lang(["--lan=zh"]) == ([], "zh")
    with pytest.raises(BadValue, match=r"--lang is given twice \(zh, en\); give it once"):
        take_lang(["--lang=zh", "shot", "--lang", "en"])


@pytest.mark.parametrize("argv, words", [
    (["shot", "recurrence/track", "--set", "w_h=9", "-o", "x.txt"], ["w_h=9", "应为", "-2.00", "2.00"]),
    (["recurrence", "--step", "99"], ["--step 99", "整数"]),
    (["shot", "nope/track", "-o", "x.txt"], ["未知的主题", "'nope'"]),
    (["export", "out", "--format", "gif"], ["--format", "gif", "选择"]),
    (["present", "no-such-deck"], ["幻灯片", "不存在"]),
    (["train", "nothing"], ["train", "选择"]),
    (["shot", "recurrence/track", "--bogus", "-o", "x.txt"], ["无法识别的参数", "--bogus"]),
])
def test_command_line_messages_in_chinese(capsys, argv, words):
    for where in (0, len(argv)):  # --lang before or after the rest
        args = argv[:where] + ["--lang", "zh"] + argv[where:]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("rnntui: ")
        for w in words:
            assert w in err


def test_an_unknown_language_is_one_line_and_status_2(capsys):
    assert main(["--lang", "fr", "--list"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lang 'fr'" in err and "zh" in err


def test_an_unknown_rnntui_lang_is_refused_as_lang_is(capsys, monkeypatch):
    """RNNTUI_LANG=fr gave English without a word, while --lang fr was refused (a user's trial): it is
    one line and status 2 too, before anything is drawn; a --lang given wins over it."""
    monkeypatch.setenv("RNNTUI_LANG", "fr")
    assert main(["--list"]) == 2
    assert capsys.readouterr().err == "rnntui: RNNTUI_LANG='fr': choose en or zh\n"
    assert main(["--list", "--lang", "zh"]) == 0 and "一次一个 token" in capsys.readouterr().out
    assert default_language({"RNNTUI_LANG": "zh-Hans", "LANG": "en_US.UTF-8"}) == "zh"
    for plain in ("C", "POSIX", "C.UTF-8"):  # the locale's names for none: English, as before (a review)
        assert default_language({"RNNTUI_LANG": plain, "LANG": "zh_CN.UTF-8"}) == "en"


def test_environment_picks_chinese_and_lang_overrides_it(capsys, monkeypatch):
    monkeypatch.setenv("RNNTUI_LANG", "zh")
    assert main(["shot", "recurrence/track", "--set", "w_h=9", "-o", "x.txt"]) == 2
    assert "应为" in capsys.readouterr().err
    assert main(["shot", "recurrence/track", "--set", "w_h=9", "-o", "x.txt", "--lang", "en"]) == 2
    assert "expected a number from -2.00 to 2.00" in capsys.readouterr().err


def test_help_of_every_command_in_chinese(capsys):
    for argv in (["--help"], ["shot", "--help"], ["export", "--help"], ["present", "--help"],
                 ["serve", "--help"], ["train", "seq2seq", "--help"], ["train", "memory", "--help"]):
        with pytest.raises(SystemExit) as done:
            main(argv + ["--lang", "zh"])
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert "用法" in out and "--lang" in out, argv


# -- the mechanism -------------------------------------------------------------------------------
def test_underscore_translates_at_call_time_and_n_only_marks():
    title = i18n.N_("help")  # a constant made at import time: still the English msgid
    set_language("zh")
    assert title == "help" and _(title) == "帮助" and language() == "zh"
    assert _("") == ""  # not the catalogue's header
    assert _("a msgid nobody translated") == "a msgid nobody translated"
    set_language("en")
    assert _(title) == "help"


def test_state_messages_follow_the_language():
    from rnntui.state import BadValue
    from rnntui.topics import build_state, find

    _, figure = find("recurrence/track")
    set_language("zh")
    with pytest.raises(BadValue, match="-2.00 到 2.00 之间、最多 2 位小数的数"):
        build_state(figure, ["w_h=9"])
    set_language("en")
    with pytest.raises(BadValue, match="expected a number from -2.00 to 2.00 with at most 2 decimals"):
        build_state(figure, ["w_h=9"])


# -- the catalogue ---------------------------------------------------------------------------------
def _catalogue(path: Path):
    from babel.messages.pofile import read_po

    with open(path, "rb") as f:
        return read_po(f)


PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[a-z]|%[sr]")


# translations that name a placeholder more often than their msgid, on purpose
REPEATS = {"copies x_{j} from h_{h}, the state after it, which still holds it"}  # 抄 x_{j} … 仍记着 x_{j}


def _fields(text: str) -> set[str]:
    """The names a format string reads: {text!r}, {m:g} and {n} read text, m and n."""
    return {name.split(".")[0].split("[")[0] for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_every_string_marked_for_translation_is_in_the_catalogue():
    """babel does not read _() inside an f-string: gradients/product's "float32 max" stayed English in
    Chinese (a student's trial). Every literal passed to _() or N_() in the package is a msgid."""
    import ast

    pytest.importorskip("babel")
    pot = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalogue(LOCALE / "rnntui.pot") if m.id}
    marked = set()
    for path in (LOCALE.parent).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                marked.add((path.name, node.args[0].value))
    assert len(marked) > 500
    missing = sorted((name, text) for name, text in marked if text not in pot)
    assert not missing, f"not in rnntui.pot (in an f-string?): {missing[:5]}"


def test_every_msgid_has_a_chinese_translation_that_keeps_its_placeholders():
    pytest.importorskip("babel")
    pot = _catalogue(LOCALE / "rnntui.pot")
    zh = _catalogue(PO)
    assert len([m for m in pot if m.id]) > 500  # the template holds the package's strings (not an empty pass)
    missing = [m.id for m in pot if m.id and not (zh.get(m.id) and zh.get(m.id).string)]
    assert not missing, f"no zh translation for {missing[:5]}: edit {PO} and run python -m rnntui.i18n all"
    for m in pot:
        if m.id:
            got = zh.get(m.id).string
            ids = m.id if isinstance(m.id, tuple) else (m.id,)  # a plural: (singular, plural)
            gots = got if isinstance(got, tuple) else (got,)
            assert all(g.strip() for g in gots), (m.id, got)  # every form, and not blank
            wanted = set().union(*(PLACEHOLDER.findall(i) for i in ids))
            assert all(set(PLACEHOLDER.findall(g)) <= wanted for g in gots), (m.id, got)
            assert set().union(*(PLACEHOLDER.findall(g) for g in gots)) == wanted, (m.id, got)
            if len(ids) > 1:  # Chinese has one plural form: the plural msgid's placeholders, all of them
                assert all(set(PLACEHOLDER.findall(g)) == set(PLACEHOLDER.findall(ids[-1])) for g in gots), (m.id, got)
            elif m.id not in REPEATS:  # each placeholder as many times as in the msgid
                assert sorted(PLACEHOLDER.findall(got)) == sorted(PLACEHOLDER.findall(m.id)), (m.id, got)
            if re.search(r"[a-z]{3} [a-z]{3}", ids[0]):  # English words: Chinese characters in every form
                assert all(any(cell_len(ch) == 2 for ch in g) for g in gots), (m.id, got)
            for value in ("x", 1.0):  # what formats the msgid formats its translation
                names = dict.fromkeys(set().union(*(_fields(i) for i in ids)), value)
                try:
                    ids[-1].format(**names)
                except (KeyError, IndexError, ValueError, AttributeError, TypeError):
                    continue  # not a format string, or not with this value
                for g in gots:
                    g.format(**names)
            assert "fuzzy" not in zh.get(m.id).flags, m.id


def test_the_template_is_what_the_source_marks(tmp_path, monkeypatch):
    pytest.importorskip("babel")
    monkeypatch.setattr(i18n, "POT", tmp_path / "now.pot")
    i18n.extract()
    now = {m.id for m in _catalogue(tmp_path / "now.pot") if m.id}
    shipped = {m.id for m in _catalogue(LOCALE / "rnntui.pot") if m.id}
    assert now == shipped, ("run python -m rnntui.i18n all", sorted(now ^ shipped)[:5])


def test_the_shipped_mo_is_compiled_from_the_po(tmp_path):
    pytest.importorskip("babel")
    i18n.compile_catalogues(tmp_path)
    fresh = gettext.GNUTranslations(open(tmp_path / "zh" / "LC_MESSAGES" / "rnntui.mo", "rb"))
    shipped = gettext.GNUTranslations(open(MO, "rb"))
    assert {k: v for k, v in fresh._catalog.items() if k} == {k: v for k, v in shipped._catalog.items() if k}, \
        "the .mo is stale: run python -m rnntui.i18n compile"


def test_the_runtime_reads_the_mo_without_babel():
    import subprocess
    import sys

    code = ("import sys; sys.modules['babel'] = None\n"  # importing babel now fails
            "from rnntui.i18n import _, set_language\n"
            "set_language('zh'); print(_('help'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(i18n.__file__).parent.parent)
    assert done.returncode == 0 and done.stdout.strip() == "帮助", done.stderr


# -- decks -----------------------------------------------------------------------------------------
def test_the_lecture_deck_speaks_chinese():
    from rnntui.deck import load

    deck = load("lecture")
    for n, frame in enumerate(deck.frames, 1):
        local = dict(frame.translated)
        if frame.title:
            assert local.get("title_zh"), f"frame {n}: title without title_zh"
        if frame.caption:
            assert local.get("caption_zh"), f"frame {n}: caption without caption_zh"
    first = deck.frames[0]
    set_language("zh")
    assert deck.heading() == "从循环到 attention"
    assert first.heading() == "一次一个 token" and "token" in first.words() and "RNN" in first.words()
    set_language("en")
    assert deck.heading() == "From recurrence to attention" and first.heading() == "One token at a time"


def test_a_deck_frame_without_chinese_falls_back_to_its_english_words():
    from rnntui.deck import parse

    deck = parse({"title": "T", "frame": [{"figure": "recurrence/track", "title": "Only English",
                                           "caption_zh": "只有中文说明"}]})
    set_language("zh")
    assert deck.frames[0].heading() == "Only English" and deck.frames[0].words() == "只有中文说明"
    from rnntui.state import BadValue

    with pytest.raises(BadValue, match="title_zh"):
        parse({"frame": [{"figure": "recurrence/track", "title_zh": 3}]})


def test_export_index_in_chinese(tmp_path, capsys):
    out = tmp_path / "slides"
    deck = tmp_path / "d.toml"
    deck.write_text('title = "D"\ntitle_zh = "演示"\n[[frame]]\nfigure = "recurrence/track"\n'
                    'title = "A"\ntitle_zh = "甲"\ncaption = "a"\ncaption_zh = "乙"\n', encoding="utf-8")
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--lang", "zh"]) == 0
    index = (out / "index.md").read_text(encoding="utf-8")
    assert index.startswith("# 演示\n") and "共 1 帧" in index and "## 01 · 甲" in index and "\n乙\n" in index
    assert "已把" in capsys.readouterr().err


def test_export_in_chinese_names_the_frames_whose_words_are_english_only(tmp_path, capsys):
    """Frames without caption_zh or title_zh showed English among Chinese slides and nothing said which
    (a lecturer's trial): one line names them; a frame with no words of the deck's is not one."""
    deck = tmp_path / "d.toml"
    deck.write_text('title = "D"\n[[frame]]\nfigure = "recurrence/track"\ntitle = "A"\ntitle_zh = "甲"\n'
                    '[[frame]]\nfigure = "recurrence/tanh"\ncaption = "only English"\n'
                    '[[frame]]\nfigure = "recurrence/readout"\n'
                    '[[frame]]\nfigure = "recurrence/track"\ntitle = "B"\ncaption = "b"\ncaption_zh = "乙"\n'
                    # (a title written in Chinese is not English only: it was said to be, a power user's trial)
                    '[[frame]]\nfigure = "recurrence/tanh"\ntitle = "一次一个 token"\n',
                    encoding="utf-8")
    assert main(["export", str(tmp_path / "zh"), "--deck", str(deck), "--format", "txt", "--lang", "zh"]) == 0
    assert capsys.readouterr().err.strip().splitlines()[-1] == "以下帧在幻灯片文件里只有英文：2 (caption_zh); 4 (title_zh)"
    set_language("en")
    assert main(["export", str(tmp_path / "en"), "--deck", str(deck), "--format", "txt"]) == 0
    assert "English only" not in capsys.readouterr().err


def test_the_english_only_frames_are_all_named_in_ranges(tmp_path, capsys):
    """A 10-frame deck's line ended "…; 9 (title_zh, caption_zh); …", the tenth never named, in the shell too
    (a lecturer's trial): every frame is named, runs of three or more as ranges, so it stays short."""
    frames = "".join(f'[[frame]]\nfigure = "recurrence/track"\ntitle = "T{k}"\ncaption = "c"\n' if k != 6 else
                     '[[frame]]\nfigure = "recurrence/track"\ntitle = "T6"\ntitle_zh = "六"\ncaption = "c"\n'
                     for k in range(1, 12))
    deck = tmp_path / "d.toml"
    deck.write_text('title = "D"\n' + frames, encoding="utf-8")
    assert main(["export", str(tmp_path / "zh"), "--deck", str(deck), "--format", "txt", "--lang", "zh"]) == 0
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line == "以下帧在幻灯片文件里只有英文：1–5, 7–11 (title_zh, caption_zh); 6 (caption_zh)"


# -- the app: live switching, and Chinese in its cells ------------------------------------------------
def _screen_lines(app, size) -> list[str]:
    console = Console(record=True, width=size[0], height=size[1], file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def _footer_words(app) -> list[str]:
    from textual.widgets._footer import FooterKey

    return [k.description for k in app.screen.query(FooterKey) if k.display]


async def test_the_palette_switches_language_live():
    from rnntui.app import RnnApp
    from rnntui.palette import RnnCommands

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "help" in _footer_words(app)
        commands = {text: callback for text, callback, _help, _also in RnnCommands(app.screen).commands()}
        switch = [c for t, c in commands.items() if "语言" in t and "中文" in t]
        assert len(switch) == 1
        switch[0]()
        await pilot.pause()
        await pilot.pause()
        assert app.language == "zh" and language() == "zh"
        assert {"帮助", "退出", "图", "播放", "主题"} <= set(_footer_words(app))
        assert any("帮助" in line for line in _screen_lines(app, (80, 24))[-1:])
        await pilot.press("2")  # another topic, opened after the switch, is in Chinese too
        await pilot.pause()
        assert "帮助" in _footer_words(app)
        commands = [t for t, _c, _h, _a in RnnCommands(app.screen).commands()]
        assert any(t.startswith("转到 ") for t in commands) and any("English" in t for t in commands)
        app.language = "en"
        await pilot.pause()
        await pilot.pause()
        assert "help" in _footer_words(app)
        await pilot.press("1")  # the first topic, drawn in Chinese before, redraws in English
        await pilot.pause()
        await pilot.pause()
        assert "help" in _footer_words(app)


async def test_the_palette_in_chinese_finds_by_description_and_english_words_and_says_theme_apart():
    """A newcomer's trial in Chinese: 位置编码 found nothing (attention/positions says it in its
    description), nor "theme" or "forget"; the colour theme was 主题 as topics are, and the palette's
    placeholder and "No matches found" were English."""
    from textual.command import CommandInput

    from rnntui.app import RnnApp
    from rnntui.palette import RnnCommands

    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        app.language = "zh"
        await pilot.pause()
        found = {}
        for query in ("位置编码", "theme", "forget", "配色"):
            found[query] = [str(hit.text) async for hit in RnnCommands(app.screen).search(query)]
        assert any("attention/positions" in t for t in found["位置编码"])
        assert found["theme"] and all("配色" in t for t in found["theme"])
        assert any("lstm/bias" in t for t in found["forget"])
        assert sorted(found["配色"]) == sorted(found["theme"]) and not any("主题" in t for t in found["配色"])
        # the usual Chinese terms find what their English words find (注意力 found 2 attention figures, 掩码
        # and 梯度消失 none: a zh trial); the words as typed rank first (位置编码: attention/positions)
        commands = RnnCommands(app.screen)
        for query, word in (("注意力", "attention"), ("掩码", "mask"), ("梯度消失", "vanish")):
            hits = [str(hit.text) async for hit in commands.search(query)]
            assert set(hits) >= {str(hit.text) async for hit in commands.search(word)} and hits, query
        ranked = sorted([hit async for hit in commands.search("位置编码")], key=lambda hit: -hit.score)
        assert "attention/positions" in str(ranked[0].text)
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert app.screen.query_one(CommandInput).placeholder == "搜索命令…（中文或英文）"
        await pilot.press(*"zzzq")
        await pilot.pause(0.8)
        assert any("没有匹配" in str(o.prompt) for o in app.screen.query_one("CommandList").options)


async def test_a_language_switched_under_help_leaves_the_footer_whole():
    """With help open, zh → en rewrote the footer's words under it, but Textual lays out only the top
    screen, so English words kept the Chinese widths: "tab fig … ▏^p pale" until help closed (found
    in a newcomer's trial). The footer waits for its screen to be on top again; help has its own."""
    from rnntui.app import RnnApp

    def footer_line(app) -> str:
        console = Console(record=True, width=80, height=24, file=io.StringIO(), force_terminal=True)
        console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
        return console.export_text().splitlines()[-1]

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        app.language = "zh"
        await pilot.pause()
        await pilot.press("question_mark")
        app.language = "en"
        await pilot.pause()
        await pilot.pause()
        under = footer_line(app)
        assert under.split() == ["esc", "close"]  # help's own key, in the new language (the topic's are under it)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        after = footer_line(app)
        assert "tab figure" in after and "^p palette" in after


async def _every_figure(session) -> dict:
    from rnntui.topics import topics

    return {(screen.TOPIC_ID, f.id): (await session.frame(screen, f, f.state_type(), ("txt",)))["txt"]
            for screen in topics() for f in screen.FIGURES}


async def test_a_language_switch_redraws_every_figure_as_an_app_started_in_it():
    """Every figure drawn in English, then the language switched to Chinese: each draws as an app
    started in Chinese does. Widgets skip an input they have drawn, and parallel/capacity's bar and
    parallel/grid's wallclock kept their English words at 80x24 (fails without the redraw of every
    widget in `retranslate`)."""
    from rnntui.render import Session

    async with Session((80, 24)) as session:
        await _every_figure(session)
        session.app.language = "zh"
        await session.settle()
        switched = await _every_figure(session)
    async with Session((80, 24)) as session:  # set_language("zh") was called by the switch
        fresh = await _every_figure(session)
    assert len(fresh) > 30 and "状态：512 个数" in fresh[("parallel", "capacity")]
    assert {k for k in fresh if switched[k] != fresh[k]} == set()


@pytest.mark.parametrize("first, palette", [("en", False), ("zh", False), ("en", True)])
async def test_the_figure_on_screen_is_laid_out_again_for_its_new_words(first, palette):
    """memory/distractor's plot has its title and x label only where it has the rows: a live switch (from the
    palette, as a user makes it) kept the other language's choice until a resize (a keyboard audit). The
    figure on screen is drawn as an app started in the new language draws it."""
    from rnntui.app import RnnApp

    def screen(app) -> str:
        console = Console(record=True, width=80, height=24, file=io.StringIO(), force_terminal=True)
        console.print(app.screen._compositor.render_update(full=True))
        return console.export_text()

    second = {"en": "zh", "zh": "en"}[first]
    shown = {}
    for lang, switch in ((first, True), (second, False)):
        set_language(lang)
        app = RnnApp("memory", "distractor")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if switch and palette:
                await pilot.press("ctrl+p", *"language")
                await pilot.pause(0.3)  # (the palette searches as it idles)
                await pilot.press("enter")
            elif switch:
                app.language = second
            for _pause in range(3):
                await pilot.pause()
            shown[switch] = screen(app)
    assert ("? 帮助" if second == "zh" else "? help") in shown[False]
    assert shown[True] == shown[False]


async def test_a_language_switch_sends_the_figures_words_to_the_terminal():
    """The words a switch changes are repainted, not only drawn: replaying every byte sent, the
    terminal shows parallel/capacity's bar in Chinese, as a fresh frame draws it."""
    from rnntui.app import RnnApp
    from frames import Terminal, full_frame, replaying

    app = RnnApp("parallel", "capacity")
    console = Console(color_system="truecolor", force_terminal=True, width=80, height=24)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = replaying(app, console)
        app.language = "zh"
        await pilot.pause()
        await pilot.pause()
        rows = ["".join(char for char, _sgr in row) for row in shown.cells]
        assert any("状态：512 个数" in row for row in rows)
        assert shown.cells == full_frame(app, console).cells != Terminal(80, 24).cells


def _in_order(needle: str, hay: str) -> bool:
    """Every character of needle, in order, in hay: wrapping may split a text, cropping loses some."""
    pos = 0
    for ch in needle:
        if ch.isspace():
            continue
        pos = hay.find(ch, pos)
        if pos < 0:
            return False
        pos += 1
    return True


async def test_help_and_footer_in_chinese_fit_80x24():
    from rnntui.app import RnnApp
    from rnntui.help import HelpScreen, help_renderable
    from rnntui.widgets.lines import RenderedLines
    from rnntui.keys import CONTRACT

    app = RnnApp("recurrence", lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = _screen_lines(app, (80, 24))
        assert all(cell_len(line) <= 80 for line in lines)
        footer = lines[-1]
        for word in ("帮助", "退出", "图", "播放", "主题", "命令"):
            assert word in footer, (word, footer)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        width = app.screen.query_one(RenderedLines).size.width
        assert 40 < width < 80
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(help_renderable(app.screen.topic_screen))
        shown = console.export_text()
        assert all(cell_len(line) <= width for line in shown.splitlines())
        for k in CONTRACT:
            if k.id not in ("lab", "open_link"):  # (a figure's own: a lab, a table's links)
                assert _in_order(_(k.does), shown), _(k.does)
        for word in ("按键", "参数", "当前", "取值范围", "{lo} 到 {hi} 之间的数".format(lo="-2.00", hi="2.00")):
            assert _in_order(word, shown), word
        screen = _screen_lines(app, (80, 24))
        assert all(cell_len(line) <= 80 for line in screen)
        assert any("按键" in line or "参数" in line for line in screen)


def test_layout_helpers_measure_in_cells():
    from rnntui.widgets.cells import cut, fit
    from rnntui.widgets.matrix import MatrixSpec, matrix_lines
    from rnntui.widgets.table import table_text
    from rnntui.widgets.lines import runs_text
    from rnntui.widgets.track import Row, track_runs

    assert fit("猫", 3) == "猫 " and fit("梯度消失", 5, more="…") == "梯度…" and cut("隐状态", 5) == "隐状"
    table = table_text("模型", ("名字", "参数"), [("RNN", "1"), ("长短期记忆", "4")]).plain.splitlines()
    col = {cell_len(line[:line.index(d)]) for line, d in zip(table[2:], "14")}
    assert len(col) == 1  # the second column starts at one cell for both rows
    track = runs_text(track_runs((Row("隐状态", (0.5, "猫猫", None)), Row("h", (0.1, 0.2, 0.3))), 0, 6)).plain.splitlines()
    assert len({cell_len(line) for line in track[1:] if line.strip()}) <= 2
    mid = [line for line in track if "隐状态" in line][0]
    other = [line for line in track if line.startswith("h ")][0]
    assert cell_len(mid[:mid.index("│")]) == cell_len(other[:other.index("│")]) == 6
    lines = matrix_lines(MatrixSpec(((1.0, 2.0), (3.0, 4.0)), title="注意力", rows=("猫", "跑"), cols=("键", "值")))
    assert len({l.cell_len for l in lines}) == 1


# -- Chinese in PNG and SVG screenshots --------------------------------------------------------------------
def _cjk_in_catalogue_and_decks() -> set[str]:
    from rnntui.deck import SHIPPED

    text = PO.read_text(encoding="utf-8") + "".join(p.read_text(encoding="utf-8") for p in SHIPPED.glob("*.toml"))
    return {ch for ch in text if cell_len(ch) == 2}


def test_the_shipped_cjk_font_has_every_character_rnntui_writes():
    from fontTools.ttLib import TTFont

    from rnntui.glyphs import CJK_SHIPPED

    chars = _cjk_in_catalogue_and_decks()
    assert len(chars) > 300
    cmap = TTFont(CJK_SHIPPED).getBestCmap()
    assert not [ch for ch in chars if ord(ch) not in cmap]
    assert all(ord(ch) in cmap for ch in "梯度消失爆炸裁剪隐状态细胞遗忘门输入输出注意力机制编码器解码器查询键值残差")
    assert CJK_SHIPPED.stat().st_size < 2_000_000


def _common_faces():
    """tools/common_faces.py, which builds the shipped cuts (tools is no package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("common_faces", Path(__file__).parent.parent / "tools" / "common_faces.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rnntuis_own_chinese_cut_holds_what_rnntui_writes_drawn_as_the_shipped_font():
    """A screen's Chinese glyphs are cut from CJK_OWN (tools/common_faces.py) when it holds them: it must
    hold every character rnntui writes, in its catalogue, decks, code and data (else Chinese shots are
    ~5x slower, and their bytes change), and draw each as CJK_SHIPPED."""
    from fontTools.ttLib import TTFont

    from rnntui.glyphs import CJK_OWN, CJK_SHIPPED
    from fontcheck import drawn_alike

    own, shipped = TTFont(CJK_OWN), TTFont(CJK_SHIPPED)
    held = {chr(c) for c in own.getBestCmap()}
    assert _cjk_in_catalogue_and_decks() <= held and set(_common_faces().own_chinese()) <= held
    assert all(drawn_alike(own, shipped, ch) for ch in held if ord(ch) > 0x2E7F)


def test_a_chinese_face_is_the_same_file_whatever_else_the_cut_holds(tmp_path):
    """The cut keeps the whole font's bounds and maxima and its subsets keep them: when rnntui gains a
    Chinese character and the cut is rebuilt, a screen without it embeds the same font (slides change
    only where the screen did). Each subset's maxima still hold its glyphs."""
    from fontTools.ttLib import TTFont

    from rnntui.svg import subset_bytes

    tool = _common_faces()
    fewer, more = tmp_path / "fewer.ttf", tmp_path / "more.ttf"
    fewer.write_bytes(tool.cjk_cut("帮助退出梯度"))
    more.write_bytes(tool.cjk_cut("帮助退出梯度鑫" + tool.own_chinese()))
    faces = [subset_bytes(str(cut), 0, "帮助梯", recalc=False) for cut in (fewer, more)]
    assert faces[0] == faces[1]
    font = TTFont(io.BytesIO(faces[0]))
    glyf = font["glyf"]
    for name in font.getGlyphOrder():
        glyph = glyf[name]
        if glyph.numberOfContours > 0:
            assert len(glyph.coordinates) <= font["maxp"].maxPoints
            assert font["head"].yMin <= glyph.yMin <= glyph.yMax <= font["head"].yMax


def _grid(text: str):
    from rnntui.png import Grid, look_of

    look = look_of(None)
    row = []
    for ch in text:
        row.append((ch, look))
        if cell_len(ch) == 2:
            row.append(("", look))
    return Grid([row], len(row))


def test_a_chinese_png_draws_glyphs_not_boxes():
    from PIL import Image, ImageFont

    from rnntui.glyphs import font_for
    from rnntui.png import CELL_H, CELL_W, ORIGIN_X, ORIGIN_Y, _glyph, draw

    text = "梯度 ab 猫"
    scale = 2.0
    image = Image.open(io.BytesIO(draw(_grid(text), scale))).convert("RGB")
    background = image.getpixel((int(ORIGIN_X * scale) + 2, image.height - 8))
    col = 0
    for ch in text:
        width = cell_len(ch)
        box = (round((ORIGIN_X + col * CELL_W) * scale), round(ORIGIN_Y * scale),
               round((ORIGIN_X + (col + width) * CELL_W) * scale), round((ORIGIN_Y + CELL_H) * scale))
        inked = int((np.asarray(image.crop(box)) != np.asarray(background)).any(axis=-1).sum())
        if ch.strip():
            assert inked > 40, (ch, inked)  # something drawn in the character's cells
        col += width
    # …and it is the character, not the font's .notdef box: the glyph differs from what a character the
    # font lacks (U+FFFF) would draw, and each Chinese character looks different from the other
    face = font_for("猫")
    assert face is not None and face.cjk
    size = round(CELL_W * scale / (1233 / 2048), 2)
    notdef = ImageFont.truetype(face.path, size, index=face.number).getmask("\uffff")
    masks = {ch: _glyph(ch, False, size, CELL_W * scale)[0] for ch in "梯度猫"}
    for ch, mask in masks.items():
        assert (mask.size, mask.tobytes()) != (notdef.size, bytes(notdef)), ch
    assert len({m.tobytes() for m in masks.values()}) == 3


def test_without_a_cjk_font_a_shot_stops_with_one_line(tmp_path, monkeypatch, capsys):
    from rnntui import glyphs
    from rnntui.png import draw
    from rnntui.state import BadValue

    monkeypatch.setattr(glyphs, "CJK_SHIPPED", tmp_path / "gone.ttf")
    monkeypatch.setattr(glyphs, "CJK_FALLBACKS", ())
    monkeypatch.delenv("RNNTUI_CJK_FONT", raising=False)
    with pytest.raises(BadValue, match="apt-get install fonts-wqy-microhei"):
        draw(_grid("梯度"))
    out = tmp_path / "x.png"
    assert main(["shot", "recurrence/track", "--lang", "zh", "-o", str(out)]) == 2  # its footer is Chinese
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fonts-wqy-microhei" in err and "RNNTUI_CJK_FONT" in err
    assert not out.exists()
    for fmt in ("svg", "png"):
        assert main(["shot", "recurrence/track", "--lang", "en", "-o", str(tmp_path / f"en.{fmt}")]) == 0
    monkeypatch.setenv("RNNTUI_CJK_FONT", str(Path(glyphs.__file__).parent / "fonts" / "wqy-microhei-gb2312.ttf"))
    assert main(["shot", "recurrence/track", "--lang", "zh", "-o", str(out)]) == 0 and out.exists()


def test_a_chinese_svg_embeds_the_glyphs_it_uses(tmp_path):
    import base64

    from fontTools.ttLib import TTFont

    out = tmp_path / "x.svg"
    assert main(["shot", "recurrence/track", "--lang", "zh", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "font-family: 'rnntui mono', 'rnntui cjk 1', 'DejaVu Sans Mono', monospace" in svg
    face = re.search(r'font-family: "rnntui cjk 1";[^}]*base64,([A-Za-z0-9+/=]+)', svg)
    cmap = TTFont(io.BytesIO(base64.b64decode(face.group(1)))).getBestCmap()
    assert {ord(ch) for ch in "帮助退出"} <= set(cmap) and len(cmap) < 400  # only what the screen shows, not 20,000
    assert ">帮<" in svg and ">助<" in svg  # each Chinese character on its own cells
    # cut from the small cut of rnntui's own Chinese: each glyph drawn as the whole shipped font draws it,
    # inside the font's bounds
    from rnntui.glyphs import CJK_OWN, CJK_SHIPPED, FontFile, source
    from fontcheck import drawn_alike

    font, whole = TTFont(io.BytesIO(base64.b64decode(face.group(1)))), TTFont(CJK_SHIPPED)
    chars = "".join(sorted(chr(c) for c in cmap if c > 0x2E7F))
    assert source(FontFile(str(CJK_SHIPPED)), chars) == FontFile(str(CJK_OWN))
    assert all(drawn_alike(font, whole, ch) for ch in chars)
    head, glyf = font["head"], font["glyf"]
    for name in font.getGlyphOrder():
        glyph = glyf[name]
        if glyph.numberOfContours:
            glyph.recalcBounds(glyf)
            assert head.xMin <= glyph.xMin <= glyph.xMax <= head.xMax and head.yMin <= glyph.yMin <= glyph.yMax <= head.yMax
    assert source(FontFile(str(CJK_SHIPPED)), chars + "鑫") == FontFile(str(CJK_SHIPPED))  # not in rnntui's text


def test_no_space_follows_a_full_width_colon():
    """Chinese labels end in ：, which carries its own space: "不变式： h_t", "编码器： 85,054,464" and
    "第 0 跳：乘积" beside "终点（第 199 跳） 3.36e-43" read as stray spaces (a newcomer's trial)."""
    from rnntui.render import render
    from rnntui.topics import find

    set_language("zh")
    try:
        shown = {address: render(*find(address)[:2], find(address)[1].state_type(), "txt", (100, 30))
                 for address in ("recurrence/track", "attention/block", "seq2seq/scoring", "attention/masks",
                                 "attention/summary")}
    finally:
        set_language("en")
    assert "不变式：h_t" in shown["recurrence/track"]
    for address, text in shown.items():
        if address != "attention/summary":  # (a table: a cell filled to its ： has one space before the next)
            assert not re.search(r"：\s(?=\S)", text.replace("：  ", "")), address  # (two spaces: a column)
        # and a Chinese label's colon is full-width ("编码器: BERT", "路径长度: O(n)" were not)
        assert not re.search(r"[\u4e00-\u9fff]:", text), (address, re.findall(r".{6}[\u4e00-\u9fff]:.{6}", text))
    assert "编码器：BERT" in shown["attention/masks"] and "路径长度：O(n)" in shown["attention/summary"]


def _cells(line: str) -> list[str]:
    """A line's cells: a wide character, then "" for its second cell."""
    return [part for ch in line for part in ((ch, "") if cell_len(ch) == 2 else (ch,))]


def _zh_shot(tmp_path, suffix: str) -> Path:
    out = tmp_path / f"zh.{suffix}"
    assert main(["shot", "recurrence/track", "--lang", "zh", "--size", "80x24", "-o", str(out)]) == 0
    return out


def test_a_chinese_svg_puts_each_word_on_the_cells_the_screen_gives_it(tmp_path):
    """In an SVG of a Chinese screen every word and character stands on its own columns, as the screen
    text counts them (a Chinese character two cells): after Chinese, Latin words did not drift left, and
    each Chinese glyph (1 em) is centred on its two cells."""
    doc = _zh_shot(tmp_path, "svg").read_text(encoding="utf-8")
    lines = _zh_shot(tmp_path, "txt").read_text(encoding="utf-8").splitlines()
    cell_w, cell_h = 20 * 0.61, 20 * 1.22  # Rich's cell, of its 20 px font
    em = float(re.search(r"-matrix \{[^}]*font-size: ([\d.]+)px", doc).group(1))
    placed = re.findall(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', doc)
    wide = 0
    for x, y, text in placed:
        text, row = html.unescape(text), round((float(y) - 20) / cell_h)
        centred = (2 * cell_w - em) / 2 if cell_len(text) == 2 * len(text) else 0.0
        col = (float(x) - centred) / cell_w
        assert col == pytest.approx(round(col), abs=0.01), (text, row, col)
        col = round(col)
        assert "".join(_cells(lines[row])[col:col + cell_len(text)]) == text, (text, row, col)
        wide += centred > 0
    assert wide > 20 and any(text == "帮" for *_, text in placed)  # Chinese on the screen, as its own texts


def test_a_chinese_svgs_backgrounds_cover_each_line_end_to_end(tmp_path):
    """Each line's background rects (the tabs, the footer's keys, the panels) cover its 80 columns with no
    gap and no overlap: a run of Chinese has a background two cells wide per character."""
    doc = _zh_shot(tmp_path, "svg").read_text(encoding="utf-8")
    lines = _zh_shot(tmp_path, "txt").read_text(encoding="utf-8").splitlines()
    cell_w, cell_h = 20 * 0.61, 20 * 1.22
    rows: dict[int, list] = {}
    for x, y, w in re.findall(r'<rect fill="#[0-9a-f]{6}" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                              r'height="[\d.]+" shape-rendering="crispEdges"/>', doc):
        rows.setdefault(round((float(y) - 1.5) / cell_h), []).append((float(x), float(w)))
    assert sorted(rows) == list(range(len(lines))) == list(range(24))
    for row, rects in rows.items():
        end = 0.0
        for x, w in sorted(rects):
            assert x == pytest.approx(end, abs=0.01), (row, x, end)
            end = x + w
        assert end == pytest.approx(80 * cell_w, abs=0.01), row  # --size 80x24
    assert any(re.search(r"[\u4e00-\u9fff]", line) for line in lines[:2] + lines[-1:])


def test_a_chinese_png_starts_each_word_on_the_column_the_screen_gives_it(tmp_path):
    """In a PNG of a Chinese screen a Latin word after Chinese text ("token", "h_7", "end") starts at its
    column as the screen text counts cells (a Chinese character two): it did not drift left."""
    from PIL import Image

    from rnntui.png import CELL_H, CELL_W, ORIGIN_X, ORIGIN_Y, ROW_TOP

    out = tmp_path / "zh.png"
    assert main(["shot", "recurrence/track", "--lang", "zh", "--size", "80x24", "--scale", "2", "-o", str(out)]) == 0
    image = np.asarray(Image.open(out).convert("RGB")).astype(int)
    lines = _zh_shot(tmp_path, "txt").read_text(encoding="utf-8").splitlines()
    x_at = lambda col: round((ORIGIN_X + col * CELL_W) * 2)  # noqa: E731
    checked = 0
    for row, line in enumerate(lines):
        cells = _cells(line)
        if not any(cell_len(ch) == 2 for ch in line):
            continue
        top = round((ORIGIN_Y + row * CELL_H + ROW_TOP) * 2)
        band = image[top + 2:top + round(CELL_H * 2) - 2]
        for m in re.finditer(r"(?<= )[A-Za-z][A-Za-z0-9_]*", "".join(c or "\0" for c in cells)):
            if not any(cell_len(c) == 2 for c in "".join(cells[:m.start()])):
                continue  # only words after Chinese text
            col = m.start()
            window = band[:, x_at(col - 1):x_at(m.end())]
            inked = np.nonzero((window != band[0, x_at(col) + 1]).any(axis=(0, 2)))[0]
            left = x_at(col - 1) + inked[0]
            assert x_at(col) <= left < x_at(col) + CELL_W, (row, m.group(), left, x_at(col))
            checked += 1
    assert checked >= 4
