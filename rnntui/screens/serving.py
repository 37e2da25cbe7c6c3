"""T8 `serving`: what attention costs at serving time, and the way back to a fixed state."""
from __future__ import annotations

from textual.containers import Horizontal

from rnntui import fmt
from rnntui.figure import Figure
from rnntui.i18n import N_, _, ngettext
from rnntui.figures.serving import CONTEXTS, DECAY_STEPS, N_WAY, CellState, KvState, WaybackState, WindowState
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.cells import aligned, cell_len, fit
from rnntui.widgets.cellsheet import sheet_text
from rnntui.widgets.lines import TextLines
from rnntui.widgets.picture import Picture
from rnntui.widgets.plot import EXTRA_ROWS, Line, Plot, PlotSpec, Series, extra_plot
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BLUE, GREEN, GREY, ORANGE, PURPLE, RED
from rnntui.widgets.track import CellColumns, Row, TokenTrack, cell_rows
from rnntui.widgets.wayback import masked_matrix_text, matrix_width, state_text, state_width

WIDE = 150  # at least this many columns: pictures side by side
TALL = 30  # at least this many rows for the view: the extra plot or grids show


class SizedView(FigureView):
    """A view that knows whether it is wide or tall enough for its extra pictures: `-wide` from WIDE
    columns, `-tall` from TALL rows."""

    REDRAW_ON_RESIZE = True

    def on_resize(self, event) -> None:
        self.set_class(event.size.width >= WIDE, "-wide")
        self.set_class(event.size.height >= TALL, "-tall")

    @property
    def wide(self) -> bool:
        return self.has_class("-wide")


# -- F22 ------------------------------------------------------------------------------------------
class SheetView(SizedView):

    def compose(self):
        with Horizontal(id="cell-row"):
            yield TokenTrack(below=EXTRA_ROWS + 7)  # (the sheet's 6–7 lines and the plot under it)
            yield TextLines(id="sheet")
        yield extra_plot()

    def show(self, s: CellState) -> None:
        r, t = s.readings(), s.step
        self.query_one(TokenTrack).show(cell_rows(r.c, r.h, r.tokens, t), t)
        self.query_one("#sheet", TextLines).update(sheet_text(r.terms, r.weights, t, self.wide, self.has_class("-tall")))
        steps = tuple(float(k) for k in range(t + 1))
        self.query_one(Plot).show(PlotSpec(
            series=(Series(steps, r.c[: t + 1], _("c_t (cell state)"), GREEN),
                    Series(steps, r.h[: t + 1], "h_t = o·tanh(c_t)", BLUE)),
            lines=(Line(0.0, "", GREY),), cursor=float(t), xlim=(0, len(r.tokens) - 1), xlabel="t",
            # t under its cell where the track is as wide as the plot (tick 7 stood 10 columns off it, a trial)
            xcols=None if self.wide else CellColumns(len(r.tokens)),
        ))


