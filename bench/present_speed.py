"""Slide changes in `rnntui present`: key → whole frame for every slide of a deck, as in a terminal.

    python -m bench.present_speed [--deck lecture] [--size 120x40] [--passes 2] [--pause 0.8]   (repository root)

The deck is walked forward with space, --passes times: the first pass shows each view for the first
time (its layout at this size), the later ones again. As `rnntui present` runs in a terminal: the
heap frozen before the app starts, full collections held for quiet moments (rnntui/collector.py),
every slide's numbers computed ahead (`PresentApp.read_ahead`), --pause seconds between slides (a
presenter talks; the held collections run in such pauses). Headless Textual keeps Python's own
collection schedule: a full collection (40–60 ms at the lecture's size) then lands inside some slide
and reads as that slide being slow. Timed from the key posted to the last frame composited and
encoded (bench/speed.py's FrameClock); full collections inside a key are counted.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import math
import statistics

from bench.speed import FrameClock


async def walk(deck_name: str, size: tuple[int, int], passes: int, pause: float) -> tuple[list[list[float]], int, list]:
    from rnntui import deck as decks
    from rnntui.present import PresentApp

    deck = decks.load(deck_name)
    full = [0]
    counting = [False]

    def count(phase, info):
        if phase == "start" and info["generation"] == 2 and counting[0]:
            full[0] += 1

    times: list[list[float]] = [[] for _ in range(passes)]
    gc.collect()
    gc.freeze()  # as `rnntui` does before the app starts
    gc.callbacks.append(count)
    # the collector on, as in a terminal (its read-ahead timer too: a second pass over cached numbers)
    PresentApp.is_headless = property(lambda self: False)
    try:
        app = PresentApp(deck)
        async with app.run_test(size=size) as pilot:
            clock = FrameClock(app)
            thread = app.read_ahead()
            if thread is not None:
                thread.join()
            for k in range(passes):
                await pilot.press("home")
                for _ in deck.frames[1:]:
                    await asyncio.sleep(pause)  # a presenter talks (FrameClock.press then waits for idle)
                    counting[0] = True
                    dt, _bytes = await clock.press(pilot, "space", quiet=0.05)
                    counting[0] = False
                    times[k].append(float("nan") if dt is None else dt)
    finally:
        del PresentApp.is_headless
        gc.callbacks.remove(count)
        gc.unfreeze()
    return times, full[0], deck.frames


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="lecture")
    ap.add_argument("--size", default="120x40")
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--pause", type=float, default=0.8, help="seconds between slides")
    args = ap.parse_args()
    from rnntui.cli import parse_size

    times, full, frames = asyncio.run(walk(args.deck, parse_size(args.size), max(args.passes, 1),
                                          args.pause))
    print(f"{args.deck}: {len(frames)} slides at {args.size}, key → whole frame (ms)")
    if len(frames) < 2:
        print("  one slide: no slide change to time")
        return
    for k, row in enumerate(times):
        ms = sorted(t * 1e3 for t in row if not math.isnan(t))
        missed = len(row) - len(ms)
        print(f"  pass {k + 1} ({'first visits' if k == 0 else 'again'}): "
              + (f"median {statistics.median(ms):.0f}, 90% {ms[int(0.9 * (len(ms) - 1))]:.0f}, slowest {ms[-1]:.0f}"
                 if ms else "no frame") + (f"; {missed} slides drew no frame within 2 s" if missed else ""))
    first = times[0]
    print("  slowest on the first pass:")
    for i in sorted(range(len(first)), key=lambda i: (math.isnan(first[i]), -first[i]))[:6]:
        f = frames[i + 1]
        print(f"    slide {i + 2:>2} {f.screen.TOPIC_ID}/{f.figure.id:<12} "
              + "  ".join(f"{row[i] * 1e3:5.0f}" for row in times))
    print(f"  full collections inside a slide's key: {full}")


if __name__ == "__main__":
    main()
