"""Full garbage collections while nobody types.

Python runs a full collection on its own every so many allocations; it scans every object the app
keeps alive, and a Textual app keeps many (each drawn line is a Strip with seven small caches):
~200,000 objects after a few minutes of use, 100–175 ms a collection. Measured over 400 keys typed
in bursts: 11 full collections, every one inside a key, up to 130 ms each (bench/gc_stalls.py).

`QuietCollections` (mixed into an App) holds the automatic full collection back and runs it once no
key or mouse event came for QUIET seconds, where nobody sees it. Under steady input (holding a key,
a lab's live frames) it still runs after MOST_DEFERRED young collections, so memory stays bounded.
Younger collections (~1–7 ms) run as always. Only in a real terminal or browser: headless apps
(tests, `rnntui shot`) keep Python's own schedule; `rnntui export` sets one for its batch (`batch`).
"""
from __future__ import annotations

import gc
import time
import threading
from contextlib import contextmanager

from textual import events

QUIET = 0.5  # seconds without input before a full collection
CHECK = 0.25  # how often to look
DUE = 10  # middle-generation collections since the last full one: Python's own rule (threshold2)
MOST_DEFERRED = 30  # ... and the most a full collection waits under steady input (a held key)
HELD = 1_000_000  # threshold2 while we hold: Python never starts a full collection itself

INPUT = (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp, events.Paste)


class QuietCollections:
    _last_input = 0.0
    _thresholds: tuple[int, int, int] | None = None

    def hold_full_collections(self) -> None:
        """From the app's on_mount."""
        if self.is_headless or self._thresholds is not None:
            return
        self._thresholds = gc.get_threshold()
        gc.set_threshold(self._thresholds[0], self._thresholds[1], HELD)
        self.set_interval(CHECK, self.collect_if_quiet)

    def quiet(self) -> bool:
        """No key or mouse event for QUIET seconds."""
        return time.monotonic() - self._last_input >= QUIET

    def collect_if_quiet(self) -> None:
        waited = gc.get_count()[2]  # middle collections since the last full one
        if waited >= MOST_DEFERRED or (waited >= DUE and self.quiet()):
            gc.collect()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, INPUT):
            self._last_input = time.monotonic()
        await super().on_event(event)

    def on_unmount(self) -> None:  # Python's own schedule back (Textual calls each class's handler)
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None


_batch_lock = threading.Lock()
_batches_open = 0
_batch_saved: tuple = ()  # the first open batch's (thresholds, whether it froze)


@contextmanager
def batch():
    """A process drawing many frames in a headless app, and nothing else (render.Session(batch=True):
    `rnntui export`), from once the app has started: everything alive then is frozen out of the
    collector's scans (unless something is frozen already: then that owner decides), and a full
    collection runs after MOST_DEFERRED middle ones, not Python's DUE. The lecture's export ran 5 full
    collections over everything, ~260 ms of ~2.7 s; now 2, ~55 ms, at the same memory. Python's own
    schedule after, and what this froze thawed; batches that overlap (in any order, in any threads)
    keep the first one's settings until the last one ends."""
    global _batches_open, _batch_saved
    with _batch_lock:
        if not _batches_open:
            thresholds, froze = gc.get_threshold(), gc.get_freeze_count() == 0
            if froze:
                gc.freeze()
            gc.set_threshold(thresholds[0], thresholds[1], MOST_DEFERRED)
            _batch_saved = thresholds, froze
        _batches_open += 1
    try:
        yield
    finally:
        with _batch_lock:
            _batches_open -= 1
            if not _batches_open:
                thresholds, froze = _batch_saved
                gc.set_threshold(*thresholds)
                if froze:
                    gc.unfreeze()
