"""PNG screenshots that look like the terminal.

Textual's screenshots are SVG (Rich's `export_svg`): one `<text>` per styled run, in "Fira Code"
loaded from the web. A converter without that font falls back to some other face, whose glyph
widths drift off the cell grid, whose box-drawing lines do not meet, and which may have no braille.
So before `rsvg-convert` (Debian's librsvg2-bin) turns the SVG into pixels, `terminal_svg` redraws
the screen the way a terminal does:

- text uses DejaVu Sans Mono (Debian's fonts-dejavu-core), sized so one glyph is one cell, and
  every run of ASCII and every other character is placed at its own column, so nothing drifts;
- box drawing (U+2500–257F), block elements (U+2580–259F) and braille (U+2800–28FF) are drawn as
  shapes filling their cells, so borders join and plots show every dot, whatever the font has.
"""
from __future__ import annotations

import html
import math
import re
import shutil
import subprocess
import unicodedata
from functools import lru_cache

from rich.cells import get_character_cell_size

from rnntui.state import BadValue

FONT = "DejaVu Sans Mono"
ADVANCE_EM = 1233 / 2048  # DejaVu Sans Mono's advance width, in em
INSTALL = ("PNG output needs rsvg-convert and the DejaVu Sans Mono font: "
           "apt-get install librsvg2-bin fonts-dejavu-core (macOS: brew install librsvg font-dejavu)")

_TEXT = re.compile(r"<text ([^>]*)>(.*?)</text>", re.S)
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_RULE = re.compile(r"\.([\w-]+)\s*\{([^}]*)\}")
_MATRIX = re.compile(r"(\.[\w-]+-matrix\s*\{)([^}]*)(\})")
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}\s*")


# -- the route ---------------------------------------------------------------------------------
def check_route() -> None:
    """Raise BadValue (one line: what to install) when PNG output cannot look right here."""
    if shutil.which("rsvg-convert") is None or not font_installed():
        raise BadValue(INSTALL)