# -- F23 ------------------------------------------------------------------------------------------
class WindowView(SizedView):

    def compose(self):
        yield TokenTrack()
        yield Readouts(id="forward")
        yield Readouts(id="backward")
        yield Readouts(id="stored")
        yield extra_plot()

    def show(self, s: WindowState) -> None:
        r, k = s.readings(), s.window
        outside = tuple(i for i, inside in enumerate(r.inside) if not inside)
        grads = tuple("0" if i in outside else g for i, g in enumerate(r.grads))
        label = _("window k={k}: backward").format(k=k) if k >= 3 else f"k={k}"
        self.query_one(TokenTrack).show((Row("h", r.h, "→"), Row("x", r.tokens),
                                         Row("∂h", grads, "←", faint=outside)), None,
                                        span=(r.first_inside, r.n, label))
        last = r.n - 1
        self.query_one("#forward", Readouts).show([
            (_("forward"), _("{h} for every k: the states row never changes").format(h=f"h_{last} = {r.h_last:.4f}"))])
        self.query_one("#backward", Readouts).show([
            (_("backward {grad}:").format(grad=f"∂h_{last}/∂h_t"),
             # one cell inside: its value once ("1.0000 … 1.0000", a trial)
             " … ".join(dict.fromkeys(f"{g:.4f}" for g in (r.grads[r.first_inside], r.grads[-1])))
             + (_(" inside; exactly 0 in the {n} dashed cells").format(n=r.dropped) if r.dropped
                else _(" inside; no cell is cut at this k")))])
        self.query_one("#stored", Readouts).show([
            (_("activations stored for backward"), _("{n} of {total}").format(n=r.stored, total=r.n)),
            (_("{grad} kept").format(grad=f"∂h_{last}/∂W_h"),  # ("seen", a trial: unclear)
             _("{n} of {total}").format(n=f"{r.weight_grad:.4f}", total=f"{r.weight_grad_full:.4f}"))])
        t = tuple(float(i) for i in range(r.n))
        self.query_one(Plot).show(PlotSpec(
            series=(Series(t, r.full_grads, _("full {grad}").format(grad="∂h_7/∂h_t"), GREY, behind=True),
                    Series(t, r.grads, _("window k={k}").format(k=k), ORANGE, behind=r.stored == 1),
                    # one point inside at k = 1: a blob too, not a curve's single dot (it read as no window, a
                    # lecturer's slides)
                    *((Series(t[-1:], r.grads[-1:], "", ORANGE, scatter=True, marker="braille"),) if r.stored == 1 else ())),
            lines=(Line(r.first_inside - 0.5, _("cut"), RED, vertical=True, dashed=True),) if r.dropped else (),
            log_y=True, ylim=(1e-2, 1.5), xlim=(0, r.n - 1),  # (▼0 said where none is drawn: k = 8, a trial)
            xlabel=_("t (▼0: the gradient is exactly 0 from here back)") if r.dropped else "t",
            xcols=CellColumns(r.n),  # t under its cell, the cut under the track's ✂
        ))


KV_XLABEL = 22  # rows of the view from which the plot's x axis is named (at 100x30 it was not, a trial)


# -- F24 ------------------------------------------------------------------------------------------
class KvView(SizedView):
    def compose(self):
        yield Readouts(id="kv")
        yield Readouts(id="state")
        yield Readouts(id="ratio")
        yield Plot()
        yield Readouts(id="units")

    def show(self, s: KvState) -> None:
        r = s.readings()
        n = fmt.grouped(s.context)
        names = aligned((_("KV cache"), _("recurrent state")))  # the two products start in one column
        self.query_one("#kv", Readouts).show([
            (names[0] + _("2 (K,V)·{layers} layers·{kv_width} wide·{n} tokens·{b} B =").format(
                layers=r.layers, kv_width=r.kv_width, n=n, b=r.dtype_bytes), fmt.binary_bytes(r.kv_bytes))])
        self.query_one("#state", Readouts).show([
            (names[1] + _("{layers} layers·{width} wide·{b} B =").format(
                layers=r.layers, width=r.width, b=r.dtype_bytes), fmt.binary_bytes(r.state_bytes)),
            (_("at any context"), "")], sep="  ")
        gqa = ("" if s.gqa == "1" else "   " + _("gqa {g}: {g} query heads share a K, V: ÷{g} of {full}").format(
            g=s.gqa, full=fmt.binary_bytes(r.kv_bytes_mha)))  # (what gqa is was unsaid, a student's trial)
        self.query_one("#ratio", Readouts).show([
            (_("cache / state"), f"{fmt.grouped(r.ratio)}×"),
            ("", _("{share} of an 80 GB (80 GiB) accelerator").format(share=fmt.pct(r.share, tiny=True))
             + ("" if r.fits else " ▲ " + _("does not fit")) + gqa),
            ("", _("over 80 GiB from {n} tokens").format(n=fmt.grouped(r.full_at)))])  # (one sentence: in Chinese
            # the count comes first, 从 … 起超过 80 GiB, a review)
        self.query_one("#units", Readouts).show([
            (_("an LSTM keeps h and c:"), fmt.binary_bytes(r.lstm_bytes)),
            (_("KV cache, exactly"), f"{fmt.grouped(r.kv_bytes)} B")])
        self.query_one(Plot).show(PlotSpec(
            # the y axis's unit in the legend: it had none (a newcomer's trial)
            series=(Series(r.tokens, r.kv_curve, _("KV cache bytes (grow with context)"), ORANGE),
                    Series(r.tokens, r.state_curve, _("recurrent state bytes (fixed)"), BLUE)),
            # where the cache fills it, as a line down: in the same row as the 80 GB line, the curve seemed
            # to reach it three times sooner (a lecturer's trial)
            lines=(Line(r.accelerator_bytes, _("80 GB accelerator"), RED, dashed=True, align="left"),
                   *([Line(r.full_at, "", RED, vertical=True, dashed=True)] if r.full_at <= CONTEXTS[-1] else [])),
            cursor=float(s.context), log_x=True, log_y=True, xlim=(CONTEXTS[0], CONTEXTS[-1]),
            ylim=(1e5, 1e12), xlabel=_("context (tokens)") if self.size.height >= KV_XLABEL else "", legend="below",
        ))


