"""The LSTM cell in full, as text: each formula with one step's values in it, the cell's cheat sheet."""
from __future__ import annotations

from rich.text import Text

from rnntui import fmt
from rnntui.i18n import N_, _, colon, spaced

GATE_WORDS = {"f": ("σ", N_("forget gate"), N_("share of c_{t−1} kept")),
              "i": ("σ", N_("input gate"), N_("share of ĉ written")),
              "g": ("tanh", N_("candidate"), N_("what could be written")),
              "o": ("σ", N_("output gate"), N_("share of tanh(c) shown"))}


SHOWN = {"f": "f", "i": "i", "g": "ĉ", "o": "o"}  # the candidate as lstm's figures write it (g here read as
# another quantity, a student's trial); weights W_x, W_h as recurrence's, not W, U
ASIDE = "  "  # a formula's words, below it: on a line of their own (they broke mid-phrase, "forget" / "gate: …")


def sheet_text(v: dict, weights: dict, t: int, wide: bool, below: bool = False) -> Text:
    """The cell's formulas at step t with the values `v` (x, h_prev, c_prev, each gate's
    pre-activation a_• and value, kept, written, c, tanh_c, h) in them; `weights`: each gate's
    (W, U, b). Wide: a line per gate with its weights and what it does, after it or, `below`, on a
    line of its own under it (where the rows allow: 15 lines, not 7)."""
    prev = f"_{t - 1}" if t else "_{−1}"
    aside = f"\n{ASIDE}" if below else "   "
    out = Text()
    out.append(f"x_{t} = {v['x']:.4f}   h{prev} = {fmt.paren(v['h_prev'], 4)}   c{prev} = {fmt.paren(v['c_prev'], 4)}")
    out.append(f"{aside}a_• = W_x•·x_{t} + W_h•·h{prev} + b_•\n" if wide else "   (a = W_x·x + W_h·h + b)\n", style="dim")
    if not wide:  # the weights once, so every a below can be redone by hand (at 80 columns no weight was shown,
        # though the prose says every term has its value: a trial)
        out.append("W_x W_h b:  " + "   ".join(
            f"{SHOWN[g]} {W:g} {U:g} {b:g}" for g in ("f", "i", "g", "o") for W, U, b in (weights[g],)) + "\n", style="dim")
    if wide:
        for g in ("f", "i", "g", "o"):
            squash, name, meaning = GATE_WORDS[g]
            W, U, b = weights[g]
            out.append(f"{SHOWN[g]} = {squash}({W:.2f}·{fmt.paren(v['x'], 4)} + {U:.2f}·{fmt.paren(v['h_prev'], 4)} + {b:.2f})"
                       f" = {squash}({v['a_' + g]:+.4f}) = ")
            out.append(f"{v[g]:+.4f}" if g == "g" else f"{v[g]:.4f}", style="bold")
            out.append(aside + _("{gate}: {meaning}").format(gate=_(name), meaning=_(meaning)) + "\n", style="dim")
    else:
        for pair in (("f", "i"), ("g", "o")):
            for k, g in enumerate(pair):
                squash = GATE_WORDS[g][0]
                out.append(("    " if k else "") + f"{SHOWN[g]} = {squash}({v['a_' + g]:+.4f}) = ")
                out.append(f"{v[g]:+.4f}" if g == "g" else f"{v[g]:.4f}", style="bold")
            out.append("\n")
    terms = f"{fmt.paren(v['kept'], 4)} + {fmt.paren(v['written'], 4)}"
    out.append(f"c_{t} = f·c{prev} + i·ĉ = {v['f']:.4f}·{fmt.paren(v['c_prev'], 4)} + {v['i']:.4f}·{fmt.paren(v['g'], 4)}"
               + (f" = {terms}" if wide and not below else "") + " = ")
    out.append(f"{v['c']:.4f}", style="bold")
    kept = _("kept + written")  # (not in an f-string: babel would not find it)
    if wide:  # the sum's terms under it, with their words; or its words after it
        out.append(f"{aside}{spaced(colon(kept))}{terms}\n" if below else f"{aside}{kept}\n", style="dim")
    else:
        out.append("\n")
    out.append(f"h_{t} = o·tanh(c_{t}) = {v['o']:.4f}·tanh({fmt.paren(v['c'], 4)}) = {v['o']:.4f}·{fmt.paren(v['tanh_c'], 4)} = ")
    out.append(f"{v['h']:.4f}", style="bold")
    if wide:
        out.append(aside + _("c is the memory; h is what is shown"), style="dim")
    return out
