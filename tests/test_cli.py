"""The command line: shot in each format, and bad input → one line, exit 2, nothing lost."""
import io
import json
import math
import os
import shlex
import subprocess
import sys

import pytest

from rnntui.cli import main


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, cwd=None):
    # this checkout's rnntui, whatever the folder it runs in
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "rnntui", *args], capture_output=True, text=True, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=60, env=env)


def test_shot_txt_shows_the_seed_figure(tmp_path):
    out = tmp_path / "x.txt"
    assert main(["shot", "recurrence/track", "--set", "w_h=1.4", "--step", "7", "-o", str(out)]) == 0
    text = out.read_text()
    assert "0.841" in text and "Token track" in text


def test_shot_json_holds_state_and_computed_series(tmp_path):
    out = tmp_path / "x.json"
    assert main(["shot", "recurrence/track", "--set", "w_h=0", "--step", "7", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["state"]["w_h"] == 0 and data["state"]["step"] == 7
    assert abs(data["h"][-1] - math.tanh(0.8 * 0.4)) < 1e-12 and len(data["h"]) == 8


def test_shot_svg(tmp_path):
    out = tmp_path / "x.svg"
    assert main(["shot", "recurrence/tanh", "--set", "z=2", "--size", "80x24", "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith("<svg") and "0.071" in svg


def test_shot_to_stdout(capsys):
    assert main(["shot", "recurrence/readout", "--set", "head=seq", "-o", "-"]) == 0
    assert "sequence labelling" in capsys.readouterr().out


def test_without_a_figure_the_set_keys_choose_it(capsys):
    assert main(["shot", "recurrence", "--set", "z=2", "-o", "-"]) == 0
    assert "0.071" in capsys.readouterr().out


@pytest.mark.parametrize("args,words", [
    (["shot", "nosuch", "-o", "x.txt"], "unknown topic 'nosuch'"),
    (["shot", "recurrence/nosuch", "-o", "x.txt"], "unknown figure"),
    (["shot", "recurrence/track", "--set", "w_q=1", "-o", "x.txt"], "unknown key 'w_q'"),
    (["shot", "recurrence/track", "--set", "w_h=banana", "-o", "x.txt"], "w_h=banana"),
    # a topic without a figure: each figure's keys (it named the first figure's only, and z is recurrence/tanh's)
    (["recurrence", "--set", "act=relu"], "unknown key 'act' in recurrence: track takes w_h, w_x, b, step (t); tanh takes z;"),
    (["recurrence", "--set", "=3"], "--set '=3': expected KEY=VALUE"),  # (not "unknown key ''", a review)
    (["shot", "recurrence", "--set", "z=2", "--set", "w_h=1", "-o", "x.txt"],
     "no figure of recurrence takes all of z, w_h: track takes w_h, w_x, b, step (t); tanh takes z;"),
    (["shot", "recurrence/track", "--step", "99", "-o", "x.txt"], "--step 99"),
    (["shot", "lstm/bias", "--set", "b_f=0.5", "--step", "2", "-o", "x.txt"], "--step 2 and --set b_f=0.5 both set b_f"),
    (["shot", "recurrence/track", "--set", "w_h=1", "--set", "W_h=2", "-o", "x.txt"], "--set W_h is given twice (1, 2)"),
    (["shot", "serving/kvcache", "--set", "context=1,024", "-o", "x.txt"], "expected one of 128, 256, 512, 1024, 2048,"),
    (["shot", "attention/qkv", "--set", "d_k", "64", "-o", "x.txt"], "--set 'd_k': expected KEY=VALUE, such as --set d_k=64"),
    (["shot", "recurrence/track", "--step", "3", "--step", "4", "-o", "x.txt"], "--step is given twice (3, 4); give it once"),
    (["recurrence", "--step", "3", "--step", "4"], "--step is given twice (3, 4); give it once"),
    # every option of one value, defaults or not: the last took it without a word (a CLI trial)
    (["shot", "recurrence", "--size", "80x24", "--size", "120x40", "-o", "x.txt"], "--size is given twice (80x24, 120x40)"),
    (["shot", "recurrence", "-o", "a.txt", "--output", "b.txt"], "--output is given twice (a.txt, b.txt)"),
    (["recurrence", "--theme", "light", "--theme", "dark"], "--theme is given twice (light, dark)"),
    (["export", "out", "--format", "txt", "--format", "svg"], "--format is given twice (txt, svg)"),
    (["train", "memory", "--seed", "1", "--seed", "2"], "--seed is given twice (1, 2)"),
    (["--set", "w_h", "-1"], "--set 'w_h': expected KEY=VALUE, such as --set w_h=-1"),
    (["--set", "w_h", "recurrence/track"], "--set 'w_h': expected KEY=VALUE"),  # (no "such as --set
    # w_h=recurrence/track": a topic is not a value, a review)
    (["shot", "-o", "x.txt", "--set=d_k", "64", "attention/scaling"], "such as --set d_k=64"),
    (["export", "out", "./elsewhere"], "./elsewhere is not a topic (the folder comes first"),
    # a deck where a topic goes: the command that takes it ("unknown topic 'my.toml'", a lecturer's trial)
    (["export", "out", "my.toml"], "my.toml is a deck, not a topic: rnntui export out --deck my.toml"),
    (["export", "out", "lecture"], "lecture is a deck, not a topic: rnntui export out --deck lecture"),
    (["lecture"], "lecture is a deck, not a topic: rnntui present lecture"),
    (["Lecture"], "Lecture is a deck, not a topic: rnntui present lecture"),
    (["my talk.TOML"], "my talk.TOML is a deck, not a topic: rnntui present 'my talk.TOML'"),
    (["shot", "lecture", "-o", "x.txt"], "lecture is a deck, not a topic: rnntui export OUTDIR --deck lecture"),
    (["/tmp/nosuch"], "unknown topic '/tmp/nosuch': choose from recurrence,"),  # (it said "unknown topic ''")
    (["export", "-", "--format", "txt"], "export writes a folder of files, not standard output; for one figure as text: rnntui shot TOPIC/FIGURE -o -"),
    (["shot", "recurrence/track", "-o", "x.doc"], "suffix"),
    (["shot", "recurrence/track", "-o", "."], "-o .: that is a folder; -o takes a file, such as ./recurrence-track.svg"),
    (["shot", "recurrence/track", "-o", "new/"], "such as new/recurrence-track.svg"),
    (["shot", "recurrence/track", "--size", "3x3", "-o", "x.txt"], "--size"),
    # a value starting with -: the option's own check (argparse said "expected one argument", a power user's trial)
    (["shot", "recurrence/track", "--size", "-100x30", "-o", "x.txt"], "--size '-100x30': expected WxH, from 40x12"),
    (["export", "out", "--format", "-svg"], "--format"),
    (["shot", "recurrence/track", "-o", "--"], "argument -o/--output: expected one argument"),  # ("--": a traceback)
    (["shot", "recurrence/track", "--size", "--", "-o", "x.txt"], "argument --size: expected one argument"),
    (["shot", "recurrence/track", "--size", "500x200", "-o", "x.png"], "12236×9860 PNG (121 Mpx), more than image viewers open (89 Mpx): use --scale 1.72"),
    (["shot", "recurrence/track", "--theme", "neon", "-o", "x.txt"], "--theme"),
    (["shot", "recurrence/track", "-o", "/nonexistent-dir/x.txt"], "cannot write"),
    (["present"], "required: DECK (a deck file, or a shipped deck: lecture)"),
    (["nosuch"], "unknown topic"),
    (["--bogus"], "unrecognized arguments"),
    # a trial's: each was taken, ignored or said in several lines
    (["--lang", "", "--list"], "--lang '': choose en or zh"),
    (["--list", "nosuch"], "--list takes nothing else (got nosuch)"),
    (["--list", "--set", "w_h=1"], "--list takes nothing else (got --set w_h=1)"),
    (["--list", "--theme", "nosuch"], "--theme 'nosuch': choose dark, light, projector or a Textual theme"),
    (["shot", "recurrence/track", "-o", ".svg"], "-o .svg: name the file, such as recurrence-track.svg"),
    (["shot", "recurrence/track", "--set", "w_h=1\n2", "-o", "x.txt"], "w_h=1\\n2: expected a number"),
    (["shot", "recurrence/track", "--set", "w_h=1\u202e2", "-o", "x.txt"], "w_h=1\\u202e2: expected a number"),
    # argparse's own words ("invalid int value: 'abc'")
    (["serve", "--port", "abc"], "argument --port: 'abc' is not a whole number"),
    (["serve", "--idle-minutes", "soon"], "argument --idle-minutes: 'soon' is not a number"),
    (["present", "lecture", "--start", "1.5"], "argument --start: '1.5' is not a whole number"),
    (["train", "memory", "--T", "x"], "train memory: argument --T: 'x' is not a whole number"),
    # (int() and float() take digit separators: --steps 1_0 trained 10 steps, a review)
    (["train", "memory", "--steps", "1_0"], "train memory: argument --steps: '1_0' is not a whole number"),
    (["serve", "--idle-minutes", "1_0"], "argument --idle-minutes: '1_0' is not a number"),
    (["train", "seq2seq", "--until", "0.7_6"], "train seq2seq: argument --until: '0.7_6' is not a number from 0 to 1"),
    # options that would do nothing (rc 0, no new.npz written; every cell and T trained: a CLI audit)
    (["train", "seq2seq", "--eval", "c.npz", "--out", "new.npz", "--steps", "5"],
     "--eval scores a checkpoint and trains nothing: --out, --steps would do nothing"),
    (["train", "memory", "--all", "--cell", "rnn", "--T", "5"], "--all trains every cell and T: --cell, --T would do nothing"),
    # --scale was ignored for .svg and .txt without a word
    (["shot", "recurrence/track", "--scale", "3", "-o", "x.txt"], "--scale 3: only PNG output has pixels to scale (this writes txt)"),
    (["export", "out", "--format", "svg,txt", "--scale", "3"], "(this writes svg,txt)"),
])
def test_bad_input_is_one_line_and_exit_2(args, words, tmp_path):
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("typed, address", [("3", "lstm"), ("F8", "gradients/product"), ("f2", "recurrence/tanh"),
                                            ("E4", "seq2seq/matrix"), ("T5", "attention"), ("t8", "serving"),
                                            ("F15+F18", "parallel/grid"), ("e2+E3", "memory/copy"),
                                            ("F15 + F18", "parallel/grid"),
                                            ("§8", "serving/wayback")])
def test_a_topics_number_and_a_figures_source_id_are_addresses(typed, address, tmp_path):
    """"rnntui shot 1" and "shot F2" were unknown topics, though the keys take topic numbers and the palette
    the figures' ids (a power user's trial): each writes what its address writes."""
    import json

    assert main(["shot", typed, "-o", str(tmp_path / "typed.json")]) == 0
    assert main(["shot", address, "-o", str(tmp_path / "named.json")]) == 0
    typed_json, named_json = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("typed", "named"))
    assert typed_json == named_json and f"{typed_json['topic']}/{typed_json['figure']}".startswith(address)


def test_an_id_no_figure_has_is_said_as_an_id(capsys):
    """F99 and F1+F99 read "unknown topic 'f99'", a list of topics (a power user's trial): the line names the id
    and where the ids are listed; F15+F18 and §8, as titles print them, open their figures (above)."""
    for typed in ("F99", "F1+F99", "§9"):
        assert main(["shot", typed, "-o", "-"]) == 2
        err = capsys.readouterr().err
        assert err == f"rnntui: no figure has the id {typed}: rnntui --list shows each figure's\n"


def test_a_topic_after_a_bare_set_key_is_not_offered_as_its_value(tmp_path):
    r = run("--set", "w_h", "recurrence/track", cwd=tmp_path)
    assert r.returncode == 2 and "such as" not in r.stderr and "KEY=VALUE" in r.stderr


def test_a_file_where_a_folder_should_be_is_named(tmp_path, capsys):
    """`-o notes.txt/x.svg` said "folder …/notes.txt does not exist", and `export notes.txt/sub` gave the
    system's "Not a directory" (a newcomer's trial): both name the file in the way."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    for args in (["shot", "recurrence/track", "-o", str(notes / "x.svg")], ["export", str(notes / "sub"), "--format", "txt"]):
        assert main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("rnntui: cannot write ")
        assert err[0].endswith(f": {notes} is a file, not a folder")
    assert notes.read_text() == "mine"


def test_the_systems_reasons_are_said_in_the_apps_language():
    import errno

    from rnntui import i18n
    from rnntui.files import reason

    i18n.set_language("zh")
    try:
        assert reason(OSError(errno.ENOENT, "No such file or directory")) == "没有这个文件或文件夹"
        assert reason(OSError(errno.ENOSPC, "No space left on device")) == "设备上没有剩余空间"
    finally:
        i18n.set_language("en")
    assert reason(OSError(errno.EACCES, "Permission denied")) == "permission denied"
    assert reason(OSError(errno.EISDIR, "Is a directory")) == "it is a folder"
    assert reason(OSError(errno.EBUSY, "Device or resource busy")) == "Device or resource busy"  # unknown: as it came


def test_unwritable_file_keeps_the_old_one(tmp_path):
    out = tmp_path / "keep.txt"
    out.write_text("old")
    os.chmod(tmp_path, 0o500)
    try:
        if os.access(tmp_path, os.W_OK):  # root ignores permissions
            pytest.skip("running as root: permissions are not enforced")
        assert main(["shot", "recurrence/track", "-o", str(out)]) == 2
        assert out.read_text() == "old"
    finally:
        os.chmod(tmp_path, 0o700)


def test_a_symbolic_link_is_written_through(tmp_path):
    """A shot or an export through a symbolic link replaced the link with a file (the slides a talk's
    folder links to stayed old); one to another file system could not be renamed over at all."""
    (tmp_path / "talk").mkdir()
    (tmp_path / "slides").mkdir()
    target = tmp_path / "slides" / "track.txt"
    target.write_text("old")
    link = tmp_path / "talk" / "track.txt"
    link.symlink_to(target)
    assert main(["shot", "recurrence/track", "-o", str(link)]) == 0
    assert link.is_symlink() and "Token track" in target.read_text()
    export = tmp_path / "export"
    export.mkdir()
    first = tmp_path / "slides" / "first.txt"
    first.write_text("old")
    (export / "01-recurrence-track-t0.txt").symlink_to(first)
    assert main(["export", str(export), "--format", "txt", "--deck", "lecture", "--force"]) == 0
    assert (export / "01-recurrence-track-t0.txt").is_symlink() and "One token at a time" in first.read_text()
    assert not list(tmp_path.rglob(".rnntui-*"))
    (export / "02-recurrence-track-t3.txt").unlink()
    (export / "02-recurrence-track-t3.txt").symlink_to(first)  # two frames, one file: the last written
    assert main(["export", str(export), "--format", "txt", "--deck", "lecture", "--force"]) == 0
    assert "t 3" in first.read_text() and not list(tmp_path.rglob(".rnntui-*"))  # (the other's was left)


def test_a_loop_of_symbolic_links_is_one_line(tmp_path, capsys):
    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    for args in (["shot", "recurrence/track", "-o", str(tmp_path / "a.txt")],
                 ["export", str(tmp_path), "--format", "txt", "--deck", "lecture", "--force"]):
        if args[0] == "export":
            (tmp_path / "01-recurrence-track-t0.txt").symlink_to(tmp_path / "a.txt")
        assert main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].endswith("its symbolic links go round in a loop"), err


def test_files_written_are_readable_as_any_new_file_and_keep_an_old_ones_mode(tmp_path):
    """Files are written beside the target and renamed (write_atomic). The temporary file is private
    (0600), and so were every shot and export: slides put in a web server's folder were refused to its
    readers. A new file gets what the umask allows, a replaced one keeps its mode."""
    import stat

    old = os.umask(0o027)
    try:
        new, kept = tmp_path / "new.txt", tmp_path / "kept.txt"
        kept.write_text("old")
        kept.chmod(0o664)
        for out in (new, kept):
            assert main(["shot", "recurrence/track", "-o", str(out)]) == 0
            assert "Token track" in out.read_text()
        assert stat.S_IMODE(new.stat().st_mode) == 0o640  # 0666 less the umask's 027
        assert stat.S_IMODE(kept.stat().st_mode) == 0o664
    finally:
        os.umask(old)


def test_list_names_the_figures_with_a_lab_and_the_table_whose_cells_open_figures():
    """--list gave every figure's parameters but not that t runs a lab on three of them, or that enter opens a
    figure from attention/summary's cells (a keyboard audit)."""
    from rnntui.cli import list_text

    lines = {line.split()[0]: line for line in list_text().splitlines() if line.startswith("    ")}
    assert {a for a, line in lines.items() if line.endswith(" · t lab")} == {"seq2seq/matrix", "parallel/timing",
                                                                            "memory/copy"}
    assert lines["attention/summary"].endswith("cell · enter open")
    assert sum("·" in line for line in lines.values()) == 4


def test_list_names_the_keys_a_keymap_moved(keymap, capsys):
    """--list named a parameter's letter and the lab's t as the contract has them after the user's keymap moved
    them (the app and its help used the keymap's); a keymap the app ignores is said, and the defaults listed."""
    from rnntui.cli import list_text

    keymap('[keys]\ntoggle_act = "g"\nlab = "ctrl+t"\n')
    lines = {line.split()[0]: line for line in list_text().splitlines() if line.startswith("    ")}
    assert "[g]act" in lines["gradients/bptt"] and "[a]act" not in lines["gradients/bptt"]
    assert lines["seq2seq/matrix"].endswith(" · ctrl+t lab") and lines["attention/summary"].endswith(" · enter open")
    keymap("[keys\n")
    lines = {line.split()[0]: line for line in list_text().splitlines() if line.startswith("    ")}
    assert "[a]act" in lines["gradients/bptt"] and lines["seq2seq/matrix"].endswith(" · t lab")
    assert "keymap.toml ignored" in capsys.readouterr().err


def test_list_and_version():
    r = run("--list")
    assert r.returncode == 0 and "recurrence/track" in r.stdout and "w_h" in r.stdout
    # a parameter's letter key beside its name: positions' `pe` is toggled by e (p is the previous topic)
    positions = next(line for line in r.stdout.splitlines() if "attention/positions" in line)
    from rnntui.figures.attention import PositionsState

    assert PositionsState.param("pe").key == "e" and positions.endswith("[e]pe (PE added) [m]mask d (d_model)")
    # and what the screen calls a parameter where --set's name differs: bptt's scale is "input std" on screen
    # (the list and the screen read as two parameters, a student's trial); either is taken by --set
    bptt = next(line for line in r.stdout.splitlines() if "gradients/bptt" in line)
    assert bptt.endswith("seed scale (input std)") and "std" in run("shot", "gradients/bptt", "--set", "input_std=0.5",
                                                                      "-o", "-").stdout
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("rnntui ")


@pytest.mark.parametrize("args,flag", [
    (["export", ""], "OUTDIR"),
    (["export", "out", "--deck", ""], "--deck"),
    (["present", ""], "DECK"),
    (["shot", "recurrence", "-o", ""], "-o"),
    (["train", "seq2seq", "--eval", ""], "--eval"),
    (["train", "seq2seq", "--out", ""], "--out"),
    (["train", "seq2seq", "--out", " "], "--out"),
])
def test_an_empty_path_is_a_bad_value(args, flag, tmp_path):
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-500:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and lines[0].endswith("an empty path")  # (-o takes no folder: not "name a file or folder")
    assert list(tmp_path.iterdir()) == []  # nothing exported, nothing trained


def test_a_reader_that_stops_early_ends_a_command_quietly_as_sigpipe_does():
    """`rnntui train seq2seq … | head -1` said "rnntui: Broken pipe" (English under --lang zh) and exit 2 after
    it had saved (a code review): the reader left, so nothing is said, and the status is SIGPIPE's, 128 + 13."""
    read, write = os.pipe()
    os.close(read)  # (every write fails: EPIPE)
    try:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
        r = subprocess.run([sys.executable, "-m", "rnntui", "shot", "recurrence/track", "-o", "-"], stdout=write,
                           stderr=subprocess.PIPE, text=True, timeout=120, env=env)
    finally:
        os.close(write)
    assert (r.returncode, r.stderr) == (141, "")


def test_a_current_folder_removed_is_said(tmp_path):
    """A shell in a folder removed since said only "rnntui: no such file or folder", naming none (a code
    review): the line says the current folder is gone, and what to do."""
    gone = tmp_path / "gone"
    gone.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    r = subprocess.run(["bash", "-c", f'cd "{gone}" && rmdir "{gone}" && "{sys.executable}" -m rnntui shot recurrence '
                        "-o a.svg"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        "rnntui: the current folder is gone (removed after the shell entered it): cd to one that is"]


def test_a_path_starting_with_a_tilde_is_in_the_home_folder(tmp_path, capsys, monkeypatch):
    """"~/my slides" (quoted, as a name with a space is) made a folder named ~ in the current one, and the
    line said it wrote "to ~/my slides" (a code review): a leading ~ is the home folder, as a shell's."""
    home, here = tmp_path / "home", tmp_path / "here"
    home.mkdir(), here.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(here)
    assert main(["export", "~/my slides", "recurrence/tanh", "--format", "txt"]) == 0
    assert f"index.md to {home / 'my slides'} in" in capsys.readouterr().err
    assert (home / "my slides" / "index.md").exists() and list(here.iterdir()) == []
    assert main(["shot", "recurrence/tanh", "--output=~/t.txt"]) == 0 and (home / "t.txt").exists()


def test_a_system_error_reads_in_chinese_with_a_full_width_colon(tmp_path, capsys, monkeypatch):
    """`train seq2seq --eval nonexist.npz --lang zh` said "没有这个文件或文件夹: nonexist.npz" and a folder
    "Is a directory: /tmp" (a review)."""
    monkeypatch.chdir(tmp_path)
    try:
        assert main(["train", "seq2seq", "--eval", "nonexist.npz", "--lang", "zh"]) == 2
        assert capsys.readouterr().err.strip() == "rnntui: 没有这个文件或文件夹：nonexist.npz"
        assert main(["train", "seq2seq", "--eval", str(tmp_path), "--lang", "zh"]) == 2
        assert capsys.readouterr().err.strip() == f"rnntui: 这是文件夹：{tmp_path}"
    finally:
        from rnntui.i18n import set_language

        set_language("en")


def test_an_output_that_cannot_take_the_text_is_one_line_not_a_traceback(monkeypatch, capsys):
    """`PYTHONIOENCODING=ascii rnntui --list` ended in UnicodeEncodeError, `rnntui --list >&-` in
    AttributeError (a trial): one line each, and status 2."""
    import io
    import sys

    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    assert main(["--list"]) == 2
    assert capsys.readouterr().err == "rnntui: the output takes ascii only; set PYTHONIOENCODING=utf-8\n"
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["shot", "recurrence/track", "-o", "-"]) == 2
    assert capsys.readouterr().err == "rnntui: Bad file descriptor: standard output\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["shot", "--help"], ["train", "--help"]])
def test_help_that_cannot_be_written_says_so(args):
    """`rnntui --help >/dev/full` said nothing and exited 0 (argparse drops the write's error; an audit): the
    one line --list gives there, and status 2."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "rnntui", *args], stdout=full, stderr=subprocess.PIPE, text=True)
    assert (r.returncode, r.stderr) == (2, "rnntui: no space left on the device\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("stderr", ["/dev/full", "closed"])
def test_an_error_that_cannot_be_said_still_exits_2(stderr, tmp_path):
    """With stderr full, a bad topic and a shot (its "wrote" line) ended 1, from a second failure in the
    handler; with it closed, print's file=None put the error line into stdout's text (a CLI audit)."""
    shot = ["shot", "recurrence/track", "-o", str(tmp_path / "x.txt")]
    for args in (["nosuch"], ["shot", "nosuch", "-o", "-"], shot):
        words = " ".join(map(shlex.quote, [sys.executable, "-m", "rnntui", *args]))
        r = subprocess.run(["bash", "-c", words + (" 2>/dev/full" if stderr == "/dev/full" else " 2>&-")],
                           capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
        assert (r.returncode, r.stdout) == (2, ""), args
    assert (tmp_path / "x.txt").read_text().count("Token track") == 1  # (written; only the line is lost)


def test_a_bad_step_names_the_axis_it_sets(capsys):
    """`lstm/params --step 3` said "expected a whole number from 64 to 4096" without saying --step is d
    there (a trial)."""
    assert main(["shot", "lstm/params", "--step", "3", "-o", "-"]) == 2
    assert capsys.readouterr().err == "rnntui: --step 3 sets d: expected a whole number from 64 to 4096\n"


def test_a_theme_is_taken_in_any_case(tmp_path):
    """`--theme DARK` was refused while `--lang EN` and `W_H=1` were taken (a trial)."""
    from rnntui.cli import theme_name

    assert theme_name(" DARK ") == "dark" and theme_name("Nord") == "nord"
    out = tmp_path / "t.json"
    assert main(["shot", "recurrence/track", "--theme", "Light", "-o", str(out)]) == 0


def test_an_address_is_taken_in_any_case(tmp_path, monkeypatch):
    """`Attention/QKV` said "unknown topic 'Attention'" while --set keys took any case (a trial)."""
    import rnntui.cli as cli

    for address in ("attention/qkv", "Attention/QKV"):
        assert main(["shot", address, "-o", str(tmp_path / f"{address[0]}.txt")]) == 0
    assert (tmp_path / "A.txt").read_text() == (tmp_path / "a.txt").read_text()
    opened = []
    monkeypatch.setattr(cli, "require_terminal", lambda *args: None)
    monkeypatch.setattr(cli, "run_tui", lambda app: opened.append(app.start[:2]) or 0)
    monkeypatch.setattr(cli.gc, "freeze", lambda: None)  # (the app's start freezes what it imported)
    assert main(["SERVING/KVCache"]) == 0 and main(["Lstm"]) == 0
    assert opened == [("serving", "kvcache"), ("lstm", None)]


def test_a_shot_over_a_file_says_it_replaced_it(tmp_path, capsys):
    """`-o existing.png` replaced the file and said only "wrote existing.png" (a trial)."""
    out = tmp_path / "x.txt"
    for said in ("", " (replaced the file that was there)"):
        assert main(["shot", "recurrence/track", "-o", str(out)]) == 0
        assert capsys.readouterr().err == f"wrote {out}{said}\n"


@pytest.mark.parametrize("command", [[], ["shot"], ["export"], ["present"], ["serve"], ["train", "seq2seq"],
                                     ["train", "memory"]])
def test_chinese_help_fits_the_terminals_width(command, capsys, monkeypatch):
    """argparse counts a Chinese character one column: its Chinese help ran to ~140 cells in an 80-column
    terminal, which broke the lines anywhere (a lecturer's trial)."""
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main([*command, "--help", "--lang", "zh"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"用法：rnntui {' '.join(command)}".rstrip())  # ("用法：ui export": argparse cut 7)
    assert any(cell_len(line) != len(line) for line in lines)  # (Chinese in it)
    assert max(cell_len(line) for line in lines) <= 80, max(lines, key=cell_len)
    usage = lines[:next(k for k, line in enumerate(lines) if not line.strip())]
    under = cell_len(f"用法：rnntui {' '.join(command)} ".replace("  ", " "))  # (under the program's name)
    assert all(len(line) - len(line.lstrip()) == under for line in usage[1:]), usage
    headings = [line for line in lines if line in ("位置参数:", "选项:", "位置参数：", "选项：")]
    assert "选项：" in headings and all(line.endswith("：") for line in headings), headings


def test_present_start_opens_that_frame_up_to_the_last(monkeypatch):
    """`present lecture --start N` opens frame N (frames counted from 1, as its help says), the last frame
    included; one past the last is refused."""
    from types import SimpleNamespace

    import rnntui.cli as cli
    import rnntui.present
    from rnntui.deck import load

    opened = []
    monkeypatch.setattr(cli, "require_terminal", lambda *a: None)
    monkeypatch.setattr(cli, "run_tui", lambda app: 0)
    monkeypatch.setattr(rnntui.present, "PresentApp", lambda deck, theme, start: opened.append(
        (start, deck.frames[start])) or SimpleNamespace(resume_line=lambda deck: "", is_web=False))
    frames = load("lecture").frames
    for n in (1, 3, len(frames)):
        assert main(["present", "lecture", "--start", str(n)]) == 0 and opened[-1] == (n - 1, frames[n - 1])
    assert main(["present", "lecture", "--start", str(len(frames) + 1)]) == 2


def test_size_scale_and_port_take_their_documented_bounds(monkeypatch):
    """--size from 40x12 to 500x200 and --scale from 0.25 to 8 (as their errors say), --port up to 65535:
    the bounds themselves are taken, one step past them refused."""
    import rnntui.cli as cli
    from rnntui import serve
    from rnntui.state import BadValue

    assert cli.parse_size("40x12") == (40, 12) and cli.parse_size("500x200") == (500, 200)
    for bad in ("39x12", "40x11", "501x200", "500x201", "100x3²"):  # (² is a digit int() refuses: a traceback)
        with pytest.raises(BadValue, match="from 40x12 to 500x200"):
            cli.parse_size(bad)
    assert cli.parse_scale("8") == 8.0 and cli.parse_scale("0.25") == 0.25
    with pytest.raises(BadValue, match="from 0.25 to 8"):
        cli.parse_scale("8.5")
    ports = []
    monkeypatch.setattr(serve, "check_installed", lambda: None)
    monkeypatch.setattr(serve, "serve", lambda args, host, port, *rest: ports.append(port))
    assert main(["serve", "--port", "65535"]) == 0 and main(["serve", "--port", "1"]) == 0 and ports == [65535, 1]
    assert main(["serve", "--port", "65536"]) == 2


@pytest.mark.parametrize("signum", [None, 1, 15])
def test_a_stop_by_a_signal_exits_128_plus_its_number(monkeypatch, signum):
    """Stopped by SIGTERM the app exits 143, by SIGHUP 129, by ctrl+c 130 (128 + the signal's number), as a
    shell script or a service manager reads it."""
    import signal

    import rnntui.cli as cli

    stop = KeyboardInterrupt()
    if signum is not None:
        stop.signum = signum

    def stopped(args):
        raise stop

    monkeypatch.setattr(cli, "open_app", stopped)
    assert main(["recurrence"]) == 128 + (signum or signal.SIGINT)


@pytest.mark.parametrize("signum", [1, 15])
def test_sigterm_or_sighup_stops_shot_and_train_as_ctrl_c_does(tmp_path, monkeypatch, capsys, signum):
    """SIGTERM and SIGHUP killed `shot` and `train` outright: a temporary file left beside the target, a cached
    model left under its .previous name, and no word (a trial). They stop as ctrl+c does: the clean-up runs,
    one line says nothing was written, the status is 128 + the signal's number, and the handlers are put back."""
    import os
    import signal

    import rnntui.render as render

    def killed(*_args, **_kwargs):
        os.kill(os.getpid(), signum)
        raise AssertionError("the signal did not stop it")

    def killed_drawing(*_args, **_kwargs):  # (shot acts on it once its frame is drawn: raised in the headless
        os.kill(os.getpid(), signum)  # app's tasks it printed a traceback, a review)
        return "<svg/>"

    monkeypatch.setattr(render, "render", killed_drawing)
    out = tmp_path / "x.svg"
    assert main(["shot", "recurrence/track", "-o", str(out)]) == 128 + signum
    assert capsys.readouterr().err == f"rnntui: stopped: nothing written to {out}\n" and list(tmp_path.iterdir()) == []
    assert signal.getsignal(signum) == signal.SIG_DFL
    pytest.importorskip("torch")
    from rnntui.engine import lab_memory

    monkeypatch.setattr(lab_memory, "train", killed)
    out = tmp_path / "m.json"
    assert main(["train", "memory", "--cell", "rnn", "--T", "5", "--out", str(out)]) == 128 + signum
    assert capsys.readouterr().err.splitlines()[-1] == f"rnntui: cancelled: nothing saved to {out}"
    assert list(tmp_path.iterdir()) == [] and signal.getsignal(signum) == signal.SIG_DFL


def test_a_signal_ignored_stays_ignored(monkeypatch):
    """`nohup rnntui train …` (or export) was stopped by the hangup it was started to outlive: the handlers
    that turn SIGTERM and SIGHUP into a stop took over an ignored signal too (a review)."""
    import signal

    from rnntui.terminal import stop_between_frames, stopped_by_signals

    kept = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        for context in (stopped_by_signals, stop_between_frames):
            with context():
                assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
                assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, kept)


class _Tty(io.StringIO):
    def __init__(self, encoding="utf-8"):
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self):
        return self._encoding

    def isatty(self):
        return True


@pytest.mark.parametrize("columns", [80, 60, 40, 120])
def test_the_train_bar_keeps_to_one_terminal_line(monkeypatch, columns):
    """At 80 columns `train seq2seq`'s line was 83 cells: it wrapped, and each redraw added a line (a trial)."""
    from types import SimpleNamespace

    from rich.cells import cell_len

    from rnntui.train_cli import Bar

    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((columns, 24)))
    stream = _Tty()
    bar = Bar(2000, stream)
    for step in (10, 1000, 2000):
        bar(SimpleNamespace(step=step, exact=0.015 if step > 10 else None, loss=0.874, seconds=3.5 * step))
        bar.last = 0.0
    lines = [part.replace("\x1b[K", "") for part in stream.getvalue().split("\r")[1:]]
    assert len(lines) == 3 and all(cell_len(line) < columns for line in lines), lines
    assert all("2000  loss 0.874" in line for line in lines) or columns < 60
    assert "validation exact" in lines[-1] or columns < 80
    if columns >= 80:
        assert lines[-1].startswith("[") and "█" in lines[-1]  # the bar, shorter where it must be


def test_the_train_bar_fits_its_own_terminal_when_stdout_is_a_file(monkeypatch):
    """`train memory > log` in 60 columns: the width was stdout's (a file: 80, shutil's fallback), and every
    redraw of the bar on stderr wrapped (a review)."""
    from types import SimpleNamespace

    from rich.cells import cell_len

    from rnntui.train_cli import Bar

    class Err(_Tty):
        def fileno(self):
            return 2

    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((80, 24)))
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=1: os.terminal_size((60 if fd == 2 else 80, 24)))
    stream = Err()
    Bar(6000, stream)(SimpleNamespace(step=3000, exact=0.5, loss=0.1, seconds=100.0))
    line = stream.getvalue().split("\r")[-1].replace("\x1b[K", "")
    assert cell_len(line) < 60 and "3000/6000" in line and not line.startswith(" "), line


