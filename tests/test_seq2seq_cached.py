"""seq2seq/matrix's `w` (weights: cached): the model `rnntui train seq2seq` cached last is drawn, scored
as its record says, or one line says why the shipped one is drawn instead."""
import os

import numpy as np
import pytest

from rnntui.engine import seq2seq as s2s
from rnntui.figures.seq2seq import MatrixState
from rnntui.fmt import pct
from rnntui.screens.seq2seq import Seq2seqScreen

import one_app

MATRIX = Seq2seqScreen.figure_by_id("matrix")
A = 0  # token a


def always(token: int, scoring: str = "additive") -> dict:
    """The shipped weights with the output bias of one token raised by 1000: argmax picks it at every step,
    whatever the state (|W_o s| ≤ 64·max|W_o| is far below 1000)."""
    arrays = {k: np.array(v) for k, v in s2s.shipped(scoring).items()}
    assert 64 * np.abs(arrays["out.W"]).max() < 500
    arrays["out.b"][token] += 1000.0
    return arrays


def record(seed: int, exact: float, token: float, steps: int, fresh=(0.5, 0.75)) -> dict:
    return {"scoring": "additive", "seed": seed, "steps": steps, "exact": exact, "token": token, "curve": [],
            "fresh": s2s.fresh_scores(*fresh)}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "rnntui"
    folder.mkdir()
    return folder


def save(folder, name: str, arrays: dict, rec: dict, mtime: int) -> None:
    s2s.write_npz(folder / name, arrays, rec)
    os.utime(folder / name, ns=(mtime, mtime))


def text(state: MatrixState, size=(80, 24)) -> str:
    return " ".join(line.strip("│ ") for line in one_app.txt(Seq2seqScreen, MATRIX, state, size).splitlines())


def test_the_newest_cached_model_of_the_scoring_is_drawn_and_scored_as_recorded(cache):
    """Of seed 3 (older), seed 7 (newer), the .previous one `train` keeps and another scoring's, the newest
    seed file of this scoring is drawn: its outputs are all a, as its raised bias forces."""
    save(cache, "seq2seq-additive-seed3.npz", s2s.shipped("additive"), record(3, 0.8, 0.9, 300), 10**18)
    save(cache, "seq2seq-additive-seed7.npz", always(A), record(7, 0.125, 0.625, 275, (0.25, 0.375)), 2 * 10**18)
    save(cache, "seq2seq-additive-seed7.previous.npz", always(5), record(7, 0.1, 0.1, 9), 3 * 10**18)
    save(cache, "seq2seq-dot-seed1.npz", always(6, "dot"), {**record(1, 0.1, 0.1, 9), "scoring": "dot"}, 4 * 10**18)
    assert s2s.cached_paths("additive") == [cache / "seq2seq-additive-seed7.npz", cache / "seq2seq-additive-seed3.npz"]

    r = MatrixState(weights="cached", sample=4).readings()
    assert r.weights == "cached" and r.output == (A,) * s2s.LENGTH
    assert r.n_wrong == sum(t != A for t in s2s.reverse_target(s2s.sample(4)))
    assert (r.cached.seed, r.cached.steps) == (7, 275) and r.cached.path.endswith("seq2seq-additive-seed7.npz")
    shown = text(MatrixState(weights="cached", sample=4))
    assert "matrix: yours, seed 7, 275 steps" in shown
    assert f"yours {pct(0.25)} {pct(0.375)} {pct(0.125)}" in " ".join(shown.split())  # fresh exact, token; val.
    assert "source: none 0%" not in shown  # (its row takes that line's place at 80x24)
    # shipped: the default, as before; the shipped model's own outputs
    assert MatrixState(sample=4).readings().output == tuple(int(t) for t in s2s.decode_sample("additive", 4).tokens[0])
    assert "yours" not in text(MatrixState(sample=4)) and "shipped, 4000" not in shown
    assert "4000 fresh: shipped, and yours" in shown  # (the rows above yours are the shipped ones: a student's trial)


def test_a_model_trained_while_the_app_is_open_is_read_at_the_next_key(cache):
    save(cache, "seq2seq-additive-seed7.npz", always(A), record(7, 0.1, 0.1, 25), 10**18)
    assert MatrixState(weights="cached").readings().output == (A,) * s2s.LENGTH
    save(cache, "seq2seq-additive-seed7.npz", always(2), record(7, 0.1, 0.1, 50), 2 * 10**18)  # `train` again
    r = MatrixState(weights="cached").readings()
    assert r.output == (2,) * s2s.LENGTH and r.cached.steps == 50


