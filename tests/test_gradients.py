"""T2 `gradients` against closed forms, independent computations and the seed's figures
(seed 001: 1 → 0.057 after 7 hops, ReLU at W_h = 1.60 crosses float32 max at hop 189, a gradient
of norm 84.0 clipped at 5; seed 000: E1, c = 1.5 keeps about 5% at distance 20)."""
import json
import math
from functools import reduce

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnntui.app import RnnApp
from rnntui.cli import main
from rnntui.engine import gradients as gr
from rnntui.engine import recurrence as rnn
from rnntui.figures.gradients import (FACTORS_N, PRODUCT_N, BackwardState, BpttState, ClipState, FactorsState, HopState,
                                      ProductState)
from rnntui.screens.gradients import GradientsScreen
from rnntui.topics import find

import one_app

floats = st.floats(-2.0, 2.0, allow_nan=False)


# -- engine ---------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.lists(floats, min_size=2, max_size=40), st.floats(0.0, 2.0), floats, st.floats(-1.0, 1.0))
def test_tanh_factor_never_exceeds_w_h(tokens, w_h, w_x, b):
    f = gr.hop_factors(tokens, w_h, w_x, b, "tanh")
    assert len(f) == len(tokens) - 1
    assert np.all(f <= w_h + 1e-15) and np.all(f >= 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(floats, min_size=2, max_size=40), st.floats(0.0, 2.0))
def test_relu_factor_is_w_h_or_zero(tokens, w_h):
    f = gr.hop_factors(tokens, w_h, act="relu")
    assert np.all(np.isclose(f, w_h) | (f == 0))


def _h_last_from(t, h_t, tokens, w_h, act="tanh"):
    """Run the recurrence on from a given h_t to the last state (a second, independent forward pass)."""
    h = h_t
    for x in tokens[t + 1:]:
        z = w_h * h + rnn.W_X * x
        h = math.tanh(z) if act == "tanh" else max(z, 0.0)
    return h


@pytest.mark.parametrize("w_h,act", [(0.9, "tanh"), (1.4, "tanh"), (0.5, "tanh"), (1.6, "relu")])
def test_products_are_the_derivative_of_the_last_state(w_h, act):
    """products[k] = ∂h_7/∂h_{7−k}, checked by central differences on the forward pass."""
    tokens = list(rnn.TOKENS)
    _, h = gr.forward(tokens, w_h, act=act)
    p = gr.backward_products(gr.hop_factors(tokens, w_h, act=act))
    eps = 1e-6
    for k in range(len(tokens)):
        t = len(tokens) - 1 - k
        numeric = (_h_last_from(t, h[t] + eps, tokens, w_h, act) - _h_last_from(t, h[t] - eps, tokens, w_h, act)) / (2 * eps)
        assert abs(p[k] - numeric) < 1e-7


def test_t1_defaults_lose_94_percent_in_seven_hops():
    p = BackwardState().products()
    assert p[0] == 1.0 and f"{p[7]:.3f}" == "0.057"  # seed 001


def test_a_vanishing_gradient_is_shown_small_not_as_zero():
    """W_h 2: ∂h_7/∂h_0 is 1.9e-05 (by hand below), not 0; its cells and readouts wrote 0.000, as W_h 0's true
    zeros read (a maths audit). W_h 0's zeros still read 0.000."""
    h, zs = 0.0, []
    for x in rnn.TOKENS:
        zs.append(2.0 * h + 0.8 * x)
        h = math.tanh(zs[-1])
    grads = [1.0]  # ∂h_7/∂h_t for t = 7, 6, …, 0: each hop back multiplies by tanh'(z_{t+1})·W_h
    for z in zs[:0:-1]:
        grads.append(grads[-1] * (1 - math.tanh(z) ** 2) * 2.0)
    assert 1e-5 < grads[7] < 2e-5 and 2e-5 < grads[6] < 3e-5
    text = _shown(BackwardState(w_h=2.0, hop=7), "backward")
    cells = f"│{grads[7]:.1e}│←│{grads[6]:.1e}│←│{grads[5]:.1e}│".replace("e-0", "e-")
    assert cells in text
    assert f"= {grads[6]:.1e} × {(1 - math.tanh(zs[1]) ** 2) * 2:.3f} = {grads[7]:.1e}" in text
    row = next(line for line in text.splitlines() if "∂h  │" in line)
    assert f"after 7 hops {grads[7]:.1e}" in text and "0.000" not in row
    zero = _shown(BackwardState(w_h=0.0, hop=7), "backward")
    assert "│0.000 │←│0.000 │" in zero and "after 7 hops 0.000" in zero and "e-" not in zero


@pytest.mark.parametrize("w_h,act", [(0.9, "tanh"), (1.6, "relu"), (1.2, "tanh"), (0.3, "relu"), (2.0, "relu")])
def test_product_is_the_plain_running_product_and_crossings_match_a_log_search(w_h, act):
    factors, p = gr.chain(200, w_h, act)
    running = [reduce(lambda a, b: a * b, factors[:k], 1.0) for k in range(len(factors) + 1)]
    assert np.allclose(p, running, rtol=1e-12, atol=0)
    # independently: the first hop whose summed log-factor passes log(limit)
    with np.errstate(divide="ignore"):
        logs = np.concatenate(([0.0], np.cumsum(np.log(factors))))
    below = next((k for k, v in enumerate(logs) if v < math.log(gr.F32_TINY)), None)
    above = next((k for k, v in enumerate(logs) if v > math.log(gr.F32_MAX)), None)
    crossings = ProductState(w_h=w_h, act=act).crossings()
    assert crossings == {"below_f32_min_normal": below, "above_f32_max": above}


def test_relu_at_1_6_crosses_float32_max_at_hop_189():
    factors, p = gr.chain(200, 1.6, "relu")
    assert np.allclose(factors, 1.6)  # every unit on the chain is active
    assert math.ceil(math.log(gr.F32_MAX) / math.log(1.6)) == 189  # closed form: 1.6^k > max
    assert gr.first_hop(p, above=gr.F32_MAX) == 189
    p32 = gr.backward_products_f32(factors)
    assert np.isfinite(p32[188]) and np.isinf(p32[189])  # float32 itself overflows there
    assert np.isfinite(p).all()  # float64 does not


def test_float32_limits_are_the_documented_ones():
    assert f"{gr.F32_TINY:.7e}" == "1.1754944e-38" and f"{gr.F32_MAX:.7e}" == "3.4028235e+38"


def test_chain_starts_with_t1_tokens_and_follows_its_rule():
    x = gr.chain_tokens(200)
    assert tuple(x[:8]) == rnn.TOKENS
    assert all(x[t] == rnn.TOKENS[t % 8] for t in range(200)) and "mod 8" in gr.CHAIN_RULE


def test_tanh_factor_peak_stays_below_w_h_and_relu_reaches_it():
    _, top = FactorsState().largest()
    assert top < 0.9
    k, top = FactorsState(act="relu").largest()
    assert top == pytest.approx(0.9)


@pytest.mark.parametrize("w_h", [0.3, 0.9])
def test_relus_largest_factor_says_how_many_hops_have_it(w_h):
    """Under ReLU every active hop's factor is W_h: "largest 0.300 at hop 1" named the first of 29 (a maths
    audit). The count is redone here: hops 1…39 leave h_39…h_1, active where z_t = W_h·h_{t−1} + 0.8·x_t > 0."""
    x, h, active = [rnn.TOKENS[t % 8] for t in range(40)], 0.0, []
    for t in range(40):
        z = w_h * h + 0.8 * x[t]
        active.append(z > 0)
        h = max(z, 0.0)
    ties = sum(active[1:])
    text = " ".join(_shown(FactorsState(w_h=w_h, act="relu"), "factors", (100, 30)).split())
    said = "at every hop" if ties == 39 else f"at {ties} of 39 hops"
    assert f"largest {w_h:.3f} {said} = W_h" in text
    assert w_h != 0.3 or ties < 39  # (both wordings checked)


