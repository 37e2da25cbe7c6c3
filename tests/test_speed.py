"""Issue 16: the speed-ups keep behaviour. No times are asserted here (bench/speed.py measures them)."""
from __future__ import annotations

import asyncio
import math
import re
from dataclasses import replace

import numpy as np
import pytest
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip

from rnntui.app import RnnApp
from rnntui.render import Session
from rnntui.topics import IDS, NUMBERS, topic
from rnntui.widgets.plot import Line, Plot, PlotSpec, Series
from rnntui.widgets.quiet import Static, compact, content_key, same
from rnntui.widgets.readouts import Readouts

from frames import Terminal, frame_cells, fresh_frame, full_frame, now_cells, record_frames, replaying


class One(App):
    CSS = "#fixed { height: 3; }"

    def compose(self):
        yield Readouts(id="auto")
        yield Static(id="fixed")
        yield Plot()


def screen_cells(app) -> list:
    """The screen as (text, style) runs, the whole frame as a fresh render draws it."""
    from rnntui.svg import screen_segments

    return [(s.text, str(s.style)) for s in screen_segments(app)]


def screen_rows(app) -> list[str]:
    """The screen's text, row by row."""
    from rnntui.svg import screen_segments

    return "".join(s.text for s in screen_segments(app)).split("\n")


def shown_keys(node) -> list:
    """The footer keys on screen under `node` (a spare one is hidden until a figure needs it)."""
    from textual.widgets._footer import FooterKey

    return [key for key in node.query(FooterKey) if key.display]


def what_it_does(key) -> tuple:
    """What a footer key shows and does."""
    return key.key, key.key_display, key.description, key.action, key._disabled, key.tooltip, key.classes


