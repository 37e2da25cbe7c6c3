"""The keyboard contract (SPEC §3) through Pilot, on the recurrence screen."""
import pytest
from rich.text import Text

from rnntui.app import RnnApp
from rnntui.help import HelpScreen
from rnntui.keys import CONTRACT

from commands import run_command


def screen_of(app):
    return app.topic_screen()


async def test_stepping_choosing_changing_and_reset():
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen_of(app)
        assert s.figure.id == "track" and s.state.step == 0
        await pilot.press("right", "right")
        assert s.state.step == 2
        await pilot.press("end")
        assert s.state.step == 7
        await pilot.press("home")
        assert s.state.step == 0
        await pilot.press("plus")  # the first parameter, W_h
        assert s.state.w_h == pytest.approx(1.0)
        await pilot.press("down", "minus")  # W_x
        assert s.state.w_x == pytest.approx(0.6)  # a press is 0.2 here: -2…2 in 20 presses
        await pilot.press("r")
        assert s.state == type(s.state)()


async def test_play_advances_and_space_pauses():
    from textual.widgets._footer import FooterKey

    def says(app):  # what the footer shows for space
        return [k.description for k in app.screen.query(FooterKey) if k.key == "space" and k.display]

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen_of(app)
        assert says(app) == ["play"]
        await pilot.press("space")
        await pilot.pause(1.2)
        moved = s.state.step
        assert moved >= 2
        assert says(app) == ["pause"]  # while it plays, space pauses: the footer says so
        await pilot.press("space")
        await pilot.pause(0.5)
        assert s.state.step == moved and s.playing is None
        assert says(app) == ["play"]


async def test_leaving_a_playing_figure_stops_it_and_its_edge_says_so():
    """home, space, n, p: the edge said "1/3  ▶ playing" over a figure no longer playing, beside a footer
    saying "space play" (a power user's trial); help and the palette over it stopped it the same way."""
    from rnntui.widgets.panel import Panel

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen_of(app)
        for away in (("n", "p"), ("question_mark", "escape"), ("ctrl+p", "escape")):
            await pilot.press("home", "space")
            assert s.playing and "playing" in s.query_one("#panel", Panel)._edges[1]
            await pilot.press(*away)
            await pilot.pause()
            assert screen_of(app) is s and s.playing is None, away
            assert "playing" not in s.query_one("#panel", Panel)._edges[1], away


async def test_play_takes_a_listed_value_a_tick_slowly_enough_to_see():
    """attention/scaling's d_k takes 7 values: played from 1, it is still playing 0.6 s later (at the
    old pace of 0.05 s a tick it had ended in 0.3 s), and it stops on the last value. (Whether it has
    left 1 by then hangs on a timer that a loaded machine can delay, so that is not asked.)"""
    app = RnnApp("attention", "scaling")
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen_of(app)
        await pilot.press("home", "space")
        await pilot.pause(0.6)
        assert s.playing is not None and s.state.d_k < 1024
        await pilot.pause(3.0)
        assert s.playing is None and s.state.d_k == 1024


async def test_figures_toggles_help_and_topic_keys():
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen_of(app)
        await pilot.press("tab", "tab")
        assert s.figure.id == "readout"
        await pilot.press("h")
        assert s.state.head == "seq"
        await pilot.press("shift+tab")
        assert s.figure.id == "tanh"
        await pilot.press("right")
        assert s.state.z == 0.5  # -4…4 in 16 presses of 0.5 (shift+→: 0.25)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        from rnntui.help import help_renderable
        from rich.console import Console
        console = Console(width=100, record=True, file=__import__("io").StringIO())
        console.print(help_renderable(app.screen.topic_screen))
        shown = console.export_text()
        assert "recurrence/tanh" in shown and "a number from -4.00 to 4.00" in shown  # the focused figure
        heads = next(line.split() for line in shown.splitlines() if line.split()[:2] == ["key", "does"])
        assert heads == ["key", "does", "id,", "to", "remap", "it"]  # the ids' column says what they are
        assert any(line.split()[:1] + line.split()[-1:] == ["→", "step_forward"] for line in shown.splitlines())
        box = app.screen.query_one("HelpScroll")  # the keys run past the box at 80x24: its edge says so
        assert box.max_scroll_y > 0 and box.border_subtitle == "↓ more below · escape closes"  # (from the first page)
        await pilot.press("end")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y and box.border_subtitle == "escape closes"
        keys = [(k.key_display, k.description) for k in app.screen.query("FooterKey") if k.display]
        assert keys == [("esc", "close")]  # help's footer: the topic's "space play", "n topic" do nothing here
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("2")
        assert app.current_mode == "gradients"
        await pilot.press("n")
        assert app.current_mode == "lstm"
        await pilot.press("1")
        assert app.current_mode == "recurrence" and app.topic_screen().figure.id == "tanh"  # kept its place


async def test_ctrl_s_writes_an_svg_and_says_where(tmp_path, monkeypatch):
    """In $RNNTUI_SHOTS, a leading ~ the home folder (quoted, '~/shots' made a folder named ~: a review)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RNNTUI_SHOTS", "~/shots")
    monkeypatch.chdir(tmp_path)
    tmp_path = tmp_path / "shots"
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "ctrl+s")
        await app.workers.wait_for_complete()  # made in a thread
        await pilot.pause()
        files = list(tmp_path.glob("*.svg"))
        assert len(files) == 1 and files[0].name.startswith("recurrence-track-t1-")
        assert "0.380" in files[0].read_text()  # h_0 = tanh(0.8 · 0.5)
        assert any(str(files[0].name) in str(n.message) for n in app._notifications)



def test_a_shot_never_replaces_a_file_even_one_that_came_after_the_look(tmp_path, monkeypatch):
    """Two ctrl+s in a second make name-2; a file another app saved there after the look for one (two apps,
    one folder, one second) was replaced (a review): the write itself refuses to replace."""
    from pathlib import Path

    from rnntui.shots import write_shot

    (tmp_path / "a.svg").write_text("another app's")
    assert write_shot("<svg 1>", tmp_path, "a.svg") == str(tmp_path / "a-2.svg")
    monkeypatch.setattr(Path, "exists", lambda self: False)  # as if each file came just after the look
    assert write_shot("<svg 2>", tmp_path, "a.svg") == str(tmp_path / "a-3.svg")
    assert [(tmp_path / n).read_text() for n in ("a.svg", "a-2.svg", "a-3.svg")] == ["another app's", "<svg 1>",
                                                                                     "<svg 2>"]

async def test_a_shots_notice_keeps_its_name_whole_and_says_the_whole_folder(tmp_path, monkeypatch):
    """At 80x24 "memory-distractor-position1-043828.svg" broke as "….s" / "vg", under "saved in rnntui-shots"
    (a newcomer's trial): where is that?"""
    import rnntui.app
    from textual.widgets._toast import Toast

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RNNTUI_SHOTS", raising=False)
    monkeypatch.setattr(rnntui.app.time, "strftime", lambda _format: "043828")
    app = RnnApp("memory", "distractor")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause(0.1)
        (shot,) = (tmp_path / "rnntui-shots").glob("*.svg")
        assert [n.message for n in app._notifications] == [f"{shot.name}\nsaved in {tmp_path / 'rnntui-shots'}"]
        toast = app.screen.query_one(Toast)
        assert toast.content_size.width >= len(shot.name) == len("memory-distractor-position1-043828.svg")


async def test_two_screenshots_with_one_name_make_two_files(tmp_path, monkeypatch):
    """A name holds the figure, the values set, the step and the second: ctrl+s, a parameter changed, ctrl+s in
    the same second named both shots alike and the second replaced the first (found in a newcomer's trial);
    they are named apart now (as export names its files), and a second shot of one state in one second is -2."""
    import rnntui.app

    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path))
    monkeypatch.setattr(rnntui.app.time, "strftime", lambda _format: "121049")
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.press("plus", "ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        first, second = tmp_path / "recurrence-track-t1-121049.svg", tmp_path / "recurrence-track-W_h1-t1-121049.svg"
        again = tmp_path / "recurrence-track-W_h1-t1-121049-2.svg"
        assert set(tmp_path.glob("*.svg")) == {first, second, again}
        # h_1 = tanh(0.8 · 0.5 + W_h · h_0) with h_0 = tanh(0.4) = 0.380: 0.630 at W_h 0.9, 0.653 at 1.0
        assert "0.630" in first.read_text() and "0.653" not in first.read_text()
        assert "0.653" in second.read_text() and "0.630" not in second.read_text()
        assert [n.message for n in app._notifications] == [f"{first.name}\nsaved in {tmp_path}",
                                                           f"{second.name}\nsaved in {tmp_path}",
                                                           f"{again.name}\nsaved in {tmp_path}"]
        assert "saved in" not in second.read_text()  # the first's notice, over the screen, is left out (a trial)


async def test_keys_go_on_while_a_screenshot_is_made_and_it_shows_the_screen_at_ctrl_s(tmp_path, monkeypatch):
    """A session's first screenshot takes ~0.5 s (its fonts are subset); made in the key's handler it held
    every key that long. Held here until the test lets it go: a step after ctrl+s is taken and drawn
    meanwhile, and the file shows the screen as it was at ctrl+s (h_1 = 0.630, not step 2's 0.166)."""
    import threading

    import rnntui.svg

    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path))
    go, original = threading.Event(), rnntui.svg.screen_svg

    def held(*args, **kwargs):
        assert go.wait(10)
        return original(*args, **kwargs)

    monkeypatch.setattr(rnntui.svg, "screen_svg", held)
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        try:
            await pilot.press("right", "ctrl+s", "right")
            await pilot.pause()
            assert screen_of(app).state.step == 2 and "0.166" in str(app.screen._compositor.render_update(full=True).strips)
            assert not list(tmp_path.glob("*.svg")) and not app._notifications
        finally:
            go.set()  # (else the held worker keeps the test waiting at its end)
        await app.workers.wait_for_complete()
        await pilot.pause()
        [shot] = tmp_path.glob("*.svg")
        assert shot.name.startswith("recurrence-track-t1-") and "0.630" in shot.read_text()
        assert "0.166" not in shot.read_text()
        assert [n.message for n in app._notifications] == [f"{shot.name}\nsaved in {tmp_path}"]


