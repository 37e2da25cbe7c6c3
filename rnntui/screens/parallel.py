"""T6 `parallel`: what dropping recurrence bought (depth, path length) and what it costs."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static

from rnntui.engine import parallel as par
from rnntui.figures.parallel import CapacityState, CostState, GridState, PathState, TimingState
from rnntui.figure import Figure
from rnntui.screens.base import FigureView, TopicScreen
from rnntui.widgets.plot import BLUE, GREY, ORANGE, Line, Plot, PlotSpec, Series
from rnntui.widgets.readouts import Readouts
from rnntui.widgets.tints import BAD
from rnntui.widgets.wallclock import WallclockGrid


def si(x: float) -> str:
    """3 significant digits with a k/M/G/T suffix."""
    for div, unit in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


def ms(seconds: float) -> str:
    value = seconds * 1e3
    return f"{value:.3g} ms" if value < 100 else f"{value:.0f} ms"


# -- grid (F15+F18) ------------------------------------------------------------------------------
class GridView(FigureView):
    def compose(self):
        yield Readouts(id="what")
        yield WallclockGrid(lane="pos")

    def show(self, s: GridState) -> None:
        busy = s.busy()
        depth = par.sequential_steps(busy)
        ready = par.done_positions(busy, s.step)
        if s.mode == "recurrent":
            why = f"recurrent: position i waits for h_(i−1), depth {depth}"
        else:
            why = f"attention: positions read only the inputs, depth {depth}"
        self.query_one("#what", Readouts).show([("", why), ("outputs ready", f"{ready} of {s.n}")])
        self.query_one(WallclockGrid).show(busy, s.step)


# -- path (F19) ----------------------------------------------------------------------------------
U, D, L, R = 1, 2, 4, 8
BOX = {L | R: "─", U | D: "│", R | U: "└", L | U: "┘", R | D: "┌", L | D: "┐", L | R | U: "┴",
       L | R | D: "┬", U | D | R: "├", U | D | L: "┤", L | R | U | D: "┼", L: "─", R: "─", U: "│", D: "│"}


def staircase_text(mode: str, n: int, k: int, width: int, height: int) -> Text:
    """Tokens 0…n−1 along the bottom; above them the path from token 0 to token k, one stair per
    multiplication. Heights are on the recurrent scale, so attention's one stair looks small."""
    hops = par.path_hops(mode, k)
    level = {0: 0}
    for a, b in hops:
        level[b] = level[a] + 1
    label_w = len(str(k)) + 1
    cw = max(min((width - label_w) // n, 8), 2)
    shown = min(n, (width - label_w) // cw)
    rows = max(min(height - 1, 2 * k + 1 if height - 1 >= 2 * k + 1 else k + 1), 2)
    scale = (rows - 1) / max(k, 1)

    def row(lv: int) -> int:  # canvas row, 0 at the top
        return rows - 1 - (max(round(lv * scale), 1) if lv else 0)

    def col(t: int) -> int:
        return t * cw + cw // 2

    grid = [[0] * (shown * cw) for _ in range(rows)]
    nodes = {}

    def link(y: int, x0: int, x1: int) -> None:
        for x in range(min(x0, x1), max(x0, x1)):
            if x < len(grid[0]) and x + 1 < len(grid[0]):
                grid[y][x] |= R
                grid[y][x + 1] |= L

    def rise(x: int, y0: int, y1: int) -> None:
        for y in range(min(y0, y1), max(y0, y1)):
            if x < len(grid[0]):
                grid[y][x] |= D
                grid[y + 1][x] |= U

    for a, b in hops:
        if b >= shown:
            break
        ya, yb = row(level[a]), row(level[b])
        xa, xb = col(a), col(b)
        xm = xa + cw // 2 + (cw % 2) if b == a + 1 else xa + 1
        link(ya, xa, xm)
        rise(xm, yb, ya)
        link(yb, xm, xb)
        nodes[a], nodes[b] = (ya, xa), (yb, xb)
    out = Text(no_wrap=True, overflow="crop")
    at = {yx: t for t, yx in nodes.items()}
    top = {}
    for t, (ny, _) in nodes.items():
        top[ny] = max(top.get(ny, 0), level[t])
    for y in range(rows):
        lv = top.get(y)
        out.append(f"{lv if lv is not None else '':>{label_w - 1}} ", style="bold" if lv else "dim")
        line = Text()
        for x, bits in enumerate(grid[y]):
            node = at.get((y, x))
            if node is not None:
                line.append("●", style="bold yellow" if node in (0, k) else "bold")
            else:
                line.append(BOX.get(bits, " "), style="cyan" if bits else "")
        out.append_text(line)
        out.append("\n")
    out.append(" " * label_w)
    for t in range(shown):
        word = f"x{t}" if cw >= len(f"x{t}") + 1 else str(t)
        if cw == 2 and t not in (0, k) and (t % 2 or abs(t - k) == 1):
            word = ""
        style = "bold reverse" if t in (0, k) else ("bold" if t in level else "dim")
        out.append(f"{word:^{cw}}"[:cw], style=style)
    return out


class Staircase(Widget):
    DEFAULT_CSS = "Staircase { height: 1fr; min-height: 4; }"
    spec = ("recurrent", 12, 8)

    def show(self, mode: str, n: int, k: int) -> None:
        self.spec = (mode, n, k)
        self.refresh()

    def render(self) -> Text:
        return staircase_text(*self.spec, self.size.width, self.size.height)


class PathView(FigureView):
    def compose(self):
        yield Readouts(id="hops")
        yield Staircase()
        yield Readouts(id="decay")

    def show(self, s: PathState) -> None:
        length = par.path_length(s.mode, s.k)
        worst = par.path_length(s.mode, s.n - 1)
        if s.mode == "recurrent":
            how = f"token 0 → token {s.k}: {length} multiplications, through h_1 … h_{s.k}"
        else:
            how = f"token 0 → token {s.k}: 1 edge, position {s.k} attends to position 0 directly"
        self.query_one("#hops", Readouts).show([("", how)])
        self.query_one(Staircase).show(s.mode, s.n, s.k)
        f = s.FACTOR
        self.query_one("#decay", Readouts).show([
            (f"×{f:.2f} per hop leaves", f"{par.path_gain(s.mode, s.k, f):.3f}"),
            (f"longest path, token 0 → {s.n - 1}:", f"{worst} ({'O(n)' if s.mode == 'recurrent' else 'O(1)'})"),
        ])


# -- cost (F21) ----------------------------------------------------------------------------------
SHORT = {"Self-Attention": "self-attn", "Recurrent": "recurrent", "Convolutional": "conv",
         "Self-Attention (restricted)": "restricted"}


def table_1_text(compact: bool) -> Text:
    """Vaswani et al. 2017, Table 1, from the engine's rows; compact names for narrow screens."""
    title = "Table 1 (Vaswani 2017)" if compact else "Vaswani et al. 2017, Table 1"
    rows = [("" if compact else "layer", "per layer", "seq. ops", "max path")]
    rows += [(SHORT[r.layer] if compact else r.layer, r.per_layer, r.sequential, r.max_path) for r in par.TABLE_1]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    if compact:
        widths[0] = max(widths[0], len(title) - widths[1] - 2) if False else widths[0]
    out = Text(no_wrap=True, overflow="crop")
    if compact:
        out.append(f"{title}  ", style="bold")
        out.append("  ".join(f"{c:<{w}}" for c, w in zip(rows[0][1:], widths[1:])).rstrip() + "\n", style="dim")
        rows = rows[1:]
        widths[0] = len(title)
    else:
        out.append(title + "\n", style="bold")
    for i, r in enumerate(rows):
        line = "  ".join(f"{c:<{w}}" for c, w in zip(r, widths)).rstrip()
        style = "dim" if r[0] == "layer" else ("bold" if r[0] in ("Self-Attention", "Recurrent", "self-attn", "recurrent") else "")
        out.append(line + ("\n" if i < len(rows) - 1 else ""), style=style)
    return out


class CostView(FigureView):
    DEFAULT_CSS = """
    CostView #cost-body { height: 1fr; layout: vertical; }
    CostView.wide #cost-body { layout: horizontal; }
    CostView #table1 { height: auto; width: auto; }
    CostView.wide #table1 { margin: 1 0 0 2; }
    """

    def compose(self):
        yield Readouts(id="cross")
        with Horizontal(id="cost-body"):
            yield Plot()
            yield Static(table_1_text(True), id="table1")

    state: CostState | None = None

    def on_resize(self, event) -> None:
        wide = event.size.width >= 150
        self.set_class(wide, "wide")
        self.query_one("#table1", Static).update(table_1_text(not wide))
        if self.state is not None:
            self.show(self.state)

    def show(self, s: CostState) -> None:
        self.state = s
        width, height = self.size.width or 200, self.size.height or 40
        ns = s.curve_n()
        rec, att = par.recurrent_cost(ns, s.d), par.attention_cost(ns, s.d)
        cross = par.crossover(s.d)
        r_n, a_n = float(par.recurrent_cost(s.n, s.d)), float(par.attention_cost(s.n, s.d))
        # each curve is labelled where nothing is drawn under it: attention on the left (n < d),
        # recurrent on the right (n > d); the y range leaves room below the lowest line for that
        lo, hi = min(rec.min(), att.min()), max(rec.max(), att.max())
        room = 10 ** (0.18 * np.log10(hi / lo))
        x_att, x_rec = ns[0] * 4, ns[-1] / 8
        self.query_one(Plot).show(PlotSpec(
            series=(Series(ns, tuple(rec), "", BLUE), Series(ns, tuple(att), "", ORANGE)),
            lines=(Line(cross, f"n = d = {cross:g}", GREY, vertical=True),),
            cursor=s.n, log_x=True, log_y=True, ylim=(lo / room, hi),
            xlabel="n (tokens); both axes log" if height >= 20 else "",
            marks=((x_att, float(par.attention_cost(x_att, s.d)) / room ** 0.6, "attention n²·d"),
                   (x_rec, float(par.recurrent_cost(x_rec, s.d)) / room ** 0.6, "recurrent n·d²")),
        ))
        if a_n == r_n:
            verdict = "equal cost"
        else:
            verdict = f"attention {max(a_n, r_n) / min(a_n, r_n):.3g}× {'cheaper' if a_n < r_n else 'dearer'}"
        pairs = [("crossover", f"n = d = {cross:g} tokens"), (f"at n = {s.n}:", verdict)]
        if width >= 100:
            pairs += [("n·d²", si(r_n)), ("n²·d", si(a_n))]
        self.query_one("#cross", Readouts).show(pairs)


# -- capacity (F14) ------------------------------------------------------------------------------
EIGHTHS = " ▏▎▍▌▋▊▉█"


def share_text(width: int, n: int, cols: int) -> Text:
    """A bar of `cols` characters standing for a state of `width` numbers, cut into n equal shares;
    the first token's share is solid (to an eighth of a character), the others alternate."""
    cols = max(cols, 8)
    share = cols / n  # characters per token
    ruler, bar = Text(), Text()
    for c in range(cols):
        boundary = any(int(round(i * share)) == c for i in range(0, n + 1)) if n <= 4 * cols else True
        ruler.append("┼" if boundary else "─", style="dim")
        first = min(max(share - c, 0.0), 1.0)
        if first >= 1.0:
            bar.append("█", style="bold yellow")
        elif first > 0:
            bar.append(EIGHTHS[max(int(first * 8), 1)], style="bold yellow")
        else:
            token = int((c + 0.5) / share)
            bar.append("▒" if token % 2 else "░", style="cyan" if token % 2 else "blue")
    out = Text(no_wrap=True, overflow="crop")
    if share >= 3:
        labels = [" "] * cols
        for i in range(n):
            word, at = f"x{i}", int(round((i + 0.5) * share)) - 1
            if len(word) <= share - 1 and at + len(word) <= cols:
                labels[at:at + len(word)] = list(word)
        out.append("".join(labels).rstrip() or " ", style="bold")
    else:
        out.append(f"x0 … x{n - 1}: shares thinner than a character blur into texture", style="dim")
    out.append("\n")
    out.append_text(ruler)
    out.append("\n")
    out.append_text(bar)
    out.append("\n")
    out.append_text(bar)
    out.append("\n")
    out.append(f"{'0':<{cols - len(str(width))}}{width}", style="dim")
    out.append("\n")
    out.append(f"state: {width} numbers, the same at every length", style="dim")
    return out


class ShareBar(Widget):
    DEFAULT_CSS = "ShareBar { height: 6; }"
    spec = (512, 4)

    def show(self, width: int, n: int) -> None:
        self.spec = (width, n)
        self.refresh()

    def render(self) -> Text:
        return share_text(*self.spec, self.size.width)


class CapacityView(FigureView):
    def compose(self):
        yield Readouts(id="share")
        yield ShareBar()
        yield Readouts(id="note")

    def show(self, s: CapacityState) -> None:
        share = s.share()
        self.query_one("#share", Readouts).show([
            (f"{s.width} numbers shared by {s.n} token{'s' * (s.n != 1)}:", f"{share:.2f} each"),
            ("first token's share", f"{100 * share / s.width:.2f}% of the state"),
        ], sep="\n")
        self.query_one(ShareBar).show(s.width, s.n)
        self.query_one("#note", Readouts).show([
            ("", "gates choose what stays in the state, not how big it is: doubling n halves every share"),
        ])


# -- timing (E6) ---------------------------------------------------------------------------------
def share_words(ratio: Fraction) -> str:
    """RNN FLOPs over attention FLOPs, in words."""
    if ratio == 1:
        return "the same FLOPs"
    return f"{ratio} of the FLOPs" if ratio < 1 else f"{ratio}× the FLOPs"


def times(x: float, more: str, less: str) -> str:
    return f"{x:.2g}× {more}" if x >= 1 else f"{1 / x:.2g}× {less}"


class TimingView(FigureView):
    """The lab's table; the screen's worker feeds `lab` and calls `show` again."""

    DEFAULT_CSS = "TimingView #status { text-wrap: nowrap; text-overflow: ellipsis; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lab = {"result": None, "problem": None, "loaded": False, "running": False,
                    "progress": None, "note": None}

    def compose(self):
        yield Static(id="status")
        yield Static(id="table")
        yield Readouts(id="compare")
        yield Readouts(id="convention")

    def load(self) -> None:
        if not self.lab["loaded"]:
            from rnntui.engine import lab_timing  # no torch here

            self.lab["result"], self.lab["problem"] = lab_timing.load_cache()
            self.lab["loaded"] = True

    def status(self) -> Text:
        lab = self.lab
        out = Text(no_wrap=True, overflow="ellipsis")
        if lab["running"]:
            done, total, label = lab["progress"] or (0, 1, "starting torch")
            filled = round(16 * done / max(total, 1))
            out.append("measuring ", style="bold")
            out.append(f"{label}  ▕{'█' * filled}{'░' * (16 - filled)}▏ {done}/{total}   ")
            out.append("t cancels", style="dim")
        elif lab["note"]:
            out.append(lab["note"], style="bold")
        elif lab["problem"]:
            out.append(lab["problem"], style=f"bold {BAD}")
        elif lab["result"] is None:
            out.append("not measured on this machine yet: ", style="bold")
            out.append("press t to run (torch, in the background, ~10 s)", style="")
        else:
            r = lab["result"]
            out.append(f"measured on {r['machine']['host']} {r['when']}, torch {str(r['torch']).split('+')[0]}, "
                       f"{r['threads']} threads  ", style="")
            out.append("t re-runs", style="dim")
        return out

    def row(self, T: int) -> dict | None:
        """While running, the rows measured so far; then the cached run; a cancelled run's rows
        only where nothing is cached."""
        from rnntui.engine import lab_timing

        partial, result = self.lab.get("partial"), self.lab["result"]
        if self.lab["running"]:
            return lab_timing.row_for(partial, T) or lab_timing.row_for(result, T)
        return lab_timing.row_for(result, T) or lab_timing.row_for(partial, T)

    def show(self, s: TimingState) -> None:
        from rnntui.engine import lab_timing

        self.load()
        d = par.TIMING_D
        table = Text(no_wrap=True, overflow="crop")
        table.append(f"{'T':>5}  {'FLOPs RNN':>9} {'attn':>6} {'RNN/attn':>8}   {'time RNN':>9} {'attn':>8}"
                     f"   {'GFLOP/s RNN':>11} {'attn':>5}\n", style="dim")
        Ts = sorted(set(par.TIMING_T) | {s.T})
        for T in Ts:
            fr, fa = par.rnn_flops(T, d), par.attention_flops(T, d)
            line = f"{T:>5}  {si(fr):>9} {si(fa):>6} {str(Fraction(fr, fa)):>8}   "
            row = self.row(T)
            if row:
                rr, ra = lab_timing.rates(row)
                line += f"{ms(row['rnn_s']):>9} {ms(row['attention_s']):>8}   {rr / 1e9:>11.1f} {ra / 1e9:>5.1f}"
            else:
                line += f"{'—':>9} {'—':>8}   {'—':>11} {'—':>5}"
            table.append(line + ("\n" if T != Ts[-1] else ""), style="bold reverse" if T == s.T else "")
        self.query_one("#status", Static).update(self.status())
        self.query_one("#table", Static).update(table)
        seed = par.SEED_LAPTOP
        row = self.row(s.T)
        ratio = Fraction(par.rnn_flops(s.T, d), par.attention_flops(s.T, d))
        here = f"RNN does {share_words(ratio)}, " + (
            f"{times(lab_timing.speedup(row), 'faster', 'slower')}; attention runs at "
            f"{lab_timing.rate_ratio(row):.2g}× its FLOP rate" if row else "not measured yet")
        self.query_one("#compare", Readouts).show([
            (f"here, T={s.T}:", here),
            (f"seed laptop CPU, T={seed['T']}:",
             f"RNN does {share_words(Fraction(seed['flop_ratio']).limit_denominator())}, {seed['rnn_speedup']}× faster; "
             f"attention runs at {seed['rate_ratio']}× its FLOP rate; both < 1 ms below T={seed['under_1ms_below']}"),
        ], sep="\n")
        self.query_one("#convention", Readouts).show([
            ("FLOPs:", f"RNN 4·T·d² (W_ih·x, W_hh·h per step); attention core 4·T²·d (QKᵀ, A·V; the 8·T·d² "
                       f"of projections is timed, not counted). d={d}, batch 1, {lab_timing.HEADS} heads, CPU with torch's "
                       f"default thread count, median of up to 9 runs."),
        ])


class ParallelScreen(TopicScreen):
    TOPIC_ID = "parallel"
    TITLE = "What dropping recurrence bought"
    BINDINGS = [Binding("t", "lab", "lab")]
    FIGURES = (
        Figure("grid", "Wallclock grid", "F15+F18", GridState, GridView,
               "Rows are positions, columns wallclock steps; a cell lights when its work happens. "
               "A recurrent layer is a chain; attention has nothing to wait for."),
        Figure("path", "Path between two tokens", "F19", PathState, PathView,
               "Each stair is one multiplication on the way from token 0 to token k. Recurrence "
               "stacks k of them; attention joins the two with one edge."),
        Figure("cost", "Cost per layer", "F21", CostState, CostView,
               "A recurrent layer does n·d² multiply–adds, attention n²·d. On log–log axes both are "
               "lines; attention's is steeper and crosses at n = d.", key_steps=(16, 64, 256, 512, 1024, 4096, 16384)),
        Figure("capacity", "Capacity of a fixed state", "F14", CapacityState, CapacityView,
               "A recurrent state keeps one fixed width however long the sequence: the longer it "
               "gets, the thinner each token's share.", key_steps=(1, 4, 16, 64, 256, 1024, 4096)),
        Figure("timing", "Timing lab", "E6", TimingState, TimingView,
               "nn.RNN against nn.MultiheadAttention, timed here (t runs or cancels). Fewer FLOPs "
               "are not less time: a chain of small steps cannot fill the hardware.",
               key_steps=par.TIMING_T),
    )

    def __init__(self) -> None:
        super().__init__()
        self.lab_worker = None

    # -- the timing lab: a thread worker, cancelled by t or by leaving the screen ---------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "lab":
            return self.figure.id == "timing"
        return super().check_action(action, parameters)

    def timing_view(self) -> TimingView:
        return self.query_one("#timing", TimingView)

    def action_lab(self) -> None:
        view = self.timing_view()
        if view.lab["running"]:  # until the thread itself has finished
            if self.lab_worker is not None and not self.lab_worker.is_cancelled:
                self.lab_worker.cancel()
            view.lab["note"] = "stopping after the forward in flight…"
            self.redraw()
            return
        view.load()
        view.lab.update(running=True, progress=None, note=None, partial=None)
        self.lab_worker = self.run_worker(self.run_lab, thread=True, exclusive=True, group="timing",
                                          exit_on_error=False, name="timing lab")
        self.redraw()

    def run_lab(self) -> None:
        """In a worker thread: measure, cache, and hand every update back to the UI thread."""
        from textual.worker import get_current_worker

        from rnntui.engine import lab_timing

        worker = get_current_worker()

        def back(fn, *args) -> None:
            if not worker.is_cancelled or fn == self.lab_finished:
                try:
                    self.app.call_from_thread(fn, *args)
                except Exception:  # the app is closing
                    pass

        try:
            result = lab_timing.run(
                progress=lambda done, total, label, partial: back(self.lab_progress, done, total, label,
                                                                  {"rows": list(partial.get("rows", []))}),
                should_stop=lambda: worker.is_cancelled)
            try:
                lab_timing.save_cache(result)
                note = None
            except OSError as e:  # shown, just not kept
                note = f"measured, but not cached: {e.strerror or e}"
            back(self.lab_finished, result, None, note)
        except lab_timing.Cancelled as stop:
            back(self.lab_finished, None, stop.partial, "cancelled")
        except Exception as e:  # torch missing, out of memory, disk full: one line, never a traceback
            back(self.lab_finished, None, None, f"the timing lab failed: {type(e).__name__}: {str(e)[:80]}")

    def lab_progress(self, done: int, total: int, label: str, partial: dict | None = None) -> None:
        view = self.timing_view()
        view.lab.update(progress=(done, total, label), note=None, partial=partial)
        if self.figure.id == "timing":
            self.redraw()

    def lab_finished(self, result, partial, note) -> None:
        view = self.timing_view()
        if note == "cancelled":
            note = ("cancelled: the table keeps the last full run" if view.lab["result"] else
                    "cancelled: rows measured so far, not cached; t runs again")
        view.lab.update(running=False, note=note, partial=partial)
        if result is not None:
            view.lab.update(result=result, problem=None)
        if self.is_mounted:
            self.redraw()

    def cancel_lab(self) -> None:
        if self.lab_worker is not None and self.lab_worker.is_running:
            self.lab_worker.cancel()

    def on_screen_suspend(self) -> None:
        self.cancel_lab()
        super().on_screen_suspend()

    def on_unmount(self) -> None:
        self.cancel_lab()
