"""Score the shipped seq2seq checkpoints on the fresh set and store it in their records (no retraining).

Training stops at the first evaluation ≥ 76% on the 1000 validation sequences, so its score there is
the one that chose the stopping point; the fresh set (engine.seq2seq.fresh: 4000 sequences from another
seed, never scored while training) gives the score of sequences the run never saw. The weights are
written back as they were (float32, bit for bit); only the record gains its "fresh" entry:

    python tools/seq2seq_fresh.py
"""
from __future__ import annotations

import io
import json

import numpy as np

from rnntui.engine import seq2seq as s2s


def main() -> None:
    for scoring in s2s.SCORINGS:
        path = s2s.shipped_path(scoring)
        with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as z:
            raw = {k: z[k] for k in z.files if k != s2s.RECORD_KEY}
            record = s2s.parse_record(str(z[s2s.RECORD_KEY]))
        p = s2s.check_params({k: np.asarray(a, dtype=np.float64) for k, a in raw.items()}, scoring)
        record["fresh"] = s2s.fresh_accuracy(p, scoring)
        s2s.write_npz(path, raw, record)
        with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as z:  # the weights are unchanged
            assert all(np.array_equal(z[k], raw[k]) and z[k].dtype == raw[k].dtype for k in raw)
        print(scoring, json.dumps(record["fresh"]), f"(validation: exact {record['exact']}, token {record['token']})")


if __name__ == "__main__":
    main()
