"""The help screen (`?`): the keyboard contract and what the focused figure shows."""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from rnntui.i18n import N_, _
from rnntui.keys import CONTRACT, keymap_path
from rnntui.screens.whole import WholeFrames
from rnntui.widgets.lines import RenderedLines


def help_renderable(screen) -> Group:
    f, state = screen.figure, screen.state
    about = Text()
    about.append(f"{screen.TOPIC_ID}/{f.id}  {_(f.title)} ({f.refs})\n", style="bold")
    about.append(_(f.prose) + "\n")
    params = Table(box=None, padding=(0, 2, 0, 0), header_style="bold underline")
    for column in (_("parameter"), _("now"), _("allowed"), _("how")):
        params.add_column(column, overflow="fold")
    for p in state.params():
        how = "← →" if p.name == state.AXIS else (_("key {key}").format(key=p.key) if p.key else _("↑↓ then + -"))
        params.add_row(p.name, p.show(getattr(state, p.name)), p.allowed(state), how)
    keys = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    keys.add_column(style="bold", no_wrap=True)
    keys.add_column(overflow="fold")  # a long word (attention/summary) folds rather than being cut with …
    keys.add_column(style="dim", no_wrap=True)
    for k in CONTRACT:
        if k.id == "lab" and f.lab is None:
            continue
        keys.add_row(k.shown, _(k.does), k.id)
    for p in state.params():
        if p.key:
            keys.add_row(p.key, _("cycle {label} ({choices})").format(label=p.label, choices=", ".join(p.choices)),
                         f"toggle_{p.name}")
    remap = Text("\n" + _("Remap a key by its id (right column) in {path}, e.g.").format(path=keymap_path()) + "\n"
                 '  [keys]\n  step_forward = "l,right"\n', style="dim")
    return Group(about, params, Text(""), Text(_("Keys"), style="bold underline"), keys, remap,
                 Text(_("escape or ? closes this"), style="dim"))


SHOT = next(k for k in CONTRACT if k.id == "screenshot")


class HelpScreen(WholeFrames, ModalScreen):
    # a modal screen takes no app keys: ctrl+s (its id, so a keymap moves it here too) shoots help itself.
    # WholeFrames: its first frame waits for the scrollbar's layout and goes out whole, once (it came in
    # four, ~44 KB at 120x40). The see-through background is ModalScreen's, set here: a screen takes the
    # CSS of its first base only (WholeFrames, Screen: opaque), and the topic behind went blank.
    BINDINGS = [("escape,question_mark,q", "dismiss", N_("close")),
                Binding(SHOT.keys, SHOT.action, SHOT.does, show=False, id=SHOT.id)]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; &:ansi { background: transparent; } }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; scrollbar-gutter: stable; border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, topic_screen) -> None:
        super().__init__()
        self.topic_screen = topic_screen

    def compose(self) -> ComposeResult:
        with VerticalScroll() as v:
            v.border_title = _("help")
            yield RenderedLines(help_renderable(self.topic_screen))

    def retranslate(self) -> None:
        self.refresh(recompose=True)
