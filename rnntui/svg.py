"""Self-contained SVG screenshots that look the same anywhere, offline.

Textual's screenshots are SVG (Rich's `export_svg`): one `<text>` per styled run, in "Fira Code" loaded
from a CDN. Offline, or in a program that ignores web fonts, another face is used whose glyph widths
drift off the cell grid, whose box-drawing lines do not meet, and which may have no braille.
`screen_svg` draws the screen the way a terminal does, on Rich's page:

- text uses DejaVu Sans Mono (shipped in rnntui/fonts), a subset with only the glyphs used embedded
  as a data: URL, sized so one glyph advance is one cell; Chinese comes from a CJK font
  (rnntui/glyphs.py: the shipped WenQuanYi Micro Hei subset, or an installed one), again only the
  glyphs used, each centred on its two cells; every word and every non-ASCII character is
  placed at its own column, so a fallback font (Inkscape and LibreOffice use installed fonts only)
  cannot push anything off its cell;
- box drawing, block elements and braille are shapes filling their cells (rnntui/shapes.py), so
  borders join and plots show every dot whatever the font has;
- the window frame takes the screen's own background, with no dark chrome or window buttons around a
  white slide.

ctrl+s makes its SVG here too (rnntui/shots.py), in a thread.
"""
from __future__ import annotations

import base64
import html
import io
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from rich.cells import cell_len, get_character_cell_size

from rnntui.glyphs import CJK_OWN, COMMON, DEJAVU, FontFile, check, cjk_files, drawn, font_for, source
from rnntui.shapes import braille_dots, cell_shapes, is_braille, is_shape, links, path_data, shade

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = DEJAVU
FONT = "DejaVu Sans Mono"
EMBEDDED = "rnntui mono"  # the embedded subset's family: a different name, so it never shadows an installed font
EMBEDDED_CJK = "rnntui cjk"  # the CJK subsets' families: "rnntui cjk 1", "rnntui cjk 2", … (one per font file)
ADVANCE_EM = 1233 / 2048  # DejaVu Sans Mono's advance width, in em
CHAR_EM = 0.61  # Rich's cell width, in em of its 20 px font

_WORD = re.compile(r"\S+")


class Cell:
    def __init__(self, w: float, h: float, baseline: float) -> None:
        self.w, self.h, self.baseline = w, h, baseline


CELL = Cell(20 * CHAR_EM, 20 * 1.22, 20)  # Rich's 20 px font: its cell and line height
CLASS = "<\0>"  # where a run's class goes in its kept text (escaped text never holds a "<")


# The characters most frames draw (glyphs.COMMON) are embedded from subsets shipped in rnntui/fonts
# (tools/common_faces.py), the same for every frame: making them took ~0.15 s a process (fontTools'
# import and two subsets). A frame's other characters come in a second, small face ("rnntui mono
# extra"). Lines, blocks and braille are shapes and need no glyph.
EXTRA = f"{EMBEDDED} extra"


def _fonts(used: dict[int, set[str]]) -> tuple[str, str]:
    """The font-family list and the @font-face rules for the characters used at each weight."""
    chars, files = used[400] | used[700], cjk_files()
    check(chars, files)
    cjk: dict[FontFile, set[str]] = {}
    for ch in chars:
        face = font_for(ch, files) if ord(ch) > 127 and drawn(ch) else None
        if face is not None and face.cjk:
            cjk.setdefault(face, set()).add(ch)
    names = {face: f"{EMBEDDED_CJK} {n}" for n, face in enumerate(sorted(cjk, key=lambda f: f.path), 1)}
    wide = set().union(*cjk.values())
    extra = {weight: "".join(sorted(ch for ch in found if drawn(ch) and ch not in COMMON and ch not in wide))
             for weight, found in used.items()}
    families = [EMBEDDED, *([EXTRA] if any(extra.values()) else []), *names.values()]
    family = ", ".join([*(f"'{name}'" for name in families), f"'{FONT}'", "monospace"])
    faces = "".join(font_face(EMBEDDED, weight, COMMON) for weight, found in used.items() if found)
    faces += "".join(font_face(EXTRA, weight, text) for weight, text in extra.items() if text)
    faces += "".join(cjk_face(names[face], face, "".join(cjk[face])) for face in names)
    return family, faces


