"""A one-dimensional RNN, small enough to check by hand: h_t = tanh(W_h·h_{t-1} + W_x·x_t + b)."""
from __future__ import annotations

import numpy as np

TOKENS = (0.5, 0.5, -0.5, 1.0, 0.0, 0.0, -0.5, 0.4)
N_TOKENS = len(TOKENS)  # the track every topic steps: positions 0 … 7
LAST_T = N_TOKENS - 1
W_X = 0.8
B = 0.0
W_H = 0.9


def rnn_states(tokens=TOKENS, w_h=W_H, w_x=W_X, b=B, h0=0.0):
    """Pre-activations z_t and states h_t for every token, h_{-1} = h0."""
    x = np.asarray(tokens, dtype=float)
    z = np.empty_like(x)
    h = np.empty_like(x)
    prev = h0
    for t, x_t in enumerate(x):
        z[t] = w_h * prev + w_x * x_t + b
        h[t] = prev = np.tanh(z[t])
    return z, h


def tanh_slope(z):
    """tanh'(z) = 1 − tanh²(z)."""
    return 1.0 - np.tanh(z) ** 2


def tangent(z0, zs):
    """The tangent line of tanh at z0, evaluated at zs."""
    return np.tanh(z0) + tanh_slope(z0) * (np.asarray(zs, dtype=float) - z0)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.asarray(z, dtype=float)))


def readout(h, w_y=2.0, b_y=0.0):
    """A logistic output head on states: p = σ(W_y·h + b_y)."""
    return sigmoid(w_y * np.asarray(h, dtype=float) + b_y)
