"""The LSTM and the GRU: a cell state that is carried by one multiplication per step.

    f = σ(W_f·x + U_f·h + b_f)      forget gate: how much of c_{t-1} is kept
    i = σ(W_i·x + U_i·h + b_i)      input gate: how much of the candidate is written
    g = tanh(W_g·x + U_g·h + b_g)   candidate ĉ_t
    o = σ(W_o·x + U_o·h + b_o)      output gate
    c_t = f·c_{t-1} + i·g           no weight matrix, no squashing between c_{t-1} and c_t
    h_t = o·tanh(c_t)

From c_0 to c_k the only path is the product of the forget gates, f^k: the LSTM's residual
connection in time. The vector cells use torch.nn.LSTMCell / GRUCell's weight layout
(gates stacked i, f, g, o and r, z, n) so weights can be copied either way.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from rnntui.engine.gradients import chain
from rnntui.engine.recurrence import TOKENS, W_H, sigmoid

# The scalar cell's default weights, one (W: from x, U: from h, b) per gate. The candidate reuses
# T1's RNN weights (W_x = 0.8, W_h = 0.9) so ĉ_t is exactly what the plain RNN would compute;
# b_f = 1 is the forget-gate bias of Gers et al. 2000 and Jozefowicz et al. 2015.
WEIGHTS: dict[str, tuple[float, float, float]] = {
    "f": (0.5, 0.5, 1.0),
    "i": (1.0, 0.5, 0.0),
    "g": (0.8, 0.9, 0.0),
    "o": (0.5, 0.5, 0.5),
}
B_F = WEIGHTS["f"][2]
GATES = ("f", "i", "g", "o")


def weights_with(b_f: float | None = None, weights=None) -> dict[str, tuple[float, float, float]]:
    """The default weights (or `weights`) with the forget-gate bias replaced."""
    w = dict(weights or WEIGHTS)
    if b_f is not None:
        W, U, _ = w["f"]
        w["f"] = (W, U, float(b_f))
    return w


def lstm_step(x: float, h: float, c: float, weights=None) -> dict[str, float]:
    """One step of the scalar LSTM: the four gates (and a_f … a_o, their pre-activations), then c_t and h_t."""
    w = weights or WEIGHTS
    pre = {k: w[k][0] * x + w[k][1] * h + w[k][2] for k in GATES}
    f, i, o = (float(sigmoid(pre[k])) for k in "fio")
    g = float(np.tanh(pre["g"]))
    c_t = f * c + i * g
    return {"f": f, "i": i, "g": g, "o": o, "c": c_t, "h": o * float(np.tanh(c_t)),
            **{f"a_{k}": float(pre[k]) for k in GATES}}


@lru_cache(maxsize=256)
def _lstm_states(tokens: tuple, items: tuple, h0: float, c0: float) -> tuple:
    weights = dict(items)
    h, c, out = h0, c0, []
    for x in tokens:
        step = lstm_step(x, h, c, weights)
        h, c = step["h"], step["c"]
        out.append(step)
    return tuple(out)


def lstm_states(tokens=TOKENS, weights=None, h0: float = 0.0, c0: float = 0.0) -> dict[str, np.ndarray]:
    """The scalar LSTM over a token sequence: arrays f, i, g, o, c, h and the gates' pre-activations
    a_f … a_o (one entry per token)."""
    steps = _lstm_states(tuple(float(x) for x in tokens), tuple(sorted((weights or WEIGHTS).items())), h0, c0)
    return {k: np.array([s[k] for s in steps], dtype=float) for k in (*GATES, "c", "h", *(f"a_{g}" for g in GATES))}


# -- vector cells, torch layout ------------------------------------------------------------------
def lstm_cell(x, h, c, W_ih, W_hh, b_ih, b_hh):
    """torch.nn.LSTMCell in numpy. x: (..., d_in), h, c: (..., d); W_ih: (4d, d_in), W_hh: (4d, d),
    rows stacked as gates i, f, g, o. Returns (h_t, c_t)."""
    z = np.asarray(x) @ np.asarray(W_ih).T + np.asarray(h) @ np.asarray(W_hh).T + b_ih + b_hh
    i, f, g, o = np.split(z, 4, axis=-1)
    i, f, o = sigmoid(i), sigmoid(f), sigmoid(o)
    c_t = f * c + i * np.tanh(g)
    return o * np.tanh(c_t), c_t


def gru_cell(x, h, W_ih, W_hh, b_ih, b_hh):
    """torch.nn.GRUCell in numpy, rows stacked r, z, n:
    r = σ(·), z = σ(·), n = tanh(W_in·x + b_in + r·(W_hn·h + b_hn)), h_t = (1 − z)·n + z·h.
    z plays the forget gate and 1 − z the input gate: keeping and writing are one decision."""
    a = np.asarray(x) @ np.asarray(W_ih).T + b_ih
    b = np.asarray(h) @ np.asarray(W_hh).T + b_hh
    a_r, a_z, a_n = np.split(a, 3, axis=-1)
    b_r, b_z, b_n = np.split(b, 3, axis=-1)
    r, z = sigmoid(a_r + b_r), sigmoid(a_z + b_z)
    n = np.tanh(a_n + r * b_n)
    return (1.0 - z) * n + z * h


def init_cell(cell: str, d_in: int, d: int, seed: int = 0, b_f: float | None = None) -> dict[str, np.ndarray]:
    """Weights like torch's default: U(−1/√d, 1/√d). For the LSTM, b_f (if given) sets the forget
    gate's bias (b_ih's f block; b_hh's f block is zeroed), the initialisation of Jozefowicz 2015."""
    gates = {"lstm": 4, "gru": 3}[cell]
    rng = np.random.default_rng(seed)
    k = 1.0 / np.sqrt(d)
    w = {"W_ih": rng.uniform(-k, k, (gates * d, d_in)), "W_hh": rng.uniform(-k, k, (gates * d, d)),
         "b_ih": rng.uniform(-k, k, gates * d), "b_hh": rng.uniform(-k, k, gates * d)}
    if cell == "lstm" and b_f is not None:
        w["b_ih"][d:2 * d] = b_f
        w["b_hh"][d:2 * d] = 0.0
    return w


