"""The ordered topic registry. A new topic is one line here (and its screen)."""
from __future__ import annotations

from rnntui.screens.base import Figure, TopicScreen
from rnntui.screens.gradients import GradientsScreen
from rnntui.screens.lstm import LstmScreen
from rnntui.screens.parallel import ParallelScreen
from rnntui.screens.recurrence import RecurrenceScreen
from rnntui.screens.seq2seq import Seq2seqScreen
from rnntui.state import BadValue, FigureState

# SPEC §2's eight topics in lecture order; key 1…8 jumps to that number once it is built.
PLANNED = ("recurrence", "gradients", "lstm", "seq2seq", "attention", "parallel", "memory", "serving")

TOPICS: tuple[type[TopicScreen], ...] = tuple(sorted((
    RecurrenceScreen,
    ParallelScreen,
    GradientsScreen,
    LstmScreen,
    Seq2seqScreen,
), key=lambda s: PLANNED.index(s.TOPIC_ID)))


def number(topic_id: str) -> int:
    return PLANNED.index(topic_id) + 1


def topic(topic_id: str) -> type[TopicScreen]:
    for t in TOPICS:
        if t.TOPIC_ID == topic_id:
            return t
    raise BadValue(f"unknown topic {topic_id!r}: choose from " + ", ".join(t.TOPIC_ID for t in TOPICS))


def find(address: str, sets: list[str] | tuple = ()) -> tuple[type[TopicScreen], Figure]:
    """`topic` or `topic/figure`. Without a figure, the first one that takes every --set key."""
    topic_id, _, figure_id = address.strip().partition("/")
    screen = topic(topic_id)
    if figure_id:
        return screen, screen.figure_by_id(figure_id)
    names = {s.partition("=")[0].strip() for s in sets}
    for f in screen.FIGURES:
        if names <= {p.name for p in f.state.params()}:
            return screen, f
    return screen, screen.FIGURES[0]


def build_state(figure: Figure, sets=(), step=None) -> FigureState:
    """The one parser of `--set KEY=VALUE` and `--step N`: a new, checked state."""
    state = figure.state()
    pending = []
    for item in sets:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BadValue(f"--set {item!r}: expected KEY=VALUE")
        pending.append((key.strip(), value.strip()))
    # one range may depend on another value (k ≤ n): whatever order they come in, set what fits
    # and retry the rest; a value that fits in no order is reported
    while pending:
        left, first_error = [], None
        for key, value in pending:
            try:
                state = state.with_value(key, value)
            except BadValue as e:
                left.append((key, value))
                first_error = first_error or e
        if len(left) == len(pending):
            raise first_error
        pending = left
    if step is not None:
        try:
            state = state.with_value(state.AXIS, step)
        except BadValue as e:
            raise BadValue(f"--step {step}: {str(e).split(': ', 1)[1]}") from None
    return state
