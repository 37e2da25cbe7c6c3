"""Every number format the app shows, in one place. Each takes a number (or None) and returns text;
none raises on NaN, inf or a huge value."""
from __future__ import annotations

import math


def _finite(v) -> str | None:
    """The word for a value that is not a finite number, else None."""
    if v is None:
        return "–"
    try:
        v = float(v)
    except (TypeError, ValueError, OverflowError):
        return "–"
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return None


def sci(v: float) -> str:
    """A number that may be tiny, huge, 0, inf or NaN, in a few characters: 0.057, 3.40e+38."""
    if (word := _finite(v)) is not None:
        return word
    if v == 0:
        return "0"
    return f"{v:.4g}" if 1e-3 <= abs(v) < 1e4 else f"{v:.2e}"


def sci3(v: float) -> str:
    """Three significant digits, scientific outside 0.01 … 1000, so a table's column reads alike:
    1.68, 15.0, 378, 0.0610; 5.68e-04, 4.10e+03 (`sci` gave 1.677, 15.6, 83.93 and 0.001808)."""
    if (word := _finite(v)) is not None:
        return word
    if v == 0:
        return "0"
    return f"{v:#.3g}".rstrip(".") if 1e-2 <= abs(v) < 999.5 else f"{v:.2e}"


def three(v: float) -> str:
    """Three decimals, or two significant figures where those would read 0.000 and it is not 0: 0.057,
    -0.380, 1.9e-05 (gradients/backward wrote ∂h₇/∂h₀ = 1.86e-05 at W_h 2 as a true 0 reads, a maths audit)."""
    if (word := _finite(v)) is not None:
        return word
    v = float(v)
    return f"{v:.1e}" if 0 < abs(v) < 0.0005 else f"{zeroed(v, 3):.3f}"


def small(v: float) -> str:
    """Four decimals while that still shows two digits, scientific below: 0.0019, 9.54e-07."""
    if (word := _finite(v)) is not None:
        return word
    return f"{v:.4f}" if v == 0 or abs(v) >= 1e-3 else f"{v:.2e}"


def power_base(x: float, k: int, shown, least: int = 2, most: int = 8) -> str:
    """x to the fewest decimals (from `least`) whose k-th power `shown` writes as it writes x**k: in
    "σ(2)^80 = 0.8808^80 = 3.9e-05" (it read 0.88^80, which is 3.6e-05: a code review)."""
    if (word := _finite(x)) is not None or abs(x) > 1:  # (a gate: 0 … 1)
        return word or f"{x:g}"
    want = shown(x ** k)
    for digits in range(least, most + 1):
        text = f"{x:.{digits}f}"
        if shown(float(text) ** k) == want:
            break
    return text


def paren(v: float, digits: int = 3) -> str:
    """A factor in a written-out product, negative values in brackets: 0.416·(-0.108)."""
    if (word := _finite(v)) is not None:
        return word
    v = zeroed(v, digits)
    return f"{v:.{digits}f}" if v >= 0 else f"({v:.{digits}f})"


def term(v: float, digits: int = 2) -> str:
    """A term after the first in a written-out sum, its sign as the operator: "+ 0.80", "- 0.20" (it
    read "+ -0.20")."""
    if (word := _finite(v)) is not None:
        return "- inf" if word == "-inf" else f"+ {word}"
    return ("- " if zeroed(v, digits) < 0 else "+ ") + f"{abs(v):.{digits}f}"


def vector(values) -> str:
    """A short vector: whole numbers as they are, others with two decimals: (24, -36, 72)."""
    return "(" + ", ".join(f"{x:g}" if float(x).is_integer() else f"{x:.2f}" for x in values) + ")"


def short_vector(values, digits: int = 2, most: int = 5) -> str:
    """(a, b, c) — at most `most` entries, then …; digits 0: as short as the number allows."""
    shown = [sci(v) if digits == 0 else fixed(v, digits) for v in values[:most]]
    return "(" + ", ".join(shown) + (", …" if len(values) > most else "") + ")"


def signed_vector(values) -> str:
    """A vector's entries with their signs, three decimals, space apart: +0.412 -0.108 +0.031."""
    return " ".join(f"{v:+.3f}" for v in values)


def at_hop(hop: int | None) -> str:
    """Where something first happens along a chain: hop 189, or never (in the current language)."""
    from rnntui.i18n import _

    return _("never") if hop is None else _("hop {k}").format(k=hop)


def count(n: float) -> str:
    """A parameter count: 2.10M, 6.3K, 512. The unit is chosen on the rounded value (999,950 is 1.00M)."""
    if (word := _finite(n)) is not None:
        return word
    return f"{n / 1e6:.2f}M" if n >= 999_950 else f"{n / 1e3:.1f}K" if n >= 999.5 else f"{n:.0f}"


