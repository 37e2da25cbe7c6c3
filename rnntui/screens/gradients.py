"""T2 `gradients`: why gradients die in the loop, on a log axis. The views of clipping and of BPTT in 64
dimensions are in gradients_training.py."""
from __future__ import annotations

from rnntui.figure import Figure
from rnntui.figures.gradients import (B, FACTORS_N, LAST_T, PRODUCT_N, W_X, BackwardState, BpttState, ClipState,
                                      FactorsState, HopState, ProductState)
from rnntui.fmt import at_hop, factor, paren, sci, three
from rnntui.i18n import N_, _, aside, spaced
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.screens.gradients_training import BpttView, ClipView
from rnntui.widgets.plot import EXTRA_ROWS, Line, Plot, PlotSpec, Series, extra_plot
from rnntui.widgets.readouts import Readouts, readout_text
from rnntui.widgets.tints import BLUE, GREY, ORANGE, PURPLE, RED
from rnntui.widgets.track import CellColumns, Row, TokenTrack

SLOPE = {"tanh": "tanh'", "relu": "relu'"}


class Network:
    """Help for the figures on topic 1's network: its W_x and b, which topic 2 does not set (a researcher)."""

    CHAIN = False  # the figure runs T1's tokens repeated, not the eight alone

    @classmethod
    def explained(cls, s) -> str:
        said = _("Every z here is z_t = W_h·h_{{t−1}} + W_x·x_t + b from h_{{−1}} = 0, with topic 1's default "
                 "W_x = {w_x} and b = {b}, fixed here (topic 1's keys do not change them); W_h and act are this "
                 "topic's.").format(w_x=f"{W_X:g}", b=f"{B:g}")
        if cls.CHAIN:
            said += " " + _("The chain's tokens are T1's eight, repeated: x_t = x_(t mod 8).")
        return said


class HopView(Network, FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="hop")
        yield Readouts(id="why")

    def show(self, s: HopState) -> None:
        r, t = s.readings(), s.t
        name = SLOPE[s.act]
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.curve_z, r.curve_slope, f"{name}(z)", BLUE),
                    Series(r.others_z, r.others_slope, _("other hops' {slope}").format(slope=name), PURPLE,
                           marker="•", scatter=True),
                    Series((r.z_t, r.z_t), (0.0, r.factor), _("this hop: {slope}(z_{t})·W_h").format(slope=name, t=t),
                           ORANGE, marker="█"),
                    Series((r.z_t,), (r.slope,), f"{name}(z_{t})", BLUE, marker="●", scatter=True)),
            # (the dots were "other hops" and the ● unnamed, a student's trial: the dots are slopes, the bar a
            # factor; the ● after the bar, drawn over it where they share a row, a review)
            lines=(Line(s.w_h, f"W_h {s.w_h:.2f}", ORANGE, dashed=True, align="right"),),
            xlim=(r.curve_z[0], r.curve_z[-1]), ylim=(-0.02, r.y_top), xlabel="z", legend="below",
        ))
        self.query_one("#hop", Readouts).show([
            (_("hop {k}  h_{t}→h_{prev}  z_{t}").format(k=s.hop, t=t, prev=t - 1), f"{r.z_t:+.3f}"),
            (f"{name}(z_{t})", factor(r.slope)), ("× W_h", f"{s.w_h:.2f}"), (_("= factor"), factor(r.factor)),
        ], sep="  ")
        why = (_("tanh' is at most 1 (only at z = 0), so a factor never passes W_h") if s.act == "tanh"
               else _("relu' is 1 where z > 0 and 0 elsewhere: the factor is W_h or 0"))
        z = (f"z_{t} = W_h·h_{t - 1} + W_x·x_{t} + b",  # W_x and b by value: topic 1's
             f"= {s.w_h:.2f}·{paren(r.h_prev)} + {r.w_x:.2f}·{paren(r.x_t, 1)} + {r.b:.2f}")  # (as topic 1 writes them)
        self.query_one("#why", Readouts).show([z, (_("(W_x, b: topic 1's defaults)"), ""), ("\n" + why, "")])


