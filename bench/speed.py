"""Issue 16 "Speed": every row of the table, each as a ratio against a bare Textual app measured in
the same run (the machine is shared; only ratios mean anything).

    python bench/speed.py [--quick] [--only first,keys,memory,train,export,switch,overlays]

rows (goal in brackets):
  first   first full frame in a real terminal (tmux, 120x40): a fresh `python -m rnntui` until its
          parameter line and its panel's border both show, vs a bare app (Header, Static, Footer) until
          its Static shows  [≤ 1.3x]
  keys    key → frame in process: from the Key event posted to the app to the last frame composited
          and encoded into escape codes (the App's `_display` is hooked; headless Textual skips the
          encoding, so the hook does it), median per figure, for every figure of every topic, vs the
          bare app whose key updates its Static  [worst figure ≤ 3x]
  memory  the app's RSS after one live lab ended (the parallel timing lab: it runs in a child
          process) vs the bare app's RSS  [≤ 120 MB]
  train   `rnntui train seq2seq --scoring additive --seed S` as a whole process vs the plain loop
          of the seed's recipe (nn.GRU/GRUCell + autograd, Adam 3e-3, batch 64, clip 1, all 1000
          held-out sequences every 25 steps until 76%) as a whole process, interleaved, 3 seeds  [≥ 2x]
  export  one SVG per frame through render.Session vs the same steps on a bare app  [≤ 1.5x]; and, for
          the record, the bare app screenshotted as Textual does (pilot.pause, export_screenshot: the
          pipeline both used when the issue was filed) and the whole lecture's `rnntui export` as one
          process (absolute: no bare app has one)
  switch  (no goal in the issue; for the record) tab and n → last frame in process, over every
          figure and topic, first visits (a view or topic mounted) and again, vs the bare app's key;
          the topics preloaded first, as the app does in a terminal a second after its first frame
  overlays  (no goal either) ? (help) and ctrl+p (the command palette), ↓ ↑, two letters in the
          palette and one that matches nothing, and escape closing each → first and last frame, frames
          and bytes sent, 8 times over each of three figures

Bytecode: an editable install run with PYTHONDONTWRITEBYTECODE=1 recompiles rnntui at every start;
the first-frame row is measured with the bytecode present (compileall runs first, as a normal
install has it) and, for the record, once without.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SOCK = "rnntui-speed-bench"

BARE = """
import sys
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    BINDINGS = [("right", "step(1)", "next"), ("left", "step(-1)", "back")]
    n = 0
    def compose(self):
        yield Header(icon="●")  # Textual's ⭘ is in no shipped font: the SVG export would refuse it
        yield Static("bare app ready", id="body")
        yield Footer()
    def action_step(self, d):
        self.n += d
        self.query_one("#body", Static).update(f"bare app ready {self.n}")

if __name__ == "__main__":
    Bare().run()
