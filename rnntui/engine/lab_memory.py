"""T7 lab (torch): train the copy-first-token task of `engine.memory` and read the trained gates.

Imported lazily (by the `train` command, tests and bench/), never at startup.

Model: Embedding(n_in, 64) → one layer of nn.RNN (tanh) or nn.LSTM (64 → 64) → Linear(64, 10) on the
last output. Batch 64 of fresh sequences a step, Adam 1e-3, gradient norm clipped at 1.0.
torch.manual_seed(seed) makes the initialisation; the batches come from their own generator
(data seed 1), the 2000 evaluation sequences from another (seed 2), so evaluating never moves them.

Two ways to train the same model:

* `plain_step`: the straightforward loop, autograd through nn.RNN / nn.LSTM. The reference.
* `Fast`: all parameters in one flat tensor (Adam steps one tensor; the clipping norm is taken as
  clip_grad_norm_ takes it, so equal gradients give bit-equal steps), and:
  - RNN: the gradients computed by hand, no autograd graph — embedding, W_ih and both biases are one
    table looked up once per batch; the loops through time are TorchScript, an addmm and a tanh a step
    forward, a mul and an mm a step back; weight gradients are single matmuls over all steps.
    ~2.5× the plain loop's steps/s.
  - LSTM: a hand version exists (`Fast(..., hand=True)`; it also reads the gates for E7), but torch's
    fused CPU LSTM (oneDNN forward and backward) is ~10% faster than it here, so training runs
    torch.lstm with autograd on views of the flat tensor: the plain loop bit for bit (tested).
  - evaluation scores the 2000 sequences 250 at a time (~2× faster than one forward over 2000).
  The hand RNN (and hand LSTM) have autograd's gradients to float rounding (checked in the tests), so
  the RNN takes the plain loop's steps until rounding sends them apart.
"""
from __future__ import annotations

import os
import time
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from rnntui.engine import memory as mem
from rnntui.engine.lab_flat import flat_parameters
from rnntui.state import BadValue

V, E, H = mem.VOCAB, mem.EMB, mem.HIDDEN
BATCH, LR, CLIP = mem.BATCH, mem.LR, mem.CLIP


# -- data -------------------------------------------------------------------------------------------
def n_inputs(distractors: str | None) -> int:
    """Input symbols: 10, or 20 for the distractor variants (10 more that only distractors use)."""
    return V if distractors is None else 2 * V


