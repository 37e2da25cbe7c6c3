"""PNG screenshots that look like the terminal, drawn with Pillow and the shipped font.

No SVG converter and no installed font: the screen's cells (Rich segments, as a screenshot records
them) are drawn straight onto an image, on the same geometry as the SVG screenshot (`scale` pixels per
SVG unit):

- every glyph in DejaVu Sans Mono (rnntui/fonts), sized so one advance is one cell, placed on its
  own cell, so nothing drifts; Chinese (two cells) from a CJK font at the same size, centred on its
  two cells (rnntui/glyphs.py picks the font; a character no font has stops with one line, no boxes);
- box drawing (U+2500–257F), block elements (U+2580–259F) and braille (U+2800–28FF) as shapes
  filling their cells (rnntui/shapes.py), so borders join and plots show every dot;
- colours resolved as Rich's SVG export resolves them (reverse, dim), so PNG and SVG agree;
- the window in the screen's own background with a hairline edge and a quiet title: no dark chrome
  around a white projector slide.
"""
from __future__ import annotations

import math
import struct
import threading
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from rich.cells import get_character_cell_size
from rich.color import blend_rgb
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import SVG_EXPORT_THEME

from rnntui.shapes import braille_dots, cell_shapes, is_braille, is_shape, links, shade
from rnntui.state import BadValue
from rnntui.glyphs import DEJAVU, REGULAR, FontFile, check, font_for
from rnntui.svg import ADVANCE_EM, CHAR_EM, luminance

INSTALL = "PNG output needs Pillow: pip install 'pillow>=10.1'"

# Rich's SVG geometry (Console.export_svg), in SVG units: the PNG is the same picture, `scale` × larger
CHAR_HEIGHT = 20.0
CELL_W, CELL_H = CHAR_HEIGHT * CHAR_EM, CHAR_HEIGHT * 1.22
ORIGIN_X, ORIGIN_Y = 9.0, 41.0  # margin 1 + padding 8 / 40
ROW_TOP = 1.5  # a row's cells start 1.5 below line · line_height


def check_route() -> None:
    """Raise BadValue (one line: what to install) when PNG output cannot be drawn here."""
    try:
        import PIL
    except ImportError:
        raise BadValue(INSTALL) from None
    if tuple(int(p) for p in PIL.__version__.split(".")[:2]) < (10, 1):
        raise BadValue(INSTALL)


# Pillow's limit for opening an image (Image.MAX_IMAGE_PIXELS): image viewers built on it refuse more,
# and --size 500x200 at --scale 2 made a 12236×9860 PNG (121 Mpx) that one did (a newcomer's trial)
MOST_PIXELS = 89_478_485


def image_size(columns: int, rows: int, scale: float) -> tuple[int, int]:
    """The PNG's pixels for a screen of columns × rows cells (the SVG's geometry, `scale` × larger)."""
    width_u = math.ceil(columns * CELL_W + 16) + 2
    height_u = rows * CELL_H + 48 + 2
    return round(width_u * scale), round(height_u * scale)


def check_pixels(size: tuple[int, int], scale: float) -> None:
    """Raise BadValue (one line) for a PNG of more than MOST_PIXELS, naming the largest --scale that fits."""
    from rnntui.i18n import _

    w, h = image_size(*size, scale)
    if w * h <= MOST_PIXELS:
        return
    # the largest to two decimals (quarters said 1.5 where 1.72 fits, a CLI trial), from the units' ratio down
    fits = math.floor(scale * math.sqrt(MOST_PIXELS / (w * h)) * 100 + 1) / 100
    while fits > 0.01 and math.prod(image_size(*size, fits)) > MOST_PIXELS:
        fits = round(fits - 0.01, 2)
    raise BadValue(_("--size {cols}x{rows} at --scale {scale} makes a {w}×{h} PNG ({mpx} Mpx), more than image "
                     "viewers open (89 Mpx): use --scale {fits} or a smaller --size").format(
        cols=size[0], rows=size[1], scale=f"{scale:g}", w=w, h=h, mpx=round(w * h / 1e6), fits=f"{fits:g}"))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# -- the cell grid ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Look:
    fg: tuple[int, int, int]
    bg: tuple[int, int, int] | None  # None: the terminal's default background, not painted
    bold: bool = False
    underline: bool = False
    strike: bool = False


