"""T6 `parallel`: schedules, path lengths, cost crossover, capacity, Table 1, the timing lab."""
from __future__ import annotations

import json
import math
import os
import re
import stat
from types import SimpleNamespace

import numpy as np
import pytest

from rnntui.cli import main
from rnntui.engine import parallel as par
from rnntui.figures.parallel import CapacityState, CostState, GridState, PathState, TimingState
from rnntui.state import BadValue
from rnntui.topics import build_state, find
from rnntui.widgets.wallclock import Tally, grid_text

import lab_standins
import one_app


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Never read or move the user's own timing cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def tally(s: GridState) -> Tally:
    r = s.readings()
    return Tally(r.sequential_steps_used, r.busy_cells, r.cells, r.busy_per_step)


# -- the wallclock schedule ------------------------------------------------------------------
def valid_and_earliest(mode: str, n: int, busy: np.ndarray) -> bool:
    """Independent check: every job runs once, after all it reads, and no later than it could."""
    step = busy.argmax(axis=1)
    for i, deps in enumerate(par.dependencies(mode, n)):
        if busy[i].sum() != 1:
            return False
        ready = max((step[j] + 1 for j in deps), default=0)
        if step[i] != ready:
            return False
    return True


@pytest.mark.parametrize("n", [2, 4, 8, 17, 32])
def test_recurrent_lights_only_the_diagonal_and_takes_n_steps(n):
    busy = par.schedule("recurrent", n)
    assert valid_and_earliest("recurrent", n, busy)
    assert np.array_equal(busy, np.eye(n, dtype=bool))
    assert par.sequential_steps(busy) == n
    assert [par.busy_cells(busy, t) for t in range(n + 1)] == list(range(n + 1))  # one cell per step


@pytest.mark.parametrize("n", [2, 4, 8, 17, 32])
def test_attention_lights_a_whole_column_at_depth_one(n):
    busy = par.schedule("attention", n)
    assert valid_and_earliest("attention", n, busy)
    assert busy[:, 0].all() and not busy[:, 1:].any()
    assert par.sequential_steps(busy) == 1
    assert par.busy_cells(busy, 1) == n == par.done_positions(busy, 1)


def test_grid_at_n8_step8_reads_8_sequential_steps_and_8_of_64_busy():
    screen, figure = find("parallel/grid")
    s = build_state(figure, ["mode=recurrent", "n=8"], "8")
    data = s.data()
    assert (data["sequential_steps_used"], data["busy_cells"], data["cells"]) == (8, 8, 64)
    text = grid_text(s.busy(), s.step, tally(s), 76, 20).plain
    assert "steps with work 8 of 8" in text and "busy cells 8 of 64" in text
    rows = [line for line in text.splitlines() if re.match(r"^\s*\d+ ", line)]
    runs = [re.findall(r"[█▓]+", line) for line in rows]
    assert len(rows) == 8 and all(len(r) == 1 for r in runs)  # every position lit exactly once
    starts = [re.search(r"[█▓]", line).start() for line in rows]
    assert starts == sorted(set(starts))  # each one step later than the one before: the diagonal
    # the last step's work is marked as this step's, as at every step: the last position, and only it
    assert "▓" in rows[-1] and "█" not in rows[-1] and all("▓" not in line for line in rows[:-1])
    assert "▓ worked this step" in text  # the legend says so (it said "working now", a newcomer read
    # position 7 as unfinished next to "outputs ready 8 of 8")


def test_fewer_tokens_and_back_give_back_what_the_range_pulled_in():
    """end, then - and + on the tokens, left "wallclock 6", "outputs ready 6 of 8", and parallel/path's k at
    7 of 12 (a power user's trial): a value a narrower range pulled in is given back as the range widens
    again, by keys or the palette, and the keys come back to the screen they left. A value the user moves
    is theirs: it is not given back."""
    from rnntui.screens.parallel import ParallelScreen

    done = GridState().to_end("step", 1)
    fewer = done.nudged("n", -1)
    assert (fewer.n, fewer.step) == (6, 6) and fewer.nudged("n", 1) == done
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("grid"), fewer.nudged("n", 1), (100, 30))
    assert "outputs ready 8 of 8" in text and "wallclock 8" in text
    for step in (5, 7):  # (one short of the end too: it went to the end, a review)
        midway = GridState(step=step)
        assert midway.nudged("n", -1).nudged("n", 1) == midway
    path = PathState()
    assert (path.n, path.k) == (12, 8)
    narrow = path.nudged("n", -1).nudged("n", -1)
    assert (narrow.n, narrow.k) == (8, 7)
    assert narrow.nudged("n", 1).k == 8 and narrow.nudged("n", 1).nudged("n", 1) == path
    assert narrow.with_value("n", "12") == path  # (the palette's set)
    assert narrow.nudged("k", -1).nudged("n", 1).nudged("n", 1).k == 6  # moved: the user's, kept
    assert PathState(n=8, k=7).nudged("n", 1).k == 7  # never pulled in: nothing to give back


@pytest.mark.parametrize("mode, n, step", [("attention", 8, 4), ("attention", 5, 5), ("recurrent", 8, 5)])
def test_busy_per_step_counts_only_the_steps_that_did_work(mode, n, step):
    """Attention finishes at step 1: at step 4 its 8 busy cells came from one step, "busy per step 8.0", not
    8 / 4. Every output is ready then: "outputs ready 8 of 8" (of n tokens, not of the layer's depth 1)."""
    from rnntui.screens.parallel import ParallelScreen

    s = GridState(mode=mode, n=n, step=step)
    busy = np.array(s.readings().busy)[:, :step]
    worked = int((busy.sum(axis=0) > 0).sum())
    per_step = busy.sum() / worked
    assert s.readings().busy_per_step == pytest.approx(per_step)
    ready = int((busy.sum(axis=1) > 0).sum())
    if mode == "attention":
        assert worked == 1 and per_step == n and ready == n
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("grid"), s, (100, 30))
    assert f"busy per step {per_step:.1f} " in text and f"outputs ready {ready} of {len(busy)}" in text, text


def test_wallclock_step_is_bounded_by_n_and_clamps_when_n_shrinks():
    s = GridState()
    with pytest.raises(BadValue):
        s.with_value("step", 9)
    assert s.with_value("step", 8).with_value("n", 5).step == 5
    assert s.to_end("step", 1).at_axis_end() and s.to_end("step", 1).step == s.n


@pytest.mark.parametrize("height, tall", [(12, 1), (30, 3), (38, 4), (60, 4)])
def test_the_grid_takes_the_rows_it_is_given_up_to_four_lines_a_lane(height, tall):
    """At 160x48 the 8 lanes took 3 lines each and left 14 rows blank under them: a lane is up to 4
    lines tall, as many as the height holds (the header lines aside), its worked cell as tall but for a
    blank line under it from 3 lines (attention's 8 busy lanes were one solid block, a newcomer's trial)."""
    s = GridState(n=8, step=4)
    lines = grid_text(s.busy(), 4, tally(s), 150, height).plain.splitlines()
    starts = [i for i, line in enumerate(lines) if re.match(r"^\s*\d+ ", line)]
    assert [b - a for a, b in zip(starts, starts[1:])] == [tall] * 7
    drawn = tall - 1 if tall >= 3 else tall  # (from 3 lines a lane, its last is blank: lanes stay apart)
    assert sum("█" in line for line in lines[starts[0]:]) == 3 * drawn  # lanes 0-2 worked, over their lines
    every = grid_text(GridState(mode="attention", n=8, step=1).busy(), 1, tally(s), 150, height).plain.splitlines()
    lanes = [line for line in every[starts[0]:] if line.strip()]
    assert len(lanes) == 8 * drawn  # attention's 8 lanes all worked: apart, not one block


def test_grid_glyphs_differ_without_colour():
    s = GridState(n=4, step=2)
    lines = grid_text(s.busy(), 2, tally(s), 40, 12).plain.splitlines()
    rows = {int(line.split()[0]): line for line in lines if re.match(r"^\s*\d+ ", line)}
    assert "█" in rows[0] and "▓" not in rows[0]  # finished
    assert "▓" in rows[1]  # worked in the latest step: its output counts as ready
    assert s.readings().outputs_ready == 2
    assert "·" in rows[2] and "█" not in rows[2] and "▓" not in rows[2]  # idle so far
    r = s.readings()  # two steps of a chain: one cell each
    assert (r.sequential_steps_used, r.busy_cells, r.cells, r.busy_per_step) == (2, 2, 16, 1.0)
    a = GridState(mode="attention", n=4, step=1).readings()  # one step of attention: every lane at once
    assert (a.sequential_steps_used, a.busy_cells, a.busy_per_step) == (1, 4, 4.0)


def test_grid_window_follows_the_work_when_rows_do_not_fit():
    s = GridState(n=32, step=20)
    text = grid_text(s.busy(), 20, tally(s), 76, 10).plain
    assert "▓" in text and "of 32 shown" in text
    assert "busy cells 20 of 1024" in text


@pytest.mark.parametrize("now", [1, 3, 8])
def test_the_step_marked_in_the_header_is_the_wallclock_step_the_footer_shows(now):
    """After 3 steps the footer read "wallclock 3" and the lit, marked column was labelled 2 (steps
    were numbered from 0; a newcomer's trial): steps are numbered from 1."""
    from rnntui.widgets.wallclock import grid_runs

    s = GridState(n=8, step=now)
    header = next(line for line in grid_runs(s.busy(), now, tally(s), 76, 20) if "wallclock →" in "".join(w for w, _ in line))
    marked = [words.strip() for words, style in header if "reverse" in style]
    labels = [words.strip() for words, style in header[1:-1]]
    assert marked == [str(now)] and labels == [str(k) for k in range(1, 9)]


