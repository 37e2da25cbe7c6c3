"""Decks: an ordered list of frames in TOML, for `rnntui present` and `rnntui export --deck`.

    title = "From recurrence to attention"     # optional: the deck's name (index.md heading)

    [[frame]]
    figure = "recurrence/track"                # topic/figure, as on the command line
    set = { w_h = 1.4 }                        # optional: parameters, as --set KEY=VALUE
    step = 7                                   # optional: the figure's time axis, as --step N
    title = "All eight states"                 # optional: the slide's heading
    caption = "W_h = 1.4: the last state reads 0.841."   # optional: the words under it
    title_zh = "八个状态"                       # optional: the same in Chinese (`--lang zh`); a
    caption_zh = "W_h = 1.4：最后一个状态是 0.841。"  # missing one falls back to title / caption

A deck's `title_zh` is its name in Chinese. Without a deck's title or caption, a slide shows the
figure's own title and prose, translated through the catalogue (rnntui/i18n.py).

Every frame is checked with the command line's own parser (topics.find / topics.build_state)
before anything renders; the first problem is reported as one line naming the frame. A frame
whose topic is not registered is an error like any unknown name (the sample deck's test skips,
and names, frames of topics not built yet).
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from pathlib import Path

from rnntui.files import read_reason, read_small_text
from rnntui.i18n import LANGUAGES, _, commas, invisible, language
from rnntui.slides import Frame
from rnntui.state import BadValue

WORDS = ("title", "caption")  # a frame's words; each may come again as title_zh, caption_zh, …
LOCAL = tuple(f"{w}_{lang}" for w in WORDS for lang in LANGUAGES if lang != "en")
DECK_KEYS = ("title", *(f"title_{lang}" for lang in LANGUAGES if lang != "en"), "frame")
FRAME_KEYS = ("figure", "set", "step", "title", "caption", *LOCAL)


@dataclass(frozen=True)
class Deck:
    title: str
    frames: tuple[Frame, ...]
    source: str = ""
    translated: tuple[tuple[str, str], ...] = ()  # (("title_zh", "…"),)

    def heading(self) -> str:
        """The deck's title in the current language (its English one when it has none)."""
        return dict(self.translated).get(f"title_{language()}") or self.title


def _toml():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise BadValue(_("decks need Python 3.11 or later, or: pip install tomli")) from None
    return tomllib


SHIPPED = Path(__file__).parent / "decks"


def shipped() -> list[str]:
    return sorted(p.stem for p in SHIPPED.glob("*.toml"))


def load(path: str | Path) -> Deck:
    """Read and check a deck file, or a shipped deck by name (`lecture`); BadValue (one line) on any problem."""
    path = Path(path)
    # a bare name is a shipped deck unless a file of that name is here: a folder named `lecture` (what
    # `rnntui export lecture` makes) hid the shipped lecture ("cannot read it (Is a directory)")
    named = path.suffix == "" and len(path.parts) == 1 and (SHIPPED / f"{path}.toml").exists()
    if named and not path.is_file():
        path = SHIPPED / f"{path}.toml"
    try:
        return _read(path)
    except BadValue as e:
        if named and path.is_file() and path.parent != SHIPPED:  # a file named `lecture` here hid the shipped one
            raise BadValue(str(e) + _("; this file hides the shipped deck {name}: rename it, or run rnntui "
                                      "from another folder").format(name=path.name)) from None
        raise


MAX_DECK_BYTES = 1_000_000  # the lecture's deck is ~20 KB


