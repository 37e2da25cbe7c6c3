"""T5 `attention` and issue 19's encoder layer: the engine's numbers against the issues' pinned
values (worked out by hand there), identities, and torch as an independent oracle."""
from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest

from rnntui.engine import attention as at
from rnntui.engine import block as bl
from rnntui.figures import summary as sm


def softmax_jacobian(a) -> np.ndarray:
    """∂a/∂s = diag(a) − a·aᵀ for one softmax output a, built whole (the engine's norm has a closed form)."""
    a = np.asarray(a, dtype=float)
    return np.diag(a) - np.outer(a, a)


def pe_shift_matrix(k: int, d: int) -> np.ndarray:
    """M_k with PE(p + k) = PE(p)·M_k for every p: a 2×2 rotation by k·ω_i in each (sin, cos) pair."""
    m = np.zeros((d, d))
    for i, w in enumerate(at.frequencies(d)):
        c, s = math.cos(k * w), math.sin(k * w)
        # (sin(a+b), cos(a+b)) = (sin a·cos b + cos a·sin b, cos a·cos b − sin a·sin b)
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, -s], [s, c]]
    return m


# -- Q/K/V on the toy sentence ------------------------------------------------------------------
def test_toy_causal_pinned_cells():
    p = at.qkv("toy", "causal")
    assert p.cell("跑", "猫") == pytest.approx(0.6488, abs=5e-5)
    assert p.cell("猫", "那只") == pytest.approx(0.8808, abs=5e-5)
    assert p.a[2, :3] == pytest.approx([1 / 3] * 3, abs=1e-12)
    assert p.cell("突然", "开始") == 0.0 and p.cell("突然", "跑") == 0.0


def test_toy_full_pinned_cells():
    p = at.qkv("toy", "full")
    assert p.cell("突然", "开始") == pytest.approx(0.4156, abs=5e-5)
    assert p.cell("突然", "跑") == pytest.approx(0.4156, abs=5e-5)


def test_toy_data_is_as_issued():
    w = at.weights("toy")
    assert w.tokens == ("那只", "猫", "突然", "开始", "跑")
    assert w.x.tolist() == [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0.5], [0, 1, 0, 0]]
    assert w.w_q.tolist() == [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]]
    assert w.w_k.tolist() == [[0, 2, 0, 0], [0, 0, 2, 0], [2, 0, 0, 0], [0, 0, 0, 0]]
    assert (w.w_v == np.eye(4)).all()


@pytest.mark.parametrize("weight_set", at.WEIGHT_SETS)
@pytest.mark.parametrize("mask_kind", ["causal", "full"])
def test_rows_sum_to_one_and_masked_cells_are_zero(weight_set, mask_kind):
    p = at.qkv(weight_set, mask_kind)
    assert p.a.sum(axis=1) == pytest.approx(np.ones(len(p.a)), abs=1e-12)
    assert (p.a[~p.visible] == 0).all()
    assert (p.a >= 0).all()


def test_pipeline_matches_torch_sdpa():
    torch = pytest.importorskip("torch")
    w = at.weights("random")
    for mask_kind, is_causal in (("causal", True), ("full", False)):
        p = at.qkv("random", mask_kind)
        q, k, v = (torch.tensor(m) for m in (p.q, p.k, p.v))
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
        assert np.allclose(p.out, ref.numpy(), atol=1e-12)
    assert p.x.shape == (5, 64) and abs(w.w_q.std() - 0.02) < 0.002


def test_stages_in_order():
    p = at.qkv()
    assert [n for n, _ in p.stages()] == ["x", "q", "k", "v", "s", "s_masked", "a", "out"]
    assert np.isneginf(p.s_masked[~p.visible]).all()
    assert np.allclose(p.s, p.q @ p.k.T / 2)