async def test_ctrl_s_over_help_saves_help(tmp_path, monkeypatch):
    """Help lists ctrl+s, but a modal screen takes no app keys: it did nothing there."""
    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path))
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark", "ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        [shot] = tmp_path.glob("*.svg")
        assert shot.name.startswith("recurrence-track-t0-") and "(F1+F3)" in shot.read_text()


@pytest.mark.parametrize("shots,hint", [("file", False), (None, True)])
async def test_a_screenshot_that_cannot_be_written_says_why(tmp_path, monkeypatch, shots, hint):
    """Its folder a file: the notice says why. Started in a folder it cannot write, ctrl+s said "cannot write
    rnntui-shots" and no more (an admin's trial): without RNNTUI_SHOTS set, the notice names it."""
    monkeypatch.chdir(tmp_path)
    if shots:
        monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path / shots))
    else:
        monkeypatch.delenv("RNNTUI_SHOTS", raising=False)
    folder = tmp_path / (shots or "rnntui-shots")
    folder.write_text("a file where the folder should be")
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        [note] = app._notifications
        assert note.severity == "error" and "could not save a screenshot" in note.message
        assert f"cannot write {folder}:" in note.message  # (where, whole: it said "rnntui-shots", a trial)
        assert note.message.endswith("; RNNTUI_SHOTS=FOLDER sends them elsewhere") == hint


async def test_a_screenshot_no_font_can_draw_is_not_sent_to_another_folder(tmp_path, monkeypatch):
    """Glyphs no font here has: the notice says what to install, and not "RNNTUI_SHOTS=FOLDER sends them
    elsewhere", which no folder helps (a code review); nothing is written."""
    import rnntui.svg

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RNNTUI_SHOTS", raising=False)
    monkeypatch.setattr(rnntui.svg, "cjk_files", lambda: ())  # no CJK font: attention/qkv's 那只 has none
    app = RnnApp("attention", "qkv")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        [note] = app._notifications
        assert note.severity == "error" and "could not save a screenshot: cannot draw" in note.message
        assert "install a CJK font" in note.message and "RNNTUI_SHOTS" not in note.message
        assert not (tmp_path / "rnntui-shots").exists() or not list((tmp_path / "rnntui-shots").iterdir())


async def test_a_screenshot_in_a_browser_is_downloaded_and_one_that_fails_says_why(tmp_path, monkeypatch):
    """Under `rnntui serve` the SVG goes to the browser (no file); a failure of any kind is a toast,
    not an error lost in the screenshot's worker."""
    import rnntui.svg

    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path))
    delivered = []
    app = RnnApp("recurrence")
    monkeypatch.setattr(type(app), "is_web", property(lambda self: True))
    monkeypatch.setattr(type(app), "deliver_text", lambda self, f, **kw: delivered.append((f.read(), kw)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        [(svg, kw)] = delivered
        assert svg.startswith("<svg") and "0.380" in svg and kw["open_method"] == "download"
        assert kw["save_filename"].startswith("recurrence-track-t1-") and not list(tmp_path.iterdir())
        assert [n.message for n in app._notifications] == ["Downloading the screenshot"]
        # the browser's word back, in the app's language and naming the file: Textual's own toast, for a
        # download named "screenshot", said "Saved screenshot" in English under --lang zh (a lecturer's trial)
        from textual import events

        app.post_message(events.DeliveryComplete(key="k", name=kw["name"]))
        app.post_message(events.DeliveryFailed(key="k", exception=OSError("gone"), name=kw["name"]))
        await pilot.pause()
        said = [n.message for n in app._notifications][1:]
        assert said == [f"{kw['save_filename']}\nsent to your browser (its downloads)",
                        "could not send the screenshot to the browser: gone"]

        def broken(*args, **kwargs):
            raise KeyError("no such glyph")

        monkeypatch.setattr(rnntui.svg, "screen_svg", broken)
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        last = list(app._notifications)[-1]
        assert last.severity == "error" and last.message == "could not save a screenshot: KeyError: 'no such glyph'"


def test_every_contract_key_is_bound_and_help_and_quit_lead_the_footer():
    from rnntui.keys import bindings
    bound = {b.key for b in bindings("app") + bindings("screen") + bindings("links")}
    for k in CONTRACT:
        for key in k.keys.split(","):
            assert any(key in b.split(",") for b in bound), key
    shown = [b.action for b in bindings("screen") if b.show]
    assert shown[:2] == ["app.help", "app.quit"]


async def test_palette_jumps_to_a_figure_and_sets_a_parameter():
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"lstm/bias")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        s = app.topic_screen()
        assert app.current_mode == "lstm" and s.figure.id == "bias"
        await pilot.press("ctrl+p")
        await pilot.press(*"set b_f")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        await pilot.press("ctrl+a", "ctrl+k", *"2", "enter")  # clear the prompt, type 2
        await pilot.pause(0.2)
        assert s.state.b_f == 2.0


async def test_the_value_prompt_says_its_whole_rule_and_its_problem_on_its_own_ground():
    """"W_h: a number from -2.00 to 2.00 with at most 2 decim…" at every width, and a refused value's line
    drawn over the figure's lines as if one of them (a newcomer's and a Chinese student's trials): the field
    is as wide as its rule, and the problem, hidden until there is one, has a ground of its own."""
    from rich.cells import cell_len

    from rnntui.palette import ValuePrompt

    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "set w_h")
        prompt = app.screen
        assert isinstance(prompt, ValuePrompt) and not prompt.query_one("#problem").display
        keys = [(k.key_display, k.description) for k in prompt.query("FooterKey") if k.display]
        assert keys == [("esc", "cancel")]  # its own footer: the topic's "q quit" typed a q here (a trial)
        field = prompt.query_one("Input")
        assert field.border_title == "W_h: a number from -2.00 to 2.00 with at most 2 decimals"
        assert field.size.width >= cell_len(field.border_title) + 6  # (corners, and a space each side)
        await pilot.press("ctrl+a", "ctrl+k", "q", "enter")
        await pilot.pause(0.2)
        problem = prompt.query_one("#problem")
        assert problem.display and problem.styles.background.a > 0 and problem.region.width == field.region.width


