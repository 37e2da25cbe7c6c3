"""`rnntui train LAB ...`: run a lab from the shell with a progress bar (SPEC §4).

torch is imported only once a lab actually runs. Bad input raises BadValue (one line, exit 2).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from rnntui.files import check_creatable, path_arg
from rnntui.state import BadValue


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise BadValue(f"{self.prog.removeprefix('rnntui ')}: {message}")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rnntui"


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1")
    return value


def count(lo: int, hi: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is outside {lo}…{hi}")
        return value
    return parse


def seq2seq_parser() -> Parser:
    from rnntui.engine import seq2seq as s2s

    p = Parser(prog="rnntui train seq2seq",
               description="Train the GRU encoder–decoder on the reverse task (16 tokens, 20 classes) with the "
                           "fast trainer, one CPU thread, evaluating on the 1000 held-out sequences every "
                           f"{s2s.EVERY} steps.")
    p.add_argument("--scoring", default="additive", choices=s2s.SCORINGS, help="attention score (default additive)")
    p.add_argument("--seed", type=count(0, 2**31 - 1), default=0, help="initialisation and batches (default 0)")
    p.add_argument("--steps", type=count(1, 100_000), default=2000, metavar="N",
                   help="most training steps (default 2000)")
    p.add_argument("--until", type=fraction, default=s2s.TARGET, metavar="ACC",
                   help=f"stop at the first evaluation with this exact-sequence accuracy (default {s2s.TARGET}; "
                        "1 runs every step)")
    p.add_argument("--out", type=path_arg, metavar="FILE",
                   help="write the weights and record here (.npz, or .pt for torch.save); default: the cache, "
                        f"{cache_dir()}/seq2seq-SCORING-seedN.npz")
    p.add_argument("--full-eval", action="store_true",
                   help="score all 1000 held-out sequences at every evaluation (by default a 200-sequence "
                        "screen skips the full count while far below the target)")
    p.add_argument("--eval", type=path_arg, metavar="FILE",
                   help="do not train: score a checkpoint file (.npz or .pt) on the held-out set")
    return p


class Bar:
    """A one-line progress bar on stderr (a line per evaluation when stderr is not a terminal)."""

    def __init__(self, total: int, stream=None) -> None:
        self.total, self.stream = total, stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last = 0.0
        self.exact: float | None = None

    def __call__(self, p) -> None:
        if p.step == 0:
            return
        if p.exact is not None:
            self.exact = p.exact
        now = time.monotonic()
        if self.tty and p.exact is None and now - self.last < 0.1:
            return
        if not self.tty and p.exact is None:
            return
        self.last = now
        width = 24
        filled = round(width * p.step / self.total)
        acc = "" if self.exact is None else f"  held-out exact {self.exact:6.1%}"
        line = f"[{'█' * filled}{'░' * (width - filled)}] {p.step:>5}/{self.total}  loss {p.loss:.3f}{acc}  {p.seconds:5.1f}s"
        if self.tty:
            self.stream.write("\r" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def check_out(path: str) -> Path:
    """The --out file, checked before training: a bad target is found now, not after the run."""
    out = Path(path)
    folder = out.resolve().parent
    if not folder.is_dir():
        raise BadValue(f"--out {path}: folder {folder} does not exist")
    if out.is_dir() or not os.access(folder, os.W_OK):
        raise BadValue(f"--out {path}: cannot write there")
    if out.suffix not in (".npz", ".pt"):
        raise BadValue(f"--out {path}: the suffix must be .npz or .pt")
    check_creatable(out)
    return out


def run_seq2seq(argv: list[str]) -> int:
    args = seq2seq_parser().parse_args(argv)
    from rnntui.engine import seq2seq as s2s

    if args.eval is not None:
        from rnntui.engine import lab_seq2seq as lab

        try:
            arrays, _ = lab.read_checkpoint(args.eval, args.scoring)
        except s2s.BadCheckpoint as e:
            raise BadValue(f"--eval {args.eval}: {e}") from None
        exact, token = s2s.accuracy(s2s.greedy(arrays, args.scoring, s2s.held_out()).tokens,
                                    s2s.reverse_target(s2s.held_out()))
        print(f"{args.eval}: held-out exact-sequence accuracy {exact:.3f}, token accuracy {token:.3f}")
        return 0

    if args.out is not None:
        out = check_out(args.out)
    else:
        out = cache_dir() / f"seq2seq-{args.scoring}-seed{args.seed}.npz"
        out.parent.mkdir(parents=True, exist_ok=True)
        check_creatable(out)
    from rnntui.engine import lab_seq2seq as lab

    until = None if args.until >= 1.0 else args.until
    print(f"training seq2seq {args.scoring}, seed {args.seed}: at most {args.steps} steps"
          + (f", until held-out exact ≥ {until:.2f}" if until is not None else ""), file=sys.stderr)
    bar = Bar(args.steps)
    start = time.perf_counter()
    try:
        result = lab.train(args.scoring, args.seed, steps=args.steps, until=until, on_progress=bar,
                           screen=not args.full_eval)
    finally:
        bar.close()
    wall = time.perf_counter() - start
    lab.save(out, result.arrays, result.record())
    print(f"seq2seq {args.scoring} seed {args.seed}: held-out exact-sequence accuracy {result.exact:.3f}, "
          f"token accuracy {result.token:.3f} after {result.steps} steps "
          f"({result.seconds:.1f} s training, {wall:.1f} s in all) -> {out}")
    return 0


LABS = {"seq2seq": run_seq2seq}


def run_train(argv: list[str]) -> int:
    if not argv:
        raise BadValue("train: name a lab: " + ", ".join(LABS) + " (`rnntui train LAB --help`)")
    if argv[0] in ("-h", "--help"):
        print("usage: rnntui train LAB [options]   (LAB: " + ", ".join(LABS) + "; `rnntui train LAB --help`)")
        return 0
    lab = argv[0]
    if lab not in LABS:
        raise BadValue(f"train {lab!r}: choose from {', '.join(LABS)}")
    return LABS[lab](argv[1:])
