"""Full garbage collections wait until nobody types (rnntui/collector.py): a full one took 100–175 ms
inside a key; young ones run as always."""
import gc
import subprocess
import sys
import time

import pytest

from rnntui import collector
from rnntui.app import RnnApp


class Clock:
    def __init__(self, monkeypatch, waited: int) -> None:
        self.collected = 0
        monkeypatch.setattr(gc, "get_count", lambda: (0, 0, waited))
        monkeypatch.setattr(gc, "collect", self.collect)

    def collect(self, generation: int = 2) -> int:
        assert generation == 2
        self.collected += 1
        return 0


def app_typed(seconds_ago: float) -> collector.QuietCollections:
    app = collector.QuietCollections()
    app._last_input = time.monotonic() - seconds_ago
    return app


@pytest.mark.parametrize("waited, typed_ago, collects", [
    (collector.DUE, 2.0, True),  # due, and nobody typed for 2 s: now
    (collector.DUE, 0.1, False),  # due, but a key came 0.1 s ago: later
    (collector.DUE - 1, 2.0, False),  # not due yet (Python would not collect either)
    (collector.MOST_DEFERRED, 0.0, True),  # steady keys: no longer than this
])
def test_a_full_collection_waits_for_a_quiet_moment(monkeypatch, waited, typed_ago, collects):
    clock = Clock(monkeypatch, waited)
    app_typed(typed_ago).collect_if_quiet()
    assert clock.collected == int(collects)


async def test_only_a_real_terminal_holds_collections_and_the_schedule_comes_back(monkeypatch):
    before = gc.get_threshold()
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:  # headless: Python's own schedule
        await pilot.pause()
        assert gc.get_threshold() == before
    monkeypatch.setattr(RnnApp, "is_headless", property(lambda self: False))  # as in a terminal
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert gc.get_threshold() == (before[0], before[1], collector.HELD)
        await pilot.press("right")
        assert time.monotonic() - app._last_input < 1.0  # keys are seen
    assert gc.get_threshold() == before  # a long-lived process is not left without full collections


def test_the_command_line_imports_with_no_collection_and_runs_the_app_with_it():
    """`rnntui` turns garbage collection off while it imports Textual and the topics (~55 young
    collections, 7-8 ms of the start) and on again, with what they made frozen, before the app runs:
    a session without it would only grow."""
    code = """if True:
        import gc, sys
        started = []
        gc.callbacks.append(lambda phase, info: started.append(info) if phase == "start" else None)
        import rnntui.cli as cli
        cli.require_terminal = lambda *args: None
        before, freeze = len(started), gc.freeze
        def frozen():
            print(len(started) - before)  # collections from the command line's start to the freeze
            freeze()
        gc.freeze = frozen
        def run(app):
            print(gc.isenabled(), gc.get_freeze_count() > 10_000)
            return 0
        cli.run_tui = run
        sys.exit(cli.main([]))
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "True", "True"]  # collections during the imports, then on, frozen


@pytest.mark.parametrize("argv", [["no-such-topic"], ["recurrence", "--set", "w_h=banana"]])
def test_the_command_line_leaves_collection_on_when_it_refuses_a_value(argv, capsys):
    from rnntui.cli import main

    assert main(argv) == 2
    assert gc.isenabled()


async def test_an_export_session_freezes_its_app_and_gives_python_its_schedule_back():
    """`rnntui export` draws frames in one headless app (render.Session(batch=True)): what is alive
    once the app is up is frozen out of the scans, and a full collection waits for MOST_DEFERRED
    middle ones (5 full collections were ~10% of the lecture's export). Afterwards, even after an
    error, Python's schedule is back and nothing is left frozen. A plain session (the tests' shared
    apps, `rnntui shot`) leaves the collector alone, and what someone else froze stays frozen."""
    from rnntui import slides
    from rnntui.render import Session

    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    frame = next(iter(slides.key_frames()))
    with pytest.raises(RuntimeError):
        async with Session((80, 24), batch=True) as session:
            assert gc.get_threshold() == (before[0], before[1], collector.MOST_DEFERRED)
            assert gc.get_freeze_count() > 10_000  # Textual, Rich and the app's widgets
            assert "svg" in await session.frame(frame.screen, frame.figure, frame.state)
            raise RuntimeError("a frame failed")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    async with Session((80, 24)):
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        theirs = gc.get_freeze_count()  # (objects freed by their counts leave it: it only shrinks)
        async with Session((80, 24), batch=True):
            assert theirs - 1000 < gc.get_freeze_count() <= theirs  # not frozen again: not ours to thaw
        assert gc.get_freeze_count() > theirs - 1000 and gc.get_threshold() == before
    finally:
        gc.unfreeze()


def test_overlapping_batches_give_python_its_schedule_back_when_the_last_one_ends():
    before = gc.get_threshold()
    first, second = collector.batch(), collector.batch()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first to open ends first: the second still runs
    assert gc.get_threshold()[2] == collector.MOST_DEFERRED and gc.get_freeze_count() > 0
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_rnntui_export_draws_its_frames_in_a_batch(monkeypatch, tmp_path, capsys):
    """Only `rnntui export` asks for the batch collector (a plain session leaves it alone)."""
    from rnntui import slides
    from rnntui.cli import main
    from rnntui.state import BadValue

    asked = []

    def export(*args, **kwargs):
        asked.append(kwargs.get("batch"))
        raise BadValue("stopped here")

    monkeypatch.setattr(slides, "export", export)
    assert main(["export", str(tmp_path / "out")]) == 2
    assert asked == [True]
