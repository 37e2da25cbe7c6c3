"""The footer, in the current language: bindings keep English msgids as their descriptions (the
keyboard contract's `footer` words, marked N_), and this footer translates them as it composes.
`recompose()` it when the language changes."""
from __future__ import annotations

from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

from rnntui.i18n import N_, _

N_("palette")  # Textual's command palette binding, shown in the footer


class RnnFooter(Footer):
    def compose(self):
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description)
                if isinstance(widget.tooltip, str):
                    widget.tooltip = _(widget.tooltip)
            elif isinstance(widget, FooterLabel):
                widget.update(_(str(widget.render())))
            yield widget