def test_the_window_shows_the_lanes_of_the_latest_work():
    """Attention with n=14 at its end, in a grid 11 lanes high, showed positions 3-13 while all the work
    is at step 1 in every lane: the window starts at position 0 (the first lane of the last step worked)."""
    s = GridState(mode="attention", n=14, step=14)
    text = grid_text(s.busy(), 14, tally(s), 76, 14).plain
    assert "positions 0–" in text and " below; they follow the wallclock" in text and " above" not in text
    r = GridState(n=14, step=14)  # a chain at its end: the last position, which worked last
    assert "–13 of 14 shown" in grid_text(r.busy(), 14, tally(r), 76, 14).plain


# -- path length -----------------------------------------------------------------------------
@pytest.mark.parametrize("k", [1, 2, 5, 11, 31])
def test_path_is_k_multiplications_recurrent_and_one_edge_attention(k):
    hops = par.path_hops("recurrent", k)
    assert hops[0][0] == 0 and hops[-1][1] == k and all(b == a + 1 for a, b in hops)
    assert par.path_length("recurrent", k) == k
    assert par.path_hops("attention", k) == [(0, k)] and par.path_length("attention", k) == 1
    assert par.path_gain("recurrent", k, 0.9) == pytest.approx(math.prod([0.9] * k))
    assert par.path_gain("attention", k, 0.9) == pytest.approx(0.9)


def test_path_says_where_its_factor_comes_from_and_help_says_what_whole_topic_means():
    """"×0.90 per hop leaves 0.430" and "mode: whole topic" were unexplained (a lecturer's trial): the factor
    is topic 1's default W_h (a constant here: not the W_h topic 1 was left at, a review), raised to the
    path's length; help says what a shared parameter is."""
    from rnntui.figures.recurrence import TrackState
    from rnntui.help import help_text
    from rnntui.screens.parallel import ParallelScreen
    from rnntui.topics import find

    factor = TrackState().w_h
    text = one_app.txt(*find("parallel/path"), PathState(mode="recurrent", k=8))
    assert f"×{factor:.2f} a hop (topic 1's default W_h) leaves {factor ** 8:.3f} = {factor:.2f}^8" in text
    # attention's one edge crosses no W_h ("leaves 0.900 = 0.90^1" read as attention decaying too, a student)
    text = " ".join(one_app.txt(*find("parallel/path"), PathState(mode="attention", k=8)).replace("│", " ").split())
    assert f"one edge: no W_h to cross, where recurrence's 8 hops leave {factor ** 8:.3f} = {factor:.2f}^8" in text
    assert "a hop (topic 1's default W_h)" not in text
    _screen, path = find("parallel/path")
    _screen, cost = find("parallel/cost")
    said = [help_text(SimpleNamespace(TOPIC_ID="parallel", figure=f, state=f.state_type(), FIGURES=ParallelScreen.FIGURES,
                                      SHARED=ParallelScreen.SHARED))[1] for f in (path, cost)]
    assert "“mode: whole topic” under the figure: one value for every figure" in said[0]
    assert "whole topic" not in said[1]  # cost has no mode


@pytest.mark.parametrize("k", [1, 2, 8])
def test_path_says_what_tanh_keeps_beside_w_h_and_counts_in_the_singular(k):
    """"×0.90 a hop leaves 0.430" ignored tanh', which topic 2 shows keeps less (0.057 over 7 hops: a
    student's trial), and k = 1 read "1 multiplications, through h_1 … h_1" (a lecturer's trial). The
    recurrent path also says what tanh's slopes leave on topic 1's tokens, by a plain loop here."""
    from rnntui.engine import recurrence as rnn
    from rnntui.topics import find

    h, kept = 0.0, 1.0
    for t in range(k + 1):
        z = 0.9 * h + rnn.W_X * rnn.TOKENS[t % 8] + rnn.B
        h = math.tanh(z)
        if t:
            kept *= 0.9 * (1 - math.tanh(z) ** 2)
    text = " ".join(one_app.txt(*find("parallel/path"), PathState(k=k), (100, 30)).replace("│", " ").split())
    assert f"with tanh' on topic 1's tokens (topic 2): {kept:.3g}" in text and kept < 0.9 ** k
    states = {1: "h_1", 2: "h_1, h_2", 8: "h_1 … h_8"}[k]
    assert f"token 0 → token {k}: {k} multiplication{'s' if k > 1 else ''}, through {states} " in text
    assert "tanh'" not in one_app.txt(*find("parallel/path"), PathState(mode="attention", k=k))


def test_path_state_longest_path_is_n_minus_one_or_one():
    s = PathState(n=12, k=8)
    assert s.data()["max_path_length"] == 11
    assert PathState(mode="attention", n=12, k=8).data()["max_path_length"] == 1
    assert s.with_value("n", 5).k == 4  # k stays a token of the sequence


@pytest.mark.parametrize("mode", ["recurrent", "attention"])
def test_path_names_the_last_token_of_the_longest_path(mode):
    """With 12 tokens, numbered from 0, the longest path runs from token 0 to token 11."""
    from rnntui.screens.parallel import ParallelScreen

    n = 12
    last = n - 1  # tokens 0 … n − 1
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("path"), PathState(mode=mode, n=n, k=5), (100, 30))
    hops = last if mode == "recurrent" else 1
    assert re.search(rf"longest path, token 0 → {last}: +{hops} \(O", text), text


@pytest.mark.parametrize("mode,k", [("recurrent", 3), ("recurrent", 7), ("attention", 5)])
def test_the_staircase_marks_every_stop_and_climbs_one_level_a_hop(mode, k):
    from rnntui.widgets.staircase import staircase_runs
    from rnntui.widgets.tints import HIGHLIGHT

    hops = par.path_hops(mode, k)
    width, height = 70, 2 * k + 3
    lines = staircase_runs(hops, 10, k, width, height)
    text = ["".join(words for words, _ in line) for line in lines]
    stops = [(y, style) for y, line in enumerate(lines) for words, style in line for ch in words if ch == "●"]
    assert len(stops) == len(hops) + 1  # position 0 and every hop's end
    ends = [style for _, style in stops if style == HIGHLIGHT]
    assert len(ends) == 2  # the path's two ends stand out
    tops = [int(t.split()[0]) for t in text[:-1] if t.split() and t.split()[0].isdigit()]
    assert max(tops) == len(hops)  # the top stair is as high as the hops taken
    assert all(sum(len(words) for words, _ in line) <= width for line in lines)
    bottom = dict((words.strip(), style) for words, style in lines[-1] if words.strip())
    assert bottom["x0"] == bottom[f"x{k}"] == "bold reverse"  # the ends' labels, readable without colour


@pytest.mark.parametrize("height,rise", [(11, 1), (20, 2), (40, 4), (80, 4)])
def test_stairs_rise_as_many_rows_as_fit_up_to_square(height, rise):
    """parallel/path drew its 8 stairs 2 rows each with 20 rows empty under them at 160x48 (a lecturer's
    trial): each stair rises the rows the height allows, up to 4 (square beside its 8 columns)."""
    from rnntui.widgets.staircase import staircase_runs

    lines = staircase_runs(par.path_hops("recurrent", 8), 12, 8, 156, height)
    stops = [y for y, line in enumerate(lines) for words, _ in line if "●" in words]
    assert len(stops) == 9 and {b - a for a, b in zip(stops, stops[1:])} == {rise}
    assert len(lines) <= height
    bottom = "".join(words for words, _ in lines[-1]).rstrip()  # 12 positions 12 columns apart (8 left 60 empty)
    assert bottom.endswith("x11") and len(bottom) >= 2 + 11 * 12


@pytest.mark.parametrize("k", [1, 3, 8])
def test_attentions_one_edge_stands_before_recurrences_stairs(k):
    """parallel/path in attention mode drew one stair at the foot of 30 empty rows at 160x48 (a lecturer's
    trial: it looked broken). Recurrence's k stairs stand dim behind it: their stops above the edge are
    drawn ·, dim, the path's own two ends stay the only ●, and a line under it says what they are."""
    from rnntui.widgets.staircase import staircase_runs
    from rnntui.widgets.tints import HIGHLIGHT

    lines = staircase_runs(par.path_hops("attention", k), 12, k, 96, 4 * k + 3, par.path_hops("recurrent", k), "dim!")
    cells = [(ch, style) for line in lines for words, style in line for ch in words]
    assert sum(ch == "●" for ch, _ in cells) == 2
    assert [style for ch, style in cells if ch == "·"] == ["dim"] * (k - 1)  # stops 2 … k (1 is on the edge)
    assert ("".join(words for words, _ in lines[-1]) == "dim!") == (k > 1) and len(lines) <= 4 * k + 3
    # the first dim stair climbs off the edge: "┴" where its riser meets it, not a riser over "─" in mid-air
    rows = [[(ch, style) for words, style in line for ch in words] for line in lines]
    edge = next(y for y, row in enumerate(rows) if ("●", HIGHLIGHT) in row)  # (the top ●: the edge's end, k)
    joins = [x for x, (ch, _) in enumerate(rows[edge]) if ch == "┴"]
    assert len(joins) == (k > 1) and all(rows[edge - 1][x] == ("│", "dim") for x in joins)


@pytest.mark.parametrize("sets,size,drawn", [(["mode=attention"], (100, 30), True),
                                            (["mode=recurrent"], (100, 30), False),
                                            (["mode=attention", "n=32", "k=31"], (80, 24), False),  # no row each
                                            (["mode=attention", "n=32", "k=31"], (58, 50), False)])  # its end cut
def test_the_dim_stairs_are_said_where_they_are_drawn(sets, size, drawn):
    """The readout promised dim stairs at 80x24 with 31 of them in 11 rows, and at 58 columns the dim
    stairs stood alone, the edge's end cut off (a review): they are drawn, and said, only where each has
    its row and the edge is whole."""
    from rnntui.topics import build_state, find

    screen, figure = find("parallel/path", [])
    state = build_state(figure, sets, None)
    lines = one_app.txt(screen, figure, state, size).splitlines()
    said = any(f"dim: the {state.k} stairs recurrence climbs" in line for line in lines)
    stops = sum(line.count("·") for line in lines if line.startswith("│") and ("─" in line or "┌" in line))
    assert said == drawn and (stops == state.k - 1 if drawn else stops == 0)


