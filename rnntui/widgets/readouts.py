"""Readouts: labelled numbers in one or a few lines, sums spelled out, a bar of stages and the
figure's parameter bar."""
from __future__ import annotations

from rich.text import Text
from rnntui.widgets.lines import TextLines


def readout_text(pairs: list[tuple[str, str]], sep: str = "   ") -> Text:
    out = Text()
    for i, (label, value) in enumerate(pairs):
        if i:
            out.append(sep)
        out.append(f"{label} ", style="dim")
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


class Readouts(TextLines):
    DEFAULT_CSS = "Readouts { height: auto; }"

    def show(self, pairs: list[tuple[str, str]], sep: str = "   ") -> None:
        self.update(readout_text(pairs, sep))


def param_text(items: list[tuple[str, str, bool, str]]) -> Text:
    """items: (label, value, selected, toggle key). The selected one is reversed and bracketed."""
    out = Text()
    for label, value, selected, key in items:
        cell = f"{label} {value}"
        if key:
            cell = f"[{key}] {cell}"
        if selected:
            out.append(f"▸{cell}◂", style="bold reverse")
        else:
            out.append(f" {cell} ")
        out.append(" ")
    return out
