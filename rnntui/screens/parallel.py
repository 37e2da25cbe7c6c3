"""T6 `parallel`: what dropping recurrence bought (depth, path length) and what it costs."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal

from rnntui.figure import Figure, Lab
from rnntui.figures.parallel import TIMING_T, CapacityState, CostState, GridState, PathState, TimingState
from rnntui.fmt import ratio, sci3, share, share_words, si, times
from rnntui.i18n import N_, _, ngettext, spaced
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.lines import wrap
from rnntui.widgets.picture import Picture
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series, extra_plot
from rnntui.widgets.quiet import Static
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.sharebar import ShareBar
from rnntui.widgets.staircase import Staircase
from rnntui.widgets.table import table_text
from rnntui.widgets.timing import timing_status, timing_table
from rnntui.widgets.tints import BLUE, GREEN, GREY, ORANGE
from rnntui.widgets.wallclock import Tally, WallclockGrid


class GridView(FigureView):  # F15+F18
    def compose(self):
        yield Readouts(id="what")
        yield WallclockGrid(lane=N_("pos"))

    def show(self, s: GridState) -> None:
        r = s.readings()
        if s.mode == "recurrent":
            why = _("recurrent: position i waits for h_{{i−1}}, depth {depth}").format(depth=r.depth)
        else:
            why = _("attention: positions read only the inputs, depth {depth}").format(depth=r.depth)
        self.query_one("#what", Readouts).show([("", why), (_("outputs ready"), _("{part} of {whole}").format(
            part=r.outputs_ready, whole=s.n))])
        tally = Tally(r.sequential_steps_used, r.busy_cells, r.cells, r.busy_per_step)
        self.query_one(WallclockGrid).show(r.busy, s.step, tally)


class PathView(FigureView):  # F19
    def compose(self):
        yield Readouts(id="hops")
        yield Staircase()
        yield Readouts(id="decay")

    def show(self, s: PathState) -> None:
        r = s.readings()
        if s.mode == "recurrent":
            through = "h_1" if s.k == 1 else "h_1, h_2" if s.k == 2 else f"h_1 … h_{s.k}"
            how = ngettext("token 0 → token {k}: {hops} multiplication, through {states}",
                           "token 0 → token {k}: {hops} multiplications, through {states}", r.path_length).format(
                k=s.k, hops=r.path_length, states=through)  # ("1 multiplications, through h_1 … h_1", a trial)
        else:
            how = _("token 0 → token {k}: 1 edge, position {k} attends to position 0 directly").format(k=s.k)
        self.query_one("#hops", Readouts).show([("", how)])
        behind = r.other if s.mode == "attention" else ()  # (said under it where it is drawn)
        self.query_one(Staircase).show(r.hops, s.n, s.k, behind, _("dim: the {k} stairs recurrence climbs").format(k=s.k))
        decay = [  # where the factor comes from, and the power it is raised to ("×0.90 per hop" was unexplained, a
            # trial); with tanh's slopes, as topic 2 walks them (W_h alone contradicted its 0.057, a student's trial)
            (_("×{factor} a hop (topic 1's default W_h) leaves").format(factor=f"{r.factor:.2f}"),
             f"{r.gain:.3f} = {r.factor:.2f}^{r.path_length}")] if s.mode == "recurrent" else [
            # one edge crosses no W_h ("×0.90 a hop leaves 0.900" read as attention decaying too, a student's trial)
            (_("one edge: no W_h to cross, where recurrence's {k} hops leave").format(k=s.k),
             f"{r.chain_gain:.3f} = {r.factor:.2f}^{s.k}")]
        if r.with_slopes is not None:
            decay.append((_("with tanh' on topic 1's tokens (topic 2):"), sci3(r.with_slopes)))
        decay.append((_("longest path, token 0 → {last}:").format(last=s.n - 1),
                      f"{r.max_path_length} ({'O(n)' if s.mode == 'recurrent' else 'O(1)'})"))
        self.query_one("#decay", Readouts).show(decay)


SHORT = {"Self-Attention": N_("self-attn"), "Recurrent": N_("recurrent"), "Convolutional": N_("conv"),
         "Self-Attention (restricted)": N_("restricted")}
LONG = {"Self-Attention": N_("Self-Attention"), "Recurrent": N_("Recurrent"), "Convolutional": N_("Convolutional"),
        "Self-Attention (restricted)": N_("Self-Attention (restricted)")}


def table_1_text(rows, compact: bool) -> Text:
    """Vaswani et al. 2017, Table 1; compact names for narrow screens."""
    names = SHORT if compact else LONG
    return table_text(_("Table 1 (Vaswani 2017)") if compact else _("Vaswani et al. 2017, Table 1"),
                      ("" if compact else _("layer"), _("per layer"), _("seq. ops"), _("max path")),
                      [(_(names[r.layer]), r.per_layer, r.sequential, r.max_path) for r in rows],
                      bold=tuple(_(names[k]) for k in ("Self-Attention", "Recurrent")), inline=compact)


class CostView(FigureView):  # F21
    REDRAW_ON_RESIZE = True  # laid out for its own size

    @classmethod
    def explained(cls, s: CostState) -> str:
        """Help: what the two costs count (a student took "attention 4× cheaper" for a whole layer's cost)."""
        return _("Both costs are Table 1's per-layer terms: the recurrence's W·h, n·d², and attention's scores "
                 "and mixing, n²·d. A whole layer also has projections of about n·d² each (attention: Q, K, V and "
                 "the output; the recurrence: W·x), which this plot leaves out; attention/block counts them for "
                 "one layer.")

    def compose(self):
        yield Readouts(id="cross")
        with Horizontal(id="cost-body"):
            yield Plot()
            yield Picture(id="table1")

    def on_resize(self, event) -> None:
        self.set_class(event.size.width >= 150, "wide")

    def show(self, s: CostState) -> None:
        r = s.readings()
        width, height = self.size.width or 200, self.size.height or 40
        self.query_one("#table1", Picture).update(table_1_text(r.table_1, not self.has_class("wide")))
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.n_values, r.recurrent_cost, "", BLUE), Series(r.n_values, r.attention_cost, "", ORANGE)),
            lines=(Line(r.crossover_n, f"n = d = {r.crossover_n:g}", GREY, vertical=True),),
            cursor=s.n, log_x=True, log_y=True, ylim=r.ylim,
            xlabel=_("n (tokens); both axes log") if height >= 20 else "",
            marks=tuple((x, y, _(name)) for x, y, name in r.names),
        ))
        if r.attention_cheaper is None:
            verdict = _("equal cost")
        else:
            verdict = (_("attention {ratio}× cheaper") if r.attention_cheaper else
                       _("attention {ratio}× dearer")).format(ratio=ratio(r.cost_ratio))
        pairs = [(_("crossover"), _("n = d = {n} tokens").format(n=f"{r.crossover_n:g}")),
                 (_("at n = {n}:").format(n=s.n), verdict)]
        if width >= 100:
            pairs += [("n·d²", si(r.at_n["recurrent"])), ("n²·d", si(r.at_n["attention"]))]
        self.query_one("#cross", Readouts).show(pairs)


