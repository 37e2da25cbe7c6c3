"""A widget that draws lines of Rich Text through Textual's line API (issue 16).

A Static hands its Text to Textual, which converts it to Content and then to strips at every
render: for a screen of matrices that conversion cost more than drawing the matrices. `Lines`
renders each line's segments once per (what it shows, size, style) and hands Textual the strips.
Lines are cropped or padded to the width, never wrapped; a subclass says what it draws in `lines`
and calls `changed()` when that changes. A line is a Rich Text or a list of (words, Style or None)
runs (a style as a Style or a string): the plot's rows, the token track, the heat map, the alignment
matrix and text whose lines fit (`text_runs`) skip Rich's Text.
"""
from __future__ import annotations

from functools import lru_cache, partial

from rich.cells import _is_single_cell_widths  # Rich's own test for one-cell letters
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.dom import NoScreen
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from rnntui.widgets.cells import cell_len, wrap as cells_wrap
from rnntui.widgets.quiet import compact, content_key, joined, repaint

EXTRA_ROWS = 9  # the least a figure's extra plot (widgets.plot.extra_plot) is drawn in: frame, tick labels,
# x label, legend, 4 rows of curves; here, for what lays out around one without importing the plot


def wrap(text: Text, width: int, console) -> list[Text]:
    """`text` wrapped at word boundaries to `width` cells, as Rich's `Text.wrap` does; lines that fit
    are only split at their newlines (most readouts; Rich divides every line word by word). Text with
    Chinese in it wraps as `cells.wrap` does, between Chinese characters too: Rich breaks at spaces
    only, and a readout ended its line early before a Latin word ("跌破 float32 最小正规数：" / …)."""
    text = compact(text.copy())
    width = max(width, 1)
    if text.justify in (None, "default") and "\t" not in text.plain:
        lines = text.split("\n", allow_blank=True)
        if all(line.cell_len <= width for line in lines):
            return list(lines)
        if not text.no_wrap and not text.plain.isascii() and any(cell_len(ch) == 2 for ch in text.plain):
            return [part for line in lines for part in _cells_wrapped(line, width)]
    if NBSP in text.plain:  # Rich breaks at a no-break space ("both < 1" / "ms"): held as a letter meanwhile
        return [_swapped(line, HELD, NBSP) for line in _swapped(text, NBSP, HELD).wrap(console, width)]
    return list(text.wrap(console, width))


NBSP, HELD = "\u00a0", "\ue000"  # (HELD: a private-use letter, one cell wide as NBSP is)


def _swapped(text: Text, old: str, new: str) -> Text:
    """`text` with one character replaced by another of the same width, styles kept."""
    out = text.copy()
    out.plain = text.plain.replace(old, new)
    return out


def _cells_wrapped(line: Text, width: int) -> list[Text]:
    """One line (no newline) cut where `cells.wrap` cuts its plain text, styles kept."""
    out, at = [], 0
    for part in cells_wrap(line.plain, width):
        start = max(line.plain.find(part, at), at) if part else at  # (cells.wrap only strips spaces)
        out.append(line[start:start + len(part)])
        at = start + len(part)
    return out


NULL = Style.null()


@lru_cache(maxsize=256)
def parsed(style: str) -> Style:
    """A style written as a string ("bold reverse", "rgb(…)"), parsed once."""
    return Style.parse(style)


def style_of(style: str | Style) -> Style:
    """A run's style as a Style, whether written as a string or given as one."""
    return parsed(style) if isinstance(style, str) else style


@lru_cache(maxsize=1024)
def styled(base: Style, style: str | Style | None, fold: tuple | None) -> Style:
    """A run's style on the widget's, through the folded filter (`folding`) when there is one: what
    Textual's filter would make of it, looked up once per (base, style)."""
    out = base + style_of(style) if style else base
    return fold[0].truecolor_style(out, fold[1].rich_color) if fold else out


def folding(filters, background) -> tuple | None:
    """(filter, background) to fold into the strips as they are made, when the app's one line filter is
    Textual's ANSI-to-truecolour (on unless the app shows ANSI colours): Textual filters each new strip
    into a second one, a new Strip per changed row (a third of drawing the rows, on three figures).
    None otherwise: then the filters run as Textual runs them."""
    if len(filters) == 1 and type(filters[0]) is ANSIToTruecolor:
        return filters[0], background
    return None


