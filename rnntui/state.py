"""Figure state as data: frozen dataclasses whose fields are bounded, typed parameters.

A field made with `param(...)` carries its range and notch. Keys, the command palette and
`--set KEY=VALUE` all go through `FigureState.with_value`, the one place values are checked.
"""
from __future__ import annotations

import bisect
import math
import re
import unicodedata
from fractions import Fraction
from dataclasses import MISSING, asdict, dataclass, field, fields, is_dataclass, replace
from typing import Any, ClassVar

from rnntui.i18n import _, commas


PRESSES = 20  # a coarse press (←/→, +/-) crosses any range in at most this many presses


class BadValue(ValueError):
    """A parameter name or value the figure does not accept; the message is one line."""


def said(template: str, **words) -> str:
    """An N_-marked template in the reader's language now, its words filled in (the engine has no `_`)."""
    return _(template).format(**words)


class Said(str):
    """An N_-marked template and its words (Said ones among them), said in the reader's language each time
    it is shown, as str() or in a format: a cache's line, kept, stayed in the language it was read in after
    the palette switched it (a review). As a str (compared, searched, joined with +) it is the English."""

    def __new__(cls, template: str, **words) -> "Said":
        english = template.format(**{k: v.english() if isinstance(v, Said) else v for k, v in words.items()})
        self = super().__new__(cls, english)
        self.template, self.words = template, words
        return self

    def english(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:  # (Said words are said too: str.format formats each)
        return said(self.template, **self.words)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Marked(BadValue):
    """A BadValue raised where nothing translates (the engine): an N_-marked template and its words,
    said in the reader's language when shown (a damaged install's line was English among Chinese)."""

    def __init__(self, template: str, **words) -> None:
        super().__init__(template.format(**words))
        self.template, self.words = template, words

    def __str__(self) -> str:
        return said(self.template, **self.words)

    def english(self) -> str:
        """As written, for an output that cannot take the reader's language (a Latin-1 terminal)."""
        return self.template.format(**self.words)


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "float", "int" or "choice"
    lo: float | str = 0.0  # a number, or the name of a state attribute (a bound that depends on the state)
    hi: float | str = 1.0
    notch: float = 1.0
    choices: tuple[str, ...] = ()
    label: str = ""
    key: str = ""  # a letter that cycles a choice
    fmt: str = ".2f"
    coarse: float = 0.0  # what one press moves (0: automatic, see `coarse_notch`); `notch` is the fine step
    log: bool = False  # a press moves along a ladder: powers of 2 (whole numbers) or 1-2-5 (decimals)
    values: tuple = ()  # the only values it takes, in order: a press moves to the next one, others are refused
    does: str = ""  # the footer's words for its letter key where the label alone does not say (x: "redraw x₃ x₄")
    names: tuple[str, ...] = ()  # words for the whole values 0, 1, …: shown after the number, typed for it
    means: str | tuple = ""  # what its values are, for help (N_-marked English; a tuple: one per choice, each
    # said after its choice, so a figure with fewer choices says only theirs): "gqa 1" read as jargon
    # (attention/masks read "←→ family 0", a trial)
    grid: bool = False  # only lo + k·notch: its figure was measured there (memory/copy's steps), so a value
    # between read as its neighbour ("step 150" drew step 100, a lecturer's trial)
    draw: bool = False  # each value is a random draw (a seed, a held-out sample), not a scale: a press is the
    # next one, not a 20th of the range (+ jumped from seed 0 to 50, a trial)

    @property
    def said(self) -> str:
        """Its label as shown, in the reader's language: a word translated (step: 步), a symbol as it is (W_h);
        the parameter line said "cell lstm-bf1 T 40 step 6000" among Chinese (a lecturer's trial)."""
        return _(self.label)

    def bounds(self, state: Any) -> tuple[float, float]:
        lo = getattr(state, self.lo) if isinstance(self.lo, str) else self.lo
        hi = getattr(state, self.hi) if isinstance(self.hi, str) else self.hi
        return lo, hi

    def ticks(self, state: Any) -> float:
        """Fine presses from lo to hi, the steps `space` plays through: one per listed value after the
        first, else one per notch."""
        lo, hi = self.bounds(state)
        if self.values:
            return max(sum(lo <= value <= hi for value in self.values) - 1, 1)
        return max((hi - lo) / self.notch, 1)

    def coarse_notch(self, state: Any) -> float:
        """One key press: `coarse` if given, else the notch, grown to a round multiple (×2, ×5, ×10,
        …) so that lo reaches hi in at most PRESSES presses; shift+←/→ keep the fine notch."""
        if self.coarse or self.draw:
            return self.coarse or self.notch
        lo, hi = self.bounds(state)
        need = math.ceil((hi - lo) / self.notch / PRESSES - 1e-9)
        factor, rungs = 1, (2, 5 / 2, 2)  # 1, 2, 5, 10, 20, 50, …
        while factor < need:
            factor = round(factor * rungs[0])
            rungs = rungs[1:] + rungs[:1]
        return self.notch * factor

    def ladder(self, value: float, notches: int, lo: float, hi: float) -> float:
        """`value` moved `notches` rungs along the log ladder (snapping to a rung first)."""
        rungs = (1, 2) if self.kind == "int" else (1, 2, 5)
        values, e = [], math.floor(math.log10(max(lo, 1e-12))) - 1
        while not values or values[-1] < hi:
            values += [r * 10.0 ** e for r in rungs] if self.kind != "int" else [2.0 ** e]
            e += 1
        values = sorted({min(max(v, lo), hi) for v in values if v > 0} | {lo, hi})
        new = value
        for _rung in range(abs(notches)):
            new = next((v for v in values if v > new * (1 + 1e-9)), hi) if notches > 0 else \
                next((v for v in reversed(values) if v < new * (1 - 1e-9)), lo)
        return new

    def allowed(self, state: Any) -> str:
        if self.kind == "choice":
            return _("one of {choices}").format(choices=commas(self.choices))
        if self.values:
            return _("one of {choices}").format(choices=commas(self.typed(v) for v in self.values))
        if self.names:
            return _("one of {choices}").format(choices=commas(self.show(v) for v in range(len(self.names))))
        lo, hi = self.bounds(state)
        words = {"lo": self.typed(lo), "hi": self.typed(hi), "notch": f"{self.notch:g}", "places": self.places()}
        if self.grid and self.off_grid(hi, lo):  # a run's last step off the grid: the grid's last, then it
            last = lo + math.floor((hi - lo) / self.notch + 1e-9) * self.notch
            words["last"] = self.typed(int(round(last)) if self.kind == "int" else last)
            text = _("a whole number from {lo} to {last} in steps of {notch}, or {hi}")
        elif self.grid:
            text = _("a whole number from {lo} to {hi} in steps of {notch}")
        elif self.kind == "int":
            text = _("a whole number from {lo} to {hi}")
        elif self.places() is not None:
            text = _("a number from {lo} to {hi} with at most {places} decimals")
        else:
            text = _("a number from {lo} to {hi}")
        return text.format(**words)

    def off_grid(self, number: float, lo: float) -> bool:
        """Whether a number is not lo + k·notch."""
        notches = (number - lo) / self.notch
        return abs(notches - round(notches)) > 1e-9

    def places(self) -> int | None:
        """The decimals a float is shown with (its fmt's .Nf), or None: more than these is refused, since
        every place it is shown would round it ("γ 0.95" computed with 0.955, a lecturer's trial)."""
        return int(self.fmt[1:-1]) if self.kind == "float" and self.fmt[:1] == "." and self.fmt[-1:] == "f" \
            and self.fmt[1:-1].isdigit() else None

    def typed(self, value: Any) -> str:
        """A value as `parse` takes it: a number without thousands commas (context listed 1,024 and refused
        it, a trial; the palette's prompt was filled with 4,096, a review)."""
        if self.kind == "choice" or self.names:
            return self.show(value)
        return f"{value:{self.fmt.replace(',', '')}}"

    def expected(self, text: Any, state: Any) -> "BadValue":
        return BadValue(_("{name}={value}: expected {allowed}").format(name=self.name, value=text,
                                                                       allowed=self.allowed(state)))

    def refused(self, text: Any, state: Any) -> str:
        """`expected` as the app says it, by the label it shows: "steps 999", not the --set key's "k=999"."""
        return _("{name} {value}: expected {allowed}").format(name=self.said, value=text, allowed=self.allowed(state))

    def parse(self, text: str, state: Any) -> Any:
        """Turn text (or a number) into a checked value, or raise BadValue. Text typed with a Chinese
        input method is read as it reads: full-width digits and letters (１．４), 。 and − (NFKC)."""
        if isinstance(text, str):
            text = unicodedata.normalize("NFKC", text).replace("。", ".").replace("−", "-").strip()
        if self.kind == "choice":
            value = str(text).strip().lower()
            if value not in self.choices:  # a number matches its listed spelling: c=1 is c's "1.0"
                value = next((c for c in self.choices if _number(c) is not None and _number(c) == _number(value)), None)
            if value is None:
                raise self.expected(text, state)
            return value
        if self.names and isinstance(text, str):  # a name (English or the language shown), or the number and
            # its name; any dash, any run of spaces (encoder–decoder, as the prose writes it, was refused: a review)
            said = {_plain(w): v for v in range(len(self.names)) for w in (self.names[v], _(self.names[v]), self.show(v))}
            text = said.get(_plain(text), text)
        try:
            number = float(digits(text) if isinstance(text, str) else text)
        except (TypeError, ValueError):
            raise self.expected(text, state) from None
        if not math.isfinite(number) or (self.kind == "int" and number != int(number)):
            raise self.expected(text, state)
        lo, hi = self.bounds(state)
        if not lo - 1e-9 <= number <= hi + 1e-9 or (self.values and number not in self.values):
            raise self.expected(text, state)
        places = self.places()
        if (places is not None and abs(round(number, places) - number) > 1e-9) or (
                self.grid and self.off_grid(number, lo) and number != hi):  # (a run's last step may be off it)
            raise self.expected(text, state)
        number = min(max(number, lo), hi)
        # (+ 0.0: -0 read "W_h -0.00", a trial; to its places: 1e-9 was kept, shown as W_h 0.00, and drawn as not 0)
        return int(number) if self.kind == "int" else round(number, 10 if places is None else places) + 0.0

    def show(self, value: Any) -> str:
        if self.kind == "choice":
            return str(value)
        if self.names and value in range(len(self.names)):
            return f"{value:{self.fmt}} {_(self.names[value])}"
        return f"{value:{self.fmt}}"


def digits(text: str) -> str:
    """`text`, or ValueError where it has a digit separator, which int() and float() take: 1_0 was read as 10,
    a typo taken (--set threshold=1_0, an engineer's reading; --steps 1_0, a review)."""
    if "_" in text:
        raise ValueError(text)
    return text


def power_step(value: float, notches: int, base: int = 2) -> int:
    """The next power of `base` above (notches > 0) or below (notches < 0) value, `notches` powers on."""
    e = math.log(value, base) if value > 0 else 0.0
    e = math.floor(e + 1e-9) + 1 if notches > 0 else math.ceil(e - 1e-9) - 1
    return int(round(base ** (e + (notches - 1 if notches > 0 else notches + 1))))


def via_home(value: float, notches: int, press, home) -> float:
    """`value` moved `notches` presses, each `press(value, +1 or -1)`, stopping at `home` (the default) where a
    press would pass it: a default off the presses' grid or ladder comes back without r."""
    new, up = value, notches > 0
    for _press in range(abs(notches)):
        nxt = press(new, 1 if up else -1)
        new = home if home is not None and (new < home < nxt if up else nxt < home < new) else nxt
    return new


def _plain(text: str) -> str:
    """A name as typed, compared: lower case, every dash a hyphen, spaces single."""
    return " ".join(re.sub(r"[‐‑‒–—−]", "-", text).lower().split())


def _number(text: str) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _shown(label: str) -> str:
    """A label or key as typed on a command line: case and the word separators (space, _, -) aside."""
    return " ".join(label.replace("_", " ").replace("-", " ").lower().split())


def param(default: Any, kind: str = "float", **spec: Any) -> Any:
    """A dataclass field that is a figure parameter."""
    return field(default=default, metadata={"param": (kind, spec)})


@dataclass(frozen=True)
class FigureState:
    """Base of every figure's state. `AXIS` names the parameter that ←/→/home/end move."""

    AXIS: ClassVar[str] = "step"
    # (name, value) of each parameter a narrower range pulled in, given back as the range widens again: tokens
    # 8 → 6 → 8 left parallel/grid at "wallclock 6", parallel/path's k at 7 of 12 (a power user's trial)
    held: tuple = field(default=(), compare=False, repr=False)
    # its first reading takes tens of ms and is pure numpy (no files): `topics.preload` computes the
    # default state's in the background, so the figure's first visit does not wait for it
    READ_AHEAD: ClassVar[bool] = False

    @classmethod
    def params(cls) -> tuple[Param, ...]:
        found = []
        for f in fields(cls):
            if "param" in f.metadata:
                kind, spec = f.metadata["param"]
                found.append(Param(name=f.name, kind=kind, **{"label": f.name, **spec}))
        return tuple(found)

    def axis_shown(self) -> str:
        """The axis's value as the parameter line shows it after ←→ and its label."""
        return self.shown(self.AXIS)

    def shown(self, name: str) -> str:
        """A parameter's value as the parameter line shows it (a state may say more: what is drawn)."""
        return self.param(name).show(getattr(self, name))

    def press_base(self, name: str) -> int | None:
        """The base of the powers a press moves `name` along (a whole-number log ladder: 2); None where a
        press adds a step. States whose GEOMETRIC parameters step by factors say theirs."""
        p = self.param(name)
        return 2 if p.log and p.kind == "int" else None

    @classmethod
    def param(cls, name: str) -> Param:
        params = cls.params()
        for p in params:
            if p.name == name:
                return p
        raise BadValue(_("unknown key {name!r}: this figure takes {keys}").format(name=name, keys=cls.keys_text()))

    @classmethod
    def keys_text(cls) -> str:
        """Its keys as --set takes them, each with its label where the screen shows another: "step (t)"."""
        return commas(p.name + (f" ({p.label})" if _shown(p.label) != _shown(p.name) else "")
                      for p in cls.params()) or _("none")

    @classmethod
    def name_of(cls, key: str) -> str:
        """The parameter a typed key means: its name, or else its name or what the screen shows for it (its
        label: `steps` for k, `W_h` for w_h) in any case, a space in it typed as _ or - (Step=3 was unknown
        where W_H=1 was taken: a student's trial); BadValue naming both."""
        typed = _shown(key)  # (or as the screen shows it in Chinese: --list says 读出头)
        shown = [p.name for p in cls.params() if p.name == key] or [
            p.name for p in cls.params() if typed in (_shown(p.name), _shown(p.label), _shown(_(p.label)))]
        return shown[0] if len(shown) == 1 else cls.param(key).name

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {f.name: f.default for f in fields(cls) if f.default is not MISSING}

    def with_value(self, name: str, value: Any) -> "FigureState":
        """A new state with one parameter set; checks the value, raises BadValue."""
        checked = self.param(name).parse(value, self)
        state = replace(self, **{name: checked})
        return self.kept(name, state)

    def kept(self, name: str, new: "FigureState") -> "FigureState":
        """`new`, this state with `name` set (by the user: not held any more), the values held given back as
        far as their ranges now allow, and pulled into range: a value held stays held until given back whole."""
        if not self.held:  # (the usual key: nothing to give back, no second state made)
            return new.clamped()
        held = dict(self.held)
        held.pop(name, None)
        back = {}
        for other, wanted in held.items():
            lo, hi = new.param(other).bounds(new)
            back[other] = min(max(wanted, lo), hi)
        return replace(new, **back, held=tuple((n, v) for n, v in held.items() if back[n] != v)).clamped()

    def clamped(self) -> "FigureState":
        """Pull every value back inside its (possibly state-dependent) range, holding what it was (`held`)."""
        changes = {}
        for p in self.params():
            if p.kind == "choice":
                continue
            lo, hi = p.bounds(self)
            value = getattr(self, p.name)
            if not lo <= value <= hi:
                changes[p.name] = min(max(value, lo), hi)
        if not changes:
            return self
        held = {**{n: getattr(self, n) for n in changes}, **dict(self.held)}  # (the first value held wins)
        return replace(self, **changes, held=tuple(held.items()))

    def nudged(self, name: str, notches: int, fine: bool = False) -> "FigureState":
        """Move a parameter by whole presses, staying in range. A press is the coarse notch (a
        round multiple of the notch, landing on multiples of it; or a rung of the log ladder);
        `fine` moves by the notch itself. A choice moves along its list and stops at the ends
        (letter keys wrap instead: `cycled`)."""
        p = self.param(name)
        value = getattr(self, name)
        if p.kind == "choice":
            i = min(max(p.choices.index(value) + notches, 0), len(p.choices) - 1)
            return self.kept(name, replace(self, **{name: p.choices[i]}))
        if p.values:  # the next listed value (a value between two snaps to its neighbour first)
            i = bisect.bisect_left(p.values, value)
            i = (i if value in p.values else i - (notches > 0)) + notches
            return self.kept(name, replace(self, **{name: p.values[min(max(i, 0), len(p.values) - 1)]}))
        lo, hi = p.bounds(self)
        step = p.notch if fine else p.coarse_notch(self)
        if p.log and not fine:  # a rung a press, stopping at a default off the ladder (BERT's d = 768 came
            # back only with r: + went 512 → 1024, a help audit)
            new = via_home(value, notches, lambda v, way: p.ladder(v, way, lo, hi), self.defaults().get(name))
        elif step == p.notch:
            new = value + notches * step
        else:  # land on multiples of the coarse notch: 0.9 → 1.0 → 1.2 with a notch of 0.2, stopping at the
            # default on the way (1.0 → 0.9 → 0.8 and back: topic 1's 0.90 came back only with r, a student's trial)
            def multiple(v: float, way: int) -> float:
                return (math.floor(v / step + 1e-9) + 1 if way > 0 else math.ceil(v / step - 1e-9) - 1) * step

            new = via_home(value, notches, multiple, self.defaults().get(name))
        new = min(max(new, lo), hi)
        new = int(round(new)) if p.kind == "int" else round(new, 10)
        return self.kept(name, replace(self, **{name: new}))

    def cycled(self, name: str) -> "FigureState":
        """A letter key: the next choice, wrapping from the last to the first."""
        p = self.param(name)
        if p.kind != "choice":
            return self.nudged(name, 1)
        i = (p.choices.index(getattr(self, name)) + 1) % len(p.choices)
        return self.kept(name, replace(self, **{name: p.choices[i]}))

    def to_end(self, name: str, end: int) -> "FigureState":
        p = self.param(name)
        if p.kind == "choice":
            return replace(self, **{name: p.choices[0 if end < 0 else -1]})
        lo, hi = p.bounds(self)
        return self.kept(name, replace(self, **{name: lo if end < 0 else hi}))

    def values(self) -> dict[str, Any]:
        return {p.name: getattr(self, p.name) for p in self.params()}

    def play_interval(self) -> float:
        """Seconds between two ticks of `space`: the axis from start to end in ~6 s, 0.05-0.4 s a tick."""
        return min(max(6.0 / self.param(self.AXIS).ticks(self), 0.05), 0.4)

    def at_axis_end(self) -> bool:
        return getattr(self, self.AXIS) >= self.param(self.AXIS).bounds(self)[1]

    def started(self) -> "FigureState":
        """This state as its lab starts (or runs on through `r`): a figure that draws the run picks it."""
        return self

    def read(self) -> Any:
        """Every number the figure shows, as one frozen dataclass; figures override this."""
        return None

    def readings(self) -> Any:
        """`read()`, computed once per state (a state is frozen, so its readings are too)."""
        cached = self.__dict__.get("_readings", MISSING)
        if cached is MISSING:
            cached = self.read()
            object.__setattr__(self, "_readings", cached)
        return cached

    def data(self) -> dict[str, Any]:
        """The figure's numbers for `.json` output: the state's values and its readings."""
        r = self.readings()
        state = {name: number(v) if self.param(name).kind == "choice" else v for name, v in self.values().items()}
        return plain({"state": state, **(asdict(r) if is_dataclass(r) else {})})


def number(choice: str) -> Any:
    """A choice that names a number, as that number ("T": 20 beside the readings' T, not "20"); else itself."""
    if re.fullmatch(r"-?\d+", choice):
        return int(choice)
    return float(choice) if re.fullmatch(r"-?\d+\.\d+", choice) else choice


def plain(value):
    """JSON-safe: numpy numbers to floats, tuples to lists, fractions to "1/16", non-finite floats to
    "inf", "-inf" or "nan"."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value
