"""T2 `gradients`: why gradients die in the loop, on a log axis."""
from __future__ import annotations

import numpy as np
from rich.table import Table
from textual.widgets import Static

from rnntui.engine import gradients as gr
from rnntui.engine import recurrence as rnn
from rnntui.figures.gradients import (FACTORS_N, N, PRODUCT_N, BackwardState, BpttState, ClipState, FactorsState,
                                      HopState, ProductState)
from rnntui.figure import Figure
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.plot import BLUE, GREEN, GREY, ORANGE, PURPLE, RED, Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.track import Row, TokenTrack

SLOPE = {"tanh": "tanh'", "relu": "relu'"}


def sci(v: float) -> str:
    """A number that may be tiny, huge, 0, inf or NaN, in a few characters."""
    if not np.isfinite(v):
        return "NaN" if np.isnan(v) else ("inf" if v > 0 else "-inf")
    if v == 0:
        return "0"
    return f"{v:.4g}" if 1e-3 <= abs(v) < 1e4 else f"{v:.2e}"


def at_hop(hop) -> str:
    return "never" if hop is None else f"hop {hop}"


class HopView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="hop")
        yield Readouts(id="why")

    def show(self, s: HopState) -> None:
        z_all = s.z()
        zs, slope = s.slope_curve()
        z_t, factor = float(z_all[s.t]), s.factor()
        others = [t for t in range(1, N) if t != s.t]
        name = SLOPE[s.act]
        self.query_one(Plot).show(PlotSpec(
            series=(Series(tuple(zs), tuple(slope), f"{name}(z)", BLUE),
                    Series(tuple(z_all[others]), tuple(gr.act_slope(z_all[others], s.act)), "other hops", PURPLE,
                           marker="•", scatter=True),
                    Series((z_t, z_t), (0.0, factor), f"this hop: {name}(z_{s.t})·W_h", ORANGE, marker="█")),
            lines=(Line(s.w_h, f"W_h {s.w_h:.2f}", ORANGE, dashed=True, align="right"),),
            xlim=(float(zs[0]), float(zs[-1])), ylim=(-0.02, max(1.0, s.w_h) * 1.12 + 0.02), xlabel="z",
            marks=((z_t, s.slope(), "●"),), legend="below",
        ))
        self.query_one("#hop", Readouts).show([
            (f"hop {s.hop}  h_{s.t}→h_{s.t - 1}  z_{s.t}", f"{z_t:+.3f}"),
            (f"{name}(z_{s.t})", f"{s.slope():.3f}"), ("× W_h", f"{s.w_h:.2f}"), ("= factor", f"{factor:.3f}"),
        ], sep="  ")
        why = ("tanh' is at most 1 (only at z = 0), so a factor never passes W_h" if s.act == "tanh"
               else "relu' is 1 where z > 0 and 0 elsewhere: the factor is W_h or 0")
        self.query_one("#why", Readouts).show([(why, "")])


class BackwardView(FigureView):
    def compose(self):
        yield TokenTrack()
        yield Readouts(id="hop")
        yield Readouts(id="total")

    def show(self, s: BackwardState) -> None:
        factors, products = s.factors(), s.products()
        last = N - 1
        grads = tuple(float(products[last - t]) if last - t <= s.hop else None for t in range(N))
        # the factor of hop k sits at the state it leaves, t = 8 − k
        facs = tuple("" if t == 0 else (float(factors[last - t]) if last - t + 1 <= s.hop else None) for t in range(N))
        self.query_one(TokenTrack).show((Row("∂h", grads, "←"), Row("×", facs), Row("x", rnn.TOKENS)), last - s.hop)
        t = last - s.hop
        if s.hop == 0:
            step = [(f"start: the loss sits on h_{last}, so ∂L/∂h_{last} =", "1")]
        else:
            step = [(f"hop {s.hop}: ∂L/∂h_{t} = ∂L/∂h_{t + 1} · {SLOPE[s.act]}(z_{t + 1})·W_h =",
                     f"{products[s.hop - 1]:.3f} × {factors[s.hop - 1]:.3f} = {products[s.hop]:.3f}")]
        self.query_one("#hop", Readouts).show(step)
        total = f"{products[-1]:.3f}" if s.hop == N - 1 else "not there yet (end jumps)"
        self.query_one("#total", Readouts).show([("hops walked", f"{s.hop} of {N - 1}"),
                                                 (f"at h_0 after {N - 1} hops", total)])