@pytest.mark.parametrize("mode, k, width, height, says", [("recurrent", 31, 76, 14, True), ("recurrent", 8, 76, 14, False),
                                                         ("recurrent", 12, 76, 12, True), ("recurrent", 31, 40, 14, True),
                                                         ("attention", 31, 76, 14, False)])
def test_a_staircase_with_fewer_rows_than_stairs_says_so(mode, k, width, height, says):
    """At 80x24, 31 stairs over 11 rows drew three tokens at one height under "each stair is one
    multiplication" (a trial): a line says how many a row holds, counted here from the stops drawn (at 40
    columns fewer are drawn; attention's one stair needs no line, nor a row kept for it)."""
    from rnntui.widgets.staircase import staircase_runs

    lines = staircase_runs(par.path_hops(mode, k), 32, k, width, height)
    text = ["".join(words for words, _ in line) for line in lines]
    assert len(lines) <= height and all(len(t) <= width for t in text)
    found = [t for t in text if "stairs in" in t]
    if not says:
        assert not found and max(t.count("●") for t in text) == 1 and (mode != "attention" or len(lines) == height)
        return
    stairs = [t.count("●") for t in text[:-3] if "●" in t]  # rows above the 0 row (then the labels, the line)
    line = f"{sum(stairs)} stairs in {len(stairs)} rows: up to {max(stairs)} a row (a taller terminal: one each)"
    assert found == [line[:width - 1] + "…" if len(line) > width else line] and max(stairs) > 1


# -- cost and crossover ----------------------------------------------------------------------
@pytest.mark.parametrize("d", [16, 64, 256, 512, 1000, 4096])
def test_costs_cross_at_n_equals_d(d):
    n = par.crossover(d)
    assert par.recurrent_cost(n, d) == pytest.approx(par.attention_cost(n, d))
    assert par.attention_cost(n / 2, d) < par.recurrent_cost(n / 2, d)  # cheaper below
    assert par.attention_cost(n * 2, d) > par.recurrent_cost(n * 2, d)  # dearer above
    # second computation: the sign change of the log cost gap on a fine grid
    grid = np.geomspace(2, 1e5, 20001)
    gap = np.log(par.attention_cost(grid, d)) - np.log(par.recurrent_cost(grid, d))
    assert grid[np.argmax(gap > 0)] == pytest.approx(d, rel=1e-3)


@pytest.mark.parametrize("n,d", [(128, 512), (8, 16), (1000, 64), (4096, 512), (512, 512)])
def test_cost_at_n_is_n_d_squared_for_recurrence_and_n_squared_d_for_attention(n, d):
    """The line "at n = 128: attention 4× cheaper   n·d² 33.6M   n²·d 8.39M": each layer's multiply–adds
    at the cursor, and which is cheaper by how much."""
    r = CostState(n=n, d=d).readings()
    assert r.at_n == {"recurrent": n * d * d, "attention": n * n * d}
    assert r.cost_ratio == pytest.approx(max(n, d) / min(n, d))
    assert r.attention_cheaper == (None if n == d else n < d)
    if (n, d) == (128, 512):
        shown = one_app.txt(*find("parallel/cost"), CostState(n=n, d=d), (120, 40))
        assert f"attention 4× cheaper   n·d² {n * d * d / 1e6:.1f}M   n²·d {n * n * d / 1e6:.2f}M" in shown


def test_cost_shot_names_the_crossover_at_512_tokens(tmp_path, capsys):
    out = tmp_path / "c.txt"
    assert main(["shot", "parallel/cost", "--set", "d=512", "-o", str(out)]) == 0
    text = out.read_text()
    assert "n = d = 512 tokens" in text and "Table 1" in text
    assert main(["shot", "parallel/cost", "--set", "d=512", "-o", str(tmp_path / "c.json")]) == 0
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["crossover_n"] == 512
    i = data["n_values"].index(512)
    assert data["recurrent_cost"][i] == data["attention_cost"][i] == 512 ** 3


def test_a_large_cost_ratio_is_a_whole_number(tmp_path):
    """At d = 16 and n = 32768 attention costs n/d = 2048 times the recurrent layer: it read "2.05e+03×
    dearer" (a newcomer's trial)."""
    out = tmp_path / "c.txt"
    assert main(["shot", "parallel/cost", "--set", "d=16", "--step", "32768", "-o", str(out)]) == 0
    assert f"attention {32768 // 16:,}× dearer" in out.read_text()


def test_a_cost_ratio_near_1_is_not_said_as_1(tmp_path):
    """d = 513, n = 512: the recurrent layer costs d/n = 513/512 = 1.00195 times attention's; it read
    "attention 1× cheaper" (an engineer's reading)."""
    out = tmp_path / "c.txt"
    assert main(["shot", "parallel/cost", "--set", "d=513", "--set", "n=512", "-o", str(out)]) == 0
    text = out.read_text()
    assert f"attention {513 / 512:.4g}× cheaper" in text and " 1× " not in text


def test_table_1_rows_are_vaswani_2017():
    rows = {r.layer: (r.per_layer, r.sequential, r.max_path) for r in par.TABLE_1}
    assert rows["Self-Attention"] == ("O(n²·d)", "O(1)", "O(1)")
    assert rows["Recurrent"] == ("O(n·d²)", "O(n)", "O(n)")
    assert rows["Convolutional"] == ("O(k·n·d²)", "O(1)", "O(logₖ(n))")
    assert rows["Self-Attention (restricted)"] == ("O(r·n·d)", "O(1)", "O(n/r)")
    # the grid and path figures agree with the recurrent and self-attention rows at every n
    for n in (4, 8, 32):
        assert par.sequential_steps(par.schedule("recurrent", n)) == n == par.path_length("recurrent", n)
        assert par.sequential_steps(par.schedule("attention", n)) == 1 == par.path_length("attention", n)


def test_table_1_in_a_figures_readings_cannot_change_the_table():
    """The cost figure's readings handed out each row's own dict: a change to one changed Table 1 for
    every figure and export after it (a code review). Its rows are the frozen records themselves."""
    import dataclasses

    rows = CostState().readings().table_1
    with pytest.raises(dataclasses.FrozenInstanceError):
        rows[0].max_path = "X"
    assert par.TABLE_1[0].max_path == "O(1)" and [r.layer for r in rows][:2] == ["Self-Attention", "Recurrent"]


def test_geometric_axes_double_and_snap_to_powers():
    s = CostState()
    assert s.nudged("n", 1).n == 256 and s.nudged("n", -1).n == 64
    assert CostState(n=300).nudged("n", 1).n == 512 and CostState(n=300).nudged("n", -1).n == 256
    assert s.nudged("d", 1).d == 1024 and s.to_end("n", 1).nudged("n", 1).n == 32768
    assert TimingState().nudged("T", -1).T == 1024 and TimingState(T=64).nudged("T", -1).T == 64
    assert CapacityState().nudged("n", 6).n == 256


# -- capacity --------------------------------------------------------------------------------
def test_capacity_4_tokens_128_each_256_tokens_2_each():
    assert par.capacity(512, 4) == 128
    assert f"{par.capacity(512, 256):.2f}" == "2.00"
    for n in (1, 3, 7, 100):
        assert par.capacity(512, n) * n == pytest.approx(512)  # the shares fill the state exactly


def test_capacity_shot_reads_the_share(tmp_path):
    out = tmp_path / "cap.txt"
    assert main(["shot", "parallel/capacity", "--set", "n=256", "--size", "80x24", "-o", str(out)]) == 0
    assert "2 each" in out.read_text() and "2.00" not in out.read_text()  # (whole shares whole: "16.00 each", a trial)
    assert main(["shot", "parallel/capacity", "--set", "n=4096", "--size", "80x24", "-o", str(out)]) == 0
    assert 512 / 4096 == 0.125 and "0.125 each" in out.read_text()  # (it read 0.12)
    assert main(["shot", "parallel/capacity", "--set", "n=1024", "--size", "80x24", "-o", str(out)]) == 0
    assert "0.5 each" in out.read_text()
    assert main(["shot", "parallel/capacity", "--set", "n=32", "--size", "80x24", "-o", str(out)]) == 0
    assert 100 / 32 == 3.125 and "first token's share 3.125% of the state" in out.read_text()  # (it read 3.12%)
    # exact where five figures hold it (.4g rounded 1.5625 to even: 1.562, a student's trial), else four (1.7067
    # and 0.39063 read as noise beside the app's three or four figures, a student's trial)
    for n, said, each in ((64, "1.5625", "8"), (128, "0.78125", "4"), (3, "33.33", "170.7"), (256, "0.3906", "2"),
                          (300, "0.3333", "1.707")):
        assert main(["shot", "parallel/capacity", "--set", f"n={n}", "--size", "80x24", "-o", str(out)]) == 0
        text = " ".join(out.read_text().replace("│", " ").split())
        assert f"first token's share {said}% of the state" in text and f"tokens: {each} each" in text
        exact = 100 / n == float(said)
        assert exact or float(said) == pytest.approx(100 / n, rel=5e-4) and len(said.replace(".", "").lstrip("0")) == 4
        assert float(each) == pytest.approx(512 / n, rel=5e-4)


@pytest.mark.parametrize("n,cols", [(16, 76), (32, 96), (32, 76), (20, 96), (100, 400), (7, 21)])
def test_share_labels_stand_apart_over_their_shares(n, cols):
    """At 32 tokens the labels ran together ("x0x1  x2x3") and stopped at x9 (a trial): every k-th token
    is named, a space at least between two, each over its own share, as far as the last k-th."""
    from rnntui.widgets.sharebar import share_labels

    line = share_labels(n, cols / n, cols)
    words = [(m.start(), m.group()) for m in re.finditer(r"x\d+", line)]
    assert all(b > a + len(w) for (a, w), (b, _w) in zip(words, words[1:]))  # a space at least between two
    k = int(words[1][1][1:]) - int(words[0][1][1:])
    assert [int(w[1:]) for _at, w in words] == list(range(0, n, k))  # none skipped
    for at, w in words:  # its middle within half a cell of its share's middle (not only within the share:
        i = int(w[1:])  # flooring without the half put labels up to a cell left of centre, 16 tokens on 76 columns)
        assert abs(at + len(w) / 2 - (i + 0.5) * cols / n) <= 0.5


