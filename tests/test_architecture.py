"""The shape every topic follows (SPEC §1): views read numbers one way, the registry is complete and
in lecture order, one place for formats and colours, keys remappable."""
import ast
import importlib
import inspect
import pkgutil
import re
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

import rnntui
from rnntui.state import FigureState
from rnntui.topics import IDS, NUMBERS, REGISTRY, topics

ROOT = Path(rnntui.__file__).parent
SPEC_ORDER = ("recurrence", "gradients", "lstm", "seq2seq", "attention", "parallel", "memory", "serving")


def modules_under(folder: str) -> list[Path]:
    return sorted((ROOT / folder).glob("*.py"))


def imported_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


@pytest.mark.parametrize("path", modules_under("screens") + modules_under("widgets"), ids=lambda p: p.name)
def test_views_never_import_the_engine(path):
    bad = [n for n in imported_names(path) if n == "rnntui.engine" or n.startswith("rnntui.engine.")]
    assert not bad, f"{path.name} imports {bad}: views read a figure's readings"


@pytest.mark.parametrize("path", modules_under("screens") + modules_under("widgets"), ids=lambda p: p.name)
def test_views_draw_text_through_the_quiet_static(path):
    """Textual's own Static lays the whole screen out at every update (memory's views used it: a key
    cost a layout of the screen, 6 ms); rnntui.widgets.quiet.Static lays out only when its size changes."""
    if path.name != "quiet.py":
        assert "textual.widgets.Static" not in imported_names(path), f"{path.name}: import Static from rnntui.widgets.quiet"


UPPER = {"widgets": ("screens", "figures", "topics", "app", "cli", "slides", "render", "present"),
         "figures": ("screens", "topics", "app", "cli", "slides", "render", "present"),
         "screens": ("topics", "app", "cli", "slides", "render", "present")}


@pytest.mark.parametrize("path", [p for folder in UPPER for p in modules_under(folder)], ids=lambda p: p.parent.name + "/" + p.name)
def test_imports_point_one_way(path):
    """SPEC §1: command line → rendering → app → topic registry → screens → widgets; a widget knows no topic
    (the footer imported a screen module; attention's summary, a figure and its screen, the registry: an audit)."""
    bad = [n for n in imported_names(path) if n.startswith("rnntui.") and n.split(".")[1] in UPPER[path.parent.name]]
    assert not bad, f"{path.parent.name}/{path.name} imports {bad}"


@pytest.mark.parametrize("path", modules_under("engine"), ids=lambda p: p.name)
def test_the_engine_knows_no_screen(path):
    bad = [n for n in imported_names(path)
           if n.split(".")[0] in ("textual", "rich") or (n.startswith("rnntui.") and not n.startswith("rnntui.engine")
                                                         and n.split(".")[1] not in ("state", "files", "lazy"))]
    assert not bad, f"{path.name} imports {bad}"


def test_every_topic_screen_is_registered_in_lecture_order():
    from rnntui.screens.base import TopicScreen

    for info in pkgutil.iter_modules([str(ROOT / "screens")]):
        importlib.import_module(f"rnntui.screens.{info.name}")
    defined = {c.TOPIC_ID for c in _subclasses(TopicScreen) if c.TOPIC_ID}
    assert defined == set(IDS), "a TopicScreen subclass is missing from topics.REGISTRY (or stale there)"
    assert [SPEC_ORDER.index(t) + 1 for t in IDS] == [n for n, _, _ in REGISTRY]
    assert [s.NUMBER for s in topics()] == [NUMBERS[t] for t in IDS]


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_figure_reads_its_numbers_from_one_frozen_record_and_json_holds_it():
    for screen in topics():
        for f in screen.FIGURES:
            state = f.state_type()
            r = state.readings()
            assert is_dataclass(r) and r.__dataclass_params__.frozen, f"{screen.TOPIC_ID}/{f.id}"
            assert state.readings() is r  # computed once per state
            data = state.data()
            if type(state).data is FigureState.data:  # an override may rename a key the .json always had
                assert {x.name for x in fields(r)} <= set(data), f"{screen.TOPIC_ID}/{f.id}"


