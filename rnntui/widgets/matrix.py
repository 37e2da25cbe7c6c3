"""Numeric matrices with row and column labels, one or several side by side, and a sign heat map.

`matrix_lines(spec, width)` draws one matrix: a title, a header of column labels and one line per
row, every width measured in terminal cells (a CJK label like 猫 is 2 cells). The highlighted row
is reversed and marked ▸ in the margin; the highlighted cell is underlined and reversed against its
row (so both read under NO_COLOR); cells in `faint` are dim (e.g. masked weights). An entry is a
number (fixed decimals, −∞ drawn as the mark −∞, NaN as "NaN"), a string (drawn as given) or None
(blank). When the matrix is wider than `width`, the columns that do not fit become one `…` column.

`matrices_text(specs, width, height)` lays several matrices out left to right (wrapping into
bands below), at 3 decimals when everything fits and 2 otherwise; `optional` specs are left out,
the highest rank first (a `group` together), until the rest fit; matrices that fit across at 2
decimals but not down are tried at 1 (the figure's readouts carry the exact numbers), and so are the
current ones with what they are computed from (`needed`) before one of those is left out; those
too wide to draw whole are drawn with the columns that fit, sharing a band's width; what still does
not fit is cut at the height. A line under them names the `name`d ones left out. The widget
`Matrices` does that at its own size.

`heat_lines(values, ...)` shades each entry (−1…1) with ░▒▓█ by size and a +/− sign mark.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Sequence

from rich.cells import cell_len
from rich.text import Text
from rnntui.widgets.lines import Lines
from rnntui.widgets.quiet import joined, runs, same

from rnntui import lazy
from rnntui.i18n import _, language
from rnntui.fmt import fixed
from rnntui.widgets.cells import fit, longest_word, wrap
from rnntui.widgets.tints import BAD, NEGATIVE, POSITIVE

MORE = "…"
HEADING = 8  # cells of a column's heading that a narrowed table keeps (yes/no under "parallel in…")
SHADES = "░▒▓█"
np = lazy.numpy(globals())  # imported when a heat map first draws


@dataclass(frozen=True)
class MatrixSpec:
    values: tuple  # rows of float | str | None
    title: str = ""
    rows: tuple[str, ...] = ()  # row labels
    cols: tuple[str, ...] = ()  # column labels
    row: int | None = None  # the highlighted row
    cell: tuple[int, int] | None = None  # the highlighted cell (row, column)
    current: bool = False  # the matrix the figure is about: its title is reversed between ▸ ◂
    digits: int | None = None  # decimals; None: as many as fit (3 or 2)
    faint: tuple = ()  # (row, column) pairs drawn dim
    optional: int = 0  # > 0: may be left out when there is no room, the highest first
    group: str = ""  # optional specs of one group are left out together (Q K V: not one of them alone)
    needed: bool = False  # the current matrix is computed from it: one decimal before it is left out
    name: str = ""  # left out, it is named under the matrices drawn ("" : not named)
    shrink: bool = False  # too wide: narrow the columns (text cut with …) rather than leave columns out
    grow: bool = False  # marks (● ·): drawn as tiles of marks where the room allows (`tile_lines`)
    alone: bool = False  # in a band of its own: beside other matrices its rows read as theirs
    corner: str = ""  # over the row labels, on the column labels' line (a table's "d=512": a line its title took)


@lru_cache(maxsize=64)
def index_labels(n: int) -> tuple[str, ...]:
    """Labels 0 … n−1 for a matrix's rows or columns."""
    return tuple(str(j) for j in range(n))


def pad(text: str, width: int, align: str = "right") -> str:
    """Pad to `width` cells (not characters); cut with … when longer."""
    return fit(text, width, "right" if align == "right" else "left", MORE)


def entry(v, digits: int) -> str:
    if v is None or isinstance(v, str):
        return v or ""
    return fixed(v, digits)


def matrix_lines(spec: MatrixSpec, width: int | None = None, digits: int = 2, spaced: bool = False,
                 tall: int | tuple = 1, head: int = 1, rule: str = "│") -> list[Text]:
    """One matrix as lines of equal cell width, at most `width` cells wide when given; `spaced` leaves
    a blank line between rows (for tall terminals); `tall` lines a row (one number, or one per row),
    for text cells wrapped in their column; `head` lines of column labels. Drawn once per (spec, width,
    digits, tall, head, rule): a key usually changes one or two of a figure's matrices (the lines are shared:
    do not change them)."""
    try:  # (the language too: a cut matrix's note, "11 of 64 columns", is in it)
        lines = list(_matrix_lines(spec, width, digits, tall, head, rule, language()))
    except TypeError:  # unhashable values (arrays): draw without the cache
        lines = _draw_matrix(spec, width, digits, tall, head, rule)
    if not spaced:
        return lines
    at = (1 if spec.title else 0) + head  # title and column labels
    out, gap = lines[:at], Text("")
    if spec.shrink and len(lines) > at:  # a ruled table's rules run on through the blank lines
        gap = Text("".join("│" if ch == "│" else " " * cell_len(ch) for ch in lines[at].plain).rstrip(), style="dim")
    for i, n in enumerate(tall if isinstance(tall, tuple) else (tall,) * len(spec.values)):
        out += ([gap] if i else []) + lines[at:at + n]
        at += n
    return out


@lru_cache(maxsize=512)
def _matrix_lines(spec: MatrixSpec, width: int | None, digits: int, tall: int | tuple = 1, head: int = 1,
                  rule: str = "│", _language: str = "en") -> tuple[Text, ...]:
    return tuple(_draw_matrix(spec, width, digits, tall, head, rule))