# -- the way back -----------------------------------------------------------------------------------
GRIDS_SIZE = "120x40"  # where the way back's two grids show (a test checks it)


class WaybackView(SizedView):

    @classmethod
    def explained(cls, s: WaybackState) -> str:
        """Help: what the recall lines measure, and what γ does to them."""
        return _("Recall error: n pairs written into a state by S_t = γS_{t−1} + k_t v_tᵀ, each value read back "
                 "by Sᵀk_j, against what was written. Random unit keys overlap: √((n−1)/d) at γ 1. A γ below 1 "
                 "fades the old pairs and damps their overlap, “expected” then being "
                 "√((1/n)·[Σ(1−γ^a)² + (n−1)/d·Σγ^{2a}]), a = 0 … n−1. Orthonormal keys (at most d) do not "
                 "overlap: exact at γ 1, the fade alone below.")

    def compose(self):
        yield Readouts(id="outs")
        yield Readouts(id="decay")
        yield Readouts(id="memory")
        yield Readouts(id="capacity")
        with Horizontal(id="wb-grids"):
            yield Picture(id="matrix")
            yield Picture(id="state")
        yield Readouts(id="wb-note")
        yield Readouts(id="family")
        yield extra_plot()

    def show(self, s: WaybackState) -> None:
        r, t = s.readings(), s.step
        wide = self.wide
        names = aligned((_("parallel"), _("recurrent")))  # the two vectors start in one column
        how = aligned((_("= row t of the masked matrix · V"), "= φ(q_t)ᵀS_t / φ(q_t)ᵀz_t"), 4)
        self.query_one("#outs", Readouts).show([
            (names[0] + f"out_{t}" + ("  " + how[0] if wide else ""), fmt.signed_vector(r.out_parallel)),
            (names[1] + f"out_{t}" + ("  " + how[1] if wide else ""), fmt.signed_vector(r.out_recurrent)),
            (_("largest |difference|"), _("{diff} (rounding)").format(diff=fmt.sci(r.diff)))], sep="\n")
        # (a fixed γ is a decay, not a gate: Mamba's, from the input, is; "gated" said otherwise, a trial)
        gated = (_("plain") if s.gamma >= 1 else _("fixed decay")) if not wide else (
            _("plain linear attention") if s.gamma >= 1 else _("fixed decay, RetNet-style (Mamba: γ_t from the input)"))
        self.query_one("#decay", Readouts).show([
            (f"γ {s.gamma:.2f}", gated), (f"γ^{DECAY_STEPS}", _("{left} (lstm/path's f^k)").format(left=fmt.small(r.decay_left)))])
        self.query_one("#memory", Readouts).show([
            (_("state"), _("{size} = {n} numbers, any n").format(size=f"{r.d}×{r.d} + {r.d}", n=r.state_numbers)),
            (_("KV cache {formula} =").format(formula="2·n·d"),
             _("{count} at n={n}").format(count=fmt.grouped(r.kv_numbers), n=r.stored) if r.stored == r.n else
             _("{count} at n={n}, {all} at n={last}").format(count=fmt.grouped(r.kv_numbers), n=r.stored,
                                                            all=fmt.grouped(r.kv_numbers_all), last=r.n))])
        # the recall is S's own: written with the γ shown, S = Σ γ^{n−1−i} k_i v_iᵀ, so a γ below 1 fades the
        # old pairs and damps their overlap (it read "γ 1" at γ 0.90, a trial)
        if not r.orthonormal_fits:
            ortho = _("none (only {d} exist)").format(d=r.d)
        elif r.recall_orthonormal < 1e-12:
            ortho = _("{error}, exact").format(error=fmt.sci(r.recall_orthonormal))
        else:
            ortho = _("{error}, γ's fade alone").format(error=f"{r.recall_orthonormal:.2f}")
        first = ngettext("recall error, {n} pair, γ {gamma}: orthonormal keys",
                         "recall error, {n} pairs, γ {gamma}: orthonormal keys", r.stored).format(
            n=r.stored, gamma=f"{s.gamma:.2f}")
        expected = (f"√((n−1)/d) = {r.recall_closed_form:.2f}" if s.gamma >= 1
                    else _("{value} expected").format(value=f"{r.recall_closed_form:.2f}"))
        self.query_one("#capacity", Readouts).show([
            (first, ortho),
            (fit(_("random keys"), cell_len(first), "right"), f"{r.recall_random:.2f} ≈ {expected}")], sep="\n")
        family = self.query_one("#family", Readouts)
        family.show([(fit(_(name), 16), _(line)) for name, line in r.architectures], sep="\n")
        kin = len(family.wrapped(self.size.width))  # its lines at this width
        grids, gap = None, self.query_one("#matrix").styles.margin.right  # (rnntui.tcss: between the grids)
        width, tall = self.size.width, len(r.matrix) + 2  # the grids' rows: a line above, the titles, n rows
        rows = self.size.height - sum(len(self.query_one(f"#{k}", Readouts).wrapped(width)) for k in (
            "outs", "decay", "memory", "capacity"))  # under the readouts (0 before the first layout: redrawn)
        # fewer places where both grids fit side by side that way (at 120 columns the state was cut, a trial);
        # none where even four cells a value do not fit (cut at 80–95, a review)
        fits = next(((short, places) for short, places in ((False, None), (True, 2), (True, 1), (True, 0))
                     if matrix_width(len(r.matrix), short) + gap + state_width(r.S, r.z, t, places) <= width), None)
        if rows > tall and fits:  # (measured, then drawn once)
            grids = masked_matrix_text(r.matrix, t, fits[0]), state_text(r.S, r.z, t, fits[1])
        # the grids take the family's and the plot's rows where all do not fit, a line left for the note (at
        # 100x30, the lecture's size, the slide "trained as a masked n×n matrix, served as a recurrence" had no
        # grid: the family and the plot took the rows, a lecturer's trial)
        instead = grids is not None and rows < tall + 1 + kin + 1  # (its blank last line,
        for text in grids if instead else ():  # the plot's line at least); the matrix's blank last line is the
            text.rstrip()  # note's
        # without the grids, the plot where it has a row, and where its own line would not name a size at which the
        # grids take its place (100x29 said "--size 100x30 shows a plot here", a review): else the note names it
        plot, room = self.query_one(Plot), rows - (0 if self.presenting else 1) - kin  # (the note's line)
        plot_out = grids is None and (room < 1 or (room < plot.smallest(width) and fits is not None)
                                      # a slide names no size: a plot short of rows is left out (80x24, a review)
                                      or self.presenting and room < plot.drawn_from(width))
        self.query_one("#wb-grids").display = grids is not None
        family.display = not instead
        plot.display = not (instead or plot_out)
        note = self.query_one("#wb-note", Readouts)  # (the figure's point left out without a word at 80x24, a trial)
        note.display = (grids is None or instead) and not self.presenting  # (a slide names no size to use: the
        # lecture's last two slides told the room "--size 120x40 also shows RetNet, Mamba…", a lecturer's slides)
        shot = getattr(self.app, "offscreen", False)
        if instead:
            said = (_("--size {size} also shows RetNet, Mamba, RWKV in a line each and the recall plot") if shot
                    else _("a {size} terminal also shows RetNet, Mamba, RWKV in a line each and the recall plot"))
            note.show([(said.format(size=GRIDS_SIZE), "")])
        elif note.display:  # one line at 80 columns (in a terminal it took two and cut the family's last, a trial)
            if plot_out:
                said = (_("--size {size} shows the masked n×n matrix, the state S_t and a plot") if shot
                        else _("a {size} terminal shows the masked n×n matrix, the state S_t and a plot"))
            else:
                said = (_("--size {size} shows the masked n×n matrix and the state S_t beside it") if shot
                        else _("a {size} terminal shows the masked n×n matrix and the state S_t beside it"))
            note.show([(said.format(size=GRIDS_SIZE), "")])
        if grids:
            self.query_one("#matrix", Picture).update(grids[0])
            self.query_one("#state", Picture).update(grids[1])
        n = tuple(float(k) for k in r.recall_n)
        self.query_one(Plot).show(PlotSpec(
            series=(Series(n, r.recall_random_curve, _("random unit keys (measured)"), ORANGE),
                    Series(n, r.recall_closed_curve, "√((n−1)/d)" if s.gamma >= 1
                           else _("expected: fade + overlap"), GREY),
                    Series(n[: r.d], r.recall_orthonormal_curve, _("orthonormal keys"), GREEN)),
            lines=(Line(float(r.d), f"n = d = {r.d}", PURPLE, vertical=True, dashed=True),),
            cursor=float(r.stored), xlim=(1, n[-1]), xlabel=_("pairs n written into one d×d state at γ {gamma}: recall error").format(gamma=f"{s.gamma:.2f}"),
        ))


