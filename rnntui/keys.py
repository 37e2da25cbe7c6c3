"""The keyboard contract (SPEC §3): one table that the bindings, the footer, help and tests read.

Every binding has an id, so a user can remap it in a keymap file (TOML, one `id = "keys"` per
line, under [keys]) at $XDG_CONFIG_HOME/rnntui/keymap.toml (default ~/.config/rnntui/keymap.toml):

    [keys]
    step_forward = "right,f"
    step_back = "left,v"
"""
from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from textual.binding import Binding
from textual.keys import KEY_NAME_REPLACEMENTS, Keys, _character_to_key, _normalize_key_list, format_key

from rnntui.i18n import N_, _, commas, one_line


@dataclass(frozen=True)
class Key:
    id: str  # the binding id a keymap names
    keys: str  # Textual key names, comma separated
    action: str
    shown: str  # what help calls the key
    does: str  # an English msgid (marked N_): help shows _(does)
    footer: str = ""  # the footer's word (a msgid; the footer translates it); empty: not in the footer
    scope: str = "screen"  # "screen" (a topic screen), "app", or "links" (a topic whose figure opens others)


CONTRACT: tuple[Key, ...] = (
    Key("topic", "1,2,3,4,5,6,7,8", "app.topic_number", "1…8", N_("jump to topic"), scope="app"),
    Key("next_figure", "tab", "next_figure", "tab", N_("next figure on this screen"), N_("figure")),
    Key("previous_figure", "shift+tab", "previous_figure", "shift+tab", N_("previous figure")),
    Key("next_topic", "n,pagedown", "app.next_topic", "n / pgdn", N_("next topic"), N_("topic"), scope="app"),
    Key("previous_topic", "p,pageup", "app.previous_topic", "p / pgup", N_("previous topic"), scope="app"),
    Key("step_forward", "right", "step(1)", "→", N_("step the figure's axis forward")),
    Key("step_back", "left", "step(-1)", "←", N_("step back")),
    Key("fine_forward", "shift+right", "step(1,True)", "shift+→", N_("step forward by the finest notch")),
    Key("fine_back", "shift+left", "step(-1,True)", "shift+←", N_("step back by the finest notch")),
    Key("first_step", "home", "axis_end(-1)", "home", N_("first step")),
    Key("last_step", "end", "axis_end(1)", "end", N_("last step")),
    Key("play", "space", "play", "space", N_("play / pause: one step per tick"), N_("play")),
    Key("previous_param", "up", "choose(-1)", "↑", N_("choose the parameter +/- changes")),
    Key("next_param", "down", "choose(1)", "↓", N_("choose the next parameter")),
    Key("raise", "plus,equals_sign", "change(1)", "+", N_("raise that parameter (no parameter: the axis)")),
    Key("lower", "minus,underscore", "change(-1)", "-", N_("lower it")),
    Key("lab", "t", "lab", "t", N_("run this figure's lab (again to cancel); only where a figure has one"), N_("lab")),
    Key("reset", "r", "reset", "r", N_("reset the figure to its defaults (a finished live run too)")),
    Key("help", "question_mark", "app.help", "?", N_("help: keys and the focused figure"), N_("help"), scope="app"),
    Key("open_link", "enter", "open_link", "enter", N_("open the figure the chosen cell names (a cell ending in ⏎)"),
        N_("open"), scope="links"),
    Key("back", "backspace,b", "app.back", "backspace / b",
        N_("back to the table a link came from (attention/summary's Enter)"), N_("return"), scope="app"),
    Key("screenshot", "ctrl+s", "app.shot", "ctrl+s", N_("save a screenshot (SVG) and say where"), scope="app"),
    Key("palette", "ctrl+p", "app.command_palette", "ctrl+p",
        N_("command palette: topics, figures, parameters, theme, screenshot, language"), scope="app"),
    Key("suspend", "ctrl+z", "app.suspend", "ctrl+z",  # (it did nothing: the terminal is raw, a trial)
        N_("suspend to the shell (fg brings it back)"), scope="app"),
    Key("quit", "q", "app.quit", "q", N_("quit"), N_("quit"), scope="app"),  # (help adds Textual's ctrl+q: KeysInUse)
)

