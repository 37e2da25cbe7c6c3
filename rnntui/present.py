"""`rnntui present DECK`: a deck's frames full screen, no header or footer, a discreet counter.

space / → / pagedown next · ← / pageup / backspace back · home / end first / last · a number and
enter: that slide · b or . blanks the screen · ctrl+s saves the slide as SVG · ? the keys, escape hides
them · q quits.
"""
from __future__ import annotations

import shlex
import threading
import time
from pathlib import Path

from rich.table import Table
from rich.text import Text
from textual import events
from textual._dispatch_key import dispatch_key
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import ContentSwitcher, Static

from rnntui.app import PRELOAD_AFTER, use_themes
from rnntui.collector import QUIET, QuietCollections
from rnntui.deck import Deck
from rnntui.i18n import N_, _, default_language, language
from rnntui.keys import in_use, key_names, key_shown, keymap_path, user_keymap
from rnntui.screens.base import EdgeNote, FigureView, below_floor
from rnntui.screens.whole import WholeFrames
from rnntui.shots import Shots
from rnntui.slides import Frame, talk_notes
from rnntui.state import BadValue
from rnntui.terminal import colours_256, end_on_hangup, few_colours, sturdy, suspend
from rnntui.toasts import say_once, unsay
from rnntui.widgets.cells import cell_len, cut
from rnntui.widgets.prose import Prose, StyledProse
from rnntui.widgets.readouts import Pieces


def read_all(frames: list[Frame]) -> None:
    """Each frame's readings, computed now and kept on its (frozen) state. Not a daemon's work: a quit
    meanwhile waits for it (~0.15 s for the lecture), never an interpreter ending under it."""
    for frame in frames:
        try:
            frame.state.readings()
        except Exception:  # noqa: BLE001 - showing the slide reads it again and says what is wrong
            pass


KEYS = N_("space/→/n next · ←/p back · home/end first/last · 7 enter: slide 7 · b/. blank · {save} save · "
           "esc hides this · {suspend}{quit} quit")
SUSPEND = N_("{key} suspend · ")  # (not in a browser: no shell to suspend to, a lecturer's trial)
LAST = N_("the last slide; home goes to the first")
FIRST = N_("the first slide; end goes to the last")  # (← there said nothing, → on the last did: a trial)
TYPED_FOR = 5  # seconds a typed slide number waits for enter (a stray 1 made 5 enter go to 15, a lecturer's trial)
QUIT_AGAIN_S = 3  # seconds a served talk's first q waits for the second that ends it
BLANK_KEYS = ("b", "full_stop")  # a clicker's blank-screen keys, as slide programs take them
VALUES_KEPT = 16  # cells of a slide's values a note in the foot leaves them ("t 11   γ 1.00")


def view_id(frame: Frame) -> str:
    return f"{frame.screen.TOPIC_ID}--{frame.figure.id}"


class Foot(Static):
    def on_resize(self) -> None:
        """Chosen again for the new width (made at 120 columns, the deck's title left the slide's values no
        room at 80, where a fresh start showed them: a lecturer's trial)."""
        self.app.show_foot()


def talk_keymap(bindings, moved: dict[str, str]) -> tuple[dict[str, str], str]:
    """(the keymap's moves a talk takes, one line on those it does not): a binding moved onto a key of the
    talk's own (n, space, p, the arrows …) keeps its other keys in a talk, or its own where none is left."""
    own = {key for b in bindings if b.id is None for key in key_names(b.key)}
    defaults = {b.id: b.key for b in bindings if b.id is not None}
    taken, said = dict(moved), []
    for id, keys in sorted(moved.items()):
        if id not in defaults:
            continue
        names = key_names(keys)
        if clash := [key for key in names if key in own]:  # only those: help = "x,0" kept x (a review)
            left = [key for key in names if key not in own]
            taken[id] = ",".join(left) if left else defaults[id]
            said.append(_("{key} is the talk's, so {id} keeps {default} in a talk").format(
                key=key_shown(clash[0]), id=id, default=key_shown(left[0] if left else defaults[id].split(",")[0])))
    line = _("keymap {path}: {lost}").format(path=keymap_path(), lost="; ".join(said)) if said else ""
    return taken, line


