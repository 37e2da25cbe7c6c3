"""T3 `lstm` against closed forms, a hand-computed step, torch's cells and the seed's figures
(seed 000 §4: 0.5^20 ≈ 1e-6, σ(1) = 0.73 and 0.2% after 20 steps, LSTM = 4× RNN, GRU = 3×;
seed 001: f = 0.95 leaves 0.006 after 100 steps, b_f = 0 → 9.5e-07, b_f = 1 → 0.002,
d = 1024 → 2.10M, 6.29M, 8.39M)."""
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from rnntui.cli import main
from rnntui.engine import lstm
from rnntui.engine.recurrence import TOKENS
from rnntui.figures.lstm import BiasState, CellState, ForgetPathState, GatesState, GruState, ParamsState
from rnntui.widgets.gatebar import widths

import one_app


def sig(z):
    return 1.0 / (1.0 + math.exp(-z))


# -- closed forms ------------------------------------------------------------------------------------
def test_forget_gate_path_after_100_steps():
    assert lstm.survival(0.95, 100) == pytest.approx(0.95 ** 100, rel=1e-12)
    assert f"{lstm.survival(0.95, 100):.4f}" == "0.0059"  # the seed's "0.006"
    assert f"{ForgetPathState(f=0.95).data()['f_k']:.3f}" == "0.006"


def test_forget_bias_survival_after_20_steps():
    assert lstm.bias_survival(0.0, 20) == 0.5 ** 20 == pytest.approx(9.54e-07, rel=1e-3)
    assert lstm.bias_survival(1.0, 20) == pytest.approx(sig(1.0) ** 20, rel=1e-12)
    assert f"{lstm.bias_survival(1.0, 20):.4f}" == "0.0019"
    assert f"{BiasState(b_f=1.0).gate():.2f}" == "0.73"  # seed 000: σ(1) = 0.73
    assert f"{BiasState(b_f=0.0).gate():.3f}" == "0.500"


def test_bias_curve_passes_through_the_current_bias_once():
    """The cursor sits on the curve: the current b_f is one of its points, on or between grid notches."""
    for b_f, size in ((1.0, 141), (0.125, 142), (-1.0, 141), (-2.0, 141), (4.99, 142)):
        r = BiasState(b_f=b_f).read()
        assert len(r.b_f_grid) == size and list(r.b_f_grid) == sorted(set(r.b_f_grid))
        assert r.b_f_grid[0] == -2.0 and r.b_f_grid[-1] == 5.0
        i = r.b_f_grid.index(b_f)
        assert r.survival_curve[i] == pytest.approx(sig(b_f) ** 20, rel=1e-12)


def test_parameter_blocks():
    d = 1024
    assert lstm.block(d) == 2 * d * d + d == 2_098_176
    counts = ParamsState(d=d).counts()
    assert counts == {"RNN": 2_098_176, "GRU": 3 * 2_098_176, "LSTM": 4 * 2_098_176}
    assert [f"{n / 1e6:.2f}M" for n in counts.values()] == ["2.10M", "6.29M", "8.39M"]


def test_parameter_counts_match_torch_cells_with_one_bias_per_gate():
    import torch

    d = 24
    for cell, module in (("RNN", torch.nn.RNNCell(d, d)), ("GRU", torch.nn.GRUCell(d, d)),
                         ("LSTM", torch.nn.LSTMCell(d, d))):
        # torch keeps two bias vectors (b_ih and b_hh); the block count has one
        counted = sum(p.numel() for name, p in module.named_parameters() if name != "bias_hh")
        assert lstm.param_count(cell, d) == counted


def test_width_at_the_same_budget_inverts_the_count():
    s = ParamsState(d=1024)
    widths_ = s.same_budget()
    assert widths_["LSTM"] == pytest.approx(1024, abs=1e-9)
    # 2d'² + d' = 4(2d² + d): an RNN with twice the width costs the same
    assert widths_["RNN"] == pytest.approx(2048, abs=0.5)
    for cell, d in widths_.items():
        assert 2 * d * d + d == pytest.approx(lstm.param_count("LSTM", 1024) / lstm.BLOCKS[cell], rel=1e-12)


# -- the scalar cell -------------------------------------------------------------------------------
def test_first_two_steps_by_hand():
    s = lstm.lstm_states()
    # t = 0: x = 0.5, h = c = 0
    f0, i0, o0 = sig(0.5 * 0.5 + 1.0), sig(1.0 * 0.5), sig(0.5 * 0.5 + 0.5)
    g0 = math.tanh(0.8 * 0.5)
    c0 = i0 * g0
    h0 = o0 * math.tanh(c0)
    for name, want in (("f", f0), ("i", i0), ("g", g0), ("o", o0), ("c", c0), ("h", h0)):
        assert s[name][0] == pytest.approx(want, abs=1e-12), name
    assert f"{c0:.3f}" == "0.237" and f"{h0:.3f}" == "0.158"
    # t = 1: x = 0.5, h = h0, c = c0
    f1 = sig(0.5 * 0.5 + 0.5 * h0 + 1.0)
    i1 = sig(0.5 + 0.5 * h0)
    g1 = math.tanh(0.8 * 0.5 + 0.9 * h0)
    o1 = sig(0.25 + 0.5 * h0 + 0.5)
    c1 = f1 * c0 + i1 * g1
    assert s["c"][1] == pytest.approx(c1, abs=1e-12)
    assert s["h"][1] == pytest.approx(o1 * math.tanh(c1), abs=1e-12)


