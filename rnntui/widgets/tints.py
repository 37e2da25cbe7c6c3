"""The one palette. Colours with mid luminance, readable on the dark theme; on a light background
they are drawn darker (`on_light`). Under NO_COLOR they are readable greys (Textual turns named reds
and blues into near-background greys there, so no view uses colour names), but not all distinct
ones: a plot's series also differ by their dashes. Series colours are RGB triples for the plot;
`style()` turns one into a Rich style string for text."""

RGB = tuple[int, int, int]

# series (plots, bars, grids)
BLUE: RGB = (66, 135, 245)
ORANGE: RGB = (240, 140, 40)
GREEN: RGB = (60, 180, 90)
RED: RGB = (225, 60, 60)
PURPLE: RGB = (170, 100, 230)
GREY: RGB = (130, 130, 130)
YELLOW: RGB = (225, 180, 40)
CYAN: RGB = (60, 180, 200)


def style(rgb: RGB, bold: bool = False) -> str:
    return ("bold " if bold else "") + f"rgb({rgb[0]},{rgb[1]},{rgb[2]})"


# text meanings
POSITIVE = "rgb(235,120,55)"
NEGATIVE = "rgb(80,150,255)"
GOOD = "rgb(80,190,110)"
BAD = "rgb(235,90,90)"
WARN = style(YELLOW)
HIGHLIGHT = style(YELLOW, bold=True)  # the thing the figure is about (token 0 and k, the first share)


# -- on a light background (the light and projector themes) ----------------------------------------
# Mid luminance reads on dark, but orange on white was 2.5:1 and on the light theme's grey 1.9:1 (a
# newcomer's trial). Where the background is light, each of these is drawn darker, its hue kept: its
# linear RGB scaled down to LIGHT_LUMINANCE (about 5:1 on #E0E0E0 and 7:1 on white). See rnntui.ink.
LIGHT_LUMINANCE = 0.10


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _srgb(v: float) -> int:
    v = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(min(max(v, 0.0), 1.0) * 255)


def relative_luminance(rgb: RGB) -> float:
    """WCAG's: of linear RGB (svg.luminance, of the sRGB values, only tells light from dark)."""
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def on_light(rgb: RGB) -> RGB:
    """`rgb` as drawn on a light background: darkened to LIGHT_LUMINANCE, its hue kept."""
    lum = relative_luminance(rgb)
    if lum <= LIGHT_LUMINANCE:
        return rgb
    k = LIGHT_LUMINANCE / lum
    return tuple(_srgb(_linear(c) * k) for c in rgb)


# Under NO_COLOR, Textual draws each colour as the grey of its weighted sum (Color.monochrome): RED's
# was (95,95,95), 2.9:1 on the dark theme's background (a newcomer's trial). Such a colour is mixed
# with white until its grey reaches MONO_FLOOR (4.5:1 on #121212): RED, BAD and PURPLE.
MONO_FLOOR = 125


def _grey(rgb: RGB) -> float:
    return rgb[0] * 0.2126 + rgb[1] * 0.7152 + rgb[2] * 0.0722


def on_dark_grey(rgb: RGB) -> RGB:
    """`rgb` as it goes to NO_COLOR's grey on a dark background: lifted towards white where its grey
    would be darker than MONO_FLOOR."""
    grey = _grey(rgb)
    if grey >= MONO_FLOOR:
        return rgb
    t = (MONO_FLOOR - grey) / (255 - grey)
    return tuple(min(255, round(c + t * (255 - c) + 0.5)) for c in rgb)


def _triplet(text: str) -> RGB:
    return tuple(int(v) for v in text.removeprefix("bold ").removeprefix("rgb(").removesuffix(")").split(","))


PALETTE: frozenset = frozenset((BLUE, ORANGE, GREEN, RED, PURPLE, GREY, YELLOW, CYAN)) | frozenset(
    _triplet(t) for t in (POSITIVE, NEGATIVE, GOOD, BAD))


# -- in 16 colours (TERM=xterm or screen without COLORTERM: PuTTY, tmux, screen) ----------------------
# Each colour's nearest of the 16 merged meanings: orange, red and the positive sign all became bright
# red, purple bright blue like blue, grey the body text's grey (a 16-colour trial). Each is drawn as one
# of the 16 instead (Rich's standard palette, so it goes out as that code), apart from the others; on a
# light background the dark ones (bright yellow and grey on white were near invisible).
_CODES = {"black": 0, "red": 1, "green": 2, "brown": 3, "blue": 4, "magenta": 5, "cyan": 6, "grey": 8,
          "bright red": 9, "bright green": 10, "bright yellow": 11, "bright blue": 12, "bright magenta": 13,
          "bright cyan": 14}
_FEW = {  # colour: (on dark, on light)
    ORANGE: ("bright yellow", "magenta"), _triplet(POSITIVE): ("bright yellow", "magenta"),
    RED: ("bright red", "red"), _triplet(BAD): ("bright red", "red"),
    BLUE: ("bright blue", "blue"), _triplet(NEGATIVE): ("bright blue", "blue"),
    GREEN: ("bright green", "green"), _triplet(GOOD): ("bright green", "green"),
    PURPLE: ("bright magenta", "black"), CYAN: ("bright cyan", "cyan"),
    YELLOW: ("brown", "magenta"), GREY: ("grey", "grey"),  # (on white most terminals draw brown as a pale
}  # yellow: parallel/path's ● ends at 1.4:1 in xterm's colours, a lecturer's trial; beside cyan, blue, green)


def _standard(name: str) -> RGB:
    from rich._palettes import STANDARD_PALETTE  # (what Rich downgrades to the 16 against)

    return tuple(STANDARD_PALETTE[_CODES[name]])


FEW_ON_DARK: dict = {rgb: _standard(dark) for rgb, (dark, _light) in _FEW.items()}
FEW_ON_LIGHT: dict = {rgb: _standard(light) for rgb, (_dark, light) in _FEW.items()}