TOPIC_IDS = tuple(f"topic_{n}" for n in range(1, 9))  # the topic keys' ids, one a key (`topic` is none)
PALETTE = N_("palette")  # the footer's word for the palette's key, at its right end
FOOTER_KEYS = {"next_figure": "tab", "step_forward": "←→", "lab": "t", "help": "?", "next_topic": "n", "back": "b"}
FIRST = ("help", "quit", "back")  # first in a topic's footer, so a narrow terminal never hides them; back
# where a link was followed (the app's check_action): nothing said how to return, a trial
BY_ID = {k.id: k for k in CONTRACT}
# the figures' letter keys (toggle ids), for a keymap's clashes without importing every figure at startup;
# a test holds it to the figures' own
LETTERS = {"toggle_act": "a", "toggle_activation": "a", "toggle_cell": "c", "toggle_distractors": "d",
           "toggle_dtype": "d", "toggle_gqa": "g", "toggle_head": "h", "toggle_later": "x", "toggle_mask": "m",
           "toggle_metric": "c", "toggle_mode": "m", "toggle_norm": "l", "toggle_pe": "e", "toggle_scaling": "s",
           "toggle_scoring": "s", "toggle_weights": "w"}


def bindings(scope: str) -> list[Binding]:
    """Textual bindings for one scope, each with its id; only keys with a footer word show there.

    A topic screen repeats help and quit first (they act on the app), so the footer starts with them."""
    out = []
    if scope == "screen":
        out += [Binding(k.keys, k.action, k.footer, key_display=FOOTER_KEYS.get(k.id, k.keys), id=k.id)
                for k in (BY_ID[id] for id in FIRST)]
    for k in CONTRACT:
        if k.scope != scope:
            continue
        action = k.action.removeprefix("app.") if scope == "app" else k.action
        if k.id == "topic":
            out += [Binding(n, f"topic_number({n})", "topic", show=False, id=f"topic_{n}") for n in k.keys.split(",")]
            continue
        if k.id == "palette":  # as Textual's own (which has no id, so a keymap's `palette` moved nothing: an audit)
            out.append(Binding(k.keys, action, PALETTE, show=False, priority=True, tooltip=k.does, id=k.id))
            continue
        out.append(Binding(k.keys, action, k.footer or k.does, show=bool(k.footer) and k.id not in FIRST,
                           key_display=FOOTER_KEYS.get(k.id), id=k.id,
                           priority=k.keys in ("tab", "shift+tab") or k.id == "suspend"))  # (help, the palette)
    return out


def key_shown(key: str) -> str:
    """One Textual key name as help writes it: "right" → "→", "question_mark" → "?", "shift+left" →
    "shift+←"."""
    *modifiers, last = key.strip().split("+")
    return "+".join(modifiers + [format_key(last)])


@dataclass(frozen=True)
class KeysInUse:
    """The keys as help, the parameter line and notices name them: the contract's words, unless the app's
    keymap moved them (help listed → and ? after `step_forward = "l"`, `help = "f1"`: a keyboard audit)."""

    moved: dict  # binding id → Textual key names, comma separated (the app's keymap)

    def all(self, id: str, default: str = "") -> str:
        """Every key bound to `id`: "n / pgdn"; `default` for a key not in the contract (a toggle's letter);
        "" for a letter the keymap gave to a contract binding."""
        if id == "topic" and set(TOPIC_IDS) & self.moved.keys():
            return " ".join(self.one(topic, topic[-1]) for topic in TOPIC_IDS)
        if id == "quit":  # ctrl+q is Textual's, bound without an id: it quits unless the keymap gave it to another
            keys = self.moved.get(id, BY_ID[id].keys).split(",")  # (help named only q, a trial; or gave it twice,
            taken = any("ctrl+q" in k.split(",") for other, k in self.moved.items() if other != id)  # a review)
            return " / ".join([key_shown(k) for k in keys if k.strip()] + ([] if taken or "ctrl+q" in keys
                                                                              else ["ctrl+q"]))
        if id not in self.moved:
            if id in LETTERS and any(LETTERS[id] in keys.split(",") for other, keys in self.moved.items()
                                     if other not in LETTERS):  # a contract key took the letter (user_keymap says)
                return ""
            return BY_ID[id].shown if id in BY_ID else default
        return " / ".join(key_shown(k) for k in self.moved[id].split(",") if k.strip())

    def one(self, id: str, default: str = "") -> str:
        """The first of them: what a notice names ("? lists its keys")."""
        return self.all(id, default).split(" / ")[0]

    def letter(self, p) -> str:
        """A parameter's letter key, as the keymap has it; "" for none (or one a contract key took)."""
        return self.one(f"toggle_{p.name}", p.key) if p.key else ""

    def two(self, first: str, second: str, sep: str = "") -> str:
        """Two keys as one item, "←→" or "+-"; apart with "/" once one is moved: "←/l"."""
        moved = first in self.moved or second in self.moved
        return self.one(first) + ("/" if moved else sep) + self.one(second)