class BackwardView(Network, FigureView):
    def compose(self):
        yield TokenTrack(below=EXTRA_ROWS)  # its boxes grow taller only where the plot under them still fits
        yield Readouts(id="hop")
        yield Readouts(id="total")
        yield extra_plot()

    def show(self, s: BackwardState) -> None:
        r, t = s.readings(), s.readings().at
        self.query_one(TokenTrack).show((Row("∂h", r.track_gradient, "←", tiny=True), Row("×", r.track_factor),
                                         Row("x", r.tokens)), t)
        if s.hop == 0:
            step = [(_("start: the loss sits on h_{t}, so ∂L/∂h_{t} =").format(t=LAST_T), "1")]
        else:
            step = [(_("hop {k}: ∂L/∂h_{t} = ∂L/∂h_{next} · {slope}(z_{next})·W_h =").format(
                k=s.hop, t=t, next=t + 1, slope=SLOPE[s.act]),
                     f"{three(r.before)} × {factor(r.this_factor)} = {three(r.gradient)}")]
        self.query_one("#hop", Readouts).show(step)
        total = three(r.total) if s.hop == LAST_T else _("not there yet (end jumps)")
        self.query_one("#total", Readouts).show([(_("hops walked"), _("{n} of {total}").format(n=s.hop, total=LAST_T)),
                                                 (_("at h_0 after {n} hops").format(n=LAST_T), total)])
        xs, ys = zip(*r.walked)
        self.query_one(Plot).show(PlotSpec(
            series=(Series(xs, ys, _("|∂L/∂h_t|, walked so far"), ORANGE),
                    Series(xs, ys, "", ORANGE, marker="•", scatter=True)),
            lines=(Line(1.0, "", GREY),), cursor=float(t), xlim=(-0.5, LAST_T + 0.5), ylim=r.ylim, log_y=True,  # (the cursor clear of the frame)
            xlabel=_("t (the walk goes right to left)"), xcols=CellColumns(LAST_T + 1),  # t under its cell
        ))


class FactorsView(Network, FigureView):
    CHAIN = True

    def compose(self):
        yield Plot()
        yield Readouts(id="hop")
        yield Readouts(id="top")

    def show(self, s: FactorsState) -> None:
        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.hops, r.factors, _("factor act'(z_t)·W_h"), BLUE),
                    Series(r.hops, r.factors, "", BLUE, marker="•", scatter=True)),
            lines=(Line(1.0, "×1", GREY, dashed=True), Line(s.w_h, f"W_h {s.w_h:.2f}", ORANGE, dashed=True, align="right",
                                                               aside=True)),  # (on ReLU's points: beside them, a trial)
            cursor=s.hop, xlim=(r.hops[0], r.hops[-1]), ylim=(r.y_bottom, r.y_top),
            xlabel=_("hop back from the last state"), legend="below",
        ))
        here = r.factor
        trend = (" " + _("zeroes it") if here == 0 else " " + _("shrinks") if here < 1  # (at W_h 0 "factor 0.000
                 else " " + _("grows") if here > 1 else "")  # shrinks": a factor of 0 ends the gradient, a review)
        line = readout_text([
            (_("hop {k} of {n}  h_{t}→h_{prev}: factor").format(k=s.hop, n=FACTORS_N - 1, t=s.t, prev=s.t - 1),
             factor(here) + trend),  # (h_39, not F5's h_7: a student asked why hop 1's factor differs)
            (_("largest"), factor(r.largest['factor']))])
        top, hops = r.largest, len(r.factors)  # (ReLU's "at hop 1" stood for every active hop, a maths audit)
        at = (_("at every hop") if top["ties"] == hops else _("at hop {k}").format(k=top["hop"]) if top["ties"] == 1
              else _("at {n} of {total} hops").format(n=top["ties"], total=hops))
        line.append(" " + spaced(at),
                    style="dim")  # one piece with "largest": a line broke between them ("最大 0.899" / "在第 34 跳 <
        line.append("= W_h" if r.largest_is_w_h else f"< W_h {s.w_h:.2f}", style="bold")  # W_h 0.90", a trial)
        if not r.largest_is_w_h and factor(r.largest["factor"]) == factor(s.w_h):  # ("0.020 < W_h 0.02": by how
            line.append(" " + _("by {gap}").format(gap=sci(r.largest_gap)), style="dim")  # much, a maths audit)
        self.query_one("#hop", Readouts).update(line)
        if s.w_h == 0:  # (W_h = 0 read "at hop 1 = W_h" over "no factor reaches W_h", a researcher)
            why = _("W_h = 0: every factor is {slope}(z_t)·0 = 0, so each one is W_h").format(slope=SLOPE[s.act])
        else:
            why = (_("tanh' < 1 wherever z ≠ 0, so no factor reaches W_h") if s.act == "tanh"
                   else _("relu' is exactly 1 on an active unit (and 0 on a dead one)"))
        lines = [(why, "")]
        if r.seed_largest is not None:
            p = r.published
            lines.append((_("source {seed} ≠ ours {ours}: {why}").format(
                seed=f"{r.seed_largest.value:.3f}", ours=f"{r.largest['factor']:.3f}", why=_(r.seed_largest.why).format(
                    t=p["t"], prev=p["t"] - 1, hop=p["hop"], factor=f"{p['factor']:.3f}",
                    seed=f"{r.seed_largest.value:.3f}")), ""))
        self.query_one("#top", Readouts).show(lines, sep="\n")


