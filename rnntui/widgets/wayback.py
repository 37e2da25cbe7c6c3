"""Linear attention's two grids: the masked n×n matrix it trains as, and the d×d state it serves from
(`rnntui serving/wayback`)."""
from __future__ import annotations

from rich.text import Text

from rnntui.i18n import _


def masked_matrix_text(rows, t: int) -> Text:
    """The masked matrix, rows normalised; row t reversed and marked ▸, the zeros above the diagonal as ·."""
    out = Text()
    out.append("   " + _("masked n×n matrix (how it trains), rows normalised") + "\n", style="bold")
    for i, row in enumerate(rows):
        mark = "▸" if i == t else " "
        out.append(f"{mark}{i:>2} ", style="bold" if i == t else "dim")
        line = " ".join("  ·  " if j > i else f"{w:.3f}" for j, w in enumerate(row))
        out.append(line + "\n", style="bold reverse" if i == t else "")
    return out


def state_text(S, z, t: int) -> Text:
    """The state S_t, d×d, with its normaliser z_t (dim) beside each row."""
    out = Text()
    out.append(_("state {S} (d×d) and {z} (d): all that is kept").format(S=f"S_{t}", z=f"z_{t}") + "\n", style="bold")
    for row, zi in zip(S, z):
        out.append(" ".join(f"{v:+7.2f}" for v in row))
        out.append(f"   {zi:6.2f}\n", style="dim")
    return out
