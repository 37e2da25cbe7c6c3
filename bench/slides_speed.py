"""Per-frame cost of slides: SVG and PNG of a 100x30 frame at --scale 2.

    python -m bench.slides_speed [--frames 8] [--size 100x30] [--scale 2]     (from the repository root)

One headless Session renders --frames key frames (the first ones, in lecture order) after a warm-up
frame. Timed per frame:

- app        the frame drawn by the app (switching figure and state), nothing exported;
- svg raw    Textual's own export_screenshot (the CDN-font SVG rnntui wrote before issue 18);
- svg        rnntui's self-contained SVG (cells, shapes, font subset embedded), subset cache cold;
- png        rnntui's PNG: the cell grid drawn with Pillow and the shipped font, PNG-encoded;
- png rsvg   the route before issue 18 (SVG redrawn on cells, then `rsvg-convert`), when
             rsvg-convert is installed, for comparison.
"""
from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--size", default="100x30")
    ap.add_argument("--scale", type=float, default=2.0)
    args = ap.parse_args()
    from rnntui.cli import parse_size
    from rnntui.png import draw
    from rnntui.render import Session
    from rnntui.slides import key_frames
    from rnntui import svg as svgmod

    size = parse_size(args.size)
    frames = key_frames()[: args.frames + 1]
    times: dict[str, list[float]] = {k: [] for k in ("app", "svg raw", "svg", "png", "png rsvg")}
    svgs = []

    async def run() -> None:
        async with Session(size, "dark", args.scale) as session:
            for n, f in enumerate(frames):
                t0 = time.perf_counter()
                await session.frame(f.screen, f.figure, f.state, ())
                t1 = time.perf_counter()
                session.app.export_screenshot(title=f"rnntui {f.address}")  # Textual's own, for comparison
                t2 = time.perf_counter()
                ours = svgmod.screen_svg(svgmod.screen_segments(session.app), size[0], f"rnntui {f.address}")
                t3 = time.perf_counter()
                draw(session.grid(f"rnntui {f.address}"), args.scale)
                t4 = time.perf_counter()
                if n:  # the first frame warms up imports and caches
                    times["app"].append(t1 - t0)
                    times["svg raw"].append(t2 - t1)
                    times["svg"].append(t3 - t2)
                    times["png"].append(t4 - t3)
                    svgs.append(ours)

    asyncio.run(run())
    if shutil.which("rsvg-convert"):
        for doc in svgs:
            t0 = time.perf_counter()
            done = subprocess.run(["rsvg-convert", "--zoom", f"{args.scale:g}", "--format", "png"],
                                  input=doc.encode(), capture_output=True, check=True)
            assert done.stdout.startswith(b"\x89PNG")
            times["png rsvg"].append(time.perf_counter() - t0)
    print(f"{len(svgs)} frames at {size[0]}x{size[1]}, scale {args.scale:g}: seconds per frame (median, max)")
    for name, values in times.items():
        if values:
            print(f"  {name:<9} {statistics.median(values):6.3f}  {max(values):6.3f}")
        else:
            print(f"  {name:<9}   (rsvg-convert not installed)")


if __name__ == "__main__":
    main()