FORMATTERS = re.compile(r"^def (sci|small|count|si|ms|pct|progress_bar|times|paren)\(", re.M)
COLOUR_NAMES = re.compile(r"""style=["'][^"']*\b(red|green|blue|cyan|yellow|magenta)\b""")


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_one_place_for_formats_and_no_colour_names(path):
    text = path.read_text(encoding="utf-8")
    if path.name != "fmt.py" and "engine" not in path.parts:
        assert not FORMATTERS.findall(text), f"{path.name} defines its own number format"
    assert not COLOUR_NAMES.findall(text), f"{path.name} uses a colour name (remapped under NO_COLOR)"


def test_screens_keep_layout_in_the_stylesheet():
    for path in modules_under("screens"):
        assert "DEFAULT_CSS" not in path.read_text(encoding="utf-8"), f"{path.name}: layout goes to rnntui.tcss"


def test_fmt_never_raises_on_awkward_numbers():
    from rnntui import fmt

    for name, fn in inspect.getmembers(fmt, inspect.isfunction):
        if name.startswith("_") or name in ("progress_bar", "times", "vector", "short_vector", "signed_vector",
                                            "at_hop", "share_words", "power_base", "zeroed"):
            continue
        for v in (0.0, -0.0, 1e308 * 10, -1e308 * 10, float("nan"), 1e300, 5e-324, None):
            assert isinstance(fn(v), str), (name, v)
        assert isinstance(fmt.power_base(v, 80, fmt.sig), str), v
    more, less = "{x}× faster", "{x}× slower"
    assert fmt.times(float("inf"), more, less) == "inf"
    # two significant digits, never in e-notation (the timing lab said "1.8e+02×", a trial)
    assert [fmt.times(x, more, less) for x in (5.5, 180.4, 12345, 1 / 180)] == \
        ["5.5× faster", "180× faster", "12,000× faster", "180× slower"]
    assert fmt.times(1e300, more, less) == "1e+300× faster" and fmt.times(5e-324, "a", "b") == "inf"
    assert fmt.times(3.6, "快 {x} 倍", "慢 {x} 倍") == "快 3.6 倍"  # (the word first in Chinese, a student)
    assert fmt.binary_bytes(2**36) == "64 GiB" and fmt.binary_bytes(2**18) == "256 KiB"


def test_a_percentage_rounds_every_exact_half_up():
    """3162/4000 = 79.05% read 79.0% (a numbers audit), and 29/400 = 7.25% read 7.2% after the first fix (a
    review): each k/N whose percentage is exact at two decimals, against integer arithmetic's half up."""
    from rnntui import fmt

    for n in (200, 400, 1000, 1600, 2000, 4000, 8000):
        for k in range(n + 1):
            if (k * 10_000) % n:
                continue  # (not exact at two decimals)
            hundredths = k * 10_000 // n  # 100·k/n in hundredths of a percent
            tenths = (hundredths + 5) // 10  # half up
            if tenths == 1000 and k < n:  # short of all: never 100.0% (1999 of 2000 reads 99.9%)
                assert fmt.pct(k / n) == "99.9%", (k, n)
                continue
            assert fmt.pct(k / n) == f"{tenths // 10}.{tenths % 10}%", (k, n)


def test_view_class_names_are_unique_so_stylesheet_rules_hit_one_view():
    from rnntui.screens.base import FigureView

    names = [f.view.__name__ for s in topics() for f in s.FIGURES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert all(issubclass(f.view, FigureView) for s in topics() for f in s.FIGURES)


def test_a_ratio_is_never_in_e_notation():
    """parallel/cost's "2.05e+03× dearer", then "1e+03×" just below 1000 (a newcomer's trial, a review)."""
    from rnntui.fmt import ratio

    assert [ratio(x) for x in (2.0, 12.5, 999.4, 999.5, 2048.0, 131072.0)] == ["2", "12.5", "999", "1,000", "2,048", "131,072"]
