"""A terminal below MIN_SIZE shows one line, refuses the palette (Textual's crashes there) and
comes back when it grows."""
import pytest
from textual.command import CommandPalette

from rnntui.app import MIN_SIZE, RnnApp, TooSmall
from rnntui.screens.base import TopicScreen
from rnntui.topics import topics

from frames import record_frames


def shown(app) -> str:
    return str(app.screen.query_one(TooSmall).render())


def covered(app) -> bool:
    """The one line shows, and nothing else on the screen does."""
    return app.has_class("-too-small") and [w for w in app.screen.children if w.display] == [
        app.screen.query_one(TooSmall)]


@pytest.mark.parametrize("size,keys", [
    ((80, 4), ("ctrl+p", "pagedown", "pageup")),  # KeyError in OptionList._move_page
    ((6, 24), ("ctrl+p",)),  # ValueError in rich's chop_cells
    ((1, 1), ("ctrl+p", "a", "escape", "n", "right", "question_mark")),
    ((MIN_SIZE[0] - 1, MIN_SIZE[1]), ("ctrl+p", "pagedown")),
])
async def test_a_tiny_terminal_shows_one_line_and_refuses_the_palette(size, keys):
    app = RnnApp()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        assert covered(app) and isinstance(app.screen, TopicScreen) and app.current_mode == "recurrence"
        assert shown(app) == f"terminal too small: {size[0]}×{size[1]}, needs at least 20×6"
        app.screen._compositor.render_update(full=True)
        await pilot.press("q")
    assert app.return_code == 0


async def test_the_app_comes_back_when_the_terminal_grows():
    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=MIN_SIZE) as pilot:
        assert not covered(app) and not app.screen.query(TooSmall)  # exactly the minimum is enough
        await pilot.resize_terminal(30, 3)
        await pilot.pause()
        assert covered(app) and shown(app).endswith("30×3, needs at least 20×6")
        await pilot.press("right")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, TopicScreen) and app.screen.figure.id == "tanh" and app.screen.state.z == 0
        assert not covered(app) and not app.screen.query(TooSmall)
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)


async def test_below_80x24_the_bottom_edge_says_figures_are_whole_from_there(monkeypatch):
    """At 60x20 recurrence/track drew 6 of its 8 tokens, the last cut mid-box, and nothing said so (an
    accessibility trial; a lecturer's browser at ?fontsize=24 had 71 columns). A terminal's edge says it;
    a shot, whose size is chosen, does not; at 80x24 nothing is said."""
    from textual.drivers.headless_driver import HeadlessDriver

    from test_keys import bottom_edge

    app = RnnApp("recurrence")
    async with app.run_test(size=(60, 20)) as pilot:
        assert "figures are whole" not in bottom_edge(app)  # (headless: a shot)
        monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
        for size, said in (((60, 20), True), ((80, 24), False), ((79, 40), True), ((120, 23), True)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            edge = bottom_edge(app)
            assert (f"{size[0]}×{size[1]}: figures are whole from 80×24 · 1/3" in edge) == said, edge
            assert edge.rstrip("─╯ ").endswith("1/3")
        for width in (43, 30):  # (a phone's: "43×46: figures are whole from…" lost the 80×24, a lecturer's trial)
            await pilot.resize_terminal(width, 46)
            await pilot.pause()
            assert f"{width}×46, not 80×24 · 1/3" in bottom_edge(app), bottom_edge(app)


@pytest.mark.parametrize("small", [(18, 5), (19, 30), (100, 5)])
async def test_help_survives_the_terminal_too_small_and_back(small):
    """Growing back, a frame is drawn while the one line is going, at 0x0: its rows were taken as
    drawn, left empty, and sending that frame crashed the app (help draws as topics do)."""
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause(0.2)
        sent = record_frames(app)
        await pilot.resize_terminal(*small)
        await pilot.pause(0.2)
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.3)
        assert sent and all(update.render_segments(app.console) for update in sent)  # as a terminal gets them
        from rnntui.help import HelpScreen
        from rnntui.svg import screen_segments

        assert isinstance(app.screen, HelpScreen) and not covered(app)
        assert "─ help ─" in "".join(segment.text for segment in screen_segments(app))


async def test_a_palette_open_when_the_terminal_shrinks_is_closed():
    app = RnnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.resize_terminal(80, 3)
        await pilot.pause()
        await pilot.press("pagedown", "pageup")
        assert covered(app) and isinstance(app.screen, TopicScreen)
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert not covered(app)
        await pilot.press("ctrl+p", "pagedown", "pageup", "escape")
        await pilot.pause()
        assert isinstance(app.screen, TopicScreen)
        await pilot.press("q")
    assert app.return_code == 0


async def test_q_still_quits_when_too_small():
    app = RnnApp()
    async with app.run_test(size=(10, 3)) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


@pytest.mark.parametrize("size", [(80, 24), (144, 37)])
async def test_page_keys_typed_ahead_into_the_palette_do_not_crash(size):
    from textual import events

    app = RnnApp()
    async with app.run_test(size=size) as pilot:
        for key, char in (("ctrl+p", None), ("u", "u"), ("pagedown", None), ("pageup", None)):
            app._driver.send_message(events.Key(key, char))  # typed ahead: no pause between keys
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("pagedown", "pageup", "escape", "q")
    assert app.return_code == 0


async def test_a_search_that_ends_as_the_palette_closes_does_not_crash():
    """Textual's palette sets `_list_visible` (and `_show_busy`) when a search ends; if its list is
    already removed (it was closing), Textual's watchers raised NoMatches and ended the app (seen
    in the fuzz test under load). Ours change nothing then, and the app goes on."""
    from textual.command import CommandList

    app = RnnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await palette.query_one(CommandList).remove()
        palette._list_visible = not palette._list_visible  # what the ending search does
        palette._show_busy = not palette._show_busy
        await pilot.pause()
        await pilot.press("escape", "q")
    assert app.return_code == 0


@pytest.mark.parametrize("words, check", [
    ("serving", lambda app: app.current_mode == "serving"),  # a topic: a mode of one screen
    ("toggle theme", lambda app: app.theme != "rnntui-dark" and "light" in app.theme),  # run once, not twice
])
async def test_enter_pressed_twice_in_the_palette_runs_the_command_once(words, check):
    """The second Enter, typed before the palette has closed, ran the command again and popped the
    screen under the palette: choosing a topic so ended the app (ScreenStackError, found by the fuzz
    test); a toggle ran twice did nothing."""
    from textual import events

    app = RnnApp("parallel", "cost")
    async with app.run_test(size=(100, 30)) as pilot:
        theme = app.theme
        await pilot.press("ctrl+p", *words)
        await pilot.pause(0.3)
        for _ in range(2):
            app._driver.send_message(events.Key("enter", None))  # typed ahead: no pause between
        await pilot.pause(0.5)
        assert app._exception is None and isinstance(app.screen, TopicScreen)
        assert check(app) and (app.theme != theme) == ("theme" in words)
        await pilot.press("q")
    assert app.return_code == 0


async def test_every_figure_opens_in_a_terminal_four_columns_wide():
    """`rnntui attention/masks` in a 4-column pane crashed (its readout wrapped at width 0: rich's
    chop_cells raised); found by bench/fuzz.py, seed 72. Every figure opens there, and the one line shows."""
    app = RnnApp()
    async with app.run_test(size=(4, 10)) as pilot:
        for screen in topics():
            for f in screen.FIGURES:
                await app.goto(screen.TOPIC_ID, f.id)
                await pilot.pause()
                assert app._exception is None, f"{screen.TOPIC_ID}/{f.id}"
                assert covered(app)