def generator(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def batch(gen: torch.Generator, n: int, T: int, distractors: str | None = None) -> torch.Tensor:
    """(n, T) int64 tokens; the target is column 0. 'disjoint' draws tokens 1…T−1 from 10…19."""
    x = torch.randint(0, V, (n, T), generator=gen)
    if distractors == "disjoint":
        x[:, 1:] += V
    elif distractors not in (None, "same"):
        raise BadValue(f"distractors {distractors!r}: choose from {', '.join(mem.DISTRACTORS)}")
    return x


def eval_set(T: int, distractors: str | None = None, n: int = mem.N_EVAL) -> torch.Tensor:
    return batch(generator(mem.EVAL_SEED), n, T, distractors)


# -- the reference model --------------------------------------------------------------------------------
class Model(nn.Module):
    def __init__(self, cell: str, n_in: int = V) -> None:
        super().__init__()
        self.cell = mem.check_cell(cell)
        self.emb = nn.Embedding(n_in, E)
        self.rnn = nn.RNN(E, H, batch_first=True) if cell == "rnn" else nn.LSTM(E, H, batch_first=True)
        self.out = nn.Linear(H, V)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, _ = self.rnn(self.emb(x))
        return self.out(h[:, -1])

    def named(self) -> dict[str, torch.Tensor]:
        return {"emb": self.emb.weight, "W_ih": self.rnn.weight_ih_l0, "W_hh": self.rnn.weight_hh_l0,
                "b_ih": self.rnn.bias_ih_l0, "b_hh": self.rnn.bias_hh_l0,
                "out.W": self.out.weight, "out.b": self.out.bias}


def fill_forget_bias(model: Model) -> Model:
    """Set the forget slice (gates are stacked i, f, g, o) of the biases for the cell:
    lstm-bf1: b_ih = 1, b_hh = 0 (effective 1); lstm-bf2: both 1 (effective 2, as the seed's code)."""
    if model.cell in ("lstm-bf1", "lstm-bf2"):
        with torch.no_grad():
            model.rnn.bias_ih_l0[H:2 * H].fill_(1.0)
            model.rnn.bias_hh_l0[H:2 * H].fill_(1.0 if model.cell == "lstm-bf2" else 0.0)
    return model


def initial(cell: str, seed: int = mem.SEED, n_in: int = V) -> Model:
    torch.manual_seed(seed)
    return fill_forget_bias(Model(cell, n_in))


def plain_step(model: Model, opt: torch.optim.Optimizer, x: torch.Tensor) -> float:
    """One step of the straightforward loop."""
    loss = F.cross_entropy(model(x), x[:, 0])
    opt.zero_grad(set_to_none=True)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    opt.step()
    return loss.item()


class Plain:
    """The reference loop behind the same interface as `Fast` (step, predict, arrays)."""

    def __init__(self, model: Model) -> None:
        self.model, self.cell = model, model.cell
        self.opt = torch.optim.Adam(model.parameters(), lr=LR)

    def step(self, x: torch.Tensor) -> float:
        return plain_step(self.model, self.opt, x)

    @torch.no_grad()
    def predict(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x).argmax(1)

    def params(self) -> dict[str, torch.Tensor]:
        return {k: t.detach() for k, t in self.model.named().items()}


# -- the fast trainer: the loops through time (TorchScript-compiled when available) ------------------
def lstm_forward(GI: torch.Tensor, W_hhT: torch.Tensor, HH: torch.Tensor, CC: torch.Tensor,
                 S: torch.Tensor, TC: torch.Tensor) -> None:
    """From HH[0] = h_0, CC[0] = c_0: gates S[t] = [i, f, g, o], c (CC[t+1]), tanh c (TC[t]), h (HH[t+1])."""
    H = HH.shape[2]
    for t in range(GI.shape[0]):
        pre = torch.addmm(GI[t], HH[t], W_hhT)
        s = S[t]
        torch.sigmoid(pre, out=s)
        torch.tanh(pre[:, 2 * H:3 * H], out=s[:, 2 * H:3 * H])
        c = torch.mul(s[:, H:2 * H], CC[t], out=CC[t + 1])
        c.addcmul_(s[:, :H], s[:, 2 * H:3 * H])
        torch.mul(s[:, 3 * H:], torch.tanh(c, out=TC[t]), out=HH[t + 1])


def lstm_backward(dh: torch.Tensor, Fc: torch.Tensor, F3: torch.Tensor, Fo: torch.Tensor, Fgate: torch.Tensor,
                  W_hh: torch.Tensor, DG: torch.Tensor) -> None:
    """Backward through time from ∂loss/∂h_T; fills DG[t] = ∂loss/∂(gate pre-activations at t).

    dc_t = dc_{t+1}·f_{t+1} + dh_t·Fc_t; [di, df, dg] = dc_t·F3_t; do = dh_t·Fo_t; dh_{t−1} = DG_t W_hh."""
    T, B, H = Fc.shape[0], Fc.shape[1], Fc.shape[2]
    dc = torch.mul(dh, Fc[T - 1])
    for i in range(T):
        t = T - 1 - i
        dg = DG[t]
        torch.mul(dc.unsqueeze(1), F3[t], out=dg.view(B, 4, H)[:, :3])
        torch.mul(dh, Fo[t], out=dg[:, 3 * H:])
        if t > 0:
            dh = torch.mm(dg, W_hh)
            dc = torch.addcmul(dh * Fc[t - 1], dc, Fgate[t])


def rnn_forward(GI: torch.Tensor, W_hhT: torch.Tensor, HH: torch.Tensor) -> None:
    for t in range(GI.shape[0]):
        torch.tanh(torch.addmm(GI[t], HH[t], W_hhT), out=HH[t + 1])


def rnn_backward(dh: torch.Tensor, D: torch.Tensor, W_hh: torch.Tensor, DA: torch.Tensor) -> None:
    """DA[t] = dh_t·(1 − h_t²); dh_{t−1} = DA[t] W_hh."""
    T = D.shape[0]
    for i in range(T):
        t = T - 1 - i
        torch.mul(dh, D[t], out=DA[t])
        if t > 0:
            dh = torch.mm(DA[t], W_hh)


_LOOPS: dict = {}


def loops() -> dict:
    """The loops, compiled by TorchScript once (less Python per op), else as they are."""
    if not _LOOPS:
        funcs = {f.__name__: f for f in (lstm_forward, lstm_backward, rnn_forward, rnn_backward)}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _LOOPS.update({name: torch.jit.script(f) for name, f in funcs.items()})
        except Exception:  # noqa: BLE001 - no TorchScript here: plain Python
            _LOOPS.update(funcs)
    return _LOOPS


class Fast:
    """The same model and gradients as `Model`. Parameters in one flat tensor.

    The RNN's gradients are computed by hand (2.5× faster than autograd here). For the LSTM the hand
    version (`hand=True`, also what reads the gates) is ~10% slower than torch's fused CPU LSTM
    (oneDNN forward and backward in torch 2.x), so by default the LSTM runs torch.lstm with autograd on
    views of the flat tensor: the plain loop's arithmetic, bit for bit."""

    def __init__(self, cell: str, init: dict, hand: bool = False) -> None:
        self.cell = mem.check_cell(cell)
        self.lstm = cell != "rnn"
        self.fused = self.lstm and not hand
        self.flat, self.p, self.g = flat_parameters({k: tuple(t.shape) for k, t in init.items()})
        for k, t in init.items():
            self.p[k].copy_(t.detach())
        self.opt = torch.optim.Adam([self.flat], lr=LR)
        self._key = None

    def params(self) -> dict[str, torch.Tensor]:
        return self.p

    def _buffers(self, B: int, T: int) -> dict:
        if self._key != (B, T):
            G = 4 * H if self.lstm else H
            self._key = (B, T)
            self._buf = {"HH": torch.zeros(T + 1, B, H), "CC": torch.zeros(T + 1, B, H),
                         "S": torch.empty(T, B, G), "TC": torch.empty(T, B, H), "DG": torch.empty(T, B, G)}
        return self._buf

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> dict:
        """Run the sequences (B, T); returns the buffers (HH: h, S: LSTM gates [i, f, g, o], …)."""
        P = self.p
        B, T = x.shape
        buf = self._buffers(B, T)
        tab = torch.addmm(P["b_ih"] + P["b_hh"], P["emb"], P["W_ih"].t())  # (n_in, G)
        GI = torch.embedding(tab, x.t())  # (T, B, G)
        L = loops()
        if self.lstm:
            L["lstm_forward"](GI, P["W_hh"].t(), buf["HH"], buf["CC"], buf["S"], buf["TC"])
        else:
            L["rnn_forward"](GI, P["W_hh"].t(), buf["HH"])
        return buf

    def _fused_loss_and_grad(self, x: torch.Tensor) -> float:
        views, at = {}, 0
        for k, t in self.p.items():
            views[k] = self.flat[at:at + t.numel()].view(t.shape)
            at += t.numel()
        h0 = torch.zeros(1, x.shape[0], H)
        out, _, _ = torch.lstm(F.embedding(x, views["emb"]), (h0, h0),
                               [views["W_ih"], views["W_hh"], views["b_ih"], views["b_hh"]],
                               True, 1, 0.0, True, False, True)
        loss = F.cross_entropy(F.linear(out[:, -1], views["out.W"], views["out.b"]), x[:, 0])
        self.flat.grad.zero_()
        loss.backward()
        return loss.item()

    @torch.no_grad()
    def loss_and_grad(self, x: torch.Tensor) -> float:
        if self.fused:
            with torch.enable_grad():
                return self._fused_loss_and_grad(x)
        P, Gr = self.p, self.g
        B, T = x.shape
        buf = self.forward(x)
        HH, DG = buf["HH"], buf["DG"]
        h = HH[T]
        logp = torch.log_softmax(torch.addmm(P["out.b"], h, P["out.W"].t()), 1)
        y = x[:, 0]
        rows = torch.arange(B)
        loss = -logp[rows, y].mean()
        dl = logp.exp_()
        dl[rows, y] -= 1.0
        dl.div_(B)
        torch.mm(dl.t(), h, out=Gr["out.W"])
        torch.sum(dl, 0, out=Gr["out.b"])
        dh = torch.mm(dl, P["out.W"])
        L = loops()
        if self.lstm:
            S, TC, CC = buf["S"], buf["TC"], buf["CC"]
            i, f, g, o = S[..., :H], S[..., H:2 * H], S[..., 2 * H:3 * H], S[..., 3 * H:]
            Fc = o * (1 - TC * TC)  # ∂h/∂c through tanh
            F3 = torch.stack([g * i * (1 - i), CC[:-1] * f * (1 - f), i * (1 - g * g)], 2)  # ∂c/∂(i, f, g pre)
            Fo = TC * o * (1 - o)  # ∂h/∂(o pre)
            L["lstm_backward"](dh, Fc, F3, Fo, f, P["W_hh"], DG)
        else:
            L["rnn_backward"](dh, 1 - HH[1:] * HH[1:], P["W_hh"], DG)
        G = DG.shape[2]
        torch.mm(DG[1:].reshape(-1, G).t(), HH[1:T].reshape(-1, H), out=Gr["W_hh"])  # h_0 = 0
        dtab = torch.zeros(P["emb"].shape[0], G).index_add_(0, x.t().reshape(-1), DG.view(-1, G))
        torch.sum(dtab, 0, out=Gr["b_ih"])
        Gr["b_hh"].copy_(Gr["b_ih"])
        torch.mm(dtab.t(), P["emb"], out=Gr["W_ih"])
        torch.mm(dtab, P["W_ih"], out=Gr["emb"])
        return loss.item()

    def step(self, x: torch.Tensor) -> float:
        """One training step: gradient, clip the global norm to CLIP, Adam.

        The norm is taken as clip_grad_norm_ takes it (the norm of the per-parameter norms, the factor
        clamped at 1 in float32), so with the same gradients the step is bit for bit the plain one's."""
        loss = self.loss_and_grad(x)
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in self.g.values()]))
        self.flat.grad.mul_(torch.clamp(CLIP / (total + 1e-6), max=1.0))
        self.opt.step()
        return loss

    @torch.no_grad()
    def predict(self, x: torch.Tensor) -> torch.Tensor:
        return predict(self.cell, self.p, x)