def test_the_share_bar_gives_each_token_its_share():
    from rnntui.widgets.sharebar import EVEN, ODD, share_lines
    from rnntui.widgets.tints import HIGHLIGHT

    def plain(line):
        return line.plain if hasattr(line, "plain") else "".join(words for words, _style in line)

    lines = [plain(line) for line in share_lines(512, 4, 40, rows=3)]
    assert len(lines) == 2 + 3 + 2  # labels, ruler, the bar's rows, scale, caption
    assert lines[0].split() == ["x0", "x1", "x2", "x3"] and lines[1] == ("┼" + "─" * 9) * 4  # a tick at each start
    assert lines[2] == lines[3] == lines[4] == "█" * 10 + "▒" * 10 + "░" * 10 + "▒" * 10  # 40/4 columns each
    assert lines[5].startswith("0") and lines[5].endswith("512") and len(lines[5]) == 40
    bar = share_lines(512, 4, 40)[2]  # the colours too: the first share highlighted, the others alternating
    assert [(len(words), style) for words, style in bar] == [(10, HIGHLIGHT), (10, ODD), (10, EVEN), (10, ODD)]
    thin = [plain(line) for line in share_lines(512, 1024, 40)]  # a share 40/1024 of a column wide
    assert thin[2][0] == "▏" and set(thin[2][1:]) <= {"░", "▒"} and "texture" in thin[0]


@pytest.mark.parametrize("n,cols", [(32, 76), (64, 76), (76, 76), (77, 76), (1024, 76), (8, 16)])
def test_the_share_bar_says_texture_only_where_shares_are_thinner_than_a_column(n, cols):
    """At 32 tokens on 80 columns (2.4 columns a share) the heading said "shares thinner than a character
    blur into texture" over shares two and three columns wide (a mutation audit): shares a column or
    wider are named, every k-th token over its own share; thinner ones are said to blur."""
    from rnntui.widgets.sharebar import share_lines

    head = share_lines(512, n, cols)[0].plain
    if cols / n >= 1:
        named = [int(w) for w in re.findall(r"x(\d+)", head)]
        assert "texture" not in head and named[0] == 0 and len(named) > 1 and named[-1] + (named[1] - named[0]) >= n
    else:
        assert head == f"x0 … x{n - 1}: shares thinner than a character blur into texture"


@pytest.mark.parametrize("n,cols", [(8, 76), (16, 40), (3, 40), (7, 40), (32, 76), (64, 76), (1024, 76)])
def test_the_share_bar_ruler_ticks_over_the_first_column_of_each_share(n, cols):
    """A column of the bar is the token's whose share covers its middle (so the texture is drawn);
    the ruler's ┼ stands over the first column of each share. At n = 8 on 80 columns the sixth tick
    stood one column right of where x5's ▒ began (x5 starts at 47.5 cells: round() took ties to even)."""
    from fractions import Fraction

    from rnntui.widgets.sharebar import share_lines

    lines = share_lines(512, n, cols)
    ruler, bar = lines[1].plain, "".join(words for words, _style in lines[2])

    def owner(c: int) -> int:  # the token whose share [i·cols/n, (i+1)·cols/n) holds column c's middle, exactly
        return math.floor(Fraction(2 * c + 1, 2) * n / cols)

    assert ruler == "".join("┼" if c == 0 or owner(c) != owner(c - 1) else "─" for c in range(cols))
    if n <= cols:  # shares a column or wider: past the first share, each column in its token's texture
        first = Fraction(cols, n)
        assert bar[:math.floor(first)] == "█" * math.floor(first)
        assert bar[math.ceil(first):] == "".join("▒" if owner(c) % 2 else "░" for c in range(math.ceil(first), cols))


@pytest.mark.parametrize("n", [128, 1024, 2048, 4096])
def test_shares_thinner_than_a_character_are_an_even_texture(n):
    """At n = 4096 on 76 columns the bar showed 8 bands (the token at each column's middle, aliased),
    coarser than at 2048 (a newcomer's trial): thinner than a column, the shares are ░▒ a column each."""
    from rnntui.widgets.sharebar import share_lines

    bar = "".join(words for words, _style in share_lines(512, n, 76)[2])
    assert all(a != b for a, b in zip(bar[1:], bar[2:])), bar


# -- the timing lab --------------------------------------------------------------------------
def test_flop_counts_follow_matrix_shapes_and_ratio_is_d_over_T():
    def matmul(m, k, n):  # (m×k)·(k×n): m·n dot products of length k, a multiply and an add each
        return 2 * m * k * n

    d = par.TIMING_D
    for T in par.TIMING_T:
        rnn = T * (matmul(d, d, 1) + matmul(d, d, 1))  # W_ih·x_t and W_hh·h_{t-1} at every step
        attn = matmul(T, d, T) + matmul(T, T, d)  # Q·Kᵀ then A·V
        assert par.rnn_flops(T) == rnn and par.attention_flops(T) == attn
        assert par.rnn_flops(T) / par.attention_flops(T) == pytest.approx(d / T)
    assert par.rnn_flops(4096) / par.attention_flops(4096) == pytest.approx(par.SEED_LAPTOP["flop_ratio"]) == 1 / 16


def test_seed_laptop_figures_agree_with_each_other():
    seed = par.SEED_LAPTOP
    # FLOP-rate ratio = (attention FLOPs / RNN FLOPs) / (attention time / RNN time) = 16 / 3.6
    assert (1 / seed["flop_ratio"]) / seed["rnn_speedup"] == pytest.approx(seed["rate_ratio"], abs=0.1)


def test_tiny_lab_run_measures_and_caches(tmp_path):
    torch = pytest.importorskip("torch")
    from rnntui.engine import lab_timing

    seen = []
    result = lab_timing.run(Ts=(8, 16), d=32, repeats=2, progress=lambda *a: seen.append(a[:3]))
    assert [r["T"] for r in result["rows"]] == [8, 16]
    assert result["threads"] == torch.get_num_threads() and result["d"] == 32
    for row in result["rows"]:
        assert row["rnn_flops"] == 4 * row["T"] * 32 ** 2 and row["attention_flops"] == 4 * row["T"] ** 2 * 32
        assert row["rnn_s"] > 0 and row["attention_s"] > 0 and row["rnn_reps"] == 2
        r, a = lab_timing.rates(row)
        assert r == pytest.approx(row["rnn_flops"] / row["rnn_s"])
        assert lab_timing.rate_ratio(row) == pytest.approx(a / r)
    assert seen[0] == (0, 4, "T=8 RNN") and seen[-1][:2] == (4, 4)
    path = lab_timing.save_cache(result)
    assert path.parent == tmp_path / "cache" / "rnntui"
    assert lab_timing.load_cache() == (result, None)
    # readable as a new file is (umask): 0600 refused a shared cache's other students (a teaching-server trial)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask and (0o666 & ~umask) & stat.S_IROTH


def test_the_lab_times_attention_as_the_sources_code_calls_it(monkeypatch):
    """The source's exp_timing calls attn(x, x, x): need_weights left on, the heads' weights computed. The lab
    timed need_weights=False beside the source's line (a mathematician's audit): it now calls it as the source,
    in eval mode, and help says the source's modules stayed in training mode (a review)."""
    torch = pytest.importorskip("torch")
    from rnntui.engine import lab_timing

    calls, forward = [], torch.nn.MultiheadAttention.forward

    def spy(self, *args, **kwargs):
        calls.append((kwargs.get("need_weights", True), self.training))
        return forward(self, *args, **kwargs)

    monkeypatch.setattr(torch.nn.MultiheadAttention, "forward", spy)
    lab_timing.run(Ts=(8,), d=16, repeats=2)
    # every timed forward computed the weights, as the source's did; in eval mode, as inference runs (the
    # source's stayed in training mode, a slower path): help says so
    assert calls and set(calls) == {(True, False)}
    from rnntui.screens.parallel import TimingView

    assert "never called .eval()" in TimingView.explained(None)


def test_lab_stops_between_forwards_with_the_rows_so_far():
    pytest.importorskip("torch")
    from rnntui.engine import lab_timing

    jobs = []
    with pytest.raises(lab_timing.Cancelled) as stop:
        lab_timing.run(Ts=(8, 16), d=16, repeats=2, progress=lambda *a: jobs.append(a[2]),
                       should_stop=lambda: len(jobs) >= 3)
    assert [r["T"] for r in stop.value.partial["rows"]] == [8]


