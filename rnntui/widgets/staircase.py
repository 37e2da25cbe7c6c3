"""A staircase: positions along the bottom, a path between two of them above, one stair per hop.

Box-drawing lines join the stairs; the path's two ends are marked ● and their labels reversed, so
the ends read without colour."""
from __future__ import annotations

from rnntui.i18n import ngettext
from rnntui.widgets.cells import MORE, cut
from rnntui.widgets.lines import Lines
from rnntui.widgets.quiet import joined, same
from rnntui.widgets.tints import CYAN, HIGHLIGHT, style

LINK = style(CYAN)
RISE = 4  # the most rows a stair rises
U, D, L, R = 1, 2, 4, 8
BOX = {L | R: "─", U | D: "│", R | U: "└", L | U: "┘", R | D: "┌", L | D: "┐", L | R | U: "┴",
       L | R | D: "┬", U | D | R: "├", U | D | L: "┤", L | R | U | D: "┼", L: "─", R: "─", U: "│", D: "│"}


def staircase_runs(hops, n: int, k: int, width: int, height: int, behind=(), note: str = "") -> list[list]:
    """Positions 0…n−1 along the bottom; above them a path from position 0 to position k, one stair
    per hop (a, b). Heights are scaled so that k hops would fill the height: a path of fewer, longer
    hops looks small beside one of k, and `behind` (another path, e.g. recurrence's k hops behind
    attention's one) is drawn dim where the path is not, when each of its stairs has a row and the
    path's end is drawn; `note` then says so in a line under it. Lines of (words, style) runs, as
    `Lines` draws them."""
    level = {0: 0}
    for a, b in hops:
        level[b] = level[a] + 1
    ghost_level = {0: 0}
    for a, b in behind:
        ghost_level[b] = ghost_level[a] + 1
    label_w = len(str(k)) + 1
    cw = max(min((width - label_w) // n, 12), 2)  # (8 left 60 columns empty at 160x48)
    shown = min(n, (width - label_w) // cw)
    squeezed = height - 1 < len(hops) + 1  # fewer rows than stairs: a row holds several, and a line says so
    per = max(min(RISE, (height - 2) // max(k, 1)), 1)  # rows a stair, as many as fit: 4 (8 columns) is square
    rows = max(min(height - 1 - squeezed - bool(behind and note), per * k + 1), 2)
    scale = (rows - 1) / max(k, 1)

    def row(lv: int) -> int:  # canvas row, 0 at the top
        return rows - 1 - (max(round(lv * scale), 1) if lv else 0)

    def col(t: int) -> int:
        return t * cw + cw // 2

    def draw(path, levels: dict) -> tuple[list, dict]:
        """The path's box-drawing bits a cell and its stops (position → (row, column))."""
        grid, nodes = [[0] * (shown * cw) for _ in range(rows)], {}

        def link(y: int, x0: int, x1: int) -> None:
            for x in range(min(x0, x1), max(x0, x1)):
                if x < len(grid[0]) and x + 1 < len(grid[0]):
                    grid[y][x] |= R
                    grid[y][x + 1] |= L

        def climb(x: int, y0: int, y1: int) -> None:
            for y in range(min(y0, y1), max(y0, y1)):
                if x < len(grid[0]):
                    grid[y][x] |= D
                    grid[y + 1][x] |= U

        for a, b in path:
            if b >= shown:
                break
            ya, yb = row(levels[a]), row(levels[b])
            xa, xb = col(a), col(b)
            xm = xa + cw // 2 + (cw % 2) if b == a + 1 else xa + 1
            link(ya, xa, xm)
            climb(xm, yb, ya)
            link(yb, xm, xb)
            nodes[a], nodes[b] = (ya, xa), (yb, xb)
        return grid, nodes

    grid, nodes = draw(hops, level)
    peak = max(level.values())  # (behind's stairs up to the path's peak lie under it: a tangle at its foot)
    ghost = rows - 1 >= max(ghost_level.values()) and k < shown and len(behind) > 1  # (each stair a row; the end drawn)
    faint, faint_nodes = draw([(a, b) for a, b in behind if ghost_level[b] > peak] if ghost else (), ghost_level)
    faint_at = set(faint_nodes.values())
    at = {yx: t for t, yx in nodes.items()}
    top, per_row = {}, {}  # each row's highest level, and the stairs drawn in it (the stops but position 0)
    for t, (ny, _x) in nodes.items():
        top[ny] = max(top.get(ny, 0), level[t])
        if t:
            per_row[ny] = per_row.get(ny, 0) + 1
    lines = []
    for y in range(rows):
        lv = top.get(y)
        lines.append(joined([(f"{lv if lv is not None else '':>{label_w - 1}} ", "bold" if lv else "dim"),
                             *((("●", HIGHLIGHT if at[y, x] in (0, k) else "bold") if (y, x) in at
                                else (BOX.get(bits | faint[y][x], " "), LINK) if bits  # (a dim stair off
                                # the path joins it: "┴", not a riser over "─" in mid-air, a lecturer's slides)
                                else ("·", "dim") if (y, x) in faint_at
                                else (BOX.get(faint[y][x], " "), "dim" if faint[y][x] else None))
                               for x, bits in enumerate(grid[y]))]))
    labels = [(" " * label_w, None)]
    for t in range(shown):
        word = f"x{t}" if cw >= len(f"x{t}") + 1 else str(t)
        if cw == 2 and t not in (0, k) and (t % 2 or abs(t - k) == 1):
            word = ""
        style = "bold reverse" if t in (0, k) else ("bold" if t in level else "dim")
        labels.append((f"{word:^{cw}}"[:cw], style))
    out = lines + [joined(labels)]
    if squeezed and max(per_row.values(), default=1) > 1:  # ("each stair is one multiplication": a trial)
        line = ngettext("{n} stairs in {rows} row: up to {most} a row (a taller terminal: one each)",
                        "{n} stairs in {rows} rows: up to {most} a row (a taller terminal: one each)", len(per_row))
        out.append([(cut(line.format(n=sum(per_row.values()), rows=len(per_row), most=max(per_row.values())),
                         width, MORE), "dim")])
    if ghost and note:
        out.append([(cut(note, width, MORE), "dim")])
    return out


class Staircase(Lines):
    """`show(hops, n, k)`: the path of `hops` from position 0 to position k among n."""

    DEFAULT_CSS = "Staircase { height: 1fr; min-height: 4; }"
    spec = ((), 2, 1, (), "")

    def show(self, hops, n: int, k: int, behind=(), note: str = "") -> None:
        """`behind`: another path drawn dim where this one is not, `note` saying so (`staircase_runs`)."""
        spec = (tuple(tuple(h) for h in hops), n, k, tuple(tuple(h) for h in behind), note)
        if not same(spec, getattr(self, 'spec', None)):
            self.spec = spec
            self.changed()

    def lines(self, width: int, height: int) -> list[list]:
        return staircase_runs(*self.spec[:3], width, height, *self.spec[3:])