def text_runs(text: Text, get_style) -> list[list[tuple[str, Style | None]]] | None:
    """The text cut at its newlines into lines of (words, style) runs, when its spans are in order and
    apart (as readouts, pictures and labels build them); None otherwise (then Rich divides it).
    `get_style` turns a span's style (a name or a Style) into a Style. A readout drawn this way skips
    Rich's copy, split and per-line rendering, most of what a key cost it."""
    plain = text.plain
    base = get_style(text.style) if text.style else None
    pieces, at, end = [], 0, len(plain)
    for span in text.spans:
        if span.start < at or span.end > end:
            return None
        if span.start > at:
            pieces.append((plain[at:span.start], base))
        if span.end > span.start:
            pieces.append((plain[span.start:span.end], base + get_style(span.style) if base else get_style(span.style)))
        at = max(at, span.end)
    if at < end:
        pieces.append((plain[at:], base))
    lines: list[list] = [[]]
    for words, style in pieces:
        for k, part in enumerate(words.split("\n")):
            if k:
                lines.append([])
            lines[-1].append((part, style))
    return [joined(line) for line in lines]


def console_style(console):
    """`get_style` for `text_runs`: the console's (theme names too), a missing name unstyled."""
    return partial(console.get_style, default=NULL)


def cut_runs(text: Text, console) -> list | None:
    """A TextLines' text cut at its newlines into runs (`text_runs`); None when Rich must divide it
    (a tab, spans out of order)."""
    return text_runs(text, console_style(console)) if "\t" not in text.plain else None


def segments(line: Text, console, base: Style | None = None, fold: tuple | None = None) -> list[Segment]:
    """A line's segments as Rich's `Text.render` gives them, on `base` when given (and through the
    `fold`ed filter, see `folding`), but keeping the style of a line without spans (Rich drops it);
    spans in order and apart (as pictures and readouts build them) are cut straight (`text_runs`), the
    rest left to Rich (its stack of open styles cost half of a line's drawing)."""
    runs = text_runs(line, console_style(console)) if "\n" not in line.plain else None
    if runs is None:
        out = list(Segment.apply_style(line.render(console), base))
        if fold:
            out = [Segment(text, styled(style, None, fold) if style else style, control)
                   for text, style, control in out]
        return out
    if base is None:
        return [Segment(words, style) for words, style in runs[0]]
    return [Segment(words, styled(base, style, fold)) for words, style in runs[0]]


def fitted(segments: list[Segment], width: int, base: Style | None) -> Strip:
    """The segments as a strip exactly `width` cells wide, as `Strip.adjust_cell_length` makes it, but
    padded here: one Strip made, not two (a Strip sets up seven caches as it is made)."""
    length = sum(segment.cell_length for segment in segments)
    if length < width:
        return Strip([*segments, Segment(" " * (width - length), base)], width)
    return Strip(segments, length).adjust_cell_length(width, base)


def rstrip_runs(lines: list[list]) -> list[list]:
    """Lines of runs without trailing whitespace at the end, as Rich's `rstrip` of the whole text:
    blank last lines go, then the last line's trailing blanks (one empty line when all was blank)."""
    lines = list(lines)
    while len(lines) > 1 and not "".join(words for words, _style in lines[-1]).strip():
        lines.pop()
    last = list(lines[-1]) if lines else []
    while last and not last[-1][0].rstrip():
        last.pop()
    if last:
        last[-1] = (last[-1][0].rstrip(), last[-1][1])
    return lines[:-1] + [last]


def runs_text(lines, **text_args) -> Text:
    """Lines (each a Rich Text or (words, style) runs) as one Text."""
    out = Text(**text_args)
    for y, line in enumerate(lines):
        if y:
            out.append("\n")
        if isinstance(line, Text):
            out.append_text(line)
            continue
        for words, style in line:
            out.append(words, style=style)
    return out