def test_hop_is_slope_times_weight():
    s = HopState(hop=3, w_h=1.2)
    z = rnn.rnn_states(rnn.TOKENS, 1.2)[0][s.t]
    assert s.t == 5 and s.factor() == pytest.approx((1 - math.tanh(z) ** 2) * 1.2)


def test_clipping_scales_84_down_to_the_threshold_and_leaves_small_ones():
    g = np.array(gr.G_EXPLODING)
    assert gr.norm(g) == 84.0  # seed 001
    assert gr.clip_scale(84.0, 5.0) == pytest.approx(5 / 84)
    clipped = gr.clip(g, 5.0)
    assert gr.norm(clipped) == pytest.approx(5.0)
    assert np.allclose(clipped / np.linalg.norm(clipped), g / 84.0)  # same direction
    assert gr.clip_scale(84.0, 100.0) == 1.0 and np.array_equal(gr.clip(g, 100.0), g)
    tiny = ClipState().chain_norm()
    assert tiny < 1e-6 and gr.clip_scale(tiny, 5.0) == 1.0  # a ceiling, not a floor
    assert ClipState(threshold=84.0).data()["scale"] == 1.0  # at the threshold exactly: scale 1


@pytest.mark.parametrize("threshold", [5.0, 83.5, 84.0, 84.5, 100.0])
def test_clipping_says_a_true_comparison_at_and_around_the_norm(threshold):
    """"exploding ‖g‖ 84.0 ≥ 84": the sign between the norm and the threshold is true of the numbers, and
    clipping is said where ‖g‖ ≥ threshold, the rule clip_scale applies (at 84 it read "84.0 < 84")."""
    norm = math.sqrt(sum(v * v for v in gr.G_EXPLODING))
    r = ClipState(threshold=threshold).readings()
    assert r.clips == (norm >= threshold)
    assert r.scale == pytest.approx(threshold / norm if norm >= threshold else 1.0)
    words = _words(_shown(ClipState(threshold=threshold), "clipping", (100, 30)))
    sign = "≥" if norm >= threshold else "<"
    assert f"exploding ‖g‖ {norm:.1f} {sign} {threshold:g}" in words


