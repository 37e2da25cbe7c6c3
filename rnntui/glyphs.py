"""Which font draws each character of a screenshot (PNG and SVG): DejaVu Sans Mono, then a CJK font.

DejaVu Sans Mono (rnntui/fonts) has no Chinese. Chinese characters (two cells wide) come from the
first CJK font that has them:

1. $RNNTUI_CJK_FONT, a .ttf/.otf/.ttc file, when set;
2. the shipped subset of WenQuanYi Micro Hei (rnntui/fonts/wqy-microhei-gb2312.ttf, Apache-2.0): all
   of GB 2312, CJK punctuation, fullwidth forms and every character of rnntui's own Chinese text
   (tools/cjk_font.py rebuilds it);
3. an installed CJK font (Debian's fonts-wqy-microhei, fonts-noto-cjk, fonts-wqy-zenhei).

A character that no font has stops the screenshot with one line naming what to install
(`check`): never an empty box.
"""
from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from rnntui.i18n import N_, _
from rnntui.shapes import is_shape

FONT_DIR = Path(__file__).resolve().parent / "fonts"
DEJAVU = {400: FONT_DIR / "DejaVuSansMono.ttf", 700: FONT_DIR / "DejaVuSansMono-Bold.ttf"}
CJK_SHIPPED = FONT_DIR / "wqy-microhei-gb2312.ttf"
CJK_OWN = FONT_DIR / "wqy-microhei-rnntui.ttf"  # CJK_SHIPPED cut to rnntui's own Chinese (tools/common_faces.py)
CJK_FALLBACKS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
)
INSTALL_CJK = N_("cannot draw {chars}: the shipped Chinese font covers GB 2312 (simplified Chinese); "
                 "install a CJK font (Debian/Ubuntu: apt-get install fonts-wqy-microhei) or set RNNTUI_CJK_FONT "
                 "to a font file that has them")
# (the blocks a CJK font covers: radicals, punctuation, kana, ideographs, Hangul, full-width forms; ✅ is wide,
# an emoji, and in none: "install a CJK font" for it was wrong, a power user's trial)
CJK_BLOCKS = ((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF),
              (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF))  # (Hangul's jamo too, not Yi: a review)
NO_FACE = N_("cannot draw {chars}: no font here has them, the shipped ones included; take them out (a .txt keeps "
             "them)")


def is_cjk(ch: str) -> bool:
    """Whether `ch` is in a block a CJK font covers (CJK_BLOCKS)."""
    return any(a <= ord(ch) <= b for a, b in CJK_BLOCKS)


@dataclass(frozen=True)
class FontFile:
    path: str
    number: int = 0  # the face in a .ttc collection

    @property
    def cjk(self) -> bool:
        return not _dejavu(self.path)


REGULAR = FontFile(str(DEJAVU[400]))
# The characters most screens draw, all in DejaVu Sans Mono: an SVG embeds them from subsets shipped
# in rnntui/fonts (tools/common_faces.py), and looking them up needs no font file read
COMMON = "".join(sorted(
    {chr(c) for c in range(0x21, 0x7F)}
    | {chr(c) for c in range(0x3B1, 0x3CA)}  # α … ω
    | set("ΓΔΘΛΠΣΦΨΩ§°±²³¹·×÷ĉŜŷᵀᵢₖⁿ⁰⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉⁺⁻₊₋–—‖‘’“”•…′←↑→↓↔⇥⏎∂∑∏∈−√∞≈≋≠≤≥⊙▲▸▼◂◆●○■□✂✓✗")))
_IN_COMMON = frozenset(COMMON)


@lru_cache(maxsize=16)
def _dejavu(path: str) -> bool:  # (asked for every character of a screenshot: a Path each was ~5 µs)
    return Path(path) in DEJAVU.values()


def cjk_files() -> tuple[FontFile, ...]:
    """The CJK fonts to try, in order (only files that exist)."""
    chosen = os.environ.get("RNNTUI_CJK_FONT", "").strip()
    paths = ([chosen] if chosen else []) + [str(CJK_SHIPPED), *CJK_FALLBACKS]
    return tuple(FontFile(p) for p in dict.fromkeys(paths) if os.path.isfile(p))


@lru_cache(maxsize=16)
def cmap(font: FontFile) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    try:
        with TTFont(font.path, fontNumber=font.number, lazy=True) as f:
            return frozenset(f.getBestCmap() or {})
    except Exception:  # an unreadable file is a font without glyphs
        return frozenset()


def source(face: FontFile, chars: str) -> FontFile:
    """The file to cut `chars` of `face` from: the shipped CJK font's small cut (CJK_OWN, ~670 glyphs of
    its 7,000+) when it holds them all. The same outlines (tests), ~5x sooner."""
    if face.path == str(CJK_SHIPPED) and face.number == 0:
        own = FontFile(str(CJK_OWN))
        if all(ord(ch) in cmap(own) for ch in chars):
            return own
    return face


def drawn(ch: str) -> bool:
    """Whether a character is drawn with a font (not a space, an empty braille cell or a shape)."""
    return bool(ch) and not ch.isspace() and ch != "\u2800" and not is_shape(ch)


def font_for(ch: str, files: tuple[FontFile, ...] | None = None) -> FontFile | None:
    """The font that draws `ch`: DejaVu Sans Mono when it has it, else the first CJK font (of `files`,
    `cjk_files()` when not given: a caller with many characters looks them up once); None: none."""
    if ch in _IN_COMMON:
        return REGULAR
    code = ord(ch)
    if code in cmap(REGULAR):
        return REGULAR
    for font in cjk_files() if files is None else files:
        if source(font, ch) != font or code in cmap(font):  # in the small cut: the whole map is not read
            return font
    return None


def check(chars: Iterable[str], files: tuple[FontFile, ...] | None = None) -> None:
    """Raise BadValue (one line: what to install) when some character has no font here (`files`: the
    CJK fonts, as `font_for` takes them)."""
    missing = sorted({ch for ch in chars if drawn(ch) and font_for(ch, files) is None})
    if missing:
        from rnntui.state import BadValue

        # (a control character went to the terminal as it was, and U+202E turned the line: a trial)
        pieces = [ch if unicodedata.category(ch)[0] != "C" else f"U+{ord(ch):04X}" for ch in missing[:8]]
        # one space apart: "測試語국어한" read as one word (a Chinese student's trial)
        shown = " ".join(pieces) + (" …" if len(missing) > 8 else "")
        # a CJK font's advice where one would draw them all: not ⋮ (a trial), 🙂 (a review) or ✅ (a trial)
        cjk = all(map(is_cjk, missing))
        raise BadValue(_(INSTALL_CJK if cjk else NO_FACE).format(chars=shown))
