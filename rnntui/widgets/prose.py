"""A paragraph that wraps by terminal cells, between any two Chinese characters and at English
spaces (Rich wraps only at spaces, which leaves a Chinese paragraph with ragged, early breaks)."""
from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from rnntui.widgets.cells import wrap


class Prose(Widget):
    DEFAULT_CSS = "Prose { height: auto; }"

    def __init__(self, text: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = text

    def show(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(wrap(self.text, width)) if self.text else 0

    def render(self) -> Text:
        return Text("\n".join(wrap(self.text, self.size.width)), no_wrap=True, overflow="crop")
