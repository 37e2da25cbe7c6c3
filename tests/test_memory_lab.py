"""T7 lab (torch): the data, the forget-bias fill per cell, the fast trainer's gradients against autograd,
plain and fast loops taking the same steps, training lowering the loss, cancelling, and the gate reader."""
import math

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

from rnntui.engine import lab_memory as lab  # noqa: E402
from rnntui.engine import memory as mem  # noqa: E402
from rnntui.state import BadValue  # noqa: E402

H = mem.HIDDEN


@pytest.fixture(autouse=True)
def one_thread():
    torch.set_num_threads(1)


def test_batches_are_fresh_seeded_and_the_target_is_the_first_token():
    g = lab.generator(1)
    a, b = lab.batch(g, 64, 20), lab.batch(g, 64, 20)
    assert a.shape == (64, 20) and a.dtype == torch.int64
    assert not torch.equal(a, b)  # fresh every step
    assert torch.equal(a, lab.batch(lab.generator(1), 64, 20))  # … and reproducible
    assert a.min() >= 0 and a.max() < mem.VOCAB
    d = lab.batch(lab.generator(1), 500, 20, "disjoint")
    assert d[:, 0].max() < mem.VOCAB and d[:, 1:].min() >= mem.VOCAB and d.max() < 2 * mem.VOCAB
    with pytest.raises(BadValue):
        lab.batch(g, 4, 5, "other")


def test_model_shapes():
    m = lab.initial("lstm", 0)
    x = lab.batch(lab.generator(1), 7, 13)
    assert m(x).shape == (7, mem.VOCAB)
    assert m.rnn.weight_hh_l0.shape == (4 * H, H) and isinstance(m.rnn, torch.nn.LSTM)
    r = lab.initial("rnn", 0)
    assert r(x).shape == (7, mem.VOCAB) and isinstance(r.rnn, torch.nn.RNN) and r.rnn.nonlinearity == "tanh"


def forget_bias(model):
    """b_ih + b_hh in the forget slice (torch stacks the gates i, f, g, o)."""
    return (model.rnn.bias_ih_l0 + model.rnn.bias_hh_l0)[H:2 * H].detach()


@pytest.mark.parametrize("cell", ["lstm-bf1", "lstm-bf2"])
def test_forget_bias_fill_gives_the_cells_effective_bias(cell):
    b = forget_bias(lab.initial(cell, 0))
    assert torch.allclose(b, torch.full((H,), mem.FORGET_BIAS[cell]))
    # what the gate opens to before training, on a zero input: σ(1) = 0.73, σ(2) = 0.88
    assert float(torch.sigmoid(b).mean()) == pytest.approx(1 / (1 + math.exp(-mem.FORGET_BIAS[cell])))


def test_default_lstm_forget_bias_is_near_zero_and_other_gates_are_untouched():
    m0, m2 = lab.initial("lstm", 0), lab.initial("lstm-bf2", 0)
    b = forget_bias(m0)
    assert b.abs().max() <= 0.25 and abs(float(b.mean())) < 0.05  # two uniform(−1/8, 1/8) draws
    for name in ("bias_ih_l0", "bias_hh_l0"):  # i, g, o slices as torch made them, same seed
        t0, t2 = getattr(m0.rnn, name).detach(), getattr(m2.rnn, name).detach()
        assert torch.equal(t0[:H], t2[:H]) and torch.equal(t0[2 * H:], t2[2 * H:])


@pytest.mark.parametrize("cell, hand", [("rnn", True), ("lstm-bf1", True), ("lstm", False)])
def test_fast_gradients_equal_autograd(cell, hand):
    model = lab.initial(cell, 3)
    x = lab.batch(lab.generator(5), 64, 12)
    loss = F.cross_entropy(model(x), x[:, 0])
    loss.backward()
    fast = lab.Fast(cell, model.named(), hand=hand)
    assert fast.fused == (cell != "rnn" and not hand)
    assert fast.loss_and_grad(x) == pytest.approx(loss.item(), rel=1e-5)
    for name, t in model.named().items():
        scale = t.grad.abs().max().item()
        assert (fast.g[name] - t.grad).abs().max().item() <= 1e-4 * scale + 1e-9, name


