"""T5 `attention`: Q/K/V stage by stage, √d_k, the three mask families, heads, positions, one
encoder layer (issue 19) and the lecture's summary table."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar

import numpy as np

from rnntui.engine import attention as at
from rnntui.engine import block as bl
from rnntui.figures import summary as sm
from rnntui.i18n import N_, _
from rnntui.state import FigureState, param, power_step, via_home

TOKENS = at.TOKENS
GLOSS = at.GLOSS
FEATURES = at.FEATURES
N = len(TOKENS)
TGT = tuple(f"y{'₀₁₂₃₄₅₆₇₈₉'[i]}" for i in range(at.N_TGT))  # decoder positions in the masks figure
QKV_STAGES = ("X", "Q K V", "S = QKᵀ/√d_k", "masked S", "A = softmax(S)", "out = A·V")
A_STAGE = QKV_STAGES.index("A = softmax(S)")
EDIT_AFTER = 2  # `x` redraws the tokens after this position
LN_INPUT = {"post": {"LN₁": "x+attn", "LN₂": "+FFN"}, "pre": {"LN₁": "x", "LN₂": "x+attn"}}


def _mask(default: str = "causal", choices: tuple[str, ...] = at.MASKS):
    """One mask parameter for the whole topic: key m, the engine's names."""
    means = {"full": N_("every key"), "causal": N_("keys up to the query's own"), "strict": N_("keys before it only")}
    return param(default, "choice", choices=choices, key="m", label="mask", means=tuple(means[c] for c in choices))


def _rows(a) -> tuple:
    """A matrix as nested tuples of floats (−∞ and NaN kept; the .json turns them into strings)."""
    return tuple(map(tuple, np.asarray(a, dtype=float).tolist()))  # (tolist: 10x a float() per entry)


def _bools(a) -> tuple:
    return tuple(tuple(bool(v) for v in r) for r in np.asarray(a))


@dataclass(frozen=True)
class Stepped(FigureState):
    """A state whose GEOMETRIC parameters double and halve on +/- (any value settable). (Parameters
    that take only listed values say so in their `param(values=…)`.)"""

    GEOMETRIC: ClassVar[tuple[str, ...]] = ()

    def press_base(self, name: str) -> int | None:
        return 2 if name in self.GEOMETRIC else super().press_base(name)

    def nudged(self, name, notches, fine=False):
        value = getattr(self, name)
        if name in self.GEOMETRIC and notches:  # (attention/heads' n = 5 came back only with r, a help audit)
            lo, hi = self.param(name).bounds(self)
            new = via_home(value, notches, power_step, self.defaults().get(name))
            return self.kept(name, replace(self, **{name: int(min(max(new, lo), hi))}))
        return super().nudged(name, notches, fine)


# -- qkv -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class QkvReadings:
    tokens: tuple[str, ...]
    stages: tuple[str, ...]
    d_k: int
    X: tuple
    Q: tuple
    K: tuple
    V: tuple
    scores: tuple  # S = QKᵀ/√d_k
    masked_scores: tuple  # S with −∞ where the mask hides a key
    weights: tuple  # A: rows are queries, after softmax
    output: tuple  # A·V
    visible: tuple
    query_keys: tuple[int, ...]  # the keys the chosen query may read
    query_dots: tuple[float, ...]  # q·k for them (unscaled)
    query_scores: tuple[float, ...]  # q·k/√d_k
    query_weights: tuple[float, ...]
    query_output: tuple[float, ...]
    row_sums: tuple[float, ...]
    nan_rows: tuple[int, ...]
    pinned: dict  # the cells, by name, in this state
    edit_early: float  # max |Δout| over rows 0..2 when the tokens after 2 are redrawn
    edit_late: float  # … over rows 3..4


