"""T5 `attention`: attention as a lookup, computed stage by stage.

Scaled dot-product self-attention over the rows of X (one row per token):

    Q = X·W_q      K = X·W_k      V = X·W_v                 (row t of Q is q_t, and so on)
    S = Q·Kᵀ / √d_k                                          S[t, i] = q_t·k_i / √d_k
    Ŝ[t, i] = S[t, i] where the mask lets t see i, else −∞
    A = softmax of each row of Ŝ                             A[t, i] = exp(Ŝ[t, i]) / Σ_j exp(Ŝ[t, j])
    out = A·V                                                out_t = Σ_i A[t, i]·v_i

Masks (visible[t, i] = query t may read key i):
    causal  i ≤ t   (the default; a decoder, GPT)
    full    every i (an encoder, BERT)
    strict  i < t   (seed 002's own wording "t sees i < t"): row 0 sees nothing, its softmax is
                    0/0 and comes out NaN — deliberately, without a warning.

Why √d_k: for q, k ~ N(0, I) in d_k dimensions, q·k = Σ q_j k_j has mean 0 and variance d_k, so
unscaled scores spread out as d_k grows and the softmax saturates towards one-hot; its Jacobian
∂a/∂s = diag(a) − a·aᵀ then goes to 0. Dividing by √d_k brings the variance back to 1.
With 8 keys and 4000 draws (seeded): unscaled, the mean largest weight is 0.87 at d_k = 64 and 0.96
at 512; scaled it stays near 0.36 (0.345 at d_k = 4, 0.358–0.363 from 16 on). At d_k = 1 scaling does
nothing and the reading is 0.30, not 0.36: there q·k is a product of two normals (‖q‖ is often
near 0, all 8 scores near 0), not yet the Gaussian of larger d_k.

Multi-head: split the d columns of Q, K, V into h slices of d_k = d/h, attend in each (each head
scaled by its own √d_k), concatenate, then W_o. The four d×d matrices cost 4d² (+4d biases)
whatever h is; only the score matrices grow, h·n² entries.

Positions: PE(pos, 2i) = sin(pos/10000^(2i/d)), PE(pos, 2i+1) = cos(pos/10000^(2i/d)).
Each (sin, cos) pair has norm 1, so ‖PE(p)‖² = d/2, and PE(p)·PE(p+k) = Σ_i cos(k·ω_i) does not
depend on p. Without them self-attention is permutation-equivariant: permute the tokens and the
output rows are the same rows, permuted (seed 004 §5.4: "狗咬人" and "人咬狗" look alike).

The toy sentence (seed 002's 猫 … 跑 example): five tokens, four hand-made features
(noun, verb, det, adv), d_k = 4:

    那只 "that"      (0, 0, 1, 0)       W_q rows: noun → 2·e0, verb → 2·e1, det → 0,    adv → 2·e2
    猫   "cat"       (1, 0, 0, 0)       W_k rows: noun → 2·e1, verb → 2·e2, det → 2·e0, adv → 0
    突然 "suddenly"  (0, 0, 0, 1)       W_v = I
    开始 "starts"    (0, 1, 0, 0.5)
    跑   "run"       (0, 1, 0, 0)

so a verb asks for a noun (q = 2·e1 meets the noun's k = 2·e1: q·k = 4, scaled 2), a noun asks for a
determiner, an adverb asks for a verb. Pinned: causal A[跑, 猫] = e²/(e²+4) = 0.6488,
A[猫, 那只] = e²/(e²+1) = 0.8808, A[突然, 0..2] = 1/3; full A[突然, 开始] = A[突然, 跑] =
e²/(3+2e²) = 0.4156. Two heads of d_k = 2 (columns 0–1 and 2–3), each scaled by √2 (its own d_k):
head 1 causal A[跑, 猫] = e^(2√2)/(e^(2√2)+4) = 0.8088, head 2 full A[突然, 开始] =
e^(2√2)/(3+2e^(2√2)) = 0.4593.

The `random` weight set is seed 002's code: x ~ N(0, 1) of shape 5×64, W_q, W_k, W_v =
N(0, 1)·0.02, here drawn from numpy's generator with RANDOM_SEED.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

# -- the toy sentence and its weights -------------------------------------------------------------
TOKENS = ("那只", "猫", "突然", "开始", "跑")
GLOSS = ("that", "cat", "suddenly", "starts", "run")
FEATURES = ("noun", "verb", "det", "adv")
X_TOY = np.array([
    [0.0, 0.0, 1.0, 0.0],  # 那只 that: a determiner
    [1.0, 0.0, 0.0, 0.0],  # 猫 cat: a noun
    [0.0, 0.0, 0.0, 1.0],  # 突然 suddenly: an adverb
    [0.0, 1.0, 0.0, 0.5],  # 开始 starts: a verb, a little adverb-like
    [0.0, 1.0, 0.0, 0.0],  # 跑 run: a verb
])
D_K = 4
_E = np.eye(4)
W_Q_TOY = np.array([2 * _E[0], 2 * _E[1], 0 * _E[0], 2 * _E[2]])  # rows: noun, verb, det, adv
W_K_TOY = np.array([2 * _E[1], 2 * _E[2], 2 * _E[0], 0 * _E[0]])
W_V_TOY = np.eye(4)

RANDOM_SEED = 2
RANDOM_N, RANDOM_D, RANDOM_SCALE = 5, 64, 0.02
WEIGHT_SETS = ("toy", "random")
MASKS = ("causal", "full", "strict")


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Weights:
    """Token rows X (n×d) and the projections W_q, W_k, W_v (d×d_k, d×d_k, d×d_v)."""
    name: str
    tokens: tuple[str, ...]
    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray


@lru_cache(maxsize=8)
def weights(name: str = "toy", seed: int = RANDOM_SEED) -> Weights:
    """The toy sentence with its hand-made W's, or seed 002's random draw (x ~ N(0,1), W = N(0,1)·0.02)."""
    if name == "toy":
        return Weights("toy", TOKENS, _frozen(X_TOY), _frozen(W_Q_TOY), _frozen(W_K_TOY), _frozen(W_V_TOY))
    if name == "random":
        rng = np.random.default_rng(seed)
        x = rng.standard_normal((RANDOM_N, RANDOM_D))
        w = [rng.standard_normal((RANDOM_D, RANDOM_D)) * RANDOM_SCALE for _ in range(3)]
        return Weights("random", TOKENS, _frozen(x), *(_frozen(m) for m in w))
    raise ValueError(f"unknown weight set {name!r}: {', '.join(WEIGHT_SETS)}")


# -- the pipeline, one formula each ---------------------------------------------------------------
def project(x, w) -> np.ndarray:
    """X·W: every token row times the same projection (Q, K or V)."""
    return np.asarray(x, dtype=float) @ np.asarray(w, dtype=float)


def scores(q, k, scale: bool = True) -> np.ndarray:
    """S = Q·Kᵀ/√d_k (or Q·Kᵀ unscaled): S[t, i] = how well query t matches key i."""
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    return s / math.sqrt(k.shape[-1]) if scale else s


def mask(kind: str, n: int, m: int | None = None) -> np.ndarray:
    """visible[t, i]: may query t read key i? n queries, m keys (m = n unless cross-attention)."""
    m = n if m is None else m
    t, i = np.arange(n)[:, None], np.arange(m)[None, :]
    if kind == "causal":
        return i <= t
    if kind == "full":
        return np.ones((n, m), dtype=bool)
    if kind == "strict":
        return i < t
    raise ValueError(f"unknown mask {kind!r}: {', '.join(MASKS)}")


def masked(s, visible) -> np.ndarray:
    """Ŝ: the score where visible, −∞ where not (exp(−∞) = 0: no weight at all)."""
    return np.where(np.asarray(visible, dtype=bool), np.asarray(s, dtype=float), -np.inf)


def softmax_rows(s) -> np.ndarray:
    """Each row → exp(s − max)/Σ exp(s − max). A row that is all −∞ has nothing to attend to: NaN."""
    s = np.asarray(s, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        e = np.exp(s - s.max(axis=-1, keepdims=True))  # −∞ − (−∞) = NaN for an empty row
        return e / e.sum(axis=-1, keepdims=True)


def weighted_sum(a, v) -> np.ndarray:
    """out = A·V: each output row is the attention-weighted average of the value rows."""
    with np.errstate(invalid="ignore"):
        return np.asarray(a, dtype=float) @ np.asarray(v, dtype=float)


@dataclass(frozen=True, eq=False)
class Pipeline:
    """Every stage of one self-attention, all n×(·) arrays: X → Q, K, V → S → Ŝ → A → out."""
    tokens: tuple[str, ...]
    mask_kind: str
    scaled: bool
    visible: np.ndarray
    x: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    s: np.ndarray
    s_masked: np.ndarray
    a: np.ndarray
    out: np.ndarray

    STAGES = ("x", "q", "k", "v", "s", "s_masked", "a", "out")

    def stages(self) -> tuple[tuple[str, np.ndarray], ...]:
        """(name, matrix) in pipeline order, for stepping through."""
        return tuple((name, getattr(self, name)) for name in self.STAGES)

    def cell(self, query: str | int, key: str | int, stage: str = "a") -> float:
        """One entry of a stage matrix, by token text or index (e.g. cell("跑", "猫"))."""
        return float(getattr(self, stage)[_index(self.tokens, query), _index(self.tokens, key)])


def _index(tokens, t) -> int:
    return tokens.index(t) if isinstance(t, str) else int(t)


def pipeline(x, w_q, w_k, w_v, mask_kind: str = "causal", scale: bool = True, tokens=None) -> Pipeline:
    """Run the pipeline on token rows x; every intermediate comes back."""
    x = np.asarray(x, dtype=float)
    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    visible = mask(mask_kind, len(x))
    s = scores(q, k, scale)
    s_m = masked(s, visible)
    a = softmax_rows(s_m)
    tokens = tuple(tokens) if tokens is not None else tuple(str(i) for i in range(len(x)))
    return Pipeline(tokens, mask_kind, scale, *(_frozen(m) if m.dtype != bool else m
                                                for m in (visible, x, q, k, v, s, s_m, a, weighted_sum(a, v))))


@lru_cache(maxsize=32)
def qkv(weight_set: str = "toy", mask_kind: str = "causal", scale: bool = True) -> Pipeline:
    """The pipeline on a named weight set (cached; its arrays are read-only)."""
    w = weights(weight_set)
    return pipeline(w.x, w.w_q, w.w_k, w.w_v, mask_kind, scale, w.tokens)


@dataclass(frozen=True, eq=False)
class QueryRow:
    """One query spelled out: out_t = Σ_i a_i·v_i over the keys it may see."""
    t: int
    keys: np.ndarray      # indices of visible keys
    dots: np.ndarray      # q_t·k_i for those keys (unscaled)
    scores: np.ndarray    # q_t·k_i/√d_k (or unscaled, as the pipeline was)
    weights: np.ndarray   # softmax of scores: sums to 1 (empty when nothing is visible)
    terms: np.ndarray     # a_i·v_i, one row per visible key
    output: np.ndarray    # their sum = out[t] (NaN when nothing is visible)


def query_row(p: Pipeline, t: str | int) -> QueryRow:
    """Row t of the pipeline: its dot products, weights and weighted sum."""
    t = _index(p.tokens, t)
    keys = np.flatnonzero(p.visible[t])
    dots = p.q[t] @ p.k[keys].T
    sc = dots / math.sqrt(p.k.shape[1]) if p.scaled else dots
    a = p.a[t, keys]
    terms = a[:, None] * p.v[keys]
    return QueryRow(t, keys, dots, sc, a, terms, p.out[t].copy())


@dataclass(frozen=True)
class FutureEdit:
    """How much the outputs moved when tokens after `after` were redrawn."""
    mask_kind: str
    after: int
    early: float  # max |Δout| over rows 0..after
    late: float   # max |Δout| over rows after+1..n−1


def redrawn(x, after: int = 2, seed: int = 1) -> np.ndarray:
    """x with the token rows after position `after` redrawn from N(0,1) (seeded): the later tokens edited."""
    x2 = np.array(x, dtype=float)
    x2[after + 1:] = np.random.default_rng(seed).standard_normal(x2[after + 1:].shape)
    return x2


@lru_cache(maxsize=32)
def qkv_redrawn(weight_set: str = "toy", mask_kind: str = "causal", after: int = 2, seed: int = 1) -> Pipeline:
    """The pipeline on a named weight set with the tokens after `after` redrawn (cached, read-only)."""
    w = weights(weight_set)
    return pipeline(redrawn(w.x, after, seed), w.w_q, w.w_k, w.w_v, mask_kind, True, w.tokens)


@lru_cache(maxsize=64)
def future_edit(after: int = 2, mask_kind: str = "causal", seed: int = 1, weight_set: str = "random") -> FutureEdit:
    """Redraw tokens after position `after` from N(0,1) (seeded) and measure how the outputs moved.
    Under the causal mask the early rows move by exactly 0.0: they never read the later tokens.
    (Cached: pure, and a figure's readings ask again at every key.)"""
    w = weights(weight_set)
    x2 = redrawn(w.x, after, seed)
    before = pipeline(w.x, w.w_q, w.w_k, w.w_v, mask_kind).out
    now = pipeline(x2, w.w_q, w.w_k, w.w_v, mask_kind).out
    with np.errstate(invalid="ignore"):
        d = np.abs(now - before)
    d = np.where(np.isnan(d), 0.0, d)  # a row with nothing to attend to (strict, row 0) stays NaN: no change
    return FutureEdit(mask_kind, after, float(d[:after + 1].max(initial=0.0)), float(d[after + 1:].max(initial=0.0)))


# -- √d_k: saturation of the softmax ---------------------------------------------------------------
SCALING_DK = (1, 4, 16, 64, 256, 512, 1024)
SCALING_KEYS = 8
SCALING_TRIALS = 4000
SCALING_SEED = 0
LN_KEYS = math.log(SCALING_KEYS)  # 2.079: the entropy of a uniform softmax over 8 keys


@lru_cache(maxsize=16)
def raw_scores(d_k: int, keys: int = SCALING_KEYS, trials: int = SCALING_TRIALS,
               seed: int = SCALING_SEED) -> np.ndarray:
    """trials × keys unscaled scores q·k_j for q, k_j ~ N(0, I_{d_k}), drawn without forming q or k.

    Given q, the keys' scores q·k_j are independent N(0, ‖q‖²), and ‖q‖² ~ χ²(d_k); so
    q·k_j = ‖q‖·z_j with z_j ~ N(0,1) has exactly the same joint law as the dot products, at
    keys+1 draws per trial instead of (keys+1)·d_k (fast at d_k = 1024). Drawn once (read-only):
    the scaled and unscaled readings share the draws."""
    rng = np.random.default_rng([seed, d_k])
    q_norm = np.sqrt(rng.chisquare(d_k, trials))
    scores = q_norm[:, None] * rng.standard_normal((trials, keys))
    scores.setflags(write=False)
    return scores


def entropy(a) -> np.ndarray:
    """H(a) = −Σ a_i ln a_i in nats, per row (0·ln 0 = 0)."""
    a = np.asarray(a, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(a > 0, a * np.log(a), 0.0).sum(axis=-1)


def jacobian_norm(a) -> np.ndarray:
    """‖diag(a) − a·aᵀ‖_F per row, without building the matrices:
    ‖J‖² = Σ a_i²(1 − a_i)² + Σ_{i≠j} a_i² a_j² = Σa² − 2Σa³ + (Σa²)²."""
    a = np.asarray(a, dtype=float)
    s2, s3 = (a ** 2).sum(axis=-1), (a ** 3).sum(axis=-1)
    return np.sqrt(np.maximum(s2 - 2 * s3 + s2 ** 2, 0.0))


@dataclass(frozen=True)
class ScalingReading:
    d_k: int
    scaled: bool
    score_var: float       # variance of the scores fed to softmax: ≈ d_k unscaled, ≈ 1 scaled
    max_weight: float      # mean largest softmax weight (1/8 = uniform, 1 = one-hot)
    entropy: float         # mean entropy in nats (ln 8 = 2.079 uniform, 0 one-hot)
    jacobian_norm: float   # mean ‖diag(a) − a·aᵀ‖_F: how much gradient gets through
    ln_keys: float = LN_KEYS


@lru_cache(maxsize=64)
def scaling_reading(d_k: int, scaled: bool = True) -> ScalingReading:
    """Readouts over SCALING_TRIALS draws of 8 keys at this d_k (cached; a few ms)."""
    s = raw_scores(d_k)
    if scaled:
        s = s / math.sqrt(d_k)
    a = softmax_rows(s)
    return ScalingReading(int(d_k), bool(scaled), float(s.var()), float(a.max(axis=1).mean()),
                          float(entropy(a).mean()), float(jacobian_norm(a).mean()))


def scaling_curve(scaled: bool = True, dks=SCALING_DK) -> tuple[ScalingReading, ...]:
    """One reading per d_k, for the plot."""
    return tuple(scaling_reading(int(d), scaled) for d in dks)


# -- the three families' masks ----------------------------------------------------------------------
FAMILIES = ("encoder", "decoder", "encoder-decoder")
FAMILY_MODELS = {"encoder": ("BERT",), "decoder": ("GPT",), "encoder-decoder": ("T5", "original Transformer")}
N_SRC, N_TGT = 5, 4


@dataclass(frozen=True, eq=False)
class FamilyMasks:
    """The attention blocks of one model family, each a visible[query, key] matrix."""
    family: str
    models: tuple[str, ...]
    blocks: tuple[tuple[str, np.ndarray], ...]  # (name, visible)

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(int(v.sum()) for _, v in self.blocks)


def family_masks(family: str, n_src: int = N_SRC, n_tgt: int = N_TGT) -> FamilyMasks:
    """encoder-only: full n_src×n_src; decoder-only: causal n_src×n_src; encoder–decoder: the decoder's
    causal n_tgt×n_tgt self-attention plus full n_tgt×n_src cross-attention (queries from the decoder,
    keys and values from the encoder's output; the encoder itself runs the full mask)."""
    if family == "encoder":
        blocks = (("self", mask("full", n_src)),)
    elif family == "decoder":
        blocks = (("self", mask("causal", n_src)),)
    elif family == "encoder-decoder":
        blocks = (("self", mask("causal", n_tgt)), ("cross", mask("full", n_tgt, n_src)))
    else:
        raise ValueError(f"unknown family {family!r}: {', '.join(FAMILIES)}")
    return FamilyMasks(family, FAMILY_MODELS[family], blocks)


# -- multi-head ---------------------------------------------------------------------------------
HEADS_D = 512
HEADS_H = (1, 2, 4, 8, 16, 32, 64)


def attention_params(d: int, bias: bool = True) -> int:
    """W_q, W_k, W_v, W_o: 4·d² weights (+4·d biases), for any number of heads."""
    return 4 * d * d + (4 * d if bias else 0)


@dataclass(frozen=True)
class HeadSplit:
    d: int
    h: int
    d_k: int            # d / h
    params: int         # 4·d², independent of h
    params_bias: int    # 4·d² + 4·d
    score_entries: int  # h·n² for n tokens


def head_split(d: int = HEADS_D, h: int = 8, n: int = 5) -> HeadSplit:
    if d % h:
        raise ValueError(f"d = {d} does not split into {h} heads")
    return HeadSplit(d, h, d // h, attention_params(d, False), attention_params(d), h * n * n)


def split_columns(m, h: int) -> tuple[np.ndarray, ...]:
    """Head j gets columns j·d_k … (j+1)·d_k − 1 of a projection (or of Q, K, V)."""
    m = np.asarray(m, dtype=float)
    return tuple(np.split(m, h, axis=-1))


def head_pipelines(h: int = 2, mask_kind: str = "causal", weight_set: str = "toy") -> tuple[Pipeline, ...]:
    """One pipeline per head: W_q, W_k, W_v split by columns, each head scaled by its own √(d/h)."""
    w = weights(weight_set)
    return tuple(pipeline(w.x, wq, wk, wv, mask_kind, True, w.tokens)
                 for wq, wk, wv in zip(split_columns(w.w_q, h), split_columns(w.w_k, h), split_columns(w.w_v, h)))


def multihead(x, w_q, w_k, w_v, w_o, h: int, mask_kind: str = "causal",
              b_q=0.0, b_k=0.0, b_v=0.0, b_o=0.0) -> np.ndarray:
    """Concat(head_1 … head_h)·W_o + b_o with head_j = softmax(Q_j·K_jᵀ/√d_k + mask)·V_j."""
    x = np.asarray(x, dtype=float)
    q, k, v = project(x, w_q) + b_q, project(x, w_k) + b_k, project(x, w_v) + b_v
    visible = mask(mask_kind, len(x))
    heads = [weighted_sum(softmax_rows(masked(scores(qj, kj), visible)), vj)
             for qj, kj, vj in zip(split_columns(q, h), split_columns(k, h), split_columns(v, h))]
    return np.concatenate(heads, axis=-1) @ np.asarray(w_o, dtype=float) + b_o


def head_readings(h: int = 8, d: int = HEADS_D, n: int = 5) -> dict:
    s = head_split(d, h, n)
    out = dict(s.__dict__, n=n)
    h1, h2 = head_pipelines(2, "causal")[0], head_pipelines(2, "full")[1]
    out.update({"toy_head1_causal_A[跑,猫]": h1.cell("跑", "猫"),
                "toy_head2_full_A[突然,开始]": h2.cell("突然", "开始")})
    return out


# -- positions -----------------------------------------------------------------------------------
PE_D = 64
PE_POSITIONS = 16
PE_BASE = 10000.0


def frequencies(d: int) -> np.ndarray:
    """ω_i = 1/10000^(2i/d), i = 0 … d/2 − 1: one per (sin, cos) pair."""
    if d % 2:
        raise ValueError(f"d = {d} must be even")
    return PE_BASE ** (-np.arange(0, d, 2) / d)


def sinusoidal(n_pos: int = PE_POSITIONS, d: int = PE_D) -> np.ndarray:
    """PE (n_pos × d): PE[pos, 2i] = sin(pos·ω_i), PE[pos, 2i+1] = cos(pos·ω_i)."""
    angle = np.arange(n_pos)[:, None] * frequencies(d)[None, :]
    pe = np.empty((n_pos, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
    return pe


def pe_dots(pe, k: int) -> np.ndarray:
    """PE(p)·PE(p + k) for every p that has a p + k: all equal Σ_i cos(k·ω_i)."""
    pe = np.asarray(pe, dtype=float)
    return np.einsum("pd,pd->p", pe[:len(pe) - k], pe[k:])


def position_readings(d: int = PE_D, n_pos: int = PE_POSITIONS) -> dict:
    pe = sinusoidal(max(n_pos, 11), d)
    return {"d": d, "PE(1,0)": float(pe[1, 0]), "PE(1,1)": float(pe[1, 1]), "PE(10,0)": float(pe[10, 0]),
            "norm2": (pe[:n_pos] ** 2).sum(axis=1).tolist(), "d/2": d / 2,
            "dot_k1_spread": float(np.ptp(pe_dots(pe[:n_pos], 1)))}


# -- the permutation test (seed 004: 狗咬人 / 人咬狗) ----------------------------------------------
PERM_WORDS = ("狗", "咬", "人")  # dog, bites, man
PERM_GLOSS = ("dog", "bites", "man")
PERM_ORDERS = ((0, 1, 2), (2, 1, 0))  # 狗咬人 "dog bites man", 人咬狗 "man bites dog"
PERM_D = 16
PERM_SEED = 4


@lru_cache(maxsize=8)  # (every d_model: 6 values)
def perm_weights(d: int = PERM_D, seed: int = PERM_SEED) -> tuple[np.ndarray, ...]:
    """Embeddings of 狗, 咬, 人 (3×d, N(0,1)) and W_q, W_k, W_v (N(0,1)/√d), seeded."""
    rng = np.random.default_rng(seed)
    emb = rng.standard_normal((len(PERM_WORDS), d))
    ws = [rng.standard_normal((d, d)) / math.sqrt(d) for _ in range(3)]
    return tuple(_frozen(m) for m in (emb, *ws))


def sentence(order, pe: bool = False, d: int = PERM_D) -> np.ndarray:
    """Token rows for one word order, with sinusoidal positions added if pe."""
    emb = perm_weights(d)[0]
    x = emb[list(order)]
    return x + sinusoidal(len(order), d) if pe else x


@lru_cache(maxsize=32)  # 6 d_model × 2 masks × with and without PE
def permutation_gap(mask_kind: str = "full", pe: bool = False, d: int = PERM_D) -> float:
    """max |out(人咬狗) − out(狗咬人) with rows permuted the same way|: ~1e-16 means "the same rows"."""
    _, wq, wk, wv = perm_weights(d)
    a, b = PERM_ORDERS
    out_a = pipeline(sentence(a, pe, d), wq, wk, wv, mask_kind).out
    out_b = pipeline(sentence(b, pe, d), wq, wk, wv, mask_kind).out
    perm = [a.index(w) for w in b]  # row r of order b is the word at row perm[r] of order a
    return float(np.abs(out_b - out_a[perm]).max())


@dataclass(frozen=True)
class PermutationTest:
    full_no_pe: float  # rounding level: attention alone cannot tell 狗咬人 from 人咬狗
    full_pe: float     # order 1: positions break the tie
    causal_no_pe: float  # order 1: a causal mask also knows who came first


@lru_cache(maxsize=8)
def permutation_test(d: int = PERM_D) -> PermutationTest:
    return PermutationTest(permutation_gap("full", False, d), permutation_gap("full", True, d),
                           permutation_gap("causal", False, d))
