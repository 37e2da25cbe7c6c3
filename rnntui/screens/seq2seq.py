"""T4 `seq2seq`: the bottleneck, and attention's birth — a trained alignment matrix, live training."""
from __future__ import annotations

import os

from rich.cells import cell_len
from rich.text import Text
from textual.containers import Horizontal, Vertical

from rnntui.figure import Figure, Lab
from rnntui.files import reason
from rnntui.figures.seq2seq import (EVERY, LAST_K, LIVE_STEPS, ORDER, TARGET, MatrixState, ScoringState,
                                    VisibilityState, letters, shipped_scores)
from rnntui.fmt import pct, progress_bar
from rnntui.i18n import N_, _, aside, ngettext, spaced
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.alignment import AlignmentMatrix, bars_text, legend
from rnntui.widgets.cells import aligned, fit
from rnntui.widgets.lines import TextLines
from rnntui.widgets.picture import Picture
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts, spelled
from rnntui.widgets.tints import BAD, BLUE, GOOD, GREY, HIGHLIGHT, ORANGE
from rnntui.widgets.visibility import visibility_tall, visibility_text

COLOURS = {"additive": BLUE, "dot": ORANGE, "none": GREY}
LIVE_STATUS = {"training": N_("training {scoring} live"), "stopped": N_("stopped {scoring} live"),
               "trained": N_("trained {scoring} live"), "failed": N_("failed {scoring} live")}


def shift_line(r, k: int, shipped: bool = True) -> str:
    """Why output k ≥ 1 puts its # one column right of the token it copies (issue 15): said of the
    shipped models only, whose rows were read to say it (a live run's need not do so)."""
    if not r.right[k]:  # (a wrong output "copies x_8" beside "✗ not f", a student's trial)
        if r.shift == (1 if k else 0):  # where the right outputs read: the miss is in what it writes (it read as
            return _("should copy x_{j}; it reads h_{h}, as right outputs do, yet writes another token").format(
                j=r.copies, h=r.looks_at)  # a misplaced α, a Chinese student's trial)
        return _("should copy x_{j}; its largest α is on h_{h}").format(j=r.copies, h=r.looks_at)
    if r.shift == 0:
        if not shipped:
            return _("copies x_{j} from h_{j} itself").format(j=r.copies)
        return _("copies x_{j} from h_{j} itself; rows below: # one right of their token").format(
            j=r.copies)  # ("k≥1:" read as cryptic, a newcomer's trial; two lines at 80x24, as it was)
    if r.shift == 1:
        return _("copies x_{j} from h_{h}, the state after it, which still holds it").format(
            j=r.copies, h=r.looks_at)
    return _("copies x_{j}; its largest α is on h_{h}").format(j=r.copies, h=r.looks_at)


