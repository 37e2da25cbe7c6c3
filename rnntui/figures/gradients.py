"""T2 `gradients`: one hop, the walk back through 8 tokens, factors, their product, clipping, E1."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from rnntui.engine import gradients as gr
from rnntui.engine import recurrence as rnn
from rnntui.state import FigureState, param

N = len(rnn.TOKENS)  # the T1 track: 8 tokens, 7 hops back from h_7 to h_0
FACTORS_N = 40  # F7's chain
PRODUCT_N = 200  # F8's chain
ACT = dict(choices=gr.ACTIVATIONS, key="a", label="act")


def _w_h(default=rnn.W_H):
    return param(default, lo=0.0, hi=2.0, notch=0.1, label="W_h")


def _crossings(products) -> dict:
    return {"below_f32_min_normal": gr.first_hop(products, below=gr.F32_TINY),
            "above_f32_max": gr.first_hop(products, above=gr.F32_MAX)}


@dataclass(frozen=True)
class HopState(FigureState):
    """F5: one hop back, act'(z_t)·W_h, drawn over the slope curve act'(z)."""

    AXIS: ClassVar[str] = "hop"
    hop: int = param(1, "int", lo=1, hi=N - 1, fmt="d")
    w_h: float = _w_h()
    act: str = param("tanh", "choice", **ACT)

    @property
    def t(self) -> int:
        """The state this hop leaves: hop k goes from h_t back to h_{t−1}, with t = 8 − k."""
        return N - self.hop

    def z(self) -> np.ndarray:
        return gr.forward(rnn.TOKENS, self.w_h, act=self.act)[0]

    def slope(self) -> float:
        return float(gr.act_slope(self.z()[self.t], self.act))

    def slope_curve(self, points: int = 241):
        """act'(z) over a z range that holds every pre-activation of the track."""
        z_all = self.z()
        lo, hi = min(-3.0, float(z_all.min()) - 0.5), max(3.0, float(z_all.max()) + 0.5)
        zs = np.linspace(lo, hi, points)
        return zs, gr.act_slope(zs, self.act)

    def factor(self) -> float:
        return float(gr.hop_factors(rnn.TOKENS, self.w_h, act=self.act)[self.hop - 1])

    def data(self):
        return {**super().data(), "tokens": list(rnn.TOKENS), "t": self.t, "z_t": float(self.z()[self.t]),
                "slope": self.slope(), "factor": self.factor(),
                "factors": gr.hop_factors(rnn.TOKENS, self.w_h, act=self.act).tolist()}


@dataclass(frozen=True)
class BackwardState(FigureState):
    """F6: the gradient of h_7 walked back to h_0, one hop at a time."""

    AXIS: ClassVar[str] = "hop"
    hop: int = param(0, "int", lo=0, hi=N - 1, fmt="d")
    w_h: float = _w_h()
    act: str = param("tanh", "choice", **ACT)

    def factors(self) -> np.ndarray:
        return gr.hop_factors(rnn.TOKENS, self.w_h, act=self.act)

    def products(self) -> np.ndarray:
        return gr.backward_products(self.factors())

    def data(self):
        p = self.products()
        return {**super().data(), "tokens": list(rnn.TOKENS), "factors": self.factors().tolist(),
                "products": p.tolist(), "gradient": float(p[self.hop]), "reaches": f"h_{N - 1 - self.hop}"}


@dataclass(frozen=True)
class FactorsState(FigureState):
    """F7: every hop's factor along a 40-token chain, against the ×1 line."""

    AXIS: ClassVar[str] = "hop"
    hop: int = param(1, "int", lo=1, hi=FACTORS_N - 1, fmt="d")
    w_h: float = _w_h()
    act: str = param("tanh", "choice", **ACT)

    def factors(self) -> np.ndarray:
        return gr.chain(FACTORS_N, self.w_h, self.act)[0]

    def largest(self) -> tuple[int, float]:
        f = self.factors()
        k = int(np.argmax(f))
        return k + 1, float(f[k])

    def data(self):
        hop, top = self.largest()
        return {**super().data(), "chain_rule": gr.CHAIN_RULE, "tokens": gr.chain_tokens(FACTORS_N).tolist(),
                "factors": self.factors().tolist(), "largest": {"hop": hop, "factor": top}}


