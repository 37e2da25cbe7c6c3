"""The App: topics as modes, the keyboard contract's app-wide keys, themes and screenshots."""
from __future__ import annotations

import time
from dataclasses import fields, replace
from typing import NamedTuple

from rich.align import Align
from rich.text import Text
from textual import events
from textual.actions import parse as parse_action
from textual._dispatch_key import dispatch_key
from textual.app import App
from textual.reactive import reactive
from textual.screen import Screen
from textual.command import CommandInput, CommandList, CommandPalette
from textual.theme import Theme
from textual.widgets import Static
from textual.widgets.option_list import Option

from rnntui import keys, topics
from rnntui.collector import QUIET, QuietCollections
from rnntui.help import HelpScreen
from rnntui.i18n import _, language, set_language
from rnntui.keyorder import KeysInOrder
from rnntui.palette import PaletteInput, PaletteList, RnnCommands, ValuePrompt
from rnntui.screens.base import TopicScreen
from rnntui.screens.backdrop import SeeThrough
from rnntui.screens.whole import AtTerminalSize, forget_arrangements
from rnntui.widgets.mounting import LaidOutOnMount
from rnntui.shots import Shots
from rnntui.state import FigureState
from rnntui.terminal import colours_256, end_on_hangup, few_colours, sturdy, suspend
from rnntui.toasts import MOUNT_MOST, WholeToastRows
from rnntui.topics import IDS, NUMBERS, topic

PRELOAD_AFTER = 1.0  # seconds after the first frame before the other topics are imported (`preload`)

THEMES = {"dark": "rnntui-dark", "light": "rnntui-light", "projector": "projector"}

# For slides and projectors: black on white, strong borders, muted text still dark enough to read.
PROJECTOR = Theme(
    name="projector", primary="#0b3d91", secondary="#5b2a86", accent="#0b3d91", warning="#9a4a00",
    error="#b00020", success="#1b6e20", foreground="#000000", background="#ffffff", surface="#ffffff",
    panel="#e6e6e6", dark=False, text_alpha=1.0,
    variables={"text-muted": "#333333", "footer-key-foreground": "#0b3d91", "footer-background": "#e6e6e6",
               "footer-foreground": "#000000", "block-cursor-background": "#0b3d91"},
)


# Textual's dark theme with a grey panel (header, footer): its slate #242F38 turned navy (0,0,95) in 256
# colours, as over SSH, where COLORTERM is not passed on (a newcomer's trial); #2B2F33 becomes grey 236.
DARK = Theme(
    name="rnntui-dark", primary="#0178D4", secondary="#004578", accent="#ffa62b", warning="#ffa62b",
    error="#ba3c5b", success="#4EBF71", foreground="#e0e0e0",
    # as variables, not `panel=`: a theme's own panel skips Textual's boost, and hovered footer keys and
    # palette options turned darker, not lighter (a review)
    variables={"panel": "#2B2F33", "footer-background": "#2B2F33"},
)

# Textual's light theme, its accent (the focused figure's outline) and footer keys darker: #ffa62b on
# #E0E0E0 was 1.5:1, the outline nearly invisible (a newcomer's trial); now 3.7:1 and 5.3:1.
LIGHT = Theme(
    name="rnntui-light", primary="#004578", secondary="#0178D4", accent="#a85400", warning="#a85400",
    error="#ba3c5b", success="#2e7d46", surface="#D8D8D8", panel="#D0D0D0", background="#E0E0E0", dark=False,
    variables={"footer-key-foreground": "#00508f"},
)


def theme_name(name: str) -> str:
    return THEMES.get(name, name)


def use_themes(app, theme: str) -> None:
    """Our themes registered, the palette darkened on light backgrounds (rnntui.ink), `theme` set."""
    from rnntui import ink

    for theme_ in (DARK, LIGHT, PROJECTOR):
        app.register_theme(theme_)
    ink.install(app)
    app.theme = theme_name(theme)