EVAL_CHUNK = 250  # a forward over 250 sequences at a time is ~2× faster than over 2000 here (cache)


@torch.no_grad()
def predict(cell: str, p: dict, x: torch.Tensor) -> torch.Tensor:
    """The predicted first token of each sequence: batched forwards through torch's fused layer."""
    if x.shape[0] > EVAL_CHUNK:
        return torch.cat([predict(cell, p, part) for part in x.split(EVAL_CHUNK)])
    inp = torch.embedding(p["emb"], x)
    h0 = torch.zeros(1, x.shape[0], H)
    weights = [p["W_ih"], p["W_hh"], p["b_ih"], p["b_hh"]]
    if cell == "rnn":
        out, _ = torch.rnn_tanh(inp, h0, weights, True, 1, 0.0, False, False, True)
    else:
        out, _, _ = torch.lstm(inp, (h0, h0), weights, True, 1, 0.0, False, False, True)
    return torch.addmm(p["out.b"], out[:, -1], p["out.W"].t()).argmax(1)


def accuracy(trainer, xe: torch.Tensor) -> float:
    """Exact accuracy on the evaluation sequences; k/2000 is exact in 4 decimals."""
    return round(int((trainer.predict(xe) == xe[:, 0]).sum()) / xe.shape[0], 6)


