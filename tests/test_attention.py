"""T5 `attention` (issues 12 and 19): the figures' readings against closed forms and the issues'
pinned numbers, the matrix widget, the command line, a snapshot and the summary's links."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from rich.cells import cell_len

from rnntui import cli
from rnntui.app import RnnApp
from rnntui.figures.attention import (BlockState, HeadsState, MasksState, PositionsState, QkvState, ScalingState,
                                      SummaryState, A_STAGE)
from rnntui.render import render
from rnntui.topics import IDS, build_state, find, topic
from rnntui.widgets.matrix import MatrixSpec, index_labels, matrices_text, matrix_lines, matrix_text, natural_width

import one_app

E2 = math.exp(2)
E22 = math.exp(2 * math.sqrt(2))
SCREEN = topic("attention")


def fig(figure_id):
    return SCREEN.figure_by_id(figure_id)


def txt(state, figure_id, size=(80, 24)):
    return one_app.txt(SCREEN, fig(figure_id), state, size)


# -- qkv -------------------------------------------------------------------------------------------
def test_registered_between_seq2seq_and_parallel():
    assert IDS.index("attention") == IDS.index("seq2seq") + 1 == IDS.index("parallel") - 1
    assert [f.id for f in SCREEN.FIGURES] == ["qkv", "scaling", "masks", "heads", "positions", "block", "summary"]


@pytest.mark.parametrize("size,gloss", [((44, 25), None), ((80, 24), "“that cat suddenly starts to run”"),
                                        ((100, 30), "那只 that  猫 cat  突然 suddenly  开始 starts  跑 run")])
def test_qkv_glosses_the_sentence_in_english_where_the_stage_bar_has_room(size, gloss):
    """An English reader could not follow 那只 猫 突然 开始 跑 (left after a trial): the stage bar ends
    with the sentence word by word, or as one phrase, or, with no room, not at all (never wrapped)."""
    lines = txt(QkvState(), "qkv", size).splitlines()
    bar = next(line for line in lines if "▸X◂ → Q K V" in line)
    assert (gloss in bar) if gloss else "that" not in bar and "“" not in "".join(lines)
    assert bar.count("that") <= 1 and not any(line.strip("│ ").startswith(("“", "那只 that")) for line in lines)


def test_qkv_has_no_english_gloss_in_chinese():
    from rnntui.i18n import set_language
    from rnntui.render import render

    set_language("zh")
    try:
        text = render(SCREEN, fig("qkv"), QkvState(), "txt", (120, 40))
    finally:
        set_language("en")
    bar = next(line for line in text.splitlines() if "▸X◂" in line)
    assert "that" not in bar and "“" not in bar


def test_toy_causal_pinned_cells():
    A = np.array(QkvState().readings().weights)
    assert A[4, 1] == pytest.approx(E2 / (E2 + 4)) and A[4, 1] == pytest.approx(0.6488, abs=5e-5)  # A[跑,猫]
    assert A[1, 0] == pytest.approx(E2 / (E2 + 1)) and A[1, 0] == pytest.approx(0.8808, abs=5e-5)  # A[猫,那只]
    assert A[2, :3] == pytest.approx([1 / 3] * 3) and (A[2, 3:] == 0).all()  # A[突然, 0..2]
    assert QkvState().readings().pinned["A[跑,猫]"] == A[4, 1]


def test_toy_full_pinned_cells():
    A = np.array(QkvState(mask="full").readings().weights)
    want = E2 / (3 + 2 * E2)
    assert A[2, 3] == pytest.approx(want) and A[2, 4] == pytest.approx(want)
    assert want == pytest.approx(0.4156, abs=5e-5)


def test_pinned_line_reads_the_cell_it_names():
    """The pinned line's A[突然,开始] is query 突然 (row 2) reading key 开始 (column 3): e²/(3+2e²) under
    the full mask, 0 under the causal one (开始 comes after 突然)."""
    assert QkvState(mask="full").readings().pinned["A[突然,开始]"] == pytest.approx(E2 / (3 + 2 * E2))
    assert QkvState(mask="causal").readings().pinned["A[突然,开始]"] == 0


def test_the_redrawn_tokens_are_the_ones_marked():
    """`x` redraws x₃ x₄: the tokens drawn with a prime are exactly the rows of X that changed."""
    kept, redrawn = QkvState(weights="random").readings(), QkvState(weights="random", later="redrawn").readings()
    changed = [i for i, (a, b) in enumerate(zip(kept.X, redrawn.X)) if a != b]
    assert changed == [3, 4]
    assert [i for i, t in enumerate(redrawn.tokens) if t.endswith("′")] == changed
    assert not any(t.endswith("′") for t in kept.tokens)


def test_pipeline_is_the_formula():
    """Q = XW (toy W's by hand), S = QKᵀ/2, masked S has −∞ above the diagonal, out = A·V."""
    r = QkvState().readings()
    X, Q, K, V = (np.array(m) for m in (r.X, r.Q, r.K, r.V))
    assert np.allclose(Q[:, :3], 2 * X[:, [0, 1, 3]]) and np.allclose(V, X)
    assert np.allclose(np.array(r.scores), Q @ K.T / 2)
    S = np.array(r.masked_scores)
    assert np.isneginf(S[np.triu_indices(5, 1)]).all() and np.isfinite(S[np.tril_indices(5)]).all()
    assert np.allclose(np.array(r.output), np.array(r.weights) @ V)


@pytest.mark.parametrize("mask", ["causal", "full"])
@pytest.mark.parametrize("weights", ["toy", "random"])
def test_rows_sum_to_one(mask, weights):
    r = QkvState(mask=mask, weights=weights).readings()
    assert np.array(r.weights).sum(axis=1) == pytest.approx(np.ones(5), abs=1e-12)
    assert r.row_sums == pytest.approx((1.0,) * 5)


@pytest.mark.parametrize("query", range(5))
def test_query_line_spells_out_the_row(query):
    r = QkvState(query=query).readings()
    A, V = np.array(r.weights), np.array(r.V)
    assert r.query_keys == tuple(range(query + 1))  # causal: keys 0..t
    assert r.query_weights == pytest.approx(tuple(A[query, :query + 1]))
    assert np.allclose(np.array(r.query_scores), np.array(r.query_dots) / 2)
    assert r.query_output == pytest.approx(tuple(A[query] @ V))


def test_causal_outputs_ignore_later_tokens_exactly():
    kept = QkvState(weights="random").readings()
    edited = QkvState(weights="random", later="redrawn").readings()
    assert kept.X[:3] == edited.X[:3] and kept.X[3:] != edited.X[3:]
    assert kept.output[:3] == edited.output[:3]  # exactly, not approximately
    assert np.abs(np.array(kept.output[3:]) - np.array(edited.output[3:])).max() > 1e-3
    assert kept.edit_early == 0.0 and kept.edit_late > 1e-3
    full, full_edited = QkvState(weights="random", mask="full").readings(), \
        QkvState(weights="random", mask="full", later="redrawn").readings()
    assert full.output[:3] != full_edited.output[:3] and full.edit_early > 0


def test_strict_mask_row_zero_is_nan_and_is_drawn():
    s = QkvState(mask="strict", stage=A_STAGE, query=0)
    r = s.readings()
    assert all(math.isnan(v) for v in r.weights[0]) and r.nan_rows == (0,)
    assert np.array(r.weights)[1:].sum(axis=1) == pytest.approx(np.ones(4))
    shown = txt(s, "qkv")
    assert "NaN" in shown and "Traceback" not in shown
    data = json.loads(render(SCREEN, fig("qkv"), s, "json"))
    assert data["weights"][0] == ["nan"] * 5 and data["masked_scores"][0][0] == "-inf"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("later,stage", [("kept", 0), ("redrawn", A_STAGE)])
def test_strict_masks_nan_row_is_explained_and_x_says_what_it_shows(lang, size, later, stage):
    """Under the strict mask with x, stage A showed a row "那只 NaN NaN NaN NaN NaN" and no word of why (at
    80x24 the line saying it was pushed off by the query line's second row); the footer had m and w but not
    x; "x redraws 开始 跑: out rows 0–2 move by 0 (exactly)" was cryptic (a trial). The NaN row is said with
    its reason, x is in the footer, and the x line says what the numbers show: the earlier rows' outputs do
    not move when later tokens change, as no row sees a later token. The changes are recomputed here from
    the two states' outputs, kept and redrawn."""
    from rnntui.i18n import set_language

    state = QkvState(mask="strict", later=later, stage=stage)
    kept, redrawn = (QkvState(mask="strict", later=w).readings() for w in ("kept", "redrawn"))
    early = np.nanmax(np.abs(np.subtract(kept.output[:3], redrawn.output[:3])))
    late = np.nanmax(np.abs(np.subtract(kept.output[3:], redrawn.output[3:])))
    assert early == 0.0 and late > 0.1 and all(math.isnan(v) for v in kept.output[0])
    set_language(lang)
    try:
        text = render(SCREEN, fig("qkv"), state, "txt", size)
    finally:
        set_language("en")
    lines = text.splitlines()
    assert len(lines) == size[1] and lines[-2].startswith("╰") and all(cell_len(line) <= size[0] for line in lines)
    said = " ".join(" ".join(line.strip("│ ").split()) for line in lines)
    if lang == "en":
        assert "NaN row 那只: the strict mask leaves it no key; softmax over nothing = 0/0" in said
        # (row 0 is NaN: "rows 0–2 move by exactly 0" beside it read as wrong, a student's trial)
        assert (f"x redraws 开始 跑: out rows 1–2 move by exactly 0 as no row reads ahead; rows 3–4 by "
                f"{late:.4f}") in said
        assert re.search(r"m mask +w weights +x redraw", lines[-1]), lines[-1]
    else:
        joined = "".join(said.split())  # (Chinese wraps between any two characters)
        assert "NaN 行 那只：strict 掩码下它一个键也没有，对空集做 softmax = 0/0" in said
        assert "".join(f"输出第 1–2 行变化恰为 0，因为各行都看不到后面的 token；第 3–4 行变化 {late:.4f}".split()) in joined
        assert re.search(r"m 掩码 +w 权重 +x 重抽", lines[-1]), lines[-1]
    if later == "redrawn" and stage == A_STAGE:  # the stage shows the NaN row it explains
        assert re.search(r"那只( +NaN){5}", text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_random_weights_at_80x24_the_x_line_is_whole(lang):
    """With random weights the query line takes two rows at 80x24 and the x line's second half, the rows that
    move, fell off the panel (a review): there the line keeps the contrast whole, its why said in help."""
    from rnntui.i18n import set_language

    state = QkvState(weights="random")
    r = state.readings()
    set_language(lang)
    try:
        text = render(SCREEN, fig("qkv"), state, "txt", (80, 24))
    finally:
        set_language("en")
    assert r.edit_early == 0.0 and r.edit_late > 0
    assert f"{r.edit_late:.4f}" in text and ("rows 3–4 by" in text or "第 3–4 行变化" in text)


def test_x_under_the_full_mask_moves_the_earlier_rows_and_help_says_why():
    """Under the full mask every row reads the later tokens too: the earlier rows move, by what the two
    states' outputs differ by; help says what x shows and why the strict mask's row 0 is NaN."""
    from types import SimpleNamespace

    from rnntui.help import help_text

    kept, redrawn = (QkvState(mask="full", later=w).readings() for w in ("kept", "redrawn"))
    early = np.max(np.abs(np.subtract(kept.output[:3], redrawn.output[:3])))
    assert early > 0.1
    said = " ".join(" ".join(line.strip("│ ").split()) for line in txt(QkvState(mask="full"), "qkv").splitlines())
    assert f"x redraws 开始 跑: out rows 0–2 move by {early:.4f} as every row sees every token; rows 3–4 by" in said
    prose = help_text(SimpleNamespace(TOPIC_ID="attention", figure=fig("qkv"), state=QkvState()))[1]
    assert "row 0 has no key left: its softmax is over nothing (0/0)" in prose
    assert "no row reads a later token" in prose


def test_json_holds_the_matrices_under_plain_keys():
    data = json.loads(render(SCREEN, fig("qkv"), QkvState(), "json"))
    for key in ("tokens", "Q", "K", "V", "scores", "weights", "output"):
        assert key in data
    assert data["tokens"] == ["那只", "猫", "突然", "开始", "跑"]
    assert data["weights"][4][1] == pytest.approx(0.6488, abs=5e-5)


def test_every_figure_has_json():
    for f in SCREEN.FIGURES:
        data = json.loads(render(SCREEN, f, f.state_type(), "json"))
        assert data["figure"] == f.id and "state" in data


@pytest.mark.parametrize("argv", [
    ["shot", "attention/scaling", "--set", "d_k=3", "-o", "-"],
    ["shot", "attention/qkv", "--set", "mask=banana", "-o", "-"],
    ["shot", "attention/qkv", "--step", "6", "-o", "-"],
    ["shot", "attention/heads", "--set", "h=3", "-o", "-"],
    ["shot", "attention/block", "--set", "norm=middle", "-o", "-"],
])
def test_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err


def test_stage_is_marked_by_shape_not_colour():
    shown = txt(QkvState(stage=A_STAGE), "qkv")
    assert "▸A◂" in shown and "▸A = softmax" in shown  # the stage bar and the matrix title
    assert "▸跑" in shown  # the query row
    assert "−∞" in shown and "0.649" in shown


def test_matrices_use_the_room_at_200x60():
    big = txt(QkvState(stage=A_STAGE), "qkv", (200, 60))
    for title in ("X tokens", "S = QKᵀ/√d_k", "Ŝ = S masked", "out = A·V"):
        assert title in big
    small_ = txt(QkvState(stage=A_STAGE), "qkv")
    assert "X tokens" not in small_


def test_q_k_v_all_show_whole_at_80x24():
    """Stage 1 is about Q, K and V together. At 80×24 two decimals fit only two across, and V was cut
    below its title; at one decimal all three fit, every row of each (the query's too)."""
    s = QkvState(stage=1)
    lines = txt(s, "qkv").splitlines()
    assert sum(line.count("▸Q◂") + line.count("▸K◂") + line.count("▸V◂") for line in lines) == 3
    query = [line for line in lines if line.count("▸跑") == 3]  # the query's row in each matrix
    assert len(query) == 1
    v = s.readings().V[s.query]
    assert query[0].rstrip(" │").endswith(" ".join(f"{x:.1f}" for x in v))  # V's last: its row is there


QKV_TITLES = {"X tokens": "X", "Q": "Q", "K": "K", "V": "V", "S = QKᵀ/√d_k": "S", "Ŝ = S masked": "Ŝ",
              "A = softmax(Ŝ)": "A", "out = A·V": "out"}


def drawn_and_named(text: str) -> tuple[list[str], list[str]]:
    """The matrices qkv draws (by their titles, in order) and those the line under them names as left out."""
    drawn, named = [], []
    for line in text.splitlines():
        line = line.strip("│ ")
        if line.startswith("not shown at this size: "):
            named += line.removeprefix("not shown at this size: ").split()
            continue
        pieces = [piece.strip("▸◂") for piece in re.split(r"\s{2,}", line)
                  if not re.fullmatch(r"\d+ of \d+ columns", piece)]  # (a cut matrix's title says so)
        if pieces and all(piece in QKV_TITLES for piece in pieces):
            drawn += [QKV_TITLES[piece] for piece in pieces]
    return drawn, named


@pytest.mark.parametrize("size", [(80, 24), (90, 28), (100, 30), (160, 48)])
def test_qkv_draws_what_each_stage_is_computed_from_and_names_what_it_leaves_out(size):
    """At 80x24 stage X drew V beside X but not Q or K, and stage S drew K but not Q (a student's trial). Each
    stage draws its own matrices and, first, what its formula reads (Q K V ← X, S ← Q and K, Ŝ ← S, A ← Ŝ,
    out ← A and V); the others never alone where one of those is left out, Q K V whole or not at all; every
    matrix left out is named under them."""
    own = {0: {"X"}, 1: {"Q", "K", "V"}, 2: {"S"}, 3: {"Ŝ"}, 4: {"A"}, 5: {"out"}}
    reads = {0: set(), 1: {"X"}, 2: {"Q", "K"}, 3: {"S"}, 4: {"Ŝ"}, 5: {"A", "V"}}
    for stage in range(6):
        drawn, named = drawn_and_named(txt(QkvState(stage=stage), "qkv", size))
        assert own[stage] <= set(drawn) and sorted(drawn + named) == sorted(QKV_TITLES.values()), (stage, drawn, named)
        if not reads[stage] <= set(drawn):
            assert set(drawn) <= own[stage] | reads[stage], (stage, drawn)
        others = {"Q", "K", "V"} - own[stage] - reads[stage]
        assert not others & set(drawn) or others <= set(drawn), (stage, drawn)
    if size == (160, 48):
        assert drawn == list(QKV_TITLES.values()) and not named  # every matrix at every stage there
    want = {(80, 24): {0: ["X"], 2: ["K", "S"], 5: ["V", "out"]}, (90, 28): {2: ["Q", "K", "S"], 5: ["V", "A", "out"]}}
    for stage, matrices in want.get(size, {}).items():
        assert drawn_and_named(txt(QkvState(stage=stage), "qkv", size))[0] == matrices, stage


@pytest.mark.parametrize("size", [(44, 25), (50, 24), (60, 20), (70, 24)])
def test_qkv_below_80_columns_names_every_matrix_it_does_not_draw(size):
    """Under 80 columns stage Q K V drew Q alone, or Q and K, and said nothing of the rest (a review):
    whatever is drawn, every matrix is drawn or named."""
    for stage in range(6):
        drawn, named = drawn_and_named(txt(QkvState(stage=stage), "qkv", size))
        assert drawn and sorted(drawn + named) == sorted(QKV_TITLES.values()), (stage, drawn, named)


def test_heads_names_its_h_table_where_the_size_leaves_it_out():
    """At 80x24 the h = 1…64 table (the bill that does not change) went without a word (a student's trial)."""
    small, large = txt(HeadsState(), "heads", (80, 24)), txt(HeadsState(), "heads", (120, 40))
    assert "not shown at this size: h=1…64 table" in small and "h=64" not in small
    assert "h=64" in large and "not shown" not in large
    # d, in the table's corner, is said in the line that divides it (d = 512 went unsaid at 80x24, a student's trial)
    assert f"h = 8: d_k = d/h = 512/8 = {512 // 8}" in small and "d_k = d/h = 512/8 = 64" in large


def test_heads_draws_its_h_table_at_100x30_where_h_steps():
    """At 100x30, the lecture's size, the h = 1…64 table (what ←→ steps) was left out while the toy heads
    were double spaced over 4 blank rows (a lecturer's trial): one readout changed as h stepped. The
    table is drawn, d in its corner, the toy heads single spaced under it, and the ▸ row moves with h."""
    for h in (1, 8, 64):
        lines = txt(HeadsState(h=h), "heads", (100, 30)).splitlines()
        table = [line.strip("│ ") for line in lines if re.search(r"h=\d+ ", line)]
        assert [row.lstrip("▸").split()[0] for row in table] == [f"h={k}" for k in (1, 2, 4, 8, 16, 32, 64)]
        assert [row for row in table if row.startswith("▸")] == [next(r for r in table if f"h={h} " in r)]
        assert any(line.strip("│ ").startswith("d=512") for line in lines) and "not shown" not in "".join(lines)
        heads = [i for i, line in enumerate(lines) if re.match(r"│ +(那只|猫|突然|开始|跑) +\d\.\d{3}", line)]
        assert heads == list(range(heads[0], heads[0] + 5))  # no blank row between a head's rows


@pytest.mark.parametrize("stage", [0, 5])
def test_qkv_with_random_weights_draws_the_small_matrices_beside_a_cut_one(stage):
    """With random weights X and out are 64 columns wide and cut; S, Ŝ and A (5×5) were left out too,
    over 13 blank rows at 120x40 (a student's trial). They are drawn where they fit, and named where not."""
    text = txt(QkvState(weights="random", stage=stage), "qkv", (120, 40))
    assert all(title in text for title in ("S = QKᵀ/√d_k", "Ŝ = S masked", "A = softmax(Ŝ)")) and "of 64 columns" in text
    note = next(line for line in text.splitlines() if "not shown at this size" in line)
    assert not {"S", "Ŝ", "A"} & set(note.strip("│ ").removeprefix("not shown at this size: ").split())


READS = {0: set(), 1: {"X"}, 2: {"Q", "K"}, 3: {"S"}, 4: {"Ŝ"}, 5: {"A", "V"}}  # what each stage's formula reads


@pytest.mark.parametrize("size", [(100, 30), (120, 40)])
def test_qkv_with_random_weights_draws_what_each_stage_reads_beside_it(size):
    """With random weights X, Q, K, V and out are 64 columns wide. At 100x30 stage Q K V drew no X, stage S
    drew S alone (double spaced, 7 blank rows) without Q and K, and stage out drew no V (the lecture's
    slide 25: "not shown at this size: X Q K V S", a lecturer's trial): too wide to draw whole, what a
    stage reads is drawn cut ("3 of 64 columns") beside it, and Q K V stay together."""
    for stage in range(6):
        text = txt(QkvState(weights="random", stage=stage), "qkv", size)
        drawn, named = drawn_and_named(text)  # (the rows they fill leave none for the note at stages Q K V, out)
        assert READS[stage] <= set(drawn) and (not named or sorted(drawn + named) == sorted(QKV_TITLES.values()))
        assert not {"Q", "K", "V"} & set(drawn) or stage in (2, 5) or {"Q", "K", "V"} <= set(drawn), (stage, drawn)
    rows = [line for line in txt(QkvState(weights="random", stage=2), "qkv", size).splitlines() if "▸跑" in line]
    assert rows and rows[0].count("▸跑") == 3  # Q, K and S side by side, one query row each


def test_the_lectures_qkv_slides_draw_what_each_stage_reads_at_100x30():
    """`rnntui present lecture` at 100x30, the lecture's size: slide 25 (random weights, stage out) drew
    out without V (a lecturer's trial). Every qkv slide draws its stage's matrices and what they read; the
    context it leaves out goes unnamed on a slide ("not shown at this size: X Q K V out", a lecturer's trial)."""
    own = {"▸Q K V◂": 1, "▸Ŝ◂": 3, "▸A◂": 4, "▸out◂": 5}
    for text in one_app.slides("attention/qkv"):
        stage = next(k for mark, k in own.items() if mark in text)
        drawn, named = drawn_and_named(text)
        assert READS[stage] <= set(drawn) <= set(QKV_TITLES.values()) and not named, (stage, drawn, named)


def test_qkv_keeps_two_decimals_where_they_are_no_wider():
    """At 90x28 stage out draws V at one decimal beside A and out; A's columns are as wide as their token
    labels, so it keeps two: its query row reads 0.65 (e²/(e²+4)), not 0.6."""
    lines = txt(QkvState(stage=5), "qkv", (90, 28)).splitlines()
    row = next(line for line in lines if line.count("▸跑") == 3)  # the query's row in V, A and out
    big, rest = E2 / (E2 + 4), 1 / (E2 + 4)
    assert f"▸跑   {rest:.2f} {big:.2f} {rest:.2f} {rest:.2f} {rest:.2f}" in row and "▸跑   0.0 1.0 0.0 0.0" in row


def test_the_parameter_bar_breaks_between_its_pieces_at_80x24():
    """qkv's bar is wider than 80 columns. It broke inside the last toggle (`[x] x₃` / `x₄ kept`), read
    as two things; now that toggle moves to the next line whole. At 120 columns it is one line."""
    lines = [line.strip(" │") for line in txt(QkvState(), "qkv").splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("←→ stage"))
    assert lines[at].endswith("[w] weights toy") and lines[at + 1] == "[x] x₃ x₄ kept"
    wide = [line for line in txt(QkvState(), "qkv", (120, 30)).splitlines() if "←→ stage" in line]
    assert wide[0].strip(" │").endswith("[w] weights toy   [x] x₃ x₄ kept")
    # a piece's padding may overhang: the bar, 83 cells but for its last space, is one line in 83
    exact = txt(QkvState(), "qkv", (87, 30)).splitlines()  # 87 columns: 83 inside the panel
    at = next(i for i, line in enumerate(exact) if "←→ stage" in line)
    assert exact[at].rstrip(" │").endswith("[x] x₃ x₄ kept") and "kept" not in exact[at + 1]


def test_snapshot_qkv_softmax_stage(snap_compare):
    state = build_state(fig("qkv"), [], A_STAGE)
    assert state.readings().weights[4][1] == pytest.approx(0.6488, abs=5e-5)  # A[跑,猫], the state drawn
    # closed form: query 跑 scores (0, 2, 0, 0, 0) against the five keys, so A[跑,猫] = e²/(e² + 4)
    assert state.readings().query_scores == pytest.approx((0, 2, 0, 0, 0))
    assert state.readings().weights[4][1] == pytest.approx(math.exp(2) / (math.exp(2) + 4), abs=1e-12)
    assert "A[跑,猫] 0.6488" in txt(state, "qkv")

    async def steps(pilot):
        await pilot.press(*["right"] * A_STAGE)
        assert pilot.app.topic_screen().state == state
    assert snap_compare(RnnApp("attention", "qkv"), terminal_size=(80, 24), run_before=steps)


# -- the matrix widget -----------------------------------------------------------------------------
def test_matrix_widths_are_cells_and_marks():
    spec = MatrixSpec(((1.0, float("-inf")), (float("nan"), 0.25)), "S", ("那只", "猫"), ("那只", "x"),
                      row=1, cell=(0, 0), current=True)
    lines = matrix_lines(spec, digits=2)
    assert len({cell_len(l.plain.rstrip()) for l in lines[1:]}) == 1  # header and rows line up
    plain = matrix_text(spec).plain
    assert "−∞" in plain and "NaN" in plain and "-inf" not in plain and "▸S◂" in plain and "▸猫" in plain


def test_matrix_too_wide_cuts_columns():
    spec = MatrixSpec(tuple(tuple(float(j) for j in range(64)) for _ in range(3)), "X", ("a", "b", "c"))
    lines = matrices_text([spec], 40).plain.splitlines()
    assert max(cell_len(l) for l in lines) <= 40 and "…" in lines[1] and "of 64 columns" in lines[0]


def test_a_matrix_is_measured_as_wide_as_it_draws():
    """The layout measures matrices without drawing them (natural_width): the measure must be the drawn
    width, or a matrix that fits would be cut (or one too wide drawn past the edge)."""
    wide = tuple(tuple(0.01 * j - 0.3 for j in range(64)) for _ in range(5))
    specs = [MatrixSpec(((1.0, float("-inf")), (float("nan"), 0.25)), "S", ("那只", "猫"), ("那只", "x"), current=True),
             MatrixSpec(((1.0,),), "a title longer than the matrix", ("r",)),
             MatrixSpec(((1.0,),), "a current title longer than it", ("r",), current=True),
             MatrixSpec((("token", None, 2.5), ("猫", -1e-7, None)), "", (), ("词", "", "long label")),
             MatrixSpec(wide, "X tokens", tuple("abcde"), index_labels(64), row=2),
             MatrixSpec(wide, "X", tuple("abcde"), digits=1),
             MatrixSpec(((0.123,),), "abcdefghijkl\u200d", current=True)]  # a joiner: Rich measures the pair
    for spec in specs:
        for digits in (3, 2):
            drawn = max(line.cell_len for line in matrix_lines(spec, None, digits))
            assert natural_width(spec, digits) == drawn, (spec.title, digits)
    x = specs[4]
    three, two = natural_width(x, 3), natural_width(x, 2)
    assert "0.330" in matrices_text([x], three).plain  # just fits at 3 decimals: every column
    assert "0.330" not in matrices_text([x], three - 1).plain  # one cell less: 2 decimals
    assert "…" not in matrices_text([x], two).plain and "0.33" in matrices_text([x], two).plain
    assert "…" in matrices_text([x], two - 1).plain.splitlines()[1]  # one cell less again: columns cut


# -- scaling ---------------------------------------------------------------------------------------
def test_scaling_readouts():
    u = ScalingState(d_k=64).readings()
    assert u.score_var == pytest.approx(64, rel=0.05) and u.max_weight == pytest.approx(0.87, abs=0.01)
    s = ScalingState(d_k=64, scaling="scaled").readings()
    assert s.score_var == pytest.approx(1, rel=0.05) and s.max_weight == pytest.approx(0.36, abs=0.02)
    assert u.ln_keys == pytest.approx(math.log(8)) and u.entropy < s.entropy < math.log(8)
    assert u.jacobian_norm < s.jacobian_norm
    assert u.dks == (1, 4, 16, 64, 256, 512, 1024) and len(u.max_weight_unscaled) == 7
    assert ScalingState(d_k=64).nudged("d_k", 1).d_k == 256


def test_scaling_uniform_reference_is_one_over_the_keys():
    """The grey "uniform" line and row: a softmax spread evenly over the 8 keys gives each 1/8 = 0.125,
    with entropy ln 8."""
    r = ScalingState().readings()
    assert r.keys == 8 and r.uniform == pytest.approx(1 / 8) and r.ln_keys == pytest.approx(math.log(8))
    assert "0.125" in txt(ScalingState(), "scaling", (100, 30))


# -- masks -----------------------------------------------------------------------------------------
def test_family_counts():
    r = MasksState().readings()
    assert r.counts == ((25,), (5 * 6 // 2,), (4 * 5 // 2, 4 * 5))
    assert "BERT" in r.models[0] and "GPT" in r.models[1] and "T5" in r.models[2]
    shown = txt(MasksState(family=2), "masks")
    assert "cross" in shown and "seq2seq" in shown


# -- heads -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("h", [1, 2, 4, 8, 16, 32, 64])
def test_heads_bill(h):
    r = build_state(fig("heads"), [f"h={h}", "n=10"]).readings()
    assert r.d_k == 512 // h and r.params == 4 * 512 ** 2 == 1_048_576
    assert r.params_bias == 1_050_624 and r.score_entries == h * 100


@pytest.mark.parametrize("n", [1, 5, 10, 128])
def test_heads_table_counts_h_n_squared_score_entries_on_every_row(n):
    """The h table: each row's d_k is 512/h and its score entries h·n² (one n×n matrix per head), whichever
    h is chosen."""
    table = HeadsState(n=n, h=2).readings().table
    assert [row[0] for row in table] == [1, 2, 4, 8, 16, 32, 64]
    for h, d_k, params, entries in table:
        assert d_k == 512 // h and params == 4 * 512 ** 2 and entries == h * n * n


def test_toy_heads_pinned():
    causal, full = HeadsState(mask="causal").readings(), HeadsState(mask="full").readings()
    assert causal.weights[0][4][1] == pytest.approx(E22 / (E22 + 4)) == pytest.approx(0.8088, abs=5e-5)
    assert full.weights[1][2][3] == pytest.approx(E22 / (3 + 2 * E22)) == pytest.approx(0.4593, abs=5e-5)
    # shown as the toy's two cells, each in its own mask; not as the source's: no seed has them (a student
    # looked for them in the notes)
    text = " ".join(txt(HeadsState(), "heads", (120, 40)).replace("│", " ").split())
    assert "each in its own mask: head 1 causal A[跑,猫] 0.8088 head 2 full A[突然,开始] 0.4593" in text
    assert "source" not in text


# -- positions -------------------------------------------------------------------------------------
@pytest.mark.parametrize("d", [16, 64, 512])
def test_positions(d):
    r = PositionsState(d=d).readings()
    pe = np.array(r.pe)
    assert pe.shape == (16, d)
    assert pe[1, 0] == pytest.approx(math.sin(1)) and r.pinned["PE(1,0)"] == pytest.approx(0.841471, abs=5e-7)
    assert pe[1, 1] == pytest.approx(math.cos(1)) and r.pinned["PE(1,1)"] == pytest.approx(0.540302, abs=5e-7)
    assert r.pinned["PE(10,0)"] == pytest.approx(-0.544021, abs=5e-7)
    assert (pe ** 2).sum(axis=1) == pytest.approx(np.full(16, d / 2))
    dots = np.einsum("pd,pd->p", pe[:-1], pe[1:])
    assert np.ptp(dots) < 1e-9 and r.dots_k1 == pytest.approx(tuple(dots))


def test_permutation_three_numbers():
    r = PositionsState().readings()
    assert r.full_no_pe < 1e-12 < 0.05 < r.full_pe and r.causal_no_pe > 0.05
    assert PositionsState(pe="on").readings().gap == r.full_pe
    shown = txt(PositionsState(), "positions")
    assert "狗咬人" in shown and "0.841471" in shown


# -- block (issue 19) ------------------------------------------------------------------------------
@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("activation", ["relu", "gelu", "swiglu"])
def test_layer_norm_rows(norm, activation):
    r = BlockState(norm=norm, activation=activation).readings()
    assert len(r.stages) == 8 and set(r.ln_rows) == {"LN₁", "LN₂"}
    for name in ("LN₁", "LN₂"):
        z = np.array(r.matrices[name])  # γ = 1, β = 0 in the toy: the normalised rows themselves
        assert np.allclose(z.mean(axis=1), 0, atol=1e-9) and np.allclose(z.var(axis=1), 1, atol=1e-3)
        assert np.allclose(r.ln_rows[name]["mean"], 0, atol=1e-9) and np.allclose(r.ln_rows[name]["var"], 1, atol=1e-3)
    src = {"post": "x+attn", "pre": "x"}[norm]  # LN₁ normalises this stage's rows
    x = np.array(r.matrices[src])
    assert np.allclose((x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5),
                       np.array(r.matrices["LN₁"]))


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_block_heads_attend_over_what_the_attention_sublayer_reads(norm):
    """The two heads drawn at the attn stage are softmax(QKᵀ/√2) of the rows the sublayer reads: x after
    post-norm, LN₁(x) before it (pre-norm); with W_o = I their A·V side by side is the attn stage."""
    from rnntui.engine import attention as at

    r = BlockState(norm=norm).readings()
    rows = np.array(r.matrices["x" if norm == "post" else "LN₁"])
    outs = []
    for j, a in enumerate(r.weights):
        cols = slice(2 * j, 2 * j + 2)  # two heads of d_k = 2
        q, k, v = (rows @ w[:, cols] for w in (at.W_Q_TOY, at.W_K_TOY, at.W_V_TOY))
        s = q @ k.T / math.sqrt(2)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        want = e / e.sum(axis=1, keepdims=True)
        assert np.allclose(np.array(a), want)
        outs.append(want @ v)
    assert np.allclose(np.concatenate(outs, axis=1), np.array(r.matrices["attn"]))


def test_parameter_counts():
    bert = build_state(fig("block"), ["d=768", "d_ff=3072", "layers=12"]).readings()
    assert bert.params["per_layer"] == 7_087_872 and bert.params["total"] == 85_054_464
    base = build_state(fig("block"), ["d=512", "d_ff=2048", "layers=1"]).readings()
    assert base.params["per_layer"] == 3_152_384 == 4 * 512 ** 2 + 4 * 512 + 2 * 512 * 2048 + 2048 + 512 + 4 * 512
    f = build_state(fig("block"), ["d=512", "d_ff=2048", "n=512"]).readings().flops
    assert f["attention_core"] == 4 * 512 ** 2 * 512 and f["dense"] == 8 * 512 ** 3 + 4 * 512 * 512 * 2048
    shown = txt(BlockState(), "block")
    assert "7,087,872" in shown and "85,054,464" in shown
    core, dense = 4 * 512 ** 2 * 768, 8 * 512 * 768 ** 2 + 4 * 512 * 768 * 3072  # BERT-base at n = 512
    assert f"core 4n²d 805M ({100 * core / (core + dense):.1f}% of all) + proj+FFN 7.25G" in shown  # core's share
    # of the whole (it read "proj+FFN 7.25G (10.0% core)": core ÷ proj+FFN would be 11.1%)


@pytest.mark.parametrize("h", [1, 16])
def test_heads_readouts_wrap_between_pairs_and_mark_no_head_as_chosen(h):
    """attention/heads at 80x24 (a newcomer's trial): its counts wrapped inside a pair ("+4d biases" /
    "1,050,624"), and both toy heads' titles were drawn as the chosen one (▸…◂), though neither is."""
    shown = txt(HeadsState(h=h), "heads")
    r = HeadsState(h=h).readings()
    assert f"+4d biases {r.params_bias:,}" in shown and r.params_bias == 4 * 512 ** 2 + 4 * 512
    assert "▸toy head" not in shown and "toy head 1" in shown and "toy head 2" in shown


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
def test_choosing_a_mask_family_moves_no_column(size):
    """The chosen family's title is drawn ▸…◂, two cells wider: "enc–dec self" chosen pushed the cross
    mask a cell right, so the columns jumped as ←→ moved the choice (a newcomer's trial)."""
    def grid(family: int) -> list[str]:
        lines = txt(MasksState(family=family), "masks", size).splitlines()
        return [line for line in lines if "●" in line or line.strip("│ ").startswith("0")][:8]

    assert grid(0) == grid(1) == grid(2)


@pytest.mark.parametrize("size", [(120, 40), (160, 48)])
def test_heads_table_has_its_own_rows(size):
    """The h-table sat beside toy head 1 (at 160x48 beside both), h=1 on 那只's row, h=2 on 猫's: it read
    as if each h belonged to a token (a trial). It takes a band of its own, the two heads side by side."""
    lines = txt(HeadsState(), "heads", size).splitlines()
    table = [i for i, line in enumerate(lines) if re.search(r"h=\d+ ", line)]
    heads = [i for i, line in enumerate(lines) if "toy head" in line or re.match(r"│ +(那只|猫|突然|开始|跑) +\d\.\d{3}", line)]
    assert len(table) == 7 and len(heads) == 6 and max(table) < min(heads)
    assert "toy head 1" in lines[min(heads)] and "toy head 2" in lines[min(heads)]


def test_heads_say_why_a_row_is_nan_under_the_strict_mask():
    """attention/heads under the strict mask drew a row of NaN with nothing saying why (a newcomer's trial).
    The row whose query may read no key is named, as attention/qkv names it."""
    r = HeadsState(mask="strict").readings()
    empty = [i for i, row in enumerate(r.weights[0]) if all(math.isnan(v) for v in row)]
    assert empty == [0]  # strict: token 0 has no token before it
    shown = txt(HeadsState(mask="strict"), "heads")
    assert f"query {r.tokens[0]} may read no key (strict mask): softmax over nothing = 0/0 = NaN" in shown
    assert "may read no key" not in txt(HeadsState(mask="causal"), "heads")


def test_block_notes():
    shown = txt(BlockState(stage=2), "block")
    assert "LSTM" in shown and "(lstm)" in shown
    assert "key" in txt(BlockState(stage=4), "block")
    assert "mean" in txt(BlockState(stage=3), "block")


@pytest.mark.parametrize("size,stage,drawn", [((80, 24), 7, 2), ((100, 30), 3, 4), ((160, 48), 7, 8)])
def test_block_draws_the_stages_so_far_that_fit(size, stage, drawn):
    """attention/block drew the stage before and the current one, with 25 rows empty at 160x48 (a
    lecturer's trial): a larger screen draws the layer so far, the oldest stages left out first."""
    shown = txt(BlockState(stage=stage), "block", size)
    assert shown.count("那只") == drawn  # each matrix's first row
    r = BlockState(stage=stage).readings()
    lines = [[word.strip("▸◂") for word in line.strip("│ ").split()] for line in shown.splitlines()]
    titles = [word for words in lines if words and set(words) <= set(r.stages) for word in words]
    assert titles == list(r.stages[stage + 1 - drawn:stage + 1])  # in order, up to the current


@pytest.mark.parametrize("height", [30, 9, 5])
def test_a_narrowed_text_table_wraps_its_cells_into_the_rows_it_has(height):
    """attention/summary cut every cell to the column ("a fixed…", "gradien…") with rows to spare below
    (found in a newcomer's trial). Where the height allows, a cell wraps over up to 4 lines in its
    column: read down the column, every word is there; with less room it is cut with … as before."""
    cells = (("a fixed state h_t", "gradients vanish or explode over the chain"),
             ("a growing KV cache", "O(n²) cost and a growing KV cache"))
    spec = MatrixSpec(cells, "", ("RNN", "Transformer"), ("keeps", "what it left"), shrink=True)
    lines = [l.plain for l in matrices_text([spec], 40, height).split()]
    assert len(lines) <= height and max(len(l) for l in lines) <= 40
    start = lines[0].index("what it left")  # the column's cells start under its header
    column = " ".join(" ".join(l[start:].split()) for l in lines[1:])
    if height >= 9:  # the head and 2 rows × 4 lines
        assert all(text in column for text in (cells[0][1], cells[1][1]))
    else:  # 2 lines a row
        assert len(lines) == 5 and column.startswith("gradients vanish")  # cut with … at the cell's last line
        assert lines[2].rstrip().endswith("…")
    assert "…" not in " ".join(lines) or height < 9


@pytest.mark.parametrize("width", [76, 60])
def test_a_narrowed_text_table_keeps_its_words_whole_where_they_fit(width):
    """attention/summary at 80 columns (76 cells for the table) gave every column the same 8 cells and
    cut words longer than that in two ("recurren|ce", "gradient|s"), yes/no taking as much room as the
    sentences. Each column is now at least as wide as its longest word when all fit, and decoder→encoder
    breaks after its arrow: every word drawn is a whole word of the table, or cut with … at a cell's
    last line. Its columns, one cell apart, are ruled: "a fixed state a state carried" read on in a
    lecturer's .txt export. At 60 cells the words do not all fit: every column is still drawn, within the width."""
    r = SummaryState().readings()
    spec = MatrixSpec(r.table, "", r.models, r.headers[1:], shrink=True)
    lines = [line.plain for line in matrices_text([spec], width, 13).split()]
    assert len(lines) <= 13 and max(cell_len(line) for line in lines) <= width
    words = {w for text in (*(c for row in r.table for c in row), *r.headers, *r.models)
             for w in text.replace("→", "→ ").replace("+", "+ ").split()}  # (row labels break after +)
    drawn = {w for line in lines[1:] for w in line.replace("▸", " ").replace("│", " ").split() if not w.endswith("…")}
    rules = {tuple(i for i, ch in enumerate(line) if ch == "│") for line in lines if line.strip()}
    assert len(rules) == 1 and len(rules.pop()) == len(r.headers) - 2  # a rule between columns, down every line
    if width == 76:
        assert drawn <= words, drawn - words
        assert max(cell_len(line) for line in lines) >= width - 2  # the room is used (it left 6 cells)
    else:  # the yes/no column, the last: none left out
        assert "yes" in drawn and any(w.startswith("grow") or w.startswith("cache") for w in drawn)


@pytest.mark.parametrize("size", [(96, 20), (116, 30), (196, 50)])
def test_a_narrowed_text_table_with_rows_to_spare_shows_every_word(size):
    """attention/summary at 120x40 cut its cells at 4 lines ("one fixed-size …", "within a sequen…")
    and its column labels at one line ("paralle…", "keeps at inferen…") with 11 rows blank below; at
    200x60 "paralle…" too. With the room, every cell and every label is whole, read down its column.
    At 100x30 (96x20 for the table) its columns were as wide as each other: 9 cells were cut, and every
    label; the cells now go where they save lines, and "seq2seq+attention" breaks after its +."""
    r = SummaryState().readings()
    spec = MatrixSpec(r.table, "", r.models, r.headers[1:], shrink=True)
    lines = [line.plain for line in matrices_text([spec], size[0], size[1]).split()]
    assert len(lines) <= size[1] and max(cell_len(line) for line in lines) <= size[0]
    assert "…" not in "".join(lines)
    drawn = " ".join(" ".join(line.replace("▸", " ").split()) for line in lines)
    for text in (*(c for row in r.table for c in row), *r.headers[1:]):
        for word in text.replace("→", "→ ").split():  # (wrapped: whole words, not whole cells, are on one line)
            assert word in drawn, word


def test_a_narrowed_text_table_short_of_rows_gives_the_lines_left_to_the_rows_cut():
    """attention/summary cut every row at 4 lines and spent the lines left on blank ones between rows
    (or left them blank below, at 100x30): cells are cut with … only where no line is left over."""
    r = SummaryState().readings()
    spec = MatrixSpec(r.table, "", r.models, r.headers[1:], shrink=True)
    for height in (14, 15, 16):  # (17 lines show it whole at 96 cells)
        lines = [line.plain for line in matrices_text([spec], 96, height).split()]
        assert len(lines) == height and "…" in "".join(lines)  # (it needs more: cut)
        assert all(line.strip() for line in lines), lines  # and no line of it blank


@pytest.mark.parametrize("size", [(90, 40), (120, 40), (160, 48)])
def test_summary_text_keeps_off_its_rules_where_there_is_room(size):
    """attention/summary's cells touched the rules between them ("O(1) decoder→│no", a trial): where the
    table still fits whole, a space stands after every rule (and before it, at 120 and wider)."""
    lines = txt(SummaryState(), "summary", size).splitlines()
    rows = [line[1:-1] for line in lines if line.count("│") > 4]  # (below 100 columns: 4 of the 6 columns)
    assert len(rows) >= (12 if size[0] >= 100 else 7) and "…" not in "".join(rows)  # every cell whole
    assert not any(re.search(r"│[^ ]", row) for row in rows)
    if size[0] >= 120:
        assert not any(re.search(r"[^ ]│", row) for row in rows)


# -- summary (issue 19) ----------------------------------------------------------------------------
def test_summary_links_resolve():
    r = SummaryState().readings()
    links = [l for row in r.links for l in row if l is not None]
    assert len(r.table) == 4 and len(links) >= 10
    for link in links:  # (every one opens: each topic is in this build)
        _, figure = find(link["target"], link["sets"])
        build_state(figure, link["sets"], link["step"])


def test_summary_agrees_with_table_1_and_its_links_open_the_rows_mode():
    """The summary's per-layer cost, path length and "parallel" cells say what parallel's Table 1 says
    for a recurrent layer (RNN, LSTM/GRU) and for self-attention (Transformer); Enter on a path or grid
    cell opens that figure in the row's own mode, at the step where its work is done."""
    from rnntui.engine import parallel as par
    from rnntui.figures.attention import SUMMARY_KEYS

    table_1 = {row.layer: row for row in par.TABLE_1}
    kind = {"RNN": "Recurrent", "LSTM/GRU": "Recurrent", "Transformer": "Self-Attention"}
    mode = {"Recurrent": "recurrent", "Self-Attention": "attention"}
    r = SummaryState().readings()
    col = {key: i for i, key in enumerate(SUMMARY_KEYS)}
    checked = 0
    for model, cells, links in zip(r.models, r.table, r.links):
        if model not in kind:
            continue
        row = table_1[kind[model]]
        assert cells[col["per_layer"]] == row.per_layer and cells[col["path_length"]] == row.max_path, model
        assert cells[col["parallel"]] == ("yes" if row.sequential == "O(1)" else "no"), model
        for link in links:
            if link is None or link["target"] not in ("parallel/grid", "parallel/path"):
                continue
            assert f"mode={mode[kind[model]]}" in link["sets"], (model, link)
            if link["target"] == "parallel/grid":
                n = int(next(s for s in link["sets"] if s.startswith("n=")).partition("=")[2])
                assert link["step"] == par.sequential_steps(par.schedule(mode[kind[model]], n)), (model, link)
            checked += 1
    assert checked == 5  # RNN: path and grid; LSTM/GRU: grid; Transformer: path and grid


def test_summary_cursor_moves_by_rows():
    s = SummaryState(cell=1)
    assert s.row_moved(1).cell == 7 and s.row_moved(-1) == s
    assert SummaryState(cell=23).row_moved(1).cell == 23


def test_summary_arrows_move_one_cell_along_the_row():
    """←→ "move along a row": every cell in turn (a coarse notch of 2 skipped every other column)."""
    s = SummaryState()
    seen = [s.cell]
    for _ in range(5):
        s = s.nudged(s.AXIS, 1)
        seen.append(s.cell)
    assert seen == [0, 1, 2, 3, 4, 5] and s.readings().col == 5
    assert s.nudged(s.AXIS, -1).cell == 4


async def test_enter_opens_the_linked_figure_and_backspace_returns():
    app = RnnApp("attention", "summary")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.topic_screen()
        assert screen.figure.id == "summary" and screen.state.readings().link["target"] == "parallel/path"
        await pilot.press("enter")
        await pilot.pause()
        there = app.topic_screen()
        assert app.current_mode == "parallel" and there.figure.id == "path"
        assert there.state.mode == "recurrent" and there.state.k == 8
        await pilot.press("backspace")
        await pilot.pause()
        assert app.current_mode == "attention" and app.topic_screen().figure.id == "summary"


def test_summarys_help_lists_enter_and_says_what_up_and_down_do_there():
    """Help on attention/summary had no enter row (the footer said "⏎ open") and said ↑/↓ "choose the
    parameter", where they move between rows (a keyboard audit). The other figures keep their ↑/↓ words
    and list no enter."""
    from types import SimpleNamespace

    from rnntui.help import help_text

    def rows(figure):
        shown = help_text(SimpleNamespace(TOPIC_ID="attention", figure=figure, state=figure.state_type()))[6]
        return {row[2]: row[:2] for row in shown}

    summary = rows(SCREEN.figure_by_id("summary"))
    assert summary["open_link"][0] == "enter" and "opens" not in summary["open_link"][1]
    assert "open the figure" in summary["open_link"][1]
    assert summary["previous_param"] == ("↑", "the row above, same column") and "row below, same column" in summary["next_param"][1]
    qkv = rows(SCREEN.figure_by_id("qkv"))
    assert "open_link" not in qkv and "parameter" in qkv["previous_param"][1]


async def test_a_keymaps_open_link_opens_a_cell(keymap):
    """A keymap naming open_link was refused whole as unknown: it moves Enter now, and the table says so."""
    from rnntui.svg import screen_segments

    keymap('[keys]\nopen_link = "o"\n')
    app = RnnApp("attention", "summary")
    async with app.run_test(size=(100, 30)) as pilot:
        assert not app._notifications  # (no "keymap … ignored")
        screen = app.topic_screen()
        said = "".join(s.text for s in screen_segments(app))  # the screen as drawn
        assert screen.figure.id == "summary" and "o: parallel/path" in said and "Enter:" not in said
        await pilot.press("enter")
        await pilot.pause()
        assert app.current_mode == "attention"
        await pilot.press("o")
        await pilot.pause()
        assert app.current_mode == "parallel" and app.topic_screen().figure.id == "path"


@pytest.mark.parametrize("lang,first,last", [
    ("en", "RNN is the first row; ↓ goes down", "Transformer is the last row; ↑ goes up"),
    ("zh", "RNN 已是第一行；↓ 往下", "Transformer 已是最后一行；↑ 往上")])
async def test_up_on_the_top_row_and_down_on_the_bottom_row_say_so(lang, first, last):
    """↑ on summary's top row and ↓ on its bottom did nothing and said nothing, where a press past any other
    end says so for 2 s (a keyboard audit)."""
    from rnntui.svg import screen_segments

    def edge():  # the panel's bottom edge, as drawn
        return "".join(s.text for s in screen_segments(app)).split("\n")[-2]

    app = RnnApp("attention", "summary", lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.topic_screen()
        await pilot.press("right", "up")
        await pilot.pause()
        assert screen.state.cell == 1 and first in edge()
        await pilot.press("down", "down")
        await pilot.pause()
        assert screen.state.cell == 13 and "row" not in edge() and "行" not in edge()  # a move takes it away
        await pilot.press("down", "down")
        await pilot.pause()
        assert screen.state.cell == 19 and last in edge()
        await pilot.pause(2.3)
        assert last not in edge()


async def test_one_backspace_shows_the_table_again_after_a_link_to_a_new_topic():
    """In a terminal the table came back only at the next key when the link had opened its topic for the
    first time (a trial: "the first backspace is ignored"): what the terminal is sent shows the table
    after one press. While a link can be followed back, the footer says so."""
    import asyncio

    from rich.console import Console
    from textual import events

    from frames import fresh_frame, replaying

    app = RnnApp("attention", "summary")
    console = Console(color_system="truecolor", force_terminal=True, width=80, height=24)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "b return" not in "".join(c for row in fresh_frame(app, console).cells for c, _ in row)
        await pilot.press("enter")
        await pilot.pause(0.3)
        opened = fresh_frame(app, console)
        assert any("b return" in "".join(c for c, _ in row) for row in opened.cells)
        shown = replaying(app, console)
        app.post_message(events.Key("backspace", None))  # as a terminal sends it: Pilot's press and pause
        await asyncio.sleep(0.5)  # wait for the screen, which let the held frame through
        text = ["".join(c for c, _ in row) for row in shown.cells]
        assert "The lecture in one table" in text[2] and "b return" not in text[-1]
        assert shown.cells == fresh_frame(app, console).cells


async def test_back_from_a_link_puts_the_topic_it_opened_back_as_it_was():
    """The RNN's "what it left" opens gradients/product at relu and W_h 1.6: after backspace every
    gradients figure kept them (W_h and act are one for the topic), with nothing on screen saying so."""
    app = RnnApp("gradients", "factors")
    async with app.run_test(size=(80, 24)) as pilot:
        gradients = app.topic_screen()
        before = dict(gradients.states)
        await app.goto("attention", "summary")
        summary = app.topic_screen()
        summary.set_state(summary.state.with_value(summary.state.AXIS, 5))
        link = summary.state.readings().link
        assert link["target"] == "gradients/product" and "act=relu" in link["command"]
        await pilot.press("enter")
        await pilot.pause()
        assert app.topic_screen() is gradients and gradients.figure.id == "product"
        assert (gradients.state.act, gradients.state.w_h) == ("relu", 1.6)
        assert gradients.states["hop"].act == "relu"  # (one network for the topic)
        await pilot.press("backspace")
        await pilot.pause()
        assert app.topic_screen() is summary and summary.state.cell == 5
        assert gradients.states == before and gradients.figure.id == "factors"
        await pilot.press("2")
        await pilot.pause()
        assert "W_h 0.90" in app.topic_screen().param_line()[0][2].plain
        # what the user changes after the link stays: back undoes only the link's values still standing
        await app.goto("attention", "summary")
        await pilot.press("enter")
        await pilot.pause()
        gradients.set_state(gradients.state.with_value("w_h", 1.4))  # W_h 1.6 → 1.4 on the product
        await pilot.press("backspace")
        await pilot.pause()
        assert {(s.act, s.w_h) for s in gradients.states.values() if hasattr(s, "w_h")} == {("tanh", 1.4)}



async def test_back_from_a_link_leaves_no_value_out_of_its_range():
    """parallel/path at n 4; the table's link set n 12, k 8; shift+→ made k 11; backspace put n back to 4 and
    left k at 11: "token 0 → token 11" over 4 tokens, and → jumped k to 3 (a review). k comes back inside
    the range n 4 allows: at most n − 1, the last token."""
    from rnntui.figures.parallel import PathState

    app = RnnApp("parallel", "path", PathState(n=4, k=3))
    async with app.run_test(size=(100, 30)) as pilot:
        parallel = app.topic_screen()
        await app.goto("attention", "summary")
        assert app.topic_screen().state.readings().link["target"] == "parallel/path"
        await pilot.press("enter")
        await pilot.pause()
        assert (parallel.state.n, parallel.state.k) == (12, 8)
        await pilot.press("shift+right", "shift+right", "shift+right", "backspace")
        await pilot.pause()
        assert (parallel.states["path"].n, parallel.states["path"].k) == (4, 3)

async def test_keys_on_the_qkv_figure():
    app = RnnApp("attention", "qkv")
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.topic_screen()
        await pilot.press("right", "m", "w", "x")
        assert (s.state.stage, s.state.mask, s.state.weights, s.state.later) == (1, "full", "random", "redrawn")
        await pilot.press("minus")  # the first parameter is the query row
        assert s.state.query == 3


def test_views_import_no_engine():
    root = Path(__file__).resolve().parents[1] / "rnntui"
    for path in (root / "screens" / "attention.py", root / "widgets" / "matrix.py"):
        assert not re.search(r"rnntui\.engine|from rnntui import engine", path.read_text())


async def test_stepping_the_mask_family_keeps_the_layout_still():
    """The family's sentence is padded to the longest one's height: the matrices do not jump, and a key
    draws one frame instead of a frame and a re-laid-out one."""
    from rnntui.widgets.readouts import Readouts

    app = RnnApp("attention", "masks")
    async with app.run_test(size=(80, 24)) as pilot:
        heights, said = [], []
        for key in ("right", "right", "left", "left"):
            readouts = [w for w in app.topic_screen().query(Readouts) if w.display and w.region.height][-1]
            heights.append(readouts.region.height)
            said.append(app.topic_screen().state.family)
            assert "Decoder&#160;positions" in app.export_screenshot()  # the readout's last line is not cut
            await pilot.press(key)
        assert len(set(said)) == 3 and len(set(heights)) == 1, (said, heights)


@pytest.mark.parametrize("size,m", [((80, 24), 1), ((100, 30), 1), ((120, 40), 1), ((160, 48), 3), ((200, 60), 5)])
def test_masks_grow_into_tiles_where_there_is_room(size, m):
    """attention/masks drew four 5x5 grids of marks in 25 rows of a 160x48 screen, the rest empty (a
    lecturer's trial): where the room allows, each entry is a tile, 2m − 1 across and m − 1 down (about
    square: a terminal cell is about twice as tall as wide), every mask drawn whole. A tile that may read
    is a solid block, a masked one a dot (tiles of ● ● ● read as 25 entries to a cell at 200x60, a trial).
    No 2 × 1 tiles: "● ●" under one header read as two columns (a trial)."""
    r = MasksState().readings()
    shown = txt(MasksState(), "masks", size).splitlines()
    may = sum(v for blocks in r.blocks for _name, visible in blocks for row in visible for v in row)
    assert may == 25 + 15 + 10 + 20
    at = next(i for i, line in enumerate(shown) if "那只" in line and ("●" in line or "█" in line))
    if m == 1:
        assert sum(line.count("●") for line in shown) == may + 1  # (+ the legend's)
        assert "那只 ● ● ● ● ●" in shown[at]  # one mark an entry
        return
    tw = 2 * m - 1
    assert sum(line.count("█") for line in shown) == may * tw * (m - 1) + 1  # (+ the legend's █)
    entries = sum(len(row) for blocks in r.blocks for _name, visible in blocks for row in visible)
    legend = txt(MasksState(), "masks", (80, 24)).count("·") - (entries - may)  # the dots not in a grid
    assert sum(line.count("·") for line in shown) == entries - may + legend  # one dot a masked entry
    tile = "█" * tw
    assert f"那只 {tile}  {tile}" in shown[at] and tile + "█" not in shown[at]  # the encoder's first row
    assert all(f"{tile}  {tile}" in line for line in shown[at:at + m - 1]) and "█" not in shown[at + m - 1].split("│")[1][:60]


def test_a_matrix_too_wide_is_folded_into_bands_of_its_columns_where_the_height_allows():
    """attention/qkv's out = A·V (5×64, random weights) showed 24 of its 64 columns over 31 empty rows at
    160x48 (a lecturer's trial): it is drawn whole, its columns in bands one under another. At 80x24
    there is no room: cut as before, saying so."""
    state = QkvState(stage=5, weights="random")
    out = state.readings().output
    lines = txt(state, "qkv", (160, 48)).splitlines()
    rows = [line.strip("│ ").removeprefix("▸") for line in lines if line.strip("│ ").lstrip("▸").startswith("跑")]
    drawn = [float(v) for row in rows[-3:] for v in row.split()[1:]]  # its three bands (the spelled line is first)
    assert len(drawn) == 64 and drawn == pytest.approx([round(v, 2) for v in out[4]], abs=0.006)
    assert "of 64 columns" in txt(state, "qkv", (80, 24))


def test_heat_map_shades_every_sampled_entry_as_shade_does():
    """The heat map tells its entries apart all at once (numpy); each cell must be what `shade` gives
    that entry, at full strength (dimmed, it all but vanished on the light themes: a trial), for
    rectangular and ragged tables, NaN and ±inf included."""
    import random

    from rnntui.widgets.matrix import KINDS, _kinds, shade

    rng = random.Random(2)
    for _ in range(200):
        n, m = rng.randint(1, 12), rng.randint(1, 12)
        rows = [[rng.choice([rng.uniform(-1.5, 1.5), rng.uniform(-0.06, 0.06), 0.05, -0.05, 0.25, 1.0,
                             float("nan"), float("inf"), -float("inf")]) for _j in range(m)] for _i in range(n)]
        if rng.random() < 0.2:
            rows[-1] = rows[-1][: rng.randint(0, m)]  # a short row reads as not-a-number past its end
        values, transpose = tuple(map(tuple, rows)), rng.random() < 0.5
        m = max(map(len, values))  # as heat_rows counts columns
        if not m:
            continue
        rs = sorted(rng.sample(range(m if transpose else n), rng.randint(1, m if transpose else n)))
        cs = sorted(rng.sample(range(n if transpose else m), rng.randint(1, n if transpose else m)))
        for i, kinds in zip(rs, _kinds(values, rs, cs, transpose)):
            for j, kind in zip(cs, kinds):
                r, c = (j, i) if transpose else (i, j)
                assert KINDS[kind] == shade(values[r][c] if c < len(values[r]) else float("nan"))


def _styles_at(line, cell: int) -> set[str]:
    """The styles a line of Text draws the character at `cell` in (ASCII and one-cell marks only)."""
    return {str(span.style) for span in line.spans if span.start <= cell < span.end}


def test_heat_map_cells_take_their_shade_by_size_and_their_colour_by_sign():
    """░▒▓█ by |v| in quarters, a + in the positive colour or a − in the negative one; near zero a dim ·,
    not a number a ? in the error colour; row labels right-aligned (the cells start in one column)."""
    from rnntui.widgets.matrix import heat_lines
    from rnntui.widgets.tints import BAD, NEGATIVE, POSITIVE

    values = ((0.9, -0.9, 0.3, -0.3), (0.01, -0.6, float("nan"), 0.6))
    for width, cw in ((11, 2), (15, 3)):  # three cells an entry (██+) where every column fits so
        lines = heat_lines(values, ("a", "bb"), ("0", "1", "2", "3"), width=width, height=10)
        assert [line.plain[:3] for line in lines[1:]] == [" a ", "bb "] and lines[0].plain == "   " + " ".join(
            f"{j:<{cw - 1}}" for j in range(4)).rstrip()
        for line, row in zip(lines[1:], values):
            for j, v in enumerate(row):
                at = 3 + cw * j  # cw cells an entry, after the labels' 2 cells and a space
                cells, styles = line.plain[at:at + cw], set().union(*(_styles_at(line, at + c) for c in range(cw)))
                if math.isnan(v):
                    assert (cells.rstrip(), styles) == ("?", {BAD})
                elif abs(v) < 0.05:
                    assert (cells.rstrip(), styles) == ("·", {"dim"})
                else:
                    quarter = min(int(abs(v) / 0.25), 3)  # 0.3: ▒ (second quarter), 0.6: ▓, 0.9: █
                    assert cells == "░▒▓█"[quarter] * (cw - 1) + ("+" if v > 0 else "−")
                    assert styles == {POSITIVE if v > 0 else NEGATIVE}


def test_a_transposed_heat_map_draws_the_columns_as_rows_with_their_labels():
    """attention/positions draws each position's encoding as a column (d down the side): the labels go
    with the entries they name."""
    from rnntui.widgets.matrix import HeatMap

    values = ((0.9, -0.9, 0.0), (0.3, -0.3, 0.6))  # 2 positions × 3 dimensions
    heat = HeatMap()
    heat.show(values, ("0", "1"), ("d0", "d1", "d2"), "d\\p", transpose=True)
    lines = ["".join(words for words, _style in row) for row in heat.lines(10, 10)]
    assert lines[0] == "d\\p 0  1"  # the positions across, three cells each (room for both)
    assert [line[:4] for line in lines[1:]] == [" d0 ", " d1 ", " d2 "]  # right-aligned under the corner's 3 cells
    assert [line[4:] for line in lines[1:]] == ["██+▒▒+", "██−▒▒−", "·  ▓▓+"]  # row k: dimension k of p 0, then 1


def test_masked_tiles_are_dim_and_a_dot_tile_has_its_dot_in_the_middle():
    """attention/masks' tiles: an entry in `faint` is drawn dim like its mark in the small grid; a · tile
    one dot at its centre."""
    from rnntui.widgets.matrix import SOLID, tile_lines

    m = 3
    tw = 2 * m - 1
    spec = MatrixSpec((("●", "·"), ("●", "●")), rows=("a", "b"), cols=("x", "y"), faint=((1, 0),))
    lines = tile_lines(spec, m)
    first, second = lines[1], lines[1 + (m - 1) + 1]  # the first line of each row's tiles
    start = 1 + 1 + 1  # " " + the label (1 cell) + " "
    assert first.plain[start:start + tw] == SOLID * tw
    assert first.plain[start + tw + 2:start + 2 * tw + 2] == " " * (tw // 2) + "·" + " " * (tw // 2)
    assert _styles_at(second, start) == {"dim"} and _styles_at(second, start + tw + 2) == set()
    assert _styles_at(first, start) == set()


def test_a_number_that_is_not_a_number_is_drawn_in_the_error_colour():
    from rnntui.widgets.tints import BAD

    line = matrix_lines(MatrixSpec(((1.0, float("nan")),), rows=("r",)))[-1]
    at = line.plain.index("NaN")
    assert BAD in " ".join(_styles_at(line, at)) and BAD not in " ".join(_styles_at(line, line.plain.index("1.00")))


def test_the_heat_map_is_drawn_darker_on_the_light_theme():
    """attention/positions' ░▒▓█ and +/− were dim on the light theme, pale orange and blue on grey at
    about 1.7:1 (a trial): they are the palette's colours darkened for a light background."""
    from rnntui.render import render
    from rnntui.topics import find
    from rnntui.widgets.tints import on_light

    screen, figure = find("attention/positions")
    svg = render(screen, figure, figure.state_type(), "svg", size=(100, 30), theme="light")
    for rgb in ((235, 120, 55), (80, 150, 255)):  # POSITIVE, NEGATIVE
        assert "fill: #%02x%02x%02x" % on_light(rgb) in svg


def test_a_figures_matrices_are_read_as_plain_floats_entry_for_entry():
    """The figures hand their matrices on as nested tuples of Python floats (compared key to key,
    written to .json): each entry as `float()` gives it, −∞, NaN and −0.0 kept, whatever the input."""
    from rnntui.figures.attention import _rows

    a = np.array([[1.5, -np.inf, np.nan], [-0.0, 2.0, np.float32(0.1)]])
    rows = _rows(a)
    assert all(type(v) is float for row in rows for v in row)
    assert len(rows) == 2 and all(len(row) == 3 for row in rows)
    for row, expected in zip(rows, a):
        for v, e in zip(row, expected):
            assert (math.isnan(v) and math.isnan(e)) or (v == float(e) and math.copysign(1, v) == math.copysign(1, e))
    assert _rows([[1, 2], [3, 4]]) == ((1.0, 2.0), (3.0, 4.0))


def test_a_narrowed_tables_labels_take_the_lines_its_cells_leave():
    """attention/summary at 72x50 had every cell whole and its labels cut to one line ("path le…",
    "pa…") with 5 rows blank below (a review): the labels take the lines left, broken at spaces."""
    r = SummaryState().readings()
    spec = MatrixSpec(r.table, "", r.models, r.headers[1:], shrink=True)
    lines = [line.plain for line in matrices_text([spec], 68, 38).split()]
    assert "path le…" not in lines[0] and lines[1].split()[0] == "length"  # "path" / "length"
    first = next(i for i, line in enumerate(lines) if "RNN" in line)
    assert len(lines) <= 38 and "…" not in "".join(lines[first:])  # the cells whole below them


def test_a_padded_label_stays_with_its_value_when_pairs_wrap():
    """Pairs are broken apart only at the three spaces readout_text puts between them: serving/kvcache
    at 64 columns put "KV cache" (padded to line up with the next label) on a line of its own (a review)."""
    from rich.text import Text

    from rnntui.widgets.readouts import pairs_whole

    line = Text("KV cache        2 (K,V)·32 layers = 2 GiB   recurrent state 256 KiB")
    parts = [part.plain for part in pairs_whole(line, 30)]  # (the first pair is wider: a line of its own)
    assert parts == ["KV cache        2 (K,V)·32 layers = 2 GiB", "recurrent state 256 KiB"]


def test_a_text_tables_focused_cell_is_one_reversed_block_and_its_row_is_not():
    """A focused cell shorter than its row underlined its blank lines too: on a slide, attention/summary's
    O(n) stood over a stack of rules (a newcomer's trial); then the row was reversed whole, a black slab
    with the cell a white hole in it, its underline running into the gap, and a dim cell a grey box in it
    (a lecturer's PNG). The cell is one reversed block over the row's lines, its width whole; the row is
    marked by ▸ and its reversed label; nothing is underlined, no other cell reversed."""
    from rnntui.widgets.matrix import matrix_lines

    spec = MatrixSpec((("O(n)", "a state carried along: any length"),), "", ("RNN",), ("path", "fixed"),
                      row=0, cell=(0, 0), faint=((0, 1),), shrink=True)
    lines = matrix_lines(spec, 30, 2, tall=3)
    assert len(lines) == 4 and lines[1].plain.startswith("▸RNN O(n)│a state")  # the head, and a row 3 lines tall
    cell = lines[1].plain.index("O(n)"), lines[1].plain.index("│")

    def reversed_cells(line):
        return {i for span in line.spans if "reverse" in str(span.style) for i in range(span.start, span.end)}

    for k, line in enumerate(lines[1:]):
        assert reversed_cells(line) >= set(range(*cell)), k  # the cell's block, its blank lines too
        assert not reversed_cells(line) & set(range(cell[1], len(line.plain))), k  # nothing right of it
        assert not any("underline" in str(span.style) for span in line.spans)
    label = set(range(1, 1 + len("RNN")))
    assert reversed_cells(lines[1]) >= label and not reversed_cells(lines[2]) & label  # the label, where it is


def test_a_mask_family_is_named_where_it_is_shown_and_taken_by_name():
    """attention/masks read "←→ family 0" (a trial): the line names the family (the engine's order,
    at.FAMILIES), and --set takes the name, in English or Chinese, as well as the number; a wrong one
    lists all three."""
    from rnntui.engine import attention as at
    from rnntui.i18n import set_language
    from rnntui.state import BadValue

    p, state = MasksState.param("family"), MasksState()
    assert [p.show(v) for v in range(3)] == [f"{v} {name}" for v, name in enumerate(at.FAMILIES)]
    assert [state.with_value("family", w).family for w in ("decoder", "1", "1 decoder", "Encoder-Decoder",
                                                           "encoder–decoder", "1  decoder")] \
        == [at.FAMILIES.index("decoder")] * 3 + [at.FAMILIES.index("encoder-decoder")] * 2 + [1]  # (any dash,
    # any spaces: "encoder–decoder" as the prose writes it was refused, a review)
    with pytest.raises(BadValue, match="one of 0 encoder, 1 decoder, 2 encoder-decoder"):
        state.with_value("family", "both")
    assert "←→ family 1 decoder" in one_app.txt(*find("attention/masks"), MasksState(family=1), (80, 24))
    try:
        set_language("zh")
        assert state.with_value("family", "解码器").family == 1 and p.show(2) == "2 编码器–解码器"
        assert state.with_value("family", "2 编码器-解码器").family == 2
    finally:
        set_language("en")


@pytest.mark.parametrize("d", [16, 64, 512])
def test_the_word_order_test_runs_at_the_d_model_shown(d):
    """attention/positions' 狗咬人 / 人咬狗 gaps stayed as at d 16 while ←→ moved d_model (a trial): they
    are the gaps at the d shown, as plain numpy attention gives them (softmax(QKᵀ/√d)·V, PE by hand)."""
    from rnntui.engine import attention as at
    from rnntui.fmt import sci

    emb, wq, wk, wv = at.perm_weights(d)
    (a, b), n = at.PERM_ORDERS, len(at.PERM_WORDS)
    angle = np.arange(n)[:, None] / 10000 ** (np.arange(0, d, 2) / d)[None, :]
    pe = np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(n, d)

    def out(order, with_pe, causal):
        x = emb[list(order)] + (pe if with_pe else 0)
        s = (x @ wq) @ (x @ wk).T / math.sqrt(d)
        if causal:
            s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        w = np.exp(s - s.max(axis=1, keepdims=True))
        return (w / w.sum(axis=1, keepdims=True)) @ (x @ wv)

    perm = [a.index(word) for word in b]
    gap = {(pe_on, causal): float(np.abs(out(b, pe_on, causal) - out(a, pe_on, causal)[perm]).max())
           for pe_on, causal in ((True, False), (False, True))}
    text = one_app.txt(*find("attention/positions"), PositionsState(d=d), (120, 40))
    assert all(sci(v) in text for v in gap.values()) and "sampled to fit" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (90, 28), (100, 30), (120, 40)])
def test_the_summary_reads_whole_and_marks_its_links_without_colour(lang, size):
    """At 90x28 the lecture table's labels read "path le…", "per-laye…" (a student's trial); at 80x24 every
    label and most cells were cut ("path le…│parallel i…"), a sentence wrapped a word a line; the cells
    that open a figure differed only by grey level, none under NO_COLOR (a trial). Every label and cell is
    whole: below 100 columns the labels are short and the two columns of sentences go to the line under the
    table, which names them; a cell that opens a figure ends in →, one that does not never does."""
    from rnntui.i18n import _, set_language

    state = SummaryState()
    r = state.readings()
    wide = size[0] >= 100
    set_language(lang)
    try:
        text = render(SCREEN, fig("summary"), state, "txt", size)
        heads = [_(h) for h in (r.headers[1:] if wide else r.short_headers[:4])]
        rest = [_(h) for h in r.headers[5:]]
        cells = [[_(c) for c in row] for row in r.table]
    finally:
        set_language("en")
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.count("│") > 4)
    table = [line[1:-1] for line in lines[top:] if line.count("│") > 4]
    assert "…" not in "".join(table)
    start = table[0].index(heads[0].split()[0])  # (the row labels before it)
    columns = ["".join("".join(col).split()) for col in zip(*(row[start:].split("│") for row in table))]
    for j, head in enumerate(heads):  # each column: its label, then its cells in order, every one whole (read
        said = columns[j]  # without spaces: a cell wraps where it must, "decoder→" / "encoder")
        for text_ in [head] + [row[j] + (" ⏎" if r.links[i][j] else "")
                               for i, row in enumerate(cells)]:
            want = "".join(text_.split())
            assert want in said, (j, text_, said)
            said = said[said.index(want) + len(want):]
        assert not said.startswith("⏎")  # (no ⏎ on a cell that opens nothing; → is the cells' own: decoder→)
    assert len(columns) == len(heads)
    if not wide:  # the columns left out named in the line under the table
        joined = "".join(" ".join(line.strip("│ ") for line in lines[top + len(table):]).split())
        assert all("".join(h.split()) in joined for h in rest)


def test_the_word_order_example_is_glossed_in_english_only():
    """An English reader could not follow 狗咬人 / 人咬狗 (a student's trial): in English a line glosses
    them word by word from the engine's glossary (狗 dog, 咬 bites, 人 man); in Chinese it is not needed."""
    from rnntui.engine import attention as at
    from rnntui.render import render

    gloss = dict(zip(at.PERM_WORDS, at.PERM_GLOSS))
    want = " / ".join(" ".join(gloss[ch] for ch in order) for order in ("狗咬人", "人咬狗"))
    assert want == "dog bites man / man bites dog"
    assert f"({want})" in one_app.txt(*find("attention/positions"), PositionsState(), (100, 30))
    from rnntui.i18n import set_language
    try:
        set_language("zh")
        assert "dog bites" not in render(*find("attention/positions"), PositionsState(), "txt", (100, 30))
    finally:
        set_language("en")


@pytest.mark.parametrize("d, d_ff", [(768, 3072), (512, 2048)])
def test_the_blocks_bill_says_it_is_at_the_controls_d_not_the_toys(d, d_ff):
    """attention/block drew the toy at d = 4 above a bill at d 768 with nothing saying which d the bill
    was at (a newcomer's trial): it says "at d …", and its counts are the closed forms there:
    attention 4d² + 4d, FFN 2·d·d_ff + d_ff + d, two LayerNorms 4d."""
    state = BlockState(d=d, d_ff=d_ff)
    text = one_app.txt(*find("attention/block"), state, (100, 30))
    attn, ffn, ln = 4 * d * d + 4 * d, 2 * d * d_ff + d_ff + d, 4 * d
    assert f"at d {d}, per layer: attn {attn:,} + FFN {ffn:,} + LN {ln:,} = {attn + ffn + ln:,}" in text


def test_the_block_in_chinese_says_per_layer_before_its_sum_and_hidden_in_chinese():
    """"= 7,087,872 每层" and a stage named "hidden" among Chinese words (a Chinese student's trial)."""
    from rnntui.i18n import set_language

    state = BlockState(stage=4)
    assert state.readings().stages[4] == "hidden"  # the FFN's inner layer, after LN₁ (post-norm)
    d, d_ff = state.d, state.d_ff
    per_layer = (4 * d * d + 4 * d) + (2 * d * d_ff + d_ff + d) + 4 * d
    try:
        set_language("zh")
        text = render(*find("attention/block"), state, "txt", (100, 30))
    finally:
        set_language("en")
    assert "▸隐层◂" in text and "hidden" not in text
    total = next(line for line in text.splitlines() if "+ FFN" in line)
    assert "每层：" in total.split("attention")[0] and total.rstrip(" │").endswith(f"= {per_layer:,}")


def test_qkv_out_at_the_lecture_size_gives_v_the_room_a_matrix_it_does_not_read_took():
    """At 100x30, random weights, out = A·V drew V at 2 of 64 columns beside Ŝ whole, which it does not read
    (a review): only 2 of out's 14 columns could be checked against V. Where not all fit, what out reads
    goes first."""
    import re

    text = txt(QkvState(weights="random", stage=5), "qkv", (100, 30))
    drawn, _named = drawn_and_named(text)
    shown = int(re.search(r"V\s+(\d+) of 64 columns", text).group(1))
    assert {"V", "A", "out"} <= set(drawn) and "Ŝ" not in drawn and "S" not in drawn and shown >= 7


@pytest.mark.parametrize("cell", [0, 10, 23])
def test_the_summary_says_where_its_cursor_is_counted_from_one(cell):
    """The parameter line read "←→ cell 0" (a lecturer's PNG): it says the cell as --set takes it, and its
    row and column counted from 1, as the table reads them (6 columns a row)."""
    text = txt(SummaryState(cell=cell), "summary")
    assert f"←→ cell {cell} (row {cell // 6 + 1}, column {cell % 6 + 1})" in text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_positions_corner_names_both_axes_and_the_ranges_are_said(size):
    """The corner label "pos" stood over the dimensions' numbers (the rows are dimensions, the columns
    positions), and "… : first and last p, equal for every p" read as a riddle (a trial). The corner says
    d down and p across, the legend says what "x … y" is; and the values are what closed-form sinusoids
    give at the first and the last p, the same at every p between (PE(p)·PE(p+k) = Σ cos(k·ω_i))."""
    state = PositionsState()
    r = state.readings()
    text = txt(state, "positions", size)
    lines = text.splitlines()
    head = next(line for line in lines if "d\\p" in line)
    assert head.strip("│ ").split()[:10] == ["d\\p", *"012345678"] and not re.search(r"\bpos\b", text)
    said = " ".join(" ".join(line.strip("│ ").split()) for line in lines)
    assert "columns: positions p" in said and "“x … y” on the right: at the first p and at the last, the same for every p" in said
    d, n = r.d, len(r.pe)
    omega = 1 / 10000 ** (np.arange(0, d, 2) / d)
    for k, dots in ((1, r.dots_k1), (4, r.dots_k4)):
        want = float(np.sum(np.cos(k * omega)))
        every = [np.dot(r.pe[p], r.pe[p + k]) for p in range(n - k)]
        assert np.allclose(every, want) and dots[0] == pytest.approx(want) and dots[-1] == pytest.approx(want)
        assert f"PE(p)·PE(p+{k}) {want:.3f} … {want:.3f}" in said


def test_a_nan_row_is_explained_once_where_the_query_is_that_row():
    """With the strict mask and query 0 the query's lines said "may read no key … = NaN" and the line under
    them said it again (a review): the query's lines say it there; at another query the NaN row's line does."""
    at_zero = txt(QkvState(mask="strict", query=0, stage=5), "qkv", (100, 30))
    assert "query 那只 may read no key (strict mask)" in at_zero and "NaN row 那只" not in at_zero
    assert "NaN row 那只" in txt(QkvState(mask="strict", query=4, stage=5), "qkv", (100, 30))


def test_the_pinned_cells_are_named_as_the_matrix_names_its_rows():
    """After x the matrices' rows read 开始′ 跑′ and the query line 查询“跑′”, but the readout still said
    A[跑,猫] (a Chinese student's trial): it names the cell as the rows do, and its value is that cell's."""
    redrawn = QkvState(later="redrawn", stage=5)
    r = redrawn.readings()
    text = txt(redrawn, "qkv", (100, 30))
    assert r.tokens[4] == "跑′" and f"A[跑′,猫] {r.weights[4][1]:.4f}" in text and "A[跑,猫]" not in text
    assert f"A[跑,猫] {QkvState(stage=5).readings().weights[4][1]:.4f}" in txt(QkvState(stage=5), "qkv", (100, 30))


def test_the_block_says_its_rows_are_tokens_and_its_columns_the_features():
    """"the toy sentence's rows (noun, verb, det, adv)" read as rows of word classes, where the rows are the
    five tokens and the classes its columns 0–3, headed by numbers only (a Chinese student's trial)."""
    from rnntui.engine import attention as at

    text = " ".join(" ".join(l.strip("│ ").split()) for l in txt(fig("block").state_type(), "block", (100, 30)).splitlines())
    order = [at.FEATURES[int(np.argmax(at.X_TOY[i]))] for i in (1, 4, 0, 2)]  # 猫 跑 那只 突然, one class each
    assert order == ["noun", "verb", "det", "adv"]
    assert f"a token a row, its columns 0–3 {', '.join(order)}" in text


def test_scaling_help_says_what_each_number_of_its_row_is():
    """"var(q·k) 63.82 max weight 0.874 entropy 0.317 ‖∂a/∂s‖ 0.152" was explained nowhere: which norm, how
    many draws, of what (a student's trial). Help says it, and what it says holds: the scores' variance is d_k
    unscaled and 1 scaled (q·k sums d_k products of two N(0,1)), and ‖∂a/∂s‖ is the Frobenius norm of
    diag(a) − aaᵀ, redone here for a uniform a (√(k−1)/k) and a one-hot a (0)."""
    from types import SimpleNamespace

    from rnntui.help import help_text

    prose = help_text(SimpleNamespace(TOPIC_ID="attention", figure=fig("scaling"), state=ScalingState()))[1]
    assert "4,000 seeded draws of a query q and 8 keys" in prose and "Frobenius norm" in prose
    # the scores' variance is var(s), s scaled where the row is: "scaled var(q·k) 0.9972" said scaling changed
    # var(q·k), which stays d_k (a numbers audit)
    assert "var(s): the scores' variance" in prose and "var(q·k)" not in prose
    shown = txt(ScalingState(d_k=64), "scaling", (100, 30))
    assert re.search(r"scaled +var\(s\) +0\.99", shown) and "var(q·k)" not in shown
    for d_k in (16, 64):
        for scaling, var in (("unscaled", d_k), ("scaled", 1.0)):
            assert ScalingState(d_k=d_k, scaling=scaling).readings().score_var == pytest.approx(var, rel=0.05)
    from rnntui.engine.attention import jacobian_norm

    k = 8
    assert jacobian_norm(np.full((1, k), 1 / k))[0] == pytest.approx(math.sqrt(k - 1) / k)
    assert jacobian_norm(np.eye(k)[:1])[0] == pytest.approx(0.0)


def test_each_toy_head_is_two_columns_of_the_toys_q_and_k():
    """"head 1 (noun, verb) and head 2 (det, adv)" named the heads after X's features, while Q's and K's
    columns are not X's (K's column 0 holds 那只's key, a determiner; a student's trial). The line says columns;
    each head's A is redone here from those columns of qkv's Q and K: softmax(QₕKₕᵀ/√2) under the causal mask."""
    q = QkvState().readings()
    heads = HeadsState().readings()
    n = len(q.tokens)
    for j, cols in enumerate((slice(0, 2), slice(2, 4))):
        s = np.asarray(q.Q)[:, cols] @ np.asarray(q.K)[:, cols].T / math.sqrt(2)
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        a = np.exp(s - s.max(axis=1, keepdims=True))
        assert np.allclose(heads.weights[j], a / a.sum(axis=1, keepdims=True))
    text = txt(HeadsState(), "heads", (100, 30))
    assert "Head 1 is columns 0–1 of the toy's Q, K, V, head 2 columns 2–3" in " ".join(text.split())
    assert "noun, verb" not in text


@pytest.mark.parametrize("size", [(160, 48), (100, 30)])
def test_the_masks_legend_names_the_mark_drawn(size):
    """At 160x48 the cells that may read are solid tiles and the legend said "● may read" (a lecturer's
    slides): the legend names the mark the grid draws, █ where tiles are drawn, ● where marks are."""
    from rnntui.figures.attention import MasksState
    from rnntui.screens.attention import AttentionScreen

    text = one_app.txt(AttentionScreen, AttentionScreen.figure_by_id("masks"), MasksState(), size)
    grid = [line for line in text.splitlines() if "那只" in line or "y₀" in line]
    mark = "█" if any("█████" in line for line in grid) else "●"
    assert any(mark in line for line in grid) and f"{mark} may read" in text, (size, text)
    assert ("█" if mark == "●" else "●") + " may read" not in text


def test_a_toggle_does_not_move_the_rows_below_the_parameter_bar():
    """Leaving out "↑↓ +-" put qkv's bar on one row at 80x24 until w or x made a value longer, and the
    matrices jumped a row (a review): which pieces go is decided with every choice at its longest."""
    rows = []
    for weights in ("toy", "random"):
        for x in ("kept", "redrawn"):
            for mask in ("causal", "full", "strict"):
                lines = txt(QkvState(weights=weights, later=x, mask=mask), "qkv").splitlines()
                at = next(i for i, line in enumerate(lines) if "←→ stage" in line)
                rows.append(next(i for i in range(at, len(lines)) if lines[i].startswith("╰")) - at)
    assert set(rows) == {2}  # the bar's two rows, then the panel's edge, in all twelve


async def test_the_positions_legend_draws_the_signs_in_the_maps_colours():
    """The heat map is orange for + and blue for −, and its legend said "░▒▓█ |PE| and its sign" in grey (a
    lecturer's trial): it shows █+ and █− as the map draws them, each named."""
    from rnntui.app import RnnApp
    from rnntui.widgets.matrix import shade

    app = RnnApp("attention", "positions")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        legend = app.topic_screen().query_one("#legend")._text
        for v, word in ((0.99, "positive"), (-0.99, "negative")):
            sample, tint = shade(v)
            at = legend.plain.index(f"{sample} {word}")
            assert any(span.start <= at < span.end and span.style == tint for span in legend.spans), (word, tint)
            assert not legend.style and all(span.style == "dim" for span in legend.spans  # (as bright as the map's:
                                             if span.start <= at < span.end and span.style != tint)  # dim drew it pale)


def test_the_positions_map_labels_every_position_where_it_has_the_room():
    """On a projector's 120x40 slide the 16 positions took 32 columns beside 40 blank ones, and 11, 13 and 15
    had no label (a lecturer's trial): where each fits in three cells, every position is labelled; at 80x24
    two cells each, a label where it fits."""
    for size, labelled in (((100, 30), [str(p) for p in range(16)]), ((80, 24), ["0", "1", "9", "10", "12", "14"])):
        head = next(l for l in render(*find("attention/positions"), PositionsState(), "txt", size).splitlines()
                    if "d\\p" in l)
        shown = head.split("d\\p", 1)[1].split("PE(")[0].split()
        assert shown[:len(labelled)] == labelled if size[0] == 100 else set(labelled) <= set(shown)
        assert ("11" in shown) == (size[0] == 100)


@pytest.mark.parametrize("activation", ["relu", "gelu", "swiglu"])
def test_blocks_json_carries_the_weights_that_recompute_its_ffn_stages(activation):
    """The .json had the stages' rows but not W1, W2 or their biases, so hidden and FFN could not be re-checked
    from it (a mathematician's audit). From its own numbers, with numpy: hidden and FFN, post-norm."""
    data = json.loads(render(SCREEN, fig("block"), BlockState(activation=activation), "json"))
    m, w = data["matrices"], data["toy"]
    x = np.array(m["LN₁"])
    if activation == "swiglu":
        z = x @ np.array(w["w1"])
        hidden = z / (1 + np.exp(-z)) * (x @ np.array(w["w3"]))
        assert "b1" not in w and "b2" not in w
    else:
        z = x @ np.array(w["w1"]) + np.array(w["b1"])
        hidden = np.maximum(z, 0) if activation == "relu" else 0.5 * z * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))
    assert np.array(m["hidden"]) == pytest.approx(hidden, abs=1e-7 if activation == "gelu" else 1e-12)
    ffn = np.array(m["hidden"]) @ np.array(w["w2"]) + np.array(w.get("b2", np.zeros(4)))
    assert np.array(m["FFN"]) == pytest.approx(ffn, abs=1e-12)
    assert np.array(w["w_o"]) == pytest.approx(np.eye(4)) and len(w["w1"]) == 4 and len(w["w1"][0]) == w["d_ff"]


@pytest.mark.parametrize("size", [(160, 48), (200, 60)])
def test_on_a_large_terminal_the_layers_table_stands_between_its_stages_and_its_sums(size):
    """At 160x48 attention/block drew its one table under the stages' line and its worked sums 28 rows below
    (a mouse user's trial): the spare rows are shared above and below it, as a slide's are."""
    lines = txt(BlockState(), "block", size).splitlines()
    stages = next(i for i, line in enumerate(lines) if "▸x◂ →" in line)
    first = next(i for i, line in enumerate(lines) if "那只" in line)
    last = max(i for i, line in enumerate(lines) if "跑" in line)
    sums = next(i for i, line in enumerate(lines) if "the toy sentence, a token a row" in line)
    above, below = first - stages, sums - last
    assert above > 5 and abs(above - below) <= 2, (above, below)
    assert "1.000" in lines[first + 2]  # (猫's row: its table whole)
