"""Rebuild rnntui/fonts/wqy-microhei-gb2312.ttf: WenQuanYi Micro Hei (Debian's fonts-wqy-microhei,
Apache-2.0) cut down to the characters of GB 2312 (the 6,763 hanzi of simplified Chinese and its
punctuation), CJK punctuation, fullwidth forms, and every character of rnntui's Chinese catalogue and
shipped decks.

    apt-get install fonts-wqy-microhei
    python tools/cjk_font.py [/usr/share/fonts/truetype/wqy/wqy-microhei.ttc]

Text outside this set still draws when an installed CJK font has it (rnntui/svg.py: CJK_FALLBACKS);
otherwise a screenshot stops with one line saying what to install, never with empty boxes.
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rnntui" / "fonts" / "wqy-microhei-gb2312.ttf"
SOURCE = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def gb2312() -> set[str]:
    chars = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars


def wanted() -> set[str]:
    chars = gb2312() | {chr(c) for c in range(0x3000, 0x3040)} | {chr(c) for c in range(0xFF01, 0xFF5F)}
    for path in [*ROOT.glob("rnntui/locale/*/LC_MESSAGES/*.po"), *ROOT.glob("rnntui/decks/*.toml")]:
        chars |= set(path.read_text(encoding="utf-8"))
    dejavu = TTFont(ROOT / "rnntui" / "fonts" / "DejaVuSansMono.ttf").getBestCmap()
    return {c for c in chars if ord(c) > 0x2E7F or ord(c) not in dejavu}  # DejaVu draws the rest


def main(source: str = SOURCE) -> None:
    font = TTFont(source, fontNumber=0)
    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.drop_tables += ["FFTM", "kern", "GPOS", "GSUB", "GDEF"]
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence notices
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(wanted())))
    subsetter.subset(font)
    font.save(OUT)
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB, {len(font.getBestCmap())} characters)")


if __name__ == "__main__":
    main(*sys.argv[1:])