# -- a run ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    step: int
    steps: int
    loss: float
    seconds: float
    acc: float | None = None  # at evaluation steps


@dataclass(frozen=True)
class Trained:
    run: mem.Run
    stopped: bool  # should_stop() ended it early
    trainer: object  # Fast or Plain, for reading the weights or the gates


def make_trainer(cell: str, seed: int, n_in: int, fast: bool):
    model = initial(cell, seed, n_in)
    return Fast(cell, model.named()) if fast else Plain(model)


def train(cell: str, T: int, steps: int | None = None, seed: int = mem.SEED, data_seed: int = mem.DATA_SEED,
          fast: bool = True, every: int = mem.EVERY, stop_every: int | None = -1,
          progress: Callable[[Progress], None] | None = None, should_stop: Callable[[], bool] | None = None,
          distractors: str | None = None, threads: int = 1, check_T: bool = True) -> Trained:
    """Train one cell at one T with the recipe; evaluate every `every` steps on the 2000 sequences.

    steps defaults to the cell's (1500, 6000 for the forget-bias cells); stop_every (default: the cell's,
    500 for the forget-bias cells, else none) stops at the first such evaluation at 100%.
    `should_stop()` is checked before every step; `progress` gets every step (acc at evaluations).
    """
    mem.check_cell(cell)
    if check_T:
        mem.check_T(T)
    elif isinstance(T, bool) or not isinstance(T, int) or not 2 <= T <= 1000:
        raise BadValue(f"T={T!r}: a whole number from 2 to 1000")
    steps = mem.STEPS[cell] if steps is None else steps
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise BadValue(f"steps={steps!r}: a whole number ≥ 1")
    if stop_every == -1:
        stop_every = mem.STOP_EVERY.get(cell)
    torch.set_num_threads(threads)
    trainer = make_trainer(cell, seed, n_inputs(distractors), fast)
    gen = generator(data_seed)
    xe = eval_set(T, distractors)
    curve, window, step, stopped = [], [], 0, False
    start = time.perf_counter()
    for step in range(1, steps + 1):
        if should_stop is not None and should_stop():
            step -= 1
            stopped = True
            break
        loss = trainer.step(batch(gen, BATCH, T, distractors))
        window.append(loss)
        acc = None
        if step % every == 0 or step == steps:
            acc = accuracy(trainer, xe)
            curve.append((step, acc, round(float(np.mean(window)), 5)))
            window = []
        if progress is not None:
            progress(Progress(step, steps, loss, time.perf_counter() - start, acc))
        if acc is not None and stop_every and step % stop_every == 0 and mem.learned(acc):
            break
    if step > 0 and (not curve or curve[-1][0] != step):
        curve.append((step, accuracy(trainer, xe), round(float(np.mean(window)), 5)))
    run = mem.make_run(cell, T, step, seed, curve, time.perf_counter() - start, str(torch.__version__))
    return Trained(run, stopped, trainer)