def _read(path: Path) -> Deck:
    tomllib = _toml()
    try:
        text = read_small_text(path, MAX_DECK_BYTES, _("larger than {n} MB: not a deck").format(
            n=MAX_DECK_BYTES // 1_000_000))
    except FileNotFoundError:
        raise BadValue(_("deck {path}: no such file (shipped decks: {decks})").format(
            path=path, decks=commas(shipped()))) from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadValue(_("deck {path}: cannot read it ({reason})").format(path=path, reason=read_reason(e))) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # ([frame] twice: the parser's words alone, a trial)
        hint = _("; each slide is a [[frame]] table") if "('frame',)" in str(e) else ""
        raise BadValue(_("deck {path}: not valid TOML: {error}").format(path=path, error=e) + hint) from None
    except RecursionError:  # (arrays nested 3000 deep: a traceback, a review)
        raise BadValue(_("deck {path}: not valid TOML: {error}").format(path=path, error=_("nested too deep"))) from None
    return parse(data, str(path))


def parse(data: dict, source: str = "deck") -> Deck:
    """A deck from TOML data: every frame checked, the first problem raised with its frame number."""
    unknown = [k for k in data if k not in DECK_KEYS]
    if unknown:
        raise BadValue(_("deck {source}: unknown key {key!r} (a deck has: {keys})").format(
            source=source, key=unknown[0], keys=commas(DECK_KEYS[:-1] + ("[[frame]]",))))
    title = data.get("title", "")
    for key in DECK_KEYS[:-1]:
        if not isinstance(data.get(key, ""), str):
            raise BadValue(_("deck {source}: {key} must be text").format(source=source, key=key))
        try:
            check_visible(key, data.get(key, ""))
        except BadValue as e:
            raise BadValue(_("deck {source}: {error}").format(source=source, error=e)) from None
    frames = data.get("frame")
    if not frames:
        raise BadValue(_("deck {source}: no frames (add [[frame]] tables with figure = \"topic/figure\")")
                       .format(source=source))
    if not isinstance(frames, list):
        raise BadValue(_("deck {source}: frame must be an array of tables: write [[frame]]").format(source=source))
    out = []
    for n, item in enumerate(frames, 1):
        try:
            out.append(parse_frame(item))
        except BadValue as e:
            raise BadValue(_("deck {source}, frame {n}: {error}").format(source=source, n=n, error=e)) from None
    translated = tuple((k, data[k]) for k in DECK_KEYS[1:-1] if data.get(k))
    return Deck(title or Path(source).stem, tuple(out), source, translated)


def check_visible(key: str, text: str) -> None:
    """BadValue naming an invisible character in a deck's words (U+202E turned the line that
    said so, a trial)."""
    if hidden := next((ch for ch in text if invisible(ch)), None):
        raise BadValue(_("{key} holds an invisible character (U+{code:04X}); remove it").format(
            key=key, code=ord(hidden)))


def _scalar(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float, str)):
        return str(value)
    raise BadValue(_("{value!r} is not a number or a word").format(value=value))


def parse_frame(item) -> Frame:
    from rnntui.topics import build_state, find

    if not isinstance(item, dict):
        raise BadValue(_("expected a table with figure = \"topic/figure\""))
    unknown = [k for k in item if k not in FRAME_KEYS]
    if unknown:
        raise BadValue(_("unknown key {key!r} (a frame has: {keys})").format(key=unknown[0], keys=commas(FRAME_KEYS)))
    figure = item.get("figure")
    if figure is not None and not isinstance(figure, str):  # (figure = 5 said "is missing", a trial)
        raise BadValue(_("figure = {value!r}: expected text, e.g. figure = \"recurrence/track\"").format(value=figure))
    if figure is None or not figure.strip():
        raise BadValue(_("figure = \"topic/figure\" is missing"))
    values = item.get("set", {})
    if not isinstance(values, dict):
        raise BadValue(_("set must be a table, e.g. set = { w_h = 1.4 }"))
    sets = []
    for key, value in values.items():
        try:
            sets.append(f"{key}={_scalar(value)}")
        except BadValue as e:
            raise BadValue(f"set {key}: {e}") from None
    step = item.get("step")
    if step is not None:
        try:
            step = _scalar(step)
        except BadValue as e:
            raise BadValue(f"step: {e}") from None
    for words in WORDS + LOCAL:
        if not isinstance(item.get(words, ""), str):
            raise BadValue(_("{key} must be text").format(key=words))
        check_visible(words, item.get(words, ""))
    screen, fig = find(figure, sets)
    try:
        state = build_state(fig, sets, step)
    except BadValue as e:
        # "--step 9: …" reads "step 9: …" in a deck, and "--set z=3" "set z=3" (a deck has no options)
        raise BadValue(re.sub(r"--(set|step)\b", r"\1", str(e))) from None
    axis = state.AXIS
    return Frame(screen, fig, state, item.get("title", ""), item.get("caption", ""),
                 tuple((k, item[k]) for k in LOCAL if item.get(k)),
                 axis_set=step is None and getattr(state, axis) != getattr(fig.state_type(), axis))
