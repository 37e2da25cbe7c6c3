"""One Transformer encoder layer on T5's toy sentence, stage by stage; and its bill (parameters, FLOPs).

Post-norm (Vaswani 2017, seed 004 §5.7: output = LayerNorm(x + SubLayer(x))):
    a = MHA(x)          r₁ = x + a          n₁ = LN(r₁)
    f = FFN(n₁)         r₂ = n₁ + f         out = LN(r₂)
Pre-norm (GPT-2, LLaMA; no final LN inside the layer):
    n₁ = LN(x)          a = MHA(n₁)         r₁ = x + a
    n₂ = LN(r₁)         f = FFN(n₂)         out = r₁ + f

    MHA(x)     = Concat(head_1 … head_h)·W_o + b_o,  head_j = softmax(Q_j K_jᵀ/√d_k + mask)·V_j,
                 Q = x·W_q + b_q (and K, V), split by columns into h heads of d_k = d/h
    LN(x)      = γ·(x − μ)/√(σ² + ε) + β per row (μ, σ² over the row's d features, σ² biased), ε = 1e-5
    FFN(x)     = act(x·W₁ + b₁)·W₂ + b₂,  act = relu or gelu (exact: x·Φ(x))
    SwiGLU(x)  = (SiLU(x·W₁) ⊙ x·W₃)·W₂,  SiLU(z) = z·σ(z), no biases (LLaMA)

Parameters per layer: attention 4d² + 4d, FFN 2·d·d_ff + d_ff + d (SwiGLU 3·d·d_ff), two LayerNorms
4d. d = 768, d_ff = 3072 (BERT-base): 7,087,872 a layer, 85,054,464 for 12; d = 512, d_ff = 2048
(Vaswani base): 3,152,384.
Multiply–adds for n tokens: projections 4·n·d², scores n²·d, weighted sum n²·d, FFN 2·n·d·d_ff
(SwiGLU 3·n·d·d_ff): the attention core grows as n²·d, everything else as n·d².
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rnntui.engine import attention as at

ACTIVATIONS = ("relu", "gelu", "swiglu")
NORMS = ("post", "pre")
LAYER_D, LAYER_DFF, LAYER_HEADS = 4, 16, 2
LN_EPS = 1e-5
LAYER_SEED = 19


# -- the pieces ------------------------------------------------------------------------------------
def layer_norm(x, gamma=1.0, beta=0.0, eps: float = LN_EPS) -> np.ndarray:
    """γ·(x − μ)/√(σ² + ε) + β over each row's features (σ² the biased variance, as torch)."""
    x = np.asarray(x, dtype=float)
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def relu(z) -> np.ndarray:
    return np.maximum(np.asarray(z, dtype=float), 0.0)


_erf = np.vectorize(math.erf, otypes=[float])


def gelu(z) -> np.ndarray:
    """z·Φ(z) = z·(1 + erf(z/√2))/2, the exact form (torch's default)."""
    z = np.asarray(z, dtype=float)
    return 0.5 * z * (1.0 + _erf(z / math.sqrt(2.0)))


def silu(z) -> np.ndarray:
    """z·σ(z)."""
    z = np.asarray(z, dtype=float)
    return z / (1.0 + np.exp(-z))


# -- weights -----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class LayerWeights:
    """All of one encoder layer's parameters, in x·W orientation (torch's Linear stores Wᵀ)."""
    heads: int
    activation: str
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    b_q: np.ndarray
    b_k: np.ndarray
    b_v: np.ndarray
    b_o: np.ndarray
    w1: np.ndarray
    w2: np.ndarray
    b1: np.ndarray | None  # None for SwiGLU
    b2: np.ndarray | None
    w3: np.ndarray | None  # SwiGLU's gate, None otherwise
    gamma1: np.ndarray
    beta1: np.ndarray
    gamma2: np.ndarray
    beta2: np.ndarray

    @property
    def d(self) -> int:
        return self.w_q.shape[0]

    @property
    def d_ff(self) -> int:
        return self.w1.shape[1]


def layer_weights(activation: str = "relu", d: int = LAYER_D, d_ff: int = LAYER_DFF, heads: int = LAYER_HEADS,
                  seed: int = LAYER_SEED, toy_attention: bool = True) -> LayerWeights:
    """Seeded small weights. With toy_attention (needs d = 4) the attention is T5's toy W_q, W_k, W_v
    with W_o = I and zero biases, so the layer's attention stage is the heads figure's; the FFN is
    N(0,1)/√fan_in with N(0, 0.1²) biases, γ = 1, β = 0. Without it every parameter, γ and β included,
    is drawn (for checking against torch)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}: {', '.join(ACTIVATIONS)}")
    rng = np.random.default_rng([seed, d, d_ff])
    dense = lambda i, o: rng.standard_normal((i, o)) / math.sqrt(i)  # noqa: E731
    small = lambda n: 0.1 * rng.standard_normal(n)  # noqa: E731
    if toy_attention:
        if d != at.D_K:
            raise ValueError(f"the toy attention has d = {at.D_K}, not {d}")
        attn = (at.W_Q_TOY, at.W_K_TOY, at.W_V_TOY, np.eye(d), *(np.zeros(d) for _ in range(4)))
    else:
        attn = (*(dense(d, d) for _ in range(4)), *(small(d) for _ in range(4)))
    swiglu = activation == "swiglu"
    w1, w2 = dense(d, d_ff), dense(d_ff, d)
    b1, b2 = (None, None) if swiglu else (small(d_ff), small(d))
    w3 = dense(d, d_ff) if swiglu else None
    if toy_attention:
        norms = (np.ones(d), np.zeros(d), np.ones(d), np.zeros(d))
    else:
        norms = (1 + small(d), small(d), 1 + small(d), small(d))
    arrays = [np.array(a, dtype=float) if a is not None else None for a in (*attn, w1, w2, b1, b2, w3, *norms)]
    return LayerWeights(heads, activation, *arrays)


# -- the layer ---------------------------------------------------------------------------------------
def attention_sublayer(x, w: LayerWeights, mask_kind: str = "full") -> np.ndarray:
    """Multi-head self-attention with the layer's weights (an encoder: full mask)."""
    return at.multihead(x, w.w_q, w.w_k, w.w_v, w.w_o, w.heads, mask_kind, w.b_q, w.b_k, w.b_v, w.b_o)


