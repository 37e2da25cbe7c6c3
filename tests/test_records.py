"""Files the app reads back (the timing cache, seq2seq checkpoints): a bad one is one line, never a crash."""
import json
import math
import os
import subprocess
import sys

import pytest

from rnntui.engine import records
from rnntui.engine.records import Const, Many, Num, RecordError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD_ROW = {"T": 64, "rnn_s": 1e-3, "attention_s": 2e-3, "rnn_flops": 1e6, "attention_flops": 2e6}
GOOD = {"version": 1, "machine": {"host": "box"}, "torch": "2.3.0", "threads": 4, "when": "2026-01-01 10:00",
        "rows": [GOOD_ROW]}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


# -- the helper ---------------------------------------------------------------------------------
SCHEMA = {"n": Num(0, 10, whole=True), "x?": Num(0, 1, above=True), "name": str, "tag": Const(1),
          "pairs": Many((Num(), bool), 1, 3)}


@pytest.mark.parametrize("value,words", [
    ({"name": "a", "tag": 1, "pairs": [[1, True]]}, "n: missing"),
    ({"n": 11, "name": "a", "tag": 1, "pairs": [[1, True]]}, "n: expected a whole number ≥ 0 and ≤ 10, got 11"),
    ({"n": 1.0, "name": "a", "tag": 1, "pairs": [[1, True]]}, "n: expected a whole number"),
    ({"n": True, "name": "a", "tag": 1, "pairs": [[1, True]]}, "n: expected a whole number"),
    ({"n": 1, "x": 0, "name": "a", "tag": 1, "pairs": [[1, True]]}, "x: expected a number > 0"),
    ({"n": 1, "x": math.nan, "name": "a", "tag": 1, "pairs": [[1, True]]}, "got nan"),
    ({"n": 1, "name": 5, "tag": 1, "pairs": [[1, True]]}, "name: expected text"),
    ({"n": 1, "name": "a", "tag": 2, "pairs": [[1, True]]}, "tag: expected 1, got 2"),
    ({"n": 1, "name": "a", "tag": 1, "pairs": []}, "pairs: expected a list of 1 to 3 items"),
    ({"n": 1, "name": "a", "tag": 1, "pairs": [[1, 1]]}, "pairs[0][1]: expected true or false"),
    ({"n": 1, "name": "a", "tag": 1, "pairs": [[10 ** 400, True]]}, "pairs[0][0]: expected a number"),
    ([1], "the record: expected an object"),
])
def test_check_names_the_first_bad_field_in_one_line(value, words):
    with pytest.raises(RecordError) as e:
        records.check(value, SCHEMA)
    assert words in str(e.value) and "\n" not in str(e.value) and len(str(e.value)) < 120


def test_check_returns_a_good_record():
    good = {"n": 3, "name": "a", "tag": 1, "pairs": [[0.5, False]], "extra": "kept"}
    assert records.check(good, SCHEMA) is good


