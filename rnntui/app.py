"""The App: topics as modes, the keyboard contract's app-wide keys, themes and screenshots."""
from __future__ import annotations

import os
import time
from pathlib import Path

from textual.app import App
from textual.theme import Theme

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
