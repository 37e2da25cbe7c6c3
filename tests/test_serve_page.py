"""`rnntui serve`'s page: Chinese drawn with the font the server serves (a machine without a CJK font
showed empty boxes, a lecturer's trial), Latin as before."""
import io
import json
import re
from pathlib import Path
from urllib.parse import urljoin
from urllib.request import urlopen

import pytest
from rich.cells import get_character_cell_size

from test_serve import CHROMIUM, ROOT, Served

TOKENS = "那只猫突然开始跑"  # attention's tokens, in English too


def served_font(url: str) -> tuple[str, set[str], str]:
    """The page's CJK font: its unicode-range, the characters the served file has, its content type."""
    from fontTools.ttLib import TTFont

    font = page_font(urlopen(url + "/").read().decode())
    reply = urlopen(urljoin(url + "/", font["url"]))
    chars = {chr(c) for c in TTFont(io.BytesIO(reply.read())).getBestCmap()}
    return font["range"], chars, reply.headers["Content-Type"]


def page_font(page: str) -> dict:
    found = re.search(r"const cjkFont = (\{.*?\});", page)
    assert found, page
    return json.loads(found[1])


def in_range(ch: str, ranges: str) -> bool:
    for part in ranges.split(","):
        low, _, high = part.strip().removeprefix("U+").partition("-")
        if int(low, 16) <= ord(ch) <= int(high or low, 16):
            return True
    return False


def test_the_server_serves_every_chinese_character_the_app_shows_and_only_for_chinese():
    served = Served("attention")
    try:
        ranges, chars, kind = served_font(served.url)
    finally:
        served.stop()
    assert kind == "font/ttf"
    po = (ROOT / "rnntui/locale/zh/LC_MESSAGES/rnntui.po").read_text(encoding="utf-8")
    shown = {ch for ch in TOKENS + po if get_character_cell_size(ch) == 2}  # (--lang zh shows the catalogue)
    assert shown - chars == set()
    assert all(in_range(ch, ranges) for ch in shown)
    assert not any(in_range(ch, ranges) for ch in "W0─│╭⠿▸…·αΣ")  # Latin, box drawing, braille: as before


def test_a_deck_with_chinese_beyond_rnntui_s_own_gets_the_whole_shipped_font():
    from rnntui.glyphs import CJK_OWN, CJK_SHIPPED
    from rnntui.serve_page import cjk_font

    assert cjk_font() == CJK_OWN and cjk_font("title_zh = \"" + TOKENS + "\"") == CJK_OWN
    assert cjk_font("caption_zh = \"丁丈\"") == CJK_SHIPPED  # (GB 2312, not in rnntui's own text)
    assert cjk_font("龜") == CJK_OWN  # (in neither: the browser's fonts, as before)


# The CJK faces' status when the terminal connected (textual.js opens the websocket as it starts)
RECORD = """
window.cjkFaces = [];
const RealWebSocket = window.WebSocket;
window.WebSocket = class extends RealWebSocket {
  constructor(...args) {
    window.cjkFaces.push([...document.fonts].filter((f) => f.unicodeRange.includes("U+4E00") ||
                                                          f.unicodeRange.includes("U+2E80")).map((f) => f.status));
    super(...args);
  }
};
"""

# Text drawn in a font list, regular then bold: the pixels
DRAW = """async ([family, text]) => {
  const drawn = [];
  for (const font of ["24px " + family, "bold 24px " + family]) {
    await document.fonts.load(font, text).catch(() => null);
    const canvas = document.createElement("canvas");
    canvas.width = 200; canvas.height = 40;
    const g = canvas.getContext("2d");
    g.font = font;
    g.fillText(text, 0, 30);
    drawn.push(Array.from(g.getImageData(0, 0, 200, 40).data).join());
  }
  return drawn;
}"""