async def test_brackets_typed_or_in_a_path_are_shown_as_they_are(tmp_path, monkeypatch):
    """"set w_h [/]" in the palette, or "[/]" entered in its value prompt, ended the app (Textual read what
    was typed as markup: a review); a screenshot folder named so would have too. Each is said as typed."""
    from rnntui.palette import ValuePrompt

    folder = tmp_path / "[/]b"
    monkeypatch.setenv("RNNTUI_SHOTS", str(folder))
    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(100, 30)) as pilot:
        await run_command(pilot, "set w_h [/]")
        s = app.topic_screen()
        assert s.state.w_h == 0.9 and [n.message for n in app._notifications][-1].startswith("W_h [/]: expected")
        await pilot.press("ctrl+p", *"set w_h")
        await pilot.pause(0.3)
        await pilot.press("enter", "ctrl+a", "ctrl+k", *"[/]", "enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, ValuePrompt)
        assert str(app.screen.query_one("#problem").render()).startswith("W_h [/]: expected")
        await pilot.press("escape", "ctrl+s")
        await pilot.pause(0.5)
        assert len(list(folder.glob("*.svg"))) == 1 and str(folder) in [n.message for n in app._notifications][-1]


async def test_under_no_color_the_palettes_chosen_command_is_a_light_bar(monkeypatch):
    """Under NO_COLOR the chosen command differed from the rest by a grey 50 against 29 (about 1.3:1; a
    colour trial): Textual's reverse for it is lost on the way to the screen. It is a light bar now."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        rows = app.screen._compositor.render_update(full=True).strips

        def background(words):  # the brightness behind `words`, on the row that holds them
            for line in rows:
                for segment in (segment for strip in line for segment in strip):
                    if words in segment.text:
                        return segment.style.bgcolor.get_truecolor()[0]
            raise AssertionError(words)

        chosen, other = background("Go to recurrence/track"), background("Go to recurrence/tanh")
        assert chosen >= 200 and other <= 60


async def test_in_16_colours_the_footer_keys_are_yellow_on_black(monkeypatch):
    """TERM=screen or xterm without COLORTERM (tmux, screen, PuTTY) gives 16 colours: the footer's keys
    came out bright red on bright black, the same brightness (a trial). They are bright yellow on black
    there; elsewhere, and in a browser or headless, as they were."""
    from types import SimpleNamespace

    from rich.color import ColorSystem
    from rich.console import Console
    from textual.widgets._footer import FooterKey

    from rnntui.terminal import few_colours

    for term, colorterm, few in (("screen", "", True), ("xterm", "", True), ("xterm-256color", "", False),
                                 ("xterm", "truecolor", False)):
        console = Console(force_terminal=True, _environ={"TERM": term, "COLORTERM": colorterm})
        assert few_colours(SimpleNamespace(is_headless=False, is_web=False, console=console)) == few, term
        assert not few_colours(SimpleNamespace(is_headless=False, is_web=True, console=console))

    for few in (True, False):
        app = RnnApp("recurrence")
        async with app.run_test(size=(80, 24)) as pilot:
            app.set_class(few, "-few-colours")
            await pilot.pause()
            style = app.screen.query(FooterKey).first().get_component_rich_style("footer-key--key")
            shown = (style.color.downgrade(ColorSystem.STANDARD).number,
                     style.bgcolor.downgrade(ColorSystem.STANDARD).number)
            assert (shown == (11, 0)) == few, shown


async def test_in_16_colours_the_palette_inputs_edge_shows():
    """Textual draws the command palette's input edge black at 50% over the surface: in 16 colours,
    black on black (a 16-colour trial). There it is grey, apart from the black around it."""
    from rich.color import ColorSystem

    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_class(True, "-few-colours")
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        rows = app.screen._compositor.render_update(full=True).strips
        edge = next(seg for line in rows for strip in line for seg in strip if "▔" in seg.text)
        shown = {c.downgrade(ColorSystem.STANDARD).number for c in (edge.style.color, edge.style.bgcolor)}
        assert len(shown) == 2, shown
        text = ["".join(seg.text for strip in line for seg in strip) for line in rows]
        below = next(i for i, line in enumerate(text) if "Search for commands" in line) + 1
        assert "▁" not in text[below] and "Go to" in "".join(text[below:below + 3])  # no edge over the list


async def test_in_16_colours_the_palettes_meanings_stay_apart():
    """In 16 colours orange, red and the positive sign all became bright red (float32's curve on its
    limit lines in gradients/product), purple bright blue, grey the text's grey (a 16-colour trial). Each
    is one of the 16 apart: on the dark theme the curve bright yellow, its limits bright red."""
    from rich.color import Color, ColorSystem

    from frames import colour_codes
    from rnntui.widgets.tints import BAD, BLUE, FEW_ON_DARK, FEW_ON_LIGHT, GREY, NEGATIVE, ORANGE, POSITIVE, PURPLE, RED, _triplet

    def code(rgb):
        return Color.from_rgb(*rgb).downgrade(ColorSystem.STANDARD).number

    for few, text_grey in ((FEW_ON_DARK, 7), (FEW_ON_LIGHT, 0)):
        assert code(few[ORANGE]) == code(few[_triplet(POSITIVE)]) != code(few[RED]) == code(few[_triplet(BAD)])
        assert len({code(few[c]) for c in (ORANGE, RED, BLUE, PURPLE, GREY)}) == 5
        assert code(few[BLUE]) == code(few[_triplet(NEGATIVE)]) and code(few[GREY]) != text_grey
    app = RnnApp("gradients", "product")
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_class(True, "-few-colours")
        await pilot.pause()
        seen = colour_codes(app, 12)
        assert seen["float32 min "] == 9 and seen["●"] == 11  # the limit bright red; float32's curve yellow
        assert seen["┈┈"] == 11 and seen["━━"] == 12  # and their legend: float32 yellow, float64 blue


def test_in_16_colours_on_light_the_highlight_reads_on_white():
    """On a light theme in 16 colours the highlight (parallel/path's ● ends, the grid's worked cells) went
    out as code 33, which xterm draws (205,205,0): 1.4:1 on white (a lecturer's trial). It goes out as a
    code that keeps 3:1 on white in xterm's default colours (WCAG's bar for bold text and marks), and not
    as the text's black: the path's inner ● are bold black, its ends must differ."""
    from rich.color import Color, ColorSystem

    from frames import XTERM, contrast_on_white
    from rnntui.widgets.tints import FEW_ON_LIGHT, YELLOW

    code = Color.from_rgb(*FEW_ON_LIGHT[YELLOW]).downgrade(ColorSystem.STANDARD).number
    assert code in XTERM and code != 0 and contrast_on_white(code) >= 3, code



async def test_in_256_colours_on_light_each_colour_reads_where_the_terminal_has_one_that_keeps_its_hue():
    """Over SSH (256 colours) the light theme's purple went out as 97, 3.5:1 on its background (xterm's 253),
    the bad red 3.9:1 and orange 4.1:1 (a lecturer's trial, against the README's 4.5:1). Each colour goes
    out as one the terminal has, at 4.5:1 with its hue kept within 20°, where there is one: orange has none
    (the cube's darker ones are red or olive) and stays as it was, said in the README."""
    import colorsys

    from rich.color import Color, ColorSystem
    from rich.segment import Segment
    from rich.style import Style

    from rnntui.ink import Ink
    from rnntui.widgets.tints import ORANGE, PALETTE, POSITIVE, PURPLE, contrast, on_light

    def sent(rgb):  # what a 256-colour terminal gets for it (Rich's nearest of its colours)
        return tuple(Color.from_rgb(*rgb).downgrade(ColorSystem.EIGHT_BIT).get_truecolor())

    def hue(rgb):
        return 360 * colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0]

    app = RnnApp("recurrence", "track", theme="light")
    async with app.run_test(size=(80, 24)):
        app.set_class(True, "-256-colours")
        ink, back = Ink(app), app.screen.styles.background
        for rgb in PALETTE:
            [drawn] = ink.apply([Segment("x", Style(color=f"rgb{rgb}"))], back)
            out = tuple(drawn.style.color.triplet)
            if rgb in (ORANGE, tuple(int(v) for v in POSITIVE[4:-1].split(","))):
                assert out == on_light(rgb) and contrast(sent(out), (218, 218, 218)) >= 4
                continue
            assert contrast(sent(out), (218, 218, 218)) >= 4.5, (rgb, out)
            if rgb != (130, 130, 130):  # (the grey: no hue)
                assert abs((hue(sent(out)) - hue(rgb) + 180) % 360 - 180) <= 20, (rgb, out)
        assert sent(tuple(ink.apply([Segment("x", Style(color=f"rgb{PURPLE}"))], back)[0].style.color.triplet)) != \
            sent(on_light(PURPLE))  # (Rich's nearest of the full-colour one: the 3.5:1 of the trial)


async def test_ansi_light_darkens_the_palette_on_the_terminals_own_background():
    """ansi-light draws on the terminal's own (white) background, whose colour the app cannot see: the palette
    went out as on a dark one, orange at 2.4:1 on white (a lecturer's trial)."""
    from rich.segment import Segment
    from rich.style import Style

    from rnntui.ink import Ink
    from rnntui.widgets.tints import ORANGE, contrast

    for theme, darker in (("ansi-light", True), ("ansi-dark", False)):
        app = RnnApp("recurrence", "track", theme=theme)
        async with app.run_test(size=(80, 24)):
            back = app.screen.styles.background
            assert back.ansi is not None  # (the terminal's own)
            ink = Ink(app)
            drawn = ink.apply([Segment("x", Style(color=f"rgb{ORANGE}"))], back)[0] if ink.enabled else None
            out = tuple(drawn.style.color.triplet) if drawn else ORANGE
            assert (contrast(out, (255, 255, 255)) >= 4.5) == darker, (theme, out)

@pytest.mark.parametrize("lang, words", [("en", "q quits the app (ctrl+c does not)"), ("zh", "q 退出应用（ctrl+c 不会）")])
async def test_ctrl_c_says_how_to_quit_in_the_apps_language_in_the_panels_edge(lang, words):
    """ctrl+c said Textual's "Do you want to quit? Press q to quit the app", in English under zh, in a toast
    over a running lab's lines (a student's trial)."""
    from rnntui import i18n

    i18n.set_language(lang)
    try:
        app = RnnApp("memory")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert words in bottom_edge(app) and not app._notifications and app.return_code is None
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("moved, shown", [("", "q / ctrl+q"), ('quit = "x"', "x / ctrl+q"),
                                          ('quit = "x"\nhelp = "ctrl+q"', "x")])
async def test_help_says_ctrl_q_quits_as_it_does(moved, shown, keymap):
    """ctrl+q (Textual's own) quit the app, and help named only q (an accessibility trial), or only the
    keymap's key for a moved quit; where the keymap gives ctrl+q to help, help opens and quit does not say it
    (a review)."""
    from rnntui.help import help_text

    keymap(f"[keys]\n{moved}\n")
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        rows = help_text(app.screen)[6]
        assert (shown, "quit", "quit") in rows
        await pilot.press("ctrl+q")
        await pilot.pause()
        quits = "help" not in moved
        if not quits:
            assert app.return_code is None and "help" in type(app.screen).__name__.lower()
            await pilot.press("escape", shown)
    assert app.return_code == 0


async def test_a_key_nothing_takes_says_so_once_and_a_bound_key_acts_once():
    """`a` is gradients' key; on recurrence it did nothing and said nothing (a trial). A key nothing takes
    says so, one notice however many; keys that are bound act once (not twice through a second handler);
    letters typed into the palette are its own."""
    app = RnnApp("recurrence")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("z", "a")
        await pilot.pause()
        edge = bottom_edge(app)  # (in the panel's edge, as a parameter's end: a toast covered the last rows)
        assert "─ a: no key on recurrence/track; ? lists its keys · 1/3 ─" in edge and "z:" not in edge
        assert not app._notifications
        await pilot.press("right")
        await pilot.pause()
        assert screen_of(app).state.step == 1 and "no key" not in bottom_edge(app)  # (it went with the step)
        await pilot.press("ctrl+p", "z", "z")
        await pilot.pause(0.2)
        assert screen_of(app).at_end.said == "" and not app._notifications


async def test_back_without_a_link_says_there_is_nothing_to_go_back_to():
    """`b` said "b: no key on lstm/cell" while help lists "backspace / b: back to the table a link came
    from"; backspace said nothing (a keyboard audit). Both say why they do nothing, and still go back
    after a link (tests/test_attention.py)."""
    app = RnnApp("lstm")
    async with app.run_test(size=(80, 24)) as pilot:
        for key, shown in (("b", "b"), ("backspace", "⌫")):
            await pilot.press(key)
            await pilot.pause()
            edge = bottom_edge(app)
            assert f"─ {shown}: nothing to go back to; it returns from a link you followed" in edge, edge
            assert "no key" not in edge and screen_of(app).TOPIC_ID == "lstm"


def bottom_edge(app) -> str:
    """The panel's bottom edge as drawn: the row above the footer."""
    from rnntui.svg import screen_segments

    return "".join(s.text for s in screen_segments(app)).split("\n")[-2]


