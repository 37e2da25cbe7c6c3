"""App-wide promises: every figure renders at many sizes without torch; keys can be remapped;
snapshots at 80x24."""
import subprocess
import sys

import pytest

from rnntui.app import RnnApp
from rnntui.render import Session
from rnntui.topics import topics

NO_TORCH = """
import asyncio, sys
from rnntui.render import Session, render
from rnntui.topics import topics

async def every_figure():
    async with Session((80, 24)) as session:
        for screen in topics():
            for f in screen.FIGURES:
                await session.frame(screen, f, f.state_type(), ("txt",))

asyncio.run(every_figure())
first = topics()[0].FIGURES[0]
render(topics()[0], first, first.state_type(), "txt", (80, 24))  # `rnntui shot`'s way: an app of its own
print("torch" in sys.modules, len(topics()))
"""


def test_rendering_every_screen_leaves_torch_out():
    """Every figure of every topic (parallel's timing, whose lab is torch, among them) draws without
    importing torch."""
    r = subprocess.run([sys.executable, "-c", NO_TORCH], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    imported, count = r.stdout.split()
    assert imported == "False" and int(count) >= 4


def extremes(state):
    """The figure's state at the far end of its axis with every parameter at its top."""
    state = state.to_end(state.AXIS, 1)
    for p in state.params():
        state = state.to_end(p.name, 1)  # a choice: its last
    return state


async def test_a_user_keymap_remaps_a_contract_key(keymap):
    keymap('[keys]\nstep_forward = "l"\n')
    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", "l")
        assert app.topic_screen().state.step == 2


async def test_a_broken_keymap_is_reported_and_ignored(keymap):
    keymap("[keys\nstep_forward = ")
    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")
        assert app.topic_screen().state.step == 1
        assert any("keymap" in n.message and "ignored" in n.message for n in app._notifications)


def test_snapshot_recurrence_track(snap_compare):
    async def steps(pilot):
        await pilot.press("right", "right", "right")
    assert snap_compare(RnnApp("recurrence", "track"), terminal_size=(80, 24), run_before=steps)


def _drawn_box(text: str, region) -> tuple[int, int]:
    """(width, height) of the bounding box of the non-blank cells inside `region`."""
    rows = text.splitlines()
    xs, ys = [], []
    for y in range(region.y, region.y + region.height):
        line = rows[y] if y < len(rows) else ""
        for x in range(region.x, min(region.x + region.width, len(line))):
            if line[x] != " ":
                xs.append(x)
                ys.append(y)
    return (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) if xs else (0, 0)


def _panel_box(session, text) -> tuple[int, int]:
    from textual.widgets import ContentSwitcher

    return _drawn_box(text, session.app.topic_screen().query_one(ContentSwitcher).region)


async def _draw_extremes(session, screen, f):
    """The figure's extremes drawn: inside the screen, and the state shown as set."""
    from rich.cells import cell_len

    width, height = session.size
    state = extremes(f.state_type())
    text = (await session.frame(screen, f, state, ("txt",)))["txt"]
    rows = text.splitlines()
    assert len(rows) == height and all(cell_len(r) <= width for r in rows), (session.size, f.id)
    shown = session.app.topic_screen().state
    assert shown == state and shown.values() == state.values(), (session.size, f.id)  # inside its bounds, as set
    assert f.title[:12] in text or width < 80, (session.size, f.id)


@pytest.mark.heavy
async def test_every_figure_draws_its_extremes_and_grows_with_its_panel():
    """Every figure's extremes (its axis at the end, every parameter at its top) draw at 60×20 and at
    200×60; every figure's default drawing grows with its panel from 80×24 to 200×60. One app per
    size: at 200×60 each figure draws its default state first, then its extremes."""
    small, large = {}, {}
    async with Session((80, 24)) as session:
        for screen in topics():
            for f in screen.FIGURES:
                text = (await session.frame(screen, f, f.state_type(), ("txt",)))["txt"]
                small[f"{screen.TOPIC_ID}/{f.id}"] = _panel_box(session, text)
    async with Session((60, 20)) as session:
        for screen in topics():
            for f in screen.FIGURES:
                await _draw_extremes(session, screen, f)
    async with Session((200, 60)) as session:
        for screen in topics():
            for f in screen.FIGURES:
                text = (await session.frame(screen, f, f.state_type(), ("txt",)))["txt"]
                large[f"{screen.TOPIC_ID}/{f.id}"] = _panel_box(session, text)
                await _draw_extremes(session, screen, f)
    assert small.keys() == large.keys() and len(small) >= 36
    for where, (w, h) in small.items():
        big_w, big_h = large[where]
        assert big_w >= 1.2 * w and big_h > h, (where, (w, h), (big_w, big_h))


async def test_present_mode_centres_the_figure_and_drops_key_hints():
    from rnntui.deck import load
    deck = load("lecture")
    async with Session((120, 40), deck=deck) as session:
        text = (await session.slide(0, ("txt",)))["txt"]
        rows = text.splitlines()
        assert any(r.strip() for r in rows[20:38]), text  # the lower half holds the figure too
        assert "┌" in "".join(rows[20:38]) or "│" in "".join(rows[20:38])
        for i, frame in enumerate(deck.frames[:12]):
            text = (await session.slide(i, ("txt",)))["txt"]
            assert "jumps there" not in text and "press t" not in text and "t re-runs" not in text, frame


async def test_a_key_while_a_figure_is_still_mounting_waits_for_it():
    """The fuzz crashed on attention/positions: a step drawn while its view was mounted but its heat map
    not yet ("No nodes match 'HeatMap'"). The view is drawn once it is whole, with the latest state."""
    import asyncio

    for ticks in (1, 2, 3):
        app = RnnApp("attention", "qkv")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.topic_screen()
            screen.focus_figure("positions")
            for _ in range(ticks):
                await asyncio.sleep(0)
            for _ in range(5):
                screen.action_step(1)  # (as a key's action runs, between the mount's steps)
                await asyncio.sleep(0)
            await pilot.pause()
            assert app._exception is None
            view = screen.view_of(screen.figure)
            assert view.drawn is screen.state and screen.state.d != type(screen.state)().d  # (the steps taken)


async def test_opening_at_a_figure_never_draws_the_topics_first():
    """`rnntui serving/wayback` drew serving/cell for a moment before the way back: the screen composed
    its first figure, then focused the one asked for. A link into a topic not yet opened did the same,
    and back from it leaves that topic at its first figure, as it was before."""
    from tests.frames import record_frames

    app = RnnApp("serving", "wayback")
    sent = record_frames(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.topic_screen()
        assert screen.figure.id == "wayback" and screen.view_of(screen.FIGURES[0]) is None
        assert "the way back" in "".join(s.text for row in sent[0].strips for s in row).lower()
        await app.goto("attention", "summary")
        await pilot.press("enter")  # its first cell opens parallel/path
        await pilot.pause()
        there = app.topic_screen()
        assert (app.current_mode, there.figure.id) == ("parallel", "path")
        assert there.view_of(there.FIGURES[0]) is None
        await pilot.press("backspace")
        await pilot.pause()
        await pilot.press("6")
        await pilot.pause()
        assert app.topic_screen() is there and there.figure.id == there.FIGURES[0].id


@pytest.mark.parametrize("topic_id", [t.TOPIC_ID for t in topics()])
async def test_a_figure_opened_directly_draws_as_it_does_reached_by_tab(topic_id):
    """Composed with its screen (no flash of the topic's first figure), a view is drawn before its first
    layout as one mounted later is: lstm/params' bars took 4 rows and pushed the plot's line off, and
    serving/wayback's note missed that its plot was left out."""
    from rnntui.svg import screen_segments

    def shown(app):
        return "".join(s.text for s in screen_segments(app))

    tabbed = {}
    app = RnnApp(topic_id)
    async with app.run_test(size=(80, 24)) as pilot:
        for f in app.topic_screen().FIGURES:
            await app.goto(topic_id, f.id)
            await pilot.pause()
            tabbed[f.id] = shown(app)
    for figure_id, want in tabbed.items():
        app = RnnApp(topic_id, figure_id)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert shown(app) == want, figure_id


async def test_a_state_given_at_the_start_is_drawn_once_and_shared():
    """`rnntui recurrence --set w_h=1.4` drew the track at W_h 0.90, then again at 1.40 (a review): the
    screen opens in the given state, its shared W_h on the other figures too."""
    from rnntui.figures.recurrence import TrackState
    from rnntui.screens.base import FigureView

    drawn = []
    original = FigureView.draw

    def draw(view, state):
        drawn.append(state)
        return original(view, state)

    FigureView.draw = draw
    try:
        app = RnnApp("recurrence", "track", TrackState(w_h=1.4))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.topic_screen()
            assert [s.w_h for s in drawn if isinstance(s, TrackState)] == [1.4]
            assert screen.states["readout"].w_h == 1.4 and "W_h 1.40" in screen.param_line()[0][2].plain
    finally:
        FigureView.draw = original


async def test_a_click_on_the_header_opens_the_palette_and_leaves_the_header_one_row():
    """A click on the header's ≋ ended the app with a traceback (RnnApp.run_action took no namespaces, which
    Textual's widgets pass), in a terminal and under serve; a click on the title made the header three rows
    tall, and recurrence/track lost its plot at 80x24 (a trial)."""
    from textual.command import CommandPalette
    from textual.widgets import Header

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        header = app.screen.query_one(Header)
        await pilot.click(Header, offset=(40, 0))  # the title
        await pilot.pause()
        assert header.outer_size.height == 1 and not header.has_class("-tall")
        await pilot.click("HeaderIcon")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette) and app.is_running and app.return_code is None


@pytest.mark.parametrize("button, quits", [(3, False), (2, False), (1, True)])
async def test_only_the_left_button_clicks(button, quits):
    """A right-click (a terminal's paste or menu) on the footer's "q quit" ended the app, and a middle-click on
    a tab changed figure (a newcomer's trial). Sent as a terminal sends them, through the app (Pilot's click
    goes round it): the right and middle buttons do nothing, the left one clicks."""
    from textual import events
    from textual.pilot import _get_mouse_message_arguments

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        quit_key = next(k for k in app.screen.query("FooterKey") if k.description == "quit")
        where = {**_get_mouse_message_arguments(quit_key, (1, 0), button=button), "widget": None}
        for press in (events.MouseDown, events.MouseUp):
            app.post_message(press(**where))
            await pilot.pause()
        await pilot.pause()
        assert app._exit == quits