class MatrixView(FigureView):
    REDRAW_ON_RESIZE = True  # laid out for its own size

    def compose(self):
        with Horizontal():
            yield AlignmentMatrix()
            with Vertical(id="side"):
                yield TextLines(id="seqs")
                yield TextLines(id="row")
                yield TextLines(id="shift")
                yield TextLines(id="acc")
                yield TextLines(id="live")

    def on_resize(self) -> None:
        self.set_class((self.size.height or 0) < 20, "short")  # no blank lines between the side's parts

    def show(self, s: MatrixState) -> None:
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
        names = aligned((_("input x"), _("reversed"), _("output ŷ"), "α_k"))  # α_k's bars stand under x's letters
        for name, tokens in zip(names, (r.x, r.target)):
            seqs.append_text(spelled(name, letters(tokens) + "\n"))
        seqs.append(names[2], style="dim")
        for out, ok in zip(r.output, r.right):
            seqs.append(letters([out]), style="bold" if ok else f"bold underline {BAD}")
        seqs.append(" " + (_("{n} wrong").format(n=r.n_wrong) if r.n_wrong else _("all ✓")),  # (all right wrapped at 80)
                    style=BAD if r.n_wrong else GOOD)
        self.query_one("#seqs", TextLines).update(seqs)

        row = Text()
        row.append(f"k={k} ŷ={letters([r.output[k]])}", style="bold")
        row.append(" ✓" if r.right[k] else " ✗ " + _("not {token}").format(token=letters([r.target[k]])),
                   style=GOOD if r.right[k] else BAD)
        shift = Text()
        if r.alignment is None:
            # (it said "every step starts from the same final state h_15": only step 0 does; step k starts from
            # s_{k−1}, and the shipped `none` decoder's input is ŷ_{k−1}'s embedding alone, a student's check)
            row.append("\n" + _("no attention: the decoder starts from h_{last} and never reads the encoder again;\n"
                                "step k reads only s_{{k−1}} and ŷ_{{k−1}}").format(last=LAST_K), style="dim")
        else:
            row.append("  " + _("α={weight} on h_{j}").format(weight=f"{r.looks_weight:.2f}", j=r.looks_at) + "\n")
            lines = 3 if (self.size.height or 0) >= 30 else 1
            row.append_text(bars_text(r.row, lines=lines, label=names[3]))
            if lines > 1:
                row.append("\n" + " " * cell_len(names[3]) + letters(r.x), style="dim")
            row.append("\n" + legend(), style="dim")
            shift.append(shift_line(r, k, r.weights == "shipped"), style="dim")
        self.query_one("#row", TextLines).update(row)
        self.query_one("#shift", TextLines).update(shift)
        self.query_one("#shift", TextLines).display = bool(shift.plain)

        # (it said "held-out 1000" of the set whose first 76% ended each run: 78.2% there, 75.9% on sequences
        # never seen; a student's check. Fresh ones first, the 1000 beside them named for what they did)
        acc = Text()
        # (cached: the rows above yours are still the shipped models, and it no longer said so: a student's trial)
        acc.append((_("{n} fresh: shipped, and yours") if r.weights == "cached" else
                    _("shipped, {n} fresh sequences")).format(n=fresh_count(r.fresh)) + "\n", style="dim")
        acc.append(" " * 12 + fit(_("exact"), 6, "right") + " " + fit(_("token"), 6, "right") + " "
                   + fit(_("val."), 6, "right") + "\n", style="dim")
        for sc, a in r.fresh.items():
            acc.append(f"{sc:<12}", style="bold" if sc == s.scoring else "")
            acc.append(f"{pct(a['exact']):>6} {pct(a['token']):>6} ")
            acc.append(f"{pct(r.validation[sc]['exact']):>6}\n", style="dim")
        if r.weights == "cached":  # the model drawn, scored as the shipped ones are (its record holds both)
            fresh, val = r.cached.fresh or {}, r.cached.validation or {}
            acc.append(fit(_("yours"), 12), style="bold")
            acc.append(f"{pct(fresh.get('exact')):>6} {pct(fresh.get('token')):>6} ")
            acc.append(f"{pct(val.get('exact')):>6}\n", style="dim")
        why_not = r.cached is not None and (r.cached.unread or r.weights == "shipped")  # 2–3 lines on why not yours
        tall = (self.size.height or 0) >= 22
        if tall or not (r.live or why_not):  # (at 80x24 a live run's lines need its row; help says it)
            # (it read "val.: the 1000 training stops on", a cut-off sentence, a trial)
            acc.append(_("val.: 1000 scored while training") + "\n", style="dim")  # (none's never stopped it)
        if r.live is None and (tall or s.weights == "shipped"):  # (a live run's lines take its place: at 80x24
            acc.append(_("source: none 0%, additive 76%"), style="dim")  # the last of them went under the edge)
        acc.rstrip()
        self.query_one("#acc", TextLines).update(acc)
        self.query_one("#live", TextLines).update(live_text(r.live, self.presenting, r.weights, s.scoring, r.cached,
                                                            s.weights, tall))

    @classmethod
    def explained(cls, s: MatrixState) -> str:
        """Help: what the table's two sets are, and which the sample is from (it read as a fresh one, a maths audit)."""
        r = s.readings()
        return _("The table: each shipped model's exact-sequence and token accuracy on fresh sequences; "
                 "val.: its exact-sequence accuracy on the 1000 validation sequences; the matrix draws one of them, "
                 "its sample number. "
                 "“this run: val. exact”: a live run's latest score on the same 1000. “yours” (w: cached): the "
                 "newest model `rnntui train seq2seq` cached for this scoring that reads, as scored when it was "
                 "trained.") + "\n" + fresh_told(
                     r.fresh, r.validation)