async def test_a_press_past_a_parameters_end_says_so_once():
    """+ at a choice's last (gradients' act relu) or → at the last step changed nothing and said nothing:
    a student took it for broken. One notice, for the latest end pressed against; a press that moves
    says nothing, and takes the notice away (it said "relu is the last" beside act tanh), as does a letter
    key's change, another parameter, figure or topic coming up ("t 7 is the last" stood over gradients/hop).
    It is said in the panel's bottom edge, beside the figure's number: no toast covers a readout."""
    from rnntui.figures.gradients import HopState

    app = RnnApp("gradients", "hop", state=HopState(act="relu"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        knobs = [p.name for p in screen.knobs()]
        await pilot.press(*["down"] * knobs.index("act"))
        await pilot.press("plus", "plus")
        await pilot.pause()
        assert screen.state.act == "relu" and screen.state.act == HopState.param("act").choices[-1]
        assert "─ act relu is the last choice; - goes back · 1/" in bottom_edge(app) and not app._notifications
        await pilot.press("minus")
        await pilot.pause()
        assert screen.state.act != "relu" and "goes back" not in bottom_edge(app)  # it moved: the notice goes
        await pilot.press("end", "right")
        await pilot.pause()
        last = screen.state.param(screen.state.AXIS)
        assert f"{last.label} {last.show(getattr(screen.state, screen.state.AXIS))} is the last; ← goes back" in (
            bottom_edge(app))
        for keys in (("a",), ("up",), ("tab",), ("n",)):  # a letter key's change (memory/copy's c kept "step 1500
            # is the last" over step 500, a trial), another parameter, figure or topic: it goes with its context
            await pilot.press("end", "right")
            await pilot.pause()
            assert "is the last; ← goes back" in bottom_edge(app)
            await pilot.press(*keys)
            await pilot.pause()
            assert "goes back" not in bottom_edge(app), keys
        await pilot.press("end", "right")
        await pilot.pause(2.3)
        assert "goes back" not in bottom_edge(app) and bottom_edge(app).rstrip().endswith("─╯")  # (2 s)


async def test_the_palette_offers_our_theme_and_screenshot_not_textuals():
    """Textual's own Theme command opened a second palette (themes outside ours, and a crash on page
    keys the fuzz found); its Screenshot wrote an SVG that needs a web font; its Quit came first."""
    from textual.command import CommandList

    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        await pilot.press("enter")  # the first entry: a figure, not Quit
        await pilot.pause(0.2)
        assert app.return_code is None and app.topic_screen().figure.id == "track"
        await pilot.press("ctrl+p", *"theme")
        await pilot.pause(0.3)
        shown = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert any("Toggle theme dark/light" in p for p in shown), shown
        assert not any("Change the current theme" in p for p in shown), shown
        await pilot.press("escape", "ctrl+p", *"screenshot")
        await pilot.pause(0.3)
        shown = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert len([p for p in shown if "creenshot" in p]) == 1, shown
        await pilot.press("escape", "ctrl+p", *"copy")  # (a tie with "Go to memory/copy: Copy the first token":
        await pilot.pause(0.3)  # enter went to memory, a newcomer's trial)
        shown = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert shown[0].startswith("Copy this figure as a deck frame") and "memory/copy" in shown[1], shown
        await pilot.press("escape", "ctrl+p", *"projector")  # the projector theme is found by its name
        await pilot.pause(0.3)
        shown = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert shown[0].startswith("Theme projector\n"), shown
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.theme == "projector" and app.current_theme.background == "#ffffff"


async def test_plus_minus_move_the_axis_coarsely_where_a_figure_has_no_other_parameter():
    app = RnnApp("recurrence", "tanh")  # (gradients/clipping was one until it took the topic's W_h and act)
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen_of(app)
        assert [p.name for p in s.state.params()] == ["z"]
        start = s.state.z
        await pilot.press("plus", "plus")
        assert s.state.z == pytest.approx(start + 1.0) and not app._notifications
        await pilot.press("shift+left")  # the fine notch
        assert s.state.z == pytest.approx(start + 0.95)


async def test_the_recurrence_network_is_one_for_the_whole_topic():
    """W_h, W_x and b set on the track hold on the readout: it reads out the states the track shows (the
    readout kept W_x 0.80 and showed h_7 0.456 where the track showed 0.460)."""
    import math

    from rnntui.engine.recurrence import TOKENS

    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(100, 30)) as pilot:
        s = screen_of(app)
        await pilot.press("plus", "down", "plus", "down", "plus")  # W_h 0.9 → 1.0, W_x 0.8 → 1.0, b 0 → 0.1
        assert (s.state.w_h, s.state.w_x, s.state.b) == pytest.approx((1.0, 1.0, 0.1))
        assert "W_h W_x b: whole topic" in Text(" ").join(s.param_line()[0]).plain  # the param line says so
        await pilot.press("tab", "tab")
        assert s.figure.id == "readout"
        h, by_hand = s.state.readings().h, []
        for x in TOKENS:
            by_hand.append(math.tanh(1.0 * (by_hand[-1] if by_hand else 0.0) + 1.0 * x + 0.1))
        assert h == pytest.approx(by_hand)
        await pilot.press("down", "minus")  # W_h, changed on the readout, moves the track's states too
        assert s.states["track"].w_h == pytest.approx(0.9)  # (+- move by the coarse notch, stopping at the
        # default: 1.0 → 0.9)


async def test_every_figures_footer_ends_with_a_whole_item_at_80_columns():
    from textual.widgets._footer import FooterKey

    from rnntui.render import Session
    from rnntui.topics import topics
    async with Session((80, 24)) as session:
        for screen in topics():
            for f in screen.FIGURES:
                text = (await session.frame(screen, f, f.state_type(), ("txt",)))["txt"]
                last = text.splitlines()[-1]
                keys = [k for k in session.app.topic_screen().query(FooterKey) if k.display]
                palette = [k for k in keys if k.has_class("-command-palette")][0]
                for k in keys:
                    if k is not palette:
                        assert k.region.right <= palette.region.x, (f.id, k.description)
                        assert f"{k.key_display} {k.description}" in last, (f.id, k.description, last)
                assert last.rstrip().endswith("palette") and "▏" in last, (f.id, last)


@pytest.mark.parametrize("address,name,says", [
    ("serving/kvcache", "gqa", "1: each keeps its own"), ("serving/kvcache", "dtype", "fp16 takes 2 bytes"),
    ("memory/copy", "cell", "lstm-bf2, the source's code: both biases 1, so b_f = 2"),
    ("attention/heads", "mask", "strict: keys before it only"), ("gradients/hop", "act", "ReLU (slope 1 where")])
def test_help_says_what_a_choice_means(address, name, says):
    """"gqa 1" went unexplained, as did bf1 and bf2 (a lecturer's trial): help's allowed column says what
    the values are, after the list of them."""
    from types import SimpleNamespace

    from rnntui.help import help_text
    from rnntui.topics import find

    screen, figure = find(address)
    state = figure.state_type()
    rows = help_text(SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure, state=state))[3]
    allowed = next(r[2] for r in rows if r[0].split(" ")[0] == name)
    choices = state.param(name).choices
    assert allowed.startswith("one of " + ", ".join(choices) + ": ") and says in allowed
    if name == "mask":  # each choice said after it, only the figure's own (positions has no strict, a review)
        _screen, positions = find("attention/positions")
        rows = help_text(SimpleNamespace(TOPIC_ID="attention", figure=positions, state=positions.state_type()))[3]
        mask = next(r[2] for r in rows if r[0].split(" ")[0] == "mask")
        assert mask == "one of full, causal: full: every key; causal: keys up to the query's own"


def test_help_names_a_parameter_as_set_takes_it_and_as_the_footer_shows_it():
    """lstm/bias's footer said "steps", its help and --list only "k" (a newcomer's trial): help gives
    the name --set takes and, where it differs, the footer's label; both are the parameter's own."""
    from rnntui.help import help_text
    from rnntui.topics import find

    from types import SimpleNamespace

    screen, figure = find("lstm/bias")
    shown = SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure, state=figure.state_type())  # what help reads
    params = {row[0] for row in help_text(shown)[3]}
    p = shown.state.param("k")
    assert f"k ({p.label})" in params and p.label == "steps" and shown.state.with_value("k", "30").k == 30
    assert "b_f" in params  # the same name twice is said once
    # the axis's row says how far a press and a shift+press move it where they differ: product's ← moved 10
    # hops and hop 178 took shift, said only in the key table (a trial); the steps are what the keys do
    screen, figure = find("gradients/product")
    state = figure.state_type(hop=173)
    row = next(r for r in help_text(SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure, state=state))[3]
               if r[0] == "hop")
    # a press lands on the next multiple (it read "by 10", and 173 went to 180: a help audit)
    assert row[3] == "← → to the next multiple of 10, shift by 1"
    assert [state.nudged("hop", n).hop for n in (1, 2, -1)] == [180, 190, 170]
    assert [state.nudged("hop", n, fine=True).hop for n in (1, -1)] == [174, 172]
    # a press that moves by its notch says by how much where that is not 1 (lstm/gates' f: said nowhere, an audit)
    screen, figure = find("lstm/gates")
    state = figure.state_type()
    row = next(r for r in help_text(SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure, state=state))[3]
               if r[0] == "f")
    assert row[3] == "← → by 0.05" and round(state.nudged("f", 1).f - state.f, 9) == 0.05
    screen, figure = find("gradients/hop")  # (a whole number a press: the keys alone)
    assert next(r for r in help_text(SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure,
                                                     state=figure.state_type()))[3] if r[0] == "hop")[3] == "← →"


