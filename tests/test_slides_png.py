"""PNG screenshots: the SVG redrawn like a terminal, rsvg-convert, --scale, the projector theme."""
import html
import io
import re
import shutil

import pytest
from rich.console import Console

from rnntui import png
from rnntui.cli import main

HAVE_RSVG = shutil.which("rsvg-convert") is not None and png.font_installed()
needs_rsvg = pytest.mark.skipif(not HAVE_RSVG, reason="rsvg-convert or DejaVu Sans Mono missing: " + png.INSTALL)


def rich_svg(*lines: str, width: int = 40) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    for line in lines:
        console.print(line, highlight=False)
    return console.export_svg(title="t")


def texts(svg: str) -> list[tuple[float, float, str]]:
    """(x, y, text) of every text element drawn in the terminal."""
    return [(float(x), float(y), html.unescape(t))
            for x, y, t in re.findall(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg)]


def test_text_sits_on_its_columns_in_a_local_monospace_font():
    svg = png.terminal_svg(rich_svg("[b]Invariant:[/b] h_t is   a →b", "ab"))
    assert "Fira Code" not in svg and "DejaVu Sans Mono" in svg
    cell = 20 * 0.61  # Rich's cell: 0.61 em of a 20 px font
    placed = {t: round(x / cell) for x, _, t in texts(svg)}
    # every word starts at its own column, so spaces between styled runs cannot collapse
    assert placed == {"Invariant:": 0, "h_t": 11, "is": 15, "a": 20, "→": 22, "b": 23, "ab": 0}
    size = float(re.search(r"-matrix \{[^}]*font-size: ([\d.]+)px", svg).group(1))
    assert size * png.ADVANCE_EM == pytest.approx(cell, abs=1e-3)  # one glyph advance = one cell


def test_box_drawing_names_give_the_arms():
    assert png.box_arms("┌") == ({"d": 1, "r": 1}, "")
    assert png.box_arms("╋") == ({"u": 2, "d": 2, "l": 2, "r": 2}, "")
    assert png.box_arms("╒") == ({"d": 1, "r": 3}, "")
    assert png.box_arms("┥") == ({"u": 1, "d": 1, "l": 2}, "")
    assert png.box_arms("╭") == ({"d": 1, "r": 1}, "arc")
    assert png.box_arms("╌") == ({"l": 1, "r": 1}, "dash2")


def test_lines_and_dots_become_shapes_that_fill_their_cells():
    svg = png.terminal_svg(rich_svg("[#ff0000]┌──┐[/]", "[#00ff00]⣿⠁[/]"))
    assert not any(ch in t for _, _, t in texts(svg) for ch in "┌─┐⣿⠁")  # no glyph left to the font
    red = re.search(r'<path fill="#ff0000" d="([^"]*)"', svg).group(1)
    xs = [float(v) for v in re.findall(r"M(-?[\d.]+) ", red)]
    cell = 20 * 0.61
    assert min(xs) == pytest.approx(cell / 2 - cell * 0.06, abs=0.01)  # the corner starts mid-cell
    widths = [float(w) for w in re.findall(r"h([\d.]+)v", red)]
    assert max(x + w for x, w in zip(xs, widths)) >= 3 * cell  # the top line runs into the last cell
    green = re.search(r'<path fill="#00ff00" d="([^"]*)"', svg).group(1)
    assert green.count("M") == 8 + 1  # ⣿ has all eight braille dots, ⠁ one


@needs_rsvg
def test_png_size_scales_with_scale(tmp_path):
    sizes = {}
    for scale in ("1", "2"):
        out = tmp_path / f"x{scale}.png"
        assert main(["shot", "recurrence/track", "--size", "80x24", "--scale", scale, "-o", str(out)]) == 0
        sizes[scale] = png.png_size(out.read_bytes())
    (w1, h1), (w2, h2) = sizes["1"], sizes["2"]
    assert abs(w2 - 2 * w1) <= 1 and abs(h2 - 2 * h1) <= 1
    assert w1 >= 80 * 12  # about 12 px per column at scale 1


@needs_rsvg
def test_projector_theme_is_black_on_white(tmp_path):
    out = tmp_path / "p.svg"
    assert main(["shot", "recurrence/track", "--theme", "projector", "--size", "80x24", "-o", str(out)]) == 0
    svg = out.read_text()
    assert 'fill="#ffffff"' in svg and "fill: #000000" in svg
    assert main(["shot", "recurrence/track", "--theme", "projector", "-o", str(tmp_path / "p.png")]) == 0
    assert png.png_size((tmp_path / "p.png").read_bytes())[0] > 0


def test_missing_rsvg_is_one_line_saying_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(png.shutil, "which", lambda name: None)
    out = tmp_path / "x.png"
    assert main(["shot", "recurrence/track", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "apt-get install librsvg2-bin fonts-dejavu-core" in err[0]
    assert not out.exists()
    assert main(["export", str(tmp_path / "slides"), "--format", "svg,png"]) == 2
    assert "librsvg2-bin" in capsys.readouterr().err and not (tmp_path / "slides").exists()


@pytest.mark.parametrize("scale", ["0", "x", "100"])
def test_bad_scale(scale, capsys, tmp_path):
    assert main(["shot", "recurrence/track", "--scale", scale, "-o", str(tmp_path / "x.png")]) == 2
    assert "--scale" in capsys.readouterr().err
