"""The topic registry, in lecture order. A new topic is one line here (and its screen module).

Screens are imported when first needed: opening one topic does not load the others."""
from __future__ import annotations

import importlib
import sys
import threading
from functools import cache

from rnntui.figure import Figure
from rnntui.i18n import _, commas
from rnntui.state import BadValue, FigureState

# (key, topic id, screen class): the key is the topic's number in SPEC §2's lecture order
REGISTRY: tuple[tuple[int, str, str], ...] = (
    (1, "recurrence", "RecurrenceScreen"),
    (2, "gradients", "GradientsScreen"),
    (3, "lstm", "LstmScreen"),
    (4, "seq2seq", "Seq2seqScreen"),
    (5, "attention", "AttentionScreen"),
    (6, "parallel", "ParallelScreen"),
    (7, "memory", "MemoryScreen"),
    (8, "serving", "ServingScreen"),
)
IDS: tuple[str, ...] = tuple(topic_id for _, topic_id, _ in REGISTRY)
NUMBERS: dict[str, int] = {topic_id: n for n, topic_id, _ in REGISTRY}


_preloading: list[threading.Event] = []  # set once `preload`'s imports are done


def _screen_class(topic_id: str, name: str):
    return getattr(importlib.import_module(f"rnntui.screens.{topic_id}"), name)


@cache
def topic(topic_id: str):
    """The TopicScreen class of a topic (its module is imported on first use, or by `preload`, which
    this waits for: two threads importing modules that import each other could meet half-built ones)."""
    for imported in _preloading:
        imported.wait()
    for n, tid, name in REGISTRY:
        if tid == topic_id:
            screen = _screen_class(tid, name)
            screen.NUMBER = n
            return screen
    if is_ref(topic_id):  # (F99 was "unknown topic 'f99'", a power user's trial)
        raise BadValue(_("no figure has the id {ref}: rnntui --list shows each figure's").format(ref=topic_id.upper()))
    raise BadValue(_("unknown topic {topic!r}: choose from {topics}").format(topic=topic_id, topics=commas(IDS)))


def preload() -> threading.Thread:
    """In a thread: import every topic's screen module (numpy with them) and numpy.random, so that
    opening a topic later costs no import (the first topic needs no numpy; its import was ~150 ms of
    the first `n`), then compute the slow first readings (`FigureState.READ_AHEAD`). A topic opened
    meanwhile waits for the imports (`topic`), not for the readings. The thread holds the GIL for at
    most ~20 ms at a time. Not a daemon: a quit during it waits for it, never an interpreter ending
    under it."""
    def run() -> None:
        try:
            screens = [_screen_class(tid, name) for _n, tid, name in REGISTRY]
            importlib.import_module("numpy.random")  # (14 ms when a figure first draws with it)
            importlib.import_module("rnntui.svg")  # (18 ms of the first ctrl+s's key)
        except Exception:  # noqa: BLE001 - opening that topic imports it again and says what is wrong
            return
        finally:
            _preloading.remove(imported)
            imported.set()
        try:  # then the slow first readings (`FigureState.READ_AHEAD`), into their engines' caches
            for screen in screens:
                for figure in screen.FIGURES:
                    if figure.state_type.READ_AHEAD:
                        figure.state_type().read()
        except Exception:  # noqa: BLE001 - drawing the figure reads it again and says what is wrong
            pass

    imported = threading.Event()
    _preloading.append(imported)
    thread = threading.Thread(target=run, name="rnntui-preload")
    try:
        thread.start()
    except RuntimeError:  # no thread to spare: nobody may wait for imports that will not come
        _preloading.remove(imported)
        imported.set()
        raise
    return thread


def imported() -> bool:
    """Whether every topic's screen module is imported, and none is half-imported by a `preload`."""
    return not _preloading and all(f"rnntui.screens.{tid}" in sys.modules for tid in IDS)


def topics() -> tuple:
    """Every topic's screen class, in lecture order (imports them all)."""
    return tuple(topic(t) for t in IDS)


def as_address(text: str) -> str:
    """A topic's number, its key (3) or its id (T3), or a figure's source id (F8, E4, F15+F18, §8) as its
    address (lstm, gradients/product); anything else as typed. "rnntui shot 1" and "shot F2" were unknown
    topics, though the keys and the palette take both (a power user's trial)."""
    word = text.strip().upper()
    number = word[1:] if word[:1] == "T" else word  # T1 … T8: the topics' ids in SPEC (only T5 worked, a review)
    if number.isdigit() and 1 <= int(number) <= len(IDS):
        return IDS[int(number) - 1]
    if is_ref(word) and (found := with_ref(word)):  # (imports every topic: only for such an id)
        screen, f = found[0]
        return f"{screen.TOPIC_ID}/{f.id}"
    return text


