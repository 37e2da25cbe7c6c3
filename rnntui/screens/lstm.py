"""T3 `lstm`: the gate that keeps the product alive (and the GRU)."""
from __future__ import annotations

from rnntui.figure import Figure
from rnntui.figures.lstm import (LAST_T, PATH_HOPS, REPEATS, BiasState, CellState, ForgetPathState, GatesState,
                                 GruState, ParamsState)
from rnntui.fmt import count, paren, pct, small, term
from rnntui.i18n import N_, _, aside, commas
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.cellsheet import GATE_WORDS, SHOWN
from rnntui.widgets.gatebar import KEPT, GateBar, Segment, update_segments
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series, extra_plot
from rnntui.widgets.quiet import lay_out
from rnntui.widgets.readouts import Readouts, readout_text
from rnntui.widgets.tints import BLUE, GREEN, GREY, ORANGE, PURPLE, RED
from rnntui.widgets.track import CellColumns, TokenTrack, cell_rows


def gate_sums(r, t: int, zeros: bool = False) -> dict[str, str]:
    """Each gate at t written from its weights, x_t and h_{t−1}: "σ(0.50·0.5 + 0.50·0 + 1.00)"; a bias of 0
    left out (two lines at 80 columns, one at 160) unless `zeros`; the forget gate's b_f always there."""
    x, h = paren(r.tokens[t], 1), paren(r.h[t - 1]) if t else "0"
    return {g: f"{GATE_WORDS[g][0]}({w:.2f}·{x} + {u:.2f}·{h}{f' {term(b)}' if b or zeros or g == 'f' else ''})"
            for g, (w, u, b) in r.weights.items()}


class CellView(FigureView):
    REDRAW_ON_RESIZE = True  # the gates' sums only where they leave the plot its row

    def compose(self):
        yield TokenTrack()
        yield Readouts(id="gates")
        yield Readouts(id="pre")
        yield Readouts(id="c")
        yield Readouts(id="h")
        plot = Plot(least=8)  # in the rows the track and readouts leave; fewer: a line says so (they were blank)
        plot.styles.min_height = 1
        yield plot

    def show(self, s: CellState) -> None:
        r, t = s.readings(), s.step
        now = r.now
        self.query_one(TokenTrack).show(cell_rows(r.c_all, r.h_all, r.tokens, t), t)
        c_prev = paren(now.c_prev) if t else "0"
        before = f"c_{t - 1}" if t else "c_{−1}"
        self.query_one("#gates", Readouts).show([
            # each gate named where its letter is first read (at 80x24 only the plot's legend said "forget gate",
            # and it was left out: a student's trial)
            (_("gates at t={t}:  forget f").format(t=t), f"{now.f:.3f}"), (_("input i"), f"{now.i:.3f}"),
            ("ĉ", f"{now.g:+.3f}"), (_("output o"), f"{now.o:.3f}")])
        # each gate from its weights, x_t and h_{t−1}, as recurrence/track writes h_t (the weights were in
        # the .json only, a student's trial)
        pre = self.query_one("#pre", Readouts)
        pre.show([(SHOWN[g], written) for g, written in gate_sums(r, t).items()])
        # in the rows the plot leaves: never in the plot's (at 80x28 it was drawn) nor in its line's where it is
        # not (zh at 80x24: its prose is a line longer); help has them wherever they are left out
        width, height, plot = self.size.width or 80, self.size.height, self.query_one(Plot)
        room = height - self.query_one(TokenTrack).outer_size.height - sum(
            len(self.query_one(f"#{name}", Readouts).wrapped(width)) for name in ("gates", "c", "h"))
        need, least, bare = len(pre.wrapped(width)), plot.smallest(width), plot.drawn_from(width)
        pre.display = not height or room - need >= least or (room < bare and room - need >= 1)
        # the plot's line counts the rows it lacks with the sums left out, as they are where it is drawn
        more = bare - room if height and pre.display and room - need < least else None
        plot.lacks(more)
        self.query_one("#c", Readouts).show([
            (f"c_{t} = f·{before} + i·ĉ = {now.f:.3f}·{c_prev} + {now.i:.3f}·{paren(now.g)} =", f"{now.c:.3f}")])
        self.query_one("#h", Readouts).show([
            (f"h_{t} = o·tanh(c_{t}) = {now.o:.3f}·tanh({now.c:.3f}) =", f"{now.h:.3f}")])
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.steps, r.c, _("c_t (cell state)"), GREEN),
                    Series(r.steps, r.h, "h_t = o·tanh(c_t)", BLUE),
                    Series(r.steps, r.f, _("forget gate f_t"), GREY)),
            cursor=float(t), xlim=(0, LAST_T), ylim=r.c_range, xlabel="t", xcols=CellColumns(LAST_T + 1),  # t under its cell
        ))

    @classmethod
    def explained(cls, s: CellState) -> str:
        """Help: every gate's weights, and each gate at the current t worked out."""
        r, t = s.readings(), s.step
        values = {"f": f"{r.now.f:.3f}", "i": f"{r.now.i:.3f}", "g": f"{r.now.g:+.3f}", "o": f"{r.now.o:.3f}"}
        weights, worked, sums = [], [], gate_sums(r, t, zeros=True)
        for g, (w, u, b) in r.weights.items():
            weights.append(f"{SHOWN[g]} ({w:.2f}, {u:.2f}, {'b_f = ' if g == 'f' else ''}{b:.2f})")
            worked.append(f"{SHOWN[g]} = {sums[g]} = {GATE_WORDS[g][0]}({r.now.pre[g]:.3f}) = {values[g]}")
        return _("Each gate is σ (ĉ: tanh) of {sum}, with x_t and {h} from the track and (W_x, W_h, b): {weights}. "
                 "At t={t}: {worked}.").format(sum="W_x·x_t + W_h·h_{t−1} + b", h="h_{t−1}",
                                               weights=commas(weights), t=t,  # (、 and ； in Chinese: a review)
                                               worked=_("; ").join(worked))


