"""T8 `serving` figures against issue 14's pinned numbers and independent oracles: the cell in full
(f 0.7773 … h 0.1577 at t=0; c 0.9105, h 0.5104 at t=7), truncated BPTT (h_7 = 0.3357 for every k,
exact zeros behind the cut), the KV cache (64 GiB = 2**36 bytes at 131,072 tokens vs 256 KiB,
262,144×; GQA ÷4 → 16 GiB; 4096 tokens → 2 GiB) and the way back (linear attention two ways)."""
import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest

from rnntui.cli import main
from rnntui.figures.serving import CellState, KvState, WaybackState, WindowState
from rnntui.fmt import binary_bytes
from rnntui.topics import find, topic

import one_app

GIB, KIB = 2**30, 2**10
TOKENS = (0.5, 0.5, -0.5, 1.0, 0.0, 0.0, -0.5, 0.4)  # T1's track, as the issue gives it


def sig(z):
    return 1.0 / (1.0 + math.exp(-z))


def txt(figure_id, state, size=(80, 24)):
    screen, figure = find(f"serving/{figure_id}")
    return one_app.txt(screen, figure, state, size)


def shot(*args):
    return subprocess.run([sys.executable, "-m", "rnntui", "shot", *args], capture_output=True, text=True)


# -- F22: the cell in full -----------------------------------------------------------------------
def test_cell_pinned_terms_at_t0_and_t7():
    r0 = CellState(step=0).readings().terms
    assert {k: f"{r0[k]:.4f}" for k in "figo"} == {"f": "0.7773", "i": "0.6225", "g": "0.3799", "o": "0.6792"}
    assert (f"{r0['c']:.4f}", f"{r0['h']:.4f}") == ("0.2365", "0.1577")
    r7 = CellState(step=7).readings().terms
    assert (f"{r7['c']:.4f}", f"{r7['h']:.4f}") == ("0.9105", "0.5104")


def test_cell_step_zero_by_hand():
    # x = 0.5, h = c = 0 with T3's weights: a_f = 1.25, a_i = 0.5, a_g = 0.4, a_o = 0.75
    v = CellState(step=0).readings().terms
    f, i, g, o = sig(1.25), sig(0.5), math.tanh(0.4), sig(0.75)
    assert (v["f"], v["i"], v["g"], v["o"]) == pytest.approx((f, i, g, o), rel=1e-14)
    assert v["c"] == pytest.approx(i * g, rel=1e-14) and v["h"] == pytest.approx(o * math.tanh(i * g), rel=1e-14)


def test_cell_terms_add_up_at_every_step():
    for t in range(8):
        v = CellState(step=t).readings().terms
        assert v["c"] == pytest.approx(v["f"] * v["c_prev"] + v["i"] * v["g"], rel=1e-13)
        assert v["h"] == pytest.approx(v["o"] * math.tanh(v["c"]), rel=1e-13)
        assert v["x"] == TOKENS[t]


def test_cell_is_lstm_cell_at_the_bias_its_prose_names():
    """serving/cell said "lstm's weights" but keeps b_f at its default whatever lstm's b_f is set to (a
    Chinese trial): its prose names that b_f, and its c and h are lstm/cell's at that b_f, step by step."""
    from rnntui.figures.lstm import CellState as LstmCell
    from rnntui.screens.serving import ServingScreen

    prose = ServingScreen.FIGURES[0].prose
    b_f = float(re.search(r"b_f = ([0-9.]+)", prose).group(1))
    lstm = LstmCell(b_f=b_f).readings()
    for t in range(8):
        v = CellState(step=t).readings().terms
        assert (v["c"], v["h"]) == pytest.approx((lstm.c_all[t], lstm.h_all[t]), rel=1e-12)


# -- F23: truncated BPTT ------------------------------------------------------------------------
GRADS = ("0.0573", "0.1056", "0.1206", "0.2957", "0.4969", "0.7179", "0.7985", "1.0000")  # dh_7/dh_t


def test_window_default_and_axis():
    s = WindowState()
    assert s.AXIS == "window" and s.window == 4
    assert s.param("window").bounds(s) == (1, 8)


@pytest.mark.parametrize("k", range(1, 9))
def test_window_states_unchanged_gradients_cut_to_exact_zero(k):
    r = WindowState(window=k).readings()
    assert f"{r.h_last:.4f}" == "0.3357" and r.h == WindowState(window=8).readings().h
    assert tuple(f"{g:.4f}" for g in r.grads[8 - k:]) == GRADS[8 - k:]
    assert all(g == 0.0 for g in r.grads[: 8 - k]) and r.stored == k and r.dropped == 8 - k
    assert tuple(f"{g:.4f}" for g in r.full_grads) == GRADS


def test_window_gradients_by_a_hand_loop():
    # h_t = tanh(0.9 h_{t-1} + 0.8 x_t); one hop back multiplies by (1 − h_t²)·0.9
    h, hs = 0.0, []
    for x in TOKENS:
        h = math.tanh(0.9 * h + 0.8 * x)
        hs.append(h)
    r = WindowState(window=3).readings()
    assert r.grads[6] == pytest.approx((1 - hs[7] ** 2) * 0.9, rel=1e-13)
    assert r.grads[5] == pytest.approx((1 - hs[7] ** 2) * (1 - hs[6] ** 2) * 0.81, rel=1e-13)