def test_the_chains_gradient_at_the_threshold_is_said_clipped_by_1():
    """ReLU, W_h 1.00: every factor is 1·1 (each state > 0, below), so F7's gradient is exactly 1, and at
    threshold 1 clip_scale scales it by 1. It read "steady ‖g‖ 1.00 < 1: scale 1", against the rule the
    exploding line above says (an engineer's reading)."""
    h = 0.0
    for x in list(rnn.TOKENS) * (FACTORS_N // 8):  # F7's chain: T1's eight tokens, again and again
        h = max(0.0, 1.0 * h + 0.8 * x)
        assert h > 0
    state = ClipState(threshold=1.0, w_h=1.0, act="relu")
    assert state.readings().chain.norm == 1.0
    words = _words(_shown(state, "clipping", (100, 30)))
    assert "‖g‖ 1.00 ≥ 1: scale 1/1.00 = 1 " in words and "< 1" not in words


@pytest.mark.parametrize("threshold, scale", [(5, "0.05952"), (10, "0.1190"), (1, "0.01190"), (42, "0.5000")])
def test_a_clipping_scale_reads_to_four_figures_its_zeros_kept(threshold, scale):
    """10/84 read 0.119 and 1/84 0.0119 beside 5/84's 0.05952 (a keyboard audit): four figures, zeros kept."""
    norm = math.sqrt(sum(v * v for v in gr.G_EXPLODING))
    assert float(scale) == pytest.approx(threshold / norm, abs=5.01 * 10 ** (math.floor(math.log10(threshold / norm)) - 4))
    words = _words(_shown(ClipState(threshold=float(threshold)), "clipping", (100, 30)))
    assert f"scale {threshold}/{norm:.1f} = {scale} " in words


def test_clipping_tells_its_two_gradients_apart_without_colour(capsys, monkeypatch):
    """Both points were ● (red and blue): under NO_COLOR, or on a grey projector, the legend could not
    say which was which. Each has its own marker, once on the plot, at its own norm's side."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["shot", "gradients/clipping", "--size", "100x30", "-o", "-"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert any("● exploding g" in r and "○ vanishing g" in r for r in rows)
    top, bottom = (next(y for y, r in enumerate(rows) if corner in r) for corner in "┌└")
    plot = rows[top + 1:bottom]
    big, small = ([(y, r.index(m)) for y, r in enumerate(plot) if m in r] for m in "●○")
    assert len(big) == len(small) == 1
    assert big[0][0] < small[0][0] and big[0][1] > small[0][1]  # 84 up and right of 7.85e-09 (log axes)


def _bptt_by_differences(c, seed, d, T, act="tanh"):
    """‖∂L/∂h_t‖ by central differences on a fresh forward pass (draws in the documented order)."""
    rng = np.random.default_rng(seed)
    W = c / np.sqrt(d) * rng.standard_normal((d, d))
    x = rng.standard_normal((T, d))
    v = rng.standard_normal(d)
    f = np.tanh if act == "tanh" else (lambda z: np.maximum(z, 0.0))
    hs = [np.zeros(d)]
    for t in range(T):
        hs.append(f(W @ hs[-1] + x[t]))

    def loss_from(t, h):
        for s in range(t, T):
            h = f(W @ h + x[s])
        return v @ h

    eps, norms = 1e-6, []
    for t in range(T, -1, -1):
        grad = [(loss_from(t, hs[t] + eps * e) - loss_from(t, hs[t] - eps * e)) / (2 * eps) for e in np.eye(d)]
        norms.append(np.linalg.norm(grad))
    return np.array(norms) / norms[0]


@pytest.mark.parametrize("act", ["tanh", "relu"])
def test_bptt_matches_finite_differences(act):
    expected = _bptt_by_differences(1.5, 3, d=5, T=6, act=act)
    assert np.allclose(gr.bptt_norms(1.5, 3, act=act, d=5, T=6), expected, rtol=1e-5)


def test_e1_is_reproducible_and_c_1_5_decays_under_tanh_and_explodes_under_relu():
    a = gr.bptt_norms(1.5, seed=7)
    gr._bptt_norms.cache_clear()
    assert np.array_equal(a, gr.bptt_norms(1.5, seed=7))
    assert not np.array_equal(a, gr.bptt_norms(1.5, seed=8))
    tanh = BpttState().curves()
    assert len(tanh["1.5"]) == 61 and tanh["1.5"][0] == 1.0
    assert tanh["1.5"][60] < tanh["1.5"][20] < 1.0  # decays
    assert tanh["0.5"][20] < tanh["1.0"][20] < tanh["1.5"][20]  # larger c keeps more
    relu = BpttState(act="relu").curves()
    assert relu["1.5"][60] > relu["1.5"][20] > 1.0  # explodes


def test_e1_c_1_5_keeps_a_few_percent_at_distance_20_like_the_seed():
    left = [gr.bptt_norms(1.5, seed)[20] for seed in range(5)]
    assert 0.01 < math.exp(np.mean(np.log(left))) < 0.2  # seed 000: about 5%


# -- states, command line, screen -----------------------------------------------------------------

def test_gradients_opens_on_its_first_figure_and_set_keys_find_their_figure():
    screen, figure = find("gradients")
    assert screen is GradientsScreen and figure.id == "hop"
    assert find("gradients", ["threshold=3"])[1].id == "clipping"
    assert find("gradients", ["seed=3"])[1].id == "bptt"
    assert [f.id for f in GradientsScreen.FIGURES] == ["hop", "backward", "factors", "product", "clipping", "bptt"]


def test_shot_product_relu_shows_189(tmp_path):
    out = tmp_path / "p.txt"
    assert main(["shot", "gradients/product", "--set", "act=relu", "--set", "w_h=1.6", "-o", str(out)]) == 0
    text = out.read_text()
    assert "float32 max: hop 189" in text and "NaN" in text and "▲inf" in text


def test_the_float32_limits_say_their_values_on_a_coarse_axis(tmp_path):
    """At 80x24 a row of the product's log axis spans 25 decades: the limit lines sit on the 1e±50 ticks,
    and "1e50┤float32 max" read as if float32's max were 1e50 (a newcomer's trial). Each says its value."""
    out = tmp_path / "p.txt"
    assert main(["shot", "gradients/product", "--step", "150", "--size", "80x24", "-o", str(out)]) == 0
    text = out.read_text()
    f32 = np.finfo(np.float32)
    assert f"float32 max {float(f32.max):.2e}" in text and f"float32 min normal {float(f32.tiny):.2e}" in text
    assert "3.40e+38" in text and "1.18e-38" in text


def test_shot_product_json_holds_factors_and_product(tmp_path):
    out = tmp_path / "p.json"
    assert main(["shot", "gradients/product", "--set", "act=relu", "--set", "w_h=1.6", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    factors, product = data["factors"], data["product"]
    assert len(factors) == 199 and len(product) == 200 and data["chain_rule"] == gr.CHAIN_RULE
    assert product[-1] == pytest.approx(1.6 ** 199, rel=1e-9)
    assert data["crossings"]["above_f32_max"] == 189
    assert data["product_float32"][189] == "inf"  # non-finite values are written as strings
    assert data["tokens"][:8] == list(rnn.TOKENS)


def test_bad_value_is_one_line_and_exit_2(capsys):
    assert main(["shot", "gradients/product", "--set", "w_h=banana", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "w_h=banana" in err and "Traceback" not in err
    assert main(["gradients", "--set", "act=sigmoid"]) == 2


async def test_stepping_and_play_move_the_cursor_and_resizing_mid_play_is_safe():
    app = RnnApp("gradients", "product")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        await pilot.press("right")  # hop 0…199: a press is 10 hops, shift+→ one
        assert screen.state.hop == 10
        await pilot.press("home", "shift+right", "shift+right")
        assert screen.state.hop == 2
        await pilot.press("space")
        assert screen.playing
        for size in [(100, 30), (60, 18), (160, 45), (80, 24), (45, 14)] * 2:
            await pilot.resize_terminal(*size)
            await pilot.pause(0.06)
        assert screen.state.hop > 2
        await pilot.press("space")
        assert not screen.playing
        await pilot.press("a")
        assert screen.state.act == "relu"


async def test_the_float32_series_is_not_the_colour_of_float32s_limit_lines():
    """The float32 product was drawn in the red of the float32 max / min normal lines, and read as one
    of them (a newcomer's trial)."""
    from rnntui.screens.gradients import ProductView
    from rnntui.widgets.plot import Plot

    app = RnnApp("gradients", "product")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        spec = app.screen.query_one(ProductView).query_one(Plot).spec
        limits = {line.color for line in spec.lines if "float32" in line.label}
        assert limits and all(s.color not in limits for s in spec.series), [(s.label, s.color) for s in spec.series]


def _first_inf_hop_float32(factor: float, hops: int) -> int | None:
    """Independently of the engine: float32's running product of `factor`, hop by hop."""
    with np.errstate(over="ignore"):
        p = np.cumprod(np.full(hops, factor, dtype=np.float32), dtype=np.float32)
    inf = np.flatnonzero(np.isinf(p))
    return int(inf[0]) + 1 if inf.size else None  # p[k - 1] is the product after k hops


def test_snapshot_product(snap_compare):
    """ReLU at W_h = 1.6, cursor at hop 190: just past where float32 runs out (hop 189)."""
    state = ProductState(act="relu", w_h=1.6, hop=190)
    r = state.readings()
    assert _first_inf_hop_float32(1.6, PRODUCT_N - 1) == 189 == r.crossings["above_f32_max"]
    assert math.isinf(r.at_float32) and r.at == pytest.approx(1.6 ** 190, rel=1e-12)
    assert r.seed_end is None  # the seed prints no numbers for this setting
    assert snap_compare(RnnApp("gradients", "product", state=state), terminal_size=(80, 24))


# -- issue 15: the seed's numbers beside ours ------------------------------------------------------

def _factors_by_hand(n, w_h):
    """The chain's per-hop factors tanh'(z_t)·W_h by a plain loop (tokens: T1's eight, repeated)."""
    h, zs = 0.0, []
    for t in range(n):
        zs.append(w_h * h + rnn.W_X * rnn.TOKENS[t % 8] + rnn.B)
        h = math.tanh(zs[-1])
    return [(1 - math.tanh(z) ** 2) * w_h for z in zs[1:]][::-1]


def _shown(state, figure, size=(80, 24)):

    return one_app.txt(GradientsScreen, GradientsScreen.figure_by_id(figure), state, size)


@pytest.mark.parametrize("w_h", [0.9, 1.6])
def test_f6_plots_the_gradient_walked_so_far_on_a_log_axis(w_h):
    """gradients/backward left 23 rows blank at 160x48 (stop 55's found-and-left): the rows its track
    leaves plot |∂L/∂h_t| for the states reached so far, by a plain loop here, on an axis that holds
    still as the walk goes on; at 80x24, without its x axis (no room for it), the same five points."""
    factors = _factors_by_hand(8, w_h)  # hop 1's factor first
    limits = set()
    for hop in (0, 4, 7):
        r = BackwardState(hop=hop, w_h=w_h).readings()
        want = [(t, abs(math.prod(factors[:7 - t]))) for t in range(7 - hop, 8)]
        assert [t for t, _g in r.walked] == [t for t, _g in want]
        assert [g for _t, g in r.walked] == pytest.approx([g for _t, g in want], rel=1e-12)
        assert all(r.ylim[0] <= g <= r.ylim[1] for _t, g in want)
        limits.add(r.ylim)
    assert len(limits) == 1
    text = _shown(BackwardState(hop=4, w_h=w_h), "backward", (120, 40))
    assert "|∂L/∂h_t|, walked so far" in text and "t (the walk goes right to left)" in text
    assert text.count("•") + text.count("●") == 5  # h_7 … h_3, one point each (the cursor's is ●)
    small = _shown(BackwardState(hop=4, w_h=w_h), "backward", (80, 24))
    assert "walked so far" in small and "t (the walk goes right to left)" not in small
    assert small.count("•") + small.count("●") == 5


@pytest.mark.parametrize("w_h", [0.9, 1.6])
def test_f6_each_hop_reads_gradient_before_times_factor_and_shows_the_factors_walked(w_h):
    """F6's line "before × factor = gradient" is true arithmetic at every hop: before is the gradient one
    hop earlier, the factor that hop's tanh'(z)·W_h; the track shows exactly the k factors walked so far,
    each at the state its hop leaves (t = 8 − k)."""
    factors = _factors_by_hand(8, w_h)  # hop 1's factor first
    assert BackwardState(hop=0, w_h=w_h).readings().before is None
    for hop in range(1, 8):
        r = BackwardState(hop=hop, w_h=w_h).readings()
        assert r.before == pytest.approx(math.prod(factors[:hop - 1]), rel=1e-12)
        assert r.this_factor == pytest.approx(factors[hop - 1], rel=1e-12)
        assert r.before * r.this_factor == pytest.approx(r.gradient, rel=1e-12)
        shown = {t: f for t, f in enumerate(r.track_factor) if f not in (None, "")}
        assert sorted(shown) == [8 - k for k in range(hop, 0, -1)]
        assert [shown[8 - k] for k in range(1, hop + 1)] == pytest.approx(factors[:hop], rel=1e-12)


def test_f7_shows_the_seeds_largest_factor_beside_ours():
    r = FactorsState().readings()
    assert r.seed_largest.value == 0.884  # seed 001: "默认的 0.90 上最大的是 0.884"
    ours = max(_factors_by_hand(FACTORS_N, 0.9))
    assert r.largest["factor"] == pytest.approx(ours, abs=1e-12) and f"{ours:.3f}" == "0.899"
    text = _shown(FactorsState(), "factors")
    assert "source 0.884 ≠ ours 0.899" in text
    assert FactorsState(act="relu").readings().seed_largest is None  # not the seed's setting
    assert "source" not in _shown(FactorsState(w_h=1.2), "factors")
    # hop 1 of this 40-token chain is not hop 1 of F5 and F6 (0.799, the 8-token chain): the readout names
    # the states it joins, h_39→h_38 here and h_7→h_6 there
    first = _factors_by_hand(FACTORS_N, 0.9)[0]
    assert f"hop 1 of {FACTORS_N - 1}  h_39→h_38: factor {first:.3f}" in text and f"{first:.3f}" != "0.799"
    assert "hop 1  h_7→h_6" in _shown(HopState(), "hop") and f"{_factors_by_hand(8, 0.9)[0]:.3f}" == "0.799"


def _words(text):
    return " ".join(" ".join(line.strip(" │") for line in text.splitlines()).split())  # (wrapped in the panel)


def test_f7_says_why_the_source_cannot_start_from_t1s_tokens():
    """F7 put the source's 0.884 down to "its tokens after the 8th follow an unpublished rule", but our 0.899
    is hop 34, h_6→h_5, whose z uses only x_0…x_6 (a researcher): any chain that starts with T1's tokens has
    that factor whatever follows, so its largest is at least 0.899. The screen says so."""
    h, zs = 0.0, []
    for x in rnn.TOKENS[:7]:  # T1's first seven tokens, W_x 0.8, b 0, h_-1 = 0, by hand
        zs.append(0.9 * h + 0.8 * x)
        h = math.tanh(zs[-1])
    hop_6 = (1 - math.tanh(zs[6]) ** 2) * 0.9
    assert zs[6] == pytest.approx(0.0325, abs=1e-3) and f"{hop_6:.3f}" == "0.899" and hop_6 > 0.884
    rng = np.random.default_rng(5)
    for _trial in range(20):  # any continuation after the 7th token
        tokens = list(rnn.TOKENS[:7]) + list(rng.uniform(-1, 1, FACTORS_N - 7))
        f = gr.hop_factors(tokens, 0.9)
        assert f[FACTORS_N - 1 - 6] == pytest.approx(hop_6, abs=1e-12) and f.max() >= hop_6 > 0.884
    r = FactorsState().readings()
    assert r.published == {"hop": 34, "t": 6, "factor": pytest.approx(hop_6, abs=1e-12)}
    assert r.largest["hop"] == 34  # here it is also the chain's largest
    words = _words(_shown(FactorsState(), "factors"))
    assert ("source 0.884 ≠ ours 0.899: with T1's tokens and weights h_6→h_5 (hop 34, from x_0…x_6 alone) is "
            "already 0.899 > 0.884, so the source's chain cannot start with T1's tokens") in words
    assert "unpublished" not in words


@pytest.mark.parametrize("act", ["tanh", "relu"])
def test_f7_at_w_h_0_says_every_factor_is_0(act):
    """At W_h 0 F7 said "largest 0.000 at hop 1 = W_h", then "no factor reaches W_h" (a researcher): every
    factor is act'(z)·0 = 0 = W_h, so it is at every hop, and the line under it says why."""
    assert not any(_factors_by_hand(FACTORS_N, 0.0))
    words = _words(_shown(FactorsState(w_h=0.0, act=act), "factors"))
    assert "largest 0.000 at every hop = W_h" in words and "at hop 1" not in words
    assert f"W_h = 0: every factor is {act}'(z_t)·0 = 0, so each one is W_h" in words
    assert "no factor reaches W_h" not in words
    assert "factor 0.000 zeroes it" in words and "shrinks" not in words  # (a factor of 0 ends it, a review)
    assert "no factor reaches W_h" in _words(_shown(FactorsState(w_h=0.1), "factors"))


def test_f8_shows_the_seeds_crossing_and_end_beside_ours():
    r = ProductState().readings()
    assert (r.seed_below_min_normal.value, r.seed_end.value) == (161, 9.8e-48)  # seed 001
    logs = np.concatenate(([0.0], np.cumsum(np.log(_factors_by_hand(PRODUCT_N, 0.9)))))
    ours = next(k for k, v in enumerate(logs) if v < math.log(np.finfo(np.float32).tiny))
    assert ours == r.crossings["below_f32_min_normal"] == 178
    assert r.end == pytest.approx(math.exp(logs[-1]), rel=1e-9)
    text = _shown(ProductState(), "product")
    assert "hop 178 (source 161)" in text and "(source 9.8e-48)" in text and "3.36e-43" in text
    assert "unpublished rule" in text


def test_f8_at_the_defaults_says_float32_ends_subnormal_not_0():
    """At the defaults F8 said float32 "then rounds to 0", but float32's product ends at the subnormal
    3.36e-43 (a researcher). A float32 running product by a plain loop ends there, a multiple of 2^-149 with
    8 significant bits, not 0; the words say so."""
    running = np.float32(1.0)
    for f in np.float32(_factors_by_hand(PRODUCT_N, 0.9)):
        running = np.float32(running * f)
    assert 0 < running < np.finfo(np.float32).tiny and f"{running:.2e}" == "3.36e-43"
    steps = float(running) / 2.0 ** -149
    assert steps == int(steps) and int(steps).bit_length() == 8
    words = _words(_shown(ProductState(), "product"))
    assert ("below min normal float32 drops digits: it ends at 3.36e-43, a subnormal with 8 of 24 bits, not yet 0: "
            "silently, no error") in words and "rounds to 0" not in words


def _ieee_significant_bits(v) -> int:
    """From float32's bit pattern: a normal number keeps 24 bits (23 stored, one implied); a subnormal
    (exponent field 0) keeps as many as its stored mantissa's length; 0, inf and NaN none."""
    bits = int(np.array(v, dtype=np.float32).view(np.uint32))
    exponent, mantissa = (bits >> 23) & 0xFF, bits & 0x7FFFFF
    if exponent == 0xFF:
        return 0
    return 24 if exponent else mantissa.bit_length()


def test_float32_significant_bits_follow_the_ieee_layout():
    """The F8 line names how many of float32's 24 bits the product keeps: all 24 for a normal number,
    1.18e-38 included; fewer only below it."""
    tiny = float(np.finfo(np.float32).tiny)
    for v in (1.0, -2.5, tiny, float(np.finfo(np.float32).max), tiny / 2, tiny / 3, 3.36e-43, 2.0 ** -149,
              3 * 2.0 ** -149, 0.0, math.inf, math.nan):
        assert gr.f32_bits(v) == _ieee_significant_bits(v), v
    assert gr.f32_bits(1.0) == gr.f32_bits(tiny) == 24 and gr.f32_bits(tiny / 2) == 23


def test_f8_a_product_of_ones_stays_in_float32s_range():
    """ReLU at W_h = 1 multiplies by exactly 1 every hop: the product stays 1, a normal float32, and the
    line says it stays inside float32's range (it read "a subnormal with 23 of 24 bits")."""
    state = ProductState(act="relu", w_h=1.0)
    assert state.readings().end_float32 == 1.0
    words = _words(_shown(state, "product"))
    assert "the product stays inside float32's range on this chain" in words and "subnormal" not in words


@pytest.mark.parametrize("w_h, act, hop", [(0.5, "relu", 2), (0.0, "tanh", 1)])
def test_f8_an_exact_0_factor_is_not_called_underflow(w_h, act, hop):
    """ReLU at W_h 0.5 said "crosses float32 min normal: hop 2" and "below min normal float32 drops digits, then
    rounds to 0", but relu'(z) = 0 at hop 2 (a researcher): the product is exactly 0 in float64 too. A plain
    loop finds the first z ≤ 0 back from the end; the words name it, and the plot's ▼0 stands at that hop."""
    h, zs = 0.0, []
    for t in range(PRODUCT_N):
        zs.append(w_h * h + 0.8 * rnn.TOKENS[t % 8])
        h = max(zs[-1], 0.0) if act == "relu" else math.tanh(zs[-1])
    back = zs[1:][::-1]  # hop k leaves h_{200−k}
    first = next(k for k, z in enumerate(back, 1) if w_h == 0 or (act == "relu" and z <= 0))
    assert first == hop
    r = ProductState(w_h=w_h, act=act).readings()
    assert r.exact_zero == hop and r.product[hop] == 0.0 and r.product[hop - 1] > np.finfo(np.float32).tiny
    words = _words(_shown(ProductState(w_h=w_h, act=act), "product", (100, 30)))
    assert f"crosses float32 min normal: no (exactly 0 from hop {hop})" in words
    said = (f"a dead ReLU: relu'(z) = 0 at hop {hop}, so its factor is exactly 0 and the product is 0 from there in "
            "any precision: no underflow") if act == "relu" else \
        "W_h = 0: every factor is exactly 0, so the product is 0 from hop 1 in any precision: no underflow"
    assert said in words and "drops digits" not in words
    lines = _shown(ProductState(w_h=w_h, act=act, hop=hop), "product", (120, 40)).splitlines()
    top = next(line for line in lines if "┌" in line)
    mark = next(line for line in lines if "▼0" in line)
    assert 0 < mark.index("▼") - top.index("┌") <= 2  # hop 1 or 2 of 0 … 199: at the left edge
    if "┬" in top:  # the cursor, at that hop, marks the top edge (at hop 1 it is under the edge's corner)
        assert mark.index("▼") == top.index("┬")
    assert act == "tanh" or "┬" in top


def _seed_e1_norms() -> dict:
    """The source's E1 as its code runs it (ai-learning-labs, 06_rnn_attention.py): one default_rng(0);
    per c a W, a U and 60 inputs drawn; h_t = tanh(W·h + U·x_t); g = ones(64) walked back; raw norms."""
    rng, d, T, out = np.random.default_rng(0), 64, 60, {}
    for c in (0.5, 1.0, 1.5):
        W = rng.standard_normal((d, d)) / np.sqrt(d) * c
        U = rng.standard_normal((d, d)) / np.sqrt(d)
        x = rng.standard_normal((T, d))
        hs = [np.zeros(d)]
        for t in range(T):
            hs.append(np.tanh(W @ hs[-1] + U @ x[t]))
        g, norms = np.ones(d), []
        for t in range(T, 0, -1):
            norms.append(float(np.linalg.norm(g)))
            g = W.T @ (g * (1 - hs[t] ** 2))
        out[f"{c:.1f}"] = norms  # norms[k]: k hops back
    return out


def test_clipping_says_where_its_vanishing_gradient_comes_from():
    """"vanishing ‖g‖ 7.85e-09" was said with no source (a student worked out it was F7's chain): the
    figure names it, and it is F7's 39 factors multiplied, by a plain loop here."""
    kept = math.prod(_factors_by_hand(FACTORS_N, 0.9))
    text = _shown(ClipState(), "clipping")
    assert f"vanishing ‖g‖ {kept:.2e} < 5" in text
    assert "(from the factors figure: its 39 hops multiplied, W_h 0.90, tanh)" in text and FACTORS_N - 1 == 39


def _relu_product_by_hand(n, w_h):
    h, zs = 0.0, []
    for t in range(n):
        zs.append(w_h * h + 0.8 * rnn.TOKENS[t % 8])
        h = max(zs[-1], 0.0)
    return math.prod(w_h if z > 0 else 0.0 for z in zs[1:])


def test_clipping_follows_the_topics_w_h_and_act():
    """Clipping's F7 gradient stayed 7.85e-09 "(W_h 0.90, tanh)" after the topic's W_h and act changed (a
    researcher). It is F7's product at the topic's values, by a plain loop here: at ReLU, W_h 1.40 it is 5.0e5,
    and clipping scales it to the threshold like the other; at ReLU 0.5 a dead unit makes it 0."""
    big = _relu_product_by_hand(FACTORS_N, 1.4)
    assert f"{big:.1e}" == "5.0e+05" and big == pytest.approx(1.4 ** 39)  # every unit on, 39 hops
    state = ClipState(w_h=1.4, act="relu")
    v = state.readings().chain
    assert v.norm == pytest.approx(big, rel=1e-12) and v.clipped_norm == pytest.approx(5.0)
    words = _words(_shown(state, "clipping"))
    assert (f"exploding ‖g‖ {big:.2e} ≥ 5: scale 5/{big:.2e} = {5 / big:.4g} after 5.00 (from the factors figure: "
            "its 39 hops multiplied, W_h 1.40, relu)") in words and "vanishing ‖g‖" not in words
    assert "○ exploding g (F7)" in words
    tanh = math.prod(_factors_by_hand(FACTORS_N, 1.2))
    assert f"vanishing ‖g‖ {tanh:.2e} < 5" in _words(_shown(ClipState(w_h=1.2), "clipping"))
    assert _relu_product_by_hand(FACTORS_N, 0.5) == 0
    words = _words(_shown(ClipState(w_h=0.5, act="relu"), "clipping"))
    assert "vanishing ‖g‖ 0 < 5: scale 1 after 0 unchanged" in words and "a factor of exactly 0" in words
    # ReLU at W_h 1: every factor 1 (a unit on), the product exactly 1: neither exploding nor vanishing (it was
    # called exploding, a review); under a threshold of 0.5 it is clipped, and said so
    assert _relu_product_by_hand(FACTORS_N, 1.0) == 1.0
    words = _words(_shown(ClipState(w_h=1.0, act="relu"), "clipping"))
    assert "steady ‖g‖ 1.00 < 5: scale 1 after 1.00 unchanged" in words and "exploding g (F7)" not in words
    words = _words(_shown(ClipState(w_h=1.0, act="relu", threshold=0.5), "clipping"))
    assert "steady ‖g‖ 1.00 ≥ 0.5: scale 0.5/1.00 = 0.5000 after 0.50" in words


async def test_clipping_takes_the_w_h_and_act_set_on_another_figure():
    app = RnnApp("gradients", "factors")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        await pilot.press("a", "plus", "plus")  # relu, W_h 0.90 → 1.10 (the coarse notch)
        w_h = screen.state.w_h
        assert (screen.state.act, w_h) == ("relu", pytest.approx(1.1))
        assert (screen.states["clipping"].act, screen.states["clipping"].w_h) == ("relu", w_h)


def test_a_factor_just_past_1_is_not_shown_as_1():
    """At W_h 1.20 hop 38's factor is 1.0004: "factor 1.000 grows" read as a contradiction (a student's
    trial). A factor that 3 decimals would show as 1 gets the digits that tell it from 1; others keep 3."""
    factors = _factors_by_hand(FACTORS_N, 1.2)
    near = [k for k, f in enumerate(factors, 1) if f"{f:.3f}" == "1.000" and f != 1.0]
    assert near == [38]
    text = _shown(FactorsState(w_h=1.2, hop=38), "factors", (100, 30))
    assert f"factor {factors[37]:.4f} grows" in text and "1.0004" in text and "1.000 " not in text
    assert f"factor {factors[0]:.3f} shrinks" in _shown(FactorsState(w_h=1.2, hop=1), "factors", (100, 30))


def test_e1_says_which_of_the_seeds_shares_are_its_codes_norms():
    """The source's text says c=1.0 keeps "千分之四" at 20 and c=1.5 "千分之七" at 40; ours were 50× and 3×
    lower, put down to "a different random draw" (a student's trial). Its own code prints those as
    norms from ‖∂L/∂h_T‖ = 8: its "5%" at 20 (c=1.5) is 0.40 ÷ 8, so the others are shares of 1/8 of them."""
    norms = _seed_e1_norms()
    assert norms["1.0"][0] == pytest.approx(8.0)
    assert f"{norms['1.5'][20] / 8:.0%}" == "5%"  # the text's one share that is a share
    r = BpttState().readings()
    # and "60 步外是 10⁻¹⁰" (c=1.0): its code's last norm, 59 hops back, where its loop stops (a researcher)
    text_says = {"0.4%": 0.004, "0.7%": 0.007, "10⁻¹⁰": 1e-10}
    assert [(n.c, n.distance, n.said) for n in r.seed_norms] == [("1.0", 20, "0.4%"), ("1.5", 40, "0.7%"),
                                                                  ("1.0", 59, "10⁻¹⁰")]
    assert len(norms["1.0"]) - 1 == 59  # (its last)
    for n in r.seed_norms:
        assert f"{norms[n.c][n.distance]:.1e}" == f"{n.norm:.1e}"  # as its code prints them
        assert text_says[n.said] == pytest.approx(n.norm, rel=0.1)  # its text read them as shares
        assert n.share == pytest.approx(norms[n.c][n.distance] / norms[n.c][0], rel=0.02)
    one = r.seed_share  # the text's one share (a lecturer missed it beside the others)
    assert (one.c, one.distance, one.said) == ("1.5", 20, "5%") and f"{norms['1.5'][20]:.1e}" == f"{one.norm:.1e}"
    assert f"{one.share:.0%}" == one.said
    text = " ".join(_shown(BpttState(), "bptt", (100, 30)).replace("│", " ").split())
    ours = gr.bptt_norms(1.0, 0)[20], gr.bptt_norms(1.5, 0)[40], gr.bptt_norms(1.5, 0)[20], gr.bptt_norms(1.0, 0)[59]
    # its code's norms on screen, as it prints them, so that each share shown is one of them ÷ 8 (0.7% ÷ 8 is
    # 8.75e-04, not the 9.13e-04 shown: 7.3e-03 ÷ 8, a student could not tell)
    code = [f"{norms[c][d]:.1e}" for c, d in (("1.0", 20), ("1.5", 40), ("1.0", 59))]
    assert code == ["4.0e-03", "7.3e-03", "1.0e-10"]
    shares = [f"{float(n) / 8:.2e}" for n in code]
    assert (f"source: its 5% (c=1.5, at 20) reads as a share, ours {100 * ours[2]:.1f}%; its 0.4% (c=1.0, at 20), 0.7% "
            f"(c=1.5, at 40) and 10⁻¹⁰ (c=1.0, at 59) match its code's norms {', '.join(code)}, ÷ ‖∂L/∂h_T‖ = 8: "
            f"shares {', '.join(shares)}; ours {ours[0]:.2e}, {ours[1]:.2e}, {ours[3]:.2e} (another draw)") in text
    assert BpttState(act="relu").readings().seed_norms == () and "source" not in _shown(BpttState(scale=0.8), "bptt")


def _e1_relu_end(seed, c=1.5, d=64, T=60):
    """E1 under ReLU redone from its draws (rng order: W0, x, v), the share left at distance T."""
    rng = np.random.default_rng(seed)
    W = c / np.sqrt(d) * rng.standard_normal((d, d))
    x, v = rng.standard_normal((T, d)), rng.standard_normal(d)
    h, on = np.zeros(d), []
    for t in range(T):
        z = W @ h + x[t]
        on.append(z > 0)
        h = np.where(on[-1], z, 0.0)
    g = v
    for t in reversed(range(T)):
        g = W.T @ (on[t] * g)
    return float(np.linalg.norm(g) / np.linalg.norm(v))


def test_e1_says_relu_at_c_1_5_usually_grows_and_what_this_seed_does():
    """The prose said "ReLU at c=1.5 explodes" over seed 34's 0.163, 0.123, 0.0256 (a researcher: 21 of seeds
    0–99 shrink). Redone here from the draws: most seeds grow (in 0–999 too), the prose says "usually", and
    the line under the table says what this seed does and how many of seeds 0–99 grow."""
    ends = [_e1_relu_end(seed) for seed in range(100)]
    grow = sum(e > 1 for e in ends)
    assert grow == 79 and ends[34] == pytest.approx(0.0256, abs=5e-5)
    assert 0.75 < np.mean([_e1_relu_end(seed) > 1 for seed in range(100, 400)]) < 0.85  # not seeds 0–99 alone
    _screen, figure = find("gradients/bptt")
    assert "ReLU at c=1.5 usually grows" in figure.prose and "explodes" not in figure.prose
    r = BpttState(act="relu", seed=34).readings()
    assert r.relu_seeds["grow"] == grow and r.relu_seeds["median"] == pytest.approx(np.median(ends), rel=1e-9)
    words = _words(_shown(BpttState(act="relu", seed=34, distance=60), "bptt"))
    assert f"seed 34: c=1.5 shrinks to 0.0256 at 60; {grow} of seeds 0–99 grow" in words
    up = next(seed for seed, e in enumerate(ends) if e > 1)
    words = _words(_shown(BpttState(act="relu", seed=up), "bptt"))
    assert f"seed {up}: c=1.5 grows to {ends[up]:.3g} at 60, as in {grow} of seeds 0–99" in words
    assert "of seeds" not in _words(_shown(BpttState(act="tanh", seed=34), "bptt", (100, 30)))


def test_e1_help_and_json_give_the_draw_order(tmp_path):
    """E1's numbers could not be redone without the order of the seed's draws (a researcher): help and the JSON
    shot give it, and drawing in that order (the test's own loop) gives the figure's numbers."""
    from types import SimpleNamespace

    from rnntui.help import help_text

    _screen, figure = find("gradients/bptt")
    prose = help_text(SimpleNamespace(TOPIC_ID="gradients", figure=figure, state=BpttState()))[1]
    assert "default_rng(seed) draws, with standard_normal, W₀ (64×64), then x (60×64), then v (64)" in prose
    assert "W = c·W₀/√64" in prose
    assert main(["shot", "gradients/bptt", "--set", "act=relu", "--set", "seed=7", "-o",
                 str(tmp_path / "e1.json")]) == 0
    data = json.loads((tmp_path / "e1.json").read_text())
    assert "W0 (64x64), then x (60x64), then v (64)" in data["draws"]
    assert data["table"]["1.5"]["60"] == pytest.approx(_e1_relu_end(7), rel=1e-9)


@pytest.mark.parametrize("act, seed", [("tanh", 0), ("relu", 50), ("tanh", 24), ("relu", 7)])
def test_the_bptt_tables_numbers_have_the_same_significant_digits(act, seed):
    """gradients/bptt's table mixed 5.68e-04 with 0.001808 and 15.6 with 15.21 and 83.93 in one row
    (a newcomer's trial): every entry has three significant digits (the cursor's exact 1 aside), and
    reads as the engine's value to that precision."""
    state = BpttState(act=act, seed=seed)
    lines = _shown(state, "bptt", (100, 30)).splitlines()
    rows = {c: next(line for line in lines if line.strip("│ ").startswith(f"c={c}")) for c in state.readings().table}
    for c, line in rows.items():
        values = list(state.readings().table[c].values())
        shown = line.strip("│ ").replace("◂", "").split()[1:-1]  # the "at" columns
        assert len(shown) == len(values)
        for word, v in zip(shown, values):
            mantissa = word.split("e")[0].replace("-", "").replace(".", "").lstrip("0")
            assert len(mantissa) == 3, (c, word)
            assert float(word) == pytest.approx(v, rel=5e-3), (c, word, v)


@pytest.mark.parametrize("act, w_h", [("tanh", 0.9), ("relu", 1.6), ("relu", 0.9)])
def test_factors_plot_keeps_the_x1_and_w_h_lines_on_rows_of_their_own_at_80x24(act, w_h):
    """From 0 up, ×1 and W_h 0.90 shared one row at 80x24, with factors of 0.85 on it: as if they reached ×1
    (a trial). The plot starts under the smallest factor or ×1 (near 0: just under 0), so both lines show,
    apart, and every factor is inside."""
    state = FactorsState(w_h=w_h, act=act)
    text = one_app.txt(GradientsScreen, GradientsScreen.figure_by_id("factors"), state, (80, 24))
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "┌" in line)  # (the plot's top edge)
    rows = lines[top:next(i for i in range(top, len(lines)) if "└" in lines[i])]  # the plot's rows
    one = [i for i, line in enumerate(rows) if "×1" in line]
    mine = [i for i, line in enumerate(rows) if f"W_h {w_h:.2f}" in line]
    assert len(one) == 1 and len(mine) == 1 and one != mine
    r = state.readings()
    assert r.y_bottom < min(min(r.factors), 1.0) and max(max(r.factors), 1.0) < r.y_top