class Link(NamedTuple):
    """A link followed: where from, and the topic it opened as it was (screen, focused figure, states)
    with the values the link set there."""
    from_topic: str
    from_figure: str
    screen: TopicScreen
    figure: str
    states: dict
    set: dict


def _opener(topic_id: str):
    return lambda: topic(topic_id)()  # a topic's screen module is imported when first opened


# Textual 8.2.8's command palette crashes in four ways; upstream report, minimal reproductions:
#
#   1. KeyError in OptionList._move_page: page down/up before the command list is laid out. It
#      indexes `_index_to_line[highlighted or 0]` while that is still empty (content region 0 high):
#      always in a terminal of 4 rows or fewer, at any size when the keys are typed ahead.
#
#          app = App()
#          async with app.run_test(size=(80, 24)) as pilot:     # or size=(80, 4), pilot.press(...)
#              for key, char in (("ctrl+p", None), ("u", "u"), ("pagedown", None)):
#                  app._driver.send_message(events.Key(key, char))   # typed ahead, no pause
#              await pilot.pause()                                   # KeyError: 0
#
#   2. ValueError in rich.cells.chop_cells (range() arg 3 must not be zero): the palette opened in
#      a terminal of 6 columns or fewer leaves its prompt 0 wide.
#
#          async with App().run_test(size=(6, 24)) as pilot:
#              await pilot.press("ctrl+p")                           # ValueError
#
#   3. NoMatches in CommandPalette._watch__list_visible (or _watch__show_busy): a search that
#      finishes while the palette closes sets `_list_visible` on a palette whose CommandList is
#      already removed. Seen once in 1,500 fuzzed keys under load; the same, deterministically:
#
#          app = App()
#          async with app.run_test() as pilot:
#              await pilot.press("ctrl+p"); palette = app.screen
#              await palette.query_one(CommandList).remove()
#              palette._list_visible = True                          # NoMatches
#
#   4. ScreenStackError in App.pop_screen: Enter pressed twice (the second typed before the palette
#      has closed), whatever the command. The first runs the chosen command and dismisses the
#      palette; the second selects it again, runs it again and dismisses again, popping the screen
#      under the palette (the only one here: each topic is a mode of one screen). Found by the fuzz
#      test; a double press in a lecture would end the app.
#
#          app = App()
#          async with app.run_test() as pilot:
#              await pilot.press("ctrl+p", *"quit")
#              for key in ("enter", "enter"):
#                  app._driver.send_message(events.Key(key, None))   # ScreenStackError
#
# Here: the palette ignores page keys until its list has a height, changes nothing once its widgets
# are gone, and forgets a command once it has run it (Palette below); below MIN_SIZE the app shows
# one line instead of a topic and refuses the palette.
MIN_SIZE = (20, 6)


