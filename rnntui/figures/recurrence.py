"""T1 `recurrence`: states of the token track, the tanh curve and the readout head."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rnntui import lazy
from rnntui.engine import recurrence as rnn
from rnntui.engine.recurrence import LAST_T, N_TOKENS, TOKENS  # noqa: F401 (the screen reads them here)
from rnntui.i18n import N_
from rnntui.state import FigureState, param

np = lazy.numpy(globals())  # the track (the first frame) needs none


def _w_h():  # one W_h for the whole topic: every figure names it the same and starts from T1's 0.90
    return param(rnn.W_H, lo=-2.0, hi=2.0, notch=0.1, label="W_h")


def _w_x():  # W_x and b too: the readout reads the states the track shows
    return param(rnn.W_X, lo=-2.0, hi=2.0, notch=0.1, label="W_x")


def _b():
    return param(rnn.B, lo=-1.0, hi=1.0, notch=0.1)


@dataclass(frozen=True)
class TrackReadings:
    tokens: tuple[float, ...]
    z: tuple[float, ...]  # pre-activations computed so far (0 … t)
    h: tuple[float, ...]  # states computed so far
    h_all: tuple[float, ...]  # every state (the .json holds them; the screen shows only 0 … t)
    h_prev: float  # h_{t−1} (0 at t = 0)


@dataclass(frozen=True)
class TrackState(FigureState):
    """F1+F3: states appear one token at a time; W_h moves all of them."""

    w_h: float = _w_h()
    w_x: float = _w_x()
    b: float = _b()
    step: int = param(0, "int", lo=0, hi=LAST_T, label="t", fmt="d")

    def read(self) -> TrackReadings:
        z, h = rnn.states(TOKENS, self.w_h, self.w_x, self.b)
        t = self.step
        return TrackReadings(TOKENS, z[: t + 1], h[: t + 1], h, h[t - 1] if t else 0.0)


@dataclass(frozen=True)
class TanhReadings:
    tanh: float  # the point on the curve
    slope: float  # tanh'(z)
    curve_z: tuple[float, ...]
    curve: tuple[float, ...]
    tangent_z: tuple[float, ...]  # the tangent at z, where it is within ±1.2 (the plot's y range)
    tangent: tuple[float, ...]


@dataclass(frozen=True)
class TanhState(FigureState):
    """F2: a point on tanh, its tangent and the slope tanh'(z)."""

    AXIS: ClassVar[str] = "z"
    z: float = param(0.0, lo=-4.0, hi=4.0, notch=0.05)  # → moves 0.5; shift+→ the notch (0.25 read as no finer, a trial)

    def read(self) -> TanhReadings:
        zs = np.linspace(-4.0, 4.0, 161)
        # across the plot, where it is inside its ±1.2 (z ± 1.2 drew four dots beside the point at z = 2, where
        # the slope is 0.071: a lecturer looked for a line through it)
        near = zs[np.abs(rnn.tangent(self.z, zs)) <= 1.2 + 1e-9]
        return TanhReadings(float(np.tanh(self.z)), float(rnn.tanh_slope(self.z)), tuple(zs), tuple(np.tanh(zs)),
                            tuple(near), tuple(rnn.tangent(self.z, near)))


@dataclass(frozen=True)
class ReadoutReadings:
    tokens: tuple[float, ...]
    h: tuple[float, ...]  # states computed so far
    outputs: dict  # position → p, for the outputs that exist at step t
    w_y: float  # the head's fixed weight: ŷ_t = σ(w_y·h_t)


@dataclass(frozen=True)
class ReadoutState(FigureState):
    """F4: one output from the last state (classification) or one per position (labelling)."""

    head: str = param("cls", "choice", choices=("cls", "seq"), key="h", label="head", means=N_(
        "cls: one output read from the last state; seq: an output at every step"))
    w_h: float = _w_h()
    w_x: float = _w_x()
    b: float = _b()
    step: int = param(LAST_T, "int", lo=0, hi=LAST_T, label="t", fmt="d")

    def read(self) -> ReadoutReadings:
        _, h = rnn.rnn_states(TOKENS, self.w_h, self.w_x, self.b)
        p = rnn.readout(h, rnn.W_Y)
        if self.head == "seq":
            outputs = {t: float(p[t]) for t in range(self.step + 1)}
        else:
            outputs = {LAST_T: float(p[LAST_T])} if self.step == LAST_T else {}
        return ReadoutReadings(TOKENS, tuple(h[: self.step + 1]), outputs, rnn.W_Y)

    def outputs(self) -> dict:
        return self.readings().outputs