def test_window_json_holds_the_zeros(tmp_path):
    out = tmp_path / "w.json"
    assert main(["shot", "serving/window", "--set", "window=3", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["state"] == {"window": 3} and data["stored"] == 3
    assert data["grads"][:5] == [0.0] * 5 and data["grads"][-1] == 1.0
    assert data["inside"] == [False] * 5 + [True] * 3 and len(data["h"]) == 8


def test_window_text_shows_zeros_and_the_store():
    text = txt("window", WindowState(window=4))
    assert "0.3357" in text and "4 of 8" in text and "✂" in text
    assert text.count("╎  0   ╎") == 4  # four dashed cells holding 0
    assert "0.497" in text and "1.000" in text


@pytest.mark.parametrize("k", [2, 7])
def test_the_window_stores_k_activations_of_the_8(k):
    """A window of k keeps the last k of the 8 tokens' activations for backward and zeroes the other 8 − k."""
    text = " ".join(txt("window", WindowState(window=k), (100, 30)).replace("│", " ").split())
    assert f"activations stored for backward {k} of 8 " in text
    assert f"exactly 0 in the {8 - k} dashed cells" in text


# -- F24: KV cache vs recurrent state ------------------------------------------------------------
def test_kvcache_at_131072_tokens():
    r = KvState().with_value("context", "131072").readings()
    assert r.kv_bytes == 68_719_476_736 == 2**36 == 64 * GIB
    assert r.state_bytes == 2**18 == 256 * KIB and r.ratio == 262_144
    assert r.lstm_bytes == 2 * r.state_bytes
    assert r.share == 64 / 80 and r.fits  # 64 GiB of 80 GiB
    assert (binary_bytes(r.kv_bytes), binary_bytes(r.state_bytes)) == ("64 GiB", "256 KiB")
    # the formula written out: 2 (K and V) · 32 layers · 4096 wide · tokens · 2 bytes
    assert r.kv_bytes == 2 * 32 * 4096 * 131_072 * 2


def test_kvcache_gqa_dtype_and_shorter_contexts():
    s = KvState(context=131_072)
    assert s.with_value("gqa", "4").readings().kv_bytes == 16 * GIB
    assert s.with_value("gqa", "8").readings().kv_bytes == 8 * GIB
    assert s.with_value("gqa", "4").readings().kv_bytes_mha == 64 * GIB
    assert s.with_value("dtype", "fp32").readings().kv_bytes == 128 * GIB
    assert s.with_value("dtype", "fp32").readings().state_bytes == 512 * KIB
    assert KvState(context=4096).readings().kv_bytes == 2 * GIB


def test_kvcache_in_chinese_calls_its_byte_count_exact_not_a_whole_sentence():
    """"exact" was one msgid for seq2seq's exact-match column (整句, whole sentence) and the KV cache's
    byte count, which read 整句 2,147,483,648 B (a newcomer's trial)."""
    from rnntui.i18n import set_language
    from rnntui.render import render

    screen, figure = find("serving/kvcache")
    set_language("zh")
    try:
        text = render(screen, figure, KvState(context=4096), "txt", (100, 30))
    finally:
        set_language("en")
    assert f"{2 * GIB:,} B" in text and "整句" not in text


def test_kvcache_curves_are_log_straight():
    r = KvState().readings()
    assert r.tokens == tuple(128 * 2**j for j in range(11))
    assert all(b == 2 * a for a, b in zip(r.kv_curve, r.kv_curve[1:]))
    assert set(r.state_curve) == {2**18}


def test_context_moves_in_doubling_steps():
    s = KvState(context=128)
    assert s.nudged("context", 1).context == 256 and s.nudged("context", -1).context == 128
    assert KvState(context=65_536).nudged("context", 1).context == 131_072
    assert KvState(context=131_072).nudged("context", 1).context == 131_072
    assert s.to_end("context", 1).context == 131_072 and KvState().at_axis_end() is False
    seen = [s.context]
    while not s.at_axis_end():
        s = s.nudged("context", 1)
        seen.append(s.context)
    assert len(seen) == 11


@pytest.mark.parametrize("value", ["1000", "64", "262144", "many"])
def test_context_rejects_non_powers_and_out_of_range(value):
    from rnntui.state import BadValue

    with pytest.raises(BadValue, match=f"context={value}"):
        KvState().with_value("context", value)


def test_shot_kvcache_131072_says_64_gib(capsys):
    assert main(["shot", "serving/kvcache", "--set", "context=131072", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert "64 GiB" in out and "256 KiB" in out and "262,144×" in out and "68,719,476,736" in out


def test_kvcache_text_with_gqa_says_16_gib():
    text = txt("kvcache", KvState(context=131_072, gqa="4"))
    assert "16 GiB" in text and "÷4 of 64 GiB" in text


@pytest.mark.parametrize("gqa, context", [("4", 4096), ("8", 131_072)])
def test_the_kv_formula_multiplies_to_the_bytes_it_shows(gqa, context):
    """With grouped-query attention the KV line's factors (2 · layers · width · tokens · bytes) multiply to
    the exact byte count the figure gives, and to the binary size after the "=" sign."""
    text = " ".join(txt("kvcache", KvState(context=context, gqa=gqa), (100, 30)).replace("│", " ").split())
    m = re.search(r"2 \(K,V\)·(\d+) layers·(\d+) wide·([\d,]+) tokens·(\d+) B = (\S+ \S+)", text)
    layers, width, tokens, b = (int(g.replace(",", "")) for g in m.groups()[:4])
    product = 2 * layers * width * tokens * b
    assert tokens == context and f"exactly {product:,} B" in text, text
    assert m.group(5) == binary_bytes(product)


# -- the way back --------------------------------------------------------------------------------
def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def direct_output(t, gamma):
    """out_t = Σ_{i≤t} γ^{t−i}(φ(q_t)·φ(k_i)) v_i / Σ_{i≤t} γ^{t−i} φ(q_t)·φ(k_i), one loop, no matrix."""
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((12, 8)) for _ in range(3))
    num, den = np.zeros(8), 0.0
    for i in range(t + 1):
        w = gamma ** (t - i) * float(phi(q[t]) @ phi(k[i]))
        num += w * v[i]
        den += w
    return num / den


@pytest.mark.parametrize("gamma", [1.0, 0.95, 0.8])
def test_wayback_two_forms_agree_with_a_direct_sum(gamma):
    for t in (0, 5, 11):
        r = WaybackState(step=t, gamma=gamma).readings()
        np.testing.assert_allclose(r.out_parallel, direct_output(t, gamma), rtol=1e-12)
        np.testing.assert_allclose(r.out_recurrent, direct_output(t, gamma), rtol=1e-12)
        assert r.diff == np.max(np.abs(np.subtract(r.out_parallel, r.out_recurrent))) < 1e-12
        assert sum(r.weights) == pytest.approx(1.0) and all(w == 0.0 for w in r.weights[t + 1:])


def expected_recall(n, d, gamma):
    """E relative recall error², summed pair by pair: pair j read back is γ^{a_j} v_j plus every other pair
    i's value scaled by γ^{a_i} (k_i·k_j), E(k_i·k_j)² = 1/d for random unit keys (a_i = n − 1 − i)."""
    total = 0.0
    for j in range(n):
        total += (gamma ** (n - 1 - j) - 1) ** 2 + sum(gamma ** (2 * (n - 1 - i)) / d for i in range(n) if i != j)
    return math.sqrt(total / n)


def test_wayback_memory_decay_and_capacity():
    r = WaybackState(step=11, gamma=0.95).readings()
    assert r.state_numbers == 8 * 8 + 8 and r.kv_numbers == 2 * 12 * 8
    assert f"{r.decay_left:.4f}" == "0.0059" and r.decay_left == pytest.approx(0.95**100)
    assert not r.orthonormal_fits and math.isnan(r.recall_orthonormal)
    assert r.recall_closed_form == pytest.approx(expected_recall(12, 8, 0.95))
    assert abs(r.recall_random / r.recall_closed_form - 1) < 0.1
    r = WaybackState(step=7).readings()
    assert r.orthonormal_fits and r.recall_orthonormal < 1e-12 and r.decay_left == 1.0
    assert r.recall_closed_form == pytest.approx(math.sqrt(7 / 8))
    assert [name for name, _ in r.architectures] == ["linear attention", "RetNet", "Mamba", "RWKV"]


def test_wayback_json_holds_both_outputs_and_their_difference(tmp_path):
    out = tmp_path / "w.json"
    assert main(["shot", "serving/wayback", "--set", "gamma=0.9", "--step", "6", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["state"] == {"step": 6, "gamma": 0.9}
    assert len(data["out_parallel"]) == len(data["out_recurrent"]) == 8
    assert data["diff"] == max(abs(a - b) for a, b in zip(data["out_parallel"], data["out_recurrent"])) < 1e-12
    np.testing.assert_allclose(data["out_parallel"], direct_output(6, 0.9), rtol=1e-12)
    assert math.isfinite(data["recall_orthonormal"])  # 7 pairs ≤ d: a number, not "nan" (nor null)


def test_wayback_text_shows_both_outputs_and_the_state_size():
    text = txt("wayback", WaybackState(step=11, gamma=0.95))
    r = WaybackState(step=11, gamma=0.95).readings()
    vec = " ".join(f"{v:+.3f}" for v in r.out_parallel)
    assert text.count(vec) == 2 and "0.0059" in text and "72 numbers" in text and "192" in text
    for name in ("linear attention", "RetNet", "Mamba", "RWKV"):
        assert name in text


def test_wayback_recall_follows_the_gamma_shown_and_a_fixed_gamma_is_a_decay():
    """The recall line said "γ 1" at γ 0.90, its numbers measured without the decay shown (a trial); a fixed
    γ was called "gated", against the table's RetNet (fixed decay) and Mamba (from the input) (a lecturer's
    trial). The recall is S's own, written with the γ shown: a γ below 1 fades old pairs (orthonormal keys
    no longer exact) and damps the overlap of random keys (12 pairs: less error than at γ 1)."""
    a, b = (txt("wayback", WaybackState(step=11, gamma=g), (100, 30)) for g in (1.0, 0.9))
    r1, r9 = (WaybackState(step=11, gamma=g).readings() for g in (1.0, 0.9))
    assert "recall error, 12 pairs, γ 1.00: orthonormal keys" in a and "γ 1:" not in a + b
    assert "recall error, 12 pairs, γ 0.90: orthonormal keys" in b
    assert f"random keys {r1.recall_random:.2f} ≈ √((n−1)/d) = {math.sqrt(11 / 8):.2f}" in a
    assert f"random keys {r9.recall_random:.2f} ≈ {expected_recall(12, 8, 0.9):.2f} expected" in b
    assert expected_recall(12, 8, 0.9) < math.sqrt(11 / 8) and r9.recall_random < r1.recall_random
    assert "fixed decay" in b and "gated" not in b and "plain" in a
    assert f"KV cache 2·n·d = {2 * r9.stored * r9.d} at n={r9.stored}" in b
    # 6 orthonormal pairs at γ 0.90: the fade alone, √(mean (1 − 0.9^a)²) over a = 0 … 5 on average
    c = txt("wayback", WaybackState(step=5, gamma=0.9))
    r = WaybackState(step=5, gamma=0.9).readings()
    fade = math.sqrt(sum((1 - 0.9 ** a) ** 2 for a in range(6)) / 6)
    assert abs(r.recall_orthonormal / fade - 1) < 0.1
    assert f"recall error, 6 pairs, γ 0.90: orthonormal keys {r.recall_orthonormal:.2f}, γ's fade alone" in c
    assert "exact" not in c and "exact" in txt("wayback", WaybackState(step=5))


@pytest.mark.parametrize("k", [1, 4, 8])
def test_window_says_each_gradient_once_and_marks_a_cut_only_where_there_is_one(k):
    """At k = 1 it read "1.0000 … 1.0000 inside"; at k = 8 the x axis still explained a ▼0 drawn nowhere;
    the cut's label wrote over the curve on the plot's top row (a lecturer's trial)."""
    r = WindowState(window=k).readings()
    text = txt("window", WindowState(window=k), (100, 30))
    inside = [f"{g:.4f}" for g in r.grads[r.first_inside:]]
    said = inside[0] if k == 1 else f"{inside[0]} … {inside[-1]}"
    assert f"∂h_7/∂h_t: {said} inside;" in text and (k == 1) == (inside[0] == inside[-1])
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "┌─ ━━ full" in line)
    plot = lines[top + 1:next(i for i in range(top, len(lines)) if "└─" in lines[i])]  # the canvas rows
    assert ("▼0" in text) == any("╎cut" in line for line in plot) == (r.dropped > 0) == (k < 8)
    if k == 1:  # the cut's label off the top row, where the curves run past it
        assert "cut" not in plot[0] and re.search("[\u2801-\u28ff]", plot[0][-30:])


# -- the topic as a whole --------------------------------------------------------------------------
def test_registered_last_in_lecture_order():
    from rnntui.topics import REGISTRY

    assert REGISTRY[-1] == (8, "serving", "ServingScreen")
    assert [f.id for f in topic("serving").FIGURES] == ["cell", "window", "kvcache", "wayback"]


def test_every_figure_renders_at_every_size_and_the_cell_shows_its_pinned_values():
    """Every slide step of every figure at three sizes; at 80×24 and 200×60 the title is on screen,
    and the cell in full shows every pinned value at t = 0 and t = 7."""
    cell = {0: ("0.7773", "0.6225", "0.3799", "0.6792", "0.2365", "0.1577"), 7: ("0.9105", "0.5104")}
    assert CellState(step=0) == CellState().with_value("step", 0) and {0, 7} <= set(find("serving/cell")[1].slide_steps())
    for size in [(80, 24), (200, 60), (50, 16)]:
        for f in topic("serving").FIGURES:
            for step in f.slide_steps():
                text = txt(f.id, f.state_type().with_value(f.state_type.AXIS, step), size)
                assert f.title[:10] in text or size[0] < 80, (size, f.id, step)
                if f.id == "cell" and step in cell and size[0] >= 80:
                    for word in cell[step]:
                        assert word in text, (size, step, word)


@pytest.mark.parametrize("args,words", [
    (["serving/kvcache", "--set", "context=1000"], "context=1000"),
    (["serving/kvcache", "--set", "gqa=2"], "gqa=2"),
    (["serving/kvcache", "--set", "dtype=bf16"], "dtype=bf16"),
    (["serving/window", "--set", "window=9"], "window=9"),
    (["serving/window", "--step", "0"], "--step 0"),
    (["serving/wayback", "--set", "gamma=1.5"], "gamma=1.5"),
    (["serving/cell", "--step", "8"], "--step 8"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    r = shot(*args, "-o", "-")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


async def test_keys_double_the_context_and_cycle_gqa():
    from rnntui.app import RnnApp

    app = RnnApp("serving", "kvcache")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "g")
        state = app.topic_screen().state
        assert (state.context, state.gqa) == (8192, "4")
        assert state.readings().kv_bytes == 1 * GIB  # 4 GiB at 8,192 tokens, a quarter with gqa 4
        await pilot.press("end")
        assert app.topic_screen().state.context == 131_072


def test_snapshot_kvcache_at_131072_tokens(snap_compare):
    async def steps(pilot):
        await pilot.press("end")
        state = pilot.app.topic_screen().state
        assert state.context == 131_072 and state.readings().kv_bytes == 2**36  # the number the snapshot shows
        assert binary_bytes(state.readings().kv_bytes) == "64 GiB"

    from rnntui.app import RnnApp

    assert snap_compare(RnnApp("serving", "kvcache"), terminal_size=(80, 24), run_before=steps)


def test_the_window_speaks_of_dashed_cells_only_while_some_remain():
    from rnntui.figures.serving import WindowState
    from rnntui.screens.serving import ServingScreen
    f = ServingScreen.figure_by_id("window")
    full = one_app.txt(ServingScreen, f, WindowState(window=8), (100, 30))
    assert "dashed" not in full and "no cell is cut" in full
    assert "in the 5 dashed cells" in one_app.txt(ServingScreen, f, WindowState(window=3), (100, 30))


def test_the_kvcache_plot_says_its_unit(tmp_path):
    """Its y axis (bytes) had no name, and at 100x30 its x axis none either (a newcomer's trial): the
    legend names the unit."""
    from rnntui.cli import main

    out = tmp_path / "k.txt"
    assert main(["shot", "serving/kvcache", "--size", "100x30", "-o", str(out)]) == 0
    legend = next(l for l in out.read_text().splitlines() if "━━" in l)
    assert "KV cache bytes" in legend and "recurrent state bytes" in legend


@pytest.mark.parametrize("dtype,gqa,full", [("fp16", "1", 163_841), ("fp32", "1", 81_921), ("fp16", "4", 655_361)])
def test_kvcache_says_where_the_cache_fills_the_accelerator(dtype, gqa, full):
    """In the 80 GB line's row the curve seemed to reach it at 2–3·10⁴ tokens in fp32 (a lecturer's trial):
    the first context over 80 GiB is written, 80 GiB ÷ (2·32·4096·bytes/gqa) (a whole number: 80 GiB exactly
    at it) + 1, and drawn as a line down where it is on the axis; its x axis is named at 100x30. "full at" read
    as the last count that fits (a student's trial): it says "over 80 GiB from"."""
    s = KvState(context=131_072, dtype=dtype, gqa=gqa)
    r = s.readings()
    per_token = 2 * 32 * (4096 // int(gqa)) * {"fp16": 2, "fp32": 4}[dtype]
    assert r.full_at == full == 80 * 2**30 // per_token + 1 and 80 * 2**30 % per_token == 0
    assert KvState(context=1, dtype=dtype, gqa=gqa).readings().kv_bytes * full > 80 * 2**30 >= per_token * (full - 1)
    lines = txt("kvcache", s, (100, 30)).splitlines()
    assert f"over 80 GiB from {full:,} tokens" in "\n".join(lines) and any("context (tokens)" in l for l in lines)
    ticks = next(l for l in lines if "1e3" in l and "1e5" in l)
    c3, c4 = ticks.index("1e3") + 1, ticks.index("1e4") + 1  # the decades' centres
    down = {l.index("╎", 6) for l in lines if "╎" in l[6:] and "accelerator" not in l}
    if full > 131_072:
        assert not down
    else:
        assert len(down) == 1 and abs(down.pop() - (c4 + (c4 - c3) * math.log10(full / 1e4))) <= 1


def test_kvcache_gives_a_small_share_of_the_accelerator_to_two_figures():
    """gqa 8 at 128 tokens read "0.0% of an 80 GB … accelerator" for 8,388,608 B (a numbers audit): a share
    above 0 is never 0.0%. 2·32 layers·(4096/8)·2 B·128 tokens = 8 MiB, 1/10240 of 80 GiB: 0.0098%."""
    kv = 2 * 32 * (4096 // 8) * 2 * 128
    assert kv == 8 * 2 ** 20 == KvState(context=128, gqa="8").readings().kv_bytes
    said = " ".join(txt("kvcache", KvState(context=128, gqa="8"), (100, 30)).split())
    assert kv * 10240 == 80 * 2**30 and "0.0098% of an 80 GB" in said  # two figures
    assert "2.5% of an 80 GB" in " ".join(txt("kvcache", KvState(), (100, 30)).split())  # 2 GiB: one decimal
    kv = 2 * 32 * 4096 * 2 * 128  # no grouping: 64 MiB, 1/1280 (it read 0.1%, 28% more: a numbers audit)
    assert kv == KvState(context=128).readings().kv_bytes
    said = " ".join(txt("kvcache", KvState(context=128), (100, 30)).split())
    assert kv * 1280 == 80 * 2**30 and "0.078% of an 80 GB" in said
    from rnntui.fmt import pct  # two figures, no third: "0.100%" and "1.00%" beside 0.096% and 1.0% (the review)
    assert [pct(x, tiny=True) for x in (0.000995, 0.00996, 1e-7)] == ["0.10%", "1.0%", "0.000010%"]


@pytest.mark.parametrize("step", [0, 3, 7])
def test_the_cell_sheet_at_80x24_gives_the_weights_that_redo_every_gate(step):
    """At 80 columns the gates showed only σ(a), with no weight on screen, though the prose says every term
    has its value (a trial): a line gives W_x W_h b per gate (recurrence's names; W U read as other weights,
    a student's trial), and each a shown is W_x·x + W_h·h + b from the numbers on the screen."""
    import re

    from rnntui.screens.serving import ServingScreen

    text = one_app.txt(ServingScreen, ServingScreen.figure_by_id("cell"), CellState(step=step), (80, 24))
    x, h = (float(v) for v in re.search(rf"x_{step} = (\S+)\s+h_\S+ = \(?(\S+?)\)?\s", text).groups())
    weights = re.search(r"W_x W_h b:\s+(.*?)\s*│", text).group(1)
    for gate, w, u, b in re.findall(r"([fiĉo]) (\S+) (\S+) (\S+)", weights):
        a = float(re.search(rf"\b{gate} = (?:σ|tanh)\(([+-]\S+)\)", text).group(1))
        assert a == pytest.approx(float(w) * x + float(u) * h + float(b), abs=1e-4), gate
    assert [g for g, *_ in re.findall(r"([fiĉo]) (\S+) (\S+) (\S+)", weights)] == ["f", "i", "ĉ", "o"]


@pytest.mark.parametrize("step", [0, 5])
def test_the_wide_cell_sheet_keeps_each_formula_and_its_words_whole(step):
    """At 160x48 the sheet's formulas ran on into their words and broke mid-phrase ("… = 0.7773   forget" /
    "gate: share …", a lecturer's trial): each gate's words are a line of their own, and c's kept + written
    add up to the c shown."""
    import re

    from rnntui.screens.serving import ServingScreen

    text = one_app.txt(ServingScreen, ServingScreen.figure_by_id("cell"), CellState(step=step), (160, 48))
    for words in ("forget gate: share of c_{t−1} kept", "input gate: share of ĉ written",
                  "output gate: share of tanh(c) shown", "c is the memory; h is what is shown"):
        assert re.search(r"  " + re.escape(words) + r"\s+│$", text, re.M), words  # its line's end, whole
    c = float(re.search(rf"c_{step} = f·c\S+ \+ i·ĉ = .* = (-?\d\.\d+)\s", text).group(1))
    kept, written = (float(v.strip("()")) for v in re.search(r"kept \+ written: (\S+) \+ (\S+)", text).groups())
    assert kept + written == pytest.approx(c, abs=2e-4)


@pytest.mark.parametrize("k", [2, 4, 6])
def test_the_zero_mark_points_at_its_t(k):
    """serving/window's ▼0 stood a column left of its t (a trial): its arrow is in the column of the tick
    whose label is the last t the window cuts (8 − k − 1; the gradient is exactly 0 from there back)."""
    import one_app
    from rnntui.topics import find

    screen, figure = find("serving/window")
    lines = one_app.txt(screen, figure, WindowState(window=k), (120, 40)).splitlines()
    mark = next(l for l in lines if "▼0" in l and "(▼0" not in l)
    axis = next(i for i, l in enumerate(lines) if "└─" in l and "┬" in l)
    ticks = {lines[axis + 1][c]: c for c, ch in enumerate(lines[axis]) if ch == "┬"}
    assert mark.index("▼") == ticks[str(8 - k - 1)]


def test_the_cheat_sheet_writes_the_lstm_as_the_lstm_topic_does():
    """serving/cell wrote the candidate g and the weights W, U where lstm's figures write ĉ and recurrence
    W_x, W_h (a student's trial): one notation across the topics."""
    sheets = {a: one_app.txt(*find(a), find(a)[1].state_type(), (100, 30)) for a in
              ("serving/cell", "lstm/cell", "lstm/gates", "recurrence/track")}
    assert all("i·ĉ" in sheets[a] for a in ("serving/cell", "lstm/cell", "lstm/gates"))
    assert not any("i·g" in text or "U·h" in text for text in sheets.values())
    assert "W_x·x + W_h·h" in sheets["serving/cell"] and "W_h" in sheets["recurrence/track"]


@pytest.mark.parametrize("step", [0, 5, 11])
def test_the_way_backs_two_grids_fit_side_by_side_at_120_columns(step):
    """At 120x40 the state S_t was cut at the panel's edge ("-1." / "-0.", a student's trial): the grids
    take fewer places there, and every row shows all of it: the matrix's rows sum to 1 as printed, each
    state row has its d values and z, as the readings give them."""
    import re

    import numpy as np

    state = WaybackState(step=step)
    r = state.readings()
    text = one_app.txt(*find("serving/wayback"), state, (120, 40))
    rows = [line for line in text.splitlines() if re.match(r"│ [ ▸]\s*\d+ +(1\.0|\.\d\d)", line)]  # (not the
    # plot's x labels: it is drawn at 120x40 now)
    assert len(rows) == r.n
    for i, line in enumerate(rows):
        weights = [float(w) for w in re.findall(r"(?<![\d+-])(1\.0|\.\d\d)(?=\s)", line.split("│")[1])[: i + 1]]
        assert len(weights) == i + 1 and sum(weights) == pytest.approx(1.0, abs=0.01 * (i + 1))
        if i < r.d:  # the state's row i beside the matrix's: d values, then z_i
            numbers = [float(v) for v in re.findall(r"[+-]\d+\.\d+", line)]
            assert len(numbers) == r.d and numbers == pytest.approx(np.asarray(r.S)[i], abs=0.051)
            assert float(line.rstrip(" │").split()[-1]) == pytest.approx(r.z[i], abs=0.051)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_way_back_names_its_grids_where_they_are_left_out_and_plots_at_the_lecture_size(lang):
    """At 80x24 the masked matrix and the state (the figure's point: one output, two ways) went without a
    word, and at 120x40 the plot never showed, six rows left blank around its line (a Chinese student's
    trial). The size named brings the grids, and at 120x40 the plot is drawn. (At 100x30, the lecture's
    size, the plot was drawn too, in place of the grids; they take its rows now, the note naming it.)"""
    from rnntui.i18n import set_language
    from rnntui.render import render
    from rnntui.screens.serving import GRIDS_SIZE

    def shown(size):
        return render(*find("serving/wayback"), WaybackState(), "txt", size)

    set_language(lang)
    try:
        small, named, lecture = shown((80, 24)), shown(tuple(map(int, GRIDS_SIZE.split("x")))), shown((100, 30))
    finally:
        set_language("en")
    said = "shows the masked n×n matrix" if lang == "en" else "会画出加掩码的 n×n 矩阵"
    assert f"--size {GRIDS_SIZE}" in small and said in small
    # the plot is named with them where it has no row for its own line (English's longer family took it)
    plot = "a plot" if lang == "en" else "一幅图"
    assert (plot in small) != ("shows a plot here" in small or "这里会画出图" in small)
    assert said not in named and ("all that is kept" in named or "留下的只有这些" in named)
    assert "2┤" in named and "0┤" in named and "shows a plot" not in named and "会画出图" not in named
    assert "all that is kept" in lecture or "留下的只有这些" in lecture
    assert f"--size {GRIDS_SIZE}" in lecture and ("recall plot" in lecture or "取回误差图" in lecture)


def test_gqa_says_what_it_is_and_divides_the_cache():
    """"gqa 8" was unexplained (a student's trial): the line says 8 query heads share a K, V, and the cache
    is an eighth of multi-head's 2·32·4096·4096·2 B (2 GiB)."""
    text = " ".join(one_app.txt(*find("serving/kvcache"), KvState(gqa="8"), (100, 30)).split())
    assert "gqa 8: 8 query heads share a K, V: ÷8 of 2 GiB" in text
    assert KvState(gqa="8").readings().kv_bytes * 8 == 2 * 32 * 4096 * 4096 * 2 == 2**31


def test_the_window_says_how_much_of_the_weight_gradient_it_keeps():
    """"∂h_7/∂W_h seen 0.9765 of 1.0969" read unclear (a student's trial): it is what the window keeps of
    the full gradient, both finite-difference checked (test_serving_engine)."""
    from rnntui.engine import serving as sv

    text = one_app.txt(*find("serving/window"), WindowState(window=4), (80, 24))
    kept, full = sv.window_weight_gradient(4), sv.window_weight_gradient(8)
    assert f"∂h_7/∂W_h kept {kept:.4f} of {full:.4f}" in text and kept < full


@pytest.mark.parametrize("size", [(120, 40), (100, 44)])
def test_the_cell_sheet_leaves_no_blank_rows_above_its_plot(size):
    """At 120x40 serving/cell left 6 rows blank between its sheet and a squeezed plot (a student's trial:
    the track measured its growth against a row it had made tall itself): the plot starts right under the
    sheet's last line, and the view's rows are all used."""
    lines = one_app.txt(*find("serving/cell"), CellState(), size).splitlines()
    last = next(i for i, line in enumerate(lines) if "h_0 = o·tanh(c_0)" in line)
    assert "┌" in lines[last + 1]
    assert not any(set(line.strip("│ ")) == set() for line in lines[3:last])  # no blank row in the figure


@pytest.mark.parametrize("size", [(60, 42), (80, 48), (99, 48)])
def test_the_way_back_leaves_its_grids_out_where_they_do_not_fit(size):
    """At 80–115 columns the state grid was cut even at one place (4 of 8 columns at 80x48, a review):
    where the two grids do not fit side by side they are left out, and nothing is cut at the edge. (From
    100 columns they fit with four cells a value: test_the_way_backs_grids_show_at_the_lecture_size.)"""
    import re

    text = one_app.txt(*find("serving/wayback"), WaybackState(step=11), size)
    assert "state S_11" not in text and "rows normalised" not in text  # (the grids' titles)
    assert not any(re.search(r"[+-]\d+\.\d* ?│$", line) for line in text.splitlines())


@pytest.mark.parametrize("size", [(100, 30), (100, 48)])
def test_the_way_backs_grids_show_at_the_lecture_size(size):
    """At 100x30, the lecture's size, the slide "trained as a masked n×n matrix, served as a recurrence S_t"
    showed neither: the family list and the plot took the rows, and at 100 columns the grids took 110 (a
    lecturer's trial). With four cells a value and z_t on a line of its own (a line apart) they fit: every row of the
    matrix, each state row beside the matrix's row of its number, whole; the family and the plot give
    way at 100x30, named on one line, and stay at 100x48."""
    import re

    import numpy as np

    r = WaybackState(step=11).readings()
    lines = one_app.txt(*find("serving/wayback"), WaybackState(step=11), size).splitlines()
    rows = [line for line in lines if re.match(r"│ [ ▸]\s*\d+ +(1\.0|\.\d\d)", line)]
    assert len(rows) == r.n and "state S_11 and z_11: all that is kept" in "".join(lines)
    for i, line in enumerate(rows[: r.d]):
        state = re.findall(r"[+-]\d+(?:\.\d)?", line)  # the state's row i, beside the matrix's (weights: no sign)
        assert len(state) == r.d and [float(v) for v in state] == pytest.approx(np.asarray(r.S)[i], abs=0.51)
    at = next(y for y, line in enumerate(lines) if "z_11 = " in line)
    z = lines[at].split("z_11 = ")[1].split("│")[0].split()
    assert [float(v) for v in z] == pytest.approx(r.z, abs=0.51)
    # z_i goes with S's row i: a blank line apart, not a ninth row under S's columns (a lecturer's slides)
    state_column = rows[0].index(re.findall(r"[+-]\d+(?:\.\d)?", rows[0])[0])
    assert lines.index(rows[r.d - 1]) == at - 2 and not lines[at - 1][state_column:].strip("│ ")
    text = "".join(lines)
    if size == (100, 30):
        assert "--size 120x40 also shows RetNet, Mamba, RWKV in a line each and the recall plot" in text
        assert "Transformer." not in text and "┤" not in text  # (the family's last words; the plot's ticks)
    else:
        assert "Transformer." in text and "2┤" in text and "also shows" not in text


def test_the_lectures_way_back_slides_show_the_matrix_and_the_state_at_100x30():
    """`rnntui present lecture` at 100x30: slides 51–52 ("Trained as a masked n×n matrix, served as a
    recurrence S_t") said "--size 120x40 shows the masked n×n matrix and the state S_t beside it" over
    the family list and a plot (a lecturer's trial): both grids are drawn, every matrix row and S_11."""
    import re

    slides = one_app.slides("serving/wayback")
    assert len(slides) == 2
    for text in slides:
        rows = [line for line in text.splitlines() if re.match(r" *▸? *\d+ +(1\.0|\.\d\d)( |$)", line)]
        assert len(rows) == 12 and "state S_11 and z_11: all that is kept" in text and "z_11 " in text
        assert sum(len(re.findall(r"[+-]\d+(?:\.\d)?", row)) == 8 for row in rows) == 8  # S_11's 8 rows beside
        assert "shows the masked n×n matrix" not in text and "--size" not in text  # (no size named on a slide)


@pytest.mark.parametrize("gamma", [1.0, 0.9, 0.5])
def test_the_way_backs_grid_widths_are_those_drawn(gamma):
    """The grids are measured without drawing them (drawn up to three times to measure, a key took 8 ms at
    120x40, a bench): each worked-out width is the widest line of the text drawn, at every step and tier."""
    from rich.cells import cell_len

    from rnntui.widgets.wayback import masked_matrix_text, matrix_width, state_text, state_width

    for step in range(12):
        r = WaybackState(step=step, gamma=gamma).readings()
        for short, places in ((False, None), (True, 2), (True, 1)):
            drawn = masked_matrix_text(r.matrix, step, short), state_text(r.S, r.z, step, places)
            widths = [max(cell_len(line) for line in text.plain.split("\n")) for text in drawn]
            assert widths == [matrix_width(len(r.matrix), short), state_width(r.S, r.z, step, places)]


async def test_the_way_back_at_80x24_in_a_terminal_cuts_nothing():
    """In a terminal its note took two lines at 80 columns and cut the family's last line ("training runs
    like a Transformer."); it is one line, and names the plot it leaves no row for."""
    from rnntui.app import RnnApp
    from rnntui.screens.serving import GRIDS_SIZE
    from rnntui.svg import screen_segments

    app = RnnApp("serving", "wayback")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = "".join(s.text for s in screen_segments(app))
    assert f"a {GRIDS_SIZE} terminal shows the masked n×n matrix, the state S_t and a plot" in text
    assert "training runs like a Transformer." in text and "shows a plot here" not in text


def test_the_way_backs_plot_never_names_a_size_where_the_grids_take_its_place():
    """At 100x29 the plot said "--size 100x30 shows a plot here", where the grids take its rows (a review):
    there the note names the size that shows all three. At 80 columns, where the grids never fit, the
    plot is drawn (without its x axis in five rows); short of four, its own line names the rows it lacks."""
    from rnntui.render import render

    def shown(size):
        return render(*find("serving/wayback"), WaybackState(step=11), "txt", size)

    for height in range(24, 30):
        text = shown((100, height))
        assert "shows a plot here" not in text and "the state S_t and a plot" in text, height
    small = shown((80, 30))  # five rows: drawn without its x axis
    assert "shows a plot here" not in small and "n = d = 8" in small and "pairs n written" not in small
    assert "--size 100x42 shows a plot here" in shown((100, 40))  # (the grids shown: more rows keep them)
    assert "n = d = 8" in shown((100, 42)) and "n = d = 8" not in shown((100, 41))


@pytest.mark.parametrize("k", [1, 2, 4, 8])
async def test_the_window_curve_shows_in_its_colour_at_every_k(k):
    """At k = 1 the legend named "window k=1" in orange and no orange was drawn: its one point inside shared a
    cell with the full curve's (a lecturer's slides). The full curve gives its cells up, and a lone point is a
    blob: the window's colour shows in the plot at every k, over the t it keeps."""
    from rnntui.app import RnnApp
    from rnntui.svg import screen_segments
    from rnntui.widgets.tints import ORANGE

    app = RnnApp("serving", "window", state=WindowState(window=k))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        orange = [s.text for s in screen_segments(app) if s.style and s.style.color and s.style.color.triplet
                  and tuple(s.style.color.triplet) == ORANGE and any(0x2800 < ord(c) < 0x2900 for c in s.text)]
    assert sum(len(t.strip()) for t in orange) >= max(1, 2 * (k - 1)), (k, orange)


async def test_the_cell_plot_ends_at_the_cursor_with_c_t_of_that_step():
    """At t = 3 the c_t curve runs over t = 0 … 3, its first point c_0 = σ(0.5)·tanh(0.4) (from c_{−1} = 0, the
    sheet's weights for x_0 = 0.5), its last the c_3 the track shows, under the cursor's ●."""
    from rnntui.app import RnnApp
    from rnntui.widgets.plot import Plot

    app = RnnApp("serving", "cell", state=CellState(step=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        spec = app.topic_screen().query_one(Plot).spec
    c, h = spec.series
    c0 = 1 / (1 + math.exp(-0.5)) * math.tanh(0.4)
    assert c.x == h.x == (0.0, 1.0, 2.0, 3.0) and spec.cursor == 3.0
    assert c.y[0] == pytest.approx(c0, abs=1e-12) and c.y[-1] == CellState(step=3).readings().c[3]


async def test_the_recall_plot_has_its_cursor_at_the_pairs_stored_and_orthonormal_keys_up_to_d():
    """At t = 4 the state holds 5 pairs: the cursor is at n = 5. Orthonormal keys exist for n = 1 … d only,
    and at γ = 1 each is recalled exactly (error 0): the green curve runs from n = 1 to n = d along 0."""
    from rnntui.app import RnnApp
    from rnntui.widgets.plot import Plot

    app = RnnApp("serving", "wayback", state=WaybackState(step=4))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        spec = app.topic_screen().query_one(Plot).spec
    d = WaybackState().readings().d
    orthonormal = spec.series[-1]
    assert spec.cursor == 5.0 and "recall error, 5 pairs" in txt("wayback", WaybackState(step=4), (120, 40))
    assert orthonormal.x == tuple(float(n) for n in range(1, d + 1))
    assert len(orthonormal.y) == d and max(abs(v) for v in orthonormal.y) < 1e-12


def test_wayback_state_never_reads_minus_zero():
    """S_t's -0.028 read "-0.0" beside +0.6 and -0.2 (an engineer's reading): a value that shows as zero is +0.0."""
    state = WaybackState()
    small = [v for row in state.readings().S for v in row if -0.05 < v < 0]
    assert small  # (the case is there)
    for size in ((100, 30), (120, 40), (80, 24)):
        text = txt("wayback", state, size)
        assert not re.search(r"-0\.0+(?!\d)", text), size
