"""Startup and key-press latency, measured in one run (SPEC §5).

    python bench/perf.py [--topic recurrence] [--presses 60]

1. time to first frame: a fresh process that starts rnntui headless and exits as soon as the first
   frame is drawn, against the same for a bare Textual app (median of 5 each), and their ratio;
2. key press → re-rendered frame at 120x40: the action that a key runs, then a full layout and
   render of the screen into a console (an upper bound on what Textual does for the dirty part),
   median over many presses, for every figure of the chosen topic.
"""
from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import subprocess
import sys
import time

from rich.console import Console

FIRST_FRAME = """
import sys
from textual.app import App
from textual.widgets import Static
if sys.argv[1] == "bare":
    class Bare(App):
        def compose(self):
            yield Static("hello")
        def on_mount(self):
            self.call_after_refresh(self.exit)
    app = Bare()
else:
    from rnntui.app import RnnApp
    class First(RnnApp):
        async def on_mount(self):
            await super().on_mount()
            self.call_after_refresh(self.exit)
    app = First(sys.argv[1])
app.run(headless=True, size=(120, 40))
print("torch" in sys.modules)
"""


def first_frame(which: str, runs: int = 5) -> tuple[float, bool]:
    times, torch_seen = [], False
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", FIRST_FRAME, which], capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - t0)
        torch_seen |= r.stdout.strip().endswith("True")
    return statistics.median(times), torch_seen


async def key_latency(topic: str, presses: int) -> dict[str, float]:
    from rnntui.app import RnnApp

    app = RnnApp(topic)
    out = {}
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.topic_screen()
        for f in screen.FIGURES:
            screen.focus_figure(f.id)
            await pilot.pause()
            times = []
            console = Console(file=io.StringIO(), width=120, height=40, force_terminal=True)
            for i in range(presses):
                t0 = time.perf_counter()
                screen.action_step(1 if (i // 10) % 2 == 0 else -1)
                screen._refresh_layout(app.size)
                console.print(screen._compositor.render_update(full=True))
                times.append(time.perf_counter() - t0)
                await pilot.pause()
            out[f.id] = statistics.median(times) * 1000
        # the same full render with no key at all: what the Textual frame costs by itself
        idle = []
        for _ in range(presses):
            t0 = time.perf_counter()
            screen._refresh_layout(app.size)
            console.print(screen._compositor.render_update(full=True))
            idle.append(time.perf_counter() - t0)
        out["(no key, full render only)"] = statistics.median(idle) * 1000
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--topic", default="recurrence", help="the topic to open; key presses: this one, or 'all'")
    ap.add_argument("--presses", type=int, default=60)
    args = ap.parse_args()
    from rnntui.topics import topics as all_topics

    topics = [t.TOPIC_ID for t in all_topics()] if args.topic == "all" else [args.topic]
    bare, _ = first_frame("bare")
    ours, torch_seen = first_frame(topics[0])
    print(f"first frame: bare Textual {bare * 1000:.0f} ms, rnntui {topics[0]} {ours * 1000:.0f} ms, "
          f"ratio {ours / bare:.2f}; torch imported: {torch_seen}")
    for topic in topics:
        for fig, ms in asyncio.run(key_latency(topic, args.presses)).items():
            print(f"key press → frame at 120x40, {topic}/{fig}: median {ms:.1f} ms")


if __name__ == "__main__":
    main()