def spy(monkeypatch, owner, name: str, keep=lambda first: first) -> list:
    """Each later call of `owner.name`, recorded by its first argument (as `keep` makes it)."""
    calls, original = [], getattr(owner, name)

    def wrapper(self, first, *args, **kwargs):
        first = keep(first)
        calls.append(first)
        return original(self, first, *args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def count_refreshes(widget) -> list:
    """Each repaint the widget asks for, as whether it asked for a layout too (a Lines widget's
    changed rows come through `repaint_rows`, never a layout)."""
    calls = []
    original = widget.refresh

    def refresh(*args, **kwargs):
        calls.append(kwargs.get("layout", False))
        return original(*args, **kwargs)

    widget.refresh = refresh
    if hasattr(widget, "repaint_rows"):
        rows = widget.repaint_rows
        widget.repaint_rows = lambda regions: (calls.append(False), rows(regions))[1]
    return calls


def repainted_regions(widget) -> list:
    """The regions of each repaint a Lines widget asks for: one tuple per request."""
    regions = []
    refresh, rows = widget.refresh, widget.repaint_rows
    widget.refresh = lambda *r, **k: (regions.append(r), refresh(*r, **k))[1]
    widget.repaint_rows = lambda r: (regions.append(tuple(r)), rows(r))[1]
    return regions


async def test_an_unchanged_readouts_update_does_not_refresh():
    app = One()
    async with app.run_test(size=(60, 12)) as pilot:
        r = app.query_one("#auto", Readouts)
        r.show([("a", "1"), ("b", "2")])
        await pilot.pause()
        calls = count_refreshes(r)
        r.show([("a", "1"), ("b", "2")])
        assert calls == []
        r.show([("a", "1"), ("b", "3")])  # same height: repainted, no layout
        assert calls and True not in calls
        await pilot.pause()
        assert "b 3" in str(r.render())


async def test_new_content_lays_out_only_when_the_size_must_change():
    app = One()
    async with app.run_test(size=(60, 12)) as pilot:
        r, fixed = app.query_one("#auto", Readouts), app.query_one("#fixed", Static)
        r.update("one line")
        fixed.update("x")
        await pilot.pause()
        calls, fixed_calls = count_refreshes(r), count_refreshes(fixed)
        r.update("two\nlines")  # height auto: 1 → 2 rows
        fixed.update("y\nz")  # height fixed: never
        assert True in calls and True not in fixed_calls
        await pilot.pause()
        assert r.size.height == 2 and fixed.size.height == 3


def test_content_keys_tell_styles_apart():
    assert content_key(Text("a", style="bold")) != content_key(Text("a"))  # Rich's == says they are equal
    assert content_key(Text("a", justify="right")) != content_key(Text("a"))
    assert content_key(Text.assemble(("a", "bold"), "b")) == content_key(Text.assemble(("a", "bold"), "b"))
    assert content_key(object()) is None


def test_compact_joins_neighbouring_spans_and_draws_the_same_cells():
    from rich.console import Console


    console = Console(width=120)

    def cells(text: Text) -> list:
        return [(ch, seg.style) for line in text.split("\n") for seg in line.render(console) for ch in seg.text]

    built = Text()  # a bar built a span per character, in runs of equal style
    for c in range(110):
        built.append("▒░"[c // 7 % 2], style=("cyan", "blue")[c // 7 % 2])
    built.append("\n0")
    drawn = cells(built)
    n = len(built.spans)
    assert len(compact(built).spans) < n / 2 and cells(built) == drawn
    layered = Text("abcd")  # overlapping spans keep their order: the later one still wins
    layered.stylize("red", 0, 2)
    layered.stylize("bold", 1, 3)
    layered.stylize("red", 2, 4)
    before = cells(layered)
    assert len(compact(layered).spans) == 3 and cells(layered) == before


def test_same_compares_arrays_inside_specs():
    a = PlotSpec(series=(Series(np.arange(3.0), np.arange(3.0), "s"),))
    b = PlotSpec(series=(Series(np.arange(3.0), np.arange(3.0), "s"),))
    c = PlotSpec(series=(Series(np.arange(3.0), np.arange(3.0) + 1, "s"),))
    assert same(a, b) and not same(a, c)
    assert not same((float("nan"),), (float("nan"),))  # unsure counts as changed


async def test_an_unchanged_plot_is_not_redrawn():
    app = One()
    async with app.run_test(size=(60, 12)) as pilot:
        plot = app.query_one(Plot)
        spec = PlotSpec(series=(Series((0.0, 1.0), (0.0, 1.0), "s"),))
        plot.show(spec)
        await pilot.pause()
        calls = count_refreshes(plot)
        plot.show(PlotSpec(series=(Series((0.0, 1.0), (0.0, 1.0), "s"),)))
        assert calls == []


def screen_text(app) -> str:
    """The screen as drawn, every cell with its style (how runs are split into segments aside)."""
    from io import StringIO

    from rich.console import Console
    from rich.segment import Segment

    console = Console(file=StringIO(), width=app.size.width, height=app.size.height, record=True,
                      force_terminal=True, color_system="truecolor")
    console.print(app.screen._compositor.render_update(full=True))
    plain = [Segment(s.text, s.style.clear_meta_and_links() if s.style else None, s.control)
             for s in console._record_buffer]  # meta: which widget a click lands on, not drawn
    console._record_buffer[:] = list(Segment.simplify(plain))
    return console.export_text(styles=True)


def plain_textual(monkeypatch) -> None:
    """The optimisations off: every update applied and laid out, as Textual does by default."""
    import importlib

    from textual.widgets import Static as TextualStatic

    from rnntui.widgets import quiet

    monkeypatch.setattr(quiet.Static, "update",
                        lambda self, content="", *, layout=True: TextualStatic.update(self, content, layout=True))
    from rnntui.widgets.lines import Lines

    def changed(self):  # every row drawn again, not only those that differ
        self._strips = None
        self.refresh()

    monkeypatch.setattr(Lines, "changed", changed)
    for name in ("plot", "matrix", "gatebar", "alignment", "sharebar", "staircase", "wallclock"):
        module = importlib.import_module(f"rnntui.widgets.{name}")
        if hasattr(module, "same"):
            monkeypatch.setattr(module, "same", lambda a, b: False)


@pytest.mark.parametrize("address", ["recurrence/track", "recurrence/tanh", "attention/qkv", "attention/positions",
                                     "attention/masks", "lstm/gru", "seq2seq/matrix", "parallel/grid",
                                     "serving/wayback", "gradients/bptt"])
async def test_a_figure_after_keys_draws_what_textual_draws_without_the_shortcuts(address, monkeypatch):
    """Skipped updates and layouts must not leave anything stale: press keys there and back, then
    compare with an app opened in the resulting state with every shortcut turned off."""
    keys = ("right", "right", "up", "+", "left", "right", "right", "-", "+", "down", "+")
    after_keys, fresh = await after_keys_and_fresh(address, keys, (120, 40), monkeypatch)
    assert fresh == after_keys


async def after_keys_and_fresh(address: str, keys, size, monkeypatch) -> tuple[str, str]:
    """The screen after `keys` from `address`, and the screen of a fresh app opened in the state (figure,
    state, chosen parameter) the keys ended in, with every shortcut off (`plain_textual`)."""
    topic_id, figure_id = address.split("/")
    app = RnnApp(topic_id, figure_id)
    async with app.run_test(size=size) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        screen = app.topic_screen()
        screen.at_end.hush()  # (a press against an end says so in the panel's edge for 2 s)
        await pilot.pause()
        figure, state, chosen = screen.figure.id, screen.state, dict(screen.chosen)
        after_keys = screen_text(app)
    plain_textual(monkeypatch)
    fresh = RnnApp(topic_id, figure, state)
    async with fresh.run_test(size=size) as pilot:
        fresh.topic_screen().chosen.update(chosen)
        fresh.topic_screen().redraw()
        await pilot.pause()
        return after_keys, screen_text(fresh)


@pytest.mark.parametrize("address, keys", [
    # W_h is shared: set on the track, the readout (drawn before, hidden since) must follow
    ("recurrence/track", ("shift+tab", "tab", "end", "plus", "shift+tab")),
    ("lstm/cell", ("tab", "tab", "tab", "right", "right", "shift+right", "shift+tab", "shift+tab", "shift+tab")),
    # the seed's sentence is hidden under ReLU and shown again under tanh, with a new seed meanwhile
    ("gradients/bptt", ("a", "down", "down", "plus", "a")),
])
async def test_what_changed_while_hidden_is_drawn_when_shown(address, keys, monkeypatch):
    """A widget updated while hidden (another figure's view, or hidden by its own figure) drew its old
    lines once shown again at the same size: the readout kept W_h 0.9's states after W_h was set to 1.0
    on the track, with the parameter line saying 1.0. Compared with a fresh app in the same state."""
    after_keys, fresh = await after_keys_and_fresh(address, keys, (80, 24), monkeypatch)
    assert fresh == after_keys


async def test_session_frames_match_a_fresh_render():
    """Session draws without idle waits: a frame drawn right after a topic switch (where Textual holds
    updates for a while) must equal one drawn by a fresh app."""
    import asyncio

    from rnntui.render import render
    from rnntui.topics import build_state

    for before, (name, fid), size in (("recurrence", ("attention", "qkv"), (100, 30)),
                                      ("parallel", ("memory", "copy"), (80, 24))):
        screen = topic(name)
        figure = screen.figure_by_id(fid)
        state = build_state(figure, (), None)
        async with Session(size) as session:
            other = topic(before)  # another topic first: the frame is drawn after a switch
            await session.frame(other, other.FIGURES[-1], other.FIGURES[-1].state_type(), ("txt",))
            txt = (await session.frame(screen, figure, state, ("txt",)))["txt"]
        fresh = await asyncio.to_thread(render, screen, figure, state, "txt", size)
        assert txt == fresh, f"{name}/{fid}"
        assert "help" in txt.splitlines()[-1]  # the footer's keys are drawn (they come after a refresh)


async def test_a_session_draws_each_frame_once(monkeypatch):
    """An export renders the screen once per frame, whole, for the file: not also the partial updates
    a terminal would be sent after every refresh (they were ~40% of a topic switch)."""
    from textual._compositor import Compositor

    renders, original = [], Compositor.render_update

    def render_update(self, *args, **kwargs):
        renders.append(kwargs.get("full"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Compositor, "render_update", render_update)
    async with Session((100, 30)) as session:
        for name, fid in (("recurrence", "track"), ("attention", "qkv"), ("attention", "masks")):
            screen = topic(name)
            figure = screen.figure_by_id(fid)
            renders.clear()
            svg = (await session.frame(screen, figure, figure.state_type(), ("svg",)))["svg"]
            assert renders == [True], f"{name}/{fid}"
            assert "<text" in svg


@pytest.mark.parametrize("visited", [False, True, "slow"])
async def test_a_topic_opened_under_a_toast_shows_it_in_its_first_frame(visited, monkeypatch):
    """Textual mounts the toasts on a topic's screen as it comes up, after its first frame: without
    a hold the toast went away for ~60-100 ms and came back (and more was sent). Under a toast a topic
    is held until its toasts are mounted: one opened before too, which even Textual's 50 ms hold let
    through, and one whose screen takes 60 ms more to compose (a slower machine, a topic imported as
    it opens), which a hold of at most 50 ms from the switch let through (WholeToastRows.hold_for_toasts)."""
    import time

    from textual._compositor import LayoutUpdate

    from rnntui.screens.base import TopicScreen

    if visited == "slow":
        compose = TopicScreen.compose

        def compose_slowly(self):
            time.sleep(0.06)
            yield from compose(self)

        monkeypatch.setattr(TopicScreen, "compose", compose_slowly)
        visited = False
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        if visited:  # under an older toast too, which it showed then
            await pilot.press("2")
            app.notify("an older toast", timeout=30)
            await pilot.pause(0.2)
            await pilot.press("1")
            await pilot.pause(0.2)
        app.notify("a toast to keep", timeout=30)  # (5 s, Textual's, ran out in a loaded CI run)
        await pilot.pause(0.2)
        sent = record_frames(app)
        await pilot.press("2")
        await pilot.pause(0.3)
        whole = [update for update in sent if type(update) is LayoutUpdate]
        assert whole and type(sent[0]) is LayoutUpdate
        assert all("a toast to keep" in "".join(letter for row in frame_cells(update.strips) for letter, _ in row)
                   for update in whole)


@pytest.mark.parametrize("mounted", [True, False])
async def test_a_topic_under_a_toast_is_held_until_its_toasts_are_mounted(monkeypatch, mounted):
    """Back to a topic under a toast, drawing is held until the toast is on its screen, not for
    Textual's fixed 50 ms (~53 ms against ~4 ms without a toast): with the longest hold made 5 s, the
    topic is drawn, with its toast, well before. A toast that never comes ends the hold at its
    longest, and the terminal then shows a fresh frame."""
    from rich.console import Console

    from rnntui.toasts import WholeToastRows

    most = 5.0 if mounted else 0.1
    hold = WholeToastRows.hold_for_toasts
    monkeypatch.setattr(WholeToastRows, "hold_for_toasts", lambda self, _: hold(self, most))
    if not mounted:
        monkeypatch.setattr(WholeToastRows, "_toasts_mounted", lambda self: False)
    app = RnnApp("recurrence")
    console = Console(color_system="truecolor", force_terminal=True, width=100, height=30)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("2")
        await pilot.pause(0.2)
        await pilot.press("1")
        await pilot.pause(0.2)
        app.notify("a toast to keep", timeout=30)
        await pilot.pause(0.2)
        shown, sent = replaying(app, console), record_frames(app)
        await pilot.press("2")
        await pilot.pause(0.05 if mounted else 0.3)
        assert app._batch_count == 0 and sent
        assert "a toast to keep" in "".join(letter for row in frame_cells(sent[0].strips) for letter, _ in row)
        assert shown.cells == fresh_frame(app, console).cells


async def test_switching_topics_is_not_held_back(monkeypatch):
    """Textual holds all drawing for 50 ms when the mode changes, to hide a new screen's half-built
    frames. A topic screen sends none (test_a_new_topic_is_sent_whole_once): a topic comes up at once,
    back (~20 ms, not ~60), new or last drawn at another size. A command from the palette is still
    held as the palette closes (Textual's hold there hides the palette's last frame), and so is a
    topic under a toast (the test above)."""
    holds, original = [], App.delay_update

    def delay_update(self, delay=0.05):
        holds.append(self.current_mode)
        original(self, delay)

    monkeypatch.setattr(App, "delay_update", delay_update)
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.goto("gradients")  # new
        await pilot.pause(0.1)
        await app.goto("recurrence")  # back: drawn at this size
        await pilot.pause(0.1)
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.1)
        await app.goto("gradients")  # last drawn at 100x30
        await pilot.pause(0.1)
        assert holds == [] and app._batch_count == 0
        await pilot.press("ctrl+p", *"lstm", "enter")
        await pilot.pause(0.3)
        assert app.current_mode == "lstm" and holds == ["gradients"]


async def test_a_new_topics_footer_is_composed_once_with_its_keys(monkeypatch):
    """Textual's footer composes empty until the screen reports its bindings, then again with the keys
    (another mount and a second layout of the screen). Ours composes the keys at once."""
    from rnntui.widgets.footer import RnnFooter

    composed, original = [], RnnFooter.compose

    def compose(self):
        items = list(original(self))
        composed.append(len(items))
        yield from items

    monkeypatch.setattr(RnnFooter, "compose", compose)
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        composed.clear()
        await app.goto("gradients")
        await pilot.pause(0.1)
        assert len(composed) == 1 and composed[0] >= 5  # tab, ?, q, space, n … and the palette's


@pytest.mark.parametrize("topic_id", ["gradients", "seq2seq", "attention"])
async def test_a_tab_lays_the_screen_out_once(topic_id, monkeypatch):
    """The second time round a topic's figures, each tab lays the screen out once (both fail without):
    - gradients: a figure with fewer footer keys hides the spare ones rather than removing them; a tab
      back to one with more mounted a key again, and the mount laid the screen out a second time
      (4-15 ms; also recurrence/readout, attention/heads and positions, parallel/timing, memory/copy,
      serving/kvcache);
    - seq2seq: a prose of another height resized the figure's container, whose new virtual size asked
      for a second layout (also attention/qkv and summary; see `placed_whole`).
    And the keys shown, spare ones shown again included, say what a fresh footer composes (on
    attention a spare key shown again without being rewritten fails this)."""
    from textual._context import active_message_pump
    from textual.compose import compose

    from rnntui.screens.whole import WholeFrames
    from rnntui.widgets.footer import RnnFooter

    def does(key):
        return (*what_it_does(key), key.styles.width)

    layouts, original = [], WholeFrames._refresh_layout
    monkeypatch.setattr(WholeFrames, "_refresh_layout",
                        lambda self, *args, **kwargs: (layouts.append(self), original(self, *args, **kwargs))[1])
    app = RnnApp(topic_id)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.topic_screen()
        for round in (1, 2):
            for _ in screen.FIGURES:
                layouts.clear()
                await pilot.press("tab")
                await pilot.pause(0.05)
                if round == 2:
                    assert len(layouts) == 1, screen.figure.id
                    footer = screen.query_one(RnnFooter)  # spare keys shown again say what a fresh footer says
                    token = active_message_pump.set(footer)  # (as the footer composes: its keys bind to it)
                    try:
                        fresh = [does(k) for k in compose(footer) if not k.has_class("-command-palette")]
                    finally:
                        active_message_pump.reset(token)
                    shown = [k for k in shown_keys(footer) if not k.has_class("-command-palette")]
                    assert [does(k) for k in shown] == fresh, screen.figure.id


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_footer_key_is_as_wide_as_textual_measures_its_words(lang, monkeypatch):
    """Footer keys get their width from the footer (`key_width`), not from Textual measuring each one
    by drawing it at every layout (~3 ms of a tab on attention, whose keys change). On every figure,
    and playing on each topic's first, each key's width on screen must be what Textual's own measure
    gives (a cell short and its last letter is cut, one over and the keys drift apart), and a tab
    measures none but the palette's key (fails without)."""
    from textual.geometry import Size
    from textual.widget import Widget
    from textual.widgets._footer import FooterKey

    from rnntui.i18n import set_language
    from rnntui.topics import IDS

    measured_keys = []
    monkeypatch.setattr(FooterKey, "get_content_width", lambda self, container, viewport: (
        measured_keys.append(self), Widget.get_content_width(self, container, viewport))[1])
    app = RnnApp("recurrence", lang=lang)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            checked = set()
            for topic_id in IDS:
                await app.goto(topic_id)
                screen = app.topic_screen()
                for figure in screen.FIGURES:
                    for play in (False, True) if figure is screen.FIGURES[0] else (False,):
                        if play:
                            await pilot.press("space")
                        await pilot.pause()
                        for key in shown_keys(screen):
                            if not key.has_class("-command-palette"):
                                assert key.region.width == Widget.get_content_width(
                                    key, Size(120, 1), Size(120, 30)), (topic_id, key.description)
                                checked.add(key.description)
                        if play:
                            await pilot.press("space")
                    measured_keys.clear()
                    await pilot.press("tab")
                    await pilot.pause()
                    assert all(key.has_class("-command-palette") for key in measured_keys)
            assert len(checked) > 10 and ("pause" in checked or "暂停" in checked)
    finally:
        set_language("en")


@pytest.mark.parametrize("width", [80, 120])
async def test_a_footer_rewritten_for_a_figure_draws_what_textual_composes(width):
    """A tab to a figure with other keys writes them into the footer's mounted keys (mounting a whole
    footer was ~8 ms of ~30). Over every figure of three topics, tabbing from the one before, the
    footer's row, cell and colour, and each key's key, action, tooltip and classes must be what
    Textual's own recompose of that footer gives, and a click on the key that reads "m mask" must
    toggle the mask."""
    from rich.console import Console
    from textual.widgets import Footer

    from rnntui.widgets.footer import RnnFooter

    console = Console(color_system="truecolor", force_terminal=True, width=width, height=24)

    def footer_row(app):
        return full_frame(app, console).cells[-1]

    app = RnnApp("recurrence")
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        rewritten = 0
        for topic_id in ("recurrence", "gradients", "attention"):
            await app.goto(topic_id)
            screen = app.topic_screen()
            for _ in screen.FIGURES:
                footer = screen.query_one(RnnFooter)
                before = {k: k.description for k in shown_keys(footer)}
                await pilot.press("tab")
                await pilot.pause()
                row = footer_row(app)
                rewritten += sum(k in before and before[k] != k.description for k in shown_keys(footer))
                keys = [what_it_does(k) for k in shown_keys(footer)]
                footer.call_later(Footer.recompose, footer)  # Textual's own, in the footer's task
                await pilot.pause()
                await pilot.pause()
                assert footer_row(app) == row, (topic_id, screen.figure.id)
                assert [what_it_does(k) for k in shown_keys(footer)] == keys, (topic_id, screen.figure.id)
        assert rewritten > 0  # keys were rewritten, not mounted afresh (afresh, none is in `before`)
        await app.goto("attention")
        screen = app.topic_screen()
        screen.focus_figure("scaling")
        await pilot.pause()
        screen.focus_figure("positions")  # qkv's and scaling's keys rewritten into positions' m and e
        await pilot.pause()
        mask = next(k for k in shown_keys(screen.query_one(RnnFooter)) if k.description == "mask")
        before = screen.state.mask
        await pilot.click(mask)
        await pilot.pause()
        assert screen.figure.id == "positions" and screen.state.mask != before


async def test_opening_a_topic_does_not_restyle_the_one_left_and_styles_the_new_one_right(monkeypatch):
    """Textual restyles the screen being left and then every widget of the new one (which take the
    rules as they mount) when a mode opens: ~40 of ~120 stylesheet applies, and a second frame."""
    from textual.css.stylesheet import Stylesheet

    styled = spy(monkeypatch, Stylesheet, "apply")
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        left = set(app.screen.walk_children(with_self=True))
        styled.clear()
        await app.goto("gradients")
        await pilot.pause(0.2)
        assert styled and not left & set(styled)
        opened = screen_cells(app)
    fresh = RnnApp("gradients")
    async with fresh.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        assert screen_cells(fresh) == opened


@pytest.mark.parametrize("topic_id", IDS[1:])
async def test_a_new_topic_is_sent_whole_once(topic_id):
    """Its first frame is a whole one (the terminal shows no half-built screen), and the only one,
    header title and all: the end of Textual's hold asked for a full repaint, which came 2 ms later
    with the same cells (~11 KB); without the hold, the header's title came in a second frame."""
    from textual._compositor import LayoutUpdate

    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        sent = record_frames(app)
        await pilot.press(str(NUMBERS[topic_id]))
        await pilot.pause(0.3)
        assert [type(update) for update in sent] == [LayoutUpdate]
        assert frame_cells(sent[0].strips) == now_cells(app)
        assert f"rnntui · {NUMBERS[topic_id]} {topic_id}" in screen_rows(app)[0]


@pytest.mark.parametrize("size, palette", [((120, 40), False), ((80, 24), False), ((120, 40), True)])
async def test_help_opens_in_one_whole_frame_with_the_topic_behind(size, palette):
    """Its first frame is whole, the dimmed topic around the box, and the only one: it came in four
    frames (~44 KB at 120x40), the scrollbar in the second and the last two the same again. Also just
    after a palette command (`palette`): Textual asks the screen being covered to repaint itself whole,
    which help's first frame does, and that ask was drawn after it when the palette had just taken the
    app to lstm, the same picture twice (~14 KB twice at 120x40)."""
    from textual._compositor import LayoutUpdate

    from rnntui.help import HelpScreen

    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=size) as pilot:
        if palette:
            await pilot.press("ctrl+p", *"lstm")
            await pilot.pause(0.5)
            await pilot.press("enter")
            await pilot.pause(0.3)
            assert app.topic_screen().TOPIC_ID == "lstm"
        await pilot.pause()
        topic_rows = screen_rows(app)
        sent = record_frames(app)
        await pilot.press("question_mark")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HelpScreen)
        assert [type(update) for update in sent] == [LayoutUpdate]
        assert frame_cells(sent[0].strips) == now_cells(app)
        rows = screen_rows(app)
        assert rows[0] == topic_rows[0] and "help" in "".join(rows)  # the topic's top row shows above the box


@pytest.mark.parametrize("ansi", [False, True])
async def test_help_is_see_through_as_textuals_modal_screens_are(ansi):
    """Help takes its CSS from WholeFrames (a screen takes its first base's), so ModalScreen's
    see-through background is its own: 60% over the topic, transparent in ANSI colours."""
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        app.ansi_color = ansi
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert app.screen.styles.background.a == (0 if ansi else 0.6)


@pytest.mark.parametrize("opener", ["question_mark", "ctrl+p"])
async def test_closing_help_or_the_palette_sends_the_topic_once(opener):
    """Closing sends the topic's frame whole, once: Textual asked the app for a layout and a repaint once
    the closed screen was gone, and the same frame went out again ~25 ms later (~11 KB at 120x40)."""
    from textual._compositor import LayoutUpdate

    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        topic = now_cells(app)
        await pilot.press(opener)
        await pilot.pause(0.3)
        assert app.screen is not app.topic_screen()
        sent = record_frames(app)
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert app.screen is app.topic_screen()
        assert [type(update) for update in sent] == [LayoutUpdate]
        assert frame_cells(sent[0].strips) == now_cells(app) == topic


async def test_the_palette_and_a_topic_back_after_a_resize_are_sent_whole_once():
    """Textual's handler of a screen coming back (ScreenResume) ends by asking for a whole repaint:
    the palette, drawn whole as it opened, went out whole again with its commands (~9 KB), and so did
    a topic back at a new size (~10 KB). What changes after the whole frame still comes, in parts.
    (The topics imported first, as the app's preload does: the palette then comes in one frame.)"""
    from textual._compositor import LayoutUpdate

    from rnntui.topics import topics

    topics()
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("2")
        await pilot.pause(0.2)
        await pilot.press("1")
        await pilot.pause(0.2)
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.2)
        sent = record_frames(app)
        await pilot.press("2")  # gradients, last drawn at 100x30
        await pilot.pause(0.3)
        assert [type(update) for update in sent].count(LayoutUpdate) == 1 and type(sent[0]) is LayoutUpdate
        assert frame_cells(sent[0].strips) == now_cells(app)
        sent.clear()
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert [type(update) for update in sent] == [LayoutUpdate]  # with its commands (Palette._search_for)
        assert frame_cells(sent[0].strips) == now_cells(app) and "lstm" in "".join(screen_rows(app))


