"""T6 `parallel`: the wallclock grid, the path between two tokens, cost per layer, capacity and
the timing lab's counts."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from rnntui.engine import parallel as par
from rnntui.state import FigureState, param

MODE = dict(kind="choice", choices=par.MODES, key="m", label="mode")


def _power_step(value: float, notches: int, base: int) -> int:
    """The next power of `base` above (notches > 0) or below (notches < 0) value."""
    e = math.log(value, base) if value > 0 else 0.0
    e = math.floor(e + 1e-9) + 1 if notches > 0 else math.ceil(e - 1e-9) - 1
    return int(round(base ** (e + (notches - 1 if notches > 0 else notches + 1))))


@dataclass(frozen=True)
class Geometric(FigureState):
    """A state whose listed parameters move by factors (×2 or ×4) on +/- and ←/→, snapping to
    powers; any value in range can still be set with --set. Their `notch` is only read by
    play (space), which spaces its ticks by range/notch: it is set to range/(number of powers)."""

    GEOMETRIC: ClassVar[dict[str, int]] = {}

    def nudged(self, name: str, notches: int) -> FigureState:
        base = self.GEOMETRIC.get(name)
        if base is None or not notches:
            return super().nudged(name, notches)
        lo, hi = self.param(name).bounds(self)
        new = min(max(_power_step(getattr(self, name), notches, base), lo), hi)
        return replace(self, **{name: int(new)}).clamped()


@dataclass(frozen=True)
class GridState(FigureState):
    """F15+F18: rows are positions, columns wallclock steps; `step` wallclock steps have passed."""

    mode: str = param("recurrent", **MODE)
    n: int = param(8, "int", lo=2, hi=32, label="n", fmt="d")
    step: int = param(0, "int", lo=0, hi="n", label="wallclock", fmt="d")

    def busy(self):
        return par.schedule(self.mode, self.n)

    def data(self):
        busy = self.busy()
        return {**super().data(), "busy": busy.astype(int).tolist(),
                "start_step": par.start_steps(par.dependencies(self.mode, self.n)).tolist(),
                "sequential_steps_used": par.steps_used(busy, self.step),
                "busy_cells": par.busy_cells(busy, self.step), "cells": self.n * self.n,
                "depth": par.sequential_steps(busy), "outputs_ready": par.done_positions(busy, self.step)}


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

    def data(self):
        return {**super().data(), "hops": [list(h) for h in par.path_hops(self.mode, self.k)],
                "path_length": par.path_length(self.mode, self.k),
                "max_path_length": par.path_length(self.mode, self.n - 1),
                "factor": self.FACTOR, "gain": par.path_gain(self.mode, self.k, self.FACTOR)}


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

    def data(self):
        ns = self.curve_n()
        return {**super().data(), "crossover_n": par.crossover(self.d), "n_values": list(ns),
                "recurrent_cost": par.recurrent_cost(ns, self.d).tolist(),
                "attention_cost": par.attention_cost(ns, self.d).tolist(),
                "at_n": {"recurrent": float(par.recurrent_cost(self.n, self.d)),
                         "attention": float(par.attention_cost(self.n, self.d))},
                "table_1": [vars(r) for r in par.TABLE_1]}


@dataclass(frozen=True)
class CapacityState(Geometric):
    """F14: a state of fixed width shared by n tokens."""

    AXIS: ClassVar[str] = "n"
    GEOMETRIC: ClassVar[dict[str, int]] = {"n": 2, "width": 2}
    width: int = param(512, "int", lo=16, hi=4096, notch=64, label="width", fmt="d")
    n: int = param(4, "int", lo=1, hi=4096, notch=341.25, label="tokens", fmt="d")

    def share(self) -> float:
        return par.capacity(self.width, self.n)

    def data(self):
        return {**super().data(), "share": self.share()}


@dataclass(frozen=True)
class TimingState(Geometric):
    """E6: which sequence length the readouts look at; the measurement is the lab's."""

    AXIS: ClassVar[str] = "T"
    GEOMETRIC: ClassVar[dict[str, int]] = {"T": 4}
    T: int = param(par.TIMING_T[-1], "int", lo=par.TIMING_T[0], hi=par.TIMING_T[-1], notch=1344, fmt="d")

    def data(self):
        from rnntui.engine import lab_timing  # no torch: only the cache is read

        measured, problem = lab_timing.load_cache()
        d = par.TIMING_D
        return {**super().data(), "d": d, "T_values": list(par.TIMING_T),
                "rnn_flops": [par.rnn_flops(T, d) for T in par.TIMING_T],
                "attention_flops": [par.attention_flops(T, d) for T in par.TIMING_T],
                "seed_laptop": par.SEED_LAPTOP, "measured": measured, "cache_problem": problem}