class FactorsView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="hop")
        yield Readouts(id="top")

    def show(self, s: FactorsState) -> None:
        f = s.factors()
        hops = tuple(range(1, FACTORS_N))
        self.query_one(Plot).show(PlotSpec(
            series=(Series(hops, tuple(f), "factor act'(z_t)·W_h", BLUE),
                    Series(hops, tuple(f), "", BLUE, marker="•", scatter=True)),
            lines=(Line(1.0, "×1", GREY, dashed=True), Line(s.w_h, f"W_h {s.w_h:.2f}", ORANGE, dashed=True, align="right")),
            cursor=s.hop, xlim=(1, FACTORS_N - 1), ylim=(-0.02, max(1.0, s.w_h) * 1.15 + 0.02),
            xlabel="hop back from the last state", legend="below",
        ))
        k, top = s.largest()
        here = f[s.hop - 1]
        equal = bool(np.isclose(top, s.w_h))
        self.query_one("#hop", Readouts).show([
            (f"hop {s.hop}: factor", f"{here:.3f}" + (" shrinks" if here < 1 else " grows" if here > 1 else "")),
            ("largest", f"{top:.3f}"), (f"at hop {k}", "= W_h" if equal else f"< W_h {s.w_h:.2f}")])
        why = ("tanh' < 1 wherever z ≠ 0, so no factor reaches W_h" if s.act == "tanh"
               else "relu' is exactly 1 on an active unit (and 0 on a dead one)")
        self.query_one("#top", Readouts).show([(why, "")])


class ProductView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="hop")
        yield Readouts(id="cross")
        yield Readouts(id="means")

    def show(self, s: ProductState) -> None:
        factors, p, p32 = s.series()
        hops = tuple(range(PRODUCT_N))
        finite = np.abs(p[np.isfinite(p) & (p != 0)])
        lo = min(1e-45, float(finite.min())) if finite.size else 1e-45
        hi = max(1e45, float(finite.max())) if finite.size else 1e45
        self.query_one(Plot).show(PlotSpec(
            series=(Series(hops, tuple(p), "product in float64", BLUE),
                    Series(hops, tuple(p32), "in float32 (stops at inf or 0)", RED)),  # drawn on top
            lines=(Line(gr.F32_MAX, "float32 max", RED), Line(gr.F32_TINY, "float32 min normal", RED),
                   Line(1.0, "×1", GREY, dashed=True, align="right")),
            cursor=s.hop, xlim=(0, PRODUCT_N - 1), ylim=(lo, hi), log_y=True,
            xlabel="hops back", legend="below",
        ))
        c = s.crossings()
        self.query_one("#hop", Readouts).show([(f"hop {s.hop}: product", sci(p[s.hop])), ("float32", sci(p32[s.hop])),
                                               (f"end (hop {PRODUCT_N - 1})", sci(p[-1]))])
        self.query_one("#cross", Readouts).show([
            ("crosses float32 min normal:", at_hop(c["below_f32_min_normal"])),
            ("float32 max:", at_hop(c["above_f32_max"]))])
        if c["above_f32_max"] is not None:
            means = f"float32 gives inf from hop {c['above_f32_max']}: the loss goes inf, then NaN (inf − inf)"
        elif c["below_f32_min_normal"] is not None:
            means = "below min normal float32 drops digits, then rounds to 0: silently, no error"
        else:
            means = "the product stays inside float32's range on this chain"
        self.query_one("#means", Readouts).show([(means, "")])