def screen_segments(app, notices: bool = True) -> list:
    """The app's screen as Rich segments, line by line: what Textual's export_screenshot records in a
    Console, taken from the compositor's full frame directly; without the notices over it when
    `notices` is false (the widgets drawn are the compositor's, less the toasts', for this one frame)."""
    from rich.segment import Segment
    from textual.widgets._toast import ToastRack

    compositor = app.screen._compositor
    racks = set(app.screen.query(ToastRack))
    if notices or not racks:
        update = compositor.render_update(full=True, screen_stack=app._background_screens)
    else:
        drawn, cuts = compositor.visible_widgets, compositor._cuts
        compositor._visible_widgets = {widget: where for widget, where in drawn.items()
                                       if widget not in racks and not racks & set(widget.ancestors)}
        compositor._cuts = None
        try:
            update = compositor.render_update(full=True, screen_stack=app._background_screens)
        finally:
            compositor._visible_widgets, compositor._cuts = drawn, cuts
    out, new_line = [], Segment.line()
    for line in update.strips:
        for strip in line:
            out.extend(strip)
        out.append(new_line)
    if app.current_theme.ansi:  # the terminal's own colours, which a file has not: Textual's for them (ansi-dark's
        # slides had text and page both #c5c8c6, a lecturer's trial)
        from textual.color import Color
        from textual.filter import ANSIToTruecolor

        out = ANSIToTruecolor(app.ansi_theme).apply(out, Color(*app.ansi_theme.background_color))
    return out[:-1]  # as recorded: no newline after the last line


def screen_svg(segments, width: int, title: str, unique_id: str = "rnntui") -> str:
    """The screen, as recorded segments (`screen_segments`, or a recording Console's buffer), as a
    self-contained SVG. The page is Rich's (`Console.export_svg`): its classes, backgrounds and clip
    paths, numbered and written as Rich writes them. The text is ours: each run on its cells (`_place`),
    in the embedded fonts, written once (not Rich's <text> per run, parsed and written again).
    BadValue (one line: what to install) when a character has no font here."""
    from rich.segment import Segment

    cell = CELL
    classes: dict[str, int] = {}
    backgrounds, texts, shapes, dots = [], [], {}, {}
    area: Counter = Counter()
    used = {400: set(), 700: set()}
    y = 0
    for y, line in enumerate(Segment.split_and_crop_lines(Segment.filter_control(segments), length=width)):
        x = 0
        for text, style, _ in line:
            css, n, rect, parts, bold, fill, cut = _run(text, style, x, y, unique_id)
            cls = f"{unique_id}-r{classes.setdefault(css, len(classes) + 1)}"  # numbered as Rich numbers them
            if rect:
                backgrounds.append(rect[0])
                area[rect[1]] += rect[2]
            if parts:
                used[700 if bold else 400].update(text)
                texts.append(cls.join(parts))
                for key, path in cut or ():  # (its fill's path, and a shade's at its opacity)
                    shapes.setdefault(key, []).append(path)
                if cut and BRAILLE.search(text):
                    _braille_dots(text, x, y, fill, dots)
            x += n
    for key, bars in links(dots, 0, 1.5, cell.w, cell.h).items():
        shapes.setdefault(key, []).append(path_data(bars))
    family, faces = _fonts(used)
    background = area.most_common(1)[0][0] if area else "#000000"
    return _page(width, y, cell, title, unique_id, classes, family, faces, background,
                 "".join(backgrounds), "".join(texts) + "\n    " + _paths(shapes))


BRAILLE = re.compile("[\u2801-\u28ff]")  # (a run's test: one search, not a call a character)


def _braille_dots(text: str, x: int, y: int, fill: str, dots: dict) -> None:
    for ch in text:
        if is_braille(ch):
            dots.update(dict.fromkeys(braille_dots(ch, x, y), fill))
        x += get_character_cell_size(ch)


@lru_cache(maxsize=8192)
def _run(text: str, style, x: int, y: int, unique_id: str) -> tuple:
    """A run's share of the page at column x of line y: its CSS rule, cells, background rect (with
    its colour and area), its text as pieces to join with its class (numbered per page), boldness,
    fill and shapes. A run at the same place in the next frame is taken from here (most are: ~80% of
    a lecture's runs; writing them again was most of an SVG's time)."""
    cell = CELL
    css, fill, bold, background = _look(style)
    n = cell_len(text)
    top, baseline = f"{y * cell.h + 1.5:g}", float(f"{y * cell.h + 20:g}")
    rect = parts = cut = None
    if background is not None:
        w, height = f"{cell.w * n:g}", f"{cell.h + 0.25:g}"
        rect = (f'<rect fill="{background}" x="{x * cell.w:g}" y="{top}" width="{w}" height="{height}" '
                f'shape-rendering="crispEdges"/>', background.lower(), float(w) * float(height))
    if text != " " * len(text):
        shapes: dict[str, list] = {}
        placed = _place(text, float(f"{x * cell.w:g}"), baseline, CLASS, f"url(#{unique_id}-line-{y})", cell,
                        fill, shapes)
        parts, cut = tuple(placed.split(CLASS)), tuple((key, path_data(v)) for key, v in shapes.items()) or None
    return css, n, rect, parts, bold, fill, cut