def test_where_the_source_differs_the_screen_gives_our_token_rule():
    """"its tokens after the 8th follow an unpublished rule" left no way to redo hop 178 or 0.899 (a trial):
    the line gives ours, and it is the rule the chain is built by."""
    text = one_app.txt(GradientsScreen, GradientsScreen.figure_by_id("product"), ProductState(), (100, 30))
    words = " ".join(" ".join(line.strip(" │") for line in text.splitlines()).split())  # (wrapped in the panel)
    assert "ours repeat the eight (x_t = x_(t mod 8))" in words
    x = gr.chain_tokens(PRODUCT_N)
    assert all(x[t] == rnn.TOKENS[t % 8] for t in range(PRODUCT_N)) and len(set(x[:8])) > 1


def test_the_product_says_from_which_hop_float32_reads_0():
    """The plot's ▼0 had no hop in the words (a trial): the hop is said, and it is where a float32 running
    product of the factors, computed here with a plain loop, first reads 0."""
    state = ProductState(w_h=0.5)
    factors = np.float32(state.readings().factors)
    running, zero = np.float32(1.0), None  # hop k's product holds k factors (hop 0's is 1)
    for k, f in enumerate(factors, 1):
        running = np.float32(running * f)
        if running == 0:
            zero = k
            break
    assert zero is not None and state.readings().crossings["below_f32_min_normal"] < zero
    text = one_app.txt(GradientsScreen, GradientsScreen.figure_by_id("product"), state, (100, 30))
    words = " ".join(" ".join(line.strip(" │") for line in text.splitlines()).split())
    assert f"then reads 0 from hop {zero}: silently, no error" in words
    # a product that is 0 in float64 too is not underflow (relu's 0 slope; a reviewer)
    dead = ProductState(w_h=0.5, act="relu")
    assert dead.readings().product[-1] == 0 and dead.readings().float32_zero is None


