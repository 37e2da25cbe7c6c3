"""T4 `seq2seq`: the bottleneck, and attention's birth — a trained alignment matrix, live training."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal, Vertical
from rnntui.widgets.quiet import Static

from rnntui.figure import Figure, Lab
from rnntui.figures.seq2seq import (EVERY, ORDER, MatrixState, ScoringState, VisibilityState, letters)
from rnntui.fmt import pct, progress_bar
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.alignment import LEGEND, AlignmentMatrix, bars_text
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BAD, BLUE, GOOD, GREY, HIGHLIGHT, ORANGE

COLOURS = {"additive": BLUE, "dot": ORANGE, "none": GREY}


class MatrixView(FigureView):
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
        r, k = s.readings(), s.step
        rows = []
        for i, (y, out, ok) in enumerate(zip(r.target, r.output, r.right)):
            label = Text(f"{i:>2} {letters([y])} ")
            label.append(letters([out]), style="bold" if ok else f"bold {BAD}")
            label.append(" " if ok else "✗", style="" if ok else BAD)
            rows.append(label)
        if r.alignment is None:
            self.query_one(AlignmentMatrix).show(tuple(() for _ in r.target), k, (), rows, corner=" k y ŷ")
        else:
            self.query_one(AlignmentMatrix).show(r.alignment, k, list(letters(r.x)), rows, corner=" k y ŷ")

        seqs = Text()
        for name, tokens in (("input x  ", r.x), ("reversed ", r.target)):
            seqs.append(name, style="dim")
            seqs.append(letters(tokens) + "\n", style="bold")
        seqs.append("output ŷ ", style="dim")
        for out, ok in zip(r.output, r.right):
            seqs.append(letters([out]), style="bold" if ok else f"bold underline {BAD}")
        seqs.append(f" {r.n_wrong} wrong" if r.n_wrong else " right", style=BAD if r.n_wrong else GOOD)
        self.query_one("#seqs", Static).update(seqs)

        row = Text()
        row.append(f"k={k} ŷ={letters([r.output[k]])}", style="bold")
        row.append(" ✓" if r.right[k] else f" ✗ not {letters([r.target[k]])}", style=GOOD if r.right[k] else BAD)
        if r.alignment is None:
            row.append("\nno attention: every step starts\nfrom the same final state h_15", style="dim")
        else:
            row.append(f"  α={r.looks_weight:.2f} on h_{r.looks_at}\n")
            lines = 3 if (self.size.height or 0) >= 30 else 1
            row.append_text(bars_text(r.row, lines=lines, label="α_k      "))
            if lines > 1:
                row.append("\n         " + letters(r.x), style="dim")
            row.append("\n" + LEGEND, style="dim")
        self.query_one("#row", Static).update(row)

        acc = Text()
        acc.append("held-out 1000  exact  token\n", style="dim")
        for sc, a in r.held_out.items():
            acc.append(f"{sc:<12}", style="bold" if sc == s.scoring else "")
            acc.append(f"{pct(a['exact']):>7} {pct(a['token']):>6}\n")
        acc.append("seed: none 0%, additive 76%", style="dim")
        self.query_one("#acc", Static).update(acc)
        self.query_one("#live", Static).update(live_text(r.live))


def live_text(live) -> Text:
    """The side panel's lines about a live run (LiveReadings or None)."""
    out = Text()
    if live is None:
        out.append("t trains this scoring live", style="dim")
        return out
    running = live.status == "training"
    out.append(f"{live.status} {live.scoring} live" + (" · t stops" if running else "") + "\n", style=HIGHLIGHT)
    if live.message:
        out.append(live.message, style=BAD)
    elif not live.loaded:
        out.append("loading torch …", style="dim")
    else:
        out.append(f"{progress_bar(live.step, live.steps, 12)} {live.step}/{live.steps}\n")
        out.append(f"loss {'–' if live.loss is None else f'{live.loss:.3f}'}  exact {pct(live.exact)}")
    return out


