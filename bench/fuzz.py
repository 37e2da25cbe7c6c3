"""Fuzz the app: random keys (palette included) at random sizes, invariants checked as it goes.

    python bench/fuzz.py [--keys 100000] [--seed 0] [--batch 8]

Every figure of every topic (rnntui.topics.topics(), each screen's FIGURES) gets its turn: the app
jumps there directly, then takes a run of random keys, sent in batches without waiting between
them (Pilot waits ~80 ms a key), with terminal resizes from 1×1 to 300×80 dropped in mid-batch,
while `space` has a figure playing. After every batch:

  - the app is alive (no exception, still running);
  - every figure state on every topic screen is inside its parameter bounds;
  - the screen renders: the compositor's render_update(full=True) does not raise.

A failure is reported with its seed, figure, size and the keys that led there; the run then goes on
in a fresh app. tests/test_fuzz.py runs a short, fixed-seed version of this.
"""
from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field

from textual import events
from textual.actions import parse as _parse
from textual.geometry import Size
from textual.keys import _character_to_key, _get_unicode_name_from_key

VERBOSE = bool(os.environ.get("RNNTUI_FUZZ_VERBOSE"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from rnntui import keys as contract  # noqa: E402
from rnntui.app import RnnApp  # noqa: E402
from rnntui.screens.base import TopicScreen  # noqa: E402
from rnntui.topics import topics  # noqa: E402

# `t` starts a lab (torch, seconds of CPU) and `q`/ctrl+q/ctrl+c quit: never sent.
NAVIGATE = ["right", "left", "home", "end", "up", "down", "plus", "minus", "r", "tab", "shift+tab",
            "n", "p", "pagedown", "pageup", "space", "question_mark", "escape", "ctrl+s"]
NAVIGATE += [str(n) for n in range(1, 9)]
CHOICE_KEYS = sorted({p.key for t in topics() for f in t.FIGURES for p in f.state_type.params() if p.key})
PALETTE = ["ctrl+p", "enter", "backspace", "down", "up", "pagedown", "pageup", "escape"]
TYPED = list("abcdefghijklmnoprsuvwxyz0123456789 ./-=")  # no q, no t


def parse_action(action: str) -> tuple[str, tuple]:
    _, name, args = _parse(action)
    return name, args


# what a key runs (the keyboard contract, and each figure's choice keys): the direct path
ACTIONS = {key: k.action for k in contract.CONTRACT for key in k.keys.split(",")}
ACTIONS.update({p.key: f"toggle('{p.name}')" for t in topics() for f in t.FIGURES for p in f.state_type.params() if p.key})
for _n in range(1, 9):
    ACTIONS[str(_n)] = f"app.topic_number({_n})"
DIRECT = [k for k in NAVIGATE + CHOICE_KEYS if k in ACTIONS and ACTIONS[k] not in ("app.help", "app.shot")]


@dataclass
class Report:
    keys: int = 0
    batches: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        rate = self.keys / self.seconds if self.seconds else 0.0
        return f"{self.keys} keys in {self.seconds:.1f} s ({rate:.0f} keys/s), {len(self.failures)} failures"


def random_size(rng: random.Random) -> tuple[int, int]:
    if rng.random() < 0.25:  # tiny: below the app's minimum, down to 1×1
        return rng.randint(1, 25), rng.randint(1, 8)
    return rng.randint(20, 300), rng.randint(6, 80)


def random_keys(rng: random.Random, n: int) -> list[str]:
    keys = []
    for _ in range(n):
        roll = rng.random()
        if roll < 0.6:
            keys.append(rng.choice(NAVIGATE))
        elif roll < 0.7:
            keys.append(rng.choice(CHOICE_KEYS))
        elif roll < 0.8:
            keys.append(rng.choice(PALETTE))
        else:
            keys.append(rng.choice(TYPED))
    return keys


def key_event(key: str) -> events.Key:
    """The event Pilot would send for `key` (see App._press_keys)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


def resize(app, w: int, h: int) -> None:
    size = Size(w, h)
    app._driver._size = size
    app.post_message(events.Resize(size, size))


async def settle(app, limit: float = 1.0) -> None:
    """Until every message queue in the app is empty twice running (Pilot's pause waits for the
    CPU to go idle, up to a second, and a playing figure never lets it)."""
    end, quiet = time.perf_counter() + limit, 0
    while quiet < 2 and time.perf_counter() < end:
        await asyncio.sleep(0.001)
        pumps = [app, *app.screen_stack, *app.screen.walk_children(with_self=False)]
        quiet = quiet + 1 if all(p._message_queue.empty() for p in pumps) else 0


def out_of_bounds(app) -> list[str]:
    """Every figure state, on every topic screen of every mode, inside its parameter bounds."""
    bad = []
    for stack in app._screen_stacks.values():
        for screen in stack:
            if not isinstance(screen, TopicScreen):
                continue
            for f in screen.FIGURES:
                state = screen.states[f.id]
                for p in state.params():
                    value = getattr(state, p.name)
                    if p.kind == "choice":
                        ok = value in p.choices
                    else:
                        lo, hi = p.bounds(state)
                        ok = lo <= value <= hi and (p.kind != "int" or isinstance(value, int))
                    if not ok:
                        bad.append(f"{screen.TOPIC_ID}/{f.id} {p.name}={value!r} outside {p.allowed(state)}")
    return bad


def check(app) -> list[str]:
    if app._exception is not None:
        return [f"crashed: {type(app._exception).__name__}: {app._exception}"]
    if not app.is_running:
        return ["the app stopped"]
    problems = out_of_bounds(app)
    try:
        app.screen._compositor.render_update(full=True)
    except Exception as e:  # noqa: BLE001 - any render failure is what we look for
        problems.append(f"render failed: {type(e).__name__}: {e}")
    return problems


async def real_keys(app, rng: random.Random, n: int) -> tuple[list[str], list[str]]:
    """n key events as a terminal sends them, typed ahead, with resizes among them."""
    history = []
    for key in random_keys(rng, n):
        if rng.random() < 0.05:
            size = random_size(rng)
            resize(app, *size)
            history.append(f"resize {size[0]}x{size[1]}")
        app._driver.send_message(key_event(key))
        history.append(key)
    return history, []


async def to_topic_screen(app) -> None:
    """Close help, the palette or a prompt, as escape would: the direct path acts on a topic screen
    only (switching topics under an open palette is nothing a person can do, and leaves a palette
    in another topic's stack)."""
    while not isinstance(app.screen, TopicScreen):
        await app.pop_screen()


async def direct_keys(app, rng: random.Random, n: int) -> tuple[list[str], list[str]]:
    """n keys run as the actions they are bound to, on the topic screen, without Textual's event
    round trip (Pilot takes ~80 ms a key); the state bounds are checked after every one."""
    await to_topic_screen(app)
    history = []
    for key in rng.choices(DIRECT, k=n):
        if rng.random() < 0.02:  # mid-play, left pending under the next keys
            size = random_size(rng)
            resize(app, *size)
            history.append(f"resize {size[0]}x{size[1]}")
        screen = app.topic_screen()
        action = ACTIONS[key]
        if action.startswith("toggle") and not screen.check_action("toggle", (action[8:-2],)):
            continue  # this figure has no such key: it does nothing
        history.append(key)
        target, name, args = (app, *parse_action(action[4:])) if action.startswith("app.") else (screen, *parse_action(action))
        result = getattr(target, f"action_{name}")(*args)
        if inspect.isawaitable(result):
            await result
        bad = out_of_bounds(app)
        if bad:
            return history, bad
    return history, []


async def drive(app, pilot, rng: random.Random, keys: int, batch: int, report: Report,
                real_share: float = 0.2) -> None:
    """Visit every figure in turn, sending `keys` keys in all; stop at the first failure."""
    figures = [(t.TOPIC_ID, f.id) for t in topics() for f in t.FIGURES]
    per_figure = max(keys // len(figures), batch)
    sent = 0
    while sent < keys:
        for topic, figure in figures:
            await to_topic_screen(app)
            await app.goto(topic, figure)
            resize(app, *random_size(rng))
            await settle(app)
            done = 0
            while done < per_figure and sent < keys:
                if rng.random() < real_share:
                    history, problems = await real_keys(app, rng, batch)
                else:
                    history, problems = await direct_keys(app, rng, min(batch * 25, per_figure - done))
                await settle(app)
                if VERBOSE:
                    print(f"{time.perf_counter():.1f} {topic}/{figure} {app.size} {len(history)} {history[:6]}", file=sys.stderr)
                done += len(history)
                sent += len(history)
                report.keys += len(history)
                report.batches += 1
                problems = problems or check(app)
                if problems:
                    w, h = app.size
                    report.failures.append(f"{topic}/{figure} at {w}x{h} after {' '.join(history[-40:])}: "
                                           + "; ".join(problems)[:500])
                    return
            if sent >= keys:
                return


async def fuzz(keys: int = 3000, seed: int = 0, batch: int = 8, real_share: float = 0.2) -> Report:
    """Send `keys` random keys (a fresh app after each failure); fixed `seed`, so a run repeats."""
    os.environ.setdefault("RNNTUI_SHOTS", tempfile.mkdtemp(prefix="rnntui-fuzz-shots-"))
    rng = random.Random(seed)
    report = Report()
    start = time.perf_counter()
    while report.keys < keys:
        app = RnnApp()
        before = report.keys
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await drive(app, pilot, rng, keys - report.keys, batch, report, real_share)
                app.exit()
        except Exception as e:  # noqa: BLE001 - the app crashed: run_test re-raises on the way out
            if not report.failures or "crashed" not in report.failures[-1]:
                report.failures.append(f"crashed: {type(e).__name__}: {e}"[:500])
        if report.keys == before:  # no progress: do not loop forever
            break
    report.seconds = time.perf_counter() - start
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=8, help="key events sent between two checks")
    ap.add_argument("--real", type=float, default=0.2, help="share of batches sent as key events (default 0.2)")
    args = ap.parse_args()
    report = asyncio.run(fuzz(args.keys, args.seed, args.batch, args.real))
    for failure in report.failures:
        print("FAIL", failure)
    print(report.line())
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
