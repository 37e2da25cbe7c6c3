"""T8 `serving` engine against issue 14's pinned numbers, closed forms and finite differences
(seed 001's last section: the cell in full, the truncated BPTT window, 64 GB vs 256 KB at
131,072 tokens, 262,144×, GQA a quarter; the way back: linear attention as a recurrence)."""
import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rnntui.engine import serving as sv
from rnntui.engine.lstm import lstm_step
from rnntui.engine.recurrence import TOKENS, W_H, rnn_states


def sig(z):
    return 1.0 / (1.0 + math.exp(-z))


def cell_step(t: int) -> SimpleNamespace:
    """The cell's terms at step t, by name."""
    return SimpleNamespace(**{k: float(v[t]) for k, v in sv.cell_terms().items()})


# -- F22: the cell in full -----------------------------------------------------------------------
def test_cell_pinned_steps():
    s0, s7 = cell_step(0), cell_step(7)
    got0 = {k: f"{getattr(s0, k):.4f}" for k in ("f", "i", "g", "o", "c", "h")}
    assert got0 == {"f": "0.7773", "i": "0.6225", "g": "0.3799", "o": "0.6792", "c": "0.2365", "h": "0.1577"}
    assert (f"{s7.c:.4f}", f"{s7.h:.4f}") == ("0.9105", "0.5104")


def test_cell_step_zero_by_hand():
    # x = 0.5, h = c = 0: a_f = 0.5·0.5 + 1 = 1.25, a_i = 0.5, a_g = 0.4, a_o = 0.75
    s = cell_step(0)
    assert (s.a_f, s.a_i, s.a_g, s.a_o) == pytest.approx((1.25, 0.5, 0.4, 0.75), abs=1e-15)
    assert s.f == pytest.approx(sig(1.25), rel=1e-14)
    assert s.g == pytest.approx(math.tanh(0.4), rel=1e-14)
    assert s.kept == 0.0 and s.written == pytest.approx(sig(0.5) * math.tanh(0.4), rel=1e-14)
    assert s.h == pytest.approx(sig(0.75) * math.tanh(s.c), rel=1e-14)


def test_cell_terms_are_consistent():
    t = sv.cell_terms()
    assert set(t) == set(sv.CELL_TERMS) and all(len(v) == len(TOKENS) for v in t.values())
    for g in "fio":
        np.testing.assert_allclose(t[g], 1 / (1 + np.exp(-t[f"a_{g}"])), rtol=1e-14)
    np.testing.assert_allclose(t["g"], np.tanh(t["a_g"]), rtol=1e-14)
    np.testing.assert_allclose(t["c"], t["kept"] + t["written"], rtol=1e-14)
    np.testing.assert_allclose(t["kept"], t["f"] * t["c_prev"], rtol=1e-14)
    np.testing.assert_allclose(t["h"], t["o"] * np.tanh(t["c"]), rtol=1e-14)
    np.testing.assert_array_equal(t["h_prev"][1:], t["h"][:-1])
    np.testing.assert_array_equal(t["c_prev"][1:], t["c"][:-1])
    # stepping lstm_step by hand gives the same states
    h = c = 0.0
    for k, x in enumerate(TOKENS):
        s = lstm_step(x, h, c)
        h, c = s["h"], s["c"]
        assert (t["h"][k], t["c"][k]) == pytest.approx((h, c), rel=1e-14)
    assert not t["h"].flags.writeable


# -- F23: truncated BPTT ------------------------------------------------------------------------
PINNED_GRADS = ("0.0573", "0.1056", "0.1206", "0.2957", "0.4969", "0.7179", "0.7985", "1.0000")


def h_last_from(t, h_t):
    """Run T1's RNN forward from a state h_t injected at step t; return h_7."""
    if t == len(TOKENS) - 1:
        return h_t
    return rnn_states(TOKENS[t + 1:], h0=h_t)[1][-1]


def test_full_gradients_pinned_and_finite_differences():
    g = sv.full_gradients()
    assert tuple(f"{x:.4f}" for x in g) == PINNED_GRADS
    _, h = rnn_states()
    eps = 1e-6
    for t in range(len(TOKENS)):
        fd = (h_last_from(t, h[t] + eps) - h_last_from(t, h[t] - eps)) / (2 * eps)
        assert g[t] == pytest.approx(fd, rel=1e-8, abs=1e-10)