def test_the_bptt_prose_says_what_c_is_and_the_engine_draws_it_so():
    """"Larger c decays slower" never said what c is (a student's trial): the prose gives W ~ N(0, c²/d),
    and the weights the engine draws (seed 0, d 64) have that variance, within sampling error."""
    from rnntui.engine import gradients as gr
    from rnntui.topics import find

    _screen, figure = find("gradients/bptt")
    assert "W ~ N(0, c²/d)" in figure.prose and "Larger c decays slower" in figure.prose
    c, d = 1.5, gr.E1_D
    w, _x, _v = gr.bptt_draw(c, seed=0)  # what _bptt_norms runs
    assert w.shape == (d, d) and w.var() * d / c**2 == pytest.approx(1.0, abs=0.07) and abs(w.mean()) < 0.02


def test_the_hop_plots_legend_names_the_dots_as_slopes_and_the_bar_as_the_factor():
    """The dots were "other hops" beside a bar of tanh'·W_h, and the ● had no name (a student's trial):
    the legend says the dots are slopes, names the ●, and the readout's tanh'(z_7) is 1 − tanh²(z_7)."""
    import math
    import re

    from rnntui.topics import find

    text = one_app.txt(*find("gradients/hop"), HopState(), (100, 30))
    assert "• other hops' tanh'" in text and "● tanh'(z_7)" in text and "█ this hop: tanh'(z_7)·W_h" in text
    for size in ((80, 24), (100, 30)):  # the ● drawn, not under the bar's █ (at 80x24 it was, a review)
        canvas = [line for line in one_app.txt(*find("gradients/hop"), HopState(), size).splitlines() if "┤" in line or "│    │" in line]
        assert sum(line.count("●") for line in canvas) == 1, size
    z = float(re.search(r"z_7 ([+-]\d\.\d+)", text).group(1))
    slope = float(re.search(r"tanh'\(z_7\) (\d\.\d+)", text).group(1))
    assert slope == pytest.approx(1 - math.tanh(z) ** 2, abs=2e-3)


