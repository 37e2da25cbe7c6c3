"""T5 `attention`: attention as a lookup, computed stage by stage; then one encoder layer and the
lecture in one table (issue 19). The later figures' views are in attention_layer.py."""
from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text
from rnntui.widgets.lines import TailedLine
from rnntui.widgets.quiet import Static

from rnntui import keys
from rnntui.figure import Figure
from rnntui.figures import attention as fa
from rnntui.figures.attention import (BlockState, HeadsState, MasksState, PositionsState, QkvState,
                                      ScalingState, SummaryState)
from rnntui.fmt import fixed, sci, short_vector, small
from rnntui.i18n import N_, _, language, spaced
from rnntui.screens.attention_layer import BlockView, HeadsView, MasksView, PositionsView, SummaryView, word
from rnntui.screens.base import ENDS, FigureView, TopicScreen
from rnntui.state import BadValue
from rnntui.widgets.cells import fit
from rnntui.widgets.matrix import Matrices, MatrixSpec, index_labels
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts, readout_text, spelled, stage_text
from rnntui.widgets.tints import BLUE, GREY, ORANGE

SHORT = ("X", "Q K V", "S", "Ŝ", "A", "out")  # the stage bar's names

# -- qkv -------------------------------------------------------------------------------------------
# what each stage's matrices are computed from, the one its chosen row reads whole first (S's row t is
# q_t against all of K; out_t is a_t, in the query line, against all of V): kept the longest
NEEDS = {0: (), 1: ("X",), 2: ("K", "Q"), 3: ("S",), 4: ("Ŝ",), 5: ("V", "A")}
GROUP = {"X": 0, "Q": 1, "K": 1, "V": 1, "S": 2, "Ŝ": 3, "A": 4, "out": 5}


def glosses() -> tuple[Text, ...]:
    """The toy sentence in English, word by word and then as one phrase, for the stage bar's end (an
    English reader could not follow 那只 猫 突然 开始 跑, a trial); in Chinese, nothing."""
    if language() != "en":
        return ()
    words = "  ".join(f"{t} {g}" for t, g in zip(fa.TOKENS, fa.GLOSS))
    return Text(f"   {words}", style="dim"), Text("   “that cat suddenly starts to run”", style="dim")