class ScoringView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts()

    def show(self, s: ScoringState) -> None:
        r = s.readings()
        col = 2 if s.metric == "accuracy" else 1
        columns = {sc: tuple(zip(*rows)) for sc, rows in r.curves.items()}  # step, loss, exact, …
        series = tuple(Series(c[0], c[col], sc, COLOURS[sc]) for sc, c in columns.items())
        lines = (Line(r.target, "seed 76%", GREY),) if s.metric == "accuracy" else ()
        self.query_one(Plot).show(PlotSpec(series=series, lines=lines, cursor=float(s.step),
                                           ylim=(0.0, 1.0) if col == 2 else None,
                                           xlim=(0.0, float(r.last_step)), xlabel="training step",
                                           title="held-out exact-sequence accuracy" if col == 2 else
                                           "training loss (mean of the last 25 steps)"))
        now = Text()
        now.append(f"step {s.step}: ", style="bold")
        for sc in ORDER:
            v = r.at[sc]
            now.append(f"{sc} ", style="dim")
            now.append(f"{'stopped' if v is None else pct(v[1]) if col == 2 else f'{v[0]:.3f}'}   ", style="bold")
        now.append("\nfirst ≥ 76%: ", style="dim")
        now.append(", ".join(f"{sc} step {f}" if f else f"{sc} never in {r.run_steps[sc]}"
                             for sc, f in r.first_at_target.items()))
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
        r, n = s.readings(), s.n
        width = max(self.size.width or 76, 40)
        room = max((width - 12) // 4, 3)
        cols = list(range(n)) if n <= room else list(range(room - 2)) + [None, n - 1]  # None: "…"
        lit = [j is not None and (s.mode == "attention" or j == n - 1) for j in cols]
        pic = Text()
        pic.append("source    ", style="dim")
        for j in cols:
            pic.append(" …  " if j is None else f"x{j + 1:<3}"[:4])
        pic.append("\nencoder   ", style="dim")
        for j, on in zip(cols, lit):
            pic.append(" …  " if j is None else "[█] " if on else "[░] ", style="bold" if on else "dim")
        pic.append("\n          ")
        for on in lit:
            pic.append(" ↓  " if on else "    ", style="bold")
        pic.append("\ndecoder   ", style="dim")
        what = "h_n only: one vector" if s.mode == "bottleneck" else "every h_j, weighted by α"
        pic.append(f"reads {what} = {r.reads:,} numbers\n\n", style="bold")
        bar_w = max(width - 30, 10)
        for name, value, part in (("bottleneck", r.bottleneck, r.bars[0]), ("attention", r.attention, r.bars[1])):
            style = "bold" if name.startswith(s.mode[:4]) else "dim"
            pic.append(f"{name:<11}", style=style)
            pic.append("▇" * max(1, round(bar_w * part)), style=style)
            pic.append(f" {value:,}\n")
        self.query_one("#picture", Static).update(pic)
        lab_b, lab_a = r.lab["numbers"]
        self.query_one("#counts", Readouts).show([
            ("bottleneck d =", f"{r.bottleneck:,}"), (f"attention n·d = {n}×{s.d} =", f"{r.attention:,}"),
            ("ratio", f"{r.ratio}×"),
            (f"this lab (n={r.lab['n']}, d={r.lab['d']})", f"{lab_b} vs {lab_a:,}; the task holds {r.lab['bits']:.1f} bits"),
        ])


class Seq2seqScreen(TopicScreen):
    TOPIC_ID = "seq2seq"
    TITLE = "The bottleneck, and attention's birth"
    FIGURES = (
        Figure("matrix", "Alignment matrix", "E4", MatrixState, MatrixView,
               "Reverse 16 tokens. Row k: output step; column j: encoder state h_j.", key_steps=(0, 1, 8, 15),
               lab=Lab("rnntui.engine.lab_seq2seq:run_lab", "train")),
        Figure("scoring", "Additive vs dot scoring", "E5", ScoringState, ScoringView,
               "One encoder–decoder, seed 0, trained three ways: Bahdanau's additive score, Luong's dot "
               "product, no attention. Held-out accuracy every 25 steps.",
               key_steps=(10 * EVERY, ScoringState().step)),
        Figure("visibility", "What the decoder may read", "F20", VisibilityState, VisibilityView,
               "Without attention the whole source must squeeze through one vector of d numbers; "
               "with it, every output step may read all n encoder states.", key_steps=(1, 12, 24)),
    )
