"""Rebuild the font cuts an SVG screenshot embeds most (rnntui/svg.py), from the shipped fonts:

- DejaVuSansMono-common.ttf and DejaVuSansMono-Bold-common.ttf: DejaVu Sans Mono cut to glyphs.COMMON,
  the characters most screens draw (embedded as they are: no subsetting while rnntui runs);
- wqy-microhei-rnntui.ttf: the shipped WenQuanYi Micro Hei cut to the Chinese of rnntui's own text
  (catalogue, decks, code, data), where a screen's Chinese glyphs are cut from ~5x sooner. It keeps the
  whole font's bounds and maxima (head, hhea, vhea, maxp), which its subsets keep in turn: a screen's
  SVG does not change when the cut gains a character.

Run it after changing COMMON or adding Chinese text (tests/test_slides_png.py and tests/test_i18n.py
check that they still match):

    python tools/common_faces.py
"""
from __future__ import annotations

import io
from pathlib import Path

from rich.cells import get_character_cell_size

from rnntui.glyphs import CJK_OWN, CJK_SHIPPED, COMMON, DEJAVU, FontFile, cmap
from rnntui.svg import common_path, subset_bytes

PACKAGE = Path(__file__).resolve().parent.parent / "rnntui"
TEXT = (".py", ".po", ".toml", ".json", ".html", ".tcss")


def own_chinese() -> str:
    """Every two-cell character of rnntui's own text files that the shipped CJK font draws."""
    chars = set()
    for path in PACKAGE.rglob("*"):
        if path.suffix in TEXT and path.is_file():
            chars |= {ch for ch in path.read_text(encoding="utf-8") if get_character_cell_size(ch) == 2}
    shipped = cmap(FontFile(str(CJK_SHIPPED)))
    return "".join(sorted(ch for ch in chars if ord(ch) in shipped))


MAXIMA = {"head": ("xMin", "yMin", "xMax", "yMax"),
          "hhea": ("advanceWidthMax", "minLeftSideBearing", "minRightSideBearing", "xMaxExtent"),
          "vhea": ("advanceHeightMax", "minTopSideBearing", "minBottomSideBearing", "yMaxExtent"),
          "maxp": ("maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours",
                   "maxComponentElements", "maxComponentDepth")}


def cjk_cut(chars: str) -> bytes:
    """The shipped CJK font cut to `chars`, with the whole font's bounds and maxima (MAXIMA)."""
    from fontTools.ttLib import TTFont

    whole = TTFont(str(CJK_SHIPPED), recalcBBoxes=False, recalcTimestamp=False)
    cut = TTFont(io.BytesIO(subset_bytes(str(CJK_SHIPPED), 0, chars)), recalcBBoxes=False, recalcTimestamp=False)
    for table, fields in MAXIMA.items():
        if table in cut:
            for field in fields:
                setattr(cut[table], field, getattr(whole[table], field))
    out = io.BytesIO()
    cut.save(out)
    return out.getvalue()


def main() -> None:
    for weight, path in DEJAVU.items():
        common_path(weight).write_bytes(subset_bytes(str(path), 0, COMMON))
    CJK_OWN.write_bytes(cjk_cut(own_chinese()))
    for out in (*map(common_path, DEJAVU), CJK_OWN):
        print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
