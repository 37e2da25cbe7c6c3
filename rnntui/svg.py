"""Self-contained SVG screenshots that look the same anywhere, offline.

Textual's screenshots are SVG (Rich's `export_svg`): one `<text>` per styled run, in "Fira Code" loaded
from a CDN. Offline, or in a program that ignores web fonts, another face is used whose glyph widths
drift off the cell grid, whose box-drawing lines do not meet, and which may have no braille.
`self_contained` redraws the screen the way a terminal does:

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

`save_shot` is what ctrl+s does in the app and in present mode: a file locally, a download in a browser.
"""
from __future__ import annotations

import base64
import html
import io
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from rich.cells import get_character_cell_size

from rnntui.glyphs import DEJAVU, FontFile, check, drawn, font_for
from rnntui.shapes import cell_shapes, is_shape, path_data

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = DEJAVU
FONT = "DejaVu Sans Mono"
EMBEDDED = "rnntui mono"  # the embedded subset's family: a different name, so it never shadows an installed font
EMBEDDED_CJK = "rnntui cjk"  # the CJK subsets' families: "rnntui cjk 1", "rnntui cjk 2", … (one per font file)
ADVANCE_EM = 1233 / 2048  # DejaVu Sans Mono's advance width, in em
CHAR_EM = 0.61  # Rich's cell width, in em of its 20 px font

_TEXT = re.compile(r"<text ([^>]*)>(.*?)</text>", re.S)
_WORD = re.compile(r"\S+")
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_RULE = re.compile(r"\.([\w-]+)\s*\{([^}]*)\}")
_MATRIX = re.compile(r"(\.[\w-]+-matrix\s*\{)([^}]*)(\})")
_TITLE = re.compile(r"(\.[\w-]+-title\s*\{)([^}]*)(\})")
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}\s*")
_CHROME = re.compile(r'<rect fill="(#[0-9a-fA-F]{6})" stroke="[^"]*" stroke-width="1" x="1" y="1" ([^>]*)rx="8"/>')
_BUTTONS = re.compile(r'\s*<g transform="translate\(26,22\)">\s*(<circle [^>]*/>\s*){3}</g>')
_BACKGROUND = re.compile(r'<rect fill="(#[0-9a-fA-F]{6})" x="[\d.]+" y="[\d.]+" width="([\d.]+)" '
                         r'height="([\d.]+)" shape-rendering="crispEdges"/>')
_TITLE_TEXT = re.compile(r'(<text class="[\w-]+-title" fill=")(#[0-9a-fA-F]{6})(")')


class Cell:
    def __init__(self, w: float, h: float, baseline: float) -> None:
        self.w, self.h, self.baseline = w, h, baseline


# The characters most frames draw, embedded from one subset made once per process: every frame of an
# export shares it (a subset per frame was most of an SVG's cost). A frame's other characters come in a
# second, small face ("rnntui mono extra"). Lines, blocks and braille are shapes and need no glyph.
COMMON = "".join(sorted(
    {chr(c) for c in range(0x21, 0x7F)}
    | {chr(c) for c in range(0x3B1, 0x3CA)}  # α … ω
    | set("ΓΔΘΛΠΣΦΨΩ§°±²³¹·×÷ĉŜŷᵀᵢₖⁿ⁰⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉⁺⁻₊₋–—‖‘’“”•…′←↑→↓↔⇥⏎∂∑∏∈−√∞≈≋≠≤≥⊙▲▸▼◂◆●○■□✂✓✗")))
EXTRA = f"{EMBEDDED} extra"


