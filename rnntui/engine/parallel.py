"""T6 `parallel`: what dropping recurrence bought, and what it costs.

A layer is a set of per-position jobs with dependencies. A job can run at the first wallclock
step after everything it reads is done (an as-soon-as-possible schedule). A recurrent layer's
position i reads h_{i-1}, so the jobs form a chain; a self-attention layer's positions read only
the layer's inputs, so they all run at once. Everything else here follows from those two graphs
or from counting multiply–adds.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MODES = ("recurrent", "attention")


# -- the wallclock schedule (F15, F18) ----------------------------------------------------------
def dependencies(mode: str, n: int) -> list[list[int]]:
    """For each position, the positions of the same layer whose output it must wait for."""
    if mode == "recurrent":
        return [[i - 1] if i else [] for i in range(n)]  # h_i = f(h_{i-1}, x_i)
    if mode == "attention":
        return [[] for _ in range(n)]  # y_i = Σ_j softmax(q_i·k_j) v_j reads only the inputs x
    raise ValueError(f"unknown layer {mode!r}: {', '.join(MODES)}")


def start_steps(deps: list[list[int]]) -> np.ndarray:
    """Wallclock step (0-based) at which each job runs: one step after its last dependency."""
    start = np.full(len(deps), -1, dtype=int)

    def when(i: int) -> int:
        if start[i] < 0:
            start[i] = 1 + max((when(j) for j in deps[i]), default=-1)
        return int(start[i])

    for i in range(len(deps)):
        when(i)
    return start


def schedule(mode: str, n: int) -> np.ndarray:
    """busy[i, s]: position i works at wallclock step s; an n×n grid (n columns of wallclock)."""
    start = start_steps(dependencies(mode, n))
    busy = np.zeros((n, n), dtype=bool)
    busy[np.arange(n), start] = True
    return busy


def sequential_steps(busy: np.ndarray) -> int:
    """The layer's depth on the wallclock: how many steps have any work in them."""
    return int(np.asarray(busy).any(axis=0).sum())


def steps_used(busy: np.ndarray, now: int) -> int:
    """Wallclock steps among the first `now` that had work in them."""
    return sequential_steps(np.asarray(busy)[:, :now])


def busy_cells(busy: np.ndarray, now: int) -> int:
    """(position, step) cells that did work during the first `now` steps."""
    return int(np.asarray(busy)[:, :now].sum())


def done_positions(busy: np.ndarray, now: int) -> int:
    """Positions whose output exists after `now` steps."""
    return int(np.asarray(busy)[:, :now].any(axis=1).sum())


# -- path length (F19) ----------------------------------------------------------------------------
def path_hops(mode: str, k: int) -> list[tuple[int, int]]:
    """The edges a signal from token 0 crosses to reach token k within one layer."""
    if mode == "recurrent":
        return [(i, i + 1) for i in range(k)]  # through h_1, h_2, …, h_k: one W_h each
    if mode == "attention":
        return [(0, k)] if k else []  # position k attends to position 0 directly
    raise ValueError(f"unknown layer {mode!r}: {', '.join(MODES)}")


def path_length(mode: str, k: int) -> int:
    """Multiplications between token 0 and token k."""
    return len(path_hops(mode, k))


def path_gain(mode: str, k: int, factor: float) -> float:
    """What is left of a signal after the path, if every hop multiplies it by `factor`."""
    return float(factor) ** path_length(mode, k)


# -- cost per layer (F21) and Table 1 -----------------------------------------------------------
def recurrent_cost(n, d):
    """Multiply–adds of a recurrent layer: n steps, each a d×d matrix times a vector."""
    return np.asarray(n, dtype=float) * float(d) ** 2


def attention_cost(n, d):
    """Multiply–adds of a self-attention layer's scores: n² pairs, each a d-long dot product."""
    return np.asarray(n, dtype=float) ** 2 * float(d)


def crossover(d: float) -> float:
    """The n > 0 where n·d² = n²·d: divide both sides by n·d, so n = d."""
    return float(d)


@dataclass(frozen=True)
class LayerRow:
    layer: str
    per_layer: str
    sequential: str
    max_path: str


# Vaswani et al. 2017, "Attention Is All You Need", Table 1 (n length, d width, k kernel, r neighbourhood)
TABLE_1 = (
    LayerRow("Self-Attention", "O(n²·d)", "O(1)", "O(1)"),
    LayerRow("Recurrent", "O(n·d²)", "O(n)", "O(n)"),
    LayerRow("Convolutional", "O(k·n·d²)", "O(1)", "O(logₖ(n))"),
    LayerRow("Self-Attention (restricted)", "O(r·n·d)", "O(1)", "O(n/r)"),
)


# -- capacity (F14) -------------------------------------------------------------------------------
def capacity(width: float, n: float) -> float:
    """Numbers of a fixed-width state available to each of n tokens it summarises."""
    return float(width) / float(n)


# -- the timing lab's counting (E6); the measurement itself lives in lab_timing ------------------
TIMING_D = 256
TIMING_T = (64, 256, 1024, 4096)
# the seed's laptop CPU at T = 4096: the RNN does 1/16 of the FLOPs yet is only 3.6× faster,
# so attention runs at 4.5× the FLOP rate; below T = 1024 both forwards take under 1 ms
SEED_LAPTOP = {"T": 4096, "rnn_speedup": 3.6, "flop_ratio": 1 / 16, "rate_ratio": 4.5, "under_1ms_below": 1024}


def rnn_flops(T: int, d: int = TIMING_D) -> int:
    """FLOPs of an RNN forward: per step W_ih·x and W_hh·h, 2·d² each (a multiply and an add)."""
    return 4 * T * d * d


def attention_flops(T: int, d: int = TIMING_D) -> int:
    """FLOPs of the attention core: Q·Kᵀ (2·T²·d) and A·V (2·T²·d); projections not counted."""
    return 4 * T * T * d