def test_under_relu_the_w_h_label_stands_beside_the_points_it_would_hide():
    """Under ReLU every active hop's factor is W_h: the line's label "W_h 0.90" was written over the last
    points (a student's trial). It goes to the row beside, with an arrow to its line."""
    state = FactorsState(act="relu", hop=FACTORS_N - 1)
    assert all(f == pytest.approx(state.w_h) for f in state.readings().factors if f > 0)  # the points on the line
    lines = one_app.txt(GradientsScreen, GradientsScreen.figure_by_id("factors"), state, (110, 32)).splitlines()
    on = next(i for i, line in enumerate(lines) if line.count("•") > 10)  # the row of the points at W_h
    assert f"W_h {state.w_h:.2f}" not in lines[on]
    assert f"W_h {state.w_h:.2f}↑" in lines[on + 1] or f"W_h {state.w_h:.2f}↓" in lines[on - 1]


@pytest.mark.parametrize("hop, w_h, act", [(1, 0.9, "tanh"), (2, 1.4, "relu"), (5, 0.5, "tanh")])
def test_the_hop_shows_how_z_is_made_with_topic_1s_w_x_and_b(hop, w_h, act):
    """Topic 2 runs on topic 1's W_x 0.8 and b 0 but never said them: z_7 +1.224 could not be redone (a
    researcher). The hop spells z_t out with its numbers; they add up to z_t, redone here by hand."""
    import re

    h, hs, zs = 0.0, [], []
    for x in rnn.TOKENS:
        zs.append(w_h * h + 0.8 * x + 0.0)
        h = math.tanh(zs[-1]) if act == "tanh" else max(zs[-1], 0.0)
        hs.append(h)
    t = 8 - hop
    words = _words(_shown(HopState(hop=hop, w_h=w_h, act=act), "hop"))
    found = re.search(rf"z_{t} = W_h·h_{t - 1} \+ W_x·x_{t} \+ b = ([\d.]+)·\(?(-?[\d.]+)\)? \+ ([\d.]+)·\(?(-?[\d.]+)\)? "
                      rf"\+ (-?[\d.]+) \(W_x, b: topic 1's defaults\)", words)
    assert found, words
    a, h_prev, w_x, x, b = (float(v) for v in found.groups())
    assert (a, w_x, b, x) == (w_h, 0.8, 0.0, rnn.TOKENS[t]) and h_prev == pytest.approx(hs[t - 1], abs=5e-4)
    assert a * h_prev + w_x * x + b == pytest.approx(zs[t], abs=2e-3)
    assert f"z_{t} {zs[t]:+.3f}" in words