def test_lab_entry_saves_the_cache_and_the_table_reads_the_run(monkeypatch):
    from dataclasses import replace

    from rnntui.engine import lab_timing
    from rnntui.figure import LabRun

    def row(T, rnn_s):
        return {"T": T, "rnn_s": rnn_s, "attention_s": 4 * rnn_s, "rnn_flops": par.rnn_flops(T),
                "attention_flops": par.attention_flops(T)}

    full = {"version": 1, "machine": {"host": "here"}, "torch": "2.0+cpu", "threads": 3, "when": "now",
            "rows": [row(T, 1e-3) for T in par.TIMING_T]}

    def fake_run(progress=None, **_):
        progress(0, 8, "T=64 rnn", {"rows": []})
        return full

    monkeypatch.setattr(lab_timing, "run", fake_run)
    seen = []
    assert lab_timing.run_lab(TimingState(), lambda *a: seen.append(a)) is full
    assert seen == [(0, 8, "T=64 rnn", {"rows": []})] and lab_timing.load_cache() == (full, None)

    s = TimingState(T=256)
    assert s.readings().measured == full  # the file the lab saved is what a fresh figure reads
    done = replace(s, run=LabRun(status="done", number=1, result=full))
    r = done.readings()
    assert r.status == "measured" and r.machine == {"host": "here", "when": "now", "torch": "2.0", "threads": 3}
    assert r.here.speedup == pytest.approx(4) and r.here.flop_ratio == 1  # d = T = 256
    assert r.here.rate_ratio == pytest.approx((par.attention_flops(256) / par.rnn_flops(256)) / 4)
    # while a new run measures, its rows come first; the last full run fills the rest
    running = replace(s, run=LabRun(status="running", number=2, result=full, partial={"rows": [row(64, 2e-3)]}))
    rows = {t.T: t.rnn_s for t in running.readings().table}
    assert rows == {64: 2e-3, 256: 1e-3, 1024: 1e-3, 4096: 1e-3}
    assert running.readings().status == "measuring"
    # and the table marks them (beside the last full run's they read alike, a trial)
    from rnntui.widgets.timing import timing_table

    lines = timing_table(running.readings().table, 256).plain.splitlines()[1:]
    assert [line.split()[1] for line in lines if line.startswith("*")] == ["64"]
    assert not any(line.startswith("*") for line in timing_table(done.readings().table, 256).plain.splitlines())
    from rnntui.screens.parallel import ParallelScreen

    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), running, (80, 24))
    assert "* this run's rows" in text and "│ *  64" in text  # (at 80x24: "  new" at the end was cut to "n")
    started = replace(s, run=LabRun(status="running", number=2, result=full, partial={"rows": []}))
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), started, (80, 24))
    assert "measuring" in text and "this run's rows" not in text  # (no row has its * yet: said, a trial)

    def refuse(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(lab_timing, "save_cache", refuse)
    result = lab_timing.run_lab(TimingState(), lambda *a: None)
    assert result["cache_note"] == "cannot write " + str(lab_timing.cache_path()) + ": no space left on the device"
    done = replace(s, run=LabRun(status="done", number=3, result=result))
    assert "measured, but not cached: cannot write" in one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"),
                                                                  done, (100, 30)).replace("│", " ")


def _measured(speedups: dict) -> TimingState:
    """A timing figure whose lab measured the RNN `speedups[T]` times faster than attention at each T."""
    from dataclasses import replace

    from rnntui.figure import LabRun

    rows = [{"T": T, "rnn_s": 1e-3, "attention_s": k * 1e-3, "rnn_flops": par.rnn_flops(T),
             "attention_flops": par.attention_flops(T)} for T, k in speedups.items()]
    full = {"version": 1, "machine": {"host": "here"}, "torch": "2.0", "threads": 1, "when": "now", "rows": rows}
    return replace(TimingState(), run=LabRun(status="done", number=1, result=full))


def test_export_says_which_slides_show_no_timing_yet(tmp_path, capsys):
    """The lecture's timing slide went to class as a table of "—" on a machine that had not measured, and
    export said nothing (a lecturer's trial): it names those frames and the command that measures; once
    measured and cached, nothing."""
    from rnntui.engine import lab_timing

    assert main(["export", str(tmp_path / "a"), "parallel/timing", "--format", "txt"]) == 0
    shown = sorted((tmp_path / "a").glob("*.txt"))
    assert len(shown) == 4 and all("not measured here yet" in p.read_text(encoding="utf-8") for p in shown)
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "frames 1–4: not measured on this machine yet (a table of —); rnntui train timing measures it (~10 s), "
        "then export again")
    lab_timing.save_cache(_measured({64: 0.5, 256: 1.0, 1024: 2.0, 4096: 3.6}).run.result)
    assert main(["export", str(tmp_path / "b"), "parallel/timing", "--format", "txt"]) == 0
    assert "not measured" not in capsys.readouterr().err
    assert "not measured here yet" not in (tmp_path / "b" / shown[0].name).read_text(encoding="utf-8")


async def test_a_talk_names_its_unmeasured_timing_slide_as_it_starts_and_ends(tmp_path, monkeypatch, capsys):
    """Export named the timing slide that would show a table of "—"; `present` did not, and the lecturer met
    it in class (a lecturer's trial). The talk's foot says it as the talk starts, the shell as it ends."""
    from rnntui import cli
    from rnntui.deck import load
    from rnntui.engine import lab_timing
    from rnntui.present import PresentApp

    from test_slides import text_of

    deck = tmp_path / "talk.toml"
    deck.write_text('[[frame]]\nfigure = "recurrence/track"\n[[frame]]\nfigure = "parallel/timing"\n',
                    encoding="utf-8")
    app = PresentApp(load(str(deck)))
    async with app.run_test(size=(80, 24)) as pilot:  # its command whole at 80 columns (it was cut off: a review)
        await pilot.pause()
        assert "slide 2: no timing yet; rnntui train timing" in text_of(app).rstrip().splitlines()[-1]
    monkeypatch.setattr(cli, "run_tui", lambda app: 0)
    monkeypatch.setattr(cli, "require_terminal", lambda what: None)
    assert main(["present", str(deck)]) == 0
    assert "rnntui: slide 2: not measured on this machine yet (a table of —); rnntui train timing measures it" \
        in capsys.readouterr().err
    lab_timing.save_cache(_measured({64: 0.5, 256: 1.0, 1024: 2.0, 4096: 3.6}).run.result)  # measured: nothing
    assert main(["present", str(deck)]) == 0 and "not measured" not in capsys.readouterr().err
    async with PresentApp(load(str(deck))).run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        assert "not measured" not in text_of(pilot.app)


def test_a_forward_is_timed_as_the_median_and_the_slowest_over_the_fastest(monkeypatch):
    """One run of the timing lab on a busy machine moved its medians and nothing said so (a trial): each
    row now keeps how far its repeats were apart. A fake clock: repeats of 2, 1, 4, 3, 2 ms."""
    from rnntui.engine import lab_timing

    ticks = iter([0.0, 0.002, 0.0, 0.001, 0.0, 0.004, 0.0, 0.003, 0.0, 0.002])
    monkeypatch.setattr(lab_timing.time, "perf_counter", lambda: next(ticks))
    calls = []
    median, reps, spread = lab_timing._median_time(lambda: calls.append(1), 5, 10.0, lambda: False)
    assert (median, reps, spread) == (0.002, 5, 4.0) and len(calls) == 6  # one warm-up, not timed
    assert lab_timing.spread({"rnn_spread": 1.5, "attention_spread": 4.0}) == 4.0
    assert lab_timing.spread({"rnn_s": 1.0}) is None  # a run cached before spreads were kept


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_timing_figure_says_how_far_its_repeats_were_apart(size):
    """The widest row's slowest-over-fastest is said under the table; from 2× it says the machine was
    busy and how to measure again. A run cached without spreads says nothing of them."""
    from dataclasses import replace

    from rnntui.render import render

    screen, figure = find("parallel/timing")
    s = _measured({64: 0.5, 256: 1.25, 1024: 2.5, 4096: 3.0})
    rows = s.run.result["rows"]

    def with_spreads(spreads):
        result = dict(s.run.result, rows=[dict(row, rnn_spread=a, attention_spread=b)
                                           for row, (a, b) in zip(rows, spreads)])
        return replace(s, run=replace(s.run, result=result))

    def said(state):
        return " ".join(render(screen, figure, state, "txt", size=size).replace("│", " ").split())

    calm = said(with_spreads([(1.1, 1.2), (1.3, 1.05), (1.0, 1.4), (1.2, 1.1)]))
    assert "Repeats differed by up to 1.4× (T=1024)." in calm and "busy" not in calm
    busy = said(with_spreads([(1.1, 1.2), (3.04, 1.05), (1.0, 1.4), (1.2, 1.1)]))
    assert "Repeats differed by up to 3.0× (T=256): a busy machine; t measures again." in busy
    assert "2.0×" in (edge := said(with_spreads([(1.96, 1.0)] * 4))) and "busy machine" in edge  # as shown
    assert "Repeats" not in said(s)


@pytest.mark.parametrize("width", [76, 80, 90, 120])
def test_the_source_laptops_under_1_ms_stays_on_one_line(width):
    """"both < 1 ms" broke between "1" and "ms" at 80 columns (a trial)."""
    from rnntui.render import render

    screen, figure = find("parallel/timing")
    text = render(screen, figure, _measured({64: 0.5, 256: 1.25, 1024: 2.5, 4096: 3.0}), "txt", size=(width, 24))
    assert "below T=1024" in text and any("<\u00a01\u00a0ms below" in line for line in text.splitlines())


def test_the_ratio_plot_has_d_over_T_the_times_measured_and_the_seed_laptop():
    """E6's point, plotted: FLOPs RNN ÷ attention are d/T (4 at T=64, 1/16 at 4096), the time ratio is
    one over the measured speed-up, and the seed laptop's RNN was 3.6× faster at T=4096."""
    speedups = {64: 0.5, 256: 1.25, 1024: 2.5, 4096: 3.0}
    r = _measured(speedups).readings().ratios
    assert r["T"] == (64.0, 256.0, 1024.0, 4096.0)
    assert r["flops"] == pytest.approx([256 / T for T in par.TIMING_T]) and r["flops"][-1] == 1 / 16
    assert r["time"] == pytest.approx([(T, 1 / k) for T, k in speedups.items()])
    assert r["seed"] == pytest.approx((4096, 1 / 3.6))
    assert TimingState().readings().ratios["time"] == ()  # nothing measured (the tests' cache is empty): no times


@pytest.mark.parametrize("size, plotted", [((80, 24), False), ((44, 35), False), ((44, 36), "bare"), ((44, 40), True), ((80, 36), True),
                                           ((120, 40), True), ((200, 60), True)])
