"""Readouts: labelled numbers in one or a few lines, sums spelled out, a bar of stages and the
figure's parameter bar."""
from __future__ import annotations

import re

from rich.cells import cell_len
from rich.measure import Measurement
from rich.text import Text
from rnntui.i18n import spaced
from rnntui.widgets.lines import TextLines, wrap
from rnntui.widgets.quiet import content_key


def readout_text(pairs: list[tuple[str, str]], sep: str = "   ") -> Text:
    out = Text()
    for i, (label, value) in enumerate(pairs):
        if i:
            out.append(sep)
        out.append(spaced(label), style="dim")
        out.append(value, style="bold")
    return out


def spelled(*runs: str) -> Text:
    """Runs that take turns, dim then bold: a sum spelled out, its words dim and its numbers bold."""
    out = Text()
    for i, run in enumerate(runs):
        out.append(run, style="bold" if i % 2 else "dim")
    return out


def stage_text(names, current: int) -> Text:
    """X → Q K V → … with the current stage reversed between ▸ ◂."""
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(" → ", style="dim")
        out.append(f"▸{name}◂" if i == current else name, style="bold reverse" if i == current else "")
    return out


SEPARATOR = re.compile(r"(?<=\S)   (?=\S)")  # readout_text's, between pairs (a longer run pads a label)


def pairs_whole(line: Text, width: int) -> list[Text]:
    """A line of pairs joined by readout_text's three spaces, broken only between pairs, as many to a
    line as fit; a pair wider than the width is a line of its own (wrapped by whoever draws it)."""
    sep, pieces, start, out = "   ", [], 0, []
    for found in SEPARATOR.finditer(line.plain):
        pieces.append(line[start:found.start()])
        start = found.end()
    pieces.append(line[start:])
    row = None
    for piece in pieces:
        if row is not None and row.cell_len + len(sep) + piece.cell_len <= width:
            row.append(sep)
            row.append_text(piece)
            continue
        if row is not None:
            out.append(row)
        row = piece
    out.append(row)
    return out


class Readouts(TextLines):
    DEFAULT_CSS = "Readouts { height: auto; }"
    _hang = False  # shown a pair a line: a line too long goes on under its value, not under its label

    def show(self, pairs: list[tuple[str, str]], sep: str = "   ") -> None:
        self._hang = "\n" in sep
        self.update(readout_text(pairs, sep))

    def divided_by(self) -> tuple:
        return self._shown, self._hang

    def divide(self, width: int) -> list:
        """As TextLines, but a pair a line that wraps continues under its value (serving/wayback's
        "RetNet  Linear attention … a d×d state" / "to serve." went on at the left edge), unless its
        label takes more than a third of the width (in Chinese at 80 columns, parallel/timing's source line
        went on 35 columns in, under a label)."""
        lines = super().divide(width)
        if len(lines) == self._text.plain.count("\n") + 1:  # nothing wrapped
            return lines
        if not self._hang:
            return self._pairs_kept(lines, width)
        out = []
        for line in self._text.split("\n", allow_blank=True):
            end = next((span.end for span in line.spans if span.start == 0 and span.style == "dim"), 0)
            hang = cell_len(line.plain[:end])  # the label and its space (readout_text)
            if line.cell_len <= width or not end or hang > width // 3:
                out += wrap(line, width, self.app.console)
                continue
            parts = wrap(line[end:], width - hang, self.app.console)
            out += [Text.assemble(line[:end] if k == 0 else " " * hang, part) for k, part in enumerate(parts)]
        return out

    def _pairs_kept(self, wrapped: list, width: int) -> list:
        """Pairs on a line that wraps are kept whole where that takes no more lines than wrapping at
        words (attention/heads at h=16: "+4d biases" / "1,050,624" on two lines)."""
        out = []
        for line in self._text.split("\n", allow_blank=True):
            words = wrap(line, width, self.app.console)
            if len(words) > 1 and SEPARATOR.search(line.plain):
                kept = [part for piece in pairs_whole(line, width) for part in wrap(piece, width, self.app.console)]
                if len(kept) <= len(words):
                    words = kept
            out += words
        return out if len(out) <= len(wrapped) else wrapped