def test_query_row_spells_out_the_output():
    p = at.qkv()
    r = at.query_row(p, "跑")
    assert r.keys.tolist() == [0, 1, 2, 3, 4]
    assert r.dots.tolist() == [0, 4, 0, 0, 0] and r.scores.tolist() == [0, 2, 0, 0, 0]
    assert r.weights.sum() == pytest.approx(1.0)
    assert np.allclose(r.terms.sum(axis=0), r.output) and np.allclose(r.output, p.out[4])
    assert at.query_row(p, 1).keys.tolist() == [0, 1]


def test_strict_mask_row_zero_is_nan_quietly():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = at.pipeline(at.X_TOY, at.W_Q_TOY, at.W_K_TOY, at.W_V_TOY, "strict")
        r = at.query_row(p, 0)
        edit = at.future_edit(0, "strict")
    assert np.isnan(p.a[0]).all() and np.isnan(p.out[0]).all()
    assert np.isfinite(p.a[1:]).all() and p.a[1:].sum(axis=1) == pytest.approx(np.ones(4))
    assert r.keys.size == 0 and np.isnan(r.output).all()
    assert edit.early == 0.0 and edit.late > 0


def test_causal_outputs_ignore_the_future_exactly():
    e = at.future_edit(after=2, mask_kind="causal")
    assert e.early == 0.0 and e.late > 1e-3
    for seed in range(5):
        for after in range(4):
            assert at.future_edit(after, "causal", seed).early == 0.0
    full = at.future_edit(after=2, mask_kind="full")
    assert full.early > 1e-3


# -- √d_k ------------------------------------------------------------------------------------------
def test_scaling_readouts():
    u64, u512 = at.scaling_reading(64, False), at.scaling_reading(512, False)
    assert u64.max_weight == pytest.approx(0.87, abs=0.01)
    assert u512.max_weight == pytest.approx(0.96, abs=0.01)
    for d in at.SCALING_DK:
        u, s = at.scaling_reading(d, False), at.scaling_reading(d, True)
        assert u.score_var == pytest.approx(d, rel=0.05)
        assert s.score_var == pytest.approx(1.0, rel=0.05)
        if d >= 4:  # at d_k = 1 the dot product is not yet Gaussian: 0.30 (see the module docstring)
            assert s.max_weight == pytest.approx(0.36, abs=0.02)
        assert 0 < s.entropy < at.LN_KEYS and s.ln_keys == pytest.approx(2.079, abs=5e-4)
    unscaled = at.scaling_curve(False)
    assert all(a.entropy > b.entropy for a, b in zip(unscaled, unscaled[1:]))
    assert all(a.jacobian_norm > b.jacobian_norm for a, b in zip(unscaled[1:], unscaled[2:]))


def test_scaling_shortcut_matches_real_dot_products():
    """‖q‖·z has the law of q·k_j: compare with q, k drawn outright."""
    rng = np.random.default_rng(7)
    for d in (16, 64):
        q, k = rng.standard_normal((4000, 1, d)), rng.standard_normal((4000, 8, d))
        a = at.softmax_rows((q * k).sum(-1))
        assert a.max(axis=1).mean() == pytest.approx(at.scaling_reading(d, False).max_weight, abs=0.015)


def test_scaling_is_fast():
    at.scaling_reading.cache_clear()
    t = time.perf_counter()
    at.scaling_reading(1024, False)
    assert time.perf_counter() - t < 0.05


def test_jacobian_norm_matches_the_matrix():
    a = at.softmax_rows(np.random.default_rng(0).standard_normal((6, 8)))
    want = [np.linalg.norm(softmax_jacobian(r)) for r in a]
    assert at.jacobian_norm(a) == pytest.approx(want, rel=1e-12)
    assert at.entropy(np.full(8, 1 / 8)) == pytest.approx(math.log(8))


# -- masks of the three families --------------------------------------------------------------------
def test_family_mask_counts():
    assert at.family_masks("encoder").counts == (25,)
    assert at.family_masks("decoder").counts == (15,)
    ed = at.family_masks("encoder-decoder")
    assert ed.counts == (10, 20) and [n for n, _ in ed.blocks] == ["self", "cross"]
    assert ed.blocks[1][1].shape == (4, 5)
    assert "BERT" in at.FAMILY_MODELS["encoder"] and "GPT" in at.FAMILY_MODELS["decoder"]
    assert "T5" in at.FAMILY_MODELS["encoder-decoder"]


