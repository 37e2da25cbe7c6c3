"""`rnntui train LAB ...`: run a lab from the shell with a progress bar (SPEC §4).

torch is imported only once a lab actually runs. Bad input raises BadValue (one line, exit 2).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from rnntui.cli import Parser as CommandParser, encodes, said_if_stopped, whole
from rnntui.engine.records import cache_dir
from rnntui.files import check_creatable, check_savable, path_arg, written_anew
from rnntui.fmt import pct
from rnntui.i18n import N_, _, aside, commas, ngettext
from rnntui.state import BadValue, digits


class Parser(CommandParser):  # (help wrapped to the terminal's cells, as the others'; its own error prefix)
    def error(self, message: str):
        raise BadValue(f"{self.prog.removeprefix('rnntui ')}: {message}")


def fraction(text: str) -> float:
    try:
        value = float(digits(text))  # (0.7_6 was read as 0.76, a review)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number from 0 to 1").format(text=text)) from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number from 0 to 1").format(text=text))
    return value


def whole_in(lo: int, hi: int):
    def parse(text: str) -> int:
        value = whole(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(_("{value} is outside {lo}…{hi}").format(value=value, lo=lo, hi=hi))
        return value
    return parse


def seq2seq_parser() -> Parser:
    from rnntui.engine import seq2seq as s2s

    p = Parser(prog="rnntui train seq2seq",
               description=_("Train the GRU encoder–decoder on the reverse task (16 tokens, 20 classes) with the "
                             "fast trainer, one CPU thread, evaluating on the 1000 validation sequences every "
                             "{every} steps (they choose where it stops), then once on {fresh} fresh ones it "
                             "never saw.").format(every=s2s.EVERY, fresh=s2s.N_FRESH))
    p.add_argument("--scoring", choices=s2s.SCORINGS,
                   help=_("attention score (default additive; with --eval, the checkpoint's own)"))
    p.add_argument("--seed", type=whole_in(0, 2**31 - 1), help=_("initialisation and batches (default 0)"))
    p.add_argument("--steps", type=whole_in(1, 100_000), metavar="N",
                   help=_("most training steps (default 2000)"))
    p.add_argument("--until", type=fraction, metavar="ACC",
                   help=_("stop at the first evaluation with this exact-sequence accuracy (default {target}; "
                          "1 runs every step)").format(target=s2s.TARGET))
    p.add_argument("--out", type=path_arg, metavar="FILE",
                   help=_("write the weights and record here (.npz, or .pt for torch.save); default: the cache, "
                          "{path}").format(path=f"{cache_dir()}/seq2seq-SCORING-seedN.npz"))
    _force(p)
    p.add_argument("--full-eval", action="store_true",
                   help=_("score all 1000 validation sequences at every evaluation (by default a 200-sequence "
                          "screen skips the full count while far below the target)"))
    p.add_argument("--eval", type=path_arg, metavar="FILE",
                   help=_("do not train: score a checkpoint file (.npz or .pt) on the fresh and validation "
                          "sets"))
    _lang(p)
    return p


def _force(p: argparse.ArgumentParser) -> None:
    p.add_argument("--force", action="store_true", help=_("let --out replace a file that exists"))


def _lang(p: argparse.ArgumentParser) -> None:
    from rnntui.cli import _lang as lang

    lang(p)


class Bar:
    """A one-line progress bar on stderr (a line per evaluation when stderr is not a terminal)."""

    def __init__(self, total: int, stream=None, scored: str = N_("validation exact {acc}"), whole: int = 0) -> None:
        """`scored`: what the evaluation's accuracy is (memory scores fresh sequences, not a held-out set);
        `whole`: the sequences of the set, where an evaluation may score fewer (and says how many)."""
        self.total, self.stream, self.scored, self.whole = total, stream or sys.stderr, scored, whole
        self.tty = terminal(self.stream)
        self.last = 0.0
        self.exact: float | None = None
        self.of: int | None = None  # how many sequences scored it, where the evaluation says

    def __call__(self, p) -> None:
        if p.step == 0:
            return
        if p.exact is not None:
            self.exact, self.of = p.exact, getattr(p, "scored", None)
        now = time.monotonic()
        if self.tty and p.exact is None and now - self.last < 0.1:
            return
        if not self.tty and p.exact is None:
            return
        self.last = now
        acc = "" if self.exact is None else "  " + _(self.scored).format(acc=pct(self.exact).rjust(6))
        part = ""  # (a screen of 200 read as the 1000's: 59.5% here, 59.9% in the app, a student's trial)
        if self.exact is not None and self.of and self.of < self.whole:
            part = aside(_("(on {n} of {total})").format(n=self.of, total=self.whole))  # ("(200 of 1000)" unsaid what)
        loss = _("loss {loss}").format(loss=f"{p.loss:.3f}")
        rest = f" {p.step:>5}/{self.total}  {loss}{acc}{part}  {p.seconds:5.1f}s"
        line = self.bar(p.step) + rest
        if self.tty:  # (a line wider than the terminal wrapped, and each redraw added one: 80 columns, a trial)
            from rich.cells import cell_len

            room = self.columns() - 1
            if cell_len(rest) > room:  # the seconds before the part scored (they were cut at 60 columns: a review)
                rest = rest.replace(part, "", 1)
            self.show(line if cell_len(line) <= room else (self.bar(p.step, room - cell_len(rest)) + rest).lstrip())
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def show(self, line: str) -> None:
        """`line` in place of the last one (a terminal's stream), cut to the terminal's width."""
        from rnntui.widgets.cells import cut

        self.stream.write("\r" + cut(line, self.columns() - 1) + "\x1b[K")
        self.stream.flush()

    def columns(self) -> int:
        """The width of the terminal the bar is drawn in: its own stream's (stdout's, which shutil reads, may
        be a file: `> log` in 60 columns wrapped every redraw, a review)."""
        try:
            return os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return shutil.get_terminal_size().columns

    def bar(self, step: int, room: int = 26) -> str:
        """[███░░░]: 24 cells at most, none where fewer than 8 fit; # and - where the stream cannot write
        █ and ░ (latin-1 printed them as \\u2588, a trial)."""
        width = min(24, room - 2)
        if width < 6:
            return ""
        filled = round(width * step / self.total)
        full, empty = ("█", "░") if encodes("█░", self.stream) else ("#", "-")
        return f"[{full * filled}{empty * (width - filled)}]"

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def lab_module(name: str):
    """rnntui.engine.NAME, which imports torch: torch installed but broken (a library missing) is said in one
    line, not a traceback (a student's trial)."""
    import importlib

    try:  # torch alone (a module of ours that fails is a bug, with its traceback): any error, RuntimeError too
        importlib.import_module("torch")
    except Exception as e:
        error = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"[:160]
        raise BadValue(_("torch does not load ({error}); reinstall it: pip install --force-reinstall torch").format(
            error=error)) from None
    return importlib.import_module(f"rnntui.engine.{name}")


def nothing_saved(path) -> str:
    return _("cancelled: nothing saved to {path}").format(path=path)


def terminal(stream) -> bool:
    return hasattr(stream, "isatty") and stream.isatty()


def plot_curve(steps, percent, title: str, ylabel: str, lines=(), stream=None) -> bool:
    """A learning curve (y in percent on a linear axis, 0–100) drawn in the shell with plotext 5.3.2; plain
    (no colour codes) when `stream` (stdout) is not a terminal, so `> out.txt` keeps it (it was dropped, a
    trial). Skipped when plotext is missing or the stream cannot take braille (ASCII). True if drawn."""
    import shutil

    from rich.cells import cell_len

    from rnntui.widgets.axes import nice_ticks

    stream = stream or sys.stdout
    if not len(steps) or not encodes("⣿┤", stream):
        return False
    try:
        import plotext as plt
    except ImportError:
        return False
    cols = shutil.get_terminal_size((80, 24)).columns
    plt.clf()
    plt.theme("clear")  # the terminal's own colours (and none under NO_COLOR)
    width = max(min(cols, 100), 40)
    plt.plot_size(width, 18)
    plt.plot([float(s) for s in steps], [float(v) for v in percent], marker="braille")
    for at, _label in lines:
        plt.hline(float(at))
    plt.ylim(0, 100)
    plt.xticks(*nice_ticks(float(min(steps)), float(max(steps)), most=max(width // 10, 3)))  # (plotext's own read 25.0 168.8 312.5 …, a trial)
    text = plt.build()
    # title, legend and x label written here: plotext counts characters, not cells, and Chinese ones ran past the
    # plot's edge and wrapped (91 cells at 80, a student's trial)
    stream.write(" " * max((width - cell_len(title)) // 2, 0) + title + "\n")
    stream.write((text if terminal(stream) else plt.uncolorize(text)) + "\n")
    named = "   ".join(["⢕⢕ " + ylabel, *("── " + label for _at, label in lines if label), _("x: training step")])
    stream.write("      " + named + "\n")
    stream.flush()
    return True


def check_out(path: str, suffixes=(".npz", ".pt"), force: bool = False) -> Path:
    """The --out file, checked before training: a bad target is found now, not after the run. An existing
    file is replaced only with --force (it was, without a word: a TA's notes.json, a trial)."""
    out = Path(path)
    folder = out.resolve().parent
    if not folder.is_dir():
        raise BadValue(_("--out {path}: folder {folder} does not exist").format(path=path, folder=folder))
    if out.is_dir():
        raise BadValue(_("--out {path}: it is a folder; name a file").format(path=path))
    if not os.access(folder, os.W_OK):
        raise BadValue(_("--out {path}: cannot write there").format(path=path))
    if suffixes and out.suffix.lower() not in suffixes:
        raise BadValue(_("--out {path}: the suffix must be {suffixes}").format(
            path=path, suffixes=_(" or ").join(suffixes)))
    if out.exists() and not force:
        raise BadValue(_("--out {path}: the file exists; add --force to replace it").format(path=path))
    check_creatable(out)
    return out


def saved_anew(out: Path, write, force: bool) -> Path:
    """`write(path, replace)` at --out. Without --force a file that appeared there while the run trained (or
    another run's, to the same --out) is kept and this run goes beside it, NAME-1.npz, …, with a line that
    says so: one of them was replaced without a word (a CLI trial)."""
    if force:
        write(out, True)
        return out
    path = written_anew(out, write, most=1000)
    if path is None:
        raise BadValue(_("--out {path}: the file exists; add --force to replace it").format(path=out))
    if path != out:
        print("rnntui: " + _("{path} appeared while this run trained: it is kept, and this run is in {new}").format(
            path=out, new=path), file=sys.stderr)
    return path


def check_cache(path: Path, merged: bool = False) -> Path:
    """The cache file a run is saved in (`merged` into), checked (its folder made) before training; refused,
    the line says where else a run can go (it named neither, an admin's trial)."""
    try:
        check_savable(path, merged)
    except BadValue as e:
        raise BadValue(str(e) + _("; --out FILE or XDG_CACHE_HOME=/FOLDER (absolute) puts it elsewhere")) from None
    return path


def _read(lab, path: str, scoring: str):
    """(arrays, record) if the checkpoint reads as a `scoring` model's, else why not (BadCheckpoint)."""
    from rnntui.engine import seq2seq as s2s

    try:
        return lab.read_checkpoint(path, scoring)
    except s2s.BadCheckpoint as e:
        return e


def run_seq2seq(argv: list[str]) -> int:
    args = seq2seq_parser().parse_args(argv)
    from rnntui.engine import seq2seq as s2s

    given, args.scoring = args.scoring is not None, args.scoring or "additive"
    if args.eval is not None:
        lab = lab_module("lab_seq2seq")
        unused = [option for option, value in (("--out", args.out), ("--steps", args.steps), ("--seed", args.seed),
                                               ("--until", args.until), ("--full-eval", args.full_eval),
                                               ("--force", args.force)) if value not in (None, False)]
        if unused:  # (`--eval C.npz --out new.npz` wrote nothing, exit 0, a CLI audit)
            raise BadValue(_("--eval scores a checkpoint and trains nothing: {options} would do nothing").format(
                options=commas(unused)))

        try:
            arrays, _record = lab.read_checkpoint(args.eval, args.scoring)
        except s2s.BadCheckpoint as e:
            tried = {s: _read(lab, args.eval, s) for s in s2s.SCORINGS if s != args.scoring}
            fits, read = next(((s, got) for s, got in tried.items() if not isinstance(got, s2s.BadCheckpoint)),
                              (None, None))
            if not given and fits is None:  # what is wrong with the model its record names (a NaN, a shape), not
                # with additive, tried first (a trial); no record that reads: the record of the model its arrays are
                e = tried.get(lab.checkpoint_scoring(args.eval)) or next(
                    (got for got in (e, *tried.values()) if got.message.startswith("its record")), e)
            if given or fits is None:  # (--scoring asked for another model: said, not guessed)
                hint = "" if fits is None else _("; its scoring is {scoring}: add --scoring {scoring}").format(
                    scoring=fits)  # (it did not say which, a trial)
                raise BadValue(_("--eval {file}: {error}").format(file=args.eval, error=e.said(_)) + hint) from None
            # no --scoring: the checkpoint's own (a dot checkpoint was refused as "not additive", a trial)
            args.scoring, arrays = fits, read[0]
            print(_("{name} is a {scoring} checkpoint: scored with --scoring {scoring}").format(
                name=args.eval, scoring=fits))
        exact, token = s2s.accuracy(s2s.greedy(arrays, args.scoring, s2s.held_out()).tokens,
                                    s2s.reverse_target(s2s.held_out()))
        fresh = s2s.fresh_accuracy(arrays, args.scoring)
        print(_("{name}: exact-sequence accuracy {fresh} on {n} fresh sequences (token {fresh_token}); {exact} on "
                "the 1000 validation sequences (token {token})").format(
            name=args.eval, fresh=pct(fresh['exact']), n=fresh["n"], fresh_token=pct(fresh['token']),
            exact=pct(exact), token=pct(token)))  # (as the app rounds them: "0.790" beside its 79.1%, a trial)
        return 0

    args.seed = 0 if args.seed is None else args.seed
    args.steps = 2000 if args.steps is None else args.steps
    args.until = s2s.TARGET if args.until is None else args.until
    if args.out is not None:
        out = check_out(args.out, force=args.force)
    else:
        out = check_cache(cache_dir() / f"seq2seq-{args.scoring}-seed{args.seed}.npz")
        _corrupt_set_aside(out, args.scoring)
    lab = lab_module("lab_seq2seq")
    until = None if args.until >= 1.0 else args.until
    print(ngettext("training seq2seq {scoring}, seed {seed}: at most {steps} step",
                   "training seq2seq {scoring}, seed {seed}: at most {steps} steps", args.steps).format(
        scoring=args.scoring, seed=args.seed, steps=args.steps)
          + (_(", until validation exact ≥ {until}").format(until=f"{until:.2f}") if until is not None else ""),
          file=sys.stderr)
    bar = Bar(args.steps, whole=s2s.N_HELD_OUT)
    start = time.perf_counter()
    with said_if_stopped(lambda: nothing_saved(out)):
        try:
            result = lab.train(args.scoring, args.seed, steps=args.steps, until=until, on_progress=bar,
                               screen=not args.full_eval)
        finally:
            bar.close()
    wall = time.perf_counter() - start
    kept = _set_aside(out) if args.out is None else None  # the cache's earlier model is not lost
    try:
        if args.out is None:
            lab.save(out, result.arrays, result.record())
        else:
            out = saved_anew(out, lambda path, replace: lab.save(path, result.arrays, result.record(), replace),
                             args.force)
    except BaseException:
        if kept is not None:
            os.replace(kept, out)  # (back where it was)
        raise
    plot_curve([row[0] for row in result.curve], [100 * row[2] for row in result.curve],
               _("seq2seq {scoring}: validation exact-sequence accuracy").format(scoring=args.scoring), _("exact %"),
               lines=((100 * s2s.TARGET, _("the source's")),))
    # (it said "held-out" of the 1000 whose first score ≥ 76% ended the run: the fresh set's score comes first)
    validated = (_("{exact} on the 1000 validation sequences that chose where it stopped (token {token})")
                 if until is not None and result.exact >= until else
                 _("{exact} on the 1000 validation sequences (token {token})"))
    print(ngettext("seq2seq {scoring} seed {seed}: exact-sequence accuracy {fresh} on {n} fresh sequences (token "
                   "{fresh_token}); {validated}; after {steps} step ({seconds} s training, {wall} s in all) -> {out}",
                   "seq2seq {scoring} seed {seed}: exact-sequence accuracy {fresh} on {n} fresh sequences (token "
                   "{fresh_token}); {validated}; after {steps} steps ({seconds} s training, {wall} s in all) -> {out}",
                   result.steps).format(
        scoring=args.scoring, seed=args.seed, fresh=pct(result.fresh['exact']), n=result.fresh["n"],
        fresh_token=pct(result.fresh['token']),
        validated=validated.format(exact=pct(result.exact), token=pct(result.token)),
        steps=result.steps, seconds=f"{result.seconds:.1f}", wall=f"{wall:.1f}", out=out)
          + ("" if kept is None else _("; the earlier one kept as {path}").format(path=kept)))
    return 0


def _corrupt_set_aside(path: Path, scoring: str) -> None:
    """A cached model that does not read set aside now, and said: after the run it was kept as the
    .previous one, over a good earlier model, and nothing said it was corrupt (a teaching-server trial)."""
    from rnntui.engine import seq2seq as s2s
    from rnntui.engine.records import corrupt_name

    try:
        s2s.read_npz(path, scoring)
    except s2s.BadCheckpoint as e:
        aside = corrupt_name(path)
        if aside is not None:
            os.replace(path, aside)
            print("rnntui: " + _("the cached model {path} was corrupt ({error}); set aside as {aside}").format(
                path=path, error=e.said(_), aside=aside.name), file=sys.stderr)
    except OSError:  # (none there; one it cannot read is refused where it is written)
        pass


def runs_in(path: Path) -> int:
    """The runs a memory grid file holds (0: none there, or it does not read)."""
    from rnntui.engine import memory as mem

    try:
        return len(mem.parse(path.read_bytes()).runs)
    except (OSError, ValueError):
        return 0


def _set_aside(path: Path) -> Path | None:
    """The cache's checkpoint from an earlier run moved to NAME.previous.npz (one earlier model is kept): a
    25-step run replaced one at 82.8% without a word (a trial). None: there was none."""
    if not path.exists():
        return None
    kept = previous_name(path)
    os.replace(path, kept)
    return kept


def previous_name(path: Path) -> Path:
    """Where _set_aside keeps the one earlier file: NAME.previous.SUFFIX."""
    return path.with_name(path.stem + ".previous" + path.suffix)


def memory_parser() -> Parser:
    from rnntui.engine import memory as mem

    p = Parser(prog="rnntui train memory",
               description=_("Train the copy-first-token task (T tokens from 10; output the first) with the fast "
                             "trainer, one CPU thread, scoring {n} fresh sequences every {every} steps.").format(
                   n=mem.N_EVAL, every=mem.EVERY))
    p.add_argument("--cell", choices=mem.CELLS, help=_("default lstm-bf2"))
    p.add_argument("--T", type=whole, choices=mem.TS, help=_("sequence length (default 20)"))
    p.add_argument("--steps", type=whole_in(1, 100_000), metavar="N",
                   help=_("most steps (default {steps}; {long} for the forget-bias cells, which stop early at the "
                          "first multiple of {every} steps whose accuracy is 100%%)").format(
                       steps=mem.STEPS["rnn"], long=mem.STEPS["lstm-bf2"], every=mem.STOP_EVERY["lstm-bf2"]))
    # (it said they "stop at 100%": lstm-bf2 T=20 at 100% at step 300 ran on to 500, a TA's trial)
    p.add_argument("--seed", type=whole_in(0, 2**31 - 1), default=mem.SEED, help=_("initialisation (default 0)"))
    p.add_argument("--out", type=path_arg, metavar="FILE",
                   help=_("write the result(s) here as JSON; default: merge into {path} (with --steps or --seed other "
                          "than the recipe's, into {trials}; --all: {grid}, and the recipe's grid into both)").format(
                       path=mem.cache_path(), trials=mem.cache_path().with_name("memory-trials.json"),
                       grid=mem.cache_path().with_name("memory-grid.json")))
    _force(p)
    p.add_argument("--all", action="store_true",
                   help=_("train every cell × T, each with --steps and --seed, and print the table"))
    _lang(p)
    return p


def run_said(run) -> str:
    """A finished memory run in a line: `train memory`'s, and each of `--all`'s."""
    from rnntui.engine import memory as mem

    reached = (_("never reached 100%") if run.reached_100_at is None
               else _("100% at step {step}").format(step=run.reached_100_at))
    # (500/6000, then it ended, unsaid: a trial; 300 stops at the check at 500, and one below 100% at its end was
    # ended by --steps: a review)
    if every := mem.stopped_at_check(run):
        reached += aside(_("(it stops at its first check at 100%, one every {every} steps, as the source's code "
                           "does)").format(every=every))
    return ngettext("memory {cell} T={T}: accuracy {acc} after {steps} step, {reached} ({seconds} s)",
                    "memory {cell} T={T}: accuracy {acc} after {steps} steps, {reached} ({seconds} s)", run.steps).format(
        cell=run.cell, T=run.T, acc=pct(run.final_acc), steps=run.steps, reached=reached, seconds=f"{run.seconds:.1f}")


def memory_table(results) -> str:
    """`train memory --all`'s table: each cell × T, ours beside the source's, accuracies rounded as the app
    rounds them (17.5 here beside the run's 17.6%, a CLI trial); its words in the app's language, columns
    in cells (English under --lang zh, a review)."""
    from rnntui.engine import memory as mem
    from rnntui.widgets.cells import cell_len, fit

    def percent(v):
        return "–" if v is None else pct(v).removesuffix("%")

    never = _("never")
    heads = (_("model"), "T", _("ours %"), "@100%", _("steps"), _("secs"), _("source %"), "@100%", "σ(b_f)^T")
    rows = []
    for r in mem.table(results):
        ran = r["steps"] is not None
        reached = "–" if not ran else never if r["reached_100_at"] is None else str(r["reached_100_at"])
        seed_at = {None: never, "?": "?"}.get(r["seed_reached"], str(r["seed_reached"]))
        rows.append((r["cell"], str(r["T"]), percent(r["final_acc"]), reached, str(r["steps"] or "–"),
                     "–" if r["seconds"] is None else f"{r['seconds']:.0f}", percent(r["seed_final"]), seed_at,
                     "" if r["survival"] is None else f"{r['survival']:.2g}"))
    widths = [max(cell_len(row[k]) for row in (heads, *rows)) for k in range(len(heads))]
    gaps = ("", "  ", " ", " ", " ", " ", "   ", " ", "   ")  # the source's columns apart from ours
    return "\n".join("".join(gap + fit(text, width, "left" if k in (0, 8) else "right")
                             for k, (gap, text, width) in enumerate(zip(gaps, row, widths))).rstrip()
                     for row in (heads, *rows))


def run_memory(argv: list[str]) -> int:
    args = memory_parser().parse_args(argv)
    from rnntui.engine import memory as mem

    unused = [option for option, value in (("--cell", args.cell), ("--T", args.T)) if value is not None]
    if args.all and unused:  # (`--all --cell rnn --T 5` trained every cell and T, a CLI audit)
        raise BadValue(_("--all trains every cell and T: {options} would do nothing").format(options=commas(unused)))
    args.cell, args.T = args.cell or "lstm-bf2", 20 if args.T is None else args.T

    # where the result goes, checked before training (a read-only --out was found after the run)
    out = check_out(args.out, (".json",), args.force) if args.out is not None else None  # (JSON went into m.npz)
    grid = out or mem.cache_path().with_name("memory-grid.json")  # where --all writes its runs
    # the app's runs (shot, export and present draw them) take the recipe's runs only: a quick --steps 100 run
    # put its 17.5✗ on the lecture's slide in place of 100@700 (a CLI trial); --all already kept such a grid apart
    # (--steps 1500 --seed 0 for rnn is the recipe's run, said to differ from it, a review)
    recipe_steps = (None,) if args.all else (None, mem.STEPS[args.cell])
    recipe = args.steps in recipe_steps and args.seed == mem.SEED
    kept = mem.cache_path() if recipe else mem.cache_path().with_name("memory-trials.json")  # (one run, merged)
    if out is None:  # the cache: checked, and a corrupt one set aside now and said (it was, without a word, a trial)
        caches = [(mem.cache_path(), None)]
        if not (recipe or args.all):  # (the trials file said "using the shipped results" of itself, a review)
            caches.append((kept, N_("this run starts it anew")))
        for path, then in caches:
            if path == kept:  # (a trial run was refused as "cannot write …/memory.json", a file it does not write)
                check_cache(path, merged=True)
            _cached, report = mem.load_cache(path, then)
            if report:
                print(f"rnntui: {report}", file=sys.stderr)
        if args.all:
            check_cache(grid)
    lab = lab_module("lab_memory")
    from rnntui.files import write_atomic

    def save(results: mem.Results) -> Path:
        if out is not None:
            return saved_anew(out, lambda path, replace: write_atomic(str(path), results.dumps(), replace), args.force)
        mem.save_cache(results, kept)
        return kept

    if args.all:
        finished, claimed = [], []  # claimed: where the grid goes (--out, or beside a file made there meanwhile)

        def log(run) -> None:  # a line per finished run, each saved in `grid` before it
            finished.append(run)
            print(run_said(run), file=sys.stderr, flush=True)  # (English under --lang zh: the engine's, a review)

        def write(text: str) -> None:  # the first run claims its file (saved_anew), the next ones rewrite it
            if claimed:
                write_atomic(str(claimed[0]), text)
                return
            # (a ctrl+c after the first run left one run of an earlier 15, a code review; a grid cut short
            # too replaced the whole one kept, a review: the one with more runs is kept)
            if out is None and runs_in(grid) >= runs_in(previous_name(grid)) and (earlier := _set_aside(grid)):
                print("rnntui: " + _("the earlier grid is kept as {path}").format(path=earlier), file=sys.stderr)
            claimed.append(saved_anew(grid, lambda path, replace: write_atomic(str(path), text, replace),
                                      args.force or out is None))

        def said() -> str:
            return nothing_saved(grid) if not finished else ngettext(
                "cancelled: the {n} run that finished is in {path}",
                "cancelled: the {n} runs that finished are in {path}", len(finished)).format(
                n=len(finished), path=claimed[0])

        with said_if_stopped(said):  # (--steps, --seed: they were ignored, 1500/6000 steps from seed 0)
            results = lab.write_grid(grid, gates=False, log=log, steps=args.steps, seed=args.seed, write=write)
        if out is None and recipe:
            mem.save_cache(results)
        print(memory_table(results))
        if out is not None:  # (where it went, after the table: NAME-1 was said only before 40 lines, a review)
            print(f"-> {claimed[0]}")
        if out is None and not recipe:  # (a quick --steps 50 grid took all 15 places in the app, a review)
            print("rnntui: " + _("not merged into the app's runs ({cache}): --steps or --seed differ from the recipe; "
                                 "the grid is in {path}").format(cache=mem.cache_path(), path=claimed[0]), file=sys.stderr)
        return 0
    bar = Bar(args.steps or mem.STEPS[args.cell], scored=N_("accuracy {acc}"))  # (on fresh sequences: it said held-out)
    with said_if_stopped(lambda: nothing_saved(out or kept)):
        try:
            done = lab.train(args.cell, args.T, steps=args.steps, seed=args.seed,
                             progress=lambda p: bar(_as_bar(p)))
        finally:
            bar.close()
    run = done.run
    where = save(mem.Results((run,)))
    # chance as the app says it ("随机猜测" beside the app's "随机猜 10%", a Chinese student's trial)
    plot_curve([p.step for p in run.curve], [100 * p.acc for p in run.curve],
               _("memory {cell} T={T}: accuracy on {n} fresh sequences").format(cell=args.cell, T=args.T, n=mem.N_EVAL),
               _("accuracy %"), lines=((100 * mem.CHANCE, _("chance {p}").format(p=pct(mem.CHANCE, 0))),))
    seed = mem.seed_final(args.cell, args.T)
    print(run_said(run) + ("" if seed is None else _("; the source's: {acc}").format(acc=pct(seed))) + f" -> {where}")
    if out is None and not recipe:
        print("rnntui: " + _("not merged into the app's runs ({cache}): --steps or --seed differ from the recipe").format(
            cache=mem.cache_path()), file=sys.stderr)
    return 0


def _as_bar(p):
    """lab_memory.Progress in the shape Bar reads (its `exact` is our accuracy)."""
    from types import SimpleNamespace

    return SimpleNamespace(step=p.step, loss=p.loss, seconds=p.seconds, exact=p.acc)


def timing_parser() -> Parser:
    p = Parser(prog="rnntui train timing",
               description=_("Time nn.RNN against nn.MultiheadAttention on this machine, as parallel/timing's t does, "
                             "and cache the result for the app, shot and export (~10 s)."))
    _lang(p)
    return p


def run_timing(argv: list[str]) -> int:
    """parallel/timing's lab from the shell: a slide of measured times needed the app's t first (an export
    said "not measured here yet", a lecturer's trial)."""
    timing_parser().parse_args(argv)
    lab = lab_module("lab_timing")
    path = check_cache(lab.cache_path())
    line = Bar(0)  # (its line only, in place: the lab's progress is its timings, not steps)

    def progress(done: int, total: int, label: str, _partial) -> None:
        if line.tty:
            line.show(f"{done}/{total} {label}")

    with said_if_stopped(lambda: nothing_saved(path)):
        try:
            result = lab.run(progress=progress)
        finally:
            if line.tty:
                line.show("")
    lab.save_cache(result, path)
    for row in result["rows"]:
        print(_("T={T}: RNN {rnn} ms, attention {attention} ms").format(
            T=row["T"], rnn=f"{1000 * row['rnn_s']:.3g}", attention=f"{1000 * row['attention_s']:.3g}"))
    print(ngettext("timing on {host}, torch {torch}, {n} thread -> {path}",
                   "timing on {host}, torch {torch}, {n} threads -> {path}", result["threads"]).format(
        host=result["machine"]["host"], torch=result["torch"], n=result["threads"], path=path))
    return 0


LABS = {"seq2seq": run_seq2seq, "memory": run_memory, "timing": run_timing}


def run_train(argv: list[str]) -> int:
    if not argv:
        raise BadValue(_("train: name a lab: {labs} (`rnntui train LAB --help`)").format(labs=commas(LABS)))
    if argv[0] in ("-h", "--help"):
        print(_("usage: rnntui train LAB [options]   (LAB: {labs}; `rnntui train LAB --help`)").format(
            labs=commas(LABS)))
        return 0
    lab = argv[0]
    if lab not in LABS:
        raise BadValue(_("train {lab!r}: choose from {labs}").format(lab=lab, labs=commas(LABS)))
    if not any(a in ("-h", "--help") for a in argv[1:]):
        from rnntui.figure import check_torch

        check_torch()  # (a traceback ending in "No module named 'torch'", an admin's trial)
    from rnntui.terminal import Gone

    kept = sys.stdout, sys.stderr  # a terminal gone under a run in the background (`nohup`, then the ssh session
    sys.stdout, sys.stderr = (Gone(s) if terminal(s) else s for s in kept)  # closed) ended it at its bar's next
    try:  # write, EIO, and the run was lost (a trial): what it writes there goes nowhere, it trains and saves
        return LABS[lab](argv[1:])
    finally:
        sys.stdout, sys.stderr = kept
