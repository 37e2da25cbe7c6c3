"""T6 `parallel`: schedules, path lengths, cost crossover, capacity, Table 1, the timing lab."""
from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from rnntui.cli import main
from rnntui.engine import parallel as par
from rnntui.figures.parallel import CapacityState, CostState, GridState, PathState, TimingState
from rnntui.state import BadValue
from rnntui.topics import build_state, find
from rnntui.widgets.wallclock import counts, grid_text


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Never read or move the user's own timing cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


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
    text = grid_text(s.busy(), s.step, 76, 20).plain
    assert "sequential steps 8 of 8" in text and "busy cells 8 of 64" in text
    rows = [line for line in text.splitlines() if re.match(r"^\s*\d+ ", line)]
    runs = [re.findall(r"[█▒]+", line) for line in rows]
    assert len(rows) == 8 and all(len(r) == 1 for r in runs)  # every position lit exactly once
    starts = [re.search(r"[█▒]", line).start() for line in rows]
    assert starts == sorted(set(starts))  # each one step later than the one before: the diagonal
    assert "▒" in rows[-1] and all("▒" not in line for line in rows[:-1])  # the last works "now"


def test_wallclock_step_is_bounded_by_n_and_clamps_when_n_shrinks():
    s = GridState()
    with pytest.raises(BadValue):
        s.with_value("step", 9)
    assert s.with_value("step", 8).with_value("n", 5).step == 5
    assert s.to_end("step", 1).at_axis_end() and s.to_end("step", 1).step == s.n


def test_grid_glyphs_differ_without_colour():
    busy = par.schedule("recurrent", 4)
    lines = grid_text(busy, 2, 40, 12).plain.splitlines()
    rows = {int(line.split()[0]): line for line in lines if re.match(r"^\s*\d+ ", line)}
    assert "█" in rows[0] and "▒" not in rows[0]  # finished
    assert "▒" in rows[1]  # working at the current step
    assert "·" in rows[2] and "█" not in rows[2] and "▒" not in rows[2]  # idle so far
    assert counts(busy, 2) == {"steps_used": 2, "busy": 2, "cells": 16, "lanes": 4, "per_step": 1.0}


def test_grid_window_follows_the_work_when_rows_do_not_fit():
    text = grid_text(par.schedule("recurrent", 32), 20, 76, 10).plain
    assert "▒" in text and "of 32 shown" in text
    assert "busy cells 20 of 1024" in text


# -- path length -----------------------------------------------------------------------------
@pytest.mark.parametrize("k", [1, 2, 5, 11, 31])
def test_path_is_k_multiplications_recurrent_and_one_edge_attention(k):
    hops = par.path_hops("recurrent", k)
    assert hops[0][0] == 0 and hops[-1][1] == k and all(b == a + 1 for a, b in hops)
    assert par.path_length("recurrent", k) == k
    assert par.path_hops("attention", k) == [(0, k)] and par.path_length("attention", k) == 1
    assert par.path_gain("recurrent", k, 0.9) == pytest.approx(math.prod([0.9] * k))
    assert par.path_gain("attention", k, 0.9) == pytest.approx(0.9)


def test_path_state_longest_path_is_n_minus_one_or_one():
    s = PathState(n=12, k=8)
    assert s.data()["max_path_length"] == 11
    assert PathState(mode="attention", n=12, k=8).data()["max_path_length"] == 1
    assert s.with_value("n", 5).k == 4  # k stays a token of the sequence


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
    assert "2.00 each" in out.read_text()


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
    assert seen[0] == (0, 4, "T=8 rnn") and seen[-1][:2] == (4, 4)
    path = lab_timing.save_cache(result)
    assert path.parent == tmp_path / "cache" / "rnntui"
    assert lab_timing.load_cache() == (result, None)


def test_lab_stops_between_forwards_with_the_rows_so_far():
    pytest.importorskip("torch")
    from rnntui.engine import lab_timing

    jobs = []
    with pytest.raises(lab_timing.Cancelled) as stop:
        lab_timing.run(Ts=(8, 16), d=16, repeats=2, progress=lambda *a: jobs.append(a[2]),
                       should_stop=lambda: len(jobs) >= 3)
    assert [r["T"] for r in stop.value.partial["rows"]] == [8]


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


def test_timing_json_lists_flops_and_seed(tmp_path):
    out = tmp_path / "t.json"
    assert main(["shot", "parallel/timing", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["T_values"] == [64, 256, 1024, 4096] and data["measured"] is None
    assert data["rnn_flops"][-1] * 16 == data["attention_flops"][-1]


def test_opening_the_topic_does_not_import_torch():
    import subprocess
    import sys

    code = ("import sys; from rnntui.render import render; from rnntui.topics import find, build_state\n"
            "s, f = find('parallel/timing'); render(s, f, build_state(f), 'txt', (80, 24))\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


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


async def test_timing_lab_runs_in_the_background_and_t_cancels(monkeypatch):
    import threading

    from rnntui.app import RnnApp
    from rnntui.engine import lab_timing

    started = threading.Event()

    def slow_run(progress=None, should_stop=None, **_):  # a stand-in that only stops when told
        started.set()
        for i in range(200):
            if should_stop():
                raise lab_timing.Cancelled({"rows": []})
            progress(i, 200, f"job {i}", {})
            threading.Event().wait(0.05)
        return {}

    monkeypatch.setattr(lab_timing, "run", slow_run)
    app = RnnApp("parallel", "timing")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        view = screen.timing_view()
        await pilot.press("t")
        await pilot.pause(0.2)
        assert started.is_set() and view.lab["running"]
        await pilot.press("left")  # keys still answer while it runs
        assert screen.state.T == 1024
        await pilot.press("t")
        for _ in range(50):
            await pilot.pause(0.05)
            if not view.lab["running"]:
                break
        assert not view.lab["running"] and "cancelled" in view.lab["note"]


async def test_t_only_acts_on_the_timing_figure():
    from rnntui.app import RnnApp

    app = RnnApp("parallel", "grid")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert app.topic_screen().lab_worker is None


def test_grid_snapshot_80x24(snap_compare):
    from rnntui.app import RnnApp

    assert snap_compare(RnnApp("parallel", "grid"), press=["right", "right", "right"], terminal_size=(80, 24))


async def test_random_keys_at_many_sizes_never_crash():
    import random

    from rnntui.app import RnnApp

    keys = ["tab", "shift+tab", "left", "right", "home", "end", "up", "down", "plus", "minus", "m", "r", "space"]
    rng = random.Random(6)
    for size in [(40, 12), (80, 24), (200, 60)]:
        app = RnnApp("parallel")
        async with app.run_test(size=size) as pilot:
            for _ in range(30):
                await pilot.press(rng.choice(keys))
            await pilot.pause()
            screen = app.topic_screen()
            assert screen is not None and screen.TOPIC_ID == "parallel"
            for f in screen.FIGURES:  # every state stayed inside its ranges
                state = screen.states[f.id]
                for p in state.params():
                    if p.kind != "choice":
                        lo, hi = p.bounds(state)
                        assert lo <= getattr(state, p.name) <= hi