def test_the_candidate_at_t0_is_the_rnn_state_of_t1():
    """The candidate reuses T1's weights, so ĉ_0 = tanh(0.8·0.5) = 0.380, T1's h_0."""
    assert f"{lstm.lstm_states()['g'][0]:.3f}" == "0.380"


def test_scalar_cell_agrees_with_the_vector_cell_at_d1():
    w = lstm.weights_with(b_f=0.25)
    col = lambda k, j: [[w[g][j]] for g in ("i", "f", "g", "o")]  # noqa: E731
    W_ih, W_hh = np.array(col(0, 0)), np.array(col(0, 1))
    b = np.array([w[g][2] for g in ("i", "f", "g", "o")])
    scalar = lstm.lstm_states(TOKENS, w)
    h, c = np.zeros(1), np.zeros(1)
    for t, x in enumerate(TOKENS):
        h, c = lstm.lstm_cell(np.array([x]), h, c, W_ih, W_hh, b, np.zeros(4))
        assert c[0] == pytest.approx(scalar["c"][t], abs=1e-12)
        assert h[0] == pytest.approx(scalar["h"][t], abs=1e-12)


@given(st.integers(0, 6), st.floats(-3, 3))
def test_a_cell_state_depends_only_on_tokens_up_to_its_time(t, new_token):
    changed = list(TOKENS)
    changed[t + 1] = new_token
    before, after = lstm.lstm_states(TOKENS)["c"], lstm.lstm_states(changed)["c"]
    assert np.array_equal(before[: t + 1], after[: t + 1])


def test_the_forget_bias_moves_every_forget_gate():
    low, high = CellState(b_f=0.0).states()["f"], CellState(b_f=2.0).states()["f"]
    assert np.all(high > low)


def test_cell_data_holds_only_the_computed_steps():
    d = CellState(step=3).data()
    assert len(d["c"]) == len(d["h"]) == 4 and len(d["c_all"]) == 8


# -- vector cells against torch -------------------------------------------------------------------------
def test_vector_cells_match_torch_with_copied_weights():
    import torch

    torch.manual_seed(0)
    d_in, d, batch = 5, 7, 3
    rng = np.random.default_rng(1)
    x = rng.normal(size=(batch, d_in))
    h = rng.normal(size=(batch, d)) * 0.5
    c = rng.normal(size=(batch, d)) * 0.5

    cell = torch.nn.LSTMCell(d_in, d).double()
    w = {k: v.detach().numpy() for k, v in cell.named_parameters()}
    with torch.no_grad():
        h_t, c_t = cell(torch.from_numpy(x), (torch.from_numpy(h), torch.from_numpy(c)))
    ours_h, ours_c = lstm.lstm_cell(x, h, c, w["weight_ih"], w["weight_hh"], w["bias_ih"], w["bias_hh"])
    np.testing.assert_allclose(ours_h, h_t.numpy(), atol=1e-12)
    np.testing.assert_allclose(ours_c, c_t.numpy(), atol=1e-12)

    gru = torch.nn.GRUCell(d_in, d).double()
    w = {k: v.detach().numpy() for k, v in gru.named_parameters()}
    with torch.no_grad():
        g_t = gru(torch.from_numpy(x), torch.from_numpy(h))
    ours = lstm.gru_cell(x, h, w["weight_ih"], w["weight_hh"], w["bias_ih"], w["bias_hh"])
    np.testing.assert_allclose(ours, g_t.numpy(), atol=1e-12)

    # our initialiser in torch's layout: loading it into torch gives the same step
    p = lstm.init_cell("lstm", d_in, d, seed=3, b_f=1.0)
    with torch.no_grad():
        for name, key in (("weight_ih", "W_ih"), ("weight_hh", "W_hh"), ("bias_ih", "b_ih"), ("bias_hh", "b_hh")):
            getattr(cell, name).copy_(torch.from_numpy(p[key]))
        h_t, c_t = cell(torch.from_numpy(x), (torch.from_numpy(h), torch.from_numpy(c)))
    np.testing.assert_allclose(lstm.lstm_cell(x, h, c, **p)[1], c_t.numpy(), atol=1e-12)


def test_init_sets_the_forget_bias_block():
    d = 6
    p = lstm.init_cell("lstm", 3, d, seed=0, b_f=1.0)
    assert np.all(p["b_ih"][d:2 * d] + p["b_hh"][d:2 * d] == 1.0)
    assert np.all(np.abs(p["W_hh"]) <= 1 / math.sqrt(d))


def test_the_gru_update_gate_keeps_and_writes_as_one_decision():
    """z saturated at 1 keeps h exactly; at 0 the state is replaced by the candidate."""
    d_in, d = 2, 3
    p = lstm.init_cell("gru", d_in, d, seed=2)
    x, h = np.ones(d_in), np.array([0.3, -0.2, 0.9])
    keep = dict(p, b_ih=p["b_ih"].copy())
    keep["b_ih"][d:2 * d] = 40.0
    np.testing.assert_allclose(lstm.gru_cell(x, h, **keep), h, atol=1e-12)
    write = dict(p, b_ih=p["b_ih"].copy())
    write["b_ih"][d:2 * d] = -40.0
    out = lstm.gru_cell(x, h, **write)
    assert not np.allclose(out, h) and np.all(np.abs(out) < 1)


