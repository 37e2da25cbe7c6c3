"""A results grid: one row per setting, one column per model, each entry ours│the source's, and one
more column beside it (e.g. the closed form a row's results meet)."""
from __future__ import annotations

from rich.text import Text

from rnntui.widgets.cells import cell_len


def results_text(entries: dict, cols, rows, current: tuple, corner: str, side_title: str, side: dict,
                 strong: str = "100", marked=frozenset()) -> Text:
    """`entries[(col, row)]`: (ours, the seed's), as text. The `current` (col, row) is reversed and
    marked ▸; an entry of ours that starts with `strong` (a perfect score) is bold. `side[row]`: the
    last column, headed `side_title`; `corner` heads the row labels; an entry of ours in `marked` is
    underlined (it takes no column: a mark of one widened the table past 80)."""
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
            mark = " underline" if (c, row) in marked else ""
            if (c, row) == current and not mark:
                out.append(f"▸{ours:>{ours_w[c]}}│{seed:<{seed_w[c]}}", style="bold reverse")
            elif (c, row) == current:  # (ours alone underlined)
                out.append("▸", style="bold reverse")
                out.append(f"{ours:>{ours_w[c]}}", style="bold reverse" + mark)
                out.append(f"│{seed:<{seed_w[c]}}", style="bold reverse")
            else:
                if mark:
                    out.append(" ")
                    out.append(f"{ours:>{ours_w[c]}}", style=("bold" if ours.startswith(strong) else "") + mark)
                else:
                    out.append(f" {ours:>{ours_w[c]}}", style="bold" if ours.startswith(strong) else "")
                out.append(f"│{seed:<{seed_w[c]}}", style="dim")
        out.append(f"  {side[row]}", style="bold" if row == current[1] else "")
        if row != rows[-1]:
            out.append("\n")
    return out
