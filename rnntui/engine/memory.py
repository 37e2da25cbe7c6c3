"""T7 `memory`: how far back a recurrent net can remember (copy-first-token, E2/E3/E7). Pure, no torch.

The task: T random tokens from a vocabulary of 10; after reading all of them, output the first.
The information has to cross T steps. A cell's only lossless way across is the LSTM's

    c_t = f_t·c_{t-1} + i_t·g_t       so c_0 reaches c_T scaled by  Π f_t ≈ σ(b_f)^T  at initialisation

and the forget-gate bias b_f sets how open that path is before any training: σ(0)^20 = 9.5e-07,
σ(2)^20 = 0.079. Cells: `rnn` (tanh), `lstm` (torch's default init, b_f ≈ 0), `lstm-bf1`
(b_f = 1, the seed's prose) and `lstm-bf2` (what the seed's companion code really does: the forget
slice of both bias_ih and bias_hh set to 1, so the effective bias is 2).

This module holds the constants, the closed forms, the seed's numbers and the trained results:
a shipped grid (rnntui/data/memory_grid.json, made by `lab_memory`) that a user cache
($XDG_CACHE_HOME/rnntui/memory.json) overrides entry by entry. Every file is checked against a
schema; anything wrong is one line in `BadResults`, and a corrupt cache is set aside, never a crash.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from rnntui.engine import N_, records
from rnntui.engine.lstm import bias_survival
from rnntui.state import BadValue, Marked

VOCAB = 10  # token classes 0…9; chance is 1/VOCAB
CHANCE = 1.0 / VOCAB
EMB = HIDDEN = 64
BATCH = 64
LR = 1e-3
CLIP = 1.0
SEED = 0  # torch.manual_seed: the initialisation
DATA_SEED = 1  # the training batches
EVAL_SEED = 2  # the 2000 evaluation sequences (their own stream, so evaluating never shifts the batches)
N_EVAL = 2000
TS = (5, 10, 20, 40, 80)
CELLS = ("rnn", "lstm", "lstm-bf1", "lstm-bf2")
EVERY = 100  # the learning curve: an evaluation every this many steps
STEPS = {"rnn": 1500, "lstm": 1500, "lstm-bf1": 6000, "lstm-bf2": 6000}  # most steps per run
STOP_EVERY = {"lstm-bf1": 500, "lstm-bf2": 500}  # these stop at the first such evaluation at 100%

# the effective forget-gate bias at initialisation (b_ih + b_hh in the forget slice); the default
# LSTM's is the sum of two uniform(−1/8, 1/8) draws, ≈ 0
FORGET_BIAS = {"rnn": None, "lstm": 0.0, "lstm-bf1": 1.0, "lstm-bf2": 2.0}

# Seed 000 §3 and §8 in words; the numbers are its companion code's printed results (arganzheng/ai-learning-labs,
# deep-learning-foundations/expected/06_rnn_attention.txt, parts 2 and 3: the notes' table did not come through):
# final accuracy after 1500 steps (6000 for "b_f = 1", which is effectively 2), and the step at which the
# 500-step evaluations first read 100% (None: never).
SEED_FINAL = {
    "rnn": {5: 1.0, 10: 0.177, 20: 0.098, 40: 0.102, 80: 0.093},
    "lstm": {5: 1.0, 10: 1.0, 20: 0.097, 40: 0.092, 80: 0.106},
    "lstm-bf2": {20: 1.0, 40: 1.0, 80: 0.096},
}
SEED_REACHED = {"lstm-bf2": {20: 500, 40: 500, 80: None}}

DISTRACTOR_T = 20
DISTRACTOR_CELL = "lstm-bf2"  # the default LSTM does not learn T = 20 at all, so its gates say nothing
DISTRACTORS = ("same", "disjoint")  # the T−1 tokens after the first: from the same 10 symbols, or 10 others
HOLD = 0.95  # a unit "holds" memory when its forget gate stays above this at every position after the first

VERSION = 1


class BadResults(BadValue):
    """A results file that does not fit the schema; the message is one line."""


class DamagedGrid(BadResults, Marked):
    """The grid shipped with the package cannot be read: a broken install."""


def check_cell(cell) -> str:
    if cell not in CELLS:
        raise BadValue(f"cell {cell!r}: choose from {', '.join(CELLS)}")
    return cell


def check_T(T) -> int:
    if isinstance(T, bool) or not isinstance(T, int) or T not in TS:
        raise BadValue(f"T={T!r}: choose from {', '.join(map(str, TS))}")
    return T


# -- closed forms ---------------------------------------------------------------------------------
def cell_survival(cell: str, T: int) -> float | None:
    """σ(b_f)^T with the cell's effective forget bias; None for the RNN (it has no such path)."""
    b = FORGET_BIAS[check_cell(cell)]
    return None if b is None else float(bias_survival(b, check_T(T)))


