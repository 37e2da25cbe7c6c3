"""A one-dimensional RNN, small enough to check by hand: h_t = tanh(W_h·h_{t-1} + W_x·x_t + b)."""
from __future__ import annotations

import math

from rnntui import lazy

np = lazy.numpy(globals())  # the first frame (the track) draws without numpy

TOKENS = (0.5, 0.5, -0.5, 1.0, 0.0, 0.0, -0.5, 0.4)
N_TOKENS = len(TOKENS)  # the track every topic steps: positions 0 … 7
LAST_T = N_TOKENS - 1
W_X = 0.8
B = 0.0
W_H = 0.9


def states(tokens=TOKENS, w_h=W_H, w_x=W_X, b=B, h0=0.0) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Pre-activations z_t and states h_t for every token, h_{-1} = h0, as tuples of floats."""
    z, h = [], []
    prev = float(h0)
    for x_t in tokens:
        z.append(w_h * prev + w_x * float(x_t) + b)
        h.append(prev := math.tanh(z[-1]))
    return tuple(z), tuple(h)


def rnn_states(tokens=TOKENS, w_h=W_H, w_x=W_X, b=B, h0=0.0):
    """`states` as numpy arrays."""
    z, h = states(tokens, w_h, w_x, b, h0)
    return np.array(z, dtype=float), np.array(h, dtype=float)


def tanh_slope(z):
    """tanh'(z) = 1 − tanh²(z)."""
    return 1.0 - np.tanh(z) ** 2


def tangent(z0, zs):
    """The tangent line of tanh at z0, evaluated at zs."""
    return np.tanh(z0) + tanh_slope(z0) * (np.asarray(zs, dtype=float) - z0)


def sigmoid(z):
    """1/(1+e^-z), as tanh: no overflow for large negative z (one of three copies did, a review)."""
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, dtype=float)))


W_Y = 2.0  # the readout head's weight (fixed: the figure is about which state it reads)


def readout(h, w_y=W_Y, b_y=0.0):
    """A logistic output head on states: p = σ(W_y·h + b_y)."""
    return sigmoid(w_y * np.asarray(h, dtype=float) + b_y)
