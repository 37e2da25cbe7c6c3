"""What every topic screen shares: the figure strip, the outlined figure, the parameter bar and
the keyboard contract. A topic screen only declares its figures."""
from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import lru_cache
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import ContentSwitcher

from rnntui import keys
from rnntui.figure import Figure
from rnntui.i18n import N_, _, commas, language, listed
from rnntui.labs import LabMessage, LabRunner
from rnntui.state import BadValue, FigureState
from rnntui.screens.whole import WholeFrames
from rnntui.widgets.footer import RnnFooter
from rnntui.widgets.header import TopicHeader
from rnntui.widgets.cells import cell_len, cut
from rnntui.widgets.lines import Lines, TextLines
from rnntui.widgets.panel import Panel
from rnntui.widgets.prose import Prose
from rnntui.widgets.readouts import ParamLine, param_items


FLOOR = (80, 24)  # the size every figure is drawn whole at (SPEC); below it the bottom edge says so

def below_floor(app, room: int = 80) -> str:
    """Below 80×24 a figure may lose its last columns or rows, and nothing said so: a student in a small pane
    read a cut figure as whole (an accessibility trial, a lecturer's browser at ?fontsize=24). A terminal's or
    a browser's only: a shot's size is chosen. Shorter where `room` cells do not hold it ("43×46: figures are
    whole from…" lost the 80×24 on a phone, a lecturer's trial)."""
    width, height = app.size
    if app.is_headless or (width >= FLOOR[0] and height >= FLOOR[1]):
        return ""
    words = dict(w=width, h=height, fw=FLOOR[0], fh=FLOOR[1])
    said = _("{w}×{h}: figures are whole from {fw}×{fh}").format(**words)
    return said if cell_len(said) <= room else _("{w}×{h}, not {fw}×{fh}").format(**words)


ENDS = {  # what a press past a parameter's end says, and the id of the key it names: (past the last, past the first)
    "axis": ((N_("{name} {value} is the last; {key} goes back"), "step_back"),
             (N_("{name} {value} is the first; {key} goes on"), "step_forward")),
    "choice": ((N_("{name} {value} is the last choice; {key} goes back"), "lower"),
               (N_("{name} {value} is the first choice; {key} goes on"), "raise")),
    "number": ((N_("{name} {value} is the most it takes; {key} lowers it"), "lower"),
               (N_("{name} {value} is the least it takes; {key} raises it"), "raise")),
    "row": ((N_("{value} is the last row; {key} goes up"), "previous_param"),  # a table's ↑/↓ (summary)
            (N_("{value} is the first row; {key} goes down"), "next_param")),
}


class EdgeNote:
    """A short notice drawn in place (a topic's panel edge, present's foot) for a few seconds, or until
    what it spoke of is gone (`hush`): as a toast it covered the figure's last readouts (a lecturer's
    trial). `draw` redraws wherever it is shown."""

    said = ""

    def __init__(self, owner, draw) -> None:
        self.owner, self.draw, self.timer = owner, draw, None

    def say(self, message: str, timeout: float = 2.0) -> None:
        self.said = message
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.owner.set_timer(timeout, self.hush)
        self.draw()

    def hush(self) -> bool:
        """Take it away; whether there was one."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        said, self.said = self.said, ""
        if said:
            self.draw()
        return bool(said)


def asking(state) -> bool:
    """Whether a lab asks before it starts (memory/copy at T = 80: "press t again")."""
    return getattr(state, "run", None) is not None and state.run.status == "confirm"


def unasked(state):
    return replace(state, run=replace(state.run, status="idle", message=""))


def shared_labels(figures: tuple, shared: tuple, figure_id: str, state: FigureState) -> list[str]:
    """The labels of this figure's parameters that hold one value for the whole topic: shared, and had by
    another of its figures (the parameter line's "W_h act: whole topic", and help's words for it)."""
    elsewhere = _shared_elsewhere(tuple(figures), tuple(shared), figure_id)
    return [p.said for p in state.params() if p.name in elsewhere]


@lru_cache(maxsize=None)
def _shared_elsewhere(figures: tuple, shared: tuple, figure_id: str) -> frozenset:
    return frozenset(p.name for f in figures if f.id != figure_id for p in f.state_type.params() if p.name in shared)


class FigureView(Vertical):
    """Draws one figure's state. Subclasses compose their widgets and fill them in `show`."""

    @property
    def presenting(self) -> bool:
        """In `rnntui present` (class -present): no keys but the slide's, so no key hints."""
        return self.has_class("-present")

    REDRAW_ON_RESIZE: ClassVar[bool] = False  # its drawing is laid out for its own size: draw again on a resize
    drawn: FigureState | None = None  # the state it last drew

    _said: frozenset = frozenset()  # the notices `_show` gave

    def draw(self, state: FigureState) -> None:
        """Show `state` and remember it, for a resize to draw it again."""
        self.drawn = state
        self._show(state)

    def _show(self, state: FigureState) -> None:
        """`show`; data it cannot read (a damaged shipped file) is said in a notice, once, and the app runs
        on (it ended in a traceback, a trial)."""
        try:
            self.show(state)
        except BadValue as e:
            if str(e) not in self._said:
                self._said |= {str(e)}
                self.app.notify(str(e), severity="error", timeout=10)

    def on_resize(self, event) -> None:  # runs after a subclass's own on_resize (Textual calls both)
        if self.REDRAW_ON_RESIZE and self.drawn is not None:
            self._show(self.drawn)

    def show(self, state: FigureState) -> None:  # pragma: no cover - every view overrides
        raise NotImplementedError

    @classmethod
    def explained(cls, state: FigureState) -> str:
        """What help says after the figure's prose about where its numbers come from ("": nothing)."""
        return ""

    def retranslate(self) -> None:
        """The language changed: redo texts set in compose (titles, labels). `show` runs after this,
        so texts drawn there (wrapped in `_()`) need nothing here."""


