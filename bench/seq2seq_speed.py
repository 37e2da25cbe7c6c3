"""Time to 76% held-out exact-sequence accuracy (reverse task, additive attention): plain loop vs fast trainer.

Both start from the same seeded initialisation, see the same batches (batch 64, Adam 3e-3, clip 1) and
run on one thread, interleaved step by step in this one process so that whatever else the machine is
doing slows both alike. Both are scored on all 1000 held-out sequences every 25 steps; evaluation time
is reported apart from training time. Then `lab.train` — what `rnntui train seq2seq` runs, with its
learning-rate schedule (lab.lr_at: fewer steps) and cheaper screened evaluations — is timed end to
end on the same seed.

    python bench/seq2seq_speed.py [--seeds 0,1,2,3] [--scoring additive] [--max-steps 1500]

Both loops train the same model the same way, so they need about as many steps; which one gets
there first on a given seed is chance (their float rounding differs, and training is chaotic after
~250 steps), so the sum over several seeds is the figure to quote.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch

from rnntui.engine import lab_seq2seq as lab
from rnntui.engine import seq2seq as s2s


class Runner:
    def __init__(self, name, step, greedy, seed):
        self.name, self.step_fn, self.greedy = name, step, greedy
        self.rng = s2s.train_stream(seed)
        self.wall = self.cpu = self.eval_wall = 0.0
        self.step_ms: list[float] = []
        self.reached: int | None = None
        self.exact = 0.0

    def step(self) -> None:
        x = torch.from_numpy(s2s.batch(self.rng, lab.BATCH))
        w0, c0 = time.perf_counter(), time.thread_time()
        self.step_fn(x)
        w, c = time.perf_counter() - w0, time.thread_time() - c0
        self.wall += w
        self.cpu += c
        self.step_ms.append(1e3 * w)

    def evaluate(self, step: int, target: float) -> None:
        w0 = time.perf_counter()
        self.exact, _ = lab.evaluate(self.greedy)
        self.eval_wall += time.perf_counter() - w0
        if self.exact >= target:
            self.reached = step


def race(scoring: str, seed: int, max_steps: int, target: float) -> tuple[Runner, Runner]:
    torch.set_num_threads(1)
    model = lab.initial(scoring, seed)
    opt = torch.optim.Adam(model.parameters(), lr=lab.LR)
    fast = lab.Fast(scoring, lab.initial(scoring, seed).named())
    runners = [Runner("plain", lambda x: lab.plain_step(model, opt, x), model.greedy, seed),
               Runner("fast", fast.step, fast.greedy, seed)]
    for step in range(1, max_steps + 1):
        live = [r for r in runners if r.reached is None]
        if not live:
            break
        for r in live:
            r.step()
        if step % lab.EVERY == 0:
            for r in live:
                r.evaluate(step, target)
        if step % 100 == 0:
            print(f"  step {step}: " + "  ".join(f"{r.name} {r.exact:.1%}" + (" ✓" if r.reached else "")
                                               for r in runners), flush=True)
    return runners[0], runners[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1", help="comma-separated seeds (default 0,1)")
    ap.add_argument("--scoring", default="additive", choices=s2s.SCORINGS)
    ap.add_argument("--max-steps", type=int, default=1500)
    ap.add_argument("--target", type=float, default=s2s.TARGET)
    args = ap.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread, scoring {args.scoring}, "
          f"target {args.target:.0%} held-out exact-sequence accuracy")
    lab.loops()  # TorchScript compilation (~0.1 s) is counted below in the end-to-end run, not in the race
    totals = {"plain": [0.0, 0, 0.0], "fast": [0.0, 0, 0.0], "train": [0.0, 0]}
    for seed in (int(s) for s in args.seeds.split(",")):
        print(f"seed {seed}: plain and fast, interleaved step by step")
        plain, fast = race(args.scoring, seed, args.max_steps, args.target)
        for r in (plain, fast):
            reached = f"step {r.reached}" if r.reached else f"not within {args.max_steps} steps"
            print(f"  {r.name:<5} reached {args.target:.0%} at {reached}: training {r.wall:6.1f} s wall "
                  f"({r.cpu:6.1f} s cpu), median step {statistics.median(r.step_ms):5.1f} ms, "
                  f"evaluations {r.eval_wall:5.1f} s")
        if plain.reached and fast.reached:
            print(f"  speed-up to {args.target:.0%}: {plain.wall / fast.wall:.2f}x wall, {plain.cpu / fast.cpu:.2f}x cpu "
                  f"(per step: {statistics.median(plain.step_ms) / statistics.median(fast.step_ms):.2f}x); "
                  f"with evaluations: {(plain.wall + plain.eval_wall) / (fast.wall + fast.eval_wall):.2f}x")
        for r in (plain, fast):
            if plain.reached and fast.reached:
                totals[r.name][0] += r.wall
                totals[r.name][1] += r.reached
                totals[r.name][2] += statistics.median(r.step_ms)
        t0 = time.perf_counter()
        result = lab.train(args.scoring, seed, steps=args.max_steps, until=args.target)
        total = time.perf_counter() - t0
        if plain.reached and fast.reached:
            totals["train"][0] += total
            totals["train"][1] += 1
        print(f"  lab.train (rnntui train): {result.exact:.1%} at step {result.steps}, {result.seconds:.1f} s training, "
              f"{total:.1f} s end to end with screened evaluations"
              + (f" = {plain.wall / total:.2f}x sooner than the plain loop's training alone" if plain.reached else ""))
    n = totals["train"][1]
    if n:
        (pw, ps, pm), (fw, fs, fm) = totals["plain"], totals["fast"]
        print(f"all {n} seeds: plain {pw:.1f} s over {ps} steps (median step {pm / n:.1f} ms), "
              f"fast {fw:.1f} s over {fs} steps (median step {fm / n:.1f} ms): {pw / fw:.2f}x sooner; "
              f"rnntui train end to end {totals['train'][0]:.1f} s = {pw / totals['train'][0]:.2f}x")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