async def test_a_topic_back_after_a_theme_change_is_sent_whole_once():
    """Textual restyles a topic left before a theme change as it comes back, laying it out before it
    resumes: that layout's frame was drawn whole for the restyle's repaint, and the resume's own
    whole repaint followed (~12 KB twice at 120x40). A topic coming up is drawn whole as it resumes."""
    from textual._compositor import LayoutUpdate

    app = RnnApp("recurrence")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "1")
        theme = app.theme
        await pilot.press("ctrl+p", *"toggle theme")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.theme != theme
        sent = record_frames(app)
        await pilot.press("2")
        await pilot.pause(0.3)
        assert [type(update) for update in sent] == [LayoutUpdate]
        assert frame_cells(sent[0].strips) == now_cells(app)


async def test_a_resumed_screen_restyled_after_its_whole_frame_is_repainted():
    """The resume's whole repaint is left out only while the whole frame shown is still the screen's
    look: a change of the screen's own styles in between (a theme), or the screen suspended, keeps it;
    so does any repaint outside the resume handler."""
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen

        def repaints(whole_shown: bool, resuming: bool, change=lambda: None) -> bool:
            screen._repaint_required = False
            screen._whole_shown, screen._resuming = whole_shown, resuming
            change()
            screen.refresh()
            return screen._repaint_required

        assert not repaints(True, True)  # Textual's resume repaint, the screen drawn whole before it: left out
        assert repaints(True, True, screen.notify_style_update)  # restyled since
        assert repaints(True, True, lambda: screen._on_screen_suspend())  # suspended since
        assert repaints(False, True) and repaints(True, False)  # not drawn whole; not resuming (a toast's, a theme's)


def test_a_lab_result_comes_back_without_importing_torch_into_the_app():
    """The app unpickles what a lab's child sends; a torch object in it (torch.__version__ is one)
    would import torch into the app and double its memory."""
    pytest.importorskip("torch")
    import pickle
    import pickletools

    from rnntui.engine import lab_timing

    result = lab_timing.run(Ts=(8,), repeats=3, budget_s=0.01)
    strings = [str(arg) for op, arg, _ in pickletools.genops(pickle.dumps(result))
               if op.name in ("GLOBAL", "STACK_GLOBAL", "SHORT_BINUNICODE", "BINUNICODE", "UNICODE")]
    # a class from torch is named by its module, e.g. "torch.torch_version" (the key "torch" is fine)
    assert not [s for s in strings if s.startswith("torch.") or s.startswith("torch ")]


FIRST_FRAME = """
import asyncio, sys
from textual._compositor import CompositorUpdate
from rnntui.app import RnnApp

async def first_frame():
    app = RnnApp()
    at_first = []  # the modules loaded when the first frame that shows the track is drawn
    display = app._display

    def spy(screen, renderable):
        track = app.topic_screen().query("#track") if app.screen is app.topic_screen() else None
        if not at_first and isinstance(renderable, CompositorUpdate) and track and track.first().drawn is not None:
            at_first.append(set(sys.modules))
        return display(screen, renderable)

    app._display = spy
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.topic_screen()
        assert screen.TOPIC_ID == "recurrence" and screen.query_one("#track").drawn is not None, "the first figure was not drawn"
        assert "h_0 = tanh(" in str(screen.query_one("#step").render())
    assert at_first, "no frame showed the track"
    return at_first[0]

loaded = asyncio.run(first_frame())
print(" ".join(m for m in ("numpy", "torch", "PIL", "fontTools", "multiprocessing", "tomllib", "rnntui.widgets.plot")
               if m in loaded))
"""