def self_contained(svg: str) -> str:
    """Rich's SVG screenshot redrawn on the cell grid, with its fonts embedded: no URL, no font needed.
    BadValue (one line: what to install) when a character has no font here."""
    if not _MATRIX.search(svg):
        return terminal_svg(svg)
    bold = {name for name, css in _RULE.findall(svg) if "bold" in css}
    used = {400: set(), 700: set()}
    for m in _TEXT.finditer(svg):
        attrs = dict(_ATTR.findall(m.group(1)))
        if "clip-path" in attrs:  # the terminal's text, not the window title
            used[700 if attrs.get("class", "") in bold else 400].update(html.unescape(m.group(2)))
    chars = used[400] | used[700]
    check(chars)
    cjk: dict[FontFile, set[str]] = {}
    for ch in chars:
        face = font_for(ch) if ord(ch) > 127 else None
        if face is not None and face.cjk:
            cjk.setdefault(face, set()).add(ch)
    names = {face: f"{EMBEDDED_CJK} {n}" for n, face in enumerate(sorted(cjk, key=lambda f: f.path), 1)}
    wide = set().union(*cjk.values())
    extra = {weight: "".join(sorted(ch for ch in found if drawn(ch) and ch not in COMMON and ch not in wide))
             for weight, found in used.items()}
    families = [EMBEDDED, *([EXTRA] if any(extra.values()) else []), *names.values()]
    family = ", ".join([*(f"'{name}'" for name in families), f"'{FONT}'", "monospace"])
    svg = terminal_svg(svg, family=family)
    faces = "".join(font_face(EMBEDDED, weight, COMMON) for weight, found in used.items() if found)
    faces += "".join(font_face(EXTRA, weight, text) for weight, text in extra.items() if text)
    faces += "".join(cjk_face(names[face], face, "".join(cjk[face])) for face in names)
    svg = svg.replace(" https://www.textualize.io", "", 1)  # Rich's comment: the file names no URL at all
    return svg.replace("<style>", "<style>\n" + faces, 1)


def font_face(family: str, weight: int, chars: str) -> str:
    """An @font-face rule with a subset of the shipped font holding `chars`."""
    data = _subset_file(str(FONT_FILES[weight]), 0, chars)
    return (f'    @font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: normal; '
            f'src: url(data:font/ttf;base64,{data}) format("truetype"); }}\n')


def cjk_face(family: str, face: FontFile, text: str) -> str:
    """An @font-face rule with the CJK characters of `text` from one CJK font (any weight: a viewer
    makes its own bold)."""
    data = _subset_file(face.path, face.number, "".join(sorted(set(text))))
    return (f'    @font-face {{ font-family: "{family}"; font-style: normal; '
            f'src: url(data:font/ttf;base64,{data}) format("truetype"); }}\n')


@lru_cache(maxsize=64)
def _subset_file(path: str, number: int, chars: str) -> str:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    # the shipped font's dates, not today's: the same screen gives the same file (slides in git)
    font = TTFont(io.BytesIO(_file_bytes(path)), lazy=True, fontNumber=number, recalcTimestamp=False)
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
    return base64.b64encode(out.getvalue()).decode("ascii")


@lru_cache(maxsize=4)
def _file_bytes(path: str) -> bytes:
    return Path(path).read_bytes()


# -- the SVG, redrawn like a terminal ----------------------------------------------------------
def terminal_svg(svg: str, family: str = f"'{FONT}', monospace") -> str:
    """Rich's SVG with a monospace font sized to the cell, every run on its cell, shapes for lines and dots."""
    match = _MATRIX.search(svg)
    if match is None:  # not a Rich screenshot: leave it alone
        return svg
    font_size = float(re.search(r"font-size:\s*([\d.]+)px", match.group(2)).group(1))
    line_height = float(re.search(r"line-height:\s*([\d.]+)px", match.group(2)).group(1))
    cell = Cell(font_size * CHAR_EM, line_height, font_size)
    matrix = f"font-family: {family}; font-size: {cell.w / ADVANCE_EM:.3f}px; line-height: {line_height}px;"
    svg = _FONT_FACE.sub("", svg)
    svg = _MATRIX.sub(lambda m: m.group(1) + "\n        " + matrix + "\n    " + m.group(3), svg, count=1)
    svg = _TITLE.sub(lambda m: m.group(1) + f" font-size: 18px; font-family: {family}; " + m.group(3), svg, count=1)
    svg = _frame(svg)
    fills = {name: _fill(css) for name, css in _RULE.findall(svg)}
    shapes: dict[str, list] = {}
    svg = _TEXT.sub(lambda m: _redraw(m, cell, fills, shapes), svg)
    # all shapes of one colour in one path: where cells meet, antialiasing sees one outline, no seam
    paths = "".join(f'<path fill="{fill}" d="{path_data(parts)}"/>' for fill, parts in shapes.items())
    end = svg.rfind("</g>", 0, svg.rfind("</g>"))  # the matrix group closes just before the outer one
    return svg[:end] + paths + svg[end:] if end >= 0 else svg


