"""Decks: an ordered list of frames in TOML, for `rnntui present` and `rnntui export --deck`.

    title = "From recurrence to attention"     # optional: the deck's name (index.md heading)

    [[frame]]
    figure = "recurrence/track"                # topic/figure, as on the command line
    set = { w_h = 1.4 }                        # optional: parameters, as --set KEY=VALUE
    step = 7                                   # optional: the figure's time axis, as --step N
    title = "All eight states"                 # optional: the slide's heading
    caption = "W_h = 1.4: the last state reads 0.841."   # optional: the words under it

Every frame is checked with the command line's own parser (topics.find / topics.build_state)
before anything renders; the first problem is reported as one line naming the frame. A frame
whose topic is not registered is an error like any unknown name (the sample deck's test skips,
and names, frames of topics not built yet).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rnntui.slides import Frame
from rnntui.state import BadValue

DECK_KEYS = ("title", "frame")
FRAME_KEYS = ("figure", "set", "step", "title", "caption")


@dataclass(frozen=True)
class Deck:
    title: str
    frames: tuple[Frame, ...]
    source: str = ""


def _toml():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise BadValue("decks need Python 3.11 or later, or: pip install tomli") from None
    return tomllib


SHIPPED = Path(__file__).parent / "decks"


def shipped() -> list[str]:
    return sorted(p.stem for p in SHIPPED.glob("*.toml"))


def load(path: str | Path) -> Deck:
    """Read and check a deck file, or a shipped deck by name (`lecture`); BadValue (one line) on any problem."""
    path = Path(path)
    if not path.exists() and path.suffix == "" and len(path.parts) == 1 and (SHIPPED / f"{path}.toml").exists():
        path = SHIPPED / f"{path}.toml"
    tomllib = _toml()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadValue(f"deck {path}: no such file (shipped decks: {', '.join(shipped())})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadValue(f"deck {path}: cannot read it ({getattr(e, 'strerror', None) or e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadValue(f"deck {path}: not valid TOML: {e}") from None
    return parse(data, str(path))


def parse(data: dict, source: str = "deck") -> Deck:
    """A deck from TOML data: every frame checked, the first problem raised with its frame number."""
    unknown = [k for k in data if k not in DECK_KEYS]
    if unknown:
        raise BadValue(f"deck {source}: unknown key {unknown[0]!r} (a deck has: title, [[frame]])")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise BadValue(f"deck {source}: title must be text")
    frames = data.get("frame")
    if not frames:
        raise BadValue(f"deck {source}: no frames (add [[frame]] tables with figure = \"topic/figure\")")
    if not isinstance(frames, list):
        raise BadValue(f"deck {source}: frame must be an array of tables: write [[frame]]")
    out = []
    for n, item in enumerate(frames, 1):
        try:
            out.append(parse_frame(item))
        except BadValue as e:
            raise BadValue(f"deck {source}, frame {n}: {e}") from None
    return Deck(title or Path(source).stem, tuple(out), source)


def _scalar(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float, str)):
        return str(value)
    raise BadValue(f"{value!r} is not a number or a word")


def parse_frame(item) -> Frame:
    from rnntui.topics import build_state, find

    if not isinstance(item, dict):
        raise BadValue("expected a table with figure = \"topic/figure\"")
    unknown = [k for k in item if k not in FRAME_KEYS]
    if unknown:
        raise BadValue(f"unknown key {unknown[0]!r} (a frame has: {', '.join(FRAME_KEYS)})")
    figure = item.get("figure")
    if not isinstance(figure, str) or not figure.strip():
        raise BadValue("figure = \"topic/figure\" is missing")
    values = item.get("set", {})
    if not isinstance(values, dict):
        raise BadValue("set must be a table, e.g. set = { w_h = 1.4 }")
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
    for words in ("title", "caption"):
        if not isinstance(item.get(words, ""), str):
            raise BadValue(f"{words} must be text")
    screen, fig = find(figure, sets)
    try:
        state = build_state(fig, sets, step)
    except BadValue as e:
        raise BadValue(str(e).removeprefix("--")) from None  # "--step 9: …" reads "step 9: …" in a deck
    return Frame(screen, fig, state, item.get("title", ""), item.get("caption", ""))