@lru_cache(maxsize=4096)
def _look(style) -> tuple[str, str, bool, str | None]:
    """A run's CSS rule, fill, boldness and background (None: the terminal's own), as Rich's
    export_svg works them out (the same for every frame: kept)."""
    from rich.color import blend_rgb
    from rich.style import Style
    from rich.terminal_theme import SVG_EXPORT_THEME as theme

    style = style or Style()
    color = theme.foreground_color if style.color is None or style.color.is_default else style.color.get_truecolor(theme)
    bgcolor = (theme.background_color if style.bgcolor is None or style.bgcolor.is_default
               else style.bgcolor.get_truecolor(theme))
    if style.reverse:
        color, bgcolor = bgcolor, color
    if style.dim:
        color = blend_rgb(color, bgcolor, 0.4)
    rules = [f"fill: {color.hex}"]
    if style.bold:
        rules.append("font-weight: bold")
    if style.italic:
        rules.append("font-style: italic;")
    if style.underline:
        rules.append("text-decoration: underline;")
    if style.strike:
        rules.append("text-decoration: line-through;")
    if style.reverse:
        background = (theme.foreground_color if style.color is None else style.color.get_truecolor(theme)).hex
    elif style.bgcolor is not None and not style.bgcolor.is_default:
        background = style.bgcolor.get_truecolor(theme).hex
    else:
        background = None
    return ";".join(rules), color.hex, bool(style.bold), background


def _page(width: int, y: int, cell: Cell, title: str, unique_id: str, classes: dict[str, int], family: str,
          faces: str, background: str, backgrounds: str, matrix: str) -> str:
    """Rich's page (rich._export_format) as Rich fills it in, with our fonts and sizes, and the window in
    the screen's own background with a hairline edge and a quiet title, no buttons."""
    from math import ceil

    width_px = ceil(width * cell.w + 16)
    height_px = (y + 1) * cell.h + 48
    lines = "\n".join(
        f"""<clipPath id="{unique_id}-line-{n}">
    <rect x="0" y="{n * cell.h + 1.5:g}" width="{cell.w * width:g}" height="{cell.h + 0.25:g}"/>
            </clipPath>""" for n in range(y + 1))  # (Rich leaves out the last line's, which its text names, and
    # its terminal clip ends a pixel above the last row's foot: a browser drew the slides' last row "W h 1.40")
    edge, ink = ("#c8c8c8", "#555555") if luminance(background) > 0.5 else ("#4a4a4a", "#a0a0a0")
    chrome = (f'<rect fill="{background}" stroke="{edge}" stroke-width="1" x="1" y="1" width="{width_px}" '
              f'height="{height_px:g}" rx="8"/>')
    if title:
        chrome += (f'<text class="{unique_id}-title" fill="{ink}" text-anchor="middle" x="{width_px // 2}" '
                   f'y="27">{html.escape(title).replace(" ", "&#160;")}</text>')
    styles = "\n".join(f".{unique_id}-r{n} {{ {css} }}" for css, n in classes.items())
    return f"""<svg class="rich-terminal" viewBox="0 0 {width_px + 2} {height_px + 2}" xmlns="http://www.w3.org/2000/svg">
    <!-- Generated with Rich -->
    <style>
{faces}

    .{unique_id}-matrix {{
        font-family: {family}; font-size: {cell.w / ADVANCE_EM:.3f}px; line-height: {cell.h}px;
    }}

    .{unique_id}-title {{ font-size: 18px; font-family: {family}; }}

    {styles}
    </style>

    <defs>
    <clipPath id="{unique_id}-clip-terminal">
      <rect x="0" y="0" width="{cell.w * width - 1}" height="{(y + 1) * cell.h + 2:g}" />
    </clipPath>
    {lines}
    </defs>

    {chrome}
        
    <g transform="translate(9, 41)" clip-path="url(#{unique_id}-clip-terminal)">
    {backgrounds}
    <g class="{unique_id}-matrix">
    {matrix}</g>
    </g>
</svg>
"""


def font_face(family: str, weight: int, chars: str) -> str:
    """An @font-face rule with a subset of the shipped font holding `chars`."""
    data = _common_face(weight) if chars == COMMON else _subset_file(str(FONT_FILES[weight]), 0, chars)
    return (f'    @font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: normal; '
            f'src: url(data:font/ttf;base64,{data}) format("truetype"); }}\n')


