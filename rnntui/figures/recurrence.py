"""T1 `recurrence`: states of the token track, the tanh curve and the readout head."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from rnntui.engine import recurrence as rnn
from rnntui.state import FigureState, param

LAST_T = len(rnn.TOKENS) - 1


@dataclass(frozen=True)
class TrackState(FigureState):
    """F1+F3: states appear one token at a time; W_h moves all of them."""

    w_h: float = param(rnn.W_H, lo=-2.0, hi=2.0, notch=0.1, label="W_h")
    w_x: float = param(rnn.W_X, lo=-2.0, hi=2.0, notch=0.1, label="W_x")
    b: float = param(rnn.B, lo=-1.0, hi=1.0, notch=0.1)
    step: int = param(0, "int", lo=0, hi=LAST_T, label="t", fmt="d")

    def states(self):
        return rnn.rnn_states(rnn.TOKENS, self.w_h, self.w_x, self.b)

    def data(self):
        z, h = self.states()
        return {
            **super().data(),
            "tokens": list(rnn.TOKENS),
            "z": z[: self.step + 1].tolist(),
            "h": h[: self.step + 1].tolist(),
            "h_all": h.tolist(),
        }


@dataclass(frozen=True)
class TanhState(FigureState):
    """F2: a point on tanh, its tangent and the slope tanh'(z)."""

    AXIS: ClassVar[str] = "z"
    z: float = param(0.0, lo=-4.0, hi=4.0, notch=0.25)

    def curve(self, points: int = 161):
        zs = np.linspace(-4.0, 4.0, points)
        return zs, np.tanh(zs)

    def tangent(self, half_width: float = 1.2):
        """The tangent at z, drawn over z ± half_width."""
        zs = self.curve()[0]
        near = zs[abs(zs - self.z) <= half_width]
        return near, rnn.tangent(self.z, near)

    def data(self):
        return {
            **super().data(),
            "tanh": float(np.tanh(self.z)),  # the point on the curve
            "slope": float(rnn.tanh_slope(self.z)),
        }


@dataclass(frozen=True)
class ReadoutState(FigureState):
    """F4: one output from the last state (classification) or one per position (labelling)."""

    head: str = param("cls", "choice", choices=("cls", "seq"), key="h", label="head")
    w_h: float = param(rnn.W_H, lo=-2.0, hi=2.0, notch=0.1, label="W_h")
    step: int = param(LAST_T, "int", lo=0, hi=LAST_T, label="t", fmt="d")

    def outputs(self):
        """Outputs that exist at step t: {position: p}."""
        _, h = rnn.rnn_states(rnn.TOKENS, self.w_h)
        p = rnn.readout(h)
        if self.head == "seq":
            return {t: float(p[t]) for t in range(self.step + 1)}
        return {LAST_T: float(p[LAST_T])} if self.step == LAST_T else {}

    def data(self):
        _, h = rnn.rnn_states(rnn.TOKENS, self.w_h)
        return {**super().data(), "h": h[: self.step + 1].tolist(),
                "outputs": {str(k): v for k, v in self.outputs().items()}}
