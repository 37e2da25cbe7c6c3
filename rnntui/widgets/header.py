"""The topic screens' header: Textual's, except that writing the title it shows draws nothing.

Textual's Header writes its title from watchers of the screen's title and subtitle, which the topic
screen sets as it mounts: the same title was written twice, each write a repaint. Behind Textual's
50 ms hold of a topic switch nobody saw it; without that hold (RnnApp.switch_mode) the second write
sent the header's row again after the topic's first frame (~170 bytes).
"""
from __future__ import annotations

from textual.widgets import Header
from textual.widgets._header import HeaderClockSpace, HeaderIcon, HeaderTitle

from rnntui.widgets.quiet import content_key


class Title(HeaderTitle):
    _shown: tuple | None = None

    def update(self, content="", *, layout: bool = True) -> None:
        key = content_key(content)
        if key is None or key != self._shown:
            self._shown = key
            super().update(content, layout=layout)


class TopicHeader(Header):
    def compose(self):  # Textual's, with our Title (and no clock)
        yield HeaderIcon().data_bind(Header.icon)
        yield Title()
        yield HeaderClockSpace()

    def _on_click(self, event) -> None:
        """Textual's header grows to three rows on a click, and a stray one cost recurrence/track its plot
        at 80x24 (a trial): it stays one row (≋ still opens the palette)."""
        event.prevent_default()