@pytest.mark.heavy
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian: apt-get install chromium)")
def test_chinese_is_drawn_with_the_served_font_even_when_it_arrives_late(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="no playwright (pip install playwright)")
    import os
    import time

    import textual_serve

    # Roboto Mono installed (textual-serve's copy): the page must not hide it either
    roboto = Path(textual_serve.__file__).parent / "static" / "fonts"
    (tmp_path / "fonts.conf").write_text(f'<?xml version="1.0"?><fontconfig><include ignore_missing="yes">'
                                         f'/etc/fonts/fonts.conf</include><dir>{roboto}</dir>'
                                         f'<cachedir>{tmp_path}</cachedir></fontconfig>')
    served = Served("attention")
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"],
                                        env={**os.environ, "FONTCONFIG_FILE": str(tmp_path / "fonts.conf")})
            page = browser.new_page()
            page.add_init_script(RECORD)

            def slowly(route):  # a slow network: the font comes 1.5 s after the page
                time.sleep(1.5)
                route.continue_()
            page.route("**/fonts/*", slowly)
            page.goto(served.url + "/")
            page.wait_for_selector("body.-first-byte", timeout=30000)
            assert page.evaluate("window.cjkFaces") == [["loaded"]]  # (a glyph drawn before stays a box)
            script = urlopen(served.url + "/static/js/textual.js").read().decode()
            terminal = re.search(r'Terminal\(\{[^}]*fontFamily:"([^"]+)"', script)[1]  # what xterm draws with
            url = urljoin(served.url + "/", page_font(page.content())["url"])
            page.evaluate("async (url) => { const face = new FontFace('served', `url(${url})`); "
                          "document.fonts.add(await face.load()); }", url)
            assert page.evaluate(DRAW, [terminal, TOKENS]) == page.evaluate(DRAW, ["served", TOKENS])  # the served font
            blank = browser.new_page()  # a page without rnntui's fonts: Latin, box drawing, braille as there
            blank.set_content("<p>no fonts</p>")
            assert blank.evaluate(DRAW, ["'Roboto Mono'", "W0"]) != blank.evaluate(DRAW, ["monospace", "W0"])  # (there)
            latin = "W0 ─│╭ ⠿⣀ ▸"
            assert page.evaluate(DRAW, [terminal, latin]) == blank.evaluate(DRAW, [terminal, latin])
            browser.close()
    finally:
        assert served.stop() == 0


@pytest.mark.parametrize("args,lang,words,title", [
    (["attention"], "en", ("Start", "Session ended.", "Restart"), "rnntui · attention"),
    (["--deck", "lecture", "--lang", "zh"], "zh-Hans", ("开始", "会话已结束。", "重新开始"), "rnntui · 从循环到 attention"),
])
def test_the_page_speaks_the_server_s_language(args, lang, words, title):
    """`<html>` had no lang, and the page said "Session ended." / "Restart" under --lang zh (a trial)."""
    served = Served(*args)
    try:
        page = urlopen(served.url + "/").read().decode()
    finally:
        served.stop()
    assert f'<html lang="{lang}">' in page and f"<title>{title}</title>" in page
    assert all(f">{word}<" in page for word in words)
    if lang != "en":
        assert not re.search(r">(Start|Session ended\.|Restart)<", page)


@pytest.mark.heavy
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian: apt-get install chromium)")
def test_after_q_the_page_says_so_in_chinese():
    sync_api = pytest.importorskip("playwright.sync_api", reason="no playwright (pip install playwright)")
    served = Served("--lang", "zh")
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(served.url + "/")
            page.wait_for_selector("body.-first-byte", timeout=30000)
            page.click("#terminal")
            page.keyboard.press("q")
            page.wait_for_selector("body.-closed", timeout=20000)
            said = page.inner_text(".closed-dialog")
            assert "会话已结束。" in said and "重新开始" in said and "Session" not in said
            assert page.evaluate("document.documentElement.lang") == "zh-Hans"
            browser.close()
    finally:
        assert served.stop() == 0


def test_the_full_page_is_in_the_servers_language_with_its_font():
    """The page of a full server was a bare <p>: the tab showed its address for a title and the Chinese as
    boxes on a machine without a CJK font (a lecturer's trial)."""
    from rnntui.i18n import set_language
    from rnntui.serve_page import CJK_RANGE, full_page

    set_language("zh")
    try:
        page = full_page("满了 <3", "/fonts/cjk.ttf")
    finally:
        set_language("en")
    assert '<html lang="zh-Hans">' in page and "<title>rnntui</title>" in page and "满了 &lt;3" in page
    assert 'url("/fonts/cjk.ttf")' in page and f"unicode-range: {CJK_RANGE}" in page
    assert '"rnntui cjk", sans-serif' in page  # Chinese from the served font, the rest from the browser's