# -- gates as proportions ----------------------------------------------------------------------------
def lstm_split(f: float, i: float, c: float = 1.0, g: float = 1.0) -> dict[str, float]:
    """One LSTM update as lengths: kept f·c, written i·g, discarded (1 − f)·c; c_t = kept + written.
    The two gates are free: keep everything and write everything (f = i = 1) in the same step."""
    kept, written = f * c, i * g
    return {"kept": kept, "written": written, "discarded": (1.0 - f) * c, "c": kept + written}


def gru_split(f: float, h: float = 1.0, n: float = 1.0) -> dict[str, float]:
    """One GRU update as lengths, with the keep gate f (torch's z) and the write forced to 1 − f:
    kept f·h, written (1 − f)·n, discarded (1 − f)·h; the keep and write fractions always sum to 1."""
    kept, written = f * h, (1.0 - f) * n
    return {"kept": kept, "written": written, "discarded": (1.0 - f) * h, "h": kept + written}


def repeated(f: float, i: float, steps: int, c0: float = 1.0, g: float = 1.0) -> np.ndarray:
    """c_0 … c_steps when the same gates and candidate repeat: c_t = f·c_{t-1} + i·g.
    f = 1 accumulates (c grows by i·g every step); f = 0 keeps only the last write."""
    c = np.empty(steps + 1)
    c[0] = c0
    for t in range(1, steps + 1):
        c[t] = f * c[t - 1] + i * g
    return c


def fixed_point(f: float, i: float, g: float = 1.0) -> float | None:
    """The value repeated updates approach, c* = i·g/(1 − f); None when f = 1 (no limit)."""
    return None if f >= 1.0 else i * g / (1.0 - f)


# -- survival along the cell state -----------------------------------------------------------------
def survival(f, k):
    """f^k: what is left of c_0 in c_k when every forget gate is f (the only path from c_0 to c_k)."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return np.power(np.asarray(f, dtype=float), k)


def bias_survival(b_f, k=20):
    """σ(b_f)^k: survival after k steps when the forget gate sits at its bias (weights near 0)."""
    return survival(sigmoid(b_f), k)


@lru_cache(maxsize=32)
def rnn_product(hops: int = 100, w_h: float = W_H, n: int | None = None) -> np.ndarray:
    """T2's product of per-hop factors tanh'(z)·W_h for the plain RNN on T2's chain of n tokens (hops + 1
    unless given): products[k] = gradient left after k hops back from its last state (products[0] = 1)."""
    n = n or hops + 1
    if n < hops + 1:
        raise ValueError(f"a chain of {n} tokens has {n - 1} hops, not {hops}")
    p = chain(n, w_h)[1][:hops + 1]
    p.setflags(write=False)
    return p


# -- parameter counts --------------------------------------------------------------------------------
BLOCKS = {"RNN": 1, "GRU": 3, "LSTM": 4}


def block(d: int) -> int:
    """One d×2d weight matrix acting on [h, x] plus a bias of d: 2d² + d."""
    return 2 * d * d + d


def param_count(cell: str, d: int) -> int:
    """Parameters of one cell with input width = state width = d (one bias per gate)."""
    return BLOCKS[cell] * block(d)


def width_for(cell: str, budget: float) -> float:
    """The state width d at which `cell` has `budget` parameters: solves blocks·(2d² + d) = budget."""
    per_block = budget / BLOCKS[cell]
    return (-1.0 + np.sqrt(1.0 + 8.0 * per_block)) / 4.0
