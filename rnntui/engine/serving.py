"""T8 `serving`: the cheat sheet (the LSTM cell in full), truncated BPTT, the KV cache, and the way back.

F22, the cell in full (T3's scalar LSTM on T1's eight tokens):

    a_• = W_•·x_t + U_•·h_{t-1} + b_•     pre-activation of gate • ∈ {f, i, g, o}
    f = σ(a_f)   i = σ(a_i)   g = tanh(a_g)   o = σ(a_o)
    c_t = f·c_{t-1} + i·g                 kept + written
    h_t = o·tanh(c_t)

F23, truncated BPTT with a window of k hops (T1's RNN, h_t = tanh(z_t), z_t = W_h·h_{t-1} + W_x·x_t + b):

    dh_T/dh_t = Π_{s=t+1..T} tanh'(z_s)·W_h    for t ≥ T − k + 1 (inside the window)
    dh_T/dh_t = 0                               outside: backward stops at the cut
    the forward pass is unchanged: h_t carries through all T steps for every k;
    activations stored for backward: k of T

F24, memory at serving time (bytes):

    KV cache        = 2 · layers · (width / gqa) · tokens · bytes      (a K and a V per layer, per token)
    recurrent state = layers · width · bytes                           (an LSTM keeps h and c: twice)

The way back, causal linear attention with φ(x) = elu(x) + 1 > 0, in two forms:

    parallel:   out_t = Σ_{i≤t} γ^{t−i} (φ(q_t)·φ(k_i)) v_i  /  Σ_{i≤t} γ^{t−i} φ(q_t)·φ(k_i)
    recurrent:  S_t = γ·S_{t−1} + φ(k_t) v_tᵀ    (d×d_v)
                z_t = γ·z_{t−1} + φ(k_t)         (d)
                out_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t

γ = 1 is plain linear attention (Katharopoulos et al. 2020); γ < 1 is the decayed (gated) form of
RetNet and, with a data-dependent γ_t, Mamba. The state is d·d_v + d numbers whatever n is; the
KV cache is 2·n·d. Capacity: a fixed state S = Σ_i k_i v_iᵀ recalls v̂_j = Sᵀk_j = v_j + Σ_{i≠j}
(k_i·k_j) v_i, exact for n ≤ d orthonormal keys; with random unit keys E(k_i·k_j)² = 1/d, so the
relative recall error is ≈ √((n − 1)/d). Written with a decay, S = Σ_i γ^{a_i} k_i v_iᵀ (a_i = n − 1 − i
writes since pair i), the recall also fades: v̂_j = γ^{a_j} v_j + Σ_{i≠j} γ^{a_i} (k_i·k_j) v_i, so the
error² is ≈ (1/n)·[Σ_a (1 − γ^a)² + (n − 1)/d · Σ_a γ^{2a}] (a = 0 … n − 1): the fade alone with
orthonormal keys, √((n − 1)/d) at γ = 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import math

import numpy as np

from rnntui.engine import N_
from rnntui.engine.lstm import GATES, WEIGHTS, lstm_states
from rnntui.engine.recurrence import B, TOKENS, W_H, W_X, rnn_states, tanh_slope


def _frozen(a) -> np.ndarray:
    a = np.array(a)
    a.setflags(write=False)
    return a


# -- F22: the LSTM cell in full --------------------------------------------------------------------
CELL_TERMS = ("x", "h_prev", "c_prev", "a_f", "a_i", "a_g", "a_o", "f", "i", "g", "o",
              "kept", "written", "c", "tanh_c", "h")


def cell_terms(tokens=TOKENS, weights=None, h0: float = 0.0, c0: float = 0.0) -> dict[str, np.ndarray]:
    """Every term of the scalar LSTM at every step, one array of len(tokens) per name in CELL_TERMS:
    the input x, h_{t-1}, c_{t-1}, pre-activations a_f … a_o, gates f, i, g, o, kept = f·c_{t-1},
    written = i·g, c_t, tanh(c_t) and h_t. Gates, c and h come from lstm.lstm_states."""
    w = weights or WEIGHTS
    x = np.asarray(tokens, dtype=float)
    s = lstm_states(x, w, h0, c0)
    h_prev = np.concatenate(([h0], s["h"][:-1]))
    c_prev = np.concatenate(([c0], s["c"][:-1]))
    out = {"x": x, "h_prev": h_prev, "c_prev": c_prev}
    for k in GATES:
        W, U, b = w[k]
        out[f"a_{k}"] = W * x + U * h_prev + b
    out.update({k: s[k] for k in GATES})
    out.update(kept=s["f"] * c_prev, written=s["i"] * s["g"], c=s["c"], tanh_c=np.tanh(s["c"]), h=s["h"])
    return {k: _frozen(out[k]) for k in CELL_TERMS}


# -- F23: truncated backpropagation through time -------------------------------------------------
K_DEFAULT = 4


def hop_factors(tokens=TOKENS, w_h=W_H, w_x=W_X, b=B) -> np.ndarray:
    """dh_t/dh_{t-1} = tanh'(z_t)·W_h for t = 0 … T−1 (entry 0 is the hop back to h0)."""
    z, _ = rnn_states(tokens, w_h, w_x, b)
    return tanh_slope(z) * w_h


