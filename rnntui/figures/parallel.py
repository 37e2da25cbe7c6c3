"""T6 `parallel`: the wallclock grid, the path between two tokens, cost per layer, capacity and
the timing lab's counts."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import ClassVar

import numpy as np

from rnntui.engine import gradients as gr
from rnntui.engine import lab_timing
from rnntui.engine import parallel as par
from rnntui.engine import records
from rnntui.figure import LabRun
from rnntui.i18n import N_
from rnntui.state import FigureState, param, power_step, via_home

MODE = dict(kind="choice", choices=par.MODES, key="m", label="mode",
            means=N_("the layer drawn: a recurrent one (a chain of steps) or self-attention"))
TIMING_T = par.TIMING_T


@dataclass(frozen=True)
class Geometric(FigureState):
    """A state whose listed parameters move by factors (×2 or ×4) on +/- and ←/→, snapping to
    powers; any value in range can still be set with --set. Their `notch` is only read by
    play (space), which spaces its ticks by range/notch: it is set to range/(number of powers)."""

    GEOMETRIC: ClassVar[dict[str, int]] = {}

    def press_base(self, name: str) -> int | None:
        return self.GEOMETRIC.get(name) or super().press_base(name)

    def nudged(self, name: str, notches: int, fine: bool = False) -> FigureState:
        base = self.GEOMETRIC.get(name)
        if base is None or not notches:
            return super().nudged(name, notches, fine)
        lo, hi = self.param(name).bounds(self)
        new = via_home(getattr(self, name), notches, lambda v, way: power_step(v, way, base), self.defaults().get(name))
        new = min(max(new, lo), hi)
        return self.kept(name, replace(self, **{name: int(new)}))


@dataclass(frozen=True)
class GridReadings:
    busy: tuple  # busy[i][s]: position i works at wallclock step s (0/1)
    start_step: tuple[int, ...]
    sequential_steps_used: int  # steps among the first `step` with work in them
    busy_cells: int
    cells: int
    busy_per_step: float  # busy cells per used step (0 before the first)
    depth: int  # sequential steps of the whole layer
    outputs_ready: int


@dataclass(frozen=True)
class GridState(FigureState):
    """F15+F18: rows are positions, columns wallclock steps; `step` wallclock steps have passed."""

    mode: str = param("recurrent", **MODE)
    n: int = param(8, "int", lo=2, hi=32, label="tokens", fmt="d")  # (its "n 8" read as the n key, a trial)
    step: int = param(0, "int", lo=0, hi="n", label="wallclock", fmt="d")

    def busy(self):
        return par.schedule(self.mode, self.n)

    def read(self) -> GridReadings:
        busy = self.busy()
        used, cells = par.steps_used(busy, self.step), par.busy_cells(busy, self.step)
        return GridReadings(tuple(map(tuple, busy.astype(int).tolist())),
                            tuple(par.start_steps(par.dependencies(self.mode, self.n)).tolist()),
                            used, cells, self.n * self.n, cells / used if used else 0.0,
                            par.sequential_steps(busy), par.done_positions(busy, self.step))


@dataclass(frozen=True)
class PathReadings:
    hops: tuple  # the edges (a, b) from token 0 to token k
    other: tuple  # the other layer's edges (recurrence's k, attention's one)
    path_length: int
    max_path_length: int  # token 0 → token n−1
    factor: float
    gain: float  # factor ** path_length
    chain_gain: float  # recurrence's, over k hops (what attention's one edge does not cross)
    with_slopes: float | None  # recurrent: what topic 2's tanh chain keeps over those hops (tanh' ≤ 1 takes more)


@dataclass(frozen=True)
class PathState(FigureState):
    """F19: the multiplications a signal crosses from token 0 to token k."""

    AXIS: ClassVar[str] = "k"
    FACTOR: ClassVar[float] = 0.9  # T1's default W_h, as a per-hop factor
    mode: str = param("recurrent", **MODE)
    n: int = param(12, "int", lo=2, hi=32, label="tokens", fmt="d")
    k: int = param(8, "int", lo=1, hi="last", label="k", fmt="d")

    @property
    def last(self) -> int:
        return self.n - 1

    def read(self) -> PathReadings:
        other = "attention" if self.mode == "recurrent" else "recurrent"
        return PathReadings(tuple(tuple(h) for h in par.path_hops(self.mode, self.k)),
                            tuple(tuple(h) for h in par.path_hops(other, self.k)),
                            par.path_length(self.mode, self.k), par.path_length(self.mode, self.n - 1),
                            self.FACTOR, par.path_gain(self.mode, self.k, self.FACTOR),
                            par.path_gain("recurrent", self.k, self.FACTOR),
                            float(gr.chain(self.k + 1, self.FACTOR)[1][self.k]) if self.mode == "recurrent" else None)


@dataclass(frozen=True)
class CostReadings:
    crossover_n: float
    n_values: tuple[int, ...]  # where the curves are sampled
    recurrent_cost: tuple[float, ...]
    attention_cost: tuple[float, ...]
    at_n: dict  # "recurrent", "attention": the costs at n
    cost_ratio: float  # the dearer over the cheaper at n
    attention_cheaper: bool | None  # None where they are equal
    ylim: tuple[float, float]  # room below the lowest line for the curves' names
    names: tuple  # (n, cost, name) where each curve is named: nothing drawn under it
    table_1: tuple  # the engine's LayerRows, frozen


@dataclass(frozen=True)
class CostState(Geometric):
    """F21: n·d² against n²·d on log–log axes; they cross at n = d."""

    AXIS: ClassVar[str] = "n"
    GEOMETRIC: ClassVar[dict[str, int]] = {"n": 2, "d": 2}
    N_RANGE: ClassVar[tuple[int, int]] = (8, 32768)
    d: int = param(512, "int", lo=16, hi=8192, notch=64, label="d", fmt="d")
    n: int = param(128, "int", lo=8, hi=32768, notch=2730.0, label="n", fmt="d")

    def curve_n(self) -> tuple[int, ...]:
        """Where the curves are sampled: powers of two, plus n, d and the crossover."""
        lo, hi = self.N_RANGE
        ns = {2 ** e for e in range(int(math.log2(lo)), int(math.log2(hi)) + 1)}
        return tuple(sorted(ns | {self.n, self.d, int(round(par.crossover(self.d)))}))

    def read(self) -> CostReadings:
        ns, d = self.curve_n(), self.d
        rec, att = par.recurrent_cost(ns, d), par.attention_cost(ns, d)
        r_n, a_n = float(par.recurrent_cost(self.n, d)), float(par.attention_cost(self.n, d))
        # attention is named on the left (n < d), recurrent on the right (n > d)
        lo, hi = min(rec.min(), att.min()), max(rec.max(), att.max())
        room = 10 ** (0.18 * np.log10(hi / lo))
        x_att, x_rec = ns[0] * 4, ns[-1] / 8
        names = ((x_att, float(par.attention_cost(x_att, d)) / room ** 0.6, N_("attention n²·d")),
                 (x_rec, float(par.recurrent_cost(x_rec, d)) / room ** 0.6, N_("recurrent n·d²")))
        return CostReadings(par.crossover(d), ns, tuple(rec.tolist()), tuple(att.tolist()),
                            {"recurrent": r_n, "attention": a_n}, max(a_n, r_n) / min(a_n, r_n),
                            None if a_n == r_n else a_n < r_n, (float(lo / room), float(hi)), names,
                            par.TABLE_1)  # (typed rows: a view's vars(r) was the
        # engine constant's own dict, and a change to it changed Table 1, a code review)


@dataclass(frozen=True)
class CapacityReadings:
    share: float  # numbers of the state per token
    first_share: float  # the first token's share as a fraction of the state


@dataclass(frozen=True)
class CapacityState(Geometric):
    """F14: a state of fixed width shared by n tokens."""

    AXIS: ClassVar[str] = "n"
    GEOMETRIC: ClassVar[dict[str, int]] = {"n": 2, "width": 2}
    width: int = param(512, "int", lo=16, hi=4096, notch=64, label="width", fmt="d")
    n: int = param(4, "int", lo=1, hi=4096, notch=341.25, label="tokens", fmt="d")

    def share(self) -> float:
        return par.capacity(self.width, self.n)

    def read(self) -> CapacityReadings:
        return CapacityReadings(self.share(), self.share() / self.width)


_CACHED: dict = {}  # cache path → (its stamp when read, what was read)


def cached_timing() -> tuple[dict | None, str | None]:
    """The cached measurement of this machine and a one-line problem (no torch), read again when the file
    changes: read once, a run the lab had just saved was "unmeasured" after r (a review). A corrupt file
    is moved aside as it is read; its note stays until a run writes a new one."""
    path = lab_timing.cache_path()
    held = _CACHED.get(path)
    if held is None or held[0] != records.stamp(path):
        found = lab_timing.load_cache(path)
        _CACHED[path] = held = (records.stamp(path), found)
    return held[1]


BUSY = 2.0  # the slowest repeat of a forward over its fastest, from which the machine was busy


@dataclass(frozen=True)
class TimingRow:
    """One line of the table: counted FLOPs at T, and what was measured there (None if nothing)."""

    T: int
    rnn_flops: int
    attention_flops: int
    flop_ratio: Fraction  # RNN FLOPs over attention FLOPs = d/T
    rnn_s: float | None = None
    attention_s: float | None = None
    rnn_gflop_s: float | None = None
    attention_gflop_s: float | None = None
    speedup: float | None = None  # how many times faster the RNN forward is
    rate_ratio: float | None = None  # attention's FLOP rate over the RNN's
    spread: float | None = None  # the slowest repeat over the fastest, RNN or attention (None: not recorded)
    fresh: bool = False  # measured by the latest run, which has not finished (going on, cancelled, failed)

    @property
    def busy(self) -> bool:
        """Repeats BUSY× apart or more, as the figure shows it (to a tenth): the machine was busy while
        this row was timed (1.96 read "2.0×" with no word of it, a review)."""
        return self.spread is not None and round(self.spread, 1) >= BUSY

    @property
    def time_ratio(self) -> float | None:
        """The RNN's time over attention's (its FLOPs over attention's are `flop_ratio`)."""
        return self.rnn_s / self.attention_s if self.rnn_s and self.attention_s else None


def timing_row(T: int, measured: dict | None, fresh: bool = False) -> TimingRow:
    fr, fa = par.rnn_flops(T, par.TIMING_D), par.attention_flops(T, par.TIMING_D)
    row = TimingRow(T, fr, fa, Fraction(fr, fa), fresh=bool(measured) and fresh)
    if not measured:
        return row
    rr, ra = lab_timing.rates(measured)
    return replace(row, rnn_s=measured["rnn_s"], attention_s=measured["attention_s"], rnn_gflop_s=rr / 1e9,
                   attention_gflop_s=ra / 1e9, speedup=lab_timing.speedup(measured),
                   rate_ratio=lab_timing.rate_ratio(measured), spread=lab_timing.spread(measured))


@dataclass(frozen=True)
class TimingReadings:
    d: int
    T_values: tuple[int, ...]
    rnn_flops: tuple[int, ...]
    attention_flops: tuple[int, ...]
    seed_laptop: dict
    measured: dict | None  # the last full run: this session's, else the cached one
    cache_problem: str | None
    heads: int
    table: tuple[TimingRow, ...]  # every T of the lab and the chosen one
    here: TimingRow  # at the chosen T
    seed_share: Fraction  # the seed laptop's FLOP ratio
    status: str  # measuring, note, uncached (measured, the save refused), problem, unmeasured or measured
    note: str  # the line for a note or a problem
    progress: tuple  # (done, total, label) while measuring
    machine: dict | None  # host, when, torch, threads of the measurement shown
    failure: str | None = None  # the lab's own message when it failed (the note says it in English)

    @property
    def widest(self) -> TimingRow | None:
        """The measured row whose repeats differed most (None when no row recorded it)."""
        rows = [row for row in self.table if row.spread is not None]
        return max(rows, key=lambda row: row.spread) if rows else None

    @property
    def ratios(self) -> dict:
        """RNN over attention along T, for the plot: FLOPs at every T of the lab, time where measured,
        and the seed laptop's time at its T (the plot's y axis holds them all: padded by 2× each way, 3 decades
        took 4 rows at 100x30, a decade each, and the laptop's 1/3.6 stood on the line at 1, a student's trial)."""
        flops = tuple(r / a for r, a in zip(self.rnn_flops, self.attention_flops))
        timed = tuple((row.T, row.time_ratio) for row in self.table if row.T in self.T_values and row.time_ratio)
        seed = (self.seed_laptop["T"], 1 / self.seed_laptop["rnn_speedup"])
        return {"T": tuple(float(T) for T in self.T_values), "flops": flops, "time": timed, "seed": seed}


@dataclass(frozen=True)
class TimingState(Geometric):
    """E6: which sequence length the readouts look at; the measurement is the lab's."""

    AXIS: ClassVar[str] = "T"
    GEOMETRIC: ClassVar[dict[str, int]] = {"T": 4}
    T: int = param(par.TIMING_T[-1], "int", lo=par.TIMING_T[0], hi=par.TIMING_T[-1], notch=1344, fmt="d",
                   values=par.TIMING_T)  # (the lab times these; T=100 read "not measured yet")
    run: LabRun = field(default=LabRun(), compare=False)

    def lab_note(self) -> str:
        """Why the measurement `t` starts would not be cached, checked as it starts (as memory/copy's lab), or ""."""
        from rnntui.files import why_unsavable

        return why_unsavable(lab_timing.cache_path())

    def read(self) -> TimingReadings:
        run, d = self.run, par.TIMING_D
        cached, problem = cached_timing()
        result = run.result if lab_timing.valid(run.result) else None
        full = result or cached
        partial = run.partial if isinstance(run.partial, dict) else None

        def measured(T: int) -> tuple[dict | None, bool]:
            """(row, fresh): while running, the rows measured so far (fresh), then the last full run;
            after a cancel, the last full run, then the rows the cancelled run measured (fresh)."""
            now, last = lab_timing.row_for(partial, T), lab_timing.row_for(full, T)
            if run.running:
                return (now, True) if now else (last, False)
            return (last, False) if last else (now, bool(now))

        status, note, failure = "measured", "", None
        if run.running:
            status, note = "measuring", run.message  # (its note: why it will not be cached)
        elif run.status == "cancelled":
            status, note = "note", (N_("cancelled: the table keeps the last full run") if full else
                                    N_("cancelled: rows measured so far, not cached; t runs again"))
        elif run.status == "failed":
            status, note, failure = "note", f"the timing lab failed: {run.message}", run.message
        elif result and result.get("cache_note"):
            status, note = "uncached", result["cache_note"]
        elif problem and not result:
            status, note = "problem", problem
        elif full is None:
            status = "unmeasured"
        machine = None if full is None else {"host": full["machine"]["host"], "when": full["when"],
                                             "torch": str(full["torch"]).split("+")[0], "threads": full["threads"]}
        seed = par.SEED_LAPTOP
        return TimingReadings(
            d, par.TIMING_T, tuple(par.rnn_flops(T, d) for T in par.TIMING_T),
            tuple(par.attention_flops(T, d) for T in par.TIMING_T), seed, full, problem, lab_timing.HEADS,
            tuple(timing_row(T, *measured(T)) for T in sorted(set(par.TIMING_T) | {self.T})),
            timing_row(self.T, *measured(self.T)), Fraction(seed["flop_ratio"]).limit_denominator(),
            status, note, (run.done, run.total or 1, run.label), machine, failure)