async def test_help_the_palette_and_its_prompt_show_the_topic_behind_them_tinted_as_textual_tints_it():
    """The see-through screens draw the topic under them themselves (rnntui.screens.backdrop, faster):
    the same cells, letters and colours as Textual's own tinting, in the dark and the light theme."""
    from textual._context import visible_screen_stack
    from textual.renderables.background_screen import BackgroundScreen
    from textual.visual import Visual, visualize

    from rnntui.palette import ValuePrompt
    from rnntui.screens.backdrop import Tinted

    def both(app):
        screen = app.screen
        visible_screen_stack.set(list(app._background_screens))
        ours = screen.render()
        assert isinstance(ours, Tinted)
        width, height = screen.size
        textual = visualize(screen, BackgroundScreen(ours.screen, ours.color))
        return [[Visual.to_strips(screen, v, width, height, screen.visual_style)] for v in (ours, textual)]

    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(90, 26)) as pilot:
        for keys, kind, theme in ((("question_mark",), HelpScreen, "rnntui-dark"),
                                  (("ctrl+p",), None, "rnntui-light"),
                                  (("ctrl+p", *"set W_x"), None, "rnntui-dark")):
            app.theme = theme
            await pilot.press(*keys)
            await pilot.pause(0.3)
            if keys[-1] == "x":
                await pilot.press("enter")
                await pilot.pause(0.3)
                assert isinstance(app.screen, ValuePrompt)
            assert kind is None or isinstance(app.screen, kind)
            (ours,), (textual,) = both(app)
            assert [list(s) for s in ours] == [list(s) for s in textual]
            assert len(ours) == 26 and all(s.cell_length == 90 for s in ours)
            shown = [s.text for s in ours]
            assert "1 recurrence — One token at a time" in shown[0] and any("h_0 = tanh(0.90·0 + 0.80·0.5" in s for s in shown)
            await pilot.press("escape")
            await pilot.pause(0.2)


async def test_the_palette_sets_a_value_typed_with_its_name():
    """"set z 1.5" in the palette found nothing (a lecturer's trial): it is the first command, and Enter
    sets it; a value out of range says why and changes nothing."""
    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=(100, 30)) as pilot:
        s = app.topic_screen()
        await pilot.press("ctrl+p", *"set z 1.5")
        await pilot.pause(0.3)
        from textual.command import CommandList

        first = str(app.screen.query_one(CommandList).get_option_at_index(0).prompt)
        assert first.startswith("Set z to 1.5")
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert s.state.z == 1.5 and s.state.readings().tanh == pytest.approx(__import__("math").tanh(1.5))
        await run_command(pilot, "set z=99")
        assert s.state.z == 1.5 and any("99" in str(n.message) for n in app._notifications)


async def test_set_step_in_the_palette_sets_the_focused_figures_axis_as_step_does():
    """gradients/bptt's "set step 5" read "Set t to 5 (recurrence/track)" and Enter left the topic (a power
    user's trial): as --step, "step" is the focused figure's time axis (bptt's distance)."""
    app = RnnApp("gradients", "bptt")
    async with app.run_test(size=(100, 30)) as pilot:
        s = app.topic_screen()
        await run_command(pilot, "set step 5")
        assert app.topic_screen() is s and s.figure.id == "bptt" and s.state.distance == 5
    app = RnnApp("lstm", "bias")  # an axis that is no step (b_f) is not taken for one (it set b_f 2: a review)
    async with app.run_test(size=(100, 30)) as pilot:
        s = app.topic_screen()
        await run_command(pilot, "set step 2")
        assert s.states["bias"].b_f == type(s.states["bias"])().b_f


async def test_a_value_the_prompt_refuses_keeps_it_open_and_names_the_parameter_as_shown():
    """lstm/bias's "Set steps" took 999, closed, and said "k=999: expected …", the --set key, which the
    screen never shows (k is other figures' word); the value had to be typed again (a keyboard audit)."""
    from rnntui.palette import ValuePrompt

    app = RnnApp("lstm", "bias")
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.topic_screen()
        await run_command(pilot, "set steps 999")
        said = [str(n.message) for n in app._notifications]
        assert said == ["steps 999: expected a whole number from 5 to 100"] and s.state.k == 20
        await run_command(pilot, "steps")
        await pilot.press("ctrl+u", *"999", "enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, ValuePrompt) and s.state.k == 20  # open, with the value typed
        assert "steps 999: expected a whole number from 5 to 100" in str(app.screen.query_one("#problem").render())
        await pilot.press("ctrl+u", *"50", "enter")
        await pilot.pause(0.2)
        assert app.screen is s and s.state.k == 50


async def test_the_palette_says_a_mistyped_key_is_nowhere_and_names_the_figures_keys():
    """"set wh 0.6" said "No matches found" and "set wh 1.4" matched "Set W_h" only by its value (a lecturer's
    trial): a key no figure has, typed with a value, is the first hit, naming the focused figure's keys as the
    command line does; Enter says it. While the key is still being typed ("set w") it is not offered."""
    from rnntui.palette import RnnCommands
    from rnntui.figures.recurrence import TrackState

    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        commands = RnnCommands(app.screen)
        said = f"no parameter 'wh' anywhere; track takes {TrackState.keys_text()}"
        assert "w_h" in said
        hits = [str(hit.text) async for hit in commands.search("set wh 0.6")]
        assert hits[0] == said
        commands.set_typed("set wh 1.4").command()  # (as the palette runs it)
        await pilot.pause()
        assert [n.message for n in app._notifications] == [said] and screen_of(app).state.w_h == 0.9
        assert commands.set_typed("set w") is None


async def test_the_palette_offers_a_key_typed_without_its_value_and_asks_for_it():
    """"set seed " (README: ctrl+p then `set seed 500`) said "No matches found" until a digit was typed (a
    trial). The figure with that key is offered first; Enter shows it and asks for the value. On the
    figure that has the key its own "Set seed (now 0)" is listed first, and nothing is offered twice."""
    from rnntui import i18n
    from rnntui.palette import RnnCommands

    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        commands = RnnCommands(app.screen)
        assert commands.set_typed("set nothing") is None and commands.set_typed("set") is None
        hit = commands.set_typed("set seed ")
        assert str(hit.text) == "Set seed to … (gradients/bptt)" and hit.help == "a whole number from 0 to 999"
        await hit.command()
        await pilot.pause()
        assert app.topic_screen().TOPIC_ID == "gradients" and app.topic_screen().figure.id == "bptt"
        await pilot.press("ctrl+u", *"500", "enter")  # the value asked, as the palette's "Set seed" asks it
        await pilot.pause(0.2)
        assert app.topic_screen().state.seed == 500
        # there, its own command, once, first (in Chinese its words did not match "set t": none, a review)
        hits = [str(hit.text) async for hit in RnnCommands(app.screen).search("set seed")]
        assert hits[0] == "Set seed (now 500)" and hits.count("Set seed (now 500)") == 1, hits
        # a key with a space is that key, not its first word set to the second; as typed first, in topic order
        await app.goto("recurrence", "track")
        commands = RnnCommands(app.screen)
        assert str(commands.set_typed("set window k").text) == "Set window k to … (serving/window)"
        assert str(commands.set_typed("set T").text) == "Set T to … (parallel/timing)"  # (the first, in topic order)
        assert str(commands.set_typed("set t").text) == "Set t (now 0)"
        i18n.set_language("zh")
        try:
            hit = RnnCommands(app.screen).set_typed("set t")
            assert hit.command.func.__name__ == "ask" and hit.command.args[0].name == "step"
            assert "(now" not in str(hit.text) and "0" in str(hit.text)  # (said in Chinese, with t's value)
        finally:
            i18n.set_language("en")


async def test_keys_typed_in_one_burst_into_the_palette_and_the_value_prompt_act_in_their_order():
    """Textual runs an input's own keys (backspace, ctrl+u, ←) on the way back from the screen, after a letter
    typed behind them in one burst (over SSH, or tmux) has gone in: "ctrl+u 7" left "" and "backspace 4 5"
    gave "4" in the value prompt, "set seex" then backspace d gave "set seex" in the palette (a trial). Keys
    posted at once, as the terminal's reader posts a burst, act in their order."""
    from textual import events
    from textual.widgets import Input

    from rnntui.palette import RnnCommands

    def burst(app, *keys):
        for key in keys:
            app.post_message(events.Key(key, key if len(key) == 1 else {"backspace": "\x7f", "ctrl+u": "\x15",
                                                                        "enter": "\r"}.get(key)))

    app = RnnApp("gradients", "bptt")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p", *"set seex")
        burst(app, "backspace", "d")
        await pilot.pause(0.2)
        assert app.screen.query_one(Input).value == "set seed"
        await pilot.press("escape")
        RnnCommands(app.screen).set_typed("set seed").command()  # (its own "Set seed (now 0)": asks)
        await pilot.pause()
        burst(app, "ctrl+u", "7")
        await pilot.pause(0.2)
        assert app.screen.query_one(Input).value == "7"
        burst(app, "backspace", "4", "5", "left", "1")
        await pilot.pause(0.2)
        assert app.screen.query_one(Input).value == "415"
        await pilot.press("enter")
        assert app.topic_screen().state.seed == 415
        # and a whole command with its enter in one burst still runs it, once its letters are searched (enter
        # acting at once closed the palette with nothing done, a check in tmux)
        await pilot.press("ctrl+p")
        burst(app, *"set seed 51", "enter")
        await pilot.pause(0.5)
        assert app.topic_screen().figure.id == "bptt" and app.topic_screen().state.seed == 51


async def test_the_palette_takes_the_label_the_screen_shows():
    """The footer says W_h and "window k": the palette names a parameter so, and "set" takes the label
    typed as shown, spaces and all (a label with a space found nothing: its words were split)."""
    from rnntui.palette import RnnCommands

    app = RnnApp("serving", "window")
    async with app.run_test(size=(100, 30)) as pilot:
        commands = RnnCommands(app.screen)
        hit = commands.set_typed("set window k 3")
        assert str(hit.text) == "Set window k to 3"
        await hit.command()
        assert app.topic_screen().state.window == 3
        assert commands.set_typed("set window k 0").help.plain.startswith("window k 0: expected a whole number from 1")
        assert str(commands.set_typed("set nothing 3").text).startswith("no parameter 'nothing' anywhere; window takes")
        texts = [text for text, *_ in commands.commands()]
        assert any(t.startswith("Set window k (now 3)") for t in texts)
        await app.goto("recurrence", "track")
        assert any(t.startswith("Set W_h (now 0.90)") for t, *_ in RnnCommands(app.screen).commands())
        commands = RnnCommands(app.screen)
        await commands.set_typed("set W_h -0.5").command()
        assert app.topic_screen().state.w_h == -0.5
        # first, whatever Textual's fuzzy match gives "Set W_h (now -0.50)" ("set w_h 0" came second)
        hit, texts = commands.set_typed("set w_h 0"), [t for t, *_ in commands.commands()]
        assert hit.score > max(commands.matcher("set w_h 0").match(t) for t in texts) > 1
        # a key of another figure of the topic: named with its figure, which Enter focuses
        await app.goto("lstm", "cell")
        hit = RnnCommands(app.screen).set_typed("set f 0.5")
        assert str(hit.text) == "Set f to 0.5 (lstm/gates)"
        await hit.command()
        await pilot.pause()
        screen = app.topic_screen()
        assert screen.figure.id == "gates" and screen.state.f == 0.5 and "f 0.50" in str(screen.param_line())
        # another topic's key: the first figure, in topic order, that takes the value, case first (a trial:
        # "set scoring dot" and "set T 40" found nothing from recurrence, or recurrence's t)
        commands = RnnCommands(app.screen)
        assert str(commands.set_typed("set scoring dot").text) == "Set scoring to dot (seq2seq/matrix)"
        assert commands.set_typed("set W_h 2.5").help.plain.startswith("W_h 2.5: expected")  # (not lstm's: none)
        await app.goto("recurrence", "track")
        commands = RnnCommands(app.screen)
        assert str(commands.set_typed("set t 3").text) == "Set t to 3"
        hit = commands.set_typed("set T 40")
        assert str(hit.text) == "Set T to 40 (memory/copy)"
        assert commands.set_typed("set W_h 5").help.plain.startswith("W_h 5: expected")  # this topic's, not another's
        memory = RnnCommands(app.screen)  # (still recurrence: the hit below is not run yet)
        assert memory.set_typed("set T 40").help == "one of 5, 10, 20, 40, 80"
        await hit.command()
        await pilot.pause()
        assert app.topic_screen().TOPIC_ID == "memory" and app.topic_screen().state.T == "40"
        # this topic's key without its case still decides here (a reviewer: "set t 5" went to recurrence)
        commands = RnnCommands(app.screen)
        assert str(commands.set_typed("set t 5").text) == "Set T to 5"
        assert commands.set_typed("set t 256").help.plain.startswith("T 256: expected one of 5, 10, 20, 40, 80")
        # a source's id finds its figure first ("E6" gave gradients/bptt)
        ids = RnnCommands(app.screen).by_id("e6")
        assert [str(h.text) for h in ids] == ["Go to parallel/timing: Timing lab"] and ids[0].score > 1e6
        # a topic's number, its key, gives its figures first ("3" gave gradients/clipping, a trial)
        hits = [str(h.text) async for h in RnnCommands(app.screen).search("3")]
        assert [h.split(":")[0] for h in hits[:6]] == [f"Go to lstm/{f}" for f in ("cell", "gates", "path", "bias", "gru", "params")]


async def test_a_notice_leaves_the_figure_and_its_parameter_line_in_view():
    """"t 7 is the last" sat over the parameter line's right half at 80x24 (a trial), hiding the values it
    spoke of; above the line it covered the figure's last readouts (a lecturer's trial: "stage 5 is the last"
    over attention/qkv's A[跑,猫] 0.6488). It is in the panel's edge: every other row is as before."""
    from rnntui.svg import screen_segments

    app = RnnApp("attention", "qkv")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("end")
        await pilot.pause(0.2)
        before = "".join(s.text for s in screen_segments(app)).split("\n")
        await pilot.press("right")
        await pilot.pause(0.2)
        after = "".join(s.text for s in screen_segments(app)).split("\n")
        changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
        assert changed == [len(after) - 2] and "stage 5 is the last; ← goes back" in after[-2]


async def test_help_says_what_a_figures_id_and_the_source_are():
    """"source 0.884 ≠ ours" and "· T5" were unexplained (a student's trial): help says what the id in the
    title is (T5 the topic, not the model) and what "source" beside a number means."""
    from rnntui.help import help_text

    app = RnnApp("attention", "masks")
    async with app.run_test(size=(100, 30)):
        title, prose = help_text(screen_of(app))[:2]
    assert title.endswith("(T5)") and "T5: this figure's id" in prose and "not the T5 model" in prose
    assert "“source” beside a number: the course notes" in prose
    app = RnnApp("recurrence", "track")  # (the T5 sentence stood in every figure's help)
    async with app.run_test(size=(100, 30)):
        title, prose = help_text(screen_of(app))[:2]
    assert title.endswith("(F1+F3)") and "F1+F3: this figure's id" in prose and "T5" not in prose


async def test_shift_arrow_on_tanh_is_finer_than_the_arrow():
    """recurrence/tanh: shift+→ read as moving no finer than → (a student's trial): → moves z by 0.5,
    shift+→ by a tenth of that, as help's "finest notch" says."""
    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")
        coarse = screen_of(app).state.z
        await pilot.press("shift+right")
        assert coarse == 0.5 and screen_of(app).state.z == pytest.approx(coarse + coarse / 10)


async def test_the_palette_takes_key_equals_value_and_replaces_an_open_value_prompt():
    """"w_h=1.4" (as --set takes it) found "No matches" (a lecturer's trial); and ctrl+p over an open value
    prompt stacked a palette on it: the prompt left behind took the keys meant for the topic (End did
    nothing, the parameter line kept W_h 0.90)."""
    from rnntui.palette import ValuePrompt

    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(100, 30)) as pilot:
        s = app.topic_screen()
        await run_command(pilot, "w_h=1.4")
        assert s.state.w_h == 1.4
        await pilot.press("ctrl+p", *"set W_x")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, ValuePrompt)
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.screen is s
        await pilot.press("end")
        await pilot.pause(0.1)
        assert s.state.step == s.state.param(s.state.AXIS).hi