def run_grid(cells=mem.CELLS, Ts=mem.TS, fast: bool = True, on_run: Callable[[mem.Run], None] | None = None,
             progress: Callable[[str, Progress], None] | None = None,
             should_stop: Callable[[], bool] | None = None, steps: int | None = None,
             seed: int = mem.SEED) -> mem.Results:
    """Every cell × T once with the recipe (`steps`, `seed` as train's, for every cell); `on_run` gets each
    finished run (e.g. to save as it goes)."""
    runs = []
    for cell in cells:
        for T in Ts:
            label = f"{cell} T={T}"
            done = train(cell, T, steps=steps, seed=seed, fast=fast, should_stop=should_stop,
                         progress=(lambda p, label=label: progress(label, p)) if progress else None)
            if done.stopped:
                return mem.Results(tuple(runs))
            runs.append(done.run)
            if on_run:
                on_run(done.run)
    return mem.Results(tuple(runs))


# -- E7: the gates of a trained LSTM with distractors ----------------------------------------------------
@torch.no_grad()
def gate_profile(trainer: Fast, x: torch.Tensor) -> dict:
    """Mean input and forget gate per position over the batch (and units); the units that hold memory."""
    S = trainer.forward(x)["S"]  # (T, B, 4H)
    i = S[..., :H].mean(1)  # (T, H): batch means
    f = S[..., H:2 * H].mean(1)
    held = [int(u) for u in torch.nonzero(f[1:].min(0).values > mem.HOLD).flatten()]
    return {"input_gate": [round(float(v), 5) for v in i.mean(1)],
            "forget_gate": [round(float(v), 5) for v in f.mean(1)],
            "held_units": held,
            "held_forget": [round(float(v), 5) for v in f[:, held].mean(1)] if held else [],
            "held_input": [round(float(v), 5) for v in i[:, held].mean(1)] if held else []}


def distractor_gates(distractors: str, cell: str = mem.DISTRACTOR_CELL, T: int = mem.DISTRACTOR_T,
                     steps: int | None = None, progress=None, should_stop=None) -> mem.Gates:
    """Train on first token + T−1 distractors (same or disjoint symbols), then read the gates on 512
    fresh sequences."""
    if cell == "rnn":
        raise BadValue("distractor gates need an LSTM cell")
    done = train(cell, T, steps=steps, distractors=distractors, progress=progress, should_stop=should_stop,
                 check_T=False)
    x = batch(generator(mem.EVAL_SEED + 1), 512, T, distractors)
    prof = gate_profile(done.trainer, x)
    return mem.Gates(distractors, cell, T, done.run.steps, done.run.final_acc, tuple(prof["input_gate"]),
                     tuple(prof["forget_gate"]), tuple(prof["held_units"]), tuple(prof["held_forget"]),
                     tuple(prof["held_input"]), done.run.seconds, str(torch.__version__))