class QkvView(FigureView):
    REDRAW_ON_RESIZE = True  # the query line's form depends on the width

    def compose(self):
        yield TailedLine(id="stages")
        yield Matrices()
        yield Static(id="spell")
        yield Readouts(id="pinned")

    def show(self, s: QkvState) -> None:
        r = s.readings()
        t, k = s.query, s.stage
        toks = r.tokens
        feats = tuple(map(word, fa.FEATURES)) if s.weights == "toy" else index_labels(len(r.X[0]))
        dims = index_labels(r.d_k)
        hidden = tuple((i, j) for i, row in enumerate(r.visible) for j, v in enumerate(row) if not v)
        focus = (t, r.query_keys[-1]) if r.query_keys else None
        mats = {
            "X": (r.X, feats, None), "Q": (r.Q, dims, None), "K": (r.K, dims, None), "V": (r.V, dims, None),
            "S": (r.scores, toks, focus), "Ŝ": (r.masked_scores, toks, focus), "A": (r.weights, toks, focus),
            "out": (r.output, dims, None)}
        titles = {"X": _("X tokens"), "S": "S = QKᵀ/√d_k", "Ŝ": _("Ŝ = S masked"), "A": "A = softmax(Ŝ)",
                  "out": "out = A·V"}
        specs, needs = [], NEEDS[k]
        for name, (values, col_labels, cell) in mats.items():
            group = GROUP[name]
            # the stage's own, then what it is computed from, then the rest, the nearest stages last out (Q K
            # V together: V beside X alone read as what X makes, a trial)
            rest = group != k and name not in needs
            rank = 3 + 2 * abs(group - k) + (group > k) if rest else 1 + needs.index(name) if name in needs else 0
            specs.append(MatrixSpec(values, titles.get(name, name), toks, col_labels, row=t,
                                    cell=cell if name in ("S", "Ŝ", "A") else None, current=group == k,
                                    faint=hidden if name in ("Ŝ", "A") else (), optional=rank, needed=name in needs,
                                    group=f"g{group}" if rest else "", name=name))
        self.query_one(Matrices).show(specs)
        self.query_one("#stages", TailedLine).update(stage_text(SHORT, k), *glosses())

        spell = Text()
        crowded = False  # the query line took a second row
        if not r.query_keys:
            spell.append(_("query {token} may read no key ({mask} mask): softmax over nothing = 0/0 =").format(
                token=toks[t], mask=s.mask) + " ", style="dim")
            spell.append("NaN", style="bold")
            spell.append("\n" + _("so out_{t} = NaN too: drawn, not hidden").format(t=t), style="dim")
        else:
            first, last = toks[r.query_keys[0]], toks[r.query_keys[-1]]
            seen = first if first == last else f"{first}…{last}"
            said = spaced(_("query {token} reads {seen}:").format(token=toks[t], seen=seen))
            dots = f"q·k = {short_vector(r.query_dots, 0)} ÷√{r.d_k} → s = {short_vector(r.query_scores, 0)}"
            if self.size.width and cell_len(said + dots) > self.size.width:  # (two lines at 80 columns pushed
                dots = f"s = q·k/√{r.d_k} = {short_vector(r.query_scores, 0)}"  # the NaN row's line off, a trial)
            crowded = bool(self.size.width) and cell_len(said + dots) > self.size.width  # (random weights' scores)
            spell.append(said, style="dim")
            spell.append(dots + "\n")
            spell.append("a = softmax(s) = ", style="dim")
            spell.append(f"{short_vector(r.query_weights, 3)}\n")
            spell.append(f"out_{t} = Σ aᵢ·vᵢ = ", style="dim")
            spell.append(short_vector(r.query_output, 3, 4), style="bold")
        self.query_one("#spell", Static).update(spell)

        p = r.pinned
        if r.nan_rows and r.query_keys:  # (a NaN row with no word of why, a trial; the strict mask's pinned cells
            # are no source's; where the query is that row, the query's lines say it: twice, a review)
            pinned = Text(spaced(_("NaN row {tokens}:").format(tokens=" ".join(toks[i] for i in r.nan_rows))),
                          style="dim")
            pinned.append(_("the {mask} mask leaves it no key; softmax over nothing = 0/0").format(mask=s.mask))
        else:
            # the rows and columns named as the matrices name them: 跑′ once x redraws it (A[跑,猫] stood beside
            # a matrix whose row read 跑′, a Chinese student's trial)
            named = {word: toks[i] for i, word in enumerate(fa.TOKENS)}

            def cell(key: str) -> str:
                return re.sub("|".join(fa.TOKENS), lambda m: named[m.group()], key)

            if s.weights == "toy" and s.mask == "full":
                pairs = [(cell("A[突然,开始]"), small(p["A[突然,开始]"])), (cell("A[突然,跑]"), small(p["A[突然,跑]"])),
                         (cell("A[跑,猫]"), small(p["A[跑,猫]"]))]
            elif s.weights == "toy":
                pairs = [(cell("A[跑,猫]"), small(p["A[跑,猫]"])), (cell("A[猫,那只]"), small(p["A[猫,那只]"])),
                         (cell("A[突然,0…2]"), " ".join(small(p[c]) for c in ("A[突然,那只]", "A[突然,猫]", "A[突然,突然]")))]
            else:
                pairs = [(_("random x, W"), _("source 002: x ~ N(0,1) 5×64, W ~ 0.02·N(0,1)"))]
            pinned = readout_text(pairs)
        # what x shows, said for a newcomer: the earlier rows' outputs do not move when later tokens change, as
        # no row reads a later token (it read "x redraws 开始 跑: out rows 0–2 move by 0 (exactly)", a trial)
        later, last = " ".join(fa.TOKENS[fa.EDIT_AFTER + 1:]), fa.EDIT_AFTER
        first = next(i for i in range(last + 1) if i not in r.nan_rows or i == last)  # (a NaN row does not move:
        # "rows 0–2 move by exactly 0" beside row 0's NaN under the strict mask, a student's trial)
        if self.presenting:  # (no keys on a slide: "x redraws 开始 跑" read as a key hint, a lecturer's slides)
            moved = (_("redrawing {tokens}: out rows {first}–{last} move by exactly") if r.edit_early == 0.0 else
                     _("redrawing {tokens}: out rows {first}–{last} move by"))
        else:
            moved = (_("x redraws {tokens}: out rows {first}–{last} move by exactly") if r.edit_early == 0.0 else
                     _("x redraws {tokens}: out rows {first}–{last} move by"))  # (one line at 100 columns: two took the
        edit = Text(spaced(moved.format(tokens=later, first=first, last=last)), style="dim")  # matrices' last)
        edit.append(sci(r.edit_early), style="bold")
        why = _("as every row sees every token;") if s.mask == "full" else _("as no row reads ahead;")
        rest = spaced(_("rows {first}–{end} by").format(first=last + 1, end=len(toks) - 1))
        whole = edit.cell_len + cell_len(why) + 1 + cell_len(rest) + len(sci(r.edit_late))
        if crowded and whole > self.size.width:  # the why left to help, the rows' contrast kept whole (its second
            why = ";" if not why.startswith("，") else "；"  # line fell off at 80x24 under random weights, a review)
        edit.append(("" if why.startswith(("，", "；", ";")) else " ") + spaced(why) + rest, style="dim")
        edit.append(sci(r.edit_late), style="bold")
        self.query_one("#pinned", Readouts).update(Text("\n").join([pinned, edit]))

    @classmethod
    def explained(cls, s: QkvState) -> str:
        """Help: what x shows, and why the strict mask's first row is NaN."""
        return _("x redraws the tokens after {token} (new random values; x again brings them back): under the "
                 "causal or strict mask the "
                 "outputs of the rows before them do not change at all, as no row reads a later token; under the "
                 "full mask they change too. The strict mask lets a row read only the keys before its own, so row "
                 "0 has no key left: its softmax is over nothing (0/0), so its weights and its output are NaN, "
                 "drawn, not hidden.").format(token=fa.TOKENS[fa.EDIT_AFTER])


