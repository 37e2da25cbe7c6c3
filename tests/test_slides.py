"""Slides: key frames, `rnntui export`, decks (good and bad) and `rnntui present` under Pilot."""
import asyncio
import math
import re
import shlex
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from unittest.mock import patch

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

from rnntui.cli import main
from rnntui.deck import load, parse
from rnntui.render import Session, render
from rnntui.figure import Figure
from rnntui.figures.summary import SUMMARY
from rnntui.screens.base import FigureView
from rnntui.slides import Frame, key_frames
from rnntui.state import FigureState, param
from rnntui.topics import build_state, find, topics

from commands import run_command

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "rnntui" / "decks" / "lecture.toml"
TOKENS = [0.5, 0.5, -0.5, 1.0, 0.0, 0.0, -0.5, 0.4]  # SPEC F1


def rnn_h(w_h, w_x=0.8, b=0.0):
    """The token track's states, computed here independently of the engine."""
    h, out = 0.0, []
    for x in TOKENS:
        h = math.tanh(w_h * h + w_x * x + b)
        out.append(h)
    return out


# -- key frames ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Short(FigureState):
    AXIS = "t"
    t: int = param(0, "int", lo=0, hi=7)


@dataclass(frozen=True)
class Long(FigureState):
    AXIS = "hop"
    hop: int = param(1, "int", lo=1, hi=40)


@dataclass(frozen=True)
class Smooth(FigureState):
    AXIS = "z"
    z: float = param(0.5, lo=-4.0, hi=4.0, notch=0.25)


def test_default_key_steps_rule():
    fig = lambda state, **kw: Figure("x", "X", "", state, FigureView, "", **kw)  # noqa: E731
    assert fig(Short).slide_steps() == tuple(range(8))  # 8 steps or fewer: every one
    long = fig(Long).slide_steps()
    assert len(long) == 6 and long[0] == 1 and long[-1] == 40 and list(long) == sorted(long)
    assert fig(Smooth).slide_steps() == (0.5,)  # a continuous axis: the default state only
    assert fig(Long, key_steps=(3, 9)).slide_steps() == (3, 9)


def test_recurrence_declares_its_key_steps():
    _, track = find("recurrence/track")
    _, tanh = find("recurrence/tanh")
    assert track.slide_steps() == tuple(range(8))  # t = 0 … 7: one slide per token
    assert tanh.slide_steps() == (0.0, 2.0)  # the seed's two slopes, 1.000 and 0.071


def test_every_registered_key_step_is_a_valid_state():
    for screen in topics():
        for figure in screen.FIGURES:
            steps = figure.slide_steps()
            assert steps, f"{screen.TOPIC_ID}/{figure.id} has no key steps"
            for step in steps:  # raises BadValue on a step outside the axis
                assert getattr(build_state(figure, (), step), figure.state_type.AXIS) == pytest.approx(float(step))


def test_frame_names_say_topic_figure_and_step():
    screen, track = find("recurrence/track")
    _, tanh = find("recurrence/tanh")
    assert Frame(screen, track, build_state(track, (), 3)).stem(3) == "03-recurrence-track-t3"
    assert Frame(screen, tanh, build_state(tanh, (), -0.5)).stem(12, 3) == "012-recurrence-tanh-z_minus0.5"  # (z-0.5:
    # "-" parts a name, a review); an on/off choice says whose (attention-positions-on read as what?)
    attention, positions = find("attention/positions")
    assert Frame(attention, positions, build_state(positions, ("pe=on",), 64)).stem(1) == "01-attention-positions-pe_on-d_model64"
    # a numbered value with a name goes by its name: 27-attention-masks-family2 was encoder-decoder (a lecturer's trial)
    _, masks = find("attention/masks")
    assert [Frame(attention, masks, build_state(masks, (), v)).stem(27) for v in (0, 2)] == [
        "27-attention-masks-encoder", "27-attention-masks-encoder-decoder"]


