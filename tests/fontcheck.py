"""Whether a font cut draws its characters as the whole font does (tests of the shipped cuts)."""
from fontTools.pens.recordingPen import DecomposingRecordingPen


def drawing(font, ch: str) -> tuple[int, list]:
    """A character's advance and outline (components drawn in), as (operator, flat coordinates)."""
    name, glyphs = font.getBestCmap()[ord(ch)], font.getGlyphSet()
    pen = DecomposingRecordingPen(glyphs)
    glyphs[name].draw(pen)
    return font["hmtx"][name][0], [(op, [xy for point in points if point for xy in point]) for op, points in pen.value]


def drawn_alike(cut, whole, ch: str) -> bool:
    """The same advance and outline (fontTools may move a point of a cut by 1/2048 em)."""
    (advance, ops), (whole_advance, whole_ops) = drawing(cut, ch), drawing(whole, ch)
    return (advance == whole_advance and [op for op, _ in ops] == [op for op, _ in whole_ops]
            and all(len(xy) == len(w) and all(abs(a - b) <= 1 for a, b in zip(xy, w))
                    for (_, xy), (_, w) in zip(ops, whole_ops)))
