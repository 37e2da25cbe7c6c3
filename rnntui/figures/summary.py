"""T5's closing table: RNN, LSTM/GRU, seq2seq with attention and the Transformer, what each fixed and
what it left, each cell linked to the figure that shows it (figure content, not computation: it was in
the engine, which knows no figure's address, a code review)."""
from __future__ import annotations

from dataclasses import dataclass, field

from rnntui.i18n import N_


@dataclass(frozen=True)
class Link:
    """A figure elsewhere in the app that shows this cell: `rnntui TARGET --set K=V … --step N`."""
    target: str  # "topic/figure"
    sets: dict = field(default_factory=dict)  # --set values, as strings
    step: int | None = None

    def argv(self) -> list[str]:
        args = [self.target]
        for k, v in self.sets.items():
            args += ["--set", f"{k}={v}"]
        return args + (["--step", str(self.step)] if self.step is not None else [])


@dataclass(frozen=True)
class Cell:
    text: str
    link: Link | None = None


@dataclass(frozen=True)
class SummaryRow:
    model: str
    path_length: Cell
    parallel: Cell
    per_layer: Cell
    inference: Cell
    fixed: Cell
    left: Cell


SUMMARY_COLUMNS = (("model", N_("model")), ("path_length", N_("path length")),
                   ("parallel", N_("parallel in training")), ("per_layer", N_("per-layer cost")),
                   ("inference", N_("keeps at inference")), ("fixed", N_("what it fixed")),
                   ("left", N_("what it left")))
SUMMARY_SHORT = (N_("path"), N_("parallel"), N_("cost"), N_("keeps"), N_("fixed"), N_("left"))  # narrow labels

SUMMARY = (
    SummaryRow("RNN",
               Cell("O(n)", Link("parallel/path", {"mode": "recurrent"}, 8)),
               Cell(N_("no"), Link("parallel/grid", {"mode": "recurrent", "n": "8"}, 8)),
               Cell("O(n·d²)", Link("parallel/cost", {"d": "512"})),
               Cell(N_("a fixed state h_t"), Link("recurrence/track")),
               Cell(N_("a state carried along: any length, one rule")),
               Cell(N_("gradients vanish or explode over the chain"),
                    Link("gradients/product", {"act": "relu", "w_h": "1.6"}))),
    SummaryRow("LSTM/GRU",
               Cell("O(n)", Link("lstm/path")),
               Cell(N_("no"), Link("parallel/grid", {"mode": "recurrent", "n": "8"}, 8)),
               Cell("O(n·d²)", Link("parallel/cost", {"d": "512"})),
               Cell(N_("a fixed state (h_t; LSTM c_t)")),  # (a GRU keeps h_t alone, a mathematician's audit)
               Cell(N_("an additive cell path: gradients survive far longer"), Link("lstm/path")),
               Cell(N_("still a chain: O(n) path, serial steps, one fixed-size state"))),
    SummaryRow("seq2seq+attention",
               Cell(N_("O(1) decoder→encoder"), Link("seq2seq/matrix")),
               Cell(N_("no")),
               Cell(N_("O(n·d²) + O(n·m·d) alignment")),
               Cell(N_("all encoder states + the decoder state")),
               Cell(N_("the one-vector bottleneck: every source state stays readable"), Link("seq2seq/matrix")),
               Cell(N_("both sides still recurrent: serial, O(n) within a sequence"))),
    SummaryRow("Transformer",
               Cell("O(1)", Link("parallel/path", {"mode": "attention"}, 8)),
               Cell(N_("yes"), Link("parallel/grid", {"mode": "attention", "n": "8"}, 1)),
               Cell("O(n²·d)", Link("parallel/cost", {"d": "512"})),
               Cell(N_("a growing KV cache"), Link("serving/kvcache")),
               Cell(N_("recurrence gone: O(1) path, every position trained at once")),
               Cell(N_("O(n²) cost and a KV cache that grows with the context"), Link("serving/kvcache"))),
)
