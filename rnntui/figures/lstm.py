"""T3 `lstm`: the cell on the token track, gates as proportions, the f^k path, the forget-gate
bias, the GRU's coupled gate and the parameter bill."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from rnntui.engine import lstm
from rnntui.engine.gradients import CHAIN_RULE, first_hop
from rnntui.engine.recurrence import TOKENS, W_H
from rnntui.state import FigureState, param

LAST_T = len(TOKENS) - 1
PATH_HOPS = 100
REPEATS = 8  # the gates figure repeats one update this many times (the length of the token track)


@dataclass(frozen=True)
class CellState(FigureState):
    """F10: the scalar LSTM on T1's tokens, one step at a time; b_f moves every forget gate."""

    b_f: float = param(lstm.B_F, lo=-3.0, hi=3.0, notch=0.25, label="b_f")
    step: int = param(0, "int", lo=0, hi=LAST_T, label="t", fmt="d")

    def states(self) -> dict[str, np.ndarray]:
        return lstm.lstm_states(TOKENS, lstm.weights_with(self.b_f))

    def data(self):
        s = self.states()
        upto = {k: v[: self.step + 1].tolist() for k, v in s.items()}
        return {**super().data(), "tokens": list(TOKENS), "weights": lstm.weights_with(self.b_f),
                **upto, "c_all": s["c"].tolist(), "h_all": s["h"].tolist()}


@dataclass(frozen=True)
class GatesState(FigureState):
    """F11: one update c_t = f·c_{t-1} + i·ĉ with c_{t-1} = ĉ = 1, so each part is a proportion."""

    AXIS: ClassVar[str] = "f"
    f: float = param(0.7, lo=0.0, hi=1.0, notch=0.05)
    i: float = param(0.5, lo=0.0, hi=1.0, notch=0.05)

    def split(self) -> dict[str, float]:
        return lstm.lstm_split(self.f, self.i)

    def repeated(self) -> np.ndarray:
        return lstm.repeated(self.f, self.i, REPEATS)

    def level(self) -> float | None:
        """Where repeated updates level off, i·ĉ/(1 − f); None for the accumulator f = 1."""
        return lstm.fixed_point(self.f, self.i)

    def data(self):
        return {**super().data(), "c_prev": 1.0, "candidate": 1.0, **self.split(),
                "c_repeated": self.repeated().tolist(), "level": self.level()}


@dataclass(frozen=True)
class PathState(FigureState):
    """F12: f^k, the only path from c_0 to c_k, against T2's RNN product on a linear axis."""

    AXIS: ClassVar[str] = "k"
    f: float = param(0.95, lo=0.0, hi=1.0, notch=0.01)
    k: int = param(PATH_HOPS, "int", lo=0, hi=PATH_HOPS, label="k", fmt="d")

    def curves(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hops = np.arange(PATH_HOPS + 1)
        return hops, lstm.survival(self.f, hops), lstm.rnn_product(PATH_HOPS, W_H)

    def rnn_below(self, level: float = 0.01) -> int | None:
        return first_hop(lstm.rnn_product(PATH_HOPS, W_H), below=level)

    def data(self):
        hops, lstm_path, rnn = self.curves()
        return {**super().data(), "rnn_w_h": W_H, "rnn_chain": CHAIN_RULE,
                "f_k": float(lstm_path[self.k]), "rnn_k": float(rnn[self.k]),
                "rnn_below_0.01_at": self.rnn_below(), "lstm": lstm_path.tolist(), "rnn": rnn.tolist()}


@dataclass(frozen=True)
class BiasState(FigureState):
    """F13: survival σ(b_f)^k after k steps (default 20) against the forget-gate bias, log axis."""

    AXIS: ClassVar[str] = "b_f"
    b_f: float = param(0.0, lo=-1.0, hi=5.0, notch=0.25, label="b_f")
    k: int = param(20, "int", lo=5, hi=100, notch=5, label="steps", fmt="d")

    def gate(self) -> float:
        return float(lstm.sigmoid(self.b_f))

    def left(self) -> float:
        return float(lstm.bias_survival(self.b_f, self.k))

    def landmarks(self) -> tuple[tuple[float, float], ...]:
        """(b_f, survival) at the default b_f = 0 and the recommended b_f = 1."""
        return tuple((b, float(lstm.bias_survival(b, self.k))) for b in (0.0, 1.0))

    def curve(self) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.param("b_f").bounds(self)
        xs = np.union1d(np.round(np.linspace(lo, hi, 121), 10), [self.b_f])
        return xs, lstm.bias_survival(xs, self.k)

    def data(self):
        xs, ys = self.curve()
        return {**super().data(), "f": self.gate(), "survival": self.left(),
                "b_f_grid": xs.tolist(), "survival_curve": ys.tolist()}


@dataclass(frozen=True)
class GruState(FigureState):
    """F16: the GRU keeps f and must write 1 − f; the LSTM keeps f and writes i, independently."""

    AXIS: ClassVar[str] = "f"
    f: float = param(0.9, lo=0.0, hi=1.0, notch=0.05)
    i: float = param(0.9, lo=0.0, hi=1.0, notch=0.05)

    def splits(self) -> tuple[dict[str, float], dict[str, float]]:
        return lstm.lstm_split(self.f, self.i), lstm.gru_split(self.f)

    def data(self):
        lstm_part, gru_part = self.splits()
        return {**super().data(), "lstm": lstm_part, "gru": gru_part}


@dataclass(frozen=True)
class ParamsState(FigureState):
    """F17: parameters of RNN, GRU and LSTM as whole blocks of 2d² + d."""

    AXIS: ClassVar[str] = "d"
    d: int = param(1024, "int", lo=64, hi=4096, notch=64, fmt="d")

    def counts(self) -> dict[str, int]:
        return {cell: lstm.param_count(cell, self.d) for cell in lstm.BLOCKS}

    def same_budget(self) -> dict[str, float]:
        """The width each cell could have for the LSTM's parameter count at this d."""
        budget = lstm.param_count("LSTM", self.d)
        return {cell: float(lstm.width_for(cell, budget)) for cell in lstm.BLOCKS}

    def data(self):
        return {**super().data(), "block": lstm.block(self.d), "blocks": dict(lstm.BLOCKS),
                "counts": self.counts(), "width_at_lstm_budget": self.same_budget()}