def changed_span(old: Strip, new: Strip, width: int) -> tuple[int, int]:
    """The cells [x1, x2) of a row where two strips `width` cells wide differ. The runs both begin
    and end with are left out, then, inside the first and last runs that differ, the same-styled
    letters they begin or end with: a plot's cursor moving one cell repaints two cells of its row,
    not the row from there on. Either end falls between whole letters of both strips, never between
    a letter and its zero-width mark (an accent), nor inside an emoji sequence."""
    a, b = old._segments, new._segments
    plain = narrow("".join([run.text for run in a])) and narrow("".join([run.text for run in b]))
    start, x1, most = 0, 0, min(len(a), len(b))
    while start < most and a[start] == b[start]:
        x1 += a[start].cell_length
        start += 1
    while not plain and start and (is_mark(letter_after(a, start - 1)) or is_mark(letter_after(b, start - 1))):
        start -= 1  # what differs begins with a mark (an accent) of a letter in the runs left out: not out
        x1 -= a[start].cell_length
    end_a, end_b, x2 = len(a), len(b), width
    while (end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]
           and cell_len(a[end_a - 1].text[:1]) != 0):
        end_a, end_b = end_a - 1, end_b - 1
        x2 -= a[end_a].cell_length
    if start >= end_a or start >= end_b:
        return x1, max(x1, x2)
    head = tail = 0
    first_a, first_b, last_a, last_b = a[start], b[start], a[end_a - 1], b[end_b - 1]
    if first_a.style is first_b.style or first_a.style == first_b.style:
        head = same_start(first_a.text, first_b.text)
        if head and not plain:  # (rows of one-cell letters only, most rows, have no marks to mind)
            head = clear_of_marks(head, first_a.text + letter_after(a, start), first_b.text + letter_after(b, start))
    if last_a.style is last_b.style or last_a.style == last_b.style:
        one = last_a.text[head:] if end_a - 1 == start else last_a.text  # a run both first and last:
        other = last_b.text[head:] if end_b - 1 == start else last_b.text  # not counted twice
        tail = same_end(one, other)
        if tail and not plain:
            one = before(a, end_a - 1, last_a.text[:head] if end_a - 1 == start else "") + one
            other = before(b, end_b - 1, last_b.text[:head] if end_b - 1 == start else "") + other
            tail = ends_clear_of_marks(tail, one, other)
    fine_x1 = x1 + (head if plain else cell_len(first_a.text[:head]))
    fine_x2 = x2 - (tail if plain else cell_len(last_a.text[len(last_a.text) - tail:]))
    return (fine_x1, fine_x2) if fine_x1 < fine_x2 else (x1, max(x1, x2))


def letter_after(runs: list[Segment], i: int) -> str:
    """The first letter after run i (empty runs skipped), or ""."""
    for j in range(i + 1, len(runs)):
        if text := runs[j].text:
            return text[0]
    return ""


def is_mark(letter: str) -> bool:
    """A zero-width letter (an accent, a joiner): it belongs to the letter before it."""
    return letter >= "\u0300" and cell_len(letter) == 0  # (all before U+0300 are letters or spaces)


def before(runs: list[Segment], i: int, kept: str) -> str:
    """The letter before what is left of run i: the last of `kept` (its part left out in front), else
    of the runs before it (empty runs skipped), or ""."""
    return kept[-1:] or next((run.text[-1] for run in reversed(runs[:i]) if run.text), "")


@lru_cache(maxsize=4096)
def narrow(text: str) -> bool:
    """Every letter in Rich's table of one-cell letters (ASCII, Latin, Greek, box drawing, braille):
    no wide letter, no zero-width mark. Others ('…', '—') are measured letter by letter. Runs and
    rows recur from frame to frame (a changed row is the next key's old one): looked up, not scanned."""
    return _is_single_cell_widths(text)


def same_start(one: str, other: str) -> int:
    """How many letters two texts begin with alike (string comparisons by halving run in C: a loop
    over letters cost ~30 µs a row)."""
    if one.startswith(other) or other.startswith(one):  # a blank run grown or shrunk by a cell
        return min(len(one), len(other))
    low, high = 0, min(len(one), len(other)) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def same_end(one: str, other: str) -> int:
    """How many letters two texts end with alike."""
    return same_start(one[::-1], other[::-1])


def clear_of_marks(n: int, one: str, other: str) -> int:
    """A cut after the first n letters (alike in both), moved back until neither text has a zero-width
    mark (an accent) just after it; none in an emoji sequence (joined letters)."""
    if JOINERS & (set(one) | set(other)):
        return 0
    while n and any(n < len(text) and is_mark(text[n]) for text in (one, other)):
        n -= 1
    return n


