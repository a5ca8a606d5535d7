"""scripts/analysis/arithmetic_group_signal.py: how often a group of sampled answers to a multiplication problem holds
an exact one (what GRPO's exact reward needs), per digits config; the counting, and the whole path on the tiny
model."""

import json

from scripts.analysis.arithmetic_group_signal import group_signal, main


def test_the_counts_of_exact_answers_and_of_groups_that_hold_one():
    exact = [[False, False, True, False], [False] * 4, [True, True, False, False]]
    partial = [[0.5, 0.5, 1.0, 0.0], [0.25] * 4, [1.0, 1.0, 0.5, 0.5]]
    signal = group_signal(exact, partial)
    assert signal["problems"] == 3 and signal["answers"] == 12
    assert abs(signal["exact_share"] - 3 / 12) < 1e-12
    assert abs(signal["groups_with_an_exact_answer"] - 2 / 3) < 1e-12
    assert abs(signal["mean_partial_credit"] - 6.0 / 12) < 1e-12


def test_it_samples_train_problems_of_each_config_and_writes_a_row_each(tiny_model_dir, tmp_path, capsys):
    out = tmp_path / "signal.json"
    assert (
        main(["--model", "tiny-random-llama", "--configs", "3x2,2x2", "--n", "2", "--k", "3", "--out", str(out)]) == 0
    )
    record = json.loads(out.read_text())
    assert [r["config"] for r in record["rows"]] == ["3x2", "2x2"]
    assert all(r["problems"] == 2 and r["answers"] == 6 for r in record["rows"])
    assert all(0.0 <= r["mean_partial_credit"] <= 1.0 for r in record["rows"])
    assert "| 2x2 |" in capsys.readouterr().out


def test_runs_give_the_share_of_exact_training_samples_by_window_of_steps(tmp_path, capsys):
    run = tmp_path / "a2"
    run.mkdir()
    (run / "summary.json").write_text(
        json.dumps({"task": "arithmetic-2x2", "grpo": {"per_device_train_batch_size": 8}})
    )
    key = "rewards/arithmetic_exact_reward/mean"
    rows = [{"global_step": step, key: 0.0 if step < 50 else 0.5} for step in range(1, 121)]
    rows.append({"global_step": 120, key: 1.0})  # a step logged again after a resume: the last record counts
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "runs.json"
    assert main(["--runs", str(run), "--out", str(out)]) == 0
    (record,) = json.loads(out.read_text())["runs"]
    assert record["steps"] == 120 and record["completions_per_step"] == 8 and record["task"] == "arithmetic-2x2"
    assert record["exact_share_by_steps"]["1-49"] == 0.0
    assert abs(record["exact_share_by_steps"]["50-199"] - (70 * 0.5 + 1.0) / 71) < 1e-12
    assert "200-399" not in record["exact_share_by_steps"]  # a window the run never reached
    assert "| arithmetic-2x2 | 120 | 0.0% |" in capsys.readouterr().out


def test_a_folder_without_exact_rewards_is_one_clear_error(tmp_path):
    import pytest

    (tmp_path / "summary.json").write_text("{}")
    (tmp_path / "metrics.jsonl").write_text(json.dumps({"global_step": 1, "loss": 0.1}) + "\n")
    with pytest.raises(SystemExit, match="no rewards/arithmetic_exact_reward/mean"):
        main(["--runs", str(tmp_path)])