class CapacityView(FigureView):  # F14
    def compose(self):
        yield Readouts(id="share")
        yield ShareBar()
        yield Readouts(id="note")

    def show(self, s: CapacityState) -> None:
        r = s.readings()
        self.query_one("#share", Readouts).show([
            ((_("{width} numbers shared by {n} token:") if s.n == 1 else
              _("{width} numbers shared by {n} tokens:")).format(width=s.width, n=s.n),
             # whole shares whole, exact ones exact, others to 4 figures: "16.00 each", "3.12%" for 1/32 (a trial;
             # 0.125 read 0.12), 1.7067 (a student's trial)
             _("{share} each").format(share=share(r.share))),
            (_("first token's share"), _("{share} of the state").format(share=f"{share(100 * r.first_share)}%")),
        ], sep="\n")
        self.query_one(ShareBar).show(s.width, s.n)
        self.query_one("#note", Readouts).show(
            [("", _("gates choose what stays in the state, not how big it is: doubling n halves every share"))])


class TimingView(FigureView):  # E6
    REDRAW_ON_RESIZE = True  # laid out for its own size

    @classmethod
    def explained(cls, s: TimingState) -> str:
        """Help: how the two sides were timed (the source's modules stayed in training mode, a mathematician)."""
        return _("Here both layers run as inference does: eval mode, under torch.inference_mode, where torch "
                 "takes its fused attention kernel. The source's code never called .eval(): its attention took "
                 "torch's slower training-mode path, so its attention times are longer for that as well as for "
                 "its machine. Both call attention alike, its weights computed.")

    def compose(self):
        yield Static(id="status")
        yield Picture(id="table")
        yield Readouts(id="compare")
        yield Readouts(id="convention")
        yield extra_plot()

    spaced = False  # a blank line between the table's rows

    def _spaced(self, r) -> bool:
        """Blank lines between the rows from 24 rows up, where the plot keeps twice its least rows with them:
        the rows a plot-less view's line asks for then bring the plot, not the blank lines (they went to the
        blank lines); and a plot in its fewest rows has them first (at 100x30, the lecture's slide, it drew 3
        decades in 4 rows under 3 blank lines, a lecturer's slides; the app too)."""
        blanks, plot = len(r.table) - 1, self.query_one(Plot)
        room = plot.size.height + (blanks if self.spaced else 0)  # the plot's rows with the rows single
        self.spaced = (self.size.height or 0) >= 24 and room - blanks >= 2 * plot.least
        return self.spaced

    def show(self, s: TimingState) -> None:
        r = s.readings()
        status, said = self.query_one("#status", Static), timing_status(r, self.presenting)
        whole = r.status in ("note", "problem") or bool(r.note)  # (wrapped: "…was corrupt (not JSON
        # (Unterminated string star…" hid what was done with the file and what comes next, a trial)
        status.set_class(whole, "-whole")
        if whole and self.size.width:  # as prose is: Rich broke Chinese at spaces only, 17 cells short (a review)
            said.no_wrap, said.overflow = False, "fold"
            said = Text("\n").join(wrap(said, self.size.width, self.app.console))
        status.update(said, layout=whole or None)  # (a note's lines are counted anew)
        self.query_one("#table", Picture).update(timing_table(r.table, s.T, "\n\n" if self._spaced(r) else "\n"))
        here, seed = r.here, r.seed_laptop
        said = spaced(_("RNN does {share},").format(share=share_words(here.flop_ratio))) + (
            # (rate_ratio: attention's FLOP/s over the RNN's; "its FLOP rate" left whose open, a trial)
            _("{speed}; attention runs at {rate}× the RNN's FLOP rate").format(
                speed=times(here.speedup, _("{x}× faster"), _("{x}× slower")), rate=ratio(here.rate_ratio))
            if here.rnn_s is not None else _("not measured yet"))
        self.query_one("#compare", Readouts).show([
            (_("here, T={T}:").format(T=s.T), said),
            (_("source's laptop CPU, T={T}:").format(T=seed["T"]),
             _("RNN does {share}, {speedup}× faster; attention runs at {rate}× the RNN's FLOP rate; both <\u00a01\u00a0ms "
               "below "
               "T={below}").format(share=share_words(r.seed_share), speedup=seed["rnn_speedup"],
                                   rate=seed["rate_ratio"], below=seed["under_1ms_below"])),
        ], sep="\n")
        widest = r.widest
        noise = "" if widest is None else (
            _("Repeats differed by up to {spread}× (T={T}): a busy machine; t measures again.") if widest.busy
            else _("Repeats differed by up to {spread}× (T={T}).")).format(spread=f"{widest.spread:.1f}", T=widest.T)
        said = _("RNN 4·T·d² (W_ih·x, W_hh·h per step); attention core 4·T²·d (QKᵀ, A·V; the 8·T·d² of projections "
                 "is timed, not counted). d={d}, batch 1, {heads} heads, CPU with torch's default thread count, "
                 "median of up to 9 runs.").format(d=r.d, heads=r.heads)
        self.query_one("#convention", Readouts).show([  # (no space after 。, a Chinese trial: spaced)
            (_("FLOPs:"), spaced(said) + noise if noise else said)])
        ratios = r.ratios
        timed = ratios["time"]
        series = [Series(ratios["T"], ratios["flops"], _("FLOPs (d/T)"), BLUE)]
        if timed:  # (one point alone: a square, not the cursor's dot)
            series.append(Series(tuple(float(T) for T, _v in timed), tuple(v for _T, v in timed), _("time here"),
                                 ORANGE, marker="braille" if len(timed) > 1 else "■", scatter=len(timed) < 2))
        seed_T, seed_ratio = ratios["seed"]
        series.append(Series((float(seed_T),), (seed_ratio,), _("time, source's laptop"), GREEN, marker="◆", scatter=True))
        self.query_one(Plot).show(PlotSpec(
            series=tuple(series), lines=(Line(1.0, "", GREY),), cursor=float(s.T), log_x=True, log_y=True,
            xlabel=_("T; RNN ÷ attention, both axes log")))