def ends_clear_of_marks(n: int, one: str, other: str) -> int:
    """A cut before the last n letters (alike in both), moved on until the letters after it begin with
    no mark and neither text has a mark just before it (a crop ending there drops that mark); none in
    an emoji sequence."""
    if JOINERS & (set(one) | set(other)):
        return 0
    while n and (is_mark(one[-n]) or any(n < len(text) and is_mark(text[-1 - n]) for text in (one, other))):
        n -= 1
    return n


KEPT_STATES, KEPT_LOOKS = 8, 2  # a shown widget keeps its lines (drawn, wrapped) for this many states, in as many
# looks; hidden, none (kept in every figure, a walk through them all ended with 15 MB more)


def newest(kept: dict, key, value, most: int):
    """`value`, kept under `key` as the newest (last) of at most `most`: the oldest go."""
    kept.pop(key, None)
    kept[key] = value
    while len(kept) > most:
        del kept[next(iter(kept))]
    return value


JOINERS = frozenset("\u200d\ufe0f")  # zero-width joiner, emoji presentation: Rich measures the sequence


class Lines(Widget):
    _strips: tuple | None = None  # ((width, height, base, fold), strips, each line's content key)
    _base: Style | None = None  # the widget's style, looked up once per render (not once per line)
    _looked: tuple | None = None  # see _look
    _looks: dict | None = None  # {look: {line's key: strip}}: see _draw

    def lines(self, width: int, height: int) -> list[Text]:
        raise NotImplementedError

    def changed(self) -> None:
        """What the widget draws changed: draw it again at the next refresh. The new lines are drawn
        now and only the rows that differ from the shown ones are repainted (a cursor moving in a
        matrix repaints two rows, not the screen under the widget), each from its first changed cell
        to its last (`changed_span`; the app's screens send just those, chops.py). Under a notification rows
        are repainted to the widget's right edge: Textual would cut a wide character of the toast in
        two at the span's end and the terminal would lose it."""
        old, self._strips = self._strips, None
        width, height = self.size
        if old is None or old[0][:2] != (width, height) or not (width and height):
            self.refresh()
            return
        self._strips = new = self._draw(width, height, *old[0][2:])
        spans, toast = [], len(self.app._notifications) > 0
        for y in range(max(len(new[2]), len(old[2]))):  # rows past both are blank before and after
            if y >= len(new[2]) or y >= len(old[2]):
                spans.append((y, 0, width))
            elif new[2][y] is None or new[2][y] != old[2][y]:
                x1, x2 = changed_span(old[1][y], new[1][y], width)
                if x1 < x2:
                    spans.append((y, x1, width if toast else x2))
        regions = []
        for y, x1, x2 in spans:  # neighbouring rows with the same span as one region
            last = regions[-1] if regions else None
            if last and last.bottom == y and (last.x, last.right) == (x1, x2):
                regions[-1] = Region(x1, last.y, x2 - x1, last.height + 1)
            else:
                regions.append(Region(x1, y, x2 - x1, 1))
        if regions:
            self.repaint_rows(regions)

    def on_hide(self) -> None:
        self._looks = None  # (what it shows now stays: see KEPT_STATES)

    def repaint_rows(self, regions: list) -> None:
        """`refresh(*regions)` without its two messages: Textual has the widget prompt itself, then, idle,
        post an Update to its screen, which adds it to the widgets to draw; here it is added at once, as
        the screen's Update handler does (a key changing six widgets spent up to ~1 ms in those
        messages: a key came ~4% sooner, measured 1-12% by figure). Anywhere else (not mounted,
        hidden, no screen), `refresh`."""
        try:
            screen = self.screen
        except NoScreen:
            screen = None
        if (screen is None or self._closing or not self._is_mounted or not self.display
                or self not in screen._compositor):
            self.refresh(*regions)
            return
        self._layout_cache.clear()  # what refresh(*regions) clears, as it does
        self._set_dirty(*regions)
        self.clear_cached_dimensions()
        self._rich_style_cache.clear()
        screen._dirty_widgets.add(self)
        screen.check_idle()

    def forget(self) -> None:
        """What it draws changed while it has no size (hidden, or not laid out yet): no row kept. Shown
        again at the size it had, it would draw the rows kept from then (`changed` needs a size)."""
        self._strips = None

    def render(self) -> Text:  # the same lines, for anything that asks for a renderable
        return runs_text(self.lines(*self.size))

    def strip(self, line, width: int, base: Style, fold: tuple | None = None) -> Strip:
        """One line as a strip of exactly `width` cells on the widget's own style, through the `fold`ed
        filter when given. A line is a Rich Text or a list of (words, style) runs, a style being a
        Style, a string or None."""
        if isinstance(line, list):
            return fitted([Segment(words, styled(base, style, fold)) for words, style in line],
                          width, styled(base, None, fold))
        return fitted(segments(compact(line), self.app.console, base, fold), width, styled(base, None, fold))

    def key(self, line):
        """What makes two lines draw the same (None: cannot tell, draw it)."""
        if isinstance(line, list):
            return tuple(line)
        return content_key(line) if isinstance(line, Text) else None

    def _draw(self, width: int, height: int, base: Style, fold: tuple | None = None) -> tuple:
        """Each line as a strip (through the `fold`ed filter, when given), with its key; a line drawn
        in the same look (size, style, filter) for one of the last few states is not drawn again: a
        key stepping back and forth redraws no line (lstm/cell's rows took ~0.5 ms a key), in either of
        its last two looks (its plot is a row shorter where the gates' sums show)."""
        look = (width, height, base, fold)
        self._looks = looks = self._looks if self._looks is not None else {}
        drawn = newest(looks, look, looks.get(look) or {}, KEPT_LOOKS)
        strips, keys = [], []
        for line in self.lines(width, height)[:height]:
            key = self.key(line)
            keys.append(key)
            if key is None:
                strips.append(self.strip(line, width, base, fold))
                continue
            # (a line drawn twice, a bar's rows, is rendered once)
            strips.append(newest(drawn, key, drawn.get(key) or self.strip(line, width, base, fold),
                                 KEPT_STATES * max(height, 1)))
        return (width, height, base, fold), strips, keys

    def render_lines(self, crop):
        self._base, background, bare = self._look()
        try:
            if not bare:
                return super().render_lines(crop)
            # Textual's styles cache would wrap every strip in a new one (padding, borders, tint, none
            # here) and so filter it again at every frame; our strips keep their filtered copies, or are
            # made filtered (`folding`)
            filters, strips = self.get_line_filters(), []
            fold = folding(filters, background)
            width, height = self.size  # once, not per row (it walks up to the screen: ~15 µs)
            for y in crop.line_range:
                strip = self._row(y, width, height, self._base, fold)
                if not fold:
                    for line_filter in filters:
                        strip = strip.apply_filter(line_filter, background)
                strips.append(strip)
            x1, x2 = crop.column_span
            return strips if (x1, x2) == (0, self.size.width) else [strip.crop(x1, x2) for strip in strips]
        finally:
            self._base = None

    def _look(self) -> tuple:
        """(the widget's style, its background, whether it is bare), worked out again only when a style
        of the widget or of an ancestor changed (walking the ancestors' colours took ~80 µs a widget,
        at every frame). Textual's styles count their changes: their sum is the key."""
        key = tuple(node.styles._cache_key for node in self.ancestors_with_self)
        if self._looked is None or self._looked[0] != key:
            self._looked = (key, self.rich_style, self.background_colors[1], self._bare())
        return self._looked[1:]

    def _bare(self) -> bool:
        """Nothing around or over the lines: no border, padding, outline, tint, hatch or opacity."""
        styles = self.styles
        return (not any(styles.gutter) and not any(kind for kind, _color in styles.outline)
                and not styles.tint.a and styles.text_opacity == 1.0 and self.opacity == 1.0
                and not (styles.has_rule("hatch") and styles.hatch != "none"))

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        return self._row(y, width, height, self._base or self._look()[0])

    def _row(self, y: int, width: int, height: int, base: Style, fold: tuple | None = None) -> Strip:
        if self._strips is None or self._strips[0] != (width, height, base, fold):
            self._strips = self._draw(width, height, base, fold)
        strips = self._strips[1]
        return strips[y] if 0 <= y < len(strips) else Strip.blank(width, styled(base, None, fold))