def seed_final(cell: str, T: int) -> float | None:
    return SEED_FINAL.get(cell, {}).get(T)


def seed_reached(cell: str, T: int):
    """The seed's step at 100% (None: it never got there); '?' where the seed does not say."""
    table = SEED_REACHED.get(cell)
    if table is None or T not in table:
        return "?"
    return table[T]


def stopped_at_check(run) -> int | None:
    """The steps between the checks that stopped `run` at its first 100% (STOP_EVERY), or None where none did
    (it ran its cell's steps, ended below 100%, or --steps ended it between checks)."""
    every = STOP_EVERY.get(run.cell)
    if (every and run.reached_100_at is not None and run.steps % every == 0 and run.steps < STEPS[run.cell]
            and learned(run.final_acc)):
        return every
    return None


def learned(acc: float) -> bool:
    return acc >= 1.0


# -- results ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Point:
    step: int
    acc: float  # exact accuracy on the 2000 evaluation sequences, 0…1
    loss: float  # mean training loss over the steps since the previous point


@dataclass(frozen=True)
class Run:
    cell: str
    T: int
    steps: int  # steps actually trained
    seed: int
    curve: tuple[Point, ...]
    reached_100_at: int | None  # the first evaluated step at 100%
    final_acc: float
    seconds: float  # training time
    torch: str

    @property
    def learned(self) -> bool:
        return learned(self.final_acc)

    def record(self) -> dict:
        return {"cell": self.cell, "T": self.T, "steps": self.steps, "seed": self.seed,
                "reached_100_at": self.reached_100_at, "final_acc": self.final_acc,
                "seconds": round(self.seconds, 2), "torch": self.torch,
                "curve": [[p.step, p.acc, p.loss] for p in self.curve]}


def make_run(cell: str, T: int, steps: int, seed: int, curve, seconds: float, torch: str) -> Run:
    """A Run whose final accuracy and step at 100% are read off its curve."""
    points = tuple(Point(int(s), float(a), float(l)) for s, a, l in curve)
    reached = next((p.step for p in points if learned(p.acc)), None)
    return Run(cell, T, steps, seed, points, reached, points[-1].acc if points else 0.0, seconds, torch)


@dataclass(frozen=True)
class Gates:
    """E7: the trained LSTM's gates at each position, averaged over a batch of sequences."""
    distractors: str  # "same" or "disjoint"
    cell: str
    T: int
    steps: int
    acc: float
    input_gate: tuple[float, ...]  # mean i_t over batch and units, per position
    forget_gate: tuple[float, ...]
    held_units: tuple[int, ...]  # units whose batch-mean forget gate stays above HOLD after position 0
    held_forget: tuple[float, ...]  # mean f_t over the held units, per position
    held_input: tuple[float, ...]
    seconds: float
    torch: str

    def record(self) -> dict:
        return {"distractors": self.distractors, "cell": self.cell, "T": self.T, "steps": self.steps,
                "acc": self.acc, "input_gate": list(self.input_gate), "forget_gate": list(self.forget_gate),
                "held_units": list(self.held_units), "held_forget": list(self.held_forget),
                "held_input": list(self.held_input), "seconds": round(self.seconds, 2), "torch": self.torch}


@dataclass(frozen=True)
class Results:
    runs: tuple[Run, ...]
    gates: tuple[Gates, ...] = ()

    def run(self, cell: str, T: int) -> Run | None:
        check_cell(cell), check_T(T)
        return next((r for r in self.runs if r.cell == cell and r.T == T), None)

    def gate(self, distractors: str) -> Gates | None:
        return next((g for g in self.gates if g.distractors == distractors), None)

    def merged(self, other: Results) -> Results:
        """These results with `other`'s entries in place of any with the same key."""
        keys = {(r.cell, r.T) for r in other.runs}
        runs = tuple(r for r in self.runs if (r.cell, r.T) not in keys) + other.runs
        order = {(c, T): i for i, (c, T) in enumerate((c, T) for c in CELLS for T in TS)}
        kinds = {g.distractors for g in other.gates}
        gates = tuple(g for g in self.gates if g.distractors not in kinds) + other.gates
        return Results(tuple(sorted(runs, key=lambda r: order[(r.cell, r.T)])),
                       tuple(sorted(gates, key=lambda g: DISTRACTORS.index(g.distractors))))

    def record(self) -> dict:
        return {"version": VERSION, "runs": [r.record() for r in self.runs],
                "distractor": [g.record() for g in self.gates]}

    def dumps(self) -> str:
        return json.dumps(self.record(), indent=None, separators=(",", ":")).replace('{"cell"', '\n{"cell"')


