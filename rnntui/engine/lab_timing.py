"""E6 timing lab: an RNN forward against a multi-head self-attention forward, on this machine.

torch is imported inside `run` only. The cache helpers need no torch, so a screen can show the
last measurement without paying for the import. Results are cached per machine under
$XDG_CACHE_HOME/rnntui (or ~/.cache/rnntui), one JSON file per host.
"""
from __future__ import annotations

import json
import os
import platform
import re
import statistics
import time
from pathlib import Path

from rnntui.engine import N_, records
from rnntui.engine.parallel import TIMING_D, TIMING_T, attention_flops, rnn_flops
from rnntui.engine.records import Const, Many, Num

VERSION = 1
HEADS = 4  # d_k = 64 at d = 256


class Cancelled(Exception):
    """The run was stopped between two forwards; `partial` holds what was measured."""

    def __init__(self, partial: dict) -> None:
        super().__init__("cancelled")
        self.partial = partial


# -- where results live ---------------------------------------------------------------------
def machine() -> dict:
    return {"host": platform.node() or "unknown", "arch": platform.machine(), "system": platform.system(),
            "processor": platform.processor(), "cpus": os.cpu_count()}


cache_dir = records.cache_dir


def cache_path() -> Path:
    host = re.sub(r"[^A-Za-z0-9._-]+", "_", machine()["host"])[:64] or "unknown"
    return cache_dir() / f"timing-{host}.json"


# what a cached run must hold: everything the screen shows, each number finite and in range
ROW = {"T": Num(1, 1_000_000, whole=True), "rnn_s": Num(0, 3600, above=True),
       "attention_s": Num(0, 3600, above=True), "rnn_flops": Num(0, 1e18, above=True),
       "attention_flops": Num(0, 1e18, above=True), "rnn_reps?": Num(1, 1e6, whole=True),
       "attention_reps?": Num(1, 1e6, whole=True), "rnn_spread?": Num(1, 1e6), "attention_spread?": Num(1, 1e6)}
SCHEMA = {"version": Const(VERSION), "machine": {"host": str, "arch?": str, "system?": str, "processor?": str},
          "torch": str, "threads": Num(1, 100_000, whole=True), "when": str, "d?": Num(1, 1e6, whole=True),
          "heads?": Num(1, 1e4, whole=True), "rows": Many(ROW, 1, 1000)}


def load_cache(path: Path | None = None) -> tuple[dict | None, str | None]:
    """(result, None), (None, None) when nothing is cached, or (None, one-line report) when the
    file is corrupt; a corrupt file is moved aside (…json.corrupt) so the next run rebuilds it."""
    return records.load_cache(path or cache_path(), lambda data: records.parse(data, SCHEMA), N_("timing cache"),
                              N_("the next run rebuilds it"))


def save_cache(result: dict, path: Path | None = None) -> Path:
    """Write atomically (beside the target, then rename), readable as the other caches are (its own
    mkstemp made it 0600: on a shared cache another student's export was refused, a trial)."""
    from rnntui.files import write_atomic

    path = path or cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(str(path), json.dumps(result, indent=1))
    return path


def valid(result) -> bool:
    """Whether `result` is a finished run of this version (what `load_cache` would accept)."""
    try:
        records.check(result, SCHEMA)
    except records.RecordError:
        return False
    return True


# -- what a result says -----------------------------------------------------------------------
def row_for(result: dict | None, T: int) -> dict | None:
    for row in (result or {}).get("rows", []):
        if row["T"] == T:
            return row
    return None


def rates(row: dict) -> tuple[float, float]:
    """Achieved FLOP/s of the RNN and of attention (counted FLOPs over the median time)."""
    return row["rnn_flops"] / row["rnn_s"], row["attention_flops"] / row["attention_s"]


def speedup(row: dict) -> float:
    """How many times faster the RNN forward is than the attention forward."""
    return row["attention_s"] / row["rnn_s"]


def rate_ratio(row: dict) -> float:
    """Attention's FLOP rate over the RNN's."""
    r, a = rates(row)
    return a / r


def spread(row: dict) -> float | None:
    """The slowest repeat of a forward over its fastest, the larger of the two (None for a run cached
    before it was recorded): how much a busy machine moved this row's medians."""
    found = [row[k] for k in ("rnn_spread", "attention_spread") if k in row]
    return max(found) if found else None