class ParallelScreen(TopicScreen):
    TOPIC_ID = "parallel"
    TITLE = N_("What dropping recurrence bought")
    SHARED = ("mode",)  # recurrent or attention, for the grid and the path alike
    FIGURES = (
        Figure("grid", N_("Wallclock grid"), "F15+F18", GridState, GridView,
               N_("Rows are positions, columns wallclock steps; a cell lights when its work happens. "
                  "A recurrent layer is a chain; attention has nothing to wait for.")),
        Figure("path", N_("Path between two tokens"), "F19", PathState, PathView,
               N_("Each stair is one multiplication on the way from token 0 to token k. Recurrence "
                  "stacks k of them; attention joins the two with one edge.")),
        Figure("cost", N_("Cost per layer"), "F21", CostState, CostView,
               N_("A recurrent layer does n·d² multiply–adds, attention n²·d. On log–log axes both are "
               "lines; attention's is steeper and crosses at n = d."), key_steps=(16, 64, 256, 512, 1024, 4096, 16384)),
        Figure("capacity", N_("Capacity of a fixed state"), "F14", CapacityState, CapacityView,
               N_("A recurrent state keeps one fixed width however long the sequence: the longer it "
               "gets, the thinner each token's share."), key_steps=(1, 4, 16, 64, 256, 1024, 4096)),
        Figure("timing", N_("Timing lab"), "E6", TimingState, TimingView,
               N_("nn.RNN against nn.MultiheadAttention, timed here (t runs or cancels). 1/16 the "
               "FLOPs is not 1/16 the time: serial steps cannot fill the hardware."),  # (two lines at 80 columns)
               key_steps=TIMING_T, lab=Lab("rnntui.engine.lab_timing:run_lab", N_("measure"))),
    )