def test_the_train_bar_draws_in_ascii_where_the_stream_cannot_write_blocks(monkeypatch):
    from types import SimpleNamespace

    from rnntui.train_cli import Bar

    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((200, 24)))
    stream = _Tty("latin-1")
    Bar(100, stream)(SimpleNamespace(step=50, exact=0.5, loss=0.1, seconds=1.0))
    text = stream.getvalue()
    assert "[############------------]" in text and "\\u2588" not in text


@pytest.mark.parametrize("lab, error", [("memory", "ImportError"), ("seq2seq", "ImportError"),
                                        ("memory", "RuntimeError")])
def test_a_torch_that_does_not_load_is_one_line_not_a_traceback(tmp_path, lab, error):
    """A torch whose library is missing ended `rnntui train` in a traceback (a student's trial); one that
    raised RuntimeError still did (a review)."""
    fake = tmp_path / "site" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(f'raise {error}("libtorch_cpu.so: cannot open shared object file")\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(fake.parent), os.environ.get("PYTHONPATH")])),
               XDG_CACHE_HOME=str(tmp_path / "cache"), RNNTUI_LANG="en")
    out = tmp_path / ("f.json" if lab == "memory" else "f.npz")
    done = subprocess.run([sys.executable, "-m", "rnntui", "train", lab, "--steps", "10", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"rnntui: torch does not load ({error}: libtorch_cpu.so: cannot open shared object file); reinstall it: "
        "pip install --force-reinstall torch"]
    assert not out.exists()


def test_an_empty_no_color_leaves_the_colours_on(monkeypatch, capsys):
    """no-color.org: NO_COLOR set but empty is not set. Textual greyed the app for `export NO_COLOR=` (a
    lecturer's trial); a value, any value, still turns colour off."""
    from rnntui.app import RnnApp

    monkeypatch.setenv("NO_COLOR", "")
    assert main(["--list"]) == 0
    assert not RnnApp().no_color
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["--list"]) == 0
    assert RnnApp().no_color