class PresentApp(Shots, QuietCollections, App):
    SHOT_TIMEOUT = 2
    TITLE = "rnntui present"
    slides = True  # projected: no cache paths (memory/copy), as in a shot
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "rnntui.tcss"  # the views' own rules, as in the app (a short serving view hides its extra plot)
    CSS = """
    Screen { layout: vertical; }
    #slide-title { height: auto; padding: 0 2; margin-top: 1; }
    #slide-words { height: auto; padding: 0 2; color: $text-muted; }
    #slide-views { height: 1fr; padding: 0 2; }
    FigureView.-present { align: center middle; }
    #slide-foot { height: 1; padding: 0 2; color: $text-muted; }
    App.-blank #slide-title, App.-blank #slide-words, App.-blank #slide-views, App.-blank #slide-foot {
        visibility: hidden;
    }
    /* in 16 colours $text-muted, dimmed, on white went out as white (1.3:1, a lecturer's trial): black, dimmed,
    goes out as grey (4:1) */
    App.-few-colours.-light-mode #slide-words, App.-few-colours.-light-mode #slide-foot { color: #000000; }
    """
    BINDINGS = [
        # n, p: the app's topic keys, which did nothing here (a lecturer's trial)
        # ↓ ↑ too, as slide programs take them and some clickers send them ("no key in a talk": a lecturer's trial)
        Binding("space,right,pagedown,n,down", "move(1)", N_("next"), priority=True),
        Binding("enter", "enter", N_("next, or the slide typed"), priority=True),
        *(Binding(str(d), f"type({d})", show=False, priority=True) for d in range(10)),  # 7 enter: slide 7 (a trial)
        Binding("escape", "hush", show=False, priority=True),
        Binding("left,pageup,p,up", "move(-1)", N_("back"), priority=True),
        Binding("backspace", "backspace", N_("back"), show=False, priority=True),  # or a typed digit off
        Binding("home", "jump(0)", N_("first"), priority=True),
        Binding("end", "jump(-1)", N_("last"), priority=True),
        Binding("ctrl+s", "shot", N_("save"), priority=True, id="screenshot"),  # (ids: the app's keymap moves them)
        Binding("q", "quit", N_("quit"), priority=True, id="quit"),  # not escape: a reflexive one ended the talk
        Binding("ctrl+z", "suspend", N_("suspend"), show=False, priority=True, id="suspend"),  # (it did nothing)
        Binding("question_mark,f1", "keys", N_("keys"), priority=True, id="help"),  # (the slides show none)
        # a clicker's: b and . blank the screen, as slide programs do (each put "no key in a talk" and a command
        # on the projector, as its start key f5 did: a lecturer's trial)
        Binding(",".join(BLANK_KEYS), "blank", N_("blank"), show=False, priority=True),
    ]
    CLICKER_START = ("f5", "shift+f5")  # the show is on: not a stray key (a keymap may still take f5)

    def __init__(self, deck: Deck, theme: str = "dark", start: int = 0) -> None:
        super().__init__()
        use_themes(self, theme)
        self.theme_asked = theme  # (said again in the commands it gives: the app opened dark on a projector, a trial)
        self.deck = deck
        self.index = min(max(start, 0), len(deck.frames) - 1)
        self.typed = ""  # digits of a slide number, until enter (or TYPED_FOR seconds)
        self.typed_timer = None
        self.note = EdgeNote(self, self.show_foot)  # in the foot for 2 s: a toast covered the slide's plot (a trial)
        # the app's keymap moves quit, help, the screenshot and suspend here too (q still quit after quit = "x": a
        # lecturer's trial); the talk's other keys are its own
        moved, self.keymap_problem = user_keymap()
        moved, kept = talk_keymap(self.BINDINGS, moved)
        if kept:  # (quit = "n" ended a talk at "next", help = "space" opened the keys: a power user's trial)
            self.keymap_problem = "; ".join(filter(None, (self.keymap_problem, kept)))
        if moved:
            self.set_keymap(moved)

    @property
    def frame(self) -> Frame:
        return self.deck.frames[self.index]

    def compose(self) -> ComposeResult:
        yield StyledProse(id="slide-title")
        yield Prose(id="slide-words")  # (a Static broke Chinese at spaces only: "…：没有" / "attention，…")
        views = {view_id(f): f.figure.view for f in self.deck.frames}
        with ContentSwitcher(id="slide-views", initial=view_id(self.frame)):
            for vid, view in views.items():
                yield view(id=vid, classes="-present")
        yield Foot(id="slide-foot")

    def get_default_screen(self) -> WholeFrames:
        return WholeFrames(id="_default")  # a slide's view laid out for its size reaches the terminal in one frame

    def get_driver_class(self):
        return sturdy(super().get_driver_class())

    def on_mount(self) -> None:
        end_on_hangup(self)
        # the app's 16 colours apart (rnntui.ink): a slide's numbers went out yellow on white, a lecturer's trial
        self.set_class(few_colours(self), "-few-colours")
        self.set_class(colours_256(self), "-256-colours")  # (on light, the palette darker still: rnntui.ink)
        self.hold_full_collections()
        self.show()
        if self.keymap_problem:  # (as the app says it)
            self.notify(self.keymap_problem, severity="warning")
        # in the foot, not over the slide (the room saw a warning box over a plot's axis, a lecturer's trial);
        # `present` prints it again when the talk ends
        # (served: the lecturer's terminal said them once; each student's first slide did too, a lecturer's trial)
        if not self.is_web:  # one after the other (joined, at 80x24 the second was cut off: a review)
            self.say_in_turn(talk_notes(self.deck.frames, short=True))
        if not (self.is_headless or self.is_web):
            self.set_timer(PRELOAD_AFTER, self.read_ahead)

    def say_in_turn(self, notes: list[str], seconds: float = 6) -> None:
        """Each note in the foot for its seconds, the next once it goes, while the talk stays on its slide."""
        if notes:
            self.note.say(notes[0], seconds)
            index = self.index
            self.set_timer(seconds, lambda: self.index == index and self.say_in_turn(notes[1:], seconds))

    def read_ahead(self) -> threading.Thread | None:
        """Once the first slide is up and nobody is pressing keys, compute every slide's numbers in a
        thread, from this slide on: serving/wayback's capacity curve was ~50 ms of its slide's key,
        attention/scaling's readings ~30 ms."""
        if not self.quiet():
            self.set_timer(QUIET, self.read_ahead)
            return None
        frames = self.deck.frames[self.index:] + self.deck.frames[:self.index]
        thread = threading.Thread(target=read_all, args=(frames,), name="rnntui-read-ahead")
        try:
            thread.start()
        except RuntimeError:  # no thread to spare: each slide computes its numbers when shown, as before
            return None
        return thread

    def show(self) -> None:
        frame = self.frame
        self.note.said = ""  # (what it said was of the slide left; the foot is drawn below)
        unsay(self, self.stray)  # (its command was the slide left's, a review)
        # (not the source's figure ids, "· F1+F3": a class reads them as codes, and titled slides had none)
        title = Text(frame.local("title") or _(frame.figure.title), style="bold")
        title.append("   " + _("topic {n} · {topic}").format(n=frame.screen.NUMBER, topic=frame.screen.TOPIC_ID),
                     style="dim")  # ("   2 gradients" beside a title read as a count, a lecturer's trial)
        self.query_one("#slide-title", StyledProse).update(title)
        self.query_one("#slide-words", Prose).update(frame.words())
        switcher = self.query_one(ContentSwitcher)
        switcher.current = view_id(frame)
        switcher.get_child_by_id(view_id(frame), FigureView).draw(frame.state)
        unsay(self, self.keys_text())  # (it stayed over the next slides for its 6 s, a lecturer's trial)
        self.show_foot()

    below = False  # whether the foot says the terminal is below 80×24

    def on_resize(self, event) -> None:
        """The note below 80×24 comes and goes with a height alone too, which changes no width of the foot's
        (its own resize redraws it)."""
        if (below := bool(below_floor(self))) != self.below and self.query("#slide-foot"):
            self.below = below
            self.call_later(self.show_foot)

    def show_foot(self) -> None:
        frame = self.frame
        # as the parameter line says them: weights "live → shipped" (it said "live" over the shipped model, a trial)
        said = [f"{p.said} {frame.state.shown(p.name)}" for p in frame.state.params()]
        values = Pieces(said, style="dim")
        foot = Table.grid(expand=True)
        foot.add_column(ratio=1, no_wrap=True)
        foot.add_column(justify="right", no_wrap=True)
        where = Text(f"{self.index + 1}/{len(self.deck.frames)}", style="dim")
        if self.typed:  # (a number past the deck said so only at enter, its fourth digit dropped: a trial)
            n, last = int(self.typed), len(self.deck.frames)
            typed = _("slide {n}: enter goes there") if 1 <= n <= last else _("no slide {n}: this deck has {last}")
            where = Text.assemble(("   " + typed.format(n=n, last=last) + "   ", "bold"), where)  # ("t 3slide 1")
        # a note, for its seconds, leaves the slide's values their first VALUES_KEPT cells ("the last slide; home
        # goes t…" at 80 columns, a lecturer's trial); the deck's title only what they leave ("t 11 …" lost γ)
        room = self.size.width - min(cell_len("   ".join(said)), VALUES_KEPT) - where.cell_len - 10
        note = self.note.said or below_floor(self, room)  # (a served deck clipped a slide's table unsaid, a trial)
        if note and room >= 8:  # (3 spaces before it, after the values' "…")
            where = Text.assemble(("   " + cut(note, room, "…") + "   ", "bold"), where)
        # the deck's title, where the slide's values still fit whole (it showed nowhere, a lecturer's trial)
        elif not self.typed and 0 < cell_len(title := self.deck.heading()) <= room and (
                cell_len("   ".join(said)) + where.cell_len + cell_len(title) + 10 <= self.size.width):
            where = Text.assemble((title + " · ", "dim"), where)
        foot.add_row(values, where)
        self.query_one("#slide-foot", Static).update(foot)

    def action_move(self, delta: int) -> None:
        self.typed = ""
        new = min(max(self.index + delta, 0), len(self.deck.frames) - 1)
        if new != self.index:
            self.index = new
            self.show()
        else:  # (space on the last slide did nothing, and nothing said why; once, not stacked)
            self.note.say(_(LAST if delta > 0 else FIRST))

    def hush_notes(self) -> bool:
        return self.note.hush()

    def action_jump(self, where: int) -> None:
        self.typed = ""
        self.index = where % len(self.deck.frames)
        self.show()

    def action_type(self, digit: int) -> None:
        typed = (self.typed + str(digit)).lstrip("0")  # ("0" alone is kept: enter says there is no slide 0,
        self.typed = (typed or "0")[:len(str(len(self.deck.frames))) + 1]  # it went on to the next, a trial)
        if self.typed_timer is not None:
            self.typed_timer.stop()
        self.typed_timer = self.set_timer(TYPED_FOR, self.forget_typed)
        if not self.note.hush():  # (a number typed after "no slide 99" is the answer to it)
            self.show_foot()

    def forget_typed(self) -> None:
        if self.typed:
            self.typed = ""
            self.show_foot()

    def action_blank(self) -> None:
        """b or .: the screen blank, or back (any other key brings it back too, and does nothing else); its
        notices go with the slide (? then b left "Keys" on the projector, a review)."""
        self.toggle_class("-blank")
        if self.has_class("-blank"):
            self.clear_notifications()
            self.note.hush()

    async def on_event(self, event) -> None:
        if isinstance(event, events.Key) and self.has_class("-blank") and event.key not in BLANK_KEYS:
            self.remove_class("-blank")  # (the key only brings the slide back: the room sees where it was)
            return
        await super().on_event(event)

    def action_backspace(self) -> None:
        """Back a slide, or, while a slide number is typed, its last digit off (it went back a slide and the
        number was lost, a lecturer's trial)."""
        if not self.typed:
            self.action_move(-1)
            return
        self.typed = self.typed[:-1]
        if self.typed_timer is not None:  # (its seconds again, as a digit's: a review)
            self.typed_timer.reset()
        self.show_foot()

    def action_enter(self) -> None:
        if not self.typed:
            self.action_move(1)
            return
        n, last = int(self.typed), len(self.deck.frames)
        if not 1 <= n <= last:
            self.typed = ""
            self.note.say(_("no slide {n}: this deck has {last}").format(n=n, last=last), 3)
            return
        self.action_jump(n - 1)

    def action_hush(self) -> None:
        """escape: the notices and a half-typed slide number go (it never ends the talk)."""
        self.clear_notifications()
        self.typed = ""
        if not self.note.hush():
            self.show_foot()

    stray = ""  # what the last key the talk has none for said (until the slide changes)

    async def _on_key(self, event) -> None:
        """A key the talk has none for says so, with the command that opens this slide where its values
        change: ctrl+p, +, ↑ and tab did nothing, and nothing said why (a lecturer's trial)."""
        event.prevent_default()  # (App's own handler, which this one is with the word added, is not run too)
        moves_focus = event.key in ("tab", "shift+tab")  # (Textual's, to nothing a talk shows)
        if not moves_focus and await self._check_bindings(event.key) or await dispatch_key(self, event) or self._exit:
            return
        if event.key in self.CLICKER_START:
            return
        # (a toast, as ?'s keys: the command, whole, does not fit the foot beside the values; a slide number
        # being typed is kept, a review)
        unsay(self, self.stray)  # one at a time, the last key's
        self.stray = _("{key}: no key in a talk; {help} lists them. To change this slide, open it in the app:\n"
                       "rnntui {args}").format(key=key_shown(event.key), help=in_use(self).one("help"),
                                               args=self.frame.args() + self.options())
        self.notify(self.stray, timeout=6)

    def options(self) -> str:
        """The talk's theme and language as options, where they are not the app's own defaults."""
        theme = "" if self.theme_asked == "dark" else f" --theme {shlex.quote(self.theme_asked)}"
        try:  # the language where the shell's would be another (--lang en in a Chinese locale opened Chinese: a review)
            shells = default_language()
        except BadValue:  # (RNNTUI_LANG names none we speak: the command says it)
            shells = None
        return theme + ("" if language() == shells else f" --lang {language()}")

    def resume_line(self, deck: str) -> str:
        """Printed as the talk ends before its last slide: where it stopped and the command that goes on
        from there (a q pressed by mistake lost the lecturer's place, a lecturer's trial)."""
        if self.index in (0, len(self.deck.frames) - 1):
            return ""
        return _("stopped at slide {n} of {last}; to go on: rnntui present {deck} --start {n}").format(
            n=self.index + 1, last=len(self.deck.frames), deck=shlex.quote(deck)) + self.options()

    quit_asked = 0.0  # when a served talk's first q came (time.monotonic)

    async def action_quit(self) -> None:
        """Served, a q mid-talk ends it on a second q: the page's Restart opens slide 1 and nothing said where
        the talk had been (a lecturer's trial); a terminal prints the command that goes on (resume_line)."""
        if self.is_web and self.resume_line("") and time.monotonic() - self.quit_asked > QUIT_AGAIN_S:
            self.quit_asked = time.monotonic()
            self.note.say(_("{key} again ends the talk, at slide {n} of {last}").format(
                key=in_use(self).one("quit"), n=self.index + 1, last=len(self.deck.frames)), QUIT_AGAIN_S)
            return
        self.exit()

    def action_help_quit(self) -> None:
        """ctrl+c: how to end the talk, in the foot and the talk's language (Textual's toast was English)."""
        self.note.say(_("{key} ends the talk (ctrl+c does not)").format(key=in_use(self).one("quit")), 3)

    def action_suspend(self) -> None:
        suspend(self)

    def action_keys(self) -> None:
        """The keys, for a moment: a rehearsing lecturer pressed ? and nothing happened. (Once: ? again
        does not stack a second.)"""
        say_once(self, self.keys_text(), title=_("Keys"), timeout=6)

    def keys_text(self) -> str:
        used = in_use(self)
        suspend = "" if self.is_web else _(SUSPEND).format(key=used.one("suspend"))
        return _(KEYS).format(save=used.one("screenshot"), suspend=suspend, quit=used.one("quit"))

    def action_shot(self) -> None:
        self.take_shot(f"{Path(self.deck.source).stem or 'deck'}-{self.frame.stem(self.index + 1)}.svg")