class TopicScreen(WholeFrames):
    """A topic: its figures, one focused (outlined) at a time, each with its own state."""

    TOPIC_ID: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    FIGURES: ClassVar[tuple[Figure, ...]] = ()
    NUMBER: ClassVar[int] = 0  # its key and place in the lecture; set by the registry
    BINDINGS = keys.bindings("screen")
    EXTRA_BINDINGS: ClassVar[list] = []  # a topic's own keys (Bindings with ids), e.g. Enter on a link
    SHARED: ClassVar[tuple[str, ...]] = ()  # parameters one value of which holds for every figure that has them

    def __init_subclass__(cls, **kwargs) -> None:
        """A topic's letter keys are its figures' toggles, declared once as bindings with ids."""
        toggles = {p.key: p for f in cls.FIGURES for p in f.state_type.params() if p.key}
        cls.BINDINGS = keys.bindings("screen") + [keys.toggle_binding(p.key, p.name, p.does or p.label)
                                                  for p in toggles.values()] + list(cls.EXTRA_BINDINGS)
        super().__init_subclass__(**kwargs)  # Textual merges BINDINGS here

    def __init__(self) -> None:
        super().__init__()
        self.states: dict[str, FigureState] = {f.id: f.state_type() for f in self.FIGURES}
        self.chosen: dict[str, int] = {f.id: 0 for f in self.FIGURES}
        self.index = 0
        self.framed = None  # the figure whose strip, title and prose are drawn
        self.tabs: list = []  # the strip's figures, where draw_frame put them (on_click)
        self.playing = None
        self.labs = LabRunner(self)
        self.adding: dict[str, asyncio.Event] = {}  # views being mounted, set when they are
        # a parameter's end pressed against (or a key nothing takes), in the panel's bottom edge: the notice goes
        # with what it was about (the value moved, or another parameter, figure or topic came up: "t 7 is the
        # last; ← goes back" stood over gradients/hop, a trial)
        self.at_end = EdgeNote(self, self.draw_edges)

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TopicHeader(icon="≋")
        yield TextLines(id="strip")  # drawn through Lines: ~0.2 ms a tab, ~1.2 as a Static
        with Panel(id="panel"):
            yield Prose(id="prose")
            # the figure the app opens at (its first by default); the others mount when first focused
            first, state = getattr(self.app, "opening", {}).pop(self.TOPIC_ID, (None, None))
            self.index = next((i for i, f in enumerate(self.FIGURES) if f.id == first), 0)
            if isinstance(state, self.figure.state_type):
                old, self.states[self.figure.id] = self.states[self.figure.id], state
                self.share(old, state)
            with ContentSwitcher(initial=self.figure.id):
                yield self.figure.view(id=self.figure.id)
            yield ParamLine(id="knobs")
        yield RnnFooter()

    def on_mount(self) -> None:
        self.title = f"rnntui · {self.NUMBER} {self.TOPIC_ID}"
        self.sub_title = _(self.TITLE)
        self.drawn_in = language()
        view = self.view_of(self.figure)  # drawn before its first layout, as a view add_view mounts is: views
        if view is not None:  # that size parts from the others' rows read them filled (lstm/params' bars)
            view.draw(self.state)
        self.call_later(self.redraw)  # is_mounted turns True only after on_mount returns

    # -- what is focused --------------------------------------------------------------------
    @property
    def figure(self) -> Figure:
        return self.FIGURES[self.index]

    @property
    def state(self) -> FigureState:
        return self.states[self.figure.id]

    @classmethod
    def figure_by_id(cls, figure_id: str) -> Figure:
        for f in cls.FIGURES:
            if f.id == figure_id:
                return f
        raise BadValue(_("unknown figure {figure!r} in {topic}: choose from {figures}").format(
            figure=figure_id, topic=cls.TOPIC_ID, figures=commas(f.id for f in cls.FIGURES)))

    def knobs(self) -> list:
        """The parameters ↑/↓ choose between: all but the stepped axis."""
        return [p for p in self.figure.state_type.params() if p.name != self.figure.state_type.AXIS]

    def focus_figure(self, figure_id: str) -> None:
        self.index = self.FIGURES.index(self.figure_by_id(figure_id))
        self.pause()
        self.at_end.hush()
        self.redraw()

    def view_of(self, figure: Figure, switcher: ContentSwitcher | None = None) -> FigureView | None:
        """The figure's view, None until it is mounted (or while the screen closes)."""
        try:
            return (switcher or self.query_one(ContentSwitcher)).get_child_by_id(figure.id, FigureView)
        except NoMatches:
            return None

    async def add_view(self, figure: Figure) -> None:
        """Mount a figure's view the first time it is focused, then draw. Only the first figure's view
        is composed with the screen: the app's first frame comes ~20% sooner."""
        if figure.id in self.adding:  # already on its way: wait for it (that call draws)
            await self.adding[figure.id].wait()
            return
        if self.view_of(figure) is None:
            self.adding[figure.id] = done = asyncio.Event()
            try:
                await self.query_one(ContentSwitcher).add_content(figure.view(id=figure.id))
            except NoMatches:  # closing down
                return
            finally:
                del self.adding[figure.id]
                done.set()
        self.redraw()

    def withdraw_question(self) -> bool:
        """escape: a lab's question goes (it stayed, and the next t started the run, a student's trial)."""
        if not asking(self.state):
            return False
        self.set_state(unasked(self.state))
        return True

    def set_state(self, state: FigureState) -> None:
        """Replace the focused figure's state (keys, palette and command line all end here). A
        SHARED parameter that changed is set on every sibling figure that has one of that name."""
        old = self.states[self.figure.id]
        if asking(state) and replace(state, **{state.AXIS: getattr(old, state.AXIS)}) != old:
            # a lab's question is about what it was asked on (the cursor aside): "T = 80 trains longest: press
            # t again" read "T = 40 …" after -, and t started T = 40 (a student's trial); runs compare equal
            state = unasked(state)
        self.states[self.figure.id] = state
        if state != old:  # an end-of-range notice would contradict it ("step 1500 is the last" after c made it 500)
            self.at_end.hush()
        self.share(old, state)
        self.redraw()

    def share(self, old: FigureState, state: FigureState) -> None:
        """The SHARED values that changed from `old` to the focused figure's `state`, on its siblings."""
        for name in self.SHARED:
            value = getattr(state, name, None)
            if value is None or getattr(old, name, None) == value:
                continue
            for fid, other in self.states.items():
                if fid != self.figure.id and hasattr(other, name):
                    try:
                        self.states[fid] = other.with_value(name, value)
                    except BadValue:  # outside that figure's range: it keeps its own
                        pass

    # -- drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        if not self.is_mounted:
            return
        f, state = self.figure, self.state
        try:
            switcher = self.query_one(ContentSwitcher)
        except NoMatches:  # closing down: a late message found the widgets gone
            return
        view = self.view_of(f, switcher)
        if view is None or f.id in self.adding:  # not mounted yet: add_view draws when it is (half mounted,
            if f.id not in self.adding:  # attention/positions had no HeatMap yet: the fuzz's crash)
                self.call_later(self.add_view, f)
            return
        if self.framed != self.index:
            switcher.current = f.id
            self.refresh_bindings()
            self.draw_frame()
            self.framed = self.index
        self.draw_edges()
        if view.drawn is not state:  # a view redraws only for a new state (resizes redraw it themselves)
            view.draw(state)
        self.query_one("#knobs", ParamLine).show(*self.param_line())  # an unchanged line is not redrawn

    def draw_edges(self) -> None:
        """The panel's title, and in its bottom edge the figure's number, playing, and a parameter's end."""
        if not self.is_mounted:
            return
        f, panel = self.figure, self.query_one("#panel", Panel)
        subtitle = f"{self.index + 1}/{len(self.FIGURES)}" + ("  ▶ " + _("playing") if self.playing else "")
        elsewhere = [g.id for g in self.FIGURES if g.id != f.id and getattr(self.states.get(g.id), "run", None)
                     and self.states[g.id].run.running]  # (a lab went on unseen behind tab, a TA's trial)
        if elsewhere:
            subtitle = _("{figure}'s lab runs").format(figure=elsewhere[0]) + " · " + subtitle
        room = (panel.outer_size.width or self.app.size.width) - cell_len(subtitle) - 10  # (corners, " · ")
        said = self.at_end.said or below_floor(self.app, room)
        if said:  # cut to leave the figure's number whole (at 40 columns it lost "1/6")
            if room >= 8:
                subtitle = f"[b]{escape(cut(said, room, '…'))}[/b] · {subtitle}"
        panel.edges(f"{_(f.title)} · {f.refs}", subtitle)

    def draw_frame(self) -> None:
        """What changes only with the focused figure: the strip, the prose."""
        f = self.figure
        strip, self.tabs = Text(), []  # tabs: (first column, end, figure id; None: the next), for clicks
        for i, other in enumerate(self.FIGURES):
            self.tabs.append((strip.cell_len, strip.cell_len + cell_len(other.id) + 2, other.id))
            strip.append(f" {other.id} ", style="bold reverse" if i == self.index else "dim")
            strip.append(" ")
        self.tabs.append((strip.cell_len + 2, strip.cell_len + 2 + cell_len("tab ⇥"), None))
        strip.append("  tab ⇥", style="dim")
        self.query_one("#strip", TextLines).update(strip)
        self.query_one("#prose", Prose).update(_(f.prose))

    def retranslate(self) -> None:
        """Draw every text again in the current language (the app's `language` changed)."""
        self.drawn_in = language()
        if not self.is_mounted:
            return
        self.sub_title = _(self.TITLE)
        self.at_end.hush()  # (its words are the other language's: "t 7 is the last" stayed in a Chinese edge)
        for view in self.query(FigureView):
            view.retranslate()
            view.drawn = None  # every view draws its texts again
        self.query_one(RnnFooter).refresh(recompose=True)
        self.framed = None
        self.redraw()
        for lines in self.query(Lines):  # a widget given the input it drew skips it, but its words changed
            lines.changed()

    _styled_by = None  # the app's CSS rules when another screen went over this one (on_screen_suspend)

    def on_screen_resume(self, event) -> None:
        # Textual restyles the whole screen at every resume, twice when a topic opens (its mode's first
        # resume and switch_mode's), ~9 ms each: every widget was styled as it mounted (order-dependent
        # rules included) and nothing can have changed them unless the rules changed while another
        # screen showed (a topic or help opened for the first time brought its CSS, a theme changed):
        # Textual parses them into a new list
        away, self._styled_by = self._styled_by, None
        event.refresh_styles = event.refresh_styles and away is not None and away is not self.app.stylesheet._rules
        if getattr(self, "drawn_in", language()) != language():  # switched while another topic showed
            self.retranslate()
        for footer in self.query(RnnFooter):
            footer.resumed()

    def param_line(self) -> tuple[list[Text], tuple[int, ...], list[Text]]:
        """The parameter line's pieces; those it can spare where the width is short (the note of what
        holds for the whole topic, which help explains, then the keys that choose and change); and the
        pieces with each choice at its longest (ParamLine decides on them)."""
        state, knobs, used = self.state, self.knobs(), keys.in_use(self)
        chosen = knobs[self.chosen[self.figure.id] % len(knobs)].name if knobs else None
        axis = state.param(state.AXIS)
        items = [(f"{used.two('step_back', 'step_forward')} {axis.said}", state.axis_shown(), False, "")]
        if knobs:
            items.append((f"{used.two('previous_param', 'next_param')} {used.two('raise', 'lower')}", "", False, ""))
        shown = [state.shown(p.name) for p in knobs]
        longest = [max([text, *map(p.show, p.choices)], key=cell_len) for p, text in zip(knobs, shown)]
        pieces, widest = (param_items(items + [(p.said, text, p.name == chosen, used.letter(p))
                                                for p, text in zip(knobs, texts)]) for texts in (shown, longest))
        shared = shared_labels(self.FIGURES, self.SHARED, self.figure.id, state)
        if shared:  # shared: one value for the topic
            # (padded as a parameter's piece is: after the chosen one's ◂ it read "◂ b_f: whole topic")
            note = Text(" " + _("{names}: whole topic").format(names=listed(shared)), style="dim")
            pieces.append(note)
            widest.append(note)
        return pieces, ((len(pieces) - 1,) if shared else ()) + ((1,) if knobs else ()), widest

    # -- actions (the keyboard contract) ----------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "toggle":
            return any(p.name == parameters[0] for p in self.figure.state_type.params())
        if action == "lab":
            return self.figure.lab is not None
        return True

    def on_click(self, event) -> None:
        """A click on the strip opens that figure, on "tab ⇥" the next (they look like tabs: a mouse user
        clicked them and nothing happened, a trial)."""
        if getattr(event.widget, "id", None) != "strip" or event.y != 0:
            return
        for start, end, figure_id in self.tabs:  # (as draw_frame laid them out)
            if start <= event.x < end:
                self.focus_figure(figure_id) if figure_id else self.action_next_figure()
                return

    def action_next_figure(self) -> None:
        self.focus_figure(self.FIGURES[(self.index + 1) % len(self.FIGURES)].id)

    def action_previous_figure(self) -> None:
        self.focus_figure(self.FIGURES[(self.index - 1) % len(self.FIGURES)].id)

    def action_step(self, delta: int, fine: bool = False) -> None:
        self._nudge(self.state.AXIS, delta, fine)

    def action_axis_end(self, end: int) -> None:
        self.set_state(self.state.to_end(self.state.AXIS, end))

    def action_choose(self, delta: int) -> None:
        if self.knobs():
            self.at_end.hush()
            self.chosen[self.figure.id] += delta
            self.redraw()
        else:  # (↑↓ did nothing and said nothing on recurrence/tanh, a Chinese student's trial)
            axis = self.state.param(self.state.AXIS).said
            arrows = keys.in_use(self).two("step_back", "step_forward")
            self.at_end.say(_("no parameter but {axis} here: {keys} moves it").format(axis=axis, keys=arrows))

    def action_change(self, delta: int) -> None:
        knobs = self.knobs()
        if not knobs:  # nothing but the axis: +/- move it by the coarse notch too
            self.action_step(delta)
            return
        p = knobs[self.chosen[self.figure.id] % len(knobs)]
        self._nudge(p.name, delta)

    def _nudge(self, name: str, delta: int, fine: bool = False) -> None:
        """A press past a parameter's end says so for 2 s, once however many: + at a choice's last (act
        relu) seemed broken (a student's trial)."""
        new = self.state.nudged(name, delta, fine)  # (moved, set_state hushes the notice)
        if new == self.state and delta:
            p = self.state.param(name)
            kind = "axis" if name == self.state.AXIS else "choice" if p.kind == "choice" else "number"
            words, key = ENDS[kind][delta < 0]
            words = _(words).format(name=p.said, value=p.show(getattr(self.state, name)),
                                    key=keys.in_use(self).one(key))
            self.at_end.say(words)
        self.set_state(new)

    def action_toggle(self, name: str) -> None:
        self.set_state(self.state.cycled(name))

    def action_reset(self) -> None:
        """The figure's defaults. A running lab runs on; a finished one is let go, so the figure shows the
        shipped results again. Its number moves on: late news from it is not shown."""
        self.pause()
        self.at_end.hush()  # (a note of the keys before stayed on the edge: the state at its defaults was the same)
        self.chosen[self.figure.id] = 0
        fresh = self.figure.state_type()
        if hasattr(fresh, "run"):
            run = self.state.run
            fresh = replace(fresh, run=run).started() if run.running else replace(
                fresh, run=replace(fresh.run, number=run.number + 1))
        self.set_state(fresh)

    # -- labs: `t` starts the focused figure's lab, `t` again (another topic, or q) stops it -------
    def action_lab(self) -> None:
        f, state = self.figure, self.state
        if f.lab is None or not hasattr(state, "run"):
            return
        run = state.run
        if run.running:
            self.labs.cancel()
            return
        if f.lab.confirm and getattr(state, "needs_confirm", lambda: False)() and run.status != "confirm":
            self.set_state(replace(state, run=replace(run, status="confirm", message=f.lab.confirm)))
            return
        self.set_state(replace(state, run=self.labs.start(f.id, f.lab, state, run)).started())
        self.refresh_bindings()  # "t stop"

    def on_lab_message(self, message: LabMessage) -> None:
        state = self.states[message.figure_id]
        if state.run.number != message.run.number:  # news from a run that was replaced
            return
        self.states[message.figure_id] = replace(state, run=message.run)
        if message.figure_id == self.figure.id:
            self.redraw()
            if state.run.running != message.run.running:
                self.refresh_bindings()  # the footer says "t stop" while it runs
        elif state.run.running != message.run.running:  # the bottom edge says a lab runs behind tab
            self.draw_edges()

    def stop_labs(self) -> None:
        self.labs.cancel()

    def action_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            if self.state.at_axis_end():
                self.set_state(self.state.to_end(self.state.AXIS, -1))
            self.playing = self.set_interval(self.state.play_interval(), self.tick)
            self.refresh_bindings()  # the footer says "space pause"
        self.redraw()

    def tick(self) -> None:
        if self.state.at_axis_end():
            self.pause()
            self.redraw()
        else:
            self.action_step(1, fine=True)

    def pause(self) -> None:
        if self.playing:
            self.playing.stop()
            self.playing = None
            self.refresh_bindings()
            self.draw_edges()  # (stopped by leaving the topic, help or the palette, it still said "▶ playing")

    def on_screen_suspend(self) -> None:
        self.pause()
        self.at_end.hush()
        if self not in self.app.screen_stack:  # another topic; help or the palette over it keep its lab (they
            self.stop_labs()  # stopped a minute-long run, a trial)
        self._styled_by = self.app.stylesheet._rules

    def on_unmount(self) -> None:
        self.stop_labs()

    def on_resize(self, event) -> None:
        # below 24 rows the figure needs the prose's lines more (help still shows the prose); the
        # terminal's height, not an older Resize's (AtTerminalSize)
        self.set_class(self.app.size.height < 24, "-short")
        self.draw_edges()

    _painted = False  # whether a whole frame has reached the terminal

    def _compositor_refresh(self) -> None:
        """The first frame the terminal gets is a whole one. Textual draws the screen's first layout
        inside its start-up batch and throws that frame away; the next frames send only what changed
        since, so the terminal showed the figure without the panel's border until a full repaint
        ~25 ms later. Drawing nothing in the batch and marking the whole screen dirty once it is over
        makes that first frame whole, and sooner (Textual 8's compositor; tested in test_speed)."""
        if getattr(self.app, "offscreen", False):  # render.Session: it takes the frame whole, at the end
            self._dirty_widgets.clear()
            self._compositor._dirty_regions.clear()
            return
        if not self._painted:
            if self.app._batch_count:
                return  # a frame Textual would draw and throw away (~7 ms)
            self._painted = True
            self._compositor._dirty_regions.add(self.size.region)
            self._repaint_required = False  # (the batch's end asks for one: this is it, not a second)
        super()._compositor_refresh()

    async def _on_idle(self, event) -> None:
        """The screen's first frame once nothing holds it: drawn now, not at the update timer's next
        tick (the first comes a whole period, 1/60 s, after it starts). (A frame put off while changes
        were on their way: WholeFrames.)"""
        held = self.app._batch_count or getattr(self.app, "offscreen", False)
        if (not self._painted and self.is_current and not held
                and (self._layout_required or self._repaint_required or self._dirty_widgets)):
            self._on_timer_update()