@dataclass(frozen=True)
class ProductState(FigureState):
    """F8: the product of the factors over a 200-token chain, against float32's limits."""

    AXIS: ClassVar[str] = "hop"
    hop: int = param(0, "int", lo=0, hi=PRODUCT_N - 1, fmt="d")
    w_h: float = _w_h()
    act: str = param("tanh", "choice", **ACT)

    def series(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """factors, float64 products, and the same products held in float32."""
        factors, products = gr.chain(PRODUCT_N, self.w_h, self.act)
        return factors, products, gr.backward_products_f32(factors)

    def crossings(self) -> dict:
        return _crossings(self.series()[1])

    def data(self):
        factors, products, p32 = self.series()
        return {**super().data(), "chain_rule": gr.CHAIN_RULE, "tokens": gr.chain_tokens(PRODUCT_N).tolist(),
                "float32_min_normal": gr.F32_TINY, "float32_max": gr.F32_MAX,
                "factors": factors.tolist(), "product": products.tolist(), "product_float32": p32.tolist(),
                "crossings": self.crossings(), "end": float(products[-1])}


@dataclass(frozen=True)
class ClipState(FigureState):
    """F9: clipping by norm rescales an exploding gradient and leaves a vanishing one alone."""

    AXIS: ClassVar[str] = "threshold"
    threshold: float = param(5.0, lo=0.5, hi=100.0, notch=0.5)

    @staticmethod
    def vanishing() -> float:
        """The gradient F7's defaults carry back to h_0 over 39 hops."""
        return float(gr.chain(FACTORS_N, rnn.W_H)[1][-1])

    def curve(self, points: int = 200):
        """‖g‖ before and after clipping, log-spaced over a range that holds both example gradients."""
        big, small = gr.norm(np.array(gr.G_EXPLODING)), self.vanishing()
        lo, hi = min(small, self.threshold) / 10, max(big, self.threshold) * 10
        before = np.logspace(np.log10(lo), np.log10(hi), points)
        return before, before * np.array([gr.clip_scale(x, self.threshold) for x in before])

    def data(self):
        g = np.array(gr.G_EXPLODING)
        clipped = gr.clip(g, self.threshold)
        small = self.vanishing()
        return {**super().data(), "g": g.tolist(), "norm": gr.norm(g),
                "scale": gr.clip_scale(gr.norm(g), self.threshold), "clipped": clipped.tolist(),
                "clipped_norm": gr.norm(clipped),
                "vanishing": {"norm": small, "scale": gr.clip_scale(small, self.threshold),
                              "clipped_norm": small * gr.clip_scale(small, self.threshold)}}


@dataclass(frozen=True)
class BpttState(FigureState):
    """E1: ‖∂L/∂h_t‖ against distance for a 64-wide RNN at three weight scales c."""

    AXIS: ClassVar[str] = "distance"
    TABLE: ClassVar[tuple[int, ...]] = (20, 40, 60)
    distance: int = param(0, "int", lo=0, hi=gr.E1_T, fmt="d")
    c: str = param("1.5", "choice", choices=tuple(f"{c:.1f}" for c in gr.E1_CS), label="c")
    act: str = param("tanh", "choice", **ACT)
    seed: int = param(0, "int", lo=0, hi=999, fmt="d")
    scale: float = param(1.0, lo=0.1, hi=3.0, notch=0.1, label="input σ")

    def curves(self) -> dict[str, np.ndarray]:
        return {f"{c:.1f}": gr.bptt_norms(c, self.seed, self.scale, self.act) for c in gr.E1_CS}

    def data(self):
        curves = self.curves()
        return {**super().data(), "d": gr.E1_D, "T": gr.E1_T, "W": "N(0, (c/sqrt(d))^2)",
                "inputs": "x_t ~ N(0, input_scale^2)", "loss": "v . h_T",
                "relative_norms": {c: v.tolist() for c, v in curves.items()},
                "table": {c: {str(k): float(v[k]) for k in self.TABLE} for c, v in curves.items()}}