def natural_width(spec: MatrixSpec, digits: int = 2) -> int:
    """The cells `matrix_lines(spec, None, digits)` is wide, without drawing it (a matrix too wide for
    its room was drawn whole at two precisions only to be measured: ~1 ms each for a 5×64 matrix)."""
    _rows, n_cols, _texts, _words, _cols, cw, _labels, lw = _cells(spec, digits)
    total = 2 + lw + n_cols * (cw + 1)
    if not spec.title:
        return total
    return max(total, cell_len(f"▸{spec.title}◂"))  # as drawn, chosen (▸…◂) or not: the same


def _cells(spec: MatrixSpec, digits: int) -> tuple:
    """The entries as text and what their widths need: (rows, columns, texts, columns of words,
    column labels, column width, row labels, label width), worked out once for measuring and drawing
    (read only: the lists are shared)."""
    try:
        return _cached_cells(spec, digits)
    except TypeError:  # unhashable values (arrays)
        return _entries(spec, digits)


@lru_cache(maxsize=512)
def _cached_cells(spec: MatrixSpec, digits: int) -> tuple:
    return _entries(spec, digits)


def _entries(spec: MatrixSpec, digits: int) -> tuple:
    digits = spec.digits if spec.digits is not None else digits
    rows = [list(r) for r in spec.values]
    n_cols = max((len(r) for r in rows), default=0)
    texts = [[entry(r[j] if j < len(r) else None, digits) for j in range(n_cols)] for r in rows]
    words = {j for r in rows for j, v in enumerate(r) if isinstance(v, str) and cell_len(v) > 1}  # text: left aligned (是 too)
    cols = [spec.cols[j] if j < len(spec.cols) else "" for j in range(n_cols)]
    cw = max([cell_len(t) for r in texts for t in r] + [cell_len(c) for c in cols] + [1])
    labels = [spec.rows[i] if i < len(spec.rows) else "" for i in range(len(rows))]
    lw = max([cell_len(l) for l in labels] + [cell_len(spec.corner) + bool(spec.corner)])  # (a space after it)
    return rows, n_cols, texts, words, cols, cw, labels, lw