def in_use(node) -> KeysInUse:
    """The keys `node`'s app runs with (an app, a screen, a view; anything else: the defaults)."""
    app = node if hasattr(node, "_keymap") else getattr(node, "app", None)
    return KeysInUse(getattr(app, "_keymap", None) or {})  # (Textual keeps it there, normalized: "?" is question_mark)


def offered(k: Key) -> str:
    """The id help offers for remapping `k`: every id a keymap takes (`topic` is topic_1 … topic_8)."""
    return f"{TOPIC_IDS[0]} … {TOPIC_IDS[-1]}" if k.id == "topic" else k.id


def toggle_binding(key: str, name: str, label: str) -> Binding:
    """A figure's letter key that cycles one of its choices (`a` activation, `m` mask, …)."""
    return Binding(key, f"toggle('{name}')", label, id=f"toggle_{name}")


def keymap_path() -> Path:
    from rnntui.engine.records import user_dir

    return user_dir("XDG_CONFIG_HOME", ".config") / "rnntui" / "keymap.toml"


MAX_KEYMAP_BYTES = 100_000  # a keymap names a few dozen bindings


def user_keymap(path: Path | None = None) -> tuple[dict[str, str], str | None]:
    """(binding id → keys, None), or ({}, one-line problem) when the file is unreadable or wrong."""
    from rnntui.files import read_reason, read_small_text

    path = path or keymap_path()
    try:
        text = read_small_text(path, MAX_KEYMAP_BYTES, _("larger than {n} KB").format(n=MAX_KEYMAP_BYTES // 1000))
    except (FileNotFoundError, NotADirectoryError):  # (also $XDG_CONFIG_HOME=/dev/null: no keymap)
        return {}, None  # (the usual case: no toml parser imported at startup)
    except (OSError, UnicodeDecodeError) as e:  # (in the app's language, the path said once: a code review)
        return {}, _("keymap {path} ignored: {problem}").format(path=path, problem=read_reason(e))
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        raw = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as e:  # (nested 3000 deep)
        return {}, _("keymap {path} ignored: {problem}").format(path=path, problem=str(e).splitlines()[0][:80])
    table = raw.get("keys", raw)
    if not isinstance(table, dict):  # (keys = "f" ended every command in AttributeError, a review)
        return {}, _("keymap {path} ignored: unknown id or value for {ids}").format(path=path, ids="keys")
    known = {k.id for k in CONTRACT if k.id != "topic"} | set(TOPIC_IDS) | LETTERS.keys()  # (`topic` moved nothing)
    bad = [k for k, v in table.items() if not isinstance(v, str) or k not in known]
    if typed := [k for k in bad if k in known]:  # (quit = 5 said "unknown id or value for quit", a power user's trial)
        return {}, _("keymap {path} ignored: {id} takes one string of keys, such as {id} = \"x\" or \"x,ctrl+x\"; "
                     "it has {value}").format(path=path, id=typed[0], value=one_line(repr(table[typed[0]]))[:40])
    if bad:
        return {}, _("keymap {path} ignored: unknown id or value for {ids}").format(path=path,
                                                                                  ids=commas(map(str, bad[:3])))
    table = {id: as_sent(keys) for id, keys in table.items()}
    unknown = [(id, key) for id, keys in table.items() for key in keys.split(",") if not known_key(key)]
    if unknown:  # (step_forward = "rigth": → stopped stepping and the footer said "←/rigth", a lecturer's trial)
        return {}, _("keymap {path} ignored: {id} names no key a terminal sends: {key}").format(
            path=path, id=unknown[0][0], key=repr(unknown[0][1].strip()))
    found = clashes(table)
    both = next(((key, a, b) for key, a, b in found if not b.startswith("toggle_")), None)
    if both:  # (quit = "n" made n quit, and nothing said next_topic had lost it: a keyboard audit)
        return {}, _("keymap {path} ignored: {key} is given to both {first} and {second}").format(
            path=path, key=key_shown(both[0]), first=both[1], second=both[2])
    if found:  # the contract's key wins on that figure, and its letter does nothing: loaded, and said, each
        # (of h and l, only l was said, on readout whose h it was: a review)
        lost = [_("{key} is {first}'s, so {second} has no key").format(key=key_shown(key), first=first, second=second)
                for key, first, second in sorted(found)]
        return dict(table), _("keymap {path}: {lost}; give each one a key").format(path=path, lost="; ".join(lost))
    return dict(table), None


# what a terminal sends for these: shift+q never came (Q does), and ctrl+i moved to the next figure, as tab
# (a power user's trial)
SENT_AS = {"ctrl+i": "tab", "ctrl+m": "enter", "ctrl+[": "escape", "ctrl+h": "backspace"}


def as_sent(keys: str) -> str:
    """A keymap's keys as a terminal sends them: "shift+q" is "Q", "ctrl+i" is "tab"."""
    out = []
    for key in keys.split(","):
        name = key.strip()
        if name.lower().startswith("shift+") and len(name) == 7 and name[6].isalpha() and len(name[6].upper()) == 1:
            key = name[6].upper()  # (É for shift+é; not "SS" for shift+ß: a review)
        out.append(SENT_AS.get(name.lower(), key))
    return ",".join(out)


KEY_NAMES = {k.value for k in Keys} | set(KEY_NAME_REPLACEMENTS.values())
MODIFIERS = {"ctrl", "shift", "alt", "meta", "super", "hyper"}


def known_key(key: str) -> bool:
    """Whether `key` names a key as Textual names the one a terminal sends: "right", "ctrl+s", "?",
    "question_mark" (and "banana", 🍌's name)."""
    *modifiers, last = key.strip().split("+")
    if not last or not set(modifiers) <= MODIFIERS:
        return False
    if len(last) == 1 or last in KEY_NAMES:
        return True
    words = last.split("_")
    for joins in itertools.product(" -", repeat=min(len(words) - 1, 8)):  # "less_than_sign": LESS-THAN SIGN
        name = words[0] + "".join(j + w for j, w in zip(joins, words[1:]))
        try:
            if _character_to_key(unicodedata.lookup(name)) == last:
                return True
        except KeyError:
            pass
    return False


def key_names(keys: str) -> list[str]:
    """A binding's keys as Textual matches them: "?, f1" is ["question_mark", "f1"]."""
    return [key for key in _normalize_key_list(keys).split(",") if key]


def clashes(moved: dict[str, str]) -> list[tuple[str, str, str]]:
    """(key, contract id, id) for each key that `moved` leaves on two bindings, one of them the contract's
    (two figures' letters may share one: they are never on one screen), the letter's id last. On a figure
    the contract's key wins and the letter does nothing (step_back = "h": recurrence/readout's head)."""
    owners: dict[str, list[str]] = {}
    defaults = {k.id: k.keys for k in CONTRACT if k.id != "topic"} | dict(zip(TOPIC_IDS, "12345678")) | LETTERS
    for id, keys in (defaults | moved).items():
        for key in key_names(keys):
            owners.setdefault(key, []).append(id)
    found = []
    for key, ids in owners.items():
        ids = sorted(dict.fromkeys(ids), key=lambda id: id.startswith("toggle_"))  # the contract's first
        found += [(key, ids[0], other) for other in ids[1:] if not ids[0].startswith("toggle_")]
    return found
