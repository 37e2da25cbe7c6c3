"""T4 `seq2seq`: the alignment matrix of a trained model (E4), additive vs dot scoring (E5) and what
the decoder may read (F20)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from rnntui.engine import seq2seq as s2s
from rnntui.state import FigureState, param

LETTERS = "abcdefghijklmnopqrst"  # token id → the letter it is drawn as
ORDER = ("additive", "dot", "none")  # the `s` key cycles in this order
LAST_K = s2s.LENGTH - 1


def letters(tokens) -> str:
    return "".join(LETTERS[int(t)] for t in tokens)


@dataclass(frozen=True)
class Live:
    """Weights of a training run in progress (held by the screen, not a parameter)."""

    scoring: str
    arrays: dict
    step: int
    steps: int
    loss: float
    exact: float | None = None
    token: float | None = None
    seconds: float = 0.0
    running: bool = True
    stopped: bool = False  # ended by a key before its last step


@dataclass(frozen=True)
class MatrixState(FigureState):
    """E4: one held-out sample through a trained model; ←/→ move the output step k."""

    scoring: str = param("additive", "choice", choices=ORDER, key="s", label="scoring")
    sample: int = param(0, "int", lo=0, hi=s2s.N_HELD_OUT - 1, label="sample", fmt="d")
    step: int = param(0, "int", lo=0, hi=LAST_K, label="k", fmt="d")
    live: Live | None = field(default=None, compare=False, repr=False)

    def is_live(self) -> bool:
        """Draw the live run's weights (once it has sent some) rather than the shipped ones."""
        return self.live is not None and self.live.scoring == self.scoring and bool(self.live.arrays)

    def weights(self) -> dict:
        return self.live.arrays if self.is_live() else s2s.shipped(self.scoring)

    def decoded(self) -> s2s.Decoded:
        if self.is_live():
            return s2s.greedy(self.live.arrays, self.scoring, s2s.sample(self.sample)[None, :])
        return s2s.decode_sample(self.scoring, self.sample)

    def x(self) -> np.ndarray:
        return s2s.sample(self.sample)

    def target(self) -> np.ndarray:
        return s2s.reverse_target(self.x())

    def accuracies(self) -> dict[str, tuple[float, float]]:
        """Held-out (exact, token) accuracy of each shipped model, as recorded when it was trained."""
        return {sc: (s2s.record(sc)["exact"], s2s.record(sc)["token"]) for sc in ORDER}

    def data(self):
        d = self.decoded()
        out, alpha = d.tokens[0], d.alpha[0]
        return {
            **super().data(),
            "weights": "live" if self.is_live() else "shipped",
            "x": self.x().tolist(), "target": self.target().tolist(), "output": out.tolist(),
            "wrong": [int(k) for k in np.flatnonzero(out != self.target())],
            "alignment": alpha.tolist() if self.scoring != "none" else None,
            "row": alpha[self.step].tolist() if self.scoring != "none" else None,
            "looks_at": int(np.argmax(alpha[self.step])) if self.scoring != "none" else None,
            "held_out": {sc: {"exact": e, "token": t} for sc, (e, t) in self.accuracies().items()},
            "seed": {"none": 0.0, "additive": s2s.TARGET},
        }


def _curves() -> dict[str, np.ndarray]:
    """Each shipped run's evaluations: columns step, mean loss, exact, token, sequences scored."""
    return {sc: np.asarray(s2s.record(sc)["curve"], dtype=float) for sc in ORDER}


def _attention_end() -> int:
    """The last evaluation of the longer attention run: where the E5 axis ends."""
    try:
        return int(max(s2s.record(sc)["steps"] for sc in ("additive", "dot")))
    except (OSError, KeyError, ValueError):  # a broken install still opens; the figure then says so
        return 20 * s2s.EVERY


def _additive_end() -> int:
    try:
        return int(s2s.record("additive")["steps"])
    except (OSError, KeyError, ValueError):
        return s2s.EVERY


def first_reaching(curve: np.ndarray, level: float) -> int | None:
    hit = np.flatnonzero(curve[:, 2] >= level)
    return int(curve[hit[0], 0]) if hit.size else None


@dataclass(frozen=True)
class ScoringState(FigureState):
    """E5: held-out accuracy (or training loss) of the additive, dot and no-attention runs."""

    metric: str = param("accuracy", "choice", choices=("accuracy", "loss"), key="c", label="curve")
    step: int = param(_additive_end(), "int", lo=s2s.EVERY, hi="last_step", notch=s2s.EVERY, label="step",
                      fmt="d")

    @property
    def last_step(self) -> int:
        """The axis runs a little past the attention runs (the no-attention run goes on much longer)."""
        end = _attention_end()
        return end + 4 * s2s.EVERY

    def curves(self) -> dict[str, np.ndarray]:
        """Each run's evaluations up to the end of the axis."""
        return {sc: c[c[:, 0] <= self.last_step] for sc, c in _curves().items()}

    def firsts(self) -> dict[str, int | None]:
        """The first evaluation at which each whole run reached the seed's 76%."""
        return {sc: first_reaching(c, s2s.TARGET) for sc, c in _curves().items()}

    def run_steps(self) -> dict[str, int]:
        return {sc: int(c[-1, 0]) for sc, c in _curves().items()}

    def at(self) -> dict[str, tuple[float, float, float] | None]:
        """(loss, exact, token) of each run's last evaluation at or before the cursor (None before the
        first one, or once that run has stopped)."""
        out = {}
        for sc, c in self.curves().items():
            i = np.flatnonzero(c[:, 0] <= self.step)
            stopped = self.step > _curves()[sc][-1, 0]
            out[sc] = None if stopped or not i.size else tuple(float(v) for v in c[i[-1], 1:4])
        return out

    def data(self):
        return {**super().data(),
                "curves": {sc: c.tolist() for sc, c in self.curves().items()},
                "columns": ["step", "loss", "exact", "token"],
                "at": self.at(),
                "first_at_target": self.firsts(), "run_steps": self.run_steps()}


@dataclass(frozen=True)
class VisibilityState(FigureState):
    """F20: numbers the decoder may read: one d-vector (bottleneck) or n of them (attention)."""

    AXIS: ClassVar[str] = "n"
    n: int = param(12, "int", lo=1, hi=48, label="n tokens", fmt="d")
    d: int = param(512, "int", lo=64, hi=1024, notch=64, label="d", fmt="d")
    mode: str = param("bottleneck", "choice", choices=("bottleneck", "attention"), key="m", label="reads")

    def numbers(self) -> tuple[int, int]:
        return s2s.visible_numbers(self.n, self.d)

    def data(self):
        bottleneck, direct = self.numbers()
        return {**super().data(), "bottleneck": bottleneck, "attention": direct,
                "reads": bottleneck if self.mode == "bottleneck" else direct,
                "lab": {"n": s2s.LENGTH, "d": s2s.HIDDEN,
                        "numbers": s2s.visible_numbers(s2s.LENGTH, s2s.HIDDEN),
                        "bits": s2s.sequence_bits(s2s.LENGTH, s2s.VOCAB)}}