# -- gates as proportions --------------------------------------------------------------------------------
@given(st.floats(0, 1), st.floats(0, 1))
def test_update_parts_add_up(f, i):
    part = GatesState(f=f, i=i).split()
    assert part["kept"] + part["discarded"] == pytest.approx(1.0)  # the old state, c_{t-1} = 1
    assert part["c"] == pytest.approx(f + i)
    gru = lstm.gru_split(f)
    assert gru["kept"] + gru["written"] == pytest.approx(1.0)  # GRU: keep + write = 1 always


def test_accumulator_and_one_step_forgetting():
    acc = GatesState(f=1.0, i=0.5)
    assert acc.split()["discarded"] == 0.0
    assert np.allclose(acc.repeated(), 1.0 + 0.5 * np.arange(9))  # grows by i·ĉ each step
    forget = GatesState(f=0.0, i=0.5).repeated()
    assert np.allclose(forget[1:], 0.5)  # only the last write is left


def test_the_gru_figure_says_what_its_dotted_cells_are():
    """The bars end in ·· cells, named by neither legend (a newcomer's trial): what is not written,
    1 − i for the LSTM and 1 − (1 − f) = f for the GRU."""
    from rnntui.screens.lstm import LstmScreen

    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("gru"), GruState(f=0.9, i=0.7), (100, 30))
    assert [line.split("·· not written")[1].split()[0] for line in text.splitlines() if "·· not written" in line] \
        == ["0.30", "0.90"]


def test_lstm_can_keep_and_write_at_full_strength_the_gru_cannot():
    lstm_part, gru_part = GruState(f=1.0, i=1.0).splits()
    assert lstm_part["kept"] == 1.0 and lstm_part["written"] == 1.0
    assert gru_part["kept"] == 1.0 and gru_part["written"] == 0.0


# -- the path figure -------------------------------------------------------------------------------------
def test_rnn_product_against_a_hand_loop():
    """T2's product, recomputed here: factors tanh'(z_t)·W_h, multiplied from the last step back."""
    w_h, n = 0.9, 101
    xs = [TOKENS[t % 8] for t in range(n)]
    h, z = 0.0, []
    for x in xs:
        z.append(w_h * h + 0.8 * x)
        h = math.tanh(z[-1])
    product, want = 1.0, [1.0]
    for t in range(n - 1, 0, -1):
        product *= (1 - math.tanh(z[t]) ** 2) * w_h
        want.append(product)
    np.testing.assert_allclose(lstm.rnn_product(100, w_h), want, rtol=1e-10)


def test_rnn_product_is_near_zero_within_about_ten_hops():
    s = ForgetPathState()
    assert s.rnn_below(0.01) <= 12
    hops, path, rnn = s.curves()
    assert rnn[100] < 1e-15 < path[100]
    assert path[100] / rnn[100] > 1e12


# -- the gate bar -------------------------------------------------------------------------------------------
def test_gate_bar_widths_add_up_and_survive_nan_and_inf():
    assert widths([0.7, 0.5, 0.3], 2.0, 40) == [14, 10, 6]
    assert sum(widths([1 / 3] * 3, 1.0, 10)) == 10
    assert widths([math.nan, math.inf, -1.0, 0.5], 1.0, 10) == [0, 0, 0, 5]
    assert sum(widths([5.0, 5.0], 1.0, 10)) == 10  # longer than the track: clipped, not overflowing


def test_gate_bar_parts_round_to_their_nearest_cells_when_those_add_up():
    """4.6 and 5.4 cells of 10: the larger remainder takes the spare cell, 5 and 5 (not 4 and 6)."""
    assert widths([0.46, 0.54], 1.0, 10) == [round(4.6), round(5.4)] == [5, 5]
    assert widths([0.54, 0.46], 1.0, 10) == [5, 5]


def test_a_gate_bar_draws_its_label_once_and_its_track_at_one_cell_on_every_row():
    """Three rows: the label and the suffix on the middle one, the others padded as wide, so the bar's
    ▕ and ▏ stand in one column; each row as wide as the widget; the legend under the bar, each swatch
    in its part's colour, values to two decimals."""
    from rnntui.widgets.gatebar import GateBar, update_segments

    bar = GateBar("c_t", rows=3)  # label width: the label and a space
    bar.show(update_segments((0.4, 0.36, 0.24), "kept", "written", "discarded"), suffix="= 1.00")
    track = 25  # 0.4, 0.36, 0.24 of 25 cells: 10, 9 and 6 whole
    width = len("c_t ") + 1 + track + 1 + len(" = 1.00")
    lines = bar.lines(width)
    rows = [line.plain for line in lines[:3]]
    assert rows[1] == "c_t ▕" + "█" * 10 + "▓" * 9 + "▒" * 6 + "▏ = 1.00"  # (░ inks a quarter: hard to see)
    assert rows[0] == rows[2] == " " * 4 + rows[1][4:4 + 1 + track + 1] + " " * 7
    assert [str(span.style) for span in lines[1].spans if lines[1].plain[span.start:span.end] == "c_t "] == ["bold"]
    assert [line.plain for line in lines[3:]] == [" " * 4 + "██ kept 0.40   ▓▓ written 0.36",  # 34 cells left
                                                  " " * 4 + "▒▒ discarded 0.24"]
    bar_style = {lines[1].plain[s.start]: s.style for s in lines[1].spans}
    key = {line.plain[s.start]: s.style for line in lines[3:] for s in line.spans if line.plain[s.start] in "█▓▒"}
    assert key == {fill: bar_style[fill] for fill in "█▓▒"}  # the key's colours are the bar's