"""


def bare_app():
    ns: dict = {"__name__": "bare"}
    exec(BARE, ns)
    return ns["Bare"]()


# -- first frame in tmux ----------------------------------------------------------------------------
def tm(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCK, *args], capture_output=True, text=True).stdout


def tmux_first_frame(command: list[str], markers: tuple[str, ...], env: dict, timeout: float = 30.0) -> float:
    """Seconds from starting `command` in a fresh tmux session until every marker is on screen."""
    name = f"ff{os.getpid()}"
    tm("kill-session", "-t", name)
    line = " ".join(["env", "COLORTERM=truecolor", *[f"{k}={v}" for k, v in env.items()],
                     *[subprocess.list2cmdline([c]) for c in command]])
    t0 = time.perf_counter()
    tm("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", str(ROOT), line + "; sleep 60")
    try:
        while time.perf_counter() - t0 < timeout:
            screen = tm("capture-pane", "-p", "-t", name)
            if all(marker in screen for marker in markers):
                return time.perf_counter() - t0
            time.sleep(0.003)
        raise RuntimeError(f"{command}: {markers!r} not all on screen after {timeout} s:\n"
                           + tm("capture-pane", "-p", "-t", name))
    finally:
        tm("kill-session", "-t", name)


def row_first(runs: int) -> dict:
    if shutil.which("tmux") is None:
        return {"skip": "no tmux"}
    bare_py = Path(tempfile.mkdtemp()) / "bare_app.py"
    bare_py.write_text(BARE)
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "rnntui")], check=True)
    env = {"PYTHONDONTWRITEBYTECODE": "1"}
    whole = ("←→ t", "╭─ Token track")  # the parameter line and the panel's border: the whole frame
    cases = {"bare": ([PY, str(bare_py)], ("bare app ready",)), "rnntui": ([PY, "-m", "rnntui"], whole)}
    times: dict[str, list[float]] = {k: [] for k in cases}
    tmux_first_frame(*cases["bare"], env)  # warm the file cache
    for _ in range(runs):  # interleaved
        for k, (cmd, marker) in cases.items():
            times[k].append(tmux_first_frame(cmd, marker, env))
    out = {k: statistics.median(v) for k, v in times.items()}
    out["pairs"] = [r / b for b, r in zip(times["bare"], times["rnntui"])]  # each run's ratio: the noise
    # for the record: without bytecode (what an editable install with PYTHONDONTWRITEBYTECODE=1 pays)
    nobc = Path(tempfile.mkdtemp())
    shutil.copytree(ROOT / "rnntui", nobc / "rnntui", ignore=shutil.ignore_patterns("__pycache__"))
    out["rnntui, no bytecode"] = statistics.median(
        tmux_first_frame([PY, "-c", f"import sys; sys.path.insert(0, {str(nobc)!r}); "
                          "from rnntui.cli import main; main([])"], whole, env) for _ in range(max(runs // 2, 1)))
    shutil.rmtree(nobc, ignore_errors=True)
    return out


# -- key → frame in process ---------------------------------------------------------------------------
class FrameClock:
    """Hooks app._display: encodes every composited update as the terminal driver would and notes when
    (not one drawn while drawing is held, which Textual drops)."""

    def __init__(self, app) -> None:
        from textual._compositor import CompositorUpdate

        self.app, self.stamps, self.bytes, self.posted = app, [], [], 0.0
        original = app._display

        def display(screen, renderable):
            if isinstance(renderable, CompositorUpdate) and not app._batch_count:  # (held: Textual drops it)
                text = renderable.render_segments(app.console)
                self.stamps.append(time.perf_counter())
                self.bytes.append(len(text.encode()))
            return original(screen, renderable)

        app._display = display

    async def press(self, pilot, key: str, quiet: float = 0.03) -> tuple[float | None, int]:
        """Post one key when the app is idle and has not drawn for a frame period (a person's keys
        come no faster; sooner, Textual's 60 fps cap holds the frame back a random part of a period),
        then wait without posting anything (Pilot's pause sends a callback to every widget, which
        would run inside the measured time) until `quiet` seconds pass with no new frame."""
        from textual import events

        await pilot.pause()
        await asyncio.sleep(0.02)  # more than a frame period (1/60 s)
        self.stamps.clear()
        self.bytes.clear()
        self.posted = t0 = time.perf_counter()
        self.app.post_message(events.Key(key, None))
        while time.perf_counter() - t0 < 2.0:
            await asyncio.sleep(0.002)
            if self.stamps and time.perf_counter() - self.stamps[-1] > quiet:
                break
        if not self.stamps:
            return None, 0
        return self.stamps[-1] - t0, sum(self.bytes)


KEYS = ("right",) * 6 + ("left",) * 6


async def median_press(clock, pilot, presses: int) -> tuple[float, int]:
    """Median key → frame seconds and bytes written, over `presses` of KEYS."""
    times, sizes = [], []
    for i in range(presses):
        dt, n = await clock.press(pilot, KEYS[i % len(KEYS)])
        if dt is not None:
            times.append(dt)
            sizes.append(n)
    return (statistics.median(times) if times else float("nan")), (int(statistics.median(sizes)) if sizes else 0)


async def keys_bare(presses: int) -> tuple[float, int]:
    app = bare_app()
    async with app.run_test(size=(120, 40)) as pilot:
        return await median_press(FrameClock(app), pilot, presses)


async def keys_topics(presses: int, topics) -> dict[str, tuple[float, int]]:
    from rnntui.app import RnnApp

    out = {}
    app = RnnApp(topics[0])
    async with app.run_test(size=(120, 40)) as pilot:
        clock = FrameClock(app)
        for topic in topics:
            await app.goto(topic)
            screen = app.topic_screen()
            for f in screen.FIGURES:
                screen.focus_figure(f.id)
                out[f"{topic}/{f.id}"] = await median_press(clock, pilot, presses)
    return out


def row_keys(presses: int, rounds: int) -> dict:
    from rnntui.topics import IDS

    bare_t, rnn = [], {}
    for _ in range(rounds):  # interleave the bare app with the topics
        bare_t.append(asyncio.run(keys_bare(presses)))
        for k, v in asyncio.run(keys_topics(presses, IDS)).items():
            rnn.setdefault(k, []).append(v)
    bare_t.append(asyncio.run(keys_bare(presses)))
    bare = statistics.median(t for t, _ in bare_t)
    # each round's worst figure against the bare app measured just before it: the noise
    worst = [max(v[i][0] for v in rnn.values()) / bare_t[i][0] for i in range(rounds)]
    return {"bare": (bare, bare_t[0][1]), "rounds": worst,
            **{k: (statistics.median(t for t, _ in v), v[0][1]) for k, v in rnn.items()}}


async def switch_presses() -> dict[tuple[str, str], list[float]]:
    """Seconds from tab (every figure of every topic) and n (every topic) to the last frame, on the
    first visit and again, the topics preloaded (a headless app does not preload: its first n took
    ~66 ms, ~25 of them importing)."""
    from rnntui.app import RnnApp
    from rnntui.topics import IDS, preload

    preload().join()

    out: dict[tuple[str, str], list[float]] = {}
    app = RnnApp(IDS[0])
    async with app.run_test(size=(120, 40)) as pilot:
        clock = FrameClock(app)
        await pilot.pause(0.5)
        for visit in ("first", "again"):
            for i, _topic in enumerate(IDS):
                for _f in app.topic_screen().FIGURES[1:]:  # a tab more would be back on the first figure
                    dt, _n = await clock.press(pilot, "tab", quiet=0.05)
                    out.setdefault(("tab", visit), []).append(dt)
                dt, _n = await clock.press(pilot, "n", quiet=0.05)
                if visit == "again" or i < len(IDS) - 1:  # the last n returns to the first topic
                    out.setdefault(("n", visit), []).append(dt)
    return out


OVERLAYS = ("attention/positions", "recurrence/tanh", "lstm/gates")


async def overlay_presses(rounds: int = 8) -> dict[str, list[tuple[float, float, int, int]]]:
    """(first frame, last frame) seconds, frames and bytes sent after ? and ctrl+p and the escape closing each, and
    ↓, ↑, two letters typed in the palette and a third matching nothing; the palette is opened once before (its
    first opening imports every topic: the app's preload does that)."""
    from rnntui.app import RnnApp

    out: dict[str, list[tuple[float, float]]] = {}
    for address in OVERLAYS:
        app = RnnApp(*address.split("/"))
        async with app.run_test(size=(120, 40)) as pilot:
            clock = FrameClock(app)
            await pilot.pause(0.5)
            await clock.press(pilot, "ctrl+p", quiet=0.1)
            await clock.press(pilot, "escape", quiet=0.1)
            for _ in range(rounds):
                for key, name in (("question_mark", "?"), ("escape", "escape (help)"), ("ctrl+p", "ctrl+p"),
                                  ("down", "palette ↓"), ("up", "palette ↑"), ("g", "palette: g"),
                                  ("r", "palette: r"), ("#", "palette: # (no match)"),
                                  ("escape", "escape (palette)")):
                    dt, sent = await clock.press(pilot, key, quiet=0.1)
                    if dt is not None:
                        out.setdefault(name, []).append((clock.stamps[0] - clock.posted, dt, len(clock.stamps), sent))
    return out


# -- memory after a lab ----------------------------------------------------------------------------
MEMORY = """
import asyncio, gc, sys, time
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

def children_mb():  # what the app's living children hold (multiprocessing's spawn left ~13 MB)
    import psutil
    return sum(c.memory_info().rss for c in psutil.Process().children() if c.status() != psutil.STATUS_ZOMBIE) / 2**20

async def main(which):
    if which == "bare":
        from speed import bare_app
        app = bare_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("right")
            await pilot.pause()
            gc.collect()
            print(rss_mb())
        return
    from rnntui.app import RnnApp
    app = RnnApp("parallel", "timing")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        screen = app.topic_screen()
        t0 = time.time()
        while screen.state.run.status in ("running", "confirm") and time.time() - t0 < 300:
            if screen.state.run.status == "confirm":
                await pilot.press("t")
            await asyncio.sleep(0.2)
        await pilot.pause()
        gc.collect()
        await asyncio.sleep(0.5)  # (the child reaped)
        print(rss_mb(), screen.state.run.status, children_mb())

asyncio.run(main(sys.argv[1]))
"""


def row_memory() -> dict:
    cache = tempfile.mkdtemp()
    script = MEMORY.format(root=str(ROOT), bench=str(ROOT / "bench"))
    env = {**os.environ, "XDG_CACHE_HOME": cache}
    out = {}
    for which in ("bare", "rnntui"):
        r = subprocess.run([PY, "-c", script, which], capture_output=True, text=True, env=env, cwd=ROOT)
        if r.returncode:
            raise RuntimeError(r.stderr[-2000:])
        fields = r.stdout.split()
        out[which] = float(fields[0])
        if which == "rnntui":
            out["lab status"], out["children"] = fields[1], float(fields[2])
    shutil.rmtree(cache, ignore_errors=True)
    return out


# -- training: whole processes ---------------------------------------------------------------------
PLAIN = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
import torch
from rnntui.engine import lab_seq2seq as lab
from rnntui.engine import seq2seq as s2s

torch.set_num_threads(1)
seed = int(sys.argv[1])
model = lab.initial("additive", seed)
opt = torch.optim.Adam(model.parameters(), lr=lab.LR)
rng = s2s.train_stream(seed)
exact = 0.0
for step in range(1, 3001):
    lab.plain_step(model, opt, torch.from_numpy(s2s.batch(rng, lab.BATCH)))
    if step % s2s.EVERY == 0:
        exact, _ = lab.evaluate(model.greedy)
        if exact >= s2s.TARGET:
            break
print(step, exact)
"""


def timed(cmd: list[str], env=None) -> tuple[float, str]:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    if r.returncode:
        raise RuntimeError(f"{cmd}: {r.stderr[-2000:]}")
    return time.perf_counter() - t0, (r.stdout + r.stderr).strip().splitlines()[-1]


def row_train(seeds) -> dict:
    out_dir = Path(tempfile.mkdtemp())
    env = {**os.environ, "XDG_CACHE_HOME": str(out_dir)}
    runs = []
    for seed in seeds:  # interleaved, one process at a time
        plain, plain_line = timed([PY, "-c", PLAIN.format(root=str(ROOT)), str(seed)], env)
        fast, fast_line = timed([PY, "-m", "rnntui", "train", "seq2seq", "--scoring", "additive", "--seed",
                                 str(seed), "--out", str(out_dir / f"s{seed}.npz")], env)
        runs.append({"seed": seed, "plain": plain, "plain_end": plain_line, "rnntui": fast,
                     "rnntui_end": fast_line, "ratio": plain / fast})
        print(f"    seed {seed}: plain loop {plain:.1f} s (step, exact: {plain_line}); rnntui train {fast:.1f} s "
              f"({fast_line.split(':', 1)[-1].strip()[:80]}) → {plain / fast:.2f}x", flush=True)
    shutil.rmtree(out_dir, ignore_errors=True)
    return {"runs": runs, "median": statistics.median(r["ratio"] for r in runs)}


# -- export: svg per frame ---------------------------------------------------------------------------
def _bare_session():
    from rnntui.render import Session

    class BareSession(Session):
        def new_app(self):
            return bare_app()

        async def frame_svg(self, i: int) -> str:
            self.app.action_step(1)
            await (self.settle() if hasattr(self, "settle") else self.pilot.pause())  # (older Sessions)
            return self._formats(None, None, None, ("svg",), f"bare {i}")["svg"]

    return BareSession


async def export_bare(frames: int) -> float:
    """The same steps as Session.frame + svg on a bare app: change what it shows, let it draw, export."""
    async with _bare_session()((100, 30), batch=True) as session:
        await session.frame_svg(0)
        t0 = time.perf_counter()
        for i in range(frames):
            await session.frame_svg(i + 1)
        return (time.perf_counter() - t0) / frames


async def export_bare_textual(frames: int) -> float:
    """The bare app screenshotted the way Textual does it (the pipeline of the issue's day): change what it
    shows, `pilot.pause()`, `export_screenshot()`. For the record: the other reading of "the same pipeline"."""
    app = bare_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_step(1)
        await pilot.pause()
        app.export_screenshot()
        t0 = time.perf_counter()
        for _ in range(frames):
            app.action_step(1)
            await pilot.pause()
            app.export_screenshot()
        return (time.perf_counter() - t0) / frames


async def export_rnntui(frames: int) -> float:
    from rnntui import slides
    from rnntui.render import Session

    todo = list(slides.key_frames())[: frames + 1]  # in order, as `rnntui export` renders them
    async with Session((100, 30), "dark", batch=True) as session:  # as `rnntui export` runs it
        f = todo[0]
        await session.frame(f.screen, f.figure, f.state, ("svg",))
        t0 = time.perf_counter()
        for f in todo[1:]:
            await session.frame(f.screen, f.figure, f.state, ("svg",))
        return (time.perf_counter() - t0) / (len(todo) - 1)


def export_lecture() -> tuple[float, int]:
    """`rnntui export` of the whole lecture (every key frame, SVG, 100x30) as a whole process: seconds
    and files written. No bare app draws a lecture: this one is absolute, for the record."""
    out = Path(tempfile.mkdtemp())
    try:
        t0 = time.perf_counter()
        subprocess.run([PY, "-m", "rnntui", "export", str(out / "lecture"), "--lang", "en"], cwd=ROOT,
                       check=True, capture_output=True)
        return time.perf_counter() - t0, len(list((out / "lecture").glob("*.svg")))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def row_export(frames: int, rounds: int) -> dict:
    bare, textual, ours, lecture = [], [], [], []
    for _ in range(rounds):
        bare.append(asyncio.run(export_bare(frames)))
        textual.append(asyncio.run(export_bare_textual(min(frames, 60))))  # (~30 ms a frame)
        ours.append(asyncio.run(export_rnntui(frames)))
        lecture.append(export_lecture())
    return {"bare": statistics.median(bare), "textual": statistics.median(textual), "rnntui": statistics.median(ours),
            "lecture": statistics.median(t for t, _ in lecture), "files": lecture[0][1]}


# -- main ----------------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer runs and presses, one training seed")
    ap.add_argument("--only", default="first,keys,memory,train,export")
    args = ap.parse_args()
    rows = args.only.split(",")
    q = args.quick
    sys.path.insert(0, str(ROOT))
    table = []
    if "first" in rows:
        r = row_first(3 if q else 15)  # ±20% run to run here: 15 interleaved pairs steady the median
        if "skip" not in r:
            ratio = r["rnntui"] / r["bare"]
            print(f"first frame (tmux 120x40): bare {r['bare'] * 1e3:.0f} ms, rnntui {r['rnntui'] * 1e3:.0f} ms "
                  f"→ {ratio:.2f}x  [goal ≤ 1.3x]; without bytecode {r['rnntui, no bytecode'] * 1e3:.0f} ms "
                  f"({r['rnntui, no bytecode'] / r['bare']:.2f}x)", flush=True)
            print("    each interleaved run: " + " ".join(f"{p:.2f}x" for p in sorted(r["pairs"])), flush=True)
            table.append(("first full frame in tmux", f"{ratio:.2f}x bare", "≤ 1.3x", ratio <= 1.3))
    if "keys" in rows:
        r = row_keys(12 if q else 24, 1 if q else 2)
        bare, bare_bytes = r.pop("bare")
        rounds = r.pop("rounds")
        print(f"key → frame (in process, 120x40): bare {bare * 1e3:.1f} ms, {bare_bytes} B", flush=True)
        for k, (t, n) in sorted(r.items(), key=lambda kv: -kv[1][0]):
            print(f"    {k:<24} {t * 1e3:6.1f} ms {t / bare:5.2f}x  {n:6d} B/frame")
        worst = max(r.items(), key=lambda kv: kv[1][0])
        ratio = worst[1][0] / bare
        print("    each round's worst figure: " + " ".join(f"{w:.2f}x" for w in rounds), flush=True)
        table.append(("key → frame, worst figure", f"{ratio:.2f}x bare ({worst[0]})", "≤ 3x", ratio <= 3))
    if "memory" in rows:
        r = row_memory()
        print(f"memory after the timing lab: bare {r['bare']:.0f} MB, rnntui {r['rnntui']:.0f} MB "
              f"({r['rnntui'] / r['bare']:.2f}x bare; lab {r['lab status']}); its children after the lab: "
              f"{r['children']:.0f} MB", flush=True)
        table.append(("app RSS after a lab", f"{r['rnntui']:.0f} MB = {r['rnntui'] / r['bare']:.2f}x bare",
                      "≤ 120 MB", r["rnntui"] <= 120))
    if "train" in rows:
        print("train seq2seq additive, whole processes (plain loop, then rnntui train), per seed:", flush=True)
        r = row_train((0,) if q else (0, 1, 2))
        table.append(("train seq2seq, whole process", f"{r['median']:.2f}x sooner (median)", "≥ 2x",
                      r["median"] >= 2))
    if "export" in rows:
        r = row_export(24 if q else 200, 1 if q else 2)  # 200: every key frame (143), as `rnntui export`
        ratio = r["rnntui"] / r["bare"]
        print(f"export svg per frame: bare {r['bare'] * 1e3:.1f} ms, rnntui {r['rnntui'] * 1e3:.1f} ms → {ratio:.2f}x",
              flush=True)
        print(f"    for the record, the bare app through Textual's own screenshot (pilot.pause, export_screenshot): "
              f"{r['textual'] * 1e3:.1f} ms a frame, at least 20 ms of it pilot.pause's idle wait; rnntui's frame is "
              f"{r['rnntui'] / r['textual']:.2f}x that", flush=True)
        print(f"    the whole lecture, `rnntui export` as one process: {r['lecture']:.2f} s for {r['files']} SVG files "
              f"(median of {2 if not q else 1})", flush=True)
        table.append(("export, svg per frame", f"{ratio:.2f}x bare", "≤ 1.5x", ratio <= 1.5))
    if "switch" in rows:
        bare = asyncio.run(keys_bare(12))[0]
        r = asyncio.run(switch_presses())
        print(f"tab / n → frame (in process, 120x40; bare app's key {bare * 1e3:.1f} ms):", flush=True)
        for (key, visit), times in r.items():
            ms = sorted(t * 1e3 for t in times if t is not None)
            print(f"    {key:<3} {visit:<5} median {statistics.median(ms):5.1f} ms ({statistics.median(ms) / bare / 1e3:.1f}x), "
                  f"90% {ms[int(0.9 * (len(ms) - 1))]:5.1f} ms, slowest {ms[-1]:5.1f} ms  ({len(ms)} keys)", flush=True)
    if "overlays" in rows:
        bare = asyncio.run(keys_bare(12))[0]
        r = asyncio.run(overlay_presses(3 if q else 8))
        print(f"overlays → frame (in process, 120x40; bare app's key {bare * 1e3:.1f} ms):", flush=True)
        for name, times in r.items():
            first, last = (statistics.median(t[i] * 1e3 for t in times) for i in (0, 1))
            frames, sent = (statistics.median(t[i] for t in times) for i in (2, 3))
            print(f"    {name:<16} first frame median {first:5.1f} ms, last frame median {last:5.1f} ms, "
                  f"{frames:g} frames, {sent / 1e3:.1f} KB ({len(times)} keys)", flush=True)
    print()
    print(f"{'what':<32} {'measured':<44} {'goal':<8} met")
    for what, measured, goal, ok in table:
        print(f"{what:<32} {measured:<44} {goal:<8} {'yes' if ok else 'NO'}")


if __name__ == "__main__":
    main()
