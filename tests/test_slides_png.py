"""Screenshots that open anywhere: self-contained SVG (embedded font subset, cells, shapes) and PNG
drawn with Pillow and the shipped font, no converter, no installed font, in every theme."""
import base64
import html
import io
import math
import os
import re
import sys

import pytest
from rich.console import Console

from rnntui import png, shapes, svg
from rnntui.cli import main
from fontcheck import drawn_alike

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402


def rich_svg(*lines: str, width: int = 40) -> str:
    """The lines, printed by Rich, as rnntui's SVG."""
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    for line in lines:
        console.print(line, highlight=False)
    return svg.screen_svg(console._record_buffer, width, "t")


def rich_grid(*lines: str, width: int = 40) -> png.Grid:
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    for line in lines:
        console.print(line, highlight=False)
    return png.grid_from_segments(console._record_buffer, width, "t")


def texts(doc: str) -> list[tuple[float, float, str]]:
    """(x, y, text) of every text element drawn in the terminal."""
    return [(float(x), float(y), html.unescape(t))
            for x, y, t in re.findall(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', doc)]


CELL = 20 * 0.61  # Rich's cell: 0.61 em of a 20 px font


# -- SVG ------------------------------------------------------------------------------------------
def test_text_sits_on_its_columns_in_the_shipped_monospace_font():
    doc = rich_svg("[b]Invariant:[/b] h_t is   a →b", "ab")
    assert "Fira Code" not in doc and "DejaVu Sans Mono" in doc
    placed = {t: round(x / CELL) for x, _, t in texts(doc)}
    # every word starts at its own column, so spaces between styled runs cannot collapse
    assert placed == {"Invariant:": 0, "h_t": 11, "is": 15, "a": 20, "→": 22, "b": 23, "ab": 0}
    size = float(re.search(r"-matrix \{[^}]*font-size: ([\d.]+)px", doc).group(1))
    assert size * svg.ADVANCE_EM == pytest.approx(CELL, abs=1e-3)  # one glyph advance = one cell


def test_the_page_is_richs():
    """Backgrounds, CSS classes and line clips come out as Rich's own export_svg writes them."""
    console = Console(record=True, width=30, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    for line in ("[b on #203040]bold[/] [reverse]rev[/] [dim #ff0000]dim[/] plain", "[i u]x[/] [on #aabbcc]  [/]", "┌─⣿"):
        console.print(line, highlight=False)
    ours = svg.screen_svg(list(console._record_buffer), 30, "t", unique_id="x")
    rich = console.export_svg(title="t", unique_id="x")
    for pattern in (r'<rect fill="[^"]*" x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" shape-rendering="crispEdges"/>',
                    r"\.x-r\d+ \{[^}]*\}"):
        assert re.findall(pattern, ours) == re.findall(pattern, rich) != []
    clips = r'<clipPath id="x-line-(\d+)">\s*<rect [^>]*/>'  # Rich's, and the last line's, which it leaves out
    assert re.findall(clips, ours)[:-1] == re.findall(clips, rich) != [] and re.findall(clips, ours)[-1] == "2"
    assert len(re.findall(r'x-r\d+ \{', ours)) >= 5  # bold, reverse, dim, italic+underline, plain


def test_a_run_kept_from_another_page_takes_this_pages_class():
    """Runs are kept from page to page (an export's frames share most of theirs); the CSS classes are
    numbered per page, as Rich numbers them: the same italic run at the same place is class 3 on one
    page and class 1 on the next, and the next page is the one a fresh process writes."""
    first = rich_svg("[b]ab[/b] [i]cd[/i] ┌─", width=12)
    second = rich_svg("[i]zz[/i] [i]cd[/i] ┌─", width=12)
    svg._run.cache_clear()
    assert rich_svg("[i]zz[/i] [i]cd[/i] ┌─", width=12) == second != first
    rules = dict(re.findall(r"\.rnntui-(r\d+) \{ ([^}]*) \}", second))
    placed = dict((t, c) for c, t in re.findall(r'<text class="rnntui-(r\d+)"[^>]*>([^<]*)</text>', second))
    assert placed == {"zz": "r1", "cd": "r1"} and "italic" in rules["r1"]
    assert re.findall(r'<text class="rnntui-(r\d+)"[^>]*>cd<', first) == ["r3"]
    assert second.count("<path ") == 1  # the kept box drawing is drawn on this page too


def embedded_fonts(doc: str):
    from fontTools.ttLib import TTFont

    found = re.findall(r'@font-face \{ font-family: "([^"]+)"; font-weight: (\d+);[^}]*'
                       r"url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\)", doc)
    return {int(weight): TTFont(io.BytesIO(base64.b64decode(data))) for _, weight, data in found}


def test_svg_is_self_contained_and_its_font_has_every_glyph_at_one_cell(tmp_path):
    out = tmp_path / "x.svg"
    assert main(["shot", "gradients/hop", "--size", "80x24", "-o", str(out)]) == 0
    doc = out.read_text()
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", doc)  # nothing to fetch
    assert "<circle" not in doc  # no window buttons
    fonts = embedded_fonts(doc)
    assert set(fonts) == {400, 700}
    family = re.search(r"-matrix \{[^}]*font-family: ([^;]+);", doc).group(1)
    assert family.startswith(f"'{svg.EMBEDDED}'")
    drawn = set("".join(t for _, _, t in texts(doc))) - {" ", "\u00a0"}
    regular = fonts[400]
    cmap = regular.getBestCmap()
    covered = {chr(c) for font in fonts.values() for c in font.getBestCmap()}
    assert drawn and drawn <= covered  # no character left to a fallback font's tofu
    assert not any(shapes.is_shape(ch) for ch in drawn)  # lines, blocks and dots are shapes, not glyphs
    advances = {regular["hmtx"][cmap[ord(ch)]][0] for ch in drawn if ord(ch) in cmap}
    assert advances == {1233}  # every glyph one cell wide: nothing can drift
    assert len(regular.getGlyphOrder()) < 300  # a subset (the common characters), not the whole font (3,000+)


def test_the_same_screen_gives_the_same_svg_file():
    """The embedded subsets keep the shipped font's dates (fontTools would stamp the time of saving):
    exporting a lecture again changes no file whose screen did not change."""
    from fontTools.ttLib import TTFont

    doc = rich_svg("[b]same[/b] file ∑")
    fonts = embedded_fonts(doc)
    assert set(fonts) == {400, 700}
    for weight, font in fonts.items():
        shipped = TTFont(str(svg.FONT_FILES[weight]), lazy=True)["head"]
        assert (font["head"].created, font["head"].modified) == (shipped.created, shipped.modified)


def test_a_character_beyond_the_common_ones_comes_in_a_small_second_face():
    from fontTools.ttLib import TTFont

    doc = rich_svg("Жar a →b", "ab")
    faces = {family: TTFont(io.BytesIO(base64.b64decode(data))) for family, data in re.findall(
        r'@font-face \{ font-family: "([^"]+)"; font-weight: 400;[^}]*base64,([A-Za-z0-9+/=]+)', doc)}
    common, extra = faces[svg.EMBEDDED].getBestCmap(), faces[svg.EXTRA].getBestCmap()
    assert ord("→") in common and ord("Ж") not in common
    assert {chr(c) for c in extra} == {"Ж"}  # only what the common subset lacks
    family = re.search(r"-matrix \{[^}]*font-family: ([^;]+);", doc).group(1)
    assert family.startswith(f"'{svg.EMBEDDED}', '{svg.EXTRA}'")
    plain = rich_svg("a →b", "ab")
    assert svg.EXTRA not in plain  # no second face when nothing needs it


@pytest.mark.parametrize("weight", [400, 700])
def test_the_shipped_common_faces_draw_each_common_character_as_the_whole_font_does(weight):
    """The subsets shipped for glyphs.COMMON (tools/common_faces.py) hold those characters (and a
    character sharing one's glyph: fontTools keeps ∋ with ∈), each with the whole font's outline and
    advance: a stale file (COMMON changed, not rebuilt) fails."""
    from fontTools.ttLib import TTFont

    from rnntui.glyphs import COMMON

    common, whole = TTFont(str(svg.common_path(weight))), TTFont(str(svg.FONT_FILES[weight]))
    held = {chr(c) for c in common.getBestCmap()}
    assert set(COMMON) <= held and len(held - set(COMMON)) <= 2

    assert all(drawn_alike(common, whole, ch) for ch in held)


def test_an_svg_of_common_characters_reads_no_font_file(tmp_path):
    """A shot whose characters are all common embeds the shipped subsets: fontTools (~0.15 s of a shot's
    start, with the subsetting) is not even imported."""
    import subprocess

    out = tmp_path / "x.svg"
    code = ("import sys; from rnntui.cli import main; "
            f"rc = main(['shot', 'lstm/gates', '--size', '100x30', '-o', {str(out)!r}]); "
            "print(rc, any(m.startswith('fontTools') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split()[-2:] == ["0", "False"]
    fonts = embedded_fonts(out.read_text())
    assert {chr(c) for c in fonts[400].getBestCmap()} >= set("LSTM")  # the shipped face, embedded


def test_box_drawing_names_give_the_arms():
    assert shapes.box_arms("┌") == ({"d": 1, "r": 1}, "")
    assert shapes.box_arms("╋") == ({"u": 2, "d": 2, "l": 2, "r": 2}, "")
    assert shapes.box_arms("╒") == ({"d": 1, "r": 3}, "")
    assert shapes.box_arms("┥") == ({"u": 1, "d": 1, "l": 2}, "")
    assert shapes.box_arms("╭") == ({"d": 1, "r": 1}, "arc")
    assert shapes.box_arms("╌") == ({"l": 1, "r": 1}, "dash2")


def test_lines_and_dots_become_shapes_that_fill_their_cells():
    doc = rich_svg("[#ff0000]┌──┐[/]", "[#00ff00]⣿⠁[/]")
    assert not any(ch in t for _, _, t in texts(doc) for ch in "┌─┐⣿⠁")  # no glyph left to the font
    red = re.search(r'<path fill="#ff0000" d="([^"]*)"', doc).group(1)
    xs = [float(v) for v in re.findall(r"M(-?[\d.]+) ", red)]
    assert min(xs) == pytest.approx(CELL / 2 - CELL * 0.06, abs=0.01)  # the corner starts mid-cell
    widths = [float(w) for w in re.findall(r"h([\d.]+)v", red)]
    assert max(x + w for x, w in zip(xs, widths)) >= 3 * CELL  # the top line runs into the last cell
    green = re.search(r'<path fill="#00ff00" d="([^"]*)"', doc).group(1)
    assert green.count("a") == 2 * (8 + 1)  # ⣿ has all eight braille dots, ⠁ one (each dot two arcs)


def test_braille_dots_meet_their_neighbours_so_a_curve_reads_as_a_line():
    """In a PNG every plotted curve read as a string of small beads, solid and dashed alike (a lecturer's
    trial): a cell's dots touch the next across and down, in a shot's cell, so a run of dots is a line
    and a dashed curve's gaps are what shows."""
    import math

    from rnntui.shapes import cell_shapes

    w, h = svg.CELL.w, svg.CELL.h
    dots = {(round(cx, 6), round(cy, 6)): r for _kind, cx, cy, r in cell_shapes("⣿", 0, 0, w, h)}
    assert len(dots) == 8
    for (x, y), r in dots.items():
        across = min(abs(x - x2) for x2, y2 in dots if y2 == y and x2 != x)
        down = min(abs(y - y2) for x2, y2 in dots if x2 == x and y2 != y)
        assert across <= 2 * r + 1e-9 and down <= 2 * r + 1e-9, (across, down, r)
        assert math.pi * r * r < (w / 2) * (h / 4)  # (still dots: a cell's are told apart where they stop)


def test_neighbouring_dots_of_one_colour_are_joined_so_solid_and_dotted_differ():
    """Every curve was a chain of beads in a PNG and an SVG, though the legend promised ━━ and ┈┈ (a
    lecturer's and a newcomer's trials): dots next to each other (across, down, or corner to corner where
    no square corner joins them) are joined by a bar; every other dot, a dotted curve, is not."""
    from rnntui.shapes import braille_dots, links

    def joined(cells, colours=None):
        dots = {}
        for k, ch in enumerate(cells):
            dots.update(dict.fromkeys(braille_dots(ch, k, 0), (colours or "a" * len(cells))[k]))
        return sum(len(bars) for bars in links(dots, 0, 0, 10, 20).values())

    assert joined("⠉⠉") == 3  # four dots in a row: three bars, across the cells' edge too
    assert joined("⠁⠁") == 0  # every other dot (dotted)
    assert joined("⠁⠂") == 0  # two columns apart, one row down: not neighbours
    assert joined("⠑") == 1  # corner to corner
    assert joined("⠙") == 2  # a square corner: across and down, not the diagonal as well
    assert joined("⠉⠉", "ab") == 2  # two colours meet: not joined
    doc = rich_svg("[#00ff00]⠉⠉[/]")
    green = re.search(r'<path fill="#00ff00" d="([^"]*)"', doc).group(1)
    assert green.count("a") == 2 * 4 and green.count("L") == 3 * 3  # 4 dots, 3 bars (4 corners: M and 3 L)
    for cell, lit in (("⠑", True), ("⠁", False)):  # the PNG: midway between dot 1 and dot 5, beyond both dots
        image = pixels(png.draw(rich_grid(f"[#00ff00 on #000000]{cell}[/]", width=4), scale=2))
        x, y = (round((o + png.ROW_TOP * (o == png.ORIGIN_Y) + size) * 2)
                for o, size in ((png.ORIGIN_X, png.CELL_W / 2), (png.ORIGIN_Y, png.CELL_H / 4)))
        assert (image.getpixel((x, y))[1] > 128) == lit, (cell, image.getpixel((x, y)))


def test_shades_are_their_colour_at_a_quarter_half_and_three_quarters():
    """░▒▓ drawn as grids of dots read as stipple in a PNG: attention/positions' four |PE| levels could
    not be told apart on a projector (a lecturer's trial). Each fills its cell, in its colour at 25%,
    50% or 75% over the background: fill-opacity in the SVG, the colour mixed so in the PNG."""
    doc = rich_svg("[#ff0000 on #000000]░▒▓█[/]")
    for strength in ("0.25", "0.5", "0.75"):
        assert re.search(rf'<path fill="#ff0000" fill-opacity="{strength}" d="M[^"]*"', doc)
    grid = rich_grid("[#ff0000 on #000000]░▒▓█[/]", width=10)
    image = pixels(png.draw(grid, scale=2))
    y = round((png.ORIGIN_Y + png.ROW_TOP + png.CELL_H / 2) * 2)
    for c, red in enumerate((64, 128, 191, 255)):  # 0.25, 0.5, 0.75 and 1 of 255 (blend_rgb truncates)
        left, right = (round((png.ORIGIN_X + k * png.CELL_W) * 2) for k in (c, c + 1))
        cell = {image.getpixel((x, yy)) for x in range(left + 2, right - 2) for yy in range(y - 6, y + 6)}
        assert len(cell) == 1 and abs(next(iter(cell))[0] - red) <= 1 and next(iter(cell))[1:] == (0, 0), (c, cell)


# -- PNG ------------------------------------------------------------------------------------------
def no_converter(monkeypatch):
    """No rsvg-convert, no fc-list, nothing on PATH: PNG must come from what pip installed."""
    import shutil

    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(shutil, "which", lambda *a, **k: None)


def pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_png_without_any_converter_shows_continuous_box_lines(tmp_path, monkeypatch):
    no_converter(monkeypatch)
    out = tmp_path / "x.png"
    assert main(["shot", "recurrence/track", "--size", "80x24", "--theme", "projector", "-o", str(out)]) == 0
    image = pixels(out.read_bytes())
    text = tmp_path / "x.txt"
    assert main(["shot", "recurrence/track", "--size", "80x24", "--theme", "projector", "-o", str(text)]) == 0
    rows = text.read_text().splitlines()
    r = next(i for i, row in enumerate(rows) if row.lstrip().startswith("╭─"))  # the figure's frame
    run = max(re.finditer("─+", rows[r]), key=lambda m: len(m.group(0)))  # the border past its title
    left, right = run.start(), run.end()
    assert right - left > 20
    s = 2
    y = round((png.ORIGIN_Y + r * png.CELL_H + png.ROW_TOP + png.CELL_H / 2) * s)
    x0, x1 = (round((png.ORIGIN_X + c * png.CELL_W) * s) for c in (left, right))  # the ─ cells, edge to edge
    background = image.getpixel((x0 + 3, y + 12 * s))  # inside the frame
    assert sum(background) > 600  # white
    line = [image.getpixel((x, y)) for x in range(x0, x1)]
    # not a single background pixel along the top border: the ─ cells join (a tofu box or a font
    # whose dashes stop short of the cell would leave gaps)
    assert all(sum(abs(a - b) for a, b in zip(p, background)) > 120 for p in line), "gap in the border"


def test_png_glyphs_stay_on_their_cells_and_are_not_tofu():
    grid = rich_grid("a" * 49 + "|", "→", width=60)
    image = pixels(png.draw(grid, 2))
    s = 2
    y = round((png.ORIGIN_Y + png.ROW_TOP + png.CELL_H * 0.5) * s)
    ink = [x for x in range(image.width) if sum(image.getpixel((x, y))) > 300]
    bar = [x for x in ink if x > (png.ORIGIN_X + 48.9 * png.CELL_W) * s]
    cell = ((png.ORIGIN_X + 49 * png.CELL_W) * s, (png.ORIGIN_X + 50 * png.CELL_W) * s)
    assert bar and cell[0] <= min(bar) and max(bar) <= cell[1]  # column 49's | is in column 49
    size = round(png.CELL_W * 2 / svg.ADVANCE_EM, 2)
    arrow, notdef = png._glyph("→", False, size), png._glyph("\ue000", False, size)
    assert arrow[0].tobytes() != notdef[0].tobytes()  # the shipped font has the arrow: no tofu


def _ink(image, scale: float, col0: float, col1: float, rows: int = 1) -> list[tuple[int, int]]:
    """(x, y) of the light pixels in cells col0 … col1 of the first `rows` rows."""
    return [(x, y) for x in range(round((png.ORIGIN_X + col0 * CELL) * scale), round((png.ORIGIN_X + col1 * CELL) * scale))
            for y in range(round(png.ORIGIN_Y * scale), round((png.ORIGIN_Y + rows * png.CELL_H) * scale))
            if sum(image.getpixel((x, y))) > 300]


def test_png_glyphs_sit_on_the_svgs_baseline_and_chinese_is_centred_on_its_two_cells():
    """口 and 田 (symmetric) centred on their two cells, as the SVG centres them; an x's foot on the
    baseline the SVG gives its text (y = 20 in the terminal group)."""
    scale, line = 2.0, "[#ffffff]口田 x[/]"
    image = pixels(png.draw(rich_grid(line, width=8), scale))
    for col in (0, 2):
        xs = [x for x, _y in _ink(image, scale, col, col + 2)]
        assert abs((min(xs) + max(xs)) / 2 - (png.ORIGIN_X + (col + 1) * CELL) * scale) <= 1.5, col
    (y_svg,) = {y for _x, y, t in texts(rich_svg(line, width=8)) if t == "x"}
    foot = max(y for _x, y in _ink(image, scale, 5, 6))
    assert abs(foot + 1 - (png.ORIGIN_Y + y_svg) * scale) <= 1  # the row of pixels just above the baseline


def test_png_bold_is_heavier_for_latin_and_chinese():
    scale = 2.0
    for word in ("H", "口"):
        plain = len(_ink(pixels(png.draw(rich_grid(f"[#ffffff]{word}[/]", width=4), scale)), scale, 0, 2))
        bold = len(_ink(pixels(png.draw(rich_grid(f"[bold #ffffff]{word}[/]", width=4), scale)), scale, 0, 2))
        assert bold > 1.1 * plain, (word, plain, bold)


def test_a_reversed_block_over_two_rows_has_no_seam_between_them():
    scale = 2.0
    line = "[reverse #ffffff]  [/][on #101010]" + " " * 10 + "[/]"  # (the dark cells the screen's background)
    image = pixels(png.draw(rich_grid(line, line, width=12), scale))
    x = round((png.ORIGIN_X + CELL) * scale)
    top, bottom = (png.ORIGIN_Y + png.ROW_TOP) * scale, (png.ORIGIN_Y + png.ROW_TOP + 2 * png.CELL_H) * scale
    assert {image.getpixel((x, y)) for y in range(math.ceil(top), math.floor(bottom))} == {(255, 255, 255)}


def test_an_underline_runs_unbroken_under_its_words_below_the_baseline_and_inside_the_row():
    """"梯度 ab" underlined: one line under all seven cells (under the Chinese it covered only each
    character's first cell, a dashed line), under the letters' baseline and above the next row, its
    gap and thickness growing with the scale like the rest of the picture."""
    found = {}
    for scale in (2.0, 4.0):
        image = pixels(png.draw(rich_grid("[u #ffffff]梯度 ab[/] [#ffffff]x[/]", width=12), scale))

        def lit(y: int, col0: float, col1: float) -> list[bool]:
            return [sum(image.getpixel((x, y))) > 600 for x in range(round((png.ORIGIN_X + col0 * CELL) * scale) + 1,
                                                                    round((png.ORIGIN_X + col1 * CELL) * scale) - 1)]

        rows = [y for y in range(image.height) if all(lit(y, 0, 7))]  # lit across all seven cells
        x_ink = [y for y in range(image.height) if any(lit(y, 8, 9))]  # the x after them: on the baseline
        next_row = (png.ORIGIN_Y + png.ROW_TOP + png.CELL_H) * scale
        assert rows and rows == list(range(rows[0], rows[-1] + 1)), rows  # one line
        assert max(x_ink) < rows[0] and rows[-1] < next_row  # under the letters, inside the row
        assert not any(any(lit(y, 8, 9)) for y in rows)  # the x is not underlined
        found[scale] = (rows[0] - max(x_ink), len(rows))
    (gap2, thick2), (gap4, thick4) = found[2.0], found[4.0]
    assert thick4 == 2 * thick2 and abs(gap4 - 2 * gap2) <= 2, found


@pytest.mark.parametrize("theme,light", [("projector", True), ("light", True), ("dark", False)])
def test_png_frame_follows_the_theme(tmp_path, monkeypatch, theme, light):
    no_converter(monkeypatch)
    out = tmp_path / "p.png"
    assert main(["shot", "recurrence/track", "--theme", theme, "--size", "80x24", "-o", str(out)]) == 0
    image = pixels(out.read_bytes())
    w, h = image.size
    # the corners, the margin, where the window buttons were, and the title bar
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 1), (w // 2, h - 1), (52, 44), (w - 60, 30)):
        bright = sum(image.getpixel((x, y))) / 3
        assert (bright > 200) if light else (bright < 60), (theme, x, y, image.getpixel((x, y)))


def test_png_encoding_keeps_every_pixel():
    # an odd width, every channel value, rows unlike their neighbours: a slip in stride or filter bytes
    # scrambles them
    width, height = 37, 7
    rgb = bytes((x * 7 + y * 13 + c * 101) % 256 for y in range(height) for x in range(width) for c in range(3))
    data = png.encode(Image.frombytes("RGB", (width, height), rgb))
    Image.open(io.BytesIO(data)).verify()  # the chunks' checksums
    back = Image.open(io.BytesIO(data))
    assert (back.mode, back.size, back.tobytes()) == ("RGB", (width, height), rgb)
    assert png.png_size(data) == (width, height)


def test_exported_pngs_are_the_frames_shots(tmp_path):
    """`rnntui export` draws its PNGs in threads while frames render: each file is its own frame, as
    `rnntui shot` draws it alone."""
    from rnntui import slides
    from rnntui.render import render

    by_figure = {}
    for f in slides.key_frames():
        by_figure.setdefault((f.screen.TOPIC_ID, f.figure.id), f)
    frames = list(by_figure.values())[::9][:4]  # four figures of different topics
    slides.export(frames, tmp_path, ("png",), size=(60, 20), progress=False)
    written = sorted(tmp_path.glob("*.png"))
    assert len(written) == len(frames)
    for path, (frame, stem) in zip(written, slides.plan(frames)):
        assert path.name == f"{stem}.png"
        alone = render(frame.screen, frame.figure, frame.state, "png", size=(60, 20))
        assert pixels(path.read_bytes()).tobytes() == pixels(alone).tobytes(), path.name


def test_png_size_scales_with_scale(tmp_path):
    sizes = {}
    for scale in ("1", "2"):
        out = tmp_path / f"x{scale}.png"
        assert main(["shot", "recurrence/track", "--size", "80x24", "--scale", scale, "-o", str(out)]) == 0
        sizes[scale] = png.png_size(out.read_bytes())
    (w1, h1), (w2, h2) = sizes["1"], sizes["2"]
    assert abs(w2 - 2 * w1) <= 1 and abs(h2 - 2 * h1) <= 1
    assert w1 >= 80 * 12  # about 12 px per column at scale 1


def test_projector_svg_is_black_on_white_with_a_light_frame(tmp_path):
    out = tmp_path / "p.svg"
    assert main(["shot", "recurrence/track", "--theme", "projector", "--size", "80x24", "-o", str(out)]) == 0
    doc = out.read_text()
    assert 'fill="#ffffff"' in doc and "fill: #000000" in doc
    chrome = re.search(r'<rect fill="(#[0-9a-f]{6})" stroke="[^"]*" stroke-width="1" x="1" y="1"', doc)
    assert chrome.group(1) == "#ffffff"  # no dark window around a white slide


def test_missing_pillow_is_one_line_saying_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    out = tmp_path / "x.png"
    assert main(["shot", "recurrence/track", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install" in err[0] and "pillow" in err[0]
    assert not out.exists()
    assert main(["export", str(tmp_path / "slides"), "--format", "svg,png"]) == 2
    assert "pillow" in capsys.readouterr().err and not (tmp_path / "slides").exists()


@pytest.mark.parametrize("scale", ["0", "x", "100"])
def test_bad_scale(scale, capsys, tmp_path):
    assert main(["shot", "recurrence/track", "--scale", scale, "-o", str(tmp_path / "x.png")]) == 2
    assert "--scale" in capsys.readouterr().err


def _ratio(a, b) -> float:
    from rnntui.widgets.tints import relative_luminance

    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_on_a_light_background_the_palette_reads_and_keeps_its_hue():
    """Orange numbers and curves were 2.5:1 on white and 1.9:1 on the light theme's grey (a newcomer's
    trial; text wants 4.5:1). Drawn on a light background each colour is darker, its hue the same."""
    import colorsys

    from rnntui.widgets.tints import PALETTE, on_light

    for rgb in PALETTE:
        dark = on_light(rgb)
        assert _ratio(dark, (255, 255, 255)) >= 4.5 and _ratio(dark, (0xE0, 0xE0, 0xE0)) >= 4.5, (rgb, dark)
        h0, _l, s0 = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
        h1, _l, s1 = colorsys.rgb_to_hls(*(c / 255 for c in dark))
        assert abs(h0 - h1) < 0.03 or s0 < 0.05, (rgb, dark)  # (grey stays grey)


@pytest.mark.parametrize("theme", ["light", "projector", "dark"])
def test_a_frame_draws_the_palette_dark_on_light_themes_only(theme):
    from rnntui.app import LIGHT, PROJECTOR
    from rnntui.render import render
    from rnntui.topics import find
    from rnntui.widgets.tints import POSITIVE, _triplet, on_light

    screen, figure = find("recurrence/track")
    shot = render(screen, figure, figure.state_type(), "svg", (80, 24), theme).lower()
    mid, dark = (f"#{r:02x}{g:02x}{b:02x}" for r, g, b in (_triplet(POSITIVE), on_light(_triplet(POSITIVE))))
    assert (dark in shot and mid not in shot) if theme != "dark" else (mid in shot and dark not in shot), theme
    for th in (LIGHT, PROJECTOR):  # the focused figure's outline: 1.5:1 it was, under Textual's light theme
        accent = tuple(int(th.accent[i:i + 2], 16) for i in (1, 3, 5))
        assert _ratio(accent, tuple(int(th.background[i:i + 2], 16) for i in (1, 3, 5))) >= 3


async def test_under_no_color_every_palette_colours_grey_reads_on_the_dark_background(monkeypatch):
    """NO_COLOR draws a colour as the grey of its weighted sum: RED's was (95,95,95), 2.9:1 on #121212
    (gradients/product's float32 lines and series, a newcomer's trial). Lifted, each reads at 4.5:1. That is
    the terminal's: a shot or an export is in colour (a lecturer's slides came out grey, a code review)."""
    from rnntui.app import RnnApp
    from rnntui.widgets.tints import PALETTE, RED, on_dark_grey

    def grey(rgb):  # Textual's Color.monochrome
        g = round(rgb[0] * 0.2126 + rgb[1] * 0.7152 + rgb[2] * 0.0722)
        return (g, g, g)

    for rgb in PALETTE:
        assert _ratio(grey(on_dark_grey(rgb)), (18, 18, 18)) >= 4.5, rgb
    monkeypatch.setenv("NO_COLOR", "1")
    app = RnnApp("gradients", "product")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seen = app.export_screenshot().lower()
    was, now = ("#%02x%02x%02x" % grey(c) for c in (RED, on_dark_grey(RED)))
    assert now in seen and was not in seen and "#%02x%02x%02x" % RED not in seen


def test_a_shot_under_no_color_is_in_colour(monkeypatch):
    """NO_COLOR is the terminal's: a lecturer's slides came out grey without a word (a code review)."""
    from rnntui.render import render
    from rnntui.topics import find
    from rnntui.widgets.tints import RED

    monkeypatch.setenv("NO_COLOR", "1")
    screen, figure = find("gradients/product")
    shot = render(screen, figure, figure.state_type(), "svg", (80, 24)).lower()
    assert "#%02x%02x%02x" % RED in shot and os.environ["NO_COLOR"] == "1"  # (and NO_COLOR as it was)


def test_the_dark_themes_header_and_footer_stay_grey_in_256_colours():
    """Over SSH COLORTERM is not passed on: Textual's slate panel #242F38 became navy (0,0,95) in 256
    colours, the header and footer with it (a newcomer's trial). Ours becomes a grey."""
    from rich.color import Color, ColorSystem

    from rnntui.app import RnnApp, THEMES

    app = RnnApp()
    assert app.theme == THEMES["dark"]
    ours = app.get_css_variables()
    for name in ("panel", "footer-background"):
        r, g, b = Color.parse(ours[name][:7]).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
        assert r == g == b, (name, (r, g, b))
    # and nothing else moves: a theme's own panel had skipped Textual's boost, and hovered footer keys
    # and palette options turned darker instead of lighter (a review)
    app.theme = "textual-dark"
    theirs = app.get_css_variables()
    assert {k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)} == {"panel", "footer-background"}


def test_a_png_too_large_to_open_is_refused_before_drawing(tmp_path, capsys):
    """--size 500x200 at the default --scale 2 wrote a 121 Mpx PNG that image viewers refuse (a
    newcomer's trial): refused in one line naming a --scale that fits; the size it names is the size drawn."""
    from rnntui.png import MOST_PIXELS, image_size, png_size

    out = tmp_path / "s.png"
    assert main(["shot", "recurrence/track", "--size", "80x24", "--scale", "1", "-o", str(out)]) == 0
    assert png_size(out.read_bytes()) == image_size(80, 24, 1.0)  # the formula is the drawing's
    capsys.readouterr()
    assert main(["shot", "recurrence/track", "--size", "500x200", "-o", str(tmp_path / "big.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    w, h = image_size(500, 200, 2.0)
    assert len(err) == 1 and f"{w}×{h} PNG" in err[0] and w * h > MOST_PIXELS and not (tmp_path / "big.png").exists()
    fits = float(err[0].split("use --scale ")[1].split()[0])
    # the largest to two decimals (it said 1.5 where 1.72 fits, a CLI trial)
    assert math.prod(image_size(500, 200, fits)) <= MOST_PIXELS < math.prod(image_size(500, 200, fits + 0.01))


async def test_a_live_switch_to_the_light_theme_darkens_the_palette_and_back():
    """The filter is on only on a light theme (on, it costs every key a new Strip a line): a switch from
    the palette turns it on for the next frame, and back off."""
    from rnntui.app import THEMES, RnnApp
    from rnntui.widgets.tints import POSITIVE, _triplet, on_light

    mid, dark = (f"#{r:02x}{g:02x}{b:02x}" for r, g, b in (_triplet(POSITIVE), on_light(_triplet(POSITIVE))))
    app = RnnApp("recurrence", "track")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not [f for f in app.get_line_filters() if type(f).__name__ == "Ink"]
        for theme, want, not_want in ((THEMES["light"], dark, mid), (THEMES["dark"], mid, dark)):
            app.theme = theme
            await pilot.pause(0.2)
            shot = app.export_screenshot().lower()
            assert want in shot and not_want not in shot, theme


def test_a_character_no_font_has_is_named_and_a_control_one_by_its_code():
    """A control character in the refusal went to the terminal as it was (U+202E turned the line)."""
    from rnntui import glyphs
    from rnntui.state import BadValue

    with pytest.raises(BadValue) as e:
        glyphs.check(["\u202e", "\x00", "a"])
    assert str(e.value).startswith("cannot draw U+0000 U+202E: no font here has them")
    assert "\u202e" not in str(e.value) and "\x00" not in str(e.value)


def test_a_missing_character_asks_for_a_cjk_font_only_when_it_is_one():
    """"cannot draw ⋮: … install a CJK font" sent a user to install a font that would not draw ⋮ (a
    trial): a missing narrow character says the shipped font lacks it and a .txt keeps it."""
    from rnntui import glyphs
    from rnntui.state import BadValue

    with pytest.raises(BadValue) as e:
        glyphs.check(["⋮"], files=())
    assert "CJK" not in str(e.value) and ".txt" in str(e.value)
    with pytest.raises(BadValue) as e:
        glyphs.check(["猫"], files=())  # no CJK font at all
    assert "install a CJK font" in str(e.value)
    with pytest.raises(BadValue) as e:  # each named apart ("測試語국어한" read as one word, a Chinese student's trial)
        glyphs.check("語言測試한국어", files=())
    assert str(e.value).startswith(f"cannot draw {' '.join(sorted('語言測試한국어'))}: ")


def test_braille_after_chinese_in_one_run_is_drawn_on_its_own_cell():
    """"梯度⣿" in one colour: the braille's dots and the bars joining them are drawn in its cell, columns
    4 (梯度 takes four cells), not two cells to the left over the Chinese."""
    doc = rich_svg("[#ff0000]梯度⣿[/]", width=10)
    (data,) = re.findall(r'<path fill="#ff0000" d="([^"]+)"', doc)
    xs = [float(x) for x in re.findall(r"[ML](-?[\d.]+) ", data)]
    assert xs and all(4 * CELL - 0.01 <= x <= 5 * CELL + 0.01 for x in xs), sorted(set(xs))


@pytest.mark.parametrize("theme", ["dark", "projector"])
def test_an_svgs_title_reads_on_its_window(tmp_path, theme):
    """The window's title is grey that reads on the window's own colour (4.5:1), dark on a light
    slide and light on a dark one, and its edge is a shade between them."""
    out = tmp_path / "t.svg"
    assert main(["shot", "recurrence/track", "--theme", theme, "--size", "80x24", "-o", str(out)]) == 0
    doc = out.read_text()
    window, edge = re.search(r'<rect fill="(#[0-9a-f]{6})" stroke="(#[0-9a-f]{6})" stroke-width="1" x="1" y="1"',
                             doc).groups()
    ink = re.search(r'<text class="[^"]*-title" fill="(#[0-9a-f]{6})"', doc).group(1)
    rgb = lambda c: tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))  # noqa: E731
    assert _ratio(rgb(ink), rgb(window)) >= 4.5, (theme, ink, window)
    assert 1.2 < _ratio(rgb(edge), rgb(window)) < _ratio(rgb(ink), rgb(window)), (theme, edge, window)


def test_png_cells_take_the_svgs_colours_dim_and_reversed_too():
    """A dim block and a reversed word (Chinese and Latin) are the same colours in the PNG as in the
    SVG of the same screen: the block's fill, and the reversed cells' background."""
    line = "[dim #ff0000]██[/] [reverse]梯度 ab[/]"
    doc, image = rich_svg(line, width=12), pixels(png.draw(rich_grid(line, width=12), 2.0))
    dim = re.search(r'<path fill="(#[0-9a-f]{6})"', doc).group(1)
    rects = re.findall(r'<rect fill="(#[0-9a-f]{6})" x="([\d.]+)" y="1.5" width="([\d.]+)"', doc)
    reversed_fill = next(f for f, x, w in rects if round(float(x) / CELL) == 3)
    hex_at = lambda col: "#%02x%02x%02x" % image.getpixel((round((png.ORIGIN_X + (col + 0.5) * CELL) * 2),  # noqa: E731
                                                           round((png.ORIGIN_Y + 2) * 2)))
    assert hex_at(0) == hex_at(1) == dim
    assert all(hex_at(col) == reversed_fill for col in (3, 5, 7, 8, 9)), [hex_at(c) for c in range(3, 10)]


def test_a_cjk_font_is_advised_only_where_one_would_draw_them_all(monkeypatch):
    """"cannot draw 🙂: … install a CJK font": no CJK font has the emoji (a code review). The advice is
    given where every missing character is CJK; otherwise the refusal says that no font here has them."""
    from rnntui import glyphs
    from rnntui.state import BadValue

    monkeypatch.setattr(glyphs, "cjk_files", lambda: ())
    said = {}
    for chars in ("龘", "🙂", "龘🙂", "⋮", "〜《》", "✅", "頸", "ｶ"):  # (✅ is wide, and no CJK font's: a trial)
        with pytest.raises(BadValue) as e:
            glyphs.check(chars)
        said[chars] = "install a CJK font" in str(e.value)
        assert "DejaVu" not in str(e.value)  # (it was blamed, beside a Chinese font that lacked them: a trial)
    assert said == {"龘": True, "🙂": False, "龘🙂": False, "⋮": False, "〜《》": True,  # (CJK's punctuation too)
                    "✅": False, "頸": True, "ｶ": True}


@pytest.mark.parametrize("theme,light", [("ansi-dark", False), ("ansi-light", True)])
def test_the_ansi_themes_slides_draw_text_apart_from_the_page(tmp_path, theme, light):
    # the terminal's own colours, which a file has not: text and page both came out #c5c8c6
    import re
    from collections import Counter

    from rnntui.svg import luminance

    out = tmp_path / "f.svg"
    assert main(["shot", "gradients/factors", "--theme", theme, "--size", "100x30", "-o", str(out)]) == 0
    svg = out.read_text()
    page = re.search(r'<rect fill="(#[0-9a-f]{6})" stroke', svg).group(1)
    fills = dict(re.findall(r"\.rnntui-(r\d+) \{ fill: (#[0-9a-f]{6})", svg))
    used = Counter(re.findall(r'class="rnntui-(r\d+)"', svg))
    assert (luminance(page) > 0.5) == light, page
    for cls, _ in used.most_common(3):  # the most of the words: readable on the page
        assert abs(luminance(fills[cls]) - luminance(page)) > 0.4, (cls, fills[cls], page)


def _holes(mask) -> int:
    """Closed gaps inside a glyph's mask (a 口's middle): dark areas that do not reach its edge."""
    w, h = mask.size
    px = mask.load()
    dark = {(x, y) for x in range(w) for y in range(h) if px[x, y] < 128}
    seen, n = set(), 0
    for start in dark:
        if start in seen:
            continue
        stack, edge = [start], False
        seen.add(start)
        while stack:
            x, y = stack.pop()
            edge |= x in (0, w - 1) or y in (0, h - 1)
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if q in dark and q not in seen:
                    seen.add(q)
                    stack.append(q)
        n += not edge
    return n


@pytest.mark.parametrize("ch", "每翻留")
@pytest.mark.parametrize("scale", [1, 1.5, 1.7, 2, 2.2, 4])
def test_bold_chinese_at_scale_1_keeps_its_strokes_apart(ch, scale):
    # a stroke of one pixel round a 20-pixel glyph filled 每's and 翻's gaps in: blobs on a slide (to 34: a review)
    size = round(png.CELL_W * scale / png.ADVANCE_EM, 2)
    regular, bold = (png._glyph(ch, b, size)[0] for b in (False, True))
    ink = [sum(v >= 128 for v in m.tobytes()) for m in (regular, bold)]
    assert _holes(bold) >= _holes(regular) >= 1
    assert ink[1] > 1.2 * ink[0]  # still bold


def test_the_last_rows_underscores_are_inside_the_picture():
    """A browser drew a slide's last row "W h 1.40": Rich's page names a clip for the last line that it
    never defines, and ends the terminal's clip a pixel above that row's foot (a lecturer's trial)."""
    console = Console(record=True, width=20, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    console.print("top", highlight=False)
    console.print("W_h 1.40", highlight=False)
    doc = svg.screen_svg(list(console._record_buffer), 20, "t")
    named = set(re.findall(r'clip-path="url\(#(rnntui-line-\d+)\)"', doc))
    defined = set(re.findall(r'<clipPath id="(rnntui-line-\d+)">', doc))
    assert named and named <= defined  # every row's clip is there
    last = re.search(r'<clipPath id="rnntui-line-1">\s*<rect x="0" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"', doc)
    terminal = float(re.search(r'<clipPath id="rnntui-clip-terminal">\s*<rect [^>]* height="([\d.]+)"', doc)[1])
    assert terminal >= float(last[1]) + float(last[2])  # the terminal's clip holds the last row's clip whole
