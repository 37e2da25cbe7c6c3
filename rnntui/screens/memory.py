"""T7 `memory`: how far back can it remember? The copy-first-token grid, a run's learning curve and
the closed form σ(b_f)^T; then what a trained LSTM's gates do with distractors."""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from rnntui.figure import Figure, Lab
from rnntui.figures.memory import CELLS, CONFIRM_T, EVERY, TS, CopyState, GateState
from rnntui.fmt import acc_at, pct, progress_bar, sig
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.state import BadValue
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BAD, BLUE, GREEN, GREY, HIGHLIGHT, ORANGE, WARN, style

SOURCE = {"shipped": "shipped run", "cache": "your cached run", "new": "just trained", "live": "training"}


def grid_text(r) -> Text:
    """The results table: one row per T, one column per cell, each entry ours│the seed's; beside it
    the focused cell's σ(b_f)^T, the closed form the row's measured results meet."""
    entries = {(row["cell"], row["T"]): (acc_at(row["final_acc"], row["reached_100_at"]),
                                         acc_at(row["seed_final"], row["seed_reached"])) for row in r.table}
    ours_w = {c: max(4, *(len(entries[(c, T)][0]) for T in TS)) for c in CELLS}
    seed_w = {c: max(4, *(len(entries[(c, T)][1]) for T in TS)) for c in CELLS}
    out = Text(no_wrap=True, overflow="crop")
    out.append("T   ", style="bold")
    for c in CELLS:
        out.append(f" {c:^{ours_w[c] + seed_w[c] + 2}}", style="bold" if c == r.cell else "")
    out.append("  " + ("σ(b_f)^T" if r.forget_bias is None else f"σ({r.forget_bias:g})^T"), style="bold")
    out.append("\n")
    for T in TS:
        out.append(f"{T:<4}", style="bold" if T == r.T else "dim")
        for c in CELLS:
            ours, seed = entries[(c, T)]
            out.append(" ")
            if (c, T) == (r.cell, r.T):
                out.append(f"▸{ours:>{ours_w[c]}}│{seed:<{seed_w[c]}}", style="bold reverse")
            else:
                out.append(f" {ours:>{ours_w[c]}}", style="bold" if ours.startswith("100") else "")
                out.append(f"│{seed:<{seed_w[c]}}", style="dim")
        out.append(f"  {sig(r.survival_by_T[T])}", style="bold" if T == r.T else "")
        if T != TS[-1]:
            out.append("\n")
    return out


def live_line(live) -> Text:
    out = Text()
    name = f"{live.cell} T={live.T}"
    if live.status == "asks":
        out.append(live.message, style=HIGHLIGHT)
    elif live.status == "training":
        out.append(f"training {name}: step {live.step}/{live.steps} ▕{progress_bar(live.step, live.steps, 8)}▏ "
                   "t cancels", style=HIGHLIGHT)
    elif live.status == "failed":
        out.append(f"the run failed: {live.message}", style=BAD)
    elif live.status == "stopped":
        out.append(f"stopped {name} at step {live.step} of {live.steps}; nothing saved", style=WARN)
    else:
        out.append(f"trained {name} in {live.step} steps, saved to your cache", style=HIGHLIGHT)
        if live.message:
            out.append(f" (not saved: {live.message})", style=BAD)
    return out


class CopyView(FigureView):
    def compose(self):
        yield Static(id="grid")
        yield Plot()
        yield Static(id="now")
        yield Static(id="story")

    def on_resize(self) -> None:  # the plot's title and legend depend on its height
        if getattr(self, "last", None) is not None:
            self.show(self.last)

    def show(self, s: CopyState) -> None:
        self.last = s
        try:
            r = s.readings()
        except BadValue as e:  # a damaged shipped grid: say so in one line, draw nothing
            self.query_one("#grid", Static).update(Text(f"memory results unreadable: {e}", style=BAD))
            return
        self.query_one("#grid", Static).update(grid_text(r))
        tall = (self.query_one(Plot).size.height or 0) >= 9
        self.query_one(Plot).show(PlotSpec(
            series=(Series(r.curve_steps, r.curve_acc, "accuracy", BLUE),
                    Series(r.curve_steps, r.curve_loss_rel, "loss ÷ ln 10 (1: guessing)", ORANGE)),
            lines=(Line(r.chance, f"chance {pct(r.chance, 0)}", GREY, align="right"),),
            cursor=float(s.step), xlim=(0.0, float(s.last_step)), ylim=(0.0, 1.0),
            xlabel="training step" if tall else "", legend="below" if tall else "none",
            title=f"{r.cell} T={r.T}: accuracy on 2000 fresh sequences every {EVERY} steps" if tall else ""))

        now = Text()
        if r.note:
            now.append(r.note + "\n", style=WARN)
        live = r.live if r.live is not None and (r.live.status != "trained" or r.live.message) else None
        if live is not None:
            now.append_text(live_line(live))
        if live is not None and live.status == "training":
            if r.at is not None:
                now.append(" · ", style="dim")
                now.append(f"acc {pct(r.at[1])}", style=style(BLUE, bold=True))
        else:
            if live is not None:
                now.append("\n")
            now.append(f"{r.cell} T={r.T}" + ("" if r.source == "shipped" else f" ({SOURCE[r.source]})") + ": ",
                       style="bold")
            if r.steps is None:
                now.append("no run yet: t trains it", style="dim")
            else:
                now.append(acc_at(r.final_acc, r.reached_100_at), style="bold")
                now.append(f" · seed {acc_at(r.seed_final, r.seed_reached)}", style="dim")
            if r.at is not None:
                step, acc, loss = r.at
                now.append(f" · step {step}: ", style="dim")
                now.append(f"acc {pct(acc)}", style=style(BLUE, bold=True))
                now.append(f" loss {loss:.3f}", style=style(ORANGE, bold=True))
        self.query_one("#now", Static).update(now)

        if r.forget_bias is None:
            survive = Text.assemble(("σ(b_f)^T: ", "bold"), "none: the RNN has no cell state; tanh squashes h_0 "
                                    "again at every step.")
        else:
            survive = Text.assemble(f"c_0 left after {r.T} forget gates at their bias: σ({r.forget_bias:g})^{r.T} "
                                    f"= {r.forget_gate:.2f}^{r.T} = ", (sig(r.survival), "bold"))
        st = r.story
        true1, ours2, seed2 = st["true_bf1"], st["ours_bf2"], st["seed_bf2"]
        survive.append("\nlstm-bf2 is the seed's “b_f = 1”: ", style="bold")
        survive.append(f"its code sets both bias vectors to 1, so b_f = 2 (σ(2) = {st['gate_bf2']:.2f}). A true "
                       f"b_f = 1 fails at T={st['T']} ({acc_at(true1['final_acc'], true1['reached_100_at'])}, "
                       f"σ(1)^{st['T']} = {sig(st['survival_bf1'])}); the seed's "
                       f"{acc_at(seed2['final_acc'], seed2['reached_100_at'])} had σ(2)^{st['T']} = "
                       f"{sig(st['survival_bf2'])} (ours: {acc_at(ours2['final_acc'], ours2['reached_100_at'])}).")
        self.query_one("#story", Static).update(survive)