class Palette(SeeThrough, AtTerminalSize, CommandPalette):
    """Textual's palette, except that list keys wait until the list is there and laid out (bug 1 above),
    a search that ends after the palette's widgets are gone changes nothing (bug 3 above), a command
    runs once however often Enter is pressed (bug 4 above), its list draws less (PaletteList), and a key
    typed is drawn with the matches it makes, in one frame (`hold_for_matches`)."""

    _ran = False  # the chosen command has run: the palette is closing

    def compose(self):
        for widget in super().compose():  # Textual's, with a list that draws less (PaletteList), an input
            if type(widget) is CommandList:  # that holds drawing until its matches are in (PaletteInput)
                widget = PaletteList(id=widget.id, classes=" ".join(widget.classes))
            elif type(widget) is CommandInput:
                widget = PaletteInput(placeholder=widget.placeholder, select_on_focus=False)
            yield widget

    # A key typed in the palette holds drawing until the list shows the commands it matches (searched in
    # a worker, ~10 ms later): Textual drew the letter typed, then the list in a frame of its own one
    # or two frame periods later (its update timer), ~40-50 ms after the key at 120x40. A search that
    # matches nothing ends only after 0.1 s (Textual's wait for more matches): the letter is drawn first.
    HOLD_MOST = 0.03  # seconds
    _hold = None  # (the timer that ends the hold, the app)

    def hold_for_matches(self) -> None:
        if self._hold is None:
            app = self.app
            app._begin_batch()
            app.drawn_held = False
            self._hold = (app.set_timer(self.HOLD_MOST, self._let_go), app)  # (the app's: outlives the palette)

    def _let_go(self) -> None:
        if self._hold is not None:
            (timer, app), self._hold = self._hold, None
            timer.stop()
            app._end_batch()
            if app._batch_count:
                return
            if app.drawn_held:  # a frame drawn while held was dropped by Textual: drawn whole, as
                app.screen.refresh()  # Textual's own hold (App.delay_update) ends
            else:
                app.screen.check_idle()  # what waits is drawn at its screen's next idle

    def _on_unmount(self, event) -> None:
        self._let_go()

    _relaying = False

    def _compositor_refresh(self) -> None:
        """The list's scrollbar shows or hides as its new height is laid out, after the layout placed
        it as it was: laid out again now, before the frame (else a second frame sent the whole list)."""
        lists = self.query(PaletteList)
        if not self._relaying and lists and lists.first()._layout_required and self.is_current:
            self._relaying = True
            lists.first()._layout_required = False  # (this is the layout it asks for)
            forget_arrangements(lists.first())
            try:
                self._refresh_layout()  # (which draws)
            finally:
                self._relaying = False
            return
        super()._compositor_refresh()

    async def _search_for(self, search_value: str):
        """The providers' hits, one provider after another. Textual runs each in a task and waits up to
        0.1 s at a time for hits from those not done; a search that matched nothing (its tasks done
        before the first wait) ended only after that wait, so a letter typed that matches nothing
        emptied the list ~110 ms after the key. The app's providers answer at once (no waits)."""
        for provider in self._providers:
            try:
                async for hit in provider._search(search_value):
                    if (yield hit):  # aborted: a newer search is coming
                        return
            except Exception:  # noqa: BLE001 - logged, as Textual does, not raised in the app
                from rich.traceback import Traceback

                self.log.error(Traceback())

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """Textual's, with its "No matches found" in the app's language."""
        self._stop_no_matches_countdown()

        def show() -> None:
            if search_value:
                self.query_one(CommandList).add_option(Option(Align.center(Text(_("No matches found"), style="not bold")),
                                                              disabled=True, id=self._NO_MATCHES))
            self._list_visible = bool(search_value)

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show)

    def _refresh_command_list(self, *args) -> None:
        super()._refresh_command_list(*args)
        self._let_go()

    def _select_or_command(self, event=None) -> None:
        # a choice from the list comes here by name (Textual's `_select_command`, also for the second
        # of two Enters, which selected the option again before the first selection was handled);
        # once a command has run it is forgotten, so an Enter still queued (Textual's own handler)
        # finds nothing to run
        if self._ran:
            return
        chosen = None if self._list_visible else self._selected_command
        super()._select_or_command(event)
        if chosen is not None:
            self._ran, self._selected_command = True, None

    def _action_command_list(self, action: str) -> None:
        lists = self.query(CommandList)  # none yet (or any more) while it opens or closes
        if not lists or (action.startswith("page_") and not lists.first().scrollable_content_region.height):
            return
        super()._action_command_list(action)

    def _watch__list_visible(self) -> None:
        if self.query(CommandList) and self.query("#--input"):
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self.query(CommandList) and self.query("LoadingIndicator"):
            await super()._watch__show_busy()


