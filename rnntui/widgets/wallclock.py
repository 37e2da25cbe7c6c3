"""The wallclock grid: rows are positions (or any parallel lanes), columns are wallclock steps.

A cell lights when its lane works at that step. Glyphs carry the meaning, so it reads the same
without colour (NO_COLOR): █ worked, ▓ worked in the latest step (the one the header marks: `now`
steps have passed, so its work is done and counted; steps are numbered from 1), · idle, blank not
reached yet.
Readouts above the grid say what happened so far (steps with work, busy cells); the caller
counts them (a `Tally`), the grid only draws. When the lanes do not fit the height, a window of
them follows the current work.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.text import Text

from rnntui.i18n import N_, _, spaced
from rnntui.widgets.cells import cell_len
from rnntui.widgets.lines import Lines, rstrip_runs, runs_text
from rnntui.widgets.quiet import joined, same
from rnntui.widgets.tints import GOOD, WARN

DONE, NOW, IDLE, AHEAD = "█", "▓", "·", " "  # (▒ made the step now the faintest mark: 2.1:1 on the
# light theme, 2.3:1 on the projector one, an accessibility trial)
STYLE = {DONE: f"bold {GOOD}", NOW: f"bold {WARN}", IDLE: "dim", AHEAD: ""}
LEGEND = ((DONE, N_("worked")), (NOW, N_("worked this step")), (IDLE, N_("idle")), ("□", N_("blank: not reached")))


@dataclass(frozen=True)
class Tally:
    """What the readouts above the grid say after `now` wallclock steps."""

    steps_used: int  # steps among the first `now` with any work in them
    busy: int  # busy (lane, step) cells so far
    cells: int  # all cells
    per_step: float  # busy cells per used step (0 when none used)


def cell_kind(busy: np.ndarray, row: int, col: int, now: int) -> str:
    if col >= now:
        return AHEAD
    if busy[row, col]:
        return NOW if col == now - 1 else DONE
    return IDLE


def _cell(kind: str, w: int) -> str:
    if w == 1:
        return kind
    if kind in (DONE, NOW):
        return kind * w if w == 2 else kind * (w - 1) + " "
    return f"{kind:<{w}}" if w == 2 else f"{kind:^{w - 1}} "


def window(rows: int, room: int, focus: int) -> tuple[int, int]:
    """[start, stop) of the lanes to draw: all of them, or `room` around `focus`."""
    if rows <= room:
        return 0, rows
    start = min(max(focus - room // 2, 0), rows - room)
    return start, start + room


def grid_text(busy: np.ndarray, now: int, tally: Tally, width: int, height: int, lane: str = "pos") -> Text:
    """The readouts, legend, header and lanes as one Text (see `grid_runs`)."""
    return runs_text(grid_runs(busy, now, tally, width, height, lane), no_wrap=True, overflow="crop")


def grid_runs(busy: np.ndarray, now: int, tally: Tally, width: int, height: int, lane: str = "pos") -> list[list]:
    """Each line as (words, style) runs: built straight, not through Rich Text (a key redraws the lanes)."""
    busy = np.asarray(busy, dtype=bool)
    rows, cols = busy.shape
    now = int(min(max(now, 0), cols))
    of = _("{part} of {whole}")
    # of the steps so far: "sequential steps 1 of 8" at wallclock 3 read as progress (a student's trial)
    out = [[(_("steps with work") + " ", "dim"), (of.format(part=tally.steps_used, whole=now) if now else "—", "bold"),
            ("   " + _("busy cells") + " ", "dim"), (of.format(part=tally.busy, whole=tally.cells), "bold"),
            ("   " + _("busy per step") + " ", "dim"),
            (of.format(part=f"{tally.per_step:.1f}", whole=rows) if tally.steps_used else "—", "bold")]]
    legend = []
    for glyph, word in LEGEND:
        legend.append((glyph if glyph != "□" else " ", STYLE.get(glyph, "")))
        legend.append((f" {_(word)}   " if glyph != "□" else _(word), "dim"))
    out.append(legend)

    lane = _(lane)  # ("pos" among Chinese, a Chinese student's trial: 位置, two cells a character)
    label_w = max(cell_len(lane), len(str(rows - 1))) + 1
    room = max(height - 3, 1)
    tall = min(max(room // max(rows, 1), 1), 4)  # lines per lane: up to four when the height allows
    w = int(min(max((width - label_w) // max(cols, 1), 1), 3 * tall + 1))
    shown_cols = min(cols, max((width - label_w) // w, 1))
    header = [(" " * (label_w - 1 - cell_len(lane)) + lane + " ", "dim")]
    every = 1 if w >= 3 else (2 if w == 2 else 5)
    for s in range(shown_cols):  # steps count from 1: after `now` steps, step `now` is marked (the
        number = str(s + 1)  # footer's "wallclock 3" marked a step labelled 2, a newcomer's trial)
        if s == now - 1:
            text = number if w >= 3 else "▼" * w
        else:
            text = number if (s + 1) % every == 0 and len(number) <= max(w - (w >= 3), 1) else ""
        piece = f"{text:<{w}}" if w < 3 else f"{text:^{w - 1}} "
        header.append((piece, "dim bold reverse" if s == now - 1 else "dim"))  # on the header's dim, as drawn before
    arrow = " " + _("wallclock →")
    if sum(cell_len(words) for words, _style in header) + cell_len(arrow) <= width:
        header.append((arrow, "dim"))
    out.append(header)

    working = np.flatnonzero(busy[:, now - 1]) if now else np.array([], dtype=int)
    # the window follows the latest work: the first lane of the last step with any (attention's lanes
    # all work at step 1; at its end the window showed the last ones, with the work above it)
    worked = np.flatnonzero(busy[:, :now].any(axis=0)) if now else np.array([], dtype=int)
    focus = int(np.flatnonzero(busy[:, worked[-1]])[0]) if worked.size else 0
    fit = room // tall
    start, stop = window(rows, fit if rows <= fit else max(fit - 1, 1), focus)
    for r in range(start, stop):
        kinds = [cell_kind(busy, r, s, now) for s in range(shown_cols)]
        for line in range(tall):
            label = str(r) if line == 0 else ""
            gap = tall >= 3 and line == tall - 1  # a blank line under each lane: attention's 8 busy lanes, 3-4
            # lines each, were one solid block (a newcomer's trial)
            cells = [(" " * w if (line and kind == IDLE) or gap else _cell(kind, w), STYLE[kind]) for kind in kinds]
            # an idle cell keeps one dot, on its first line
            out.append([(f"{label:>{label_w - 1}} ", "bold" if r in working else "dim")] + joined(cells))
    if stop - start < rows:
        # (no arrows: "↓ 3 below" read as a key, and ↓ chooses a parameter; a trial)
        above, below = _("{n} above").format(n=start), _("{n} below").format(n=rows - stop)
        hidden = _("{above}, {below}").format(above=above, below=below) if start and rows - stop else \
            above if start else below  # (zh: a full-width comma, a student's trial)
        out.append([(spaced(_("positions {first}–{last} of {rows} shown;").format(first=start, last=stop - 1, rows=rows))
                     + hidden + _("; they follow the wallclock"), "dim italic")])
    else:
        out.append([])  # the text ended in a newline
    return rstrip_runs(out)


class WallclockGrid(Lines):
    """`show(busy, now, tally)`: busy is a lanes × steps boolean array; `now` steps have passed."""

    DEFAULT_CSS = "WallclockGrid { height: 1fr; min-height: 5; }"

    def __init__(self, lane: str = "pos", **kwargs) -> None:
        super().__init__(**kwargs)
        self.lane = lane
        self.busy = np.zeros((1, 1), dtype=bool)
        self.now = 0
        self.tally = Tally(0, 0, 1, 0.0)

    def show(self, busy, now: int, tally: Tally) -> None:
        busy = np.asarray(busy, dtype=bool)
        if not same((busy, int(now), tally), (self.busy, self.now, self.tally)):
            self.busy, self.now, self.tally = busy, int(now), tally
            self.changed()

    def lines(self, width: int, height: int) -> list:
        return grid_runs(self.busy, self.now, self.tally, width, height, self.lane)