class GatesView(FigureView):
    def compose(self):
        yield GateBar("c_t", label_width=4)
        yield Readouts(id="update")
        yield Readouts(id="case")
        yield Plot()

    def show(self, s: GatesState) -> None:
        r = s.readings()
        segments = update_segments((r.kept, r.written, r.discarded), _("kept f·c"), _("written i·ĉ"),
                                   _("discarded (1−f)·c"))
        segments.append(Segment(0.0, _("not written"), "dim", "·", f"{r.not_written:.2f}"))
        self.query_one(GateBar).show(segments, scale=2.0, suffix=_("of c_{t−1} + ĉ = 2"))
        self.query_one("#update", Readouts).show([
            (f"c_{{t−1}} = ĉ = 1:  c_t = {s.f:.2f}·1 + {s.i:.2f}·1 =", f"{r.c:.2f}"),
            (_("after {n} repeats c_{n} =").format(n=REPEATS), f"{r.c_repeated[-1]:.2f}")])
        if s.f >= 1.0 and s.i <= 0.0:  # ("c grows by i·ĉ" at i = 0, where it holds: a researcher)
            case = _("f = 1, i = 0: nothing is discarded and nothing written: c holds")
        elif s.f >= 1.0:
            case = _("f = 1: nothing is discarded, a pure accumulator: c grows by i·ĉ every step")
        elif s.f <= 0.0:
            case = _("f = 0: the old state is gone in one step; c_t is only what was just written")
        elif r.at_level:
            case = _("0 < f < 1: c_0 = 1 is already the level i·ĉ/(1−f): c stays at 1.00")
        else:
            case = _("0 < f < 1: c levels off at i·ĉ/(1−f) = {level}").format(level=f"{r.level:.2f}")
            if not r.level_shown:
                case += aside(_("(far above the plot)"))
        self.query_one("#case", Readouts).show([(case, "")])
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.steps, r.c_repeated, _("c_t, the same update repeated"), GREEN),),
            lines=(Line(r.level, "i·ĉ/(1−f)", GREY),) if r.level_shown else (),
            xlim=(0, REPEATS), ylim=(0.0, r.y_top), xlabel=_("steps (c_0 = 1, ĉ = 1 every step)"),
        ))


