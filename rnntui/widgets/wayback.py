"""Linear attention's two grids: the masked n×n matrix it trains as, and the d×d state it serves from
(`rnntui serving/wayback`)."""
from __future__ import annotations

from rich.text import Text

from rnntui.i18n import _


def masked_matrix_text(rows, t: int, short: bool = False) -> Text:
    """The masked matrix, rows normalised; row t reversed and marked ▸, the zeros above the diagonal as ·.
    `short`: two places, no leading 0 (.41; a weight is at most 1), where the two grids side by side
    are wider than the view."""
    out = Text()
    out.append("   " + _("masked n×n matrix (how it trains), rows normalised") + "\n", style="bold")
    for i, row in enumerate(rows):
        mark = "▸" if i == t else " "
        out.append(f"{mark}{i:>2} ", style="bold" if i == t else "dim")
        if short:
            line = " ".join(" · " if j > i else "1.0" if w >= 0.995 else f"{w:.2f}"[1:] for j, w in enumerate(row))
        else:
            line = " ".join("  ·  " if j > i else f"{w:.3f}" for j, w in enumerate(row))
        out.append(line + "\n", style="bold reverse" if i == t else "")
    return out


def state_text(S, z, t: int, places: int | None = None) -> Text:
    """The state S_t, d×d, with its normaliser z_t (dim) beside each row; `places` (where the grids side
    by side are wider than the view): that many decimals, each value as wide as the widest needs."""
    out = Text()
    out.append(_("state {S} (d×d) and {z} (d): all that is kept").format(S=f"S_{t}", z=f"z_{t}") + "\n", style="bold")
    width = 7 if places is None else max(len(f"{v:+.{places}f}") for row in S for v in row)
    for row, zi in zip(S, z):
        out.append(" ".join(f"{v:+{width}.{places or 2}f}" for v in row))
        out.append(f"   {zi:6.2f}\n" if places is None else f"  {zi:.{places}f}\n", style="dim")
    return out


def grids_width(matrix: Text, state: Text, gap: int) -> int:
    """The cells the two grids take side by side."""
    return max(line.cell_len for line in matrix.split("\n")) + gap + max(line.cell_len for line in state.split("\n"))
