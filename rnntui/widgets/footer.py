"""The footer, in the current language, showing only the keys it can show whole.

Bindings keep English msgids as their descriptions (the keyboard contract's `footer` words, marked
N_); this footer translates them as it composes (`recompose()` it when the language changes). An item
that would be cut at the right edge (or run under the command palette's key) is left out; the others
stay whole and readable."""
from __future__ import annotations

from rich.cells import cell_len
from textual.compose import compose
from textual.widget import AwaitMount
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

from rnntui.i18n import N_, _, language
from rnntui.widgets.mounting import LaidOutOnMount
from rnntui.widgets.quiet import lay_out


def key_width(key: FooterKey) -> int:
    """The cells a non-compact FooterKey takes: " key " then "description "."""
    return cell_len(key.key_display) + 2 + (cell_len(key.description) + 1 if key.description else 0)


PAUSE = N_("pause")  # what space does while a figure plays
STOP = N_("stop")  # what t does while the figure's lab runs (it said "t lab" beside "t stops", a trial)
LATER = "next_topic"  # the key kept only where the figure's own keys leave room


def translated(items, playing: bool = False, lab_runs: bool = False):
    for widget in items:
        if isinstance(widget, FooterKey):
            word = (PAUSE if playing and widget.action == "play" else
                    STOP if lab_runs and widget.action == "lab" else widget.description)
            widget.description = _(word)  # (chosen first: inside _(), babel took "play" "lab" for one msgid)
            if isinstance(widget.tooltip, str):
                widget.tooltip = _(widget.tooltip)
        elif isinstance(widget, FooterLabel):
            widget.update(_(str(widget.render())))
        yield widget


KEY_FIELDS = ("key", "key_display", "description", "action", "_disabled", "tooltip")  # what a FooterKey shows and does


def rewrite(mounted: FooterKey, key: FooterKey) -> None:
    """What `key` shows and does, written into the mounted FooterKey (it keeps its place)."""
    values = [getattr(key, field) for field in KEY_FIELDS]
    if [getattr(mounted, field) for field in KEY_FIELDS] == values:
        return
    for field, value in zip(KEY_FIELDS, values):
        setattr(mounted, field, value)
    mounted.styles.width = key.styles.width  # (set as it was composed)
    mounted.set_class(key._disabled, "-disabled")
    lay_out(mounted)


def apart(widgets: list) -> tuple[list, list]:
    """The keys, and the command palette's key (none or one)."""
    palette = [w for w in widgets if w.has_class("-command-palette")]
    return [w for w in widgets if w not in palette], palette