def test_a_gate_bar_dots_the_unused_track_and_splits_two_alike_parts():
    from rnntui.widgets.gatebar import GateBar, Segment, legend_lines

    bar = GateBar("p", legend=False)
    bar.show([Segment(0.5, "a", "green")], scale=1.0)  # half the scale: half the track dotted
    assert bar.lines(2 + 1 + 10 + 1)[0].plain == "p ▕" + "█" * 5 + "·" * 5 + "▏"
    bar.show([Segment(0.5, "a", "green"), Segment(0.5, "b", "green")])  # the same look: a half block apart
    assert bar.lines(2 + 1 + 10 + 1)[0].plain == "p ▕" + "█" * 4 + "▌" + "█" * 5 + "▏"
    items = [Segment(0.5, "kept"), Segment(0.25, "lost")]  # "█ kept 0.50" "█ lost 0.25": 12 cells each
    assert [line.plain for line in legend_lines(items, 12 + 3 + 12)] == ["██ kept 0.50   ██ lost 0.25"]  # just fits
    assert len(legend_lines(items, 12 + 3 + 11)) == 2


# -- what a user sees ------------------------------------------------------------------------------------
def _shot(tmp_path, *args, name="out.txt"):
    out = tmp_path / name
    assert main(["shot", *args, "--size", "100x30", "-o", str(out)]) == 0
    return out.read_text()


def test_shot_bias_shows_the_seed_numbers(tmp_path):
    assert "9.54e-07" in _shot(tmp_path, "lstm/bias", "--set", "b_f=0")
    text = _shot(tmp_path, "lstm/bias", "--set", "b_f=1")
    assert "0.0019" in text and "0.731" in text


def test_shot_params_at_1024(tmp_path):
    text = _shot(tmp_path, "lstm/params", "--set", "d=1024")
    assert all(n in text for n in ("2.10M", "6.29M", "8.39M"))


def test_a_parameter_count_takes_the_unit_of_its_rounded_value():
    """999,950 parameters read "1000.0K" (a stop's note): rounded to the shown figures, it is a million."""
    from rnntui.fmt import count

    assert (count(999_950), count(999_949), count(999.5), count(999.4)) == ("1.00M", "999.9K", "1.0K", "999")
    assert count(3 * (2 * 1024 ** 2 + 1024)) == "6.29M"  # the GRU at d = 1024: 3 blocks of 2d² + d


def test_the_params_plot_holds_each_cells_bill_against_d_and_the_lstms_budget():
    """At 160x48 the bill left 23 rows blank: a taller terminal plots each cell's parameters against d,
    k blocks of 2d² + d by hand, on log axes where the LSTM's budget line meets the RNN's curve at twice
    its d (4 blocks of d against 1 of 2d: 8d² + 4d = 8d² + 2d, near enough); at 100x30 the bars give up
    rows to 2 each and the plot is drawn without its x label (it said a larger size shows it, a trial);
    at 80x24 a line says which size does."""
    r = ParamsState(d=1024).readings()
    blocks = {"RNN": 1, "GRU": 3, "LSTM": 4}
    assert r.curve_d[0] == 64 and r.curve_d[-1] == 8192  # (an RNN as big as the LSTM at d 4096 is 8192 wide)
    for cell, k in blocks.items():
        assert r.curves[cell] == tuple(k * (2 * d * d + d) for d in r.curve_d)
    rnn = dict(zip(r.curve_d, r.curves["RNN"]))
    assert rnn[2048] == pytest.approx(r.counts["LSTM"], rel=1e-3)
    tall = one_app.txt(*_find("lstm/params"), ParamsState(d=1024), (120, 40))
    assert "the LSTM's 8.39M" in tall and "width d" in tall and "━━ RNN" in tall
    short = one_app.txt(*_find("lstm/params"), ParamsState(d=1024), (100, 30))
    assert "the LSTM's 8.39M" in short and "width d" not in short and short.count("▕") == 6  # 3 bars of 2 rows
    assert "shows a plot here" in one_app.txt(*_find("lstm/params"), ParamsState(d=1024), (80, 24))


def _find(address):
    from rnntui.topics import find

    return find(address)


def test_json_holds_the_survival(tmp_path):
    import json

    data = json.loads(_shot(tmp_path, "lstm/bias", "--set", "b_f=1", name="b.json"))
    assert data["survival"] == pytest.approx(sig(1.0) ** 20, rel=1e-12)


async def test_stepping_the_cell_fills_c_and_h_token_by_token():
    from rnntui.app import RnnApp
    from rnntui.widgets.track import TokenTrack

    c = lstm.lstm_states()["c"]
    app = RnnApp("lstm")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.topic_screen().figure.id == "cell"
        first = str(app.screen.query_one(TokenTrack).render())  # drawn before any key
        assert f"{c[0]:.3f}" in first and f"{c[1]:.3f}" not in first
        await pilot.press("right", "right")
        await pilot.pause()
        track = str(app.screen.query_one(TokenTrack).render())
        assert f"{c[2]:.3f}" in track and f"{c[3]:.3f}" not in track
        await pilot.press("end")
        await pilot.pause()
        assert f"{c[7]:.3f}" in str(app.screen.query_one(TokenTrack).render())


def _cell_by_hand(steps):
    """c_t and h_t from the gate formulas with the cell's default weights (b_f = 1), by hand."""
    h = c = 0.0
    for x in TOKENS[:steps + 1]:
        f = sig(0.5 * x + 0.5 * h + 1.0)
        i = sig(1.0 * x + 0.5 * h)
        g = math.tanh(0.8 * x + 0.9 * h)
        o = sig(0.5 * x + 0.5 * h + 0.5)
        c = f * c + i * g
        h = o * math.tanh(c)
    return c, h


