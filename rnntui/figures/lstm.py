"""T3 `lstm`: the cell on the token track, gates as proportions, the f^k path, the forget-gate
bias, the GRU's coupled gate and the parameter bill."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from rnntui.engine import lstm
from rnntui.engine.gradients import CHAIN_RULE, first_hop
from rnntui.engine.recurrence import LAST_T, N_TOKENS, TOKENS, W_H
from rnntui.figures import floats
from rnntui.figures.gradients import PRODUCT_N, SEED_RNN_BELOW_001, SeedNumber
from rnntui.state import FigureState, param

__all__ = ["LAST_T", "N_TOKENS", "PATH_HOPS", "REPEATS", "CellState", "GatesState", "ForgetPathState", "BiasState",
           "GruState", "ParamsState"]

PATH_HOPS = 100
REPEATS = 8  # the gates figure repeats one update this many times (the length of the token track)


@dataclass(frozen=True)
class CellNow:
    """The gates and states at the current step."""

    f: float
    i: float
    g: float  # the candidate ĉ
    o: float
    c: float
    h: float
    c_prev: float | None  # c_{t−1}; None at t = 0 (c_{−1} = 0)
    pre: dict  # gate → its pre-activation W_x·x_t + W_h·h_{t−1} + b


@dataclass(frozen=True)
class CellReadings:
    tokens: tuple[float, ...]
    weights: dict  # gate → (w_x, w_h, b)
    f: tuple[float, ...]  # every gate and state computed so far (0 … t)
    i: tuple[float, ...]
    g: tuple[float, ...]
    o: tuple[float, ...]
    c: tuple[float, ...]
    h: tuple[float, ...]
    c_all: tuple[float, ...]  # every state (the screen shows only 0 … t)
    h_all: tuple[float, ...]
    now: CellNow
    steps: tuple[float, ...]  # 0 … t, the plot's x
    c_range: tuple[float, float]  # the plot's y limits: every c_t, 0 and 1


def _b_f():  # one b_f for the topic: the cell's range was −3…3, the bias figure's −1…5 (5.00 read 3.00, a researcher)
    return param(lstm.B_F, lo=-2.0, hi=5.0, notch=0.25, label="b_f")


@dataclass(frozen=True)
class CellState(FigureState):
    """F10: the scalar LSTM on T1's tokens, one step at a time; b_f moves every forget gate."""

    b_f: float = _b_f()
    step: int = param(0, "int", lo=0, hi=LAST_T, label="t", fmt="d")

    def states(self) -> dict[str, np.ndarray]:
        return lstm.lstm_states(TOKENS, lstm.weights_with(self.b_f))

    def read(self) -> CellReadings:
        v, t = self.states(), self.step
        upto = {k: floats(v[k][: t + 1]) for k in ("f", "i", "g", "o", "c", "h")}
        now = CellNow(*(float(v[k][t]) for k in ("f", "i", "g", "o", "c", "h")),
                      c_prev=float(v["c"][t - 1]) if t else None, pre={k: float(v[f"a_{k}"][t]) for k in lstm.GATES})
        return CellReadings(
            tokens=TOKENS, weights=lstm.weights_with(self.b_f), **upto, c_all=floats(v["c"]), h_all=floats(v["h"]),
            now=now, steps=tuple(float(k) for k in range(t + 1)),
            c_range=(min(0.0, float(v["c"].min())), max(1.0, float(v["c"].max()))))


@dataclass(frozen=True)
class GatesReadings:
    c_prev: float  # c_{t−1} = 1
    candidate: float  # ĉ = 1
    kept: float  # f·c_{t−1}
    written: float  # i·ĉ
    discarded: float  # (1 − f)·c_{t−1}
    c: float  # c_t = kept + written
    not_written: float  # 1 − i
    c_repeated: tuple[float, ...]  # c_0 … c_8 when the same update repeats
    steps: tuple[float, ...]  # 0 … 8, the plot's x
    level: float | None  # where repeated updates level off, i·ĉ/(1 − f); None for f = 1
    y_top: float  # the plot's upper limit
    level_shown: bool  # the level is drawn: it exists, f > 0, it is within 3× the curve's top and c is not on it
    at_level: bool  # c_0 = 1 is the level (i = 1 − f): c stays there, a flat line (its level line hid it)


