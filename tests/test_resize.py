"""A resize that meets a topic switch settles: the screen is laid out at the terminal's size, once."""
from textual import events
from textual.geometry import Size

from rnntui.app import RnnApp


async def test_an_older_resize_still_queued_does_not_lay_the_screen_out_forever():
    """Found by bench/fuzz.py (seed 72): the terminal resized while a topic opened; the screen took two
    Resizes of different sizes in turn, forever (100% CPU, the app frozen)."""
    app = RnnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(90, 28)
        await pilot.pause()
        screen = app.screen
        layouts = []
        lay_out = screen._refresh_layout

        def counted(size=None, scroll=False):
            layouts.append(size)
            if len(layouts) > 100:  # looping: lay out at the terminal's size, as the fix does, to end it
                size = app.size
            lay_out(size, scroll)

        screen._refresh_layout = counted
        app._begin_batch()  # drawing held, as for 50 ms after a topic switch
        older, now = Size(100, 30), Size(90, 28)
        for size in (older, now):
            screen.post_message(events.Resize(size, size))
            screen.call_later(lambda: None)  # a callback between the Resizes: they are not merged
        await pilot.pause(0.05)
        app._end_batch()
        await pilot.pause()
        assert len(layouts) < 10, f"laid out {len(layouts)} times"
        assert screen.size == app.size == now
