"""Gradients through the loop: per-hop factors, their product, and where float32 gives up.

Going back one hop from h_t to h_{t-1} multiplies the gradient by  dh_t/dh_{t-1} = act'(z_t)·W_h.
After k hops back from the last state the gradient is the product of the k most recent factors.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from rnntui.engine.recurrence import B, TOKENS, W_X, rnn_states

F32_TINY = float(np.finfo(np.float32).tiny)  # smallest normal float32, 1.1754944e-38
F32_MAX = float(np.finfo(np.float32).max)  # 3.4028235e38
ACTIVATIONS = ("tanh", "relu")


def chain_tokens(n: int) -> np.ndarray:
    """T1's eight tokens, then the same eight again and again: x_t = TOKENS[t mod 8]."""
    return np.array([TOKENS[t % len(TOKENS)] for t in range(n)], dtype=float)


CHAIN_RULE = "x_t = TOKENS[t mod 8]: T1's eight tokens, repeated"


def forward(tokens, w_h, w_x=W_X, b=B, act="tanh", h0=0.0):
    """Pre-activations z_t and states h_t of the scalar RNN: with tanh, T1's (recurrence.rnn_states: one RNN,
    not two, a review); with ReLU, h_t = max(z_t, 0)."""
    if act == "tanh":
        return rnn_states(tokens, w_h, w_x, b, h0)
    x = np.asarray(tokens, dtype=float)
    z, h = np.empty_like(x), np.empty_like(x)
    prev = h0
    for t, x_t in enumerate(x):
        z[t] = w_h * prev + w_x * x_t + b
        h[t] = prev = max(z[t], 0.0)
    return z, h


def act_slope(z, act="tanh"):
    z = np.asarray(z, dtype=float)
    return 1.0 - np.tanh(z) ** 2 if act == "tanh" else (z > 0).astype(float)


def hop_factors(tokens, w_h, w_x=W_X, b=B, act="tanh"):
    """factors[k-1] = the factor of hop k back from the last state: act'(z_t)·W_h with t = T−k."""
    z, _ = forward(tokens, w_h, w_x, b, act)
    per_step = act_slope(z, act) * w_h  # dh_t/dh_{t-1} for t = 0..T-1
    return per_step[1:][::-1].copy()  # hops T-1 .. 1


def backward_products(factors) -> np.ndarray:
    """products[k] = gradient after k hops (products[0] = 1), in float64; inf and NaN stay as they are."""
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        return np.concatenate(([1.0], np.cumprod(np.asarray(factors, dtype=np.float64))))


def log10_product(factors) -> float:
    """log10 |∏ factors| from the factors' logs: the product where float64 rounds it to 0 (−inf if one is 0)."""
    with np.errstate(divide="ignore"):
        return float(np.sum(np.log10(np.abs(np.asarray(factors, dtype=np.float64)))))


def first_hop(products, below=None, above=None):
    """The first hop whose product is below `below` (or above `above`), or None."""
    p = np.asarray(products, dtype=float)
    return first((np.abs(p) < below) if below is not None else (np.abs(p) > above))


def first(hits) -> int | None:
    """The first hop where `hits` (a boolean per hop) holds, or None."""
    hops = np.flatnonzero(hits)
    return int(hops[0]) if hops.size else None


def backward_products_f32(factors) -> np.ndarray:
    """The same products as float32 would hold them: past F32_MAX they are inf, below about
    1.4e-45 they are 0, and inf·0 is NaN. Returned as float64 so the non-finite values show."""
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        p = np.cumprod(np.asarray(factors, dtype=np.float32), dtype=np.float32)
    return np.concatenate(([1.0], p.astype(np.float64)))


def f32_bits(v) -> int:
    """How many significant bits float32 keeps of v: 24 for a normal number, fewer for a subnormal
    (a multiple of 2^-149: 3.36e-43 is 240·2^-149, 8 bits), 0 for 0, inf and NaN."""
    v = abs(float(np.float32(v)))
    if v == 0 or not math.isfinite(v):
        return 0
    return 24 if v >= F32_TINY else int(round(v / 2.0 ** -149)).bit_length()


def chain(n: int, w_h, act="tanh", w_x=W_X, b=B):
    """Factors and float64 products of an n-token chain (n−1 hops back to h_0)."""
    factors = hop_factors(chain_tokens(n), w_h, w_x, b, act)
    return factors, backward_products(factors)