@dataclass(frozen=True)
class GatesState(FigureState):
    """F11: one update c_t = f·c_{t-1} + i·ĉ with c_{t-1} = ĉ = 1, so each part is a proportion."""

    AXIS: ClassVar[str] = "f"
    f: float = param(0.7, lo=0.0, hi=1.0, notch=0.05)
    i: float = param(0.5, lo=0.0, hi=1.0, notch=0.05)

    def read(self) -> GatesReadings:
        c = lstm.repeated(self.f, self.i, REPEATS)
        level = lstm.fixed_point(self.f, self.i)
        # the level the text names is drawn, unless so far up that c would be a flat line (f = 0.99: 100)
        at_level = level is not None and 0 < self.f and math.isclose(level, 1.0, rel_tol=1e-9)
        shown = level is not None and self.f > 0 and level <= 3 * float(c.max()) and not at_level  # (f = 0: c_1 is the level)
        top = max(2.0, float(c.max()) * 1.1, level * 1.1 if shown else 0.0)
        return GatesReadings(
            c_prev=1.0, candidate=1.0, **lstm.lstm_split(self.f, self.i), not_written=1.0 - self.i,
            c_repeated=floats(c), steps=tuple(float(k) for k in range(REPEATS + 1)), level=level, y_top=top,
            level_shown=shown, at_level=at_level)

    def split(self) -> dict[str, float]:
        r = self.readings()
        return {"kept": r.kept, "written": r.written, "discarded": r.discarded, "c": r.c}

    def repeated(self) -> tuple[float, ...]:
        return self.readings().c_repeated

    def level(self) -> float | None:
        return self.readings().level


@dataclass(frozen=True)
class ForgetPathReadings:
    rnn_w_h: float  # T2's W_h for the RNN curve
    rnn_chain: str
    rnn_tokens: int  # gradients/product's chain: the same product hop for hop (it ran on 101 tokens and crossed
    # 0.01 a hop before F8 did, a researcher's trial)
    f_k: float  # f^k and the RNN product at the cursor's k
    rnn_k: float
    rnn_below: int | None  # the first hop where the RNN product is below 0.01 (the .json's rnn_below_0.01_at)
    seed_rnn_below: SeedNumber  # the seed's "step 9" for the same crossing (T2's chain, continued its own way)
    f_last: float  # f^100
    hops: tuple[float, ...]  # 0 … 100
    lstm: tuple[float, ...]  # f^k at every k
    rnn: tuple[float, ...]  # the RNN's product at every k


@dataclass(frozen=True)
class ForgetPathState(FigureState):
    """F12: f^k, the only path from c_0 to c_k, against T2's RNN product on a linear axis."""

    AXIS: ClassVar[str] = "k"
    f: float = param(0.95, lo=0.0, hi=1.0, notch=0.01)
    k: int = param(PATH_HOPS, "int", lo=0, hi=PATH_HOPS, label="k", fmt="d")

    def rnn_below(self, level: float = 0.01) -> int | None:
        return first_hop(lstm.rnn_product(PATH_HOPS, W_H, PRODUCT_N), below=level)

    def read(self) -> ForgetPathReadings:
        hops = np.arange(PATH_HOPS + 1)
        path, rnn = lstm.survival(self.f, hops), lstm.rnn_product(PATH_HOPS, W_H, PRODUCT_N)
        return ForgetPathReadings(
            rnn_w_h=W_H, rnn_chain=CHAIN_RULE, rnn_tokens=PRODUCT_N, f_k=float(path[self.k]), rnn_k=float(rnn[self.k]),
            rnn_below=self.rnn_below(0.01), seed_rnn_below=SEED_RNN_BELOW_001,
            f_last=float(path[-1]), hops=floats(hops), lstm=floats(path),
            rnn=floats(rnn))

    def curves(self) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
        r = self.readings()
        return r.hops, r.lstm, r.rnn

    def data(self):  # the .json has always called rnn_below "rnn_below_0.01_at"
        return {("rnn_below_0.01_at" if k == "rnn_below" else k): v for k, v in super().data().items()}


@dataclass(frozen=True)
class BiasReadings:
    f: float  # σ(b_f)
    survival: float  # σ(b_f)^k
    b_f_grid: tuple[float, ...]  # the curve over the b_f range (and the current b_f)
    survival_curve: tuple[float, ...]
    landmarks_b_f: tuple[float, ...]  # b_f = 0 (a zero initialisation) and the recommended b_f = 1, and their survival
    landmarks_survival: tuple[float, ...]
    landmarks_f: tuple[float, ...]  # σ at each