def cjk_face(family: str, face: FontFile, text: str) -> str:
    """An @font-face rule with the CJK characters of `text` from one CJK font (any weight: a viewer
    makes its own bold)."""
    chars = "".join(sorted(set(text)))
    cut = source(face, chars)
    data = _subset_file(cut.path, cut.number, chars)
    return (f'    @font-face {{ font-family: "{family}"; font-style: normal; '
            f'src: url(data:font/ttf;base64,{data}) format("truetype"); }}\n')


def common_path(weight: int) -> Path:
    """The shipped subset of DejaVu Sans Mono at `weight` holding glyphs.COMMON."""
    return FONT_FILES[weight].with_name(FONT_FILES[weight].stem + "-common.ttf")


@lru_cache(maxsize=2)
def _common_face(weight: int) -> str:
    return base64.b64encode(common_path(weight).read_bytes()).decode("ascii")


@lru_cache(maxsize=64)
def _subset_file(path: str, number: int, chars: str) -> str:
    # From the cut of rnntui's own Chinese (hints gone, glyph bounds worked out, and the whole shipped
    # font's maxima in head, hhea, vhea and maxp: tools/common_faces.py) the glyphs are kept as they are
    # and those maxima too, true of every subset and the same whatever the cut holds: ~2x sooner
    return base64.b64encode(subset_bytes(path, number, chars, recalc=Path(path) != CJK_OWN)).decode("ascii")


def subset_bytes(path: str, number: int, chars: str, recalc: bool = True) -> bytes:
    """A font file holding only `chars` of face `number` of the font at `path`, without hints; `recalc`:
    its bounds and maxima worked out for those glyphs (else kept as the font at `path` has them)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    # the shipped font's dates, not today's: the same screen gives the same file (slides in git)
    font = TTFont(io.BytesIO(_file_bytes(path)), lazy=True, fontNumber=number, recalcTimestamp=False,
                  recalcBBoxes=recalc)
    options = subset.Options()
    options.hinting = False  # the hints are for screens at small sizes; most of a font's bytes
    options.layout_features = []
    options.drop_tables += ["FFTM", "kern", "GPOS", "GSUB", "GDEF"]  # one advance for all: no kerning
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence notices
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars or "?")
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@lru_cache(maxsize=4)
def _file_bytes(path: str) -> bytes:
    return Path(path).read_bytes()


# -- the SVG, redrawn like a terminal ----------------------------------------------------------
def _paths(shapes: dict[str, list[str]]) -> str:
    # all shapes of one colour in one path (their path data, run by run): where cells meet,
    # antialiasing sees one outline, no seam; a shade's colour carries its fill-opacity
    return "".join(f'<path fill="{fill}" d="{"".join(parts)}"/>' for fill, parts in shapes.items())


def luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _place(text: str, x0: float, baseline: float, cls: str, clip: str, cell: Cell, fill: str,
           shapes: dict[str, list]) -> str:
    """One styled run redrawn on its cells: words at their columns, lines and dots as shapes (kept in
    `shapes` by fill, drawn after all text), one non-ASCII character per cell."""
    top = baseline - cell.baseline + 1.5  # Rich: cell top at y·line_height + 1.5
    out, col, word, word_col = [], 0, "", 0

    def flush() -> None:
        nonlocal word
        if word:
            # textLength holds a fallback font's run to its cells too (it changes nothing in ours)
            length = f' textLength="{len(word) * cell.w:.2f}"' if len(word) > 1 else ""
            out.append(f'<text class="{cls}" x="{x0 + word_col * cell.w:.2f}" y="{baseline:g}"{length} '
                       f'clip-path="{clip}">{html.escape(word, quote=False)}</text>')
            word = ""

    if text.isascii() and text.isprintable():  # most runs: words at their columns, a character a cell
        for m in _WORD.finditer(text):
            word, word_col = m.group(), m.start()
            flush()
        return "".join(out)
    for ch in text:
        x = x0 + col * cell.w
        if ch.isspace() or ch == "\u2800":  # spaces, no-break spaces, newlines, empty braille
            flush()
        elif is_shape(ch):
            flush()
            key = fill if (strength := shade(ch)) is None else f'{fill}" fill-opacity="{strength:g}'
            shapes.setdefault(key, []).extend(cell_shapes(ch, x, top, cell.w, cell.h))
        elif ch.isascii():
            if not word:
                word_col = col
            word += ch
        else:  # one character, one cell: a fallback glyph's width cannot push its neighbours
            flush()
            word, word_col = ch, col
            wide = get_character_cell_size(ch) == 2
            if wide:  # a CJK glyph (1 em) centred on its two cells
                x0 += (2 * cell.w - cell.w / ADVANCE_EM) / 2
            flush()
            if wide:
                x0 -= (2 * cell.w - cell.w / ADVANCE_EM) / 2
        col += get_character_cell_size(ch)
    flush()
    return "".join(out)