def full_gradients(tokens=TOKENS, w_h=W_H, w_x=W_X, b=B) -> np.ndarray:
    """dh_{T-1}/dh_t for t = 0 … T−1, untruncated: the product of the hop factors after t."""
    fac = hop_factors(tokens, w_h, w_x, b)
    return np.append(np.cumprod(fac[:0:-1])[::-1], 1.0)


def window_mask(k: int, n: int = len(TOKENS)) -> np.ndarray:
    """True for the states the gradient reaches: the last k of n (t ≥ n − k)."""
    return np.arange(n) >= n - int(k)


def stored_activations(k: int, n: int = len(TOKENS)) -> int:
    """Activations kept for the backward pass: one per state in the window, min(k, n)."""
    return int(min(max(k, 0), n))


def window_gradients(k: int = K_DEFAULT, tokens=TOKENS, w_h=W_H, w_x=W_X, b=B) -> np.ndarray:
    """Truncated dh_{T-1}/dh_t: the backward pass walks k − 1 hops from h_{T-1} and stops, so the
    last k states get the full gradient and every earlier one exactly 0.0."""
    fac = hop_factors(tokens, w_h, w_x, b)
    n = len(fac)
    g = np.zeros(n)
    g[n - 1] = 1.0
    for t in range(n - 2, n - 1 - stored_activations(k, n), -1):
        g[t] = g[t + 1] * fac[t + 1]
    return g


def window_weight_gradient(k: int = K_DEFAULT, tokens=TOKENS, w_h=W_H, w_x=W_X, b=B, h0=0.0) -> float:
    """Truncated dh_{T-1}/dW_h = Σ_{t in window} dh_{T-1}/dh_t · tanh'(z_t) · h_{t-1}: what the
    update of W_h sees. k = T is the true derivative."""
    z, h = rnn_states(tokens, w_h, w_x, b, h0)
    h_prev = np.concatenate(([h0], h[:-1]))
    return float(np.sum(window_gradients(k, tokens, w_h, w_x, b) * tanh_slope(z) * h_prev))


@dataclass(frozen=True, eq=False)
class Window:
    """F23 at window k. z, h: the forward pass (the same for every k); grads: dh_{n-1}/dh_t
    (0.0 outside); inside: the mask of states in the window; stored: activations kept, of n."""
    k: int
    n: int
    z: np.ndarray
    h: np.ndarray
    grads: np.ndarray
    inside: np.ndarray
    stored: int


def window(k: int = K_DEFAULT, tokens=TOKENS, w_h=W_H, w_x=W_X, b=B) -> Window:
    """Everything F23 draws at window k (1 … n)."""
    z, h = rnn_states(tokens, w_h, w_x, b)
    n = len(h)
    return Window(k=int(k), n=n, z=_frozen(z), h=_frozen(h), grads=_frozen(window_gradients(k, tokens, w_h, w_x, b)),
                  inside=_frozen(window_mask(k, n)), stored=stored_activations(k, n))


# -- F24: KV cache vs recurrent state ------------------------------------------------------------
LAYERS = 32
WIDTH = 4096
DTYPE_BYTES = {"fp16": 2, "fp32": 4}
DTYPE = "fp16"
GQA_GROUPS = (1, 4, 8)
CONTEXT_MIN, CONTEXT_MAX = 128, 131_072  # 2**7 … 2**17, ×2 steps
KIB, MIB, GIB = 2**10, 2**20, 2**30
# an "80 GB" accelerator holds 80 GiB (an A100's 81,920 MiB), as the source's "64 GB" cache is 2^36 B: 80·10⁹ B
# made 64 GiB 85.9% of it, not 80% (a maths audit)
ACCELERATOR_BYTES = 80 * GIB