# -- heads -------------------------------------------------------------------------------------------
def test_head_split_numbers():
    for h in at.HEADS_H:
        s = at.head_split(512, h, n=10)
        assert s.d_k * h == 512 and s.params == 1_048_576 and s.params_bias == 1_050_624
        assert s.score_entries == h * 100
    assert at.head_split(512, 8).d_k == 64


def test_toy_heads_pinned():
    h1 = at.head_pipelines(2, "causal")[0]
    h2 = at.head_pipelines(2, "full")[1]
    assert h1.cell("跑", "猫") == pytest.approx(0.8088, abs=5e-5)
    assert h2.cell("突然", "开始") == pytest.approx(0.4593, abs=5e-5)
    assert h1.k.shape == (5, 2)  # each head scaled by √2, its own d_k


def test_multihead_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    d, h, n = 8, 2, 5
    x = rng.standard_normal((n, d))
    ws = [rng.standard_normal((d, d)) for _ in range(4)]
    bs = [rng.standard_normal(d) for _ in range(4)]
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.tensor(np.concatenate([w.T for w in ws[:3]])))
        mha.in_proj_bias.copy_(torch.tensor(np.concatenate(bs[:3])))
        mha.out_proj.weight.copy_(torch.tensor(ws[3].T))
        mha.out_proj.bias.copy_(torch.tensor(bs[3]))
        causal = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        for mask_kind, attn_mask in (("full", None), ("causal", causal)):
            ref, _ = mha(*(torch.tensor(x)[None],) * 3, attn_mask=attn_mask, need_weights=False)
            got = at.multihead(x, *ws, h, mask_kind, *bs)
            assert np.allclose(got, ref[0].numpy(), atol=1e-12)
    assert sum(p.numel() for p in torch.nn.MultiheadAttention(512, 8).parameters()) == at.attention_params(512)


# -- positions -------------------------------------------------------------------------------------
def test_pe_pinned_values():
    pe = at.sinusoidal(16, 64)
    assert pe[1, 0] == pytest.approx(0.841471, abs=5e-7)
    assert pe[1, 1] == pytest.approx(0.540302, abs=5e-7)
    assert pe[10, 0] == pytest.approx(-0.544021, abs=5e-7)
    assert pe.shape == (16, 64)


@pytest.mark.parametrize("d", [16, 64, 512])
def test_pe_identities(d):
    pe = at.sinusoidal(16, d)
    assert (pe ** 2).sum(axis=1) == pytest.approx(np.full(16, d / 2))
    for k in (1, 3, 7):
        dots = at.pe_dots(pe, k)
        assert np.ptp(dots) < 1e-10
        assert dots[0] == pytest.approx(np.cos(k * at.frequencies(d)).sum())
        assert np.allclose(pe[:-k] @ pe_shift_matrix(k, d), pe[k:], atol=1e-10)
    i = np.arange(0, d, 2)
    assert np.allclose(pe[5, 0::2], np.sin(5 / 10000 ** (i / d)))


def test_permutation_test():
    r = at.permutation_test()
    assert r.full_no_pe < 1e-12
    assert r.full_pe > 0.05
    assert r.causal_no_pe > 0.05


# -- the encoder layer ---------------------------------------------------------------------------------
def test_layer_norm_pinned_and_against_torch():
    assert bl.layer_norm([1.0, 2.0, 3.0, 6.0]) == pytest.approx([-1.069, -0.535, 0.0, 1.604], abs=5e-4)
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x, g, b = rng.standard_normal((5, 8)), rng.standard_normal(8), rng.standard_normal(8)
    ref = torch.nn.functional.layer_norm(torch.tensor(x), (8,), torch.tensor(g), torch.tensor(b), eps=1e-5)
    assert np.allclose(bl.layer_norm(x, g, b), ref.numpy(), atol=1e-12)
    y = bl.layer_norm(x)
    assert np.allclose(y.mean(axis=1), 0) and np.allclose(y.var(axis=1), 1, atol=1e-4)