def param_items(items: list[tuple[str, str, bool, str]]) -> list[Text]:
    """items: (label, value, selected, toggle key), each drawn as one piece; the selected one is
    reversed and bracketed."""
    out = []
    for label, value, selected, key in items:
        cell = f"{label} {value}"
        if key:
            cell = f"[{key}] {cell}"
        out.append(Text(f"▸{cell}◂", style="bold reverse") if selected else Text(f" {cell} "))
    return out


class ParamLine(TextLines):
    """The figure's parameter bar: `show(pieces, spare, widest)`. Too long for the width, it breaks between
    pieces, never inside one (a toggle's value on the line after its name read as two things: `[x] x₃`
    / `x₄ kept`); a piece wider than the whole line wraps at its words. The spare pieces (indices, the
    first to go first) are left out where that saves a row: a value grown a digit (threshold 5 → 10
    at 80x24) broke the line and took its row from the plot. Which go is decided on `widest` (the
    pieces with each choice at its longest), so that a toggle does not move the rows below."""

    _pieces: tuple = ()
    _spare: tuple = ()
    _widest: tuple = ()

    def show(self, pieces: list[Text], spare: tuple[int, ...] = (), widest: list[Text] | None = None) -> None:
        self._pieces, self._spare, self._widest = tuple(pieces), spare, tuple(widest or pieces)
        line = Text(" ").join(pieces)
        line.rstrip()  # (the last piece's padding wrapped onto a blank row of its own: a review)
        self.update(line)

    def divided_by(self) -> tuple:
        return self._shown, self._spare, tuple(map(content_key, self._pieces + self._widest))

    def divide(self, width: int) -> list:
        if not self._pieces or cell_len(" ".join(p.plain for p in self._widest).rstrip()) <= width:
            return super().divide(width)  # (most lines, at every key: the widest fits, so does this one)
        gone, rows = (), len(self.broken(self._widest, width))
        for n in range(1, len(self._spare) + 1):
            fewer = len(self.broken([p for i, p in enumerate(self._widest) if i not in self._spare[:n]], width))
            if fewer < rows:
                gone, rows = self._spare[:n], fewer
        if not gone and cell_len(self._text.plain) <= width:
            return super().divide(width)
        return self.broken([p for i, p in enumerate(self._pieces) if i not in gone], width)

    def broken(self, pieces, width: int) -> list:
        lines, line = [], Text()
        for piece in pieces:
            if line.plain and cell_len((line.plain + " " + piece.plain).rstrip()) > width:
                lines.append(line)
                line = Text()
            if line.plain:
                line.append(" ")
            line.append_text(piece)
        lines.append(line)
        for line in lines:
            line.rstrip()
        return [part for line in lines for part in wrap(line, width, self.app.console)]


class Pieces:
    """A Rich renderable: pieces joined by `sep`, as many as fit the width whole, then `…` when some
    are left out (present mode's line of values: cut inside a value, `n 5…` read as a range)."""

    def __init__(self, pieces: list[str], sep: str = "   ", style: str = "") -> None:
        self.pieces, self.sep, self.style = list(pieces), sep, style

    def fitted(self, width: int) -> str:
        shown = []
        for i, piece in enumerate(self.pieces):
            more = i < len(self.pieces) - 1  # room left for the mark of what is left out
            if cell_len(self.sep.join(shown + [piece]) + (self.sep + "…" if more else "")) > width:
                return self.sep.join(shown + ["…"])
            shown.append(piece)
        return self.sep.join(shown)

    def __rich_measure__(self, console, options) -> Measurement:
        return Measurement(1, cell_len(self.sep.join(self.pieces)))

    def __rich_console__(self, console, options):
        yield Text(self.fitted(options.max_width), style=self.style, no_wrap=True, overflow="crop")