def contexts(lo: int = CONTEXT_MIN, hi: int = CONTEXT_MAX) -> np.ndarray:
    """Context lengths lo, 2·lo, … up to hi (int64): 128 … 131,072 is 11 points."""
    out = [lo]
    while out[-1] * 2 <= hi:
        out.append(out[-1] * 2)
    return np.array(out, dtype=np.int64)


def kv_width(width: int = WIDTH, gqa: int = 1) -> int:
    """Width of the stored K (and V) per layer: width / gqa (gqa query heads share one K/V head)."""
    if width % gqa:
        raise ValueError(f"width {width} is not divisible by gqa {gqa}")
    return width // gqa


def kv_cache_bytes(tokens, layers: int = LAYERS, width: int = WIDTH, gqa: int = 1, dtype: str = DTYPE):
    """2 · layers · (width / gqa) · tokens · bytes: exact integers (int or int64 array)."""
    per_token = 2 * layers * kv_width(width, gqa) * DTYPE_BYTES[dtype]
    if np.ndim(tokens):
        return np.asarray(tokens, dtype=np.int64) * per_token
    return int(tokens) * per_token


def recurrent_state_bytes(layers: int = LAYERS, width: int = WIDTH, dtype: str = DTYPE, cell: str = "rnn") -> int:
    """layers · width · bytes, whatever the context; an LSTM ("lstm") keeps h and c: twice that."""
    copies = {"rnn": 1, "lstm": 2}[cell]
    return copies * layers * width * DTYPE_BYTES[dtype]


def accelerator_share(nbytes, capacity: float = ACCELERATOR_BYTES):
    """The fraction of an accelerator's memory (80 GiB by default) these bytes take."""
    return np.asarray(nbytes, dtype=float) / capacity if np.ndim(nbytes) else nbytes / capacity


