"""Checking a record read from disk (JSON) against a small schema, so a bad file fails in one place.

A schema is plain data:

    str, bool                   that type (a string at most MAX_TEXT characters)
    Num(lo, hi, whole=False)    a finite number, lo ≤ x ≤ hi (`above=True`: lo < x); never a bool
    Const(value)                exactly this value
    {"key": spec, "opt?": spec} an object with these keys ("?" marks an optional one); others pass
    Many(spec, lo=0, hi=…)      a list of lo…hi items, each matching spec
    (spec, spec, …)             a list of exactly these items, in order

`check(value, schema)` returns the value or raises RecordError, one line naming the first bad
field: `rows[2].rnn_s: expected a number > 0 and ≤ 3600, got nan`.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rnntui.engine import N_

MAX_TEXT = 1000  # characters in any one string
MAX_BYTES = 4_000_000  # a record file larger than this is not one of ours


class RecordError(ValueError):
    """A record that does not match its schema; the message is one line."""


@dataclass(frozen=True)
class Num:
    lo: float = -math.inf
    hi: float = math.inf
    whole: bool = False
    above: bool = False  # lo itself excluded

    def describe(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        return f"{kind} {'>' if self.above else '≥'} {self.lo:g} and ≤ {self.hi:g}"

    def accepts(self, x: Any) -> bool:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return False
        if self.whole and not isinstance(x, int):
            return False
        try:
            x = float(x)
        except OverflowError:  # an int beyond float range
            return False
        return math.isfinite(x) and (self.lo < x if self.above else self.lo <= x) and x <= self.hi


@dataclass(frozen=True)
class Const:
    value: Any


@dataclass(frozen=True)
class Many:
    item: Any
    lo: int = 0
    hi: int = 100_000


def _show(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 30 else text[:27] + "…"


def _fail(where: str, wanted: str, value: Any) -> RecordError:
    return RecordError(f"{where or 'the record'}: expected {wanted}, got {_show(value)}")


def check(value: Any, schema: Any, where: str = "") -> Any:
    """Return `value` if it matches `schema`, else raise RecordError (one line)."""
    if schema is str:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise _fail(where, f"text of at most {MAX_TEXT} characters", value)
    elif schema is bool:
        if not isinstance(value, bool):
            raise _fail(where, "true or false", value)
    elif isinstance(schema, Num):
        if not schema.accepts(value):
            raise _fail(where, schema.describe(), value)
    elif isinstance(schema, Const):
        if value != schema.value or type(value) is not type(schema.value):
            raise _fail(where, _show(schema.value), value)
    elif isinstance(schema, dict):
        _check_object(value, schema, where)
    elif isinstance(schema, Many):
        if not isinstance(value, list) or not schema.lo <= len(value) <= schema.hi:
            raise _fail(where, f"a list of {schema.lo} to {schema.hi} items", value)
        for i, item in enumerate(value):
            check(item, schema.item, f"{where}[{i}]")
    elif isinstance(schema, tuple):
        if not isinstance(value, list) or len(value) != len(schema):
            raise _fail(where, f"a list of {len(schema)} items", value)
        for i, (item, spec) in enumerate(zip(value, schema)):
            check(item, spec, f"{where}[{i}]")
    else:  # pragma: no cover - a mistake in a schema, not in a file
        raise TypeError(f"not a schema: {schema!r}")
    return value


def _check_object(value: Any, schema: dict, where: str) -> None:
    if not isinstance(value, dict):
        raise _fail(where, "an object", value)
    for key, spec in schema.items():
        name = key.removesuffix("?")
        here = f"{where}.{name}" if where else name
        if name in value:
            check(value[name], spec, here)
        elif not key.endswith("?"):
            raise RecordError(f"{here}: missing")


def parse(data: str | bytes, schema: Any) -> Any:
    """JSON text (or UTF-8 bytes) checked against `schema`; any problem is one RecordError.

    Covers what json.loads lets through or trips on: other encodings, NaN and Infinity, nesting deep
    enough to exhaust the stack, numbers too large for a float, and files far too large."""
    return check(load_json(data), schema)


def load_json(data: str | bytes) -> Any:
    """JSON text (or UTF-8 bytes) as Python values; a file too large, not UTF-8, nested too deeply
    or not JSON is one RecordError."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"larger than {MAX_BYTES // 1_000_000} MB")
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        value = json.loads(text)
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text (binary bytes or another encoding)") from None
    except RecursionError:
        raise RecordError("nested too deeply") from None
    except ValueError as e:  # JSONDecodeError, and ints too long to convert
        raise RecordError(f"not JSON ({(str(e).splitlines() or [''])[0][:100]})") from None  # (60 cut words)
    return value


CORRUPT: list[tuple[str, bool | None]] = []  # (report, whether it was set aside; None: unreadable, to be made readable
# or removed) for each corrupt or unreadable cache load_cache met in this process: shot and export refuse to draw its
# note into a picture, a slide


def corrupt_seen() -> int:
    """How many corrupt caches this process has met so far (a command notes it as it begins)."""
    return len(CORRUPT)


def corrupt_name(path: Path) -> Path | None:
    """A free name to set a corrupt file aside under: NAME.corrupt, else NAME.corrupt-2, …"""
    names = (path.with_name(f"{path.name}.corrupt" + ("" if k == 1 else f"-{k}")) for k in range(1, 1000))
    return next((name for name in names if not name.exists()), None)


def load_cache(path, parse: Callable[[bytes], Any], name: str, then: str) -> tuple[Any, str | None]:
    """A cache file read with `parse`: (value, None); (None, None) when there is none; or (None, one
    line) when it is unreadable or `parse` refuses it (RecordError or ValueError) — a refused file is
    moved aside (….corrupt, or ….corrupt-2 … beside an older one) so the next save starts clean. `name`
    says which cache, `then` what happens instead ("using the shipped results")."""
    from rnntui.files import read_head, reason_kept
    from rnntui.state import Said

    # (`name` and `then` are N_-marked: the lines are said in the reader's language as they are shown, as
    # seq2seq's are; they were English under zh, a student's trial)
    try:
        data = read_head(path, MAX_BYTES)  # (a byte over the most a record holds is enough to refuse it)
    except (FileNotFoundError, NotADirectoryError):  # (none there: $XDG_CACHE_HOME=/dev/null turns caches off)
        return None, None
    except OSError as e:  # (a folder in its place, no permission: drawn into shots, exit 0, an audit)
        # (a folder: removing it is the remedy; else making it readable too)
        CORRUPT.append((Said(N_("{name} {path} unreadable ({why})"), name=Said(name), path=path, why=reason_kept(e)),
                        False if isinstance(e, IsADirectoryError) else None))
        return None, Said(N_("{line}; {then}"), line=CORRUPT[-1][0], then=Said(then))
    try:
        return parse(data), None
    except ValueError as e:  # RecordError and the engines' own one-line errors
        path = Path(path)
        aside = corrupt_name(path)
        try:  # (a second corrupt file replaced the first one set aside, a trial)
            if aside is None:
                raise OSError
            os.replace(path, aside)
        except OSError as moving:
            CORRUPT.append((Said(N_("{name} {path} is corrupt ({error}) and could not be set aside ({why})"),
                                 name=Said(name), path=path, error=str(e)[:120],
                                 why=reason_kept(moving) if moving.errno else Said(N_("no free name"))), False))
        else:
            CORRUPT.append((Said(N_("{name} {file} was corrupt ({error}); set aside as {aside}"), name=Said(name),
                                 file=path.name, error=str(e)[:120], aside=aside.name), True))
        return None, Said(N_("{line}; {then}"), line=CORRUPT[-1][0], then=Said(then))


def stamp(path: Path) -> tuple | None:
    """What a cache file is now, to read it again when that changes: (modified, changed, size) in ns and
    bytes; None where there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_ctime_ns, st.st_size


def user_dir(variable: str, fallback: str) -> Path:
    """$XDG_CACHE_HOME or the like where it is an absolute path, else ~/`fallback`: the XDG spec has a relative
    one ignored (XDG_CACHE_HOME=relative/dir wrote under whatever folder the command ran in, a CLI trial)."""
    base = os.environ.get(variable, "")
    return Path(base if os.path.isabs(base) else os.path.join(os.path.expanduser("~"), fallback))


def cache_dir() -> Path:
    """Where the labs keep what they measured and trained: $XDG_CACHE_HOME/rnntui (~/.cache/rnntui)."""
    return user_dir("XDG_CACHE_HOME", ".cache") / "rnntui"
