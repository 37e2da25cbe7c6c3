"""A small text table: a bold title, a dim header, columns padded to their widest cell."""
from __future__ import annotations

from rich.text import Text

from rnntui.widgets.cells import cell_len, fit


def table_text(title: str, header: tuple[str, ...], rows, bold=(), inline: bool = False, right=(),
               width: int | None = None, keep=()) -> Text:
    """`rows` are tuples of cells; a row whose first cell is in `bold` is bold. `inline` puts the
    title and the header (less its first cell) on one line, as narrow screens need; no title, no
    title line. Columns whose index is in `right` are right-aligned (numbers). Widths are terminal
    cells: a CJK word lines up with an English one. `width`: the columns that fit whole in it, dropped
    from the right but those in `keep` (a cropped 5.09e-30 read 5.09e-3, a trial)."""
    rows = [tuple(header)] + [tuple(r) for r in rows]

    def side(column: int) -> str:
        return "right" if column in right else "left"

    widths = [max(cell_len(r[i]) for r in rows) for i in range(len(header))]
    shown = list(range(len(header)))
    while width is not None and len(shown) > 2 and sum(widths[i] for i in shown) + 2 * (len(shown) - 1) > width:
        shown.remove(next((i for i in reversed(shown[1:]) if i not in keep), shown[-1]))
    if len(shown) < len(header):
        rows, widths = [tuple(r[i] for i in shown) for r in rows], [widths[i] for i in shown]
        right = {shown.index(i) for i in right if i in shown}
    out = Text(no_wrap=True, overflow="crop")
    if inline:
        out.append(f"{title}  ", style="bold")
        out.append("  ".join(fit(c, w, side(i)) for i, (c, w) in enumerate(zip(rows[0], widths)) if i).rstrip()
                   + "\n", style="dim")
        rows = rows[1:]
        widths[0] = cell_len(title)
    elif title:
        out.append(title + "\n", style="bold")
    for i, r in enumerate(rows):
        line = "  ".join(fit(c, w, side(k)) for k, (c, w) in enumerate(zip(r, widths))).rstrip()
        style = "dim" if not inline and i == 0 else ("bold" if r[0] in bold else "")
        out.append(line + ("\n" if i < len(rows) - 1 else ""), style=style)
    return out