def test_snapshot_cell(snap_compare):
    """Three steps in: the track holds c_0 … c_3 and the readout writes out c_3's update."""
    async def steps(pilot):
        await pilot.press("right", "right", "right")
    from rnntui.app import RnnApp
    from rnntui.screens.lstm import LstmScreen

    c3, h3 = _cell_by_hand(3)
    now = CellState(step=3).readings().now
    assert now.c == pytest.approx(c3, abs=1e-12) and now.h == pytest.approx(h3, abs=1e-12)
    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("cell"), CellState(step=3), (80, 24))
    assert f"= {c3:.3f}" in text and "c_3 = f·c_2 + i·ĉ" in text
    assert snap_compare(RnnApp("lstm", "cell"), terminal_size=(80, 24), run_before=steps)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_the_cell_writes_each_gate_from_its_weights_x_t_and_h_before(size):
    """lstm/cell showed "gates at t=0: f 0.777 i 0.622 ĉ +0.380 o 0.679" and nowhere the weights that make
    them (a student found them in the .json only): under the gates each one is written from its weights,
    x_t and h_{t−1}, as recurrence/track writes h_t, and σ of what is written gives the gate shown. Help
    works them out at every size. Nothing is pushed off: at 80x24 the plot's line stays, at 160x48 the plot."""
    from rnntui.help import help_text
    from rnntui.screens.lstm import LstmScreen
    from types import SimpleNamespace

    figure = LstmScreen.figure_by_id("cell")
    for t in (0, 2):
        x, h = TOKENS[t], round(_cell_by_hand(t - 1)[1], 3) if t else 0.0  # h_{t−1} as written (0.324)
        xs, hs = f"({x:.1f})" if x < 0 else f"{x:.1f}", f"{h:.3f}" if t else "0"
        by_hand = {"f": ("σ", 0.5, 0.5, " + 1.00", 1.0), "i": ("σ", 1.0, 0.5, "", 0.0),
                   "ĉ": ("tanh", 0.8, 0.9, "", 0.0), "o": ("σ", 0.5, 0.5, " + 0.50", 0.5)}
        lines = one_app.txt(LstmScreen, figure, CellState(step=t), size).splitlines()
        text = "\n".join(lines)
        gates = next(line for line in lines if f"gates at t={t}:" in line)
        assert all(name in gates for name in ("forget f", "input i", "output o"))  # named (only the plot said so)
        for gate, (squash, w, u, b, bias) in by_hand.items():
            assert f"{gate} {squash}({w:.2f}·{xs} + {u:.2f}·{hs}{b})" in text, (gate, size, t)
            a = w * x + u * h + bias
            value = sig(a) if squash == "σ" else math.tanh(a)
            shown = f"{gate} {value:+.3f}" if gate == "ĉ" else f"{gate} {value:.3f}"
            assert shown in gates, (shown, gates)
        c, h_t = _cell_by_hand(t)  # the rest is all there: the track, c_t's and h_t's lines, the parameters
        assert f"{_cell_by_hand(0)[0]:.3f}" in "".join(lines[:lines.index(gates)])  # c_0 on the track
        assert f"c_{t} = f·" in text and f"= {c:.3f}" in text and f"h_{t} = o·tanh(c_{t})" in text
        assert f"= {h_t:.3f}" in text and f"←→ t {t}" in text
        assert ("shows a plot here" in text) if size == (80, 24) else ("c_t (cell state)" in text)
        state = CellState(step=t)
        prose = help_text(SimpleNamespace(TOPIC_ID="lstm", figure=figure, state=state))[1]
        a_f = 0.5 * x + 0.5 * h + 1.0
        assert "f (0.50, 0.50, b_f = 1.00), i (1.00, 0.50, 0.00), ĉ (0.80, 0.90, 0.00), o (0.50, 0.50, 0.50)" in prose
        assert f"f = σ(0.50·{xs} + 0.50·{hs} + 1.00) = σ({a_f:.3f}) = {sig(a_f):.3f}" in prose


def test_in_chinese_at_80x24_the_gates_sums_show_and_the_size_that_draws_the_plot_is_named():
    """The Chinese prose took a line more (an aside the English has not): at 80x24 the gates' sums were left
    out for a blank row. It says what the English says in two lines: the sums show, and the line under them
    names the size that draws the plot, which then does."""
    from rnntui.i18n import set_language
    from rnntui.render import render
    from rnntui.screens.lstm import LstmScreen

    figure = LstmScreen.figure_by_id("cell")
    set_language("zh")
    try:
        small_, named, tall = (render(LstmScreen, figure, CellState(step=2), "txt", size)
                               for size in ((80, 24), (80, 25), (80, 30)))
    finally:
        set_language("en")
    assert "σ(0.50·(-0.5) + 0.50·0.324 + 1.00)" in small_ and "--size 80x25 时，这里会画出图" in small_
    assert "1┤" in named and "1┤" not in small_
    assert "σ(0.50·(-0.5) + 0.50·0.324 + 1.00)" in tall and "1┤" in tall  # the sums and the plot