# -- the schema --------------------------------------------------------------------------------------
def _int(obj: dict, key: str, where: str, lo: int = 0, hi: int = 10**9, none: bool = False):
    if key not in obj:
        raise BadResults(f"{where}: missing field {key!r}")
    v = obj[key]
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise BadResults(f"{where}: {key} must be a whole number from {lo} to {hi}, not {str(v)[:20]!r}")
    return v


def _num(v, what: str, lo: float = 0.0, hi: float = math.inf) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not lo <= v <= hi:
        raise BadResults(f"{what} must be a finite number from {lo:g} to {hi:g}, not {str(v)[:20]!r}")
    return float(v)


def _field(obj: dict, key: str, where: str, kind):
    if key not in obj:
        raise BadResults(f"{where}: missing field {key!r}")
    if not isinstance(obj[key], kind):
        raise BadResults(f"{where}: {key} must be a {getattr(kind, '__name__', 'value')}")
    return obj[key]


def _fractions(obj: dict, key: str, where: str, n: int) -> tuple[float, ...]:
    values = _field(obj, key, where, list)
    if len(values) != n:
        raise BadResults(f"{where}: {key} must hold {n} numbers, not {len(values)}")
    return tuple(_num(v, f"{where}: {key}", 0.0, 1.0) for v in values)


def parse_run(obj) -> Run:
    if not isinstance(obj, dict):
        raise BadResults("a run is not an object")
    cell = obj.get("cell")
    if cell not in CELLS:
        raise BadResults(f"a run's cell {str(cell)[:20]!r} is not one of {', '.join(CELLS)}")
    T = obj.get("T")
    if isinstance(T, bool) or T not in TS:
        raise BadResults(f"{cell}: T {str(T)[:20]!r} is not one of {', '.join(map(str, TS))}")
    where = f"{cell} T={T}"
    steps = _int(obj, "steps", where, 1, 100_000)
    seed = _int(obj, "seed", where, 0, 2**63)
    reached = _int(obj, "reached_100_at", where, 1, steps, none=True)
    final = _num(obj.get("final_acc"), f"{where}: final_acc", 0.0, 1.0) if "final_acc" in obj else None
    if final is None:
        raise BadResults(f"{where}: missing field 'final_acc'")
    seconds = _num(obj.get("seconds"), f"{where}: seconds") if "seconds" in obj else None
    if seconds is None:
        raise BadResults(f"{where}: missing field 'seconds'")
    version = _field(obj, "torch", where, str)[:40]
    rows = _field(obj, "curve", where, list)
    if not rows or len(rows) > 10_000:
        raise BadResults(f"{where}: the curve must hold 1 to 10000 points")
    points, last = [], 0
    for row in rows:
        if not isinstance(row, list) or len(row) != 3:
            raise BadResults(f"{where}: a curve point is not [step, acc, loss]")
        step = row[0]
        if isinstance(step, bool) or not isinstance(step, int) or not last < step <= steps:
            raise BadResults(f"{where}: curve steps must rise from 1 to {steps}, not {str(step)[:20]!r}")
        points.append(Point(step, _num(row[1], f"{where}: curve acc", 0.0, 1.0), _num(row[2], f"{where}: curve loss")))
        last = step
    if points[-1].step != steps:
        raise BadResults(f"{where}: the curve ends at step {points[-1].step}, not at steps={steps}")
    run = make_run(cell, T, steps, seed, [(p.step, p.acc, p.loss) for p in points], seconds, version)
    if run.final_acc != final:
        raise BadResults(f"{where}: final_acc {final} is not the curve's last accuracy {run.final_acc}")
    if run.reached_100_at != reached:
        raise BadResults(f"{where}: reached_100_at {reached} is not where the curve first reads 100% "
                         f"({run.reached_100_at})")
    return run


def parse_gates(obj) -> Gates:
    if not isinstance(obj, dict):
        raise BadResults("a distractor entry is not an object")
    kind = obj.get("distractors")
    if kind not in DISTRACTORS:
        raise BadResults(f"distractors {str(kind)[:20]!r} is not one of {', '.join(DISTRACTORS)}")
    where = f"distractor {kind}"
    cell = obj.get("cell")
    if cell not in CELLS or cell == "rnn":
        raise BadResults(f"{where}: cell {str(cell)[:20]!r} is not an LSTM cell")
    T = _int(obj, "T", where, 2, 1000)
    held = _field(obj, "held_units", where, list)
    if any(isinstance(u, bool) or not isinstance(u, int) or not 0 <= u < HIDDEN for u in held) \
            or len(set(held)) != len(held):
        raise BadResults(f"{where}: held_units must be distinct unit numbers 0…{HIDDEN - 1}")
    n_held = T if held else 0
    return Gates(kind, cell, T, _int(obj, "steps", where, 1, 100_000),
                 _num(obj.get("acc"), f"{where}: acc", 0.0, 1.0),
                 _fractions(obj, "input_gate", where, T), _fractions(obj, "forget_gate", where, T),
                 tuple(held), _fractions(obj, "held_forget", where, n_held),
                 _fractions(obj, "held_input", where, n_held),
                 _num(obj.get("seconds"), f"{where}: seconds"), _field(obj, "torch", where, str)[:40])


