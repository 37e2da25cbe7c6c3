"""Linear attention's two grids: the masked n×n matrix it trains as, and the d×d state it serves from
(`rnntui serving/wayback`)."""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from rnntui.fmt import zeroed
from rnntui.i18n import _
from rnntui.widgets.cells import wrap


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
    by side are wider than the view): that many decimals, each value as wide as the widest needs; 0: in
    four cells a value (`_four`), z_t on its own line, a blank line under S_t, and the title over the lines it
    fits (z beside each row, the grids took 110 columns: at 100 they were left out)."""
    if places == 0:
        return _narrow_state(S, z, t)
    out = Text()
    out.append(_("state {S} (d×d) and {z} (d): all that is kept").format(S=f"S_{t}", z=f"z_{t}") + "\n", style="bold")
    width = _value_width(S, places)
    for row, zi in zip(S, z):
        out.append(" ".join(f"{zeroed(v, places or 2):+{width}.{places or 2}f}" for v in row))
        out.append(_normaliser(zi, places) + "\n", style="dim")
    return out


def _four(v: float, sign: str = "+") -> str:
    """A value in four cells: one decimal below 10, whole from 10 (+9.4, -0.8, +15)."""
    return f"{zeroed(v, 1):{sign}.1f}" if abs(v) < 9.95 else f"{v:{sign}.0f}"


def _narrow_lines(S, z, t: int) -> tuple[list[str], list[str], str]:
    """`state_text`'s lines at places 0: (title lines, rows of S_t, the line of z_t)."""
    width = max(len(_four(v)) for row in S for v in row)
    rows = [" ".join(_four(v).rjust(width) for v in row) for row in S]
    z_line = f"z_{t} = " + " ".join(_four(v, "") for v in z)  # (z_i goes with row i of S: not a row under its
    # columns, where it read as one whose values missed them, a lecturer's slides)
    # a line shorter: its rows beside the matrix's rows of the same number, as at 120 columns (d×d and d are
    # in the readout above, "state 8×8 + 8")
    title = _("state {S} and {z}: all that is kept").format(S=f"S_{t}", z=f"z_{t}")
    return wrap(title, max(map(len, rows + [z_line]))), rows, z_line


def _narrow_state(S, z, t: int) -> Text:
    titles, rows, z_line = _narrow_lines(S, z, t)
    out = Text()
    for line in titles:
        out.append(line + "\n", style="bold")
    out.append("\n".join(rows) + "\n\n")  # (a blank line first: the matrix's n = 12 rows beside leave room)
    out.append(z_line + "\n", style="dim")
    return out


def _value_width(S, places: int | None) -> int:
    """The cells each value of S takes: 7 (+0.00 padded) as drawn by default, else as wide as the widest."""
    return max([0 if places is not None else 7] + [len(f"{v:+.{places or 2}f}") for row in S for v in row])


def _normaliser(zi: float, places: int | None) -> str:
    return f"   {zi:6.2f}" if places is None else f"  {zi:.{places}f}"


def matrix_width(n: int, short: bool = False) -> int:
    """The cells `masked_matrix_text` takes for n rows, worked out without drawing it (a key at 120x40
    drew the grids up to three times to measure them: 8 ms, a bench)."""
    return max(3 + cell_len(_("masked n×n matrix (how it trains), rows normalised")), 4 + n * (4 if short else 6) - 1)


def state_width(S, z, t: int, places: int | None = None) -> int:
    """The cells `state_text` takes, worked out without drawing it."""
    if places == 0:
        titles, rows, z_line = _narrow_lines(S, z, t)
        return max(cell_len(line) for line in titles + rows + [z_line])
    title = cell_len(_("state {S} (d×d) and {z} (d): all that is kept").format(S=f"S_{t}", z=f"z_{t}"))
    tail = max(len(_normaliser(zi, places)) for zi in z)
    return max(title, len(S[0]) * (_value_width(S, places) + 1) - 1 + tail)
