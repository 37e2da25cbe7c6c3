"""T1 `recurrence`: one token at a time."""
from __future__ import annotations

from rich.text import Text

from rnntui.figure import Figure
from rnntui.fmt import fixed, paren, term
from rnntui.i18n import N_, _, spaced
from rnntui.figures.recurrence import LAST_T, N_TOKENS, ReadoutState, TanhState, TrackState
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.lines import EXTRA_ROWS
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BLUE, GREY, ORANGE
from rnntui.widgets.track import CellColumns, Row, TokenTrack, upto


class TrackView(FigureView):
    def compose(self):
        yield TokenTrack(below=EXTRA_ROWS)  # its boxes grow taller only where the plot under them still fits
        yield Readouts(id="step")
        yield Readouts(id="final")
        yield Readouts(id="invariant")

    plotting = False  # its plot is mounted, or will be after the frame that first draws the figure

    async def _add_plot(self) -> None:
        from rnntui.widgets.plot import extra_plot

        # made with what it draws: mounted empty, it was drawn for a frame or more as "a terminal 3 rows taller
        # shows a plot here" (80x24) or an empty frame on another y axis (a trial)
        await self.mount(extra_plot(spec=None if self.drawn is None else self._spec(self.drawn)))

    def show(self, s: TrackState) -> None:
        r, t = s.readings(), s.step
        self.query_one(TokenTrack).show((Row("h", upto(r.h, t, N_TOKENS), "→"), Row("x", r.tokens)), t)
        prev = paren(r.h_prev) if t else "0"
        self.query_one("#step", Readouts).show([
            (f"h_{t} = tanh({s.w_h:.2f}·{prev} {term(s.w_x)}·{paren(r.tokens[t], 1)} {term(s.b)}) = "
             f"tanh({fixed(r.z[t], 3)}) =", fixed(r.h[t], 3)),
        ])
        if t == LAST_T:
            final = fixed(r.h[-1], 3)
        else:
            final = _("not computed yet") if self.presenting else _("not computed yet (end jumps there)")
        done = _("{n} of {total}").format(n=t + 1, total=N_TOKENS)
        self.query_one("#final", Readouts).show([(_("steps computed"), done),
                                                 (_("final state h_{t}").format(t=LAST_T), final)])
        invariant = (_("h_t is a function of x_0 … x_t only; the dashed cells have not been computed, not hidden.")
                     if t < LAST_T else
                     _("h_t is a function of x_0 … x_t only; each cell was computed only when its token arrived."))
        self.query_one("#invariant", Readouts).update(Text.assemble((spaced(_("Invariant:")), "bold"), invariant))
        self._plot(s)

    def _plot(self, s: TrackState) -> None:
        """h_t computed so far, against t. The plot comes after the first frame that draws
        the figure: the app's first frame is this figure, and need not wait for the plot widget's import
        and numpy's (~25 + 60 ms; the bare app's whole start is ~300)."""
        plot = next(iter(self.query("Plot")), None)
        if plot is None:
            if not self.plotting:
                self.plotting = True
                later = getattr(self.app, "after_first_frame", self.call_later)  # (present: at once)
                later(self._add_plot)
            return
        plot.show(self._spec(s))

    @staticmethod
    def _spec(s: TrackState):
        from rnntui.widgets.plot import Line, PlotSpec, Series

        r, ts = s.readings(), tuple(range(s.step + 1))
        return PlotSpec(  # (the tokens in it hid the states' points: they stay in the track)
            series=(Series(ts, r.h, _("h_t, computed so far"), BLUE),),
            lines=(Line(0.0, "", GREY),), cursor=float(s.step), xlim=(-0.5, LAST_T + 0.5), ylim=(-1, 1), xlabel="t",
            xcols=CellColumns(LAST_T + 1),  # t under its cell
        )


class TanhView(FigureView):
    # the plot widget is imported when this figure is first shown: the app's first frame
    # (recurrence/track) draws no plot and need not pay its import (~5 ms of the start)
    def compose(self):
        from rnntui.widgets.plot import Plot

        yield Plot()
        yield Readouts()

    def show(self, s: TanhState) -> None:
        from rnntui.widgets.plot import Line, Plot, PlotSpec, Series

        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.curve_z, r.curve, "tanh(z)", BLUE), Series(r.tangent_z, r.tangent, _("tangent"), ORANGE,
                                                                             behind=True)),
            lines=(Line(0.0, "", GREY),),
            cursor=None, xlim=(-4, 4), ylim=(-1.2, 1.2), xlabel="z",
            marks=((s.z, r.tanh, "●"),),
        ))
        self.query_one(Readouts).show([("z", f"{s.z:+.2f}"), ("tanh(z)", f"{r.tanh:+.3f}"),
                                       (_("slope tanh'(z)"), f"{r.slope:.3f}")])


class ReadoutView(FigureView):
    def compose(self):
        yield TokenTrack()
        yield Readouts()

    def show(self, s: ReadoutState) -> None:
        r, t = s.readings(), s.step
        if s.head == "cls":  # one output, at the last position, once it exists
            y_row = tuple(r.outputs.get(i, "") for i in range(LAST_T)) + (r.outputs.get(LAST_T),)
            words = [(_("head"), _("classification: one output, read from the last state")),
                     (f"ŷ = σ({r.w_y:g}·h_{LAST_T})",
                      fixed(r.outputs[LAST_T], 3) if r.outputs else _("waits for the last token"))]
        else:
            y_row = upto(tuple(r.outputs.get(i) for i in range(N_TOKENS)), t)
            words = [(_("head"), _("sequence labelling: one output per position")),
                     # the output under ▼ worked out, as classification's is (a student's trial)
                     (f"ŷ_{t} = σ({r.w_y:g}·h_{t})", fixed(r.outputs[t], 3)),
                     (_("outputs so far"), _("{n} of {total}").format(n=len(r.outputs), total=N_TOKENS))]
        words.append((_("σ(z) = 1/(1+e^−z), the sigmoid: ŷ_t = σ({w}·h_t), {w} the head's fixed weight").format(
            w=f"{r.w_y:g}"), ""))  # (neither σ nor the 2 was said, a trial)
        self.query_one(TokenTrack).show((Row("ŷ", y_row), Row("h", upto(r.h, t, N_TOKENS), "→"), Row("x", r.tokens)), t)
        self.query_one(Readouts).show(words, sep="\n")


class RecurrenceScreen(TopicScreen):
    TOPIC_ID = "recurrence"
    TITLE = N_("One token at a time")
    SHARED = ("w_h", "w_x", "b")  # one network for the topic: the track and the readout read the same states
    FIGURES = (
        Figure("track", N_("Token track"), "F1+F3", TrackState, TrackView,
               N_("The RNN reads left to right and keeps one number, h. Each step mixes the old h with the "
                  "new token and squashes the sum with tanh. W_h is shared by every step: change it and all "
                  "states move."),
               key_steps=tuple(range(N_TOKENS))),
        Figure("tanh", N_("The squashing curve"), "F2", TanhState, TanhView,
               N_("tanh folds any pre-activation into (−1, 1). Its slope at the current point is what the "
                  "gradient is multiplied by on the way back: steep at 0, flat once the unit saturates."),
               key_steps=(0.0, 2.0)),  # the seed's two readings: slope 1.000 and 0.071
        Figure("readout", N_("Reading the state out"), "F4", ReadoutState, ReadoutView,
               N_("The same states feed two kinds of head: classification reads only the last state; "
                  "sequence labelling reads one output at every position as soon as that state exists."),
               key_steps=(3, LAST_T)),
    )