def test_a_short_run_lowers_the_loss():
    fast = lab.Fast("lstm-bf2", lab.initial("lstm-bf2", 0).named())
    g = lab.generator(1)
    losses = [fast.step(lab.batch(g, 64, 5)) for _ in range(60)]
    assert losses[0] == pytest.approx(math.log(mem.VOCAB), rel=0.05)  # untrained: about uniform over 10
    assert sum(losses[-10:]) / 10 < losses[0] - 0.5


@pytest.mark.parametrize("cell", ["rnn", "lstm-bf2"])
def test_plain_and_fast_loops_take_the_same_steps(cell):
    plain = lab.make_trainer(cell, 0, mem.VOCAB, fast=False)
    fast = lab.make_trainer(cell, 0, mem.VOCAB, fast=True)
    g = lab.generator(1)
    for _ in range(20):
        x = lab.batch(g, 64, 10)
        assert fast.step(x) == pytest.approx(plain.step(x), rel=1e-4, abs=1e-5)
    for name, t in plain.params().items():  # 20 Adam steps move a weight by up to 20 × lr = 0.02
        assert torch.allclose(fast.params()[name], t, atol=1e-4), name


def test_the_lstm_trainer_takes_the_plain_loops_steps_bit_for_bit():
    plain = lab.make_trainer("lstm-bf2", 0, mem.VOCAB, fast=False)
    fast = lab.make_trainer("lstm-bf2", 0, mem.VOCAB, fast=True)
    g = lab.generator(1)
    for _ in range(30):
        x = lab.batch(g, 64, 8)
        assert fast.step(x) == plain.step(x)
    for name, t in plain.params().items():
        assert torch.equal(fast.params()[name], t), name


def test_plain_and_fast_runs_reach_100_percent_at_the_same_step():
    a = lab.train("lstm-bf2", 5, steps=300, fast=True).run
    b = lab.train("lstm-bf2", 5, steps=300, fast=False).run
    assert a.reached_100_at is not None and a.reached_100_at == b.reached_100_at


def test_train_reports_progress_and_should_stop_cancels():
    seen, calls = [], []

    def stop():
        calls.append(1)
        return len(calls) > 25

    done = lab.train("rnn", 5, steps=1000, every=10, progress=seen.append, should_stop=stop)
    assert done.stopped and done.run.steps == 25
    assert [p.step for p in seen] == list(range(1, 26))
    assert [p.step for p in seen if p.acc is not None] == [10, 20]
    assert [p.step for p in done.run.curve] == [10, 20, 25]  # the stopping step is scored too
    assert done.run.final_acc == done.run.curve[-1].acc


def test_bad_input_is_one_line():
    with pytest.raises(BadValue, match="T=30"):
        lab.train("lstm", 30)
    with pytest.raises(BadValue, match="cell"):
        lab.train("gru", 20)
    with pytest.raises(BadValue, match="steps"):
        lab.train("lstm", 20, steps=0)


def test_gate_profile_reads_the_gates_torch_computes():
    fast = lab.Fast("lstm-bf2", lab.initial("lstm-bf2", 0, n_in=20).named())
    x = lab.batch(lab.generator(9), 32, 6, "disjoint")
    prof = lab.gate_profile(fast, x)
    # an independent forward with torch's LSTMCell on the same weights
    m = lab.initial("lstm-bf2", 0, n_in=20)
    cell = torch.nn.LSTMCell(H, H)
    with torch.no_grad():
        for a, b in [("weight_ih", "weight_ih_l0"), ("weight_hh", "weight_hh_l0"), ("bias_ih", "bias_ih_l0"),
                     ("bias_hh", "bias_hh_l0")]:
            getattr(cell, a).copy_(getattr(m.rnn, b))
        h = c = torch.zeros(32, H)
        for t in range(6):
            e = m.emb(x[:, t])
            pre = e @ cell.weight_ih.t() + cell.bias_ih + h @ cell.weight_hh.t() + cell.bias_hh
            i, f = torch.sigmoid(pre[:, :H]), torch.sigmoid(pre[:, H:2 * H])
            assert prof["input_gate"][t] == pytest.approx(float(i.mean()), abs=1e-5)
            assert prof["forget_gate"][t] == pytest.approx(float(f.mean()), abs=1e-5)
            h, c = cell(e, (h, c))
    # untrained with b_f = 2: every forget gate is near σ(2) = 0.88, so no unit holds above 0.95
    assert prof["held_units"] == [] and 0.8 < prof["forget_gate"][3] < 0.95