def test_one_app_renders_the_same_frames_as_a_fresh_one():
    """Export reuses one headless app; each frame must look exactly as `rnntui shot` draws it."""
    picks = [key_frames()[i] for i in (7, -1, len(key_frames()) // 2)]

    async def reused():
        async with Session((90, 28), "dark") as session:
            return [(await session.frame(f.screen, f.figure, f.state, ("svg",)))["svg"] for f in picks]

    for frame, svg in zip(picks, asyncio.run(reused())):
        assert svg == render(frame.screen, frame.figure, frame.state, "svg", (90, 28)), frame.address


# -- export -------------------------------------------------------------------------------------
@pytest.mark.heavy
def test_export_every_figure(tmp_path):
    out = tmp_path / "slides"
    assert main(["export", str(out), "--format", "svg,txt,json", "--size", "80x24"]) == 0
    expected = [(screen.TOPIC_ID, f.id, step) for screen in topics() for f in screen.FIGURES for step in f.slide_steps()]
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 3 * len(expected) + 1 and "index.md" in files
    digits = max(2, len(str(len(expected))))
    for n, (topic, figure, step) in enumerate(expected, 1):
        axis = find(f"{topic}/{figure}")[1].state_type().param(find(f"{topic}/{figure}")[1].state_type.AXIS)
        value = (axis.names[int(step)] if axis.names else  # (by its name: masks' "encoder-decoder", not "family2")
                 f"{step:g}" if isinstance(step, float) else str(step))
        stem = [f for f in files if f.startswith(f"{n:0{digits}d}-{topic}-{figure}-") and f.endswith(f"{value}.svg")]
        assert len(stem) == 1, (n, topic, figure, step)
        for fmt in ("svg", "txt", "json"):
            path = out / stem[0].replace(".svg", f".{fmt}")
            assert path.stat().st_size > 0, path
    # the token track at t = 7 shows the final state, as computed here
    (track7,) = out.glob("*8-recurrence-track-t7.txt")  # numbered 08 or 008: the width fits the count
    assert f"{rnn_h(0.9)[7]:.3f}" in track7.read_text()
    assert (out / f"{1:0{digits}d}-recurrence-track-t0.svg").read_text().startswith("<svg")
    index = (out / "index.md").read_text()
    for name in files:
        if name.endswith(".svg"):
            assert f"({name})" in index
    for screen in topics():
        for f in screen.FIGURES:
            assert f.prose in index  # each frame's caption: the figure's own words
    # "seed" is a random seed ("seed 0"); the source documents are "the source": "seed 9.8e-48" beside
    # "seed 0" on one slide read as one thing (a newcomer's trial)
    import re

    for path in out.glob("*.txt"):
        assert not re.search(r"\bseed\b(?! \d)", path.read_text()), (path.name, re.findall(r".{20}\bseed\b.{20}", path.read_text()))


def small_deck(path: Path, frames: str) -> Path:
    path.write_text('title = "Test deck"\n' + frames, encoding="utf-8")
    return path


GOOD = '''
[[frame]]
figure = "recurrence/track"
set = { w_h = 1.4 }
step = 7
title = "All eight states"
caption = "W_h = 1.4 moves every state."

[[frame]]
figure = "recurrence/tanh"
set = { z = 2 }

[[frame]]
figure = "recurrence/readout"
set = { head = "seq" }
step = 3
'''


def test_the_index_gives_a_figures_caption_once_for_its_steps_in_a_row(tmp_path):
    """Frames of one figure in a row, with the same words, share one section: the caption was printed
    once per frame (recurrence/track's eight times). A frame with a title of its own keeps its section."""
    deck = small_deck(tmp_path / "d.toml", "".join(f'[[frame]]\nfigure = "recurrence/track"\nstep = {t}\n' for t in (0, 3, 7))
                      + '[[frame]]\nfigure = "recurrence/track"\nstep = 7\ntitle = "Again"\n')
    out = tmp_path / "slides"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--size", "80x24"]) == 0
    index = (out / "index.md").read_text()
    _screen, track = find("recurrence/track")
    assert index.count(track.prose) == 2  # once for the three steps, once for the titled frame
    sections = [l for l in index.splitlines() if l.startswith("#")]
    assert sections == ["# Test deck", f"## {track.title} · {track.refs}", "### 01 · t = 0", "### 02 · t = 3",
                        "### 03 · t = 7", "## 04 · Again"]
    for name in ("01-recurrence-track-t0.txt", "02-recurrence-track-t3.txt", "03-recurrence-track-t7.txt"):
        assert f"[txt]({name})" in index and (out / name).exists()


def test_export_of_some_topics_or_figures_writes_only_their_frames(tmp_path, capsys):
    """A lecturer wanting topic 5's slides had to write a deck (`export DIR attention` was refused, a
    trial): named topics or figures keep their frames, in order, from every figure or from a deck."""
    assert main(["export", str(tmp_path / "a"), "attention", "parallel/cost", "--format", "txt"]) == 0
    written = sorted(p.name for p in (tmp_path / "a").glob("*.txt"))
    want = [f for f in key_frames() if f.screen.TOPIC_ID == "attention" or f.figure.id == "cost"]
    assert len(written) == len(want) and all("-attention-" in n or "-parallel-cost-" in n for n in written)
    assert (tmp_path / "a" / "index.md").read_text().startswith("# rnntui: attention, parallel/cost at their key steps")
    assert main(["export", str(tmp_path / "p"), "parallel/", "--format", "txt"]) == 0  # the topic, not its first
    assert len(list((tmp_path / "p").glob("*.txt"))) == sum(f.screen.TOPIC_ID == "parallel" for f in key_frames())
    assert main(["export", str(tmp_path / "b"), "--deck", "lecture", "memory", "--format", "txt"]) == 0
    deck = load(SAMPLE).frames
    lecture = [f for f in deck if f.screen.TOPIC_ID == "memory"]
    assert len(list((tmp_path / "b").glob("*.txt"))) == len(lecture) > 1
    # numbered by their places in the deck, as their feet say (01… under "39/52", a lecturer's trial)
    places = [k for k, f in enumerate(deck, 1) if f.screen.TOPIC_ID == "memory"]
    assert places[0] > 1 and [int(p.name.split("-")[0]) for p in sorted((tmp_path / "b").glob("*.txt"))] == places
    assert all(p.read_text().rstrip().endswith(f"{k}/{len(deck)}")
               for p, k in zip(sorted((tmp_path / "b").glob("*.txt")), places))
    # each file is its own frame's slide (they drew the deck's first frames, recurrence/track…, under memory's
    # names: a helper's find), as present mode draws it
    for path, frame in zip(sorted((tmp_path / "b").glob("*.txt")), lecture):
        text = path.read_text()
        assert frame.local("title") in text if frame.local("title") else "topic 7 · memory" in text, path.name
        assert "topic 1 · recurrence" not in text and "topic 7 · memory" in text, path.name
    capsys.readouterr()
    for args, said in ((["nosuch"], "unknown topic 'nosuch'"),
                       (["--deck", str(small_deck(tmp_path / "d.toml", GOOD)), "serving"],
                        "the deck has no frame of serving")):
        assert main(["export", str(tmp_path / "c"), *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0] and not (tmp_path / "c").exists()


def test_export_refuses_to_overwrite_without_force(tmp_path, capsys):
    deck = small_deck(tmp_path / "d.toml", GOOD)
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["01-recurrence-track-W_h1.4-t7.txt", "02-recurrence-tanh-z2.txt", "03-recurrence-readout-seq-t3.txt",
                     "index.md"]
    assert f"{rnn_h(1.4)[7]:.3f}" == "0.841" and "0.841" in (out / names[0]).read_text()
    index = (out / "index.md").read_text()
    assert "# Test deck" in index and "All eight states" in index and "W_h = 1.4 moves every state." in index
    (out / names[1]).write_text("kept")
    capsys.readouterr()
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exists" in err[0] and "--force" in err[0]
    assert (out / names[1]).read_text() == "kept"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--force"]) == 0
    assert "tanh" in (out / names[1]).read_text()


def test_export_deck_draws_frames_as_present_mode_shows_them(tmp_path):
    deck = small_deck(tmp_path / "d.toml", GOOD)
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt,svg", "--size", "100x30"]) == 0
    first = (out / "01-recurrence-track-W_h1.4-t7.txt").read_text()
    assert "All eight states" in first and "W_h = 1.4 moves every state." in first and "1/3" in first
    assert "0.841" in first
    for chrome in ("rnntui ·", "? help", "q quit", "^p palette", "tab ⇥"):  # no header, no footer, no tabs
        assert chrome not in first, chrome
    assert "2/3" in (out / "02-recurrence-tanh-z2.txt").read_text()
    doc = (out / "01-recurrence-track-W_h1.4-t7.svg").read_text()
    assert "data:font/ttf;base64," in doc and "cdnjs" not in doc


def test_present_drops_values_whole_where_they_do_not_fit(tmp_path):
    """The line of values under a slide: what does not fit is left out whole, marked `…`. It was cut
    inside a value (attention/block at 80×24: `tokens n 5…`, read as a range from 5)."""
    from rnntui.widgets.readouts import Pieces

    pieces = Pieces(["a 1", "bb 22", "c 3"])  # 17 cells joined by three spaces
    assert [pieces.fitted(w) for w in (17, 16, 15, 14, 7, 6)] == [
        "a 1   bb 22   c 3", "a 1   bb 22   …", "a 1   bb 22   …", "a 1   …", "a 1   …", "…"]
    state = build_state(find("attention/block")[1], [], "3")
    values = [f"{p.label} {p.show(getattr(state, p.name))}" for p in state.params()]
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "attention/block"\nstep = 3\n')
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--size", "80x24"]) == 0
    foot = next(out.glob("01-*.txt")).read_text().rstrip("\n").splitlines()[-1]
    shown = foot.strip().removesuffix("1/1").strip().split("   ")
    assert shown[-1] == "…" and 0 < len(shown) - 1 < len(values)  # the frame's values don't all fit at 80
    assert shown[:-1] == values[:len(shown) - 1]  # each shown whole, in order


def test_a_slides_foot_names_the_deck_where_its_values_leave_room(tmp_path):
    """A deck's title showed nowhere in present or its slides (a lecturer's trial): the foot names it before
    the slide's number, where the slide's values still fit whole (they keep their room)."""
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "recurrence/track"\n'
                                           '[[frame]]\nfigure = "attention/block"\nstep = 3\n')
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--size", "80x24"]) == 0
    first, block = (p.read_text().rstrip("\n").splitlines()[-1] for p in sorted(out.glob("0*.txt")))
    assert first.endswith("   Test deck · 1/2") and first.split()[:2] == ["W_h", "0.90"]
    assert block.endswith("   2/2") and "Test deck" not in block and "…" in block  # its values: no room


def test_present_lays_views_out_as_the_app_does(tmp_path):
    """Present mode (and exported deck frames) drew the views without the app's stylesheet: attention/
    positions lost its heat map, parallel/cost its plot, serving/cell its boxes, and serving/window
    at 80×24 said "(too small to plot)" where the app leaves the plot out."""
    frames = "".join(f'[[frame]]\nfigure = "{f}"\n' for f in (
        "attention/positions", "parallel/cost", "serving/cell", "serving/window"))
    deck = small_deck(tmp_path / "d.toml", frames)
    for size in ("100x30", "80x24"):
        out = tmp_path / size
        assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--size", size]) == 0
        text = {p.name.split("-", 1)[1]: p.read_text() for p in out.glob("0*.txt")}
        positions, cost, cell, window = (next(t for name, t in text.items() if name.startswith(f))
                                         for f in ("attention-positions", "parallel-cost", "serving-cell",
                                                   "serving-window"))
        assert "d\\p" in positions and "█+" in positions  # the PE heat map: rows of shaded cells
        assert "└" in cost and "┤" in cost  # the cost plot's frame and ticks
        assert "│ 0.500  │" in cell or "│0.500 │" in cell  # the token track's boxes
        assert "too small" not in window
        if size == "100x30":  # room for the window's plot once header, footer and prose are gone
            assert "┤" in window  # a y tick: the plot is drawn


def test_an_export_that_cannot_draw_a_frame_leaves_no_empty_folder(tmp_path, capsys):
    """A caption in a script no font here has stops the export in one line; the folder it had made was
    left behind, empty (a newcomer's trial). A folder that was there stays."""
    from rnntui.glyphs import cjk_files, font_for

    if any(font_for(ch, cjk_files()) for ch in "한국어"):
        pytest.skip("a font here draws Korean")
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "recurrence/tanh"\n'
                      '[[frame]]\nfigure = "recurrence/track"\ncaption = "한국어"\n')
    made, there = tmp_path / "new" / "a" / "b", tmp_path / "there"
    there.mkdir()
    for out, fmt in ((made, "svg"), (there, "png")):
        assert main(["export", str(out), "--deck", str(deck), "--format", fmt]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        # the slide named (of fifty, a power user could not tell which: a trial)
        assert len(err) == 1 and "d.toml, frame 2: cannot draw" in err[0], err
    assert not (tmp_path / "new").exists() and there.is_dir()  # (its parents too: a review)


def test_frames_that_differ_in_a_value_other_than_the_axis_are_told_apart_in_the_index(tmp_path):
    """Two of the lecture's slides were both "Copy the first token · E2+E3 · step = 1500" (their cells
    differed), and two "KV cache vs recurrent state · F24 · context = 131,072": a heading and a step
    line name the values set away from the figure's defaults, then the axis."""
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "recurrence/track"\nset = { w_h = 1.4 }\nstep = 7\n'
                      '[[frame]]\nfigure = "recurrence/track"\nset = { w_h = 0.5 }\nstep = 7\n'
                      '[[frame]]\nfigure = "recurrence/tanh"\nset = { z = 2 }\n')
    out = tmp_path / "slides"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt"]) == 0
    sections = [l for l in (out / "index.md").read_text().splitlines() if l.startswith("#")]
    assert sections[2:4] == ["### 01 · W_h = 1.40 · t = 7", "### 02 · W_h = 0.50 · t = 7"]
    assert sections[4:] == ["## The squashing curve · F2", "### 03 · z = 2.00"]  # z is its axis: once; one frame
    # of a figure reads as its steps do (it was "## 03 · The squashing curve · F2 · z = 2.00", a lecturer's trial)


def test_an_export_made_meanwhile_into_the_same_folder_is_kept(tmp_path, monkeypatch, capsys):
    """OUTDIR was checked only before rendering: two exports at once, neither with --force, both wrote, the
    second over the first (a CLI trial). Files that appeared meanwhile are kept; this one writes nothing."""
    from rnntui import slides

    deck = small_deck(tmp_path / "d.toml", GOOD)
    out, real = tmp_path / "out", slides._render_all

    async def meanwhile(*args, **kwargs):
        (out / "index.md").write_text("the other export's")
        return await real(*args, **kwargs)

    monkeypatch.setattr(slides, "_render_all", meanwhile)
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "index.md exists" in err[0] and "--force" in err[0]
    assert err[0].endswith("(made while this export drew; it wrote nothing)")  # (not "exists" alone, a review)
    assert [p.name for p in out.iterdir()] == ["index.md"] and (out / "index.md").read_text() == "the other export's"


def test_force_with_topics_removes_no_other_slides_of_an_earlier_export(tmp_path, capsys):
    """`export slides --force recurrence` to refresh one topic of a handout removed the other slides, 151 files
    (a lecturer's trial; a topic's slides are numbered on their own, so they replaced none of the handout's).
    It is refused, saying how many it would remove, and nothing is written; into a folder of its own, over an
    export of the same topic, or one of its figures, it is as before."""
    out, alone = tmp_path / "handout", tmp_path / "alone"
    assert main(["export", str(out), "--format", "txt", "recurrence", "gradients"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    n = len(before) - 1 - len([name for name in before if "-recurrence-" in name])  # gradients' (index.md apart)
    for force in (["--force"], []):  # (without --force it said "add --force", then refused that: a newcomer's trial)
        assert main(["export", str(out), "--format", "txt", *force, "recurrence"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "which recurrence with --force would remove" in err
        assert f"an earlier export here wrote {n} files for other slides" in err
        assert "add --force" not in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert main(["export", str(alone), "--format", "txt", "recurrence"]) == 0
    assert main(["export", str(alone), "--format", "txt", "--force", "recurrence"]) == 0
    # its own slides may go (a review: widening an export, or dropping a format, was refused): renumbered
    wide = tmp_path / "wide"
    assert main(["export", str(wide), "--format", "svg,txt", "recurrence/tanh"]) == 0
    assert main(["export", str(wide), "--format", "txt", "--force", "recurrence/tanh"]) == 0  # svg dropped
    assert main(["export", str(wide), "--format", "txt", "--force", "recurrence"]) == 0  # tanh renumbered
    assert capsys.readouterr().err.strip().endswith("; removed 2 files an earlier export listed")
    assert not list(wide.glob("*.svg")) and len(list(wide.glob("*-recurrence-tanh-*.txt"))) == 2


def test_force_removes_what_an_earlier_export_listed_and_nothing_else(tmp_path, capsys):
    """--force removes the files an earlier export listed in its index.md and this one does not write
    (a longer deck's last frames, in each format it wrote), and nothing else: it removed any file with
    export's shape and a figure's name, and a user's own 07-recurrence-track-my-notes.txt went (a trial)."""
    longer = small_deck(tmp_path / "long.toml", GOOD + '[[frame]]\nfigure = "lstm/cell"\nstep = 3\n')
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(longer), "--format", "svg,txt"]) == 0
    earlier = sorted(p.name for p in out.iterdir())
    assert "04-lstm-cell-t3.svg" in earlier and "04-lstm-cell-t3.txt" in earlier
    kept = ["notes.md", "99-my-own.svg", "logo.png", "01-recurrence-track-t7.pdf", "talk.toml",
            "07-recurrence-track-my-notes.txt", "99-recurrence-track-t7.svg"]  # export's shape, never listed
    for name in kept:
        (out / name).write_text("mine")
    capsys.readouterr()
    assert main(["export", str(out), "--deck", str(small_deck(tmp_path / "d.toml", GOOD)), "--format", "svg"]) == 2
    assert capsys.readouterr().err.strip().endswith(  # the refusal says what --force would remove (a trial)
        "add --force to replace them (it also removes 5 files an earlier export listed that this one does not write)")
    assert main(["export", str(out), "--deck", str(small_deck(tmp_path / "d.toml", GOOD)), "--format", "svg",
                 "--force"]) == 0
    assert capsys.readouterr().err.strip().endswith("; removed 5 files an earlier export listed")
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(kept + ["01-recurrence-track-W_h1.4-t7.svg", "02-recurrence-tanh-z2.svg",
                                   "03-recurrence-readout-seq-t3.svg", "index.md"])
    assert all((out / name).read_text() == "mine" for name in kept)
    # a link in a caption is not a file the export wrote (a reviewer: the notes went at the second run)
    linked = small_deck(tmp_path / "linked.toml", '[[frame]]\nfigure = "recurrence/track"\nstep = 7\n'
                        'caption = "see [my notes](07-recurrence-track-my-notes.txt) and [txt](99-recurrence-track-t7.svg)"\n')
    for _run in range(2):
        assert main(["export", str(out), "--deck", str(linked), "--format", "svg", "--force"]) == 0
    assert all((out / name).read_text() == "mine" for name in kept)
    capsys.readouterr()
    (out / "index.md").unlink()  # no record of an earlier export: --force replaces, removes nothing
    assert main(["export", str(out), "--deck", str(longer), "--format", "svg", "--force"]) == 0
    assert "removed" not in capsys.readouterr().err and (out / "99-recurrence-track-t7.svg").exists()


@pytest.mark.parametrize("where", ["writing", "setting aside", "putting in place", "stopped"])
def test_an_export_that_fails_halfway_leaves_the_folder_as_it_was(tmp_path, capsys, monkeypatch, where):
    """A --force export that could not write its 5th file had replaced the first 4: frames said "1/11"
    beside frames saying "9/10" under the old index.md (a lecturer's trial, a full disk does the same).
    Every file is now written first and put in place together, or none is."""
    import os

    from rnntui import files

    out = tmp_path / "out"
    longer = small_deck(tmp_path / "long.toml", GOOD + '[[frame]]\nfigure = "lstm/cell"\nstep = 3\n')
    assert main(["export", str(out), "--deck", str(longer), "--format", "svg,txt"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls = []
    if where == "writing":
        real = files.write_beside

        def write_beside(path, text):
            calls.append(path)
            if len(calls) == 5:
                raise files.cannot_write(path, OSError(28, "No space left on device", path))
            return real(path, text)

        monkeypatch.setattr(files, "write_beside", write_beside)
    else:
        real = os.replace

        def replace(src, dst):  # each file: its old one set aside, then the new one put in place
            calls.append(dst)
            if len(calls) == 7 and where == "setting aside":  # the 4th file's old one
                raise OSError(1, "Operation not permitted", str(src))
            if len(calls) == 8 and where == "putting in place":  # the 4th file, its old one aside
                raise OSError(28, "No space left on device", str(dst))
            if len(calls) == 8 and where == "stopped":  # ctrl+c (a review: it left files half old, half new)
                raise KeyboardInterrupt
            return real(src, dst)

        monkeypatch.setattr(os, "replace", replace)
    capsys.readouterr()
    deck = small_deck(tmp_path / "d.toml", GOOD.replace("w_h = 1.4", "w_h = 1.2"))
    if where == "stopped":
        assert main(["export", str(out), "--deck", str(deck), "--format", "svg,txt", "--force"]) == 130
    else:
        assert main(["export", str(out), "--deck", str(deck), "--format", "svg,txt", "--force"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"rnntui: cannot write {out}/0"), err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # every old file, and nothing new
    monkeypatch.undo()
    assert main(["export", str(out), "--deck", str(deck), "--format", "svg,txt", "--force"]) == 0
    assert "--set w_h=1.2 " in (out / "index.md").read_text() and not (out / "04-lstm-cell-t3.svg").exists()


@pytest.mark.parametrize("signum, status", [(2, 130), (15, 143), (1, 129)])
def test_a_signal_stops_an_export_between_frames_leaving_the_folder_as_it_was(tmp_path, capsys, monkeypatch,
                                                                             signum, status):
    """ctrl+c in the middle of a frame ended in a traceback from the app's tasks (3 times in 25); SIGTERM
    left 136 temporary files beside the slides; SIGHUP (an SSH session closed) ended the app under the
    export, which went on at 0.5 frames/s (a trial). Each now stops it before the next frame: the status
    128 + the signal's number, one line (it said nothing, a trial), the earlier export as it was and nothing
    beside it."""
    import os
    import signal

    from rnntui.render import Session

    out = tmp_path / "out"
    longer = small_deck(tmp_path / "long.toml", GOOD + '[[frame]]\nfigure = "lstm/cell"\nstep = 3\n')
    assert main(["export", str(out), "--deck", str(longer), "--format", "svg"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real, calls = Session.slide, []

    async def slide(self, index, fmts=("svg",)):
        calls.append(index)
        if len(calls) == 2:
            os.kill(os.getpid(), signum)  # (the handler only notes it: this frame is finished)
        return await real(self, index, fmts)

    monkeypatch.setattr(Session, "slide", slide)
    capsys.readouterr()
    deck = small_deck(tmp_path / "d.toml", GOOD.replace("w_h = 1.4", "w_h = 1.2"))
    assert main(["export", str(out), "--deck", str(deck), "--format", "svg", "--force"]) == status
    assert capsys.readouterr().err == f"rnntui: stopped: nothing written to {out}\n" and len(calls) == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # every old file, and nothing new
    assert signal.getsignal(signum) is not None and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    monkeypatch.undo()
    (out / ".rnntui-k1ll3d.tmp").write_text("<svg")  # what an export killed outright (SIGKILL) leaves
    assert main(["export", str(out), "--deck", str(deck), "--format", "svg", "--force"]) == 0
    assert not list(out.glob(".rnntui-*"))  # --force replaces the folder's export, its leftovers too



@pytest.mark.parametrize("signum, status", [(15, 143), (1, 129)])
def test_a_signal_while_an_export_puts_its_files_in_place_puts_the_old_ones_back(tmp_path, capsys, monkeypatch,
                                                                              signum, status):
    """SIGTERM or SIGHUP while the new files were swapped in (after the frames) killed the export there: new
    files beside old ones and .rnntui-old-* left (a review). They put everything back, as ctrl+c does."""
    import os

    from rnntui import files

    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(small_deck(tmp_path / "d.toml", GOOD)), "--format", "svg"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real, calls = os.replace, []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 4:  # the second new file: one is in place, its old one set aside
            os.kill(os.getpid(), signum)
        return real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    deck = small_deck(tmp_path / "d2.toml", GOOD.replace("w_h = 1.4", "w_h = 1.2"))
    capsys.readouterr()
    assert main(["export", str(out), "--deck", str(deck), "--format", "svg", "--force"]) == status
    assert capsys.readouterr().err == f"rnntui: stopped: nothing written to {out}\n" and len(calls) > 4
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # every old file, and nothing new

def test_a_folder_where_a_slide_goes_is_named_as_a_folder(tmp_path, capsys):
    """With --force a folder where a slide goes was set aside and failed as "a part of the path is a file,
    not a folder" (a review): it is refused first, as a folder, with or without --force."""
    out = tmp_path / "out"
    (out / "01-recurrence-track-W_h1.4-t7.svg").mkdir(parents=True)
    deck = small_deck(tmp_path / "d.toml", GOOD)
    for force in ([], ["--force"]):
        assert main(["export", str(out), "--deck", str(deck), "--format", "svg", *force]) == 2
        assert capsys.readouterr().err.strip() == f"rnntui: cannot write {out}/01-recurrence-track-W_h1.4-t7.svg: it is a folder"
    assert [p.name for p in out.iterdir()] == ["01-recurrence-track-W_h1.4-t7.svg"]


# -- decks --------------------------------------------------------------------------------------
def test_good_deck_sets_each_frame(tmp_path):
    deck = load(small_deck(tmp_path / "d.toml", GOOD))
    assert deck.title == "Test deck" and len(deck.frames) == 3
    first, second, third = deck.frames
    assert (first.address, first.state.w_h, first.state.step) == ("recurrence/track", 1.4, 7)
    assert first.title == "All eight states" and first.words() == "W_h = 1.4 moves every state."
    assert (second.address, second.state.z) == ("recurrence/tanh", 2.0)
    assert second.words() == second.figure.prose  # no caption: the figure's own words
    assert (third.state.head, third.state.step) == ("seq", 3)


def test_a_frames_figure_is_read_in_any_case():
    """As the command line reads it: `Recurrence/Track` was refused (a trial)."""
    assert parse({"frame": [{"figure": "Recurrence/Track", "step": 3}]}).frames[0].address == "recurrence/track"


def test_a_deck_with_old_mac_line_ends_loads(tmp_path):
    """Lines ended by a lone CR were read as lines (read_text's newlines); the capped read refused them as
    "not valid TOML" (a review)."""
    from rnntui.deck import load

    text = '[[frame]]\nfigure = "recurrence/track"\nstep = 3\n[[frame]]\nfigure = "recurrence/tanh"\n'
    for end in ("\r", "\r\n", "\n\ufeff"):  # (and a byte-order mark first, as Notepad saves: a trial)
        deck = tmp_path / "cr.toml"
        deck.write_bytes(text.replace("\n", end).encode() if end[0] == "\r" else ("\ufeff" + text).encode())
        frames = load(str(deck)).frames
        assert [f.figure.id for f in frames] == ["track", "tanh"] and frames[0].state.step == 3


def test_sample_deck_follows_the_lecture(capsys):
    """Frames of topics not built yet are skipped here (named below); all others must check out."""
    data = tomllib.loads(SAMPLE.read_text(encoding="utf-8"))
    built = {t.TOPIC_ID for t in topics()}
    named = [f["figure"].split("/")[0] for f in data["frame"]]
    spec = ["recurrence", "gradients", "lstm", "seq2seq", "attention", "parallel", "memory", "serving"]
    assert [t for t in dict.fromkeys(named)] == [t for t in spec if t in named]  # the lecture's order
    assert named[0] == "recurrence" and named[-1] == "serving"  # it ends where the lecture ends
    skipped = [n for n, t in enumerate(named, 1) if t not in built]
    if skipped:
        warnings.warn(f"sample deck: frames {skipped} not checked: topics not registered yet "
                      f"({', '.join(sorted({named[n - 1] for n in skipped}))})")
    data["frame"] = [f for f, t in zip(data["frame"], named) if t in built]
    deck = parse(data, str(SAMPLE))
    assert len(deck.frames) == len(named) - len(skipped) >= 20
    if not skipped:
        assert len(load(SAMPLE).frames) == len(named)


BAD = [
    ('[[frame]]\nfigure = "recurrence/track"\n[[frame]]\nfigure = "recurrence/nosuch"\n', "frame 2", "unknown figure 'nosuch'"),
    ('[[frame]]\nfigure = "nosuch/track"\n', "frame 1", "unknown topic 'nosuch'"),
    ('[[frame]]\nfigure = "recurrence/track"\n[[frame]]\nfigure = "recurrence/track"\nset = { w_q = 1 }\n',
     "frame 2", "unknown key 'w_q'"),
    ('[[frame]]\nfigure = "recurrence/track"\nset = { w_h = 9 }\n', "frame 1", "w_h=9"),
    ('[[frame]]\nfigure = "recurrence/tanh"\n[[frame]]\nfigure = "recurrence/track"\n[[frame]]\n'
     'figure = "recurrence/track"\nstep = 8\n', "frame 3", "step 8"),
    ('[[frame]]\nfigure = "recurrence/readout"\nset = { head = "both" }\n', "frame 1", "head=both"),
    ('[[frame]]\nfigure = "recurrence/track"\nset = { w_h = [1, 2] }\n', "frame 1", "set w_h"),
    ('[[frame]]\nfigure = "recurrence/track"\ncaptoin = "typo"\n', "frame 1", "unknown key 'captoin'"),
    ('[[frame]]\nstep = 3\n', "frame 1", "figure"),
    ('[[frame]]\nfigure = "recurrence/track"\nstep = \n', "not valid TOML", "line 3"),
    ('[frame]\nfigure = "recurrence/track"\n[frame]\nfigure = "recurrence/tanh"\n', "not valid TOML",
     "twice (at line 3, column 7); each slide is a [[frame]] table"),  # (the parser's words alone, a trial)
    ('', "no frames", "[[frame]]"),
    # (figure = 5 said "is missing"; a right-to-left override went to the terminal and turned the line: a trial)
    ('[[frame]]\nfigure = 5\n', "frame 1", 'figure = 5: expected text, e.g. figure = "recurrence/track"'),
    ('[[frame]]\nfigure = "recurrence/track"\ncaption = "ab\\u202Ecd"\n', "frame 1",
     "caption holds an invisible character (U+202E)"),
    ('[[frame]]\nfigure = "recurrence/track"\ntitle_zh = "a\\u0000b"\n', "frame 1", "(U+0000)"),
    ('title = "D\\u200Fx"\n[[frame]]\nfigure = "recurrence/track"\n', "bad.toml: title", "(U+200F)"),
    ('[[frame]]\nfigure = "recurrence/track"\ntitle = "Recap\\u200b"\n', "frame 1", "title holds an invisible"),
    ('[[frame]]\nfigure = "recurrence/track"\ncaption = "a\\u2063b"\n', "frame 1", "(U+2063); remove it"),
    ('[[frame]]\nfigure = "recurrence/track"\ncaption = "two\\nlines\\tand a tab"\n[[frame]]\nfigure = 7\n',
     "frame 2", "figure = 7"),
    # (a deck has no options: it said "step 1 and --set z=3", a lecturer's trial)
    ('[[frame]]\nfigure = "recurrence/tanh"\nset = { z = 3 }\nstep = 1\n', "frame 1",
     ": step 1 and set z=3 both set z; give one"),
    # (read whole: /dev/zero as a deck ended in MemoryError, an audit)
    ("#" + "x" * 1_000_000 + '\n[[frame]]\nfigure = "recurrence/track"\n', "cannot read it",
     "(larger than 1 MB: not a deck)"),
    ("x = " + "[" * 3000 + "]" * 3000 + "\n", "not valid TOML", "nested too deep"),  # (a traceback, a review)
]


@pytest.mark.parametrize("text,where,words", BAD)
@pytest.mark.parametrize("command", ["present", "export"])
def test_bad_deck_is_one_line_and_exit_2(tmp_path, capsys, text, where, words, command):
    deck = tmp_path / "bad.toml"
    deck.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    argv = ["present", str(deck)] if command == "present" else ["export", str(out), "--deck", str(deck)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and where in err[0] and words in err[0], err
    assert not out.exists()  # rejected before anything rendered


def test_a_deck_or_keymap_that_does_not_read_says_why_in_the_apps_language(tmp_path, capsys):
    """A folder, or bytes that are not UTF-8, as a deck said "（Is a directory）" and "（'utf-8' codec can't
    decode byte 0xff…）" in a Chinese line, and a folder as keymap "[Errno 21] Is a directory: '…'" with its
    path twice (a code review)."""
    from rnntui.i18n import set_language
    from rnntui.keys import user_keymap

    folder, binary = tmp_path / "adir", tmp_path / "bin.toml"
    folder.mkdir()
    binary.write_bytes(b"\xff\xfe[[frame]]")
    try:
        for deck, why in ((folder, "（这是文件夹）"), (binary, "（不是 UTF-8 文本）")):
            assert main(["present", str(deck), "--lang", "zh"]) == 2
            assert capsys.readouterr().err.strip() == f"rnntui: 幻灯片 {deck}：无法读取{why}"
        set_language("zh")
        assert user_keymap(folder)[1] == f"已忽略键位文件 {folder}：这是文件夹"
        large = tmp_path / "large.toml"
        large.write_bytes(b"#" * 100_001)
        assert user_keymap(large)[1] == f"已忽略键位文件 {large}：大于 100 KB"  # (it said "larger than": a review)
    finally:
        set_language("en")
    assert user_keymap(binary)[1] == f"keymap {binary} ignored: not UTF-8 text"


def test_bad_deck_from_the_shell_has_no_traceback(tmp_path):
    deck = tmp_path / "bad.toml"
    deck.write_text('[[frame]]\nfigure = "recurrence/track"\nstep = 99\n', encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "rnntui", "present", str(deck)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == f"rnntui: deck {deck}, frame 1: step 99 sets t: expected a whole number from 0 to 7"


# -- present ------------------------------------------------------------------------------------
async def test_present_walks_the_deck(tmp_path, monkeypatch):
    from textual.widgets import ContentSwitcher, Footer, Header

    from rnntui.present import PresentApp

    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path / "shots"))
    deck = load(small_deck(tmp_path / "d.toml", GOOD))
    app = PresentApp(deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not app.query(Header) and not app.query(Footer)  # no chrome
        assert app.index == 0 and "1/3" in text_of(app)
        assert "0.841" in text_of(app) and "All eight states" in text_of(app)
        await pilot.press("space")
        assert app.index == 1 and "2/3" in text_of(app) and "0.071" in text_of(app)
        assert app.query_one(ContentSwitcher).current == "recurrence--tanh"
        assert "The squashing curve" in text_of(app) and "· F2" not in text_of(app)  # no source ids on a slide
        await pilot.press("right")
        assert app.index == 2 and "3/3" in text_of(app) and "sequence labelling" in text_of(app)
        await pilot.press("right", "space")  # the last frame stays, and says so (it did nothing, a trial)
        # in the foot, beside 3/3: a toast covered the slide's plot (a lecturer's trial)
        assert app.index == 2 and "the last slide; home goes to the first   3/3" in text_of(app)
        assert not app._notifications
        await pilot.press("left")
        assert app.index == 1 and "2/3" in text_of(app)
        await pilot.press("home")
        assert app.index == 0
        await pilot.press("end")
        assert app.index == 2
        await pilot.press("escape")  # a lecturer's reflexive escape ended the talk (a newcomer's trial)
        assert app.index == 2 and app.return_code is None and app.is_running
        await pilot.press("question_mark", "question_mark")  # the keys, for a moment (the slides show none)
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert app.index == 2 and len(said) == 1 and "next" in said[0] and "q quit" in said[0], said
        await pilot.press("escape")  # the keys go at escape (they stayed their 6 s, a lecturer's trial)
        assert not app._notifications and app.index == 2
        await pilot.press("question_mark", "ctrl+s")  # a slide saved with the keys over it: not any more
        await pilot.pause()
        await app.workers.wait_for_complete()  # made in a thread
        await pilot.pause()
        shots = list((tmp_path / "shots").glob("*.svg"))
        assert [p.name for p in shots] == ["d-03-recurrence-readout-seq-t3.svg"]
        assert "sequence" in shots[0].read_text() and "quit" not in shots[0].read_text()
        await pilot.press("question_mark", "2")  # a number and enter: that slide; the keys go with the slide
        assert "slide 2: enter goes there" in text_of(app) and app.index == 2
        await pilot.press("enter")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]  # the keys went with the slide; "saved" stays
        assert app.index == 1 and "slide 2" not in text_of(app) and not any("esc hides" in m for m in said), said
        await pilot.press("n")  # the app's next and previous keys (they did nothing here, a trial)
        assert app.index == 2
        await pilot.press("p")
        assert app.index == 1
        await pilot.press("9", "enter")
        assert app.index == 1 and "no slide 9: this deck has 3   2/3" in text_of(app)
        await pilot.press("0", "enter")  # (it went on to the next slide without a word, a trial)
        assert app.index == 1 and "no slide 0: this deck has 3   2/3" in text_of(app)
        await pilot.press("enter")  # nothing typed: enter is next, as before
        assert app.index == 2
        assert "no slide 9" not in text_of(app)  # (it went with the slide)
        await pilot.press("space", "space", "space")  # a clicker on the last slide: one notice, not three
        assert text_of(app).count("the last slide") == 1
        assert "data:font/ttf;base64," in shots[0].read_text() and "cdnjs" not in shots[0].read_text()
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_present_at_80_columns_says_its_notes_whole_and_backspace_takes_a_typed_digit_off(tmp_path):
    """At 80x24 the foot said "the last slide; home goes t…" and "no slide 99: this deck has …"; backspace
    while a slide number was typed went back a slide and lost the number (a lecturer's trial)."""
    from rnntui.present import PresentApp

    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left")  # (on the first slide it said nothing; on the last, right said so: a trial)
        assert app.index == 0 and "the first slide; end goes to the last   1/3" in text_of(app)
        await pilot.press("end", "space")
        assert "the last slide; home goes to the first   3/3" in text_of(app)
        await pilot.press("9", "9", "enter")
        assert "no slide 99: this deck has 3   3/3" in text_of(app)
        await pilot.press("4")  # past the deck: said as it is typed (only at enter, a fourth digit dropped, a trial)
        assert "no slide 4: this deck has 3   3/3" in text_of(app) and "enter goes there" not in text_of(app)
        await pilot.press("escape")
        await pilot.press("1", "2", "backspace")
        assert app.index == 2 and "   slide 1: enter goes there   3/3" in text_of(app)  # (apart: "t 3slide 1")
        await pilot.press("backspace")  # the number gone, the slide kept
        assert app.index == 2 and "enter goes there" not in text_of(app)
        await pilot.press("backspace")  # nothing typed: back a slide, as before
        assert app.index == 1
        await pilot.press("1", "backspace", "enter")  # (enter with nothing typed: next)
        assert app.index == 2
        await pilot.press("ctrl+c")  # (Textual's English toast over the slide: in the foot, the talk goes on)
        assert "q ends the talk (ctrl+c does not)   3/3" in text_of(app) and not app._notifications
        assert app.return_code is None



async def test_a_served_talk_ends_on_a_second_q_saying_its_slide(tmp_path, monkeypatch):
    """In a browser one q mid-talk ended it, and the page's Restart opened slide 1: nothing said where it had
    been (a lecturer's trial). Served, the first q says so in the foot, a second within 3 s ends it; one after
    that wait asks again; on the first slide, and in a terminal, one q ends it (the terminal prints --start)."""
    from textual.drivers.headless_driver import HeadlessDriver

    from rnntui.present import PresentApp

    monkeypatch.setattr(HeadlessDriver, "is_web", property(lambda self: True))
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)), start=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        assert app.return_code is None and "q again ends the talk, at slide 2 of 3   2/3" in text_of(app)
        app.quit_asked -= 3.1  # (the 3 s gone)
        await pilot.press("q")
        assert app.return_code is None
        await pilot.press("q")
    assert app.return_code == 0
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")  # (the first slide: nothing to lose)
    assert app.return_code == 0
    monkeypatch.undo()
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)), start=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
    assert app.return_code == 0


async def test_a_talk_below_80x24_says_so_in_its_foot(tmp_path, monkeypatch):
    """A served deck in a small window clipped slide 38's table and said nothing (a lecturer's trial): below
    80x24 the foot says so, at a height alone too; at 80x24 it does not. A shot's size is chosen: not said."""
    from textual.drivers.headless_driver import HeadlessDriver

    from rnntui.present import PresentApp

    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(100, 20)) as pilot:
        assert "80×24" not in text_of(app)  # (headless: a shot)
        monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
        for size, said in (((100, 20), "100×20: figures are whole from 80×24"), ((80, 24), None),
                           ((60, 30), "60×30, not 80×24")):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            foot = text_of(app).splitlines()[-1]
            assert (said in foot if said else "80×24" not in foot) and foot.rstrip().endswith("1/3"), foot


async def test_the_lectures_recurrent_and_attention_grids_are_drawn_alike_at_80x24():
    """Slides 32 and 33, the pair a class flips between, drew 6×2 and 3×1 cells at 80x24: 33's caption took a
    second line (a lecturer's trial). Both draw their 8 worked cells 6 wide on two rows."""
    from rnntui.present import PresentApp

    deck = load("lecture")
    chain, parallel = (next(i for i, f in enumerate(deck.frames) if f.figure.id == "grid" and f.state.mode == mode)
                       for mode in ("recurrent", "attention"))
    assert parallel == chain + 1
    app = PresentApp(deck, start=chain)
    async with app.run_test(size=(80, 24)) as pilot:
        drawn = [text_of(app)]
        await pilot.press("space")
        drawn.append(text_of(app))
    assert [text.count("██████") + text.count("▓▓▓▓▓▓") for text in drawn] == [16, 16]  # (▓: this step's)


async def test_a_clickers_keys_blank_the_screen_and_start_quietly(tmp_path):
    """A clicker's f5 (start the show) and . (blank) put "no key in a talk" and a shell command on the
    projector (a lecturer's trial). b and . blank the slide and bring it back; any other key brings it back
    and does nothing else; f5 does nothing, and says nothing."""
    from rnntui.present import PresentApp

    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        shown = text_of(app)
        await pilot.press("f5", "shift+f5")
        assert app.index == 0 and not app._notifications and text_of(app) == shown
        await pilot.press("full_stop")
        assert text_of(app).split() == [] and app.index == 0  # nothing of the slide, its foot neither
        await pilot.press("space")  # back, not on
        assert app.index == 0 and text_of(app) == shown
        await pilot.press("question_mark", "b")  # the keys' notice goes with the slide (it stayed up, a review)
        assert text_of(app).split() == [] and not app._notifications
        await pilot.press("b")
        assert text_of(app) == shown and not app._notifications
        await pilot.press("space")  # shown again, keys do what they did
        assert app.index == 1


async def test_a_typed_slide_number_is_forgotten_after_a_while(tmp_path):
    """A stray 1, then 5 enter a minute later, went to slide 15 (a lecturer's trial): a typed number waits
    TYPED_FOR seconds for enter, then goes, and the foot says so."""
    from rnntui import present
    from rnntui.present import PresentApp

    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        assert "slide 3: enter goes there" in text_of(app)
        app.typed_timer.stop()  # (not waited for: its callback, as the timer calls it)
        app.forget_typed()
        await pilot.pause()
        assert "enter goes there" not in text_of(app)
        await pilot.press("2", "enter")
        assert app.index == 1
    assert 2 <= present.TYPED_FOR <= 10


async def test_a_key_a_talk_has_none_for_says_how_to_change_the_slide(tmp_path):
    """ctrl+p, +, ↑ and tab did nothing in a talk, and nothing said why (a lecturer's trial): such a key says
    that the talk has none, and the command that opens this slide in the app, where its values change. The
    command opens the slide as shown: its state is the frame's."""
    from rnntui.present import PresentApp
    from rnntui.topics import build_state, find

    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "up")  # (a clicker's, and slide programs' keys: next, back)
        assert app.index == 0 and not app._notifications
        await pilot.press("down")
        assert app.index == 1
        await pilot.press("up", "ctrl+p", "plus", "tab")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert len(said) == 1 and said[0].startswith("tab: no key in a talk; ? lists them.") and app.index == 0
        command = said[0].splitlines()[-1].split()
        assert command[:2] == ["rnntui", "recurrence/track"]
        sets = [command[i + 1] for i, word in enumerate(command) if word == "--set"]
        step = command[command.index("--step") + 1]
        assert build_state(find(command[1])[1], sets, step) == app.frame.state
        await pilot.press("end", "1", "a", "enter")  # a slide number being typed is kept (a review)
        await pilot.pause()
        assert app.index == 0 and not app._notifications  # and the note went with the slide it was of


async def test_a_talks_commands_keep_its_theme_and_q_says_where_the_talk_stopped(tmp_path, monkeypatch, capsys):
    """A projector talk's "open it in the app" command opened the app dark, and a q pressed by mistake lost the
    lecturer's place (a lecturer's trial): the commands say the talk's theme and language, and a talk ended
    before its last slide prints the command that goes on from where it stopped."""
    from rnntui import cli
    from rnntui.i18n import set_language
    from rnntui.present import PresentApp

    deck = small_deck(tmp_path / "my talk.toml", GOOD)  # (a space: the command quotes it)
    app = PresentApp(load(deck), "projector")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("plus")
        await pilot.pause()
        command = [n.message for n in app._notifications][-1].splitlines()[-1]
        assert command.startswith("rnntui recurrence/track --set w_h=1.4") and command.endswith(" --theme projector")
        assert cli.main_parser().parse_args(command.split()[1:]).theme == "projector"

    def talk(app):  # the lecturer goes to slide 2 and presses q
        app.index = 1
        return 0

    monkeypatch.setattr(cli, "run_tui", talk)
    monkeypatch.setattr(cli, "require_terminal", lambda what: None)
    try:
        assert main(["present", str(deck), "--theme", "projector", "--lang", "zh"]) == 0
    finally:
        set_language("en")
    line = capsys.readouterr().out.strip()
    assert line.startswith("rnntui: 停在第 2 帧（共 3 帧）")  # in the talk's language
    command = line[line.index("rnntui present"):].split(maxsplit=2)[2]
    args = cli.present_parser().parse_args(shlex.split(command))
    assert (args.deck, args.start, args.theme, args.lang) == (str(deck), 2, "projector", "zh")
    monkeypatch.setattr(cli, "run_tui", lambda app: 0)  # q on the first slide: nothing to go on from
    assert main(["present", str(deck)]) == 0 and capsys.readouterr().out == ""
    monkeypatch.setattr(cli, "run_tui", talk)  # an English talk in a Chinese locale says --lang en (it resumed
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")  # in Chinese: a review)
    for name in ("RNNTUI_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    assert main(["present", str(deck), "--lang", "en"]) == 0
    assert capsys.readouterr().out.strip().endswith("--start 2 --lang en")


async def test_a_talk_resized_has_the_foot_of_a_talk_started_at_that_size():
    """Slide 22 at 120x40, resized to 80x24, kept the foot chosen for 120 columns: the deck's title and the
    values cut ("… From recurrence to attention · 22/52"), where a talk started at 80x24 gives the values
    whole (a lecturer's trial)."""
    from rnntui.present import PresentApp

    feet = []
    for first in ((120, 40), (80, 24)):
        app = PresentApp(load("lecture"), start=21)
        async with app.run_test(size=first) as pilot:
            await pilot.pause()
            app.note.hush()  # (the first slide's note, of slide 38 not measured here: its 6 s over)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            feet.append(text_of(app).splitlines()[-1])
    assert feet[0] == feet[1] and "…" not in feet[0] and feet[0].rstrip().endswith("22/52")


async def test_the_palette_copies_the_figure_on_screen_as_a_deck_frame():
    """Nothing helped build a deck from what is on screen (a lecturer's trial): the palette's "Copy this
    figure as a deck frame" puts its [[frame]] on the clipboard and shows it; read as a deck, it is the
    state on screen, for figures with a choice, a number, a word and none set."""
    from rnntui.app import RnnApp
    from rnntui.figures.gradients import ProductState
    from rnntui.topics import build_state, find

    app = RnnApp("gradients", "product", state=ProductState(act="relu", w_h=1.6, hop=190))
    async with app.run_test(size=(100, 30)) as pilot:
        await run_command(pilot, "copy this figure")
        text = app.clipboard
        assert text.startswith('[[frame]]\nfigure = "gradients/product"')
        assert [n.message for n in app._notifications][-1].endswith("\n" + text)  # shown too
        assert parse(tomllib.loads(text)).frames[0].state == app.topic_screen().state
        for address, sets, step in (("serving/kvcache", ["gqa=4"], None), ("attention/block", [], None),
                                    ("memory/copy", ["cell=rnn", "T=40"], None), ("recurrence/track", ["w_h=-0.5"], "3")):
            screen, figure = find(address)
            state = build_state(figure, sets, step)
            assert parse(tomllib.loads(Frame(screen, figure, state).toml())).frames[0].state == state, address


async def test_present_takes_the_apps_keymap_for_quit_help_and_save(tmp_path, keymap):
    """With quit = "x" in the keymap, q still ended a talk and x did nothing (a lecturer's trial): a talk's
    quit, help, screenshot and suspend are the app's, moved as its keymap moves them, and what it says of
    them names the keys in use."""
    from rnntui.present import PresentApp

    keymap('[keys]\nquit = "x"\nhelp = "f2"\nscreenshot = "f5"\n')
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q", "ctrl+c")
        await pilot.pause()
        assert app.return_code is None and "x ends the talk (ctrl+c does not)" in text_of(app)
        assert [n.message for n in app._notifications][-1].startswith("q: no key in a talk; f2 lists them.")
        await pilot.press("f2")
        await pilot.pause()
        said = [n.message for n in app._notifications][-1]
        assert "f5 save" in said and "x quit" in said and "q quit" not in said
        await pilot.press("x")
        await pilot.pause()
        assert app.return_code == 0


async def test_a_keymap_move_onto_a_talks_own_key_keeps_the_talks_key(tmp_path, keymap):
    """quit = "n" (fine in the app, where n is next_topic's, moved) ended a talk at "next", and help =
    "space" opened the keys there (a power user's trial): in a talk those keep q and ?, and it says so."""
    from rnntui.present import PresentApp

    keymap('[keys]\nquit = "n"\nnext_topic = "pagedown"\nhelp = "space"\nplay = "ctrl+y"\n')
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(80, 24)) as pilot:
        said = [n.message for n in app._notifications]
        assert any("n is the talk's, so quit keeps q in a talk" in m
                   and "space is the talk's, so help keeps ? in a talk" in m for m in said), said
        await pilot.press("n", "space")
        await pilot.pause()
        assert app.return_code is None and app.index == 2 and len(app.screen_stack) == 1
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0


async def test_a_talks_foot_says_the_model_drawn_where_it_is_not_the_one_set(tmp_path, monkeypatch):
    """weights = "live" in a deck: a talk runs no lab, so the shipped model is drawn, and the foot said
    "weights live" over it (a power user's trial). It says what the app's parameter line says."""
    from rnntui.present import PresentApp

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # (nothing cached: cached draws the shipped one too)
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "seq2seq/matrix"\nset = { weights = "live" }\n'
                      '[[frame]]\nfigure = "seq2seq/matrix"\nset = { weights = "cached" }\n')
    app = PresentApp(load(deck))
    async with app.run_test(size=(100, 30)) as pilot:
        for want in ("weights live → shipped", "weights cached → shipped"):
            await pilot.pause()
            shown = text_of(app)
            assert want in shown and "shipped additive model" in shown, shown
            await pilot.press("space")


async def test_present_shows_every_slide_of_the_lecture_without_naming_this_machines_files():
    """`present lecture` ended in a traceback at its first memory/copy slide: the view asked the app for
    a shot's flag that only the rnntui app has (a lecturer's trial). Every slide shows, and a run trained
    on this machine is marked as in a shot, without its file's path (the class sees the projector)."""
    from rnntui.engine import memory as mem
    from rnntui.present import PresentApp

    run = mem.make_run("rnn", 5, 200, 0, [(100, 0.5, 1.0), (200, 1.0, 0.1)], 1.0, "test")  # (no slide's step)
    mem.save_cache(mem.Results((run,)))
    deck = load(SAMPLE)
    app = PresentApp(deck)
    seen = []
    async with app.run_test(size=(100, 30)) as pilot:
        for i in range(len(deck.frames)):
            await pilot.pause()
            assert app.index == i and f"{i + 1}/{len(deck.frames)}" in text_of(app)
            if deck.frames[i].address == "memory/copy":
                seen.append(text_of(app))
            await pilot.press("right")
    assert seen and all("underlined: trained on this machine" in t and str(mem.cache_path()) not in t for t in seen)
    mem.cache_path().unlink()


async def test_the_summary_slide_gives_no_keys_that_turn_slides_instead():
    """attention/summary's readout says "Enter: parallel/path … · backspace: back" and "←→ move along a
    row"; on a slide Enter and → turn the slide (found in a newcomer's trial). The slide keeps the
    focused cell's text and drops those lines; the app keeps them."""
    from rnntui.deck import parse
    from rnntui.present import PresentApp

    deck = parse({"frame": [{"figure": "attention/summary", "set": {"cell": 1}}]}, "summary")
    app = PresentApp(deck)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = text_of(app)
    assert "▸ RNN · parallel in training: no" in shown
    assert "Enter" not in shown and "←→" not in shown and "backspace" not in shown


async def test_present_names_english_only_slides_in_its_foot_not_over_the_slide():
    """A warning box over the plot's axis named the deck's English-only words (a lecturer's trial: the room
    saw it). The foot says it, small, and no notice covers the slide."""
    from rnntui.deck import parse
    from rnntui.i18n import set_language
    from rnntui.present import PresentApp

    deck = parse({"frame": [{"figure": "recurrence/track", "caption": "only English"},
                            {"figure": "recurrence/tanh"}]}, "d")
    set_language("zh")
    try:
        app = PresentApp(deck)
        async with app.run_test(size=(160, 30)) as pilot:
            await pilot.pause()
            foot = text_of(app).rstrip().splitlines()[-1]
            assert "以下帧在幻灯片文件里只有英文：1 (caption_zh)" in foot and not app._notifications
        # served, the lecturer's terminal says it once as the server starts: not each student's first slide
        app = PresentApp(deck)
        with patch.object(type(app), "is_web", property(lambda self: True)):
            async with app.run_test(size=(160, 30)) as pilot:
                await pilot.pause()
                assert "只有英文" not in text_of(app)
    finally:
        set_language("en")


async def test_a_talks_first_notes_come_in_turn_in_its_foot():
    """Two notes as a talk starts (English-only words, a timing slide not measured) were joined with "; " and the
    second was cut off at 80x24 (a review): each has the foot in turn, while the talk stays on its slide."""
    from rnntui.deck import parse
    from rnntui.present import PresentApp

    deck = parse({"frame": [{"figure": "recurrence/track"}, {"figure": "recurrence/tanh"}]}, "d")
    app = PresentApp(deck)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.say_in_turn(["first note", "second note"], 1.0)
        await pilot.pause()
        assert "first note" in text_of(app).splitlines()[-1]
        await pilot.pause(1.5)
        assert "second note" in text_of(app).splitlines()[-1] and "first" not in text_of(app)
        app.say_in_turn(["first note", "second note"], 1.0)
        await pilot.press("right")  # another slide: the first note goes with it, and the second never comes
        await pilot.pause(1.5)
        assert "note" not in text_of(app)


def test_the_summary_in_the_app_says_how_to_open_a_cell(capsys):
    assert main(["shot", "attention/summary", "--set", "cell=1", "-o", "-"]) == 0
    shown = capsys.readouterr().out
    assert "▸ RNN · parallel in training: no" in shown
    assert "Enter: parallel/grid --set mode=recurrent --set n=8 --step 8 · backspace: back" in shown and "←→ along a row" in shown


def text_of(app) -> str:
    """What the screen shows, as plain text."""
    import io

    from rich.console import Console

    console = Console(record=True, width=app.size.width, file=io.StringIO(), force_terminal=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


def test_a_shipped_deck_opens_by_name_from_anywhere(tmp_path, monkeypatch):
    from rnntui.deck import load

    monkeypatch.chdir(tmp_path)
    deck = load("lecture")
    assert deck.frames and deck.frames[0].address.startswith("recurrence/")
    (tmp_path / "lecture").mkdir()  # where `rnntui export lecture` writes: the name still means the deck
    assert load("lecture").frames == deck.frames
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "lecture").write_text("[[frame]]\nfigure = \"recurrence/tanh\"\n")  # a file by that name is read
    monkeypatch.chdir(mine)
    assert [f.address for f in load("lecture").frames] == ["recurrence/tanh"]


def test_every_key_frames_shot_line_names_the_same_state():
    """index.md's `rnntui shot` lines: serving/kvcache's said --step 131,072 (the value as shown, with
    its separator), which --step refuses (a newcomer's trial). Every key frame's line, parsed as the
    command line parses it, gives that frame's state, for every key frame and the lecture's slides."""
    import shlex

    from rnntui.slides import key_frames
    from rnntui.topics import build_state

    frames = key_frames() + list(load("lecture").frames)  # (the deck's set other values too)
    assert any(f.address == "serving/kvcache" for f in frames)
    for frame in frames:
        words = shlex.split(frame.shot_command("x.txt"))
        sets = [words[i + 1] for i, w in enumerate(words) if w == "--set"]
        step = words[words.index("--step") + 1] if "--step" in words else None
        assert build_state(frame.figure, sets, step) == frame.state, (frame.address, step)


def test_a_decks_set_axis_stays_a_set_in_its_shot_line(tmp_path):
    """A deck's set = { threshold = 10 } on gradients/clipping (its axis) was written --step 10: the same
    state, read as wrong when copied (a lecturer's trial). It stays --set; a deck's step stays --step."""
    deck = tmp_path / "d.toml"
    deck.write_text('[[frame]]\nfigure = "gradients/clipping"\nset = { threshold = 10 }\n'
                    '[[frame]]\nfigure = "gradients/clipping"\nstep = 10\n', encoding="utf-8")
    by_set, by_step = load(str(deck)).frames
    assert by_set.state == by_step.state and by_set.state.AXIS == "threshold"
    assert "--set threshold=10" in by_set.shot_command() and "--step" not in by_set.shot_command()
    assert "--step 10" in by_step.shot_command() and "--set" not in by_step.shot_command()


def test_the_index_shot_line_redraws_the_frame(tmp_path, monkeypatch):
    deck = tmp_path / "d.toml"
    deck.write_text('[[frame]]\nfigure = "recurrence/track"\nset = { w_h = 1.4 }\nstep = 7\n', encoding="utf-8")
    out = tmp_path / "slides"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt,json", "--size", "80x24"]) == 0
    line = next(l for l in (out / "index.md").read_text().splitlines() if l.startswith("recurrence/track"))
    command = line.split("`")[1].split()
    assert command[:2] == ["rnntui", "shot"] and "--size" in command and command[-2] == "-o"
    (exported,) = out.glob("*.json")  # a deck's frame is drawn as present mode shows it: compare the state
    monkeypatch.chdir(tmp_path)
    assert main(command[1:-1] + ["again.json"]) == 0
    assert (tmp_path / "again.json").read_text() == exported.read_text()


@pytest.mark.parametrize("lang,shell,title", [("zh", "en", "token 轨道"), ("en", "zh", "Token track")])
def test_an_exports_shot_line_redraws_it_in_the_exports_language(lang, shell, title, tmp_path, monkeypatch):
    """`rnntui export --lang zh`: the index's `rnntui shot` lines had no --lang, so in a shell whose
    locale is not Chinese they drew the frame in English (found in a newcomer's trial), and the other
    way round. Each line says its language."""
    monkeypatch.setenv("RNNTUI_LANG", shell)
    out = tmp_path / "slides"
    assert main(["export", str(out), "--format", "txt", "--size", "80x24", "--lang", lang]) == 0
    line = next(l for l in (out / "index.md").read_text().splitlines() if l.startswith("recurrence/track"))
    command = line.split("`")[1].split()
    assert command[-4:-2] == ["--lang", lang] and command[-2] == "-o"
    exported = out / command[-1]
    assert title in exported.read_text()  # the track figure's title, in the export's language
    monkeypatch.chdir(tmp_path)
    assert main(command[1:-1] + ["again.txt"]) == 0
    assert (tmp_path / "again.txt").read_text() == exported.read_text()


async def test_a_chinese_caption_fills_its_lines():
    """A slide's caption in Chinese broke only at spaces ("把序列倒过来：没有" / "attention，解码器只能
    看到一个向量…" at 80x24; a newcomer's trial): it wraps by cells, between Chinese characters too, so
    no line ends while the next line's first character would fit on it."""
    from rich.cells import cell_len

    from rnntui.deck import load
    from rnntui.i18n import set_language
    from rnntui.present import PresentApp

    set_language("zh")
    try:
        deck = load("lecture")
        app = PresentApp(deck, start=next(i for i, f in enumerate(deck.frames) if f.address == "seq2seq/matrix"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            words = app.screen.query_one("#slide-words")
            lines = [line.rstrip() for line in text_of(app).splitlines()[words.region.y:words.region.bottom]]
    finally:
        set_language("en")
    room = words.content_region.width
    assert len(lines) >= 2 and "attention" in lines[0]
    for line, after in zip(lines, lines[1:]):
        assert cell_len(line.strip()) + cell_len(after.strip()[:1]) > room, (line, after)


def test_the_export_line_counts_in_the_singular_too(tmp_path, capsys):
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "recurrence/track"\n')
    assert main(["export", str(tmp_path / "one"), "--deck", str(deck), "--format", "txt"]) == 0
    said = capsys.readouterr().err.strip()
    assert said.startswith("wrote 1 file (1 frame) and index.md")  # was "1 files (1 frames)"
    total, drawing, rate = map(float, re.search(r" in ([\d.]+) s, ([\d.]+) s of it drawing \(([\d.]+) frames/s\)$",
                                                said).groups())  # (the rate is the drawing's, and says so)
    assert drawing <= total and rate * max(drawing - 0.05, 0) <= 1 <= rate * (drawing + 0.05)  # (1 frame, to 0.1 s)
    assert main(["export", str(tmp_path / "two"), "--deck", str(deck), "--format", "txt,svg"]) == 0
    assert capsys.readouterr().err.strip().startswith("wrote 2 files (1 frame) and index.md")


def test_the_index_of_every_figure_points_to_the_lectures_slides():
    """`rnntui export DIR` draws every figure at its key steps, not the lecture a lecturer rehearsed with
    `rnntui present lecture` (a lecturer's trial): its index.md says how to export those slides."""
    from rnntui.deck import load
    from rnntui.slides import index_md

    every = index_md("rnntui: every figure at its key steps", [], ("svg",), (100, 30), "dark")
    assert "`rnntui export OUTDIR --deck lecture`" in every and load("lecture").frames
    assert "--deck" not in index_md("Test deck", [], ("svg",), (100, 30), "dark", present=True)


def test_a_file_that_hides_a_shipped_deck_says_so(tmp_path, monkeypatch, capsys):
    """A file named `lecture` in the current folder was read for `present lecture`: "not valid TOML",
    and nothing said the shipped lecture was hidden (a trial). A good one is read, as asked."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lecture").write_text("hi there\n")
    assert main(["export", "out", "--deck", "lecture", "--format", "txt"]) == 2
    err = capsys.readouterr().err.strip()
    assert "not valid TOML" in err and err.endswith("this file hides the shipped deck lecture: rename it, or run "
                                                      "rnntui from another folder")
    (tmp_path / "lecture").write_text(GOOD)
    assert main(["export", "out", "--deck", "lecture", "--format", "txt"]) == 0
    assert len(list((tmp_path / "out").glob("*.txt"))) == GOOD.count("[[frame]]")


def test_the_lectures_attention_slide_shows_a_sequence_reversed_whole():
    """The slide introducing attention showed sample 0, "3 wrong" beside the anti-diagonal (a lecturer's
    trial): it shows one the shipped model reverses whole, every row's strongest weight on its source."""
    from rnntui.engine import seq2seq as s2s

    frame = next(f for f in load(SAMPLE).frames if f.address.startswith("seq2seq/matrix"))
    x, decoded = s2s.sample(frame.state.sample), s2s.decode_sample(frame.state.scoring, frame.state.sample)
    assert list(decoded.tokens.ravel()[:16]) == list(x[::-1])
    assert all(row.argmax() in (15 - k, 16 - k) for k, row in enumerate(decoded.alpha[0]))  # (k≥1: one right)


async def test_present_notes_go_after_their_time_out_of_shots_and_keep_the_foot_readable(tmp_path, monkeypatch):
    """Its foot note re-armed its 2 s timer for the rest of the talk, redrawing the foot every 2 s; a shot
    kept "the last slide…"; at 60 columns the note pushed the slide's values out ("t 11 …", a review)."""
    import asyncio

    from rnntui.present import PresentApp

    monkeypatch.setenv("RNNTUI_SHOTS", str(tmp_path / "shots"))
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(100, 30)) as pilot:
        drawn = []
        original = app.show_foot
        app.show_foot = lambda: (drawn.append(1), original())
        await pilot.press("end", "space")
        await pilot.pause()
        assert "the last slide" in text_of(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        [shot] = (tmp_path / "shots").glob("*.svg")
        assert "the last slide" not in shot.read_text() and "3/3" in shot.read_text()
        drawn.clear()
        await pilot.press("space")  # said again, then let go after 2 s: the foot is not drawn again after that
        await asyncio.sleep(2.3)
        await pilot.pause()
        said = len(drawn)
        await asyncio.sleep(2.3)
        assert "the last slide" not in text_of(app) and len(drawn) == said and app.note.timer is None
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        foot = text_of(app).rstrip().splitlines()[-1]
        await pilot.press("space")
        await pilot.pause()
        noted = text_of(app).rstrip().splitlines()[-1]
        assert noted.split()[:2] == foot.split()[:2] and noted.rstrip().endswith("3/3") and "…" in noted


def test_a_slide_leaves_out_the_apps_links_and_does_not_say_its_title_twice(tmp_path):
    """Slide 30 (attention/block) showed "→ parallel/cost", a key's link in the app, to a class, under a
    caption that began with its title again (a lecturer's trial)."""
    from rnntui.render import render
    from rnntui.topics import build_state, find

    assert main(["export", str(tmp_path), "--deck", "lecture", "attention/block", "--format", "txt"]) == 0
    (slide,) = tmp_path.glob("*-attention-block-*.txt")
    text = slide.read_text()
    assert "FLOPs n=" in text and "parallel/cost" not in text
    title, caption = (line.strip() for line in text.splitlines()[1:3])
    assert not caption.startswith(title.split("   ")[0])
    screen, figure = find("attention/block")
    assert "→ parallel/cost" in render(screen, figure, build_state(figure, (), 3), "txt", (120, 40))


def test_the_lectures_qkv_slides_name_no_context_matrix_left_out(tmp_path):
    """The lecture's qkv slides read "not shown at this size: X Q K V out" under the stage they are about
    (a lecturer's trial): on a slide the stages' arrow says where it is, and only a current matrix left out
    would be named; and "x redraws" read as a key hint there. The app's own view at the same size still names
    what it leaves out."""
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", "lecture", "--format", "txt", "--size", "100x30",
                 "attention/qkv"]) == 0
    slides = sorted(out.glob("*.txt"))
    assert len(slides) == 4
    for slide in slides:
        text = slide.read_text()
        assert "not shown at this size" not in text and "▸" in text, slide.name
        assert "x redraws" not in text and "redrawing 开始 跑: out rows 0–2 move by exactly 0" in text  # (no key)
    assert main(["shot", "attention/qkv", "--step", "1", "--size", "100x30", "-o", str(tmp_path / "app.txt")]) == 0
    assert "not shown at this size: A out" in (tmp_path / "app.txt").read_text()


async def test_the_lectures_summary_slide_is_a_table_not_an_app():
    """The lecture's summary slide (cell 0, chosen by no one) drew ⏎ after most cells, the cursor's cell as a
    grey block and the cell's line under the table (a lecturer's slides): a slide opens nothing and marks no
    cell; a deck that picks a cell still gets it marked (above), and the app keeps its ⏎ marks."""
    from rnntui.deck import parse
    from rnntui.present import PresentApp

    for size in ((160, 48), (80, 24)):  # (at 80x24 the cell's line stayed, a review)
        app = PresentApp(parse({"frame": [{"figure": "attention/summary"}]}, "summary"))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            shown = text_of(app)
        assert "⏎" not in shown and "▸" not in shown and "O(n)" in shown, size
        if size == (80, 24):  # narrow: the two columns of sentences under the table, a model a line (its caption
            # promised "what each fixed and what it left" over four columns and blank rows, a lecturer's trial)
            words = " ".join(line.strip(" │") for line in shown.splitlines())
            for row in SUMMARY:
                assert f"{row.model} · fixed: {row.fixed.text} · left: {row.left.text}" in words, row.model
    picked = PresentApp(parse({"frame": [{"figure": "attention/summary", "set": {"cell": 1}}]}, "summary"))
    async with picked.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert "⏎" not in text_of(picked) and "▸ RNN · parallel in training: no" in text_of(picked)


def test_the_lectures_wayback_slides_name_no_size(tmp_path):
    """The lecture's last two slides told the room "--size 120x40 also shows RetNet, Mamba, RWKV…" (a
    lecturer's slides): a slide draws what fits and names no size; `rnntui shot` still says it."""
    for size in ("100x30", "80x24"):  # (at 80x24 the plot's own line said "--size 80x25 shows a plot here")
        out = tmp_path / size
        assert main(["export", str(out), "--deck", "lecture", "--format", "txt", "--size", size,
                     "serving/wayback"]) == 0
        slides = sorted(out.glob("*.txt"))
        assert len(slides) == 2
        for slide in slides:
            text = slide.read_text()
            assert "--size" not in text and "terminal" not in text and "shows" not in text, (size, slide.name)
            assert "state S_11" in text or size == "80x24", slide.name
    assert main(["shot", "serving/wayback", "--step", "11", "-o", str(tmp_path / "app.txt")]) == 0
    assert "--size 120x40 also shows" in (tmp_path / "app.txt").read_text()


@pytest.mark.parametrize("figure", ["lstm/params", "serving/cell"])
def test_a_slide_too_short_for_its_plot_names_no_size(tmp_path, figure):
    """At 80x24 the lecture's slides 18, 44 and 45 told the room "--size 80x25 shows a plot here" (in
    `present`: "a terminal 1 row taller shows a plot here"), a line for the lecturer (a lecturer's trial)."""
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", "lecture", "--format", "txt", "--size", "80x24", figure]) == 0
    slides = sorted(out.glob("*.txt"))
    assert slides
    for slide in slides:
        text = slide.read_text()
        assert "shows a plot here" not in text and "--size" not in text, slide.name


def test_the_timing_slide_gives_its_rows_to_the_plot(tmp_path, monkeypatch):
    """The lecture's timing slide at 100x30 put blank lines between the table's four rows and drew 3
    decades in 4 rows of curves, the source's ◆ on the wrong row (a lecturer's slides): the table closes
    up first while the plot is short of its full height."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # (measured or not, the same rows)
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", "lecture", "--format", "txt", "parallel/timing"]) == 0
    [slide] = out.glob("*.txt")
    lines = slide.read_text().splitlines()
    rows = [i for i, line in enumerate(lines) if re.match(r" +(64|256|1024|4096) ", line)]
    assert len(rows) == 4 and rows == list(range(rows[0], rows[0] + 4)), lines
    top, bottom = (next(i for i, line in enumerate(lines) if mark in line) for mark in ("┌", "└"))
    assert bottom - top - 1 >= 5, lines  # rows of curves


def test_a_decks_index_shows_its_pngs_counts_its_frames_and_redraws_beside_them(tmp_path):
    """index.md of `export --deck … --format svg,png,txt`: each slide's picture is its PNG (what any
    viewer shows), "N frames" is the number of slides written, and each `rnntui shot` line writes a file
    of its own, not over the exported slide it sits beside."""
    deck = small_deck(tmp_path / "d.toml", "".join(f'[[frame]]\nfigure = "recurrence/track"\nstep = {t}\n'
                                                   for t in (0, 3, 7)))
    out = tmp_path / "slides"
    assert main(["export", str(out), "--deck", str(deck), "--format", "svg,png,txt", "--size", "80x24"]) == 0
    written = sorted(p.name for p in out.iterdir())
    pngs = [n for n in written if n.endswith(".png")]
    index = (out / "index.md").read_text()
    assert re.findall(r"!\[[^]]*\]\(([^)]+)\)", index) == pngs and len(pngs) == 3
    assert f"\n{len(pngs)} frames, rendered" in index  # (one run of one figure: it said "1 frames")
    shots = [l.split("`")[1].split() for l in index.splitlines() if l.startswith("recurrence/track · ")]
    assert len(shots) == 3
    for words in shots:
        assert words[-2] == "-o" and words[-1] not in written, words[-1]


def test_a_second_export_without_force_says_how_many_files_it_would_replace(tmp_path, capsys):
    """Exporting into a folder an export wrote names one file and how many more exist: as many as the
    folder holds, less the one named."""
    deck = small_deck(tmp_path / "d.toml", GOOD)
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt,svg"]) == 0
    there = len(list(out.iterdir()))
    capsys.readouterr()
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt,svg"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"exists and (\d+) more", err).group(1) == str(there - 1), err


def test_a_format_may_be_given_as_a_suffix(tmp_path):
    """`--format .txt,.SVG` (as a file's suffix) writes txt and svg files, as `--format txt,svg` does."""
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "recurrence/track"\n')
    assert main(["export", str(tmp_path / "o"), "--deck", str(deck), "--format", ".txt,.SVG"]) == 0
    assert sorted(p.suffix for p in (tmp_path / "o").iterdir()) == [".md", ".svg", ".txt"]


def test_an_export_of_a_topic_names_the_topic_in_its_title(tmp_path):
    """`rnntui export DIR memory/` is titled "rnntui: memory at …", not "memory/ at …"."""
    assert main(["export", str(tmp_path / "m"), "memory/", "--format", "txt", "--size", "80x24"]) == 0
    assert (tmp_path / "m" / "index.md").read_text().startswith("# rnntui: memory at their key steps\n")


def test_a_whole_number_step_is_written_as_the_deck_writes_it(tmp_path):
    """A deck's `set = { z = 2 }` (recurrence/tanh's axis, a float) is copied into its shot line as z=2,
    and `--step 2` stays `--step 2`, not 2.0."""
    deck = small_deck(tmp_path / "d.toml", '[[frame]]\nfigure = "recurrence/tanh"\nset = { z = 2 }\n'
                                           '[[frame]]\nfigure = "recurrence/tanh"\nstep = 2\n')
    by_set, by_step = load(str(deck)).frames
    assert by_set.shot_command().split()[2:5] == ["recurrence/tanh", "--set", "z=2"]
    assert by_step.shot_command().split()[2:5] == ["recurrence/tanh", "--step", "2"]


@pytest.mark.parametrize("deck", [True, False])
def test_an_index_of_one_frame_says_frame(tmp_path, deck):
    """An export of one frame wrote "1 frames" in index.md (a helper's test): its count takes its number."""
    args = ["--deck", str(small_deck(tmp_path / "d.toml", GOOD.split("\n\n[[frame]]")[0]))] if deck else ["gradients/hop"]
    out = tmp_path / "out"
    assert main(["export", str(out), "--format", "txt", *args]) == 0
    written = list(out.glob("*.txt"))
    index = (out / "index.md").read_text()
    if len(written) == 1:
        assert "1 frame," in index and "1 frames" not in index
    else:
        assert f"{len(written)} frames," in index


def test_ctrl_c_while_the_last_pngs_are_drawn_stops_at_once_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    """ctrl+c once every frame was rendered waited for every PNG queued to be drawn (4.5 s), and an impatient
    second ctrl+c landed in the clean-up, leaving ~100 temporary files (a trial): it stops now, the queued
    PNGs are never drawn, and a PNG still being drawn as the export is given up leaves no file."""
    import os
    import signal
    import threading
    import time

    from rnntui import png
    from rnntui.render import Session

    real_slide, real_draw, slides_done, drawn = Session.slide, png.draw, [], []
    frames = 6

    async def slide(self, index, fmts=("svg",)):
        slides_done.append(index)
        if len(slides_done) == frames:  # the last frame: the export now only waits for its PNGs
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)  # (an impatient second press: only asks again)
        return await real_slide(self, index, fmts)

    def draw(grid, scale=2.0):
        drawn.append(threading.get_ident())
        time.sleep(0.4)
        return real_draw(grid, scale)

    monkeypatch.setattr(Session, "slide", slide)
    monkeypatch.setattr(png, "draw", draw)
    deck = small_deck(tmp_path / "d.toml", "".join(f'[[frame]]\nfigure = "recurrence/track"\nstep = {t}\n'
                                                   for t in range(frames)))
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "png", "--size", "80x24"]) == 130
    assert capsys.readouterr().err == f"rnntui: stopped: nothing written to {out}\n"
    assert len(slides_done) == frames and len(drawn) < frames  # (the PNGs queued were not drawn)
    assert not out.exists()  # the folder it made, gone with every file in it