class ForgetPathView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="at")
        yield Readouts(id="rnn")

    def show(self, s: ForgetPathState) -> None:
        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.hops, r.rnn, _("RNN product ({n}-token chain, W_h = {w_h})").format(n=r.rnn_tokens, w_h=f"{r.rnn_w_h:.2f}"),
                           RED),  # LSTM on top
                    Series(r.hops, r.lstm, f"LSTM f^k, f = {s.f:.2f}", GREEN)),
            cursor=float(s.k), xlim=(0, PATH_HOPS), ylim=(0.0, 1.05), xlabel=_("k: hops back from c_k to c_0"),
        ))
        self.query_one("#at", Readouts).show([
            (f"k = {s.k}:  f^k =", small(r.f_k)), (_("RNN product"), small(r.rnn_k))])
        below = str(r.rnn_below) if r.rnn_below is not None else _("never")
        seed = _("(source: hop {k})").format(k=r.seed_rnn_below.value)
        below += aside(seed)
        self.query_one("#rnn", Readouts).show([
            (_("RNN product below 0.01 from hop"), below), (f"f^{PATH_HOPS}", small(r.f_last)),
            ("\n" + _("source ≠ ours: {why}").format(why=_(r.seed_rnn_below.why)), "")])


class BiasView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="left")
        yield Readouts(id="why")

    def show(self, s: BiasState) -> None:
        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.b_f_grid, r.survival_curve, _("σ(b_f)^{k}: c_0 left after {k} steps").format(k=s.k),
                           GREEN),
                    Series(r.landmarks_b_f, r.landmarks_survival, _("b_f = 0 and b_f = 1"), GREY,
                           marker="◆", scatter=True)),
            cursor=s.b_f, log_y=True, xlabel=_("forget-gate bias b_f"),
        ))
        share = f" ({pct(r.survival, 2)})" if r.survival >= 1e-4 else ""
        self.query_one("#left", Readouts).show([
            ("b_f", f"{s.b_f:.2f}"), ("→ f = σ(b_f)", f"{r.f:.3f}"),
            (_("→ left after {k} steps f^{k}").format(k=s.k), small(r.survival) + share)])
        # (the caption's b_f = 0 was nowhere on screen at the topic's b_f = 1, the fix: a maths audit)
        why = readout_text([(_("zero init b_f = 0: f"), f"{r.landmarks_f[0]:.3f}"),
                            (_("→ left after {k} steps").format(k=s.k), small(r.landmarks_survival[0]))])
        why.append("\n")
        why.append_text(readout_text([(_("usual fix: initialise"), "b_f = 1"),
                                      (_("(Gers et al. 2000; Jozefowicz et al. 2015)"), "")]))
        why.append("\n" + _("how long a gap it holds: topic 7 (memory) trains b_f = 1 and b_f = 2"), style="dim")
        self.query_one("#why", Readouts).update(why)  # ("the fix" read against memory/copy's b_f = 1 failing at
        # T = 40, a student's trial: it is the usual one, and the copy task measures how far it goes)