class TextLines(Lines):
    """Text wrapped at word boundaries to the widget's width, as a Static shows it, drawn through
    `Lines` (a readout whose number changed repaints that row, with no detour through Textual's
    Content); as tall as its wrapped lines. `update(text)` replaces it; an equal text does nothing."""

    DEFAULT_CSS = "TextLines { height: auto; }"

    _text: Text = Text()
    _shown: tuple | None = None
    _wrapped: tuple | None = None  # (width, lines)
    _divided: dict | None = None  # {(divided_by(), width): lines} of the texts shown lately

    def update(self, content: Text | str = "") -> None:
        text = content if isinstance(content, Text) else Text(content)
        key = content_key(text)
        if key == self._shown:
            return
        self._shown = key

        def apply() -> None:
            self._text, self._wrapped = text, None

        repaint(self, apply)

    def wrapped(self, width: int) -> list:
        if self._wrapped is None or self._wrapped[0] != width:
            self._divided = kept = self._divided if self._divided is not None else {}
            key = (self.divided_by(), width)
            lines = kept.get(key) or (self.divide(width) if self._text.plain else [])
            self._wrapped = (width, newest(kept, key, lines, KEPT_STATES))
        return self._wrapped[1]

    def on_hide(self) -> None:  # (Lines.on_hide runs too: Textual calls each class's handler)
        self._divided = None

    def divided_by(self) -> tuple:
        """What `divide` depends on besides the width: a text shown before is not wrapped again (lstm/cell's
        four readouts took ~1 ms a key)."""
        return self._shown

    def divide(self, width: int) -> list:
        """The text as lines at this width (here: wrapped at word boundaries); runs when every line
        fits (see `text_runs`)."""
        text = self._text
        if text.justify in (None, "default"):
            runs = cut_runs(text, self.app.console)
            if runs is not None and all(sum(cell_len(words) for words, _style in line) <= width for line in runs):
                return runs
        return wrap(text, width, self.app.console)

    def lines(self, width: int, height: int) -> list:
        return self.wrapped(width)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.wrapped(width))

    def get_content_width(self, container, viewport) -> int:
        return max(map(cell_len, self._text.plain.split("\n")), default=0)  # no Text per line