def parse(data: str | bytes) -> Results:
    """Results from the text of a results file; raises BadResults with one line saying what is wrong."""
    try:
        obj = records.load_json(data)
    except records.RecordError as e:
        raise BadResults(str(e)) from None
    if not isinstance(obj, dict):
        raise BadResults("not a results file (the top level is not an object)")
    if obj.get("version") != VERSION:
        raise BadResults(f"version {str(obj.get('version'))[:20]!r}, expected {VERSION}")
    runs = obj.get("runs")
    if not isinstance(runs, list):
        raise BadResults("missing field 'runs' (a list)")
    parsed = [parse_run(r) for r in runs]
    keys = [(r.cell, r.T) for r in parsed]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise BadResults(f"{dup[0]} T={dup[1]} appears twice")
    gates = obj.get("distractor", [])
    if not isinstance(gates, list):
        raise BadResults("distractor must be a list")
    parsed_gates = [parse_gates(g) for g in gates]
    kinds = [g.distractors for g in parsed_gates]
    if len(set(kinds)) != len(kinds):
        raise BadResults("a distractor variant appears twice")
    return Results((), ()).merged(Results(tuple(parsed), tuple(parsed_gates)))


# -- where results live --------------------------------------------------------------------------------
def shipped_path():
    return resources.files("rnntui").joinpath("data", "memory_grid.json")


def cache_path() -> Path:
    return records.cache_dir() / "memory.json"


@lru_cache(maxsize=1)
def shipped() -> Results:
    """The grid that ships with the package; raises BadResults if the file is damaged."""
    try:
        data = shipped_path().read_bytes()
    except OSError as e:
        raise DamagedGrid(N_("{file}, shipped with rnntui, is unreadable ({why}): reinstall rnntui"),
                          file="memory_grid.json", why=e.strerror or e) from None
    try:
        return parse(data)
    except BadResults as e:  # (it named no file, a trial)
        raise DamagedGrid(N_("{file}, shipped with rnntui, is damaged ({why}); reinstall rnntui"),
                          file="memory_grid.json", why=e) from None


def load_cache(path: Path | None = None, then: str | None = None) -> tuple[Results | None, str | None]:
    """(results, None), (None, None) when nothing is cached, or (None, one-line report) when the cache
    is corrupt; a corrupt cache is moved aside (memory.json.corrupt) so the next save starts clean. `then`:
    what the line says happens instead (the shipped results are used)."""
    return records.load_cache(path or cache_path(), parse, N_("memory cache"), then or N_("using the shipped results"))


def load(path: Path | None = None) -> tuple[Results, str | None]:
    """The shipped grid with the user's cached runs in place of the shipped ones; (results, report)."""
    cached, report = load_cache(path)
    base = shipped()
    return (base.merged(cached) if cached else base), report


def save_cache(results: Results, path: Path | None = None) -> Path:
    """Merge `results` into the user cache (atomically); a corrupt cache is set aside and replaced, one that
    does not read is refused (BadValue): the runs in it were lost."""
    from rnntui.files import check_mergeable, locked, write_atomic

    path = path or cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path.parent):  # (another lab's save between this read and write was lost)
        check_mergeable(path)
        old, _ = load_cache(path)
        write_atomic(str(path), (old.merged(results) if old else results).dumps())
    return path


# -- what a grid says ---------------------------------------------------------------------------------
def table(results: Results) -> list[dict]:
    """One row per cell × T: ours beside the seed's, and the closed-form survival at initialisation;
    `yours`: the run is the user's (a cached run in place of the shipped one)."""
    rows, ours = [], shipped()
    for cell in CELLS:
        for T in TS:
            run = results.run(cell, T)
            rows.append({"cell": cell, "T": T, "yours": run is not None and run != ours.run(cell, T),
                         "final_acc": run.final_acc if run else None,
                         "reached_100_at": run.reached_100_at if run else None,
                         "steps": run.steps if run else None, "seconds": run.seconds if run else None,
                         "seed_final": seed_final(cell, T), "seed_reached": seed_reached(cell, T),
                         "survival": cell_survival(cell, T)})
    return rows