def si(x: float) -> str:
    """3 significant digits with a k/M/G/T/P suffix: 537M, 4.29G. Rounded before the suffix is chosen
    (999,600 read "1e+03k", and attention/block's 1.13e15 FLOPs "1.13e+03T": a code review)."""
    if (word := _finite(x)) is not None:
        return word
    x = float(f"{x:.3g}")
    for div, unit in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


def ms(seconds: float) -> str:
    """A duration in milliseconds, three figures: 0.412 ms, 20.0 ms, 228 ms."""
    if (word := _finite(seconds)) is not None:
        return word
    value = seconds * 1e3
    text = f"{value:#.3g}"  # three figures, trailing zeros kept: 20.0 beside 21.2, 0.350 beside 0.745 (a trial)
    return f"{value:.0f} ms" if value >= 99.95 else f"{text.rstrip('.')} ms"


def pct(x: float | None, digits: int = 1, tiny: bool = False) -> str:
    """A fraction as a percentage with one decimal (or `digits`), halves rounded up as `figures` does:
    78.2%, and 79.1% for 3162/4000 (the float under 79.05 is a hair less: it read 79.0%, a numbers audit).
    `tiny`: a share above 0 and under 1% is given to two figures (0.0098%, not 0.0%; 0.078%, not 0.1%, 28% more:
    numbers audits)."""
    from decimal import ROUND_DOWN, ROUND_HALF_UP, Context, Decimal

    if (word := _finite(x)) is not None:
        return word if word != "NaN" else "–"
    # (the shortest decimal of x itself: 100·x in floats lost the half of 29/400, 7.2%, a review)
    exact, unit, context = Decimal(repr(float(x))).scaleb(2), Decimal(1).scaleb(-digits), Context(prec=999)
    rounded = exact.quantize(unit, rounding=ROUND_HALF_UP, context=context)  # (1e300: every digit)
    if tiny and 0 < exact < 1:  # (two figures of the share: 0.0995 is 0.10, not 0.100; 0.996 is 1.0, the review)
        rounded = Context(prec=2, rounding=ROUND_HALF_UP).create_decimal(exact)
        rounded = rounded.quantize(Decimal(1).scaleb(rounded.adjusted() - 1))  # (a trailing 0 kept: 0.010%)
    if rounded == 100 and exact < 100:  # short of all, never "100.0%": 1999 of 2000 read 100.0% where learning
        rounded = exact.quantize(unit, rounding=ROUND_DOWN, context=context)  # needs all (a student's trial)
    return f"{rounded:f}%"


def share(x: float, digits: int = 4, most: int = 5) -> str:
    """x whole where `most` significant figures hold it exactly (1.5625, 0.78125, 3.125), else to `digits`
    (33.33, 1.707: five figures, 1.7067 and 0.39063, read as noise beside the app's three or four, a student's trial)."""
    from decimal import Decimal

    exact = figures(x, most)
    return exact if _finite(x) is None and Decimal(exact) == Decimal(repr(float(x))) else figures(x, digits)


def figures(x: float, digits: int = 5) -> str:
    """x to `digits` significant figures, halves rounded up, no trailing zeros: 2, 0.125, 170.67, and
    0.39063 for 0.390625 (Python's 0.39062 rounds the exact half down, to even: a student's trial)."""
    from decimal import ROUND_HALF_UP, Decimal

    if (word := _finite(x)) is not None:
        return word
    if x == 0:
        return "0"  # (not "-0")
    if not 1e-4 <= abs(x) < 1e6:  # (no run of zeros)
        return f"{x:.{digits}g}"
    exact = Decimal(repr(float(x)))
    rounded = exact.quantize(Decimal(1).scaleb(exact.adjusted() - digits + 1), rounding=ROUND_HALF_UP)
    return format(rounded.normalize(), "f")


def times(x: float, more: str, less: str) -> str:
    """A ratio in words: 5.5× faster, or 2× slower when below 1 (180×, not 1.8e+02×); `more` and `less`
    are templates with {x} (Chinese puts the word first: 速度是 attention 的 3.6 倍)."""
    if (word := _finite(x)) is not None or x == 0:
        return word or "–"
    big = x if x >= 1 else 1 / x
    if (word := _finite(big)) is not None:
        return word
    return (more if x >= 1 else less).format(x=_two(big))


