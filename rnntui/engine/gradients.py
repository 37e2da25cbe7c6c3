"""Gradients through the loop: per-hop factors, their product, and where float32 gives up.

Going back one hop from h_t to h_{t-1} multiplies the gradient by  dh_t/dh_{t-1} = act'(z_t)·W_h.
After k hops back from the last state the gradient is the product of the k most recent factors.
"""
from __future__ import annotations

import numpy as np

from rnntui.engine.recurrence import B, TOKENS, W_X

F32_TINY = float(np.finfo(np.float32).tiny)  # smallest normal float32, 1.1754944e-38
F32_MAX = float(np.finfo(np.float32).max)  # 3.4028235e38
ACTIVATIONS = ("tanh", "relu")


def chain_tokens(n: int) -> np.ndarray:
    """T1's eight tokens, then the same eight again and again: x_t = TOKENS[t mod 8]."""
    return np.array([TOKENS[t % len(TOKENS)] for t in range(n)], dtype=float)


CHAIN_RULE = "x_t = TOKENS[t mod 8]: T1's eight tokens, repeated"


def forward(tokens, w_h, w_x=W_X, b=B, act="tanh", h0=0.0):
    """Pre-activations z_t and states h_t of the scalar RNN with tanh or ReLU."""
    x = np.asarray(tokens, dtype=float)
    z, h = np.empty_like(x), np.empty_like(x)
    prev = h0
    for t, x_t in enumerate(x):
        z[t] = w_h * prev + w_x * x_t + b
        h[t] = prev = np.tanh(z[t]) if act == "tanh" else max(z[t], 0.0)
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


def first_hop(products, below=None, above=None):
    """The first hop whose product is below `below` (or above `above`), or None."""
    p = np.asarray(products, dtype=float)
    hit = (np.abs(p) < below) if below is not None else (np.abs(p) > above)
    hops = np.flatnonzero(hit)
    return int(hops[0]) if hops.size else None
