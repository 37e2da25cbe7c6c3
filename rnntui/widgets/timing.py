"""The timing lab's text (`rnntui parallel/timing`): its status line and its table of FLOPs and
measured times per length."""
from __future__ import annotations

from rich.text import Text

from rnntui.fmt import ms, progress_bar, rate, si
from rnntui.i18n import _
from rnntui.widgets.cells import fit
from rnntui.widgets.tints import BAD


def timing_status(r, presenting: bool = False) -> Text:
    """Where the timing lab stands, from its readings `r`: measuring (with progress), a note or a
    problem, not measured yet, or where and when it was measured."""
    out = Text(no_wrap=True, overflow="ellipsis")  # (one line; a note or a problem wraps: TimingView's "-whole")
    if r.status == "measuring":
        done, total, label = r.progress
        out.append(_("measuring") + " ", style="bold")
        out.append(f"{_(label)}  ▕{progress_bar(done, total)}▏ {done}/{total}   ")
        out.append("" if presenting else _("t cancels") + "   ", style="dim")
        if any(row.fresh for row in r.table):  # (said before a row had one, a trial)
            out.append(_("* this run's rows"), style="dim")
        if r.note:  # (checked as it starts: said only after the run, as memory/copy's lab did)
            out.append("\n" + _("it will not be cached: {reason}").format(reason=r.note), style="bold")
    elif r.status == "note":
        failure = getattr(r, "failure", None)
        out.append(_("the timing lab failed: {message}").format(message=failure) if failure else _(r.note),
                   style="bold")
    elif r.status == "uncached":
        out.append(_("measured, but not cached: {reason}").format(reason=r.note), style="bold")
    elif r.status == "problem":
        out.append(str(r.note), style=f"bold {BAD}")  # (a cache's line: said in the language of now)
    elif r.status == "unmeasured":
        out.append(_("not measured here yet"), style="bold")
        out.append("" if presenting else _(": t measures it (torch, ~10 s), or rnntui train timing"))
    else:
        m = r.machine
        threads = (_("1 thread") if m["threads"] == 1 else _("{n} threads")).format(n=m["threads"])
        out.append(_("measured on {host} {when}, torch {torch}, {threads}").format(
            host=m["host"], when=m["when"], torch=m["torch"], threads=threads) + "  ")
        out.append("" if presenting else _("t re-runs"), style="dim")
    return out


def timing_table(rows, current: int, gap: str = "\n") -> Text:
    """One line per length T: FLOPs of each, their ratio, the measured times and FLOP rates (— where
    not measured yet); the row of the `current` T reversed; a row the run going on measured starts with
    * (beside rows of the last full run they read alike, a trial). `gap`: what separates the rows."""
    table = Text(no_wrap=True, overflow="crop")
    time_rnn = fit(_("time RNN"), 9, "right")
    table.append(f"{'T':>5}  {'FLOPs RNN':>9} {'attn':>6} {'RNN/attn':>8}   {time_rnn} "
                 f"{'attn':>8}   {'GFLOP/s RNN':>11} {'attn':>5}\n", style="dim")
    for row in rows:
        line = f"{'*' if row.fresh else ' '}{row.T:>4}  {si(row.rnn_flops):>9} {si(row.attention_flops):>6} {str(row.flop_ratio):>8}   "
        if row.rnn_s is not None:
            line += (f"{ms(row.rnn_s):>9} {ms(row.attention_s):>8}   "
                     f"{rate(row.rnn_gflop_s):>11} {rate(row.attention_gflop_s):>5}")
        else:
            line += f"{'—':>9} {'—':>8}   {'—':>11} {'—':>5}"
        table.append(line, style="bold reverse" if row.T == current else "")
        table.append(gap if row is not rows[-1] else "")
    return table