def test_the_timing_figure_plots_its_ratios_in_the_rows_its_text_leaves(size, plotted):
    """At 200×60 the timing figure drew its 13 rows, as at 80×24, the rest of the panel blank: it now
    also plots the ratios in the rows its text leaves, where they are enough (9), legend and axis label
    whole (at 44 columns the legend takes two lines); with fewer (80×24; 44×36, where the text wraps
    more), without its x axis (44×36), or none (80×24; 44×35, where the legend below takes two rows). The table's rows go without blank lines between them
    where those would cost the plot."""
    from rnntui.render import render

    screen, figure = find("parallel/timing")
    text = render(screen, figure, _measured({64: 0.5, 256: 1.25, 1024: 2.5, 4096: 3.0}), "txt", size=size)
    assert "1/16" in text  # the table, both ways
    assert ("T; RNN ÷ attention, both axes log" in text) == (plotted is True) and ("1┤" in text) == bool(plotted)
    legend = ("━━ FLOPs (d/T)  ┈┈ time here", "◆ time, source's laptop")
    assert all(entries in text for entries in legend) == bool(plotted)
    assert "too small" not in text


@pytest.mark.parametrize("size", [(100, 30), (120, 40), (200, 60)])
def test_the_source_laptops_point_is_drawn_between_the_1_and_the_0_1_rows(size):
    """The laptop's RNN ran 3.6× faster: its ◆ at 1/3.6 ≈ 0.28 lies between 1 and 0.1 on a log axis. At 100x30
    (the lecture's slide size) the axis, padded 2× each way, gave a decade a row and the ◆ stood on the line at
    1: "the same time" (a student's trial)."""
    from rnntui.render import render

    screen, figure = find("parallel/timing")
    lines = render(screen, figure, TimingState(), "txt", size=size).splitlines()
    row = {mark: next(i for i, line in enumerate(lines) if mark in line and "source's laptop" not in line)
           for mark in (" 1┤", " 0.1┤", "◆")}  # (the point's row, not the legend's: a review)
    assert row[" 1┤"] < row["◆"] < row[" 0.1┤"], (size, row)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_not_measured_yet_names_the_whole_command_at_80_columns(lang):
    """"…(torch, in the background, ~10 s), or rnnt…": at 80x24 the shell command that measures it was cut
    (a student's trial); the line is shorter, and fits (wrapped, it took the plot's last row: the review)."""
    from rnntui.i18n import set_language
    from rnntui.render import render

    screen, figure = find("parallel/timing")
    set_language(lang)
    try:
        text = render(screen, figure, TimingState(), "txt", size=(80, 24))
    finally:
        set_language("en")
    assert TimingState().readings().status == "unmeasured"
    assert "rnntui train timing" in text and "…" not in text.split("T  FLOPs")[0].split("┤")[0]


def test_one_measured_point_is_a_square_not_the_cursors_dot():
    """While a run has measured only T=64 its time is one point: drawn ■ (legend too), where a ● read as
    a second cursor, and not under a label: the line at 1 has none, the axis says 1 (found by reviews)."""
    from rnntui.render import render

    screen, figure = find("parallel/timing")
    for size, ratio in (((120, 40), 2.0), ((100, 30), 2.0), ((120, 40), 1.0)):  # (at 100x30 and at 1 it was
        text = render(screen, figure, _measured({64: 1 / ratio}), "txt", size=size)  # under the line's label)
        assert "■ time here" in text and text.count("■") == 2, (size, ratio)


def test_a_corrupt_cache_is_said_whole_at_80x24():
    """The status line cut it at "…was corrupt (not JSON (Unterminated string star…": what was done with the
    file and what comes next were never seen (a teaching-server trial). A note or a problem wraps."""
    from rnntui.engine import lab_timing
    from rnntui.figures.parallel import TimingState
    from rnntui.screens.parallel import ParallelScreen

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "rows": [{"T": 64, "rnn')
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), TimingState(), (80, 24))
    said = " ".join(text.replace("│", " ").split())
    assert f"timing cache {path.name} was corrupt (not JSON" in said
    assert f"set aside as {path.name}.corrupt; the next run rebuilds it" in said and "…" not in said


def test_a_corrupt_cache_is_said_in_chinese_in_full_lines():
    """In Chinese the note broke at a space, "…已改名为 timing-vm.json.corrupt" some 17 cells short of the
    edge (a review): it is wrapped as prose is, each line but the last filled to the width."""
    from rich.cells import cell_len

    from rnntui.engine import lab_timing
    from rnntui.figures.parallel import TimingState
    from rnntui.i18n import set_language
    from rnntui.render import render
    from rnntui.screens.parallel import ParallelScreen

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"x": 1')
    try:
        set_language("zh")
        text = render(ParallelScreen, ParallelScreen.figure_by_id("timing"), TimingState(), "txt", (80, 24))
    finally:
        set_language("en")
    rows = [row.strip("│").rstrip() for row in text.splitlines()]
    first = next(i for i, row in enumerate(rows) if "计时实验的缓存" in row)
    note = rows[first:next(i for i in range(first, len(rows)) if "重建它" in rows[i]) + 1]
    # (a line may end short of an English word, "line", that does not fit: never of a Chinese one)
    assert len(note) >= 2 and all(cell_len(row) >= 78 - len("line ") - 2 for row in note[:-1]), note
    assert "下次运行会重建它" in "".join(row.strip() for row in note)


