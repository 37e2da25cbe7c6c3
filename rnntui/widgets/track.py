"""The token track: a row of tokens with rows of cells above them, one column per position.

A cell holding None has not been computed yet and is drawn dashed and empty: it does not exist.
A position listed in a row's `faint` is drawn dashed and dim with its value inside: it exists but
does not count (e.g. a gradient cut to exactly 0).
"""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from rnntui.widgets.quiet import Static

from rnntui.widgets.tints import NEGATIVE, POSITIVE

INNER = 6  # characters inside a cell: fits "-0.380"


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[float | str | None, ...]
    link: str = " "  # drawn between neighbouring cells, e.g. "→" for a recurrence
    faint: tuple[int, ...] = ()  # positions drawn dashed and dim, value shown


def _fmt(value) -> str:
    if isinstance(value, str):
        return value[:INNER]
    return f"{value:+.3f}"[:INNER] if value < 0 else f"{value:.3f}"[:INNER]


def _style(value, current: bool) -> str:
    base = "bold reverse" if current else ""
    if isinstance(value, (int, float)):
        tint = POSITIVE if value > 0.05 else NEGATIVE if value < -0.05 else ""
        return f"{base} {tint}".strip()
    return base


def track_text(rows: tuple[Row, ...], current: int | None, label_width: int = 4) -> Text:
    """Boxes for every row; the column `current` is marked (▼ above it, reversed cells)."""
    out = Text()
    n = max(len(r.cells) for r in rows)
    out.append(" " * label_width)
    for t in range(n):
        mark = "▼" if t == current else " "
        out.append(f"{mark:^{INNER + 2}}" + " ", style="bold")
    out.append("\n")
    for row in rows:
        top, mid, bot = Text(" " * label_width), Text(f"{row.label:<{label_width}}"[:label_width]), Text(" " * label_width)
        for t, value in enumerate(row.cells):
            gap = row.link if 0 < t + 1 < len(row.cells) + 1 and t + 1 < len(row.cells) else " "
            if value == "":  # no cell at this position at all
                for part in (top, mid, bot):
                    part.append(" " * (INNER + 3))
                continue
            if value is None:
                top.append("┌" + "╌" * INNER + "┐ ", style="dim")
                mid.append("╎" + " " * INNER + "╎", style="dim")
                mid.append(" ")
                bot.append("└" + "╌" * INNER + "┘ ", style="dim")
                continue
            if t in row.faint:
                top.append("┌" + "╌" * INNER + "┐ ", style="dim")
                mid.append("╎", style="dim")
                mid.append(f"{_fmt(value):^{INNER}}", style="dim")
                mid.append("╎ ", style="dim")
                bot.append("└" + "╌" * INNER + "┘ ", style="dim")
                continue
            style = _style(value, t == current)
            top.append("┌" + "─" * INNER + "┐ ")
            mid.append("│")
            mid.append(f"{_fmt(value):^{INNER}}", style=style)
            mid.append("│")
            nxt = row.cells[t + 1] if t + 1 < len(row.cells) else None
            mid.append(gap if nxt is not None else " ")
            bot.append("└" + "─" * INNER + "┘ ")
        for part in (top, mid, bot):
            out.append_text(part)
            out.append("\n")
    out.rstrip()
    return out


def span_text(n: int, start: int, stop: int, label: str, label_width: int = 4) -> Text:
    """A bracket under the columns start … stop − 1 of a track with n positions, `label` in it:
    `└──── label ────┘`; the columns before it get a dim `✂` at the cut."""
    out = Text(" " * label_width)
    cell = INNER + 3
    if start > 0:
        out.append(" " * (start * cell - 2) + "✂ ", style="dim")
    inner = max((stop - start) * cell - 3, 0)
    words = f" {label} "[:inner]
    left = (inner - len(words)) // 2
    out.append("└" + "─" * left + words + "─" * (inner - left - len(words)) + "┘", style="bold")
    return out


class TokenTrack(Static):
    DEFAULT_CSS = "TokenTrack { height: auto; width: auto; }"

    def show(self, rows: tuple[Row, ...], current: int | None) -> None:
        self.update(track_text(rows, current))
