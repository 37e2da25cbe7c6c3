"""What an app sends the terminal, for tests that count frames and compare them with a fresh render.

    sent = record_frames(app)   # the updates sent from now on
    assert frame_cells(sent[0].strips) == now_cells(app)

    shown = replaying(app, console)   # a terminal fed every byte sent from now on
    assert shown.cells == full_frame(app, console).cells
"""
from __future__ import annotations

import re

from rich.cells import cell_len


def frame_cells(rows) -> list:
    """Each row's letters with their styles, from rows of strips (a whole frame's, LayoutUpdate.strips)."""
    return [[(letter, str(segment.style)) for strip in row for segment in strip for letter in segment.text]
            for row in rows]


def now_cells(app) -> list:
    """What the app's screen draws now, rendered whole and fresh."""
    return frame_cells(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens).strips)


XTERM = {0: (0, 0, 0), 1: (205, 0, 0), 2: (0, 205, 0), 3: (205, 205, 0), 4: (0, 0, 238), 5: (205, 0, 205),
         6: (0, 205, 205), 7: (229, 229, 229), 8: (127, 127, 127)}  # xterm's default colours for the 16's first codes


def contrast_on_white(code: int) -> float:
    """WCAG's contrast of one of the 16 colours, as xterm draws it by default, against white (a bright one,
    from code 9 up, counts as white: none reads on white)."""
    lin = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
           for c in XTERM.get(code, (255, 255, 255))]
    return 1.05 / (0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2] + 0.05)


def colour_codes(app, chars: int | None = None) -> dict:
    """Each text the screen draws now (stripped, its first `chars`) and its colour as one of the 16, as a
    16-colour terminal gets it: the first one drawn of each."""
    from rich.color import ColorSystem

    codes = {}
    for row in app.screen._compositor.render_update(full=True).strips:
        for segment in (segment for strip in row for segment in strip):
            if segment.style and segment.style.color and segment.text.strip():
                codes.setdefault(segment.text.strip()[:chars], segment.style.color.downgrade(ColorSystem.STANDARD).number)
    return codes


def record_frames(app) -> list:
    """The updates the app sends from now on (None: nothing to send, and any while drawing is held,
    which Textual drops: left out)."""
    sent, original = [], app._display

    def display(screen, update):
        if update is not None and not app._batch_count:
            sent.append(update)
        return original(screen, update)

    app._display = display
    return sent


class Terminal:
    """What a terminal shows once it has been sent the app's bytes: each cell's character and the
    colours and attributes (SGR codes) it was written with. Textual moves the cursor (CSI row;col H)
    and writes each run as SGR, text, reset. Writing over either half of a wide character blanks its
    other half in the default colours, as tmux and xterm do."""

    CODES = re.compile(r"\x1b\](?:[^\x07\x1b]|\x1b(?!\\))*(?:\x07|\x1b\\)|\x1b\[([0-9;?]*)([A-Za-z])")

    def __init__(self, width: int, height: int):
        self.cells = [[(" ", "")] * width for _ in range(height)]
        self.x = self.y = 0
        self.sgr = ""

    def feed(self, data: str) -> None:
        at = 0
        for code in self.CODES.finditer(data):
            self.write(data[at:code.start()])
            at = code.end()
            params, command = code.groups()
            if command == "H":
                row, col = (params or "1;1").split(";")
                self.y, self.x = int(row) - 1, int(col) - 1
            elif command == "m":
                self.sgr = "" if params in ("", "0") else params
        self.write(data[at:])

    def write(self, text: str) -> None:
        for char in text:
            if char == "\n":
                self.y, self.x = self.y + 1, 0
                continue
            width = cell_len(char)
            if width == 0:
                continue
            row, x = self.cells[self.y], self.x
            if row[x][0] == "" and x > 0:
                row[x - 1] = (" ", "")  # the left half of a wide character written over
            end = x + width
            if end < len(row) and row[end][0] == "":
                row[end] = (" ", "")  # ... and the right half
            row[x] = (char, self.sgr)
            if width == 2:
                row[x + 1] = ("", self.sgr)
            self.x = end


def full_frame(app, console) -> Terminal:
    """What a fresh full frame of the app's screen draws, on a terminal of the console's size."""
    shown = Terminal(console.width, console.height)
    shown.feed(app.screen._compositor.render_full_update().render_segments(console))
    return shown


def fresh_frame(app, console) -> Terminal:
    """`full_frame` with every line drawn again, none taken from a widget's cache."""
    for widget in app.screen.walk_children(with_self=True):
        widget._styles_cache.clear()
    return full_frame(app, console)


def replaying(app, console) -> Terminal:
    """A terminal showing the app's screen as it is now, then fed every update the app sends (not
    those drawn while drawing is held: Textual drops them)."""
    from textual._compositor import CompositorUpdate

    shown = full_frame(app, console)
    original = app._display

    def display(screen, update):
        if isinstance(update, CompositorUpdate) and not app._batch_count:
            shown.feed(update.render_segments(console))
        return original(screen, update)

    app._display = display
    return shown
