"""What a decoder may read of an n-token source, as text: the encoder's states in a row, lit where the
decoder reads them (all of them with attention, the last one through the bottleneck), and a bar of
how many numbers each way reads."""
from __future__ import annotations

from rich.text import Text

from rnntui.i18n import _
from rnntui.widgets.cells import aligned, cell_len
from rnntui.widgets.sharebar import EIGHTHS


def visibility_text(n: int, mode: str, reads: int, sizes: tuple[int, int], bars: tuple[float, float],
                    width: int, tall: int = 1) -> Text:
    """`mode`: "bottleneck" or "attention"; `reads`: how many numbers the decoder reads; `sizes`: the
    numbers each way holds (bottleneck, attention) and `bars` their bars' lengths (0…1). `tall`:
    lines per arrow and per bar (`visibility_tall`)."""
    room = max((width - 12) // 5, 3)  # (5 cells a position: "x_47" and a space)
    cols = list(range(n)) if n <= room else list(range(room - 2)) + [None, n - 1]  # None: "…"
    cw = min(max((width - 12) // len(cols), 5), 8)  # characters per position: wider with the room
    lit = [j is not None and (mode == "attention" or j == n - 1) for j in cols]
    pic = Text()
    head = aligned((_("source"), _("encoder"), _("decoder")))
    lead = cell_len(head[0])
    pic.append(head[0], style="dim")
    for j in cols:
        pic.append(f"{' …' if j is None else f'x_{j}':<{cw}}"[:cw])  # (from 0, as x_0 and h_0 are elsewhere)
    pic.append("\n" * min(tall, 2) + head[1], style="dim")
    for j, on in zip(cols, lit):
        pic.append(f"{' …' if j is None else '[█]' if on else '[░]':<{cw}}", style="bold" if on else "dim")
    for _line in range(tall):
        pic.append("\n" + " " * lead)
        for on in lit:
            pic.append(f"{' ↓' if on else '':<{cw}}", style="bold")
    pic.append("\n" + head[2], style="dim")
    # (it said "h_n" under x1 … x12, where the rest of the app counts x_0 … and the matrix h_0 … h_15: a
    # student's check; the last state is h_{n−1}, named by its number)
    what = (_("reads h_{last} only: one vector = {n} numbers") if mode == "bottleneck" else
            _("reads every h_j (weighted by α): {n} numbers"))
    pic.append(what.format(n=f"{reads:,}", last=n - 1) + "\n\n", style="bold")
    names = aligned((_("bottleneck"), _("attention")))
    drawn = bar_cells(bars, max(width - 30, 10))
    for name, shown, value, cells in (("bottleneck", names[0], sizes[0], drawn[0]),
                                      ("attention", names[1], sizes[1], drawn[1])):
        if name == "attention" and tall > 1:
            pic.append("\n")  # a line between tall bars
        style = "bold" if name == mode else "dim"
        for line in range(tall):
            pic.append(shown if line == tall - 1 else " " * cell_len(shown), style=style)
            pic.append(cells, style=style)
            pic.append(f" {value:,}" if line == tall - 1 else "\n")
        pic.append("\n")  # (a blank line under the last: the readouts under the picture)
    return pic


def bar_cells(bars: tuple[float, float], most: int) -> tuple[str, str]:
    """The two bars (lengths 0…1, the longer 1) in at most `most` characters, to an eighth of one, their
    ratio kept: the shorter floored to eighths, the longer that many times as long (rounded to whole
    characters, 6 and 66 read 11× for n = 12's 12×, a maths audit)."""
    short = min(bars)
    if short <= 0:
        return tuple("█" * (most if part else 0) for part in bars)
    eighths = max(1, int(8 * most * short + 1e-9))
    sized = [eighths if part == short else round(eighths * part / short) for part in bars]
    return tuple("█" * (e // 8) + EIGHTHS[e % 8].strip() for e in sized)


def visibility_tall(height: int) -> int:
    """Lines per arrow and per bar for a picture at most `height` lines tall (7 + 3 a line from 2 on),
    up to 6."""
    return min(max((height - 7) // 3, 1), 6)