@pytest.mark.parametrize("k", range(1, 9))
def test_window_exact_zeros_and_unchanged_forward(k):
    w = sv.window(k)
    full = sv.full_gradients()
    n = len(TOKENS)
    assert w.n == n and w.stored == k
    assert f"{w.h[-1]:.4f}" == "0.3357"
    np.testing.assert_array_equal(w.h, rnn_states()[1])  # the forward pass ignores k
    np.testing.assert_array_equal(w.inside, np.arange(n) >= n - k)
    np.testing.assert_array_equal(w.grads[w.inside], full[w.inside])  # identical, not just close
    assert np.all(w.grads[~w.inside] == 0.0)
    assert int(np.count_nonzero(w.grads)) == k


def test_window_default_and_bounds():
    assert sv.K_DEFAULT == 4 and sv.window().k == 4
    assert sv.stored_activations(4) == 4 and sv.stored_activations(20) == 8
    np.testing.assert_array_equal(sv.window_gradients(1), [0] * 7 + [1.0])


def h_last_with_late_w_h(k, eps):
    """h_7 when W_h is nudged by eps only in the last k steps (the steps inside the window)."""
    h = 0.0
    for t, x in enumerate(TOKENS):
        w_h = W_H + (eps if t >= len(TOKENS) - k else 0.0)
        h = math.tanh(w_h * h + 0.8 * x)
    return h


@pytest.mark.parametrize("k", range(1, 9))
def test_weight_gradient_matches_finite_difference(k):
    # truncated dh_7/dW_h is the derivative with W_h's use in the earlier steps held fixed
    eps = 1e-6
    fd = (h_last_with_late_w_h(k, eps) - h_last_with_late_w_h(k, -eps)) / (2 * eps)
    assert sv.window_weight_gradient(k) == pytest.approx(fd, rel=1e-8)


def test_weight_gradient_untruncated_is_the_true_derivative():
    eps = 1e-6
    fd = (rnn_states(w_h=W_H + eps)[1][-1] - rnn_states(w_h=W_H - eps)[1][-1]) / (2 * eps)
    assert sv.window_weight_gradient(8) == pytest.approx(fd, rel=1e-8)
    parts = [sv.window_weight_gradient(k) for k in range(1, 9)]
    assert len(set(parts[:7])) == 7  # each smaller window drops a term ...
    assert parts[6] == parts[7]  # ... except h_{-1} = 0, so step 0 adds nothing to dh/dW_h


# -- F24: KV cache vs recurrent state ------------------------------------------------------------
def test_kv_cache_at_131072_tokens():
    assert sv.kv_cache_bytes(131_072) == 68_719_476_736 == 2**36 == 64 * sv.GIB
    assert sv.recurrent_state_bytes() == 262_144 == 2**18 == 256 * sv.KIB
    assert sv.kv_cache_bytes(131_072) // sv.recurrent_state_bytes() == 262_144 == 2**18
    assert sv.kv_cache_bytes(131_072, gqa=4) == 16 * sv.GIB == 2**34
    assert sv.kv_cache_bytes(131_072, gqa=8) == 8 * sv.GIB
    assert sv.kv_cache_bytes(4096) == 2 * sv.GIB == 2**31
    assert sv.kv_cache_bytes(131_072, dtype="fp32") == 128 * sv.GIB
    assert sv.recurrent_state_bytes(cell="lstm") == 512 * sv.KIB
    assert sv.accelerator_share(2**36) == 0.8  # 64 GiB of an "80 GB" card's 80 GiB (a maths audit: 85.9% of 80·10⁹)


def test_kv_powers_of_two_factorisation():
    # 2 · 2^5 layers · 2^12 width · 2^17 tokens · 2^1 bytes = 2^36
    assert sv.kv_cache_bytes(2**17, layers=2**5, width=2**12) == 2 ** (1 + 5 + 12 + 17 + 1)
    with pytest.raises(ValueError):
        sv.kv_width(4096, 3)


def test_kv_series():
    s = sv.kv_series()
    assert s.tokens.tolist() == [128 * 2**j for j in range(11)]
    assert s.tokens.dtype == np.int64 and s.kv.dtype == np.int64
    assert s.kv[-1] == 2**36 and s.kv[0] == 2**26  # 64 MiB at 128 tokens
    assert np.all(s.state == 2**18) and s.ratio[-1] == 262_144
    np.testing.assert_array_equal(s.kv[1:], 2 * s.kv[:-1])  # a straight line on log axes
    assert s.share[-1] == 64 / 80
    assert sv.kv_series(gqa=4).kv[-1] == 2**34
    assert sv.kv_series(dtype="fp32").state[0] == 2**19