def test_f12_shows_the_seeds_step_9_beside_our_hop_11():
    """F12's RNN product is F8's, hop for hop (on its own 101 tokens it crossed 0.01 at hop 10, F8 at 11:
    a researcher's trial)."""
    from rnntui.figures.gradients import ProductState
    from rnntui.screens.lstm import LstmScreen

    r = ForgetPathState().readings()
    assert r.seed_rnn_below.value == 9  # seed 001: "那个 RNN 的积第 9 步就跌到 0.01 以下"
    product, ours = 1.0, None  # T2's product by hand: factors tanh'(z_t)·0.9 from F8's 200th token back
    h, zs = 0.0, []
    for t in range(200):
        zs.append(0.9 * h + 0.8 * TOKENS[t % 8])
        h = math.tanh(zs[-1])
    for k, z in enumerate(reversed(zs[1:]), 1):
        product *= (1 - math.tanh(z) ** 2) * 0.9
        if product < 0.01:
            ours = k
            break
    assert ours == r.rnn_below == 11
    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("path"), ForgetPathState(), (80, 24))
    assert "from hop 11 (source: hop 9)" in text and "unpublished rule" in text
    f8 = ProductState(hop=10).readings()
    assert r.rnn == pytest.approx(f8.product[:101], rel=1e-12)


@given(st.floats(0, 0.95), st.floats(0, 1))
def test_repeated_updates_level_off_at_the_fixed_point(f, i):
    c = lstm.repeated(f, i, 400)
    assert c[-1] == pytest.approx(GatesState(f=f, i=i).level(), abs=1e-6)


@pytest.mark.parametrize("f, i", [(0.8, 1.0), (0.95, 1.0), (0.7, 0.5)])
def test_the_level_the_gates_figure_names_is_drawn_on_its_plot(f, i):
    """"c levels off at i·ĉ/(1−f) = 5.00" under a plot that stopped near 4.8 and drew no such line (a
    newcomer's trial at f = 0.80): the plot now reaches the level and draws it."""
    from rnntui.screens.lstm import LstmScreen

    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("gates"), GatesState(f=f, i=i), (80, 24))
    assert f"c levels off at i·ĉ/(1−f) = {i / (1 - f):.2f}" in text
    assert any("i·ĉ/(1−f)─" in row and "┤" in row for row in text.splitlines())  # the line, on the plot


@pytest.mark.parametrize("f, i", [(0.5, 0.5), (0.7, 0.3), (0.25, 0.75)])
def test_a_curve_that_starts_at_its_level_is_drawn_not_hidden_under_it(f, i):
    """i = 1 − f: c_t = f·1 + i·1 = 1 at every step, so the level line lay on the curve and the legend
    named a curve nobody could see (a trial). The curve is drawn and the text says c stays at 1."""
    from rnntui.screens.lstm import LstmScreen

    r = GatesState(f=f, i=i).readings()
    assert r.at_level and not r.level_shown and r.c_repeated == pytest.approx([1.0] * len(r.c_repeated))
    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("gates"), GatesState(f=f, i=i), (80, 24))
    assert "c stays at 1.00" in text and "i·ĉ/(1−f)─" not in text
    assert sum("\u2800" < ch <= "\u28ff" for ch in text) >= 40  # the flat curve, in braille, across the plot
    assert not GatesState(f=0.7, i=0.5).readings().at_level


def test_a_level_far_above_the_curve_is_said_not_drawn():
    """f = 0.99 levels off at 100 while c_8 is 8.65: a plot up to 110 drew c as one flat row at 0 (a review).
    The plot keeps to the curve and the text says where the level is."""
    from rnntui.screens.lstm import LstmScreen

    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("gates"), GatesState(f=0.99, i=1.0), (80, 24))
    assert "= 100.00 (far above the plot)" in text and "i·ĉ/(1−f)─" not in text
    ticks = [int(row.split("┤")[0].strip("│ ")) for row in text.splitlines() if "┤" in row and "─" not in row]
    assert max(ticks) == 10  # the axis ends above c_8, not near 110


def test_the_topic_wide_note_stands_apart_from_the_chosen_parameter():
    """lstm/bias's parameter bar read "▸steps 20◂ b_f: whole topic" (a newcomer's trial), as if the
    note were a parameter's value: it is as far from the chosen piece as the pieces are apart."""
    from rnntui.screens.lstm import LstmScreen

    text = one_app.txt(LstmScreen, LstmScreen.figure_by_id("bias"), BiasState(), (80, 24))
    line = next(line for line in text.splitlines() if "whole topic" in line)
    assert "◂  b_f: whole topic" in line or "◂   b_f: whole topic" in line, line


def test_the_paths_rnn_product_names_its_chain(tmp_path):
    """lstm/path's RNN product is gradients/product's (6.62e-22 at hop 100), on its 200-token chain, and
    its legend names that chain: it ran on 101 tokens (2.90e-22), and a lecturer saw two numbers for one
    product (a newcomer's trial, then a researcher's)."""
    from rnntui.engine.gradients import backward_products, chain_tokens, hop_factors

    out = tmp_path / "p.txt"
    assert main(["shot", "lstm/path", "--step", "100", "--size", "100x30", "-o", str(out)]) == 0
    text = out.read_text()
    ours = backward_products(hop_factors(chain_tokens(200), 0.9))[100]
    assert "RNN product (200-token chain, W_h = 0.90)" in text and f"RNN product {ours:.2e}" in text


