"""T3 `lstm`: the gate that keeps the product alive (and the GRU)."""
from __future__ import annotations

import math

import numpy as np

from rnntui.engine.recurrence import TOKENS, W_H
from rnntui.figures.lstm import (PATH_HOPS, REPEATS, BiasState, CellState, GatesState, GruState, ParamsState,
                                 PathState)
from rnntui.figure import Figure
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.gatebar import GateBar, Segment
from rnntui.widgets.plot import BLUE, GREEN, GREY, ORANGE, RED, Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.track import Row, TokenTrack

N = len(TOKENS)


def _rich(rgb) -> str:
    return "rgb({},{},{})".format(*rgb)


KEPT, WRITTEN, DISCARDED = _rich(GREEN), _rich(BLUE), _rich(RED)


def small(v: float) -> str:
    """Four decimals while that still shows two digits, scientific below: 0.0019, 9.54e-07."""
    if not math.isfinite(v):
        return str(v)
    return f"{v:.4f}" if v == 0 or abs(v) >= 1e-3 else f"{v:.2e}"


def paren(v: float) -> str:
    """A factor in a product: negative values in brackets, 0.416·(-0.108)."""
    return f"{v:.3f}" if v >= 0 else f"({v:.3f})"


def count(n: float) -> str:
    return f"{n / 1e6:.2f}M" if n >= 1e6 else f"{n / 1e3:.1f}K" if n >= 1e3 else f"{n:.0f}"


def update_segments(part: dict, kept: str, written: str, discarded: str) -> list[Segment]:
    return [Segment(part["kept"], kept, KEPT, "█"), Segment(part["written"], written, WRITTEN, "▓"),
            Segment(part["discarded"], discarded, DISCARDED, "░")]


class CellView(FigureView):
    TRACK_ROWS = 13  # the track (10 rows) and three lines of readouts; the plot only shows below them

    def compose(self):
        yield TokenTrack()
        yield Readouts(id="gates")
        yield Readouts(id="c")
        yield Readouts(id="h")
        yield Plot()

    def on_resize(self) -> None:
        self.query_one(Plot).display = self.size.height >= self.TRACK_ROWS + 8

    def show(self, s: CellState) -> None:
        v, t = s.states(), s.step
        c = tuple(float(v["c"][k]) if k <= t else None for k in range(N))
        h = tuple(float(v["h"][k]) if k <= t else None for k in range(N))
        self.query_one(TokenTrack).show((Row("c", c, "─"), Row("h", h, "→"), Row("x", TOKENS)), t)
        f, i, g, o, c_t, h_t = (float(v[k][t]) for k in ("f", "i", "g", "o", "c", "h"))
        c_prev = paren(float(v["c"][t - 1])) if t else "0"
        before = f"c_{t - 1}" if t else "c_{−1}"
        self.query_one("#gates", Readouts).show([
            (f"gates at t={t}:  f", f"{f:.3f}"), ("i", f"{i:.3f}"), ("ĉ", f"{g:+.3f}"), ("o", f"{o:.3f}")])
        self.query_one("#c", Readouts).show([
            (f"c_{t} = f·{before} + i·ĉ = {f:.3f}·{c_prev} + {i:.3f}·{paren(g)} =", f"{c_t:.3f}")])
        self.query_one("#h", Readouts).show([
            (f"h_{t} = o·tanh(c_{t}) = {o:.3f}·tanh({c_t:.3f}) =", f"{h_t:.3f}")])
        steps = tuple(float(k) for k in range(t + 1))
        self.query_one(Plot).show(PlotSpec(
            series=(Series(steps, tuple(v["c"][: t + 1].tolist()), "c_t (cell state)", GREEN),
                    Series(steps, tuple(v["h"][: t + 1].tolist()), "h_t = o·tanh(c_t)", BLUE),
                    Series(steps, tuple(v["f"][: t + 1].tolist()), "forget gate f_t", GREY)),
            cursor=float(t), xlim=(0, N - 1), ylim=(min(0.0, float(v["c"].min())), max(1.0, float(v["c"].max()))),
            xlabel="t",
        ))