class GruView(FigureView):
    def compose(self):
        yield GateBar("LSTM", label_width=5, id="bar-lstm")
        yield GateBar("GRU", label_width=5, id="bar-gru")
        yield Readouts(id="sum")
        yield Plot()

    def show(self, s: GruState) -> None:
        r = s.readings()
        for cell, part, write, state in (("lstm", r.lstm, _("write i"), f"c_t {r.lstm['c']:.2f}"),
                                         ("gru", r.gru, _("write 1−f"), f"h_t {r.gru['h']:.2f}")):
            lengths = part["kept"], part["written"], part["discarded"]
            segments = update_segments(lengths, _("keep f"), write, _("discard"))
            segments.append(Segment(0.0, _("not written"), "dim", "·", f"{r.not_written[cell]:.2f}"))  # (the ·· cells)
            self.query_one(f"#bar-{cell}", GateBar).show(segments, scale=2.0, suffix=state)
        self.query_one("#sum", Readouts).show([  # (c_t 1.80 read as a cell's value, its inputs unsaid: a maths audit)
            (_("c_{t−1} = ĉ = 1:  keep + write:  LSTM f + i ="), f"{r.lstm_sum:.2f}"),
            ("GRU f + (1−f) =", f"{r.gru_sum:.2f}")])
        self.query_one(Plot).show(PlotSpec(
            xlim=(0.0, 1.0), ylim=(0.0, 1.0), xlabel=_("keep f →   write ↑ (LSTM i, GRU 1 − f)"),  # (no word for y, a trial)
            series=(Series(r.line_keep, r.line_write, _("GRU: write = 1 − keep"), ORANGE),
                    Series((s.f,), (s.i,), _("LSTM: (f, i)"), GREEN, marker="●", scatter=True),
                    # (on its own orange line the ◆ was nearly invisible in a PNG, and for a colour-blind reader: an
                    # accessibility trial)
                    Series((s.f,), (r.gru_write,), _("GRU: (f, 1 − f)"), PURPLE, marker="◆", scatter=True)),
        ))