def drawn_text(drawn: str, scoring: str, cached, tall: bool = True, quiet: bool = False) -> Text:
    """Which model the matrix draws (`drawn`: "live", "cached", "shipped"; they were mixed up under `s`, a
    trial), and, where `w` chose the cached one (CachedReadings), a newer file that does not read or that
    nothing is cached. Not `tall` (80x24), why a file does not read is said only where no model of yours is
    drawn: beside "yours" its last words went under the edge (a review). `quiet`: neither is said."""
    out = Text()
    if drawn == "live":
        out.append(_("matrix: this run's weights") + "\n", style="dim")
    elif drawn == "cached":
        said = (ngettext("matrix: yours, seed {seed}, {steps} step", "matrix: yours, seed {seed}, {steps} steps",
                         cached.steps) if cached.steps is not None else
                _("matrix: yours, seed {seed}, no record of its training"))  # ("None steps", a student's trial)
        out.append(said.format(seed=cached.seed, steps=cached.steps) + "\n", style="dim")
    else:
        out.append(_("matrix: the shipped {scoring} model").format(scoring=scoring) + "\n", style="dim")
    if quiet or cached is None:
        return out
    if cached.unread:
        name = os.path.basename(cached.unread) or cached.unread  # (a folder, "~/.cache/rnntui/": whole)
        out.append((_("{name} does not read: {why}").format(name=name, why=problem_said(cached))
                    if tall or drawn == "shipped" else _("{name} does not read").format(name=name)) + "\n", style=BAD)
    elif drawn == "shipped":
        out.append(_("nothing cached: rnntui train seq2seq --scoring {scoring}").format(scoring=scoring) + "\n",
                   style=BAD)
    return out


def problem_said(c) -> str:
    """Why a cached model does not read (CachedReadings), in the app's language."""
    if c.problem_errno is not None:
        return reason(OSError(c.problem_errno, c.problem))
    return _(c.problem_id).format(**c.problem_words) if c.problem_id else c.problem