class ProductView(Network, FigureView):
    CHAIN = True

    def compose(self):
        yield Plot()
        yield Readouts(id="hop")
        yield Readouts(id="cross")
        yield Readouts(id="means")

    def show(self, s: ProductState) -> None:
        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.hops, r.product, _("product in float64"), BLUE),
                    # drawn on top; orange, not the red of float32's limit lines (it read as one of them)
                    Series(r.hops, r.product_float32, _("in float32 (stops at inf or 0)"), ORANGE)),
            # each limit's value in its label: at 80x24 a row spans 25 decades, and "1e50┤float32 max" read as 1e50
            lines=(Line(r.float32_max, _("float32 max") + " " + sci(r.float32_max), RED),  # (not in an f-string:
                   Line(r.float32_min_normal, _("float32 min normal") + " " + sci(r.float32_min_normal), RED),  # babel)
                   Line(1.0, "×1", GREY, dashed=True, align="right")),
            cursor=s.hop, xlim=(r.hops[0], r.hops[-1]), ylim=r.y_range, log_y=True,
            xlabel=_("hops back"), legend="below",
        ))
        c = r.crossings
        zero = r.exact_zero  # a factor exactly 0 (dead ReLU, W_h 0): 0 from there, no underflow (a researcher)
        dead = zero is not None and (c["below_f32_min_normal"] is None or c["below_f32_min_normal"] >= zero)
        end = sci(r.end)
        below = _("no (exactly 0 from hop {k})").format(k=zero) if dead else at_hop(c["below_f32_min_normal"])
        if r.seed_end is not None:  # the seed's numbers beside ours
            end += aside(_("(source {value})").format(value=f"{r.seed_end.value:g}"))
            below += aside(_("(source {value})").format(value=f"{r.seed_below_min_normal.value:d}"))
        self.query_one("#hop", Readouts).show([(_("hop {k}: product").format(k=s.hop), sci(r.at)),
                                               ("float32", sci(r.at_float32)),
                                               (_("end (hop {k})").format(k=r.hops[-1]), end)])
        above = at_hop(c["above_f32_max"])
        if r.saturates:  # (W_h 1.7 vanished faster than 0.9, and nothing said why: a newcomer's trial)
            above += aside(_("(tanh saturates)"))
        self.query_one("#cross", Readouts).show([(_("crosses float32 min normal:"), below),
                                                 (_("float32 max:"), above)])
        if c["above_f32_max"] is not None:
            means = _("float32 is inf from hop {k}: an inf gradient turns training NaN (inf − inf)").format(
                k=c["above_f32_max"])
        elif dead and s.w_h == 0:
            means = _("W_h = 0: every factor is exactly 0, so the product is 0 from hop 1 in any precision: "
                      "no underflow")
        elif dead:
            means = _("a dead ReLU: relu'(z) = 0 at hop {k}, so its factor is exactly 0 and the product is 0 from "
                      "there in any precision: no underflow").format(k=zero)
        # float64 too (its own reference read 0 unsaid, a ▼0 at hop 157: a maths audit), in one line with float32
        # (a second line took a plot row at 80x24, a review)
        elif r.float64_zero is not None:
            means = _("float32 reads 0 from hop {k}, float64 from hop {k64}, silently: the true product at hop {end} "
                      "is 10^{log}").format(k=r.float32_zero, k64=r.float64_zero, end=r.hops[-1],
                                            log=f"{r.end_log10:.1f}")
        elif r.float32_zero is not None:  # (the ▼0 mark's hop was said nowhere, a trial)
            means = _("below min normal float32 drops digits, then reads 0 from hop {k}: silently, no error").format(
                k=r.float32_zero)
        elif 0 < r.end_float32_bits < 24:  # it ends subnormal: "then rounds to 0" was not so here (a researcher)
            means = _("below min normal float32 drops digits: it ends at {value}, a subnormal with {bits} of 24 "
                      "bits, not yet 0: silently, no error").format(value=sci(r.end_float32), bits=r.end_float32_bits)
        elif c["below_f32_min_normal"] is not None:
            means = _("below min normal float32 drops digits: silently, no error")
        else:
            means = _("the product stays inside float32's range on this chain")
        lines = [(means, "")]
        if r.seed_end is not None:
            lines.append((_("source ≠ ours: {why}").format(why=_(r.seed_end.why)), ""))
        self.query_one("#means", Readouts).show(lines, sep="\n")


