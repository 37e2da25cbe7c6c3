"""A gate bar: one horizontal bar split into segments whose lengths share a scale.

Used for an update split into kept / written / discarded parts, or for parameter counts as
whole blocks. Each segment has its own fill character as well as its colour, so the parts stay
apart under NO_COLOR. Widths are rounded so that they add up (largest remainder), and segments
longer than the track shrink to fit it; a segment that is 0, negative, NaN or inf takes no width, and the legend prints its value as it is.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from rich.text import Text

from rnntui.widgets.cells import cell_len, fit
from rnntui.widgets.lines import Lines
from rnntui.widgets.quiet import repaint, same
from rnntui.widgets.tints import BLUE, GREEN, RED, style

KEPT, WRITTEN, DISCARDED = style(GREEN), style(BLUE), style(RED)  # the parts of an update


@dataclass(frozen=True)
class Segment:
    value: float
    label: str = ""
    style: str = ""  # a Rich style, e.g. "green"
    fill: str = "█"
    shown: str = ""  # the value as the legend prints it; default .2f


def update_segments(part: tuple[float, float, float], kept: str, written: str, discarded: str) -> list[Segment]:
    """One update as a bar: the (kept, written, discarded) lengths with their labels."""
    return [Segment(part[0], kept, KEPT, "█"), Segment(part[1], written, WRITTEN, "▓"),
            Segment(part[2], discarded, DISCARDED, "▒")]  # (░, a quarter of a cell inked, read 1.3:1 on the dark
    # theme and 1.5:1 on the light one: the discarded share was nearly invisible, an accessibility trial)


def _length(value: float) -> float:
    return value if isinstance(value, (int, float)) and math.isfinite(value) and value > 0 else 0.0


def widths(values, scale: float, cells: int) -> list[int]:
    """Whole-cell widths for values on a track of `cells` cells that stands for `scale` units."""
    lengths = [_length(v) for v in values]
    total = sum(lengths)
    scale = max(scale, total) if math.isfinite(scale) and scale > 0 else (total or 1.0)  # never overflow
    exact = [v / scale * cells for v in lengths]
    out = [int(e) for e in exact]
    room = min(cells, round(sum(exact))) - sum(out)
    for i in sorted(range(len(exact)), key=lambda i: exact[i] - out[i], reverse=True)[: max(room, 0)]:
        out[i] += 1
    return out


def bar_line(segments, scale: float, cells: int, track: str = "·") -> Text:
    """The bar itself: each segment filled with its character; the unused track is dotted.
    Neighbouring segments that look the same are split by a half block."""
    out = Text()
    ws = widths([s.value for s in segments], scale, cells)
    for k, (s, w) in enumerate(zip(segments, ws)):
        if w <= 0:
            continue
        same_next = k + 1 < len(segments) and ws[k + 1] > 0 and (segments[k + 1].fill, segments[k + 1].style) == (s.fill, s.style)
        body = s.fill * (w - 1) + ("▌" if same_next and s.fill == "█" and w > 1 else s.fill)
        out.append(body, style=s.style)
    rest = cells - sum(ws)
    if rest > 0:
        out.append(track * rest, style="dim")
    return out


def legend_lines(segments, width: int) -> list[Text]:
    """`█ label value` items, packed into lines no wider than width."""
    lines, line = [], Text()
    for s in segments:
        if not s.label:
            continue
        item = Text()
        item.append(s.fill * 2, style=s.style)
        item.append(f" {s.label} ")
        value = s.shown or (f"{s.value:.2f}" if isinstance(s.value, (int, float)) else str(s.value))
        item.append(value, style="bold")
        if line.cell_len and line.cell_len + 3 + item.cell_len > width:
            lines.append(line)
            line = Text()
        if line.cell_len:
            line.append("   ")
        line.append_text(item)
    if line.cell_len:
        lines.append(line)
    return lines


class GateBar(Lines):
    """`label │bar│ suffix`, then a legend of the segments (optional)."""

    DEFAULT_CSS = "GateBar { height: auto; }"

    def __init__(self, label: str = "", label_width: int | None = None, legend: bool = True, rows: int = 1,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.label = label
        self.rows = max(int(rows), 1)
        self.label_width = cell_len(label) + 1 if label_width is None else label_width
        self.legend = legend
        self.segments: tuple[Segment, ...] = ()
        self.scale = 1.0
        self.suffix = ""

    def show(self, segments, scale: float | None = None, suffix: str = "") -> None:
        """Draw these segments; `scale` is the length of the whole track (default: their sum)."""
        segments = tuple(segments)
        scale = scale if scale is not None else sum(_length(s.value) for s in segments)
        if same((segments, scale, suffix), (self.segments, self.scale, self.suffix)):
            return

        def apply() -> None:
            self.segments, self.scale, self.suffix = segments, scale, suffix

        repaint(self, apply)

    def lines(self, width: int, height: int = 0) -> list[Text]:
        width = max(width, 1)
        head = Text(fit(self.label, self.label_width), style="bold")
        tail = Text(f" {self.suffix}" if self.suffix else "", style="bold")
        cells = max(width - head.cell_len - tail.cell_len - 2, 1)
        body = bar_line(self.segments, self.scale, cells)
        out = []
        for row in range(self.rows):  # label and suffix on the middle row
            middle = row == (self.rows - 1) // 2
            bar = Text()
            bar.append_text(head if middle else Text(" " * head.cell_len))
            bar.append("▕", style="dim")
            bar.append_text(body)
            bar.append("▏", style="dim")
            bar.append_text(tail if middle else Text(" " * tail.cell_len))
            out.append(bar)
        if self.legend:
            pad = " " * self.label_width
            out += [Text(pad) + line for line in legend_lines(self.segments, width - self.label_width)]
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines(width))