def live_text(live, presenting: bool = False, drawn: str = "shipped", scoring: str = "", cached=None,
              weights: str = "shipped", tall: bool = True) -> Text:
    """The side panel's lines about a live run (LiveReadings or None), and which model the matrix draws
    where `w` chose another than the shipped one. Not `tall`, a live run's lines come before the cache's."""
    out = Text()
    if live is None:
        if weights != "shipped":  # `w` chose one: which is drawn, and why not the one chosen
            out.append_text(drawn_text(drawn, scoring, cached, tall))
        if weights != "cached":
            out.append("" if presenting else _("t trains this scoring live"), style="dim")
        out.rstrip()
        return out
    # (a live run trains all its steps: at 1000/1000 it read 93.5% beside help's "stops at its first ≥ 76%",
    # said of the shipped runs, a trial; help says both)
    out.append(_(LIVE_STATUS.get(live.status, "{scoring}")).format(scoring=live.scoring)
               + (" · " + _("t stops") if live.status == "training" else
                  aside(_("(all steps)")) if live.status == "trained" else "")  # (", no 76% stop": terse, a review)
               + "\n", style=HIGHLIGHT)
    out.append_text(drawn_text(drawn, scoring, cached, tall, quiet=not tall))  # (the run's lines went under)
    if live.message:
        out.append(live.message, style=BAD)
    elif not live.loaded:  # (stopped before torch came, it still said so: a Chinese student's trial)
        out.append(_("loading torch …") if live.status == "training" else "", style="dim")
    else:
        out.append(f"{progress_bar(live.step, live.steps, 12)} {live.step}/{live.steps}")
        out.append(_(" loss {loss}").format(loss="–" if live.loss is None else f"{live.loss:.3f}") + "\n")
        # (scored as the shipped models above are: "exact 93.1%" alone left open on what; a newcomer's trial)
        # (the 1000, as "val." above); beside another model's matrix, named (a live additive run's 93.5% read as
        # the dot model's, a student's trial)
        said = _("this run: val. exact {exact}") if drawn == "live" or live.scoring == scoring else _(
            "{scoring} run: val. exact {exact}")
        out.append(said.format(exact=pct(live.exact), scoring=live.scoring))
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
        lines = (Line(r.target, _("source 76%"), GREY),) if s.metric == "accuracy" else ()
        self.query_one(Plot).show(PlotSpec(series=series, lines=lines, cursor=float(s.step),
                                           ylim=(0.0, 1.0) if col == 2 else None,
                                           xlim=(0.0, float(r.last_step)), xlabel=_("training step"),
                                           title=_("validation exact-sequence accuracy") if col == 2 else
                                           _("training loss (mean of the last 25 steps)")))
        now = Text()
        now.append(spaced(_("step {step}:").format(step=s.step)), style="bold")
        for sc in ORDER:
            v = r.at[sc]
            # (a run that has ended: "stopped" alone left the reader asking when, and why; a newcomer's trial)
            # (and "stopped at step 500" left why: a run is trained until its first 76%, which the next line says)
            shown = (_("ended at step {step}").format(step=r.run_steps[sc]) if v is None
                     else pct(v[1]) if col == 2 else f"{v[0]:.3f}")
            now.append_text(spelled(f"{sc} ", shown + "   "))
        now.append("\n" + spaced(_("first ≥ 76% (where a run ends):") if any(r.ended_at_target.values())
                                  else _("first ≥ 76%:")), style="dim")
        firsts = []
        for sc, f in r.first_at_target.items():  # what the axis shows, and where a longer run ended
            if f:
                firsts.append(_("{scoring} step {step}").format(scoring=sc, step=f))
            elif r.past_axis[sc]:
                firsts.append(_("{scoring} not by {axis} (nor in all {steps} steps of its run)").format(
                    scoring=sc, axis=r.last_step, steps=r.run_steps[sc]))
            else:
                firsts.append(_("{scoring} never in {steps}").format(scoring=sc, steps=r.run_steps[sc]))
        now.append(_(", ").join(firsts))
        # (the curves score the 1000 whose first 76% ended a run: what the finished models score unseen, a student's check)
        now.append("\n" + spaced(_("finished, on {n} fresh sequences:").format(n=fresh_count(r.fresh))), style="dim")
        now.append("   ".join(f"{sc} {pct(f['exact'])}" for sc, f in r.fresh.items()))
        self.query_one(Readouts).update(now)

    @classmethod
    def explained(cls, s: ScoringState) -> str:
        """Help: where the dot model scores, against Luong's and Bahdanau's papers."""
        r = s.readings()
        return _("The dot model scores e_kj = s_{k−1}·h_j with the decoder's state before its step, where Bahdanau "
                 "scores, and feeds c_k into the GRU step; Luong 2015 scores the state after the step, s_k·h_j, "
                 "and joins c_k with s_k for the output. Only the score is Luong's.") + "\n" + fresh_told(
                     r.fresh, r.validation)


def fresh_count(fresh: dict) -> int:
    """How many fresh sequences the shipped models were scored on (every one on the same set)."""
    return next(iter(fresh.values()))["n"]


def fresh_told(fresh: dict, validation: dict) -> str:
    """Help (both figures): what the 1000 validation sequences did, and the shipped models on fresh ones
    (`fresh`, `validation`: scoring → {"exact", …}, as the readings hold them)."""
    stopped = [sc for sc in ORDER if validation[sc]["exact"] >= TARGET]
    never = [sc for sc in ORDER if validation[sc]["exact"] < TARGET]
    return _("The 1000 validation sequences are scored every {every} steps while a model trains. The shipped "
             "models were trained until their first ≥ {target} there ({stopped}; the {never} model never got there and ran "
             "all {steps} steps): the 1000 chose the stopping point, so a score there can read high. {n} fresh "
             "sequences, never scored in training, give the held-out figure: {scores}. A live run (t on seq2seq/matrix) does "
             "not stop "
             "at {target}: it trains all {live} steps (unless t stops it), its learning rate warming up and then "
             "decaying (the shipped runs kept a constant one), so its val. score can end well above theirs.").format(
        every=EVERY, target=pct(TARGET, 0), live=LIVE_STEPS, n=fresh_count(fresh),
        stopped=_(", ").join(_("{scoring} at step {step}").format(scoring=sc, step=validation[sc]["steps"])
                             for sc in stopped),
        never=_(", ").join(never), steps=_(", ").join(str(validation[sc]["steps"]) for sc in never),
        scores=_(", ").join(
            _("{scoring} {fresh} (validation {validation})").format(
                scoring=sc, fresh=pct(f["exact"]), validation=pct(validation[sc]["exact"])) for sc, f in fresh.items()))