def test_the_train_bar_says_when_an_evaluation_scored_part_of_the_set(monkeypatch):
    """Early evaluations score 200 of the 1000 validation sequences (a screen): "validation exact 59.5%" read
    as the 1000's, beside the app's 59.9% for the same run (a student's trial)."""
    from types import SimpleNamespace

    from rnntui.train_cli import Bar

    stream = io.StringIO()  # (not a terminal: a line per evaluation)
    bar = Bar(2000, stream, whole=1000)
    bar(SimpleNamespace(step=250, exact=0.595, loss=0.5, seconds=10.0, scored=200))
    bar(SimpleNamespace(step=300, exact=0.779, loss=0.4, seconds=12.0, scored=1000))
    first, second = stream.getvalue().splitlines()
    assert "validation exact  59.5% (on 200 of 1000)" in first and "of 1000" not in second and "77.9%" in second


@pytest.mark.parametrize("cell, steps, reached, said", [("lstm-bf1", 500, 500, True), ("lstm-bf2", 6000, 500, False),
                                                        ("lstm-bf2", 500, 300, True), ("lstm-bf2", 1000, 700, True),
                                                        ("lstm-bf2", 300, 300, False),  # (--steps 300 ended it)
                                                        ("rnn", 200, 200, False), ("lstm-bf1", 6000, None, False)])