async def test_work_after_the_first_frame_runs_after_it_is_drawn():
    """`after_first_frame` (the track's plot, numpy with it) runs its callbacks once the app's first frame
    is drawn, and later ones at once; none is kept. (Textual's call_after_refresh ran before that frame:
    the screen's callbacks run at idle while drawing is held, and the first frame imported numpy. A
    plain call_later lands after it today, by the order Textual happens to handle messages in.)"""
    from rnntui.app import RnnApp

    frames, seen = [], []
    app = RnnApp("recurrence")
    display = app._display

    def spy(screen, renderable):
        display(screen, renderable)
        if renderable is not None and not app._batch_count:
            frames.append(1)

    app._display = spy
    app.after_first_frame(lambda: seen.append(len(frames)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert seen and seen[0] >= 1  # it ran, and after a frame had been drawn
        app.after_first_frame(lambda: seen.append("later"))
        await pilot.pause()
        assert seen[-1] == "later" and app._after_first == []


def test_the_first_frame_imports_nothing_heavy(tmp_path):
    """Opening the app draws the recurrence track without numpy (imported when a plot or another topic
    needs it), torch, the PNG/SVG stack, multiprocessing (when `t` starts a lab), a TOML parser
    (only when a keymap file exists) or the plot widget (the track's plot comes after that frame)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path)}  # no keymap file
    r = subprocess.run([sys.executable, "-c", FIRST_FRAME], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == ""


def test_the_track_reads_the_same_states_as_the_engine_arrays():
    from rnntui.engine import recurrence as rnn
    from rnntui.figures.recurrence import TrackState

    z, h = rnn.rnn_states(w_h=1.3, w_x=-0.7, b=0.2)
    r = TrackState(w_h=1.3, w_x=-0.7, b=0.2, step=rnn.LAST_T).readings()
    assert r.z == tuple(z) and r.h_all == tuple(h)
    assert r.h_prev == h[-2] and isinstance(r.h[0], float)


async def test_a_topic_mounts_only_the_focused_figures_view_and_the_others_when_first_shown():
    from rnntui.screens.base import FigureView

    app = RnnApp("attention")
    async with app.run_test(size=(100, 30)) as pilot:
        s = app.topic_screen()
        assert [v.id for v in s.query(FigureView)] == ["qkv"]  # 1 of 7 composed at start
        await pilot.press("tab")
        await pilot.pause()
        views = {v.id: v for v in s.query(FigureView)}
        assert set(views) == {"qkv", "scaling"} and views["scaling"].drawn is s.state
        assert views["scaling"].display and not views["qkv"].display
        await app.goto("attention", "summary")  # a jump waits for the view: drawn when it returns
        assert s.view_of(s.figure).drawn is s.state


def test_a_plot_drawn_after_another_cursor_is_drawn_as_if_fresh():
    """Plots share everything but the cursor between draws (a key moving the cursor redraws only
    it): drawing cursor after cursor must not leave an earlier cursor or its points behind."""
    from rnntui.widgets import plot

    xs = tuple(float(x) for x in range(40))
    spec = PlotSpec(series=(Series(xs, tuple(math.sin(x / 5) for x in xs), "sin"),
                            Series(xs, tuple(math.cos(x / 5) for x in xs), "cos")),
                    lines=(Line(0.0, "zero"),), xlabel="t")
    fresh = {}
    for cursor in (3.0, 17.0, 31.0, None):
        plot._cached_scene.cache_clear()
        fresh[cursor] = plot.plot_rows(replace(spec, cursor=cursor), 60, 16)
    plot._cached_scene.cache_clear()
    for cursor in (3.0, 17.0, 31.0, None, 17.0, 3.0):
        assert plot.plot_rows(replace(spec, cursor=cursor), 60, 16) == fresh[cursor]
    assert plot._cached_scene.cache_info().hits == 5  # the scene was shared, not drawn six times
    def dots(rows):
        return sum("".join(w for w, _ in row).count("●") for row in rows)

    assert dots(fresh[17.0]) == 2 and dots(fresh[None]) == 0  # each series' point at the cursor, and only there


async def test_a_picture_line_keeps_its_own_style_and_repaints_only_changed_rows():
    """A line that is all one style (a heat map's dim header, a table's dim note) carries it as the
    Text's style, not as spans: Rich's Text.render drops that style, Lines must not. A change of one
    row repaints that row only."""
    from rnntui.widgets.lines import Lines
    from rnntui.widgets.picture import Picture

    class Header(Lines):
        def lines(self, width, height):
            return [Text("dim header", style="dim"), Text("row one")]

    class P(App):
        CSS = "Header { height: 2; }"

        def compose(self):
            yield Header()
            yield Picture()

    app = P()
    async with app.run_test(size=(30, 6)) as pilot:
        picture = app.query_one(Picture)
        picture.update(Text("\n").join([Text("dim header", style="dim"), Text("row one"), Text("row two")]))
        await pilot.pause()
        strips = [app.query_one(Header).render_line(y) for y in range(2)]
        assert strips[0].text.startswith("dim header") and all(s.style and s.style.dim for s in strips[0] if s.text.strip())
        assert not any(s.style and s.style.dim for s in strips[1] if s.text.strip())
        regions = repainted_regions(picture)
        picture.update(Text("\n").join([Text("dim header", style="dim"), Text("row 1"), Text("row two")]))
        assert regions == [(Region(4, 1, 3, 1),)]  # 'row ' stays; 'one' becomes '1  '
        await pilot.pause()
        assert picture.render_line(1).text.startswith("row 1") and picture.render_line(2).text.startswith("row two")


async def test_a_changed_number_repaints_its_own_cells():
    """A readout whose number changes repaints the number's cells, not the row: over SSH every frame's
    bytes count. Equal runs at either end of the row are left out, whole characters only (a wide 猫
    before or after the change stays out, and a change next to it never cuts it in half); under a
    notification the row is repainted to its end (Textual would cut the toast's wide characters)."""
    from rnntui.widgets.lines import Lines, changed_span

    class Row(Lines):
        value = "0.310"

        def lines(self, width, height):
            return [[("h_t = ", None), (self.value, "bold"), (" 猫", None)], [("still", None)]]

    class R(App):
        def compose(self):
            yield Row()

    app = R()
    async with app.run_test(size=(30, 4), notifications=True) as pilot:
        row = app.query_one(Row)
        await pilot.pause()
        regions = repainted_regions(row)
        row.value = "0.841"
        row.changed()
        assert regions == [(Region(8, 0, 3, 1),)]  # "h_t = 0." (8 cells) stays; 310 becomes 841
        await pilot.pause()
        assert row.render_line(0).text.startswith("h_t = 0.841 猫")
        app.notify("保存了")  # a toast's wide characters over the row must not be cut at the span's end
        await pilot.pause()
        row.value = "0.057"
        row.changed()
        assert regions[-1] == (Region(8, 0, 22, 1),)
    bold = Style(bold=True)
    old = Strip([Segment("a "), Segment("猫", bold), Segment("x  ")])
    assert changed_span(old, Strip([Segment("a "), Segment("猫", bold), Segment("y  ")]), 7) == (4, 5)
    assert changed_span(old, Strip([Segment("a "), Segment("狗", bold), Segment("x  ")]), 7) == (2, 4)
    assert changed_span(old, old, 7)[0] == changed_span(old, old, 7)[1]  # nothing to repaint
    accent = Strip([Segment("a"), Segment("e", bold), Segment("\u0301 ")])  # é: a mark after the change
    assert changed_span(accent, Strip([Segment("a"), Segment("o", bold), Segment("\u0301 ")]), 3) == (1, 3)


def test_a_moving_cursor_repaints_its_two_cells_not_the_rest_of_the_row():
    """A plot's cursor is a run in a row of long blank runs: moving it one cell changes two cells. The
    span is cut inside the runs that differ where their letters agree (it was the row from the old
    cursor to the right edge, ~4 KB a key in lstm/bias), never between a letter and its accent."""
    from rnntui.widgets.lines import changed_span

    bar = Style(bold=True)
    old = Strip([Segment("   "), Segment("│", bar), Segment("      ")])
    assert changed_span(old, Strip([Segment("    "), Segment("│", bar), Segment("     ")]), 10) == (3, 5)
    assert changed_span(Strip([Segment("──┬───────")]), Strip([Segment("───┬──────")]), 10) == (2, 4)
    assert changed_span(Strip([Segment("0.310 猫")]), Strip([Segment("0.841 猫")]), 8) == (2, 5)
    # é as e + a mark: a cut never parts them, whether the mark is in the run or begins the next one
    assert changed_span(Strip([Segment("abe\u0301x")]), Strip([Segment("abo\u0301x")]), 4) == (2, 4)
    assert changed_span(Strip([Segment("ab"), Segment("\u0301cd")]), Strip([Segment("abx"), Segment("d")]), 4) == (1, 3)
    assert changed_span(Strip([Segment("xe\u0301b")]), Strip([Segment("ye\u0301b")]), 3) == (0, 1)
    # an accent alone in its run: after the cut's letter, or before it behind an empty run
    assert changed_span(Strip([Segment("abc")]), Strip([Segment("ax"), Segment("\u0301", bar), Segment("c")]), 3) == (1, 3)
    assert changed_span(Strip([Segment("ab"), Segment(""), Segment("\u0301c")]), Strip([Segment("abz")]), 3) == (1, 3)
    assert changed_span(Strip([Segment("e"), Segment("\u0301", bar), Segment("a")]), Strip([Segment("e"), Segment("a", bar)]), 2) == (0, 2)
    # an emoji sequence (joined by U+200D) is measured whole by Rich: never cut inside
    family = "\U0001F468\u200d"
    assert changed_span(Strip([Segment(family + "\U0001F469"), Segment("a", bar)]),
                        Strip([Segment(family + "\U0001F466"), Segment("b", bar)]), 3) == (0, 3)


async def test_a_repaint_sends_the_changed_cells_not_the_row_before_them():
    """Textual sends a changed span from the start of the widget's piece of the row; the app's screens
    send it from the span's start (chops.py). A cut inside a wide character or before an accent is
    refused (the terminal would keep half of it): then the piece is sent from its start."""
    from textual._compositor import CompositorUpdate

    from rnntui.screens.chops import clean_cut
    from rnntui.screens.whole import WholeFrames
    from rnntui.widgets.lines import Lines

    class Row(Lines):
        mark = "a"

        def lines(self, width, height):
            return [[("猫" * 10, None), (self.mark, "bold"), ("y" * 9, None)]]

    class R(App):
        def get_default_screen(self):
            return WholeFrames(id="_default")

        def compose(self):
            yield Row()

    app = R()
    async with app.run_test(size=(30, 2)) as pilot:
        await pilot.pause()
        sent = []
        original = app._display
        app._display = lambda screen, update: (
            sent.append(update.render_segments(app.console)) if isinstance(update, CompositorUpdate) else None,
            original(screen, update))[1]
        row = app.query_one(Row)
        row.mark = "b"
        row.changed()
        await pilot.pause()
        assert sent and sent[-1].startswith("\x1b[1;21H") and "猫" not in sent[-1] and "b" in sent[-1]
    assert not clean_cut(Strip([Segment("猫猫"), Segment("ab")]), 1)
    assert clean_cut(Strip([Segment("猫猫"), Segment("ab")]), 2)
    assert clean_cut(Strip([Segment("xe\u0301z")]), 1)  # before é
    assert not clean_cut(Strip([Segment("xe\u0301z")]), 2)  # after é: a crop could carry its accent over
    assert not clean_cut(Strip([Segment("x猫z")]), 2)
    assert clean_cut(Strip([Segment("abc"), Segment("猫")]), 3)
    assert not clean_cut(Strip([Segment("e"), Segment(""), Segment("\u0301", Style(bold=True))]), 1)
    # a span's end inside a wide letter (a tooltip's, over the row): the piece goes to its end
    from rnntui.screens.chops import TrimmedChops
    sent = TrimmedChops([{0: Strip([Segment("ab猫cd")])}], [(0, 1, 3)], [[6]]).render_segments(app.console)
    assert sent.startswith("\x1b[1;2H") and re.sub("\x1b\\[[0-9;]*[A-Za-z]", "", sent) == "b猫cd"


def test_a_span_is_sent_as_a_crop_of_its_piece_would_send_it():
    """chops.py cuts runs of one-cell letters itself, not through a cropped Strip: the bytes sent
    must be those of the crop (Textual's `Strip.crop`, then `render`), with the same refusals (a cut
    inside a wide letter or before an accent sends the piece from its start or to its end), on rows
    mixing plain, styled, empty, wide, accented and emoji runs, accents and tabs in runs of their own,
    for every span."""
    import random

    from rich.console import Console

    from rnntui.screens.chops import TrimmedChops, clean_cut

    def by_crop(strip, x, end, y, x1, x2, console):
        stop = x2 if x2 < end and clean_cut(strip, x2 - x) else end
        if x < x1 and clean_cut(strip, x1 - x):
            strip, x = strip.crop(x1 - x, stop - x), x1
        elif stop < end:
            strip = strip.crop(0, stop - x)
        return f"\x1b[{y + 1};{x + 1}H" + strip.render(console)

    console = Console(color_system="truecolor", force_terminal=True)
    runs = ["abc", "x", "", "  ", "猫", "ab猫", "e\u0301", "\u0301z", "\u0301", "\t", "\U0001F468\u200d\U0001F469", "…—",
            "→ 0.5"]
    styles = [None, Style(bold=True), Style(color="#ff0000", bgcolor="#000010"), Style(link="https://x.org")]
    rng = random.Random(16)
    cut = 0
    for _ in range(600):
        strip = Strip([Segment(rng.choice(runs), rng.choice(styles)) for _ in range(rng.randint(1, 6))])
        x, width = rng.randint(0, 3), strip.cell_length
        if not width:
            continue
        for x1 in range(x, x + width):
            for x2 in range(x1 + 1, x + width + 1):
                update = TrimmedChops([{x: strip}], [(0, x1, x2)], [[x + width]])
                sent = update.render_segments(console)
                assert sent == by_crop(strip, x, x + width, 0, x1, x2, console), (strip, x1, x2)
                cut += not sent.endswith(strip.render(console))
    assert cut > 1000  # most spans are cut: the comparison is not between whole pieces only


async def test_a_key_asks_the_screen_to_draw_with_no_message_per_widget(monkeypatch):
    """A key on lstm/cell changes six widgets. Textual's refresh has each one prompt itself and then
    post an Update to the screen (~0.1 ms a widget, 5-12% of the key); their changed rows go to the
    screen at once instead (fails without `repaint_rows`). The next frame draws them (the replay test
    above checks every cell of such frames)."""
    from textual import messages

    updates, original = [], Screen.post_message

    def post_message(self, message):
        if isinstance(message, messages.Update):
            updates.append(message.widget)
        return original(self, message)

    monkeypatch.setattr(Screen, "post_message", post_message)
    app = RnnApp("lstm", "cell")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        before = str(app.topic_screen().query_one("#knobs").render())
        updates.clear()
        await pilot.press("right")
        await pilot.pause()
        assert str(app.topic_screen().query_one("#knobs").render()) != before
        assert updates == []


def record_drawing(patch, drawn: dict) -> None:
    """From now on (`patch`: monkeypatch or one of its contexts), each widget's rows drawn, as screen
    rows, into `drawn` (widget → rows)."""
    from textual.widget import Widget

    from rnntui.widgets.lines import Lines

    def watching(original):
        def render_lines(self, crop):
            drawn.setdefault(self, []).extend(y + self.region.y for y in crop.line_range)
            return original(self, crop)
        return render_lines

    patch.setattr(Widget, "render_lines", watching(Widget.render_lines))
    patch.setattr(Lines, "render_lines", watching(Lines.render_lines))


async def test_a_key_draws_only_the_widgets_it_changed(monkeypatch):
    """Textual draws every widget whose clip meets the changed rows' box, whole: at each key the header
    and the footer (their clip is the screen) and all forty rows of the screen, the panel and the view,
    to keep of them only what the figure's widgets in front draw. A key on lstm/cell changes rows 5-37
    of 40 at 120x40: only the widgets it changed draw, and only rows inside 5-37 (the replay tests
    check the cells of such frames)."""
    from textual._compositor import Compositor

    drawn: dict = {}
    changed: set = set()

    def noting(original):
        def update_widgets(self, widgets):
            changed.update(widgets)
            return original(self, widgets)
        return update_widgets

    app = RnnApp("lstm", "cell")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        record_drawing(monkeypatch, drawn)
        monkeypatch.setattr(Compositor, "update_widgets", noting(Compositor.update_widgets))
        await pilot.press("right")
        await pilot.pause()
        screen = app.screen
    names = {type(widget).__name__ for widget in drawn}
    rows = sorted({y for ys in drawn.values() for y in ys})
    assert {"Plot", "TokenTrack"} <= names  # what the key changed was drawn
    assert set(drawn) <= changed, {type(widget).__name__ for widget in set(drawn) - changed}
    assert screen not in drawn and not {"Header", "RnnFooter", "FooterKey"} & names
    assert rows[0] >= 5 and rows[-1] <= 37, rows


async def test_a_key_back_to_a_state_shown_before_wraps_and_draws_no_line_afresh(monkeypatch):
    """lstm/cell stepped right and back: its four readouts, track and plot show what they showed, and
    none of their lines is wrapped or turned into cells again (they were, ~1.5 ms of a 6 ms key), but
    where a widget is drawn at a height it did not have then (the gates' sums take two rows at t=1,
    one at t=0: the plot is drawn once at t=1's height before the layout gives it t=0's). The screen
    is cell for cell its first frame."""
    from rnntui.widgets.lines import Lines, TextLines

    made: list = []

    def noting(original):
        def call(self, *args):
            made.append((self, self.size))
            return original(self, *args)
        return call

    app = RnnApp("lstm", "cell")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before, sizes = now_cells(app), {lines: lines.size for lines in app.screen.query(Lines)}
        await pilot.press("right")
        await pilot.pause()
        assert now_cells(app) != before
        monkeypatch.setattr(Lines, "strip", noting(Lines.strip))
        monkeypatch.setattr(Readouts, "divide", noting(Readouts.divide))
        monkeypatch.setattr(TextLines, "divide", noting(TextLines.divide))
        await pilot.press("left")
        await pilot.pause()
        assert now_cells(app) == before
        assert made and all(size != sizes[lines] for lines, size in made), [
            (type(lines).__name__, lines.id, size) for lines, size in made if size == sizes[lines]]
        await pilot.press("tab")  # out of sight, a figure keeps no lines of the states before (kept in every
        await pilot.pause()  # figure, a walk through them all ended with 15 MB more)
        hidden = list(app.screen.query_one("#cell").query(Lines))
        assert len(hidden) == 6 and not [lines for lines in hidden if lines._looks or getattr(lines, "_divided", None)]


@pytest.mark.parametrize("address, toast", [
    ("recurrence/track", False), ("attention/positions", False), ("gradients/factors", False),
    ("lstm/params", False), ("seq2seq/matrix", False), ("attention/scaling", False),
    ("lstm/bias", False), ("attention/positions", True), ("seq2seq/matrix", True), ("gradients/bptt", True),
    ("lstm/bias", True)])
async def test_the_terminal_shows_what_a_fresh_frame_draws_after_keys(address, toast):
    """Frames after the first repaint only the cells that changed. Replaying every byte the app sent
    into a terminal, the terminal must end up showing, cell for cell and colour for colour, what a
    full frame of the same screen draws: no cell left stale by a repaint cut too short, nor a wide
    character of a notification over the figure cut in two (each of the toast cases fails if rows
    under a toast are cut at their last change)."""
    from rich.console import Console
    topic_id, figure_id = address.split("/")
    app = RnnApp(topic_id, figure_id)
    console = Console(color_system="truecolor", force_terminal=True, width=100, height=30)
    async with app.run_test(size=(100, 30), notifications=toast) as pilot:
        if toast:
            app.notify("猫坐在垫子上，一只猫在看另一只猫。" * 3, timeout=60)
        await pilot.pause()
        shown = replaying(app, console)
        for key in ("right", "right", "up", "+", "left", "right", "-", "down", "right", "tab", "right", "shift+tab"):
            await pilot.press(key)
            await pilot.pause()
            fresh = full_frame(app, console)
            assert fresh.cells != Terminal(100, 30).cells
            assert shown.cells == fresh.cells, key


async def test_the_palette_repaints_what_its_keys_change_once(monkeypatch):
    """↑↓ in the palette repaint the option left and the one reached, not the whole list (~5.9 KB a key
    at 120x40 before); a key typed that changes the list's height at the same width sends the list
    once (Textual's Resize handler sent it again, ~5 KB), in the frame that draws the letter (Textual
    drew the letter, then its matches ~40 ms later), at the same width whether the scrollbar shows or
    not (one that showed or hid it sent the list twice); a move that scrolls the list, page keys and a new
    width still draw what they change. Replaying every byte sent, the terminal shows what a fresh
    frame draws after each key."""
    from rich.console import Console

    from rnntui.app import Palette
    from rnntui.palette import PaletteInput, PaletteList

    # the letter waits for its matches at most HOLD_MOST (30 ms), then is drawn alone: a loaded machine
    # (CI's, running this beside a fuzz run and a review's tests) searched longer and drew them apart
    monkeypatch.setattr(Palette, "HOLD_MOST", 1.0)
    app = RnnApp("recurrence", "tanh")
    console = Console(color_system="truecolor", force_terminal=True, width=120, height=40)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.4)
        shown, sent = replaying(app, console), record_frames(app)
        listed, moved, typed, held, scrolled = app.screen.query_one(PaletteList), 0, 0, 0, False
        field = app.screen.query_one(PaletteInput)
        keys = ("down", "down", "up", *["down"] * 14, "pagedown", "pageup", *"lstm", "down", "backspace", "backspace",
                "up", "g", "o", "down")
        for key in keys:
            sent.clear()
            before, size, width = listed.highlighted, listed.size, listed.scrollable_content_region.width
            await pilot.press(key)
            await pilot.pause(0.15 if key in ("down", "up", "pagedown", "pageup") else 0.3)  # (more on a busy machine)
            assert shown.cells == fresh_frame(app, console).cells, key
            scrolled |= listed.scroll_offset.y > 0
            rows = [{y for y, _, _ in update.spans} for update in sent]
            if key in ("down", "up") and listed.scroll_offset.y == 0 and len(sent) == 1:
                lines, top = listed._line_cache, listed.region.y + listed.gutter.top
                assert rows[0] == {top + lines.index_to_line[i] + k for i in (before, listed.highlighted) for k in range(2)}
                moved += 1
            if len(key) == 1 and listed.size.height != size.height and listed.scrollable_content_region.width == width:
                assert sum(1 for r in rows if listed.region.y + listed.gutter.top in r) == 1, key  # the list, once
                typed += 1
            if key in (*"lstmgo", "backspace"):  # the letter comes with its matches (Palette.hold_for_matches)
                assert {field.region.y, listed.region.y + listed.gutter.top} <= rows[0], key
                assert listed.scrollable_content_region.width == width, key  # (the scrollbar's gutter is kept)
                if not listed.show_vertical_scrollbar:  # as tall as its options, no blank row under them
                    assert listed.scrollable_content_region.height == listed.virtual_size.height, key
                held += 1
        assert moved >= 3 and typed >= 2 and held == 8 and scrolled


async def test_a_letter_that_matches_nothing_empties_the_palettes_list_in_its_first_frame(monkeypatch):
    """A letter that leaves no command matching comes with the list emptied, in one frame: Textual's
    search waited 0.1 s more for matches before it ended, so the letter came alone (at the end of the
    palette's hold, 30 ms) and the list's change ~110 ms after the key. Replaying every byte sent, the
    terminal shows what a fresh frame draws."""
    from rich.console import Console

    from rnntui.app import Palette
    from rnntui.palette import PaletteInput, PaletteList

    monkeypatch.setattr(Palette, "HOLD_MOST", 0.08)  # (a loaded machine's search may outrun the app's 30 ms; Textual's
    # search, which waited 0.1 s for matches that never came, does not fit in 80 ms either)
    app = RnnApp("recurrence", "tanh")
    console = Console(color_system="truecolor", force_terminal=True, width=120, height=40)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p", *"lstm")
        await pilot.pause(0.3)
        listed, field = app.screen.query_one(PaletteList), app.screen.query_one(PaletteInput)
        top, shown, sent = listed.region.y + listed.gutter.top, replaying(app, console), record_frames(app)
        assert listed.option_count > 0
        await pilot.press("#")
        await pilot.pause(0.3)  # (before "No matches found", 0.5 s after the search)
        assert listed.option_count == 0 and field.value == "lstm#"
        first = {y for y, _, _ in sent[0].spans}
        assert {field.region.y, top} <= first
        assert shown.cells == fresh_frame(app, console).cells


async def test_the_palette_opens_in_one_frame():
    """ctrl+p sends the palette with its list and the scrollbar it calls for: one frame. Textual made the
    list's lines as it first drew it; their scrollbar came in a layout and a frame of its own, and the
    Resize that followed sent the whole list again (4 frames, ~25 KB at 120x40, the last ~100-150 ms
    after the key); its search, in tasks, gave its first hits after a frame without them (2 frames).
    The topics are imported first, as the app's preload does in a terminal (before, the palette's first
    opening imports them: nothing is drawn until they are in). Replaying every byte sent, the terminal
    shows what a fresh frame draws."""
    from rich.console import Console

    from rnntui.palette import PaletteList
    from rnntui.topics import topics

    topics()
    app = RnnApp("recurrence", "tanh")
    console = Console(color_system="truecolor", force_terminal=True, width=120, height=40)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        shown, sent = replaying(app, console), record_frames(app)
        for key in ("ctrl+p", "escape", "ctrl+p"):
            sent.clear()
            await pilot.press(key)
            await pilot.pause(0.4)
            assert shown.cells == fresh_frame(app, console).cells, key
            if key == "ctrl+p":
                assert len(sent) == 1 and app.screen.query_one(PaletteList).show_vertical_scrollbar


@pytest.mark.parametrize("key", [None, "escape", "enter", "resize"])
async def test_the_palettes_hold_on_drawing_always_ends(key):
    """A hold on drawing that no search ends (its matches never come, or the palette closes first: a
    command chosen, escape) ends by itself, and what waited is drawn: the terminal shows what a fresh
    frame draws (a hold left on would freeze the app's screen)."""
    from rich.console import Console

    from rnntui.palette import PaletteInput

    app = RnnApp("recurrence", "tanh")
    console = Console(color_system="truecolor", force_terminal=True, width=100, height=30)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p", *"lst")
        await pilot.pause(0.3)
        palette = app.screen
        palette.query_one(PaletteInput).cursor_blink = False  # (a blink between the two frames is no failure)
        await pilot.pause()
        shown = replaying(app, console)
        palette.hold_for_matches()
        assert app._batch_count == 1
        if key == "resize":  # (a layout's frame drawn, and dropped, during the hold)
            await pilot.resize_terminal(100, 29)
            console.height, shown.cells = 29, shown.cells[:29]
        elif key:
            await pilot.press(key)
        else:
            palette.query_one(PaletteInput).insert_text_at_cursor("m")  # (its own hold: the same one)
        await pilot.pause(0.3)
        assert app._batch_count == 0 and (app.screen is palette) == (key in (None, "resize"))
        assert shown.cells == fresh_frame(app, console).cells
        if key == "enter":
            assert app.topic_screen().TOPIC_ID == "lstm"


async def test_a_first_visit_to_every_figure_leaves_the_terminal_as_a_fresh_frame_draws_it():
    """A view that redraws in its Resize handler, before the held frame of a figure's first visit is
    drawn, had its rows sent again in a second frame (memory/distractor: 27 rows, the same picture).
    A repaint the frame draws anyway is dropped (AtTerminalSize._drop_drawn_asks); a footer key mounted
    no longer repaints the footer after the frame (recurrence/readout, serving/kvcache: the footer's
    row again, RnnFooter.call_next). Every first visit is one frame and, replaying every byte sent
    through the first visit of every figure of every topic, the terminal shows what a fresh frame
    draws (every line drawn again) after each key: nothing dropped was due."""
    from rich.console import Console

    app = RnnApp(IDS[0])
    console = Console(color_system="truecolor", force_terminal=True, width=120, height=40)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        shown, sent = replaying(app, console), record_frames(app)
        visited = []
        for i, topic_id in enumerate(IDS):
            for key in ["n"] * (i > 0) + ["tab"] * (len(topic(topic_id).FIGURES) - 1):
                sent.clear()
                await pilot.press(key)
                await pilot.pause(0.15)
                visited.append(address := f"{app.topic_screen().TOPIC_ID}/{app.topic_screen().figure.id}")
                assert shown.cells == fresh_frame(app, console).cells, address
                assert len(sent) == 1, address
        assert len(set(visited)) == len(visited) == sum(len(topic(t).FIGURES) for t in IDS) - 1
        assert {"memory/distractor", "recurrence/readout", "serving/kvcache"} <= set(visited)


async def test_a_repaint_is_dropped_only_when_the_frame_repaints_the_whole_widget():
    """AtTerminalSize._drop_drawn_asks drops a widget's repaint asked before a frame only when that frame
    repaints all of the widget: a frame over part of it leaves the rest to come."""
    app = RnnApp("memory", "distractor")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        screen = app.topic_screen()
        widget, (region, clip) = next((w, place) for w, place in screen._compositor.visible_widgets.items()
                                      if w is not screen and place[0].height > 3)
        for dirty, dropped in (({region.crop_size((region.width, region.height - 1))}, False), ({region}, True),
                               ({screen.size.region}, True)):
            widget.refresh()
            screen._compositor._dirty_regions = set(dirty)
            screen._drop_drawn_asks()
            assert (not widget._repaint_required and not widget._repaint_regions) == dropped, dirty
        screen._compositor._dirty_regions.clear()


async def test_the_palette_list_keeps_its_drawn_options_at_a_resize_to_the_same_width():
    """At a Resize to the same width the palette's list keeps its drawn options (Textual's handler drops
    them and repaints the whole list). A repaint it asked before the layout that resized it is dropped
    by the frame that draws it (AtTerminalSize._drop_drawn_asks, tested above)."""
    from textual import events

    from rnntui.palette import PaletteList

    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.4)
        listed = app.screen.query_one(PaletteList)
        kept = len(listed._option_render_cache)
        assert kept
        event = events.Resize(listed.size, listed.virtual_size, listed.container_size)
        listed._on_resize(event)
        assert event._no_default_action  # OptionList's handler, which drops the drawn options, does not run
        assert len(listed._option_render_cache) == kept


@pytest.mark.parametrize("present", [False, True])
async def test_a_toast_over_chinese_text_leaves_no_cell_unpainted(present):
    """A notification's left edge falls on half of a Chinese character (the saved-screenshot toast
    over attention/positions in Chinese at 80×24); the terminal blanks the other half in its default
    colours, a cell Textual would not send again. In the app the toast's rows are then repainted
    whole (fails without it); `rnntui present` draws a frame laid out for a toast whole already
    (WholeFrames). Either way, after each of three stacked toasts and after they go, the terminal
    shows what a full frame draws."""
    from rich.console import Console
    from rnntui.deck import load
    from rnntui.i18n import set_language
    from rnntui.present import PresentApp

    set_language("zh")
    try:
        if present:
            deck = load("lecture")
            app = PresentApp(deck, start=next(i for i, f in enumerate(deck.frames) if f.address == "attention/positions"))
        else:
            app = RnnApp("attention", "positions", lang="zh")
        console = Console(color_system="truecolor", force_terminal=True, width=80, height=24)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            shown = replaying(app, console)
            for step in ("toast", "toast", "toast", "clear"):
                if step == "toast":
                    app.notify("已保存 rnntui-shots/attention-positions-d64-042348.svg", title="截图", timeout=60)
                else:
                    app.clear_notifications()
                for _ in range(4):
                    await pilot.pause()
                fresh = full_frame(app, console)
                assert ("已保存" in "".join(c for row in fresh.cells for c, _ in row)) == (step == "toast")
                assert shown.cells == fresh.cells, step
    finally:
        set_language("en")


def test_wrap_gives_the_lines_rich_wraps():
    """Readouts wrap through a fast path for lines that fit; it must give what Rich's wrap gives (text
    with Chinese that does not fit wraps its own way: test_readouts_wrap_chinese_between_characters)."""
    import random

    from rich.console import Console

    from rnntui.widgets.lines import wrap

    console = Console(width=200)
    rng = random.Random(0)
    words = ["a", "bb", "ccc", "猫", "0.237", "  ", "─", "c_t", ""]
    for _ in range(3000):
        text = Text(style=rng.choice(["", "bold"]), justify=rng.choice([None, None, "right"]))
        for _k in range(rng.randint(0, 12)):
            text.append(rng.choice(words) + rng.choice([" ", "", "\n", "  ", "\t"]), style=rng.choice([None, "red"]))
        width = rng.choice([1, 3, 8, 20, 120])
        if "猫" in text.plain and any(Text(line).cell_len > width for line in text.plain.split("\n")):
            continue
        ours = wrap(text, width, console)
        rich = compact(text.copy()).wrap(console, width)
        assert [(content_key(a), a.end) for a in ours] == [(content_key(b), b.end) for b in rich], (text.plain, width)


def test_readouts_wrap_chinese_between_characters():
    """Rich wraps at spaces only: a Chinese readout ended its line early before a Latin word or a number
    ("跌破 float32 最小正规数：" / "第 178 跳"; a newcomer's trial). Text with Chinese that does not fit
    is cut where cells.wrap cuts it: every character kept in order with its style, lines full."""
    from rich.console import Console

    from rnntui.widgets.cells import wrap as cells_wrap
    from rnntui.widgets.lines import wrap

    text = Text.assemble(("跌破 float32 最小正规数：", "dim"), ("第 178 跳 (原文 161)", "bold"),
                         "   超过 float32 最大值：从不   终点（第 199 跳） 3.36e-43")
    for width in (12, 20, 30, 44):
        lines = wrap(text, width, Console(width=200))
        assert [line.plain for line in lines] == cells_wrap(text.plain, width)
        assert all(line.cell_len <= width for line in lines)
        for line in lines:  # each character keeps its style
            for k, ch in enumerate(line.plain):
                at = text.plain.index(line.plain) + k
                assert line.get_style_at_offset(Console(), k) == text.get_style_at_offset(Console(), at), (ch, width)
    # (第 stays with its number: "…最小正规数：第" / "178 跳" parted them, a Chinese student's trial)
    assert [line.plain for line in wrap(text, 30, Console())][:2] == ["跌破 float32 最小正规数：", "第 178 跳 (原文 161)   超过"]


def test_a_no_break_space_holds_its_words_together_and_their_styles():
    """Rich's wrap breaks at U+00A0 too: parallel/timing's "both < 1 ms" broke between "1" and "ms" at 80
    columns (a trial). Held, the words move to the next line together; every other break is Rich's."""
    from rich.console import Console

    from rnntui.widgets.lines import wrap

    text = Text.assemble(("runs at 4.5× its rate; both", ""), (" <\u00a01\u00a0ms", "bold"), (" below T", ""))
    for width in range(12, 40):
        lines = wrap(text, width, Console())
        rich = compact(Text(text.plain.replace("\u00a0", "_"))).wrap(Console(), width)
        assert [line.plain.replace("\u00a0", "_") for line in lines] == [line.plain for line in rich], width
        held = next(line for line in lines if "ms" in line.plain)
        assert "<\u00a01\u00a0ms" in held.plain
        at = held.plain.index("ms")
        assert held.get_style_at_offset(Console(), at) == Style.parse("bold")


def test_segments_style_every_cell_as_rich_does():
    """Lines cut a line's spans straight when they are in order; every cell must keep the style Rich
    gives it (overlapping spans go to Rich), and a line without spans keeps its own style."""
    import random

    from rich.console import Console
    from rich.segment import Segment

    from rnntui.widgets.lines import segments

    console = Console(width=200)
    rng = random.Random(1)

    def cells(segs, base):
        return [(ch, base + (seg.style or base)) for seg in segs for ch in seg.text]

    base = console.get_style("on #101010")
    for _ in range(2000):
        text = Text("".join(rng.choice("ab猫 ") for _k in range(rng.randint(0, 20))), style=rng.choice(["", "bold", "dim"]))
        for _k in range(rng.randint(0, 5)):
            start = rng.randint(0, len(text))
            text.stylize(rng.choice(["red", "bold", "reverse", "#ff0000 on #00ff00"]), start, rng.randint(start, len(text)))
        if rng.random() < 0.5:  # spans in order and apart, as pictures build them
            text = Text(style=text.style)
            for _k in range(rng.randint(0, 6)):
                text.append(rng.choice(["a", "猫 ", "", "bb"]), style=rng.choice([None, "red", "bold reverse"]))
        rich = list(text.render(console)) if text.spans else [Segment(text.plain, console.get_style(text.style))]
        assert cells(segments(text, console), base) == cells(rich, base), (text.plain, text.spans)
        assert [(ch, seg.style) for seg in segments(text, console, base) for ch in seg.text] == cells(rich, base)
    assert segments(Text("ab", style="bold"), console)[0].style.bold  # Rich's render would drop it


async def test_lines_draw_what_textuals_styles_cache_draws():
    """Plain Lines widgets hand their strips to the compositor themselves (Textual would wrap and filter
    each one again at every frame): cell for cell what Textual's own path draws, cropped or whole; a
    widget with a border or padding still goes through Textual. Plain ones are made through Textual's
    ANSI-to-truecolour filter as they are drawn (`folding`): an ANSI red and a dim run come out as
    Textual's filter makes them."""
    from textual.widget import Widget

    from rnntui.widgets.lines import TextLines, folding

    class Two(App):
        CSS = "#boxed { border: round red; padding: 0 1; } TextLines { background: #203040; color: #e0e0e0; }"

        def compose(self):
            yield TextLines(id="plain")
            yield TextLines(id="boxed")

    app = Two()
    async with app.run_test(size=(40, 12)) as pilot:
        for name in ("plain", "boxed"):
            app.query_one(f"#{name}", TextLines).update(Text.assemble(("bold ", "bold red"), ("red", "#ff0000"), (" dim", "dim"), " text\n"
                                                                     "猫 second line"))
        await pilot.pause()
        plain, boxed = app.query_one("#plain", TextLines), app.query_one("#boxed", TextLines)
        assert plain._bare() and not boxed._bare()
        assert folding(app.get_line_filters(), plain._look()[1])
        for widget in (plain, boxed):
            w, h = widget.size
            for crop in (Region(0, 0, w, h), Region(3, 1, w - 5, h - 1)):
                ours = widget.render_lines(crop)
                widget._styles_cache.clear()
                textual = Widget.render_lines(widget, crop)
                assert [list(s) for s in ours] == [list(s) for s in textual]
        assert "猫" in "".join(seg.text for seg in plain.render_lines(Region(0, 0, *plain.size))[1])


@pytest.mark.parametrize("address", ["parallel/timing", "seq2seq/visibility", "lstm/params"])
async def test_a_view_redrawn_at_its_size_as_the_app_opens_is_as_tall_as_its_content(address):
    """Opened on parallel/timing at 120x40, its table showed 5 of its 8 rows (the 1024 and 4096 rows
    missing) until something else laid it out; seq2seq/visibility 8 of 14; lstm/params' bars 2 rows of
    the 4 its view asks for at that height. The view drew once before it had a size and again at its
    size; Textual measured the first content in a layout between the two asks and kept that measure
    (each ask now counts: quiet.lay_out). Every widget of the figure that is as tall as its content
    is: its height is what it measures now."""
    from textual.widget import Widget

    app = RnnApp(*address.split("/"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        sizes = [(w.id or type(w).__name__, w.size.height, w.get_content_height(w.parent.size, app.size, w.size.width))
                 for w in app.topic_screen().query("*")
                 if isinstance(w, Widget) and not w.is_container and w.size.width > 0 and w.styles.height
                 and w.styles.height.is_auto and not w.styles.max_height and not w.styles.min_height
                 and all(a.display for a in w.ancestors_with_self if isinstance(a, Widget))]
        assert len(sizes) >= 3 and all(height == wanted for _id, height, wanted in sizes), sizes


async def test_help_opened_again_renders_its_tables_only_when_what_it_shows_changed(monkeypatch):
    """Help is a new screen at every `?`; its tables were rendered again each time (~11 ms of ~25 ms).
    Now they are kept per text and width: opened again unchanged, nothing is rendered; after a step,
    help shows the new step (a table rendered again)."""
    from rich.console import Console, Group

    from rnntui.widgets.lines import RenderedLines

    rendered = []
    richs = Console.render_lines
    monkeypatch.setattr(Console, "render_lines", lambda self, renderable, *a, **k: (
        rendered.append(renderable) if isinstance(renderable, Group) else None, richs(self, renderable, *a, **k))[1])
    monkeypatch.setattr(RenderedLines, "_kept", {}, raising=False)
    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=(100, 30)) as pilot:
        def shown() -> str:
            lines = app.screen.query_one(RenderedLines).rendered(app.screen.query_one(RenderedLines).size.width)
            return "\n".join("".join(words for words, _style in line) for line in lines)

        async def opened() -> str:
            await pilot.press("question_mark")
            await pilot.pause()
            text = shown()
            await pilot.press("escape")
            await pilot.pause()
            return text

        first = await opened()
        assert len(rendered) == 1
        assert await opened() == first and len(rendered) == 1
        state = app.topic_screen().state
        axis = state.AXIS
        await pilot.press("right")
        moved = app.topic_screen().state
        assert getattr(moved, axis) != getattr(state, axis)
        after = await opened()
        assert len(rendered) == 2 and after != first
        row = next(line for line in after.splitlines() if line.startswith(axis + " "))
        assert row.split()[1] == moved.param(axis).show(getattr(moved, axis))


@pytest.mark.parametrize("width", [44, 96])
async def test_rendered_lines_draw_what_a_static_draws(width):
    """Help's tables go through RenderedLines (rendered once per width, not at every layout): as tall
    as a Static showing the same renderable at that width and, row by row, the same cells and styles."""
    from textual.containers import Vertical
    from textual.widgets import Static as TextualStatic

    from rnntui.help import help_renderable
    from rnntui.widgets.lines import RenderedLines

    topic_screen = topic("attention")()
    topic_screen.index = [f.id for f in topic_screen.FIGURES].index("positions")  # toggle keys: rows of their own

    class Two(App):
        CSS = f"Vertical {{ width: {width}; height: auto; }} Vertical > * {{ background: #203040; color: #e0e0e0; }}"

        def compose(self):
            with Vertical(id="ours"):
                yield RenderedLines(help_renderable(topic_screen))
            with Vertical(id="textual"):
                yield TextualStatic(help_renderable(topic_screen))

    app = Two()
    async with app.run_test(size=(100, 200)) as pilot:
        await pilot.pause()
        ours, textual = app.query_one(RenderedLines), app.query_one(TextualStatic)
        assert ours.size == textual.size and ours.size.height > 30
        crop = Region(0, 0, *ours.size)

        def cells(widget) -> list:  # each cell: its character and background, and colour and attributes
            return [[(ch, s.style.bgcolor, None if ch == " " else s.style.without_color, s.style.color)[:2 if ch == " " else 4]
                     for s in strip for ch in s.text] for strip in widget.render_lines(crop)]

        rows = cells(ours)
        assert cells(textual) == rows
        text = "\n".join("".join(cell[0] for cell in row) for row in rows)
        assert "cycle" in text and "toggle_" in text and "escape or ? closes this" in text


async def test_lines_follow_a_style_change_above_them():
    """Lines remember their style between frames; a background set on an ancestor, or a class that
    changes one, must still reach their cells at the next frame."""
    from textual.containers import Vertical

    from rnntui.widgets.lines import TextLines

    class Nested(App):
        CSS = "Vertical { background: #102030; } Vertical.-warm { background: #603010; }"

        def compose(self):
            with Vertical():
                yield TextLines()

        def on_mount(self):
            self.query_one(TextLines).update("some words")

    def background(widget):
        strip = widget.render_lines(Region(0, 0, *widget.size))[0]
        return {seg.style.bgcolor.get_truecolor() for seg in strip if seg.style and seg.style.bgcolor}

    app = Nested()
    async with app.run_test(size=(30, 5)) as pilot:
        lines = app.query_one(TextLines)
        await pilot.pause()
        assert background(lines) == {(0x10, 0x20, 0x30)}
        app.query_one(Vertical).add_class("-warm")
        await pilot.pause()
        assert background(lines) == {(0x60, 0x30, 0x10)}
        app.query_one(Vertical).styles.background = "#00ff00"
        await pilot.pause()
        assert background(lines) == {(0, 0xff, 0)}


def test_text_whose_lines_fit_is_drawn_as_runs_cell_for_cell_as_through_rich():
    """Readouts and pictures whose lines fit are cut into runs without Rich's split and render; every
    cell (character and style) and every line must come out as the Rich path draws them."""
    import random
    from types import SimpleNamespace

    from rich.console import Console

    from rnntui.widgets.lines import Lines, TextLines, wrap
    from rnntui.widgets.picture import Picture

    console = Console(width=200)
    fake = SimpleNamespace(app=SimpleNamespace(console=console))
    base = console.get_style("#e0e0e0 on #101010")
    rng = random.Random(5)

    def cells(lines, width):
        return [[(ch, seg.style) for seg in Lines.strip(fake, line, width, base) for ch in seg.text] for line in lines]

    as_runs = 0
    for _ in range(3000):
        text = Text(style=rng.choice(["", "bold", "italic #ff0000"]), justify=rng.choice([None, None, "center"]))
        for _k in range(rng.randint(0, 8)):
            text.append(rng.choice(["a", "猫 ", "", "bb cc", "\n", "x\ny", "longer words here ", "\t"]),
                        style=rng.choice([None, "red", "bold reverse", "dim"]))
        if rng.random() < 0.2:  # overlapping spans: Rich's way
            start = rng.randint(0, len(text))
            text.stylize("reverse", start, rng.randint(start, len(text)))
        width = rng.randint(1, 40)
        widget = SimpleNamespace(_text=text, app=fake.app)
        lines = TextLines.divide(widget, width)
        as_runs += bool(lines) and isinstance(lines[0], list)
        assert cells(lines, width) == cells(wrap(text, width, console), width), (text, width)
        assert cells(Picture.divide(widget, width), width) == cells(text.split("\n", allow_blank=True), width)
    assert as_runs > 500  # the runs path was taken, not only Rich's


async def test_the_first_frame_the_terminal_gets_is_a_whole_one():
    """Textual throws away the frames drawn in its start-up batch: none is drawn there (it cost ~7 ms
    of the start), and the first one sent after must be the whole screen (it was a partial update, and
    the terminal showed the figure without its panel's border until a later repaint)."""
    from textual._compositor import LayoutUpdate

    from rnntui.app import RnnApp

    app, sent, thrown = RnnApp("recurrence"), [], []
    display = app._display

    def record(screen, renderable):
        if renderable is not None:
            (thrown if app._batch_count else sent).append(renderable)
        return display(screen, renderable)

    app._display = record
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not thrown
        assert sent and isinstance(sent[0], LayoutUpdate)
        assert any("╭─" in strip.text for line in sent[0].strips for strip in line)  # the panel's border is in it


PRELOAD = """
import sys
from rnntui import topics
assert not any(m.startswith("rnntui.screens.") for m in sys.modules if m != "rnntui.screens.base"), "imported already"
thread = topics.preload()
thread.join()
print(" ".join(sorted(m for m in sys.modules if m.startswith("rnntui.screens.") or m in ("numpy", "numpy.random", "rnntui.svg"))))
from rnntui.engine import attention
from rnntui.figures import serving
print(attention.scaling_reading.cache_info().currsize, serving._recall.cache_info().currsize)
"""


def test_preload_imports_every_topic_in_a_thread():
    """What the app does after a second without keys: every topic's screen (and numpy) imported off
    the event loop's thread, so a later `n` (or ctrl+s) pays no import, and the slowest first readings made."""
    import subprocess
    import sys

    from rnntui.topics import IDS

    r = subprocess.run([sys.executable, "-c", PRELOAD], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    modules, read_ahead = r.stdout.splitlines()
    assert set(modules.split()) >= {"numpy", "numpy.random", "rnntui.svg", *(f"rnntui.screens.{t}" for t in IDS)}
    # the slow first readings are in their caches: attention/scaling's 7 d_k scaled and unscaled,
    # serving/wayback's capacity curve
    assert read_ahead.split() == ["14", "1"]


def test_opening_a_topic_waits_for_a_running_preloads_imports(monkeypatch):
    """Two threads importing modules that import each other can see half-built modules: `topic()`
    lets a running preload's imports finish first."""
    import threading
    import time

    from rnntui import topics

    done, imported = [], threading.Event()

    def slow() -> None:
        time.sleep(0.2)
        done.append(True)
        imported.set()

    thread = threading.Thread(target=slow)
    monkeypatch.setattr(topics, "_preloading", [imported])
    topics.topic.cache_clear()
    thread.start()
    topics.topic("gradients")
    assert done == [True]
    thread.join()


async def test_the_preload_waits_for_a_quiet_moment(monkeypatch):
    """Keys came within the last half second: the preload is put off (importing numpy beside a
    burst of keys would slow them); after a quiet half second it runs, once."""
    import time

    from rnntui import app as app_module

    calls = []
    monkeypatch.setattr(app_module.topics, "preload", lambda: calls.append(1))
    app = RnnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")
        later = []
        monkeypatch.setattr(app, "set_timer", lambda delay, callback: later.append((delay, callback)))
        app.preload()
        assert calls == [] and later == [(app_module.QUIET, app.preload)]
        app._last_input = time.monotonic() - 1.0
        app.preload()
        assert calls == [1] and len(later) == 1


async def test_a_new_topic_is_not_restyled_on_resume_but_one_shown_again_after_a_theme_change_is(monkeypatch):
    """Textual restyles a whole screen at each resume, twice when a topic opens (~9 ms each) though its
    widgets were just styled as they mounted. A topic shown again after another topic's first visit
    (new CSS) is restyled, and one that was away while the theme changed comes back in the new theme,
    cell for cell as a fresh app draws it."""
    from textual.css.stylesheet import Stylesheet

    # (attention's first visit brings widgets whose CSS recurrence's did not: its heat maps)
    walks = spy(monkeypatch, Stylesheet, "update_nodes", list)  # each call's nodes
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await app.goto("attention")
        await pilot.pause(0.2)
        opened = app.screen
        assert not [nodes for nodes in walks if opened in nodes]
        walks.clear()
        await app.goto("recurrence")
        await pilot.pause(0.2)
        assert [nodes for nodes in walks if app.screen in nodes]  # one shown again is restyled
        app.action_toggle_theme()
        await pilot.pause()
        await app.goto("attention")
        await pilot.pause(0.2)
        theme, back = app.theme, screen_cells(app)
    fresh = RnnApp("attention", theme=theme)
    async with fresh.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        assert screen_cells(fresh) == back


async def test_a_topic_shown_again_is_not_restyled_when_the_rules_did_not_change_meanwhile(monkeypatch):
    """Every `n` back to a topic restyled its whole screen (6-13 ms a switch, ~25 widgets). Its widgets
    keep their styles unless the CSS rules changed while it was away (a topic opened for the first
    time brings its widgets' CSS): gradients comes back from recurrence, whose CSS was already there,
    unrestyled and cell for cell as a fresh app draws it."""
    from textual.css.stylesheet import Stylesheet

    walks = spy(monkeypatch, Stylesheet, "update_nodes", list)  # each call's nodes
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await app.goto("gradients")  # brings gradients' CSS: recurrence's rules changed meanwhile
        await pilot.pause(0.2)
        await app.goto("recurrence")
        await pilot.pause(0.2)
        walks.clear()
        await app.goto("gradients")
        await pilot.pause(0.2)
        assert not [nodes for nodes in walks if app.screen in nodes]
        back = screen_cells(app)
    fresh = RnnApp("gradients")
    async with fresh.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        assert screen_cells(fresh) == back


async def test_a_new_topics_first_frame_does_not_wait_for_the_update_timer(monkeypatch):
    """A screen's update timer ticks first a whole period after it starts (1/60 s): a new topic's
    first frame is drawn as soon as nothing holds it. With the period made 10 s, it still comes."""
    import textual.screen
    from textual._compositor import LayoutUpdate

    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 10.0)
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        sent, original = [], app._display
        app._display = lambda screen, update: sent.append((screen, type(update))) or original(screen, update)
        await app.goto("gradients")
        await asyncio.sleep(0.5)  # (Pilot's pause would draw it itself)
        assert (app.screen, LayoutUpdate) in sent


@pytest.mark.parametrize("topic_id", ["lstm", "gradients", "attention"])
async def test_a_figures_first_visit_reaches_the_terminal_in_one_frame(topic_id):
    """tab to a figure not shown yet: the first frame sent has every row that changes (the strip, the
    panel's title, the prose, the view, the parameter line), not the view alone with the rest ~40 ms
    later (Textual's update timer drew while the other widgets' changes waited in the screen's queue),
    and the footer's keys when they change (attention: qkv's m, w, x give way to scaling's s), not
    recomposed after that frame as Textual's footer does."""
    app = RnnApp(topic_id)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        changed, sent = await rows_after(app, "tab")
        assert app.topic_screen().index == 1 and {2, 3} <= changed
        assert (29 in changed) == (topic_id == "attention")  # the footer's row
        assert changed <= sent[0]


async def test_a_tab_repaints_the_panels_edges_not_the_whole_panel():
    """A tab gives the panel a new title (its top edge) and "n/N" (its bottom edge). Textual's
    border_title repainted the whole panel: all its rows rendered again, ~2.6 ms of a tab at 120x40.
    Now the two edge rows only, with the new words on them."""
    from rnntui.i18n import _

    app = RnnApp("attention")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("tab", "shift+tab")  # (the second figure's view is mounted)
        await pilot.pause(0.2)
        screen = app.topic_screen()
        panel, asked = screen.query_one("#panel"), []
        refresh = panel.refresh
        panel.refresh = lambda *regions, **kw: (asked.append(regions), refresh(*regions, **kw))[1]
        await pilot.press("tab")
        await pilot.pause(0.2)
        rows, f = screen_rows(app), screen.figure
        top, bottom = panel.region.y, panel.region.bottom - 1
        assert f"{_(f.title)} · {f.refs}" in rows[top] and f"2/{len(screen.FIGURES)}" in rows[bottom]
        offset = panel.region.y + panel.styles.gutter.top
        assert sorted(offset + r.y for regions in asked for r in regions) == [top, bottom]
        assert all(len(regions) == 1 and regions[0].height == 1 for regions in asked)


async def test_a_frame_waits_for_a_change_a_widget_has_not_posted_yet():
    """A Textual widget that changes (the panel's title on a tab) tells the screen only when it is next
    idle, in its own task; the screen's update timer, in another, could tick first and draw the frame
    without that row, then again ~1 frame later (a figure's first frame without a row, ~1 run in 100).
    Here the panel is busy for 50 ms when tab is pressed: the first frame still has every row the tab
    changed."""
    app = RnnApp("attention")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("tab", "shift+tab")  # (the second figure's view is mounted)
        await pilot.pause(0.2)
        app.topic_screen().query_one("#panel").call_later(asyncio.sleep, 0.05)
        changed, sent = await rows_after(app, "tab")
        assert app.topic_screen().index == 1 and {2, 3, 29} <= changed  # (the title's row, the prose's, the footer's)
        assert changed <= sent[0]


async def rows_after(app, key: str) -> tuple[set, list]:
    """The screen's rows that `key` changed, and the rows each frame sent after it covered (all of
    them for a full frame)."""
    from textual import events
    from textual._compositor import CompositorUpdate, LayoutUpdate

    height, before, sent, original = app.size.height, screen_rows(app), [], app._display

    def display(screen, update):
        if isinstance(update, CompositorUpdate):
            sent.append(set(range(height)) if isinstance(update, LayoutUpdate) else {y for y, _, _ in update.spans})
        return original(screen, update)

    app._display = display
    app.post_message(events.Key(key, None))
    await drawn(sent)
    app._display = original
    return {y for y, (old, new) in enumerate(zip(before, screen_rows(app))) if old != new}, sent


async def drawn(frames: list) -> None:
    """Until a key's first frame is in `frames` (3 s at most: ~50 ms here, but a loaded machine, CI
    with -n 2, once took more than 0.4 s over a figure's first visit), then 0.4 s for all to be drawn
    (Pilot's pause would draw itself)."""
    for _ in range(150):
        if frames:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.4)


async def first_frame_and_last(app, key: str) -> tuple[list[str], list[str]]:
    """The screen's rows as the terminal has them after the first frame sent once `key` is pressed,
    and once all is drawn."""
    from textual import events
    from textual._compositor import CompositorUpdate

    first, original = [], app._display

    def display(screen, update):
        done = original(screen, update)
        if isinstance(update, CompositorUpdate) and not first:
            first.append(screen_rows(app))  # what the compositor has drawn is what was sent
        return done

    app._display = display
    app.post_message(events.Key(key, None))
    await drawn(first)
    app._display = original
    assert first, f"no frame within 3 s of {key}"
    return first[0], screen_rows(app)


@pytest.mark.parametrize("address,before", [("lstm/params", "gru"), ("serving/kvcache", "window")])
async def test_a_view_laid_out_for_its_size_shows_whole_in_its_first_frame(address, before):
    """Views that change what they draw when they are resized (the parameter bill's bars get rows,
    serving's views turn -wide/-tall): Textual drew the frame as it laid them out, before they handled
    their Resize, so a first visit showed a wrong picture (17 rows of lstm/params) for 10–40 ms."""
    topic_id, figure_id = address.split("/")
    app = RnnApp(topic_id, before)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        first, last = await first_frame_and_last(app, "tab")
        assert app.topic_screen().figure.id == figure_id
        assert first == last


async def test_a_slide_shows_whole_in_its_first_frame():
    """rnntui present: each slide's view is laid out when it is first shown; 8 of the lecture's 50
    slides came in two or three frames, the first a wrong picture."""
    from rnntui.deck import load
    from rnntui.present import PresentApp

    deck = load("lecture")
    start = next(i for i, f in enumerate(deck.frames) if f.address == "lstm/params") - 1
    app = PresentApp(deck, start=start)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        first, last = await first_frame_and_last(app, "right")
        assert app.frame.address == "lstm/params"
        assert first == last


async def test_a_slide_of_the_same_figure_comes_in_one_frame():
    """rnntui present, slides 1 → 2 → 3 (all recurrence/track, other values) and back: one frame a
    slide, with the new view and the new foot line (slide number, values), not the view with the old
    foot and the foot ~30 ms later (the view's rows reached the screen at once, `Lines.repaint_rows`,
    and its update timer drew before the foot's Update came in; found in review)."""
    from rnntui.deck import load
    from rnntui.present import PresentApp

    deck = load("lecture")
    assert [f.address for f in deck.frames[:3]] == ["recurrence/track"] * 3
    app = PresentApp(deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.3)
        for key, index in (("space", 1), ("space", 2), ("left", 1), ("left", 0)):
            changed, sent = await rows_after(app, key)
            assert app.index == index and 29 in changed  # the foot: "n/52"
            assert len(sent) == 1, (key, index)


@pytest.mark.parametrize("start", [8, 35])
async def test_a_slide_whose_views_change_size_comes_in_one_frame(start):
    """rnntui present, slide 9 → 10 (gradients/product, its readouts change height) and 36 → 37
    (parallel/capacity → timing): Textual gave each resized widget its new virtual size, which
    asked for a second layout, and the rows came twice, the same picture ~20 ms apart (10 of the
    lecture's slide changes did)."""
    from rnntui.deck import load
    from rnntui.present import PresentApp

    app = PresentApp(load("lecture"), start=start)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.3)
        changed, sent = await rows_after(app, "space")
        assert app.index == start + 1 and len(changed) > 10
        assert len(sent) == 1


