"""scripts/analysis/seed_draws.py: two recipes over several draws, paired within each draw."""

import json

from scripts.analysis import seed_draws


def _folder(path, scores):
    path.mkdir()
    rows = [{"task": "stage-6", "split": "validation", "id": f"p{i}", "score": s} for i, s in enumerate(scores)]
    (path / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_each_draw_is_paired_on_its_own_problems_and_summarised_over_the_draws(tmp_path):
    a0, b0 = _folder(tmp_path / "a0", [0.9, 0.8, 1.0, 0.7]), _folder(tmp_path / "b0", [1.0, 0.9, 1.0, 0.8])
    a1, b1 = _folder(tmp_path / "a1", [0.6, 0.6, 0.6, 0.6]), _folder(tmp_path / "b1", [0.5, 0.5, 0.5, 0.5])
    out = tmp_path / "draws.md"
    argv = ["--task", "stage-6", "--names", "k", "c", "--draw", "0", str(a0), str(b0), "--draw", "1", str(a1), str(b1)]
    assert seed_draws.main([*argv, "--out", str(out)]) == 0
    rows, summary = seed_draws.draws_table("stage-6", ("k", "c"), [("0", a0, b0), ("1", a1, b1)])
    assert [round(r["difference"], 3) for r in rows] == [0.075, -0.1]
    assert round(summary["mean_difference"], 4) == -0.0125 and summary["b_ahead"] == 1
    assert {key: round(value, 3) for key, value in summary["k"].items()} == {
        "lowest": 0.6,
        "highest": 0.85,
        "mean": 0.725,
    }
    assert round(summary["c"]["lowest"], 3) == 0.5 and round(summary["c"]["highest"], 3) == 0.925
    text = out.read_text()
    assert "| 0 | 4 | 0.850 | 0.925 | +0.075 |" in text and "c ahead in 1 of 2" in text