class RnnFooter(Footer):
    _drawn = None  # what the mounted keys were made from (see `recompose`)
    _held = False  # a recompose waits for its screen to be on top again (see `recompose`)

    def _made_from(self) -> tuple:
        """Everything the keys are made from: the bindings shown, the width, the language."""
        shown = () if not self._bindings_ready else tuple(
            (b.key, b.key_display, b.description, b.action, enabled, tooltip)
            for (_, b, enabled, tooltip) in self.screen.active_bindings.values() if b.show)
        return (shown, self.app.size.width, language(), self.show_command_palette, self.compact, self.playing(),
                self.lab_runs())

    def playing(self) -> bool:
        return bool(getattr(self.screen, "playing", None))

    def lab_runs(self) -> bool:
        run = getattr(getattr(self.screen, "state", None), "run", None)
        return bool(run is not None and run.running)

    async def recompose(self) -> None:
        """Textual's footer recomposes on every bindings update and we on every resize; at startup
        that is several times with the same keys. Mounting them is most of a footer's cost: skip it
        when nothing they are made from changed."""
        if self.is_attached and self._drawn is not None:
            if not self.screen.is_active:  # under help or the palette: Textual lays out only the top
                self._held = True  # screen, so new words (a language switched there) kept the old widths
                return
            if self._made_from() == self._drawn or await self.rewrite_keys():
                return
        await super().recompose()

    def resumed(self) -> None:
        """Its screen is on top again: the recompose held meanwhile, now."""
        if self._held:
            self._held = False
            self.refresh(recompose=True)

    async def rewrite_keys(self) -> bool:
        """The new keys written into the FooterKeys already mounted, spare ones hidden, missing ones
        mounted. Recomposed, a tab to a figure whose keys differ (42 of 72 tabs over every figure)
        took ~30 ms, of which ~8 were mounting the whole footer; rewritten, ~22 ms (then; see
        WholeFrames._refresh_layout and the keys' set widths since). False, with no widget touched,
        unless the old and the new footer hold only keys and the same number of palette keys (the
        keys are composed all the same, which notes what they were made from)."""
        new = compose(self)
        old = [w for w in self.children if not w.has_class("-textual-system")]
        if not all(isinstance(w, FooterKey) for w in old + new):
            return False
        (old, old_palette), (new, new_palette) = apart(old), apart(new)
        if len(old_palette) != len(new_palette):
            return False
        async with self.batch():
            for mounted, key in [*zip(old, new), *zip(old_palette, new_palette)]:
                rewrite(mounted, key)
                mounted.display = True
            for spare in old[len(new):]:  # hidden, not removed: a later figure with more keys shows it
                spare.display = False  # again (mounting one laid the screen out a second time, 4-15 ms)
            if len(new) > len(old):
                await self.mount_all(new[len(old):], before=old_palette[0] if old_palette else None)
        return True

    def compose(self):
        if not self._bindings_ready and self.app._dom_ready and self.is_attached and self.screen.active_bindings:
            # Textual's footer composes empty until the screen says its bindings are ready, then again
            # with the keys, and lays the screen out a second time: a topic opened later knows them now
            # (the app's first screen does not wait for them: its first frame comes sooner without)
            self.set_reactive(Footer._bindings_ready, True)
        self._drawn = self._made_from()
        items = list(translated(super().compose(), self.playing(), self.lab_runs()))
        width = self.app.size.width
        palette = [k for k in items if isinstance(k, FooterKey) and k.has_class("-command-palette")]
        # the palette's key is drawn compact ("^p palette"), after a border and before a space
        room = width - sum(cell_len(k.key_display) + 1 + cell_len(k.description) + 2 for k in palette)
        kept, used = set(), 0
        # in order, each that still fits whole (a later, shorter one may); the figure's own keys before the
        # next topic's, which is the same on every screen and in help (attention/qkv's x was left out for
        # "n topic" at 80 columns, a trial: the keyboard contract names the figure's keys in the footer)
        topic = [item for item in items if isinstance(item, FooterKey) and item.action == LATER]
        play = [item for item in items if isinstance(item, FooterKey) and item.action == "play"]
        # then "space play", after "n topic" (a review: 3 of attention's 7 figures had no topic key); playing,
        # "space pause" before it, but still after the figure's own (seq2seq/matrix lost "w weights" while it
        # played at 80 columns, attention/qkv "x redraw": a spec audit)
        later = play + topic if self.playing() else topic + play
        for item in [item for item in items if item not in later] + later:
            if item in palette:  # compact whatever the footer is (Textual's own)
                continue
            need = room + 1  # (a label: never kept)
            if isinstance(item, FooterKey):  # bound to the footer's `compact`: take it now, or the key's
                item.set_reactive(FooterKey.compact, self.compact)  # default and then the binding restyle it twice
                need = key_width(item)
                if not self.compact:  # as wide as `key_width` counts: Textual measures an auto width by
                    item.styles.width = need  # drawing the key, at every layout (~3 ms a tab)
            if used + need <= room:
                kept.add(item)
                used += need
        # "n topic" drawn after "space play", before the figure's own: in one place on every topic (a second click
        # on it hit the next topic's "t lab" and trained, a mouse user's trial)
        order = [item for item in items if item not in topic]
        at = order.index(play[0]) + 1 if play else len(order)
        yield from [item for item in order[:at] + topic + order[at:] if item in kept] + palette

    def on_resize(self) -> None:
        self.call_after_refresh(self.recompose)

    def call_next(self, callback, *args, **kwargs) -> None:
        """A key mounted (`rewrite_keys`) was laid out and drawn in the frame it came in; Textual's mount
        then asks, once the frame is out, for a layout and a repaint of the whole footer, and sent its
        row a second time, the same (a tab to recurrence/readout or serving/kvcache, which have a key
        more). What moved since is drawn (LaidOutOnMount), nothing else."""
        if type(callback) is AwaitMount and callback._parent is self:
            callback = LaidOutOnMount(self, callback._widgets)
        super().call_next(callback, *args, **kwargs)

    def bindings_changed(self, screen) -> None:
        """Textual recomposes after the next refresh, so a figure whose keys differ reached the terminal
        without them and the footer's row ~40 ms later; recomposed first (its batch holds the frame),
        they come in the same frame."""
        self._bindings_ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.call_next(self.recompose)
