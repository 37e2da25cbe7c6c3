"""Command palette (ctrl+p): jump to any topic/figure, set a parameter, theme, screenshot."""
from __future__ import annotations

from functools import partial

from textual.command import CommandInput, CommandList, DiscoveryHit, Hit, Provider
from textual.content import Content
from textual.geometry import Region
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from rnntui.i18n import LANGUAGES, NAMES, N_, _
from rnntui.keyorder import InputInTurn
from rnntui.screens.backdrop import SeeThrough
from rnntui.screens.whole import AtTerminalSize
from rnntui.state import BadValue
from rnntui.topics import imported
from rnntui.widgets.footer import RnnFooter


class PromptInput(InputInTurn, Input):
    pass


class ValuePrompt(SeeThrough, AtTerminalSize, ModalScreen[str | None]):
    """Ask for one parameter's new value; a value `check` refuses is said under the field, which stays open
    (it closed on a notice, and the value had to be typed again from the palette: a keyboard audit)."""

    BINDINGS = [("escape", "dismiss(None)", N_("cancel"))]
    # as wide as the rule its title says (cut at 60 columns, a newcomer's trial), and the problem on a ground of
    # its own (it was drawn over the figure's lines as if one of them, trials)
    DEFAULT_CSS = ("ValuePrompt { align: center middle; } ValuePrompt Input { width: 90%; max-width: 100; }"
                   " ValuePrompt #problem { width: 90%; max-width: 100; height: auto; padding: 0 1; text-style: bold;"
                   " background: $surface; display: none; }")

    def __init__(self, prompt: str, value: str, check=lambda text: None) -> None:
        super().__init__()
        self.prompt, self.value, self.check = prompt, value, check

    def compose(self):
        field = PromptInput(value=self.value, placeholder=self.prompt)
        field.border_title = self.prompt
        yield field
        yield Static(id="problem", markup=False)  # (it quotes what was typed: "[/]" ended the app, a review)
        yield RnnFooter()  # its own keys: the topic's "q quit" typed a q here (a newcomer's trial)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        problem = self.check(event.value)
        if problem:
            said = self.query_one("#problem", Static)
            said.update(problem)
            said.display = True
        else:
            self.dismiss(event.value)


class PaletteList(CommandList):
    """The palette's list of commands. When the highlight moves (↑↓, page keys, the mouse), Textual's
    repaints the whole list (~5.9 KB at 120x40); this one repaints the option it leaves and the one it
    reaches (~0.9 KB). A move that scrolls the list repaints it whole, as a scroll does."""

    # the scrollbar's columns kept when it hides: a key typed that showed or hid it changed the options'
    # width, and the list was drawn at one width, then again at the other (~5 KB more). (A stable gutter
    # also makes Textual add a horizontal scrollbar's row to an auto height: there is none here.)
    DEFAULT_CSS = "PaletteList { scrollbar-gutter: stable; scrollbar-size-horizontal: 0; }"
    highlighted = reactive(None, repaint=False)  # (OptionList's validate_ and watch_highlighted still run)

    def _watch_highlighted(self, old: int | None, new: int | None) -> None:
        lines, top = self._line_cache, -self.scroll_offset.y  # (regions of the content, under the top border)
        for index in {old, new} - {None}:
            if index not in lines.index_to_line or index not in lines.heights:
                self.refresh()  # (not laid out into lines yet: drawn whole when it is)
                return
            self.refresh(Region(0, top + lines.index_to_line[index], self.size.width, lines.heights[index]))

    # Typing changes the list's matches and so its height: the screen's layout draws it whole at its new
    # size, and Textual's Resize handler then dropped the options drawn and repainted the whole list
    # again, the same picture (~5 KB more a key at 120x40). At the same width they are kept (a repaint
    # asked before that layout is drawn by it: AtTerminalSize._drop_drawn_asks). A new width draws anew.
    _drawn_width: int | None = None

    def _on_resize(self, event) -> None:
        width = self.scrollable_content_region.width
        if width == self._drawn_width:
            event.prevent_default()  # (OptionList's handler, which drops them, is not run)
        self._drawn_width = width

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        """The options' lines are made as the layout sizes the list, not as it is first drawn: then the
        scrollbar they call for came in a layout and a frame of their own, and the Resize that followed
        dropped the lines and sent the whole list again (the palette opened in 4 frames, now 2). The
        scrollbar they show or hide is laid out before the frame (Palette._compositor_refresh)."""
        if size == self._size and size - self.styles.gutter.totals == self._container_size:
            return False  # (ScrollView's test compares its options' virtual size with the one a layout gives,
            # its viewport's: they differ whenever it scrolls, and every layout repainted the scrollbar)
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        width = self.scrollable_content_region.width
        if width and width != self._drawn_width:
            self._option_render_cache.clear()
            self._line_cache.clear()
            self._drawn_width = width
        self._update_lines()
        return resized