def _two(x: float) -> str:
    """Two significant digits, whole with separators from 100 to a million: 5.5, 6.0, 18, 180, 1,800, 1.2e+07."""
    short = f"{x:.2g}"
    if "e" in short:
        return f"{float(short):,.0f}" if x < 1e6 else short
    return f"{x:#.2g}".rstrip(".")  # (a trailing zero kept: 6.0× beside 3.6×, a trial)


def ratio(x: float) -> str:
    """How many times: 3 significant digits (more where 3 would read 1 and it is not), whole with separators
    from 1000 on ("2,048", not "2.05e+03")."""
    if (word := _finite(x)) is not None:
        return word
    short = f"{x:.3g}"
    if short == "1" and x != 1:  # (513/512 read "attention 1× cheaper": an engineer's reading)
        short = next((f"{x:.{n}g}" for n in (4, 5, 6) if f"{x:.{n}g}" != "1"), short)
    return f"{x:,.0f}" if "e" in short else short  # (999.5 rounds to "1e+03": the cut is after rounding)


def share_words(ratio) -> str:
    """A ratio of FLOPs (a Fraction) in words: the same FLOPs, 1/16 of the FLOPs, 4× the FLOPs."""
    from rnntui.i18n import _

    if ratio == 1:
        return _("the same FLOPs")
    return (_("{ratio} of the FLOPs") if ratio < 1 else _("{ratio}× the FLOPs")).format(ratio=ratio)


def binary_bytes(n: float) -> str:
    """Bytes in binary units, as memory is sold: 256 KiB, 64 GiB."""
    if (word := _finite(n)) is not None:
        return word
    for div, unit in ((2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if abs(n) >= div:
            return f"{n / div:.4g} {unit}"
    return f"{n:.0f} B"


def grouped(n: float) -> str:
    """A whole number with thousands separators: 68,719,476,736."""
    if (word := _finite(n)) is not None:
        return word
    return f"{n:,.0f}"


def progress_bar(done: int, total: int, width: int = 16) -> str:
    """▕████░░░░▏-style bar body for done of total."""
    filled = 0 if total <= 0 else round(width * min(max(done / total, 0.0), 1.0))
    return "█" * filled + "░" * (width - filled)


def fixed(v, digits: int = 2) -> str:
    """A matrix entry with a fixed number of decimals: 0.649, -1.25; −∞ for a masked score, NaN, and
    never "-0.00"."""
    if v is None:
        return ""
    try:
        v = float(v)
    except (TypeError, ValueError):
        return "–"
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return f"{zeroed(v, digits):.{digits}f}"


def zeroed(v: float, digits: int) -> float:
    """`v`, or 0.0 where it shows as zero to `digits` decimals: never "-0.000" (-0.0003 in recurrence/track's
    cell and sum, -0.028 in serving/wayback's state as "-0.0": an engineer's reading)."""
    return 0.0 if round(v, digits) == 0 else v


def factor(v: float, digits: int = 3) -> str:
    """A per-hop factor to `digits` decimals, with more where that would read 1 but it is not:
    1.0004 (gradients/factors said "1.000 grows" at W_h 1.20, a student's trial)."""
    if (word := _finite(v)) is not None:
        return word
    text = f"{v:.{digits}f}"
    while abs(float(text)) == 1.0 and abs(v) != 1.0 and digits < 8:
        digits += 1
        text = f"{v:.{digits}f}"
    return text


def acc_at(acc, reached=None) -> str:
    """A final accuracy and the step it first read 100%: 100@300, 99.9@300, 8.4✗ (never), 100@? (the
    source does not say when), – (no run)."""
    if acc is None or _finite(acc) is not None:
        return "–"
    # rounded as `pct` (a run's 0.1755 read 17.5✗ beside its "acc 17.6%", and 0.9995 read 100.0✗, a CLI trial)
    value = "100" if acc >= 1.0 else pct(acc).removesuffix("%")
    if reached is None or (reached == "?" and acc < 1.0):
        return value + "✗"
    return f"{value}@{reached}"


def sig(v, digits: int = 2) -> str:
    """A closed form to `digits` significant digits: 0.079, 0.0062, 9.5e-07."""
    if (word := _finite(v)) is not None:
        return word
    return f"{v:.{digits}g}"


def rate(v: float) -> str:
    """One decimal, or two figures below 1: 12.3, 0.42, 0.035 (a measured 0.035 GFLOP/s read "0.0", a trial)."""
    if (word := _finite(v)) is not None:
        return word
    return f"{v:.1f}" if abs(v) >= 0.95 or v == 0 else f"{v:.2g}"


def plural(n, word: str = "") -> str:
    """"1 thread", "4 threads" (a count that is not a number is shown as it is)."""
    return f"{n} {word}{'' if n == 1 else 's'}".rstrip()