@lru_cache(maxsize=1)
def font_installed() -> bool:
    """DejaVu Sans Mono is known to fontconfig (True when fc-list itself is missing: cannot tell)."""
    if shutil.which("fc-list") is None:
        return True
    try:
        out = subprocess.run(["fc-list", FONT, "family"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return True
    return FONT.lower() in out.lower()


def to_png(svg: str, scale: float = 2.0) -> bytes:
    """A Textual/Rich SVG screenshot as PNG bytes, `scale` pixels per SVG unit."""
    check_route()
    try:
        done = subprocess.run(["rsvg-convert", "--zoom", f"{scale:g}", "--format", "png"],
                              input=terminal_svg(svg).encode("utf-8"), capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise BadValue("rsvg-convert did not finish in 120 s") from None
    if done.returncode != 0 or not done.stdout.startswith(b"\x89PNG"):
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise BadValue("rsvg-convert failed: " + (err[-1] if err else f"exit status {done.returncode}"))
    return done.stdout


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# -- the SVG, redrawn like a terminal ----------------------------------------------------------
def terminal_svg(svg: str) -> str:
    """Rich's SVG with the terminal's font, every run on its cell, and shapes for lines and dots."""
    match = _MATRIX.search(svg)
    if match is None:  # not a Rich screenshot: leave it alone
        return svg
    font_size = float(re.search(r"font-size:\s*([\d.]+)px", match.group(2)).group(1))
    line_height = float(re.search(r"line-height:\s*([\d.]+)px", match.group(2)).group(1))
    cell = Cell(font_size * 0.61, line_height, font_size)  # Rich's char_width is 0.61 em
    matrix = (f"font-family: '{FONT}', monospace; font-size: {cell.w / ADVANCE_EM:.3f}px; "
              f"line-height: {line_height}px;")
    svg = _FONT_FACE.sub("", svg)
    svg = _MATRIX.sub(lambda m: m.group(1) + "\n        " + matrix + "\n    " + m.group(3), svg, count=1)
    fills = {name: _fill(css) for name, css in _RULE.findall(svg)}
    shapes: dict[str, list[str]] = {}
    svg = _TEXT.sub(lambda m: _redraw(m, cell, fills, shapes), svg)
    # all shapes of one colour in one path: where cells meet, antialiasing sees one outline, no seam
    paths = "".join(f'<path fill="{fill}" d="{"".join(parts)}"/>' for fill, parts in shapes.items())
    end = svg.rfind("</g>", 0, svg.rfind("</g>"))  # the matrix group closes just before the outer one
    return svg[:end] + paths + svg[end:] if end >= 0 else svg


class Cell:
    def __init__(self, w: float, h: float, baseline: float) -> None:
        self.w, self.h, self.baseline = w, h, baseline


def _fill(css: str) -> str:
    found = re.search(r"fill:\s*(#[0-9a-fA-F]{3,8}|[a-z]+)", css)
    return found.group(1) if found else "#000000"


def _redraw(match: re.Match, cell: Cell, fills: dict[str, str], shapes: dict[str, list[str]]) -> str:
    attrs = dict(_ATTR.findall(match.group(1)))
    if "textLength" not in attrs or "clip-path" not in attrs:  # the window title, not the terminal
        return match.group(0)
    text = html.unescape(match.group(2))
    x0, baseline = float(attrs["x"]), float(attrs["y"])
    top = baseline - cell.baseline + 1.5  # Rich: cell top at y·line_height + 1.5
    cls = attrs.get("class", "")
    out, col, word, word_col = [], 0, "", 0

    def flush() -> None:
        nonlocal word
        if word:
            out.append(f'<text class="{cls}" x="{x0 + word_col * cell.w:.2f}" y="{baseline:g}" '
                       f'clip-path="{attrs["clip-path"]}">{html.escape(word, quote=False)}</text>')
            word = ""

    for ch in text:
        x = x0 + col * cell.w
        if ch.isspace() or ch == "\u2800":  # spaces, no-break spaces, newlines, empty braille
            flush()
        elif shape := cell_shape(ch, x, top, cell.w, cell.h):
            flush()
            shapes.setdefault(fills.get(cls, "#000000"), []).append(shape)
        elif ch.isascii():
            if not word:
                word_col = col
            word += ch
        else:  # one character, one cell: a fallback glyph's width cannot push its neighbours
            flush()
            word, word_col = ch, col
            flush()
        col += get_character_cell_size(ch)
    flush()
    return "".join(out)


# -- shapes: path data, every outline clockwise so overlapping parts add up (nonzero fill) ------
def _r(x: float, y: float, w: float, h: float) -> str:
    return f"M{x:.2f} {y:.2f}h{max(w, 0):.2f}v{max(h, 0):.2f}h{-max(w, 0):.2f}z"


def _poly(points: list[tuple[float, float]]) -> str:
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1]))
    if area < 0:
        points = points[::-1]
    return "M" + "L".join(f"{px:.2f} {py:.2f}" for px, py in points) + "z"


def _dot(cx: float, cy: float, r: float) -> str:
    return f"M{cx - r:.2f} {cy:.2f}a{r:.2f} {r:.2f} 0 1 1 {2 * r:.2f} 0a{r:.2f} {r:.2f} 0 1 1 {-2 * r:.2f} 0z"


def cell_shape(ch: str, x: float, y: float, w: float, h: float) -> str:
    """Path data for a box-drawing, block or braille character in the cell (x, y, w, h); "" else."""
    cp = ord(ch)
    if 0x2800 < cp <= 0x28FF:
        return _braille(cp - 0x2800, x, y, w, h)
    if 0x2580 <= cp <= 0x259F:
        return "".join(_r(x + a * w, y + b * h, c * w, d * h) for a, b, c, d in _BLOCKS.get(cp, ()))
    if 0x2500 <= cp <= 0x257F:
        return _box(ch, x, y, w, h)
    return ""