def ffn_hidden(x, w: LayerWeights) -> np.ndarray:
    """The d_ff-wide middle: act(x·W₁ + b₁), or SiLU(x·W₁) ⊙ x·W₃ for SwiGLU."""
    x = np.asarray(x, dtype=float)
    if w.activation == "swiglu":
        return silu(x @ w.w1) * (x @ w.w3)
    z = x @ w.w1 + w.b1
    return relu(z) if w.activation == "relu" else gelu(z)


def ffn(x, w: LayerWeights) -> np.ndarray:
    """FFN(x) = hidden·W₂ + b₂ (no b₂ for SwiGLU): the same little network at every position."""
    out = ffn_hidden(x, w) @ w.w2
    return out if w.b2 is None else out + w.b2


@dataclass(frozen=True, eq=False)
class LayerStages:
    """Every intermediate of one layer, in order: (name, n×d or n×d_ff array)."""
    norm: str
    activation: str
    stages: tuple[tuple[str, np.ndarray], ...]

    @property
    def out(self) -> np.ndarray:
        return self.stages[-1][1]

    def get(self, name: str) -> np.ndarray:
        return dict(self.stages)[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.stages)


def encoder_layer(x, w: LayerWeights, norm: str = "post", mask_kind: str = "full") -> LayerStages:
    """Run one layer; every stage comes back (names as in the module docstring)."""
    x = np.asarray(x, dtype=float)
    ln1 = lambda z: layer_norm(z, w.gamma1, w.beta1)  # noqa: E731
    ln2 = lambda z: layer_norm(z, w.gamma2, w.beta2)  # noqa: E731
    if norm == "post":
        a = attention_sublayer(x, w, mask_kind)
        r1 = x + a
        n1 = ln1(r1)
        hid = ffn_hidden(n1, w)
        f = ffn(n1, w)
        r2 = n1 + f
        st = (("x", x), ("attn", a), ("x+attn", r1), ("LN₁", n1), ("hidden", hid), ("FFN", f),
              ("+FFN", r2), ("LN₂", ln2(r2)))
    elif norm == "pre":
        n1 = ln1(x)
        a = attention_sublayer(n1, w, mask_kind)
        r1 = x + a
        n2 = ln2(r1)
        hid = ffn_hidden(n2, w)
        f = ffn(n2, w)
        st = (("x", x), ("LN₁", n1), ("attn", a), ("x+attn", r1), ("LN₂", n2), ("hidden", hid), ("FFN", f),
              ("+FFN", r1 + f))
    else:
        raise ValueError(f"unknown norm {norm!r}: {', '.join(NORMS)}")
    return LayerStages(norm, activation=w.activation, stages=st)


@lru_cache(maxsize=16)
def toy_layer(norm: str = "post", activation: str = "relu") -> LayerStages:
    """The layer on T5's toy sentence with layer_weights(activation) (cached; its arrays are read-only)."""
    s = encoder_layer(at.X_TOY, layer_weights(activation), norm)
    for _, a in s.stages:
        a.flags.writeable = False
    return s


# -- the bill ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParamCount:
    d: int
    d_ff: int
    layers: int
    activation: str
    attention: int  # 4d² + 4d
    ffn: int        # 2·d·d_ff + d_ff + d (SwiGLU: 3·d·d_ff)
    norms: int      # 2 × (γ, β) = 4d
    per_layer: int
    total: int


def param_count(d: int, d_ff: int, layers: int = 1, activation: str = "relu") -> ParamCount:
    attn = at.attention_params(d)
    f = 3 * d * d_ff if activation == "swiglu" else 2 * d * d_ff + d_ff + d
    norms = 4 * d
    per = attn + f + norms
    return ParamCount(d, d_ff, layers, activation, attn, f, norms, per, per * layers)


@dataclass(frozen=True)
class LayerFlops:
    """FLOPs of one layer's matrix products for n tokens, a multiply and an add each, as parallel's
    timing counts them (softmax, LN, adds left out). They were multiply–adds, shown as FLOPs."""
    n: int
    d: int
    d_ff: int
    projections: int   # Q, K, V, O: 8·n·d²
    scores: int        # Q·Kᵀ: 2·n²·d
    weighted_sum: int  # A·V: 2·n²·d
    ffn: int           # 4·n·d·d_ff (SwiGLU 6·n·d·d_ff)

    @property
    def attention_core(self) -> int:
        """The part that grows with n²: 4·n²·d."""
        return self.scores + self.weighted_sum

    @property
    def dense(self) -> int:
        """The part that grows with n: projections + FFN."""
        return self.projections + self.ffn

    @property
    def total(self) -> int:
        return self.attention_core + self.dense

    @property
    def core_share(self) -> float:
        return self.attention_core / self.total


def layer_flops(n: int, d: int, d_ff: int | None = None, activation: str = "relu") -> LayerFlops:
    d_ff = 4 * d if d_ff is None else d_ff
    f = 2 * (3 if activation == "swiglu" else 2) * n * d * d_ff
    return LayerFlops(n, d, d_ff, 8 * n * d * d, 2 * n * n * d, 2 * n * n * d, f)
