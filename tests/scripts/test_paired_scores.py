"""scripts/paired_scores.py: two evaluations compared on the problems both answered, with a bootstrap interval of the
paired difference; folders without problem records, or with no problem in common, are one clear error."""

import gzip
import json
import subprocess
import sys

from tests.conftest import REPO_ROOT

SCRIPT = str(REPO_ROOT / "scripts" / "paired_scores.py")


def write(folder, scores, task="stage-6", gzipped=False, prefix="500w-test-seed0-"):
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"label": "trained", "task": task, "id": f"{prefix}{i:07d}", "score": s} for i, s in enumerate(scores)]
    rows.append({"label": "baseline", "task": task, "id": f"{prefix}0000000", "score": 0.0})  # not the adapter's
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if gzipped:
        (folder / "problems.jsonl.gz").write_bytes(gzip.compress(text.encode()))
    else:
        (folder / "problems.jsonl").write_text(text)
    return folder


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True)


def test_a_paired_difference_with_its_interval_counts_and_record(tmp_path):
    a = write(tmp_path / "a", [1.0, 0.5, 0.8, 0.9] * 25, gzipped=True)
    b = write(tmp_path / "b", [1.0, 0.7, 0.8, 0.8] * 25 + [0.0] * 10)  # 10 more problems: not in a, left out
    out = tmp_path / "paired.json"
    proc = run(a, b, "--out", out)
    assert proc.returncode == 0, proc.stderr
    row = json.loads(out.read_text())["rows"][0]
    assert row["task"] == "stage-6" and row["n"] == 100
    assert abs(row["mean_a"] - 0.8) < 1e-9 and abs(row["mean_b"] - 0.825) < 1e-9
    assert abs(row["difference"] - 0.025) < 1e-9
    assert (row["b_higher"], row["b_lower"], row["same"]) == (25, 25, 50)
    assert row["low"] < row["difference"] < row["high"]
    assert row["low"] < 0.025 and row["high"] < 0.1  # +0.2 and -0.1 a quarter each: an interval around +0.025
    assert "| stage-6 | 100 | 0.800 | 0.825 | +0.025 |" in proc.stdout


def test_a_difference_on_every_problem_has_an_interval_clear_of_zero(tmp_path):
    a = write(tmp_path / "a", [0.9, 0.8, 0.7, 1.0] * 16)
    b = write(tmp_path / "b", [0.95, 0.9, 0.8, 1.0] * 16)
    out = tmp_path / "paired" / "p.json"  # a folder not made yet: the script makes it (batch 38's paired/)
    proc = run(a, b, "--out", out)
    assert proc.returncode == 0, proc.stderr
    row = json.loads(out.read_text())["rows"][0]
    assert proc.returncode == 0 and row["low"] > 0 and row["b_lower"] == 0


def test_a_folder_without_problems_or_without_shared_problems_is_one_clear_error(tmp_path):
    a = write(tmp_path / "a", [1.0, 0.5])
    (tmp_path / "empty").mkdir()
    proc = run(a, tmp_path / "empty")
    assert proc.returncode != 0 and "no problems.jsonl" in proc.stderr and "Traceback" not in proc.stderr
    other = write(tmp_path / "other", [1.0, 0.5], prefix="500w-validation-seed0-")
    proc = run(a, other)
    assert proc.returncode != 0 and "no problem answered in both" in proc.stderr and "Traceback" not in proc.stderr
    proc = run(a, a, "--tasks", "stage-5")
    assert proc.returncode != 0 and "stage-5: not scored in both" in proc.stderr
    validation, test = tmp_path / "validation", tmp_path / "test"  # real evaluations name their split
    for folder, split in ((validation, "validation"), (test, "test")):
        folder.mkdir()
        row = {"label": "trained", "task": "stage-6", "split": split, "id": f"500w-{split}-seed0-0000000", "score": 1}
        (folder / "problems.jsonl").write_text(json.dumps(row) + "\n")
    proc = run(validation, test)
    assert proc.returncode != 0 and "no task and split scored in both folders" in proc.stderr
    assert "stage-6 (validation)" in proc.stderr and "stage-6 (test)" in proc.stderr and "Traceback" not in proc.stderr