class PaletteInput(InputInTurn, CommandInput):
    """The palette's input: a change that starts a search holds drawing until its matches are in the
    list (`Palette.hold_for_matches`), so the letter typed and the list it matches come in one frame."""

    def post_message(self, message) -> bool:
        posted = super().post_message(message)
        if posted and isinstance(message, Input.Changed) and Input.Changed not in message._prevent:
            hold = getattr(self.screen, "hold_for_matches", None)
            if hold is not None:
                hold()
        return posted


# Chinese terms a student types for what the app (in Chinese too) names in English: 注意力 found 2 of the
# attention figures, 掩码 and 梯度消失 none (a zh trial). Each finds what its English word finds.
TERMS = {"注意力": "attention", "掩码": "mask", "遮罩": "mask", "梯度消失": "vanish", "梯度爆炸": "explod",
         "梯度": "gradient", "裁剪": "clip", "门控": "gate", "遗忘": "forget", "循环": "recurren",
         "编码器": "encoder", "解码器": "decoder", "多头": "head", "缩放": "scal", "位置": "position",
         "并行": "parallel", "记忆": "memory", "缓存": "cache", "截断": "truncat", "对齐": "align"}

THEME_HELP = {"dark": N_("light text on dark (the default)"), "light": N_("dark text on light"),
              "projector": N_("black on white, strong borders: for slides and projectors")}