@pytest.mark.parametrize("norm", bl.NORMS)
@pytest.mark.parametrize("activation", bl.ACTIVATIONS)
def test_toy_layer_runs_every_stage(norm, activation):
    s = bl.toy_layer(norm, activation)
    assert s.names[0] == "x" and len(s.names) == 8
    assert s.get("hidden").shape == (5, bl.LAYER_DFF) and s.out.shape == (5, 4)
    assert np.isfinite(s.out).all()
    if norm == "post":
        assert np.allclose(s.out.mean(axis=1), 0) and np.allclose(s.out.var(axis=1), 1, atol=1e-3)
    # with the toy attention, the layer's attention stage is the two toy heads, concatenated
    first = s.get("x" if norm == "post" else "LN₁")
    heads = [at.pipeline(first, wq, wk, wv, "full").out for wq, wk, wv in
             zip(*(at.split_columns(m, 2) for m in (at.W_Q_TOY, at.W_K_TOY, at.W_V_TOY)))]
    assert np.allclose(s.get("attn"), np.concatenate(heads, axis=1))


def _torch_layer(torch, w: bl.LayerWeights, norm: str):
    layer = torch.nn.TransformerEncoderLayer(w.d, w.heads, w.d_ff, dropout=0.0, activation=w.activation,
                                             batch_first=True, norm_first=norm == "pre", dtype=torch.float64)
    t = lambda a: torch.tensor(a)  # noqa: E731
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(t(np.concatenate([w.w_q.T, w.w_k.T, w.w_v.T])))
        layer.self_attn.in_proj_bias.copy_(t(np.concatenate([w.b_q, w.b_k, w.b_v])))
        layer.self_attn.out_proj.weight.copy_(t(w.w_o.T))
        layer.self_attn.out_proj.bias.copy_(t(w.b_o))
        layer.linear1.weight.copy_(t(w.w1.T))
        layer.linear1.bias.copy_(t(w.b1))
        layer.linear2.weight.copy_(t(w.w2.T))
        layer.linear2.bias.copy_(t(w.b2))
        for ln, g, b in ((layer.norm1, w.gamma1, w.beta1), (layer.norm2, w.gamma2, w.beta2)):
            ln.weight.copy_(t(g))
            ln.bias.copy_(t(b))
    return layer.eval()


@pytest.mark.parametrize("norm", bl.NORMS)
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("toy", [True, False])
def test_layer_against_torch_encoder_layer(norm, activation, toy):
    torch = pytest.importorskip("torch")
    w = bl.layer_weights(activation, toy_attention=toy)
    x = at.X_TOY if toy else np.random.default_rng(1).standard_normal((5, 4))
    with torch.no_grad():
        ref = _torch_layer(torch, w, norm)(torch.tensor(x)[None])[0].numpy()
    assert np.allclose(bl.encoder_layer(x, w, norm).out, ref, atol=1e-10)