@pytest.mark.parametrize("address,size,other", [("recurrence/track", (100, 30), (101, 30)),
                                                 ("parallel/capacity", (120, 40), (119, 41))])
async def test_a_view_measured_for_its_size_is_drawn_for_it_again_after_a_resize_and_back(address, size, other):
    """The token track's box padding and the share bar's rows are set as Textual measures them for a
    size. Back at a size seen before, Textual reuses the arrangement it kept for it unless a layout
    request cleared it: with that request dropped (a second layout, not needed), the track kept the
    other size's padding and lost its x row (found in review)."""
    topic_id, figure_id = address.split("/")
    app = RnnApp(topic_id, figure_id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        before = screen_rows(app)
        await pilot.resize_terminal(*other)
        await pilot.pause(0.2)
        await pilot.resize_terminal(*size)
        await pilot.pause(0.2)
        assert screen_rows(app) == before


async def test_a_frame_held_for_a_resize_is_not_drawn_into_a_batch():
    """A frame held while a widget handles its Resize, released while the app holds its drawing in a
    batch (Textual throws away what is drawn then), is drawn once the batch is over, not lost."""
    from textual._compositor import CompositorUpdate
    from textual.containers import Horizontal

    from rnntui.screens.whole import WholeFrames

    class Sized(Static):
        async def on_resize(self, event) -> None:
            await asyncio.sleep(0.05)  # a handler that takes a while
            self.update(f"{event.size.width} wide")

    class Held(WholeFrames):
        def compose(self):
            with Horizontal():
                yield Sized("?", id="sized")
                yield Static("next")

    class Bare(App):
        CSS = "#sized { width: 20; }"

        def get_default_screen(self):
            return Held(id="_default")

    app = Bare()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause(0.2)
        drawn, original = [], app._display
        app._display = lambda screen, update: (isinstance(update, CompositorUpdate) and drawn.append(
            bool(app._batch_count))) or original(screen, update)
        app.query_one("#sized").styles.width = 30
        await asyncio.sleep(0.02)  # laid out, held for the handler
        app._begin_batch()
        await asyncio.sleep(0.15)  # the handler ends in the batch
        app._end_batch()
        app.screen.check_idle()
        await asyncio.sleep(0.2)
        assert True not in drawn and False in drawn
        assert "30 wide" in "".join(screen_rows(app))


async def test_a_presentation_computes_its_slides_numbers_ahead(monkeypatch):
    """rnntui present: once nobody presses keys, a thread computes every slide's numbers, from the
    shown one on, so a slide's key computes nothing (serving/wayback's capacity curve was ~50 ms of
    its key). A slide that fails to compute stops nothing and prints nothing over the slides."""
    import threading

    from rnntui.deck import load
    from rnntui.figures.lstm import ParamsState
    from rnntui.present import PresentApp

    def broken(state):
        raise ValueError("no numbers")

    uncaught = []
    monkeypatch.setattr(threading, "excepthook", uncaught.append)
    monkeypatch.setattr(ParamsState, "read", broken)
    deck = load("lecture")
    app = PresentApp(deck, start=len(deck.frames) - 2)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.read_ahead().join()
        unread = [f.address for f in deck.frames if "_readings" not in f.state.__dict__]
        assert unread == ["lstm/params"] and uncaught == []
        calls, last = [], type(deck.frames[-1].state)
        original = last.read
        monkeypatch.setattr(last, "read", lambda state: calls.append(state) or original(state))
        await pilot.press("right")  # to the last slide: its numbers were computed ahead
        assert app.index == len(deck.frames) - 1 and calls == []


FIRST_PALETTE = """
import asyncio
import sys
from textual.command import CommandList, CommandPalette
from rnntui import topics
from rnntui.app import RnnApp

def imported():
    return all(f"rnntui.screens.{t}" in sys.modules for t in topics.IDS)

async def main():
    app = RnnApp()  # headless: no preload, as in a served session
    drawn = []
    display = app._display

    def record(screen, renderable):
        if not app._batch_count:
            drawn.append((isinstance(app.screen, CommandPalette), imported()))
        return display(screen, renderable)

    app._display = record
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not imported(), "imported already"
        await pilot.press("ctrl+p")
        for _ in range(100):
            await pilot.pause(0.05)
            if app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count:
                break
        shown = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
    print(drawn)
    print("|".join(shown))

asyncio.run(main())
"""


def test_the_first_palette_is_drawn_before_the_topics_it_lists_are_imported():
    """A served session never preloads: its first ctrl+p imported every topic (~150-180 ms) before the
    palette was drawn, ~220-310 ms of nothing at 120x40. The palette comes first, its list after."""
    import subprocess
    import sys

    from rnntui.topics import IDS

    r = subprocess.run([sys.executable, "-c", FIRST_PALETTE], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    drawn, shown = r.stdout.split("\n", 1)
    assert (True, False) in eval(drawn)  # a frame of the palette, the topics not imported yet
    for topic_id in IDS:  # and then its list goes to every topic
        assert f"Go to {topic_id}/" in shown, topic_id


def test_a_topic_that_fails_to_import_in_the_preload_prints_nothing_over_the_app(monkeypatch):
    """Python prints a thread's uncaught error to stderr, over the app's screen; opening that topic
    imports it again and reports the error where the app reports errors."""
    import threading

    from rnntui import topics

    def broken(name):
        raise ImportError(f"no {name}")

    uncaught = []
    monkeypatch.setattr(threading, "excepthook", uncaught.append)
    monkeypatch.setattr(topics.importlib, "import_module", broken)
    topics.preload().join()
    assert uncaught == [] and topics._preloading == []


async def test_no_thread_to_spare_leaves_the_app_running_and_topics_opening(monkeypatch):
    """Under a thread limit the preload cannot start: the app goes on, and opening a topic does not
    wait for imports that will never come."""
    import threading

    from rnntui import topics

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    app = RnnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app._last_input = 0.0
        app.preload()
        assert topics._preloading == []
        await app.goto("gradients")
        await pilot.pause()
        assert app.topic_screen().TOPIC_ID == "gradients"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_helps_text_stays_put_after_its_first_frame(size):
    """? over a figure: help's text is taller than its box, so a scrollbar comes with it, a frame after
    the text. Its room is kept from the start: the first frame showed the text one column wider, the
    next re-wrapped it (the keys table's columns jumped)."""
    from rnntui.help import HelpScreen
    from rnntui.widgets.lines import RenderedLines

    app = RnnApp("attention", "positions")
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        first, last = await first_frame_and_last(app, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one(RenderedLines).region  # the text, without the scrollbar's cells
        text = [[row[box.x:box.right] for row in rows[box.y:box.bottom]] for rows in (first, last)]
        assert any("attention/positions" in row for row in text[1])  # help's first line
        assert text[0] == text[1]


async def test_a_tab_draws_the_prose_and_the_strip_at_their_new_size():
    """The prose and the figure strip are drawn through Lines (as Statics a tab spent ~2.5 ms on
    them). At 80×24 seq2seq/matrix's prose wraps to one line and scoring's to two: a tab grows the
    prose and moves the view down, shift+tab shrinks it back with no line of the longer prose left on
    screen; the strip marks the focused figure each time."""
    from rich.text import Text as RichText

    from rnntui.i18n import _
    from rnntui.widgets.cells import wrap
    from rnntui.widgets.prose import Prose

    app = RnnApp("seq2seq", "matrix")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.topic_screen()
        prose = screen.query_one(Prose)
        shown = {}
        for key, fid in (("tab", "scoring"), ("shift+tab", "matrix")):
            await pilot.press(key)
            await pilot.pause()
            f = next(f for f in screen.FIGURES if f.id == fid)
            lines = wrap(_(f.prose), prose.size.width)
            rows = RichText.from_ansi(screen_text(app)).plain.splitlines()
            top = prose.region.y
            assert prose.size.height == len(lines)
            assert [r[prose.region.x:prose.region.right].rstrip() for r in rows[top:top + len(lines)]] == \
                [line.rstrip() for line in lines]
            strip = rows[screen.query_one("#strip").region.y]
            assert f" {fid} " in strip
            shown[fid] = (len(lines), rows)
        assert shown["scoring"][0] == 2 and shown["matrix"][0] == 1
        second = wrap(_(screen.FIGURES[1].prose), prose.size.width)[1].strip()
        assert second in "\n".join(shown["scoring"][1]) and second not in "\n".join(shown["matrix"][1])


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_whole_frame_draws_what_textual_draws_without_the_rows_hidden_behind(size, monkeypatch):
    """A whole frame (the first, a new topic's, a screenshot's) is drawn front first (chops.py): a widget
    draws only the rows where a cell is not covered by widgets in front of it. The screen behind a
    topic and the switcher behind a figure draw nothing, and every topic's frame (with a toast over
    it) is Textual's, piece for piece."""
    from textual._compositor import Compositor

    from rnntui.topics import IDS

    def pieces(chops) -> list:
        return [[(cut, list(strip)) for cut, strip in chop.items()] for chop in chops]

    drawn: dict = {}

    app = RnnApp(IDS[0])
    async with app.run_test(size=size, notifications=True) as pilot:
        for topic_id in IDS:
            await app.goto(topic_id)
            app.notify("猫坐在垫子上 a toast over the figure", timeout=60)
            compositor = app.screen._compositor
            for _ in range(40):  # the toast is laid out a few refreshes later
                await pilot.pause(0.05)
                if "Toast" in {type(widget).__name__ for widget in compositor.visible_widgets}:
                    break
            with monkeypatch.context() as patch:
                drawn.clear()
                record_drawing(patch, drawn)
                ours = pieces(compositor._render_chops(compositor.size.region, lambda y: True))
            assert ours == pieces(Compositor._render_chops(compositor, compositor.size.region, lambda y: True))
            names = {type(widget).__name__ for widget in drawn}
            assert type(app.screen).__name__ not in names and "ContentSwitcher" not in names, topic_id
            assert {"Toast", "Panel"} <= names, topic_id


async def test_the_first_screens_widgets_are_mounted_once(monkeypatch):
    """Textual's App mounts what it composes into its first screen along with that screen's own
    widgets, mounted already by the screen: ~2 ms and a layout before the first frame. RnnApp composes
    nothing, so its first topic's widgets are mounted once, and the app still finds its screen."""
    from textual.widget import Widget

    mounts: list = []
    mount = Widget.mount
    monkeypatch.setattr(Widget, "mount", lambda self, *widgets, **kw: (mounts.append(self), mount(self, *widgets, **kw))[1])
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert mounts.count(screen) == 1
        assert app.default_screen is screen and app.query_one("Panel").screen is screen