def test_help_gives_topic_1s_w_x_and_b_on_the_figures_that_use_them():
    from types import SimpleNamespace

    from rnntui.help import help_text

    for fid in ("hop", "backward", "factors", "product", "bptt"):
        _screen, figure = find(f"gradients/{fid}")
        prose = help_text(SimpleNamespace(TOPIC_ID="gradients", figure=figure, state=figure.state_type()))[1]
        said = f"z_t = W_h·h_{{t−1}} + W_x·x_t + b from h_{{−1}} = 0, with topic 1's default W_x = {rnn.W_X:g} and b = {rnn.B:g}, fixed here"
        assert (said in prose) == (fid != "bptt"), fid
        assert ("x_t = x_(t mod 8)" in prose) == (fid in ("factors", "product")), fid


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_e1s_plot_keeps_its_rows_at_80x24_and_help_has_the_source_note(lang):
    """In Chinese at 80x24 the source's 4-line note left E1's plot 2 rows for 30 decades, and c=1.5's
    4.66e-05 sat on the ×1 line (a Chinese student's trial): below the rows the plot needs the note goes to
    help, and the plot draws its curves in 4 rows or more; at 120x40 the note stays under the table."""
    from types import SimpleNamespace

    from rnntui.help import help_text
    from rnntui.i18n import set_language
    from rnntui.render import render

    set_language(lang)
    try:
        small, large = (render(GradientsScreen, GradientsScreen.figure_by_id("bptt"), BpttState(), "txt", size)
                        for size in ((80, 24), (120, 40)))
        prose = help_text(SimpleNamespace(TOPIC_ID="gradients", figure=GradientsScreen.figure_by_id("bptt"),
                                          state=BpttState()))[1]
    finally:
        set_language("en")
    note = ("source: its 5%", "原文")[lang == "zh"]
    canvas = [line for line in small.splitlines() if ("┤" in line[:10] or line[7:8] == "│") and "└" not in line]
    assert note not in small and note in large and note in prose
    assert len(canvas) >= 4, canvas