def test_the_bias_figure_calls_b_f_1_the_usual_fix_and_points_to_the_runs_that_test_it():
    """lstm/bias said "the fix: initialise b_f = 1" while memory/copy shows a true b_f = 1 failing at
    T = 40 (a student's trial): it is the usual fix, and the line points to topic 7, whose shipped
    results hold both runs (lstm-bf1, lstm-bf2)."""
    from rnntui.engine import memory as mem
    from rnntui.topics import IDS

    text = one_app.txt(*_find("lstm/bias"), BiasState(), (80, 24))
    assert "usual fix: initialise b_f = 1" in text and "how long a gap it holds: topic 7 (memory) trains b_f = 1 and b_f = 2" in text
    results, _report = mem.load()
    assert IDS[6] == "memory" and results.run("lstm-bf1", 40) and results.run("lstm-bf2", 40)


def test_the_gru_plot_names_both_axes():
    """lstm/gru's plot had no word for its y axis (a student's trial): its label names keep (x) and write
    (y: the LSTM's i, the GRU's 1 − f), whose points the legend gives."""
    text = one_app.txt(*_find("lstm/gru"), GruState(), (100, 30))
    assert "keep f →   write ↑ (LSTM i, GRU 1 − f)" in text and "● LSTM: (f, i)" in text and "◆ GRU: (f, 1 − f)" in text


async def test_the_gru_point_stands_apart_from_its_own_line():
    """The ◆ GRU point sat on its own orange line in the line's colour: nearly invisible in a PNG and for a
    colour-blind reader (an accessibility trial). Its colour is neither the line's nor the LSTM point's."""
    from rnntui.app import RnnApp
    from rnntui.widgets.plot import Plot

    app = RnnApp("lstm", "gru")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        line, lstm, gru = app.screen.query_one(Plot).spec.series
    assert gru.marker == "◆" and len({line.color, lstm.color, gru.color}) == 3


async def test_the_params_bars_after_a_shrink_are_as_a_fresh_apps():
    """Shrunk from 120x40 to 80x24, lstm/params kept 4-row bars (read from a layout that ran past the view)
    and pushed its readouts and the plot's line off the screen (a review): the bars are as a fresh app's
    at 80x24, and the line naming the size is on screen."""
    from rnntui.app import RnnApp

    rows = []
    for start in ((120, 40), (80, 24)):
        app = RnnApp("lstm", "params")
        async with app.run_test(size=start) as pilot:
            await pilot.pause()
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.2)
            view = app.topic_screen().query_one("ParamsView")
            rows.append([bar.rows for bar in view.query("GateBar")])
            plot = view.query_one("Plot")
            assert plot.region.bottom <= view.content_region.bottom and plot.region.height >= 1
    assert rows[0] == rows[1]


async def test_b_f_is_one_value_across_the_topic_at_the_ends_of_its_range():
    """lstm/bias went to 5.00 while lstm/cell stopped at 3.00 (its range was −3…3, the bias figure's −1…5, a
    researcher): both take one range, and the end set on one is the value on the other."""
    from rnntui.app import RnnApp

    app = RnnApp("lstm", "bias")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        for key in ("end", "home"):
            await pilot.press(key)
            b_f = screen.state.b_f
            assert b_f == {"end": 5.0, "home": -2.0}[key]
            assert screen.states["cell"].b_f == b_f


@pytest.mark.parametrize("b_f", [-2.0, 5.0])
def test_both_b_f_figures_draw_the_ends_of_its_range(b_f):
    """At the range's ends the cell's gate follows b_f (f_7 = σ(0.5·x_7 + 0.5·h_6 + b_f), by hand) and the bias
    figure keeps b_f = 0 and b_f = 1 on rows of their own (at −3 its axis spanned 27 decades and put them on one)."""
    from rnntui.screens.lstm import LstmScreen

    h, c = 0.0, 0.0
    for x in TOKENS:
        f = 1 / (1 + math.exp(-(0.5 * x + 0.5 * h + b_f)))
        i = 1 / (1 + math.exp(-(1.0 * x + 0.5 * h)))
        o = 1 / (1 + math.exp(-(0.5 * x + 0.5 * h + 0.5)))
        c = f * c + i * math.tanh(0.8 * x + 0.9 * h)
        h = o * math.tanh(c)
    cell = one_app.txt(LstmScreen, LstmScreen.figure_by_id("cell"), CellState(b_f=b_f, step=7), (80, 28))
    assert f"f {f:.3f}" in cell and f"▸b_f {b_f:.2f}◂" in cell and f"= {c:.3f}" in cell
    lines = one_app.txt(LstmScreen, LstmScreen.figure_by_id("bias"), BiasState(b_f=b_f), (80, 24)).splitlines()
    top, bottom = (next(y for y, r in enumerate(lines) if corner in r) for corner in "┌└")
    marks = [y for y in range(top, bottom) for _ in range(lines[y].count("◆"))]
    assert len(marks) == 2 and marks[0] != marks[1]
    assert sum(line.count("●") for line in lines[top:bottom]) == 1  # the cursor's point, at the end


# -- readouts against their closed forms ---------------------------------------------------------------
def _screen_words(address, state, size=(100, 30)):
    return " ".join(one_app.txt(*_find(address), state, size).replace("│", " ").split())


