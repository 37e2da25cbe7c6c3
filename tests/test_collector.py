"""Full garbage collections wait until nobody types (rnntui/collector.py): a full one took 100–175 ms
inside a key; young ones run as always."""
import gc
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


async def test_collection_held_off_from_the_command_line_comes_back_after_the_first_frame():
    """`rnntui` turns garbage collection off before its imports (cli.run_app); the app turns it back
    on once its first frame is drawn: a session left without it would only grow."""
    app = RnnApp("recurrence")
    at_frames: list[bool] = []
    display = app._display
    app._display = lambda screen, renderable: (at_frames.append(gc.isenabled()), display(screen, renderable))[1]
    gc.disable()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("right")
            await pilot.pause()
            assert at_frames[0] is False  # the first frame came before any collection
            assert gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("argv", [["no-such-topic"], ["recurrence", "--set", "w_h=banana"]])
def test_the_command_line_leaves_collection_on_when_it_refuses_a_value(argv, capsys):
    from rnntui.cli import main

    assert main(argv) == 2
    assert gc.isenabled()


async def test_a_session_freezes_its_app_and_gives_python_its_schedule_back():
    """`rnntui export` draws frames in one headless app (render.Session): what the app keeps alive is
    frozen out of the scans, and a full collection waits for MOST_DEFERRED middle ones (5 full
    collections were ~10% of the lecture's export). Afterwards, even after an error, the test process
    (or any other) has Python's schedule back and nothing left frozen."""
    from rnntui import slides
    from rnntui.render import Session

    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    frame = next(iter(slides.key_frames()))
    with pytest.raises(RuntimeError):
        async with Session((80, 24)) as session:
            assert gc.get_threshold() == (before[0], before[1], collector.MOST_DEFERRED)
            assert gc.get_freeze_count() > frozen + 10_000  # Textual, Rich and the app's widgets
            assert "svg" in await session.frame(frame.screen, frame.figure, frame.state)
            raise RuntimeError("a frame failed")
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
