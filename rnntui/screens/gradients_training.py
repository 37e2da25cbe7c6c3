"""T2 `gradients`, the last two figures' views: gradient clipping, and BPTT measured in 64 dimensions."""
from __future__ import annotations

from rnntui.figures.gradients import BpttState, ClipState
from rnntui.fmt import pct, sci3, vector
from rnntui.i18n import _
from rnntui.screens.base import FigureView
from rnntui.widgets.picture import Picture
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.table import table_text
from rnntui.widgets.tints import BLUE, GREEN, GREY, ORANGE, RED


class ClipView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="big")
        yield Readouts(id="small")

    def show(self, s: ClipState) -> None:
        r, v = s.readings(), s.readings().chain
        lo, hi = r.curve_before[0], r.curve_before[-1]
        kind = v.kind
        named = {"exploding": _("exploding g (F7)"), "vanishing": _("vanishing g"), "steady": _("steady g (F7)")}
        ours = (Series((v.norm,), (v.clipped_norm,), named[kind], BLUE,
                       marker="○", scatter=True),) if v.norm > 0 else ()  # (0 has no place on a log axis)
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.curve_before, r.curve_before, _("no clipping"), GREY),
                    Series(r.curve_before, r.curve_after, _("clipped"), ORANGE),
                    Series((r.norm,), (r.clipped_norm,), _("exploding g"), RED, marker="●", scatter=True), *ours),
            lines=(Line(s.threshold, _("threshold {value}").format(value=f"{s.threshold:g}"), ORANGE, dashed=True),),
            xlim=(lo, hi), ylim=(lo, hi), log_x=True, log_y=True,
            xlabel=_("‖g‖ before clipping (log)"), legend="below",
        ))
        norm, threshold = f"{r.norm:.1f}", f"{s.threshold:g}"
        rule = (_("exploding ‖g‖ {norm} ≥ {threshold}: scale {threshold}/{norm} =") if r.clips
                else _("exploding ‖g‖ {norm} < {threshold}: scale")).format(norm=norm, threshold=threshold)
        self.query_one("#big", Readouts).show([
            (rule, scale_shown(r.scale)), (_("after"), f"{r.clipped_norm:.2f}"),
            ("\n  g " + vector(r.g) + " →", vector(r.clipped)), (_("same direction"), "")])
        small = sci3(v.norm)
        if v.clips:  # (at ReLU, W_h 1.40 it is 5.0e5: clipped like the other, a researcher; under a threshold
            rule = {"exploding": _("exploding ‖g‖ {norm} ≥ {threshold}: scale {threshold}/{norm} ="),  # below 1
                    "steady": _("steady ‖g‖ {norm} ≥ {threshold}: scale {threshold}/{norm} ="),  # the others too)
                    "vanishing": _("vanishing ‖g‖ {norm} ≥ {threshold}: scale {threshold}/{norm} =")}[kind].format(
                norm=small, threshold=threshold)
            after = f"{v.clipped_norm:.2f}"
        else:
            rule = {"exploding": _("exploding ‖g‖ {norm} < {threshold}: scale"),
                    "steady": _("steady ‖g‖ {norm} < {threshold}: scale"),
                    "vanishing": _("vanishing ‖g‖ {norm} < {threshold}: scale")}[kind].format(norm=small,
                                                                                          threshold=threshold)
            after = sci3(v.clipped_norm) + " " + _("unchanged")
        source = (_("(from the factors figure: its {n} hops multiplied, W_h {w_h}, {act})") if v.norm else  # (where
                  _("(from the factors figure: its {n} hops multiplied, W_h {w_h}, {act}: a factor of exactly 0)"))
        self.query_one("#small", Readouts).show([  # 7.85e-09 came from was said nowhere, a student's trial)
            (rule, scale_shown(v.scale)), (_("after"), after),
            (source.format(n=v.hops, w_h=f"{v.w_h:.2f}", act=v.act), "")])


def scale_shown(scale: float) -> str:
    """A clipping scale to 4 figures, its zeros kept (10/84 read 0.119 beside 5/84's 0.05952, a keyboard audit);
    1, no scaling, as 1."""
    return "1" if scale == 1 else f"{scale:#.4g}"


