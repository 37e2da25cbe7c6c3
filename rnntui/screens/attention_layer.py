"""T5 `attention`'s later views: masks, heads, positions, one encoder layer, the lecture in one table."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from rnntui.widgets.lines import TextLines, wrap

from rnntui import keys
from rnntui.figures.attention import BlockState, HeadsState, MasksState, PositionsState, SummaryState
from rnntui.fmt import fixed, grouped, pct, sci, si, small
from rnntui.i18n import N_, _, aside, colon, language, spaced
from rnntui.screens.base import FigureView
from rnntui.widgets.cells import fit
from rnntui.widgets.matrix import SOLID, HeatMap, Matrices, MatrixSpec, drawn_large, index_labels, shade
from rnntui.widgets.readouts import Readouts, readout_text, spelled, stage_text

VISIBLE, HIDDEN = "●", "·"
WORDS = {  # the engine's names of families, blocks and models, as drawn
    "encoder": N_("encoder"), "decoder": N_("decoder"), "encoder-decoder": N_("encoder-decoder"),
    "self": N_("self"), "cross": N_("cross"), "original Transformer": N_("original Transformer"),
    # masks, scores and the toy sentence's features, where they are words in a sentence or a heading
    # (a parameter's value in the footer stays as --set takes it)
    "causal": N_("causal"), "full": N_("full"), "strict": N_("strict"),
    "unscaled": N_("unscaled"), "scaled": N_("scaled"),
    "noun": N_("noun"), "verb": N_("verb"), "det": N_("det"), "adv": N_("adv"),
}


def word(name: str) -> str:
    return _(WORDS.get(name, name))


# -- masks -----------------------------------------------------------------------------------------
class MasksView(FigureView):
    REDRAW_ON_RESIZE = True  # its legend names the mark as drawn at this size

    def compose(self):
        yield Matrices()
        yield Readouts()

    def show(self, s: MasksState) -> None:
        r = s.readings()
        specs = []
        for f, (family, blocks) in enumerate(zip(r.families, r.blocks)):
            for name, visible in blocks:
                rows = r.tgt_tokens if family == "encoder-decoder" else r.src_tokens
                values = tuple(tuple(VISIBLE if v else HIDDEN for v in row) for row in visible)
                title = word(family) if family != "encoder-decoder" else _("enc–dec {block}").format(block=word(name))
                specs.append(MatrixSpec(values, title, rows, index_labels(len(values[0])), current=f == s.family,
                                        grow=True))
        grid = self.query_one(Matrices)
        grid.show(specs)
        # drawn large, a cell that may read is a solid tile: the legend's ● named nothing drawn (a lecturer's slides)
        visible = SOLID if drawn_large(specs, grid.size.width, grid.size.height) else VISIBLE
        counts = ["+".join(map(str, c)) for c in r.counts]
        lines = [
            readout_text([(_("visible cells"), _("{full} full · {causal} causal · {both} (decoder self + cross)")
                           .format(full=counts[0], causal=counts[1], both=counts[2]))]),
            readout_text([(colon(word(fam)), "/".join(word(m) for m in ms)) for fam, ms in zip(r.families, r.models)]),
        ]
        words = {
            "encoder": _("every token reads every token, both directions: for understanding a whole input."),
            "decoder": _("token t reads 0…t only: it can be trained on every position at once and still generate."),
            "encoder-decoder": _("the decoder reads its own past (causal) and, through cross-attention, all of "
                                 "the encoder's states: seq2seq's attention is exactly this cross block."),
        }
        said = {fam: Text(f"▸ {spaced(colon(word(fam)))}" + words[fam]) for fam in r.families}
        lines.append(as_tall_as(self, said[r.families[s.family]], said.values()))
        lines.append(Text(_("rows: queries; columns: keys; {visible} may read, {hidden} masked (−∞ before "
                            "softmax). Decoder positions {positions}.").format(
                              visible=visible, hidden=HIDDEN, positions=" ".join(r.tgt_tokens)), style="dim"))
        self.query_one(Readouts).update(Text("\n").join(lines))


def as_tall_as(view: FigureView, text: Text, others) -> Text:
    """`text` padded to the height of the tallest of `others` at the view's readouts' width: a key
    redraws the readout without laying the screen out again (a second frame, the matrices jumping)."""
    width = view.query_one(Readouts).content_size.width or view.app.size.width - 4  # in the panel
    console = view.app.console
    tall = max(len(wrap(t, width, console)) for t in others)
    return text + "\n" * (tall - len(wrap(text, width, console)))


# -- heads -----------------------------------------------------------------------------------------
def pinned(pairs: list) -> list:
    """The two cells the toy's fixed weights pin, each in its own mask, said to be that (the line read as a
    repeat of the one above it; "as the source pins them" sent a student to the notes, which have neither)."""
    (label, value), *rest = pairs
    return [(spaced(_("each in its own mask:")) + label, value), *rest]


class HeadsView(FigureView):
    def compose(self):
        yield Matrices()
        yield Readouts()

    def show(self, s: HeadsState) -> None:
        r = s.readings()
        table = tuple((str(dk), grouped(p), grouped(e)) for _h, dk, p, e in r.table)
        hs = [row[0] for row in r.table]
        specs = [MatrixSpec(table, "", tuple(f"h={h}" for h in hs),
                            ("d_k", _("4d² params"), f"h·n² (n={r.n})"), row=hs.index(r.h), optional=1,
                            alone=True, name=_("h=1…64 table"), corner=f"d={r.d}")]  # beside a toy head its
        # rows h=1, h=2 … read as the head's rows; named where it is left out (at 80x24 it went unsaid, a
        # student's trial); d in its corner, not a title: at 100x30 that line left it out (a lecturer's trial)
        cells = ((4, 1), (2, 3))  # the pinned A[跑,猫] and A[突然,开始]
        specs += [MatrixSpec(a, _("toy head {j}: A ({mask})").format(j=j + 1, mask=word(s.mask)), r.tokens, r.tokens,
                             cell=cells[j]) for j, a in enumerate(r.weights)]
        self.query_one(Matrices).show(specs)
        c, p = r.cells, r.pinned
        # (Q's and K's columns, not X's features: "head 1 (noun, verb)" misled, a student's trial)
        last = (Text(_("Head 1 is columns 0–1 of the toy's Q, K, V, head 2 columns 2–3 (d_k = 2, each scaled by "
                       "its own √2): they attend differently."), style="dim"),
                Text(_("query {token} may read no key ({mask} mask): softmax over nothing = 0/0 =").format(
                    token=r.tokens[0], mask=word("strict")) + " NaN", style="dim"))  # (its row of NaN, a trial)
        self.query_one(Readouts).update(Text("\n").join([
            # d said here too: at 80x24 the table with d in its corner is left out (a student's trial)
            readout_text([(f"h = {r.h}: d_k = d/h = {r.d}/{r.h} =", str(r.d_k)),
                          ("W_q W_k W_v W_o = 4d²", grouped(r.params)),
                          (_("+4d biases"), grouped(r.params_bias)),
                          (_("whatever h; score entries h·n²"), grouped(r.score_entries))]),
            readout_text([(_("{mask}: head 1 A[跑,猫]").format(mask=word(s.mask)), small(c["head 1 A[跑,猫]"])),
                          (_("head 2 A[突然,开始]"), small(c["head 2 A[突然,开始]"]))]),
            readout_text(pinned([(_(k), small(v)) for k, v in p.items()])),
            as_tall_as(self, last[s.mask == "strict"], last),
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
        # the corner names both, d down and p across, in 3 cells ("pos" alone stood over the dimensions' numbers,
        # a trial; "d↓ p→" took two cells more and position 7 went at 80 columns, a review)
        self.query_one(HeatMap).show(r.pe, index_labels(r.positions), index_labels(r.d), "d\\p", transpose=True,
                                     group=2)
        here = (s.mask, s.pe)
        rows = [(("full", "off"), _("full, no PE"), r.full_no_pe, _("permuted rows")),
                (("full", "on"), _("full + PE"), r.full_pe, _("differ")),
                (("causal", "off"), _("causal, no PE"), r.causal_no_pe, _("differ"))]
        side = Text()
        for key, wave in (("PE(1,0)", "sin 1"), ("PE(1,1)", "cos 1"), ("PE(10,0)", "sin 10")):
            side.append_text(spelled(f"{key + ' = ' + wave:<19}", f"{fixed(r.pinned[key], 6):>9}\n"))
        side.append_text(spelled("‖PE(p)‖²      ", f"{fixed(r.norm2[0], 3)} … {fixed(r.norm2[-1], 3)}", " = d/2\n"))
        for k, dots in ((1, r.dots_k1), (4, r.dots_k4)):
            side.append_text(spelled(f"PE(p)·PE(p+{k}) ", f"{fixed(dots[0], 3)} … {fixed(dots[-1], 3)}\n"))
        side.append(_("{a} vs {b}, max |Δ rows|").format(a=r.orders[0], b=r.orders[1]) + "\n", style="bold")
        if language() == "en":  # the source's example, glossed (a student's trial: an English reader could not follow)
            side.append(f"({r.glosses[0]} / {r.glosses[1]})\n", style="dim")
        for key, label, value, said in rows:
            side.append(("▸" if key == here else " ") + fit(label, 14), style="bold reverse" if key == here else "")
            side.append(f" {sci(value):>8} {said}\n")
        if here not in [row[0] for row in rows]:
            side.append("▸" + fit(_("causal + PE"), 14), style="bold reverse")  # (the one state not in a row)
            side.append(f" {sci(r.gap):>8}" + aside(_("(this state)")) + "\n")
        self.query_one("#side", Readouts).update(side)
        # ("… : first and last p, equal for every p" read as a riddle, a trial); the signs in the map's own
        # colours (the words were grey beside an orange and blue map, a lecturer's trial)
        legend = Text().append(spaced(_("rows: dimensions d 0…{last}, (sin, cos) pairs (a sample where too many); "
                                        "columns: positions p; ░▒▓█ |PE| and its sign:").format(last=r.d - 1)),
                               style="dim")
        for (sample, tint), word, end in ((shade(1.0), _("positive"), _(", ")), (shade(-1.0), _("negative"), _(". "))):
            legend.append(sample, style=tint).append(f" {word}{end}", style="dim")
        legend.append(_("“x … y” on the right: at the first p and at the last, the same for every p."),
                      style="dim")  # ("sampled to fit" stood under all 16 of d_model 16, a trial)
        self.query_one("#legend", Readouts).update(legend)


# -- block -----------------------------------------------------------------------------------------
NOTES = {
    "x": N_("the toy sentence, a token a row, its columns 0–3 noun, verb, det, adv: d = 4, d_ff = 16, two heads"),
    "attn": N_("two heads of d_k = 2 with the toy W_q, W_k, W_v, full mask (an encoder), W_o = I"),
    "x+attn": N_("residual x + f(x): across layers, the identity path that the LSTM's cell state gives across time (lstm)"),
    "+FFN": N_("residual x + f(x): across layers, the identity path that the LSTM's cell state gives across time (lstm)"),
    "hidden": N_("FFN = key–value memory: rows of W₁ are keys (torch layout), columns of W₂ their values"),
    "FFN": N_("the same small network at every position: no mixing between tokens (attention did that)"),
}


WORDED = {N_("hidden")}  # the one stage named by a word, not a symbol: said in the language (a Chinese student's trial)


def stage_word(name: str) -> str:
    return _(name) if name in WORDED else name


class BlockView(FigureView):
    @classmethod
    def explained(cls, s) -> str:
        """Help: what d, d_ff, layers and n set (they seemed to change the matrices too, a help audit)."""
        return _("d, d_ff, layers and n set the parameter and FLOP counts only (their defaults are BERT-base: "
                 "d = 768, d_ff = 3072, 12 layers, 512 tokens); the matrices stay the toy sentence's, d = 4.")

    def compose(self):
        yield TextLines(id="stages")
        yield Matrices()
        yield Readouts(id="note")
        yield Readouts(id="bill")

    def show(self, s: BlockState) -> None:
        r = s.readings()
        name = r.stage_name
        self.query_one("#stages", TextLines).update(stage_text([stage_word(n) for n in r.stages], s.stage))
        # the stages so far, as many as fit, the oldest left out first (a large screen shows the layer)
        specs = [MatrixSpec(r.matrices[stage], stage_word(stage), r.tokens, index_labels(len(r.matrices[stage][0])),
                            optional=s.stage - k) for k, stage in enumerate(r.stages[:s.stage])]
        specs.append(MatrixSpec(r.current, stage_word(name), r.tokens, index_labels(len(r.current[0])), current=True))
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
        # the parameters at the controls' d, not the toy's 4 drawn above (a newcomer's trial)
        # "per layer" leads, where Chinese puts it ("= 7,087,872 每层" read backwards: a Chinese student's trial)
        bill = spelled(_("at d {d}, per layer: attn").format(d=s.d) + " ", grouped(p["attention"]), " + FFN ",
                       grouped(p["ffn"]), " + LN ", grouped(p["norms"]), " = ", grouped(p["per_layer"]) + "\n")
        bill.append_text(spelled(_("× {layers} layers =").format(layers=s.layers) + " ", grouped(p["total"]),
                                 " " + _("params") + "   (" + spaced(_("BERT-base encoder:")), grouped(r.bert_base), ")\n"))
        bill.append_text(spelled(_("FLOPs n={n}: core 4n²d").format(n=s.n) + " ", si(f["attention_core"]),
                                 aside(_("({share} of all)").format(share=pct(f['core_share']))) + " + "
                                 + _("proj+FFN") + " ", si(f["dense"]),
                                 "" if self.presenting else " → parallel/cost"))  # (an app's link, not a slide's)
        self.query_one("#bill", Readouts).update(bill)


# -- summary ---------------------------------------------------------------------------------------
LINK = " ⏎"  # after a cell that opens a figure: Enter's sign, as the footer's "⏎ open" (→ was in cells' words too,
# "decoder→ encoder →", a review)
WHOLE_HEADS = 96  # the view's columns (a 100-column terminal's) from which the table's column labels are the whole ones, and all its columns shown
NARROW_COLUMNS = 4  # the columns shown below that


class SummaryView(FigureView):
    REDRAW_ON_RESIZE = True  # its column labels depend on the width

    def compose(self):
        yield Matrices()
        yield Readouts()

    def show(self, s: SummaryState) -> None:
        r = s.readings()
        # a cell that opens a figure ends in LINK: grey against black, cell by cell, was its only mark and read
        # as noise (none at all under NO_COLOR, a lecturer's trial)
        # on a slide nothing opens: no ⏎ marks; and the cursor's cell and its line only where the deck chose a cell
        # (the lecture's summary slide, at cell 0, read as an app's, not a slide's: a lecturer's slides)
        slide, bare = self.presenting, self.presenting and s.cell == 0
        table = tuple(tuple(_(text) + (LINK if link and not slide else "") for text, link in zip(row, links))
                      for row, links in zip(r.table, r.links))
        # short column labels where the columns are narrow ("path le…│parallel i…" at 80 columns, a trial): the
        # line under the table names the chosen cell's column in full
        wide = (self.size.width or 0) >= WHOLE_HEADS
        heads = r.headers[1:] if wide else r.short_headers
        # narrow, the two columns of sentences are left to the line under the table: in six columns at 80 they
        # wrapped a word a line and were cut ("the / one-vector / bottleneck…", a lecturer's trial)
        shown = len(heads) if wide else NARROW_COLUMNS
        self.query_one(Matrices).show([MatrixSpec(tuple(row[:shown] for row in table), "", r.models,
                                                  tuple(_(h) for h in heads[:shown]), row=None if bare else r.row,
                                                  cell=(r.row, r.col) if r.col < shown and not bare else None,
                                                  shrink=True)])
        if bare:  # no cell chosen: no cell's line (at 80x24 it still said "▸ RNN · path length: O(n)", a review)
            self.query_one(Readouts).update(Text() if wide else self.left_out(r, table, shown))
            return
        out = Text.assemble((f"▸ {spaced(colon(f'{r.models[r.row]} · {_(r.headers[r.col + 1])}'))}", "bold"), _(r.text))
        link = r.link
        if not self.presenting:  # on a slide Enter and the arrows turn the slides: no figure opens
            used = keys.in_use(self)
            out.append("\n")
            if link is None:
                out.append(_("no figure for this cell"), style="dim")
            else:
                opens = colon(used.one("open_link")) if "open_link" in used.moved else _("Enter:")
                out.append_text(spelled(spaced(opens), link["command"].removeprefix("rnntui "),
                                        " · " + _("{key}: back").format(key=used.one("back"))))
            hint = (_("{along} along a row, {between} between rows; a cell ending in {link} opens a figure") if wide
                    else _("{along} along a row, then to {columns} (shown here); {between} between rows; a cell "
                           "ending in {link} opens a figure")).format(
                link=LINK.strip(), columns=_(", ").join(_(h) for h in r.headers[1 + NARROW_COLUMNS:]),
                along=used.two("step_back", "step_forward"), between=used.two("previous_param", "next_param"))
            out.append("\n" + hint, style="dim")
        self.query_one(Readouts).update(out)

    @staticmethod
    def left_out(r, table, shown: int) -> Text:
        """A slide's narrow table: the columns of sentences left out, a model a line, under it (the lecture's
        caption promised "what each fixed and what it left" over four columns and blank rows, a lecturer's trial)."""
        out = Text()
        for model, row in zip(r.models, table):
            out.append(("\n" if out else "") + model, style="bold")
            for short, text in zip(r.short_headers[shown:], row[shown:]):
                out.append(" · " + spaced(colon(_(short))), style="dim")
                out.append(text)
        return out
