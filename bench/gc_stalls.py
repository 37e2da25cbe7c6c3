"""Full garbage collections inside keys: Python's own schedule against rnntui/collector.py's.

    python -m bench.gc_stalls [--keys 400] [--seed 3]     (from the repository root; ~70 s a mode)

Keys are typed in bursts of 3–15 with 0.6–1.2 s pauses, as a person types, into the app at 120x40
(headless, told it is in a terminal so that the collector is on). Every full (generation 2)
collection is timed and counted as inside a key or in a pause.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import random
import time


async def run(keys: int, seed: int, quiet: bool) -> list[tuple[float, bool]]:
    from rnntui.app import RnnApp

    log, started, busy = [], [0.0], [False]

    def timed(phase, info):
        if info["generation"] == 2:
            if phase == "start":
                started[0] = time.perf_counter()
            else:
                log.append(((time.perf_counter() - started[0]) * 1e3, busy[0]))

    gc.collect()
    gc.freeze()  # as `rnntui` does before the app starts
    gc.callbacks.append(timed)
    app = RnnApp("recurrence")
    if quiet:
        RnnApp.is_headless = property(lambda self: False)  # as in a terminal: the collector is on
    rnd = random.Random(seed)
    names = ["right", "left", "tab", "shift+tab", "n", "up", "down", "plus", "minus"]
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            done = 0
            while done < keys:
                for _ in range(rnd.randint(3, 15)):
                    busy[0] = True
                    await pilot.press(rnd.choice(names))
                    busy[0] = False
                    done += 1
                await asyncio.sleep(rnd.uniform(0.6, 1.2))
    finally:
        gc.callbacks.remove(timed)
        gc.unfreeze()
        if quiet:
            del RnnApp.is_headless
    return log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=400)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    for name, quiet in (("python's schedule", False), ("rnntui's collector", True)):
        log = asyncio.run(run(args.keys, args.seed, quiet))
        inside = [ms for ms, busy in log if busy]
        print(f"{name:<20} full collections {len(log):3d}; inside keys {len(inside):3d} "
              f"(total {sum(inside):5.0f} ms, worst {max(inside, default=0):4.0f} ms)")


if __name__ == "__main__":
    main()