class ServingScreen(TopicScreen):
    TOPIC_ID = "serving"
    TITLE = N_("Serving: the state comes back")
    FIGURES = (
        Figure("cell", N_("The LSTM cell in full"), "F22", CellState, SheetView,
               N_("The cheat sheet: gates from x_t and h_{t−1}, c = f·c + i·ĉ, h = o·tanh(c). Every term has its "
                  "value: lstm's weights at b_f = 1, recurrence's tokens."),  # (not lstm's b_f as set: a trial)
               key_steps=(0, 3, 7)),
        Figure("window", N_("Truncated BPTT"), "F23", WindowState, WindowView,
               N_("Backpropagate through only the last k states: the forward pass is unchanged, the "
                  "gradient is exactly 0 behind the cut, and only k activations are stored."),
               key_steps=(1, 4, 8)),
        Figure("kvcache", N_("KV cache vs recurrent state"), "F24", KvState, KvView,
               N_("Serving attention keeps a K and a V per past token per layer; a recurrent model, one fixed "
                  "state. Binary units: GiB = 2³⁰ B (the source writes GB, KB)."),
               key_steps=(4096, 131_072)),
        Figure("wayback", N_("The way back"), "§8", WaybackState, WaybackView,
               N_("Linear attention trains as a masked n×n matrix and serves as a recurrence S_t = γS_{t−1} "
                  "+ φ(k_t)v_tᵀ: the same outputs, from a fixed d×d state."),
               key_steps=(0, N_WAY - 1)),
    )