@pytest.mark.parametrize("k", [5, 20, 40, 100])
def test_the_bias_readout_and_landmarks_use_the_chosen_k(k):
    """"→ left after k steps f^k" is σ(b_f)^k for the k chosen, and the ◆ landmarks sit at b_f = 0 and
    b_f = 1 on the same curve."""
    from rnntui.fmt import small

    for b_f in (0.0, 1.0, 2.5):
        r = BiasState(b_f=b_f, k=k).readings()
        assert r.survival == pytest.approx(sig(b_f) ** k, rel=1e-12)
        assert r.landmarks_b_f == (0.0, 1.0)
        assert r.landmarks_survival == pytest.approx((0.5 ** k, sig(1.0) ** k), rel=1e-12)
    words = _screen_words("lstm/bias", BiasState(b_f=1.0, k=k))
    assert f"left after {k} steps f^{k} {small(sig(1.0) ** k)}" in words
    # the caption's b_f = 0 on screen at the topic's b_f = 1 too (it was not: a maths audit); 0.5^20 is SPEC's 9.5e-07
    assert f"zero init b_f = 0: f 0.500 → left after {k} steps {small(0.5 ** k)}" in words
    assert k != 20 or small(0.5 ** k) == "9.54e-07"


@pytest.mark.parametrize("f,i", [(0.7, 0.5), (0.2, 0.9), (0.95, 0.1)])
def test_the_gates_readouts_are_their_closed_forms(f, i):
    """The ·· cells are what is not written, 1 − i; "after 8 repeats c_8" is f⁸·c_0 + i·(1 − f⁸)/(1 − f)
    with c_0 = ĉ = 1."""
    r = GatesState(f=f, i=i).readings()
    c8 = f ** 8 + i * (1 - f ** 8) / (1 - f)
    assert r.not_written == pytest.approx(1 - i) and r.c_repeated[-1] == pytest.approx(c8)
    words = _screen_words("lstm/gates", GatesState(f=f, i=i))
    assert f"·· not written {1 - i:.2f}" in words and f"after 8 repeats c_8 = {c8:.2f}" in words


@pytest.mark.parametrize("f,i", [(0.9, 0.9), (0.3, 0.6), (0.5, 0.1)])
def test_the_gru_keeps_and_writes_one_whole(f, i):
    """"GRU f + (1−f) = 1.00" at every f, beside the LSTM's f + i, which may pass 1."""
    r = GruState(f=f, i=i).readings()
    assert r.gru_sum == pytest.approx(1.0) and r.lstm_sum == pytest.approx(f + i)
    assert r.not_written == pytest.approx({"lstm": 1 - i, "gru": f})
    words = _screen_words("lstm/gru", GruState(f=f, i=i))
    assert f"LSTM f + i = {f + i:.2f} GRU f + (1−f) = 1.00" in words
    # c_t = f·c_{t−1} + i·ĉ is f + i only with both 1, which the figure says (it did not: a maths audit)
    assert "c_{t−1} = ĉ = 1: keep + write: LSTM f + i" in words and f"c_t {f + i:.2f}" in words


@pytest.mark.parametrize("d", [256, 1024, 4096])
def test_the_params_budget_line_gives_each_cell_the_lstms_parameters(d):
    """"for the LSTM's 8.39M: RNN d ≈ 2048 GRU d ≈ 1182": each width, as shown, buys (nearly) the LSTM's
    4·(2d² + d) parameters with the cell's own blocks; the LSTM's bar, the longest, fills its track."""
    import re

    budget = 4 * (2 * d * d + d)
    words = _screen_words("lstm/params", ParamsState(d=d), (120, 40))
    for cell, blocks in (("RNN", 1), ("GRU", 3)):
        width = int(re.search(rf"{cell} d ≈ (\d+)", words).group(1))
        lo, hi = width - 0.5, width + 0.5  # the width that spends the budget exactly, rounded to the shown one
        assert blocks * (2 * lo * lo + lo) <= budget <= blocks * (2 * hi * hi + hi), cell
    r = ParamsState(d=d).readings()
    assert r.bar_scale == budget == max(r.counts.values())
    lstm_bar = next(line for line in one_app.txt(*_find("lstm/params"), ParamsState(d=d), (120, 40)).splitlines()
                    if "LSTM ▕" in line)
    assert "·" not in lstm_bar.split("▕")[1].split("▏")[0]


@pytest.mark.parametrize("k", [0, 50, 100])
def test_the_path_names_f_to_the_100th_whatever_k(k):
    """"f^100 0.0059" stays f¹⁰⁰ as k moves; "k = 50: f^k" is f⁵⁰."""
    from rnntui.fmt import small

    r = ForgetPathState(f=0.95, k=k).readings()
    assert r.f_last == pytest.approx(0.95 ** 100, rel=1e-12) and r.f_k == pytest.approx(0.95 ** k, rel=1e-12)
    words = _screen_words("lstm/path", ForgetPathState(f=0.95, k=k))
    assert f"f^100 {small(0.95 ** 100)}" in words and f"k = {k}: f^k = {small(0.95 ** k)}" in words


def test_gates_at_f_1_and_i_0_say_c_holds():
    """At f = 1, i = 0 the line said "c grows by i·ĉ every step" over c_8 = 1.00 (a researcher's trial):
    c_t = 1·c_{t−1} + 0·ĉ holds, and the line says so; at i > 0 it grows by i each step."""
    held = GatesState(f=1.0, i=0.0)
    assert held.readings().c_repeated[-1] == pytest.approx(1.0)
    assert "c holds" in _screen_words("lstm/gates", held) and "grows" not in _screen_words("lstm/gates", held)
    growing = GatesState(f=1.0, i=0.5)
    assert growing.readings().c_repeated[-1] == pytest.approx(1.0 + 8 * 0.5)
    assert "c grows by i·ĉ every step" in _screen_words("lstm/gates", growing)