# -- scaling ---------------------------------------------------------------------------------------
class ScalingView(FigureView):
    @classmethod
    def explained(cls, s: ScalingState) -> str:
        """Help: what the row's numbers are (‖∂a/∂s‖ and the draws were said nowhere, a student's trial)."""
        r = s.readings()
        return _("Each number is a mean over {trials} seeded draws of a query q and {keys} keys k_j, every entry "
                 "N(0, 1) in d_k dimensions; the scores s_j = q·k_j (scaled: ÷√d_k) go through a softmax a. "
                 "var(s): the scores' variance (d_k unscaled, 1 scaled). max weight: the largest a_j (1/{keys} "
                 "if uniform, 1 if one-hot). entropy: −Σ a_j ln a_j in nats (ln {keys} = {ln} uniform). "
                 "‖∂a/∂s‖: the Frobenius norm of the softmax's Jacobian diag(a) − aaᵀ, how much gradient gets "
                 "back to the scores; it goes to 0 as the softmax saturates. Scaled, the scores' spread stays "
                 "that of N(0, 1) at every d_k, so the largest of {keys} weights stays well above 1/{keys}.").format(
            trials=f"{r.trials:,}", keys=r.keys, ln=f"{r.ln_keys:.3f}")

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
            rows.append(f"{'▸' if name == s.scaling else ' '}{fit(word(name), 9)}", style="bold reverse" if name == s.scaling else "")
            rows.append_text(spelled("  var(s) ",  # (not var(q·k): scaled, that stays d_k; a numbers audit)
                                     f"{sci(v['score_var']):>6}",
                                     "  " + _("max weight") + " ", fixed(v["max_weight"], 3),
                                     "  " + _("entropy") + " ", fixed(v["entropy"], 3),
                                     "  ‖∂a/∂s‖\u00a0", fixed(v["jacobian_norm"], 3) + "\n"))  # (kept with its value)
        rows.append(fit(" " + _("uniform"), 25) + f"  {_('max weight')} {fixed(r.uniform, 3)}  {_('entropy')} "
                    f"ln\u00a08\u00a0=\u00a0{fixed(r.ln_keys, 3)}\n", style="dim")
        rows.append(_("When the softmax saturates (max weight → 1), its Jacobian ∂a/∂s = diag(a)−aaᵀ → 0: no "
                      "gradient, as tanh' → 0 on recurrence/tanh."),  # (‖∂a/∂s‖ above was not tied to it, a trial)
                    style="dim")
        self.query_one(Readouts).update(rows)


class AttentionScreen(TopicScreen):
    TOPIC_ID = "attention"
    TITLE = N_("Attention as a lookup")
    EXTRA_BINDINGS = keys.bindings("links")  # enter, on a figure with links
    FIGURES = (
        Figure("qkv", N_("Q, K, V stage by stage"), "T5", QkvState, QkvView,
               N_("Each token asks (q), offers a key (k) and a value (v): scores q·k/√d_k, the mask, a softmax "
               "per row, and each output is a weighted sum of values."),
               key_steps=tuple(range(len(fa.QKV_STAGES)))),
        Figure("scaling", N_("Why divide by √d_k"), "T5", ScalingState, ScalingView,
               N_("Random q and k: q·k has variance d_k. Unscaled, the softmax nears one-hot as d_k grows and "
               "passes ever less gradient; scaled, d_k barely matters."), key_steps=(4, 64, 512)),
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
               N_("RNN → LSTM → seq2seq+attention → Transformer, side by side: what each fixed and what it left."),
               key_steps=(0,), links=True),
    )

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "open_link":
            return self.figure.links
        return super().check_action(action, parameters)

    def action_choose(self, delta: int) -> None:
        if hasattr(self.state, "row_moved"):  # ↑/↓ move the cursor between rows (summary)
            moved = self.state.row_moved(delta)
            if moved == self.state:  # past the top or bottom row: said, as a parameter's end is (an audit)
                r = self.state.readings()
                words, key = ENDS["row"][delta < 0]
                self.at_end.say(_(words).format(value=r.models[r.row], key=keys.in_use(self).one(key)))
            self.set_state(moved)
        else:
            super().action_choose(delta)

    async def action_open_link(self) -> None:
        link = self.state.readings().link
        if link is None:
            self.notify(_("no figure for this cell"), timeout=2)
            return
        try:
            await self.app.follow(link["target"], link["sets"], link["step"])
        except BadValue as e:
            self.notify(str(e), severity="warning")
