"""T7 `memory`: how far back can it remember? The copy-first-token grid, a run's learning curve and
the closed form σ(b_f)^T; then what a trained LSTM's gates do with distractors."""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from rnntui.widgets.quiet import Static

from rnntui.figure import Figure, Lab
from rnntui.files import reason
from rnntui.figures.memory import CELLS, CONFIRM_T, EVERY, TS, CopyState, GateState
from rnntui.fmt import acc_at, pct, power_base, progress_bar, sig
from rnntui.i18n import N_, _, aside, colon, spaced
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.state import BadValue
from rnntui.widgets.lines import TextLines, wrap
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.results import results_text
from rnntui.widgets.tints import BAD, BLUE, GREEN, GREY, HIGHLIGHT, ORANGE, WARN, style

SOURCE = {"shipped": N_("shipped run"), "cache": N_("your cached run"), "new": N_("just trained"),
          "live": N_("training")}
CONFIRM = N_("T = {T} trains longest (a minute or more): press t again to start")


def grid_text(r, path: bool = True) -> Text:
    """The results table: one row per T, one column per cell, each entry ours│the source's; beside it
    the focused cell's σ(b_f)^T, the closed form the row's measured results meet. `path`: say which file
    holds your runs (not in a shot: a slide showed this machine's path, a lecturer's trial)."""
    entries = {(row["cell"], row["T"]): (acc_at(row["final_acc"], row["reached_100_at"]),
                                         acc_at(row["seed_final"], row["seed_reached"])) for row in r.table}
    yours = {(row["cell"], row["T"]) for row in r.table if row["yours"]}
    closed = "σ(b_f)^T" if r.forget_bias is None else f"σ({r.forget_bias:g})^T"
    out = results_text(entries, CELLS, TS, (r.cell, r.T), "T", closed, {T: sig(r.survival_by_T[T]) for T in TS},
                       marked=yours)
    if yours:  # (a run of yours took a shipped one's place unmarked, a trial)
        out.append("\n" + (_("underlined: yours; remove {path} for the shipped ones").format(path=r.cache)
                           if path and r.cache else _("underlined: trained on this machine")), style="dim")
    return out


def live_line(live) -> Text:
    out = Text()
    name = f"{live.cell} T={live.T}"
    if live.status == "asks":
        out.append(_(CONFIRM).format(T=live.T), style=HIGHLIGHT)
    elif live.status == "training":
        out.append(_("training {name}: step {step}/{steps} {bar} t cancels").format(
            name=name, step=live.step, steps=live.steps, bar=f"▕{progress_bar(live.step, live.steps, 8)}▏"),
            style=HIGHLIGHT)
    elif live.status == "failed":
        out.append(_("the run failed: {message}").format(message=live.message), style=BAD)
    elif live.status == "stopped":
        out.append(_("stopped {name} at step {step} of {steps}; nothing saved").format(
            name=name, step=live.step, steps=live.steps), style=WARN)
    else:
        if live.message:  # ("saved to your cache (not saved: …)" said both, a TA's trial)
            why = reason(OSError(live.errno, live.message)) if live.errno else live.message
            if live.errno and live.path:
                why = _("cannot write {path}: {reason}").format(path=live.path, reason=why)
            out.append(_("trained {name} in {steps} steps; not saved: {reason}").format(
                name=name, steps=live.step, reason=why), style=BAD)
        else:
            out.append(_("trained {name} in {steps} steps, saved to your cache").format(name=name, steps=live.step),
                       style=HIGHLIGHT)
    return out