# -- the way back: linear attention two ways ---------------------------------------------------
def test_phi_is_elu_plus_one():
    x = np.array([-30.0, -1.0, 0.0, 0.5, 3.0])
    np.testing.assert_allclose(sv.phi(x), [math.exp(-30), math.exp(-1), 1.0, 1.5, 4.0], rtol=1e-15)
    assert np.all(sv.phi(np.linspace(-50, 50, 101)) > 0)


@pytest.mark.parametrize("gamma", [1.0, 0.95, 0.8])
def test_two_forms_agree_on_seeded_input(gamma):
    q, k, v = sv.seeded_qkv()
    assert q.shape == k.shape == v.shape == (12, 8)
    par = sv.linear_attention_parallel(q, k, v, gamma)
    S, z, rec = sv.linear_attention_recurrent(q, k, v, gamma)
    assert S.shape == (12, 8, 8) and z.shape == (12, 8)
    assert np.max(np.abs(par - rec)) < 1e-12
    for t in range(12):
        w = sv.wayback_step(t, gamma)
        assert w.diff < 1e-12 and w.weights.sum() == pytest.approx(1.0)
        assert np.all(w.weights[t + 1:] == 0.0) and np.all(w.weights[: t + 1] > 0)
        np.testing.assert_allclose(w.S, S[t], rtol=1e-14)
        assert (w.state, w.kv) == (72, 2 * (t + 1) * 8)
        # step t is read from one run over all tokens (kept per γ): exactly the run over the first t + 1
        S_t, z_t, out_t = (a[-1] for a in sv.linear_attention_recurrent(q[: t + 1], k[: t + 1], v[: t + 1], gamma))
        assert np.array_equal(w.S, S_t) and np.array_equal(w.z, z_t) and np.array_equal(w.out_recurrent, out_t)
        assert not (w.S.flags.writeable or w.out_recurrent.flags.writeable)  # the kept run cannot be changed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24), d=st.integers(1, 10),
       scale=st.floats(0.05, 3.0), gamma=st.floats(0.80, 1.00))
def test_two_forms_agree_hypothesis(seed, n, d, scale, gamma):
    rng = np.random.default_rng(seed)
    q, k = (scale * rng.standard_normal((n, d)) for _ in range(2))
    v = rng.standard_normal((n, d + 1))
    par = sv.linear_attention_parallel(q, k, v, gamma)
    rec = sv.linear_attention_recurrent(q, k, v, gamma)[2]
    assert np.max(np.abs(par - rec)) < 1e-12


def test_state_is_fixed_kv_grows():
    assert sv.state_numbers(8) == 64 + 8
    assert [sv.kv_numbers(n, 8) for n in (12, 1000)] == [192, 16_000]
    S, _, _ = sv.linear_attention_recurrent(*sv.seeded_qkv(n=100))
    assert S[-1].size == 64


def test_decay_mask_and_left():
    m = sv.decay_mask(4, 0.5)
    np.testing.assert_array_equal(m, [[1, 0, 0, 0], [0.5, 1, 0, 0], [0.25, 0.5, 1, 0], [0.125, 0.25, 0.5, 1]])
    np.testing.assert_array_equal(sv.decay_mask(5, 1.0), np.tril(np.ones((5, 5))))
    assert f"{sv.decay_left(0.95, 100):.4f}" == "0.0059" and sv.decay_left(1.0, 100) == 1.0


def test_gamma_one_is_plain_causal_linear_attention():
    q, k, v = sv.seeded_qkv()
    fq, fk = sv.phi(q), sv.phi(k)
    for t in range(12):
        w = fq[t] @ fk[: t + 1].T
        np.testing.assert_allclose(sv.linear_attention_parallel(q, k, v)[t], w @ v[: t + 1] / w.sum(), rtol=1e-13)


# -- capacity of a fixed state -----------------------------------------------------------------
def test_orthonormal_keys_recall_exactly_up_to_d():
    for n in range(1, 9):
        assert sv.recall_error(n, 8, orthonormal=True, trials=20) < 1e-14
    with pytest.raises(ValueError):
        sv.recall_error(9, 8, orthonormal=True)