@dataclass(frozen=True)
class BiasState(FigureState):
    """F13: survival σ(b_f)^k after k steps (default 20) against the forget-gate bias, log axis."""

    AXIS: ClassVar[str] = "b_f"
    b_f: float = _b_f()
    k: int = param(20, "int", lo=5, hi=100, notch=5, label="steps", fmt="d")

    def read(self) -> BiasReadings:
        lo, hi = self.param("b_f").bounds(self)
        xs = np.round(np.linspace(lo, hi, round((hi - lo) / 0.05) + 1), 10)  # every notch of 0.25 on it
        if not np.any(xs == self.b_f):  # the current b_f on the curve (np.union1d would import numpy.ma: 27 ms)
            xs = np.insert(xs, np.searchsorted(xs, self.b_f), self.b_f)
        marks = (0.0, 1.0)
        return BiasReadings(
            f=float(lstm.sigmoid(self.b_f)), survival=float(lstm.bias_survival(self.b_f, self.k)),
            b_f_grid=floats(xs), survival_curve=floats(lstm.bias_survival(xs, self.k)),
            landmarks_b_f=marks, landmarks_survival=tuple(float(lstm.bias_survival(b, self.k)) for b in marks),
            landmarks_f=tuple(float(lstm.sigmoid(b)) for b in marks))

    def gate(self) -> float:
        return self.readings().f


@dataclass(frozen=True)
class GruReadings:
    lstm: dict  # the LSTM's update as lengths: kept, written, discarded, c
    gru: dict  # the GRU's: kept, written (1 − f), discarded, h
    lstm_sum: float  # keep + write: f + i
    gru_sum: float  # f + (1 − f)
    gru_write: float  # 1 − f, the GRU's point
    not_written: dict  # what of ĉ each does not write: "lstm" 1 − i, "gru" 1 − (1 − f) = f
    line_keep: tuple[float, ...]  # the GRU's line write = 1 − keep
    line_write: tuple[float, ...]


@dataclass(frozen=True)
class GruState(FigureState):
    """F16: the GRU keeps f and must write 1 − f; the LSTM keeps f and writes i, independently."""

    AXIS: ClassVar[str] = "f"
    f: float = param(0.9, lo=0.0, hi=1.0, notch=0.05)
    i: float = param(0.9, lo=0.0, hi=1.0, notch=0.05)

    def read(self) -> GruReadings:
        line = tuple(float(v) for v in np.linspace(0.0, 1.0, 41))
        return GruReadings(
            lstm=lstm.lstm_split(self.f, self.i), gru=lstm.gru_split(self.f), lstm_sum=self.f + self.i,
            gru_sum=self.f + (1.0 - self.f), gru_write=1.0 - self.f, line_keep=line,
            not_written={"lstm": 1.0 - self.i, "gru": self.f},
            line_write=tuple(1.0 - v for v in line))

    def splits(self) -> tuple[dict[str, float], dict[str, float]]:
        r = self.readings()
        return r.lstm, r.gru


@dataclass(frozen=True)
class ParamsReadings:
    block: int  # 2d² + d
    blocks: dict  # cell → blocks
    counts: dict  # cell → parameters
    width_at_lstm_budget: dict  # cell → the width it could have for the LSTM's parameter count
    bar_scale: int  # the longest bar: the LSTM's blocks
    curve_d: tuple[int, ...]  # widths d for the plot, a quarter octave apart over d's range and an octave on
    curves: dict  # cell → its parameters at each of curve_d


CURVE_D = tuple(round(64 * 2 ** (k / 4)) for k in range(29))  # 64 … 8192: an RNN as big as the LSTM at d 4096


@dataclass(frozen=True)
class ParamsState(FigureState):
    """F17: parameters of RNN, GRU and LSTM as whole blocks of 2d² + d."""

    AXIS: ClassVar[str] = "d"
    d: int = param(1024, "int", lo=64, hi=4096, notch=64, fmt="d", log=True)

    def read(self) -> ParamsReadings:
        block, budget = lstm.block(self.d), lstm.param_count("LSTM", self.d)
        return ParamsReadings(
            block=block, blocks=dict(lstm.BLOCKS), counts={c: lstm.param_count(c, self.d) for c in lstm.BLOCKS},
            width_at_lstm_budget={c: float(lstm.width_for(c, budget)) for c in lstm.BLOCKS},
            bar_scale=block * max(lstm.BLOCKS.values()), curve_d=CURVE_D,
            curves={c: tuple(lstm.param_count(c, d) for d in CURVE_D) for c in lstm.BLOCKS})

    def counts(self) -> dict[str, int]:
        return self.readings().counts

    def same_budget(self) -> dict[str, float]:
        return self.readings().width_at_lstm_budget
