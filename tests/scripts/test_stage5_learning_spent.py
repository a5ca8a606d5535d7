"""scripts/analysis/stage5_learning_spent.py: the learning rate a stage-5 arm spent, read from its own log, beside its
score and its first part's; arms whose batch has not run are left out."""

import json

from scripts.analysis import stage5_learning_spent as spent


def _run(folder, rates, steps):
    folder.mkdir(parents=True)
    (folder / "metrics.jsonl").write_text("".join(json.dumps({"learning_rate": r, "loss": 0.1}) + "\n" for r in rates))
    (folder / "summary.json").write_text(json.dumps({"global_step": steps}))


def _scores(folder, task, score):
    folder.mkdir(parents=True)
    (folder / "eval.json").write_text(json.dumps({"rows": [{"task": task, "nw_score": score}]}))


def test_the_rate_spent_is_the_logged_rates_mean_times_the_steps_in_the_constant_rates_units(tmp_path):
    _run(tmp_path / "constant", [5e-4] * 4, 759)
    _run(tmp_path / "decayed", [5e-4, 5e-4, 2.5e-4, 0.0], 759)
    _run(tmp_path / "short", [5e-4] * 4, 253)
    assert abs(spent.learning_rate_spent(tmp_path / "constant") - 1.0) < 1e-9
    assert abs(spent.learning_rate_spent(tmp_path / "decayed") - 0.625) < 1e-9
    assert abs(spent.learning_rate_spent(tmp_path / "short") - 1 / 3) < 1e-9


def test_the_table_reads_the_committed_arms_and_leaves_out_those_not_run(tmp_path):
    draw, schedule, run, first_part = spent.ARMS[0]
    _run(tmp_path / run, [5e-4, 2.5e-4], 759)
    _scores(spent.validation_scores(tmp_path, run), "stage-5", 0.9)
    _scores(spent.validation_scores(tmp_path, first_part), "stage-6", 0.8)
    rows = spent.table(tmp_path)
    assert len(rows) == 1  # the other arms' folders are not there
    (row,) = rows
    assert (row["draw"], row["schedule"], row["stage5_200w"], row["first_part_500w"]) == (draw, schedule, 0.9, 0.8)
    assert abs(row["learning_rate_spent"] - 0.75) < 1e-9
    assert f"| {draw} | {schedule} | `{run}` | 0.75 | 0.900 | 0.800 |" in spent.markdown(rows)


def test_the_committed_arms_read_their_own_records():
    """ARMS against the committed records: each first part is the one trained from its stage-5 run (batch 40's s6a
    from batch 38's l5-5e4), read where the batch READMEs report them."""
    rows = {row["run"]: row for row in spent.table()}
    constant, cosine = rows["batch-38/l5-5e4"], rows["batch-44/l5-cos"]
    assert (round(constant["stage5_200w"], 3), round(constant["first_part_500w"], 3)) == (0.935, 0.899)
    assert (round(cosine["stage5_200w"], 3), round(cosine["first_part_500w"], 3)) == (0.944, 0.830)
    assert round(constant["learning_rate_spent"], 2) == 1.0 and round(cosine["learning_rate_spent"], 2) == 0.51
    assert rows["batch-44/l5-cos-s3"]["first_part_500w"] is None  # draw 3 was not carried through stage 6
    wsd, wsd2 = rows["batch-45/l5-wsd"], rows["batch-45/l5-wsd-s2"]  # batch 45's README: 0.90 spent, 0.854 and 0.887
    assert round(wsd["learning_rate_spent"], 2) == 0.9 and round(wsd2["learning_rate_spent"], 2) == 0.9
    assert (round(wsd["first_part_500w"], 3), round(wsd2["first_part_500w"], 3)) == (0.854, 0.887)
