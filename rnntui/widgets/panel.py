"""The figure's frame: a border with the figure's title on its top edge and "n/N" on its bottom edge.
Textual's `border_title` repaints the whole widget: a tab re-rendered all of the panel's rows (37 at
120x40, ~2.6 ms) for a new title and subtitle. `edges` repaints the edge rows only."""
from __future__ import annotations

from textual.containers import Vertical
from textual.geometry import Region


class Panel(Vertical):
    _edges = None  # the title and subtitle last shown

    def edges(self, title: str, subtitle: str) -> None:
        """The border's title and subtitle (console markup, as Textual's `border_title` takes)."""
        if (title, subtitle) == self._edges:
            return
        self._edges = title, subtitle
        top, _right, _bottom, left = self.styles.gutter
        width, height = self.outer_size
        for name, text, y in (("_border_title", title, 0), ("_border_subtitle", subtitle, height - 1)):
            new = self.render_str(text).expand_tabs(4).split()[0]  # what Textual's descriptor stores
            if new != getattr(self, name):
                setattr(self, name, new)
                if width and height:  # (refresh's regions are content-relative)
                    self.refresh(Region(-left, y - top, width, 1))
                else:  # not laid out yet: drawn whole when it is
                    self.refresh()
