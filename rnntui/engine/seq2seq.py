"""T4 `seq2seq` in numpy: the reverse task, and greedy decoding with a trained GRU encoder–decoder.

The model (trained by `lab_seq2seq`, stored as plain arrays in an .npz):

    encoder   h_t = GRU(emb_e[x_t], h_{t-1}),  h_{-1} = 0,  H = [h_0 … h_{n-1}]
    decoder   s_{-1} = h_{n-1};  at output step k, reading y_{k-1} (<sos> first):
              e_kj = vᵀ tanh(W_a h_j + U_a s_{k-1} + b_a)   (additive, Bahdanau 2014)
              e_kj = s_{k-1} · h_j                            (dot: Luong 2015's score, scored where
                                                               Bahdanau scores: Luong's reads s_k, after the step)
              α_k = softmax(e_k),  c_k = Σ_j α_kj h_j
              s_k = GRUCell([emb_d[y_{k-1}]; c_k], s_{k-1})   (scoring `none`: emb only, no c_k)
              ŷ_k = argmax(W_o s_k + b_o)

Gates in the GRU follow torch's order r, z, n:
    r = σ(W_ir x + b_ir + W_hr h + b_hr), z = σ(…), n = tanh(W_in x + b_in + r·(W_hn h + b_hn)),
    h' = (1 − z)·n + z·h.
"""
from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from rnntui.engine import N_, records
from rnntui.engine.records import Many, Num
from rnntui.engine.recurrence import sigmoid
from rnntui.state import Marked, Said

VOCAB = 20  # token classes 0…19
LENGTH = 16  # tokens per sequence
EMB = 32
HIDDEN = 64
SOS = VOCAB  # the decoder's start token (id 20)
N_HELD_OUT = 1000  # the validation set: scored every EVERY steps; the shipped runs stopped at their first TARGET
HELD_OUT_SEED = 20140901  # Bahdanau, Cho & Bengio's arXiv date
N_FRESH = 4000  # the fresh set: scored once a run has ended, never while it trains nor to stop it
FRESH_SEED = 20150817  # Luong, Pham & Manning's arXiv date
SCORINGS = ("none", "additive", "dot")
TARGET = 0.76  # the seed's exact-sequence accuracy with additive attention
EVERY = 25  # training evaluates on the validation set every this many steps
LIVE_STEPS = 1000  # a live run in the app trains all of these, no stop at TARGET (t stops it sooner)

# name -> shape, for each scoring; the .npz holds exactly these arrays
def shapes(scoring: str) -> dict[str, tuple[int, ...]]:
    H, E = HIDDEN, EMB
    out = {
        "enc.emb": (VOCAB, E), "enc.W_ih": (3 * H, E), "enc.W_hh": (3 * H, H),
        "enc.b_ih": (3 * H,), "enc.b_hh": (3 * H,),
        "dec.emb": (VOCAB + 1, E), "dec.W_ih": (3 * H, E + (0 if scoring == "none" else H)),
        "dec.W_hh": (3 * H, H), "dec.b_ih": (3 * H,), "dec.b_hh": (3 * H,),
        "out.W": (VOCAB, H), "out.b": (VOCAB,),
    }
    if scoring == "additive":
        out.update({"att.W_a": (H, H), "att.U_a": (H, H), "att.b_a": (H,), "att.v": (H,)})
    return out


# -- the task ---------------------------------------------------------------------------------
def reverse_target(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(x)[..., ::-1])


