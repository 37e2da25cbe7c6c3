"""T8 `serving`: the LSTM cell in full, truncated BPTT, the KV cache against a recurrent state, and
the way back (linear attention computed as a matrix and as a recurrence)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar


from rnntui.engine import serving as sv
from rnntui.engine.lstm import WEIGHTS
from rnntui.engine.recurrence import LAST_T, N_TOKENS, TOKENS
from rnntui.i18n import N_
from rnntui.state import FigureState, param

GATES = ("f", "i", "g", "o")
DECAY_STEPS = 100  # γ^100: what is left of a write after 100 steps (T3's f^k at k = 100)
N_WAY, D_WAY = sv.N_WAYBACK, sv.D_WAYBACK
RECALL_MAX = 4 * D_WAY  # the capacity plot runs n = 1 … 32
CONTEXTS = tuple(int(n) for n in sv.contexts())  # 128 … 131,072, ×2 steps


def _step(default: int = 0, last: int = LAST_T):  # the token-track step every figure of T1's track names the same
    return param(default, "int", lo=0, hi=last, label="t", fmt="d")


# -- F22: the cell in full ---------------------------------------------------------------------
@dataclass(frozen=True)
class CellReadings:
    tokens: tuple[float, ...]
    weights: dict  # gate → (W, U, b), T3's weights
    c: tuple[float, ...]  # c_t for every step (the track shows 0 … t)
    h: tuple[float, ...]
    terms: dict  # every term of the cell at the current step (names as engine.serving.CELL_TERMS)


@dataclass(frozen=True)
class CellState(FigureState):
    """F22: the scalar LSTM (T3's weights) on T1's eight tokens; every term at step t."""

    step: int = _step()

    def read(self) -> CellReadings:
        all_terms = sv.cell_terms()
        terms = {k: float(v[self.step]) for k, v in all_terms.items()}
        return CellReadings(TOKENS, {k: tuple(WEIGHTS[k]) for k in GATES}, tuple(all_terms["c"].tolist()),
                            tuple(all_terms["h"].tolist()), terms)


# -- F23: truncated BPTT -----------------------------------------------------------------------
@dataclass(frozen=True)
class WindowReadings:
    tokens: tuple[float, ...]
    n: int
    h: tuple[float, ...]  # the forward pass: the same for every window
    h_last: float
    grads: tuple[float, ...]  # dh_{n-1}/dh_t, exactly 0.0 outside the window
    full_grads: tuple[float, ...]  # untruncated, for comparison
    inside: tuple[bool, ...]  # the states the backward pass reaches
    first_inside: int  # the window's first position, n − k
    stored: int  # activations kept for backward, k of n
    dropped: int  # states whose gradient is cut to 0
    weight_grad: float  # truncated dh_{n-1}/dW_h (what the update sees)
    weight_grad_full: float  # the true derivative (k = n)


@dataclass(frozen=True)
class WindowState(FigureState):
    """F23: backward stops k states back; the forward pass still runs through all of them."""

    AXIS: ClassVar[str] = "window"
    window: int = param(sv.K_DEFAULT, "int", lo=1, hi=N_TOKENS, label="window k", fmt="d")

    def read(self) -> WindowReadings:
        w = sv.window(self.window)
        return WindowReadings(TOKENS, w.n, tuple(w.h.tolist()), float(w.h[-1]), tuple(w.grads.tolist()),
                              tuple(sv.full_gradients().tolist()), tuple(bool(b) for b in w.inside),
                              w.n - w.stored, w.stored, w.n - w.stored,
                              sv.window_weight_gradient(self.window), sv.window_weight_gradient(w.n))


# -- F24: KV cache vs recurrent state ----------------------------------------------------------
@dataclass(frozen=True)
class KvReadings:
    layers: int
    width: int
    kv_width: int  # width / gqa: the stored K (and V) per layer
    dtype_bytes: int
    tokens: tuple[int, ...]  # the plot's x: 128 … 131,072
    kv_curve: tuple[int, ...]  # KV cache bytes at each context
    state_curve: tuple[int, ...]  # recurrent state bytes (constant)
    kv_bytes: int  # at the current context
    kv_bytes_mha: int  # the same without sharing (gqa = 1)
    state_bytes: int  # an RNN's h per layer
    lstm_bytes: int  # an LSTM keeps h and c: twice
    ratio: int  # kv / state (both powers of two: exact)
    accelerator_bytes: float  # an "80 GB" accelerator: 80 GiB
    share: float  # kv / accelerator_bytes
    fits: bool  # the cache alone fits on one accelerator
    full_at: int  # the first context whose cache alone is over the accelerator's bytes


@dataclass(frozen=True)
class KvState(FigureState):
    """F24: bytes a Transformer keeps per sequence (grows with context) against a recurrent state."""

    AXIS: ClassVar[str] = "context"
    context: int = param(4096, "int", lo=CONTEXTS[0], hi=CONTEXTS[-1], label="context", fmt=",d", values=CONTEXTS)
    gqa: str = param("1", "choice", choices=tuple(str(g) for g in sv.GQA_GROUPS), key="g", label="gqa",
                     means=N_("query heads that share one K, V head (grouped-query attention); 1: each keeps its own"))
    dtype: str = param(sv.DTYPE, "choice", choices=tuple(sv.DTYPE_BYTES), key="d", label="dtype",
                       means=N_("the number format: fp16 takes 2 bytes a number, fp32 4"))

    def read(self) -> KvReadings:
        g = int(self.gqa)
        s = sv.kv_series(gqa=g, dtype=self.dtype)
        kv = sv.kv_cache_bytes(self.context, gqa=g, dtype=self.dtype)
        state = sv.recurrent_state_bytes(dtype=self.dtype)
        return KvReadings(sv.LAYERS, sv.WIDTH, sv.kv_width(sv.WIDTH, g), sv.DTYPE_BYTES[self.dtype],
                          tuple(s.tokens.tolist()), tuple(s.kv.tolist()), tuple(s.state.tolist()), kv,
                          sv.kv_cache_bytes(self.context, dtype=self.dtype), state,
                          sv.recurrent_state_bytes(dtype=self.dtype, cell="lstm"), kv // state,
                          sv.ACCELERATOR_BYTES, float(sv.accelerator_share(kv)), kv <= sv.ACCELERATOR_BYTES,
                          sv.full_at(gqa=g, dtype=self.dtype))


# -- the way back: linear attention two ways -----------------------------------------------------
@lru_cache(maxsize=16)
def _masked_rows(gamma: float) -> tuple:
    """The masked matrix with its rows normalised (how it trains): the same at every step."""
    a = sv.wayback_run(gamma)[0]
    return tuple(tuple(r) for r in (a / a.sum(axis=1, keepdims=True)).tolist())


@lru_cache(maxsize=32)
def _recall(gamma: float = 1.0) -> sv.RecallCurve:
    """Recall error for n = 1 … 4d pairs written with decay γ into d = 8 (seeded, computed once per γ)."""
    return sv.recall_curve(range(1, RECALL_MAX + 1), D_WAY, gamma=gamma)


@dataclass(frozen=True)
class WaybackReadings:
    n: int
    d: int
    weights: tuple[float, ...]  # row t of the masked n×n matrix, normalised (0 for i > t)
    matrix: tuple[tuple[float, ...], ...]  # the whole masked matrix, rows normalised (how it trains)
    out_parallel: tuple[float, ...]  # out_t from the matrix
    out_recurrent: tuple[float, ...]  # out_t from the state S_t
    diff: float  # the largest |difference| of the two: rounding
    S: tuple[tuple[float, ...], ...]  # the state after token t, d×d
    z: tuple[float, ...]  # the normaliser, d
    state_numbers: int  # d·d + d, whatever n is
    kv_numbers: int  # 2·(t+1)·d: what softmax attention keeps for the same tokens
    kv_numbers_all: int  # 2·n·d at the last token
    decay_steps: int
    decay_left: float  # γ^100
    stored: int  # pairs written into the state so far (t + 1)
    orthonormal_fits: bool  # stored ≤ d: orthonormal keys exist (recall exact at γ = 1, faded below)
    recall_orthonormal: float  # NaN when more than d keys (no d+1 orthonormal keys exist)
    recall_random: float  # measured with random unit keys
    recall_closed_form: float  # what random keys give on average at this γ: √((stored − 1)/d) at γ = 1
    recall_n: tuple[int, ...]  # the capacity plot: n = 1 … 32 pairs
    recall_random_curve: tuple[float, ...]
    recall_closed_curve: tuple[float, ...]
    recall_orthonormal_curve: tuple[float, ...]  # n = 1 … d only
    architectures: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class WaybackState(FigureState):
    """The way back: one causal linear attention as a masked matrix (train) and as a recurrence (serve)."""

    READ_AHEAD: ClassVar[bool] = True  # the capacity curve's 200 trials: ~50 ms

    step: int = _step(0, N_WAY - 1)
    gamma: float = param(1.0, lo=sv.GAMMA_RANGE[0], hi=sv.GAMMA_RANGE[1], notch=0.01, label="γ")

    def read(self) -> WaybackReadings:
        w = sv.wayback_step(self.step, self.gamma)
        rc, j = _recall(float(self.gamma)), self.step
        return WaybackReadings(N_WAY, D_WAY, tuple(w.weights.tolist()), _masked_rows(float(self.gamma)),
                               tuple(w.out_parallel.tolist()), tuple(w.out_recurrent.tolist()), w.diff,
                               tuple(tuple(r) for r in w.S.tolist()), tuple(w.z.tolist()), w.state, w.kv,
                               sv.kv_numbers(N_WAY, D_WAY), DECAY_STEPS, sv.decay_left(self.gamma, DECAY_STEPS),
                               j + 1, j + 1 <= D_WAY, float(rc.orthonormal[j]), float(rc.random[j]), float(rc.closed_form[j]),
                               tuple(rc.n.tolist()), tuple(rc.random.tolist()), tuple(rc.closed_form.tolist()),
                               tuple(rc.orthonormal[: D_WAY].tolist()), sv.ARCHITECTURES)