def _braille(bits: int, x: float, y: float, w: float, h: float) -> str:
    # dots 1-2-3-7 down the left column, 4-5-6-8 down the right (Unicode's braille order)
    order = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))
    r = min(w / 2, h / 4) * 0.36
    return "".join(_dot(x + (c + 0.5) * w / 2, y + (k + 0.5) * h / 4, r)
                   for bit, (c, k) in enumerate(order) if bits >> bit & 1)


# block elements as (x, y, w, h) fractions of the cell; shades are drawn as partial fills
_BLOCKS: dict[int, tuple] = {0x2580: ((0, 0, 1, .5),), 0x2588: ((0, 0, 1, 1),), 0x2590: ((.5, 0, .5, 1),),
                             0x2594: ((0, 0, 1, 1 / 8),), 0x2595: ((7 / 8, 0, 1 / 8, 1),)}
_BLOCKS.update({cp: ((0, 1 - (cp - 0x2580) / 8, 1, (cp - 0x2580) / 8),) for cp in range(0x2581, 0x2588)})
_BLOCKS.update({cp: ((0, 0, (0x2590 - cp) / 8, 1),) for cp in range(0x2589, 0x2590)})
_Q = {"ul": (0, 0, .5, .5), "ur": (.5, 0, .5, .5), "ll": (0, .5, .5, .5), "lr": (.5, .5, .5, .5)}
for _cp, _parts in zip(range(0x2596, 0x25A0), ("ll", "lr", "ul", "ul ll lr", "ul lr", "ul ur ll", "ul ur lr",
                                                 "ur", "ur ll", "ur ll lr")):
    _BLOCKS[_cp] = tuple(_Q[p] for p in _parts.split())
_SHADES = {0x2591: lambda i, j: i % 2 == 0 and j % 2 == 0,  # ░ a quarter of the cell, as a grid of dots
           0x2592: lambda i, j: (i + j) % 2 == 0,  # ▒ half: a checkerboard
           0x2593: lambda i, j: not (i % 2 and j % 2)}  # ▓ three quarters
for _cp, _on in _SHADES.items():
    _BLOCKS[_cp] = tuple((i / 4, j / 8, 1 / 4, 1 / 8) for j in range(8) for i in range(4) if _on(i, j))

LIGHT, HEAVY, DOUBLE = 1, 2, 3
SEAM = 0.3  # lines reach this far into the next cell, so neighbours overlap rather than just touch
_WEIGHTS = {"LIGHT": LIGHT, "SINGLE": LIGHT, "HEAVY": HEAVY, "DOUBLE": DOUBLE}
_DIRS = {"LEFT": "l", "RIGHT": "r", "UP": "u", "DOWN": "d", "HORIZONTAL": "lr", "VERTICAL": "ud"}
_OPPOSITE = {"l": "r", "r": "l", "u": "d", "d": "u"}
_ACROSS = {"l": "ud", "r": "ud", "u": "lr", "d": "lr"}


@lru_cache(maxsize=None)
def box_arms(ch: str) -> tuple[dict[str, int], str]:
    """From the Unicode name: which arms (l r u d) a box-drawing character has, their weights, and
    its kind: "" (plain), "arc", "dash2/3/4" or "diagonal"."""
    name = unicodedata.name(ch, "").removeprefix("BOX DRAWINGS ")
    words = name.split()
    if "DIAGONAL" in words:
        return {}, "diagonal"
    if "DASH" in words:
        dashes = {"DOUBLE": 2, "TRIPLE": 3, "QUADRUPLE": 4}[words[1]]
        return {d: _WEIGHTS[words[0]] for d in _DIRS[words[-1]]}, f"dash{dashes}"
    arms, weight = {}, LIGHT
    for clause in name.replace(" ARC", "").split(" AND "):  # "DOWN LIGHT AND RIGHT HEAVY", "LIGHT DOWN AND RIGHT"
        tokens = clause.split()
        weight = next((_WEIGHTS[t] for t in tokens if t in _WEIGHTS), weight)
        for t in tokens:
            for d in _DIRS.get(t, ""):
                arms[d] = weight
    return arms, "arc" if "ARC" in words else ""


