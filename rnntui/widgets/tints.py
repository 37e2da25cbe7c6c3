"""The one palette. Colours with mid luminance: readable on dark and light themes, and still
distinct greys under NO_COLOR (Textual turns named reds and blues into near-background greys
there, so no view uses colour names). Series colours are RGB triples for the plot; `style()`
turns one into a Rich style string for text."""

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
SERIES = (BLUE, ORANGE, GREEN, PURPLE, RED)


def style(rgb: RGB, bold: bool = False) -> str:
    return ("bold " if bold else "") + f"rgb({rgb[0]},{rgb[1]},{rgb[2]})"


# text meanings
POSITIVE = "rgb(235,120,55)"
NEGATIVE = "rgb(80,150,255)"
GOOD = "rgb(80,190,110)"
BAD = "rgb(235,90,90)"
WARN = style(YELLOW)
HIGHLIGHT = style(YELLOW, bold=True)  # the thing the figure is about (token 0 and k, the first share)