def screen_background(svg: str) -> str | None:
    """The colour covering most of the screen (Textual paints every cell's background)."""
    area: Counter = Counter()
    for fill, w, h in _BACKGROUND.findall(svg):
        area[fill.lower()] += float(w) * float(h)
    return area.most_common(1)[0][0] if area else None


def luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _frame(svg: str) -> str:
    """The window in the screen's own background, a hairline edge, a quiet title, no buttons."""
    background = screen_background(svg)
    if background is None:
        return svg
    light = luminance(background) > 0.5
    edge, title = ("#c8c8c8", "#555555") if light else ("#4a4a4a", "#a0a0a0")
    svg = _CHROME.sub(lambda m: f'<rect fill="{background}" stroke="{edge}" stroke-width="1" x="1" y="1" '
                                f'{m.group(2)}rx="8"/>', svg, count=1)
    svg = _TITLE_TEXT.sub(lambda m: m.group(1) + title + m.group(3), svg, count=1)
    return _BUTTONS.sub("", svg, count=1)


def _fill(css: str) -> str:
    found = re.search(r"fill:\s*(#[0-9a-fA-F]{3,8}|[a-z]+)", css)
    return found.group(1) if found else "#000000"


def _redraw(match: re.Match, cell: Cell, fills: dict[str, str], shapes: dict[str, list]) -> str:
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
            # textLength holds a fallback font's run to its cells too (it changes nothing in ours)
            length = f' textLength="{len(word) * cell.w:.2f}"' if len(word) > 1 else ""
            out.append(f'<text class="{cls}" x="{x0 + word_col * cell.w:.2f}" y="{baseline:g}"{length} '
                       f'clip-path="{attrs["clip-path"]}">{html.escape(word, quote=False)}</text>')
            word = ""

    plain = text.replace("\xa0", " ")  # Rich writes spaces as no-break spaces
    if plain.isascii() and plain.isprintable():  # most runs: words at their columns, a character a cell
        for m in _WORD.finditer(plain):
            word, word_col = m.group(), m.start()
            flush()
        return "".join(out)
    for ch in text:
        x = x0 + col * cell.w
        if ch.isspace() or ch == "\u2800":  # spaces, no-break spaces, newlines, empty braille
            flush()
        elif is_shape(ch):
            flush()
            shapes.setdefault(fills.get(cls, "#000000"), []).extend(cell_shapes(ch, x, top, cell.w, cell.h))
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


# -- ctrl+s ---------------------------------------------------------------------------------------
def save_shot(app, name: str, folder: Path, title: str | None = None) -> str | None:
    """Write the app's screen as a self-contained SVG into folder and return its path; in a browser
    (`rnntui serve`) hand it to the browser as a download instead and return None. BadValue when
    the file cannot be written."""
    from rnntui.files import write_atomic
    from rnntui.state import BadValue

    svg = self_contained(app.export_screenshot(title=title))
    if app.is_web:
        app.deliver_text(io.StringIO(svg), save_filename=name, open_method="download",
                         mime_type="image/svg+xml", name="screenshot")
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadValue(f"cannot write in {folder}: {e.strerror or e}") from None
    path = folder / name
    write_atomic(str(path), svg)
    return str(path)