@dataclass(frozen=True)
class QkvState(FigureState):
    """The pipeline X → Q, K, V → S → masked S → A → A·V, one stage per step."""

    AXIS: ClassVar[str] = "stage"
    query: int = param(N - 1, "int", lo=0, hi=N - 1, label="query", fmt="d")  # first: +/- move it at once
    mask: str = _mask()
    weights: str = param("toy", "choice", choices=at.WEIGHT_SETS, key="w", label="weights", means=(
        N_("hand-set: 5 tokens of d = 4, d_k = 4"), N_("seed 002's draw: x ~ N(0, 1), 5×64; W ~ 0.02·N(0, 1); d_k = 64")))
    later: str = param("kept", "choice", choices=("kept", "redrawn"), key="x", label="x₃ x₄",
                       does=N_("redraw"))  # (the footer said "x x₃ x₄", a trial; "redraw x₃ x₄" did not
                       # fit at 80; "edit" promised typing, a keyboard audit)
    stage: int = param(0, "int", lo=0, hi=len(QKV_STAGES) - 1, label="stage", fmt="d")

    def pipeline(self) -> at.Pipeline:
        if self.later == "redrawn":
            return at.qkv_redrawn(self.weights, self.mask, EDIT_AFTER)
        return at.qkv(self.weights, self.mask)

    def tokens(self) -> tuple[str, ...]:
        return tuple(t + ("′" if self.later == "redrawn" and i > EDIT_AFTER else "") for i, t in enumerate(TOKENS))

    def read(self) -> QkvReadings:
        p = self.pipeline()
        r = at.query_row(p, self.query)
        edit = at.future_edit(EDIT_AFTER, self.mask, weight_set=self.weights)
        pinned = {"A[跑,猫]": p.cell(4, 1), "A[猫,那只]": p.cell(1, 0), "A[突然,那只]": p.cell(2, 0),
                  "A[突然,猫]": p.cell(2, 1), "A[突然,突然]": p.cell(2, 2), "A[突然,开始]": p.cell(2, 3),
                  "A[突然,跑]": p.cell(2, 4)}
        with np.errstate(invalid="ignore"):
            sums = tuple(float(v) for v in p.a.sum(axis=1))
        return QkvReadings(
            self.tokens(), QKV_STAGES, int(p.k.shape[1]), _rows(p.x), _rows(p.q), _rows(p.k), _rows(p.v), _rows(p.s),
            _rows(p.s_masked), _rows(p.a), _rows(p.out), _bools(p.visible), tuple(int(k) for k in r.keys),
            tuple(map(float, r.dots)), tuple(map(float, r.scores)), tuple(map(float, r.weights)),
            tuple(map(float, r.output)), sums, tuple(int(i) for i in np.flatnonzero(np.isnan(p.a).all(axis=1))),
            pinned, edit.early, edit.late)


# -- scaling ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScalingReadings:
    d_k: int
    scaled: bool
    score_var: float
    max_weight: float
    entropy: float
    jacobian_norm: float
    ln_keys: float  # ln 8: the entropy of a uniform softmax over the 8 keys
    uniform: float  # 1/8
    other: dict  # the same readouts with the other choice of scaling
    dks: tuple[int, ...]
    max_weight_scaled: tuple[float, ...]
    max_weight_unscaled: tuple[float, ...]
    keys: int
    trials: int


@dataclass(frozen=True)
class ScalingState(Stepped):
    """Random q, k in d_k dimensions, 8 keys: the softmax with and without 1/√d_k."""

    AXIS: ClassVar[str] = "d_k"
    READ_AHEAD: ClassVar[bool] = True  # 14 readings of 4000 draws: ~30 ms
    scaling: str = param("unscaled", "choice", choices=("unscaled", "scaled"), key="s", label="scores")
    d_k: int = param(64, "int", lo=1, hi=1024, label="d_k", fmt="d", values=tuple(at.SCALING_DK))

    def read(self) -> ScalingReadings:
        scaled = self.scaling == "scaled"
        r, o = at.scaling_reading(self.d_k, scaled), at.scaling_reading(self.d_k, not scaled)
        other = {"score_var": o.score_var, "max_weight": o.max_weight, "entropy": o.entropy,
                 "jacobian_norm": o.jacobian_norm}
        return ScalingReadings(self.d_k, scaled, r.score_var, r.max_weight, r.entropy, r.jacobian_norm, at.LN_KEYS,
                               1 / at.SCALING_KEYS, other, at.SCALING_DK,
                               tuple(c.max_weight for c in at.scaling_curve(True)),
                               tuple(c.max_weight for c in at.scaling_curve(False)), at.SCALING_KEYS,
                               at.SCALING_TRIALS)


# -- masks -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MasksReadings:
    families: tuple[str, ...]
    models: tuple[tuple[str, ...], ...]
    blocks: tuple  # per family: ((name, visible rows), …)
    counts: tuple[tuple[int, ...], ...]
    src_tokens: tuple[str, ...]
    tgt_tokens: tuple[str, ...]


