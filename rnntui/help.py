"""The help screen (`?`): the keyboard contract and what the focused figure shows."""
from __future__ import annotations

import math

from rich.cells import cell_len
from rich.console import Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from rnntui.i18n import N_, _, colon, commas, listed, spaced
from rnntui.keys import BY_ID, CONTRACT, in_use, keymap_path, offered
from rnntui.screens.backdrop import SeeThrough
from rnntui.screens.base import shared_labels
from rnntui.screens.whole import WholeFrames
from rnntui.widgets.cells import longest_word
from rnntui.widgets.footer import RnnFooter
from rnntui.widgets.lines import RenderedLines, wrap


REMAP_EXAMPLE = 'step_forward = "right,f"'  # (its "l" was attention/block's norm toggle, a help audit)


def axis_keys(p, state, used=None) -> str:
    """How the axis moves: "← →", and by how much a press and a shift+press move it where they differ
    (gradients/product's ← moved 10 hops, and hop 178 took shift, said only in the key table; a trial), or
    the powers a press moves it along (lstm/params' → doubled d, shift+→ added 64: said nowhere, an audit).
    `used`: the keys in use (`keys.in_use`), the defaults if not given."""
    used = used or in_use(None)
    words = {"keys": used.two("step_back", "step_forward", " "), "fine": step_shown(p, p.notch),
             "fine_keys": used.two("fine_back", "fine_forward", " ")
             if {"fine_back", "fine_forward"} & used.moved.keys() else "shift"}
    if p.kind == "choice" or p.values:
        return words["keys"]
    times = state.press_base(p.name)
    if times and p.name in getattr(state, "GEOMETRIC", {}):  # (a shift+press moves along the powers too)
        return _("{keys} powers of {factor}, {fine_keys} too").format(factor=times, **words) + stops_at(p, state, times)
    if times:
        return _("{keys} powers of {factor}, {fine_keys} by {fine}").format(factor=times, **words) + stops_at(
            p, state, times)
    coarse = p.coarse_notch(state)
    if coarse == p.notch:  # (lstm/gates' f moved by 0.05, said nowhere: a help audit)
        return words["keys"] if p.kind == "int" and coarse == 1 else _("{keys} by {step}").format(
            step=step_shown(p, coarse), **words)
    # (a press lands on the next multiple, as on a parameter's row: "by 2" read as 5 → 7, a help audit)
    return _("{keys} to the next multiple of {coarse}, {fine_keys} by {fine}").format(
        coarse=step_shown(p, coarse), **words) + stops_at(p, state, step=coarse)


def stops_at(p, state, base: int | None = None, step: float | None = None) -> str:
    """The words "; stops at 0.90, the default" where a press stops at a default off its multiples of `step` or its
    powers of `base` (state.via_home): help said "to the next multiple of 0.20" and W_h went 0.80 → 0.90 →
    1.00, a student's trial. "" where the default is on them."""
    home = type(state).defaults().get(p.name)
    if not isinstance(home, (int, float)) or isinstance(home, bool) or home <= 0 or home in p.bounds(state):
        return ""  # (at an end a press stops anyway)
    units = math.log(home, base) if base else home / step
    if abs(units - round(units)) < 1e-9:
        return ""
    return _("; stops at {home}, the default").format(home=p.show(home))


def step_shown(p, step: float) -> str:
    """A press's size as help writes it: a whole number for a whole-number parameter, else as the value."""
    return str(round(step)) if p.kind == "int" else p.show(step)


def param_keys(p, state, used=None) -> str:
    """How a parameter moves: ↑↓ to it, then + - (W_h went 0.90 → 1.00 → 1.20: "uneven", a newcomer's trial;
    a press lands on the next multiple of its step, stopping at the default on the way), or the powers a
    press moves it along (attention/heads' n went 5 → 8 → 16, said nowhere: an audit); a seed, 1 a press."""
    used = used or in_use(None)
    words = {"choose": used.two("previous_param", "next_param"), "change": used.two("raise", "lower", " ")}
    if p.kind == "choice" or p.values:
        return _("{choose} then {change}").format(**words)
    times = state.press_base(p.name)
    if times:
        return _("{choose} then {change}: powers of {factor}").format(factor=times, **words) + stops_at(p, state, times)
    coarse = p.coarse_notch(state)
    step = step_shown(p, coarse)
    if coarse == p.notch:
        return _("{choose} then {change}: {step} a press").format(step=step, **words)
    return _("{choose} then {change}: to the next multiple of {step}").format(step=step, **words) + stops_at(
        p, state, step=coarse)


