"""T5 `attention`: attention as a lookup, computed stage by stage; then one encoder layer and the
lecture in one table (issue 19)."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal
from rnntui.widgets.quiet import Static

from rnntui.figure import Figure
from rnntui.figures import attention as fa
from rnntui.figures.attention import (BlockState, HeadsState, MasksState, PositionsState, QkvState,
                                      ScalingState, SummaryState)
from rnntui.fmt import fixed, grouped, pct, sci, si, small
from rnntui.i18n import N_, _
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.state import BadValue
from rnntui.widgets.cells import fit
from rnntui.widgets.matrix import HeatMap, Matrices, MatrixSpec
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BLUE, GREY, ORANGE

SHORT = ("X", "Q K V", "S", "Ŝ", "A", "out")  # the stage bar's names
VISIBLE, HIDDEN = "●", "·"
WORDS = {  # the engine's names of families, blocks and models, as drawn
    "encoder": N_("encoder"), "decoder": N_("decoder"), "encoder-decoder": N_("encoder-decoder"),
    "self": N_("self"), "cross": N_("cross"), "original Transformer": N_("original Transformer"),
}


def word(name: str) -> str:
    return _(WORDS.get(name, name))


def stage_bar(names, current: int) -> Text:
    """X → Q K V → … with the current stage reversed between ▸ ◂."""
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(" → ", style="dim")
        out.append(f"▸{name}◂" if i == current else name, style="bold reverse" if i == current else "")
    return out


def vec(values, digits: int = 2, most: int = 5) -> str:
    """(a, b, c) — at most `most` entries, then …; digits 0: as short as the number allows."""
    shown = [sci(v) if digits == 0 else fixed(v, digits) for v in values[:most]]
    return "(" + ", ".join(shown) + (", …" if len(values) > most else "") + ")"


def cols(n: int) -> tuple[str, ...]:
    return tuple(str(j) for j in range(n))


# -- qkv -------------------------------------------------------------------------------------------
CONTEXT = {0: (), 1: ("X",), 2: ("Q", "K"), 3: ("S",), 4: ("Ŝ",), 5: ("A", "V")}
GROUP = {"X": 0, "Q": 1, "K": 1, "V": 1, "S": 2, "Ŝ": 3, "A": 4, "out": 5}


class QkvView(FigureView):
    def compose(self):
        yield Static(id="stages")
        yield Matrices()
        yield Static(id="spell")
        yield Readouts(id="pinned")

    def show(self, s: QkvState) -> None:
        r = s.readings()
        t, k = s.query, s.stage
        toks = r.tokens
        feats = fa.FEATURES if s.weights == "toy" else cols(len(r.X[0]))
        dims = cols(r.d_k)
        hidden = tuple((i, j) for i, row in enumerate(r.visible) for j, v in enumerate(row) if not v)
        focus = (t, r.query_keys[-1]) if r.query_keys else None
        mats = {
            "X": (r.X, feats, None), "Q": (r.Q, dims, None), "K": (r.K, dims, None), "V": (r.V, dims, None),
            "S": (r.scores, toks, focus), "Ŝ": (r.masked_scores, toks, focus), "A": (r.weights, toks, focus),
            "out": (r.output, dims, None)}
        titles = {"X": _("X tokens"), "S": "S = QKᵀ/√d_k", "Ŝ": _("masked S"), "A": "A = softmax(Ŝ)",
                  "out": "out = A·V"}
        specs = []
        for name, (values, col_labels, cell) in mats.items():
            group = GROUP[name]
            rank = 0 if group == k else 1 if name in CONTEXT[k] else 2 + 2 * abs(group - k) + (group > k)
            specs.append(MatrixSpec(values, titles.get(name, name), toks, col_labels, row=t,
                                    cell=cell if name in ("S", "Ŝ", "A") else None, current=group == k,
                                    faint=hidden if name in ("Ŝ", "A") else (), optional=rank))
        self.query_one(Matrices).show(specs)
        self.query_one("#stages", Static).update(stage_bar(SHORT, k))

        spell = Text()
        if not r.query_keys:
            spell.append(_("query {token} may read no key ({mask} mask): softmax over nothing = 0/0 =").format(
                token=toks[t], mask=s.mask) + " ", style="dim")
            spell.append("NaN", style="bold")
            spell.append("\n" + _("so out_{t} = NaN too: drawn, not hidden").format(t=t), style="dim")
        else:
            first, last = toks[r.query_keys[0]], toks[r.query_keys[-1]]
            seen = first if first == last else f"{first}…{last}"
            spell.append(_("query {token} reads {seen}:").format(token=toks[t], seen=seen) + " ", style="dim")
            spell.append(f"q·k = {vec(r.query_dots, 0)} ÷√{r.d_k} → s = {vec(r.query_scores, 0)}\n")
            spell.append("a = softmax(s) = ", style="dim")
            spell.append(f"{vec(r.query_weights, 3)}\n")
            spell.append(f"out_{t} = Σ aᵢ·vᵢ = ", style="dim")
            spell.append(vec(r.query_output, 3, 4), style="bold")
        self.query_one("#spell", Static).update(spell)

        p = r.pinned
        if s.weights == "toy" and s.mask == "full":
            pairs = [("A[突然,开始]", small(p["A[突然,开始]"])), ("A[突然,跑]", small(p["A[突然,跑]"])),
                     ("A[跑,猫]", small(p["A[跑,猫]"]))]
        elif s.weights == "toy":
            pairs = [("A[跑,猫]", small(p["A[跑,猫]"])), ("A[猫,那只]", small(p["A[猫,那只]"])),
                     ("A[突然,0…2]", " ".join(small(p[c]) for c in ("A[突然,那只]", "A[突然,猫]", "A[突然,突然]")))]
        else:
            pairs = [(_("random x, W"), _("seed 002: x ~ N(0,1) 5×64, W ~ 0.02·N(0,1)"))]
        exact = " " + _("(exactly)") if r.edit_early == 0.0 else ""
        pairs2 = [(_("x: redraw {tokens} → Δout rows 0–{last}").format(
                       tokens=" ".join(fa.TOKENS[fa.EDIT_AFTER + 1:]), last=fa.EDIT_AFTER), sci(r.edit_early) + exact),
                  (_("rows {first}–{last}").format(first=fa.EDIT_AFTER + 1, last=len(toks) - 1), sci(r.edit_late))]
        if r.nan_rows:
            pairs2.append((_("NaN rows"), " ".join(toks[i] for i in r.nan_rows)))
        self.query_one("#pinned", Readouts).update(Text("\n").join([_pairs(pairs), _pairs(pairs2)]))


def _pairs(pairs) -> Text:
    from rnntui.widgets.readouts import readout_text

    return readout_text(pairs)


# -- scaling ---------------------------------------------------------------------------------------
class ScalingView(FigureView):
    def compose(self):
        yield Plot()
        yield Readouts()

    def show(self, s: ScalingState) -> None:
        r = s.readings()
        self.query_one(Plot).show(PlotSpec(
            series=(Series(tuple(map(float, r.dks)), r.max_weight_unscaled, _("unscaled q·k"), ORANGE),
                    Series(tuple(map(float, r.dks)), r.max_weight_scaled, _("scaled q·k/√d_k"), BLUE)),
            lines=(Line(r.uniform, _("uniform 1/8"), GREY, align="right"),
                   Line(1.0, _("one-hot"), GREY, align="right")),
            cursor=float(s.d_k), log_x=True, xlim=(1.0, 1024.0), ylim=(0.0, 1.05), xlabel=_("d_k (log)"),
            title=_("mean largest softmax weight over 8 keys"),
            marks=((float(s.d_k), r.max_weight, "●"),)))
        o = r.other
        other = "unscaled" if r.scaled else "scaled"
        rows = Text()
        for name, v in ((s.scaling, {"score_var": r.score_var, "max_weight": r.max_weight, "entropy": r.entropy,
                                      "jacobian_norm": r.jacobian_norm}), (other, o)):
            rows.append(f"{'▸' if name == s.scaling else ' '}{name:<9}", style="bold reverse" if name == s.scaling else "")
            rows.append("  var(q·k) ", style="dim")
            rows.append(f"{sci(v['score_var']):>6}", style="bold")
            rows.append("  " + _("max weight") + " ", style="dim")
            rows.append(fixed(v["max_weight"], 3), style="bold")
            rows.append("  " + _("entropy") + " ", style="dim")
            rows.append(fixed(v["entropy"], 3), style="bold")
            rows.append("  ‖∂a/∂s‖ ", style="dim")
            rows.append(fixed(v["jacobian_norm"], 3) + "\n", style="bold")
        rows.append(fit(" " + _("uniform"), 27) + f"  {_('max weight')} {fixed(r.uniform, 3)}  {_('entropy')} "
                    f"ln 8 = {fixed(r.ln_keys, 3)}\n", style="dim")
        rows.append(_("Saturated, the softmax Jacobian diag(a)−aaᵀ → 0: no gradient, as tanh′ → 0 in T2."),
                    style="dim")
        self.query_one(Readouts).update(rows)


# -- masks -----------------------------------------------------------------------------------------
class MasksView(FigureView):
    def compose(self):
        yield Matrices()
        yield Readouts()

    def show(self, s: MasksState) -> None:
        r = s.readings()
        specs = []
        for f, (family, blocks) in enumerate(zip(r.families, r.blocks)):
            for name, visible in blocks:
                cross = name == "cross"
                tgt = family == "encoder-decoder"
                rows = r.tgt_tokens if tgt else r.src_tokens
                values = tuple(tuple(VISIBLE if v else HIDDEN for v in row) for row in visible)
                title = word(family) if family != "encoder-decoder" else _("enc–dec {block}").format(block=word(name))
                specs.append(MatrixSpec(values, title if family != "encoder-decoder" or cross else title,
                                        rows, cols(len(values[0])), current=f == s.family))
        self.query_one(Matrices).show(specs)
        counts = ["+".join(map(str, c)) for c in r.counts]
        lines = [
            _pairs([(_("visible cells"), _("{full} full · {causal} causal · {both} (decoder self + cross)").format(
                full=counts[0], causal=counts[1], both=counts[2]))]),
            _pairs([(word(fam) + ":", "/".join(word(m) for m in ms)) for fam, ms in zip(r.families, r.models)]),
        ]
        words = {
            "encoder": _("every token reads every token, both directions: for understanding a whole input."),
            "decoder": _("token t reads 0…t only: it can be trained on every position at once and still generate."),
            "encoder-decoder": _("the decoder reads its own past (causal) and, through cross-attention, all of "
                                 "the encoder's states: T4's seq2seq attention is exactly this cross block."),
        }
        lines.append(Text(f"▸ {word(r.families[s.family])}: " + words[r.families[s.family]]))
        lines.append(Text(_("rows: queries; columns: keys; {visible} may read, {hidden} masked (−∞ before "
                            "softmax). Decoder positions {positions}.").format(
                              visible=VISIBLE, hidden=HIDDEN, positions=" ".join(r.tgt_tokens)), style="dim"))
        self.query_one(Readouts).update(Text("\n").join(lines))


# -- heads -----------------------------------------------------------------------------------------
class HeadsView(FigureView):
    def compose(self):
        yield Matrices()
        yield Readouts()

    def show(self, s: HeadsState) -> None:
        r = s.readings()
        table = tuple((str(dk), grouped(p), grouped(e)) for _h, dk, p, e in r.table)
        hs = [row[0] for row in r.table]
        specs = [MatrixSpec(table, f"d = {r.d}", tuple(f"h={h}" for h in hs),
                            ("d_k", _("4d² params"), f"h·n² (n={r.n})"), row=hs.index(r.h), optional=1)]
        cells = ((4, 1), (2, 3))
        for j, a in enumerate(r.weights):
            specs.append(MatrixSpec(a, _("toy head {j}: A ({mask})").format(j=j + 1, mask=s.mask), r.tokens,
                                    r.tokens, cell=cells[j],
                                    current=True))
        self.query_one(Matrices).show(specs)
        c, p = r.cells, r.pinned
        self.query_one(Readouts).update(Text("\n").join([
            _pairs([(f"h = {r.h}: d_k = d/h", str(r.d_k)), ("W_q W_k W_v W_o = 4d²", grouped(r.params)),
                    (_("+4d biases"), grouped(r.params_bias)),
                    (_("whatever h; score entries h·n²"), grouped(r.score_entries))]),
            _pairs([(_("{mask}: head 1 A[跑,猫]").format(mask=s.mask), small(c["head 1 A[跑,猫]"])),
                    (_("head 2 A[突然,开始]"), small(c["head 2 A[突然,开始]"]))]),
            _pairs([(_(k), small(v)) for k, v in p.items()]),
            Text(_("The toy's 4 columns split into two heads of d_k = 2, each scaled by its own √2: head 1 "
                   "(noun, verb) and head 2 (det, adv) attend differently."), style="dim"),
        ]))


# -- positions -------------------------------------------------------------------------------------
class PositionsView(FigureView):
    def compose(self):
        with Horizontal():
            yield HeatMap()
            yield Readouts(id="side")
        yield Readouts(id="legend")

    def show(self, s: PositionsState) -> None:
        r = s.readings()
        self.query_one(HeatMap).show(r.pe, tuple(str(i) for i in range(r.positions)), cols(r.d), "pos",
                                     transpose=True, group=2)
        p = r.pinned
        here = (s.mask, s.pe)
        rows = [(("full", "off"), _("full, no PE"), r.full_no_pe, _("permuted rows")),
                (("full", "on"), _("full + PE"), r.full_pe, _("differ")),
                (("causal", "off"), _("causal, no PE"), r.causal_no_pe, _("differ"))]
        side = Text()
        for label, value in (("PE(1,0) = sin 1", p["PE(1,0)"]), ("PE(1,1) = cos 1", p["PE(1,1)"]),
                             ("PE(10,0) = sin 10", p["PE(10,0)"])):
            side.append(f"{label:<19}", style="dim")
            side.append(f"{fixed(value, 6):>9}\n", style="bold")
        side.append("‖PE(p)‖²      ", style="dim")
        side.append(f"{fixed(r.norm2[0], 3)} … {fixed(r.norm2[-1], 3)}", style="bold")
        side.append(" = d/2\n", style="dim")
        for k, dots in ((1, r.dots_k1), (4, r.dots_k4)):
            side.append(f"PE(p)·PE(p+{k}) ", style="dim")
            side.append(f"{fixed(dots[0], 3)} … {fixed(dots[-1], 3)}\n", style="bold")
        side.append(_("{a} vs {b}, max |Δ rows|").format(a=r.orders[0], b=r.orders[1]) + "\n", style="bold")
        for key, label, value, said in rows:
            mark = "▸" if key == here else " "
            side.append(mark + fit(label, 14), style="bold reverse" if key == here else "")
            side.append(f" {sci(value):>8} {said}\n")
        if here not in [row[0] for row in rows]:
            side.append("▸" + fit(s.mask + " + PE", 14), style="bold reverse")
            side.append(f" {sci(r.gap):>8} " + _("(this state)") + "\n")
        self.query_one("#side", Readouts).update(side)
        self.query_one("#legend", Readouts).update(Text(
            _("rows: dimensions 0…{last} (sin, cos pairs sampled to fit), columns: positions; ░▒▓█ |PE| and its "
              "sign. … : first and last p, equal for every p.").format(last=r.d - 1), style="dim"))


# -- block -----------------------------------------------------------------------------------------
NOTES = {
    "x": N_("the toy sentence's rows (noun, verb, det, adv): d = 4, d_ff = 16, two heads"),
    "attn": N_("two heads of d_k = 2 with the toy W_q, W_k, W_v, full mask (an encoder), W_o = I"),
    "x+attn": N_("residual x + f(x): the identity path the LSTM cell state gives in time (T3), in depth"),
    "+FFN": N_("residual x + f(x): the identity path the LSTM cell state gives in time (T3), in depth"),
    "hidden": N_("FFN = key–value memory: rows of W₁ are keys (torch layout), columns of W₂ their values"),
    "FFN": N_("the same small network at every position: no mixing between tokens (attention did that)"),
}


class BlockView(FigureView):
    def compose(self):
        yield Static(id="stages")
        yield Matrices()
        yield Readouts(id="note")
        yield Readouts(id="bill")

    def show(self, s: BlockState) -> None:
        r = s.readings()
        name = r.stage_name
        self.query_one("#stages", Static).update(stage_bar(r.stages, s.stage))
        specs = []
        if r.previous:
            prev = r.matrices[r.previous]
            specs.append(MatrixSpec(prev, r.previous, r.tokens, cols(len(prev[0])), optional=1))
        cur = r.current
        specs.append(MatrixSpec(cur, name, r.tokens, cols(len(cur[0])), current=True))
        if name == "attn":
            specs += [MatrixSpec(a, _("head {j} A").format(j=j + 1), r.tokens, r.tokens, optional=2)
                      for j, a in enumerate(r.weights)]
        self.query_one(Matrices).show(specs)
        if name in r.ln_rows:
            ln = r.ln_rows[name]
            note = Text(_("{name} rows before γ, β: mean").format(name=name) + " ", style="dim")
            note.append(" ".join(fixed(v, 3) for v in ln["mean"]), style="bold")
            note.append("  " + _("variance") + " ", style="dim")
            note.append(" ".join(fixed(v, 3) for v in ln["var"]), style="bold")
        else:
            note = Text(_(NOTES.get(name, "")), style="dim")
        self.query_one("#note", Readouts).update(note)
        p, f = r.params, r.flops
        bill = Text()
        bill.append(_("params: attention") + " ", style="dim")
        bill.append(grouped(p["attention"]), style="bold")
        bill.append(" + FFN ", style="dim")
        bill.append(grouped(p["ffn"]), style="bold")
        bill.append(" + LN ", style="dim")
        bill.append(grouped(p["norms"]), style="bold")
        bill.append(" = ", style="dim")
        bill.append(grouped(p["per_layer"]), style="bold")
        bill.append(" " + _("per layer") + "\n", style="dim")
        bill.append(_("× {layers} layers =").format(layers=s.layers) + " ", style="dim")
        bill.append(grouped(p["total"]), style="bold")
        bill.append("   (" + _("BERT-base encoder:") + " ", style="dim")
        bill.append(grouped(r.bert_base), style="bold")
        bill.append(")\n", style="dim")
        bill.append(_("FLOPs n={n}: core 2n²d").format(n=s.n) + " ", style="dim")
        bill.append(si(f["attention_core"]), style="bold")
        bill.append(" + " + _("proj+FFN") + " ", style="dim")
        bill.append(si(f["dense"]), style="bold")
        bill.append(" " + _("({share} core) → parallel/cost").format(share=pct(f['core_share'])), style="dim")
        self.query_one("#bill", Readouts).update(bill)


# -- summary ---------------------------------------------------------------------------------------
class SummaryView(FigureView):
    def compose(self):
        yield Matrices()
        yield Readouts()

    def show(self, s: SummaryState) -> None:
        r = s.readings()
        unlinked = tuple((i, j) for i, row in enumerate(r.links) for j, link in enumerate(row)
                         if link is None or not link["open"])
        table = tuple(tuple(_(text) for text in row) for row in r.table)
        self.query_one(Matrices).show([MatrixSpec(table, "", r.models, tuple(_(h) for h in r.headers[1:]), row=r.row,
                                                  cell=(r.row, r.col), faint=unlinked, shrink=True)])
        out = Text()
        out.append(f"▸ {r.models[r.row]} · {_(r.headers[r.col + 1])}: ", style="bold")
        out.append(_(r.text) + "\n")
        link = r.link
        if link is None:
            out.append(_("no figure for this cell"), style="dim")
        elif link["open"]:
            out.append(_("Enter:") + " ", style="dim")
            out.append(link["command"].removeprefix("rnntui "), style="bold")
            out.append(" · " + _("backspace: back"), style="dim")
        else:
            out.append(_("{target}: not in this build (plain text)").format(target=link["target"]), style="dim")
        out.append("\n" + _("←→ move along a row, ↑↓ between rows; bright cells link to a figure"), style="dim")
        self.query_one(Readouts).update(out)


class AttentionScreen(TopicScreen):
    TOPIC_ID = "attention"
    TITLE = N_("Attention as a lookup")
    EXTRA_BINDINGS = [Binding("enter", "open_link", N_("open"), id="open_link")]
    FIGURES = (
        Figure("qkv", N_("Q, K, V stage by stage"), "T5", QkvState, QkvView,
               N_("Each token asks (q), offers a key (k) and a value (v): scores q·k/√d_k, the mask, a softmax "
               "per row, and each output is a weighted sum of values."),
               key_steps=tuple(range(len(fa.QKV_STAGES)))),
        Figure("scaling", N_("Why divide by √d_k"), "T5", ScalingState, ScalingView,
               N_("Random q and k: q·k has variance d_k. Without the scale the softmax saturates to one-hot "
               "and passes no gradient; with it nothing depends on d_k."), key_steps=(4, 64, 512)),
        Figure("masks", N_("Three families, three masks"), "T5", MasksState, MasksView,
               N_("Who may read whom: encoder-only reads everything, decoder-only its past, encoder–decoder "
               "both its past and, across, the whole source."), key_steps=(0, 1, 2)),
        Figure("heads", N_("Many heads, the same bill"), "T5", HeadsState, HeadsView,
               N_("h heads of d_k = d/h cost the same 4d² parameters as one; only the score matrices "
               "multiply, h·n². Each head can look for something else."), key_steps=(1, 8, 64)),
        Figure("positions", N_("Where a token is"), "T5", PositionsState, PositionsView,
               N_("Attention alone sees a set. Sinusoidal positions: one (sin, cos) pair per frequency; "
               "e adds them, m changes the mask."), key_steps=(64,)),
        Figure("block", N_("One encoder layer"), "T5", BlockState, BlockView,
               N_("Attention mixes tokens, the FFN works on each, residuals and LayerNorm hold it together. "
               "l: post/pre-norm, a: relu/gelu/swiglu."), key_steps=tuple(range(8))),
        Figure("summary", N_("The lecture in one table"), "T5", SummaryState, SummaryView,
               N_("RNN → LSTM → seq2seq+attention → Transformer. Enter opens the figure behind a cell."),
               key_steps=(0,)),
    )

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "open_link":
            return self.figure.id == "summary"
        return super().check_action(action, parameters)

    def action_choose(self, delta: int) -> None:
        if self.figure.id == "summary":  # ↑/↓ move the cursor between rows
            self.set_state(self.state.row_moved(delta))
        else:
            super().action_choose(delta)

    async def action_open_link(self) -> None:
        link = self.state.readings().link
        if link is None or not link["open"]:
            self.notify(_("this cell has no figure in this build"), timeout=2)
            return
        from rnntui.topics import build_state, find

        try:
            screen, figure = find(link["target"], link["sets"])
            state = build_state(figure, link["sets"], link["step"])
        except BadValue as e:
            self.notify(str(e), severity="warning")
            return
        await self.app.follow(screen.TOPIC_ID, figure.id, state)