@dataclass(frozen=True)
class MasksState(FigureState):
    """Encoder-only, decoder-only, encoder–decoder: who may read whom."""

    AXIS: ClassVar[str] = "family"
    family: int = param(0, "int", lo=0, hi=len(at.FAMILIES) - 1, label="family", fmt="d",
                        names=(N_("encoder"), N_("decoder"), N_("encoder-decoder")))  # (at.FAMILIES, marked)

    def read(self) -> MasksReadings:
        fams = [at.family_masks(f) for f in at.FAMILIES]
        return MasksReadings(at.FAMILIES, tuple(f.models for f in fams),
                             tuple(tuple((name, _bools(v)) for name, v in f.blocks) for f in fams),
                             tuple(f.counts for f in fams), TOKENS, TGT)


# -- heads -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HeadsReadings:
    d: int
    h: int
    d_k: int
    params: int
    params_bias: int
    score_entries: int
    n: int
    table: tuple  # (h, d_k, params, score entries) for every h
    tokens: tuple[str, ...]
    weights: tuple  # the toy's two heads (d_k = 2 each), A of each
    head_Q: tuple
    head_K: tuple
    head_V: tuple
    output: tuple  # the two heads' outputs, concatenated (W_o = I)
    cells: dict  # the two pinned cells in this mask
    pinned: dict  # the issue's: head 1 causal A[跑,猫], head 2 full A[突然,开始]