def meaning(p) -> str:
    """What a parameter's values are, for help: its `means`, or each choice's, after the choice."""
    if isinstance(p.means, tuple):
        return _("; ").join(spaced(colon(c)) + _(m) for c, m in zip(p.choices, p.means) if m)
    return _(p.means) if p.means else ""


def with_meaning(allowed: str, means: str) -> str:
    """Help's "allowed" cell: the values, then what they mean."""
    return spaced(colon(allowed)) + means if means else allowed


ON_ROWS = {"previous_param": N_("the row above, same column"),  # a table's ↑/↓
           "next_param": N_("the row below, same column")}


def help_text(screen) -> tuple:
    """Every string help shows, in a tuple (hashable: help's rendering is kept per text and width)."""
    f, state, used = screen.figure, screen.state, in_use(screen)  # (the keys as the keymap has them)
    # the name --set and the palette take, with the footer's label where that differs: lstm/bias's
    # footer said "steps" and help only "k" (a newcomer's trial)
    params = tuple((p.name if p.said.casefold() in ("", p.name.casefold()) else f"{p.name} ({p.said})",
                    p.show(getattr(state, p.name)), with_meaning(p.allowed(state), meaning(p)),
                    axis_keys(p, state, used) if p.name == state.AXIS else (
                        _("key {key}").format(key=used.letter(p)) if used.letter(p) else param_keys(p, state, used)))
                   for p in state.params())
    served = getattr(getattr(screen, "app", None), "is_web", False)
    rows = ON_ROWS if hasattr(state, "row_moved") else {}  # (↑/↓ "choose the parameter" on summary, an audit)
    keys = tuple((used.all(k.id), _(rows.get(k.id, k.does)), offered(k)) for k in CONTRACT
                 if not (k.id == "lab" and f.lab is None or k.id == "open_link" and not f.links
                         or k.id == "suspend" and served))  # (a browser has no shell to go back to)
    keys += tuple((used.all(f"toggle_{p.name}", p.key) or "—", _("cycle {label} ({choices})").format(
        label=p.said, choices=commas(p.choices)), f"toggle_{p.name}") for p in state.params() if p.key)
    more = f.view.explained(state)  # (lstm/cell's weights, a student's trial)
    # (a student's trial: "source 0.884 ≠ ours" and "· T5" read as unexplained; T5's words only where it is)
    t5 = _("; T5 is the fifth topic, not the T5 model") if "T5" in f.refs.split("+") else ""
    prose = _(f.prose) + ("\n" + more if more else "") + "\n" + _(
        "{refs}: this figure's id (F a figure, E an experiment, T a topic, § a section{t5}); "
        "the palette finds a figure by its id. “source” beside a number: the course notes (in Chinese) the "
        "figures come from; where our number differs, both are given.").format(refs=f.refs, t5=t5)
    shared = shared_labels(getattr(screen, "FIGURES", ()), getattr(screen, "SHARED", ()), f.id, state)
    if shared:  # the parameter line's "mode: whole topic" was unexplained (a lecturer's trial)
        prose += "\n" + _("“{line}” under the figure: one value for every figure of this topic that has it; "
                           "change it here and they follow.").format(line=_("{names}: whole topic").format(
                               names=listed(shared)))  # (the parameter line's words, as it says them)
    return (f"{screen.TOPIC_ID}/{f.id}  {_(f.title)} ({f.refs})", prose,
            (_("parameter"), _("now"), _("allowed"), _("how")), params, _("Keys"),
            (_("key"), _("does"), _("id, to remap it")), keys,
            _("Remap a key by its id (right column) in {path}, e.g.").format(path=keymap_path()),
            _("escape or {key} closes this").format(key=used.one("help")))