class ClipView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="big")
        yield Readouts(id="small")

    def show(self, s: ClipState) -> None:
        g = np.array(gr.G_EXPLODING)
        big, small = gr.norm(g), s.vanishing()
        xs, after = s.curve()
        lo, hi = float(xs[0]), float(xs[-1])
        self.query_one(Plot).show(PlotSpec(
            series=(Series(tuple(xs), tuple(xs), "no clipping", GREY),
                    Series(tuple(xs), tuple(after), "clipped", ORANGE),
                    Series((big,), (big * gr.clip_scale(big, s.threshold),), "exploding g", RED, marker="●", scatter=True),
                    Series((small,), (small * gr.clip_scale(small, s.threshold),), "vanishing g", BLUE,
                           marker="●", scatter=True)),
            lines=(Line(s.threshold, f"threshold {s.threshold:g}", ORANGE, dashed=True),),
            xlim=(lo, hi), ylim=(lo, hi), log_x=True, log_y=True,
            xlabel="‖g‖ before clipping (log)", legend="below",
        ))
        scale = gr.clip_scale(big, s.threshold)
        clipped = gr.clip(g, s.threshold)
        vec = lambda v: "(" + ", ".join(f"{x:g}" if float(x).is_integer() else f"{x:.2f}" for x in v) + ")"
        rule = f"≥ {s.threshold:g}: scale {s.threshold:g}/{big:.1f} =" if big >= s.threshold else f"< {s.threshold:g}: scale"
        self.query_one("#big", Readouts).show([
            (f"exploding ‖g‖ {big:.1f} {rule}", f"{scale:.4g}"), ("after", f"{gr.norm(clipped):.2f}"),
            ("\n  g " + vec(g) + " →", vec(clipped)), ("same direction", "")])
        ss = gr.clip_scale(small, s.threshold)
        self.query_one("#small", Readouts).show([
            (f"vanishing ‖g‖ {small:.2e} < {s.threshold:g}: scale", f"{ss:g}"),
            ("after", f"{small * ss:.2e}" + (" unchanged" if ss == 1 else ""))])


class BpttView(FigureView):
    COLORS = {"0.5": GREEN, "1.0": BLUE, "1.5": ORANGE}

    def compose(self):
        yield Plot()
        yield Static(id="table")

    def show(self, s: BpttState) -> None:
        curves = s.curves()
        dist = tuple(range(gr.E1_T + 1))
        self.query_one(Plot).show(PlotSpec(
            series=tuple(Series(dist, tuple(v), f"c={c}" + (" ◂" if c == s.c else ""), self.COLORS[c])
                         for c, v in curves.items()),
            lines=(Line(1.0, "×1", GREY, dashed=True, align="right"),),
            cursor=s.distance, xlim=(0, gr.E1_T), log_y=True,
            xlabel="distance T − t from the loss", legend="below",
        ))
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False)
        table.add_column(f"‖∂L/∂h_t‖ ÷ ‖∂L/∂h_T‖, {s.act}", style="dim")
        for d in BpttState.TABLE:
            table.add_column(f"at {d}", justify="right")
        table.add_column(f"cursor {s.distance}", justify="right")
        for c, curve in curves.items():
            table.add_row(f"c={c}" + (" ◂" if c == s.c else ""), *(sci(curve[d]) for d in BpttState.TABLE),
                          sci(curve[s.distance]), style="bold" if c == s.c else "")
        self.query_one("#table", Static).update(table)


class GradientsScreen(TopicScreen):
    TOPIC_ID = "gradients"
    TITLE = "Why gradients die in the loop"
    FIGURES = (
        Figure("hop", "One hop back", "F5", HopState, HopView,
               "Going back one step multiplies the gradient by act'(z_t)·W_h. The slope is at most 1, "
               "so under tanh a hop keeps less than W_h."),
        Figure("backward", "Back through 8 tokens", "F6", BackwardState, BackwardView,
               "The gradient walks from h_7 back to h_0, one multiplication per hop. Each factor is an "
               "ordinary derivative; there are just seven of them."),
        Figure("factors", "Per-hop factors", "F7", FactorsState, FactorsView,
               "Each hop's factor along a 40-token chain. Under tanh none reaches W_h; under ReLU an active "
               "unit passes W_h through unchanged.",
               key_steps=(1, 10, 20, 30, FACTORS_N - 1)),
        Figure("product", "Their product", "F8", ProductState, ProductView,
               "The factors multiplied over 200 hops: what reaches the first token. On a log axis a steady "
               "factor is a straight line, heading for float32's limits.",
               key_steps=(0, 50, 100, 150, PRODUCT_N - 1)),
        Figure("clipping", "Gradient clipping", "F9", ClipState, ClipView,
               "Clipping rescales a gradient whose norm passes the threshold and keeps its direction. "
               "It is a ceiling: a vanishing gradient passes untouched.",
               key_steps=(5.0, 20.0, 84.0)),
        Figure("bptt", "BPTT in 64 dimensions", "E1", BpttState, BpttView,
               "A 64-wide RNN, 60 steps, loss at the last: how much gradient is left at each distance "
               "back. Larger c decays slower; ReLU at c=1.5 explodes.",
               key_steps=(0, 20, 40, 60)),
    )
