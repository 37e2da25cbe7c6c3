"""A results grid: one row per setting, one column per model, each entry ours│the source's, and one
more column beside it (e.g. the closed form a row's results meet)."""
from __future__ import annotations

from rich.text import Text

from rnntui.widgets.cells import cell_len


def results_text(entries: dict, cols, rows, current: tuple, corner: str, side_title: str, side: dict,
                 strong: str = "100") -> Text:
    """`entries[(col, row)]`: (ours, the seed's), as text. The `current` (col, row) is reversed and
    marked ▸; an entry of ours that starts with `strong` (a perfect score) is bold. `side[row]`: the
    last column, headed `side_title`; `corner` heads the row labels."""
    ours_w = {c: max(4, *(cell_len(entries[(c, row)][0]) for row in rows)) for c in cols}
    seed_w = {c: max(4, *(cell_len(entries[(c, row)][1]) for row in rows)) for c in cols}
    out = Text(no_wrap=True, overflow="crop")
    out.append(f"{corner:<4}", style="bold")
    for c in cols:
        out.append(f" {c:^{ours_w[c] + seed_w[c] + 2}}", style="bold" if c == current[0] else "")
    out.append("  " + side_title, style="bold")
    out.append("\n")
    for row in rows:
        out.append(f"{row:<4}", style="bold" if row == current[1] else "dim")
        for c in cols:
            ours, seed = entries[(c, row)]
            out.append(" ")
            if (c, row) == current:
                out.append(f"▸{ours:>{ours_w[c]}}│{seed:<{seed_w[c]}}", style="bold reverse")
            else:
                out.append(f" {ours:>{ours_w[c]}}", style="bold" if ours.startswith(strong) else "")
                out.append(f"│{seed:<{seed_w[c]}}", style="dim")
        out.append(f"  {side[row]}", style="bold" if row == current[1] else "")
        if row != rows[-1]:
            out.append("\n")
    return out
