"""T4 `seq2seq`: the bottleneck, and attention's birth — a trained alignment matrix, live training."""
from __future__ import annotations

import threading
import time
from dataclasses import replace

import numpy as np
from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from rnntui.engine import seq2seq as s2s
from rnntui.figures.seq2seq import ORDER, Live, MatrixState, ScoringState, VisibilityState, letters
from rnntui.figure import Figure
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.alignment import LEGEND, AlignmentMatrix, bars_text
from rnntui.widgets.plot import BLUE, GREY, ORANGE, Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BAD, GOOD

COLOURS = {"additive": BLUE, "dot": ORANGE, "none": GREY}
LIVE_STEPS = 1000  # a live run's length (t stops it sooner)


def pct(x: float | None) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{100 * x:.1f}%"


def progress_bar(done: int, total: int, width: int = 16) -> str:
    filled = 0 if total <= 0 else round(width * min(max(done / total, 0.0), 1.0))
    return "█" * filled + "░" * (width - filled)


class MatrixView(FigureView):
    DEFAULT_CSS = """
    MatrixView Horizontal { height: 1fr; }
    MatrixView AlignmentMatrix { margin-right: 2; }
    MatrixView #side { width: 1fr; }
    MatrixView #side Static { margin-bottom: 1; }
    MatrixView #side #live { margin-bottom: 0; }
    """

    def compose(self):
        with Horizontal():
            yield AlignmentMatrix()
            with Vertical(id="side"):
                yield Static(id="seqs")
                yield Static(id="row")
                yield Static(id="acc")
                yield Static(id="live")

    def on_resize(self) -> None:  # the bar chart grows on tall terminals
        if getattr(self, "last", None) is not None:
            self.show(self.last)

    def show(self, s: MatrixState) -> None:
        self.last = s
        d = s.decoded()
        out, alpha = d.tokens[0], d.alpha[0]
        x, y = s.x(), s.target()
        k = s.step
        rows = []
        for i in range(len(y)):
            label = Text(f"{i:>2} {letters([y[i]])} ")
            label.append(letters([out[i]]), style="bold" if out[i] == y[i] else f"bold {BAD}")
            label.append(" " if out[i] == y[i] else "✗", style="" if out[i] == y[i] else BAD)
            rows.append(label)
        matrix = self.query_one(AlignmentMatrix)
        if s.scoring == "none":
            matrix.show(np.empty((len(y), 0)), k, (), rows, corner=" k y ŷ")
        else:
            matrix.show(alpha, k, list(letters(x)), rows, corner=" k y ŷ")

        seqs = Text()
        seqs.append("input x  ", style="dim")
        seqs.append(letters(x) + "\n", style="bold")
        seqs.append("reversed ", style="dim")
        seqs.append(letters(y) + "\n", style="bold")
        seqs.append("output ŷ ", style="dim")
        for a, b in zip(out, y):
            seqs.append(letters([a]), style="bold" if a == b else f"bold underline {BAD}")
        wrong = int(np.sum(out != y))
        seqs.append(f" {wrong} wrong" if wrong else " right", style=BAD if wrong else GOOD)
        self.query_one("#seqs", Static).update(seqs)

        row = Text()
        ok = out[k] == y[k]
        row.append(f"k={k} ŷ={letters([out[k]])}", style="bold")
        row.append(" ✓" if ok else f" ✗ not {letters([y[k]])}", style=GOOD if ok else BAD)
        if s.scoring == "none":
            row.append("\nno attention: every step starts\nfrom the same final state h_15", style="dim")
        else:
            j = int(np.argmax(alpha[k]))
            row.append(f"  α={alpha[k, j]:.2f} on h_{j}\n")
            lines = 3 if (self.size.height or 0) >= 30 else 1
            row.append_text(bars_text(alpha[k], lines=lines, label="α_k      "))
            if lines > 1:
                row.append("\n         " + letters(x), style="dim")
            row.append("\n" + LEGEND, style="dim")
        self.query_one("#row", Static).update(row)

        acc = Text()
        acc.append("held-out 1000  exact  token\n", style="dim")
        for sc, (e, t) in s.accuracies().items():
            acc.append(f"{sc:<12}", style="bold" if sc == s.scoring else "")
            acc.append(f"{pct(e):>7} {pct(t):>6}\n")
        acc.append("seed: none 0%, additive 76%", style="dim")
        self.query_one("#acc", Static).update(acc)

        live = Text()
        L = s.live
        if L is not None and (L.scoring == s.scoring or L.running):
            state = "training" if L.running else "stopped" if L.stopped else "trained"
            live.append(f"{state} {L.scoring} live" + (" · t stops" if L.running else "") + "\n",
                        style="bold yellow")
            if not L.arrays:
                live.append("loading torch …", style="dim")
            else:
                live.append(f"{progress_bar(L.step, L.steps, 12)} {L.step}/{L.steps}\n")
                live.append("loss " + ("–" if not np.isfinite(L.loss) else f"{L.loss:.3f}") + f"  exact {pct(L.exact)}")
        else:
            live.append("t trains this scoring live", style="dim")
        self.query_one("#live", Static).update(live)