# -- the shipped grid -----------------------------------------------------------------------------------
def run_line(run: mem.Run) -> str:
    """A finished run in a line (English: `rnntui train memory --all` says it in the app's language)."""
    reached = "never" if run.reached_100_at is None else run.reached_100_at
    return (f"{run.cell:<9} T={run.T:<3} acc {run.final_acc:7.2%}  100% at {reached}  {run.steps} steps  "
            f"{run.seconds:.1f} s")


def write_grid(path, cells=mem.CELLS, Ts=mem.TS, gates: bool = True, log=None, steps: int | None = None,
               seed: int = mem.SEED, write=None) -> mem.Results:
    """Train the whole grid (and the two distractor runs) with the fast trainer, rewriting `path`
    after every run so that an interrupted run leaves a valid file. `log(run)`: each run once it is
    saved (default: its `run_line`, printed); `steps`, `seed`: the grid's runs'; `write(text)`: how the
    file is written (default: atomically at `path`)."""
    from rnntui.files import write_atomic

    write = write or (lambda text: write_atomic(str(path), text))
    log = log or (lambda run: print(run_line(run), flush=True))
    results = mem.Results(())

    def keep(run: mem.Run) -> None:
        nonlocal results
        results = results.merged(mem.Results((run,)))
        write(results.dumps())
        log(run)

    run_grid(cells, Ts, on_run=keep, steps=steps, seed=seed)
    if gates:
        for kind in mem.DISTRACTORS:
            g = distractor_gates(kind)
            results = results.merged(mem.Results((), (g,)))
            write(results.dumps())
            log(f"distractors {kind}: acc {g.acc:.2%} after {g.steps} steps; input gate mean "
                f"{np.mean(g.input_gate):.2f}; {len(g.held_units)} units hold (f > {mem.HOLD} throughout)")
    return results


# -- the live lab: `t` on the copy figure ---------------------------------------------------------------
REPORT_S = 0.1  # between progress reports (every evaluation is reported as well)


def run_lab(state, report) -> dict:
    """Train `state.cell` at `state.T` with the recipe on one thread, in the lab runner's child process.

    Reports (done, total, label, partial) with partial = {"cell", "T", "step", "steps", "curve": [[step,
    acc, loss], …]} at most every REPORT_S and at every evaluation, so the figure's curve grows as it
    trains. At the end the run is merged into the user cache; returns its record (mem.Run.record()) with
    "saved" (the cache path) or "save_error" (one line)."""
    cell, T = mem.check_cell(state.cell), mem.check_T(int(state.T))
    steps = mem.STEPS[cell]
    label = f"training {cell} T={T}"
    curve: list[list] = []
    window: list[float] = []
    sent = [0.0]

    def partial(step: int) -> dict:
        return {"cell": cell, "T": T, "step": step, "steps": steps, "curve": [list(p) for p in curve]}

    report(0, steps, label, partial(0))

    def on_progress(p: Progress) -> None:
        window.append(p.loss)
        if p.acc is not None:  # the same point train() records: the mean loss since the last one
            curve.append([p.step, p.acc, round(float(np.mean(window)), 5)])
            window.clear()
        now = time.monotonic()
        if p.acc is None and now - sent[0] < REPORT_S:
            return
        sent[0] = now
        report(p.step, steps, label, partial(p.step))

    done = train(cell, T, progress=on_progress, threads=1)
    record = done.run.record()
    try:
        record["saved"] = str(mem.save_cache(mem.Results((done.run,))))
    except (OSError, ValueError) as e:
        record["save_errno"] = getattr(e, "errno", None)  # (the app says why in its language)
        if getattr(e, "filename", None):  # (where: "not saved: permission denied" named nothing, a trial)
            record["save_path"] = os.fsdecode(e.filename)
        first = str(e).splitlines()[0][:300] if str(e) else type(e).__name__
        record["save_error"] = getattr(e, "strerror", None) or first
    report(done.run.steps, done.run.steps, label, partial(done.run.steps))
    return record


if __name__ == "__main__":  # the shipped grid, gates included (`rnntui train memory --all` trains no gates)
    import argparse

    ap = argparse.ArgumentParser(prog="python -m rnntui.engine.lab_memory",
                                 description="Train the whole grid and the distractor runs into OUT, rewritten "
                                             f"after every run (the shipped one is {mem.shipped_path()}).")
    ap.add_argument("out", metavar="OUT", help="the grid's JSON file")
    write_grid(ap.parse_args().out)
