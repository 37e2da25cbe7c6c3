"""Keys acted on in the order they were typed.

Textual runs a priority binding (tab, shift+tab, ctrl+p, ctrl+z here) as the key reaches the app, and sends
every other key to the screen, which hands it back once its widgets have seen it. Typed in one burst (a
terminal over SSH hands several keys over at once), `3` then tab moved the figure of the topic being left
and then opened topic 3; `2 tab` on a revisit lost both; `3` ctrl+p opened the palette over topic 1 (a
trial). While a key sent to the screen has not come back, a priority key goes the same way and is run as
it comes back, after the keys before it.
"""
from __future__ import annotations

import time

from textual import events

WAIT_S = 0.5  # a key sent to the screen this long ago that has not come back was taken on the way (an input)


class KeysInOrder:
    """An App mixin. Its `_on_key` calls `ran_late(event)` first."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._sent: dict[int, float] = {}  # id of a key sent to the screen, not yet back → when
        self._late: set[int] = set()  # ids of keys sent behind them, priority ones to be run as they come back

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key):
            return await super().on_event(event)
        if event.is_forwarded:  # back from the screen
            self._sent.pop(id(event), None)
            return await super().on_event(event)
        now = time.monotonic()
        self._sent = {k: t for k, t in self._sent.items() if now - t < WAIT_S}
        self._late &= self._sent.keys()
        behind = bool(self._sent)
        await super().on_event(event)  # Textual's priority bindings (none while keys are out), else to the screen
        if event.is_forwarded:
            self._sent[id(event)] = now
            if behind:
                self._late.add(id(event))

    async def _check_bindings(self, key: str, priority: bool = False) -> bool:
        if priority and self._sent:  # (Textual's priority pass, as a key reaches the app: it waits its turn)
            return False
        return await super()._check_bindings(key, priority)

    async def ran_late(self, event: events.Key) -> bool:
        """A priority key held behind earlier ones, run now that they have been: whether a binding took it."""
        if id(event) not in self._late:
            return False
        self._late.discard(id(event))
        return await super()._check_bindings(event.key, priority=True)


class InputInTurn:
    """An Input mixin: its own bound keys (backspace, ctrl+u, ←, …) act as they reach it, in turn with the
    letters it inserts. Textual runs them on the way back from the screen to the app, after a letter typed
    behind them in one burst has gone in: "ctrl+u 7" left "", "backspace 4 5" gave "4" (a trial, over tmux)."""

    async def _on_key(self, event: events.Key) -> None:
        # (not enter: it submits as before, once the palette has searched for the letters before it; at once,
        # "set seed 5" and enter in one burst closed the palette with nothing done, a check in tmux)
        if not event.is_printable and event.key != "enter":
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)