@dataclass
class Grid:
    """A screen as rows of (character, look) cells; a wide character's second cell is ("", look)."""
    rows: list[list[tuple[str, Look]]]
    width: int
    title: str = ""

    def background(self) -> tuple[int, int, int]:
        """The colour covering most of the screen."""
        seen = Counter(look.bg for row in self.rows for _, look in row if look.bg is not None)
        return seen.most_common(1)[0][0] if seen else tuple(SVG_EXPORT_THEME.background_color)


@lru_cache(maxsize=1024)
def look_of(style: Style | None) -> Look:
    """Rich's SVG export's colours for a style: default colours from its theme, reverse, dim."""
    theme = SVG_EXPORT_THEME
    style = style or Style()
    fg = theme.foreground_color if style.color is None or style.color.is_default else style.color.get_truecolor(theme)
    plain_bg = style.bgcolor is None or style.bgcolor.is_default
    bg = theme.background_color if plain_bg else style.bgcolor.get_truecolor(theme)
    painted = not plain_bg
    if style.reverse:
        fg, bg, painted = bg, fg, True
    if style.dim:
        fg = blend_rgb(fg, bg, 0.4)
    return Look(tuple(fg), tuple(bg) if painted else None, bool(style.bold), bool(style.underline),
                bool(style.strike))


def grid_from_segments(segments, width: int, title: str = "") -> Grid:
    """The cells of recorded segments (a recording Console's buffer), cropped to `width`."""
    rows = []
    for line in Segment.split_and_crop_lines(Segment.filter_control(segments), length=width, include_new_lines=False):
        row = []
        for text, style, _ in line:
            look = look_of(style)
            for ch in text:
                row.append((ch, look))
                if get_character_cell_size(ch) == 2:
                    row.append(("", look))
        rows.append(row)
    return Grid(rows, width, title)


# -- drawing ----------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _font(bold: bool, size: float, face: FontFile | None = None):
    from PIL import ImageFont

    if face is not None and face.cjk:
        return ImageFont.truetype(face.path, size, index=face.number)
    return ImageFont.truetype(str(DEJAVU[700 if bold else 400]), size)


# FreeType faces are not for two threads at once (`rnntui export` draws PNGs in two): glyphs are
# rendered once each (kept), one thread at a time
_FREETYPE = threading.Lock()


@lru_cache(maxsize=8192)
def _glyph(ch: str, bold: bool, size: float, cell_w: float = 0.0):
    """(mask, dx, dy): the glyph's coverage, and where its top left sits from the pen (x, baseline).
    A CJK font's glyph is centred on its cells (`cell_w` wide each); its bold is copies side by side."""
    from PIL import Image, ImageDraw

    face = font_for(ch) or REGULAR  # no font has it: DejaVu's .notdef (draw() refuses such a grid first)
    # bold: copies a pixel or more to the right; a stroke round it filled 每 and 翻 in (at --scale 1, a lecturer's
    # trial; to 34 px and from 42, a review), a copy keeps their gaps
    smear = max(1, round(size / 20)) if bold and face.cjk else 0
    with _FREETYPE:
        font = _font(bold, size, face if face.cjk else None)
        left, top, right, bottom = font.getbbox(ch, anchor="ls")
        if right <= left or bottom <= top:
            return None
        mask = Image.new("L", (right - left + smear, bottom - top), 0)
        for dx in range(smear + 1):
            ImageDraw.Draw(mask).text((dx - left, -top), ch, fill=255, font=font, anchor="ls")
        shift = round((get_character_cell_size(ch) * cell_w - font.getlength(ch)) / 2) if face.cjk and cell_w else 0
    return mask, left + shift, top


