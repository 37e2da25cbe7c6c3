"""Box drawing, block elements and braille as shapes filling their cells.

A terminal font draws these glyphs edge to edge so lines join and every braille dot shows; a
fallback font rarely does. So screenshots draw them as shapes instead: the SVG (rnntui/svg.py) as
path data, the PNG (rnntui/png.py) with Pillow. Outlines are clockwise, so overlapping parts add up.
"""
from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

# A shape is one of ("rect", x, y, w, h), ("poly", points) or ("dot", cx, cy, r); `path_data` writes
# them as SVG path data, png.py's drawer draws them with Pillow.
Shape = tuple


def _r(x: float, y: float, w: float, h: float) -> Shape:
    return ("rect", x, y, max(w, 0), max(h, 0))


def _poly(points: list[tuple[float, float]]) -> Shape:
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1]))
    return ("poly", tuple(points[::-1] if area < 0 else points))


def _dot(cx: float, cy: float, r: float) -> Shape:
    return ("dot", cx, cy, r)


def path_data(shapes) -> str:
    """SVG path data for shapes, every outline clockwise."""
    return "".join(map(_path, shapes))


@lru_cache(maxsize=1 << 16)  # an export's frames draw the same borders in the same places
def _path(s: Shape) -> str:
    if s[0] == "rect":
        _, x, y, w, h = s
        return f"M{x:.2f} {y:.2f}h{w:.2f}v{h:.2f}h{-w:.2f}z"
    if s[0] == "poly":
        return "M" + "L".join(f"{px:.2f} {py:.2f}" for px, py in s[1]) + "z"
    _, cx, cy, r = s
    return (f"M{cx - r:.2f} {cy:.2f}a{r:.2f} {r:.2f} 0 1 1 {2 * r:.2f} 0"
            f"a{r:.2f} {r:.2f} 0 1 1 {-2 * r:.2f} 0z")


def is_shape(ch: str) -> bool:
    """Drawn as shapes, not by the font: box drawing, blocks, braille (but the empty braille cell)."""
    return 0x2500 <= ord(ch) <= 0x259F or is_braille(ch)


def is_braille(ch: str) -> bool:
    """A braille character with at least one dot (a plot's curves)."""
    return 0x2800 < ord(ch) <= 0x28FF


@lru_cache(maxsize=1 << 16)  # an export's frames draw the same borders in the same cells
def cell_shapes(ch: str, x: float, y: float, w: float, h: float) -> tuple[Shape, ...]:
    """The shapes of a box-drawing, block or braille character in the cell (x, y, w, h); () else."""
    cp = ord(ch)
    if 0x2800 < cp <= 0x28FF:
        return tuple(_braille(cp - 0x2800, x, y, w, h))
    if 0x2580 <= cp <= 0x259F:
        return tuple(_r(x + a * w, y + b * h, c * w, d * h) for a, b, c, d in _BLOCKS.get(cp, ()))
    if 0x2500 <= cp <= 0x257F:
        return tuple(_box(ch, x, y, w, h))
    return ()


def _braille(bits: int, x: float, y: float, w: float, h: float) -> list[Shape]:
    # dots 1-2-3-7 down the left column, 4-5-6-8 down the right (Unicode's braille order)
    r = min(w / 2, h / 4) * 0.5  # touching the next: a curve is a line, not beads (0.36, a lecturer's trial)
    return [_dot(x + (c + 0.5) * w / 2, y + (k + 0.5) * h / 4, r)
            for bit, (c, k) in enumerate(_ORDER) if bits >> bit & 1]


_ORDER = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))


def braille_dots(ch: str, col: int, row: int):
    """The dots of a braille character in cell (col, row), as (x, y) on the screen's dot grid (2 by 4 a cell)."""
    bits = ord(ch) - 0x2800
    return [(2 * col + c, 4 * row + k) for bit, (c, k) in enumerate(_ORDER) if bits >> bit & 1]


