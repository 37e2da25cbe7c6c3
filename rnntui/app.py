"""The App: topics as modes, the keyboard contract's app-wide keys, themes and screenshots."""
from __future__ import annotations

import os
import time
from pathlib import Path

from textual.app import App
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Static

from rnntui import keys
from rnntui.help import HelpScreen
from rnntui.palette import RnnCommands
from rnntui.screens.base import TopicScreen
from rnntui.state import FigureState
from rnntui.terminal import end_on_hangup
from rnntui.topics import PLANNED, TOPICS

THEMES = {"dark": "textual-dark", "light": "textual-light", "projector": "projector"}

# For slides and projectors: black on white, strong borders, muted text still dark enough to read.
PROJECTOR = Theme(
    name="projector", primary="#0b3d91", secondary="#5b2a86", accent="#0b3d91", warning="#9a4a00",
    error="#b00020", success="#1b6e20", foreground="#000000", background="#ffffff", surface="#ffffff",
    panel="#e6e6e6", dark=False, text_alpha=1.0,
    variables={"text-muted": "#333333", "footer-key-foreground": "#0b3d91", "footer-background": "#e6e6e6",
               "footer-foreground": "#000000", "block-cursor-background": "#0b3d91"},
)


def theme_name(name: str) -> str:
    return THEMES.get(name, name)


# Below this size the app shows one line instead of a topic, and refuses the command palette:
# Textual 8.2.8's palette crashes in a tiny terminal. Upstream report, minimal reproduction:
#
#     from textual.app import App
from textual.screen import Screen
#     class A(App): pass
#     async def main():
#         async with A().run_test(size=(80, 4)) as pilot:   # 4 rows or fewer
#             await pilot.press("ctrl+p", "pagedown")      # KeyError: 0 in OptionList._move_page
#         async with A().run_test(size=(6, 24)) as pilot:   # 6 columns or fewer
#             await pilot.press("ctrl+p")                  # ValueError: range() arg 3 must not be zero
#     asyncio.run(main())                                  #   (rich.cells.chop_cells, width 0)
#
# _move_page indexes `_index_to_line[highlighted or 0]` before the option list has laid out any
# lines (its content region is 0 high); the prompt's width goes to 0 and rich chops at width 0.
MIN_SIZE = (20, 6)


class TooSmall(Screen):
    """Shown over everything while the terminal is below MIN_SIZE; popped when it grows again."""

    DEFAULT_CSS = "TooSmall { background: $background; } TooSmall Static { width: 1fr; height: auto; }"

    def __init__(self) -> None:
        super().__init__()
        self.line = Static()

    def compose(self):
        yield self.line

    def show(self, width: int, height: int) -> None:
        self.line.update(f"terminal too small: {width}×{height}, needs at least {MIN_SIZE[0]}×{MIN_SIZE[1]}")


class RnnApp(App):
    TITLE = "rnntui"
    MODES = {screen.TOPIC_ID: screen for screen in TOPICS}
    BINDINGS = keys.bindings("app")
    COMMANDS = App.COMMANDS | {RnnCommands}

    def __init__(self, topic: str = TOPICS[0].TOPIC_ID, figure: str | None = None,
                 state: FigureState | None = None, theme: str = "dark") -> None:
        super().__init__()
        self.register_theme(PROJECTOR)
        self.start = (topic, figure, state)
        self.theme = theme_name(theme)

    async def on_mount(self) -> None:
        end_on_hangup(self)
        topic, figure, state = self.start
        await self.goto(topic, figure)
        if state is not None:
            self.topic_screen().set_state(state)
        self.fit(self.size.width, self.size.height)

    # -- a terminal too small to draw in ------------------------------------------------------
    def too_small(self) -> bool:
        return isinstance(self.screen, TooSmall)

    def fit(self, width: int, height: int) -> None:
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small and not self.too_small():
            self.push_screen(TooSmall())
        elif not small and self.too_small():
            self.pop_screen()
        if small:
            self.screen.show(width, height)

    def on_resize(self, event) -> None:
        if self.screen_stack:  # before the first mode is up, on_mount fits
            self.fit(event.size.width, event.size.height)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return action in ("quit", "help_quit") or not self.too_small()

    def action_command_palette(self) -> None:
        if not self.too_small():
            super().action_command_palette()

    def topic_screen(self) -> TopicScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TopicScreen):
                return screen
        return None

    async def goto(self, topic: str, figure: str | None = None) -> None:
        await self.switch_mode(topic)
        if figure:
            self.topic_screen().focus_figure(figure)

    # -- app-wide keys ----------------------------------------------------------------------
    def _topic_ids(self) -> list[str]:
        return [t.TOPIC_ID for t in TOPICS]

    async def action_topic_number(self, number: int) -> None:
        wanted = PLANNED[number - 1]
        if wanted in self._topic_ids():
            await self.goto(wanted)
        else:
            self.notify(f"topic {number} ({wanted}) is not built yet", timeout=2)

    async def action_next_topic(self) -> None:
        ids = self._topic_ids()
        await self.goto(ids[(ids.index(self.current_mode) + 1) % len(ids)])

    async def action_previous_topic(self) -> None:
        ids = self._topic_ids()
        await self.goto(ids[(ids.index(self.current_mode) - 1) % len(ids)])

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
        elif self.topic_screen() is not None:
            self.push_screen(HelpScreen(self.topic_screen()))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def shot_name(self) -> str:
        screen = self.topic_screen()
        state = screen.state
        return f"{screen.TOPIC_ID}-{screen.figure.id}-{state.AXIS}{getattr(state, state.AXIS)}-{time.strftime('%H%M%S')}.svg"

    def action_shot(self) -> None:
        folder = Path(os.environ.get("RNNTUI_SHOTS") or "rnntui-shots")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.save_screenshot(self.shot_name(), str(folder))
        except OSError as e:
            self.notify(f"could not save a screenshot in {folder}: {e.strerror}", severity="error")
            return
        self.notify(f"Saved {path}", title="Screenshot")
