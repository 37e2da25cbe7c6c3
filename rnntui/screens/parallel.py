"""T6 `parallel`: what dropping recurrence bought (depth, path length) and what it costs."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from rnntui.widgets.quiet import Static

from rnntui.figure import Figure, Lab
from rnntui.figures.parallel import TIMING_T, CapacityState, CostState, GridState, PathState, TimingState
from rnntui.fmt import ms, pct, progress_bar, share_words, si, times
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.sharebar import ShareBar
from rnntui.widgets.staircase import Staircase
from rnntui.widgets.table import table_text
from rnntui.widgets.tints import BAD, BLUE, GREY, ORANGE
from rnntui.widgets.wallclock import Tally, WallclockGrid


class GridView(FigureView):  # F15+F18
    def compose(self):
        yield Readouts(id="what")
        yield WallclockGrid(lane="pos")

    def show(self, s: GridState) -> None:
        r = s.readings()
        if s.mode == "recurrent":
            why = f"recurrent: position i waits for h_(i−1), depth {r.depth}"
        else:
            why = f"attention: positions read only the inputs, depth {r.depth}"
        self.query_one("#what", Readouts).show([("", why), ("outputs ready", f"{r.outputs_ready} of {s.n}")])
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
            how = f"token 0 → token {s.k}: {r.path_length} multiplications, through h_1 … h_{s.k}"
        else:
            how = f"token 0 → token {s.k}: 1 edge, position {s.k} attends to position 0 directly"
        self.query_one("#hops", Readouts).show([("", how)])
        self.query_one(Staircase).show(r.hops, s.n, s.k)
        self.query_one("#decay", Readouts).show([
            (f"×{r.factor:.2f} per hop leaves", f"{r.gain:.3f}"),
            (f"longest path, token 0 → {s.n - 1}:",
             f"{r.max_path_length} ({'O(n)' if s.mode == 'recurrent' else 'O(1)'})"),
        ])


SHORT = {"Self-Attention": "self-attn", "Recurrent": "recurrent", "Convolutional": "conv",
         "Self-Attention (restricted)": "restricted"}


def table_1_text(rows, compact: bool) -> Text:
    """Vaswani et al. 2017, Table 1; compact names for narrow screens."""
    return table_text("Table 1 (Vaswani 2017)" if compact else "Vaswani et al. 2017, Table 1",
                      ("" if compact else "layer", "per layer", "seq. ops", "max path"),
                      [(SHORT[r["layer"]] if compact else r["layer"], r["per_layer"], r["sequential"], r["max_path"])
                       for r in rows], bold=("Self-Attention", "Recurrent", "self-attn", "recurrent"), inline=compact)


class CostView(FigureView):  # F21
    def compose(self):
        yield Readouts(id="cross")
        with Horizontal(id="cost-body"):
            yield Plot()
            yield Static(id="table1")

    def on_resize(self, event) -> None:
        self.set_class(event.size.width >= 150, "wide")
        if getattr(self, "state", None) is not None:
            self.show(self.state)

    def show(self, s: CostState) -> None:
        self.state, r = s, s.readings()
        width, height = self.size.width or 200, self.size.height or 40
        self.query_one("#table1", Static).update(table_1_text(r.table_1, not self.has_class("wide")))
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.n_values, r.recurrent_cost, "", BLUE), Series(r.n_values, r.attention_cost, "", ORANGE)),
            lines=(Line(r.crossover_n, f"n = d = {r.crossover_n:g}", GREY, vertical=True),),
            cursor=s.n, log_x=True, log_y=True, ylim=r.ylim,
            xlabel="n (tokens); both axes log" if height >= 20 else "", marks=r.names,
        ))
        if r.attention_cheaper is None:
            verdict = "equal cost"
        else:
            verdict = f"attention {r.cost_ratio:.3g}× {'cheaper' if r.attention_cheaper else 'dearer'}"
        pairs = [("crossover", f"n = d = {r.crossover_n:g} tokens"), (f"at n = {s.n}:", verdict)]
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
            (f"{s.width} numbers shared by {s.n} token{'s' * (s.n != 1)}:", f"{r.share:.2f} each"),
            ("first token's share", f"{pct(r.first_share, 2)} of the state"),
        ], sep="\n")
        self.query_one(ShareBar).show(s.width, s.n)
        self.query_one("#note", Readouts).show(
            [("", "gates choose what stays in the state, not how big it is: doubling n halves every share")])


def timing_status(r) -> Text:
    out = Text(no_wrap=True, overflow="ellipsis")
    if r.status == "measuring":
        done, total, label = r.progress
        out.append("measuring ", style="bold")
        out.append(f"{label}  ▕{progress_bar(done, total)}▏ {done}/{total}   ")
        out.append("t cancels", style="dim")
    elif r.status == "note":
        out.append(r.note, style="bold")
    elif r.status == "problem":
        out.append(r.note, style=f"bold {BAD}")
    elif r.status == "unmeasured":
        out.append("not measured on this machine yet: ", style="bold")
        out.append("press t to run (torch, in the background, ~10 s)")
    else:
        m = r.machine
        out.append(f"measured on {m['host']} {m['when']}, torch {m['torch']}, {m['threads']} threads  ")
        out.append("t re-runs", style="dim")
    return out


class TimingView(FigureView):  # E6
    def compose(self):
        yield Static(id="status")
        yield Static(id="table")
        yield Readouts(id="compare")
        yield Readouts(id="convention")

    def show(self, s: TimingState) -> None:
        r = s.readings()
        table = Text(no_wrap=True, overflow="crop")
        table.append(f"{'T':>5}  {'FLOPs RNN':>9} {'attn':>6} {'RNN/attn':>8}   {'time RNN':>9} {'attn':>8}"
                     f"   {'GFLOP/s RNN':>11} {'attn':>5}\n", style="dim")
        for row in r.table:
            line = f"{row.T:>5}  {si(row.rnn_flops):>9} {si(row.attention_flops):>6} {str(row.flop_ratio):>8}   "
            if row.rnn_s is not None:
                line += (f"{ms(row.rnn_s):>9} {ms(row.attention_s):>8}   "
                         f"{row.rnn_gflop_s:>11.1f} {row.attention_gflop_s:>5.1f}")
            else:
                line += f"{'—':>9} {'—':>8}   {'—':>11} {'—':>5}"
            table.append(line + ("\n" if row is not r.table[-1] else ""), style="bold reverse" if row.T == s.T else "")
        self.query_one("#status", Static).update(timing_status(r))
        self.query_one("#table", Static).update(table)
        here, seed = r.here, r.seed_laptop
        said = f"RNN does {share_words(here.flop_ratio)}, " + (
            f"{times(here.speedup, 'faster', 'slower')}; attention runs at {here.rate_ratio:.2g}× its FLOP rate"
            if here.rnn_s is not None else "not measured yet")
        self.query_one("#compare", Readouts).show([
            (f"here, T={s.T}:", said),
            (f"seed laptop CPU, T={seed['T']}:",
             f"RNN does {share_words(r.seed_share)}, {seed['rnn_speedup']}× faster; attention runs at "
             f"{seed['rate_ratio']}× its FLOP rate; both < 1 ms below T={seed['under_1ms_below']}"),
        ], sep="\n")
        self.query_one("#convention", Readouts).show([
            ("FLOPs:", f"RNN 4·T·d² (W_ih·x, W_hh·h per step); attention core 4·T²·d (QKᵀ, A·V; the 8·T·d² "
                       f"of projections is timed, not counted). d={r.d}, batch 1, {r.heads} heads, CPU with torch's "
                       f"default thread count, median of up to 9 runs."),
        ])


class ParallelScreen(TopicScreen):
    TOPIC_ID = "parallel"
    TITLE = "What dropping recurrence bought"
    FIGURES = (
        Figure("grid", "Wallclock grid", "F15+F18", GridState, GridView,
               "Rows are positions, columns wallclock steps; a cell lights when its work happens. "
               "A recurrent layer is a chain; attention has nothing to wait for."),
        Figure("path", "Path between two tokens", "F19", PathState, PathView,
               "Each stair is one multiplication on the way from token 0 to token k. Recurrence "
               "stacks k of them; attention joins the two with one edge."),
        Figure("cost", "Cost per layer", "F21", CostState, CostView,
               "A recurrent layer does n·d² multiply–adds, attention n²·d. On log–log axes both are "
               "lines; attention's is steeper and crosses at n = d.", key_steps=(16, 64, 256, 512, 1024, 4096, 16384)),
        Figure("capacity", "Capacity of a fixed state", "F14", CapacityState, CapacityView,
               "A recurrent state keeps one fixed width however long the sequence: the longer it "
               "gets, the thinner each token's share.", key_steps=(1, 4, 16, 64, 256, 1024, 4096)),
        Figure("timing", "Timing lab", "E6", TimingState, TimingView,
               "nn.RNN against nn.MultiheadAttention, timed here (t runs or cancels). Fewer FLOPs "
               "are not less time: a chain of small steps cannot fill the hardware.",
               key_steps=TIMING_T, lab=Lab("rnntui.engine.lab_timing:run_lab", "measure")),
    )
