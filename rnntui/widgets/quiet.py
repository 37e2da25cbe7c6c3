"""A Static that redraws only what changed (issue 16).

Textual's `Static.update()` lays out the whole screen by default (`layout=True`), which at 120×40 is
most of the time a key press takes. `Static` here is a drop-in replacement with the same name (CSS
type selectors and `query_one("#x", Static)` keep working):

- an update whose content equals what is shown (same text, same styles) does nothing at all;
- otherwise the content is replaced and repainted, and the screen is laid out again only if this
  widget's own size can change: when its height (or width) is `auto` and the new content needs a
  different one. Fixed and fractional sizes never need a layout for new content.

Passing `layout=True` or `layout=False` explicitly does what Textual does.
"""
from __future__ import annotations

from rich.text import Span, Text
from textual.content import Content
from textual.widgets import Static as _TextualStatic

_UNSET = object()


def content_key(content) -> tuple | None:
    """What makes two contents draw the same, or None when that cannot be told cheaply.

    Rich's `Text.__eq__` compares only the characters and spans, not the base style, justify …, and
    Textual's `Content.__eq__` only the characters."""
    if isinstance(content, str):
        return ("str", content)
    if isinstance(content, Text):
        return ("text", content.plain, tuple(content.spans), content.style, content.justify, content.overflow,
                content.no_wrap, content.end, content.tab_size)
    if isinstance(content, Content):
        return ("content", content.plain, tuple(content.spans))
    return None


def compact(text: Text) -> Text:
    """The same text with each run of neighbouring equal-style spans made one span (in place).

    Pictures built a character at a time (bars, grids) carry a span per character, and Textual
    converts a Text span by span at every render; only spans next to each other in the list are
    joined, so the order in which overlapping styles apply does not change."""
    spans = text.spans
    if len(spans) < 2:
        return text
    out = [spans[0]]
    for span in spans[1:]:
        last = out[-1]
        if span.start == last.end and span.style == last.style:
            out[-1] = Span(last.start, span.end, last.style)
        else:
            out.append(span)
    text.spans = out
    return text


def joined(pieces) -> list[tuple]:
    """(words, style) pieces with neighbours of one style made one run, empty words left out."""
    out: list[tuple] = []
    for words, style in pieces:
        if not words:
            continue
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + words, style)
        else:
            out.append((words, style))
    return out


def runs(pieces, **text_args) -> Text:
    """A Text from (text, style) pieces, one span per run of neighbouring pieces of one style (a
    picture appended a character at a time costs a span each, which Rich then splits and renders)."""
    out = Text(**text_args)
    for words, style in joined(pieces):
        out.append(words, style=style or None)
    return out


def _auto(scalar) -> bool:
    return scalar is not None and scalar.is_auto


def same(a, b) -> bool:
    """Equal as drawn inputs: tuples, lists, dataclasses and numpy arrays compared element by element
    (a plain `==` on a tuple holding arrays raises). Unsure (NaN, odd types) counts as changed."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)) or getattr(getattr(a, "__dataclass_params__", None), "eq", False):
        try:  # the fast way: Python compares plain values itself (a float tuple of a plot's series)
            return bool(a == b)
        except (ValueError, TypeError):  # an array inside: compared element by element below
            pass
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if hasattr(a, "__dataclass_fields__"):
        return all(same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    if hasattr(a, "shape") and hasattr(a, "tolist"):  # a numpy array
        return a.shape == b.shape and a.dtype == b.dtype and a.tolist() == b.tolist()
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - cannot tell: draw it again
        return False


def repaint(widget, apply=None) -> None:
    """Apply a change of what `widget` draws (`apply()`), repaint it, and lay the screen out again only
    if the widget's wanted size changed (its width or height is `auto`) or cannot be known yet."""
    # the size it has now (the layout's answer to what it wanted, within its min and max): a layout is
    # needed only if what it wants now differs (a clamped size may take a layout it did not need)
    size = widget.content_size
    width = size.width
    if apply is not None:
        apply()
    if not widget.is_mounted or width <= 0 or not widget.display:
        forget = getattr(widget, "forget", None)  # a Lines widget's kept rows: stale once shown again
        if forget is not None:
            forget()
        lay_out(widget)
        return
    getattr(widget, "changed", widget.refresh)()  # a Lines widget repaints only the rows that differ
    auto_w, auto_h = _auto(widget.styles.width), _auto(widget.styles.height)
    if not (auto_w or auto_h):
        return
    container = widget.parent.size if widget.parent is not None else widget.app.size
    viewport = widget.app.size
    if (auto_w and widget.get_content_width(container, viewport) != size.width) or (
            auto_h and widget.get_content_height(container, viewport, width) != size.height):
        lay_out(widget)


def lay_out(widget) -> None:
    """Ask for a layout that measures `widget` again. Textual keys the size it measured on a count that
    only its first ask before the layout is done moves; a layout that ran in between (the screen's,
    for its Resize) measured the old content and kept it: parallel/timing's table, redrawn with its
    gaps at the view's size, stayed 5 rows of its 8 until something else laid it out; lstm/params' bars
    2 rows of their 4."""
    widget._layout_updates += 1
    widget.refresh(layout=True)


class Static(_TextualStatic):
    _shown_key: tuple | None | object = _UNSET

    def update(self, content="", *, layout: bool | None = None) -> None:
        if isinstance(content, Text):
            compact(content)
        key = content_key(content)
        if layout is not None:
            self._shown_key = key if key is not None else _UNSET
            return super().update(content, layout=layout)
        if key is not None and key == self._shown_key:
            return
        self._shown_key = key if key is not None else _UNSET
        repaint(self, lambda: super(Static, self).update(content, layout=False))