def test_corrupt_cache_is_reported_in_one_line_and_rebuilt(tmp_path):
    from rnntui.engine import lab_timing

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "rows": [')
    result, problem = lab_timing.load_cache()
    assert result is None and "corrupt" in problem and "\n" not in problem
    assert not path.exists() and path.with_name(path.name + ".corrupt").exists()
    assert lab_timing.load_cache() == (None, None)
    good = {"version": 1, "machine": {"host": "box"}, "torch": "2.3.0", "threads": 4, "when": "2026-01-01 10:00",
            "rows": [{"T": 64, "rnn_s": 1e-3, "attention_s": 2e-3, "rnn_flops": 1, "attention_flops": 1}]}
    lab_timing.save_cache(good)
    assert lab_timing.load_cache() == (good, None)
    path.write_text(json.dumps({"version": 1, "rows": [{"T": 64}]}))  # valid JSON, wrong shape
    assert lab_timing.load_cache()[1].startswith("timing cache")



def test_the_timing_figure_reads_a_run_saved_after_it_was_drawn(tmp_path):
    """The cache was read once a process: after a lab's run saved it, r still said "unmeasured" (a review).
    It is read again when the file changes; a corrupt one's note stays until a run writes a new one."""
    from rnntui.engine import lab_timing

    path = lab_timing.cache_path()
    assert TimingState().readings().status == "unmeasured"
    good = {"version": 1, "machine": {"host": "box"}, "torch": "2.3.0", "threads": 4, "when": "2026-01-01 10:00",
            "rows": [{"T": 64, "rnn_s": 1e-3, "attention_s": 2e-3, "rnn_flops": 1, "attention_flops": 1}]}
    lab_timing.save_cache(good)
    r = TimingState().readings()
    assert r.status == "measured" and r.machine["host"] == "box"
    path.write_text('{"version": 1, "rows": [')
    assert "was corrupt" in TimingState().readings().note and not path.exists()
    assert "was corrupt" in TimingState().readings().note  # (the file was set aside: the note stays)
    lab_timing.save_cache(good)
    assert TimingState().readings().status == "measured" and "corrupt" not in TimingState().readings().note

def test_timing_json_lists_flops_and_seed(tmp_path):
    out = tmp_path / "t.json"
    assert main(["shot", "parallel/timing", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["T_values"] == [64, 256, 1024, 4096] and data["measured"] is None
    assert data["rnn_flops"][-1] * 16 == data["attention_flops"][-1]


# -- interaction -----------------------------------------------------------------------------
async def test_space_animates_the_grid_and_pause_stops_it():
    from rnntui.app import RnnApp

    app = RnnApp("parallel")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        assert screen.figure.id == "grid" and screen.state.step == 0
        await pilot.press("space")
        for _ in range(40):
            await pilot.pause(0.1)
            if screen.state.step >= 2:
                break
        assert screen.state.step >= 2 and screen.playing
        await pilot.press("m")  # toggling mode while it plays: a whole column lights
        assert screen.state.mode == "attention"
        await pilot.press("space")
        assert screen.playing is None
        stopped = screen.state.step
        await pilot.pause(0.6)
        assert screen.state.step == stopped


async def wait_for(condition, seconds: float) -> bool:
    import asyncio
    import time

    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return condition()


def _shown(app) -> str:
    return "\n".join("".join(seg.text for strip in row for seg in strip)
                     for row in app.screen._compositor.render_update(full=True).strips)


async def test_timing_lab_runs_in_a_child_reports_cancels_and_lands(monkeypatch):
    """The one lab runner, on the timing figure, with torch-free stand-in labs from rnntui.labs."""
    import os
    import time

    from rnntui.app import RnnApp
    from rnntui.screens.parallel import ParallelScreen

    def use(target: str) -> None:
        lab_standins.use(monkeypatch, ParallelScreen, target)

    use("rnntui.labs:demo_lab")
    app = RnnApp("parallel", "timing")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        await pilot.press("t")
        assert screen.state.run.running and screen.state.readings().status == "measuring"
        child = screen.labs.process
        assert child.pid != os.getpid()
        assert await wait_for(lambda: screen.state.run.done >= 2, 30)  # progress arrives
        assert screen.state.run.partial == {"demo": screen.state.run.done}
        await pilot.press("left")  # keys still answer while it runs
        assert screen.state.T == 1024 and screen.state.run.running  # the run follows the figure
        await pilot.pause()  # the footer says what t does now; behind tab, the bottom edge says it runs (a TA's trial)
        assert "t stop" in _shown(app) and "t lab" not in _shown(app)
        await pilot.press("tab")
        await pilot.pause()
        assert "timing's lab runs · 1/5" in _shown(app) and "t stop" not in _shown(app)
        await pilot.press("shift+tab")
        pressed = time.monotonic()
        await pilot.press("t")  # t again cancels: the child is gone within a second
        assert await wait_for(lambda: not child.is_alive(), 1.0) and time.monotonic() - pressed < 1.0
        assert await wait_for(lambda: screen.state.run.status == "cancelled", 1.0)
        assert screen.state.readings().note.startswith("cancelled: rows measured so far")

        use("rnntui.labs:demo_lab_quick")
        await pilot.press("t")  # a finished run's result lands in the state
        assert await wait_for(lambda: screen.state.run.status == "done", 30)
        run = screen.state.run
        assert run.result["demo"] == 3 and run.result["pid"] != os.getpid() and run.number == 2
        assert screen.state.readings().status == "unmeasured"  # not a timing result: nothing to show

        use("rnntui.labs:demo_lab")
        await pilot.press("t")
        assert await wait_for(lambda: screen.state.run.done >= 1, 30)
        child = screen.labs.process
        await pilot.press("n")  # leaving the screen cancels
        assert await wait_for(lambda: not child.is_alive(), 1.0)
        assert app.topic_screen() is not screen


def _children() -> dict[int, str]:
    """This process's living children: pid → command line."""
    import psutil

    out = {}
    for child in psutil.Process().children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                out[child.pid] = " ".join(child.cmdline())
        except psutil.NoSuchProcess:
            pass  # (ended while read)
    return out


async def test_after_a_lab_the_app_is_alone_again(monkeypatch):
    """A lab's child ends with the lab and leaves nothing beside the app: multiprocessing's spawn started
    its resource tracker, ~13 MB more in each student's session until the app quit (a server of 60)."""
    import os
    from dataclasses import replace

    from rnntui.app import RnnApp
    from rnntui.figure import Lab
    from rnntui.screens.parallel import ParallelScreen

    monkeypatch.setattr(ParallelScreen, "FIGURES", tuple(
        replace(f, lab=Lab("rnntui.labs:demo_lab_quick", "measure")) if f.lab else f for f in ParallelScreen.FIGURES))
    before = _children()
    app = RnnApp("parallel", "timing")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        await pilot.press("t")
        child = screen.labs.process.pid
        assert await wait_for(lambda: screen.state.run.status == "done", 30)
        assert screen.state.run.result["pid"] == child != os.getpid()  # it ran in the app's child
        assert await wait_for(lambda: _children().keys() <= before.keys(), 2.0), _children()
    assert not {pid: line for pid, line in _children().items() if pid not in before}  # (named if any)


async def test_a_lab_that_ends_without_a_word_says_how_at_once(monkeypatch):
    """A child that crashes or is killed after a report: the screen says it ended without a result and
    how, at once (it said "running" for ever while the watcher spun a core on the closed pipe)."""
    from rnntui.app import RnnApp
    from rnntui.screens.parallel import ParallelScreen

    def use(target: str) -> None:
        lab_standins.use(monkeypatch, ParallelScreen, target)

    app = RnnApp("parallel", "timing")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        for target, said in (("lab_standins:exits", "(exit status 3)"), ("lab_standins:killed", "(killed by signal 9)")):
            use(target)
            await pilot.press("t")
            assert await wait_for(lambda: screen.state.run.status == "failed", 10), screen.state.run
            assert screen.state.run.message == f"the lab process ended without a result {said}"
            assert await wait_for(lambda: not screen.labs.busy, 1.0) and not screen.labs.process.is_alive()


async def test_a_lab_that_cannot_start_says_so_in_one_line(monkeypatch):
    """No Python where sys.executable says: `t` said nothing and the app ended in a traceback."""
    import sys

    from rnntui.app import RnnApp

    app = RnnApp("parallel", "timing")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        monkeypatch.setattr(sys, "executable", "/nonexistent/python")
        await pilot.press("t")
        run = screen.state.run
        assert run.status == "failed" and run.message.startswith("FileNotFoundError: ") and "\n" not in run.message
        assert app.is_running and not screen.labs.busy


def test_a_lab_child_ends_when_the_app_is_gone():
    """The app holds the child's stdin open; killed (SIGKILL, SIGTERM), its end closes and the child
    ends at once, not at its next report (a timing row reports after seconds, a stuck step never)."""
    import time

    from rnntui import labs

    child, conn = labs._spawn("lab_standins:silent", None, "test")
    try:
        assert conn.poll(30) and conn.recv()[0] == "progress"  # it runs, then sleeps a minute
        assert child.is_alive()
        child.stdin.close()  # what the kernel does as the app dies
        gone = time.monotonic()
        child.wait(timeout=5)
        assert time.monotonic() - gone < 1.0
    finally:
        conn.close()
        labs._kill(child)



def test_a_lab_child_speaks_the_apps_language():
    """The timing lab's refused save said "已测得，但未缓存：cannot write …: File exists" (a review): the child
    said its reason in English. It speaks the app's language as the lab starts."""
    from rnntui import labs
    from rnntui.i18n import set_language

    for lang, word in (("zh", "从未"), ("en", "never")):
        set_language(lang)
        try:
            child, conn = labs._spawn("lab_standins:speaks", None, "test")
        finally:
            set_language("en")
        try:
            assert conn.poll(30) and conn.recv() == ("done", word)
        finally:
            conn.close()
            labs._kill(child)

def test_a_lab_works_on_while_nothing_reads_its_reports(tmp_path):
    """With the app suspended (ctrl+z) nothing reads the pipe: seq2seq's reports, which carry its weights,
    filled it and its live run stopped until `fg` (a student's trial). The lab goes on, the reports it made
    meanwhile come to the newest one, and the result comes after it."""
    import time

    from rnntui import labs

    marker = tmp_path / "worked"
    child, conn = labs._spawn("lab_standins:floods", str(marker), "test")
    try:
        until = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < until:  # the pipe unread meanwhile
            time.sleep(0.05)
        assert marker.exists()
        got = []
        while not got or got[-1][0] == "progress":
            assert conn.poll(10)
            got.append(conn.recv())
        assert got[-1] == ("done", {"n": 50}) and got[-2][1][0] == 49 and len(got) < 50
    finally:
        conn.close()
        labs._kill(child)


async def test_t_only_acts_on_the_timing_figure():
    from rnntui.app import RnnApp

    app = RnnApp("parallel", "grid")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        screen = app.topic_screen()
        assert screen.labs.process is None and not screen.check_action("lab", ())
        await pilot.press("shift+tab")  # to the timing figure: t is offered there
        assert screen.figure.id == "timing" and screen.check_action("lab", ())


def test_grid_snapshot_80x24(snap_compare):
    """The telling state: recurrent, n = 8, after all 8 wallclock steps. Paired with its tally, derived
    here from the schedule itself: each position waits for the one before, so job i runs at step i
    (the earliest it can), 8 steps one after another, 8 busy cells of the 8 × 8 grid."""
    from rnntui.app import RnnApp
    from rnntui.screens.parallel import ParallelScreen

    n = 8
    step = [0] * n  # the earliest step of each job: one after the last of its dependencies
    for i, deps in enumerate(par.dependencies("recurrent", n)):
        step[i] = max((step[j] + 1 for j in deps), default=0)
    busy = np.zeros((n, n), dtype=bool)
    busy[np.arange(n), step] = True
    sequential, cells = int(busy.any(axis=0).sum()), int(busy.sum())
    assert (sequential, cells) == (8, 8)
    state = build_state(find("parallel/grid")[1], ["mode=recurrent", f"n={n}"], str(n))
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("grid"), state, (80, 24))
    assert f"steps with work {sequential} of {n}" in text and f"busy cells {cells} of {n * n}" in text

    async def to_the_end(pilot):
        await pilot.press("end")
        assert pilot.app.topic_screen().state == state
    assert snap_compare(RnnApp("parallel", "grid"), run_before=to_the_end, terminal_size=(80, 24))


def test_small_text_at_80_columns_one_thread_and_h_t_minus_1():
    from rnntui.screens.parallel import ParallelScreen
    from rnntui.widgets.timing import timing_status
    timing = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), TimingState(), (80, 24))
    assert "~10 s)" in timing  # the status line is whole at 80 columns
    grid = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("grid"), GridState(), (80, 24))
    assert "h_{i−1}" in grid and "h_(" not in grid

    class R:
        status, machine = "measured", {"host": "h", "when": "now", "torch": "2", "threads": 1}
    assert "1 thread " in timing_status(R()).plain and "t re-runs" not in timing_status(R(), True).plain


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_timing_figure_says_whose_flop_rate_attention_runs_at(lang):
    """"attention runs at 0.719× its FLOP rate" left "its" open (a trial): the number is attention's FLOPs
    per second over the RNN's, and the line says "the RNN's". A measured run where the RNN is 4× faster at
    T = d = 256 (equal FLOPs there): attention runs at 1/4 the RNN's rate, read from the table's FLOPs
    and times; the source's laptop line says the same of its number."""
    from rnntui.fmt import ratio
    from rnntui.i18n import set_language
    from rnntui.render import render
    from rnntui.screens.parallel import ParallelScreen

    state = replace_T(_measured({T: 4 for T in par.TIMING_T}), 256)
    row = next(t for t in state.readings().table if t.T == 256)
    rate = (row.attention_flops / row.attention_s) / (row.rnn_flops / row.rnn_s)
    assert rate == pytest.approx(0.25)
    set_language(lang)
    try:
        text = render(ParallelScreen, ParallelScreen.figure_by_id("timing"), state, "txt", (120, 40))
    finally:
        set_language("en")
    said = " ".join(" ".join(line.strip("│ ").split()) for line in text.splitlines())
    seed = state.readings().seed_laptop
    if lang == "en":
        assert f"attention runs at {ratio(rate)}× the RNN's FLOP rate" in said and "its FLOP rate" not in said
        assert f"attention runs at {seed['rate_ratio']}× the RNN's FLOP rate" in said
    else:
        assert f"attention 的 FLOP 速率是 RNN 的 {ratio(rate)} 倍" in said and "是它的" not in said


