"""scripts/summarize_runs.py: one record per run folder (those with a summary.json), its final validation rows from
either layout (RUN/eval-validation/ or the later sweeps' scores/RUN-validation/)."""

import json
import subprocess
import sys

from tests.conftest import REPO_ROOT


def _run(folder, steps):
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps({"global_step": steps, "wall_seconds": 1.0}))
    (folder / "metrics.jsonl").write_text(
        "".join(json.dumps({"global_step": i, "reward": 0.5}) + "\n" for i in range(steps))
    )


def _eval(folder, score):
    folder.mkdir(parents=True)
    row = {"task": "stage-1", "n": 4, "nw_score": score, "exact_match": 0.5}
    (folder / "eval.json").write_text(json.dumps({"rows": [row]}))


def test_runs_and_their_scores_in_both_layouts(tmp_path):
    batch = tmp_path / "batch"
    _run(batch / "old", 3)
    _eval(batch / "old" / "eval-validation", 0.7)
    _run(batch / "new", 12)
    _eval(batch / "scores" / "new-validation", 0.9)
    (batch / "logs").mkdir()
    out = tmp_path / "batch.json"
    subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "summarize_runs.py"), str(batch), str(out), "--note", "n"],
        check=True,
        capture_output=True,
        cwd=REPO_ROOT,
    )
    record = json.loads(out.read_text())
    runs = {run["run"]: run for run in record["runs"]}
    assert sorted(runs) == ["new", "old"]  # logs/ and scores/ are no runs
    assert runs["old"]["final_validation"][0]["nw_score"] == 0.7
    assert runs["new"]["final_validation"][0]["nw_score"] == 0.9
    assert runs["new"]["steps"] == 12 and len(runs["new"]["train_curve_every_10_steps"]) == 2


def test_a_runs_record_keeps_its_train_draw_shares_of_its_recipe(tmp_path):
    """The recipe keys of a run's record include the identifier shares (long ones too), the doubled and the repeated
    fractions, and not the rest."""
    batch = tmp_path / "batch"
    _run(batch / "long", 2)
    summary = json.loads((batch / "long" / "summary.json").read_text())
    recipe = {
        "identifier_fraction": "0.5",
        "long_identifier_share": "0.25",
        "doubled_fraction": "0.3",
        "repeated_fraction": "0.2",
        "learning_rate": 1e-5,
    }
    (batch / "long" / "summary.json").write_text(json.dumps({**summary, "recipe": recipe}))
    out = tmp_path / "batch.json"
    subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "summarize_runs.py"), str(batch), str(out)],
        check=True,
        capture_output=True,
        cwd=REPO_ROOT,
    )
    (run,) = json.loads(out.read_text())["runs"]
    assert run["recipe"] == {
        "identifier_fraction": "0.5",
        "long_identifier_share": "0.25",
        "doubled_fraction": "0.3",
        "repeated_fraction": "0.2",
    }
