"""LaidOutOnMount: what the app awaits after pushing one of its screens, and the footer after mounting a key."""
from __future__ import annotations

from asyncio import create_task, wait

from textual.screen import Screen
from textual.widget import AwaitMount


class LaidOutOnMount(AwaitMount):
    """What the app awaits after pushing one of these screens (App._get_screen): Textual's asks the
    screen, once mounted, for a layout and a full repaint. The screen laid itself out and drew whole
    as it came up, before that, so the repaint sent the same frame a second time (help, ~14 KB at
    120x40, ~25 ms later; the palette, ~9 KB). This one asks for the layout alone: whatever moved since
    is drawn, nothing else. (Also what RnnFooter runs after mounting a key.)"""

    def __await__(self):
        async def await_mount() -> None:
            if self._widgets:
                await wait([create_task(widget._mounted_event.wait(), name="await mount") for widget in self._widgets])
                parent = self._parent
                parent.refresh(layout=True, repaint=False)
                parent.app._update_mouse_over(parent if isinstance(parent, Screen) else parent.screen)

        return await_mount().__await__()