class GateView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="at")
        yield Readouts(id="means")
        yield Static(id="says")

    def on_resize(self) -> None:  # the plot's title depends on its height
        if getattr(self, "last", None) is not None:
            self.show(self.last)

    def show(self, s: GateState) -> None:
        self.last = s
        try:
            r = s.readings()
        except BadValue as e:  # a damaged shipped grid: say so in one line, draw nothing
            self.query_one("#says", Static).update(Text(f"memory results unreadable: {e}", style=BAD))
            return
        series = [Series(r.positions, r.input_gate, "input gate i", BLUE),
                  Series(r.positions, r.forget_gate, "forget gate f", ORANGE)]
        if r.held_forget:
            series.append(Series(r.positions, r.held_forget, f"f of the {r.n_held} units that hold", GREEN))
        tall = (self.query_one(Plot).size.height or 0) >= 10
        self.query_one(Plot).show(PlotSpec(
            series=tuple(series), lines=(Line(r.hold, f"f = {r.hold:g}", GREY, align="right"),),
            cursor=float(s.position), xlim=(0.0, float(r.last_position)), ylim=(0.5, 1.0),
            xlabel="position (0: the token to remember; then distractors)" if tall else "",
            title=f"{r.cell} T={r.T}, {r.distractors} distractors: {pct(r.acc)} after {r.steps} steps" if tall else ""))
        what = "the token to remember" if s.position == 0 else "a distractor"
        held = "–" if r.held_forget_at is None else f"{r.held_forget_at:.3f}"
        self.query_one("#at", Readouts).show([(f"position {s.position} ({what}):  i", f"{r.input_at:.3f}"),
                                              ("f", f"{r.forget_at:.3f}"), ("f of the holding units", held)])
        self.query_one("#means", Readouts).show([
            (f"mean input gate over the {r.n_distractors} distractors", f"{r.input_distractors:.2f}"),
            (f"units with f > {r.hold:g} at every later position", f"{r.n_held} of {r.hidden}"),
            ("their mean f", "–" if r.held_forget_mean is None else f"{r.held_forget_mean:.3f}")])
        says = Text()
        if r.note:
            says.append(r.note + "\n", style=WARN)
        says.append("The input gate does not learn to close: ", style="bold")
        says.append(f"it stays ≈{r.input_distractors:.1f} over the distractors. The memory is held by the "
                    f"{r.n_held} units whose forget gate stays above {r.hold:g} — what our run measures, "
                    "not the seed's guess that the gate shuts.")
        self.query_one("#says", Static).update(says)


class MemoryScreen(TopicScreen):
    TOPIC_ID = "memory"
    TITLE = "How far back can it remember?"
    FIGURES = (
        Figure("copy", "Copy the first token", "E2+E3", CopyState, CopyView,
               "Read T random tokens, output the first. Entries: final accuracy %@the step it first read 100% "
               "(✗ never), ours│the seed's; t retrains one live.",
               key_steps=(EVERY, 500, 1500),
               lab=Lab("rnntui.engine.lab_memory:run_lab", "train",
                       confirm=f"T = {CONFIRM_T} trains for minutes: press t again to start")),
        Figure("distractor", "What the gates do", "E7", GateState, GateView,
               "An LSTM (b_f = 2) trained on T = 20: a first token, then 19 distractors (same 10 symbols or "
               "10 others). Its gates at each position, mean over 512 sequences.",
               key_steps=(0, 1, 19)),
    )