def test_a_staged_write_after_a_discard_leaves_no_file(tmp_path):
    """A PNG thread that finished drawing after the export was given up wrote its file beside the slides."""
    from rnntui.files import Staged

    staged = Staged()
    staged.write(str(tmp_path / "a.svg"), "<svg/>")
    assert len(list(tmp_path.iterdir())) == 1  # its temporary file
    staged.discard()
    staged.write(str(tmp_path / "b.png"), b"png")
    assert list(tmp_path.iterdir()) == [] and staged.files == {}


def test_a_second_ctrl_c_soon_after_the_first_only_asks_and_a_later_one_stops_at_once(monkeypatch):
    """An impatient second ctrl+c raised inside the app's tasks or the clean-up (a trial); one a second later,
    the first not acted on (a frame that hangs), still stops at once."""
    import os
    import signal

    from rnntui import terminal

    clock = [100.0]
    monkeypatch.setattr(terminal.time, "monotonic", lambda: clock[0])
    with terminal.stop_between_frames() as asked:
        os.kill(os.getpid(), signal.SIGINT)
        clock[0] += 0.05
        os.kill(os.getpid(), signal.SIGINT)
        assert asked == [signal.SIGINT, signal.SIGINT]
        clock[0] += terminal.PATIENCE_S
        with pytest.raises(terminal.Stopped):
            os.kill(os.getpid(), signal.SIGINT)