class TooSmall(Static):
    """The one line a screen shows, all else hidden, while the terminal is below MIN_SIZE.

    Mounted into the current screen, not pushed as a screen of its own: the stack (and each
    topic's own stack) stays as it was, so growing again needs nothing undone."""

    def show(self, width: int, height: int) -> None:
        self.update(_("terminal too small: {w}×{h}, needs at least {mw}×{mh}").format(
            w=width, h=height, mw=MIN_SIZE[0], mh=MIN_SIZE[1]))


class RnnApp(KeysInOrder, Shots, WholeToastRows, QuietCollections, App):
    TITLE = "rnntui"
    CSS_PATH = "rnntui.tcss"
    MODES = {topic_id: _opener(topic_id) for topic_id in IDS}
    BINDINGS = keys.bindings("app")
    COMMANDS = App.COMMANDS | {RnnCommands}
    # the language every text is drawn in (en, zh): the command palette switches it live; setting it
    # calls rnntui.i18n.set_language and redraws the open topic (the others redraw when next shown)
    language: reactive[str] = reactive("en", init=False)

    def __init__(self, topic: str = IDS[0], figure: str | None = None,
                 state: FigureState | None = None, theme: str = "dark", lang: str | None = None) -> None:
        # open on the topic's own screen (mode), not on Textual's blank default screen first: saves
        # mounting that screen, a stylesheet re-parse and, above all, switch_mode's 50 ms of
        # suppressed drawing (delay_update) before the first frame
        self.DEFAULT_MODE = topic if topic in IDS else IDS[0]
        super().__init__()
        if lang is not None:
            set_language(lang)
        self.set_reactive(RnnApp.language, language())
        self.start = (topic, figure, state)
        # topic → (figure, state) its screen opens at, read as it composes (the first topic's screen is made
        # before on_mount); the state drawn once: the default's first draw was thrown away, a review
        self.opening: dict[str, tuple[str | None, FigureState | None]] = (
            {self.DEFAULT_MODE: (figure, state)} if figure or state is not None else {})
        use_themes(self, theme)
        keymap, self.keymap_problem = keys.user_keymap()
        if keymap:
            self.set_keymap(keymap)
        if "palette" in self._keymap:  # the key the footer shows at its right end (Textual's, looked up by key)
            self.COMMAND_PALETTE_BINDING = self._keymap["palette"].split(",")[0].strip()

    def get_driver_class(self):
        return sturdy(super().get_driver_class())

    def _on_compose(self, event) -> None:
        """Textual's handler (App._on_compose, run after this one unless prevented) mounts what an app
        composes into its first screen together with that screen's own widgets, which a topic's screen
        has mounted already: ~2 ms, and one more layout of the whole screen before the first frame.
        RnnApp composes nothing; each topic's screen composes its own."""
        if type(self).compose is App.compose:
            event.prevent_default()
            self._compose_screen = self.screen  # (App.default_screen) as Textual's handler sets it

    _covering = False  # push_screen is covering the current screen with one of ours

    def push_screen(self, screen, *args, **kwargs):
        """As Textual's, but the screen being covered is not asked to repaint itself whole when the
        screen pushed is one of ours, which draws its first frame whole, the covered screen in it
        (AtTerminalSize.refresh): when that ask was drawn after the first frame (help just after a
        palette command), the same picture went out twice (~14 KB twice at 120x40)."""
        self._covering = isinstance(screen, AtTerminalSize)
        try:
            return super().push_screen(screen, *args, **kwargs)
        finally:
            self._covering = False

    def _get_screen(self, screen):
        """As Textual's, but what it awaits once one of our screens is mounted lays it out without
        repainting it whole (LaidOutOnMount)."""
        found = self.get_screen(screen)
        if found.is_running or not isinstance(found, AtTerminalSize):
            return super()._get_screen(found)
        mounted = LaidOutOnMount(found, self._register(self, found))
        self.call_next(mounted)
        return found, mounted

    def _prune(self, *nodes, parent=None):
        """Textual removes a closed screen (help, the palette) with the app as its parent, and once it
        is gone asks the app for a layout and a repaint: the screen under it, which drew itself whole
        as it came back, then sent the same frame again ~25 ms later (~11 KB at 120x40). A screen's
        removal changes nothing the app shows, so the app is not asked (a widget's removal still is)."""
        if parent is self and all(isinstance(node, Screen) for node in nodes):
            parent = None
        return super()._prune(*nodes, parent=parent)

    async def on_event(self, event) -> None:
        """The right and middle buttons do nothing: a right-click (a terminal's paste or menu) on the footer's
        "q quit" ended the app, and a middle-click on a tab changed figure (a newcomer's trial)."""
        if isinstance(event, (events.MouseDown, events.MouseUp, events.Click)) and event.button > 1:
            return
        await super().on_event(event)

    async def _on_key(self, event) -> None:
        """A key nothing takes says so on a figure, briefly (a student pressed `a`, gradients' key, on
        recurrence and saw nothing happen: a trial). Keys typed into the palette never come here."""
        event.prevent_default()  # (App's own handler, which this one is with the word added, is not run too)
        if self._exit:  # quitting: keys typed after q opened a topic as the app closed, and a note said on it,
            return  # never laid out, ended the app with a traceback (a trial)
        if await self.ran_late(event):  # a priority key typed behind others (rnntui.keyorder)
            return
        if await self._check_bindings(event.key) or await dispatch_key(self, event):
            return
        if event.key == "escape" and isinstance(self.screen, TopicScreen) and self.screen.withdraw_question():
            return
        back = any(b.id == "back" for b in self._bindings.key_to_bindings.get(event.key, ()))
        if back and isinstance(self.screen, TopicScreen):  # (check_action: off without a link to go back along;
            # b said "no key on lstm/cell" beside help's "b: back to the table a link came from", an audit)
            self.screen.at_end.say(_("{key}: nothing to go back to; it returns from a link you followed")
                                   .format(key=keys.key_shown(event.key)))
        elif event.is_printable and isinstance(self.screen, TopicScreen):
            words = _("{key}: no key on {figure}; {help} lists its keys").format(
                key=event.character, figure=f"{self.screen.TOPIC_ID}/{self.screen.figure.id}",
                help=keys.in_use(self).one("help"))
            self.screen.at_end.say(words)  # (one at a time, however many keys; in the panel's
            # edge, as a parameter's end is: a toast covered the figure's last rows)

    async def on_mount(self) -> None:
        end_on_hangup(self)
        self.set_class(few_colours(self), "-few-colours")
        self.set_class(colours_256(self), "-256-colours")  # (on light, the palette darker still: rnntui.ink)
        self.hold_full_collections()
        if self.keymap_problem:
            self.notify(self.keymap_problem, severity="warning")
        topic, figure, state = self.start
        await self.goto(topic, figure, wait=False)
        if state is not None:
            self.topic_screen().set_state(state)
        self.screen_change_signal.subscribe(self, lambda _screen: self.fit())
        self.fit()
        if not (self.is_headless or self.is_web):  # served: idle sessions stay small (README)
            self.set_timer(PRELOAD_AFTER, self.preload)

    def preload(self) -> None:
        """Once the first topic is up and nobody is typing, import the other topics in the background
        (`topics.preload`): the first `n` in a terminal took 240–300 ms, ~150 of them importing numpy.
        It costs ~16 MB, once."""
        if not self.quiet():
            self.set_timer(QUIET, self.preload)
            return
        try:
            topics.preload()
        except RuntimeError:  # no thread to spare: each topic is imported when opened, as without
            pass

    def switch_mode(self, mode: str):
        """A topic comes up without Textual's 50 ms hold of all drawing (App.delay_update, there to hide
        a new screen's half-built frames): a topic screen sends none (WholeFrames holds a frame until
        its views have taken their sizes, TopicScreen sends its first one whole). Back to a topic its
        frame arrives in ~20 ms, not ~60; a new one in ~55 ms, not ~75 (the bench's medians, in
        process; in a terminal, the topics preloaded, building its screen took as long as the hold
        did: ~90 ms both). The palette's commands are still held: Textual holds drawing as the
        palette closes."""
        self._opening = mode in self.MODES and not self._screen_stacks.get(mode)
        left = self.topic_screen() if mode != self.current_mode else None
        if left is not None:  # its lab stops (the topic screen stops it when suspended; under help, the
            left.stop_labs()  # palette going to another topic suspended help alone, and the run went on: a review)
        # (a topic under a toast is held until its toasts are mounted: Textual mounts them on its screen
        # after its first frame, and the toast went away for ~60-100 ms; WholeToastRows.hold_for_toasts)
        self._switching = True
        try:
            return super().switch_mode(mode)
        finally:
            self._switching = self._opening = False

    _switching = _opening = False  # inside switch_mode; a topic opening
    offscreen = False  # render.Session: frames are taken whole once drawn; nothing to hold or send before

    _drawn_first = False
    _after_first: list = []  # callbacks waiting for the first frame

    def after_first_frame(self, callback) -> None:
        """Call `callback` once the app's first frame is drawn (at once in render.Session, or later): work
        the first frame need not wait for, e.g. an import only a part below the fold needs. (Textual's
        call_after_refresh ran before the first frame, while drawing was held; a plain call_later runs
        after it only by the order Textual handles messages in.)"""
        if self.offscreen or self._drawn_first:
            self.call_later(callback)
        else:
            self._after_first = self._after_first + [callback]

    def _display(self, screen, renderable) -> None:
        super()._display(screen, renderable)
        if not self._drawn_first and renderable is not None and not self._batch_count:  # (one test a frame after)
            self._drawn_first, waiting, self._after_first = True, self._after_first, []
            for callback in waiting:
                self.call_later(callback)

    def delay_update(self, delay: float = 0.05) -> None:
        if self.offscreen or (self._switching and not self._notifications):
            return
        if self._switching:  # under a toast: held until the toasts are on the new screen
            self.hold_for_toasts(max(delay, MOUNT_MOST))
        else:
            super().delay_update(delay)

    # -- a terminal too small to draw in ------------------------------------------------------
    def too_small(self) -> bool:
        return self.has_class("-too-small")

    def fit(self) -> None:
        """Below MIN_SIZE: hide the current screen's widgets behind one line; above: show them.
        Uses the app's size, never a resize event's (one may be stale)."""
        width, height = self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        if small and isinstance(self.screen, CommandPalette):
            self.screen.dismiss()  # the fit below runs again once the topic screen is back
            return
        lines = self.screen.query_children(TooSmall)
        if small and not lines:
            self.screen.mount(line := TooSmall())
            line.show(width, height)
        elif small:
            lines.first().show(width, height)
        elif lines:
            lines.remove()

    whole_due = False  # the terminal's size changed and no whole frame has been drawn since
    drawn_held = False  # a frame was drawn while drawing was held (AtTerminalSize._compositor_refresh)

    def on_resize(self, event) -> None:
        self.whole_due = True
        if self.current_mode in self.MODES:  # before the first topic is up, on_mount fits
            self.call_later(self.fit)  # after App._on_resize has taken the new size

    _sized = False  # the terminal's first size is known

    def _check_resize(self) -> None:
        """The Resize handed to the screens is marked as the terminal's (the screens also post
        themselves Resizes, as they are laid out), after its first (AtTerminalSize._on_resize)."""
        if self._resize_event is not None:
            self._resize_event.from_terminal = self._sized
            self._sized = True
        super()._check_resize()

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:
        """Every key's action goes through here: below MIN_SIZE only quitting runs; once quitting, none
        (q then tab, a priority key, switched figure as the app closed: a traceback, a trial). Textual's
        widgets pass their namespaces too (a click on the header's ≋ ended the app: a trial)."""
        if self._exit or (self.too_small() and parse_action(action)[1] not in ("quit", "help_quit")):
            return True  # swallowed
        return await super().run_action(action, default_namespace, namespaces)

    def refresh_css(self, animate: bool = True) -> None:
        """Textual restyles the app when a topic's screen first opens (its mode's screen is new) by
        parsing every stylesheet again and emptying the parse cache, so the next widgets' CSS parses
        everything a third time: 18 ms of the first frame. With the theme's variables unchanged the
        parsed rules stand; only applying them again is needed (issue 16)."""
        sheet = self.stylesheet
        if getattr(sheet, "_variables", None) != self.get_css_variables() or not hasattr(sheet, "reparse"):
            return super().refresh_css(animate)
        if self._opening:
            # Opening a topic, Textual restyles twice: the screen being left (it is current already)
            # and the new one, whose widgets take the rules as they mount. Restyling them resets every
            # widget's styles, lays the screen out again and sends a second frame (~8 KB, the same cells)
            self.screen._css_update_count = self._css_update_count
            return
        sheet.set_variables = sheet.reparse = lambda *_: None
        try:
            super().refresh_css(animate)
        finally:
            del sheet.set_variables, sheet.reparse  # the class's own again

    def get_system_commands(self, screen):
        """None of Textual's own: its Theme opens a second palette with themes outside ours (and bug 1
        above), Screenshot and Keys duplicate ctrl+s and ?, and Quit listed first made ctrl+p, enter
        end the app; q quits."""
        yield from ()

    def action_command_palette(self) -> None:
        if not self.too_small() and self.use_command_palette and not CommandPalette.is_open(self):
            if isinstance(self.screen, ValuePrompt):  # in its place: a palette over it left the prompt behind,
                self.screen.dismiss(None)  # which took the keys meant for the topic (a lecturer's trial)
            self.push_screen(Palette(id="--command-palette", placeholder=_("Search for commands…")))

    def opened_topic(self, topic_id: str) -> TopicScreen | None:
        """A topic's screen, if it has been opened (its mode made), shown or not."""
        stack = self._screen_stacks.get(topic_id)
        return stack[0] if stack and isinstance(stack[0], TopicScreen) else None

    def topic_screen(self) -> TopicScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TopicScreen):
                return screen
        return None

    async def goto(self, topic: str, figure: str | None = None, wait: bool = True) -> None:
        """Show a topic (and figure); `wait`: until the figure's view is mounted and drawn (not from
        on_mount: the view cannot mount while the app's own mount is waiting)."""
        if figure and not self.opened_topic(topic):  # composed in place of its first figure, which was
            self.opening[topic] = (figure, None)  # drawn for a moment (`rnntui serving/wayback`, a trial)
        await self.switch_mode(topic)
        if figure:
            screen = self.topic_screen()
            screen.focus_figure(figure)
            if wait:
                await screen.add_view(screen.figure)

    # -- app-wide keys ----------------------------------------------------------------------
    async def action_topic_number(self, number: int) -> None:
        wanted = [t for t, n in NUMBERS.items() if n == number]
        if wanted:
            await self.goto(wanted[0])
        else:
            self.notify(_("topic {number} is not built yet").format(number=number), timeout=2)

    async def action_next_topic(self) -> None:
        await self.goto(IDS[(IDS.index(self.current_mode) + 1) % len(IDS)])

    async def action_previous_topic(self) -> None:
        await self.goto(IDS[(IDS.index(self.current_mode) - 1) % len(IDS)])

    def action_suspend(self) -> None:
        suspend(self)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
        elif self.topic_screen() is not None:
            self.push_screen(HelpScreen(self.topic_screen()))

    # -- links: Enter on a table cell jumps to a figure; backspace comes back ------------------
    # Back undoes the values a link set where they still stand: a link shows a setting (attention/summary's
    # "what it left" set gradients/product to relu and W_h 1.6, and every gradients figure kept it); what
    # the user changed after the link (a value, a live run) stays.
    came_from: Link | None = None

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "back":
            return self.came_from is not None
        return True

    async def follow(self, address: str, sets=(), step=None) -> None:
        """Open a figure (`topic/figure`) in the state `--set` and `--step` would give it, remembering where we
        were for `back`; BadValue (nothing opened) if the address or a value is refused."""
        screen, found = topics.find(address, sets)
        state = topics.build_state(found, sets, step)
        topic, figure = screen.TOPIC_ID, found.id
        here, opened = self.topic_screen(), self.opened_topic(topic)
        if opened is None:  # composed at the linked figure (its first was drawn for a moment)
            self.opening[topic] = (figure, None)
        await self.switch_mode(topic)
        there = self.topic_screen()
        before, was = dict(there.states), there.figure.id if opened else there.FIGURES[0].id
        await self.goto(topic, figure)
        there.set_state(state)
        linked = {f.name: getattr(state, f.name) for f in fields(state)  # what the link set, no more
                  if f.compare and getattr(before[figure], f.name) != getattr(state, f.name)}
        self.came_from = Link(here.TOPIC_ID, here.figure.id, there, was, before, linked) if here is not None else None
        self.refresh_bindings()  # back is on now: its key answers the first press, and the footer says it (in a
        # terminal the first backspace after a link to a topic not yet opened went unheard, a trial)

    async def action_back(self) -> None:
        if self.came_from is not None:
            link, self.came_from = self.came_from, None
            there = link.screen
            for fid, now in there.states.items():  # undo the link's values where they still stand
                was = link.states[fid]
                undo = {n: getattr(was, n) for n, v in link.set.items()
                        if hasattr(now, n) and getattr(now, n) == v != getattr(was, n)}
                # (clamped: a value the user moved after the link can be out of the undone one's range, k 11 of n 4)
                there.states[fid] = replace(now, **undo).clamped() if undo else now
            there.focus_figure(link.figure)
            # its view mounted and drawn before leaving: a new one (the linked topic's first visit) held the
            # frame of the table we came back to until the next key (a trial: "the first backspace is ignored")
            await there.add_view(there.figure)
            await self.goto(link.from_topic, link.from_figure)
            self.refresh_bindings()

    def validate_language(self, lang: str) -> str:
        from rnntui.i18n import check_language

        return check_language(lang)

    def watch_language(self, lang: str) -> None:
        set_language(lang)
        for screen in self.screen_stack:
            if hasattr(screen, "retranslate"):
                screen.retranslate()

    def action_toggle_theme(self) -> None:
        self.theme = THEMES["light"] if self.theme == THEMES["dark"] else THEMES["dark"]

    def shot_name(self) -> str:
        """Named as export names its files, then the time: `gradients-product-relu-hop199-121049.svg` (it had the
        axis only: tanh's and ReLU's shots read alike, a review)."""
        from rnntui.slides import Frame

        screen = self.topic_screen()
        return f"{Frame(screen, screen.figure, screen.state).named_for_files()}-{time.strftime('%H%M%S')}.svg"

    def action_shot(self) -> None:
        self.take_shot(self.shot_name())

    def action_help_quit(self) -> None:
        """ctrl+c: how to quit, in the app's language, in the panel's edge on a topic (Textual's toast was
        English under zh and covered a running lab's lines, a student's trial)."""
        words = _("{key} quits the app (ctrl+c does not)").format(key=keys.in_use(self).one("quit"))
        if isinstance(self.screen, TopicScreen):
            self.screen.at_end.say(words)
        else:
            self.notify(words)

    def hush_notes(self) -> bool:
        screen = self.screen
        return isinstance(screen, TopicScreen) and screen.at_end.hush()