@pytest.mark.parametrize("T", [64, 4096])
def test_the_timing_figure_says_which_does_more_flops_as_d_over_T(T):
    """RNN FLOPs over attention's are 4·T·d² / (4·T²·d) = d/T: with d = 256 the RNN does 4× the FLOPs at T = 64
    and 1/16 of them at T = 4096 (not 16×), in the table and in the words under it."""
    from fractions import Fraction

    from rnntui.screens.parallel import ParallelScreen

    d = 256
    share = Fraction(d, T)
    assert TimingState(T=T).readings().here.flop_ratio == share
    assert {row.T: row.flop_ratio for row in TimingState(T=T).readings().table}[T] == share
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), TimingState(T=T), (100, 30))
    said = " ".join(" ".join(line.strip("│ ").split()) for line in text.splitlines())
    words = "4× the FLOPs" if T == 64 else "1/16 of the FLOPs"
    assert f"here, T={T}: RNN does {words}" in said, said


def test_the_source_laptops_speed_up_agrees_with_its_flops_and_rate():
    """The source's laptop: the RNN does 1/16 of the FLOPs and attention runs at 4.5× its FLOP rate, so the RNN
    is 16 / 4.5 ≈ 3.6× faster; the line says 3.6× faster, not the rate's 4.5×."""
    from rnntui.screens.parallel import ParallelScreen

    seed = par.SEED_LAPTOP
    speedup = round((1 / seed["flop_ratio"]) / seed["rate_ratio"], 1)
    assert speedup == 3.6
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), TimingState(), (100, 30))
    said = " ".join(" ".join(line.strip("│ ").split()) for line in text.splitlines())
    assert f"RNN does 1/16 of the FLOPs, {speedup}× faster; attention runs at 4.5× the RNN's FLOP rate" in said


def replace_T(state: TimingState, T: int) -> TimingState:
    from dataclasses import replace

    return replace(state, T=T)


def test_cost_says_its_ratio_is_table_1s_terms_and_help_names_the_projections_left_out(capsys):
    """"at n = 128: attention 4× cheaper" read as a whole layer's cost (a student's trial). The ratio is Table
    1's terms alone, n·d² over n²·d = d/n; help says a whole layer's projections are left out."""
    from rnntui.help import help_text
    from rnntui.screens.parallel import ParallelScreen

    state = CostState(n=128)
    assert main(["shot", "parallel/cost", "--step", "128", "-o", "-"]) == 0
    assert f"at n = 128: attention {state.d // 128}× cheaper" in capsys.readouterr().out  # (n·d² / n²·d)
    figure = ParallelScreen.figure_by_id("cost")
    prose = help_text(SimpleNamespace(TOPIC_ID="parallel", figure=figure, state=state))[1]
    assert "Table 1's per-layer terms" in prose and "projections" in prose and "leaves out" in prose


async def test_a_measurement_that_cannot_be_cached_says_so_as_it_starts(tmp_path, monkeypatch):
    """As memory/copy's lab: the timing lab said "measured, but not cached: cannot write …" only once it had
    measured. `t` checks the cache first, and the status says why it will not be cached while it measures."""
    from rnntui.screens.parallel import ParallelScreen

    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # the cache's folder cannot be made
    run = await lab_standins.first_run(monkeypatch, ParallelScreen, "timing")  # (torch-free: a report, a sleep)
    assert run.status == "running" and run.message.startswith(f"cannot write {tmp_path}/file/rnntui/timing-")
    measuring = TimingState(run=run)
    assert (measuring.readings().status, measuring.readings().note) == ("measuring", run.message)
    said = "".join(one_app.txt(*find("parallel/timing"), measuring, (100, 30)).replace("│", "").split())
    assert "itwillnotbecached:" + "".join(run.message.split()) in said
    assert TimingState().readings().note == "" and TimingState().lab_note() == run.message


def test_cost_says_large_flops_with_a_unit_never_in_exponent_notation():
    """n·d² and n²·d came out as "1e+03G" where the count rounds to 1,000 of a unit, and attention/block's
    core FLOPs as "1.13e+03T" past 1,000 T (a code review): rounded first, they take the next unit."""
    from rnntui.fmt import si

    n, d = 11047, 8192
    assert n * n * d == pytest.approx(1e12, rel=5e-4)  # 0.99975e12: three figures make it 1.00e12
    line = next(row for row in one_app.txt(*find("parallel/cost"), CostState(d=d, n=n), (120, 30)).splitlines()
                if "crossover" in row)
    assert "n·d² 741G" in line and "n²·d 1T" in line and "e+" not in line  # 11047·8192² = 7.41e11
    assert si(4 * 131072 ** 2 * 16384) == "1.13P" and si(999_600) == "1M" and si(999.4) == "999"
    assert si(537e6) == "537M" and si(-4.294e9) == "-4.29G"


def test_timing_says_every_time_to_three_figures_and_the_ratio_to_two():
    """"20 ms" beside "21.2 ms", "0.35 ms" beside "0.745 ms", and "6× faster" where other runs read "4.8×"
    (a student's trial): a trailing zero is kept, so a column reads to the same figures."""
    from dataclasses import replace

    from rnntui.figure import LabRun
    from rnntui.screens.parallel import ParallelScreen

    times = {64: (0.00035, 0.000745), 256: (0.0212, 0.020), 1024: (0.0035, 0.0351), 4096: (0.0035, 0.021)}
    rows = [{"T": T, "rnn_s": rnn, "attention_s": attn, "rnn_flops": par.rnn_flops(T),
             "attention_flops": par.attention_flops(T)} for T, (rnn, attn) in times.items()]
    full = {"version": 1, "machine": {"host": "here"}, "torch": "2.0+cpu", "threads": 1, "when": "now", "rows": rows}
    state = replace(TimingState(T=4096), run=LabRun(status="done", number=1, result=full))
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), state, (120, 40))
    table = {int(line.split()[1]): line.split()[5:9] for line in text.splitlines() if re.match(r"│ +\d+ ", line)}
    assert table[64][:4] == ["0.350", "ms", "0.745", "ms"] and table[256][:4] == ["21.2", "ms", "20.0", "ms"]
    assert table[4096][:4] == ["3.50", "ms", "21.0", "ms"]
    assert "6.0× faster" in " ".join(text.split())  # 0.021 / 0.0035 = 6


def test_timing_gives_a_rate_below_one_gflop_s_to_two_figures():
    """Attention at T=64 measured 120 ms (a busy machine) and its GFLOP/s read "0.0" (a student's trial)."""
    from dataclasses import replace

    from rnntui.figure import LabRun
    from rnntui.screens.parallel import ParallelScreen

    rows = [{"T": 64, "rnn_s": 0.001, "attention_s": 0.120, "rnn_flops": par.rnn_flops(64),
             "attention_flops": par.attention_flops(64)}]
    full = {"version": 1, "machine": {"host": "here"}, "torch": "2.0+cpu", "threads": 1, "when": "now", "rows": rows}
    state = replace(TimingState(T=64), run=LabRun(status="done", number=1, result=full))
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("timing"), state, (120, 40))
    line = next(line.split() for line in text.splitlines() if re.match(r"│ +64 ", line))
    attention = par.attention_flops(64) / 0.120 / 1e9  # a few million FLOPs in 0.12 s: some hundredths of a GFLOP/s
    rnn = par.rnn_flops(64) / 0.001 / 1e9
    assert 0.01 < attention < 0.1 and line[9:11] == [f"{rnn:.1f}", f"{attention:.2g}"]  # two figures


@pytest.mark.parametrize("mode, used", [("attention", 1), ("recurrent", 3)])
def test_grid_counts_the_steps_with_work_among_the_steps_so_far(mode, used):
    """Attention at wallclock 3 read "sequential steps 1 of 8", taken for progress, beside columns 2–3
    drawn idle (a student's trial): the steps with work are counted among the 3 so far, as the grid
    draws them, by a count of the lit columns here."""
    from rnntui.screens.parallel import ParallelScreen

    state = GridState(mode=mode, n=8, step=3)
    text = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("grid"), state, (80, 24))
    lanes = [line for line in text.splitlines() if re.match(r"│ +\d+ ", line)]
    cells = [re.findall(r"[█▓]{3}| · ", line[6:6 + 12]) for line in lanes]  # 3 columns, 4 cells each
    lit = sum(any(row[c] != " · " for row in cells) for c in range(3))
    assert lit == used and f"steps with work {used} of 3" in text
    start = one_app.txt(ParallelScreen, ParallelScreen.figure_by_id("grid"), GridState(mode=mode, n=8, step=0), (80, 24))
    assert "steps with work —" in start  # no step yet (it read "0 of 0": a review)


def test_train_timing_measures_and_caches_for_shots(tmp_path, monkeypatch, capsys):
    """A slide of measured times needed the app's t first: an export said "not measured here yet" (a
    lecturer's trial). `rnntui train timing` runs the lab, caches it, and a shot shows its times."""
    from rnntui.engine import lab_timing

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    rows = [{"T": T, "rnn_s": T * 1e-5, "attention_s": T * T * 1e-8, "rnn_flops": par.rnn_flops(T, 256),
             "attention_flops": par.attention_flops(T, 256)} for T in (64, 256, 1024, 4096)]
    fake = {"version": lab_timing.VERSION, "machine": {"host": "testhost"}, "torch": "2.x", "threads": 1,
            "d": 256, "heads": 4, "when": "2026-12-07 10:00", "rows": rows}
    monkeypatch.setattr(lab_timing, "run", lambda **k: fake)
    assert main(["train", "timing"]) == 0
    out = capsys.readouterr().out
    assert "T=4096: RNN 41 ms, attention 168 ms" in out and "1 thread ->" in out  # 4096·1e-5 s, 4096²·1e-8 s
    assert lab_timing.load_cache()[0]["rows"] == rows
    assert main(["shot", "parallel/timing", "--size", "100x30", "-o", "-"]) == 0
    shot = capsys.readouterr().out
    assert "measured on testhost" in shot and "not measured here yet" not in shot and "168 ms" in shot