def test_train_memory_command_writes_a_result_the_engine_reads(tmp_path, capsys):
    from rnntui.cli import main

    out = tmp_path / "one.json"
    assert main(["train", "memory", "--cell", "rnn", "--T", "5", "--steps", "200", "--out", str(out)]) == 0
    run = mem.parse(out.read_bytes()).run("rnn", 5)
    assert run.steps == 200 and [p.step for p in run.curve] == [100, 200]
    assert "rnn T=5" in capsys.readouterr().out


def test_train_memory_all_runs_every_cell_with_the_steps_and_seed_asked(tmp_path, capsys):
    """`--all --steps N --seed S` ran 1500/6000 steps from seed 0 (a TA's trial): every cell × T now runs
    N steps from seed S, and the table and the JSON say so."""
    from rnntui.cli import main

    out = tmp_path / "grid.json"
    assert main(["train", "memory", "--all", "--steps", "2", "--seed", "3", "--out", str(out)]) == 0
    runs = mem.parse(out.read_bytes()).runs
    assert len(runs) == len(mem.CELLS) * len(mem.TS) and {(r.steps, r.seed) for r in runs} == {(2, 3)}
    *rows, where = capsys.readouterr().out.strip().splitlines()[1:]
    assert len(rows) == len(runs) and {row.split()[4] for row in rows} == {"2"}  # the steps column
    assert where == f"-> {out}"
    alone = lab.train("lstm", 10, steps=2, seed=3).run  # the same run as one cell: seed 3's, not seed 0's
    assert mem.parse(out.read_bytes()).run("lstm", 10).final_acc == alone.final_acc
    assert alone.final_acc != lab.train("lstm", 10, steps=2, seed=0).run.final_acc


def test_a_grid_off_the_recipe_stays_out_of_the_apps_runs(tmp_path, monkeypatch, capsys):
    """`--all --steps 2` without --out put its 15 two-step runs in the cache the app draws, each underlined as
    yours (a review): only the recipe's grid goes there; another stays in the grid file, and a line says so."""
    from rnntui.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["train", "memory", "--all", "--steps", "2"]) == 0
    grid = mem.cache_path().with_name("memory-grid.json")
    assert not mem.cache_path().exists() and len(mem.parse(grid.read_bytes()).runs) == len(mem.CELLS) * len(mem.TS)
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"rnntui: not merged into the app's runs ({mem.cache_path()}): --steps or --seed differ from the recipe; the grid "
        f"is in {grid}")
    # a second grid set the first aside as its first run was written: a ctrl+c after it left one run of the
    # earlier 15 (a code review)
    first = grid.read_bytes()

    def stop_after_one(path, log, write, **k):  # the grid's first run written, then ctrl+c
        run = lab.train("rnn", 5, steps=1, seed=4).run
        write(mem.Results((run,)).dumps())
        log(run)
        raise KeyboardInterrupt

    monkeypatch.setattr(lab, "write_grid", stop_after_one)
    assert main(["train", "memory", "--all", "--steps", "1", "--seed", "4"]) == 130
    kept = grid.with_name("memory-grid.previous.json")
    assert kept.read_bytes() == first and len(mem.parse(grid.read_bytes()).runs) == 1
    assert f"rnntui: the earlier grid is kept as {kept}" in capsys.readouterr().err
    # a second grid cut short replaces the first one cut short, not the whole one kept (a review)
    assert main(["train", "memory", "--all", "--steps", "1", "--seed", "4"]) == 130
    assert kept.read_bytes() == first and "is kept as" not in capsys.readouterr().err


def test_one_run_off_the_recipe_stays_out_of_the_apps_runs_and_the_slides(tmp_path, monkeypatch, capsys):
    """`train memory --cell lstm-bf2 --T 40 --steps 100` merged its 17.5✗ into the cache the app, shot and
    export draw: the lecture's slide said "(ours: 17.5✗)" for 100@700 (a CLI trial). As with --all, a run off
    the recipe (--steps or --seed) is kept apart, in memory-trials.json, and a line says so."""
    from rnntui.cli import main
    from rnntui.figures.memory import CopyState

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    before = CopyState(cell="rnn", T=5).readings()
    for extra in (("--steps", "2"), ("--seed", "3", "--steps", "3")):
        assert main(["train", "memory", "--cell", "rnn", "--T", "5", *extra]) == 0
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1] == f"rnntui: not merged into the app's runs ({mem.cache_path()}): --steps or --seed differ from the recipe"
    trials = mem.cache_path().with_name("memory-trials.json")
    assert not mem.cache_path().exists() and mem.parse(trials.read_bytes()).run("rnn", 5).steps == 3  # (the newest)
    assert CopyState(cell="rnn", T=5).readings() == before  # the shipped run, drawn as before