def draw(grid: Grid, scale: float = 2.0) -> bytes:
    """The grid as PNG bytes: the SVG screenshot's picture, `scale` pixels per SVG unit."""
    check_route()
    check(ch for row in grid.rows for ch, _ in row)
    from PIL import Image, ImageDraw

    s = scale
    cw, ch = CELL_W * s, CELL_H * s
    size = image_size(grid.width, len(grid.rows), s)
    background = grid.background()
    light = luminance("#%02x%02x%02x" % background) > 0.5
    edge, title_colour = ((200, 200, 200), (85, 85, 85)) if light else ((74, 74, 74), (160, 160, 160))
    image = Image.new("RGB", size, background)
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle([round(s), round(s), size[0] - 1 - round(s), size[1] - 1 - round(s)],
                          radius=8 * s, outline=edge, width=max(1, round(s / 2)))
    if grid.title:
        with _FREETYPE:
            pen.text((size[0] / 2, (1 + CHAR_HEIGHT + 6) * s), grid.title, fill=title_colour,
                     font=_font(True, 18 * s), anchor="ms")

    ox, oy = ORIGIN_X * s, ORIGIN_Y * s
    xs = [round(ox + c * cw) for c in range(grid.width + 2)]
    dots = {}
    font_size = round(cw / ADVANCE_EM, 2)
    for r, row in enumerate(grid.rows):
        top, baseline = oy + r * ch + ROW_TOP * s, round(oy + r * ch + CHAR_HEIGHT * s)
        y0, y1 = round(top), round(top + ch)
        # backgrounds: runs of one colour
        c = 0
        while c < len(row):
            bg = row[c][1].bg
            end = c + 1
            while end < len(row) and row[end][1].bg == bg:
                end += 1
            if bg is not None and bg != background:
                pen.rectangle([xs[c], y0, xs[min(end, grid.width + 1)] - 1, y1 - 1], fill=bg)
            c = end
        for c, (char, look) in enumerate(row):
            if not char or char.isspace() or char == "\u2800":
                pass
            elif is_shape(char):
                if is_braille(char):
                    dots.update(dict.fromkeys(braille_dots(char, c, r), look.fg))
                strength = shade(char)  # (its colour over the cell's background, as the SVG's fill-opacity)
                fill = look.fg if strength is None else tuple(blend_rgb(look.bg or background, look.fg, strength))
                _shapes(pen, cell_shapes(char, ox + c * cw, top, cw, ch), fill)
            else:
                glyph = _glyph(char, look.bold, font_size, round(cw, 2))
                if glyph is not None:
                    mask, dx, dy = glyph
                    image.paste(look.fg, (xs[c] + dx, baseline + dy), mask)
            if (look.underline or look.strike) and char:  # across all its cells: a Chinese word's line ran
                thick, right = max(1, round(s)), xs[c + get_character_cell_size(char)]  # under every other cell
                for on, y in ((look.underline, baseline + 2 * s), (look.strike, baseline - 6 * s)):
                    if on:
                        pen.rectangle([xs[c], round(y), right - 1, round(y) + thick - 1], fill=look.fg)
    for fill, bars in links(dots, ox, oy + ROW_TOP * s, cw, ch).items():
        _shapes(pen, bars, fill)
    return encode(image)


def encode(image) -> bytes:
    """An RGB image as PNG bytes: rows unfiltered, deflated at zlib's fastest level. Pillow's encoder
    tries five filters on every row: two thirds of a frame's time, for a larger file (flat colours
    and repeated glyphs deflate well as they are)."""
    width, height = image.size
    raw, stride = image.tobytes(), 3 * width
    rows = b"".join(b"\0" + raw[y * stride:(y + 1) * stride] for y in range(height))  # filter 0: none
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),  # 8-bit RGB
                     _chunk(b"IDAT", zlib.compress(rows, 1)),  # zlib lets other threads run meanwhile
                     _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _shapes(pen, shapes, fill) -> None:
    for shape in shapes:
        kind = shape[0]
        if kind == "rect":
            _, x, y, w, h = shape
            x0, y0, x1, y1 = round(x), round(y), round(x + w), round(y + h)
            if x1 > x0 and y1 > y0:
                pen.rectangle([x0, y0, x1 - 1, y1 - 1], fill=fill)
        elif kind == "poly":
            pen.polygon([(px, py) for px, py in shape[1]], fill=fill)
        else:
            _, cx, cy, r = shape
            pen.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