def _columns(spec: MatrixSpec, width: int | None, digits: int, rule: str = "│") -> tuple[int, list[int], int]:
    """How many columns are drawn, each one's width, and the row labels' width, for a matrix at most
    `width` cells wide. A narrowed table's row labels break after a space, + or / ("seq2seq+" /
    "attention"): the 17 cells of "seq2seq+attention" went to the other columns' words."""
    rows, n_cols, texts, words, cols, cw, labels, lw = _cells(spec, digits)
    margin = 2 + lw  # "▸" + label + " "
    if width is None or margin + n_cols * (cw + 1) <= width:
        return n_cols, [cw] * n_cols, lw
    if spec.shrink and n_cols:
        short = max([cell_len(part.rstrip()) for label in labels for part in _label_parts(label)] + [0])
        room = width - 2 - short - n_cols - (len(rule) - 1) * (n_cols - 1)  # the columns' cells (a rule after each)
        if room >= 3 * n_cols:
            return n_cols, _narrowed(texts, cols, room), short
    cw = 3 if spec.shrink else cw
    return min(max((width - margin - 2) // (cw + 1), 1), n_cols), [cw] * n_cols, lw


def _label_parts(text: str) -> list[str]:
    """A row label in the pieces it may break after: a space, + or /."""
    return [part for part in re.split(r"(?<=[ +/])", text) if part]


def _row_label(text: str, width: int, tall: int) -> list[str]:
    """A row label over at most `tall` lines of `width` cells, broken after a space, + or /; the last
    line cut with … when more is left."""
    lines: list[str] = []
    for part in _label_parts(text):
        if lines and cell_len((lines[-1] + part).rstrip()) <= width:
            lines[-1] += part
        else:
            lines.append(part)
    if len(lines) > tall:
        lines = lines[:tall - 1] + ["".join(lines[tall - 1:])]
    return [line.rstrip() for line in lines] or [""]


def _draw_matrix(spec: MatrixSpec, width: int | None, digits: int, tall: int | tuple = 1, head: int = 1,
                 rule: str = "│") -> list[Text]:
    """`tall`: lines a row (one number for every row, or one each); `head`: lines of column labels;
    `rule`: between a narrowed table's columns (shrink), with a space each side or after it where
    that fits ("│" alone: the text touches it)."""
    rows, n_cols, texts, words, cols, cw, labels, _lw = _cells(spec, digits)
    shown, widths, lw = _columns(spec, width, digits, rule)
    margin = 2 + lw
    talls = tall if isinstance(tall, tuple) else (tall,) * len(texts)
    cut = shown < n_cols
    total = margin + sum(widths[:shown]) + shown + (len(rule) - 1) * (shown - 1) * spec.shrink + (2 if cut else 0)

    out: list[Text] = []
    title = Text()
    if spec.title:
        if spec.current:
            title.append(f"▸{spec.title}◂", style="bold reverse")
        else:
            title.append(f" {spec.title}", style="bold")
    # as wide as when chosen: the matrices beside it stay put as the choice moves (they moved, a trial)
    title.append(" " * max(max(total, cell_len(f"▸{spec.title}◂") if spec.title else 0) - title.cell_len, 0))
    if spec.title:
        out.append(title)
    heads = [_label(cols[j], widths[j], head) for j in range(shown)]
    # (a rule between narrowed text columns: a space apart, they read on: "a fixed state a state carried")
    for t in range(head):
        corner = spec.corner if not t else ""
        line = Text(" " + pad(corner, lw, "left") + " ", style="bold") if corner else Text(" " * margin)
        for j in range(shown):
            ruled = spec.shrink and j < shown - 1
            line.append(pad(heads[j][t] if t < len(heads[j]) else "", widths[j], "left" if j in words else "right")
                        + ("" if ruled else " "), style="bold" if spec.cell and spec.cell[1] == j else "dim")
            if ruled:
                line.append(rule, style="dim")
        if cut:
            line.append(f"{MORE} " if not t else "  ", style="dim")
        out.append(line)
    faint = set(spec.faint)
    for i, r in enumerate(texts):
        on_row, tall = spec.row == i, talls[i]
        # a text cell wrapped over the row's `tall` lines, its last shown line cut with … if more is left
        parts = [_folded(r[j], widths[j], tall) if j in words else [r[j]] for j in range(shown)]
        label = _row_label(labels[i], lw, tall) if cell_len(labels[i]) > lw else [labels[i]]
        # a text table (shrink) marks its row by ▸ and its label and the cell by one reversed block over the
        # row's lines: its row reversed whole was a black slab, the cell a white hole in it with an underline
        # running into the gap, a dim cell a grey box (a lecturer's PNG)
        block = spec.shrink
        for t in range(tall):
            named = t < len(label) and label[t].strip()
            pieces = [("▸" if on_row and not t else " ", "bold"),
                      (pad(label[t] if t < len(label) else "", lw, "left") + " ",
                       "bold reverse" if on_row and (named or not block) else "bold")]
            for j in range(shown):
                style = "reverse" if on_row and not block else ""
                if spec.cell == (i, j) and block:
                    style = "bold reverse"
                elif spec.cell == (i, j):  # underlined where it has words: a rule under its blank lines striped it
                    blank = t >= len(parts[j]) or not parts[j][t].strip()
                    style = ("bold" if on_row else "bold reverse") if blank else ("bold underline" if on_row else "bold underline reverse")
                elif (i, j) in faint:
                    style += " dim"
                if r[j] == "NaN":
                    style += f" {BAD}"
                pieces.append((pad(parts[j][t] if t < len(parts[j]) else "", widths[j], "left" if j in words else "right"),
                               style.strip()))
                if spec.shrink and j < shown - 1:
                    pieces.append((rule, "dim"))
                else:
                    pieces.append((" ", "reverse" if on_row and j < shown - 1 else ""))
            if cut:
                pieces.append((f"{MORE} " if not t else "  ", "dim"))
            out.append(runs(pieces))
    if cut and spec.title:  # the title says how many columns are drawn, where that fits
        for note in ("  " + _("{shown} of {n} columns").format(shown=shown, n=n_cols), f" {shown}/{n_cols}"):
            if cell_len(spec.title) + 2 + cell_len(note) <= total:
                out[0].rstrip()
                out[0].append(note, style="dim")
                out[0].append(" " * max(total - out[0].cell_len, 0))
                break
    return out


def _narrowed(texts: list, cols: list, room: int) -> list[int]:
    """Widths for a table too wide for its room, `room` cells in all (at least 3 a column): each column
    first as wide as its longest word (where all fit: a word cut in two, "recurren|ce", read badly at
    80 columns); then the cells left go where they save the most lines (rows and column labels), none
    beyond what its entries need whole (its heading is cut beyond HEADING cells); then, the narrowest
    first. Where the words do not fit, the columns with the longest words share what the others leave.
    (Raising the narrowest first left attention/summary 19 lines tall at 100x30, its labels cut to one.)"""
    return list(_widths_for(tuple(tuple(row) for row in texts), tuple(cols), room))


@lru_cache(maxsize=64)
def _widths_for(texts: tuple, cols: tuple, room: int) -> tuple[int, ...]:
    n = len(cols)
    need = [max([cell_len(row[j]) for row in texts] + [min(cell_len(cols[j]), HEADING), 3]) for j in range(n)]
    words = [min(max([longest_word(row[j]) for row in texts] + [min(longest_word(cols[j]), HEADING), 3]), need[j])
             for j in range(n)]  # (a heading's words too: "parallel in training" was cut to "pa…" / "in" / "tr…")
    if sum(words) > room:
        floor, top = [3] * n, words
        level = 0
        while level < max(top) and sum(min(t, max(f, level + 1)) for f, t in zip(floor, top)) <= room:
            level += 1
        widths = [min(t, max(f, level)) for f, t in zip(floor, top)]
    else:
        top = need
        widths = _fewest_lines(texts, cols, words, [max(t, cell_len(c)) for t, c in zip(need, cols)], room)
    for j in sorted(range(n), key=lambda j: widths[j]):  # the cells left, one each, narrowest first
        if sum(widths) < room and widths[j] < top[j]:
            widths[j] += 1
    for j in sorted(range(n), key=lambda j: widths[j]):  # still room: headings whole, narrowest first
        widths[j] += max(min(cell_len(cols[j]) - widths[j], room - sum(widths)), 0)
    return tuple(widths)


@lru_cache(maxsize=4096)
def _wrapped_lines(text: str, width: int) -> int:
    """How many lines `wrap` makes of text: kept across sizes (a resize tries the same widths again)."""
    return len(wrap(text, width))


def _fewest_lines(texts: tuple, cols: tuple, widths: list[int], top: list[int], room: int) -> list[int]:
    """From `widths`, the cells left (room − their sum) given a few at a time to the column where they
    save the most lines a cell: the rows' lines (each row as tall as its tallest cell) plus the labels'."""
    lines: dict = {}

    def column(j: int, w: int) -> tuple[int, ...]:
        if (j, w) not in lines:
            lines[j, w] = tuple(_wrapped_lines(row[j], w) for row in texts) + (len(_label(cols[j], w, 99)),)
        return lines[j, w]

    def total(ws: list[int]) -> int:
        """The lines drawn, ×10, plus every cell's lines: a row's line is saved only when all its
        tallest cells lose one, and a step towards that counts too."""
        per = [column(j, w) for j, w in enumerate(ws)]
        return sum(10 * max(p[i] for p in per) + sum(p[i] for p in per) for i in range(len(texts) + 1))

    widths, now = list(widths), total(widths)
    while sum(widths) < room:
        best = None  # (lines saved a cell, column, cells, total)
        for j in range(len(widths)):
            for more in range(1, min(room - sum(widths), top[j] - widths[j]) + 1):
                if column(j, widths[j] + more) == column(j, widths[j]):
                    continue  # (no line of it changes: nor does the total)
                after = total(widths[:j] + [widths[j] + more] + widths[j + 1:])
                if after < now:
                    if best is None or (now - after) / more > best[0]:
                        best = ((now - after) / more, j, more, after)
                    break
        if best is None:
            break
        _gain, j, more, now = best
        widths[j] += more
    return widths


def _label(text: str, width: int, tall: int) -> list[str]:
    """A column label over at most `tall` lines (`_folded`), except that an English word wider than the
    column is cut with … ("paralle…"), not folded ("par" / "all" / "el"). Chinese, which has no spaces,
    still breaks between characters."""
    if tall > 1 and cell_len(text) > width:
        text = " ".join(word if len(word) != cell_len(word) or cell_len(word) <= width
                        else pad(word, width, "left") for word in text.split(" "))
    return _folded(text, width, tall)


def _folded(text: str, width: int, tall: int) -> list[str]:
    """`text` wrapped to `width` cells in at most `tall` lines; the last one ends in … when cut short."""
    lines = wrap(text, width) if tall > 1 else [text]
    if len(lines) > tall:
        lines = lines[:tall - 1] + [pad(" ".join(lines[tall - 1:]), width, "left")]
    return lines


def matrix_text(spec: MatrixSpec, width: int | None = None, digits: int = 2) -> Text:
    return Text("\n").join(matrix_lines(spec, width, digits))


def _width(lines: list[Text]) -> int:
    return max((l.cell_len for l in lines), default=0)


class _Widths(dict):
    """Widths of blocks of lines, each measured once (by identity: the blocks are shared, unchanged)."""

    def __call__(self, lines: list[Text]) -> int:
        key = id(lines)
        if key not in self:
            self[key] = (_width(lines), lines)  # the block is held: its id stays its own
        return self[key][0]


def _bands(blocks: list[list[Text]], width: int, gap: int, measure, alone: Sequence[bool] = ()) -> list[list[list[Text]]]:
    bands, band, used = [], [], 0
    for k, b in enumerate(blocks):
        w = measure(b)
        apart = any(alone[j] for j in (k - 1, k) if 0 <= j < len(alone))  # it, or the one before it, alone
        if band and (used + gap + w > width or apart):
            bands.append(band)
            band, used = [], 0
        used += (gap if band else 0) + w
        band.append(b)
    if band:
        bands.append(band)
    return bands


def _join(bands: list[list[list[Text]]], gap: int, measure) -> list[Text]:
    out: list[Text] = []
    for k, band in enumerate(bands):
        if k:
            out.append(Text(""))
        tall = max(len(b) for b in band)
        widths = [measure(b) for b in band]
        for i in range(tall):
            line = Text()
            for n, b in enumerate(band):
                if n:
                    line.append(" " * gap)
                part = b[i] if i < len(b) else Text("")
                line.append_text(part)
                line.append(" " * (widths[n] - part.cell_len))
            line.rstrip()
            out.append(line)
    return out


def matrices_lines(specs: Sequence[MatrixSpec], width: int, height: int | None = None, gap: int = 3,
                   slides: bool = False) -> list[Text]:
    """Matrices side by side (bands below when they do not fit across). Tries every spec at 3 and then
    2 decimals, then leaves out optional specs one at a time (highest rank, then earliest, first; its
    group with it); the current ones (at 2) and only what they are computed from are tried at 1 decimal
    before one of those goes. Then, where only the height was short, the same at 1 decimal before
    cutting at the height. A current or needed spec too wide to draw whole is drawn cut (its columns
    that fit, `_cut_bands`); an optional one too wide is left out first. The named specs left out are
    named on a line under them: a line is kept for it first, then only when a needed one is left out. On
    slides only a current one left out is named: the stages' arrow says where the slide is (the lecture's
    qkv slides read "not shown at this size: X Q K V out", a lecturer's trial)."""
    specs = list(specs)
    named = [s for s in specs if not (slides and s.optional)]
    if len(specs) == 1 and specs[0].shrink and height and natural_width(specs[0]) > width:
        return _tall_table(specs[0], width, height)
    if specs and height and all(s.grow for s in specs):
        if grown := _grown(specs, width, height, gap):
            return grown
    # too wide to draw whole at 2 decimals: the current ones and what they are computed from are drawn cut
    # (`_cut_bands`); the others can never be drawn, so they go first, with their group (at 100x30, random
    # weights, stage S drew S alone, double spaced: Q and K, too wide, were left out with it, a lecturer's trial)
    wide = {id(s) for s in specs if not s.shrink and natural_width(s, 2) > width}
    never = [s for s in specs if id(s) in wide and s.optional and not s.needed]
    rest = [s for s in specs if not any(s is g or g.group and s.optional and s.group == g.group for g in never)]
    if height and wide & {id(s) for s in specs if not s.optional}:  # a current one too wide: folded whole first
        if banded := _in_bands([s for s in specs if not s.optional], width, height):
            return _noted(banded, named, {id(s) for s in specs if not s.optional}, height)
    candidates = [rest]
    if any(s.needed and id(s) in wide for s in rest):  # a needed one cut, where not all fit: what the current
        # ones read, before a matrix they do not read (at 100x30, random weights, out = A·V drew V at 2 of 64
        # columns beside Ŝ whole, a review; where all fit, the small ones stay: 13 rows stood blank at 120x40)
        candidates.append([s for s in rest if s.needed or not s.optional])
    while any(s.optional for s in rest):
        top = max(s.optional for s in rest)
        gone = next(s for s in rest if s.optional == top)
        rest = [s for s in rest if s is not gone and not (gone.group and s.optional and s.group == gone.group)]
        candidates.append(rest)
    last = None
    drawn: dict = {}  # every try draws the same matrices again: draw each (spec, width, digits, spaced) once
    measure = _Widths()

    def lines_of(i: int, w: int | None, digits: int, spaced: bool = False) -> list[Text]:
        if digits == 1 and natural_width(specs[i], 2) == natural_width(specs[i], 1):
            digits = 2  # as wide either way (its labels set the columns: 那只): A read 0.6 for 0.649
        if w is not None and natural_width(specs[i], digits) <= w:
            w = None  # it fits at its natural width: the same lines
        key = (i, w, digits, spaced)
        if key not in drawn:
            drawn[key] = matrix_lines(specs[i], w, digits, spaced)
        return drawn[key]

    def inputs(subset: list) -> bool:  # the current matrices and what they are computed from, nothing else
        return any(s.needed for s in subset) and all(s.needed or not s.optional for s in subset)

    def narrow(subset: list) -> bool:
        return all(natural_width(s, 2) <= width for s in subset)

    index = {id(s): i for i, s in enumerate(specs)}
    tries = []  # (subset, decimals, spaced, the current ones at two decimals)
    for subset in candidates:
        tries += [(subset, digits, spaced, False) for digits, spaced in ((3, True), (3, False), (2, False))]
        tries += [(subset, 1, False, True)] if inputs(subset) and narrow(subset) else []
    # one decimal rather than a matrix cut off at the height (not for width: its columns are cut as before)
    tries += [(subset, 1, False, False) for subset in candidates if narrow(subset) and not inputs(subset)]
    # first with a line kept for the note of whatever is left out, then only where a needed one is (the
    # current ones and what they read come first: at 100x30, random weights, they fill the rows exactly)
    for subset, digits, spaced, kept, said in [(*t, True) for t in tries] * bool(height) + [(*t, False) for t in tries]:
        places = [2 if kept and not s.optional or id(s) in wide else digits for s in subset]
        if any(natural_width(s, d) > width and id(s) not in wide for s, d in zip(subset, places)) and not all(
                s.shrink for s in subset):
            continue
        shown = {id(s) for s in subset}
        if said and any(s.needed and id(s) not in shown for s in specs):
            continue
        room = height - 1 if height and any((s.needed or said and s.name) and id(s) not in shown for s in specs) \
            else height
        if shown & wide:
            bands = _cut_bands(subset, [lambda w, s=s, d=d: lines_of(index[id(s)], w, d, spaced)
                                        for s, d in zip(subset, places)], wide, width, gap, measure)
        else:
            blocks = [lines_of(index[id(s)], width, d, spaced) for s, d in zip(subset, places)]
            bands = _bands(blocks, width, gap, measure, [s.alone for s in subset])
        tall = _tall(bands)
        if spaced and (room is None or tall > room):
            continue
        if digits == 1 and room is not None and tall > room:
            continue  # no better than two decimals cut off
        if not said:
            last = bands, subset
        if room is None or tall <= room:
            return _noted(_join(bands, gap, measure), named, shown, height, squeeze=False)
    if last is not None:
        return _noted(_join(last[0], gap, measure), named, _started(last[0], last[1], height), height)
    must = [s for s in specs if not s.optional] or specs[:1]
    if height and (banded := _in_bands(must, width, height)):
        return _noted(banded, named, {id(s) for s in must}, height)
    share = max((width - gap * (len(must) - 1)) // len(must), 12)
    kept = {id(s) for s in must}  # and with them, most wanted first, the others that fit whole in the rows
    # left (qkv's random X cut at 18 of 64 columns left S, Ŝ and A out over 13 blank rows, a student's trial)
    lines = {id(s): matrix_lines(s, share if id(s) in kept else None, 2) for s in specs
             if id(s) in kept or natural_width(s, 2) <= width}

    def bands_of(ids: set) -> tuple[list, list]:
        drawn = [s for s in specs if id(s) in ids]  # (in their own order)
        return _bands([lines[id(s)] for s in drawn], width, gap, measure, [s.alone for s in drawn]), drawn

    for extra in sorted((s for s in specs if id(s) in lines and id(s) not in kept), key=lambda s: s.optional):
        if height is None or _tall(bands_of(kept | {id(extra)})[0]) < height:
            kept.add(id(extra))
    bands, drawn = bands_of(kept)
    return _noted(_join(bands, gap, measure), named, _started(bands, drawn, height), height)


def _cut_bands(subset: list, draw: list, wide: set, width: int, gap: int, measure) -> list[list[list[Text]]]:
    """Bands of the subset's matrices, in order, where those in `wide` are too wide to draw whole: each of
    those takes at least what shows 2 of its columns and shares what its band leaves with the others cut
    there. A current one cut keeps to a band of current ones (out = A·V cut beside A read as A's columns).
    `draw[k](w)`: the k-th matrix drawn at most w cells wide (None: whole)."""
    def least(spec: MatrixSpec) -> int:
        _rows, _n, _texts, _words, _cols, cw, _labels, lw = _cells(spec, 2)
        return max(2 + lw + 2 * (cw + 1) + 2, cell_len(spec.title) + 2)

    def current_cut(spec: MatrixSpec) -> bool:
        return id(spec) in wide and not spec.optional

    sizes = [least(s) if id(s) in wide else measure(draw[k](None)) for k, s in enumerate(subset)]
    bands, band, used = [], [], 0
    for k, s in enumerate(subset):
        before = subset[band[-1]] if band else None
        apart = before is not None and (s.alone or before.alone or (current_cut(s) or current_cut(before))
                                        and bool(s.optional) != bool(before.optional))
        if band and (used + gap + sizes[k] > width or apart):
            bands.append(band)
            band, used = [], 0
        used += (gap if band else 0) + sizes[k]
        band.append(k)
    bands.append(band)
    out = []
    for band in bands:
        cut = [k for k in band if id(subset[k]) in wide]
        left = width - sum(sizes[k] for k in band) - gap * (len(band) - 1)
        share = {k: sizes[k] + left // len(cut) + (n < left % len(cut)) for n, k in enumerate(cut)}
        out.append([draw[k](share[k]) if k in share else draw[k](None) for k in band])
    return out


def _tall(bands: list) -> int:
    """The lines `_join` makes of these bands: each its tallest matrix, a blank line between two."""
    return sum(max(len(b) for b in band) for band in bands) + len(bands) - 1


def _started(bands: list, subset: list, height: int | None) -> set:
    """The specs of `subset` (drawn into `bands`, in order) whose matrix starts above the height's last line."""
    shown, at, k = set(), 0, 0
    for band in bands:
        for _block in band:
            if height is None or at < height - 1:
                shown.add(id(subset[k]))
            k += 1
        at += max(len(b) for b in band) + 1
    return shown


def _noted(lines: list[Text], specs, shown: set, height: int | None, squeeze: bool = True) -> list[Text]:
    """Lines cut at the height, the named specs not shown said on a line under them where it fits, or
    (`squeeze`: a matrix cut at the height) on the last, which gives way (below 80 columns attention/qkv
    left matrices out unsaid, a review)."""
    lines = lines[:height] if height else lines
    names = [s.name for s in specs if s.name and id(s) not in shown]
    if names:
        note = Text(_("not shown at this size: {names}").format(names=" ".join(names)), style="dim")
        if height is None or len(lines) < height:
            lines = lines + [note]
        elif squeeze:
            lines = lines[:-1] + [note]
    return lines


def _in_bands(specs: list[MatrixSpec], width: int, height: int) -> list[Text] | None:
    """Matrices too wide for the width, each folded into bands of its columns one under another (0…23,
    24…47, 48…63), at 2 decimals, where all of them fit the height; None where they do not. Cut at the
    width instead, out = A·V showed 24 of its 64 columns over 31 empty rows at 160x48 (a trial)."""
    plans, lines = [], len(specs) - 1  # (the blank line between two matrices)
    for spec in specs:
        rows, n_cols, _texts, _words, _cols, cw, _labels, lw = _cells(spec, 2)
        per = (width - 2 - lw) // (cw + 1)  # columns a band
        if per < 1 or spec.shrink:
            return None
        bands = -(-n_cols // per)
        plans.append((spec, n_cols, bands, -(-n_cols // bands)))  # as even as can be
        lines += bool(spec.title) + bands * (1 + len(rows)) + bands - 1
    if lines > height:  # counted first: drawn, a 5×64 matrix's bands cost ~1 ms a key
        return None
    out: list[Text] = []
    for spec, n_cols, bands, per in plans:
        for b in range(bands):
            cols = range(b * per, min((b + 1) * per, n_cols))
            part = replace(
                spec, values=tuple(tuple(row[j] for j in cols if j < len(row)) for row in spec.values),
                cols=tuple(spec.cols[j] if j < len(spec.cols) else "" for j in cols), title=spec.title if not b else "",
                cell=(spec.cell[0], spec.cell[1] - cols.start) if spec.cell and spec.cell[1] in cols else None,
                faint=tuple((i, j - cols.start) for i, j in spec.faint if j in cols))
            out += ([Text("")] if out else []) + matrix_lines(part, None, 2)
    return out


SOLID = "█"  # a ● drawn large fills its tile with this (a legend names it)
TILES = (5, 4, 3)  # marks across a tile, largest first; a tile is one line fewer tall (2 × 1 read as two columns)


@lru_cache(maxsize=64)
def tile_lines(spec: MatrixSpec, m: int) -> tuple[Text, ...]:
    """A matrix of marks drawn large: each entry a tile of its mark (`_tile`), 2m − 1 across and m − 1
    lines down, about as tall as wide (a terminal cell is about twice as tall as wide); tiles two cells
    apart, a blank line between rows; the column labels centred over their tiles, a row's label on its
    tile's first line. The shape (a causal mask's triangle) reads from the back of a room."""
    _rows, n_cols, texts, _words, cols, _cw, labels, lw = _cells(spec, 2)
    tw, th = 2 * m - 1, m - 1
    faint = set(spec.faint)
    out = []
    if spec.title:
        out.append(Text(f"▸{spec.title}◂", style="bold reverse") if spec.current else Text(f" {spec.title} ", style="bold"))
    out.append(Text(" " * (lw + 2) + "  ".join(fit(c, tw, "center", MORE) for c in cols).rstrip(), style="dim"))
    for i, row in enumerate(texts):
        if i:
            out.append(Text(""))
        for t in range(th):
            pieces = [(" " + pad(labels[i] if not t else "", lw, "left") + " ", "bold")]
            for j, mark in enumerate(row):
                pieces.append((_tile(mark, m, t), "dim" if (i, j) in faint else ""))
                pieces.append(("  " if j < n_cols - 1 else "", ""))
            out.append(runs(pieces))
    return tuple(out)


def _tile(mark: str, m: int, line: int) -> str:
    """One line of a mark's tile: ● a solid block, · one dot in the middle (tiles of ● ● ● read as 25 entries
    to a cell at 200x60, a trial), any other mark repeated."""
    tw, th = 2 * m - 1, m - 1
    if mark == "●":
        return SOLID * tw
    if mark == "·":
        return fit("·" if line == (th - 1) // 2 else "", tw, "center")
    return " ".join([mark] * m) if mark.strip() else " " * tw


def _grown(specs: list[MatrixSpec], width: int, height: int, gap: int) -> list[Text] | None:
    """Matrices of marks as tiles (`tile_lines`), side by side in one band or two even ones, at the
    largest size that fits; None when even the smallest does not."""
    measure = _Widths()
    for m in TILES:
        blocks = [list(tile_lines(s, m)) for s in specs]
        for n in (1, 2):  # one band, or two as even as can be (the masks' pairs stay pairs)
            per = -(-len(blocks) // n)
            bands = [blocks[i:i + per] for i in range(0, len(blocks), per)]
            if (all(sum(map(measure, band)) + gap * (len(band) - 1) <= width for band in bands)
                    and sum(max(map(len, band)) for band in bands) + len(bands) - 1 <= height):
                return _join(bands, gap, measure)
    return None


def drawn_large(specs: Sequence[MatrixSpec], width: int, height: int, gap: int = 3) -> bool:
    """Whether `matrices_lines` draws these marks as tiles at this size (a legend names the tile's mark)."""
    specs = list(specs)
    return bool(specs and height) and all(s.grow for s in specs) and \
        _grown(specs, max(width, 20), height, gap) is not None


def _tall_table(spec: MatrixSpec, width: int, height: int) -> list[Text]:
    """A table of text too wide for its room, its columns narrowed, in `height` lines: its cells wrapped
    whole in their columns where the height allows (a space each side of a rule, or after it, where
    that still fits: the text touched the rules, "decoder→│no"), then its column labels whole, then a
    blank line between rows; short of room, rows are cut to about the same number of lines (cut with …).
    attention/summary cut its cells at 4 lines and its labels at one ("paralle…", "keeps at inferen…")
    with 11 rows to spare at 120x40, and its labels even at 200x60."""
    _rows, _n, texts, words, cols, _cw, labels, _lw = _cells(spec, 2)
    room, gaps = height - (1 if spec.title else 0), max(len(texts) - 1, 0)
    for rule in (" │ ", "│ ", "│"):
        shown, widths, lw = _columns(spec, width, 2, rule)
        need = tuple(max([_wrapped_lines(r[j], widths[j]) for j in range(shown) if j in words]
                         + [len(_row_label(label, lw, 99))]) for r, label in zip(texts, labels))
        head = max([len(_label(cols[j], widths[j], 99)) for j in range(shown)] + [1])
        whole = shown == len(cols) and all(longest_word(t) <= w for j, w in enumerate(widths)  # no word cut
                                           for t in [cols[j]] + [r[j] for r in texts])
        # cells whole first; then the labels over the lines left (cut with … on the last), then blank lines
        for lines, labels_, spaced in ((sum(need), head, True), (sum(need), head, False),
                                       (sum(need), max(min(head, room - sum(need)), 1), False)):
            if lines + labels_ + (gaps if spaced else 0) <= room and (rule == "│" or labels_ == head and whole):
                return matrix_lines(spec, width, 2, spaced, need, labels_, rule)
    labels = min(head, 2)  # column labels over two lines before a fourth line of cells (at 90x28 they read
    # "path le…", "per-laye…", a student's trial; the chosen cell is written whole under the table)
    for most in range(max(need, default=1) - 1, 0, -1):  # every row cut to `most` lines, and the
        tall = [min(n, most) for n in need]  # lines still free one more each to rows cut, top first
        if sum(tall) + labels <= room:
            for i in [i for i, n in enumerate(need) if n > most][:room - labels - sum(tall)]:
                tall[i] += 1
            return matrix_lines(spec, width, 2, False, tuple(tall), labels)
        labels = 1 if most <= 3 else labels
    return matrix_lines(spec, width, 2)[:height]


def matrices_text(specs: Sequence[MatrixSpec], width: int, height: int | None = None, gap: int = 3) -> Text:
    out = Text("\n").join(matrices_lines(specs, width, height, gap))
    out.no_wrap, out.overflow = True, "crop"
    return out


class Matrices(Lines):
    """`show(specs)`: the matrices side by side, as many as fit at the widget's size."""

    DEFAULT_CSS = "Matrices { height: 1fr; min-height: 8; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.specs: tuple[MatrixSpec, ...] = ()

    def show(self, specs: Sequence[MatrixSpec]) -> None:
        if not same(tuple(specs), self.specs):
            self.specs = tuple(specs)
            self.changed()

    def lines(self, width: int, height: int) -> list[Text]:
        slides = getattr(self.app, "slides", False)
        out = matrices_lines(self.specs, max(width, 20), height or None, slides=slides)
        # spare rows above and below: at 160x48, 29 stood blank under them on a slide (a lecturer's trial), and in
        # the app attention/block's worked sums stood 28 rows below its table (a mouse user's trial)
        if height > len(out):
            out = [Text() for _ in range((height - len(out)) // 2)] + out
        return out


# -- a heat map of signed values -----------------------------------------------------------------
def shade(v: float) -> tuple[str, str]:
    """Two cells for v in −1…1: a block by |v| and the sign; ("NaN"-safe)."""
    if not math.isfinite(v):
        return "? ", BAD
    a = abs(v)
    if a < 0.05:
        return "· ", "dim"
    block = SHADES[min(int(a * len(SHADES)), len(SHADES) - 1)]
    return block + ("+" if v > 0 else "−"), POSITIVE if v > 0 else NEGATIVE


def sample(n: int, room: int) -> list[int]:
    """Up to `room` indices spread evenly over 0 … n−1, the first and last included."""
    if room >= n:
        return list(range(n))
    room = max(room, 2)
    return sorted({round(k * (n - 1) / (room - 1)) for k in range(room)})


def heat_lines(values, row_labels: Sequence[str] = (), col_labels: Sequence[str] = (), width: int = 80,
               height: int = 20, corner: str = "", group: int = 1, transpose: bool = False) -> list[Text]:
    """The heat map as lines of Text (see `heat_rows`)."""
    return [Text.assemble(*row) for row in heat_rows(values, row_labels, col_labels, width, height, corner, group,
                                                     transpose)]


def heat_rows(values, row_labels: Sequence[str] = (), col_labels: Sequence[str] = (), width: int = 80,
              height: int = 20, corner: str = "", group: int = 1, transpose: bool = False) -> list[list[tuple[str, str]]]:
    """Rows of 2-cell shades, 3-cell (██+) where every column fits so (a projector's 16 positions took 32 of
    120 columns, 11 13 15 unlabelled: a lecturer's trial); when there are more rows or columns than fit, an
    even sample of them (first and last kept) with their labels. `group` rows stay together when sampled
    (e.g. 2: the sin and cos of one frequency). `transpose`: the columns of `values` are the rows drawn. Only
    the sampled entries are read."""
    n_rows, n_cols = len(values), max((len(r) for r in values), default=0)
    if transpose:
        n_rows, n_cols = n_cols, n_rows

    lw = max([cell_len(l) for l in row_labels] + [cell_len(corner), 1])
    group = max(group, 1)
    rs = [k * group + g for k in sample(n_rows // group, max((height - 1) // group, 1)) for g in range(group)
          if k * group + g < n_rows] if n_rows % group == 0 else sample(n_rows, max(height - 1, 1))
    cw = 3 if lw + 1 + 3 * n_cols <= width else 2
    cs = sample(n_cols, max((width - lw - 1) // cw, 1))
    head = [" "] * (cw * len(cs))
    free = 0
    for k, j in enumerate(cs):  # a column label wherever it fits (ASCII labels: indices)
        label = col_labels[j] if j < len(col_labels) else ""
        if label and label.isascii() and cw * k >= free and cw * k + len(label) <= len(head):
            head[cw * k:cw * k + len(label)] = label
            free = cw * k + len(label) + 1
    out = [[(pad(corner, lw, "left") + " " + "".join(head).rstrip(), "dim")]]
    kinds = _kinds(values, rs, cs, transpose)
    for i, row in zip(rs, kinds):  # runs of (text, style), neighbouring equal styles joined
        label = (pad(row_labels[i] if i < len(row_labels) else "", lw) + " ", "dim")
        out.append(joined([label, *((KINDS if cw == 2 else WIDE)[kind] for kind in row)]))
    return out


# each entry's two cells (WIDE: three) and style by kind, as `shade` draws one of that kind: 0 not a number, 1 small
# (|v| < 0.05), then each shade positive, then each negative. Full strength: dimmed, ░ and the − mark all but
# vanished on the light themes, whose darkening does not reach a dim colour (a trial)
KINDS = [shade(v) for v in (math.nan, 0.0, *(sign * (k + 0.5) / len(SHADES) for sign in (1, -1)
                                               for k in range(len(SHADES))))]
WIDE = [(text[0] * 2 + text[1] if text[1] in "+−" else text + " ", style) for text, style in KINDS]  # 3 cells


def _kinds(values, rs: list[int], cs: list[int], transpose: bool) -> list[list[int]]:
    """Each sampled entry's kind (an index into KINDS), as `shade` tells them apart: worked out for
    all of them at once."""
    try:
        table = _table(values)
    except TypeError:  # not hashable (an array): read it afresh
        table = _table.__wrapped__(values)
    if table is None:  # rows of different lengths: entry by entry
        def at(i: int, j: int) -> float:
            r, c = (j, i) if transpose else (i, j)
            return float(values[r][c]) if c < len(values[r]) else float("nan")
        v = np.array([[at(i, j) for j in cs] for i in rs], dtype=float).reshape(len(rs), len(cs))
    else:
        v = (table.T if transpose else table)[np.ix_(rs, cs)]
    a = np.abs(v)
    with np.errstate(invalid="ignore"):  # NaN and ±inf are kind 0 whatever their block
        block = np.minimum((a * len(SHADES)).astype(int), len(SHADES) - 1)
        kind = np.where(~np.isfinite(v), 0, np.where(a < 0.05, 1, 2 + block + len(SHADES) * (v <= 0)))
    return kind.tolist()


@lru_cache(maxsize=8)
def _table(values) -> np.ndarray | None:
    """The values as one array, read once per table (a figure shows the same table for many keys)."""
    if len(values) == 0 or len({len(row) for row in values}) > 1:
        return None
    return np.array(values, dtype=float).reshape(len(values), -1)


class HeatMap(Lines):
    """`show(values, row_labels, col_labels, corner)`: a sign heat map sampled to the widget's size."""

    DEFAULT_CSS = "HeatMap { height: 1fr; width: 1fr; min-height: 6; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.spec: tuple = ((), (), (), "", 1, False)

    def show(self, values, row_labels=(), col_labels=(), corner: str = "", transpose: bool = False,
             group: int = 1) -> None:
        """`transpose`: draw the columns of `values` as rows (the labels swap with them); `group`: rows
        that stay together when sampled."""
        if transpose:
            row_labels, col_labels = col_labels, row_labels
        spec = (values, tuple(row_labels), tuple(col_labels), corner, group, transpose)
        if not same(spec, self.spec):
            self.spec = spec
            self.changed()

    def lines(self, width: int, height: int) -> list:
        values, rows, cols, corner, group, transpose = self.spec
        return heat_rows(values, rows, cols, max(width, 10), max(height, 3), corner, group, transpose)