# -- clipping (Pascanu, Mikolov & Bengio 2013) -------------------------------------------------

G_EXPLODING = (24.0, -36.0, 72.0)  # a gradient of norm 84.0: 84² = 24² + 36² + 72²


def norm(g) -> float:
    return float(np.linalg.norm(np.asarray(g, dtype=float)))


def clip_scale(g_norm, threshold) -> float:
    """threshold/‖g‖ when ‖g‖ ≥ threshold, else 1: clipping is a ceiling, never a floor."""
    return threshold / g_norm if g_norm >= threshold else 1.0


def clip(g, threshold) -> np.ndarray:
    """Rescale g so its norm is at most threshold; its direction is kept."""
    g = np.asarray(g, dtype=float)
    return g * clip_scale(norm(g), threshold)


# -- E1: a vector RNN's gradient against distance ------------------------------------------------

E1_D, E1_T = 64, 60
E1_CS = (0.5, 1.0, 1.5)


def bptt_norms(c, seed=0, input_scale=1.0, act="tanh", d=E1_D, T=E1_T) -> np.ndarray:
    """‖∂L/∂h_t‖ / ‖∂L/∂h_T‖ at distance T−t = 0..T for one random vector RNN.

    h_t = act(W h_{t−1} + x_t), h_0 = 0, W = c·W₀/√d with W₀ ~ N(0, 1) (so W ~ N(0, (c/√d)²)),
    x_t ~ N(0, input_scale²), loss L = v·h_T at the last step. Going back one step:
    ∂L/∂h_{t−1} = Wᵀ (act'(z_t) ⊙ ∂L/∂h_t). The seed draws W₀, x and v, so curves for
    different c share them and differ only by c.
    """
    return np.array(_bptt_norms(float(c), int(seed), float(input_scale), act, int(d), int(T)))


def bptt_draw(c, seed=0, input_scale=1.0, d=E1_D, T=E1_T) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The experiment's random draws, in order: W = c·W₀/√d, the inputs x (T×d) and the loss's v."""
    W0, x0, v = _unit_draws(seed, d, T)
    return c / np.sqrt(d) * W0, input_scale * x0, v


def _unit_draws(seed, d, T):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((d, d)), rng.standard_normal((T, d)), rng.standard_normal(d)


@lru_cache(maxsize=8)
def bptt_ends(c, act="relu", seeds=100, input_scale=1.0, d=E1_D, T=E1_T) -> tuple[float, ...]:
    """`bptt_norms(...)[T]`, the share left at distance T, for seeds 0 … seeds−1: all seeds run side by
    side (~15 ms for 100, against ~50 one by one: a new input std is a key press)."""
    W0, x0, v = _stacked_draws(int(seeds), int(d), int(T))
    return tuple(_shares(float(c) / np.sqrt(d) * W0, float(input_scale) * x0, v, act)[:, -1].tolist())


@lru_cache(maxsize=1)
def _stacked_draws(seeds, d, T):
    W0, x0, v = zip(*(_unit_draws(s, d, T) for s in range(seeds)))
    return np.stack(W0), np.stack(x0), np.stack(v)


@lru_cache(maxsize=256)
def _bptt_norms(c, seed, input_scale, act, d, T):
    W, x, v = bptt_draw(c, seed, input_scale, d, T)
    return tuple(_shares(W[None], x[None], v[None], act)[0].tolist())


def _shares(W, x, v, act) -> np.ndarray:
    """‖∂L/∂h_t‖ / ‖∂L/∂h_T‖ at distance 0..T for networks side by side: W (S×d×d), x (S×T×d),
    v (S×d)."""
    seeds, T, d = x.shape
    h, z = np.zeros((seeds, d, 1)), np.empty((T, seeds, d, 1))
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T):
            z[t] = W @ h + x[:, t, :, None]
            h = np.tanh(z[t]) if act == "tanh" else np.maximum(z[t], 0.0)
        g, Wt = v[:, :, None], W.transpose(0, 2, 1)
        norms = [np.linalg.norm(g[:, :, 0], axis=1)]
        for t in range(T - 1, -1, -1):
            g = Wt @ (act_slope(z[t], act) * g)
            norms.append(np.linalg.norm(g[:, :, 0], axis=1))
        return np.stack(norms, axis=1) / norms[0][:, None]