def _box(ch: str, x: float, y: float, w: float, h: float) -> str:
    arms, kind = box_arms(ch)
    t = max(w * 0.12, 1.0)  # a light line; heavy is twice as thick
    thick = {LIGHT: t, HEAVY: 2 * t, DOUBLE: t}
    g = max(w * 0.16, 1.5 * t)  # half the distance between the two lines of a double line
    cx, cy = x + w / 2, y + h / 2
    if kind == "diagonal":
        ends = {"╱": ((x + w, y), (x, y + h)), "╲": ((x, y), (x + w, y + h))}
        out = []
        for (ax, ay), (bx, by) in (ends.values() if ch == "╳" else (ends[ch],)):
            length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
            nx, ny = -(by - ay) / length * t / 2, (bx - ax) / length * t / 2
            out.append(_poly([(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]))
        return "".join(out)
    if kind == "arc":  # a quarter ring of radius half a cell, then straight on to the far edge
        r = w / 2
        sx, sy = (1 if "r" in arms else -1), (1 if "d" in arms else -1)
        ox, oy = cx + sx * r, cy + sy * r  # the ring's centre
        ring = [(ox - sx * rad * math.cos(a), oy - sy * rad * math.sin(a))
                for rad, angles in ((r + t / 2, range(0, 13)), (r - t / 2, range(12, -1, -1)))
                for a in (k * math.pi / 24 for k in angles)]
        edge = y + h + SEAM if sy > 0 else y - SEAM
        return _poly(ring) + _span(False, oy, edge, cx, t)
    if kind.startswith("dash"):
        n, tw = int(kind[4:]), thick[next(iter(arms.values()))]
        if "l" in arms:
            seg = w / n
            return "".join(_r(x + i * seg + seg * 0.15, cy - tw / 2, seg * 0.7, tw) for i in range(n))
        seg = h / n
        return "".join(_r(cx - tw / 2, y + i * seg + seg * 0.15, tw, seg * 0.7) for i in range(n))

    out = []
    for arm, weight in arms.items():
        horizontal = arm in "lr"
        sign = -1 if arm in "lu" else 1
        centre, edge = (cx, x if sign < 0 else x + w) if horizontal else (cy, y if sign < 0 else y + h)
        edge += sign * SEAM
        across = cy if horizontal else cx
        if weight != DOUBLE:
            # reach over the crossing lines so the join is solid
            crossing = [arms[o] for o in _ACROSS[arm] if o in arms]
            reach = max([g + t / 2 if c == DOUBLE else thick[c] / 2 for c in crossing] or [thick[weight] / 2])
            out.append(_span(horizontal, centre - sign * reach, edge, across, thick[weight]))
            continue
        for side, offset in zip(_ACROSS[arm], (-g, g)):  # the two lines of a double arm
            side_arm, far_arm = arms.get(side), arms.get(_OPPOSITE[side])
            if side_arm == DOUBLE:
                start = centre + sign * (g - t / 2)  # stops at the crossing double line
            elif side_arm:
                start = centre - sign * t / 2
            elif _OPPOSITE[arm] in arms:
                start = centre  # runs on into the opposite arm
            elif far_arm == DOUBLE:
                start = centre - sign * (g + t / 2)  # the outside of a corner
            else:
                start = centre - sign * t / 2
            out.append(_span(horizontal, start, edge, across + offset, t))
    return "".join(out)


def _span(horizontal: bool, a: float, b: float, across: float, thickness: float) -> str:
    lo, hi = min(a, b), max(a, b)
    if horizontal:
        return _r(lo, across - thickness / 2, hi - lo, thickness)
    return _r(across - thickness / 2, lo, thickness, hi - lo)