def full_at(capacity: float = ACCELERATOR_BYTES, layers: int = LAYERS, width: int = WIDTH, gqa: int = 1,
            dtype: str = DTYPE) -> int:
    """The shortest context whose KV cache alone is over `capacity` bytes: ⌊capacity / bytes a token⌋ + 1."""
    return int(capacity // kv_cache_bytes(1, layers, width, gqa, dtype)) + 1


@dataclass(frozen=True, eq=False)
class KvSeries:
    """F24's two curves against context (for a log–log plot). tokens: int64; kv and state: bytes
    (int64, state is constant); ratio = kv / state (float); share = kv / 80 GiB (float)."""
    layers: int
    width: int
    gqa: int
    dtype: str
    tokens: np.ndarray
    kv: np.ndarray
    state: np.ndarray
    ratio: np.ndarray
    share: np.ndarray


def kv_series(layers: int = LAYERS, width: int = WIDTH, gqa: int = 1, dtype: str = DTYPE,
              cell: str = "rnn", lo: int = CONTEXT_MIN, hi: int = CONTEXT_MAX) -> KvSeries:
    """KV cache and recurrent-state bytes at every context in contexts(lo, hi)."""
    n = contexts(lo, hi)
    kv = kv_cache_bytes(n, layers, width, gqa, dtype)
    state = np.full_like(n, recurrent_state_bytes(layers, width, dtype, cell))
    return KvSeries(layers, width, gqa, dtype, _frozen(n), _frozen(kv), _frozen(state),
                    _frozen(kv / state), _frozen(accelerator_share(kv)))


# -- the way back: linear attention, two ways --------------------------------------------------------
N_WAYBACK, D_WAYBACK, SEED = 12, 8, 0
GAMMA_RANGE = (0.80, 1.00)


def phi(x) -> np.ndarray:
    """The feature map φ(x) = elu(x) + 1: x + 1 for x > 0, e^x otherwise; always > 0."""
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def seeded_qkv(n: int = N_WAYBACK, d: int = D_WAYBACK, seed: int = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A small reproducible input: q, k, v each n×d, standard normal."""
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    return q, k, v


def decay_mask(n: int, gamma: float = 1.0) -> np.ndarray:
    """M[t, i] = γ^{t−i} for i ≤ t, 0 above the diagonal (γ = 1: the causal mask)."""
    t, i = np.indices((n, n))
    return np.where(i <= t, float(gamma) ** np.maximum(t - i, 0), 0.0)


def attention_weights(q, k, gamma: float = 1.0) -> np.ndarray:
    """The parallel form's n×n matrix A = (φ(Q) φ(K)ᵀ) ⊙ M, unnormalised."""
    return (phi(q) @ phi(k).T) * decay_mask(len(q), gamma)


def linear_attention_parallel(q, k, v, gamma: float = 1.0) -> np.ndarray:
    """out = A V / (A 1), rows normalised: all n outputs at once (n×d_v)."""
    a = attention_weights(q, k, gamma)
    return (a @ np.asarray(v, dtype=float)) / a.sum(axis=1, keepdims=True)


def recurrent_step(S, z, q_t, k_t, v_t, gamma: float = 1.0):
    """One step of the recurrent form: S_t = γS + φ(k_t)v_tᵀ, z_t = γz + φ(k_t),
    out_t = φ(q_t)ᵀS_t / φ(q_t)ᵀz_t. Returns (S_t, z_t, out_t)."""
    fk, fq = phi(k_t), phi(q_t)
    S = gamma * S + np.outer(fk, v_t)
    z = gamma * z + fk
    return S, z, (fq @ S) / (fq @ z)


def linear_attention_recurrent(q, k, v, gamma: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The recurrent form over all steps: (S, z, out) with S: n×d×d_v (S_t after step t),
    z: n×d, out: n×d_v. Only S_t and z_t are needed to go on: memory does not grow with n."""
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    n, d = k.shape
    S, z = np.zeros((d, v.shape[1])), np.zeros(d)
    Ss, zs, outs = [], [], []
    for t in range(n):
        S, z, o = recurrent_step(S, z, q[t], k[t], v[t], gamma)
        Ss.append(S)
        zs.append(z)
        outs.append(o)
    return np.array(Ss), np.array(zs), np.array(outs)


def state_numbers(d: int = D_WAYBACK, d_v: int | None = None) -> int:
    """Numbers in the recurrent state: S (d×d_v) plus the normaliser z (d); independent of n."""
    return d * (d if d_v is None else d_v) + d


def kv_numbers(n: int, d: int = D_WAYBACK) -> int:
    """Numbers softmax attention keeps for n tokens: a key and a value each, 2·n·d."""
    return 2 * n * d


def decay_left(gamma: float, steps: int) -> float:
    """γ^steps: what is left of a write after `steps` decays (0.95^100 ≈ 0.0059)."""
    return float(gamma) ** steps


@dataclass(frozen=True, eq=False)
class WaybackStep:
    """The two forms at step t (0-based). S (d×d), z (d): the recurrent state after token t;
    weights (n): row t of the parallel matrix, normalised, 0 for i > t; out_parallel,
    out_recurrent (d): out_t both ways; diff: max |difference|; state / kv: numbers held."""
    t: int
    gamma: float
    S: np.ndarray
    z: np.ndarray
    weights: np.ndarray
    out_parallel: np.ndarray
    out_recurrent: np.ndarray
    diff: float
    state: int
    kv: int


def wayback_run(gamma: float = 1.0, n: int = N_WAYBACK, d: int = D_WAYBACK, seed: int = SEED) -> tuple:
    """Both forms over all n steps of seeded_qkv(n, d, seed), read-only: the parallel form's
    unnormalised matrix A, the recurrent states S (n×d×d) and z (n×d), its outputs (n×d) and v. The
    recurrence is causal, so step t of this run is the run over the first t + 1 tokens; stepping t
    reads it instead of running it again (kept per γ, n, d, seed)."""
    return _run(float(gamma), int(n), int(d), int(seed))


@lru_cache(maxsize=16)
def _run(gamma: float, n: int, d: int, seed: int) -> tuple:
    q, k, v = seeded_qkv(n, d, seed)
    S, z, out = linear_attention_recurrent(q, k, v, gamma)
    return tuple(_frozen(a) for a in (attention_weights(q, k, gamma), S, z, out, v))


def wayback_step(t: int, gamma: float = 1.0, n: int = N_WAYBACK, d: int = D_WAYBACK, seed: int = SEED) -> WaybackStep:
    """Both forms on seeded_qkv(n, d, seed) at step t."""
    a, S, z, out, v = wayback_run(gamma, n, d, seed)
    row = a[t] / a[t].sum()
    par = row @ v
    return WaybackStep(int(t), float(gamma), S[t], z[t], _frozen(row), _frozen(par),
                       out[t], float(np.max(np.abs(par - out[t]))), state_numbers(d), kv_numbers(t + 1, d))


# -- capacity of a fixed state ------------------------------------------------------------------
def recall_closed_form(n, d: int = D_WAYBACK, gamma: float = 1.0):
    """Expected relative recall error of n pairs written with random unit keys into S_t = γS_{t−1} + k_t v_tᵀ:
    √((1/n)·[Σ_a (1 − γ^a)² + (n − 1)/d · Σ_a γ^{2a}]) over a = 0 … n − 1 (the fade, the overlap);
    √((n − 1)/d) at γ = 1."""
    def one(m: float) -> float:
        g = float(gamma) ** np.arange(int(m), dtype=float)  # γ^a, a = 0 … m − 1
        return math.sqrt((np.sum((1.0 - g) ** 2) + (m - 1.0) / d * np.sum(g ** 2)) / m)
    return np.vectorize(one, otypes=[float])(np.asarray(n, dtype=float))


def unit_keys(g: np.ndarray, n: int, orthonormal: bool) -> np.ndarray:
    """n keys of length 1 from standard normal draws g (… × rows × d, a stack of trials): the first n
    of an orthonormal basis made from d×d draws, or the n drawn directions scaled to length 1."""
    if orthonormal:
        return np.linalg.qr(g)[0][..., :n, :]  # rows of Q: orthonormal, as Q is square
    return g / np.linalg.norm(g, axis=-1, keepdims=True)


def recall_error(n: int, d: int = D_WAYBACK, orthonormal: bool = False, trials: int = 200, seed: int = SEED,
                 gamma: float = 1.0) -> float:
    """Measured relative error of recalling n values from the state after n writes S_t = γS_{t−1} + k_t v_tᵀ
    (S = Σ_i γ^{n−1−i} k_i v_iᵀ) by v̂_j = Sᵀk_j: √(Σ‖V̂ − V‖² / Σ‖V‖²) pooled over `trials` seeded draws
    (values standard normal, d-wide). Each trial draws its keys (d×d for an orthonormal basis, n×d
    otherwise), then its values: the same draws at every γ."""
    if orthonormal and n > d:
        raise ValueError(f"only {d} orthonormal keys fit in {d} dimensions, not {n}")
    K, V = _pairs(n, d, orthonormal, trials, seed)
    decay = float(gamma) ** np.arange(n - 1, -1, -1, dtype=float)  # γ^{n−1−i}: pair i's writes since
    S = K.transpose(0, 2, 1) @ (decay[:, None] * V)
    return float(np.sqrt(np.sum((K @ S - V) ** 2) / np.sum(V ** 2)))


@lru_cache(maxsize=256)
def _pairs(n: int, d: int, orthonormal: bool, trials: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The keys and values recall_error draws for n pairs, drawn once for every γ (a press of γ drew them all
    again: ~40 ms a key on serving/wayback)."""
    rows = d if orthonormal else n
    draws = np.random.default_rng(seed).standard_normal((trials, (rows + n) * d))  # all trials at once
    K = unit_keys(draws[:, : rows * d].reshape(trials, rows, d), n, orthonormal)
    V = draws[:, rows * d:].reshape(trials, n, d)
    for a in (K, V):
        a.setflags(write=False)
    return K, V


@dataclass(frozen=True, eq=False)
class RecallCurve:
    """Recall error against the number of stored pairs n, written with decay γ. orthonormal: NaN where
    n > d; random: measured with random unit keys; closed_form: what random keys give on average."""
    d: int
    n: np.ndarray
    orthonormal: np.ndarray
    random: np.ndarray
    closed_form: np.ndarray
    gamma: float = 1.0


def recall_curve(ns=range(1, 4 * D_WAYBACK + 1), d: int = D_WAYBACK, trials: int = 200,
                 seed: int = SEED, gamma: float = 1.0) -> RecallCurve:
    """recall_error for each n in ns, both kinds of keys, beside the closed form, at decay γ."""
    ns = np.asarray(list(ns), dtype=int)
    ortho = [recall_error(n, d, True, trials, seed, gamma) if n <= d else np.nan for n in ns]
    rand = [recall_error(n, d, False, trials, seed, gamma) for n in ns]
    return RecallCurve(d, _frozen(ns), _frozen(ortho), _frozen(rand), _frozen(recall_closed_form(ns, d, gamma)),
                       float(gamma))


# -- who came back --------------------------------------------------------------------------------
ARCHITECTURES: tuple[tuple[str, str], ...] = (  # (msgids: the view translates them)
    (N_("linear attention"), N_("Softmax swapped for a positive feature map, so the past folds into one d×d state.")),
    ("RetNet", N_("Linear attention with a fixed decay γ per head: parallel to train, a d×d state to serve.")),
    ("Mamba", N_("A state-space recurrence whose decay and write depend on the input, run as a parallel scan.")),
    ("RWKV", N_("An RNN whose channels decay at learned rates, written so training runs like a Transformer.")),
)