def batch(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random sequences of LENGTH tokens from VOCAB classes (int64)."""
    return rng.integers(0, VOCAB, size=(n, LENGTH), dtype=np.int64)


def train_stream(seed: int) -> np.random.Generator:
    """The training batches of one seed (never the validation or fresh generator)."""
    return np.random.default_rng([seed, 1])


@lru_cache(maxsize=1)
def held_out() -> np.ndarray:
    """The fixed validation set: 1000 sequences, the same on every machine. Training scores it as it goes
    and stops at the first score ≥ TARGET, so it chose the stopping point: a shipped model's score on it
    is not an unseen one's (`fresh` is)."""
    x = batch(np.random.default_rng(HELD_OUT_SEED), N_HELD_OUT)
    x.setflags(write=False)
    return x


@lru_cache(maxsize=1)
def fresh() -> np.ndarray:
    """The fresh set: 4000 sequences from a generator of their own, never scored while training nor used to
    stop it (a model stopped at its first 76% on the 1000 read 78.2% there, 75.9% here: a student's check)."""
    x = batch(np.random.default_rng(FRESH_SEED), N_FRESH)
    x.setflags(write=False)
    return x


# -- numpy inference --------------------------------------------------------------------------
def softmax(e, axis=-1):
    e = e - e.max(axis=axis, keepdims=True)
    w = np.exp(e)
    return w / w.sum(axis=axis, keepdims=True)


def gru_cell(gi, gh, h):
    """One GRU update from the input part gi = W_i x + b_i and the state part gh = W_h h + b_h."""
    H = h.shape[-1]
    r = sigmoid(gi[..., :H] + gh[..., :H])
    z = sigmoid(gi[..., H:2 * H] + gh[..., H:2 * H])
    n = np.tanh(gi[..., 2 * H:] + r * gh[..., 2 * H:])
    return (1.0 - z) * n + z * h


def encode(p: dict, x: np.ndarray) -> np.ndarray:
    """Encoder states H: (batch, LENGTH, HIDDEN)."""
    x = np.atleast_2d(x)
    gi_all = p["enc.emb"][x] @ p["enc.W_ih"].T + p["enc.b_ih"]
    h = np.zeros((x.shape[0], p["enc.W_hh"].shape[1]))
    states = []
    for t in range(x.shape[1]):
        h = gru_cell(gi_all[:, t], h @ p["enc.W_hh"].T + p["enc.b_hh"], h)
        states.append(h)
    return np.stack(states, axis=1)


def scores(p: dict, scoring: str, Hs: np.ndarray, s: np.ndarray) -> np.ndarray:
    """e_kj for one decoder state s (batch, H) against every encoder state: (batch, LENGTH)."""
    if scoring == "additive":
        pre = Hs @ p["att.W_a"].T + (s @ p["att.U_a"].T + p["att.b_a"])[:, None, :]
        return np.tanh(pre) @ p["att.v"]
    return np.einsum("bjh,bh->bj", Hs, s)


@dataclass(frozen=True)
class Decoded:
    tokens: np.ndarray  # (batch, LENGTH) greedy outputs
    alpha: np.ndarray  # (batch, LENGTH out, LENGTH in) attention weights; uniform 0 for `none`


def greedy(p: dict, scoring: str, x: np.ndarray, forced: np.ndarray | None = None) -> Decoded:
    """Greedy decoding: each output token is fed back as the next input (or `forced` tokens are)."""
    x = np.atleast_2d(np.asarray(x, dtype=np.int64))
    Hs = encode(p, x)
    b, n = x.shape
    s = Hs[:, -1]
    prev = np.full(b, SOS, dtype=np.int64)
    E = p["dec.emb"].shape[1]
    W_e, W_c = p["dec.W_ih"][:, :E], p["dec.W_ih"][:, E:]
    tokens = np.zeros((b, n), dtype=np.int64)
    alpha = np.zeros((b, n, n))
    for k in range(n):
        gi = p["dec.emb"][prev] @ W_e.T + p["dec.b_ih"]
        if scoring != "none":
            a = softmax(scores(p, scoring, Hs, s))
            alpha[:, k] = a
            gi = gi + np.einsum("bj,bjh->bh", a, Hs) @ W_c.T
        s = gru_cell(gi, s @ p["dec.W_hh"].T + p["dec.b_hh"], s)
        tokens[:, k] = np.argmax(s @ p["out.W"].T + p["out.b"], axis=-1)
        prev = tokens[:, k] if forced is None else np.asarray(forced)[:, k]
    return Decoded(tokens, alpha)


def accuracy(tokens: np.ndarray, target: np.ndarray) -> tuple[float, float]:
    """(exact-sequence accuracy, token accuracy)."""
    right = np.asarray(tokens) == np.asarray(target)
    return float(right.all(axis=-1).mean()), float(right.mean())


# -- checkpoints: one .npz of float32 arrays plus its record as a JSON string ----------------
RECORD_KEY = "record.json"


class BadCheckpoint(ValueError):
    """A file that is not a checkpoint of this model; the message is one line: English as str(),
    in the reader's language as `said(_)` (the message is a marked template, its words filled in)."""

    def __init__(self, message: str, **words) -> None:
        super().__init__(message.format(**words))
        self.message, self.words = message, words

    def said(self, translate) -> str:
        return translate(self.message).format(**self.words)


# the record stored beside the weights: what training did and scored (the figures plot the curve)
CURVE_ROW = (Num(0, 1e6, whole=True), Num(0, 1e6), Num(0, 1), Num(0, 1), Num(1, N_HELD_OUT, whole=True))
RECORD = {"scoring": str, "seed": Num(0, 2**31 - 1, whole=True), "steps": Num(0, 1e6, whole=True),
          "exact": Num(0, 1), "token": Num(0, 1), "curve": Many(CURVE_ROW, 0, 100_000),
          "batch?": Num(1, 1e6, whole=True), "lr?": Num(0, 1e3), "clip?": Num(0, 1e6),
          "lr_schedule?": {"warm-up to": Num(0, 1e3), "warm-up steps": Num(0, 1e6, whole=True),
                           "cosine to": Num(0, 1e3), "at step": Num(0, 1e6, whole=True)},
          "train_seconds?": Num(0, 1e9), "torch?": str, "curve_columns?": Many(str, 0, 10),
          # the finished model on the fresh set (records written before it was added have none)
          "fresh?": {"seed": Num(0, 2**31 - 1, whole=True), "n": Num(1, 1e7, whole=True),
                     "exact": Num(0, 1), "token": Num(0, 1)}}


def parse_record(text: str | bytes) -> dict:
    """A checkpoint's record (JSON) checked against RECORD; raises BadCheckpoint (one line)."""
    try:
        record = records.parse(text, RECORD)
    except records.RecordError as e:
        raise BadCheckpoint(N_("its record is not one of ours ({why})"), why=str(e)[:90]) from None
    if record["scoring"] not in SCORINGS:
        raise BadCheckpoint(N_("its record names an unknown scoring {scoring}"), scoring=repr(record["scoring"][:20]))
    return record


def check_params(p: dict, scoring: str) -> dict:
    want = shapes(scoring)
    if set(p) != set(want):
        missing = sorted(set(want) - set(p))
        extra = sorted(set(p) - set(want))
        message = (N_("not a checkpoint of `{scoring}` (missing {missing}; unexpected {extra})") if missing and extra
                   else N_("not a checkpoint of `{scoring}` (missing {missing})") if missing
                   else N_("not a checkpoint of `{scoring}` (unexpected {extra})"))
        raise BadCheckpoint(message, scoring=scoring, missing=", ".join(missing[:3]), extra=", ".join(extra[:3]))
    for k, shape in want.items():
        if tuple(p[k].shape) != shape:
            raise BadCheckpoint(N_("{name} has shape {shape}, expected {expected}"), name=k,
                                shape=tuple(p[k].shape), expected=shape)
        if not np.all(np.isfinite(p[k])):
            raise BadCheckpoint(N_("{name} holds NaN or inf"), name=k)
    return p


def read_npz(source, scoring: str) -> tuple[dict, dict]:
    """(arrays, record) from an .npz path or bytes, never unpickling anything; raises BadCheckpoint."""
    try:
        data = bytes(source) if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
        if not data.startswith(b"PK"):  # (numpy then tries it as a pickle, and said so: a text file read
            raise BadCheckpoint(N_("not a weights file (not an .npz archive)"))  # as "contains pickled data")
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            p = {k: np.asarray(z[k], dtype=np.float64) for k in z.files if k != RECORD_KEY}
            text = str(z[RECORD_KEY]) if RECORD_KEY in z.files else None
    except (OSError, BadCheckpoint):
        raise
    except Exception as e:  # noqa: BLE001 - pickled objects, truncated zips, bad JSON: all one line
        first = (str(e).strip().splitlines() or [""])[0].split(". ")[0][:100]  # (its first sentence, whole)
        raise BadCheckpoint(N_("not a weights file ({error})"), error=f"{type(e).__name__}: {first}") from None
    return check_params(p, scoring), ({} if text is None else parse_record(text))


def npz_bytes(arrays: dict, record: dict) -> bytes:
    """A checkpoint's .npz file, in memory: float32 arrays and the record as JSON."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **{k: np.asarray(a, dtype=np.float32) for k, a in arrays.items()},
                        **{RECORD_KEY: np.array(json.dumps(record))})
    return buffer.getvalue()


def write_npz(path, arrays: dict, record: dict) -> None:
    """Write atomically: a failure (a full disk) leaves any old file whole; raises BadValue."""
    from rnntui.files import write_atomic

    write_atomic(str(path), npz_bytes(arrays, record))


def shipped_path(scoring: str):
    return resources.files("rnntui").joinpath("data", f"seq2seq_{scoring}.npz")


class DamagedShipped(Marked):
    """A checkpoint that ships with the package cannot be read: a broken install (one line, exit 2)."""


def _damaged(scoring: str) -> DamagedShipped:
    """One message whatever failed (its weights or its record), so that the app says it once."""
    return DamagedShipped(N_("{file}, shipped with rnntui, is damaged: reinstall rnntui"), file=f"seq2seq_{scoring}.npz")


@lru_cache(maxsize=None)
def _shipped(scoring: str) -> tuple[dict, dict]:
    if scoring not in SCORINGS:
        raise BadCheckpoint(N_("unknown scoring {scoring}: choose from {choices}"), scoring=repr(scoring),
                            choices=", ".join(SCORINGS))
    try:
        p, record = read_npz(shipped_path(scoring).read_bytes(), scoring)
    except (OSError, BadCheckpoint):  # (a truncated file gave a 60-line traceback, a trial)
        raise _damaged(scoring) from None
    for a in p.values():
        a.setflags(write=False)
    return p, record


def shipped(scoring: str) -> dict:
    """The trained checkpoint that ships with the package, as float64 arrays (read-only)."""
    return _shipped(scoring)[0]


@lru_cache(maxsize=None)
def record(scoring: str) -> dict:
    """What was recorded when the shipped checkpoint was trained: seed, steps, accuracies, curve.

    Reads only the record inside the .npz (cheap: the figures read it when they are imported)."""
    if scoring not in SCORINGS:
        raise BadCheckpoint(N_("unknown scoring {scoring}: choose from {choices}"), scoring=repr(scoring),
                            choices=", ".join(SCORINGS))
    try:
        with np.load(io.BytesIO(shipped_path(scoring).read_bytes()), allow_pickle=False) as z:
            return parse_record(str(z[RECORD_KEY]))
    except Exception:  # noqa: BLE001 - a truncated zip, a missing key, a bad record: all one line
        raise _damaged(scoring) from None


@lru_cache(maxsize=None)
def sample(index: int) -> np.ndarray:
    """The index-th sequence of the validation set (what the matrix figure shows)."""
    return held_out()[index % N_HELD_OUT]


@lru_cache(maxsize=64)
def decode_sample(scoring: str, index: int) -> Decoded:
    """The shipped model on one validation sample: greedy tokens and the alignment matrix."""
    x = sample(index)[None, :]
    return greedy(shipped(scoring), scoring, x)


@lru_cache(maxsize=None)
def held_out_accuracy(scoring: str) -> tuple[float, float]:
    """The shipped model's (exact-sequence, token) accuracy on the validation set, computed here."""
    x = held_out()
    return accuracy(greedy(shipped(scoring), scoring, x).tokens, reverse_target(x))


def fresh_scores(exact: float, token: float) -> dict:
    """A record's "fresh" entry: which set, and the model's (exact-sequence, token) accuracy on it."""
    return {"seed": FRESH_SEED, "n": N_FRESH, "exact": round(float(exact), 4), "token": round(float(token), 4)}


def fresh_accuracy(p: dict, scoring: str) -> dict:
    """A model's scores on the fresh set, decoded here in numpy (~0.5–2 s: not while a key waits)."""
    x = fresh()
    return fresh_scores(*accuracy(greedy(p, scoring, x).tokens, reverse_target(x)))


@lru_cache(maxsize=None)
def shipped_fresh(scoring: str) -> dict:
    """The shipped model's scores on the fresh set: from its record, which holds them (written by
    tools/seq2seq_fresh.py); computed here, once, from a record of another set or none."""
    kept = record(scoring).get("fresh")
    if kept and (kept["seed"], kept["n"]) == (FRESH_SEED, N_FRESH):
        return kept
    return fresh_accuracy(shipped(scoring), scoring)


# -- the models `rnntui train seq2seq` cached: the matrix figure draws the newest on request ----------------
@dataclass(frozen=True, eq=False)
class Cached:
    """The newest model cached for a scoring that reads: its file, weights and record; and the newest file,
    where that one does not read, with why."""

    scoring: str
    path: Path | None = None  # None: nothing cached reads (or nothing is cached)
    arrays: dict | None = None
    record: dict | None = None
    unread: Path | None = None  # a newer file that does not read (a run cut short, a copy gone wrong)
    problem: BadCheckpoint | OSError | None = None  # why
    folder: bool = False  # `unread` is the cache folder, which does not read
    decoded: dict = field(default_factory=dict, repr=False)  # sample → Decoded, kept with the arrays read

    def decode(self, index: int) -> Decoded:
        """This model on one validation sample (one reads: `arrays` is not None)."""
        if index not in self.decoded:
            if len(self.decoded) >= 64:  # (a sample's is ~2 KB: kept for the samples stepped through lately)
                self.decoded.clear()
            self.decoded[index] = greedy(self.arrays, self.scoring, sample(index)[None, :])
        return self.decoded[index]


CACHED_NAME = re.compile(r"seq2seq-(?P<scoring>[a-z]+)-seed(?P<seed>[0-9]+)\.npz")  # `train`'s default --out


def seed_named(path: Path) -> int | None:
    """The seed a cached file's name gives (a file without its record: "seed None", a student's trial)."""
    m = CACHED_NAME.fullmatch(path.name)
    return int(m["seed"]) if m else None


def cached_paths(scoring: str) -> list[Path]:
    """The seq2seq-SCORING-seedN.npz files in the cache (`train`'s default --out), newest first; the earlier
    model it keeps (NAME.previous.npz) is not one."""
    try:
        found = [(e.stat().st_mtime_ns, e.name) for e in os.scandir(records.cache_dir())
                 if (m := CACHED_NAME.fullmatch(e.name)) and m["scoring"] == scoring and e.is_file()]
    except (FileNotFoundError, NotADirectoryError):  # no cache folder yet ($XDG_CACHE_HOME=/dev/null): nothing cached
        return []  # (one that does not read raises: "nothing cached" stood beside models there, a student's trial)
    return [records.cache_dir() / name for _, name in sorted(found, reverse=True)]


def cached(scoring: str) -> Cached:
    """The newest cached model for `scoring` that reads, each file read once per version (a key re-reads
    nothing); a newer one that does not read is named, with why."""
    unread = None
    try:
        paths = cached_paths(scoring)
    except OSError as e:  # the folder does not read (no permission)
        return Cached(scoring, unread=records.cache_dir(), problem=e, folder=True)
    for path in paths:
        try:
            st = path.stat()
            found = _read_cached((str(path), st.st_mtime_ns, st.st_ctime_ns, st.st_size), scoring)  # (ctime:
            # a chmod that lets it be read changes only that)
        except OSError as e:  # gone since it was listed
            found = Cached(scoring, unread=path, problem=e)
        if found.arrays is not None:
            return replace(found, unread=unread.unread, problem=unread.problem) if unread else found
        unread = unread or found
    return unread or Cached(scoring)


def noted(path: Path, e: OSError | BadCheckpoint) -> None:
    """A cached model that does not read, noted as a corrupt cache is: shot and export refuse to draw its
    note into a picture (one said "the shipped additive model / … does not read", exit 0: a code review)."""
    from rnntui.files import reason_kept

    why = Said(e.message, **e.words) if isinstance(e, BadCheckpoint) else reason_kept(e)
    remedy = None if isinstance(e, OSError) and not isinstance(e, IsADirectoryError) else False  # (readable, or gone)
    records.CORRUPT.append((Said(N_("{name} {path} unreadable ({why})"), name=Said(N_("seq2seq cache")), path=path,
                                 why=why), remedy))


@lru_cache(maxsize=8)
def _read_cached(version: tuple, scoring: str) -> Cached:
    """The file at version[0], read once per (path, mtime, ctime, size)."""
    try:
        arrays, record = read_npz(version[0], scoring)
    except (OSError, BadCheckpoint) as e:
        noted(Path(version[0]), e)
        return Cached(scoring, unread=Path(version[0]), problem=e)
    for a in arrays.values():
        a.setflags(write=False)
    return Cached(scoring, Path(version[0]), arrays, record)


# -- F20: what the decoder may read -----------------------------------------------------------
def visible_numbers(n_tokens: int, d: int) -> tuple[int, int]:
    """(numbers through the bottleneck, numbers with attention): d vs n·d."""
    return d, n_tokens * d


def sequence_bits(n_tokens: int, vocab: int) -> float:
    """Information in n uniformly random tokens: n·log2(vocab) bits."""
    return n_tokens * float(np.log2(vocab))