def test_a_ctrl_c_during_the_clean_up_does_not_cut_it_short(tmp_path, capsys, monkeypatch):
    """A second ctrl+c that landed while a stopped export removed its files cut the removal short: 247
    temporary files left beside the slides (a review). The clean-up finishes; the status is ctrl+c's."""
    import os
    import signal

    from rnntui.files import Staged
    from rnntui.render import Session

    real_slide, real_discard, calls = Session.slide, Staged.discard, []

    async def slide(self, index, fmts=("svg",)):
        calls.append(index)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return await real_slide(self, index, fmts)

    def discard(self):
        os.kill(os.getpid(), signal.SIGINT)  # (a press in the middle of it)
        real_discard(self)

    monkeypatch.setattr(Session, "slide", slide)
    monkeypatch.setattr(Staged, "discard", discard)
    deck = small_deck(tmp_path / "d.toml", "".join(f'[[frame]]\nfigure = "recurrence/track"\nstep = {t}\n'
                                                   for t in range(5)))
    out = tmp_path / "out"
    assert main(["export", str(out), "--deck", str(deck), "--format", "svg", "--size", "80x24"]) == 130
    assert capsys.readouterr().err == f"rnntui: stopped: nothing written to {out}\n" and not out.exists()


@pytest.mark.parametrize("theme", ["projector", "light"])
async def test_present_in_16_colours_on_white_keeps_its_numbers_and_foot_readable(tmp_path, monkeypatch, theme):
    """`present --theme projector` in 16 colours (TERM=xterm over SSH) drew a slide's numbers yellow on white
    (1.7:1 in xterm's colours) and, light, its foot white on white: the app's 16 colours (rnntui.ink) were
    not on in present (a lecturer's trial). The track's values and the foot go out as codes that keep 3:1
    on white in xterm's default colours."""
    from frames import colour_codes, contrast_on_white

    from rnntui import present
    from rnntui.present import PresentApp

    monkeypatch.setattr(present, "few_colours", lambda app: True, raising=False)  # (headless: full colour)
    app = PresentApp(load(small_deck(tmp_path / "d.toml", GOOD)), theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        codes = colour_codes(app)
        values = [code for text, code in codes.items() if re.fullmatch(r"-?\d\.\d{3}", text)]  # the track's h and x
        foot = [code for text, code in codes.items() if "1/3" in text]
        assert values and foot, codes
        assert all(contrast_on_white(code) >= 3 for code in values + foot), (values, foot)


def test_a_talk_drops_only_the_moved_keys_that_are_its_own():
    """help = "x,0": 0 types a slide's number in a talk, and x was lost with it ("x: no key in a talk", a
    review); x opens the keys, and the line names 0."""
    from rnntui.present import PresentApp, talk_keymap

    taken, line = talk_keymap(PresentApp.BINDINGS, {"help": "x,0", "quit": "ctrl+q", "next_topic": "N"})
    assert taken == {"help": "x", "quit": "ctrl+q", "next_topic": "N"}
    assert line.endswith(": 0 is the talk's, so help keeps x in a talk")
    taken, line = talk_keymap(PresentApp.BINDINGS, {"quit": "n"})
    assert taken == {"quit": "q"} and line.endswith(": n is the talk's, so quit keeps q in a talk")


def test_a_long_chinese_slide_title_fills_its_lines(tmp_path, capsys):
    """"一次一个 token：…" broke at its one space: "一次一个" alone on a line 70 cells short, then the rest (a
    power user's trial). It breaks between Chinese characters, as the slide's words do."""
    from rich.cells import cell_len

    title = "一次一个 token：循环神经网络如何把整个序列压进一个固定宽度的状态，又为什么这样会丢掉早先的信息"
    deck = small_deck(tmp_path / "d.toml",
                      f'[[frame]]\nfigure = "recurrence/track"\ntitle = "x"\ntitle_zh = "{title}"\n')
    out = tmp_path / "o"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt", "--lang", "zh", "--size", "80x24"]) == 0
    first, second = [line.strip() for line in next(out.glob("*.txt")).read_text(encoding="utf-8").splitlines()[1:3]]
    assert first.startswith("一次一个 token：") and cell_len(first) >= 74 and (first + second).startswith(title)


def test_a_decks_joiners_are_kept_for_text(tmp_path, capsys):
    """An emoji's zero-width joiner and Persian's non-joiner mean something: refused as invisible characters,
    a deck with them could not even be exported as text (a review). A .txt keeps them."""
    caption = "a family: 👨\u200d👩\u200d👧; Persian: می\u200cخواهم"
    deck = small_deck(tmp_path / "d.toml", f'[[frame]]\nfigure = "recurrence/track"\ncaption = "{caption}"\n')
    out = tmp_path / "o"
    assert main(["export", str(out), "--deck", str(deck), "--format", "txt"]) == 0
    assert caption in next(out.glob("*.txt")).read_text(encoding="utf-8").replace("\n", "")


async def test_a_slide_of_matrices_stands_in_the_middle_of_a_large_screen():
    """At 160x48 the lecture's encoder-layer slide drew its matrices under the caption and 29 blank rows under
    them (a lecturer's trial): a slide shares the spare rows above and below; the app keeps them at the top."""
    from rnntui.present import PresentApp

    deck = parse({"frame": [{"figure": "attention/block", "set": {"stage": 3}}]}, "block")
    app = PresentApp(deck)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        lines = text_of(app).splitlines()
    rows = [i for i, line in enumerate(lines) if "那只" in line or "跑" in line]
    top, bottom = rows[0] - 2, rows[-1]  # (the matrices' titles and column labels: two rows over 那只)
    above = next(i for i in range(top - 1, 0, -1) if lines[i].strip())
    below = next(i for i in range(bottom + 1, len(lines)) if lines[i].strip())
    gap_above, gap_below = top - above - 1, below - bottom - 1
    assert gap_above >= 10 and abs(gap_above - gap_below) <= 1, (gap_above, gap_below)
    assert lines[top].split()[0] == "x" and "attn" in lines[top]


async def test_a_talk_in_a_browser_offers_no_suspend():
    """Served, a talk's keys said "ctrl+z suspend" and help listed it: a browser has no shell to go back to
    (a lecturer's trial). In a terminal both still say it."""
    from unittest.mock import PropertyMock

    from rnntui.help import help_text
    from rnntui.present import PresentApp

    for web in (False, True):
        app = PresentApp(parse({"frame": [{"figure": "recurrence/track"}]}, "one"))
        with patch.object(PresentApp, "is_web", new_callable=PropertyMock, return_value=web):
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                said = app.keys_text()
        assert ("ctrl+z suspend" in said) is not web and "q quit" in said, web
    from rnntui.app import RnnApp

    for web in (False, True):
        app = RnnApp()
        with patch.object(RnnApp, "is_web", new_callable=PropertyMock, return_value=web):
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                keys = [row[0] for row in help_text(app.screen)[6]]
        assert ("ctrl+z" in keys) is not web and "?" in " ".join(keys), web


def test_an_exports_shot_line_redraws_its_png_at_the_exports_scale(tmp_path, capsys, monkeypatch):
    """index.md's `rnntui shot` line of an export at --scale 1 had no --scale: run, it drew the frame twice the
    size of its neighbours (a power user's trial). Run as written, it draws the same pixels' size."""
    import shlex
    import struct

    def pixels(path) -> tuple[int, int]:
        return struct.unpack(">II", path.read_bytes()[16:24])  # the PNG's IHDR: width, height

    assert main(["export", str(tmp_path / "out"), "recurrence/tanh", "--format", "png", "--scale", "1",
                 "--size", "80x24"]) == 0
    line = next(l for l in (tmp_path / "out" / "index.md").read_text(encoding="utf-8").splitlines()
                if "`rnntui shot recurrence/tanh" in l)
    command = shlex.split(line[line.index("`rnntui shot") + 1:line.rindex("`")])
    exported = tmp_path / "out" / command[-1]
    assert command[0] == "rnntui" and "--scale" in command
    monkeypatch.chdir(tmp_path)
    assert main(command[1:-1] + [str(tmp_path / "again.png")]) == 0
    assert pixels(tmp_path / "again.png") == pixels(exported) and pixels(exported)[0] < 1100


@pytest.mark.heavy
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_number_a_lecture_caption_types_is_on_its_slide(lang):
    """SPEC: a number on screen is computed, never typed in. The lecture's captions type some ("86% of an 80 GB
    accelerator", "c_7 = 0.9105"): each must be one its slide's figure computes, to the caption's digits, so a
    change in the engine that leaves a caption behind fails here (the 80 GiB accelerator moved 86% to 80%)."""
    from rnntui.deck import load
    from rnntui.i18n import set_language
    from rnntui.render import render

    number = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
    set_language(lang)
    try:
        for k, frame in enumerate(load("lecture").frames, 1):
            typed = number.findall(frame.local("caption") or "")
            if not typed:
                continue
            shown = {float(n.replace(",", "")) for n in number.findall(render(frame.screen, frame.figure, frame.state,
                                                                                  "txt", (160, 48)))}
            for n in typed:
                digits = len(n.partition(".")[2])
                assert any(round(v, digits) == float(n.replace(",", "")) for v in shown), (k, frame.address, n)
    finally:
        set_language("en")