@dataclass(frozen=True)
class HeadsState(Stepped):
    """d = 512 split into h heads of d_k = d/h; the toy split into two heads of d_k = 2."""

    AXIS: ClassVar[str] = "h"
    GEOMETRIC: ClassVar[tuple] = ("n",)
    mask: str = _mask()
    n: int = param(5, "int", lo=1, hi=65536, label="tokens n", fmt="d")
    h: int = param(8, "int", lo=1, hi=64, label="h", fmt="d", values=tuple(at.HEADS_H))

    def read(self) -> HeadsReadings:
        s = at.head_split(at.HEADS_D, self.h, self.n)
        table = tuple((h, at.HEADS_D // h, s.params, h * self.n * self.n) for h in at.HEADS_H)
        a, q, k, v, out, cells, ref = _toy_heads(self.mask)
        return HeadsReadings(s.d, s.h, s.d_k, s.params, s.params_bias, s.score_entries, self.n, table, TOKENS,
                             a, q, k, v, out, dict(cells), dict(ref))


@lru_cache(maxsize=4)
def _toy_heads(mask: str) -> tuple:
    """The toy sentence split into two heads under `mask`: the same for every h and n (a key that
    steps h reuses it)."""
    heads = at.head_pipelines(2, mask)
    ref = at.head_readings()  # its toy cells do not depend on h or n
    return (tuple(_rows(p.a) for p in heads), tuple(_rows(p.q) for p in heads), tuple(_rows(p.k) for p in heads),
            tuple(_rows(p.v) for p in heads), _rows(np.concatenate([p.out for p in heads], axis=1)),
            {"head 1 A[跑,猫]": heads[0].cell(4, 1), "head 2 A[突然,开始]": heads[1].cell(2, 3)},
            {N_("head 1 causal A[跑,猫]"): ref["toy_head1_causal_A[跑,猫]"],  # keys: .json keys and labels
             N_("head 2 full A[突然,开始]"): ref["toy_head2_full_A[突然,开始]"]})


# -- positions -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PositionsReadings:
    d: int
    positions: int
    pe: tuple  # positions × d
    pinned: dict  # PE(1,0), PE(1,1), PE(10,0)
    norm2: tuple[float, ...]  # ‖PE(p)‖² per position
    half_d: float
    dots_k1: tuple[float, ...]  # PE(p)·PE(p+1) for every p
    dots_k4: tuple[float, ...]
    spread_k1: float  # max − min of dots_k1
    words: tuple[str, ...]
    orders: tuple[str, ...]  # 狗咬人, 人咬狗
    full_no_pe: float
    full_pe: float
    causal_no_pe: float
    gap: float  # this state's (mask, pe) gap
    glosses: tuple[str, ...] = ()  # the orders in English: dog bites man, man bites dog


@dataclass(frozen=True)
class PositionsState(Stepped):
    """Sinusoidal positions, and what attention cannot tell without them."""

    AXIS: ClassVar[str] = "d"
    pe: str = param("off", "choice", choices=("off", "on"), key="e", label="PE added")
    mask: str = _mask("full", ("full", "causal"))
    d: int = param(at.PE_D, "int", lo=16, hi=512, label="d_model", fmt="d", values=(16, 32, 64, 128, 256, 512))

    def read(self) -> PositionsReadings:
        t = at.permutation_test(self.d)  # at the d_model shown (at 16 alone, ← left them as they were, a trial)
        orders = tuple("".join(at.PERM_WORDS[i] for i in o) for o in at.PERM_ORDERS)
        return PositionsReadings(self.d, at.PE_POSITIONS, *_positions(self.d), at.PERM_WORDS, orders,
                                 t.full_no_pe, t.full_pe, t.causal_no_pe,
                                 at.permutation_gap(self.mask, self.pe == "on", self.d),
                                 tuple(" ".join(at.PERM_GLOSS[i] for i in o) for o in at.PERM_ORDERS))


@lru_cache(maxsize=8)
def _positions(d: int) -> tuple:
    """What depends on d alone (the PE table and its sums): the same objects for every state at this d,
    so a view can tell at once that the table did not change when PE or the mask is toggled."""
    pe = at.sinusoidal(at.PE_POSITIONS, d)
    ref = at.position_readings(d)
    k1, k4 = at.pe_dots(pe, 1), at.pe_dots(pe, 4)
    return (_rows(pe), {"PE(1,0)": ref["PE(1,0)"], "PE(1,1)": ref["PE(1,1)"], "PE(10,0)": ref["PE(10,0)"]},
            tuple(float(v) for v in (pe ** 2).sum(axis=1)), d / 2, tuple(map(float, k1)), tuple(map(float, k4)),
            float(np.ptp(k1)))


# -- block (issue 19) ------------------------------------------------------------------------------
@dataclass(frozen=True)
class BlockReadings:
    tokens: tuple[str, ...]
    stages: tuple[str, ...]
    matrices: dict  # stage name → n×(d or d_ff) rows
    stage_name: str
    current: tuple  # the matrix of the current stage
    previous: str  # the stage before (its name; "" at the first)
    ln_rows: dict  # LN stage → {"mean": per row, "var": per row} of the normalised rows, before γ/β
    weights: tuple  # the attention sublayer's two heads' A (full mask, the toy W's)
    params: dict  # attention, ffn, norms, per_layer, total
    flops: dict  # projections, scores, weighted_sum, ffn, attention_core, dense, total, core_share
    bert_base: int  # 12 layers at d = 768, d_ff = 3072
    toy: dict  # the toy layer's own sizes and parameters


@dataclass(frozen=True)
class BlockState(Stepped):
    """One encoder layer on the toy sentence, stage by stage; its parameter and FLOP bill."""

    AXIS: ClassVar[str] = "stage"
    GEOMETRIC: ClassVar[tuple] = ("n",)
    norm: str = param("post", "choice", choices=bl.NORMS, key="l", label="LayerNorm")
    activation: str = param("relu", "choice", choices=bl.ACTIVATIONS, key="a", label="FFN")
    d: int = param(768, "int", lo=64, hi=16384, notch=64, label="d", fmt="d", log=True)
    d_ff: int = param(3072, "int", lo=64, hi=65536, notch=256, label="d_ff", fmt="d", log=True)
    layers: int = param(12, "int", lo=1, hi=128, label="layers", fmt="d", log=True)
    n: int = param(512, "int", lo=1, hi=131072, label="tokens n", fmt="d")
    stage: int = param(0, "int", lo=0, hi=7, label="stage", fmt="d")

    def read(self) -> BlockReadings:
        names, mats, ln, heads = _toy_block(self.norm, self.activation)
        c = bl.param_count(self.d, self.d_ff, self.layers, self.activation)
        f = bl.layer_flops(self.n, self.d, self.d_ff, self.activation)
        flops = {"projections": f.projections, "scores": f.scores, "weighted_sum": f.weighted_sum, "ffn": f.ffn,
                 "attention_core": f.attention_core, "dense": f.dense, "total": f.total, "core_share": f.core_share}
        name = names[self.stage]
        return BlockReadings(TOKENS, names, dict(mats), name, mats[name], names[self.stage - 1] if self.stage else "",
                             {k: dict(v) for k, v in ln.items()}, heads,
                             {k: getattr(c, k) for k in ("attention", "ffn", "norms", "per_layer", "total")},
                             flops, bl.param_count(768, 3072, 12).total,
                             {"d": bl.LAYER_D, "d_ff": bl.LAYER_DFF, "heads": bl.LAYER_HEADS,
                              **_toy_weights(self.activation)})


@lru_cache(maxsize=8)
def _toy_block(norm: str, activation: str) -> tuple:
    """The toy layer run stage by stage: its stage names, every stage's rows, the LayerNorm rows' means
    and variances and the two heads' A; the same at every stage (a key that steps it reuses them)."""
    layer = bl.toy_layer(norm, activation)
    ln = {}
    for name, src in LN_INPUT[norm].items():
        z = bl.layer_norm(layer.get(src))  # γ = 1, β = 0: the rows before γ and β
        ln[name] = {"mean": tuple(map(float, z.mean(axis=1))), "var": tuple(map(float, z.var(axis=1)))}
    first = layer.get("x" if norm == "post" else "LN₁")
    w = bl.layer_weights(activation)
    heads = [at.pipeline(first, wq, wk, wv, "full").a for wq, wk, wv in
             zip(*(at.split_columns(m, w.heads) for m in (w.w_q, w.w_k, w.w_v)))]
    return layer.names, {name: _rows(a) for name, a in layer.stages}, ln, tuple(_rows(a) for a in heads)


@lru_cache(maxsize=4)
def _toy_weights(activation: str) -> dict:
    """The toy layer's parameters, x·W orientation, for the .json (hidden and FFN were not re-checkable from it,
    a mathematician's audit); SwiGLU has w3 and no b1, b2."""
    w = bl.layer_weights(activation)
    names = ("w_q", "w_k", "w_v", "w_o", "w1", "b1", "w2", "b2", "w3", "gamma1", "beta1", "gamma2", "beta2")
    return {k: _rows(a) if a.ndim == 2 else tuple(a.tolist()) for k in names if (a := getattr(w, k)) is not None}


# -- summary (issue 19) ----------------------------------------------------------------------------
SUMMARY_KEYS = tuple(key for key, _ in sm.SUMMARY_COLUMNS[1:])  # the cells' columns, "model" aside
N_SUMMARY_COLS = len(SUMMARY_KEYS)
N_SUMMARY_CELLS = len(sm.SUMMARY) * N_SUMMARY_COLS


@dataclass(frozen=True)
class SummaryReadings:
    headers: tuple[str, ...]
    short_headers: tuple[str, ...]  # the columns' short labels (not the models'), for a narrow table
    models: tuple[str, ...]
    table: tuple  # rows of cell texts
    links: tuple  # rows of {"target", "sets", "step", "command", "open"} or None
    row: int
    col: int
    text: str  # the cell under the cursor
    link: dict | None  # its link


@dataclass(frozen=True)
class SummaryState(FigureState):
    """The lecture in one table; every cell that a figure shows links to it."""

    AXIS: ClassVar[str] = "cell"
    cell: int = param(0, "int", lo=0, hi=N_SUMMARY_CELLS - 1, coarse=1, label="cell", fmt="d")  # → is the next cell

    def axis_shown(self) -> str:
        """The cell (as --set takes it) and where it is, row and column counted from 1 ("cell 0" alone read as
        broken, a lecturer's trial)."""
        row, col = divmod(self.cell, N_SUMMARY_COLS)
        return _("{cell} (row {row}, column {col})").format(cell=self.cell, row=row + 1, col=col + 1)

    def row_moved(self, rows: int) -> "SummaryState":
        """The cursor one row up or down (↑/↓), same column."""
        new = self.cell + rows * N_SUMMARY_COLS
        return self if not 0 <= new < N_SUMMARY_CELLS else replace(self, cell=new)

    def read(self) -> SummaryReadings:
        table, links = [], []
        for r in sm.SUMMARY:
            cells = [getattr(r, col) for col in SUMMARY_KEYS]
            table.append(tuple(c.text for c in cells))
            links.append(tuple(None if c.link is None else {
                "target": c.link.target, "sets": tuple(f"{k}={v}" for k, v in c.link.sets.items()),
                "step": c.link.step, "command": "rnntui " + " ".join(c.link.argv())} for c in cells))
        row, col = divmod(self.cell, N_SUMMARY_COLS)
        return SummaryReadings(tuple(label for _, label in sm.SUMMARY_COLUMNS), sm.SUMMARY_SHORT,
                               tuple(r.model for r in sm.SUMMARY),
                               tuple(table), tuple(links), row, col, table[row][col], links[row][col])