def source_note(r) -> str:
    """The source's four numbers beside ours (under the table where the plot keeps its rows; in help)."""
    (a, b, e), one = r.seed_norms, r.seed_share  # (e: its "60 步外 10⁻¹⁰" went unremarked, a researcher)
    # ("reads as", "match": how it meant them is inferred, not printed; "is a share" said it as fact, a maths audit)
    return _("source: its {one_said} (c={one_c}, at {one_d}) reads as a share, ours {ours_one}; its {a_said} "
             "(c={a_c}, at {a_d}), {b_said} (c={b_c}, at {b_d}) and {e_said} (c={e_c}, at {e_d}) match its code's "
             "norms {na}, {nb}, "
             "{ne}, ÷ ‖∂L/∂h_T‖ = 8: shares {a}, {b}, {e}; ours {ours_a}, {ours_b}, {ours_e} (another "
             "draw)").format(
        one_said=one.said, one_c=one.c, one_d=one.distance, ours_one=pct(r.table[one.c][str(one.distance)]),
        **{f"{k}_{w}": v for k, n in zip("abe", (a, b, e)) for w, v in (("said", n.said), ("c", n.c), ("d", n.distance))},
        # the code's norms as it prints them: 0.7% ÷ 8 is 8.75e-04, not the 9.13e-04 shown (7.3e-3 ÷ 8), a student
        **{f"n{k}": f"{n.norm:.1e}" for k, n in zip("abe", (a, b, e))},
        **{k: sci3(n.share) for k, n in zip("abe", (a, b, e))},
        **{f"ours_{k}": sci3(r.relative_norms[n.c][n.distance]) for k, n in zip("abe", (a, b, e))})


class BpttView(FigureView):
    COLORS = {"0.5": GREEN, "1.0": BLUE, "1.5": ORANGE}

    @classmethod
    def explained(cls, s: BpttState) -> str:
        """Help: the draws in the order the seed makes them, so a reader can redo the numbers."""
        return _("To redo it: numpy's default_rng(seed) draws, with standard_normal, W₀ ({d}×{d}), then x ({T}×{d}), "
                 "then v ({d}); W = c·W₀/√{d}, x times the input std, the same draws for every c. "
                 "h_t = act(W·h_{{t−1}} + x_t) from h = 0, loss v·h_T, ∂L/∂h_{{t−1}} = Wᵀ(act'(z_t) ⊙ ∂L/∂h_t).").format(
                     d=s.readings().d, T=s.readings().T) + ("\n" + source_note(s.readings())
                                                          if s.readings().seed_norms else "")

    REDRAW_ON_RESIZE = True  # the source's note only where the plot keeps its rows
    PLOT_ROWS = 9  # a plot of 30 decades needs 4 rows of curves: with 2 (zh at 80x24, under the source's 4-line
    # note) c=1.5's 4.66e-05 sat on the ×1 line (a Chinese student's trial); help has the note
    TABLE_ROWS, NOTE_ROWS = 4, 4  # the table's header and three c rows; the note's lines (4 in Chinese at 80)

    def roomy(self) -> bool:
        """Room for the source's note under the table and PLOT_ROWS for the plot."""
        return not self.size.height or self.size.height - self.TABLE_ROWS - self.NOTE_ROWS >= self.PLOT_ROWS

    def compose(self):
        yield Plot()
        yield Picture(id="table")
        yield Readouts(id="seed")

    def show(self, s: BpttState) -> None:
        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=tuple(Series(r.distances, v, f"c={c}" + (" ◂" if c == s.c else ""), self.COLORS[c])
                         for c, v in r.relative_norms.items()),
            lines=(Line(1.0, "×1", GREY, dashed=True, align="right"),),
            cursor=s.distance, xlim=(0, r.T), log_y=True,
            xlabel=_("distance T − t from the loss"), legend="below",
        ))
        header = (f"‖∂L/∂h_t‖ ÷ ‖∂L/∂h_T‖, {s.act}", *(_("at {d}").format(d=d) for d in BpttState.TABLE),
                  _("cursor {d}").format(d=s.distance))
        rows = [(f"c={c}" + (" ◂" if c == s.c else ""), *(sci3(v) for v in row.values()), sci3(r.at_cursor[c]))
                for c, row in r.table.items()]
        self.query_one("#table", Picture).update(table_text("", header, rows, bold=(f"c={s.c} ◂",),
                                                           right=range(1, len(header)),
                                                           width=self.content_region.width or None,
                                                           keep=(len(header) - 1,)))  # (the cursor's: ←→ move it)
        self.query_one("#seed", Readouts).display = (bool(r.seed_norms) and self.roomy()) or r.relu_seeds is not None
        if r.relu_seeds is not None:  # what this seed does beside what most do (the prose's "usually")
            many, c, T = r.relu_seeds, r.relu_seeds["c"], r.T
            end = r.relative_norms[c][T]
            said = (_("seed {seed}: c={c} grows to {value} at {d}, as in {grow} of seeds 0–{last}") if end > 1 else
                    _("seed {seed}: c={c} shrinks to {value} at {d}; {grow} of seeds 0–{last} grow"))
            self.query_one("#seed", Readouts).show([(said.format(
                c=c, seed=s.seed, value=sci3(end), d=T, grow=many["grow"], last=many["seeds"] - 1), "")])
        elif r.seed_norms and self.roomy():
            self.query_one("#seed", Readouts).show([(source_note(r), "")])