def test_random_keys_near_closed_form():
    c = sv.recall_curve(range(1, 33), d=8, trials=200)
    assert c.closed_form[0] == 0.0 and c.random[0] < 1e-14  # one pair: no interference
    assert np.all(np.isnan(c.orthonormal[8:])) and np.all(c.orthonormal[:8] < 1e-14)
    np.testing.assert_allclose(c.closed_form, np.sqrt((np.arange(1, 33) - 1) / 8))
    ratio = c.random[1:] / c.closed_form[1:]
    assert abs(ratio.mean() - 1.0) < 0.02 and np.all(np.abs(ratio - 1.0) < 0.1)
    assert c.random[-1] > c.random[8] > c.random[1]  # degrades with n


@pytest.mark.parametrize("gamma", [1.0, 0.95, 0.8])
def test_recall_with_a_decay_is_the_recurrence_written_pair_by_pair(gamma):
    """A second method: each trial writes its pairs one at a time, S ← γS + k vᵀ (at γ 1 the plain sum of
    k vᵀ), then recalls them one key at a time."""
    for n, ortho in ((5, False), (3, True), (13, False)):
        rng, err, total = np.random.default_rng(4), 0.0, 0.0
        for _ in range(7):
            g = rng.standard_normal((8 if ortho else n, 8))
            keys = np.linalg.qr(g)[0][:n] if ortho else g / np.linalg.norm(g, axis=1, keepdims=True)
            values = rng.standard_normal((n, 8))
            S = np.zeros((8, 8))
            for k, v in zip(keys, values):
                S = gamma * S + np.outer(k, v)
            err += sum(float(np.sum((S.T @ k - v) ** 2)) for k, v in zip(keys, values))
            total += float(np.sum(values ** 2))
        got = sv.recall_error(n, 8, ortho, trials=7, seed=4, gamma=gamma)
        assert got == pytest.approx(np.sqrt(err / total), rel=1e-12)


@pytest.mark.parametrize("gamma", [1.0, 0.95, 0.9, 0.8])
def test_recall_with_a_decay_near_its_closed_form(gamma):
    """Measured over 200 trials against the expectation summed pair by pair (pair j fades to γ^{a_j} v_j,
    every other pair adds γ^{a_i}(k_i·k_j) v_i, E(k_i·k_j)² = 1/d); orthonormal keys: the fade alone."""
    c = sv.recall_curve(range(1, 33), d=8, trials=200, gamma=gamma)
    for n in (2, 5, 8, 12, 32):
        a = [n - 1 - i for i in range(n)]
        want = np.sqrt(sum((gamma ** a[j] - 1) ** 2 + sum(gamma ** (2 * a[i]) for i in range(n) if i != j) / 8
                           for j in range(n)) / n)
        assert c.closed_form[n - 1] == pytest.approx(want, rel=1e-12)
        assert abs(c.random[n - 1] / want - 1) < 0.1
        fade = np.sqrt(np.mean([(1 - gamma ** k) ** 2 for k in a]))
        if n <= 8:
            assert c.orthonormal[n - 1] == pytest.approx(fade, rel=0.1, abs=1e-14)
    if gamma == 1.0:
        np.testing.assert_allclose(c.closed_form, np.sqrt((np.arange(1, 33) - 1) / 8), rtol=1e-12)


def test_recall_is_seeded():
    """The recall curve a user sees is the same every time the app starts: each measurement is drawn
    afresh from its seed (the draws are cached, so the cache is cleared between them), equal to a draw by
    hand from that seed (keys, then values, each trial's in one row), and another seed gives another."""
    sv._pairs.cache_clear()
    first = sv.recall_error(12, trials=10, seed=3)
    sv._pairs.cache_clear()
    assert sv.recall_error(12, trials=10, seed=3) == first
    n, d, trials = 12, sv.D_WAYBACK, 10
    draws = np.random.default_rng(3).standard_normal((trials, 2 * n * d))
    K = draws[:, :n * d].reshape(trials, n, d)
    K = K / np.linalg.norm(K, axis=-1, keepdims=True)  # random unit keys
    V = draws[:, n * d:].reshape(trials, n, d)
    recalled = K @ (K.transpose(0, 2, 1) @ V)  # v̂_j = Sᵀk_j with S = Σ k_i v_iᵀ
    assert first == pytest.approx(math.sqrt(np.sum((recalled - V) ** 2) / np.sum(V ** 2)), rel=1e-12)
    assert sv.recall_error(12, trials=10, seed=4) != first


def test_architectures_are_one_liners():
    names = [n for n, _ in sv.ARCHITECTURES]
    assert names == ["linear attention", "RetNet", "Mamba", "RWKV"]
    assert all(len(line) <= 110 and "\n" not in line for _, line in sv.ARCHITECTURES)
