"""The footer, in the current language, showing only the keys it can show whole.

Bindings keep English msgids as their descriptions (the keyboard contract's `footer` words, marked
N_); this footer translates them as it composes (`recompose()` it when the language changes). An item
that would be cut at the right edge (or run under the command palette's key) is left out; the others
stay whole and readable."""
from __future__ import annotations

from rich.cells import cell_len
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

from rnntui.i18n import N_, _

N_("palette")  # Textual's command palette binding, shown in the footer


def key_width(key: FooterKey) -> int:
    """The cells a non-compact FooterKey takes: " key " then "description "."""
    return cell_len(key.key_display) + 2 + (cell_len(key.description) + 1 if key.description else 0)


def translated(items):
    for widget in items:
        if isinstance(widget, FooterKey):
            widget.description = _(widget.description)
            if isinstance(widget.tooltip, str):
                widget.tooltip = _(widget.tooltip)
        elif isinstance(widget, FooterLabel):
            widget.update(_(str(widget.render())))
        yield widget


class RnnFooter(Footer):
    def compose(self):
        items = list(translated(super().compose()))
        width = self.app.size.width
        palette = [k for k in items if isinstance(k, FooterKey) and k.has_class("-command-palette")]
        # the palette's key is drawn compact ("^p palette"), after a border and before a space
        room = width - sum(cell_len(k.key_display) + 1 + cell_len(k.description) + 2 for k in palette)
        kept, used = [], 0
        for item in items:  # in order, each that still fits whole (a later, shorter one may)
            if item in palette:
                continue
            need = key_width(item) if isinstance(item, FooterKey) else room + 1
            if used + need <= room:
                kept.append(item)
                used += need
        yield from kept + palette

    def on_resize(self) -> None:
        self.call_after_refresh(self.recompose)


FittingFooter = RnnFooter