def test_without_a_cached_model_the_shipped_one_is_drawn_and_the_command_named(cache):
    save(cache, "seq2seq-additive-seed7.previous.npz", always(A), record(7, 0.1, 0.1, 25), 10**18)  # not one
    r = MatrixState(weights="cached", sample=2).readings()
    assert r.weights == "shipped" and r.cached.path == ""
    assert r.output == tuple(int(t) for t in s2s.decode_sample("additive", 2).tokens[0])
    shown = text(MatrixState(weights="cached", sample=2), (120, 30))
    assert "matrix: the shipped additive model" in shown
    assert "nothing cached: rnntui train seq2seq --scoring additive" in " ".join(shown.split())


def test_a_shot_of_a_cached_model_that_does_not_read_is_refused_in_one_line(cache, tmp_path, capsys):
    """`shot seq2seq/matrix --set weights=cached` over a cut-off cached model wrote the shipped model's matrix
    with the cache's note in it, exit 0 (a code review): refused, as a corrupt memory or timing cache is, and
    nothing written. The shipped weights, which read no cache, are drawn as before."""
    from rnntui.cli import main

    bad = cache / "seq2seq-additive-seed0.npz"
    bad.write_bytes((s2s.resources.files("rnntui") / "data" / "seq2seq_additive.npz").read_bytes()[:100_000])
    out = tmp_path / "m.txt"
    assert main(["shot", "seq2seq/matrix", "--set", "weights=cached", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"rnntui: seq2seq cache {bad} unreadable (not a weights file (BadZipFile: File is not a zip file)); "
                   "nothing written: remove it, then run it again"] and not out.exists() and bad.exists()
    assert main(["shot", "seq2seq/matrix", "-o", str(out)]) == 0 and "shipped" in out.read_text(encoding="utf-8")


def test_a_cached_model_that_does_not_read_is_said_and_the_shipped_one_drawn(cache):
    (cache / "seq2seq-additive-seed2.npz").write_text("not an archive")
    r = MatrixState(weights="cached").readings()
    assert r.weights == "shipped" and r.cached.unread.endswith("seed2.npz") and "not an .npz archive" in r.cached.problem
    shown = " ".join(text(MatrixState(weights="cached"), (120, 30)).split())
    assert "seq2seq-additive-seed2.npz does not read: not a weights file (not an .npz archive)" in shown
    assert "matrix: the shipped additive model" in shown
    # a checkpoint of another scoring under this scoring's name: the same, with what is missing
    save(cache, "seq2seq-additive-seed2.npz", s2s.shipped("dot"), {**record(2, 0.1, 0.1, 9), "scoring": "dot"},
         10**18)
    assert "not a checkpoint of `additive` (missing att.U_a" in MatrixState(weights="cached").readings().cached.problem


def test_an_older_model_that_reads_is_drawn_past_a_newer_one_that_does_not(cache):
    """A newer file that does not read (a copy gone wrong) hid the seed-9 model behind it (a student's trial)."""
    save(cache, "seq2seq-additive-seed9.npz", always(A), record(9, 0.5, 0.5, 100), 10**18)
    (cache / "seq2seq-additive-seed10.npz").write_bytes(b"PK\x03\x04 cut short")
    os.utime(cache / "seq2seq-additive-seed10.npz", ns=(2 * 10**18, 2 * 10**18))
    r = MatrixState(weights="cached").readings()
    assert r.weights == "cached" and r.cached.seed == 9 and r.output == (A,) * s2s.LENGTH
    assert r.cached.unread.endswith("seq2seq-additive-seed10.npz") and "not a weights file" in r.cached.problem
    shown = " ".join(text(MatrixState(weights="cached"), (120, 30)).split())
    assert "matrix: yours, seed 9, 100 steps" in shown and "seq2seq-additive-seed10.npz does not read: not a" in shown


def test_why_a_cached_model_does_not_read_is_said_in_the_apps_language(cache):
    from rnntui.i18n import set_language
    from rnntui.render import render

    (cache / "seq2seq-dot-seed2.npz").write_text("not an archive")
    set_language("zh")
    try:
        shown = render(Seq2seqScreen, MATRIX, MatrixState(weights="cached", scoring="dot"), "txt", (120, 30))
    finally:
        set_language("en")
    assert "seq2seq-dot-seed2.npz 读不出来：不是权重文件" in shown and "（不是 .npz 归档）" in shown  # (wrapped)


def test_the_shift_line_claims_nothing_of_a_cached_model(cache):
    """Its "rows below: # one right of their token" was read off the shipped models' rows only."""
    save(cache, "seq2seq-additive-seed7.npz", always(A), record(7, 0.8, 0.9, 300), 10**18)
    assert "rows below: # one right" in " ".join(text(MatrixState(), (120, 30)).split())
    wrong = " ".join(text(MatrixState(weights="cached", step=1), (120, 30)).split())
    assert "matrix: yours" in wrong and "should copy x_14" in wrong
    save(cache, "seq2seq-additive-seed7.npz", s2s.shipped("additive"), record(7, 0.8, 0.9, 300), 2 * 10**18)
    same = " ".join(text(MatrixState(weights="cached"), (120, 30)).split())  # the shipped weights, as yours
    assert "matrix: yours" in same and "copies x_15 from h_15 itself" in same and "rows below" not in same


async def test_w_cycles_shipped_cached_live_and_t_picks_the_live_run(cache):
    """After a live run, w changed only its label: the run was drawn over whatever it chose (a student's
    trial). The run is now one of w's choices, which t picks as it starts."""
    from rnntui.app import RnnApp
    from rnntui.figure import LabRun

    save(cache, "seq2seq-additive-seed7.npz", always(A), record(7, 0.8, 0.9, 300), 10**18)
    live = {"scoring": "additive", "arrays": always(3), "step": 5, "steps": 1000}
    app = RnnApp("seq2seq", "matrix")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        screen.labs.start = lambda *_: LabRun(status="running", number=1, partial=live)  # a run that has sent weights
        await pilot.press("t")
        assert screen.state.weights == "live" and screen.state.readings().output == (3,) * s2s.LENGTH
        drawn = []
        for _ in range(3):
            await pilot.press("w")
            drawn.append((screen.state.weights, screen.state.readings().weights, screen.state.readings().output[0]))
        shipped = int(s2s.decode_sample("additive", 0).tokens[0][0])
        assert drawn == [("shipped", "shipped", shipped), ("cached", "cached", A), ("live", "live", 3)]


def test_each_sample_goes_through_the_cached_model(cache):
    """The shipped additive weights saved as yours: each sample's outputs are the shipped model's for that
    sample (a second method: the shipped decoding), and two samples differ."""
    save(cache, "seq2seq-additive-seed7.npz", s2s.shipped("additive"), record(7, 0.8, 0.9, 300), 10**18)
    outs = [MatrixState(weights="cached", sample=i).readings().output for i in (0, 1)]
    assert outs == [tuple(int(t) for t in s2s.decode_sample("additive", i).tokens[0]) for i in (0, 1)]
    assert outs[0] != outs[1] and MatrixState(weights="cached").readings().weights == "cached"


def test_a_file_made_readable_is_read_at_the_next_key(cache, monkeypatch):
    """"does not read: permission denied" stayed after a chmod that let it be read: the file was read again only
    when its mtime or size changed, and a chmod changes its ctime alone."""
    import errno

    save(cache, "seq2seq-additive-seed7.npz", always(A), record(7, 0.8, 0.9, 300), 10**18)
    real = s2s.read_npz

    def denied(path, scoring):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(s2s, "read_npz", denied)  # (as root, chmod 000 would not stop a read here)
    r = MatrixState(weights="cached").readings()
    assert r.weights == "shipped" and r.cached.problem_errno == errno.EACCES
    assert "does not read: permission denied" in " ".join(text(MatrixState(weights="cached"), (120, 30)).split())
    monkeypatch.setattr(s2s, "read_npz", real)
    os.chmod(cache / "seq2seq-additive-seed7.npz", 0o644)  # its ctime moves on; mtime and size do not
    assert MatrixState(weights="cached").readings().output == (A,) * s2s.LENGTH


def test_a_cached_model_without_a_record_is_named_by_its_file(cache):
    """A checkpoint without its record (copied in by hand) said "matrix: yours, seed None, None steps" (a
    student's trial): its seed is the one its name gives, and it says it has no record."""
    arrays = {k: np.asarray(v, dtype=np.float32) for k, v in always(A).items()}
    np.savez_compressed(cache / "seq2seq-additive-seed9.npz", **arrays)
    r = MatrixState(weights="cached").readings()
    assert r.weights == "cached" and r.cached.seed == 9 and r.cached.steps is None
    shown = text(MatrixState(weights="cached"), (100, 30))
    assert "matrix: yours, seed 9, no record of its training" in shown and "None" not in shown


def test_a_cache_folder_that_does_not_read_is_said_not_nothing_cached(cache, monkeypatch):
    """With the cache folder unreadable, w (cached) said "nothing cached: rnntui train seq2seq …" beside the
    models in it (a student's trial): the folder is named, with why."""
    save(cache, "seq2seq-additive-seed3.npz", always(A), record(3, 0.8, 0.9, 300), 10**18)

    def refuse(path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(s2s.os, "scandir", refuse)
    shown = text(MatrixState(weights="cached"), (100, 30))
    assert "rnntui/ does not read: permission denied" in shown.lower() and "nothing cached" not in shown, shown