class ScoringView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts()

    def show(self, s: ScoringState) -> None:
        curves = s.curves()
        col = 2 if s.metric == "accuracy" else 1
        series = tuple(Series(tuple(c[:, 0]), tuple(c[:, col]), sc, COLOURS[sc]) for sc, c in curves.items())
        lines = (Line(s2s.TARGET, "seed 76%", GREY),) if s.metric == "accuracy" else ()
        ylim = (0.0, 1.0) if s.metric == "accuracy" else None
        self.query_one(Plot).show(PlotSpec(series=series, lines=lines, cursor=float(s.step), ylim=ylim,
                                           xlim=(0.0, float(s.last_step)), xlabel="training step",
                                           title="held-out exact-sequence accuracy" if col == 2 else
                                           "training loss (mean of the last 25 steps)"))
        at = s.at()
        now = Text()
        now.append(f"step {s.step}: ", style="bold")
        for sc in ORDER:
            v = at[sc]
            text = "stopped" if v is None else (pct(v[1]) if col == 2 else f"{v[0]:.3f}")
            now.append(f"{sc} ", style="dim")
            now.append(f"{text}   ", style="bold")
        now.append("\nfirst ≥ 76%: ", style="dim")
        runs = s.run_steps()
        now.append(", ".join(f"{sc} step {f}" if f else f"{sc} never in {runs[sc]}" for sc, f in s.firsts().items()))
        self.query_one(Readouts).update(now)