class TailedLine(TextLines):
    """One line of text and after it the first of some tails (a gloss, then a shorter one) that the
    line has room for; none where none fits."""

    _tails: tuple = ()

    def update(self, content: Text | str = "", *tails: Text) -> None:
        text = Text("").join([content if isinstance(content, Text) else Text(content), *tails])
        key = content_key(text)
        if key == self._shown:
            return
        self._shown = key

        def apply() -> None:
            self._text, self._tails, self._wrapped = text, tails, None

        repaint(self, apply)

    def divided_by(self) -> tuple:
        return self._shown, tuple(map(content_key, self._tails))

    def divide(self, width: int) -> list:
        keep = len(self._text) - sum(map(len, self._tails))
        tail = next((t for t in self._tails if self._text[:keep].cell_len + t.cell_len <= width), Text(""))
        return wrap(self._text[:keep] + tail, width, self.app.console)


class RenderedLines(Lines):
    """A Rich renderable (tables, groups) rendered to lines once per width and drawn through `Lines`;
    as tall as those lines. A Static hands it to Textual, which renders it whole to measure its height
    and again to draw it, at every layout: help's tables (~10 ms a rendering) were rendered four times
    as help opened. Given a `key` (what the renderable shows, hashable), the lines are also kept for the
    next widget with that key: help is a new screen at every `?`, and its rendering was ~11 ms of the
    ~25 ms it took to open."""

    DEFAULT_CSS = "RenderedLines { height: auto; }"
    KEPT = 8  # renderings kept across widgets, the newest
    _kept: dict = {}  # (key, width) -> lines

    def __init__(self, renderable, key=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._renderable = renderable  # fixed: a new one, a new widget (help recomposes)
        self._key = key
        self._rendered: tuple | None = None  # (width, lines)

    def rendered(self, width: int) -> list:
        if self._rendered is None or self._rendered[0] != width:
            kept = self._kept.pop((self._key, width), None) if self._key is not None else None
            if kept is None:
                console = self.app.console
                options = self.app.console_options.update(width=max(width, 1), highlight=False)
                kept = [[(s.text, s.style) for s in line if not s.control]
                        for line in console.render_lines(self._renderable, options, pad=False)]
            if self._key is not None:
                newest(self._kept, (self._key, width), kept, self.KEPT)
            self._rendered = (width, kept)
        return self._rendered[1]

    def lines(self, width: int, height: int) -> list:
        return self.rendered(width)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.rendered(width))