class VisibilityView(FigureView):
    REDRAW_ON_RESIZE = True  # laid out for its own size

    @classmethod
    def explained(cls, s: VisibilityState) -> str:
        """Help: why the task's bits against the bottleneck's numbers is no contradiction (64 numbers can
        hold 69 bits: the line read as undercutting the bottleneck, a student's trial)."""
        r, fresh = s.readings(), shipped_scores()[0]
        return _("“this lab”: the shipped models of seq2seq/matrix. On paper {numbers} numbers could hold the "
                 "task's {bits:.1f} bits (a float has 32); the bottleneck is what training packs into one vector "
                 "and the decoder reads back a token at a time. Without attention the lab's model gets {none} of "
                 "fresh sequences exactly right; with additive attention, {additive}.").format(
            numbers=r.lab["numbers"][0], bits=r.lab["bits"], none=pct(fresh["none"]["exact"]),
            additive=pct(fresh["additive"]["exact"]))

    def compose(self):
        yield Picture(id="picture")
        yield Readouts(id="counts")
        yield Readouts(id="lab")

    def show(self, s: VisibilityState) -> None:
        r, n = s.readings(), s.n
        width = max(self.size.width or 76, 40)
        lab_b, lab_a = r.lab["numbers"]
        self.query_one("#counts", Readouts).show([
            (_("bottleneck") + " d =", f"{r.bottleneck:,}"),
            (_("attention") + f" n·d = {n:,}×{s.d:,} =", f"{r.attention:,}"), (_("ratio"), f"{r.ratio}×"),
        ])
        self.query_one("#lab", Readouts).show([  # a line of its own: it never breaks inside "(n=16, d=64)"
            (_("this lab (n={n},\u00a0d={d})").format(n=r.lab["n"], d=r.lab["d"]),  # (zh: full-width, a trial)
             _("{bottleneck} vs {attention}; the task holds {bits} bits").format(
                 bottleneck=lab_b, attention=f"{lab_a:,}",  # (n tokens of `vocab` each: n·log₂ vocab, a trial asked)
                 bits=f"{r.lab['n']}·log₂{r.lab['vocab']} = {r.lab['bits']:.1f}")),
        ])
        # as tall as fits above the readouts as they wrap at this width (at 160x48 it kept 2, with 30 rows
        # empty under it; grown, it cut the readouts' last line at 52x32, a review)
        under = sum(len(readouts.wrapped(width)) for readouts in self.query(Readouts))  # (kept for their layout)
        tall = visibility_tall((self.size.height or 0) - under - 1)
        self.query_one("#picture", Picture).update(visibility_text(n, s.mode, r.reads, (r.bottleneck, r.attention),
                                                                  r.bars, width, tall))


class Seq2seqScreen(TopicScreen):
    TOPIC_ID = "seq2seq"
    TITLE = N_("The bottleneck, and attention's birth")
    FIGURES = (
        Figure("matrix", N_("Alignment matrix"), "E4", MatrixState, MatrixView,
               N_("Reverse 16 tokens. Row k: output step; column j: encoder state h_j."), key_steps=(0, 1, 8, 15),
               lab=Lab("rnntui.engine.lab_seq2seq:run_lab", N_("train"))),
        Figure("scoring", N_("Additive vs dot scoring"), "E5", ScoringState, ScoringView,
               # ("Luong's dot product" alone: Luong 2015 scores the state after the step, s_k; this model scores
               # s_{k−1} before it, where Bahdanau does, a student's check; help says both)
               # (the shipped runs: `rnntui train seq2seq --seed 0` stops elsewhere, with its schedule; a student's
               # trial took the curves for that command's)
               N_("Shipped runs, seed 0, three ways: Bahdanau's additive score, Luong's dot score placed as "
                  "Bahdanau's, no attention; each measured every 25 steps."),
               key_steps=(10 * EVERY, ScoringState().step)),
        Figure("visibility", N_("What the decoder may read"), "F20", VisibilityState, VisibilityView,
               N_("Without attention the whole source must squeeze through one vector of d numbers; "
                  "with it, every output step may read all n encoder states."), key_steps=(1, 12, 24)),
    )
