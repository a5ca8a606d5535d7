"""scripts/analysis/promotion_check_noise.py: how often a small promotion check passes an adapter under its bar."""

import json

import pytest

from scripts.analysis import promotion_check_noise


def _folder(path, scores, task="stage-2"):
    path.mkdir()
    rows = [{"task": task, "split": "validation", "id": f"p{i}", "score": s} for i, s in enumerate(scores)]
    rows.append({"task": "stage-1", "split": "validation", "id": "q", "score": 0.0})  # another task: left out
    (path / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_small_check_passes_an_adapter_under_the_bar_more_often_than_a_large_one(tmp_path):
    # 90% of answers whole, 10% at 0.7: a mean of 0.97, under a bar of 0.98
    folder = _folder(tmp_path / "eval", [1.0] * 90 + [0.7] * 10)
    scores = promotion_check_noise.task_scores(folder, "stage-2")
    assert len(scores) == 100 and abs(sum(scores) / 100 - 0.97) < 1e-9
    small, large = promotion_check_noise.check_noise(scores, [16, 256], [0.98, 1.0], draws=4000, seed=0)
    assert small["sd"] > large["sd"] > 0
    assert small["passes"][0.98] > large["passes"][0.98]
    # a check of 16 is all whole answers with probability 0.9 ** 16 (~0.185)
    assert small["passes"][1.0] == pytest.approx(0.9**16, abs=0.03)


def test_the_table_is_written(tmp_path):
    folder = _folder(tmp_path / "eval", [1.0, 0.9, 0.95, 1.0])
    out = tmp_path / "noise.md"
    assert (
        promotion_check_noise.main(
            [str(folder), "--task", "stage-2", "--bars", "0.98", "--sizes", "2,4", "--draws", "100", "--out", str(out)]
        )
        == 0
    )
    text = out.read_text()
    assert "| 2 |" in text and "| 4 |" in text and "P(check >= 0.98)" in text and "4 answers, mean 0.963" in text


def test_a_task_not_scored_is_a_clear_error(tmp_path):
    folder = _folder(tmp_path / "eval", [1.0])
    with pytest.raises(SystemExit, match="0 splits scored for stage-6"):
        promotion_check_noise.task_scores(folder, "stage-6")