class CopyView(FigureView):
    REDRAW_ON_RESIZE = True  # laid out for its own size
    SHORT, NARROW = 22, 110  # a view below both tells the lstm-bf2 story short (it wraps to 3+ lines)
    TALL = 9  # a plot this tall or more has its title, x label and each curve named at its end
    stories: tuple = ()  # the lstm-bf2 story, short and whole

    @classmethod
    def explained(cls, s) -> str:
        """Help: where the source's entries come from (a student found them in no seed document)."""
        cache = s.readings().cache
        kept = (_("Your runs (underlined) are kept in {path}; remove it for the shipped ones.").format(path=cache)
                if cache else _("Runs trained on this server (underlined) are shown beside the shipped ones; a run "
                                "of this tab's own lasts as long as the tab."))  # (a served tab: a server's temp file)
        return _("The source's entries are its code's printed results (ai-learning-labs, "
                 "deep-learning-foundations/expected/06_rnn_attention.txt, parts 2 and 3): the notes give only "
                 "words (the RNN fails from T = 10, the default LSTM from 20, “b_f = 1” learns 20 and 40 by step "
                 "500 and not 80 in 6000); their table of numbers did not come through.") + "\n" + _(
                     "Ours are one run each, seed 0; the step a run first reads 100% at moves with the seed (our "
                     "lstm-bf2 at T = 40 reads 100@700, not the source's 100@500): rnntui train memory --cell "
                     "lstm-bf2 --T 40 --seed 2 tries another.") + "\n" + _(
                     "A verdict at the edge moves with the seed too: the RNN at T = 10 fails with seed 0, as the "
                     "source's one run did, and learns it with seeds 1 to 4 here (rnntui train memory --cell rnn "
                     "--T 10 --seed 1); at T = 20 it failed with every seed tried.") + "\n" + kept

    def compose(self):
        yield Static(id="grid")
        yield Plot(least=5, tall=self.TALL)  # (under 5 rows, what it lacks: its min-height of 5 cut the text
        # below, a trial)
        yield TextLines(id="now")  # a key changes a line of it: drawn through Lines, not Textual's Content
        yield TextLines(id="story")

    def show(self, s: CopyState) -> None:
        try:
            r = s.readings()
        except BadValue as e:  # a damaged shipped grid: say so in one line, draw nothing
            self.query_one("#grid", Static).update(Text(_("memory results unreadable: {error}").format(error=e),
                                                        style=BAD))
            return
        slides = getattr(self.app, "offscreen", False) or getattr(self.app, "slides", False)  # a shot, present
        # (short: the path's two lines at 80x24 took the plot's last row once a run was yours; help says it)
        self.query_one("#grid", Static).update(grid_text(r, path=not slides and not self._short(self.size.height)))
        self.query_one(Plot).show(PlotSpec(  # (below TALL rows the plot leaves out its title, x label and marks)
            series=(Series(r.curve_steps, r.curve_acc, _("accuracy"), BLUE),
                    Series(r.curve_steps, r.curve_loss_rel, _("loss ÷ ln 10 (1: guessing)"), ORANGE)),
            lines=(Line(r.chance, _("chance {p}").format(p=pct(r.chance, 0)), GREY, align="right", keyed=True,
                         level=True),),
            cursor=float(s.step), xlim=(0.0, float(s.last_step)), ylim=(0.0, 1.0),
            # each curve named at its end: the loss's flat 1.0 (guessing) read as 100% on the accuracy axis
            # beside a failing model (a lecturer's trial)
            marks=tuple((r.curve_steps[-1], y[-1], name) for y, name in ((r.curve_loss_rel, _("loss ÷ ln 10")),
                                                                        (r.curve_acc, _("accuracy")))
                        if len(r.curve_steps) and len(y)),  # (short: the legend on the top edge names them)
            xlabel=_("training step"), legend="below",
            title=_("{cell} T={T}: accuracy on 2000 fresh sequences every {every} steps").format(
                cell=r.cell, T=r.T, every=EVERY)))

        now = Text()
        if r.note:
            now.append(f"{r.note}\n", style=WARN)
        live = r.live if r.live is not None and (r.live.status != "trained" or r.live.message) else None
        if live is not None:
            now.append_text(live_line(live))
        if live is not None and live.status == "training" and (live.cell, live.T) == (r.cell, r.T):
            if r.at is not None:
                now.append(" · ", style="dim")
                now.append(_("acc {p}").format(p=pct(r.at[1])), style=style(BLUE, bold=True))
        else:
            if live is not None:
                now.append("\n")
            line = focused_line(r, seed=True)
            if cell_len(line.plain) > (self.content_region.width or 76):  # the grid's row says the source's
                line = focused_line(r, seed=False)  # (at 80x24 a run of yours wrapped, and the plot went: a trial)
            now.append_text(line)
        if live is not None and live.status == "training" and live.message:  # (said once trained, a review)
            now.append("\n" + _("it will not be saved: {reason}").format(reason=live.message), style=WARN)
        self.query_one("#now", TextLines).update(now)

        if r.forget_bias is None:
            survive = Text.assemble((spaced(colon("σ(b_f)^T")), "bold"),
                                    _("none: the RNN has no cell state; tanh squashes h_0 again at every step."))
        else:
            gate = power_base(r.forget_gate, r.T, sig)  # (0.88^80 is not 3.9e-05: a code review)
            survive = Text.assemble(_("c_0 left after {T} forget gates at their bias: ").format(T=r.T),
                                    f"σ({r.forget_bias:g})^{r.T} = {gate}^{r.T} = ", (sig(r.survival), "bold"))
        st = r.story
        true1, ours2, seed2 = st["true_bf1"], st["ours_bf2"], st["seed_bf2"]
        survive.append("\n" + _("lstm-bf2 is the source's “b_f = 1”: "), style="bold")
        short = survive + _("its code sets both bias vectors to 1, so b_f = 2; a true b_f = 1 fails at T={T} "
                            "({true1}).").format(T=st["T"], true1=acc_at(true1["final_acc"], true1["reached_100_at"]))
        whole = survive + _("its code sets both bias vectors to 1, so b_f = 2 (σ(2) = {gate2}). A true b_f = 1 fails "
                            "at T={T} ({true1}, σ(1)^{T} = {survive1}); the source's {seed2} had σ(2)^{T} = {survive2} "
                            "(ours: {ours2}).").format(
            gate2=f"{st['gate_bf2']:.2f}", T=st["T"], true1=acc_at(true1["final_acc"], true1["reached_100_at"]),
            survive1=sig(st["survival_bf1"]), seed2=acc_at(seed2["final_acc"], seed2["reached_100_at"]),
            survive2=sig(st["survival_bf2"]), ours2=acc_at(ours2["final_acc"], ours2["reached_100_at"]))
        # the story short where it wraps to 3+ lines on a short view: at 80x24 they left the plot two rows
        self.stories = (short, whole)
        self.query_one("#story", TextLines).update(short if self._short(self.size.height) else whole)
        self.call_after_refresh(self._plot_short_of)

    def _short(self, height: int) -> bool:
        return (height or 40) < self.SHORT and (self.size.width or 80) < self.NARROW

    def _plot_short_of(self) -> None:
        """Once laid out: the rows the plot lacks, counted from what the view's other parts take (they take
        rows first: at 44 or 70 columns the size named grew as it was given, a review), the whole story
        included where that many rows more tell it."""
        plot, width = self.query_one(Plot), self.content_region.width
        if plot.size.height >= plot.drawn_from() and plot.more is None:
            return  # drawn: nothing to count (most keys)
        others = sum(w.outer_size.height for w in self.children if w is not plot and w.display)
        need = others + plot.drawn_from() - self.content_region.height
        if need > 0 and self._short(self.size.height) and not self._short(self.size.height + need) and self.stories:
            need += len(wrap(self.stories[1], width, self.app.console)) - len(wrap(self.stories[0], width, self.app.console))
        more = need if need > 0 else None
        plot.lacks(more)