def test_e1_seed_count_runs_seeds_side_by_side_as_one_by_one():
    """bptt_ends runs 100 networks at once (a new input std is a key press); each end is that seed's own
    curve's last value, under either activation and any input std."""
    for act, scale in (("relu", 2.3), ("tanh", 0.4)):
        ends = gr.bptt_ends(1.5, act, 12, scale)
        assert ends == pytest.approx([gr.bptt_norms(1.5, s, scale, act)[-1] for s in range(12)], rel=1e-12)


def test_e1_table_shows_only_whole_numbers_where_columns_run_short():
    """At 60 columns the table's right column was cropped: 5.09e-30 read 5.09e-3 (a trial). The columns
    that do not fit whole are left out; each number shown is its curve's value at its column's distance."""
    state = BpttState()
    r = state.readings()
    for size, shown in (((60, 20), (20, 0)), ((80, 24), (20, 40, 60, 0))):  # (the last: the cursor's, at 0,
        # which ←→ move: kept, a review)
        lines = _shown(state, "bptt", size).splitlines()
        head = next(i for i, line in enumerate(lines) if "‖∂L/∂h_t‖ ÷ ‖∂L/∂h_T‖" in line)
        assert lines[head].count("at ") + lines[head].count("cursor ") == len(shown)
        for c, line in zip(r.relative_norms, lines[head + 1: head + 4]):
            numbers = [float(n) for n in line.strip("│ ").split()[1:] if n != "◂"]
            assert numbers == pytest.approx([r.relative_norms[c][d] for d in shown], rel=5e-3), line


def test_clipping_credits_pascanu_as_the_spec_does(capsys):
    """SPEC F9 is "Gradient clipping (Pascanu 2013)"; the figure credited no one (a SPEC audit), where the
    LSTM's, seq2seq's and the GRU's figures give theirs. On its border at 80x24, in both languages."""
    for lang, title in (("en", "Gradient clipping (Pascanu et al. 2013) · F9"), ("zh", "梯度裁剪（Pascanu 等，2013） · F9")):
        assert main(["--lang", lang, "shot", "gradients/clipping", "--size", "80x24", "-o", "-"]) == 0
        assert title in capsys.readouterr().out.splitlines()[2]


def test_a_value_grown_a_digit_keeps_the_parameter_line_to_one_row():
    """At 80x24, threshold 5 → 10 broke the parameter line in two and the plot lost a row (stop 73's
    found-and-left): the line leaves out its note of what holds for the whole topic instead (help says
    it), keeps every value and the keys that change them, and the plot keeps its rows."""
    five, ten = (_shown(ClipState(threshold=t), "clipping").splitlines() for t in (5.0, 10.0))
    (line5,), (line10,) = ([row for row in rows if "←→ threshold" in row] for rows in (five, ten))
    assert "W_h act: whole topic" in line5
    assert "threshold 10.00" in line10 and "↑↓ +-" in line10 and "W_h 0.90" in line10 and "act tanh" in line10
    assert "whole topic" not in "\n".join(ten)
    assert five.index(line5) == ten.index(line10)
    assert [i for i, row in enumerate(five) if "└──" in row] == [i for i, row in enumerate(ten) if "└──" in row]
    assert "W_h act: whole topic" in _shown(ClipState(threshold=10.0), "clipping", (100, 30))  # room for it


def test_f7_under_tanh_the_largest_factor_is_below_w_h_even_when_it_rounds_to_it():
    """At W_h 0.02 F7 said "largest 0.020 at hop 35 = W_h", then "no factor reaches W_h" (a maths audit):
    np.isclose called 0.0199999986 W_h. A plain loop's factors all stay below W_h; the line says "<" and by
    how much, where three decimals cannot."""
    for w_h in (0.02, 0.01):
        by_hand = _factors_by_hand(FACTORS_N, w_h)
        assert max(by_hand) < w_h and f"{max(by_hand):.3f}" == f"{w_h:.3f}"
        words = _words(_shown(FactorsState(w_h=w_h), "factors", (100, 30)))
        assert f"< W_h {w_h:.2f} by {w_h - max(by_hand):.2e}" in words and "= W_h" not in words
    relu = _words(_shown(FactorsState(w_h=1.6, act="relu"), "factors", (100, 30)))
    assert "= W_h" in relu and " by " not in relu  # (an active ReLU unit's factor is W_h exactly)


def test_f8_says_where_float64_too_reads_0_and_the_true_product():
    """At W_h 0.01 F8's float64 reference rounded to 0 from hop 157 unsaid, its ▼0 unexplained, the end read
    "0" (a maths audit). A plain loop in Python floats finds that hop; exact decimal arithmetic the product."""
    from decimal import Decimal, getcontext

    by_hand = _factors_by_hand(PRODUCT_N, 0.01)
    running, zero = 1.0, None
    for k, f in enumerate(by_hand, 1):
        running *= f
        if running == 0.0 and zero is None:
            zero = k
    getcontext().prec = 50
    exact = reduce(lambda a, b: a * b, (Decimal(f) for f in by_hand), Decimal(1))
    log = float(exact.log10())
    assert zero == 157 and -413 < log < -412  # (the audit's: hop 157, about 8.8e-413)
    words = _words(_shown(ProductState(w_h=0.01, hop=199), "product", (100, 30)))
    said = f"float32 reads 0 from hop 22, float64 from hop {zero}, silently: the true product at hop 199 is 10^{log:.1f}"
    assert said in words and "float64 from" not in _words(_shown(ProductState(), "product", (100, 30)))  # (0.9: held)
    shown = _shown(ProductState(w_h=0.01, hop=199), "product", (80, 24))  # one line: a second took a plot row
    assert said in _words(shown) and "1┤" in shown and " 1e45┤" in shown


def test_the_tanh_rnn_is_recurrences_one():
    """gradients had a second tanh RNN beside T1's (a review): with tanh its states are T1's, exactly."""
    from rnntui.engine.recurrence import rnn_states

    tokens = gr.chain_tokens(40)
    for w_h in (0.5, 0.9, 1.6):
        z, h = gr.forward(tokens, w_h)
        rz, rh = rnn_states(tokens, w_h)
        assert np.array_equal(z, rz) and np.array_equal(h, rh)
        assert h == pytest.approx(np.tanh(z), rel=1e-15)
        assert z[1] == pytest.approx(w_h * h[0] + 0.8 * tokens[1], rel=1e-15)


@pytest.mark.parametrize("w_h, act, said", [(1.7, "tanh", True), (0.9, "tanh", False), (1.7, "relu", False)])
def test_a_vanishing_product_past_w_h_1_says_tanh_saturates(w_h, act, said):
    """At W_h 1.70 with tanh the product vanished faster than at 0.90, and nothing said why (a newcomer's
    trial): float32 max "never (tanh saturates)". Recomputed here: the tanh chain's product ends below 1 though
    W_h > 1, and ReLU's reaches float32's max."""
    from rnntui.render import render
    from rnntui.figures.gradients import ProductState

    text = render(GradientsScreen, GradientsScreen.figure_by_id("product"), ProductState(w_h=w_h, act=act), "txt",
                  (80, 24))
    assert ("float32 max: never (tanh saturates)" in text) == said
    x, h, log10 = gr.chain_tokens(PRODUCT_N), 0.0, 0.0
    for t, x_t in enumerate(x):
        z = w_h * h + 0.8 * x_t
        h = math.tanh(z) if act == "tanh" else max(z, 0.0)
        if t:
            log10 += math.log10(abs(w_h * ((1 - h * h) if act == "tanh" else float(z > 0))) or 1e-300)
    assert (log10 < 0) == (act == "tanh") and (log10 > math.log10(3.4e38)) == (act == "relu")