class Wrapped:
    """Text wrapped at the width it is drawn in as the figures' text is: Chinese between any two
    characters (Rich breaks at spaces only: help's Chinese lines ended early, half the box empty after
    "“W_h W_x" or "T5 不是 T5", a student's trial)."""

    def __init__(self, text: Text | str) -> None:
        self.text = Text(text) if isinstance(text, str) else text

    def __rich_measure__(self, console, options) -> Measurement:
        """As a table's cell: no narrower than its widest unbreakable piece, no wider than its longest line."""
        plain = self.text.plain
        return Measurement(longest_word(plain), max(map(cell_len, plain.split("\n")), default=0))

    def __rich_console__(self, console, options):
        out = Text("\n").join(wrap(self.text, options.max_width, console))
        out.no_wrap = True
        yield out


def help_renderable(screen, text: tuple | None = None) -> Group:
    title, prose, heads, rows, keys_head, key_heads, key_rows, remap, closing = text or help_text(screen)
    about = Text()
    about.append(title + "\n", style="bold")
    about.append(prose + "\n")
    about = Wrapped(about)
    params = Table(box=None, padding=(0, 2, 0, 0), header_style="bold underline")
    for column in heads:
        params.add_column(column, overflow="fold")
    for row in rows:  # (the allowed values' Chinese broke as Rich breaks: "stric" / "t：只有…", a student's trial)
        params.add_row(*row[:2], *map(Wrapped, row[2:4]), *row[4:])  # (and "how": "移动步" / "进轴", a trial)
    keys = Table(box=None, padding=(0, 2, 0, 0), header_style="bold underline")  # (the ids headed: they read
    keys.add_column(key_heads[0], style="bold", no_wrap=True)  # as jargon in a newcomer's trial)
    keys.add_column(key_heads[1], overflow="fold")  # a long word (attention/summary) folds, not cut with …
    keys.add_column(key_heads[2], style="dim", no_wrap=True)
    for row in key_rows:  # (Rich cut "（attentio" / "n/summary" and began a line with "、", a Chinese trial)
        keys.add_row(row[0], Wrapped(row[1]), *row[2:])
    remap = Text("\n" + remap + "\n" + f"  [keys]\n  {REMAP_EXAMPLE}\n", style="dim")
    return Group(about, params, Text(""), Text(keys_head, style="bold underline"), keys, remap,
                 Text(closing, style="dim"))


SHOT, HELP = BY_ID["screenshot"], BY_ID["help"]


class HelpScroll(VerticalScroll):
    """Help's box: its bottom edge says when more is below (the scrollbar alone was near the panel's
    grey under NO_COLOR, and at 80x24 the keys ran past the box unnoticed: a trial)."""

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self.say_more()

    def on_resize(self) -> None:
        self.say_more()

    def say_more(self) -> None:
        closes = _("escape closes")  # from the first page: it was said only at the end (a newcomer's trial)
        self.border_subtitle = _("↓ more below") + " · " + closes if self.scroll_y < self.max_scroll_y else closes


class HelpScreen(SeeThrough, WholeFrames, ModalScreen):
    # a modal screen takes no app keys: ctrl+s (its id, so a keymap moves it here too) shoots help itself.
    # WholeFrames: its first frame waits for the scrollbar's layout and goes out whole, once (it came in
    # four, ~44 KB at 120x40). The see-through background is ModalScreen's, set here: a screen takes the
    # CSS of its first base only (WholeFrames, Screen: opaque), and the topic behind went blank.
    BINDINGS = [("escape,q", "dismiss", N_("close")),  # and help's own key, as the keymap has it (it says so)
                Binding(HELP.keys, "dismiss", N_("close"), id=HELP.id),
                Binding(SHOT.keys, SHOT.action, SHOT.does, show=False, id=SHOT.id)]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; &:ansi { background: transparent; } }
    HelpScreen > HelpScroll { width: 90%; max-width: 100; height: 90%; scrollbar-gutter: stable; border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, topic_screen) -> None:
        super().__init__()
        self.topic_screen = topic_screen

    def compose(self) -> ComposeResult:
        with HelpScroll() as v:
            v.border_title = _("help")
            text = help_text(self.topic_screen)
            yield RenderedLines(help_renderable(self.topic_screen, text), key=text)
        yield RnnFooter()  # help's own keys: the topic's (space play, n topic) do nothing here (a stop's note)

    def retranslate(self) -> None:
        self.refresh(recompose=True)