@pytest.mark.parametrize("norm", bl.NORMS)
def test_swiglu_layer_against_torch_reimplementation(norm):
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    w = bl.layer_weights("swiglu", toy_attention=False)
    x = np.random.default_rng(2).standard_normal((5, 4))
    t = lambda a: torch.tensor(a)  # noqa: E731
    mha = torch.nn.MultiheadAttention(4, 2, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(t(np.concatenate([w.w_q.T, w.w_k.T, w.w_v.T])))
        mha.in_proj_bias.copy_(t(np.concatenate([w.b_q, w.b_k, w.b_v])))
        mha.out_proj.weight.copy_(t(w.w_o.T))
        mha.out_proj.bias.copy_(t(w.b_o))
        ln1 = lambda z: F.layer_norm(z, (4,), t(w.gamma1), t(w.beta1), 1e-5)  # noqa: E731
        ln2 = lambda z: F.layer_norm(z, (4,), t(w.gamma2), t(w.beta2), 1e-5)  # noqa: E731
        sa = lambda z: mha(z, z, z, need_weights=False)[0]  # noqa: E731
        ff = lambda z: (F.silu(z @ t(w.w1)) * (z @ t(w.w3))) @ t(w.w2)  # noqa: E731
        X = t(x)[None]
        if norm == "post":
            h = ln1(X + sa(X))
            ref = ln2(h + ff(h))
        else:
            h = X + sa(ln1(X))
            ref = h + ff(ln2(h))
    assert np.allclose(bl.encoder_layer(x, w, norm).out, ref[0].numpy(), atol=1e-10)


def test_param_counts_pinned():
    assert bl.param_count(768, 3072).per_layer == 7_087_872
    assert bl.param_count(768, 3072, 12).total == 85_054_464
    assert bl.param_count(512, 2048).per_layer == 3_152_384
    c = bl.param_count(512, 2048)
    assert (c.attention, c.ffn, c.norms) == (4 * 512 ** 2 + 4 * 512, 2 * 512 * 2048 + 2048 + 512, 4 * 512)
    assert bl.param_count(512, 2048, activation="swiglu").ffn == 3 * 512 * 2048


@pytest.mark.parametrize("d,d_ff,heads", [(768, 3072, 12), (512, 2048, 8), (4, 16, 2)])
def test_param_counts_against_torch(d, d_ff, heads):
    torch = pytest.importorskip("torch")
    layer = torch.nn.TransformerEncoderLayer(d, heads, d_ff)
    assert sum(p.numel() for p in layer.parameters()) == bl.param_count(d, d_ff).per_layer
    mha = torch.nn.MultiheadAttention(d, heads)
    assert sum(p.numel() for p in mha.parameters()) == bl.param_count(d, d_ff).attention


def test_layer_flops():
    """FLOPs as parallel's timing counts them (a multiply and an add each): the block's bill said FLOPs
    and counted multiply–adds, half (a newcomer's trial)."""
    from rnntui.engine import parallel as par

    def matmul(m, k, n):  # (m×k)·(k×n): m·n dot products of length k
        return 2 * m * k * n

    n, d, d_ff = 512, 512, 2048
    f = bl.layer_flops(n=n, d=d, d_ff=d_ff)
    assert f.attention_core == matmul(n, d, n) + matmul(n, n, d) == par.attention_flops(n, d)
    assert f.projections == 4 * matmul(n, d, d) and f.ffn == matmul(n, d, d_ff) + matmul(n, d_ff, d)
    assert f.total == f.attention_core + f.dense
    small, big = bl.layer_flops(64, 512), bl.layer_flops(8192, 512)
    assert small.core_share < 0.1 < 0.5 < big.core_share


# -- the summary table -----------------------------------------------------------------------------------
def test_toy_layer_is_read_only():
    with pytest.raises(ValueError):
        bl.toy_layer().out[0, 0] = 1.0


def test_summary_table_shape():
    assert [r.model for r in sm.SUMMARY] == ["RNN", "LSTM/GRU", "seq2seq+attention", "Transformer"]
    assert [r.parallel.text for r in sm.SUMMARY] == ["no", "no", "no", "yes"]
    assert [r.path_length.text for r in sm.SUMMARY] == ["O(n)", "O(n)", "O(1) decoder→encoder", "O(1)"]
    links = [cell.link for r in sm.SUMMARY for col, _ in sm.SUMMARY_COLUMNS[1:] if (cell := getattr(r, col)).link]
    targets = {link.target for link in links}
    assert {"recurrence/track", "gradients/product", "lstm/path", "seq2seq/matrix", "parallel/grid",
            "parallel/path", "parallel/cost", "serving/kvcache"} == targets
    product = next(l for l in links if l.target == "gradients/product")
    assert product.sets == {"act": "relu", "w_h": "1.6"}
    assert product.argv() == ["gradients/product", "--set", "act=relu", "--set", "w_h=1.6"]