def test_the_recipes_own_steps_and_seed_are_the_recipe(tmp_path, monkeypatch, capsys):
    """`--steps 1500 --seed 0` for rnn is the recipe's run: it went with the trials and the line said it
    differed from the recipe (a review). And a corrupt trials file is said, as a corrupt cache is."""
    from types import SimpleNamespace

    from rnntui.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    def train(cell, T, steps=None, seed=0, **k):  # (a run as the recipe's trainer returns it, at once)
        steps = steps or mem.STEPS[cell]
        return SimpleNamespace(run=mem.make_run(cell, T, steps, seed, [(steps, 1.0, 0.1)], 1.0, "t"))

    monkeypatch.setattr(lab, "train", train)
    assert main(["train", "memory", "--cell", "rnn", "--T", "5", "--steps", str(mem.STEPS["rnn"]), "--seed", "0"]) == 0
    assert "not merged" not in capsys.readouterr().err and mem.load_cache()[0].run("rnn", 5).steps == mem.STEPS["rnn"]
    trials = mem.cache_path().with_name("memory-trials.json")
    trials.write_text("garbage")
    assert main(["train", "memory", "--cell", "rnn", "--T", "5", "--steps", "7"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "corrupt" in line]
    assert len(said) == 1 and said[0].startswith("rnntui: ") and "memory-trials.json" in said[0]
    assert said[0].endswith("; this run starts it anew") and "shipped" not in said[0]  # (it is no cache of them)
    assert mem.parse(trials.read_bytes()).run("rnn", 5).steps == 7


def test_a_file_made_at_out_while_the_grid_trains_is_kept(tmp_path, monkeypatch, capsys):
    """`--all --out g.json` replaced notes made there while the grid trained, without a word (a review): the
    first finished run finds them, and the grid goes beside them, with a line that says so."""
    from rnntui.cli import main

    out = tmp_path / "g.json"

    def grid(cells, Ts, on_run, steps=None, seed=0):
        out.write_text('{"my":"notes"}')
        for T in (5, 10):
            on_run(mem.make_run("rnn", T, 2, seed, [(2, 0.5, 1.0)], 1.0, "t"))

    monkeypatch.setattr(lab, "run_grid", grid)
    assert main(["train", "memory", "--all", "--steps", "2", "--out", str(out)]) == 0
    beside = tmp_path / "g-1.json"
    assert out.read_text() == '{"my":"notes"}' and {r.T for r in mem.parse(beside.read_bytes()).runs} == {5, 10}
    said = capsys.readouterr()
    assert f"{out} appeared while this run trained: it is kept, and this run is in {beside}" in said.err
    assert said.out.rstrip().endswith(f"-> {beside}")  # (and after the table: said only before it, a review)



def test_train_memory_all_says_its_runs_and_table_in_the_apps_language(tmp_path, monkeypatch, capsys):
    """Under --lang zh, `--all`'s line a run and its table were English (the engine's; a review): they are
    Chinese, the run's line as `train memory`'s, and the table's columns line up in cells (a Chinese
    character takes two)."""
    from rich.cells import cell_len

    from rnntui.cli import main

    def grid(cells, Ts, on_run, steps=None, seed=0):
        for T in (5, 10):
            on_run(mem.make_run("rnn", T, 2, seed, [(2, 0.5, 1.0)], 1.0, "t"))

    monkeypatch.setattr(lab, "run_grid", grid)
    assert main(["train", "memory", "--all", "--steps", "2", "--out", str(tmp_path / "g.json"), "--lang", "zh"]) == 0
    said = capsys.readouterr()
    runs = [line for line in said.err.splitlines() if line.startswith("memory rnn")]
    assert len(runs) == 2 and "2 步后准确率 50" in runs[0]
    table = said.out.splitlines()[:-1]  # (the last: where the grid went)
    head, ours = table[0], "我们的 %"
    assert head.startswith("模型") and ours in head and "ours" not in said.out and "never" not in said.out
    end = cell_len(head[:head.index(ours) + len(ours)])  # the column's right edge, in cells
    for line in table[1:]:
        if line.split()[:2] in (["rnn", "5"], ["rnn", "10"]):
            assert cell_len(line[:line.index("50.0") + 4]) == end, line

def test_ctrl_c_during_train_memory_says_nothing_was_saved_and_exits_130(tmp_path):
    """Ctrl+C ended `train memory` silently after the bar's "…365/6000 … 3.6s^C" (a TA's trial): one line
    says it was cancelled and that nothing was saved, status 130, no traceback."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "run.json"
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(root)}
    proc = subprocess.Popen([sys.executable, "-m", "rnntui", "train", "memory", "--cell", "lstm", "--T", "80",
                             "--steps", "100000", "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=root, env=env)
    try:
        first = proc.stderr.readline()  # the bar's first evaluation: it is training
        assert "/100000" in first, first
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    lines = err.strip().splitlines()
    assert lines == [f"rnntui: cancelled: nothing saved to {out}"] and not out.exists()


def test_ctrl_c_during_train_memory_all_says_where_the_finished_runs_are(tmp_path, monkeypatch, capsys):
    from rnntui.cli import main

    real, calls = lab.train, []

    def two_then_ctrl_c(*a, **k):
        calls.append(a)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(lab, "train", two_then_ctrl_c)
    out = tmp_path / "grid.json"
    assert main(["train", "memory", "--all", "--steps", "1", "--out", str(out)]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"rnntui: cancelled: the 2 runs that finished are in {out}" and len(err) == 3
    assert [(r.cell, r.T) for r in mem.parse(out.read_bytes()).runs] == [("rnn", 5), ("rnn", 10)]


def test_train_memory_help_says_when_the_forget_bias_cells_stop(tmp_path, capsys, monkeypatch):
    """The help said the forget-bias cells "stop at 100%"; they are checked every 500 steps (lstm-bf2 T=20,
    100% at step 300, ran to 500: a TA's trial). It says so, and a run does so."""
    from rnntui.cli import main

    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        main(["train", "memory", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "stop early at the first multiple of 500 steps whose accuracy is 100%" in said
    out = tmp_path / "bf2.json"
    assert main(["train", "memory", "--cell", "lstm-bf2", "--T", "5", "--out", str(out)]) == 0
    run = mem.parse(out.read_bytes()).run("lstm-bf2", 5)
    assert run.reached_100_at < 500 and run.steps == 500  # 100% before 500, stopped at 500


@pytest.mark.parametrize("argv", [["--T", "30"], ["--cell", "gru"], ["--T", "abc"]])
def test_train_memory_bad_input_is_one_line_and_status_2(argv, capsys):
    from rnntui.cli import main

    assert main(["train", "memory", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.heavy  # (a whole recipe run: about 7 s)
def test_the_rnn_at_t10_fails_with_seed_0_and_learns_with_another_as_help_says():
    """The copy table's "RNN fails at T = 10" was one seed's (a mathematician's reruns: seeds 1 to 4 learn it):
    help says so and names a run that learns; the shipped seed-0 run fails, as the source's one run did."""
    from rnntui.figures.memory import CopyState
    from rnntui.screens.memory import CopyView

    said = CopyView.explained(CopyState())
    assert "rnntui train memory --cell rnn --T 10 --seed 1" in said and "fails with seed 0" in said
    ours = next(r for r in mem.shipped().runs if (r.cell, r.T) == ("rnn", 10))
    assert ours.seed == 0 and not ours.learned and ours.reached_100_at is None
    assert lab.train("rnn", 10, seed=1).run.reached_100_at is not None  # the recipe's steps, seed 1


@pytest.mark.parametrize("args", [[], ["--help"], ["--bogus"]])
def test_running_the_module_trains_only_into_a_named_file(args, tmp_path):
    """`python -m rnntui.engine.lab_memory` with no file rewrote the shipped grid, and `--help` or `--bogus` trained
    into a file of that name (a review): no file now stops it; help and a bad option train nothing."""
    import subprocess
    import sys

    shipped = mem.shipped_path().read_bytes()
    r = subprocess.run([sys.executable, "-m", "rnntui.engine.lab_memory", *args], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == (0 if args == ["--help"] else 2) and "OUT" in r.stdout + r.stderr
    assert list(tmp_path.iterdir()) == [] and mem.shipped_path().read_bytes() == shipped
