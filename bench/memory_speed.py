"""Copy-first-token training speed: the plain loop (autograd through nn.RNN / nn.LSTM) vs the fast trainer.

For each cell and T both trainers start from the same seeded initialisation and take the same batches,
interleaved step by step in this one process (one thread) so that whatever else the machine is doing
slows both alike; times are this thread's CPU time (time.thread_time), so other
processes on the machine inflate them less. Reported: ms per training step, steps/s, and the time of one evaluation on the 2000
sequences (plain: one forward over all 2000; fast: chunks of 250). With the shipped grid present, the
measured times are also summed over the grid's runs (their steps, an evaluation every 100 steps) to
estimate what the whole grid costs each way.

    python -m bench.memory_speed            # short: rnn and lstm at T = 20 and 80, 60 steps each
    python -m bench.memory_speed --full     # every cell × T, 200 steps each, and the grid estimate
"""
from __future__ import annotations

import argparse
import statistics
import time

import torch

from rnntui.engine import lab_memory as lab
from rnntui.engine import memory as mem


def measure(cell: str, T: int, steps: int, warmup: int = 5) -> dict:
    plain = lab.make_trainer(cell, mem.SEED, mem.VOCAB, fast=False)
    fast = lab.make_trainer(cell, mem.SEED, mem.VOCAB, fast=True)
    gen = lab.generator(mem.DATA_SEED)
    times = {"plain": [], "fast": []}
    for k in range(warmup + steps):
        x = lab.batch(gen, mem.BATCH, T)
        for name, tr in (("plain", plain), ("fast", fast)):
            t0 = time.thread_time()
            tr.step(x)
            if k >= warmup:
                times[name].append(time.thread_time() - t0)
    xe = lab.eval_set(T)
    evals = {}
    for name, tr in (("plain", plain), ("fast", fast)):
        ts = []
        for _ in range(3):
            t0 = time.thread_time()
            lab.accuracy(tr, xe)
            ts.append(time.thread_time() - t0)
        evals[name] = statistics.median(ts)
    return {"cell": cell, "T": T, "plain_step": statistics.median(times["plain"]),
            "fast_step": statistics.median(times["fast"]), "plain_eval": evals["plain"], "fast_eval": evals["fast"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="every cell × T (and the grid estimate)")
    ap.add_argument("--steps", type=int, help="timed steps per cell and T (default 60, 200 with --full)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    cells = mem.CELLS if args.full else ("rnn", "lstm")
    Ts = mem.TS if args.full else (20, 80)
    steps = args.steps or (200 if args.full else 60)
    print(f"torch {torch.__version__}, 1 thread, batch {mem.BATCH}, {steps} timed steps each (median)")
    print(f"{'cell':<9}{'T':>4}  {'plain ms':>9} {'fast ms':>8} {'plain/s':>8} {'fast/s':>7} {'ratio':>6}   "
          f"{'eval plain':>10} {'fast':>6}")
    rows = {}
    for cell in cells:
        for T in Ts:
            r = measure(cell, T, steps)
            rows[cell, T] = r
            print(f"{cell:<9}{T:>4}  {1e3 * r['plain_step']:9.2f} {1e3 * r['fast_step']:8.2f} "
                  f"{1 / r['plain_step']:8.0f} {1 / r['fast_step']:7.0f} {r['plain_step'] / r['fast_step']:5.2f}×   "
                  f"{1e3 * r['plain_eval']:8.0f}ms {1e3 * r['fast_eval']:4.0f}ms", flush=True)
    try:
        grid = mem.shipped()
    except mem.BadResults as e:
        print(f"no grid estimate: {e}")
        return
    total = {"plain": 0.0, "fast": 0.0}
    for run in grid.runs:
        r = rows.get((run.cell, run.T))
        if r is None:
            continue
        for name in total:
            total[name] += run.steps * r[f"{name}_step"] + len(run.curve) * r[f"{name}_eval"]
    if any(total.values()):
        print(f"the shipped grid's runs{'' if args.full else ' measured here'} (steps + evaluations): plain "
              f"{total['plain']:.0f} s, fast {total['fast']:.0f} s, {total['plain'] / total['fast']:.2f}× less")


if __name__ == "__main__":
    main()