# -- the measurement ----------------------------------------------------------------------------
def _median_time(forward, repeats: int, budget_s: float, should_stop) -> tuple[float, int, float]:
    """(median, repeats timed, slowest over fastest) of `forward`'s time."""
    forward()  # warm-up: allocation, kernel choice
    times = []
    spent = 0.0
    while len(times) < repeats and (len(times) < 3 or spent < budget_s):
        if should_stop():
            break
        t0 = time.perf_counter()
        forward()
        times.append(time.perf_counter() - t0)
        spent += times[-1]
    if not times:
        return float("nan"), 0, 1.0
    return statistics.median(times), len(times), max(times) / max(min(times), 1e-12)


def run(Ts=TIMING_T, d: int = TIMING_D, repeats: int = 9, budget_s: float = 1.5, heads: int = HEADS,
        progress=None, should_stop=None, seed: int = 0) -> dict:
    """Time nn.RNN and nn.MultiheadAttention forwards (batch 1, CPU, inference mode) at every T.

    Each forward is timed up to `repeats` times (at least 3; fewer once `budget_s` is spent) after
    one warm-up; the median is kept, and the slowest repeat over the fastest. torch keeps its default thread count, which is recorded.
    `progress(done, total, label, partial)` is called before each job; `should_stop()` is checked
    between forwards and raises Cancelled with the rows finished so far.
    """
    import torch
    from torch import nn

    should_stop = should_stop or (lambda: False)
    torch.manual_seed(seed)
    rnn = nn.RNN(d, d, batch_first=True).eval()
    mha = nn.MultiheadAttention(d, heads, batch_first=True).eval()
    result = {"version": VERSION, "machine": machine(), "torch": str(torch.__version__),  # a str: torch's TorchVersion would import torch in the app when unpickled
              "threads": torch.get_num_threads(), "d": d, "heads": heads, "batch": 1, "device": "cpu",
              "when": time.strftime("%Y-%m-%d %H:%M"), "rows": []}
    jobs = [(T, which) for T in Ts for which in ("rnn", "attention")]
    row = {}
    with torch.inference_mode():
        for done, (T, which) in enumerate(jobs):
            if should_stop():
                raise Cancelled(result)
            if progress:
                progress(done, len(jobs), f"T={T} {'RNN' if which == 'rnn' else which}", result)  # (as the table
                # writes it: "T=64 rnn" beside RNN, a student's trial)
            x = torch.randn(1, T, d)
            if which == "rnn":
                median, reps, apart = _median_time(lambda: rnn(x), repeats, budget_s, should_stop)
                row = {"T": T, "rnn_s": median, "rnn_reps": reps, "rnn_spread": apart, "rnn_flops": rnn_flops(T, d)}
            else:
                # (called as the source's code calls it: need_weights left on, the heads' weights computed and
                # averaged; need_weights=False timed something else beside its line, a mathematician's audit)
                median, reps, apart = _median_time(lambda: mha(x, x, x), repeats, budget_s, should_stop)
                row.update({"attention_s": median, "attention_reps": reps, "attention_spread": apart,
                            "attention_flops": attention_flops(T, d)})
                if should_stop():
                    raise Cancelled(result)
                result["rows"].append(row)
    if progress:
        progress(len(jobs), len(jobs), "done", result)
    return result


def run_lab(state, report) -> dict:
    """The timing figure's lab, run by the lab runner in a child process: measure every T with
    torch's default thread count for this machine (the result records the count it really used),
    report the rows measured so far, save the cache here and return the result. A failed save is
    a note in the result ("cache_note"), not a failure."""
    result = run(progress=lambda done, total, label, partial: report(done, total, label,
                                                                    {"rows": list(partial["rows"])}))
    try:
        save_cache(result)
    except (OSError, ValueError) as e:  # (write_atomic's BadValue says "cannot write PATH: why"; mkdir's OSError
        # said "permission denied" alone, a trial)
        from rnntui.files import cannot_write

        said = str(cannot_write(e.filename or cache_path(), e)) if isinstance(e, OSError) else str(e)
        result["cache_note"] = said  # (why; the figure says it in its language: it was English in Chinese, a review)
    return result