def test_baseline_against_trained_in_exact_matches_per_split(tmp_path):
    """--baseline pairs one evaluation's baseline rows with its trained rows; --metric exact pairs 1s and 0s; a
    folder of two splits (the arithmetic control's) gives a row for each."""
    folder = tmp_path / "eval"
    folder.mkdir()
    rows = []
    for split, base_right, trained_right in (("validation", 2, 12), ("test", 3, 14)):
        for i in range(100):
            for label, right in (("baseline", base_right), ("trained", trained_right)):
                exact = i < right
                rows.append(
                    {
                        "label": label,
                        "task": "arithmetic-2x2",
                        "split": split,
                        "id": f"2x2-{split}-seed0-{i:07d}",
                        "score": 1.0 if exact else 0.5,
                        "exact": exact,
                    }
                )
    (folder / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc = run(folder, "--baseline", "--metric", "exact", "--out", tmp_path / "p.json")
    assert proc.returncode == 0, proc.stderr
    by_split = {r["split"]: r for r in json.loads((tmp_path / "p.json").read_text())["rows"]}
    assert abs(by_split["validation"]["difference"] - 0.10) < 1e-9 and by_split["validation"]["n"] == 100
    assert abs(by_split["test"]["difference"] - 0.11) < 1e-9 and by_split["test"]["b_lower"] == 0
    assert by_split["test"]["low"] > 0
    assert "| arithmetic-2x2, test | 100 | 0.030 | 0.140 | +0.110 |" in proc.stdout
    for argv in ((folder,), (folder, folder, "--baseline")):
        proc = run(*argv)
        assert proc.returncode != 0 and "one with --baseline" in proc.stderr and "Traceback" not in proc.stderr
    one_baseline = write(tmp_path / "one", [1.0, 0.5])
    proc = run(one_baseline, "--baseline")
    assert proc.returncode == 0  # write() adds one baseline row: its problem is paired
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "problems.jsonl").write_text(json.dumps({"task": "stage-1", "id": "x", "score": 1.0}) + "\n")
    proc = run(tmp_path / "only", "--baseline")
    assert proc.returncode != 0 and "no baseline rows" in proc.stderr and "Traceback" not in proc.stderr


def test_by_register_adds_a_row_for_each_register_of_the_problems_texts(tmp_path):
    """A problem counts for the register of each of its two texts; the gain here is all on the numeric ones."""
    registers = [("numeric", "speech"), ("speech", "fiction"), ("numeric", "numeric"), ("fiction", "speech")] * 10

    def write_registers(folder, scores):
        rows = [
            {"label": "trained", "task": "stage-6", "id": f"p{i}", "score": s, "register_a": ra, "register_b": rb}
            for i, (s, (ra, rb)) in enumerate(zip(scores, registers))
        ]
        folder.mkdir()
        (folder / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        return folder

    a = write_registers(tmp_path / "a", [0.5] * 40)
    b = write_registers(tmp_path / "b", [0.9 if "numeric" in pair else 0.5 for pair in registers])
    out = tmp_path / "p.json"
    proc = run(a, b, "--by_register", "--out", out)
    assert proc.returncode == 0, proc.stderr
    rows = {r.get("register"): r for r in json.loads(out.read_text())["rows"]}
    assert set(rows) == {None, "fiction", "numeric", "speech"}
    assert rows[None]["n"] == 40 and abs(rows[None]["difference"] - 0.2) < 1e-9
    assert rows["numeric"]["n"] == 20 and abs(rows["numeric"]["difference"] - 0.4) < 1e-9
    assert rows["fiction"]["n"] == 20 and rows["fiction"]["difference"] == 0
    assert rows["speech"]["n"] == 30 and abs(rows["speech"]["difference"] - 0.4 / 3) < 1e-9
    assert "| stage-6, with numeric | 20 | 0.500 | 0.900 | +0.400 |" in proc.stdout