def test_a_memory_run_that_ends_at_its_first_100_says_why(cell, steps, reached, said):
    """`train memory --cell lstm-bf1` counted to 500/6000, then ended, unsaid why (a newcomer's trial): the
    forget-bias cells stop at their first check at 100%, one every 500 steps (the source: "第 500 步的第一次评估时
    就达到 100%")."""
    from types import SimpleNamespace

    from rnntui.train_cli import run_said

    run = SimpleNamespace(cell=cell, T=20, steps=steps, reached_100_at=reached, final_acc=1.0, seconds=3.0)
    line = run_said(run)
    assert ("(it stops at its first check at 100%, one every 500 steps, as the source's code does)" in line) == said
    assert f"after {steps} steps" in line
    # below 100% at its end: --steps ended it, not a check (a review)
    assert "it stops at" not in run_said(SimpleNamespace(**{**vars(run), "final_acc": 0.98}))


def test_every_shipped_run_that_stopped_early_says_so():
    """Of the shipped grid's forget-bias runs, those that ended before their cell's most steps said why in one
    case of seven (a review: only where 100% came on a check's own step)."""
    from rnntui.engine import memory as mem
    from rnntui.train_cli import run_said

    early = [run for run in mem.shipped().runs if run.cell in mem.STOP_EVERY and run.steps < mem.STEPS[run.cell]]
    assert len(early) >= 5
    for run in mem.shipped().runs:
        assert ("it stops at its first check at 100%" in run_said(run)) == (run in early), run_said(run)


def test_the_train_bar_keeps_its_seconds_and_chinese_brackets(monkeypatch):
    """At 60 columns "(200 of 1000)" pushed the seconds off the line; in Chinese a space stood before its
    full-width bracket (a review)."""
    from types import SimpleNamespace

    from rich.cells import cell_len

    from rnntui.i18n import set_language
    from rnntui.train_cli import Bar

    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((60, 24)))
    stream = _Tty()
    Bar(400, stream, whole=1000)(SimpleNamespace(step=129, exact=0.0, loss=1.302, seconds=12.5, scored=200))
    line = stream.getvalue().split("\r")[-1].replace("\x1b[K", "")
    assert cell_len(line) < 60 and line.endswith("12.5s"), line
    set_language("zh")
    try:
        stream = io.StringIO()
        Bar(400, stream, whole=1000)(SimpleNamespace(step=129, exact=0.0, loss=1.302, seconds=12.5, scored=200))
        assert "0.0%（1000 条中的 200 条）" in stream.getvalue()
    finally:
        set_language("en")
