"""Widths in terminal cells, not characters: a CJK character (猫, 梯度) takes two cells.

Every layout helper that pads, cuts or centres text goes through these, so that Chinese labels
line up with English ones. `fit` pads or cuts to exactly `width` cells (a wide character that would
straddle the edge becomes a space); `cut` only shortens.
"""
from __future__ import annotations

from rich.cells import cell_len

MORE = "…"

__all__ = ["aligned", "cell_len", "cut", "fit", "MORE"]


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


def label_row(placed, width: int) -> str:
    """Words at their starts on one line of `width` cells (each kept inside it), a space at least
    between two: a word that would touch or cover the one before it is left out. Axis tick labels, the
    share bar's x0 x1 …"""
    line, edge = [" "] * width, -1
    for start, word in placed:
        start = min(max(start, 0), width - len(word))
        if start > edge:
            line[start:start + len(word)] = word
            edge = start + len(word)
    return "".join(line).rstrip()


def aligned(words, gap: int = 1) -> list[str]:
    """`words` padded to one width, the widest one's plus `gap` spaces: labels whose values start in
    one column."""
    width = max(cell_len(w) for w in words) + gap
    return [fit(w, width) for w in words]


CLOSING = "，。：；、）」』！？》…”’"  # punctuation that stays with what it closes
OPENING = "（「『《“‘"  # and what it opens (help's “原文” / ”：… began a line with ”, a Chinese student's trial)


def _breakable(a: str, b: str) -> bool:
    """May a line break between characters a and b? At spaces, after an arrow (decoder→ encoder), and
    next to a wide (CJK) character, except before closing punctuation (，。：；、）」”) which stays with
    what it closes, and after opening punctuation (（「“)."""
    if b in CLOSING or a in OPENING:
        return False
    return a in " →" or b == " " or cell_len(a) == 2 or cell_len(b) == 2


def longest_word(text: str) -> int:
    """The cells of the widest piece of `text` that `wrap` keeps on one line when it can."""
    longest, piece = 0, ""
    for ch in text:
        if piece and _breakable(piece[-1], ch):
            longest, piece = max(longest, cell_len(piece.strip())), ""
        piece += ch
    return max(longest, cell_len(piece.strip()))


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` cells: English breaks at spaces, Chinese between any two characters
    (it has no spaces), so a Chinese paragraph fills its lines instead of breaking early."""
    width = max(width, 1)
    lines = []
    for paragraph in text.split("\n"):
        plain = paragraph.isascii()  # one cell a character, breaks at spaces only: no cell_len (10× faster)
        lines += _lines(paragraph, width, plain) if plain else _no_orphan(_lines(paragraph, width, plain), width)
    return lines


GROUP = 24  # a bracketed formula up to this many cells stays on one line in Chinese text: "x_(t mod 8)"


def _kept_whole(paragraph: str, width: int) -> set[int]:
    """Indices inside a short (…) or （…） in `paragraph` that fits the line: no break before them (a
    formula in Chinese text broke at its inner space, "x_(t" / "mod 8)"; an aside, "（右移" / "一列）").
    A wider one breaks as before; brackets nest ("（x_t = x_(t mod 8)）" broke after "x_t =": the inner
    pair closed the outer one's count, a student's trial)."""
    kept, opened = set(), []
    for i, ch in enumerate(paragraph):
        if ch in "(（":
            opened.append(i)
        elif ch in ")）" and opened:
            start = opened.pop()
            if cell_len(paragraph[start:i + 1]) <= min(GROUP, width):  # (cells: 24 Chinese characters left a
                # line before it nearly empty, a review)
                kept.update(range(start + 1, i + 1))
    return kept


def _glued(paragraph: str, i: int) -> bool:
    """Would a break before paragraph[i] part a value from its "=", or a number from the Chinese word beside it?
    ("b_f =" / "2；", "到第 625" / "步仍未达到": a Chinese student's trial.) Spaces between them do not count."""
    j, k = i, i
    while j > 0 and paragraph[j - 1] == " ":
        j -= 1
    while k < len(paragraph) and paragraph[k] == " ":
        k += 1
    if j == 0 or k == len(paragraph):
        return False
    before, after = paragraph[j - 1], paragraph[k]
    if after.isdigit() or after in "-−+.":  # a value: "= 2", "第 625"
        return before == "=" or (cell_len(before) == 2 and before not in CLOSING)
    return before.isdigit() and cell_len(after) == 2 and after not in OPENING  # "625 步"


def _lines(paragraph: str, width: int, plain: bool) -> list[str]:
    """The paragraph broken at the last place allowed before each line would pass `width`."""
    lines, line, last_break, cells = [], "", -1, 0
    kept = set() if plain else _kept_whole(paragraph, width)
    for i, ch in enumerate(paragraph):
        if line and ((line[-1] == " " or ch == " ") if plain else _breakable(line[-1], ch) and i not in kept
                                                                    and not _glued(paragraph, i)):
            last_break = len(line)
        line += ch
        cells += 1 if plain else cell_len(ch)
        if cells > width:
            cut_at = last_break if last_break > 0 else len(line) - 1
            lines.append(line[:cut_at].rstrip())
            line, last_break = line[cut_at:].lstrip(), -1
            cells = len(line) if plain else cell_len(line)
    lines.append(line.rstrip())
    return lines


def _no_orphan(lines: list[str], width: int) -> list[str]:
    """A paragraph that ends in one Chinese character alone on its line (its closing punctuation
    aside) takes the character before it down too: "梯度沿链条消失或爆" / "炸" split the word 爆炸."""
    if len(lines) < 2:
        return lines
    before, last = lines[-2], lines[-1]
    alone = last.rstrip(CLOSING)
    if len(alone) != 1 or cell_len(alone) != 2 or len(before) < 3 or cell_len(before[-1]) != 2:
        return lines
    if not _breakable(before[-2], before[-1]) or _glued(before, len(before) - 1) or \
            cell_len(before[-1] + last) > width:
        return lines
    return lines[:-2] + [before[:-1].rstrip(), before[-1] + last]
