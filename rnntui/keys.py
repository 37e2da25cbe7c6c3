"""The keyboard contract (SPEC §3): one table that the bindings, the footer, help and tests read."""
from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding


@dataclass(frozen=True)
class Key:
    keys: str  # Textual key names, comma separated
    action: str
    shown: str  # what the footer and help call the key
    does: str
    footer: bool = False
    scope: str = "screen"  # "screen" (a topic screen) or "app"


CONTRACT: tuple[Key, ...] = (
    Key("1,2,3,4,5,6,7,8", "app.topic_number", "1…8", "jump to topic", scope="app"),
    Key("tab", "next_figure", "tab", "next figure on this screen", footer=True),
    Key("shift+tab", "previous_figure", "shift+tab", "previous figure"),
    Key("n,pagedown", "app.next_topic", "n / pgdn", "next topic", footer=True, scope="app"),
    Key("p,pageup", "app.previous_topic", "p / pgup", "previous topic", scope="app"),
    Key("right", "step(1)", "→", "step the figure's axis forward"),
    Key("left", "step(-1)", "←", "step back"),
    Key("home", "axis_end(-1)", "home", "first step"),
    Key("end", "axis_end(1)", "end", "last step"),
    Key("space", "play", "space", "play / pause: one step per tick", footer=True),
    Key("up", "choose(-1)", "↑", "choose the parameter +/- changes"),
    Key("down", "choose(1)", "↓", "choose the next parameter"),
    Key("plus,equals_sign", "change(1)", "+", "raise that parameter one notch"),
    Key("minus,underscore", "change(-1)", "-", "lower it one notch"),
    Key("r", "reset", "r", "reset the figure to its defaults"),
    Key("question_mark", "app.help", "?", "help: keys and the focused figure", footer=True, scope="app"),
    Key("ctrl+s", "app.shot", "ctrl+s", "save a screenshot (SVG) and say where", scope="app"),
    Key("ctrl+p", "app.command_palette", "ctrl+p", "command palette: topics, figures, parameters, theme, screenshot", scope="app"),
    Key("q", "app.quit", "q", "quit", footer=True, scope="app"),
)

# footer: (key shown, word) for the keys marked `footer`
FOOTER = {"next_figure": ("tab", "figure"), "app.next_topic": ("n", "topic"), "step(1)": ("←→", "step"),
          "play": ("space", "play"), "choose(1)": ("↑↓", "param"), "change(1)": ("+-", "change"),
          "reset": ("r", "reset"), "app.help": ("?", "help"), "app.quit": ("q", "quit")}


FIRST = ("app.help", "app.quit")  # shown first in a topic's footer, so a narrow terminal never hides them


def bindings(scope: str) -> list[Binding]:
    """Textual bindings for one scope; only `footer` keys show in the footer.

    A topic screen repeats help and quit first (they act on the app), so the footer starts with them."""
    out = []
    if scope == "screen":
        for k in CONTRACT:
            if k.action in FIRST:
                shown, word = FOOTER[k.action]
                out.append(Binding(k.keys, k.action, word, key_display=shown))
    for k in CONTRACT:
        if k.scope != scope or k.action == "app.command_palette":
            continue
        action = k.action.removeprefix("app.") if scope == "app" else k.action
        if action == "topic_number":
            out += [Binding(n, f"topic_number({n})", "topic", show=False) for n in k.keys.split(",")]
            continue
        shown, word = FOOTER.get(k.action, (k.shown, k.does))
        out.append(Binding(k.keys, action, word, show=k.footer and k.action not in FIRST, key_display=shown,
                           priority=k.keys in ("tab", "shift+tab")))
    return out
