"""T4 `seq2seq`: the alignment matrix of a trained model (E4), additive vs dot scoring (E5) and what
the decoder may read (F20)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np

from rnntui.engine import seq2seq as s2s
from rnntui.figure import LabRun
from rnntui.files import home_short
from rnntui.i18n import N_
from rnntui.state import FigureState, param

LETTERS = "abcdefghijklmnopqrst"  # token id → the letter it is drawn as
ORDER = ("additive", "dot", "none")  # the `s` key cycles in this order
WEIGHTS = ("shipped", "cached", "live")  # the `w` key: the model the matrix draws
LAST_K = s2s.LENGTH - 1
EVERY = s2s.EVERY  # the recorded runs evaluated every this many steps
TARGET = s2s.TARGET  # the seed's exact-sequence accuracy with additive attention
LIVE_STEPS = s2s.LIVE_STEPS


def letters(tokens) -> str:
    return "".join(LETTERS[int(t)] for t in tokens)


@dataclass(frozen=True)
class LiveReadings:
    """Where a live training run (the matrix figure's lab) stands, as the side panel says it."""

    status: str  # training, stopped, trained, failed
    scoring: str
    loaded: bool  # torch has started and sent weights
    step: int
    steps: int
    loss: float | None  # None until a finite one arrives
    exact: float | None
    message: str = ""


@dataclass(frozen=True)
class CachedReadings:
    """The newest model `rnntui train seq2seq` cached for this scoring that reads (the `w` key's "cached")."""

    path: str  # ~/… where it is; "" where nothing cached reads
    seed: int | None
    steps: int | None
    validation: dict | None  # {"exact", "token"} on the 1000, as recorded when it was trained
    fresh: dict | None  # {"exact", "token", "n", "seed"} on the fresh set (records before it was added: None)
    unread: str = ""  # a newer cached file that does not read, or ""
    problem: str = ""  # why, in English, or ""
    problem_errno: int | None = None  # for the screen to say it in the app's language: the OSError's errno,
    problem_id: str = ""  # or the message's msgid and its words
    problem_words: dict = field(default_factory=dict)


@dataclass(frozen=True)
class MatrixReadings:
    weights: str  # the model drawn: "live", "cached" or "shipped"
    x: tuple[int, ...]
    target: tuple[int, ...]
    output: tuple[int, ...]
    right: tuple[bool, ...]  # output == target, per step
    wrong: tuple[int, ...]  # the steps where it is not
    n_wrong: int
    alignment: tuple | None  # α, one row per output step (None without attention)
    row: tuple[float, ...] | None  # α at step k
    looks_at: int | None  # argmax of that row
    looks_weight: float | None  # its weight
    copies: int  # the source position the target at step k is copied from: LAST_K − k (the reversal)
    shift: int | None  # looks_at − copies: 0 at k = 0, 1 for k ≥ 1 (the decoder reads the state after the
    #                    token it copies: the one that read its previous output, and still remembers this one)
    fresh: dict  # scoring → {"exact", "token", "n", "seed"} of each shipped model on the fresh set, never seen
    #              in training (the held-out figure: "held-out 1000" was the set whose first 76% ended each run)
    validation: dict  # scoring → {"exact", "token", "steps"} on the 1000 validation sequences, as recorded when
    #                   trained, and the steps its run took (stopped at its first 76% there, or all of them)
    seed: dict
    live: LiveReadings | None
    cached: CachedReadings | None = None  # `w` chose the cached model: it, or why the shipped one is drawn


def live_snapshot(run: LabRun) -> dict | None:
    """The weights and numbers the live run last sent: its result once done, else its partial."""
    return run.result if run.status == "done" and run.result else run.partial


@dataclass(frozen=True)
class MatrixState(FigureState):
    """E4: one validation sample through a trained model; ←/→ move the output step k."""

    scoring: str = param("additive", "choice", choices=ORDER, key="s", label="scoring")
    sample: int = param(0, "int", lo=0, hi=s2s.N_HELD_OUT - 1, draw=True, label="sample", fmt="d")
    step: int = param(0, "int", lo=0, hi=LAST_K, label="k", fmt="d")
    weights: str = param("shipped", "choice", choices=WEIGHTS, key="w", label="weights", means=(
        N_("the model that ships with rnntui"),
        N_("the newest one `rnntui train seq2seq --scoring SCORING` cached that reads (else the shipped one)"),
        N_("the live run's, once it has sent some (t starts one and picks it; else the shipped one)")))
    run: LabRun = field(default=LabRun(), compare=False)

    def first_partial(self) -> dict:
        """The run's scoring, known before its first report (its label followed `s` till then; a reviewer)."""
        return {"scoring": self.scoring}

    def started(self) -> "MatrixState":
        """As `t` starts a live run (or `r` keeps a running one): its weights are drawn as they come."""
        return replace(self, weights="live")

    def is_live(self) -> bool:
        """Draw the live run's weights: `w` chose them, and the run has sent some for this scoring."""
        live = live_snapshot(self.run)
        return self.weights == "live" and bool(live) and live["scoring"] == self.scoring and bool(live.get("arrays"))

    def cached_model(self) -> s2s.Cached | None:
        """The model `train` cached for this scoring, where `w` chose it: looked up once per state, so that
        one frame draws one model however the cache changes meanwhile (each file is read once per version)."""
        if self.weights != "cached":
            return None
        if "_cached" not in self.__dict__:
            object.__setattr__(self, "_cached", s2s.cached(self.scoring))  # (as `readings()` keeps its own)
        return self.__dict__["_cached"]

    def shown(self, name: str) -> str:
        """weights as chosen, and the model drawn where it differs (live → shipped): "live" read as drawn
        while a live run of another scoring left the shipped model on screen (a student's trial)."""
        text = super().shown(name)
        if name == "weights" and (drawn := self.source()) != self.weights:
            return f"{text} → {drawn}"  # (help: "else the shipped one"; "(drawn: shipped)" cost a row at 80x24)
        return text

    def source(self) -> str:
        """The model drawn: the one `w` chose (live, cached) where there is one, else the shipped one."""
        if self.is_live():
            return "live"
        c = self.cached_model()
        return "cached" if c is not None and c.arrays is not None else "shipped"

    def decoded(self) -> s2s.Decoded:
        source = self.source()
        if source == "live":
            return s2s.greedy(live_snapshot(self.run)["arrays"], self.scoring, s2s.sample(self.sample)[None, :])
        if source == "cached":
            return self.cached_model().decode(self.sample)
        return s2s.decode_sample(self.scoring, self.sample)

    def cached_readings(self) -> CachedReadings | None:
        c = self.cached_model()
        if c is None:
            return None
        e, where = c.problem, home_short(c.unread) + ("/" if c.folder else "") if c.unread else ""
        unread = (where, str(e or ""), getattr(e, "errno", None),
                  getattr(e, "message", ""), getattr(e, "words", {}))  # (a BadCheckpoint's template and words)
        if c.path is None:
            return CachedReadings("", None, None, None, None, *unread)
        r, fresh = c.record or {}, (c.record or {}).get("fresh")
        same_set = fresh is not None and (fresh["seed"], fresh["n"]) == (s2s.FRESH_SEED, s2s.N_FRESH)
        return CachedReadings(home_short(c.path), r.get("seed", s2s.seed_named(c.path)), r.get("steps"),
                              {"exact": r["exact"], "token": r["token"]} if "exact" in r else None,
                              fresh if same_set else None,  # (scored on the shipped models' fresh set, or not shown)
                              *unread)

    def live(self) -> LiveReadings | None:
        run, live = self.run, live_snapshot(self.run) or {}
        scoring = live.get("scoring", self.scoring)
        if run.status == "idle":
            return None
        status = run.phase
        loss = live.get("loss")
        return LiveReadings(status, scoring, bool(live.get("arrays")), live.get("step", 0),
                            live.get("steps", LIVE_STEPS), loss if loss is not None and np.isfinite(loss) else None,
                            live.get("exact"),
                            run.message if run.status == "failed" else "")

    def read(self) -> MatrixReadings:
        d = self.decoded()
        out, alpha = d.tokens[0], d.alpha[0]
        x = s2s.sample(self.sample)
        y = s2s.reverse_target(x)
        right = out == y
        attends = self.scoring != "none"
        looks = int(np.argmax(alpha[self.step])) if attends else None
        return MatrixReadings(
            self.source(), tuple(int(v) for v in x), tuple(int(v) for v in y),
            tuple(int(v) for v in out), tuple(bool(v) for v in right),
            tuple(int(k) for k in np.flatnonzero(~right)), int(np.sum(~right)),
            tuple(map(tuple, alpha.tolist())) if attends else None,
            tuple(alpha[self.step].tolist()) if attends else None,
            looks, float(alpha[self.step, looks]) if attends else None,
            LAST_K - self.step, looks - (LAST_K - self.step) if attends else None,
            *shipped_scores(), {"none": 0.0, "additive": s2s.TARGET}, self.live(), self.cached_readings())


def shipped_scores() -> tuple[dict, dict]:
    """Each shipped model's scores: on the fresh set, and on the 1000 validation sequences as recorded."""
    return ({sc: dict(s2s.shipped_fresh(sc)) for sc in ORDER},  # (copies: a readings' dict was the engine's cached
            # one, and a change to it changed every later readings, a review)
            {sc: {"exact": s2s.record(sc)["exact"], "token": s2s.record(sc)["token"], "steps": s2s.record(sc)["steps"]}
             for sc in ORDER})


def _curves() -> dict[str, np.ndarray]:
    """Each shipped run's evaluations: columns step, mean loss, exact, token, sequences scored."""
    return {sc: np.asarray(s2s.record(sc)["curve"], dtype=float) for sc in ORDER}


def _attention_end() -> int:
    """The last evaluation of the longer attention run: where the E5 axis ends."""
    try:
        return int(max(s2s.record(sc)["steps"] for sc in ("additive", "dot")))
    except (OSError, KeyError, ValueError):  # a broken install still opens; the figure then says so
        return 20 * s2s.EVERY


def _additive_end() -> int:
    try:
        return int(s2s.record("additive")["steps"])
    except (OSError, KeyError, ValueError):
        return s2s.EVERY


def first_reaching(curve: np.ndarray, level: float) -> int | None:
    hit = np.flatnonzero(curve[:, 2] >= level)
    return int(curve[hit[0], 0]) if hit.size else None


@dataclass(frozen=True)
class ScoringReadings:
    curves: dict  # scoring → evaluations up to the axis end: (step, loss, exact, token, scored) rows
    columns: tuple[str, ...]
    at: dict  # scoring → (loss, exact, token) at the cursor, or None (before the first, after the run)
    first_at_target: dict  # scoring → the first step at which the whole run reached 76%, or None
    run_steps: dict  # scoring → where the run ended
    target: float
    last_step: int  # where the x axis ends
    past_axis: dict  # scoring → its run went on past the end of the axis (the text says both ends)
    ended_at_target: dict  # scoring → its run ended at its first 76% (a run is trained until it reaches it)
    fresh: dict  # scoring → the finished (shipped) model on the fresh set: {"exact", "token", "n", "seed"}
    validation: dict  # scoring → {"exact", "token"} of the finished model on the 1000 (its curve's last point)


@dataclass(frozen=True)
class ScoringState(FigureState):
    """E5: validation accuracy (or training loss) of the additive, dot and no-attention runs."""

    metric: str = param("accuracy", "choice", choices=("accuracy", "loss"), key="c", label="curve", means=(
        N_("validation exact-sequence accuracy on the 1000, every 25 steps"),
        N_("training loss, the mean of the last 25 steps")))  # (help read loss as validation's, a help audit)
    step: int = param(_additive_end(), "int", lo=s2s.EVERY, hi="last_step", notch=s2s.EVERY, grid=True, label="step",
                      fmt="d")

    @property
    def last_step(self) -> int:
        """The axis runs a little past the attention runs (the no-attention run goes on much longer)."""
        end = _attention_end()
        return end + 4 * s2s.EVERY

    def curves(self) -> dict[str, np.ndarray]:
        """Each run's evaluations up to the end of the axis."""
        return {sc: c[c[:, 0] <= self.last_step] for sc, c in _curves().items()}

    def firsts(self) -> dict[str, int | None]:
        return self.readings().first_at_target

    def at(self) -> dict[str, tuple[float, float, float] | None]:
        return self.readings().at

    def read(self) -> ScoringReadings:
        whole = _curves()
        at = {}
        for sc, c in self.curves().items():  # the last evaluation at or before the cursor
            i = np.flatnonzero(c[:, 0] <= self.step)
            stopped = self.step > whole[sc][-1, 0]
            at[sc] = None if stopped or not i.size else tuple(float(v) for v in c[i[-1], 1:4])
        firsts = {sc: first_reaching(c, s2s.TARGET) for sc, c in whole.items()}
        ends = {sc: int(c[-1, 0]) for sc, c in whole.items()}
        return ScoringReadings(
            {sc: tuple(map(tuple, c.tolist())) for sc, c in self.curves().items()},
            ("step", "loss", "exact", "token"), at, firsts, ends, s2s.TARGET, self.last_step,
            {sc: bool(c[-1, 0] > self.last_step) for sc, c in whole.items()},
            {sc: firsts[sc] == ends[sc] for sc in whole}, *shipped_scores())


@dataclass(frozen=True)
class VisibilityReadings:
    bottleneck: int  # numbers the decoder reads through the bottleneck: d
    attention: int  # … with attention: n·d
    reads: int  # the one the figure shows
    ratio: int  # attention / bottleneck = n
    bars: tuple[float, float]  # the two bars' lengths, the longer one 1
    lab: dict  # the same for the trained lab model: n, d, numbers, bits of the task


@dataclass(frozen=True)
class VisibilityState(FigureState):
    """F20: numbers the decoder may read: one d-vector (bottleneck) or n of them (attention)."""

    AXIS: ClassVar[str] = "n"
    n: int = param(12, "int", lo=1, hi=48, coarse=4, label="n tokens", fmt="d")  # the seed's 12, the lab's 16
    d: int = param(512, "int", lo=64, hi=1024, notch=64, label="d", fmt="d")
    mode: str = param("bottleneck", "choice", choices=("bottleneck", "attention"), key="m", label="reads")

    def numbers(self) -> tuple[int, int]:
        return s2s.visible_numbers(self.n, self.d)

    def read(self) -> VisibilityReadings:
        bottleneck, direct = self.numbers()
        return VisibilityReadings(bottleneck, direct, bottleneck if self.mode == "bottleneck" else direct,
                                  direct // bottleneck, (bottleneck / max(direct, 1), direct / max(direct, 1)),
                                  {"n": s2s.LENGTH, "d": s2s.HIDDEN, "vocab": s2s.VOCAB,
                                   "numbers": s2s.visible_numbers(s2s.LENGTH, s2s.HIDDEN),
                                   "bits": s2s.sequence_bits(s2s.LENGTH, s2s.VOCAB)})