def links(dots: dict, x0: float, y0: float, w: float, h: float) -> dict:
    """Bars joining neighbouring braille dots of one colour (`dots`: (x, y) on the dot grid → colour),
    cells w by h from (x0, y0), by colour: a curve reads as a line and a dotted one as dots, as the
    legend's ━━ and ┈┈ promise (each was a chain of beads, a lecturer's and a newcomer's trials). A
    diagonal where a square corner already joins them is left out (it thickened every step)."""
    r = min(w / 2, h / 4) * 0.5 * 0.8
    out: dict = {}
    for (x, y), key in dots.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            if dots.get((x + dx, y + dy)) != key:
                continue
            if dx and dy and key in (dots.get((x + dx, y)), dots.get((x, y + dy))):
                continue
            ax, ay = x0 + (x + 0.5) * w / 2, y0 + (y + 0.5) * h / 4
            bx, by = ax + dx * w / 2, ay + dy * h / 4
            n = math.hypot(bx - ax, by - ay)
            nx, ny = -(by - ay) / n * r, (bx - ax) / n * r
            out.setdefault(key, []).append(_poly([(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny),
                                                  (ax - nx, ay - ny)]))
    return out


# block elements as (x, y, w, h) fractions of the cell; shades are drawn as partial fills
_BLOCKS: dict[int, tuple] = {0x2580: ((0, 0, 1, .5),), 0x2588: ((0, 0, 1, 1),), 0x2590: ((.5, 0, .5, 1),),
                             0x2594: ((0, 0, 1, 1 / 8),), 0x2595: ((7 / 8, 0, 1 / 8, 1),)}
_BLOCKS.update({cp: ((0, 1 - (cp - 0x2580) / 8, 1, (cp - 0x2580) / 8),) for cp in range(0x2581, 0x2588)})
_BLOCKS.update({cp: ((0, 0, (0x2590 - cp) / 8, 1),) for cp in range(0x2589, 0x2590)})
_Q = {"ul": (0, 0, .5, .5), "ur": (.5, 0, .5, .5), "ll": (0, .5, .5, .5), "lr": (.5, .5, .5, .5)}
for _cp, _parts in zip(range(0x2596, 0x25A0), ("ll", "lr", "ul", "ul ll lr", "ul lr", "ul ur ll", "ul ur lr",
                                                 "ur", "ur ll", "ur ll lr")):
    _BLOCKS[_cp] = tuple(_Q[p] for p in _parts.split())
# shades fill the cell with their colour at a quarter, half or three quarters of its strength: drawn as a
# grid of dots they read as stipple in a PNG, and attention/positions' four levels could not be told apart
# on a projector (a lecturer's trial)
SHADES = {0x2591: 0.25, 0x2592: 0.5, 0x2593: 0.75}
_BLOCKS.update({cp: ((0, 0, 1, 1),) for cp in SHADES})


def shade(ch: str) -> float | None:
    """How much of its colour a shade character (░ ▒ ▓) lays over the background; None for others."""
    return SHADES.get(ord(ch)) if len(ch) == 1 else None

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


def _box(ch: str, x: float, y: float, w: float, h: float) -> list[Shape]:
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
        return out
    if kind == "arc":  # a quarter ring of radius half a cell, then straight on to the far edge
        r = w / 2
        sx, sy = (1 if "r" in arms else -1), (1 if "d" in arms else -1)
        ox, oy = cx + sx * r, cy + sy * r  # the ring's centre
        ring = [(ox - sx * rad * math.cos(a), oy - sy * rad * math.sin(a))
                for rad, angles in ((r + t / 2, range(0, 13)), (r - t / 2, range(12, -1, -1)))
                for a in (k * math.pi / 24 for k in angles)]
        edge = y + h + SEAM if sy > 0 else y - SEAM
        return [_poly(ring), _span(False, oy, edge, cx, t)]
    if kind.startswith("dash"):
        n, tw = int(kind[4:]), thick[next(iter(arms.values()))]
        if "l" in arms:
            seg = w / n
            return [_r(x + i * seg + seg * 0.15, cy - tw / 2, seg * 0.7, tw) for i in range(n)]
        seg = h / n
        return [_r(cx - tw / 2, y + i * seg + seg * 0.15, tw, seg * 0.7) for i in range(n)]

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
    return out


def _span(horizontal: bool, a: float, b: float, across: float, thickness: float) -> Shape:
    lo, hi = min(a, b), max(a, b)
    if horizontal:
        return _r(lo, across - thickness / 2, hi - lo, thickness)
    return _r(across - thickness / 2, lo, thickness, hi - lo)