class GradientsScreen(TopicScreen):
    TOPIC_ID = "gradients"
    TITLE = N_("Why gradients die in the loop")
    SHARED = ("w_h", "act")  # one network: hop, backward, factors and product (and bptt's act)
    FIGURES = (
        Figure("hop", N_("One hop back"), "F5", HopState, HopView,
               N_("Going back one step multiplies the gradient by act'(z_t)·W_h. The slope is at most 1, "
                  "so under tanh a hop keeps less than W_h.")),
        Figure("backward", N_("Back through 8 tokens"), "F6", BackwardState, BackwardView,
               N_("The gradient walks from h_7 back to h_0, one multiplication per hop. Each factor is an "
                  "ordinary derivative; there are just seven of them.")),
        Figure("factors", N_("Per-hop factors"), "F7", FactorsState, FactorsView,
               N_("Each hop's factor along a 40-token chain. Under tanh none reaches W_h; under ReLU an active "
                  "unit passes W_h through unchanged."),
               key_steps=(1, 10, 20, 30, FACTORS_N - 1)),
        Figure("product", N_("Their product"), "F8", ProductState, ProductView,
               N_("A 200-token chain's factors, multiplied: what reaches the first token. On a log axis a steady "
                  "factor is a straight line, heading for float32's limits."),
               key_steps=(0, 50, 100, 150, PRODUCT_N - 1)),
        Figure("clipping", N_("Gradient clipping (Pascanu et al. 2013)"), "F9", ClipState, ClipView,
               N_("Clipping rescales a gradient whose norm passes the threshold and keeps its direction. "
                  "It is a ceiling: a vanishing gradient passes untouched."),
               key_steps=(5.0, 20.0, 84.0)),
        Figure("bptt", N_("BPTT in 64 dimensions"), "E1", BpttState, BpttView,
               N_("A 64-wide RNN, W ~ N(0, c²/d), 60 steps, loss at the last: the gradient left at each "
                  "distance back. Larger c decays slower; ReLU at c=1.5 usually grows."),
               key_steps=(0, 20, 40, 60)),
    )