@pytest.mark.parametrize("data,words", [
    ("ab".encode("utf-16"), "not UTF-8"),
    (b"\x00\xff\xfe garbage", "not UTF-8"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("{", "not JSON"),
    ("1" * 5000, "not JSON"),  # an int too long for Python's int parser
    ("NaN", "expected an object"),
    (" " * (records.MAX_BYTES + 1), "larger than"),
])
def test_parse_turns_every_json_failure_into_one_line(data, words):
    with pytest.raises(RecordError) as e:
        records.parse(data, {})
    assert words in str(e.value) and "\n" not in str(e.value)


# -- the timing cache -----------------------------------------------------------------------------
def with_row(**changes):
    return {**GOOD, "rows": [{**GOOD_ROW, **changes}]}


def without(key):
    return {k: v for k, v in GOOD.items() if k != key}


CORRUPT = [
    "ab".encode("utf-16"),
    bytes(range(256)),
    ("[" * 50_000).encode(),
    json.dumps(without("machine")).encode(),
    json.dumps(without("when")).encode(),
    json.dumps(without("torch")).encode(),
    json.dumps(without("threads")).encode(),
    json.dumps({**GOOD, "machine": "box"}).encode(),
    json.dumps({**GOOD, "rows": ["x"]}).encode(),
    json.dumps(with_row(rnn_s=1e308 * 10)).encode(),  # Infinity
    json.dumps(with_row(rnn_s=math.nan)).encode(),  # NaN
    json.dumps(with_row(attention_s=-1)).encode(),
    json.dumps(with_row(T=True)).encode(),
    json.dumps(with_row(rnn_s=10 ** 400)).encode(),
    json.dumps(with_row(rnn_s=1e300)).encode(),
]


@pytest.mark.parametrize("data", CORRUPT, ids=range(len(CORRUPT)))
def test_corrupt_timing_cache_is_one_line_and_set_aside(data):
    from rnntui.engine import lab_timing

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    result, problem = lab_timing.load_cache()
    assert result is None and problem.startswith("timing cache") and "corrupt" in problem and "\n" not in problem
    assert not path.exists() and path.with_name(path.name + ".corrupt").exists()


def test_a_second_corrupt_cache_is_set_aside_beside_the_first():
    """The second corrupt file replaced the first one set aside (a trial): each is kept."""
    from rnntui.engine import lab_timing

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    for k, data in enumerate((b"AAA", b"BBB", b"CCC"), 1):
        path.write_bytes(data)
        _, problem = lab_timing.load_cache()
        aside = path.with_name(path.name + ".corrupt" + ("" if k == 1 else f"-{k}"))
        assert f"set aside as {aside.name}" in problem and aside.read_bytes() == data
    assert sorted(p.name for p in path.parent.iterdir()) == [f"{path.name}.corrupt", f"{path.name}.corrupt-2",
                                                              f"{path.name}.corrupt-3"]


def test_a_corrupt_cache_that_cannot_be_set_aside_stops_a_shot_saying_to_remove_it(monkeypatch, capsys):
    """It was drawn into the picture at every run (a reviewer): one line, exit 2, nothing written."""
    from rnntui.cli import main
    from rnntui.engine import lab_timing, records

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"AAA")

    def refuse(*_args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(records.os, "replace", refuse)
    out = path.parent / "x.txt"
    assert main(["shot", "parallel/timing", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "could not be set aside (permission denied)" in err[0]
    assert err[0].endswith("nothing written: remove it, then run it again") and not out.exists()
    assert path.read_bytes() == b"AAA"  # (kept where it was)


def test_an_export_of_other_topics_reads_no_cache_of_theirs(tmp_path, capsys):
    """`export DIR recurrence/tanh` was refused for a corrupt memory cache (a code review): memory/copy's key
    steps, read from it, were asked before the topics were chosen. Only the figures named are asked."""
    from rnntui.cli import main
    from rnntui.engine import memory as mem
    from rnntui.figures.memory import forget

    path = mem.cache_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage")
    assert main(["export", str(tmp_path / "a"), "recurrence/tanh", "--format", "txt"]) == 0
    assert path.read_bytes() == b"garbage" and "wrote 2 files" in capsys.readouterr().err
    try:
        assert main(["export", str(tmp_path / "b"), "memory/copy", "--format", "txt"]) == 2  # its own: refused
    finally:
        forget()  # (the note of the file set aside stays with this process's results, as the app says it)
    assert not path.exists() and not (tmp_path / "b").exists()


def test_an_unreadable_cache_stops_a_shot_and_an_export_saying_so(capsys, monkeypatch):
    """A cache that cannot be read at all (here a folder where the file goes; also no permission, or
    $XDG_CACHE_HOME not a folder) was drawn into shots and slides as a note, exit 0 (an audit): one line,
    exit 2, nothing written, the folder left as it was."""
    from rnntui.cli import main
    from rnntui.engine import lab_timing
    from rnntui.figures import parallel

    path = lab_timing.cache_path()
    path.mkdir(parents=True)
    out = path.parent / "x.txt"
    assert main(["shot", "parallel/timing", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path} unreadable (it is a folder)" in err[0] and not out.exists()
    assert err[0].endswith("nothing written: remove it, then run it again")
    monkeypatch.setattr(parallel, "_CACHED", {})  # (as a second command would: a process of its own)
    assert main(["export", str(path.parent / "slides"), "parallel/timing"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unreadable (it is a folder)" in err[0] and not (path.parent / "slides").exists()
    assert path.is_dir() and not any(path.iterdir())


def test_a_cache_without_permission_is_refused_saying_to_make_it_readable(monkeypatch, capsys):
    """A cache the user may not read (left by `sudo rnntui train`): make it readable or remove it."""
    from rnntui.cli import main
    from rnntui.engine import lab_timing

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_text("{}")

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    from rnntui import files

    monkeypatch.setattr(files, "read_head", refuse)
    out = path.parent / "x.txt"
    assert main(["shot", "parallel/timing", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unreadable (permission denied)" in err[0] and not out.exists()
    assert err[0].endswith("nothing written: make it readable or remove it, then run it again")


def test_a_cache_folder_that_is_not_a_folder_means_no_cache(tmp_path, monkeypatch):
    """$XDG_CACHE_HOME=/dev/null turns caches off (CI, containers): no cache there, the shipped results drawn,
    nothing said (refused as "unreadable", a review; drawn with a note before)."""
    from rnntui.cli import main
    from rnntui.engine import memory

    monkeypatch.setenv("XDG_CACHE_HOME", os.devnull)
    assert memory.load_cache() == (None, None)
    out = tmp_path / "m.txt"
    assert main(["shot", "memory/copy", "-o", str(out)]) == 0
    assert "unreadable" not in out.read_text() and "memory cache" not in out.read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/zero and RLIMIT_AS")
def test_an_endless_cache_is_refused_without_reading_it_all(tmp_path):
    """A cache linked to /dev/zero was read whole: MemoryError and a traceback under a memory limit (an
    audit), all the memory without one. Read up to a byte past the most a record holds: corrupt, set aside."""
    cache = tmp_path / "cache" / "rnntui"
    cache.mkdir(parents=True)
    (cache / "memory.json").symlink_to("/dev/zero")
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (3_000_000_000, 3_000_000_000)); "
    r = subprocess.run([sys.executable, "-c", limit + "from rnntui.cli import main; raise SystemExit(main("
                        f"['shot', 'memory/copy', '-o', {str(tmp_path / 'x.txt')!r}]))"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT,
                       env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "(larger than 4 MB)" in r.stderr, r.stderr[-300:]
    assert (cache / "memory.json.corrupt").is_symlink() and not (tmp_path / "x.txt").exists()


def test_a_good_timing_cache_loads():
    from rnntui.engine import lab_timing

    lab_timing.save_cache(GOOD)
    assert lab_timing.load_cache() == (GOOD, None)


@pytest.mark.parametrize("data", [CORRUPT[0], CORRUPT[2], CORRUPT[3], CORRUPT[10], CORRUPT[13]])
def test_shot_of_the_timing_figure_survives_a_corrupt_cache(data, tmp_path):
    from rnntui.engine import lab_timing

    path = lab_timing.cache_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    def shot():
        return subprocess.run([sys.executable, "-m", "rnntui", "shot", "parallel/timing", "-o", "-"],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)

    # the first shot sets it aside and draws nothing: its note was drawn into the picture, a slide, and the
    # command said nothing (a trial); the next draws without it
    r = shot()
    err = r.stderr.strip().splitlines()
    assert r.returncode == 2 and r.stdout == "" and len(err) == 1, r.stderr[-1000:]
    assert "was corrupt" in err[0] and f"set aside as {path.name}.corrupt; nothing written: run it again" in err[0]
    r = shot()
    assert r.returncode == 0, r.stderr[-1000:]
    assert "corrupt" not in r.stdout and "nan" not in r.stdout and "inf×" not in r.stdout
    assert path.with_name(path.name + ".corrupt").read_bytes() == data  # nothing lost


# -- seq2seq checkpoints ------------------------------------------------------------------------
def npz_with_record(path, record_text):
    import numpy as np

    from rnntui.engine import seq2seq as s2s

    arrays = {k: np.asarray(a, dtype=np.float32) for k, a in s2s.shipped("dot").items()}
    np.savez_compressed(path, **arrays, **{s2s.RECORD_KEY: np.array(record_text)})


def test_shipped_records_pass_their_schema():
    from rnntui.engine import seq2seq as s2s

    for scoring in s2s.SCORINGS:
        assert s2s.record(scoring)["scoring"] == scoring
        assert s2s._shipped(scoring)[1] == s2s.record(scoring)


def test_a_good_checkpoint_round_trips(tmp_path):
    from rnntui.engine import seq2seq as s2s

    npz_with_record(tmp_path / "ok.npz", json.dumps(s2s.record("dot")))
    arrays, record = s2s.read_npz(tmp_path / "ok.npz", "dot")
    assert record == s2s.record("dot") and set(arrays) == set(s2s.shapes("dot"))


def bad_records():
    from rnntui.engine import seq2seq as s2s

    good = s2s.record("dot")
    return [
        json.dumps({**good, "exact": math.nan}),
        json.dumps({**good, "exact": 10 ** 400}),
        json.dumps({k: v for k, v in good.items() if k != "curve"}),
        json.dumps({**good, "curve": [[1, 2, 3]]}),
        json.dumps({**good, "scoring": "telepathy"}),
        "[" * 50_000,
        "not json",
        json.dumps([1, 2]),
    ]


@pytest.mark.parametrize("i", range(8))
def test_a_checkpoint_with_a_bad_record_is_one_line(tmp_path, i):
    from rnntui.engine import seq2seq as s2s

    npz_with_record(tmp_path / "bad.npz", bad_records()[i])
    with pytest.raises(s2s.BadCheckpoint) as e:
        s2s.read_npz(tmp_path / "bad.npz", "dot")
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_a_pt_checkpoint_with_a_bad_record_is_one_line(tmp_path):
    torch = pytest.importorskip("torch")
    from rnntui.engine import lab_seq2seq as lab
    from rnntui.engine import seq2seq as s2s

    arrays = {k: torch.tensor(a, dtype=torch.float32) for k, a in s2s.shipped("dot").items()}
    for record in ("[" * 50_000, json.dumps({**s2s.record("dot"), "token": -1}), 5):
        torch.save({"arrays": arrays, s2s.RECORD_KEY: record}, tmp_path / "bad.pt")
        with pytest.raises(s2s.BadCheckpoint):
            lab.read_checkpoint(tmp_path / "bad.pt", "dot")
    torch.save({"arrays": arrays, s2s.RECORD_KEY: json.dumps(s2s.record("dot"))}, tmp_path / "ok.pt")
    assert lab.read_checkpoint(tmp_path / "ok.pt", "dot")[1] == s2s.record("dot")


@pytest.mark.parametrize("variable, fallback, where", [("XDG_CACHE_HOME", ".cache", records.cache_dir),
                                                        ("XDG_CONFIG_HOME", ".config", None)])
def test_a_relative_xdg_folder_is_ignored(variable, fallback, where, tmp_path, monkeypatch):
    """XDG_CACHE_HOME=relative/dir wrote the labs' runs under whatever folder the command ran in (a CLI
    trial): the XDG spec has a relative path ignored, for ~/.cache (or ~/.config); an absolute one is used."""
    from rnntui.keys import keymap_path

    where = where or (lambda: keymap_path().parent)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(variable, "relative/dir")
    assert where() == tmp_path / "home" / fallback / "rnntui"
    monkeypatch.setenv(variable, str(tmp_path / "abs"))
    assert where() == tmp_path / "abs" / "rnntui"
