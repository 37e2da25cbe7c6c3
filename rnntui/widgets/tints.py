"""Text colours with mid luminance: readable on dark and light themes, and still visible as greys
under NO_COLOR (Textual turns named reds and blues into near-background greys there)."""

POSITIVE = "rgb(235,120,55)"
NEGATIVE = "rgb(80,150,255)"
GOOD = "rgb(80,190,110)"
BAD = "rgb(235,90,90)"
WARN = "rgb(225,180,40)"