class VisibilityView(FigureView):
    def compose(self):
        yield Static(id="picture")
        yield Readouts(id="counts")

    def on_resize(self) -> None:  # the picture is laid out for the current width
        if getattr(self, "last", None) is not None:
            self.show(self.last)

    def show(self, s: VisibilityState) -> None:
        self.last = s
        bottleneck, direct = s.numbers()
        n = s.n
        width = max(self.size.width or 76, 40)
        room = max((width - 12) // 4, 3)
        cols = list(range(n)) if n <= room else list(range(room - 2)) + [None, n - 1]  # None: "…"
        pic = Text()
        pic.append("source    ", style="dim")
        for j in cols:
            pic.append(" …  " if j is None else f"x{j + 1:<3}"[:4])
        pic.append("\n")
        pic.append("encoder   ", style="dim")
        for j in cols:
            lit = j is not None and (s.mode == "attention" or j == n - 1)
            pic.append(" …  " if j is None else "[█] " if lit else "[░] ", style="bold" if lit else "dim")
        pic.append("\n          ")
        for j in cols:
            lit = j is not None and (s.mode == "attention" or j == n - 1)
            pic.append(" ↓  " if lit else "    ", style="bold")
        pic.append("\n")
        pic.append("decoder   ", style="dim")
        reads = bottleneck if s.mode == "bottleneck" else direct
        what = "h_n only: one vector" if s.mode == "bottleneck" else "every h_j, weighted by α"
        pic.append(f"reads {what} = {reads:,} numbers\n\n", style="bold")
        scale = max(direct, 1)
        bar_w = max(width - 30, 10)
        for name, value in (("bottleneck", bottleneck), ("attention", direct)):
            pic.append(f"{name:<11}", style="bold" if name.startswith(s.mode[:4]) else "dim")
            length = max(1, round(bar_w * value / scale))
            pic.append("▇" * length, style="bold" if name.startswith(s.mode[:4]) else "dim")
            pic.append(f" {value:,}\n")
        self.query_one("#picture", Static).update(pic)
        lab_b, lab_a = s2s.visible_numbers(s2s.LENGTH, s2s.HIDDEN)
        self.query_one("#counts", Readouts).show([
            ("bottleneck d =", f"{bottleneck:,}"), (f"attention n·d = {n}×{s.d} =", f"{direct:,}"),
            ("ratio", f"{direct // bottleneck}×"),
            ("this lab (n=16, d=64)", f"{lab_b} vs {lab_a:,}; the task holds "
                                      f"{s2s.sequence_bits(s2s.LENGTH, s2s.VOCAB):.1f} bits"),
        ])


class TrainProgress(Message):
    """A report from training run number `run` (reports of older runs are dropped)."""

    def __init__(self, run: int, live: Live) -> None:
        super().__init__()
        self.run, self.live = run, live


class Seq2seqScreen(TopicScreen):
    TOPIC_ID = "seq2seq"
    TITLE = "The bottleneck, and attention's birth"
    BINDINGS = [Binding("t", "train", "train live", key_display="t")]
    FIGURES = (
        Figure("matrix", "Alignment matrix", "E4", MatrixState, MatrixView,
               "Reverse 16 tokens. Row k: output step; column j: encoder state h_j.", key_steps=(0, 1, 8, 15)),
        Figure("scoring", "Additive vs dot scoring", "E5", ScoringState, ScoringView,
               "One encoder–decoder, seed 0, trained three ways: Bahdanau's additive score, Luong's dot "
               "product, no attention. Held-out accuracy every 25 steps.",
               key_steps=(10 * s2s.EVERY, ScoringState().step)),
        Figure("visibility", "What the decoder may read", "F20", VisibilityState, VisibilityView,
               "Without attention the whole source must squeeze through one vector of d numbers; "
               "with it, every output step may read all n encoder states.", key_steps=(1, 12, 24)),
    )

    def __init__(self) -> None:
        super().__init__()
        self._stop: threading.Event | None = None  # set to end the current run; None when none runs
        self._run = 0  # the current (or last) run's number
        self._last_post = 0.0

    # -- live training ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "train":
            return self.figure.id == "matrix"
        return super().check_action(action, parameters)

    @property
    def training(self) -> bool:
        return self._stop is not None

    def action_train(self) -> None:
        if self.training:
            self.stop_training()
            return
        scoring = self.states["matrix"].scoring
        stop = threading.Event()
        self._stop = stop
        self._run += 1
        run = self._run
        self.states["matrix"] = replace(self.states["matrix"], live=Live(scoring, {}, 0, LIVE_STEPS, float("nan")))
        self.redraw()
        self.run_worker(lambda: self._train(run, scoring, stop), thread=True, group="seq2seq-train",
                        exit_on_error=False)

    def stop_training(self) -> None:
        """Ask the worker to end after its current step (it checks between steps, every ~15 ms)."""
        if self._stop is not None:
            self._stop.set()
            self._stop = None
            live = self.states["matrix"].live
            if live is not None and live.running:
                self.states["matrix"] = replace(self.states["matrix"], live=replace(live, running=False,
                                                                                     stopped=True))
                self.redraw()

    def _train(self, run: int, scoring: str, stop: threading.Event) -> None:
        """Runs in a worker thread: torch is imported here, never at startup."""
        from textual.worker import get_current_worker

        worker = get_current_worker()

        def should_stop() -> bool:
            return stop.is_set() or worker.is_cancelled

        if should_stop():
            return
        from rnntui.engine import lab_seq2seq as lab

        arrays: dict = {}
        last = {"exact": None, "token": None}

        def on_progress(p) -> None:
            if p.arrays is not None:
                arrays.clear()
                arrays.update(p.arrays)
                last.update(exact=p.exact, token=p.token)
            now = time.monotonic()
            if p.arrays is None and now - self._last_post < 0.2:
                return
            self._last_post = now
            if arrays and not should_stop():
                self.post_message(TrainProgress(run, Live(scoring, dict(arrays), p.step, p.steps, p.loss,
                                                          last["exact"], last["token"], p.seconds)))

        result = lab.train(scoring, seed=0, steps=LIVE_STEPS, on_progress=on_progress, stop=should_stop)
        if not worker.is_cancelled:
            self.post_message(TrainProgress(run, Live(scoring, result.arrays, result.steps, LIVE_STEPS,
                                                      result.curve[-1][1], result.exact, result.token,
                                                      result.seconds, running=False, stopped=result.stopped)))

    def on_train_progress(self, message: TrainProgress) -> None:
        if message.run != self._run:
            return
        live = message.live
        if not live.running:
            self._stop = None
        elif self._stop is None:  # stopped meanwhile: a late report, shown as stopped
            live = replace(live, running=False, stopped=True)
        self.states["matrix"] = replace(self.states["matrix"], live=live)
        if self.figure.id == "matrix":
            self.redraw()

    def on_screen_suspend(self) -> None:
        super().on_screen_suspend()
        self.stop_training()

    def on_unmount(self) -> None:
        self.stop_training()

    def action_reset(self) -> None:
        if self.figure.id == "matrix":
            self.stop_training()
        super().action_reset()
