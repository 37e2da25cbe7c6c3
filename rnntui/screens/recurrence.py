"""T1 `recurrence`: one token at a time."""
from __future__ import annotations


from rnntui.engine import recurrence as rnn
from rnntui.figures.recurrence import LAST_T, ReadoutState, TanhState, TrackState
from rnntui.screens.base import Figure, FigureView, TopicScreen
from rnntui.widgets.plot import BLUE, GREY, ORANGE, Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.track import Row, TokenTrack

N = len(rnn.TOKENS)


class TrackView(FigureView):
    def compose(self):
        yield TokenTrack()
        yield Readouts(id="step")
        yield Readouts(id="final")
        yield Readouts("[b]Invariant:[/b] h_t is a function of x_0 … x_t only; "
                       "the dashed cells have not been computed, not hidden.", id="invariant")

    def show(self, s: TrackState) -> None:
        z, h = s.states()
        t = s.step
        cells = tuple(float(h[i]) if i <= t else None for i in range(N))
        self.query_one(TokenTrack).show((Row("h", cells, "→"), Row("x", rnn.TOKENS)), t)
        prev = f"{h[t - 1]:.3f}" if t else "0"
        self.query_one("#step", Readouts).show([
            (f"h_{t} = tanh({s.w_h:.2f}·{prev} + {s.w_x:.2f}·{rnn.TOKENS[t]} + {s.b:.2f}) = tanh({z[t]:.3f}) =", f"{h[t]:.3f}"),
        ])
        final = f"{h[-1]:.3f}" if t == N - 1 else "not computed yet (end jumps there)"
        self.query_one("#final", Readouts).show([("steps computed", f"{t + 1} of {N}"), ("final state h_7", final)])


class TanhView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts()

    def show(self, s: TanhState) -> None:
        zs, ys = s.curve()
        near, line = s.tangent()
        d = s.data()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(tuple(zs), tuple(ys), "tanh(z)", BLUE),
                    Series(tuple(near), tuple(line), "tangent", ORANGE)),
            lines=(Line(0.0, "", GREY),),
            cursor=None, xlim=(-4, 4), ylim=(-1.2, 1.2), xlabel="z",
            marks=((s.z, d["tanh"], "●"),),
        ))
        self.query_one(Readouts).show([
            ("z", f"{s.z:+.2f}"), ("tanh(z)", f"{d['tanh']:+.3f}"), ("slope tanh'(z)", f"{d['slope']:.3f}"),
        ])


class ReadoutView(FigureView):
    def compose(self):
        yield TokenTrack()
        yield Readouts()

    def show(self, s: ReadoutState) -> None:
        _, h = rnn.rnn_states(rnn.TOKENS, s.w_h)
        outputs = s.outputs()
        t = s.step
        y_row = tuple(outputs.get(i, "" if s.head == "cls" else None) for i in range(N))
        if s.head == "cls" and t < LAST_T:
            y_row = y_row[:-1] + (None,)
        states = tuple(float(h[i]) if i <= t else None for i in range(N))
        self.query_one(TokenTrack).show((Row("ŷ", y_row), Row("h", states, "→"), Row("x", rnn.TOKENS)), t)
        if s.head == "cls":
            words = [("head", "classification: one output, read from the last state"),
                     ("ŷ = σ(2·h_7)", f"{outputs[LAST_T]:.3f}" if outputs else "waits for the last token")]
            self.query_one(Readouts).show(words, sep="\n")
            return
        else:
            words = [("head", "sequence labelling: one output per position"),
                     ("outputs so far", f"{len(outputs)} of {N}")]
        self.query_one(Readouts).show(words, sep="\n")


class RecurrenceScreen(TopicScreen):
    TOPIC_ID = "recurrence"
    TITLE = "One token at a time"
    FIGURES = (
        Figure("track", "Token track", "F1+F3", TrackState, TrackView,
               "The RNN reads left to right and keeps one number, h. Each step mixes the old h with the "
               "new token and squashes the sum with tanh. W_h is shared by every step: change it and all states move.",
               key_steps=tuple(range(N))),
        Figure("tanh", "The squashing curve", "F2", TanhState, TanhView,
               "tanh folds any pre-activation into (−1, 1). Its slope at the current point is what the "
               "gradient is multiplied by on the way back: steep at 0, flat once the unit saturates.",
               key_steps=(0.0, 2.0)),  # the seed's two readings: slope 1.000 and 0.071
        Figure("readout", "Reading the state out", "F4", ReadoutState, ReadoutView,
               "The same states feed two kinds of head: classification reads only the last state; "
               "sequence labelling reads one output at every position as soon as that state exists.",
               key_steps=(3, LAST_T)),
    )
