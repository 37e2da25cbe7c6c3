"""What an app sends the terminal, for tests that count frames and compare them with a fresh render.

    sent = record_frames(app)   # the updates sent from now on
    assert frame_cells(sent[0].strips) == now_cells(app)
"""
from __future__ import annotations


def frame_cells(rows) -> list:
    """Each row's letters with their styles, from rows of strips (a whole frame's, LayoutUpdate.strips)."""
    return [[(letter, str(segment.style)) for strip in row for segment in strip for letter in segment.text]
            for row in rows]


def now_cells(app) -> list:
    """What the app's screen draws now, rendered whole and fresh."""
    return frame_cells(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens).strips)


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