async def test_a_note_in_the_panels_edge_is_left_out_of_a_screenshot_and_leaves_the_number_whole(tmp_path,
                                                                                                monkeypatch):
    """A shot kept "t 7 is the last; ← goes back" (a review): notes drawn in place are taken away first, as
    toasts are left out. At 40 columns the note took the figure's number ("1/6"): it is cut instead."""
    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path))
    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", "right")
        await pilot.pause()
        assert "is the last" in bottom_edge(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        [shot] = tmp_path.glob("*.svg")
        assert "is the last" not in shot.read_text() and "1/3" in shot.read_text()
    app = RnnApp("gradients", "hop")
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.press("end", "right")
        await pilot.pause()
        edge = bottom_edge(app)
        assert edge.rstrip().endswith("· 1/6 ─╯") and "…" in edge


async def test_up_and_down_on_a_figure_with_one_parameter_say_so():
    """↑↓ choose the parameter + and - change: on recurrence/tanh, whose only one is the axis z, they did
    nothing and said nothing (a Chinese student's trial)."""
    app = RnnApp("recurrence", "tanh")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
        await pilot.pause()
        assert "no parameter but z here: ←→ moves it · 2/3" in bottom_edge(app)
        await pilot.press("r")  # (at its defaults already: the note stayed after r, a spec audit)
        await pilot.pause()
        assert "no parameter" not in bottom_edge(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80_columns_every_footer_keeps_the_next_topics_key(lang):
    """attention/qkv, positions and block dropped "n topic" for their own keys at 80 columns (a review):
    "space play" goes first where the row is short; while playing, "space pause" stays."""
    from textual.widgets._footer import FooterKey

    from rnntui.i18n import set_language

    def footer_text(app) -> str:  # the keys shown, as "key words"
        return "  ".join(f"{k.key_display} {k.description}" for k in app.screen.query(FooterKey) if k.display)

    set_language(lang)
    try:
        app = RnnApp("attention", "qkv")
        async with app.run_test(size=(80, 24)) as pilot:
            for figure in ("qkv", "positions", "block"):
                app.topic_screen().focus_figure(figure)
                await pilot.pause()
                foot = footer_text(app)
                assert ("n topic" in foot or "n 主题" in foot) and ("x " in foot or figure != "qkv"), foot
            await pilot.press("space")
            await pilot.pause()
            assert "pause" in footer_text(app) or "暂停" in footer_text(app)
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80_columns_every_figure_names_its_letter_keys_playing_or_not(lang):
    """The contract names a figure's toggles in the footer: at 80 columns seq2seq/matrix lost "w weights" while
    it played, and attention/qkv "x redraw" (a spec audit). Its own keys first; then space and n as fit."""
    from textual.widgets._footer import FooterKey

    from rnntui.i18n import set_language
    from rnntui.topics import topics

    set_language(lang)
    try:
        app = RnnApp("recurrence")
        async with app.run_test(size=(80, 24)) as pilot:
            for screen in topics():
                await app.goto(screen.TOPIC_ID)
                for f in screen.FIGURES:
                    app.topic_screen().focus_figure(f.id)
                    letters = {p.key for p in f.state_type().params() if p.key}
                    for playing in (False, True):
                        if playing:
                            await pilot.press("space")
                        await pilot.pause()
                        shown = {k.key for k in app.screen.query(FooterKey) if k.display}
                        assert letters <= shown, (f.id, playing, letters - shown)
                    await pilot.press("space")  # (paused again, or played through and stopped: either)
    finally:
        set_language("en")


async def test_a_click_on_the_strip_opens_that_figure_and_on_tab_the_next():
    """The strip looks like tabs: a mouse user clicked them and nothing happened (a trial)."""
    app = RnnApp("gradients")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        line = "".join(seg.text for seg in screen.query_one("#strip").render_line(0))
        for fid in ("clipping", "backward", "bptt"):
            await pilot.click("#strip", offset=(line.index(f" {fid} ") + 2, 0))
            assert screen.figure.id == fid
        await pilot.click("#strip", offset=(line.index("tab ⇥") + 1, 0))
        assert screen.figure.id == "hop"  # from the last, the first
        await pilot.click("#strip", offset=(line.index(" hop ") + len(" hop "), 0))  # the gap between two
        assert screen.figure.id == "hop"


async def test_a_keymap_is_what_help_the_parameter_line_and_notices_name(keymap):
    """With toggle_act = "z", step_forward = "l", help = "f1" the footer followed, but help listed → ? a, the
    parameter line said [a] act and ←→ hop, and a stray key's notice said "? lists its keys" (a keyboard
    audit): each names the keys in use now."""
    from rnntui.help import help_text

    keymap('[keys]\ntoggle_act = "z"\nstep_forward = "l"\nstep_back = "h"\nhelp = "f1"\n')
    app = RnnApp("gradients", "hop")
    async with app.run_test(size=(100, 30)) as pilot:
        s = screen_of(app)
        line = Text(" ").join(s.param_line()[0]).plain
        assert "h/l hop 1" in line and "[z] act tanh" in line and "[a]" not in line and "←" not in line
        await pilot.press("a")  # no longer act's key
        await pilot.pause()
        assert s.state.act == "tanh" and "a: no key on gradients/hop; f1 lists its keys" in bottom_edge(app)
        await pilot.press("z", "end", "l")
        await pilot.pause()
        assert s.state.act != "tanh" and "is the last; h goes back" in bottom_edge(app)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        text = help_text(s)
        shown = {row[2]: row[0] for row in text[6]}
        assert (shown["step_forward"], shown["step_back"], shown["help"], shown["toggle_act"]) == ("l", "h", "f1", "z")
        assert shown["next_topic"] == "n / pgdn" and shown["fine_forward"] == "shift+→"  # the others as they were
        assert text[-1] == "escape or f1 closes this"
        await pilot.press("f1")  # help's key closes it, as it says
        assert not isinstance(app.screen, HelpScreen)



async def test_a_letter_a_keymap_took_is_offered_nowhere(keymap):
    """step_back = "h" takes recurrence/readout's head letter: h steps back there, so the parameter line,
    help and the footer stop offering h for head (they said "[h] head", a trial of the clash notice)."""
    from rnntui.help import help_text

    keymap('[keys]\nstep_back = "h"\n')
    app = RnnApp("recurrence", "readout")
    async with app.run_test(size=(100, 30)) as pilot:
        s = screen_of(app)
        assert any("h is step_back's, so toggle_head has no key" in n.message for n in app._notifications)
        line = Text(" ").join(s.param_line()[0]).plain
        assert "h/→ t 7" in line and "head cls" in line and "[h]" not in line
        text = help_text(s)
        assert {row[2]: row[0] for row in text[6]}["toggle_head"] == "—"
        assert {row[0].split(" ")[0]: row[3] for row in text[3]}["head"] == "↑↓ then + -"  # as for a parameter with no letter
        from textual.widgets._footer import FooterKey

        shown = [(k.key_display, k.description) for k in app.screen.query(FooterKey) if k.display]
        assert ("space", "play") in shown and not any(d == "head" or key == "h" for key, d in shown)
        await pilot.press("h")
        assert (s.state.step, s.state.head) == (6, "cls")

def test_every_id_help_offers_is_one_a_keymap_takes_and_topic_is_refused(tmp_path):
    """Help offered `topic` (for 1…8) and `palette`: a keymap naming them loaded without a word and the keys
    did nothing (a keyboard audit). Every id in help's right column loads; `topic` is refused, as an unknown
    id is."""
    from types import SimpleNamespace

    from rnntui.help import help_text
    from rnntui.keys import user_keymap
    from rnntui.topics import find

    screen, figure = find("memory/copy")  # a lab and a letter key
    rows = help_text(SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure, state=figure.state_type()))[6]
    offered = [id for row in rows for id in row[2].split(" … ")]
    assert "topic" not in offered and {"topic_1", "topic_8", "palette", "lab", "toggle_cell"} <= set(offered)
    path = tmp_path / "keymap.toml"
    for id in offered:
        path.write_text(f'[keys]\n{id} = "f9"\n', encoding="utf-8")
        assert user_keymap(path) == ({id: "f9"}, None), id
    path.write_text('[keys]\ntopic = "f5"\n', encoding="utf-8")
    keymap, problem = user_keymap(path)
    assert keymap == {} and "unknown id or value for topic" in problem
    path.write_text('[keys]\nquit = "f9"\n', encoding="utf-8-sig")  # (as Notepad saves it: "Invalid statement")
    assert user_keymap(path) == ({"quit": "f9"}, None)


def test_a_keymap_takes_keys_as_a_terminal_sends_them(tmp_path):
    """quit = "shift+q" loaded, and the footer said "shift+q quit", but a terminal sends Q; screenshot =
    "ctrl+i" moved to the next figure, as tab (a terminal sends the same byte): a power user's trial."""
    from rnntui.keys import user_keymap

    path = tmp_path / "keymap.toml"
    path.write_text('[keys]\nquit = "shift+q"\nnext_topic = "shift+n,pagedown"\n', encoding="utf-8")
    assert user_keymap(path) == ({"quit": "Q", "next_topic": "N,pagedown"}, None)
    path.write_text('[keys]\nscreenshot = "ctrl+i"\n', encoding="utf-8")
    assert user_keymap(path) == ({}, f"keymap {path} ignored: tab is given to both next_figure and screenshot")
    path.write_text('[keys]\nscreenshot = "ctrl+h"\n', encoding="utf-8")  # (backspace's byte: a review)
    assert user_keymap(path)[1].endswith("⌫ is given to both back and screenshot")
    path.write_text('[keys]\nquit = "shift+ß"\nhelp = "shift+é"\n', encoding="utf-8")  # ("ß".upper() is "SS":
    assert user_keymap(path) == ({"quit": "shift+ß", "help": "É"}, None)  # a review; é's capital is É)


def test_a_keymap_that_gives_one_key_to_two_bindings_is_ignored_or_said(tmp_path):
    """quit = "n" made n quit, and nothing said that next topic had lost its key (a keyboard audit): a key
    left on two of the contract's bindings is said and the keymap ignored, as an unknown id is. Moving the
    other one away first loads; two figures' letters may share a key (never on one screen). One left on a
    contract key and a figure's letter (step_back = "h": h stepped recurrence/readout back, and its head had
    no key) loads, and is said."""
    from rnntui.keys import LETTERS, user_keymap
    from rnntui.topics import topics

    letters = {f"toggle_{p.name}": p.key for s in topics() for f in s.FIGURES for p in f.state_type().params() if p.key}
    assert LETTERS == letters  # the figures' own, which the app does not import to read a keymap

    path = tmp_path / "keymap.toml"
    for text, said in (('quit = "n"', "n is given to both next_topic and quit"),
                       ('step_back = "z"\ntopic_2 = "z"', "z is given to both step_back and topic_2"),
                       ('step_back = "h"\nquit = "n"', "n is given to both next_topic and quit")):
        path.write_text(f"[keys]\n{text}\n", encoding="utf-8")
        assert user_keymap(path) == ({}, f"keymap {path} ignored: {said}"), text
    # the vim user's step_back = "h" loads (h is readout's head, whose letter then does nothing there), and says so
    for text, said in (('step_back = "h"', "h is step_back's, so toggle_head has no key; give each one a key"),
                       ('toggle_cell = "?"', "? is help's, so toggle_cell has no key; give each one a key"),
                       ('step_back = "left,h"\nstep_forward = "right,l"',  # (only l was said: a review)
                        "h is step_back's, so toggle_head has no key; l is step_forward's, so toggle_norm has no key; "
                        "give each one a key")):
        path.write_text(f"[keys]\n{text}\n", encoding="utf-8")
        moved, problem = user_keymap(path)
        assert moved and problem == f"keymap {path}: {said}", text
    path.write_text('[keys]\nquit = "n"\nnext_topic = "pagedown"\ntoggle_cell = "y"\ntoggle_mask = "y"\n'
                    'step_back = "h"\ntoggle_head = "H"\n')
    assert user_keymap(path) == ({"quit": "n", "next_topic": "pagedown", "toggle_cell": "y", "toggle_mask": "y",
                                  "step_back": "h", "toggle_head": "H"}, None)


def test_a_keymap_naming_no_key_or_no_binding_is_ignored_in_one_line(tmp_path):
    """step_forward = "rigth" loaded: → stopped stepping and the footer said "←/rigth" (a lecturer's trial);
    keys = "f" and a table nested 3000 deep ended every command in a traceback; toggle_foo moved nothing (a
    review). Each is one line, and the keymap is ignored."""
    from rnntui.keys import user_keymap

    path = tmp_path / "keymap.toml"
    for text, said in (('[keys]\nstep_forward = "right,rigth"', "step_forward names no key a terminal sends: 'rigth'"),
                       ('[keys]\nhelp = "F1"', "help names no key a terminal sends: 'F1'"),
                       ('[keys]\nquit = "cmd+q"', "quit names no key a terminal sends: 'cmd+q'"),
                       ('keys = "f"', "unknown id or value for keys"),
                       ('[keys]\ntoggle_foo = "y"', "unknown id or value for toggle_foo"),
                       # a known id, a value not in quotes ("unknown id or value for quit": a power user's trial)
                       ('[keys]\nquit = 5', 'quit takes one string of keys, such as quit = "x" or "x,ctrl+x"; '
                                              'it has 5'),
                       ('[keys]\nquit = ["q", "x"]', "quit takes one string of keys, such as quit = \"x\" or "
                                                     "\"x,ctrl+x\"; it has ['q', 'x']")):
        path.write_text(text + "\n", encoding="utf-8")
        moved, problem = user_keymap(path)
        assert moved == {} and problem.startswith(f"keymap {path} ignored: {said}"), text
    path.write_text("x = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    moved, problem = user_keymap(path)
    assert moved == {} and problem.startswith(f"keymap {path} ignored: ") and "\n" not in problem
    # every printable character's name as Textual gives it (less_than_sign was refused: its Unicode name is
    # LESS-THAN SIGN, a review)
    from textual.keys import _character_to_key

    from rnntui.keys import known_key

    assert [n for n in (_character_to_key(chr(c)) for c in range(33, 127)) if not known_key(n)] == []
        # what a terminal sends, as Textual names it: a character, its name, a named key, with modifiers
    path.write_text('[keys]\nhelp = "f1, ?"\nquit = "ctrl+shift+x"\nback = "left_square_bracket"\n'
                    'step_forward = "right,l"\n', encoding="utf-8")
    assert user_keymap(path)[0] == {"help": "f1, ?", "quit": "ctrl+shift+x", "back": "left_square_bracket",
                                    "step_forward": "right,l"}


def test_a_keymap_too_large_or_with_old_line_ends_or_no_folder(tmp_path):
    """A keymap read whole: one linked to /dev/zero ended `--list` (and the app) in MemoryError (a review);
    read up to 100 KB, a larger one is ignored in one line. Lines ended by a lone CR still load, and a config
    folder that is not one ($XDG_CONFIG_HOME=/dev/null) means no keymap, said nowhere."""
    import os
    from pathlib import Path

    from rnntui.keys import user_keymap

    path = tmp_path / "keymap.toml"
    path.write_bytes(b"# " + b"x" * 100_000 + b'\n[keys]\nhelp = "f1"\n')
    keymap, problem = user_keymap(path)
    assert keymap == {} and problem == f"keymap {path} ignored: larger than 100 KB"
    path.write_bytes(b'[keys]\rhelp = "f1"\rstep_back = "j"\r')
    assert user_keymap(path) == ({"help": "f1", "step_back": "j"}, None)
    assert user_keymap(Path(os.devnull) / "rnntui" / "keymap.toml") == ({}, None)


async def test_a_keymap_moves_a_topics_key_and_the_palettes(keymap):
    """topic_3 = "f5" opens lstm; palette = "f2" opens the palette (ctrl+p no longer does), and the footer's
    right end and help say f2."""
    from textual.command import CommandPalette
    from textual.widgets._footer import FooterKey

    from rnntui.help import help_text

    keymap('[keys]\ntopic_3 = "f5"\npalette = "f2"\n')
    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        assert not app._notifications
        await pilot.press("f5")
        assert app.current_mode == "lstm"
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, CommandPalette)
        palette = [k for k in app.screen.query(FooterKey) if k.has_class("-command-palette")]
        assert [(k.key_display, k.description) for k in palette] == [("f2", "palette")]
        shown = {row[2]: row[0] for row in help_text(app.topic_screen())[6]}
        assert shown["palette"] == "f2" and shown["topic_1 … topic_8"] == "1 2 f5 4 5 6 7 8"
        await pilot.press("f2")
        await pilot.pause(0.2)
        assert isinstance(app.screen, CommandPalette)


def _numbers():
    """(address, state, parameter) for every number a press moves (not a choice or a listed value)."""
    from rnntui.topics import topics

    for screen in topics():
        for f in screen.FIGURES:
            state = f.state_type()
            for p in state.params():
                if p.kind != "choice" and not p.values:
                    yield pytest.param(screen, f, state, p, id=f"{screen.TOPIC_ID}/{f.id}:{p.name}")


@pytest.mark.parametrize("screen,figure,state,p", _numbers())
def test_helps_how_column_says_where_a_press_multiplies(screen, figure, state, p, monkeypatch):
    """lstm/params' → doubled d while shift+→ added 64, parallel/cost's → doubled n, attention/heads' + took n
    5 → 8 → 16: help's "how" said only "← →" or "↑↓ then + -" (a keyboard audit). Where presses from the low end
    go along powers of N, help says "powers of N", and for the axis what shift does; where they add a step,
    it says no power."""
    from types import SimpleNamespace

    from rnntui.help import help_text

    rows = help_text(SimpleNamespace(TOPIC_ID=screen.TOPIC_ID, figure=figure, state=state))[3]
    how = next(row[3] for row in rows if row[0].split(" ")[0] == p.name)
    monkeypatch.setattr(type(state), "defaults", classmethod(lambda cls: {}))  # (the ladder itself: presses stop
    # at a default off it on the way, tests/test_state.py)
    s, seen = state.to_end(p.name, -1), []
    for _press in range(4):
        s = s.nudged(p.name, 1)
        seen.append(getattr(s, p.name))
    v1, v2, v3 = seen[:3]
    if v3 == v2 or v3 - v2 == pytest.approx(v2 - v1):  # a step added (or the range too short to tell)
        assert "powers" not in how, how
        return
    base = v2 // v1
    assert v2 == v1 * base and v3 == v2 * base and f"powers of {base}" in how, (seen, how)
    if p.name == state.AXIS:
        at = s.with_value(p.name, v1)
        fine = getattr(at.nudged(p.name, 1, fine=True), p.name)
        assert how.endswith("shift too") if fine == v1 * base else how.endswith(f"shift by {fine - v1}"), (fine, how)


def test_helps_keymap_example_takes_no_key_a_figure_or_the_contract_uses():
    """Help's example `step_forward = "l,right"` took attention/block's l (norm): with it, l stepped the stage
    while help still said "l: post/pre-norm" (a help audit)."""
    from rnntui.help import REMAP_EXAMPLE
    from rnntui.keys import CONTRACT
    from rnntui.topics import topics

    added = {k.strip() for k in REMAP_EXAMPLE.split('"')[1].split(",")} - {"right"}
    letters = {p.key for s in topics() for f in s.FIGURES for p in f.state_type().params() if p.key}
    contract = {k for key in CONTRACT if key.id != "step_forward" for k in key.keys.split(",")}
    assert added and letters and not added & (letters | contract), added & (letters | contract)


def test_help_says_what_each_choice_of_a_curve_or_a_weight_set_means():
    """seq2seq/scoring's c showed the training loss while help said only "validation accuracy every 25
    steps"; attention/qkv's random weights were said nowhere (a help audit)."""
    from types import SimpleNamespace

    from rnntui.help import help_text
    from rnntui.topics import find

    def rows(address):
        _screen, figure = find(address)
        table = help_text(SimpleNamespace(TOPIC_ID=address.split("/")[0], figure=figure, state=figure.state_type()))[3]
        return " ".join(" ".join(map(str, row)) for row in table)

    scoring, qkv = rows("seq2seq/scoring"), rows("attention/qkv")
    assert "accuracy: validation exact-sequence accuracy on the 1000, every 25 steps" in scoring
    assert "loss: training loss, the mean of the last 25 steps" in scoring
    assert "random: seed 002's draw: x ~ N(0, 1), 5×64; W ~ 0.02·N(0, 1); d_k = 64" in qkv
    # attention/block's d, d_ff, layers and n seemed to change its matrices too: the toy's stay d = 4
    _screen, block = find("attention/block")
    said = help_text(SimpleNamespace(TOPIC_ID="attention", figure=block, state=block.state_type()))[1]
    defaults = block.state_type()
    assert (defaults.d, defaults.d_ff, defaults.layers, defaults.n) == (768, 3072, 12, 512)  # BERT-base
    assert "d, d_ff, layers and n set the parameter and FLOP counts only" in said and "toy sentence's, d = 4" in said


async def test_keys_typed_after_q_do_nothing_as_the_app_ends():
    """`q` then `n`, `a` before the app had ended (a trial typed "question_mark" into tmux): `n` opened the
    next topic as the app closed, and `a`'s "no key" note, said on a screen never laid out, ended the app
    with a traceback and status 1."""
    from textual import events

    app = RnnApp("seq2seq", "matrix")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for key in ("q", "n", "a", "tab", "shift+tab"):  # all queued before the quit is handled; tab and
            app.post_message(events.Key(key, None))  # shift+tab are priority keys, acted on before the screen
        await pilot.pause()  # sees a key (q tab: "Can't mount widget(s) before ContentSwitcher() is mounted")
    assert app.return_code == 0 and app.current_mode == "seq2seq", app.current_mode  # (n did not act)


@pytest.mark.parametrize("burst, topic, figure", [
    (("3", "tab"), "lstm", 1),  # tab moved topic 1's figure, then 3 opened lstm at its first
    (("2", "1", "2", "tab"), "gradients", 1),  # a revisit: both lost, topic 1 stayed
    (("right", "right", "tab"), "recurrence", 1),
])
async def test_a_burst_of_keys_is_acted_on_in_the_order_typed(burst, topic, figure):
    """A terminal over SSH hands keys over in bursts: tab and shift+tab, priority keys, ran as they reached
    the app, before keys typed ahead of them that the screen had not yet handed back (a trial)."""
    from textual import events

    app = RnnApp("recurrence")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for key in burst:  # all queued at once, as a burst arrives
            app.post_message(events.Key(key, None))
        for _ in range(5):
            await pilot.pause()
        screen = app.topic_screen()
        assert (screen.TOPIC_ID, screen.index) == (topic, figure), (screen.TOPIC_ID, screen.index)
        if burst[0] == "right":
            first = screen.states[screen.FIGURES[0].id]  # (the two steps landed on the figure they were typed on)
            fresh = type(first)()
            assert first == fresh.nudged(fresh.AXIS, 1).nudged(fresh.AXIS, 1) != fresh


@pytest.mark.heavy
def test_n_topic_stands_in_one_place_in_every_footer():
    """Each topic put its own keys before "n topic", so a second click where "n topic" had been hit the next
    topic's "t lab" and trained, or its "a act" (a mouse user's trial): "n topic" comes after "space play",
    before the figure's own keys, at one column on every figure."""
    from rnntui.render import render
    from rnntui.topics import build_state, topics

    feet = {f"{screen.TOPIC_ID}/{figure.id}": render(screen, figure, build_state(figure, ()), "txt",
                                                     (120, 30)).splitlines()[-1]
            for screen in topics() for figure in screen.FIGURES}
    assert len({foot.index("n topic") for foot in feet.values()}) == 1, feet
    assert "space play  n topic  t lab  s scoring" in feet["seq2seq/matrix"]