class GatesView(FigureView):
    def compose(self):
        yield GateBar("c_t", label_width=4)
        yield Readouts(id="update")
        yield Readouts(id="case")
        yield Plot()

    def show(self, s: GatesState) -> None:
        part = s.split()
        segments = update_segments(part, "kept f·c", "written i·ĉ", "discarded (1−f)·c")
        segments.append(Segment(0.0, "not written", "dim", "·", f"{1.0 - s.i:.2f}"))
        self.query_one(GateBar).show(segments, scale=2.0, suffix="of c_{t−1} + ĉ = 2")
        c = s.repeated()
        self.query_one("#update", Readouts).show([
            (f"c_{{t−1}} = ĉ = 1:  c_t = {s.f:.2f}·1 + {s.i:.2f}·1 =", f"{part['c']:.2f}"),
            (f"after {REPEATS} repeats c_{REPEATS} =", f"{c[-1]:.2f}")])
        if s.f >= 1.0:
            case = "f = 1: nothing is discarded, a pure accumulator: c grows by i·ĉ every step"
        elif s.f <= 0.0:
            case = "f = 0: the old state is gone in one step; c_t is only what was just written"
        else:
            case = f"0 < f < 1: c levels off at i·ĉ/(1−f) = {s.level():.2f}"
        self.query_one("#case", Readouts).show([(case, "")])
        steps = tuple(float(k) for k in range(REPEATS + 1))
        top = max(2.0, float(c.max()) * 1.1)
        level = s.level()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(steps, tuple(c.tolist()), "c_t, the same update repeated", GREEN),),
            lines=(Line(level, "i·ĉ/(1−f)", GREY),) if level is not None and s.f > 0 and level <= top else (),
            xlim=(0, REPEATS), ylim=(0.0, top), xlabel="steps (c_0 = 1, ĉ = 1 every step)",
        ))


class PathView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="at")
        yield Readouts(id="rnn")

    def show(self, s: PathState) -> None:
        hops, lstm_path, rnn = s.curves()
        x = tuple(float(k) for k in hops)
        self.query_one(Plot).show(PlotSpec(
            series=(Series(x, tuple(rnn.tolist()), f"RNN product (T2, W_h = {W_H:.2f})", RED),  # LSTM on top
                    Series(x, tuple(lstm_path.tolist()), f"LSTM f^k, f = {s.f:.2f}", GREEN)),
            cursor=float(s.k), xlim=(0, PATH_HOPS), ylim=(0.0, 1.05), xlabel="k: steps back from c_k to c_0",
        ))
        self.query_one("#at", Readouts).show([
            (f"k = {s.k}:  f^k =", small(float(lstm_path[s.k]))), ("RNN product", small(float(rnn[s.k])))])
        below = s.rnn_below(0.01)
        self.query_one("#rnn", Readouts).show([
            ("RNN product below 0.01 from hop", str(below) if below is not None else "never"),
            (f"f^{PATH_HOPS}", small(float(lstm_path[-1])))])


class BiasView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="left")
        yield Readouts(id="why")

    def show(self, s: BiasState) -> None:
        xs, ys = s.curve()
        marks = s.landmarks()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(tuple(xs.tolist()), tuple(ys.tolist()), f"σ(b_f)^{s.k}: c_0 left after {s.k} steps",
                           GREEN),
                    Series(tuple(b for b, _ in marks), tuple(v for _, v in marks), "b_f = 0 and b_f = 1", GREY,
                           marker="◆", scatter=True)),
            cursor=s.b_f, log_y=True, xlabel="forget-gate bias b_f",
        ))
        f, left = s.gate(), s.left()
        share = f" ({left:.2%})" if left >= 1e-4 else ""
        self.query_one("#left", Readouts).show([
            ("b_f", f"{s.b_f:.2f}"), ("→ f = σ(b_f)", f"{f:.3f}"),
            (f"→ left after {s.k} steps f^{s.k}", small(left) + share)])
        self.query_one("#why", Readouts).show([
            ("the fix: initialise", "b_f = 1"), ("(Gers et al. 2000; Jozefowicz et al. 2015)", "")])


