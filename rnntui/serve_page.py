"""What `rnntui serve`'s page gets besides textual-serve's own: its words in the server's language, and
a Chinese font served by the server itself (the page loads nothing from the internet).

The browser's terminal (xterm) asks for "Roboto Mono", then the machine's fonts; a machine without a CJK
font drew every Chinese character as an empty box. The page declares the shipped CJK font as "Roboto
Mono" for CJK and full-width characters only (CJK_RANGE), so Latin, box drawing and braille fall back to
the same fonts as before, and waits for it before the terminal starts (xterm keeps each glyph it drew).
"""
from __future__ import annotations

from pathlib import Path

# CJK radicals to unified ideographs (punctuation, kana and enclosed forms between), compatibility
# ideographs and forms, full-width forms: the characters that take two cells
CJK_RANGE = "U+2E80-9FFF, U+F900-FAFF, U+FE30-FE4F, U+FF01-FF60, U+FFE0-FFE6"
HTML_LANG = {"zh": "zh-Hans"}  # <html lang>: the catalogue is Simplified Chinese


def cjk_font(text: str = "") -> Path:
    """rnntui's own cut of the shipped CJK font (every Chinese character of its own text), or the whole
    shipped font (GB 2312) when `text`, a lecturer's deck, has Chinese that the cut lacks."""
    from rnntui.glyphs import CJK_OWN, CJK_SHIPPED, FontFile, cmap

    wide = _wide(text)
    if not wide:  # (no deck, or one without Chinese: no font read, no fontTools at the server's start)
        return CJK_OWN
    missing = wide - cmap(FontFile(str(CJK_OWN)))
    return CJK_SHIPPED if missing & cmap(FontFile(str(CJK_SHIPPED))) else CJK_OWN


def lacking(text: str) -> str:
    """The wide characters of `text` (a lecturer's deck) that even the whole shipped font lacks: a browser
    without a font of its own for them draws boxes (Traditional 語 or Korean in a deck, a lecturer's trial)."""
    from rnntui.glyphs import CJK_SHIPPED, FontFile, cmap

    wide = _wide(text)
    return "".join(map(chr, sorted(wide - cmap(FontFile(str(CJK_SHIPPED)))))) if wide else ""


def _wide(text: str) -> set[int]:
    """The code points of `text` that take two cells (Chinese, Korean, full-width forms)."""
    from rich.cells import get_character_cell_size

    return {ord(ch) for ch in set(text) if get_character_cell_size(ch) == 2}


def page_words() -> dict[str, str]:
    """The page's own words, and its language, in the server's language (templates/app_index.html)."""
    from rnntui.i18n import _, language

    return {"lang": HTML_LANG.get(language(), language()), "start": _("Start"), "ended": _("Session ended."),
            "restart": _("Restart")}


def full_page(message: str, font_url: str, retry_s: int | None = None) -> str:
    """The page a tab gets when every session is in use: titled, in the server's language, its Chinese
    drawn with the served font (a bare <p> drew boxes on a machine without a CJK font, a lecturer's trial)."""
    from html import escape

    words = page_words()
    again = f'<meta http-equiv="refresh" content="{retry_s}">' if retry_s else ""  # (the page asks again by itself)
    return (f'<!DOCTYPE html><html lang="{escape(words["lang"])}"><head><meta charset="utf-8"><title>rnntui</title>'
            f'{again}<style>@font-face {{font-family: "rnntui cjk"; src: url("{escape(font_url)}"); '
            f"unicode-range: {CJK_RANGE};}} body {{font: 20px/1.6 \"rnntui cjk\", sans-serif; margin: 3em; "
            f"background: #121212; color: #e0e0e0;}}</style></head><body><p>{escape(message)}</p></body></html>")