class RnnCommands(Provider):
    def commands(self):
        from rnntui.app import THEMES
        from rnntui.topics import topics

        app = self.app
        out = []
        for screen in topics():
            for f in screen.FIGURES:
                out.append((*self.go_to(screen, f), " ".join((f"Go to {screen.TOPIC_ID}/{f.id}: {f.title}", screen.TITLE,
                                                              _(screen.TITLE), f.prose, _(f.prose)))))
        topic = app.topic_screen()
        if topic is not None:
            state = topic.state
            for p in state.params():
                out.append((*self.set_command(state, p), f"Set {p.name} {p.label} {p.said}"))
        out.append((_("Save screenshot (SVG)"), app.action_shot, _("into ./rnntui-shots or $RNNTUI_SHOTS"),
                    "Save screenshot (SVG)"))
        if topic is not None:  # (nothing helped build a deck from what is on screen: a lecturer's trial)
            out.append((_("Copy this figure as a deck frame"), self.copy_frame,
                        _("its [[frame]] table, to paste into a deck for rnntui present"), "Copy this figure as a deck frame"))
        out.append((_("Toggle theme dark/light"), app.action_toggle_theme, _("for a projector, pick Theme projector"),
                    "Toggle theme dark/light"))
        for name, theme in THEMES.items():
            if theme != app.theme:
                out.append((_("Theme {name}").format(name=name), partial(setattr, app, "theme", theme),
                            _(THEME_HELP[name]), f"Theme {name} {THEME_HELP[name]}"))
        # in both languages, so that whoever cannot read the current one still finds it
        for lang in LANGUAGES:
            if lang != app.language:
                out.append((f"Language / 语言: {NAMES[lang]} ({lang})", partial(setattr, app, "language", lang),
                            _("redraw every text in {name}").format(name=NAMES[lang]), ""))
        return out

    def copy_frame(self) -> None:
        """The focused figure's `[[frame]]` to the clipboard (the terminal's, where it takes one), and shown."""
        from rnntui.slides import Frame

        topic = self.app.topic_screen()
        text = Frame(type(topic), topic.figure, topic.state).toml()
        self.app.copy_to_clipboard(text)
        self.app.notify(_("copied (where the terminal takes a copy); for a deck:") + "\n" + text, timeout=10)

    def set_command(self, state, p) -> tuple:
        """(text, command, help) of the command that asks for a parameter of the focused figure."""
        return (_("Set {name} (now {value})").format(name=p.said, value=p.show(getattr(state, p.name))),
                partial(self.ask, p), p.allowed(state))

    def ask(self, p) -> None:
        topic = self.app.topic_screen()

        def done(text: str | None) -> None:
            if text is not None:
                self.app.call_later(self.set_value, topic.TOPIC_ID, p.name, text, topic.figure.id)

        def check(text: str) -> str | None:
            try:
                topic.state.with_value(p.name, text)
            except BadValue:
                return p.refused(text, topic.state)
            return None

        self.app.push_screen(ValuePrompt(f"{p.said}: {p.allowed(topic.state)}", p.typed(getattr(topic.state, p.name)),
                                         check), done)

    TYPED = 1e9  # the score of "set KEY VALUE": above any match of Textual's (fuzzy scores pass 20)

    def set_typed(self, query: str) -> Hit | None:
        """"set z 1.5" (or set z=1.5, or z=1.5): a parameter set to the value typed, first in the list (score
        TYPED). The key is a name or a label as the footer shows it ("set window k 3"). This topic's figures decide
        first, the focused one first; another topic's figure, which Enter goes to, is taken when it has the
        key as typed and takes the value ("set T 40" on recurrence: memory's T), or when this topic has no
        such key at all ("set scoring dot"). "set step N" is the focused figure's time axis, as --step N is."""
        words = query.replace("=", " ").split()
        if words and words[0].casefold() != "set" and "=" in query:  # "w_h=1.4", as --set takes it: "No matches
            words = ["set", *words]  # found" (a lecturer's trial)
        topic = self.app.topic_screen()
        if len(words) < 2 or words[0].casefold() != "set" or topic is None:
            return None
        from rnntui.topics import takes, topics

        # as --step, the focused figure's time axis, where no figure of this topic has a "step" of its own and
        # the axis counts steps (bptt's "set step 5" went to recurrence/track, a trial; lstm/bias's b_f is no step)
        if words[1].casefold() == "step" and topic.state.param(topic.state.AXIS).kind == "int" and not any(
                takes(type(topic.states[f.id]), "step") for f in topic.FIGURES):
            words[1] = topic.state.AXIS

        here = [(topic.TOPIC_ID, f.id) for f in sorted(topic.FIGURES, key=lambda f: f.id != topic.figure.id)]
        there = [(screen.TOPIC_ID, f.id) for screen in topics() if screen.TOPIC_ID != topic.TOPIC_ID
                 for f in screen.FIGURES]
        if len(words) == 2 or self.takes_key(topic, " ".join(words[1:]), here + there):  # ("set window k": "to k")
            return self.set_asked(topic, " ".join(words[1:]), here, there)
        key, value = " ".join(words[1:-1]), words[-1]
        mine = None  # this topic's refusal
        for places, exact in ((here, True), (here, False), (there, True), (there, False)):
            if places is there and not exact and mine is not None:
                break  # (this topic has the key: another topic's only as typed)
            refused = None
            for topic_id, fid in places:
                hit = self._set_hit(topic, topic_id, fid, key, value, exact, here[0])
                if hit is None:
                    continue
                if hit.command.func == self.set_value:
                    return hit
                refused = refused or hit
                if places is here:
                    break  # (the first figure of this topic with the key decides)
            if places is here:
                mine = mine or refused
            elif refused is not None and mine is None:
                mine = refused
        return mine or self.no_key(topic, key)

    def no_key(self, topic, key: str) -> Hit:
        """"set wh 0.6": no figure anywhere has the key, so the focused one's keys, as the deck checker says
        them ("No matches found" said nothing of why, and "set wh 1.4" matched W_h by its value: a lecturer's trial).
        Not while the key is typed ("set w"): the figure's own "Set W_h" comes first then."""
        said = _("no parameter {key!r} anywhere; {figure} takes {keys}").format(
            key=key, figure=topic.figure.id, keys=topic.state.keys_text())
        return Hit(self.TYPED, Content(said), partial(self.app.notify, said, severity="error"), text=said)

    def set_asked(self, topic, key: str, here: list, there: list) -> Hit | None:
        """"set seed" with no value yet: the first figure with that key (as typed first, this topic's first),
        its value asked at Enter; "No matches found" stood there until a digit was typed (a trial). On the
        focused figure, its own "Set seed (now 0)" (in Chinese its words did not match "set t", a review)."""
        for places, exact in ((here, True), (there, True), (here, False), (there, False)):
            for topic_id, fid in places:
                if (found := self.param_at(topic, topic_id, fid, key, exact)) is None:
                    continue
                state, p = found
                if (topic_id, fid) == here[0]:
                    text, command, help = self.set_command(state, p)
                    return Hit(self.TYPED, text, command, help=help)
                text = _("Set {name} to {value}").format(name=p.said, value="…") + f" ({topic_id}/{fid})"
                return Hit(self.TYPED, text, partial(self.ask_at, topic_id, fid, p.name), help=p.allowed(state))
        return None

    def takes_key(self, topic, key: str, places: list) -> bool:
        """Whether a figure has `key`, with its space, as typed: "set window k" is that key, not "window" set to
        k (refused, a review)."""
        return " " in key and any(key in (p.label, p.said) for topic_id, fid in places
                                  for p in self.state_at(topic, topic_id, fid).params())

    def param_at(self, topic, topic_id: str, figure_id: str, key: str, exact: bool) -> tuple | None:
        """(state, parameter) of a figure that has `key` (as typed, when `exact`), or None."""
        state = self.state_at(topic, topic_id, figure_id)
        try:
            p = state.param(state.name_of(key))
        except BadValue:
            return None
        return None if exact and key not in (p.name, p.label, p.said) else (state, p)

    def state_at(self, topic, topic_id: str, figure_id: str):
        """A figure's state: the open topic's as it holds it, another's by `state_of`."""
        return topic.states[figure_id] if topic_id == topic.TOPIC_ID else self.state_of(topic_id, figure_id)

    async def ask_at(self, topic_id: str, figure_id: str, name: str) -> None:
        """A figure shown, then its parameter's value asked (as the palette's "Set seed (now 0)" asks)."""
        await self.app.goto(topic_id, figure_id)
        self.ask(self.app.topic_screen().state.param(name))

    def _set_hit(self, topic, topic_id: str, fid: str, key: str, value: str, exact: bool, focused) -> Hit | None:
        """The hit that sets `key` on one figure (a refusal's notice if the value does not fit), or None
        when the figure has no such key (as typed, when `exact`)."""
        if (found := self.param_at(topic, topic_id, fid, key, exact)) is None:
            return None
        state, p = found
        where = "" if (topic_id, fid) == focused else f" ({topic_id}/{fid})"
        text = _("Set {name} to {value}").format(name=p.said, value=value) + where
        try:
            state.with_value(p.name, value)
        except BadValue:  # (named as the screen names it: "k=999" for steps, a keyboard audit)
            said = p.refused(value, state)
            return Hit(self.TYPED, Content(text), partial(self.app.notify, said, severity="error"), help=Content(said),
                       text=text)  # (as typed, not markup: "set w_h [/]" ended the app, a review)
        return Hit(self.TYPED, Content(text), partial(self.set_value, topic_id, p.name, value, fid),
                   help=p.allowed(state), text=text)

    def state_of(self, topic_id: str, figure_id: str):
        """A figure's state in another topic: as its screen holds it, or its defaults before a first visit."""
        if (opened := self.app.opened_topic(topic_id)) is not None:
            return opened.states[figure_id]
        from rnntui.topics import find

        return find(f"{topic_id}/{figure_id}", [])[1].state_type()

    async def set_value(self, topic_id: str, name: str, text: str, figure_id: str) -> None:
        """The value set on the figure's state as it is at Enter (a live run may have changed it since
        the key), the figure shown first."""
        app = self.app
        here = app.topic_screen()
        if here is None or here.TOPIC_ID != topic_id or here.figure.id != figure_id:
            await app.goto(topic_id, figure_id)
        topic = app.topic_screen()
        try:
            topic.set_state(topic.state.with_value(name, text))
        except BadValue as e:
            app.notify(str(e), severity="error")

    async def drawn_first(self) -> None:
        """Before listing every topic's figures, which imports the topics not imported yet (~150-180 ms
        on the event loop), the palette is drawn. The first ctrl+p of a served session (no preload),
        or one in the app's first second, showed nothing for ~220-310 ms at 120x40; now the palette
        is up in ~40-65 ms and its list comes as soon as before."""
        if not imported():
            await self.screen.wait_for_refresh()

    async def discover(self):
        await self.drawn_first()
        for text, callback, help, _also in self.commands():
            yield DiscoveryHit(text, callback, help=help)

    ALSO = 0.01  # the score of a command found only by `also`: listed after those its words match

    def by_id(self, query: str) -> list[Hit]:
        """The figures whose source id is the query ("E6", "f8", "T5"), first: a fuzzy match put
        gradients/bptt above parallel/timing for "E6" (a trial); and a topic's figures for its number,
        its key ("3" put gradients/clipping first, a trial)."""
        from rnntui.topics import topics, with_ref

        typed = query.strip()
        if not typed:
            return []
        found = [(screen, f) for screen in topics() if typed == str(screen.NUMBER) for f in screen.FIGURES]
        return [Hit(self.TYPED, text, go, help=help) for screen, f in found or with_ref(typed)
                for text, go, help in (self.go_to(screen, f),)]

    def go_to(self, screen, f) -> tuple:
        """(text, command, help) of the command that shows a figure."""
        address = f"{screen.TOPIC_ID}/{f.id}"
        return (_("Go to {address}: {title}").format(address=address, title=_(f.title)),
                partial(self.app.goto, screen.TOPIC_ID, f.id), f"{f.refs} · {_(screen.TITLE)}")

    async def search(self, query: str):
        """Commands whose words match the query (Textual's fuzzy match), then those whose English words,
        topic or description hold it: in Chinese, 位置编码 found nothing (attention/positions says it
        in its description), nor "theme" or "forget" (a newcomer's trial)."""
        await self.drawn_first()
        named = [hit for hit in (self.set_typed(query),) if hit is not None] + self.by_id(query)
        for hit in named:
            yield hit
        matcher, folded = self.matcher(query), query.strip().casefold()
        words = [folded, *(english for chinese, english in TERMS.items() if chinese in folded)]
        for text, callback, help, also in self.commands():
            if any(hit.text == text for hit in named):
                continue
            score = matcher.match(text)
            if score > 0 and str(text).casefold().startswith(folded):  # a tie broken by the first words: "copy"
                score += 0.5  # opened memory/copy before "Copy this figure as a deck frame" (a newcomer's trial)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help)
            elif folded and (found := [word in f"{help} {also}".casefold() for word in words]) and any(found):
                yield Hit(self.ALSO if found[0] else self.ALSO / 2, text, callback, help=help)  # (the words typed first)
