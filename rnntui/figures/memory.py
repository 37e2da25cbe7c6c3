"""T7 `memory`: how far back a recurrent net remembers — the copy-first-token grid (E2+E3), one run's
learning curve, σ(b_f)^T, and the gates of a trained LSTM with distractors (E7)."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np

from rnntui.engine import memory as mem
from rnntui.engine import records
from rnntui.engine.lstm import bias_survival
from rnntui.engine.recurrence import sigmoid
from rnntui.figure import LabRun
from rnntui.i18n import N_, _
from rnntui.files import SERVED_TAB, home_short, why_unsavable
from rnntui.state import FigureState, param

CELLS = mem.CELLS
TS = mem.TS
T_CHOICES = tuple(str(T) for T in TS)  # T is a choice: only the grid's lengths were trained
EVERY = mem.EVERY
CHANCE = mem.CHANCE
HOLD = mem.HOLD
HIDDEN = mem.HIDDEN
LN_VOCAB = math.log(mem.VOCAB)  # the loss of a uniform guess over the 10 tokens
CONFIRM_T = 80  # a live run this long takes minutes: `t` asks first
END = 100_000  # a cursor past every run: the state pulls it back to the run's last step

# -- the results the figures read: shipped grid, user cache over it -----------------------------------
_LOADED: dict = {"key": ..., "results": None}
_NOTES: list[str] = []  # the corrupt-cache report outlives the file it was about (the engine moves it)


def _cache_key():
    return str(mem.cache_path()), records.stamp(mem.cache_path())


def loaded() -> tuple[mem.Results, str]:
    """(the shipped grid with the user's cached runs over it, a one-line note or ""). Re-read when the
    cache file changes; a damaged shipped grid raises BadResults (one line)."""
    key = _cache_key()
    if _LOADED["key"] != key:
        results, report = mem.load()
        if report and report not in _NOTES:
            _NOTES.append(report)
        key = _cache_key()
        if not report and key[1] is not None:  # a cache read whole again (a lab rebuilt it): the note is old
            _NOTES.clear()  # (it still said "…was corrupt… using the shipped results" beside the new run, a trial)
        _LOADED.update(key=key, results=results)
    return _LOADED["results"], (_NOTES[-1] if _NOTES else "")


def forget() -> None:
    """Drop what was loaded (tests; a new cache folder)."""
    _LOADED.update(key=..., results=None)
    _NOTES.clear()
    mem.shipped.cache_clear()


def live_data(run: LabRun) -> dict | None:
    """What the live run last sent: its record once done, else its partial curve."""
    if run.status == "done" and isinstance(run.result, dict):
        return run.result
    return run.partial if isinstance(run.partial, dict) else None


def finished_run(run: LabRun) -> mem.Run | None:
    """The run a finished lab returned, checked like any results file (None if there is none)."""
    if run.status != "done" or not isinstance(run.result, dict):
        return None
    try:
        return mem.parse_run(run.result)
    except mem.BadResults:
        return None


# -- E2+E3: the grid and one run -------------------------------------------------------------------------
@dataclass(frozen=True)
class LiveReadings:
    """Where the live run of the focused cell × T stands."""

    status: str  # "asks" (t again starts it), "training", "trained", "stopped", "failed"
    cell: str
    T: int
    step: int
    steps: int
    message: str = ""
    errno: int | None = None  # why the cache was not written, for the screen to say in its language
    path: str | None = None  # the file or folder it could not write (with errno)


@dataclass(frozen=True)
class CopyReadings:
    cell: str
    T: int
    source: str  # where the focused run comes from: "shipped", "cache", "live" (training), "new" (just trained)
    table: tuple[dict, ...]  # one row per cell × T: mem.table's fields (ours, the seed's, σ(b_f)^T)
    final_acc: float | None  # the focused run
    reached_100_at: int | None
    steps: int | None
    seed_final: float | None
    seed_reached: object  # a step, None (never) or "?" (the seed does not say)
    curve_steps: tuple[int, ...]
    curve_acc: tuple[float, ...]
    curve_loss: tuple[float, ...]
    curve_loss_rel: tuple[float, ...]  # loss ÷ ln 10: 1 is guessing, 0 is certain
    at: tuple | None  # (step, acc, loss) of the last evaluation at or before the cursor; None before the first
    chance: float
    forget_bias: float | None  # the cell's effective b_f (None: the RNN has no forget gate)
    forget_gate: float | None  # σ(b_f)
    survival: float | None  # σ(b_f)^T: what is left of c_0 after T forget gates at their bias
    survival_by_T: dict  # T → σ(b_f)^T for this cell
    story: dict  # the seed's "b_f = 1" at T = 40 against a true b_f = 1 and our b_f = 2
    note: str  # a corrupt cache set aside, or ""
    live: LiveReadings | None
    cache: str = ""  # the file the user's runs are kept in ("": a browser tab's, the server's to keep)


def _entry(run: mem.Run | None) -> dict:
    return {"final_acc": run.final_acc if run else None, "reached_100_at": run.reached_100_at if run else None,
            "steps": run.steps if run else None}


@dataclass(frozen=True)
class CopyState(FigureState):
    """E2+E3: copy the first of T tokens; ←/→ move the cursor along the focused run's curve."""

    cell: str = param("lstm", "choice", choices=CELLS, key="c", label="model", means=N_(
        "rnn; lstm with forget-gate bias 0; lstm-bf1 with b_f = 1; lstm-bf2, the source's code: both biases 1, so b_f = 2"))
    T: str = param("20", "choice", choices=T_CHOICES, label="T")
    step: int = param(END, "int", lo=EVERY, hi="last_step", notch=EVERY, grid=True, label="step", fmt="d")
    run: LabRun = field(default=LabRun(), compare=False)

    def __post_init__(self) -> None:  # the cursor starts at (and stays within) the run's last step
        last = self.last_step
        if self.step > last:
            object.__setattr__(self, "step", last)

    def _follow(self, new: "CopyState", name: str) -> "CopyState":
        """A cursor at the end of one run stays at the end of the next (cell or T changed)."""
        if name != "step" and self.step >= self.last_step:
            return replace(new, step=END)
        return new

    def nudged(self, name: str, notches: int, fine: bool = False) -> "CopyState":
        return self._follow(super().nudged(name, notches, fine), name)

    def with_value(self, name: str, value) -> "CopyState":
        return self._follow(super().with_value(name, value), name)

    @property
    def length(self) -> int:
        return int(self.T)

    def axis_shown(self) -> str:
        """While this cell × T trains, the readouts follow its latest step, and so does the line ("step 1500"
        stood beside a run at step 148, a TA's trial)."""
        d = self.live() if self.run.running else None
        if d is None:
            return super().axis_shown()
        return _("{step}, the run's latest").format(step=int(d.get("step", 0) or 0))

    def started(self) -> "CopyState":
        """As `t` starts a run: the cursor goes to its end, which the readouts follow while it trains (from step
        100 it went back there as the run ended, "step 400, the run's latest" one frame before, a keyboard audit)."""
        return replace(self, step=END)

    def first_partial(self) -> dict:
        """The run's cell × T, known before its first report (torch's import left a second with no line)."""
        return {"cell": self.cell, "T": self.length, "step": 0, "steps": mem.STEPS[self.cell], "curve": []}

    def lab_note(self) -> str:
        """Why the run `t` starts would not be saved, checked as it starts (said only after training, a
        review), or ""."""
        return why_unsavable(mem.cache_path(), merged=True)

    def needs_confirm(self) -> bool:
        """A live run at T = 80 takes minutes: the first `t` only asks."""
        return self.length == CONFIRM_T

    def live(self) -> dict | None:
        """The live run's data when it is about this cell × T."""
        d = live_data(self.run)
        if d and d.get("cell") == self.cell and d.get("T") == self.length:
            return d
        return None

    def results(self) -> tuple[mem.Results, str]:
        results, note = loaded()
        new = finished_run(self.run)
        return (results.merged(mem.Results((new,))) if new else results), note

    @property
    def last_step(self) -> int:
        """The cursor's end: the shown run's last step (a live run's planned total)."""
        d = self.live() if self.run.running else None
        if d:
            return max(int(d.get("steps", EVERY)), EVERY)
        try:
            run = self.results()[0].run(self.cell, self.length)
        except mem.BadResults:
            run = None
        return max(run.steps, EVERY) if run else mem.STEPS[self.cell]

    def read(self) -> CopyReadings:
        results, note = self.results()
        cell, T = self.cell, self.length
        run = results.run(cell, T)
        d = self.live()
        live = self._live_readings(d)
        if self.run.running and d is not None:
            source = "live"
            curve = [tuple(p) for p in d.get("curve", ())]
            final = _entry(mem.make_run(cell, T, max(d.get("step", 1), 1), 0, curve, 0.0, "")) if curve else _entry(None)
        else:
            new = finished_run(self.run)
            source = "new" if new is not None and (new.cell, new.T) == (cell, T) else \
                "cache" if run is not None and run != mem.shipped().run(cell, T) else "shipped"
            curve = [(p.step, p.acc, p.loss) for p in run.curve] if run else []
            final = _entry(run)
        steps = tuple(int(s) for s, _, _ in curve)
        acc = tuple(float(a) for _, a, _ in curve)
        loss = tuple(float(v) for _, _, v in curve)
        upto = [i for i, s in enumerate(steps) if s <= self.step or source == "live"]  # training: the latest
        at = (steps[upto[-1]], acc[upto[-1]], loss[upto[-1]]) if upto else None
        b = mem.FORGET_BIAS[cell]
        story = {"T": 40, "true_bf1": _entry(results.run("lstm-bf1", 40)), "ours_bf2": _entry(results.run("lstm-bf2", 40)),
                 "seed_bf2": {"final_acc": mem.seed_final("lstm-bf2", 40), "reached_100_at": mem.seed_reached("lstm-bf2", 40)},
                 "survival_bf1": float(bias_survival(1.0, 40)), "survival_bf2": float(bias_survival(2.0, 40)),
                 "gate_bf1": float(sigmoid(1.0)), "gate_bf2": float(sigmoid(2.0))}
        return CopyReadings(
            cell, T, source, tuple(mem.table(results)), final["final_acc"], final["reached_100_at"], final["steps"],
            mem.seed_final(cell, T), mem.seed_reached(cell, T), steps, acc, loss,
            tuple(v / LN_VOCAB for v in loss), at, CHANCE, b, None if b is None else float(sigmoid(b)),
            mem.cell_survival(cell, T), {t: mem.cell_survival(cell, t) for t in TS}, story, note, live,
            "" if os.environ.get(SERVED_TAB) else home_short(mem.cache_path()))

    def _live_readings(self, d: dict | None) -> LiveReadings | None:
        """The run's line: this cell × T's, or a run of another one while it trains, stops or fails (it
        went unseen after c, T or r, and t there stopped it; a TA's trial), named by its own cell and T."""
        run = self.run
        if run.status == "confirm":
            return LiveReadings("asks", self.cell, self.length, 0, mem.STEPS[self.cell], run.message)
        other = live_data(run)
        if d is None and run.status in ("running", "cancelled", "failed") and other:
            d = other  # (a finished run of another cell × T is in the table, underlined)
        if run.status == "idle" or (d is None and run.status != "failed"):
            return None
        status = run.phase
        d = d or {}
        cell, T = d.get("cell", self.cell), int(d.get("T", self.length))
        step, steps = int(d.get("step", d.get("steps", 0)) or 0), int(d.get("steps", mem.STEPS[cell]) or 0)
        if run.status in ("failed", "running"):  # (running: its note, why it will not be saved)
            return LiveReadings(status, cell, T, step, steps, run.message)
        # (done: why it was not saved, said in the reader's language now: the note is in the one of its start)
        return LiveReadings(status, cell, T, step, steps, str(d.get("save_error", "")), d.get("save_errno"),
                            d.get("save_path"))


# -- E7: the gates with distractors -------------------------------------------------------------------------
@dataclass(frozen=True)
class GateReadings:
    distractors: str
    cell: str
    T: int
    steps: int
    acc: float
    positions: tuple[int, ...]
    last_position: int  # T − 1
    n_distractors: int  # T − 1 tokens after the first
    input_gate: tuple[float, ...]  # mean i_t over the batch and all units, per position
    forget_gate: tuple[float, ...]
    held_forget: tuple[float, ...]  # mean f_t over the held units, per position (empty: none held)
    input_at: float  # at the cursor's position
    forget_at: float
    held_forget_at: float | None
    input_distractors: float  # mean input gate over the T−1 distractor positions
    n_held: int  # units whose forget gate stays above HOLD at every position after the first
    hidden: int
    held_forget_mean: float | None  # their mean forget gate over the distractor positions
    hold: float
    note: str


@dataclass(frozen=True)
class GateState(FigureState):
    """E7: a trained LSTM's mean input and forget gate at each position; ←/→ move along the sequence."""

    AXIS: ClassVar[str] = "position"
    distractors: str = param("same", "choice", choices=mem.DISTRACTORS, key="d", label="distractors", means=N_(
        "the tokens after the first: from the same 10 symbols as it, or from 10 disjoint ones"))
    position: int = param(1, "int", lo=0, hi=mem.DISTRACTOR_T - 1, label="position", fmt="d")

    def read(self) -> GateReadings:
        results, note = loaded()
        g = results.gate(self.distractors)
        if g is None:  # the shipped grid always has both; a stripped install still opens
            return GateReadings(self.distractors, mem.DISTRACTOR_CELL, mem.DISTRACTOR_T, 0, 0.0, (), 1, 0, (), (), (),
                                math.nan, math.nan, None, math.nan, 0, HIDDEN, None, HOLD,
                                note or _("no gate profile for {kind} distractors").format(kind=self.distractors))
        k = min(self.position, g.T - 1)
        held = g.held_forget
        return GateReadings(
            g.distractors, g.cell, g.T, g.steps, g.acc, tuple(range(g.T)), max(g.T - 1, 1), g.T - 1, g.input_gate, g.forget_gate, held,
            g.input_gate[k], g.forget_gate[k], held[k] if held else None, float(np.mean(g.input_gate[1:])),
            len(g.held_units), HIDDEN, float(np.mean(held[1:])) if held else None, HOLD, note)