class ParamsView(FigureView):
    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """The bars give up rows for the plot down to 2 each; where that leaves it too few, they keep up
        to 4 and the plot's line says how many rows more show it (its own shortfall was 6 too many).
        Worked out again after the layout a change asks for, until nothing changes: the rows above the
        plot may not have been laid out yet (opened at this figure, the readouts were empty: 4-row bars
        pushed the plot's line off the screen)."""
        bars, plot = list(self.query(GateBar)), self.query_one(Plot)
        # the rows the bars' tracks and the plot share: the view's less what sits above the plot but the bars'
        # tracks (from where the plot is, not its height: shrunk, the last layout ran past the view and the
        # plot's 0 rows left the bars at 4, a review)
        above = plot.region.y - self.content_region.y - sum(bar.region.height for bar in bars)  # (one layout)
        room, least, small = self.content_region.height - above, plot.fewest(), plot.smallest()
        fit = (room - least) // len(bars)  # a bar's rows with the plot under the bars
        if fit < 2 and (room - small) // len(bars) >= 2:  # the bars at 2 rows, the plot in its smallest form
            fit = 2
        rows = min(fit, 4) if fit >= 2 else min(max((room - 1) // len(bars), 1), 4)
        more = None if fit >= 2 else small + 2 * len(bars) - room
        if (more, rows) == (plot.more, bars[0].rows):
            return
        plot.lacks(more)
        for bar in bars:
            bar.rows = rows
            lay_out(bar)
        self.call_after_refresh(self.fit)

    def compose(self):
        for cell in ("RNN", "GRU", "LSTM"):
            yield GateBar(cell, label_width=5, legend=False, rows=2, id=f"bar-{cell.lower()}")
        yield Readouts(id="block")
        yield Readouts(id="exact")
        yield Readouts(id="budget")
        yield extra_plot(least=12)  # (log on both axes: 9 rows gave the decades of y 3 rows, the curves one path)

    def show(self, s: ParamsState) -> None:
        r = s.readings()
        for cell, n in r.counts.items():
            parts = [Segment(r.block, _("block"), KEPT, "█")] * r.blocks[cell]
            self.query_one(f"#bar-{cell.lower()}", GateBar).show(
                parts, scale=r.bar_scale, suffix=f"{count(n):>7} = {r.blocks[cell]}×")
        self.query_one("#block", Readouts).show([
            (_("one block = 2d² + d = 2·{d}² + {d} =").format(d=s.d), f"{r.block:,}")])
        self.query_one("#exact", Readouts).show([(cell, f"{n:,}") for cell, n in r.counts.items()])
        widths = r.width_at_lstm_budget
        self.query_one("#budget", Readouts).show([
            (_("for the LSTM's {n}:  RNN d ≈").format(n=count(r.counts['LSTM'])), f"{widths['RNN']:.0f}"),
            ("GRU d ≈", f"{widths['GRU']:.0f}"), ("LSTM d =", f"{s.d}")])
        budget = _("the LSTM's {n}").format(n=count(r.counts["LSTM"]))
        self.query_one(Plot).show(PlotSpec(  # where each curve meets the line: the RNN's d just above
            # (not the GRU's: 3 blocks to the LSTM's 4 is 0.12 of a decade, and the two curves took turns in one
            # path of cells, a newcomer's trial)
            series=tuple(Series(r.curve_d, r.curves[cell], cell, color) for cell, color in (("RNN", GREY), ("LSTM", BLUE))),
            lines=(Line(r.counts["LSTM"], budget, GREY, dashed=True),), cursor=float(s.d),
            xlim=(r.curve_d[0] / 1.2, r.curve_d[-1] * 1.2), log_x=True, log_y=True, xlabel=_("width d"),
            legend="below"))  # (the x range padded: the cursor at d 64 ran into the frame)


class LstmScreen(TopicScreen):
    TOPIC_ID = "lstm"
    TITLE = N_("The gate that keeps the product alive")
    SHARED = ("b_f",)  # the forget-gate bias of the cell and of the bias figure
    FIGURES = (
        Figure("cell", N_("The cell on the token track"), "F10", CellState, CellView,
               N_("c runs on a plain line: c_t = f·c_{t−1} + i·ĉ_t, one multiply and one add, no W, no tanh. "
                  "This identity path is the LSTM's residual connection in time.")),
        Figure("gates", N_("Gates as proportions"), "F11", GatesState, GatesView,
               N_("f keeps part of c_{t−1}, i writes part of the candidate ĉ, the rest is discarded. "
                  "f = 1 makes a pure accumulator; f = 0 forgets in one step."), key_steps=(0.0, 0.7, 1.0)),
        Figure("path", N_("The only path back to c_0"), "F12", ForgetPathState, ForgetPathView,
               N_("Along the cell state, from c_k back to c_0 there is one path, k forget gates: f^k and nothing "
                  "else (the routes through h and the gates aside). The RNN's product of tanh'·W_h (see gradients) "
                  "is near 0 within about ten hops."), key_steps=(0, 10, 50, 100)),
        Figure("bias", N_("The forget-gate bias"), "F13", BiasState, BiasView,
               N_("At initialisation the weights are near 0, so f ≈ σ(b_f). b_f = 0 gives f = 0.5: the cell halves "
                  "itself every step and the path is shut from the start."), key_steps=(0.0, 1.0, 2.0)),
        Figure("gru", N_("The GRU's coupled gate"), "F16", GruState, GruView,
               N_("The GRU (Cho 2014) writes 1 − f where the LSTM writes i: one decision, so it cannot keep the "
                  "old state and write hard in the same step."), key_steps=(0.5, 0.9, 1.0)),
        Figure("params", N_("The parameter bill"), "F17", ParamsState, ParamsView,
               N_("Each gate is one d×2d matrix on [h, x] plus a bias, a block of 2d² + d: RNN 1 block, GRU 3, "
                  "LSTM 4. The state is still one vector of d numbers."), key_steps=(64, 256, 1024, 4096)),
    )