class GruView(FigureView):
    def compose(self):
        yield GateBar("LSTM", label_width=5, id="bar-lstm")
        yield GateBar("GRU", label_width=5, id="bar-gru")
        yield Readouts(id="sum")
        yield Plot()

    def show(self, s: GruState) -> None:
        lstm_part, gru_part = s.splits()
        self.query_one("#bar-lstm", GateBar).show(
            update_segments(lstm_part, "keep f", "write i", "discard"), scale=2.0, suffix=f"c_t {lstm_part['c']:.2f}")
        self.query_one("#bar-gru", GateBar).show(
            update_segments(gru_part, "keep f", "write 1−f", "discard"), scale=2.0, suffix=f"h_t {gru_part['h']:.2f}")
        self.query_one("#sum", Readouts).show([
            ("keep + write:  LSTM f + i =", f"{s.f + s.i:.2f}"), ("GRU f + (1−f) =", f"{s.f + (1.0 - s.f):.2f}")])
        line = tuple(float(v) for v in np.linspace(0.0, 1.0, 41))
        self.query_one(Plot).show(PlotSpec(
            xlim=(0.0, 1.0), ylim=(0.0, 1.0), xlabel="keep (f)",
            series=(Series(line, tuple(1.0 - v for v in line), "GRU: write = 1 − keep", ORANGE),
                    Series((s.f,), (s.i,), "LSTM: (f, i)", GREEN, marker="●", scatter=True),
                    Series((s.f,), (1.0 - s.f,), "GRU: (f, 1 − f)", ORANGE, marker="◆", scatter=True)),
        ))


class ParamsView(FigureView):
    DEFAULT_CSS = "ParamsView GateBar { margin-bottom: 1; }"

    def on_resize(self) -> None:
        rows = min(max((self.size.height - 6) // 3 - 1, 1), 4)
        for bar in self.query(GateBar):
            bar.rows = rows
            bar.refresh(layout=True)

    def compose(self):
        for cell in ("RNN", "GRU", "LSTM"):
            yield GateBar(cell, label_width=5, legend=False, rows=2, id=f"bar-{cell.lower()}")
        yield Readouts(id="block")
        yield Readouts(id="exact")
        yield Readouts(id="budget")

    def show(self, s: ParamsState) -> None:
        counts = s.counts()
        data = s.data()
        block, blocks = data["block"], data["blocks"]
        for cell, n in counts.items():
            parts = [Segment(block, "block", KEPT, "█") for _ in range(blocks[cell])]
            self.query_one(f"#bar-{cell.lower()}", GateBar).show(
                parts, scale=block * max(blocks.values()), suffix=f"{count(n):>7} = {blocks[cell]}×")
        self.query_one("#block", Readouts).show([
            (f"one block = 2d² + d = 2·{s.d}² + {s.d} =", f"{block:,}")])
        self.query_one("#exact", Readouts).show([(cell, f"{n:,}") for cell, n in counts.items()])
        widths = s.same_budget()
        self.query_one("#budget", Readouts).show([
            (f"for the LSTM's {count(counts['LSTM'])}:  RNN d ≈", f"{widths['RNN']:.0f}"),
            ("GRU d ≈", f"{widths['GRU']:.0f}"), ("LSTM d =", f"{s.d}")])


class LstmScreen(TopicScreen):
    TOPIC_ID = "lstm"
    TITLE = "The gate that keeps the product alive"
    FIGURES = (
        Figure("cell", "The cell on the token track", "F10", CellState, CellView,
               "c runs on a plain line: c_t = f·c_{t−1} + i·ĉ_t, one multiply and one add, no W, no tanh. "
               "This identity path is the LSTM's residual connection in time."),
        Figure("gates", "Gates as proportions", "F11", GatesState, GatesView,
               "f keeps part of c_{t−1}, i writes part of the candidate ĉ, the rest is discarded. "
               "f = 1 makes a pure accumulator; f = 0 forgets in one step.", key_steps=(0.0, 0.7, 1.0)),
        Figure("path", "The only path back to c_0", "F12", PathState, PathView,
               "From c_k back to c_0 there is one path, k forget gates: f^k and nothing else. "
               "The RNN's product of tanh'·W_h (T2) is near 0 within about ten hops.", key_steps=(0, 10, 50, 100)),
        Figure("bias", "The forget-gate bias", "F13", BiasState, BiasView,
               "At initialisation the weights are near 0, so f ≈ σ(b_f). b_f = 0 gives f = 0.5: the cell halves "
               "itself every step and the path is shut from the start.", key_steps=(0.0, 1.0, 2.0)),
        Figure("gru", "The GRU's coupled gate", "F16", GruState, GruView,
               "The GRU (Cho 2014) writes 1 − f where the LSTM writes i: one decision, so it cannot keep the "
               "old state and write hard in the same step.", key_steps=(0.5, 0.9, 1.0)),
        Figure("params", "The parameter bill", "F17", ParamsState, ParamsView,
               "Each gate is one d×2d matrix on [h, x] plus a bias, a block of 2d² + d: RNN 1 block, GRU 3, "
               "LSTM 4. The state is still one vector of d numbers.", key_steps=(64, 256, 1024, 4096)),
    )
