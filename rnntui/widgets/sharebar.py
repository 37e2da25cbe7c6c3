"""A share bar: a fixed-width state cut into n equal shares, the first one solid.

The first share is drawn to an eighth of a character (▏…█); the others alternate ░ and ▒, so the
shares read without colour; shares thinner than a character are a texture, ░ and ▒ a column each."""
from __future__ import annotations

import math

from rich.text import Text

from rnntui.i18n import _
from rnntui.widgets.cells import label_row
from rnntui.widgets.lines import Lines
from rnntui.widgets.quiet import joined, same
from rnntui.widgets.tints import BLUE, CYAN, HIGHLIGHT, style

ODD, EVEN = style(CYAN), style(BLUE)
EIGHTHS = " ▏▎▍▌▋▊▉█"


def share_lines(width: int, n: int, cols: int, rows: int = 2) -> list:
    """A bar of `cols` characters and `rows` lines standing for a state of `width` numbers, cut into
    n equal shares; the first token's share is solid (to an eighth of a character), the others
    alternate. Lines as `Lines` draws them: the bar's rows are one list of (characters, style) runs,
    drawn once (a Text of all the lines, split, cost ~3 ms a key at n = 1024)."""
    cols = max(cols, 8)
    share = cols / n  # characters per token
    # a tick over the first column of each share: the column whose middle the share covers, as the texture
    # is drawn (round() took ties to even: at n = 8 on 80 columns x5's tick stood a column right of its ▒)
    cuts = {math.ceil(i * share - 0.5) for i in range(n + 1)} if n <= 4 * cols else range(cols)
    ruler = Text("".join("┼" if c in cuts else "─" for c in range(cols)), style="dim")
    cells = []
    for c in range(cols):
        first = min(max(share - c, 0.0), 1.0)
        if first >= 1.0:
            cells.append(("█", HIGHLIGHT))
        elif first > 0:
            cells.append((EIGHTHS[max(int(first * 8), 1)], HIGHLIGHT))
        else:  # thinner than a character: a texture of columns (the token at each column's middle
            token = int((c + 0.5) / share) if share >= 1 else c  # made bands of aliasing: at n = 4096 it
            cells.append(("▒", ODD) if token % 2 else ("░", EVEN))  # drew 8, coarser than at 2048)
    bar = joined(cells)
    if share >= 1:  # (a share of 1–3 columns was said to blur into texture: it does not, a mutation audit)
        head = Text(share_labels(n, share, cols), style="bold")
    else:
        head = Text(_("x0 … x{last}: shares thinner than a character blur into texture").format(last=n - 1),
                    style="dim")
    return [head, ruler, *[bar] * max(rows, 1), Text(f"{'0':<{cols - len(str(width))}}{width}", style="dim"),
            Text(_("state: {width} numbers, the same at every length").format(width=width), style="dim")]


STRIDES = (1, 2, 4, 5, 8, 10, 16, 20, 32, 50, 64, 100)


def share_labels(n: int, share: float, cols: int) -> str:
    """x0, x1, … over the middles of their shares, every token's or every k-th (k from STRIDES), a space
    at least between two: they ran together ("x0x1  x2x3") and stopped at x9 at 32 tokens (a trial)."""
    longest = len(f"x{n - 1}")
    k = next((k for k in STRIDES if k * share >= longest + 1), n)
    def centred(i: int) -> tuple[int, str]:  # rounded half up: round() to even put x1 against x0 at 3 columns
        word = f"x{i}"  # a share, and every other label was left out (a review)
        return math.floor((i + 0.5) * share - len(word) / 2 + 0.5), word

    return label_row(map(centred, range(0, n, k)), cols) or " "


class ShareBar(Lines):
    """`show(width, n)`: a state of `width` numbers cut into n equal shares."""

    DEFAULT_CSS = "ShareBar { height: auto; }"
    spec = (512, 4)
    rows = 2

    def get_content_height(self, container, viewport, width: int) -> int:
        self.rows = min(max(container.height // 3, 2), 12)  # the bar thickens with the room
        return 4 + self.rows

    def show(self, width: int, n: int) -> None:
        spec = (width, n)
        if not same(spec, getattr(self, 'spec', None)):
            self.spec = spec
            self.changed()

    def lines(self, width: int, height: int) -> list:
        return share_lines(*self.spec, width, self.rows)
