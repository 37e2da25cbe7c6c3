"""Widths in terminal cells, not characters: a CJK character (猫, 梯度) takes two cells.

Every layout helper that pads, cuts or centres text goes through these, so that Chinese labels
line up with English ones. `fit` pads or cuts to exactly `width` cells (a wide character that would
straddle the edge becomes a space); `cut` only shortens.
"""
from __future__ import annotations

from rich.cells import cell_len

MORE = "…"

__all__ = ["cell_len", "cut", "fit", "MORE"]


def cut(text: str, width: int, more: str = "") -> str:
    """`text` shortened to at most `width` cells; `more` (e.g. "…") marks a cut."""
    width = max(width, 0)
    if cell_len(text) <= width:
        return text
    mark = more if more and width >= cell_len(more) else ""
    room, used, out = width - cell_len(mark), 0, []
    for ch in text:
        used += cell_len(ch)
        if used > room:  # a wide character that would straddle the edge is left out whole
            break
        out.append(ch)
    return "".join(out) + mark


def fit(text: str, width: int, align: str = "left", more: str = "") -> str:
    """`text` in exactly `width` cells: cut (with `more`) when longer, padded when shorter."""
    width = max(width, 0)
    text = cut(text, width, more)
    space = width - cell_len(text)
    if align == "right":
        return " " * space + text
    if align == "center":
        return " " * (space // 2) + text + " " * (space - space // 2)
    return text + " " * space