def is_ref(word: str) -> bool:
    """Whether `word` reads as a figure's source id as a title prints it: F8, e4, F15+F18 or §8 (the last two
    were "unknown topic 'f15+f18'", a power user's trial)."""
    parts = [part.strip() for part in word.split("+")]  # ("F15 + F18" as typed with spaces: a review)
    return all(len(part) > 1 and part[0] in "FEfe§" and part[1:].isdigit() for part in parts)


def with_ref(ref: str) -> list[tuple[type, Figure]]:
    """(screen, figure) of every figure whose source ids (F15+F18) hold those of `ref` (F15, or F15+F18), in
    any case (imports every topic)."""
    wanted = {r.strip().casefold() for r in ref.split("+")}
    return [(screen, f) for screen in topics() for f in screen.FIGURES
            if wanted <= {r.casefold() for r in f.refs.split("+")}]


def find(address: str, sets: list[str] | tuple = ()) -> tuple[type, Figure]:
    """`topic` or `topic/figure`. Without a figure, the first one that takes every --set key."""
    topic_id, _slash, figure_id = address.strip().lower().partition("/")  # (Attention/QKV was refused, a trial)
    screen = topic(topic_id or address.strip())  # ("/tmp/x": "unknown topic ''", a lecturer's trial)
    if figure_id:
        return screen, screen.figure_by_id(figure_id)
    names = [n for n in dict.fromkeys(s.partition("=")[0].strip() for s in sets) if n]  # ("=3": build_state says)
    for f in screen.FIGURES:
        if all(takes(f.state_type, name) for name in names):
            return screen, f
    # no figure takes them all: each figure's keys, not the first figure's alone ("unknown key 'z': this figure
    # takes w_h, …" for a key recurrence/tanh takes, a lecturer's trial)
    keys = _("; ").join(_("{figure} takes {keys}").format(figure=f.id, keys=f.state_type.keys_text()) for f in screen.FIGURES)
    unknown = [name for name in names if not any(takes(f.state_type, name) for f in screen.FIGURES)]
    if unknown:
        raise BadValue(_("unknown key {name!r} in {topic}: {keys}").format(name=unknown[0], topic=topic_id, keys=keys))
    raise BadValue(_("no figure of {topic} takes all of {names}: {keys}").format(
        topic=topic_id, names=commas(names), keys=keys))


def takes(state_type, name: str) -> bool:
    """Whether a figure's state has a parameter called or shown as `name`."""
    try:
        state_type.name_of(name)
    except BadValue:
        return False
    return True


def as_typed(error: BadValue, key: str, name: str | None) -> BadValue:
    """A value's error under the label the user typed: "steps (k)=banana: …", not "k=banana: …"."""
    message = str(error)
    if name is None or key == name or not message.startswith(f"{name}="):
        return error
    return BadValue(f"{key} ({name}){message[len(name):]}")


def build_state(figure: Figure, sets=(), step=None) -> FigureState:
    """The one parser of `--set KEY=VALUE` and `--step N`: a new, checked state."""
    state = figure.state_type()
    pending = []
    for item in sets:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BadValue(_("--set {item!r}: expected KEY=VALUE").format(item=item))
        pending.append((key.strip(), value.strip()))
    # the same value given twice, or the axis by --set and --step: one would silently win (a newcomer's trial)
    given = {}  # name → (key as typed, value)
    for key, value in pending:
        try:
            name = state.name_of(key)
        except BadValue:
            continue  # (reported below, as typed)
        if name in given:
            raise BadValue(_("--set {key} is given twice ({first}, {second}); give it once").format(
                key=key, first=given[name][1], second=value))
        given[name] = (key, value)
    if step is not None and state.AXIS in given:
        key, value = given[state.AXIS]
        raise BadValue(_("--step {step} and --set {key}={value} both set {key}; give one").format(
            step=step, key=key, value=value))
    # one range may depend on another value (k ≤ n): whatever order they come in, set what fits
    # and retry the rest; a value that fits in no order is reported
    while pending:
        left, first_error = [], None
        for key, value in pending:
            name = None
            try:
                name = state.name_of(key)  # a label typed: the name from here on
                state = state.with_value(name, value)
            except BadValue as e:
                left.append((key, value))
                first_error = first_error or as_typed(e, key, name)
        if len(left) == len(pending):
            raise first_error
        pending = left
    # a value set first may have been pulled into a range a later one narrowed (k=10 then n=4 gave k=3,
    # step=1400 then cell=lstm-bf2 gave step 500, silently; a trial): each is read again against the end
    for name, (key, value) in given.items():
        try:
            state = state.with_value(name, value)
        except BadValue as e:
            raise as_typed(e, key, name) from None
    if step is not None:
        try:
            state = state.with_value(state.AXIS, step)
        except BadValue:
            axis = state.param(state.AXIS)
            raise BadValue(_("--step {step} sets {name}: expected {allowed}").format(  # (it named no axis, a trial)
                step=step, name=axis.said, allowed=axis.allowed(state))) from None
    return state
