"""A figure as plain data: what it is called, which state and view draw it, its slides and its lab.

Nothing here imports Textual: the command line, slides and the registry read figures without
loading a screen module's widgets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rnntui.i18n import N_, _
from rnntui.state import BadValue, FigureState


@dataclass(frozen=True)
class Lab:
    """A torch lab a figure can run with `t`, in a child process (see `rnntui.labs`).

    `target` is "module:function"; the function takes (state, report) and returns a picklable
    result, calling report(done, total, label, partial) as it goes."""

    target: str
    label: str  # what the footer and progress line call it: "train", "measure"
    confirm: str = ""  # if set, states for which a first `t` only asks (e.g. minutes-long runs)


@dataclass(frozen=True)
class Figure:
    id: str
    title: str
    refs: str  # the SPEC's ids, e.g. "F1+F3"
    state_type: type[FigureState]
    view: Any  # the FigureView class that draws it (a Textual widget; not imported here)
    prose: str  # one or two lines in our own words: what it shows and why it matters
    key_steps: tuple = ()  # axis values worth a slide; empty: the rule in `slide_steps`
    lab: Lab | None = None
    links: bool = False  # its cells open other figures: enter (the keyboard contract's open_link; attention/summary)

    def slide_steps(self) -> tuple:
        """The axis values worth a slide (export's frames): `key_steps` when given; otherwise, on a
        whole-number axis, every step when there are at most 8, else 6 spread evenly from the first
        to the last; on a continuous or choice axis, the default state only."""
        if self.key_steps:
            return tuple(self.key_steps)
        state = self.state_type()
        p = state.param(state.AXIS)
        if p.kind != "int":
            return (getattr(state, p.name),)
        lo, hi = (int(v) for v in p.bounds(state))
        notch = max(int(p.notch), 1)
        if (hi - lo) // notch < 8:
            return tuple(range(lo, hi + 1, notch))
        return tuple(sorted({min(lo + round(k * (hi - lo) / 5 / notch) * notch, hi) for k in range(5)} | {hi}))


@dataclass(frozen=True)
class LabRun:
    """Where a figure's lab stands: a field of the figure's state, replaced as messages arrive."""

    status: str = "idle"  # idle, confirm, running, done, cancelled, failed
    number: int = 0  # how many runs this figure has started
    done: int = 0
    total: int = 0
    label: str = ""
    partial: Any = None  # what the lab has reported so far (picklable data)
    result: Any = None  # what the last finished run returned
    message: str = ""  # one line for failures and notes

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def phase(self) -> str:
        """What a live readout calls the run: training, trained, failed or stopped (two figures spelled it)."""
        return {"running": "training", "done": "trained", "failed": "failed"}.get(self.status, "stopped")


# torch is the labs' alone: an install without it draws every figure (here, not in rnntui.labs: `rnntui
# train` checks it without importing Textual)
NEEDS_TORCH = N_("the labs need torch: pip install torch (the CPU build is enough)")


def check_torch() -> None:
    """BadValue (one line) where torch is not installed."""
    import importlib.util

    try:
        found = importlib.util.find_spec("torch") is not None
    except ValueError:  # (in sys.modules as None: blocked)
        found = False
    if not found:
        raise BadValue(_(NEEDS_TORCH))


def failure_line(said: str) -> str:
    """A lab's one line of failure as the figure says it: torch missing in the reader's words."""
    return _(NEEDS_TORCH) if said.startswith("ModuleNotFoundError") and "torch" in said else said