def focused_line(r, seed: bool) -> Text:
    """The focused run: final accuracy, the source's (where `seed`) and the cursor's step."""
    line = Text()
    line.append(spaced(colon(f"{r.cell} T={r.T}" + ("" if r.source == "shipped" else aside(
        _("({source})").format(source=_(SOURCE[r.source])))))), style="bold")  # (zh: full-width, a trial)
    if r.steps is None:
        line.append(_("no run yet: t trains it"), style="dim")
    else:
        line.append(acc_at(r.final_acc, r.reached_100_at), style="bold")
        if seed:
            line.append(_(" · source {entry}").format(entry=acc_at(r.seed_final, r.seed_reached)), style="dim")
    if r.at is not None:
        step, acc, loss = r.at
        line.append(_(" · step {step}: ").format(step=step), style="dim")
        line.append(_("acc {p}").format(p=pct(acc)), style=style(BLUE, bold=True))
        line.append(_(" loss {loss}").format(loss=f"{loss:.3f}"), style=style(ORANGE, bold=True))
    return line


class GateView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts(id="at")
        yield Readouts(id="means")
        yield TextLines(id="says")  # (a Static broke Chinese at spaces only: "…那 12 / 个单元", a trial)

    def show(self, s: GateState) -> None:
        try:
            r = s.readings()
        except BadValue as e:  # a damaged shipped grid: say so in one line, draw nothing
            self.query_one("#says", TextLines).update(Text(_("memory results unreadable: {error}").format(error=e),
                                                        style=BAD))
            return
        series = [Series(r.positions, r.input_gate, _("input gate i"), BLUE),
                  Series(r.positions, r.forget_gate, _("forget gate f"), ORANGE)]
        if r.held_forget:
            series.append(Series(r.positions, r.held_forget, _("f of the {n} units that hold").format(n=r.n_held), GREEN))
        self.query_one(Plot).show(PlotSpec(
            series=tuple(series), lines=(Line(r.hold, f"f = {r.hold:g}", GREY, align="right", aside=True),),
            cursor=float(s.position), xlim=(0.0, float(r.last_position)), ylim=(0.5, 1.0),
            xlabel=_("position (0: the token to remember; then distractors)"),
            title=_("{cell} T={T}, {distractors} distractors: {acc} after {steps} steps").format(
                cell=r.cell, T=r.T, distractors=r.distractors, acc=pct(r.acc), steps=r.steps), labels_from=10))
        what = _("the token to remember") if s.position == 0 else _("a distractor")
        held = "–" if r.held_forget_at is None else f"{r.held_forget_at:.3f}"
        self.query_one("#at", Readouts).show([
            (_("position {p} ({what}):  i").format(p=s.position, what=what), f"{r.input_at:.3f}"),
            ("f", f"{r.forget_at:.3f}"), (_("f of the holding units"), held)])
        self.query_one("#means", Readouts).show([
            (_("mean input gate over the {n} distractors").format(n=r.n_distractors), f"{r.input_distractors:.2f}"),
            (_("units with f > {hold} at every later position").format(hold=f"{r.hold:g}"),
             _("{n} of {total}").format(n=r.n_held, total=r.hidden)),
            (_("their mean f"), "–" if r.held_forget_mean is None else f"{r.held_forget_mean:.3f}")])
        says = Text()
        if r.note:
            says.append(f"{r.note}\n", style=WARN)
        says.append(_("The input gate does not learn to close: "), style="bold")
        says.append(_("it stays ≈{mean} over the distractors. The memory is held by the {n} units whose forget gate "
                      "stays above {hold} — what our run measures; the source leaves whether the gate learns to close as "
                      "an exercise.").format(
            mean=f"{r.input_distractors:.2f}", n=r.n_held, hold=f"{r.hold:g}"))
        self.query_one("#says", TextLines).update(says)


class MemoryScreen(TopicScreen):
    TOPIC_ID = "memory"
    TITLE = N_("How far back can it remember?")
    FIGURES = (
        Figure("copy", N_("Copy the first token"), "E2+E3", CopyState, CopyView,
               N_("Read T random tokens, output the first. Cell: ours│the source's, final % @ first step at "
                  "100% (✗ never, ? not given, – not run); t retrains one live."),
               key_steps=(EVERY, 500, 1500),
               lab=Lab("rnntui.engine.lab_memory:run_lab", "train",
                       confirm=CONFIRM.format(T=CONFIRM_T))),
        Figure("distractor", N_("What the gates do"), "E7", GateState, GateView,
               N_("An LSTM (b_f = 2) trained on T = 20: a first token, then 19 distractors (the same 10 symbols, "
                  "or 10 disjoint ones). Its gates at each position, mean over 512 sequences."),
               key_steps=(0, 1, 19)),
    )
